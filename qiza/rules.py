"""Rule presets and options.

A :class:`Rules` record holds every setting of a game: equipment (tile set and
layout), rack size and bingo bonus, the challenge rule, the end rule, the
exchange limit, the first-player rule, the notation and the Finish Line targets.
Presets are named :class:`Rules` values in a registry (:func:`find_preset`);
options are applied with :meth:`Rules.with_options` or :func:`dataclasses.replace`.
"""

from __future__ import annotations

import dataclasses
import enum
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qiza.alphabet import ENGLISH, TileSet, find_tile_set
from qiza.errors import QizaError, quoted
from qiza.layout import STANDARD, Layout, find_layout

__all__ = ["ChallengeRule", "EndRule", "FirstPlayer", "Notation", "EndPoints", "MAX_PLAYERS", "MAX_NUMBER", "Level",
           "FINISH_LINE_TARGETS", "finish_line_targets", "Rules", "rules_from_dict", "CLASSIC", "EIGHT_TILE",
           "NINE_TILE", "LARGE_PRINT", "COMPUTER", "TOURNAMENT", "SUPER_BOARD", "FRENCH_SET", "PRESETS", "ALIASES",
           "find_preset", "TOURNAMENT_PRESETS", "allows_exchange", "exchange_refusal", "default_challenge", "finish_line"]


class ChallengeRule(enum.Enum):
    """How phony words are dealt with."""

    DOUBLE = "double"
    """A play stands unless challenged; a failed challenge costs the challenger their turn."""
    AUTO = "auto"
    """Every play is checked at once; a phony is refused and the player tries again."""
    SINGLE = "single"
    """A play stands unless challenged; a failed challenge costs nothing."""
    FIVE_POINT = "five-point"
    """A failed challenge gives the player challenged 5 points."""
    TEN_POINT = "ten-point"
    """A failed challenge gives the player challenged 10 points."""
    VOID = "void"
    """Phonies are never accepted on the board (as ``auto``)."""

    @property
    def checks_at_once(self) -> bool:
        """Whether plays are validated against the lexicon when made."""
        return self in (ChallengeRule.AUTO, ChallengeRule.VOID)

    @property
    def failed_challenge_bonus(self) -> int:
        """Points to the player challenged when a challenge fails."""
        return {ChallengeRule.FIVE_POINT: 5, ChallengeRule.TEN_POINT: 10}.get(self, 0)

    @property
    def failed_challenge_loses_turn(self) -> bool:
        """Whether the challenger loses their turn when a challenge fails."""
        return self is ChallengeRule.DOUBLE


class EndRule(enum.Enum):
    """When a game with no one going out ends."""

    SCORELESS_TURNS = "scoreless"
    """Each player has had ``scoreless_turns`` scoreless turns in a row (default 3)."""
    PASSES = "passes"
    """All players have passed twice in a row (Large Print edition)."""


class FirstPlayer(enum.Enum):
    """Who plays first."""

    DRAW = "draw"
    """Each player draws a tile; closest to A starts, a blank beats any letter."""
    FIXED = "fixed"
    """Player 1 always starts (the computer game's rule)."""


class Notation(enum.Enum):
    """How move coordinates are written."""

    RULEBOOK = "rulebook"
    """Column letter first reads across (``H8``), row number first reads down (``8H``)."""
    TOURNAMENT = "tournament"
    """Row number first reads across (``8H``), column letter first reads down (``H8``); GCG."""


class EndPoints(enum.Enum):
    """How unplayed tiles are settled when a player goes out."""

    RULEBOOK = "rulebook"
    """Each player loses their own tiles' value; the player who went out gains them all."""
    DOUBLE = "double"
    """The player who went out gains twice the others' tiles; nobody loses (tournament rule)."""


