"""Finding the cards on the mat: four corners per card, at any rotation and perspective.

``find_cards(image)`` works on edges: it gathers four-sided candidates from the closed
contours of the edge map, keeps those shaped like a card (convex, card-like proportions under
perspective, right-ish angles) whose four sides really run along edges, and resolves overlaps
between candidates (a card's inner frame, two touching cards seen as one block).

``changed(prev, cur)`` is the cheap test a tracker runs on every frame to skip the rest when
nothing moved.
"""

from __future__ import annotations

import functools
import math
from array import array
from typing import NamedTuple

import cv2
import numpy as np

# A card's long side over its short side is 88 / 63 = 1.40; a tilted camera changes it.
MIN_ASPECT, MAX_ASPECT = 1.1, 1.85
# Seen from the side (a photo taken at a slant), a card may look square, or longer than any
# card: up to SLANTED_MAX times as long as wide (a reader names such an outline before taking
# it for a card).
SLANTED_MAX = 2.3
SQUARISH = 1.2  # below this a candidate is checked for being one of the mat's markers
MIN_AREA_FRAC = 0.008  # of the picture (a card at least about 50 x 70 pixels at 640 x 480)
MAX_AREA_FRAC = 0.5
# A whole picture read at once may be a close-up of one card: up to this share of it.
CLOSE_UP_FRAC = 0.95
# In a photo of one card, an outline taking this much of the picture or more gets a second
# fit when the first does not run along edges (see find_outlines).
LARGE_CARD_FRAC = 0.1
MIN_SIDE_SUPPORT = 0.35  # fraction of each side running along an edge
MIN_MEAN_SUPPORT = 0.7
MAX_CORNER_DEVIATION = 40.0  # degrees away from a right angle
BLOCK_MIN, BLOCK_MAX = 0.2, 0.85  # a card inside a block, as a share of the block's area
# The whole mat seen from further away holds cards under this share of its area (about 0.05);
# so can a card hold a card-shaped spot of its art (0.03 to 0.06 measured): see _without_mat.
SURFACE_SHARE = 0.1
OUTLINE_TOL = 0.03  # a card's corner on a block's outline: this near, of its short side
PANEL_CENTRED = 0.04  # a card's picture panel: its middle this near the card's midline
REACH = 0.06  # how far a side may move outwards onto the card's outline, of the short side
# Two cards touching end to end, outlined as one: long side over short about 2 x 1.40.
STRIP_ASPECT = (2.3, 3.3)
# Finding is tuned for pictures of about 640 x 480: one more than twice as large is shrunk to
# that size (its edges would be too soft and too far apart for the checks below). A whole
# picture read at once (``find_outlines``) under 0.8 times that is also enlarged; a camera's
# frame or a part of one (``find_cards``, the table's tracker) never is: its cards are at
# the camera's own scale.
WORK_PIXELS = 640 * 480
MAX_WORK_PIXELS = 2 * WORK_PIXELS
MIN_WORK_PIXELS = WORK_PIXELS * 4 // 5
# A card seen so slanted that it looks square: its picture panel inside it, as a share of its
# area, with a border on every side but one (the far side may shrink to nothing) at least
# ENCLOSED_BORDER of the card's size (the square root of its area) wide. A card lying on a
# pile lies on two or three of the sides of the pile's outline, which may look square too.
ENCLOSED = (0.35, 0.85)
ENCLOSED_BORDER = 0.03
# Edges on more than BUSY_EDGES of a whole picture (a scene, or a photo of a card) are mostly a
# cloth's grain: every outline there runs along edges. The thresholds are raised BUSY_RAISE
# times, up to BUSY_TRIES times, until edges cover less. Measured: a grainy light cloth that
# the camera sharpens, or whose mid-tones are dark, up to 29 %; every mat kind as it comes up
# to 14 % (a coarse cloth: 1 to 3 scenes in 120 pass the bar, found alike); the benchmark's
# scenes up to 11.5 %; the Dobble photos 8 %. It trades a few weak outlines for no false
# cards: on a fine check cloth, false cards 48 -> 0 and cards found 53 -> 46 of 115.
BUSY_EDGES = 0.12
BUSY_RAISE = 1.6
BUSY_TRIES = 3
# A soft picture (a camera out of focus, a webcam's lens) spreads every edge, and a light
# card's outline on a light cloth then falls under Canny's thresholds: they are lowered by
# (SOFT_FROM / blur) cubed, not under SOFT_LEAST times, where the blur is that of the
# picture's sharpest edges (``_softness``, a Gaussian's sigma in pixels, the 5 x 5 blur
# before Canny included). Measured on 40 scenes of each of four decks: as they come, 0.94 to
# 1.9, nine in ten under 1.5; blurred by a sigma of 1.6 to 2.4, 1.4 to 2.7, half over 1.7 to
# 2.1. On 150 held-out scenes of each of six decks so blurred, white cards found 82 -> 84 %,
# light-bordered ones 78 -> 83 %, playing cards 77 -> 79 %, dark ones 94 % and ours 97.4 %
# as before; as they come, and under a lamp, a colour cast, dim light or vignetting, the
# same cards found; under JPEG or motion blur, a card more or less in a deck; no misread, no
# false alarm more. Where the rest are lost, the outline has a gap (the lit side of a white
# card on a light cloth) that no threshold closes.
# A reading costs about 0.1 ms, and is taken only where it finds cards: on a whole picture
# (or the table's region) whose high threshold is at its most (HI_MOST, a middle grey of 110
# or more; darker pictures have lower thresholds already). Taken on darker pictures too, it
# found 2 more cards of 1,836 out of focus; on each part around one card (``around_card``),
# none, and the table looks at many parts a frame.
# Not ``vision.focus``: that reads the blur at the mat's corner squares, a known step, for
# the table's out-of-focus warning (SOFT_SIGMA, 2.1), without the 5 x 5 blur; this reads it
# at any edges, that blur included (SOFT_FROM 1.7 is about 1.3 there).
HI_MOST = 110.0
SOFT_FROM = 1.7
SOFT_LEAST = 0.4
SOFT_SAMPLES = 150  # edge pixels measured, about, spread over the picture
SOFT_ROWS = 3  # ...on every SOFT_ROWS-th row
SOFT_SHARPEST = 0.2  # the blur read where this share of the edges measured are sharper
SOFT_MIN_CONTRAST = 24  # grey levels across an edge, at least, to measure it
SOFT_REACH = 7  # pixels each side of an edge pixel, across the edge, for its contrast
# A seam between light cards touching: a line at most this many pixels wide, darker than
# both its sides by this many grey levels.
SEAM_WIDTH = 7
SEAM_DEPTH = 12
# A cheap first look, before a side is refined: proportions not far from these.
ROUGH_CARD_ASPECT = (0.97 * MIN_ASPECT, 1.15 * MAX_ASPECT)
ROUGH_STRIP_ASPECT = (0.9 * STRIP_ASPECT[0], 1.1 * STRIP_ASPECT[1])
# A card at a corner of an outline of several cards (a pile, light cards touching): the
# outline is simplified to straight runs (CORNER_EPS of its length off at most); at a corner
# of about a right angle (cosine within CORNER_COS) whose two runs are in a card's proportions
# (CORNER_ASPECT), they may be two whole sides of a card, which must lie CORNER_INSIDE inside
# the outline at least. (One run alone is no card's side for sure: the sides of two cards
# piled square run on as one.)
CORNER_EPS = 0.015
CORNER_MAX_RUNS = 16
CORNER_COS = 0.26
CORNER_ASPECT = (1.15, 1.7)
CORNER_INSIDE = 0.9
# A light card on a cloth nearly as light (or in glare, or under a hand) may show its edge on
# three sides only, or two: its outline's hull then cuts off the corner where the others'
# edge fades. Three sides running along edges (FAINT_OTHERS each) and one hardly (under
# MIN_SIDE_SUPPORT), the shorter of the sides beside the faint one is lengthened to the
# longer's length: a card's opposite sides are about as long in a picture. Two sides meeting
# at a corner running along edges and the other two hardly, the card is the parallelogram on
# the two. The place so found must be named to count (``Outlines.at_corners``).
FAINT_OTHERS = 0.8
# A piece cut along seams must be shaped as a card's outline is in a photo: perspective
# shortens a card's far sides, but over a card's own length by little. Over 300 scenes at up
# to 45 degrees of tilt, each side was at least 0.83 of the one opposite it, and the two
# pairs' ratios multiplied to 0.77 at least. A piece under PIECE_FORESHORTENING is parts of
# two cards (on a pile, the part of a card showing from under another and a corner of that
# one's, named as the card below at 0.6).
PIECE_FORESHORTENING = 0.6


