"""``qiza play`` driven through standard input: whole games, every variant and challenge rule,
the screen text and the saved game."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import select
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from qiza import savefile
from qiza.cli import main
from qiza.game import Game, Kind
from qiza.lexicon import load_lexicon
from qiza.rules import find_preset

LEX = load_lexicon("enable")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("QIZA_DATA_DIR", str(folder))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return folder


def play(args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``qiza play ARGS`` with these input lines; returns the exit status and the output."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", *args])
    out = capsys.readouterr()
    return status, out.out + out.err


def said(text: str, out: str) -> bool:
    """Whether the screen ``out`` says ``text``, wherever the screen wrapped it (a long path is
    wrapped anywhere, e.g. a pytest folder under xdist)."""
    return "".join(text.split()) in "".join(out.split())


def saved(data_dir: Path) -> tuple[dict[str, Any], Game]:
    files = sorted((data_dir / "games").glob("*.json"))
    assert len(files) == 1, files
    data = json.loads(files[0].read_text())
    return data, savefile.from_dict(data, lexicon=LEX)


def opening(rack: str) -> str:
    """The longest word from a rack's tiles (no blanks used), for a first play at H8."""
    words = LEX.anagrams(rack.replace("?", ""), partial=True)
    assert words, rack
    return words[0]


def phony(rack: str) -> str:
    """Two tiles of a rack that do not make a word."""
    letters = rack.replace("?", "")
    for a in letters:
        for b in letters.replace(a, "", 1):
            if a + b not in LEX:
                return a + b
    raise AssertionError(rack)


def new_game(preset: str = "classic", players: int = 2, seed: int = 1, **options: str) -> Game:
    rules = find_preset(preset).with_options(first_player="fixed", **options)
    return Game(rules, players=players, lexicon=LEX, seed=seed)


# -- people ------------------------------------------------------------------------------------

def test_people_double_challenge_hot_seat_and_resign(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     data_dir: Path) -> None:
    game = new_game(challenge="double", seed=4)
    ann_rack = game.rack_text(0)
    bad = phony(ann_rack)
    lines = [
        f"H8 {bad}",          # a phony: stands until challenged (double rule)
        "y",                  # Bob challenges: it comes off, Ann loses the turn
        "pass",               # Bob
        f"H8 {opening(ann_rack)}",
        "n",                  # Bob does not challenge
        "sheet",
        "resign",
        "y",                  # Ann confirms
    ]
    status, out = play(["--player", "Ann", "--player", "Bob", "--first-player", "fixed", "--seed", "4"],
                       lines, monkeypatch, capsys)
    assert status == 0
    assert "double challenge" in out
    assert "-- pass the device to Bob --" in out
    assert f"Bob: challenge Ann's H8 {bad}" in out
    assert "Challenge succeeds" in out and f"{bad} is not in ENABLE" in out
    assert "Bob resigns." in out and "Ann wins!" in out
    assert "Game over: Bob resigned." in out
    data, again = saved(data_dir)
    assert data["extra"]["tui"]["seats"] == [{"name": "Ann", "level": None}, {"name": "Bob", "level": None}]
    assert again.over and again.winners == [0]
    kinds = [r.kind for r in again.history]
    assert kinds[:4] == [Kind.PLACE, Kind.PHONY_REMOVED, Kind.PASS, Kind.PLACE]
    assert again.history[0].challenged_off


def test_three_people_hot_seat_one_resigns_and_the_others_play_on(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    data_dir: Path) -> None:
    lines = ["pass", "resign", "yes"] + ["pass"] * 5  # Ann, Bob resigns, then Cy and Ann until the end
    status, out = play(["-p", "Ann", "-p", "Bob", "-p", "Cy", "--first-player", "fixed", "--seed", "3"],
                       lines, monkeypatch, capsys)
    assert status == 0
    assert "Bob resigns and is out of the game; the others play on." in out
    assert "Bob> " not in out.split("Bob resigns")[1]  # Bob is never asked to move again
    assert "Last: Bob resigned and is out of the game" in out and "Racks: 7 - 7" in out
    assert "Game over: every player still in had three scoreless turns in a row." in out
    final = out[out.index("Final"):]
    assert final.index("Bob (resigned)") > max(final.index("Ann"), final.index("Cy"))  # ranked last
    assert "3rd" in final.split("Bob (resigned)")[1].split("\n")[0]
    data, again = saved(data_dir)
    assert data["version"] == 2 and again.over and again.out == (1,) and (1, "withdraw") in again.actions
    assert 1 not in again.winners


def test_after_a_resignation_the_next_person_is_handed_the_device(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Ann resigns a game of three with Bob and a computer: Bob is the only person still in, but
    Ann still sits at the screen, so Bob's rack waits for the hand-over, in the challenge round too."""
    game = new_game(players=3, seed=4)
    status, out = play(["-p", "Ann", "-p", "Bob", "-p", "computer:easy", "--first-player", "fixed", "--seed", "4"],
                       ["resign yes", "pass", "quit"], monkeypatch, capsys)
    after = out.split("Ann resigns and is out of the game; the others play on.")[1]
    assert after.index("-- pass the device to Bob --") < after.index("Bob's rack")
    assert game.rack_text(1) not in out.split("-- pass the device to Bob --")[0].split("Ann resigns")[1]


def test_resigning_asks_first(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                              data_dir: Path) -> None:
    """'resign' typed by a slip is not a game lost: the player is asked, and anything but yes
    keeps the game on; in a game of three the question says the others play on."""
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "4"],
                       ["resign", "n", "resign", "", "pass", "quit"], monkeypatch, capsys)
    assert out.count("Ann: resign and lose the game? [y/N]") == 2
    assert out.count("Not resigned: the game goes on.") == 2
    _, game = saved(data_dir)
    assert not game.over and [r.kind for r in game.history] == [Kind.PASS]
    status, out = play(["-p", "Ann", "-p", "Bob", "-p", "Cy", "--first-player", "fixed", "--seed", "4", "--no-save"],
                       ["resign", "yes", "quit"], monkeypatch, capsys)
    assert "Ann: resign and leave the game (the others play on)? [y/N]" in out
    assert "Ann resigns and is out of the game; the others play on." in out


def test_the_panel_and_the_score_sheet_show_who_is_out() -> None:
    from qiza.sheet import EndReason
    from qiza.tui import render

    game = new_game(players=4)
    game.resign(2, EndReason.TIME)
    seats = [render.SeatInfo(name, "person") for name in game.players]
    panel = render.side_panel(game, seats, 0, width=42, lines=17).plain
    line = next(text for text in panel.splitlines() if "Player 3" in text)
    assert "lost on time" in line and "person" not in line and "Racks: 7 7 - 7" in panel
    assert render.describe_record(game, game.history[-1]) == "Player 3 lost on time and is out of the game"
    assert "out: lost on time" in render.short_record(game, game.history[-1])
    assert render.ordinal(1) == "1st" and render.ordinal(2) == "2nd" and render.ordinal(3) == "3rd" \
        and render.ordinal(4) == "4th" and render.ordinal(11) == "11th"


def test_failed_challenge_costs_the_turn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         data_dir: Path) -> None:
    game = new_game(challenge="double", seed=2)
    word = opening(game.rack_text(0))
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "2", "--challenge", "double"],
                       [f"H8 {word}", "y", "pass", "quit"], monkeypatch, capsys)
    assert status == 0
    assert "Challenge fails" in out
    _, again = saved(data_dir)
    assert again.history[1].kind is Kind.FAILED_CHALLENGE
    assert again.to_move == 1  # Bob lost his turn; Ann passed; Bob to move


@pytest.mark.parametrize("rule,expect", [("auto", "is not in ENABLE"), ("void", "is not in ENABLE")])
def test_checked_at_once_rules_refuse_phonies(rule: str, expect: str, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    game = new_game(challenge=rule, seed=6)
    rack = game.rack_text(0)
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "6", "--challenge", rule],
                       [f"H8 {phony(rack)}", "challenge", f"H8 {opening(rack)}", "quit"], monkeypatch, capsys)
    assert expect in out
    assert f"Plays are checked at once under the {rule} rule." in out
    _, again = saved(data_dir)
    assert [r.kind for r in again.history] == [Kind.PLACE]
    assert again.scores[0] > 0


@pytest.mark.parametrize("rule,bonus", [("five-point", 5), ("ten-point", 10), ("single", 0)])
def test_point_challenge_rules(rule: str, bonus: int, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    game = new_game(challenge=rule, seed=8)
    word = opening(game.rack_text(0))
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "8", "--challenge", rule],
                       [f"H8 {word}", "y", "quit"], monkeypatch, capsys)
    assert "Challenge fails" in out
    _, again = saved(data_dir)
    first = again.history[0].score
    assert again.scores[0] == first + bonus
    assert again.to_move == 1  # only the double rule costs the challenger the turn


@pytest.mark.parametrize("preset,rack_size", [("8-tile", 8), ("9-tile", 9), ("large-print", 8)])
def test_variants_four_people_to_the_end(preset: str, rack_size: int, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    names = ["Ann", "Bob", "Cy", "Di"]
    args = [a for n in names for a in ("-p", n)] + ["--rules", preset, "--seed", "3"]
    status, out = play(args, ["pass"] * 12, monkeypatch, capsys)
    assert status == 0
    assert f"Racks: {' '.join([str(rack_size)] * 4)}" in out
    assert "Game over" in out
    assert "Shared win: Ann, Bob, Cy and Di!" in out or "wins!" in out
    for name in names[1:]:
        assert f"-- pass the device to {name} --" in out
    data, again = saved(data_dir)
    assert again.over and again.rules.rack_size == rack_size
    assert data["rules"]["name"] == preset


def test_bad_input_is_refused_and_nothing_is_lost(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    game = new_game(seed=1)
    rack = game.rack_text(0)
    lines = ["H8", "Z99 AB", "frobnicate", "H8 QQQQ", "exchange", "H1 " + opening(rack),
             f"score H8 {opening(rack)}", "order " + rack[::-1], "sort", "shuffle", "help", "help exchange",
             "rules", "unseen", "board", "hint", "check CAT", "quit"]
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "1"], lines,
                       monkeypatch, capsys)
    assert status == 0
    assert "is not a command or a move" in out
    assert "Z99 is not a square: the 15x15 board runs from A1 to O15." in out
    assert "is not on the rack" in out
    assert "say which tiles to exchange" in out
    assert "would score" in out
    assert "Hints are off in this game" in out
    assert "Word tools are off" in out
    assert "exchange TILES" in out and "Put tiles back in the bag" in out
    _, again = saved(data_dir)
    assert not again.history and sorted(again.rack_text(0)) == sorted(rack)


def test_tournament_notation_and_word_tools(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    game = new_game(seed=5, notation="tournament")
    word = opening(game.rack_text(0))
    lines = [f"8H {word}", "twos", "hooks CARE", "anagrams RETAINS", "pattern QU?CK", "check QAT XYZ", "quit"]
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "5",
                        "--notation", "tournament", "--word-tools"], lines, monkeypatch, capsys)
    assert f"Ann played 8H {word}" in out
    assert "Two-letter words" in out and "AA AB AD" in out
    assert "back hooks: DRSTX" in out
    assert "RETAINS" in out and "QUACK" in out and "QUICK" in out
    assert "QAT: valid" in out and "XYZ: NOT valid" in out


def test_check_says_why_a_word_typed_is_no_word_as_qiza_words_check_does(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        data_dir: Path) -> None:
    """The game's 'check' said "CARE: NOT valid in ENABLE" of CARE typed after an invisible
    character (a right-to-left mark pasted with it), QI1 and a pattern alike, where 'qiza words
    check' names the character, or the command that lists a pattern's words."""
    lines = ["check \u202eCARE QI1 Q?I", "check " + "A" * 60, "check QAT QX", "quit"]
    status, out = play(["-p", "Ann", "-p", "Bob", "--seed", "5", "--word-tools"], lines, monkeypatch, capsys)
    assert status == 0
    assert said("NOT valid: not a word of english tiles ('\\u202e' is not a letter of the english tile set)", out)
    assert said("QI1: NOT valid: not a word of english tiles ('1' is not a letter", out)
    assert said("Q?I: NOT valid: not a word: ? and * are for patterns ('pattern Q?I' lists the words)", out)
    assert said(f"{'A' * 40}... (60 characters): NOT valid: not in ENABLE as qiza reads it", out)
    assert "QAT: valid in ENABLE" in out and "QX: NOT valid in ENABLE\n" in out


def test_anagrams_plus_alone_is_the_rack_with_its_shorter_words(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str],
                                                                data_dir: Path) -> None:
    """'anagrams' alone lists the rack's anagrams; 'anagrams +' was "empty rack ''". It is the
    rack's anagrams with the shorter words, as 'anagrams RETAINS+' is of RETAINS; a misplaced
    '+' says where it goes."""
    rack = new_game(seed=5).rack_text(0)
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "5", "--word-tools"],
                       ["anagrams +", "anagrams A+B", "help anagrams", "quit"], monkeypatch, capsys)
    assert status == 0 and "empty rack" not in out
    assert f"Anagrams of {rack}+" in out and LEX.anagrams(rack, partial=True)[-1] in out.split()
    assert said("'A+B': the '+' goes at the end", out) and said("none: your rack", out) and said("'anagrams +'", out)


def test_a_typed_word_short_of_a_tile_is_refused_naming_the_word_formed(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        data_dir: Path) -> None:
    """The terminal reads a move with the engine's parser: an S typed after the opening word
    (which the game played as the longer word) is refused, naming the word formed."""
    word = opening(new_game(seed=5).rack_text(0))
    after = f"{chr(ord('H') + len(word))}8"
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "5"],
                       [f"H8 {word}", f"{after} S", f"score {after} S", "quit"], monkeypatch, capsys)
    assert status == 0 and out.count(f"the word formed is {word}S: type H8 ({word})S") == 2, out


def test_rules_show_the_count_of_the_end_rule_in_force_only(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """'rules' listed 'scoreless turns 3' and 'passes 2' under the scoreless-turn end rule: the
    passes count only with the Large Print rule (all players passed twice), so it read as a second
    rule of the game. The count of the end rule in force is shown."""
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save"], ["rules", "quit"], monkeypatch, capsys)
    rows = [line.split("│")[0].strip() for line in out.splitlines() if "│" in line]
    assert status == 0 and "scoreless turns" in rows and "passes" not in rows, rows
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save", "--end-rule", "passes"], ["rules", "quit"],
                       monkeypatch, capsys)
    rows = [line.split("│")[0].strip() for line in out.splitlines() if "│" in line]
    assert status == 0 and "passes" in rows and "scoreless turns" not in rows, rows


def test_typed_control_characters_never_reach_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str],
                                                          data_dir: Path) -> None:
    """Escape sequences typed by a player (here in a word to check, echoed back, and in a bad
    command) are shown as symbols: they cannot recolour, retitle or clear the shared screen."""
    lines = ["check \x1b[8mQAT\x07", "hooks \x1b]0;x\x07CARE", "\x9b2Jfoo", "quit"]
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "5", "--word-tools"],
                       lines, monkeypatch, capsys)
    assert status == 0
    assert not any(ch in out for ch in "\x1b\x07\x9b")
    assert "\u241b[8MQAT\u2407: NOT valid" in out


def test_typed_bidirectional_controls_never_reach_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str],
                                                               data_dir: Path) -> None:
    """A right-to-left override typed or pasted in a word to check or a file name to save to was
    printed back as it was ("Saved to .../\u202ex.json"), and turned the rest of its line round
    on a terminal that lays out both directions; it is shown as a symbol, as control characters are."""
    marks = "\u202e\u2067\u200f"
    lines = [f"check {marks}CARE", f"save {data_dir / (marks + 'x.json')}", "quit"]
    status, out = play(["-p", "Ann", "-p", "Bob", "--seed", "5", "--word-tools"], lines, monkeypatch, capsys)
    assert status == 0 and said("Saved to", out)
    assert not any(mark in out for mark in marks)


def test_a_file_name_typed_with_a_nul_is_refused_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str],
                                                                      data_dir: Path, tmp_path: Path) -> None:
    """'save' or 'gcg' with a NUL in the file name (a script's line, a paste) stopped the game
    with a traceback (ValueError: embedded null byte); it is refused, naming it, and nothing written."""
    lines = [f"save {tmp_path / 'a'}\x00b.json", f"gcg {tmp_path / 'c'}\x00d.gcg", "pass", "quit"]
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "5"], lines,
                       monkeypatch, capsys)
    assert status == 0 and "Traceback" not in out
    assert "".join(out.split()).count("isnofilename:itholdsthecharacterNUL('\\x00');nothingwaswritten") == 2
    assert "Ann passed" in out and not list(tmp_path.glob("[ac]*"))


# -- computers -----------------------------------------------------------------------------------

def test_default_game_against_the_computer(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    status, out = play(["--seed", "11"], ["pass"] * 40, monkeypatch, capsys)
    assert status == 0
    assert "auto challenge" in out and "computer, medium" in out
    assert "This game is saved after every turn to" in out
    assert "Game over" in out and "Score sheet" in out and "Biggest plays" in out
    data, again = saved(data_dir)
    assert data["extra"]["tui"]["seats"][1] == {"name": "Computer", "level": "medium"}
    assert data["extra"]["tui"]["settings"] == {"hints": True, "word_tools": True, "undo": True}
    assert again.over


def test_computers_only_finish_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                    data_dir: Path) -> None:
    gcg_file = data_dir / "fl.gcg"
    status, out = play(["-p", "computer:easy", "-p", "computer:hard", "-p", "computer:medium",
                        "--finish-line", "beginner", "--seed", "2", "--gcg", str(gcg_file)], [],
                       monkeypatch, capsys)
    assert gcg_file.exists() and "#player1" in gcg_file.read_text()
    assert status == 0
    _, again = saved(data_dir)
    assert again.rules.finish_line == (60, 60, 60)
    winner = again.winners[0]
    # with the target (it said "reached the Finish Line target." without saying which)
    assert f"Game over: {again.players[winner]} reached the Finish Line target of 60 points." in out
    assert again.scores[winner] >= 60


