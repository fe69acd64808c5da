"""Camera sources: folders, video files, the Pi camera (faked), and surviving failures."""

from __future__ import annotations

import sys
import types

import cv2
import numpy as np
import pytest

from tests.bad_pictures import too_large_png
from vision.frames import CameraError, Frame
from vision.sources import (
    ENDED,
    MISCONFIGURED,
    OK,
    RECONNECTING,
    FolderSource,
    OpenCVSource,
    ResilientSource,
    SourceConfigError,
    check_config,
    load_camera_config,
    make_source,
    open_source,
    parse_source,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def solid(value: int, shape=(48, 64)) -> np.ndarray:
    return np.full((*shape, 3), value, np.uint8)


# ------------------------------------------------------------------ folder


def test_folder_gives_pictures_in_name_order_then_none(tmp_path):
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), solid(value))
    (tmp_path / "notes.txt").write_text("not a picture")
    src = FolderSource(tmp_path)
    values = []
    while (frame := src.read()) is not None:
        assert frame.image.shape == (48, 64, 3) and frame.image.dtype == np.uint8
        values.append(int(frame.image.mean()))
    assert values[0] == 10 and values[1] == 20 and abs(values[2] - 30) <= 2
    assert src.ended


def test_folder_skips_unreadable_pictures_and_converts_grey(tmp_path):
    cv2.imwrite(str(tmp_path / "1.png"), np.full((10, 12), 77, np.uint8))
    (tmp_path / "2.png").write_bytes(b"this is not a png")
    cv2.imwrite(str(tmp_path / "3.png"), solid(5, (10, 12)))
    src = FolderSource(tmp_path)
    first, second = src.read(), src.read()
    assert first.image.shape == (10, 12, 3) and first.image[0, 0, 0] == 77
    assert second.image[0, 0, 0] == 5
    assert src.read() is None
    assert [p.name for p in src.skipped] == ["2.png"]


def test_folder_skips_a_picture_too_large_to_read(tmp_path):
    too_large_png(tmp_path / "1.png")
    cv2.imwrite(str(tmp_path / "2.png"), solid(5, (10, 12)))
    src = FolderSource(tmp_path)
    assert src.read().image[0, 0, 0] == 5
    assert [p.name for p in src.skipped] == ["1.png"]


def test_folder_loops_when_asked(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), solid(1))
    cv2.imwrite(str(tmp_path / "b.png"), solid(2))
    src = FolderSource(tmp_path, loop=True)
    got = [int(src.read().image[0, 0, 0]) for _ in range(5)]
    assert got == [1, 2, 1, 2, 1]


def test_folder_missing_or_empty_says_so(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        FolderSource(tmp_path / "nowhere")
    with pytest.raises(CameraError, match="holds no pictures"):
        FolderSource(tmp_path)


def test_a_file_given_as_a_folder_is_said_to_be_a_file(tmp_path):
    """It was said not to exist."""
    (tmp_path / "scene.png").write_bytes(b"a picture")
    with pytest.raises(CameraError, match="'.*scene.png' is a file, not a folder of pictures"):
        FolderSource(tmp_path / "scene.png")


def test_folder_frames_carry_the_clock(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), solid(1))
    clock = FakeClock()
    assert FolderSource(tmp_path, clock=clock).read().t == 100.0


# ------------------------------------------------------------------ video file


def write_video(path, values, size=(64, 48)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, size)
    assert writer.isOpened()
    for v in values:
        writer.write(np.full((size[1], size[0], 3), v, np.uint8))
    writer.release()


def test_video_file_plays_then_ends(tmp_path):
    path = tmp_path / "game.avi"
    write_video(path, [0, 60, 120, 180])
    src = OpenCVSource(str(path))
    means = []
    while (frame := src.read()) is not None:
        means.append(frame.image.mean())
    src.close()
    assert len(means) == 4
    assert all(abs(m - v) < 8 for m, v in zip(means, [0, 60, 120, 180], strict=True))
    assert src.ended


def test_video_file_loops(tmp_path):
    path = tmp_path / "game.avi"
    write_video(path, [0, 200])
    src = make_source({"kind": "opencv", "device": str(path), "loop": True})
    means = [src.read().image.mean() for _ in range(4)]
    assert means[0] < 10 and means[1] > 190 and means[2] < 10 and means[3] > 190


