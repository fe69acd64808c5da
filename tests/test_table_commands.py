"""The `enroll` and `camera-check` commands, run as the command line runs them."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import pytest
from table_scenes import Table, slot_centre

from vision.table_commands import default_source, register_table_commands


def run(argv):
    parser = argparse.ArgumentParser(prog="companion")
    register_table_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture
def frames_dir(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    table = Table()
    cv2.imwrite(str(folder / "1.png"), table.frame([("vampire", slot_centre("a"), 0.0)]).image)
    return folder


def test_camera_check_saves_the_picture_and_says_what_it_found(frames_dir, tmp_path, capsys):
    out = tmp_path / "check.png"
    assert run(["camera-check", "--source", f"folder:{frames_dir}", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Mat found: all four corner squares are in view." in text
    assert f"Picture saved to {out}." in text
    picture = cv2.imread(str(out))
    assert picture.shape == (480, 640, 3)


def test_camera_check_without_a_screen_saves_next_to_you(frames_dir, tmp_path, capsys,
                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert run(["camera-check", "--source", str(frames_dir)]) == 0
    assert (tmp_path / "camera-check.png").is_file()


def test_camera_check_mat_not_in_view(tmp_path, capsys):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "1.png"), Table().frame().image[100:300, 150:450])
    assert run(["camera-check", "--source", str(folder), "--out", str(tmp_path / "x.png")]) == 1
    assert "The mat's markers are not in view: none of the mat's" in capsys.readouterr().out


def test_camera_check_fails_when_the_mat_was_printed_at_another_size(tmp_path, capsys):
    from pathlib import Path

    from vision import synthetic as S

    folder = tmp_path / "frames"
    folder.mkdir()
    scene = S.mat_scene(S.load_deck(), {"a": "cook"}, card_scale=1.41, rng=4)
    cv2.imwrite(str(folder / "1.png"), scene.image)
    refs = Path(__file__).resolve().parents[1] / "assets" / "cards"
    assert run(["camera-check", "--source", str(folder), "--refs", str(refs),
                "--out", str(tmp_path / "x.png")]) == 1
    assert "the mat was printed at another size" in capsys.readouterr().out


def test_camera_check_fails_when_a_card_in_a_slot_would_not_be_read(tmp_path, capsys):
    from vision import synthetic as S

    folder = tmp_path / "frames"
    folder.mkdir()
    steep = S.mat_scene(S.load_deck(), {"a": "ghost"}, tilt=0.5, rng=3)
    cv2.imwrite(str(folder / "1.png"), steep.image)
    assert run(["camera-check", "--source", str(folder), "--out", str(tmp_path / "x.png")]) == 1
    text = capsys.readouterr().out
    assert "Mat found" in text and "Mount it more nearly straight above the mat." in text
    assert (tmp_path / "x.png").is_file()  # the picture is saved all the same


def test_camera_check_fails_when_a_slot_would_be_read_only_just(tmp_path, capsys):
    """A camera mounted right at a bound: the cards are read, but the table may warn about the
    slots, so the camera is not ready; a little closer, and it is."""
    from vision import synthetic as S

    folder = tmp_path / "frames"
    folder.mkdir()
    picture = folder / "1.png"
    deck = S.load_deck()
    for (w, h), code in (((468, 351), 1), ((480, 360), 0)):
        scene = S.mat_scene(deck, {"a": "ghost", "b": "cook"}, size=(w, h), tilt=0.12, rng=3,
                            margin=0.04)
        cv2.imwrite(str(picture), scene.image)
        assert run(["camera-check", "--source", str(folder),
                    "--out", str(tmp_path / "x.png")]) == code
        text = capsys.readouterr().out
        assert "2 cards: a card in slot a, a card in slot b." in text
        assert ("would be read, but only just" in text) == (code == 1)


def test_camera_check_reads_the_cards_as_the_table_does(tmp_path, capsys, monkeypatch):
    from pathlib import Path

    from vision import synthetic as S

    folder = tmp_path / "frames"
    folder.mkdir()
    scene = S.mat_scene(S.load_deck(), {"a": "ghost", "b": "cook"}, rng=3)
    cv2.imwrite(str(folder / "1.png"), scene.image)
    refs = Path(__file__).resolve().parents[1] / "assets" / "cards"
    from vision.scene import CardReader

    readers = []
    real = CardReader.read

    def read(self, image, **kw):
        readers.append(self)
        return real(self, image, **kw)

    monkeypatch.setattr(CardReader, "read", read)
    assert run(["camera-check", "--source", str(folder), "--refs", str(refs),
                "--out", str(tmp_path / "x.png")]) == 0
    assert "2 cards: ghost in slot a, cook in slot b." in capsys.readouterr().out
    # The whole picture and the part around the slots, each by a fresh CardReader.
    assert len(readers) == 2 and readers[0] is not readers[1]


def test_camera_check_missing_camera_and_bad_settings(tmp_path, capsys):
    assert run(["camera-check", "--source", "webcam-please"]) == 2
    assert "Camera setting problem: camera 'webcam-please'" in capsys.readouterr().err
    # a setting of the wrong kind: a setting to fix, said as one, not "the camera failed"
    for spec, said in (("synthetic:seed=abc", "seed = 'abc': give a whole number of 0 or more"),
                       ("synthetic:noise=abc", "noise = 'abc': give a number of 0 or more"),
                       ("synthetic:fps=0", "fps = 0: give a number above 0, e.g. fps=15.0"),
                       ("synthetic:size=10x10", "size = [10, 10]: give a width and height")):
        assert run(["camera-check", "--source", spec, "--timeout", "5"]) == 2
        assert f"Camera setting problem: camera setting {said}" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_camera_check_missing_references(frames_dir, tmp_path, capsys):
    assert run(["camera-check", "--source", str(frames_dir), "--refs", str(tmp_path / "no")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err or "not installed" in err


def test_enroll_refuses_bad_card_names(tmp_path, capsys):
    assert run(["enroll", "--out", str(tmp_path / "refs"), "--labels", "Ghost,cook"]) == 2
    assert "card name 'Ghost'" in capsys.readouterr().err
    assert not (tmp_path / "refs").exists()


def test_enroll_refuses_a_pin_map_without_buttons(tmp_path, capsys):
    assert run(["enroll", "--out", str(tmp_path / "refs"), "--pins", "pins.toml"]) == 2
    assert "A pin map (--pins) is used only with --buttons." in capsys.readouterr().err
    assert not (tmp_path / "refs").exists()


def test_enroll_with_buttons_where_there_are_none_says_so_before_the_camera_opens(
        frames_dir, tmp_path, capsys, monkeypatch):
    from hardware import panel as panel_module
    from vision import sources

    def no_gpio(*args, **kwargs):
        raise panel_module.NoGPIOError("no pins")

    opened = []
    monkeypatch.setattr(panel_module, "build_panel", no_gpio)
    monkeypatch.setattr(sources, "open_source", lambda *a, **k: opened.append(a))
    assert run(["enroll", "--out", str(tmp_path / "refs"), "--source", f"folder:{frames_dir}",
                "--buttons"]) == 2
    assert "Cannot reach the table's buttons" in capsys.readouterr().err
    assert opened == [] and not (tmp_path / "refs").exists()


def test_enroll_with_buttons_answers_with_them(tmp_path, capsys, monkeypatch):
    """The table's OK button takes the picture; the panel is closed afterwards."""
    import time

    from gpiozero import DigitalInputDevice
    from gpiozero.pins.mock import MockFactory

    from hardware.config import default_pinmap
    from vision import table_commands
    from vision.synthetic import load_deck, mat_scene

    frames_dir = tmp_path / "frames"
    frames_dir.mkdir()
    cv2.imwrite(str(frames_dir / "1.png"), mat_scene(load_deck(), {"a": "vampire"}, rng=1).image)

    factory = MockFactory()
    real = table_commands._buttons

    def press_ok(question):
        pin = factory.pin(default_pinmap().button_pin("ok"))
        pin.drive_low()
        time.sleep(0.05)  # longer than the pin map's bounce time
        pin.drive_high()

    def buttons(pins, opened, **options):
        answers, problem = real(pins, opened, pin_factory=factory)
        answers.keyboard, answers.say = None, press_ok  # pytest holds the keyboard
        return answers, problem

    monkeypatch.setattr(table_commands, "_buttons", buttons)
    try:
        assert run(["enroll", "--out", str(tmp_path / "refs"), "--source",
                    f"folder:{frames_dir}", "--labels", "vampire", "--buttons"]) == 0
        assert (tmp_path / "refs" / "vampire" / "vampire-1.png").exists()
        # The panel let its pins go: the OK button's can be claimed again.
        DigitalInputDevice(default_pinmap().button_pin("ok"), pin_factory=factory).close()
    finally:
        factory.close()


