"""GCG between qiza and Quackle, Macondo and Woogles: qiza reads records in the form each of them
writes (hand-made fixtures ``tests/fixtures/dialect_*.gcg``, scores checked), and what qiza writes,
event by event, is what their readers read (``gcg_grammar``: each reader's rules as read from its
source, written anew)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gcg_grammar import macondo_problems, quackle_problems

from qiza import gcg
from qiza.cli import main
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.rules import COMPUTER, finish_line

FIXTURES = Path(__file__).parent / "fixtures"
WORDS = Lexicon("TEST", ["NOT", "TON", "ZIN", "ZINE", "TONE", "NOTE", "NOTES", "AX", "AT", "TA"])


@pytest.mark.parametrize(("name", "scores", "over", "kinds"), [
    # Woogles' export (Macondo's writer): pragmas before the players, an #id of an authority and an
    # id, a note of two lines, the tiles left counted for and against, a time penalty after them
    ("dialect_woogles.gcg", [453, 441], True,
     {"place", "exchange", "phony-returned", "challenge-bonus", "end-rack-points", "end-rack-penalty",
      "time-penalty"}),
    # Quackle's writer: '--  -N', the player who went out gets twice the tiles left in one line
    # without a rack
    ("dialect_quackle.gcg", [474, 472], True,
     {"place", "exchange", "phony-returned", "challenge-bonus", "end-rack-points"}),
    # Quackle, three players, unfinished: an exchange of a count of tiles, the rack of the player to
    # move in #rack1
    ("dialect_quackle_three.gcg", [166, 70, 73], False,
     {"place", "exchange", "phony-returned", "challenge-bonus"}),
])
def test_records_as_each_program_writes_them_are_read_with_their_scores(
        name: str, scores: list[int], over: bool, kinds: set[str]) -> None:
    path = FIXTURES / name
    data = path.read_bytes()
    # the fixture is in its program's form: its reader reads it
    if name.startswith("dialect_woogles"):
        assert macondo_problems(data) == []
    else:
        assert quackle_problems(data) == []
    record = gcg.load(path)
    assert not record.errors and not record.warnings, (record.errors, record.warnings)
    assert {e.type.value for e in record.events} == kinds
    result = gcg.replay(record)
    assert result.clean and not result.warnings, [str(d) for d in result.differences]
    assert result.checked == len(record.events)
    assert result.game is not None and result.game.scores == scores and result.game.over is over
    # every event's total is the sum of its player's scores so far
    totals: dict[str, int] = {}
    for event in record.events:
        totals[event.player] = totals.get(event.player, 0) + event.score
        assert totals[event.player] == event.total, event
    assert gcg.loads(gcg.dumps(record)) == record


def test_the_fixture_details_are_read_as_their_writers_mean_them() -> None:
    woogles = gcg.load(FIXTURES / "dialect_woogles.gcg")
    assert (woogles.id, woogles.lexicon, woogles.description) == ("io.woogles Zq4Lm9Rt2x", "NWL20",
                                                                   "Created with Macondo")
    assert [(p.nick, p.name) for p in woogles.players] == [("zoë", "Zoë Ångström"), ("BotJr", "BotJr")]
    noted = next(e for e in woogles.events if e.notes)
    assert noted.word == "ADDAX" and noted.notes == ["ADDAX, 60: the X on the DL\nboth ways"]
    quackle = gcg.load(FIXTURES / "dialect_quackle.gcg")
    assert (quackle.title, quackle.description) == ("Club night, game 2", "As Quackle writes a finished game")
    last = quackle.events[-1]
    assert (last.type, last.rack, last.tiles, last.score) == (gcg.EventType.END_RACK_POINTS, "", "UIVQWT", 42)
    three = gcg.load(FIXTURES / "dialect_quackle_three.gcg")
    exchange = next(e for e in three.events if e.type is gcg.EventType.EXCHANGE)
    assert (exchange.tiles, exchange.count) == ("", 3)
    assert three.final_racks == {1: "GMUIDSK"}


# -- what qiza writes -------------------------------------------------------------------------------

def _game(rule: str, players: int = 2) -> Game:
    return Game(COMPUTER.with_options(challenge=rule), players=["Zoë Ångström", "Bob", "Cy Young", "Di"][:players],
                lexicon=WORDS, seed=5)


def _every_event(players: int) -> Game:
    """A game of every event but the lost turn: a play, its challenge that failed (five points), an
    exchange, a phony taken back, passes to the end (each player's tiles counted against them), a
    time penalty after the end."""
    game = _game("five-point", players)
    game.set_rack(0, "ENORSTU")
    game.play("H8 NOT")
    game.challenge(1)
    game.set_rack(1, "EIZAAAA")
    game.play("exchange AAA")
    for _ in range(2, players):
        game.play("pass")
    letters = [tile for tile in game.rack_text(0) if tile != "?"][:2]
    game.play(f"H9 {''.join(letters)}")  # not a word of WORDS
    game.challenge(1)
    while not game.over:
        game.play("pass")
    game.penalize(1, 10)
    return game


def _gone_out() -> Game:
    """A game a player ends by playing out: the tiles left counted for them (Macondo's form)."""
    game = _game("single")
    game.set_rack(0, "AX")
    del game.bag[:]
    game.play("H8 AX")
    game.play("pass")  # the other player lets it stand
    assert game.over
    return game


def _turn_lost() -> Game:
    """A turn lost to a challenge that failed (double rule), then the game on to its end."""
    game = _game("double")
    game.set_rack(0, "ENORSTU")
    game.play("H8 NOT")
    game.challenge(1)
    while not game.over:
        game.play("pass")
    return game


def _kinds(text: str) -> set[str]:
    return {e.type.value for e in gcg.loads(text).events}


QUACKLE_END_PENALTY = "is read as the position of a placement"
"""Quackle has no line for a player's own tiles at the end (Macondo's ``RACK (RACK) -N``, which qiza
writes): it takes the line for a placement; it counts the tiles itself at the end of the game."""


def test_what_qiza_writes_of_two_player_games_macondo_and_quackle_read() -> None:
    texts = [gcg.dumps(gcg.from_game(game)) for game in (_every_event(2), _gone_out(), _turn_lost())]
    assert set().union(*map(_kinds, texts)) == {kind.value for kind in gcg.EventType}
    for text in texts:
        data = text.encode("utf-8")
        assert macondo_problems(data) == [], text
        assert [p for p in quackle_problems(data) if QUACKLE_END_PENALTY not in p] == [], text


def test_what_qiza_writes_of_games_of_three_and_four_quackle_reads() -> None:
    """Macondo and Woogles read two players only; Quackle any number."""
    for players in (3, 4):
        data = gcg.dumps(gcg.from_game(_every_event(players))).encode("utf-8")
        assert [p for p in quackle_problems(data) if QUACKLE_END_PENALTY not in p] == []
        assert any("#player3" in p for p in macondo_problems(data))


def test_the_grammar_helpers_find_what_their_readers_refuse() -> None:
    """The helpers say no where the readers do (so that an empty list above means something)."""
    head = "#character-encoding UTF-8\n#player1 a Ann\n#player2 b Bob\n"
    for bad in (">a:  8D NOT +6 6\n",  # no rack before a placement
                ">a: ENORSTU 8D NOT +6 -6\n",  # a negative total after a turn
                ">c: ENORSTU 8D NOT +6 6\n",  # a player not declared
                "#note\n"):  # a note of nothing: Macondo has no pattern for '#note' alone
        assert macondo_problems((head + ">b: AEINRST 8D RETAINS +66 66\n" + bad).encode()), bad
    assert macondo_problems(b"#character-encoding ISO-8859-1\n#player1 a Ann\n")
    assert macondo_problems(("#player1 a " + "Ann " * 40 + "\n").encode())
    assert macondo_problems((head + ">a: ENORSTU 8D NOT +6 6\n#title late\n").encode())
    for bad in (">a:  (challenge) +5 11\n", ">a:  (time) -10 -4\n", "#incomplete\n", ">a: ABC (ABC) -5 1\n"):
        assert quackle_problems((head + ">a: ENORSTU 8D NOT +6 6\n" + bad).encode()), bad
    assert quackle_problems(b"#player1 a\n")


def test_an_unfinished_game_gives_quackle_the_rack_of_the_player_to_move() -> None:
    """Quackle reads ``#incomplete`` as ``#incomplete RACK`` with no rack: it gives the player to
    move an empty rack at the end of its reading (after the ``#rackN`` lines). qiza wrote the bare
    line for every unfinished game; it writes that player's rack there when the record has it."""
    game = _game("single")
    game.set_rack(0, "ENORSTU")
    game.play("H8 NOT")
    record = gcg.from_game(game)
    text = gcg.dumps(record)
    assert f"#incomplete {game.rack_text(1)}\n" in text
    assert quackle_problems(text.encode("utf-8")) == [] and macondo_problems(text.encode("utf-8")) == []
    assert gcg.loads(text) == record and gcg.dumps(gcg.loads(text)) == text
    # as the player to move sees it: their rack; as the other sees it, no rack known: the bare line
    assert f"#incomplete {game.rack_text(1)}\n" in gcg.dumps(gcg.from_game(game, seat=1))
    hidden = gcg.dumps(gcg.from_game(game, seat=0))
    assert "#incomplete\n" in hidden and gcg.loads(hidden) == gcg.from_game(game, seat=0)


def test_an_empty_note_is_neither_read_nor_written() -> None:
    """Macondo has no pattern for ``#note`` with nothing after it (its reader stops there, unless
    the line before was a note); qiza wrote an empty note, read from such a line, so. A note of
    nothing is no note: not kept, and not written."""
    head = "#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 66\n"
    for empty in ("#note\n", "#note   \n"):
        record = gcg.loads(head + empty)
        assert not record.errors and not record.warnings and record.events[0].notes == []
        assert gcg.dumps(record) == head
    # a note whose first line is empty starts at its next line
    record = gcg.loads(head + "#note\nthe bingo\n")
    assert record.events[0].notes == ["the bingo"]
    assert gcg.dumps(record) == head + "#note the bingo\n"
    # a record made in code with an empty note writes none
    record.events[0].notes = ["", " "]
    assert gcg.dumps(record) == head
    assert macondo_problems(gcg.dumps(gcg.loads(head + "#note\n")).encode()) == []


@pytest.mark.parametrize("header", ["#game-type wordsmog\n", "#game-type WordSmog_super\n", "#note Variant: wordsmog\n"])
def test_a_wordsmog_record_is_read_with_a_warning_that_its_words_are_judged_as_classic(
        header: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Woogles' WordSmog games (``#game-type wordsmog``: a word is good when it is an anagram of a
    word) score as classic games, and qiza replays them, but judges their words as a classic
    game's: it read them without a word, and ``qiza analyze`` called their anagrams phonies. The
    record says so in a warning on the line that names the variant."""
    text = "#character-encoding UTF-8\n" + header + "#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 66\n"
    record = gcg.loads(text)
    assert not record.errors
    assert [(w.line, "WordSmog" in str(w) and "classic" in str(w)) for w in record.warnings] == [(2, True)]
    assert gcg.replay(record).clean
    path = tmp_path / "smog.gcg"
    path.write_text(text, encoding="utf-8")
    from qiza.cli import main
    assert main(["gcg", "check", str(path)]) == 0
    assert f"{path}:2:" in capsys.readouterr().out
    assert main(["analyze", "--lexicon", "enable", str(path)]) == 0
    assert f"warning: {path}:2: game type " in capsys.readouterr().err
    for classic in ("#game-type classic\n", "#game-type classic_super\n"):
        assert not gcg.loads(text.replace(header, classic)).warnings


def test_the_shared_records_written_again_by_qiza_read_in_their_programs_as_before(shared_dir: Path) -> None:
    """Each of the real records of ``../shared/gcg`` (Macondo's and Quackle's test games), read and
    written again by qiza (as ``gcg.dump`` writes it), is read by Macondo and by Quackle as well as
    the original was: no problem the original did not have. (Macondo's own tests expect it to
    refuse the one declared in ISO8859-6: the grammar says so too.) Every move, score and total
    surviving the round trip is test_gcg's test_shared_games_round_trip."""
    files = sorted((shared_dir / "gcg").glob("*.gcg"))
    assert len(files) >= 44
    refused = []
    for path in files:
        data = path.read_bytes()
        record = gcg.load(path)
        written = gcg.dumps(record).encode(record.character_encoding or "latin-1")
        for problems in (macondo_problems, quackle_problems):
            assert problems(written) == [] or problems(written) == problems(data), (path.name, problems(written))
        refused += [path.name] if macondo_problems(data) and path.name.startswith("macondo") else []
    assert refused == ["macondo__name_weird_encoding_with_header.gcg"]


def test_quackles_last_line_of_a_game_passed_out_is_read() -> None:
    """Quackle ends a game that ended by scoreless turns with one line, for the player to move, of
    their own tiles taken away, its score printed with a '+' before the negative number
    (``>Bob: PEETYTT (PEETYTT) +-12 -12``; the others' tiles are taken away without a line). qiza
    read the sign so only for a time penalty, and called the line a truncated event."""
    text = ("#character-encoding UTF-8\n#player1 ann Ann\n#player2 bob Bob\n>ann: ENORSTU 8H NOT +6 6\n"
            + ">bob: PEETYTT - +0 0\n>ann: ERSUNEG - +0 6\n" * 3 + ">bob: PEETYTT (PEETYTT) +-12 -12\n")
    record = gcg.loads(text)
    assert not record.errors and not record.warnings, record.errors
    last = record.events[-1]
    assert (last.type, last.rack, last.tiles, last.score, last.total) == \
        (gcg.EventType.END_RACK_PENALTY, "PEETYTT", "PEETYTT", -12, -12)
    result = gcg.replay(record)
    assert result.clean and result.game is not None and result.game.over and result.game.scores == [-2, -12]
    assert gcg.dumps(record).endswith(">bob: PEETYTT (PEETYTT) -12 -12\n")  # as Macondo reads it
    # the sign stays wrong on a line that scores points: it names the line
    bad = gcg.loads(text.replace(">ann: ENORSTU 8H NOT +6 6", ">ann: ENORSTU 8H NOT +-6 -6"))
    assert [e.line for e in bad.errors][:1] == [4]


@pytest.mark.parametrize("rules", [COMPUTER, finish_line(["beginner", "expert"])], ids=["classic", "finish-line"])
def test_a_game_resigned_before_any_move_is_a_record_of_no_moves(
        rules: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game resigned before its first move has no event: its notes (who resigned, the Finish
    Line targets) were the file's last lines, and Macondo's reader takes the empty line after the
    file's last line break for a second line of that note, to be added to an event there is none
    of: it fails. They follow the #player lines now, a pragma after them; and ``qiza gcg check``
    reads such a record as a game of no moves, no longer 'error: no events'."""
    game = Game(rules, players=["Ann", "Bob"], lexicon=WORDS, seed=1)
    game.resign(0)
    text = gcg.dumps(gcg.from_game(game, title="Ann vs Bob"))
    data = text.encode()
    assert macondo_problems(data) == [] and quackle_problems(data) == [], text
    read = gcg.loads(text)
    assert "Ann resigned" in read.notes and not read.events and [p.name for p in read.players] == ["Ann", "Bob"]
    if game.rules.finish_line is not None:
        assert read.finish_line == game.rules.finish_line
    path = tmp_path / "resigned.gcg"
    path.write_text(text, encoding="utf-8")
    assert main(["gcg", "check", str(path)]) == 0, capsys.readouterr().out
    assert capsys.readouterr().out.splitlines()[0] == f"{path}: 0 moves checked, ok"
