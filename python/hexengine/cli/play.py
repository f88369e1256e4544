"""``hexengine play``: Hex, Rex or Dark Hex in the terminal, against the computer or a friend.

The game runs at a :class:`~hexengine.Table` (the same rules, clocks and curtain
as every other front end); this module only draws what the table sends to
the player at the keyboard and passes their moves on. Against the computer
you see your own view; two people on one device share the screen, and in
Dark Hex the screen is cleared behind a curtain at every hand-over.

Input is read line by line, so it works from a pipe too::

    printf 'c3\\nb4\\n...' | hexengine play --size 5 --level easy

The session ends when the player declines another game, types ``quit``, or
the input ends (exit status 0); bad settings exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from ._terminal import LineReader, clear_screen, draw_board, use_color

__all__ = ["add_parser", "run"]

HELP = """Type a cell like c3 (column letter, row number) to play there. Other words:
  swap    take over the first stone, when the swap is offered
  undo    take back your last move (and the computer's reply); not in Dark Hex
  resign  give up this game
  board   draw the board again
  help    this text
  quit    leave now (the game stays unfinished)"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``play`` subcommand's parser."""
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal, against the computer or a friend",
        description="Play Hex, Rex or Dark Hex in the terminal, against the computer or with a "
        "friend on the same device. Type moves like c3; 'help' lists the other words.",
    )
    parser.add_argument(
        "--variant",
        choices=["hex", "rex", "dark", "dark-abrupt"],
        default="hex",
        help="the game (default hex)",
    )
    parser.add_argument("--size", type=int, default=11, help="board size, 1 to 19 (default 11)")
    parser.add_argument("--rows", type=int, help="rows, for a board that is not square")
    parser.add_argument("--cols", type=int, help="columns, for a board that is not square")
    parser.add_argument(
        "--swap", choices=["sides", "pieces", "off"], help="swap rule (default sides; Dark Hex has none)"
    )
    parser.add_argument(
        "--opponent",
        choices=["computer", "human"],
        default="computer",
        help="who you play (default computer)",
    )
    parser.add_argument(
        "--level", choices=["easy", "medium", "hard"], default="medium", help="the computer's strength"
    )
    parser.add_argument(
        "--first",
        choices=["you", "opponent", "alternate"],
        default="you",
        help="who plays Red (moves first) in the first game (default you; with two people, the first name)",
    )
    parser.add_argument(
        "--no-alternate", action="store_true", help="keep the same first player in every game of the series"
    )
    parser.add_argument(
        "--time-limit", type=float, metavar="SECONDS", help="seconds per move; running out loses"
    )
    parser.add_argument("--names", nargs="+", metavar="NAME", help="your name (and your friend's)")
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="ANSI colours")
    parser.add_argument("--save", metavar="DIR", help="save each finished game as DIR/game-N.sgf")
    parser.add_argument("--seed", type=int, help="seed for the computer (repeatable games)")
    return parser


def run(args: argparse.Namespace) -> int:
    """Plays games until the player stops (0), or refuses bad settings (2)."""
    from ..errors import HexError
    from ..table import TableSettings

    names = list(args.names or [])
    if len(names) > 2:
        print("hexengine play: give at most two names", file=sys.stderr)
        return 2
    defaults = ["You", "Computer"] if args.opponent == "computer" else ["Player 1", "Player 2"]
    names += defaults[len(names) :]
    try:
        settings = TableSettings(
            variant=args.variant,
            rows=args.rows if args.rows is not None else args.size,
            cols=args.cols if args.cols is not None else args.size,
            swap=args.swap,
            first={"you": "A", "opponent": "B", "alternate": "alternate"}[args.first],  # type: ignore[arg-type]
            alternate=not args.no_alternate or args.first == "alternate",
            time_limit=args.time_limit,
        )
        session = Session(
            settings,
            opponent=args.opponent,
            level=args.level,
            names=(names[0], names[1]),
            seed=args.seed,
            out=sys.stdout,
            reader=LineReader(sys.stdin),
            color=use_color(sys.stdout, args.color),
            echo=not sys.stdin.isatty(),
            save=args.save,
            swap_asked=args.swap is not None,
        )
    except HexError as e:
        print(f"hexengine play: {e}", file=sys.stderr)
        return 2
    try:
        return session.run()
    except KeyboardInterrupt:
        print("\nBye.")
        return 130


class EndOfInput(Exception):
    """The player's input ended (or they typed quit)."""


