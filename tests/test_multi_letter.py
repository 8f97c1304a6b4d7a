"""Multi-letter tiles (Spanish CH, LL, RR; Catalan L·L) through notation, rules engine, board text and GCG."""

from __future__ import annotations

import io

import pytest

from qiza.alphabet import BLANK_FLAG, SPANISH, TileSetError, find_tile_set
from qiza.board import Board
from qiza.errors import IllegalMoveError, MoveSyntaxError
from qiza.game import Game
from qiza.lexicon import Lexicon, LoadReport
from qiza.move import Exchange, Place, cells, format_move, parse_move
from qiza.rules import CLASSIC, Notation


def _spanish_game() -> Game:
    lexicon = Lexicon("ES-TEST", frozenset({"CHICO", "CHICOS", "AÑO", "PERRO", "OCHO"}), LoadReport(),
                      tile_set=SPANISH)
    rules = CLASSIC.with_options(tile_set="spanish", first_player="fixed")
    return Game(rules, players=2, seed=1, lexicon=lexicon)


def test_a_spanish_word_is_typed_plain_or_in_brackets_and_scores_each_tile_once() -> None:
    for typed in ("H8 CHICO", "H8 [CH]ICO", "H8 across [CH]ICO"):
        game = _spanish_game()
        game.set_rack(0, "CHICOSA")
        record = game.play(typed)
        # CH 5 + I 1 + C 3 + O 1 = 10, doubled on the centre square; four tiles, four squares
        assert record.score == 20 and record.words == ("CHICO",) and len(record.squares) == 4
        assert record.notation == "H8 [CH]ICO"
        assert game.board.rows_text()[7] == ".......[CH]ICO...."
        assert Board.from_rows(game.board.rows_text(), game.rules.layout, SPANISH).cells == game.board.cells


def test_a_blank_as_a_multi_letter_tile() -> None:
    game = _spanish_game()
    game.set_rack(0, "?ICOSAE")
    record = game.play("H8 [ch]ICO")
    assert record.score == (0 + 1 + 3 + 1) * 2 and record.words == ("chICO",)  # lower case: the blank
    assert game.board[7 * 15 + 7] == SPANISH.code("CH") | BLANK_FLAG
    assert game.board.rows_text()[7].startswith(".......[ch]ICO")


def test_a_tile_not_on_the_rack_is_named() -> None:
    game = _spanish_game()
    game.set_rack(0, "CHIOSAE")  # C H, no CH tile and no second C
    before = game.board.cells.copy() if hasattr(game.board.cells, "copy") else list(game.board.cells)
    with pytest.raises(IllegalMoveError, match="not on the rack"):
        game.play("H8 [CH]ICO")
    assert list(game.board.cells) == list(before) and game.rack_text(0) == SPANISH.text(SPANISH.codes("CHIOSAE"))


def test_notation_reads_multi_letter_tiles_with_a_board() -> None:
    board = Board.from_rows(["." * 15] * 15, tile_set=SPANISH)
    move = parse_move("H8 PERRO", Notation.RULEBOOK, board)
    assert isinstance(move, Place) and move.word == "PE[RR]O" and move.cells() == ["P", "E", "[RR]", "O"]
    assert move.tile_count == 4 and move.tiles() == "PE[RR]O"
    assert format_move(move, Notation.TOURNAMENT, board) == "8H PE[RR]O"
    unboarded = parse_move("H8 [ll]AMA", Notation.RULEBOOK)  # no board: brackets still group
    assert isinstance(unboarded, Place) and unboarded.word == "[ll]AMA"
    assert cells("[CH].O") == ["[CH]", ".", "O"]
    assert parse_move("exchange [CH]Ñ?", Notation.RULEBOOK) == Exchange("[CH]Ñ?")
    with pytest.raises(MoveSyntaxError, match="without"):
        parse_move("H8 [CHICO", Notation.RULEBOOK, board)


def test_catalan_middle_dot_in_notation() -> None:
    catalan = find_tile_set("catalan")
    board = Board.from_rows(["." * 15] * 15, tile_set=catalan)
    move = parse_move("H8 COL·LEGI", Notation.RULEBOOK, board)
    assert isinstance(move, Place) and move.cells() == ["C", "O", "[L·L]", "E", "G", "I"]


