"""The table's game on disk: each event saved before it shows, resumed after any stop."""

from __future__ import annotations

import errno
import json
from datetime import UTC, datetime, timedelta

import pytest

import companion.kiosk.session as session_module
import companion.tablelog as tablelog_module
from companion.errors import TableError
from companion.kiosk.history import History, HistoryError
from companion.kiosk.session import TableSession
from companion.simulate import play_game
from companion.tablelog import TableLog, replay_file


def planned(players=("Ann", "Ben", "Cat"), seed=0):
    """The events of a whole game at the simulated table."""
    return [dict(e) for e in play_game(list(players), seed)[1]]


def lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def played(log_path, events):
    """A table session on ``log_path`` with ``events`` pushed."""
    session = TableSession.open(log_path)
    for event in events:
        session.push(event)
    return session


def damaged(log_path, line, text):
    """The log on ``log_path`` with its line number ``line`` (from 0) replaced by ``text``:
    its bytes after."""
    lines = log_path.read_text().splitlines()
    lines[line] = text
    log_path.write_text("\n".join(lines) + "\n")
    return log_path.read_bytes()


@pytest.fixture
def log_path(tmp_path):
    return tmp_path / "state" / "table.jsonl"


def test_each_event_is_on_disk_when_push_returns(log_path):
    events = planned()
    session = TableSession.open(log_path)
    assert session.messages == [] and not session.game.started
    for n, event in enumerate(events[:10], 1):
        session.push(event)
        assert lines(log_path) == events[:n]
    assert session.state == replay_file(log_path).game.state


def test_a_refused_event_writes_nothing(log_path):
    events = planned()
    session = played(log_path, events[:5])
    before = (log_path.read_bytes(), session.state)
    with pytest.raises(TableError):
        session.push({"event": "duel", "player": "Zed", "target": "Ann", "accepted": False})
    with pytest.raises(TableError):
        session.push({"event": "game", "players": ["Dan", "Eve"]})
    assert (log_path.read_bytes(), session.state) == before


def test_undo_is_logged_and_takes_back(log_path):
    events = planned()
    session = TableSession.open(log_path)
    with pytest.raises(TableError):
        session.undo()  # no game yet
    for event in events[:4]:
        session.push(event)
    after3 = replay_file_state(events[:3])
    session.undo()
    assert session.state == after3
    assert lines(log_path)[-1] == {"event": "undo"}
    assert replay_file(log_path).game.state == after3


def replay_file_state(events):
    from companion.tablelog import load_game

    return load_game(events).state


def test_the_game_resumes_after_a_crash(log_path):
    events = planned()
    first = played(log_path, events[:12])
    first.undo()
    first.push(events[11])
    # The process dies here: nothing is closed.
    second = TableSession.open(log_path)
    assert second.messages == []
    assert second.state == first.state
    for event in events[12:]:
        second.push(event)
    assert second.game.over
    replay = replay_file(log_path)
    assert replay.error is None and replay.game.state == second.state


def test_a_torn_last_line_is_dropped_with_a_message(log_path):
    events = planned()
    session = played(log_path, events[:8])
    session.close()
    with open(log_path, "ab") as f:
        f.write(b'{"event":"investigate","player":"A')  # the power went mid-line
    resumed = TableSession.open(log_path)
    assert len(resumed.messages) == 1
    assert resumed.messages == ["The table log's last line (line 9) was cut short, most likely "
                                "by a power cut, and was left out: nothing the screen had "
                                "shown is lost."]
    assert resumed.state == replay_file_state(events[:8])
    for event in events[8:]:
        resumed.push(event)
    assert resumed.game.over
    assert lines(log_path) == events


