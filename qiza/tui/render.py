"""Drawing the game with ``rich``: the board, racks, the side panel, score sheets and the end.

Everything here is a pure function of the game state returning ``rich`` renderables, so the
same drawing serves the coloured terminal and plain text (a console without colour prints
the same characters). No information is carried by colour alone: premium squares show a
symbol (compact board) or a label (larger boards), blanks are lower-case letters, and the
last move is also named in words in the side panel.
"""

from __future__ import annotations

import itertools
import string
import textwrap
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from qiza.alphabet import BLANK_FLAG, TileSet, tiles_in_text
from qiza.board import Board
from qiza.game import EndReason, Game, Kind, Record
from qiza.layout import Premium
from qiza.move import Exchange
from qiza.rules import Notation
from qiza.sheet import FORFEIT_WORDS
from qiza.text import cells, cut, notation_note, pad, plural, short_names

__all__ = ["BoardStyle", "board_style_for", "board_text", "rack_text", "side_panel", "screen", "PanelFull", "too_small",
           "score_sheet", "end_summary", "biggest_plays", "PREMIUM_SYMBOLS", "legend", "describe_record",
           "end_sentence", "sentence", "plural", "owner", "verb", "YOU"]

PREMIUM_SYMBOLS = {Premium.TW: "=", Premium.DW: "-", Premium.TL: '"', Premium.DL: "'",
                   Premium.QW: "#", Premium.QL: "^", Premium.NONE: "."}
"""Symbols of empty premium squares on the compact board (the usual text-board convention)."""

PREMIUM_LABELS = {Premium.TW: "3W", Premium.DW: "2W", Premium.TL: "3L", Premium.DL: "2L",
                  Premium.QW: "4W", Premium.QL: "4L", Premium.NONE: ""}

PREMIUM_STYLES = {Premium.TW: "bold white on red3", Premium.DW: "black on light_pink1",
                  Premium.TL: "bold white on blue3", Premium.DL: "black on light_sky_blue1",
                  Premium.QW: "bold white on dark_red", Premium.QL: "bold white on purple4",
                  Premium.NONE: "grey50 on grey15"}
TILE_STYLE = "bold black on wheat1"
BLANK_STYLE = "italic bold dark_orange3 on wheat1"
LAST_STYLE = "bold black on yellow1"
LAST_BLANK_STYLE = "italic bold dark_orange3 on yellow1"
LABEL_STYLE = "bold"
CENTRE_SYMBOL = "*"


@dataclass(frozen=True)
class BoardStyle:
    """Size of one square on screen: ``width`` characters by ``height`` lines."""

    width: int = 2
    height: int = 1


COMPACT = BoardStyle(2, 1)
WIDE = BoardStyle(3, 1)
LARGE = BoardStyle(4, 2)


def board_style_for(width: int, height: int, size: int = 15) -> BoardStyle:
    """The largest board drawing that leaves room for the side panel (about 40 columns)."""
    panel = 42
    if width >= 4 * size + 6 + panel and height >= 2 * size + 8:
        return LARGE
    if width >= 3 * size + 8 + panel:
        return WIDE
    return COMPACT


ONE_COLUMN_FORMS = {"CH": "Ĉ", "LL": "Ł", "RR": "Ř", "L·L": "Ŀ", "NY": "Ñ", "QU": "Q"}
"""One-column forms of multi-letter tiles on the compact board, said in its key (``Ř=RR``): with
two columns a square a single letter is drawn after a space, but a two-letter tile filled both
and ran into the square before it (Spanish ``CHORRO`` read ``'CH ORR O``); now ``Ĉ O Ř O``. A
blank's form is in lower case (``ř``), as its label is."""


def compact_forms(tile_set: TileSet) -> dict[str, str]:
    """The multi-letter tiles of ``tile_set`` with their :data:`ONE_COLUMN_FORMS` (one that is a
    letter of the set itself is not used: such a tile keeps its label)."""
    return {label: ONE_COLUMN_FORMS[label] for label in tile_set.letters
            if label in ONE_COLUMN_FORMS and ONE_COLUMN_FORMS[label] not in tile_set.letters}


