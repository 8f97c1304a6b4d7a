"""Computer players in other languages and on the Super board: whole games, leave values,
the tile set a language's lexicon brings, and a game in the terminal front end per language.

The word lists are small and made here (see ``language_words``), so that games are quick; the
terminal test points the Debian word-list folder at them.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from language_words import ENGLISH_WORDS, FRENCH_WORDS, POLISH_WORDS, SPANISH_WORDS, use_word_lists

from qiza.alphabet import ENGLISH, FRENCH, POLISH, SPANISH, SUPER, TILE_SETS, TileSet
from qiza.cli import main
from qiza.errors import RuleError
from qiza.game import Game, Kind
from qiza.languages import rules_for_lexicon
from qiza.lexicon import Lexicon, LoadReport
from qiza.move import Place
from qiza.players import make_player
from qiza.players.leaves import LeaveModel, default_model, model_for_tile_set, vowel_codes
from qiza.rules import CLASSIC, PRESETS, SUPER_BOARD, Rules

LISTS = {"french": FRENCH_WORDS, "polish": POLISH_WORDS, "spanish": SPANISH_WORDS}


def _lexicon(words: list[str], tile_set: TileSet) -> Lexicon:
    return Lexicon(f"TEST-{tile_set.name}", frozenset(words), LoadReport(), tile_set=tile_set)


@pytest.mark.parametrize("name", sorted(TILE_SETS))
def test_tile_text_reads_back_to_the_same_tiles(name: str) -> None:
    tile_set = TILE_SETS[name]
    rng = random.Random(name)
    kinds = [0, *range(1, tile_set.size + 1), *(c | 0x40 for c in range(1, tile_set.size + 1))]
    for _ in range(500):
        tiles = [rng.choice(kinds) for _ in range(rng.randrange(9))]
        assert tile_set.codes(tile_set.text(tiles)) == tiles, tile_set.text(tiles)
        natural = [t & 63 for t in tiles if t]
        word = tile_set.plain_text(natural)
        if tile_set.codes(word) == natural:  # (a word's tiles are those of its reading)
            assert tile_set.code_string(word) == "".join(chr(64 + t) for t in natural)
    if name == "spanish":
        r, rr = SPANISH.code("R"), SPANISH.code("RR")
        assert SPANISH.text([r, r]) == "[R]R" and SPANISH.text([rr]) == "[RR]" and SPANISH.text([r, rr]) == "R[RR]"


def test_a_language_lexicon_brings_its_tile_set() -> None:
    french = _lexicon(FRENCH_WORDS, FRENCH)
    assert rules_for_lexicon(CLASSIC, french).tile_set == FRENCH
    english = _lexicon(ENGLISH_WORDS, ENGLISH)
    assert rules_for_lexicon(CLASSIC, english) is CLASSIC
    assert rules_for_lexicon(SUPER_BOARD, english) is SUPER_BOARD  # the Super set: the same letters
    assert rules_for_lexicon(SUPER_BOARD, french) is SUPER_BOARD
    with pytest.raises(RuleError, match="spanish tile set"):
        rules_for_lexicon(SUPER_BOARD, _lexicon(SPANISH_WORDS, SPANISH))


def test_leave_models_per_tile_set() -> None:
    assert model_for_tile_set(ENGLISH) is default_model() and model_for_tile_set(SUPER) is default_model()
    assert vowel_codes(ENGLISH.letters) == (1, 5, 9, 15, 21)
    french = model_for_tile_set(FRENCH)
    assert french.kinds == 27 and french is not default_model()
    assert french.meta["source"] == "qiza train (self-play)"  # trained on French games
    # the feature model a set without trained leaves gets: the French W is worth 10, like the
    # English Q and Z: kept, it is valued as their mean
    feature = LeaveModel.from_tile_values(FRENCH.values, vowel_codes(FRENCH.letters), "french")
    w, e = FRENCH.code("W"), FRENCH.code("E")
    assert feature.tile_values[w] == pytest.approx((-7.0 + 2.0) / 2) and feature.tile_values[0] == 25.0
    assert feature.tile_values[e] > feature.tile_values[w]
    polish = model_for_tile_set(POLISH)
    assert polish.kinds == 33 and {POLISH.code(v) for v in ("A", "Ą", "E", "Ę", "O", "Ó", "Y")} <= set(polish.vowels)
    leaves = polish.rack_leaves(_counts(POLISH, "ŻŹAE"))
    assert len(leaves.values) == 16 and leaves.values[0] == 0.0


def _counts(tile_set: TileSet, text: str) -> list[int]:
    from qiza.analysis import rack_counts

    return list(rack_counts(text, tile_set))


def _whole_game(rules: Rules, lexicon: Lexicon, levels: tuple[str, str], seed: int) -> Game:
    """A computer-against-computer game; every placement is checked by the rules engine and the lexicon."""
    game = Game(rules, players=list(levels), lexicon=lexicon, seed=seed)
    players = [make_player(level, lexicon, seed=seed + i) for i, level in enumerate(levels)]
    while not game.over:
        if game.can_challenge:
            game.accept()
            continue
        move = players[game.to_move].choose(game.view(game.to_move))
        if isinstance(move, Place):
            assert not game.invalid_words(game.evaluate(move)), move
        game.play(move)
    return game


@pytest.mark.parametrize(("name", "levels", "seed"), [("french", ("medium", "hard"), 4),
                                                      ("polish", ("hard", "easy"), 5),
                                                      ("spanish", ("beginner", "hard"), 4)])
def test_computer_players_finish_a_game_in_a_language(name: str, levels: tuple[str, str], seed: int) -> None:
    # the lists are tiny (about 90 words): some deals stall after two plays, both players
    # exchanging until six scoreless turns end the game (Polish with seed 4, since the trained
    # Polish leaves); the seeds are deals that play out
    tile_set = TILE_SETS[name]
    lexicon = _lexicon(LISTS[name], tile_set)
    game = _whole_game(rules_for_lexicon(CLASSIC, lexicon), lexicon, levels, seed=seed)
    assert game.rules.tile_set == tile_set
    placed = [r for r in game.history if r.kind is Kind.PLACE]
    assert len(placed) >= 4 and sum(game.scores) > 0


def _small_bag(tile_set: TileSet, letters: str) -> TileSet:
    """The tile set's letters and values with two of each of seven ``letters`` and no blank: the
    two racks take every tile, so the first turn is already an endgame."""
    wanted = set(tile_set.codes(letters))
    counts = tuple(2 if code in wanted else 0 for code in range(1, tile_set.size + 1))
    return TileSet(f"{tile_set.name}-small", tile_set.letters, counts, tile_set.values, 0, "a test bag")


@pytest.mark.parametrize(("name", "letters"), [("polish", "AŻKOTŁI"), ("spanish", "[CH]OAS[LL]EI")])
def test_the_champion_solves_endgames_in_a_language(name: str, letters: str) -> None:
    tile_set = _small_bag(TILE_SETS[name], letters)
    lexicon = _lexicon(LISTS[name], tile_set)
    game = Game(CLASSIC.with_options(tile_set=tile_set, first_player="fixed"), players=2, lexicon=lexicon, seed=6)
    assert not game.bag and len(game.racks[0]) == len(game.racks[1]) == 7
    champions = [make_player("champion", lexicon, seed=s, time_limit=1.0, workers=1) for s in (1, 2)]
    solved = 0
    while not game.over:
        if game.can_challenge:
            game.accept()
            continue
        player = champions[game.to_move]
        move = player.choose(game.view(game.to_move))
        solved += "endgame" in player.last_report  # type: ignore[attr-defined]
        if isinstance(move, Place):
            assert not game.invalid_words(game.evaluate(move)), move
        game.play(move)
    assert solved >= 2 and any(r.kind is Kind.PLACE for r in game.history)


@pytest.mark.parametrize(("name", "letters"), [("polish", "AŻKOTŁI"), ("spanish", "[CH]OAS[LL]EI")])
def test_both_endgame_searches_agree_in_a_language(name: str, letters: str) -> None:
    """The search compiled from the root (Polish: the wide word graph) and the Python-driven
    one find the same exact value after a first placement, with four tiles each."""
    from qiza.analysis import board_array, generator, rack_counts
    from qiza.players.endgame import solve_position, solve_position_py

    tile_set = _small_bag(TILE_SETS[name], letters)
    lexicon = _lexicon(LISTS[name], tile_set)
    game = Game(CLASSIC.with_options(tile_set=tile_set, first_player="fixed"), players=2, lexicon=lexicon, seed=6)
    game.play(make_player("static", lexicon, seed=1).choose(game.view(game.to_move)))
    if game.can_challenge:
        game.accept()
    rules = game.rules
    gen = generator(lexicon, rules)
    me = rack_counts(game.racks[game.to_move], tile_set)
    opp = rack_counts(game.racks[1 - game.to_move], tile_set)
    for rack in (me, opp):
        while rack.sum() > 4:
            rack[int(np.flatnonzero(rack)[-1])] -= 1
    board = board_array(game.board)
    new = solve_position(gen, rules, board, me, opp, time_limit=60)
    old = solve_position_py(gen, rules, board, me, opp, time_limit=60)
    assert new.exact and old.exact and new.value == old.value


@pytest.mark.parametrize("name", ["polish", "spanish"])
def test_the_champion_simulates_in_a_language(name: str) -> None:
    tile_set = TILE_SETS[name]
    lexicon = _lexicon(LISTS[name], tile_set)
    game = Game(rules_for_lexicon(CLASSIC, lexicon), players=2, lexicon=lexicon, seed=3)
    champion = make_player("champion", lexicon, seed=1, time_limit=0.3, workers=1)
    simulated = 0
    for _ in range(6):
        move = champion.choose(game.view(game.to_move))
        simulated += champion.last_report.get("iterations", 0) > 0  # type: ignore[attr-defined]
        if isinstance(move, Place):
            assert not game.invalid_words(game.evaluate(move)), move
        game.play(move)
    assert simulated >= 2


def test_computer_players_finish_a_game_on_the_super_board() -> None:
    lexicon = _lexicon(ENGLISH_WORDS, ENGLISH)
    game = _whole_game(SUPER_BOARD, lexicon, ("medium", "hard"), seed=2)
    assert game.rules.layout.size == 21 and game.over
    assert any(r.kind is Kind.PLACE for r in game.history)


@pytest.fixture
def language_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Debian word-list folder holding the small lists (and no lexicon loaded before)."""
    use_word_lists(tmp_path, LISTS, monkeypatch)
    monkeypatch.setenv("QIZA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return tmp_path


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_game_or_position_given_no_lexicon_is_judged_in_its_tiles_language(name: str,
                                                                           language_lists: Path) -> None:
    """Game(find_preset("french")) and a CGP position in French tiles (ld french, or even lex
    french-debian) were judged by ENABLE, an English list, unless a lexicon was given."""
    from qiza import cgp

    lexicon = f"{name.upper()}-DEBIAN"
    assert Game(CLASSIC.with_options(tile_set=name), players=2, seed=1).lexicon.name == lexicon
    assert Game(SUPER_BOARD, players=3, seed=1).lexicon.name == "ENABLE" == Game(seed=1).lexicon.name
    empty = "/".join(["15"] * 15)
    for opcodes in (f"ld {name};", f"lex {name}-debian;", f"lex XYZ; ld {name};"):
        game = cgp.loads(f"{empty} AE/ 0/0 0 {opcodes}").to_game()
        assert (game.lexicon.name, game.rules.tile_set.name) == (lexicon, name), opcodes


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_game_against_the_computer_in_the_terminal(name: str, language_lists: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    gcg_file = language_lists / "game.gcg"
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n" * 60))
    status = main(["play", "--lexicon", f"{name}-debian", "--seed", "3", "--gcg", str(gcg_file)])
    out = capsys.readouterr().out
    assert status == 0 and "Game over" in out
    record = gcg_file.read_text(encoding="utf-8")
    assert f"#tile-distribution {name}" in record and f"#lexicon {name.upper()}-DEBIAN" in record
    assert ">Computer:" in record  # the computer placed tiles in that language's set


def test_a_game_against_the_computer_on_the_super_board_in_the_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(ENGLISH_WORDS) + "\n")
    monkeypatch.setenv("QIZA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n" * 80))
    gcg_file = tmp_path / "game.gcg"
    status = main(["play", "--rules", "super", "--lexicon", str(words), "--seed", "5", "--gcg", str(gcg_file)])
    out = capsys.readouterr().out
    assert status == 0 and "Game over" in out
    written = gcg_file.read_text()  # the names Macondo and Woogles read
    assert "#tile-distribution english_super\n" in written and "#board-layout SuperCrosswordGame\n" in written


