"""Enrolment: taking reference pictures of each card with the table's own camera.

For each label the players are asked to lay that card face up in slot A and press Enter;
the card is cut out of the picture, straightened and saved as ``DIR/<label>/<label>-N.png``.
Afterwards the references are checked for cards too alike to tell apart.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.cards import IDENTITIES  # the game's cards, asked for in turn
from vision.mat import (
    CARD_SIZE_TOLERANCE,
    REPRINT_MAT,
    REPRINT_MAT_SMALLER,
    MatView,
    detect_markers,
    mat_from_markers,
    without_slot_marks,
    zone_corners_mm,
    zone_named,
)
from vision.sources import ENDED, MISCONFIGURED

LABEL_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
CARD_PX = (315, 440)  # width, height of a saved reference (5 px per mm)
SLOT_OUTLINE_IOU = 0.85  # a quad this close to a slot's printed outline is that outline
# An outline in the slot with a side over SNUG_CARD longer or shorter than a card's may be its
# inner frame, or the card with a corner mark: enrolment looks again (see find_in_slot).
# Measured on the synthetic mat: inner frames 0.86 to 0.93 times a card, cards 0.97 to 1.01,
# a card with a mark 1.04 and more.
SNUG_CARD = 0.04
# How to answer, as each question says it and as a refusal repeats it: the keyboard alone,
# or the keyboard and the table's buttons.
ANSWERS = ("press Enter (s: skip this card, q: stop)",
           "press Enter to take the picture, s to skip this card, q to stop")
ANSWERS_WITH_BUTTONS = (
    "press Enter or OK (s or Back: skip this card, q or Back held: stop)",
    "press Enter or OK to take the picture, s or Back to skip this card, q or Back held "
    "to stop")
HOLD_PX = 2.0  # a corner this close outside an outline still lies in it (see pick_card)


class EnrollError(ValueError):
    """Bad enrolment input (a label, a folder). The message names it."""


def check_labels(labels: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for label in labels:
        if not LABEL_RE.match(label):
            raise EnrollError(f"card name {label!r}: use lower-case letters, digits, _ or -, "
                              "e.g. living_armor")
        if label in out:
            raise EnrollError(f"card name {label!r} is given twice")
        out.append(label)
    if not out:
        raise EnrollError("no card names given")
    return tuple(out)


def check_out(out: str | Path) -> Path:
    """The folder to save references in, or EnrollError when that names a file."""
    from companion.tablelog import file_in_the_way

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise EnrollError(f"{str(out)!r} is a file: give a folder for the reference pictures")
    if (blocking := file_in_the_way(out)) is not None:
        raise EnrollError(f"{str(blocking)!r} is a file, not a folder: give a folder for the "
                          "reference pictures")
    return out


def warp_card(image: np.ndarray, corners, size: tuple[int, int] = CARD_PX) -> np.ndarray:
    """The card inside ``corners`` (4x2, in order around it), straightened, portrait, at the
    size references are kept."""
    import cv2

    from vision.recognize import warp_quad

    return warp_quad(image, corners, size, interpolation=cv2.INTER_AREA)


def pick_card(cards: list, view: MatView | None, slot: str = "a") -> np.ndarray | None:
    """Which of the outlines found is the card to enrol: the one in the slot when the mat is
    in view (of those there of a card's size on the mat, the one around all the others: a
    card's inner frame or picture panel is often found too), else the only one in view. None
    when that is not clear."""
    quads = [np.asarray(c, np.float32).reshape(4, 2) for c in cards]
    if view is not None:
        inside = [q for q in quads if (z := view.zone_of(q)) is not None and z.name == slot]
        sized = [q for q in inside if view.card_sized(q)]
        around = [q for q in sized if all(o is q or _holds(q, o) for o in sized)]
        if len(around) == 1:
            return around[0]
        if len(inside) == 1:
            return inside[0]
        if len(inside) > 1:
            return None
    if len(quads) == 1:
        return quads[0]
    return None


def _holds(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether every corner of ``inner`` lies inside ``outer`` (or within HOLD_PX of it)."""
    import cv2

    contour = outer.reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -HOLD_PX
               for x, y in inner.tolist())


