"""How sharp the camera's picture is, read off the edges of the mat's corner markers.

A marker is a black square with a light margin around it, on every mat and in every
picture of one: across each of its sides the grey goes from dark to light in one step,
which the lens spreads over some pixels. How far (the 10 to 90 % rise, 2.56 sigmas of a
Gaussian blur) tells how blurred the picture is, whatever the cards or the cloth.

Measured on the table's own frames of the mat (``vision.synthetic.mat_scene``, two cards
in the slots; 40 tables a deck at 640 x 480, 30 at 1280 x 960), blurred more and more, the
markers' reading given in the pixels the table's finder works at (``vision.detect.
working_scale`` of the part around the slots):

- 640 x 480: read 2.0, every card seen; read 2.3, 4 of 80 cards with a light border
  unseen or unsure; read 2.6, a tenth to a third of the cards unseen; read 3.2, most.
- 1280 x 960 (the finder at two thirds of the size): read 2.2, 1 card of 60 unseen; read
  2.8, 2 of 60 of our deck and 12 of 60 with a light border.

From SOFT_SIGMA the picture is out of focus for the table. On a black square 60 pixels
wide blurred by a known sigma, the reading is that sigma within 0.05 from 1 to 2 pixels,
and a little under beyond (2.5 for 2.6), as the black border is only a bit wide.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

SOFT_SIGMA = 2.1  # blur (sigma, in the finder's pixels) from which the focus wants setting
RISE_SIGMAS = 2.5631  # the 10 to 90 % rise of a step blurred by a Gaussian, in its sigmas
MIN_CONTRAST = 30  # grey levels between the marker's black and its margin to measure
MIN_PROFILES = 4  # edges measured, at least, for an answer
_STEP = 0.25  # pixels between samples across an edge
_ALONG = np.linspace(0.3, 0.7, 7, dtype=np.float32)  # where on each side (its middle part)
_BORDER = 1 / 6  # a 4 x 4 marker's black border: a sixth of its side (4 bits and 2 border)
# Across an edge the grey is read from IN_BITS of a bit's width inside the black border (a
# bit wide: further in, the white bits inside, blurred, show through) to OUT_BITS bits out,
# on the mat's margin around the marker (12 mm, under 2 bits: the table beyond may be any
# colour); the black is the median from DARK_FROM bits in, the margin's from LIGHT_FROM out.
IN_BITS = 0.6
OUT_BITS = 1.5
DARK_FROM = 0.35
LIGHT_FROM = 0.9


def marker_blur(image: np.ndarray, markers: Mapping[int, np.ndarray]) -> float | None:
    """The blur of the markers' edges in ``image`` (BGR or grey), as a Gaussian's sigma in
    the picture's pixels: the median over the middle of each side of each marker (corners
    as ``vision.mat.detect_markers`` gives them). Each edge is looked at over the width of
    the marker's black border each way, so a blur much wider than that reads as about
    that wide. None when fewer than MIN_PROFILES edges could be measured (markers too
    small, too dim, or at the picture's edge)."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grey = grey.astype(np.float32)
    widths: list[float] = []
    for corners in markers.values():
        q = np.asarray(corners, np.float32).reshape(4, 2)
        sides = np.roll(q, -1, axis=0) - q
        lengths = np.hypot(sides[:, 0], sides[:, 1])
        if lengths.min() < 6:
            continue  # too small (or no square) to measure across
        bit = _BORDER * float(lengths.mean())
        offsets = np.arange(-IN_BITS * bit, OUT_BITS * bit + _STEP / 2, _STEP,
                            dtype=np.float32)
        dark_end, light_end = offsets <= -DARK_FROM * bit, offsets >= LIGHT_FROM * bit
        for start, side, length in zip(q, sides, lengths, strict=True):
            normal = np.float32([side[1], -side[0]]) / length
            middle = start + side / 2
            if np.dot(middle - q.mean(axis=0), normal) < 0:
                normal = -normal  # outwards: from the black square to its margin
            points = start + _ALONG[:, None] * side  # 7 x 2
            xy = points[:, None, :] + offsets[None, :, None] * normal  # 7 x n x 2
            profiles = cv2.remap(grey, np.ascontiguousarray(xy[..., 0]),
                                 np.ascontiguousarray(xy[..., 1]), cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
            widths.extend(w for p in profiles
                          if (w := _rise(p, offsets, dark_end, light_end)) is not None)
    if len(widths) < MIN_PROFILES:
        return None
    return float(np.median(widths)) / RISE_SIGMAS


def _rise(profile: np.ndarray, offsets: np.ndarray, dark_end: np.ndarray,
          light_end: np.ndarray) -> float | None:
    """How far ``profile`` (grey levels at ``offsets`` across an edge, dark side first) takes
    to rise from 10 to 90 % of the way from its dark end to its light end (the samples
    ``dark_end`` and ``light_end``); None when part of it lies outside the picture or the
    step is too faint."""
    if profile.min() < 0:
        return None  # outside the picture
    dark, light = float(np.median(profile[dark_end])), float(np.median(profile[light_end]))
    if light - dark < MIN_CONTRAST:
        return None
    share = (profile - dark) / (light - dark)
    low, high = _crossing(share, offsets, 0.1), _crossing(share, offsets, 0.9)
    if low is None or high is None or high < low:
        return None
    return high - low


def _crossing(share: np.ndarray, offsets: np.ndarray, level: float) -> float | None:
    """Where ``share`` first rises through ``level``, between samples."""
    up = np.flatnonzero((share[:-1] < level) & (share[1:] >= level))
    if len(up) == 0:
        return None
    i = int(up[0])
    return float(offsets[i] + (level - share[i]) / (share[i + 1] - share[i])
                 * (offsets[i + 1] - offsets[i]))


def in_focus(blur: float | None, scale: float = 1.0) -> bool | None:
    """Whether a picture whose markers' edges are blurred by ``blur`` (``marker_blur``)
    is sharp enough for the table, where its finder works at ``scale`` times the
    picture's size (``vision.detect.working_scale``). None when not measured."""
    if blur is None:
        return None
    return blur * scale < SOFT_SIGMA
