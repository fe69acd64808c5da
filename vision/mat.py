"""The play mat's geometry, in millimetres, with the origin at the mat's top-left corner.

The mat is A3 landscape. An ArUco marker sits in each corner so the camera can find the mat
wherever it is mounted; the two reveal slots are where cards are laid face up in a duel
(slot "a": the challenger, or whoever reveals alone; slot "b": the target).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

MAT_W_MM = 420.0
MAT_H_MM = 297.0
CARD_W_MM = 63.0
CARD_H_MM = 88.0
CARD_ASPECT = CARD_H_MM / CARD_W_MM  # long side / short side

ARUCO_DICT = "DICT_4X4_50"
MARKER_MM = 40.0
MARKER_MARGIN_MM = 12.0
# Marker id -> its top-left corner in mat millimetres (clockwise from the mat's top-left).
MARKERS = {
    0: (MARKER_MARGIN_MM, MARKER_MARGIN_MM),
    1: (MAT_W_MM - MARKER_MARGIN_MM - MARKER_MM, MARKER_MARGIN_MM),
    2: (MAT_W_MM - MARKER_MARGIN_MM - MARKER_MM, MAT_H_MM - MARKER_MARGIN_MM - MARKER_MM),
    3: (MARKER_MARGIN_MM, MAT_H_MM - MARKER_MARGIN_MM - MARKER_MM),
}


@dataclass(frozen=True, slots=True)
class Zone:
    name: str
    x: float  # left edge, mm
    y: float  # top edge, mm
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h


SLOT_W_MM = 80.0
SLOT_H_MM = 105.0
ZONES = (
    Zone("a", MAT_W_MM / 2 - 20.0 - SLOT_W_MM, (MAT_H_MM - SLOT_H_MM) / 2, SLOT_W_MM, SLOT_H_MM),
    Zone("b", MAT_W_MM / 2 + 20.0, (MAT_H_MM - SLOT_H_MM) / 2, SLOT_W_MM, SLOT_H_MM),
)


ZONE_NAMES = {"a": "challenger", "b": "target"}
CORNER_NAMES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}


def zone_named(name: str) -> Zone:
    for zone in ZONES:
        if zone.name == name:
            return zone
    raise KeyError(f"no slot named {name!r} on the mat (slots: {', '.join(z.name for z in ZONES)})")


def zone_at(x: float, y: float) -> Zone | None:
    """The slot that holds the mat point (x, y) mm, or None."""
    for zone in ZONES:
        if zone.contains(x, y):
            return zone
    return None


def zone_corners_mm(zone: Zone) -> np.ndarray:
    """The slot's four corners in mm, clockwise from its top-left."""
    return np.array([(zone.x, zone.y), (zone.x + zone.w, zone.y),
                     (zone.x + zone.w, zone.y + zone.h), (zone.x, zone.y + zone.h)], np.float32)


def card_corners(cx: float, cy: float, width: float = CARD_W_MM, turn: float = 0.0
                 ) -> np.ndarray:
    """A card's four corners (clockwise from its top-left) when it lies centred at (cx, cy),
    its short side ``width`` long (default: in mat mm), turned ``turn`` degrees."""
    h = width * CARD_ASPECT
    a = math.radians(turn)
    c, s = math.cos(a), math.sin(a)
    local = np.float32([[-width / 2, -h / 2], [width / 2, -h / 2], [width / 2, h / 2],
                        [-width / 2, h / 2]])
    rot = np.float32([[c, -s], [s, c]])
    return local @ rot.T + np.float32([cx, cy])


def marker_corners_mm(marker_id: int) -> np.ndarray:
    """A marker's four corners in mat mm, in ArUco's order (clockwise from its top-left)."""
    x, y = MARKERS[marker_id]
    m = MARKER_MM
    return np.array([(x, y), (x + m, y), (x + m, y + m), (x, y + m)], np.float32)


# ----------------------------------------------------------------------- finding the mat

