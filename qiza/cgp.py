"""CGP positions: a board, racks, scores and settings in one line.

A CGP string (the position format of Macondo and Woogles) is::

    <rows> <racks> <scores> <scoreless turns> [opcode value; ...]

Rows are separated by ``/``, with a number for a run of empty squares; upper-case
letters are tiles, lower-case letters blanks. Racks and scores list the player to
move first (``AEINRST/DEFGHIJ 120/98``); a rack may be empty when unknown. Opcodes
name settings: ``lex`` lexicon, ``ld`` letter distribution, ``bdn`` board layout,
``cr`` challenge rule, ``etl`` exchange limit (the tiles the bag must hold; qiza wrote it
``ex`` before, which is still read), ``bb`` bingo bonus, ``mcnz`` scoreless turns that
end the game, ``seat`` (qiza's own, written when it is not 1; other readers skip unknown
opcodes) the seat of the player to move, so that a position read back has the same seats;
others are kept as they are. Without ``ld`` the tiles are English, or those of
one of qiza's language lexicons that ``lex`` names (``lex spanish-debian;``: Spanish).

:class:`Position` is independent of :class:`~qiza.game.Game`; :meth:`Position.from_game`
and :meth:`Position.to_game` convert.

>>> position = loads("15/15/15/15/15/15/15/3FORAM7/15/15/15/15/15/15/15 DEEEIKR/ 20/0 0 lex NWL23;")
>>> position.racks, position.scores, position.lexicon
(['DEEEIKR', ''], [20, 0], 'NWL23')
>>> dumps(position)
'15/15/15/15/15/15/15/3FORAM7/15/15/15/15/15/15/15 DEEEIKR/ 20/0 0 lex NWL23;'
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from qiza.alphabet import BLANK, BLANK_FLAG, ENGLISH, TileSet, find_tile_set, nfc
from qiza.board import Board
from qiza.errors import FileFormatError, GameOverError, QizaError, quoted
from qiza.game import Game
from qiza.layout import STANDARD, Layout, find_layout
from qiza.lexicon import Lexicon
from qiza.rules import ChallengeRule, FirstPlayer, Rules

__all__ = ["Position", "loads", "dumps", "language_tiles"]

_CHALLENGE_NAMES = {"single": ChallengeRule.SINGLE, "double": ChallengeRule.DOUBLE, "void": ChallengeRule.VOID,
                    "5pt": ChallengeRule.FIVE_POINT, "five-point": ChallengeRule.FIVE_POINT,
                    "10pt": ChallengeRule.TEN_POINT, "ten-point": ChallengeRule.TEN_POINT,
                    "auto": ChallengeRule.AUTO}
_CGP_CHALLENGE = {ChallengeRule.SINGLE: "single", ChallengeRule.DOUBLE: "double", ChallengeRule.VOID: "void",
                  ChallengeRule.FIVE_POINT: "5pt", ChallengeRule.TEN_POINT: "10pt", ChallengeRule.AUTO: "void"}
_LAYOUT_NAMES = {"crosswordgame": "standard", "standard": "standard", "supercrosswordgame": "super",
                 "super": "super"}
_CGP_LAYOUT = {"standard": "CrosswordGame", "super": "SuperCrosswordGame"}
_CGP_TILE_SET = {"super": "english_super"}
"""Tile sets by the ``ld`` names Macondo reads where these differ from qiza's (``french`` ... in both)."""
_KNOWN = ("lex", "ld", "bdn", "cr", "etl", "bb", "mcnz", "seat")
MAX_PLAYERS = 4
"""A CGP names 2 to 4 players' racks and scores."""
MAX_RACK_SIZE = 9
"""The largest rack a position's rules are given (the 9-tile game's)."""
_MAX_DIGITS = 6
_MAX_OPCODES = 100
_WHOLE = re.compile(r"[0-9]{1,6}")
_SCORE = re.compile(r"-?[0-9]{1,6}")
_ROW_PART = re.compile(r"([0-9]+)|(.)", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters but the tab and line breaks (said otherwise): ESC starts terminal escape sequences."""


def _board_row(number: int, row: str, size: int) -> str:
    """One board row of a CGP (``3FORAM7``) as squares (``...FORAM.......``). Runs of empty
    squares are ASCII numbers; the row must have exactly ``size`` squares (checked before
    any long run is built)."""
    out: list[str] = []
    length = 0
    for match in _ROW_PART.finditer(row):
        digits, part = match.groups()
        if digits is not None:
            significant = digits.lstrip("0") or "0"  # 015 is 15 squares, as Macondo reads it
            run = int(significant) if len(significant) <= 2 else size + 1
            out.append("." * min(run, size + 1))
            length += run
        else:
            out.append(part)
            length += 1
        if length > size:
            raise FileFormatError(f"board row {number} ({quoted(row)}) has more than {size} squares")
    if length != size:
        raise FileFormatError(f"board row {number} ({quoted(row)}) has {length} squares, not {size}")
    return "".join(out)


def _layout(name: str | None) -> Layout:
    if not name:
        return STANDARD
    try:
        return find_layout(_LAYOUT_NAMES.get(name.lower(), name))
    except ValueError as exc:
        raise FileFormatError(f"bdn: {exc}") from None


def _rack_length(rack: str, tile_set: TileSet) -> int:
    """The tiles of a rack (``[CH]`` is one), 0 for one that is no rack of the set (refused later)."""
    try:
        return len(tile_set.codes(rack.upper()))
    except ValueError:
        return 0


def _tile_set(name: str | None) -> TileSet:
    if not name:
        return ENGLISH
    try:
        key = name.lower()
        return find_tile_set("super" if key == "english_super" else key)  # no other Super set: catalan_super ...
    except ValueError as exc:
        raise FileFormatError(f"ld: {exc}") from None


@dataclass
class Position:
    """A position: the board, every rack and score, whose turn it is and the settings."""

    board: Board
    racks: list[str]
    """Racks by seat (``?`` for a blank); empty when unknown."""
    scores: list[int]
    to_move: int = 0
    scoreless_turns: int = 0
    """Consecutive scoreless turns so far (all players)."""
    lexicon: str | None = None
    tile_distribution: str | None = None
    board_layout: str | None = None
    challenge_rule: str | None = None
    exchange_limit: int | None = None
    bingo_bonus: int | None = None
    max_scoreless_turns: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    """Other opcodes, kept as they are."""

    # -- conversions ---------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The current position of a game (with every rack)."""
        if not isinstance(game, Game):
            raise TypeError(f"a position is taken from a Game, not {type(game).__name__}")
        rules = game.rules
        return cls(
            board=game.board.copy(), racks=[game.rack_text(s) for s in range(game.player_count)],
            scores=list(game.scores), to_move=game.to_move, scoreless_turns=game.scoreless_streak(),
            lexicon=game.lexicon.name,
            tile_distribution=None if rules.tile_set is ENGLISH else _CGP_TILE_SET.get(rules.tile_set.name,
                                                                                      rules.tile_set.name),
            board_layout=None if rules.layout is STANDARD else _CGP_LAYOUT.get(rules.layout.name, rules.layout.name),
            challenge_rule=_CGP_CHALLENGE[rules.challenge],
            exchange_limit=None if rules.exchange_limit == 7 else rules.exchange_limit,
            bingo_bonus=None if rules.bingo_bonus == 50 else rules.bingo_bonus,
        )

    def rules(self, base: Rules | None = None) -> Rules:
        """The rules the position's settings describe (player 1 starts; other settings from ``base``).

        CGP has no opcode for the rack size: a rack of 8 or 9 tiles makes it 8 or 9 (the 8- and
        9-tile games, as :func:`qiza.gcg.rules_for` reads a record), else it is ``base``'s (7).
        """
        rules = base or Rules(name="cgp")
        tile_set = _tile_set(self.tile_distribution)
        options: dict[str, Any] = {"first_player": FirstPlayer.FIXED, "tile_set": tile_set,
                                   "layout": _layout(self.board_layout)}
        longest = max((_rack_length(rack, tile_set) for rack in self.racks), default=0)
        if longest > rules.rack_size:
            options["rack_size"] = min(longest, MAX_RACK_SIZE)
        if self.challenge_rule:
            rule = _CHALLENGE_NAMES.get(self.challenge_rule.lower())
            if rule is None:
                raise FileFormatError(f"cr: unknown challenge rule {quoted(self.challenge_rule)} "
                                      f"(known: {', '.join(sorted(_CHALLENGE_NAMES))})")
            options["challenge"] = rule
        if self.exchange_limit is not None:
            options["exchange_limit"] = self.exchange_limit
        if self.bingo_bonus is not None:
            options["bingo_bonus"] = self.bingo_bonus
        if self.max_scoreless_turns is not None:
            options["scoreless_turns"] = max(1, -(-self.max_scoreless_turns // max(1, len(self.racks))))
        return rules.with_options(**options)

    def to_game(self, *, lexicon: Lexicon | str | None = None, seed: int = 0,
                players: list[str] | None = None, rules: Rules | None = None) -> Game:
        """A game in this position, for analysis (its history starts here).

        ``lexicon`` judges the words; by default the built-in lexicon closest to the position's
        (:func:`qiza.languages.builtin_for`: ``lex NWL23`` is TWL06, ``lex CSW21`` SOWPODS, a
        position in French tiles the French list, none ENABLE), as ``qiza best`` chooses it:
        the game's :attr:`~qiza.game.Game.lexicon` says which. Unknown racks are drawn at random
        (with ``seed``) from the tiles not on the board or on known racks. Raises
        :class:`~qiza.errors.FileFormatError` when the board and racks hold more of a tile than
        the set has, and :class:`~qiza.errors.GameOverError` for a position after its game's end
        (as :meth:`Game.setup_position <qiza.game.Game.setup_position>` refuses it, saying why).
        """
        from qiza.languages import builtin_for

        game_rules = self.rules(rules)
        if self.board.layout != game_rules.layout or self.board.tile_set != game_rules.tile_set:
            raise FileFormatError("the board's layout or tile set differ from the rules")
        if lexicon is None:
            lexicon = builtin_for(self.lexicon, game_rules.tile_set)
        n = len(self.racks)
        names = players or [f"Player {i + 1}" for i in range(n)]
        try:
            game = Game(game_rules, players=names, lexicon=lexicon, seed=seed)
        except QizaError as exc:
            raise FileFormatError(str(exc)) from None
        tile_set = game_rules.tile_set
        known = Counter(tile_set.full_bag())
        for square in self.board.occupied():
            tile = self.board[square]
            known[BLANK if tile & BLANK_FLAG else tile] -= 1
        for rack in self.racks:
            known.subtract(tile_set.codes(rack.upper()))
        if any(count < 0 for count in known.values()):
            extra = tile_set.text(sorted(t for t, c in known.items() if c < 0))
            raise FileFormatError(f"the board and racks hold more {extra} tiles than the {tile_set.name} set has")
        pool = sorted(known.elements())
        rng = random.Random(seed)
        racks = list(self.racks)
        for seat in range(n):
            if not racks[seat]:  # an unknown rack: draw it at random from the unseen tiles
                draw = rng.sample(pool, min(game_rules.rack_size, len(pool)))
                for tile in draw:
                    pool.remove(tile)
                racks[seat] = tile_set.text(draw)
        try:
            game.setup_position(self.board.rows_text(), racks, self.scores, self.to_move, self.scoreless_turns)
        except GameOverError:  # a finished game's position: well formed, and over
            raise
        except QizaError as exc:
            raise FileFormatError(str(exc)) from None
        return game

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-able data (board rows as text)."""
        return {"board": self.board.rows_text(), "racks": list(self.racks), "scores": list(self.scores),
                "to_move": self.to_move, "scoreless_turns": self.scoreless_turns, "cgp": dumps(self)}


# -- text -----------------------------------------------------------------------------------------

def dumps(position: Position) -> str:
    """The position as a CGP string (racks and scores from the player to move)."""
    if not isinstance(position, Position):
        raise TypeError(f"a CGP is written from a Position (cgp.loads, Position.from_game), not "
                        f"{type(position).__name__}")
    board = position.board
    rows = []
    for row_text in board.rows_text():
        out, run = [], 0
        for char in row_text:
            if char == ".":
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(char)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    n = len(position.racks)
    if not 2 <= n <= MAX_PLAYERS:  # loads reads nothing else
        raise FileFormatError(f"a CGP has the racks of 2 to {MAX_PLAYERS} players, not {n}")
    if n != len(position.scores):
        raise FileFormatError(f"{n} racks but {len(position.scores)} scores")
    order = [(position.to_move + i) % n for i in range(n)]
    for seat in order:
        if not re.fullmatch(r"(?:[^\W\d_]|\?)*", position.racks[seat]):
            raise FileFormatError(f"rack {seat + 1}: {quoted(position.racks[seat])} is not a rack")
    racks = "/".join(position.racks[s] for s in order)
    scores = "/".join(str(position.scores[s]) for s in order)
    ops: list[tuple[str, str]] = []
    for name, value in (("lex", position.lexicon), ("ld", position.tile_distribution),
                        ("bdn", position.board_layout), ("cr", position.challenge_rule),
                        ("etl", position.exchange_limit), ("bb", position.bingo_bonus),
                        ("mcnz", position.max_scoreless_turns)):
        if value is not None:
            ops.append((name, str(value)))
    if position.to_move:  # the racks and scores start with the player to move: say whose seat that is
        ops.append(("seat", str(position.to_move + 1)))
    ops.extend(position.options.items())
    for name, value in ops:
        if ";" in value or not re.fullmatch(r"[\w.-]+", name):
            raise FileFormatError(f"opcode {quoted(name)} {quoted(value)} cannot be written")
    text = f"{'/'.join(rows)} {racks} {scores} {position.scoreless_turns}"
    if ops:
        text += " " + " ".join(f"{name} {value};".replace(" ;", ";") for name, value in ops)
    return text


def language_tiles(lexicon: str | None) -> str | None:
    """The tile set (``ld`` name) a lexicon brings: that language's for one of qiza's language
    lexicons (``spanish-debian``: ``spanish``), else None (an English list, any other name: no
    rule is guessed from a lexicon's name)."""
    from qiza.languages import LANGUAGES

    language = LANGUAGES.get((lexicon or "").lower())
    return language.tile_set_name if language is not None else None


def loads(text: str, *, tile_distribution: str | None = None) -> Position:
    """Read a CGP string (composed: :func:`~qiza.alphabet.nfc`). Raises
    :class:`~qiza.errors.FileFormatError` naming the problem (:class:`TypeError` for what is not
    a text). A position without ``ld`` is in ``tile_distribution``'s tiles when given, else in
    those its ``lex`` brings (:func:`language_tiles`: ``lex spanish-debian;`` Spanish), else
    English."""
    if not isinstance(text, str):
        raise TypeError(f"a CGP position to read is a text, not {type(text).__name__} {quoted(str(text))}")
    text = nfc(text.removeprefix("\ufeff")).strip()  # the byte order mark of a file saved by Windows Notepad
    if "\n" in text or "\r" in text:  # the opcodes would swallow the next lines: say so
        lines = len(text.splitlines())
        raise FileFormatError(f"a CGP position is one line; this text has {lines} lines (one position at a time)")
    control = _CONTROL.search(text)
    if control:  # an escape sequence in a lex name would act on the terminal that shows it
        raise FileFormatError(f"a CGP holds no control characters: U+{ord(control.group()):04X} at character "
                              f"{control.start() + 1}")
    fields = text.split(None, 4)
    if len(fields) < 4:
        raise FileFormatError(f"a CGP needs the board, racks, scores and scoreless turns; got {len(fields)} "
                              f"field{'s' if len(fields) != 1 else ''}")
    rows_text, racks_text, scores_text, zeros_text = fields[:4]
    options: dict[str, str] = {}
    ops = (fields[4] if len(fields) > 4 else "").split(";", _MAX_OPCODES + 1)
    if len(ops) > _MAX_OPCODES + 1:
        raise FileFormatError(f"a CGP has at most {_MAX_OPCODES} opcodes")
    for op in ops:
        op = op.strip()
        if not op:
            continue
        name, _, value = op.partition(" ")
        options[name] = value.strip()
    position = Position(Board(), [], [])
    position.lexicon = options.pop("lex", None)
    position.tile_distribution = options.pop("ld", None) or tile_distribution or language_tiles(position.lexicon)
    position.board_layout = options.pop("bdn", None)
    position.challenge_rule = options.pop("cr", None)
    limit = "ex" if "ex" in options and "etl" not in options else "etl"  # ex: qiza's name before the spec's etl
    for attr, key in (("exchange_limit", limit), ("bingo_bonus", "bb"), ("max_scoreless_turns", "mcnz")):
        if key in options:
            value = options.pop(key)
            if not _WHOLE.fullmatch(value):
                raise FileFormatError(f"opcode {key}: {quoted(value)} is not a whole number of at most "
                                      f"{_MAX_DIGITS} digits")
            setattr(position, attr, int(value))
    position.options = options
    layout = _layout(position.board_layout)
    tile_set = _tile_set(position.tile_distribution)
    rows = rows_text.split("/", layout.size)
    if len(rows) != layout.size:
        count = rows_text.count("/") + 1
        hint = next((f" (a {other.size}x{other.size} board is named by 'bdn {name};')"
                     for name, other in ((_CGP_LAYOUT[key], find_layout(key)) for key in _CGP_LAYOUT)
                     if other.size == count != layout.size), "")
        raise FileFormatError(f"the board has {count} rows, not {layout.size}{hint}")
    board_rows = [_board_row(number, row, layout.size) for number, row in enumerate(rows, start=1)]
    try:
        position.board = Board.from_rows(board_rows, layout, tile_set)
    except QizaError as exc:
        raise FileFormatError(str(exc)) from None
    racks = racks_text.split("/", MAX_PLAYERS)
    if len(racks) > MAX_PLAYERS:
        raise FileFormatError(f"a CGP has a rack field for each of 2 to {MAX_PLAYERS} players, "
                              f"not {racks_text.count('/') + 1}")
    bag_size = len(tile_set.full_bag())
    for number, rack in enumerate(racks, start=1):
        if len(rack) > bag_size:
            raise FileFormatError(f"rack {number} has {len(rack)} tiles, more than the {tile_set.name} set's "
                                  f"{bag_size}")
        try:
            tile_set.codes(rack.upper())
        except ValueError as exc:
            raise FileFormatError(f"rack {number} ({quoted(rack)}): {exc}") from None
    position.racks = [r.upper() for r in racks]
    scores = scores_text.split("/", MAX_PLAYERS)
    if not all(_SCORE.fullmatch(score) for score in scores):
        raise FileFormatError(f"scores {quoted(scores_text)} are not numbers like 120/98 "
                              f"(at most {_MAX_DIGITS} digits each)")
    position.scores = [int(score) for score in scores]
    if len(position.scores) != len(position.racks):
        raise FileFormatError(f"{len(position.racks)} racks but {len(position.scores)} scores")
    if len(racks) < 2:
        raise FileFormatError("a CGP needs a rack field for every player (racks separated by '/')")
    if not _WHOLE.fullmatch(zeros_text):
        raise FileFormatError(f"consecutive scoreless turns {quoted(zeros_text)} is not a whole number "
                              f"of at most {_MAX_DIGITS} digits")
    position.scoreless_turns = int(zeros_text)
    if "seat" in options:  # the racks and scores are read from the player to move: put them in their seats
        seat = options.pop("seat")
        n = len(position.racks)
        if not (_WHOLE.fullmatch(seat) and 1 <= int(seat) <= n):
            raise FileFormatError(f"opcode seat: {quoted(seat)} is not a seat of this position's {n} players "
                                  f"(1 to {n})")
        position.to_move = int(seat) - 1
        back = [(i - position.to_move) % n for i in range(n)]
        position.racks = [position.racks[i] for i in back]
        position.scores = [position.scores[i] for i in back]
    return position
