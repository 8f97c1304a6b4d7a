"""Seats: secret seat tokens, joining with the invite secret, the creator's invite link and
free seats given to the computer, and new tokens for the seats an account holds.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from qiza.game import Game
from qiza.names import clean_name
from qiza.web.computer import (
    computer_levels,
    default_level,
    known_levels,
)
from qiza.web.db import GameRow
from qiza.web.errors import ApiError
from qiza.web.game_core import COMPUTER, PERSON, GameCore, hash_token
from qiza.web.views import unique_name


def _keystream(nonce: str, key: str) -> bytes:
    return hashlib.sha256(f"qiza-invite:{nonce}:{key}".encode()).digest()


def seal(secret: str, key: str) -> str:
    """``secret`` (at most 32 ASCII characters) hidden under ``key`` (a seat token), so that
    the database alone does not reveal it: XOR with a SHA-256 keystream of a fresh nonce
    and the key."""
    data = secret.encode("ascii")
    if len(data) > 32:
        raise ValueError("a sealed secret has at most 32 characters")
    nonce = secrets.token_hex(8)
    return nonce + ":" + bytes(a ^ b for a, b in zip(data, _keystream(nonce, key))).hex()


def unseal(sealed: str, key: str) -> str | None:
    """The secret :func:`seal` hid under ``key`` (``None`` if it cannot be read)."""
    nonce, _, body = sealed.partition(":")
    try:
        data = bytes.fromhex(body)
        return bytes(a ^ b for a, b in zip(data, _keystream(nonce, key))).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None


class SeatsMixin(GameCore):
    """The seats of :class:`~qiza.web.service.GameService`."""

    def check_token(self, row: GameRow, seat: int, token: str) -> None:
        """403 ``wrong_token`` unless ``token`` is a token of the seat."""
        self._check_token(row, seat, token)

    def recheck_token(self, game_id: str, seat: int, token: str) -> None:
        """:meth:`check_token` on the game as stored now (for a live connection opened earlier)."""
        self._check_token(self._row(game_id), seat, token)

    @staticmethod
    def holds_seat(row: GameRow, user_id: str | None, holder: str | None) -> bool:
        """Whether an account (``user_id``) or a browser (``holder``, its seat holder cookie's
        hash) holds a seat of the game, whichever seat token it sends."""
        return any((user_id is not None and entry.get("user_id") == user_id)
                   or (holder is not None and holder in entry.get("holders", ())) for entry in row.seats)

    def token_ends(self, game_id: str, seat: int, token: str) -> bool:
        """Whether a seat's token was given to a sign-in and ends with it (a guest's never does)."""
        entry = self._row(game_id).seats[seat]
        return hash_token(token) in entry.get("token_sessions", {})

    def _check_token(self, row: GameRow, seat: int, token: str) -> None:
        if not 0 <= seat < len(row.seats):
            raise ApiError(422, "no_such_seat", f"there is no seat {seat} in this {len(row.seats)}-player game")
        given = hash_token(token)
        entry = row.seats[seat]
        known = [h for h in (entry.get("token_hash"), *entry.get("token_hashes", ())) if h]
        matches = [h for h in known if secrets.compare_digest(h, given)]
        if not matches:
            raise ApiError(403, "wrong_token", f"the seat token is not the token of seat {seat}")
        session = entry.get("token_sessions", {}).get(matches[0])
        if session is not None and not self.store.session_alive(session, self.now()):
            raise ApiError(403, "token_expired", "this seat token was given to a sign-in that has ended (signed out, "
                           "or the password was changed); signed in, the page takes your seat again: then play again")

    def issue_token(self, row: GameRow, seat: int, session: str | None = None) -> str:
        """A new secret token for a seat held by an account (for another browser of its
        player); the seat's older tokens keep working (the four newest are kept). ``session``:
        the hash of the session it is given to; the token works while that session is open
        (signing out or changing the password ends it)."""
        token = secrets.token_urlsafe(24)
        entry = row.seats[seat]
        hashed = hash_token(token)
        entry["token_hashes"] = ([*entry.get("token_hashes", []), hashed])[-4:]
        if session is not None or "token_sessions" in entry:
            kept = {entry.get("token_hash"), *entry["token_hashes"]}
            bound = {h: s for h, s in entry.get("token_sessions", {}).items() if h in kept}
            if session is not None:
                bound[hashed] = session
            entry["token_sessions"] = bound
        return token

    def join(self, game_id: str, seat: int, name: str, invite: str | None,
             user_id: str | None = None, session: str | None = None, holder: str | None = None) -> tuple[str, int]:
        """Take an open person seat with the game's invite secret; returns the seat's secret
        token and the new version. (Games stored before invites existed need none.)
        ``user_id``: the signed-in account taking the seat (its profile lists the game; ``name`` is
        then the account's), and
        ``session`` the hash of its session: the token works while that is open. ``holder``: the
        browser taking it (:func:`qiza.web.accounts.seat_holder`)."""
        with self._lock(game_id):
            row = self._row(game_id)
            if "invite_hash" in row.settings:
                self._check_invite(row, invite)
            if not 0 <= seat < len(row.seats):
                raise ApiError(422, "no_such_seat", f"there is no seat {seat} in this {len(row.seats)}-player game")
            entry = row.seats[seat]
            if entry["kind"] != PERSON:
                raise ApiError(409, "seat_taken", f"seat {seat} is a computer seat")
            if entry["joined"]:
                raise ApiError(409, "seat_taken", f"seat {seat} is already taken")
            held = [i for i, other in enumerate(row.seats) if user_id is not None and other.get("user_id") == user_id]
            if held:  # an account plays one seat (its profile's record, POST /my-seat)
                raise ApiError(409, "already_seated", f"your account holds seat {held[0]} of this game already: "
                               "one seat per account (a seat for someone else is taken signed out)")
            cached = self._game(row)
            self._refuse_when_ended(row, cached.game, "its seats can no longer be taken")
            token = secrets.token_urlsafe(24)
            entry["token_hash"] = hash_token(token)
            entry["joined"] = True
            if holder is not None:
                entry["holders"] = [holder]
            clean = clean_name(name)
            if clean:  # numbered when another seat has the name ("Ann" beside "Ann": "Ann 2")
                players = cached.game.players
                players[seat] = unique_name(clean, players[:seat] + players[seat + 1:])
            writes = []
            if user_id is not None:
                entry["user_id"] = user_id
                entry["account"] = name  # the profile the page links to (the seat's name may be numbered)
                if session is not None:
                    entry["token_sessions"] = {entry["token_hash"]: session}
                writes.append(self.store.hold_seats(game_id, {seat: user_id}, self.now()))
            version = self._commit(row, cached, moved=False, writes=writes)
            return token, version

    @staticmethod
    def _check_invite(row: GameRow, invite: str | None) -> None:
        if not invite:
            raise ApiError(403, "invite_required", "taking a seat needs the game's invite link "
                           "(ask the player who created the game); without it you can watch")
        given = hash_token(invite)
        if given in row.settings.get("revoked_invites", ()):
            raise ApiError(410, "invite_revoked", "this invite link was withdrawn by the player who created the "
                           "game (it may have been replaced by a new one); ask them for the current link")
        expected = row.settings.get("invite_hash")
        if not expected:
            raise ApiError(403, "invite_closed", "the player who created the game has withdrawn its invite: "
                           "nobody can take a seat until they share a new invite link")
        if not secrets.compare_digest(str(expected), given):
            raise ApiError(403, "wrong_invite", "this is not the game's invite secret "
                           "(ask the player who created the game for the invite link)")

    def _check_creator(self, row: GameRow, seat: int, token: str, what: str) -> None:
        self._check_token(row, seat, token)
        creator = row.settings.get("creator_seat")
        if creator is None:
            raise ApiError(403, "not_the_creator", f"this game does not record who created it, so nobody can {what}")
        if seat != creator:
            raise ApiError(403, "not_the_creator", f"only the player who created the game (seat {creator}) can {what}")

    @staticmethod
    def free_seats(row: GameRow) -> list[int]:
        """Person seats nobody has taken yet."""
        return [i for i, s in enumerate(row.seats) if s["kind"] == PERSON and not s.get("joined")]

    @staticmethod
    def _refuse_when_ended(row: GameRow, game: Game, why: str) -> None:
        """409 ``game_aborted`` or ``game_over`` (saying ``why`` that matters) once the game ended."""
        if row.settings.get("aborted"):
            raise ApiError(409, "game_aborted", f"the game was aborted by its players: {why}")
        if game.over:
            raise ApiError(409, "game_over", f"the game is over: {why}")

    def _inviting(self, row: GameRow, game: Game) -> list[int]:
        self._refuse_when_ended(row, game, "there is nobody to invite")
        free = self.free_seats(row)
        if not free:
            raise ApiError(409, "no_free_seat", "every seat is taken: there is nobody to invite")
        return free

    def invite(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """The game's invite secret again, for its creator (while a person seat is free):
        ``{"invite": ..., "free_seats": [...]}``."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "see the invite link")
            free = self._inviting(row, self._game(row).game)
            expected = row.settings.get("invite_hash")
            if not expected:
                raise ApiError(409, "invite_closed", "you withdrew the invite link; make a new one "
                               "(POST /api/games/{id}/invite) to let others take the free seats")
            sealed = row.settings.get("invite_sealed")
            invite = unseal(str(sealed), token) if sealed else None
            if invite is None or hash_token(invite) != expected:
                raise ApiError(409, "invite_unavailable", "this game's invite link cannot be shown again (it was "
                               "made before links were kept); make a new one (POST /api/games/{id}/invite)")
            return {"invite": invite, "free_seats": free}

    def renew_invite(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """A new invite secret for the game (creator only); the old one stops working."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "make a new invite link")
            cached = self._game(row)
            free = self._inviting(row, cached.game)
            invite = secrets.token_urlsafe(12)
            self._withdraw(row)
            row.settings["invite_hash"] = hash_token(invite)
            row.settings["invite_sealed"] = seal(invite, token)
            self._commit(row, cached, moved=False)
            return {"invite": invite, "free_seats": free}

    def revoke_invite(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """Withdraw the game's invite secret (creator only): nobody can take a seat until a
        new one is made. Withdrawing twice is no error."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "withdraw the invite link")
            cached = self._game(row)
            if row.settings.get("invite_hash"):
                self._withdraw(row)
                self._commit(row, cached, moved=False)
            return {"invite": None, "free_seats": self.free_seats(row)}

    @staticmethod
    def _withdraw(row: GameRow) -> None:
        old = row.settings.get("invite_hash")
        if old:
            row.settings["revoked_invites"] = [*row.settings.get("revoked_invites", ()), old][-20:]
        row.settings["invite_hash"] = None
        row.settings["invite_sealed"] = None

    def seat_computer(self, game_id: str, seat: int, token: str, target: int, level: str | None,
                      name: str = "") -> dict[str, Any]:
        """Give the free person seat ``target`` to a computer player at ``level`` (creator
        only, at any time before the end), so that a game does not wait for someone who does
        not come. Returns the creator's view."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "give a seat to the computer")
            if not 0 <= target < len(row.seats):
                raise ApiError(422, "no_such_seat", f"there is no seat {target} in this {len(row.seats)}-player game")
            entry = row.seats[target]
            if entry["kind"] == COMPUTER:
                raise ApiError(409, "seat_taken", f"seat {target} is already a computer seat")
            if entry.get("joined"):
                raise ApiError(409, "seat_taken", f"seat {target} is taken by {self._game(row).game.players[target]}")
            cached = self._game(row)
            game = cached.game
            self._refuse_when_ended(row, game, "its seats can no longer change")
            chosen = level or default_level()
            if chosen not in known_levels():
                raise ApiError(422, "bad_level", f"unknown computer level {chosen!r} "
                               f"(known: {', '.join(computer_levels())})")
            entry.update(kind=COMPUTER, level=chosen, token_hash=None, joined=True)
            # another seat has the name already: number this one
            game.players[target] = unique_name(clean_name(name) or f"Computer ({chosen})",
                                               game.players[:target] + game.players[target + 1:])
            self._commit(row, cached, moved=False)
            return self.view(row, game, seat, self.store.rack_order(game_id, seat))

