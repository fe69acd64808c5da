"""What every camera source gives: BGR frames with a timestamp."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


class CameraError(RuntimeError):
    """The camera is missing, busy, unplugged or gave no picture. The message says which."""


@dataclass(frozen=True, slots=True)
class Frame:
    image: np.ndarray  # BGR, uint8, height x width x 3
    t: float  # seconds, from the source's own monotonic clock


class CameraSource(Protocol):
    def read(self) -> Frame | None:
        """The next frame, or None when no new frame is ready yet."""

    def close(self) -> None: ...
