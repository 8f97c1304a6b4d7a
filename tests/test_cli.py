"""Conventions every ``qiza`` subcommand shares: the counts of worker processes, and the exit
status of a command line that is wrong (2) against that of a command that failed (1)."""

from __future__ import annotations

import argparse
import importlib

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
    with pytest.raises(SystemExit) as stop:
        main(["selfplay", "easy", "beginner", "-n", "1", "-j", "-2"])
    assert stop.value.code == 2 and "argument -j/--jobs: a number of processes is 0 or more" in capsys.readouterr().err