CARD_SIZE_TOLERANCE = 0.15
# What to tell staff when cards on the mat measure another size than a card on it (see
# ``MatView.times_a_card``): camera-check and enrolment say it alike.
REPRINT_MAT = ("the mat was printed at another size. Print it on A3 paper at 100 % (not shrunk "
               "onto A4): its corner squares must measure 40 mm.")
# Cards smaller than a card on the mat: a mat printed larger than A3, or cards of a smaller
# size than the 63 x 88 mm the mat is made for.
REPRINT_MAT_SMALLER = ("the mat was printed larger than A3, or the cards are smaller than the "
                       "63 x 88 mm cards it is made for, which it cannot read. Print it on A3 "
                       "paper at 100 %: its corner squares must measure 40 mm.")


def reprint_advice(times: float) -> str:
    """What to tell staff when cards measure ``times`` a card on the mat (not about 1)."""
    return REPRINT_MAT if times > 1 else REPRINT_MAT_SMALLER
# A card read on the mat measuring MISFIT_LARGER times a card on it at least (or its inverse at
# most), with a card's shape at that size, is a card of another size than the mat's (see
# ``MatView.misfit_times``, and vision.tracking for how long it must lie there).
MISFIT_LARGER = 1.25
MIN_MARKERS = 2  # two markers (8 corners) fix the homography; three or four make it robust


@lru_cache(maxsize=1)
def _detector():
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The mat's corner markers seen in a BGR or grey image: id -> 4x2 image corners."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _rejected = _detector().detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        marker_id = int(marker_id)
        if marker_id in MARKERS and marker_id not in found:
            found[marker_id] = np.asarray(quad, np.float32).reshape(4, 2)
    return found


@dataclass(frozen=True, eq=False)
class MatView:
    """Where the mat lies in a camera picture: the homographies image px <-> mat mm."""

    to_mm: np.ndarray  # 3x3, image pixels -> mat millimetres
    to_px: np.ndarray  # 3x3, mat millimetres -> image pixels
    markers: tuple[int, ...]  # the marker ids it was found from
    error_mm: float  # RMS distance between the markers' corners and where the view puts them

    def image_to_mat(self, points) -> np.ndarray:
        return _transform(self.to_mm, points)

    def mat_to_image(self, points) -> np.ndarray:
        return _transform(self.to_px, points)

    def card_centre_mm(self, corners) -> tuple[float, float]:
        """The centre (mm) of a card given by its four image corners."""
        mm = self.image_to_mat(corners)
        return float(mm[:, 0].mean()), float(mm[:, 1].mean())

    def zone_of(self, corners) -> Zone | None:
        """The slot in which the card with these image corners lies (by its centre), or None."""
        return zone_at(*self.card_centre_mm(corners))

    def card_sized(self, corners, tolerance: float = CARD_SIZE_TOLERANCE) -> bool:
        """Whether the quad (image px) measures a card on the mat (63 x 88 mm, give or take
        ``tolerance``): slot outlines, markers and cards still in the air do not."""
        return card_sized_mm(self.image_to_mat(corners), tolerance)

    def card_misfit(self, corners) -> float:
        """How far the quad's side (image px) furthest from a card's is from it on the mat
        (``card_misfit_mm``): a card outlined with something touching it has one side long."""
        return card_misfit_mm(self.image_to_mat(corners))

    def times_a_card(self, corners) -> float:
        """How many times as large as a card (CARD_W_MM x CARD_H_MM) the quad (image px)
        measures on the mat: the square root of the ratio of the areas. Real cards measure
        about 1.41 on a mat printed on A4 instead of A3."""
        import cv2

        area = abs(cv2.contourArea(self.image_to_mat(corners).astype(np.float32)))
        return float(np.sqrt(area / (CARD_W_MM * CARD_H_MM)))

    def misfit_times(self, corners) -> float | None:
        """How many times a card on the mat the quad (image px) measures, when it is of
        another size than a card on it (``MISFIT_LARGER``) with a card's shape at that size;
        else None."""
        times = self.times_a_card(corners)
        if 1 / MISFIT_LARGER < times < MISFIT_LARGER:
            return None
        mm = self.image_to_mat(corners)
        mid = mm.mean(axis=0)
        return times if card_sized_mm(mid + (mm - mid) / times) else None

    def outline_px(self) -> np.ndarray:
        corners = np.array([(0, 0), (MAT_W_MM, 0), (MAT_W_MM, MAT_H_MM), (0, MAT_H_MM)],
                           np.float32)
        return self.mat_to_image(corners)


