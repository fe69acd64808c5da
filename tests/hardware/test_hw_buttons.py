"""Buttons: presses, long presses and bounce become ButtonEvents on the queue, nothing else."""

from __future__ import annotations

import dataclasses
import queue
import threading

import pytest
from hw_helpers import drain

from hardware import panel as panel_module
from hardware.config import default_pinmap, direct_pinmap, parse_pinmap
from hardware.panel import ButtonEvent, build_panel, virtual_panel


def fast_pinmap():
    """The shipped chain map with a short hold time, so long presses are quick to test."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "hardware" / "pins.example.toml").read_text()
    text = text.replace("hold = 0.8", "hold = 0.25")
    return parse_pinmap(text)


@pytest.fixture
def panel(mock_factory, panel_on):
    return panel_on(fast_pinmap(), mock_factory)


def tap(mock_factory, gpio, clock, seconds=0.1):
    pin = mock_factory.pin(gpio)
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()
    clock.advance(seconds)


def test_event_is_a_small_value():
    event = ButtonEvent("ok")
    assert event == ButtonEvent("ok", long=False) and event != ButtonEvent("ok", long=True)
    assert hash(event) == hash(ButtonEvent("ok"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.long = True


@pytest.mark.parametrize("name", default_pinmap().button_names)
def test_each_button_gives_its_own_press(mock_factory, panel, events, clock, name):
    tap(mock_factory, panel.pinmap.button_pin(name), clock)
    assert drain(events) == [ButtonEvent(name, long=False)]


def test_press_is_reported_on_release_only(mock_factory, panel, events, clock):
    pin = mock_factory.pin(panel.pinmap.button_pin("seat3"))
    pin.drive_low()
    assert drain(events) == []
    clock.advance(0.1)
    pin.drive_high()
    assert drain(events) == [ButtonEvent("seat3")]


def test_long_press_is_reported_once_when_held(mock_factory, panel, events, clock):
    pin = mock_factory.pin(panel.pinmap.button_pin("undo"))
    pin.drive_low()
    event = events.get(timeout=3)  # from the hold timer after 0.25 s
    assert event == ButtonEvent("undo", long=True)
    clock.advance(1)
    pin.drive_high()
    assert drain(events) == []


def test_bounce_is_one_press(mock_factory, panel, events, clock):
    pin = mock_factory.pin(panel.pinmap.button_pin("ok"))
    for _ in range(4):  # contacts chatter for a few milliseconds
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()  # the real release
    clock.advance(0.002)
    pin.drive_low()  # release chatter
    clock.advance(0.002)
    pin.drive_high()
    assert drain(events) == [ButtonEvent("ok")]
    clock.advance(0.1)
    tap(mock_factory, panel.pinmap.button_pin("ok"), clock)  # a second, real press
    assert drain(events) == [ButtonEvent("ok")]


def test_callbacks_only_touch_the_queue(mock_factory, events, clock, panels):
    """The callbacks run on gpiozero's threads; all they do is put events on the queue."""

    class Recording(queue.Queue):
        threads: set = set()

        def put(self, item, *args, **kwargs):
            self.threads.add(threading.current_thread().name)
            super().put(item, *args, **kwargs)

    q = Recording()
    p = build_panel(fast_pinmap(), events=q, pin_factory=mock_factory, clock=clock,
                    animate=False)
    panels.append(p)
    before = p.led_states()
    pin = mock_factory.pin(p.pinmap.button_pin("seat1"))
    pin.drive_low()
    assert q.get(timeout=3) == ButtonEvent("seat1", long=True)
    pin.drive_high()
    assert p.led_states() == before
    assert threading.current_thread().name not in Recording.threads  # the hold thread put it


def test_virtual_press_runs_the_gpiozero_path(events, panels):
    p = virtual_panel(fast_pinmap(), events=events)
    panels.append(p)
    p.press("seat2")
    assert events.get(timeout=2) == ButtonEvent("seat2")
    p.press("back", long=True)
    assert events.get(timeout=3) == ButtonEvent("back", long=True)
    p.button_down("ok")
    p.button_up("ok")  # too short to be a press: it is bounce
    p.button_down("undo")
    assert events.get(timeout=3) == ButtonEvent("undo", long=True)
    p.button_up("undo")
    assert drain(events) == []


def test_virtual_panel_direct_wiring_buttons(events, panels):
    p = virtual_panel(direct_pinmap(), events=events)
    panels.append(p)
    p.press("seat3")
    assert events.get(timeout=2) == ButtonEvent("seat3")


def test_unknown_button_is_refused(panel, events):
    with pytest.raises(ValueError, match="no button named 'seat7'.*seat1, seat2"):
        panel.press("seat7")
    small = virtual_panel(direct_pinmap(), events=events, animate=False)
    try:
        with pytest.raises(ValueError, match="no button named 'seat4'"):
            small.press("seat4")
    finally:
        small.close()
    assert drain(events) == []


def test_real_buttons_cannot_be_pressed_from_software(panel, monkeypatch):
    class NotThisKind:
        pass

    monkeypatch.setattr(panel_module, "MockPin", NotThisKind)
    with pytest.raises(TypeError, match="OK is a real button"):
        panel.press("ok")


def test_closing_stops_pending_presses(events):
    p = virtual_panel(fast_pinmap(), events=events)
    p.press("seat1", long=True)
    p.close()
    assert drain(events) == []
    with pytest.raises(RuntimeError, match="closed"):
        p.press("seat1")


def test_no_thread_waits_on_buttons_nobody_touches(mock_factory, events, clock, panels):
    """An idle table must cost nothing: no thread per button polls for long presses. A
    thread exists only while a button is down."""
    before = set(threading.enumerate())

    def started():
        return {t for t in threading.enumerate() if t not in before and t.is_alive()}

    p = build_panel(fast_pinmap(), events=events, pin_factory=mock_factory, clock=clock,
                    animate=False)
    panels.append(p)
    assert started() == set()
    pin = mock_factory.pin(p.pinmap.button_pin("ok"))
    pin.drive_low()
    (holding,) = started()
    assert holding.name == "hold-ok"
    clock.advance(0.1)
    pin.drive_high()
    assert drain(events) == [ButtonEvent("ok")]
    holding.join(timeout=1)
    assert started() == set()


@pytest.mark.parametrize("pin_down, long_presses", [(True, 1), (False, 0)])
def test_a_release_taken_for_bounce_is_checked_on_the_pin_before_a_long_press(pin_down,
                                                                              long_presses):
    events = queue.Queue()
    now = [0.0]
    watch = panel_module._ButtonWatch("ok", events, bounce=0.05, hold=60.0,
                                      clock=lambda: now[0])
    watch.is_down = lambda: pin_down
    try:
        watch.pressed()
        now[0] = 0.01
        watch.released()  # too soon after the press: ignored as bounce
        now[0] = 60.0
        watch.held()  # the hold time is up: is the button really still down?
        got = [events.get_nowait() for _ in range(events.qsize())]
        assert got == [ButtonEvent("ok", long=True)] * long_presses
    finally:
        watch.close()
