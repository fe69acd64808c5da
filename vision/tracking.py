"""Reveal tracking: from what the camera reads, frame after frame, to the events the app uses.

Two layers:

- ``RevealLogic``: pure, no images. Each frame it gets, per slot of the mat, what was read
  there (a label and a score, "a card I cannot read", or nothing) and gives events:
  ``CardLaid(label, zone, score)``, ``CardTaken(label, zone)``, ``CardUnsure(zone)``.
  A change counts only once it has lasted a few frames, and each card lying there is
  reported once, so a hand passing over the mat gives no events.
- ``RevealTracker``: feeds camera frames through the recogniser into RevealLogic. It first
  compares a tiny grey copy of the frame with the last one it examined; when nothing moved
  it skips detection and recognition and counts the frame as a repeat of the last reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from vision.frames import Frame
from vision.mat import (
    CARD_H_MM,
    CARD_W_MM,
    MARKERS,
    ZONES,
    MarkPixels,
    MatView,
    Zone,
    card_corners,
    describe_markers,
    detect_markers,
    marker_corners_mm,
    mat_from_markers,
    paint_out_marks,
    reprint_advice,
    slot_mark_pixels,
    slot_words,
)

# Cards are looked for only where one lying in a slot can be: the slots, widened each way by
# half a card's diagonal (its centre is in the slot) and a little more, in mat millimetres.
REGION_MARGIN_MM = 0.5 * float(np.hypot(CARD_W_MM, CARD_H_MM)) + 10.0
REGION_STEP_PX = 16  # the region's edges snap to this, so it stays put while the mat does
# How a card may lie in its slot: turned up to this many degrees either way.
SLOT_TURNS = (-15.0, 0.0, 15.0)
# Cards are read well from about this many pixels across (their short side, in the pixels
# finding works on; see ``slot_looks``). Measured through the tracker on pictures of the mat
# with a card in each slot: all laid right at 65 to 78 pixels, 47 of 48 at 60, 91 to 92 of
# 96 at 58, 87 to 88 of 96 at 56, 80 to 86 of 96 at 53 to 55.
MIN_CARD_PX = 60
# A slot found poor is said to be fine again only once its look is this much (a share of
# each bound) inside every bound (``SlotLook.clear``): the mat's view shifts by a fraction of
# a pixel from one look to the next, and a view lying on a bound would otherwise make the
# warning come and go every look.
CLEAR_MARGIN = 0.03
# The mat may have moved (the camera knocked or turned) when two of its corner squares at
# least show another pattern in the tiny copy than when it was found: each tiny pixel over the
# square's mean grey differs by more than ANCHOR_CHANGE on average. Light that changes evenly
# scales the pattern (0.01 to 0.08 measured); a camera moved 2 to 4 pixels at 640 x 480 moves
# it (0.15 to 0.34), and so may a hand over the square, a picture blurred while the camera
# focuses, or uneven light (a lamp's gradient, a shadow's edge: 0.17 to 0.44). The mat is
# then looked for at once; until it is found, or the squares look as they did, no card is
# read. With one square in view, it is looked for at once but never doubted.
ANCHOR_CHANGE = 0.15
# The mat was printed too small (shrunk from A3 onto A4: real cards measure 1.41 times a card
# on it) or too large (and cards smaller than the 63 x 88 mm the mat is made for measure as
# little), and no card lying in a slot will ever be read, when cards named in the slots have a
# card's shape but vision.mat.MISFIT_LARGER times its size at least (or at most its inverse),
# with none named there that fits, for MISFIT_HOLD seconds (MISFIT_FRAMES frames without
# times), their size steady within MISFIT_STEADY of where it began. A card held nearer the
# camera over a slot seldom measures that much more, nor holds that still for so long. It is
# said while such cards lie there.
MISFIT_HOLD = 3.0
MISFIT_FRAMES = 45
MISFIT_STEADY = 0.05


def search_region(view: MatView | None, shape, zones: Iterable[Zone] = ZONES
                  ) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the part of a picture of ``shape`` where a card lying in one of the
    slots can be, with the mat where ``view`` puts it (see REGION_MARGIN_MM); the whole
    picture when the mat is not known or the slots are out of the picture."""
    h, w = shape[:2]
    if view is None:
        return 0, 0, w, h
    m = REGION_MARGIN_MM
    mm = [(x, y) for z in zones
          for x in (z.x - m, z.x + z.w + m) for y in (z.y - m, z.y + z.h + m)]
    px = view.mat_to_image(mm)
    step = REGION_STEP_PX
    x0, y0 = (np.floor(px.min(axis=0) / step) * step).astype(int)
    x1, y1 = (np.ceil(px.max(axis=0) / step) * step).astype(int)
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0, 0, w, h  # the slots are out of the picture: look everywhere
    return x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class SlotLook:
    """How a card lying in a slot looks to the table's finder."""

    zone: str
    card_px: float  # its short side in the pixels finding works on (the least of SLOT_TURNS)
    big_enough: bool  # at least MIN_CARD_PX across and of a card's size for finding
    upright: bool  # card-proportioned (``card_proportioned``) and still taller than wide
    in_picture: bool = True  # all of it inside the picture
    clear: bool = True  # all of the above with CLEAR_MARGIN to spare

    @property
    def poor(self) -> bool:
        """A card laid there may go unread."""
        return not (self.big_enough and self.upright and self.in_picture)