def _sides_mm(corners_mm) -> np.ndarray:
    mm = np.asarray(corners_mm, np.float64).reshape(4, 2)
    return np.linalg.norm(mm - np.roll(mm, -1, axis=0), axis=1)


def card_sized_mm(corners_mm, tolerance: float = 0.15) -> bool:
    """Whether four corners (mm, in order around) measure a card, give or take ``tolerance``
    (each pair of opposite sides on average)."""
    sides = _sides_mm(corners_mm)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return (abs(short / CARD_W_MM - 1) <= tolerance and abs(long_ / CARD_H_MM - 1) <= tolerance)


def card_misfit_mm(corners_mm) -> float:
    """How far the side of four corners (mm, in order around) furthest from a card's is from
    it, as a share of the card's side: 0 for a card exactly."""
    sides = _sides_mm(corners_mm)
    short_first = sides[0] + sides[2] < sides[1] + sides[3]
    card = [CARD_W_MM, CARD_H_MM] * 2 if short_first else [CARD_H_MM, CARD_W_MM] * 2
    return float(np.abs(sides / np.float64(card) - 1).max())


def _transform(h: np.ndarray, points) -> np.ndarray:
    import cv2

    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def mat_from_markers(markers: dict[int, np.ndarray], *,
                     min_markers: int = MIN_MARKERS) -> MatView | None:
    """The mat's view from the markers found, or None when fewer than min_markers were seen."""
    import cv2

    ids = tuple(sorted(i for i in markers if i in MARKERS))
    if len(ids) < max(min_markers, 1):
        return None
    image_pts = np.concatenate([markers[i] for i in ids]).astype(np.float32)
    mat_pts = np.concatenate([marker_corners_mm(i) for i in ids])
    if len(ids) == 1:
        to_mm = cv2.getPerspectiveTransform(image_pts, mat_pts)
    else:
        to_mm, _ = cv2.findHomography(image_pts, mat_pts, 0)
    if to_mm is None or abs(np.linalg.det(to_mm)) < 1e-12:
        return None
    to_px = np.linalg.inv(to_mm)
    err = _transform(to_mm, image_pts) - mat_pts
    rms = float(np.sqrt((err ** 2).sum(axis=1).mean()))
    return MatView(to_mm, to_px, ids, rms)


def slot_words(names) -> str:
    """Slots in words: "slot a", "slot a or b"."""
    return "slot " + " or ".join(names)


def find_mat(image: np.ndarray, *, min_markers: int = MIN_MARKERS) -> MatView | None:
    """The mat in a camera picture from its corner markers, or None if too few are in view."""
    return mat_from_markers(detect_markers(image), min_markers=min_markers)


def describe_markers(seen) -> str:
    """Plain words about which corner markers are in view."""
    seen = sorted(i for i in seen if i in MARKERS)
    missing = [i for i in MARKERS if i not in seen]
    if not seen:
        return "none of the mat's four corner squares is in view"
    if not missing:
        return "all four corner squares are in view"
    return (f"the {_names(missing)} corner square{'s are' if len(missing) > 1 else ' is'} "
            "not in view (covered, out of the picture, or in glare)")


