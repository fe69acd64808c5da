"""The table's panel: a health dial and a button per seat, plus OK, Back and Undo.

Built from a PinMap on a gpiozero pin factory: the Pi's (None: gpiozero's default, lgpio on a Pi
5), or MockFactory for tests and for the virtual panel. Dials are gpiozero ``LEDBarGraph``s, on
GPIO pins (direct wiring) or on the outputs of a 74HC595 chain (``ShiftRegisterFactory``).

Buttons only put ``ButtonEvent``s on the queue given; the app's main loop drains it. Animations
(the turn blink, round end, winners) run on one background thread that redraws the dials when a
pattern changes, so no call here blocks.

The dials dim (``set_brightness``) where the wiring allows it: with every candle on its own GPIO,
by PWM on the lit candles' pins; on a 74HC595 chain, by PWM on the chips' OE line when the pin
map puts it on a GPIO (``shift_register.oe``). ``Panel.dims`` says whether they can.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gpiozero import DigitalInputDevice, DigitalOutputDevice, LEDBarGraph, PWMOutputDevice
from gpiozero.exc import BadPinFactory, DeviceClosed, PinPWMUnsupported
from gpiozero.pins.mock import MockFactory, MockPin

from hardware import patterns
from hardware.config import (
    CANDLES,
    PinMap,
    PinMapError,
    button_label,
    default_pinmap,
    gpio_label,
    load_pinmap,
)
from hardware.mockchip import BoundedMockPin, Mock74HC595Chain
from hardware.patterns import Levels, PanelStateError, SeatLook
from hardware.shiftreg import ShiftRegisterFactory

__all__ = ["MIN_BRIGHTNESS", "PWM_HZ", "STUCK_SECONDS", "ButtonEvent", "ButtonStuck",
           "NoGPIOError", "Panel", "PanelError", "PanelStateError", "build_panel", "duty_cycle",
           "open_panel", "virtual_panel"]

# A button down this long is not being pressed: it is jammed, its wire is shorted to GND, or
# someone is leaning on it, and it gives no press until it comes up. The longest real press is
# a long press (the hold time, 5 s at most) or the operator menu's two long presses (within
# 2 s of each other); a player resting a finger on their button while thinking is still well
# under half a minute. Waiting much longer leaves the table without that button for minutes
# before anyone is told.
STUCK_SECONDS = 30.0

# Brightness. The operator menu's 25, 50, 75 and 100 % are meant as how bright the dials look,
# and the eye is far from linear in the share of time an LED is on. For a small light looked at
# directly, seen brightness grows about as the square root of the light given out (Stevens'
# power law, exponent near 0.5), so the duty cycle is the square of the setting (gamma 2): 25 %
# is on 6 % of the time and looks about a quarter as bright as full, still plain in a lit room;
# 50 % is on 25 %, 75 % on 56 %. The curves made for screens (sRGB's 2.2, CIE L*) would put 25 %
# at about 4.5 %, a glimmer by a window. A candle's level in a pattern (1 lit; a dim candle
# between 0 and 1) is multiplied by the setting before the curve, so a dim candle keeps the
# same share of a lit one's look at every setting. Settings below MIN_BRIGHTNESS (a
# configuration's led_brightness = 0.1, or 0) are taken as MIN_BRIGHTNESS: dials too dim to see
# would leave the table unplayable, and the menu goes no lower.
MIN_BRIGHTNESS = 0.25
MIN_DUTY = 0.01  # lgpio counts a duty cycle in whole per cent: below 1 % a lit candle is dark
# 200 Hz: fast enough that a dimmed candle does not flicker, even seen from the corner of the
# eye (at 100 Hz a glance across it can leave a trail of dots), and slow enough that the
# shortest pulse (6 % of 5 ms at 25 %: 0.3 ms) stays long beside software PWM's timing jitter,
# and that each dimmed pin switches only 400 times a second.
PWM_HZ = 200


def duty_cycle(level: float, brightness: float) -> float:
    """The share of time a candle is on: ``level`` as a pattern gives it (0 dark, 1 lit, a dim
    candle between) at ``brightness`` (0 to 1, the setting; see MIN_BRIGHTNESS)."""
    if level <= 0:
        return 0.0
    seen = min(level, 1.0) * min(max(brightness, MIN_BRIGHTNESS), 1.0)
    return max(seen * seen, MIN_DUTY)


def _drive(device, duty: float) -> None:
    """Give an output ``duty``, running PWM on its pin only for a share strictly between 0
    and 1: a dark candle, or any at full brightness, is a plain level and costs nothing, so
    the idle table (dark dials) and the undimmed one run no software PWM at all."""
    pwm = 0.0 < duty < 1.0
    pin = device.pin
    if pwm != (pin.frequency is not None):
        pin.frequency = PWM_HZ if pwm else None
    device.value = duty


def _output_enable(gpio: int, pin_factory) -> tuple[DigitalOutputDevice, bool]:
    """The chain's OE line (active low: the outputs show while it is low), enabled, and
    whether it can dim (PWM on its pin)."""
    try:
        line = PWMOutputDevice(gpio, active_high=False, initial_value=1, frequency=PWM_HZ,
                               pin_factory=pin_factory)
    except PinPWMUnsupported:
        return DigitalOutputDevice(gpio, active_high=False, initial_value=True,
                                   pin_factory=pin_factory), False
    _drive(line, 1.0)  # steady until dimmed
    return line, True


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A button was pressed: ``name`` is "seat1".."seat6", "ok", "back" or "undo"; ``long`` is
    True for a press held for the pin map's hold time."""

    name: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class ButtonStuck:
    """A button reads pressed far longer than any press: held down, jammed, or its wire
    shorted to GND. ``name`` as in ButtonEvent; ``seconds``: how long it had been down (0: it
    already read pressed when the panel opened); ``where``: its GPIO and header pin. Not a
    press (it has no ``long``): told once per time the button goes down."""

    name: str
    seconds: float = 0.0
    where: str = ""


