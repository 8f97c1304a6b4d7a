"""Rule presets and options (RULES.md 'Variants', challenge and end rules, notation)."""

from __future__ import annotations

import dataclasses

import pytest

from qiza.errors import QizaError
from qiza.rules import (
    CLASSIC,
    FINISH_LINE_TARGETS,
    ChallengeRule,
    EndPoints,
    EndRule,
    FirstPlayer,
    Level,
    Notation,
    Rules,
    allows_exchange,
    exchange_refusal,
    find_preset,
    finish_line,
    finish_line_targets,
    rules_from_dict,
)


def test_classic_is_the_rule_books_game() -> None:
    rules = find_preset("classic")
    assert rules is CLASSIC
    assert (rules.rack_size, rules.bingo_min_tiles, rules.bingo_bonus) == (7, 7, 50)
    assert rules.challenge is ChallengeRule.DOUBLE
    assert rules.end_rule is EndRule.SCORELESS_TURNS and rules.scoreless_turns == 3
    assert rules.exchange_limit == 7
    assert rules.first_player is FirstPlayer.DRAW
    assert rules.notation is Notation.RULEBOOK
    assert rules.end_points is EndPoints.RULEBOOK
    assert rules.finish_line is None
    assert (rules.min_players, rules.max_players) == (2, 4)
    assert rules.tile_set.name == "english" and rules.layout.name == "standard"


@pytest.mark.parametrize(("name", "rack", "bingo_tiles"), [
    ("8-tile", 8, 7), ("eight", 8, 7), ("9-tile", 9, 7), ("nine", 9, 7), ("large-print", 8, 7),
    ("standard", 7, 7), ("default", 7, 7), (" Classic ", 7, 7),
])
def test_rack_size_presets(name: str, rack: int, bingo_tiles: int) -> None:
    rules = find_preset(name)
    assert rules.rack_size == rack and rules.bingo_min_tiles == bingo_tiles
    assert [rules.is_bingo(n) for n in range(1, rack + 1)] == [n >= 7 for n in range(1, rack + 1)]


def test_other_presets() -> None:
    assert find_preset("large-print").end_rule is EndRule.PASSES
    assert find_preset("large-print").passes == 2
    assert find_preset("computer").first_player is FirstPlayer.FIXED
    assert find_preset("tournament").notation is Notation.TOURNAMENT
    assert find_preset("super").layout.size == 21
    assert find_preset("french").tile_set.name == "french"


def test_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown rule preset 'scrobble'.*classic.*finish-line"):
        find_preset("scrobble")


@pytest.mark.parametrize("rule", ["double", "auto", "single", "five-point", "ten-point", "void"])
def test_challenge_options(rule: str) -> None:
    rules = CLASSIC.with_options(challenge=rule)
    assert rules.challenge is ChallengeRule(rule)
    assert rules.challenge.checks_at_once == (rule in ("auto", "void"))
    assert rules.challenge.failed_challenge_bonus == {"five-point": 5, "ten-point": 10}.get(rule, 0)
    assert rules.challenge.failed_challenge_loses_turn == (rule == "double")


def test_options_by_name_and_value() -> None:
    rules = CLASSIC.with_options(end_rule="passes", exchange_limit="1", first_player="fixed",
                                 notation="tournament", end_points="double", rack_size=9)
    assert rules.end_rule is EndRule.PASSES and rules.exchange_limit == 1
    assert rules.first_player is FirstPlayer.FIXED and rules.notation is Notation.TOURNAMENT
    assert rules.end_points is EndPoints.DOUBLE and rules.rack_size == 9
    assert CLASSIC.with_options(**{"exchange-limit": 3}).exchange_limit == 3
    assert CLASSIC.with_options(layout="super", tile_set="french").layout.size == 21
    assert CLASSIC.challenge is ChallengeRule.DOUBLE  # the preset itself is unchanged


