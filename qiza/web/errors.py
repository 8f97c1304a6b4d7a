"""The web app's refusals: :class:`ApiError` (raised anywhere, answered as JSON) and the
documented shape of every error answer."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


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
    404: "no such game",
    409: "not your turn, stale version, duplicate request, game over, seat taken, name taken, seek taken",
    410: "an invite secret its creator withdrew",
    413: "body_too_large: the request body is over 64 KiB",
    422: "malformed request (malformed_request, a field out of bounds, token_in_url: a secret in the URL), "
         "a seat the game does not have (no_such_seat), bad rules or seats, unknown lexicon, illegal move",
    429: "too_many_attempts: too many wrong tokens or invites from this address for this game; "
         "see the Retry-After header",
    501: "this server lacks the GCG or analysis module",
    503: "database_unavailable (or lexicon_unavailable): try again after the Retry-After header's seconds",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of an operation: 400, 413, 422 for any request, plus ``statuses``."""
    return {status: {"model": ErrorOut, "description": _ERROR_TEXT[status]}
            for status in sorted({400, 413, 422, *statuses})}