def test_video_file_missing_or_damaged_is_a_setting_to_fix(tmp_path):
    """Waiting mends neither: both were retried for ever, a camera said to be missing, and
    opencv:O (a letter typed for opencv:0) was a video file looked for again and again."""
    with pytest.raises(SourceConfigError, match="does not exist$"):
        OpenCVSource(str(tmp_path / "none.avi"))
    with pytest.raises(SourceConfigError, match=r"the video file 'O' does not exist \(a webcam "
                                                r"is given by its number, e.g. opencv:0\)"):
        OpenCVSource(parse_source("opencv:O")["device"])
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"\0" * 100)
    with pytest.raises(SourceConfigError, match="cannot be played"):
        OpenCVSource(str(bad))
    source = open_source({"kind": "opencv", "device": str(bad)}, sleep=lambda s: None)
    assert source.read() is None and source.status == MISCONFIGURED


def test_a_file_that_opens_but_holds_no_picture_is_a_setting_to_fix(tmp_path):
    """Notes saved as .png opened as a recording, which then ended at once: 'The recording
    has ended' was all that was said. The first picture of a real one is still given."""
    notes = tmp_path / "notes.png"
    notes.write_text("not a picture")
    with pytest.raises(SourceConfigError, match="notes.png' cannot be played"):
        OpenCVSource(str(notes))
    path = tmp_path / "game.avi"
    write_video(path, [90, 30])
    src = OpenCVSource(str(path))
    assert abs(src.read().image.mean() - 90) < 8 and abs(src.read().image.mean() - 30) < 8
    assert src.read() is None and src.ended


def test_a_network_camera_that_does_not_answer_is_asked_about_its_address(monkeypatch):
    """It was asked whether it was plugged in, as a webcam is."""
    class Closed:
        def __init__(self, *args):
            pass

        def isOpened(self):
            return False

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Closed)
    with pytest.raises(CameraError, match=r"No camera answers at rtsp://10.0.0.9/live: is the "
                                          r"address right"):
        OpenCVSource("rtsp://10.0.0.9/live")


def test_a_webcam_number_too_large_or_a_folder_as_video_is_a_setting_to_fix(tmp_path):
    """device = 4294967296 passed the check, then failed inside OpenCV on every try; a
    folder given as the video file was said not to exist."""
    with pytest.raises(SourceConfigError, match=r"device = 4294967296: give a device number"):
        check_config({"kind": "opencv", "device": 4294967296})
    with pytest.raises(SourceConfigError, match=r"is a folder: a folder of pictures is kind = "
                                                r'"folder"'):
        OpenCVSource(str(tmp_path))


def test_webcam_that_is_not_there():
    with pytest.raises(CameraError, match="No camera answers at video device 57"):
        OpenCVSource(57)
    with pytest.raises(CameraError, match="No camera answers at video device /dev/video57"):
        OpenCVSource("/dev/video57")


def test_a_webcam_keeps_as_few_frames_waiting_as_it_can(tmp_path, monkeypatch):
    """A quiet table reads its webcam a few times a second: frames queued in the driver would
    be a second old by then. A video file is read in full, so it keeps its buffering."""
    asked = []

    class Capture:  # a webcam that answers, standing in for cv2.VideoCapture
        def __init__(self, device):
            self.device = device

        def isOpened(self):
            return True

        def set(self, prop, value):
            asked.append((self.device, prop, value))
            return True

        def read(self):  # a recording's first picture is read as it opens
            return True, np.zeros((4, 4, 3), np.uint8)

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Capture)
    OpenCVSource(0).close()
    OpenCVSource("/dev/video2").close()
    path = tmp_path / "game.avi"
    path.write_bytes(b"x")
    OpenCVSource(str(path)).close()
    assert [(d, v) for d, p, v in asked if p == cv2.CAP_PROP_BUFFERSIZE] == \
        [(0, 1), ("/dev/video2", 1)]


# ------------------------------------------------------------------ configuration


@pytest.mark.parametrize("config, words", [
    ({"kind": "webcam"}, "unknown"),
    ({}, "unknown"),
    ("opencv", "table of settings"),
    ({"kind": "opencv", "device": -1}, "device"),
    ({"kind": "opencv", "device": 0, "colour": 3}, "'colour' is unknown"),
    ({"kind": "folder"}, "needs a path"),
    ({"kind": "picamera2", "size": [640]}, "two positive numbers"),
    ({"kind": "picamera2", "exposure_us": "fast"}, "a number of 0 or more"),
    ({"kind": "synthetic", "colour": "red"}, "'colour' is unknown for kind 'synthetic'"),
])
def test_bad_configuration_names_the_setting(config, words):
    with pytest.raises(SourceConfigError, match=words):
        check_config(config)
    with pytest.raises(SourceConfigError):
        open_source(config)


