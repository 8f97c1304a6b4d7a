"""Every command that lists moves says in which notation they are written."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiza.cli import main

TOURNAMENT = "Moves in tournament notation (as in GCG files): 8H reads across, H8 reads down."
RECORD = ("#player1 ann Ann\n#player2 bob Bob\n"
          ">ann: DINNVWY 8D WINDY +32 32\n"
          ">bob: ADEEGIL 7C GALE +16 16\n")


@pytest.mark.parametrize("command", [["gcg", "show"], ["best", "--turn", "2", "-n", "2"], ["analyze"]])
def test_listing_states_the_notation(command: list[str], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.gcg"
    record.write_text(RECORD)
    args = [*command[:2], str(record), *command[2:]] if command[0] == "gcg" else [command[0], str(record),
                                                                                   *command[1:]]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert TOURNAMENT in out.splitlines()
    assert "8D WINDY" in out or "D8 (W)E" in out  # down from D8, through the W of WINDY
