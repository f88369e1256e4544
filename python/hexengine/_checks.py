"""Checks of plain numeric arguments before they reach the core.

The core validates what an argument means (a board size, a budget); these
checks make sure a Python value fits the C++ type it is converted to, so that
a wrong type or a huge number gets a message that names the argument instead
of pybind11's "incompatible function arguments". Where the core exports its
own bound (``_core.MAX_THREADS``), callers pass it as ``top``.
"""

from __future__ import annotations

from .errors import ConfigError

# The largest count the core takes (a signed 64-bit integer).
MAX_COUNT = 2**63 - 1
# The largest seed (an unsigned 64-bit integer).
MAX_SEED = 2**64 - 1


def whole_number(value: object, name: str, top: int = MAX_COUNT, least: int = 0) -> int:
    """``value`` if it is an integer (not a bool) from ``least`` to ``top``; else ConfigError naming ``name``.

    >>> whole_number(5, "n")
    5
    >>> whole_number(2**70, "n")
    Traceback (most recent call last):
    ...
    hexengine.errors.ConfigError: n must be between 0 and 9223372036854775807, not 1180591620717411303424
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, not {value!r}")
    if not least <= value <= top:
        raise ConfigError(f"{name} must be between {least} and {top}, not {value}")
    return value
