"""The static engines: max-score, static evaluation (score + leave + adjustments) and the
weaker levels built on them.

Every player here sees only a :class:`~qiza.game.PlayerView` (board, own rack, unseen
tiles, scores, bag count, rules) and its own lexicon.
"""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from qiza.analysis import Candidate, board_array, counts_text, generator, rack_counts, to_place
from qiza.deprecation import renamed
from qiza.errors import RuleError
from qiza.game import Kind, PlayerView, Record
from qiza.move import Exchange, Move, Pass
from qiza.movegen import O_WIDTH, GeneratedMove, MoveGenerator, MoveList, kind_values
from qiza.movegen_ties import decode_rows
from qiza.players.leaves import LETTERS, LeaveModel, RackLeaves, model_for_tile_set, vowel_codes
from qiza.players.static_ties import exchange_choice
from qiza.rules import ChallengeRule, Rules, allows_exchange
from qiza.ties import TIE, first_in_tie_order, in_tie_order, tie_order

if TYPE_CHECKING:
    from qiza.alphabet import TileSet
    from qiza.layout import Layout
    from qiza.lexicon import Lexicon

_VOWEL_MASKS: dict[tuple[str, ...], np.ndarray] = {}


def vowel_mask(tile_set: TileSet) -> np.ndarray:
    """A mask over letter codes (64 entries) of the tile set's vowels (A E I O U for English)."""
    mask = _VOWEL_MASKS.get(tile_set.letters)
    if mask is None:
        mask = np.zeros(64, bool)
        mask[list(vowel_codes(tile_set.letters))] = True
        _VOWEL_MASKS[tile_set.letters] = mask
    return mask


def tile_values_of(rules: Rules) -> np.ndarray:
    """The face value of each tile kind of the rules' tile set (index 0 the blank, 0)."""
    return kind_values(rules.tile_set.values, rules.tile_set.size).astype(np.int64)


@dataclass(frozen=True)
class Option:
    """A move considered by an engine with its equity (score plus valuation)."""

    move: Move
    score: int
    leave: str
    equity: float
    tiles_placed: int = 0
    word: str = ""


def option_candidate(option: Option) -> Candidate:
    """An :class:`Option` placement as an :class:`~qiza.analysis.Candidate`."""
    from qiza.move import Place

    if not isinstance(option.move, Place):
        raise TypeError("not a placement")
    return Candidate(option.move, option.score, option.leave, option.tiles_placed, option.equity, option.word)


def _accepting_game_end(choose: Callable[[Any, PlayerView], Move]) -> Callable[[Any, PlayerView], Move]:
    """``choose`` that passes (accepts) when the previous play ends the game and is open to
    challenge: no placement or exchange is allowed then (whether to challenge is
    :meth:`BasePlayer.wants_challenge`'s question, asked before). What is not one player's view
    (the game itself, a spectator's view) is refused here, not deep inside an engine."""

    @functools.wraps(choose)
    def wrapper(self: Any, view: PlayerView) -> Move:
        if not isinstance(view, PlayerView):
            raise TypeError(f"a player chooses from its view, game.view(seat), not {type(view).__name__} "
                            f"{view!r:.60}")
        if view.seat is None:
            raise RuleError("a spectator's view has no rack to play from: give the view of the player "
                            "to move, game.view(game.to_move)")
        if view.pending_ends_game:
            return Pass()
        return choose(self, view)

    wrapper._accepts_game_end = True  # type: ignore[attr-defined]
    return wrapper


