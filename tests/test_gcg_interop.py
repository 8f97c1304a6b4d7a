"""GCG records as other programs write and read them: the names of the Super board and tiles,
the character set of files without a ``#character-encoding`` line, decomposed letters, and
Finish Line games."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GameFactory

from qiza import cgp, gcg
from qiza.alphabet import SPANISH, SUPER, TILE_SETS
from qiza.cli import main
from qiza.errors import FileFormatError
from qiza.game import Game
from qiza.languages import LANGUAGES
from qiza.layout import find_layout
from qiza.lexicon import Lexicon, LoadReport
from qiza.move import parse_move
from qiza.rules import Notation, find_preset, finish_line
from qiza.sheet import EndReason

SUPER_WORDS = Lexicon("TEST", ["AT", "TA", "CAT", "ACT"], tile_set=SUPER)


def test_a_super_game_is_written_with_macondos_names_and_old_names_still_read() -> None:
    """Macondo and Woogles read ``#board-layout SuperCrosswordGame`` and ``#tile-distribution
    english_super`` (qiza wrote ``super`` for both, which Macondo refuses: 'unsupported board layout')."""
    game = Game(find_preset("super"), players=["Ann", "Bob"], lexicon=SUPER_WORDS, seed=3)
    game.set_rack(0, "CATEEEE")
    game.play("K11 CAT")
    text = gcg.dumps(gcg.from_game(game))
    assert "#board-layout SuperCrosswordGame\n" in text and "#tile-distribution english_super\n" in text
    assert "#board-layout super" not in text and "#tile-distribution super" not in text
    record = gcg.loads(text)
    assert gcg.rules_for(record).layout is find_layout("super") and gcg.tile_set_for(record) is SUPER
    result = gcg.replay(record)
    assert result.clean and result.game is not None and result.game.board == game.board
    # qiza's older files
    old = gcg.loads(text.replace("SuperCrosswordGame", "super").replace("english_super", "super"))
    assert gcg.rules_for(old).layout is find_layout("super") and gcg.tile_set_for(old) is SUPER
    # Macondo takes the Super tiles of a lexicon's language from the board when no distribution is named
    bare = gcg.loads(text.replace("#tile-distribution english_super\n", ""))
    assert gcg.tile_set_for(bare) is SUPER


def test_woogles_older_header_notes_name_the_board_and_the_tiles() -> None:
    """Macondo, and so Woogles, wrote the variant, board and tiles of a game as notes before the
    first event (``#note BoardLayout: SuperCrosswordGame``) before it wrote the pragmas: such a
    record was replayed on the standard board ("off the 15x15 board")."""
    game = Game(find_preset("super"), players=["Ann", "Bob"], lexicon=SUPER_WORDS, seed=3)
    game.set_rack(0, "CATEEEE")
    game.play("K11 CAT")
    text = gcg.dumps(gcg.from_game(game))
    older = text.replace("#board-layout SuperCrosswordGame\n", "") \
        .replace("#tile-distribution english_super\n", "") \
        .replace("#player1", "#note Variant: classic\n#note BoardLayout: SuperCrosswordGame\n"
                             "#note LetterDistribution: english_super\n#player1")
    record = gcg.loads(older)
    assert not record.errors and not record.warnings, (record.errors, record.warnings)
    assert (record.game_type, record.board_layout, record.tile_distribution) == \
        ("classic", "SuperCrosswordGame", "english_super")
    assert record.notes == []  # read as the pragmas they stand for: written back as those
    assert gcg.rules_for(record).layout is find_layout("super") and gcg.tile_set_for(record) is SUPER
    result = gcg.replay(record)
    assert result.clean and result.game is not None and result.game.board == game.board
    # a pragma of the file wins over a note that says otherwise, which stays a note
    both = gcg.loads("#board-layout CrosswordGame\n#note BoardLayout: SuperCrosswordGame\n#player1 a A\n")
    assert both.board_layout == "CrosswordGame" and both.notes == ["BoardLayout: SuperCrosswordGame"]
    # the same words after the first event are an ordinary note
    later = gcg.loads(text + "#note BoardLayout: SuperCrosswordGame\n")
    assert later.events[-1].notes == ["BoardLayout: SuperCrosswordGame"]


def test_a_time_penalty_written_plus_minus_is_read_as_macondo_reads_it() -> None:
    """Macondo reads a time penalty written with both signs (``(time) +-10``, as a score
    printed with '+' before a negative number comes out); qiza said 'truncated event'."""
    text = "#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 66\n>b: ADEEGIL (time) +-10 -10\n"
    record = gcg.loads(text)
    assert not record.errors and not record.warnings, (record.errors, record.warnings)
    penalty = record.events[1]
    assert penalty.type is gcg.EventType.TIME_PENALTY and penalty.score == -10 and penalty.total == -10
    assert gcg.loads(gcg.dumps(record)).events == record.events  # written as the format writes it: -10
    assert ">b: ADEEGIL (time) -10 -10" in gcg.dumps(record)


def test_a_file_without_an_encoding_line_is_read_as_windows_1252() -> None:
    """Files made on Windows hold curly quotes, the euro sign, œ, Š ... in bytes 0x80-0x9f, which
    ISO-8859-1 reads as control characters: they were dropped with a warning. The five bytes
    Windows-1252 leaves undefined are still control characters, dropped."""
    text = "#player1 Šárka Šárka Nováková\n#player2 zoë Zoë “Cœur” O’Neil\n#title Prix 20 € – final…\n" \
           ">Šárka: AEINRST 8D RETAINS +66 66\n#note “nice”\n>zoë: ADEILNO 9D ADO +12 12\n"
    record = gcg.parse_bytes(text.encode("cp1252"))
    assert not record.errors and not record.warnings, (record.errors, record.warnings)
    assert [p.nick for p in record.players] == ["Šárka", "zoë"]
    assert record.players[1].name == "Zoë “Cœur” O’Neil" and record.title == "Prix 20 € – final…"
    assert record.events[0].notes == ["“nice”"] and record.events[1].line == 6
    undefined = gcg.parse_bytes(b"#player1 a A\x81\x8d\x8f\x90\x9dB\n>a: AEINRST 8D RETAINS +66 66\n")
    assert undefined.players[0].name == "AB" and [w.line for w in undefined.warnings] == [1]
    # a declared character set is read as declared, ISO-8859-1 too
    declared = gcg.parse_bytes(b"#character-encoding ISO-8859-1\n#player1 a A\x80B\n")
    assert declared.players[0].name == "AB" and declared.warnings


def test_a_file_without_an_encoding_line_in_utf8_is_read_as_utf8() -> None:
    """Editors today save UTF-8 without saying so: such a file read as ISO-8859-1 named "Zoë"
    "ZoÃ«" (as Macondo still does). Valid UTF-8 is read as UTF-8; anything else as before."""
    text = "#player1 zoë Zoë “Cœur” O’Neil\n#player2 šárka Šárka\n>zoë: AEINRST 8D RETAINS +66 66\n"
    record = gcg.parse_bytes(text.encode("utf-8"))
    assert not record.errors and not record.warnings, (record.errors, record.warnings)
    assert [p.name for p in record.players] == ["Zoë “Cœur” O’Neil", "Šárka"]
    # Windows-1252 bytes are no valid UTF-8: read as before
    assert gcg.parse_bytes(text.encode("cp1252")).players[0].name == "Zoë “Cœur” O’Neil"


# -- decomposed letters ---------------------------------------------------------------------------

N_TILDE = "N\u0303"  # Ñ as macOS types it: N and the combining tilde (NFD)
SPANISH_WORDS = Lexicon("TEST", frozenset(["AÑO", "AÑOS", "OSO", "ÑU"]), LoadReport(), tile_set=SPANISH)


def test_decomposed_letters_are_the_composed_tiles_wherever_text_is_read(capsys: pytest.CaptureFixture[str]) -> None:
    """Text typed on macOS decomposes Ñ into N + U+0303 (NFD): racks, words and moves holding it
    were refused ("'\u0303' is not a letter of the spanish tile set"). Text is read as NFC."""
    assert SPANISH.codes(f"A{N_TILDE}O?") == SPANISH.codes("AÑO?")
    assert SPANISH.codes(f"a{N_TILDE.lower()}o") == SPANISH.codes("añO".lower())
    assert SPANISH.code(N_TILDE) == SPANISH.code("Ñ") and SPANISH.code_string(f"A{N_TILDE}O") == SPANISH.code_string("AÑO")
    # the move parser, so every front end: the terminal, the web, saved games' actions
    game = Game(find_preset("classic").with_options(challenge="auto"), players=["Ana", "Íñigo"],
                lexicon=SPANISH_WORDS, seed=2)
    game.set_rack(0, f"A{N_TILDE}OSEEE")
    assert game.rack_text(0) == "AÑOSEEE"
    record = game.play(f"H8 A{N_TILDE}OS")
    assert record.words == ("AÑOS",) and game.board.rows_text()[7][7:11] == "AÑOS"
    assert parse_move(f"exchange {N_TILDE.lower()}?", Notation.RULEBOOK) == parse_move("exchange ñ?", Notation.RULEBOOK)
    # word lists and word tools
    assert f"A{N_TILDE}O" in SPANISH_WORDS and not SPANISH_WORDS.invalid_words([f"a{N_TILDE.lower()}o"])
    assert SPANISH_WORDS.anagrams(f"OA{N_TILDE}") == ["AÑO"]
    spanish = LANGUAGES["spanish-debian"]
    assert spanish.playable([f"a{N_TILDE.lower()}o", "n\u0303u"])[0] == {"AÑO", "ÑU"}  # not ANO, NU
    # a GCG record: its racks, words and #rack lines; nicknames match whichever way they are written
    text = ("#character-encoding UTF-8\n#tile-distribution spanish\n#player1 I\u0301n\u0303igo Íñigo\n"
            f"#player2 ana Ana\n>Íñigo: A{N_TILDE}OSEEE 8E A{N_TILDE}OS +22 22\n#rack1 {N_TILDE}UEEEEE\n")
    read = gcg.parse_bytes(text.encode("utf-8"))
    assert not read.errors, read.errors
    assert read.events[0].rack == "AÑOSEEE" and read.events[0].word == "AÑOS" and read.final_racks[1] == "ÑUEEEEE"
    result = gcg.replay(read)
    assert result.clean and result.game is not None and result.game.board.rows_text()[7][4:8] == "AÑOS"
    # a CGP position's board and racks (qiza best)
    position = cgp.loads(f"15/15/15/15/15/15/15/3A{N_TILDE}OS8/15/15/15/15/15/15/15 {N_TILDE}UEEEEE/ 14/0 0 ld spanish")
    assert position.racks[0] == "ÑUEEEEE" and position.board.rows_text()[7][3:7] == "AÑOS"
    if spanish.path.is_file():  # the Debian list (CI installs it)
        assert main(["words", "--lexicon", "spanish-debian", "check", f"a{N_TILDE.lower()}o"]) == 0
        assert "AÑO: valid" in capsys.readouterr().out


# -- Finish Line ----------------------------------------------------------------------------------

def _finish_line_game() -> Game:
    """A Finish Line game (Ann a beginner, target 70; Bob an expert, 200) that Ann ends at her second play."""
    rules = finish_line(["beginner", "expert"]).with_options(challenge="single", first_player="fixed")
    game = Game(rules, players=["Ann", "Bob"], lexicon=Lexicon("TEST", ["RETINAS", "ZO"]), seed=4)
    game.set_rack(0, "AEINRST")
    game.play("H8 RETINAS")
    game.set_rack(1, "EEEIIIU")
    game.play("pass")
    game.set_rack(0, "ZOEEEEE")
    game.play("H7 ZO")
    game.accept()
    assert game.over and game.end_reason is EndReason.FINISH_LINE and game.winners == [0]
    return game


def test_a_finish_line_record_replays_to_its_end() -> None:
    """Finish Line (RULES.md): the game ends the moment a player reaches their target, without
    counting the racks. A record of one said nothing of it, and its replay left the game open after
    the last line. qiza writes the targets as a tag note of the first event (Macondo and Quackle
    keep it as a note) and the replay plays to them."""
    game = _finish_line_game()
    text = gcg.dumps(gcg.from_game(game))
    assert "\n>Ann: AEINRST 8H RETINAS +66 66\n#note #finish-line 70 200\n" in text and "#incomplete" not in text
    record = gcg.loads(text)
    assert gcg.rules_for(record).finish_line == (70, 200)
    result = gcg.replay(record)
    assert result.clean, [str(d) for d in result.differences]
    assert result.game is not None and result.game.over and result.game.end_reason is EndReason.FINISH_LINE
    assert result.game.winners == [0] and result.game.scores == game.scores
    # the targets are the record's players', whoever moves first
    swapped = text.replace("#player1 Ann Ann\n#player2 Bob Bob", "#player1 Bob Bob\n#player2 Ann Ann")
    result = gcg.replay(gcg.loads(swapped.replace("#finish-line 70 200", "#finish-line 200 70")))
    assert result.clean and result.game is not None and result.game.over and result.game.winners == [0]
    assert result.game.players == ["Ann", "Bob"]
    # targets that do not fit the players are the record's error, not a traceback
    for bad in ("#finish-line 70", "#finish-line 70 x", "#finish-line 70 0", "#finish-line 70 1234567"):
        with pytest.raises(gcg.FileFormatError, match="#finish-line"):
            gcg.replay(gcg.loads(text.replace("#finish-line 70 200", bad)))


def _notes_before_the_first_event(text: str) -> list[str]:
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith(">")), len(lines))
    return [line for line in lines[:first] if line.startswith("#note")]


def test_no_note_precedes_the_first_event_of_a_game_written() -> None:
    """Macondo (and so Woogles) attaches a note to the event before it: before the first event it
    drops the note, and the line after it, when no pattern of Macondo's reads it (a note's second
    line), indexes the event before the first and stops the reader. qiza wrote the Finish Line
    targets there (``#note #finish-line 70 200`` before ``>Ann:``): they are a note of the first
    event now, and a file of the old form still reads."""
    game = _finish_line_game()
    record = gcg.from_game(game)
    text = gcg.dumps(record)
    assert _notes_before_the_first_event(text) == [] and not record.notes
    read = gcg.loads(text)
    assert read == record and read.finish_line == (70, 200) and read.events[0].notes == ["#finish-line 70 200"]
    # the old form: the note before the first event
    lines = text.splitlines()
    lines.remove("#note #finish-line 70 200")
    lines.insert(next(i for i, line in enumerate(lines) if line.startswith(">")), "#note #finish-line 70 200")
    old = gcg.loads("\n".join(lines) + "\n")
    assert old.notes == ["#finish-line 70 200"] and old.finish_line == (70, 200)
    result = gcg.replay(old)
    assert result.clean and result.game is not None and result.game.end_reason is EndReason.FINISH_LINE
    # games of other kinds: a resignation's note follows the last event
    for rules, names in ((find_preset("classic"), ["Ann", "Bob"]),
                         (finish_line(["beginner", "expert", "expert"]), ["Ann", "Bob", "Cy"])):
        game = Game(rules, players=names, lexicon=Lexicon("TEST", ["RETINAS"]), seed=2)
        game.set_rack(game.to_move, "AEINRST")
        game.play("H8 RETINAS")
        game.accept()
        game.resign(game.to_move)
        text = gcg.dumps(gcg.from_game(game))
        assert _notes_before_the_first_event(text) == [] and "resigned" in text, text


def test_a_super_set_qiza_does_not_have_is_refused() -> None:
    """``catalan_super`` (Macondo's 200-tile Catalan set) was read as the 100 Catalan tiles: a
    wrong bag. qiza has only the English Super set: such a record or position is refused."""
    record = gcg.loads("#tile-distribution catalan_super\n#player1 a A\n#player2 b B\n")
    with pytest.raises(FileFormatError, match="catalan_super' is not supported"):
        gcg.tile_set_for(record)
    with pytest.raises(FileFormatError, match="catalan_super"):
        cgp.loads("/".join(["15"] * 15) + " AB/CD 0/0 0 ld catalan_super;").rules()


# -- records as Quackle and Woogles write them ----------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(("name", "turns", "scores"), [
    ("quackle_style.gcg", 10, [55, -3]),  # full names; a note of two lines; '-7'; '--  -8'; +5; six zeros, two racks
    ("quackle_unfinished.gcg", 2, [66, 7]),  # #rack1 and #rack2, no #incomplete (as Quackle ends an unfinished game)
    ("woogles_style.gcg", 6, [91, 0]),  # pragmas before the players; #id; a lost turn; (time)
])
def test_records_in_the_style_of_other_programs_read_replay_and_analyze(
        name: str, turns: int, scores: list[int], capsys: pytest.CaptureFixture[str]) -> None:
    """Records written by hand from the GCG format in the style of Quackle's and Macondo's (Woogles')
    writers: read without a problem, replayed with every score as recorded, written back equal, and
    analyzed turn by turn."""
    path = FIXTURES / name
    record = gcg.load(path)
    assert not record.errors and not record.warnings, (record.errors, record.warnings)
    assert gcg.loads(gcg.dumps(record)) == record
    result = gcg.replay(record)
    assert result.clean and not result.warnings, [str(d) for d in result.differences]
    assert result.game is not None and result.game.scores == scores
    assert main(["analyze", "--lexicon", "enable", str(path)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == turns
    # an exchange of a count of tiles ('-7') is not rated: the short note says why (it was cut
    # to '(exchange o')
    assert [row.split()[-1] for row in rows if " -7 " in row] == (["(unrecorded)"] if "-7" in path.read_text() else [])


def test_quackle_style_details_are_read_as_quackle_means_them() -> None:
    record = gcg.load(FIXTURES / "quackle_style.gcg")
    assert [(p.nick, p.name) for p in record.players] == [("jkb", "Jason Katz-Brown"), ("jo", "John O'Laughlin")]
    assert record.events[0].notes == ["Opening bingo: STAINER at 8H\nscores the same."]
    assert (record.events[1].type, record.events[1].count, record.events[1].tiles) == (gcg.EventType.EXCHANGE, 7, "")
    assert [e.type for e in record.events[-2:]] == [gcg.EventType.END_RACK_PENALTY] * 2
    assert gcg.rules_for(record).challenge.value == "five-point"
    result = gcg.replay(record)
    assert result.game is not None and result.game.over
    # Quackle writes the rack of a (challenge) line as UNKNOWN when it has no later rack of the player
    text = (FIXTURES / "quackle_style.gcg").read_text(encoding="utf-8")
    unknown = gcg.loads(text.replace(">jo: ADRTEJO (challenge)", ">jo: UNKNOWN (challenge)"))
    assert not unknown.errors and not unknown.warnings and unknown.events[5].rack == "UNKNOWN"
    again = gcg.replay(unknown)
    assert again.clean and not again.warnings and again.game is not None and again.game.scores == result.game.scores
    unfinished = gcg.load(FIXTURES / "quackle_unfinished.gcg")
    assert unfinished.final_racks == {1: "EEGLOSU", 2: "ADRTEJO"}
    woogles = gcg.load(FIXTURES / "woogles_style.gcg")
    assert woogles.id == "io.woogles kYmDwcfkbY" and woogles.lexicon == "NWL20"
    assert [e.type for e in woogles.events if not e.is_turn] == [gcg.EventType.PHONY_RETURNED, gcg.EventType.TIME_PENALTY]
    assert woogles.events[2].notes == ["GOELS: not a word"] and woogles.events[4].type is gcg.EventType.TURN_LOST


@pytest.mark.parametrize(("line", "bad", "message"), [
    (9, ">jo: EIIOUVW -0 +0 0", "an exchange of 0 tiles"),
    (15, ">jo: ADRTEJO 8D +0 12", "truncated placement: 8D has no word"),
    (20, ">jkb: EOSEVDL (EOSEVDL) -11 56", "wrong total for jkb"),
])
def test_a_bad_line_of_such_a_record_is_named(line: int, bad: str, message: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    lines = (FIXTURES / "quackle_style.gcg").read_text(encoding="utf-8").splitlines()
    lines[line - 1] = bad
    path = tmp_path / "bad.gcg"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    record = gcg.load(path)
    assert [(e.line, message in str(e)) for e in record.errors] == [(line, True)]
    assert main(["gcg", "check", str(path)]) == 1
    assert f"{path}:{line}: {message}" in capsys.readouterr().out


def test_an_unfinished_game_writes_no_empty_rack_line(make_game: GameFactory) -> None:
    """A game waiting for the challenge of a play that went out (the double rule) is not over, and
    its record is ``#incomplete`` with each player's rack: the player who went out has none, and
    ``#rack1`` without a rack stops Macondo's reader (no pattern of it reads the line) and
    Quackle's (no rack in #rack). The line is left out; the other player's rack is written."""
    game = make_game(racks={0: "AX", 1: "AEIOUVW"}, challenge="double", bag=0)
    game.play("H8 AX")
    assert not game.over and game.pending_ends_game
    record = gcg.from_game(game)
    text = gcg.dumps(record)
    assert record.final_racks == {2: "AEIOUVW"} and "#rack1" not in text and "#rack2 AEIOUVW\n" in text
    assert gcg.loads(text) == record


def test_events_that_take_no_points_away_are_written_minus_zero() -> None:
    """A phony of blanks only scores 0, and so does its withdrawal; a time penalty may be 0. They
    were written '-- +0' and '(time) +0': Macondo's reader wants the minus sign of these events
    (it read '-- +0' as an exchange of the tiles '-', and '(time) +0' not at all), as qiza writes
    an empty rack's '-0' at the end."""
    game = Game(find_preset("classic").with_options(challenge="double", first_player="fixed",
                                                    notation=Notation.TOURNAMENT),
                players=["Ann", "Bob"], lexicon=Lexicon("TEST", ["AT"]), seed=1)
    game.set_rack(0, "??AEINR")
    game.play("8G zz")  # not a word: challenged off
    game.challenge(1)
    game.penalize(0, 0)
    lines = gcg.dumps(gcg.from_game(game)).splitlines()
    assert ">Ann: ??AEINR 8G zz +0 0" in lines
    assert ">Ann: ??AEINR -- -0 0" in lines and any(line.endswith("(time) -0 0") for line in lines)
    record = gcg.loads("\n".join(lines) + "\n")
    assert not record.errors and not record.warnings and record == gcg.from_game(game)
    assert [e.score for e in record.events] == [0, 0, 0]


def test_quackles_incomplete_with_a_rack_is_the_rack_of_the_player_to_move() -> None:
    """Quackle reads ``#incomplete RACK`` as the rack of the player to move after the last event;
    qiza read the line as ``#incomplete`` alone and dropped the rack."""
    head = "#player1 jkb Jason Katz-Brown\n#player2 jo John O'Laughlin\n>jkb: AEINRST 8D RETAINS +66 66\n"
    record = gcg.loads(head + "#incomplete EEGLOSU\n")
    assert not record.errors and not record.warnings
    assert record.incomplete and record.final_racks == {2: "EEGLOSU"}
    assert gcg.loads(gcg.dumps(record)) == record
    result = gcg.replay(record)
    assert result.game is not None and result.game.rack_text(result.game.to_move) == "EEGLOSU"
    # a #rack line of that player says it too: it stands
    assert gcg.loads(head + "#incomplete EEGLOSU\n#rack2 ADEHORT\n").final_racks == {2: "ADEHORT"}
    assert gcg.loads("#player1 a A\n#player2 b B\n#incomplete ABC\n").final_racks == {1: "ABC"}
    bad = gcg.loads(head + "#incomplete 8D\n")
    assert [(e.line, "#incomplete: '8D' is not a rack" in str(e)) for e in bad.errors] == [(4, True)]
# -- multi-letter tiles as Macondo and Woogles write them -----------------------------------------

SPANISH_DIGRAPH_WORDS = Lexicon("TEST", frozenset(["CHICO", "CALLE", "CARRO", "CHE", "OSO"]), LoadReport(),
                                tile_set=SPANISH)


def _spanish_digraph_game() -> Game:
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ana", "Bea"],
                lexicon=SPANISH_DIGRAPH_WORDS, seed=2)
    game.set_rack(0, "[CH]ICOAAA")
    game.play("H8 CHICO")
    game.set_rack(1, "CA[LL]EAAA")
    game.play("8J CALLE")
    return game


def test_the_tile_declarations_of_macondo_are_written_and_read_without_a_warning() -> None:
    """Macondo (so Woogles) writes a ``#tile [CH] [ch]`` line for each tile of several letters after
    ``#tile-distribution``; qiza warned of each as an unknown pragma and wrote none."""
    text = gcg.dumps(gcg.from_game(_spanish_digraph_game()))
    assert "#tile-distribution spanish\n#tile [CH] [ch]\n#tile [LL] [ll]\n#tile [RR] [rr]\n" in text
    read = gcg.loads(text)
    assert not read.errors and not read.warnings, (read.errors, read.warnings)
    assert gcg.dumps(read) == text  # written once, not again
    assert gcg.replay(read).clean
    catalan = gcg.dumps(gcg.from_game(Game(find_preset("classic"), players=["Ana", "Bea"],
                                           lexicon=Lexicon("TEST", frozenset(["QUE"]), LoadReport(),
                                                           tile_set=TILE_SETS["catalan"]), seed=1)))
    assert "#tile L·L l·l\n#tile NY ny\n#tile QU qu\n" in catalan and "#tile Ç" not in catalan
    english = gcg.dumps(gcg.from_game(Game(find_preset("classic"), players=["Ana", "Bea"], seed=1)))
    assert "#tile" not in english


def test_spanish_records_with_woogles_digits_for_ch_ll_rr_are_read() -> None:
    """Woogles' and Macondo's older Spanish records write CH, LL and RR as the digits 1, 2 and 3
    (their letter distribution's names for those tiles): qiza refused the racks ('is not a rack')
    and read the words as gaps."""
    text = ("#character-encoding UTF-8\n#lexicon FILE2017\n#tile-distribution spanish\n"
            "#player1 Ana Ana\n#player2 Bea Bea\n"
            ">Ana: 1ICOAAA 8H 1ICO +20 20\n>Bea: CA2EAAA J8 .A2E +29 29\n>Ana: AAA3OIE -A3 +0 20\n#rack2 AAA3\n")
    read = gcg.loads(text)
    assert not read.errors, read.errors
    assert [e.rack for e in read.events] == ["[CH]ICOAAA", "CA[LL]EAAA", "AAA[RR]OIE"]
    assert [e.word for e in read.events[:2]] == ["[CH]ICO", ".A[LL]E"] and read.events[2].tiles == "A[RR]"
    assert read.final_racks[2] == "AAA[RR]"
    assert any("1, 2 and 3" in str(w) for w in read.warnings)
    result = gcg.replay(read)
    assert not result.differences, result.differences
    assert result.game is not None and "[CH]ICO" in result.game.board.rows_text()[7]
    # the coordinates and the counts of exchanges stay numbers; other sets keep digits as errors
    assert gcg.loads(text.replace("spanish", "french")).errors


def test_catalan_tiles_are_written_bare_as_macondo_labels_them() -> None:
    """Macondo (so Woogles) labels Spanish CH as ``[CH]`` but Catalan NY, QU, L·L bare, and its
    reader takes a word's letters by the longest label: qiza wrote ``[NY]AP``, which it cannot
    read. Catalan racks, words and exchanges are written bare (a blank lower case); qiza reads
    them back to the same game."""
    lexicon = Lexicon("TEST", frozenset(["NYAP", "NYAPS"]), LoadReport(), tile_set=TILE_SETS["catalan"])
    game = Game(find_preset("classic"), players=["Ana", "Bea"], lexicon=lexicon, seed=1)
    game.set_rack(0, "[NY]AP?EE")
    game.play("8H NYAP")
    game.set_rack(1, "[QU]E[L·L]AAA")
    game.play("exchange [QU]E")
    game.set_rack(0, "?EEOTIO")
    game.play("8H (NYAP)s")
    text = gcg.dumps(gcg.from_game(game))
    assert "#tile L·L l·l\n#tile NY ny\n#tile QU qu\n" in text and "[" not in text
    assert ">Ana: NYAP?EE H8 NYAP +28 28\n>Bea: QUEL·LAAA -QUE +0 0\n" in text
    result = gcg.replay(gcg.loads(text))
    assert result.clean and result.game is not None
    assert result.game.board.rows_text() == game.board.rows_text() and result.game.scores == game.scores
