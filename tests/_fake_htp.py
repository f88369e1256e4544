"""A misbehaving HTP engine for the client and match tests: ``python _fake_htp.py MODE [NAME]``.

It accepts every setup command; ``genmove`` behaves by MODE:

- ``die``: exits at once (a crash); ``die-later``: plays the first legal cell twice, then exits.
- ``silent``: never answers.
- ``garbage``: answers ``qq``; ``pass``: answers ``pass``.
- ``refuse``: answers ``? I will not``.
- ``resign``: answers ``resign``.
- ``a1``: always answers ``a1`` (illegal once a1 is taken).
- ``swap``: answers ``swap-pieces`` (Benzene's word for the sides swap), then the first free cell.
- ``first-free``: the first cell it has not seen played; ``slow``: the same after 0.3 s.

``python _fake_htp.py MODE NAME LOG`` also knows ``time_settings`` and ``time_left``, and
appends each of those commands it gets to the file LOG. Named ``mohex`` it speaks Benzene's
forms instead: no ``time_settings`` but ``param_game game_time`` (refused once a stone is on
the board, as MoHex refuses it), and ``time_left COLOR SECONDS`` (it refuses GTP's third
argument, as MoHex does).
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    mode = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "fake"
    log = sys.argv[3] if len(sys.argv) > 3 else None
    benzene = name == "mohex"
    size = (11, 11)
    taken: set[str] = set()
    genmoves = 0
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        answer = ""
        if command == "name":
            answer = name
        elif command == "list_commands":
            answer = "name\nlist_commands\nboardsize\nclear_board\nplay\ngenmove\nquit"
            if log:
                answer += "\nparam_game\nparam_mohex\ntime_left" if benzene else "\ntime_settings\ntime_left"
        elif command == "time_left" and benzene and len(args) > 2:
            print("? command needs at most 2 arguments\n", flush=True)
            continue
        elif words[:2] == ["param_game", "game_time"] and benzene and taken:
            print("? Cannot set game time if game started!\n", flush=True)
            continue
        elif log and (command in ("time_settings", "time_left") or words[:2] == ["param_game", "game_time"]):
            with open(log, "a", encoding="utf-8") as f:
                f.write(" ".join(words) + "\n")
        elif command == "quit":
            print("=\n", flush=True)
            return
        elif command == "boardsize":
            cols = int(args[0])
            size = (int(args[1]) if len(args) > 1 else cols, cols)
            taken.clear()
        elif command == "clear_board":
            taken.clear()
        elif command == "play":
            taken.add(args[1].lower())
        elif command == "genmove":
            genmoves += 1
            if mode == "die" or (mode == "die-later" and genmoves > 2):
                sys.exit(3)
            if mode == "silent":
                time.sleep(3600)
            if mode == "slow":
                time.sleep(0.3)
            if mode == "refuse":
                print("? I will not\n", flush=True)
                continue
            answer = {"garbage": "qq", "pass": "pass", "resign": "resign", "a1": "a1"}.get(mode, "")
            if mode == "swap" and len(taken) == 1:
                answer = "swap-pieces"
            if not answer:
                rows, cols = size
                free = [f"{chr(97 + c)}{r + 1}" for r in range(rows) for c in range(cols)]
                answer = next(cell for cell in free if cell not in taken)
            taken.add(answer)
        print(f"= {answer}\n", flush=True)


if __name__ == "__main__":
    main()