def test_a_damaged_line_in_the_middle_keeps_the_game_before_it(log_path, tmp_path):
    events = planned()
    session = played(log_path, events[:10])
    session.close()
    original = damaged(log_path, 6, "\x00\x00garbage")
    resumed = TableSession.open(log_path)
    [message] = resumed.messages
    assert "bad line 7" in message and "resumes from just before it" in message
    assert resumed.state == replay_file_state(events[:6])
    kept = [p for p in log_path.parent.iterdir() if ".damaged-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == original
    assert lines(log_path) == events[:6]
    resumed.push(events[6])
    assert lines(log_path) == events[:7]


@pytest.mark.parametrize("content", [b"not a log at all\n", b'{"event":"undo"}\n', b"\n \n"])
def test_a_log_without_a_game_starts_an_empty_table(log_path, content):
    log_path.parent.mkdir(parents=True)
    log_path.write_bytes(content)
    session = TableSession.open(log_path)
    [message] = session.messages
    assert "holds no game" in message and "starts empty" in message
    assert message.count("holds no game") == 1, message  # said once, not echoed
    assert not session.game.started
    assert not log_path.exists()  # kept aside
    session.new_game(planned()[0])
    assert len(lines(log_path)) == 1


def test_an_empty_log_is_an_empty_table(log_path):
    log_path.parent.mkdir(parents=True)
    log_path.write_bytes(b"")
    session = TableSession.open(log_path)
    assert session.messages == [] and not session.game.started


def test_a_finished_game_goes_into_the_history_once(log_path, tmp_path):
    events = planned()
    with History.open(tmp_path / "history.sqlite") as history:
        session = TableSession.open(log_path, history=history)
        for event in events:
            session.push(event)
        assert session.game.over
        assert session.recorded == 1
        assert history.events(1) == events
        # A restart right after the end: the game shows again, and is not counted twice.
        again = TableSession.open(log_path, history=history)
        assert again.game.over and again.recorded == 1
        assert history.game_count() == 1


def test_the_history_failing_never_stops_the_game(log_path, tmp_path):
    events = planned()

    class BrokenHistory:
        calls = 0

        def record_game(self, *args, **kwargs):
            BrokenHistory.calls += 1
            raise HistoryError("The game history could not be saved: the disk is full. "
                               "The game goes on.", reason="full")

    session = TableSession.open(log_path, history=BrokenHistory())
    for event in events:
        session.push(event)
    assert session.game.over and session.recorded is None
    assert any("disk is full" in m for m in session.messages)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    assert BrokenHistory.calls == 2  # tried again before clearing the table
    archived = list((log_path.parent / "games").iterdir())
    assert [lines(p) for p in archived] == [events]  # the game itself is kept


def test_a_finished_game_the_history_could_not_take_goes_in_once_it_can(log_path, tmp_path):
    """The disk full as the game ended: the log line fitted, the history did not, and the
    game was put away in games/ at the next game, never to reach the statistics."""
    events = planned()
    history = History.open(tmp_path / "history.sqlite")
    real = history.record_game
    full = [True]

    def record_game(*args, **kwargs):
        if full[0]:
            raise HistoryError("The game history could not be saved: the disk is full.",
                               reason="full")
        return real(*args, **kwargs)

    history.record_game = record_game
    session = TableSession.open(log_path, history=history)
    for event in events:
        session.push(event)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    assert session.to_record and history.game_count() == 0
    said = len(session.messages)
    assert session.retry_save() and history.game_count() == 0  # still full: tried quietly
    assert len(session.messages) == said
    full[0] = False
    session.retry_save()
    assert history.game_count() == 1 and history.events(1) == events
    assert not session.to_record
    assert session.messages[-1] == "A finished game is in the game history now."


def test_a_new_game_clears_the_table_and_keeps_the_old_logs(log_path):
    clock = iter(datetime(2026, 11, 30, 20, m, tzinfo=UTC) for m in range(60))
    session = TableSession.open(log_path, clock=lambda: next(clock))
    events = planned()
    for event in events:
        session.push(event)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    assert session.state["players"][0]["name"] == "Dan" and session.state["round"] == 1
    assert lines(log_path) == [{"event": "game", "players": ["Dan", "Eve"]}]
    session.push({"event": "investigate", "player": "Dan", "card": "cook", "guess": "cook"})
    session.new_game({"event": "game", "players": ["Fay", "Gus", "Hal"]})
    archive = sorted((log_path.parent / "games").iterdir())
    assert [p.name.split("-", 2)[-1] for p in archive] == ["finished.jsonl", "unfinished.jsonl"]
    assert lines(archive[0]) == events
    assert len(lines(archive[1])) == 2


def test_a_bad_new_game_changes_nothing(log_path):
    session = TableSession.open(log_path)
    events = planned()
    for event in events[:5]:
        session.push(event)
    before = (log_path.read_bytes(), session.state)
    for bad in ({"event": "game", "players": ["Solo"]},
                {"event": "investigate", "player": "Ann", "card": "cook", "guess": "cook"}):
        with pytest.raises(TableError):
            session.new_game(bad)
    assert (log_path.read_bytes(), session.state) == before
    assert not (log_path.parent / "games").exists()


def test_disk_full_keeps_playing_and_saves_again_when_there_is_room(log_path, monkeypatch):
    events = planned()
    session = played(log_path, events[:5])
    full = OSError(errno.ENOSPC, "No space left on device")
    real_append, real_open = TableLog.append, open
    broken = [True]

    def append(self, event):
        if broken[0]:
            self._file.write(b'{"event":"inv')  # half a line reached the disk
            self._file.flush()
            raise full
        return real_append(self, event)

    def opener(path, mode="r", *args, **kwargs):
        if broken[0] and "w" in mode:
            raise full
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(TableLog, "append", append)
    monkeypatch.setattr(tablelog_module, "open", opener, raising=False)  # the log's rewrite
    session.push(events[5])
    assert session.unsaved
    assert session.state == replay_file_state(events[:6])  # play goes on
    [warning] = session.messages
    assert "cannot be saved" in warning and "No space left" in warning
    assert warning.endswith("Free some space on the card.")
    session.push(events[6])
    session.undo()
    session.push(events[6])
    assert len(session.messages) == 1  # warned once, not at every move
    assert not session.retry_save()

    broken[0] = False  # room again
    session.push(events[7])
    assert not session.unsaved
    assert session.messages[-1] == "The game is saved again."
    expected = events[:7] + [{"event": "undo"}, events[6], events[7]]
    assert lines(log_path) == expected
    assert replay_file(log_path).game.state == session.state
    session.push(events[8])
    assert lines(log_path) == expected + [events[8]]


def test_a_new_game_saves_the_old_one_first_when_the_disk_is_back(log_path, monkeypatch):
    events = planned()
    session = played(log_path, events[:5])
    real_append = TableLog.append
    monkeypatch.setattr(TableLog, "append", lambda self, e: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")))
    session.push(events[5])
    assert session.unsaved
    monkeypatch.setattr(TableLog, "append", real_append)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    [archived] = (log_path.parent / "games").iterdir()
    assert lines(archived) == events[:6]  # the move made while the disk was full is kept
    assert lines(log_path) == [{"event": "game", "players": ["Dan", "Eve"]}]


def test_a_damaged_log_that_cannot_be_kept_aside_is_not_written_over(log_path, monkeypatch):
    events = planned()
    session = played(log_path, events[:6])
    session.close()
    original = damaged(log_path, 3, "garbage")

    def refuse(src, dst):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(session_module.os, "replace", refuse)
    resumed = TableSession.open(log_path)
    assert resumed.state == replay_file_state(events[:3])
    assert resumed.unsaved
    assert any("could not be kept aside" in m for m in resumed.messages)
    assert log_path.read_bytes() == original


def test_a_controller_with_its_own_game_can_use_the_session_as_its_log(log_path, tmp_path,
                                                                       monkeypatch):
    """The table app's pattern: check on its own Game, append to the log, then push."""
    from companion.engine import Game
    from companion.tablelog import load_game

    first, second = planned(seed=0), planned(("Dan", "Eve"), seed=1)
    with History.open(tmp_path / "history.sqlite") as history:
        session = TableSession.open(log_path, history=history)
        game, log = Game(), None
        for n, event in enumerate(first):
            if n == 0:
                log = session.open_log(event)
            game.check(event)
            if n == 10:  # the disk is full for one move: the log does not raise
                monkeypatch.setattr(TableLog, "append", lambda self, e: (_ for _ in ()).throw(
                    OSError(errno.ENOSPC, "No space left on device")))
            log.append(event)
            monkeypatch.undo()
            game.push(event)
        assert session.game.over and game.state == session.state
        assert history.game_count() == 1
        # A restart: the controller gets its own copy of the resumed game.
        resumed = TableSession.open(log_path, history=history)
        assert load_game(resumed.logged).state == game.state
        # The next group: the controller opens a new log for its game line.
        log = resumed.open_log(second[0])
        for event in second:
            log.append(event)
        assert lines(log_path) == second
        assert [lines(p) for p in (log_path.parent / "games").iterdir()] == [first]
        assert history.game_count() == 2


def test_two_damaged_logs_set_aside_at_the_same_second_are_both_kept(log_path):
    """A Pi has no battery clock: after each power cut it starts at the same saved time, and
    the second damaged log set aside replaced the first."""
    same_time = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
    log_path.parent.mkdir(parents=True)
    for garbage in (b"\x00first damaged log\n", b"\x00second damaged log\n"):
        log_path.write_bytes(garbage)
        TableSession.open(log_path, clock=lambda: same_time)
    kept = sorted(p.read_bytes() for p in log_path.parent.iterdir() if ".damaged-" in p.name)
    assert kept == [b"\x00first damaged log\n", b"\x00second damaged log\n"]


def test_a_log_that_cannot_be_read_is_set_aside_and_the_table_starts_empty(log_path):
    log_path.mkdir(parents=True)  # a folder where the log should be: it cannot be read
    (log_path / "kept.txt").write_text("something of the café's")
    session = TableSession.open(log_path)
    [message] = session.messages
    assert "could not be read" in message and "starts empty" in message
    assert not session.game.started
    [aside] = [p for p in log_path.parent.iterdir() if ".unreadable-" in p.name]
    assert (aside / "kept.txt").read_text() == "something of the café's"  # nothing lost
    events = planned()
    for event in events[:3]:
        session.push(event)
    assert lines(log_path) == events[:3]


def test_a_games_folder_that_cannot_be_made_keeps_the_last_log_beside_the_new_one(log_path):
    clock = iter(datetime(2026, 11, 30, 21, m, tzinfo=UTC) for m in range(60))
    session = TableSession.open(log_path, clock=lambda: next(clock))
    events = planned()
    for event in events[:4]:
        session.push(event)
    (log_path.parent / "games").write_text("a file where the folder should be")
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    assert any("could not be moved to" in m for m in session.messages), session.messages
    assert lines(log_path) == [{"event": "game", "players": ["Dan", "Eve"]}]
    [kept] = [p for p in log_path.parent.iterdir()
              if p.name.startswith("table.") and p != log_path]
    assert lines(kept) == events[:4]


def test_two_logs_kept_beside_at_the_same_second_are_both_kept(log_path):
    """With no games/ folder, the log kept beside the new one replaced the one kept before
    at the same second (a clock started at the same saved time after a restart)."""
    same_time = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
    session = TableSession.open(log_path, clock=lambda: same_time)
    events = planned()
    session.push(events[0])
    (log_path.parent / "games").write_text("a file where the folder should be")
    for players in (["Dan", "Eve"], ["Fay", "Gus"]):
        session.new_game({"event": "game", "players": players})
    kept = sorted(lines(p)[0]["players"][0] for p in log_path.parent.iterdir()
                  if p.name.startswith("table.") and p != log_path)
    assert kept == ["Ann", "Dan"]


@pytest.mark.parametrize(("error", "advice"), [
    (OSError(errno.ENOSPC, "No space left on device"), "Free some space on the card."),
    (OSError(errno.EROFS, "Read-only file system"),
     "The card or the table's folder cannot be written: check the card."),
    (OSError(errno.EIO, "Input/output error"), "Check the card."),
])
def test_a_save_that_failed_is_said_with_what_staff_can_do(log_path, monkeypatch, error,
                                                           advice):
    """A folder that cannot be written was answered 'Free some space'."""
    events = planned()
    session = TableSession.open(log_path)
    session.push(events[0])
    monkeypatch.setattr(TableLog, "append", lambda self, e: (_ for _ in ()).throw(error))
    monkeypatch.setattr(tablelog_module, "open", lambda *a, **k: (_ for _ in ()).throw(error),
                        raising=False)
    session.push(events[1])
    [warning] = session.messages
    assert warning.startswith(f"The game cannot be saved ({error.strerror}): play goes on")
    assert warning.endswith(advice)


def test_a_game_cleared_while_the_disk_is_full_is_saved_once_there_is_room(log_path,
                                                                           monkeypatch):
    """The game ended on a full disk and the next one began before space was freed: its only
    whole copy (in memory) was thrown away, games/ kept a file cut mid-line named
    'finished', and the history never had it."""
    events = planned()
    history = History.open(log_path.parent.parent / "history.sqlite")
    session = TableSession.open(log_path, history=history)
    for event in events[:5]:
        session.push(event)
    full = _full_disk(monkeypatch)
    for event in events[5:]:
        session.push(event)
    assert session.game.over and session.unsaved
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})  # before there is room
    assert ("The last game could not be saved before the table was cleared: it is kept until "
            "there is room again, and saved then.") in session.messages
    assert len(session.waiting) == 1
    full[0] = False  # room again: the runtime's next retry
    assert session.retry_save()
    assert not session.waiting and session.messages[-2:] == [
        "A game kept waiting for room is saved.", "The game is saved again."]
    games = log_path.parent / "games"
    [finished] = [p for p in games.iterdir() if "-finished" in p.name]
    assert lines(finished) == events and replay_file(finished).game.over
    assert [p.name.split("-", 2)[2] for p in games.iterdir() if p != finished] == [
        "cut-short.jsonl"]  # what had reached the disk, not called a finished game
    assert history.game_count() == 1
    assert lines(log_path) == [{"event": "game", "players": ["Dan", "Eve"]}]