def test_default_source(monkeypatch):
    monkeypatch.setenv("COMPANION_CAMERA", "folder:/x")
    assert default_source() == "folder:/x"
    monkeypatch.delenv("COMPANION_CAMERA")
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert default_source() == "opencv:0"
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    assert default_source() == "picamera2"


def test_registering_the_commands_loads_no_heavy_module():
    import subprocess
    import sys

    from companion import cards
    from vision import enroll, table_commands

    # One list of the identities: enrolment and the table commands ask the same.
    assert table_commands.IDENTITIES is enroll.IDENTITIES is cards.IDENTITIES
    check = ("import sys, argparse; from vision.table_commands import register_table_commands; "
             "register_table_commands(argparse.ArgumentParser().add_subparsers()); "
             "print(sorted(m for m in ('cv2', 'numpy', 'pygame') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("timeout", ["nan", "inf", "0", "-1", "soon"])
def test_a_timeout_that_is_no_time_is_refused(tmp_path, capsys, timeout):
    """--timeout nan or inf waited for ever, and 0 or less gave up at once."""
    for argv in (["camera-check", "--source", "synthetic"],
                 ["enroll", "--out", str(tmp_path / "refs"), "--source", "synthetic"]):
        with pytest.raises(SystemExit) as exited:
            run([*argv, "--timeout", timeout])
        assert exited.value.code == 2
        assert f"{timeout!r} is not a number of seconds above 0" in capsys.readouterr().err
    assert not (tmp_path / "refs").exists()


def test_an_empty_output_name_is_refused(tmp_path, capsys, monkeypatch):
    """camera-check --out "" ended in a traceback; enroll --out "" enrolled into the folder
    it was started in."""
    monkeypatch.chdir(tmp_path)
    for argv in (["camera-check", "--source", "synthetic", "--out", ""],
                 ["enroll", "--source", "synthetic", "--out", " "]):
        with pytest.raises(SystemExit) as exited:
            run(argv)
        assert exited.value.code == 2
        assert "give a name, not an empty one" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["recognize", "--refs", "", "x.png"],
    ["camera-check", "--source", "synthetic", "--refs", ""],
    ["demo", "--log", ""],
    ["run", "--config", " "],
    ["stats", "--config", ""],
    ["stats", "--db", ""],
    ["export", "1", "--config", ""],
    ["hw-test", "--mock", "--pins", ""],
    ["enroll", "--out", "refs", "--buttons", "--pins", ""],
])
def test_an_empty_folder_or_file_name_is_refused(tmp_path, capsys, monkeypatch, argv):
    """recognize --refs "" read the folder it was started in as the deck's references (and
    camera-check with it); an empty log or configuration file name is no file either."""
    monkeypatch.chdir(tmp_path)
    from companion.cli import main

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    (tmp_path / "ghost.png").write_bytes((cards / "ghost.png").read_bytes())
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "give a name, not an empty one" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["ghost.png"]


