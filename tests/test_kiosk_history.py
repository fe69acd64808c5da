"""The history of finished games: recording, statistics, exports, and storage failures."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from companion.cli import main
from companion.kiosk.history import History, HistoryError
from companion.simulate import play_game
from companion.tablelog import TableLog, load_game, replay_bytes, replay_file


def finished_game(players, seed, *, with_undo=False):
    """A whole game played at the simulated table: its events and the engine's final state."""
    _, events = play_game(list(players), seed)
    events = [dict(e) for e in events]
    if with_undo:  # a misread taken back halfway through, as the log keeps it
        k = len(events) // 2
        events = events[:k] + [events[k], {"event": "undo"}] + events[k:]
    state = load_game(events).state
    assert state["over"]
    return events, state


@pytest.fixture
def history(tmp_path):
    with History.open(tmp_path / "state" / "history.sqlite") as h:
        yield h


def test_a_finished_game_is_recorded_and_listed(history, tmp_path):
    events, state = finished_game(["Ann", "Ben", "Cat"], 0)  # Ben starts and wins 6-9-3
    at = datetime(2026, 11, 30, 20, 15, tzinfo=UTC)
    game_id = history.record_game(events, state, finished_at=at)
    assert history.journal_mode == "wal"
    [game] = history.list_games()
    assert game.id == game_id
    assert game.players == ("Ann", "Ben", "Cat")
    assert dict(game.stones) == {"Ann": 6, "Ben": 9, "Cat": 3}
    assert game.winners == ("Ben",)
    assert game.rounds == state["round"] == 4
    assert game.finished_at == at
    assert history.events(game_id) == events


def test_the_engine_gives_the_final_state_when_none_is_passed(history):
    events, state = finished_game(["Ann", "Ben", "Cat", "Dan"], 3, with_undo=True)
    game_id = history.record_game(events)
    [game] = history.list_games()
    assert dict(game.stones) == {p["name"]: p["stones"] for p in state["players"]}
    assert game.winners == tuple(state["winners"])
    assert history.events(game_id) == events


def test_a_game_whose_events_break_the_rules_is_refused(history):
    events, _ = finished_game(["Ann", "Ben"], 1)
    events.insert(1, {"event": "duel", "player": "Zed", "target": "Ann", "accepted": False})
    with pytest.raises(ValueError):  # the engine's TableError is a ValueError
        history.record_game(events)
    assert history.game_count() == 0


def test_statistics_per_player_name(history):
    games = [finished_game(["Ann", "Ben", "Cat"], 0),  # 6 9 3, Ben wins
             finished_game(["Ben", "Ann"], 2),
             finished_game(["Cat", "Ben", "Dan"], 4)]
    expected: dict[str, list[int]] = {}
    for events, state in games:
        history.record_game(events, state)
        for p in state["players"]:
            row = expected.setdefault(p["name"], [0, 0, 0])
            row[0] += 1
            row[1] += p["name"] in state["winners"]
            row[2] += p["stones"]
    stats = history.player_stats()
    assert {p.name: [p.games, p.wins, p.stones] for p in stats} == expected
    order = sorted(expected, key=lambda n: (-expected[n][1], -expected[n][0], -expected[n][2], n))
    assert [p.name for p in stats] == order
    assert history.game_count() == 3
    assert [g.players[0] for g in history.list_games()] == ["Cat", "Ben", "Ann"]  # newest first
    assert len(history.list_games(limit=2)) == 2


def test_the_same_game_is_stored_once(history):
    events, state = finished_game(["Ann", "Ben"], 1)
    first = history.record_game(events, state)
    assert history.record_game(events, state) == first
    assert history.game_count() == 1
    assert history.player_stats()[0].games == 1


