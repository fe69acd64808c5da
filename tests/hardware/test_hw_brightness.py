"""The brightness setting on the dials: PWM on the candles' GPIOs (direct wiring), on the
74HC595s' OE line when the pin map puts it on a GPIO, and kept but ignored where neither can
dim. Pins are gpiozero's mock pins; MockPWMPin is the one that does PWM."""

from __future__ import annotations

import math
import re

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory
from hw_helpers import EXAMPLE_PINS, with_oe, with_oe_text
from hypothesis import given
from hypothesis import strategies as st

from hardware.config import (
    HEADER_PIN,
    PinMapError,
    default_pinmap,
    direct_pinmap,
    parse_pinmap,
)
from hardware.panel import MIN_BRIGHTNESS, PWM_HZ, duty_cycle

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
MENU = (0.25, 0.5, 0.75, 1.0)
# What a lit candle's pin is given at the menu's 25, 50, 75 and 100 % (gamma 2).
LIT = {0.25: 0.0625, 0.5: 0.25, 0.75: 0.5625, 1.0: 1.0}


def state(*healths, turn=None):
    players = [{"name": NAMES[i], "health": h, "alive": h > 0, "stones": 0}
               for i, h in enumerate(healths)]
    expect = {"action": "turn", "player": turn} if turn else None
    return {"round": 1, "over": False, "winners": [], "deck": 10, "revealed": {},
            "players": players, "expect": expect}


def pin_rows(factory, pinmap):
    """Per seat, per candle: (what the pin is driven to, its PWM frequency or None)."""
    return [[(float(factory.pin(g).state), factory.pin(g).frequency) for g in dial]
            for dial in pinmap.dials]


@pytest.fixture
def direct(pwm_factory, panel_on):
    return panel_on(direct_pinmap(), pwm_factory)


# the curve ------------------------------------------------------------------------------------

def test_the_menu_steps_give_these_duty_cycles():
    assert {b: duty_cycle(1, b) for b in MENU} == LIT
    assert duty_cycle(0, 0.5) == 0.0


def test_the_lowest_step_is_plainly_lit_and_nothing_goes_darker():
    # 6 % of the time: a quarter of full brightness as the eye sees it, not a glimmer.
    assert duty_cycle(1, 0.25) >= 0.06
    for low in (0.0, 0.1, 0.2):
        assert duty_cycle(1, low) == duty_cycle(1, MIN_BRIGHTNESS)


@given(st.floats(0, 1), st.floats(0, 1))
def test_brighter_settings_never_give_less_light(a, b):
    low, high = sorted((a, b))
    assert 0 < duty_cycle(1, low) <= duty_cycle(1, high) <= 1


@given(level=st.floats(0.001, 0.5), brightness=st.floats(0, 1))
def test_a_dim_candle_stays_apart_from_a_lit_one_at_every_brightness(level, brightness):
    lit, dim = duty_cycle(1, brightness), duty_cycle(level, brightness)
    assert lit >= 4 * dim  # a quarter of the light or less: plainly not lit
    # lgpio takes whole per cent (it drops the fraction): both still light, and apart.
    assert math.floor(lit * 100) > math.floor(dim * 100) >= 1


# direct wiring ---------------------------------------------------------------------------------

@pytest.mark.parametrize("brightness", MENU)
def test_direct_wiring_pins_follow_the_brightness(pwm_factory, direct, brightness):
    direct.show(state(5, 2, 0))
    direct.set_brightness(brightness)
    assert direct.dims and direct.brightness == brightness
    lit = (LIT[brightness], PWM_HZ if brightness < 1 else None)
    dark = (0.0, None)
    assert pin_rows(pwm_factory, direct.pinmap) == [[lit] * 5, [lit] * 2 + [dark] * 3,
                                                    [dark] * 5]
    assert direct.led_states()[1] == (1.0, 1.0, 0.0, 0.0, 0.0)  # lit is lit, dimmed or not


def test_direct_wiring_dims_what_it_shows_next_too(pwm_factory, direct):
    direct.set_brightness(0.5)
    direct.show(state(1, 3, 4))
    rows = pin_rows(pwm_factory, direct.pinmap)
    assert [sum(1 for duty, _ in row if duty == 0.25) for row in rows] == [1, 3, 4]
    direct.set_brightness(1.0)
    assert pin_rows(pwm_factory, direct.pinmap)[2] == [(1.0, None)] * 4 + [(0.0, None)]


