"""The game at the table, kept on disk: nothing lost, whatever happens to the power.

    session = TableSession.open(config.log_path, history=history)   # resumes any game in the log
    for message in session.messages: show(message)                  # e.g. a torn last line dropped
    notes = session.push(event)      # on disk (fsync) before it returns; TableError if refused
    session.undo()
    session.new_game({"event": "game", "players": [...]})           # clears the table

- Each accepted event is written to the table log and forced to disk *before* the game changes,
  so whatever the screen shows is on disk. A refused event (``TableError``) writes nothing.
- Opening the log replays it: after a crash, ``kill -9`` or a power cut, the game resumes where
  it was. A last line cut short is dropped with a message; a bad line in the middle (a damaged
  card) keeps the game up to that line, and the damaged file is kept aside.
- When the disk cannot be written (full, unplugged), play goes on in memory with a warning
  (:attr:`unsaved`); each later event tries again, rewriting the whole log in one atomic step,
  and :meth:`retry_save` does the same on demand.
- A finished game goes into the history (a :class:`~companion.kiosk.history.History`) at once and
  again at the next start if that failed; it stays on the table until :meth:`new_game`.
- :meth:`new_game` moves the previous log into ``games/`` beside it (never deleted) and starts a
  new one.

A controller that keeps its own Game and checks each event itself can use the session as its
table log: ``session.open_log(game_event)`` clears the table, ``session.append(event)`` saves
(never raising for a full disk) and keeps the session's own copy of the game, for the history.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.app.i18n import Notice, notice_of
from companion.engine import Game
from companion.errors import TableError
from companion.kiosk.history import History, HistoryError
from companion.tablelog import NO_GAME_LINE, TableLog, encode, replay_file, write_atomically

log = logging.getLogger(__name__)

__all__ = ["TableSession"]

UNDO = {"event": "undo"}


def _now() -> datetime:
    return datetime.now(UTC)



def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem+suffix``, or with -2, -3, ... after the stem: the first not taken (two
    logs put away in the same second never replace each other)."""
    target = folder / f"{stem}{suffix}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{n}{suffix}"
    return target

