"""Anagram quizzes (qiza.quiz, ``qiza words quiz``): probability ranks, judging answers, the command."""

from __future__ import annotations

import io
import math

import pytest

from qiza.alphabet import ENGLISH, SPANISH
from qiza.errors import QizaError
from qiza.lexicon import Lexicon, LoadReport
from qiza.quiz import alphagrams, parse_ranks, pick, run_quiz, summary

WORDS = Lexicon("TEST", frozenset({"RETAINS", "NASTIER", "STAINER", "JUKEBOX", "QUIZ", "ZAX", "AXE", "EAR", "ERA",
                                   "ARE", "TEA", "EAT"}), LoadReport())


def test_alphagrams_are_ranked_by_the_ways_to_draw_them() -> None:
    sevens = alphagrams(WORDS, 7)
    assert [(a.rank, a.tiles, a.words) for a in sevens] == [
        (1, "AEINRST", ("NASTIER", "RETAINS", "STAINER")), (2, "BEJKOUX", ("JUKEBOX",))]
    count = dict(zip(ENGLISH.letters, ENGLISH.counts))
    assert sevens[0].combinations == math.prod(count[x] for x in "AEINRST")  # one of each: 9*12*9*6*6*4*6
    threes = alphagrams(WORDS, 3)
    # AER and AET: 9*12*6 ways each (a tie, broken alphabetically); AEX: 9*12*1
    assert [(a.tiles, a.words) for a in threes] == [("AER", ("ARE", "EAR", "ERA")), ("AET", ("EAT", "TEA")),
                                                    ("AEX", ("AXE",)), ("AXZ", ("ZAX",))]
    assert threes[0].combinations == threes[1].combinations == 9 * 12 * 6
    assert alphagrams(WORDS, 5) == []
    with pytest.raises(QizaError, match="at least 2"):
        alphagrams(WORDS, 1)


def test_a_language_s_tiles_make_its_alphagrams() -> None:
    spanish = Lexicon("ES", frozenset({"CHICO", "LLAMA", "CALLA"}), LoadReport(), tile_set=SPANISH)
    fours = alphagrams(spanish, 4)
    # in the set's order (CH after C, LL after L); LLAMA is four tiles, CHICO too
    assert sorted(a.tiles for a in fours) == ["AAC[LL]", "AA[LL]M", "C[CH]IO"]
    both = next(a for a in fours if a.tiles == "C[CH]IO")
    assert both.combinations == 4 * 6 * 9 * 1  # C 4, I 6, O 9, CH 1
    assert alphagrams(spanish, 5) == []  # CALLA is C-A-LL-A: four tiles


def test_a_quiz_judges_each_answer_and_stops_when_asked() -> None:
    questions = alphagrams(WORDS, 7) + alphagrams(WORDS, 3)[:1]
    answers = iter(["retains, Nastier", "jukebox quiz zzz", "quit", "never asked"])
    said: list[str] = []
    result = run_quiz(WORDS, questions, lambda prompt: next(answers), said.append)
    assert [a.tiles for a in result.asked] == ["AEINRST", "BEJKOUX"]  # quit before the third
    assert result.found == [["RETAINS", "NASTIER"], ["JUKEBOX"]]
    assert result.wrong == [[], ["QUIZ", "ZZZ"]]
    assert said[0] == "right: RETAINS, NASTIER; missed: STAINER"
    assert said[1] == "right: JUKEBOX; QUIZ: not an anagram of these tiles; ZZZ: not a word"
    assert result.solved == 1 and [a.tiles for a in result.missed] == ["AEINRST"]
    assert summary(result) == ["Solved 1 of 2 alphagrams (50%); found 3 of 4 words.",
                               "To study: AEINRST (NASTIER, RETAINS, STAINER)"]
    ended = run_quiz(WORDS, questions, lambda prompt: None, said.append)  # the end of the input
    assert ended.asked == [] and summary(ended) == ["No alphagram answered."]
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return "nastier retains stainer"

    run_quiz(WORDS, questions[:1], answer, said.append)
    assert prompts == ["1/1  AEINRST  (3 words)> "] and said[-1] == "all found: NASTIER, RETAINS, STAINER"


def test_a_wrong_answer_is_said_back_safe_to_print_and_short() -> None:
    """An answer with an escape ('\x1b[2J') was said back as typed and cleared the screen; a line
    of 3,000 letters was said back whole."""
    questions = alphagrams(WORDS, 7)[:2]
    answers = iter(["\x1b[2Jab\x07", "Q" * 3000])
    said: list[str] = []
    run_quiz(WORDS, questions, lambda prompt: next(answers), said.append)
    assert said[0].endswith("; ␛[2JAB␇: not a word") and "\x1b" not in said[0]
    assert said[1].endswith(f"; {'Q' * 40}… (3000 characters): not a word")


def test_ranks_and_picks() -> None:
    assert parse_ranks("1-200") == (1, 200) and parse_ranks("50") == (1, 50)
    for bad in ("0-5", "9-3", "a-b", ""):
        with pytest.raises(QizaError, match="--ranks"):
            parse_ranks(bad)
    ranked = alphagrams(WORDS, 3)
    assert pick(ranked, (1, 4), 10, seed=1) == pick(ranked, (1, 4), 10, seed=1)
    assert sorted(a.rank for a in pick(ranked, (2, 3), 10, seed=2)) == [2, 3]
    assert len(pick(ranked, (1, 4), 2, seed=3)) == 2
    with pytest.raises(QizaError, match="only 4 alphagrams"):
        pick(ranked, (5, 9), 1, seed=0)


def test_the_command_quizzes_on_standard_input(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main

    assert main(["words", "quiz", "--list", "--ranks", "1-3"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == ["1", "2", "3"]
    first = listed[0].split()
    assert first[1] == "AEEINRT" and "RETINAE" in first[2:]  # ENABLE's likeliest seven
    monkeypatch.setattr("sys.stdin", io.StringIO("retinae trainee\n\n"))
    assert main(["words", "quiz", "--count", "3", "--seed", "4", "--ranks", "1"]) == 0
    out = capsys.readouterr().out
    assert "Anagram quiz: 1 alphagram of 7 tiles from ENABLE, probability ranks 1-1" in out
    assert "right: RETINAE, TRAINEE; missed: ARENITE" in out
    assert "Solved 0 of 1 alphagram (0%); found 2 of 3 words." in out
    assert main(["words", "quiz", "--ranks", "x"]) == 2  # a usage error
    assert "--ranks is FIRST-LAST" in capsys.readouterr().err
    assert main(["words", "quiz", "--length", "40"]) == 1
    assert "no words of 40 tiles" in capsys.readouterr().err


def test_the_quiz_fits_80_columns(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The quiz's first line ('... probability ranks 1-200 of 23,109.') and its 'To study:' line of
    every alphagram missed ran past 80 columns, cut by the terminal in the middle of a word. Every
    line fits, an alphagram and its words whole on one line."""
    from qiza.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 12))
    assert main(["words", "quiz", "--ranks", "1-200", "--count", "12", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    lines = [line.split("> ")[-1] for line in out.splitlines()]  # the prompts are read on their line
    assert max(len(line) for line in lines) <= 80, out
    studied = "\n".join(lines[lines.index(next(line for line in lines if line.startswith("To study: "))):])
    assert studied.count("(") == 12  # twelve missed, each on one line with its words
    for entry in filter(None, (text.strip() for text in studied.removeprefix("To study: ").split("  "))):
        assert entry.count("(") == entry.count(")") == 1, studied