def _names(ids) -> str:
    names = [CORNER_NAMES[i] for i in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ----------------------------------------------------------------------- the printable mat

# A mid-toned green, like a card table's felt: white-bordered cards and black ones both stand
# out against it (on a cream mat, cards with a white border were hardly ever found).
BACKGROUND_BGR = (90, 120, 70)
INK_BGR = (222, 232, 238)
SLOT_BGR = {"a": (120, 130, 245), "b": (245, 200, 130)}


SLOT_MARK_MM = 1.6  # how wide the slots' corner marks are printed
SLOT_ARM = 0.22  # each arm of a corner mark, as a share of the slot's shorter side


def slot_marks_mm(zone: Zone) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The slot's printed corner marks: each arm of each corner's L as its two ends (mm),
    drawn SLOT_MARK_MM wide along the slot's outline."""
    arm = min(zone.w, zone.h) * SLOT_ARM
    x0, y0, x1, y1 = zone.x, zone.y, zone.x + zone.w, zone.y + zone.h
    marks = []
    for cx, cy, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x1, y1, -1, -1), (x0, y1, 1, -1)):
        marks.append(((cx, cy), (cx + dx * arm, cy)))
        marks.append(((cx, cy), (cx, cy + dy * arm)))
    return marks


def render_mat(px_per_mm: float = 300 / 25.4) -> np.ndarray:
    """The printable mat as a BGR image (default 300 dpi): corner markers, the two slots
    outlined by corner brackets with their names, a title and a hint."""
    import cv2

    def px(v: float) -> int:
        return int(round(v * px_per_mm))

    w, h = px(MAT_W_MM), px(MAT_H_MM)
    image = np.empty((h, w, 3), np.uint8)
    image[:] = BACKGROUND_BGR
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))
    for marker_id, (mx, my) in MARKERS.items():
        # Black on the green, with no white square around: a white quiet zone is a second
        # square close around the marker, and OpenCV's finder then dropped the marker in
        # pictures of some sizes (the mat 400 to 840 pixels wide, or tilted).
        side = px(mx + MARKER_MM) - px(mx)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        image[px(my):px(my) + side, px(mx):px(mx) + side] = marker[:, :, None]
    font = cv2.FONT_HERSHEY_DUPLEX
    line = max(1, px(SLOT_MARK_MM / 2))
    for zone in ZONES:
        colour = SLOT_BGR.get(zone.name, INK_BGR)
        for (ax, ay), (bx, by) in slot_marks_mm(zone):
            cv2.line(image, (px(ax), px(ay)), (px(bx), px(by)), colour, line * 2, cv2.LINE_AA)
        x0, y0, x1 = zone.x, zone.y, zone.x + zone.w
        label = f"{zone.name.upper()}  {ZONE_NAMES.get(zone.name, '')}".strip()
        _text(image, label, (x0 + x1) / 2, y0 - 6, 7.0, colour, px, font)
    _text(image, "Abraca Who?", MAT_W_MM / 2, 34, 12.0, INK_BGR, px, font)
    _text(image, "Lay revealed cards face up in the slots.", MAT_W_MM / 2, MAT_H_MM - 30, 5.0,
          INK_BGR, px, font)
    _text(image, "Keep the four corner squares in view of the camera.", MAT_W_MM / 2,
          MAT_H_MM - 20, 5.0, INK_BGR, px, font)
    return image


# Painting a slot's corner marks out of a picture (see without_slot_marks): each arm's strip
# widened MARK_MARGIN_MM on each side; its colour taken from the middle MARK_CORE of the
# stroke; the mat's from a band MAT_BAND_MM outside the slot; a pixel whose colour lies within
# MARK_COLOUR_TOL of the line from the mat's colour to the mark's is painted the mat's.
MARK_MARGIN_MM = 1.0
MARK_CORE = 0.5
MAT_BAND_MM = (2.0, 5.0)
MARK_COLOUR_TOL = 30.0


