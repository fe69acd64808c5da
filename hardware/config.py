"""The pin map: which GPIO (or shift-register output) drives each candle, and which GPIO each
button is on. Loaded from a TOML file and checked as a whole before any pin is touched.

No gpiozero here: the command line imports this module to check a file quickly.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

CANDLES = 5  # LEDs per health dial: the game's 5 candles
MAX_SEATS = 6
MIN_SEATS = 2
CONTROL_BUTTONS = ("ok", "back", "undo")
WIRINGS = ("direct", "shift-register")
HEADER_GPIOS = range(0, 28)  # GPIO 0..27 are on the 40-pin header
RESERVED_GPIOS = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)"}
I2C_GPIOS = {2: "I2C SDA", 3: "I2C SCL"}
SPI_GPIOS = {7: "SPI CE1", 8: "SPI CE0", 9: "SPI MISO", 10: "SPI MOSI", 11: "SPI SCLK"}
OUTPUTS_PER_CHIP = 8
# GPIO number -> physical pin on the 40-pin header (the same on every 40-pin Raspberry Pi)
HEADER_PIN = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}
DEFAULT_HOLD = 0.8
DEFAULT_BOUNCE = 0.02

_TOP_KEYS = ("wiring", "seats", "buses", "shift_register", "dials", "buttons", "timing")


class PinMapError(ValueError):
    """A pin map that cannot be used. ``key`` is the TOML key at fault (dotted, e.g.
    ``buttons.ok``), ``problem`` says what is wrong with it."""

    def __init__(self, key: str, problem: str, *, source: str = "pin map"):
        self.key = key
        self.problem = problem
        self.source = source
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True, slots=True)
class ShiftChain:
    """A daisy chain of 74HC595s driven from three GPIOs."""

    data: int  # to SER (DS, pin 14) of the first chip
    clock: int  # to SRCLK (SHCP, pin 11) of every chip
    latch: int  # to RCLK (STCP, pin 12) of every chip
    chips: int = 4
    oe: int | None = None  # to OE (pin 13) of every chip, to dim them; None: OE to GND

    @property
    def outputs(self) -> int:
        return self.chips * OUTPUTS_PER_CHIP


@dataclass(frozen=True, slots=True)
class PinMap:
    """A checked pin map. ``dials[i]`` drives seat i+1 (candle 1 first): GPIO numbers for the
    direct wiring, chain outputs (0 = first chip's Q0) for the shift-register wiring."""

    wiring: str
    seats: int
    dials: tuple[tuple[int, ...], ...]
    buttons: tuple[tuple[str, int], ...]  # (name, GPIO), seats first then ok, back, undo
    chain: ShiftChain | None = None
    hold_time: float = DEFAULT_HOLD
    bounce_time: float = DEFAULT_BOUNCE
    i2c: bool = False
    spi: bool = False

    @property
    def button_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.buttons)

    def button_pin(self, name: str) -> int:
        for button, pin in self.buttons:
            if button == name:
                return pin
        raise KeyError(name)

    def describe(self) -> str:
        """One line for people: how this table is wired."""
        if self.chain is not None:
            c = self.chain
            oe = f", OE GPIO {c.oe}" if c.oe is not None else ""
            how = (f"{c.chips} x 74HC595 chain (data GPIO {c.data}, clock GPIO {c.clock}, "
                   f"latch GPIO {c.latch}{oe})")
        else:
            how = "LEDs on GPIO pins directly"
        return f"{self.seats} seats, {how}, {len(self.buttons)} buttons"


def seat_button(seat: int) -> str:
    """The button name of seat index ``seat`` (0-based): ``seat1`` for the first seat."""
    return f"seat{seat + 1}"


def button_label(name: str) -> str:
    """A button's name as staff say it: "Seat 2", "OK", "Back", "Undo"."""
    if name.startswith("seat"):
        return f"Seat {name[4:]}"
    return {"ok": "OK"}.get(name, name.capitalize())


def gpio_label(gpio: int) -> str:
    """"GPIO 17, header pin 11": how staff find a pin."""
    return f"GPIO {gpio}, header pin {HEADER_PIN[gpio]}"


def candle_wire(pinmap: PinMap, seat: int, candle: int) -> str:
    """Where candle ``candle`` of seat index ``seat`` (both 0-based) is wired."""
    target = pinmap.dials[seat][candle]
    if pinmap.chain is None:
        return gpio_label(target)
    chip, q = divmod(target, OUTPUTS_PER_CHIP)
    return f"chain output {target}: chip {chip + 1}, Q{q}, chip pin {QPIN[q]}"


QPIN = {0: 15, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}  # 74HC595 Qn -> DIP-16 pin


