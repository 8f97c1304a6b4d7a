"""Leave values for other tile sets: ``qiza train`` plays and fits any language's tiles (multi-letter
ones too), the model file records its tiles, and the shipped models are what the computer uses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from language_words import SPANISH_WORDS, use_word_lists

from qiza.alphabet import ENGLISH, SPANISH, TILE_SETS
from qiza.languages import rules_for_lexicon
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


def test_english_sets_keep_the_english_models() -> None:
    assert model_for_tile_set(ENGLISH) is default_model()
    assert model_for_tile_set(TILE_SETS["super"]) is default_model()
    assert model_file("english") == "leaves.json" and model_file("english", 8) == "leaves-8.json"
    assert model_file("french") == "leaves-french.json"