class TableSession:
    """One table's game and its log. Make it with :meth:`open`."""

    def __init__(
        self,
        path: Path,
        *,
        history: History | None = None,
        fsync: bool = True,
        clock: Callable[[], datetime] = _now,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        self.path = Path(path)
        self.history = history
        self.fsync = fsync
        self.clock = clock
        # How long a game lasted is measured on a clock that never jumps: a Pi without a
        # battery clock starts at the last saved time, and the time is set right (hours or
        # days later) when the network answers, maybe in the middle of a game.
        self.monotonic = monotonic
        self._started_steady: float | None = None
        self._ended: tuple[datetime | None, datetime] | None = None  # (started, finished)
        self.game = Game()
        self.messages: list[str] = []
        self.recorded: int | None = None  # the history's id of the finished game
        self.unsaved = False  # some events are only in memory
        self._lines: list[Mapping[str, Any]] = []  # the log's lines, undo lines included
        self._log: TableLog | None = None
        # Games cleared from the table before they could be saved (a full disk): kept here
        # until there is room, then put in games/ and the history (see retry_save).
        self.waiting: list[_Waiting] = []
        # Finished games put away (in games/) that the history could not take (full, damaged
        # or not open): recorded as soon as it can (see retry_save).
        self.unrecorded: list[_Waiting] = []

    # ------------------------------------------------------------------------------- opening
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        history: History | None = None,
        fsync: bool = True,
        clock: Callable[[], datetime] = _now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> TableSession:
        """Resume the game in the log at ``path`` (if any). Never raises for a bad log:
        :attr:`messages` says what was found."""
        session = cls(Path(path), history=history, fsync=fsync, clock=clock,
                      monotonic=monotonic)
        session._resume()
        return session

    def _say(self, message: str) -> None:
        """A message for the table's screen; the table also writes it to the journal, once."""
        self.messages.append(message)

    def _resume(self) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        replay = replay_file(self.path, torn_tail_ok=True)
        for problem in replay.problems:
            self._say(Notice("notice.log_problem", problem=problem))
        if replay.error is not None and replay.error.line == 0:  # unreadable file
            self._say(Notice("notice.log_unreadable", error=replay.error.message))
            self._set_aside("unreadable")
            return
        if replay.error is not None and not replay.game.started:
            # The notice says "holds no game" already: not twice for a log of blank lines.
            why = replay.error.message
            self._say(Notice("notice.log_no_game",
                             error=NO_GAME_LINE if why.endswith(NO_GAME_LINE) else why))
            self._set_aside("damaged")
            return
        self.game = replay.game
        self._lines = list(replay.lines)  # as written, undo lines included
        if replay.error is not None:
            kept = self._set_aside("damaged")
            bad = {"line": replay.error.line, "error": replay.error.message}
            self._say(Notice("notice.log_bad_line_kept", **bad, name=kept.name) if kept
                      else Notice("notice.log_bad_line", **bad))
            if kept is not None:
                self._rewrite()
            else:  # never write over the only copy: play on in memory until it can be saved
                self._lost_disk(OSError(Notice("notice.damaged_log_in_place")))
        else:
            try:
                self._log = TableLog(self.path, fsync=self.fsync)  # cuts a torn tail off
            except OSError as exc:
                self._lost_disk(exc)
        if self.game.over:
            self._record()

    def _set_aside(self, why: str) -> Path | None:
        stamp = self.clock().strftime("%Y%m%d-%H%M%S")
        # (a clock started at the same saved time at each boot gives the same stamp)
        target = _free_name(self.path.parent, f"{self.path.stem}.{why}-{stamp}", self.path.suffix)
        try:
            os.replace(self.path, target)
        except OSError as exc:
            self._say(Notice("notice.log_not_set_aside", error=exc.strerror or str(exc)))
            return None
        return target

    # ------------------------------------------------------------------------------- playing
    @property
    def state(self) -> dict[str, Any]:
        return self.game.state

    @property
    def logged(self) -> tuple[Mapping[str, Any], ...]:
        """The game's log lines, undo lines included (what the file holds, or will)."""
        return tuple(self._lines)

    def push(self, event: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one event, on disk first. TableError (nothing written) when it is refused.

        An ``undo`` event is the same as :meth:`undo`. A ``game`` event is refused once a game
        has started: use :meth:`new_game`.
        """
        event = dict(event)
        self.game.check(event)
        if event.get("event") == "game":
            self._started_steady = self.monotonic()
        self._write(event)
        notes = self.game.push(event)
        # When the game ended, by the clocks: not when the table is cleared (the players may
        # talk a while first), nor when it is saved at last after a full disk.
        self._ended = (self._ended or self._times()) if self.game.over else None
        if self.game.over:
            self._record()
        return notes

    def undo(self) -> list[dict[str, Any]]:
        """Take back the most recent event (TableError when there is nothing to take back)."""
        return self.push(UNDO)

    def new_game(self, start: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Clear the table and start the game ``start`` (a ``game`` event) in a new log.

        The previous log, finished or not, moves to ``games/`` beside the log.
        TableError (and the table unchanged) when ``start`` is not a valid game event.
        """
        start = dict(start)
        if start.get("event") != "game":
            raise TableError("a new game starts with a game line (the players, clockwise)")
        Game().check(start)
        self.clear()
        return self.push(start)

    # The table log's interface (``append``), for a controller that keeps its own Game and
    # checks each event itself: ``Controller(open_log=session.open_log, log=session, ...)``.
    def append(self, event: Mapping[str, Any]) -> None:
        """Like :meth:`push`; a disk failure never raises (play goes on, see :attr:`unsaved`)."""
        self.push(event)

    def open_log(self, start: Mapping[str, Any] | None = None) -> TableSession:
        """Clear the table for a new game whose ``game`` line comes next through
        :meth:`append`; returns this session."""
        self.clear()
        return self

    def clear(self) -> None:
        """Put the current game away (history, ``games/``) and leave the table empty."""
        if not self.game.started:
            return
        if self.unsaved and not self.retry_save():
            # Its only whole copy is in memory: kept there until there is room again.
            self.waiting.append(_Waiting(list(self._lines), self.game.over, self.game.state,
                                         *(self._ended or self._times()), self.recorded))
            self._say(Notice("notice.game_waits"))
            self._archive(kind="cut-short")  # what reached the disk, out of the new game's way
        else:
            if self.game.over and self.recorded is None:
                self._record()  # a last try before the table is cleared
            if self.game.over and self.recorded is None:
                self.unrecorded.append(_Waiting(list(self._lines), True, self.game.state,
                                                *(self._ended or self._times()), None))
            self._archive()
        self.game = Game()
        self._lines = []
        self.recorded = None
        self.unsaved = False
        self._started_steady = None
        self._ended = None

    def _archive(self, *, kind: str | None = None) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        if not self.path.exists():
            return
        if self.path.stat().st_size == 0:
            self.path.unlink()
            return
        when = self.clock()
        stamp = when.strftime("%Y%m%d-%H%M%S")
        target = self._archive_name(when, kind or ("finished" if self.game.over else
                                                   "unfinished"))
        folder = target.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.replace(self.path, target)
        except OSError as exc:
            # Never lose it: leave it in place under another name if the folder cannot be made.
            self._say(Notice("notice.archive_failed", folder=str(folder),
                             error=exc.strerror or str(exc)))
            # (the same second after a restart: never over another)
            aside = _free_name(self.path.parent, f"{self.path.stem}.{stamp}", self.path.suffix)
            try:
                os.replace(self.path, aside)
            except OSError:
                pass

    # ------------------------------------------------------------------------------- saving
    def _write(self, event: Mapping[str, Any]) -> None:
        self._lines.append(event)
        if self.unsaved:
            self.retry_save()
            return
        try:
            if self._log is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._log = TableLog(self.path, fsync=self.fsync)
            self._log.append(event)
        except OSError as exc:
            self._lost_disk(exc)
            return
        if self._log.removed():
            # The log (or the whole state folder) was deleted while the table ran: the
            # moves went into a file no one can open again. Written anew, whole.
            if self._rewrite():
                self._say(Notice("notice.log_rewritten"))

    def _lost_disk(self, exc: OSError) -> None:
        if self._log is not None:
            try:
                self._log.close()
            except OSError:
                pass
            self._log = None
        if not self.unsaved:
            self.unsaved = True
            self._say(Notice("notice.cannot_save", error=exc.strerror or notice_of(exc),
                             mend=_mend(exc)))

    @property
    def to_record(self) -> bool:
        """Whether a finished game (on the table, or put away) waits for the history."""
        return bool(self.unrecorded) or (self.game.over and self.recorded is None)

    def retry_save(self) -> bool:
        """Try to put every event on disk again, the games kept waiting, and the finished
        games the history has not taken yet; True when the log is complete."""
        self._save_waiting()
        self._record_waiting()
        if not self.unsaved:
            return True
        if self._rewrite():
            self.unsaved = False
            self._say(Notice("notice.saved_again"))
            return True
        return False

    def _rewrite(self) -> bool:
        """Write the whole log to a new file and put it in place in one step."""
        try:
            if self._log is not None:
                self._log.close()
                self._log = None
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, b"".join(map(encode, self._lines)), fsync=self.fsync)
            self._log = TableLog(self.path, fsync=self.fsync)
        except OSError as exc:
            self._lost_disk(exc)
            return False
        return True

    def _times(self) -> tuple[datetime | None, datetime]:
        """(started, finished) of the game now: finished by the clock, started as long before
        as the game lasted by the steady clock (None when this run did not see it start)."""
        finished = self.clock()
        if self._started_steady is None:
            return None, finished
        return finished - timedelta(seconds=self.monotonic() - self._started_steady), finished

    def _archive_name(self, when: datetime, kind: str) -> Path:
        """A name not yet taken in ``games/`` for a log of ``kind`` put away at ``when``."""
        stamp = when.strftime("%Y%m%d-%H%M%S")
        return _free_name(self.path.parent / "games", f"{stamp}-{kind}", self.path.suffix)

    def _save_waiting(self) -> None:
        """The games kept waiting for room, each into ``games/`` whole and (finished) into
        the history; those that still cannot be saved wait on."""
        while self.waiting:
            game = self.waiting[0]
            target = self._archive_name(game.finished_at,
                                        "finished" if game.over else "unfinished")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(target, b"".join(map(encode, game.lines)), fsync=self.fsync)
            except OSError:
                return
            said = Notice("notice.waiting_saved")
            if game.over and game.recorded is None:
                try:
                    self._history_takes(game)
                except (HistoryError, ValueError) as exc:
                    said = Notice("notice.waiting_saved_no_history", folder=str(target.parent),
                                  error=notice_of(exc))
                    if isinstance(exc, HistoryError):
                        self.unrecorded.append(game)  # tried again, with the others
                except _NoHistory:
                    self.unrecorded.append(game)
            self.waiting.pop(0)
            self._say(said)

    # ------------------------------------------------------------------------------- history
    def _record_waiting(self) -> None:
        """Into the history, quietly (its failure was said once): the finished game on the
        table, then those put away before it could take them."""
        if self.history is None:
            return
        if self.game.over and self.recorded is None:
            self._record(quiet=True)
        while self.unrecorded:
            game = self.unrecorded[0]
            try:
                self._history_takes(game)
            except HistoryError:
                return
            except ValueError as exc:  # cannot happen for a game the engine finished
                self._say(Notice("notice.history_refused", error=str(exc)))
            else:
                self._say(Notice("notice.history_saved_again"))
            self.unrecorded.pop(0)

    def _history_takes(self, game: _Waiting) -> None:
        """A finished game kept in memory, into the history: HistoryError or ValueError as
        ``History.record_game`` raises them; _NoHistory while there is none."""
        if self.history is None:
            raise _NoHistory
        self.history.record_game(game.lines, game.state, finished_at=game.finished_at,
                                 started_at=game.started_at)

    def _record(self, *, quiet: bool = False) -> None:
        if self.history is None or self.recorded is not None:
            return
        try:
            started_at, finished_at = self._ended or self._times()
            self.recorded = self.history.record_game(
                self._lines, self.game.state, finished_at=finished_at, started_at=started_at)
        except HistoryError as exc:
            if not quiet:
                self._say(notice_of(exc))
        except ValueError as exc:  # cannot happen for a game the engine finished; say so
            self._say(Notice("notice.history_refused", error=str(exc)))

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        self._save_waiting()  # a last try
        self._record_waiting()
        if self.unrecorded:
            log.error("%d finished game(s) could not be put in the game history before the "
                      "table closed; their table logs are in games/.", len(self.unrecorded))
        for game in self.waiting:
            # Memory is about to go: the journal (kept elsewhere) is the last place left.
            log.error("A game kept waiting for room could not be saved before the table "
                      "closed; its table log follows.\n%s",
                      b"".join(map(encode, game.lines)).decode("utf-8"))

    def __enter__(self) -> TableSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _NoHistory(Exception):
    """No history is open (it could not be at the start): a game waits for one."""


@dataclass(frozen=True)
class _Waiting:
    """A game cleared from the table before it could be saved: all it takes to save it."""

    lines: list[Mapping[str, Any]]
    over: bool
    state: dict[str, Any]
    started_at: datetime | None
    finished_at: datetime
    recorded: int | None


def _mend(exc: OSError) -> Notice:
    """What staff can do about a save that failed for ``exc``."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return Notice("notice.mend_space")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return Notice("notice.mend_readonly")
    return Notice("notice.mend_check")