def test_hint_undo_save_and_resume(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                   data_dir: Path) -> None:
    status, out = play(["--seed", "21", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy"],
                       ["hint 3", "undo"], monkeypatch, capsys)
    assert "Best plays for your rack" in out
    assert "There is no turn of yours to take back." in out
    data, game = saved(data_dir)
    assert not game.history
    best = out.split("Best plays for your rack")[1].split("\n")
    move_line = next(line for line in best if line.strip() and line.strip()[0].isalpha()
                     and line.strip()[0] != "M")
    move = " ".join(move_line.split()[:2])
    path = next((data_dir / "games").glob("*.json"))
    status, out = play(["--resume", str(path)], [move, "undo", "quit"], monkeypatch, capsys)
    assert f"Ann played {move}" in out
    assert "Took back your" in out
    data, game = saved(data_dir)
    assert not game.history  # back at the start
    gcg_file = data_dir / "out.gcg"
    status, out = play(["--resume"], [move, f"gcg {gcg_file}", "quit"], monkeypatch, capsys)
    data, game = saved(data_dir)
    assert game.history[0].notation == move and len(game.history) >= 2  # the computer replied
    assert said(f"GCG written to {gcg_file}", out)
    from qiza import gcg

    record = gcg.load(gcg_file)  # as Ann may see it: the game is not over
    assert gcg.dumps(record) == gcg.dumps(gcg.from_game(game, seat=0))


def test_a_new_game_names_the_unfinished_one(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """A terminal closed mid-game, then 'qiza' again: a new game began and nothing said that the
    other one was kept, nor where ('qiza play --resume' alone now continues the new one). Now the
    new game's first screen names the unfinished one and how to continue it; a finished one, one
    with nothing played, or a save that is not a game, is not named."""
    people = ["-p", "Ann", "-p", "Bob", "--seed", "5"]
    status, out = play(people, ["quit"], monkeypatch, capsys)
    status, out = play(people, ["quit"], monkeypatch, capsys)
    assert status == 0 and "unfinished" not in out  # nothing was played in it: nothing to lose
    for path in (data_dir / "games").glob("*.json"):
        path.unlink()
    status, out = play(people, ["pass", "quit"], monkeypatch, capsys)
    first = next((data_dir / "games").glob("*.json"))
    status, out = play(people, ["quit"], monkeypatch, capsys)
    assert status == 0 and said(f"qiza play --resume {first}", out)
    assert said("Your last game is unfinished (1 action; Ann 0, Bob 0)", out)
    for path in (data_dir / "games").glob("*.json"):
        path.unlink()
    status, out = play(people, ["resign yes"], monkeypatch, capsys)  # a finished game
    assert "Game over" in out
    status, out = play(people, ["quit"], monkeypatch, capsys)
    assert status == 0 and "unfinished" not in out and out.count("--resume") == 1  # the quit's own
    newest = max((data_dir / "games").glob("*.json"), key=lambda path: path.stat().st_mtime)
    newest.write_text("not a saved game")
    status, out = play(people, ["quit"], monkeypatch, capsys)
    assert status == 0 and "unfinished" not in out and "Traceback" not in out


def test_a_finished_game_resumed_is_not_said_to_be_saved_after_every_turn(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """'qiza play --resume' of a finished game said "This game is saved after every turn to ...",
    then "The finished game is saved in ..." (no turn is left to play)."""
    status, out = play(["-p", "Ann", "-p", "Bob", "--seed", "5"], ["resign yes", "quit"], monkeypatch, capsys)
    assert "Game over" in out
    path = next((data_dir / "games").glob("*.json"))
    status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 0 and said("The finished game is saved in", out)
    assert not said("saved after every turn", out)


def test_a_folder_named_for_a_save_or_a_record_is_said_to_be_one(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    """A folder given as the file of the saves or of the GCG record was called a file that exists
    and is kept, and '--save FOLDER' offered 'qiza play --resume FOLDER' to continue it. Now each
    says that it is a folder, and nothing is written."""
    folder = tmp_path / "games"
    folder.mkdir()
    people = ["-p", "Ann", "-p", "Bob", "--seed", "5"]
    for option in ("--save", "--gcg"):
        status, out = play([*people, option, str(folder)], ["quit"], monkeypatch, capsys)
        assert status == 2 and said(f"{option}: {folder} is a folder", out), out
        assert "qiza play --resume" not in out and "Traceback" not in out
    status, out = play(people, [f"save {folder}", f"gcg {folder}", "pass", "quit"], monkeypatch, capsys)
    assert status == 0 and said(f"{folder} is a folder", out)
    assert "".join(out.split()).count("".join(f"{folder} is a folder".split())) == 2 and " passed." in out
    assert not any(folder.iterdir())


def test_computer_challenges_a_phony(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     data_dir: Path) -> None:
    game = new_game(seed=9, challenge="double")
    bad = phony(game.rack_text(0))
    status, out = play(["-p", "Ann", "-p", "computer:hard", "--first-player", "fixed", "--seed", "9",
                        "--challenge", "double"], [f"H8 {bad}", "quit"], monkeypatch, capsys)
    assert f"Computer challenges Ann's H8 {bad}!" in out
    assert "Challenge succeeds" in out


def test_unknown_level_and_player_count(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out = play(["-p", "computer:grandmaster", "-p", "Ann"], [], monkeypatch, capsys)
    assert status == 2 and "unknown computer level" in out  # a usage error
    status, out = play(["-p", "Ann"], [], monkeypatch, capsys)
    assert status == 2 and "2 to 4 players" in out


def test_screen_fits_80_columns_and_scales_up() -> None:
    from rich.console import Console

    from qiza.tui import render

    game = new_game(seed=1)
    game.play(f"H8 {opening(game.rack_text(0))}")
    seats = [render.SeatInfo("Ann", "person"), render.SeatInfo("Bob", "person")]
    for width, height in [(80, 24), (130, 50)]:
        console = Console(width=width, height=height, file=io.StringIO(), no_color=True, color_system=None)
        console.print(render.screen(game, seats, 1, width=width, height=height))
        text = console.file.getvalue()  # type: ignore[attr-defined]
        lines = text.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= width
        if width == 80:
            assert len(lines) <= 18
            assert " = . . '" in lines[1]  # premium symbols, not colour only
        else:
            assert "3W" in text and "2L" in text
    console = Console(width=80, file=io.StringIO(), no_color=True)
    console.print(render.rack_text("AB?", game.rules.tile_set))
    assert " A   B   ? " in console.file.getvalue()  # type: ignore[attr-defined]


# -- challenges with three or four players ---------------------------------------------------------

PEOPLE3 = ["-p", "Ann", "-p", "Bob", "-p", "Cy", "--first-player", "fixed", "--challenge", "double"]


def between(out: str, start: str, end: str) -> str:
    """The output from the first ``start`` to the next ``end``."""
    head = out.index(start)
    return out[head:out.index(end, head)]


def test_second_next_player_challenges_a_phony_off(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str],
                                                   data_dir: Path) -> None:
    game = new_game(players=3, challenge="double", seed=4)
    bad = phony(game.rack_text(0))
    lines = [f"H8 {bad}",
             "n",        # Bob (next) lets it stand
             "y",        # Cy challenges: it comes off
             "quit"]     # Bob's turn
    status, out = play([*PEOPLE3, "--seed", "4"], lines, monkeypatch, capsys)
    assert status == 0
    bob_asked = out.index(f"Bob: challenge Ann's H8 {bad}")
    cy_asked = out.index(f"Cy: challenge Ann's H8 {bad}")
    assert bob_asked < cy_asked  # turn order from the next player
    assert "Challenge succeeds" in out and f"{bad} is not in ENABLE" in out
    # hot seat: no rack on screen while the others decide; Bob's turn starts after a hand-over
    round_text = between(out, f"Ann> H8 {bad}", "Challenge succeeds")
    assert "'s rack:" not in round_text
    assert "-- pass the device to Bob --" in out[cy_asked:]
    _, again = saved(data_dir)
    assert [r.kind for r in again.history] == [Kind.PLACE, Kind.PHONY_REMOVED]
    assert again.history[0].challenged_off and "challenged by Cy" in again.history[1].note
    assert again.to_move == 1 and again.scores == [0, 0, 0]


def test_three_players_nobody_challenges(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         data_dir: Path) -> None:
    game = new_game(players=3, challenge="double", seed=4)
    word = opening(game.rack_text(0))
    lines = [f"H8 {word}", "n", "",   # Bob and Cy let it stand
             "pass",                  # Bob
             "quit"]                  # Cy
    status, out = play([*PEOPLE3, "--seed", "4"], lines, monkeypatch, capsys)
    assert status == 0
    assert out.index(f"Bob: challenge Ann's H8 {word}") < out.index(f"Cy: challenge Ann's H8 {word}")
    assert "Challenge" not in out.replace(": challenge", "")
    assert "Bob passed" in out and "Cy>" in out
    _, again = saved(data_dir)
    assert [r.kind for r in again.history] == [Kind.PLACE, Kind.PASS]
    assert again.to_move == 2 and again.scores[0] > 0


def test_failed_double_challenge_by_a_later_player_costs_their_next_turn(monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str],
                                                                         data_dir: Path) -> None:
    from qiza import gcg

    game = new_game(players=3, challenge="double", seed=4)
    word = opening(game.rack_text(0))
    record_file = data_dir / "game.gcg"
    lines = [f"H8 {word}", "n", "y",   # Cy challenges a good play: Cy's next turn is lost
             "pass",                   # Bob; Cy's turn is skipped
             f"gcg {record_file}", "quit"]
    status, out = play([*PEOPLE3, "--seed", "4"], lines, monkeypatch, capsys)
    assert status == 0
    assert "Challenge fails: the words are good. Cy's next turn is lost." in out
    assert "Cy loses this turn (failed challenge)" in out
    _, again = saved(data_dir)
    assert [(r.seat, r.kind) for r in again.history] == [
        (0, Kind.PLACE), (2, Kind.FAILED_CHALLENGE), (1, Kind.PASS), (2, Kind.LOST_TURN)]
    assert again.to_move == 0
    record = gcg.load(record_file)
    assert not record.errors
    result = gcg.replay(record)
    assert result.clean and result.game is not None
    assert [(r.seat, r.kind) for r in result.game.history] == [(r.seat, r.kind) for r in again.history]


def test_player_to_move_may_answer_with_their_move(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str],
                                                   data_dir: Path) -> None:
    game = new_game(players=3, challenge="double", seed=4)
    word = opening(game.rack_text(0))
    lines = [f"H8 {word}",
             "pass",     # Bob answers with his move: the play stands, Cy is still asked
             "n",        # Cy
             "quit"]
    status, out = play([*PEOPLE3, "--seed", "4"], lines, monkeypatch, capsys)
    assert status == 0
    assert out.index(f"Cy: challenge Ann's H8 {word}") < out.index("Bob passed")
    _, again = saved(data_dir)
    assert [(r.seat, r.kind) for r in again.history] == [(0, Kind.PLACE), (1, Kind.PASS)]


def test_computer_later_in_turn_order_challenges_a_phony(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str],
                                                         data_dir: Path) -> None:
    game = new_game(players=3, challenge="double", seed=9)
    bad = phony(game.rack_text(0))
    status, out = play(["-p", "Ann", "-p", "Bob", "-p", "computer:hard", "--first-player", "fixed",
                        "--seed", "9", "--challenge", "double"], [f"H8 {bad}", "n", "quit"], monkeypatch, capsys)
    assert status == 0
    assert out.index(f"Bob: challenge Ann's H8 {bad}") < out.index(f"Computer challenges Ann's H8 {bad}!")
    assert "Challenge succeeds" in out
    _, again = saved(data_dir)
    assert [r.kind for r in again.history] == [Kind.PLACE, Kind.PHONY_REMOVED]


class ScriptedScreen:
    """An interactive terminal driven by a script: what a person at a real terminal would see."""

    interactive = True

    def __init__(self, answers: list[str], width: int = 100, height: int = 40) -> None:
        from rich.console import Console

        from qiza.tui.terminal import Terminal

        self.answers = list(answers)
        self.out = io.StringIO()
        self.term = Terminal(Console(file=self.out, width=width, height=height, no_color=True, color_system=None))
        self.term.interactive = True
        self.term.clear = self.clear  # type: ignore[method-assign]
        self.term.ask = self.ask  # type: ignore[method-assign]
        self.term.pause = self.pause  # type: ignore[method-assign]

    def clear(self) -> None:
        self.out.write("<<clear>>\n")

    def ask(self, prompt: str, words: object = ()) -> str | None:
        answer = self.answers.pop(0) if self.answers else None
        self.out.write(f"{prompt}{answer}\n")
        return answer

    def pause(self, message: str) -> bool:
        self.out.write(f"{message}\n")
        return True

    def screen_at(self, text: str) -> str:
        """What was on the screen (since the last clear) when ``text`` was shown."""
        shown = self.out.getvalue()
        at = shown.index(text)
        return shown[shown.rindex("<<clear>>", 0, at):at]


def test_interactive_hot_seat_hides_every_rack_while_the_others_decide() -> None:
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed", challenge="double"),
                players=["Ann", "Bob", "Cy"], lexicon=LEX, seed=4)
    bad = phony(game.rack_text(0))
    screen = ScriptedScreen([f"H8 {bad}", "n", "y", "quit"])
    session = Session(game, [Seat("Ann"), Seat("Bob"), Seat("Cy")], screen.term)
    assert session.run() == 0
    for name in ("Bob", "Cy"):
        seen = screen.screen_at(f"{name}: challenge Ann's H8 {bad}")
        assert "'s rack:" not in seen and "Ann played" in seen
    assert "Bob's rack:" in screen.screen_at("Bob> quit")  # after the hand-over
    assert "Pass the device to Bob" in screen.out.getvalue()
    assert [r.kind for r in session.game.history] == [Kind.PLACE, Kind.PHONY_REMOVED]


def test_interactive_two_people_next_player_sees_own_rack_when_asked() -> None:
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed", challenge="double"),
                players=["Ann", "Bob"], lexicon=LEX, seed=4)
    word = opening(game.rack_text(0))
    screen = ScriptedScreen([f"H8 {word}", "n", "quit"])
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    seen = screen.screen_at(f"Bob: challenge Ann's H8 {word}")
    assert "Bob's rack:" in seen and "Ann's rack:" not in seen
    assert screen.out.getvalue().count("Pass the device to Bob") == 1


# -- getting the computer ready ------------------------------------------------------------------

def test_warm_up_prepares_each_level_once_in_the_background() -> None:
    from qiza.tui.warmup import FIRST_RUN_NOTE, READY_NOTE, WarmUp

    rules = find_preset("classic")
    warm = WarmUp(rules, LEX, ["medium", "hard", "medium"])
    assert warm.levels == ("medium", "hard")
    notes: list[str] = []
    warm.wait(notes.append)  # not started: nothing to wait for
    assert notes == [] and not warm.running
    warm.start()
    warm.wait(notes.append)
    assert not warm.running
    assert warm.warmed == ["medium", "hard"]
    # nothing said when it is quick; else the note for a first run or for cached code
    assert notes in ([], [FIRST_RUN_NOTE if warm.first_run else READY_NOTE])