def test_a_game_kept_for_room_that_the_history_refused_goes_in_later(log_path, monkeypatch):
    """Saved to games/ once there was room, but refused by a history still full: the game was
    said to be saved without the history, and never reached it."""
    events = planned()
    history = History.open(log_path.parent.parent / "history.sqlite")
    session = TableSession.open(log_path, history=history)
    for event in events[:5]:
        session.push(event)
    full = _full_disk(monkeypatch)
    for event in events[5:]:
        session.push(event)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    real = history.record_game
    refused = [True]

    def record_game(*args, **kwargs):
        if refused[0]:
            raise HistoryError("The game history could not be saved: the disk is full.",
                               reason="full")
        return real(*args, **kwargs)

    history.record_game = record_game
    full[0] = False
    session.retry_save()
    assert not session.waiting and history.game_count() == 0 and session.to_record
    refused[0] = False
    session.retry_save()
    assert history.game_count() == 1 and not session.to_record


def test_the_clock_set_right_during_a_game_leaves_its_length_right(tmp_path):
    """A Pi without a battery clock starts at the last saved time; set right by the network
    three days later in the middle of a game, the game lasted '4320 minutes' in BG Stats."""
    wall = [datetime(2026, 11, 27, 18, 0, tzinfo=UTC)]
    steady = [1000.0]
    history = History.open(tmp_path / "history.sqlite")
    session = TableSession.open(tmp_path / "state" / "table.jsonl", history=history,
                                clock=lambda: wall[0], monotonic=lambda: steady[0])
    events = planned()
    session.push(events[0])
    wall[0] = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)  # the network answered
    for event in events[1:]:
        steady[0] += 60.0  # a minute a move
        session.push(event)
    assert session.game.over and session.recorded is not None
    play = history.export_bgstats(session.recorded)
    assert play["durationMin"] == round(60 * (len(events) - 1) / 60)
    assert play["playDate"].startswith("2026-11-30")