def _compact_label(label: str, tile_set: TileSet) -> str:
    """A tile's label on the compact board: one column where it has a form (:func:`compact_forms`)."""
    form = compact_forms(tile_set).get(label.upper()) if len(label) > 1 else None
    if form is None:
        return _short_label(label, 2)
    return form.lower() if label.islower() else form


_SHORT_FORMS = {"L·": "Ŀ", "l·": "ŀ"}
"""Letters Unicode has for two characters of a label: Catalan ``L·L`` in two columns is ``ĿL``."""


def _short_label(label: str, width: int) -> str:
    """A tile label in at most ``width`` columns: as it is when it fits, else written with
    :data:`_SHORT_FORMS` (Catalan ``L·L`` as ``ĿL``, its blank ``ŀl``, not cut to ``L·``)."""
    if len(label) <= width:
        return label
    for long, short in _SHORT_FORMS.items():
        label = label.replace(long, short)
    return label


def _centre(text: str, width: int) -> str:
    return text.center(width)[:width]


def board_text(board: Board, *, last: Sequence[int] = (), style: BoardStyle = COMPACT) -> Text:
    """The board with column letters above and below and row numbers on both sides."""
    size, layout, tile_set = board.size, board.layout, board.tile_set
    last_set = set(last)
    w = style.width
    label_w = len(str(size)) + 1
    header = Text(" " * label_w)
    for col in range(size):
        header.append(_centre(string.ascii_uppercase[col], w) if w > 2 else f" {string.ascii_uppercase[col]}",
                      LABEL_STYLE)
    out = Text()
    out.append_text(header)
    out.append("\n")
    for row in range(size):
        for line in range(style.height):
            number = str(row + 1).rjust(label_w - 1) + " " if line == 0 else " " * label_w
            out.append(number, LABEL_STYLE)
            for col in range(size):
                square = row * size + col
                out.append(*_cell(board, tile_set, layout.premium(square), square,
                                  square in last_set, square == layout.start, w, line))
            if line == 0:
                out.append(" " + str(row + 1).ljust(label_w - 1), LABEL_STYLE)
            out.append("\n")
    out.append_text(header)
    return out


def _cell(board: Board, tile_set: TileSet, premium: Premium, square: int, is_last: bool,
          is_start: bool, w: int, line: int) -> tuple[str, str]:
    tile = board[square]
    if tile:
        blank = bool(tile & BLANK_FLAG)
        char = tile_set.char(tile)
        if is_last:
            cell_style = LAST_BLANK_STYLE if blank else LAST_STYLE
        else:
            cell_style = BLANK_STYLE if blank else TILE_STYLE
        if line == 0 and w == 2:
            label = _compact_label(char, tile_set)
            text = " " + label if len(label) == 1 else label
        elif line == 0:
            text = _centre(_short_label(char, w), w)
        else:
            value = "" if blank else str(tile_set.value(tile))
            text = value.rjust(w - 1) + " "
        return text, cell_style
    cell_style = PREMIUM_STYLES[premium]
    if line > 0:
        return " " * w, cell_style
    if w == 2:
        symbol = CENTRE_SYMBOL if is_start else PREMIUM_SYMBOLS[premium]
        return " " + symbol, cell_style
    label = CENTRE_SYMBOL if is_start else (PREMIUM_LABELS[premium] or ".")
    return _centre(label, w), cell_style


