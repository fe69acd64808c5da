"""Kiosk mode around the table app's main loop, in one object.

    kiosk = Kiosk.start(args.config)          # config + operator settings, history, the game
    show(kiosk.take_messages())               # bad config, torn log line, history unavailable...
    kiosk.ready()                             # tell systemd the table is up
    while running:
        item = inputs.get(timeout=0.05)
        ...  kiosk.session.push(event)  /  kiosk.session.undo()  /  kiosk.session.new_game(...)
        show(kiosk.take_messages())
        kiosk.tick()                          # watchdog, and saving again after a full disk
    kiosk.stop()

Nothing here stops the table: every problem becomes a message for the screen.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.app.i18n import Notice, notice_of
from companion.config import Config, load_config
from companion.kiosk.history import History, HistoryError
from companion.kiosk.notify import Notifier, Watchdog
from companion.kiosk.power import shutdown
from companion.kiosk.session import TableSession
from companion.kiosk.settings import (
    OperatorSettings,
    apply_settings,
    load_settings,
    save_settings,
)

__all__ = ["Kiosk", "RETRY_SAVE_EVERY", "TableBusy"]

LOCK_NAME = "companion.lock"  # in the state folder: held while a table runs on its files


class TableBusy(RuntimeError):
    """Another companion runs the table on the same files: two would write one log."""

RETRY_SAVE_EVERY = 10.0  # seconds between tries to save again after a write failed
# How long a try to open the history again may wait for another program holding it: the
# table's one loop waits meanwhile.
REOPEN_WAIT = 0.2


class Kiosk:
    """The configuration, the operator's settings, the history, the game and systemd's
    notifications, as the kiosk's main loop uses them."""

    def __init__(
        self,
        *,
        config: Config,
        base_config: Config,
        settings: OperatorSettings,
        history: History | None,
        session: TableSession,
        notifier: Notifier,
        clock: Callable[[], float] = time.monotonic,
        warnings: list[str] | None = None,
        lock: int | None = None,
    ):
        self.config = config
        self.base_config = base_config
        self.settings = settings
        self.history = history
        self.session = session
        self.notifier = notifier
        self.watchdog = Watchdog(notifier, clock=clock)
        self.clock = clock
        self._pending: list[str] = list(warnings or [])
        self._session_seen = 0
        self._last_retry = clock()
        self._lock = lock  # the state folder's lock (see _hold), held until stop()

    @classmethod
    def start(
        cls,
        config_path: str | os.PathLike[str] | None,
        *,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        fsync: bool = True,
    ) -> Kiosk:
        """Read everything and resume the game in progress. Never raises for bad files;
        TableBusy when another companion runs on the same state folder."""
        base, warnings = load_config(config_path, environ=environ)
        lock = _hold(base.state_dir)
        settings, more = load_settings(base.state_dir)
        warnings += more
        config = apply_settings(base, settings)
        try:
            history: History | None = History.open(config.database_path)
        except HistoryError as exc:
            history = None
            warnings.append(notice_of(exc))
        session = TableSession.open(config.log_path, history=history, fsync=fsync)
        return cls(config=config, base_config=base, settings=settings, history=history,
                   session=session, notifier=Notifier(environ=environ), clock=clock,
                   warnings=warnings, lock=lock)

    # ------------------------------------------------------------------------------ messages
    def take_messages(self) -> list[str]:
        """Messages for the screen that have not been taken yet, oldest first."""
        new = self.session.messages[self._session_seen:]
        self._session_seen = len(self.session.messages)
        out, self._pending = self._pending + new, []
        return out

    # ------------------------------------------------------------------------------ the loop
    def ready(self, text: str = "The table is ready") -> None:
        """Start-up is over: systemd may consider the service running."""
        self.notifier.ready(text)
        self.watchdog.tick()

    def tick(self) -> None:
        """Once per main-loop iteration: feeds the watchdog, and retries saving after a
        failed write every RETRY_SAVE_EVERY seconds."""
        self.watchdog.tick()
        if self.session.unsaved or self.session.waiting or self.session.to_record:
            now = self.clock()
            if now - self._last_retry >= RETRY_SAVE_EVERY:
                self._last_retry = now
                if self.history is None and self.session.to_record:
                    self._reopen_history()
                self.session.retry_save()

    def _reopen_history(self) -> None:
        """The history that could not be opened at the start (damaged, moved aside since,
        a full disk): opened now if it can be, for the finished games that wait for it."""
        try:
            self.history = History.open(self.config.database_path, timeout=REOPEN_WAIT)
        except HistoryError:
            return
        self.session.history = self.history

    # ------------------------------------------------------------------------ operator menu
    def change_settings(self, **changes: Any) -> str | None:
        """Apply and keep the operator's choices (language, seats, led_brightness).

        None when done; otherwise a sentence for the screen (a Notice), and nothing changed (a
        choice that cannot be saved still applies until the next start, and says so).
        """
        try:
            settings = self.settings.with_changes(**changes)
        except ValueError as exc:
            return Notice("notice.setting_refused", why=notice_of(exc))
        self.settings = settings
        self.config = apply_settings(self.base_config, settings)
        try:
            save_settings(self.base_config.state_dir, settings)
        except OSError as exc:
            return Notice("notice.setting_not_kept", error=exc.strerror or str(exc))
        return None

    def shutdown(self, *, reboot: bool = False) -> str | None:
        """Switch the table off (or restart it) safely; a sentence when that fails.

        systemd only hears a status line here: STOPPING=1 would start its stop timeout, and a
        refused power-off would then end in the table being killed and restarted. A power-off
        that works stops the service anyway, and ``stop`` says STOPPING=1."""
        self.notifier.status("Restarting" if reboot else "Switching off")
        self.session.retry_save()  # a last try for what waits for room (see stop)
        message = shutdown(reboot=reboot)
        if message is not None:
            self.notifier.status(message)
        return message

    def stop(self) -> None:
        """The app is closing: tell systemd and close the files."""
        self.notifier.stopping()
        self.session.close()
        if self.history is not None:
            self.history.close()
        if self._lock is not None:
            os.close(self._lock)  # the lock goes with it
            self._lock = None


def _hold(state_dir) -> int | None:
    """The state folder's lock (a file descriptor), taken for this table; TableBusy when
    another companion holds it. None when the folder cannot be made or written: the other
    files' own troubles are said as they are read."""
    import fcntl

    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(state_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise TableBusy(f"another companion is already running the table on the files in "
                        f"{state_dir} (the kiosk service?): stop it first, e.g. sudo "
                        "systemctl stop abraca-companion") from None
    except OSError:
        os.close(fd)
        return None
    return fd
