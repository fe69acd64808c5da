"""Kiosk mode as the main loop sees it: start, messages, watchdog, operator settings."""

from __future__ import annotations

import errno
import json

import pytest

import companion.kiosk.runtime as runtime
from companion.kiosk.runtime import RETRY_SAVE_EVERY, Kiosk
from companion.kiosk.settings import FILENAME
from companion.simulate import play_game
from companion.tablelog import TableLog
from tests.test_kiosk_notify import FakeSystemd


@pytest.fixture
def systemd():
    fake = FakeSystemd()
    yield fake
    fake.close()


def env_for(systemd, tmp_path, watchdog_usec="10000000"):
    return {"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": watchdog_usec,
            "STATE_DIRECTORY": str(tmp_path / "state")}


def test_a_clean_start_resumes_the_game_and_tells_systemd(tmp_path, systemd):
    events = [dict(e) for e in play_game(["Ann", "Ben"], 1)[1]]
    first = Kiosk.start(None, environ=env_for(systemd, tmp_path), fsync=False)
    for e in events[:6]:
        first.session.push(e)
    # Crash: nothing closed (but the lock on the state folder, which goes with the process).
    import os
    os.close(first._lock)
    now = [100.0]
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path), clock=lambda: now[0],
                        fsync=False)
    assert kiosk.take_messages() == []
    assert kiosk.session.logged == tuple(events[:6])
    assert kiosk.config.log_path == tmp_path / "state" / "table.jsonl"
    kiosk.ready()
    for _ in range(12):  # the loop runs every half second for 6 s: pings at 100 and 105
        kiosk.tick()
        now[0] += 0.5
    kiosk.stop()
    assert systemd.messages() == [
        {"READY": "1", "MAINPID": str(__import__("os").getpid()), "STATUS": "The table is ready"},
        {"WATCHDOG": "1"},
        {"WATCHDOG": "1"},
        {"STOPPING": "1"},
    ]


def test_every_problem_at_start_is_a_message_not_a_crash(tmp_path, systemd):
    state = tmp_path / "state"
    state.mkdir()
    (state / "table.jsonl").write_bytes(
        b'{"event":"game","players":["Ann","Ben"]}\n{"event":"inves')  # torn by a power cut
    (state / FILENAME).write_text('{"seats": 1}')
    (state / "history.sqlite").write_bytes(b"damaged" * 1000)
    config = tmp_path / "config.toml"
    config.write_text('language = "fr"\n')
    kiosk = Kiosk.start(config, environ=env_for(systemd, tmp_path), fsync=False)
    messages = kiosk.take_messages()
    assert len(messages) == 4, messages
    assert "language = 'fr'" in messages[0]
    assert "seats = 1" in messages[1]
    assert "history" in messages[2] and "damaged" in messages[2]
    assert "cut short" in messages[3]
    assert kiosk.take_messages() == []  # taken once
    assert kiosk.history is None
    assert kiosk.session.state["players"][0]["name"] == "Ann"  # the game goes on
    kiosk.session.push({"event": "investigate", "player": "Ann", "card": "cook",
                        "guess": "cook"})
    kiosk.stop()


def test_operator_settings_apply_and_persist(tmp_path, systemd):
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path), fsync=False)
    assert kiosk.change_settings(language="ko", seats=4) is None
    assert (kiosk.config.language, kiosk.config.seats) == ("ko", 4)
    message = kiosk.change_settings(seats=8)
    assert message.startswith("That setting cannot be used: seats = 8")
    assert kiosk.config.seats == 4
    kiosk.stop()
    again = Kiosk.start(None, environ=env_for(systemd, tmp_path), fsync=False)
    assert (again.config.language, again.config.seats) == ("ko", 4)
    assert json.loads((tmp_path / "state" / FILENAME).read_text()) == {"language": "ko",
                                                                       "seats": 4}
    again.stop()


def test_a_setting_that_cannot_be_saved_still_applies(tmp_path, systemd, monkeypatch):
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path), fsync=False)

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(runtime, "save_settings", full)
    message = kiosk.change_settings(led_brightness=0.1)
    assert "could not be kept for the next start (No space left on device)" in message
    assert kiosk.config.led_brightness == 0.1
    kiosk.stop()


