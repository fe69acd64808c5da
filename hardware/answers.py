"""Answers to a command's questions from the keyboard and the table's buttons at once.

`companion enroll --buttons` asks staff to lay each card and press Enter; with the table's
buttons they may press OK instead, without reaching for the keyboard. The buttons' callbacks
only put ButtonEvents on a queue (see ``hardware.panel``); ``ask`` waits in one loop for the
first of a button on that queue or a line typed on the keyboard.
"""

from __future__ import annotations

import os
import queue
import select
import sys
from collections.abc import Callable

from hardware.config import button_label
from hardware.panel import ButtonEvent, ButtonStuck

POLL = 0.1  # seconds between looks at the buttons' queue while the keyboard is quiet
KEYBOARD_ENDED = "The keyboard's input has ended: answer with the table's buttons."


class TableAnswers:
    """Asks a question and waits for its answer: a line typed, or a button pressed. OK is
    Enter (""), Back skips ("s"), Back held stops ("q"); any other button is answered by its
    name ("Seat 3 button"), for the asker to refuse.

    Buttons pressed before the question are dropped, and so is what a person typed ahead
    at a terminal: a double press must not answer the next question too (a picture would be
    taken of the card still lying there, under the next card's name). Lines coming from a
    pipe or a file (a script's answers) are kept in order.

    ``events``: the queue the panel's buttons put their events on. ``keyboard``: the file
    descriptor lines are typed on (default the standard input); None: the buttons alone.
    ``say`` writes the question (no new line after it, as ``input`` does); ``tell`` a line
    of its own (that the keyboard's input ended)."""

    def __init__(self, events: queue.Queue, *, keyboard: int | None = 0,
                 say: Callable[[str], None] | None = None,
                 tell: Callable[[str], None] = print):
        self.events = events
        self.keyboard = keyboard
        self.say = say or _write
        self.tell = tell
        self._typed = b""  # read from the keyboard, not yet a whole line

    def ask(self, question: str) -> str:
        self._drop_earlier()
        self.say(question)
        while True:
            try:
                item = (self.events.get(timeout=POLL) if self.keyboard is None
                        else self.events.get_nowait())
            except queue.Empty:
                item = None
            if isinstance(item, ButtonStuck):
                self.tell(_stuck_line(item))  # no answer: the buttons answer by presses
            elif item is not None:
                return _answer(item)
            if self.keyboard is not None:
                line = self._line()
                if line is not None:
                    return line

    def _drop_earlier(self) -> None:
        while True:
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, ButtonStuck):
                self.tell(_stuck_line(item))
        if self.keyboard is not None and os.isatty(self.keyboard):
            import termios

            termios.tcflush(self.keyboard, termios.TCIFLUSH)
            self._typed = b""

    def _line(self) -> str | None:
        """A whole line typed (without its end), waiting up to POLL for more; None if none
        came. At the input's end the keyboard is given up, and what was typed is a line."""
        if b"\n" not in self._typed:
            try:
                ready = select.select([self.keyboard], [], [], POLL)[0]
                more = os.read(self.keyboard, 4096) if ready else None
            except (OSError, ValueError):  # not a descriptor select takes (Windows' console)
                more = b""
            if more is None:
                return None
            if not more:
                self.keyboard = None
                self.tell(KEYBOARD_ENDED)
                rest, self._typed = self._typed, b""
                return rest.decode(errors="replace") if rest.strip() else None
            self._typed += more
            if b"\n" not in self._typed:
                return None
        line, self._typed = self._typed.split(b"\n", 1)
        return line.decode(errors="replace").rstrip("\r")


def _answer(item: ButtonEvent) -> str:
    if item.name == "ok":
        return ""
    if item.name == "back":
        return "q" if item.long else "s"
    return f"{button_label(item.name)} button" + (" held" if item.long else "")


def _stuck_line(item: ButtonStuck) -> str:
    since = f"for {item.seconds:g} s" if item.seconds else "since the buttons were opened"
    return (f"The {button_label(item.name)} button has read pressed {since}: is it stuck, or "
            "is something leaning on it? It answers nothing until it comes up.")


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