def legend(style: BoardStyle = COMPACT, premiums: Collection[Premium] = (), width: int = 0) -> list[Text]:
    """What the premium marks mean: one line, or two (word, then letter premiums) when one is wider
    than ``width``. ``premiums``: the board's, for the quadruple squares of a larger board."""
    words = [p for p in (Premium.QW, Premium.TW, Premium.DW) if p is not Premium.QW or p in premiums]
    letters = [p for p in (Premium.QL, Premium.TL, Premium.DL) if p is not Premium.QL or p in premiums]
    parts = []
    for kind, meaning in ((words, "word"), (letters, "letter")):
        part = Text()
        for premium in kind:
            if style.width == 2:
                part.append(f" {PREMIUM_SYMBOLS[premium]}", PREMIUM_STYLES[premium])
                part.append(f"{PREMIUM_LABELS[premium]} ")
            else:
                part.append(PREMIUM_LABELS[premium], PREMIUM_STYLES[premium])
                part.append(" ")
        if style.width != 2:
            part.append(f"{meaning} {' '.join('x' + PREMIUM_LABELS[p][0] for p in kind)}  ")
        parts.append(part)
    parts[1].append(" abc", BLANK_STYLE)
    parts[1].append("=blank")
    if len(parts[0]) + len(parts[1]) <= width or not width:
        return [Text("").join(parts)]
    parts[0].rstrip()
    return parts


def rack_text(rack: str, tile_set: TileSet) -> Text:
    """A rack as tiles over their values (two lines; a multi-letter tile shows its label, ``CH``)."""
    top, bottom = Text(), Text()
    for tile in tile_set.codes(rack):
        char = tile_set.char(tile)
        value = tile_set.value(tile)
        top.append(f" {char} ", BLANK_STYLE if char == "?" else TILE_STYLE)
        top.append(" ")
        bottom.append(str(value).rjust(len(char) + 1) + "  ")
    return Text("\n").join([top, bottom])


NARROW_PANEL = 18
"""The fewest columns of a panel beside the board (at 60 columns: 22), used when the one below it
would push the board's top rows off a short screen."""

LARGE_SET = 150
"""Tile sets of more tiles than this (the Super board's 200) count their unseen tiles: ``E×24``."""


def unseen_runs(unseen: str, tile_set: TileSet) -> str:
    """Unseen tiles (:meth:`~qiza.game.Game.unseen`'s text) as one group per kind:
    ``?? AAAA BB`` for sets of one-letter tiles; ``A×4 CH L×2 LL`` where a label has several
    letters (``LL`` could not tell two L tiles from the LL tile), and for sets of more than
    :data:`LARGE_SET` tiles (the Super board's 24 E were a run nobody counts, and its runs took
    nine lines of the panel at 80 columns, where the hint to type a move had none left)."""
    groups = [(tile, len(list(run))) for tile, run in itertools.groupby(tile_set.codes(unseen))]
    if not tile_set.multi_letter and sum(tile_set.counts) <= LARGE_SET:
        return " ".join(tile_set.char(tile) * count for tile, count in groups)
    return " ".join(tile_set.char(tile) + (f"×{count}" if count > 1 else "") for tile, count in groups)


def vowel_count(unseen: str, tile_set: TileSet) -> int:
    """The vowels among some tiles' text (the tile set's vowels: Ą, Ó... in Polish)."""
    from qiza.players.leaves import vowel_codes

    vowels = set(vowel_codes(tile_set.letters))
    return sum(1 for tile in tile_set.codes(unseen) if tile in vowels)


@dataclass
class SeatInfo:
    """What the side panel says about one seat."""

    name: str
    kind: str
    """``"person"`` or e.g. ``"computer, hard"``."""


class PanelFull(ValueError):
    """The messages given to :func:`side_panel` (or :func:`screen`) do not fit beside the board."""