def test_a_state_folder_removed_while_the_table_runs_is_made_again(log_path):
    """rm -rf of the state folder 12 s into a game: the rest of it went into the deleted
    file, and the game was found nowhere afterwards, without a word."""
    import shutil

    events = planned()
    session = played(log_path, events[:4])
    shutil.rmtree(log_path.parent)
    session.push(events[4])
    assert session.messages == ["The table log was removed while the table ran: it is written "
                                "again, with the whole game."]
    assert lines(log_path) == events[:5]
    session.push(events[5])
    assert lines(log_path) == events[:6] and len(session.messages) == 1



def _full_disk(monkeypatch, no_room: OSError | None = None):
    """A disk with no room for the log, games/ or the history until ``full[0] = False``
    (``no_room``: the error the log and games/ meet, a full disk's unless given)."""
    full = [True]
    no_room = no_room or OSError(errno.ENOSPC, "No space left on device")
    real_append, real_write = TableLog.append, session_module.write_atomically
    real_record = History.record_game

    def append(self, event):
        if full[0]:
            raise no_room
        return real_append(self, event)

    def write(path, data, **options):
        if full[0]:
            raise no_room
        return real_write(path, data, **options)

    def record(self, *args, **options):
        if full[0]:
            raise HistoryError("The game history could not be written: the disk is full.",
                               reason="full")
        return real_record(self, *args, **options)

    monkeypatch.setattr(TableLog, "append", append)
    monkeypatch.setattr(session_module, "write_atomically", write)
    monkeypatch.setattr(History, "record_game", record)
    return full


