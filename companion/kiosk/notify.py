"""systemd's service notification protocol, spoken directly.

Under systemd with ``Type=notify`` the service manager passes a datagram socket in the
environment variable ``NOTIFY_SOCKET``: an absolute path, or an abstract socket name written
with a leading ``@``. The service tells its state by sending newline-separated ``KEY=VALUE``
lines to it: ``READY=1`` once it is up, ``WATCHDOG=1`` as a sign of life, ``STATUS=...`` for
``systemctl status``, ``STOPPING=1`` when it shuts down.

With ``WatchdogSec=`` set, systemd also passes ``WATCHDOG_USEC`` (the interval, in
microseconds) and ``WATCHDOG_PID`` (the process it is meant for). A service that stays silent
for longer than the interval is killed and, with ``Restart=always``, started again: so the
pings come from the main loop itself, through :class:`Watchdog`, and a frozen loop stops them.

Outside systemd (no ``NOTIFY_SOCKET``) every call here does nothing and returns False. A
notification that cannot be sent never raises: the game goes on either way.

    from companion.kiosk.notify import Notifier, Watchdog
    systemd = Notifier()
    systemd.ready("Table ready")
    dog = Watchdog(systemd)
    while running:
        handle_one_input()
        dog.tick()
    systemd.stopping()
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

__all__ = ["Notifier", "Watchdog"]


class Notifier:
    """Sends notifications to the socket named in ``environ["NOTIFY_SOCKET"]``.

    ``environ`` defaults to ``os.environ`` and ``pid`` to ``os.getpid()``; both are read when
    the notifier is made, so tests can build one from a dict of their own.
    """

    def __init__(self, *, environ: Mapping[str, str] | None = None, pid: int | None = None):
        env = os.environ if environ is None else environ
        self.pid = os.getpid() if pid is None else pid
        self.address = _socket_address(env.get("NOTIFY_SOCKET", ""))
        self.watchdog_interval = _watchdog_interval(env, self.pid)
        self._warned = False

    @property
    def enabled(self) -> bool:
        """True when there is a notification socket to talk to."""
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send ``KEY=VALUE`` lines as one datagram; True when it was delivered."""
        if self.address is None or not lines:
            return False
        data = "\n".join(lines).encode("utf-8")
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall(data)
        except OSError as exc:
            if not self._warned:  # once: a ping every few seconds must not flood the journal
                log.warning("cannot notify systemd at %r: %s", self.address, exc)
                self._warned = True
            return False
        return True

    def ready(self, text: str | None = None) -> bool:
        """Tell systemd that start-up is finished (and optionally what is shown)."""
        lines = ["READY=1", f"MAINPID={self.pid}"]
        if text is not None:
            lines.append(_status_line(text))
        return self.send(*lines)

    def watchdog_ping(self) -> bool:
        """One sign of life for the watchdog."""
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status``."""
        return self.send(_status_line(text))

    def stopping(self, text: str | None = None) -> bool:
        """Tell systemd the service is shutting down on purpose."""
        lines = ["STOPPING=1"]
        if text is not None:
            lines.append(_status_line(text))
        return self.send(*lines)


class Watchdog:
    """Pings systemd's watchdog from the main loop, at half the interval systemd asked for.

    Call :meth:`tick` once per iteration of the main loop: it sends a ping only when half the
    watchdog interval has passed since the last one, so calling it often costs nothing. With no
    watchdog configured, ``tick`` does nothing. ``clock`` (seconds, monotonic) is injectable so
    tests control time.
    """

    def __init__(
        self,
        notifier: Notifier | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.notifier = notifier if notifier is not None else Notifier()
        self.clock = clock
        self._last: float | None = None

    @property
    def interval(self) -> float | None:
        """The watchdog interval in seconds, or None when there is no watchdog for us."""
        return self.notifier.watchdog_interval

    @property
    def period(self) -> float | None:
        """How often :meth:`tick` pings: half the interval."""
        return None if self.interval is None else self.interval / 2

    def tick(self) -> bool:
        """Ping if half the interval has passed since the last ping; True when it pinged."""
        period = self.period
        if period is None:
            return False
        now = self.clock()
        if self._last is not None and now - self._last < period:
            return False
        self._last = now
        self.notifier.watchdog_ping()
        return True


def _socket_address(value: str) -> str | bytes | None:
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode("utf-8")  # Linux abstract namespace
    if value.startswith("/"):
        return value
    return None  # unset, empty, or a kind of socket (vsock) this module does not speak


def _watchdog_interval(env: Mapping[str, str], pid: int) -> float | None:
    usec = env.get("WATCHDOG_USEC", "")
    wd_pid = env.get("WATCHDOG_PID", "")
    if wd_pid:
        try:
            if int(wd_pid) != pid:
                return None  # the watchdog is meant for another process
        except ValueError:
            return None
    try:
        value = int(usec)
    except ValueError:
        return None
    if value <= 0:
        return None
    return value / 1_000_000


def _status_line(text: str) -> str:
    # One datagram carries newline-separated assignments: a newline would end the status.
    return "STATUS=" + " ".join(str(text).split())
