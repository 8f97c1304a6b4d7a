"""Leave values for other tile sets: ``qiza train`` plays and fits any language's tiles (multi-letter
ones too), the model file records its tiles, and the shipped models are what the computer uses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from language_words import SPANISH_WORDS, use_word_lists

from qiza.alphabet import ENGLISH, SPANISH, TILE_SETS
from qiza.languages import LANGUAGES, rules_for_lexicon
from qiza.lexicon import load_lexicon
from qiza.players import train
from qiza.players.leaves import LeaveModel, default_model, model_file, model_for_tile_set
from qiza.rules import CLASSIC


def test_training_on_spanish_tiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_word_lists(tmp_path, {"spanish": SPANISH_WORDS}, monkeypatch)
    rules = rules_for_lexicon(CLASSIC, load_lexicon("spanish-debian"))
    assert rules.tile_set == SPANISH
    model = train.train(games=[8], lexicon="spanish-debian", rules=rules, jobs=1, progress=False)
    kinds = SPANISH.size + 1
    assert model.kinds == kinds and len(model.tile_values) == kinds and model.full is None
    assert model.meta["tile_set"] == "spanish" and model.meta["letters"] == list(SPANISH.letters)
    assert model.meta["observations"] > 0 and model.meta["games"] == 8
    distinct = model.meta["distinct_leaves"]
    assert f"leaves observed: {distinct} distinct (a model of this tile set has no full table)" in train.report(model)
    # the file keeps the tile names and vowels, and reads back to the same values
    model.save(tmp_path / "es.json")
    data = json.loads((tmp_path / "es.json").read_text())
    assert data["names"] == model.names and "CH" not in data["tile_values"]  # one character a tile
    again = LeaveModel.load(tmp_path / "es.json")
    assert again.names == model.names and again.vowels == model.vowels
    ch = SPANISH.code("CH")
    leave = np.zeros(kinds, np.int32)
    leave[ch] = 1
    leave[SPANISH.code("O")] = 1
    assert again.value(leave) == pytest.approx(model.value(leave), abs=0.01)


def test_a_model_of_other_tiles_cannot_resume_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main

    use_word_lists(tmp_path, {"spanish": SPANISH_WORDS}, monkeypatch)
    english = tmp_path / "en.json"
    LeaveModel.hand_made().save(english)
    assert main(["train", "--lexicon", "spanish-debian", "--resume", str(english), "-n", "2",
                 "-o", str(tmp_path / "out.json")]) != 0
    assert "the spanish tile set has 28" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_each_language_has_its_trained_leaves(language: str) -> None:
    tile_set = LANGUAGES[language].tile_set
    file = Path(__file__).resolve().parents[1] / "qiza" / "data" / model_file(tile_set.name)
    assert file.is_file(), f"no trained leaves for {tile_set.name}: {file}"
    model = model_for_tile_set(tile_set)
    assert model.meta.get("source") == "qiza train (self-play)" and model.meta["tile_set"] == tile_set.name
    assert model.meta["lexicon"] == language and model.meta["games"] >= 1000
    assert model.kinds == tile_set.size + 1
    # a blank is worth keeping in every language
    blank = np.zeros(model.kinds, np.int32)
    blank[0] = 1
    assert model.value(blank) > 5


def test_english_sets_keep_the_english_models() -> None:
    assert model_for_tile_set(ENGLISH) is default_model()
    assert model_for_tile_set(TILE_SETS["super"]) is default_model()
    assert model_file("english") == "leaves.json" and model_file("english", 8) == "leaves-8.json"
    assert model_file("french") == "leaves-french.json"


def _brute_bingo(words: list[str], bag: np.ndarray, leave: np.ndarray) -> float:
    """Probability that a blank-free leave of 5 or 6 tiles draws to a seven-tile word (blanks as
    any letter): every unordered draw from the rest of the bag, counted with its ways."""
    kinds = len(bag)
    sevens = {"".join(sorted(w)) for w in words}
    rest = np.maximum(bag - leave, 0)
    total = int(rest.sum())
    base = [t for t in range(1, kinds) for _ in range(int(leave[t]))]

    def word(tiles: list[int]) -> bool:
        letters = [t for t in tiles if t]
        blanks = len(tiles) - len(letters)
        fills: list[list[int]] = [[]]
        for _ in range(blanks):
            fills = [f + [u] for f in fills for u in range(1, kinds)]
        return any("".join(sorted(chr(64 + t) for t in letters + f)) in sevens for f in fills)

    if len(base) == 6:
        return sum(rest[t] / total for t in range(kinds) if rest[t] and word(base + [t]))
    pairs = total * (total - 1) / 2
    p = 0.0
    for t in range(kinds):
        for u in range(t, kinds):
            ways = rest[t] * (rest[t] - 1) / 2 if t == u else rest[t] * rest[u]
            if ways and word(base + [t, u]):
                p += ways / pairs
    return float(p)


def test_bingo_odds_in_a_tile_set_of_many_letters() -> None:
    """The compiled bingo odds for letter codes past 26 (Polish Ż is 32; 63, the largest, uses
    the sign bit of the completion masks), against a brute force over every draw."""
    from qiza.players.engine import BingoOdds

    kinds = 64
    rng = np.random.default_rng(5)
    bag = rng.integers(1, 4, kinds)
    bag[0] = 2
    letters = [1, 2, 31, 32, 40, 62, 63]
    words = ["".join(chr(64 + t) for t in rng.permutation(letters)) for _ in range(3)]
    words += ["".join(chr(64 + int(t)) for t in rng.choice(np.arange(1, kinds), 7)) for _ in range(40)]
    full_bag = [t for t in range(kinds) for _ in range(int(bag[t]))]
    odds = BingoOdds(words, full_bag, kinds)
    leaves = []
    for drop in ([0], [6], [0, 6], [2, 3], [5, 6]):
        leave = np.zeros(kinds, np.int64)
        for i, t in enumerate(letters):
            if i not in drop:
                leave[t] += 1
        leaves.append(leave)
    for _ in range(30):  # random leaves, most of them no bingo
        leave = np.zeros(kinds, np.int64)
        for t in rng.choice(np.arange(1, kinds), int(rng.integers(5, 7)), replace=False):
            leave[t] = 1
        leaves.append(leave)
    counts = np.stack(leaves)
    got = odds.probs(counts, np.arange(len(leaves)))
    want = [_brute_bingo(words, bag, leave) for leave in leaves]
    assert got == pytest.approx(want, abs=1e-12)
    assert min(got[:5]) > 0  # leaves of the word draw to it


def test_static_player_adds_bingo_odds_in_polish() -> None:
    from qiza.alphabet import POLISH
    from qiza.lexicon import Lexicon, LoadReport
    from qiza.players.engine import StaticSettings, bingo_odds, odds_for

    lexicon = Lexicon("PL-7", frozenset({"ŻÓŁWIKA", "ŹREBIĘTA", "KOŁO"}), LoadReport(), tile_set=POLISH)
    rules = rules_for_lexicon(CLASSIC, lexicon)
    odds = odds_for(lexicon, rules, StaticSettings())
    assert odds is bingo_odds(lexicon, rules) and odds is not None and len(odds.words) == 1
    leave = np.zeros(POLISH.size + 1, np.int64)
    for label in "ŻÓŁWIK":
        leave[POLISH.code(label)] += 1
    p = float(odds.probs(leave[None, :], np.zeros(1, np.int64))[0])
    rest = np.bincount(POLISH.full_bag(), minlength=POLISH.size + 1) - leave
    assert p == pytest.approx((rest[0] + rest[POLISH.code("A")]) / rest.sum())