def test_games_survive_closing_and_reopening(tmp_path):
    path = tmp_path / "history.sqlite"
    with History.open(path) as h:
        game_id = h.record_game(*finished_game(["Ann", "Ben"], 1))
    with History.open(path) as h:
        assert [g.id for g in h.list_games()] == [game_id]
        assert h.journal_mode == "wal"


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda e, s: s.update(over=False), "not over"),
        (lambda e, s: e.pop(0), "start with its game line"),
        (lambda e, s: s["players"].pop(), "are not the game's players"),
        (lambda e, s: s["players"][0].update(stones="7"), "no stone count"),
        (lambda e, s: s["players"].reverse(), "are not the game's players"),
        (lambda e, s: s.update(winners=["Zed"]), "'Zed' is not one of the players"),
    ],
)
def test_a_game_that_is_not_finished_or_inconsistent_is_refused(history, change, words):
    events, state = finished_game(["Ann", "Ben"], 1)
    change(events, state)
    with pytest.raises(ValueError, match=words):
        history.record_game(events, state)
    assert history.game_count() == 0


@pytest.mark.parametrize("removed", ["the file", "its write-ahead files too", "the folder"])
def test_a_history_removed_while_open_is_started_again_where_it_was(tmp_path, caplog, removed):
    """Staff clearing the statistics with rm while the table runs: the games after it went
    into the deleted file and were lost when the table restarted."""
    import shutil

    path = tmp_path / "state" / "history.sqlite"
    first, _ = finished_game(["Ann", "Ben"], 0)
    second, _ = finished_game(["Cat", "Dan"], 1)
    with History.open(path) as history:
        history.record_game(first)
        if removed == "the folder":
            shutil.rmtree(path.parent)
        else:
            for p in path.parent.glob("history.sqlite*" if "too" in removed else "*.sqlite"):
                p.unlink()
        old = history._conn
        assert history.game_count() == 0  # what is there now: nothing
        with pytest.raises(sqlite3.ProgrammingError):  # closed before a new file took over
            old.execute("SELECT 1")
        history.record_game(second)
        assert [g.players for g in history.list_games()] == [("Cat", "Dan")]
    assert "was removed while the table ran" in caplog.text
    with History.open(path) as again:  # the next start finds it
        assert [g.players for g in again.list_games()] == [("Cat", "Dan")]


def test_export_as_table_log_replays_to_the_same_game(history, tmp_path):
    events, state = finished_game(["Ann", "Ben", "Cat"], 5, with_undo=True)
    game_id = history.record_game(events, state)
    text = history.export_log(game_id)
    assert text.endswith("\n")
    assert [json.loads(line) for line in text.splitlines()] == events
    assert {"event": "undo"} in [json.loads(line) for line in text.splitlines()]
    written = tmp_path / "table.jsonl"  # the same game as the table itself writes it
    with TableLog(written, fsync=False) as table_log:
        for event in events:
            table_log.append(event)
    assert text == written.read_text(encoding="utf-8")
    log = tmp_path / "exported.jsonl"
    log.write_text(text, encoding="utf-8")
    replay = replay_file(log)
    assert replay.error is None
    assert replay.game.state == state


def test_export_for_bg_stats(history):
    # Seed 3: Ben starts; stones Ann 3, Ben 7, Cat 2, Dan 2; Ben wins.
    events, state = finished_game(["Ann", "Ben", "Cat", "Dan"], 3)
    end = datetime(2026, 11, 30, 21, 0, tzinfo=UTC)
    game_id = history.record_game(events, state, finished_at=end,
                                  started_at=end - timedelta(minutes=25, seconds=40))
    play = history.export_bgstats(game_id)
    json.dumps(play)  # plain JSON
    assert play["sourceName"] == "Abraca Who? table companion"
    assert play["game"]["name"] == "Abraca Who?"
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is False
    assert play["playDate"] == end.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] == 26
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["startPlayer"])
            for p in play["players"]] == [
        ("Ann", 3, False, 2, False),
        ("Ben", 7, True, 1, True),
        ("Cat", 2, False, 3, False),  # a tie shares the rank
        ("Dan", 2, False, 3, False),
    ]
    assert f"{state['round']} rounds" in play["comments"] and "Ben" in play["comments"]
    # The same play exported twice keeps its id (BG Stats recognises it); another play differs.
    assert history.export_bgstats(game_id)["sourcePlayId"] == play["sourcePlayId"]
    other = history.record_game(*finished_game(["Ann", "Ben"], 1))
    assert history.export_bgstats(other)["sourcePlayId"] != play["sourcePlayId"]
    assert "durationMin" not in history.export_bgstats(other)