def test_a_game_kept_waiting_keeps_the_time_it_ended_not_the_time_it_was_saved(
        tmp_path, monkeypatch):
    """45 minutes of talk before the next game, on a full disk: the game was saved with
    them counted in its length (86 minutes for 41)."""
    wall = [datetime(2026, 11, 30, 18, 0, tzinfo=UTC)]
    steady = [0.0]

    def wait(minutes):
        wall[0] += timedelta(minutes=minutes)
        steady[0] += 60.0 * minutes

    history = History.open(tmp_path / "history.sqlite")
    session = TableSession.open(tmp_path / "state" / "table.jsonl", history=history,
                                clock=lambda: wall[0], monotonic=lambda: steady[0])
    events = planned()
    full = _full_disk(monkeypatch)
    for event in events:
        session.push(event)
        wait(1)
    assert session.game.over
    wait(45)  # the players talk, then start again, the disk still full
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    wait(30)
    full[0] = False
    session.retry_save()
    [game] = history.list_games()
    play = history.export_bgstats(game.id)
    assert play["durationMin"] == len(events) - 1
    assert game.finished_at == datetime(2026, 11, 30, 18, 0, tzinfo=UTC) + timedelta(
        minutes=len(events) - 1)


def test_a_game_still_waiting_when_the_table_closes_goes_to_the_journal(tmp_path, monkeypatch,
                                                                      caplog):
    """Switched off with the disk still full, the game kept in memory vanished without a
    word: its log is written to the journal, the one place left."""
    history = History.open(tmp_path / "history.sqlite")
    session = TableSession.open(tmp_path / "state" / "table.jsonl", history=history)
    events = planned()
    _full_disk(monkeypatch)
    for event in events:
        session.push(event)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    with caplog.at_level("ERROR", logger="companion.kiosk.session"):
        session.close()
    [record] = [r for r in caplog.records if "could not be saved before the table closed"
                in r.getMessage()]
    logged = record.getMessage().split("\n", 1)[1]
    assert [json.loads(line) for line in logged.splitlines()] == events