def slot_looks(view: MatView, size: tuple[int, int], zones: Iterable[Zone] = ZONES
               ) -> list[SlotLook]:
    """How a card lying in each slot (turned up to SLOT_TURNS) looks to the table's finder, in
    a camera frame of ``size`` (w, h) with the mat where ``view`` puts it: the part of the
    frame it searches (``search_region``), at the scale finding works at. Seen from too far it
    is too small to read; seen too much from the side it is not card-shaped."""
    from vision.detect import MIN_AREA_FRAC, working_scale

    zones = tuple(zones)
    x0, y0, x1, y1 = search_region(view, (size[1], size[0]), zones)
    k = working_scale(x1 - x0, y1 - y0)
    least_area = MIN_AREA_FRAC * (x1 - x0) * (y1 - y0) * k * k
    looks = []
    for zone in zones:
        mid = (zone.x + zone.w / 2, zone.y + zone.h / 2)
        seen = [view.mat_to_image(card_corners(*mid, turn=turn)) for turn in SLOT_TURNS]
        quads = [(q - (x0, y0)) * k for q in seen]
        short = min(float(_sides(q).min()) for q in quads)
        bounds = _within(seen, quads, k, size, least_area, margin=0.0)
        clear = all(_within(seen, quads, k, size, least_area, margin=CLEAR_MARGIN))
        looks.append(SlotLook(zone.name, short, *bounds, clear=clear))
    return looks


def _sides(q: np.ndarray) -> np.ndarray:
    """A quad's four side lengths, from the side leaving its first corner."""
    return np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)


def _within(seen, quads, k: float, size: tuple[int, int], least_area: float, *,
            margin: float) -> tuple[bool, bool, bool]:
    """Whether a card lying as ``seen`` in a frame of ``size`` (w, h), and as ``quads`` at the
    scale ``k`` finding works at, is big enough (``least_area`` there), upright and in the
    picture, each with ``margin`` to spare: a share of each bound, and of the card's width
    from the picture's edge."""
    import cv2

    sides = [_sides(q) for q in quads]
    short = min(float(s.min()) for s in sides)
    area = min(float(cv2.contourArea(np.float32(q))) for q in quads)
    return (short >= MIN_CARD_PX * (1 + margin) and area >= least_area * (1 + margin),
            _upright(quads, sides, margin), _inside(seen, size, margin * short / k))


def _inside(quads, size: tuple[int, int], spare: float) -> bool:
    """Every quad's corners at least ``spare`` pixels inside a picture of ``size`` (w, h)."""
    w, h = size
    return all(bool((q >= spare).all() and (q[:, 0] < w - spare).all()
                    and (q[:, 1] < h - spare).all()) for q in quads)


