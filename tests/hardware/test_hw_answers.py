"""Answers from the table's buttons and the keyboard, for `companion enroll --buttons`."""

from __future__ import annotations

import threading

import pytest

from hardware.answers import TableAnswers
from hardware.panel import ButtonEvent
from vision.table_commands import _buttons


def pressing(events, *presses):
    """A ``say`` that, once the question is written, presses the next of ``presses``."""
    said, left = [], list(presses)

    def say(question):
        said.append(question)
        events.put(left.pop(0))

    say.said = said
    return say


@pytest.mark.parametrize(("press", "answer"), [
    (ButtonEvent("ok"), ""),
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
    events.put("")  # a line typed ahead
    answers = TableAnswers(events, keyboard=None, say=pressing(events, ButtonEvent("back")))
    assert answers.ask("Next card? ") == "s"


def test_a_line_typed_answers_as_well():
    import queue

    events = queue.Queue()
    asked = threading.Event()

    def keyboard():
        asked.wait(5)
        return "q"

    answers = TableAnswers(events, keyboard=keyboard, say=lambda question: asked.set())
    assert answers.ask("Next card? ") == "q"


def test_the_buttons_still_answer_once_the_keyboard_input_ends(events):
    """No terminal (run from a script, or its input closed): the end of the keyboard's input
    is no answer, and the buttons still are."""
    from hardware.answers import _NO_KEYBOARD

    def keyboard():
        raise EOFError

    TableAnswers(events, keyboard=keyboard)._read()
    assert events.get_nowait() is _NO_KEYBOARD and events.empty()

    def say(question):
        events.put(_NO_KEYBOARD)
        events.put(ButtonEvent("ok"))

    assert TableAnswers(events, keyboard=None, say=say).ask("Next card? ") == ""


def test_the_panels_ok_button_answers_through_its_pins(mock_factory, clock):
    panel, answers, problem = _buttons(None, pin_factory=mock_factory, clock=clock)
    assert problem is None
    try:
        def press_ok(question):
            pin = mock_factory.pin(panel.pinmap.button_pin("ok"))
            pin.drive_low()
            clock.advance(0.1)
            pin.drive_high()

        answers.say = press_ok
        answers._keyboard, answers._typing = None, False  # pytest holds the keyboard
        assert answers.ask("Lay the Ghost card face up in slot A, then press OK. ") == ""
    finally:
        panel.close()


def test_a_bad_pin_map_or_no_pins_is_said_before_anything_opens(tmp_path, monkeypatch):
    bad = tmp_path / "pins.toml"
    bad.write_text("x = 1\n")
    panel, answers, problem = _buttons(str(bad))
    assert (panel, answers) == (None, None)
    assert problem.startswith(f"Pin map problem: {bad}: x: unknown key")

    from hardware import panel as panel_module

    def no_gpio(*args, **kwargs):
        raise panel_module.NoGPIOError("no pins")

    monkeypatch.setattr(panel_module, "build_panel", no_gpio)
    panel, answers, problem = _buttons(None)
    assert problem == ("Cannot reach the table's buttons: this machine has no GPIO pins (on a "
                       "Raspberry Pi, install python3-lgpio). Leave out --buttons to answer "
                       "with the keyboard alone.")
