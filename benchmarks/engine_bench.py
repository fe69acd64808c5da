"""Rules engine and table log figures. Prints; asserts nothing (machines are noisy).

    .venv/bin/python benchmarks/engine_bench.py [--logs 1000]

- events applied per second (parsed dicts pushed into a Game);
- `companion replay` on N logs of about 100 lines each, in one process, wall time included
  start-up (the target: 1000 logs in under 3 s);
- the cost of one undo late in a long game: a snapshot pop (what Game does) against
  replaying the prefix (the alternative).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.engine import Game
from companion.simulate import SimTable
from companion.tablelog import encode, load_game

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def long_log(seed: int, target: int = 100) -> list[dict]:
    """A game of about `target` lines: whole games, with misreads undone along the way."""
    rng = random.Random(seed)
    table = SimTable(NAMES[: rng.randint(2, 6)], rng)
    game = Game()
    events = [table.start_event()]
    table.play(game, events[0])
    while not game.over and len(events) < target:
        event = table.next_event(game)
        if rng.random() < 0.8 and len(events) < target - 3:
            game.push(event)
            if not game.over:
                game.pop()
                events += [event, {"event": "undo"}]
            else:
                game = load_game(game.events[:-1])
        table.play(game, event)
        events.append(event)
    return events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=int, default=1000)
    args = ap.parse_args()

    logs = [long_log(seed) for seed in range(args.logs)]
    lines = sum(len(x) for x in logs)
    print(f"{len(logs)} logs, {lines} lines, {lines / len(logs):.0f} lines per log on average")

    t = time.perf_counter()
    for events in logs:
        g = Game()
        for e in events:
            g.push(e)
    dt = time.perf_counter() - t
    print(f"apply: {lines / dt:,.0f} events per second ({dt * 1e6 / lines:.1f} us per event)")

    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, events in enumerate(logs):
            p = Path(d) / f"{i:04d}.jsonl"
            p.write_bytes(b"".join(encode(e) for e in events))
            paths.append(str(p))
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "companion", "replay", *paths],
                             capture_output=True, check=False)
        dt = time.perf_counter() - t
        bad = out.stdout.count(b'"error"')
        print(f"replay: {len(paths)} logs in {dt:.2f} s, one process, start-up included "
              f"({len(paths) / dt:,.0f} logs per second; {bad} with errors)")

    # Undo late in a long game: the longest log, all but its last event in force.
    events = load_game(max(logs, key=len)).events  # the events in force, undone ones gone
    prefix = events[:-1]
    game = load_game(prefix)
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        game.push(events[-1]) if not game.over else None
        game.pop()
    dt_pop = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for _ in range(200):
        load_game(prefix[:-1])
    dt_replay = (time.perf_counter() - t) / 200
    print(f"undo at event {len(prefix)}: snapshot pop {dt_pop * 1e6:.1f} us (push included), "
          f"replaying the prefix {dt_replay * 1e6:.0f} us")


if __name__ == "__main__":
    main()
