"""Test scenes: a tilted camera's view of the printed mat with simple cards on it, and a
stand-in recogniser that reads those cards by colour."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import Frame
from vision.mat import render_mat, zone_named

PPM = 1.5
CARD_COLOURS = {"vampire": (40, 40, 200), "ghost": (60, 170, 60), None: (160, 160, 160)}


@dataclass(frozen=True)
class FakeReading:
    label: str | None
    score: float
    corners: np.ndarray


class ColourRecognizer:
    """Stands in for the real recogniser: finds saturated or grey card-sized blobs."""

    def __init__(self):
        self.calls = 0

    def read(self, image):
        self.calls += 1
        out = []
        for label, bgr in CARD_COLOURS.items():
            mask = cv2.inRange(image, np.array(bgr) - 12, np.array(bgr) + 12)
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            for c in contours:
                if cv2.contourArea(c) > 400:
                    out.append(FakeReading(label, 0.9 if label else 0.1,
                                           cv2.boxPoints(cv2.minAreaRect(c))))
        return out


class Table:
    """A tilted camera's view of the mat, with cards drawn in mat millimetres."""

    def __init__(self, *, noise: float = 2.0):
        self.noise = noise  # the camera's sensor noise, grey levels
        mat = render_mat(PPM)
        h, w = mat.shape[:2]
        quad = np.float32([(60, 50), (600, 30), (630, 450), (20, 430)])
        self.hom = cv2.getPerspectiveTransform(np.float32([(0, 0), (w, 0), (w, h), (0, h)]), quad)
        self.hom = self.hom @ np.diag([PPM, PPM, 1.0])  # from mm
        base = np.full((480, 640, 3), 70, np.uint8)
        self.base = cv2.warpPerspective(mat, self.hom @ np.diag([1 / PPM, 1 / PPM, 1.0]),
                                        (640, 480), dst=base, borderMode=cv2.BORDER_TRANSPARENT)
        self.rng = np.random.default_rng(1)
        self.t = 0.0

    def px(self, points_mm) -> np.ndarray:
        """Mat millimetres (n x 2) -> this camera's picture pixels (n x 2)."""
        pts = np.asarray(points_mm, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.hom).reshape(-1, 2)

    def frame(self, cards=(), hand=None, hand_size=(70, 45), card_mm=(63, 88)):
        """``card_mm``: the cards' size in the mat's millimetres (larger: a mat printed
        smaller)."""
        image = self.base.copy()
        for label, (cx, cy), angle in cards:
            quad = self.px(cv2.boxPoints(((cx, cy), card_mm, angle)))
            cv2.fillConvexPoly(image, quad.astype(np.int32), CARD_COLOURS[label], cv2.LINE_AA)
        if hand is not None:
            cv2.ellipse(image, hand, hand_size, 30, 0, 360, (120, 150, 200), -1)
        noise = self.rng.normal(0, self.noise, image.shape)
        self.t += 1 / 15
        return Frame(np.clip(image + noise, 0, 255).astype(np.uint8), self.t)


def slot_centre(name):
    z = zone_named(name)
    return (z.x + z.w / 2, z.y + z.h / 2)




def find_coloured_cards(image):
    """Stand-in card detector: the corners of every coloured card."""
    return [r.corners for r in ColourRecognizer().read(image)]