def test_parse_source_words(tmp_path):
    assert parse_source("opencv") == {"kind": "opencv", "device": 0}
    assert parse_source("opencv:2") == {"kind": "opencv", "device": 2}
    assert parse_source("3") == {"kind": "opencv", "device": 3}
    assert parse_source("opencv:game.mp4") == {"kind": "opencv", "device": "game.mp4"}
    assert parse_source(f"folder:{tmp_path}") == {"kind": "folder", "path": str(tmp_path)}
    assert parse_source(str(tmp_path)) == {"kind": "folder", "path": str(tmp_path)}
    assert parse_source("synthetic:seed=3,noise=0.5") == {
        "kind": "synthetic", "seed": 3, "noise": 0.5}
    assert parse_source("picamera2:size=1280x960,detect_on_lores=true,lores=640x480") == {
        "kind": "picamera2", "size": [1280, 960], "detect_on_lores": True, "lores": [640, 480]}
    with pytest.raises(SourceConfigError, match="not a camera kind"):
        parse_source("no-such-thing")
    # a file or folder name mistyped is said to be missing, not "not a camera kind"
    for name in ("game.mp4", f"{tmp_path}/frames"):
        with pytest.raises(SourceConfigError, match="there is no such file or folder"):
            parse_source(name)
    # ... but a camera kind mistyped is still one, options with dots or not
    for name in ("picamra2:colour_gains=1.5,1.2", "v4l2:/dev/video0"):
        with pytest.raises(SourceConfigError, match="not a camera kind"):
            parse_source(name)
    with pytest.raises(SourceConfigError, match="name=value"):
        parse_source("synthetic:seed")


def test_webcams_streams_and_home_folders_as_people_write_them(tmp_path, monkeypatch):
    """/dev/video0 (Linux's own name for a webcam) was refused as "no such file or folder"
    when it existed; a stream's address as "not a camera kind"; '~' after folder: or
    --source= (where the shell leaves it) as a folder that does not exist."""
    for device in ("/dev/video0", "/dev/null", "rtsp://192.168.1.20:8554/cam",
                   "http://phone.local:8080/video"):
        assert parse_source(device) == {"kind": "opencv", "device": device}
    assert parse_source("opencv: 1") == {"kind": "opencv", "device": 1}
    assert parse_source("/dev/shm") == {"kind": "folder", "path": "/dev/shm"}  # a folder
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "1.png"), solid(9))
    for spec in ("folder:~/frames", "~/frames"):
        config = parse_source(spec)
        assert config["kind"] == "folder"
        assert int(make_source(config).read().image[0, 0, 0]) == 9
    video = tmp_path / "game.avi"  # opencv:~/game.avi, a video in the home folder
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for _ in range(3):
        writer.write(np.full((48, 64, 3), 200, np.uint8))
    writer.release()
    config = parse_source("opencv:~/game.avi")
    assert config == {"kind": "opencv", "device": str(video)}
    source = make_source({"kind": "opencv", "device": "~/game.avi"})  # as a settings file says
    try:
        assert source.read().image.shape[:2] == (48, 64)
    finally:
        source.close()
    config = {"kind": "opencv", "device": "0"}  # a number written in quotes in a settings file
    assert check_config(config) == {"device": 0}
    for seed in ("x", 1.5, -1, True):
        with pytest.raises(SourceConfigError, match=r"seed = .*: give a whole number"):
            check_config({"kind": "synthetic", "seed": seed})


