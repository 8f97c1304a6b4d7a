"""The game: players, bag, racks, turns, challenges, the end and the score sheet.

A :class:`Game` is the full state of one game. Every action is checked completely
before anything changes, so a refused action (an exception from
:mod:`qiza.errors`) leaves the game exactly as it was. The bag is drawn from
with a seeded random generator, so a game replays exactly from its seed and its
moves (:func:`game_from_actions`). :meth:`Game.push` / :meth:`Game.pop` make and unmake
moves for analysis. :meth:`Game.view` is what one player may see.

>>> game = Game(players=["Ann", "Bob"], seed=1, rules=COMPUTER)
>>> game.rack_text(0)
'DRYAFDO'
>>> game.play("H8 FORD").score
16
"""

from __future__ import annotations

import copy
import dataclasses
import json
import numbers
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qiza.alphabet import BLANK, BLANK_FLAG, ENGLISH, Tile, is_blank
from qiza.board import Board
from qiza.deprecation import CallableList, positional_seat, renamed
from qiza.errors import GameOverError, IllegalMoveError, MoveSyntaxError, PhonyWordError, RuleError, quoted
from qiza.languages import builtin_for, rules_for_lexicon
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import THROUGH, Challenge, Exchange, Move, Pass, Place, format_move, parse_move
from qiza.names import name_key, repeated_name
from qiza.rules import CLASSIC, COMPUTER, EndPoints, EndRule, FirstPlayer, Rules, allows_exchange, exchange_refusal
from qiza.scoring import Evaluation, evaluate, evaluate_many
from qiza.sheet import (
    FORFEIT_ACTIONS,
    FORFEIT_WORDS,
    FORFEITS,
    TURN_KINDS,
    EndReason,
    Kind,
    PlayerView,
    Record,
    visible_record,
)

__all__ = ["Game", "Kind", "Record", "EndReason", "PlayerView", "game_from_actions", "apply_action", "visible_record",
           "COMPUTER", "FORFEITS", "TURN_KINDS"]

if not TYPE_CHECKING:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = renamed(__name__, {"replay": "game_from_actions"})

MAX_POINTS = 999_999
"""The largest number of points a penalty takes away, and a set-up position's score (either way) or
scoreless turns: a saved game holds numbers of at most six digits."""


@dataclass
class _Pending:
    """A play still open to challenge."""

    record: int
    seat: int
    rack_before: list[Tile]
    drawn: list[Tile]
    evaluation: Evaluation
    ends_game: EndReason | None


@dataclass
class _State:
    board: Board
    racks: list[list[Tile]]
    bag: list[Tile]
    rng_state: Any
    scores: list[int]
    to_move: int
    history: list[Record]
    pending: _Pending | None
    skip_next: set[int]
    end_reason: EndReason | None
    scores_before_end: list[int] | None
    actions: list[tuple[int, str]]
    resigned: int | None
    out: list[tuple[int, EndReason]]


