"""Mock pins for the virtual panel: bounded history, and simulated 74HC595 chips.

The virtual panel runs as long as the app does, so its mock pins keep only their recent history.
``Mock74HC595Chain`` listens to the mock data, clock and latch pins the way real chips listen to the
wires (DS sampled on SHCP's rising edge, outputs updated on STCP's rising edge), so what the virtual
panel shows is what real chips would show for the same bit stream.
"""

from __future__ import annotations

from collections import deque
from time import monotonic

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin, PinState

HISTORY = 1000  # state changes each mock pin keeps


class BoundedMockPin(MockPin):
    """A MockPin whose ``states`` history keeps only the last ``HISTORY`` changes."""

    def clear_states(self):
        self._last_change = monotonic()
        self.states = deque([PinState(0.0, self._state)], maxlen=HISTORY)


class ChainLinePin(BoundedMockPin):
    """A mock pin wired to the data, clock or latch input of a ``Mock74HC595Chain``."""

    def __init__(self, factory, info, chain: Mock74HC595Chain | None = None, role: str = ""):
        super().__init__(factory, info)
        self.chain = chain
        self.role = role

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed and self.chain is not None:
            self.chain._edge(self.role, bool(value))
        return changed


class PWMChainLinePin(ChainLinePin, MockPWMPin):
    """A ``ChainLinePin`` on a MockFactory whose pins do PWM (``pin_class=MockPWMPin``): that
    factory refuses to mix pins with PWM and pins without."""


class Mock74HC595Chain:
    """``chips`` simulated 74HC595s on the mock GPIOs ``data``, ``clock`` and ``latch`` of
    ``factory``. Attach it before any device claims those pins.

    ``outputs[i]`` is output i (0 = first chip's Q0) as latched; ``trace`` is the recent line
    activity as ``(line, level)`` pairs in the order it happened, for decoding in tests.
    """

    def __init__(self, factory: MockFactory, *, data: int, clock: int, latch: int,
                 chips: int = 4, trace: int = 4096):
        size = chips * 8
        self.register = [False] * size
        self.outputs: tuple[bool, ...] = (False,) * size
        self.latches = 0
        self.trace: deque[tuple[str, bool]] = deque(maxlen=trace)
        self._pins = {}
        line = PWMChainLinePin if issubclass(factory.pin_class, MockPWMPin) else ChainLinePin
        for role, gpio in (("data", data), ("clock", clock), ("latch", latch)):
            pin = factory.pin(gpio, pin_class=line, chain=self, role=role)
            if not isinstance(pin, ChainLinePin) or pin.chain is not self:
                raise ValueError(f"GPIO {gpio} is already in use: attach the chain first")
            self._pins[role] = pin

    def _edge(self, role: str, level: bool) -> None:
        self.trace.append((role, level))
        if role == "clock" and level:
            self.register = [bool(self._pins["data"].state)] + self.register[:-1]
        elif role == "latch" and level:
            self.outputs = tuple(self.register)
            self.latches += 1
