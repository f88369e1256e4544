"""The error of the match package, below everything else in it."""

from __future__ import annotations

from ..errors import HexError

__all__ = ["MatchError"]


class MatchError(HexError):
    """A match that cannot run: a bad player spec, opening or setting."""