class NoGPIOError(RuntimeError):
    """This machine has no GPIO pins that gpiozero can drive."""


class _ButtonWatch:
    """Turns one button input's callbacks into ButtonEvents, ignoring contact bounce.

    A long press is reported as soon as the hold time is reached (a timer started by the
    press: no thread runs while the button is up); a short one on release. Edges closer than
    ``bounce`` seconds to the last accepted edge are bounce and ignored. A button still down
    ``stuck`` seconds after the press is reported once as a ButtonStuck (the hold timer, when
    it fires, starts the timer for that).
    """

    def __init__(self, name: str, events: queue.Queue, bounce: float, hold: float,
                 clock: Callable[[], float], *, stuck: float = STUCK_SECONDS, where: str = "",
                 timer: Callable[..., threading.Timer] = threading.Timer):
        self.name = name
        self.where = where
        self._events = events
        self._bounce = bounce
        self._hold = hold
        self._stuck = stuck
        self._clock = clock
        self._make_timer = timer
        self._lock = threading.Lock()
        self._last_edge = None
        self._down = False
        self._held = False
        self._timer: threading.Timer | None = None
        self.closed = False
        self.is_down: Callable[[], bool] = lambda: True  # the input's level, once it exists

    def pressed(self):
        with self._lock:
            if self._is_bounce():
                return
            self._down, self._held = True, False
            self._start("hold", self._hold, self.held)

    def held(self):
        # A release filtered out as bounce still lets the button go: ask the pin.
        down = self._level()
        with self._lock:
            if self._down and not self._held and not self.closed and down:
                self._held = True
                self._events.put(ButtonEvent(self.name, long=True))
                # one timer per button down at a time: this one watches for it staying down
                self._start("stuck", max(self._stuck - self._hold, 0.0), self.still_down)

    def still_down(self):
        down = self._level()  # (as in held: a release taken for bounce)
        with self._lock:
            if self._down and self._held and not self.closed and down:
                self._events.put(ButtonStuck(self.name, self._stuck, self.where))

    def released(self):
        with self._lock:
            if self._is_bounce():
                return
            if self._down and not self._held:
                self._events.put(ButtonEvent(self.name, long=False))
            self._down = False
            self._cancel()

    def _level(self) -> bool:
        """Whether the input reads pressed, asked outside the lock (gpiozero's callbacks take
        it too); up once the panel has closed the input under a timer firing."""
        try:
            return self.is_down()
        except DeviceClosed:
            return False

    def close(self):
        with self._lock:
            self.closed = True  # a hold timer already firing must not report
            self._cancel()

    def _start(self, kind: str, seconds: float, then: Callable[[], None]) -> None:
        self._cancel()
        self._timer = self._make_timer(seconds, then)
        self._timer.name = f"{kind}-{self.name}"
        self._timer.daemon = True
        self._timer.start()

    def _cancel(self):
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _is_bounce(self) -> bool:
        if self.closed:
            return True
        now = self._clock()
        if self._last_edge is not None and now - self._last_edge < self._bounce:
            return True
        self._last_edge = now
        return False


