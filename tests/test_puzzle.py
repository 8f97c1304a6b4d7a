"""``qiza puzzle``: positions to find the best play in, judged by the rules engine and ranked
by the static engine (qiza.players.puzzles; the terminal's qiza.players.puzzle_cli)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from qiza import gcg
from qiza.errors import QizaError
from qiza.game import Game
from qiza.lexicon import load_lexicon
from qiza.move import format_move
from qiza.players import make_player
from qiza.players.engine import StaticPlayer
from qiza.players.puzzle_cli import run_puzzles, summary
from qiza.players.puzzles import Puzzle, from_records, from_self_play
from qiza.rules import CLASSIC, Notation, exchange_refusal


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    return from_self_play(load_lexicon("enable"), 2, seed=7)


def test_positions_of_the_computers_games(puzzles: list[Puzzle]) -> None:
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert not puzzle.game.over and len(puzzle.game.bag) > 0 and 2 <= len(puzzle.game.history) < 16
        assert puzzle.source.startswith("puzzle ") and ", a computer game (seed " in puzzle.source
    again = from_self_play(load_lexicon("enable"), 2, seed=7)
    assert [p.game.board.cells for p in again] == [p.game.board.cells for p in puzzles]  # the seed repeats them


def test_answers_are_judged_and_ranked(puzzles: list[Puzzle]) -> None:
    game = puzzles[0].game
    options = StaticPlayer(game.lexicon).ranked(game.view(game.to_move))
    best = format_move(options[0].move, Notation.RULEBOOK, game.board)
    worse = next(o for o in options if o.equity < options[0].equity - 1)
    typed = iter(["A1 QQQQQQQ", "pass", best, "", "quit"])  # an illegal move, a pass, the best; then the answer
    said: list[str] = []
    result = run_puzzles(puzzles, lambda prompt: next(typed), said.append)
    text = "\n".join(said)
    after = said[said.index(next(line for line in said if line.startswith("Puzzle 1"))) + 1]
    assert after == "the play must touch a tile already on the board"  # the engine's reason; the player tries again
    assert "a pass is not ranked here: find a play (or Enter to see the answer)" in text
    assert f"{best}: {options[0].score} points, equity {options[0].equity:.1f}: the best play." in text
    assert result.lost == [0.0, None]  # the best play, then the answer shown
    assert "The best plays:" in text and "  1. " in text
    assert summary(result) == "2 puzzles done, the best play found in 1; 0.0 equity lost a move answered."
    # a worse play: the equity it gave away
    typed = iter([format_move(worse.move, Notation.RULEBOOK, game.board), "quit"])
    said.clear()
    result = run_puzzles(puzzles[:1], lambda prompt: next(typed), said.append)
    assert result.lost == [pytest.approx(options[0].equity - worse.equity)]
    assert "equity less than the best" in "\n".join(said)


def test_the_board_has_a_key_to_its_marks(puzzles: list[Puzzle]) -> None:
    """The puzzle's board showed = - " ' and < with no word of what they mean (the game's screen
    has its key): a new player could not tell a triple word from the last play."""
    said: list[str] = []
    run_puzzles(puzzles[:1], lambda prompt: "quit", said.append)
    text = "\n".join(said)
    assert "= triple word  - double word" in text and "X< marks the tiles of the last play" in text
    assert text.index("triple word") < text.index("Puzzle 1 of 1")  # under the board, before the question


def test_a_phony_is_named_and_the_player_tries_again() -> None:
    lexicon = load_lexicon("enable")
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=1)
    game.set_rack(0, "QIAEXZT")
    said: list[str] = []
    typed = iter(["H8 QIX", "H8 ZAX", "quit"])  # QIX is a phony in ENABLE; ZAX is good
    result = run_puzzles([Puzzle(game, "a test")], lambda prompt: next(typed), said.append)
    assert "QIX not in ENABLE: a phony, try again" in said
    assert len(result.lost) == 1 and result.lost[0] is not None
    # on the empty board the engine lists the plays across only: one played down is its mirror image
    typed = iter(["8H ZAX", "quit"])
    down = run_puzzles([Puzzle(game, "a test")], lambda prompt: next(typed), said.append)
    assert down.lost == result.lost


def test_an_exchange_the_bag_or_the_rack_refuses_is_told_in_the_rules_engine_words() -> None:
    """The puzzle refused every exchange it could not rank with words of its own ('an exchange
    needs the tiles on your rack and 7 in the bag', 7 whatever the rules' limit); the game, the
    terminal and the web say :func:`qiza.rules.exchange_refusal`'s words, or the rack's."""
    rules = CLASSIC.with_options(exchange_limit=99)
    game = Game(rules, players=["Ann", "Bob"], lexicon=load_lexicon("enable"), seed=1)
    with pytest.raises(QizaError) as refused:
        game.copy().play(f"exchange {game.rack_text(0)[0]}")
    assert str(refused.value) == exchange_refusal(rules, len(game.bag)) == "an exchange needs 99 tiles in the bag, 86 left"
    said: list[str] = []
    lines = iter([f"exchange {game.rack_text(0)[0]}", "quit"])
    run_puzzles([Puzzle(game, "a test")], lambda prompt: next(lines), said.append)
    assert said[-1] == str(refused.value)
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=load_lexicon("enable"), seed=1)
    rack, bag = game.rack_text(0), list(game.bag)
    missing = next(letter for letter in "QZXJKVWY" if letter not in rack)
    with pytest.raises(QizaError) as refused:
        game.copy().play(f"exchange {missing}")
    lines = iter([f"exchange {missing}", "quit"])
    run_puzzles([Puzzle(game, "a test")], lambda prompt: next(lines), said.append)
    assert said[-1] == f"{missing} is not on the rack ({rack})" == str(refused.value)
    assert game.rack_text(0) == rack and game.bag == bag and not game.history  # nothing changed


def test_a_line_that_is_no_move_is_told_the_moves_a_puzzle_takes() -> None:
    """'hello' was told "expected e.g. 'H8 WORD', 'H8 down WORD', 'pass', 'exchange ABC' or
    'challenge'": a puzzle ranks no pass and has nothing to challenge; it takes a play or an
    exchange, Enter for the answer and 'quit'."""
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=load_lexicon("enable"), seed=1)
    said: list[str] = []
    lines = iter(["hello there you", "quit"])
    run_puzzles([Puzzle(game, "a test")], lambda prompt: next(lines), said.append)
    assert said[-1] == ("'hello there you' is not a move: expected e.g. 'H8 WORD', 'H8 down WORD' or "
                        "'exchange ABC'; Enter shows the answer, 'quit' stops")


def _beginner_against_hard(folder: Path) -> Game:
    """Twelve turns of a beginner (Ann) against the hard computer, written to ``folder/game.gcg``."""
    lexicon = load_lexicon("enable")
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=12)
    players = [make_player("beginner", lexicon, seed=1), make_player("hard", lexicon, seed=2)]
    while not game.over and len(game.history) < 12:
        game.play(players[game.to_move].choose(game.view(game.to_move)))
    (folder / "game.gcg").write_text(gcg.dumps(gcg.from_game(game)), encoding="utf-8")
    return game


def test_puzzles_from_the_costly_turns_of_records(tmp_path: Path) -> None:
    _beginner_against_hard(tmp_path)
    found = from_records([str(tmp_path)], None, "Ann", 5.0, 10, seed=1)
    assert found, "the beginner's play lost 5 equity somewhere"
    record = gcg.load(str(tmp_path / "game.gcg"))
    turns = [e for e in record.events if e.is_turn]
    for puzzle in found:
        turn = int(puzzle.source.rsplit("turn ", 1)[1].split()[0])
        assert puzzle.source.endswith("(Ann)") and turns[turn - 1].player == "Ann"
        assert sorted(puzzle.game.rack_text(puzzle.game.to_move)) == sorted(turns[turn - 1].rack)
        assert puzzle.played
    assert from_records([str(tmp_path)], None, "Ann", 1000.0, 10, seed=1) == []


def test_the_move_played_is_written_in_the_puzzles_notation(tmp_path: Path) -> None:
    """A puzzle of a record, asked in the rule book notation (the default), said 'the player
    played C13 (E)L': the record's tournament notation, which in the rule book's reads across
    from C13, another move than the one played (13C (E)L down)."""
    game = _beginner_against_hard(tmp_path)
    for notation in Notation:
        found = from_records([str(tmp_path)], None, "Ann", 5.0, 10, seed=1, notation=notation)
        assert found
        for puzzle in found:
            turn = int(puzzle.source.rsplit("turn ", 1)[1].split()[0])
            record = game.history[turn - 1]
            assert record.move is not None
            assert puzzle.played == format_move(record.move, notation, puzzle.game.board)


def test_records_that_cannot_be_read_are_not_called_good_play(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Every record skipped (a binary file, an empty one) ended in 'no turn of these records lost 5
    equity or more', as if the games had been well played; a --threshold of nan was taken
    (no turn loses nan or more: 'lost nan equity or more'), as was one below zero (every turn)."""
    from qiza.cli import main

    (tmp_path / "binary.gcg").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "empty.gcg").write_text("")
    assert main(["puzzle", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "binary.gcg: skipped" in err and "empty.gcg: skipped" in err
    assert "none of the 2 records could be read" in err and "lost 5 equity" not in err
    # one record: its error, once ('skipped (...)' and then 'the record could not be read')
    assert main(["puzzle", str(tmp_path / "binary.gcg")]) == 1
    assert capsys.readouterr().err == f"qiza puzzle: {tmp_path / 'binary.gcg'}:1: {gcg.reader.BINARY}\n"
    lexicon = load_lexicon("enable")
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=12)
    (tmp_path / "game.gcg").write_text(gcg.dumps(gcg.from_game(game)), encoding="utf-8")
    assert main(["puzzle", "--player", "Nobody", str(tmp_path)]) == 1
    assert "no record has a player 'Nobody'" in capsys.readouterr().err
    assert main(["puzzle", "--player", "Nobody", str(tmp_path / "game.gcg")]) == 1  # 'skipped (...)' before
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"qiza puzzle: {tmp_path / 'game.gcg'} has no player 'Nobody'")
    for bad in ("nan", "inf", "-1"):
        for command in ("puzzle", "analyze"):
            assert main([command, "--threshold", bad, str(tmp_path)]) == 2
            assert f"--threshold: equity lost of 0 or more, not {bad!r}" in capsys.readouterr().err