def without_slot_marks(image: np.ndarray, view: MatView, slot: str) -> np.ndarray:
    """A copy of a camera picture with the slot's printed corner marks painted in the mat's
    colour where they show. A card laid touching them is outlined with them as one shape;
    a card lying over them keeps its own pixels, which are neither the mark's colour nor
    the mat's. (The table paints a part of the picture: ``slot_mark_pixels`` with its
    ``origin``, then ``paint_out_marks``.)"""
    return paint_out_marks(image, slot_mark_pixels(view, slot, image.shape))


# Where a slot's marks lie in a picture: the pixels (rows, columns) to paint, those of the
# marks' middles, and those of the mat's band round the slot.
MarkPixels = tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray],
                   tuple[np.ndarray, np.ndarray]]


def slot_mark_pixels(view: MatView, slot: str, shape: tuple[int, ...], *,
                     origin: tuple[int, int] = (0, 0)) -> MarkPixels:
    """Where ``without_slot_marks`` looks and paints in a picture of ``shape`` seen through
    ``view`` (``origin``: where the picture's top left corner lies in the view's picture, a
    part cut out of it): the same for every picture while the mat stays put."""
    import cv2

    zone = zone_named(slot)
    h, w = shape[:2]
    shift = np.float32(origin)

    def to_image(mm) -> np.ndarray:
        return np.round(view.mat_to_image(mm) - shift).astype(np.int32)

    def strips(half_mm: float) -> np.ndarray:
        mask = np.zeros((h, w), np.uint8)
        for a, b in slot_marks_mm(zone):
            (ax, ay), (bx, by) = a, b
            x0, x1 = min(ax, bx) - half_mm, max(ax, bx) + half_mm
            y0, y1 = min(ay, by) - half_mm, max(ay, by) + half_mm
            cv2.fillConvexPoly(mask, to_image([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), 255)
        return mask

    def around(grow_mm: float) -> np.ndarray:
        mask = np.zeros((h, w), np.uint8)
        mm = zone_corners_mm(zone)
        mm = mm + grow_mm * np.sign(mm - mm.mean(axis=0))
        cv2.fillConvexPoly(mask, to_image(mm), 255)
        return mask

    band = cv2.subtract(around(MAT_BAND_MM[1]), around(MAT_BAND_MM[0]))
    return (np.nonzero(strips(SLOT_MARK_MM / 2 + MARK_MARGIN_MM)),
            np.nonzero(strips(MARK_CORE * SLOT_MARK_MM / 2)), np.nonzero(band))


def paint_out_marks(image: np.ndarray, *slots: MarkPixels) -> np.ndarray:
    """A copy of ``image`` with each slot's marks (``slot_mark_pixels``) painted in the mat's
    colour where they show (see ``without_slot_marks``), one slot after the other."""
    out = image.copy()
    for (ys, xs), core, band in slots:
        if not core[0].size or not band[0].size:
            continue  # the slot is out of the picture
        mark = np.median(out[core], axis=0)
        mat = np.median(out[band], axis=0)
        pixels = out[ys, xs].astype(np.float32)
        towards = (mark - mat).astype(np.float32)
        t = np.clip((pixels - mat) @ towards / max(float(towards @ towards), 1.0), 0.0, 1.0)
        off = np.linalg.norm(pixels - mat - t[:, None] * towards, axis=1)
        paint = off <= MARK_COLOUR_TOL
        out[ys[paint], xs[paint]] = np.round(mat).astype(np.uint8)
    return out


def _text(image, text, cx_mm, baseline_mm, height_mm, colour, px, font) -> None:
    import cv2

    scale = 1.0
    (_, th), _ = cv2.getTextSize(text, font, scale, 1)
    scale = px(height_mm) / max(th, 1)
    thickness = max(1, int(round(scale * 1.6)))
    (tw, _), _ = cv2.getTextSize(text, font, scale, thickness)
    cv2.putText(image, text, (px(cx_mm) - tw // 2, px(baseline_mm)), font, scale, colour,
                thickness, cv2.LINE_AA)
