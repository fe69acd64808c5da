"""The operator menu: café staff change the table's settings without touching the game.

Pure logic, like the controller that owns it: no screen, no clock, no devices.

Opening it takes a combination players will not hit by accident: a long press of Back and a
long press of Undo within COMBO_WINDOW seconds of each other, in either order (holding both
buttons together gives exactly that), or the F10 key. `Combination` watches the presses: it
holds a long Back or long Undo back for up to COMBO_WINDOW seconds, so the press that begins
the combination never reaches the game; alone, it reaches the game late.

In the menu the seat buttons pick an item:
  1 language (en/ko)   2 seats in use (2..6)   3 LED brightness (25/50/75/100 %)
  4 camera check       5 safe shutdown (OK confirms)   6 close
A table with fewer seat buttons than items reaches every item with two buttons that every
table has: Undo moves a highlight down the rows (round again after the last) and OK does the
highlighted item. Back closes the menu (or cancels the shutdown question). The menu never
logs an event.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.inputs import Press
from companion.config import MAX_SEATS, MIN_SEATS

COMBO_WINDOW = 2.0  # seconds between the long Back and the long Undo
COMBO_KINDS = ("back", "undo")
SEAT_CHOICES = tuple(range(MIN_SEATS, MAX_SEATS + 1))
BRIGHTNESS_CHOICES = (0.25, 0.5, 0.75, 1.0)
MENU_ROWS = 6  # the items, one per seat button of a 6-seat table



class Combination:
    """Long Back + long Undo within ``window`` seconds (either order) opens the menu.

    feed(press, now) returns (opened, presses to pass on now); flush(now) returns the held
    press once its window has passed without its partner.
    """

    def __init__(self, window: float = COMBO_WINDOW):
        self.window = window
        self.held: tuple[Press, float] | None = None

    def feed(self, press: Press, now: float) -> tuple[bool, list[Press]]:
        if press.long and press.kind in COMBO_KINDS:
            held = self.held
            if held is not None and held[0].kind != press.kind and now - held[1] <= self.window:
                self.held = None
                return True, []
            out = self._release()
            self.held = (press, now)
            return False, out
        if self.held is not None and self.held[0].kind == press.kind:
            # The same button again, as the held press had not acted yet (held back for its
            # partner): pressed twice to be sure, it is one press, not two undos.
            return False, self._release()
        return False, self._release() + [press]

    def flush(self, now: float) -> list[Press]:
        if self.held is not None and now - self.held[1] > self.window:
            return self._release()
        return []

    def _release(self) -> list[Press]:
        if self.held is None:
            return []
        press, self.held = self.held[0], None
        return [press]


@dataclass
class OperatorMenu:
    """What the menu shows: the shutdown question, the last thing it said, and the row
    Undo has highlighted (0-based; None until Undo is pressed)."""

    confirming: bool = False
    note: tuple[str, dict] | None = None
    cursor: int | None = None


def next_choice(choices: tuple, current) -> object:
    """The choice after ``current`` (the first one after the last, or for an unknown value)."""
    for i, value in enumerate(choices):
        if value == current:
            return choices[(i + 1) % len(choices)]
    bigger = [v for v in choices if v > current] if current is not None else []
    return bigger[0] if bigger else choices[0]


def camera_status(ctl) -> tuple[str, list[tuple[str, str]]]:
    """The camera in plain words: a catalogue key, and the cards lying in the slots as
    (slot, identity). From what the controller knows: a camera set up or not, answering or
    not, the mat found or not (None: not known), cards that do not fit the mat (printed at
    another size), a picture out of focus, or the slots it sees too poorly to read a card
    there (then that is what the line says), and what the camera read in each slot."""
    if not ctl.camera_expected:
        return "cam.none", []
    if not ctl.camera:
        return "cam.lost", []
    if ctl.mat_found is False:
        return "cam.no_mat", []
    if ctl.mat_found and ctl.mat_misfit is not None:
        return ("cam.misfit" if ctl.mat_misfit > 1 else "cam.misfit_small"), []
    if ctl.mat_found and ctl.out_of_focus:
        return "cam.out_of_focus", []
    if ctl.mat_found and ctl.slots_poor:
        return "cam.slots_poor", []
    seen = [(zone.upper(), ident) for zone, ident in sorted(ctl.slots_seen().items())]
    key = "cam.mat" if ctl.mat_found else "cam.on"
    return (key if seen else key + "_empty"), seen
