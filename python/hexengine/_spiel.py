"""What hexengine's rule sets are called in OpenSpiel, both ways (pyspiel is imported only when used).

OpenSpiel's own games play hexengine's rules on the same board: player 0
(``x``, black) moves first and joins the first and last rows, as Red does;
player 1 (``o``, white) joins the first and last columns, as Blue does; an
action is the cell ``row * num_cols + col`` with the same six neighbours, and
``hex(swap=True)`` adds the action ``num_rows * num_cols``, the ``pieces``
swap. So positions carry over by replaying the same integer actions:

- ``hex(num_rows, num_cols, swap)``: ``hex``, swap ``pieces`` or ``off``
  (OpenSpiel has no ``sides`` form);
- ``misere(game=hex(...))``: ``rex``;
- ``dark_hex(num_rows, num_cols, gameversion)``: ``dark`` for ``cdh``,
  ``dark-abrupt`` for ``adh`` (``obstype`` changes only what the views show);
- ``hexengine_hex``, ``hexengine_rex``, ``hexengine_dark``,
  ``hexengine_dark_abrupt`` (parameters ``rows``, ``cols``, ``swap``): the
  games :mod:`hexengine.openspiel` registers.

>>> from hexengine._spiel import spiel_name
>>> spiel_name(Rules("rex", 3, 4, "off"))
'misere(game=hex(num_rows=3,num_cols=4))'
>>> spiel_name(Rules("dark-abrupt", 2, 3))
'dark_hex(num_rows=2,num_cols=3,gameversion=adh)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from .errors import ConfigError, RulesError
from .rules import Rules, Variant

if TYPE_CHECKING:
    import pyspiel

__all__ = ["GAMES", "load_spiel_game", "rules_of_spiel", "spiel_name"]

GAMES: dict[str, Variant] = {
    "hexengine_hex": "hex",
    "hexengine_rex": "rex",
    "hexengine_dark": "dark",
    "hexengine_dark_abrupt": "dark-abrupt",
}
"""The short names :mod:`hexengine.openspiel` registers, and the variant each plays."""

Family = Literal["openspiel", "hexengine"]

_VERSIONS: dict[str, Variant] = {"cdh": "dark", "adh": "dark-abrupt"}
_READS = "states of OpenSpiel's hex, misere(game=hex), dark_hex and of the hexengine_* games"


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ModuleNotFoundError as e:  # pragma: no cover - depends on the extra
        raise ModuleNotFoundError(
            "the OpenSpiel bridge needs OpenSpiel: pip install 'hexengine[peers]'", name=e.name
        ) from None
    return pyspiel


def rules_of_spiel(game: pyspiel.Game) -> Rules:
    """The hexengine rule set an OpenSpiel game plays; ConfigError for a game of another kind,
    RulesError for a Hex board hexengine does not allow (e.g. OpenSpiel's swap on a non-square board)."""
    name, params = game.get_type().short_name, game.get_parameters()
    if name in GAMES:
        return Rules(GAMES[name], params["rows"], params["cols"], params["swap"])
    if name == "misere":
        inner = dict(params["game"])
        rules = rules_of_spiel(_pyspiel().load_game(inner.pop("name"), inner))
        if rules.variant != "hex":
            raise ConfigError(f"misere({rules.variant}) is not a game hexengine plays; it reads {_READS}")
        return Rules("rex", rules.rows, rules.cols, rules.swap)
    if name not in ("hex", "dark_hex"):
        raise ConfigError(f"an OpenSpiel {name!r} state is not a Hex position: hexengine reads {_READS}")
    rows, cols = params["num_rows"], params["num_cols"]
    if name == "hex":
        return Rules("hex", rows, cols, "pieces" if params.get("swap", False) else "off")
    return Rules(_VERSIONS[params["gameversion"]], rows, cols)


def spiel_name(rules: Rules) -> str:
    """The name of OpenSpiel's own game with ``rules``; RulesError where OpenSpiel has none.

    OpenSpiel has no ``sides`` swap, and gets boards of one row or one column
    wrong (a stone on both edges of a colour does not end the game), so those
    are refused rather than turned into another game.
    """
    if rules.swap == "sides":
        raise RulesError(
            "OpenSpiel's hex has no 'sides' swap: use swap='pieces' or 'off', or the hexengine_* "
            "games (import hexengine.openspiel; to_openspiel('hexengine'))"
        )
    if min(rules.rows, rules.cols) < 2:
        raise RulesError(
            f"OpenSpiel's Hex games get {rules.rows}x{rules.cols} boards wrong (a stone on both edges "
            "of its colour does not end the game): use the hexengine_* games"
        )
    size = f"num_rows={rules.rows},num_cols={rules.cols}"
    if rules.is_dark:
        return f"dark_hex({size},gameversion={'cdh' if rules.variant == 'dark' else 'adh'})"
    plain = f"hex({size}{',swap=True' if rules.swap == 'pieces' else ''})"
    return f"misere(game={plain})" if rules.is_misere else plain


def load_spiel_game(rules: Rules, family: Family = "openspiel") -> pyspiel.Game:
    """The OpenSpiel game with ``rules``: OpenSpiel's own (``"openspiel"``) or hexengine's
    registered one (``"hexengine"``, after ``import hexengine.openspiel``)."""
    pyspiel = _pyspiel()
    if family == "openspiel":
        return pyspiel.load_game(spiel_name(rules))
    if family != "hexengine":
        raise ConfigError(f"the OpenSpiel games are 'openspiel' or 'hexengine', not {family!r}")
    name = next(short for short, variant in GAMES.items() if variant == rules.variant)
    if name not in pyspiel.registered_names():
        raise ConfigError(f"{name} is not registered with OpenSpiel: import hexengine.openspiel first")
    return pyspiel.load_game(name, {"rows": rules.rows, "cols": rules.cols, "swap": rules.swap})