def _upright(quads, sides, margin: float) -> bool:
    """Every quad card-proportioned (with ``margin``) and taller than wide (``sides``: each
    quad's side lengths; corners go round from the card's top-left, so sides 0 and 2 are its
    short ones)."""
    from vision.detect import card_proportioned

    return all(card_proportioned(q, margin=margin) and s[0] + s[2] < s[1] + s[3]
               for q, s in zip(quads, sides, strict=True))


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class CardLaid:
    """A card was laid face up in a slot and read as `label` (score: the weakest of the
    readings that made it count)."""

    label: str
    zone: str
    score: float


@dataclass(frozen=True, slots=True)
class CardTaken:
    """The card that lay in a slot was taken away. label is None if it was never read."""

    label: str | None
    zone: str


@dataclass(frozen=True, slots=True)
class CardUnsure:
    """A card lies in a slot but cannot be read for sure: ask the players which it is."""

    zone: str


Event = CardLaid | CardTaken | CardUnsure


@dataclass(frozen=True, slots=True)
class ZoneReading:
    """What was read in one slot in one frame: a label, or None for a card not recognised."""

    label: str | None
    score: float


# --------------------------------------------------------------------------- pure logic


class _Empty:
    def __repr__(self) -> str:
        return "EMPTY"


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


EMPTY = _Empty()  # nothing in the slot
UNKNOWN = _Unknown()  # a card nobody can read


@dataclass(slots=True)
class _Slot:
    shown: Any = EMPTY  # what the app was last told: EMPTY, UNKNOWN or a label
    candidate: Any = EMPTY  # what the last frames agree on
    count: int = 0  # for how many frames in a row
    scores: list[float] = field(default_factory=list)
    unread_is_shown: bool = False  # the players named this card: unreadable means it


class RevealLogic:
    """Per-frame slot readings in, reveal events out. No images, no clock: frames are counted.

    ``stable_frames``: a card read the same way this many frames in a row is laid.
    ``taken_frames``: a card that was laid counts as taken (or turned unreadable) only after
    this many frames without it: a hand over it for a moment changes nothing.
    ``unsure_frames``: a card that cannot be read must lie there this long before the players
    are asked (a card still in the hand laying it is often unreadable for a moment).
    """

    def __init__(self, zones: Iterable[str] = tuple(z.name for z in ZONES), *,
                 stable_frames: int = 3, taken_frames: int | None = None,
                 unsure_frames: int | None = None,
                 lying: Mapping[str, str | None] | None = None) -> None:
        for name, value in (("stable_frames", stable_frames), ("taken_frames", taken_frames),
                            ("unsure_frames", unsure_frames)):
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} = {value!r}: give a whole number of frames, 1 or more")
        self.stable_frames = stable_frames
        self.taken_frames = taken_frames if taken_frames is not None else 2 * stable_frames
        self.unsure_frames = unsure_frames if unsure_frames is not None else 2 * stable_frames
        # The most scores a decision reads (``scores[-needed:]``): no more are kept.
        self._kept = max(self.stable_frames, self.taken_frames, self.unsure_frames)
        self._slots = {name: _Slot() for name in zones}
        if not self._slots:
            raise ValueError("no slots to watch")
        for zone, label in (lying or {}).items():
            self.assume(zone, label)

    @property
    def zones(self) -> tuple[str, ...]:
        return tuple(self._slots)

    @property
    def lying(self) -> dict[str, str | None]:
        """The cards the app was told about: zone -> label (None: there but unread)."""
        return {name: (None if slot.shown is UNKNOWN else slot.shown)
                for name, slot in self._slots.items() if slot.shown is not EMPTY}

    def assume(self, zone: str, label: str | None) -> None:
        """Take it as known that ``label`` lies in ``zone`` (None: an unread card; use
        ``forget`` for nothing): the players chose it in the card picker, or the game was
        resumed after a restart. No event is given for it; a different card read there
        later is reported as a swap."""
        if zone not in self._slots:
            raise ValueError(f"no slot {zone!r} (slots: {', '.join(self._slots)})")
        key = UNKNOWN if label is None else label
        slot = self._slots[zone]
        slot.shown = key
        slot.unread_is_shown = label is not None
        if slot.candidate != key:
            slot.candidate, slot.count, slot.scores = key, 0, []

    def forget(self, zone: str) -> None:
        """Take it as known that nothing lies in ``zone``."""
        if zone not in self._slots:
            raise ValueError(f"no slot {zone!r} (slots: {', '.join(self._slots)})")
        self._slots[zone] = _Slot()

    def reset(self) -> None:
        """Forget everything (e.g. the table was cleared and a new game starts)."""
        self._slots = {name: _Slot() for name in self._slots}

    def _needed(self, shown: Any, key: Any) -> int:
        if isinstance(shown, str) and (key is EMPTY or key is UNKNOWN):
            return self.taken_frames
        if shown is UNKNOWN and key is EMPTY:
            return self.taken_frames
        if key is UNKNOWN:
            return self.unsure_frames
        return self.stable_frames

    def feed(self, readings: Mapping[str, ZoneReading | None]) -> list[Event]:
        """One frame's readings (slots missing from the mapping are empty) -> events."""
        unknown = [z for z in readings if z not in self._slots]
        if unknown:
            raise ValueError(f"reading for slot {unknown[0]!r}, which is not watched "
                             f"(slots: {', '.join(self._slots)})")
        events: list[Event] = []
        for name, slot in self._slots.items():
            reading = readings.get(name)
            if reading is None:
                key: Any = EMPTY
            else:
                key = reading.label if reading.label is not None else UNKNOWN
            if key is UNKNOWN and slot.unread_is_shown:
                key = slot.shown  # still the card the players named, still unreadable
            if key == slot.candidate:
                slot.count += 1
            else:
                slot.candidate, slot.count, slot.scores = key, 1, []
            slot.scores.append(reading.score if reading is not None else 0.0)
            if len(slot.scores) > self._kept:  # an idle table is looked at for weeks
                del slot.scores[0]
            if key == slot.shown:
                continue
            needed = self._needed(slot.shown, key)
            if slot.count < needed:
                continue
            if isinstance(slot.shown, str):
                events.append(CardTaken(slot.shown, name))
            elif slot.shown is UNKNOWN and key is EMPTY:
                events.append(CardTaken(None, name))
            if isinstance(key, str):
                events.append(CardLaid(key, name, float(min(slot.scores[-needed:]))))
            elif key is UNKNOWN:
                events.append(CardUnsure(name))
            slot.shown = key
            slot.unread_is_shown = False
        return events