def test_computer_moves_after_the_warm_up(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from qiza.tui import session as session_module
    from qiza.tui.warmup import WarmUp

    started: list[tuple[str, ...]] = []
    waited: list[bool] = []

    class Recording(WarmUp):
        def start(self) -> None:
            started.append(self.levels)
            super().start()

        def wait(self, show: Any) -> None:
            super().wait(show)
            waited.append(not self.running)

    monkeypatch.setattr(session_module, "WarmUp", Recording)
    status, out = play(["--seed", "11", "--player", "You", "--player", "computer:hard"], ["pass", "pass", "quit", "y"],
                       monkeypatch, capsys)
    assert status == 0
    assert started == [("hard",)]
    assert waited and all(waited)  # the computer moved only once the warm-up was over


def test_analysis_of_the_finished_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = play(["--seed", "11"], ["pass"] * 40 + ["analyze", "quit"], monkeypatch, capsys)
    assert status == 0
    assert "Commands now: sheet, analyze," in out
    table = out[out.index("equity lost"):]
    summary = [line.split() for line in table.splitlines()[1:3]]
    assert {row[0] for row in summary} == {"You", "Computer"}
    assert "Moves in rule book notation: H8 reads across, 8H reads down." in out
    header = "  # player   rack      played           pts  best              lost"
    assert header in out
    rows = out[out.index(header):out.index("equity lost")].splitlines()
    assert len(rows) > 20 and all(len(row) <= 80 for row in rows)  # the analysis fits 80 columns
    passes = [line for line in out.splitlines() if line.split()[1:2] == ["You"] and line.split()[3:4] == ["pass"]]
    assert passes and not any("(pass)" in line for line in passes)  # a note that repeats the move is not shown


# -- wording: whole sentences, the person called "You", singular and plural -----------------------

GLUED = r"[a-z]\. [a-z]"
"""A full stop followed by a lower-case word: a sentence glued after another."""


@pytest.mark.parametrize("rule,word,expect", [
    ("ten-point", "VELOCE", "Challenge fails: the words are good. You get 10 points."),
    ("double", "EI", "Challenge succeeds: EI is not in ENABLE. Your play comes off and scores 0."),
    ("single", "VELOCE", "Challenge fails: the words are good. There is no penalty."),
])
def test_challenge_results_are_sentences_about_you(rule: str, word: str, expect: str,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import re

    assert new_game(seed=4).rack_text(0) == "EICVLOE"
    status, out = play(["-p", "You", "-p", "Bob", "--first-player", "fixed", "--seed", "4", "--challenge", rule],
                       [f"H8 {word}", "y", "exchange QQ", "quit"], monkeypatch, capsys)
    assert status == 0
    assert expect in out
    assert f"Bob: challenge your H8 {word} ({word})? [y/N]" in out
    assert "You's" not in out and "You gets" not in out
    assert "Q is not on the rack (" in out  # an engine error, as a sentence
    assert not re.search(GLUED, out), re.search(GLUED, out)


def test_failed_double_challenge_by_the_player_to_move_is_one_sentence(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import re

    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed", "--seed", "4", "--challenge", "double"],
                       ["H8 VELOCE", "", "challenge", "quit"], monkeypatch, capsys)
    assert status == 0
    assert "Challenge fails: the words are good. Bob loses the turn." in out
    assert not re.search(GLUED, out), re.search(GLUED, out)


def test_counts_are_singular_or_plural_and_the_end_names_who() -> None:
    from qiza.tui import render

    assert [render.plural(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert render.plural(1, "vowel") == "1 vowel" and render.plural(1, "blank") == "1 blank"
    assert render.owner("You", start=True) == "Your" and render.owner("Ann") == "Ann's"
    assert render.sentence("the word runs off the board") == "The word runs off the board."
    game = new_game(seed=1, challenge="auto")
    game.play(f"exchange {game.rack_text(0)[0]}")
    assert render.describe_record(game, game.history[-1]) == "Player 1 exchanged 1 tile"
    game.resign(1)
    assert render.end_sentence(game) == "Game over: Player 2 resigned."
    game = new_game(seed=1, scoreless_turns="1")  # the counts this game's rules set, not the default's
    game.play("pass")
    game.play("pass")
    assert render.end_sentence(game) == "Game over: every player had one scoreless turn in a row."
    # a game played to the end: the one who went out is named
    game = new_game(seed=3, challenge="auto")
    from qiza.players import make_player

    players = [make_player("medium", LEX, seed=s) for s in (1, 2)]
    while not game.over:
        game.play(players[game.to_move].choose(game.view(game.to_move)))
    assert game.end_reason is not None
    who = game.ended_by()
    if who is not None:
        assert render.end_sentence(game) == f"Game over: {game.players[who]} went out."
    for record in game.history[-3:]:  # the end's adjustments keep who, what and the points
        line = render.last_line(game, record, 42)
        assert len(line) <= 42 and "…" not in line and f"{record.score:+d}".lstrip("+") in line
    console_text = _screen_text(game, 80, 24, viewer=0)
    assert " 1 vowels" not in console_text and " 1 blanks" not in console_text and "1 tiles" not in console_text


def _screen_text(game: Game, width: int, height: int, viewer: int | None = 0,
                 names: tuple[str, ...] = ()) -> str:
    from rich.console import Console

    from qiza.tui import render

    seats = [render.SeatInfo(name, "person") for name in (names or tuple(game.players))]
    console = Console(width=width, height=height, file=io.StringIO(), no_color=True, color_system=None)
    console.print(render.screen(game, seats, viewer, width=width, height=height))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_a_short_narrow_terminal_shows_the_whole_board_and_the_rack() -> None:
    """At 60x20 the panel went below the board (the room beside it is under 30 columns), and the
    screen was 28 lines: the top rows of the board scrolled away. Where the board and the panel
    below it do not fit the height, a narrow panel beside the board keeps both, the rack as its
    letters in one line."""
    game = new_game()
    game.play(f"H8 {opening(game.rack_text(0))}")
    text = _screen_text(game, 60, 20)
    lines = text.splitlines()
    assert len(lines) <= 20 - 2 and all(len(line) <= 60 for line in lines), text  # room for the prompt
    assert lines[0].split()[:3] == ["A", "B", "C"] and lines[1].startswith(" 1 ") and " 15 " in text
    assert " ".join(game.rack_text(0)) in text and "Bag:" in text
    tall = _screen_text(game, 60, 40)  # room below the board: the panel as it was
    assert "qiza" in tall.splitlines()[17], tall


def test_undo_after_sorting_the_rack_names_the_turn_taken_back(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str],
                                                               data_dir: Path) -> None:
    """'sort' (or 'shuffle', 'order') then a move then 'undo' said "Took back your 'arrange
    EENOQRZ'": the rack's order, which is taken back with the turn, named instead of the turn."""
    word = opening(new_game(seed=21).rack_text(0))
    status, out = play(["--seed", "21", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy"],
                       ["sort", f"H8 {word}", "undo", "quit"], monkeypatch, capsys)
    assert status == 0 and "'arrange" not in out
    assert f"Took back your 'H8 {word}' and everything after it." in " ".join(out.split())


def test_undo_mixes_the_unseen_tiles_so_the_next_draw_is_new(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str],
                                                            data_dir: Path) -> None:
    import random

    monkeypatch.setattr(random.SystemRandom, "randrange", lambda self, n: 123456789)
    game = new_game(seed=21)
    word = opening(game.rack_text(0))
    game.play(f"H8 {word}")
    first_draw = game.rack_text(0)
    status, out = play(["--seed", "21", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy"],
                       [f"H8 {word}", "undo", f"H8 {word}", "quit"], monkeypatch, capsys)
    assert status == 0
    assert f"Took back your 'H8 {word}' and everything after it. The bag and the other racks were mixed " \
           "again, so your next tiles are new ones." in " ".join(out.split())
    data, again = saved(data_dir)
    assert (0, "redeal 123456789") in again.actions
    assert again.history[0].notation == f"H8 {word}"
    assert sorted(again.history[0].rack) == sorted(game.history[0].rack)  # the same rack as before the undo
    assert sorted(again.rack_text(0)) != sorted(first_draw)  # not the draw seen before the undo
    replayed = savefile.from_dict(data, lexicon=LEX)
    assert replayed.racks == again.racks and replayed.bag == again.bag
    status, out = play(["--seed", "21", "-p", "Ann", "-p", "computer:easy", "--no-save"], ["help undo", "quit"],
                       monkeypatch, capsys)
    assert "the tiles you have not seen are mixed again" in " ".join(out.split())


def test_a_second_undo_takes_back_the_turn_before_not_the_mixing(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str],
                                                                data_dir: Path) -> None:
    """'undo' twice said "Took back your 'redeal 8248330429165262644'": the first undo's mixing of
    the unseen tiles, an entry of the game's actions, was taken for a turn of the player's, and
    the second undo took back that instead of the turn before it."""
    game = new_game(seed=21)
    word = opening(game.rack_text(0))
    status, out = play(["--seed", "21", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy"],
                       [f"H8 {word}", "undo", "undo", "quit"], monkeypatch, capsys)
    assert status == 0 and "redeal" not in out
    assert out.count(f"Took back your 'H8 {word}'") == 1 and "There is no turn of yours to take back." in out
    data, again = saved(data_dir)
    assert not again.history  # nothing played: the second undo took nothing back


# -- 80x24: paged help, rows that fit, told-apart names; hot seat from the first turn ---------------

def test_play_help_says_what_each_end_points_rule_does(capsys: pytest.CaptureFixture[str]) -> None:
    """'--end-points {rulebook,double}' said only 'settling unplayed tiles at the end': a new user
    could not tell what 'double' does without reading the code."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "rulebook (the others lose their tiles' value, the player out gains it)" in text
    assert "double (the player out gains twice the others' tiles, nobody loses; the tournament rule)" in text


def test_help_is_paged_at_80x24() -> None:
    from qiza.tui.session import Seat, Session

    game = new_game(seed=1)
    screen = ScriptedScreen(["help", "", "", "quit"], width=80, height=24)
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    shown = screen.out.getvalue()
    first_page = shown[shown.index("Commands"):shown.index("-- more (23 of")]
    assert len(first_page.splitlines()) == 23  # a screenful, then a wait: nothing scrolls away
    assert "H8 WORD" in first_page and "exchange TILES" in first_page
    rest = shown[shown.index("-- more (23 of"):]
    assert "quit" in rest and rest.index("Type 'help COMMAND' for more.") < rest.index("press Enter for the board")
    assert max(len(line) for line in shown.splitlines()) <= 80


def test_a_move_typed_at_the_wait_for_the_board_is_played() -> None:
    """After messages too long for the screen (help, a hint at 80x24) the game waits for Enter
    before the board; a move typed there was dropped without a word and the board came back
    as if nothing had been typed. It is run as the next command; 'q', the pages' stop, is not."""
    from qiza.tui.session import Seat, Session

    game = new_game(seed=1)
    word = opening(game.rack_text(0))
    typed_at_wait = ["q", f"H8 {word}"]
    screen = ScriptedScreen(["help", "help", "quit"], width=80, height=24)

    def read_after(message: str) -> str | None:
        answer = typed_at_wait.pop(0)
        screen.out.write(f"{message} {answer}\n")
        return answer

    screen.term.read_after = read_after  # type: ignore[method-assign]
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    assert not typed_at_wait
    assert [record.notation for record in session.game.history] == [f"H8 {word}"]
    assert "press Enter for the board, or type a move or command" in screen.out.getvalue()


def test_a_move_typed_at_the_wait_before_a_queued_command_is_played() -> None:
    """A command given as the answer to a challenge question is run at the start of the turn,
    after the board; a move typed at the wait before that board (messages too long for the
    screen) was still dropped there, unseen (b8f0d5f ran it only at the other waits)."""
    from qiza.tui.session import STAY, Seat, Session

    game = new_game(seed=1)
    word = opening(game.rack_text(0))
    typed_at_wait = [f"H8 {word}"]
    screen = ScriptedScreen(["quit"], width=80, height=24)

    def read_after(message: str) -> str | None:
        answer = typed_at_wait.pop(0) if typed_at_wait else ""
        screen.out.write(f"{message} {answer}\n")
        return answer

    screen.term.read_after = read_after  # type: ignore[method-assign]
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    session._last_human = 0  # no hand-over first
    session._queued = (0, "rules")  # as a challenge question answered with a command leaves it
    for number in range(12):  # too many lines under the board at 80x24: the wait comes first
        session.say(f"message {number}")
    assert session.human_turn(0) != STAY
    assert not typed_at_wait
    assert [record.notation for record in game.history] == [f"H8 {word}"]


def test_an_answer_typed_at_the_wait_for_the_hot_seat_board_answers_the_challenge() -> None:
    """Three people on one screen: the board without racks before the challenge questions
    waits for Enter when the messages are too long, and says a move or command may be typed
    there; what was typed was dropped unseen (b8f0d5f took it only at the other waits). It is
    the first asker's answer, as at the wait before their own board."""
    from qiza.tui.session import Seat, Session

    game = new_game(players=3, seed=1)
    word = opening(game.rack_text(0))
    typed_at_wait = ["y"]
    screen = ScriptedScreen(["n", "n"], width=80, height=24)

    def read_after(message: str) -> str | None:
        answer = typed_at_wait.pop(0) if typed_at_wait else ""
        screen.out.write(f"{message} {answer}\n")
        return answer

    screen.term.read_after = read_after  # type: ignore[method-assign]
    session = Session(game, [Seat("Ann"), Seat("Bob"), Seat("Cy")], screen.term)
    game.play(f"H8 {word}")
    for number in range(30):  # too many lines under the board at 80x24, and beside it: the wait comes first
        session.say(f"message {number}")
    session.challenge_round()
    assert not typed_at_wait
    assert screen.answers == ["n", "n"]  # nobody was asked: Bob's answer was the one typed
    assert game.history[-1].seat == 1 and "challenge" in game.history[-1].kind.value.lower()


def test_the_wait_for_the_board_returns_what_was_typed() -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from qiza.tui.terminal import RichTerminal

    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        term = RichTerminal()
        keys.send_text("H8 QAT\r")
        assert term.read_after("-- press Enter for the board --") == "H8 QAT"
        keys.send_text("\r")
        assert term.read_after("-- press Enter for the board --") == ""


def _four_players_game(names: tuple[str, ...], turns: int) -> Game:
    """A game of four players after ``turns`` turns of each one's top-scoring play."""
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=list(names), lexicon=LEX, seed=5)
    for _ in range(turns):
        best = game.legal_moves()
        game.play(best[0].move if best else "pass")
    return game


def test_four_players_at_80x24_keep_names_apart_and_key_words() -> None:
    game = _four_players_game(("Ann", "Computer 1", "Computer 2", "Computer 3"), 4)
    text = _screen_text(game, 80, 24, viewer=0)
    lines = text.splitlines()
    # the panel takes free rows under the board for the rack's line, the prompt and a message keep theirs
    assert len(lines) <= 24 - 3 and max(len(line.rstrip()) for line in lines) <= 80 and "Ann's rack:" in text
    earlier = text[text.index("Earlier turns:"):]
    assert "Comp 1" in earlier and "Comp 2" in earlier  # not "Computer" three times
    last = game.history[-1]
    assert f"{last.notation} for {last.score}" in text or f"{last.notation} {last.score}" in text
    assert "…" not in text.split("Last:")[1].splitlines()[0]
    assert "double challenge" in lines[0]
    assert "H8=across" in text  # the notation of the moves listed


def test_the_first_play_note_is_whole_beside_the_super_board_at_80x24() -> None:
    """Beside the Super board at 80 columns it read 'First play must cover the * s…'."""
    game = Game(find_preset("super").with_options(first_player="fixed"), players=["Ann", "Bob", "Cy", "Dee"],
                lexicon=LEX, seed=5)
    note = next(line for line in _screen_text(game, 80, 24, viewer=0).splitlines() if "First play" in line)
    assert "…" not in note and note.rstrip().endswith(("*", "square")), note
    wide = next(line for line in _screen_text(game, 120, 40, viewer=0).splitlines() if "First play" in line)
    assert wide.rstrip().endswith("First play must cover the * square")


def test_the_turn_s_result_is_beside_the_super_board_at_80x24() -> None:
    """The Super board takes 23 rows of 24: after every turn its result ('Ann passed.', the
    computer's play) came on a screen of its own, then a wait for Enter before the board. It is
    shown in the panel beside the board, in place of the earlier turns, and the board comes at once."""
    from rich.text import Text

    from qiza.tui.session import Seat, Session

    game = Game(find_preset("super").with_options(first_player="fixed"), players=["Ann", "Computer"],
                lexicon=LEX, seed=3)
    screen = ScriptedScreen([], width=80, height=24)
    session = Session(game, [Seat("Ann"), Seat("Computer", "easy")], screen.term)
    game.play("pass")
    game.play("pass")
    session.say(Text("Ann passed."))
    session.say(Text("Computer played J11 ORGASmS for 74 (bingo!) (words: ORGASmS, AS).", "bold"))
    assert session.draw(0) == ""
    shown = screen.out.getvalue()
    assert "press Enter for the board" not in shown
    lines = shown.split("<<clear>>\n")[-1].rstrip("\n").split("\n")
    assert len(lines) <= 23 and "A B C D" in lines[0] and "Ann's rack:" in shown  # the board whole, the prompt below
    said_beside = " ".join(line[50:].strip() for line in lines)
    assert "Ann passed." in said_beside and "Computer played J11 ORGASmS for 74 (bingo!)" in said_beside


def test_a_terminal_too_small_for_the_board_is_told_its_size_once() -> None:
    """Below 24 rows the Super board cannot be seen whole: said once, at the start, with the size needed."""
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("super").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX, seed=3)
    screen = ScriptedScreen(["pass", "\r", "quit"], width=80, height=20)
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    shown = " ".join(screen.out.getvalue().split())
    assert shown.count("needs a terminal of at least 80×24") == 1 and "(this one is 80×20)" in shown
    classic = ScriptedScreen(["quit"], width=80, height=24)
    Session(new_game(), [Seat("Ann"), Seat("Bob")], classic.term).run()
    assert "needs a terminal" not in classic.out.getvalue()


def test_names_in_wide_characters_keep_the_panel_in_line() -> None:
    """Chinese, Japanese and Korean characters take two columns of a terminal: the panel pads
    and cuts names by columns, so scores stay under each other and lines within the screen."""
    from qiza.text import cells

    game = _four_players_game(("欧阳娜娜娜娜娜娜", "Bob", "김민준", "Computer 3"), 8)
    text = _screen_text(game, 80, 24, viewer=0)
    lines = text.splitlines()
    assert max(cells(line.rstrip()) for line in lines) <= 80
    ends = set()
    for start, score in zip(("欧阳", "Bob ", "김민준", "Computer 3"), game.scores):
        line = next(x for x in lines if start in x and f" {score}  " in x)  # the panel's row of that player
        ends.add(cells(line[:line.index(f" {score}  ") + 1 + len(str(score))]))
    assert len(ends) == 1, lines  # the scores end in one column
    earlier = lines[lines.index(next(x for x in lines if "Earlier turns:" in x)) + 1:]
    turns = [line for line in earlier if "欧阳" in line or "김민준" in line or "Bob " in line]
    assert turns and len({cells(line.rstrip()) for line in turns}) == 1  # the totals end in one column


def test_hot_seat_hides_the_first_rack_too(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                           data_dir: Path) -> None:
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX,
                seed=4)
    screen = ScriptedScreen(["quit"])
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    shown = screen.out.getvalue()
    assert "Pass the device to Ann" in shown
    assert shown.index("Pass the device to Ann") < shown.index("Ann's rack:")
    assert "Ann's rack:" not in shown[:shown.index("Pass the device to Ann")]
    status, out = play(["-p", "Ann", "-p", "Bob", "--first-player", "fixed"], ["quit"], monkeypatch, capsys)
    assert out.index("-- pass the device to Ann --") < out.index("Ann>")
    status, out = play(["--first-player", "fixed"], ["quit"], monkeypatch, capsys)
    assert "pass the device" not in out  # one person against the computer: nothing to hide


def test_the_first_run_note_only_on_a_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import qiza.players
    from qiza.tui import warmup

    def slow_player(*args: object, **kwargs: object) -> object:
        time.sleep(1.0)
        raise RuntimeError("not needed")

    monkeypatch.setattr(qiza.players, "make_player", slow_player)
    assert warmup.compiled_code_cached()  # the test session has compiled (or loaded) the code
    for cached, expect in ((True, warmup.READY_NOTE), (False, warmup.FIRST_RUN_NOTE)):
        monkeypatch.setattr(warmup, "compiled_code_cached", lambda cached=cached: cached)
        warm = warmup.WarmUp(find_preset("classic"), LEX, ["medium"])
        notes: list[str] = []
        warm.start()
        warm.wait(notes.append)
        assert notes == [expect] and warm.first_run is (not cached)
    assert "first run" not in warmup.READY_NOTE


def test_every_listing_of_moves_states_the_notation(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    status, out = play(["--seed", "21", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy",
                        "--notation", "tournament", "--no-save"], ["hint 3", "help", "pass", "sheet", "quit"],
                       monkeypatch, capsys)
    assert status == 0
    note = "Moves in tournament notation (as in GCG files): 8H reads across, H8 reads down."
    hint = out[out.index("Best plays for your rack"):]
    assert hint.splitlines()[1] == note
    commands = out[out.index("Commands"):out.index("Type 'help COMMAND'")]
    assert note in commands and "8H WORD" in commands and "score 8H WORD" in commands and "H8 WORD" not in commands
    assert note in " ".join(out[out.index("Score sheet"):].split())


def test_the_end_summary_is_paged_and_ends_in_view_at_80x24() -> None:
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Computer 1", "Computer 2"],
                lexicon=LEX, seed=7)
    screen = ScriptedScreen(["", "", "quit"], width=80, height=24)
    session = Session(game, [Seat("Computer 1", "medium"), Seat("Computer 2", "easy")], screen.term)
    assert session.run() == 0
    shown = screen.out.getvalue()
    assert "-- more (23 of" in shown
    last_page = shown[shown.rindex("-- more ("):]
    last_page = last_page[last_page.index("\n") + 1:last_page.index("game over>")]
    assert "Game over: " in last_page and ("wins!" in last_page or "Shared win" in last_page)
    assert len(last_page.splitlines()) <= 23  # the end, the notes after it and the prompt fit one screen


def test_the_sheet_after_the_game_is_paged_at_80x24() -> None:
    """'sheet' at the 'game over>' prompt printed the whole score sheet at once: at 80x24 its title,
    header and first turns scrolled off before anyone saw them (found playing a game to its end
    in tmux). It is paged as the end summary is, and each page fits the screen."""
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Computer 1", "Computer 2"],
                lexicon=LEX, seed=7)
    screen = ScriptedScreen(["sheet", "quit"], width=80, height=24)
    session = Session(game, [Seat("Computer 1", "medium"), Seat("Computer 2", "easy")], screen.term)
    assert session.run() == 0
    shown = screen.out.getvalue()
    sheet = shown[shown.index("game over> sheet"):shown.rindex("game over>")]
    assert len(sheet.splitlines()) > 24 and "Score sheet" in sheet.splitlines()[1]
    pages = re.split(r"-- more \(\d+ of \d+ lines\)[^\n]*\n", sheet)
    assert len(pages) > 1 and all(len(page.splitlines()) <= 23 for page in pages[1:])
    assert len(pages[0].splitlines()) <= 24  # the command's own line, then a screenful


