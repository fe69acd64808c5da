"""The brightness setting on the dials: PWM on the candles' GPIOs (direct wiring), on the
74HC595s' OE line when the pin map puts it on a GPIO, and kept but ignored where neither can
dim. Pins are gpiozero's mock pins; MockPWMPin is the one that does PWM."""

from __future__ import annotations

import math

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given
from hypothesis import strategies as st

from hardware.config import direct_pinmap
from hardware.panel import MIN_BRIGHTNESS, PWM_HZ, build_panel, duty_cycle

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


@pytest.fixture
def pwm_factory():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    factory.close()


def pin_rows(factory, pinmap):
    """Per seat, per candle: (what the pin is driven to, its PWM frequency or None)."""
    return [[(float(factory.pin(g).state), factory.pin(g).frequency) for g in dial]
            for dial in pinmap.dials]


@pytest.fixture
def direct(pwm_factory, events, clock, panels):
    panel = build_panel(direct_pinmap(), events=events, pin_factory=pwm_factory, clock=clock,
                        animate=False)
    panels.append(panel)
    return panel


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


def test_direct_pins_without_pwm_keep_the_setting_and_ignore_it(mock_factory, events, clock,
                                                                panels):
    panel = build_panel(direct_pinmap(), events=events, pin_factory=mock_factory, clock=clock,
                        animate=False)
    panels.append(panel)
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