# --------------------------------------------------------------------------- from frames


class Recognizer(Protocol):
    def read(self, image: np.ndarray) -> list[Any]:
        """Readings with .label (str | None), .score (float) and .corners (4x2 image px)."""


@dataclass(frozen=True, slots=True)
class PlacedReading:
    """A recogniser reading with its place on the mat."""

    label: str | None
    score: float
    corners: np.ndarray  # 4x2, image px
    centre_mm: tuple[float, float]
    zone: str | None


class RevealTracker:
    """Camera frames in, reveal events out.

    ``recognizer``: anything with ``read(image) -> [reading(label, score, corners)]``.
    ``stable_frames``, ``taken_frames``, ``unsure_frames``: see RevealLogic.
    ``change_level`` (grey levels, 0-255) and ``change_fraction`` (of the tiny copy's pixels):
    how much must move before a frame is examined again. ``check_width``: about the tiny
    copy's width in pixels. ``mat_every``: seconds between looks for the mat's markers while the
    picture changes (the mat is also looked for whenever it is not known or in doubt, when the
    pictures change size, and when its corner squares look moved: see ANCHOR_CHANGE; while
    it is in doubt no card is read).
    ``find_markers``: the marker finder (tests may replace it).
    """

    def __init__(self, recognizer: Recognizer, *, stable_frames: int = 3,
                 taken_frames: int | None = None, unsure_frames: int | None = None,
                 zones: Iterable[Zone] = ZONES, change_level: int = 12,
                 change_fraction: float = 0.002, check_width: int = 80, mat_every: float = 2.0,
                 find_markers: Callable[[np.ndarray], dict] = detect_markers) -> None:
        self.recognizer = recognizer
        self.zones = tuple(zones)
        self.logic = RevealLogic((z.name for z in self.zones), stable_frames=stable_frames,
                                 taken_frames=taken_frames, unsure_frames=unsure_frames)
        if not 0 <= change_fraction < 1 or not 0 <= change_level < 255 or check_width < 8:
            raise ValueError(f"change_level={change_level}, change_fraction={change_fraction}, "
                             f"check_width={check_width}: out of range")
        self.change_level = change_level
        self.change_fraction = change_fraction
        self.check_width = check_width
        self.mat_every = mat_every
        self._find_markers = find_markers
        self.mat: MatView | None = None
        self._mark_pixels: tuple | None = None  # (mat, part size, origin), where: see _marks
        self._mat_t: float | None = None
        self._mat_size: tuple[int, ...] | None = None  # the size of the picture it was found in
        # How the mat's corner squares looked in the tiny copy when it was found there.
        self._anchors: list[tuple[tuple[int, ...], np.ndarray]] = []
        self.markers_seen: tuple[int, ...] = ()
        # The slots where a card may go unread, seen too much from the side or from too far
        # (``slot_looks``), as the mat was last looked at.
        self.slots_poor: tuple[str, ...] = ()
        # The picture out of focus (``vision.focus``), as the mat was last looked at: cards
        # may go unseen.
        self.out_of_focus = False
        self._mat_looked_at: np.ndarray | None = None  # the tiny copy the mat was looked for in
        self.placed: list[PlacedReading] = []  # the last examined frame's readings
        self._last_small: np.ndarray | None = None
        self._seen_size: tuple[int, ...] | None = None  # the last examined picture's size
        self._tried_t: float | None = None  # when the mat was last looked for
        # Two corner squares changed and the mat not found again since: cards are not read.
        self._doubt = False
        self._doubt_t: float | None = None  # since when
        self._cleared_t: float | None = None  # when the last doubt passed without a look
        self._now: float | None = None  # the last picture's time
        self._last_readings: dict[str, ZoneReading] | None = None
        # How many times as large as a card on the mat the cards named in the slots measure,
        # while they lie there too large or too small to be read (see
        # vision.mat.MISFIT_LARGER); else None.
        self.misfit: float | None = None
        self._odd: tuple[float, float | None, int] | None = None  # (times, since t, since n)
        self.examined = 0  # frames that went through detection and recognition
        self.skipped = 0  # frames in which nothing moved
        self.message = "Looking for the mat."

    @property
    def lying(self) -> dict[str, str | None]:
        return self.logic.lying

    @property
    def sees_mat(self) -> bool:
        """Whether the mat is in view, as the players and staff are to be told: not while it
        is unknown, nor once its view has been in doubt (corner squares covered or moved) for
        ``mat_every`` seconds since it was last found; a doubt that passes sooner (a hand, a
        blur) is not worth a warning. Frames without a time (plain pictures) have no such
        grace, and a still one is not looked at again."""
        if self.mat is None:
            return False
        if not self._doubt:
            return True
        return (self._now is not None and self._doubt_t is not None
                and self._now - self._doubt_t < self.mat_every)

    def assume(self, zone: str, label: str | None) -> None:
        """See RevealLogic.assume: e.g. the card the players picked for an unread one."""
        self.logic.assume(zone, label)

    def _small(self, image: np.ndarray) -> np.ndarray:
        """A tiny grey copy, about ``check_width`` pixels wide: the green channel (most of a
        sensor's light, and grey enough to see movement) at every step-th pixel, then each k
        x k of those averaged (k 4 or more for pictures 4 x ``check_width`` wide or more: 16
        samples a pixel or more). That keeps a camera's noise at high gain (a dim room: 6 to
        10 grey levels, pixel by pixel) well under ``change_level``: with four samples, every
        still frame was examined again."""
        import cv2

        step = max(1, image.shape[1] // (4 * self.check_width))
        plane = image[::step, ::step, 1] if image.ndim == 3 and image.shape[2] >= 3 \
            else image[::step, ::step]
        sub = np.ascontiguousarray(plane)
        h, w = sub.shape[:2]
        k = max(1, w // self.check_width)
        return cv2.resize(sub, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA)

    def changed(self, small: np.ndarray) -> bool:
        """Whether the tiny grey copy differs from the last examined frame's."""
        from vision.detect import changed

        return changed(self._last_small, small, threshold=self.change_level,
                       min_fraction=self.change_fraction, step=1)

    def feed(self, frame: Frame | np.ndarray) -> list[Event]:
        """One camera frame -> the events it completes (usually none)."""
        image = frame.image if isinstance(frame, Frame) else frame
        t = frame.t if isinstance(frame, Frame) else None
        self._now = t
        small = self._small(image)
        looked = False
        # A picture of another size is a change, though its tiny copy may be the same size.
        if image.shape[:2] == self._seen_size and not self.changed(small):
            # A picture that settled after a change the mat was not looked for in (a look is
            # due at most every mat_every seconds) is looked at once it is due, and read
            # again with the mat as found there. While the mat is not known or its view is in
            # doubt, a still picture is looked at again every mat_every seconds (a look can
            # fail on a hand, or on a picture still settling).
            retry = ((self.mat is None or self._doubt) and t is not None
                     and self._tried_t is not None and t - self._tried_t >= self.mat_every)
            was_doubt = self._doubt
            looked = ((self._mat_looked_at is not self._last_small or retry)
                      and self._update_mat(image, t, small))
            if not looked and self._mat_looked_at is small:
                # Looked at in vain: like the picture it stands for, it needs no look again
                # before the next retry is due.
                self._mat_looked_at = self._last_small
            if not looked and self._doubt:
                # In doubt, no reading stands, old or new.
                self.skipped += 1
                self._last_readings, self.placed = None, []
                self._watch_size([], t)
                return []
            # The squares look as they did again in a picture judged still: read it.
            looked = looked or (was_doubt and self.mat is not None)
            if not looked:
                self.skipped += 1
                self._watch_size(None, t)
                if self._last_readings is None:
                    return []
                return self.logic.feed(self._last_readings)
        self.examined += 1
        self._last_small = small
        self._seen_size = image.shape[:2]
        if not looked:
            self._update_mat(image, t, small)
        if self.mat is None or self._doubt:
            self._last_readings = None
            self.placed = []
            self._watch_size([], t)
            return []
        x0, y0, x1, y1 = self.region(image.shape)
        offset = np.float32([x0, y0])
        part = image[y0:y1, x0:x1]
        # A card touching the slots' marks is one shape with them: they are painted out.
        part = paint_out_marks(part, *self._marks(part.shape, (x0, y0)))
        try:
            read = self.recognizer.read(part)
        except Exception:
            self._last_small = None  # not read: the next picture is looked at afresh
            raise
        readings = [(r, np.asarray(r.corners, np.float32).reshape(4, 2) + offset) for r in read]
        # What does not measure a card on the mat (a slot's outline, a marker, a card still
        # in the air) is not a card lying there.
        every = [self._place(r, corners) for r, corners in readings]
        sized = [self.mat.card_sized(p.corners) for p in every]
        self.placed = [p for p, ok in zip(every, sized, strict=True) if ok]
        named = [(p, ok) for p, ok in zip(every, sized, strict=True)
                 if p.label is not None and p.zone is not None]
        fits = any(ok for _, ok in named)
        self._watch_size([] if fits else [times for p, ok in named if not ok and (
            times := self.mat.misfit_times(p.corners))], t)
        self._last_readings = self._per_zone(self.placed)
        return self.logic.feed(self._last_readings)

    def _update_mat(self, image: np.ndarray, t: float | None, small: np.ndarray) -> bool:
        """Look for the mat in the picture (``small``: its tiny copy) when a look is due. True
        when it looked and found it."""
        # Where the mat lies is known in a picture of one size: a camera that comes back at
        # another size (a webcam plugged in again, at its own default) has it elsewhere.
        resized = self.mat is not None and image.shape[:2] != self._mat_size
        # A camera knocked or turned has the mat elsewhere at once: a card laid then would be
        # placed through the old view, in the wrong slot, until the next look. Two of the
        # corner squares changed (or the only one followed) call for a look at once.
        changed, tracked = (self._squares_changed(small) if self.mat is not None and not resized
                            else (0, 0))
        moved = changed >= 2 or 0 < tracked == changed
        if self._doubt and changed < 2:
            # The squares look as they did again (a hand, a blur passed): the view holds.
            self._doubt, self._cleared_t = False, t
            self.message = self._found_message()
        due = (self.mat is None or t is None or self._mat_t is None or resized or moved
               or self._doubt or t - self._mat_t >= self.mat_every)
        if not due:
            return False
        if resized:
            self._forget_mat()
        self._mat_looked_at, self._tried_t = small, t
        markers = self._find_markers(image)
        self.markers_seen = tuple(sorted(markers))
        view = mat_from_markers(markers)
        if view is not None:
            self.mat, self._mat_t, self._mat_size = view, t, image.shape[:2]
            self._doubt, self._doubt_t = False, None
            self._anchors = _anchors(view, small, image.shape)
            size = (image.shape[1], image.shape[0])
            # A slot said to be poor stays so until its look is clear of every bound.
            self.slots_poor = tuple(
                look.zone for look in slot_looks(view, size, self.zones)
                if look.poor or (look.zone in self.slots_poor and not look.clear))
            self.out_of_focus = self._blurred(image, markers)
            self.message = self._found_message()
            return True
        # Two squares changed and the mat not found again: the camera may have moved, and no
        # card is placed through the old view until the mat is found, or the squares look as
        # they did (a hand over them, a blurred picture while the camera focuses).
        if changed >= 2 and not self._doubt:
            # A doubt that comes back within mat_every seconds of passing (an arm covering and
            # showing the squares in turn) goes on with its clock; a later one starts anew.
            again = (t is not None and self._doubt_t is not None and self._cleared_t is not None
                     and t - self._cleared_t < self.mat_every)
            self._doubt, self._doubt_t = True, self._doubt_t if again else t
        if self.mat is None:
            self.message = "The mat is not in view: " + describe_markers(markers) + "."
        elif self._doubt:
            self.message = ("The mat's corner squares look moved or covered ("
                            + describe_markers(markers) + "): no card is read until the mat "
                            "is found again.")
        else:
            self.message = ("The mat's corner squares are hidden (" + describe_markers(markers)
                            + "): going by where the mat was.")
        return False

    def _watch_size(self, odd: list[float] | None, t: float | None) -> None:
        """Judge from each frame whether cards too large or too small for the mat lie in the
        slots (``misfit``, see ``vision.mat.MISFIT_LARGER``): ``odd``, how many times a card
        on the mat each card named in a slot of another size measures (empty: none, or a card
        fits, or nothing is read; None: a still frame, as the last one examined)."""
        n = self.examined + self.skipped
        was = self.misfit
        if odd is not None:
            times = float(np.median(odd)) if odd else None
            if times is None:
                self._odd = self.misfit = None
            elif self._odd is None or abs(times / self._odd[0] - 1) > MISFIT_STEADY:
                self._odd, self.misfit = (times, t, n), None  # (anew, or it moved)
        if self._odd is not None and self.misfit is None:
            times, t0, n0 = self._odd
            if (t - t0 >= MISFIT_HOLD if t is not None and t0 is not None
                    else n - n0 + 1 >= MISFIT_FRAMES):
                self.misfit = round(times, 2)
        if self.misfit != was and self.mat is not None and not self._doubt:
            self.message = self._found_message()

    def _blurred(self, image: np.ndarray, markers: dict[int, np.ndarray]) -> bool:
        """Whether the picture is out of focus for the finder, by the mat's corner squares
        (``vision.focus``) in the part it reads (``region``); said so, it stays so until
        clearly sharp (SHARP_AGAIN). Not measured (squares too dim or half hidden): as it
        was."""
        from vision.focus import SHARP_AGAIN, SOFT_SIGMA, blur_at_finder

        blur = blur_at_finder(image, markers, self.region(image.shape))
        if blur is None:
            return self.out_of_focus
        return blur >= (SHARP_AGAIN if self.out_of_focus else SOFT_SIGMA)

    def _found_message(self) -> str:
        if self.misfit is not None:
            return (f"Mat found, but the cards in the slots look {self.misfit:.1f} times as "
                    f"large as a card on this mat should, so they are not read: "
                    f"{reprint_advice(self.misfit)}")
        if self.out_of_focus:
            return ("Mat found, but the picture is out of focus: cards may not be seen. Set "
                    "the camera's focus: see companion camera-check.")
        return "Mat found." if not self.slots_poor else (
            f"Mat found, but a card in {slot_words(self.slots_poor)} may not be read: see "
            "companion camera-check.")

    def _forget_mat(self) -> None:
        """The mat's view no longer holds: nothing seen through it stands either."""
        self.mat = None
        self._doubt, self._doubt_t = False, None
        self.slots_poor = ()
        self.out_of_focus = False
        self.misfit, self._odd = None, None
        self._anchors = []
        self._last_readings = None
        self.placed = []

    def _squares_changed(self, small: np.ndarray) -> tuple[int, int]:
        """How many of the mat's corner squares that were in view when it was found show
        another pattern now (``ANCHOR_CHANGE``), of how many: the camera was knocked or
        turned, or a hand or a blur hides them."""
        changed = sum(float(np.abs(_look(small, box) - look).mean()) > ANCHOR_CHANGE
                      for box, look in self._anchors)
        return changed, len(self._anchors)

    def _marks(self, shape: tuple[int, ...], origin: tuple[int, int]) -> list[MarkPixels]:
        """Where the printed slots' marks lie in the part of the picture read (``shape``, its
        top left at ``origin``), worked out once for each view of the mat."""
        key = (self.mat, shape[:2], origin)
        if self._mark_pixels is None or self._mark_pixels[0] != key:
            where = [slot_mark_pixels(self.mat, z.name, shape, origin=origin) for z in ZONES]
            self._mark_pixels = (key, where)
        return self._mark_pixels[1]

    def region(self, shape) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1): the part of the picture where a card lying in a slot can be (see
        REGION_MARGIN_MM); the whole picture while the mat is not known."""
        return search_region(self.mat, shape, self.zones)

    def _place(self, reading: Any, corners: np.ndarray) -> PlacedReading:
        assert self.mat is not None
        x, y = self.mat.card_centre_mm(corners)
        zone = next((z.name for z in self.zones if z.contains(x, y)), None)
        return PlacedReading(reading.label, float(reading.score), corners, (x, y), zone)

    def _per_zone(self, placed: list[PlacedReading]) -> dict[str, ZoneReading]:
        """One reading per slot: the card nearest the slot's centre."""
        best: dict[str, tuple[float, PlacedReading]] = {}
        for p in placed:
            if p.zone is None:
                continue
            zone = next(z for z in self.zones if z.name == p.zone)
            d = np.hypot(p.centre_mm[0] - (zone.x + zone.w / 2),
                         p.centre_mm[1] - (zone.y + zone.h / 2))
            if p.zone not in best or d < best[p.zone][0]:
                best[p.zone] = (d, p)
        return {name: ZoneReading(p.label, p.score) for name, (_, p) in best.items()}


def _look(small: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The tiny pixels of ``box`` (x0, y0, x1, y1) over their mean: the square's pattern of
    black and white, whatever the light (a lamp's flicker banding the rows, an exposure
    adapting, scale it all alike)."""
    x0, y0, x1, y1 = box
    inside = small[y0:y1, x0:x1].astype(np.float32)
    return inside / (float(inside.mean()) + 1.0)


def _anchors(view: MatView, small: np.ndarray, shape
             ) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Each of the mat's corner squares lying wholly in the tiny copy ``small`` of a picture
    of ``shape``: the box of tiny pixels it covers there, and how it looks (``_look``)."""
    h, w = small.shape[:2]
    k = np.float32([w / shape[1], h / shape[0]])
    out = []
    for i in sorted(MARKERS):
        tiny = (view.mat_to_image(marker_corners_mm(i)) + 0.5) * k - 0.5
        (x0, y0), (x1, y1) = np.floor(tiny.min(axis=0)), np.ceil(tiny.max(axis=0)) + 1
        if 0 <= x0 and 0 <= y0 and x1 <= w and y1 <= h and x1 - x0 >= 2 and y1 - y0 >= 2:
            box = (int(x0), int(y0), int(x1), int(y1))
            out.append((box, _look(small, box)))
    return out
