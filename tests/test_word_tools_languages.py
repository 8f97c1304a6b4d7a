"""Word tools (anagrams, hooks, n-letter words, patterns) count tiles, not characters: Spanish
CH, LL and RR are one tile each, Polish letters are letters; and a game takes its lexicon's tiles."""

from __future__ import annotations

from pathlib import Path

import pytest
from language_words import FRENCH_WORDS, POLISH_WORDS, SPANISH_WORDS, use_word_lists

from qiza.alphabet import ENGLISH, FRENCH, POLISH, SPANISH
from qiza.errors import QizaError
from qiza.game import Game
from qiza.lexicon import Lexicon, LoadReport, load_lexicon
from qiza.rules import CLASSIC

SPANISH_LEX = Lexicon("ES-TEST", frozenset(SPANISH_WORDS), LoadReport(), tile_set=SPANISH)
POLISH_LEX = Lexicon("PL-TEST", frozenset(POLISH_WORDS), LoadReport(), tile_set=POLISH)


def test_spanish_anagrams_read_the_rack_into_tiles() -> None:
    # CH-I-C-O: the rack C H I C O has no CH tile, so CHICO is no anagram of it
    assert SPANISH_LEX.anagrams("CHICO") == ["CHICO"]
    assert SPANISH_LEX.anagrams("[CH]ICO") == ["CHICO"]
    assert SPANISH_LEX.anagrams("C[H]ICO") == []
    # a blank stands for any tile, a multi-letter one too
    assert SPANISH_LEX.anagrams("?ICO") == ["CHICO"]
    assert SPANISH_LEX.anagrams("?ICO", mark_blanks=True) == ["chICO"]  # the blank is the CH tile
    assert "OLLA" in SPANISH_LEX.anagrams("O?A", partial=True)
    # longest first counts tiles: OLLA (3 tiles) before OSO (3 tiles) alphabetically, CHICOS (5) first
    found = SPANISH_LEX.anagrams("[CH]ICOS[LL]A", partial=True)
    lengths = [SPANISH_LEX.tiles_in(w) for w in found]
    assert found[0] == "CHICOS" and lengths == sorted(lengths, reverse=True)
    with pytest.raises(QizaError, match=r"a rack holds letters of the spanish tile set .*'K' is not a letter"):
        SPANISH_LEX.anagrams("KIWI")


def test_spanish_hooks_and_lengths_in_tiles() -> None:
    assert SPANISH_LEX.hooks("ICO") == ("[CH]", "")  # CHICO: the front hook is the CH tile
    assert SPANISH_LEX.hooks("[CH]ICO") == ("", "S")
    assert SPANISH_LEX.hooks("O") == ("LN", "")  # LO, NO
    twos = SPANISH_LEX.words_of_length(2)
    assert "CHE" in twos and "OLA" not in twos  # CH-E is two tiles
    assert "LLANO" in SPANISH_LEX.words_of_length(4) and "CHICOS" in SPANISH_LEX.words_of_length(5)
    with pytest.raises(QizaError, match="written in letters, not blanks"):
        SPANISH_LEX.hooks("?ICO")


def test_spanish_patterns_match_tiles() -> None:
    assert SPANISH_LEX.matching("?ICO") == ["CHICO"]  # ? is one tile: CH
    assert SPANISH_LEX.matching("[CH]*") == SPANISH_LEX.matching("CH*") == [
        "CHAL", "CHE", "CHICO", "CHICOS", "CHINA", "CHINO"]
    assert "CHICO" not in SPANISH_LEX.matching("C*")  # a C tile is not a CH tile
    assert SPANISH_LEX.matching("CA[RR]O") == ["CARRO"] and SPANISH_LEX.matching("CA[R]RO") == []
    with pytest.raises(QizaError, match="not a pattern of spanish letters"):
        SPANISH_LEX.matching("K*")