def order_corners(quad: np.ndarray) -> np.ndarray:
    """4 x 2 corners clockwise (in picture coordinates), starting at the corner where a
    short side begins, so that side 0->1 is a short side (the card's top or bottom)."""
    return np.array(_clockwise(np.asarray(quad, np.float32).reshape(4, 2).tolist()), np.float32)


def _clockwise(pts: list[list[float]]) -> list[list[float]]:
    """``order_corners`` on plain floats: four points need no array arithmetic, which costs
    more than it computes."""
    cx = (pts[0][0] + pts[1][0] + pts[2][0] + pts[3][0]) / 4
    cy = (pts[0][1] + pts[1][1] + pts[2][1] + pts[3][1]) / 4
    pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))  # clockwise on screen (y down)
    a, b, c, d = pts
    if _dist(a, b) + _dist(c, d) > _dist(b, c) + _dist(d, a):
        pts = pts[1:] + pts[:1]
    # Of the two short sides, start with the one nearer the top of the picture.
    if pts[2][1] + pts[3][1] < pts[0][1] + pts[1][1]:
        pts = pts[2:] + pts[:2]
    return pts


def _dist(a, b) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def _centre(q: np.ndarray) -> tuple[float, float]:
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = q.tolist()
    return (ax + bx + cx + dx) / 4, (ay + by + cy + dy) / 4


def _short_side(q: np.ndarray) -> float:
    a, b, c, _ = q.tolist()
    return min(_dist(a, b), _dist(b, c))


def _edges(grey: np.ndarray, *, around_card: bool = False) -> np.ndarray:
    """Canny's edges, thresholds set by the picture's middle grey, and lowered for a picture
    whose sharpest edges are soft (SOFT_FROM). ``around_card``: the picture is a part around
    one card, mostly its own art, whose edges may be many (see BUSY_EDGES)."""
    blurred = cv2.GaussianBlur(grey, (5, 5), 0)
    med = _median(blurred[::8, ::8])  # the picture's middle grey, from a sample
    lo = max(10.0, min(40.0, 0.4 * med))
    hi = max(30.0, min(HI_MOST, 1.0 * med))
    edges = cv2.Canny(blurred, lo, hi)
    # Only a light picture's thresholds, at their most, are far above its soft edges.
    soft = None if around_card or hi < HI_MOST else _softness(blurred, edges)
    if soft is not None and soft > SOFT_FROM:
        k = max(SOFT_LEAST, (SOFT_FROM / soft) ** 3)
        lo, hi = k * lo, k * hi
        edges = cv2.Canny(blurred, lo, hi)
    # A textured cloth made busier (a camera's sharpening, a dark picture's low thresholds)
    # can be edges all over: every outline then runs along edges. Its grain is fainter than
    # a card's edge: ask for stronger edges until they are few enough.
    for _ in range(0 if around_card else BUSY_TRIES):
        if cv2.countNonZero(edges) <= BUSY_EDGES * edges.size:
            break
        lo, hi = BUSY_RAISE * lo, BUSY_RAISE * hi
        edges = cv2.Canny(blurred, lo, hi)
    return edges


_ACROSS = np.arange(-SOFT_REACH, SOFT_REACH + 1, dtype=np.float32)
_SIGMA_PER_WIDTH = float(1 / math.sqrt(2 * math.pi))  # a blurred step's sigma per contrast/slope


