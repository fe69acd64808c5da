"""The play mat's geometry, in millimetres, with the origin at the mat's top-left corner.

The mat is A3 landscape. An ArUco marker sits in each corner so the camera can find the mat
wherever it is mounted; the two reveal slots are where cards are laid face up in a duel
(slot "a": the challenger, or whoever reveals alone; slot "b": the target).
"""

from __future__ import annotations

from dataclasses import dataclass

MAT_W_MM = 420.0
MAT_H_MM = 297.0
CARD_W_MM = 63.0
CARD_H_MM = 88.0

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
