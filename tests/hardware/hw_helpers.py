"""Helpers shared by the hardware tests."""

from __future__ import annotations

import queue
import re
from pathlib import Path

from gpiozero.pins.mock import MockPin

from hardware.config import PinMap, parse_pinmap

EXAMPLE_PINS = Path(__file__).resolve().parents[2] / "hardware" / "pins.example.toml"


def with_oe_text(line: str = "oe = 2") -> str:
    """The shipped chain's pin map with its optional OE line put in (``line``), as
    docs/wiring.md builds it."""
    text, count = re.subn(r"^# oe = 2 ", line + " ", EXAMPLE_PINS.read_text(), flags=re.M)
    assert count == 1, "the example offers oe = 2 as a comment"
    return text


def with_oe(line: str = "oe = 2") -> PinMap:
    return parse_pinmap(with_oe_text(line), source="pins.toml")


def sent_words(trace, data_level=False):
    """Decode the lines' history: the DS level sampled at each rising SHCP edge, one word per
    rising STCP edge. Returns the words in the order they were latched, each as the outputs
    (index 0 = first chip's Q0): the last bit clocked in sits at Q0."""
    words, bits, data = [], [], data_level
    for line, level in trace:
        if line == "data":
            data = level
        elif line == "clock" and level:
            bits.append(data)
        elif line == "latch" and level:
            words.append(tuple(reversed(bits)))
            bits = []
    return words


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


class HeldDownPin(MockPin):
    """A button's pin held to GND from before the panel opens (a jammed switch, a wire shorted
    to GND, someone leaning on it): the pull-up the panel asks for cannot lift it until the
    test lets it go. Make it with ``factory.pin(gpio, pin_class=HeldDownPin)`` first."""

    held = True

    def _set_pull(self, value):
        super()._set_pull(value)
        if self.held:
            self.drive_low()

    def let_go(self):
        self.held = False
        self.drive_high()


class FakeTimers:
    """Stands in for ``threading.Timer``: a timer fires only when ``advance`` moves the test's
    clock past it, on the test's own thread, in the order they fall due."""

    def __init__(self, clock):
        self.clock = clock
        self.pending: list[_FakeTimer] = []

    def __call__(self, interval, function, args=None, kwargs=None):
        return _FakeTimer(self, interval, lambda: function(*(args or ()), **(kwargs or {})))

    def advance(self, seconds: float) -> None:
        end = self.clock.t + seconds
        while True:
            due = [t for t in self.pending if t.due <= end]
            if not due:
                break
            first = min(due, key=lambda t: t.due)
            self.pending.remove(first)
            self.clock.t = max(self.clock.t, first.due)
            first.function()
        self.clock.t = end


class _FakeTimer:
    def __init__(self, timers: FakeTimers, interval: float, function):
        self.timers, self.interval, self.function = timers, interval, function
        self.name, self.daemon, self.due = "", False, None

    def start(self):
        self.due = self.timers.clock.t + self.interval
        self.timers.pending.append(self)

    def cancel(self):
        if self in self.timers.pending:
            self.timers.pending.remove(self)
