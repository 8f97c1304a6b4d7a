"""The web app's refusals: :class:`ApiError` (raised anywhere, answered as JSON) and the
documented shape of every error answer."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError

log = logging.getLogger("qiza.web")


class ApiError(Exception):
    """A refused request: HTTP ``status``, a machine-readable ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON error answer."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}



class ErrorDetail(BaseModel):
    """What went wrong: a short machine-readable ``code`` and a message naming the problem
    (some errors add fields, e.g. ``version`` or ``words``)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class ErrorOut(BaseModel):
    """Every refusal: ``{"error": {"code": ..., "message": ...}}``."""

    error: ErrorDetail


_ERROR_TEXT: dict[int, str] = {
    400: "a request HTTP cannot carry (e.g. a Content-Length that is no number)",
    401: "not_signed_in, or wrong_password",
    403: "wrong seat token or invite secret, not the game's creator, or csrf_failed: a signed-in request without "
         "its session's CSRF token in X-CSRF-Token",
    404: "no such game (or no_such_player: no account has that name, or none could)",
    409: "not your turn, stale version, duplicate request, game over, seat taken, name taken, seek taken",
    410: "an invite secret its creator withdrew",
    413: "body_too_large: the request body is over 64 KiB",
    422: "malformed request (malformed_request, a field out of bounds, token_in_url: a secret in the URL), "
         "a seat the game does not have (no_such_seat), bad rules or seats, unknown lexicon, illegal move",
    429: "too_many_attempts: too many wrong tokens or invites from this address for this game; "
         "see the Retry-After header",
    501: "this server lacks the GCG or analysis module (or the computer players, which make the puzzles)",
    503: "database_unavailable (or lexicon_unavailable, or puzzles_busy: other puzzles being made): try again "
         "after the Retry-After header's seconds",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of an operation: 400, 413, 422 for any request, plus ``statuses``."""
    return {status: {"model": ErrorOut, "description": _ERROR_TEXT[status]}
            for status in sorted({400, 413, 422, *statuses})}


# -- the database away ---------------------------------------------------------------------------
#: errors of a database that cannot answer now (stopped, unreachable, locked, pool exhausted)
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError, SQLAlchemyTimeoutError)
#: seconds a client should wait before trying again while the database is away
DATABASE_RETRY_AFTER = 5


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says that the database (or a lexicon) cannot answer now but may later:
    locked, full, read-only, stopped, unreachable, its pool exhausted; a 503 refusal."""
    if isinstance(exc, ApiError):
        return exc.status == 503
    return isinstance(exc, DATABASE_ERRORS) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


def database_error(exc: Exception) -> ApiError:
    """The answer to a database error: 503 ``database_unavailable`` (with ``Retry-After``)
    when the database cannot answer now, else 500 ``internal_error``."""
    if unavailable(exc):
        # the driver's own words (read-only, disk full, refused...), never the URL with its password
        log.warning("database unavailable: %s", getattr(exc, "orig", None) or exc.__class__.__name__)
        if getattr(exc, "at_commit", False):  # lost while committing: the change may be stored
            return ApiError(503, "database_unavailable", "the game database stopped answering while it stored "
                            "this change, so it may or may not have been made: reload before trying again "
                            "(a move sent again with the same request_id is never made twice)",
                            retry_after=DATABASE_RETRY_AFTER)
        return ApiError(503, "database_unavailable", "the game database is unavailable just now; nothing was "
                        f"changed: try again in {DATABASE_RETRY_AFTER} seconds", retry_after=DATABASE_RETRY_AFTER)
    log.error("database error: %s", exc)
    return ApiError(500, "internal_error", "the server failed to answer this request; it has been logged")
