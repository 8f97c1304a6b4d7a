"""The static engines: max-score, static evaluation (score + leave + adjustments) and the
weaker levels built on them.

Every player here sees only a :class:`~qiza.game.PlayerView` (board, own rack, unseen
tiles, scores, bag count, rules) and its own lexicon.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import Candidate, board_array, counts_text, generator, rack_counts, to_place
from qiza.game import Kind, PlayerView, Record
from qiza.move import Exchange, Move, Pass
from qiza.movegen import MoveGenerator, MoveList, exchanges
from qiza.players.leaves import LeaveModel, default_model, leave_key
from qiza.rules import ChallengeRule, Rules

if TYPE_CHECKING:
    from qiza.lexicon import Lexicon

VOWEL_MASK = np.zeros(64, bool)
VOWEL_MASK[[1, 5, 9, 15, 21]] = True


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


class BasePlayer:
    """Shared plumbing: generator per rules, challenge decisions, exchanges and passes."""

    name: str = "engine"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 graph: np.ndarray | None = None) -> None:
        self.lexicon = lexicon
        if name:
            self.name = name
        self.rng = random.Random(seed)
        self.graph = graph

    def generator(self, rules: Rules) -> MoveGenerator:
        """The move generator for these rules (cached per lexicon and equipment)."""
        return generator(self.lexicon, rules, self.graph)

    def wants_challenge(self, view: PlayerView, record: Record) -> bool:
        """Challenge a play only when one of its words is not in this player's lexicon."""
        if not view.can_challenge or view.rules.challenge.checks_at_once:
            return False
        if record.kind is not Kind.PLACE or record.challenged_off or record.seat == view.seat:
            return False
        return bool(self.lexicon.invalid_words(record.words))

    def choose(self, view: PlayerView) -> Move:  # pragma: no cover - overridden
        raise NotImplementedError

    def _no_play(self, view: PlayerView, rack: np.ndarray) -> Move:
        """What to do with no placement: exchange everything when allowed, else pass."""
        if view.bag_count >= max(view.rules.exchange_limit, 1) and rack.sum():
            return Exchange(counts_text(rack))
        return Pass()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class MaxScorePlayer(BasePlayer):
    """Always the highest-scoring placement; exchanges everything only when it cannot play."""

    name = "maxscore"

    def choose(self, view: PlayerView) -> Move:
        rack = rack_counts(view.rack)
        best = self.generator(view.rules).best(board_array(view.board), rack)
        if best is None:
            return self._no_play(view, rack)
        return to_place(best)


@dataclass(frozen=True)
class StaticSettings:
    """Tuning of the static evaluation."""

    leave_weight: float = 1.0
    opening_vowel_penalty: float = 0.7
    """Points per vowel put where the next player can reach two word premiums through it."""
    out_bonus_factor: float = 2.0
    """Going out with the bag empty earns twice the opponents' tiles (rule book)."""
    stuck_penalty: float = 1.0
    """Per point of tiles kept when the bag is empty and the play does not go out."""
    exchange_penalty: float = 0.0


def _used_keys(ml: MoveList) -> tuple[np.ndarray, np.ndarray]:
    """A key per move of the multiset of rack tiles it uses, and the used-tile counts of each move."""
    tiles = ml.tiles
    codes = np.where(tiles & 64, 0, tiles & 63)
    placed = tiles != 0
    sortable = np.where(placed, codes, 31).astype(np.int64)
    sortable.sort(axis=1)
    key = np.zeros(len(ml), np.int64)
    for i in range(min(10, sortable.shape[1])):
        key |= sortable[:, i] << (5 * i)
    return key, codes


