# mypy: disable-error-code="arg-type, call-overload, misc"
# (the tests below pass values of the wrong type on purpose)
"""The library API as a bot or a research script uses it, misused the way people do: every bad
input raises a documented error (a QizaError, or a TypeError for a value of the wrong type) that
names the input, and leaves the game exactly as it was; nothing returned lets a caller change the
game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import GameFactory, state_of

from qiza import cgp, gcg
from qiza.alphabet import find_tile_set
from qiza.errors import PATH_LIMIT, GameOverError, IllegalMoveError, MoveSyntaxError, QizaError
from qiza.game import Game
from qiza.layout import STANDARD
from qiza.lexicon import load_lexicon
from qiza.move import Direction, Exchange, Place, parse_move
from qiza.players import make_player
from qiza.rules import Notation, find_preset

REFUSED = (QizaError, TypeError)


def refused_unchanged(game: Game, action: Any, *names: str) -> BaseException:
    """Run ``action``, expect a refusal naming each of ``names``, and the game unchanged."""
    before = state_of(game)
    with pytest.raises(REFUSED) as caught:
        action()
    assert state_of(game) == before
    for name in names:
        assert name in str(caught.value)
    return caught.value


# -- moves of the wrong type ------------------------------------------------------------------

@pytest.mark.parametrize("move", [None, 5, b"H8 QI", ["pass"], Direction.ACROSS])
def test_play_refuses_what_is_no_move_and_changes_nothing(make_game: GameFactory, move: Any) -> None:
    game = make_game(racks={0: "QATEEEE"})
    game.play("H8 QAT")  # a play open to challenge: a pass would close it
    refused_unchanged(game, lambda: game.play(move), repr(move))
    refused_unchanged(game, lambda: game.push(move), repr(move))
    assert len(game.history) == 1 and game.can_challenge


def test_playing_an_evaluation_says_to_play_its_move(make_game: GameFactory) -> None:
    """game.play(game.legal_moves()[0]) was 'a move is a Place, Exchange, Pass or Challenge or its
    text, not Evaluation(move=Place(...), words=(...' : it did not say where the move is."""
    game = make_game(racks={0: "QATEEEE"})
    evaluation = game.legal_moves()[0]
    for action in (game.play, game.push):
        error = refused_unchanged(game, lambda action=action: action(evaluation), "not an Evaluation")
        assert "play their .move" in str(error) and repr(evaluation.move)[:20] in str(error)
    game.play(evaluation.move)


def test_summarize_refuses_names_that_do_not_match_the_games() -> None:
    """summarize(["a"], results of two-player games) gave the statistics of the first seat alone,
    silently; the arguments swapped were an AttributeError ('str' object has no attribute 'scores')."""
    from qiza.players.selfplay import GameResult, summarize

    result = GameResult(seed=1, scores=[300, 280], winners=[0], turns=[10, 10], bingos=[1, 0],
                        move_times=[[0.1], [0.1]], length=20, end_reason=None)
    assert [s.score for s in summarize(["a", "b"], [result])] == [300, 280]
    with pytest.raises(ValueError, match=r"result 1 is a game of 2 players; 1 names given \(a\)"):
        summarize(["a"], [result])
    with pytest.raises(TypeError, match="summarize takes the players' names"):
        summarize([result], ["a", "b"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="result 2 is not a GameResult"):
        summarize(["a", "b"], [result, "b"])  # type: ignore[list-item]


@pytest.mark.parametrize(("fields", "name"), [
    ((7, 7, 0, "QAT"), None), ((7, 7, "across", "QAT"), "'across'"), (("7", 7, Direction.ACROSS, "QAT"), "'7'"),
    ((7, 7.0, Direction.ACROSS, "QAT"), "7.0"), ((7, 7, Direction.ACROSS, None), "None"),
    ((True, 7, Direction.ACROSS, "QAT"), "True"),
])
def test_a_placement_with_fields_of_the_wrong_type_is_refused(fields: tuple[Any, ...], name: str | None) -> None:
    if name is None:  # a direction given as its number is that direction
        assert Place(*fields).direction is Direction.ACROSS
        return
    with pytest.raises(TypeError, match=name):
        Place(*fields)


@pytest.mark.parametrize(("row", "col", "named"), [
    (7, 100, "row 8, column 101"), (7, -1, "row 8, column 0"), (7, 26, "row 8, column 27"),
    (-1, 7, "row 0, column 8"), (100, 7, "H101"), (15, 14, "O16"),
])
def test_a_placement_off_the_board_names_its_square_and_is_refused(make_game: GameFactory, row: int, col: int,
                                                                    named: str) -> None:
    """A Place made in code may start anywhere: a square off the board is an IllegalMoveError
    naming it (a column past Z or before A by number, not by a wrong letter)."""
    game = make_game(racks={0: "QATEEEE"})
    for direction in Direction:
        place = Place(row, col, direction, "QAT")
        error = refused_unchanged(game, lambda place=place: game.play(place), named, "is not a square",
                                  "A1 to O15")
        assert isinstance(error, IllegalMoveError)
        refused_unchanged(game, lambda place=place: game.evaluate(place), named)
        if row < 0 or not 0 <= col < 26:  # no coordinate names it: not written as another square
            refused_unchanged(game, lambda place=place: game.format(place), named, "off the board")


def test_writing_a_placement_that_runs_off_the_board_never_reads_another_square(make_game: GameFactory) -> None:
    """game.format(Place(7, 14, ACROSS, "Q.T")) filled the square past the right edge from the
    next row's first square (a letter that is not there), and one past the last row raised a
    bare IndexError: a played-through square off the board is written '.'."""
    game = make_game(racks={0: "QATEEEE"})
    game.play("H8 QAT")  # row 8 (index 7), columns H-J: the next row starts with an empty A9 ...
    game.board.set(8 * 15, game.rules.tile_set.code("Z"))  # ... given a Z, which must not be read
    assert game.format(Place(7, 14, Direction.ACROSS, "Q.T")) == "O8 Q.T"
    assert game.format(Place(14, 7, Direction.DOWN, "Q.T")) == "15H Q.T"
    assert game.format(Place(7, 6, Direction.ACROSS, "E...S")) == "G8 E(QAT)S"  # on the board: filled in


@pytest.mark.parametrize("tiles", [None, 3, ["Q"]])
def test_an_exchange_of_what_is_not_text_is_refused(tiles: Any) -> None:
    with pytest.raises(TypeError, match="tiles"):
        Exchange(tiles)


@pytest.mark.parametrize("text", [None, 5, b"H8 QI"])
def test_reading_and_writing_a_move_refuse_what_is_no_move(make_game: GameFactory, text: Any) -> None:
    game = make_game()
    refused_unchanged(game, lambda: game.parse(text), repr(text))
    refused_unchanged(game, lambda: game.format(text), repr(text))


# -- seats ------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [-1, 2, 99])
def test_every_method_taking_a_seat_refuses_one_that_is_not_in_the_game(make_game: GameFactory, seat: int) -> None:
    game = make_game(racks={0: "QATEEEE"})
    for action in (lambda: game.rack_text(seat), lambda: game.unseen(seat), lambda: game.view(seat),
                   lambda: game.evaluate("H8 QAT", seat=seat), lambda: game.legal_moves(seat=seat),
                   lambda: game.play("pass", seat=seat)):
        error = refused_unchanged(game, action, str(seat))
        assert isinstance(error, QizaError)


@pytest.mark.parametrize("seat", ["0", 1.0, True, None])
def test_a_seat_that_is_not_a_whole_number_is_a_type_error(make_game: GameFactory, seat: Any) -> None:
    game = make_game()
    actions: list[Callable[[], object]] = [lambda: game.resign(seat), lambda: game.set_rack(seat, "A"), lambda: game.penalize(seat, 5)]
    if seat is not None:  # None is the player to move (or a spectator) where a seat is optional
        actions += [lambda: game.rack_text(seat), lambda: game.view(seat), lambda: game.unseen(seat),
                    lambda: game.evaluate("H8 QAT", seat=seat), lambda: game.legal_moves(seat=seat),
                    lambda: game.play("pass", seat=seat), lambda: game.challenge(seat)]
    for action in actions:
        assert isinstance(refused_unchanged(game, action, repr(seat)), TypeError)


# -- other values of the wrong type -------------------------------------------------------------

@pytest.mark.parametrize("points", ["5", None, 2.5, True])
def test_a_penalty_is_a_whole_number_of_points(make_game: GameFactory, points: Any) -> None:
    game = make_game()
    refused_unchanged(game, lambda: game.penalize(0, points), repr(points))


def test_refused_racks_tokens_and_reasons_name_the_value(make_game: GameFactory) -> None:
    game = make_game()
    for action, shown in ((lambda: game.set_rack(0, None), "None"), (lambda: game.arrange_rack(0, 7), "7"),
                          (lambda: game.redeal_unseen(1, "x"), "'x'"), (lambda: game.resign(0, "resigned"), "'resigned'"),
                          (lambda: game.challenge(1, bonus="5"), "'5'")):
        refused_unchanged(game, action, shown)


# -- what a caller gets back ------------------------------------------------------------------

def test_score_sheet_lines_given_out_cannot_change_the_game(make_game: GameFactory) -> None:
    game = make_game(racks={0: "QATEEEE"})
    record = game.play("H8 QAT")
    before = state_of(game)
    for line in (record, game.history[0], game.view(0).history[0], game.view(None).history[0], game.last_play()):
        assert line is not None
        with pytest.raises(AttributeError):
            line.score = 999  # type: ignore[misc]
        with pytest.raises(AttributeError):
            line.challenged_off = True  # type: ignore[misc]
    assert state_of(game) == before


# -- a play that went out, open to challenge ----------------------------------------------------

def test_after_a_play_that_went_out_no_placement_is_listed_and_computer_players_accept(
        make_game: GameFactory) -> None:
    from qiza.move import Pass
    from qiza.players import make_player

    game = make_game(racks={0: "AX", 1: "AEIOUVW"}, challenge="double", bag=0)
    game.play("H8 AX")
    assert game.pending_ends_game and game.can_challenge
    assert game.legal_moves() == []  # play() refuses every placement now: only a pass or a challenge
    view = game.view(1)
    assert view.pending_ends_game and not game.view(0).can_challenge
    for level in ("medium", "hard"):
        move = make_player(level, game.lexicon, seed=1).choose(view)
        assert move == Pass()
    game.play(make_player("hard", game.lexicon, seed=1).choose(game.view(1)))
    assert game.over


def test_legal_placements_of_a_view_agree_with_legal_moves_after_a_play_that_went_out(
        make_game: GameFactory) -> None:
    """analysis.legal_placements(view) listed placements while a play that went out was open to
    challenge, so a player written as the README shows (the best of them) had every move refused
    in a loop of its own ('the last play ends the game'), and placements once the game was over."""
    from qiza.analysis import legal_placements
    from qiza.errors import RuleError

    game = make_game(racks={0: "AX", 1: "AEIOUVW"}, challenge="double", bag=0)
    assert legal_placements(game.view(0), lexicon=game.lexicon)
    game.play("H8 AX")
    assert game.legal_moves() == []
    assert legal_placements(game.view(1), lexicon=game.lexicon) == [] == legal_placements(game)
    with pytest.raises(RuleError, match="the last play ends the game"):
        game.play("8G down VA(X)")
    game.play("pass")
    assert game.over and legal_placements(game, 1) == [] == legal_placements(game.view(1), lexicon=game.lexicon)


# -- making a game --------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "shown"), [
    ({"players": "AB"}, "'AB'"), ({"players": [1, 2]}, "1"), ({"seed": "abc"}, "'abc'"), ({"seed": 1.5}, "1.5"),
    ({"seed": 2 ** 64}, str(2 ** 64)), ({"seed": True}, "True"),
])
def test_a_game_refuses_players_and_seeds_it_could_not_save(options: dict[str, Any], shown: str) -> None:
    # a text of names is no list of names; a seed a saved game cannot hold made a game that saves but never loads
    with pytest.raises((TypeError, ValueError), match=shown):
        Game(**options)


def test_values_out_of_range_are_qiza_errors() -> None:
    """A board of the wrong number of squares raised a plain ValueError, which ``except
    QizaError`` (the one error class the package documents) let through."""
    from qiza.board import Board

    with pytest.raises(QizaError, match="a 15x15 board has 225 squares, not 10"):
        Board(cells=[0] * 10)


def test_a_game_refuses_rules_and_lexicons_of_the_wrong_type() -> None:
    for options, shown in (({"rules": "classic"}, "'classic'"), ({"rules": None}, "None"), ({"lexicon": 5}, "5")):
        with pytest.raises(TypeError, match=shown):
            Game(**options)


def test_the_largest_seed_a_saved_game_holds_saves_and_loads() -> None:
    from qiza import savefile

    game = Game(seed=2 ** 64 - 1)
    assert savefile.loads(savefile.dumps(game)).racks == game.racks


# -- word tools, presets and readers --------------------------------------------------------------

def test_word_tools_refuse_what_is_not_text(enable: Any) -> None:
    with pytest.raises(TypeError, match="'CAT'"):
        enable.invalid_words("CAT")  # read as the words C, A and T before
    assert enable.invalid_words(["CAT", "XQZ"]) == ["XQZ"]
    for action, shown in ((lambda: enable.anagrams(None), "None"), (lambda: enable.hooks(5), "5"),
                          (lambda: enable.matching(None), "None"), (lambda: enable.words_of_length("2"), "'2'")):
        with pytest.raises(TypeError, match=shown):
            action()


def test_word_tools_refuse_empty_or_spaced_text_alike(enable: Any) -> None:
    """Each word tool refuses an empty text and spaces inside one, and ignores spaces around it
    (anagrams("") gave [] and anagrams("A B") read AB, while hooks refused both)."""
    for tool in (enable.anagrams, enable.hooks, enable.matching):
        for text in ("", "   "):
            with pytest.raises(QizaError, match=f"empty .*{text!r}"):
                tool(text)
        with pytest.raises(QizaError, match="'Q T' has spaces inside"):
            tool("Q T")
    assert enable.anagrams(" TAQ ") == ["QAT"]
    assert enable.hooks(" CARE ") == ("S", "DRSTX")
    assert enable.matching(" Q?T ") == ["QAT"]
    for length in (0, -1):
        with pytest.raises(QizaError, match=f"not {length}"):
            enable.words_of_length(length)
    assert enable.words_of_length(1) == []  # a length, with no words


def test_names_ignore_spaces_around_them_everywhere() -> None:
    """A built-in's name is read alike by every registry: spaces around it ignored
    (load_lexicon(" enable ") was refused while find_preset and make_player took " classic ")."""
    from qiza.alphabet import find_tile_set
    from qiza.languages import builtin_for
    from qiza.layout import find_layout
    from qiza.lexicon import check_lexicon_name, load_lexicon
    from qiza.rules import find_preset

    check_lexicon_name(" Enable ")
    assert load_lexicon(" enable ") is load_lexicon("enable")
    assert find_tile_set(" French ") is find_tile_set("french")
    assert find_layout(" super ") is find_layout("super")
    assert find_preset(" classic ") is find_preset("classic")
    assert builtin_for(" sowpods ") == "sowpods"


def test_presets_and_readers_refuse_what_is_not_text() -> None:
    from qiza import cgp, gcg, savefile
    from qiza.rules import find_preset

    for action in (lambda: find_preset(None), lambda: gcg.loads(None), lambda: cgp.loads(None),
                   lambda: savefile.loads(None), lambda: find_preset(3)):
        with pytest.raises(TypeError):
            action()


# -- positions given as board rows --------------------------------------------------------------

def test_a_question_mark_on_the_board_is_refused_not_an_empty_square(make_game: GameFactory) -> None:
    """'?' is the blank's code, 0, which on a square is no tile: a row with '?' gave an empty
    square without a word (and setup_position a position one tile short)."""
    from qiza.board import Board
    from qiza.errors import MoveSyntaxError

    rows = ["?" + "." * 14] + ["." * 15] * 14
    with pytest.raises(MoveSyntaxError, match="board row 1: '\\?': a blank on the board is written as"):
        Board.from_rows(rows)
    game = make_game()
    refused_unchanged(game, lambda: game.setup_position(rows, ["A", "B"], [0, 0], 0), "row 1")


@pytest.mark.parametrize("points", [-50, 10 ** 30])
def test_a_penalty_takes_away_points_a_saved_game_holds(make_game: GameFactory, points: int) -> None:
    """penalize(0, -50) gave 50 points, and the game's GCG could not be written (a time penalty
    of +50); penalize(0, 10**30) made a saved game that could not be resumed."""
    game = make_game()
    refused_unchanged(game, lambda: game.penalize(0, points), f"{points:,}" if points > 0 else "would give 50")


def test_the_largest_penalty_saves_and_loads(make_game: GameFactory) -> None:
    from qiza import savefile
    from qiza.game import MAX_POINTS

    game = make_game()
    game.penalize(0, MAX_POINTS)
    assert savefile.loads(savefile.dumps(game)).scores == [-MAX_POINTS, 0]


EMPTY_ROWS = ["." * 15] * 15


@pytest.mark.parametrize("arguments, shown", [
    ((EMPTY_ROWS, ["A", "B"], [1.5, 2], 0), "1.5"),  # was 1: a score cut silently
    ((EMPTY_ROWS, ["A", "B"], [True, 0], 0), "True"),
    ((EMPTY_ROWS, ["A", "B"], ["a", "b"], 0), "'a'"),  # was int()'s ValueError
    ((EMPTY_ROWS, "AB", [0, 0], 0), "'AB'"),  # was the racks A and B
    ((EMPTY_ROWS, [1, 2], [0, 0], 0), "[1, 2]"),  # was an AttributeError
    ((None, ["A", "B"], [0, 0], 0), "None"),
    ((EMPTY_ROWS, ["A", "B"], [0, 0], 0, "1"), "'1'"),  # was a TypeError from a comparison
    ((EMPTY_ROWS, ["A", "B"], [10 ** 9, 0], 0), "1,000,000,000"),  # a saved game could not be resumed
    ((EMPTY_ROWS, ["A", "B"], [0, 0], 0, 10 ** 9), "1,000,000,000"),
])
def test_a_position_of_wrong_types_or_numbers_a_save_cannot_hold_is_refused(
        make_game: GameFactory, arguments: tuple[Any, ...], shown: str) -> None:
    game = make_game()
    refused_unchanged(game, lambda: game.setup_position(*arguments), shown)


@pytest.mark.parametrize("cells, error, shown", [
    ({1000: "A"}, IllegalMoveError, "square 1000 is not on the 15x15 board"),  # was a Place at row 67
    ({-1: "A"}, IllegalMoveError, "square -1"),  # was a Place from row 0 (-1 in 0-based numbers)
    ({112: "AB"}, MoveSyntaxError, "'AB' is not one tile"),  # was two tiles from one square
    ({112: "1", 113: "A"}, MoveSyntaxError, "'1' is not one tile"),  # was the word '1A'
    ({112: None}, MoveSyntaxError, "None is not one tile"),
    ({"112": "A"}, TypeError, "'112'"),  # was divmod()'s TypeError
])
def test_tiles_put_on_squares_are_checked_where_they_enter(cells: dict[Any, Any], error: type[Exception],
                                                           shown: str) -> None:
    from qiza.board import Board
    from qiza.scoring import place_from_cells

    with pytest.raises(error, match=shown):
        place_from_cells(Board(), cells)


def test_make_player_takes_a_lexicon_or_its_name_and_refuses_the_rest(enable: Any) -> None:
    """make_player('hard', 'enable') failed inside with an AttributeError (Game takes a name), and
    an unknown level was a plain ValueError, not a QizaError."""
    from qiza.players import make_player

    assert make_player("hard", "enable", seed=1).name == "hard"
    with pytest.raises(QizaError, match="unknown computer level 'nope'"):
        make_player("nope", enable)
    with pytest.raises(TypeError, match="a Lexicon"):
        make_player("hard", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a text like 'hard'"):
        make_player(3, enable)  # type: ignore[arg-type]


def test_every_function_given_a_games_lexicon_takes_its_name_too(make_game: GameFactory, enable: Any) -> None:
    """Game, make_player, gcg.replay and Position.to_game take a lexicon or its name; but
    legal_placements(view, lexicon="enable") was a TypeError, and savefile.load / loads and
    play_game took a name only by chance (their hints said Lexicon: mypy --strict refused a
    user's correct call). A name the caller gives is the caller's error, not the file's."""
    import inspect

    from qiza import savefile
    from qiza.analysis import legal_placements, move_list
    from qiza.lexicon import LexiconError
    from qiza.players.selfplay import play_game

    for function in (legal_placements, move_list, savefile.from_dict, savefile.loads, savefile.load, play_game):
        hint = str(inspect.signature(function).parameters["lexicon"].annotation)  # postponed: a text
        assert "str" in hint.replace(" ", "").split("|"), f"{function.__qualname__}: lexicon: {hint}"
    game = make_game(racks={0: "QATEEEE"})
    view = game.view(0)
    assert legal_placements(view, lexicon="enable") == legal_placements(view, lexicon=enable)
    assert legal_placements(game, lexicon="enable") == legal_placements(game)
    text = savefile.dumps(game)
    assert savefile.loads(text, lexicon="enable").lexicon is enable
    with pytest.raises(LexiconError, match="unknown lexicon 'nope'"):
        savefile.loads(text, lexicon="nope")
    with pytest.raises(TypeError, match="a lexicon's name, not 5"):
        savefile.loads(text, lexicon=5)
    with pytest.raises(TypeError, match="a lexicon's name, not 5"):
        legal_placements(view, lexicon=5)


def test_a_computer_player_chooses_from_one_players_view(make_game: GameFactory, enable: Any) -> None:
    """player.choose(game) failed inside ('Game' object has no attribute 'bag_count'), and a
    spectator's view (no rack) gave a pass."""
    from qiza.errors import RuleError
    from qiza.players import make_player

    game = make_game()
    player = make_player("medium", enable, seed=1)
    with pytest.raises(TypeError, match="game.view\\(seat\\), not Game"):
        player.choose(game)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="a spectator's view"):
        player.choose(game.view(None))


def test_public_functions_refuse_arguments_of_the_wrong_type_by_name(make_game: GameFactory) -> None:
    """Each failed inside with an AttributeError (e.g. gcg.replay(text): 'str' object has no
    attribute 'players'; evaluate(board, 'H8 QI', rules): no attribute 'direction')."""
    from qiza import cgp, gcg
    from qiza.board import Board
    from qiza.scoring import evaluate

    game = make_game()
    record = gcg.loads(">ann: AEINRST 8D RETINAS +66 66\n")
    for action, shown in ((lambda: gcg.replay(">a: AB 8G AB +8 8"), "read it with gcg.loads first"),
                          (lambda: gcg.rules_for(None), "NoneType"), (lambda: gcg.dumps(None), "NoneType"),
                          (lambda: gcg.from_game(record), "GameRecord"), (lambda: gcg.parse_bytes("abc"), "str"),
                          (lambda: cgp.dumps(None), "NoneType"), (lambda: cgp.Position.from_game(None), "NoneType"),
                          (lambda: evaluate(game.board, "H8 QI", game.rules), "'H8 QI'"),
                          (lambda: game.invalid_words(None), "None"), (lambda: Board("standard"), "'standard'")):
        with pytest.raises(TypeError, match=shown):
            action()
    assert gcg.parse_bytes(bytearray(b"#player1 a A\n")).players[0].nick == "a"


def test_more_public_functions_refuse_arguments_of_the_wrong_type_by_name(make_game: GameFactory) -> None:
    """Each failed inside with an AttributeError ('NoneType' object has no attribute 'lower',
    'str' object has no attribute 'content_hash', 'int' object has no attribute 'items' ...)."""
    from qiza import gcg, savefile, svg, text
    from qiza.alphabet import find_tile_set
    from qiza.analysis import legal_placements
    from qiza.board import Board
    from qiza.layout import STANDARD, find_layout
    from qiza.scoring import place_from_cells

    game = make_game()
    record = gcg.loads(">ann: AEINRST 8D RETINAS +66 66\n")
    for action, shown in ((lambda: find_layout(None), "None"), (lambda: find_tile_set(5), "5"),
                          (lambda: STANDARD.parse_square(112), "112"),
                          (lambda: place_from_cells(game.board, "H8"), "'H8'"),
                          (lambda: legal_placements(game.view(0), lexicon=b"enable"), "b'enable'"),  # a name is taken
                          (lambda: gcg.replay(record, lexicon=5), "5"),
                          (lambda: savefile.dumps(game.view(0)), "PlayerView"),
                          (lambda: svg.board_svg(game), "game.board"), (lambda: text.board_text(None), "None"),
                          (lambda: Board.from_rows("." * 15), "'...."), (lambda: Board.from_rows([b"." * 15]), "b'"),  # type: ignore[list-item]
                          (lambda: game.lexicon.invalid_words(b"QI"), "b'QI'")):
        with pytest.raises(TypeError, match=shown):
            action()


def test_every_public_class_function_and_method_of_the_library_has_a_docstring() -> None:
    """The library's promise is a documented API: Board.size, Game.player_count, Replay.clean ...
    had none."""
    import importlib
    import inspect

    missing = []
    for name in ("qiza", "qiza.gcg", "qiza.cgp", "qiza.players", "qiza.sheet", "qiza.game", "qiza.errors", "qiza.alphabet",
                 "qiza.layout", "qiza.rules", "qiza.board", "qiza.move", "qiza.scoring", "qiza.lexicon", "qiza.savefile",
                 "qiza.analysis"):
        module = importlib.import_module(name)
        for export in getattr(module, "__all__", ()):
            obj = getattr(module, export)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not obj.__module__.startswith("qiza"):
                continue
            if not obj.__doc__:
                missing.append(f"{name}.{export}")
            for attribute, value in vars(obj).items() if inspect.isclass(obj) else ():
                function = value.fget if isinstance(value, property) else value
                if not attribute.startswith("_") and inspect.isfunction(function) and not function.__doc__:
                    missing.append(f"{name}.{export}.{attribute}")
    assert missing == []


def test_a_rack_set_while_its_play_is_open_to_challenge_keeps_every_tile(make_game: GameFactory) -> None:
    """set_rack on the player of a play open to challenge, then a successful challenge: the rack
    before the play came back and the tiles drawn after it went to the bag a second time (set_rack
    had already put them there), while the tiles set were lost: 7 Es gone, 6 tiles twice."""
    from collections import Counter

    from qiza.alphabet import BLANK, is_blank

    game = make_game(racks={0: "CAGESWF", 1: "DCTPBRM"})
    game.play("G8 CAGES")
    game.play("K6 down CR(S)")
    game.set_rack(1, "EEEEEEE")
    assert game.challenge(0).kind.value == "phony-removed"
    assert game.rack_text(1) == "DCTPBRM"
    on_board = Counter(BLANK if is_blank(tile) else tile for tile in game.board.cells if tile)
    everywhere = Counter(game.bag) + Counter(tile for rack in game.racks for tile in rack) + on_board
    assert everywhere == Counter(game.rules.tile_set.full_bag())


@pytest.mark.parametrize("name", ["qiza.errors", "qiza.alphabet", "qiza.layout", "qiza.rules", "qiza.board",
                                  "qiza.move", "qiza.scoring", "qiza.lexicon", "qiza.savefile", "qiza.game",
                                  "qiza.sheet", "qiza.analysis", "qiza.cgp", "qiza.gcg", "qiza.players"])
def test_the_librarys_modules_say_what_they_export(name: str) -> None:
    """The core modules had no __all__: ``from qiza.move import *`` brought in ``re``, ``string``,
    ``numbers``, ``dataclass`` and ``Notation``, and ``help(qiza.move)`` listed them. Each lists
    the names it defines (a name it imports only when it says so)."""
    import importlib
    import types

    module = importlib.import_module(name)
    exported = module.__all__
    assert len(set(exported)) == len(exported)
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)
    for export, value in namespace.items():
        if export != "__builtins__":
            assert not isinstance(value, types.ModuleType), export
            assert export in exported
    for defined, value in vars(module).items():
        if defined.startswith("_") or isinstance(value, types.ModuleType):
            continue
        if getattr(value, "__module__", None) == name and (isinstance(value, type) or callable(value)):
            assert defined in exported, f"{name}.{defined} is not in __all__"


