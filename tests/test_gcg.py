"""GCG game records: reading, writing, round trips on generated games, and the replay check."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from qiza import gcg
from qiza.cli import main
from qiza.errors import QizaError
from qiza.game import Game, Kind
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Move
from qiza.rules import CLASSIC, COMPUTER, ChallengeRule, Rules

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_GCG = Path(__file__).resolve().parents[1].parent / "shared" / "gcg"


# -- generated games ----------------------------------------------------------------------

def _best(game: Game) -> Move | None:
    from qiza.analysis import legal_placements

    candidates = legal_placements(game)
    if not candidates:
        return None
    return max(candidates, key=lambda c: (c.score, str(c.move))).move


def _play_out(game: Game, *, rng: random.Random, events: bool = True) -> None:
    """Play a game to its end with the move generator, mixing in every kind of event."""
    turn = 0
    real = game.lexicon
    while not game.over:
        turn += 1
        if game.pending_ends_game:
            game.play("pass")
            continue
        if events and turn == 3 and len(game.bag) >= 7:
            game.play(f"exchange {game.rack_text()[:3]}")
            continue
        if events and turn == 4:
            game.play("pass")
            continue
        move = _best(game)
        if move is None:
            game.play("pass")
            continue
        game.play(move)
        if game.over or not game.can_challenge or not events:
            continue
        challenger = game.to_move
        if turn == 5:  # a phony, challenged off
            game.lexicon = Lexicon("NOTHING", ["ZZZ"])
            game.challenge(challenger)
            game.lexicon = real
        elif turn == 7:  # a valid play challenged without success
            game.challenge(challenger)
    if events:
        game.penalize(0, 10)


def _game(players: int, seed: int, **options: str) -> Game:
    rules: Rules = COMPUTER.with_options(**options)
    game = Game(rules, players=[f"Player {i + 1}" for i in range(players)], seed=seed)
    _play_out(game, rng=random.Random(seed))
    return game


@pytest.fixture(scope="module")
def generated() -> list[Game]:
    pytest.importorskip("numba")
    return [
        _game(2, 1, challenge="five-point", end_points="double"),
        _game(3, 2, challenge="ten-point", end_points="rulebook"),
        _game(4, 3, challenge="double"),
        _game(2, 4, challenge="single"),
    ]


def _kinds(game: Game) -> set[Kind]:
    return {r.kind for r in game.history}


def test_generated_games_cover_every_event(generated: list[Game]) -> None:
    kinds = set().union(*(_kinds(g) for g in generated))
    for kind in (Kind.PLACE, Kind.EXCHANGE, Kind.PASS, Kind.PHONY_REMOVED, Kind.CHALLENGE_BONUS,
                 Kind.END_RACK_BONUS, Kind.END_RACK_PENALTY, Kind.TIME_PENALTY, Kind.FAILED_CHALLENGE):
        assert kind in kinds, kind
    types = {e.type for g in generated for e in gcg.from_game(g).events}
    assert types == set(gcg.EventType)


def test_round_trip_generated_games(generated: list[Game]) -> None:
    for game in generated:
        record = gcg.from_game(game, title="generated")
        text = gcg.dumps(record)
        again = gcg.loads(text)
        assert not again.errors, again.errors
        assert not again.warnings
        assert again == record
        assert gcg.dumps(again) == text


def test_replay_generated_games_matches_engine(generated: list[Game]) -> None:
    for game in generated:
        record = gcg.loads(gcg.dumps(gcg.from_game(game)))
        result = gcg.replay(record)
        assert result.clean, result.differences
        assert not result.warnings, result.warnings
        assert result.game is not None
        # the replay's seats are rotated so that the first to move is seat 0
        first = record.seat_of(next(e for e in record.events if e.is_turn))
        n = game.player_count
        assert [result.game.scores[(s - first) % n] for s in range(n)] == game.scores
        assert result.game.board == game.board


def test_written_file_round_trips_through_bytes(tmp_path: Path, generated: list[Game]) -> None:
    record = gcg.from_game(generated[0])
    record.players[0].name = "Zoë Ñandú"
    record.events[0].notes = ["first note", "second note\nwith a second line"]
    path = tmp_path / "game.gcg"
    gcg.dump(record, path)
    again = gcg.load(path)
    assert again == record
    record.character_encoding = None
    record.players[0].name = "Łukasz"
    with pytest.raises(gcg.FileFormatError):
        gcg.dump(record, path)


# -- reading ------------------------------------------------------------------------------------

EVERY_EVENT = """\
#character-encoding UTF-8
#player1 ann Ann Able
#player2 bob Bob Baker
#title Every event
#description all of them
#id io.woogles abc123
#lexicon NWL23
#tile-distribution english
#board-layout CrosswordGame
#game-type classic
#note before the first move
>ann: AEINRST 8D RETINAS +72 72
#note one
#note two
continued
>bob: DEIILTZ 9C ZI. +21 21
>bob: DEIILTZ -- -21 0
>ann: ?ABCDEF -ABC +0 72
>bob: DEIILTZ -7 +0 0
>ann: DEF???? - +0 72
>bob: AAEIOUU 7H A(I) +4 4
>bob: AEIOUUX (challenge) +5 9
>ann: DEF???? J7 D.F +7 79
>ann: DEF???? (time) -10 69
>bob: AEIOUUX (AEIOUUX) -13 -4
>ann: (AEIOUUX) +26 95
#rack1 DEF
#rack2 AEIOUUX
#incomplete
"""


def test_every_event_type_and_pragma_is_read() -> None:
    record = gcg.loads(EVERY_EVENT)
    assert not record.errors, record.errors
    assert [p.nick for p in record.players] == ["ann", "bob"]
    assert record.players[1].name == "Bob Baker"
    assert (record.title, record.description, record.id, record.lexicon) == (
        "Every event", "all of them", "io.woogles abc123", "NWL23")
    assert (record.tile_distribution, record.board_layout, record.game_type) == (
        "english", "CrosswordGame", "classic")
    assert record.incomplete and record.final_racks == {1: "DEF", 2: "AEIOUUX"}
    assert record.notes == ["before the first move"]
    assert record.events[0].notes == ["one", "two\ncontinued"]
    types = [e.type for e in record.events]
    E = gcg.EventType
    assert types == [E.PLACE, E.PLACE, E.PHONY_RETURNED, E.EXCHANGE, E.EXCHANGE, E.PASS, E.PLACE,
                     E.CHALLENGE_BONUS, E.PLACE, E.TIME_PENALTY, E.END_RACK_PENALTY, E.END_RACK_POINTS]
    assert record.events[3].tiles == "ABC" and record.events[4].count == 7
    assert record.events[6].word == "A(I)"
    assert record.events[-1].tiles == "AEIOUUX" and record.events[-1].rack == ""
    assert [e.line for e in record.events[:3]] == [12, 16, 17]
    again = gcg.loads(gcg.dumps(record))
    assert again == record


@pytest.mark.parametrize("word", ["ZI.", "ZI(N)", "ZIN"])
def test_played_through_letters_in_any_form(word: str) -> None:
    text = f"#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n>b: IZ F6 {word} +32 32\n"
    record = gcg.loads(text)
    assert not record.errors
    result = gcg.replay(record)
    assert result.clean, result.differences
    assert result.game is not None and result.game.board.rows_text()[7][5] == "N"


def test_dos_line_endings_and_latin1() -> None:
    data = "#player1 césar César\r\n#player2 doug Doug\r\n>césar: DINNVWY 8D WINDY +32 32\r\n".encode("latin-1")
    record = gcg.parse_bytes(data)
    assert not record.errors and not record.warnings
    assert record.players[0].nick == "césar"
    utf8 = ("#character-encoding UTF-8\r\n" + data.decode("latin-1")).encode("utf-8")
    assert gcg.parse_bytes(utf8).players[0].nick == "césar"
    # a byte order mark: UTF-8, or UTF-16 as Windows editors save "Unicode" text (every line
    # was 'not a pragma or an event', its letters between NUL bytes)
    text = data.decode("latin-1")
    for bom_data in (b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16"),
                     b"\xfe\xff" + text.encode("utf-16-be")):
        record = gcg.parse_bytes(bom_data)
        assert not record.errors and record.players[0].nick == "césar" and len(record.events) == 1


def test_lines_end_only_at_line_breaks() -> None:
    """Python's splitlines also breaks at NEL (byte 0x85 in ISO-8859-1: the ellipsis of Windows
    text), form feeds and U+2028: a title or note holding one was cut in two, its second half
    'not a pragma (#...) or an event', and later line numbers were off."""
    data = b"#character-encoding ISO-8859-1\n#player1 a A\n#player2 b B\n#title Round 1\x85 the final\n" \
           b">a: AEINRST 8D RETAINS +66 66\n#note hmm\x85 not sure\n>b: ADEILNO 9D ADO +12 12 x\x0cy\n"
    record = gcg.parse_bytes(data)  # NEL and the form feed are control characters: dropped, with a warning
    assert not record.errors and record.title == "Round 1 the final"
    assert record.events[0].notes == ["hmm not sure"] and record.events[1].line == 7
    assert [w.line for w in record.warnings] == [4, 6, 7]
    # undeclared, byte 0x85 is Windows-1252's ellipsis (the form feed is still dropped)
    record = gcg.parse_bytes(data.split(b"\n", 1)[1])
    assert not record.errors and record.title == "Round 1\u2026 the final"
    assert record.events[0].notes == ["hmm\u2026 not sure"] and record.events[1].line == 6
    assert [w.line for w in record.warnings] == [6]
    record = gcg.loads("#player1 a A\r#title x\u2028y\r\n>a: AEINRST 8D RETAINS +66 66\r")
    assert not record.errors and record.title == "x\u2028y" and record.events[0].line == 3
    assert gcg.loads(gcg.dumps(record)) == record


def test_control_characters_never_reach_the_terminal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A record's names, notes and pragmas are printed by gcg show / check, best and analyze: an
    escape sequence in them cleared the screen or set the terminal's title (and ISO-8859-1's
    byte 0x9b is CSI, an escape of its own)."""
    data = (b"#character-encoding ISO-8859-1\n"  # undeclared, byte 0x9b is Windows-1252's harmless '\u203a'
            b"#player1 a Evil\x1b[2J\x1b]0;owned\x07Name\n#player2 b\x9b31m B\n#lexicon X\x1b[5m\n"
            b"#what\x1bever x\n>a: AEINRST 8D RETAINS +66 66\n>b\x9b31m: ADEILNO 9D ADO +12 12\n")
    assert gcg.parse_bytes(data.split(b"\n", 1)[1]).players[1].nick == "b\u203a31m"
    record = gcg.parse_bytes(data)
    assert [p.name for p in record.players] == ["Evil[2J]0;ownedName", "B"] and record.lexicon == "X[5m"
    assert record.events[1].player == "b31m" and not record.errors
    path = tmp_path / "evil.gcg"
    path.write_bytes(data)
    for command, shown in ((["gcg", "show"], "Evil[2J"), (["gcg", "check"], "#whatever")):
        main([*command, str(path)])
        printed = "".join(capsys.readouterr())
        assert shown in printed and not any(ch in printed for ch in "\x1b\x07\x9b")