class Game:
    """A game of 2 to 4 players under a set of :class:`~qiza.rules.Rules`.

    The lexicon (a :class:`~qiza.lexicon.Lexicon` or its name) decides the tile set when the
    rules have the English one: ``Game(CLASSIC, lexicon=load_lexicon("french-debian"))`` plays
    with the French tiles, and ``game.rules`` says so (:func:`qiza.languages.rules_for_lexicon`,
    as the terminal and the web do). Rules with a tile set of their own keep it. When none is
    given it is the rules' language's (:func:`qiza.languages.builtin_for`): ENABLE for the
    English and Super tiles, ``french-debian`` for ``find_preset("french")``.

    In a game of three or four a player who resigns, loses on time or leaves is out of it and
    the others play on (:meth:`resign`, :meth:`withdraw`; :attr:`out`, :meth:`in_game`,
    :attr:`places`); the game ends when one player is left.

    ``players`` is a number of players or a list of their names; ``seed`` a whole number of
    absolute value below ``2**64`` (what a saved game holds), random when ``None``. Arguments
    of the wrong type raise :class:`TypeError`, a seed out of range :class:`ValueError` (as a
    wrong type, an error of the calling code), too many or too few players a
    :class:`~qiza.errors.RuleError`, and so do two names that are one as the front ends compare
    them (``"Ann"`` and ``"ann"``: :func:`qiza.names.name_key`), which the board, the score sheet
    and a GCG record's readers could not tell apart (:func:`qiza.names.distinct_names` numbers them).
    """

    def __init__(self, rules: Rules = CLASSIC, *, players: int | Sequence[str] = 2,
                 lexicon: Lexicon | str | None = None, seed: int | None = None) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be Rules (e.g. find_preset({quoted(rules)})), not {quoted(rules)}")
        if isinstance(players, str) or not isinstance(players, (int, Sequence)) or isinstance(players, bool):
            raise TypeError(f"players is a number of players or a list of names, not {quoted(players)}")
        if not isinstance(players, int) and not all(isinstance(name, str) for name in players):
            raise TypeError(f"player names are texts, not {quoted(list(players))}")
        if lexicon is not None and not isinstance(lexicon, (Lexicon, str)):
            raise TypeError(f"lexicon is a Lexicon or a lexicon's name, not {quoted(lexicon)}")
        if seed is not None:
            if type(seed) is not int:
                raise TypeError(f"seed is a whole number, not {quoted(seed)}")
            if not abs(seed) < 2 ** 64:
                raise ValueError(f"seed {seed} is out of range: a saved game holds seeds of absolute value "
                                 "below 2**64")
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if not rules.min_players <= len(names) <= rules.max_players:
            raise RuleError(f"a game has {rules.min_players} to {rules.max_players} players, not {len(names)}")
        repeated = repeated_name(names)
        if repeated is not None:  # the board, the sheet and a GCG record's readers could not tell them apart
            first = next(name for name in names if name_key(name) == name_key(repeated))
            raise RuleError(f"two players have one name, {quoted(first)} and {quoted(repeated)} (names are compared "
                            "as the front ends compare them: without case, spaces at the ends or control "
                            "characters): give each player a name of their own (qiza.names.distinct_names "
                            "numbers them)")
        if rules.finish_line is not None and len(rules.finish_line) != len(names):
            raise RuleError(f"Finish Line needs one target per player: {len(rules.finish_line)} "
                            f"targets for {len(names)} players")
        if lexicon is None:  # the rules' language's: French tiles are not judged by an English list
            lexicon = builtin_for(None, rules.tile_set)
        if isinstance(lexicon, str):
            lexicon = load_lexicon(lexicon)
        if rules.tile_set == ENGLISH and lexicon.tile_set != ENGLISH:
            rules = rules_for_lexicon(rules, lexicon)
        self.rules = rules
        """The game's rules (with the lexicon's tile set: see above)."""
        self.players: list[str] = names
        """The players' names, by seat."""
        self.lexicon: Lexicon = lexicon
        """The word list that judges challenges and the ``auto`` challenge rule."""
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2 ** 63)
        """The seed of the bag's draws: the same seed and :attr:`actions` replay the game."""
        self._rng = random.Random(self.seed)
        self.board = Board(rules.layout, rules.tile_set)
        """The board."""
        self.bag: list[Tile] = rules.tile_set.full_bag()
        """The tile codes in the bag; tiles are drawn from it at random (from the seed)."""
        self.racks: list[list[Tile]] = [[] for _ in names]
        """Each seat's rack as tile codes (:meth:`rack_text` writes one)."""
        self.scores: list[int] = [0] * len(names)
        """Each seat's score."""
        self.history: list[Record] = []
        """The score sheet: one :class:`Record` a line, oldest first."""
        self.first_draws: list[list[tuple[int, Tile]]] = []
        """The draws for the first turn (``first_player="draw"``): each round's ``(seat, tile)``, until
        one seat drew the tile nearest the start of the alphabet (a blank first)."""
        self._pending: _Pending | None = None
        self._skip_next: set[int] = set()
        self.end_reason: EndReason | None = None
        """Why the game ended; ``None`` while it goes on."""
        self._scores_before_end: list[int] | None = None
        self._resigned: int | None = None
        self._out: list[tuple[int, EndReason]] = []
        self._initial_scoreless = 0
        self.detect_blocked = True
        """Whether a pass after which no player can place tiles (nor exchange) ends the game. A
        GCG replay, whose lexicon is a stand-in, turns it off and ends the game when its record
        does (:meth:`end_blocked`)."""
        self._stack: list[_State] = []
        self.actions: list[tuple[int, str]] = []
        """Every action taken, as ``(seat, text)``: replaying them from the seed rebuilds the game."""
        self.starter = self._choose_starter()
        """The seat that played first."""
        self.to_move = self.starter
        """The seat whose turn it is."""
        for offset in range(len(names)):
            seat = (self.starter + offset) % len(names)
            self.racks[seat] = self._draw(rules.rack_size)

    # -- the bag -------------------------------------------------------------------
    def _draw(self, count: int) -> list[Tile]:
        drawn = []
        for _ in range(min(count, len(self.bag))):
            index = self._rng.randrange(len(self.bag))
            self.bag[index], self.bag[-1] = self.bag[-1], self.bag[index]
            drawn.append(self.bag.pop())
        return drawn

    def _choose_starter(self) -> int:
        if self.rules.first_player is FirstPlayer.FIXED:
            return 0
        contenders = list(range(len(self.players)))
        while len(contenders) > 1:
            round_draws = [(seat, self._draw(1)[0]) for seat in contenders]
            self.bag.extend(tile for _, tile in round_draws)  # the tiles go back and the bag is mixed
            self.first_draws.append(round_draws)
            best = min(tile for _, tile in round_draws)  # blank (0) beats any letter, then A=1 ...
            contenders = [seat for seat, tile in round_draws if tile == best]
        return contenders[0]

    # -- simple queries ---------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.end_reason is not None

    @property
    def player_count(self) -> int:
        """How many players the game has (2 to 4)."""
        return len(self.players)

    @property
    def turns_played(self) -> int:
        """Turns the players have played: the score sheet's lines that took a turn (a play, an
        exchange, a pass, a play taken back; a failed challenge only when the rules make it cost
        the challenger their turn, :attr:`qiza.rules.ChallengeRule.failed_challenge_loses_turn`)."""
        return sum(1 for record in self.history if record.is_turn)

    def placed_tiles(self, seat: int) -> bool:
        """Whether the player in ``seat`` has a play on the board: tiles they placed that were not
        taken back after a challenge."""
        self._check_seat(seat)
        return any(r.seat == seat and r.kind is Kind.PLACE and not r.challenged_off for r in self.history)

    @property
    def out(self) -> tuple[int, ...]:
        """Seats of the players out of the game, in the order they left: in a game of three or
        four a player who resigns, loses on time or leaves is out while the others play on
        (:meth:`resign`); the player whose forfeit ended the game is last."""
        return tuple(seat for seat, _ in self._out)

    def in_game(self, seat: int) -> bool:
        """Whether the player in ``seat`` is still in the game (has not resigned, lost on time
        or left it; the game being over does not make anyone out)."""
        self._check_seat(seat)
        return all(seat != gone for gone, _ in self._out)

    def out_reason(self, seat: int) -> EndReason | None:
        """Why the player in ``seat`` is out (:data:`FORFEITS`: resigned, lost on time, left),
        ``None`` while they are in."""
        self._check_seat(seat)
        return next((reason for gone, reason in self._out if gone == seat), None)

    @property
    def seats_in(self) -> tuple[int, ...]:
        """Seats of the players still in the game, in seat order (every seat but those
        :attr:`out`); a game of three or four with two players left is played on as a game of two."""
        gone = self.out
        return tuple(seat for seat in range(len(self.players)) if seat not in gone)

    def _check_in(self, seat: int) -> None:
        """Refuse an action of a player who is out of the game, saying why."""
        reason = self.out_reason(seat)
        if reason is not None:
            raise RuleError(f"{self.players[seat]} {FORFEIT_WORDS[reason]} and is out of the game")

    def rack_text(self, seat: int | None = None) -> str:
        """A player's rack as text (``?`` for a blank); the player to move by default.
        :class:`~qiza.errors.RuleError` for a seat not in the game (:class:`TypeError` for one
        that is not a whole number), as every method taking a seat."""
        if seat is not None:
            self._check_seat(seat)
        return self.rules.tile_set.text(self.racks[self.to_move if seat is None else seat])

    def unseen(self, seat: int | None) -> str:
        """Tiles a player cannot see (bag plus other racks) as rack text, sorted, blanks first;
        with ``None``, what a spectator cannot see (the bag and every rack)."""
        if seat is not None:
            self._check_seat(seat)
        tiles = list(self.bag)
        for other, rack in enumerate(self.racks):
            if other != seat:
                tiles.extend(rack)
        return self.rules.tile_set.text(sorted(tiles))

    @property
    def can_challenge(self) -> bool:
        """Whether the previous play is open to challenge now."""
        return self._pending is not None and not self.over

    @property
    def pending_ends_game(self) -> bool:
        """Whether the play open to challenge ends the game if it stands (it went out, reached
        the Finish Line target, or scored 0 as the last of the scoreless turns that end a game)."""
        return self._pending is not None and self._pending.ends_game is not None

    def end_after_pass(self) -> EndReason | None:
        """How the game ends if the player to move passes now, or ``None`` if it goes on (or is
        over): the pass is the last of the scoreless turns (or passes) in a row that the end
        rule allows, or it accepts a play open to challenge that ends the game
        (:attr:`pending_ends_game`). Found by passing in a copy of the game, so it is what
        :meth:`play` would do; a board on which nobody can play, which a pass finds with the
        move generator, is not foreseen (whether the others can play would tell of their racks).
        The web's game page says it when it asks "Pass this turn?"."""
        if self.over:
            return None
        clone = self.copy()
        clone.detect_blocked = False
        clone.play(Pass())
        return clone.end_reason

    def last_play(self) -> Record | None:
        """The last placement still on the board, if any."""
        for record in reversed(self.history):
            if record.kind is Kind.PLACE and not record.challenged_off:
                return record
        return None

    def view(self, seat: int | None) -> PlayerView:
        """What the player in ``seat`` may see (``None``: a spectator). Other players' racks
        and the tiles they exchanged are hidden until the game is over (see
        :func:`visible_record`); a spectator sees no rack."""
        if seat is not None:
            self._check_seat(seat)
        history = tuple(visible_record(r, seat, over=self.over) for r in self.history)
        return PlayerView(
            seat=seat, rack=self.rack_text(seat) if seat is not None else "", board=self.board.copy(),
            scores=tuple(self.scores), to_move=self.to_move, bag_count=len(self.bag),
            rack_counts=tuple(len(r) for r in self.racks), unseen=self.unseen(seat),
            history=history, rules=self.rules, over=self.over,
            can_challenge=(seat is not None and self.can_challenge and seat != self._pending_seat()
                           and self.in_game(seat)),
            pending_ends_game=self.can_challenge and self.pending_ends_game, out=self.out, lexicon=self.lexicon)

    def _pending_seat(self) -> int | None:
        return self._pending.seat if self._pending else None

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, numbers.Integral)):
            raise TypeError(f"a seat is a whole number from 0 to {len(self.players) - 1}, not {quoted(seat)}")
        if not 0 <= seat < len(self.players):
            raise RuleError(f"there is no seat {seat} in a {len(self.players)}-player game")

    def _tiles_of(self, text: object, what: str) -> list[Tile]:
        """The tile codes of a text of tiles in the game's tile set (any case, ``?`` a blank):
        :class:`TypeError` for what is not a text, :class:`~qiza.errors.MoveSyntaxError` for
        a text that is not tiles (``what`` names the text in the first)."""
        if not isinstance(text, str):
            raise TypeError(f"{what} is a text like 'AEINRST', not {quoted(text)}")
        try:
            return self.rules.tile_set.codes(text.upper())
        except ValueError as exc:
            raise MoveSyntaxError(str(exc)) from None

    def parse(self, text: str) -> Move:
        """Read a move in the game's notation against the current board (see
        :func:`~qiza.move.parse_move`): :class:`~qiza.errors.MoveSyntaxError` for text that is no
        move. Whether the move is legal is :meth:`evaluate`'s and :meth:`play`'s to say."""
        return parse_move(text, self.rules.notation, self.board)

    def format(self, move: Move) -> str:
        """Write a move in the game's notation against the current board, as :meth:`parse`
        reads it back (played-through letters in parentheses); :class:`TypeError` for what is no
        :class:`~qiza.move.Move`."""
        return format_move(move, self.rules.notation, self.board)

    # -- checking a placement without playing it -----------------------------------------
    @positional_seat
    def evaluate(self, move: Place | str, *, seat: int | None = None) -> Evaluation:
        """Check a placement for a player (the player to move by default: geometry and tiles on
        the rack) and score it. ``seat`` is keyword-only, as in :meth:`play` (given as the second
        argument it still works, with a :class:`DeprecationWarning`, until the next release).

        Words are not looked up; see :meth:`invalid_words`. Changes nothing. Returns the
        :class:`~qiza.scoring.Evaluation` (its ``move`` with played-through letters as ``.``);
        raises :class:`~qiza.errors.MoveSyntaxError` for text that is no placement and
        :class:`~qiza.errors.IllegalMoveError` for a placement the board or the rack does not allow.
        """
        place = self.parse(move) if isinstance(move, str) else move
        if not isinstance(place, Place):
            raise MoveSyntaxError(f"{quoted(move)} is not a placement")
        if seat is None:
            seat = self.to_move
        else:
            self._check_seat(seat)
        evaluation = evaluate(self.board, place, self.rules)
        self._tiles_from_rack(seat, evaluation.move)
        return evaluation

    @positional_seat
    def legal_moves(self, *, seat: int | None = None) -> list[Evaluation]:
        """Every legal placement of a player (the player to move by default), highest score first.
        ``seat`` is keyword-only, as in :meth:`play` (given positionally it still works, with a
        :class:`DeprecationWarning`, until the next release).

        Each is an :class:`~qiza.scoring.Evaluation`: the :class:`~qiza.move.Place` to give to
        :meth:`play`, its score, the words it forms (each with its own score) and whether it is
        a bingo. The compiled move generator (:mod:`qiza.analysis`) finds the placements whose
        words are all in the lexicon; this engine checks and scores each one. On an empty board
        only plays across are listed (plays down are their mirror images). Exchanging and
        passing are not listed: a pass is always allowed, an exchange while the bag holds at
        least ``rules.exchange_limit`` tiles. Nothing is listed once the game is over, nor while
        a play that ends the game is open to challenge (:attr:`pending_ends_game`: the player to
        move may only challenge it or accept it with a pass).
        """
        from qiza.analysis import legal_placements

        seat = self.to_move if seat is None else seat
        self._check_seat(seat)
        if self.over or (self._pending is not None and self._pending.ends_game is not None):
            return []
        # the generator's placements are legal and from the rack: scored as evaluate would, without
        # checking each again (Game.evaluate of each was two thirds of the time)
        moves = evaluate_many(self.board, [candidate.move for candidate in legal_placements(self, seat)], self.rules)
        moves.sort(key=lambda e: (-e.score, self.format(e.move)))
        return moves

    def invalid_words(self, evaluation: Evaluation) -> list[str]:
        """The words of a placement that are not in the game's lexicon. With multi-letter tiles a
        word is also invalid when its tiles are not those its reading gives (the lexicon's
        ``CHICO`` is CH-I-C-O: C then H does not spell it); such a word is named by its tiles
        (``[C]HICO``)."""
        if not isinstance(evaluation, Evaluation):
            raise TypeError(f"invalid_words takes an Evaluation (game.evaluate(move)), not {evaluation!r:.60}")
        invalid = self.lexicon.invalid_words(w.letters for w in evaluation.words)
        tile_set = self.rules.tile_set
        if not tile_set.multi_letter:
            return invalid
        size = self.board.size
        placed = {sq: tile_set.code(ch) for sq, ch in evaluation.move.placed(size)}
        for word in evaluation.words:
            if word.letters in invalid:
                continue
            dr, dc = word.direction.step
            r, c, tiles = word.row, word.col, []
            while 0 <= r < size and 0 <= c < size and (tile := placed.get(r * size + c) or self.board[r * size + c]):
                tiles.append(tile & ~BLANK_FLAG)
                r, c = r + dr, c + dc
            if tile_set.codes(word.letters) != tiles:
                written = tile_set.text(tiles)
                if written not in invalid:
                    invalid.append(written)
        return invalid

    def _tiles_from_rack(self, seat: int, place: Place) -> list[Tile]:
        """The rack after the placement; raises if the rack lacks a tile."""
        rack = list(self.racks[seat])
        tile_set = self.rules.tile_set
        tiles = [tile_set.code("?" if char.islower() else char) for char in place.cells() if char != THROUGH]
        for tile in tiles:
            if tile not in rack:
                raise self._not_on_rack(seat, tile, tiles.count(tile), placing=True)
            rack.remove(tile)
        return rack

    def _not_on_rack(self, seat: int, tile: Tile, wanted: int, *, placing: bool = False) -> IllegalMoveError:
        """The error for a move that uses ``wanted`` of ``tile``, more than the rack of ``seat``
        holds: 'A blank is not on the rack' said so of a rack with one blank when the move typed
        four letters in lower case (four blanks)."""
        held = self.racks[seat].count(tile)
        blank = tile == BLANK
        note = "; a lower-case letter is a blank" if blank and placing else ""
        if not blank and placing and BLANK in self.racks[seat]:  # ÄRGER typed for the rack's ?RGERNE
            note = f"; a blank standing for it is typed {self.rules.tile_set.char(tile | BLANK_FLAG)}"
        if held == 0:
            what = "a blank" if blank else self.rules.tile_set.char(tile)
            return IllegalMoveError(f"{what} is not on the rack ({self.rack_text(seat)}){note}{self._apart(seat, what)}")
        what = "blanks" if blank else f"x {self.rules.tile_set.char(tile)}"
        return IllegalMoveError(f"the move needs {wanted} {what}, the rack has {held} ({self.rack_text(seat)}){note}")

    def _apart(self, seat: int, label: str) -> str:
        """For a multi-letter tile (Spanish LL) missing from a rack that holds its letters as
        tiles of their own: how those are typed ('; the tiles L and L are typed [L]L')."""
        tile_set = self.rules.tile_set
        if len(label) < 2 or not all(char in tile_set.letters for char in label):
            return ""
        parts = [tile_set.code(char) for char in label]
        if any(self.racks[seat].count(part) < parts.count(part) for part in parts):
            return ""
        return f"; the tiles {' and '.join(label)} are typed {tile_set.text(parts)}"

    # -- actions ----------------------------------------------------------------------
    def play(self, move: Move | str, *, seat: int | None = None) -> Record:
        """Make a move for the player to move (or, for a challenge, for ``seat``).

        ``move`` is a :class:`~qiza.move.Move` or text in the game's notation. Returns
        the score sheet line. Raises a :class:`~qiza.errors.QizaError` and changes
        nothing if the move is not allowed (a :class:`TypeError` if ``move`` is neither).
        """
        if self.over:
            raise GameOverError(f"the game is over ({self.end_reason.value if self.end_reason else ''})")
        if isinstance(move, str):
            move = self.parse(move)
        if isinstance(move, Evaluation):  # what legal_moves() lists: say where its move is
            raise TypeError(f"a move is a Place, Exchange, Pass or Challenge or its text, not an Evaluation "
                            f"(of {quoted(move.move)}): legal_moves() and evaluate() give Evaluations, play "
                            "their .move")
        if not isinstance(move, (Place, Exchange, Pass, Challenge)):
            raise TypeError(f"a move is a Place, Exchange, Pass or Challenge or its text, not {quoted(move)}")
        if seat is not None:
            self._check_seat(seat)
            self._check_in(seat)
        if isinstance(move, Challenge):
            return self.challenge(self.to_move if seat is None else seat)
        if seat is not None and seat != self.to_move:
            raise RuleError(f"it is {self.players[self.to_move]}'s turn, not {self.players[seat]}'s")
        if self._pending is not None and self._pending.ends_game is not None and not isinstance(move, Pass):
            raise RuleError("the last play ends the game: challenge it or accept it (pass)")
        seat = self.to_move
        if isinstance(move, Place):
            record = self._place(move)
        elif isinstance(move, Exchange):
            record = self._exchange(move)
        elif self._pending is not None and self._pending.ends_game is not None:
            self.accept()  # passing lets a game-ending play stand: the game ends
            return self.history[-1]
        else:
            record = self._pass()
        self.actions.append((seat, format_move(move, self.rules.notation)))
        return record

    def accept(self) -> None:
        """Let the play open to challenge stand (ends the game if that play went out); does
        nothing when no play is open to challenge."""
        if self._pending is not None:
            self.actions.append((self.to_move, "accept"))
        self._close_challenge()

    def _close_challenge(self) -> None:
        """The play open to challenge stands (a move by the next player accepts it implicitly)."""
        if self._pending is None:
            return
        ends, seat = self._pending.ends_game, self._pending.seat
        self._pending = None
        if ends is not None:
            self._finish(ends, seat)

    def _place(self, move: Place) -> Record:
        seat = self.to_move
        evaluation = self.evaluate(move, seat=seat)
        if self.rules.challenge.checks_at_once:
            invalid = self.invalid_words(evaluation)
            if invalid:
                raise PhonyWordError(_phony_message(invalid, self.lexicon.name), invalid)
        rest = self._tiles_from_rack(seat, evaluation.move)
        # everything is checked: from here on the state changes
        self._close_challenge()
        if self.over:  # accepting a game-ending play ended the game
            raise GameOverError("the game is over")
        rack_before = list(self.racks[seat])
        notation = self.format(evaluation.move)
        size = self.board.size
        squares: list[int] = []
        tile_set = self.rules.tile_set
        for square, char in evaluation.move.placed(size):
            self.board.set(square, tile_set.code(char))
            squares.append(square)
        drawn = self._draw(self.rules.rack_size - len(rest))
        self.racks[seat] = rest + drawn
        self.scores[seat] += evaluation.score
        record = Record(seat, Kind.PLACE, tile_set.text(rack_before), evaluation.score, self.scores[seat],
                        evaluation.move, notation, tuple(w.text for w in evaluation.words),
                        tuple(squares), evaluation.bingo)
        self.history.append(record)
        ends: EndReason | None = None
        if self._reached_finish_line(seat):
            ends = EndReason.FINISH_LINE  # the target wins, even when the play also went out
        elif not self.racks[seat] and not self.bag:
            ends = EndReason.WENT_OUT
        elif evaluation.score == 0:
            ends = self._scoreless_end()  # a placement of blanks only is a scoreless turn too
        self._advance()
        if self.rules.challenge.checks_at_once:
            if ends is not None:
                self._finish(ends, seat)
        else:
            self._pending = _Pending(len(self.history) - 1, seat, rack_before, drawn, evaluation, ends)
        return record

    def _reached_finish_line(self, seat: int) -> bool:
        targets = self.rules.finish_line
        return targets is not None and self.scores[seat] >= targets[seat]

    def _exchange(self, move: Exchange) -> Record:
        seat = self.to_move
        tile_set = self.rules.tile_set
        tiles = self._tiles_of(move.tiles, "the tiles to exchange")
        if not tiles:
            raise MoveSyntaxError("say which tiles to exchange")
        refusal = exchange_refusal(self.rules, len(self.bag), tiles=len(tiles))
        if refusal is not None:
            raise RuleError(refusal)
        rack = list(self.racks[seat])
        for tile in tiles:
            if tile not in rack:
                raise self._not_on_rack(seat, tile, tiles.count(tile))
            rack.remove(tile)
        self._close_challenge()
        rack_before = tile_set.text(self.racks[seat])
        drawn = self._draw(len(tiles))  # draw first, then return the tiles
        self.bag.extend(tiles)
        self.racks[seat] = rack + drawn
        written = tile_set.text(tiles)  # [C]H, as typed or not: alphabet.tiles_in_text counts it
        record = Record(seat, Kind.EXCHANGE, rack_before, 0, self.scores[seat], Exchange(written),
                        f"exchange {written}")
        self.history.append(record)
        self._advance()
        self._check_scoreless_end()
        return record

    def _pass(self) -> Record:
        seat = self.to_move
        self._close_challenge()
        record = Record(seat, Kind.PASS, self.rack_text(seat), 0, self.scores[seat], Pass(), "pass")
        self.history.append(record)
        self._advance()
        self._check_scoreless_end()
        if (self.detect_blocked and not self.over and not self.exchange_allowed
                and self._nobody_can_play()):
            self._finish(EndReason.BLOCKED)
        return record

    @property
    def exchange_allowed(self) -> bool:
        """Whether the bag allows an exchange: at least ``rules.exchange_limit`` tiles in it,
        and at least one (a limit of 0 still needs a tile to draw)."""
        return allows_exchange(self.rules, len(self.bag))

    def end_blocked(self) -> None:
        """End the game as blocked (no player can make a play) after a pass, when the caller
        knows it (a game record that ends so); the racks are counted as after scoreless turns."""
        if self.over:
            raise GameOverError("the game is over")
        last = next((r for r in reversed(self.history) if r.is_turn), None)
        if self._pending is not None or last is None or last.kind is not Kind.PASS:
            raise RuleError("a game ends blocked only after a pass")
        if self.exchange_allowed:
            raise RuleError(f"a game with {len(self.bag)} tiles in the bag is not blocked: exchanges are allowed")
        self._finish(EndReason.BLOCKED)

    def challenge(self, seat: int | None = None, *, bonus: int | None = None) -> Record:
        """Challenge the previous play, by ``seat`` (the player to move by default).

        ``seat`` is who challenges, what the call is about, so it stays the first argument, as
        in :meth:`resign` or :meth:`view`; the seat that only qualifies a move (:meth:`play`,
        :meth:`evaluate`, :meth:`legal_moves`) is keyword-only.

        All its words are judged together. If any is not in the lexicon the play is
        taken back and scores 0; otherwise the challenge rule decides the cost.

        ``bonus``: under a rule that gives the challenged player points for an unsuccessful
        challenge (five- or ten-point), the points given, when a game record says what they
        were (online records mix 5 and 10 in one game, or give 5 a word): a positive multiple
        of 5, at most 10 a word of the play. Default: the rule's.

        Returns the score sheet line of the outcome. Raises :class:`~qiza.errors.RuleError`
        when no play is open to challenge (or the rule checks plays at once), for a challenge of
        one's own play or a bonus no rule gives, :class:`~qiza.errors.GameOverError` once the
        game is over.
        """
        if self.over:
            raise GameOverError("the game is over")
        seat = self.to_move if seat is None else seat
        self._check_seat(seat)
        self._check_in(seat)
        if bonus is not None and type(bonus) is not int:
            raise TypeError(f"a challenge bonus is a whole number of points, not {quoted(bonus)}")
        pending = self._pending
        if bonus is not None and pending is not None:
            words = max(1, len(pending.evaluation.words))
            if not self.rules.challenge.failed_challenge_bonus:
                raise RuleError(f"the {self.rules.challenge.value} rule gives no challenge bonus")
            if bonus <= 0 or bonus % 5 or bonus > 10 * words:
                raise RuleError(f"a challenge bonus of {bonus} is not one a rule gives (5 or 10 points, "
                                f"or 5 or 10 for each of the play's {words} word{'s' if words != 1 else ''})")
        if pending is None:
            raise RuleError("there is no play to challenge" if not self.rules.challenge.checks_at_once
                            else f"plays are checked at once under the {self.rules.challenge.value} rule")
        if seat == pending.seat:
            raise RuleError("a player cannot challenge their own play")
        invalid = self.invalid_words(pending.evaluation)
        self._pending = None
        self.actions.append((seat, "challenge" if bonus is None else f"challenge {bonus}"))
        tile_set = self.rules.tile_set
        if invalid:
            played = self.history[pending.record] = dataclasses.replace(self.history[pending.record],
                                                                        challenged_off=True)
            placed = [BLANK if is_blank(self.board[square]) else self.board[square] for square in played.squares]
            for square in played.squares:
                self.board.set(square, 0)
            self._take_back(pending, placed)
            self.scores[pending.seat] -= pending.evaluation.score
            record = Record(pending.seat, Kind.PHONY_REMOVED, tile_set.text(pending.rack_before),
                            -pending.evaluation.score, self.scores[pending.seat], None,
                            played.notation, tuple(invalid), note=f"challenged by {self.players[seat]}: "
                            + _phony_message(invalid, self.lexicon.name))
            self.history.append(record)
            self._check_scoreless_end()
            return record
        rule = self.rules.challenge
        bonus = rule.failed_challenge_bonus if bonus is None else bonus
        if bonus:
            self.scores[pending.seat] += bonus
            record = Record(pending.seat, Kind.CHALLENGE_BONUS, self.rack_text(pending.seat), bonus,
                            self.scores[pending.seat], None, "challenge",
                            note=f"unsuccessful challenge by {self.players[seat]}")
            self.history.append(record)
            if self._reached_finish_line(pending.seat):
                pending.ends_game = EndReason.FINISH_LINE  # the bonus took the player over the line
        elif rule.failed_challenge_loses_turn:
            if seat == self.to_move:
                record = Record(seat, Kind.FAILED_CHALLENGE, self.rack_text(seat), 0, self.scores[seat],
                                Challenge(), "challenge", note="unsuccessful challenge: turn lost")
                self.history.append(record)
                self._advance()
            else:
                self._skip_next.add(seat)
                record = Record(seat, Kind.FAILED_CHALLENGE, self.rack_text(seat), 0, self.scores[seat],
                                Challenge(), "challenge", note="unsuccessful challenge: next turn lost",
                                takes_turn=False)
                self.history.append(record)
        else:
            record = Record(seat, Kind.FAILED_CHALLENGE, self.rack_text(seat), 0, self.scores[seat],
                            Challenge(), "challenge", note="unsuccessful challenge (no penalty)",
                            takes_turn=False)
            self.history.append(record)
        ends = pending.ends_game
        if ends is not None:
            self._finish(ends, pending.seat)
        elif rule.failed_challenge_loses_turn:
            self._check_scoreless_end()
        return record

    def _take_back(self, pending: _Pending, placed: list[Tile]) -> None:
        """Give the player of a play challenged off the rack they held before it (``placed``: its
        tiles, taken off the board). The tiles drawn after the play go back to the bag; when the
        rack was changed meanwhile (:meth:`set_rack`), the rack goes back to the bag and the tiles
        of the rack before the play come out of it, so that no tile is made or lost."""
        seat = pending.seat
        kept = Counter(pending.rack_before) - Counter(placed)
        if Counter(self.racks[seat]) == kept + Counter(pending.drawn):
            self.bag.extend(pending.drawn)
            self.racks[seat] = list(pending.rack_before)
            return
        self.bag.extend(self.racks[seat])
        from_board = Counter(placed)
        rack: list[Tile] = []
        for tile in pending.rack_before:
            if from_board[tile] > 0:
                from_board[tile] -= 1
            elif tile in self.bag:  # not when another rack holds it now (set_rack again)
                self.bag.remove(tile)
            else:
                continue
            rack.append(tile)
        self.bag.extend(from_board.elements())
        self.racks[seat] = rack

    def penalize(self, seat: int, points: int, note: str = "time penalty") -> Record:
        """Subtract points from a player (a time penalty, as GCG files record).

        ``points``: 0 to :data:`MAX_POINTS` (a penalty takes points away, and a saved game holds
        numbers of at most six digits); others raise :class:`~qiza.errors.RuleError`."""
        self._check_seat(seat)
        if type(points) is not int:
            raise TypeError(f"a penalty is a whole number of points, not {quoted(points)}")
        if not 0 <= points <= MAX_POINTS:
            raise RuleError(f"a penalty takes away 0 to {MAX_POINTS:,} points, not {points:,}"
                            if points >= 0 else f"a penalty takes points away: {points} would give {-points}")
        if not isinstance(note, str):
            raise TypeError(f"a penalty's note is a text, not {quoted(note)}")
        self.scores[seat] -= points
        self.actions.append((seat, f"penalty {points} {note}"))
        record = Record(seat, Kind.TIME_PENALTY, self.rack_text(seat), -points, self.scores[seat], note=note)
        self.history.append(record)
        return record

    def arrange_rack(self, seat: int, order: str) -> None:
        """Reorder a rack (the same tiles in another order, e.g. after a shuffle)."""
        self._check_seat(seat)
        tiles = self._tiles_of(order, "a rack's order")
        if Counter(tiles) != Counter(self.racks[seat]):
            raise IllegalMoveError(f"{quoted(order)} is not a reordering of the rack {self.rack_text(seat)}")
        self.racks[seat] = tiles
        self._log_arrangement(seat, f"arrange {order.upper()}")

    def shuffle_rack(self, seat: int, rng: random.Random | None = None) -> str:
        """Shuffle a rack (with its own random source, so the bag's draws are unaffected)."""
        self._check_seat(seat)
        (rng or random.Random()).shuffle(self.racks[seat])
        self._log_arrangement(seat, f"arrange {self.rack_text(seat)}")
        return self.rack_text(seat)

    def _log_arrangement(self, seat: int, action: str) -> None:
        """Log a rack's new order. Orders a player gives one after another are one action (the
        last order is the one that counts): shuffling at will never fills the log, which a saved
        game holds up to 20000 actions of (past that it could not be resumed)."""
        if self.actions and self.actions[-1][0] == seat and self.actions[-1][1].startswith("arrange "):
            self.actions[-1] = (seat, action)
        else:
            self.actions.append((seat, action))

    def redeal_unseen(self, seat: int, token: int | None = None) -> None:
        """Mix the tiles ``seat`` cannot see with a new random source: after a take-back, the
        tiles drawn next are not the ones that player already saw come out of the bag.

        The other players' racks go back into the bag (except the rack of a play still open to
        challenge, which a successful challenge must restore); the bag is mixed with a random
        source made from the game's seed and ``token`` (a fresh random number by default); each
        of those players then draws as many tiles as they held. The redeal is an entry of
        :attr:`actions` (``redeal TOKEN``), so a saved game replays exactly.
        """
        self._check_seat(seat)
        if self.over:
            raise GameOverError("the game is over")
        if token is None:
            token = random.SystemRandom().randrange(2 ** 63)
        if type(token) is not int:
            raise TypeError(f"a redeal token is a whole number, not {quoted(token)}")
        if token < 0:
            raise RuleError("a redeal token cannot be negative")
        self._check_in(seat)
        keep = {seat} | ({self._pending.seat} if self._pending is not None else set())
        n = len(self.players)
        others = [(seat + offset) % n for offset in range(1, n) if (seat + offset) % n not in keep]
        held = {other: len(self.racks[other]) for other in others}
        for other in others:
            self.bag.extend(self.racks[other])
            self.racks[other] = []
        self.bag.sort()
        self._rng = random.Random(f"{self.seed}/{token}")
        for other in others:
            self.racks[other] = self._draw(held[other])
        self.actions.append((seat, f"redeal {token}"))

    def setup_position(self, rows: Sequence[str], racks: Sequence[str], scores: Sequence[int],
                       to_move: int, scoreless_turns: int = 0) -> None:
        """Start the game from a given position (for analysis, or a position from a CGP string).

        ``rows`` are board rows (``A-Z`` tile, ``a-z`` blank, ``.`` empty); ``racks`` one rack per
        seat (``?`` for a blank); the bag holds the rest of the tiles. Only before the first move.
        The set-up is an entry of :attr:`actions`, so saved games replay it.

        A position after the game's end (a player holds no tiles with the bag empty, or
        ``scoreless_turns`` has reached the count that ends the game) is refused with a
        :class:`~qiza.errors.GameOverError` saying why: its end (who went out, the unplayed-tile
        adjustment) happened before it and is not in it, so no game goes on from it.
        """
        self._setup_position(rows, racks, scores, to_move, scoreless_turns, refuse_ended=True)

    def _setup_position(self, rows: Sequence[str], racks: Sequence[str], scores: Sequence[int], to_move: int,
                        scoreless_turns: int, *, refuse_ended: bool) -> None:
        """:meth:`setup_position`; ``refuse_ended=False`` for a saved game's set-up, saved before
        positions after the end were refused, which loads as it did."""
        if self.over:
            raise GameOverError("the game is over")
        if self.history or self._stack:
            raise RuleError("a position can only be set up before the first move")
        for name, texts in (("rows", rows), ("racks", racks)):
            if isinstance(texts, str) or not isinstance(texts, Sequence) \
                    or not all(isinstance(text, str) for text in texts):
                raise TypeError(f"a position's {name} are a list of texts, not {texts!r:.60}")
        if isinstance(scores, str) or not isinstance(scores, Sequence) \
                or not all(type(score) is int for score in scores):
            raise TypeError(f"a position's scores are a list of whole numbers, not {scores!r:.60}")
        if type(scoreless_turns) is not int:
            raise TypeError(f"scoreless turns are a whole number, not {quoted(scoreless_turns)}")
        if len(racks) != len(self.players) or len(scores) != len(self.players):
            raise RuleError(f"a position for {len(self.players)} players needs {len(self.players)} racks and scores")
        self._check_seat(to_move)
        if not 0 <= scoreless_turns <= MAX_POINTS:
            raise RuleError(f"scoreless turns are 0 to {MAX_POINTS:,}, not {scoreless_turns:,}")
        if any(abs(score) > MAX_POINTS for score in scores):
            raise RuleError(f"scores are whole numbers of at most {MAX_POINTS:,} points either way, not "
                            f"{max(scores, key=abs):,}")
        tile_set = self.rules.tile_set
        try:
            board = Board.from_rows(rows, self.rules.layout, tile_set)
            rack_tiles = [tile_set.codes(rack.upper()) for rack in racks]
        except ValueError as exc:
            raise MoveSyntaxError(str(exc)) from None
        for seat, tiles in enumerate(rack_tiles):
            if len(tiles) > self.rules.rack_size:
                raise RuleError(f"rack {quoted(racks[seat])} holds more than {self.rules.rack_size} tiles")
        pool = Counter(tile_set.full_bag())
        used = Counter(BLANK if is_blank(t) else t for t in board.cells if t)
        for tiles in rack_tiles:
            used.update(tiles)
        over = used - pool
        if over:
            extra = tile_set.text(sorted(over.elements()))
            raise RuleError(f"the board and racks hold more {extra} tiles than the {tile_set.name} set has")
        bag = sorted((pool - used).elements())
        ended = self._ended_position(rack_tiles, bag, scoreless_turns) if refuse_ended else None
        if ended is not None:
            raise GameOverError(f"the game is over ({ended})")
        self.board = board
        self.racks = rack_tiles
        self.bag = bag
        self.scores = list(scores)
        self.to_move = to_move
        self._initial_scoreless = scoreless_turns
        data = {"rows": board.rows_text(), "racks": [tile_set.text(r) for r in rack_tiles],
                "scores": self.scores, "to_move": to_move, "scoreless_turns": scoreless_turns}
        self.actions.append((to_move, "setup " + json.dumps(data, separators=(",", ":"))))

    def _ended_position(self, racks: Sequence[Sequence[Tile]], bag: Sequence[Tile], scoreless_turns: int) -> str | None:
        """Why a position with these racks, bag and scoreless turns in a row is after the game's
        end (as the end of a turn would find it), or None."""
        out = next((seat for seat, rack in enumerate(racks) if not rack), None)
        if out is not None and not bag:
            return f"{self.players[out]} has no tiles and the bag is empty"
        limit = self.rules.scoreless_turns * len(self.players)
        if self.rules.end_rule is EndRule.SCORELESS_TURNS and scoreless_turns >= limit:
            return f"{scoreless_turns} scoreless turn{'s' if scoreless_turns != 1 else ''} in a row: the rules end the game at {limit}"
        return None

    def set_rack(self, seat: int, rack: str) -> None:
        """Give a player exactly these tiles, swapping with the bag (for game records and analysis).

        Raises if the bag and the player's rack together do not hold the tiles, or if they are
        more than a rack holds, and once the game is over (its racks have been counted).
        """
        self._check_seat(seat)
        if self.over:
            raise GameOverError("the game is over")
        wanted = self._tiles_of(rack, "a rack")
        tile_set = self.rules.tile_set
        if len(wanted) > self.rules.rack_size:
            raise RuleError(f"rack {rack.upper()}: {len(wanted)} tiles; a rack holds at most {self.rules.rack_size}")
        if wanted:
            self._check_in(seat)  # a player out of the game holds no tiles
        pool = Counter(self.bag) + Counter(self.racks[seat])
        need = Counter(wanted)
        missing = need - pool
        if missing:
            raise RuleError(f"rack {rack.upper()}: {tile_set.text(sorted(missing.elements()))} "
                            "not in the bag")
        pool -= need
        self.racks[seat] = wanted
        self.bag = sorted(pool.elements())
        self.actions.append((seat, f"rack {rack.upper()}"))

    # -- turns and the end ---------------------------------------------------------------
    def _advance(self) -> None:
        """The turn goes to the next player still in the game (turns lost to a failed challenge
        are written and passed over; players out of the game are passed over)."""
        n = len(self.players)
        gone = self.out
        self.to_move = (self.to_move + 1) % n
        while self.to_move in self._skip_next or self.to_move in gone:
            seat = self.to_move
            if seat not in gone:
                self._skip_next.discard(seat)
                self.history.append(Record(seat, Kind.LOST_TURN, self.rack_text(seat), 0, self.scores[seat],
                                           None, "lost turn", note="turn lost to a failed challenge"))
            self.to_move = (self.to_move + 1) % n

    def scoreless_streak(self) -> int:
        """Scoreless turns in a row at the end of the game so far, counting the turns of the
        players still in the game (a scoring play by anyone ends the run)."""
        streak = 0
        gone = self.out
        for record in reversed(self.history):
            if not record.is_turn:
                continue
            if record.kind is Kind.PLACE and not record.challenged_off and record.score != 0:
                return streak
            streak += record.seat not in gone
        return streak + self._initial_scoreless

    def pass_streak(self) -> int:
        """Passes in a row at the end of the game so far, counting the turns of the players
        still in the game (any other turn ends the run)."""
        streak = 0
        gone = self.out
        for record in reversed(self.history):
            if not record.is_turn:
                continue
            if record.kind is not Kind.PASS:
                break
            streak += record.seat not in gone
        return streak

    def _scoreless_end(self) -> EndReason | None:
        """The end rule the turns so far meet: every player still in has had their scoreless
        turns or passes in a row."""
        n = len(self.seats_in)
        if self.rules.end_rule is EndRule.SCORELESS_TURNS:
            if self.scoreless_streak() >= self.rules.scoreless_turns * n:
                return EndReason.SCORELESS
        elif self.pass_streak() >= self.rules.passes * n:
            return EndReason.PASSES
        return None

    def _check_scoreless_end(self) -> None:
        if self.over or self._pending is not None:
            return
        reason = self._scoreless_end()
        if reason is not None:
            self._finish(reason)

    def _nobody_can_play(self) -> bool:
        try:
            from qiza.analysis import has_placement
        except ImportError:  # pragma: no cover - move generation not available
            return False
        return not any(has_placement(self, seat) for seat in self.seats_in)

    def _finish(self, reason: EndReason, seat: int | None = None) -> None:
        self._pending = None
        self._scores_before_end = list(self.scores)
        self.end_reason = reason
        if reason is EndReason.FINISH_LINE:
            return
        tile_set = self.rules.tile_set
        # the players still in: those out of the game hold no tiles and their scores stay
        values = {s: tile_set.rack_value(self.racks[s]) for s in self.seats_in}
        if reason is EndReason.WENT_OUT and seat is not None:
            others = sum(v for s, v in values.items() if s != seat)
            double = self.rules.end_points is EndPoints.DOUBLE
            if not double:
                for other, value in values.items():
                    if other != seat:
                        self._end_record(other, Kind.END_RACK_PENALTY, -value)
            self._end_record(seat, Kind.END_RACK_BONUS, others * (2 if double else 1))
        else:
            for other, value in values.items():
                self._end_record(other, Kind.END_RACK_PENALTY, -value)

    def _end_record(self, seat: int, kind: Kind, points: int) -> None:
        self.scores[seat] += points
        if kind is Kind.END_RACK_BONUS:
            tiles = "".join(self.rack_text(s) for s in range(len(self.players)) if s != seat)
        else:
            tiles = self.rack_text(seat)
        self.history.append(Record(seat, kind, self.rack_text(seat), points, self.scores[seat], None,
                                   f"({tiles})" if tiles else "", note=kind.value))

    def resign(self, seat: int, reason: EndReason = EndReason.RESIGNED, *, end_game: bool = False) -> None:
        """The player in ``seat`` loses: they resign, or (``reason``) :attr:`EndReason.TIME` lost
        on time or :attr:`EndReason.ABANDONED` left the game, which a server decides for them.

        While at least two other players are still in the game, the player is out of it and the
        others play on (:meth:`withdraw`). Otherwise (two players, or the last two of three or
        four) the game ends at once: the player is ranked last, the others by score (unplayed
        tiles not counted). ``end_game``: end the game for everyone in any case (what the
        ``resign`` action of a saved game does, as qiza did before players could withdraw).
        """
        self._check_forfeit(seat, reason)
        if not end_game and len(self.seats_in) > 2:
            self.withdraw(seat, reason)
            return
        self._resigned = seat
        self._out.append((seat, reason))
        self.actions.append((seat, "resign" + FORFEIT_ACTIONS[reason]))
        self._pending = None
        self._scores_before_end = list(self.scores)
        self.end_reason = reason

    def withdraw(self, seat: int, reason: EndReason = EndReason.RESIGNED) -> Record:
        """Take the player in ``seat`` out of a game that at least two others play on
        (``reason`` as for :meth:`resign`, which calls this when it can). Returns the score
        sheet line (:attr:`Kind.RESIGNED`, not a turn).

        Their rack goes back into the bag and their score stays as it is; their turns are passed
        over and they can no longer move, challenge or resign. When it was their turn, the next
        player still in moves. A play of another player open to challenge stays open (to the
        players still in); a play of theirs open to challenge stands, but does not end the game
        (a player out of the game neither goes out nor reaches the Finish Line). The scoreless
        turns that end a game count the players still in from then on.
        """
        self._check_forfeit(seat, reason)
        if len(self.seats_in) <= 2:
            raise RuleError(f"{self.players[seat]} cannot leave a game that fewer than two others play on: "
                            "resigning ends it")
        if self._pending is not None and self._pending.seat == seat:
            self._pending = None  # their play stands; it no longer ends the game
        words = FORFEIT_WORDS[reason]
        record = Record(seat, Kind.RESIGNED, self.rack_text(seat), 0, self.scores[seat], None, words,
                        note="out of the game, the others play on")
        self.history.append(record)
        self.bag.extend(self.racks[seat])
        self.racks[seat] = []
        self._skip_next.discard(seat)
        self._out.append((seat, reason))
        self.actions.append((seat, "withdraw" + FORFEIT_ACTIONS[reason]))
        if self.to_move == seat:
            self._advance()
        self._check_scoreless_end()  # fewer players: the scoreless turns so far may be enough now
        return record

    def _check_forfeit(self, seat: int, reason: EndReason) -> None:
        self._check_seat(seat)
        if not isinstance(reason, EndReason):
            raise TypeError(f"a reason to lose is an EndReason, not {quoted(reason)}")
        if reason not in FORFEITS:
            raise ValueError(f"a game is lost by resigning, on time or by leaving it, not because {reason.value}")
        if self.over:
            raise GameOverError("the game is over")
        self._check_in(seat)

    @property
    def winners(self) -> list[int]:
        """Seats of the winners (more than one when the win is shared); empty before the end.
        A list, as :attr:`GameResult.winners <qiza.players.selfplay.GameResult.winners>`
        (``game.winners()``, the method it was, still gives it for one release, with a
        :class:`DeprecationWarning`).

        Highest final score wins; a tie goes to the higher score before the unplayed-tile
        adjustment; if still tied, the win is shared. Under Finish Line the player who reached
        the target wins.
        """
        return CallableList(self._winners(), name="Game.winners")

    def _winners(self) -> list[int]:
        if not self.over:
            return []
        seats = self.seats_in  # never a player who resigned, lost on time or left
        if self.end_reason is EndReason.FINISH_LINE:
            # the player whose play (or its challenge bonus) reached the target, whatever was
            # written after the end (time penalties)
            for record in reversed(self.history):
                if record.kind in (Kind.PLACE, Kind.CHALLENGE_BONUS) and not record.challenged_off:
                    return [record.seat]
        best = max(self.scores[s] for s in seats)
        tied = [s for s in seats if self.scores[s] == best]
        if len(tied) > 1 and self._scores_before_end is not None:
            before = self._scores_before_end
            top = max(before[s] for s in tied)
            tied = [s for s in tied if before[s] == top]
        return tied

    @property
    def places(self) -> list[int]:
        """Each seat's final place (1 = first; empty before the end). The winners are first,
        then the other players still in by score (equal scores: by the score before the
        unplayed-tile adjustment, as for the first place; equal both ways share a place); then the players
        out of the game (resigned, lost on time, left), whatever their scores: the later a
        player left, the better their place (the player whose forfeit ended the game is ahead of
        those who left before). A list, as :attr:`winners` (``game.places()``, the method it
        was, still gives it for one release, with a :class:`DeprecationWarning`)."""
        return CallableList(self._places(), name="Game.places")

    def _places(self) -> list[int]:
        if not self.over:
            return []
        winners = set(self.winners)
        order = self.out
        # equal final scores: the higher score before the unplayed-tile adjustment is placed
        # higher, as it wins a tie for the first place (the rule book's tie-break)
        before = self._scores_before_end if self._scores_before_end is not None else self.scores
        keys = [(len(order) - order.index(seat) if seat in order else 0, seat not in winners, -self.scores[seat],
                 -before[seat]) for seat in range(len(self.players))]
        return [1 + sum(1 for other in keys if other < key) for key in keys]

    @property
    def standings(self) -> list[int]:
        """The seats in their final order, first place first (seats sharing a place in seat
        order); empty before the end. See :attr:`places`. A list, as :attr:`winners`
        (``game.standings()``, the method it was, still gives it for one release, with a
        :class:`DeprecationWarning`)."""
        places = self._places()
        return CallableList(sorted(range(len(places)), key=lambda seat: (places[seat], seat)),
                            name="Game.standings")

    def ended_by(self) -> int | None:
        """The seat whose action ended the game: the player who went out, resigned or reached
        the Finish Line target (``None`` before the end and when nobody did, e.g. after
        scoreless turns)."""
        if self.end_reason in FORFEITS:
            return self._resigned
        if self.end_reason is EndReason.FINISH_LINE:
            winners = self.winners
            return winners[0] if winners else None
        if self.end_reason is EndReason.WENT_OUT:
            for record in reversed(self.history):
                if record.kind is Kind.END_RACK_BONUS:
                    return record.seat
        return None

    def end_words(self) -> str | None:
        """Why the game ended, in words, with the counts this game's rules set: the
        :attr:`end_reason` sentence, but ``every player had one scoreless turn in a row`` under
        ``scoreless_turns=1`` where the member says three (``None`` before the end). The member
        stays the stable name of the reason (in the web's views and saved games); this is what a
        front end shows."""
        reason = self.end_reason
        if reason is EndReason.SCORELESS and self.rules.scoreless_turns != 3:
            count = self.rules.scoreless_turns
            return f"every player had {_count_words(count)} scoreless turn{'s' if count != 1 else ''} in a row"
        if reason is EndReason.PASSES and self.rules.passes != 2:
            count = self.rules.passes
            return f"every player passed {'once' if count == 1 else _count_words(count) + ' times'} in a row"
        return None if reason is None else reason.value

    def scores_before_end(self) -> list[int] | None:
        """Scores before the unplayed-tile adjustment (``None`` before the end)."""
        return list(self._scores_before_end) if self._scores_before_end is not None else None

    # -- making and unmaking moves ------------------------------------------------------------
    def _snapshot(self) -> _State:
        return _State(self.board.copy(), [list(r) for r in self.racks], list(self.bag),
                      self._rng.getstate(), list(self.scores), self.to_move,
                      list(self.history), copy.copy(self._pending),
                      set(self._skip_next), self.end_reason,
                      list(self._scores_before_end) if self._scores_before_end else None,
                      list(self.actions), self._resigned, list(self._out))

    def push(self, move: Move | str) -> Record:
        """Make a move, remembering the position so that :meth:`pop` can take it back.

        Returns the score sheet line and raises as :meth:`play` does (a refused move is not
        remembered)."""
        state = self._snapshot()
        record = self.play(move)
        self._stack.append(state)
        return record

    def pop(self) -> Record:
        """Take back the last move made with :meth:`push`; returns its score sheet line
        (:class:`~qiza.errors.RuleError` when no pushed move is left).

        The game returns to the position just before that push: moves made since with
        :meth:`play` (a computer's reply, a challenge) are taken back with it."""
        if not self._stack:
            raise RuleError("no move to take back")
        state = self._stack.pop()
        undone = self.history[len(state.history)] if len(self.history) > len(state.history) else self.history[-1]
        self.board = state.board
        self.racks = state.racks
        self.bag = state.bag
        self._rng.setstate(state.rng_state)
        self.scores = state.scores
        self.to_move = state.to_move
        self.history = state.history
        self._pending = state.pending
        self._skip_next = state.skip_next
        self.end_reason = state.end_reason
        self._scores_before_end = state.scores_before_end
        self.actions = state.actions
        self._resigned = state.resigned
        self._out = state.out
        return undone

    def copy(self) -> Game:
        """An independent copy of the game (sharing the immutable rules and lexicon), without
        the moves :meth:`pop` could take back. ``copy.copy`` and ``copy.deepcopy`` make the same."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        state = self._snapshot()
        clone._rng = random.Random()
        clone._rng.setstate(state.rng_state)
        clone.board, clone.racks, clone.bag = state.board, state.racks, state.bag
        clone.scores, clone.history = state.scores, state.history
        clone._pending, clone._skip_next = state.pending, state.skip_next
        clone._scores_before_end = state.scores_before_end
        clone.actions = state.actions
        clone._out = state.out
        clone.players = list(self.players)
        clone.first_draws = list(self.first_draws)
        clone._stack = []
        return clone

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()  # the rules and the lexicon are immutable: shared, not copied

    def tile_total(self) -> int:
        """Tiles on the board, on racks and in the bag (always the full set)."""
        return self.board.tile_count() + len(self.bag) + sum(len(r) for r in self.racks)

    def _repr_svg_(self) -> str:
        """The board with the last play highlighted, as SVG (pictures in notebooks); see :mod:`qiza.svg`."""
        from qiza.svg import game_svg

        return game_svg(self)

    def __repr__(self) -> str:
        state = f"over: {self.end_reason.value}" if self.end_reason else f"{self.players[self.to_move]} to move"
        return f"<Game {self.rules.name} {self.players} scores {self.scores}, {state}>"

def _phony_message(words: list[str], lexicon: str) -> str:
    if len(words) == 1:
        return f"{words[0]} is not in {lexicon}"
    return f"{', '.join(words[:-1])} and {words[-1]} are not in {lexicon}"


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count_words(count: int) -> str:
    """A count as the sentences of :class:`EndReason` say it: in words up to ten."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else f"{count:,}"


from qiza.actions import apply_action, game_from_actions  # noqa: E402  (they build on Game: imported once it exists)