def test_polish_word_tools() -> None:
    assert POLISH_LEX.anagrams("ABAŻ") == ["ŻABA"]
    assert POLISH_LEX.hooks("ŻAB") == ("", "AY")
    assert all(w.startswith("Ż") for w in POLISH_LEX.matching("Ż*")) and "ŻÓŁW" in POLISH_LEX.matching("Ż??W")
    assert "ŹLE" in POLISH_LEX.words_of_length(3)
    assert POLISH_LEX.anagrams("??") == POLISH_LEX.words_of_length(2)


def test_words_command_in_spanish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main

    use_word_lists(tmp_path, {"spanish": SPANISH_WORDS}, monkeypatch)
    assert main(["words", "--lexicon", "spanish-debian", "hooks", "ICO"]) == 0
    assert "front: [CH]" in capsys.readouterr().out
    assert main(["words", "--lexicon", "spanish-debian", "anagram", "[CH]ICO"]) == 0
    assert "CHICO" in capsys.readouterr().out


def test_a_game_takes_its_lexicons_tiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_word_lists(tmp_path, {"french": FRENCH_WORDS}, monkeypatch)
    french = load_lexicon("french-debian")
    game = Game(CLASSIC, players=2, lexicon=french, seed=1)
    assert game.rules.tile_set == FRENCH and game.tile_total() == FRENCH.total == 102
    # rules with a tile set of their own keep it, the default lexicon keeps the English set
    assert Game(CLASSIC, players=2, seed=1).rules.tile_set == ENGLISH
    spanish_rules = CLASSIC.with_options(tile_set="spanish")
    assert Game(spanish_rules, players=2, lexicon=SPANISH_LEX, seed=1).rules.tile_set == SPANISH


def test_many_blanks_or_tiles_are_answered_quickly_and_the_same() -> None:
    import time

    from qiza.lexicon import load_lexicon

    enable = load_lexicon("enable")
    started = time.thread_time()  # the work done: this thread's CPU time, which other jobs do not change
    eights = enable.anagrams("????????")  # every eight-letter word, by one pass over the words
    assert eights == enable._sort_words(enable.words_of_length(8))
    assert enable.anagrams("QAT??", partial=True, min_length=5) == enable._sort_words(
        w for w in enable.words_of_length(5) if all(c in w for c in "QAT"))
    # the pass over the words agrees with listing the blanks' letters
    assert enable._sort_words(enable._scan_anagrams(list("AEINRST"), 1, False, 2)) == enable.anagrams("AEINRST?")
    assert enable._sort_words(enable._scan_anagrams(list("QAT"), 2, True, 2)) == enable.anagrams("QAT??", partial=True)
    assert time.thread_time() - started < 60
    with pytest.raises(QizaError, match="at most 21 tiles"):
        enable.anagrams("A" * 22)
    with pytest.raises(QizaError, match="say which word"):
        SPANISH_LEX.hooks(" ")


def test_words_command_folds_letters_as_the_language_list_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """French words are played without accents (the list keeps ÉCOLE as ECOLE): typed with
    them, 'qiza words check école' said ÉCOLE was not in the list, and the anagram, hooks and
    pattern tools refused É."""
    from qiza.cli import main

    use_word_lists(tmp_path, {"french": FRENCH_WORDS, "spanish": SPANISH_WORDS}, monkeypatch)
    assert main(["words", "-l", "french-debian", "check", "école", "tête"]) == 0
    assert capsys.readouterr().out.splitlines() == ["ÉCOLE (ECOLE): valid", "TÊTE (TETE): valid"]
    assert main(["words", "-l", "french-debian", "anagram", "étoile"]) == 0
    assert "ETOILE" in capsys.readouterr().out
    assert main(["words", "-l", "french-debian", "pattern", "é?ole"]) == 0
    assert "ECOLE" in capsys.readouterr().out
    assert main(["words", "-l", "french-debian", "hooks", "élu"]) == 0
    assert capsys.readouterr().out.split() == ["front:", "-", "ELU", "back:", "S"]
    # letters that are tiles of their own stay: Spanish Ñ
    assert main(["words", "-l", "spanish-debian", "check", "año"]) == 0
    assert capsys.readouterr().out.strip() == "AÑO: valid"