def test_unknown_encoding_is_a_line_numbered_warning() -> None:
    data = "#player1 a A\n#character-encoding ISO8859-6\n#player2 césar C\n".encode()
    record = gcg.parse_bytes(data)
    assert record.players[1].nick == "césar"
    assert record.warnings and record.warnings[0].line == 3


@pytest.mark.parametrize(("declared", "data", "read_as"), [
    ("ISO8859-6", "#character-encoding ISO8859-6\n#player1 césar César\n".encode(), "UTF-8"),  # not valid in it
    ("frob", "#character-encoding frob\n#player1 césar César\n".encode(), "UTF-8"),  # no such character set
    ("UTF-16", b"#character-encoding UTF-16\n#player1 c\xe9sar C\xe9sar\n", None),  # Windows-1252 then
])
def test_a_record_read_in_another_encoding_than_declared_says_so(declared: str, data: bytes, read_as: str | None,
                                                                 tmp_path: Path) -> None:
    """A file whose ``#character-encoding`` is wrong is read as UTF-8 (or Windows-1252), with a
    warning; its record kept the declared name, and gcg.dump could not write it back
    (macondo__name_weird_encoding_with_header.gcg: 'cannot write the record in ISO8859-6'), or
    wrote a name no reader can follow. The record holds what the text was read as."""
    record = gcg.parse_bytes(data)
    assert record.warnings and declared in str(record.warnings[0])
    assert record.character_encoding == read_as and record.players[0].nick == "césar"
    gcg.dump(record, tmp_path / "again.gcg")
    again = gcg.load(tmp_path / "again.gcg")
    assert again == record and not again.warnings
    # a file that is in what it declares keeps the name as written
    assert gcg.parse_bytes(b"#character-encoding iso-8859-1\n#player1 c\xe9sar C\n").character_encoding == "iso-8859-1"


@pytest.mark.parametrize("name", ["UTF-16", "utf-32-le", "cp037"])
def test_an_encoding_the_file_is_not_written_in_is_a_warning(name: str) -> None:
    """A file declaring UTF-16 (or UTF-32, EBCDIC) in a line of plain ASCII was decoded as
    UTF-16 whole: one error, 'not a pragma or an event', quoting a line of CJK characters. The
    line naming it cannot be in it: the declaration is set aside, with a warning, as for an
    unknown name."""
    data = f"#character-encoding {name}\n#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETINAS +66 66\n"
    record = gcg.parse_bytes(data.encode())
    assert not record.errors and [e.word for e in record.events] == ["RETINAS"]
    assert record.warnings[0].line == 1
    assert f"#character-encoding {name}: the file is not written in it" in str(record.warnings[0])
    # a file really written in UTF-16 (with its byte order mark, as qiza writes it) is still read in it
    assert gcg.parse_bytes(data.encode("utf-16")).events[0].word == "RETINAS"


MALFORMED = [
    (">ann: AEINRST 8D RETINAS +72", 3, "truncated"),
    (">ann: AEINRST 8D +72 72", 3, "truncated placement"),
    (">ann: AEINRST 8D RETINAS +72 70", 3, "wrong total"),
    (">ann: AEINRST 8D RET1NAS +72 72", 3, "not a placement word"),
    (">ann: AEINRST 8D RETINAS +72 x", 3, "truncated"),
    (">carl: AEINRST 8D RETINAS +72 72", 3, "not declared"),
    ("ann: AEINRST 8D RETINAS +72 72", 3, "not a pragma"),
    (">ann AEINRST 8D RETINAS +72 72", 3, "nickname"),
    (">ann: AEINRST ~~ +0 0", 3, "cannot read the move"),
    (">ann: AE1NRST 8D RETINAS +72 72", 3, "not a rack"),
    # a time penalty written +10 was replayed as 10 points more, and checked "ok"
    (">ann: AEINRST (time) +10 10", 3, "a time penalty cannot score +10"),
    (">ann: AEINRST 8D RETINAS +72 1000000", 3, "numbers of at most 6 digits"),
    # signs no event of its type has were read without an error, and the writer refused the record
    (">ann: AEINRST (challenge) -5 -5", 3, "a challenge-bonus event cannot score -5"),
    (">ann: AEINRST - -5 -5", 3, "a pass event cannot score -5"),
    (">ann: AEINRST -AE -5 -5", 3, "an exchange event cannot score -5"),
    (">ann: AEINRST -- +5 5", 3, "a phony-returned event cannot score +5"),
    # read without an error as an exchange of no tiles, which dumps refused
    (">ann: AEINRST -0 +0 0", 3, "an exchange of 0 tiles"),
]