@pytest.mark.parametrize(("options", "message"), [
    ({"challenge": "triple"}, "unknown challenge 'triple'"),
    ({"colour": "red"}, "unknown rule option 'colour'"),
    ({"rack_size": "seven"}, "must be a whole number"),
    ({"rack_size": 1}, "rack size must be 2 to 9"),
    ({"rack_size": 10}, "rack size must be 2 to 9"),
    ({"bingo_min_tiles": 8}, "bingo needs 1 to 7 tiles"),
    # a smaller rack alone: the message names the other option to change
    ({"rack_size": 5}, r"bingo needs 1 to 5 tiles \(rule option bingo_min_tiles, at most rack_size\), not 7"),
    ({"exchange_limit": -1}, "cannot be negative"),
    ({"scoreless_turns": 0}, "at least 1"),
    # the name is sent back to every client of the web API and shown in the terminal's title
    ({"name": "x\n<script>"}, "rule option name must be 1 to 80 characters on one line"),
    ({"name": "\u202eevil"}, "without control or format characters"),
    ({"name": ""}, "rule option name must be"),
    ({"name": " classic"}, "rule option name must be"),
    ({"name": "x" * 81}, "rule option name must be 1 to 80"),
    ({"layout": "hexagonal"}, "unknown layout"),
    ({"tile_set": "klingon"}, "unknown tile set"),
    # a value of the wrong type is refused, never kept in the rules (a web request once
    # stored a list as the first-player rule, and a boolean challenge rule crashed the server)
    ({"challenge": True}, "challenge must be one of double"),
    ({"first_player": [0, 1]}, "first_player must be one of draw, fixed"),
    ({"end_points": 5}, "end_points must be one of rulebook, double"),
    ({"tile_set": 5}, "tile_set must be a tile set's name"),
    ({"layout": None}, "layout must be a board layout's name"),
    ({"rack_size": True}, "rack_size must be a whole number"),
    ({"bingo_bonus": 50.5}, "bingo_bonus must be a whole number"),
    ({"finish_line": "12"}, "finish_line must be null or a list of target scores"),
    ({"finish_line": [0, 100]}, "^rule option finish_line: the target scores must be more than 0, not 0, 100$"),
    ({"bingo_bonus": -50}, "bingo bonus cannot be negative"),
    ({"max_players": 1}, "min_players must be at least 1 and at most max_players"),
    # the rule books' 2 to 4 players: a fifth seat would start with an empty rack and could
    # be neither saved nor written to GCG
    ({"max_players": 30}, "max_players, at most 4"),
    ({"name": 3}, "name must be a text"),
])
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CLASSIC.with_options(**options)


def test_options_given_as_command_line_texts_or_enum_members() -> None:
    rules = CLASSIC.with_options(rack_size="8", challenge=ChallengeRule.VOID, finish_line=[100, 120])
    assert (rules.rack_size, rules.challenge, rules.finish_line) == (8, ChallengeRule.VOID, (100, 120))


def test_rules_made_directly_are_checked_too() -> None:
    with pytest.raises(ValueError, match=r"challenge of Rules\(\) must be a ChallengeRule"):
        dataclasses.replace(CLASSIC, challenge="double")  # type: ignore[arg-type]


def test_rules_describe_round_trip() -> None:
    for rules in (CLASSIC, find_preset("9-tile"), find_preset("super"), find_preset("french"),
                  finish_line(["beginner", "expert", "intermediate"], find_preset("9-tile")),
                  CLASSIC.with_options(challenge="ten-point", end_points="double")):
        assert rules_from_dict(rules.describe()) == rules


def test_finish_line_table() -> None:
    assert FINISH_LINE_TARGETS == {
        2: {Level.BEGINNER: 70, Level.INTERMEDIATE: 120, Level.EXPERT: 200},
        3: {Level.BEGINNER: 60, Level.INTERMEDIATE: 100, Level.EXPERT: 180},
        4: {Level.BEGINNER: 50, Level.INTERMEDIATE: 90, Level.EXPERT: 160},
    }
    # the rule book's examples: two Intermediates play to 120, four Beginners to 50 each
    assert finish_line_targets([Level.INTERMEDIATE] * 2) == (120, 120)
    assert finish_line(["beginner"] * 4).finish_line == (50, 50, 50, 50)
    # mixed levels: each player their own target
    assert finish_line(["Expert", "beginner", "intermediate", "beginner"]).finish_line == (160, 50, 90, 50)
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        finish_line(["beginner"] * 5)
    with pytest.raises(ValueError, match="2 to 4 players, not 1"):
        finish_line(["beginner"])


def test_finish_line_combines_with_other_variants() -> None:
    rules = finish_line(["beginner", "expert"], find_preset("9-tile"))
    assert rules.rack_size == 9 and rules.finish_line == (70, 200)
    assert rules.name == "finish-line/9-tile"
    assert dataclasses.replace(rules, finish_line=None).rack_size == 9


def test_rules_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.rack_size = 8  # type: ignore[misc]
    assert Rules() == CLASSIC