@dataclass
class _Celebration:
    kind: str  # "round" or "winners"
    start: float
    seats: frozenset[int]
    duration: float


class Panel:
    """The dials and buttons of one table. Use ``build_panel`` or ``virtual_panel``.

    A button that already reads pressed when the panel opens gives a ButtonStuck (seconds 0)
    on the queue, and no press when it comes up; one held down STUCK_SECONDS gives one too.
    ``timer`` makes the buttons' hold timers (``threading.Timer``; tests pass their own)."""

    def __init__(self, pinmap: PinMap, *, events: queue.Queue, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic, animate: bool = True,
                 chip: Mock74HC595Chain | None = None, owned_factory=None,
                 timer: Callable[..., threading.Timer] = threading.Timer):
        self.pinmap = pinmap
        self.events = events
        self._clock = clock
        self._timer_factory = timer
        self._chip = chip
        self._owned_factory = owned_factory
        self._lock = threading.RLock()
        self._closed = False
        self._chain: ShiftRegisterFactory | None = None
        self._enable: DigitalOutputDevice | None = None  # the chain's OE line, on a GPIO
        self._enable_duty = 1.0  # what OE was last given: given again only when it changes
        self._pwm = False  # the candles are PWMLEDs (direct wiring on pins that do PWM)
        self.dims = False  # set_brightness dims the dials (False: it is kept and ignored)
        self._brightness = 1.0
        self._lit = 1.0  # what a lit candle is given: its duty cycle on PWM pins
        self.dials: list[LEDBarGraph] = []
        self.buttons: dict[str, DigitalInputDevice] = {}
        self._watches: dict[str, _ButtonWatch] = {}
        self._timers: set[threading.Timer] = set()
        self._looks: tuple[SeatLook, ...] = (SeatLook("dark"),) * pinmap.seats
        self._since: list[float] = [clock()] * pinmap.seats
        self._manual: tuple[Levels, ...] | None = None
        self._celebration: _Celebration | None = None
        self._written: list[list[int | None]] = [[None] * CANDLES for _ in range(pinmap.seats)]
        self.changes = 0  # counts the ticks that changed a candle: cheap to watch for a redraw
        self.stuck_at_start: tuple[str, ...] = ()  # buttons that read pressed as it opened
        try:
            self._build(pin_factory)
        except BadPinFactory:
            self.close()
            raise NoGPIOError(
                "no GPIO pins found on this machine. On a Raspberry Pi install "
                "python3-lgpio") from None
        except BaseException:
            self.close()
            raise
        for name in self.stuck_at_start:
            self.events.put(ButtonStuck(name, 0.0, self._watches[name].where))
        self._wake = threading.Event()
        self._thread = None
        self.tick()
        if animate:
            self._thread = threading.Thread(target=self._animate, name="panel-animation",
                                            daemon=True)
            self._thread.start()

    # building -------------------------------------------------------------------------------
    def _build(self, pin_factory) -> None:
        pm = self.pinmap
        led_factory = pin_factory
        if pm.chain is not None:
            c = pm.chain
            self._chain = ShiftRegisterFactory(c.data, c.clock, c.latch, chips=c.chips,
                                               pin_factory=pin_factory)
            led_factory = self._chain
            if c.oe is not None:
                self._enable, self.dims = _output_enable(c.oe, pin_factory)
        with self._batch():
            # The chain's outputs are on or off (it dims through OE); GPIOs dim by PWM where
            # the pin library has it (lgpio, in software, on any GPIO).
            pwm = pm.chain is None
            for dial in pm.dials:
                bar = None
                if pwm:
                    try:
                        bar = LEDBarGraph(*dial, pwm=True, pin_factory=led_factory)
                    except PinPWMUnsupported:
                        pwm = False  # mock pins without PWM, a pin library without it
                    else:
                        for led in bar:
                            _drive(led, 0.0)  # no PWM running until a candle is dimmed
                self.dials.append(bar or LEDBarGraph(*dial, pin_factory=led_factory))
            self._pwm = pwm  # still True: every dial was built with PWM
            if pm.chain is None:
                self.dims = self._pwm
        stuck = []
        for name, gpio in pm.buttons:
            watch = _ButtonWatch(name, self.events, pm.bounce_time, pm.hold_time, self._clock,
                                 where=gpio_label(gpio), timer=self._timer_factory)
            # A plain input, not gpiozero's Button: Button keeps a hold thread per button
            # that wakes ten times a second even when nobody touches the table.
            button = DigitalInputDevice(gpio, pull_up=True, bounce_time=pm.bounce_time or None,
                                        pin_factory=pin_factory)
            watch.is_down = lambda b=button: bool(b.is_active)
            button.when_activated = lambda _dev, w=watch: w.pressed()
            button.when_deactivated = lambda _dev, w=watch: w.released()
            self.buttons[name] = button
            self._watches[name] = watch
            if button.is_active:
                # Down already: gpiozero takes that as the starting level, not as a press, so
                # the watch never saw it go down and its coming up is no press either.
                stuck.append(name)
        self.stuck_at_start = tuple(stuck)

    def _batch(self):
        return self._chain.batch() if self._chain is not None else contextlib.nullcontext()

    # what the dials show --------------------------------------------------------------------
    def show(self, state: Mapping) -> None:
        """Show a table-log State: health on each dial, the seat to act blinking, eliminated
        and empty seats dark. A state that cannot be shown raises PanelStateError (a
        ValueError) and leaves the dials as they were."""
        looks = patterns.looks_from_state(state, self.pinmap.seats)
        with self._lock:
            now = self._clock()
            for seat, look in enumerate(looks):
                if look != self._looks[seat]:
                    self._since[seat] = now
            self._looks = looks
            self._manual = None
            self._celebration = None  # a new state (an undo) shows at once
        self._redraw()

    def blank(self) -> None:
        """Every dial dark (no game: the players are taking their seats)."""
        self.show_levels([[0] * CANDLES] * self.pinmap.seats)

    def celebrate_round_end(self) -> None:
        """A light runs along every dial in play (not empty seats, nor players out) for 2
        seconds, then the state shows again."""
        with self._lock:
            seats = frozenset(k for k, look in enumerate(self._looks) if look.mode != "dark")
        self._celebrate(_Celebration("round", self._clock(), seats, patterns.ROUND_END_TIME))

    def celebrate_winners(self, seats: Sequence[int]) -> None:
        """The winners' dials (seat indexes, 0 = first player) fill and flash for about 6
        seconds while the others are dark; then the state shows again."""
        chosen = []
        for seat in seats:
            if isinstance(seat, bool) or not isinstance(seat, int) or \
                    not 0 <= seat < self.pinmap.seats:
                raise PanelStateError(f"no seat {seat!r}: seats are 0 to "
                                      f"{self.pinmap.seats - 1}")
            chosen.append(seat)
        self._celebrate(_Celebration("winners", self._clock(), frozenset(chosen),
                                     patterns.WINNER_TIME))

    def show_levels(self, levels: Sequence[Sequence[int]]) -> None:
        """Light candles by hand (one sequence of 0/1 per seat), as the wiring check does.
        The next ``show`` returns to the game."""
        rows = tuple(tuple(1 if v else 0 for v in row) for row in levels)
        if len(rows) != self.pinmap.seats or any(len(r) != CANDLES for r in rows):
            raise ValueError(f"levels must be {self.pinmap.seats} rows of {CANDLES}")
        with self._lock:
            self._manual = rows
            self._celebration = None
        self._redraw()

    def _celebrate(self, celebration: _Celebration) -> None:
        with self._lock:
            self._celebration = celebration
        self._redraw()

    def frame(self, now: float) -> tuple[Levels, ...]:
        """What every dial should show at time ``now``."""
        with self._lock:
            if self._manual is not None:
                return self._manual
            cel = self._celebration
            if cel is not None and now - cel.start >= cel.duration:
                self._celebration = cel = None
                # the game's patterns start afresh after a celebration
                self._since = [now] * self.pinmap.seats
            if cel is not None:
                elapsed = now - cel.start
                pattern = (patterns.round_end_levels if cel.kind == "round"
                           else patterns.winner_levels)
                return tuple(pattern(elapsed) if seat in cel.seats else patterns.DARK
                             for seat in range(self.pinmap.seats))
            return tuple(patterns.look_levels(look, now - since)
                         for look, since in zip(self._looks, self._since, strict=True))

    def tick(self, now: float | None = None) -> None:
        """Bring the dials up to date with the patterns at ``now`` (default: the clock).
        The animation thread does this; tests with ``animate=False`` call it themselves."""
        with self._lock:
            if self._closed:
                return
            levels = self.frame(self._clock() if now is None else now)
            moved = False
            dimmer = self._enable is not None and self.dims
            lit = dimmer and any(any(row) for row in levels)
            if lit:
                self._drive_enable(True)  # dimmed before any new candle shows
            with self._batch():
                for seat, row in enumerate(levels):
                    written = self._written[seat]
                    for candle, level in enumerate(row):
                        value = self._candle(level) if self._pwm else level
                        if written[candle] != value:
                            if self._pwm:
                                _drive(self.dials[seat][candle], value)
                            else:
                                self.dials[seat][candle].value = value
                            written[candle] = value
                            moved = True
            if dimmer and not lit:
                self._drive_enable(False)  # once the last candle is dark
            if moved:
                self.changes += 1

    def _drive_enable(self, lit: bool) -> None:
        """OE at the brightness set while a candle of the chain is lit; steady (no PWM) while
        every candle is dark, so that the idle table runs no software PWM at all."""
        duty = self._lit if lit else 1.0
        if duty != self._enable_duty:
            _drive(self._enable, duty)
            self._enable_duty = duty

    def _candle(self, level: float) -> float:
        """The duty cycle of a candle at ``level`` on PWM pins, at the brightness set."""
        if level <= 0:
            return 0.0
        return self._lit if level >= 1 else duty_cycle(level, self._brightness)

    # brightness ----------------------------------------------------------------------------
    def set_brightness(self, value: float) -> None:
        """Dim the dials: ``value`` from 0 to 1 as the operator menu's 25 to 100 % (below
        MIN_BRIGHTNESS it is taken as that; see duty_cycle for the curve). Applied at once
        where the wiring can dim (``dims``); elsewhere kept, and the dials stay as they are."""
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                not 0 <= value <= 1:
            raise ValueError(f"brightness must be 0.0 to 1.0, got {value!r}")
        with self._lock:
            self._brightness = max(float(value), MIN_BRIGHTNESS)
            self._lit = duty_cycle(1.0, self._brightness)
            if self._closed or not self.dims:
                return
            if self._pwm:
                self._written = [[None] * CANDLES for _ in range(self.pinmap.seats)]
        self._redraw()

    @property
    def brightness(self) -> float:
        """The brightness in effect where the dials dim (0.25 to 1; see set_brightness)."""
        return self._brightness

    def _redraw(self) -> None:
        self.tick()
        if self._thread is not None:
            self._wake.set()

    def wait_time(self, now: float) -> float | None:
        """Seconds from ``now`` until some candle next changes (None: not until the state
        does). Celebrations step every frame; the blinking looks wake only on their edges."""
        with self._lock:
            if self._manual is not None:
                return None
            if self._celebration is not None:
                return patterns.FRAME_STEP
            waits = [patterns.look_wait(look, now - since)
                     for look, since in zip(self._looks, self._since, strict=True)]
        waits = [w for w in waits if w is not None]
        return max(min(waits), 0.001) if waits else None

    def _animate(self) -> None:
        while not self._closed:
            self._wake.wait(self.wait_time(self._clock()))
            self._wake.clear()
            if self._closed:
                break
            try:
                self.tick()
            except Exception:  # pragma: no cover - a device gone away must not kill the loop
                time.sleep(patterns.FRAME_STEP)

    def led_states(self) -> tuple[tuple[float, ...], ...]:
        """Per seat, per candle (candle 1 first): 1.0 lit (at whatever brightness), 0.0 dark.
        On the virtual panel with a 74HC595 chain this is read from the simulated chips'
        outputs."""
        if self._chip is not None:
            out = self._chip.outputs
            return tuple(tuple(float(out[o]) for o in dial) for dial in self.pinmap.dials)
        return tuple(tuple(1.0 if led.value > 0 else 0.0 for led in dial)
                     for dial in self.dials)

    # the virtual panel's buttons ------------------------------------------------------------
    def _mock_pin(self, name: str) -> MockPin:
        if self._closed:
            raise RuntimeError("the panel is closed")
        if name not in self.buttons:
            raise ValueError(f"no button named {name!r}; this table has "
                             f"{', '.join(self.buttons)}")
        pin = self.buttons[name].pin
        if not isinstance(pin, MockPin):
            raise TypeError(f"{button_label(name)} is a real button: only the virtual panel's "
                            "buttons can be pressed from software")
        return pin

    def button_down(self, name: str) -> None:
        """Push a virtual button down (a key or a touch starts)."""
        self._mock_pin(name).drive_low()

    def button_up(self, name: str) -> None:
        """Let a virtual button go (the key or touch ends)."""
        self._mock_pin(name).drive_high()

    def press(self, name: str, *, long: bool = False) -> None:
        """Press a virtual button and let it go a moment later (after the hold time for a long
        press), on a timer: returns at once. The event arrives on the queue through the same
        gpiozero path as a real press."""
        self._mock_pin(name)
        pm = self.pinmap
        hold = pm.hold_time + 0.15 if long else min(pm.hold_time / 2, pm.bounce_time + 0.05)
        self.button_down(name)
        timer = threading.Timer(hold, self._release, (name,))
        timer.daemon = True
        with self._lock:
            self._timers.add(timer)
        timer.start()

    def _release(self, name: str) -> None:
        with self._lock:
            self._timers.discard(threading.current_thread())
            if not self._closed:
                self.button_up(name)

    # closing --------------------------------------------------------------------------------
    def close(self) -> None:
        """Darken the dials and let go of every pin. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            timers, self._timers = self._timers, set()
        for timer in timers:
            timer.cancel()
        for watch in self._watches.values():
            watch.close()
        if getattr(self, "_thread", None) is not None:
            self._wake.set()
            self._thread.join(timeout=2)
        for button in self.buttons.values():
            button.close()
        with self._batch():
            for dial in self.dials:
                dial.close()
        if self._enable is not None:
            self._enable.close()
        if self._chain is not None:
            self._chain.close()
        if self._owned_factory is not None:
            self._owned_factory.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def build_panel(pinmap: PinMap, *, events: queue.Queue, pin_factory=None,
                clock: Callable[[], float] = time.monotonic, animate: bool = True,
                timer: Callable[..., threading.Timer] = threading.Timer) -> Panel:
    """The panel for ``pinmap`` on ``pin_factory`` (None: gpiozero's default, the Pi's own).
    Raises NoGPIOError where there is no GPIO."""
    return Panel(pinmap, events=events, pin_factory=pin_factory, clock=clock, animate=animate,
                 timer=timer)


class PanelError(RuntimeError):
    """The table's panel cannot be opened. The message says why, as staff would read it;
    ``kind`` is "pin map" (the pin map is wrong), "no gpio" (no GPIO on this machine) or
    "in use" (the pins cannot be claimed: another program holds them)."""

    def __init__(self, message: str, *, kind: str):
        super().__init__(message)
        self.kind = kind


def open_panel(pins: str | None, *, events: queue.Queue, mock: bool = False, pin_factory=None,
               clock: Callable[[], float] = time.monotonic, animate: bool = True) -> Panel:
    """The panel for the pin map in the file ``pins`` (None: the shipped one), on mock pins
    (``mock``), ``pin_factory``, or the Pi's own. Raises PanelError with a message for staff:
    a bad pin map, no GPIO here, or pins another program holds (gpiozero's error, or the pin
    library's own, e.g. lgpio's)."""
    try:
        pinmap = load_pinmap(pins) if pins else default_pinmap()
    except PinMapError as exc:
        raise PanelError(f"Pin map problem: {exc}", kind="pin map") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero's notes on each pin library it tried
            if mock:
                return virtual_panel(pinmap, events=events, clock=clock, animate=animate)
            return build_panel(pinmap, events=events, pin_factory=pin_factory, clock=clock,
                               animate=animate)
    except NoGPIOError as exc:
        raise PanelError(f"Cannot reach the pins: {exc}", kind="no gpio") from None
    except Exception as exc:  # any pin library's refusal to claim a pin
        raise PanelError(f"Cannot use the pins: {exc}. Is another program (the companion "
                         "itself?) using them? Stop it and try again.", kind="in use") from None


def virtual_panel(pinmap: PinMap | None = None, *, events: queue.Queue,
                  clock: Callable[[], float] = time.monotonic,
                  animate: bool = True) -> Panel:
    """The panel on mock pins, for machines without GPIO: the same devices on a MockFactory of
    its own (simulated 74HC595s for the chain wiring). ``pinmap`` defaults to the shipped one."""
    pinmap = pinmap or default_pinmap()
    factory = MockFactory(pin_class=BoundedMockPin)
    chip = None
    try:
        if pinmap.chain is not None:
            c = pinmap.chain
            chip = Mock74HC595Chain(factory, data=c.data, clock=c.clock, latch=c.latch,
                                    chips=c.chips)
        return Panel(pinmap, events=events, pin_factory=factory, clock=clock, animate=animate,
                     chip=chip, owned_factory=factory)
    except BaseException:
        factory.close()
        raise