class BasePlayer:
    """Shared plumbing: generator per rules, challenge decisions, exchanges and passes.

    A subclass's :meth:`choose` is wrapped (when the class is made) so that it passes while the
    previous play ends the game and is open to challenge (``view.pending_ends_game``): only a
    challenge or a pass is allowed then, and the challenge is :meth:`wants_challenge`'s to make.
    """

    name: str = "engine"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 graph: np.ndarray | None = None, vocabulary: Lexicon | None = None) -> None:
        self.lexicon = lexicon
        if name:
            self.name = name
        self.rng = random.Random(seed)
        self.graph = graph
        self.vocabulary = vocabulary
        """The words this player plays (None: the lexicon's); it challenges with the lexicon."""

    def reseed(self, seed: int) -> None:
        """Start this player's random choices afresh from ``seed`` (a front end gives each
        decision its own seed, so that a resumed game goes on as it would have)."""
        self.rng.seed(seed)

    def generator(self, rules: Rules) -> MoveGenerator:
        """The move generator for these rules (cached per lexicon and equipment)."""
        return generator(self.vocabulary or self.lexicon, rules, self.graph)

    def wants_challenge(self, view: PlayerView, record: Record) -> bool:
        """Challenge a play only when one of its words is not in this player's lexicon."""
        if not view.can_challenge or view.rules.challenge.checks_at_once:
            return False
        if record.kind is not Kind.PLACE or record.challenged_off or record.seat == view.seat:
            return False
        return bool(self.lexicon.invalid_words(record.words))

    def choose(self, view: PlayerView) -> Move:  # pragma: no cover - overridden
        """The move to make (:class:`~qiza.move.Place`, :class:`~qiza.move.Exchange` or
        :class:`~qiza.move.Pass`) from the player's view alone; each level defines it."""
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("choose")
        if own is not None and not getattr(own, "_accepts_game_end", False):
            cls.choose = _accepting_game_end(own)  # type: ignore[method-assign, assignment]

    def _no_play(self, view: PlayerView, rack: np.ndarray) -> Move:
        """What to do with no placement: exchange everything when allowed, else pass."""
        return self._no_play_counts(rack, view.bag_count, view.rules)

    def _no_play_counts(self, rack: np.ndarray, bag_count: int, rules: Rules) -> Move:
        """:meth:`_no_play` from the rack counts, bag size and rules."""
        if allows_exchange(rules, bag_count) and rack.sum():
            return Exchange(counts_text(rack, rules.tile_set))
        return Pass()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class MaxScorePlayer(BasePlayer):
    """Always the highest-scoring placement; exchanges everything only when it cannot play."""

    name = "maxscore"

    def choose(self, view: PlayerView) -> Move:
        """The highest-scoring placement (of equal ones, the first in :func:`qiza.ties.tie_order`); with
        none, an exchange of the whole rack when the bag allows it, else a pass."""
        rack = rack_counts(view.rack, view.rules.tile_set)
        best = self.generator(view.rules).best(board_array(view.board), rack)
        if best is None:
            return self._no_play(view, rack)
        return to_place(best, view.rules.tile_set)


@dataclass(frozen=True)
class StaticSettings:
    """Tuning of the static evaluation."""

    leave_weight: float = 1.2
    """Learned leave values count 1.2 times (measured against max-score: 1.0, 1.2, 1.4)."""
    opening_vowel_penalty: float = 0.7
    """Points per vowel put where the next player can reach two word premiums through it."""
    out_bonus_factor: float = 2.0
    """Going out with the bag empty earns twice the opponents' tiles (rule book)."""
    stuck_penalty: float = 1.0
    """Per point of tiles kept when the bag is empty and the play does not go out."""
    stuck_constant: float = 2.0
    """Points taken from every play that does not go out when the bag is empty."""
    fade_floor: float = 0.3
    """Share of the leave weight left with an empty bag: below a rack's worth of tiles in the
    bag, leaves count ``fade_floor + (1 - fade_floor) * bag / rack size`` of the full weight."""
    exchange_penalty: float = 0.0
    bingo_draw_bonus: float = 10.0
    """Points per unit of probability that a leave of 5 or 6 letters (no blank) draws to a rack
    that is a seven-letter word (see :class:`BingoOdds`), added to the leave's learned value:
    the pair features cannot see five- and six-letter bingo stems."""
    preendgame_points: float = 0.0
    """With fewer tiles in the bag than a rack, per point of the tiles kept, times the share of
    the rack the bag cannot refill (high tiles risk being stuck when the opponent goes out)."""


def leave_codes(ml: MoveList, leaves: RackLeaves) -> np.ndarray:
    """The code (index into ``leaves``) of the leave of every move of ``ml``."""
    if not len(ml):
        return np.zeros(0, np.int64)
    tiles = ml.tiles
    codes = np.where(tiles & 64, 0, tiles & 63)
    used = np.where(tiles != 0, leaves.radix[codes], 0).sum(axis=1)
    ranks: np.ndarray = leaves.full - used
    return ranks


