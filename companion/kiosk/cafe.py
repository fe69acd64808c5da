"""Café life without a keyboard: when to show the attract screen, and the operator's chord.

Both are plain state machines on a clock the caller passes in (seconds, monotonic), so the main
loop stays in charge and tests control time:

    idle = IdleTimer(config.attract_after)
    chord = Chord({"seat1:back", "seat6:back"}, hold=3.0)
    ...
    idle.activity(now)                  # any button, touch, key or card
    chord.press(button, now) / chord.release(button, now)
    if chord.poll(now): open_operator_menu()
    if idle.poll(now): show_attract_screen()
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable

__all__ = ["Chord", "IdleTimer"]


class IdleTimer:
    """Says when the table has been idle for ``after`` seconds (0 or less: never).

    :meth:`poll` is True while the table is idle; :meth:`activity` wakes it up. ``started`` is
    the time the table counts as last used when nothing has happened yet.
    """

    def __init__(self, after: float, *, started: float = 0.0):
        if isinstance(after, bool) or not isinstance(after, int | float) or math.isnan(after):
            raise TypeError(f"idle time {after!r}: give a number of seconds")
        self.after = float(after)
        self._last = started

    @property
    def enabled(self) -> bool:
        return self.after > 0

    def activity(self, now: float) -> None:
        """Something happened at the table."""
        self._last = max(self._last, now)

    def idle_for(self, now: float) -> float:
        return max(0.0, now - self._last)

    def poll(self, now: float) -> bool:
        """True when the attract screen should show."""
        return self.enabled and self.idle_for(now) >= self.after

    def remaining(self, now: float) -> float | None:
        """Seconds until the attract screen (None when it never shows): for the loop's timeout."""
        if not self.enabled:
            return None
        return max(0.0, self.after - self.idle_for(now))


class Chord:
    """A set of buttons held down together for ``hold`` seconds, e.g. to open the operator menu.

    It fires once per hold: release any of its buttons to arm it again. Buttons not in the chord
    are ignored, so players pressing other buttons do not disturb it; a chord button pressed
    twice without a release (a bouncing contact) counts once.
    """

    def __init__(self, buttons: Iterable[Hashable], *, hold: float = 3.0):
        self.buttons = frozenset(buttons)
        if len(self.buttons) < 2:
            raise ValueError(f"a chord needs at least two buttons, got {sorted(map(str, buttons))}")
        if isinstance(hold, bool) or not isinstance(hold, int | float) or not hold >= 0:
            raise ValueError(f"hold time {hold!r}: give a number of seconds from 0 up")
        self.hold = float(hold)
        self._down: set[Hashable] = set()
        self._since: float | None = None
        self._fired = False

    def press(self, button: Hashable, now: float) -> None:
        if button not in self.buttons or button in self._down:
            return
        self._down.add(button)
        if self._down == self.buttons:
            self._since = now

    def release(self, button: Hashable, now: float) -> None:
        if button not in self._down:
            return
        self._down.discard(button)
        self._since = None
        self._fired = False

    def reset(self) -> None:
        """Forget every button (e.g. after the buttons were reconnected)."""
        self._down.clear()
        self._since = None
        self._fired = False

    @property
    def held(self) -> bool:
        """All of the chord's buttons are down."""
        return self._since is not None

    def progress(self, now: float) -> float:
        """0.0 to 1.0: how far the hold has got, for a ring on screen."""
        if self._since is None:
            return 0.0
        if self.hold == 0:
            return 1.0
        return min(1.0, (now - self._since) / self.hold)

    def poll(self, now: float) -> bool:
        """True once when the chord has been held long enough."""
        if self._since is None or self._fired or now - self._since < self.hold:
            return False
        self._fired = True
        return True
