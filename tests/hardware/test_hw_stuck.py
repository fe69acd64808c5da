"""A button stuck down (a jammed switch, a wire shorted to GND, someone leaning on it): told
once, by name, when the panel opens with it down or when it stays down far longer than a
press; never taken for a press when it comes up."""

from __future__ import annotations

import io
import queue
import random

import pytest
from hw_helpers import FakeTimers, HeldDownPin, drain

from companion.app.controller import Controller
from companion.app.i18n import tr
from companion.app.inputs import Press
from companion.app.loop import App
from companion.engine import Game
from hardware import panel as panel_module
from hardware.answers import TableAnswers
from hardware.config import default_pinmap, direct_pinmap, gpio_label
from hardware.hwtest import _button_problem, walk
from hardware.panel import STUCK_SECONDS, ButtonEvent, ButtonStuck, build_panel

PINMAP = default_pinmap()
HOLD = PINMAP.hold_time


@pytest.fixture
def timers(clock):
    return FakeTimers(clock)


@pytest.fixture
def make_panel(mock_factory, events, clock, timers, panels):
    """A panel on the test's mock pins, its hold timers on the test's clock; ``down``: buttons
    already held down when it opens."""

    def make(*down, pinmap=PINMAP):
        pins = {name: mock_factory.pin(pinmap.button_pin(name), pin_class=HeldDownPin)
                for name in down}
        p = build_panel(pinmap, events=events, pin_factory=mock_factory, clock=clock,
                        animate=False, timer=timers)
        panels.append(p)
        return p, pins

    return make


def where(name, pinmap=PINMAP):
    return gpio_label(pinmap.button_pin(name))


def tap(mock_factory, pinmap, name, timers):
    pin = mock_factory.pin(pinmap.button_pin(name))
    pin.drive_low()
    timers.advance(0.1)
    pin.drive_high()
    timers.advance(0.1)


# ----- the panel ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ok", "seat3", "undo"])
def test_a_button_down_as_the_panel_opens_is_told_and_its_coming_up_is_no_press(
        make_panel, mock_factory, events, timers, name):
    panel, pins = make_panel(name)
    assert panel.stuck_at_start == (name,)
    assert drain(events) == [ButtonStuck(name, 0.0, where(name))]
    timers.advance(STUCK_SECONDS * 3)  # still down: told once, and it starts no hold
    assert drain(events) == []
    pins[name].let_go()  # gpiozero saw it down from the start: its coming up is no press
    timers.advance(1)
    assert drain(events) == []
    tap(mock_factory, PINMAP, name, timers)  # from now on it works
    assert drain(events) == [ButtonEvent(name)]


def test_only_the_buttons_down_are_told(make_panel, events):
    panel, _ = make_panel("seat1", "back")
    assert panel.stuck_at_start == ("seat1", "back")
    assert drain(events) == [ButtonStuck("seat1", 0.0, where("seat1")),
                             ButtonStuck("back", 0.0, where("back"))]


def test_a_button_held_down_is_told_once_after_the_stuck_time(make_panel, mock_factory,
                                                               events, timers):
    panel, _ = make_panel()
    assert drain(events) == []
    pin = mock_factory.pin(PINMAP.button_pin("seat2"))
    pin.drive_low()
    timers.advance(HOLD)
    assert drain(events) == [ButtonEvent("seat2", long=True)]
    timers.advance(STUCK_SECONDS - HOLD - 0.5)
    assert drain(events) == []
    timers.advance(0.5)
    assert drain(events) == [ButtonStuck("seat2", STUCK_SECONDS, where("seat2"))]
    timers.advance(STUCK_SECONDS * 20)  # an hour down: not told again
    assert drain(events) == []
    assert timers.pending == []  # and no timer waits on it any more
    pin.drive_high()
    assert drain(events) == []  # coming up after a long press is no press
    timers.advance(1)
    pin.drive_low()  # down again for long: a new time down, told again
    timers.advance(STUCK_SECONDS)
    assert drain(events) == [ButtonEvent("seat2", long=True),
                             ButtonStuck("seat2", STUCK_SECONDS, where("seat2"))]


def test_a_button_let_go_in_time_is_not_told_and_one_held_on_is(make_panel, mock_factory,
                                                                 events, timers):
    make_panel()
    pin = mock_factory.pin(PINMAP.button_pin("ok"))
    pin.drive_low()
    timers.advance(STUCK_SECONDS - 1)  # a very long press, but a press
    pin.drive_high()
    timers.advance(STUCK_SECONDS * 2)
    assert drain(events) == [ButtonEvent("ok", long=True)]
    assert timers.pending == []
    pin.drive_low()
    timers.advance(STUCK_SECONDS + 1)
    assert drain(events) == [ButtonEvent("ok", long=True),
                             ButtonStuck("ok", STUCK_SECONDS, where("ok"))]