def _softness(blurred: np.ndarray, edges: np.ndarray) -> float | None:
    """How soft the picture ``blurred`` (grey) is at its sharpest edges (``edges``, Canny's):
    the sigma of a Gaussian blur that spreads a step as much, in pixels. At a sample of edge
    pixels, the contrast across the edge (SOFT_REACH each side, along the gradient) over the
    slope there is the width of a blurred step; the blur read is where SOFT_SHARPEST of them
    are narrower. None with fewer than 20 edges of SOFT_MIN_CONTRAST measured."""
    h, w = blurred.shape[:2]
    r = SOFT_REACH
    pts = cv2.findNonZero(edges[r:h - r:SOFT_ROWS, r:w - r])
    if pts is None or len(pts) < 20:
        return None
    pts = pts.reshape(-1, 2)[::max(1, len(pts) // SOFT_SAMPLES)]
    # Indices into the flattened picture: a few numpy calls on small arrays.
    flat = np.ascontiguousarray(blurred).reshape(-1)
    at = (pts[:, 1] * SOFT_ROWS + r) * w + (pts[:, 0] + r)
    around = flat[at[:, None] + np.array([1, -1, w, -w])].astype(np.float32)
    gx, gy = around[:, 0] - around[:, 1], around[:, 2] - around[:, 3]
    grad = np.hypot(gx, gy)  # twice the slope
    ok = grad > 0
    at, gx, gy, grad = at[ok], gx[ok], gy[ok], grad[ok]
    step = _ACROSS / grad[:, None]
    profile = flat[at[:, None] + np.rint(gy[:, None] * step).astype(np.intp) * w
                   + np.rint(gx[:, None] * step).astype(np.intp)]
    contrast = np.ptp(profile, axis=1).astype(np.float32)
    measured = contrast >= SOFT_MIN_CONTRAST
    if np.count_nonzero(measured) < 20:
        return None
    widths = 2 * contrast[measured] / grad[measured]
    k = int(len(widths) * SOFT_SHARPEST)
    return float(np.partition(widths, k)[k]) * _SIGMA_PER_WIDTH


def _median(grey: np.ndarray, mask: np.ndarray | None = None) -> float:
    """The median of a grey picture's values (those under ``mask`` when given), as np.median
    gives it (the mean of the two middle ones of an even count), read off its histogram: half
    the time of sorting."""
    counts = cv2.calcHist([np.ascontiguousarray(grey)], [0], mask, [256], [0, 256]).cumsum()
    n = int(counts[-1])
    below, above = np.searchsorted(counts, [(n - 1) // 2, n // 2], side="right").tolist()
    return (below + above) / 2


def _colour_edges(grey: np.ndarray, colour: np.ndarray, *, around_card: bool = False
                  ) -> np.ndarray:
    """``_edges`` of the grey picture and of each of its colour channels together: a card
    may differ from the cloth it lies on in colour more than in grey (a black card on a
    purple cloth). ``around_card``: as for ``_edges``."""
    edges = _edges(grey, around_card=around_card)
    for channel in cv2.split(colour):
        edges |= _edges(channel, around_card=around_card)
    return edges


def _fit_quad(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    first = None
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
        first = approx if first is None else first
    # Five to eight sides: a corner cut off (a hand, glare, a rounded corner). Keep the four
    # longest sides and intersect them.
    n = len(first)
    if n > 8:
        return None
    pts = first.reshape(-1, 2).tolist()  # whole pixels
    sides = [(_dist(pts[i], pts[(i + 1) % n]), i) for i in range(n)]
    keep = sorted(i for _, i in sorted(sides, reverse=True)[:4])
    lines = [(*pts[i], pts[(i + 1) % n][0] - pts[i][0], pts[(i + 1) % n][1] - pts[i][1])
             for i in keep]
    return _corners(lines[1:] + lines[:1])  # corner 0 where the first kept side ends


def _sides(q: np.ndarray) -> tuple[float, float, float, float]:
    """The lengths of the four sides, from corner 0 to 1 on (plain floats: four points need
    no array arithmetic)."""
    a, b, c, d = q.tolist()
    return _dist(a, b), _dist(b, c), _dist(c, d), _dist(d, a)


def _side_pairs(q: np.ndarray) -> tuple[float, float]:
    """The sums of the two pairs of opposite sides."""
    s0, s1, s2, s3 = _sides(q)
    return s0 + s2, s1 + s3


def _aspect(q: np.ndarray) -> float:
    a, b = _side_pairs(q)
    return max(a, b) / max(1e-6, min(a, b))


_RECENT_MARKERS: list[np.ndarray] = []  # markers seen lately: a fixed camera sees them again


def _is_marker(grey: np.ndarray, q: np.ndarray) -> bool:
    """Is this squarish quad one of the mat's ArUco markers (its black square, or that with
    the light margin around it: white on mats printed before the green one)?"""
    if any(quad_iou(q, m) > 0.9 for m in _RECENT_MARKERS):
        return True
    if _looks_like_marker(grey, q):
        _RECENT_MARKERS.append(q)
        del _RECENT_MARKERS[:-8]
        return True
    return False


def _ring(patch: np.ndarray, a: int, b: int) -> float:
    """Median grey of the square ring between a and b pixels in from a square patch's edge."""
    return _median(patch, _ring_mask(patch.shape[0], a, b))


@functools.lru_cache(maxsize=8)  # the marker check asks for three rings of one patch size
def _ring_mask(n: int, a: int, b: int) -> np.ndarray:
    """The mask of ``_ring``'s ring in an n x n patch."""
    mask = np.zeros((n, n), np.uint8)
    mask[a:n - a, a:n - a] = 1
    mask[b:n - b, b:n - b] = 0
    return mask


def _looks_like_marker(grey: np.ndarray, q: np.ndarray) -> bool:
    # Cheap look first, on the quad with a margin around it (10 + 40 + 10 pixels): a marker
    # is a black band inside a lighter margin (white, or the green mat), whether the quad is
    # the margin's outline (light just inside, dark further in) or the black square's own
    # (dark just inside, light just outside).
    m = cv2.getPerspectiveTransform(np.float32(q), np.float32([[10, 10], [50, 10], [50, 50],
                                                               [10, 50]]))
    small = cv2.warpPerspective(grey, m, (60, 60), borderMode=cv2.BORDER_REPLICATE)
    outside, inside, inner = _ring(small, 3, 8), _ring(small, 11, 13), _ring(small, 15, 19)
    if not (inner < 0.6 * inside or inside < 0.6 * outside):
        return False
    from vision.mat import detect_markers

    side, pad = 128, 48
    dst = np.float32([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]])
    m = cv2.getPerspectiveTransform(np.float32(q), dst)
    patch = cv2.warpPerspective(grey, m, (side + 2 * pad, side + 2 * pad),
                                borderMode=cv2.BORDER_REPLICATE)
    return bool(detect_markers(patch))


def _smallest_short_side(img_area: float) -> float:
    """The short side of the smallest card found (``MIN_AREA_FRAC`` of the picture's area)."""
    return math.sqrt(MIN_AREA_FRAC * img_area / 1.4)


def _card_shaped(q: np.ndarray, img_area: float,
                 aspect: tuple[float, float] = (MIN_ASPECT, MAX_ASPECT), cards: int = 1,
                 most: float = MAX_AREA_FRAC) -> bool:
    """Convex, of a card's size (``cards`` cards' for a strip; at most ``most`` of the
    picture), proportions within ``aspect``, opposite sides alike and corners near right
    angles."""
    if not cv2.isContourConvex(q):
        return False
    area = cv2.contourArea(q)
    if not cards * MIN_AREA_FRAC * img_area <= area <= most * img_area:
        return False
    return _proportioned(q, aspect)


def _proportioned(q: np.ndarray, aspect: tuple[float, float], margin: float = 0.0) -> bool:
    """Proportions within ``aspect``, opposite sides alike and corners near right angles;
    with a ``margin``, every bound that much (a share of it) further in."""
    pts = q.tolist()  # plain floats: a handful of numbers, no array overhead
    vec = [(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1]) for i in range(4)]
    sides = [math.hypot(x, y) for x, y in vec]
    a = (sides[0] + sides[2]) / 2
    b = (sides[1] + sides[3]) / 2
    ratio = max(a, b) / max(1e-6, min(a, b))
    if not aspect[0] * (1 + margin) <= ratio <= aspect[1] * (1 - margin):
        return False
    # Opposite sides of similar length (perspective shortens, but not that much).
    alike = 0.6 * (1 + margin)
    if min(sides[0], sides[2]) < alike * max(sides[0], sides[2]):
        return False
    if min(sides[1], sides[3]) < alike * max(sides[1], sides[3]):
        return False
    most = MAX_CORNER_DEVIATION * (1 - margin)
    for i in range(4):
        # The corner at point i lies between the side coming in (i - 1) and the one going out.
        ux, uy = -vec[i - 1][0], -vec[i - 1][1]
        vx, vy = vec[i]
        cos = (ux * vx + uy * vy) / (sides[i - 1] * sides[i] + 1e-9)
        if abs(90.0 - math.degrees(math.acos(min(1.0, max(-1.0, cos))))) > most:
            return False
    return True


_KERNEL = np.ones((3, 3), np.uint8)
_GROWN = np.float32(1)  # how far _KERNEL grows the edges (pixels)
_SEAM_KERNEL = np.ones((SEAM_WIDTH, SEAM_WIDTH), np.uint8)
_T = np.linspace(0.1, 0.9, 24, dtype=np.float32)
_OFFSETS: dict[int, np.ndarray] = {}
_ZERO = 2  # the offsets start at -2: the side where it lies
_SHARE = float(np.float32(1 / len(_T)))  # one point's share of a side
_TINY = float(np.float32(1e-9))  # keeps a side of no length from dividing by zero
_UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])  # a unit square, corners clockwise
_SIDES = np.arange(4)


def _offsets(reach: int) -> np.ndarray:
    o = _OFFSETS.get(reach)
    if o is None:
        o = _OFFSETS[reach] = np.arange(-_ZERO, reach + 1, dtype=np.float32)
    return o


def _refine(q: np.ndarray, near: np.ndarray, reach: float, *, on_edge: bool = True
            ) -> tuple[np.ndarray, list[float]]:
    """Push each side outwards onto the outermost straight edge within ``reach`` pixels.

    ``near`` is the edges grown by a pixel each way (``_KERNEL``): the outermost line on it
    runs about a pixel outside the edge itself (more for a side at a slant), and a side found
    there is moved back a pixel (a card cut a pixel wide all round takes a sliver of table,
    4 % of a small card's area), unless ``on_edge`` is False.

    A candidate found from a region inside a card (between the card's edge and its inner
    frame) lands on the card's true outline this way; a candidate already on the outline
    stays there. Cards touching each other are found separately because their inner regions
    are separate. Returns the new quad and, for each side, the share of it along an edge.
    """
    offsets = _offsets(int(reach))
    p = np.asarray(q, np.float32)
    pts = p.tolist()
    ex, ey, nx, ny = _directions(pts)
    # Points along each side (24), shifted along its outward normal by each offset (O): x
    # and y apart, 2 x 4 x O x 24 (the 24 last: numpy's loops run long), looked up at the
    # nearest pixel (none outside the picture).
    e = np.float32([ex, ey, nx, ny])[:, :, None]  # side directions, then normals
    along = p.T[:, :, None] + _T * e[:2]
    xy = along[:, :, None, :] + offsets[:, None] * e[2:, :, None]
    n = len(offsets)
    hits = cv2.remap(near, xy[0].reshape(4 * n, -1), xy[1].reshape(4 * n, -1),
                     cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    support, moved = _outermost((hits != 0).sum(axis=1).tolist(), n, on_edge)
    # Each side's start moved along its normal (in float32, as before), x and y together.
    step = _f32([m * v for m, v in zip(moved + moved, nx + ny, strict=True)])
    start = _f32([v + m for v, m in zip([x for x, _ in pts] + [y for _, y in pts], step,
                                        strict=True)])
    out = _corners(list(zip(start[:4], start[4:], ex, ey, strict=True)))
    if out is None:
        return q, [0.0] * 4
    return out, support


def _f32(values) -> list[float]:
    """Plain floats rounded to float32. An operation on two float32 numbers done on plain
    floats (doubles) and rounded so gives what float32 arithmetic gives (+, -, *, / and the
    square root: a double has more than twice float32's digits, plus two)."""
    return array("f", values).tolist()


def _directions(pts: list[list[float]]) -> tuple[list[float], ...]:
    """The x and y of each side's direction (corner to next corner) and of its outward unit
    normal, float32 as numpy would give them, for a quad's corners given as float32 values."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = pts
    # x and y side by side in one list: each step is rounded once for all eight.
    e = _f32([bx - ax, cx - bx, dx - cx, ax - dx, by - ay, cy - by, dy - cy, ay - dy])
    sq = _f32([v * v for v in e])
    length = _f32([math.sqrt(v) for v in _f32([sq[i] + sq[i + 4] for i in range(4)])])
    inv = _f32([1 / v for v in _f32([v + _TINY for v in length])])
    # (dy, -dx) points outwards for a quad going clockwise on screen (y down), whose signed
    # area is positive; the other way round, flip them all.
    twice_area = ((ax * by - bx * ay) + (bx * cy - cx * by)
                  + (cx * dy - dx * cy) + (dx * ay - ax * dy))
    if twice_area <= 0:
        inv = [-v for v in inv]
    normal = _f32([e[i + 4] * inv[i] for i in range(4)] + [e[i] * -inv[i] for i in range(4)])
    return e[:4], e[4:], normal[:4], normal[4:]


def _outermost(counts: list[int], n: int, on_edge: bool) -> tuple[list[float], list[float]]:
    """For each side (``n`` counts of points on an edge, one per offset), the share of it
    along an edge where it goes and how far it moves (see ``_refine``)."""
    support, moved = [], []
    for i in range(0, 4 * n, n):
        side = counts[i:i + n]
        top = max(side) * _SHARE
        k = _ZERO
        if top >= 0.6:
            # The outermost line nearly as well supported as the best one: the outline.
            k = n - 1
            while side[k] * _SHARE < 0.9 * top:
                k -= 1
        support.append(side[k] * _SHARE)
        # Back onto the edge (a side on the last line looked at too: measured, leaving those
        # there lost cards the benchmark found).
        moved.append(float(k - _ZERO) - (1.0 if top >= 0.6 and on_edge else 0.0))
    return support, moved


def _keep_strip(contour: np.ndarray, q: np.ndarray, near: np.ndarray, img_area: float,
                blocks: list[np.ndarray]) -> None:
    """Add the outline to ``blocks`` if it is a strip of two cards end to end. Its long
    outline is loosely fitted by four corners: each side is fitted again to the outline's
    points along it before being pushed onto the edge."""
    q = _fit_sides(contour, q)
    if q is None:
        return
    q, s = _refine(q, near, REACH * _short_side(q))
    if _supported(s) and _card_shaped(q, img_area, STRIP_ASPECT, cards=2):
        blocks.append(q)


def _fit_sides(contour: np.ndarray, q: np.ndarray) -> np.ndarray | None:
    """The quad whose sides are lines fitted to the contour's points near each side of
    ``q`` (away from its corners); None when a side has too few points, or when a corner
    lands further from ``q``'s than its short side (two sides fitted nearly parallel meet
    far away: the outline is no quad)."""
    pts = _dense(contour)
    sides = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = b - a
        n = float(np.hypot(*d))
        rel = pts - a
        t = (rel @ d) / (n * n)
        off = np.abs(rel @ np.float32([-d[1], d[0]])) / n
        near = pts[(t > 0.1) & (t < 0.9) & (off < 0.05 * n + 2)]
        if len(near) < 2:
            return None
        sides.append(near)
    # Every side's points first: a robust line fit costs more than all of the above.
    lines = []
    for near in sides:
        dx, dy, x, y = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((float(x), float(y), float(dx), float(dy)))
    fitted = _corners(lines)
    if fitted is None or np.abs(fitted - q).max() > _short_side(q):
        return None
    return fitted


def _dense(contour: np.ndarray) -> np.ndarray:
    """A contour's points about a pixel apart (a simplified contour keeps only the ends of
    each straight run)."""
    p = contour.reshape(-1, 2).astype(np.float32)
    d = np.concatenate((p[1:], p[:1])) - p  # to the next point
    steps = np.maximum(1, np.maximum(np.abs(d[:, 0]), np.abs(d[:, 1])).astype(int))
    # Each point's share of the way along its run (the run's first point at 0).
    first = np.repeat(np.cumsum(steps) - steps, steps)  # where its run begins
    t = (np.arange(len(first)) - first) / np.repeat(steps, steps)
    return np.repeat(p, steps, axis=0) + t[:, None].astype(np.float32) * np.repeat(d, steps, axis=0)


def _corners(lines) -> np.ndarray | None:
    """The four corners where each side line meets the one before it, each line given as
    (x, y, dx, dy): corner i begins side i. None when two neighbouring sides are parallel."""
    out = []
    for i in range(4):
        x = _cross_lines(lines[i - 1], lines[i])
        if x is None:
            return None
        out.append(x)
    return np.float32(out)


def _cross_lines(l1, l2):
    """Where two lines meet, each given as (x, y, dx, dy); None when they are parallel."""
    x1, y1, dx1, dy1 = l1
    x2, y2, dx2, dy2 = l2
    den = dx1 * dy2 - dy1 * dx2
    if abs(den) < 1e-6:
        return None
    t = ((x2 - x1) * dy2 - (y2 - y1) * dx2) / den
    return (x1 + t * dx1, y1 + t * dy1)


def _poly_area(q):
    return float(cv2.contourArea(q))


def _inter(a, b):
    v, _ = cv2.intersectConvexConvex(a, b)
    return float(v)


def card_proportioned(quad: np.ndarray, *, margin: float = 0.0) -> bool:
    """Whether an outline (4 x 2 corners in order around it) has what finding asks of a card's
    besides its size (at least ``MIN_AREA_FRAC`` of the picture): convex, a card's proportions,
    opposite sides alike, corners near right angles. A card seen too much from the side fails.
    With a ``margin`` (say 0.03), it must pass with every bound that share further in."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    return (bool(cv2.isContourConvex(q.reshape(-1, 1, 2)))
            and _proportioned(q, (MIN_ASPECT, MAX_ASPECT), margin))


