"""Pictures read and written by file name, whatever characters the name holds.

OpenCV takes a file name as UTF-8 text, and a name that is not (an old USB stick's
"café.png" written in Latin-1, which Python keeps with escapes) crashes it outright. So a
picture is read as bytes and decoded in memory, and written encoded in memory and saved in
one step; a video file's name that OpenCV cannot take is refused by name (``opencv_name``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np


class PictureTooLarge(ValueError):
    """A picture file whose size (as its header says) is more than is read: a damaged header,
    or a picture of over a hundred million pixels (``vision.MAX_PICTURE_PIXELS``)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__("the picture is too large to read (over a hundred million pixels), "
                         "or its file is damaged")
        self.path = path


def read_image(path: str | os.PathLike[str], flags: int | None = None) -> np.ndarray | None:
    """The picture in the file (``flags``: OpenCV's imread flags, colour by default), or
    None when it is no picture OpenCV can decode (empty, damaged, another kind of file).
    OSError when the file cannot be read at all (missing, a folder, no permission, or a
    pipe or device, which reading would wait on for ever); PictureTooLarge when its header
    says it is larger than is read (``vision.MAX_PICTURE_PIXELS``)."""
    import cv2

    name = os.fspath(path)
    mode = os.stat(name).st_mode
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # a folder: reading says so
        raise OSError(errno.EINVAL, "a pipe or a device, not a file", name)
    data = np.fromfile(name, np.uint8)
    if not data.size:
        return None
    with _quiet_stderr():  # libpng prints "libpng error: Read Error" itself on a torn file
        try:
            return cv2.imdecode(data, cv2.IMREAD_COLOR if flags is None else flags)
        except cv2.error as err:
            if "validateInputImageSize" in str(err):  # the size over OpenCV's limit
                raise PictureTooLarge(path) from None
            return None  # a decoder's own failure: a picture OpenCV cannot decode


_QUIET = threading.RLock()  # one thread at a time sends file 2 nowhere, and puts it back
_QUIET_DEPTH = threading.local()  # n: 1 inside the redirect, in this thread


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The process's standard error (file 2) sent nowhere for a moment: what a C library
    prints there itself, which no setting of OpenCV's silences. The caller says what went
    wrong in its own words. Threads take turns (file 2 is the whole process's); within one
    thread, only the outermost use redirects."""
    with _QUIET:
        if getattr(_QUIET_DEPTH, "n", 0):
            yield
            return
        try:
            sys.stderr.flush()
        except (AttributeError, ValueError, OSError):
            pass
        try:
            saved = os.dup(2)
        except OSError:  # no file 2 to silence
            yield
            return
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            os.close(saved)
            yield
            return
        _QUIET_DEPTH.n = 1
        try:
            os.dup2(devnull, 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)
            _QUIET_DEPTH.n = 0


def write_picture(path: str | os.PathLike[str], image: np.ndarray) -> None:
    """Save the picture in one step (a power cut leaves no half-written picture): a JPEG
    file when ``path`` ends in .jpg or .jpeg, else a PNG file. ValueError when OpenCV cannot
    encode it; OSError when it cannot be saved."""
    import cv2

    from companion.tablelog import write_atomically

    kind = ".jpg" if Path(path).suffix.lower() in (".jpg", ".jpeg") else ".png"
    ok, data = cv2.imencode(kind, image)
    if not ok:
        raise ValueError(f"cannot encode the picture for {str(path)!r}")
    write_atomically(Path(path), data.tobytes())


def shown_name(name: str | os.PathLike[str]) -> str:
    """A file name as people can read it and a screen can draw it: letters that are not
    text (a name written on another system) become question-mark diamonds."""
    return os.fsencode(name).decode("utf-8", "replace")


def opencv_name(name: str) -> str | None:
    """Why OpenCV cannot take ``name`` (a video file's, a device's), or None when it can."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return (f"the file name {shown_name(name)!r} has letters the video library cannot "
                "read (it was written on another system): rename the file, using plain "
                "letters")
    return None