class BingoOdds:
    """Probability that a leave of 5 or 6 tiles plus random draws from the rest of a full bag
    makes a rack that anagrams to a seven-letter word (blanks as any letter)."""

    def __init__(self, words: Iterable[str], bag: Sequence[int], kinds: int = 27) -> None:
        self.words = [w for w in words if len(w) == 7]
        """The seven-tile words as code strings (``A``-``Z`` for English)."""
        self.bag = np.bincount(np.asarray(list(bag), np.int64), minlength=kinds)
        self._cache: dict[str, float] = {}
        self._sets: tuple[set[str], set[str], set[str], dict[str, set[int]]] | None = None
        self._codes: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._by_rank: dict[int, np.ndarray] = {}
        """Odds already computed, by the size of a full leave table and the leave's rank in it."""

    def probs(self, counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """:meth:`prob` of the blank-free leaves ``counts[rows]`` (27 counts each), compiled
        (:mod:`~qiza.players.bingo_py`, the same numbers, while the compiled code is not ready)."""
        from qiza.coldstart import use_compiled
        from qiza.players import bingo_nb, bingo_py

        if self._codes is None:
            self._codes = bingo_nb.tables(self.words)
        full, one, masks, two = self._codes
        kernel = bingo_nb.leave_probs if use_compiled() else bingo_py.leave_probs  # the same numbers
        probs: np.ndarray = kernel(np.asarray(counts, np.int64), np.asarray(rows, np.int64), self.bag, full, one, masks, two)
        return probs

    def leave_probs(self, leaves: RackLeaves, rows: np.ndarray) -> np.ndarray:
        """:meth:`probs` of the sub-leaves ``rows`` of a rack, remembered by their rank in the
        full leave table (a leave's odds depend on the leave alone: the draws are from a full
        bag), so a leave seen before costs one look-up."""
        ranks = leaves.ranks[rows]
        if not leaves.table_size or (ranks < 0).any():
            return self.probs(leaves.counts, rows)
        known = self._by_rank.get(leaves.table_size)
        if known is None:
            known = self._by_rank[leaves.table_size] = np.full(leaves.table_size, np.nan)
        got: np.ndarray = known[ranks]
        missing = np.isnan(got)
        if missing.any():
            fresh = self.probs(leaves.counts, rows[missing])
            got[missing] = fresh
            known[ranks[missing]] = fresh
        return got

    def _word_sets(self) -> tuple[set[str], set[str], set[str], dict[str, set[int]]]:
        if self._sets is None:
            sevens = {"".join(sorted(w)) for w in self.words}
            one_blank = {a[:i] + a[i + 1:] for a in sevens for i in range(7)}
            two_blanks = {b[:i] + b[i + 1:] for b in one_blank for i in range(6)}
            completions: dict[str, set[int]] = {}
            for a in sevens:
                for i in range(7):
                    completions.setdefault(a[:i] + a[i + 1:], set()).add(LETTERS.index(a[i]))
            self._sets = (sevens, one_blank, two_blanks, completions)
        return self._sets

    def _is_word(self, key: str) -> bool:
        full, one_blank, two_blanks, _ = self._word_sets()
        blanks = key.count("?")
        letters = key.replace("?", "")
        if blanks == 0:
            return letters in full
        if blanks == 1:
            return letters in one_blank
        return letters in two_blanks if blanks == 2 else False

    def prob(self, key: str) -> float:
        """The probability for a leave key (``?AER``); 0 unless it has 5 or 6 tiles.

        Plain Python, one leave at a time: the reference of the compiled :meth:`probs`."""
        got = self._cache.get(key)
        if got is not None:
            return got
        p = 0.0
        if len(key) in (5, 6):
            rest = self.bag.copy()
            for ch in key:
                rest[LETTERS.index(ch)] -= 1
            rest = np.maximum(rest, 0)
            total = int(rest.sum())
            tiles = [t for t in range(27) if rest[t]]
            if len(key) == 6:
                for t in tiles:
                    if self._is_word(_sorted_key(key + LETTERS[t])):
                        p += rest[t] / total
            elif "?" not in key:  # ordered draws t then u, through the completions of key + t
                for t in tiles:
                    first = rest[t] / total
                    if t == 0:
                        for u in tiles:
                            left = rest[u] - (u == 0)
                            if left and self._is_word("".join(sorted(key + "?" + LETTERS[u]))):
                                p += first * left / (total - 1)
                        continue
                    comp = self._word_sets()[3].get("".join(sorted(key + LETTERS[t])))
                    if comp:
                        for u in comp:
                            p += first * (rest[u] - (u == t)) / (total - 1)
                        p += first * rest[0] / (total - 1)  # then a blank
            else:
                pairs = total * (total - 1) / 2
                for i, t in enumerate(tiles):
                    for u in tiles[i:]:
                        ways = rest[t] * (rest[t] - 1) / 2 if t == u else rest[t] * rest[u]
                        if ways and self._is_word(_sorted_key(key + LETTERS[t] + LETTERS[u])):
                            p += ways / pairs
        self._cache[key] = p
        return p


def _sorted_key(text: str) -> str:
    return "".join(sorted(text, key=LETTERS.index))


_ODDS: dict[tuple[str, TileSet], BingoOdds] = {}


def bingo_odds(lexicon: Lexicon, rules: Rules) -> BingoOdds:
    """The cached :class:`BingoOdds` of a lexicon and tile set (keyed by their content, so that
    copies -- e.g. rules unpickled in a worker process for every move -- share one table).
    Any tile set: the words are read as its tiles (:meth:`~qiza.lexicon.Lexicon.code_words`)."""
    key = (lexicon.content_hash, rules.tile_set)
    odds = _ODDS.get(key)
    if odds is None:
        tile_set = rules.tile_set
        odds = _ODDS[key] = BingoOdds(lexicon.code_words_of_length(7, tile_set), tile_set.full_bag(), tile_set.size + 1)
    return odds


def odds_for(lexicon: Lexicon, rules: Rules, settings: StaticSettings) -> BingoOdds | None:
    """The bingo odds a static player adds to leaves: none when the settings give them no weight."""
    if not settings.bingo_draw_bonus:
        return None
    return bingo_odds(lexicon, rules)


def with_bingo_odds(leaves: RackLeaves, settings: StaticSettings, odds: BingoOdds | None) -> RackLeaves:
    """The rack's leaves with :attr:`StaticSettings.bingo_draw_bonus` added (when odds are given)."""
    if odds is None or not settings.bingo_draw_bonus or not leaves.full:
        return leaves
    values = leaves.values.copy()
    blanks = leaves.counts[:, 0] > 0  # the learned blank value already holds its bingo power
    rows = np.flatnonzero(((leaves.sizes == 5) | (leaves.sizes == 6)) & ~blanks)
    if len(rows):
        values[rows] += settings.bingo_draw_bonus * odds.leave_probs(leaves, rows)
    return leaves.with_values(values)


@dataclass
class PlacementEquities:
    """Every placement of a position with its equity, and the rack's sub-leaves (for exchanges):
    what :meth:`StaticPlayer.evaluate` gives (arrays, one entry per placement). Not a
    :class:`qiza.Evaluation`, one placement's words and score; it was called ``Evaluation``
    too (``qiza.players.engine.Evaluation`` still gives it for one release, with a
    :class:`DeprecationWarning`)."""

    moves: MoveList
    """Every placement (the move generator's)."""
    equity: np.ndarray
    """Each placement's equity: its score plus what keeping its leave adds."""
    leave: np.ndarray
    """Code of each move's leave (index into ``leaves``)."""
    leaves: RackLeaves
    """The rack's sub-leaves with their values."""
    rack: np.ndarray
    """The rack, as counts of each tile code."""
    weight: float
    """Weight of leave values in this position (less as the bag runs out)."""


def unseen_points(view: PlayerView) -> float:
    """Face value of the tiles the player of ``view`` cannot see once the bag is empty (what
    going out earns); 0.0 while the bag has tiles (the end-of-game terms do not apply)."""
    rules = view.rules
    return float(rack_counts(view.unseen, rules.tile_set).dot(tile_values_of(rules))) if view.bag_count == 0 else 0.0


def leave_weight(settings: StaticSettings, rules: Rules, bag_count: int) -> float:
    """How much leave values count: less as the bag runs out."""
    rack_size = rules.rack_size
    floor = settings.fade_floor
    return settings.leave_weight * (1.0 if bag_count >= rack_size else floor + (1.0 - floor) * bag_count / rack_size)


def leave_equities(leaves: RackLeaves, settings: StaticSettings, rules: Rules, bag_count: int,
                   unseen_points: float) -> np.ndarray:
    """What keeping each sub-leave of the rack adds to a play's score (indexed like ``leaves``):
    the weighted leave value; with few tiles in the bag, minus the pre-endgame points of the
    tiles kept; with the bag empty, the going-out bonus for keeping nothing and the stuck-tile
    penalty otherwise."""
    s = settings
    rack_size = rules.rack_size
    if bag_count == 0 or (bag_count < rack_size and s.preendgame_points):
        leave_points = leaves.counts @ tile_values_of(rules)
        if bag_count == 0:
            out = np.arange(len(leave_points)) == 0
            ends: np.ndarray = np.where(out, s.out_bonus_factor * unseen_points,
                                        -s.stuck_penalty * leave_points - s.stuck_constant)
            return ends
        near_end: np.ndarray = (leave_weight(s, rules, bag_count) * leaves.values
                                - s.preendgame_points * (1.0 - bag_count / rack_size) * leave_points)
        return near_end
    return leave_weight(s, rules, bag_count) * leaves.values


def evaluate_position(gen: MoveGenerator, model: LeaveModel, settings: StaticSettings, rules: Rules,
                      board: np.ndarray, rack: np.ndarray, bag_count: int, unseen_points: float,
                      hot: np.ndarray | None = None, odds: BingoOdds | None = None) -> PlacementEquities:
    """The static evaluation of every placement (arrays in, arrays out; see :class:`StaticPlayer`).

    ``unseen_points``: face value of the tiles this player cannot see (for going out when the
    bag is empty); ``hot``: squares where a vowel on the opening play is penalised (None: no
    opening adjustment).
    """
    ml = gen.generate(board, rack)
    s = settings
    leaves = with_bingo_odds(model.rack_leaves(rack), s, odds)
    weight = leave_weight(s, rules, bag_count)
    code = leave_codes(ml, leaves)
    equity = ml.score.astype(np.float64) + leave_equities(leaves, s, rules, bag_count, unseen_points)[code]
    if hot is not None and s.opening_vowel_penalty and len(ml):
        size = rules.layout.size
        offsets = np.arange(ml.tiles.shape[1])
        sq = np.where(ml.direction[:, None] == 0, ml.row[:, None] * size + ml.col[:, None] + offsets,
                      (ml.row[:, None] + offsets) * size + ml.col[:, None])
        sq = np.clip(sq, 0, size * size - 1)
        placed = ml.tiles != 0
        vowel_hot = placed & vowel_mask(rules.tile_set)[ml.tiles & 63] & hot[sq] & ((ml.tiles & 64) == 0)
        equity = equity - s.opening_vowel_penalty * vowel_hot.sum(axis=1)
    return PlacementEquities(ml, equity, code, leaves, rack, weight)


def exchange_equities(ev: PlacementEquities, settings: StaticSettings, bag_count: int,
                      exchange_limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Leave codes of the allowed exchanges (the tiles kept) and their equities."""
    return exchange_equities_of(ev.leaves, settings, bag_count, exchange_limit)


def exchange_equities_of(leaves: RackLeaves, settings: StaticSettings, bag_count: int,
                         exchange_limit: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`exchange_equities` from the rack's sub-leaves alone."""
    if bag_count < max(exchange_limit, 1) or leaves.full == 0:
        return np.zeros(0, np.int64), np.zeros(0)
    kept = np.arange(leaves.full)  # every leave but the whole rack
    given = leaves.sizes[leaves.full] - leaves.sizes[kept]
    kept = kept[given <= bag_count]
    return kept, leaves.values[kept] * settings.leave_weight - settings.exchange_penalty


def static_decision(gen: MoveGenerator, board: np.ndarray, rack: np.ndarray, leaves: RackLeaves,
                    per_code: np.ndarray, settings: StaticSettings, rules: Rules,
                    bag_count: int) -> tuple[GeneratedMove | None, int]:
    """The static player's decision from arrays, with the placements searched by the best-only
    search (``per_code``: the equity of keeping each sub-leave of ``leaves``,
    :func:`leave_equities`): ``(placement, -1)``, ``(None, code)`` for the exchange keeping
    sub-leave ``code``, or ``(None, -1)`` when it can do neither. Of plays of the same equity
    (within :data:`~qiza.ties.TIE`), the first by :func:`~qiza.ties.tie_order`: placements before
    exchanges (:func:`~qiza.players.static_ties.exchange_choice`)."""
    found = gen.best(board, rack, sub_leaves=(leaves.radix, per_code, leaves.sizes))
    placement = -np.inf
    if found is not None and found.equity is not None:
        placement = found.equity
    else:
        found = None
    kept, equity = exchange_equities_of(leaves, settings, bag_count, rules.exchange_limit)
    code = exchange_choice(leaves, rack, kept, equity, rules.tile_set, placement)
    return (None, code) if code >= 0 else (found, -1)


_HOT: dict[tuple[str, int], np.ndarray] = {}


def hot_squares(layout: Layout) -> np.ndarray:
    """Squares of the start square's row and column that open two word premiums at once."""
    key = (layout.name, layout.size)
    hot = _HOT.get(key)
    if hot is None:
        size = layout.size
        wm = np.asarray(layout.word_multipliers()).reshape(size, size)
        hot = np.zeros(size * size, bool)
        for sq in range(size * size):
            r, c = divmod(sq, size)
            for lane, pos in ((wm[:, c], r), (wm[r, :], c)):
                before = any(lane[max(0, pos - 3):pos] > 1)
                after = any(lane[pos + 1:pos + 4] > 1)
                if before and after:
                    hot[sq] = True
        _HOT[key] = hot
    return hot


class StaticPlayer(BasePlayer):
    """Score plus the value of the tiles kept, with opening and end-of-bag adjustments,
    and exchanges when they are worth more than any play."""

    name = "static"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 graph: np.ndarray | None = None, leaves: LeaveModel | None = None,
                 settings: StaticSettings | None = None, vocabulary: Lexicon | None = None) -> None:
        super().__init__(lexicon, name=name, seed=seed, graph=graph, vocabulary=vocabulary)
        #: the leave values (default: the shipped model of the lexicon's tile set)
        self.leaves = leaves or model_for_tile_set(lexicon.tile_set)
        self._own_leaves = leaves is not None
        #: the weights of the equity's terms
        self.settings = settings or StaticSettings()
        self._last_odds: tuple[TileSet, BingoOdds | None] | None = None

    def model_for(self, rules: Rules) -> LeaveModel:
        """The leave values for a game's rules: the model given to the player, else the shipped
        model for the rules' tile set and rack size (8- and 9-tile racks have their own when
        shipped; other languages the feature model of their tile values, see
        :func:`~qiza.players.leaves.model_for_tile_set`)."""
        return self.leaves if self._own_leaves else model_for_tile_set(rules.tile_set, rules.rack_size)

    def _odds(self, rules: Rules) -> BingoOdds | None:
        """:func:`odds_for` this player's lexicon and settings, remembered for the last tile set
        seen (the same object move after move in a game)."""
        last = self._last_odds
        if last is not None and last[0] is rules.tile_set:
            return last[1]
        odds = odds_for(self.lexicon, rules, self.settings)
        self._last_odds = (rules.tile_set, odds)
        return odds

    # -- evaluation of all placements ------------------------------------------------------
    def _hot_squares(self, rules: Rules) -> np.ndarray:
        """Squares where a vowel on the opening play is penalised (see :func:`hot_squares`)."""
        return hot_squares(rules.layout)

    def evaluate(self, view: PlayerView) -> PlacementEquities:
        """The static evaluation of every placement of the view's position."""
        rules = view.rules
        gen = self.generator(rules)
        ts = rules.tile_set
        unseen = unseen_points(view)
        hot = self._hot_squares(rules) if view.board.is_empty() else None
        odds = self._odds(rules)
        return evaluate_position(gen, self.model_for(rules), self.settings, rules,
                                 board_array(view.board), rack_counts(view.rack, ts), view.bag_count, unseen, hot,
                                 odds)

    def evaluate_all(self, view: PlayerView) -> tuple[MoveList, np.ndarray, list[str], np.ndarray]:
        """Every placement, its equity, its leave (as rack text, per move) and rack counts."""
        ev = self.evaluate(view)
        texts = [counts_text(c, view.rules.tile_set) for c in ev.leaves.counts]
        return ev.moves, ev.equity, [texts[i] for i in ev.leave], ev.rack

    def exchange_options(self, view: PlayerView, rack: np.ndarray) -> list[Option]:
        """Every exchange with its equity (the value of the tiles kept), when exchanging is allowed."""
        odds = self._odds(view.rules)
        leaves = with_bingo_odds(self.model_for(view.rules).rack_leaves(rack), self.settings, odds)
        none = MoveList(np.zeros((0, O_WIDTH), np.int32), board_array(view.board), view.rules.layout.size,
                        decode=decode_rows)  # numpy: nothing to compile on a fresh install
        ev = PlacementEquities(none,
                        np.zeros(0), np.zeros(0, np.int64), leaves, rack, self.settings.leave_weight)
        kept, equity = exchange_equities(ev, self.settings, view.bag_count, view.rules.exchange_limit)
        return _exchange_options(ev, kept, equity, view.rules.tile_set)

    def best_options(self, view: PlayerView, within: float) -> list[Option]:
        """Every placement and exchange whose equity is within ``within`` points of the best
        (:meth:`evaluate`'s equity: every placement generated, not the best-only search), in no
        particular order: the plays :meth:`choose` takes one of (the first by
        :func:`~qiza.ties.tie_order` of those within :data:`~qiza.ties.TIE`); none when the
        player can only pass."""
        ev = self.evaluate(view)
        kept, exchange_equity = exchange_equities(ev, self.settings, view.bag_count, view.rules.exchange_limit)
        if not len(ev.moves) and not len(kept):
            return []
        best = max(float(ev.equity.max(initial=-np.inf)), float(exchange_equity.max(initial=-np.inf)))
        ts = view.rules.tile_set
        near = exchange_equity >= best - within
        return ([_placement_option(ev, int(i), ts) for i in np.flatnonzero(ev.equity >= best - within)]
                + _exchange_options(ev, kept[near], exchange_equity[near], ts))

    def choose_evaluated(self, view: PlayerView) -> Move:
        """:meth:`choose` over the full evaluation (every placement generated: :meth:`best_options`),
        not the best-only search: the same move (tested), slower; what the puzzles' games play
        (:class:`~qiza.players.puzzles.PuzzlePlayer`) and ``hard``'s opening (the opening's
        vowel term needs every play)."""
        best = self.best_options(view, TIE)
        if not best:
            return Pass()
        return best[first_in_tie_order([o.move for o in best], [o.equity for o in best])].move

    def pass_option(self, view: PlayerView) -> Option:
        """Passing, valued as the engine values what a placement keeps: no score, and the whole
        rack kept (its leave value, faded as the bag runs out; with the bag empty, the stuck-tile
        penalty of every tile on it). For judging a pass (``qiza analyze``); the engine itself
        passes only when it has no placement and cannot exchange."""
        rules = view.rules
        rack = rack_counts(view.rack, rules.tile_set)  # the rack's sub-leaves only: no move generated
        leaves = with_bingo_odds(self.model_for(rules).rack_leaves(rack), self.settings, self._odds(rules))
        kept = leave_equities(leaves, self.settings, rules, view.bag_count, unseen_points(view))
        full = leaves.full if rack.sum() else 0
        return Option(Pass(), 0, counts_text(rack, rules.tile_set), float(kept[full]))

    def ranked(self, view: PlayerView, top: int | None = None, *, with_exchanges: bool = True) -> list[Option]:
        """The engine's options (placements and exchanges), best equity first, those of the same
        equity in the order of :func:`~qiza.ties.in_tie_order` (not the move generator's): the
        first is the move :meth:`choose` makes, and the list is the same with either generator."""
        ev = self.evaluate(view)
        order = np.argsort(-ev.equity, kind="stable")
        if top is not None and 0 < top < len(order):  # and the plays tied with the last one kept
            order = order[:top + np.count_nonzero(ev.equity[order[top:]] >= ev.equity[order[top - 1]] - TIE)]
        ts = view.rules.tile_set
        options = [_placement_option(ev, int(i), ts) for i in order]
        if with_exchanges:
            options.extend(self.exchange_options(view, ev.rack))
        return in_tie_order(options)[:top]

    def choose(self, view: PlayerView) -> Move:
        """The placement or exchange of the best equity (:attr:`settings`: score, the leave's
        value, the opening and end-of-bag terms); with neither possible, a pass. Of moves of the
        same equity (within :data:`~qiza.ties.TIE`), the first by :func:`~qiza.ties.tie_order`:
        the same move with the compiled move generator and with the Python one of a fresh install."""
        if view.board.is_empty():  # the opening placement term needs every play: the full evaluation
            return self.choose_evaluated(view)
        return self._decide_compiled(view)

    def _decide_compiled(self, view: PlayerView) -> Move:
        """The same decision as :meth:`choose_evaluated`, with the placements searched by the
        best-only search reading the value of every sub-leave (whose equities are the full
        evaluation's, to the last bit: :meth:`~qiza.movegen.MoveGenerator.best`)."""
        rules = view.rules
        gen = self.generator(rules)
        ts = rules.tile_set
        unseen = unseen_points(view)
        odds = self._odds(rules)
        rack = rack_counts(view.rack, ts)
        leaves = with_bingo_odds(self.model_for(rules).rack_leaves(rack), self.settings, odds)
        per_code = leave_equities(leaves, self.settings, rules, view.bag_count, unseen)
        found, kept = static_decision(gen, board_array(view.board), rack, leaves, per_code, self.settings, rules,
                                      view.bag_count)
        if kept >= 0:
            return Exchange(counts_text(rack - leaves.counts[kept], ts))
        if found is None:
            return self._no_play_counts(rack, view.bag_count, rules)
        return to_place(found, ts)


def _placement_option(ev: PlacementEquities, i: int, tile_set: TileSet) -> Option:
    """Placement ``i`` of an evaluation as an :class:`Option`."""
    ml = ev.moves
    move = ml[i]
    return Option(to_place(move, tile_set), int(ml.score[i]), counts_text(ev.leaves.counts[ev.leave[i]], tile_set),
                  float(ev.equity[i]), int(ml.ntiles[i]), move.word)


def _exchange_options(ev: PlacementEquities, kept: np.ndarray, equity: np.ndarray, tile_set: TileSet) -> list[Option]:
    """The exchanges keeping the sub-leaves ``kept`` of an evaluation's rack, of ``equity``, as
    :class:`Option` values."""
    counts = ev.leaves.counts
    return [Option(Exchange(counts_text(ev.rack - counts[k], tile_set)), 0, counts_text(counts[k], tile_set), float(e))
            for k, e in zip(kept, equity)]


class LevelPlayer(StaticPlayer):
    """A weaker player: a smaller vocabulary and a random pick among the better plays.

    ``pick_from`` is the fraction of placements (by the ranking) it picks from at random;
    ``strategy`` ``"score"`` ranks by score alone, ``"equity"`` by the static evaluation.
    """

    def __init__(self, lexicon: Lexicon, *, name: str, seed: int | None = None,
                 graph: np.ndarray | None = None, strategy: str = "score", pick_from: float = 0.0,
                 pick_top: int = 1, leaves: LeaveModel | None = None, vocabulary: Lexicon | None = None) -> None:
        super().__init__(lexicon, name=name, seed=seed, graph=graph, leaves=leaves, vocabulary=vocabulary)
        #: ``"score"`` ranks placements by score alone, ``"equity"`` by the static evaluation
        self.strategy = strategy
        #: the share of the ranked placements a choice is drawn from
        self.pick_from = pick_from
        #: the fewest placements a choice is drawn from
        self.pick_top = pick_top

    def choose(self, view: PlayerView) -> Move:
        """A placement drawn at random among the first ``k`` of the ranking by
        :attr:`strategy` (``k`` the larger of :attr:`pick_top` and :attr:`pick_from` times the
        number of placements), of its vocabulary's words; with no placement, an exchange of the
        whole rack when the bag allows it, else a pass."""
        if self.strategy == "equity":
            ml, equity, _, rack = self.evaluate_all(view)
        else:
            rack = rack_counts(view.rack, view.rules.tile_set)
            ml = self.generator(view.rules).generate(board_array(view.board), rack)
            equity = ml.score.astype(np.float64)
        if not len(ml):
            return self._no_play(view, rack)
        order = np.argsort(-equity, kind="stable")
        k = max(self.pick_top, int(len(order) * self.pick_from))
        k = min(k, len(order))
        pick = self.rng.randrange(k)
        # the plays of the equity drawn in the order of tie_order, not the move generator's (the
        # compiled one and the Python one of a fresh install list them in orders of their own)
        same = np.flatnonzero(np.abs(equity[order] - equity[order[pick]]) <= TIE)  # a run of order
        places = [to_place(ml[int(i)], view.rules.tile_set) for i in order[same]]
        return sorted(places, key=tie_order)[pick - int(same[0])]


# -- vocabulary of the weaker levels -------------------------------------------------------
_VOCAB: dict[tuple[str, int], Lexicon | None] = {}
_WARNED = False


_WORDFREQ_LANGUAGES = {"french": "fr", "german": "de", "spanish": "es", "catalan": "ca", "italian": "it",
                       "dutch": "nl", "polish": "pl"}
"""The ``wordfreq`` language of each tile set's language (English for the others)."""


def vocabulary(lexicon: Lexicon, size: int) -> Lexicon | None:
    """The ``size`` most frequent words of the lexicon's language that are in the lexicon, as a
    lexicon (from the PyPI package ``wordfreq``, the ``levels`` extra; folded as the language's
    lexicon folds letters), or None if that package is missing."""
    global _WARNED
    key = (lexicon.content_hash, size)
    if key in _VOCAB:
        return _VOCAB[key]
    try:
        import wordfreq
    except ImportError:
        if not _WARNED:
            print("qiza: the beginner and easy levels play common words only with the 'wordfreq' "
                  "package (pip install 'qiza[levels]'); using the full lexicon", file=sys.stderr)
            _WARNED = True
        _VOCAB[key] = None
        return None
    from qiza.languages import LANGUAGES
    from qiza.lexicon import Lexicon

    language = LANGUAGES.get(lexicon.name.lower())
    if language is not None:
        top = wordfreq.top_n_list(_WORDFREQ_LANGUAGES.get(language.tile_set_name, "en"), size)
        words = {language.fold(w) for w in top if w.isalpha() and w == w.lower()} & lexicon.words
    else:
        words = {w.upper() for w in wordfreq.top_n_list("en", size) if w.isascii() and w.isalpha()} & lexicon.words
    if not words:
        _VOCAB[key] = None
        return None
    sub = Lexicon(f"{lexicon.name}-top{size}", words, tile_set=lexicon.tile_set)
    _VOCAB[key] = sub
    return sub


def vocabulary_graph(lexicon: Lexicon, size: int) -> np.ndarray | None:
    """The word graph of :func:`vocabulary` (None without ``wordfreq``)."""
    sub = vocabulary(lexicon, size)
    return None if sub is None else sub.gaddag


def challenge_rules_note(rules: Rules) -> str:
    """How computer players handle challenges under these rules (for front ends)."""
    if rules.challenge is ChallengeRule.DOUBLE:
        return "the computer challenges a play only when it knows a word is not valid"
    return "plays are checked by the computer's dictionary"


__all__: Sequence[str] = ["BasePlayer", "MaxScorePlayer", "StaticPlayer", "StaticSettings", "LevelPlayer",
                          "Option", "PlacementEquities", "vocabulary", "vocabulary_graph", "option_candidate"]

if not TYPE_CHECKING:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = renamed(__name__, {"Evaluation": "PlacementEquities"})
