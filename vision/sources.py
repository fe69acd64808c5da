"""Camera sources, chosen by configuration, and a wrapper that survives a camera coming and going.

A configuration is a small mapping, e.g. the ``[camera]`` table of a TOML file::

    {"kind": "picamera2", "size": [1280, 960], "lores": [640, 480], "exposure_us": 8000}
    {"kind": "opencv", "device": 0}              # a USB webcam
    {"kind": "opencv", "device": "game.mp4"}     # a video file
    {"kind": "folder", "path": "frames/", "loop": true}
    {"kind": "synthetic", "seed": 3}

``open_source(config)`` gives a ``ResilientSource``: its ``read()`` never raises, returns None
while the camera is missing or reconnecting, and says what is wrong in ``message``.
``make_source(config)`` opens the camera directly and raises ``CameraError`` when it cannot.

OpenCV and picamera2 are imported only when a source that needs them is opened.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from companion.app.i18n import Notice, notice_of
from vision.frames import CameraError, CameraSource, Frame
from vision.images import opencv_name

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class SourceConfigError(ValueError):
    """The camera configuration is wrong. The message names the bad setting. A setting's
    check raises it with a Notice, so the table's screen says it in the table's language; the
    command line's own words (a --source word, a settings file named there) stay English."""


def _as_bgr(image: np.ndarray) -> np.ndarray:
    """Any 8-bit picture (grey, BGR, BGRA) as a 3-channel BGR uint8 array."""
    import cv2

    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(float(image.max()), 1.0))
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


# --------------------------------------------------------------------------- folder of images


