"""Options that several subcommands share."""

from __future__ import annotations

import argparse

VARIANTS = ("hex", "rex", "dark", "dark-abrupt")


class DefaultsFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, unless its text already names one
    or it has none to show (None, False, an empty list)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        nothing = default is None or default is False or default == [] or default == argparse.SUPPRESS
        if "default" in text or nothing or not action.option_strings:
            return text
        return f"{text} (default: {default})" if text else f"(default: {default})"


class RawDefaultsFormatter(DefaultsFormatter, argparse.RawDescriptionHelpFormatter):
    """:class:`DefaultsFormatter` for a parser whose description and epilog keep their lines."""


def show_defaults(parser: argparse.ArgumentParser) -> None:
    """Makes ``parser``'s help show each option's default, keeping raw descriptions raw."""
    raw = issubclass(parser.formatter_class, argparse.RawDescriptionHelpFormatter)
    parser.formatter_class = RawDefaultsFormatter if raw else DefaultsFormatter


def add_board_options(parser: argparse.ArgumentParser, size: int) -> None:
    """``--variant``, ``--size`` (default ``size``), ``--rows``, ``--cols`` and ``--swap``."""
    parser.add_argument("--variant", choices=list(VARIANTS), default="hex", help="the game")
    parser.add_argument("--size", type=int, default=size, help=f"board size (default {size})")
    parser.add_argument("--rows", type=int, help="rows, for boards that are not square")
    parser.add_argument("--cols", type=int, help="columns, for boards that are not square")
    parser.add_argument(
        "--swap", choices=["sides", "pieces", "off"], help="swap form (default: the variant's)"
    )