@pytest.mark.parametrize(("source", "said"), [
    ("opencv:/dev/no-such-video", "No camera answers at video device"),
    ("VIDEO", "Camera setting problem: the video file"),
    ("FOLDER", "The picture folder"),
])
def test_enroll_without_a_camera_says_so_before_asking_for_a_card(tmp_path, capsys,
                                                                 monkeypatch, source, said):
    """Staff laid the first card and pressed Enter, then waited three times --timeout for
    each try, three tries a card, to hear there was no camera. A damaged video or a missing
    picture folder likewise was asked for each card three times over, a line for every
    try, as if it might come back."""
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail(f"asked: {prompt}"))
    video = tmp_path / "cards.mp4"
    video.write_bytes(b"not a video")
    source = {"VIDEO": str(video), "FOLDER": f"folder:{tmp_path / 'none'}"}.get(source, source)
    code = run(["enroll", "--out", str(tmp_path / "refs"), "--source", source,
                "--timeout", "0.3"])
    assert code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(f"No picture from the camera: {said}")
    assert last.endswith("Check it with `companion camera-check`, then enrol again.")
    assert "Trying again" not in last


@pytest.mark.parametrize(("source", "said"), [
    ("folder:{tmp}/none", "The picture folder '{tmp}/none' does not exist."),
    ("folder:{tmp}/notes.png", "'{tmp}/notes.png' is a file, not a folder of pictures."),
    ("{tmp}/notes.png", "Camera setting problem: the video file '{tmp}/notes.png' cannot be "
                        "played (damaged, or a format OpenCV does not know)."),
])
def test_camera_check_refuses_a_recording_that_does_not_open_at_once(tmp_path, capsys,
                                                                     source, said):
    """A missing picture folder was tried three times over and ended with status 1, as a
    camera that might come back; notes saved as .png were a recording that had ended."""
    (tmp_path / "notes.png").write_text("not a picture")
    code = run(["camera-check", "--source", source.format(tmp=tmp_path), "--out",
                str(tmp_path / "seen.png"), "--timeout", "30"])
    assert code == 2
    assert capsys.readouterr().err.splitlines() == [said.format(tmp=tmp_path)]
    assert not (tmp_path / "seen.png").exists()