class FolderSource:
    """The pictures of a folder, in name order, one per read(); None once all were given
    (unless ``loop``). Pictures that cannot be read are skipped with a warning."""

    def __init__(self, path: str | Path, *, loop: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise CameraError(f"{str(self.path)!r} is a file, not a folder of pictures.")
        if not self.path.is_dir():
            raise CameraError(f"The picture folder {str(self.path)!r} does not exist.")
        self.files = sorted(p for p in self.path.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise CameraError(f"The picture folder {str(self.path)!r} holds no pictures "
                              f"({', '.join(IMAGE_SUFFIXES)}).")
        self.loop = loop
        self._clock = clock
        self._next = 0
        self.skipped: list[Path] = []

    @property
    def ended(self) -> bool:
        return not self.loop and self._next >= len(self.files)

    def read(self) -> Frame | None:

        from vision.images import PictureTooLarge, read_image

        for _ in range(len(self.files)):
            if self._next >= len(self.files):
                if not self.loop:
                    return None
                self._next = 0
            path = self.files[self._next]
            self._next += 1
            why = "not a picture that can be read"
            try:
                # As recognize reads a picture: a phone photo turned as its EXIF says, a
                # 16-bit one scaled as 16 bits (not by its own brightest pixel).
                image = read_image(path)
            except PictureTooLarge:
                image, why = None, "it is too large to read, or damaged"
            except OSError as err:  # gone, or unreadable, since the folder was listed
                image, why = None, "it is no longer there" if isinstance(
                    err, FileNotFoundError) else f"it cannot be read ({err.strerror or err})"
            if image is None or image.size == 0:
                if path not in self.skipped:  # said once, not on each pass of a loop
                    log.warning("skipping %s: %s", path, why)
                    self.skipped.append(path)
                continue
            return Frame(_as_bgr(image), self._clock())
        if self.loop:
            # Not one picture left to read (the folder emptied while looping): a camera gone,
            # to be opened again (the folder listed anew) when pictures are back.
            raise CameraError(f"No picture in the folder {str(self.path)!r} can be read now "
                              "(taken away, or none is a picture that can be read).")
        return None

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- OpenCV VideoCapture


STREAM_WAIT_MS = 3000  # how long a network camera may take to open, or to give a picture


class OpenCVSource:
    """A USB webcam (device index) or a video file through OpenCV's VideoCapture.

    A video file gives None once it has ended (``ended`` turns true), or starts again with
    ``loop``. A webcam that stops giving pictures raises CameraError (it was unplugged).
    """

    def __init__(self, device: int | str = 0, *, width: int | None = None,
                 height: int | None = None, fps: float | None = None, loop: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import cv2

        self.device = device
        self.is_file = is_recording({"kind": "opencv", "device": device})
        self.loop = loop
        self.ended = False
        self._clock = clock
        if self.is_file and Path(device).is_dir():
            raise SourceConfigError(Notice("notice.camera_video_folder", device=repr(device)))
        if self.is_file and not Path(device).is_file():
            # A setting to fix, not a camera to wait for (opencv:O typed for opencv:0).
            hint = Notice("notice.camera_webcam_hint") if len(str(device)) <= 3 else ""
            raise SourceConfigError(Notice("notice.camera_video_missing", device=repr(device),
                                           hint=hint))
        if isinstance(device, str) and (why := opencv_name(device)) is not None:
            raise SourceConfigError(  # not retried
                Notice("notice.camera_video_unopenable", why=why))
        if isinstance(device, str) and "://" in device:
            # A network camera read on the table's one loop: an answer that never comes must
            # not hold the screen (or the service's watchdog) for FFmpeg's 30 s.
            wait = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_WAIT_MS,
                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, STREAM_WAIT_MS]
            self._cap = cv2.VideoCapture(device, cv2.CAP_ANY, wait)
        else:
            self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            if self.is_file:  # waiting will not mend it
                raise SourceConfigError(Notice("notice.camera_video_unplayable",
                                               device=repr(device)))
            if isinstance(device, str) and "://" in device:
                raise CameraError(f"No camera answers at {device}: is the address right, and "
                                  "is the camera on and on this network?")
            raise CameraError(f"No camera answers at video device {device}: is it plugged in, "
                              "and is no other program using it?")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        self._first = None  # a recording's first picture, read as it opens
        if self.is_file:
            # A file that opens but holds no picture (notes saved as .png, a torn video) is a
            # setting to fix, not a recording that has ended.
            ok, self._first = self._cap.read()
            if not ok or self._first is None:
                self._cap.release()
                raise SourceConfigError(Notice("notice.camera_video_unplayable",
                                               device=repr(device)))
        else:
            # As few frames waiting as the driver allows: a quiet table reads its camera only
            # a few times a second, and each read should show the table now, not a second ago.
            self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def read(self) -> Frame | None:
        import cv2

        if self.ended:
            return None
        if self._first is not None:
            image, self._first = self._first, None
            return Frame(_as_bgr(image), self._clock())
        ok, image = self._cap.read()
        if not ok or image is None:
            if self.is_file:
                if self.loop and self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0):
                    ok, image = self._cap.read()
                if not ok or image is None:
                    self.ended = True
                    return None
            else:
                raise CameraError(f"The camera at video device {self.device} stopped giving "
                                  "pictures: was it unplugged?")
        return Frame(_as_bgr(image), self._clock())

    def close(self) -> None:
        self._cap.release()


# --------------------------------------------------------------------------- Raspberry Pi camera

# libcamera's AfModeEnum: 0 Manual, 1 Auto, 2 Continuous.
_AF_MODE_MANUAL = 0

_PICAMERA2_MISSING = (
    "The Raspberry Pi camera library (picamera2) is not installed. On Raspberry Pi OS: "
    "sudo apt install python3-picamera2, and create the virtual environment with "
    "--system-site-packages."
)


class PiCamera2Source:
    """The Raspberry Pi camera through picamera2.

    ``size``: the main stream (BGR). ``lores``: an optional low-resolution stream; with
    ``detect_on_lores`` read() gives it (as BGR) and ``read_full()`` gives the main stream,
    so cheap per-frame work runs on small pictures and recognition can use the big one.
    For stable colour, fix the camera instead of letting it adapt: ``exposure_us`` and
    ``analogue_gain`` (exposure), ``colour_gains`` (red, blue: white balance) and
    ``lens_position`` (dioptres; cameras with autofocus). ``lock_after_frames``: let the
    camera adapt for that many frames, then freeze the exposure and white balance it found.
    """

    def __init__(self, *, camera_num: int = 0, size: tuple[int, int] = (1280, 960),
                 lores: tuple[int, int] | None = None, detect_on_lores: bool = False,
                 exposure_us: int | None = None, analogue_gain: float | None = None,
                 colour_gains: tuple[float, float] | None = None,
                 lens_position: float | None = None, lock_after_frames: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(_PICAMERA2_MISSING) from exc
        if detect_on_lores and lores is None:
            raise SourceConfigError(Notice("notice.camera_lores_needed"))
        self._clock = clock
        self.detect_on_lores = detect_on_lores
        self._lock_after = lock_after_frames
        self._frames = 0
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # the library itself fails when libcamera is broken
            raise CameraError(f"The Raspberry Pi camera system is not working: {exc}") from exc
        if len(cameras) <= camera_num:
            raise CameraError("No Raspberry Pi camera is connected"
                              + (f" as camera {camera_num}" if camera_num else "")
                              + ": check the ribbon cable, then restart.")
        try:
            self._cam = Picamera2(camera_num)
        except Exception as exc:
            raise CameraError("The Raspberry Pi camera is busy: another program is using it "
                              f"(close it, or restart). Details: {exc}") from exc
        try:
            streams: dict[str, Any] = {"main": {"size": tuple(size), "format": "RGB888"}}
            if lores is not None:
                streams["lores"] = {"size": tuple(lores), "format": "YUV420"}
            config = self._cam.create_video_configuration(**streams,
                                                          controls=self._fixed_controls(
                                                              exposure_us, analogue_gain,
                                                              colour_gains, lens_position))
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:
            self._cam.close()
            raise CameraError(f"The Raspberry Pi camera would not start: {exc}") from exc

    def _fixed_controls(self, exposure_us, analogue_gain, colour_gains, lens_position) -> dict:
        available = getattr(self._cam, "camera_controls", None) or {}
        wanted: dict[str, Any] = {}
        if exposure_us is not None or analogue_gain is not None:
            wanted["AeEnable"] = False
            if exposure_us is not None:
                wanted["ExposureTime"] = int(exposure_us)
            if analogue_gain is not None:
                wanted["AnalogueGain"] = float(analogue_gain)
        if colour_gains is not None:
            wanted["AwbEnable"] = False
            wanted["ColourGains"] = (float(colour_gains[0]), float(colour_gains[1]))
        if lens_position is not None:
            wanted["AfMode"] = _AF_MODE_MANUAL
            wanted["LensPosition"] = float(lens_position)
        if available:
            for name in [n for n in wanted if n not in available]:
                log.warning("this camera has no %s control; ignored", name)
                del wanted[name]
        return wanted

    def _capture(self, stream: str) -> np.ndarray:
        import cv2

        try:
            array = self._cam.capture_array(stream)
        except Exception as exc:
            raise CameraError(f"The Raspberry Pi camera stopped giving pictures: {exc}") from exc
        if stream == "lores":  # YUV420: height*3/2 rows
            return cv2.cvtColor(array, cv2.COLOR_YUV2BGR_I420)
        return _as_bgr(array)

    def _maybe_lock(self) -> None:
        self._frames += 1
        if self._lock_after is None or self._frames != self._lock_after:
            return
        try:
            meta = self._cam.capture_metadata()
            controls = {"AeEnable": False, "AwbEnable": False}
            for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
                if name in meta:
                    controls[name] = meta[name]
            self._cam.set_controls(controls)
        except Exception as exc:
            log.warning("could not freeze exposure and white balance: %s", exc)

    def read(self) -> Frame | None:
        image = self._capture("lores" if self.detect_on_lores else "main")
        self._maybe_lock()
        return Frame(image, self._clock())

    def read_full(self) -> Frame:
        """A picture from the main (full-size) stream."""
        return Frame(self._capture("main"), self._clock())

    def close(self) -> None:
        try:
            self._cam.stop()
        finally:
            self._cam.close()


# --------------------------------------------------------------------------- configuration

MAX_DEVICE = 999  # a webcam's number (/dev/video0 is 0): 4294967296 failed inside OpenCV

_KINDS: dict[str, tuple[str, ...]] = {
    "picamera2": ("camera_num", "size", "lores", "detect_on_lores", "exposure_us",
                  "analogue_gain", "colour_gains", "lens_position", "lock_after_frames"),
    "opencv": ("device", "width", "height", "fps", "loop"),
    "folder": ("path", "loop"),
    "synthetic": None,  # options go to the synthetic camera as they are
}


def _pair(config: Mapping, key: str) -> None:
    value = config.get(key)
    if value is None:
        return
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0
                       for v in value)):
        raise SourceConfigError(Notice("notice.camera_pair", name=key, value=repr(value)))


