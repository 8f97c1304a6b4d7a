"""``qiza analyze`` of many games (qiza.players.analyze_many) and the jobs spread over worker
processes or a Ray cluster (qiza.players.cluster), as self-play uses them too."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import local_ray

from qiza import gcg, savefile
from qiza.errors import QizaError
from qiza.game import Game
from qiza.lexicon import load_lexicon
from qiza.players import make_player
from qiza.players.analyze_many import analyze_many, format_many, record_files, totals
from qiza.players.review import analyze_record
from qiza.rules import CLASSIC, COMPUTER


def _write_games(folder: Path, count: int, turns: int = 8) -> list[Path]:
    """``count`` games of two computer players (ENABLE) as GCG: the first played to the end,
    the others cut after ``turns`` turns."""
    lexicon = load_lexicon("enable")
    paths = []
    for n in range(count):
        game = Game(CLASSIC, players=["Ann", "Bob" if n % 2 else "Cy"], lexicon=lexicon, seed=40 + n)
        players = [make_player("medium", lexicon, seed=n), make_player("easy", lexicon, seed=n)]
        while not game.over and (n == 0 or len(game.history) < turns):
            game.play(players[game.to_move].choose(game.view(game.to_move)))
        path = folder / f"game{n}.gcg"
        path.write_text(gcg.dumps(gcg.from_game(game)), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("games")
    (folder / "club").mkdir()
    _write_games(folder, 2)
    for path in _write_games(folder / "club", 1):
        path.rename(folder / "club" / "later.gcg")
    (folder / "notes.txt").write_text("not a record")
    return folder


def test_the_files_of_folders_and_what_is_not_there(games: Path, tmp_path: Path) -> None:
    files = record_files([str(games), str(games / "game1.gcg")], recursive=True)
    assert [Path(f).relative_to(games).as_posix() for f in files] == ["club/later.gcg", "game0.gcg", "game1.gcg"]
    with pytest.raises(QizaError, match="nowhere.gcg: no such file or folder"):
        record_files([str(games / "nowhere.gcg")])
    with pytest.raises(QizaError, match="no game records"):
        record_files([str(tmp_path)])


def test_a_folder_is_searched_alone_for_records_unless_recursive(games: Path, tmp_path: Path) -> None:
    """``qiza analyze /tmp`` walked the whole tree below the folder (over 100 s, not a word said)
    and took every .json file for a game. A folder's own files are searched, its subfolders with
    --recursive (not hidden ones), .json files only when they are games saved by qiza, each
    folder searched told to ``progress``; a folder without records says what was searched."""
    games = Path(shutil.copytree(games, tmp_path / "games"))
    (games / "settings.json").write_text('{"theme": "dark"}')
    save = games / "saved.json"
    savefile.save(Game(COMPUTER, players=["Ann", "Bob"], seed=3), save)
    (games / ".cache").mkdir()
    _write_games(games / ".cache", 1)
    os.mkfifo(games / "pipe.gcg")
    told: list[tuple[int, int]] = []
    files = record_files([str(games)], progress=lambda *args: told.append(args))
    assert [Path(f).name for f in files] == ["game0.gcg", "game1.gcg", "saved.json"]
    assert told == [(1, 3)]
    told.clear()
    files = record_files([str(games)], recursive=True, progress=lambda *args: told.append(args))
    assert [Path(f).relative_to(games).as_posix() for f in files] == ["club/later.gcg", "game0.gcg", "game1.gcg",
                                                                      "saved.json"]
    assert told == [(1, 3), (2, 4)]
    (tmp_path / "deep" / "er").mkdir(parents=True)
    _write_games(tmp_path / "deep" / "er", 1)
    with pytest.raises(QizaError, match=r"deep: no game records .* in this folder \(its subfolders are not "
                                        r"searched: --recursive searches them\)"):
        record_files([str(tmp_path / "deep")])
    assert len(record_files([str(tmp_path / "deep")], recursive=True)) == 1
    (tmp_path / "empty").mkdir()
    with pytest.raises(QizaError, match=r"empty: no game records \(.gcg files, or games saved by qiza\) in this "
                                        r"folder$"):
        record_files([str(tmp_path / "empty")])


def test_many_games_are_each_analysed_as_one_is_and_totalled(games: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_bytes(b"\x00\x01 not a game")
    paths = [str(games), str(bad)]
    serial = sorted(analyze_many(paths, jobs=1, recursive=True), key=lambda g: g.source)
    parallel = sorted(analyze_many(paths, jobs=2, recursive=True), key=lambda g: g.source)
    assert serial == parallel  # the same analysis on two worker processes
    by_name = {Path(g.source).name: g for g in serial}
    assert by_name["bad.gcg"].error and not by_name["bad.gcg"].turns
    for name in ("game0.gcg", "game1.gcg", "later.gcg"):
        game = by_name[name]
        record = gcg.load(next(f for f in record_files([str(games)], recursive=True) if f.endswith(name)))
        assert not game.error and game.lexicon == "ENABLE" and game.turns == analyze_record(record, "enable")
        assert game.players == [p.nick for p in record.players]
        assert game.scores == [[e.total for e in record.events if e.player == p.nick][-1]
                               for p in record.players]  # the last totals: after the racks left
    assert [by_name[name].finished for name in ("game0.gcg", "game1.gcg", "later.gcg")] == [True, False, True]
    rows = {row.player: row for row in totals(serial)}
    assert rows["Ann"].games == 3 and rows["Bob"].games == 1 and rows["Cy"].games == 2
    ann = [t for g in serial for t in g.turns if t.player == "Ann"]
    rated = [t.lost for t in ann if t.lost is not None]
    assert rows["Ann"].turns == len(ann) and rows["Ann"].rated == len(rated)
    assert rows["Ann"].lost == pytest.approx(sum(rated))
    assert rows["Ann"].mistakes == sum(1 for x in rated if x >= 5)
    assert rows["Ann"].wins + rows["Bob"].wins + rows["Cy"].wins == pytest.approx(2)  # two games finished
    assert rows["Bob"].wins == 0  # in the game cut short
    # one player's turns only: the others' games are not counted for them
    only = list(analyze_many([str(games)], player="Bob", jobs=1, recursive=True))
    assert {t.player for g in only for t in g.turns} == {"Bob"}
    assert sorted(bool(g.error) for g in only) == [False, True, True]  # Bob played one game of three
    assert [row.player for row in totals(only)] == ["Bob"]
    lines = format_many(serial)
    assert lines[0].split()[:4] == ["game", "turns", "lost/turn", "mistakes"]
    assert any(line.startswith("bad.gcg") and "not analysed" in line for line in lines)
    assert "3 of 4 games analysed" in lines


def test_the_command_analyses_a_folder(games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.cli import main

    assert main(["analyze", str(games), "--recursive", "--player", "Ann", "-j", "2"]) == 0
    captured = capsys.readouterr()
    assert "3 game records to analyse" in captured.err
    out = captured.out.splitlines()
    assert out[0] == "Lexicon: each record's own"
    assert [line.split()[0] for line in out[3:6]] == ["later.gcg", "game0.gcg", "game1.gcg"]  # in file order
    assert "3 of 3 games analysed" in out
    assert next(line for line in out if line.startswith("Ann")).split()[1] == "3"  # three games
    assert main(["analyze", str(games), "--jobs", "-1"]) == 2  # a usage error, as argparse's own
    assert "argument -j/--jobs: a number of processes is 0 or more, not -1" in capsys.readouterr().err


def test_self_play_and_analysis_on_ray_match_the_process_pool(games: Path) -> None:
    """``--ray``: a Ray instance on this machine (one CPU) plays the same games and makes the
    same analysis as the local worker processes."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'qiza[train]')")
    from qiza.players.selfplay import run_games

    local = sorted(run_games(["static", "maxscore"], 3, lexicon="enable", jobs=2, seed=5, progress=False),
                   key=lambda r: r.seed)
    analysed = sorted(analyze_many([str(games)], jobs=1), key=lambda g: g.source)
    with local_ray(ray):
        on_ray = sorted(run_games(["static", "maxscore"], 3, lexicon="enable", seed=5, progress=False,
                                  ray_address="auto"), key=lambda r: r.seed)
        analysed_on_ray = sorted(analyze_many([str(games)], ray_address="auto"), key=lambda g: g.source)
    assert [(r.seed, r.scores, r.turns) for r in on_ray] == [(r.seed, r.scores, r.turns) for r in local]
    assert analysed_on_ray == analysed