class Session:
    """One terminal session at one table: a series of games until the player stops."""

    def __init__(
        self,
        settings: Any,
        *,
        opponent: str,
        level: str,
        names: tuple[str, str],
        seed: int | None,
        out: TextIO,
        reader: LineReader,
        color: bool,
        echo: bool,
        save: str | None = None,
        swap_asked: bool = False,
    ) -> None:
        from ..table import Table, computer_bot

        self.table = Table(settings, autoplay=False, bots=lambda lvl, rules: computer_bot(lvl, rules, seed))
        if opponent == "computer":
            self.token = self.table.sit("A", names[0])
            self.table.sit_computer("B", level)  # type: ignore[arg-type]
            self.recipient = "A"
        else:
            self.token = self.table.sit_together(names[0], names[1])
            self.recipient = "device"
        self.out, self.reader, self.color, self.echo = out, reader, color, echo
        self.save = save
        self.dark = settings.rules.is_dark
        self.against_computer = opponent == "computer"
        # The table plays the easy level without swap: asked for, it is said at once rather
        # than refused later.
        self.notes = []
        if self.against_computer and level == "easy" and swap_asked and settings.rules.swap != "off":
            self.notes.append(
                f"The easy level plays without the swap rule ({settings.rules.swap}); "
                "--level medium or hard plays with it."
            )
        self.last_over: dict[str, Any] | None = None
        self.saved = 0

    # ------------------------------------------------------------------ output

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str, timeout: float | None = None) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.reader.read(timeout)
        if line is not None and self.echo:
            self.out.write(line + "\n")
        elif line is None:
            self.out.write("\n")
        self.out.flush()
        return line

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        table = self.table
        for note in self.notes:
            self.say(note)
        try:
            while True:
                self.print_messages()
                snap = table.snapshot(self.recipient)
                state = snap["state"]
                if state["over"]:
                    self.show_end(snap)
                    answer = self.ask("Play again? [y/N] ")
                    if answer is None or answer.strip().lower() not in ("y", "yes"):
                        self.say("Bye.")
                        return 0
                    table.rematch(self.token)
                    continue
                curtain = snap["curtain"]
                if curtain and curtain["up"]:
                    self.hand_over(snap)
                    continue
                turn = table.computer_turn()
                if turn is not None:
                    self.computer_move(turn)
                    continue
                self.person_move(snap)
        except EndOfInput:
            self.say("The game is left unfinished. Bye.")
            return 0

    def print_messages(self) -> None:
        for message in self.table.poll(self.recipient):
            kind = message["type"]
            if kind == "game_started":
                self.say(self.start_text(message["state"]))
            elif kind in ("moved", "you_hit", "opponent_moved", "stone_hit", "action"):
                self.say(message["text"] + ".")
            elif kind == "game_over":
                self.last_over = message
            elif kind == "reveal":
                self.say("The game is over: every stone is revealed.")

    def start_text(self, state: dict[str, Any]) -> str:
        seats = self.table.seats
        red = seats[state["colors"]["red"]]["name"]
        blue = seats[state["colors"]["blue"]]["name"]
        rules = state["rules"]
        swap = "" if rules["swap"] == "off" else f", swap ({rules['swap']})"
        limit = self.table.settings.time_limit
        clock = f", {limit:g} s per move" if limit else ""
        return (
            f"Game {state['number']} of {rules['variant']} on {rules['rows']}x{rules['cols']}{swap}{clock}. "
            f"Red (X, moves first): {red}. Blue (O): {blue}."
        )

    def hand_over(self, snap: dict[str, Any]) -> None:
        seat = snap["curtain"]["seat"]
        info = self.table.seats[seat]
        color = info["color"].capitalize()
        clear_screen(self.out, self.color)
        answer = self.ask(f"Pass the device to {color} ({info['name']}), then press Enter. ")
        if answer is None:
            raise EndOfInput
        clear_screen(self.out, self.color)
        self.table.lift_curtain(self.token)
        self.table.poll(self.recipient)  # the lifted view comes with the next snapshot
        state = self.table.snapshot(self.recipient)["state"]
        for line in self.since_last_turn(state, seat):
            self.say(line)

    def since_last_turn(self, state: dict[str, Any], seat: str) -> list[str]:
        """What happened since the start of ``seat``'s previous turn, as its own view tells it."""
        history = state["history"]
        end = max((k for k, item in enumerate(history) if item["seat"] == seat), default=-1)
        if end < 0:
            return []
        start = end
        while start > 0 and history[start - 1]["seat"] == seat:
            start -= 1
        lines = [
            "Your last turn: "
            + ", ".join(_describe(item, mine=True) for item in history[start : end + 1])
            + "."
        ]
        later = [_describe(item, mine=False) for item in history[end + 1 :]]
        if later:
            lines.append("Since then: " + "; ".join(later) + ".")
        return lines

    def computer_move(self, turn: Any) -> None:
        from ..bots import RandomBot
        from ..errors import HexError

        name = self.table.seats[turn.seat]["name"]
        self.say(f"{turn.color} ({name}) is thinking...")
        try:
            move = turn.run()
            self.table.submit(turn, move)
        except HexError:
            self.table.submit(turn, RandomBot().choose(turn.view))

    def person_move(self, snap: dict[str, Any]) -> None:
        from ..errors import HexError

        state = snap["state"]
        seat = state["to_move_seat"]
        name = self.table.seats[seat]["name"]
        color = state["to_move"].capitalize()
        self.show_board(state)
        prompt = f"{color} ({name}), your move"
        if state["swap_available"]:
            prompt += " (a cell, or swap)"
        while True:
            deadline = self.table.deadline
            timeout = None
            timer = ""
            if deadline is not None:
                timeout = max(0.0, deadline - self.table.clock.now())
                timer = f" [{timeout:.0f} s left]"
            try:
                line = self.ask(f"{prompt}{timer}: ", timeout)
            except TimeoutError:
                self.say()
                self.table.tick()
                return
            if line is None:
                raise EndOfInput
            word = line.strip().lower()
            if word in ("", "board"):
                if word:
                    self.show_board(self.table.snapshot(self.recipient)["state"])
                continue
            if word in ("help", "?", "h"):
                self.say(HELP)
                continue
            if word in ("quit", "exit"):
                raise EndOfInput
            try:
                if word == "resign":
                    self.table.resign(self.token, seat)
                elif word in ("undo", "takeback"):
                    if not self.table.ask_takeback(self.token):
                        self.say("The computer declined the takeback (this game is rated).")
                        continue
                    self.say("Taken back.")
                else:
                    self.table.play(self.token, word)
                return
            except HexError as e:
                if getattr(e, "code", None) == "game-over":
                    return  # the clock ran out while typing; the loop shows the end
                self.say(f"? {e}")

    # ------------------------------------------------------------------ boards

    def show_board(self, state: dict[str, Any]) -> None:
        board = state["board"]
        if board is None:
            return
        last = None
        history = state["history"]
        if history and history[-1]["cell"]:
            last = _cell(history[-1]["cell"])
        chain = []
        if state["over"] and state["result"]:
            chain = [_cell(name) for name in state["result"]["completed_chain"]]
        self.say()
        self.say(draw_board(board, last=last, chain=chain, color=self.color))
        if self.dark and not state["over"]:
            notes = []
            if state["hidden_stones"]:
                notes.append(f"hidden enemy stones on the board: {state['hidden_stones']}")
            if state["hits_received"]:
                notes.append(f"your stones hit so far: {state['hits_received']}")
            if notes:
                self.say("(" + "; ".join(notes) + ")")

    def show_end(self, snap: dict[str, Any]) -> None:
        state = snap["state"]
        result = state["result"]
        self.show_board(state)
        if state["board"] is None:
            self.say(
                "(The board stays hidden after a resignation or a time-out; the record has every stone.)"
            )
        text = self.last_over["text"] if self.last_over else f"{result['winner'].capitalize()} wins"
        if result["winner_seat"] == "A" and self.against_computer:
            winner = "You win"  # the person at the keyboard
        else:
            winner = self.table.seats[result["winner_seat"]]["name"] + " wins"
        if result["completed_chain"]:
            owner = "losing" if state["rules"]["variant"] == "rex" else "winning"
            text += f" (the {owner} chain is in lower case: {' '.join(result['completed_chain'])})"
        self.say(f"{text}. {winner} game {state['number']}.")
        wins = snap["series"]["wins"]
        seats = self.table.seats
        if snap["series"]["games"] > 1:
            self.say(f"Series: {seats['A']['name']} {wins['A']}, {seats['B']['name']} {wins['B']}.")
        self.save_records()

    def save_records(self) -> None:
        if not self.save:
            return
        os.makedirs(self.save, exist_ok=True)
        for record in self.table.records[self.saved :]:
            path = os.path.join(self.save, f"game-{record.number}.sgf")
            with open(path, "w", encoding="utf-8") as f:
                f.write(record.to_sgf() + "\n")
            self.say(f"Saved {path}")
        self.saved = len(self.table.records)


def _cell(name: str) -> tuple[int, int]:
    from ..cells import Cell

    cell = Cell.parse(name)
    return (cell.row, cell.col)


def _describe(item: dict[str, Any], *, mine: bool) -> str:
    color = item["color"].capitalize()
    cell = item["cell"]
    if item["result"] == "swapped":
        return "you swapped" if mine else f"{color} swapped"
    if item["result"] == "hit":
        if mine:
            return f"{cell} hit a hidden stone (now found)"
        return f"{color} hit one of your stones" if cell is None else f"{color} hit your stone on {cell}"
    if mine:
        return f"placed a stone on {cell}"
    return f"{color} placed a stone" + (f" on {cell}" if cell else "")