def test_the_last_page_leaves_the_reserve_free() -> None:
    """A rest that filled the screen but for the reserve was shown whole as the last page, so the
    lines printed after it (the winner, the commands) pushed its top off the screen: seen when
    the computer's ties changed the game above (its end summary, 46 lines at 80x24); and a rest
    of 18 to 23 lines, less than a screen, was shown at once whatever the reserve."""
    from rich.text import Text

    for total in (10, 17, 18, 20, 23, 30, 40, 46, 60):
        screen = ScriptedScreen([], width=80, height=24)
        screen.term.page(Text("\n".join(f"line {i}" for i in range(total))), reserve=6)
        pages = screen.out.getvalue().split("-- more (")
        last = pages[-1].splitlines()[1:]
        assert last[-1] == f"line {total - 1}" and len(last) <= 23 - 6, total  # the reserve's lines stay free
        shown = [line for page in pages for line in page.splitlines() if line.startswith("line ")]
        assert set(shown) == {f"line {i}" for i in range(total)}, total  # every line shown


def test_panel_title_keeps_the_rules_and_rules_hide_the_seed(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(find_preset("tournament").with_options(challenge="five-point"), players=["Ann", "Bob"], lexicon=LEX,
                seed=3)
    first = _screen_text(game, 80, 24).splitlines()[0]
    assert "tournament · ENABLE · five-point challenge" in first and "…" not in first
    assert "8H=across" in _screen_text(game, 80, 24)
    status, out = play(["--seed", "21", "-p", "Ann", "-p", "computer:easy", "--no-save"], ["rules", "quit"],
                       monkeypatch, capsys)
    assert "seed" in out and "shown when the game is over" in out and "21" not in out.split("seed")[1][:40]


def test_rules_say_off_for_finish_line_not_python_none(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """'rules' showed 'finish line  None' in a game without Finish Line, and its targets as a
    Python list ('[70, 200]') in a game with it."""
    status, out = play(["--seed", "21", "-p", "Ann", "-p", "computer:easy", "--no-save"], ["rules", "quit"],
                       monkeypatch, capsys)
    row = next(line for line in out.splitlines() if "finish line" in line)
    assert row.split()[-1] == "off" and "None" not in out
    status, out = play(["--seed", "21", "-p", "Ann", "-p", "computer:easy", "--no-save", "--finish-line",
                        "beginner,expert"], ["rules", "quit"], monkeypatch, capsys)
    row = next(line for line in out.splitlines() if "finish line" in line)
    assert row.split("│")[-1].strip() == "70, 200" and "[" not in row


# -- hostile commands and files ------------------------------------------------------------------

def test_odd_hint_counts_and_unwritable_saves_keep_the_game_going(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    """'hint ²' (a Unicode digit) and 'hint' with thousands of digits stopped the game with a
    traceback, as did 'save' to a folder or to a path that cannot be made."""
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "f").write_text("a file, not a folder")
    status, out = play(["--seed", "21", "-p", "Ann", "-p", "computer:easy"],
                       ["hint ²", "hint " + "9" * 5000, "hint " + "9" * 990, f"save {folder}", f"save {tmp_path / 'f' / 'x.json'}",
                        "save /proc/qiza/x.json", "quit"], monkeypatch, capsys)
    out = " ".join(out.split())
    assert status == 0 and "Traceback" not in out
    assert out.count("Best plays for your rack") == 2  # 'hint ²' and 990 digits
    assert "That line is 5005 characters long" in out  # over the limit of a line: refused as such
    squeezed = "".join(out.split())  # a long path may be wrapped anywhere on the screen
    assert f"{folder}isafolder" in squeezed and folder.is_dir()  # named as one: not "already exists"
    assert "Couldnotsaveto/proc/qiza/x.json" in squeezed and f"Couldnotsaveto{tmp_path / 'f' / 'x.json'}" in squeezed
    assert "Game stopped and saved" in out


def test_saving_never_replaces_another_game_or_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    """A new game with --save FILE over an existing saved game replaced it at once (the game was
    lost), and 'save FILE' replaced any file; now only the game's own save, or a saved copy of
    the same game, is replaced."""
    first = tmp_path / "first.json"
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(first)], ["pass", "quit"],
                       monkeypatch, capsys)
    kept = first.read_text()
    assert json.loads(kept)["actions"]
    status, out = play(["--seed", "4", "-p", "Ann", "-p", "Bob", "--save", str(first)], ["quit"],
                       monkeypatch, capsys)
    out = " ".join(out.split())
    assert status == 2 and "already exists" in out and "--resume" in out and "Traceback" not in out
    assert first.read_text() == kept
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    copy = tmp_path / "copy.json"
    status, out = play(["--resume", str(first)], [f"save {notes}", f"save {copy}", "pass", f"save {copy}", "quit"],
                       monkeypatch, capsys)
    out = " ".join(out.split())
    assert status == 0 and notes.read_text() == "my notes" and "already exists" in out
    assert len(json.loads(copy.read_text())["actions"]) == len(json.loads(first.read_text())["actions"])
    status, out = play(["--resume", str(first), "--save", str(notes)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 2 and notes.read_text() == "my notes"


def test_a_damaged_save_is_kept_and_the_save_before_it_offered(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A save damaged after it was written (cut short by the disk, or edited by hand) lost the
    game: only the newest save existed. Each save now keeps the one it replaces (``NAME.bak``);
    resuming the damaged file names it, keeps it, and says how to continue from the save before."""
    path = tmp_path / "game.json"
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)], ["pass", "pass", "pass", "quit"],
                       monkeypatch, capsys)
    assert status == 0
    before = json.loads(path.read_text())["actions"]
    previous = tmp_path / "game.json.bak"
    assert json.loads(previous.read_text())["actions"] == before[:-1]  # the save before the last one
    damaged = path.read_text()[:150]
    path.write_text(damaged)
    status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 1 and "Traceback" not in out
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"qiza play: {path}:") and "not JSON" in lines[0]
    assert f"The save before it is good ({len(before) - 1} actions)" in lines[1]
    restored = tmp_path / "game-restored.json"
    assert lines[2].split() == ["qiza", "play", "--resume", str(previous), "--save", str(restored)]
    assert path.read_text() == damaged  # kept as it was
    status, out = play(lines[2].split()[2:], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and json.loads(restored.read_text())["actions"][:len(before) - 1] == before[:-1]
    assert len(json.loads(restored.read_text())["actions"]) == len(before)
    assert path.read_text() == damaged
    # a computer level the file names that this qiza does not have: the message names the file
    data = json.loads(restored.read_text())
    data["extra"]["tui"]["seats"][1]["level"] = "grandmaster"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    status, out = play(["--resume", str(edited)], ["quit"], monkeypatch, capsys)
    assert status == 1 and "Traceback" not in out
    assert out.strip().startswith(f"qiza play: {edited}: unknown computer level 'grandmaster'")
    # a damaged save with no good one before it: the message names the file only
    previous.write_text("{}")
    status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 1 and "Traceback" not in out and str(path) in out and "save before" not in out


REAL_FSYNC = os.fsync


class Disk:
    """Standard input whose lines can fill or free the disk the game is saved to (a full disk
    makes every ``fsync`` of a save fail with ENOSPC, as a write would), or run a function."""

    def __init__(self, lines: list[str | Callable[[], object]], monkeypatch: pytest.MonkeyPatch,
                 full: bool = False) -> None:
        self.lines = list(lines)
        self.full = full

        def fsync(fd: int) -> None:
            if self.full:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            REAL_FSYNC(fd)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(sys, "stdin", self)

    def readline(self) -> str:
        while self.lines:
            line = self.lines.pop(0)
            if callable(line):  # something that happens between two lines
                line()
                continue
            if line in ("<full>", "<freed>"):
                self.full = line == "<full>"
                continue
            return line + "\n"
        return ""

    @staticmethod
    def isatty() -> bool:
        return False


def test_a_full_disk_is_told_and_the_game_goes_on_and_is_saved_when_it_can_be(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A save that failed (a full disk, a read-only folder) turned saving off for the rest of the
    game, in a note easily missed: the turns after were never saved, even once the disk had room
    again, and 'quit' said only "Game stopped.". Now the failure is told once, in red, with what
    the file still holds; every turn tries again; quitting unsaved says so; the save is intact."""
    path = tmp_path / "game.json"
    Disk(["pass", "<full>", "pass", "pass", "<freed>", "pass", "<full>", "pass", "quit"], monkeypatch)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)])
    out = capsys.readouterr()
    text = " ".join((out.out + out.err).split())
    squeezed = "".join(text.split())
    assert status == 0 and "Traceback" not in text
    assert squeezed.count(f"Couldnotsaveto{path}:Nospaceleftondevice.Thegamegoeson;{path}holdsitasof1ofits2actions") == 1
    assert squeezed.count(f"Savedagainto{path}") == 1
    assert f"Gamestopped,butnotsaved:couldnotsaveto{path}:Nospaceleftondevice;{path}holdsitasof4ofits5actions" \
        in squeezed
    assert "Game stopped and saved" not in text
    assert json.loads(path.read_text())["actions"] == [[0, "pass"], [1, "pass"], [0, "pass"], [1, "pass"]]
    assert json.loads((tmp_path / "game.json.bak").read_text())["actions"] == [[0, "pass"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.bak"]
    # 'save FILE' elsewhere while the disk is full: the game goes on saving there
    Disk(["<full>", "pass", "<freed>", f"save {tmp_path / 'elsewhere.json'}", "<full>", "pass", "quit"],
         monkeypatch)
    status = main(["play", "--resume", str(path)])
    out = capsys.readouterr()
    squeezed = "".join((out.out + out.err).split())
    assert status == 0 and "Traceback" not in squeezed
    assert "Gamestoppedandsaved" not in squeezed  # the last turn could not be saved there either
    assert len(json.loads((tmp_path / "elsewhere.json").read_text())["actions"]) == 5
    assert len(json.loads(path.read_text())["actions"]) == 4


def test_a_save_made_read_only_is_kept_and_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``chmod a-w`` on the save during a game was undone by the next turn's save (a new file
    renamed over it, writable again). Now the read-only save is kept as it is, which is told once
    with how to make it writable (a read-only save resumes); made writable again, it is saved again."""
    path = tmp_path / "game.json"
    Disk(["pass", lambda: path.chmod(0o444), "pass", "pass", "quit"], monkeypatch)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)])
    squeezed = "".join(capsys.readouterr().out.split())
    assert status == 0 and "Traceback" not in squeezed
    reason = "".join(savefile.READ_ONLY.split())
    assert squeezed.count(f"Couldnotsaveto{path}:{reason}.Thegamegoeson;{path}holdsitasof1ofits2actions") == 1
    assert f"Gamestopped,butnotsaved:couldnotsaveto{path}:{reason}" in squeezed
    assert json.loads(path.read_text())["actions"] == [[0, "pass"]]
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    Disk(["pass", "save", lambda: path.chmod(0o600), "pass", "quit"], monkeypatch)
    status = main(["play", "--resume", str(path)])  # a read-only save resumes
    squeezed = "".join(capsys.readouterr().out.split())
    assert status == 0 and squeezed.count(f"Couldnotsaveto{path}:{reason}") == 2  # the turn's save, then 'save'
    assert squeezed.count(f"Savedagainto{path}") == 1 and "Gamestoppedandsaved" in squeezed
    assert len(json.loads(path.read_text())["actions"]) == 3
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_game_started_on_a_full_disk_does_not_claim_to_be_saved(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The first save of a new game failed ("Could not save ...") and the next line said "This game
    is saved after every turn to ..."."""
    path = tmp_path / "game.json"
    Disk(["pass", "<freed>", "pass", "quit"], monkeypatch, full=True)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)])
    out = capsys.readouterr()
    squeezed = "".join((out.out + out.err).split())
    assert status == 0 and "Traceback" not in squeezed
    assert f"Couldnotsaveto{path}:Nospaceleftondevice.Thegamegoeson;{path}holdsnothingofthisgame" in squeezed
    assert "Thisgameissavedaftereveryturn" not in squeezed
    assert squeezed.count(f"Savedagainto{path}") == 1 and "Gamestoppedandsaved" in squeezed
    assert len(json.loads(path.read_text())["actions"]) == 2


