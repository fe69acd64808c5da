"""A table process for the kill-and-resume test: plays one planned game through a TableSession,
saying after each event that it is on disk. Run: python kiosk_table_process.py LOG DB SEED"""

from __future__ import annotations

import sys
import time

from companion.kiosk.history import History
from companion.kiosk.session import TableSession
from companion.simulate import play_game


def main(log: str, db: str, seed: str) -> int:
    plan = [dict(e) for e in play_game(["Ann", "Ben", "Cat", "Dan"], int(seed))[1]]
    with History.open(db) as history, TableSession.open(log, history=history) as session:
        done = len(session.logged)
        print(f"resumed {done}", *session.messages, sep="\n", flush=True)
        for n, event in enumerate(plan[done:], done + 1):
            session.push(event)
            print(f"pushed {n}", flush=True)
            time.sleep(0.01)
        print(f"over {session.recorded}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
