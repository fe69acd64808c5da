"""What the camera sees, for setting up a table: the mat, its slots and the cards, drawn on
the picture and said in plain words."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.focus import blur_at_finder, in_focus
from vision.mat import (
    ZONES,
    MatView,
    describe_markers,
    detect_markers,
    mat_from_markers,
    reprint_advice,
    slot_words,
    zone_corners_mm,
)
from vision.tracking import MIN_CARD_PX, SlotLook, search_region, slot_looks


@dataclass(frozen=True, eq=False)
class SeenCard:
    label: str | None  # None: not recognised (or no references to recognise it with)
    score: float | None  # None when no recogniser was used
    corners: np.ndarray  # 4x2 image px
    zone: str | None  # the slot it lies in, None if outside the slots or the mat is unknown


@dataclass(frozen=True, eq=False)
class CheckReport:
    markers: dict[int, np.ndarray]
    mat: MatView | None
    cards: list[SeenCard]
    recognised: bool  # whether references were used to read the cards
    picture: np.ndarray  # the frame with everything drawn on it
    slots: list[SlotLook]  # how a card in each slot looks; empty when the mat is not found
    # Cards read in the slots but of another size than the mat gives a card: how many times
    # as large they look (their median); None when there are none.
    misfit: float | None = None
    # How blurred the markers' edges are, as a sigma in the pixels the table's finder works
    # at (``vision.focus``); None when the mat is not found or they could not be measured.
    blur: float | None = None

    @property
    def in_focus(self) -> bool | None:
        """Whether the picture is sharp enough for the table; None when not measured."""
        return in_focus(self.blur)

    @property
    def lines(self) -> list[str]:
        lines = [self.mat_line()]
        if self.cards or self.misfit is None:
            lines.append(self.cards_line())
        if self.misfit is not None:
            lines.append(self.misfit_line())
        if self.slots:
            lines.append(self.slots_line())
        if self.blur is not None:
            lines.append(self.focus_line())
        return lines

    def focus_line(self) -> str:
        if self.in_focus:
            return "The picture is in focus."
        return ("The picture is out of focus: cards in the slots may not be seen. Set the "
                "camera's focus (lens_position in the camera settings, or turn the lens of a "
                "camera focused by hand), then check again.")

    def misfit_line(self) -> str:
        """Cards read in the slots that the mat says are no card's size: the mat was printed
        at another size than its own (shrunk onto A4: A3 printed "fit to page" is read)."""
        return (f"The cards in the slots look {self.misfit:.1f} times as large as a card on "
                f"this mat should, so they are not read: {reprint_advice(self.misfit)}")

    def mat_line(self) -> str:
        if self.mat is None:
            return ("The mat's markers are not in view: " + describe_markers(self.markers)
                    + ". Point the camera at the whole mat.")
        if len(self.mat.markers) == 4:
            return "Mat found: all four corner squares are in view."
        return "Mat found, but " + describe_markers(self.markers) + "."

    def slots_line(self) -> str:
        """Whether a card laid in each slot will be found and read, and what to do if not."""
        out = [look.zone for look in self.slots if not look.in_picture]
        slanted = [look.zone for look in self.slots if look.in_picture and not look.upright]
        small = [look for look in self.slots
                 if look.in_picture and look.upright and not look.big_enough]
        if not out and not slanted and not small:
            px = round(min(look.card_px for look in self.slots))
            edge = [look.zone for look in self.slots if not look.clear]
            if edge:
                # The table, once it has warned about such a slot, keeps warning until it clears.
                return (f"A card in {slot_words(edge)} would be read, but only just ({px} pixels "
                        "wide): mount the camera a little closer to the mat and more nearly "
                        "straight above it, or the table may warn about it.")
            return f"A card in a slot looks {px} pixels wide: clear enough to read."
        parts = []
        if out:
            parts.append(f"A card in {slot_words(out)} would be partly or wholly out of the "
                         "picture: point the camera at the whole mat.")
        if slanted:
            parts.append(f"A card in {slot_words(slanted)} may not be found: the camera sees the "
                         "mat too much from the side. Mount it more nearly straight above the "
                         "mat.")
        if small:
            px = round(min(look.card_px for look in small))
            parts.append(f"A card in {slot_words([look.zone for look in small])} would look only "
                         f"{px} pixels wide ({MIN_CARD_PX} or more reads well): bring the camera "
                         "closer to the mat, or give it a larger picture.")
        return " ".join(parts)

    def cards_line(self) -> str:
        if not self.cards:
            return "No cards in view."
        parts = []
        for card in self.cards:
            if not self.recognised:
                what = "a card"
            elif card.label is None:
                what = "a card I cannot read"
            else:
                what = card.label.replace("_", " ")
            if self.mat is None:
                parts.append(what)
            elif card.zone is None:
                parts.append(f"{what} outside the slots")
            else:
                parts.append(f"{what} in slot {card.zone}")
        n = len(self.cards)
        return f"{n} card{'s' if n != 1 else ''}: " + ", ".join(parts) + "."


GREEN = (60, 200, 60)
ORANGE = (0, 140, 255)
RED = (40, 40, 220)
YELLOW = (0, 215, 255)
SLOT_COLOUR = (255, 200, 0)


def check_frame(image: np.ndarray, *, recognizer: Any = None,
                find_cards: Callable[[np.ndarray], list] | None = None) -> CheckReport:
    """Look at one frame: find the mat and the cards (read them if a recogniser is given,
    else only find them with ``find_cards``), and draw it all. Around the slots the cards are
    looked for as the table does (``vision.tracking.search_region``), elsewhere in the whole
    picture."""
    markers = detect_markers(image)
    view = mat_from_markers(markers)
    cards: list[SeenCard] = []
    h, w = image.shape[:2]
    box = search_region(view, image.shape)
    found = _found(image, recognizer, find_cards)
    if box != (0, 0, w, h):
        x0, y0, x1, y1 = box
        around = [(label, score, corners + np.float32([x0, y0])) for label, score, corners
                  in _found(image[y0:y1, x0:x1], recognizer, find_cards)]
        found = _merged(around, found, box, (w, h))
    misfits = []
    for label, score, corners in found:
        if view is not None and not view.card_sized(corners):
            # A slot's outline, a marker: not a card. But a card read in a slot is one: the
            # mat was printed at another size.
            if (label is not None and view.zone_of(corners) is not None
                    and (times := view.misfit_times(corners)) is not None):
                misfits.append(times)  # measured as the table measures it
            continue
        zone = view.zone_of(corners) if view is not None else None
        cards.append(SeenCard(label, score, corners, zone.name if zone else None))
    cards.sort(key=lambda c: (c.zone is None, c.zone or "", float(c.corners[:, 0].mean())))
    slots = slot_looks(view, (image.shape[1], image.shape[0])) if view is not None else []
    picture = draw(image, markers, view, cards, recognizer is not None, slots)
    misfit = float(np.median(misfits)) if misfits else None
    return CheckReport(markers, view, cards, recognizer is not None, picture, slots, misfit,
                       blur_at_finder(image, markers, box) if view is not None else None)


def _found(image: np.ndarray, recognizer: Any, find_cards) -> list[tuple]:
    """(label, score, corners) of each card read in ``image``; label and score None when
    only finding."""
    if recognizer is not None:
        return [(r.label, float(r.score), np.asarray(r.corners, np.float32).reshape(4, 2))
                for r in recognizer.read(image)]
    if find_cards is not None:
        return [(None, None, np.asarray(c, np.float32).reshape(4, 2)) for c in find_cards(image)]
    return []


def _merged(around: list[tuple], whole: list[tuple], box: tuple[int, int, int, int],
            size: tuple[int, int]) -> list[tuple]:
    """The cards read around the slots (``around``, in the part ``box`` of the picture), but
    those cut off by its edge, and the cards read in the whole picture that lie partly
    outside ``box`` and on none of those: inside it, the table sees only what ``around``
    holds."""
    kept = [f for f in around if not _cut_off(f[2], box, size)]
    # A card whole inside the part is the part's to read, unless its edge cut the card off.
    return kept + [f for f in whole
                   if not (_inside(f[2], box) and not _cut_off(f[2], box, size))
                   and not _on_any(f[2], [k[2] for k in kept])]


def _cut_off(c: np.ndarray, box: tuple[int, int, int, int], size: tuple[int, int]) -> bool:
    """Whether corners ``c`` touch an edge of the part ``box`` of a picture of ``size``
    (w, h) that is not the picture's own edge."""
    x0, y0, x1, y1 = box
    w, h = size
    (lx, ly), (hx, hy) = c.min(axis=0), c.max(axis=0)
    return bool((x0 > 0 and lx <= x0 + 2) or (y0 > 0 and ly <= y0 + 2)
                or (x1 < w and hx >= x1 - 2) or (y1 < h and hy >= y1 - 2))


