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
and a little under beyond (2.5 for 2.6), as the black border is only a bit wide. (The
finder also reads how soft a picture is, at any edges, to lower its thresholds:
``vision.detect._softness``.)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

SOFT_SIGMA = 2.1  # blur (sigma, in the finder's pixels) from which the focus wants setting
# At the table, a picture said out of focus is in focus again only under SHARP_AGAIN: one
# look a little sharper than the last does not take the warning away and bring it back.
SHARP_AGAIN = 1.9
RISE_SIGMAS = 2.5631  # the 10 to 90 % rise of a step blurred by a Gaussian, in its sigmas
MIN_CONTRAST = 30  # grey levels between the marker's black and its margin to measure
MIN_PROFILES = 4  # edges measured, at least, for an answer
MIN_SIDE = 6  # pixels: a marker smaller than this is not measured
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
_ACROSS = np.linspace(-IN_BITS, OUT_BITS, 85, dtype=np.float32)  # samples across, in bits


def marker_blur(image: np.ndarray, markers: Mapping[int, np.ndarray]) -> float | None:
    """The blur of the markers' edges in ``image`` (BGR or grey), as a Gaussian's sigma in
    the picture's pixels: the median over the middle of each side of each marker (corners
    as ``vision.mat.detect_markers`` gives them). Each edge is looked at from inside the
    marker's black border to its margin (IN_BITS, OUT_BITS), so a blur much wider than the
    border reads as about that wide. None when fewer than MIN_PROFILES edges could be
    measured (markers too small, too dim, or at the picture's edge)."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[:2]
    lines, bits = [], []  # each profile's samples (x, y), and its marker's bit width
    for corners in markers.values():
        q = np.asarray(corners, np.float32).reshape(4, 2)
        sides = np.roll(q, -1, axis=0) - q
        lengths = np.hypot(sides[:, 0], sides[:, 1])
        if lengths.min() < MIN_SIDE:
            continue  # too small (or no square) to measure across
        bit = _BORDER * float(lengths.mean())
        normals = np.stack([sides[:, 1], -sides[:, 0]], axis=1) / lengths[:, None]
        outwards = np.einsum("ij,ij->i", q + sides / 2 - q.mean(axis=0), normals) >= 0
        normals *= np.where(outwards, 1, -1).astype(np.float32)[:, None]
        points = q[:, None, :] + _ALONG[None, :, None] * sides[:, None, :]  # 4 x 7 x 2
        xy = points[:, :, None, :] + (bit * _ACROSS)[None, None, :, None] \
            * normals[:, None, None, :]  # 4 x 7 x n x 2
        lines.append(xy.reshape(-1, len(_ACROSS), 2))
        bits.extend([bit] * (4 * len(_ALONG)))
    if not lines:
        return None
    xy = np.concatenate(lines).astype(np.float32)
    inside = ((xy[..., 0] >= 0) & (xy[..., 0] <= w - 1)
              & (xy[..., 1] >= 0) & (xy[..., 1] <= h - 1)).all(axis=1)
    profiles = cv2.remap(grey, np.ascontiguousarray(xy[..., 0]), np.ascontiguousarray(xy[..., 1]),
                         cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    widths = _rises(profiles[inside]) * np.float32(bits)[inside]
    widths = widths[np.isfinite(widths)]
    if len(widths) < MIN_PROFILES:
        return None
    return float(np.median(widths)) / RISE_SIGMAS


def _rises(profiles: np.ndarray) -> np.ndarray:
    """For each profile (grey levels at ``_ACROSS`` across an edge, dark side first), how far
    it takes to rise from 10 to 90 % of the way from its dark end to its light end, in bits;
    NaN where the step is too faint or does not rise so."""
    dark = np.median(profiles[:, _ACROSS <= -DARK_FROM], axis=1)
    light = np.median(profiles[:, _ACROSS >= LIGHT_FROM], axis=1)
    step = light - dark
    faint = step < MIN_CONTRAST
    share = (profiles - dark[:, None]) / np.where(faint, 1, step)[:, None]
    low, high = _crossings(share, 0.1), _crossings(share, 0.9)
    return np.where(faint | ~(high > low), np.nan, high - low)


def _crossings(share: np.ndarray, level: float) -> np.ndarray:
    """Where each row of ``share`` first rises through ``level`` (between samples, in bits
    along ``_ACROSS``); NaN where it never does."""
    up = (share[:, :-1] < level) & (share[:, 1:] >= level)
    i = up.argmax(axis=1)
    rows = np.arange(len(share))
    a, b = share[rows, i], share[rows, i + 1]
    at = _ACROSS[i] + (level - a) / np.where(b > a, b - a, 1) * (_ACROSS[i + 1] - _ACROSS[i])
    return np.where(up.any(axis=1), at, np.nan)


def blur_at_finder(image: np.ndarray, markers: Mapping[int, np.ndarray],
                   box: tuple[int, int, int, int]) -> float | None:
    """``marker_blur`` in the pixels the table's finder works at in the part ``box`` (x0,
    y0, x1, y1) of the picture it searches (``vision.tracking.search_region``), or None."""
    from vision.detect import working_scale

    blur = marker_blur(image, markers)
    x0, y0, x1, y1 = box
    return None if blur is None else blur * working_scale(x1 - x0, y1 - y0)


def in_focus(blur: float | None) -> bool | None:
    """Whether a picture whose markers' edges are blurred by ``blur`` in the pixels the
    table's finder works at (``blur_at_finder``) is sharp enough for the table. None when
    not measured."""
    if blur is None:
        return None
    return blur < SOFT_SIGMA