def test_unknown_game(history):
    with pytest.raises(HistoryError, match="There is no game 42") as err:
        history.export_log(42)
    assert err.value.reason == "missing"


# ------------------------------------------------------------------------ storage failures


def test_disk_full_is_an_error_for_the_screen_and_keeps_what_was_saved(history):
    history.record_game(*finished_game(["Ann", "Ben"], 1))
    # Cap the database at its current size: the next write finds the "disk" full.
    pages = history._conn.execute("PRAGMA page_count").fetchone()[0]
    history._conn.execute(f"PRAGMA max_page_count = {pages}")
    big, state = finished_game(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], 7)
    big = [dict(e, note="x" * 300) if i else e for i, e in enumerate(big)]
    with pytest.raises(HistoryError) as err:
        history.record_game(big, state)
    assert err.value.reason == "full"
    assert isinstance(err.value, OSError)
    assert "disk is full" in str(err.value) and "The game goes on" in str(err.value)
    assert history.game_count() == 1  # nothing half-written
    assert [p.games for p in history.player_stats()] == [1, 1]


class FailingConnection:
    """A connection whose writes fail as SQLite would fail them."""

    def __init__(self, conn, error):
        self._conn, self._error = conn, error

    @property
    def in_transaction(self):
        return self._conn.in_transaction

    def execute(self, sql, *args):
        if sql.startswith(("INSERT", "BEGIN")):
            raise self._error
        return self._conn.execute(sql, *args)

    def executemany(self, sql, *args):
        raise self._error

    def close(self):
        self._conn.close()