def as_toml(value: Any) -> str:
    """A value as it is written in the TOML file (true, "17", [4, 17]), not as Python
    writes it (True, '17'), for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(as_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "a section"
    return str(value)


def parse_pinmap(text: str, *, source: str = "pin map") -> PinMap:
    """A PinMap from TOML text; PinMapError if the text is not TOML or the map is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError("", f"not a valid TOML file ({exc})", source=source) from None
    except RecursionError:
        raise PinMapError("", "not a pin map: its values are nested too deeply",
                          source=source) from None
    return pinmap_from_dict(data, source=source)


def load_pinmap(path: str | Path) -> PinMap:
    """Read and check the pin map at ``path``; PinMapError (a ValueError) says what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise PinMapError("", "no such file", source=str(path)) from None
    except IsADirectoryError:
        raise PinMapError("", "it is a folder: give the pin map's file", source=str(path)) \
            from None
    except UnicodeDecodeError:
        raise PinMapError("", "it is not text (a pin map is a TOML text file, saved as UTF-8)",
                          source=str(path)) from None
    except OSError as exc:
        raise PinMapError("", f"cannot be read ({exc.strerror or exc})", source=str(path)) \
            from None
    return parse_pinmap(text, source=str(path))


def default_pinmap() -> PinMap:
    """The pin map shipped as ``hardware/pins.example.toml``: 6 seats on a 74HC595 chain.
    The virtual panel uses it when no pin map is given."""
    text = resources.files("hardware").joinpath("pins.example.toml").read_text("utf-8")
    return parse_pinmap(text, source="pins.example.toml")


def direct_pinmap() -> PinMap:
    """The example for the direct wiring shipped as ``hardware/pins-direct.example.toml``."""
    text = resources.files("hardware").joinpath("pins-direct.example.toml").read_text("utf-8")
    return parse_pinmap(text, source="pins-direct.example.toml")


class _Checker:
    def __init__(self, source: str):
        self.source = source
        self.owners: dict[int, str] = {}  # GPIO -> key that uses it

    def fail(self, key: str, problem: str) -> PinMapError:
        return PinMapError(key, problem, source=self.source)

    def table(self, data: dict, key: str, *, required: bool = True) -> dict:
        if key not in data:
            if required:
                raise self.fail(key, "missing section")
            return {}
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a section ([{key}]), got {as_toml(value)}")
        return value

    def integer(self, key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, got {as_toml(value)}")
        return value

    def number(self, key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"must be a number of seconds, got {as_toml(value)}")
        return float(value)

    def flag(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {as_toml(value)}")
        return value

    def gpio(self, key: str, value: Any, *, i2c: bool, spi: bool, owner: str = "") -> int:
        pin = self.integer(key, value)
        if pin in RESERVED_GPIOS:
            raise self.fail(key, f"GPIO {pin} is reserved for {RESERVED_GPIOS[pin]}; "
                                 "use one of GPIO 2 to 27")
        if pin not in HEADER_GPIOS:
            raise self.fail(key, f"GPIO {pin} is out of range: the header has GPIO 2 to 27")
        if i2c and pin in I2C_GPIOS:
            raise self.fail(key, f"GPIO {pin} is {I2C_GPIOS[pin]}, and I2C is in use "
                                 "(buses.i2c = true)")
        if spi and pin in SPI_GPIOS:
            raise self.fail(key, f"GPIO {pin} is {SPI_GPIOS[pin]}, and SPI is in use "
                                 "(buses.spi = true)")
        if pin in self.owners:
            raise self.fail(key, f"GPIO {pin} is used twice: already by {self.owners[pin]}")
        self.owners[pin] = owner or key
        return pin

    def unknown(self, section: str, table: dict, allowed: tuple[str, ...]) -> None:
        for name in table:
            if name not in allowed:
                key = f"{section}.{name}" if section else name
                raise self.fail(key, f"unknown key; expected one of: {', '.join(allowed)}")


def pinmap_from_dict(data: dict, *, source: str = "pin map") -> PinMap:
    """Check a parsed pin map (the TOML document as a dict) and build the PinMap."""
    ck = _Checker(source)
    from companion.config import _SECTIONS  # the configuration's own sections

    if {*_SECTIONS, "language"} & set(data) and "wiring" not in data:
        # The table's configuration given for its pin map (both live in /etc/...): said
        # so, not "language: unknown key".
        raise ck.fail("", "this is the companion's configuration, not a pin map: give the "
                          "file its [hardware] pins setting names (e.g. "
                          "/etc/abraca-companion/pins.toml)")
    ck.unknown("", data, _TOP_KEYS)

    wiring = data.get("wiring")
    if wiring not in WIRINGS:
        raise ck.fail("wiring", f"must be \"direct\" or \"shift-register\", got {as_toml(wiring)}")
    if "seats" not in data:
        raise ck.fail("seats", "missing: how many seats (player places) the table has")
    seats = ck.integer("seats", data["seats"])
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ck.fail("seats", f"must be {MIN_SEATS} to {MAX_SEATS}, got {seats}")

    buses = ck.table(data, "buses", required=False)
    ck.unknown("buses", buses, ("i2c", "spi"))
    i2c = ck.flag("buses.i2c", buses.get("i2c", False))
    spi = ck.flag("buses.spi", buses.get("spi", False))

    timing = ck.table(data, "timing", required=False)
    ck.unknown("timing", timing, ("hold", "bounce"))
    hold = ck.number("timing.hold", timing.get("hold", DEFAULT_HOLD))
    if not 0.1 <= hold <= 5:
        raise ck.fail("timing.hold", f"must be 0.1 to 5 seconds, got {hold}")
    bounce = ck.number("timing.bounce", timing.get("bounce", DEFAULT_BOUNCE))
    if not 0 <= bounce < hold / 2:
        raise ck.fail("timing.bounce", f"must be 0 or more and less than half of timing.hold "
                                       f"({hold / 2:g} s), got {bounce}")

    chain = None
    if wiring == "shift-register":
        sr = ck.table(data, "shift_register")
        ck.unknown("shift_register", sr, ("data", "clock", "latch", "chips", "oe"))
        pins = {}
        for name in ("data", "clock", "latch"):
            if name not in sr:
                raise ck.fail(f"shift_register.{name}", "missing: the GPIO of the chain's "
                                                        f"{name} line")
            pins[name] = ck.gpio(f"shift_register.{name}", sr[name], i2c=i2c, spi=spi)
        if "oe" in sr:  # optional: the chips' OE on a GPIO lets the dials dim
            pins["oe"] = ck.gpio("shift_register.oe", sr["oe"], i2c=i2c, spi=spi)
        chips = ck.integer("shift_register.chips", sr.get("chips", 4))
        if not 1 <= chips <= 8:
            raise ck.fail("shift_register.chips", f"must be 1 to 8, got {chips}")
        chain = ShiftChain(chips=chips, **pins)
        if chain.outputs < seats * CANDLES:
            raise ck.fail("shift_register.chips",
                          f"{chips} chips have {chain.outputs} outputs, fewer than the "
                          f"{seats * CANDLES} candles of {seats} seats")
    elif "shift_register" in data:
        raise ck.fail("shift_register", "only used with wiring = \"shift-register\"")

    seat_names = tuple(seat_button(i) for i in range(seats))
    dials_table = ck.table(data, "dials")
    for name in dials_table:
        if name not in seat_names:
            raise ck.fail(f"dials.{name}", f"unknown seat; with seats = {seats} the dials are "
                                           f"{', '.join(seat_names)}")
    missing = [name for name in seat_names if name not in dials_table]
    if missing:
        raise ck.fail("dials", f"fewer dials than seats: seats = {seats} but "
                               f"{', '.join(missing)} {'has' if len(missing) == 1 else 'have'} "
                               "no dial")
    dials = []
    used_outputs: dict[int, str] = {}
    for name in seat_names:
        key = f"dials.{name}"
        pins = dials_table[name]
        if not isinstance(pins, list) or len(pins) != CANDLES:
            raise ck.fail(key, f"must list {CANDLES} pins, one per candle (candle 1 first), "
                               f"got {as_toml(pins)}")
        dial = []
        for i, value in enumerate(pins):
            item = f"{key}[{i}]"
            if chain is None:
                dial.append(ck.gpio(item, value, i2c=i2c, spi=spi,
                                    owner=f"{item} (seat {name[4:]}, candle {i + 1})"))
                continue
            out = ck.integer(item, value)
            if not 0 <= out < chain.outputs:
                raise ck.fail(item, f"chain output {out} is out of range: {chain.chips} chips "
                                    f"have outputs 0 to {chain.outputs - 1}")
            if out in used_outputs:
                raise ck.fail(item, f"chain output {out} is used twice: already by "
                                    f"{used_outputs[out]}")
            used_outputs[out] = f"{item} (candle {i + 1})"
            dial.append(out)
        dials.append(tuple(dial))

    buttons_table = ck.table(data, "buttons")
    names = seat_names + CONTROL_BUTTONS
    for name in buttons_table:
        if name not in names:
            raise ck.fail(f"buttons.{name}", f"unknown button; with seats = {seats} the "
                                             f"buttons are {', '.join(names)}")
    buttons = []
    for name in names:
        key = f"buttons.{name}"
        if name not in buttons_table:
            what = "every seat needs a button" if name.startswith("seat") else \
                "the OK, Back and Undo buttons are needed"
            raise ck.fail(key, f"missing: {what}")
        buttons.append((name, ck.gpio(key, buttons_table[name], i2c=i2c, spi=spi)))

    return PinMap(wiring=wiring, seats=seats, dials=tuple(dials), buttons=tuple(buttons),
                  chain=chain, hold_time=hold, bounce_time=bounce, i2c=i2c, spi=spi)