def working_scale(w: int, h: int) -> float:
    """How much finding scales a camera's frame (or a part of one) of w x h pixels before
    looking at it (see WORK_PIXELS)."""
    return _work_scale(h, w, enlarge=False)


def find_cards(image: np.ndarray, *, blocks: list[np.ndarray] | None = None
               ) -> list[np.ndarray]:
    """Every card lying on the picture: 4 x 2 float32 corners each, in order around the card
    (see ``order_corners``). ``blocks``, when given, also gets the outlines holding cards
    found that were set aside as blocks (as in ``find_outlines``, except strips of two cards
    end to end, which hold no card found): several cards outlined as one, or one card whose
    picture panels were taken for cards; only naming tells which."""
    found = _find(image, whole=False)
    if blocks is not None:
        blocks.extend(found.blocks)
    return found.cards


class Outlines(NamedTuple):
    """What ``find_outlines`` finds: the cards, and outlines that may be more cards."""

    cards: list[np.ndarray]
    blocks: list[np.ndarray]
    parts: list[np.ndarray]
    close_ups: list[np.ndarray]
    panels: list[np.ndarray]
    at_corners: list[np.ndarray]
    slanted: list[np.ndarray]


def find_outlines(image: np.ndarray, *, one_card: bool = False, colour: bool = False
                  ) -> Outlines:
    """The cards (as ``find_cards``) and, apart, outlines that may be cards touching with no
    mat between them, which a reader must name before taking them for cards:

    - blocks: four-sided outlines that may be two cards with no visible seam between them. A
      block is a strip shaped like two cards end to end (``STRIP_ASPECT``), or a card-shaped
      outline that holds a card found on its own (two cards side by side). A reader can try
      each half of a block (``halves``).
    - parts: card-shaped pieces of a larger outline of another shape (three light cards in
      an L, a T or a square), cut along the thin dark seams between them.
    - close_ups: card-shaped outlines larger than any card on a table (over
      ``MAX_AREA_FRAC`` of the picture, up to ``CLOSE_UP_FRAC``), largest first: one card
      photographed from close by, or else a mat or a tray the cards lie on.
    - panels: the other four-sided outlines looked at and set aside: about square (a
      picture, a marker, a mat's slot, a card seen from the side), or inside or over a card
      found (its frame, its picture panel). A reader that knows where a deck's cards have a
      panel can try the card around each, where a card's own outline does not show whole;
      one may try each about square as a card seen from the side.
    - at_corners: card-shaped places at the corners of outlines that hold more than the
      cards found fill (a pile, light cards touching with no line between them), where two
      sides of a card's outline may lie along the outline's (``CORNER_EPS`` and after), and
      places of cards whose edge shows on three sides only, or two (a hand or glare hiding
      the others), the corner the outline's hull cut off put back (``FAINT_OTHERS``). Most
      are not cards: a reader must name one before taking it for a card.
    - slanted: outlines along edges all round, longer than a card's proportions allow (up
      to ``SLANTED_MAX``): a card photographed from the side, lengthwise, or no card; a
      reader must name one before taking it for a card.

    ``one_card``: the picture is a photo of one card on a table, which may take much of it
    (a reference photo): a large outline whose four sides kept do not run along edges is
    fitted once more along its sides (round corners over many pixels skew the first fit).
    Not on a table's scene, where a large outline is most often a pile's.

    ``colour``: the edges of each colour channel count too, not only the grey picture's: a
    card may show against its table in colour alone (a black card on a purple cloth). More
    edges cost more and can join a card's outline to the lines inside it: for a photo that
    the grey picture's edges leave in doubt.
    """
    return _find(image, whole=True, one_card=one_card, colour=colour)