@pytest.mark.parametrize(("spec", "said"), [
    ("synthetic:blur=1e9", r"blur = 1000000000.0: give a number from 0 to 10.0, e.g. blur=0.6"),
    ("synthetic:noise=1e300", r"noise = 1e\+300: give a number from 0 to 100.0"),
    ("synthetic:tilt=2", r"tilt = 2: give a number from 0 to 0.6"),
    ("synthetic:fps=500", r"fps = 500: give a number above 0 and up to 120.0, e.g. fps=15.0"),
    ("synthetic:size=10x10", r"size = \[10, 10\]: give a width and height in pixels, each from "
                             r"32 to 4096, e.g. size=640x480"),
    ("synthetic:size=-640x480", r"size = '-640x480': .* e.g. size=640x480$"),
])
def test_a_synthetic_setting_out_of_its_range_is_refused(spec, said):
    """blur=1e9 passed the check and failed inside OpenCV's blur, retried as a camera gone;
    noise and tilt of 1e300 overflowed. The size's example was the settings file's
    [640, 480], which the command line does not take."""
    with pytest.raises(SourceConfigError, match=said):
        check_config(parse_source(spec))


def test_the_synthetic_camera_lays_cards_in_the_slots_from_the_start():
    """camera-check on the synthetic camera never showed a card: nobody lays one there."""
    from vision.synthetic import ManualClock

    source = make_source(parse_source("synthetic:a=ghost,b=cook,seed=4"), clock=ManualClock())
    frame = source.read()
    assert frame is not None and source.lying() == {"a": "ghost", "b": "cook"}
    assert sorted(card.label for card in source.truth) == ["cook", "ghost"]
    for spec, said in (("synthetic:a=ghoul", "a = 'ghoul': give the card to lay in slot a, one "
                                             "of butler, cleaner, cook, ghost"),
                       ("synthetic:b=3", "b = 3: give the card to lay in slot b")):
        with pytest.raises(SourceConfigError, match=said):
            check_config(parse_source(spec))


@pytest.mark.parametrize("word", ["nan", "inf", "-inf"])
def test_a_camera_number_that_is_no_number_is_refused(word):
    """``nan`` and ``inf`` read as numbers (Python's float). A Pi camera's exposure of nan or
    inf passed the check and would have reached the camera's driver; the synthetic camera's
    settings were checked already."""
    with pytest.raises(SourceConfigError, match=r"noise = .*: give a number of 0 or more"):
        check_config(parse_source(f"synthetic:noise={word}"))
    with pytest.raises(SourceConfigError, match=r"exposure_us = .*: give a number of 0 or more"):
        check_config(parse_source(f"picamera2:exposure_us={word}"))


