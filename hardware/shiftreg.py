"""A chain of 74HC595 shift registers as a gpiozero pin factory.

Each output of the chain is a gpiozero pin, so LEDs and LEDBarGraphs are built on it exactly as on
GPIO pins: ``LED(3, pin_factory=chain)``. The chain itself is driven by three gpiozero
``DigitalOutputDevice``s (data, clock, latch) on an ordinary pin factory (the Pi's, or MockFactory).

Output 0 is the first chip's Q0, output 8 the second chip's Q0, and so on. A write shifts the whole
chain out (last output first) and pulses the latch; inside ``with chain.batch():`` writes are
gathered and shifted out once at the end, which is how a whole panel is updated at once.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from gpiozero import DigitalOutputDevice
from gpiozero.exc import PinInvalidFunction, PinInvalidPin, PinPWMUnsupported
from gpiozero.pins import BoardInfo, Factory, HeaderInfo, Pin, PinInfo

OUTPUTS_PER_CHIP = 8


class ShiftRegisterPin(Pin):
    """One output of the chain. Always an output; no PWM, no edge detection."""

    def __init__(self, factory: ShiftRegisterFactory, info: PinInfo, index: int):
        self._factory = factory
        self._info = info
        self.index = index

    def __repr__(self):
        return self._info.name

    def _get_info(self):
        return self._info

    def _get_function(self):
        return "output"

    def _set_function(self, value):
        if value != "output":
            raise PinInvalidFunction(f"{self!r} is a 74HC595 output; it cannot be {value}")

    def _get_state(self):
        return self._factory._bits[self.index]

    def _set_state(self, value):
        self._factory._write(self.index, bool(value))

    def _get_frequency(self):
        return None

    def _set_frequency(self, value):
        if value is not None:
            raise PinPWMUnsupported(f"{self!r} is a 74HC595 output: no PWM")

    def close(self):
        self._set_state(False)


def _board_info(chips: int) -> BoardInfo:
    pins = {}
    for index in range(chips * OUTPUTS_PER_CHIP):
        chip, q = divmod(index, OUTPUTS_PER_CHIP)
        name = f"OUT{index}"
        pins[index + 1] = PinInfo(
            number=index + 1, name=name,
            names=frozenset({index, str(index), name, f"CHIP{chip + 1}_Q{q}"}),
            pull="", row=chip + 1, col=q + 1, interfaces=frozenset({"gpio"}))
    header = HeaderInfo(name="CHAIN", rows=chips, columns=OUTPUTS_PER_CHIP, pins=pins)
    return BoardInfo(
        revision="595", model=f"{chips} x 74HC595", pcb_revision="", released="", soc="",
        manufacturer="", memory=0, storage="", usb=0, usb3=0, ethernet=0, eth_speed=0,
        wifi=False, bluetooth=False, csi=0, dsi=0, headers={"CHAIN": header}, board="")


class ShiftRegisterFactory(Factory):
    """A gpiozero pin factory whose pins are the outputs of ``chips`` daisy-chained 74HC595s.

    ``data``, ``clock`` and ``latch`` are the GPIOs wired to the first chip's DS (SER) and every
    chip's SHCP (SRCLK) and STCP (RCLK); ``pin_factory`` is the factory those GPIOs live on
    (None: gpiozero's default). All outputs start low and are shifted out at once.
    """

    def __init__(self, data: int, clock: int, latch: int, *, chips: int = 4,
                 pin_factory: Factory | None = None):
        super().__init__()
        if not 1 <= chips <= 8:
            raise ValueError(f"chips must be 1 to 8, got {chips}")
        self.chips = chips
        self._bits = [False] * (chips * OUTPUTS_PER_CHIP)
        self._info = _board_info(chips)
        self._pins: dict[int, ShiftRegisterPin] = {}
        self._lock = threading.RLock()
        self._depth = 0
        self._dirty = False
        self.shifts = 0  # how many times the chain has been shifted out and latched
        self._lines: list[DigitalOutputDevice] = []
        try:
            for gpio in (data, clock, latch):
                self._lines.append(DigitalOutputDevice(gpio, pin_factory=pin_factory))
        except Exception:
            self._close_lines()
            raise
        self._data, self._clock, self._latch = (line.pin for line in self._lines)
        self._level = bool(self._data.state)  # what DS is driven to now
        self._shift_out()

    # gpiozero Factory API -------------------------------------------------------------------
    def _get_board_info(self):
        return self._info

    def pin(self, name):
        for _header, info in self._info.find_pin(name):
            index = info.number - 1
            pin = self._pins.get(index)
            if pin is None:
                pin = self._pins[index] = ShiftRegisterPin(self, info, index)
            return pin
        raise PinInvalidPin(f"{name!r} is not an output of this chain "
                            f"(0 to {len(self._bits) - 1})")

    def ticks(self):
        return self._lines[0].pin_factory.ticks()

    def ticks_diff(self, later, earlier):
        return self._lines[0].pin_factory.ticks_diff(later, earlier)

    def close(self):
        """Turn every output off and let go of the three GPIOs."""
        if not self._lines:
            return
        with self._lock:
            self._bits = [False] * len(self._bits)
            self._shift_out()
            self._close_lines()

    # the chain ------------------------------------------------------------------------------
    @property
    def outputs(self) -> tuple[bool, ...]:
        """What the chain's outputs hold (as last written)."""
        return tuple(self._bits)

    @contextmanager
    def batch(self):
        """Gather every write inside the block into one shift-out at its end."""
        with self._lock:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
                if self._depth == 0 and self._dirty:
                    self._shift_out()

    def _write(self, index: int, value: bool) -> None:
        with self._lock:
            if self._bits[index] == value:
                return
            self._bits[index] = value
            if self._depth:
                self._dirty = True
            else:
                self._shift_out()

    def _shift_out(self) -> None:
        # The first bit clocked in ends up furthest along the chain, so send the last output
        # first. SHCP's rising edge samples DS; STCP's rising edge shows the new bits.
        data, clock, latch = self._data, self._clock, self._latch
        level = self._level
        for bit in reversed(self._bits):
            if bit != level:
                data.state = level = bit
            clock.state = True
            clock.state = False
        self._level = level
        latch.state = True
        latch.state = False
        self._dirty = False
        self.shifts += 1

    def _close_lines(self) -> None:
        for line in self._lines:
            line.close()
        self._lines = []