def test_the_report_keeps_names_in_wide_characters_in_line() -> None:
    from qiza.players.analyze_many import GameAnalysis
    from qiza.players.review import TurnAnalysis
    from qiza.text import cells

    turns = [TurnAnalysis(1, "欧阳娜娜娜娜娜娜娜", "AEINRST", "8D RETAINS", 70, 70.0, "8D NASTIER", 80.0),
             TurnAnalysis(2, "Bob", "QIZAXYE", "8H QI", 22, 20.0, "8H ZAX", 40.0)]
    games = [GameAnalysis("a.gcg", ["欧阳娜娜娜娜娜娜娜", "Bob"], [70, 22], turns, "TWL06", True)]
    lines = format_many(games)
    rows = [line for line in lines if line.startswith(("欧阳", "Bob "))]
    assert len(rows) == 2 and cells(rows[0].split(" 1 ")[0]) == cells(rows[1].split(" 1 ")[0])
    worst = [line for line in lines if " 8D RETAINS" in line or " 8H QI" in line]
    assert len(worst) == 2 and len({cells(line) for line in worst}) == 1


def test_the_report_tells_games_of_like_names_apart() -> None:
    """The report cut game names to 25 characters (18 in the worst turns), so that
    guy_vs_bot.gcg and guy_vs_bot_almost_complete.gcg looked alike; files of the same name in
    two folders (a tournament's rounds) were alike whole."""
    from qiza.players.analyze_many import GameAnalysis
    from qiza.players.review import TurnAnalysis

    turns = [TurnAnalysis(5, "guy", "EILNRUU", "J3 ULU", 4, 0.0, "E5 UN(R)ULIER", 70.4)]
    sources = ["games/macondo__guy_vs_bot.gcg", "games/macondo__guy_vs_bot_almost_complete.gcg",
               "club/r1/game.gcg", "club/r2/game.gcg"]
    games = [GameAnalysis(source, ["guy", "bot"], [454, 424], turns, "SOWPODS", True) for source in sources]
    lines = format_many(games[:2])
    for name in ("macondo__guy_vs_bot.gcg ", "macondo__guy_vs_bot_almost_complete.gcg "):
        assert sum(line.startswith(name) for line in lines) == 2, lines  # its line and its worst turn
    lines = format_many(games)
    assert sum(line.startswith(("club/r1/game.gcg ", "club/r2/game.gcg ")) for line in lines) == 4, lines
    assert lines[2].startswith("games/macondo__guy_vs_bot_almost_complete.gcg ")  # from the folder in common
    assert len({line.index("SOWPODS") for line in lines if "SOWPODS" in line}) == 1  # in line