def test_catalan_l_dot_l_typed_without_the_middle_dot_is_told_how_to_type_it() -> None:
    """A keyboard without '·' types COL.LEGI or COL-LEGI: qiza said 'K8 is empty: there is a gap in
    the word' (the '.' read as a letter on the board) or "'-' is not a letter", naming no L·L."""
    catalan = find_tile_set("catalan")
    board = Board.from_rows(["." * 15] * 15, tile_set=catalan)
    for typed in ("H8 COL.LEGI", "H8 COL-LEGI", "H8 col.legi"):
        with pytest.raises(MoveSyntaxError, match=r"(?i)type the tile L·L as L·L or \[L·L\]"):
            parse_move(typed, Notation.RULEBOOK, board)
    # a '.' on a letter of the board is still that letter: L, then the board's tile, then L
    played = Board.from_rows(["." * 15] * 7 + [".........A....."] + ["." * 15] * 7, tile_set=catalan)
    move = parse_move("H8 AL.LA", Notation.RULEBOOK, played)
    assert isinstance(move, Place) and move.cells() == ["A", "L", ".", "L", "A"]
    with pytest.raises(MoveSyntaxError, match="'-' is not a letter"):  # no such tile in Spanish
        parse_move("H8 AL-LA", Notation.RULEBOOK, Board.from_rows(["." * 15] * 15, tile_set=SPANISH))


def test_catalan_l_dot_l_is_typed_in_ascii_as_l_dot_l_in_brackets() -> None:
    """A keyboard without '·' had no way to type L·L: 'COL.LEGI' and 'CO[L.L]EGI' were refused
    everywhere. '[L.L]' (the '.' in brackets, where it is no square on the board and no pattern's
    letter) is the tile L·L, '[l.l]' a blank standing for it, in racks, moves, word tools and CGP."""
    from qiza import cgp

    catalan = find_tile_set("catalan")
    ll = catalan.code("L·L")
    assert catalan.codes("CO[L.L]EGI") == catalan.codes("COL·LEGI")
    assert catalan.codes("[l.l]") == [ll | BLANK_FLAG] and catalan.code("[L.L]") == ll
    with pytest.raises(TileSetError, match=r"'.' is not a letter .*: type the tile L·L .* \(in ASCII \[L\.L\]"):
        catalan.codes("COL.LEGI")  # bare, '.' is still no letter: said how to type L·L
    board = Board.from_rows(["." * 15] * 15, tile_set=catalan)
    for typed, word in (("H8 CO[L.L]EGI", "CO[L·L]EGI"), ("H8 co[l.l]egi", "co[l·l]egi")):
        move = parse_move(typed, Notation.RULEBOOK, board)
        assert isinstance(move, Place) and move.word == word
        assert format_move(move, Notation.RULEBOOK, board) == f"H8 {word}"
    with pytest.raises(MoveSyntaxError, match=r"type the tile L·L as L·L or \[L·L\] \(in ASCII \[L\.L\]"):
        parse_move("H8 COL.LEGI", Notation.RULEBOOK, board)
    lexicon = Lexicon("CA-TEST", frozenset({"COL·LEGI", "COL·LEGIS", "CEL·LA"}), LoadReport(), tile_set=catalan)
    game = Game(CLASSIC.with_options(first_player="fixed"), players=2, seed=2, lexicon=lexicon)
    game.set_rack(0, "CO[L.L]EGIS")
    assert game.rack_text(0) == "CO[L·L]EGIS"
    record = game.play("H8 CO[L.L]EGI")
    assert record.words == ("COL·LEGI",) and record.notation == "H8 CO[L·L]EGI"
    other = Game(CLASSIC.with_options(first_player="fixed"), players=2, seed=2, lexicon=lexicon)
    other.set_rack(0, "[L.L]AAEEII")  # 'exchange [l.l]' was read as a placement: "'exchange' is not a coordinate"
    assert other.play("exchange [l.l]A").kind.value == "exchange" and ll not in other.racks[0]
    assert lexicon.hooks("CO[L.L]EGI") == ("", "S")
    assert lexicon.matching("CO[L.L]?GI") == ["COL·LEGI"] and lexicon.matching("CE[l.l]A") == ["CEL·LA"]
    assert lexicon.anagrams("SIGE[L.L]OC") == ["COL·LEGIS"]
    position = cgp.loads("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CO[L.L]EG?/ 0/0 0 ld catalan;")
    assert catalan.codes(position.racks[0]) == catalan.codes("CO[L·L]EG?")


