"""The table log: one JSON object per line, one game per file (see docs/table-log.md).

Writing: every accepted event is one line, flushed and fsynced before `append` returns, so
a power cut loses nothing the screen has shown. Reading: a line cut short by a power cut
(the last line, with no newline) is dropped with a message; anything else that is wrong is
reported with its 1-based line number.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.i18n import Notice
from companion.engine import Game
from companion.errors import LogFormatError, TableError

log = logging.getLogger(__name__)

BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark
MAX_LOG_BYTES = 16 * 2**20
# Why a log of blank lines only, or of moves with no game line first, holds no game.
NO_GAME_LINE = "its first line must be a game line"


@dataclass(frozen=True)
class BadLine:
    line: int  # 1-based
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"error": {"line": self.line, "message": self.message}}


@dataclass
class Replay:
    game: Game
    error: BadLine | None = None
    problems: list[str] = field(default_factory=list)
    lines: list[Any] = field(default_factory=list)  # the lines replayed, undo lines included


def sync_dir(folder: str | os.PathLike[str]) -> None:
    """Put a folder's entries on disk (a file just created, renamed or replaced in it). A
    folder that cannot be opened for this is left as it is."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: str | os.PathLike[str], data: bytes, *, fsync: bool = True) -> None:
    """Replace the file at ``path`` with ``data`` in one step: a power cut leaves the old file
    or the new one, whole. OSError (disk full, read-only) is the caller's to show; the
    half-written ``.tmp`` file beside it is removed."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    if fsync:
        sync_dir(path.parent)


def file_in_the_way(path: str | os.PathLike[str]) -> Path | None:
    """The file standing where a folder on the way to ``path`` should be (``notes`` for
    ``notes/game.log`` when ``notes`` is a file), or None. Making the folders then fails with
    "File exists" or "Not a directory", which tells staff nothing: name the file instead."""
    for folder in Path(path).parents:
        try:
            if folder.exists():
                return None if folder.is_dir() else folder
        except OSError:
            return None
    return None


def encode(event: Mapping[str, Any]) -> bytes:
    return (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _decode(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LogFormatError("the line is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Some of the parser's messages end in "at" already ("Unterminated string starting at").
        at = "" if exc.msg.endswith(" at") else " at"
        raise LogFormatError(f"the line is not JSON ({exc.msg}{at} column {exc.colno})") from None
    except (ValueError, RecursionError):  # a number of thousands of digits; brackets too deep
        raise LogFormatError("the line is not a table log's line: its values are too long "
                             "or nested too deeply") from None


def replay_bytes(data: bytes, *, torn_tail_ok: bool = False) -> Replay:
    """Replay a whole log. Stops at the first bad line and keeps the state before it.

    With torn_tail_ok, a last line that has no newline and does not decode is taken for a
    line cut short by a power cut: it is dropped with a message instead of being an error.
    """
    game = Game()
    lines = data.split(b"\n")
    problems: list[str] = []
    done: list[Any] = []
    if data.startswith(BOM):  # a log saved again by a Windows editor
        lines[0] = lines[0][len(BOM):]
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            event = _decode(raw)
        except LogFormatError as exc:
            if torn_tail_ok and number == len(lines):
                log.info("table log: line %d was cut short and was dropped: %s", number, exc)
                # What the caller says (on the table's screen): the line was being written
                # when the power went, so its move was never shown (see TableLog.append).
                problems.append(Notice("notice.torn_tail", line=number))
                break
            return Replay(game, BadLine(number, str(exc)), problems, done)
        try:
            game.push(event)
        except TableError as exc:
            return Replay(game, BadLine(number, str(exc)), problems, done)
        done.append(event)
    if not game.started:
        return Replay(game, BadLine(1, f"the log holds no game: {NO_GAME_LINE}"), problems, done)
    return Replay(game, None, problems, done)


def replay_file(path: str | os.PathLike[str], *, torn_tail_ok: bool = False) -> Replay:
    try:
        with open(path, "rb") as f:
            # A video given by mistake would fill a 2 GB Pi's memory (a 32 MB file took
            # 500 MB): a whole game's log is a few kilobytes.
            data = f.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        return Replay(Game(), BadLine(0, f"cannot read the log {str(path)!r}: {exc.strerror}"))
    if len(data) > MAX_LOG_BYTES:
        return Replay(Game(), BadLine(0, f"{str(path)!r} is far too large to be a table log "
                                         f"(over {MAX_LOG_BYTES // 2**20} MB; a game's log is a "
                                         "few kilobytes)"))
    return replay_bytes(data, torn_tail_ok=torn_tail_ok)


def load_game(events: Iterable[Mapping[str, Any]]) -> Game:
    """A Game from decoded events, undo lines included. Raises TableError on a bad one."""
    game = Game()
    for event in events:
        game.push(event)
    return game


class TableLog:
    """Appends events to a log file, each on disk before `append` returns.

    Opening a file whose last line was cut short cuts that fragment off first, so the next
    line starts clean; `repaired` says what was dropped.
    """

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.repaired: str | None = None
        new = not self.path.exists()
        # Unbuffered: a line the disk refused must not wait in a buffer, to be written with
        # its retries once there is room again (the same line many times over).
        self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115 - for the game's life
        mine = os.fstat(self._file.fileno())
        self._identity = (mine.st_dev, mine.st_ino)  # the file written to, while it is open
        if new:
            self._sync_dir()
        else:
            self._cut_torn_tail()

    def _cut_torn_tail(self) -> None:
        size = self._file.seek(0, os.SEEK_END)
        if size == 0:
            return
        with open(self.path, "rb") as f:
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return  # the usual case: the last line is whole
            f.seek(0)
            data = f.read()
        keep = data.rfind(b"\n") + 1
        fragment = data[keep:]
        try:
            _decode(fragment)
        except LogFormatError:
            self._file.truncate(keep)
            self.repaired = f"dropped a line cut short at the end of {self.path.name}"
            # Said once, by whoever read the file back first and found the line cut short.
            log.info("table log: %s: %r", self.repaired, fragment[:80])
        else:
            self._file.write(b"\n")  # a whole line that only lacked its newline
        self._flush()

    def append(self, event: Mapping[str, Any]) -> None:
        """Write one event line. Raises OSError (disk full, unplugged) with nothing of the
        line left in the file (or, if even that fails, a piece the next open repairs)."""
        line = memoryview(encode(event))
        start = self._file.seek(0, os.SEEK_END)
        try:
            while line:
                line = line[self._file.write(line):]  # a full disk may take part of it
            self._flush()
        except OSError:
            with contextlib.suppress(OSError):
                self._file.truncate(start)
            raise

    def removed(self) -> bool:
        """True when the file written to is no longer at ``path`` (deleted or replaced)."""
        try:
            here = os.stat(self.path)
        except OSError:
            return True
        return (here.st_dev, here.st_ino) != self._identity

    def _flush(self) -> None:
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())

    def _sync_dir(self) -> None:
        if self.fsync:
            sync_dir(self.path.parent)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TableLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
