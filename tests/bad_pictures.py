"""Picture files that are bad in ways a decoder notices late."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np


def too_large_png(path: Path, width: int = 60000, height: int = 60000) -> Path:
    """A small PNG file whose header says ``width`` x ``height`` pixels (a damaged header, or
    a picture over the limit read): decoding it raises, it does not return None."""
    data = bytearray(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    data[16:24] = struct.pack(">II", width, height)  # IHDR's width and height
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    path.write_bytes(bytes(data))
    return path