def _zero_or_more(config: Mapping, key: str) -> None:
    """Refuses the setting ``key`` when it is given and is not a finite number of 0 or more."""
    value = config.get(key)
    if value is None:
        return
    if (isinstance(value, bool) or not isinstance(value, int | float) or value < 0
            or not math.isfinite(value)):
        raise SourceConfigError(Notice("notice.camera_zero_or_more", name=key,
                                       value=repr(value)))


# (a whole number?, above 0?) -> what a synthetic camera's bad number setting is told.
_SYNTHETIC_NUMBER = {(False, False): "notice.camera_number",
                     (False, True): "notice.camera_number_above",
                     (True, False): "notice.camera_whole",
                     (True, True): "notice.camera_whole_above"}


# The most a synthetic camera's setting may be: beyond, the picture is no table (a blur wider
# than the picture, a camera turned past the mat's edge) or the numbers overflow.
_SYNTHETIC_MOST = {"blur": 10.0, "noise": 100.0, "tilt": 0.6, "settle": 60.0, "fps": 120.0}
_SYNTHETIC_SIDES = (32, 4096)


def _check_synthetic(options: Mapping[str, Any]) -> None:
    import inspect

    try:
        from vision.synthetic import DECK_DIR, SyntheticCamera
    except ImportError:
        return  # said when it is opened
    params = inspect.signature(SyntheticCamera).parameters
    known = [n for n, p in params.items() if p.kind == p.KEYWORD_ONLY and n != "clock"]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise SourceConfigError(Notice("notice.camera_unknown", name=repr(unknown[0]),
                                       kind=repr("synthetic"), known=", ".join(known)))
    labels: list[str] = []
    for key, value in options.items():
        default = params[key].default
        if isinstance(default, str):  # a card lying in a slot from the start
            # The deck's cards by their files' names: its pictures are decoded once, by the
            # camera, not here as well for each slot.
            from vision.recognize import reference_files

            labels = labels or sorted(reference_files(DECK_DIR))
            if not isinstance(value, str) or (value and value not in labels):
                raise SourceConfigError(Notice("notice.camera_card_unknown", name=key,
                                               value=repr(value), cards=", ".join(labels)))
        elif key == "size":
            least, most = _SYNTHETIC_SIDES
            if (not isinstance(value, list | tuple) or len(value) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool)
                               and least <= v <= most for v in value)):
                raise SourceConfigError(Notice("notice.camera_size", value=repr(value)))
        elif isinstance(value, bool) or not isinstance(value, type(default) | int) or (
                not math.isfinite(value) or value < 0 or (key == "fps" and value == 0)):
            whole = isinstance(default, int)
            said = _SYNTHETIC_NUMBER[whole, key == "fps"]  # fps: above 0, not 0 or more
            raise SourceConfigError(Notice(said, name=key, value=repr(value),
                                           example=3 if whole else default))
        elif value > _SYNTHETIC_MOST.get(key, math.inf):
            said = "notice.camera_number_above_most" if key == "fps" else \
                "notice.camera_number_most"
            raise SourceConfigError(Notice(said, name=key, value=repr(value),
                                           most=_SYNTHETIC_MOST[key], example=default))