def test_rule_numbers_stay_within_what_a_saved_game_holds() -> None:
    """A rule number over a million made a game that saved but could not be read back."""
    from qiza.rules import MAX_NUMBER, find_preset

    classic = find_preset("classic")
    for option in ("exchange_limit", "bingo_bonus", "scoreless_turns", "passes"):
        assert getattr(classic.with_options(**{option: MAX_NUMBER}), option) == MAX_NUMBER
        with pytest.raises(ValueError, match="at most 1,000,000"):
            classic.with_options(**{option: MAX_NUMBER + 1})


def test_bad_settings_are_qiza_errors() -> None:
    """find_preset('nope'), with_options(rack_size=100), find_layout('hex') raised plain
    ValueErrors, which ``except QizaError`` (the base of every refusal) did not catch."""
    from qiza.errors import QizaError
    from qiza.layout import find_layout
    from qiza.rules import find_preset

    for action in (lambda: find_preset("nope"), lambda: find_preset("classic").with_options(rack_size=100),
                   lambda: find_preset("classic").with_options(bogus=1),
                   lambda: find_preset("classic").with_options(challenge="nope"),
                   lambda: find_layout("hex"), lambda: find_layout("standard").parse_square("Z99")):
        with pytest.raises(QizaError):
            action()


def test_finish_line_levels_are_a_list_of_levels() -> None:
    """finish_line('beginner') read the text letter by letter: "'b' is not a valid Level"."""
    from qiza.errors import QizaError
    from qiza.rules import finish_line

    with pytest.raises(TypeError, match="a list, one level a player"):
        finish_line("beginner")  # type: ignore[arg-type]
    with pytest.raises(QizaError, match="unknown Finish Line level 'grandmaster' .known: beginner, intermediate"):
        finish_line(["beginner", "grandmaster"])
    assert finish_line(["Beginner", "expert"]).finish_line == (70, 200)


def test_rules_made_directly_say_what_they_take() -> None:
    """Rules(challenge="double") was refused with 'rule option challenge must be one of double,
    auto, single, ... not 'double'', Rules(tile_set="french") with 'must be a tile set's name, not
    'french'' and Rules(finish_line=[70, 200]) with 'must be null or a list of positive target
    scores, not [70, 200]': each says what Rules() takes and that with_options reads names."""
    from qiza.errors import QizaError
    from qiza.layout import STANDARD

    for bad, shown in (({"challenge": "double"}, "a ChallengeRule (ChallengeRule.DOUBLE...), not 'double'"),
                       ({"tile_set": "french"}, "a TileSet (find_tile_set('english')), not 'french'"),
                       ({"layout": None}, "a Layout (find_layout('standard')), not None"),
                       ({"finish_line": [70, 200]}, "None or a tuple of positive target scores, not [70, 200]")):
        with pytest.raises(QizaError) as caught:
            Rules(**bad)
        assert shown in str(caught.value) and "with_options reads names" in str(caught.value)
    with pytest.raises(QizaError, match="^rule option name must be a text, not 3$"):
        Rules(name=3)  # type: ignore[arg-type]
    with pytest.raises(QizaError, match="^rule option tile_set must be a tile set's name, not 5$"):
        CLASSIC.with_options(tile_set=5)
    assert Rules(challenge=ChallengeRule.SINGLE, layout=STANDARD) == CLASSIC.with_options(challenge="single")


def test_exchange_refusal_says_why_the_bag_allows_no_exchange() -> None:
    assert exchange_refusal(CLASSIC, 7) is None and allows_exchange(CLASSIC, 7)
    assert exchange_refusal(CLASSIC, 6) == "an exchange needs 7 tiles in the bag, 6 left"
    assert not allows_exchange(CLASSIC, 6)
    no_limit = dataclasses.replace(CLASSIC, exchange_limit=0)
    assert exchange_refusal(no_limit, 1) is None  # a limit of 0 still needs a tile to draw
    assert exchange_refusal(no_limit, 0) == "an exchange needs 1 tile in the bag, 0 left"


def test_exchange_refusal_of_more_tiles_than_the_bag_holds() -> None:
    one = dataclasses.replace(CLASSIC, exchange_limit=1)
    assert exchange_refusal(one, 2, tiles=2) is None
    assert exchange_refusal(one, 2, tiles=3) == "an exchange of 3 tiles needs 3 tiles in the bag, 2 left"
    assert exchange_refusal(one, 0, tiles=3) == "an exchange needs 1 tile in the bag, 0 left"  # the bag first
    assert exchange_refusal(CLASSIC, 6, tiles=1) == "an exchange needs 7 tiles in the bag, 6 left"
    with pytest.raises(QizaError, match="^an exchange is of 1 tile or more, not 0$"):
        exchange_refusal(CLASSIC, 9, tiles=0)
