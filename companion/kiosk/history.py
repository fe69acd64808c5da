"""Finished games kept in SQLite, with statistics per player name and exports.

    history = History.open(config.database_path)
    game_id = history.record_game(events, state)      # when a game is over
    history.player_stats()    # [PlayerStats(name, games, wins, stones), ...]
    history.list_games()      # [GameSummary(...), ...], newest first
    history.export_log(game_id)       # the game's table log, JSON Lines
    history.export_bgstats(game_id)   # the game as a BG Stats play (a dict, for json.dumps)

``events`` are the table log's events (``game`` first; ``undo`` lines may be among them) and
``state`` is the final state as the table log format describes it (``over`` true). Recording the
same game twice (a restart right after a game ended) stores it once.

The database is in WAL mode with full synchronous writes, so a power cut loses no recorded game.
Every storage failure (disk full, read-only or missing folder, damaged file) raises
:class:`HistoryError`, an ``OSError`` whose message is a sentence for the screen: the game in
progress never depends on the history.

The BG Stats export follows the JSON that BG Stats accepts from other apps to create a play
(its "push plays" format): ``sourceName``, ``sourcePlayId``, ``playDate`` (local time,
"YYYY-MM-DD HH:MM:SS"), optional ``durationMin``, ``game`` (``name``, ``sourceGameId``,
``highestWins``, ``noPoints``) and ``players`` (``name``, ``score``, ``winner``, ``rank``,
``startPlayer``, ``sourcePlayerId``, ``role``). Stones are the score; the game's BoardGameGeek id
is left out, so BG Stats matches the game by name.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path
from typing import Any

from companion.app.i18n import Notice
from companion.tablelog import encode

log = logging.getLogger(__name__)

__all__ = [
    "GAME_NAME",
    "SOURCE_NAME",
    "GameSummary",
    "History",
    "HistoryError",
    "PlayerStats",
]

GAME_NAME = "Abraca Who?"
SOURCE_NAME = "Abraca Who? table companion"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL UNIQUE,
    started_at  TEXT,
    finished_at TEXT NOT NULL,
    rounds      INTEGER NOT NULL,
    log         TEXT NOT NULL,
    state       TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    name    TEXT NOT NULL,
    stones  INTEGER NOT NULL,
    winner  INTEGER NOT NULL,
    first   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS results_by_name ON results(name);
"""


class HistoryError(OSError):
    """The history could not be read or written. ``str(err)`` is a sentence for the screen (a
    Notice, said in the table's language there).

    ``reason`` is one of "full", "readonly", "open", "damaged", "io", "missing" (no such game).
    """

    def __init__(self, message: str, *, reason: str, path: Path | str | None = None,
                 outside_a_game: str | None = None):
        super().__init__(message)
        self.reason = reason
        self.path = path
        # The sentence for a command run outside a game (stats, export): without the
        # screen's "The game goes on".
        self.outside_a_game = outside_a_game or message

    def __str__(self) -> str:
        return self.args[0]


@dataclass(frozen=True)
class PlayerStats:
    """One player name's record over every finished game."""

    name: str
    games: int
    wins: int
    stones: int


@dataclass(frozen=True)
class GameSummary:
    """One finished game, as listed."""

    id: int
    finished_at: datetime
    started_at: datetime | None
    rounds: int
    players: tuple[str, ...]
    stones: Mapping[str, int]
    winners: tuple[str, ...]


def _storage_error(exc: sqlite3.Error, path: Path | str, doing: str) -> HistoryError:
    """A sentence for the screen from what SQLite said (``doing``: opened, saved or read)."""
    code = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    done = Notice(f"notice.history_{doing}")
    if code == "SQLITE_FULL" or "disk is full" in text:
        reason, said = "full", Notice("notice.history_full", doing=done)
    elif code.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text:
        reason, said = "readonly", Notice("notice.history_readonly", doing=done, path=str(path))
    elif code.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        reason, said = "open", Notice("notice.history_cannot_open", doing=done, path=str(path))
    elif code in ("SQLITE_NOTADB", "SQLITE_CORRUPT") or "not a database" in text \
            or "malformed" in text:
        reason, said = "damaged", Notice("notice.history_damaged", path=str(path),
                                         error=str(exc))
    else:
        reason, said = "io", Notice("notice.history_io", doing=done, error=str(exc))
    return HistoryError(Notice("notice.game_goes_on", text=said), reason=reason, path=path,
                        outside_a_game=said)


