"""The attract screen's idle timer and the operator menu's button chord, on a clock we control."""

from __future__ import annotations

import pytest

from companion.kiosk.cafe import Chord, IdleTimer


def test_idle_after_the_configured_time():
    idle = IdleTimer(120, started=1000.0)
    assert not idle.poll(1119.9)
    assert idle.remaining(1100.0) == pytest.approx(20.0)
    assert idle.poll(1120.0)
    idle.activity(1130.0)  # a button: back to the game
    assert not idle.poll(1131.0)
    assert idle.poll(1250.0)


def test_idle_zero_never_shows_the_attract_screen():
    idle = IdleTimer(0)
    assert not idle.enabled
    assert not idle.poll(1e9)
    assert idle.remaining(5.0) is None


def test_activity_from_the_past_does_not_rewind():
    idle = IdleTimer(10, started=100.0)
    idle.activity(50.0)
    assert idle.poll(110.0)


@pytest.mark.parametrize("bad", ["2m", None, True, float("nan")])
def test_idle_time_must_be_a_number(bad):
    with pytest.raises(TypeError, match="give a number of seconds"):
        IdleTimer(bad)


def test_chord_fires_once_after_the_hold():
    chord = Chord({"seat1:back", "seat6:back"}, hold=3.0)
    chord.press("seat1:back", 10.0)
    assert not chord.held
    chord.press("seat6:back", 10.5)
    assert chord.held
    assert not chord.poll(13.4)
    assert chord.progress(12.0) == pytest.approx(0.5)
    assert chord.poll(13.5)
    assert not chord.poll(20.0)  # still held: not again
    chord.release("seat6:back", 21.0)
    assert chord.progress(21.0) == 0.0
    chord.press("seat6:back", 22.0)
    assert chord.poll(25.0)  # a new hold fires again


def test_letting_go_early_cancels():
    chord = Chord(["a", "b"], hold=2.0)
    chord.press("a", 0.0)
    chord.press("b", 0.0)
    chord.release("a", 1.9)
    assert not chord.poll(5.0)
    chord.press("a", 6.0)
    assert not chord.poll(7.9)
    assert chord.poll(8.0)


def test_other_buttons_and_bounces_do_not_disturb_the_chord():
    chord = Chord(["a", "b"], hold=1.0)
    chord.press("a", 0.0)
    chord.press("b", 0.0)
    chord.press("c", 0.5)
    chord.release("c", 0.6)
    chord.press("a", 0.7)  # bounce
    assert chord.poll(1.0)
    chord.release("x", 1.1)
    assert chord.held


def test_reset_forgets_everything():
    chord = Chord(["a", "b"], hold=0)
    chord.press("a", 0.0)
    chord.press("b", 0.0)
    chord.reset()
    assert not chord.held and not chord.poll(1.0)


@pytest.mark.parametrize("buttons, hold, words", [
    (["a"], 1.0, "at least two buttons"),
    (["a", "a"], 1.0, "at least two buttons"),
    (["a", "b"], -1, "from 0 up"),
    (["a", "b"], "3", "from 0 up"),
])
def test_bad_chords_are_refused(buttons, hold, words):
    with pytest.raises(ValueError, match=words):
        Chord(buttons, hold=hold)