def check_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The configuration, checked: a copy without "kind", or SourceConfigError."""
    if not isinstance(config, Mapping):
        raise SourceConfigError(Notice("notice.camera_not_table", config=repr(config)))
    kind = config.get("kind")
    if kind not in _KINDS:
        raise SourceConfigError(Notice("notice.camera_kind_unknown", kind=repr(kind),
                                       choices=", ".join(_KINDS)))
    options = {k: v for k, v in config.items() if k != "kind"}
    allowed = _KINDS[kind]
    if allowed is not None:
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise SourceConfigError(Notice("notice.camera_unknown", name=repr(unknown[0]),
                                           kind=repr(kind), known=", ".join(allowed)))
    if kind == "folder" and not isinstance(options.get("path"), str | Path):
        raise SourceConfigError(Notice("notice.camera_folder_path"))
    if kind == "opencv":
        device = options.get("device", 0)
        if isinstance(device, str) and device.strip().isdigit():
            device = options["device"] = int(device)  # device = "0": the webcam, not a file
        if isinstance(device, bool) or not isinstance(device, int | str) or (
                isinstance(device, int) and not 0 <= device <= MAX_DEVICE):
            raise SourceConfigError(Notice("notice.camera_device", value=repr(device)))
        for key in ("width", "height", "fps"):
            _zero_or_more(options, key)
    if kind == "synthetic":
        _check_synthetic(options)
    if kind == "picamera2":
        for key in ("size", "lores", "colour_gains"):
            _pair(options, key)
        for key in ("exposure_us", "analogue_gain", "lens_position", "lock_after_frames",
                    "camera_num"):
            _zero_or_more(options, key)
        # Found here, before the camera opens: found on opening, the table only had a
        # camera that never answers to show.
        if options.get("detect_on_lores") and options.get("lores") is None:
            raise SourceConfigError(Notice("notice.camera_lores_needed"))
        for key in ("size", "lores", "colour_gains"):
            if options.get(key) is not None:
                cast = float if key == "colour_gains" else int
                options[key] = tuple(cast(v) for v in options[key])
    return options


def parse_source(spec: str) -> dict[str, Any]:
    """A camera configuration from a command-line word.

    ``picamera2``, ``opencv`` or ``opencv:1`` (device), ``opencv:game.mp4`` (video file),
    ``folder:DIR``, ``synthetic`` or ``synthetic:seed=3,noise=5``, a bare number (webcam),
    a folder or video path, or ``FILE.toml`` (its ``[camera]`` table).
    """
    spec = spec.strip()
    if not spec:
        raise SourceConfigError("empty camera choice: give e.g. picamera2, opencv:0, "
                                "folder:DIR or synthetic")
    kind, _, rest = spec.partition(":")
    rest = rest.strip()
    if kind in ("picamera2", "opencv", "folder", "synthetic"):
        if kind == "picamera2":
            return {"kind": "picamera2", **_options(rest)}
        if kind == "opencv":
            if not rest:
                return {"kind": "opencv", "device": 0}
            return {"kind": "opencv", "device": int(rest) if rest.isdigit() else _home(rest)}
        if kind == "folder":
            if not rest:
                raise SourceConfigError("folder: needs a path, e.g. folder:frames/")
            return {"kind": "folder", "path": _home(rest)}
        return {"kind": "synthetic", **_options(rest)}
    if spec.isdigit():
        return {"kind": "opencv", "device": int(spec)}
    if _live_device(spec) and not Path(spec).is_dir():
        # A webcam's device (/dev/video0: a live camera, waited for while unplugged) or a
        # network stream (rtsp://, http://: a phone used as a webcam), both through OpenCV.
        return {"kind": "opencv", "device": spec}
    spec = _home(spec)
    path = Path(spec)
    if path.suffix.lower() == ".toml":
        return load_camera_config(path)
    if path.is_dir():
        return {"kind": "folder", "path": spec}
    if path.is_file():
        return {"kind": "opencv", "device": spec}
    if ":" not in spec and (path.suffix or "/" in spec):  # a file or folder name, not there
        raise SourceConfigError(f"camera {spec!r}: there is no such file or folder")
    raise SourceConfigError(f"camera {spec!r}: not a camera kind, device number, folder or file "
                            "(try picamera2, opencv:0, folder:DIR or synthetic)")


def _home(path: str) -> str:
    """``path`` with a leading ``~`` made the home folder: the shell leaves it as it is after
    ``folder:`` or ``--source=``."""
    return os.path.expanduser(path) if path.startswith("~") else path


def _options(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise SourceConfigError(f"camera option {item!r}: write it as name=value")
        out[key.strip()] = _value(value.strip())
    return out


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if "x" in text and all(p.isdigit() for p in text.split("x", 1)):
        a, b = text.split("x", 1)
        return [int(a), int(b)]
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def load_camera_config(path: str | Path, section: str = "camera") -> dict[str, Any]:
    """The ``[camera]`` table of a TOML file, read as the table reads its configuration: a
    mistake elsewhere in the file is a warning (logged), not a refusal."""
    from companion.config import read_settings

    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SourceConfigError(f"the settings file {str(path)!r} does not exist") from None
    except OSError as exc:
        raise SourceConfigError(f"the settings file {str(path)!r} cannot be read: "
                                f"{exc.strerror or exc}") from None
    data, warnings = read_settings(raw, repr(str(path)), what="the settings file")
    if data is None:
        raise SourceConfigError(warnings[-1].rstrip("."))
    for warning in warnings:
        log.warning("%s", warning[0].upper() + warning[1:])
    table = data.get(section)
    if not isinstance(table, dict):
        # The mistake that took the table away, if one did (its header broken): not any
        # other mistake of the file.
        why = next((": its mistake on line {line} ({shown}): {said}".format(**w.args)
                    for w in warnings if w.key == "notice.config_line"
                    and w.args["shown"].startswith(f"[{section}")), "")
        raise SourceConfigError(f"the settings file {str(path)!r} has no [{section}] table{why}")
    return table


def is_recording(config: Mapping[str, Any]) -> bool:
    """Whether the source is a recording (pictures in a folder, a video file), not a live
    camera: it runs out, and a picture read from it is one less for later."""
    device = config.get("device")
    return config.get("kind") == "folder" or (
        config.get("kind") == "opencv" and isinstance(device, str) and not _live_device(device))


def _live_device(name: str) -> bool:
    """Whether a camera's name is a live camera's, not a file's: a device node (/dev/video2;
    a folder under /dev such as /dev/shm is the caller's to tell apart) or a stream's address
    (rtsp://..., http://...)."""
    return name.startswith("/dev/") or "://" in name


def make_source(config: Mapping[str, Any], *,
                clock: Callable[[], float] = time.monotonic) -> CameraSource:
    """Open the camera the configuration describes. Raises CameraError or SourceConfigError."""
    options = check_config(config)
    kind = config["kind"]
    if kind == "folder":
        return FolderSource(_home(str(options["path"])), loop=bool(options.get("loop", False)),
                            clock=clock)
    if kind == "opencv":
        device = options.pop("device", 0)
        return OpenCVSource(_home(device) if isinstance(device, str) else device, clock=clock,
                            **options)
    if kind == "picamera2":
        return PiCamera2Source(clock=clock, **options)
    try:
        from vision.synthetic import SyntheticCamera
    except ImportError as exc:
        raise CameraError("The synthetic camera is not available in this installation.") from exc
    for key in ("size",):
        if isinstance(options.get(key), list):
            options[key] = tuple(options[key])
    try:
        return SyntheticCamera(clock=clock, **options)
    except TypeError as exc:
        raise SourceConfigError(Notice("notice.camera_synthetic_refused", options=repr(options),
                                       why=str(exc))) from None


def open_source(config: Mapping[str, Any], *, clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], None] = time.sleep, **backoff: float) -> ResilientSource:
    """The camera the configuration describes, wrapped so that it never crashes the caller.

    A bad configuration raises SourceConfigError at once (retrying cannot fix it); a camera
    that is missing or busy is retried with backoff (see ResilientSource).
    """
    check_config(config)
    return ResilientSource(lambda: make_source(config, clock=clock), clock=clock, sleep=sleep,
                           **backoff)