def halves(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of a quad cut across its long sides, each in order around itself
    (``order_corners``): two cards where one block of two was outlined."""
    q = order_corners(quad)  # side 0->1 is a short side
    m12 = (q[1] + q[2]) / 2
    m30 = (q[3] + q[0]) / 2
    return (order_corners(np.float32([q[0], q[1], m12, m30])),
            order_corners(np.float32([m30, m12, q[2], q[3]])))


def _work_scale(h: int, w: int, *, enlarge: bool) -> float:
    """How much a picture of h x w pixels is scaled for finding: to ``WORK_PIXELS`` when it
    has more than ``MAX_WORK_PIXELS``, or (``enlarge``) fewer than ``MIN_WORK_PIXELS``;
    else 1."""
    if h * w <= MAX_WORK_PIXELS and (h * w >= MIN_WORK_PIXELS or not enlarge):
        return 1.0
    return math.sqrt(WORK_PIXELS / (h * w))


def _working(image: np.ndarray, k: float, *, grey: bool = True
             ) -> tuple[np.ndarray, np.ndarray]:
    """The picture (grey unless ``grey`` is False) scaled by ``k`` (``_work_scale``), and its
    size over the picture's (x, y)."""
    if grey and image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = image.shape[:2]
    if k == 1:
        return image, np.float32([1, 1])
    sw, sh = max(1, round(w * k)), max(1, round(h * k))
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    return small, np.float32([sw / w, sh / h])


def _to_picture(q: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Corners at the working size back in the picture's pixels (pixel centres onto pixel
    centres)."""
    return order_corners((q + 0.5) / scale - 0.5)


def _find(image: np.ndarray, *, whole: bool, one_card: bool = False, colour: bool = False
          ) -> Outlines:
    """What finding finds at the working size (``_work_scale``), corners in the picture's
    pixels. A camera's frame (not ``whole``) gives only cards and blocks holding cards
    found; a whole picture read at once (``whole``) is also enlarged when small, and gives
    every list of ``find_outlines``."""
    k = _work_scale(*image.shape[:2], enlarge=whole)
    grey, scale = _working(image, k)
    edges = None
    if colour and image.ndim == 3:
        edges = _colour_edges(grey, _working(image, k, grey=False)[0])
    found = _find_at(grey, whole=whole, one_card=one_card, edges=edges)
    return Outlines(*([_to_picture(q, scale) for q in quads] for quads in found))


def _find_at(grey: np.ndarray, *, whole: bool, one_card: bool = False,
             edges: np.ndarray | None = None) -> Outlines:
    """``_find`` at the working size (``edges``: the picture's edges, when not ``_edges``
    of ``grey``)."""
    out = Outlines([], [], [], [], [], [], [])
    blocks = out.blocks
    h, w = grey.shape[:2]
    # A reference photo is cut along the line just outside its card's edge: measured on four
    # sets of photos, cut on the edge, dark-bordered cards enrolled so were named less often
    # (65 -> 48 % of spread cards on one set).
    on_edge = not one_card
    edges = _edges(grey) if edges is None else edges
    # Thin edges keep the regions inside a card apart from its outline (touching cards).
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    near = cv2.dilate(edges, _KERNEL)
    img_area = float(h * w)
    min_len = 3.0 * math.sqrt(MIN_AREA_FRAC * img_area)
    min_short = 0.7 * _smallest_short_side(img_area)
    cands: list[np.ndarray] = []
    seen: list[tuple[float, float, float]] = []
    found: list[tuple[float, float, float]] = []
    kept: list[np.ndarray] = []  # the cards found so far, as contours
    markers: list[np.ndarray] = []
    squares: list[np.ndarray] = []  # outlines about as long as wide
    large: list[np.ndarray] = []  # card-shaped, larger than a card on a table
    most = CLOSE_UP_FRAC if whole else MAX_AREA_FRAC
    least, largest = 0.7 * MIN_AREA_FRAC * img_area, 1.2 * most * img_area  # a quad's area
    big = []
    for c in contours:
        if len(c) < 4:
            continue
        _, _, bw, bh = cv2.boundingRect(c)
        if bw < min_short or bh < min_short or cv2.arcLength(c, True) < min_len:
            continue
        big.append((bw * bh, c))
    # Largest first: a card's outline comes before the regions inside it, which then need
    # no second look.
    big.sort(key=lambda x: -x[0])
    for _, c in big:
        q = _fit_quad(c)
        if q is None or not cv2.isContourConvex(q):
            continue
        area = cv2.contourArea(q)
        if not least <= area <= largest:
            continue
        # The two sides of one edge line give the same quad: look at it once.
        cx, cy = _centre(q)
        if any(abs(cx - x) < 2.5 and abs(cy - y) < 2.5 and abs(area - a) < 0.06 * a
               for x, y, a in seen):
            continue
        seen.append((cx, cy, area))
        ratio = _aspect(q)
        if ratio < ROUGH_CARD_ASPECT[0]:
            squares.append(q)  # a card so slanted that it looks square? (see _enclosed)
            continue
        if not ROUGH_CARD_ASPECT[0] <= ratio <= ROUGH_CARD_ASPECT[1]:
            # A strip of two cards end to end holds no card found: only a whole picture read at
            # once cuts one in two; the table's blocks hold cards found.
            if (whole and area >= MIN_AREA_FRAC * img_area
                    and ROUGH_STRIP_ASPECT[0] <= ratio <= ROUGH_STRIP_ASPECT[1]):
                _keep_strip(c, q, near, img_area, blocks)
            continue
        if any(abs(cx - x) < 3.0 and abs(cy - y) < 3.0 and 0.7 * a < area < a
               for x, y, a in found):
            continue  # the inside of a card already found
        # A marker never lies on a card: a square there (a card's picture) is not one.
        on_card = any(cv2.pointPolygonTest(k, (cx, cy), False) > 0 for k in kept)
        if any(cv2.pointPolygonTest(m, (cx, cy), False) > 0 for m in markers):
            continue  # the inside of a marker
        if ratio < SQUARISH:
            if on_card:
                continue  # a square on a card is its picture, neither a card nor a marker
            if _is_marker(grey, q):
                markers.append(q.reshape(-1, 1, 2))
                continue
        if whole and area > 0.8 * MAX_AREA_FRAC * img_area:
            # So long an outline's corners, cut off round, leave its sides askew: fit them to
            # the outline (as for a strip) before pushing them onto the edge. From a little
            # under half the picture: an outline may grow past it when pushed (the table's
            # tracker never sees cards this large).
            fitted = _fit_sides(c, q)
            q = q if fitted is None else fitted
        rough = q
        q, s = _refine(q, near, REACH * _short_side(q), on_edge=on_edge)
        large_card = one_card and area >= LARGE_CARD_FRAC * img_area
        if large_card and _card_shaped(q, img_area) and not _supported(s):
            # A large card's round corners can leave the four corners kept askew, and its
            # sides then off the edges: fitted along the outline, they may run on them.
            fitted = _fit_sides(c, rough)
            if fitted is not None:
                q2, s2 = _refine(fitted, near, REACH * _short_side(fitted), on_edge=on_edge)
                if _supported(s2):
                    q, s = q2, s2
        if not _card_shaped(q, img_area):
            out.at_corners.extend(_faint_side_completed(q, s, img_area) if whole else ())
            if _aspect(q) < MIN_ASPECT:
                squares.append(q)
            elif (whole and cv2.contourArea(q) > MAX_AREA_FRAC * img_area
                  and _card_shaped(q, img_area, most=CLOSE_UP_FRAC) and _supported(s)):
                large.append(q)
            elif whole and _aspect(q) <= SLANTED_MAX and _supported(s):
                out.slanted.append(q)  # a card seen from the side, lengthwise?
            continue
        if not on_card and _aspect(q) < SQUARISH and _is_marker(grey, q):
            markers.append(q.reshape(-1, 1, 2))  # snapped to a marker's own outline
            continue
        if not _supported(s):
            out.at_corners.extend(_faint_side_completed(q, s, img_area) if whole else ())
            continue
        cands.append(q)
        found.append((*_centre(q), cv2.contourArea(q)))
        kept.append(q.reshape(-1, 1, 2))
    if squares and cands:
        cands = _enclosed(cands, squares, near, img_area, on_edge=on_edge)
    cards = _resolve(_without_mat(cands, grey), blocks)
    out.cards.extend(cards)
    if not whole:
        return out
    taken = {id(q) for q in cards + blocks}
    out.panels.extend(q for q in cands if id(q) not in taken)
    out.panels.extend(squares)
    out.close_ups.extend(_resolve(large))  # an outline's inner frame, or two cards' outline: once
    # The outer outlines, their small gaps closed.
    outer, _ = cv2.findContours(near, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for outline, inside in _unfilled(outer, cards, img_area):
        out.parts.extend(_cut(grey, near, outline, inside, img_area))
        out.at_corners.extend(_at_corners(outline, img_area))
    return out


def _without_mat(cands: list[np.ndarray], grey: np.ndarray) -> list[np.ndarray]:
    """``cands`` but the mat seen whole. From further away (a camera mounted high) the whole
    mat takes under half the picture and its outline is card-shaped: taken for a card, it
    would hide the cards on it as its inner frame (``_resolve``). An outline holding a
    candidate under ``SURFACE_SHARE`` of its area is the mat when two of the mat's markers
    at least lie inside it (a card's art can hold so small a card-shaped spot: the markers
    tell them apart, and are only looked for then)."""
    areas = [_poly_area(q) for q in cands]
    holding = [i for i, q in enumerate(cands)
               if any(j != i and areas[j] < SURFACE_SHARE * areas[i]
                      and _inter(q, cands[j]) >= 0.85 * areas[j] for j in range(len(cands)))]
    if not holding:
        return cands
    from vision.mat import detect_markers

    middles = [tuple(map(float, m.mean(axis=0))) for m in detect_markers(grey).values()]
    mats = {i for i in holding
            if sum(cv2.pointPolygonTest(cands[i].reshape(-1, 1, 2), p, False) > 0
                   for p in middles) >= 2}
    return [q for i, q in enumerate(cands) if i not in mats]


def _enclosed(cands: list[np.ndarray], squares: list[np.ndarray], near: np.ndarray,
              img_area: float, *, on_edge: bool = True) -> list[np.ndarray]:
    """Each candidate that is the picture panel of a card seen so slanted that the card looks
    square (too square to be taken for one, while its panel still looks card-shaped) replaced
    by the card's outline: a square outline along edges all round, holding the candidate in its
    middle at a share of its area a panel has (``ENCLOSED``) with a border on three sides
    at least (``ENCLOSED_BORDER``), every side of the candidate along one of its own.
    ``on_edge``: as for ``_refine``."""
    out = []
    around = [(f, cv2.contourArea(f), _centre(f)) for f in squares]
    for q in cands:
        area = cv2.contourArea(q)
        centre = _centre(q)
        for f, fa, f_centre in around:
            if not (ENCLOSED[0] * fa <= area <= ENCLOSED[1] * fa
                    and _dist(centre, f_centre) <= 0.15 * math.sqrt(fa)):
                continue
            f, s = _refine(f, near, REACH * _short_side(f), on_edge=on_edge)
            if (_supported(s) and _card_shaped(f, img_area, (1.0, MIN_ASPECT))
                    and _inter(q, f) >= 0.95 * area and _parallel(q, f)
                    and sorted(_insets(q, f))[1] >= ENCLOSED_BORDER * math.sqrt(fa)):
                q = f
                break
        out.append(q)
    return out


def _supported(s: list[float]) -> bool:
    """Does a refined quad run along edges (``_refine``'s support of each side)?"""
    return min(s) >= MIN_SIDE_SUPPORT and sum(s) / 4 >= MIN_MEAN_SUPPORT


def _insets(inner: np.ndarray, outer: np.ndarray) -> list[float]:
    """For each side of ``inner``, how far its middle lies from the nearest side of
    ``outer`` (the line through it), in pixels."""
    a = np.asarray(outer, np.float64).reshape(4, 2)
    d = np.roll(a, -1, axis=0) - a
    normals = np.stack([-d[:, 1], d[:, 0]], axis=1) / (np.hypot(d[:, 0], d[:, 1])[:, None] + 1e-9)
    q = np.asarray(inner, np.float64).reshape(4, 2)
    mids = (q + np.roll(q, -1, axis=0)) / 2
    # Middle i against line j: |(mid_i - a_j) . n_j|, the least over j.
    return np.abs(((mids[:, None, :] - a[None]) * normals[None]).sum(axis=2)).min(axis=1).tolist()


def _parallel(a: np.ndarray, b: np.ndarray, degrees: float = 6.0) -> bool:
    """Every side of ``a`` within ``degrees`` of the direction of a side of ``b``."""
    def directions(q):
        p = q.tolist()
        return [math.degrees(math.atan2(p[(i + 1) % 4][1] - p[i][1],
                                        p[(i + 1) % 4][0] - p[i][0])) % 180 for i in range(4)]
    db = directions(b)
    return all(min(min(abs(x - y), 180 - abs(x - y)) for y in db) <= degrees
               for x in directions(a))


def _unfilled(outlines: list[np.ndarray], cards: list[np.ndarray], img_area: float
              ) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """The closed ``outlines`` that the ``cards`` found inside them do not fill, each with
    those cards: light cards touching or piled with no mat between them, whose outline
    together has some other shape than a card's."""
    min_card = MIN_AREA_FRAC * img_area
    centres = [_centre(q) for q in cards]
    areas = [cv2.contourArea(q) for q in cards]
    out = []
    for c in outlines:
        x, y, bw, bh = cv2.boundingRect(c)
        if bw * bh < 1.6 * min_card:
            continue
        area = cv2.contourArea(c)  # about nothing for a line that does not close
        inside = [i for i, (cx, cy) in enumerate(centres)
                  if x <= cx <= x + bw and y <= cy <= y + bh
                  and cv2.pointPolygonTest(c, (cx, cy), False) > 0]
        if area - sum(areas[i] for i in inside) < 0.8 * min_card:
            continue  # the cards found fill it, or it does not close
        out.append((c, [cards[i] for i in inside]))
    return out


def _at_corners(outline: np.ndarray, img_area: float) -> list[np.ndarray]:
    """Card-shaped places at the corners of a closed outline of several cards (see
    ``CORNER_EPS`` and after), each lying mostly inside it."""
    runs = cv2.approxPolyDP(outline, CORNER_EPS * cv2.arcLength(outline, True), True)
    n = len(runs)
    if not 4 <= n <= CORNER_MAX_RUNS:
        return []
    shortest = 0.9 * _smallest_short_side(img_area)
    pts = runs.reshape(-1, 2).tolist()  # whole pixels: plain numbers keep them exact
    # Each run's length (from point i to the next) in float32, as measured before.
    lengths = _f32([math.hypot(bx - ax, by - ay)
                    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1], strict=True)])
    x, y, bw, bh = cv2.boundingRect(outline)
    fill = None
    out = []
    for i in range(n):
        la, lb = lengths[i - 1], lengths[i]
        if min(la, lb) < shortest:
            continue
        vx, vy = pts[i]
        ax, ay = pts[i - 1][0] - vx, pts[i - 1][1] - vy
        bx, by = pts[(i + 1) % n][0] - vx, pts[(i + 1) % n][1] - vy
        if (abs(ax * bx + ay * by) > CORNER_COS * la * lb
                or not CORNER_ASPECT[0] <= max(la, lb) / min(la, lb) <= CORNER_ASPECT[1]):
            continue
        q = np.float32(_clockwise([[vx, vy], [vx + bx, vy + by], [vx + ax + bx, vy + ay + by],
                                   [vx + ax, vy + ay]]))
        if not _card_shaped(q, img_area):
            continue
        if fill is None:  # the outline filled, to tell how much of a place lies inside it
            fill = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(fill, [outline], -1, 255, cv2.FILLED, offset=(-x, -y))
        if _inside_share(q, fill, x, y) >= CORNER_INSIDE:
            out.append(q)
    return out


