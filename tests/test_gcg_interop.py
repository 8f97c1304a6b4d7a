"""GCG records as other programs write and read them: the names of the Super board and tiles,
the character set of files without a ``#character-encoding`` line, decomposed letters, and
Finish Line games."""

from __future__ import annotations

from qiza import gcg
from qiza.alphabet import SUPER
from qiza.game import Game
from qiza.layout import find_layout
from qiza.lexicon import Lexicon
from qiza.rules import find_preset

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
