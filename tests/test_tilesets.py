"""Tile sets as data files: totals per published edition, multi-letter labels, validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiza.alphabet import (
    BLANK,
    BLANK_FLAG,
    ENGLISH,
    FRENCH,
    POLISH,
    SPANISH,
    TILE_SETS,
    TileSet,
    TileSetError,
    find_tile_set,
    load_tile_set_file,
)
from qiza.errors import QizaError

# name: (tiles in the bag, blanks, distinct letters)
EXPECTED = {
    "english": (100, 2, 26), "super": (200, 4, 26), "french": (102, 2, 26), "german": (102, 2, 29),
    "spanish": (100, 2, 28), "catalan": (100, 2, 26), "italian": (120, 2, 21), "dutch": (102, 2, 26),
    "polish": (100, 2, 32),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_totals_of_each_published_set(name: str) -> None:
    tile_set = find_tile_set(name)
    total, blanks, size = EXPECTED[name]
    assert (tile_set.total, tile_set.blanks, tile_set.size) == (total, blanks, size)
    assert tile_set.source.strip(), "every set names its published edition"
    assert len(tile_set.full_bag()) == total


def test_every_data_file_is_registered() -> None:
    folder = Path(__file__).resolve().parent.parent / "qiza" / "data" / "tilesets"
    assert sorted(p.stem for p in folder.glob("*.toml")) == sorted(TILE_SETS) == sorted(EXPECTED)


def test_old_names_keep_their_codes() -> None:
    assert ENGLISH is find_tile_set("English") and FRENCH is TILE_SETS["french"] and POLISH is TILE_SETS["polish"]
    assert ENGLISH.letters == tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert ENGLISH.code("A") == 1 and ENGLISH.code("Z") == 26
    assert ENGLISH.value(ENGLISH.code("Q")) == 10 and ENGLISH.value(ENGLISH.code("K")) == 5
    assert POLISH.code("Ż") == 32 and POLISH.value(POLISH.code("Ź")) == 9


def test_spanish_multi_letter_tiles() -> None:
    for label, count, value in (("CH", 1, 5), ("LL", 1, 8), ("RR", 1, 8), ("Ñ", 1, 8), ("A", 12, 1)):
        i = SPANISH.letters.index(label)
        assert (SPANISH.counts[i], SPANISH.values[i]) == (count, value), label
    assert "K" not in SPANISH.letters and "W" not in SPANISH.letters
    for blank in ("k", "w"):  # the FISE rules: a blank cannot stand for K or W either
        with pytest.raises(QizaError):
            SPANISH.codes(blank)
    assert SPANISH.multi_letter and not ENGLISH.multi_letter
    ch, ll, rr = (SPANISH.code(x) for x in ("CH", "LL", "RR"))
    # greedy longest match: CHICO is CH-I-C-O; CALLE is C-A-LL-E; CARRO is C-A-RR-O
    assert SPANISH.codes("CHICO") == [ch, SPANISH.code("I"), SPANISH.code("C"), SPANISH.code("O")]
    assert SPANISH.codes("CALLE")[2] == ll and len(SPANISH.codes("CALLE")) == 4
    assert SPANISH.codes("CARRO")[2] == rr and len(SPANISH.codes("CARRO")) == 4
    # brackets, blanks standing for a multi-letter tile, and text that reads back
    assert SPANISH.codes("[CH]ICO") == SPANISH.codes("CHICO")
    assert SPANISH.codes("[ch]") == [ch | BLANK_FLAG] == SPANISH.codes("ch")
    assert SPANISH.text(SPANISH.codes("chICO?")) == "[ch]ICO?"
    for text in ("[CH]A[RR]O", "[ll]AMA", "?[CH]"):
        assert SPANISH.text(SPANISH.codes(text)) == text
    assert SPANISH.plain_text(SPANISH.codes("[CH]ICO")) == "CHICO"
    assert SPANISH.value(ch) == 5 and SPANISH.value(ch | BLANK_FLAG) == 0
    assert SPANISH.codes("") == [] and SPANISH.codes("?") == [BLANK]


def test_catalan_middle_dot_tile() -> None:
    catalan = find_tile_set("catalan")
    ll = catalan.code("L·L")
    assert catalan.codes("COL·LEGA")[2] == ll and len(catalan.codes("COL·LEGA")) == 6
    assert catalan.codes("BALLAR")[2:4] == [catalan.code("L"), catalan.code("L")]
    assert catalan.codes("l·l") == [ll | BLANK_FLAG]
    assert catalan.text([ll]) == "[L·L]"
    assert catalan.codes("QUE") == [catalan.code("QU"), catalan.code("E")]


@pytest.mark.parametrize("text", ["[Ch]", "[CH", "[XX]", "K", "[]", "Ж"])  # (É is E in Spanish: test_accents)
def test_bad_tile_text_is_refused(text: str) -> None:
    with pytest.raises(TileSetError) as info:
        SPANISH.codes(text)
    assert isinstance(info.value, QizaError)


@pytest.mark.parametrize("text", ["ı", "ſ", "ıT", "Aſ", "[ı]"])
def test_only_a_letters_own_lower_case_is_a_blank(text: str) -> None:
    """Dotless ı and long ſ upper-case to I and S but are no letter's lower case: refused, not
    played as blanks under a notation no other program reads ("H8 ıT")."""
    with pytest.raises(TileSetError):
        ENGLISH.codes(text)
    from qiza.game import Game
    from qiza.rules import find_preset

    game = Game(find_preset("computer"), players=["Ann", "Bob"], seed=6)  # seat 0 holds RAOGA?D
    with pytest.raises(QizaError):
        game.play("H8 ıR", seat=0)
    assert not game.history and game.rack_text(0) == "RAOGA?D"


def test_unknown_tile_set_names_the_known_ones() -> None:
    with pytest.raises(TileSetError, match="known: catalan, dutch, english"):
        find_tile_set("klingon")


BAD_FILES = {
    "no source": ('name = "x"\nblanks = 2\ntiles = [["A", 1, 1]]\n', "no 'source'"),
    "empty source": ('name = "x"\nsource = " "\nblanks = 2\ntiles = [["A", 1, 1]]\n', "published edition"),
    "bad row": ('name = "x"\nsource = "s"\nblanks = 2\ntiles = [["A", 1]]\n', "label, count, value"),
    "lower label": ('name = "x"\nsource = "s"\nblanks = 2\ntiles = [["a", 1, 1]]\n', "upper case"),
    "twice": ('name = "x"\nsource = "s"\nblanks = 2\ntiles = [["A", 1, 1], ["A", 2, 1]]\n', "twice"),
    "negative": ('name = "x"\nsource = "s"\nblanks = 2\ntiles = [["A", -1, 1]]\n', ">= 0"),
    "total": ('name = "x"\nsource = "s"\nblanks = 2\ntotal = 9\ntiles = [["A", 1, 1]]\n', "add up to 3"),
    "bracket": ('name = "x"\nsource = "s"\nblanks = 2\ntiles = [["[A", 1, 1]]\n', "\\? \\[ \\]"),
    "not toml": ("name = \n", "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_tile_set_files_get_clear_errors(case: str, tmp_path: Path) -> None:
    text, message = BAD_FILES[case]
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TileSetError, match=message):
        load_tile_set_file(path)


def test_a_users_tile_set_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "Mine"\nsource = "a home-made set"\nblanks = 1\ntotal = 4\n'
                    'tiles = [["IJ", 1, 4], ["I", 2, 1]]\n', encoding="utf-8")
    mine = load_tile_set_file(path)
    assert mine.name == "mine" and mine.total == 4 and mine.text(mine.codes("IJI")) == "[IJ]I"
    with pytest.raises(TileSetError, match="cannot read"):
        load_tile_set_file(tmp_path / "absent.toml")


def test_super_preset_plays_with_the_super_set() -> None:
    from qiza import gcg
    from qiza.game import Game
    from qiza.rules import find_preset

    rules = find_preset("super")
    assert rules.layout.size == 21 and rules.tile_set is find_tile_set("super")
    game = Game(rules, players=2, seed=1)
    assert game.tile_total() == 200 and len(game.bag) == 200 - 14
    record = gcg.GameRecord(tile_distribution="english_super")
    assert gcg.tile_set_for(record) is find_tile_set("super")


def test_a_tile_set_is_made_of_its_public_fields_only() -> None:
    """``TileSet(...)`` offered its tables worked out from the letters (``_index``,
    ``_longest``...) as keyword arguments of its own (``help(TileSet)`` listed them): they are
    no arguments; a set made again, replaced or pickled works them out the same."""
    import dataclasses
    import inspect
    import pickle

    assert list(inspect.signature(TileSet).parameters) == ["name", "letters", "counts", "values", "blanks", "source",
                                                           "fold_accents"]
    made = TileSet(SPANISH.name, SPANISH.letters, SPANISH.counts, SPANISH.values, SPANISH.blanks, SPANISH.source,
                   SPANISH.fold_accents)
    assert made.fold("CAMIÓN") == "CAMION"
    assert made == SPANISH and made.codes("CHICO") == SPANISH.codes("CHICO")
    with pytest.raises(TypeError):
        TileSet("x", ("A",), (1,), (1,), _longest=3)  # type: ignore[call-arg]
    renamed = dataclasses.replace(SPANISH, name="mine")
    assert renamed.codes("CHICO") == SPANISH.codes("CHICO") and pickle.loads(pickle.dumps(renamed)) == renamed
