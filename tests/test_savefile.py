"""Saved games: versioned JSON, round trips, newer versions refused, malformed files."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest
from conftest import GameFactory

from qiza import savefile
from qiza.errors import FileFormatError, quoted
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Direction, Place
from qiza.rules import CLASSIC, COMPUTER, find_preset


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon("enable")


@pytest.fixture()
def game(lexicon: Lexicon) -> Game:
    game = Game(COMPUTER.with_options(challenge="five-point"), players=["Ann", "Bob", "Cy"], seed=5,
                lexicon=lexicon)
    game.set_rack(0, "AEINRST")
    game.play("H8 RETINAS")
    game.challenge(1)  # a valid word: five points to Ann
    game.play("exchange " + game.rack_text()[:2])
    game.play("pass")
    game.penalize(2, 3)
    return game


def _same(a: Game, b: Game) -> None:
    assert a.board == b.board and a.racks == b.racks and a.bag == b.bag
    assert a.scores == b.scores and a.to_move == b.to_move and a.actions == b.actions
    assert [(r.kind, r.score, r.total) for r in a.history] == [(r.kind, r.score, r.total) for r in b.history]
    assert a.rules == b.rules and a.players == b.players and a.seed == b.seed


def test_round_trip(game: Game, lexicon: Lexicon, tmp_path: Path) -> None:
    _same(savefile.loads(savefile.dumps(game), lexicon=lexicon), game)
    path = tmp_path / "saves" / "game.json"
    savefile.save(game, path, extra={"computer": [2]})
    again = savefile.load(path, lexicon=lexicon)
    _same(again, game)
    assert json.loads(path.read_text())["extra"] == {"computer": [2]}
    assert not list(path.parent.glob("*.tmp"))


def test_resumed_game_plays_on(game: Game, lexicon: Lexicon) -> None:
    again = savefile.loads(savefile.dumps(game), lexicon=lexicon)
    assert again.rack_text() == game.rack_text()
    again.play("pass")
    game.play("pass")
    _same(again, game)


def test_newer_version_is_refused(game: Game, lexicon: Lexicon) -> None:
    data = savefile.to_dict(game)
    data["version"] = savefile.VERSION + 1
    with pytest.raises(FileFormatError, match="newer than this qiza understands"):
        savefile.from_dict(data, lexicon=lexicon)


@pytest.mark.parametrize("text,message", [
    ("", "not JSON"),
    ("{", "not JSON"),
    ("[1, 2]", "not a qiza saved game"),
    ('{"format": "other"}', "not a qiza saved game"),
    ('{"format": "qiza-game"}', "no format version"),
    ('{"format": "qiza-game", "version": "1"}', "no format version"),
    ('{"format": "qiza-game", "version": 1}', "malformed"),
    ('{"format": "qiza-game", "version": 1, "rules": {}, "players": ["A", "B"], "seed": "x", '
     '"actions": []}', "malformed"),
    ('{"format": "qiza-game", "version": 1, "rules": {"rack_size": 99}, "players": ["A", "B"], '
     '"seed": 1, "actions": []}', "malformed"),
    ('{"format": "qiza-game", "version": 1, "rules": {}, "players": ["A"], "seed": 1, "actions": []}',
     "settings"),
    ('{"format": "qiza-game", "version": 1, "rules": {}, "players": ["A", "B"], "seed": 1, '
     '"actions": [[0, "Z99 QQQ"]]}', "action 1"),
    ('{"format": "qiza-game", "version": 1, "rules": {}, "players": ["A", "B"], "seed": 1, '
     '"actions": [[0]]}', "malformed"),
    ('{"format": "qiza-game", "version": 1, "rules": {}, "players": ["A", "B"], "seed": 1, '
     '"actions": [[7, "pass"]]}', "action 1"),
    ('{"format": "qiza-game", "version": 1, "rules": {"challenge": 5}, "players": ["A", "B"], "seed": 1, '
     '"actions": [[0, "H8 QI"]]}', "saved game"),
    ('{"format": "qiza-game", "version": 1, "rules": {"tile_set": 5}, "players": ["A", "B"], "seed": 1, '
     '"actions": []}', "saved game"),
])
def test_malformed_files(text: str, message: str, lexicon: Lexicon) -> None:
    with pytest.raises(FileFormatError, match=message):
        savefile.loads(text, lexicon=lexicon)


def test_json_error_has_a_line_number(lexicon: Lexicon) -> None:
    with pytest.raises(FileFormatError) as info:
        savefile.loads('{\n"format": "qiza-game",\n"version": 1,,\n}', lexicon=lexicon)
    assert info.value.line == 3


def test_missing_and_unreadable_files(tmp_path: Path, lexicon: Lexicon) -> None:
    with pytest.raises(FileFormatError, match="cannot read"):
        savefile.load(tmp_path / "nothing.json", lexicon=lexicon)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FileFormatError):
        savefile.load(bad, lexicon=lexicon)


def test_save_replaces_only_a_regular_file(game: Game, tmp_path: Path) -> None:
    """``save`` is an atomic rename: over a device (``/dev/null`` as root) or a folder it would
    have put the saved game in its place; it refuses and leaves them as they are."""
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(OSError, match="not a regular file"):
        savefile.save(game, folder)
    assert folder.is_dir() and not list(tmp_path.glob(".folder.*"))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        savefile.save(game, fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    plain = tmp_path / "game.json"
    savefile.save(game, plain)
    savefile.save(game, plain)  # its own file is replaced
    assert savefile.load(plain, lexicon=game.lexicon).actions == game.actions


def test_save_reaches_the_disk_before_it_replaces_the_old_one(game: Game, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``save`` renamed a temporary file over the save without flushing it: after a power cut
    the new name could point at an empty or partly written file. Now the file is flushed
    before the rename, and the folder (the rename itself) after it."""
    path = tmp_path / "game.json"
    savefile.save(game, path)
    steps: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        steps.append(("fsync", "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"))
        real_fsync(fd)

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        steps.append(("replace", Path(target).name))
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    game.play("pass")
    savefile.save(game, path)
    assert steps == [("fsync", "file"), ("replace", "game.json"), ("fsync", "folder")]
    assert savefile.load(path, lexicon=game.lexicon).actions == game.actions


