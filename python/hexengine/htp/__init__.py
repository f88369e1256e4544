"""HTP, the Hex dialect of the Go Text Protocol spoken by HexGui and Benzene (MoHex, Wolve).

- :class:`HtpEngine`: hexengine as an HTP engine (``hexengine htp`` runs it on
  standard input and output), for HexGui, Benzene's tools and match runners.
- :func:`popen` and :class:`HtpClient`: drive any external HTP engine from
  Python, in the style of python-chess's ``chess.engine``.

Conventions (HexGui, Benzene): Black is Red (it moves first and joins rows 1
and N), White is Blue; cells are column letter plus row number; ``boardsize
W H`` gives the width (columns) first. Swap moves are named as the SGF
standard names them: ``swap-sides`` (the board stays, White moves next:
hexengine's ``sides`` form) and ``swap-pieces`` (Black's stone becomes a White
one on the mirrored cell, Black moves next: hexengine's ``pieces`` form).
Benzene, MoHex and HexGui 0.9 say ``swap-pieces`` for the ``sides`` form, and
HexGui 0.10 sends no swap word at all (its side swap changes nothing an
engine sees; its piece swap is sent as the new board). The engine speaks
those dialects (``HtpEngine(dialect="benzene")``, ``"hexgui"``, found out
when HexGui asks for its analyze commands); :class:`HtpClient` reads MoHex's
(``dialect="benzene"``). ``docs/htp.md`` has the details.

>>> import hexengine as hx
>>> engine = hx.htp.HtpEngine(size=3, simulations=200)
>>> print(engine.execute("play black b2"), engine.execute("10 genmove white"), sep="", end="")
=
<BLANKLINE>
=10 swap-sides
<BLANKLINE>
"""

from __future__ import annotations

from .client import EngineError, EngineTimeout, HtpClient, HtpError, Limit, PlayResult, popen
from .engine import DIALECTS, HtpEngine, HtpFailure

__all__ = [
    "DIALECTS",
    "EngineError",
    "EngineTimeout",
    "HtpClient",
    "HtpEngine",
    "HtpError",
    "HtpFailure",
    "Limit",
    "PlayResult",
    "popen",
]