def test_a_save_whose_actions_are_written_otherwise_resumes_and_saves(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A save whose actions the game writes otherwise ('PASS' for 'pass': by hand, or another
    version) was taken as changed by another program at the first save after resuming, and the
    game was never saved again."""
    path = tmp_path / "game.json"
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)], ["pass", "quit"],
                       monkeypatch, capsys)
    data = json.loads(path.read_text())
    data["actions"][0][1] = "PASS"
    path.write_text(json.dumps(data))
    status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and "Could not save" not in out and "Game stopped and saved" in out
    assert json.loads(path.read_text())["actions"] == [[0, "pass"], [1, "pass"]]


@contextlib.contextmanager
def _other_qiza_play(*args: str) -> Iterator[subprocess.Popen[bytes]]:
    """``qiza play --plain ARGS`` in a process of its own (killed at the end if still running)."""
    process = subprocess.Popen([sys.executable, "-u", "-m", "qiza", "play", "--plain", *args],
                               cwd=Path(__file__).resolve().parents[1], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


_UNREAD: dict[int, bytes] = {}
"""What a process wrote after the marker a :func:`_read_until` waited for (by its pid)."""


def _read_until(process: subprocess.Popen[bytes], marker: bytes, seconds: float = 300) -> bytes:
    """What ``process`` writes until ``marker`` (``seconds`` at most between two reads). What
    came after the marker in the same read is kept for the next call: on a loaded machine
    "Ann passed" and the screen after it came in one read, and a wait for the screen then
    waited for more, which never came."""
    assert process.stdout is not None
    shown = _UNREAD.pop(process.pid, b"")
    while marker not in shown:
        ready, _, _ = select.select([process.stdout], [], [], seconds)
        assert ready, shown
        chunk = os.read(process.stdout.fileno(), 65536)
        assert chunk, shown
        shown += chunk
    end = shown.index(marker) + len(marker)
    _UNREAD[process.pid] = shown[end:]
    return shown[:end]


def test_what_follows_a_marker_in_the_same_read_is_read_next() -> None:
    process = subprocess.Popen([sys.executable, "-c", "print('Ann passed.'); print('Bag: 86 tiles')"],
                               stdout=subprocess.PIPE)
    process.wait()  # both lines wait in the pipe: the first read takes them
    assert _read_until(process, b"Ann passed").endswith(b"Ann passed")
    assert _read_until(process, b"Bag: ") == b".\nBag: "
    assert process.stdout is not None
    process.stdout.close()


def test_two_terminals_never_play_one_saved_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Two 'qiza play --resume FILE' at once each saved over the other's turns, silently. Now the
    game being played holds a lock on its file: a second one is refused at once, naming the
    process; the first plays on and saves; once it has quit the game resumes again."""

    path = tmp_path / "games" / "game.json"
    # a new game, in a folder not made yet: it was not locked (the lock file could not be made
    # before the first save made the folder)
    with _other_qiza_play("--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)) as new:
        _read_until(new, b"saved after every turn")
        status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
        assert status == 1 and "is being played in another qiza play" in out
        rest, _ = new.communicate(b"pass\nquit\n", timeout=300)
        assert new.returncode == 0, rest
    assert json.loads(path.read_text())["actions"] == [[0, "pass"]]
    tmp_path = path.parent
    with _other_qiza_play("--resume", str(path)) as first:
        _read_until(first, b"Resuming")  # the first one is playing (it says so once it holds the game)
        kept = path.read_text()
        status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
        out = " ".join(out.split())
        assert status == 1 and "Traceback" not in out
        assert f"{path} is being played in another qiza play (process {first.pid})" in out
        assert path.read_text() == kept
        rest, _ = first.communicate(b"exchange A\nquit\n", timeout=300)
        assert first.returncode == 0, rest
    assert json.loads(path.read_text())["actions"][-1] == [1, "exchange A"]
    assert not (tmp_path / ".game.json.lock").exists()
    # what a save killed half-way leaves behind is removed by the next game on the file, and only that
    for name in (".game.json.x1y2.tmp", ".game.json.bak.x3y4.tmp", ".other.json.x5y6.tmp"):
        (tmp_path / name).write_text("{")
    status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and len(json.loads(path.read_text())["actions"]) == 3
    assert sorted(p.name for p in tmp_path.glob(".*")) == [".other.json.x5y6.tmp"]


@pytest.mark.parametrize("number", ["SIGHUP", "SIGTERM"])
def test_a_closed_terminal_stops_the_game_saved_and_lets_go_of_its_lock(number: str, tmp_path: Path) -> None:
    """Closing the terminal window (SIGHUP) killed qiza play at once, leaving its lock file
    .NAME.lock in the games folder. A hang-up or a SIGTERM now stops the game as 'quit' does,
    quietly: the save holds every turn played (a move typed half-way is none), the lock file is gone."""
    import signal

    path = tmp_path / "games" / "game.json"
    with _other_qiza_play("--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)) as game:
        assert game.stdin is not None
        _read_until(game, b"saved after every turn")
        game.stdin.write(b"pass\nH8 QA")  # the second line not finished
        game.stdin.flush()
        _read_until(game, b"Bob's rack")
        assert (tmp_path / "games" / ".game.json.lock").exists()
        game.send_signal(getattr(signal, number))
        rest, _ = game.communicate(timeout=60)
        assert game.returncode == 0, rest
    assert b"Traceback" not in rest
    assert json.loads(path.read_text())["actions"] == [[0, "pass"]]
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.json", "game.json.bak"]


def test_a_game_whose_folder_was_deleted_while_played_is_locked_again_by_its_next_save(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The folder of a game being played, deleted ('rm -rf'), is made again by its next save, but
    its lock file was not: a second 'qiza play --resume' was refused as playing 'another name of
    the same file (a hard link)', which it was not, without the number of the process."""
    import shutil

    path = tmp_path / "games" / "game.json"
    path.parent.mkdir()
    savefile.save(Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"],
                       lexicon=LEX, seed=3), path)
    with _other_qiza_play("--resume", str(path)) as first:
        _read_until(first, b"Resuming")
        shutil.rmtree(path.parent)
        assert first.stdin is not None
        first.stdin.write(b"pass\n")
        first.stdin.flush()
        _read_until(first, b"Ann passed")
        _read_until(first, b"Bag: ")  # saved, then Bob's screen: the folder and the file made again
        assert path.exists() and (path.parent / ".game.json.lock").exists()
        status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
        assert status == 1 and said(f"{path} is being played in another qiza play (process {first.pid})", out), out
        assert "hard link" not in out
        rest, _ = first.communicate(b"quit\n", timeout=300)
        assert first.returncode == 0, rest
    assert not (path.parent / ".game.json.lock").exists()
    assert json.loads(path.read_text())["actions"] == [[0, "pass"]]


def test_a_hard_link_to_a_game_being_played_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The save lock was a file named after the save: two names of one file (a hard link, 'ln
    game.json copy.json') took two locks, and two 'qiza play --resume' played the one game at
    once. The file itself is locked too (its device and inode), as resumed and as each save
    leaves it: any name of it is refused while the game is played, and plays once it is not."""
    path, link = tmp_path / "game.json", tmp_path / "other" / "copy.json"
    link.parent.mkdir()
    savefile.save(Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"],
                       lexicon=LEX, seed=3), path)
    os.link(path, link)
    with _other_qiza_play("--resume", str(path)) as first:
        _read_until(first, b"Resuming")
        status, out = play(["--resume", str(link)], ["pass", "quit"], monkeypatch, capsys)
        assert status == 1 and "Traceback" not in out
        assert said(f"{link} is being played in another qiza play, by another name of the same file (a hard link)",
                    out), out
        assert first.stdin is not None
        first.stdin.write(b"pass\n")
        first.stdin.flush()
        _read_until(first, b"Ann passed")
        _read_until(first, b"Bag: ")  # saved, then Bob's screen: game.json is a new file, copy.json the one resumed
        newer = tmp_path / "newer.json"
        os.link(path, newer)  # a link to the file the save made
        for name in (link, newer):
            status, out = play(["--resume", str(name)], ["pass", "quit"], monkeypatch, capsys)
            assert status == 1 and said("by another name of the same file", out), out
        first.stdin.write(b"save\n")  # 'save' of its own file makes a new one as well
        first.stdin.flush()
        _read_until(first, b"Saved to")
        newest = tmp_path / "newest.json"
        os.link(path, newest)
        status, out = play(["--resume", str(newest)], ["pass", "quit"], monkeypatch, capsys)
        assert status == 1 and said("by another name of the same file", out), out
        rest, _ = first.communicate(b"quit\n", timeout=300)
        assert first.returncode == 0, rest
    assert json.loads(path.read_text())["actions"] == [[0, "pass"]]
    status, out = play(["--resume", str(newer)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and "Resuming" in out  # free once the first has quit


def test_games_started_in_the_same_second_get_files_of_their_own(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """Games get an automatic file name from the time to the second: two scripts starting games
    at once could both choose a name before either saved (silently one file for two games; with
    the save lock, the second was refused). A name another game holds is now passed over."""
    from datetime import datetime

    from qiza.tui import savelock, session

    class Frozen(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Frozen:
            return cls(2026, 1, 2, 3, 4, 5)

    monkeypatch.setattr(session, "datetime", Frozen)
    chosen = session.new_save_path()
    assert chosen == data_dir / "games" / "game-20260102-030405.json"
    chosen.parent.mkdir(parents=True)
    with savelock.hold(chosen):  # the other game chose the name and has not saved yet
        status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob"], ["pass", "quit"], monkeypatch, capsys)
        assert status == 0 and "Traceback" not in out
        assert not chosen.exists()
        mine = data_dir / "games" / "game-20260102-030405-2.json"
        assert len(json.loads(mine.read_text())["actions"]) == 1
        # a name given with --save is the player's: refused, not changed
        status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(chosen)], ["pass", "quit"],
                           monkeypatch, capsys)
        assert status == 1 and "is being played in another qiza play" in out and not chosen.exists()


def test_a_save_changed_by_another_program_is_not_written_over(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Where the file cannot be locked (no flock, or another program), the game wrote over a save
    that someone else had changed meanwhile; now it refuses, says so, and the game goes on."""
    path = tmp_path / "game.json"
    other = savefile.dumps(Game(find_preset("classic"), players=["Ann", "Bob"], lexicon=LEX, seed=99))

    def another_program() -> None:
        path.write_text(other)

    Disk(["pass", another_program, "pass", "save", "pass", f"save {tmp_path / 'mine.json'}", "pass", "quit"],
         monkeypatch)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)])
    out = capsys.readouterr()
    squeezed = "".join((out.out + out.err).split())
    assert status == 0 and "Traceback" not in squeezed
    assert squeezed.count(f"Couldnotsaveto{path}:anotherprogramchangeditsincethisgamesaveditthere") == 1
    assert "Savingistriedagain" not in squeezed
    assert f"{path}waschangedbyanotherprogramsincethisgamesaveditthere:itiskept" in squeezed  # 'save' too
    assert path.read_text() == other
    assert len(json.loads((tmp_path / "mine.json").read_text())["actions"]) == 4  # the saves went on there
    assert "Gamestoppedandsaved" in squeezed and f"--resume{tmp_path / 'mine.json'}" in squeezed


def test_hot_seat_players_recall_only_their_own_commands() -> None:
    """The arrow keys recalled the previous player's commands: 'exchange FWJ' or 'order ...'
    told the next player tiles the game hides from them; the screens before a hand-over stayed
    in the terminal's scrollback."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from qiza.tui.terminal import RichTerminal

    up = "\x1b[A"
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        term = RichTerminal()
        term.console.file = io.StringIO()
        keys.send_text("exchange FWJ\r")
        assert term.ask("Ann> ") == "exchange FWJ"
        keys.send_text(up + "\r")
        assert term.pause("Bob, press Enter to see your rack.")
        keys.send_text(up + "\r")
        assert term.ask("Bob> ") == ""
        keys.send_text(up + "\r")
        assert term.ask("Ann> ") == "exchange FWJ"
        term.forget()
        assert "\x1b[3J" in term.console.file.getvalue()


def test_ctrl_z_at_the_prompt_suspends_the_game_as_at_a_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-Z at the prompt put the character ^Z in the line (nothing happened to be seen), and
    the next command typed was refused as "'\\x1ahint' is not a coordinate like H8 or 8H"; it
    suspends the game, as Ctrl-Z does everywhere else in a terminal ('fg' continues it)."""
    import signal

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from qiza.tui.terminal import RichTerminal

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, number: sent.append((pid, number)))  # not this test run
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        term = RichTerminal()
        keys.send_text("\x1a")
        keys.send_text("hint\r")
        assert term.ask("Ann> ") == "hint"
    assert sent == [(0, signal.SIGTSTP)]


def test_the_screen_is_drawn_again_after_ctrl_z_and_fg(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """After Ctrl-Z and 'fg' only the prompt came back: the board was gone (the shell's screen
    drawn over it). The game's screen is drawn again when it continues, as full-screen programs do."""
    import signal

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.text import Text

    from qiza.tui.terminal import RichTerminal

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, number: sent.append((pid, number)))  # not this test run
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        term = RichTerminal()
        term.show(Text("THE OLD SCREEN"))
        term.clear()
        term.show(Text("THE BOARD"), Text("Bob played H8 QI for 22."))
        capsys.readouterr()
        keys.send_text("\x1a")
        keys.send_text("pass\r")
        assert term.ask("Ann> ") == "pass"
    assert sent == [(0, signal.SIGTSTP)]
    again = capsys.readouterr().out
    assert "THE BOARD" in again and "Bob played H8 QI for 22." in again and "THE OLD SCREEN" not in again
    # the pages of a long text (the help at 80x24): the page waiting for Enter comes back
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        term = RichTerminal()
        term.clear()
        keys.send_text("\x1a")
        keys.send_text("q\r")
        term.page(Text("\n".join(f"line {number}" for number in range(40))))
    assert capsys.readouterr().out.count("line 20\n") == 2


def test_an_escape_sequence_typed_at_the_prompt_is_not_a_mouse_report() -> None:
    """ESC [ 8 m reads as a mouse report; prompt_toolkit's own handler raised on it (a traceback
    on the game's screen, then 'Press ENTER to continue'). The game takes no mouse input."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from qiza.tui.terminal import RichTerminal

    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        term = RichTerminal()
        keys.send_text("check \x1b[8mQAT\x1b[<0;3;4M\r")
        answers: list[str | None] = []
        asking = threading.Thread(target=lambda: answers.append(term.ask("Ann> ")), daemon=True)
        asking.start()
        asking.join(30)
        if asking.is_alive():  # waiting for Enter after the handler's traceback: release it
            keys.send_text("\r\r\r")
            asking.join(30)
            pytest.fail("an escape sequence at the prompt raised in prompt_toolkit's mouse handler")
        assert answers == ["check QAT"]


def test_hand_over_forgets_the_screens_before() -> None:
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed", challenge="double"),
                players=["Ann", "Bob", "Cy"], lexicon=LEX, seed=4)
    word = opening(game.rack_text(0))
    screen = ScriptedScreen([f"H8 {word}", "n", "n", "quit"])
    screen.term.forget = lambda: print("<<forget>>", file=screen.out)  # type: ignore[method-assign]
    session = Session(game, [Seat("Ann"), Seat("Bob"), Seat("Cy")], screen.term)
    assert session.run() == 0
    shown = screen.out.getvalue()
    for text in ("Pass the device to Ann", f"Bob: challenge Ann's H8 {word}", "Pass the device to Bob"):
        before = shown[:shown.index(text)]
        assert "<<forget>>" in before[before.rindex("<<clear>>"):]


def test_gcg_during_the_game_shows_only_the_own_rack(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'gcg FILE' before the end wrote every player's rack: the computer's rack (#rack2) and the
    tiles it kept after each move, in hot seat the other people's racks and exchanged tiles; now
    the file holds what the player who typed it may see."""
    from qiza import gcg

    game = new_game(challenge="double", seed=5)
    ann, bob = game.rack_text(0), game.rack_text(1)
    word = opening(ann)
    swap = bob[:3]
    path = tmp_path / "mid.gcg"
    status, out = play(["--seed", "5", "--first-player", "fixed", "-p", "Ann", "-p", "Bob", "--no-save"],
                       [f"H8 {word}", "", f"exchange {swap}", "", f"gcg {path}", "quit"], monkeypatch, capsys)
    assert status == 0 and "Traceback" not in out
    record = gcg.load(path)
    assert not record.errors and record.incomplete
    placed, exchanged = record.events
    assert placed.rack == ann and placed.word == word
    assert exchanged.rack == "" and exchanged.tiles == "" and exchanged.count == 3
    assert set(record.final_racks) == {1}
    text = path.read_text()
    assert bob not in text and f"-{swap}" not in text
    assert gcg.replay(record).clean


def test_gcg_of_two_people_of_the_same_name_reads_back(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Two people called Ann play hot seat: 'gcg FILE' writes a nickname each (GCG tells players
    apart by nickname), and the record reads back and replays clean."""
    from qiza import gcg

    path = tmp_path / "anns.gcg"
    status, out = play(["--seed", "5", "--first-player", "fixed", "-p", "Ann", "-p", "Ann", "--no-save"],
                       ["pass", "", "pass", "", f"gcg {path}", "quit"], monkeypatch, capsys)
    assert status == 0 and "Traceback" not in out
    record = gcg.load(path)
    assert not record.errors and not record.warnings and len({p.nick for p in record.players}) == 2
    assert [e.player for e in record.events] == [p.nick for p in record.players]
    assert gcg.replay(record).clean


def test_gcg_never_replaces_another_game_or_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    """'gcg FILE' replaced any file without a word: another game's save file (that game was lost:
    --resume said 'not JSON'), notes, a folder's worth of work; --gcg too at the end. Now only an
    earlier record of this game is replaced, and --gcg is refused at the start."""
    other = tmp_path / "other.json"
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(other)], ["pass", "quit"],
                       monkeypatch, capsys)
    kept = other.read_text()
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    record = tmp_path / "game.gcg"
    status, out = play(["--seed", "4", "-p", "Cy", "-p", "Di", "--no-save"],
                       [f"gcg {other}", f"gcg {notes}", f"gcg {record}", "pass", f"gcg {record}", "quit"],
                       monkeypatch, capsys)
    squeezed = "".join(out.split())
    assert status == 0 and "Traceback" not in out
    assert other.read_text() == kept and notes.read_text() == "my notes"
    assert f"{other}alreadyexistsandisnotaGCGrecordofthisgame" in squeezed
    assert f"{notes}alreadyexists" in squeezed
    assert squeezed.count(f"GCGwrittento{record}") == 2 and "#player1 Cy" in record.read_text()
    status, out = play(["--seed", "5", "-p", "Ann", "-p", "Bob", "--no-save", "--gcg", str(notes)], ["quit"],
                       monkeypatch, capsys)
    assert status == 2 and "--gcg:" in out and notes.read_text() == "my notes"


def test_resumed_seats_take_the_game_s_names(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    """A saved game whose terminal data named the seats otherwise than the game (hand-edited:
    two seats called Ann, one with an escape sequence) asked Bob's turn of 'Ann' and sent the
    sequence to the screen; the seats take the game's own (cleaned) names."""
    path = tmp_path / "game.json"
    play(["--seed", "3", "--first-player", "fixed", "-p", "Ann", "-p", "Bob", "--save", str(path)],
         ["pass", "quit"], monkeypatch, capsys)
    data = json.loads(path.read_text())
    data["extra"]["tui"]["seats"] = [{"name": "Ann", "level": None}, {"name": "Ann\x1b[2J", "level": None}]
    path.write_text(json.dumps(data))
    status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and "\x1b" not in out
    assert "pass the device to Bob" in out and "Bob> pass" in out and "Ann> pass" not in out


