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