@pytest.mark.parametrize("text, number", [("#player2 b B\n>b: AEINRST 8D RETAINS +66 66\n", 1),
                                          ("#player3 c C\n#player1 a A\n>a: AEINRST 8D RETAINS +66 66\n", 2)])
def test_a_gap_in_the_player_numbers_is_an_error(text: str, number: int) -> None:
    """#player2 without #player1 gave a player with no name: 'it is 's turn in the engine', or a
    two-player game of one player that gcg check called ok."""
    record = gcg.loads(text)
    assert [e.reason for e in record.errors] == [f"no #player{number} line (players are numbered from 1, "
                                                 "without gaps)"]
    assert record.errors[0].line == 1  # the line that skipped the number
    with pytest.raises(gcg.FileFormatError) as caught:
        gcg.replay(record)
    assert caught.value.reason == f"no #player{number} line: player {number} is unknown"


@pytest.mark.parametrize("line,number,message", MALFORMED)
def test_malformed_lines_give_line_numbered_errors(line: str, number: int, message: str) -> None:
    record = gcg.loads(f"#player1 ann Ann\n#player2 bob Bob\n{line}\n")
    assert record.errors, line
    assert record.errors[0].line == number
    assert message in str(record.errors[0])


@pytest.mark.parametrize("line", [">ann: AEINRST (challenge) -5 -5", ">ann: AEINRST - -5 -5",
                                  ">ann: AEINRST -AE -5 -5", ">ann: AEINRST -- +5 5", ">ann: AEINRST -00 +0 0"])
def test_a_record_read_is_one_the_writer_writes(line: str) -> None:
    """A score of the wrong sign was read without an error, then dumps refused the record."""
    record = gcg.loads(f"#player1 ann Ann\n#player2 bob Bob\n>bob: ABC 8G CAB +14 14\n{line}\n")
    assert record.errors and not record.events[1:]
    assert gcg.loads(gcg.dumps(record)) == record


def test_a_player_line_without_a_full_name_reads_back_the_same() -> None:
    """``#player1 ann`` was a player with an empty name, written ``#player1 ann ann`` (Macondo's
    reader needs the full name), read back as another record."""
    record = gcg.loads("#player1 ann\n#player2 bob Bob\n>ann: AEINRST 8D RETINAS +66 66\n")
    assert record.players[0] == gcg.Player("ann", "ann") and not record.errors
    assert gcg.loads(gcg.dumps(record)) == record


def test_unknown_pragma_is_kept_with_a_warning() -> None:
    record = gcg.loads("#player1 a A\n#player2 b B\n#style wsc2001\n")
    assert record.pragmas == [("style", "wsc2001")]
    assert record.warnings[0].line == 3
    assert "#style wsc2001" in gcg.dumps(record)


def test_impossible_placement_is_a_difference_not_a_traceback() -> None:
    text = "#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n>b: IZ 1A ZI +22 22\n"
    result = gcg.replay(gcg.loads(text))
    assert not result.clean
    assert result.differences[0].line == 4
    assert "refuses" in result.differences[0].message


def test_wrong_score_is_a_difference() -> None:
    text = "#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +7 7\n"
    result = gcg.replay(gcg.loads(text))
    assert [d.line for d in result.differences] == [3]
    assert "+7 recorded, +6 by the engine" in result.differences[0].message


def test_writer_is_strict() -> None:
    record = gcg.loads(EVERY_EVENT)
    record.players[0].nick = "has space"
    with pytest.raises(gcg.FileFormatError):
        gcg.dumps(record)
    record = gcg.loads(EVERY_EVENT)
    record.events[0].score = -3
    with pytest.raises(gcg.FileFormatError):
        gcg.dumps(record)
    record = gcg.loads(EVERY_EVENT)
    record.events[0].position = "Z99"
    with pytest.raises(gcg.FileFormatError):
        gcg.dumps(record)


def test_fixture_files_never_raise() -> None:
    for path in sorted(FIXTURES.glob("bad_*.gcg")):
        record = gcg.load(path)
        lines = [p.line for p in record.errors + record.warnings]
        if record.events:
            lines += [d.line for d in gcg.replay(record).differences]
        assert lines, path
        assert all(isinstance(line, int) and line > 0 for line in lines), (path, lines)


# -- the shared game records ----------------------------------------------------------------------------

def _shared_files() -> list[Path]:
    if not SHARED_GCG.is_dir():
        pytest.skip(f"the shared game records are not at {SHARED_GCG} (they are not part of the repository)")
    return sorted(SHARED_GCG.glob("*.gcg"))


def test_every_shared_game_checks_clean() -> None:
    files = _shared_files()
    assert len(files) >= 44
    for path in files:
        record = gcg.load(path)
        assert not record.errors, (path.name, record.errors)
        result = gcg.replay(record)
        assert result.clean, (path.name, [str(d) for d in result.differences])
        assert result.checked == len(record.events)


def test_shared_games_round_trip() -> None:
    for path in _shared_files():
        record = gcg.load(path)
        if len({p.nick for p in record.players}) < len(record.players):
            # written with a nickname of their own for each (test_dumps_writes_players_who_share_...)
            again = gcg.loads(gcg.dumps(record))
            assert len({p.nick for p in again.players}) == len(again.players), path.name
            assert [p.name for p in again.players] == [p.name for p in record.players], path.name
            assert gcg.replay(again).game.scores == gcg.replay(record).game.scores, path.name
            continue
        assert gcg.loads(gcg.dumps(record)) == record, path.name


def test_shared_games_round_trip_through_files(tmp_path: Path) -> None:
    """gcg.dump then gcg.load gives the record again (macondo__name_weird_encoding_with_header.gcg,
    whose #character-encoding is not what it is written in, could not be written)."""
    for path in _shared_files():
        record = gcg.load(path)
        if len({p.nick for p in record.players}) < len(record.players):
            continue  # written with a nickname of their own for each (test_shared_games_round_trip)
        gcg.dump(record, tmp_path / path.name)
        assert gcg.load(tmp_path / path.name) == record, path.name


def test_cli_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.gcg"
    good.write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n", encoding="latin-1")
    assert main(["gcg", "check", str(good)]) == 0
    out = capsys.readouterr().out
    assert "1 move checked, ok" in out and out.strip().splitlines()[-1].startswith("total: 1 file,")
    foreign = tmp_path / "foreign.gcg"  # a problem of the whole record has no line of its own
    foreign.write_text("#character-encoding UTF-8\n#player1 a A\n#player2 b B\n>a: AÉINRST 8D ÉTAIN +12 12\n", encoding="utf-8")
    assert main(["gcg", "check", str(foreign)]) == 1
    assert "  differs: the record: no tile set has the letters É\n" in capsys.readouterr().out
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +9 9\n", encoding="latin-1")
    missing = tmp_path / "missing.gcg"
    assert main(["gcg", "check", str(good), str(bad), str(missing)]) == 1
    out = capsys.readouterr().out
    assert "line 3" in out and "cannot read" in out
    assert "total: 3 files" in out


def test_cli_check_shared(capsys: pytest.CaptureFixture[str]) -> None:
    files = _shared_files()
    assert main(["gcg", "check", "-q", *map(str, files)]) == 0
    assert "0 differences" in capsys.readouterr().out.splitlines()[-1]


