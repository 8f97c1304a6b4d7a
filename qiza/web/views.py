"""Games as JSON data: what one seat (or a spectator) may see, score sheet lines and rules."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from qiza.game import Game, Record
from qiza.names import name_key
from qiza.players.leaves import vowel_codes
from qiza.rules import PRESETS, Rules, exchange_refusal
from qiza.sheet import FORFEIT_WORDS
from qiza.web.clocks import Clock
from qiza.web.db import GameRow

#: seconds a player's ask to abort waits for the others' (then it lapses, as a rematch ask does)
ABORT_WAIT = 300.0
#: seconds a player's ask for a rematch waits for the others' (then it lapses)
REMATCH_WAIT = 300.0
#: a game may be aborted before this many turns are played (:attr:`qiza.game.Game.turns_played`)
ABORT_BEFORE_TURNS = 2


def abort_open(row: GameRow, game: Game) -> bool:
    """Whether the game may still be aborted: not over nor aborted, and fewer than
    :data:`ABORT_BEFORE_TURNS` turns played, as the rules count them (a failed challenge that
    does not cost the challenger their turn is none). The page shows Abort from it."""
    return not game.over and not row.settings.get("aborted") and game.turns_played < ABORT_BEFORE_TURNS


def ordered_rack(game: Game, seat: int, order: str | None) -> str:
    """The seat's rack in the order its player chose: the tiles of ``order`` that are still
    on the rack keep their places, and the others (new tiles) follow in the engine's order."""
    if not order:
        return game.rack_text(seat)
    tile_set = game.rules.tile_set
    try:  # tile by tile, not character by character: [CH] is one tile, [R]R two
        wanted = tile_set.codes(order)
    except ValueError:
        return game.rack_text(seat)
    left = list(game.racks[seat])
    placed = []
    for tile in wanted:
        if tile in left:
            left.remove(tile)
            placed.append(tile)
    return tile_set.text(placed + left)


def unique_name(name: str, others: Sequence[str]) -> str:
    """``name`` for a seat taken in a game whose other seats have the names ``others``: numbered
    when another seat has it already ("Ann" beside "Ann": "Ann 2"; "Computer (hard)": "Computer 2
    (hard)"), as the names of a new game are (:func:`qiza.names.distinct_names`), so that the board, the
    score sheet and the records never show two players of one name."""
    taken = {name_key(other) for other in others}
    given, number = name, 2
    head, bracket, tail = name.partition(" (")
    while name_key(given) in taken:
        given = f"{head} {number} ({tail}" if bracket and tail.endswith(")") else f"{name} {number}"
        number += 1
    return given


# -- JSON views ---------------------------------------------------------------------------------


def seat_account(entry: dict[str, Any], name: str) -> str | None:
    """The name of the account that holds a seat (its profile is ``/player/NAME``), or ``None``:
    a guest's seat, a free seat or a computer's. ``name``: the seat's player name, which is the
    account's in the games stored before seats kept it."""
    if not entry.get("user_id"):
        return None
    return str(entry.get("account") or name)


def record_json(record: Record) -> dict[str, Any]:
    """A score sheet line as JSON data, as it is: pass it through
    :func:`~qiza.game.visible_record` for the seat that will see it."""
    return {
        "seat": record.seat, "kind": record.kind.value, "rack": record.rack,
        "score": record.score, "total": record.total, "move": record.notation,
        "words": list(record.words), "squares": list(record.squares), "bingo": record.bingo,
        "challenged_off": record.challenged_off, "note": record.note,
    }


def rules_json(rules: Rules) -> dict[str, Any]:
    """Rules as JSON data, with the board's premium squares and tile values."""
    described = rules.describe()
    described["premiums"] = list(rules.layout.rows)
    described["tile_values"] = dict(zip(rules.tile_set.letters, rules.tile_set.values))
    # the tile tracker's vowels, as the terminal counts them (German and Polish Y among them)
    # a blank's L·L typed L.L (Catalan); É typed for E where no tile is É (French), as the server reads moves
    described["typed_labels"] = {**rules.tile_set.ascii_labels, **rules.tile_set.accent_folds}
    described["vowels"] = [rules.tile_set.letters[code - 1] for code in vowel_codes(rules.tile_set.letters)]
    described["size"] = rules.layout.size
    return described