def test_one_timer_at_a_time_per_button_down(make_panel, mock_factory, timers):
    make_panel()
    pin = mock_factory.pin(PINMAP.button_pin("undo"))
    pin.drive_low()
    assert [t.name for t in timers.pending] == ["hold-undo"]
    timers.advance(HOLD)
    assert [t.name for t in timers.pending] == ["stuck-undo"]
    pin.drive_high()
    assert timers.pending == []


def test_a_press_after_a_release_taken_for_bounce_replaces_its_timer(clock):
    """Down, up within the bounce time (ignored), down again: still one hold timer, not two
    (the first would report a long press, and watch for a stuck button, on its own)."""
    timers = FakeTimers(clock)
    watch = panel_module._ButtonWatch("ok", queue.Queue(), bounce=0.05, hold=1.0, clock=clock,
                                      where="ok", timer=timers)
    watch.pressed()
    timers.advance(0.01)
    watch.released()  # bounce: ignored
    timers.advance(0.2)
    watch.pressed()
    assert [t.name for t in timers.pending] == ["hold-ok"]


def test_a_release_taken_for_bounce_is_checked_on_the_pin_before_telling(clock):
    events = queue.Queue()
    timers = FakeTimers(clock)
    down = {"ok": True, "back": True}
    for name in down:
        watch = panel_module._ButtonWatch(name, events, bounce=0.05, hold=1.0, clock=clock,
                                          where=name, timer=timers)
        watch.is_down = lambda n=name: down[n]
        watch.pressed()
    timers.advance(1.0)
    assert drain(events) == [ButtonEvent("ok", long=True), ButtonEvent("back", long=True)]
    down["back"] = False  # it came up, but that edge was lost as bounce
    timers.advance(STUCK_SECONDS)
    assert drain(events) == [ButtonStuck("ok", STUCK_SECONDS, "ok")]


def test_a_stuck_timer_firing_as_the_panel_closes_tells_nothing(make_panel, mock_factory,
                                                                events, timers):
    """It read the closed input: gpiozero raised on the timer's thread."""
    panel, _ = make_panel()
    mock_factory.pin(PINMAP.button_pin("seat1")).drive_low()
    timers.advance(HOLD)
    drain(events)
    firing = list(timers.pending)
    assert [t.name for t in firing] == ["stuck-seat1"]
    panel.close()
    for timer in firing:
        timer.function()
    assert drain(events) == []


# ----- at the table: the screen and the journal ---------------------------------------------

def table(panel, events, clock):
    ctl = Controller(Game, panel=panel, camera=False, rng=random.Random(1))
    journal: list[str] = []
    app = App(ctl, inputs=events, clock=clock, say=journal.append)
    return app, ctl, journal


def test_the_table_names_a_button_down_when_it_starts_and_its_coming_up_joins_nobody(
        make_panel, mock_factory, events, clock, timers):
    panel, pins = make_panel("seat3")
    app, ctl, journal = table(panel, events, clock)
    app.step()
    assert ctl.message == ("notice.button_stuck", {"button": "seat3"})
    assert "held down or stuck: seat 3's button." in tr("en", ctl.message[0], **ctl.message[1])
    assert "3번 자리 버튼" in tr("ko", ctl.message[0], **ctl.message[1])
    assert journal == [
        f"warning: seat 3's button ({where('seat3')}) read pressed when the table started: "
        "held down, jammed, or its wire shorted to GND. It gives no press until it comes up; "
        "check it (companion hw-test, docs/wiring.md)"]
    pins["seat3"].let_go()
    timers.advance(1)
    app.step()
    assert ctl.joined == []  # its coming up was no press: seat 3 did not join
    tap(mock_factory, PINMAP, "seat3", timers)
    app.step()
    assert ctl.joined == [3] and len(journal) == 1


def test_the_table_names_a_button_held_down_once(make_panel, mock_factory, events, clock,
                                                  timers):
    panel, _ = make_panel()
    app, ctl, journal = table(panel, events, clock)
    pin = mock_factory.pin(PINMAP.button_pin("ok"))
    pin.drive_low()
    timers.advance(HOLD)
    app.step()
    assert ctl.message == ("msg.need_two", {})  # the long press acted, as any press does
    timers.advance(STUCK_SECONDS)
    app.step()
    assert ctl.message == ("notice.button_stuck", {"button": "ok"})
    assert tr("en", "notice.button_stuck", button="ok").startswith(
        "A button is held down or stuck: the OK button.")
    assert tr("ko", "notice.button_stuck", button="ok").startswith(
        "버튼이 계속 눌려 있거나 걸려 있습니다: OK 버튼.")
    assert journal == [
        f"warning: the OK button ({where('ok')}) has been held down for {STUCK_SECONDS:g} s: "
        "held down, jammed, or its wire shorted to GND. It gives no press until it comes up; "
        "check it (companion hw-test, docs/wiring.md)"]
    for _ in range(5):
        timers.advance(STUCK_SECONDS)
        app.step()
    pin.drive_high()
    app.step()
    assert len(journal) == 1 and ctl.phase == "setup_join" and ctl.joined == []