def test_gcg_writes_multi_letter_tiles_in_brackets_and_replays_them() -> None:
    from qiza import gcg

    game = _spanish_game()
    game.set_rack(0, "CHICOSA")
    game.play("H8 CHICO")
    game.set_rack(1, "Ñ?RR[LL]AE")
    game.play("exchange [LL]Ñ")
    text = gcg.dumps(gcg.from_game(game))
    assert ">Player_1: [CH]ICOSA 8H [CH]ICO +20 20" in text
    assert ">Player_2: Ñ?[RR][LL]AE -[LL]Ñ +0 0" in text
    assert "#tile-distribution spanish" in text
    replay = gcg.replay(gcg.loads(text), lexicon=game.lexicon)
    assert replay.checked == 2 and not replay.differences and not replay.warnings
    assert replay.game is not None and replay.game.board.cells == game.board.cells


def test_gcg_writes_and_reads_a_catalan_rack_with_the_l_l_tile() -> None:
    from qiza import gcg

    catalan = find_tile_set("catalan")
    lexicon = Lexicon("CA-TEST", frozenset({"COL·LEGI", "COL·LEGIS"}), LoadReport(), tile_set=catalan)
    game = Game(CLASSIC.with_options(first_player="fixed"), players=2, seed=2, lexicon=lexicon)
    assert game.rules.tile_set == catalan
    game.set_rack(0, "CO[L·L]EGIS")
    game.play("H8 COL·LEGI")
    text = gcg.dumps(gcg.from_game(game))
    assert ">Player_1: COL·LEGIS 8H COL·LEGI +" in text  # bare, as Macondo labels the Catalan tiles
    record = gcg.loads(text)
    assert not record.errors and record.events[0].rack == "COL·LEGIS"
    replay = gcg.replay(record, lexicon=lexicon)
    assert replay.clean and replay.game is not None and replay.game.board.cells == game.board.cells


def test_text_and_svg_boards_show_whole_labels() -> None:
    from qiza.svg import board_svg
    from qiza.text import board_text

    game = _spanish_game()
    game.set_rack(0, "CHICOSA")
    game.play("H8 CHICO")
    lines = board_text(game.board).splitlines()
    header, row8 = lines[0], lines[8]
    assert row8.index("CH") == header.index("H") and row8.index("O") == header.index("K")  # columns line up
    assert board_svg(game.board).count(">CH<") == 1


def test_a_word_spelt_with_other_tiles_than_its_reading_is_not_a_word() -> None:
    # the lexicon's CHICO is CH-I-C-O: C then H, on the board, spells no word of it
    game = _spanish_game()
    game.set_rack(0, "[C]HICOSA")  # C, H, I, C, O, S, A
    evaluation = game.evaluate("H8 [C]HICO")
    assert [w.letters for w in evaluation.words] == ["CHICO"] and evaluation.tiles_placed == 5
    assert game.invalid_words(evaluation) == ["[C]HICO"]
    double = Game(CLASSIC.with_options(tile_set="spanish", first_player="fixed", challenge="double"), players=2,
                  seed=1, lexicon=game.lexicon)
    double.set_rack(0, "[C]HICOSA")
    double.play("H8 [C]HICO")
    assert double.challenge().note.endswith("[C]HICO is not in ES-TEST")
    game.set_rack(0, "[CH]ICOSAE")
    assert game.invalid_words(game.evaluate("H8 CHICO")) == []


def test_an_exchange_of_multi_letter_tiles_counts_tiles() -> None:
    """Exchanging C and H ('exchange [C]H') was shown as 'Ann exchanged 4 tiles', the other
    players' sheet said 'exchange 4 tiles' and the GCG record -4: the characters of the text
    were counted. The one CH tile was 4 tiles too."""
    from qiza.gcg.writer import dumps, from_game
    from qiza.sheet import visible_record
    from qiza.tui.render import describe_record

    for typed, count, written in (("[C]H", 2, "[C]H"), ("[ch]", 1, "[CH]"), ("CH?", 2, "[CH]?")):
        lexicon = Lexicon("ES-TEST", frozenset({"CHICO"}), LoadReport(), tile_set=SPANISH)
        game = Game(CLASSIC.with_options(tile_set="spanish", first_player="fixed"), players=["Ann", "Bob"],
                    seed=1, lexicon=lexicon)
        game.set_rack(0, "[CH][C]HOSA?")
        record = game.play(f"exchange {typed}")
        assert record.move == Exchange(written) and record.notation == f"exchange {written}"
        assert describe_record(game, record) == f"Ann exchanged {count} tile{'s' if count > 1 else ''}"
        assert visible_record(record, 1, over=False).notation == f"exchange {count} tile{'s' if count > 1 else ''}"
        text = dumps(from_game(game, seat=1))
        assert f"-{count} +0" in text, text


