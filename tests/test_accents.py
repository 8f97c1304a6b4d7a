"""Letters typed with an accent the tile set has no tile for are read as their base letter (a
French player typing ÉTÉ plays E, T, E), in moves, racks, exchanges and blanks; a letter that is
a tile of the set (Spanish Ñ, German Ä, Polish Ó, Catalan Ç) is never folded. Only the sets whose
languages fold accents in their word lists do it (not English, nor Polish)."""

from __future__ import annotations

import dataclasses
from importlib import resources
from pathlib import Path

import pytest

from qiza.alphabet import TILE_SETS, TileSet, TileSetError, find_tile_set, load_tile_set_file
from qiza.errors import QizaError
from qiza.game import Game
from qiza.lexicon import Lexicon, LoadReport
from qiza.move import Exchange, Place
from qiza.rules import CLASSIC


def _game(tile_set: TileSet, rack: str) -> Game:
    lexicon = Lexicon(f"TEST-{tile_set.name}", frozenset({"ETE"}), LoadReport(), tile_set=tile_set)
    game = Game(dataclasses.replace(CLASSIC, tile_set=tile_set), lexicon=lexicon, seed=1)
    game.set_rack(1 - game.to_move, "")  # its tiles back in the bag: the one Ñ may be there
    game.set_rack(game.to_move, rack)
    return game


@pytest.mark.parametrize("name, typed, plain, rack", [
    ("french", "H8 ÉTÉ", "H8 ETE", "ETEAAAA"), ("french", "H8 êTRE", "H8 eTRE", "?TREAAA"),
    ("french", "H8 ÇA", "H8 CA", "CAEEEEE"),
    ("italian", "H8 PERCHÉ", "H8 PERCHE", "PERCHEA"), ("italian", "H8 CITTÀ", "H8 CITTA", "CITTAEE"),
    ("dutch", "H8 ÏDEE", "H8 IDEE", "IDEEAAA"), ("dutch", "H8 CAFÉ", "H8 CAFE", "CAFEAAA"),
    ("spanish", "H8 CAMIÓN", "H8 CAMION", "CAMIONA"),
])
def test_an_accented_letter_with_no_tile_of_its_own_is_played_as_its_base_letter(name: str, typed: str,
                                                                                   plain: str, rack: str) -> None:
    """In French, Italian and Dutch (no accented tiles) a move typed with accents was refused
    ("'É' is not a letter of the french tile set: type E") while the word tools took it."""
    game = _game(find_tile_set(name), rack)
    evaluation = game.evaluate(typed)
    assert evaluation.move == game.evaluate(plain).move
    assert isinstance(evaluation.move, Place) and evaluation.move.word == plain.split()[1]
    assert game.play(typed).notation == plain  # the score sheet and the records write the tiles


@pytest.mark.parametrize("name, letter", [
    ("spanish", "Ñ"), ("german", "Ä"), ("german", "Ö"), ("german", "Ü"), ("polish", "Ą"), ("polish", "Ó"),
    ("polish", "Ż"), ("catalan", "Ç"),
])
def test_a_letter_that_is_a_tile_is_never_folded(name: str, letter: str) -> None:
    tile_set = find_tile_set(name)
    assert tile_set.fold(letter) == letter and tile_set.fold(letter.lower()) == letter.lower()
    assert tile_set.codes(letter) == [tile_set.code(letter)]
    game = _game(tile_set, letter + "E")
    move = game.evaluate(f"H8 {letter}E").move
    assert isinstance(move, Place) and move.word == f"{letter}E"


@pytest.mark.parametrize("name", sorted(TILE_SETS))
def test_folding_changes_no_tile_of_any_set(name: str) -> None:
    tile_set = TILE_SETS[name]
    for label in tile_set.letters:
        assert tile_set.fold(label) == label and tile_set.fold(label.lower()) == label.lower()


def test_racks_exchanges_and_blanks_fold_the_same_way() -> None:
    french = find_tile_set("french")
    assert french.codes("ÉTÉ") == french.codes("ETE") and french.codes("été") == french.codes("ete")
    assert french.code("é") == french.code("e")  # a blank designated as É stands for E
    game = _game(french, "EETAAAA")
    game.play(Exchange("É"))
    assert len(game.history) == 1
    game = _game(french, "?TEAAAA")
    assert game.play("H8 éTE").notation == "H8 eTE"


def test_a_letter_with_no_base_tile_is_still_refused_naming_it() -> None:
    game = _game(find_tile_set("french"), "ETEAAAA")
    with pytest.raises(QizaError, match="'Ж' is not a letter of the french tile set"):
        game.evaluate("H8 ЖTE")


def test_the_web_reads_typed_letters_as_the_server_reads_moves() -> None:
    """The browser's board and blank dialog read a typed letter through the rules' typed_labels:
    É was 'no tile of this game' in French there too."""
    pytest.importorskip("fastapi")
    from qiza.web.views import rules_json

    french = rules_json(dataclasses.replace(CLASSIC, tile_set=find_tile_set("french")))["typed_labels"]
    assert french["É"] == "E" and french["Ï"] == "I" and french["Ç"] == "C"
    spanish = rules_json(dataclasses.replace(CLASSIC, tile_set=find_tile_set("spanish")))["typed_labels"]
    assert spanish["Ú"] == "U" and "Ñ" not in spanish
    catalan = rules_json(dataclasses.replace(CLASSIC, tile_set=find_tile_set("catalan")))["typed_labels"]
    assert catalan["L.L"] == "L·L" and "Ç" not in catalan and catalan["À"] == "A"
    for name in TILE_SETS:
        folds = find_tile_set(name).accent_folds
        assert not set(folds) & set(find_tile_set(name).letters)


def test_a_game_record_s_accented_move_is_read_as_its_tiles() -> None:
    from qiza import gcg

    record = gcg.loads("#character-encoding UTF-8\n#player1 a Ann\n#player2 b Bob\n#tile-distribution french\n"
                       ">a: ETEAAAA 8G ÉTÉ +6 6\n")
    replayed = gcg.replay(record)
    assert replayed.clean and replayed.game is not None and replayed.game.history[0].notation == "8G ETE"


@pytest.mark.parametrize("name, typed, refused", [("english", "H8 CAFÉ", "É"), ("polish", "H8 CAFÉ", "É")])
def test_a_set_whose_word_lists_keep_no_accents_refuses_them(name: str, typed: str, refused: str) -> None:
    """Only the sets whose languages fold accents in their word lists fold them in moves: in English
    'qiza words check CAFÉ' says CAFÉ is not in ENABLE, so a move CAFÉ is refused as before, naming
    the letter, rather than played as CAFE (Polish word lists drop a word with a foreign accent)."""
    tile_set = find_tile_set(name)
    assert not tile_set.fold_accents and tile_set.accent_folds == {}
    game = _game(tile_set, "CAFEAAA")
    with pytest.raises(QizaError, match=f"'{refused}' is not a letter of the {name} tile set"):
        game.evaluate(typed)


def test_which_sets_fold_accents_is_said_by_their_files(tmp_path: Path) -> None:
    assert {name for name, tile_set in TILE_SETS.items() if tile_set.fold_accents} == {
        "catalan", "dutch", "french", "german", "italian", "spanish"}
    text = (resources.files("qiza") / "data" / "tilesets" / "french.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("fold_accents = true", 'fold_accents = "yes"'), encoding="utf-8")
    with pytest.raises(TileSetError, match="'fold_accents' must be true or false"):
        load_tile_set_file(bad)
