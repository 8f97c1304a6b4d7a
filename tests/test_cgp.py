"""CGP positions and the shared positions format."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiza import cgp, positions
from qiza.errors import FileFormatError
from qiza.game import Game
from qiza.rules import COMPUTER, ChallengeRule, find_preset

EMPTY = "/".join(["15"] * 15)
SHARED_POSITIONS = Path(__file__).resolve().parents[1].parent / "shared" / "movegen" / "positions.txt"


def test_read_every_field_and_opcode() -> None:
    text = ("15/15/15/15/15/15/15/3FORAm7/15/15/15/15/15/15/15 DEEEIKR/ABC 22/7 2 "
            "lex NWL23; ld english; bdn CrosswordGame; cr 5pt; etl 1; bb 35; mcnz 6; gid abc;")
    position = cgp.loads(text)
    assert position.board.rows_text()[7] == "...FORAm......."
    assert position.racks == ["DEEEIKR", "ABC"] and position.scores == [22, 7]
    assert position.to_move == 0 and position.scoreless_turns == 2
    assert (position.lexicon, position.tile_distribution, position.board_layout) == ("NWL23", "english",
                                                                                    "CrosswordGame")
    assert (position.challenge_rule, position.exchange_limit, position.bingo_bonus) == ("5pt", 1, 35)
    assert position.max_scoreless_turns == 6 and position.options == {"gid": "abc"}
    assert cgp.dumps(position) == text
    rules = position.rules()
    assert rules.challenge is ChallengeRule.FIVE_POINT and rules.exchange_limit == 1 and rules.bingo_bonus == 35


def test_the_exchange_limit_is_the_specs_etl() -> None:
    """The CGP spec names the exchange limit ``etl``: qiza read it as an unknown opcode (and so
    allowed no exchange with 1 to 6 tiles in the bag under ``etl 1;``) and wrote ``ex``, which
    no other program reads. ``ex`` (qiza's older files) is still read, and written as ``etl``."""
    position = cgp.loads(f"{EMPTY} A/B 0/0 0 etl 1;")
    assert position.exchange_limit == 1 and position.options == {} and position.rules().exchange_limit == 1
    older = cgp.loads(f"{EMPTY} A/B 0/0 0 ex 3;")
    assert older.exchange_limit == 3 and cgp.dumps(older) == f"{EMPTY} A/B 0/0 0 etl 3;"
    with pytest.raises(FileFormatError, match="opcode etl"):
        cgp.loads(f"{EMPTY} A/B 0/0 0 etl many;")


def test_runs_of_empty_squares_may_have_leading_zeros() -> None:
    """``015`` is 15 squares (as Macondo reads it): qiza said the row had more than 15."""
    assert cgp.loads(f"{EMPTY.replace('15', '015', 1)} A/B 0/0 0").board == cgp.loads(f"{EMPTY} A/B 0/0 0").board
    assert cgp.loads(f"{EMPTY.replace('15', '07A07', 1)} A/B 0/0 0").board.rows_text()[0] == ".......A......."
    with pytest.raises(FileFormatError, match="more than 15 squares"):
        cgp.loads(f"{EMPTY.replace('15', '0016', 1)} A/B 0/0 0")


def test_round_trip_from_a_game() -> None:
    game = Game(COMPUTER, players=["A", "B", "C"], seed=4)
    game.set_rack(0, "AEINRST")
    game.play("H8 RETINAS")
    game.accept()
    position = cgp.Position.from_game(game)
    text = cgp.dumps(position)
    assert text.split()[1].split("/") == [game.rack_text(1), game.rack_text(2), game.rack_text(0)]  # to move first
    again = cgp.loads(text)
    assert again.board == game.board
    assert again.scores == game.scores and again.to_move == game.to_move == 1
    restored = again.to_game(lexicon=game.lexicon)
    assert restored.board == game.board and restored.tile_total() == 100
    assert [restored.rack_text(s) for s in range(3)] == [game.rack_text(s) for s in range(3)]
    assert restored.scores == again.scores and restored.to_move == 1


@pytest.mark.parametrize("players,moves", [(2, 1), (3, 2), (4, 3), (4, 0)])
def test_a_round_trip_keeps_the_seats(players: int, moves: int) -> None:
    """The racks and scores of a CGP start with the player to move; reading one always made that
    player seat 1: a position written and read again had its seats renumbered (who was to move,
    the scores by seat). The seat to move is written as qiza's opcode ``seat`` (other readers
    skip unknown opcodes) and read back."""
    game = Game(COMPUTER, players=players, seed=4)
    for _ in range(moves):
        game.play(game.legal_moves()[0].move)
        if game.can_challenge:
            game.accept()
    position = cgp.Position.from_game(game)
    text = cgp.dumps(position)
    again = cgp.loads(text)
    assert again == position and cgp.dumps(again) == text
    assert again.to_move == game.to_move and again.scores == game.scores
    assert again.racks == [game.rack_text(s) for s in range(players)]
    assert (" seat " in text) == (game.to_move != 0)
    restored = again.to_game(lexicon=game.lexicon)
    assert restored.to_move == game.to_move and restored.scores == game.scores


@pytest.mark.parametrize("opcode", ["seat 3;", "seat 0;", "seat x;", "seat;"])
def test_a_seat_the_position_does_not_have_is_refused(opcode: str) -> None:
    with pytest.raises(FileFormatError, match=r"opcode seat: .* is not a seat of this position's 2 players \(1 to 2\)"):
        cgp.loads(f"{EMPTY} A/B 0/0 0 {opcode}")


def test_unknown_racks_are_drawn_from_unseen_tiles() -> None:
    position = cgp.loads(f"{EMPTY.replace('15', '6ZAX6', 1)} AEINRST/ 0/0 0")
    game = position.to_game(lexicon="enable")
    assert game.rack_text(0) == "AEINRST" and len(game.rack_text(1)) == 7
    assert game.tile_total() == 100


@pytest.mark.parametrize("text,message", [
    ("15/15", "needs the board"),
    (f"{EMPTY.rsplit('/', 1)[0]} A/B 0/0 0", "rows"),
    (f"{EMPTY.replace('15', '14', 1)} A/B 0/0 0", "row 1"),
    (f"{EMPTY} A1/B 0/0 0", "rack 1"),
    (f"{EMPTY} A/B x/0 0", "scores"),
    (f"{EMPTY} A/B 0/0/0 0", "scores"),
    (f"{EMPTY} A/B 0/0 z", "scoreless"),
    (f"{EMPTY} A/B 0/0 0 ex many;", "ex"),
    (f"{EMPTY} A/B 0/0 0 ld klingon;", "ld"),
    (f"{EMPTY} A/B 0/0 0 bdn hexagonal;", "bdn"),
    # two positions (a file of them): the second was read as an opcode of the first, silently
    (f"{EMPTY} A/B 0/0 0 lex TWL06;\n{EMPTY} C/D 0/0 0", "one line; this text has 2 lines"),
    (f"{EMPTY} A/B 0/0 0\r\n{EMPTY} C/D 0/0 0", "one line"),
])
def test_malformed_cgp(text: str, message: str) -> None:
    with pytest.raises(FileFormatError, match=message):
        cgp.loads(text)


def test_a_super_board_without_its_bdn_is_told_how_to_name_it() -> None:
    """21 rows without 'bdn SuperCrosswordGame;' only said 'the board has 21 rows, not 15'."""
    rows = "/".join(["21"] * 21)
    with pytest.raises(FileFormatError, match=r"21 rows, not 15 \(a 21x21 board is named by 'bdn SuperCrosswordGame;'\)"):
        cgp.loads(f"{rows} A/B 0/0 0")
    with pytest.raises(FileFormatError, match=r"the board has 14 rows, not 15$"):
        cgp.loads(f"{EMPTY.rsplit('/', 1)[0]} A/B 0/0 0")
    assert cgp.loads(f"{rows} A/B 0/0 0 bdn SuperCrosswordGame;").board.layout.size == 21


def test_the_writer_refuses_what_the_reader_would_refuse() -> None:
    """A position of one player (qiza gcg export --to cgp of a one-player record) was written as
    a CGP that no reader reads, qiza's own included."""
    position = cgp.loads(f"{EMPTY} A/B 0/0 0")
    position.racks, position.scores = ["A"], [0]
    with pytest.raises(FileFormatError, match="the racks of 2 to 4 players, not 1"):
        cgp.dumps(position)


def test_too_many_tiles_on_the_board() -> None:
    position = cgp.loads(f"{EMPTY.replace('15', 'ZZ13', 1)} A/B 0/0 0")
    with pytest.raises(FileFormatError, match="more Z"):
        position.to_game(lexicon="enable")


def test_polish_distribution() -> None:
    position = cgp.loads(f"{EMPTY.replace('15', 'ŻÓŁW11', 1)} ĄĘ?/ 0/0 0 ld polish;")
    assert position.board.rows_text()[0].startswith("ŻÓŁW")
    assert cgp.loads(cgp.dumps(position)) == position


def test_shared_positions_format() -> None:
    if not SHARED_POSITIONS.exists():
        pytest.skip(f"the shared positions are not at {SHARED_POSITIONS} (not part of the repository)")
    read = positions.load(SHARED_POSITIONS)
    assert len(read) == 514
    assert positions.dumps(read) == SHARED_POSITIONS.read_text(encoding="utf-8")
    assert read[1].board.rows_text()[7] == "...FORAM......." and read[1].racks[0] == "DEEEIKR"


def test_positions_errors_have_line_numbers() -> None:
    rows = ["." * 15] * 15
    with pytest.raises(FileFormatError) as info:
        positions.loads("\n".join(rows[:3] + ["...."] + rows[4:]) + "\nRACK: A\n")
    assert info.value.line == 4
    with pytest.raises(FileFormatError) as info:
        positions.loads("\n".join(rows) + "\n")
    assert info.value.line == 1


def test_position_game_saves_and_replays() -> None:
    from qiza import savefile

    position = cgp.loads(f"{EMPTY.replace('15', '7CAT5', 1)} AEINRST/DGOU 12/30 4 lex enable;")
    game = position.to_game(lexicon="enable")
    assert game.rack_text(0) == "AEINRST" and game.rack_text(1) == "DGOU"
    assert game.scores == [12, 30] and game.scoreless_streak() == 4
    assert game.tile_total() == 100
    again = savefile.loads(savefile.dumps(game))
    assert again.board == game.board and again.racks == game.racks and again.scores == game.scores
    assert again.scoreless_streak() == 4


def test_a_super_position_is_written_with_macondos_names() -> None:
    """The Super board's tiles go out as ``ld english_super`` and the board as
    ``bdn SuperCrosswordGame``, the names Macondo reads; the old ``ld super`` still reads."""
    from qiza.rules import find_preset

    game = Game(find_preset("super"), players=["A", "B"], seed=3)
    text = cgp.dumps(cgp.Position.from_game(game))
    assert "ld english_super;" in text and "bdn SuperCrosswordGame;" in text
    for written in (text, text.replace("english_super", "super")):
        restored = cgp.loads(written).to_game(lexicon=game.lexicon)
        assert restored.rules.tile_set is game.rules.tile_set and restored.tile_total() == game.tile_total()


def test_a_language_lexicon_brings_its_tiles_to_a_position_without_ld() -> None:
    """'lex spanish-debian;' without 'ld spanish;' was read in English tiles: a rack with Ñ or
    [CH] was refused ('Ñ' is not a letter of the english tile set: type N), although qiza's
    language lexicons bring their tile set; 'qiza best --lexicon spanish-debian' the same."""
    empty = "/".join(["15"] * 15)
    position = cgp.loads(f"{empty} AEIORSÑ/ 0/0 0 lex spanish-debian;")
    assert position.rules().tile_set.name == "spanish" and position.tile_distribution == "spanish"
    assert "ld spanish;" in cgp.dumps(position)
    assert cgp.loads(f"{empty} AEIOR[CH]/ 0/0 0", tile_distribution="spanish").rules().tile_set.name == "spanish"
    assert cgp.loads(f"{empty} AEIORS/ 0/0 0 lex TWL06;").rules().tile_set.name == "english"
    assert cgp.loads(f"{empty} AEIORS/ 0/0 0 lex FRENCH-DEBIAN; ld english;").rules().tile_set.name == "english"
    with pytest.raises(FileFormatError, match="'Ñ' is not a letter of the english tile set"):
        cgp.loads(f"{empty} AEIORSÑ/ 0/0 0")


def test_qiza_best_reads_a_spanish_position_named_by_its_lexicon(capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main
    from qiza.languages import LANGUAGES

    language = LANGUAGES["spanish-debian"]
    if not language.path.is_file():  # it failed ('qiza best' exits 1 saying so) instead of skipping
        pytest.skip(f"{language.path} is absent: apt-get install {language.package} (CI installs it)")

    empty = "/".join(["15"] * 15)
    for args in ([f"{empty} AEIORS[CH]/ 0/0 0 lex spanish-debian;"],
                 [f"{empty} AEIORS[CH]/ 0/0 0", "--lexicon", "spanish-debian"]):
        assert main(["best", "-n", "2", *args]) == 0
        out = capsys.readouterr().out
        assert "rack AEIORS[CH]" in out and "lexicon SPANISH-DEBIAN" in out
    assert main(["best", "-n", "1", f"{empty} AEKNRSW/ 0/0 0 lex spanish-debian;", "--lexicon", "twl06"]) == 0
    assert "rack AEKNRSW, bag 86, lexicon TWL06" in capsys.readouterr().out  # English tiles: K and W


def test_a_byte_order_mark_is_no_square_and_control_characters_are_refused() -> None:
    """A CGP file saved by Windows Notepad (UTF-8 with a byte order mark) was 'board row 1
    ('\\ufeff15') has more than 15 squares'; an escape sequence in an opcode (lex) reached the
    terminal through qiza best's 'Lexicon:' line."""
    assert cgp.loads(f"\ufeff{EMPTY} AEINRST/ 0/0 0 lex NWL20;\r\n").racks[0] == "AEINRST"
    at = len(f"{EMPTY} AEINRST/ 0/0 0 lex A") + 1
    for control in ("\x1b[2J", "\x07", "\x9b"):
        with pytest.raises(FileFormatError, match=f"no control characters: U\\+{ord(control[0]):04X} at character {at}$"):
            cgp.loads(f"{EMPTY} AEINRST/ 0/0 0 lex A{control}B;")
    assert cgp.loads(f"{EMPTY}\tAEINRST/\t0/0\t0").racks[0] == "AEINRST"  # tabs separate fields


@pytest.mark.parametrize("preset", ["8-tile", "9-tile"])
def test_a_position_of_racks_of_8_or_9_tiles_is_a_game_of_that_rack_size(preset: str) -> None:
    """CGP has no opcode for the rack size: the position of a 9-tile game, written and read back,
    made a game of racks of 7, which refused its racks ('holds more than 7 tiles')."""
    rules = find_preset(preset).with_options(first_player="fixed")
    game = Game(rules, players=["Ann", "Bob", "Cy"], seed=3)
    game.play(game.legal_moves()[0].move)
    again = cgp.loads(cgp.dumps(cgp.Position.from_game(game))).to_game(lexicon=game.lexicon)
    assert again.rules.rack_size == rules.rack_size
    assert [again.rack_text(s) for s in range(3)] == [game.rack_text(s) for s in range(3)]  # the same seats
    assert len(again.rack_text(0)) == rules.rack_size and again.board == game.board
    shorter = cgp.loads(f"{EMPTY} AEINRST/DGOU 0/0 0").to_game(rules=rules)  # no longer rack: the rules'
    assert shorter.rules.rack_size == rules.rack_size
    assert cgp.loads(f"{EMPTY} AEINRST/DGOU 0/0 0").rules().rack_size == 7


@pytest.mark.parametrize(("opcodes", "lexicon"), [
    ("lex NWL23;", "TWL06"), ("lex CSW21;", "SOWPODS"), ("lex sowpods;", "SOWPODS"), ("", "ENABLE"),
    ("bdn SuperCrosswordGame; ld english_super;", "ENABLE"),
])  # positions in other languages' tiles: tests/test_languages_play.py (with small word lists)
def test_a_position_is_judged_by_the_built_in_lexicon_closest_to_its_own(opcodes: str, lexicon: str) -> None:
    """Position.to_game() judged every position but ENABLE, TWL06 and SOWPODS ones by ENABLE, even
    one in French tiles or naming qiza's own french-debian, where qiza best chose the closest."""
    board = "/".join(["21"] * 21) if "Super" in opcodes else EMPTY
    game = cgp.loads(f"{board} AEINRST/ 0/0 0 {opcodes}").to_game()
    assert game.lexicon.name == lexicon
    if game.rules.tile_set.name == "english":  # the caller's lexicon is the one
        assert cgp.loads(f"{board} AEINRST/ 0/0 0 {opcodes}").to_game(lexicon="twl06").lexicon.name == "TWL06"


def test_a_position_in_english_tiles_naming_a_language_list_stays_in_english_tiles() -> None:
    """``lex french-debian; ld english;`` chose the French list by default, which brought the
    French tiles over the English ones the position states (K, W, Y worth 10): a play scored
    by French values. The tiles the position gives win: ENABLE, the English tiles' list."""
    game = cgp.loads(f"{EMPTY} WAXYZIE/DEF 0/0 0 lex french-debian; ld english;").to_game()
    assert (game.rules.tile_set.name, game.lexicon.name) == ("english", "ENABLE")
    assert game.evaluate("H8 WAX").score == 26  # (4 + 1 + 8) doubled on the centre, as in English