def test_a_one_letter_tile_typed_in_brackets_is_written_back_so() -> None:
    """Spanish 'H8 [C]HAL' (C then H, a phony left unchallenged) was written 'H8 CHAL', which
    reads as CH, A, L: the saved game's action could not be replayed ('qiza play --resume':
    'CH is not on the rack'), and the sheet and the GCG record named another move."""
    from qiza import gcg
    from qiza.actions import game_from_actions
    from qiza.gcg.writer import dumps, from_game

    rules = CLASSIC.with_options(tile_set="spanish", first_player="fixed", challenge="double")
    game = Game(rules, players=2, seed=1, lexicon=_spanish_game().lexicon)
    game.set_rack(0, "[C]HICOSA")
    record = game.play("H8 [C]HICO")
    assert record.notation == "H8 [C]HICO" and game.actions[-1] == (0, "H8 [C]HICO")
    again = game_from_actions(game.rules, game.players, game.seed, game.actions, lexicon=game.lexicon)
    assert again.board.cells == game.board.cells and again.history[-1].score == record.score
    board = Board(game.rules.layout, SPANISH)
    move = parse_move("H8 C[H]ICO", Notation.RULEBOOK, board)
    assert parse_move(format_move(move, Notation.RULEBOOK, board), Notation.RULEBOOK, board) == move
    text = dumps(from_game(game))
    assert "8H [C]HICO" in text
    assert gcg.replay(gcg.loads(text), lexicon=game.lexicon).clean



def test_the_terminal_board_shows_the_catalan_l_l_tile_whole() -> None:
    """On the terminal's compact board (two columns a square, an 80-column terminal) the L·L
    tile was cut to 'L·' and its blank to 'l·'; then written ĿL in both columns, it ran into
    the O before it ('OĿL'); it is Ŀ (Unicode's L with middle dot), ŀ for the blank, after a
    space as every one-letter tile (the key says Ŀ=L·L); the wide board writes it whole."""
    from qiza.tui.render import COMPACT, WIDE, board_text

    catalan = find_tile_set("catalan")
    lexicon = Lexicon("CA-TEST", frozenset({"COL·LA", "CEL·LA"}), LoadReport(), tile_set=catalan)
    rules = CLASSIC.with_options(tile_set="catalan", first_player="fixed")
    for typed, shown in (("H8 CO[L·L]A", " Ŀ"), ("H8 CE[l·l]A", " ŀ")):
        game = Game(rules, players=2, seed=1, lexicon=lexicon)
        game.set_rack(0, "COE[L·L]A?S")
        game.play(typed)
        lines = board_text(game.board, style=COMPACT).plain.splitlines()
        header, row8 = lines[0], lines[8]
        assert row8[header.index("J") - 1:header.index("J") + 1] == shown, row8
        assert row8[header.index("K")] == "A" and len(row8) == len(lines[7])  # the columns line up
        wide = board_text(game.board, style=WIDE).plain.splitlines()[8]
        assert shown.strip().replace("Ŀ", "L·L").replace("ŀ", "l·l") in wide


def test_the_compact_board_writes_spanish_digraphs_in_one_column_with_a_key() -> None:
    """The compact board (an 80x24 terminal) wrote a Spanish CH, LL or RR in both columns of its
    square, so it ran into the square before it: CHORRO read "'CH ORR O". Each is one letter
    after a space, as every other tile (Ĉ, Ł, Ř; a blank's in lower case), and the key beside the
    board says what they stand for."""
    from rich.console import Console

    from qiza.tui import render

    lexicon = Lexicon("ES-TEST", frozenset({"CHORRO", "OLLO"}), LoadReport(), tile_set=SPANISH)
    rules = CLASSIC.with_options(tile_set="spanish", first_player="fixed")
    game = Game(rules, players=["Ann", "Bob"], seed=1, lexicon=lexicon)
    game.set_rack(0, "[CH]O[RR]OAEI")
    game.play("E8 [CH]O[RR]O")
    game.set_rack(1, "?OAEIUS")
    game.play("8H (O)[ll]O")  # down, a blank LL under the last O of CHORRO
    console = Console(width=80, height=24, file=io.StringIO(), no_color=True, color_system=None)
    seats = [render.SeatInfo(name, "person") for name in game.players]
    console.print(render.screen(game, seats, 0, width=80, height=24, notes=["Type a move (e.g. H8 WORD) or 'help'."]))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    header = lines[0]
    assert lines[8].startswith(" 8  = . . ' Ĉ O Ř O . . . ' . . = 8 "), lines[8]
    assert lines[9].startswith(" 9  . . ' . . . ' ł ' . . . ' . . 9 "), lines[9]
    assert lines[8].index("Ř") == header.index("G") and lines[9].index("ł") == header.index("H")
    assert any(line.rstrip().endswith("Ĉ=CH  Ł=LL  Ř=RR") for line in lines), "\n".join(lines)
    assert any("Type a move" in line for line in lines)
    wide = render.board_text(game.board, style=render.WIDE).plain.splitlines()[8]
    assert "CH O  RR O" in wide  # the wide board keeps the labels, a space apart