def test_a_game_in_a_language_is_resumed(language_lists: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza play --lexicon french-debian', 'quit', then 'qiza play --resume' as the game says:
    'saved game is malformed: field lexicon: 'FRENCH-DEBIAN' is neither a built-in lexicon
    (enable, twl06, sowpods) nor a word list file'. No game in a language could be continued."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\nquit\n"))
    assert main(["play", "--lexicon", "spanish-debian", "-p", "Ann", "-p", "Bob", "--seed", "3", "--plain"]) == 0
    assert "qiza play --resume" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\nquit\n"))
    assert main(["play", "--resume", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "SPANISH-DEBIAN" in out and "passed" in out and "malformed" not in out


@pytest.mark.parametrize("opcodes", ["ld french;", "ld french; lex FRA20;"])
def test_best_judges_a_cgp_in_a_languages_tiles_by_that_languages_list(
        opcodes: str, language_lists: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A CGP in French tiles was judged by ENABLE (without lex) or by TWL06, called "the closest
    built-in list" to FRA20: English words on a French board. As for a GCG record, the tiles
    choose the language's list."""
    position = "/".join(["15"] * 15) + f" ENTRAIS/ 0/0 0 {opcodes}"
    assert main(["best", "-n", "3", "--engine", "maxscore", position]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Lexicon: FRENCH-DEBIAN (") and "its tiles are french" in out[0]
    assert "lexicon FRENCH-DEBIAN" in out[1]
    words = {line.split()[2] for line in out[4:]}
    assert words and words <= set(FRENCH_WORDS)


@pytest.mark.parametrize("name", ["catalan", "dutch", "german", "italian"])
def test_a_game_in_the_terminal_with_the_installed_list(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The languages without a small list here play from the Debian list itself (CI installs them)."""
    from qiza.languages import LANGUAGES

    language = LANGUAGES[f"{name}-debian"]
    if not language.path.is_file():
        pytest.skip(f"{language.path} is absent: apt-get install {language.package} (CI installs it)")
    monkeypatch.setenv("QIZA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n" * 60))
    gcg_file = tmp_path / "game.gcg"
    status = main(["play", "--lexicon", f"{name}-debian", "--seed", "3", "--gcg", str(gcg_file)])
    assert status == 0 and "Game over" in capsys.readouterr().out
    record = gcg_file.read_text(encoding="utf-8")
    assert f"#tile-distribution {name}" in record and f"#lexicon {name.upper()}-DEBIAN" in record
    assert ">Computer:" in record
    from qiza import gcg

    replay = gcg.replay(gcg.loads(record), lexicon=f"{name}-debian")
    assert replay.clean and replay.checked > 0, replay.differences  # every computer play checks out


def test_the_terminal_shows_unseen_multi_letter_tiles_by_kind() -> None:
    from qiza.tui import render

    spanish = TILE_SETS["spanish"]
    unseen = spanish.text(sorted(spanish.codes("[C][H][L][L][L][L][LL][R][R][RR]Ñ?")))
    assert unseen == "?[C]H[L]L[L]L[LL]Ñ[R]R[RR]"  # C, H, four L, LL, Ñ, two R, RR
    assert render.unseen_runs(unseen, spanish) == "? C H L×4 LL Ñ R×2 RR"
    assert render.unseen_runs("??AAB", ENGLISH) == "?? AA B"
    assert render.vowel_count("ĄAŻÓY", POLISH) == 4 and render.vowel_count("AEIOUY", ENGLISH) == 5
    game = Game(rules_for_lexicon(CLASSIC, _lexicon(SPANISH_WORDS, SPANISH)), players=2, seed=1,
                lexicon=_lexicon(SPANISH_WORDS, SPANISH))
    panel = render.side_panel(game, [render.SeatInfo("You", "person"), render.SeatInfo("Computer", "computer")], 0,
                              width=44, lines=40).plain
    assert f"Unseen ({SPANISH.total - 7})" in panel and "[" not in panel.split("Unseen")[1]


def _language_of(lexicon: str) -> str:
    from qiza.languages import LANGUAGES

    return LANGUAGES[lexicon].tile_set_name if lexicon in LANGUAGES else "english"


def test_every_preset_and_lexicon_of_other_languages_is_refused_naming_both() -> None:
    """``--rules french`` with ENABLE (the default) gave English words on French tiles without a
    word, and so did ``super`` with french-debian; a word list file stays allowed with any."""
    from qiza.languages import LANGUAGES, rules_for_tile_set, tile_set_language
    from qiza.lexicon import BUILTIN
    from qiza.rules import PRESETS

    refused = set()
    for preset, rules in PRESETS.items():
        for name in BUILTIN:
            wanted = LANGUAGES[name].tile_set if name in LANGUAGES else ENGLISH
            try:
                allowed = rules_for_tile_set(rules, wanted, name.upper(), other_language=True)
            except RuleError:
                continue  # spelt in letters the rules' set lacks: refused before too
            if tile_set_language(allowed.tile_set) == _language_of(name):
                assert rules_for_tile_set(rules, wanted, name.upper()) == allowed
                continue
            with pytest.raises(RuleError) as raised:
                rules_for_tile_set(rules, wanted, name.upper())
            message = str(raised.value)
            assert name.upper() in message and preset in message and allowed.tile_set.name in message
            refused.add((preset, name))
    assert {("french", "enable"), ("french", "sowpods"), ("super", "french-debian")} <= refused
    assert all(preset in ("french", "super") for preset, _ in refused)
    # a word list file: its language is unknown, allowed with any set of the same letters
    words = Lexicon("WORDS", frozenset(ENGLISH_WORDS), LoadReport())
    words.path = "/somewhere/enable"
    assert rules_for_lexicon(PRESETS["french"], words) is PRESETS["french"]
    english = Lexicon("ENABLE", frozenset(ENGLISH_WORDS), LoadReport())
    with pytest.raises(RuleError, match="the lexicon ENABLE is English and the french rules play with the French "
                                        r"tiles \(french tile set\): choose a French lexicon \(french-debian\)"):
        rules_for_lexicon(PRESETS["french"], english)
    assert rules_for_lexicon(PRESETS["french"], english, other_language=True) is PRESETS["french"]


def test_the_terminal_warns_of_a_lexicon_of_another_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QIZA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--rules", "french", "--lexicon", "enable", "-p", "Ann", "-p", "Bob", "--seed", "3",
                 "--plain"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the lines wrapped
    assert "Warning: the lexicon ENABLE is English and the french rules play with the French tiles" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--rules", "classic", "-p", "Ann", "-p", "Bob", "--seed", "3", "--plain"]) == 0
    assert "Warning" not in capsys.readouterr().out


def test_best_warns_of_a_lexicon_of_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    """``qiza best --lexicon enable`` of a position in French tiles judged it by English words
    without a word; it still does (the words asked for), saying so."""
    position = "/".join(["15"] * 15) + " ENTRAIS/ 0/0 0 ld french;"
    assert main(["best", "-n", "3", "--engine", "maxscore", "--lexicon", "enable", position]) == 0
    err = capsys.readouterr().err
    assert "warning: the lexicon ENABLE is English and the tiles French (french tile set)" in err, err
    assert main(["best", "-n", "3", "--engine", "maxscore", "--lexicon", "enable", position.replace(" ld french;", "")]) == 0
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(LISTS))
def test_the_terminal_plays_a_preset_with_its_languages_list_when_none_is_named(
        name: str, language_lists: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``qiza play --rules french`` (no --lexicon) played ENABLE's English words on the French
    tiles after a warning; it takes the French list, as the library's Game does."""
    if name not in PRESETS:
        pytest.skip(f"no preset named {name}")
    from qiza import savefile

    save = language_lists / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--rules", name, "-p", "Ann", "-p", "Bob", "--seed", "3", "--plain",
                 "--save", str(save)]) == 0
    assert "Warning" not in capsys.readouterr().out
    assert savefile.load(save).lexicon.name == f"{name.upper()}-DEBIAN"


def test_the_terminal_says_when_a_presets_language_list_is_not_installed(
        language_lists: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without the tiles' language's list the game is played with ENABLE, saying which package
    would give the list, and that the words are English."""
    from qiza import languages

    (language_lists / languages.LANGUAGES["french-debian"].dict_file).unlink()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--rules", "french", "-p", "Ann", "-p", "Bob", "--seed", "3", "--plain"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "which is not installed: apt-get install wfrench; playing with ENABLE's English words instead" in out
    assert "Warning: the lexicon ENABLE is English and the french rules play with the French tiles" in out


def test_a_letter_typed_in_upper_case_for_a_blank_says_how_the_blank_is_typed() -> None:
    """A German player typing ÄRGER with ?RGERNE (the blank as Ä) was told only 'Ä is not on the
    rack': nothing said that a blank standing for Ä is typed ä (Polish Ł, ł the same)."""
    from qiza.errors import IllegalMoveError

    for name, rack, typed, hint in (("german", "?RGERNE", "H8 ÄRGER", "ä"), ("polish", "?ÓDKAAA", "H8 ŁÓDKA", "ł"),
                                    ("english", "?IAAEEO", "H8 QI", "q")):
        tile_set = TILE_SETS[name]
        lexicon = Lexicon("TEST", frozenset({"ÄRGER", "ŁÓDKA", "QI"}), LoadReport(), tile_set=tile_set)
        game = Game(CLASSIC.with_options(first_player="fixed"), players=2, seed=1, lexicon=lexicon)
        game.set_rack(0, rack)
        with pytest.raises(IllegalMoveError, match=f"is not on the rack .*; a blank standing for it is typed {hint}"):
            game.play(typed)
        assert game.rack_text(0) == tile_set.text(tile_set.codes(rack)) and not game.history
    game.set_rack(0, "AEIOUAE")  # no blank on the rack: nothing said of blanks
    with pytest.raises(IllegalMoveError) as refused:
        game.play("H8 QI")
    assert "blank" not in str(refused.value)