MAX_PLAYERS = 4
"""The most players a game has (the rule books: 2 to 4; the racks, save files and GCG records
are made for at most 4)."""
MAX_NUMBER = 1_000_000
"""The largest number a rule option holds (bingo bonus, exchange limit, turn counts, Finish Line
targets): what a saved game holds, so that every game can be saved and resumed."""


class Level(enum.Enum):
    """Finish Line player levels."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    EXPERT = "expert"


FINISH_LINE_TARGETS: Mapping[int, Mapping[Level, int]] = {
    2: {Level.BEGINNER: 70, Level.INTERMEDIATE: 120, Level.EXPERT: 200},
    3: {Level.BEGINNER: 60, Level.INTERMEDIATE: 100, Level.EXPERT: 180},
    4: {Level.BEGINNER: 50, Level.INTERMEDIATE: 90, Level.EXPERT: 160},
}
"""Finish Line target score by number of players and level."""


def finish_line_targets(levels: list[Level] | tuple[Level, ...]) -> tuple[int, ...]:
    """Per-player Finish Line targets for players of the given levels."""
    if len(levels) not in FINISH_LINE_TARGETS:
        raise QizaError(f"Finish Line is for 2 to 4 players, not {len(levels)}")
    table = FINISH_LINE_TARGETS[len(levels)]
    return tuple(table[level] for level in levels)


@dataclass(frozen=True)
class Rules:
    """Every setting of a game. Immutable; derive variants with :meth:`with_options`."""

    name: str = "classic"
    tile_set: TileSet = ENGLISH
    layout: Layout = STANDARD
    rack_size: int = 7
    bingo_min_tiles: int = 7
    """A play of at least this many tiles earns the bingo bonus."""
    bingo_bonus: int = 50
    challenge: ChallengeRule = ChallengeRule.DOUBLE
    end_rule: EndRule = EndRule.SCORELESS_TURNS
    scoreless_turns: int = 3
    """Scoreless turns in a row per player that end the game (with ``SCORELESS_TURNS``)."""
    passes: int = 2
    """Passes in a row per player that end the game (with ``PASSES``)."""
    exchange_limit: int = 7
    """Exchanges need at least this many tiles in the bag."""
    end_points: EndPoints = EndPoints.RULEBOOK
    first_player: FirstPlayer = FirstPlayer.DRAW
    notation: Notation = Notation.RULEBOOK
    finish_line: tuple[int, ...] | None = None
    """Per-seat target scores for the Finish Line variant; ``None`` for a normal game."""
    min_players: int = 2
    max_players: int = 4
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name, kind in _FIELD_TYPES.items():
            value = getattr(self, name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                if kind in (int, str):
                    raise QizaError(f"rule option {name} must be {_KIND_NAMES[name]}, not {quoted(value)}")
                raise QizaError(f"rule option {name} of Rules() must be {_TYPE_NAMES[name]}, not {quoted(value)}"
                                 f"{_READ_BY_NAME}")
        if not _is_plain_name(self.name):
            raise QizaError(f"rule option name must be 1 to {MAX_NAME} characters on one line, without control "
                            f"or format characters, not {quoted(self.name)}")
        if not 2 <= self.rack_size <= 9:
            raise QizaError(f"rack size must be 2 to 9, not {self.rack_size}")
        if not 1 <= self.bingo_min_tiles <= self.rack_size:
            raise QizaError(f"bingo needs 1 to {self.rack_size} tiles (rule option bingo_min_tiles, at most "
                            f"rack_size), not {self.bingo_min_tiles}")
        if self.bingo_bonus < 0:
            raise QizaError(f"the bingo bonus cannot be negative, not {self.bingo_bonus}")
        if self.exchange_limit < 0:
            raise QizaError("exchange limit cannot be negative")
        if self.scoreless_turns < 1 or self.passes < 1:
            raise QizaError("end-rule turn counts must be at least 1")
        if not 1 <= self.min_players <= self.max_players <= MAX_PLAYERS:
            raise QizaError(f"min_players must be at least 1 and at most max_players, at most {MAX_PLAYERS}, "
                             f"not {self.min_players} with max_players {self.max_players}")
        if self.finish_line is not None:
            if not isinstance(self.finish_line, tuple) or not all(
                    type(target) is int and target > 0 for target in self.finish_line):
                raise QizaError(f"rule option finish_line of Rules() must be None or a tuple of positive "
                                 f"target scores, not {quoted(self.finish_line)}{_READ_BY_NAME}")
        numbers = [getattr(self, name) for name in _WHOLE_NUMBERS] + list(self.finish_line or ())
        if max(numbers) > MAX_NUMBER:
            raise QizaError(f"rule options are numbers of at most {MAX_NUMBER:,}, not {max(numbers):,}")

    def is_bingo(self, tiles_placed: int) -> bool:
        """Whether placing this many tiles earns the bingo bonus."""
        return tiles_placed >= self.bingo_min_tiles

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed; accepts names or enum values as strings.

        >>> find_preset("classic").with_options(challenge="five-point").challenge
        <ChallengeRule.FIVE_POINT: 'five-point'>
        """
        converted: dict[str, Any] = {}
        fields = {f.name: f for f in dataclasses.fields(self)}
        for key, value in options.items():
            key = key.replace("-", "_")
            if key not in fields or key == "extra":
                known = ", ".join(sorted(name for name in fields if name != "extra"))
                raise QizaError(f"unknown rule option {quoted(key)} (known: {known})")
            converted[key] = _convert_option(key, value)
        return dataclasses.replace(self, **converted)

    def describe(self) -> dict[str, Any]:
        """The settings as plain JSON-able values (the inverse of :func:`rules_from_dict`)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, (TileSet, Layout)):
                value = value.name
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


_ENUM_OPTIONS: dict[str, type[enum.Enum]] = {
    "challenge": ChallengeRule,
    "end_rule": EndRule,
    "first_player": FirstPlayer,
    "end_points": EndPoints,
    "notation": Notation,
}


MAX_NAME = 80
"""The longest name of :class:`Rules` (shown in a front end's title line)."""


def _is_plain_name(name: str) -> bool:
    """Whether ``name`` is one line of 1 to :data:`MAX_NAME` characters, its only white space
    single spaces inside it, and none of Unicode's control or format characters (C*: line breaks,
    escape sequences, right-to-left overrides)."""
    return (0 < len(name) <= MAX_NAME and name == name.strip() and "  " not in name
            and all(ch == " " or not (ch.isspace() or unicodedata.category(ch).startswith("C")) for ch in name))


_WHOLE_NUMBERS = ("rack_size", "bingo_min_tiles", "bingo_bonus", "scoreless_turns", "passes",
                  "exchange_limit", "min_players", "max_players")

_FIELD_TYPES: dict[str, type] = {
    "name": str, "tile_set": TileSet, "layout": Layout,
    **{key: int for key in _WHOLE_NUMBERS}, **_ENUM_OPTIONS,
}
"""The type each rule option must have once converted (``finish_line`` is checked apart)."""

_KIND_NAMES: dict[str, str] = {
    "name": "a text", "tile_set": "a tile set's name", "layout": "a board layout's name",
    **{key: "a whole number" for key in _WHOLE_NUMBERS},
    **{key: "one of " + ", ".join(str(e.value) for e in kind) for key, kind in _ENUM_OPTIONS.items()},
}


_TYPE_NAMES: dict[str, str] = {
    "tile_set": "a TileSet (find_tile_set('english'))", "layout": "a Layout (find_layout('standard'))",
    **{key: f"a {kind.__name__} ({kind.__name__}.{next(iter(kind)).name}...)" for key, kind in _ENUM_OPTIONS.items()},
}
"""What :class:`Rules` itself holds of the options :meth:`Rules.with_options` reads by name, for
the errors of ``Rules(...)``."""
_READ_BY_NAME = " (with_options reads names and lists: CLASSIC.with_options(challenge='single'))"


def _convert_option(key: str, value: Any) -> Any:
    """An option's value as :class:`Rules` holds it: names of settings as texts (or the enum
    members), whole numbers as numbers (or texts of digits, as a command line gives them);
    anything else is refused with a :class:`~qiza.errors.QizaError` (a ``ValueError``) naming the option."""
    wrong = QizaError(f"rule option {key} must be {_KIND_NAMES.get(key, 'null or a list of target scores')}, "
                       f"not {quoted(value)}")
    if key in _ENUM_OPTIONS:
        enum_type = _ENUM_OPTIONS[key]
        if isinstance(value, enum_type):
            return value
        if not isinstance(value, str):
            raise wrong
        try:
            return enum_type(value.lower())
        except ValueError:
            known = ", ".join(str(e.value) for e in enum_type)
            raise QizaError(f"unknown {key.replace('_', ' ')} {quoted(value)} (known: {known})") from None
    if key in ("tile_set", "layout"):
        if isinstance(value, str):
            return find_tile_set(value) if key == "tile_set" else find_layout(value)
        if not isinstance(value, TileSet if key == "tile_set" else Layout):
            raise wrong
    if key == "finish_line":
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or not all(type(v) is int for v in value):
            raise wrong
        if not all(v > 0 for v in value):  # said here in the option's words, not Rules()'s
            raise QizaError(f"rule option finish_line: the target scores must be more than 0, not "
                            f"{', '.join(str(v) for v in value)}")
        return tuple(value)
    if key in _WHOLE_NUMBERS:
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value)
        if type(value) is not int:
            raise wrong
    return value


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    """Rebuild :class:`Rules` from :meth:`Rules.describe` output."""
    base = Rules()
    return base.with_options(**dict(data))


