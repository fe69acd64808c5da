"""Answers from the table's buttons and the keyboard, for `companion enroll --buttons`."""

from __future__ import annotations

import os
import queue
import threading

import pytest

from hardware.answers import KEYBOARD_ENDED, TableAnswers
from hardware.panel import ButtonEvent, PanelError, open_panel


def pressing(events, *presses):
    """A ``say`` that, once the question is written, presses the next of ``presses``."""
    said, left = [], list(presses)

    def say(question):
        said.append(question)
        events.put(left.pop(0))

    say.said = said
    return say


@pytest.fixture
def pipe():
    """A keyboard that is a pipe: (the descriptor read, a function typing on it)."""
    r, w = os.pipe()
    yield r, lambda text: os.write(w, text.encode()) if text is not None else os.close(w)
    os.close(r)
    try:
        os.close(w)
    except OSError:
        pass


@pytest.mark.parametrize(("press", "answer"), [
    (ButtonEvent("ok"), ""),
    (ButtonEvent("ok", long=True), ""),
    (ButtonEvent("back"), "s"),
    (ButtonEvent("back", long=True), "q"),
    (ButtonEvent("seat3"), "Seat 3 button"),
    (ButtonEvent("undo", long=True), "Undo button held"),
])
def test_each_button_answers_or_is_named(events, press, answer):
    answers = TableAnswers(events, keyboard=None, say=pressing(events, press))
    assert answers.ask("Lay the card, then press OK. ") == answer
    assert answers.say.said == ["Lay the card, then press OK. "]


def test_presses_before_the_question_are_dropped(events):
    """A double press of OK: the second must not take the next card's picture too."""
    events.put(ButtonEvent("ok"))
    answers = TableAnswers(events, keyboard=None, say=pressing(events, ButtonEvent("back")))
    assert answers.ask("Next card? ") == "s"


def test_lines_typed_answer_in_order(events, pipe):
    """From a pipe (a script's answers), each line answers one question, none dropped."""
    keyboard, type_ = pipe
    type_("\ns\r\nq")
    answers = TableAnswers(events, keyboard=keyboard, say=lambda question: None,
                           tell=lambda line: None)
    assert [answers.ask("?"), answers.ask("?")] == ["", "s"]
    type_(None)  # the input ends: what was typed last is a line too
    assert answers.ask("?") == "q"


def test_the_buttons_still_answer_once_the_keyboard_input_ends(events, pipe):
    """No terminal (run from a script, or its input closed): staff are told to answer with
    the buttons, and the buttons do."""
    keyboard, type_ = pipe
    type_(None)
    told = []

    def tell(line):
        told.append(line)
        events.put(ButtonEvent("ok"))

    answers = TableAnswers(events, keyboard=keyboard, say=lambda question: None, tell=tell)
    late = threading.Timer(5, events.put, [ButtonEvent("seat6")])  # no hang if never told
    late.start()
    try:
        assert answers.ask("Next card? ") == ""
    finally:
        late.cancel()
    assert told == [KEYBOARD_ENDED]
    events.put(ButtonEvent("back"))  # before the question: dropped
    answers.say = pressing(events, ButtonEvent("back", long=True))
    assert answers.ask("Next card? ") == "q" and told == [KEYBOARD_ENDED]


def test_what_a_person_typed_ahead_at_a_terminal_is_dropped(events):
    """At a terminal, Enter pressed twice (or before the question came up) answers only the
    question asked after it."""
    main, terminal = os.openpty()
    try:
        os.write(main, b"\n")
        answers = TableAnswers(events, keyboard=terminal, tell=lambda line: None,
                               say=lambda question: os.write(main, b"s\n"))
        assert answers.ask("Next card? ") == "s"
    finally:
        os.close(main)
        os.close(terminal)


def test_the_panels_ok_button_answers_through_its_pins(mock_factory, clock):
    events = queue.Queue()
    panel = open_panel(None, events=events, pin_factory=mock_factory, clock=clock,
                       animate=False)

    def press_ok(question):
        pin = mock_factory.pin(panel.pinmap.button_pin("ok"))
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()

    with panel:
        answers = TableAnswers(events, keyboard=None, say=press_ok)
        assert answers.ask("Lay the Ghost card face up in slot A, then press OK. ") == ""


def test_opening_the_panel_says_what_is_wrong(tmp_path, mock_factory, monkeypatch):
    bad = tmp_path / "pins.toml"
    bad.write_text("x = 1\n")
    with pytest.raises(PanelError) as err:
        open_panel(str(bad), events=queue.Queue())
    assert err.value.kind == "pin map"
    assert str(err.value).startswith(f"Pin map problem: {bad}: x: unknown key")

    from gpiozero import DigitalInputDevice

    holder = DigitalInputDevice(17, pin_factory=mock_factory)  # another program's
    try:
        with pytest.raises(PanelError) as err:
            open_panel(None, events=queue.Queue(), pin_factory=mock_factory)
    finally:
        holder.close()
    assert err.value.kind == "in use" and "Stop it and try again." in str(err.value)

    from hardware import panel as panel_module

    class PinLibraryError(Exception):  # lgpio's own error is no gpiozero error
        pass

    def refused(*args, **kwargs):
        raise PinLibraryError("GPIO busy")

    monkeypatch.setattr(panel_module, "build_panel", refused)
    with pytest.raises(PanelError) as err:
        open_panel(None, events=queue.Queue())
    assert err.value.kind == "in use" and str(err.value).startswith(
        "Cannot use the pins: GPIO busy. Is another program")
