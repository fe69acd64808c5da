"""The attract screen's idle timer and the operator menu's button chord, on a clock we control."""

from __future__ import annotations

import pytest

from companion.kiosk.cafe import IdleTimer


def test_idle_after_the_configured_time():
    idle = IdleTimer(120, started=1000.0)
    assert not idle.poll(1119.9)
    assert idle.poll(1120.0)
    idle.activity(1130.0)  # a button: back to the game
    assert not idle.poll(1131.0)
    assert idle.poll(1250.0)


def test_idle_zero_never_shows_the_attract_screen():
    idle = IdleTimer(0)
    assert not idle.enabled
    assert not idle.poll(1e9)


def test_activity_from_the_past_does_not_rewind():
    idle = IdleTimer(10, started=100.0)
    idle.activity(50.0)
    assert idle.poll(110.0)


@pytest.mark.parametrize("bad", ["2m", None, True, float("nan")])
def test_idle_time_must_be_a_number(bad):
    with pytest.raises(TypeError, match="give a number of seconds"):
        IdleTimer(bad)
