"""Reading a whole picture: where every card lies, and which card it is.

``read_scene`` reads one picture from nothing (``Recognizer.read``, ``companion recognize``):
each card finding finds is named by the recogniser, then the outlines that may be more cards
(blocks of cards touching, pieces cut along seams, panels, a pile's corners, a close-up) are
tried in turn. ``CardReader`` reads a live camera's frames one after another, doing as little
as it can.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.detect import (
    _UNIT,
    MAX_ASPECT,
    MIN_ASPECT,
    MIN_SIDE_SUPPORT,
    SLANTED_MAX,
    _aspect,
    _card_shaped,
    _centre,
    _inter,
    card_proportioned,
    changed,
    find_cards,
    find_outlines,
    halves,
    on_outline,
    order_corners,
    quad_iou,
    seam_pieces,
)
from vision.recognize import (
    GUESS_SURE,
    Match,
    Reading,
    Recognizer,
    as_grey,
    picture_corners,
    point_inside,
    warp_quad,
)

# A card the features name lies on the outline it was found by when they place it over at
# least PLACED_SHARE of that outline's area (unless that outline is far smaller than the card,
# see _around_found); else on an outline set aside that they place it
# on at least PLACED_IOU (intersection over union); else where they place it, when that lies
# PLACED_INSIDE inside the outline at least; else it is unknown.
PLACED_SHARE = 0.8
PLACED_IOU = 0.7
PLACED_INSIDE = 0.85
# A card placed around a picture panel that lies inside an unknown card found (an outline
# over AROUND_LARGER times the panel's area) about as large as the card placed (AROUND_SAME
# times its area) must lie on that outline (AROUND_IOU).
AROUND_LARGER = 1.2
AROUND_SAME = (0.7, 1.4)
AROUND_IOU = 0.7
# A card named lying NESTED_INSIDE inside another card named, under NESTED_SMALLER of its
# area, is no card (see _without_nested).
NESTED_INSIDE = 0.9
NESTED_SMALLER = 0.6
# A piece named (a half, a part) under UNDERSIZED of the area of two other cards named at
# least is no card (see _without_undersized); a card found, barely sure, under UNDERSIZED of
# one is checked as a guess, and one sure under UNDERSIZED of two (see _small_checked).
UNDERSIZED = 0.4


def read_scene(rec: Recognizer, image: np.ndarray) -> list[Reading]:
    """Every card on the scene: where it is and which card it is (label None if unsure).

    Cards touching with no visible seam between them (white-bordered cards side by side)
    are outlined as one block: a card-shaped outline no card is recognised in, or a block
    found beside the cards (``vision.detect.find_outlines``), is cut in two, and each half
    not on a card already found that the first look names surely is a card. A block
    whose halves are not cards may be one card after all, whose picture panel was taken
    for a card of its own: it is one when the first look names it and no card named lies
    on it. So is each piece of a larger outline cut along its seams (three cards in an L)
    that no card read already lies under, or else each of its halves lying on no card read
    (two cards side by side whose own seam did not show), a card around an outline set aside
    where the deck's cards have a panel (``vision.recognize.PANEL_SHARE``), a card whose two
    sides are two of a pile's outline at one of its corners (``vision.detect.CORNER_EPS``)
    or whose edge shows on three sides or two (``vision.detect.FAINT_OTHERS``), a card
    photographed from the side that looks square or too long (``_slanted``), and a card
    photographed from close by. Named by the first look alone at an outline guessed, a
    card barely sure must also have the features lean to it (``Recognizer.guess_quad``), as
    must one on an outline found far smaller than another card named (``_small_checked``).
    At an outline guessed (a half, a piece, a pile's corner), a card the first look finds
    one of several look-alikes without telling which is a card too, unknown
    (``Match.alike``).
    """
    cards, blocks, parts, close_ups, panels, at_corners, slanted = find_outlines(image)
    out = []
    pieces: list[Reading] = []  # halves and parts named by their look alone
    found: list[Reading] = []  # the cards named on the outlines found
    # The first looks at every card found come first: a card they name surely tells which
    # other outlines can only be pieces of a card, the features not worth asking there.
    looks = [rec.first_look(image, corners) for corners in cards]
    sure = [corners for corners, (_, m) in zip(cards, looks, strict=True)
            if m.label is not None and m.score >= GUESS_SURE]
    for corners, look in zip(cards, looks, strict=True):
        m = rec.classify_quad(image, corners, look=look, piece=_a_piece(corners, sure))
        reading = _where_named(image, m, corners, panels)
        inside = _inside_named(rec, image, corners, cards) if reading.label is None else []
        out.extend(inside or [reading])
        pieces.extend(inside)
        found.extend([] if inside else [reading])
    for block in blocks:
        named = _named(rec, image, halves(block), block, cards)
        out = out + named if named else _as_one(rec, image, block, out, rec.guess_quad)[0]
        pieces.extend(named)
    # A part lying on a card read already (whole or as a half) is that card.
    known = [r.corners for r in out]
    unnamed = []
    for part in parts:
        named = _named(rec, image, [part], None, known)
        out.extend(named)
        pieces.extend(named)
        unnamed.extend([] if named else [part])
    out = _around_panels(rec, image, panels, out)
    # A card read at a place guessed at a corner is named by its look alone too: far smaller
    # than the cards beside it, it is a piece of one (see _without_undersized).
    out, named = _at_corners(rec, image, at_corners, out)
    pieces.extend(named)
    out = _slanted(rec, image, [*panels, *slanted], out)
    # A part not named may be two cards side by side whose seam did not show: its halves
    # lying on no card read (a place at a corner, better fitted, goes first). The most doubtful
    # guess of all, a half must have the features lean to its card however sure its look:
    # on piles of dark cards with a light picture, the lower half of a card half hidden was
    # named as another card at 0.58, the features seeing nothing there.
    for part in unnamed:
        named = _named(rec, image, halves(part), part, [r.corners for r in out],
                       lean_needed=True)
        out.extend(named)
        pieces.extend(named)
    for quad in close_ups:  # larger than any card on a table: a close-up, or a mat
        out, named = _as_one(rec, image, quad, out, rec.classify_quad)
        if named:
            break  # one card photographed from close by
    out = _without_undersized(_without_nested(out), pieces)
    return _small_checked(rec, image, out, found)


def _a_piece(corners: np.ndarray, named: Sequence[np.ndarray]) -> bool:
    """Can the outline ``corners`` only be a piece of a card, by the cards ``named``: far
    smaller than one (UNDERSIZED of its area), or inside one and clearly smaller
    (NESTED_INSIDE, NESTED_SMALLER: its picture panel)? The cards of a deck are all one
    size."""
    area = cv2.contourArea(corners)
    for other in named:
        if other is corners:
            continue
        around = cv2.contourArea(other)
        if area < UNDERSIZED * around or _nested(corners, area, other, around):
            return True
    return False


def _nested(inner: np.ndarray, area: float, outer: np.ndarray, around: float) -> bool:
    """Does ``inner`` (of ``area``) lie inside ``outer`` (of ``around``), NESTED_INSIDE of it
    at least, and is it far smaller (NESTED_SMALLER): that card's picture panel?"""
    return area < NESTED_SMALLER * around and _inter(inner, outer) >= NESTED_INSIDE * area


def _named_areas(readings: Sequence[Reading]) -> list[tuple[Reading, float]]:
    """The readings that name a card, each with its area in pixels."""
    return [(r, cv2.contourArea(r.corners)) for r in readings if r.label is not None]


def _small_checked(rec: Recognizer, image: np.ndarray, readings: list[Reading],
                   found: Sequence[Reading]) -> list[Reading]:
    """``readings``, each card named barely sure (under GUESS_SURE) on an outline ``found``
    that is far smaller than another card named (under UNDERSIZED of its area) checked as a
    guess (``Recognizer.check_guess``): unknown unless the features lean to it. The cards of a
    deck are all one size, so such an outline is most likely a piece of a card (the part of
    its picture panel showing beside the card on top, named as another card at 0.52). A
    card named sure (GUESS_SURE) is checked when it is far smaller than two other cards
    named: unknown when the features lean to another card (a dark card's light picture
    showing beside the card on it, named as another at 0.59, the features leaning to the
    card it belongs to). One card photographed close by, or nearer the camera, does not
    count alone (as for ``_without_undersized``)."""
    ids = {id(r) for r in found}
    named = _named_areas(readings)
    areas = {id(r): area for r, area in named}
    out = []
    for r in readings:
        larger = (sum(o is not r and areas[id(r)] < UNDERSIZED * a for o, a in named)
                  if id(r) in ids and id(r) in areas else 0)
        if larger >= (2 if r.score >= GUESS_SURE else 1):
            m = rec.check_guess(image, r.corners, Match(r.label, r.score, r.label),
                                sure_too=True)
            r = r if m.label == r.label else Reading(m.label, m.score, r.corners)
        out.append(r)
    return out


def _without_undersized(readings: list[Reading], pieces: Sequence[Reading]) -> list[Reading]:
    """``readings`` but for each of the ``pieces`` named (halves of an outline, parts cut
    along seams, places guessed at a corner, named by their look alone) far smaller than two
    other cards named at least (under UNDERSIZED of each one's area: one card photographed
    close by, or nearer the camera, does not count alone): the cards of a deck are all one
    size, so it is a piece of one card (half of the picture panel of a dark card whose own
    outline did not show, named as another card at 0.51; out of focus, the panel of a dark
    card partly under a hand, named as another card at 0.56). An outline no card is named
    on is dropped too when it is far smaller than two cards named: no card of the deck, it
    is a piece of one or of the cloth (two squares of a checked cloth, their edge lost in a
    dark corner)."""
    named = _named_areas(readings)
    ids = {id(p) for p in pieces}
    small = {id(r) for r, area in named if id(r) in ids
             and sum(area < UNDERSIZED * a for o, a in named if o is not r) >= 2}
    small |= {id(r) for r in readings if r.label is None
              and sum(cv2.contourArea(r.corners) < UNDERSIZED * a for _, a in named) >= 2}
    return [r for r in readings if id(r) not in small]


def _without_nested(readings: list[Reading]) -> list[Reading]:
    """``readings`` but for each card named that lies inside another card named (NESTED_INSIDE
    of it) and is far smaller than it (NESTED_SMALLER of its area): the cards of a deck are
    all one size, so it is that card's picture panel, named by its look alone."""
    named = _named_areas(readings)
    nested = {id(r) for r, area in named for o, around in named
              if o is not r and _nested(r.corners, area, o.corners, around)}
    return [r for r in readings if id(r) not in nested]


def _where_named(image: np.ndarray, m: Match, corners: np.ndarray,
                 panels: Sequence[np.ndarray]) -> Reading:
    """The card ``m`` names inside ``corners``, lying there, unless its features place it
    over clearly less of that outline (PLACED_SHARE: the outline holds more than this card,
    a pile's outline, several cards'). Then it lies on the outline set aside (``panels``)
    where they place it (PLACED_IOU); else, when they place it inside the outline (a card
    on a pile: PLACED_INSIDE), where they place it, pushed onto the edges near by; else it is
    unknown: named, but not where. A card they place around that outline, far larger than
    it, lies where they place it (``_around_found``)."""
    if m.label is None or m.placed is None:
        return Reading(m.label, m.score, corners)
    shared = _inter(corners, m.placed)
    area = cv2.contourArea(corners)
    if shared >= PLACED_SHARE * area:
        if area < NESTED_SMALLER * cv2.contourArea(m.placed):
            return _around_found(image, m, corners)
        return Reading(m.label, m.score, corners)
    best = max(panels, key=lambda p: quad_iou(p, m.placed), default=None)
    if best is not None and quad_iou(best, m.placed) >= PLACED_IOU:
        return Reading(m.label, m.score, best)
    h, w = image.shape[:2]
    found = on_outline(image, m.placed)
    if (shared >= PLACED_INSIDE * cv2.contourArea(m.placed)
            and found is not None and _card_shaped(found[0], h * w)):
        return Reading(m.label, m.score, found[0])
    return Reading(None, 0.0, corners)


def _around_found(image: np.ndarray, m: Match, corners: np.ndarray) -> Reading:
    """The card ``m`` names, placed by its features around the far smaller outline
    ``corners`` it was found by (a frame or picture panel inside the card, its own outline
    lost where it touches another): on the card's own outline where they place it, pushed
    onto the edges near by, when a side of it at least runs along an edge, it lies in the
    picture and on the place (PLACED_IOU), and the features are sure of the card (GUESS_SURE:
    one barely sure stays on the small outline, where ``_small_checked`` checks it); else on
    ``corners``."""
    h, w = image.shape[:2]
    if m.score < GUESS_SURE:
        return Reading(m.label, m.score, corners)
    found = on_outline(image, m.placed)
    if found is None:
        return Reading(m.label, m.score, corners)
    card, support = found
    if (_a_side_shows(support) and _in_picture(card, w, h)
            and _card_shaped(card, h * w) and quad_iou(card, m.placed) >= PLACED_IOU):
        return Reading(m.label, m.score, card)
    return Reading(m.label, m.score, corners)


def _a_side_shows(support: Sequence[float]) -> bool:
    """Does one side at least of an outline pushed onto the edges (``on_outline``'s support
    of each side) run along an edge: some of a card's own outline shows there?"""
    return max(support) >= MIN_SIDE_SUPPORT


def _in_picture(quad: np.ndarray, w: int, h: int) -> bool:
    """Does ``quad`` lie within a picture of w x h pixels?"""
    return bool(quad.min() >= 0 and quad[:, 0].max() <= w - 1 and quad[:, 1].max() <= h - 1)


def _as_one(rec: Recognizer, image: np.ndarray, quad: np.ndarray, readings: list[Reading],
            look) -> tuple[list[Reading], bool]:
    """``readings``, or, when no card named among them lies on ``quad`` and ``look``
    (``Recognizer.guess_quad`` or ``classify_quad``) names it, with ``quad`` as that card in
    place of the unknown ones on it (its own picture panel or frames); and whether it was
    named."""
    on = _unknown_under(quad, readings)
    if on is None:
        return readings, False
    m = look(image, quad)
    if m.label is None:
        return readings, False
    return _in_place_of(Reading(m.label, m.score, quad), on, readings), True



def _around_panels(rec: Recognizer, image: np.ndarray, panels: Sequence[np.ndarray],
                   readings: list[Reading]) -> list[Reading]:
    """``readings`` with the cards the first look names around ``panels`` or around
    the unknown cards read (a panel may be card-shaped) lying on no card named (see
    ``vision.recognize.PANEL_SHARE``), in place of the unknown ones there."""
    if not rec.panel_layouts:
        return readings
    for panel in [*panels, *(r.corners for r in readings if r.label is None)]:
        if not _on_named(panel, readings):
            readings = _card_around(rec, image, panel, readings)
    return readings


def _card_around(rec: Recognizer, image: np.ndarray, panel: np.ndarray,
                 readings: list[Reading]) -> list[Reading]:
    """``readings`` with the card around ``panel`` if there is one: of the places the
    layouts give it (each layout, each way round), those where a side of its outline at
    least shows, the one the first look names surest, if ``Recognizer.check_guess`` lets
    it stand."""
    h, w = image.shape[:2]
    best: tuple[Match, np.ndarray, list[bool]] | None = None
    for layout in rec.panel_layouts:
        for turn in range(4):  # which corner of the panel is the layout's first
            # The panel's corners rolled by ``turn`` (as np.roll does, at a tenth of its cost).
            rolled = np.concatenate((panel[4 - turn:], panel[:4 - turn]))
            to_picture = cv2.getPerspectiveTransform(layout, rolled)
            card = cv2.perspectiveTransform(_UNIT[None], to_picture)[0]
            if not _in_picture(card, w, h):
                continue  # in the picture or not in any order: put in order only when it is
            card = order_corners(card)
            if not _card_shaped(card, h * w):
                continue
            found = on_outline(image, card)
            if found is not None and not _a_side_shows(found[1]):
                # A card may show against its table in colour alone (a black card on a
                # dark blue cloth): its outline looked for in each colour too.
                found = on_outline(image, card, colour=True)
            if found is None or not _a_side_shows(found[1]):
                continue  # no card's outline there
            card = found[0]
            on = _unknown_under(card, readings)
            if on is None or not _card_shaped(card, h * w):
                continue  # a card named lies there
            if _crosses(card, panel, readings):
                continue
            m = rec.glance_quad(image, card)
            if m.label is not None and (best is None or m.score > best[0].score):
                best = (m, card, on)
    if best is None:
        return readings
    m, card, on = best
    m = rec.check_guess(image, card, m)
    if m.label is None:
        return readings
    return _in_place_of(Reading(m.label, m.score, card), on, readings)


def _crosses(card: np.ndarray, panel: np.ndarray, readings: Sequence[Reading]) -> bool:
    """Does a card placed around ``panel`` cross the outline of an unknown card found around
    the panel (larger than it, holding its middle) and about as large as the card placed
    (AROUND_SAME)? The card whose panel it is lies on that outline: a card placed across it
    (AROUND_IOU) is placed wrong. (An outline of several cards holds the card anywhere.)"""
    area = cv2.contourArea(card)
    panel_area = cv2.contourArea(panel)
    middle = _centre(panel)
    for r in readings:
        if r.label is not None:
            continue
        found = cv2.contourArea(r.corners)
        if (found > AROUND_LARGER * panel_area
                and AROUND_SAME[0] * area <= found <= AROUND_SAME[1] * area
                and point_inside(r.corners, middle) and quad_iou(card, r.corners) < AROUND_IOU):
            return True
    return False


def _at_corners(rec: Recognizer, image: np.ndarray, places: Sequence[np.ndarray],
                readings: list[Reading]) -> tuple[list[Reading], list[Reading]]:
    """``readings`` with the cards the first look names (``Recognizer.guess_quad``), or finds
    one of cards alike (``_a_card``), at ``places`` (at the corners of outlines of several
    cards, ``find_outlines``), each pushed onto the edges near it, where no card named lies,
    in place of the unknown ones there; and the cards so read."""
    read: list[Reading] = []
    for place in places:
        card = _pushed(image, place, readings)
        if card is None:
            continue
        m = rec.guess_quad(image, card)
        if _a_card(m):
            # In a pile the middle of a card named may lie under this one: it stays.
            on = _unknown_under(card, readings, named_below=True)
            read.append(Reading(m.label, m.score, card))
            readings = _in_place_of(read[-1], on, readings)
    return readings, read


def _pushed(image: np.ndarray, place: np.ndarray, readings: Sequence[Reading], *,
            aspect: tuple[float, float] = (MIN_ASPECT, MAX_ASPECT), all_round: bool = False
            ) -> np.ndarray | None:
    """``place`` pushed onto the edges near it (``on_outline``), when neither it nor where
    it lands lies over a card named among ``readings`` and that is card-shaped (proportions
    within ``aspect``); ``all_round``: every side must run along an edge. Else None."""
    if _over_named(place, readings):
        return None
    found = on_outline(image, place)
    if found is None or (all_round and min(found[1]) < MIN_SIDE_SUPPORT):
        return None
    h, w = image.shape[:2]
    card = found[0]
    if not _card_shaped(card, h * w, aspect) or _over_named(card, readings):
        return None
    return card


def _slanted(rec: Recognizer, image: np.ndarray, panels: Sequence[np.ndarray],
             readings: list[Reading]) -> list[Reading]:
    """``readings`` with the cards the first look names (``Recognizer.guess_quad``), or
    finds one of cards alike (``_a_card``), on the ``panels`` of no card's proportions but
    for a slant (as square as 1 : 1, or up to ``vision.detect.SLANTED_MAX``: a card
    photographed from the side) lying over no card named, each pushed onto the edges near it
    and running along them all round, in place of the unknown ones there. One that looks
    square is looked at both ways round: which of its sides is the card's long side does not
    show."""
    for panel in panels:
        if card_proportioned(panel):
            continue
        card = _pushed(image, panel, readings, aspect=(1.0, SLANTED_MAX), all_round=True)
        if card is None:
            continue
        m = rec.guess_quad(image, card)
        if not _a_card(m) and _aspect(card) < MIN_ASPECT:
            # As square as it looks, the card may lie the other way: turned a quarter.
            flat = warp_quad(image, card, quarter=True)
            m = rec.guess_quad(flat, picture_corners(flat.shape[1], flat.shape[0]))
        if _a_card(m):
            on = _unknown_under(card, readings)
            if on is not None:
                readings = _in_place_of(Reading(m.label, m.score, card), on, readings)
    return readings


def _inside_named(rec: Recognizer, image: np.ndarray, corners: np.ndarray,
                  cards: Sequence[np.ndarray]) -> list[Reading]:
    """The cards named inside an outline that was not recognised as one card: its halves
    (two cards side by side), else its pieces cut along seams (a pile, cards touching)."""
    return (_named(rec, image, halves(corners), corners, cards)
            or _named(rec, image, seam_pieces(image, corners), corners, cards))


def _named(rec: Recognizer, image: np.ndarray, pieces: Sequence[np.ndarray],
           whole: np.ndarray | None, cards: Sequence[np.ndarray], *,
           lean_needed: bool = False) -> list[Reading]:
    """The pieces (of ``whole``, if given) that the first look names
    (``Recognizer.guess_quad``) or finds one of cards alike (``_a_card``), but for a piece
    whose middle lies on another of ``cards``. ``lean_needed``: the features must lean to the
    card named too, however sure its look (as ``Recognizer.check_guess``)."""
    out = []
    for piece in pieces:
        middle = _centre(piece)
        if any(c is not whole and point_inside(c, middle) for c in cards):
            continue
        m = rec.guess_quad(image, piece, lean_needed=lean_needed)
        if _a_card(m):
            out.append(Reading(m.label, m.score, piece))
    return out


def _a_card(m: Match) -> bool:
    """Is the first look's match ``m`` at an outline guessed a card: named, or one of cards
    alike for sure, which of them unsure (``Match.alike``: unknown, but a card)?"""
    return m.label is not None or m.alike


def _on_named(quad: np.ndarray, readings: Sequence[Reading]) -> bool:
    """Does the middle of ``quad`` lie on a card named among ``readings``?"""
    middle = _centre(np.asarray(quad, np.float32).reshape(4, 2))
    return any(r.label is not None and point_inside(r.corners, middle) for r in readings)


def _over_named(quad: np.ndarray, readings: Sequence[Reading]) -> bool:
    """Does ``quad`` lie over a card named among ``readings`` (its middle on it, or a third of
    their union shared)?"""
    return _on_named(quad, readings) or any(
        r.label is not None and quad_iou(quad, r.corners) > 0.3 for r in readings)


def _unknown_under(quad: np.ndarray, readings: Sequence[Reading], *,
                   named_below: bool = False) -> list[bool] | None:
    """For each reading, whether it is unknown and its middle lies inside ``quad``; None when
    a named one's does (then ``quad`` holds cards: a block, a mat, a tray, and is no card
    itself), unless ``named_below`` (the top card of a pile lies over the card named below:
    that one is not under it in this sense)."""
    on = [point_inside(quad, _centre(r.corners)) for r in readings]
    if not named_below and any(o and r.label is not None for o, r in zip(on, readings,
                                                                          strict=True)):
        return None
    return [o and r.label is None for o, r in zip(on, readings, strict=True)]


def _in_place_of(card: Reading, on: Sequence[bool], readings: Sequence[Reading]
                 ) -> list[Reading]:
    """``readings`` with ``card`` (one card whose outline holds some of them: its picture
    panel, its frames) in place of those ``on`` it."""
    return [r for o, r in zip(on, readings, strict=True) if not o] + [card]


class CardReader:
    """Reads the cards of a live picture frame after frame, doing as little as it can.

    A frame in which nothing changed (``vision.detect.changed``) returns the last readings at
    once. Otherwise the cards are found again; a card found where one was named before, whose
    pixels there have not changed (beyond sensor noise), keeps its name. Only new or altered
    cards are named again. A block holding only unknown cards is read as one card when the
    first look names it (``Recognizer.guess_quad``: a card whose picture panels were taken
    for cards), and remembered the same way.
    """

    def __init__(self, recognizer: Recognizer, *, min_iou: float = 0.85,
                 level: int = 25, max_changed: float = 0.02) -> None:
        self.recognizer = recognizer
        self.min_iou = min_iou
        self.level = level  # grey levels a pixel must change by to count as changed
        self.max_changed = max_changed  # share of changed pixels a card may have and stay
        self._prev: np.ndarray | None = None
        # Every card named lately: its reading, the outline it was found by, and where and
        # how it looked (box, grey pixels).
        self._memory: list[tuple[Reading, np.ndarray, tuple[int, int, int, int], np.ndarray]] = []
        self._readings: list[Reading] = []
        self.named = 0  # how many times a card (or a block, as one card) was named afresh

    def read(self, image: np.ndarray, *, force: bool = False) -> list[Reading]:
        if not force and self._prev is not None and not changed(self._prev, image):
            return list(self._readings)
        grey = as_grey(image)
        blocks: list[np.ndarray] = []
        # The same cards as in colour, one conversion less.
        memory = [self._recall(grey, corners)
                  or self._name(image, grey, corners, self.recognizer.classify_quad)
                  for corners in find_cards(grey, blocks=blocks)]
        readings = [r for r, _, _, _ in memory]
        # A block holding only unknown cards may be one card whose picture panels were taken
        # for cards: it is one when the first look names it. (The panels are remembered too,
        # so as not to be named again while they stay still.)
        for block in blocks:
            on = _unknown_under(block, readings)
            if on is None or not any(on):
                continue  # it holds a card named, or no card found on its own
            entry = (self._recall(grey, block)
                     or self._name(image, grey, block, self.recognizer.guess_quad))
            memory.append(entry)
            if entry[0].label is not None:
                readings = _in_place_of(entry[0], on, readings)
        self._memory = memory
        self._readings = readings
        self._prev = image  # only once read: a picture that failed is read again
        return list(readings)

    def _recall(self, grey: np.ndarray, corners: np.ndarray):
        """The memory of a card found where ``corners`` are whose pixels have not changed
        since (with the new corners, unless it was read elsewhere than found: a card on a
        pile outlined as one), or None."""
        for old, found, box, pix in self._memory:
            if quad_iou(found, corners) < self.min_iou:
                continue
            # Compare the pixels where the card was named with the same pixels now.
            bx0, by0, bx1, by1 = box
            now = grey[by0:by1, bx0:bx1]
            moved = np.count_nonzero(cv2.absdiff(now, pix)[::2, ::2] > self.level)
            if moved <= self.max_changed * now[::2, ::2].size:
                where = corners if old.corners is found else old.corners
                return Reading(old.label, old.score, where), corners, box, pix
        return None

    def _name(self, image: np.ndarray, grey: np.ndarray, corners: np.ndarray, look):
        """The card at ``corners`` named afresh by ``look``, with its pixels to recall it by.
        A card the features place over too little of ``corners`` lies where they place it,
        or is unknown, and one they place around ``corners`` far larger lies on its own
        outline (``_where_named``; the table looks for no outline set aside)."""
        h, w = grey.shape[:2]
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
        box = (int(x0), int(y0), int(min(x1, w)), int(min(y1, h)))
        m = look(image, corners)
        self.named += 1
        return (_where_named(image, m, corners, ()), corners, box,
                grey[box[1]:box[3], box[0]:box[2]].copy())
