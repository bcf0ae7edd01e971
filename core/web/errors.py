"""The error the page's API answers with a 4xx or 5xx status (kept light: ``serve``'s options
import the limits, which raise it, before anything else of the server is loaded)."""

from __future__ import annotations

from mindgames.errors import MindgamesError


class RequestError(MindgamesError):
    """A request the API refuses; ``status`` is its HTTP status (400 unless said)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
