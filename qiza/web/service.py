"""Games on the server: the only authority.

:class:`GameService` creates games, checks seat tokens, applies every action through the
rules engine (:class:`qiza.game.Game`) and stores it with a compare-and-swap on the game's
version, so a turn submitted twice (or by two processes at once) is applied once. An action
is made against a version; it is refused as stale only if the game itself changed since
(a move, a challenge, a resignation), not for changes around it (a join, a seat given to
the computer, a new invite link) or a player rearranging their own rack (kept apart, in
:meth:`~qiza.web.db.Store.set_rack_order`, and no change to the game at all). It keeps
rebuilt games in memory (rebuilt from the saved actions when another process moved on),
turns each game into what one player may see (:meth:`GameService.state`) and plays the
computer seats in worker processes (:mod:`qiza.web.computer`) so that no game waits for
another and the server's own thread stays free.

Refusals raise :class:`ApiError` with an HTTP status, a short code and a message that
names the problem; the app turns them into JSON error answers.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from qiza import savefile
from qiza.errors import (
    GameOverError,
    IllegalMoveError,
    MoveSyntaxError,
    PhonyWordError,
    QizaError,
    RuleError,
)
from qiza.game import Game, Kind, Record, visible_record
from qiza.languages import lexicon_language, rules_for_lexicon, rules_for_tile_set, tile_set_language
from qiza.move import Exchange, Pass, Place
from qiza.names import clean_name, distinct_names
from qiza.rules import FirstPlayer, Notation, Rules, default_challenge, find_preset, finish_line
from qiza.scoring import place_from_cells
from qiza.sheet import FORFEIT_WORDS
from qiza.web.clocks import Clock, TimeControl
from qiza.web.computer import analyze as analyze_in_worker
from qiza.web.computer import (
    default_level,
    known_levels,
)
from qiza.web.computer_seats import ComputerSeatsMixin
from qiza.web.db import GameRow
from qiza.web.errors import ApiError
from qiza.web.game_clocks import ClocksMixin
from qiza.web.game_core import COMPUTER, PERSON, GameCore, _Cached, hash_token, new_seed
from qiza.web.seats import SeatsMixin, seal, unseal
from qiza.web.views import game_state, ordered_rack, record_json, rules_json

__all__ = ["COMPUTER", "PERSON", "Action", "ApiError", "Created", "GameCore", "GameService", "SeatSpec",
           "distinct_names", "game_state", "hash_token", "new_seed", "ordered_rack", "record_json", "rematch_order",
           "rules_json", "seal", "unseal"]

log = logging.getLogger("qiza.web")


@dataclass
class SeatSpec:
    """A seat asked for when creating a game."""

    kind: str = PERSON
    name: str = ""
    """The player's name; for a seat an account holds, the account's name."""
    level: str | None = None
    user_id: str | None = None
    """The account that holds the seat (a seek's or a rematch's players), if any."""


class Created(NamedTuple):
    """A new game: its id, the tokens of the seats taken and the invite secret."""

    id: str
    tokens: dict[int, str]
    invite: str


@dataclass
class Action:
    """One action: ``kind`` is place, exchange, pass, challenge or resign."""

    kind: str
    move: str | None = None
    cells: Mapping[str, str] | None = None
    tiles: str | None = None


def rematch_order(game: Game) -> list[int]:
    """The seats of a finished game in the order of play of the next game of its players (the
    club's rematch, :meth:`GameService.play_again`): turned round, the next player starts and
    who started plays last.

    >>> game = Game(find_preset("classic"), players=["Ann", "Bob", "Cy"], seed=1)
    >>> game.starter, rematch_order(game)
    (0, [1, 2, 0])
    """
    count = len(game.players)
    return [(game.starter + 1 + i) % count for i in range(count)]


def _with_id(write: Callable[[Any, str], None], game_id: str) -> Callable[[Any], None]:
    """A write of a new game's transaction that is given the game's id."""
    return lambda connection: write(connection, game_id)


def placement_from_cells(game: Game, cells: Mapping[str, str]) -> Place:
    """The placement of tiles put on squares (a square's name, or its number, to a tile) in
    ``game``; 422 naming what is wrong. The keys are this API's; what is on them is the engine's
    to judge (:func:`~qiza.scoring.place_from_cells`: the tiles, a line without gaps)."""
    squares: dict[int, str] = {}
    keys: dict[int, str] = {}
    size = game.board.size
    for key, value in cells.items():
        try:
            # a number in ASCII digits (int() would read any script's digits too)
            square = int(key) if key.isascii() and key.isdigit() else game.rules.layout.parse_square(key)
        except (ValueError, IndexError):
            raise ApiError(422, "malformed_move", f"{key!r} is not a square") from None
        if not 0 <= square < size * size:
            raise ApiError(422, "malformed_move", f"square {key} is off the board")
        if square in keys:  # H8, h8, H08 and 112 are one square: two tiles cannot go on it
            raise ApiError(422, "malformed_move", f"{keys[square]!r} and {key!r} name the same square "
                           f"{game.rules.layout.square_name(square)} twice: one tile a square")
        keys[square] = key
        squares[square] = value
    try:
        return place_from_cells(game.board, squares)
    except MoveSyntaxError as exc:
        raise ApiError(422, "malformed_move", str(exc)) from None
    except QizaError as exc:
        raise ApiError(422, "illegal_move", str(exc)) from None


class GameService(SeatsMixin, ClocksMixin, ComputerSeatsMixin):
    """Every game of one server process: creating games, what each seat sees, and acting (the
    concerns are the mixins', storing is :class:`~qiza.web.game_core.GameCore`'s)."""

    # -- creating and joining --------------------------------------------------------------------
    def create(self, *, preset: str = "classic", options: Mapping[str, Any] | None = None,
               seats: Sequence[SeatSpec], seed: int | None = None, lexicon: str = "enable",
               word_help: bool | None = None, finish_line_levels: Sequence[str] | None = None,
               claim: Sequence[int] = (0,), time_control: TimeControl | None = None, rated: bool = False,
               extra: Mapping[str, Any] | None = None, session: str | None = None, holder: str | None = None,
               also: Sequence[Callable[[Any, str], None]] = ()) -> Created:
        """Create a game; returns its id, the secret tokens of the person seats in ``claim``
        and the invite secret that others need to take the free person seats. ``seed``: the
        bag's seed (for tests; by default one from :attr:`seeds`; the HTTP API takes none). The first
        seat claimed is the creator's: that player may show the invite again, replace or
        withdraw it, and give free seats to the computer. ``session``: the hash of the session of a
        signed-in creator, whose account holds their seat: that seat's token works while it is open
        (as :meth:`~qiza.web.seats.SeatsMixin.issue_token`'s). ``holder``: the creator's browser
        (:func:`qiza.web.accounts.seat_holder`), kept with the seats claimed. ``also``: more writes that commit with
        the new game or not at all (a seek records its game), each called with the connection and
        the game's id."""
        if not 2 <= len(seats) <= 4:
            raise ApiError(422, "bad_seats", f"a game has 2 to 4 seats, not {len(seats)}")
        if finish_line_levels and len(finish_line_levels) != len(seats):
            raise ApiError(422, "bad_rules", f"Finish Line needs one level per seat: {len(finish_line_levels)} "
                           f"levels for {len(seats)} seats")
        if not options or "challenge" not in options:  # the terminal's default (qiza.rules)
            against = any(spec.kind == COMPUTER for spec in seats)
            try:
                options = {**(options or {}), "challenge": default_challenge(preset, against_computer=against).value}
            except (ValueError, TypeError) as exc:
                raise ApiError(422, "bad_rules", str(exc)) from None
        rules = self._preset_rules(preset, options, finish_line_levels)
        self._fit_lexicon(rules, lexicon)  # refused before loading a word list (Polish: seconds)
        lex = self.lexicon(lexicon)
        try:
            rules = rules_for_lexicon(rules, lex)  # a French lexicon plays with the French tiles
        except (QizaError, ValueError) as exc:
            raise ApiError(422, "bad_rules", str(exc)) from None
        levels = known_levels()
        names: list[str] = []
        stored: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        for index, spec in enumerate(seats):
            if spec.kind not in (PERSON, COMPUTER):
                raise ApiError(422, "bad_seats", f"seat {index}: kind must be 'person' or 'computer', not {spec.kind!r}")
            level = None
            if spec.kind == COMPUTER:
                level = spec.level or default_level()
                if level not in levels:
                    raise ApiError(422, "bad_seats", f"seat {index}: unknown computer level {level!r} "
                                   f"(known: {', '.join(levels)})")
            name = clean_name(spec.name or "") or (f"Computer ({level})" if level else f"Seat {index + 1}")
            names.append(name)
        names = distinct_names(names)
        for index, spec in enumerate(seats):
            level = (spec.level or default_level()) if spec.kind == COMPUTER else None
            entry: dict[str, Any] = {"kind": spec.kind, "level": level, "token_hash": None, "joined": spec.kind == COMPUTER}
            if spec.user_id is not None:
                entry.update(user_id=spec.user_id, account=spec.name, joined=True)
            if spec.kind == PERSON and index in claim:
                token = secrets.token_urlsafe(24)
                tokens[index] = token
                entry["token_hash"] = hash_token(token)
                entry["joined"] = True
                if holder is not None:
                    entry["holders"] = [holder]
                if spec.user_id is not None and session is not None:
                    entry["token_sessions"] = {entry["token_hash"]: session}
            stored.append(entry)
        try:
            game = Game(rules, players=names, lexicon=lex, seed=self.seeds() if seed is None else seed)
        except (QizaError, ValueError) as exc:
            raise ApiError(422, "bad_rules", str(exc)) from None
        if word_help is None:
            word_help = rules.challenge.checks_at_once
        game_id = secrets.token_urlsafe(9)
        invite = secrets.token_urlsafe(12)
        creator = min(tokens) if tokens else None
        settings: dict[str, Any] = {"word_help": bool(word_help), "preset": preset, "invite_hash": hash_token(invite),
                                    "creator_seat": creator,
                                    "invite_sealed": seal(invite, tokens[creator]) if creator is not None else None,
                                    "lexicon": lexicon, "options": dict(options or {}), "rated": rated,
                                    "moved_at": self.now(), **(extra or {})}
        if finish_line_levels:
            settings["finish_line_levels"] = list(finish_line_levels)
        row = GameRow(game_id, 1, savefile.to_dict(game), stored, settings, "active",
                      stored[game.to_move]["kind"] == COMPUTER)
        if time_control is not None:
            # the clocks run once every seat is taken (_tick starts them)
            everyone = all(entry["joined"] for entry in stored)
            settings["clock"] = Clock.start(time_control, len(stored), game.to_move if everyone else None,
                                            self.now()).json()
            self._tick(row, game)
        held = {i: str(s["user_id"]) for i, s in enumerate(stored) if s.get("user_id")}
        writes = [self.store.hold_seats(game_id, held, self.now())] if held else []
        writes += [_with_id(write, game_id) for write in also]
        self.store.insert(row, also=writes)
        self._cache[game_id] = _Cached(1, game, row=row)
        if self._needs_computer(row, game):
            self.schedule_computers(game_id)
        return Created(game_id, tokens, invite)

    def play_again(self, game_id: str, seat: int, token: str, user_id: str | None = None,
                   session: str | None = None, holder: str | None = None) -> Created:
        """A new game like a finished one against the computer, for its player in ``seat``
        (``token``: that seat's): the same preset, rule options, lexicon, word help, clock,
        Finish Line targets and computer levels, the order of play turned round as a rematch's
        (who started plays last); a new seed. The player's account keeps the seat when
        ``user_id`` is the account that held it. 409 ``game_not_over``, 409 ``use_rematch`` for a
        game with another person in it (the club's rematch is theirs to ask together)."""
        row, game = self.peek(game_id)
        self._check_token(row, seat, token)
        if not game.over or row.settings.get("aborted"):
            raise ApiError(409, "game_not_over", "play again is offered when the game is over")
        if any(entry["kind"] == PERSON for i, entry in enumerate(row.seats) if i != seat):
            raise ApiError(409, "use_rematch", "this game has another person in it: play again is for a game "
                           "against the computer; between accounts, ask for a rematch (the Rematch button)")
        order = rematch_order(game)
        seats = []
        for old in order:
            entry = row.seats[old]
            keeps = old == seat and user_id is not None and entry.get("user_id") == user_id
            seats.append(SeatSpec(entry["kind"], game.players[old], entry.get("level"), user_id if keeps else None))
        levels = row.settings.get("finish_line_levels")
        clock = row.settings.get("clock")
        return self.create(
            preset=row.settings.get("preset", "classic"),
            options={**row.settings.get("options", {}), "first_player": FirstPlayer.FIXED.value},
            seats=seats, lexicon=row.settings.get("lexicon", "enable"), word_help=row.settings.get("word_help"),
            finish_line_levels=[levels[i] for i in order] if levels else None, claim=[order.index(seat)],
            time_control=TimeControl.from_json(clock["control"]) if clock else None,
            extra={"played_again_of": row.id}, session=session if seats[order.index(seat)].user_id else None,
            holder=holder)

    @staticmethod
    def _preset_rules(preset: str, options: Mapping[str, Any] | None,
                      finish_line_levels: Sequence[str] | None = None) -> Rules:
        """A preset with options (422 ``bad_rules`` for an unknown preset or option)."""
        try:
            rules = find_preset(preset)
            if finish_line_levels:
                rules = finish_line(list(finish_line_levels), rules)
            return rules.with_options(**dict(options)) if options else rules
        except (ValueError, TypeError) as exc:
            raise ApiError(422, "bad_rules", str(exc)) from None

    def check_rules(self, preset: str, options: Mapping[str, Any] | None, lexicon: str) -> Rules:
        """The rules a game with these settings would have, as :meth:`create` makes them, checked
        without loading the lexicon (its tile set is known by its name): 422 ``bad_rules`` when
        they do not go together (an unknown preset or option, a lexicon spelt in letters the
        preset's tile set lacks), 422 ``unknown_lexicon`` for a lexicon the server does not offer.
        A seek checks its settings with it when it is offered, not when somebody accepts it."""
        return self._fit_lexicon(self._preset_rules(preset, options), lexicon)

    def _fit_lexicon(self, rules: Rules, lexicon: str) -> Rules:
        """``rules`` with the tile set ``lexicon`` is spelt in (:meth:`check_rules`)."""
        self.lexicon_source(lexicon)
        try:
            return rules_for_tile_set(rules, self.catalogue.tile_set(lexicon), lexicon.upper())
        except (QizaError, ValueError) as exc:
            raise ApiError(422, "bad_rules", str(exc)) from None

    def lexicons_for(self, preset: str) -> list[str]:
        """The offered lexicons a game of ``preset`` may have (:meth:`check_rules` takes them): those
        of the preset's language first (ENABLE... for ``classic``, ``french-debian`` for ``french``),
        then those that bring their own tiles (``classic`` with ``german-debian``) or whose language
        nobody says (an operator's word list)."""
        rules = self._preset_rules(preset, None)
        language = tile_set_language(rules.tile_set)
        fitting = []
        for name in self.catalogue.names():
            with contextlib.suppress(ApiError):
                self._fit_lexicon(rules, name)
                fitting.append(name)
        return sorted(fitting, key=lambda name: lexicon_language(name) != language)  # stable: the list's order

    # -- reading --------------------------------------------------------------------------
    def state(self, game_id: str, seat: int | None = None, token: str | None = None,
              check: bool = True) -> dict[str, Any]:
        """What a player (or, with no seat, a spectator) may see of a game, as JSON data.

        ``check=False`` skips the token check (for connections already checked)."""
        row = self._row(game_id)
        if seat is not None and check:
            self._check_token(row, seat, token or "")
        order = self.store.rack_order(game_id, seat) if seat is not None else None
        with self._lock(game_id):
            cached = self._game(row)
            return self.view(row, cached.game, seat, order)

    def pushed_state(self, game_id: str, seat: int | None, version: int) -> dict[str, Any]:
        """A seat's view for a live update about ``version`` (from memory when this process
        has it, else from the database). The seat's token was checked when it connected."""
        order = self.store.rack_order(game_id, seat) if seat is not None else None
        with self._lock(game_id):
            cached = self._cache.get(game_id)
            if cached is not None and cached.row is not None and cached.version >= version:
                return self.view(cached.row, cached.game, seat, order)
        return self.state(game_id, seat, None, check=False)

    def version(self, game_id: str) -> int:
        """The stored version of a game."""
        version = self.store.version(game_id)
        if version is None:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        return version

    def gcg(self, game_id: str) -> str:
        """The game record in GCG (needs :mod:`qiza.gcg`), once the game is over (it shows every rack),
        with the pragma ``#id qiza GAMEID``."""
        return self._finished_record(game_id, "the GCG record")[0]

    def _finished_record(self, game_id: str, wanted: str) -> tuple[str, str, Notation]:
        """A finished game's GCG text, lexicon name and notation; ``wanted`` (the GCG record, the
        analysis) names what was asked for in the refusal: 409 ``game_not_over`` while the game
        is on, 409 ``game_aborted`` for a game its players aborted (it never ends)."""
        row = self._row(game_id)
        try:
            gcg = importlib.import_module("qiza.gcg")
        except ImportError:
            raise ApiError(501, "gcg_unavailable", "GCG export is not available in this qiza") from None
        with self._lock(game_id):
            game = self._game(row).game
            if row.settings.get("aborted"):
                raise ApiError(409, "game_aborted", f"the game was aborted by its players: {wanted} is only for "
                               "games played to the end")
            if not game.over:
                raise ApiError(409, "game_not_over", f"{wanted} is available when the game is over")
            names = " vs ".join(clean_name(name) for name in game.players)
            record = gcg.from_game(game, title=f"qiza web game {game_id}: {names}")
            # authority and id, as Woogles writes "#id io.woogles ID": the id is in the game's URL (no
            # secret); seeds and seat tokens are never written
            record.id = f"qiza {game_id}"
            text = str(gcg.dumps(record))
            return text, str(row.save.get("lexicon", "enable")), game.rules.notation

    def analysis(self, game_id: str, before_work: Callable[[], None] | None = None) -> dict[str, Any]:
        """Every turn of a finished game against the computer's best move (computed once, by a
        computer worker, then kept). Requests that come while it is being computed wait for
        that computation instead of starting their own. ``before_work`` is called (and may
        refuse by raising) only when the analysis is to be computed for a finished game."""
        while True:
            with self._guard:
                done = self._analyses.get(game_id)
                if done is not None:
                    return done
                running = self._analysing.get(game_id)
                if running is None:
                    running = self._analysing[game_id] = threading.Event()
                    break
            running.wait()  # then read the result (or, if that computation failed, compute)
        try:
            text, lexicon, notation = self._finished_record(game_id, "the analysis")
            if before_work is not None:
                before_work()
            try:
                result = self.thinker.run(analyze_in_worker, self.lexicon_source(lexicon), text, notation.value)
            except ImportError:
                raise ApiError(501, "analysis_unavailable", "the computer players are not installed") from None
            except QizaError as exc:
                raise ApiError(422, "analysis_failed", f"no analysis: {exc}") from None
            with self._guard:
                if len(self._analyses) >= 256:
                    self._analyses.pop(next(iter(self._analyses)))
                self._analyses[game_id] = result
            return result
        finally:
            with self._guard:
                del self._analysing[game_id]
            running.set()

    def preview(self, game_id: str, seat: int, token: str, action: Action) -> dict[str, Any]:
        """Score and words of a placement without playing it (invalid words only with word help)."""
        row = self._row(game_id)
        self._check_token(row, seat, token)
        with self._lock(game_id):
            game = self._game(row).game
            place = self._placement(game, action)
            try:
                evaluation = game.evaluate(place, seat=seat)
            except QizaError as exc:
                return {"ok": False, "error": str(exc)}
            out: dict[str, Any] = {
                "ok": True, "score": evaluation.score, "bingo": evaluation.bingo,
                "move": game.format(evaluation.move),
                "words": [{"word": w.text, "score": w.score} for w in evaluation.words],
            }
            if row.settings.get("word_help"):
                out["invalid_words"] = game.invalid_words(evaluation)
            return out

    # -- acting ---------------------------------------------------------------------------
    def _placement(self, game: Game, action: Action) -> Place:
        if action.cells is not None and action.move is not None:
            raise ApiError(422, "malformed_move", "a placement is given either as 'move' text or as 'cells', "
                           "not both")
        if action.cells is not None:
            return placement_from_cells(game, action.cells)
        if not action.move:
            raise ApiError(422, "malformed_move", "a placement needs 'move' (e.g. 'H8 WORD') or 'cells'")
        try:
            move = game.parse(action.move)
        except QizaError as exc:
            raise ApiError(422, "malformed_move", str(exc)) from None
        if not isinstance(move, Place):
            raise ApiError(422, "malformed_move", f"{action.move!r} is not a placement")
        return move

    def arrange(self, game_id: str, seat: int, token: str, order: str) -> dict[str, Any]:
        """Put the seat's rack in ``order`` (the same tiles, ``?`` for a blank), at any
        time, so that reloads keep it. The order is the player's own business: it is kept
        apart from the game and changes no version (nobody's pending action becomes stale,
        nobody else is told). Needs no version: it is checked against the rack as it is
        now. Returns the seat's view."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_token(row, seat, token)
            game = self._game(row).game
            if game.over:
                raise ApiError(409, "game_over", "the game is over")
            self._check_in_game(game, seat)
            tile_set = game.rules.tile_set
            try:
                tiles = tile_set.codes(order.upper())
            except ValueError as exc:
                raise ApiError(422, "malformed_rack", f"{order!r} is not a rack: {exc}") from None
            if sorted(tiles) != sorted(game.racks[seat]):
                raise ApiError(422, "not_your_rack", f"{order!r} is not a reordering of your rack "
                               f"{ordered_rack(game, seat, self.store.rack_order(game_id, seat))}")
            text = tile_set.text(tiles)
            self.store.set_rack_order(game_id, seat, text)
            return self.view(row, game, seat, text)

    def act(self, game_id: str, seat: int, token: str, version: int, action: Action,
            request_id: str | None = None) -> dict[str, Any]:
        """Apply one action for ``seat`` if the game is still at ``version``; returns the new state."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_token(row, seat, token)
            if request_id is not None and self.store.request_version(game_id, request_id) is not None:
                raise ApiError(409, "duplicate_request", f"request {request_id!r} was already applied")
            if version > row.version:
                raise ApiError(409, "stale_version", f"the game is at version {row.version}: there is no "
                               f"version {version} yet", version=row.version)
            if version < row.moved:
                raise ApiError(409, "stale_version",
                               f"the game changed at version {row.moved} (it is now at version {row.version}), "
                               f"after version {version} this action was made against: this turn was already "
                               "submitted or another action came first", version=row.version)
            cached = self._game(row)
            game = cached.game
            if row.settings.get("aborted"):
                raise ApiError(409, "game_aborted", "the game was aborted by its players")
            flagged = self._flag(row, game)
            if flagged is not None:
                self._commit(row, cached)
                end = "the game is over" if game.over else f"{game.players[flagged]} is out of the game, the others play on"
                raise ApiError(409, "out_of_time", f"{game.players[flagged]} ran past the most overtime "
                               f"and lost on time: {end}", version=row.version)
            if game.over:
                raise ApiError(409, "game_over", f"the game is over ({game.end_words() or ''})")
            self._check_in_game(game, seat)
            if action.kind in ("place", "exchange", "pass") and seat != game.to_move:
                raise ApiError(409, "not_your_turn", f"it is {game.players[game.to_move]}'s turn (seat {game.to_move}), "
                               f"not seat {seat}'s")
            record = self._apply(game, seat, action)
            self._commit(row, cached, request_id)
            state = self.view(row, game, seat, self.store.rack_order(game_id, seat))
            state["record"] = record_json(visible_record(record, seat, over=game.over))
            return state

    @staticmethod
    def _check_in_game(game: Game, seat: int) -> None:
        """409 ``out_of_game`` for a seat whose player resigned, lost on time or left a game
        that the others play on: they can no longer act in it."""
        reason = game.out_reason(seat)
        if reason is not None:
            raise ApiError(409, "out_of_game", f"{game.players[seat]} {FORFEIT_WORDS[reason]} and is out of the "
                           "game: the others play on without them")

    @staticmethod
    def _check_fields(action: Action) -> None:
        """422 ``malformed_move`` for an action that carries a field of another kind (a pass with a
        move, an exchange with squares): it says two things at once, and neither is guessed."""
        given = {"move": action.move, "cells": action.cells, "tiles": action.tiles}
        allowed = {"place": ("move", "cells"), "exchange": ("tiles",)}.get(action.kind, ())
        stray = [name for name, value in given.items() if value is not None and name not in allowed]
        if stray:
            raise ApiError(422, "malformed_move", f"{action.kind!r} takes no {' or '.join(repr(n) for n in stray)}"
                           + (f" (only {' or '.join(repr(n) for n in allowed)})" if allowed else ""))

    def _apply(self, game: Game, seat: int, action: Action) -> Record:
        self._check_fields(action)
        try:
            if action.kind == "place":
                return game.play(self._placement(game, action), seat=seat)
            if action.kind == "exchange":
                if not action.tiles:
                    raise ApiError(422, "malformed_move", "an exchange needs 'tiles' (e.g. 'QU?')")
                return game.play(Exchange(action.tiles.upper()), seat=seat)
            if action.kind == "pass":
                return game.play(Pass(), seat=seat)
            if action.kind == "challenge":
                if not game.can_challenge:
                    raise ApiError(409, "nothing_to_challenge", "there is no play open to challenge now")
                return game.challenge(seat)
            if action.kind == "resign":
                game.resign(seat)  # in a game of three or four, while two others are in, the game goes on
                if not game.over:
                    return game.history[-1]  # the line saying the player is out
                return Record(seat, Kind.PASS, game.rack_text(seat), 0, game.scores[seat], note="resigned")
        except PhonyWordError as exc:
            raise ApiError(422, "phony_word", str(exc), words=list(exc.words)) from None
        except IllegalMoveError as exc:
            raise ApiError(422, "illegal_move", str(exc)) from None
        except MoveSyntaxError as exc:
            raise ApiError(422, "malformed_move", str(exc)) from None
        except GameOverError as exc:
            raise ApiError(409, "game_over", str(exc)) from None
        except RuleError as exc:
            raise ApiError(409, "not_allowed", str(exc)) from None
        raise ApiError(422, "unknown_action", f"unknown action {action.kind!r} "
                       "(place, exchange, pass, challenge or resign)")

