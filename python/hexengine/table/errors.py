"""Refusals: the error a table raises for a request it will not carry out, with a code saying why.

>>> import hexengine as hx
>>> table = hx.Table(hx.TableSettings(size=3))
>>> try:
...     table.play("no such token", "a1")
... except hx.TableError as e:
...     print(e.code)
bad-token
"""

from __future__ import annotations

from ..errors import HexError

__all__ = ["TableError"]


class TableError(HexError):
    """A request the table refuses; ``code`` names why (a front end can map it to a reply).

    Codes: ``bad-token``, ``seat-taken``, ``no-seat``, ``bad-name``, ``no-game``,
    ``game-over``, ``game-running``, ``not-your-turn``, ``curtain-up``,
    ``no-curtain``, ``stale``, ``disconnected``, ``not-computer``, ``no-ratings``,
    ``same-player`` (both seats of a rated table with one rating id), ``no-takeback``,
    ``takeback-pending``, ``hidden`` (an analysis Dark Hex does not allow yet), ``bad-ply``,
    ``bad-request``.
    Illegal moves raise :class:`~hexengine.IllegalMove` from the referee instead.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code
