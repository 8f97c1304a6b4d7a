"""Conventions every ``qiza`` subcommand shares: the counts of worker processes, and the exit
status of a command line that is wrong (2) against that of a command that failed (1)."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from qiza.cli import main

PROCESS_OPTIONS = [("qiza.players.analyze_cli", ["x.gcg"], "-j", "jobs"),
                   ("qiza.players.selfplay", ["easy", "beginner"], "--jobs", "jobs"),
                   ("qiza.players.train", [], "-j", "jobs"),
                   ("qiza.players.winprob", None, "--jobs", "jobs"),
                   ("qiza.web.server", [], "--computer-workers", "computer_workers")]
"""Every option taking a number of processes: module, the other arguments its parser needs (None:
the module's own ``main``), the option and its attribute."""


def _parse(module_name: str, rest: list[str] | None, *option: str) -> argparse.Namespace:
    module = importlib.import_module(module_name)
    if rest is None:  # python -m qiza.players.winprob: its parser is made in main; stop it there
        captured: list[argparse.Namespace] = []

        def stop(count: int, jobs: int, seed: int) -> None:
            captured.append(argparse.Namespace(jobs=jobs))
            raise KeyboardInterrupt

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(module, "generate", stop)
            with pytest.raises(KeyboardInterrupt):
                module.main(list(option))
        return captured[0]
    parser = argparse.ArgumentParser()
    module.configure(parser)
    return parser.parse_args([*rest, *option])


@pytest.mark.parametrize("module_name, rest, option, attribute", PROCESS_OPTIONS)
def test_process_counts_are_capped_at_the_cores(module_name: str, rest: list[str] | None, option: str,
                                                attribute: str, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza analyze -j 500' of one record started 500 simulation processes; every option giving
    a number of processes is at most the machine's cores, said in a note, and a negative one is a
    usage error."""
    monkeypatch.setattr("qiza.cli.os.cpu_count", lambda: 4)
    assert getattr(_parse(module_name, rest, option, "500"), attribute) == 4
    assert "note: 500 processes asked for, more than the 4 cores of this machine: 4 are used" in capsys.readouterr().err
    for count in ("0", "1", "4"):
        assert getattr(_parse(module_name, rest, option, count), attribute) == int(count)
        assert capsys.readouterr().err == ""
    for bad, message in (("-2", "a number of processes is 0 or more, not -2"),
                         ("two", "a number of processes is a whole number, not 'two'")):
        with pytest.raises(SystemExit) as stop:
            _parse(module_name, rest, option, bad)
        assert stop.value.code == 2 and message in capsys.readouterr().err


def test_selfplay_plays_on_the_capped_count(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The capped count is the one the games run on (a negative one was refused only after the
    move generator was loaded, with status 1)."""
    from qiza.players import selfplay

    given: list[int | None] = []

    def run_games(*args: object, jobs: int | None = None, **options: object) -> list[object]:
        given.append(jobs)
        return []

    monkeypatch.setattr("qiza.cli.os.cpu_count", lambda: 2)
    monkeypatch.setattr(selfplay, "run_games", run_games)
    monkeypatch.setattr("qiza.cli.prepare_move_generator", lambda: None)
    monkeypatch.setattr(selfplay, "format_table", lambda *args: "")
    assert main(["selfplay", "easy", "beginner", "-n", "1", "-j", "64", "--lexicon", "enable"]) == 0
    assert given == [2]
    assert main(["selfplay", "easy", "beginner", "-n", "1", "-j", "-2"]) == 2
    assert "argument -j/--jobs: a number of processes is 0 or more" in capsys.readouterr().err


RECORD = "#player1 a Ann\n#player2 b Bob\n>a: DINNVWY 8D WINDY +32 32\n>b: ADEEGIL 7C GALE +16 16\n"
REFUSED = RECORD + ">a: AEJNOSV 1A JAVE +10 42\n"
"""A record whose third turn the rules engine refuses (JAVE touches nothing)."""


@pytest.mark.parametrize("args, message", [
    (["bogus"], "argument COMMAND: invalid choice: 'bogus'"),
    (["play", "--plain", "--no-save", "--rules", "bogus"], "unknown rule preset 'bogus'"),
    (["play", "--plain", "--no-save", "--exchange-limit", "1000001"], "at most 1,000,000"),
    (["play", "--plain", "--no-save", "-p", "Ann", "-p", "computer:grandmaster"], "unknown computer level"),
    (["play", "--plain", "--resume", "{dir}/missing.json"], "--resume: no such file: '{dir}/missing.json'"),
    (["play", "--plain", "--width", "0"], "argument --width"),
    (["words", "--lexicon", "nosuch", "check", "CAT"], "argument --lexicon/-l: unknown lexicon 'nosuch'"),
    (["words", "quiz", "--count", "0"], "--count must be at least 1, not 0"),
    (["words", "quiz", "--ranks", "x"], "--ranks is FIRST-LAST or LAST"),
    (["gcg", "check", "--lexicon", "{dir}/missing.txt", "{dir}/game.gcg"], "no such word list file"),
    (["best", "--top", "0", "{dir}/game.gcg"], "--top must be at least 1, not 0"),
    (["best", "--iterations", "0", "{dir}/game.gcg"], "--iterations must be at least 1"),
    (["analyze", "--iterations", "0", "{dir}/game.gcg"], "--iterations must be at least 1"),
    (["analyze", "--threshold", "-1", "{dir}/game.gcg"], "argument --threshold"),
    (["puzzle", "--number", "5", "{dir}/game.gcg"], "--number asks the computer's numbered puzzles"),
    (["selfplay", "easy", "bogus", "-n", "1"], "unknown player 'bogus'"),
    (["selfplay", "easy", "beginner", "-n", "0"], "--games must be at least 1, not 0"),
    (["selfplay", "easy", "beginner", "--rules", "bogus"], "unknown rule preset 'bogus'"),
    (["train", "--rules", "bogus"], "unknown rule preset 'bogus'"),
    (["train", "--rules", "french", "--lexicon", "enable"], "the lexicon ENABLE is English"),
    (["train", "--resume", "{dir}/missing.json"], "argument --resume: no such file"),
    (["serve", "--port", "99999999"], "argument --port: a whole number from 0 to 65535, not 99999999"),
    (["serve", "--sign-ups", "-1"], "argument --sign-ups: a whole number of 1 or more, not -1"),
    (["serve", "--sign-ups", "0"], "argument --sign-ups: a whole number of 1 or more, not 0"),
    (["serve", "--new-games", "0"], "argument --new-games: a whole number of 1 or more, not 0"),
    (["serve", "--analyses", "0"], "argument --analyses: a whole number of 1 or more, not 0"),
])
def test_usage_errors_exit_2_in_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              args: list[str], message: str) -> None:
    """A bad option value exited with 2 when argparse checked it and 1 when the command did
    ('qiza best --top 0', 'qiza play --rules bogus', an unknown --lexicon): every usage error is
    now said as argparse says its own (the usage, then 'qiza COMMAND: error: ...') with status 2."""
    (tmp_path / "game.gcg").write_text(RECORD)
    status = main([arg.replace("{dir}", str(tmp_path)) for arg in args])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("usage: qiza") and "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("qiza")]
    assert len(errors) == 1 and ": error: " in errors[0] and message.replace("{dir}", str(tmp_path)) in errors[0]


@pytest.mark.parametrize("args, message", [
    (["analyze", "{dir}/missing.gcg"], "{dir}/missing.gcg: cannot read: No such file"),
    (["analyze", "--player", "nobody", "{dir}/game.gcg"], "has no player 'nobody'"),
    (["best", "--turn", "9", "{dir}/game.gcg"], "has 2 turns: --turn must be 1 to 3"),
    (["best", "--engine", "static", "{dir}/refused.gcg"], "cannot replay the record up to turn 4"),
    (["gcg", "show", "{dir}/binary.gcg"], "{dir}/binary.gcg:1:"),
    (["movegen", "{dir}/missing.txt"], "{dir}/missing.txt: cannot read: No such file"),
    (["words", "pattern", "Q-T"], "is not a pattern"),
])
def test_failures_exit_1_without_the_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           args: list[str], message: str) -> None:
    """What the command was given fails (a file it works on, a record's move, a --turn the record
    does not have): status 1, the error alone."""
    (tmp_path / "game.gcg").write_text(RECORD)
    (tmp_path / "refused.gcg").write_text(REFUSED)
    (tmp_path / "binary.gcg").write_bytes(b"\x00\xff\x00 binary")
    status = main([arg.replace("{dir}", str(tmp_path)) for arg in args])
    err = capsys.readouterr().err
    assert status == 1, err
    errors = [line for line in err.splitlines() if line.startswith("qiza")]
    assert "usage:" not in err and len(errors) == 1 and message.replace("{dir}", str(tmp_path)) in errors[0], err