def test_undo_between_people_does_not_point_to_undo_option(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Between two people started with --undo, 'undo' said 'start with --undo to allow it': the
    option cannot allow it there (undo is for one person against the computer)."""
    for options in ([], ["--undo"]):
        status, out = play(["--seed", "5", "--no-save", "-p", "Ann", "-p", "Bob", *options], ["undo"],
                           monkeypatch, capsys)
        assert "Undo is only for games of one person against the computer." in out
        assert "--undo to allow it" not in out
    status, out = play(["--seed", "5", "--no-save", "-p", "Ann", "-p", "computer:easy", "--no-undo"], ["undo"],
                       monkeypatch, capsys)
    assert "start with --undo to allow it" in out


def test_a_seed_out_of_range_is_an_error_not_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza play --seed 100000000000000000000000' stopped with the engine's ValueError traceback."""
    status, out = play(["--seed", str(10**23), "-p", "Ann", "-p", "Bob", "--no-save"], ["quit"], monkeypatch, capsys)
    assert status == 2 and "Traceback" not in out and "--seed: seed 100000000000000000000000 is out of range" in out


def test_a_rule_option_too_large_to_save_is_refused_at_the_start(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'--exchange-limit 100000000000' started a game that was saved after every turn and could
    not be resumed ('field rules.exchange_limit ... is not a whole number from -1000000 to
    1000000'): the game was lost. The rules refuse what a saved game cannot hold."""
    path = tmp_path / "game.json"
    status, out = play(["--exchange-limit", "100000000000", "-p", "Ann", "-p", "Bob", "--save", str(path)],
                       ["pass", "quit"], monkeypatch, capsys)
    assert status == 2 and "Traceback" not in out and "at most 1,000,000" in out and not path.exists()
    status, out = play(["--exchange-limit", "1000000", "-p", "Ann", "-p", "Bob", "--save", str(path)],
                       ["pass", "quit"], monkeypatch, capsys)
    assert status == 0
    status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 0 and "Resuming" in out


def test_the_super_board_at_80_columns_keeps_the_hint_to_type_a_move(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """On the Super board at 80x24 the panel beside the board is 30 columns: the hint was cut to
    'Type a move (e.g. H8 WORD) or…' and, once two or three turns were listed, left out, the
    unseen tiles' runs (24 E...) taking nine lines and the key two. The runs are counts there
    (E×24: four lines) and the hint is written whole in a shorter form."""
    status, out = play(["--rules", "super", "-p", "Ann", "-p", "Bob", "-p", "Cy", "--no-save", "--width", "80",
                        "--seed", "3"], ["pass"] * 6 + ["quit"], monkeypatch, capsys)
    assert status == 0 and out.count("Bag: ") == 7  # a screen a turn
    assert out.count("Move (e.g. H8 WORD) or 'help'.") == 7 and out.count("Earlier turns:") == 5  # with the turns
    assert "A×16" in out and "AAAA" not in out
    board = [line for line in out.splitlines() if line[:3].strip().isdigit()]
    assert max(len(line.rstrip()) for line in board) <= 80
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save", "--width", "80", "--seed", "3"], ["quit"],
                       monkeypatch, capsys)
    assert "Type a move (e.g. H8 WORD) or 'help'." in out and "AAAA" in out  # the classic board as it was


def test_the_super_board_panel_lines_fit_whole_at_80_columns(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The Super board's panel at 80x24 is 30 columns: each earlier turn ended in '…' (its score
    and total cut off: 'Ann      pass               …') and 'Unseen (193): 72 vowels, 3 bl…'. Three
    players, two of them computers that play words: every panel line is whole."""
    status, out = play(["--rules", "super", "-p", "Ann", "-p", "computer:hard", "-p",
                        "computer:easy:Cyrano_de_Bergerac", "--no-save", "--width", "80", "--seed", "5"],
                       ["pass", "pass", "quit"], monkeypatch, capsys)
    screens = [line for line in out.splitlines() if line[:3].strip().isdigit() or line.startswith("    A B")]
    assert status == 0 and max(len(line.rstrip()) for line in screens) <= 80
    assert not [line for line in screens if "…" in line]
    assert "Unseen (" in out and "vowels  " in out and "?×" in out  # the blanks counted by the runs below
    turns = [line.rstrip() for line in screens if line[50:].startswith(" Ann    pass")]
    assert turns and all(line.endswith("+0    0") for line in turns)
    plays = [line[50:] for line in screens if line[50:].startswith((" Comput ", " Cyrano "))]
    assert plays and all(re.fullmatch(r" \w+ +\S.{12} +\+\d+ +\d+", line.rstrip()) for line in plays), plays


def test_a_short_record_narrows_its_event_and_keeps_the_score() -> None:
    """The panel's line of a turn takes the width it is given: a long event is shortened with
    '…', the score and total stay whole; at 39 columns and more it is as it was."""
    from qiza.sheet import EndReason
    from qiza.tui import render

    game = new_game(players=4)
    game.play("pass")
    record = game.history[-1]
    assert render.short_record(game, record) == "Player 1 pass                   +0    0"
    assert render.short_record(game, record, width=29) == "Play 1 pass           +0    0"
    game.resign(2, EndReason.TIME)  # 'out: lost on time'
    line = render.short_record(game, game.history[-1], width=24)
    assert len(line) == 24 and line.endswith("+0    0") and "…" in line


def test_a_huge_line_typed_is_refused_and_not_said_back_whole(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A line of 3,000 characters (a paste gone wrong) was said back whole in the error, 40
    lines of Q at 80 columns ('order', 'help', 'save' and a bare word alike). It is refused by
    its length, nothing done; a long unknown word or command is named by its start and length."""
    huge = "ж" * 3000
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save", "--seed", "3"],
                       [huge, f"order {huge}", f"help {huge}", "X" * 50, "help " + "Y" * 50, "quit"],
                       monkeypatch, capsys)
    assert status == 0 and out.count("ж") == 3 * 3000  # the three lines as typed (the plain screen's echo) only
    for length in (3000, 3006, 3005):
        assert said(f"That line is {length} characters long: a move or a command takes at most 1000. Nothing was "
                    "done.", out)
    assert said(f"'{'X' * 40}…' (50 characters) is not a command or a move.", out)
    assert said(f"No command '{'Y' * 40}…' (50 characters).", out)
    assert "Ann played" not in out and "Ann passed" not in out


def test_a_width_below_one_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza play --width -5' stopped with rich's ValueError traceback ('invalid width -5')."""
    for width in ("-5", "0", "1e3"):
        status, out = play(["--width", width, "-p", "Ann", "-p", "Bob", "--no-save"], ["quit"], monkeypatch, capsys)
        assert status == 2 and "argument --width" in out and "Traceback" not in out
    status, out = play(["--width", "30", "-p", "Ann", "-p", "Bob", "--no-save"], ["quit"], monkeypatch, capsys)
    assert status == 0


@pytest.mark.parametrize("columns, lines", [("abc", "x"), ("-5", "-1"), ("1e3", "²")])
def test_a_bad_screen_size_in_the_environment_is_ignored(columns: str, lines: str, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """COLUMNS=abc (or LINES=x) stopped the plain game with int()'s ValueError traceback."""
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("LINES", lines)
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save"], ["quit"], monkeypatch, capsys)
    assert status == 0 and "Game stopped" in out


def test_ctrl_c_while_the_computer_thinks_stops_as_quit_does(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """Ctrl-C while the computer was choosing its move ended the program with status 130 and not
    a word: nobody was told that the game was saved, nor how to continue it."""
    from qiza.tui.session import Session

    def interrupted(self: Session, seat: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Session, "computer_turn", interrupted)
    game = new_game(seed=8)
    word = opening(game.rack_text(0))
    status, out = play(["--seed", "8", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy"],
                       [f"H8 {word}"], monkeypatch, capsys)
    assert status == 0 and "Game stopped and saved" in " ".join(out.split()) and "--resume" in out
    data, saved_game = saved(data_dir)
    assert data["actions"] == [[0, f"H8 {word}"]]


@pytest.mark.parametrize(("keys", "said_before"), [
    (["\x03"], ""),  # the hand-over screen
    (["\r", "resign\r", "\x03"], "resign and lose the game?"),
    (["\r", "help\r", "\x03"], "-- more ("),  # the help a page at a time at 80x24
    (["\x03"], "press Enter for the board"),  # messages too long for the screen, then the board
    (["\r", "MOVE\r", "\r", "\x03"], "Bob: challenge"),  # Bob's challenge question
], ids=["hand-over", "resign question", "page", "wait for the board", "challenge question"])
def test_ctrl_c_at_every_wait_of_the_game_stops_it_saved_as_quit_does(
        keys: list[str], said_before: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README says Ctrl-C in a game stops it, saved, as 'quit' does. It did at the move prompt
    only: at the resign question it meant "no", at the wait for the board it showed the board,
    at a page it skipped to the next wait. Now every wait of the game stops it so."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from qiza.tui.session import Seat, Session
    from qiza.tui.terminal import RichTerminal

    game = new_game(seed=1, challenge="double")
    word = opening(game.rack_text(0))
    path = tmp_path / "game.json"
    with create_pipe_input() as typed, create_app_session(input=typed, output=DummyOutput()):
        term = RichTerminal()
        term.clear = lambda: None  # type: ignore[method-assign]
        term.discard_typed_ahead = lambda: None  # type: ignore[method-assign]  # the keys are sent at once
        asked: list[str] = []
        prompt = term._prompt

        def noted(message: str, *args: Any, **options: Any) -> str:
            asked.append(message)
            return prompt(message, *args, **options)

        term._prompt = noted  # type: ignore[method-assign]
        session = Session(game, [Seat("Ann"), Seat("Bob")], term, save_path=path)
        if said_before == "press Enter for the board":
            session._last_human = 0  # no hand-over first
            for number in range(12):
                session.say(f"message {number}")
        for key in [*keys, "quit\r"]:  # the last, should a Ctrl-C not stop the game
            typed.send_text(key.replace("MOVE", f"H8 {word}"))
        assert session.run() == 0
    out = " ".join(capsys.readouterr().out.split())
    assert said_before in asked[-1]
    assert "Game stopped and saved. Continue it with: qiza play --resume" in out
    assert not session.game.over and json.loads(path.read_text())["actions"] == [list(a) for a in game.actions]
    assert [r.kind for r in game.history] == ([Kind.PLACE] if "MOVE\r" in keys else [])


def test_the_resuming_note_is_seen_on_a_real_terminal(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'Resuming FILE (N actions so far).' was printed before the first screen, whose clearing
    hid it at once on a real terminal; it is shown under the board."""
    from qiza.tui import app

    path = tmp_path / "game.json"
    play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)], ["pass", "quit"], monkeypatch, capsys)
    screen = ScriptedScreen(["", "quit"])
    monkeypatch.setattr(app, "_terminal", lambda args: screen.term)
    assert main(["play", "--resume", str(path)]) == 0
    shown = screen.out.getvalue()
    assert shown.index("<<clear>>") < shown.index("Resuming")  # on a screen, not before it


def test_the_save_s_path_fits_an_80_column_screen(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'Resuming /home/NAME/.local/share/qiza/games/game-....json (1 action so far).' and 'This
    game is saved after every turn to ...' passed the edge of an 80-column terminal, which
    wrapped them in the middle of the path: the home folder is written ~, and a sentence wraps
    at a space, the path whole on its line; the command to resume is one line to copy."""
    from qiza.tui import app

    home = tmp_path / "home-of-a-new-user-whose-name-is-long"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("QIZA_DATA_DIR", str(home / ".local" / "share" / "qiza"))
    play(["--seed", "3", "-p", "Ann", "-p", "Bob"], ["pass", "quit"], monkeypatch, capsys)
    screen = ScriptedScreen(["", "quit"], width=80, height=24)
    monkeypatch.setattr(app, "_terminal", lambda args: screen.term)
    assert main(["play", "--resume"]) == 0
    lines = screen.out.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    save = re.escape("~/.local/share/qiza/games/game-") + r"[-\d]+\.json"
    assert any(re.fullmatch(f"Resuming {save}( \\(1 action so far\\)\\.)?", line) for line in lines), lines
    assert any(re.fullmatch(f"(This game is saved after every turn to )?{save}", line) for line in lines), lines
    assert any(re.fullmatch(f"  qiza play --resume {save}", line) for line in lines), lines  # on quitting


def test_a_page_leaves_room_for_its_wait_on_a_narrow_screen() -> None:
    """At 50x16 the '-- more ... --' wait wraps onto two rows, and the page of 15 lines above it
    pushed its own first line ('Commands') off the top before anyone saw it."""
    from qiza.tui.session import Seat, Session

    game = new_game(seed=1)
    screen = ScriptedScreen(["", "help", "", "", "", "", "", "quit"], width=50, height=16)
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    shown = screen.out.getvalue()
    start = shown.index("Commands")
    first_page = shown[start:shown.index("-- more (", start)]
    wait = shown[shown.index("-- more (", start):].split("\n")[0]
    rows = len(first_page.splitlines()) + -(-(len(wait) + 1) // 50)
    assert rows <= 16  # the page and its wait fit the screen: nothing scrolls away unseen


def test_resume_passes_over_what_is_not_a_saved_game_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """'qiza play --resume' stopped with a FileNotFoundError traceback when the saves folder held a
    broken link named *.json, and took a folder named *.json for the last game ('Is a directory')."""
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob"], ["pass", "quit"], monkeypatch, capsys)
    games = data_dir / "games"
    (games / "zz-broken.json").symlink_to(games / "nowhere")
    (games / "zz-folder.json").mkdir()
    os.utime(games / "zz-folder.json", (2**31, 2**31))  # newer than the game
    status, out = play(["--resume"], ["quit"], monkeypatch, capsys)
    assert status == 0 and "Traceback" not in out and "Resuming" in out and "zz-" not in out


def test_gcg_without_a_file_name_in_a_game_not_saved(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """'gcg' (no file name) in a --no-save game, before any game was saved, said 'Could not write
    .../games/game-....gcg: No such file or directory': the default folder was never made."""
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"], ["gcg", "quit"], monkeypatch, capsys)
    assert status == 0 and "GCG written to" in out and "Could not write" not in out
    assert len(list((data_dir / "games").glob("*.gcg"))) == 1


def test_help_after_the_end_lists_what_still_works(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """'help' at 'game over>' listed every command of a game being played (exchange, hint,
    undo...), which the prompt then refused."""
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"], ["resign", "y", "help", "help sheet"],
                       monkeypatch, capsys)
    after = out[out.index("game over> help"):]
    assert "exchange TILES" not in after and "The game is over: sheet, analyze" in after
    assert "The full score sheet." in after  # help on one command still works


def test_enter_alone_after_the_end_shows_the_choices_and_quit_leaves(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """An empty Enter at 'game over>' quit (a new player pressing Enter to go on left at once).
    Now it quits nothing, as at a shell: it says the choices again, 'quit' to leave among them;
    the commands after it still work, and input that ends (a script) still leaves."""
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"], ["pass", "resign", "y", "", "sheet", "quit"],
                       monkeypatch, capsys)
    assert status == 0
    after = out[out.index("game over> sheet"):]
    before = out[out.index("game over> \n"):out.index("game over> sheet")]
    assert said("The game is over: sheet, analyze, gcg [FILE], save [FILE], board, rules, help, or quit to leave.",
                before)
    assert "Ann" in after and "game over> quit" in after  # the sheet, then 'quit' left
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"], ["resign", "y", ""], monkeypatch, capsys)
    assert status == 0 and "game over> (end of input)" in out


def test_the_lists_after_the_end_name_every_command_that_works_there_and_no_other(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'rules' worked at 'game over>' but neither 'Commands now:' nor the line for a word it
    does not take named it, and 'help exchange' there explained a command it refuses."""
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"],
                       ["resign", "y", "rules", "help exchange", "quit"], monkeypatch, capsys)
    assert status == 0
    commands = "sheet, analyze, gcg [FILE], save [FILE], board, rules, help"
    assert said(f"Commands now: {commands}, quit.", out)
    assert "Rules: " in out[out.index("game over> rules"):]
    after = out[out.index("game over> help exchange"):]
    assert said(f"The game is over: {commands}, or quit to leave", after) and "Put tiles back" not in after


def test_a_person_called_ai_is_a_person() -> None:
    """'-p Ann -p Ai' gave Ann a computer opponent named 'Computer' instead of Ai (a given name):
    'ai', 'bot' and 'cpu' alone were taken for 'computer'. They need a level now ('ai:hard')."""
    from qiza.tui.app import parse_player

    for name in ("Ai", "AI", "Bot", "cpu"):
        seat = parse_player(name, "medium")
        assert not seat.computer and seat.name == name
    assert parse_player("ai:hard", "medium").level == "hard"
    assert parse_player("Computer", "easy").level == "easy"
    assert parse_player("computer:champion:Deep", "medium").name == "Deep"


def test_a_computer_named_with_a_colon_keeps_its_whole_name() -> None:
    """'-p computer:hard:R2:D2' named the computer R2: what came after a second colon in the name
    was dropped without a word (a person's name keeps its colons)."""
    from qiza.tui.app import parse_player
    from qiza.tui.session import Seat

    assert parse_player("computer:hard:R2:D2", "medium") == Seat("R2:D2", "hard")
    assert parse_player("bot::Dr: No", "easy") == Seat("Dr: No", "easy")
    assert parse_player("Ann:B", "medium") == Seat("Ann:B")



def typing_ahead(script: list[tuple[str, bool]]) -> tuple[ScriptedScreen, list[str]]:
    """A terminal reading the lines of ``script`` in order, each ``(line, typed ahead)``: a line
    typed ahead waits in the input, where the terminal's discarding of typed-ahead keys drops
    it (the dropped lines are listed)."""
    screen = ScriptedScreen([])
    dropped: list[str] = []

    def discard() -> None:
        while script and script[0][1]:
            dropped.append(script.pop(0)[0])

    def read(prompt: str, words: object = ()) -> str | None:
        line = script.pop(0)[0] if script else None
        screen.out.write(f"{prompt}{line}\n")
        return line

    def pause(message: str) -> bool:
        screen.out.write(f"{message} <{read('') if script else ''}>\n")
        return True

    screen.term.discard_typed_ahead = discard  # type: ignore[method-assign]
    screen.term.ask = read  # type: ignore[method-assign]
    screen.term.pause = pause  # type: ignore[method-assign]
    return screen, dropped

def test_a_second_enter_typed_ahead_does_not_open_the_next_rack() -> None:
    """Hot seat at a real terminal (tmux): Ann typing 'pass', Enter and a second Enter at once had
    the second Enter, read ahead, answer Bob's 'press Enter to see your rack', so Bob's rack was
    on the screen in front of Ann (and on a shared screen it answered the next person's challenge
    question 'no'). Keys typed ahead are dropped before a hand-over or a shared question."""
    from qiza.tui.session import Seat, Session

    game = new_game(challenge="double", seed=4)
    bad = phony(game.rack_text(0))
    # (line, typed ahead): a typed-ahead line waits in the input until something reads it
    script = [("", False), (f"H8 {bad}", False), ("", True), ("", False), ("quit", False)]
    screen, dropped = typing_ahead(script)
    session = Session(game, [Seat("Ann"), Seat("Bob")], screen.term)
    assert session.run() == 0
    assert dropped == [""]
    shown = screen.out.getvalue()
    # Bob's own Enter opened his rack; the question then had his own answer, not an empty one
    assert f"Bob: challenge Player 1's H8 {bad} ({bad})? [y/N] quit" in shown


def test_an_answer_typed_twice_does_not_answer_for_the_next_person() -> None:
    """Three people on one screen: Bob answering 'n' with a second Enter typed ahead had that
    Enter answer Cy's challenge question 'no' too; each shared question drops what was typed ahead."""
    from qiza.tui.session import Seat, Session

    game = Game(find_preset("classic").with_options(first_player="fixed", challenge="double"),
                players=["Ann", "Bob", "Cy"], lexicon=LEX, seed=4)
    bad = phony(game.rack_text(0))
    script = [("", False), (f"H8 {bad}", False), ("n", False), ("", True), ("y", False), ("quit", False)]
    screen, _ = typing_ahead(script)
    session = Session(game, [Seat("Ann"), Seat("Bob"), Seat("Cy")], screen.term)
    assert session.run() == 0
    assert f"Cy: challenge Ann's H8 {bad} ({bad})? [y/N] y" in screen.out.getvalue()
    assert [r.kind for r in session.game.history] == [Kind.PLACE, Kind.PHONY_REMOVED]


def test_a_resumed_game_goes_on_as_it_would_have(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    """The beginner picks at random among good plays: each of its decisions has its own seed
    (from the game, the seat and the turn), so quitting and resuming changes none of them."""
    args = ["--seed", "5", "--first-player", "fixed", "-p", "Ann", "-p", "computer:beginner"]
    play(args, ["pass"] * 4 + ["quit"], monkeypatch, capsys)
    _, straight = saved(data_dir)
    for path in (data_dir / "games").glob("*"):
        path.unlink()
    play(args, ["pass", "quit"], monkeypatch, capsys)
    path = next((data_dir / "games").glob("*.json"))
    for _ in range(3):
        play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
    _, resumed = saved(data_dir)
    played = [r.notation for r in straight.history if r.kind is Kind.PLACE]
    assert len(played) >= 3
    assert [r.notation for r in resumed.history] == [r.notation for r in straight.history]


def test_the_score_sheets_notation_line_is_not_broken_across_lines() -> None:
    """The score sheet's notation line was the table's caption, wrapped to the table's width and
    centred: early in a game 'Moves in rule book notation: H8 reads across, 8H' then, alone and
    indented on the next line, 'reads down.'"""
    from rich.console import Console

    from qiza.text import notation_note
    from qiza.tui import render

    game = new_game()
    game.play("pass")
    for wide in (False, True):
        console = Console(width=80, file=io.StringIO(), no_color=True, color_system=None)
        console.print(render.score_sheet(game, show_racks=0, wide=wide))
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert notation_note(game.rules.notation) in text.splitlines()
        assert "Score sheet" in text and "Player 1" in text


def test_a_hint_ranks_plays_as_the_computer_does(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """'hint' ranked the plays by their score alone: with RAMOZ?E it offered D8 ZiRAM 50 first,
    spending the blank for 12 points, where the computer's best (and qiza best's) is MAZER
    keeping it; nor did it ever offer an exchange. It now ranks by the hard player's equity
    (score plus the value of the tiles kept), exchanges included."""
    from qiza.players.engine import StaticPlayer

    game = new_game(seed=10)
    assert sorted(game.rack_text(0)) == sorted("RAMOZ?E")
    best = StaticPlayer(LEX).ranked(game.view(0), 3)
    status, out = play(["--seed", "10", "--first-player", "fixed", "-p", "Ann", "-p", "computer:easy", "--no-save"],
                       ["hint 3", "quit"], monkeypatch, capsys)
    assert status == 0
    lines = out[out.index("Best plays for your rack"):].splitlines()
    assert lines[0] == "Best plays for your rack (move, score, tiles kept, equity):"
    shown = [line.split() for line in lines[2:5]]
    assert [" ".join(row[:2]) for row in shown] == [game.format(option.move) for option in best]
    assert shown[0][:2] != ["D8", "ZiRAM"] and shown[0][3] == "O?" and shown[0][4] == f"{best[0].equity:.1f}"


def test_pattern_without_a_pattern_says_how_to_give_one(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """'pattern' alone answered "'' is not a pattern of english letters ...", where 'check' and
    'hooks' alone say what to type."""
    status, out = play(["-p", "Ann", "-p", "computer:easy", "--first-player", "fixed", "--seed", "3", "--no-save"],
                       ["pattern", "pattern  ", "quit"], monkeypatch, capsys)
    assert status == 0
    assert out.count("Say which pattern, e.g. 'pattern Q?I*' (? one letter, * any letters).") == 2
    assert "'' is not a pattern" not in out


def test_a_folder_made_for_a_file_the_player_names_is_said_to_be_made(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    """'gcg FILE' (and 'save FILE', --save FILE) made the missing folders of FILE without a word:
    a slip of the keyboard ('gcg ~/Documnets/game.gcg') made a folder nobody saw. They are still
    made, as saves always made them, and said to be; qiza's own folder of games is made quietly."""
    record = tmp_path / "new" / "sub" / "game.gcg"
    saved = tmp_path / "other" / "game.json"
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"],
                       [f"gcg {record}", f"gcg {record}", f"save {saved}", "gcg", "quit"], monkeypatch, capsys)
    squeezed = "".join(out.split())  # a long path may be wrapped anywhere on the screen
    assert status == 0 and record.is_file() and saved.is_file()
    made = "".join(f"Made the folder {record.parent} (it did not exist). GCG written to {record}".split())
    assert squeezed.count(made) == 1 and squeezed.count(f"GCGwrittento{record}") == 2
    assert "".join(f"Made the folder {saved.parent} (it did not exist). Saved to {saved}".split()) in squeezed
    assert squeezed.count("Madethefolder") == 2  # not for the games folder of 'gcg' alone
    later = tmp_path / "later" / "game.json"
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(later)], ["quit"], monkeypatch, capsys)
    assert status == 0 and later.is_file()
    assert "".join(f"Made the folder {later.parent} (it did not exist).".split()) in "".join(out.split())


def test_the_score_sheet_shows_blank_digraphs_and_names_as_typed() -> None:
    """The score sheet's cells were read as Rich markup: a Spanish blank standing for CH, written
    '[ch]', is a markup tag, so 'B8 [ch]O[RR]EADA' showed as 'B8 O[RR]EADA' (a move that was not
    played), in the sheet, the end summary's biggest plays and the rules table; a player named
    '[/x]' stopped the game with a MarkupError."""
    from rich.console import Console

    from qiza.alphabet import find_tile_set
    from qiza.lexicon import Lexicon
    from qiza.tui import render

    rules = find_preset("classic").with_options(first_player="fixed", challenge="void", tile_set=find_tile_set("spanish"))
    game = Game(rules, players=["[/x]", "[bold]Bob"], lexicon=Lexicon("[es]", ["CHORREADA", "OLA"]), seed=1)
    game.set_rack(0, "AEA?O[RR]D")
    game.play("B8 chORREADA")
    game.play("pass")
    game.resign(0)
    for item in (render.score_sheet(game, show_racks=True, wide=True), render.end_summary(game, wide=True)):
        console = Console(width=120, file=io.StringIO(), no_color=True, color_system=None)
        console.print(item)
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert "B8 [ch]O[RR]EADA" in text and "[/x]" in text and "[bold]Bob" in text


def test_a_game_saved_while_another_resumes_it_is_resumed_as_saved(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza play --resume FILE' read the file, then (after loading the lexicon and the computer
    players: seconds in Polish) took its lock. A first 'qiza play' on the file that saved a turn
    and quit in between left the second one playing the game without that turn: it showed the
    older position, and its first save was refused (the file had changed), so every turn played
    there went unsaved. The file is now read again when it changed before the lock was taken."""
    from qiza.tui import app, savelock

    path = tmp_path / "game.json"
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX,
                seed=3)
    savefile.save(game, path)
    game.play("pass")  # the other terminal's turn, saved as it quits

    @contextlib.contextmanager
    def the_other_quits_first(held: Path | None, **kwargs: Any) -> Iterator[Path | None]:
        savefile.save(game, path)
        with savelock.hold(held, **kwargs) as taken:
            yield taken

    monkeypatch.setattr(app, "hold", the_other_quits_first)
    status, out = play(["--resume", str(path)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and "Could not save" not in out and "Traceback" not in out
    assert json.loads(path.read_text())["actions"] == [[0, "pass"], [1, "pass"]]
    assert said("(1 action so far)", out) and not said("(0 actions so far)", out)  # told once, of the game played


def test_one_saved_game_under_two_names_is_played_once(tmp_path: Path) -> None:
    """The save lock was taken by the name the game was resumed by: 'qiza play --resume
    link.json' (a symbolic link to game.json) and 'qiza play --resume game.json' played the one
    game at once, each saving its own turns. The lock is the file's, whatever its name."""
    from qiza.errors import QizaError
    from qiza.tui import savelock

    real = tmp_path / "game.json"
    real.write_text("{}")
    link = tmp_path / "sub" / "link.json"
    link.parent.mkdir()
    link.symlink_to(real)
    with savelock.hold(link) as held:
        assert held == link
        with pytest.raises(QizaError, match="is being played in another qiza play"):
            with savelock.hold(real):
                pass
    with savelock.hold(real), pytest.raises(QizaError, match="is being played in another qiza play"):
        with savelock.hold(link):
            pass



def test_a_long_game_keeps_few_save_files_open(tmp_path: Path) -> None:
    """Each save makes a new file, which the game locks (so that a hard link made to it is
    refused): the files of earlier saves, replaced and no longer named, were kept open and
    locked to the game's end, a descriptor a turn (300 turns held 301; on macOS 256 is the
    default limit, and every save would then fail). Only files with a name stay locked."""
    fcntl = pytest.importorskip("fcntl")
    from qiza.tui import savelock

    path = tmp_path / "game.json"
    game = Game(find_preset("classic"), players=["Ann", "Bob"], lexicon=LEX, seed=3)
    savefile.save(game, path)
    with savelock.hold(path):
        for _ in range(60):
            savefile.save(game, path, keep_previous=True)
            savelock.follow(path)
        held = savelock._HELD[Path(os.path.realpath(path))]
        assert 1 <= len(held) <= 2  # the save and its NAME.bak
        fd = os.open(path, os.O_RDONLY)  # the file as the last save left it is still locked
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)

@pytest.mark.parametrize(("width", "height"), [(80, 24), (100, 30), (200, 50)])
def test_the_super_boards_key_names_its_quadruple_squares(width: int, height: int) -> None:
    """The key beside the board named the triple and double squares only: on the Super board the
    quadruple word and letter squares ('#' and '^' on the compact board, '4W' and '4L' on the
    wider ones) were explained nowhere. The classic board's key is as it was."""
    game = new_game("super")
    text = _screen_text(game, width, height)
    compact = " #4W  =3W  -2W" in text and " ^4L  \"3L  '2L  abc=blank" in text
    assert compact or ("4W 3W 2W word x4 x3 x2" in text and "4L 3L 2L letter x4 x3 x2  " in text)
    assert "=blank" in text and len(text.splitlines()) <= height
    classic = _screen_text(new_game(), width, height)
    assert "4W" not in classic and "#" not in classic and "x4" not in classic
    assert " =3W  -2W  \"3L  '2L  abc=blank" in classic or "3L 2L letter x3 x2   abc=blank" in classic


def test_save_to_a_file_another_game_is_playing_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'save FILE' replaced a copy of the same game even while another 'qiza play' was playing
    it: a copy resumed with --save, then 'save game.json', wrote the copy's older turns over the
    file the first terminal held and saved to (its next saves were refused, the file having
    changed). A file another qiza play holds is refused, naming it; the game's own file and a
    file nobody plays are saved as before."""
    from qiza.tui import savelock

    path, copy = tmp_path / "game.json", tmp_path / "copy.json"
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX,
                seed=3)
    savefile.save(game, path)
    with savelock.hold(path):  # the first terminal plays on, and has saved a turn
        game.play("pass")
        savefile.save(game, path)
        kept = path.read_bytes()
        status, out = play(["--resume", str(path), "--save", str(copy)], ["pass", f"save {path}", "quit"],
                           monkeypatch, capsys)
        assert status == 0 and "Traceback" not in out
        assert said(f"{path} is being played in another qiza play", out)
        assert path.read_bytes() == kept
    assert json.loads(copy.read_text())["actions"] == [[0, "pass"], [1, "pass"]]
    (tmp_path / "link.json").symlink_to(copy)
    status, out = play(["--resume", str(copy)], ["pass", f"save {tmp_path / 'link.json'}", f"save {path}", "quit"],
                       monkeypatch, capsys)
    assert status == 0 and said(f"Saved to {copy}", out) and "Could not" not in out  # its own file, by another name
    assert said(f"Saved to {path}", out)  # nobody plays it now: a copy
    assert json.loads(path.read_text())["actions"] == [[0, "pass"], [1, "pass"], [0, "pass"]]


def test_save_to_the_games_former_file_after_its_saves_moved_is_saved(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Once 'save FILE' moved the game's saves to another file (its own could not be written),
    'save <its former file>' said that file "is being played in another qiza play": the lock was
    this game's own, still held. It is this game's file, which no other qiza play can be playing:
    it is saved (the save it replaces kept as the previous one, NAME.bak), and the game's saves go
    on in the new file."""
    from qiza.tui import savelock

    path, elsewhere = tmp_path / "game.json", tmp_path / "elsewhere.json"
    Disk(["pass", "<full>", "pass", "<freed>", f"save {elsewhere}", "pass", f"save {path}", "pass", "quit"],
         monkeypatch)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert status == 0 and "Traceback" not in text
    assert not said("is being played in another qiza play", text)
    assert said(f"Saved to {path}", text) and said(f"Saved to {elsewhere}", text)
    assert len(json.loads(path.read_text())["actions"]) == 3
    assert len(json.loads((tmp_path / "game.json.bak").read_text())["actions"]) == 1  # what it held before
    assert len(json.loads(elsewhere.read_text())["actions"]) == 4  # the saves go on there
    assert not savelock.lock_path(path).exists() and not savelock.lock_path(elsewhere).exists()  # all let go


def test_the_file_saves_moved_to_is_locked_for_the_rest_of_the_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """After 'save FILE' moved the game's saves to FILE (its own file could not be written), FILE
    was locked only while each save was written, and the game held the lock of its first file
    instead: a second 'qiza play --resume FILE' was let in while the first game played it, and
    only the "changed by another program" check caught the clash later. The game holds FILE's
    lock from the moment its saves move there to its end, and lets go of its former file's,
    where it no longer saves; a game saved nowhere (--no-save) holds the lock of the file 'save
    FILE' starts saving to. (Another process, and a hard link: the test after this one.)"""
    from qiza.errors import QizaError
    from qiza.tui import savelock

    path, elsewhere = tmp_path / "game.json", tmp_path / "elsewhere.json"
    checked: list[str] = []

    def refused(target: Path) -> Callable[[], None]:
        def check() -> None:  # another terminal's 'qiza play --resume TARGET', while this game plays on
            with pytest.raises(QizaError, match="is being played in another qiza play"):
                with savelock.hold(target):
                    pass
            checked.append(target.name)
        return check

    def former_free() -> None:  # the former file is no longer this game's: another may resume it
        with savelock.hold(path):
            pass
        checked.append("former free")

    Disk(["pass", "<full>", "pass", "<freed>", f"save {elsewhere}", refused(elsewhere), former_free, "pass",
          refused(elsewhere), "quit"], monkeypatch)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--save", str(path)])
    out = capsys.readouterr()
    assert status == 0 and "Traceback" not in out.out + out.err
    assert checked == ["elsewhere.json", "former free", "elsewhere.json"]
    assert len(json.loads(elsewhere.read_text())["actions"]) == 3
    assert not savelock.lock_path(elsewhere).exists() and not savelock._HELD  # let go at the end
    with savelock.hold(elsewhere):
        pass

    checked.clear()
    fresh = tmp_path / "fresh.json"
    Disk(["pass", f"save {fresh}", refused(fresh), "pass", refused(fresh), "quit"], monkeypatch)
    status = main(["play", "--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save"])
    out = capsys.readouterr()
    assert status == 0 and "Traceback" not in out.out + out.err
    assert checked == ["fresh.json", "fresh.json"] and len(json.loads(fresh.read_text())["actions"]) == 2


@contextlib.contextmanager
def _saves_moved(path: Path, elsewhere: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A game saved to ``path`` played in a process of its own (:func:`_other_qiza_play`), whose
    saves 'save ELSEWHERE' moved there after another program wrote ``path`` (a pass), the game
    having passed too."""
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX,
                seed=3)
    savefile.save(game, path)
    with _other_qiza_play("--resume", str(path)) as first:
        assert first.stdin is not None
        _read_until(first, b"Resuming")
        game.play("pass")  # another program writes the file: the first game's next save is refused
        savefile.save(game, path)
        first.stdin.write(f"pass\nsave {elsewhere}\n".encode())
        first.stdin.flush()
        _read_until(first, b"Saved to")
        yield first


def test_another_qiza_play_on_the_file_saves_moved_to_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """As the test before, with the first game in a process of its own, its saves moved by 'save
    FILE' after its file was changed by another program: 'qiza play --resume FILE' is refused
    naming the process, and so is one on a hard link to FILE (the file itself is locked, as the
    game's first file is); the former file, where the game no longer saves, can be resumed."""
    path, elsewhere, link = tmp_path / "game.json", tmp_path / "elsewhere.json", tmp_path / "link.json"
    with _saves_moved(path, elsewhere) as first:
        assert first.stdin is not None
        status, out = play(["--resume", str(elsewhere)], ["pass", "quit"], monkeypatch, capsys)
        assert status == 1 and said(f"{elsewhere} is being played in another qiza play (process {first.pid})", out)
        os.link(elsewhere, link)
        status, out = play(["--resume", str(link)], ["pass", "quit"], monkeypatch, capsys)
        assert status == 1 and said("by another name of the same file (a hard link)", out), out
        status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)
        assert status == 0 and "Resuming" in out  # the former file is free
        rest, _ = first.communicate(b"pass\nquit\n", timeout=300)
        assert first.returncode == 0, rest
    assert json.loads(elsewhere.read_text())["actions"] == [[0, "pass"], [1, "pass"]]
    assert json.loads(path.read_text())["actions"] == [[0, "pass"]]  # as the other program left it
    assert not (tmp_path / ".elsewhere.json.lock").exists()


def test_save_to_the_former_file_never_overwrites_turns_another_qiza_play_saved_there(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Once 'save FILE' moved a game's saves, its former file's lock was let go: another 'qiza play
    --resume' played it and saved turns there, and 'save <the former file>' in the first game then
    wrote its own turns over them (NAME.bak kept one save, of the other's). A copy of the game that
    holds turns this game lacks, written since this game last wrote or read that file, is kept,
    naming the file and what to do; one this game wrote last, or that holds no turn it lacks, is
    saved as before."""
    path, elsewhere = tmp_path / "game.json", tmp_path / "elsewhere.json"
    with _saves_moved(path, elsewhere) as first:
        assert first.stdin is not None
        status, out = play(["--resume", str(path)], ["pass", "pass", "quit"], monkeypatch, capsys)
        assert status == 0 and "Resuming" in out  # the former file is free: a second game plays on there
        theirs = path.read_bytes()
        assert len(json.loads(theirs)["actions"]) == 3
        first.stdin.write(f"pass\nsave {path}\n".encode())
        first.stdin.flush()
        shown = _read_until(first, b"choose another").decode()
        assert said(f"{path} holds this game as another qiza play saved it", shown), shown
        assert path.read_bytes() == theirs  # the other game's turns are kept
        first.stdin.write(f"save {tmp_path / 'mine.json'}\nsave {tmp_path / 'mine.json'}\n".encode())
        first.stdin.flush()
        rest, _ = first.communicate(b"pass\nquit\n", timeout=300)
        assert first.returncode == 0, rest
        assert rest.decode().count("Saved to") == 2, rest  # a copy this game wrote last is saved again
    assert path.read_bytes() == theirs
    assert len(json.loads(elsewhere.read_text())["actions"]) == 3


def test_resume_with_save_to_a_copy_holding_later_turns_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza play --resume OLD --save NEW', NEW a copy of the same game played further (by another
    qiza play), wrote OLD's game over NEW's later turns at the first save. It is refused, naming NEW."""
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX,
                seed=3)
    game.play("pass")
    savefile.save(game, old)
    game.play("pass")
    game.play("pass")
    savefile.save(game, new)
    kept = new.read_bytes()
    status, out = play(["--resume", str(old), "--save", str(new)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 2 and said(f"--save: {new} holds this game as another qiza play saved it", out), out
    assert new.read_bytes() == kept
    status, out = play(["--resume", str(new), "--save", str(old)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 0 and len(json.loads(old.read_text())["actions"]) == 4  # no turn of OLD's lost


def test_help_on_moves_says_how_tiles_of_several_letters_are_typed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'help move' in a Spanish game said nothing of the CH, LL and RR tiles: nowhere did the game
    tell a new player that CH typed is the CH tile, that a blank standing for it is typed 'ch',
    or that C and H, two tiles, are typed [C]H. An English game's help is as it was."""
    from language_words import SPANISH_WORDS, use_word_lists

    use_word_lists(tmp_path, {"spanish": SPANISH_WORDS}, monkeypatch)
    status, out = play(["--lexicon", "spanish-debian", "-p", "Ann", "-p", "Bob", "--no-save"], ["help move", "quit"],
                       monkeypatch, capsys)
    out = " ".join(out.split())
    assert status == 0
    assert ("Tiles of several letters (CH, LL, RR) are typed as they are written (CH), a blank standing for one "
            "in lower case (ch); one-letter tiles that would read as one go in brackets ([C]H: C, then H).") in out
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save"], ["help move", "quit"], monkeypatch, capsys)
    assert status == 0 and "several letters" not in out


def test_help_on_moves_in_catalan_says_how_l_dot_l_is_typed_without_a_middle_dot(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'help move' in a Catalan game said L·L is typed as written, with a middle dot that most
    keyboards lack, and not the ASCII [L.L] the game reads."""
    from language_words import use_word_lists

    use_word_lists(tmp_path, {"catalan": ["col·legi", "any", "plaça"]}, monkeypatch)
    status, out = play(["--lexicon", "catalan-debian", "-p", "Ann", "-p", "Bob", "--no-save"], ["help move", "quit"],
                       monkeypatch, capsys)
    out = " ".join(out.split())
    assert status == 0 and "Tiles of several letters (L·L, NY, QU)" in out
    assert "L·L without its middle dot: [L.L] (a blank: [l.l])" in out


def test_help_on_a_square_is_help_on_moves(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The list of commands shows moves as 'H8 WORD': 'help H8' said "No command 'H8'"."""
    for asked in ("H8", "8h", "h8 word"):
        status, out = play(["-p", "Ann", "-p", "Bob", "--no-save"], [f"help {asked}", "quit"], monkeypatch, capsys)
        assert status == 0 and "No command" not in out and "Place tiles: the first square, then the word" in out
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save"], ["help H8X", "quit"], monkeypatch, capsys)
    assert "No command 'H8X'" in out


def test_a_long_word_list_is_announced_before_a_game_reads_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza play --lexicon polish-debian' the first time read Debian's Polish list (60 MB) and
    prepared its word graph, 15-45 s, on a blank screen ('qiza words', 'best' and 'analyze'
    said first that it takes a while); resuming such a game did the same. Both say so now."""
    from language_words import POLISH_WORDS, use_word_lists

    from qiza import languages

    use_word_lists(tmp_path, {"polish": POLISH_WORDS}, monkeypatch)
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path / "cache"))  # the list never read before
    monkeypatch.delenv("QIZA_NO_CACHE", raising=False)
    monkeypatch.setattr(languages, "SLOW_LIST_BYTES", 1)
    path = tmp_path / "game.json"
    status, out = play(["--lexicon", "polish-debian", "-p", "Ann", "-p", "Bob", "--save", str(path)], ["quit"],
                       monkeypatch, capsys)
    assert status == 0 and f"Reading {tmp_path / 'polish'}" in out and "takes a while" in out
    for kept in (tmp_path / "cache").glob("lexicon-*"):
        kept.unlink()
    monkeypatch.setattr("qiza.lexicon._loaded", {})
    status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 0 and f"Reading {tmp_path / 'polish'}" in out and "takes a while" in out
    status, out = play(["--resume", str(path)], ["quit"], monkeypatch, capsys)  # loaded: nothing to wait for
    assert status == 0 and "takes a while" not in out


def _another_game_saved_first(target: Path, text: str) -> Callable[..., contextlib.AbstractContextManager[Path | None]]:
    """The save lock, with another game (``text``) saved to ``target`` just before its lock is
    taken (by another terminal), when ``target`` does not exist yet."""
    from qiza.tui import savelock

    @contextlib.contextmanager
    def hold(held: Path | None, **kwargs: Any) -> Iterator[Path | None]:
        if held == target and not target.exists():
            target.write_text(text)
        with savelock.hold(held, **kwargs) as taken:
            yield taken

    return hold


def test_save_to_a_file_another_game_saved_meanwhile_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'save FILE' checked that FILE was no other game before it took FILE's lock: another
    terminal's 'save FILE' of another game in between was written over (its game gone from
    the file). The check is made again once the lock is held."""
    from qiza.tui import session

    target = tmp_path / "shared.json"
    other = savefile.dumps(Game(find_preset("classic"), players=["Cy", "Di"], lexicon=LEX, seed=99))
    monkeypatch.setattr(session, "hold", _another_game_saved_first(target, other))
    status, out = play(["-p", "Ann", "-p", "Bob", "--no-save"], ["pass", f"save {target}", "quit"], monkeypatch, capsys)
    assert status == 0 and "Traceback" not in out
    assert said(f"{target} already exists and is another saved game: it is kept", out)
    assert target.read_text() == other


def test_resume_into_a_file_another_game_saved_meanwhile_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza play --resume A --save B' checked that B was no other game before it took B's lock:
    another game saved to B in between was written over by the first turn. The check is made
    again once the lock is held."""
    from qiza.tui import app

    path, target = tmp_path / "game.json", tmp_path / "copy.json"
    savefile.save(Game(find_preset("classic"), players=["Ann", "Bob"], lexicon=LEX, seed=3), path)
    other = savefile.dumps(Game(find_preset("classic"), players=["Cy", "Di"], lexicon=LEX, seed=99))
    monkeypatch.setattr(app, "hold", _another_game_saved_first(target, other))
    status, out = play(["--resume", str(path), "--save", str(target)], ["pass", "quit"], monkeypatch, capsys)
    assert status == 2 and "Traceback" not in out
    assert said(f"--save: {target} already exists and is another saved game: it is kept", out)
    assert target.read_text() == other


@pytest.mark.parametrize(("rule", "says"), [
    ("auto", "every play is checked against the dictionary when it is made"),
    ("double", "if all are good, you lose your turn (double challenge rule)."),
    ("single", "if all are good, it costs you nothing (single challenge rule)."),
    ("five-point", "if all are good, its player scores 5 points more (five-point challenge rule)."),
])
def test_help_on_challenge_says_the_rule_in_force(rule: str, says: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """'help challenge' ended "(double: you lose your turn)" in every game, also under the auto
    rule, where 'challenge' answers that plays are checked at once."""
    status, out = play(["--seed", "3", "-p", "Ann", "-p", "Bob", "--no-save", "--challenge", rule],
                       ["help challenge", "help", "quit"], monkeypatch, capsys)
    assert status == 0 and said(says, out)
    assert rule == "double" or not said("you lose your turn", out)
    listed = out[out.index("Commands"):]
    if rule == "auto":  # 'help' names it off, as it names every command the game refuses
        assert not said("Challenge the previous play:", listed) and not said("Nothing to challenge", listed)
        assert said("Off in this game: hint, check, anagrams, hooks, twos, pattern, undo, challenge", listed)
        assert said("the auto challenge rule checks every play when it is made", listed)
    else:
        assert said("Challenge the previous play:", listed)


def test_anagrams_in_the_game_show_what_the_blanks_stand_for(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """'anagrams RETAIN?' listed RETAINS, TRAINEE...: which letter the blank stands for was not
    shown. It is in lower case, as Quackle and Zyzzyva show it."""
    status, out = play(["-p", "Ann", "-p", "Bob", "--seed", "5", "--word-tools", "--no-save"],
                       ["anagrams RETAIN?", "quit"], monkeypatch, capsys)
    assert status == 0 and "Anagrams of RETAIN?" in out
    assert "RETAINs" in out.split() and "TRAINEe" in out.split() and "RETAINS" not in out.split()


def test_the_panel_beside_the_board_uses_the_free_rows_below_it() -> None:
    """At 100x30 the panel was cut at the board's 17 rows: in a game of three after a player
    resigned, the line naming the rack and the hint to type a move were dropped, with 13 rows
    free under the board. The panel now takes the rows it needs, leaving the prompt and a message
    their rows; with room to spare it is as it was."""
    from rich.console import Console

    from qiza.tui import render

    game = Game(find_preset("classic"), players=["Ann", "Bob", "Cy"], lexicon=LEX, seed=5)
    game.play("pass")
    game.resign(game.to_move)
    game.play("pass")
    viewer = game.to_move
    seats = [render.SeatInfo(name, "person") for name in game.players]
    notes = [("Type a move (e.g. H8 WORD) or 'help'.", "Type a move or 'help'.")]

    def shown(width: int, height: int) -> list[str]:
        console = Console(width=width, height=height, file=io.StringIO(), no_color=True, color_system=None)
        console.print(render.screen(game, seats, viewer, width=width, height=height, notes=notes))
        return console.file.getvalue().splitlines()  # type: ignore[attr-defined]

    lines = shown(100, 30)
    text = "\n".join(lines)
    assert f"{game.players[viewer]}'s rack:" in text and "Type a move (e.g. H8 WORD) or 'help'." in text, text
    assert "Earlier turns:" in text and len(lines) <= 30 - 3, text
    short = shown(100, 19)  # no free rows: the panel keeps to the board's height, as before
    assert len(short) == 17 and "Type a move" not in "\n".join(short)


@pytest.mark.parametrize("args, off, listed", [
    (["-p", "Ann", "-p", "Bob"], "hint, check, anagrams, hooks, twos, pattern, undo", ()),
    (["-p", "Ann", "-p", "Bob", "--hints", "--word-tools"], "undo", ("hint [N]", "check WORD...", "twos")),
    (["-p", "Ann", "-p", "computer:easy", "--no-word-tools"], "check, anagrams, hooks, twos, pattern",
     ("hint [N]", "undo")),
])
def test_help_lists_what_this_game_allows_and_names_the_rest_as_off(
        args: list[str], off: str, listed: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """'help' in a default hot-seat game listed hint, undo and the word tools, which the game then
    refused. The list holds what this game allows; the others are named on one line as off."""
    status, out = play(["--seed", "3", "--no-save", *args], ["help", "quit"], monkeypatch, capsys)
    assert status == 0
    table = out[out.index("Commands"):out.index("Off in this game:")]
    rows = {line.split()[0] for line in table.splitlines()[1:] if line.strip() and not line.startswith(" ")}
    for name in off.split(", "):
        assert name not in rows, (name, table)
    for usage in listed:
        assert usage in table
    assert said(f"Off in this game: {off}", out)