def _faint_side_completed(q: np.ndarray, support: list[float], img_area: float
                          ) -> list[np.ndarray]:
    """The place of a card whose edge shows on three sides of ``q`` only, or on two meeting
    at a corner, the corner cut off where the others' edge fades put back (see FAINT_OTHERS;
    with nothing cut off, ``q`` itself), as a list of one; none when ``q`` is no such outline
    or the place is not card-shaped. ``support``: the share of each side along an edge
    (``_refine``)."""
    weak = [i for i, v in enumerate(support) if v < MIN_SIDE_SUPPORT]
    if not 1 <= len(weak) <= 2 or min(v for i, v in enumerate(support)
                                      if i not in weak) < FAINT_OTHERS:
        return []
    p = q.tolist()
    if len(weak) == 2:
        if weak[1] - weak[0] == 2:
            return []  # two faint sides facing each other: no corner was cut
        # Two faint sides meeting at a corner (glare on it): the card on the two that show,
        # which meet at corner a + 1, its fourth corner where they put it.
        a = (weak[1] + 1) % 4 if weak[1] - weak[0] == 1 else weak[0] + 1
        b, c = (a + 1) % 4, (a + 2) % 4
        p[(a + 3) % 4] = [p[a][0] + p[c][0] - p[b][0], p[a][1] + p[c][1] - p[b][1]]
    else:
        k = weak[0]  # the faint side runs from corner k to corner k + 1
        j = (k + 1) % 4
        before, after = p[k - 1], p[(k + 2) % 4]  # the far ends of the sides beside it
        la, lb = _dist(before, p[k]), _dist(p[j], after)
        if min(la, lb) < 1.0:
            return []  # a side of no length: no card's outline
        # The side cut short (ending at corner k, or starting at corner k + 1) lengthened.
        if la < lb:
            p[k] = _along(before, p[k], lb / la)
        elif lb < la:
            p[j] = _along(after, p[j], la / lb)
    place = np.float32(p)
    return [place] if _card_shaped(place, img_area) else []


