"""Soak: many simulated games in one process through the kiosk's table session and history,
printing memory as it goes. The figures should stay flat: a kiosk runs for months.

    python benchmarks/kiosk_soak.py [--games 1000] [--fsync] [--dir DIR]

Each game is played at the simulated table, every event through TableSession.push (the table
log), the finished game recorded in the history database, then a new game clears the table.
Without --fsync the log is not forced to disk (a soak measures memory, not the disk); the
folder defaults to /dev/shm when there is one.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.kiosk.history import History  # noqa: E402
from companion.kiosk.session import TableSession  # noqa: E402
from companion.simulate import SimTable  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "민지", "서준"]


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def play_one(session: TableSession, rng: random.Random) -> int:
    players = rng.sample(NAMES, rng.randint(2, 6))
    table = SimTable(players, rng)
    start = table.start_event()
    session.new_game(start)  # (on an empty table it just starts the game)
    n = 1
    while not session.game.over:
        # The simulated table plays through the session: saved first, then the cards move.
        table.play(session, table.next_event(session.game))
        n += 1
    return n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--fsync", action="store_true")
    parser.add_argument("--dir", default="/dev/shm" if os.path.isdir("/dev/shm") else None)
    args = parser.parse_args()

    rng = random.Random(2026)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        folder = Path(folder)
        history = History.open(folder / "history.sqlite")
        session = TableSession.open(folder / "table.jsonl", history=history, fsync=args.fsync)
        tracemalloc.start()
        start = time.perf_counter()
        events = 0
        print(f"{'games':>6} {'events':>8} {'RSS MiB':>8} {'traced MiB':>10} {'s':>6}")
        marks = {}
        for game in range(1, args.games + 1):
            events += play_one(session, rng)
            if game % max(1, args.games // 10) == 0 or game == 1:
                gc.collect()
                traced = tracemalloc.get_traced_memory()[0] / 2**20
                rss = rss_kib() / 1024
                marks[game] = (rss, traced)
                print(f"{game:>6} {events:>8} {rss:>8.1f} {traced:>10.2f} "
                      f"{time.perf_counter() - start:>6.1f}", flush=True)
        elapsed = time.perf_counter() - start
        first = marks[min(k for k in marks if k >= args.games // 10)]
        last = marks[args.games]
        print(f"games recorded: {history.game_count()}; archived logs: "
              f"{len(list((folder / 'games').iterdir()))}")
        print(f"{events / elapsed:.0f} events/s, {args.games / elapsed:.1f} games/s")
        print(f"memory from game {args.games // 10} to {args.games}: "
              f"RSS {last[0] - first[0]:+.1f} MiB, traced Python {last[1] - first[1]:+.2f} MiB")
        session.close()
        history.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
