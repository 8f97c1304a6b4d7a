"""The request bodies of the games API: strict JSON (no unknown fields, no coercion), every
field bounded.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path as PathParam
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Strict,
    StrictBool,
    StringConstraints,
    Tag,
)

from qiza.alphabet import TILE_SETS
from qiza.web.errors import errors
from qiza.web.seeks import TimeControlIn


# -- request bodies ----------------------------------------------------------------------------
class Body(BaseModel):
    # no unknown fields, and no coercion: a seat is a JSON integer, a flag a JSON boolean
    model_config = ConfigDict(extra="forbid", strict=True)


def _a_number(value: Any) -> Any:
    if isinstance(value, bool | str):
        raise ValueError("should be a JSON number, not text or true/false")
    return value


#: a whole number in JSON: 3 or 3.0 (JSON Schema's "integer"), never "3", true or 3.5
WholeNumber = Annotated[int, Strict(False), BeforeValidator(_a_number)]
#: the most tiles a placement can put down (the largest rack: rules allow 2 to 9 tiles)
MAX_TILES = 9
#: the longest text of a rack (exchanged tiles, a rack's order) as the page writes it: with
#: tiles of several letters in the set, every tile in brackets ("[L·L]" in Catalan)
MAX_RACK_TEXT = MAX_TILES * (2 + max(len(label) for tiles in TILE_SETS.values() for label in tiles.letters))


def _option_kind(value: Any) -> str | None:
    """Which kind of rule option value ``value`` is (by its JSON type), so that a refusal names
    the one kind it is meant as, never every kind of the union (with the validators' reprs)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "name"
    if isinstance(value, list):
        return "targets"
    return None


#: a rule option's value: a name, a whole number, or per-seat numbers (Finish Line)
OptionValue = Annotated[
    Annotated[StrictBool, Tag("flag")]
    | Annotated[WholeNumber, Field(ge=-1_000_000, le=1_000_000), Tag("number")]
    | Annotated[str, StringConstraints(max_length=40), Tag("name")]
    | Annotated[list[Annotated[WholeNumber, Field(ge=0, le=1_000_000)]], Field(max_length=4), Tag("targets")]
    | Annotated[None, Tag("none")],
    Discriminator(_option_kind, custom_error_type="bad_option",
                  custom_error_message="a rule option is true or false, a whole number, a name, or a list of "
                                       "Finish Line target scores")]
#: a placement as squares to letters (new tiles only)
Cells = Annotated[dict[Annotated[str, StringConstraints(max_length=8)], Annotated[str, StringConstraints(max_length=4)]],
                  Field(max_length=MAX_TILES)]
#: a game's id in a path
GameId = Annotated[str, PathParam(max_length=40, description="the game's id")]


class SeatIn(Body):
    """A seat of a new game."""

    kind: Literal["person", "computer"] = "person"
    name: str = Field("", max_length=40)
    level: str | None = Field(None, max_length=40, description="computer level (see /api/meta)")


class CreateGameIn(Body):
    """A new game: a rules preset plus options of the rules engine, and 2 to 4 seats."""

    preset: str = Field("classic", max_length=40)
    options: dict[Annotated[str, StringConstraints(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=20, description="rule options, e.g. {\"challenge\": \"auto\"} (see /api/meta)")
    finish_line_levels: list[Literal["beginner", "intermediate", "expert"]] | None = Field(
        None, max_length=4, description="Finish Line: one level per seat")
    seats: list[SeatIn] = Field(min_length=2, max_length=4)
    lexicon: str = Field("enable", max_length=40, description="a name from /api/meta's lexicons (nothing else)")
    word_help: bool | None = Field(None, description="show invalid words in the move preview")
    creator_seat: WholeNumber | None = Field(0, ge=0, le=3, description="the person seat the creator takes")
    claim_all: bool = Field(False, description="return the tokens of every person seat (bots, one device)")
    time_control: TimeControlIn | None = Field(None, description="clocks: minutes per player, increment, overtime")


class CreatedOut(BaseModel):
    """A created game, the secret tokens of the seats taken and the invite secret.

    Share ``invite_url`` with the people who should take the free seats (the secret is in
    the URL fragment, which browsers do not send to servers); ``url`` lets anyone watch."""

    id: str
    tokens: dict[int, str]
    url: str
    invite: str
    invite_url: str


class JoinIn(Body):
    """Take an open person seat, with the game's invite secret."""

    seat: WholeNumber = Field(ge=0, le=3)
    name: str = Field("", max_length=40)
    invite: str | None = Field(None, max_length=200, description="the invite secret from the creator's link")


class JoinOut(BaseModel):
    """The secret token of the seat taken."""

    seat: int
    token: str
    version: int


class ActionIn(Body):
    """One action by a seat, made against game ``version``."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)
    version: WholeNumber = Field(ge=0, description="the game version this action was made against")
    kind: Literal["place", "exchange", "pass", "challenge", "resign"]
    move: str | None = Field(None, max_length=60, description="placement in the game's notation, e.g. 'H8 WORD'")
    cells: Cells | None = Field(
        None, description="placement as squares (number or name like 'H8') to letters, lower case for a blank")
    tiles: str | None = Field(None, max_length=MAX_RACK_TEXT, description="tiles to exchange, '?' for a blank")
    request_id: str | None = Field(None, min_length=1, max_length=80,
                                   description="idempotency key: a request id is applied at most once")


class RackIn(Body):
    """A new order of the seat's own rack (the same tiles)."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)
    order: str = Field(min_length=1, max_length=MAX_RACK_TEXT,
                       description="the rack's tiles in the new order, '?' for a blank")


class SeatAuthIn(Body):
    """A seat and its secret token (for the game's creator: managing the invite)."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)


class InviteOut(BaseModel):
    """The game's invite secret (``None`` once withdrawn) and the person seats still free.

    ``invite_url`` is the link to share (the secret is in the URL fragment)."""

    invite: str | None
    invite_url: str | None
    free_seats: list[int]


class ComputerSeatIn(Body):
    """Give a free seat to a computer player: the creator's seat and token, and the level."""

    seat: WholeNumber = Field(ge=0, le=3, description="the creator's seat")
    token: str = Field(min_length=1, max_length=200, description="the creator's seat token")
    level: str | None = Field(None, max_length=40, description="computer level (see /api/meta; default: the default level)")
    name: str = Field("", max_length=40, description="the computer's name (default: 'Computer (level)')")


class PreviewIn(Body):
    """A placement to score without playing it."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)
    move: str | None = Field(None, max_length=60)
    cells: Cells | None = None


#: errors of an operation on a game with a seat token (or an invite)
SEAT_ERRORS = errors(403, 404, 409, 429, 503)