def test_the_turn_blink_goes_between_the_dimmed_level_and_dark(pwm_factory, direct, clock):
    direct.set_brightness(0.25)
    direct.show(state(5, 2, 3, turn="Ben"))
    pins = [pwm_factory.pin(g) for g in direct.pinmap.dials[1][:2]]
    assert [p.state for p in pins] == [0.0625] * 2
    direct.tick(clock.advance(0.65))
    assert [p.state for p in pins] == [0.0] * 2 and {p.frequency for p in pins} == {None}
    direct.tick(clock.advance(0.4))
    assert [p.state for p in pins] == [0.0625] * 2 and {p.frequency for p in pins} == {PWM_HZ}


def test_dark_dials_and_full_brightness_run_no_pwm(pwm_factory, direct):
    """Software PWM costs CPU on a Pi for every pin it runs on: none for the idle table's dark
    dials, nor at 100 %, as before the dials could dim."""
    direct.set_brightness(0.5)
    direct.blank()
    assert all(f is None for row in pin_rows(pwm_factory, direct.pinmap) for _, f in row)
    direct.show(state(5, 5, 5))
    direct.set_brightness(1.0)
    assert all(f is None for row in pin_rows(pwm_factory, direct.pinmap) for _, f in row)


def test_settings_below_the_lowest_step_keep_the_dials_visible(pwm_factory, direct):
    direct.show(state(1, 1, 1))
    direct.set_brightness(0.0)
    assert pwm_factory.pin(direct.pinmap.dials[0][0]).state == LIT[0.25]
    assert direct.brightness == MIN_BRIGHTNESS


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, True, "50%", None])
def test_a_brightness_out_of_range_is_refused(direct, bad):
    with pytest.raises(ValueError, match="brightness must be 0.0 to 1.0"):
        direct.set_brightness(bad)
    assert direct.brightness == 1.0


def test_direct_pins_without_pwm_keep_the_setting_and_ignore_it(mock_factory, panel_on):
    panel = panel_on(direct_pinmap(), mock_factory)
    panel.show(state(2, 0, 0))
    panel.set_brightness(0.25)
    assert not panel.dims
    assert [mock_factory.pin(g).state for g in panel.pinmap.dials[0]] == [1, 1, 0, 0, 0]


def test_closing_a_dimmed_panel_stops_pwm_and_darkens(pwm_factory, direct):
    direct.show(state(5, 5, 5))
    direct.set_brightness(0.75)
    direct.close()
    direct.set_brightness(0.5)  # kept; nothing to drive
    assert all(row == [(0.0, None)] * 5 for row in pin_rows(pwm_factory, direct.pinmap))


# shift-register wiring --------------------------------------------------------------------------

def test_the_example_offers_oe_on_a_gpio_both_examples_leave_free():
    assert default_pinmap().chain.oe is None  # optional: the build guide ties OE to GND
    pm = with_oe()
    assert pm.chain.oe == 2 and "OE GPIO 2" in pm.describe()
    used = set()
    for example in (default_pinmap(), direct_pinmap()):
        used |= {g for _, g in example.buttons}
        if example.chain is None:
            used |= {g for dial in example.dials for g in dial}
        else:
            used |= {example.chain.data, example.chain.clock, example.chain.latch}
    assert 2 not in used
    assert re.search(r"^# oe = 2 .*header pin 3 ", EXAMPLE_PINS.read_text(), re.M)
    assert HEADER_PIN[2] == 3
    # a plain GPIO on the Pi's header: lgpio does PWM in software on any of them
    info = MockFactory().board_info.find_pin("GPIO2")
    assert any("gpio" in pin.interfaces for _header, pin in info)


@pytest.mark.parametrize(("line", "problem"), [
    ("oe = 17", "shift_register.oe: GPIO 17 is used twice: already by shift_register.data"),
    ("oe = 21", "buttons.undo: GPIO 21 is used twice: already by shift_register.oe"),
    ("oe = 40", "shift_register.oe: GPIO 40 is out of range"),
    ('oe = "2"', "shift_register.oe: must be a whole number"),
])
def test_oe_is_checked_like_every_pin(line, problem):
    with pytest.raises(PinMapError, match=re.escape(problem)):
        with_oe(line)