def find_in_slot(image: np.ndarray, view: MatView | None, slot: str,
                 find_cards: Callable[[np.ndarray], list]) -> np.ndarray | None:
    """The card to enrol (``pick_card``). With the mat in view and no outline in the slot
    whose every side measures a card's within SNUG_CARD, looked for again with the slot's
    corner marks painted out: a card laid touching them is outlined with them as one shape
    (longer on one side), or only its inner frame shows (shorter on every side). Of the two
    looks, the outline of a card's size whose sides come nearest a card's is kept."""
    quad = pick_card(find_cards(image), view, slot)
    if view is None or (quad is not None and view.card_misfit(quad) <= SNUG_CARD):
        return quad
    again = pick_card(find_cards(without_slot_marks(image, view, slot)), view, slot)
    sized = [q for q in (quad, again) if q is not None and view.card_sized(q)]
    if not sized:
        return quad  # for the message: nothing, or an outline of another size
    return min(sized, key=view.card_misfit)


def cards_and_blocks(image: np.ndarray) -> list[np.ndarray]:
    """The cards found (``vision.detect.find_cards``) and the outlines set aside as blocks:
    on the mat, a block of a card's size holding a smaller card found is one card whose
    picture panel was taken for a card."""
    from vision.detect import find_cards

    blocks: list[np.ndarray] = []
    return find_cards(image, blocks=blocks) + blocks


def slot_outline(quad: np.ndarray, view: MatView, slot: str) -> bool:
    """Whether the quad is the slot's own printed outline, as finding may see it in an empty
    slot (80 x 105 mm, 1.23 times a card: a card on a mat fitted to an A4 page measures 1.41
    and overlaps it far less)."""
    from vision.detect import quad_iou

    return quad_iou(quad, view.mat_to_image(zone_corners_mm(zone_named(slot)))) >= SLOT_OUTLINE_IOU


def card_size_ok(quad: np.ndarray, view: MatView | None) -> bool:
    """Whether the quad has a card's size on the mat (when the mat is known), every side
    within CARD_SIZE_TOLERANCE of a card's: an outline of a card's size on average, with one
    side much longer, is a card outlined with what touches it."""
    return view is None or view.card_misfit(quad) <= CARD_SIZE_TOLERANCE