def test_cli_check_with_a_lexicon_judges_words(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = tmp_path / "game.gcg"
    game.write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n>b: IZ F6 ZI. +32 32\n",
                    encoding="latin-1")
    words = tmp_path / "words.txt"
    words.write_text("NOT\nZIN\n", encoding="utf-8")
    assert main(["gcg", "check", "--lexicon", str(words), str(game)]) == 0
    words.write_text("NOT\n", encoding="utf-8")
    assert main(["gcg", "check", "--lexicon", str(words), str(game)]) == 1
    assert "ZIN not in WORDS" in capsys.readouterr().out


# -- failed challenges (Macondo's and Woogles' conventions) ------------------------------------------

CHALLENGE_WORDS = Lexicon("TEST", ["NOT", "TON", "ZIN", "ZINE", "TONE", "NOTE", "NOTES"])


def _challenge_game(players: int, rule: str) -> Game:
    """A game in a small lexicon that opens with NOT at 8H; P2 holds Z and I for ZIN down through the N."""
    game = Game(COMPUTER.with_options(challenge=rule), players=[f"P{i + 1}" for i in range(players)],
                lexicon=CHALLENGE_WORDS, seed=5)
    game.set_rack(0, "ENORSTU")
    game.play("H8 NOT")  # the rule book's notation: across from H8
    game.set_rack(1, "EIZAAAA")
    return game


def _finish(game: Game) -> None:
    """End the game with passes (scoreless turns)."""
    while not game.over:
        game.play("pass")


def _written(game: Game) -> tuple[list[str], gcg.GameRecord]:
    """The game written as GCG and read back (checked equal, and written back identically)."""
    record = gcg.from_game(game)
    text = gcg.dumps(record)
    again = gcg.loads(text)
    assert not again.errors and not again.warnings, (again.errors, again.warnings)
    assert again == record
    assert gcg.dumps(again) == text
    return text.splitlines(), again


def _replays_to(record: gcg.GameRecord, game: Game) -> Game:
    """Replay a record and check it ends with the game's scores and board."""
    result = gcg.replay(record)
    assert result.clean, [str(d) for d in result.differences]
    assert not result.warnings, [str(w) for w in result.warnings]
    assert result.game is not None
    first = record.seat_of(next(e for e in record.events if e.is_turn))
    n = game.player_count
    assert [result.game.scores[(s - first) % n] for s in range(n)] == game.scores
    assert result.game.board == game.board
    return result.game


def test_turn_lost_to_a_double_challenge_is_a_pass_with_macondos_note() -> None:
    game = _challenge_game(2, "double")
    game.challenge(1)  # NOT is valid: P2 loses the turn
    assert game.to_move == 0
    _finish(game)
    lines, record = _written(game)
    at = lines.index(">P2: EIZAAAA - +0 0")
    assert lines[at - 1].startswith(">P1: ENORSTU 8H NOT +6 6")
    assert lines[at + 1] == "#note #unsuccessful-challenge"
    lost = [e for e in record.events if e.type is gcg.EventType.TURN_LOST]
    assert [(e.player, e.notes, e.is_turn) for e in lost] == [("P2", [], True)]
    assert gcg.rules_for(record).challenge is ChallengeRule.DOUBLE
    replayed = _replays_to(record, game)
    assert [r.kind for r in replayed.history][:2] == [Kind.PLACE, Kind.FAILED_CHALLENGE]
    assert [r.kind for r in replayed.history] == [r.kind for r in game.history]


def test_failed_single_challenge_is_a_zero_challenge_bonus() -> None:
    game = _challenge_game(2, "single")
    game.challenge(1)  # no penalty: P2 still to move
    assert game.to_move == 1
    rack_after_draw = game.rack_text(0)
    game.play("6H ZIN")
    _finish(game)
    lines, record = _written(game)
    assert f">P1: {rack_after_draw} (challenge) +0 6" in lines
    bonus = [e for e in record.events if e.type is gcg.EventType.CHALLENGE_BONUS]
    assert [(e.score, e.notes) for e in bonus] == [(0, [])]  # two players: no #challenger note
    assert gcg.rules_for(record).challenge is ChallengeRule.SINGLE
    replayed = _replays_to(record, game)
    assert [r.kind for r in replayed.history] == [r.kind for r in game.history]


def test_failed_single_challenge_by_a_player_not_next_names_the_challenger() -> None:
    game = _challenge_game(3, "single")
    game.challenge(2)  # P3 challenges while P2 is to move
    game.play("6H ZIN")
    _finish(game)
    lines, record = _written(game)
    at = next(i for i, line in enumerate(lines) if "(challenge) +0" in line)
    assert lines[at + 1] == "#note #challenger P3"
    assert record.events[1].challenger == "P3"
    replayed = _replays_to(record, game)
    assert [(r.seat, r.kind) for r in replayed.history] == [(r.seat, r.kind) for r in game.history]


def test_double_challenge_by_a_player_not_next_loses_their_next_turn() -> None:
    game = _challenge_game(3, "double")
    game.challenge(2)  # P3 challenges while P2 is to move: P3's next turn is lost
    assert game.to_move == 1
    game.play("6H ZIN")
    assert game.to_move == 0 and game.history[-1].kind is Kind.LOST_TURN
    _finish(game)
    lines, record = _written(game)
    at = next(i for i, line in enumerate(lines) if "(challenge) +0" in line)
    assert lines[at].startswith(">P1: ") and lines[at + 1] == "#note #challenger P3"
    assert lines[at + 2].startswith(">P2: EIZAAAA H6 ZI. +12 12")
    assert lines[at + 3].startswith(">P3: ") and lines[at + 3].endswith(" - +0 0")
    assert lines[at + 4] == "#note #unsuccessful-challenge"
    assert gcg.rules_for(record).challenge is ChallengeRule.DOUBLE
    replayed = _replays_to(record, game)
    assert [(r.seat, r.kind) for r in replayed.history] == [(r.seat, r.kind) for r in game.history]


MACONDO_DOUBLE = """\
#character-encoding UTF-8
#player1 doug Doug
#player2 emely Emely
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL - +0 0
#note #unsuccessful-challenge
#note I was sure WINDY was no good
>doug: ADNNOTV 7C NOD +13 45
"""


def test_macondo_turn_lost_to_a_challenge_is_read_and_replayed() -> None:
    record = gcg.loads(MACONDO_DOUBLE)
    assert not record.errors and not record.warnings
    lost = record.events[1]
    assert lost.type is gcg.EventType.TURN_LOST and lost.notes == ["I was sure WINDY was no good"]
    result = gcg.replay(record)
    assert result.clean, [str(d) for d in result.differences]
    assert result.game is not None and result.game.scores == [45, 0]
    assert [r.kind for r in result.game.history] == [Kind.PLACE, Kind.FAILED_CHALLENGE, Kind.PLACE]
    assert gcg.loads(gcg.dumps(record)) == record


def test_turn_lost_note_on_other_events_is_an_ordinary_note() -> None:
    record = gcg.loads("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n#note #unsuccessful-challenge\n")
    assert record.events[0].type is gcg.EventType.PLACE
    assert record.events[0].notes == ["#unsuccessful-challenge"]