def test_camera_check_reads_the_cards_the_synthetic_camera_lays(tmp_path, capsys):
    code = run(["camera-check", "--source", "synthetic:a=vampire,b=butler", "--refs",
                str(Path(__file__).resolve().parents[1] / "assets" / "cards"),
                "--out", str(tmp_path / "seen.png")])
    assert code == 0
    assert "2 cards: vampire in slot a, butler in slot b." in capsys.readouterr().out


def test_camera_check_given_a_folder_to_save_in_saves_its_picture_there(frames_dir, tmp_path,
                                                                        capsys, monkeypatch):
    """--out . ended in a traceback, and --out with a folder wrote a file beside it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pictures").mkdir()
    for out, saved in ((".", tmp_path / "camera-check.png"),
                       ("pictures", tmp_path / "pictures" / "camera-check.png")):
        run(["camera-check", "--source", str(frames_dir), "--out", out])
        assert cv2.imread(str(saved)).shape == (480, 640, 3)
        assert f"Picture saved to {saved.relative_to(tmp_path)}." in capsys.readouterr().out


def test_enroll_into_a_file_is_refused_before_the_camera_is_waited_for(tmp_path, capsys):
    (tmp_path / "refs").write_text("")
    code = run(["enroll", "--out", str(tmp_path / "refs"), "--source",
                "opencv:/dev/no-such-video", "--timeout", "30"])
    assert code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{str(tmp_path / 'refs')!r} is a file: give a folder for the reference pictures"]


def test_camera_check_that_cannot_save_its_picture_says_where_and_why(frames_dir, tmp_path,
                                                                      capsys):
    """A file where the folder to save in should be: the picture cannot be written."""
    (tmp_path / "notes").write_text("")
    out = tmp_path / "notes" / "check.png"
    assert run(["camera-check", "--source", str(frames_dir), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "Mat found" in captured.out  # what the camera saw is still said
    notes = str(tmp_path / "notes")
    assert captured.err.splitlines() == [f"Could not save the picture to {str(out)!r}: "
                                         f"{notes!r} is a file, not a folder."]
    assert (tmp_path / "notes").read_text() == ""


def test_camera_check_with_references_it_may_not_read_says_why(frames_dir, tmp_path, capsys,
                                                               monkeypatch):
    """A reference folder the companion's user may not read (a copy made by another user)."""
    import vision.recognize

    refs = tmp_path / "refs"
    refs.mkdir()

    def refused(path, **options):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(vision.recognize, "reference_files", refused)
    out = tmp_path / "check.png"
    assert run(["camera-check", "--source", str(frames_dir), "--refs", str(refs),
                "--out", str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"Cannot use the references in {str(refs)!r}: Permission denied."]
    assert not out.exists()


def test_camera_check_judges_the_references_as_the_table_does(tmp_path, capsys, caplog):
    """With the Ghost's only picture a WEBP (or a phone's HEIC), camera-check said the table
    was ready; the table then refused the camera, the Ghost having no picture."""
    import shutil
    from pathlib import Path

    from vision.synthetic import load_deck, mat_scene

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    frames_dir = tmp_path / "frames"
    frames_dir.mkdir()
    cv2.imwrite(str(frames_dir / "1.png"), mat_scene(load_deck(), {"a": "vampire"}, rng=1).image)
    refs = tmp_path / "refs"
    shutil.copytree(cards, refs)
    (refs / "ghost.png").rename(refs / "ghost.heic")
    out = tmp_path / "check.png"
    assert run(["camera-check", "--source", str(frames_dir), "--refs", str(refs),
                "--out", str(out)]) == 2
    assert "there is no picture of the Ghost card" in capsys.readouterr().err
    assert caplog.messages == ["reference picture ghost.heic is left out: the companion cannot "
                               "read HEIC pictures; save it as PNG or JPEG"]
    assert not out.exists()
    ghost = cv2.imread(str(cards / "ghost.png"))
    cv2.imwrite(str(refs / "ghost.webp"), ghost, [cv2.IMWRITE_WEBP_QUALITY, 101])  # lossless
    assert run(["camera-check", "--source", str(frames_dir), "--refs", str(refs),
                "--out", str(out)]) == 0
    assert "1 card: vampire in slot a." in capsys.readouterr().out


def test_camera_check_saves_where_and_as_people_ask(frames_dir, tmp_path, capsys):
    """'--out new/sub/' (a folder still to make) saved new/sub.png; '--out check.jpg' saved
    check.jpg.png; '--source ""' used the default camera without a word."""
    for out, saved, magic in (
            (f"{tmp_path / 'new' / 'sub'}/", tmp_path / "new" / "sub" / "camera-check.png",
             b"\x89PNG"),
            (str(tmp_path / "check.jpg"), tmp_path / "check.jpg", b"\xff\xd8\xff"),
            (str(tmp_path / "check"), tmp_path / "check.png", b"\x89PNG")):
        assert run(["camera-check", "--source", str(frames_dir), "--out", out]) == 0
        assert f"Picture saved to {saved}." in capsys.readouterr().out
        assert saved.read_bytes().startswith(magic)
    assert run(["camera-check", "--source", "", "--out", str(tmp_path / "x.png")]) == 2
    assert "empty camera choice" in capsys.readouterr().err


def test_camera_check_fails_when_the_picture_is_out_of_focus(tmp_path, capsys):
    from vision import synthetic as S

    folder = tmp_path / "frames"
    folder.mkdir()
    scene = S.mat_scene(S.load_deck(), {"a": "ghost"}, rng=3)
    for blur, code in ((0.0, 0), (2.6, 1)):
        image = cv2.GaussianBlur(scene.image, (0, 0), blur) if blur else scene.image
        cv2.imwrite(str(folder / "1.png"), image)
        assert run(["camera-check", "--source", str(folder),
                    "--out", str(tmp_path / "x.png")]) == code
        text = capsys.readouterr().out
        assert ("The picture is in focus." in text) == (code == 0)
        assert ("The picture is out of focus" in text) == (code == 1)