def side_panel(game: Game, seats: Sequence[SeatInfo], viewer: int | None, *, width: int = 42,
               lines: int = 17, notes: Sequence[str | Sequence[str]] = (), style: BoardStyle = COMPACT,
               spare: int = 0, messages: Sequence[RenderableType] = ()) -> Text:
    """The panel beside the board: rules, scores, bag, last move, the viewer's rack and unseen tiles,
    then the turns before the last one as far as room allows.

    ``lines``: the rows it fills (the board's); ``spare``: rows more it may take (free rows of
    the screen under the board) where ``lines`` would leave out the rack's line, the notes or
    the last few turns.

    ``viewer`` is the seat whose rack is shown (``None`` hides every rack). A note is a text, or
    texts from the longest to the shortest (the first that fits is shown). When room is short
    the ``notes`` go first, then the line naming the rack; every line keeps its key words
    (names, moves and scores are shortened, never cut off at the end).

    ``messages`` (texts: the last turn's results), wrapped to the panel's width, take the place of
    the notes and the earlier turns; :class:`PanelFull` when they do not all fit (or are not texts).
    """
    if not all(isinstance(message, Text) for message in messages):
        raise PanelFull("only texts go in the panel")
    rules = game.rules
    head: list[Text] = []
    about = f"{rules.name} · {game.lexicon.name} · {rules.challenge.value} challenge"
    title = Text()
    if len(about) + 6 <= width:
        title.append("qiza", "bold")
        title.append("  " + about)
    else:  # the rules matter more than the program's name
        title.append(_first_fit([about, f"{rules.name} · {game.lexicon.name} · {rules.challenge.value}",
                                 f"{rules.name}·{game.lexicon.name}·{rules.challenge.value}"], width))
    head.append(title)
    targets = rules.finish_line
    for seat, info in enumerate(seats):
        line = Text()
        marker = ">" if seat == game.to_move and not game.over else " "
        line.append(f"{marker} ", "bold")
        line.append(pad(short_names([s.name for s in seats], 14)[seat], 14), "bold" if seat == game.to_move else "")
        score = f"{game.scores[seat]:>4}"
        if targets is not None:
            score += f"/{targets[seat]}"
        line.append(score, "bold")
        reason = game.out_reason(seat)
        if reason is not None:  # out of the game: said instead of the kind of player
            words = FORFEIT_WORDS[reason]
            line.append(_first_fit([f"  {words}", "  out"], max(0, width - line.cell_len)), "bold")
        else:
            line.append(_first_fit([f"  {info.kind}", "  " + info.kind.replace("computer, ", ""), ""],
                                   max(0, width - line.cell_len)), "grey62")
        head.append(line)
    racks = "  Racks: " + " ".join(str(len(r)) if game.in_game(s) else "-" for s, r in enumerate(game.racks))
    bag = Text(f"Bag: {plural(len(game.bag), 'tile')}", "bold")
    if bag.cell_len + len(racks) > width:  # four racks beside the Super board: "Bag: 179  Racks: 7 7 7 7"
        bag = Text(f"Bag: {len(game.bag)}", "bold")
    bag.append(racks)
    head.append(bag)
    previous = game.history[-1] if game.history else None
    if previous is not None:
        head.append(Text(last_line(game, previous, width)))
    elif game.last_play() is None:
        # whole beside the Super board at 80 columns ("First play must cover the * s…")
        head.append(Text(_first_fit(["First play must cover the * square", "First play covers the * square",
                                     "First play covers *"], width), "grey62"))
    label: list[Text] = []
    body: list[Text] = []
    if viewer is not None:
        owner_name = game.players[viewer]
        label.append(Text("Your rack:" if owner_name == YOU else f"{owner_name}'s rack:", "bold"))
        rack_lines = list(rack_text(game.rack_text(viewer), rules.tile_set).split())
        if max((line.cell_len for line in rack_lines), default=0) > width:  # a narrow panel: letters in a line
            codes = rules.tile_set.codes(game.rack_text(viewer))
            rack_lines = [Text(" ".join(rules.tile_set.char(tile) for tile in codes), TILE_STYLE)]
        body.extend(rack_lines)
        unseen = game.unseen(viewer)
        header = Text(f"Unseen ({len(rules.tile_set.codes(unseen))}):", "bold")
        counts = f" {plural(vowel_count(unseen, rules.tile_set), 'vowel')}"
        blanks = f", {plural(unseen.count('?'), 'blank')}"
        if header.cell_len + cells(counts + blanks) <= width:  # else the runs below, led by ?×4, count them
            counts += blanks
        header.append(counts, "grey62")
        body.append(header)
        body.extend(Text(line) for line in textwrap.wrap(unseen_runs(unseen, rules.tile_set), width))
    *keys, key = legend(style, {rules.layout.premium(s) for s in rules.layout.squares}, width)
    across = f"  {'H8' if rules.notation is Notation.RULEBOOK else '8H'}=across"  # the moves' notation
    if len(key) + len(across) <= width:
        key.append(across)
    body.extend([*keys, key])
    forms = compact_forms(rules.tile_set) if style.width == 2 else {}
    if forms:  # the compact board's one-column forms of multi-letter tiles: Ř=RR
        tiles = Text("  ".join(f"{form}={label}" for label, form in forms.items()))
        if key.cell_len + 2 + tiles.cell_len <= width:
            key.append("  ").append_text(tiles)
        else:
            body.append(Text(" ").append_text(tiles))
    note_lines = [Text(_fit(note, width) if isinstance(note, str) else _first_fit(note, width), "grey62")
                  for note in notes]
    earlier = game.history[:-1]
    if messages:  # the turn's results, in place of the hint and of the turns before
        note_lines = [Text(line, message.style) for message in messages if isinstance(message, Text)
                      for line in textwrap.wrap(message.plain, width) or [""]]
        earlier = []
    room = lines - len(head) - len(body)
    wanted = min(len(earlier), max(len(game.players) - 1, 3)) + 1 if earlier else 0
    more = min(max(0, spare), max(0, wanted + len(label) + len(note_lines) - room))
    lines += more
    room += more
    if messages and room < len(label) + len(note_lines):
        raise PanelFull(f"{len(note_lines)} lines of messages, room for {room - len(label)}")
    if room - wanted < len(label) + len(note_lines):
        note_lines = []  # the recent turns matter more than the hint
    if room - wanted < len(label):
        label = []
    room -= len(label) + len(note_lines)
    recent: list[Text] = []
    if earlier and room > 1:
        recent.append(Text("Earlier turns:", "bold"))
        for record in earlier[-(room - 1):]:
            recent.append(Text(" " + short_record(game, record, width=width - 1)))
    out = head + label + body + note_lines + recent
    return Text("\n").join(out[:lines])