def test_camera_config_from_toml(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "opencv"\ndevice = 1\nwidth = 640\n')
    assert parse_source(str(path)) == {"kind": "opencv", "device": 1, "width": 640}
    (tmp_path / "bad.toml").write_text("[camera\nkind=")
    with pytest.raises(SourceConfigError, match=r"has no \[camera\] table: its mistake on line "
                                                r"1 \(\[camera\): Expected '\]'"):
        load_camera_config(tmp_path / "bad.toml")
    (tmp_path / "empty.toml").write_text("[other]\n")
    with pytest.raises(SourceConfigError, match=r"no \[camera\] table$"):
        load_camera_config(tmp_path / "empty.toml")
    # another mistake of the file is not blamed for the missing table
    (tmp_path / "other.toml").write_text("language = ko\n[other]\n")
    with pytest.raises(SourceConfigError, match=r"no \[camera\] table$"):
        load_camera_config(tmp_path / "other.toml")
    with pytest.raises(SourceConfigError, match="does not exist"):
        load_camera_config(tmp_path / "none.toml")


def test_camera_settings_files_as_editors_and_mistakes_leave_them(tmp_path):
    """A byte order mark (Notepad) is read; a folder named .toml was a traceback, and so was
    a file nested too deeply."""
    (tmp_path / "bom.toml").write_bytes(b'\xef\xbb\xbf[camera]\nkind = "opencv"\n')
    assert load_camera_config(tmp_path / "bom.toml") == {"kind": "opencv"}
    (tmp_path / "folder.toml").mkdir()
    with pytest.raises(SourceConfigError, match="folder.toml' cannot be read: Is a directory"):
        parse_source(str(tmp_path / "folder.toml"))
    (tmp_path / "deep.toml").write_text("x = " + "[" * 100_000 + "\n")
    with pytest.raises(SourceConfigError, match="has a mistake: its values are nested too"):
        load_camera_config(tmp_path / "deep.toml")


# ------------------------------------------------------------------ resilience


class FlakySource:
    """Gives `good` frames, then fails as if unplugged."""

    def __init__(self, good: int) -> None:
        self.good = good
        self.closed = False

    def read(self):
        if self.good == 0:
            raise CameraError("The camera stopped giving pictures: was it unplugged?")
        self.good -= 1
        return Frame(solid(9), 0.0)

    def close(self):
        self.closed = True


def test_missing_camera_is_retried_with_backoff_and_never_raises():
    clock = FakeClock()
    attempts = []
    plugged = {"in": False}

    def opener():
        attempts.append(clock.now)
        if not plugged["in"]:
            raise CameraError("No camera answers at video device 0: is it plugged in?")
        return FlakySource(good=100)

    src = ResilientSource(opener, clock=clock, sleep=clock.sleep, first_delay=1, max_delay=4)
    assert src.read() is None
    assert src.status == RECONNECTING
    assert "plugged in" in src.message and "Trying again in 1 s" in src.message
    assert src.read() is None and len(attempts) == 1  # too early to retry
    for _ in range(5):
        clock.now += 10
        assert src.read() is None
    gaps = [round(b - a) for a, b in zip(attempts, attempts[1:], strict=False)]
    assert len(attempts) == 6
    assert "Trying again in 4 s" in src.message  # capped at max_delay
    plugged["in"] = True
    clock.now += 4
    frame = src.read()
    assert frame is not None and src.status == OK and src.failures == 0
    assert "working" in src.message
    assert gaps == [10] * 5


def test_backoff_doubles_then_caps():
    clock = FakeClock()
    attempts = []

    def opener():
        attempts.append(clock.now)
        raise CameraError("busy")

    src = ResilientSource(opener, clock=clock, sleep=clock.sleep, first_delay=0.5, max_delay=4)
    assert src.wait_frame(timeout=20) is None
    gaps = [b - a for a, b in zip(attempts, attempts[1:], strict=False)]
    assert gaps[:5] == [0.5, 1, 2, 4, 4]
    assert clock.now == pytest.approx(120.0)


def test_unplugged_camera_reconnects_and_resets_the_backoff():
    clock = FakeClock()
    made: list[FlakySource] = []

    def opener():
        made.append(FlakySource(good=2))
        return made[-1]

    src = ResilientSource(opener, clock=clock, sleep=clock.sleep, first_delay=2)
    assert src.read() is not None and src.read() is not None
    assert src.read() is None
    assert src.status == RECONNECTING and "unplugged" in src.message
    assert made[0].closed
    clock.now += 2
    assert src.read() is not None and src.status == OK and len(made) == 2
    src.read()
    assert src.read() is None
    assert "Reconnecting in 2 s" in src.message  # backoff started over after success


def test_unexpected_errors_are_camera_problems_too():
    clock = FakeClock()

    class Broken:
        def read(self):
            raise OSError("device vanished")

        def close(self):
            raise OSError("still vanished")

    src = ResilientSource(Broken, clock=clock, sleep=clock.sleep)
    assert src.read() is None
    assert src.status == RECONNECTING and "device vanished" in src.message


def test_recording_end_is_not_a_failure(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), solid(3))
    clock = FakeClock()
    src = open_source({"kind": "folder", "path": str(tmp_path)}, clock=clock, sleep=clock.sleep)
    frames = list(src.frames())
    assert len(frames) == 1 and src.status == ENDED
    assert src.read() is None and src.wait_frame(timeout=5) is None


def test_open_source_of_a_missing_folder_keeps_trying(tmp_path):
    clock = FakeClock()
    folder = tmp_path / "later"
    src = open_source({"kind": "folder", "path": str(folder)}, clock=clock, sleep=clock.sleep,
                      first_delay=1)
    assert src.read() is None and "does not exist" in src.message
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), solid(3))
    assert src.wait_frame(timeout=10) is not None


# ------------------------------------------------------------------ picamera2 (faked)