CLASSIC = Rules()
"""The rule books' game: 7-tile racks, double challenge, draw for first play."""

EIGHT_TILE = Rules(name="8-tile", rack_size=8, bingo_min_tiles=7)
"""Large Print edition: racks of 8; bingo for 7 or 8 tiles."""

NINE_TILE = Rules(name="9-tile", rack_size=9, bingo_min_tiles=7)
"""2008 and Tile Lock editions: racks of 9; bingo for 7, 8 or 9 tiles."""

LARGE_PRINT = Rules(name="large-print", rack_size=8, bingo_min_tiles=7, end_rule=EndRule.PASSES)
"""Large Print edition: 8-tile racks and the game ends after all players pass twice in a row."""

COMPUTER = Rules(name="computer", first_player=FirstPlayer.FIXED)
"""The computer game's rules: player 1 starts."""

TOURNAMENT = Rules(name="tournament", notation=Notation.TOURNAMENT, challenge=ChallengeRule.DOUBLE)
"""Classic rules written in tournament notation (``8H`` across)."""

SUPER_BOARD = Rules(name="super", layout=find_layout("super"), tile_set=find_tile_set("super"))
"""The 21x21 board with the Super Scrabble set (200 tiles, 4 blanks)."""

FRENCH_SET = Rules(name="french", tile_set=find_tile_set("french"))
"""French tile values and counts on the standard board."""