def last_line(game: Game, record: Record, width: int) -> str:
    """``Last: Ann played H8 FORD for 16``, shortened to fit ``width`` without losing who,
    what and the score."""
    name = game.players[record.seat]
    full = "Last: " + describe_record(game, record)
    short = short_names(game.players, 10)[record.seat]
    if record.kind is not Kind.PLACE:
        return _first_fit([full, f"Last: {short} {_what(record)} {record.score:+d}"], width)
    flags = (" (bingo)" if record.bingo else "") + (" (off)" if record.challenged_off else "")
    return _first_fit([full, f"Last: {name} {record.notation} for {record.score}{flags}",
                       f"Last: {short} {record.notation} {record.score}{flags}",
                       f"{short} {record.notation} {record.score}{flags}"], width)


def _first_fit(texts: Sequence[str], width: int) -> str:
    """The first text that fits ``width`` columns, else the last one cut."""
    return next((t for t in texts if cells(t) <= width), _fit(texts[-1], width))


def _fit(text: str, width: int) -> str:
    return text if cells(text) <= width else cut(text, width - 1) + "…"


YOU = "You"
"""The name of the person playing against the computer: messages then say "you", "your"."""


def owner(name: str, *, start: bool = False) -> str:
    """``Ann's`` or, for the person called "You", ``your`` (``Your`` at the start of a sentence)."""
    if name == YOU:
        return "Your" if start else "your"
    return f"{name}'s"


