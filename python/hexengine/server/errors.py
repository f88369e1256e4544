"""Refusals of the web server: requests it turns down before they reach a table.

>>> e = ServerError("no such table", "no-table", 404)
>>> e.code, e.status
('no-table', 404)
"""

from __future__ import annotations

from typing import Any

from ..errors import HexError

__all__ = ["ServerError"]


class ServerError(HexError):
    """A request the server refuses before it reaches a table; ``code`` and ``status`` say why,
    and ``extra`` holds fields the refusal carries besides (e.g. where to watch instead)."""

    def __init__(self, message: str, code: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.extra = extra
