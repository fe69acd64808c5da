"""Café life without a keyboard: when to show the attract screen.

A plain state machine on a clock the caller passes in (seconds, monotonic), so the main loop
stays in charge and tests control time:

    idle = IdleTimer(config.attract_after)
    ...
    idle.activity(now)                  # any button, touch, key or card
    if idle.poll(now): show_attract_screen()

(The operator menu's button combination is the table app's: companion.app.operator.)
"""

from __future__ import annotations

import math

__all__ = ["IdleTimer"]


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
