"""`companion hw-test`: walk every candle and button of the table and say what works.

On real hardware: each candle lights in turn and is named, then each button is asked for; the
person checking confirms the candles. With ``--mock`` the same walk runs on the virtual panel: the
candles are checked by reading the mock pins (through simulated 74HC595s for the chain) and the
walk presses each button itself.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable
from typing import TextIO

from companion.app.inputs import is_press  # a ButtonEvent, not a ButtonStuck
from hardware.config import (
    CANDLES,
    PinMap,
    button_label,
    candle_wire,
    gpio_label,
)

SETTLE = 0.15  # seconds to wait after a press for any extra (bouncing) presses
AGAIN_SECONDS = 1.0  # the button just asked for, pressed again this soon after: no answer


def run(args) -> int:
    """The command: exit 0 when everything works, 1 when something does not, 2 for a bad
    pin map."""
    out = sys.stdout
    from hardware.panel import PanelError, open_panel

    events: queue.Queue = queue.Queue()
    try:
        panel = open_panel(args.pins, events=events, mock=args.mock, animate=False)
    except PanelError as exc:
        hint = "; elsewhere, walk the virtual panel: hw-test --mock" if (
            exc.kind == "no gpio") else ""
        print(f"{exc}{hint}", file=out)
        return 2 if exc.kind == "pin map" else 1
    try:
        ok = walk(panel, events, out=out, mock=args.mock, led_seconds=args.led_seconds,
                  button_seconds=args.button_seconds)
    finally:
        panel.close()
    return 0 if ok else 1


def walk(panel, events: queue.Queue, *, out: TextIO, mock: bool, led_seconds: float = 0.6,
         button_seconds: float = 20.0, confirm: Callable[[str], bool | None] | None = None,
         sleep: Callable[[float], None] = time.sleep) -> bool:
    """Run the check on ``panel``; print as it goes and a summary at the end. True if all works."""
    pm: PinMap = panel.pinmap
    say = lambda text="": print(text, file=out, flush=True)  # noqa: E731
    confirm = confirm or _ask
    say(f"Checking the table: {pm.describe()}.")
    if mock:
        say("Virtual panel on mock pins: candles are read back, buttons are pressed by the test.")

    # candles ----------------------------------------------------------------------------------
    say("")
    say("Candles, one at a time:")
    bad_candles = []
    for seat in range(pm.seats):
        for candle in range(CANDLES):
            levels = [[0] * CANDLES for _ in range(pm.seats)]
            levels[seat][candle] = 1
            panel.show_levels(levels)
            name = f"Seat {seat + 1}, candle {candle + 1}"
            line = f"  {name:<20} ({candle_wire(pm, seat, candle)})"
            if mock:
                problem = _candle_problem(panel.led_states(), seat, candle)
                if problem:
                    bad_candles.append(name)
                say(f"{line}: {problem or 'lit'}")
            else:
                say(line)
                sleep(led_seconds)
    panel.show_levels([[0] * CANDLES for _ in range(pm.seats)])
    total = pm.seats * CANDLES
    if mock:
        candles_ok = not bad_candles
        candle_summary = f"{total - len(bad_candles)} of {total} lit as named"
    else:
        answer = confirm("Did every candle light, one at a time, as it was named? [y/n] ")
        candles_ok = answer is True
        candle_summary = {True: f"all {total} confirmed", False: "NOT all lit (answered no)",
                          None: "not confirmed (no one answered)"}[answer]

    # buttons ----------------------------------------------------------------------------------
    say("")
    say("Buttons:" if mock else f"Buttons: press each one when asked ({button_seconds:g} s "
                                "for each).")
    working = 0
    previous = None
    for name, gpio in pm.buttons:
        label = button_label(name)
        levels = [[0] * CANDLES for _ in range(pm.seats)]
        if name.startswith("seat"):
            levels[int(name[4:]) - 1] = [1] * CANDLES  # light the dial of the seat asked for
        panel.show_levels(levels)
        _drain(events)  # a press made before the question (a second one, for sure) is no answer
        say(f"  Press the {label} button ({gpio_label(gpio)}) ...")
        problem = _stuck_problem(panel, name)
        if problem is None:
            if mock:
                panel.press(name)
            problem = _button_problem(events, name, False, button_seconds, sleep,
                                      again=previous)
        previous = name
        if problem is None:
            working += 1
        say(f"    {problem or 'works'}")
    _drain(events)
    say(f"  Hold the OK button down for a long press ({pm.hold_time:g} s) ...")
    long_problem = _stuck_problem(panel, "ok")
    if long_problem is None:
        if mock:
            panel.press("ok", long=True)
        long_problem = _button_problem(events, "ok", True, button_seconds + pm.hold_time,
                                       sleep, again=previous)
    say(f"    {long_problem or 'works'}")
    panel.show_levels([[0] * CANDLES for _ in range(pm.seats)])

    # summary ----------------------------------------------------------------------------------
    buttons_ok = working == len(pm.buttons) and long_problem is None
    say("")
    say(f"Candles: {candle_summary}.")
    say(f"Buttons: {working} of {len(pm.buttons)} work; long press "
        f"{'works' if long_problem is None else 'does not'}.")
    all_ok = candles_ok and buttons_ok
    say("All is well." if all_ok else "Something needs a look: see the lines above and "
                                      "docs/wiring.md.")
    return all_ok


def _candle_problem(states, seat: int, candle: int) -> str | None:
    lit = [(s, c) for s, row in enumerate(states) for c, v in enumerate(row) if v > 0.5]
    if lit == [(seat, candle)]:
        return None
    if not lit:
        return "NOT LIT"
    others = ", ".join(f"seat {s + 1} candle {c + 1}" for s, c in lit if (s, c) != (seat, candle))
    return f"WRONG: lit {others}"


def _stuck_problem(panel, name: str) -> str | None:
    """What is wrong with the button ``name`` if it reads pressed before it is asked for
    (None: it does not). Such a button gives no press until it comes up: waiting for one
    would end in NO PRESS, which sends the eye to a wire that is not connected."""
    button = panel.buttons.get(name)
    if button is None or not button.is_active:
        return None
    return ("STUCK: it reads pressed before anyone presses it: a jammed button, its wire "
            "touching GND, or something leaning on it")


def _drain(events: queue.Queue, name: str | None = None) -> int:
    """Take everything waiting in ``events``; how many presses there were (of the button
    ``name`` only, when given)."""
    n = 0
    while True:
        try:
            event = events.get_nowait()
        except queue.Empty:
            return n
        n += is_press(event) and (name is None or event.name == name)


def _button_problem(events: queue.Queue, name: str, long: bool, timeout: float,
                    sleep: Callable[[float], None], *, again: str | None = None
                    ) -> str | None:
    """What is wrong with the button ``name`` (None: it works). A press of ``again`` (the
    button asked for before) just after the question is that one pressed twice, to be
    sure: no answer (AGAIN_SECONDS)."""
    asked = time.monotonic()
    while True:
        try:
            event = events.get(timeout=max(0.0, asked + timeout - time.monotonic()))
        except queue.Empty:
            return f"NO PRESS within {timeout:g} s: check this button's wires"
        if not is_press(event):
            continue  # a button held down for long: the question is about presses
        if not (event.name == again != name and time.monotonic() - asked < AGAIN_SECONDS):
            break
    sleep(SETTLE)
    extra = _drain(events, event.name)  # bounce is the same button again
    if event.name != name:
        return (f"WRONG: that was {button_label(event.name)}; are the wires of "
                f"{button_label(name)} and {button_label(event.name)} swapped?")
    if long and not event.long:
        return f"SHORT: released before {button_label(name)} counted as held"
    if extra:
        return f"BOUNCY: one press gave {extra + 1}; check the button and its wires"
    return None


def _ask(question: str) -> bool | None:
    if not sys.stdin or not sys.stdin.isatty():
        return None
    try:
        answer = input(question).strip().lower()
    except EOFError:
        return None
    return answer.startswith("y") if answer else None