@pytest.mark.parametrize(
    "error, reason, words",
    [
        (sqlite3.OperationalError("attempt to write a readonly database"), "readonly",
         "is read-only"),
        (sqlite3.OperationalError("database or disk is full"), "full", "disk is full"),
        (sqlite3.OperationalError("disk I/O error"), "io", "disk I/O error"),
        (sqlite3.DatabaseError("database disk image is malformed"), "damaged", "damaged"),
    ],
)
def test_write_failures_become_clear_errors(history, error, reason, words):
    history._conn = FailingConnection(history._conn, error)
    with pytest.raises(HistoryError) as err:
        history.record_game(*finished_game(["Ann", "Ben"], 1))
    assert err.value.reason == reason
    assert words in str(err.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(HistoryError) as err:
            History.open(folder / "history.sqlite")
        assert err.value.reason in ("open", "readonly")
    finally:
        folder.chmod(0o755)


def test_a_folder_that_cannot_be_made(tmp_path):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(HistoryError, match="its folder cannot be made") as err:
        History.open(blocker / "history.sqlite")
    assert err.value.reason == "open"


def test_a_damaged_database_file(tmp_path):
    path = tmp_path / "history.sqlite"
    path.write_bytes(b"this is not a database at all, just some bytes" * 100)
    with pytest.raises(HistoryError, match="is damaged") as err:
        History.open(path)
    assert err.value.reason == "damaged"
    assert "move it aside" in str(err.value)


def test_a_database_from_a_newer_version(tmp_path):
    path = tmp_path / "history.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(HistoryError, match="newer version"):
        History.open(path)


@pytest.mark.parametrize("table", ["notes (a)", "games (id INTEGER PRIMARY KEY, title)"])
def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path, capsys, table):
    """stats --db on another program's SQLite file switched it to WAL and added the games'
    tables to it; with a user_version above ours it was called 'a newer companion's'. A
    board game app's own table of games passed for ours, its rows counted as games."""
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE {table}")
    conn.execute(f"INSERT INTO {table.split()[0]} VALUES ({'1, ' if 'id' in table else ''}'mine')")
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    assert main(["stats", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"The game history at {path} is damaged, or is no game history (file is not a " \
           "database of games: it holds other tables, none of the companion's; nothing in it " \
           "was changed)" in err
    assert path.read_bytes() == before and not (tmp_path / "other.db-wal").exists()


# ------------------------------------------------------------------------------- commands


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "history.sqlite"
    with History.open(path) as h:
        h.record_game(*finished_game(["Ann", "Ben", "민지"], 0),  # 6 9 3, Ben wins
                      finished_at=datetime(2026, 11, 30, 20, 15, tzinfo=UTC))
        h.record_game(*finished_game(["Ben", "Ann"], 0))  # 1 8, Ann wins
    return path


def test_stats_command(db, capsys):
    assert main(["stats", "--db", str(db), "--games"]) == 0
    out = capsys.readouterr().out
    assert "2 finished games" in out
    lines = out.splitlines()
    assert lines[1].split() == ["player", "games", "wins", "stones"]
    assert lines[2].split() == ["Ann", "2", "1", "14"]
    assert lines[3].split() == ["Ben", "2", "1", "10"]
    assert lines[4].split() == ["민지", "1", "0", "3"]
    assert "2026-11-30 20:15" in out and "Ben* 9" in out


def test_stats_command_json(db, capsys):
    assert main(["stats", "--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2
    assert out["players"][0] == {"name": "Ann", "games": 2, "wins": 1, "stones": 14}


@pytest.mark.parametrize("number", ["99999999999999999999", "0", "-3", "x"])
def test_export_of_no_games_number_is_refused(db, capsys, number):
    """A number longer than the history can hold ended in a traceback (OverflowError)."""
    with pytest.raises(SystemExit) as exited:
        main(["export", number, "--db", str(db)])
    assert exited.value.code == 2
    assert f"{number!r} is no game's number" in capsys.readouterr().err


def test_export_command(db, tmp_path, capsys):
    assert main(["export", "1", "--db", str(db), "--format", "log"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0])["players"] == ["Ann", "Ben", "민지"]
    assert replay_bytes("\n".join(lines).encode()).game.over
    target = tmp_path / "play.json"
    assert main(["export", "2", "--db", str(db), "--format", "bgstats", "-o", str(target)]) == 0
    play = json.loads(target.read_text(encoding="utf-8"))
    assert [p["name"] for p in play["players"]] == ["Ben", "Ann"]
    nowhere = tmp_path / "no-such-folder" / "play.json"
    assert main(["export", "2", "--db", str(db), "-o", str(nowhere)]) == 1
    assert f"Cannot write {nowhere}" in capsys.readouterr().err


def test_export_into_a_pipe_writes_into_it(db, tmp_path):
    """-o /dev/stdout (or a pipe) was refused: a file of that name could not be made beside
    it. Writing 'beside' a device as root would even have replaced it."""
    import os
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_text(encoding="utf-8")),
                              daemon=True)
    reader.start()
    assert main(["export", "2", "--db", str(db), "--format", "bgstats", "-o", str(pipe)]) == 0
    reader.join(10)
    assert got and json.loads(got[0])["players"][0]["name"] == "Ben"
    assert pipe.is_fifo() and not (tmp_path / "pipe.tmp").exists()


def test_export_never_writes_over_a_file(db, tmp_path, capsys):
    """-o given the table log by mistake wrote the BG Stats export over it."""
    log = tmp_path / "table.jsonl"
    log.write_text('{"event":"game","players":["Ann","Ben"]}\n')
    before = log.read_bytes()
    assert main(["export", "2", "--db", str(db), "--format", "bgstats", "-o", str(log)]) == 1
    assert capsys.readouterr().err == (f"{log} already exists: give a new file name, or remove "
                                       "it first.\n")
    assert log.read_bytes() == before
    assert main(["export", "2", "--db", str(db), "-o", str(tmp_path)]) == 1  # a folder
    (tmp_path / "empty.json").write_text("")  # made empty beforehand (mktemp): written
    assert main(["export", "2", "--db", str(db), "--format", "bgstats", "-o",
                 str(tmp_path / "empty.json")]) == 0
    assert json.loads((tmp_path / "empty.json").read_text())


def test_commands_report_problems_without_a_traceback(db, tmp_path, capsys):
    assert main(["export", "9", "--db", str(db)]) == 1
    assert "There is no game 9" in capsys.readouterr().err
    assert main(["stats", "--db", str(tmp_path / "none.sqlite")]) == 1
    assert "No game history at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"x" * 4096)
    assert main(["stats", "--db", str(damaged)]) == 1
    err = capsys.readouterr().err
    assert "is damaged, or is no game history" in err
    assert "The game goes on" not in err  # no game is going on: this is a command
    assert main(["export", "1", "--db", str(damaged)]) == 1
    err = capsys.readouterr().err
    assert "is damaged, or is no game history" in err and "The game goes on" not in err


def test_the_database_named_by_the_config(db, tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndatabase = "{db.name}"\n')
    assert main(["stats", "--config", str(config), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def _card_gone_read_only(monkeypatch, *, shared_file: bool, reason: str = "open"):
    """The history's memory card as it is once read-only: opening the history to write
    fails; opening it to read fails too while SQLite would have to make the file it shares
    with a writer (``shared_file`` False: none lies beside the database)."""
    from companion.kiosk import history as module

    def refused(cls, path, **options):
        raise HistoryError("read-only", reason=reason, path=path)

    monkeypatch.setattr(History, "open", classmethod(refused))
    connect = module.sqlite3.connect

    def no_shared_file(database, *args, **kwargs):
        if not shared_file and "mode=ro" in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(module.sqlite3, "connect", no_shared_file)


@pytest.mark.parametrize(("shared_file", "reason"),
                         [(True, "open"), (False, "open"), (False, "readonly")])
def test_stats_and_export_read_a_history_on_a_card_gone_read_only(db, tmp_path, capsys,
                                                                 monkeypatch, shared_file,
                                                                 reason):
    """A worn memory card turns read-only: the table says so, and staff then ask for the
    statistics, which failed with "cannot be opened" as if the history were gone."""
    before = db.read_bytes()
    _card_gone_read_only(monkeypatch, shared_file=shared_file, reason=reason)
    assert main(["stats", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert "2 finished games" in out and out.splitlines()[2].split() == ["Ann", "2", "1", "14"]
    assert f"warning: {db} is read-only: the history is shown as it was last saved." in err
    assert main(["export", "1", "--db", str(db), "--format", "bgstats"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert db.read_bytes() == before


def test_a_read_only_history_the_table_did_not_close_may_miss_its_last_games(
        db, tmp_path, capsys, monkeypatch):
    """Read as it lies, the file leaves out what the table wrote beside it last (a power
    cut before the table closed it): staff are told the newest games may be missing."""
    (tmp_path / "history.sqlite-wal").write_bytes(b"\0" * 32)  # the table's last writes
    _card_gone_read_only(monkeypatch, shared_file=False)
    assert main(["stats", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert "2 finished games" in out
    assert "the games saved last may be missing (the table stopped without closing it)" in err


def test_a_read_only_history_that_is_not_ours_or_empty_is_said_so(tmp_path, capsys,
                                                                 monkeypatch):
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    empty.write_bytes(b"")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE bookmarks (url TEXT)")
    conn.close()
    _card_gone_read_only(monkeypatch, shared_file=True)
    assert main(["stats", "--db", str(empty)]) == 1
    assert "No game history at" in capsys.readouterr().err
    assert main(["stats", "--db", str(other)]) == 1
    assert "none of the companion's" in capsys.readouterr().err