PRESETS: dict[str, Rules] = {
    r.name: r for r in (CLASSIC, EIGHT_TILE, NINE_TILE, LARGE_PRINT, COMPUTER, TOURNAMENT,
                        SUPER_BOARD, FRENCH_SET)
}
ALIASES = {"standard": "classic", "default": "classic", "8": "8-tile", "9": "9-tile",
           "eight": "8-tile", "nine": "9-tile", "largeprint": "large-print"}


def find_preset(name: str) -> Rules:
    """A preset by name or alias: ``classic``, ``8-tile``, ``9-tile``, ``large-print``,
    ``computer``, ``tournament``, ``super``, ``french``; ``finish-line`` needs levels,
    see :func:`finish_line`. Raises :class:`~qiza.errors.QizaError` (a ``ValueError``) for an unknown name, :class:`TypeError`
    for what is not a text."""
    if not isinstance(name, str):
        raise TypeError(f"a rule preset's name is a text, not {quoted(name)}")
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(sorted(PRESETS)) + ", finish-line"
        from qiza.languages import LANGUAGES  # here: the languages module reads rules

        lexicon = next((lang.lexicon for lang in LANGUAGES.values() if lang.tile_set_name == key), None)
        language = "" if lexicon is None else (f": the {key} tiles come with the lexicon {lexicon} "
                                               f"(--lexicon {lexicon})")
        raise QizaError(f"unknown rule preset {quoted(name)} (known: {known}){language}") from None