class FakePicamera2:
    cameras = [{"Model": "imx708"}]
    busy = False
    instances: list[FakePicamera2] = []

    @classmethod
    def global_camera_info(cls):
        return cls.cameras

    def __init__(self, camera_num=0):
        if self.busy:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        self.camera_controls = {"AeEnable": (), "ExposureTime": (), "AnalogueGain": (),
                                "AwbEnable": (), "ColourGains": ()}  # no autofocus
        self.set: list[dict] = []
        self.started = self.closed = False
        self.fail_capture = False
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, lores=None, controls=None):
        return {"main": main, "lores": lores, "controls": controls}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, stream="main"):
        if self.fail_capture:
            raise RuntimeError("camera frontend has timed out")
        w, h = self.config[stream]["size"]
        if stream == "lores":
            yuv = np.zeros((h * 3 // 2, w), np.uint8)
            yuv[:h] = 200
            yuv[h:] = 128
            return yuv
        return np.full((h, w, 3), (10, 20, 30), np.uint8)

    def capture_metadata(self):
        return {"ExposureTime": 12345, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}

    def set_controls(self, controls):
        self.set.append(controls)

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    FakePicamera2.cameras = [{"Model": "imx708"}]
    FakePicamera2.busy = False
    FakePicamera2.instances = []
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera2_fixed_exposure_white_balance_and_lores(fake_picamera2):
    src = make_source({"kind": "picamera2", "size": [320, 240], "lores": [160, 120],
                       "detect_on_lores": True, "exposure_us": 8000, "analogue_gain": 1.5,
                       "colour_gains": [1.9, 1.4], "lens_position": 2.0})
    cam = fake_picamera2.instances[-1]
    assert cam.started
    assert cam.config["main"] == {"size": (320, 240), "format": "RGB888"}
    assert cam.config["lores"] == {"size": (160, 120), "format": "YUV420"}
    assert cam.config["controls"] == {"AeEnable": False, "ExposureTime": 8000,
                                      "AnalogueGain": 1.5, "AwbEnable": False,
                                      "ColourGains": (1.9, 1.4)}  # no focus control: dropped
    small = src.read()
    assert small.image.shape == (120, 160, 3) and small.image.min() > 190  # grey Y=200
    assert np.ptp(small.image.reshape(-1, 3), axis=0).max() == 0
    full = src.read_full()
    assert full.image.shape == (240, 320, 3) and tuple(full.image[0, 0]) == (10, 20, 30)
    src.close()
    assert cam.closed and not cam.started


def test_picamera2_locks_what_it_found_after_settling(fake_picamera2):
    src = make_source({"kind": "picamera2", "size": [64, 48], "lock_after_frames": 3})
    cam = fake_picamera2.instances[-1]
    src.read(), src.read()
    assert cam.set == []
    src.read()
    assert cam.set == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 12345,
                        "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}]


def test_picamera2_missing_busy_or_failing_says_so(fake_picamera2, monkeypatch):
    fake_picamera2.cameras = []
    with pytest.raises(CameraError, match="No Raspberry Pi camera is connected"):
        make_source({"kind": "picamera2"})
    fake_picamera2.cameras = [{}]
    fake_picamera2.busy = True
    with pytest.raises(CameraError, match="busy"):
        make_source({"kind": "picamera2"})
    fake_picamera2.busy = False
    clock = FakeClock()
    src = open_source({"kind": "picamera2", "size": [64, 48]}, clock=clock, sleep=clock.sleep)
    assert src.read() is not None
    fake_picamera2.instances[-1].fail_capture = True
    assert src.read() is None
    assert src.status == RECONNECTING and "stopped giving pictures" in src.message


def test_picamera2_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        make_source({"kind": "picamera2"})


def test_a_setting_the_camera_refuses_stops_retrying_without_raising():
    clock = FakeClock()
    calls = []

    def opener():
        calls.append(1)
        raise SourceConfigError("camera setting size = 'huge': give two positive numbers")

    src = ResilientSource(opener, clock=clock, sleep=clock.sleep)
    assert src.wait_frame(timeout=60) is None
    assert src.status == MISCONFIGURED and "size = 'huge'" in src.message
    assert calls == [1] and list(src.frames()) == []


def test_a_camera_left_unplugged_is_said_ever_more_rarely(caplog):
    """Each failed try was logged: a webcam left unplugged filled the screen of `enroll`
    (13 lines a question) and the journal. Said when the reason changes, and after 1, 2, 4,
    8 ... failures; ``reason`` is what is wrong, for a caller that gives up."""
    import logging

    clock = FakeClock()
    reasons = ["Busy."] * 10 + ["Gone."]

    def opener():
        raise CameraError(reasons.pop(0))

    src = ResilientSource(opener, clock=clock, sleep=clock.sleep, first_delay=1, max_delay=1)
    with caplog.at_level(logging.WARNING, logger="vision.sources"):
        for _ in range(11):
            assert src.read() is None
            clock.now += 1
    said = [r.getMessage() for r in caplog.records]
    assert said == ["Busy. Trying again in 1 s."] * 4 + ["Gone. Trying again in 1 s."]
    assert src.failures == 11 and src.reason == "Gone."


def test_pictures_taken_out_of_the_folder_after_it_was_listed_are_skipped(tmp_path, caplog):
    for name, value in (("a.png", 1), ("b.png", 2), ("c.png", 3)):
        cv2.imwrite(str(tmp_path / name), solid(value))
    src = FolderSource(tmp_path, loop=True)
    (tmp_path / "b.png").unlink()
    with caplog.at_level("WARNING", logger="vision.sources"):
        got = [int(src.read().image[0, 0, 0]) for _ in range(4)]
    assert got == [1, 3, 1, 3]
    assert f"skipping {tmp_path / 'b.png'}: it is no longer there" in caplog.messages
    assert caplog.messages.count(f"skipping {tmp_path / 'b.png'}: it is no longer there") == 1
    for name in ("a.png", "c.png"):
        (tmp_path / name).unlink()
    with pytest.raises(CameraError, match="No picture in the folder .* can be read now"):
        src.read()  # all gone: a camera gone, not a folder read for ever in vain
    assert [p.name for p in src.skipped] == ["b.png", "a.png", "c.png"]


def test_a_looping_folder_emptied_then_filled_again_is_a_camera_gone_then_back(tmp_path):
    """Emptied while the table ran, the folder was still 'working', 40 warnings a second
    were logged, and pictures put back were never seen (the folder was listed once)."""
    cv2.imwrite(str(tmp_path / "a.png"), solid(1))
    clock = FakeClock()
    src = ResilientSource(lambda: FolderSource(tmp_path, loop=True), clock=clock,
                          sleep=lambda s: None)
    assert int(src.read().image[0, 0, 0]) == 1 and src.status == OK
    (tmp_path / "a.png").unlink()
    assert src.read() is None and src.status == RECONNECTING
    assert "can be read now" in src.message
    cv2.imwrite(str(tmp_path / "b.png"), solid(2))
    clock.now += 60
    assert int(src.read().image[0, 0, 0]) == 2 and src.status == OK


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF block saying how the camera was held (6: turned a quarter)."""
    import struct

    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_a_phone_photo_in_the_folder_is_turned_as_a_viewer_shows_it(tmp_path):
    """The folder camera ignored EXIF orientation, where recognize follows it: camera-check
    saved a phone's photo on its side."""
    picture = np.zeros((60, 80, 3), np.uint8)
    picture[:, :40] = 255  # left half white
    ok, jpeg = cv2.imencode(".jpg", picture)
    (tmp_path / "phone.jpg").write_bytes(_with_orientation(jpeg.tobytes(), 6))
    frame = FolderSource(tmp_path).read()
    assert frame.image.shape == (80, 60, 3)  # turned a quarter, as a viewer shows it
    assert frame.image[:30].mean() > 200 and frame.image[50:].mean() < 50  # white on top


def test_a_mistake_elsewhere_in_the_tables_settings_does_not_stop_its_camera(tmp_path, caplog):
    """docs/kiosk.md has staff run camera-check --source /etc/abraca-companion/config.toml: a
    typo outside [camera] made it refuse a file the table itself reads."""
    path = tmp_path / "config.toml"
    path.write_text('language = ko\n[camera]\nkind = "synthetic"\n')
    assert parse_source(str(path)) == {"kind": "synthetic"}
    assert "has a mistake on line 1 (language = ko)" in caplog.text


def test_a_network_camera_is_given_seconds_not_ffmpegs_half_minute(monkeypatch):
    """Read on the table's one loop, a stream that stops answering held the screen for
    FFmpeg's 30 s, the service's watchdog time."""
    opened = []

    class Capture:
        def __init__(self, *args):
            opened.append(args)

        def isOpened(self):
            return False

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Capture)
    with pytest.raises(CameraError):
        OpenCVSource("rtsp://192.168.1.20:8554/cam")
    [(_, _, params)] = opened
    waits = dict(zip(params[::2], params[1::2], strict=True))
    assert waits == {cv2.CAP_PROP_OPEN_TIMEOUT_MSEC: 3000, cv2.CAP_PROP_READ_TIMEOUT_MSEC: 3000}
    opened.clear()
    with pytest.raises(CameraError):
        OpenCVSource(57)
    assert opened == [(57,)]  # a webcam as before