def test_two_stuck_buttons_and_a_notice_are_each_seen_in_turn(make_panel, mock_factory,
                                                              events, clock):
    """A second stuck button's warning replaced the first one's, which was never seen on the
    screen: warnings wait their turn like the kiosk's notices."""
    panel, _ = make_panel("seat1", "back")
    app, ctl, _ = table(panel, events, clock)
    ctl.notice("The configuration has a mistake.")
    app.step()
    seen = [ctl.message]
    for _ in range(3):
        ctl.handle(Press("seat", 4))  # seat 4 joins, leaves, joins: a press each time
        seen.append(ctl.message)
    assert seen[:3] == [("msg.notice", {"text": "The configuration has a mistake."}),
                        ("notice.button_stuck", {"button": "seat1"}),
                        ("notice.button_stuck", {"button": "back"})]
    assert seen[3] is None


class _Idle:
    """An idle watch that counts what would wake the table."""

    woken = 0

    def activity(self, now):
        self.woken += 1

    def poll(self, now):
        return False


def test_a_stuck_button_neither_wakes_the_table_nor_counts_as_a_press(make_panel, events,
                                                                       clock):
    panel, _ = make_panel("back")
    app, ctl, _ = table(panel, events, clock)

    app.idle = _Idle()
    app.step()
    assert ctl.message == ("notice.button_stuck", {"button": "back"})
    assert app.idle.woken == 0 and ctl.joined == []


def test_a_stuck_button_the_app_does_not_know_neither_wakes_the_table_nor_is_told(
        make_panel, events, clock):
    """A ButtonStuck for a button the app has no name for (a pin map's wire it never reads):
    nothing to say, and nobody pressed anything: the table sleeps on."""
    panel, _ = make_panel()
    app, ctl, _ = table(panel, events, clock)

    app.idle = _Idle()
    events.put(ButtonStuck("seat9", STUCK_SECONDS, "GPIO 99"))
    app.step()
    assert app.idle.woken == 0 and ctl.message is None


# ----- hw-test and the enrolment's answers --------------------------------------------------

def test_hw_test_says_a_button_down_before_it_is_asked_for_is_stuck(make_panel, events):
    pinmap = direct_pinmap()
    panel, _ = make_panel("ok", pinmap=pinmap)
    out = io.StringIO()
    ok = walk(panel, events, out=out, mock=False, led_seconds=0, button_seconds=0.02,
              confirm=lambda question: True, sleep=lambda seconds: None)
    text = out.getvalue()
    assert not ok
    ok_lines = text.split("Press the OK button", 1)[1].splitlines()
    assert ok_lines[1].strip().startswith("STUCK: it reads pressed before anyone presses it")
    long_lines = text.split("Hold the OK button down", 1)[1].splitlines()
    assert long_lines[1].strip().startswith("STUCK")
    assert "NO PRESS within 0.02 s" in text  # the others: nobody pressed them
    assert "Buttons: 0 of 6 work; long press does not." in text


def test_hw_test_on_the_mock_panel_does_not_wait_for_a_stuck_button(mock_factory, events,
                                                                   panels):
    pinmap = direct_pinmap()
    mock_factory.pin(pinmap.button_pin("undo"), pin_class=HeldDownPin)
    panel = build_panel(pinmap, events=events, pin_factory=mock_factory, animate=False)
    panels.append(panel)  # (its own timers: the walk presses in real time)
    out = io.StringIO()
    ok = walk(panel, events, out=out, mock=True, button_seconds=0.5)
    text = out.getvalue()
    assert not ok
    assert "Buttons: 5 of 6 work; long press works." in text
    assert text.count("STUCK") == 1 and "NO PRESS" not in text


def test_hw_test_takes_a_long_hold_for_no_press(events):
    events.put(ButtonStuck("seat1", STUCK_SECONDS, where("seat1")))
    events.put(ButtonEvent("seat2"))
    assert _button_problem(events, "seat2", False, 1.0, lambda s: None) is None


def test_a_stuck_button_answers_no_enrolment_question(events):
    told = []
    events.put(ButtonStuck("back", 0.0))  # there before the question: dropped, and told
    answers = TableAnswers(events, keyboard=None, say=lambda q: (
        events.put(ButtonStuck("ok", STUCK_SECONDS)), events.put(ButtonEvent("back"))),
        tell=told.append)
    assert answers.ask("Lay the Ghost and press OK: ") == "s"
    assert told == [
        "The Back button has read pressed since the buttons were opened: is it stuck, or is "
        "something leaning on it? It answers nothing until it comes up.",
        f"The OK button has read pressed for {STUCK_SECONDS:g} s: is it stuck, or is something "
        "leaning on it? It answers nothing until it comes up."]