def _along(start: list[float], end: list[float], times: float) -> list[float]:
    """The point ``times`` as far from ``start`` as ``end``, the same way."""
    return [start[0] + (end[0] - start[0]) * times, start[1] + (end[1] - start[1]) * times]


def _inside_share(q: np.ndarray, fill: np.ndarray, x: int, y: int) -> float:
    """The share of quad ``q`` lying on the mask ``fill`` (whose top left is at x, y); ``q``
    reaches into the mask's box (a corner place has its corner on the outline)."""
    ring = np.int32(np.round(q - (x, y)))
    x0, y0 = np.maximum(ring.min(axis=0), 0).tolist()
    x1, y1 = np.minimum(ring.max(axis=0) + 1, fill.shape[::-1]).tolist()
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)  # what lies off it is off the mask too
    cv2.fillConvexPoly(mask, ring - (x0, y0), 255)
    on = cv2.countNonZero(cv2.bitwise_and(mask, fill[y0:y1, x0:x1]))
    return on / max(1.0, cv2.contourArea(q))


def _cut(grey: np.ndarray, near: np.ndarray | None, outline: np.ndarray,
         cards: list[np.ndarray], img_area: float, *, whole_too: bool = True
         ) -> list[np.ndarray]:
    """The card-shaped pieces of the region inside ``outline`` but outside ``cards``, cut
    along its seams; each side pushed onto an edge of ``near`` when there is one. Unless
    ``whole_too``, a piece that is most of the outline (nothing was cut off) is none."""
    min_card = MIN_AREA_FRAC * img_area
    h, w = grey.shape[:2]
    ring = np.int32(np.round(outline)).reshape(-1, 1, 2)
    x, y, bw, bh = cv2.boundingRect(ring)
    x0, y0 = max(0, x - 2), max(0, y - 2)
    x1, y1 = min(w, x + bw + 2), min(h, y + bh + 2)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return []
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(mask, [ring], -1, 255, cv2.FILLED, offset=(-x0, -y0))
    for q in cards:  # what is a card already is no piece
        q = np.int32(np.round(q - (x0, y0)))
        cv2.fillConvexPoly(mask, q, 0)
        cv2.polylines(mask, [q], True, 0, 5)
    if cv2.countNonZero(mask) < 0.8 * min_card:
        return []
    seams = cv2.morphologyEx(grey[y0:y1, x0:x1], cv2.MORPH_BLACKHAT, _SEAM_KERNEL)
    _, apart = cv2.threshold(seams, SEAM_DEPTH, 255, cv2.THRESH_BINARY_INV)
    mask = cv2.erode(cv2.bitwise_and(mask, apart), _KERNEL)
    pieces, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    whole = None if whole_too else cv2.contourArea(np.float32(outline).reshape(-1, 1, 2))
    out = []
    for piece in pieces:
        size = cv2.contourArea(piece)
        if size < 0.6 * min_card or (whole is not None and size > 0.8 * whole):
            continue
        q = _fit_quad(piece + (x0, y0))
        if q is None or not _card_shaped(q, img_area):
            continue
        if near is not None:
            pushed, _ = _refine(q, near, REACH * _short_side(q))
            q = pushed if _card_shaped(pushed, img_area) else q
        if _foreshortening(q) >= PIECE_FORESHORTENING:
            out.append(q)
    return out