def test_one_record_says_ray_spreads_games_and_gives_jobs_to_its_simulation(
        games: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """'qiza analyze game.gcg --ray auto' analysed the game on this machine without a word (the
    cluster takes whole games), and -j was ignored: the simulation ran on every core."""
    from qiza.cli import main
    from qiza.players import analyze_cli, review

    record = str(games / "game1.gcg")
    assert main(["analyze", record]) == 0
    alone = capsys.readouterr()
    assert main(["analyze", record, "--ray", "auto"]) == 0  # the same analysis, said to be made here
    captured = capsys.readouterr()
    assert captured.out == alone.out and analyze_cli.RAY_ONE_RECORD in captured.err.splitlines()
    given: list[int | None] = []
    real = review.analyze_record

    def spy(*args: object, **options: Any) -> list[review.TurnAnalysis]:
        given.append(options.get("workers"))
        return real(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(review, "analyze_record", spy)
    for jobs in ("1", "0"):  # 0: every core, as for several games
        assert main(["analyze", record, "-j", jobs]) == 0
    assert given == [1, None]
    capsys.readouterr()
    monkeypatch.setattr("qiza.cli.os.cpu_count", lambda: 2)
    assert main(["analyze", record, "-j", "500"]) == 0  # started 500 simulation processes
    assert given[-1] == 2
    assert "note: 500 processes asked for, more than the 2 cores of this machine: 2 are used" in capsys.readouterr().err


def test_the_report_shows_control_characters_of_file_names_as_symbols() -> None:
    """A file name holding an escape sequence acted on the terminal that showed the report."""
    from qiza.players.analyze_many import GameAnalysis

    games = [GameAnalysis("games/a\x1b[2J.gcg", error="games/a\x1b[2J.gcg:1: binary data")]
    lines = format_many(games)
    assert lines[1] == "a\u241b[2J.gcg not analysed: games/a\u241b[2J.gcg:1: binary data"


def test_one_record_fits_the_screen_and_80_columns_without_one(
        games: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """'qiza analyze game.gcg' printed its table 111 columns wide and more (notes) whenever its
    output was not a terminal ('| less', a file, an 80-column window's pipe). Without a terminal
    to measure it fits 80 columns; --width (or COLUMNS) gives the full table where it fits; a long
    note is cut at the edge."""
    from qiza.cli import main
    from qiza.players.analyze_cli import WIDE, format_analysis
    from qiza.players.review import TurnAnalysis

    monkeypatch.delenv("COLUMNS", raising=False)
    record = str(games / "game0.gcg")
    assert main(["analyze", record]) == 0
    narrow = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in narrow) <= 80 and "equity" not in narrow[3] and "player" in narrow[3]
    assert main(["analyze", record, "--width", "120"]) == 0
    wide = capsys.readouterr().out.splitlines()
    assert "equity" in wide[3] and "win%" in wide[3] and max(len(line) for line in wide) > 80
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["analyze", record]) == 0
    assert capsys.readouterr().out.splitlines() == wide
    assert main(["analyze", record, "--width", "0"]) == 2  # a usage error
    assert "argument --width" in capsys.readouterr().err
    note = "not a legal move: the word WORDS is not in the lexicon, nor are its hooks"
    turns = [TurnAnalysis(1, "Ann", "AEINRST", "8D RETAINS", 70, 60.0, "8D NASTIER", 75.0, note),
             TurnAnalysis(2, "Bob_with_a_long_name", "QQQQQQQ", "H4 SIXTEENLETTERS", 9, None, "H4 S", None,
                          "phony")]
    for width in (80, WIDE, 140, 200):
        lines = format_analysis(turns, width=width)
        assert max(len(line) for line in lines) <= width, width
    assert format_analysis(turns, width=200)[1].endswith(f"({note})")  # room for it whole
    assert format_analysis(turns, width=140)[1].endswith("…")


def test_a_folder_with_only_hidden_subfolders_does_not_send_to_recursive(tmp_path: Path) -> None:
    """A folder whose only subfolder is hidden (a project's .git) said '--recursive searches
    them', and --recursive passes hidden folders over: it then said 'or its subfolders'."""
    (tmp_path / "project" / ".git").mkdir(parents=True)
    _write_games(tmp_path / "project" / ".git", 1)
    with pytest.raises(QizaError, match=r"project: no game records \(.gcg files, or games saved by qiza\) in this "
                                        r"folder$"):
        record_files([str(tmp_path / "project")])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's workers are forked")
def test_ctrl_c_leaves_the_pool_workers_quiet() -> None:
    """Ctrl-C in 'qiza analyze FOLDER -j 2' (or selfplay, train) reached the worker processes too
    (the terminal signals the whole process group): each printed 'Process ForkPoolWorker-2:' and
    a KeyboardInterrupt traceback, and the job it held was lost. Now the workers leave Ctrl-C to
    the process that owns the pool: here each job signals its own worker, and every job ends."""
    import subprocess
    import sys

    code = """
import os, signal
from qiza.players.cluster import run_many

def job(item):
    os.kill(os.getpid(), signal.SIGINT)
    return item * 2

def setup(offset):
    os.environ["QIZA_TEST_OFFSET"] = str(offset)

print(sorted(run_many(job, range(6), jobs=2, initializer=setup, initargs=(1,))))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[0, 2, 4, 6, 8, 10]", done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "ForkPoolWorker" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's workers are forked")
def test_a_pool_closes_whatever_sigterm_handler_its_owner_has() -> None:
    """CI hung for 12 minutes closing the simulation's pool in 'qiza best --engine auto': an
    earlier test had started Ray, which leaves its own SIGTERM handler in the process; the
    workers forked after it ran that handler when the pool stopped them with SIGTERM, and one
    did not end. A worker now ends on SIGTERM whatever its owner's handler (here one that
    ignores it), also when stopped as soon as it is made, before its set-up has run."""
    import subprocess
    import sys

    code = """