def test_oe_on_the_i2c_pins_is_refused_while_i2c_is_in_use():
    text = re.sub(r"^i2c = false", "i2c = true", with_oe_text(), flags=re.M)
    with pytest.raises(PinMapError, match="shift_register.oe: GPIO 2 is I2C SDA, and I2C is"):
        parse_pinmap(text, source="pins.toml")


@pytest.fixture
def chained(pwm_factory, chain_on):
    return chain_on(with_oe(), pwm_factory)


@pytest.mark.parametrize("brightness", MENU)
def test_chain_with_oe_dims_every_output_at_once(pwm_factory, chained, brightness):
    panel, chip = chained
    panel.show(state(5, 2, 0, 1, 3, 4))
    outputs, latches = chip.outputs, chip.latches
    panel.set_brightness(brightness)
    assert panel.dims
    oe = pwm_factory.pin(2)
    # OE is active low: the outputs show while it is low, so it is high 1 - duty of the time.
    assert oe.state == pytest.approx(1 - LIT[brightness])
    assert oe.frequency == (PWM_HZ if brightness < 1 else None)
    assert (chip.outputs, chip.latches) == (outputs, latches)  # the bits are not sent again
    assert panel.led_states()[0] == (1.0,) * 5


def test_chain_with_oe_starts_enabled_at_full_brightness(pwm_factory, chained):
    panel, chip = chained
    oe = pwm_factory.pin(2)
    assert oe.state == 0 and oe.frequency is None
    panel.show(state(3, 3))
    assert sum(chip.outputs) == 6


def test_chain_without_oe_keeps_the_setting_and_ignores_it(pwm_factory, panel_on):
    panel = panel_on(default_pinmap(), pwm_factory)
    panel.show(state(5, 4, 3, 2, 1, 5))
    before = {info.name: (pin.state, pin.frequency) for info, pin in pwm_factory.pins.items()}
    panel.set_brightness(0.25)
    assert not panel.dims
    after = {info.name: (pin.state, pin.frequency) for info, pin in pwm_factory.pins.items()}
    assert after == before and "GPIO2" not in after


def test_oe_on_a_pin_without_pwm_holds_the_chain_on_and_ignores_the_setting(
        mock_factory, panel_on):
    panel = panel_on(with_oe(), mock_factory)
    panel.set_brightness(0.5)
    assert not panel.dims and mock_factory.pin(2).state == 0


def test_closing_lets_go_of_oe(pwm_factory, chained):
    panel, chip = chained
    panel.show(state(5, 5))
    panel.set_brightness(0.5)
    panel.close()
    assert not any(chip.outputs) and pwm_factory.pin(2).frequency is None
    DigitalOutputDevice(2, pin_factory=pwm_factory).close()  # free again


def test_a_dark_chain_runs_no_pwm_and_no_candle_ever_shows_undimmed(pwm_factory, chained):
    """The idle table's dark dials cost no software PWM on OE either; and OE is dimmed before
    a candle lights and let go only after the last one is dark, never the other way round."""
    panel, chip = chained
    oe = pwm_factory.pin(2)
    seen = []  # (outputs lit, OE's level) at each latch
    edge = chip._edge

    def watch(role, level):
        edge(role, level)
        if role == "latch" and level:
            seen.append((any(chip.outputs), oe.state))

    chip._edge = watch
    panel.set_brightness(0.5)
    assert (oe.state, oe.frequency) == (0, None)  # nothing lit: OE steady, no PWM
    panel.show(state(2, 2))
    assert (oe.state, oe.frequency) == (0.75, PWM_HZ)
    panel.blank()
    assert (oe.state, oe.frequency) == (0, None)
    assert seen == [(True, 0.75), (False, 0.75)]


def test_the_menus_least_brightness_is_the_panels_least():
    """The app may not import the panel (gpiozero), so it keeps its own least brightness, the
    menu's first choice: the two must agree, or a kept setting shows as one the dials
    do not give."""
    from companion.app.operator import BRIGHTNESS_CHOICES
    from hardware.panel import MIN_BRIGHTNESS

    assert BRIGHTNESS_CHOICES[0] == MIN_BRIGHTNESS
