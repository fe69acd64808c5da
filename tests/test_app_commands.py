"""`companion demo` and `companion run`, headless."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pytest  # noqa: E402

from companion.app.commands import resume_or_new, seat_names  # noqa: E402
from companion.app.devices import card_tracker, open_camera, open_panel  # noqa: E402
from companion.cli import main  # noqa: E402
from companion.tablelog import replay_file  # noqa: E402

DEMO = ["demo", "--autoplay", "--fast", "--exit-when-over", "--headless", "--no-camera"]


def test_headless_demo_plays_a_whole_game_logs_it_and_saves_each_screen(tmp_path, capsys):
    log, shots = tmp_path / "game.jsonl", tmp_path / "shots"
    assert main(DEMO + ["--log", str(log), "--screenshots", str(shots), "--seed", "5"]) == 0
    replay = replay_file(log)
    assert replay.error is None and replay.game.over and replay.game.state["winners"]
    names = sorted(p.name for p in shots.glob("*.png"))
    for phase in ("setup_join", "setup_first", "turn", "guess", "confirm", "over"):
        assert any(f"-{phase}-" in n for n in names), (phase, names)
    out = capsys.readouterr().out
    assert "game over, winners" in out and "cards read by the camera: 0," in out


def test_demo_resumes_an_unfinished_game_and_drops_a_torn_last_line(tmp_path, capsys,
                                                                   caplog):
    full = tmp_path / "full.jsonl"
    assert main(DEMO + ["--log", str(full), "--seed", "8", "--players", "3"]) == 0
    lines = full.read_bytes().splitlines(keepends=True)
    assert len(lines) > 6
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(lines[:5]) + b'{"event": "investi')  # cut by a power failure
    capsys.readouterr()
    assert main(DEMO + ["--log", str(part), "--seed", "9"]) == 0
    out = capsys.readouterr()
    assert "cut short" in out.err and "resumed" in out.out
    # said once, not three times: no warning of the log module's besides (on a terminal,
    # where nothing else handles them, those were printed too)
    assert (out.out + out.err).count("cut short") == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    data = part.read_bytes()
    assert data.startswith(b"".join(lines[:5]))
    replay = replay_file(part)
    assert replay.error is None and replay.game.over
    assert [p["name"] for p in replay.game.state["players"]] == \
        json.loads(lines[0])["players"]


def test_demo_refuses_a_corrupt_log_and_leaves_it_alone(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    content = b'{"event": "game", "players": ["Ann", "Ben"]}\n{"event": "fly"}\n{"x": 1}\n'
    log.write_bytes(content)
    assert main(DEMO + ["--log", str(log)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert log.read_bytes() == content


def test_demo_refuses_a_log_it_could_never_write_before_the_game(tmp_path, capsys):
    """A log in a folder that is a file let the demo start, then every game it tried to
    start was refused with "File exists" on the screen; a folder given for the log was
    refused with "[Errno 21] Is a directory"."""
    notes = tmp_path / "notes"
    notes.write_text("my notes")
    for log, said in ((notes / "game.jsonl", f"{str(notes)!r} is a file, not a folder"),
                      (tmp_path, "it is a folder: give a file for the table log")):
        assert main(DEMO + ["--log", str(log)]) == 2
        assert capsys.readouterr().err == f"companion: cannot use {log}: {said}\n"
    assert notes.read_text() == "my notes" and sorted(tmp_path.iterdir()) == [notes]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")
def test_demo_refuses_a_log_no_file_can_be_made_for(capsys):
    """The demo started, every move was refused on the screen ("[Errno 2] No such file or
    directory: '/proc/g.jsonl'"), and the autoplay ran until its loop gave up."""
    log = Path("/proc/self/companion-game.jsonl")  # no file can be made there
    assert main(DEMO + ["--log", str(log)]) == 2
    assert capsys.readouterr().err == (f"companion: cannot use {log}: it cannot be written "
                                       "(No such file or directory)\n")


def test_run_refuses_to_start_beside_a_table_already_running(tmp_path, capsys, monkeypatch):
    from companion.kiosk.runtime import Kiosk

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    running = Kiosk.start(None, fsync=False)
    try:
        assert main(["run", "--size", "800x480", "--quit-after", "0.3"]) == 2
        assert "companion: another companion is already running the table" in \
            capsys.readouterr().err
    finally:
        running.stop()


def test_a_demo_nobody_can_see_says_so(capsys):
    """With no desktop, SDL draws into memory: `make demo` ran with no window and not a word
    why. With --headless that is what was asked for."""
    assert main(["demo", "--no-camera", "--quit-after", "0.3"]) == 0
    assert "warning: no screen to show the table on" in capsys.readouterr().err
    assert main(["demo", "--no-camera", "--headless", "--quit-after", "0.3"]) == 0
    assert "no screen to show" not in capsys.readouterr().err


def test_an_empty_log_or_a_device_given_for_the_log_is_left_there(tmp_path, capsys):
    """Checking that a log can be written removed an empty log file, and would have removed
    /dev/null given for the log (as root), a node the check had not made."""
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    assert main(["demo", "--headless", "--no-camera", "--quit-after", "0.3", "--log",
                 str(empty)]) == 0
    assert empty.exists() and empty.read_bytes() == b""
    assert f"table log in {empty}" in capsys.readouterr().out
    assert main(["demo", "--headless", "--no-camera", "--quit-after", "0.3", "--log",
                 os.devnull]) == 0
    assert Path(os.devnull).exists()


def test_a_log_is_not_named_when_no_game_was_written(tmp_path, capsys):
    """A demo left before any game began writes no log, and says none is there."""
    log = tmp_path / "idle.jsonl"
    assert main(["demo", "--headless", "--quit-after", "0.5", "--log", str(log)]) == 0
    assert not log.exists() and "table log in" not in capsys.readouterr().out


def test_a_log_of_blank_lines_is_written_over_not_said_to_hold_a_finished_game(tmp_path,
                                                                                capsys):
    log = tmp_path / "blank.jsonl"
    log.write_text("\n\n \n")
    assert main(DEMO + ["--log", str(log)]) == 0
    assert "finished game" not in capsys.readouterr().out
    assert not (tmp_path / "blank.jsonl.1").exists()
    first = next(line for line in log.read_text().splitlines() if line.strip())
    assert json.loads(first)["event"] == "game" and replay_file(log).game.over


def test_a_log_whose_only_line_was_cut_short_is_a_new_game(tmp_path, capsys):
    """The power went while the game's first line was written: the demo refused the file
    ('line 1: the log holds no game'), exit 2."""
    log = tmp_path / "torn.jsonl"
    log.write_bytes(b'{"event":"game","players":["Ann","Be')
    assert main(DEMO + ["--log", str(log)]) == 0
    out = capsys.readouterr()
    assert "cut short" in out.err and "finished game" not in out.out
    assert not (tmp_path / "torn.jsonl.1").exists()
    assert replay_file(log).error is None and replay_file(log).game.over


def test_a_file_of_one_line_that_is_no_log_is_refused_not_emptied(tmp_path, capsys):
    """Taken for a game line cut short, a file of notes given for the log was emptied."""
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    assert main(DEMO + ["--log", str(notes)]) == 2
    assert "line 1" in capsys.readouterr().err and notes.read_text() == "hello"


def test_a_finished_game_in_the_log_file_is_moved_aside_not_overwritten(tmp_path):
    log = tmp_path / "g.jsonl"
    assert main(DEMO + ["--log", str(log), "--seed", "3", "--players", "2"]) == 0
    first = log.read_bytes()
    game, table_log, notice = resume_or_new(log)
    assert game is None and table_log is None and "moved it to" in notice
    assert (tmp_path / "g.jsonl.1").read_bytes() == first and not log.exists()


def test_demo_rejects_bad_options_with_a_message(capsys):
    assert main(DEMO + ["--players", "9"]) == 2
    assert "--players must be 2 to 6" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(DEMO + ["--size", "big"])
    assert exited.value.code == 2
    assert "must look like 1280x720" in capsys.readouterr().err


def test_missing_devices_are_reported_not_fatal():
    import queue

    panel, why = open_panel(queue.Queue())  # this machine has no GPIO
    assert panel is None and "GPIO" in str(why)
    camera, why_cam, warning = open_camera({"source": "nonexistent-device"}, queue.Queue())
    assert camera is None and why_cam and warning == ("warn.no_camera", {})


def test_a_bad_pin_map_is_reported_not_fatal(tmp_path):
    import queue

    pins = tmp_path / "pins.toml"
    pins.write_text("wiring = 'telepathy'\n")
    panel, why = open_panel(queue.Queue(), pins)
    assert panel is None and "telepathy" in str(why)


def test_run_with_a_bad_config_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "table.toml"
    bad.write_text("this is [ not toml")
    code = main(["run", "--config", str(bad), "--size", "800x480", "--quit-after", "0.3"])
    err = capsys.readouterr().err
    assert code == 0 and "warning" in err  # the kiosk's reader warns and goes on with defaults


def test_run_writes_a_message_about_the_table_log_to_the_journal_once(tmp_path):
    """A last line cut short by a power cut: the message stood twice in the journal, once
    from the session's logger and once from the table."""
    import subprocess
    import sys

    state = tmp_path / "state"
    state.mkdir()
    (state / "table.jsonl").write_bytes(b'{"event": "ga')
    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nkind = "synthetic"\n[storage]\nstate_dir = "{state}"\n')
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(config),
                           "--size", "800x480", "--quit-after", "0.5"],
                          cwd=Path(__file__).resolve().parents[1], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("was cut short, most likely by a power cut") == 1, done.stderr