@dataclass
class EnrollResult:
    saved: dict[str, list[Path]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    stopped: bool = False
    alike: list[tuple[str, str, float]] = field(default_factory=list)


def next_path(out: Path, label: str) -> Path:
    folder = out / label
    n = 1
    while (folder / f"{label}-{n}.png").exists():
        n += 1
    return folder / f"{label}-{n}.png"


def pretty(label: str) -> str:
    return label.replace("_", " ").title()


def enroll(source: Any, out: str | Path, labels: Iterable[str] = IDENTITIES, *,
           find_cards: Callable[[np.ndarray], list], ask: Callable[[str], str] = input,
           say: Callable[[str], None] = print, slot: str = "a", flush: int = 2,
           timeout: float = 10.0, attempts: int = 3,
           before_capture: Callable[[str], None] | None = None,
           buttons: bool = False) -> EnrollResult:
    """Guided capture of one reference per label. ``source`` is a ResilientSource (or
    anything with ``wait_frame(timeout)``, ``status`` and ``message``). ``ask`` asks a
    question and gives the answer: "" takes the picture, "s" skips the card, "q" stops.
    ``buttons``: the table's buttons answer too (``hardware.answers.TableAnswers``), and the
    questions say so. ``before_capture`` is called with the label once the player has
    pressed Enter (the synthetic table uses it to lay the card itself)."""
    labels = check_labels(labels)
    out = check_out(out)
    made = [p for p in (out, *out.parents) if not p.exists()]  # the folder, and any above it
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EnrollError(f"cannot create the folder {str(out)!r}: {exc.strerror}") from None
    try:
        return _enroll(source, out, labels, find_cards=find_cards, ask=ask, say=say, slot=slot,
                       flush=flush, timeout=timeout, attempts=attempts,
                       before_capture=before_capture, buttons=buttons)
    finally:
        # Made now and nothing saved in them: not left behind, empty (new/refs and new/).
        with contextlib.suppress(OSError):
            for folder in made:
                folder.rmdir()


def _enroll(source, out: Path, labels: tuple[str, ...], *, find_cards, ask, say, slot, flush,
            timeout, attempts, before_capture, buttons) -> EnrollResult:
    """``enroll``, once its folder is made."""
    how = ANSWERS_WITH_BUTTONS if buttons else ANSWERS
    result = EnrollResult()
    for label in labels:
        tries = 0
        while True:
            given = ask(f"Lay the {pretty(label)} card face up in slot {slot.upper()}, then "
                        f"{how[0]}. ").strip()
            answer = given.lower()
            if answer in ("q", "quit", "stop"):
                result.stopped = True
                break
            if answer in ("s", "skip"):
                result.skipped.append(label)
                break
            if answer:
                say(f"{given!r} is not an answer here: {how[1]}.")
                continue
            if before_capture is not None:
                before_capture(label)
            frame = None
            for _ in range(flush + 1):
                frame = source.wait_frame(timeout) or frame
            if frame is None and getattr(source, "status", None) in (ENDED, MISCONFIGURED):
                # A recording run out, or a camera set wrong: asking again cannot help.
                say(f"No picture from the camera: {source.message} Stopping.")
                result.stopped = True
                break
            markers = detect_markers(frame.image) if frame is not None else {}
            view = mat_from_markers(markers)
            if frame is None:
                say(f"No picture from the camera: {getattr(source, 'reason', source.message)}")
                tries += 1
            elif view is not None and _out_of_focus(frame.image, markers, view):
                # A reference is kept for months: one taken blurred names its card less often
                # (our deck enrolled at a blur of 2.5 on the synthetic table: 99.4 -> 94.8 %
                # named right on sharp scenes), and the picture panels of another deck so
                # blurred had too little detail to be used at all.
                say(f"The picture is out of focus: the {pretty(label)} card would be read less "
                    "well later. Set the camera's focus (lens_position in the camera "
                    "settings, or turn the lens of a camera focused by hand; companion "
                    "camera-check says when it is in focus), then try again.")
                tries += 1
            else:
                image = frame.image
                quad = find_in_slot(image, view, slot, find_cards)
                if quad is None or not card_size_ok(quad, view):
                    # What lies in the slot alone: not a marker or other outline found
                    # elsewhere when the slot is empty, nor the slot's own printed outline.
                    alone = (quad is not None and view is not None
                             and (zone := view.zone_of(quad)) is not None and zone.name == slot
                             and not slot_outline(quad, view, slot))
                    if quad is not None and view is not None and view.card_sized(quad):
                        say(f"The {pretty(label)} card in slot {slot.upper()} seems to touch "
                            "something (a corner mark, another card, a finger). Lay it inside "
                            "the corner marks, touching nothing, and try again.")
                    elif alone and (larger := view.times_a_card(quad)) > 1:
                        # One card in the slot, larger than a card on the mat: the mat was
                        # printed at another size (shrunk onto A4). Not a marker or other
                        # outline found elsewhere when the slot is empty, nor the picture on
                        # a card whose own edge did not show.
                        say(f"The card in slot {slot.upper()} looks "
                            f"{larger:.1f} times as large as a card on this mat "
                            f"should: {REPRINT_MAT}")
                    elif alone and (times := view.misfit_times(quad)) is not None:
                        # Smaller than a card, in a card's shape: the picture on a card whose
                        # own edge did not show, or cards smaller than the mat is made for.
                        say(f"I cannot see one card in slot {slot.upper()}: what lies there "
                            f"measures {times:.1f} times a card on this mat. Lay the "
                            f"{pretty(label)} card flat in slot {slot.upper()}, with nothing "
                            f"else on it, and try again. If it is that size, "
                            f"{REPRINT_MAT_SMALLER}")
                    else:
                        where = f"in slot {slot.upper()}" if view is not None else "on its own"
                        say(f"I cannot see one card {where}. Lay the {pretty(label)} card flat "
                            f"in slot {slot.upper()}, with nothing else on it, and try again.")
                    tries += 1
                else:
                    path = next_path(out, label)
                    _save(path, warp_card(image, quad))
                    result.saved.setdefault(label, []).append(path)
                    say(f"Saved {pretty(label)}: {path}")
                    break
            if tries >= attempts:
                say(f"Skipping {pretty(label)} after {attempts} tries.")
                result.skipped.append(label)
                break
        if result.stopped:
            break
    return result


def _out_of_focus(image: np.ndarray, markers: dict[int, np.ndarray], view: MatView) -> bool:
    """Whether the mat's corner squares (``markers``, seen as ``view``) say the picture is
    out of focus for the table (``vision.focus``): not when they cannot tell."""
    from vision.focus import blur_at_finder, in_focus
    from vision.tracking import search_region

    return in_focus(blur_at_finder(image, markers, search_region(view, image.shape))) is False


def _save(path: Path, card: np.ndarray) -> None:
    """Save a reference in one step: a power cut leaves no half-written picture, which would
    keep the table's camera off until the card is enrolled again."""
    from vision.images import write_picture

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_picture(path, card)
    except ValueError as exc:
        raise EnrollError(str(exc)) from None
    except OSError as exc:
        raise EnrollError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def alike_pairs(recognizer: Any) -> list[tuple[str, str, float]]:
    """The recogniser's pairs of references too alike to tell apart, as (a, b, similarity)."""
    return [(str(a), str(b), float(s)) for a, b, s in recognizer.confusable_pairs()]


LEAVE_ONE_OUT_MAX = 30  # beyond this many cards the check below would take too long


# A card never enrolled is often named as the card most like it: read by a recogniser that
# knows every card but its own, a card is named as another (one of our six in two enrolments
# on the synthetic table, at 0.50 to 0.76), not only the same card under two names (0.61 to
# 0.69). So is a card measured against a card that knows it alone: that one names anything
# like it (no other card votes down what the deck's cards share). Such pairs are measured
# against each other instead (``shared_both_ways``): this much is the
# same card. Measured on six decks: two cards 0.04 to 0.48, and up to 0.55 for our butler
# and vampire, whose figure is drawn alike in other colours (features see grey); the same
# card photographed twice, or enrolled twice on the synthetic table, 0.64 and over (playing
# cards one pip apart reach 0.77: too alike indeed).
ALONE_SAME = 0.6


def _same_card(refs: dict[str, list[np.ndarray]], a: str, b: str, make: Callable[..., Any]
               ) -> list[tuple[str, str, float]]:
    """``[(a, b, share)]`` when cards ``a`` and ``b`` (references cut down already) share
    ALONE_SAME of their matches at least (``shared_both_ways``), else []."""
    from vision.recognize import shared_both_ways

    share = max((shared_both_ways(p, q, make) for p in refs[a] for q in refs[b]), default=0.0)
    return [(a, b, round(min(1.0, share), 3))] if share >= ALONE_SAME else []


def mistaken_pairs(refs: dict[str, list[np.ndarray]],
                   make_recognizer: Callable[..., Any]) -> list[tuple[str, str, float]]:
    """Cards that are one card under two names, worst first: each card's pictures are read by
    a recogniser that knows every card but that one, and a card named as another is
    measured against it (``ALONE_SAME``); two cards alone are measured against each other.
    Two pictures of the same art under two names are caught here even when each picture
    only matches itself best."""
    from vision.recognize import cards_cut_out

    if not 2 <= len(refs) <= LEAVE_ONE_OUT_MAX:
        return []  # one card alone is like no other
    refs, _ = cards_cut_out(refs)  # once for all the recognisers below
    named: set[tuple[str, str]] = set()
    if len(refs) == 2:
        named.add(tuple(sorted(refs)))
    else:
        for label, pictures in refs.items():
            recognizer = make_recognizer({k: v for k, v in refs.items() if k != label},
                                         cut_out=False)
            for picture in pictures:
                match = recognizer.classify(picture)
                if match.label is not None:
                    named.add(tuple(sorted((label, match.label))))
    pairs = [pair for a, b in sorted(named) for pair in _same_card(refs, a, b, make_recognizer)]
    return sorted(pairs, key=lambda p: -p[2])


def too_alike(folder: str | Path, recognizer: Any) -> list[tuple[str, str, float]]:
    """Every pair of enrolled cards too alike to tell apart: the recogniser's own check (on
    the recogniser already built from ``folder``) and the leave-one-card-out check, worst
    first, each pair once."""
    from vision.recognize import read_references

    found: dict[tuple[str, str], float] = {}
    pairs = alike_pairs(recognizer)
    pairs += mistaken_pairs(read_references(folder), type(recognizer))
    for a, b, score in pairs:
        key = tuple(sorted((a, b)))
        found[key] = max(found.get(key, 0.0), score)
    return sorted(((a, b, s) for (a, b), s in found.items()), key=lambda p: -p[2])