def test_a_letter_the_set_lacks_names_the_tiles_to_type() -> None:
    """French 'H8 PRÉ' said only "'É' is not a letter of the french tile set": French, Spanish,
    Catalan, Italian and Dutch are played without accents and German ß as SS, which the
    rule books say but the message did not."""
    game = Game(CLASSIC.with_options(tile_set="french", first_player="fixed"), players=2, seed=1,
                lexicon=Lexicon("FR-TEST", frozenset({"PRE"}), LoadReport(), tile_set=find_tile_set("french")))
    game.set_rack(0, "PREAIST")
    # an accent no tile has is read as its base letter since (TileSet.fold, test_accents): PRÉ is PRE
    assert game.play("H8 PRÉ").notation == "H8 PRE"
    german = find_tile_set("german")
    with pytest.raises(ValueError, match="'ß' is not a letter of the german tile set: type SS$"):
        german.codes("FUß")
    with pytest.raises(ValueError, match="'Ŀ' is not a letter of the catalan tile set: type L·$"):
        find_tile_set("catalan").codes("COĿLEGI")
    assert german.codes("Ä") == [2]  # Ä is a German tile: no folding
    for text in ("K", "ı", "\u0303"):  # no letter of the set to type instead
        with pytest.raises(ValueError, match="tile set$"):
            SPANISH.codes(text)


def test_tiles_put_on_squares_are_written_as_the_same_move_typed() -> None:
    """A placement made of tiles put on squares (the web board's drag and drop) wrote every tile
    in brackets: 'H8 [ch]U[LL]A' put down was recorded 'H8 [ch][U][LL][A]' on the score sheet,
    in the game's actions and in the GCG record, though the same move typed was 'H8 [ch]U[LL]A'.
    The tiles are written as the tile set writes them, in brackets only where needed ('[C]HE':
    C and H side by side, never the CH tile)."""
    from qiza.gcg.writer import dumps, from_game
    from qiza.scoring import place_from_cells

    game = _spanish_game()
    square = game.rules.layout.parse_square
    game.set_rack(0, "[C]HE?U[LL]A")
    for put, typed in (({square("H8"): "ch", square("I8"): "U", square("J8"): "LL", square("K8"): "A"},
                          "H8 [ch]U[LL]A"),
                         ({square("H8"): "C", square("I8"): "H", square("J8"): "E"}, "H8 [C]HE"),
                         ({square("H8"): "c", square("I8"): "H", square("J8"): "E"}, "H8 cHE"),
                         ({square("H8"): "C", square("H9"): "H", square("H10"): "E"}, "8H [C]HE")):
        move = place_from_cells(game.board, put)
        assert game.format(move) == typed and move == game.parse(typed)
    game.play(place_from_cells(game.board, {square("H8"): "ch", square("I8"): "U", square("J8"): "LL",
                                            square("K8"): "A"}))
    assert game.actions[-1] == (0, "H8 [ch]U[LL]A") and game.history[-1].notation == "H8 [ch]U[LL]A"
    game.set_rack(1, "[C]HEOSAI")
    game.play(place_from_cells(game.board, {square("K9"): "C", square("K10"): "H", square("K11"): "E"}))
    assert game.history[-1].notation == "8K (A)[C]HE"
    assert "8H [ch]U[LL]A" in dumps(from_game(game))