def test_run_writes_a_message_from_the_kiosk_during_play_to_the_journal(tmp_path, capsys,
                                                                        monkeypatch):
    """A message that comes while the table runs (the game could not be saved) went to the
    screen only: the journal, where staff look after a bad day, never had it."""
    from companion.kiosk.runtime import Kiosk

    ticks = Kiosk.tick

    def tick(self):
        ticks(self)
        if not getattr(self, "told", False):
            self.told = True
            self.session.messages.append("The game could not be saved (disk full).")

    monkeypatch.setattr(Kiosk, "tick", tick)
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nkind = "synthetic"\n[storage]\nstate_dir = "{tmp_path}"\n')
    assert main(["run", "--config", str(config), "--size", "800x480", "--quit-after", "0.5"]) == 0
    err = capsys.readouterr().err
    assert err.count("companion: warning: The game could not be saved (disk full).\n") == 1


def test_run_falls_back_to_the_screen_without_gpio_or_camera(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    config = tmp_path / "table.toml"
    config.write_text('language = "ko"\n[camera]\nkind = "opencv"\ndevice = 57\n')
    code = main(["run", "--config", str(config), "--size", "800x480", "--quit-after", "0.5"])
    err = capsys.readouterr().err
    assert code == 0
    assert "no GPIO panel" in err
    assert "--mock" not in err  # hw-test's option: run has none, its panel is on the screen


def test_a_seat_whose_colour_a_player_took_for_a_name_goes_by_its_number():
    """names Blue,Red stopped the table: seat 5 kept its colour, Blue, a name already taken."""
    assert seat_names(["Blue", "Red"]) == ["Blue", "Red", "Yellow", "Green", "Seat 5", "Purple"]
    assert seat_names("Ann,Yellow") == ["Ann", "Yellow", "Seat 3", "Green", "Blue", "Purple"]
    assert seat_names(None) == ["Red", "Orange", "Yellow", "Green", "Blue", "Purple"]
    # "Seat 5" given too: two seats had that name
    assert seat_names(["Blue", "Seat 5"])[4] == "Seat 5 (2)"
    from companion.app.i18n import player_name

    assert player_name("ko", "Seat 5") == "5번 자리" and player_name("en", "Seat 5") == "Seat 5"
    with pytest.raises(ValueError, match=r"'Ann\\x00' cannot be a name: it holds a control"):
        seat_names(["Ann\x00", "Ben"])


def test_run_with_bad_names_says_so_before_opening_anything(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert main(["run", "--names", "Ann,Ann", "--size", "800x480"]) == 2
    err = capsys.readouterr().err
    assert "names:" in err and "no GPIO panel" not in err


def test_headless_demo_reads_every_card_through_the_synthetic_camera(tmp_path, capsys):
    pytest.importorskip("vision.synthetic")
    pytest.importorskip("vision.tracking")
    log = tmp_path / "cam.jsonl"
    demo = [a for a in DEMO if a != "--no-camera"]
    assert main(demo + ["--log", str(log), "--seed", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    read = int(out.split("cards read by the camera: ")[1].split(",")[0])
    picked = int(out.split("picked on the screen: ")[1].split()[0])
    assert read > 0 and picked <= read // 10, out
    replay = replay_file(log)
    assert replay.error is None and replay.game.over


def test_no_screen_is_a_clear_message_not_a_crash(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--no-camera"]) == 2
    assert "cannot open a window" in capsys.readouterr().err
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert main(["run", "--size", "800x480"]) == 2
    assert "cannot open the screen" in capsys.readouterr().err


def test_references_that_leave_out_an_identity_keep_the_camera_off(tmp_path):
    """A card never enrolled could be taken for one that was: with a card missing from the
    references the camera is not used, and the reason names the missing cards."""
    import queue
    import shutil

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    some = tmp_path / "some"
    some.mkdir()
    for label in ("vampire", "living_armor", "butler", "cook"):
        shutil.copy(cards / f"{label}.png", some / f"{label}.png")
    camera, why, warning = open_camera({"kind": "synthetic"}, queue.Queue(), some)
    assert camera is None
    assert "Ghost" in why and "Cleaner" in why and "companion enroll" in why
    assert warning == ("warn.cards_missing", {"cards": ["ghost", "cleaner"]})
    # Any spelling of each identity will do: a folder per card, a name the players use.
    for label, name in (("ghost", "Ghost"), ("cleaner", "cleaner"), ("living_armor", "knight")):
        (some / name).mkdir(exist_ok=True)
        shutil.copy(cards / f"{label}.png", some / name / "1.png")
    (some / "living_armor.png").unlink()
    from companion.cards import IDENTITIES
    from vision.tracking import RevealTracker

    assert isinstance(card_tracker(some), RevealTracker)
    (tmp_path / "empty").mkdir()  # enrolment stopped before the first picture
    _, _, warning = open_camera({"kind": "synthetic"}, queue.Queue(), tmp_path / "empty")
    assert warning == ("warn.cards_missing", {"cards": list(IDENTITIES)})
    # A card's folder with no picture in it: that card is missing.
    (some / "Ghost" / "1.png").unlink()
    (some / "Ghost" / "notes.txt").write_text("to do")
    _, _, warning = open_camera({"kind": "synthetic"}, queue.Queue(), some)
    assert warning == ("warn.cards_missing", {"cards": ["ghost"]})
    # No such folder, or a file in its place: nothing to say about cards, just that the
    # camera is not used, and why.
    camera, why, warning = open_camera({"kind": "synthetic"}, queue.Queue(), tmp_path / "none")
    assert camera is None and warning == ("warn.no_camera", {}) and "does not exist" in why
    (tmp_path / "file").write_text("not a folder")
    camera, why, warning = open_camera({"kind": "synthetic"}, queue.Queue(), tmp_path / "file")
    assert camera is None and warning == ("warn.no_camera", {}) and "is a file" in why


def _warnings_shown(tmp_path, state, monkeypatch) -> list:
    """Run the table briefly on a synthetic camera with the state folder ``state``: the
    warnings its screen was given."""
    from companion.app.screens import table

    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nkind = "synthetic"\n[storage]\nstate_dir = "{state}"\n')
    shown = []
    real = table.TableScreen.__init__
    monkeypatch.setattr(table.TableScreen, "__init__", lambda self, *a, **k: (
        shown.extend(k.get("warnings") or []), real(self, *a, **k))[-1])
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--config", str(config), "--size", "800x480", "--quit-after", "0.3"]) == 0
    return shown


def test_run_says_in_the_journal_what_the_camera_makes_of_the_mat(tmp_path, capsys,
                                                                   monkeypatch):
    import shutil

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    state = tmp_path / "state"
    state.mkdir()
    shutil.copytree(cards, state / "references")
    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nkind = "synthetic"\n[storage]\nstate_dir = "{state}"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--config", str(config), "--size", "800x480", "--quit-after", "3"]) == 0
    assert capsys.readouterr().err.count("companion: camera: Mat found.\n") == 1


def test_run_names_the_cards_still_to_enrol_on_the_screen(tmp_path, capsys, monkeypatch):
    """The table's own references leave out the Ghost and the Cleaner: the screen says so in
    the players' language, not just "no camera"."""
    import shutil

    from companion.app.i18n import tr

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    state = tmp_path / "state"
    (state / "references").mkdir(parents=True)
    for label in ("vampire", "living_armor", "butler", "cook"):
        shutil.copy(cards / f"{label}.png", state / "references" / f"{label}.png")
    shown = _warnings_shown(tmp_path, state, monkeypatch)
    assert "no picture of the Ghost or the Cleaner card" in capsys.readouterr().err
    assert ("warn.cards_missing", {"cards": ["ghost", "cleaner"]}) in shown
    assert tr("en", "warn.cards_missing", cards=["ghost", "cleaner"]).startswith(
        "No picture of Ghost, Cleaner yet")
    assert "유령 카드 사진이 아직 없습니다" in tr("ko", "warn.cards_missing", cards=["ghost"])


def test_a_reference_picture_that_cannot_be_read_keeps_the_camera_off(tmp_path):
    """A card's only picture is not a picture (a half-copied file): the camera is not used
    and the reason names the file; the cards are picked on the screen."""
    import queue
    import shutil

    import cv2
    import numpy as np

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    refs = tmp_path / "refs"
    shutil.copytree(cards, refs)
    (refs / "ghost.png").write_bytes(b"\x89PNG half")
    camera, why, warning = open_camera({"kind": "synthetic"}, queue.Queue(), refs)
    assert camera is None and "ghost.png" in why
    assert warning == ("warn.card_unreadable", {"card": "ghost", "file": "ghost.png"})
    # A card beyond the six, its picture unreadable: named by its own label.
    shutil.copy(cards / "ghost.png", refs / "ghost.png")
    (refs / "joker.png").write_bytes(b"")
    _, _, warning = open_camera({"kind": "synthetic"}, queue.Queue(), refs)
    assert warning == ("warn.card_unreadable", {"card": "joker", "file": "joker.png"})
    # A picture read but blank, too plain to tell a card by: named too (it was "no camera").
    (refs / "joker.png").unlink()
    cv2.imwrite(str(refs / "cook.png"), np.full((440, 315, 3), 200, np.uint8))
    camera, why, warning = open_camera({"kind": "synthetic"}, queue.Queue(), refs)
    assert camera is None and "too little detail" in why
    assert warning == ("warn.card_unreadable", {"card": "cook", "file": "cook.png"})


def test_run_names_the_card_picture_that_cannot_be_read_on_the_screen(tmp_path, capsys,
                                                                       monkeypatch):
    """The Ghost's picture at this table is a half-copied file: the screen names the card and
    the file in the players' language, not just "no camera"; another card's picture in a
    folder of its own is named by its folder."""
    import queue
    import shutil

    from companion.app.i18n import tr

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    state = tmp_path / "state"
    refs = state / "references"
    shutil.copytree(cards, refs)
    (refs / "ghost.png").write_bytes(b"\x89PNG half")
    shown = _warnings_shown(tmp_path, state, monkeypatch)
    assert "ghost.png" in capsys.readouterr().err
    warning = ("warn.card_unreadable", {"card": "ghost", "file": "ghost.png"})
    assert warning in shown and ("warn.no_camera", {}) not in shown
    assert tr("en", warning[0], **warning[1]).startswith(
        "The picture of Ghost cannot be read (ghost.png)")
    assert "유령 카드 사진을 읽을 수 없습니다 (ghost.png)" in tr("ko", warning[0], **warning[1])

    shutil.copy(cards / "ghost.png", refs / "ghost.png")
    (refs / "chef").mkdir()
    (refs / "cook.png").rename(refs / "chef" / "1.png")
    camera, _, warning = open_camera({"kind": "synthetic"}, queue.Queue(), refs)
    assert camera is not None and warning is None  # readable and whole
    (refs / "chef" / "2.png").write_bytes(b"")
    camera, _, warning = open_camera({"kind": "synthetic"}, queue.Queue(), refs)
    assert camera is None and warning == ("warn.card_unreadable",
                                          {"card": "cook", "file": str(Path("chef", "2.png"))})


def test_the_players_named_for_the_demo_are_the_ones_playing(tmp_path):
    """--players 2 --names Ann,Ben gave a game of Ann and Blue: the simulated players sat at
    random seats, and the names go by seat."""
    for seed, names, playing in ((1, "Ann,Ben,Cat", {"Ann", "Ben", "Cat"}),
                                 (3, "Ann,Ben,Cat", {"Ann", "Ben", "Cat"}),
                                 (5, "Ann,Red", {"Ann", "Red"})):  # a name like a colour
        log = tmp_path / f"names{seed}.jsonl"
        assert main(DEMO + ["--log", str(log), "--seed", str(seed), "--players", "2",
                            "--names", names]) == 0
        game = next(e for e in map(json.loads, log.read_text().splitlines())
                    if e["event"] == "game")
        assert len(game["players"]) == 2 and set(game["players"]) <= playing


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--size", "800x", "the size must look like 1280x720, not '800x'"),
    ("--size", "99999x99999", "too large (at most 7680x4320)"),
    ("--size", "300x200", "too small (at least 320x240)"),
    ("--screenshots", "FILE", "is a file: give a folder for the pictures"),
    ("--screenshots", "FILE/shots", "game.jsonl' is a file, not a folder"),
    ("--screenshots", "/proc/x", "cannot save pictures in '/proc/x'"),
    ("--screenshots", "/proc/sys", "cannot save pictures in '/proc/sys'"),
    # nan never came: the demo ran on past any time given.
    ("--quit-after", "nan", "'nan' is not a number of seconds above 0"),
    ("--quit-after", "-1", "'-1' is not a number of seconds above 0"),
])
def test_demo_options_that_cannot_work_are_refused_before_the_game(tmp_path, capsys, option,
                                                                   value, said):
    """A file given for --screenshots ended the game in a traceback at its first screen; so
    did a folder that cannot be made. A size past any screen's made SDL fail, then hang;
    '800x' ended with status 1, unlike every other refused option."""
    log = tmp_path / "game.jsonl"
    log.write_text("")
    value = value.replace("FILE", str(log))
    with pytest.raises(SystemExit) as exited:
        main(DEMO + ["--log", str(tmp_path / "new.jsonl"), option, value])
    assert exited.value.code == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "new.jsonl").exists()


def test_two_folders_for_one_card_are_one_card_at_the_table(tmp_path):
    """Chef/ beside cook.png (two names of the Cook) made two cards of it, each keeping the
    other from being named: the Cook was picked on the screen every time."""
    import shutil

    import cv2

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    refs = tmp_path / "refs"
    shutil.copytree(cards, refs)
    (refs / "Chef").mkdir()
    cook = cv2.imread(str(refs / "cook.png"))
    cv2.imwrite(str(refs / "Chef" / "again.png"), cv2.GaussianBlur(cook, (3, 3), 0))
    tracker = card_tracker(refs)
    recognizer = tracker.recognizer.recognizer
    assert sorted(recognizer.labels) == ["butler", "cleaner", "cook", "ghost", "living_armor",
                                         "vampire"]
    assert recognizer.classify(cook).label == "cook"


def test_a_panel_that_would_not_open_is_said_for_what_it_is(tmp_path):
    """A wrong pin map was shown as "No GPIO", sending staff to look for missing hardware:
    its reason goes only to the journal. No GPIO at all (a laptop) is still just that."""
    import queue

    from companion.app.devices import panel_warning

    bad = tmp_path / "pins.toml"
    bad.write_text("x = 1\n")
    panel, why = open_panel(queue.Queue(), str(bad))
    assert panel is None and why.kind == "pin map"
    key, args = panel_warning(why)
    assert key == "warn.panel_failed" and args["text"].startswith("Pin map problem: ")

    class NoGpio(Exception):
        kind = "no gpio"

    assert panel_warning(NoGpio("Cannot reach the pins")) == ("warn.no_gpio", {})


def test_one_cards_picture_copied_over_anothers_is_said_by_both_names(tmp_path, caplog):
    """ghost.png copied over cook.png to fill a gap: the copy check kept cook (the shorter
    name) and left ghost.png out, and the screen said the Ghost had no picture, while the
    mistake was cook.png."""
    import shutil

    from companion.app.devices import ReferencesUnusable, table_recognizer
    from companion.app.i18n import tr

    refs = tmp_path / "refs"
    shutil.copytree(Path(__file__).resolve().parents[1] / "assets" / "cards", refs)
    shutil.copy(refs / "ghost.png", refs / "cook.png")
    with pytest.raises(ReferencesUnusable) as err:
        table_recognizer(refs)
    assert str(err.value).startswith("cook.png and ghost.png are the same picture, so neither "
                                     "card can be told from the other")
    key, args = err.value.warning
    assert tr("en", key, **args) == (
        "The pictures of Cook, Ghost are the same picture (cook.png and ghost.png): one is a "
        "copy. Cards are picked on the screen until the right card is enrolled and the table "
        "restarted.")
    assert any("neither card can be told from the other" in m for m in caplog.messages)