def test_woogles_zero_challenge_bonus_with_an_unknown_rack() -> None:
    text = ("#player1 HastyBot HastyBot\n#player2 ann Ann\n>HastyBot: ENORSTU 8F NOT +6 6\n"
            ">HastyBot:  (challenge) +0 6\n>ann: IZ F6 ZI. +32 32\n")
    record = gcg.loads(text)
    assert not record.errors and not record.warnings
    assert record.events[1].type is gcg.EventType.CHALLENGE_BONUS and record.events[1].rack == ""
    assert gcg.rules_for(record).challenge is ChallengeRule.SINGLE
    result = gcg.replay(record)
    assert result.clean, [str(d) for d in result.differences]
    assert result.game is not None and result.game.scores == [6, 32]
    # an unknown rack stays an empty field, which Macondo's reader needs
    assert ">HastyBot:  (challenge) +0 6" in gcg.dumps(record).splitlines()


def test_failed_double_challenge_of_a_play_that_went_out() -> None:
    """As Macondo writes it: the going-out play, then the end-of-game points (no lost turn)."""
    pytest.importorskip("numba")
    game = Game(COMPUTER.with_options(challenge="double", end_points="double"), players=["Ann", "Bob"], seed=11)
    while not game.over:
        if game.pending_ends_game:
            game.challenge(game.to_move)  # the play is valid: the challenger would lose a turn
            break
        move = _best(game)
        game.play(move if move is not None else "pass")
    assert game.over and [r.kind for r in game.history[-3:]] == [
        Kind.PLACE, Kind.FAILED_CHALLENGE, Kind.END_RACK_BONUS]
    lines, record = _written(game)
    assert not any(e.type is gcg.EventType.TURN_LOST for e in record.events)
    assert [e.type for e in record.events[-2:]] == [gcg.EventType.PLACE, gcg.EventType.END_RACK_POINTS]
    _replays_to(record, game)


def test_a_game_whose_names_hold_line_breaks_still_writes_its_record() -> None:
    """Names reach a game from people (the terminal, the web, saved games of older versions): a
    line break or control character in one must not write lines of its own into the record."""
    from qiza import find_preset
    from qiza.tui.app import parse_player

    game = Game(find_preset("classic"), players=["Ann\n>Bob: ABC 8H ABC +10 10", "Bob\x00\u202e"], seed=1)
    text = gcg.dumps(gcg.from_game(game))
    assert [line for line in text.splitlines() if line.startswith(">")] == []
    assert [p.name for p in gcg.loads(text).players] == ["Ann >Bob: ABC 8H ABC +10 10", "Bob"]
    game.resign(0)  # the note saying who resigned names them too
    record = gcg.loads(gcg.dumps(gcg.from_game(game)))
    assert record.notes == ["Ann >Bob: ABC 8H ABC +10 10 resigned"] and not record.errors
    game = Game(find_preset("classic"), players=["Ann\n#note x", "Bob"], seed=1)
    game.resign(0)
    assert gcg.loads(gcg.dumps(gcg.from_game(game))).notes == ["Ann #note x resigned"]
    game = Game(find_preset("classic"), players=["Ann", "Bob"], seed=1, lexicon=Lexicon("MY\nWORDS", ["AA"]))
    assert gcg.loads(gcg.dumps(gcg.from_game(game))).lexicon == "MY WORDS"  # a word list's file name
    assert parse_player("Eve\x1b[2J\n", "medium").name == "Eve[2J"
    assert parse_player("computer:hard:Hal\n9000", "medium").name == "Hal 9000"


def test_players_whose_names_give_the_same_nickname_get_different_ones() -> None:
    """'A B' and 'A:B' are both A_B; the second was A_B_3, the nickname of 'A B 3', and the
    record could not be written (the web's download and the terminal's gcg export failed)."""
    from qiza import find_preset

    for names in (["A B 3", "A B", "A:B"], ["A B 3", "A B 3 2", "A B", "A:B"], ["A B 3 2", "A B 3", "A B", "A:B"]):
        game = Game(find_preset("classic"), players=names, seed=1)
        record = gcg.loads(gcg.dumps(gcg.from_game(game)))
        nicks = [p.nick for p in record.players]
        assert len(set(nicks)) == len(names) and [p.name for p in record.players] == names


@pytest.mark.parametrize("preset", ["8-tile", "9-tile", "large-print"])
def test_records_of_the_rule_book_variants_replay(preset: str) -> None:
    """GCG has no pragma for the rack size or the end rule: the replay reads them from the racks
    (8 or 9 tiles) and from the scoreless turns before the racks are counted (the Large Print
    edition's two passes each); a 9-tile record was refused ('a rack holds at most 7') and a
    Large Print one 'not over in the engine'."""
    pytest.importorskip("numba")
    from qiza import find_preset

    for ending in ("played out", "passes"):
        game = Game(find_preset(preset), players=["Ann", "Bob"], seed=3)
        while not game.over:
            move = _best(game) if ending == "played out" or len(game.history) < 2 else None
            game.play(move if move is not None else "pass")
        result = gcg.replay(gcg.loads(gcg.dumps(gcg.from_game(game))))
        assert result.clean, (ending, [str(d) for d in result.differences])
        assert result.game is not None and result.game.over and sorted(result.game.scores) == sorted(game.scores)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_writing_to_a_named_pipe_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    """The terminal's --gcg FILE at the end of a game waited forever in open() for a reader."""
    import threading

    fifo = tmp_path / "game.gcg"
    os.mkfifo(fifo)
    record = gcg.loads(">ann: AEINRST 8D RETAINS +66 66\n")
    outcome: list[BaseException | None] = []

    def write() -> None:
        try:
            gcg.dump(record, fifo)
            outcome.append(None)
        except OSError as exc:
            outcome.append(exc)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    writer.join(10)
    if writer.is_alive():  # release the writer stuck in open() so the test run goes on
        with open(fifo, "rb") as reader:
            reader.read()
        writer.join(5)
        pytest.fail("writing to a named pipe nobody reads waited for a reader")
    assert isinstance(outcome[0], OSError) and outcome[0].strerror == "a named pipe that nobody reads"