def test_a_multi_letter_tile_missing_from_the_rack_says_how_to_type_its_letters() -> None:
    """With two L tiles and no LL, 'exchange LL' or 'H8 OLLA' said only 'LL is not on the rack
    ([L]LAEIOU)': a new player of the Spanish set is not told that LL typed is the LL tile and
    that two L tiles are typed [L]L. The refusal says so where the rack holds those tiles."""
    game = _spanish_game()
    game.set_rack(0, "[L]LAEIO[R]")
    for typed in ("exchange LL", "H8 OLLA"):
        with pytest.raises(IllegalMoveError) as info:
            game.play(typed)
        assert str(info.value) == "LL is not on the rack ([L]LAEIOR); the tiles L and L are typed [L]L"
    with pytest.raises(IllegalMoveError) as info:
        game.play("exchange RR")  # one R: nothing to say of typing R and R
    assert str(info.value) == "RR is not on the rack ([L]LAEIOR)"
    assert game.play("exchange [L]L").notation == "exchange [L]L"


def test_the_text_score_sheet_keeps_its_columns_with_racks_of_several_letter_tiles() -> None:
    """'qiza gcg show' of a Spanish game printed its score sheet with a rack column 9 characters
    wide and a move column 24 wide: a rack written with [RR] or [CH] (or a move longer than 24)
    pushed the rest of its line to the right, so the moves, scores and totals no longer stood
    in columns. The columns are as wide as their longest entry (at least as before)."""
    from qiza.text import score_sheet

    game = _spanish_game()
    game.set_rack(0, "[CH][LL][RR]AEIO")
    game.play("exchange [CH][LL][RR]")
    game.set_rack(1, "[C]HICOSA")
    game.play("H8 [C]HICOS")
    game.play("pass")
    lines = score_sheet(game).splitlines()[:-1]
    assert len(lines) == 3 and lines[0].startswith("Player 1  [CH][LL][RR]AEIO exchange [CH][LL][RR]")
    assert len({len(line) for line in lines}) == 1  # the totals end in one column
    assert len({line.index(" exchange ") if "exchange" in line else line.index(" H8 ") if "H8" in line
                else line.index(" pass ") for line in lines}) == 1  # the moves start in one column


def test_gcg_reads_macondos_tile_declarations_without_a_warning() -> None:
    """Macondo (and so Woogles) writes a ``#tile CH ch`` line for each tile of more than one letter
    of the set (its reader passes over them): each was read as an unknown pragma, with a warning."""
    from qiza import gcg

    text = ("#character-encoding UTF-8\n#player1 ana Ana\n#player2 leo Leo\n#lexicon FILE2017\n"
            "#tile-distribution spanish\n#tile CH ch\n#tile LL ll\n#tile RR rr\n>ana: [CH]ICOSA 8H [CH]ICO +20 20\n")
    record = gcg.loads(text)
    assert not record.errors and not record.warnings, record.warnings
    assert record.pragmas == [("tile", "CH ch"), ("tile", "LL ll"), ("tile", "RR rr")]
    assert gcg.dumps(record) == text
    assert gcg.replay(record).clean


def test_catalan_ny_and_qu_on_each_terminal_board() -> None:
    """Catalan NY and QU on the terminal's boards: on the compact one (80x24 and 60x20, two
    columns a square) one column each, Ñ and Q, which the key beside the board explains (both
    letters filled the square and ran into the one before it); on the wide (three columns) and
    large (four columns, two lines) boards their whole labels, each clear of its neighbours."""
    from rich.console import Console

    from qiza.tui import render

    catalan = find_tile_set("catalan")
    lexicon = Lexicon("CA-TEST", frozenset({"QUANY"}), LoadReport(), tile_set=catalan)
    game = Game(CLASSIC.with_options(tile_set="catalan", first_player="fixed"), players=["Ann", "Bob"], seed=1,
                lexicon=lexicon)
    game.set_rack(0, "[QU]A[NY]EIOS")
    game.play("H8 [QU]A[NY]")
    seats = [render.SeatInfo(name, "person") for name in game.players]
    for width, height in ((80, 24), (60, 20)):
        assert render.board_style_for(width, height) == render.COMPACT
        console = Console(width=width, height=height, file=io.StringIO(), no_color=True, color_system=None)
        console.print(render.screen(game, seats, 0, width=width, height=height, notes=["Type a move."]))
        lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
        assert lines[8].startswith(" 8  = . . ' . . . Q A Ñ . ' . . = 8 "), lines[8]
        assert all(len(line) <= width for line in lines)
        assert any("Ñ=NY  Q=QU" in line for line in lines), "\n".join(lines)
    for style, row in ((render.WIDE, " QU A  NY ."), (render.LARGE, " QU  A   NY  .")):
        drawn = render.board_text(game.board, style=style).plain.splitlines()
        header, eight = drawn[0], drawn[1 + 7 * style.height]
        assert eight[header.index("H") - 1:].startswith(row), eight
