"""How long updating all six health dials through the 74HC595 chain takes.

Runs on gpiozero's MockFactory (mock pins, on this machine): no Raspberry Pi needed. Each update
changes every dial and goes out as one 32-bit word (about 100 pin writes). Prints figures in ms;
the target is under 2 ms per update.

    .venv/bin/python benchmarks/hw_bench.py [--updates N]
"""

from __future__ import annotations

import argparse
import platform
import queue
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from gpiozero import LEDBarGraph
from gpiozero.pins.mock import MockFactory

from hardware.config import default_pinmap
from hardware.panel import build_panel, virtual_panel
from hardware.shiftreg import ShiftRegisterFactory

TARGET_MS = 2.0


def state(healths, turn):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    players = [{"name": n, "health": h, "alive": h > 0}
               for n, h in zip(names, healths, strict=True)]
    return {"players": players,
            "expect": {"action": "turn", "player": names[turn]}}


STATES = [state([5, 4, 3, 2, 1, 5], 0), state([1, 2, 3, 4, 5, 0], 3)]


def measure(update, n):
    update(0)  # warm up
    times = []
    for i in range(n):
        t = time.perf_counter()
        update(i)
        times.append((time.perf_counter() - t) * 1000)
    return times


def report(name, times, writes=None):
    times = sorted(times)
    p99 = times[int(len(times) * 0.99) - 1]
    extra = f", {writes:.0f} pin changes each" if writes is not None else ""
    verdict = "under" if p99 < TARGET_MS else "OVER"
    print(f"{name:<52} mean {statistics.fmean(times):.3f}  median {statistics.median(times):.3f}"
          f"  p99 {p99:.3f}  max {times[-1]:.3f} ms{extra}  [{verdict} {TARGET_MS:g} ms]")
    return p99 < TARGET_MS


def pin_writes(factory, pinmap):
    c = pinmap.chain
    return sum(len(factory.pin(g).states) for g in (c.data, c.clock, c.latch))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=2000)
    n = ap.parse_args().updates
    pm = default_pinmap()
    print(f"Python {platform.python_version()} on {platform.machine()}, gpiozero MockFactory "
          f"(mock pins), {pm.chain.chips} x 74HC595 = {pm.chain.outputs} outputs, "
          f"{pm.seats} dials, {n} updates each")
    ok = True

    # 1. the bare chain: 30 candles set inside one batch, one word out
    factory = MockFactory()
    chain = ShiftRegisterFactory(pm.chain.data, pm.chain.clock, pm.chain.latch,
                                 pin_factory=factory)
    dials = [LEDBarGraph(*d, pin_factory=chain) for d in pm.dials]
    counts = [(5, 4, 3, 2, 1, 5), (1, 2, 3, 4, 5, 0)]

    def raw(i):
        with chain.batch():
            for dial, count in zip(dials, counts[i % 2], strict=True):
                dial.lit_count = count

    for g in (pm.chain.data, pm.chain.clock, pm.chain.latch):
        factory.pin(g).clear_states()
    shifts = chain.shifts
    ok &= report("6 LEDBarGraphs on the chain, one batch", measure(raw, n),
                 pin_writes(factory, pm) / max(1, chain.shifts - shifts))
    for dial in dials:
        dial.close()
    chain.close()
    factory.close()

    # 2. the panel as the app uses it: panel.show(state), validation and patterns included
    factory = MockFactory()
    panel = build_panel(pm, events=queue.Queue(), pin_factory=factory, animate=False)
    ok &= report("panel.show(state), mock pins", measure(lambda i: panel.show(STATES[i % 2]), n))
    panel.close()
    factory.close()

    # 3. the virtual panel: the same, plus the simulated chips decoding every edge
    panel = virtual_panel(pm, events=queue.Queue(), animate=False)
    ok &= report("panel.show(state), virtual panel with simulated chips",
                 measure(lambda i: panel.show(STATES[i % 2]), n))
    panel.close()
    print("p99 is the figure held to the target. A max far above it in the first two lines is "
          "Python's garbage collector walking plain MockPin's ever-growing history; the virtual "
          "panel's pins keep a bounded history (third line).")
    print("All under the target." if ok else "Some figures are over the target.")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