def verb(name: str, third: str, base: str) -> str:
    """The verb for a subject: ``Ann gets`` but ``You get`` (``third``/``base``: the two forms)."""
    return base if name == YOU else third


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... (a place at the end of a game)."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def sentence(text: str) -> str:
    """A message as a sentence: a capital first letter and a full stop (unless it ends with
    ``.``, ``!`` or ``?``)."""
    text = text.strip()
    if not text:
        return text
    if text[0].islower():
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def describe_record(game: Game, record: Record) -> str:
    """A score sheet line in words, without a full stop: ``Ann played H8 FORD for 16``."""
    name = game.players[record.seat]
    if record.kind is Kind.PLACE:
        text = f"{name} played {record.notation} for {record.score}"
        if record.bingo:
            text += " (bingo!)"
        if record.challenged_off:
            text += " (challenged off)"
        return text
    if record.kind is Kind.EXCHANGE:
        count = tiles_in_text(record.move.tiles) if isinstance(record.move, Exchange) else 0
        return f"{name} exchanged {plural(count, 'tile')}"
    if record.kind is Kind.PASS:
        return f"{name} passed"
    if record.kind is Kind.PHONY_REMOVED:
        return f"{owner(name, start=True)} {record.notation} came off ({record.score:+d})"
    if record.kind is Kind.CHALLENGE_BONUS:
        return f"{name} {verb(name, 'gets', 'get')} {record.score:+d} ({record.note})"
    if record.kind is Kind.FAILED_CHALLENGE:
        if record.takes_turn:
            cost = "turn lost"
        elif "next turn" in record.note:
            cost = "next turn lost"
        else:
            cost = "no penalty"
        return f"{name} challenged without success ({cost})"
    if record.kind is Kind.LOST_TURN:
        return f"{name} {verb(name, 'loses', 'lose')} this turn (failed challenge)"
    if record.kind is Kind.END_RACK_BONUS:
        return f"{name} {verb(name, 'gets', 'get')} {record.score:+d} for the others' tiles {record.notation}"
    if record.kind is Kind.END_RACK_PENALTY:
        return f"{name} {verb(name, 'loses', 'lose')} {-record.score} for unplayed tiles {record.notation}"
    if record.kind is Kind.RESIGNED:
        return f"{name} {record.notation} and {verb(name, 'is', 'are')} out of the game"
    if record.score < 0:
        return f"{name} {verb(name, 'loses', 'lose')} {plural(-record.score, 'point')} ({record.note})"
    return f"{name} {verb(name, 'gets', 'get')} {plural(record.score, 'point')} ({record.note})"


def end_sentence(game: Game) -> str:
    """Why the game ended, naming who ended it: ``Game over: Ann went out.``"""
    reason = game.end_reason
    if reason is None:
        return "The game is not over."
    who = game.ended_by()
    name = game.players[who] if who is not None else ""
    if reason is EndReason.WENT_OUT and who is not None:
        return f"Game over: {name} went out."
    if reason is EndReason.RESIGNED and who is not None:
        return f"Game over: {name} resigned."
    if reason is EndReason.FINISH_LINE and who is not None:
        targets = game.rules.finish_line or ()  # a target per seat
        target = f" of {plural(targets[who], 'point')}" if who < len(targets) else ""
        return f"Game over: {name} reached the Finish Line target{target}."
    if game.out and reason in (EndReason.SCORELESS, EndReason.PASSES):  # those who left had no say
        return sentence(f"Game over: {str(game.end_words()).replace('every player', 'every player still in')}")
    return sentence(f"Game over: {game.end_words()}")


RECORD_WIDTH = 39
"""The columns of a :func:`short_record` line at its widest: name 8, event 20, score, total."""