def test_the_readme_examples_pass_mypy_strict_as_a_users_script(tmp_path: Path) -> None:
    """The README's examples pasted into a script are what a user starts from: result.game.scores
    of a GCG replay (a Game | None) and names reused for values of other types failed
    ``mypy --strict`` against the shipped type hints (py.typed)."""
    import re

    mypy_api = pytest.importorskip("mypy.api")
    root = Path(__file__).resolve().parent.parent
    lines = []
    for block in re.findall(r"```python\n(.*?)```", (root / "README.md").read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            if line.startswith((">>> ", "... ")):
                lines.append(line[4:])
            elif line in (">>>", "..."):
                lines.append("")
    script = tmp_path / "readme_examples.py"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = tmp_path / "mypy.ini"  # qiza as a user's mypy sees an installed package: its own errors silent
    config.write_text(f"[mypy]\nstrict = True\nmypy_path = {root}\ncache_dir = {tmp_path / 'cache'}\n"
                      "[mypy-qiza.*,numba.*,numpy.*,llvmlite.*]\nfollow_imports = silent\n", encoding="utf-8")
    report, errors, status = mypy_api.run(["--config-file", str(config), str(script)])
    assert status == 0, report + errors


def test_a_board_is_not_hashable_so_a_changed_one_is_never_lost_in_a_set(make_game: GameFactory) -> None:
    """A Board hashed its tiles while it could change: one used as a dict key and then played on
    was no longer found there, nor another board equal to it. Like python-chess's boards it is
    unhashable; a position is keyed by a snapshot (``tuple(board)``)."""
    import collections.abc

    from qiza.board import Board

    board = make_game().board.copy()
    with pytest.raises(TypeError, match="unhashable type: 'Board'"):
        hash(board)
    with pytest.raises(TypeError):
        {board: 1}  # noqa: B018
    assert not isinstance(board, collections.abc.Hashable)
    seen = {tuple(board)}
    again = Board(board.layout, board.tile_set, board)
    assert again == board and tuple(again) in seen
    board.set(112, 1)
    assert again != board and tuple(board) not in seen


@pytest.mark.parametrize(("rack", "error", "named"), [
    ("ZZZ", "RuleError", "rack 'ZZZ' holds 3 Z; the english set has 1 Z"),
    ("AEINRSTQ", "RuleError", "rack 'AEINRSTQ' holds 8 tiles; a rack holds at most 7"),
    ("???", "RuleError", "holds 3 ?; the english set has 2 ?"),
    ("AB1", "MoveSyntaxError", "'AB1' is not a rack of the english tile set"),
    ("QA", "RuleError", "rack 'QA' holds 1 Q and the board 1; the english set has 1 Q"),
])
def test_a_view_or_player_given_a_rack_no_player_could_hold_is_refused_by_name(
        make_game: GameFactory, enable: Any, rack: str, error: str, named: str) -> None:
    """legal_placements(view) took any rack a caller wrote into a view (three Z in the English set,
    eight tiles on a rack of seven, a Q beside the one on the board) and listed placements of it;
    letters outside the tile set were a bare QizaError. (A computer player's choose(view) does not
    check again: a few us of each decision, 7-15% of a fast player's.)"""
    import dataclasses
    import re

    from qiza import errors
    from qiza.analysis import check_rack, legal_placements, move_list

    game = make_game(racks={0: "QATEEEE", 1: "AEIRST?"})
    game.play("H8 QAT")
    view = dataclasses.replace(game.view(1), rack=rack)
    kind = getattr(errors, error)
    with pytest.raises(kind, match=re.escape(named)):
        legal_placements(view, lexicon=enable)
    with pytest.raises(kind, match=re.escape(named)):
        move_list(view, lexicon=enable)
    with pytest.raises(kind, match=re.escape(named)):
        check_rack(rack, view.rules, view.board)
    # a rack the set gives is listed as before: the view's own, and one with both blanks
    assert legal_placements(game.view(1), lexicon=enable) == legal_placements(game, 1)
    assert legal_placements(dataclasses.replace(view, rack="Z??"), lexicon=enable)



HUGE = "Q" * 5000


@pytest.mark.parametrize("call", [
    lambda: parse_move("H8 " + HUGE + "1", Notation.RULEBOOK),
    lambda: parse_move(HUGE + " WORD", Notation.RULEBOOK),
    lambda: STANDARD.parse_square(HUGE),
    lambda: find_preset(HUGE),
    lambda: find_tile_set(HUGE),
    lambda: cgp.loads("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABC/ 0/0 0 bb " + HUGE + ";"),
    lambda: gcg.replay(gcg.loads("#player1 a A\n#player2 b B\n#tile-distribution " + HUGE + "\n")),
    lambda: load_lexicon("enable").anagrams(HUGE),
    lambda: make_player(HUGE, load_lexicon("enable")),
], ids=["move word", "move square", "square", "preset", "tile set", "cgp opcode", "gcg tile distribution",
        "anagram rack", "computer level"])
def test_library_errors_quote_huge_input_shortened(call: Callable[[], object]) -> None:
    """The library's own messages quoted what they were given whole (a move, a square, a preset,
    tile set or lexicon name, a CGP rack, a GCG coordinate of 5,000 characters): only the command
    line cut them, a program using the library printed them all. They quote its start and length."""
    with pytest.raises(QizaError) as info:
        call()
    message = str(info.value)
    assert message.count("Q") <= 450 and "characters)" in message, message[:300]


def test_a_game_record_reader_quotes_huge_fields_shortened() -> None:
    """The GCG reader collects what it cannot read (it is lenient) in messages that quoted a
    5,000-letter #rack1 whole; they quote its start and length."""
    record = gcg.loads("#player1 a A\n#player2 b B\n#rack1 " + HUGE + "\n")
    assert record.errors and all(len(str(error)) < 200 for error in record.errors)
    assert "(5000 characters)" in str(record.errors[0])


def test_a_lexicon_name_is_quoted_whole_up_to_the_longest_path() -> None:
    """A lexicon is named by a name or a word list's path: a path is quoted whole (it is read and
    copied), what is longer than any path is cut."""
    with pytest.raises(QizaError) as info:
        load_lexicon(HUGE * 2)
    assert str(info.value).count("Q") == PATH_LIMIT and "(10000 characters)" in str(info.value)


def test_a_board_line_the_move_generator_cannot_read_is_a_qiza_error() -> None:
    """Every error raised for bad input is a :class:`~qiza.errors.QizaError`; the move
    generator's :class:`~qiza.movegen.BoardLineError` was a bare ``ValueError``, which an
    ``except QizaError`` let through."""
    from qiza.errors import QizaError
    from qiza.movegen import BoardLineError, parse_board

    with pytest.raises(QizaError, match="^board line 2 has 2 squares, not 3$") as refused:
        parse_board(["...", "..", "..."])
    assert isinstance(refused.value, BoardLineError) and refused.value.row == 1
    with pytest.raises(QizaError, match="^bad board character '#'$"):
        parse_board(["..#", "...", "..."])


def _rows_of_every_tile_but(rack: str) -> list[str]:
    """Board rows holding every tile of the English set but ``rack``'s (a blank played as e)."""
    from collections import Counter

    from qiza.alphabet import ENGLISH

    left = Counter(ENGLISH.text(ENGLISH.full_bag()).replace("?", "e")) - Counter(rack)
    letters = "".join(sorted(left.elements()))
    return [letters[i:i + 15].ljust(15, ".") for i in range(0, 225, 15)]


@pytest.mark.parametrize("racks, scoreless, shown", [
    (["", "AAAAAAA"], 0, "Player 1 has no tiles and the bag is empty"),
    (["AAAAAAA", ""], 0, "Player 2 has no tiles and the bag is empty"),
])
def test_a_position_after_the_game_s_end_is_refused(make_game: GameFactory, racks: list[str], scoreless: int,
                                                    shown: str) -> None:
    """setup_position took a position whose game was over (a player out with the bag empty) and
    the game went on from it, while 'qiza best' refused it. The engine refuses it, naming why."""
    game = make_game()
    caught = refused_unchanged(game, lambda: game.setup_position(_rows_of_every_tile_but("AAAAAAA"), racks,
                                                                  [0, 0], 0, scoreless), shown)
    assert isinstance(caught, GameOverError) and str(caught).startswith("the game is over (")


def test_a_position_after_the_scoreless_turns_that_end_the_game_is_refused(make_game: GameFactory) -> None:
    game = make_game()
    rows = ["." * 15] * 7 + ["......QAT......"] + ["." * 15] * 7
    refused_unchanged(game, lambda: game.setup_position(rows, ["EEEEEEE", "AAAAAAA"], [24, 0], 1, 6),
                      "6 scoreless turns in a row: the rules end the game at 6")
    game.setup_position(rows, ["EEEEEEE", "AAAAAAA"], [24, 0], 1, 5)  # one short of the end: it goes on
    assert not game.over and game.scoreless_streak() == 5
    game.play("pass")
    assert game.over


def test_a_cgp_after_the_game_s_end_is_refused_naming_why() -> None:
    """A CGP of a finished game is no file format error: the game is over, and it says why."""
    position = cgp.Position.from_game(Game(seed=1))
    position.scoreless_turns = 6
    with pytest.raises(GameOverError, match=r"the game is over \(6 scoreless turns in a row: the rules end the "
                       r"game at 6\)"):
        position.to_game()


def test_a_game_saved_from_a_position_after_the_end_still_loads() -> None:
    """A save of before the engine refused such positions (its set-up action names 6 scoreless
    turns) loads as it did, with the turns played after it."""
    import json

    from qiza import savefile

    game = Game(seed=1)
    rows = ["." * 15] * 7 + ["......QAT......"] + ["." * 15] * 7
    game.setup_position(rows, ["EEEEEEE", "AAAAAAA"], [24, 0], 1, 5)
    game.play("pass")
    data = savefile.to_dict(game)
    (seat, setup), *rest = data["actions"]
    data["actions"] = [[seat, setup.replace('"scoreless_turns":5', '"scoreless_turns":6')], *rest]
    loaded = savefile.from_dict(json.loads(json.dumps(data)))
    assert loaded.board.rows_text() == game.board.rows_text() and loaded.history[0].notation == "pass"
    assert loaded.over  # the pass made 7 scoreless turns in a row, as it did when it was played
