"""The history of finished games: recording, statistics, exports, and storage failures."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from companion.cli import main
from companion.kiosk.history import History, HistoryError


def finished_game(players, stones, winners, *, first=None, salt=0):
    """Events in the table log format and a final state, written out by hand."""
    game = {"event": "game", "players": list(players)}
    if first:
        game["first"] = first
    start = first or players[0]
    events = [game,
              {"event": "investigate", "player": start, "card": "cook", "guess": "cook"},
              {"event": "investigate", "player": players[1], "card": "butler",
               "guess": ["cook", "butler"][salt % 2]},
              {"event": "undo"},
              {"event": "investigate", "player": players[1], "card": "butler", "guess": "ghost"}]
    state = {
        "round": 3, "over": True, "winners": list(winners), "deck": 12,
        "revealed": {"ghost": 0, "vampire": 0, "living_armor": 0, "butler": 1, "cook": 1,
                     "cleaner": 0},
        "players": [{"name": n, "health": 5, "stones": s, "alive": True}
                    for n, s in zip(players, stones, strict=True)],
        "expect": None,
    }
    return events, state


@pytest.fixture
def history(tmp_path):
    with History.open(tmp_path / "state" / "history.sqlite") as h:
        yield h


def test_a_finished_game_is_recorded_and_listed(history, tmp_path):
    events, state = finished_game(["Ann", "Ben", "Cat"], [7, 3, 5], ["Ann"], first="Ben")
    at = datetime(2026, 11, 30, 20, 15, tzinfo=UTC)
    game_id = history.record_game(events, state, finished_at=at)
    assert history.journal_mode == "wal"
    [game] = history.list_games()
    assert game.id == game_id
    assert game.players == ("Ann", "Ben", "Cat")
    assert dict(game.stones) == {"Ann": 7, "Ben": 3, "Cat": 5}
    assert game.winners == ("Ann",)
    assert game.rounds == 3
    assert game.finished_at == at
    assert history.events(game_id) == events


def test_statistics_per_player_name(history):
    history.record_game(*finished_game(["Ann", "Ben", "Cat"], [7, 3, 5], ["Ann"]))
    history.record_game(*finished_game(["Ben", "Ann"], [8, 2], ["Ben"]))
    history.record_game(*finished_game(["Cat", "Ben", "Dan"], [7, 7, 0], ["Cat", "Ben"]))
    stats = {p.name: p for p in history.player_stats()}
    assert {n: (p.games, p.wins, p.stones) for n, p in stats.items()} == {
        "Ann": (2, 1, 9), "Ben": (3, 2, 18), "Cat": (2, 1, 12), "Dan": (1, 0, 0)}
    assert [p.name for p in history.player_stats()] == ["Ben", "Cat", "Ann", "Dan"]
    assert history.game_count() == 3
    assert [g.players[0] for g in history.list_games()] == ["Cat", "Ben", "Ann"]  # newest first
    assert len(history.list_games(limit=2)) == 2


def test_the_same_game_is_stored_once(history):
    events, state = finished_game(["Ann", "Ben"], [7, 1], ["Ann"])
    first = history.record_game(events, state)
    assert history.record_game(events, state) == first
    assert history.game_count() == 1
    assert history.player_stats()[0].games == 1


def test_games_survive_closing_and_reopening(tmp_path):
    path = tmp_path / "history.sqlite"
    with History.open(path) as h:
        game_id = h.record_game(*finished_game(["Ann", "Ben"], [7, 1], ["Ann"]))
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
        (lambda e, s: s.update(winners=["Zed"]), "'Zed' is not one of the players"),
    ],
)
def test_a_game_that_is_not_finished_or_inconsistent_is_refused(history, change, words):
    events, state = finished_game(["Ann", "Ben"], [7, 1], ["Ann"])
    change(events, state)
    with pytest.raises(ValueError, match=words):
        history.record_game(events, state)
    assert history.game_count() == 0


def test_export_as_table_log(history):
    events, state = finished_game(["Ann", "Ben", "Cat"], [7, 3, 5], ["Ann"])
    game_id = history.record_game(events, state)
    text = history.export_log(game_id)
    assert text.endswith("\n")
    assert [json.loads(line) for line in text.splitlines()] == events
    assert {"event": "undo"} in [json.loads(line) for line in text.splitlines()]


def test_export_for_bg_stats(history):
    events, state = finished_game(["Ann", "Ben", "Cat", "Dan"], [7, 3, 7, 5], ["Ann", "Cat"],
                                  first="Ben")
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
        ("Ann", 7, True, 1, False),
        ("Ben", 3, False, 4, True),
        ("Cat", 7, True, 1, False),
        ("Dan", 5, False, 3, False),
    ]
    assert "3 rounds" in play["comments"] and "Ann, Cat" in play["comments"]
    # The same play exported twice keeps its id (BG Stats recognises it); another play differs.
    assert history.export_bgstats(game_id)["sourcePlayId"] == play["sourcePlayId"]
    other = history.record_game(*finished_game(["Ann", "Ben"], [7, 1], ["Ann"]))
    assert history.export_bgstats(other)["sourcePlayId"] != play["sourcePlayId"]
    assert "durationMin" not in history.export_bgstats(other)


def test_unknown_game(history):
    with pytest.raises(HistoryError, match="There is no game 42") as err:
        history.export_log(42)
    assert err.value.reason == "missing"


# ------------------------------------------------------------------------ storage failures


def test_disk_full_is_an_error_for_the_screen_and_keeps_what_was_saved(history):
    history.record_game(*finished_game(["Ann", "Ben"], [7, 1], ["Ann"]))
    # Cap the database at its current size: the next write finds the "disk" full.
    pages = history._conn.execute("PRAGMA page_count").fetchone()[0]
    history._conn.execute(f"PRAGMA max_page_count = {pages}")
    big = [{"event": "game", "players": ["Ann", "Ben"]}] + [
        {"event": "investigate", "player": "Ann", "card": "cook", "guess": "cook", "n": i,
         "pad": "x" * 200} for i in range(200)]
    _, state = finished_game(["Ann", "Ben"], [1, 7], ["Ben"])
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
        history.record_game(*finished_game(["Ann", "Ben"], [7, 1], ["Ann"]))
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


# ------------------------------------------------------------------------------- commands


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "history.sqlite"
    with History.open(path) as h:
        h.record_game(*finished_game(["Ann", "Ben", "민지"], [7, 3, 5], ["Ann"]),
                      finished_at=datetime(2026, 11, 30, 20, 15, tzinfo=UTC))
        h.record_game(*finished_game(["Ben", "Ann"], [8, 2], ["Ben"]))
    return path


def test_stats_command(db, capsys):
    assert main(["stats", "--db", str(db), "--games"]) == 0
    out = capsys.readouterr().out
    assert "2 finished games" in out
    lines = out.splitlines()
    assert lines[1].split() == ["player", "games", "wins", "stones"]
    assert lines[2].split() == ["Ben", "2", "1", "11"]
    assert lines[3].split() == ["Ann", "2", "1", "9"]
    assert lines[4].split() == ["민지", "1", "0", "5"]
    assert "2026-11-30 20:15" in out and "Ann* 7" in out


def test_stats_command_json(db, capsys):
    assert main(["stats", "--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2
    assert out["players"][0] == {"name": "Ben", "games": 2, "wins": 1, "stones": 11}


def test_export_command(db, tmp_path, capsys):
    assert main(["export", "1", "--db", str(db), "--format", "log"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0]) == {"event": "game", "players": ["Ann", "Ben", "민지"]}
    target = tmp_path / "play.json"
    assert main(["export", "2", "--db", str(db), "--format", "bgstats", "-o", str(target)]) == 0
    play = json.loads(target.read_text(encoding="utf-8"))
    assert [p["name"] for p in play["players"]] == ["Ben", "Ann"]


def test_commands_report_problems_without_a_traceback(db, tmp_path, capsys):
    assert main(["export", "9", "--db", str(db)]) == 1
    assert "There is no game 9" in capsys.readouterr().err
    assert main(["stats", "--db", str(tmp_path / "none.sqlite")]) == 1
    assert "No game history at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"x" * 4096)
    assert main(["stats", "--db", str(damaged)]) == 1
    assert "is damaged" in capsys.readouterr().err


def test_the_database_named_by_the_config(db, tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndatabase = "{db.name}"\n')
    assert main(["stats", "--config", str(config), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