def test_the_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main(["puzzle", "--count", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Puzzle 1 of 1: " in out and " to play with " in out and "The best plays:" in out
    assert out.rstrip().endswith("1 puzzle done, the best play found in 0.")
    assert main(["puzzle", "--count", "0"]) == 2
    assert "--count must be at least 1" in capsys.readouterr().err


def test_the_first_puzzle_is_asked_before_the_next_are_made(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza puzzle' made its ten puzzles (ten games of the computer against itself) before it
    showed the first: seconds each on a fresh install, while the move generator compiles. Each is
    made when it is asked: quitting at the first made only that one."""
    from qiza.cli import main
    from qiza.players import puzzles as library

    made: list[int] = []
    real = library.self_play_puzzle

    def making(lexicon: object, number: int) -> Puzzle:
        made.append(number)
        return real(lexicon, number)  # type: ignore[arg-type]

    monkeypatch.setattr(library, "self_play_puzzle", making)
    monkeypatch.setattr("sys.stdin", io.StringIO("\nquit\n"))
    assert main(["puzzle", "--number", "42"]) == 0
    out = capsys.readouterr().out
    assert "Puzzle 1 of 10: " in out and "Puzzle 2 of 10: " in out and "Puzzle 3 of 10" not in out
    assert made == [42, 43]


def test_numbered_puzzles_are_the_same_for_the_same_number() -> None:
    from qiza.errors import QizaError
    from qiza.players.puzzles import MAX_PUZZLE, self_play_puzzle

    lexicon = load_lexicon("enable")
    first, again, other = (self_play_puzzle(lexicon, n) for n in (3, 3, 4))
    assert first.game.board.cells == again.game.board.cells and first.game.racks == again.game.racks
    assert first.game.board.cells != other.game.board.cells
    assert first.source.startswith("puzzle 3, a computer game") and first.ranked()
    assert [p.game.board.cells for p in from_self_play(lexicon, 2, seed=0, first=3)] == \
        [first.game.board.cells, other.game.board.cells]
    for wrong in (0, -1, MAX_PUZZLE + 1):
        with pytest.raises(QizaError, match="puzzles are numbered 1 to"):
            self_play_puzzle(lexicon, wrong)


def test_the_command_asks_a_numbered_puzzle(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main
    from qiza.players.puzzles import self_play_puzzle

    game = self_play_puzzle(load_lexicon("enable"), 42).game
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main(["puzzle", "--number", "42", "--count", "1"]) == 0
    out = capsys.readouterr().out
    assert f"to play with {game.rack_text(game.to_move)}." in out and "From puzzle 42, a computer game" in out
    assert main(["puzzle", "--number", "0"]) == 2
    assert "--number must be from 1 to" in capsys.readouterr().err
    assert main(["puzzle", "--number", "5", "some.gcg"]) == 2
    assert "give it without records" in capsys.readouterr().err


def test_the_puzzles_are_the_library_module_puzzles_and_their_old_home_still_works() -> None:
    """The web's puzzles made a puzzle and judged a move with functions of ``qiza puzzle``'s
    command-line module (``puzzle_cli``); the puzzles both front ends use are the library's
    :mod:`qiza.players.puzzles` now, which imports no command-line module, and ``puzzle_cli``
    (the terminal's asking and printing) still finds its old names for one release, with a
    :class:`DeprecationWarning`."""
    import ast

    from qiza.players import puzzle_cli, puzzles

    web = Path(__file__).resolve().parents[1] / "qiza" / "web" / "puzzles.py"
    for path in (Path(str(puzzles.__file__)), web):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not {name for name in imported if name.endswith("_cli") or name == "qiza.cli"}, path
    assert {"self_play_puzzle", "judge", "Puzzle", "MAX_PUZZLE"} <= set(puzzles.__all__)
    assert not set(puzzles.__all__) & set(vars(puzzle_cli))  # not the CLI's own
    for name in puzzles.__all__:
        with pytest.warns(DeprecationWarning, match=f"^qiza.players.puzzle_cli.{name} has moved to "
                                                    f"qiza.players.puzzles.{name}: import it from qiza.players.puzzles"):
            assert getattr(puzzle_cli, name) is getattr(puzzles, name)
    with pytest.raises(AttributeError, match="^module 'qiza.players.puzzle_cli' has no attribute 'self_play'$"):
        getattr(puzzle_cli, "self_play")  # noqa: B009 (a name it never had)


def test_a_puzzle_fits_80_columns(puzzles: list[Puzzle]) -> None:
    """The board's key (82 characters) and the line naming the player, rack and scores (of two
    players of long names, as quackle__ and macondo__some_isc_game.gcg's) ran past 80 columns,
    cut by the terminal inside a word."""
    from qiza.text import LEGEND

    game = puzzles[0].game.copy()
    game.players = ["José Arcadio Buendía", "Úrsula Iguarán Buendía"]
    said: list[str] = []
    run_puzzles([Puzzle(game, "a test")], lambda prompt: None, said.append)
    lines = "\n".join(said).splitlines()
    assert LEGEND in lines and max(len(line) for line in lines) <= 80, lines
    mover = game.players[game.to_move]
    assert any(line.startswith(f"Puzzle 1 of 1: {mover} to play with {game.rack_text(game.to_move)}. ")
               for line in lines), lines


def test_records_without_the_player_are_passed_over_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza puzzle FOLDER --player David' said 'PATH: skipped (PATH has no player ...)' of every
    record David did not play: 37 lines of the 44 shared records. They are counted in one line."""
    from qiza.cli import main

    lexicon = load_lexicon("enable")
    for name, players in (("ann.gcg", ["Ann", "Bob"]), ("cy.gcg", ["Cy", "Dee"]), ("eve.gcg", ["Eve", "Fay"])):
        game = Game(CLASSIC, players=players, lexicon=lexicon, seed=12)
        bot = make_player("easy", lexicon, seed=1)
        while len(game.history) < 8:
            game.play(bot.choose(game.view(game.to_move)))
        (tmp_path / name).write_text(gcg.dumps(gcg.from_game(game)), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["puzzle", "--player", "Ann", "--threshold", "0", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "has no player" not in err and "skipped" not in err, err
    assert "2 records without a player 'Ann' passed over" in err