class StaticPlayer(BasePlayer):
    """Score plus the value of the tiles kept, with opening and end-of-bag adjustments,
    and exchanges when they are worth more than any play."""

    name = "static"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 graph: np.ndarray | None = None, leaves: LeaveModel | None = None,
                 settings: StaticSettings | None = None) -> None:
        super().__init__(lexicon, name=name, seed=seed, graph=graph)
        self.leaves = leaves or default_model()
        self.settings = settings or StaticSettings()
        self._hot: dict[tuple[str, int], np.ndarray] = {}

    # -- evaluation of all placements ------------------------------------------------------
    def _hot_squares(self, rules: Rules) -> np.ndarray:
        """Squares of the start square's row and column that open two word premiums at once."""
        key = (rules.layout.name, rules.layout.size)
        hot = self._hot.get(key)
        if hot is None:
            size = rules.layout.size
            wm = np.asarray(rules.layout.word_multipliers()).reshape(size, size)
            hot = np.zeros(size * size, bool)
            for sq in range(size * size):
                r, c = divmod(sq, size)
                for lane in (wm[:, c], wm[r, :]):
                    pos = r if lane is wm[:, c] else c
                    before = any(lane[max(0, pos - 3):pos] > 1)
                    after = any(lane[pos + 1:pos + 4] > 1)
                    if before and after:
                        hot[sq] = True
            self._hot[key] = hot
        return hot

    def evaluate_all(self, view: PlayerView) -> tuple[MoveList, np.ndarray, list[str], np.ndarray]:
        """Every placement, its equity, its leave (as rack text, per move) and rack counts."""
        rules = view.rules
        rack = rack_counts(view.rack)
        board = board_array(view.board)
        ml = self.generator(rules).generate(board, rack)
        n = len(ml)
        if n == 0:
            return ml, np.zeros(0), [], rack
        keys, codes = _used_keys(ml)
        uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        placed = ml.tiles != 0
        values = np.zeros(len(uniq))
        leave_texts: list[str] = []
        tile_values = np.zeros(27, np.int64)
        tile_values[1:] = rules.tile_set.values
        leave_points = np.zeros(len(uniq))
        for u, i in enumerate(first):
            used = np.bincount(codes[i][placed[i]], minlength=27)
            left = rack - used
            key = leave_key(left)
            values[u] = self.leaves.value_key(key, left)
            leave_points[u] = float((left * tile_values).sum())
            leave_texts.append(counts_text(left))
        s = self.settings
        score = ml.score.astype(np.float64)
        bag = view.bag_count
        rack_size = rules.rack_size
        if bag == 0:
            unseen_points = float(rack_counts(view.unseen).dot(tile_values))
            out = ml.ntiles == int(rack.sum())
            lp = leave_points[inverse]
            equity = score + np.where(out, s.out_bonus_factor * unseen_points, -s.stuck_penalty * lp - 2.0)
        else:
            weight = s.leave_weight * (1.0 if bag >= rack_size else 0.3 + 0.7 * bag / rack_size)
            equity = score + weight * values[inverse]
        if view.board.is_empty() and s.opening_vowel_penalty:
            hot = self._hot_squares(rules)
            size = rules.layout.size
            offsets = np.arange(ml.tiles.shape[1])
            sq = np.where(ml.direction[:, None] == 0, ml.row[:, None] * size + ml.col[:, None] + offsets,
                          (ml.row[:, None] + offsets) * size + ml.col[:, None])
            sq = np.clip(sq, 0, size * size - 1)
            vowel_hot = placed & VOWEL_MASK[ml.tiles & 63] & hot[sq] & ((ml.tiles & 64) == 0)
            equity = equity - s.opening_vowel_penalty * vowel_hot.sum(axis=1)
        return ml, equity, [leave_texts[i] for i in inverse], rack

    def exchange_options(self, view: PlayerView, rack: np.ndarray) -> list[Option]:
        """Every exchange with its equity (the value of the tiles kept), when exchanging is allowed."""
        if view.bag_count < max(view.rules.exchange_limit, 1):
            return []
        out = []
        for ex in exchanges(rack):
            if int(ex.sum()) > view.bag_count:
                continue
            keep = rack - ex
            value = self.leaves.value(keep) * self.settings.leave_weight - self.settings.exchange_penalty
            out.append(Option(Exchange(counts_text(ex)), 0, counts_text(keep), value))
        return out

    def ranked(self, view: PlayerView, top: int | None = None, *, with_exchanges: bool = True) -> list[Option]:
        """The engine's options (placements and exchanges), best equity first."""
        ml, equity, leaves, rack = self.evaluate_all(view)
        order = np.argsort(-equity, kind="stable")
        if top is not None:
            order = order[:top]
        options = [Option(to_place(ml[int(i)]), int(ml.score[i]), leaves[int(i)], float(equity[i]),
                          int(ml.ntiles[i]), ml[int(i)].word) for i in order]
        if with_exchanges:
            options.extend(self.exchange_options(view, rack))
            options.sort(key=lambda o: -o.equity)
            if top is not None:
                options = options[:top]
        return options

    def choose(self, view: PlayerView) -> Move:
        ml, equity, leaves, rack = self.evaluate_all(view)
        best_move: Move | None = None
        best_equity = -1e9
        if len(ml):
            i = int(np.argmax(equity))
            best_move, best_equity = to_place(ml[i]), float(equity[i])
        for option in self.exchange_options(view, rack):
            if option.equity > best_equity:
                best_move, best_equity = option.move, option.equity
        if best_move is None:
            return self._no_play(view, rack)
        return best_move