TOURNAMENT_PRESETS = ("tournament",)
"""Presets whose challenge rule is kept even against the computer (see :func:`default_challenge`)."""


def allows_exchange(rules: Rules, bag: int) -> bool:
    """Whether a bag of ``bag`` tiles allows an exchange under ``rules``: at least
    ``rules.exchange_limit`` tiles, and at least one (a limit of 0 still needs a tile to draw)."""
    return exchange_refusal(rules, bag) is None


def exchange_refusal(rules: Rules, bag: int, *, tiles: int | None = None) -> str | None:
    """Why a bag of ``bag`` tiles allows no exchange under ``rules`` (``None``: it allows one):
    at least ``rules.exchange_limit`` tiles are needed, and at least one; with ``tiles``, the
    count to exchange, also as many as that (under a limit below the rack's size). The one
    wording of these refusals: :meth:`Game.play <qiza.game.Game.play>` raises it, the web's
    state gives it (``exchange_refused``).

    >>> exchange_refusal(CLASSIC, 6)
    'an exchange needs 7 tiles in the bag, 6 left'
    """
    if tiles is not None and tiles < 1:
        raise QizaError(f"an exchange is of 1 tile or more, not {tiles}")
    need = max(rules.exchange_limit, 1)
    if bag < need:
        return f"an exchange needs {need} tile{'s' if need != 1 else ''} in the bag, {bag} left"
    if tiles is not None and tiles > bag:
        return f"an exchange of {tiles} tiles needs {tiles} tiles in the bag, {bag} left"
    return None


def default_challenge(preset: str, *, against_computer: bool) -> ChallengeRule:
    """The challenge rule of a new game when none is asked for (the terminal and the web
    game both use this): ``auto`` against the computer, the friendliest rule to learn with
    (a phony is refused and the player tries again), the preset's own rule between people
    and in the tournament presets."""
    rules = find_preset(preset)
    if against_computer and rules.name not in TOURNAMENT_PRESETS:
        return ChallengeRule.AUTO
    return rules.challenge


def finish_line(levels: list[Level] | list[str], base: Rules = CLASSIC) -> Rules:
    """Finish Line rules for players of these levels (combine with any base preset): a list of
    :class:`Level` or their names, one a player (``["beginner", "expert"]``)."""
    if isinstance(levels, str) or not isinstance(levels, (list, tuple)):
        raise TypeError(f"Finish Line levels are a list, one level a player, not {quoted(levels)}")
    parsed: list[Level] = []
    for level in levels:
        if isinstance(level, Level):
            parsed.append(level)
            continue
        if not isinstance(level, str):
            raise TypeError(f"a Finish Line level is a Level or its name, not {quoted(level)}")
        try:
            parsed.append(Level(level.strip().lower()))
        except ValueError:
            known = ", ".join(lv.value for lv in Level)
            raise QizaError(f"unknown Finish Line level {quoted(level)} (known: {known})") from None
    name = base.name if base.name.startswith("finish-line") else f"finish-line/{base.name}"
    return dataclasses.replace(base, name=name, finish_line=finish_line_targets(parsed))
