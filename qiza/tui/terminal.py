"""Input and output: a full-screen terminal (``rich`` + ``prompt_toolkit``) or plain lines.

:class:`PlainTerminal` is used when standard input or output is not a terminal: it prints
plain text (no colour, no screen clearing) and reads one command per line, echoing each
command after its prompt so that a transcript reads like a session.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Any

from rich.console import Console, RenderableType
from rich.text import Text

from qiza.text import visible

__all__ = ["Terminal", "PlainTerminal", "RichTerminal", "HangUp", "hang_ups"]


class HangUp(Exception):  # noqa: N818 - what happened, as KeyboardInterrupt
    """The terminal was closed (SIGHUP) or the program asked to stop (SIGTERM): the game stops
    as 'quit' does, saved, without a word (nobody is left to read it)."""


@contextlib.contextmanager
def hang_ups() -> Iterator[None]:
    """For the block, SIGHUP and SIGTERM raise :class:`HangUp` (by default they ended the program
    at once, leaving the game's lock file behind); the handlers before are put back after it.
    Nothing outside the main thread, where handlers cannot be set."""
    numbers = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    before: dict[int, Any] = {}

    def stop(number: int, frame: Any) -> None:
        raise HangUp(signal.Signals(number).name)

    try:
        for number in numbers:
            before[number] = signal.signal(number, stop)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class Terminal:
    """Where the game is shown and commands come from.

    Ctrl-C at any of its waits (:meth:`ask`, :meth:`pause`, :meth:`read_after`, :meth:`more`)
    raises :class:`KeyboardInterrupt`: the game stops there, saved, as 'quit' does (it meant "no"
    at a question and "go on" at a wait before)."""

    interactive: bool = False

    def __init__(self, console: Console) -> None:
        self.console = console

    @property
    def width(self) -> int:
        return self.console.size.width

    @property
    def height(self) -> int:
        return self.console.size.height

    def show(self, *items: RenderableType) -> None:
        """Print renderables."""
        for item in items:
            self.console.print(item, soft_wrap=_unwrapped(item))

    def clear(self) -> None:
        """Start a fresh screen (nothing in plain mode)."""

    def forget(self) -> None:
        """Hot seat: erase the terminal's scrollback, so that the next player cannot scroll back
        to the earlier screens (each prompt keeps its own command history, see :meth:`ask`);
        nothing in plain mode."""

    def discard_typed_ahead(self) -> None:
        """Hot seat: drop the keys typed before now and not read yet, so that what the last player
        typed ahead (a second Enter after their move) does not answer the next player's hand-over
        or question; nothing in plain mode (a script's lines are meant in order)."""

    def page(self, *items: RenderableType, reserve: int = 0) -> None:
        """Show renderables a screenful at a time: on a terminal, when they are taller than the
        screen, each page waits for Enter (``q`` skips the rest); in plain mode all at once.

        The last page shows the end with as much of what came before as fits, leaving
        ``reserve`` lines for what is printed next, so that the end stays on screen.
        """
        if not self.interactive:
            self.show(*items)
            return
        lines = self.rendered_lines(*items)
        if len(lines) <= max(3, self.height - 1 - reserve):  # it fits above the reserve: at once
            self.show(*items)
            return
        # the wait's own line may wrap on a narrow screen: a page leaves it all its rows (with a
        # row of one, the page's first line went off the top before anyone saw it)
        prompt_rows = -(-(len(_more_message(len(lines), len(lines))) + 2) // max(1, self.width))
        size = max(3, self.height - prompt_rows)
        start = 0
        while len(lines) - start > size:
            for line in lines[start:start + size]:
                self._page_line(line)
            start += size
            if not self.more(_more_message(start, len(lines))):
                return
        last = max(1, size - reserve)
        if len(lines) - start > last:  # the rest fits a page but not above the reserve: a page up to the last one
            for line in lines[start:len(lines) - last]:
                self._page_line(line)
            start = len(lines) - last
            if not self.more(_more_message(start, len(lines))):
                return
        for line in lines[min(start, max(0, len(lines) - last)):]:
            self._page_line(line)

    def _page_line(self, line: str) -> None:
        """Print one line of :meth:`page` (rendered, with its colour codes)."""
        self.console.print(Text.from_ansi(line), width=self.width, soft_wrap=True)

    def more(self, message: str) -> bool:
        """Wait between pages: False when the rest should be skipped."""
        return self.pause(message)

    def read_after(self, message: str) -> str | None:
        """Wait as :meth:`pause` does, and return what was typed before Enter (``""`` for nothing;
        in plain mode always ``""``); ``None`` at end of input."""
        return "" if self.pause(message) else None

    def rendered_lines(self, *items: RenderableType) -> list[str]:
        """The screen lines of renderables at this terminal's width (with colour codes)."""
        lines: list[str] = []
        for item in items:
            with self.console.capture() as capture:
                self.console.print(item, width=self.width, soft_wrap=_unwrapped(item))
            lines.extend(capture.get().rstrip("\n").split("\n"))
        return lines

    def ask(self, prompt: str, words: Sequence[str] = ()) -> str | None:
        """Read one line; ``None`` at end of input."""
        raise NotImplementedError

    def pause(self, message: str) -> bool:
        """Show a message and wait for Enter (in plain mode, only show it). False at end of input."""
        raise NotImplementedError


def _more_message(start: int, total: int) -> str:
    """The wait between pages of :meth:`Terminal.page`."""
    return f"-- more ({start} of {total} lines): Enter for the next page, q to stop --"


def _unwrapped(item: RenderableType) -> bool:
    """Text marked ``no_wrap`` (messages with file names) is printed whole, never wrapped."""
    return isinstance(item, Text) and bool(item.no_wrap)


def _env_size(name: str) -> int:
    """The screen size an environment variable (``COLUMNS``, ``LINES``) gives, 0 when it gives
    none: unset, or not a whole number from 1 (``COLUMNS=abc`` stopped the game with a traceback)."""
    text = os.environ.get(name, "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else 0


class PlainTerminal(Terminal):
    """Plain text in, plain text out (pipes, scripts and tests)."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 width: int | None = None) -> None:
        out = stdout or sys.stdout
        columns = width or _env_size("COLUMNS") or 80
        console = Console(file=out, width=columns, height=_env_size("LINES") or 24,
                          no_color=True, force_terminal=False, highlight=False, emoji=False,
                          color_system=None, soft_wrap=False)
        super().__init__(console)
        self.stdin = stdin or sys.stdin

    def ask(self, prompt: str, words: Sequence[str] = ()) -> str | None:
        line = self.stdin.readline()
        if not line:
            self.console.print(prompt + "(end of input)", markup=False)
            return None
        text = line.rstrip("\r\n")
        self.console.print(prompt + visible(text), markup=False)
        return text

    def pause(self, message: str) -> bool:
        self.console.print(message, markup=False)
        return True


class RichTerminal(Terminal):
    """A real terminal: colours, a redrawn screen, line editing, history and completion."""

    interactive = True

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys

        super().__init__(Console(highlight=False, emoji=False))
        bindings = KeyBindings()

        @bindings.add(Keys.Vt100MouseEvent)
        def _no_mouse(event: Any) -> None:
            """The game takes no mouse input. A typed or pasted escape sequence that reads as a
            mouse report (``ESC [ 8 m``) made prompt_toolkit's own handler raise, and the screen
            showed its traceback and waited for Enter."""

        if hasattr(signal, "SIGTSTP"):
            @bindings.add("c-z")
            def _suspend(event: Any) -> None:
                """Ctrl-Z suspends the game, as everywhere in a terminal ('fg' continues it; prompt_toolkit's
                default put the character ^Z in the line, and the next command was refused for it); when it
                continues, its screen is drawn again (only the prompt came back, under the shell's lines)."""
                from prompt_toolkit.application import run_in_terminal

                def suspend() -> None:
                    os.kill(0, signal.SIGTSTP)  # the whole process group, as prompt_toolkit's own suspend
                    self._redraw()

                run_in_terminal(suspend)

        self._session: PromptSession[str] = PromptSession(history=InMemoryHistory(), key_bindings=bindings)
        self._shown: list[RenderableType] = []
        """What was shown since the screen was last cleared: drawn again after a suspension."""
        self._histories: dict[str, InMemoryHistory] = {}
        """The commands typed at each prompt (``Ann> ``): in a hot-seat game the arrow keys
        recall a player's own commands only, never the ``exchange`` or ``order`` of another."""

    @property
    def width(self) -> int:
        return shutil.get_terminal_size().columns

    @property
    def height(self) -> int:
        return shutil.get_terminal_size().lines

    def show(self, *items: RenderableType) -> None:
        self._keep(*items)
        for item in items:
            self.console.print(item, width=self.width, soft_wrap=_unwrapped(item))

    def _page_line(self, line: str) -> None:
        self._keep(Text.from_ansi(line))
        super()._page_line(line)

    def _keep(self, *items: RenderableType) -> None:
        """Note what is shown, to draw it again after a suspension (the last screenful's worth:
        a game's screen is a few items, a page a line each)."""
        self._shown.extend(items)
        del self._shown[:-100]

    def clear(self) -> None:
        self._shown.clear()
        self.console.clear()

    def _redraw(self) -> None:
        """Draw the screen again as it was (at the terminal's size now)."""
        shown = list(self._shown)
        self.clear()
        self.show(*shown)

    def forget(self) -> None:
        self.console.file.write("\x1b[3J")  # erase the scrollback (xterm, VTE, tmux...)
        self.console.file.flush()

    def discard_typed_ahead(self) -> None:
        from prompt_toolkit.input.typeahead import clear_typeahead

        clear_typeahead(self._session.input)  # keys read with the last line but not used
        try:
            import termios
        except ImportError:  # Windows
            return
        try:
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)  # keys not read yet
        except (OSError, ValueError, termios.error):
            pass

    def ask(self, prompt: str, words: Sequence[str] = ()) -> str | None:
        from prompt_toolkit.completion import WordCompleter
        from prompt_toolkit.history import InMemoryHistory

        completer: Any = WordCompleter(list(words), ignore_case=True, sentence=True) if words else None
        try:
            return self._prompt(prompt, self._histories.setdefault(prompt, InMemoryHistory()),
                                completer=completer, complete_while_typing=False)
        except EOFError:
            return None

    def _prompt(self, message: str, history: Any = None, **options: Any) -> str:
        """Read a line with ``history`` (default: none) for the arrow keys to recall."""
        from prompt_toolkit.history import InMemoryHistory

        self._session.default_buffer.history = history if history is not None else InMemoryHistory()
        return self._session.prompt(message, **options)

    def pause(self, message: str) -> bool:
        try:
            self._prompt(message + " ")
        except EOFError:
            return False
        return True

    def read_after(self, message: str) -> str | None:
        try:
            return self._prompt(message + " ")
        except EOFError:
            return None

    def more(self, message: str) -> bool:
        try:
            answer = self._prompt(message + " ")
        except EOFError:
            return False
        return answer.strip().lower() not in ("q", "quit")