def _game_kept_waiting(log_path, monkeypatch):
    """A whole game played on a full disk and cleared for a new one (kept waiting in memory),
    then room again, with no retry yet: (history, session, the game's events)."""
    history = History.open(log_path.parent.parent / "history.sqlite")
    session = TableSession.open(log_path, history=history)
    events = planned()
    full = _full_disk(monkeypatch)
    for event in events:
        session.push(event)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    full[0] = False
    return history, session, events


def test_a_game_kept_waiting_that_the_history_refuses_is_said_so(log_path, monkeypatch):
    history, session, events = _game_kept_waiting(log_path, monkeypatch)

    def damaged(self, *args, **options):
        raise HistoryError("The game history at h is damaged.", reason="damaged")

    monkeypatch.setattr(History, "record_game", damaged)
    session.retry_save()
    assert not session.waiting
    assert (f"A game kept waiting for room is saved in {log_path.parent / 'games'}, but the "
            "history could not take it (The game history at h is damaged.).") in session.messages


def test_a_log_replaced_while_the_table_runs_is_written_again(log_path):
    """Another file put in the log's place (a copy restored over it): the moves went on
    into the file replaced, that no one can open again."""
    events = planned()
    session = played(log_path, events[:4])
    other = log_path.with_name("restored.jsonl")
    other.write_text("")
    other.replace(log_path)
    session.push(events[4])
    assert lines(log_path) == events[:5]
    assert session.messages[-1].startswith("The table log was removed while the table ran")


def test_a_game_kept_waiting_is_saved_by_the_last_try_when_the_table_closes(tmp_path,
                                                                         monkeypatch):
    """Room back just before the table closes, and no retry since: the close saves it."""
    history, session, events = _game_kept_waiting(tmp_path / "state" / "table.jsonl",
                                                  monkeypatch)
    session.close()
    [finished] = [p for p in (tmp_path / "state" / "games").iterdir() if "-finished" in p.name]
    assert lines(finished) == events and history.game_count() == 1