def _holds_bytes(path: Path) -> bool:
    """Is there a file at ``path`` with something in it?"""
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def _file_identity(path: Path | str) -> tuple[int, int] | None:
    """The file at ``path`` (device, inode); None in memory, or when it cannot be told."""
    if str(path) == ":memory:":
        return None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return (-1, -1)  # removed: no file opened has this
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _fingerprint(events: Sequence[Mapping[str, Any]]) -> str:
    text = "\n".join(json.dumps(e, sort_keys=True, ensure_ascii=False) for e in events)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _utc(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.now(UTC)
    return moment.astimezone(UTC)  # a naive time is taken as the machine's local time


def _check_game(events: Sequence[Mapping[str, Any]], state: Mapping[str, Any]) -> list[str]:
    """The seat order of the finished game, or ValueError saying what is wrong."""
    if not events or not isinstance(events[0], Mapping) or events[0].get("event") != "game":
        raise ValueError("a game's events start with its game line (players and first player)")
    if not isinstance(state, Mapping) or not state.get("over"):
        raise ValueError("this game is not over: only finished games go into the history")
    players = state.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError("the final state lists no players")
    names = [p.get("name") for p in players if isinstance(p, Mapping)]
    if names != list(events[0].get("players", [])):
        raise ValueError(f"the final state's players {names} are not the game's players "
                         f"{events[0].get('players')}")
    for p in players:
        if isinstance(p.get("stones"), bool) or not isinstance(p.get("stones"), int):
            raise ValueError(f"the final state gives {p.get('name')} no stone count")
    for w in state.get("winners", []):
        if w not in names:
            raise ValueError(f"the winner {w!r} is not one of the players")
    return names


class History:
    """The history database. Open with :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(self, conn: sqlite3.Connection, path: Path | str):
        self._conn = conn
        self.path = path
        self.stale = self.empty = False  # see open_to_read
        self._file = _file_identity(path)  # the file opened (see _reopen_if_removed)

    # ---------------------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: str | Path, *, timeout: float = 5.0) -> History:
        """Open (creating if needed) the history at ``path``; ":memory:" for a throwaway one.
        ``timeout``: how long to wait for another program holding it (seconds)."""
        if str(path) != ":memory:":
            path = Path(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise HistoryError(
                    Notice("notice.history_no_folder", path=str(path),
                           error=exc.strerror or str(exc)), reason="open", path=path
                ) from exc
        try:
            conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise _storage_error(exc, path, "opened") from exc
        history = cls(conn, path)
        try:
            history._setup()
        except sqlite3.Error as exc:
            conn.close()
            raise _storage_error(exc, path, "opened") from exc
        return history

    @classmethod
    def open_to_read(cls, path: str | Path, *, timeout: float = 5.0) -> History:
        """The history at ``path`` opened to read only (``companion stats``, ``export``):
        nothing in it or beside it is written, so it opens on a memory card gone read-only.

        There SQLite cannot make the file it shares with a writer (the ``-shm`` beside the
        database): with none, no table can be writing, and the file is read as it lies.
        ``stale`` is then True when the table stopped without putting its last writes into
        the file (a power cut), so the games saved last may be missing. ``empty``: the file
        holds no history yet."""
        path = Path(path)
        uri = path.absolute().as_uri()
        stale = False
        try:
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=timeout,
                                   isolation_level=None)
            conn.execute("PRAGMA user_version").fetchone()
        except sqlite3.Error as exc:
            if "unable to open" not in str(exc).lower():
                raise _storage_error(exc, path, "opened") from exc
            try:
                conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=timeout,
                                       isolation_level=None)
            except sqlite3.Error as exc2:
                raise _storage_error(exc2, path, "opened") from exc2
            stale = _holds_bytes(path.with_name(path.name + "-wal"))
        history = cls(conn, path)
        history.stale = stale
        try:
            history.empty = history._check() == 0
        except sqlite3.Error as exc:
            conn.close()
            raise _storage_error(exc, path, "opened") from exc
        return history

    def _check(self) -> int:
        """The history's schema version, once it is known to be ours (DatabaseError else)."""
        c = self._conn
        # Whose database is it? Asked before anything is changed: another program's file
        # (given to stats --db by mistake) was switched to WAL and given our tables.
        version = c.execute("PRAGMA user_version").fetchone()[0]
        tables = {name for (name,) in c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        columns = {row[1] for row in c.execute("PRAGMA table_info(games)")}
        if tables and not {"fingerprint", "log", "state", "finished_at"} <= columns:
            # Another program's file, even one with a table called games (a board game app).
            raise sqlite3.DatabaseError(
                "file is not a database of games: it holds other tables, none of the "
                "companion's; nothing in it was changed")
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"written by a newer version of the companion (schema {version})")
        return version

    def _setup(self) -> None:
        c = self._conn
        version = self._check()
        c.execute("PRAGMA foreign_keys = ON")
        if str(self.path) != ":memory:":
            c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = FULL")  # a recorded game survives a power cut
        if version < SCHEMA_VERSION:
            c.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        c.execute(statement)
                c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                c.execute("COMMIT")
            except BaseException:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self._conn.close()

    def _reopen_if_removed(self) -> None:
        """Start a new history where the file was, when it was removed (or replaced) while
        open: staff clearing the statistics with ``rm``, or the state folder emptied. Games
        went on into the deleted file until the table restarted, and were lost then."""
        now = _file_identity(self.path)
        if self._file is None or now is None or now == self._file:
            return
        log.warning("The game history %s was removed while the table ran: a new one is "
                    "started there.", self.path)
        # Closed first: its write-ahead files beside the path are its own, and a new database
        # there must not take them up. Should the new one fail to open, the next call tries
        # again (the old file is still not there).
        self._conn.close()
        fresh = History.open(self.path)
        self._conn, self._file = fresh._conn, fresh._file

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def journal_mode(self) -> str:
        return self._conn.execute("PRAGMA journal_mode").fetchone()[0]

    # ---------------------------------------------------------------------------- writing
    def record_game(
        self,
        events: Iterable[Mapping[str, Any]],
        state: Mapping[str, Any] | None = None,
        *,
        finished_at: datetime | None = None,
        started_at: datetime | None = None,
    ) -> int:
        """Store a finished game; its id. The same events recorded again give the same id.

        ``state`` is the final state; without it, the rules engine replays the events.
        ValueError when the game is not finished, its events break the rules (TableError) or the
        state does not match the events;
        HistoryError when it cannot be stored.
        """
        events = [dict(e) for e in events]
        if state is None:
            from companion.tablelog import load_game

            state = load_game(events).state
        names = _check_game(events, state)
        first = events[0].get("first") or names[0]
        winners = set(state.get("winners", []))
        fingerprint = _fingerprint(events)
        log = b"".join(map(encode, events)).decode("utf-8")  # as the table writes it
        finished = _utc(finished_at).isoformat(timespec="seconds")
        started = None if started_at is None else _utc(started_at).isoformat(timespec="seconds")
        self._reopen_if_removed()
        c = self._conn
        try:
            c.execute("BEGIN IMMEDIATE")
            try:
                row = c.execute("SELECT id FROM games WHERE fingerprint = ?",
                                (fingerprint,)).fetchone()
                if row is not None:
                    c.execute("ROLLBACK")
                    return row[0]
                cur = c.execute(
                    "INSERT INTO games (fingerprint, started_at, finished_at, rounds, log, state)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (fingerprint, started, finished, int(state.get("round", 1)), log,
                     json.dumps(state, ensure_ascii=False)))
                game_id = cur.lastrowid
                c.executemany(
                    "INSERT INTO results (game_id, seat, name, stones, winner, first)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, seat, p["name"], p["stones"], p["name"] in winners,
                      p["name"] == first)
                     for seat, p in enumerate(state["players"])])
                c.execute("COMMIT")
            except BaseException:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise _storage_error(exc, self.path, "saved") from exc
        return game_id

    # ---------------------------------------------------------------------------- reading
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        self._reopen_if_removed()
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _storage_error(exc, self.path, "read") from exc

    def player_stats(self) -> list[PlayerStats]:
        """Every player name: games played, games won, stones gained; most wins first."""
        rows = self._query(
            "SELECT name, COUNT(*), SUM(winner), SUM(stones) FROM results GROUP BY name"
            " ORDER BY SUM(winner) DESC, COUNT(*) DESC, SUM(stones) DESC, name")
        return [PlayerStats(name, games, wins, stones) for name, games, wins, stones in rows]

    def list_games(self, *, limit: int | None = None) -> list[GameSummary]:
        """Finished games, newest first."""
        games = "SELECT id, started_at, finished_at, rounds FROM games ORDER BY id DESC"
        params: tuple = ()
        if limit is not None:
            games += " LIMIT ?"
            params = (limit,)
        rows = self._query(  # one query: each game with its players, in seat order
            f"SELECT g.id, g.started_at, g.finished_at, g.rounds, r.name, r.stones, r.winner "
            f"FROM ({games}) AS g JOIN results AS r ON r.game_id = g.id "
            f"ORDER BY g.id DESC, r.seat", params)
        out = []
        for (game_id, started, finished, rounds), group in groupby(rows, key=lambda r: r[:4]):
            results = [r[4:] for r in group]
            out.append(GameSummary(
                id=game_id,
                finished_at=datetime.fromisoformat(finished),
                started_at=None if started is None else datetime.fromisoformat(started),
                rounds=rounds,
                players=tuple(r[0] for r in results),
                stones={r[0]: r[1] for r in results},
                winners=tuple(r[0] for r in results if r[2]),
            ))
        return out

    def game_count(self) -> int:
        return self._query("SELECT COUNT(*) FROM games")[0][0]

    def _game(self, game_id: int) -> tuple:
        rows = self._query(
            "SELECT fingerprint, started_at, finished_at, rounds, log, state FROM games"
            " WHERE id = ?", (game_id,))
        if not rows:
            raise HistoryError(f"There is no game {game_id} in the history.", reason="missing",
                               path=self.path)
        return rows[0]

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's events, as they were recorded."""
        log = self._game(game_id)[4]
        return [json.loads(line) for line in log.splitlines() if line.strip()]

    def export_log(self, game_id: int) -> str:
        """The game as its table log: JSON Lines that ``companion replay`` reads."""
        return self._game(game_id)[4]

    def export_bgstats(self, game_id: int) -> dict[str, Any]:
        """The game as one BG Stats play (see the module's description)."""
        fingerprint, started, finished, rounds, _log, state_text = self._game(game_id)
        state = json.loads(state_text)
        results = self._query(
            "SELECT name, stones, winner, first FROM results WHERE game_id = ? ORDER BY seat",
            (game_id,))
        finished_local = datetime.fromisoformat(finished).astimezone()
        play: dict[str, Any] = {
            "sourceName": SOURCE_NAME,
            "sourcePlayId": f"abraca-{fingerprint[:16]}",
            "playDate": finished_local.strftime("%Y-%m-%d %H:%M:%S"),
            "game": {
                "name": GAME_NAME,
                "sourceGameId": "abraca-who",
                "highestWins": True,
                "noPoints": False,
            },
            "players": [
                {
                    "name": name,
                    "score": stones,
                    "winner": bool(winner),
                    # Competition ranking by stones: ties share a rank.
                    "rank": 1 + sum(1 for r in results if r[1] > stones),
                    "role": "",
                    "startPlayer": bool(first),
                    "sourcePlayerId": name,
                }
                for name, stones, winner, first in results
            ],
            "comments": f"{rounds} round{'s' if rounds != 1 else ''}; winners: "
                        + ", ".join(state.get("winners", [])),
        }
        if started is not None:
            minutes = (datetime.fromisoformat(finished)
                       - datetime.fromisoformat(started)).total_seconds() / 60
            play["durationMin"] = max(0, round(minutes))
        return play