def short_record(game: Game, record: Record, names: Sequence[str] | None = None, *,
                 width: int = RECORD_WIDTH) -> str:
    """A compact score sheet line for the side panel, at most ``width`` columns (from 24), the
    score and the total always whole: the event's column narrows and a longer event is
    shortened with ``…``; below :data:`RECORD_WIDTH` the name takes 6 columns, not 8 (the Super
    board's panel at 80 columns has 30). ``names``: the players' short names, told apart; by
    default :func:`qiza.text.short_names` of the name column's width."""
    name_width = 8 if width >= RECORD_WIDTH else 6
    name = (names or short_names(game.players, name_width))[record.seat]
    score = f"{record.score:>+4} {record.total:>4}"
    what_width = max(4, width - max(cells(name), name_width) - cells(score) - 2)
    return f"{pad(name, name_width)} {pad(_fit(_what(record), what_width), what_width)} {score}"


def _what(record: Record) -> str:
    """A score sheet line's event in a few words (``H8 FORD*`` for a bingo)."""
    if record.kind is Kind.PLACE:
        what = record.notation + ("*" if record.bingo else "") + (" (off)" if record.challenged_off else "")
    elif record.kind is Kind.EXCHANGE:
        what = "exchange"
    elif record.kind is Kind.PASS:
        what = "pass"
    elif record.kind is Kind.PHONY_REMOVED:
        what = "phony off"
    elif record.kind in (Kind.END_RACK_BONUS, Kind.END_RACK_PENALTY):
        what = "end " + record.notation
    elif record.kind is Kind.FAILED_CHALLENGE:
        what = "failed challenge"
    elif record.kind is Kind.LOST_TURN:
        what = "lost turn"
    elif record.kind is Kind.CHALLENGE_BONUS:
        what = "challenge bonus"
    elif record.kind is Kind.RESIGNED:
        what = f"out: {record.notation}"
    else:
        what = record.kind.value.replace("-", " ")
    return what


SCREEN_RESERVE = 3
"""Rows of the terminal kept under the game screen for the prompt and a message."""


def too_small(size: int, width: int, height: int) -> str | None:
    """That a terminal of ``width`` x ``height`` cannot show a board of ``size`` squares whole (the
    Super board's 23 rows and its prompt at 24), with the size that shows it and the panel beside
    it; None when it can."""
    board_width = size * COMPACT.width + 2 * (len(str(size)) + 1)
    rows = size * COMPACT.height + 2 + 1  # the letters above and below, the prompt
    if width >= board_width and height >= rows:
        return None
    return (f"This board needs a terminal of at least {board_width + 2 + 30}×{rows} to be seen whole, "
            f"with the game beside it (this one is {width}×{height}): make the window larger.")


def screen(game: Game, seats: Sequence[SeatInfo], viewer: int | None, *, width: int, height: int,
           notes: Sequence[str | Sequence[str]] = (), messages: Sequence[RenderableType] = ()) -> RenderableType:
    """The whole game screen: board on the left, panel on the right (or below when narrow);
    ``messages`` in the panel beside the board (:func:`side_panel`; :class:`PanelFull` when they do
    not fit there, or the panel is below the board)."""
    style = board_style_for(width, height, game.board.size)
    last = game.last_play()
    squares = last.squares if last is not None and game.history and game.history[-1] is last else (
        last.squares if last is not None else ())
    board = board_text(game.board, last=squares, style=style)
    board_lines = game.board.size * style.height + 2
    board_width = game.board.size * style.width + 2 * (len(str(game.board.size)) + 1)
    panel_width = width - board_width - 2
    below = 10
    # the panel below when there is room for it (else beside, narrow: the top of the board and
    # the rack both stay in sight at 60x20), the prompt and a message under them
    if panel_width < 30 and (board_lines + below + SCREEN_RESERVE <= height or panel_width < NARROW_PANEL):
        if messages:
            raise PanelFull("the panel is below the board")
        panel = side_panel(game, seats, viewer, width=width, lines=below, notes=notes)
        return Group(board, panel)
    panel = side_panel(game, seats, viewer, width=panel_width, lines=board_lines, notes=notes, style=style,
                       spare=height - board_lines - SCREEN_RESERVE, messages=messages)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, max_width=panel_width)
    grid.add_row(board, panel)
    return grid