def test_a_long_word_list_is_announced_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Reading Debian's Polish list (60 MB) and preparing its word graph takes 15-45 s, during
    which 'qiza words', 'qiza best' and 'qiza analyze' said nothing."""
    from qiza import languages
    from qiza.cli import main

    use_word_lists(tmp_path, {"polish": POLISH_WORDS}, monkeypatch)
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path / "cache"))  # the list never read before
    monkeypatch.delenv("QIZA_NO_CACHE", raising=False)
    monkeypatch.setattr(languages, "SLOW_LIST_BYTES", 1)
    assert main(["words", "-l", "polish-debian", "check", "KOT"]) == 0
    err = capsys.readouterr().err
    assert f"Reading {tmp_path / 'polish'}" in err and "polish-debian" in err and "takes a while" in err
    assert main(["words", "-l", "polish-debian", "check", "KOT"]) == 0  # loaded: nothing to wait for
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(languages, "SLOW_LIST_BYTES", 10**9)
    monkeypatch.setattr("qiza.lexicon._loaded", {})
    assert main(["words", "-l", "polish-debian", "check", "KOT"]) == 0
    assert capsys.readouterr().err == ""
    # a later start reads the words kept in the cache folder, in seconds: no note
    monkeypatch.setattr(languages, "SLOW_LIST_BYTES", 1)
    monkeypatch.setattr("qiza.lexicon._loaded", {})
    assert main(["words", "-l", "polish-debian", "check", "KOT"]) == 0
    assert capsys.readouterr().err == ""


def test_words_check_reads_multi_letter_tiles_in_brackets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words -l spanish-debian check [CH]ICO' said CHICO was not in the list while
    'check CHICO' found it: the brackets the other tools take (and the game writes) were looked
    up as letters. C then H is still no CHICO."""
    from qiza.cli import main

    use_word_lists(tmp_path, {"spanish": SPANISH_WORDS}, monkeypatch)
    assert main(["words", "-l", "spanish-debian", "check", "[CH]ICO", "[ch]ico", "ca[rr]o"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "[CH]ICO (CHICO): valid", "[CH]ICO (CHICO): valid", "CA[RR]O (CARRO): valid"]
    assert main(["words", "-l", "spanish-debian", "check", "C[H]ICO"]) == 1
    assert capsys.readouterr().out.strip() == "C[H]ICO ([C]HICO): not in SPANISH-DEBIAN"


def test_word_tools_in_a_game_read_words_as_the_language_list_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """In a game, 'check pingüino' and 'check été' said NOT valid (qiza words folded such words
    since 43affab, the game's tools did not), and 'check [CH]ICO' did too."""
    import io
    import sys

    from qiza.cli import main

    use_word_lists(tmp_path, {"french": FRENCH_WORDS, "spanish": SPANISH_WORDS}, monkeypatch)
    monkeypatch.setenv("QIZA_DATA_DIR", str(tmp_path / "data"))
    lines = ["check [CH]ICO chico año c[h]ico", "hooks [ch]ico", "pattern [CH]?CO", "quit", "y"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    main(["play", "--lexicon", "spanish-debian", "-p", "Ann", "-p", "Bob", "--word-tools", "--plain", "--no-save"])
    out = capsys.readouterr().out
    assert "[CH]ICO (CHICO): valid in SPANISH-DEBIAN" in out
    assert "CHICO: valid" in out and "AÑO: valid" in out
    assert "C[H]ICO ([C]HICO): NOT valid" in out
    assert "back hooks: S" in out and "CHICO" in out.split("Words matching")[1]
    lines = ["check tête école écoles", "hooks élu", "anagrams étoile", "pattern é?ole", "quit", "y"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    main(["play", "--lexicon", "french-debian", "-p", "Ann", "-p", "Bob", "--word-tools", "--plain", "--no-save"])
    out = capsys.readouterr().out
    assert "TÊTE (TETE): valid" in out and "ÉCOLE (ECOLE): valid" in out
    assert "ÉCOLES (ECOLES): NOT valid" in out
    assert "back hooks: S" in out
    assert "Anagrams of ÉTOILE: 1 word" in out and "ETOILE" in out
    assert "Words matching É?OLE: 1 word" in out


def test_words_read_catalan_l_dot_l_typed_in_ascii(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words -l catalan-debian check CO[L.L]EGI' said it was a pattern and 'check COL.LEGI'
    to use 'qiza words pattern': L·L had no way to be typed without its middle dot."""
    from qiza.cli import main

    use_word_lists(tmp_path, {"catalan": ["col·legi", "col·legis", "cel·la"]}, monkeypatch)
    assert main(["words", "-l", "catalan-debian", "check", "CO[L.L]EGI", "ce[l.l]a"]) == 0
    assert capsys.readouterr().out.splitlines() == ["CO[L.L]EGI (COL·LEGI): valid", "CE[L.L]A (CEL·LA): valid"]
    assert main(["words", "-l", "catalan-debian", "check", "COL.LEGI", "COL-LEGI"]) == 1
    assert capsys.readouterr().out.count("not a word as typed: type the tile L·L as L·L or [L·L] (in ASCII [L.L]") == 2
    assert main(["words", "-l", "catalan-debian", "hooks", "co[l.l]egi"]) == 0
    assert capsys.readouterr().out.strip() == "front: -   CO[L.L]EGI   back: S"
    assert main(["words", "-l", "catalan-debian", "anagram", "SIGE[L.L]OC"]) == 0
    assert capsys.readouterr().out.split()[0] == "COL·LEGIS"


def test_words_hooks_and_info_of_multi_letter_tiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words hooks [CH]ICO' said "[CH]ICO itself is not in SPANISH-DEBIAN" of a word that is
    (the note looked the bracketed text up), and 'info' counted the words' lengths in characters
    (CHE, a two-tile word, under 3)."""
    from qiza.cli import main

    use_word_lists(tmp_path, {"spanish": SPANISH_WORDS}, monkeypatch)
    assert main(["words", "-l", "spanish-debian", "hooks", "[CH]ICO"]) == 0
    assert capsys.readouterr().out.strip() == "front: -   [CH]ICO   back: S"
    assert main(["words", "-l", "spanish-debian", "hooks", "[ch]ico"]) == 0
    assert "itself" not in capsys.readouterr().out
    assert main(["words", "-l", "spanish-debian", "hooks", "C[H]ICO"]) == 0  # C then H: no CHICO
    assert "itself is not in SPANISH-DEBIAN" in capsys.readouterr().out
    assert main(["words", "-l", "spanish-debian", "info"]) == 0
    lengths = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("lengths:"))
    by_length = dict(item.split(":") for item in lengths.split(None, 1)[1].split(" (")[0].split(", "))
    assert int(by_length["2"]) == sum(SPANISH_LEX.tiles_in(w) == 2 for w in SPANISH_WORDS)  # CHE, YA, SI ...
    assert "in tiles" in lengths


def test_the_bingo_odds_read_only_the_words_of_seven_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The static player's bingo odds read every word of the lexicon into tile codes to keep those of
    seven tiles: 10 s of the 12.5 s 'qiza best' took on a position of Debian's Polish list (4
    million words), at every start. Only the words whose letters can make seven tiles are read; the
    odds are those of the same words."""
    import dataclasses

    from qiza.players.engine import bingo_odds

    words = ["CHICOTES", "CARRETAS", "LLAMADAS", "ABRAZOS", "CHICHARRONES", "PERRO", "CHICO", "ÑANDUES"]
    expected = [code for code in Lexicon("ES", frozenset(words), LoadReport(), tile_set=SPANISH).code_words()
                if len(code) == 7]
    assert len(expected) == 5  # CH-I-C-O-T-E-S, C-A-RR-E-T-A-S, LL-A-M-A-D-A-S, ABRAZOS, ÑANDUES
    lexicon = Lexicon("ES", frozenset(words), LoadReport(), tile_set=SPANISH)

    def every_word(*args: object) -> list[str]:
        raise AssertionError("every word read into codes")

    monkeypatch.setattr(Lexicon, "code_words", every_word)
    assert lexicon.code_words_of_length(7) == expected
    rules = dataclasses.replace(CLASSIC, tile_set=SPANISH)
    assert bingo_odds(lexicon, rules).words == expected
