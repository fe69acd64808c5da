"""How long updating all six health dials through the 74HC595 chain takes.

Runs on gpiozero's MockFactory (mock pins, on this machine): no Raspberry Pi needed. Each update
changes every dial and goes out as one 32-bit word. Prints wall-clock and CPU time per update in
ms; the target is under 2 ms per update. Then the same with the dials dimmed (brightness 50 %):
the 3-seat direct wiring on mock pins that do PWM, and the chain dimmed through OE on GPIO 2;
and how many pins run software PWM, and so how many edges a second a Pi would switch, on the
idle table and in play. The PWM itself runs in the pin library on a Pi, not measured here.

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
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.config import default_pinmap, direct_pinmap, parse_pinmap
from hardware.panel import PWM_HZ, build_panel, virtual_panel
from hardware.shiftreg import ShiftRegisterFactory

TARGET_MS = 2.0


def state(healths, turn):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    players = [{"name": n, "health": h, "alive": h > 0}
               for n, h in zip(names[:len(healths)], healths, strict=True)]
    return {"players": players,
            "expect": {"action": "turn", "player": names[turn]}}


STATES = [state([5, 4, 3, 2, 1, 5], 0), state([1, 2, 3, 4, 5, 0], 3)]
STATES3 = [state([5, 4, 3], 0), state([1, 2, 5], 2)]  # the direct wiring's 3 seats


def chain_with_oe():
    """The shipped chain with its optional OE line on GPIO 2."""
    text = (Path(__file__).resolve().parents[1] / "hardware" / "pins.example.toml").read_text()
    # Without the line, the chain would be measured without OE, and report 0 pins of PWM.
    if "# oe = 2 " not in text:
        raise SystemExit("pins.example.toml has no '# oe = 2' line to turn on: update the bench")
    return parse_pinmap(text.replace("# oe = 2 ", "oe = 2 ", 1), source="pins.example.toml")


def pwm_pins(factory) -> int:
    """How many of the factory's pins run PWM now."""
    return sum(1 for pin in factory.pins.values() if getattr(pin, "frequency", None))


def measure(update, n, *, tidy=None):
    """Wall-clock and thread CPU time of each update, in ms. ``tidy`` runs untimed every 100
    updates (to empty plain MockPin's ever-growing history, a mock-only cost)."""
    update(0)  # warm up
    wall, cpu = [], []
    for i in range(n):
        if tidy is not None and i % 100 == 0:
            tidy()
        t, c = time.perf_counter(), time.thread_time()
        update(i)
        cpu.append((time.thread_time() - c) * 1000)
        wall.append((time.perf_counter() - t) * 1000)
    return wall, cpu


def report(name, times, writes=None):
    wall, cpu = (sorted(x) for x in times)

    def p99(xs):
        return xs[int(len(xs) * 0.99) - 1]

    ok = statistics.median(wall) < TARGET_MS and p99(cpu) < TARGET_MS
    extra = f"; {writes:.0f} pin changes per update" if writes is not None else ""
    print(f"{name}{extra}\n"
          f"    wall clock: median {statistics.median(wall):.3f}  mean {statistics.fmean(wall):.3f}"
          f"  p99 {p99(wall):.3f}  max {wall[-1]:.3f} ms\n"
          f"    CPU time:   median {statistics.median(cpu):.3f}  mean {statistics.fmean(cpu):.3f}"
          f"  p99 {p99(cpu):.3f}  max {cpu[-1]:.3f} ms"
          f"   [{'under' if ok else 'OVER'} {TARGET_MS:g} ms]")
    return ok


def pin_writes(factory, pinmap):
    c = pinmap.chain
    return sum(len(factory.pin(g).states) - 1 for g in (c.data, c.clock, c.latch))


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

    def tidy_factory(f=factory):
        for pin in f.pins.values():
            pin.clear_states()

    tidy_factory()
    shifts = chain.shifts
    for i in range(10):
        raw(i)
    changes = pin_writes(factory, pm) / (chain.shifts - shifts)
    ok &= report("6 LEDBarGraphs on the chain, one batch", measure(raw, n, tidy=tidy_factory),
                 changes)
    for dial in dials:
        dial.close()
    chain.close()
    factory.close()

    # 2. the panel as the app uses it: panel.show(state), validation and patterns included
    factory = MockFactory()
    panel = build_panel(pm, events=queue.Queue(), pin_factory=factory, animate=False)
    ok &= report("panel.show(state), mock pins",
                 measure(lambda i: panel.show(STATES[i % 2]), n,
                         tidy=lambda: [p.clear_states() for p in factory.pins.values()]))
    panel.close()
    factory.close()

    # 3. the virtual panel: the same, plus the simulated chips decoding every edge
    panel = virtual_panel(pm, events=queue.Queue(), animate=False)
    ok &= report("panel.show(state), virtual panel with simulated chips",
                 measure(lambda i: panel.show(STATES[i % 2]), n))
    panel.close()

    # 4. dimmed to 50 %: PWM started and stopped on the candles that change (direct wiring),
    # or on OE alone (the chain); with the same update on undimmed pins beside it
    runs = (("direct wiring, 3 dials, mock pins without PWM (full brightness)",
             direct_pinmap(), MockFactory, STATES3, None),
            ("direct wiring, 3 dials, dimmed to 50 % (mock PWM pins)",
             direct_pinmap(), lambda: MockFactory(pin_class=MockPWMPin), STATES3, 0.5),
            ("chain with OE on GPIO 2, dimmed to 50 % (mock PWM pins)",
             chain_with_oe(), lambda: MockFactory(pin_class=MockPWMPin), STATES, 0.5))
    pwm_counts = []
    for name, pinmap, make, states, brightness in runs:
        factory = make()
        panel = build_panel(pinmap, events=queue.Queue(), pin_factory=factory, animate=False)
        if brightness is not None:
            panel.set_brightness(brightness)
            panel.blank()
            idle = pwm_pins(factory)
            panel.show(states[0])
            pwm_counts.append((name, idle, pwm_pins(factory)))
        ok &= report(f"panel.show(state), {name}",
                     measure(lambda i, p=panel, s=states: p.show(s[i % 2]), n,
                             tidy=lambda f=factory: [p.clear_states() for p in f.pins.values()]))
        panel.close()
        factory.close()
    for name, idle, playing in pwm_counts:
        print(f"software PWM at {PWM_HZ} Hz, {name}: {idle} pins on the idle table (dark dials), "
              f"{playing} in play ({playing * 2 * PWM_HZ} edges a second for the Pi's pin "
              "library to switch; not measured here)")
    print("Held to the target: the wall-clock median and the CPU-time p99. Wall-clock p99 and max "
          "include time the process waits while other programs use the CPU.")
    print("All under the target." if ok else "Some figures are over the target.")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