import signal
from qiza.players.cluster import start_pool

signal.signal(signal.SIGTERM, lambda signum, frame: None)  # the owner's handler
for _ in range(5):
    start_pool(2).terminate()  # at once: the workers may not have run their set-up
    pool = start_pool(2)
    assert pool.map(abs, [-1, -2]) == [1, 2]
    pool.terminate()
print("closed")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "closed", done.stderr[-2000:]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's workers are forked")
def test_ctrl_c_as_the_pool_is_made_leaves_its_workers_quiet() -> None:
    """Ctrl-C that reached a worker before its set-up had run (the pool just made, on a loaded
    machine) printed a KeyboardInterrupt traceback and the worker was replaced. The workers hold
    Ctrl-C from the fork until their set-up ignores it."""
    import subprocess
    import sys

    code = """
import os, signal
from qiza.players.cluster import start_pool

for _ in range(40):  # the old workers failed this in some of 60 tries, beside two busy loops
    pool = start_pool(2)
    pids = sorted(worker.pid for worker in pool._pool)
    for pid in pids:
        os.kill(pid, signal.SIGINT)  # at once, as the terminal signals the process group
    assert pool.map(abs, [-1, -2, -3]) == [1, 2, 3]
    assert sorted(worker.pid for worker in pool._pool) == pids  # none ended and was replaced
    pool.terminate()
print("quiet")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "quiet", done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "ForkPoolWorker" not in done.stderr


def test_a_folder_with_records_of_illegal_moves_is_analysed_whole_and_fails(
        games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every record of a folder is analysed; a record with an illegal move is named with its line
    and why, and the status is 1 (the README's 'an illegal move in a record'); it was 0."""
    from qiza.cli import main

    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(games / "game0.gcg", folder / "good.gcg")
    for name in ("bad1.gcg", "bad2.gcg"):
        (folder / name).write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8M RETAINS +66 66\n")
    assert main(["analyze", "-j", "1", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert "3 of 3 games analysed" in out
    assert next(line for line in out.splitlines() if line.startswith("bad1.gcg")).endswith("(illegal move)")
    for name in ("bad1.gcg", "bad2.gcg"):
        assert f"qiza analyze: {folder / name}:3: turn 1 (>ann: AEINRST 8M RETAINS +66 66) is not a legal move: " \
               "the word runs off the 15x15 board" in err
    assert str(folder / "good.gcg") not in err
    assert main(["analyze", "-j", "1", str(folder / "good.gcg"), str(games / "game1.gcg")]) == 0


def test_a_folder_analysed_for_one_player_passes_over_the_games_without_them(
        games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza analyze FOLDER --player NAME' listed every game NAME did not play as 'not analysed: PATH
    has no player ...' (44 such lines for a name in none of the shared records, and status 1 only
    then, after the whole report); they are counted in a line, and a name in no record is the
    command's one error, as 'qiza puzzle' says it."""
    from qiza.cli import main

    assert main(["analyze", str(games), "--recursive", "--player", "Bob", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "not analysed" not in out and "has no player" not in out
    assert "1 of 3 games analysed; 2 without the player asked for passed over" in out.splitlines()
    assert [line.split()[0] for line in out.splitlines()[3:4]] == ["game1.gcg"]
    assert main(["analyze", str(games), "--recursive", "--player", "Nobody", "-j", "1"]) == 1
    out, err = capsys.readouterr()
    assert out.strip() == "Lexicon: each record's own"
    assert err.splitlines()[-1] == "qiza analyze: no record has a player 'Nobody' (a nickname or a name, as the " \
                                   "records write it)"
