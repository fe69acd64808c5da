"""Answers to a command's questions from the keyboard and the table's buttons at once.

`companion enroll --buttons` asks staff to lay each card and press Enter; with the table's
buttons they may press OK instead, without reaching for the keyboard. The buttons' callbacks
only put ButtonEvents on a queue (see ``hardware.panel``); a thread reading the keyboard puts
each line typed on the same queue; ``ask`` takes the first answer given after the question.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable

from hardware.config import button_label
from hardware.panel import ButtonEvent

_NO_KEYBOARD = object()  # put on the queue when the keyboard's input ends
_POLL = 0.5  # seconds between looks at whether the keyboard's input ended (Ctrl-C works)


class TableAnswers:
    """Asks a question and waits for its answer: a line typed, or a button pressed. OK is
    Enter (""), Back skips ("s"), Back held stops ("q"); any other button is answered by its
    name ("Seat 3 button"), for the asker to refuse. Presses and lines given before the question
    are dropped: a double press must not answer the next question too (a picture would be
    taken of the card still lying there, under the next card's name).

    ``events``: the queue the panel's buttons put their events on. ``keyboard``: reads one
    line (raises EOFError when the input ends); None: the buttons alone. ``say``: writes
    the question (no new line after it, as ``input`` does)."""

    def __init__(self, events: queue.Queue, *, keyboard: Callable[[], str] | None = input,
                 say: Callable[[str], None] | None = None):
        self.events = events
        self._keyboard = keyboard
        self.say = say or _write
        self._reader: threading.Thread | None = None
        self._typing = keyboard is not None

    def ask(self, question: str) -> str:
        self._drop_earlier()
        self.say(question)
        if self._typing and self._reader is None:
            self._reader = threading.Thread(target=self._read, name="keyboard", daemon=True)
            self._reader.start()
        while True:
            try:
                item = self.events.get(timeout=_POLL)
            except queue.Empty:
                continue
            if item is _NO_KEYBOARD:
                self._typing = False  # the buttons are still there: wait for them
                continue
            if isinstance(item, ButtonEvent):
                return _answer(item)
            return str(item)

    def _drop_earlier(self) -> None:
        while True:
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                return
            if item is _NO_KEYBOARD:
                self._typing = False

    def _read(self) -> None:
        while True:
            try:
                line = self._keyboard()
            except (EOFError, OSError):
                self.events.put(_NO_KEYBOARD)
                return
            self.events.put(line)


def _answer(event: ButtonEvent) -> str:
    if event.name == "ok":
        return ""
    if event.name == "back":
        return "q" if event.long else "s"
    return f"{button_label(event.name)} button" + (" held" if event.long else "")


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
