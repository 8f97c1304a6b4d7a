"""Getting the computer players ready while the person at the terminal thinks.

The first run of qiza on a machine builds the lexicon's word graph and compiles the move
generator in another process (:mod:`qiza.coldstart`; half a minute to minutes), and the
computer plays without compiled code meanwhile; later runs load both from the disk cache
in about a second. :class:`WarmUp` does that work in a background thread as soon as a game with a
computer seat starts, by letting a scratch player of each computer level choose moves
on a scratch game. The session waits for it (with a message if it is still busy) before
a computer moves or a hint is given, so nothing runs twice at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from qiza import coldstart
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.rules import Rules

FIRST_RUN_NOTE = ("Getting the computer ready (a first run: the move generator compiles in the background, "
                  "and the computer plays meanwhile)...")
READY_NOTE = "Getting the computer ready..."
"""Said instead of :data:`FIRST_RUN_NOTE` when the compiled code is cached (not a first run)."""
QUIET_WAIT = 0.5
"""Seconds to wait before saying why the computer is not moving yet."""


def compiled_code_cached() -> bool:
    """Whether the move generator's compiled code is in Numba's disk cache for this source
    (False on a machine's first run, and after an upgrade: the code is compiled again)."""
    try:
        from qiza import movegen, movegen_best

        functions: tuple[Any, ...] = (movegen._generate, movegen_best._generate_best)
        for function in functions:
            if not function._cache._cache_file._load_index():
                return False
    except Exception:  # noqa: BLE001 - a Numba without these internals: assume the worst
        return False
    return True


def _is_named(name: str) -> bool:
    """Whether ``load_lexicon(name)`` loads this lexicon in another process."""
    from qiza.lexicon import BUILTIN

    return name.lower() in BUILTIN


class WarmUp:
    """Loads (or compiles) what the computer ``levels`` need, in a daemon thread (``players``:
    the number of players of the game, whose rules may depend on it)."""

    def __init__(self, rules: Rules, lexicon: Lexicon, levels: Sequence[str], players: int = 2) -> None:
        self.levels = tuple(dict.fromkeys(levels))
        self.players = players
        self.warmed: list[str] = []
        self.first_run: bool | None = None
        """Whether the compiled code had to be made (known soon after :meth:`start`)."""
        self._known = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(rules, lexicon), name="qiza-warm-up", daemon=True)
        self._lexicon_name = lexicon.name if _is_named(lexicon.name) else ""

    def start(self) -> None:
        """Start the background work (once); on a machine whose cache lacks the compiled move
        generator, compiling it starts in another process (:mod:`qiza.coldstart`) and the
        computer plays without it meanwhile."""
        if self._thread.ident is None:
            coldstart.start([self._lexicon_name] if self._lexicon_name else [])
            self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the background work is still going on."""
        return self._thread.is_alive()

    def wait(self, show: Callable[[str], object]) -> None:
        """Return when the work is done; if that takes long, ``show`` says why first."""
        if self._thread.ident is None:
            return
        self._thread.join(QUIET_WAIT)
        if self._thread.is_alive():
            self._known.wait()
            show(FIRST_RUN_NOTE if self.first_run else READY_NOTE)
            self._thread.join()

    def _run(self, rules: Rules, lexicon: Lexicon) -> None:
        try:
            self.first_run = not compiled_code_cached()  # before this thread compiles anything
        finally:
            self._known.set()
        try:
            from qiza.players import make_player
        except ImportError:  # pragma: no cover - an installation without computer players
            return
        try:
            scratch = Game(rules, players=self.players, lexicon=lexicon, seed=1)
        except Exception:  # noqa: BLE001 - warming up only saves time; the real game reports problems
            return
        for level in self.levels:
            try:
                # one process: a worker pool must not be forked from this thread
                if level in ("champion", "sim"):
                    player = make_player(level, lexicon, seed=0, workers=1)
                else:
                    player = make_player(level, lexicon, seed=0)
                for _ in range(2):  # an empty board, then one with tiles on it
                    if scratch.over:
                        break
                    scratch.play(player.choose(scratch.view(scratch.to_move)))
                if level == "champion" and coldstart.use_compiled():  # else loaded when the compile is done
                    from qiza.players import endgame_nb

                    endgame_nb.warm_up()
                self.warmed.append(level)
            except Exception:  # noqa: BLE001 - warming up only saves time later; the real move reports errors
                continue