class LevelPlayer(StaticPlayer):
    """A weaker player: a smaller vocabulary and a random pick among the better plays.

    ``pick_from`` is the fraction of placements (by the ranking) it picks from at random;
    ``strategy`` ``"score"`` ranks by score alone, ``"equity"`` by the static evaluation.
    """

    def __init__(self, lexicon: Lexicon, *, name: str, seed: int | None = None,
                 graph: np.ndarray | None = None, strategy: str = "score", pick_from: float = 0.0,
                 pick_top: int = 1, leaves: LeaveModel | None = None) -> None:
        super().__init__(lexicon, name=name, seed=seed, graph=graph, leaves=leaves)
        self.strategy = strategy
        self.pick_from = pick_from
        self.pick_top = pick_top

    def choose(self, view: PlayerView) -> Move:
        if self.strategy == "equity":
            ml, equity, _, rack = self.evaluate_all(view)
        else:
            rack = rack_counts(view.rack)
            ml = self.generator(view.rules).generate(board_array(view.board), rack)
            equity = ml.score.astype(np.float64)
        if not len(ml):
            return self._no_play(view, rack)
        order = np.argsort(-equity, kind="stable")
        k = max(self.pick_top, int(len(order) * self.pick_from))
        k = min(k, len(order))
        choice = int(order[self.rng.randrange(k)])
        return to_place(ml[choice])


# -- vocabulary of the weaker levels -------------------------------------------------------
_VOCAB: dict[tuple[int, int], np.ndarray | None] = {}
_WARNED = False


def vocabulary_graph(lexicon: Lexicon, size: int) -> np.ndarray | None:
    """The word graph of the ``size`` most frequent English words that are in the lexicon
    (from the PyPI package ``wordfreq``, the ``levels`` extra), or None if it is missing."""
    global _WARNED
    key = (id(lexicon), size)
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
    from qiza.gaddag import load_or_build
    from qiza.lexicon import user_cache_dir

    words = sorted({w.upper() for w in wordfreq.top_n_list("en", size)
                    if w.isascii() and w.isalpha()} & lexicon.words)
    graph = load_or_build(words, user_cache_dir())
    _VOCAB[key] = graph
    return graph


def challenge_rules_note(rules: Rules) -> str:
    """How computer players handle challenges under these rules (for front ends)."""
    if rules.challenge is ChallengeRule.DOUBLE:
        return "the computer challenges a play only when it knows a word is not valid"
    return "plays are checked by the computer's dictionary"


__all__: Sequence[str] = ["BasePlayer", "MaxScorePlayer", "StaticPlayer", "StaticSettings", "LevelPlayer",
                          "Option", "vocabulary_graph", "option_candidate"]
