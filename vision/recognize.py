"""Recognition by enrolment: which of the enrolled cards is this?

References are pictures of each card (scans or camera shots, any orientation and size) in a
folder: ``DIR/<label>/*.png|jpg`` (several pictures per card) or ``DIR/<label>.png|jpg`` (one).
Names starting with ``_`` or ``.`` are skipped (printable sheets and the like can live there).

How it decides: local features (RootSIFT) of the query are matched against the features of
every reference at once. A match counts only when its nearest reference feature is clearly
closer than the nearest feature of any *other* card, so what all cards share (the common frame
design) votes for nobody. The votes for the best references are then checked for geometric
consistency: one similarity transform (RANSAC) that keeps each feature's orientation and maps
the whole card onto the whole reference (about the same size, centre onto centre). Only those
inliers count.

The score (0..1) is the weakest of three pieces of evidence, each 0.5 at its bare minimum:
enough inliers (``MIN_INLIERS``), inliers spread over the card rather than huddled on one
detail it may share with another card (``MIN_SPREAD`` of the reference's area), and a clear
lead over the runner-up (twice its inliers). Below the threshold (0.5 by default) the label is
None: "unknown", never a guess.

A card found on a scene (``classify_quad``, ``read``, ``CardReader``) is first looked at the
cheap way: its quad is warped to a small thumbnail, which is compared with every reference's
thumbnail (each at a few blur levels, the card both ways up) by correlation, all in one matrix
product. The thumbnail is in Lab colour, each channel brought to zero mean and unit spread
(so light and white balance drop out), each element weighed by how much the enrolled cards
differ there (a frame design they all share counts for little). That first look names the
card only when the best reference correlates well (``FAST_MIN_CORR``) *and* clearly better
than any other card (``FAST_MIN_MARGIN``). When it correlates well but not clearly better
than some others (cards alike, as playing cards are), a closer look compares it with those
few only, at a finer size (``FINE_W``); in a deck with such cards alike, a card the first
look names clearly must also be that close to its own references there (a card never
enrolled has its look-alike's thumbnail). Otherwise the feature matcher above decides, as
it always does for references that are not card-shaped. A first look that is barely sure
(``GUESS_SURE``) stands only if the features lean to the same card. A
picture read whole (``classify``, ``--whole``) gets the same looks, the whole picture taken
for the card (not checked so: no misread was seen there). A card that the features name
must then also agree in colour with that card (``COLOUR_MIN_CORR``): two cards drawn alike
in different colours, or a card that was never enrolled, stay unknown instead of being taken
for each other. A card with look-alikes in the deck (cards that differ in a pip,
``ALIKE_REF_CORR``) is named by its features only when they are clearly sure
(``ALIKE_MIN_SCORE``): they cannot count pips.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import logging
import math
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision.images import shown_name

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# Pictures OpenCV may not read (a phone's HEIC): left out of references with a warning.
UNREAD_SUFFIXES = (".heic", ".heif", ".avif", ".gif")

# Crops are rescaled so their longer side has this many pixels before feature extraction.
WORK_SIDE = 320
# The warped crop of a card quad (portrait, card proportions 63 x 88).
CROP_W, CROP_H = 230, 320
MIN_INLIERS = 10
CHECKS = 32  # FLANN leaves looked at per query feature
RATIO = 0.85
N_FEATURES = 600
RANSAC_PX = 8.0
PLACE_PX = 3.0  # placing a card in the picture: matches this far off the fit still count
ROOT_SIFT = 1
MAX_SCALE = 1.4
CENTRE_TOL = 0.1
# Inliers must cover at least this fraction of the reference (not one shared symbol).
MIN_SPREAD = 0.06
DEFAULT_THRESHOLD = 0.5
# A reference picture that is a photo of one card lying on a background is cut down to the
# card: the card takes at least PHOTO_CARD_SHARE of the picture, any other card found at
# most PHOTO_OTHER_SHARE of its size.
PHOTO_CARD_SHARE = 0.03
PHOTO_OTHER_SHARE = 0.25
# A card found on a photo by colour alone is cut out only when each side is within
# COLOUR_CUT_SIZE of the middle size of the cards found in grey, of which there must be
# COLOUR_CUT_PEERS at least (see ``_of_their_size``). A card found in grey with both sides
# under 1 - COLOUR_CUT_SIZE of theirs is looked for by colour too (``_far_smaller``).
COLOUR_CUT_SIZE = 0.15
COLOUR_CUT_PEERS = 3
# A photo's cut is moved onto the cut the others agree on (``_agreeing_outlines``) by at most
# CUT_MAX_MOVE of the card's width, and only when, so aligned, its picture correlates
# CUT_SHARED_CORR at least with the middle one: cards that share little of their design
# (white cards with one picture each, playing cards) leave a middle picture with nothing
# sharp to align to. Over 925 photos of six decks, moving every cut made 264 of them worse
# (a corner off by over 0.02 of the card's size) and 10 better; moving those at 0.8 or
# more, 4 worse and 9 better.
CUT_MAX_MOVE = 0.12
CUT_SHARED_CORR = 0.8
# A picture classified whole and not recognised may be a loosely cropped photo: the one card
# found in it, taking at least LOOSE_CARD_SHARE of it, is tried.
LOOSE_CARD_SHARE = 0.15
# A reference is turned half a turn when that brings its thumbnail's correlation with the
# middle of all references up by more than this (``_same_way_up``).
UPSIDE_DOWN_MARGIN = 0.1
# Each reference is also enrolled as seen at these sizes (longer side, pixels).
LOW_RES_VIEWS = (110, 75)

# A card found on a scene is matched by its features at FEATURE_OVERSIZE times its own size
# in the picture, but at no fewer than FEATURE_MIN_SIDE pixels along its long side, each
# looking at FEATURE_CHECKS leaves of the FLANN trees (CHECKS for a picture read whole). At
# 1.25 times and 32 leaves (FEATURE_BAND as below), no more cards were named right over 1300
# scenes of our deck and 800 of five other decks, and the feature matcher took a sixth longer.
FEATURE_OVERSIZE = 1.1
FEATURE_MIN_SIDE = 128
FEATURE_CHECKS = 16
# Features within FEATURE_BAND (of the crop's long side) of its edge are left out: there they
# see the card's outline and what lies round it, which no reference shares. Over 1300 scenes
# of our deck, 15 % of the features lay within 0.04 of the edge and 0.3 % of the inliers.
FEATURE_BAND = 0.05

# The first look at a card found on a scene: thumbnails of THUMB_W x THUMB_H pixels.
THUMB_W, THUMB_H = 24, 33
# A reference picture narrower than this (a thumbnail, an icon saved by mistake) holds no
# card's detail: upscaled for the features, its blur still gave enough of them to pass, and
# as a card of its own it changed how sure the first look is of every other card.
MIN_REFERENCE_SIDE = 32
THUMB_BLURS = (0.0, 0.7, 1.4)  # each reference's thumbnail also this blurred (sigma, pixels)
FAST_MIN_CORR = 0.7  # the best reference's correlation, at least
FAST_MIN_MARGIN = 0.25  # ...and ahead of the best other card's by at least this much
# A card the feature matcher names must also look like that card in colour: its thumbnail's
# correlation with the card's (weighed as above, 0 for an average card) at least this much.
# Cards with a like drawing in other colours (or a card that was never enrolled) fail here.
COLOUR_MIN_CORR = 0.1
# References whose long side over short side lies outside this range are not card-shaped:
# with any of them enrolled, the first look is skipped and features decide every time.
CARD_SHAPED = (1.2, 1.6)
# The lead over other cards means little with fewer cards than this to compare against.
FAST_MIN_LABELS = 3
# A channel varying less than this (Lab units, standard deviation) is not stretched to unit
# spread: a deck without colour does not turn sensor noise into evidence.
THUMB_MIN_STD = 2.0
# A closer look when the first look finds several cards alike (playing cards: the same pips
# in another suit, one pip more): the card at FINE_W x FINE_H pixels (blurred FINE_BLUR)
# against the cards within FAST_MIN_MARGIN of the best correlation, those that made the
# first look unsure (FINE_MAX at most), weighed
# by where the cards differ. It names the best one when its correlation is FINE_MIN_CORR
# at least and the card lies at least FINE_MIN_SIDE of the way from every other candidate
# to it (1: on it) along what tells them apart. In a deck with cards alike, a card the first
# look names clearly ahead of the others must also correlate FINE_MIN_CORR with its own
# references (``Recognizer._like_its_own``): a card never enrolled has its enrolled
# look-alike's thumbnail.
FINE_W, FINE_H = 96, 132
FINE_BLUR = 0.7
FINE_MAX = 4
FINE_MIN_CORR = 0.985
FINE_MIN_SIDE = 0.85
# The closer look leaves out a band this wide (of the card's size) along each side: a card cut
# from a photo keeps a sliver of table round it, another colour for each card, which swamps
# what tells cards alike apart (a card and the same card with a 2-pixel band of purple cloth
# along two sides: correlation 0.48 with it, 0.99 without the band).
FINE_INSET = 0.03
# Cards that differ in a detail only (a pip more, another suit): a reference this close to
# another card's at the closer look's size, weighed by where the deck's cards differ or not
# (in a few cards alike the weighing spreads them apart). Our identities and other
# illustrated decks stay under 0.75 either way; playing cards of one suit or rank in a whole
# deck reach 0.9 and over.
# The features see such a card's pips but not which of them are missing or extra: photos of
# a card never enrolled were named as their look-alikes at 0.5 to 0.75. Among look-alikes,
# the features name a card only at ALIKE_MIN_SCORE at least.
ALIKE_REF_CORR = 0.8
ALIKE_MIN_SCORE = 0.85
# A card whose closer look correlates ALIKE_CARD_CORR at least with a look-alike's reference,
# every card it compared (within FAST_MIN_MARGIN of the first look's best, FINE_MAX at most)
# being a look-alike, is one of them for sure even when which one stays unsure: on an
# outline guessed (a piece of a block, a pile's corner) it is a card, unknown. Over 220
# outlines guessed on playing-card-like scenes, those on a card's own outline reached 0.77
# to 0.99, halves of a card and parts of one showing from under another 0.74 at most.
ALIKE_CARD_CORR = 0.85
# A deck whose cards have a panel in the same place (a picture framed on a dark card, an art
# box): its place is learnt from the references, each panel taking PANEL_SHARE of its card
# and lying within PANEL_SAME (of the card's size) of the same place on half the cards at
# least. A panel found on a scene with no card read around it (the cards' own outlines lost
# where they touch or pile up) stands for a card there, which the first look must name.
PANEL_SHARE = (0.15, 0.85)
PANEL_SAME = 0.03
# A card named by its first look alone on an outline guessed (half of an outline, a piece cut
# along seams, a place around a picture panel or at a pile's corner, a block taken as one
# card) is the best of several guesses tried: where its look is barely sure (a score under
# GUESS_SURE, 0.5 being the bare minimum), the features must lean to the same card too (their
# likeliest card, sure or not: see ``Recognizer.check_guess``). The same holds on an outline
# found (the part of a card showing from under another can have a card's shape, a hand and
# glare can leave a card's look to chance); there, failing that, the features decide, as
# when the first look is unsure. A card with
# look-alikes, which the features cannot tell from them, is unknown when barely sure: playing
# cards enrolled from photos, a 3 of spades 90 pixels long was named the 3 of clubs at 0.54.
# Over two sets of 2000 held-out
# scenes for each of six decks, barely sure first looks named 6 cards wrongly: 5 guesses on
# dark cards with a light picture, and the part of a card under another. Each time the
# features leant to another card or to none. Checked so, none of them is named; per deck and
# set, 0 to 5 of about 4500 cards fully in view named right before are not (0.1 % at most).
# On an outline found, a lean to none once let a card stand: under a warm colour cast, a dark
# card with a light picture half under a hand, in glare, was named as another at 0.53.
GUESS_SURE = 0.55
# Before it, the card is aligned on the best reference (a corner found a pixel off moves every
# pip at this size): at most this many steps, or until a step changes it this little.
ALIGN_UNTIL = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-3)
# It moves the card by at most this share of its width, and stretches or turns it by at most
# this much (a corner found a few pixels off); beyond that it is left as it was.
ALIGN_MAX_SHIFT = 0.06
ALIGN_MAX_STRETCH = 0.06


class EnrolmentError(ValueError):
    """The reference folder is missing, empty or holds an unusable picture (the message says
    which; ``path`` and ``label`` are the picture file that cannot be used and its card's
    label, if that is the trouble; ``index``, the picture's place among the card's when
    only the pictures, not their files, were given)."""

    def __init__(self, message: str, *, path: Path | None = None,
                 label: str | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.label = label
        self.index = index


def naming_the_file(err: EnrolmentError, files: dict[str, list[Path]]) -> EnrolmentError:
    """``err`` with the file of the picture it is about, found by its place among its card's
    ``files`` (as ``reference_files`` lists them), when it names none yet."""
    if err.path is not None or err.label is None or err.index is None:
        return err
    path = files[err.label][err.index]
    return EnrolmentError(f"{err} ({str(path)!r})", path=path, label=err.label)


@dataclass(frozen=True, slots=True)
class Match:
    label: str | None  # None: unknown (not sure enough to name a card)
    score: float  # 0..1
    best: str | None = None  # the best candidate even when unknown, for diagnostics
    # Where the features place the card they name (``classify_quad``), 4 x 2 picture pixels
    # in order around it; None when they did not name it.
    placed: np.ndarray | None = field(default=None, compare=False)
    # The closer look found the card one of several cards alike (see ALIKE_CARD_CORR): a card
    # of this deck for sure, which of them unsure. Set by the first look only.
    alike: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class Reading:
    label: str | None
    score: float
    corners: np.ndarray  # 4 x 2 float32, image pixels, in order around the card


def as_grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _normalise(image: np.ndarray, side: int | None = None) -> np.ndarray:
    """Grey, rescaled to a longer side of ``side`` pixels (default WORK_SIDE)."""
    side = side or WORK_SIDE
    g = as_grey(image)
    h, w = g.shape[:2]
    s = side / max(h, w)
    if abs(s - 1.0) > 1e-3:
        g = cv2.resize(g, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    return g


def warp_quad(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (CROP_W, CROP_H),
              *, interpolation: int = cv2.INTER_LINEAR, quarter: bool = False) -> np.ndarray:
    """The card inside ``corners`` (4 x 2, in order around it) warped flat, portrait.

    The first side (corner 0 to 1) becomes the top edge when it is the shorter one; otherwise
    the crop is turned so that the card still comes out portrait. Corners going round the
    other way (counter-clockwise on screen) are taken in reverse, so the card is not mirrored.
    ``quarter``: turned a quarter from that (a card seen from the side may look square, and
    then lie either way).
    """
    w, h = size
    c = _portrait_corners(corners)
    if quarter:
        c = np.concatenate((c[1:], c[:1]))
    m = cv2.getPerspectiveTransform(c, picture_corners(w, h))
    return cv2.warpPerspective(image, m, (w, h), flags=interpolation,
                               borderMode=cv2.BORDER_REPLICATE)


def picture_corners(w: int, h: int) -> np.ndarray:
    """The corners of a picture of w x h pixels (pixel centres), clockwise from the top
    left: a picture that is one card, as corners."""
    return np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])


def _portrait_corners(corners: np.ndarray) -> np.ndarray:
    """The corners in the order ``warp_quad`` takes them: clockwise on screen, from the top
    left of the card turned portrait."""
    # Plain floats: four points need no array arithmetic.
    c = np.asarray(corners, np.float32).reshape(4, 2).tolist()
    (ax, ay), (bx, by), (cx, cy), _ = c
    if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < 0:
        c = c[::-1]
        (ax, ay), (bx, by), (cx, cy), _ = c
    if math.hypot(bx - ax, by - ay) > math.hypot(cx - bx, cy - by):
        c = c[1:] + c[:1]
    return np.float32(c)


@functools.lru_cache(maxsize=256)
def _pairs(n: int, iters: int) -> tuple[np.ndarray, np.ndarray]:
    """The RANSAC's pairs of two different points among ``n`` (of ``iters`` drawn), the same
    for every fit of ``n`` points: drawn once for each ``n``, as seeding a generator takes
    longer than the draws (read-only)."""
    rng = np.random.default_rng(n)
    i = rng.integers(0, n, iters)
    j = rng.integers(0, n, iters)
    keep = i != j
    i, j = i[keep], j[keep]
    i.flags.writeable = j.flags.writeable = False
    return i, j


def _fit_similarity(src: np.ndarray, dst: np.ndarray, turn: np.ndarray, q_size, r_size,
                    iters: int = 256) -> np.ndarray:
    """RANSAC for one similarity (rotation, scale, shift) mapping query points onto
    reference points, among plausible ones only: about the same size (within MAX_SCALE),
    the query's centre onto the reference's centre (within CENTRE_TOL of its size). An
    inlier lands within RANSAC_PX and turned like its feature (``turn``: the reference
    feature's orientation minus the query feature's, degrees). Returns the inlier mask."""
    n = len(src)
    best = np.zeros(n, bool)
    if n < 2:
        return best
    i, j = _pairs(n, iters)
    # Similarity as complex numbers: z' = a z + b.
    zs = src[:, 0] + 1j * src[:, 1]
    zd = dst[:, 0] + 1j * dst[:, 1]
    dz = zs[j] - zs[i]
    ok = np.abs(dz) > 2.0
    i, j, dz = i[ok], j[ok], dz[ok]
    a = (zd[j] - zd[i]) / dz
    b = zd[i] - a * zs[i]
    scale = np.abs(a)
    qc = q_size[0] / 2 + 1j * q_size[1] / 2
    rc = r_size[0] / 2 + 1j * r_size[1] / 2
    plausible = (scale >= 1 / MAX_SCALE) & (scale <= MAX_SCALE)
    plausible &= np.abs(a * qc + b - rc) <= CENTRE_TOL * max(r_size)
    a, b = a[plausible], b[plausible]
    if len(a) == 0:
        return best
    err = np.abs(a[:, None] * zs[None, :] + b[:, None] - zd[None, :])  # hypotheses x points
    rot = np.degrees(np.angle(a))
    dturn = (turn[None, :] - rot[:, None] + 180.0) % 360.0 - 180.0
    inliers = (err <= RANSAC_PX) & (np.abs(dturn) <= 25.0)
    k = int(np.argmax(inliers.sum(axis=1)))
    return inliers[k]




def _low_res(image: np.ndarray, side: int) -> np.ndarray:
    g = as_grey(image)
    h, w = g.shape[:2]
    s = side / max(h, w)
    if s >= 1:
        return g
    small = cv2.resize(g, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _camera_like(grey: np.ndarray) -> np.ndarray:
    """A reference picture as a camera might see it: turned, shrunk and a little blurred
    (no longer on the reference's own pixel grid)."""
    h, w = grey.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 23.0, 0.4)
    side = int(0.4 * np.hypot(w, h)) + 2
    m[:, 2] += (side / 2 - w / 2, side / 2 - h / 2)
    out = cv2.warpAffine(grey, m, (side, side), flags=cv2.INTER_AREA,
                         borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(out, (3, 3), 0.8)


def _thumb_vector(card_bgr: np.ndarray) -> np.ndarray:
    """A portrait card picture as a thumbnail vector: Lab channels, each zero-mean with unit
    spread (unless nearly flat), the whole of unit length."""
    t = cv2.resize(card_bgr, (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)
    return _thumb_normalise(t)


def _thumb_bgr(t: np.ndarray) -> np.ndarray:
    """A grey or BGRA picture in BGR (as it is when BGR already)."""
    if t.ndim == 2:
        return cv2.cvtColor(t, cv2.COLOR_GRAY2BGR)
    if t.shape[2] == 4:
        return cv2.cvtColor(t, cv2.COLOR_BGRA2BGR)
    return t


def _thumb_normalise(t: np.ndarray) -> np.ndarray:
    t = _thumb_bgr(t)
    lab = cv2.cvtColor(t.astype(np.float32) * np.float32(1 / 255.0), cv2.COLOR_BGR2Lab)
    mean, std = cv2.meanStdDev(lab)
    # Channel by channel: one row of pixels for each channel.
    v = np.ascontiguousarray(lab.reshape(-1, 3).T)
    v -= mean.astype(np.float32)
    v *= (1 / np.maximum(std, THUMB_MIN_STD)).astype(np.float32)
    v = v.ravel()
    return v * np.float32(1 / (math.sqrt(float(v @ v)) + 1e-9))


def _fine_vector(card_bgr: np.ndarray) -> np.ndarray:
    """A portrait card picture of FINE_W x FINE_H as a vector for the closer look, evenly
    lit (``_evened``), but for a band along its sides (FINE_INSET)."""
    evened = _evened(cv2.GaussianBlur(card_bgr, (0, 0), FINE_BLUR))
    dx, dy = round(FINE_INSET * FINE_W), round(FINE_INSET * FINE_H)
    return _thumb_normalise(evened[dy:FINE_H - dy, dx:FINE_W - dx])


def _evened(card_bgr: np.ndarray) -> np.ndarray:
    """A card picture (any depth; grey and BGRA taken as BGR) as if lit evenly, in float32:
    divided by the plane that fits its brightness best (a lamp to one side lights a card
    more on that side; a card's own picture hardly tilts the plane)."""
    if card_bgr.ndim == 2 or card_bgr.shape[2] == 4:
        card_bgr = _thumb_bgr(card_bgr)
    grey = as_grey(card_bgr).astype(np.float32)
    h, w = grey.shape
    solve, design = _plane_fit(h, w)
    plane = (design @ (solve @ grey.ravel())).reshape(h, w)
    gain = plane * np.float32(1 / max(1e-3, float(plane.mean())))
    return card_bgr.astype(np.float32) / np.maximum(gain, np.float32(0.2))[..., None]


@functools.lru_cache(maxsize=4)
def _plane_fit(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """For pictures of h x w: the least-squares solver of a plane over the pixels, and the
    plane's design matrix (1, x, y per pixel)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    design = np.stack([np.ones(h * w, np.float32), xx.ravel() / w - 0.5, yy.ravel() / h - 0.5],
                      axis=1)
    solve = np.linalg.pinv(design).astype(np.float32)
    for a in (solve, design):
        a.setflags(write=False)  # shared by every call through the cache
    return solve, design


def _fine_grey(card_bgr: np.ndarray) -> np.ndarray:
    """A card picture of FINE_W x FINE_H in grey at half that size, to align another onto
    (half the size: a quarter of the work, and still to a fraction of a pixel)."""
    half = cv2.resize(as_grey(card_bgr), (FINE_W // 2, FINE_H // 2), interpolation=cv2.INTER_AREA)
    return half.astype(np.float32)


def _align(card_bgr: np.ndarray, onto: np.ndarray) -> np.ndarray:
    """``card_bgr`` (FINE_W x FINE_H) moved, turned and stretched a little to lie best on
    ``onto`` (``_fine_grey``); as it is when that does not settle."""
    warp = _affine_onto(onto, _fine_grey(card_bgr))
    if warp is None:
        return card_bgr
    if (np.abs(warp[:, 2]).max() > ALIGN_MAX_SHIFT * FINE_W / 2
            or np.abs(warp[:, :2] - np.eye(2)).max() > ALIGN_MAX_STRETCH):
        return card_bgr  # more than a corner found a little off: no card of the candidates'
    warp[:, 2] *= 2  # from half size to full
    return cv2.warpAffine(card_bgr, warp, (FINE_W, FINE_H),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def _affine_onto(template: np.ndarray, picture: np.ndarray, *, least: float = -1.0
                 ) -> np.ndarray | None:
    """The affine warp (2 x 3) that lays ``picture`` best onto ``template`` (both float32 grey,
    the same size: ``template``'s pixel x is ``picture``'s at warp @ (x, 1)); None when it
    does not settle, or when the two so laid correlate under ``least``."""
    try:
        corr, warp = cv2.findTransformECC(template, picture, np.eye(2, 3, dtype=np.float32),
                                          cv2.MOTION_AFFINE, ALIGN_UNTIL, None, 3)
    except cv2.error:
        return None
    return warp if corr >= least else None


def _look_alikes(fine: np.ndarray, owner: np.ndarray) -> frozenset[int]:
    """The cards (label indices) with a reference within ALIKE_REF_CORR of another card's at
    the closer look (``fine``: unit vectors, one row per reference of ``owner``)."""
    close = (fine @ fine.T >= ALIKE_REF_CORR) & (owner[:, None] != owner[None, :])
    return frozenset(int(owner[i]) for i in np.flatnonzero(close.any(axis=1)))


def _differ_weight(vecs: np.ndarray, owners: np.ndarray, n_labels: int) -> np.ndarray | None:
    """A weight per vector element: how much the cards differ there (the spread of their
    mean vectors), 1 on average. What they all share (a common frame design) then says
    little, and an unknown card that shares it does not look like any of them. None when
    they do not differ at all."""
    means = np.vstack([vecs[owners == li].mean(axis=0) for li in range(n_labels)])
    spread = means.std(axis=0)
    if not spread.mean() > 0:
        return None
    return (spread / spread.mean()).astype(np.float32)


def _both_ways(v: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """A card's vector (``_thumb_normalise``) and the card's turned half a turn, which
    reverses its pixels in each channel: 2 rows, each weighed by ``weight`` and scaled to
    unit length."""
    both = np.empty((2, v.size), np.float32)
    both[0] = v
    both[1].reshape(3, -1)[:] = v.reshape(3, -1)[:, ::-1]
    both *= weight
    return _unit(both)


def _unit(vecs: np.ndarray) -> np.ndarray:
    """Each row (or the vector) scaled to unit length."""
    # The sum of squares as ``np.linalg.norm`` takes it, without its checks of what it is given.
    return vecs / (np.sqrt(np.add.reduce(vecs * vecs, axis=-1, keepdims=True)) + 1e-9)


def portrait(image: np.ndarray) -> np.ndarray:
    """The picture turned a quarter turn if it is wider than tall."""
    h, w = image.shape[:2]
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if w > h else image


def reference_files(path: str | Path) -> dict[str, list[Path]]:
    """The reference picture files of a folder by label, without reading them (see
    ``read_references``); empty when it holds no picture. EnrolmentError when the folder is
    missing. Labels that differ in case alone are one card; a picture that is a copy of
    another card's (the same bytes) is left out, with a warning."""
    root = Path(path)
    if root.exists() and not root.is_dir():
        raise EnrolmentError(f"reference folder {str(root)!r} is a file, not a folder")
    if not root.is_dir():
        raise EnrolmentError(f"reference folder {str(root)!r} does not exist")
    listed: list[tuple[str, Path]] = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(("_", ".")):
            continue
        if entry.is_dir() and entry.resolve() in (root.resolve(), *root.resolve().parents):
            continue  # a link back to the folder (or above): its pictures are no one card's
        if entry.is_dir():
            inside = [p for p in sorted(entry.iterdir()) if not p.name.startswith(".")]
            files = [p for p in inside if p.suffix.lower() in IMAGE_SUFFIXES and not p.is_dir()]
            _unread(root, (p for p in inside if p.suffix.lower() in UNREAD_SUFFIXES))
            label = entry.name
            for folder in (p for p in inside if p.is_dir()):
                log.warning("reference folder %s is left out: a card's pictures lie in its "
                            "own folder, not in a folder within it",
                            shown_name(folder.relative_to(root)))
            if not files:
                log.warning("reference folder %s holds no pictures (%s): card %s is not "
                            "enrolled", shown_name(entry.name), ", ".join(IMAGE_SUFFIXES),
                            shown_name(label))
            if _named_like_cards(label, files):
                log.warning("reference folder %s holds pictures named like different cards "
                            "(%s): all are read as pictures of one card, %s. If each is a "
                            "card of its own, give the folder %s itself as the references",
                            shown_name(label), ", ".join(shown_name(f.stem) for f in files[:4])
                            + (", ..." if len(files) > 4 else ""), shown_name(label),
                            shown_name(entry))
        elif entry.suffix.lower() in IMAGE_SUFFIXES:
            files, label = [entry], entry.stem
        else:
            _unread(root, [entry] if entry.suffix.lower() in UNREAD_SUFFIXES else [])
            continue
        listed.extend((label, f) for f in files)
    # Ghost.jpg beside ghost.png (a folder copied from a system that ignores case) is the
    # same card, not another one: named in lower case if it is so spelled once.
    spelled: dict[str, str] = {}
    for label, _ in sorted(listed, key=lambda lf: (lf[0] != lf[0].lower(), lf[0])):
        spelled.setdefault(label.casefold(), label)
    listed = [(spelled[label.casefold()], f) for label, f in listed]
    # "ghost - Copy.png", "cook (1).png": a copy of a picture under its card's name and more
    # would make a second card of it, and the two would keep each other from being named: it
    # is left out. The same picture under two names of their own (ghost.png copied over
    # cook.png) is a mistake no name can settle: both stay, and it is said (same_pictures).
    owner: dict[bytes, str] = {}
    digests = {f: _digest(f) for _, f in listed}
    for label, f in sorted(listed, key=lambda lf: (len(lf[0]), lf[0])):
        if digests[f] is not None:
            owner.setdefault(digests[f], label)
    found: dict[str, list[Path]] = {}
    for label, f in listed:
        first = owner.get(digests[f], label)
        if first != label and label.casefold().startswith(first.casefold()):
            log.warning("reference picture %s is left out: it is a copy of card %s's picture",
                        shown_name(f.relative_to(root)), shown_name(first))
            continue
        if first != label:
            log.warning("reference picture %s is the same picture as card %s's: neither card "
                        "can be told from the other", shown_name(f.relative_to(root)),
                        shown_name(first))
        found.setdefault(label, []).append(f)
    return found


# Words that name a photo, not a card: a folder of one card's photos may use them.
PHOTO_WORDS = ("front", "back", "side", "top", "left", "right", "img", "dsc", "pxl", "photo",
               "pic", "image", "scan", "shot", "card", "copy", "new", "old", "light", "dark")


def _named_like_cards(label: str, files: Sequence[Path]) -> bool:
    """Do a card folder's pictures look like several cards' (``--refs`` given the folder
    above a deck: ``assets`` for ``assets/cards``)? Three pictures at least, whose names
    (their letters only) begin alike in no pair, none with the folder's name or a word that
    names a photo (``PHOTO_WORDS``). Photos of one card share a beginning (ghost-1, ghost-2;
    IMG_0001, IMG_0002) or say what they show (front, back)."""
    words = [re.sub(r"[^a-z]", "", f.stem.casefold()) for f in files]
    own = re.sub(r"[^a-z]", "", label.casefold())
    if (len(words) < 3 or not all(words) or any(own and w.startswith(own) for w in words)
            or any(w.startswith(PHOTO_WORDS) for w in words)):
        return False
    return all(a[:3] != b[:3] for i, a in enumerate(words) for b in words[i + 1:])


def same_pictures(files: dict[str, list[Path]]
                  ) -> list[tuple[tuple[str, Path], tuple[str, Path]]]:
    """Pairs of files of two cards (``reference_files``) that hold the same picture, byte
    for byte, each with its card's label: ghost.png copied over cook.png. Files that cannot
    be read are left to reading to say."""
    seen: dict[bytes, tuple[str, Path]] = {}
    pairs = []
    for label, paths in files.items():
        for f in paths:
            digest = _digest(f)
            if digest is None:
                continue
            other = seen.setdefault(digest, (label, f))
            if other[0] != label:
                pairs.append((other, (label, f)))
    return pairs


def _unread(root: Path, paths) -> None:
    """Warn of pictures left out of references for their kind (a phone's HEIC photo)."""
    for p in paths:
        log.warning("reference picture %s is left out: the companion cannot read %s pictures; "
                    "save it as PNG or JPEG", shown_name(p.relative_to(root)), p.suffix[1:].upper())


def _digest(path: Path) -> bytes | None:
    """A digest of the file's bytes (None when it cannot be read: said when it is read).
    Kept while the file is unchanged: the table's start asks for each file twice
    (``reference_files``, then ``same_pictures``), and enrolment's end again."""
    try:
        st = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None  # a pipe would be waited on for ever: reading it says what it is
    return _digest_of(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=1024)
def _digest_of(path: Path, mtime_ns: int, size: int) -> bytes | None:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=16).digest()
    except OSError:
        return None


def enough_cards(labels: Sequence[str]) -> None:
    """EnrolmentError when fewer than two cards are enrolled: a card is told from the others
    by what differs between them, and with one card alone every card like it (a card of the
    same deck shares its frame design) would be named as it."""
    if len(labels) < 2:
        raise EnrolmentError(
            f"only one card is enrolled ({', '.join(map(repr, labels))}): with no other card "
            "to tell it from, every card like it would be named as it. Enrol every card of "
            "the deck (two at least)")


def read_references(path: str | Path) -> dict[str, list[np.ndarray]]:
    """The reference pictures of a folder by label: ``DIR/<label>/*.png|jpg`` (several
    pictures of a card) and ``DIR/<label>.png|jpg`` (one); names starting with ``_`` or ``.``
    are skipped. EnrolmentError when the folder is missing, holds no picture, or a picture
    cannot be read (the message names it)."""
    return read_reference_files(_some_reference_files(path))


def _some_reference_files(path: str | Path) -> dict[str, list[Path]]:
    """``reference_files``, or EnrolmentError when the folder holds none."""
    files = reference_files(path)
    if not files:
        raise EnrolmentError(f"no reference pictures ({', '.join(IMAGE_SUFFIXES)}) in "
                             f"{str(Path(path))!r}")
    return files


def read_reference_files(files: dict[str, list[Path]]) -> dict[str, list[np.ndarray]]:
    """The pictures of the files ``reference_files`` lists, by label. EnrolmentError for the
    first that cannot be read (its ``path`` and ``label`` set)."""
    from vision.images import PictureTooLarge, read_image

    refs: dict[str, list[np.ndarray]] = {}
    for label, paths in files.items():
        for f in paths:
            try:
                img = read_image(f)
            except PictureTooLarge as exc:
                raise EnrolmentError(f"cannot read reference picture {str(f)!r}: {exc}",
                                     path=f, label=label) from None
            except OSError as exc:
                raise EnrolmentError(f"cannot read reference picture {str(f)!r}: "
                                     f"{exc.strerror or exc}", path=f, label=label) from None
            if img is None:
                raise EnrolmentError(f"cannot read reference picture {str(f)!r}", path=f,
                                     label=label)
            refs.setdefault(label, []).append(img)
    return refs


def _placed_card(picture: np.ndarray) -> tuple[np.ndarray | None, bool]:
    """The corners of the one card a picture shows on a background (a photo of a card lying
    on a table), or None when the picture is not that (``_card_in``). When the grey
    picture's edges show no card that large, each colour's edges are looked at too (a black
    card on a purple cloth shows in colour alone); not before, as a patterned cloth's
    colours outline squares and stripes that a card's edge can join. Also whether it was
    found so, by colour (on a scan, colour can outline a picture's frame or a symbol:
    ``cards_cut_out`` keeps such a card only when it is of the others' size)."""
    from vision.detect import find_outlines

    found = find_outlines(picture, one_card=True)
    if not _by_colour(found, picture):
        return _card_in(found, picture), False
    card = _card_in(find_outlines(picture, one_card=True, colour=True), picture)
    return card, card is not None


def _by_colour(found, picture: np.ndarray) -> bool:
    """Whether a colour picture is to be looked at by colour too: the grey picture's edges
    (``found``) show no card of ``PHOTO_CARD_SHARE`` of it."""
    h, w = picture.shape[:2]
    return picture.ndim == 3 and not any(cv2.contourArea(q) >= PHOTO_CARD_SHARE * h * w
                                         for q in found.cards)


def _card_in(found, picture: np.ndarray) -> np.ndarray | None:
    """Of the cards found on the picture (``found``: ``find_outlines``), the one it shows
    alone: it takes at least ``PHOTO_CARD_SHARE`` of the picture, no other card found comes
    near its size, and no outline lies around it that it could be the picture panel of
    (``PANEL_SHARE``: a card's own border; the mat it lies on is far larger). None when the
    picture is not that (a scan, a picture cropped to the card)."""
    h, w = picture.shape[:2]
    cards = sorted(found.cards, key=lambda q: -cv2.contourArea(q))
    if not cards or cv2.contourArea(cards[0]) < PHOTO_CARD_SHARE * h * w:
        return None
    card = cards[0]
    if len(cards) > 1 and cv2.contourArea(cards[1]) > PHOTO_OTHER_SHARE * cv2.contourArea(card):
        return None
    mx, my = card.mean(axis=0).tolist()
    most = cv2.contourArea(card) / PANEL_SHARE[0]  # an outline around a panel at most this large
    if any(point_inside(q, (mx, my)) and cv2.contourArea(q) <= most for q in found.close_ups):
        return None
    return card


def _sides(q: np.ndarray) -> tuple[float, float]:
    """A quad's shorter and longer side (the mean of each pair of opposite sides)."""
    from vision.detect import _side_pairs

    a, b = sorted(_side_pairs(q))
    return a / 2, b / 2


def _middle_size(cards: list[np.ndarray]) -> tuple[float, float]:
    """The middle (median) shorter and longer side of ``cards``."""
    short, long_ = (float(np.median(v)) for v in zip(*map(_sides, cards), strict=True))
    return short, long_


def _of_their_size(card: np.ndarray, middle: tuple[float, float]) -> bool:
    """Is a card found by colour alone of the size of the cards found in grey (each side
    within COLOUR_CUT_SIZE of their ``middle`` size)? Photos taken alike show the cards
    alike, while a frame or a symbol that colour outlines on a scan is seldom of that size."""
    (s, ln), (short, long_) = _sides(card), middle
    return abs(s / short - 1) <= COLOUR_CUT_SIZE and abs(ln / long_ - 1) <= COLOUR_CUT_SIZE


def _far_smaller(card: np.ndarray | None, middle: tuple[float, float]) -> bool:
    """Are both sides of ``card`` (None: no card) under 1 - COLOUR_CUT_SIZE of the
    ``middle`` size of the cards found in grey?"""
    if card is None:
        return False
    (s, ln), (short, long_) = _sides(card), middle
    return s < (1 - COLOUR_CUT_SIZE) * short and ln < (1 - COLOUR_CUT_SIZE) * long_


def _around(card: np.ndarray, inner: np.ndarray) -> bool:
    """Does ``card`` hold ``inner`` as a card holds its picture panel (its middle inside,
    a share of its area within PANEL_SHARE)?"""
    share = cv2.contourArea(inner) / max(1.0, cv2.contourArea(card))
    return (PANEL_SHARE[0] <= share <= PANEL_SHARE[1]
            and point_inside(card, tuple(map(float, inner.mean(axis=0)))))


def cards_cut_out(references: dict[str, Sequence[np.ndarray]]
                  ) -> tuple[dict[str, list[np.ndarray]], list[str]]:
    """``references`` with each photo of a card lying on a background (``_placed_card``)
    cut down to the card, when at least half of all the pictures are such photos: a deck's
    scans, whose picture panels can look like cards, stay whole. Also the labels of the
    pictures left whole among such photos (no card found on them: likely photos too)."""
    from vision.detect import find_outlines

    grey = {label: [find_outlines(p, one_card=True) for p in pics]
            for label, pics in references.items()}
    places = {label: [_card_in(f, p) for f, p in zip(grey[label], pics, strict=True)]
              for label, pics in references.items()}
    in_grey = [q for qs in places.values() for q in qs if q is not None]
    if len(in_grey) >= COLOUR_CUT_PEERS:
        # Only then can a card found by colour alone be kept (``_of_their_size``), so only
        # then are the pictures grey shows no card on looked at by colour too, and those it
        # shows a card far smaller than the others on: a dark card's picture panel, its own
        # border lost on a dark cloth, where colour may show the card around it.
        middle = _middle_size(in_grey)
        for label, qs in places.items():
            for k, pic in enumerate(references[label]):
                found = qs[k]
                if _by_colour(grey[label][k], pic) or _far_smaller(found, middle):
                    card = _card_in(find_outlines(pic, one_card=True, colour=True), pic)
                    if (card is not None and _of_their_size(card, middle)
                            and (found is None or _around(card, found))):
                        qs[k] = card
    n = sum(len(v) for v in places.values())
    if sum(q is not None for v in places.values() for q in v) * 2 < n:
        return {label: list(pics) for label, pics in references.items()}, []
    where = [(label, k) for label, qs in places.items()
             for k, q in enumerate(qs) if q is not None]
    agreed = _agreeing_outlines([(references[label][k], places[label][k])
                                 for label, k in where])
    out = {label: list(pics) for label, pics in references.items()}
    for (label, k), q in zip(where, agreed, strict=True):
        a, b, c = q[0], q[1], q[2]
        sides = sorted((float(np.linalg.norm(b - a)), float(np.linalg.norm(c - b))))
        out[label][k] = warp_quad(out[label][k], q, (round(sides[0]), round(sides[1])),
                                  interpolation=cv2.INTER_AREA)
    left_whole = [label for label, qs in places.items() if any(q is None for q in qs)]
    return out, left_whole


def _same_way_up(pics: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """Portrait pictures (label index, picture), each turned half a turn when that makes it
    clearly more like the middle (median) of them all: the design cards share the same way up.
    The first look weighs where the references differ; a reference upside down among the
    others (a photo, a scan) would make its shared design look like a difference."""
    if len(pics) < 3:
        return pics
    thumbs = np.stack([cv2.resize(as_grey(pic), (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)
                       for _, pic in pics]).astype(np.float32)
    middle = np.median(thumbs, axis=0)
    middle = _unit((middle - middle.mean()).ravel())

    def corr(a: np.ndarray) -> float:
        return float(_unit((a - a.mean()).ravel()) @ middle)

    out = []
    for (li, pic), t in zip(pics, thumbs, strict=True):
        if corr(t[::-1, ::-1]) > corr(t) + UPSIDE_DOWN_MARGIN:
            pic = cv2.rotate(pic, cv2.ROTATE_180)
        out.append((li, pic))
    return out


def _agreeing_outlines(cuts: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """The outlines of cards photographed on a table (picture, corners), each moved to lie
    on its card as the others lie on theirs. Where a card's edge does not show against the
    table, its outline is found along a line of its frame instead, a little inside; cut there,
    its picture would not lie on the others, and the first look would weigh that
    difference (``_differ_weight``) as if it told the cards apart. Each card's picture is
    aligned onto the middle (median) picture of them all (the design the cards share), and
    its outline moved with it, by at most ``CUT_MAX_MOVE`` of the card's size, when it then
    lies closely on it (``CUT_SHARED_CORR``)."""
    if len(cuts) < 3:
        return [q for _, q in cuts]
    smalls = [_fine_grey(warp_quad(pic, q, (FINE_W, FINE_H), interpolation=cv2.INTER_AREA))
              for pic, q in cuts]
    middle = np.median(np.stack(smalls), axis=0).astype(np.float32)
    fh, fw = middle.shape
    corners = picture_corners(fw, fh)
    out = []
    for (_, q), small in zip(cuts, smalls, strict=True):
        warp = _affine_onto(middle, small, least=CUT_SHARED_CORR)
        if warp is None:
            out.append(q)
            continue
        # The middle picture's corners in this card's small picture.
        moved = corners @ warp[:, :2].T + warp[:, 2]
        if np.abs(moved - corners).max() > CUT_MAX_MOVE * fw:
            out.append(q)  # not the same design: leave it as found
            continue
        # From the small picture to the photo, through the card's own outline.
        to_photo = cv2.getPerspectiveTransform(corners, _portrait_corners(q))
        out.append(cv2.perspectiveTransform(moved.reshape(-1, 1, 2), to_photo).reshape(4, 2))
    return out


def _well_inside(quad: np.ndarray, w: int, h: int) -> bool:
    """Does a quad lie in a picture of w x h (give or take a tenth of it round the edges) and
    take a tenth of it at least?"""
    lo = -0.1 * np.float32([w, h])
    hi = 1.1 * np.float32([w, h])
    return bool((quad >= lo).all() and (quad <= hi).all()
                and cv2.contourArea(np.float32(quad)) >= 0.1 * w * h)


class Recognizer:
    """Knows the enrolled cards; names a cropped card or every card in a scene."""

    def __init__(self, references: dict[str, Sequence[np.ndarray]], *,
                 threshold: float = DEFAULT_THRESHOLD, min_inliers: int = MIN_INLIERS,
                 cut_out: bool = True) -> None:
        """``cut_out``: cut photos of a card on a table down to the card (``cards_cut_out``);
        False for references already through it. A ``threshold`` outside (0, 1] is a
        ValueError: at 0 every best guess would be named, above 1 no card ever."""
        if not 0.0 < float(threshold) <= 1.0:  # NaN too
            raise ValueError(f"threshold {threshold!r}: the lowest score at which a card is "
                             f"named must be above 0 and at most 1 ({DEFAULT_THRESHOLD} by "
                             f"default)")
        if not references:
            raise EnrolmentError("no reference pictures: enrol at least one card")
        # Labels with a picture used whole among photos cut down to the card (see
        # ``cards_cut_out``): worth a warning.
        references, self.left_whole = (cards_cut_out(references) if cut_out
                                       else (references, []))
        self.threshold = float(threshold)
        self.min_inliers = int(min_inliers)
        self._sift = cv2.SIFT_create(nfeatures=N_FEATURES)
        self.labels: list[str] = sorted(references)
        descs, owners, points, ref_ids, angles = [], [], [], [], []
        self._ref_label: list[int] = []
        self._ref_size: list[tuple[int, int]] = []
        self._ref_grey: list[np.ndarray] = []
        self._spread: dict[int, float] = {}
        # By label, the last features matched: query and reference points, reference size.
        self._matched: dict[int, tuple[np.ndarray, np.ndarray, tuple[int, int]]] = {}
        for li, label in enumerate(self.labels):
            pics = list(references[label])
            if not pics:
                raise EnrolmentError(f"card {label!r} has no reference picture")
            for k, pic in enumerate(pics):
                if min(pic.shape[:2]) < MIN_REFERENCE_SIDE:
                    h, w = pic.shape[:2]
                    raise EnrolmentError(
                        f"the reference picture of {label!r} is only {w} x {h} pixels: a card "
                        f"needs {MIN_REFERENCE_SIDE} pixels across at least (take its picture "
                        "closer, or scan it)", label=label, index=k)
                kp, d = self._features(pic)
                if d is None or len(kp) < self.min_inliers:
                    raise EnrolmentError(
                        f"the reference picture of {label!r} has too little detail to recognise",
                        label=label, index=k)
                size = self._last_size
                pts = [np.float32([k.pt for k in kp])]
                angs = [np.float32([k.angle for k in kp])]
                ds = [d]
                # The same card as a far camera sees it (fewer pixels, softer edges), in the
                # same coordinates, so that its features vote together with the sharp ones.
                for side in LOW_RES_VIEWS:
                    kp2, d2 = self._features(_low_res(pic, side))
                    if d2 is not None and self._last_size == size:
                        pts.append(np.float32([k.pt for k in kp2]))
                        angs.append(np.float32([k.angle for k in kp2]))
                        ds.append(d2)
                d = np.vstack(ds)
                rid = len(self._ref_label)
                self._ref_size.append(size)
                self._ref_label.append(li)
                self._ref_grey.append(_normalise(pic))
                descs.append(d)
                owners.append(np.full(len(d), li, np.int32))
                ref_ids.append(np.full(len(d), rid, np.int32))
                points.append(np.vstack(pts))
                angles.append(np.concatenate(angs))
        self._desc = np.vstack(descs).astype(np.float32)
        self._owner = np.concatenate(owners)
        self._ref_of = np.concatenate(ref_ids)
        self._pts = np.vstack(points)
        self._ang = np.concatenate(angles)
        # Randomised trees: seed them so the same references always give the same answers.
        cv2.setRNGSeed(12345)
        self._index = cv2.flann_Index(self._desc, {"algorithm": 1, "trees": 4})
        self._enrol_thumbnails(references)
        # Where the deck's cards have a panel: only reading a whole picture asks, so it is
        # worked out then (``panel_layouts``), from each card's first picture at this size.
        self._layout_views = ([_layout_view(pics[0]) for pics in references.values()]
                              if self._thumbs is not None else [])
        self.fast_named = 0  # cards named by the first look (thumbnails) so far

    def _enrol_thumbnails(self, references: dict[str, Sequence[np.ndarray]]) -> None:
        """Thumbnails of every reference for the first look; none when a reference is not
        card-shaped (the first look compares whole cards, corner to corner)."""
        self._thumbs: np.ndarray | None = None
        self._fine: np.ndarray | None = None
        self._look_alikes: frozenset[int] = frozenset()
        pics = [(li, portrait(pic)) for li, label in enumerate(self.labels)
                for pic in references[label]]
        if not all(CARD_SHAPED[0] <= pic.shape[0] / max(1, pic.shape[1]) <= CARD_SHAPED[1]
                   for _, pic in pics):
            return
        pics = _same_way_up(pics)
        vecs, owners = [], []
        for li, pic in pics:
            small = cv2.resize(pic, (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)
            for sigma in THUMB_BLURS:
                t = cv2.GaussianBlur(small, (0, 0), sigma) if sigma else small
                vecs.append(_thumb_normalise(t))
                owners.append(li)
        vecs = np.vstack(vecs)
        owners = np.asarray(owners, np.int32)
        weight = _differ_weight(vecs, owners, len(self.labels))
        if weight is None:
            return  # all cards look the same in a thumbnail: nothing to tell them apart by
        self._thumb_weight = weight
        self._thumbs = _unit(np.asarray(vecs, np.float32) * weight)
        self._thumb_first = np.searchsorted(owners, np.arange(len(self.labels)))
        smalls = [cv2.resize(pic, (FINE_W, FINE_H), interpolation=cv2.INTER_AREA)
                  for _, pic in pics]
        fine = np.vstack([_fine_vector(small) for small in smalls])
        self._fine_greys = [_fine_grey(small) for small in smalls]
        self._fine_owner = np.asarray([li for li, _ in pics], np.int32)
        self._fine_weight = _differ_weight(fine, self._fine_owner, len(self.labels))
        if self._fine_weight is not None:  # else no closer look: the cards differ nowhere
            self._fine = _unit(fine * self._fine_weight)
            self._look_alikes = (_look_alikes(self._fine, self._fine_owner)
                                 | _look_alikes(fine, self._fine_owner))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_dir(cls, path: str | Path, **options) -> Recognizer:
        """References from ``DIR/<label>/*.png|jpg`` and/or ``DIR/<label>.png|jpg``; an
        EnrolmentError about a picture names its file."""
        files = _some_reference_files(path)
        try:
            return cls(read_reference_files(files), **options)
        except EnrolmentError as err:
            raise naming_the_file(err, files) from None

    def _features(self, image: np.ndarray, side: int | None = None, band: float = 0.0):
        """Features of a picture rescaled to a longer side of ``side`` (default WORK_SIDE),
        none within ``band`` (of that side) of its edge; ``self._last_factor`` takes their
        positions to WORK_SIDE, where the references live, and ``self._last_size`` is the
        picture's size there."""
        g = _normalise(image, side)
        factor = (side or WORK_SIDE) and WORK_SIDE / max(g.shape)
        self._last_factor = factor
        self._last_size = (round(g.shape[1] * factor), round(g.shape[0] * factor))
        inside = None
        if band > 0:
            b = max(1, round(band * max(g.shape)))
            inside = np.zeros(g.shape, np.uint8)
            inside[b:-b, b:-b] = 255
        # The mask drops features before their descriptors are worked out, the dearer part.
        kp, d = self._sift.detectAndCompute(g, inside)
        if d is not None and ROOT_SIFT:
            d /= d.sum(axis=1, keepdims=True) + 1e-7
            d = np.sqrt(d)
        return kp, d

    # -- classification -----------------------------------------------------------------------

    def _votes(self, image: np.ndarray, side: int | None = None, *, band: float = 0.0,
               checks: int = CHECKS) -> dict[int, int]:
        """Label index -> geometrically consistent matches with that label's best reference
        (features taken at a longer side of ``side``, default WORK_SIDE, none within
        ``band`` of the edge; their neighbours found among ``checks`` FLANN leaves)."""
        kp, d = self._features(image, side, band)
        self._spread = {}
        self._matched = {}
        if d is None or len(kp) < 3:
            return {}
        pts = np.float32([p.pt for p in kp]) * np.float32(self._last_factor)
        return self._votes_for(pts, np.float32([p.angle for p in kp]), d, self._last_size,
                               checks)

    def _votes_for(self, q_pts, q_ang, d, q_size, checks: int = CHECKS) -> dict[int, int]:
        # Each query feature's nearest reference features (rows, nearest first) and their
        # squared distances.
        k = min(8, len(self._desc))
        idx, dist = self._index.knnSearch(np.asarray(d, np.float32), k,
                                          params={"checks": checks})
        owner = self._owner[idx]
        # Among them, the nearest of another card than the nearest one's (the rival), if any.
        # A feature as near the rival as its nearest (the same picture under two names, a
        # frame printed alike on every card) tells neither: it clashes too.
        other = owner != owner[:, :1]
        rival = other.argmax(axis=1)
        near = np.sqrt(dist).astype(np.float64)
        clash = other.any(axis=1) & (near[:, 0] >= RATIO * near[np.arange(len(idx)), rival])
        pairs = zip(owner[clash, 0].tolist(), owner[clash, rival[clash]].tolist(), strict=True)
        self._clashes: dict[tuple[int, int], int] = dict(collections.Counter(pairs))
        # The distinctive ones vote for the reference of their nearest feature.
        q_i = np.flatnonzero(~clash)
        r_i = idx[q_i, 0]
        refs = self._ref_of[r_i]
        best: dict[int, int] = {}
        # Verify only the references with the most raw votes (on a tie, the first voted for).
        rids, first, votes = np.unique(refs, return_index=True, return_counts=True)
        for j in np.lexsort((first, -votes))[:4]:
            if votes[j] < 4:
                continue
            rid = int(rids[j])
            mine = refs == rid
            src = q_pts[q_i[mine]]
            dst = self._pts[r_i[mine]]
            turn = self._ang[r_i[mine]] - q_ang[q_i[mine]]
            inl = _fit_similarity(src, dst, turn, q_size, self._ref_size[rid])
            n = int(inl.sum())
            li = self._ref_label[rid]
            if n >= 3:
                hull = cv2.convexHull(dst[inl])
                w, h = self._ref_size[rid]
                spread = float(cv2.contourArea(hull)) / (w * h)
            else:
                spread = 0.0
            self._spread[li] = max(self._spread.get(li, 0.0), spread)
            if n > best.get(li, 0):
                self._matched[li] = (src[inl], dst[inl], self._ref_size[rid])
            best[li] = max(best.get(li, 0), n)
        return best

    def classify(self, card_bgr: np.ndarray, *, find_card: bool = True) -> Match:
        """Which card is this cropped picture (any rotation)? Label None when not sure.

        The first look (thumbnails, see ``classify_quad``) takes the whole picture for the
        card; when it is unsure, the feature matcher decides, and its card must agree in
        colour with the picture (``_agreeing``). Where the features place the card well
        inside the picture (turned, or with table round it), the first look is taken again
        there, and decides when it is sure.

        When the picture is not recognised as it is and holds one clearly outlined card with
        some background around it (a loosely cropped photo), that card is cut out and tried
        once more (``find_card=False`` skips this). A card filling most of the picture is not
        looked for: cut out so, cards never enrolled were named as their look-alikes.
        """
        per, fast = self._whole_look(card_bgr)
        if fast.label is not None:
            self.fast_named += 1
            return fast
        h, w = card_bgr.shape[:2]
        match = self._decide(self._votes(card_bgr))
        if match.best is not None and per is not None:
            # The first look where the features place the card: a card turned in the
            # picture, or with table round it, does not fill the picture as a thumbnail.
            k = max(h, w) / WORK_SIDE
            placed = self._placement(self.labels.index(match.best),
                                     lambda p: p * np.float32(k), px=PLACE_PX * k)
            if placed is not None and _well_inside(placed, w, h):
                per, look = self._first_look(card_bgr, placed)
                if look.label == match.best:  # named surely there, by its look: it decides
                    return replace(look, score=max(look.score, self._agreeing(match, per).score))
                if look.label is not None:  # the look names another card there: neither
                    match = Match(None, 0.0)
        match = self._agreeing(match, per)
        if match.label is None and find_card:
            from vision.detect import find_cards

            quads = [q for q in find_cards(card_bgr)
                     if cv2.contourArea(q) >= LOOSE_CARD_SHARE * h * w]
            if len(quads) == 1:
                again = self.classify(warp_quad(card_bgr, quads[0]), find_card=False)
                if again.label is not None:
                    return again
        return match

    def _decide(self, votes: dict[int, int]) -> Match:
        if not votes:
            return Match(None, 0.0)
        ranked = sorted(votes.items(), key=lambda kv: -kv[1])
        li, n = ranked[0]
        # A rival whose inliers huddle in one spot (a shared symbol) is only a partial rival:
        # it counts fully once its inliers cover as much as a whole card match at least does.
        runner = max((m * min(1.0, self._spread.get(lj, 0.0) / (2 * MIN_SPREAD))
                      for lj, m in ranked[1:]), default=0.0)
        score = self._score(n, runner, self._spread.get(li, 0.0))
        label = self.labels[li]
        return Match(label if score >= self.threshold else None, score, label)

    def _score(self, inliers: int, runner_up: float, spread: float) -> float:
        """The weakest of three pieces of evidence, each 0.5 at its bare minimum."""
        if inliers <= 0:
            return 0.0
        enough = inliers / (2.0 * self.min_inliers)
        spread_out = spread / (2.0 * MIN_SPREAD)
        clear_win = 1.0 - runner_up / inliers
        return round(float(min(1.0, enough, spread_out, clear_win)), 4)

    def classify_quad(self, image: np.ndarray, corners: np.ndarray, *,
                      look: tuple[np.ndarray | None, Match] | None = None,
                      piece: bool = False) -> Match:
        """Classify the card inside a known quad of a scene, without detecting again: the
        first look (thumbnails) when it is sure (barely sure: when the features lean to the
        same card, ``check_guess``), or the closer look when the first found it like a few
        others, the feature matcher otherwise. A card the features name is also
        placed in the picture (``Match.placed``) by the turn and scale they fit.

        ``look``: the first look taken already (``first_look``). An outline that can only be a
        ``piece`` of a card (far smaller than a card named) is named by its looks alone: the
        features are not asked to name it."""
        c = np.asarray(corners, np.float32).reshape(4, 2)
        per, fast = look or self._first_look(image, c)
        checked, asked = self._checked(image, c, fast)
        if checked.label is not None:
            self.fast_named += 1
            return fast
        if piece and asked is None:
            return checked
        votes, side, size = asked or self._feature_votes(image, c)
        match = self._agreeing(self._decide(votes), per)
        if match.label is None:
            return match
        # The matches' positions back in the picture (they are at WORK_SIDE in the crop), and
        # the reference's outline through the turn and scale they fit there: in the crop a
        # card is squashed as its outline is (a pile's outline is no card's shape).
        from_crop = cv2.getPerspectiveTransform(picture_corners(*size), _portrait_corners(c))
        placed = self._placement(
            self.labels.index(match.label),
            lambda p: cv2.perspectiveTransform((p * np.float32(side / WORK_SIDE)).reshape(-1, 1, 2),
                                               from_crop).reshape(-1, 2))
        return match if placed is None else replace(match, placed=placed)

    def _feature_votes(self, image: np.ndarray, c: np.ndarray
                       ) -> tuple[dict[int, int], int, tuple[int, int]]:
        """The features' votes (``_votes``) for the card inside ``c``, and the longer side and
        size of the crop they were taken from: at about the card's own size in the picture
        (more pixels than the camera gave add no detail, only time)."""
        long_side = max(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1]))
        side = int(np.clip(round(FEATURE_OVERSIZE * long_side), FEATURE_MIN_SIDE, WORK_SIDE))
        size = (round(side * CROP_W / CROP_H), side)
        votes = self._votes(warp_quad(image, c, size), side, band=FEATURE_BAND,
                            checks=FEATURE_CHECKS)
        return votes, side, size

    def _placement(self, li: int, to_picture, *, px: float = PLACE_PX) -> np.ndarray | None:
        """Where the features last matched with label ``li``'s reference place its outline in
        the picture, by the turn and scale they fit there (``to_picture`` takes their
        positions, at WORK_SIDE, into the picture; ``px``: how far from the fit, in the
        picture's pixels, a match may lie and count); None without three matches or a fit."""
        matched = self._matched.get(li)
        if matched is None or len(matched[0]) < 3:
            return None
        fit = cv2.estimateAffinePartial2D(matched[1], np.float32(to_picture(matched[0])),
                                          ransacReprojThreshold=px)[0]
        if fit is None:
            return None
        (rw, rh) = matched[2]
        ref = np.float32([[0, 0], [rw, 0], [rw, rh], [0, rh]])
        return (ref @ fit[:, :2].T + fit[:, 2]).astype(np.float32)

    def _agreeing(self, match: Match, per: np.ndarray | None) -> Match:
        """The feature matcher's ``match``, unless its card disagrees in colour with the
        thumbnail's correlations by label (``per``; None: no thumbnails to ask), or has
        look-alikes in the deck (ALIKE_REF_CORR) and the features are not sure enough
        (ALIKE_MIN_SCORE) to tell it from them."""
        if match.best is None or per is None:
            return match
        # Each piece of evidence counts, the weakest deciding, 0.5 at its bare minimum as for
        # the others: the colours must agree with the features, and among look-alikes the
        # features must be sure.
        li = self.labels.index(match.best)
        score = min(match.score, max(0.0, 0.5 * per[li] / COLOUR_MIN_CORR))
        if li in self._look_alikes:
            sure = 0.5 + (match.score - ALIKE_MIN_SCORE) / (2 - 2 * ALIKE_MIN_SCORE)
            score = max(0.0, min(score, sure))
        score = round(float(score), 4)
        return Match(match.best if score >= self.threshold else None, score, match.best)

    def first_look(self, image: np.ndarray, corners: np.ndarray
                   ) -> tuple[np.ndarray | None, Match]:
        """The first look at the card inside ``corners``, to give ``classify_quad``: its
        thumbnail's correlations by label (None without thumbnails) and its match
        (``glance_quad``)."""
        return self._first_look(image, np.asarray(corners, np.float32).reshape(4, 2))

    def glance_quad(self, image: np.ndarray, corners: np.ndarray) -> Match:
        """The first look alone (with its closer look at cards alike): the card inside
        ``corners`` by its thumbnail. Label None when the thumbnail is not clearly one card's
        (then the features must decide)."""
        return self._first_look(image, np.asarray(corners, np.float32).reshape(4, 2))[1]

    def guess_quad(self, image: np.ndarray, corners: np.ndarray, *,
                   lean_needed: bool = False) -> Match:
        """``glance_quad`` at an outline guessed (see GUESS_SURE), checked by ``check_guess``
        (``lean_needed``: as there)."""
        c = np.asarray(corners, np.float32).reshape(4, 2)
        return self.check_guess(image, c, self._first_look(image, c)[1], lean_needed=lean_needed)

    def check_guess(self, image: np.ndarray, corners: np.ndarray, m: Match, *,
                    sure_too: bool = False, lean_needed: bool = False) -> Match:
        """The first look's match ``m`` for the card inside ``corners`` (see GUESS_SURE):
        unknown when its score is under GUESS_SURE and the features do not lean to the same
        card. They lean to the card with the most matches that fit one turn and scale, sure
        or not, or, none fitting, the most matches distinctive of one card (4 at least); with
        fewer, to none. A card with look-alikes in the deck, which the features cannot tell
        from them, is unknown when barely sure. ``sure_too``: a match at GUESS_SURE or more
        is checked too, unknown when the features lean to another card, look-alikes or not:
        an outline that can only be a piece of a card, whose look says little however sure.
        ``lean_needed``: the features must lean to the same card however sure the look (the
        most doubtful guesses), but for a card with look-alikes, which they cannot tell
        apart: its closer look vouched for it."""
        return self._checked(image, np.asarray(corners, np.float32).reshape(4, 2), m,
                             sure_too=sure_too, lean_needed=lean_needed)[0]

    def _checked(self, image: np.ndarray, c: np.ndarray, m: Match, *, sure_too: bool = False,
                 lean_needed: bool = False) -> tuple[Match, tuple | None]:
        """``check_guess``, and the features' votes, side and size (``_feature_votes``)
        when it asked them."""
        if m.label is not None and m.label not in self.labels:
            raise ValueError(f"{m.label!r} is no card enrolled here: the match to check must "
                             f"name one of {', '.join(self.labels)}")
        sure = m.score >= GUESS_SURE
        if m.label is None or (sure and not sure_too and not lean_needed):
            return m, None
        alike = self.labels.index(m.label) in self._look_alikes
        if alike and not sure:
            # The features cannot tell it from its look-alikes: nothing else to go by.
            return self._unsure(m, alike=m.alike), None
        if alike and lean_needed:
            return m, None  # nor can they vouch for it: its closer look did
        asked = self._feature_votes(image, c)
        lean = self._decide(asked[0]).best
        if lean == m.label or (sure and not lean_needed and lean is None):
            return m, asked
        return self._unsure(m), asked

    def _whole_look(self, card_bgr: np.ndarray) -> tuple[np.ndarray | None, Match]:
        """``_first_look`` at a picture that is one card, turned portrait, from a copy at the
        closer look's size (a large photo's pixels would only alias)."""
        if self._thumbs is None:
            return None, Match(None, 0.0)
        card = portrait(card_bgr)
        shrink = card.shape[1] >= 2 * FINE_W or card.shape[0] >= 2 * FINE_H
        small = cv2.resize(card, (2 * FINE_W, 2 * FINE_H),
                           interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
        return self._first_look(small, picture_corners(2 * FINE_W, 2 * FINE_H))

    def _first_look(self, image: np.ndarray, c: np.ndarray) -> tuple[np.ndarray | None, Match]:
        """The thumbnail's correlations by label (None without thumbnails) and what the first
        look, with its closer look at cards alike, makes of the card inside ``c``."""
        if self._thumbs is None:
            return None, Match(None, 0.0)
        per = self._thumb_corr(self._quad_thumb(image, c))
        if len(self.labels) < FAST_MIN_LABELS:
            return per, Match(None, 0.0)
        m = self._glance(per)
        if m.label is None and per.max() >= FAST_MIN_CORR:
            m = self._closer_look(image, c, per)  # alike cards: which of them?
        elif m.label is not None and self._look_alikes:
            m = self._like_its_own(image, c, m)
        return per, m

    def _like_its_own(self, image: np.ndarray, c: np.ndarray, m: Match) -> Match:
        """The first look's match ``m`` for the card inside ``c``, in a deck with cards alike
        (``_look_alikes``), unless the card is less like its references at the closer look's
        size than the closer look asks (FINE_MIN_CORR): then unknown, one of cards alike
        (``Match.alike``) when its look is sure and it is as like them as ALIKE_CARD_CORR.
        A card never enrolled whose look-alike is enrolled (the ace of spades, the ace of
        clubs enrolled without it) has the look-alike's thumbnail, and nothing else of the
        deck's near it."""
        rows = np.flatnonzero(self._fine_owner == self.labels.index(m.label))
        refs = self._fine[rows]
        corr = float((refs @ self._fine_card(image, c, rows, refs)).max())
        if corr >= FINE_MIN_CORR:
            return m
        # A card for sure, which one unsure (see ALIKE_CARD_CORR: on its own outline, not a
        # part of one), when its look is sure of it: one barely sure may be at a part of a
        # card, which on an outline guessed is then no card. Its look-alike may be a card
        # never enrolled, so the card need not have look-alikes enrolled (a face card).
        sure = m.score >= GUESS_SURE and corr >= ALIKE_CARD_CORR
        return self._unsure(m, alike=sure)

    def _unsure(self, m: Match, *, alike: bool = False) -> Match:
        """``m`` made unknown, its score under the threshold as every unknown card's is."""
        return Match(None, min(m.score, round(self.threshold - 0.01, 4)), m.best, alike=alike)

    def _fine_card(self, image: np.ndarray, c: np.ndarray, rows: np.ndarray,
                   refs: np.ndarray) -> np.ndarray:
        """The card inside ``c`` as the closer look sees it (weighed unit vector), turned the
        way up that lies best on the references ``rows`` (``refs``: their vectors) and aligned
        on the best of them."""
        card = cv2.resize(warp_quad(image, c, (2 * FINE_W, 2 * FINE_H)), (FINE_W, FINE_H),
                          interpolation=cv2.INTER_AREA)
        both = _both_ways(_fine_vector(card), self._fine_weight)
        sims = both @ refs.T  # 2 ways up x references
        way, k = np.unravel_index(int(np.argmax(sims)), sims.shape)
        if way:
            card = cv2.rotate(card, cv2.ROTATE_180)
        return _unit(_fine_vector(_align(card, self._fine_greys[rows[k]])) * self._fine_weight)

    def _closer_look(self, image: np.ndarray, c: np.ndarray, per: np.ndarray) -> Match:
        """Which of the cards the first look found alike (``per``: its correlations by
        label) is the card inside ``c``? See FINE_W and after. Label None when unsure."""
        best = float(per.max())
        near = [int(li) for li in np.argsort(-per)[:FINE_MAX]
                if per[li] >= best - FAST_MIN_MARGIN]
        if len(near) < 2 or self._fine is None:
            return Match(None, 0.0)  # nothing alike to tell it from, or no closer look
        rows = np.flatnonzero(np.isin(self._fine_owner, near))
        refs, owners = self._fine[rows], self._fine_owner[rows]  # copied out once
        q = self._fine_card(image, c, rows, refs)
        sims = refs @ q
        k = int(np.argmax(sims))
        top, corr = refs[k], float(sims[k])
        li = int(owners[k])
        side = 1.0
        for other in near:
            if other == li:
                continue
            mine = refs[owners == other]
            ref = mine[int(np.argmax(mine @ q))]
            d = top - ref
            side = min(side, float((q - ref) @ d / (d @ d + 1e-9)))
        # Each piece of evidence is 0.5 at its bare minimum, as for the others.
        score = round(max(0.0, min(1.0, 0.5 + (corr - FINE_MIN_CORR) / (2 - 2 * FINE_MIN_CORR),
                                   0.5 + (side - FINE_MIN_SIDE) / (2 - 2 * FINE_MIN_SIDE))), 4)
        label = self.labels[li]
        alike = corr >= ALIKE_CARD_CORR and all(other in self._look_alikes for other in near)
        return Match(label if score >= self.threshold else None, score, label, alike=alike)

    @staticmethod
    def _quad_thumb(image: np.ndarray, c: np.ndarray) -> np.ndarray:
        """The card inside ``c`` warped at about its own size (at most four times the
        thumbnail), ready to shrink to a thumbnail."""
        short = min(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1]))
        k = min(4, max(1, round(short / THUMB_W)))  # a whole number: no array to clip
        return warp_quad(image, c, (k * THUMB_W, k * THUMB_H))

    def _thumb_corr(self, card_bgr: np.ndarray) -> np.ndarray:
        """Per label, the best correlation of the card's thumbnail with its references'."""
        both = _both_ways(_thumb_vector(card_bgr), self._thumb_weight)
        # References by rows first: two rows times the references' transpose takes BLAS's
        # slow path (five times slower with 100 cards).
        sims = (self._thumbs @ both.T).max(axis=1)
        return np.maximum.reduceat(sims, self._thumb_first)  # the references come by label

    def _glance(self, per: np.ndarray) -> Match:
        """The first look's answer from the per-label correlations (``_thumb_corr``)."""
        vals = per.tolist()
        first = vals.index(max(vals))  # the first label of the best correlation
        best = vals[first]
        runner = max(vals[:first] + vals[first + 1:], default=-1.0)
        # Each piece of evidence is 0.5 at its bare minimum, as for the features.
        score = round(min(1.0, 0.5 * best / FAST_MIN_CORR,
                          0.5 * (best - runner) / FAST_MIN_MARGIN), 4)
        label = self.labels[first]
        sure = best >= FAST_MIN_CORR and best - runner >= FAST_MIN_MARGIN
        return Match(label if sure and score >= self.threshold else None, max(0.0, score), label)

    def read(self, image: np.ndarray) -> list[Reading]:
        """Every card on the scene: where it is and which card it is (label None if unsure).
        See ``vision.scene.read_scene``."""
        from vision.scene import read_scene

        return read_scene(self, image)

    @functools.cached_property
    def panel_layouts(self) -> list[np.ndarray]:
        """Where the deck's cards have a panel (see PANEL_SHARE), in the card's own
        coordinates (``_panel_layouts``); empty for a deck without, or without thumbnails."""
        layouts = _panel_layouts(self._layout_views) if self._layout_views else []
        self._layout_views = []  # no longer needed
        return layouts


    # -- enrolment checks ---------------------------------------------------------------------

    def confusable_pairs(self, threshold: float = 0.5) -> list[tuple[str, str, float]]:
        """Pairs of cards too alike to tell apart safely: ``[(label, other, closeness)]``.

        Each reference picture is blurred and shrunk to what a camera sees of a card, then
        recognised among all references. ``closeness`` (0..1) is the larger of the best other
        card's inliers over the right card's and one minus the right card's score (1: not
        recognised as itself at all). A pair is listed when closeness reaches ``threshold``.
        Sorted worst first, each pair once.
        """
        pairs: dict[tuple[str, str], float] = {}
        for rid, li in enumerate(self._ref_label):
            query = _camera_like(self._ref_grey[rid])
            votes = self._votes(query)
            own = votes.get(li, 0)
            match = self._decide(votes)
            own_score = match.score if match.best == self.labels[li] else 0.0
            # Which other card is it most confused with: rival inliers, then clashing features.
            clash: dict[int, float] = {}
            for lj, n in votes.items():
                if lj != li:
                    clash[lj] = clash.get(lj, 0.0) + 1000.0 * n
            for (x, y), n in self._clashes.items():
                if li in (x, y) and x != y:
                    other = y if x == li else x
                    clash[other] = clash.get(other, 0.0) + n
            if not clash:
                continue
            lj = max(clash, key=clash.get)
            rival_ratio = votes.get(lj, 0) / own if own else 1.0
            closeness = max(min(1.0, rival_ratio), 1.0 - own_score)
            if closeness >= threshold:
                key = tuple(sorted((self.labels[li], self.labels[lj])))
                pairs[key] = max(pairs.get(key, 0.0), round(float(closeness), 3))
        return sorted(((a, b, c) for (a, b), c in pairs.items()), key=lambda x: -x[2])


def shared_both_ways(picture: np.ndarray, other: np.ndarray,
                     make: Callable[..., Recognizer] | None = None) -> float:
    """How much two card pictures share, as a camera sees them: of the matches one picture
    (``_camera_like``) has with its own card, the share the other card matches too (that fit
    one turn and scale), the larger of both ways. About 1 for two pictures of the same card;
    for two cards of one deck only what they share (a frame design, a border): measured at
    most 0.55 on six decks. With a single other card enrolled, nothing else votes the shared
    part down, so this is how a card is told from it (``vision.enroll.mistaken_pairs``).
    ``make`` builds the recognisers (``Recognizer`` by default), one per picture."""
    make = make or Recognizer
    mine, theirs = (make({"card": [p]}, cut_out=False) for p in (picture, other))
    return max(_shared(picture, mine, theirs), _shared(other, theirs, mine))


def _shared(picture: np.ndarray, own: Recognizer, other: Recognizer) -> float:
    """Of the matches ``picture`` as a camera sees it has with its own card's recogniser
    (``own``), the share that ``other`` matches too."""
    query = _camera_like(_normalise(picture))
    mine = own._votes(query).get(0, 0)
    return other._votes(query).get(0, 0) / mine if mine else 0.0


def _layout_view(picture: np.ndarray) -> np.ndarray:
    """A card's picture as ``_panel_layouts`` looks at it: portrait, 400 pixels tall."""
    card = portrait(picture)
    return cv2.resize(card, (max(1, round(400 * card.shape[1] / card.shape[0])), 400),
                      interpolation=cv2.INTER_AREA)


def _panel_layouts(cards: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Where the deck's cards have a panel (see PANEL_SHARE): 4 x 2 corners each, in the
    card's own coordinates (0..1 across, 0..1 down, portrait), from the first corner nearest
    the card's top left, clockwise; from one picture of each card (``_layout_view``)."""
    from vision.detect import find_outlines, order_corners

    found = []  # (which card, panel)
    for which, card in enumerate(cards):
        h, w = card.shape[:2]
        # The card alone on a table of a shade far from its own edge's, as a camera sees it.
        edge = float(np.mean(np.concatenate([card[:3].ravel(), card[-3:].ravel()])))
        table = 20 if edge > 128 else 235
        pad = h // 2
        scene = cv2.copyMakeBorder(card, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                   value=(table, table, table))
        outlines = find_outlines(scene)
        for q in outlines.cards + outlines.panels:
            q = (order_corners(q) - pad) / np.float32([w, h])
            if not PANEL_SHARE[0] <= cv2.contourArea(q) <= PANEL_SHARE[1]:
                continue
            first = int(np.argmin((q * q).sum(axis=1)))
            found.append((which, np.roll(q, -first, axis=0)))
    layouts: list[np.ndarray] = []
    for _, q in found:
        same = [(which, o) for which, o in found if np.abs(o - q).max() <= PANEL_SAME]
        if (2 * len({which for which, _ in same}) >= len(cards)
                and not any(np.abs(k - q).max() <= PANEL_SAME for k in layouts)):
            layouts.append(np.median(np.stack([o for _, o in same]), axis=0).astype(np.float32))
    return layouts


def point_inside(quad: np.ndarray, point: tuple[float, float]) -> bool:
    """Does ``point`` lie inside ``quad`` (not on its outline)?"""
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), point,
                                False) > 0