def test_export_writes_utf8_that_reads_back(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    """gcg export wrote the terminal's encoding (UTF-8) under the record's own declaration, or
    none (ISO-8859-1): the exported file read back with names such as 'cÃ©sar'."""
    data = "#player1 césar César\n#player2 doug Doug\n>césar: DINNVWY 8D WINDY +32 32\n"
    for raw in (data.encode("latin-1"), ("#character-encoding ISO-8859-2\n" + data).encode("iso-8859-2")):
        path = tmp_path / "game.gcg"
        path.write_bytes(raw)
        assert main(["gcg", "export", str(path)]) == 0
        exported = capsysbinary.readouterr().out
        assert exported.startswith(b"#character-encoding UTF-8\n")
        again = gcg.parse_bytes(exported)
        assert not again.errors and again.players == gcg.load(path).players
        assert again.players[0].name == "César"


def test_export_says_by_its_exit_status_that_lines_could_not_be_read(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    """With a line it could not read, gcg export printed 'error: ...' and exited 1 for GCG but 0
    for --to cgp and --to json (the position of the lines before it came out as if complete)."""
    path = tmp_path / "cut.gcg"
    path.write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n>bob: DEIL\n")
    for to in ("gcg", "cgp", "json"):
        assert main(["gcg", "export", "--to", to, str(path)]) == 1, to
        assert "error: " in capsys.readouterr().err


def test_export_gives_players_sharing_a_nickname_their_own(capsysbinary: pytest.CaptureFixture[bytes],
                                                            tmp_path: Path) -> None:
    """Quackle writes 'NoName' for both players of a game it was not told the names of
    (quackle__consonant_heaviness_tendency.gcg): qiza reads such a record, but gcg export
    failed ('nickname is used twice'). The second player is now written under a nickname of
    their own, with their events, and the exported record replays the same."""
    path = tmp_path / "game.gcg"
    path.write_text("#player1 NoName New Player 2\n#player2 NoName jasonkb\n"
                    ">NoName: ABELNUW 8D BLAWN +26 26\n>NoName: ADRSTYZ F8 ADZ +33 33\n"
                    ">NoName: EEFGRTU 11E REFUGE +34 60\n")
    assert main(["gcg", "export", str(path)]) == 0
    captured = capsysbinary.readouterr()
    assert b"warning: player 2's nickname 'NoName' is also another player's: written as 'NoName_2'" in captured.err
    again = gcg.parse_bytes(captured.out)
    assert not again.errors and not again.warnings
    assert [p.nick for p in again.players] == ["NoName", "NoName_2"]
    assert [e.player for e in again.events] == ["NoName", "NoName_2", "NoName"]
    replayed = gcg.replay(again)
    assert replayed.clean and replayed.game is not None and replayed.game.scores == [60, 33]


@pytest.mark.parametrize("encoding", ["idna", "undefined", "punycode", "rot13", "cp037"])
def test_dump_refuses_an_encoding_it_could_not_read_back(tmp_path: Path, encoding: str) -> None:
    """idna and undefined were a UnicodeError traceback; punycode and EBCDIC wrote files whose
    #character-encoding line no reader finds."""
    record = gcg.loads(">ann: AEINRST 8D RETAINS +66 66\n")
    record.character_encoding = encoding
    with pytest.raises(gcg.FileFormatError, match=f"cannot write the record in {encoding}"):
        gcg.dump(record, tmp_path / "game.gcg")


@pytest.mark.parametrize("change, shown", [
    (lambda r: setattr(r, "title", "a\x00b"), "control character"),  # read back as 'ab', with a warning
    (lambda r: setattr(r, "title", "  spaced  "), "start or end with spaces"),  # read back stripped
    (lambda r: setattr(r.players[0], "name", "  Ann"), "start or end with spaces"),
    (lambda r: r.pragmas.append(("player3", "x X")), "#player3: not the name of a pragma"),  # a third player
    (lambda r: r.pragmas.append(("note", "hi")), "#note: not the name"),  # a note
    (lambda r: r.pragmas.append(("rack1", "ABC")), "#rack1: not the name"),  # a final rack
    (lambda r: r.pragmas.append(("bad name", "x")), "#bad name: not the name"),  # the pragma #bad
    (lambda r: r.notes.append("a\x1b[2Jb"), "control character"),
    (lambda r: setattr(r.events[0], "extra", "a  b"), "runs of spaces"),
    (lambda r: setattr(r.events[0], "score", 10 ** 7), "more than the 6 digits"),  # not read at all
    (lambda r: setattr(r.events[0], "total", -(10 ** 6)), "more than the 6 digits"),
    (lambda r: r.events.append(gcg.Event("bob", gcg.EventType.EXCHANGE, "ABCDEFG", 0, 0, count=100)), "1 to 99"),
    (lambda r: r.final_racks.update({5: "ABC"}), "#rack5: players are numbered 1 to 4"),
])
def test_the_writer_refuses_what_would_read_back_as_another_record(change: Any, shown: str) -> None:
    """Each was written, and read back different (or with an error): the writer is strict."""
    record = gcg.loads("#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETINAS +66 66\n")
    change(record)
    with pytest.raises(gcg.FileFormatError, match=shown):
        gcg.dumps(record)


def test_a_game_record_reads_back_as_written_whatever_the_names_and_title() -> None:
    """from_game wrote an empty name as the nickname (read back as another record) and a title
    with a line break or a control character as it was."""
    from qiza import COMPUTER, Game

    game = Game(COMPUTER, players=["  Ann ", "B\x1b[31mob\x85", " "], seed=1)
    game.play(game.legal_moves()[0].move)
    game.resign(2)
    record = gcg.from_game(game, title=" The\nfinal\x00 ")
    assert record.title == "The final" and record.players[2] == gcg.Player("player3", "player3")
    assert gcg.loads(gcg.dumps(record)) == record


@pytest.mark.parametrize("text", ["#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n#player1 c C\n",
                                  ">bob: ABC (ABC) -7 -7\n#player2 bob Bob\n",
                                  ">bob: ABC -- -5 -5\n#player1 ann Ann\n"])
def test_a_player_line_after_the_events_that_renames_or_reseats_a_player_is_an_error(text: str) -> None:
    """Read without an error, such a record was one dumps refused (a player of the events with no
    #player line, or a nickname twice)."""
    record = gcg.loads(text)
    assert any("after the first event renames or seats again" in str(e) for e in record.errors)


GCG_LINES = ["#player1 ann Ann", "#player2 bob Bob B", "#player3 cat", "#player1 ann", "#title T", "#description  d ",
             "#id io.woogles X", "#lexicon NWL23", "#incomplete", "#note hi", "continued", "#rack1 ABC", "#rack3 ??",
             "#foo bar", "#tile-distribution french", ">ann: AEINRST 8D RETINAS +66 66", ">bob: ABC - +0 0",
             ">ann: ABC -AB +0 66", ">ann: ABC -2 +0 66", ">bob: ABC -- -5 -5", ">ann: (ABC) +14 80",
             ">bob: ABC (ABC) -7 -7", ">ann: ABC (challenge) +5 71", ">bob: ABC (time) -10 -10", ">ann: ?BC 8H bC +3 3",
             ">ann: ABC 8H A(B)C +5 5", ">ann: ABC 8H ABC +5 5 ABC CAB", ">cat: ABC - +0 0", ">ann:  (challenge) +5 5",
             "#note #unsuccessful-challenge", "#note #challenger bob", "#player4 dan Dan", ">dan: A - +0 0", "",
             "#PLAYER2 bob Bob", "#Title X", ">ann: abc - +0 0", ">ann: AEINRST (challenge) -5 -5", ">ann: AEINRST -0 +0 0"]


def test_every_record_read_without_an_error_is_written_and_read_back_equal() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        text = "\n".join(rng.choice(GCG_LINES) for _ in range(rng.randrange(1, 9))) + "\n"
        record = gcg.loads(text)
        if not record.errors:
            assert gcg.loads(gcg.dumps(record)) == record, text


def test_replay_game_is_always_a_game(tmp_path: Path) -> None:
    """``gcg.replay(record).game`` was ``Game | None``, so ``result.game.scores`` (the README's
    own example) failed ``mypy --strict`` in a user's script: a record no game can be made of
    raises instead, and the game is always there."""
    import typing

    from qiza.gcg.replayer import Replay

    assert typing.get_type_hints(Replay)["game"] is Game
    with pytest.raises(gcg.FileFormatError, match="no players"):
        gcg.replay(gcg.loads(""))
    path = tmp_path / "stranger.gcg"
    path.write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n#player1 c C\n", encoding="utf-8")
    [(_, record, result)] = gcg.check_files([path])
    assert result is None and "'a' is not a player of the record" in str(record.errors[-1])
    assert record.errors[-1].line == 3


def test_replay_is_the_function_and_the_module_has_a_name_of_its_own() -> None:
    """``qiza.gcg.replay`` was a module and a function: ``from qiza.gcg import replay`` gave the
    function, ``importlib.import_module("qiza.gcg.replay")`` (and ``from qiza.gcg.replay import
    ...``) the module. The module is ``qiza.gcg.replayer``; its old name still imports, warning."""
    import importlib

    from qiza.gcg import replay, replayer

    assert replay is replayer.replay is gcg.replay and callable(replay)
    old = importlib.import_module("qiza.gcg.replay")
    assert old is not replayer
    with pytest.warns(DeprecationWarning, match="qiza.gcg.replayer"):
        assert old.Replay is gcg.Replay
    namespace: dict[str, object] = {}
    with pytest.warns(DeprecationWarning, match="import Difference from qiza.gcg or qiza.gcg.replayer"):
        exec("from qiza.gcg.replay import Difference", namespace)
    assert namespace["Difference"] is gcg.Difference
    with pytest.raises(AttributeError):
        old.no_such_name  # noqa: B018


def test_the_seat_of_no_player_of_the_record_is_the_records_error() -> None:
    """GameRecord.seat('nobody') and seat_of an event of no player raised a bare KeyError('nobody'):
    a FileFormatError naming the player (and the event's line), still a KeyError for old callers."""
    record = gcg.loads("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n#player1 c C\n")
    with pytest.raises(gcg.FileFormatError, match="'nobody' is not a player of the record \\(c, b\\)"):
        record.seat("nobody")
    with pytest.raises(gcg.FileFormatError, match="^3: 'a' is not a player of the record \\(c, b\\)$") as caught:
        record.seat_of(record.events[0])
    assert caught.value.line == 3 and isinstance(caught.value, KeyError)
    assert record.seat("b") == 1


def test_the_games_seat_of_a_seat_the_record_does_not_have_is_refused() -> None:
    """Replay.game_seat(-1) or (2) of a two-player record gave a seat of the game all the same
    (the seat turned modulo the players)."""
    result = gcg.replay(gcg.loads("#player1 a A\n#player2 b B\n>b: AEINRST 8D RETAINS +66 66\n"))
    assert result.first == 1 and [result.game_seat(seat) for seat in (0, 1)] == [1, 0]
    for seat in (-1, 2):
        with pytest.raises(QizaError, match=f"the record has seats 0 to 1 \\(0-based\\), not {seat}"):
            result.game_seat(seat)


def test_the_replays_game_plays_on_with_the_lexicon_given() -> None:
    """gcg.replay(record, lexicon='twl06').game kept the replay's stand-in lexicon (named TWL06,
    one word): legal_moves() was empty and a challenge upheld any word, so a research script
    analysing the position after a record silently found no moves."""
    record = gcg.loads("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n#rack2 LNRIEEA\n")
    twl = load_lexicon("twl06")
    result = gcg.replay(record, lexicon=twl)
    assert result.clean and result.game.lexicon is twl and not result.game.over
    moves = result.game.legal_moves()
    assert moves and all(not result.game.invalid_words(move) for move in moves[:20])
    assert gcg.replay(record).game.lexicon.name == "any"  # without a lexicon: the stand-in, as documented


TWO_ANNS = ("#player1 Ann Ann\n#player2 Ann Ann\n"
            ">Ann: ABELNUW 8D BLAWN +26 26\n>Ann: ADRSTYZ F8 ADZ +33 33\n>Ann: EEFGRTU 11E REFUGE +34 60\n")


def test_dumps_writes_players_who_share_a_nickname_with_their_own() -> None:
    """Two people called Ann: the reader tells their events apart (by turn order and totals),
    but gcg.dumps refused the record ('nickname 'Ann' is used twice'), so a record read could
    not be written back. The second Ann is written as Ann_2 with her events, her full name kept."""
    record = gcg.loads(TWO_ANNS)
    assert gcg.written_nicknames(record) == ["Ann", "Ann_2"]
    text = gcg.dumps(record)
    assert text.startswith("#player1 Ann Ann\n#player2 Ann_2 Ann\n>Ann: ABELNUW 8D BLAWN +26 26\n>Ann_2: ADRSTYZ")
    again = gcg.loads(text)
    assert not again.errors and not again.warnings and [p.name for p in again.players] == ["Ann", "Ann"]
    assert [e.player for e in again.events] == ["Ann", "Ann_2", "Ann"]
    assert record.players[1].nick == "Ann"  # the record written is not changed
    replayed = gcg.replay(again)
    # the game replayed tells them apart as the front ends do (a Game refuses two players of one name)
    assert replayed.clean and replayed.game.scores == [60, 33] and replayed.game.players == ["Ann 1", "Ann 2"]
    # the second Ann does not take the nickname of a third player, Ann_2
    three = gcg.loads("#player1 Ann Ann\n#player2 Ann Ann\n#player3 Ann_2 Ann Two\n")
    assert gcg.written_nicknames(three) == ["Ann", "Ann_2_2", "Ann_2"]
    # an event of a shared nickname that does not say whose it is (a record made by hand) is refused
    made = gcg.GameRecord(players=[gcg.Player("Ann", "Ann"), gcg.Player("Ann", "Ann")],
                          events=[gcg.Event("Ann", gcg.EventType.PASS, "", 0, 0)])
    with pytest.raises(gcg.FileFormatError, match="players share the nickname 'Ann' and the event does not say whose"):
        gcg.dumps(made)
    made.events[0].seat = 1
    assert gcg.dumps(made).endswith("#player2 Ann_2 Ann\n>Ann_2:  - +0 0\n")


def test_a_player_number_declared_twice_is_named() -> None:
    """A second #player1 line replaced the first without a word: the events of the first player
    were then refused as 'player 'a' is not declared by a #player pragma', although it was."""
    record = gcg.loads("#player1 a Ann\n#player1 b Bob\n>a: AEINRST 8D RETAINS +66 66\n")
    assert record.players[0].nick == "b"
    warning = record.warnings[0]
    assert warning.line == 2
    assert "#player1 given again (line 1 declared 'a'): 'b' replaces it" in str(warning)
    again = gcg.loads("#player1 a Ann\n#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 66\n")
    assert not again.warnings and not again.errors  # the same line twice says nothing new


def test_a_score_of_too_many_digits_is_named() -> None:
    """A score of 7 digits was called a 'truncated event' (the line is whole)."""
    record = gcg.loads("#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +9999999 9999999\n")
    assert "'+9999999': scores and totals are numbers of at most 6 digits" in str(record.errors[0])
    record = gcg.loads("#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 " + "6" * 100 + "\n")
    error = str(record.errors[0])
    assert "'666666666666...': scores and totals are numbers" in error and len(error) < 100
    record = gcg.loads("#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS\n")
    assert "truncated event" in str(record.errors[0])


def test_cli_check_reads_the_records_of_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza gcg check ~/games/' said 'cannot read: Is a directory', where qiza analyze and
    qiza puzzle read a folder's records."""
    games = tmp_path / "games"
    (games / "2026").mkdir(parents=True)
    (games / "a.gcg").write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n")
    (games / "2026" / "b.GCG").write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +9 9\n")
    (games / "notes.txt").write_text("not a record")
    assert main(["gcg", "check", str(games)]) == 1
    out = capsys.readouterr().out
    assert f"{games / 'a.gcg'}: 1 move checked, ok" in out and f"{games / '2026' / 'b.GCG'}: 1 move" in out
    assert "notes.txt" not in out and "total: 2 files, 2 moves checked, 1 difference in 1 file" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["gcg", "check", str(empty)]) == 1
    out = capsys.readouterr().out
    assert f"{empty}: no GCG records (.gcg files) in this folder" in out and "total: 0 files" in out


def test_show_says_a_record_has_errors_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza gcg show' printed the lines the reader could not take as warnings and exited 0, as
    if the game shown were the whole record; 'gcg check' counts them as errors."""
    path = tmp_path / "cut.gcg"
    path.write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: DINNVWY 8D WINDY +32 32\n>bob: ADEEGIL 7C GALE\n")
    assert main(["gcg", "show", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"error: {path}:4: truncated event" in err and "warning:" not in err, err
    path.write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: DINNVWY 8D WINDY +32 32\n")
    assert main(["gcg", "show", str(path)]) == 0


# a PNG's first bytes, a gzip'd record's, random bytes: no text file holds NUL bytes
NOT_TEXT = [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", b"\x1f\x8b\x08\x00\xa3\xf1\x9b>\x00\x03\xed\x9d",
            random.Random(5).randbytes(3000)]


@pytest.mark.parametrize("data", NOT_TEXT, ids=["png", "gzip", "random"])
@pytest.mark.parametrize("action", [["show"], ["export"], ["export", "--to", "cgp"], ["export", "--to", "json"]])
def test_a_binary_file_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes,
                                          action: list[str]) -> None:
    """'gcg export --to cgp' of a binary file printed its bytes as 'error: FILE:1: not a pragma
    (#...) or an event (>...): <junk>' lines before its error (and the error repeated the first);
    'gcg export' wrote a record ('#character-encoding UTF-8') with them."""
    path = tmp_path / "game.gcg"
    path.write_bytes(data)
    assert main(["gcg", *action, str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    line = len(data[:data.index(0)].replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n"))  # the first NUL's
    assert captured.err == f"qiza gcg: {path}:{line}: {gcg.reader.BINARY}\n"


def test_a_nul_byte_in_a_record_of_a_game_is_a_warning() -> None:
    """The lines of a record holding a stray NUL byte are still read (it is removed, with a warning)."""
    record = gcg.parse_bytes(b"#player1 a A\n#player2 b B\n#note x\x00y\n>a: ENORSTU 8F NOT +6 6\n")
    assert not record.errors and record.notes == ["xy"] and "control characters" in str(record.warnings[0])


@pytest.mark.parametrize("action", [["show"], ["export"], ["export", "--to", "cgp"]])
@pytest.mark.parametrize("name, data, message", [
    ("empty.gcg", b"", "{path}: no game in it (no #player line, no move)"),
    ("folder", None, "{path}: cannot read: Is a directory"),
])
def test_an_empty_file_or_a_folder_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      action: list[str], name: str, data: bytes | None,
                                                      message: str) -> None:
    """'gcg export' of an empty file wrote '#character-encoding UTF-8' and exited 0; of a folder it
    said 'cannot read' and wrote that line too; '--to cgp' said 'cannot read' twice."""
    path = tmp_path / name
    if data is None:
        path.mkdir()
    else:
        path.write_bytes(data)
    assert main(["gcg", *action, str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"qiza gcg: {message.format(path=path)}\n"


def test_cli_check_counts_unreadable_lines_as_errors_not_differences(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza gcg check /etc/passwd' said '0 moves checked, 25 differences': the engine differed
    from nothing. Lines that are no GCG are errors; differences are the engine's with moves read."""
    (tmp_path / "notes.gcg").write_text("root:x:0:0\nbin:x:2:2\n")
    (tmp_path / "b.gcg").write_text("#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +9 9\nstray line\n")
    assert main(["gcg", "check", str(tmp_path / "notes.gcg"), str(tmp_path / "b.gcg")]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'notes.gcg'}: 0 moves checked, 2 errors\n" in out
    assert f"{tmp_path / 'b.gcg'}: 1 move checked, 1 error, 1 difference\n" in out
    assert out.splitlines()[-1] == "total: 2 files, 1 move checked, 3 errors, 1 difference in 2 files"


def test_file_names_never_act_on_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record of a folder named with an escape sequence ('\\x1b[2J.gcg': a downloaded archive's)
    was printed as it is by 'gcg check' and in the errors of every command: the terminal cleared
    its screen. Control characters are shown as symbols (text.visible)."""
    name = "a\x1b[2J.gcg"
    (tmp_path / name).write_bytes(b"\x00binary")
    assert main(["gcg", "check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and f"{tmp_path}/a\u241b[2J.gcg: 0 moves checked, 1 error" in out
    assert main(["gcg", "show", str(tmp_path / name)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.startswith(f"qiza gcg: {tmp_path}/a\u241b[2J.gcg:1: binary data")


def test_export_says_what_it_read_otherwise_than_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'gcg export' wrote a record read with warnings (a declared character set the text is not
    in, control characters removed) without a word of them, where 'gcg show' names them."""
    path = tmp_path / "game.gcg"
    path.write_bytes(b"#character-encoding UTF-8\n#player1 c\xe9sar C\xe9sar\n#player2 doug Doug\n#title a\x07b\n"
                     b">c\xe9sar: DINNVWY 8D WINDY +32 32\n")
    for to in ("gcg", "cgp"):
        assert main(["gcg", "export", "--to", to, str(path)]) == 0
        assert capsys.readouterr().err.splitlines() == [
            f"warning: {path}:2: text is not valid UTF-8 (byte 0xe9): read as UTF-8 or Windows-1252",
            f"warning: {path}:4: control characters removed (a terminal would take them as commands)"]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read_with_a_warning(encoding: str) -> None:
    """UTF-16 saved without a byte order mark has a NUL byte in each letter of a Latin alphabet:
    it is text, not binary data (which it was taken for once NUL bytes made a file binary)."""
    data = "#player1 césar César\n#player2 doug Doug\n>césar: DINNVWY 8D WINDY +32 32\n".encode(encoding)
    record = gcg.parse_bytes(data, path="game.gcg")
    assert not record.errors and record.players[0].name == "César" and len(record.events) == 1
    assert [str(w) for w in record.warnings] == [
        f"game.gcg:1: UTF-16 text without a byte order mark: read as {encoding.upper()}"]


def _one_seat_game() -> Game:
    """An unfinished game of two with placements (a blank among them), an exchange and a pass."""
    from qiza.players import make_player

    game = Game(CLASSIC.with_options(challenge="double", first_player="fixed"), players=["Ann", "Bob"],
                lexicon="enable", seed=3)
    player = make_player("maxscore", game.lexicon, seed=1)
    for _ in range(4):
        game.play(player.choose(game.view(game.to_move)))
    game.play("exchange " + game.rack_text(game.to_move)[:2])
    game.play("pass")
    return game


def test_a_one_seat_export_writes_what_the_readers_need_and_no_hidden_rack() -> None:
    """gcg.from_game(game, seat=...) of an unfinished game wrote the other players' placements
    with an empty rack field ('>Bob:  8H dEWAX +44 44'): Quackle's reader (fields split on
    spaces) takes the square for the rack, Macondo's matches no move. Their racks are written as
    Quackle and Macondo write an opponent's: the tiles placed, which the board shows (a blank ?);
    nothing else of a hidden rack gets into the file."""
    game = _one_seat_game()
    assert not game.over
    for seat in (0, 1):
        text = gcg.dumps(gcg.from_game(game, seat=seat))
        again = gcg.loads(text)
        assert not again.errors and not again.warnings
        replayed = gcg.replay(again)
        assert replayed.clean and replayed.game is not None and replayed.game.scores == game.scores
        other = 1 - seat
        nick = again.players[other].nick
        placed = 0
        for event, entry in zip(again.events, game.history):
            if event.player != nick:
                assert event.rack == entry.rack  # the seat's own racks, as before
                continue
            if event.type is gcg.EventType.PLACE:
                tiles = "".join("?" if ch.islower() else ch for ch in event.word if ch != ".")
                assert event.rack == tiles, text  # the tiles placed: public
                assert re.fullmatch(r">\S+: \S+ \w+ \S+ \+\d+ \d+", f">{nick}: {event.rack} {event.position} "
                                    f"{event.word} +{event.score} {event.total}")
                placed += 1
            else:  # a pass or an exchange shows nothing of the rack
                assert event.rack == "" and not event.tiles, text
        assert placed == 2
        assert f"#rack{other + 1}" not in text and game.rack_text(other) not in text.split()
        kept = [r.rack for r in game.history if r.seat == other]
        written = {event.rack for event in again.events if event.player == nick}
        assert all(rack not in written for rack in kept if len(rack) == 7), text  # no full rack of theirs