def _inside(c: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    x0, y0, x1, y1 = box
    (lx, ly), (hx, hy) = c.min(axis=0), c.max(axis=0)
    return bool(lx >= x0 and ly >= y0 and hx < x1 and hy < y1)


def _on_any(c: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Whether the middle of corners ``c`` lies on any of ``quads``."""
    import cv2

    x, y = c.mean(axis=0)
    return any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0
               for q in quads)


def draw(image: np.ndarray, markers: dict[int, np.ndarray], view: MatView | None,
         cards: list[SeenCard], recognised: bool, slots: Sequence[SlotLook] = ()) -> np.ndarray:
    """The picture with the markers, the mat, its slots (red where a card would not be read
    well, yellow where it would be read only just) and the cards drawn on it."""
    import cv2

    out = image.copy()
    scale = max(out.shape[1] / 640.0, 0.5)
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(2 * scale))

    # Dark under light: a line or a word in any colour shows on any mat (green on the green
    # mat).
    def outline(quad: np.ndarray, colour) -> None:
        line = max(2, thick)  # so thin a line, smoothed over the dark one, loses its colour
        for c, t in (((0, 0, 0), line + 2), (colour, line)):
            cv2.polylines(out, [np.asarray(quad, np.int32).reshape(-1, 1, 2)], True, c, t,
                          cv2.LINE_AA)

    def label(text: str, org: tuple[int, int], size: float, colour) -> None:
        for c, t in (((0, 0, 0), thick + 2), (colour, thick)):
            cv2.putText(out, text, org, font, size * scale, c, t, cv2.LINE_AA)

    if markers:
        ids = sorted(markers)
        for i in ids:
            outline(markers[i], GREEN)
        cv2.aruco.drawDetectedMarkers(out, [markers[i].reshape(1, 4, 2) for i in ids],
                                      np.array(ids, np.int32).reshape(-1, 1), GREEN)
    if view is not None:
        outline(view.outline_px(), GREEN)
        poor = {look.zone for look in slots if look.poor}
        just = {look.zone for look in slots if not look.clear}
        for zone in ZONES:
            colour = (RED if zone.name in poor else YELLOW if zone.name in just
                      else SLOT_COLOUR)
            quad = view.mat_to_image(zone_corners_mm(zone)).astype(np.int32)
            outline(quad, colour)
            x, y = quad.min(axis=0)
            label(f"slot {zone.name}", (int(x), int(y) - 6), 0.6, colour)
    for card in cards:
        colour = GREEN if card.label is not None else (ORANGE if recognised else SLOT_COLOUR)
        quad = card.corners.astype(np.int32)
        outline(quad, colour)
        if recognised:
            text = (f"{card.label} {card.score:.2f}" if card.label is not None
                    else f"? {card.score:.2f}")
        else:
            text = "card"
        x, y = quad.mean(axis=0)
        (tw, th), _ = cv2.getTextSize(text, font, 0.6 * scale, thick)
        org = (int(x - tw / 2), int(y + th / 2))
        label(text, org, 0.6, colour)
    banner = "mat found" if view is not None else "mat NOT found"
    label(banner, (8, int(24 * scale)), 0.7, GREEN if view is not None else RED)
    return out