def game_state(row: GameRow, game: Game, seat: int | None, order: str | None = None,
               now: float | None = None, remind_after: float | None = None) -> dict[str, Any]:
    """What the player in ``seat`` (``None``: a spectator) may see, as JSON data; ``order``:
    the order the player put their rack in (see :func:`ordered_rack`); ``remind_after``: the
    seconds without a move before the player to move may be reminded (``remind_at``)."""
    view = game.view(seat)  # the one place that decides what a seat (or a spectator) may see
    history = [record_json(r) for r in view.history]
    rack = ordered_rack(game, seat, order) if seat is not None else ""
    last = game.last_play()
    pending = getattr(game, "_pending", None)
    window = None
    if game.can_challenge and pending is not None:
        played = game.history[pending.record]
        window = {"seat": pending.seat, "move": played.notation, "words": list(played.words),
                  "score": played.score, "ends_game": game.pending_ends_game}
    players = []
    for index, entry in enumerate(row.seats):
        players.append({
            "seat": index, "name": game.players[index], "kind": entry["kind"], "level": entry.get("level"),
            "joined": bool(entry.get("joined")), "score": game.scores[index],
            "rack_count": len(game.racks[index]), "you": index == seat,
            "account": seat_account(entry, game.players[index]),
            "out": FORFEIT_WORDS[reason] if (reason := game.out_reason(index)) is not None else None,
        })
    return {
        "id": row.id, "version": row.version, "seat": seat, "players": players,
        "to_move": game.to_move, "rules": rules_json(game.rules), "preset": row.settings.get("preset"),
        "word_help": bool(row.settings.get("word_help")), "creator_seat": row.settings.get("creator_seat"),
        "board": game.board.rows_text(), "rack": rack, "bag_count": len(game.bag), "unseen": view.unseen,
        "history": history, "last_move": list(last.squares) if last else [],
        "can_challenge": view.can_challenge, "challenge_window": window,
        "over": game.over, "end_reason": game.end_reason.value if game.end_reason else None,
        "winners": game.winners, "scores_before_end": game.scores_before_end(),
        "resigned": getattr(game, "_resigned", None) if game.over else None,
        "out": list(game.out), "places": game.places,
        "exchange_allowed": game.exchange_allowed,
        "exchange_refused": exchange_refusal(game.rules, len(game.bag)),  # why not: the page says it
        # how a pass would end the game, for the player to move (Pass asks first and says it)
        "pass_ends": pass_ends(game, seat),
        "presets": sorted(PRESETS),
        "clock": clock_json(row, now),
        "rated": bool(row.settings.get("rated")),
        "aborted": bool(row.settings.get("aborted")),
        "abort_asked": abort_asks(row.settings, now),
        "turns_played": game.turns_played, "abort_open": abort_open(row, game),
        "rating_changes": row.settings.get("rating_changes"),
        "not_rated": row.settings.get("not_rated"),
        "rematch": rematch_offer(row.settings, now),
        **reminding(row, game, remind_after),
        "accounts": [bool(entry.get("user_id")) for entry in row.seats],
    }


def pass_ends(game: Game, seat: int | None) -> str | None:
    """Why the game would end if the player in ``seat`` passed now (the sentence of
    :meth:`~qiza.game.Game.end_after_pass`), for that player when it is their turn; else
    ``None``."""
    if seat is None or seat != game.to_move or game.over or not game.in_game(seat):
        return None
    reason = game.end_after_pass()
    return None if reason is None else reason.value


def reminding(row: GameRow, game: Game, remind_after: float | None) -> dict[str, Any]:
    """A game's reminder as it stands: ``reminder``, the one sent to the player to move since
    their last move, with ``claim_at``, when the game may be claimed from them (``None``: none;
    one sent before they last moved is past); ``remind_at``, when one may be sent (the server's
    time in seconds, as ``claim_at``; ``None``: never, a game over or with a clock, or the
    server's wait not known). Times, not waits, so that the same game reads the same."""
    sent = row.settings.get("reminder")
    live = not game.over and not row.settings.get("aborted")
    current = sent if live and sent and sent["seat"] == game.to_move and sent["moved"] == row.moved else None
    remind_at = None
    if live and remind_after is not None and not row.settings.get("clock"):
        remind_at = float(row.settings.get("moved_at", 0)) + remind_after
    return {"reminder": current, "remind_at": remind_at}


def rematch_offer(settings: dict[str, Any], now: float | None) -> dict[str, Any] | None:
    """The rematch offer of a finished game as it stands at ``now`` (``None``: none asked yet):
    ``asked``, the seats whose ask has not lapsed (:data:`REMATCH_WAIT`), and ``game``, the new
    game once every player asked."""
    offer = settings.get("rematch")
    if not offer:
        return None
    asked = [int(s) for s in offer.get("asked", [])] if offer.get("game") or now is None \
        else rematch_asks(offer, now)
    return {"asked": asked, "game": offer.get("game")}


def rematch_asks(offer: dict[str, Any], now: float) -> list[int]:
    """The seats of a rematch offer whose ask still stands at ``now`` (:data:`REMATCH_WAIT`)."""
    at = offer.get("asked_at", {})
    return [int(s) for s in offer.get("asked", []) if now - float(at.get(str(s), 0)) <= REMATCH_WAIT]


def abort_asks(settings: dict[str, Any], now: float | None) -> list[int]:
    """The seats whose ask to abort still stands at ``now``: an ask lapses after
    :data:`ABORT_WAIT` seconds (an ask stored without its time has lapsed; ``now`` ``None``:
    every ask)."""
    asked = [int(seat) for seat in settings.get("abort", [])]
    if now is None:
        return asked
    at = settings.get("abort_at", {})
    return [seat for seat in asked if now - float(at.get(str(seat), float("-inf"))) <= ABORT_WAIT]


def clock_json(row: GameRow, now: float | None) -> dict[str, Any] | None:
    """A game's clocks as a page shows them at ``now`` (``None``: the game has no clock)."""
    data = row.settings.get("clock")
    if data is None:
        return None
    clock = Clock.from_json(data)
    shown = clock.json(now if now is not None else time.time())
    shown["server_time"] = now
    return shown