def test_tick_saves_again_after_a_full_disk(tmp_path, systemd, monkeypatch):
    now = [0.0]
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path, "0"), clock=lambda: now[0],
                        fsync=False)
    events = [dict(e) for e in play_game(["Ann", "Ben"], 1)[1]]
    kiosk.session.push(events[0])
    calls = []
    real = kiosk.session.retry_save

    def counting():
        calls.append(now[0])
        return real()

    monkeypatch.setattr(TableLog, "append", lambda self, e: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")))
    kiosk.session.push(events[1])
    assert kiosk.session.unsaved
    monkeypatch.undo()
    monkeypatch.setattr(kiosk.session, "retry_save", counting)
    for _ in range(25):
        kiosk.tick()
        now[0] += 1.0
    assert calls == [RETRY_SAVE_EVERY]  # tried after the interval, and then it was saved
    assert not kiosk.session.unsaved
    assert "The game is saved again." in kiosk.take_messages()
    kiosk.stop()


def test_a_history_that_could_not_be_opened_takes_the_games_once_it_can(tmp_path, systemd):
    """A damaged history at the start: staff moved it aside as told, and no game of that
    run ever reached the statistics."""
    state = tmp_path / "state"
    state.mkdir()
    damaged = state / "history.sqlite"
    damaged.write_bytes(b"not a database at all" * 100)
    now = [0.0]
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path, "0"), clock=lambda: now[0],
                        fsync=False)
    assert kiosk.history is None
    assert any("damaged" in m for m in kiosk.take_messages())
    damaged.rename(state / "history.old.sqlite")  # as the message says
    events = [dict(e) for e in play_game(["Ann", "Ben"], 1)[1]]
    for e in events:
        kiosk.session.push(e)
    assert kiosk.session.game.over
    for _ in range(int(RETRY_SAVE_EVERY) + 2):
        kiosk.tick()
        now[0] += 1.0
    assert kiosk.history is not None and kiosk.history.game_count() == 1
    assert kiosk.session.recorded == 1
    kiosk.stop()


def test_a_second_table_on_the_same_files_is_refused(tmp_path, systemd):
    """Two companions started on one state folder both resumed the game and wrote the same
    log in turn: one's undo took back the other's move, and the next start found a bad line
    and dropped the moves after it."""
    from companion.kiosk.runtime import TableBusy

    env = env_for(systemd, tmp_path)
    first = Kiosk.start(None, environ=env, fsync=False)
    with pytest.raises(TableBusy, match=r"another companion is already running the table on "
                                        r"the files in .*state .*systemctl stop"):
        Kiosk.start(None, environ=env, fsync=False)
    first.stop()
    Kiosk.start(None, environ=env, fsync=False).stop()  # free again once it stopped


def test_tick_saves_a_game_kept_waiting_for_room(tmp_path, systemd, monkeypatch):
    """The table's own game saved, a game cleared on a full disk still waits: tick retries
    for it as well."""
    now = [0.0]
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path, "0"), clock=lambda: now[0],
                        fsync=False)
    saved = []
    monkeypatch.setattr(kiosk.session, "_save_waiting", lambda: saved.append(now[0]))
    kiosk.session.waiting.append(object())
    for _ in range(25):
        kiosk.tick()
        now[0] += 1.0
    assert saved == [RETRY_SAVE_EVERY, 2 * RETRY_SAVE_EVERY]
    kiosk.session.waiting.clear()
    kiosk.stop()


def test_shutdown_saves_a_move_that_waited_for_room_before_switching_off(tmp_path, systemd,
                                                                         monkeypatch):
    """Room back on the disk, no retry yet: the operator's safe shutdown saves the move that
    waits before the table goes off."""
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path), fsync=False)
    events = [dict(e) for e in play_game(["Ann", "Ben"], 1)[1]]
    kiosk.session.push(events[0])
    monkeypatch.setattr(TableLog, "append", lambda self, e: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")))
    kiosk.session.push(events[1])
    assert kiosk.session.unsaved
    monkeypatch.undo()
    unsaved_at_power_off = []
    monkeypatch.setattr(runtime, "shutdown",
                        lambda reboot: unsaved_at_power_off.append(kiosk.session.unsaved))
    assert kiosk.shutdown() is None
    assert unsaved_at_power_off == [False]
    log = tmp_path / "state" / "table.jsonl"
    assert [json.loads(line) for line in log.read_text().splitlines()] == events[:2]
    kiosk.stop()


def test_shutdown_failure_is_a_message(tmp_path, systemd, monkeypatch):
    kiosk = Kiosk.start(None, environ=env_for(systemd, tmp_path), fsync=False)
    monkeypatch.setattr(runtime, "shutdown", lambda reboot: "The table could not be switched "
                        "off (Access denied).")
    assert kiosk.shutdown() == "The table could not be switched off (Access denied)."
    msgs = systemd.messages()
    assert msgs[-2] == {"STATUS": "Switching off"}  # not STOPPING=1: the table stays up
    assert msgs[-1] == {"STATUS": "The table could not be switched off (Access denied)."}
    kiosk.stop()