def _foreshortening(q: np.ndarray) -> float:
    """How alike the opposite sides of ``q`` are: each pair's shorter over its longer, the
    two multiplied (1: a parallelogram)."""
    s0, s1, s2, s3 = _sides(q)
    return min(s0, s2) / max(s0, s2, _TINY) * min(s1, s3) / max(s1, s3, _TINY)


def seam_pieces(image: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The card-shaped pieces of ``quad`` cut along its seams (as the pieces of
    ``find_outlines``): light cards in a pile or touching whose outline together was taken
    for one card's. Corners in the picture's pixels."""
    part = _part(image, quad, margin=4)
    if part is None:
        return []
    grey, scale, at, inside, area = part
    # The quad itself was looked at already: only what seams cut from it is new.
    pieces = _cut(grey, None, inside, [], area, whole_too=False)
    return [_to_picture(p, scale) + at for p in pieces]


def on_outline(image: np.ndarray, quad: np.ndarray, *, colour: bool = False
               ) -> tuple[np.ndarray, list[float]] | None:
    """``quad`` (picture pixels) with each side pushed outwards onto the outermost straight
    edge near it (on the line just outside it, see ``_refine``), and the share of each side
    along an edge: how much of a card's own outline shows there. None when the quad lies
    outside the picture. ``colour``: the edges of each colour channel count too (a black
    card on a dark blue cloth shows in colour alone)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    part = _part(image, q, margin=4 + int(2 * REACH * _short_side(q)), colour=colour)
    if part is None:
        return None
    grey, scale, at, inside, _ = part
    if grey.ndim == 3:  # grey and the colours (``colour``)
        edges = _colour_edges(grey[..., 0], grey[..., 1:], around_card=True)
    else:
        edges = _edges(grey, around_card=True)
    near = cv2.dilate(edges, _KERNEL)
    # Just outside the edge, as before, for every place pushed here (around a picture panel,
    # on a pile's corner, where the features place a card, in a read or on the live table):
    # a place tried around a panel is taken when the first look names it, and one tighter
    # place, turned a quarter around our cards' nearly square panel, was named so.
    pushed, support = _refine(inside, near, REACH * _short_side(inside), on_edge=False)
    return _to_picture(pushed, scale) + at, support


def _part(image: np.ndarray, q: np.ndarray, *, margin: int, colour: bool = False):
    """The part of the picture around quad ``q`` (with ``margin`` pixels more each way) in
    grey at the size the whole picture would be found at: (grey, its size over the part's,
    the part's top left in the picture, ``q`` in its pixels, the whole picture's area at
    that size), or None when nothing of it is in the picture. ``colour``: grey and the three
    colour channels, stacked (h x w x 4), for a colour picture."""
    h, w = image.shape[:2]
    k = _work_scale(h, w, enlarge=True)  # as find_outlines looks at the whole picture
    q = np.asarray(q, np.float32).reshape(4, 2)
    x0, y0 = (max(0, int(v) - margin) for v in q.min(axis=0))
    x1, y1 = min(w, int(q[:, 0].max()) + margin + 1), min(h, int(q[:, 1].max()) + margin + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    grey, scale = _working(image[y0:y1, x0:x1], k)
    if colour and image.ndim == 3:
        grey = np.dstack([grey, _working(image[y0:y1, x0:x1], k, grey=False)[0]])
    return grey, scale, np.float32([x0, y0]), (q - (x0, y0) + 0.5) * scale - 0.5, k * k * h * w


def _resolve(quads: list[np.ndarray], blocks: list[np.ndarray] | None = None
             ) -> list[np.ndarray]:
    """Drop duplicates (the same card found twice, a card's inner frame) and blocks made of
    two or more cards that were also found one by one (added to ``blocks`` if given)."""
    if not quads:
        return []
    areas = [_poly_area(q) for q in quads]
    n = len(quads)
    drop = [False] * n
    # Blocks: a candidate holding a clearly smaller candidate of card size is several cards
    # seen as one (touching side by side, or a pile whose outline looks four-sided). A card's
    # inner frame or picture panel does not count: it sits in the middle of its card, or
    # inside its border, parallel to it and in the middle across (``_panel``).
    centres = [_centre(q) for q in quads]
    for i in range(n):
        for j in range(n):
            if (j != i and BLOCK_MIN * areas[i] < areas[j] < BLOCK_MAX * areas[i]
                    and _dist(centres[i], centres[j]) > 0.15 * math.sqrt(areas[i])
                    and _inter(quads[i], quads[j]) >= 0.85 * areas[j]
                    and not _panel(quads[j], quads[i])):
                drop[i] = True
                if blocks is not None:
                    blocks.append(quads[i])
                break
    # Duplicates: keep the larger of two that mostly coincide (outer edge over inner frame).
    order = sorted(range(n), key=lambda k: -areas[k])
    kept: list[int] = []
    for i in order:
        if drop[i]:
            continue
        if any(_inter(quads[i], quads[k]) > 0.6 * areas[i] for k in kept):
            continue
        kept.append(i)
    return [quads[k] for k in kept]


def _panel(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Could ``inner`` be a picture panel or text box of the card ``outer`` rather than a
    card of a block? A panel lies inside the card's border (none of its corners reaches the
    outline, within ``OUTLINE_TOL`` of its short side), its sides along the card's, and in
    the middle across the card one way (``PANEL_CENTRED``, of the card's size that way). A
    card in a block of two touching reaches the block's outline; the top card of a pile lies
    anywhere."""
    ring = outer.reshape(-1, 1, 2)
    tol = max(1.5, OUTLINE_TOL * _short_side(inner))
    if any(cv2.pointPolygonTest(ring, p, True) <= tol for p in inner.tolist()):
        return False
    if not _parallel(inner, outer):
        return False
    square = cv2.getPerspectiveTransform(outer, _UNIT)
    u, v = cv2.perspectiveTransform(np.float32([[_centre(inner)]]), square)[0, 0].tolist()
    return min(abs(u - 0.5), abs(v - 0.5)) <= PANEL_CENTRED


def changed(prev: np.ndarray | None, cur: np.ndarray, *, threshold: float = 18.0,
            min_fraction: float = 0.002, step: int = 4) -> bool:
    """Did anything move between two frames? A cheap look at every ``step``-th pixel of the
    grey picture: True when more than ``min_fraction`` of them changed by over ``threshold``
    grey levels (sensor noise stays well below that)."""
    if prev is None or prev.shape != cur.shape:
        return True
    a = prev[::step, ::step]
    b = cur[::step, ::step]
    if a.ndim == 3:
        a = a[..., 1]
        b = b[..., 1]
    diff = cv2.absdiff(a, b)
    n = int(np.count_nonzero(diff > threshold))
    return n > min_fraction * diff.size


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    a = np.asarray(a, np.float32).reshape(4, 2)
    b = np.asarray(b, np.float32).reshape(4, 2)
    inter = _inter(a, b)
    union = _poly_area(a) + _poly_area(b) - inter
    return inter / union if union > 0 else 0.0