def score_sheet(game: Game, *, show_racks: bool | int = True, wide: bool = False) -> RenderableType:
    """The full score sheet: every turn's player, rack, move, score and running total, then the
    line saying the moves' notation (a line of its own: as the table's caption it was wrapped to
    the width of the table).

    ``show_racks`` may be a seat number: only that player's racks are shown (the others' are
    hidden during the game).
    """
    table = Table(title="Score sheet", show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("Player", no_wrap=True)
    table.add_column("Rack", no_wrap=True)
    table.add_column("Move")
    if wide:
        table.add_column("Words")
    table.add_column("Score", justify="right")
    table.add_column("Total", justify="right")
    for number, record in enumerate(game.history, start=1):
        visible = show_racks is True or (show_racks is not False and show_racks == record.seat)
        move = record.notation or record.kind.value
        if record.kind is Kind.PLACE:
            if record.bingo:
                move += " (bingo)"
            if record.challenged_off:
                move += " (phony, taken back)"
        elif record.kind is Kind.EXCHANGE and not visible:
            move = "exchange"
        elif record.note and record.kind not in (Kind.END_RACK_BONUS, Kind.END_RACK_PENALTY):
            move = f"{move}: {record.note}"
        row = [str(number), game.players[record.seat], record.rack if visible else "", move]
        if wide:
            row.append(", ".join(record.words))
        row += [f"{record.score:+d}" if record.score else "0", str(record.total)]
        table.add_row(*map(Text, row))  # as written: a blank's '[ch]' or a name's '[b]' is no markup
    return Group(table, Text(notation_note(game.rules.notation)))


def biggest_plays(game: Game, seat: int, count: int = 3) -> list[Record]:
    """A player's highest-scoring plays that stayed on the board."""
    plays = [r for r in game.history if r.seat == seat and r.kind is Kind.PLACE and not r.challenged_off]
    return sorted(plays, key=lambda r: -r.score)[:count]


def end_summary(game: Game, *, wide: bool = False) -> RenderableType:
    """The full score sheet, then the final adjustments, each player's biggest plays and the winner
    (last, so that it stays on screen)."""
    parts: list[RenderableType] = [score_sheet(game, show_racks=True, wide=wide)]
    parts.append(Text(end_sentence(game), "bold"))
    adjustments = [r for r in game.history if r.kind in (Kind.END_RACK_BONUS, Kind.END_RACK_PENALTY)]
    if adjustments:
        parts.append(Text("Final adjustments:", "bold"))
        for record in adjustments:
            parts.append(Text("  " + sentence(describe_record(game, record))))
    before = game.scores_before_end()
    final = Table(show_edge=False, pad_edge=False, header_style="bold")
    final.add_column("Player")
    final.add_column("Place", justify="right")
    if before is not None and before != game.scores:
        final.add_column("Before tiles", justify="right")
    final.add_column("Final", justify="right")
    final.add_column("Biggest plays")
    winners = game.winners
    places = game.places
    for seat in game.standings:  # first place first; players out of the game last
        name, reason = game.players[seat], game.out_reason(seat)
        mark = " (winner)" if seat in winners else f" ({FORFEIT_WORDS[reason]})" if reason is not None else ""
        row = [name + mark, ordinal(places[seat])]
        if before is not None and before != game.scores:
            row.append(str(before[seat]))
        row.append(str(game.scores[seat]))
        row.append(", ".join(f"{r.notation} {r.score} (turn {game.history.index(r) + 1})"
                             for r in biggest_plays(game, seat)) or "-")
        final.add_row(*map(Text, row))
    parts.append(final)
    if len(winners) > 1:
        names = [game.players[s] for s in winners]
        parts.append(Text(f"Shared win: {', '.join(names[:-1])} and {names[-1]}!", "bold"))
    elif winners:
        winner = game.players[winners[0]]
        parts.append(Text(f"{winner} {verb(winner, 'wins', 'win')}!", "bold"))
    return Group(*parts)