# --------------------------------------------------------------------------- resilience

STARTING = "starting"
OK = "ok"
RECONNECTING = "reconnecting"
ENDED = "ended"
MISCONFIGURED = "misconfigured"


class ResilientSource:
    """Wraps a way to open a camera; read() never raises.

    While the camera is missing, busy or unplugged, read() returns None, ``status`` is
    "reconnecting" and ``message`` says what is wrong in plain words; it tries again after
    ``first_delay`` seconds, doubling up to ``max_delay``. A recorded source (folder, file)
    that has ended gives status "ended"; a setting the camera refuses gives "misconfigured"
    (no retry: it needs fixing). ``clock`` and ``sleep`` are injectable for tests.
    """

    def __init__(self, opener: Callable[[], CameraSource], *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 first_delay: float = 0.5, max_delay: float = 30.0, factor: float = 2.0) -> None:
        if first_delay <= 0 or max_delay < first_delay or factor < 1:
            raise ValueError(f"backoff first_delay={first_delay}, max_delay={max_delay}, "
                             f"factor={factor}: need 0 < first_delay <= max_delay, factor >= 1")
        self._opener = opener
        self._clock = clock
        self._sleep = sleep
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.factor = factor
        self._source: CameraSource | None = None
        self._delay = first_delay
        self._retry_at = clock()  # try at once
        self.status = STARTING
        self.message = "Starting the camera."
        self.refusal: str | None = None  # a setting refused as the camera opened (a Notice)
        self.failures = 0  # failed attempts in a row
        self._what = ""  # what the last failure was, without when it is tried again
        self._closed = False

    @property
    def source(self) -> CameraSource | None:
        """The camera currently open, if any."""
        return self._source

    @property
    def reason(self) -> str:
        """What is wrong, for a caller that gives up waiting: ``message`` without when the
        camera is tried again."""
        return self._what if self.status == RECONNECTING else self.message

    def _fail(self, exc: BaseException, lost: bool) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # closing a broken camera may fail too; it is gone either way
                pass
            self._source = None
        self.failures += 1
        now = self._clock()
        what = str(exc) if isinstance(exc, CameraError) else f"The camera failed ({exc})."
        self.status = RECONNECTING
        self._retry_at = now + self._delay
        self.message = (f"{what} Trying again in {self._delay:g} s."
                        if not lost else f"{what} Reconnecting in {self._delay:g} s.")
        # Said when it changes, and then ever more rarely (after 1, 2, 4, 8 ... failures):
        # a camera left unplugged does not fill the screen or the journal.
        if what != self._what or self.failures & (self.failures - 1) == 0:
            log.warning("%s", self.message)
        self._what = what
        self._delay = min(self._delay * self.factor, self.max_delay)

    def read(self) -> Frame | None:
        if self._closed or self.status in (ENDED, MISCONFIGURED):
            return None
        if self._source is None:
            if self._clock() < self._retry_at:
                return None
            try:
                self._source = self._opener()
            except SourceConfigError as exc:  # retrying cannot fix a wrong setting
                self.status = MISCONFIGURED
                self.refusal = notice_of(exc)
                self.message = f"Camera setting problem: {exc}"
                log.error("%s", self.message)
                return None
            except Exception as exc:  # any failure to open is a camera problem, retried
                self._fail(exc, lost=False)
                return None
        try:
            frame = self._source.read()
        except Exception as exc:
            self._fail(exc, lost=True)
            return None
        if frame is None:
            if getattr(self._source, "ended", False):
                self.status = ENDED
                self.message = "The recording has ended."
            return None
        if self.status != OK:
            self.status = OK
            self.message = "The camera is working."
            self.failures = 0
            self._delay = self.first_delay
        return frame

    def wait_frame(self, timeout: float = 10.0, poll: float = 0.02) -> Frame | None:
        """Read until a frame comes, the recording ends or ``timeout`` seconds pass."""
        deadline = self._clock() + timeout
        while True:
            frame = self.read()
            if frame is not None or self.status in (ENDED, MISCONFIGURED):
                return frame
            now = self._clock()
            if now >= deadline:
                return None
            wait = poll if self._source is not None else max(self._retry_at - now, poll)
            self._sleep(min(wait, deadline - now))

    def frames(self) -> Iterator[Frame]:
        """Frames until the recording ends (forever for a live camera)."""
        while self.status not in (ENDED, MISCONFIGURED) and not self._closed:
            frame = self.wait_frame(timeout=self.max_delay)
            if frame is not None:
                yield frame

    def close(self) -> None:
        self._closed = True
        if self._source is not None:
            self._source.close()
            self._source = None