def test_the_previous_save_is_kept_for_a_damaged_one(game: Game, tmp_path: Path) -> None:
    """With ``keep_previous`` the save replaced stays beside the new one (``NAME.bak``): a save
    damaged later still leaves the game as of the turn before."""
    path = tmp_path / "game.json"
    savefile.save(game, path, keep_previous=True)
    assert not savefile.previous_path(path).exists()  # nothing replaced yet
    before = list(game.actions)
    game.play("pass")
    savefile.save(game, path, keep_previous=True)
    assert savefile.previous_path(path) == tmp_path / "game.json.bak"
    assert savefile.load(savefile.previous_path(path), lexicon=game.lexicon).actions == before
    path.write_text(path.read_text()[:100])  # damaged
    with pytest.raises(FileFormatError):
        savefile.load(path, lexicon=game.lexicon)
    assert savefile.load(savefile.previous_path(path), lexicon=game.lexicon).actions == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.bak"]  # no temporary files


def test_a_full_disk_leaves_both_saves_as_they_were(game: Game, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    savefile.save(game, path, keep_previous=True)
    game.play("pass")
    savefile.save(game, path, keep_previous=True)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    game.play("pass")
    with pytest.raises(OSError) as info:
        savefile.save(game, path, keep_previous=True)
    assert info.value.errno == errno.ENOSPC
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files


def test_an_unknown_lexicon_is_named_once(lexicon: Lexicon) -> None:
    data = savefile.to_dict(Game(find_preset("classic"), players=["Ann", "Bob"], lexicon=lexicon, seed=1))
    data["lexicon"] = "klingon"
    with pytest.raises(FileFormatError) as info:
        savefile.from_dict(data)
    assert str(info.value).count("saved game is malformed") == 1


def test_player_names_lose_their_control_characters(game: Game, lexicon: Lexicon) -> None:
    """A hand-edited (or received) saved game with an escape sequence in a player's name sent it
    to the terminal as it was: 'qiza play --resume' recoloured the panel and could retitle the
    window. Names are cleaned as they enter, as a typed name or a game record's names are."""
    data = savefile.to_dict(game)
    data["players"] = ["Ev\x1b[31mRED\x1b]0;pwned\x07", "Bob\nX", "\x1b"]
    again = savefile.from_dict(data, lexicon=lexicon)
    assert again.players == ["Ev[31mRED]0;pwned", "Bob X", "Player 3"]
    assert again.scores == game.scores


def test_a_rules_name_saved_before_it_was_checked_still_loads(game: Game, lexicon: Lexicon) -> None:
    """Rules refuse a name with a line break or control characters (the web API took any text); a
    game saved before, on a server's database or on disk, still loads, its name cleaned as a
    player's is, and plays on."""
    data = savefile.to_dict(game)
    for name, cleaned in (("x\n<script>", "x <script>"), ("\u202e\x1b", "custom"), ("y" * 200, "y" * 80)):
        data["rules"] = {**data["rules"], "name": name}
        again = savefile.from_dict(data, lexicon=lexicon)
        assert again.rules.name == cleaned
        assert again.scores == game.scores and again.rules.rack_size == game.rules.rack_size


def test_a_game_with_a_word_list_of_ones_own_saves_and_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with load_lexicon("words.txt") (as qiza play --lexicon words.txt makes) saved its
    lexicon as 'WORDS', which loading refused ('neither a built-in lexicon nor a word list file'):
    qiza play --resume could not go on with it. The save names the file, wherever it is loaded."""
    (tmp_path / "words.txt").write_text("QI\nQAT\nAT\nTA\nEAT\nTEA\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    lexicon = load_lexicon("words.txt")
    assert lexicon.name == "WORDS" and lexicon.path == str(tmp_path / "words.txt")
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=3)
    game.play("pass")
    savefile.save(game, tmp_path / "game.json")
    monkeypatch.chdir("/")
    again = savefile.load(tmp_path / "game.json")
    assert again.lexicon.words == lexicon.words and again.lexicon.name == "WORDS"
    assert again.actions == game.actions and again.racks == game.racks
    assert savefile.to_dict(Game(CLASSIC, lexicon=load_lexicon("enable"), seed=1))["lexicon"] == "ENABLE"


def test_a_save_through_a_symbolic_link_writes_the_file_it_names(game: Game, tmp_path: Path) -> None:
    """Saving to a symbolic link renamed the new save over the link itself: the link became a
    file of its own and the file it named stayed at the older turn (two copies of one game
    going their own ways; NAME.bak was a copy of the link). The file the link names is saved,
    its previous save kept beside it, and the link stays a link."""
    real = tmp_path / "games" / "game.json"
    savefile.save(game, real, keep_previous=True)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    before = list(game.actions)
    game.play("pass")
    savefile.save(game, link, keep_previous=True)
    assert link.is_symlink() and link.resolve() == real
    assert savefile.load(real, lexicon=game.lexicon).actions == game.actions
    assert savefile.previous_path(link) == savefile.previous_path(real)
    assert savefile.load(savefile.previous_path(link), lexicon=game.lexicon).actions == before
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["game.json", "game.json.bak", "games", "link.json"]


def test_a_save_keeps_the_permissions_of_the_file_it_replaces(game: Game, tmp_path: Path) -> None:
    """The new save was a temporary file (0600) renamed over the old one: a save shared with the
    group (0640) became private, whatever its owner had chosen. The file replaced keeps its bits."""
    path = tmp_path / "game.json"
    savefile.save(game, path, keep_previous=True)
    path.chmod(0o640)
    game.play("pass")
    savefile.save(game, path, keep_previous=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert savefile.load(path, lexicon=game.lexicon).actions == game.actions


def test_a_save_made_read_only_is_not_replaced(game: Game, tmp_path: Path) -> None:
    """``chmod a-w`` on a save was undone by the next save (a new file renamed over it, writable
    again, the position it kept lost). A read-only save is refused whoever saves (root too: the
    mode bits are checked, not an EACCES) and nothing is changed; other files are saved."""
    path = tmp_path / "game.json"
    savefile.save(game, path, keep_previous=True)
    game.play("pass")
    savefile.save(game, path, keep_previous=True)
    path.chmod(0o444)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    game.play("pass")
    with pytest.raises(OSError) as info:
        savefile.save(game, path, keep_previous=True)
    assert info.value.errno == errno.EACCES and info.value.strerror == savefile.READ_ONLY
    assert "read-only" in str(info.value) and str(path) in str(info.value)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files  # no .bak moved, no temporary file
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    savefile.save(game, tmp_path / "other.json")  # elsewhere it saves
    path.chmod(0o644)  # writable again: saved again
    savefile.save(game, path, keep_previous=True)
    assert savefile.load(path, lexicon=game.lexicon).actions == game.actions


def test_wrong_values_are_quoted_as_every_message_quotes_them(lexicon: Lexicon) -> None:
    """savefile had its own near twin of qiza.errors.quoted (cut at 37 characters with '...', and
    a list or an object named by its type alone): a long value is now said back as every other
    message says one, its first characters and its length, and a container by its repr."""
    data = savefile.to_dict(Game(find_preset("classic"), players=["Ann", "Bob"], lexicon=lexicon, seed=1))
    data["seed"] = "7" * 3000
    with pytest.raises(FileFormatError) as info:
        savefile.from_dict(data, lexicon=lexicon)
    assert f"field seed: {quoted('7' * 3000)} is not a whole number" in str(info.value)
    data["seed"] = 1
    data["actions"] = [[0, "pass"], {"seat": 0}]
    with pytest.raises(FileFormatError) as info:
        savefile.from_dict(data, lexicon=lexicon)
    assert "action 2: {'seat': 0} is not a [seat, action] pair" in str(info.value)
    assert not hasattr(savefile, "_show")


def test_a_game_saved_with_a_word_short_of_a_tile_still_loads(make_game: GameFactory, lexicon: Lexicon) -> None:
    """A typed word must now be the whole word formed ('8I (A)XIS', not '9I XIS'), but games saved
    before kept such words as typed, and a Place given by code still may be short: they replay."""
    game = make_game(racks={0: "QATEEEE", 1: "XIZSOSO"})
    game.play("H8 QAT")
    game.play(Place(8, 8, Direction.DOWN, "XIS"))
    assert game.actions[-1] == (1, "9I XIS") and game.history[-1].words == ("AXIS",)
    again = savefile.loads(savefile.dumps(game), lexicon=lexicon)
    assert again.scores == game.scores and again.board.rows_text() == game.board.rows_text()