def test_help_says_what_the_exit_statuses_mean(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    assert "exit status, the same for every command:" in out
    assert "\n  2    the command line is wrong: an unknown option or command, a bad option\n" in out
    assert "\n  130  interrupted (Ctrl-C; a game of qiza play is saved and exits 0)" in out
    lines = out[out.index("exit status,"):].splitlines()
    assert max(len(line) for line in lines) <= 78  # the statuses fit an 80-column terminal unwrapped


def test_help_names_every_action_of_words_and_gcg(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza --help' said 'gcg: check a GCG file' (it also shows and exports one) and left the
    word tools' threes, info and quiz out: a new user reading it did not know they were there."""
    with pytest.raises(SystemExit):
        main(["--help"])
    summary = " ".join(capsys.readouterr().out.split())
    words = summary[summary.index("words word tools:"):summary.index(" gcg ")]
    gcg = summary[summary.index(" gcg game records:"):summary.index(" movegen ")]
    for action in ("check", "anagrams", "hooks", "two-", "three-letter words", "patterns", "info", "quiz"):
        assert action in words, (action, words)
    for action in ("check", "show", "export"):
        assert action in gcg, (action, gcg)


def test_a_missing_optional_dependency_is_a_failure_not_a_usage_error(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza serve' without the web extra exited 2, as if its command line were wrong."""
    real = importlib.import_module

    def without_web(name: str, package: str | None = None) -> object:
        if name == "qiza.web.server":
            raise ModuleNotFoundError("No module named 'fastapi'", name="fastapi")
        return real(name, package)

    monkeypatch.setattr("qiza.cli.importlib.import_module", without_web)
    assert main(["serve"]) == 1
    assert "qiza serve: needs an optional dependency that is missing (fastapi)" in capsys.readouterr().err


def test_an_error_about_a_huge_argument_is_not_said_back_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words anagram' of 3,000 letters said them all back in its error (40 lines at 80
    columns) before 'at most 21 tiles, not 3000'. A long message keeps its start and its end."""
    assert main(["words", "anagram", "Q" * 3000]) == 1
    err = capsys.readouterr().err
    assert err.startswith("qiza words: 'QQQ") and err.rstrip().endswith(": at most 21 tiles, not 3000")
    assert err.count("Q") < 420 and "(3000 characters)" in err  # cut by the library's message already
    assert main(["words", "anagram", "AB1"]) == 1  # a short message is whole
    assert "('1' is not a letter of the english tile set)" in capsys.readouterr().err


def test_an_error_naming_long_paths_is_said_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Errors over 400 characters were cut in the middle, whatever they held: a damaged save's
    message, which names the file twice and the command that continues from the save before it,
    lost that command in a folder of long names. Only runs of over 1,000 characters without a
    space (an argument said back) are cut."""
    path = tmp_path / ("d" * 200) / ("e" * 200) / "game.json"
    assert main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and " characters) …" not in err


def test_lines_that_are_not_utf8_are_refused_not_a_traceback(tmp_path: Path) -> None:
    """Under a UTF-8 locale (en_US.UTF-8: standard input strict) a line of Latin-1 bytes typed or
    piped stopped 'qiza play', the quiz and 'qiza puzzle' with a UnicodeDecodeError's traceback.
    Each bad byte reads as U+FFFD and the line is refused as one with a wrong character; under
    C.UTF-8 (surrogate escapes) the bytes were echoed back to the terminal raw."""
    import os
    import subprocess
    import sys

    for errors in ("strict", "surrogateescape"):
        env = {**os.environ, "PYTHONIOENCODING": f"utf-8:{errors}", "HOME": str(tmp_path)}
        run = subprocess.run([sys.executable, "-m", "qiza", "play", "-p", "Ann", "-p", "Bob", "--no-save",
                              "--seed", "3"], input=b"H8 \xff\xfeWORD\nquit\n", capture_output=True, env=env,
                             timeout=120)
        out = run.stdout.decode("utf-8", errors="replace")
        assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr[-500:]
        assert "'H8 \ufffd\ufffdWORD': '\ufffd' is not a letter" in out and b"\xff" not in run.stdout
        run = subprocess.run([sys.executable, "-m", "qiza", "words", "-l", "enable", "quiz", "--ranks", "1-10",
                              "--count", "1", "--seed", "1"], input=b"\xff\n", capture_output=True, env=env,
                             timeout=120)
        assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr[-500:]


def test_the_study_commands_share_their_short_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza words' takes -l for --lexicon and 'qiza best' -n for --top; 'qiza best', 'analyze',
    'puzzle' and 'gcg check' refused -l, and 'analyze' -n, as unknown options (status 2)."""
    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: DINNVWY 8D WINDY +32 32\n"
                      ">bob: ADEEGIL 7C GALE +16 16\n")
    assert main(["best", "-l", "sowpods", "-n", "1", "--turn", "2", str(record)]) == 0
    assert "lexicon SOWPODS" in capsys.readouterr().out
    assert main(["analyze", "-l", "sowpods", "-n", "2", "--width", "120", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Lexicon: SOWPODS") and any(line.startswith(" " * 60) for line in out.splitlines())  # --top 2
    assert main(["gcg", "check", "-l", "sowpods", str(record)]) == 0
    capsys.readouterr()
    assert main(["puzzle", "-l", "sowpods", "--threshold", "1000", str(record)]) == 1  # no turn lost 1000
    assert "no turn of these records lost 1000 equity" in capsys.readouterr().err
    for command in (["best"], ["analyze"], ["puzzle"], ["gcg", "check"]):
        assert main([*command, "-l", "twl07", str(record)]) == 2
        assert "unknown lexicon 'twl07'" in capsys.readouterr().err
