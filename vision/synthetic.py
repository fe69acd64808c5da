"""Synthetic table scenes with ground truth, and a synthetic camera for the demo and tests.

``random_scene`` lays any set of card pictures on a mat (plain or textured, light or dark),
at any rotation, seen by a tilted camera, with glare, a hand over part of the table, cards
touching or piled, blur and noise, and says where every card is and how much of it shows.
``panelled_deck`` and ``pip_deck`` draw decks unlike ours to lay there (laid out like
trading cards, and like playing cards).

``mat_scene`` draws the printed play mat of ``vision.mat`` (ArUco corner markers, the two
reveal slots) with cards lying in its zones. ``SyntheticCamera`` is a camera source whose
cards are laid and taken away from code (``lay("a", "vampire")``, ``take("a")``), on a clock
the caller controls.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision import mat as M
from vision.frames import Frame
from vision.recognize import portrait, read_references

DECK_DIR = Path(__file__).resolve().parents[1] / "assets" / "cards"


def load_deck(path: str | Path = DECK_DIR) -> dict[str, np.ndarray]:
    """One card picture per label from a reference folder (see
    ``vision.recognize.read_references``): the first picture of each."""
    return {label: pictures[0] for label, pictures in read_references(path).items()}


def panelled_deck(n: int = 6, *, border: tuple[int, int, int] = (235, 235, 235),
                  seed: int = 11) -> dict[str, np.ndarray]:
    """A deck unlike ours, laid out like many trading cards: a border, a frame, a picture
    panel in the upper half and a text box below it, each card-shaped and off the card's
    middle. Labels ``panel0``, ``panel1``, ..."""
    rng = np.random.default_rng(seed)
    deck = {}
    for i in range(n):
        card = np.full((616, 441, 3), border, np.uint8)
        frame = tuple(int(v) for v in rng.integers(120, 230, 3))
        cv2.rectangle(card, (22, 22), (418, 593), frame, -1)
        art = card[80:330, 30:411]
        art[:] = rng.integers(0, 255, 3)
        for _ in range(8):
            colour = tuple(int(v) for v in rng.integers(0, 255, 3))
            centre = (int(rng.integers(0, 381)), int(rng.integers(0, 250)))
            cv2.circle(art, centre, int(rng.integers(15, 70)), colour, -1)
        cv2.rectangle(card, (30, 350), (410, 570), (235, 230, 215), -1)
        for k in range(5):
            cv2.line(card, (45, 380 + 36 * k), (int(rng.integers(150, 390)), 380 + 36 * k),
                     (60, 60, 60), 5)
        cv2.putText(card, f"Card {i}", (40, 62), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 20), 2)
        deck[f"panel{i}"] = card
    return deck


# Where the pips of each rank lie, as (column 0..2, row 0..6) on the card's face.
_PIPS = {1: [(1, 3)], 2: [(1, 0), (1, 6)], 3: [(1, 0), (1, 3), (1, 6)],
         4: [(0, 0), (2, 0), (0, 6), (2, 6)], 5: [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)],
         6: [(0, 0), (2, 0), (0, 3), (2, 3), (0, 6), (2, 6)],
         7: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (0, 6), (2, 6)],
         8: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (1, 4.5), (0, 6), (2, 6)],
         9: [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4), (0, 6), (2, 6)],
         10: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4), (1, 5), (0, 6), (2, 6)]}
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_INK = {"h": (30, 30, 200), "d": (30, 30, 200), "s": (20, 20, 20), "c": (20, 20, 20)}


def _pip(img: np.ndarray, x: int, y: int, s: int, suit: str, down: bool = False) -> None:
    """One suit sign of size ``s`` centred at (x, y), point down when ``down``."""
    c, sg = _SUIT_INK[suit], -1 if down else 1
    if suit == "d":
        cv2.fillConvexPoly(img, np.int32([[x, y - s], [x + 3 * s // 4, y], [x, y + s],
                                          [x - 3 * s // 4, y]]), c, cv2.LINE_AA)
        return
    if suit == "c":
        for dx, dy in ((0, -s // 2), (-s // 2, s // 6), (s // 2, s // 6)):
            cv2.circle(img, (x + dx, y + sg * dy), int(s * 0.42), c, -1, cv2.LINE_AA)
    else:  # a heart, or a spade (a heart upside down, with a stem)
        hs = sg if suit == "h" else -sg
        for dx in (-s // 2, s // 2):
            cv2.circle(img, (x + dx, y - hs * s // 3), s // 2, c, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.int32([[x - s, y - hs * s // 6], [x + s, y - hs * s // 6],
                                          [x, y + hs * s]]), c, cv2.LINE_AA)
    if suit in "sc":
        cv2.rectangle(img, (x - s // 6, y), (x + s // 6, y + sg * s), c, -1)


def pip_deck(suits: str = "hdsc") -> dict[str, np.ndarray]:
    """A deck unlike ours whose cards look alike, laid out like playing cards: ranks A to K
    of each suit, pips in the usual places, the rank and suit in two corners, a coloured
    picture on J, Q and K. Labels ``7h``, ``10s``, ``Kd``..."""
    rng = np.random.default_rng(9)
    deck = {}
    for suit in suits:
        ink = _SUIT_INK[suit]
        for rank in _RANKS:
            card = np.full((616, 441, 3), 248, np.uint8)
            for _ in range(2):  # the corner index, then the same turned half a turn
                cv2.putText(card, rank, (14 if rank != "10" else 6, 62),
                            cv2.FONT_HERSHEY_SIMPLEX, 1.6 if rank != "10" else 1.3, ink, 4,
                            cv2.LINE_AA)
                _pip(card, 40, 100, 18, suit)
                card = cv2.rotate(card, cv2.ROTATE_180)
            n = _RANKS.index(rank) + 1
            if n <= 10:
                for col, row in _PIPS[n]:
                    _pip(card, int(130 + 90 * col), int(130 + 356 * row / 6),
                         34 if n > 1 else 80, suit, down=row > 3)
            else:
                cv2.rectangle(card, (85, 95), (355, 520), ink, 3)
                for _ in range(14):
                    colour = tuple(int(v) for v in rng.integers(0, 255, 3))
                    cv2.circle(card, (int(rng.integers(95, 345)), int(rng.integers(105, 510))),
                               int(rng.integers(10, 45)), colour, -1, cv2.LINE_AA)
                _pip(card, 220, 300, 40, suit)
            deck[f"{rank}{suit}"] = card
    return deck


@dataclass(frozen=True, slots=True)
class TruthCard:
    label: str
    corners: np.ndarray  # 4 x 2 float32 image pixels, clockwise from the card's top-left
    visible: float  # fraction of the card not covered by other cards or a hand
    in_frame: bool  # all four corners inside the picture

    @property
    def fully_visible(self) -> bool:
        return self.in_frame and self.visible >= 0.995


@dataclass(slots=True)
class Scene:
    image: np.ndarray
    cards: list[TruthCard] = field(default_factory=list)


# -- mats ------------------------------------------------------------------------------------

MAT_KINDS = ("plain-dark", "plain-light", "felt", "wood", "cloth", "noise-light", "noise-dark")


def make_mat(shape: tuple[int, int], kind: str, rng: np.random.Generator) -> np.ndarray:
    """A table surface of ``kind`` (see MAT_KINDS), ``shape`` = (height, width)."""
    h, w = shape
    if kind == "plain-dark":
        base = rng.uniform(15, 80, 3)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
    elif kind == "plain-light":
        base = rng.uniform(170, 240, 3)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
    elif kind == "felt":
        base = np.array([rng.uniform(20, 60), rng.uniform(70, 120), rng.uniform(20, 50)])
        n = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
        img = base[None, None, :] * (1 + 0.25 * n[..., None])
    elif kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 25) * 60
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a) + warp
        stripes = 0.5 + 0.5 * np.sin(u / rng.uniform(4, 9))
        base = np.array([rng.uniform(40, 90), rng.uniform(90, 140), rng.uniform(140, 200)])
        img = base[None, None, :] * (0.75 + 0.35 * stripes[..., None])
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w]
        period = int(rng.integers(14, 40))
        checks = ((xx // period + yy // period) % 2).astype(np.float32)
        c1, c2 = rng.uniform(30, 230, 3), rng.uniform(30, 230, 3)
        img = c1[None, None, :] * checks[..., None] + c2[None, None, :] * (1 - checks[..., None])
        img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.0)
    else:  # noise-light / noise-dark: speckled stone or paper
        base = rng.uniform(160, 230, 3) if kind == "noise-light" else rng.uniform(20, 90, 3)
        n1 = rng.normal(0, 1, (h, w)).astype(np.float32)
        n2 = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 6) * 4
        img = base[None, None, :] * (1 + (0.1 * n1 + 0.12 * n2)[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


# -- drawing helpers -------------------------------------------------------------------------

def card_mask(w: int, h: int) -> np.ndarray:
    """Where a card picture of w x h is card (rounded corners cut away), uint8 0/255."""
    m = np.zeros((h, w), np.uint8)
    r = max(2, round(0.05 * min(w, h)))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def paste_card(canvas: np.ndarray, owner: np.ndarray, index: int, card: np.ndarray,
               corners: np.ndarray, shadow: bool = True) -> int:
    """Warp ``card`` onto ``canvas`` so its picture corners land on ``corners`` (clockwise
    from the picture's top-left); ``owner`` records which card is on top at each pixel."""
    h, w = card.shape[:2]
    src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    hm = cv2.getPerspectiveTransform(src, np.float32(corners))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 3
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 4
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return 0
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    hs = shift @ hm
    size = (x1 - x0, y1 - y0)
    # Downscale the picture first when it is far larger than its footprint (less aliasing).
    warped = cv2.warpPerspective(card, hs, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(card_mask(w, h), hs, size, flags=cv2.INTER_LINEAR)
    a = alpha.astype(np.float32)[..., None] / 255.0
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        sh = cv2.GaussianBlur(a, (0, 0), 2.0)
        sh = np.roll(np.roll(sh, 2, axis=0), 2, axis=1)
        roi *= 1 - 0.35 * (sh[..., None] if sh.ndim == 2 else sh)
    roi = roi * (1 - a) + warped.astype(np.float32) * a
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    owner[y0:y1, x0:x1][alpha > 127] = index
    return int(np.count_nonzero(alpha > 127))


def draw_hand(canvas: np.ndarray, owner: np.ndarray, rng: np.random.Generator,
              target: tuple[float, float], scale: float) -> None:
    """A hand (palm and fingers, skin or sleeve coloured) reaching over ``target``."""
    H, W = canvas.shape[:2]
    tx, ty = target
    # The arm comes in from the nearest picture edge.
    edges = [(tx, H + 40), (tx, -40), (-40, ty), (W + 40, ty)]
    ex, ey = min(edges, key=lambda e: math.hypot(e[0] - tx, e[1] - ty))
    ang = math.atan2(ty - ey, tx - ex)
    skin = np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 230)])
    mask = np.zeros((H, W), np.uint8)
    palm_r = 0.45 * scale
    px, py = tx - math.cos(ang) * palm_r * 0.6, ty - math.sin(ang) * palm_r * 0.6
    cv2.line(mask, (round(ex), round(ey)), (round(px), round(py)), 255, max(3, round(palm_r)))
    cv2.ellipse(mask, (round(px), round(py)), (round(palm_r), round(palm_r * 0.8)),
                math.degrees(ang), 0, 360, 255, -1)
    for k in range(4):
        fa = ang + (k - 1.5) * 0.28
        fl = palm_r * rng.uniform(1.1, 1.6)
        fx, fy = px + math.cos(fa) * fl, py + math.sin(fa) * fl
        cv2.line(mask, (round(px), round(py)), (round(fx), round(fy)), 255,
                 max(2, round(palm_r * 0.28)))
    soft = cv2.GaussianBlur(mask, (0, 0), 1.0).astype(np.float32)[..., None] / 255.0
    shade = 0.8 + 0.2 * cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 9)
    hand = skin[None, None, :] * shade[..., None]
    out = canvas.astype(np.float32) * (1 - soft) + hand * soft
    canvas[:] = np.clip(out, 0, 255).astype(np.uint8)
    owner[mask > 127] = -2


def add_glare(img: np.ndarray, rng: np.random.Generator, centre=None, radius=None,
              strength=None) -> np.ndarray:
    H, W = img.shape[:2]
    cx, cy = centre if centre is not None else (rng.uniform(0, W), rng.uniform(0, H))
    r = radius if radius is not None else rng.uniform(0.05, 0.15) * W
    s = strength if strength is not None else rng.uniform(80, 200)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    g = s * np.exp(-((xx - cx) ** 2 + ((yy - cy) * rng.uniform(0.6, 1.4)) ** 2) / (2 * r * r))
    return np.clip(img.astype(np.float32) + g[..., None], 0, 255).astype(np.uint8)


def finish(img: np.ndarray, rng: np.random.Generator, *, blur: float, noise: float,
           light: float = 0.0) -> np.ndarray:
    """Uneven lighting, lens blur and sensor noise."""
    out = img.astype(np.float32)
    if light:
        H, W = img.shape[:2]
        gx = np.linspace(-1, 1, W, dtype=np.float32)[None, :] * rng.uniform(-1, 1)
        gy = np.linspace(-1, 1, H, dtype=np.float32)[:, None] * rng.uniform(-1, 1)
        out *= (1.0 + light * (gx + gy) / 2)[..., None]
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def tilt_homography(size: tuple[int, int], degrees: float, direction: float = 0.0,
                    focal: float = 1.0) -> np.ndarray:
    """Picture -> picture for a pinhole camera turned by ``degrees`` about an axis through
    the picture centre (``direction``: the axis's angle in the picture, degrees). ``focal``
    is the focal length in picture widths (1.0: about a 53 degree wide view)."""
    W, H = size
    f = focal * W
    k = np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1]], np.float64)
    axis = np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction)), 0])
    rot, _ = cv2.Rodrigues(axis * math.radians(degrees))
    hm = k @ rot @ np.linalg.inv(k)
    # Keep the picture centre where it was and the scale there about the same.
    c = hm @ np.array([W / 2, H / 2, 1.0])
    c = c[:2] / c[2]
    shift = np.array([[1, 0, W / 2 - c[0]], [0, 1, H / 2 - c[1]], [0, 0, 1]])
    return shift @ hm


def camera_homography(size: tuple[int, int], rng: np.random.Generator, tilt: float
                      ) -> np.ndarray:
    """Table plane (picture-sized, extended) -> picture for a camera tilted away from
    straight down by up to ``tilt`` x 100 degrees (0.3: 30 degrees) in a random direction."""
    deg = 100.0 * tilt * rng.uniform(0.5, 1.0)
    return tilt_homography(size, deg, rng.uniform(0, 360), focal=rng.uniform(0.8, 1.3))


def _project(hm: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), hm).reshape(-1, 2)


def _overlap(poly_a: np.ndarray, poly_b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(np.float32(poly_a), np.float32(poly_b))
    return float(inter)


# -- random scenes ---------------------------------------------------------------------------

def random_scene(cards: Mapping[str, np.ndarray], rng: np.random.Generator | int = 0, *,
                 size: tuple[int, int] = (640, 480), n_cards: int | None = None,
                 mat: str | None = None, arrangement: str | None = None,
                 tilt: float | None = None, card_px: float | None = None,
                 hand: bool | None = None, glare: bool | None = None,
                 blur: float | None = None, noise: float | None = None) -> Scene:
    """A random table scene. Options left as None are drawn at random.

    ``arrangement``: "spread" (cards apart), "touching" (side by side, edges touching) or
    "pile" (partly overlapping). ``card_px``: the card's short side in picture pixels.
    """
    if not isinstance(rng, np.random.Generator):
        rng = np.random.default_rng(rng)
    W, H = size
    labels = sorted(cards)
    mat = mat or str(rng.choice(MAT_KINDS))
    arrangement = arrangement or str(rng.choice(["spread", "spread", "touching", "pile"]))
    tilt = float(rng.uniform(0, 0.3)) if tilt is None else tilt
    card_px = float(rng.uniform(0.11, 0.17) * W) if card_px is None else card_px
    n_cards = int(rng.integers(1, 6)) if n_cards is None else n_cards
    hand = bool(rng.random() < 0.3) if hand is None else hand
    glare = bool(rng.random() < 0.4) if glare is None else glare
    blur = float(rng.uniform(0, 1.2)) if blur is None else blur
    noise = float(rng.uniform(0, 6)) if noise is None else noise

    hm = camera_homography(size, rng, tilt)
    hinv = np.linalg.inv(hm)
    plane = make_mat((H, W), mat, rng)
    canvas = cv2.warpPerspective(plane, hm, (W, H), borderMode=cv2.BORDER_REFLECT)
    owner = np.full((H, W), -1, np.int32)

    placed: list[tuple[str, np.ndarray]] = []  # label, plane corners
    tries = 0
    while len(placed) < n_cards and tries < 200:
        tries += 1
        if placed and arrangement in ("touching", "pile") and rng.random() < 0.8:
            _, ref = placed[int(rng.integers(len(placed)))]
            centre = ref.mean(axis=0)
            e1, e3 = ref[1] - ref[0], ref[3] - ref[0]
            ang = math.degrees(math.atan2(e1[1], e1[0]))
            if arrangement == "touching":
                d = e1 if rng.random() < 0.5 else e3
                d = d * (1 + rng.uniform(0.0, 0.03)) * (1 if rng.random() < 0.5 else -1)
                c = centre + d
                ang += rng.uniform(-2, 2)
            else:
                f = rng.uniform(0.35, 0.7)
                d = (e1 * f * rng.choice([-1, 1]) + e3 * rng.uniform(-0.4, 0.4))
                c = centre + d
                ang += rng.uniform(-25, 25)
            width = float(np.linalg.norm(e1))
        else:
            p = _project(hinv, [[rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H]])[0]
            c, ang = p, rng.uniform(0, 360)
            # Pick the plane width that gives about card_px in the picture at this spot.
            probe = _project(hm, M.card_corners(c[0], c[1], card_px, ang))
            width = card_px * card_px / max(1.0, float(np.linalg.norm(probe[1] - probe[0])))
        corners = M.card_corners(c[0], c[1], width, ang)
        img_c = _project(hm, corners)
        if (img_c.min(axis=0) < 2).any() or img_c[:, 0].max() > W - 3 or img_c[:, 1].max() > H - 3:
            continue
        if arrangement == "spread" or not placed:
            area = cv2.contourArea(img_c)
            if any(_overlap(img_c, _project(hm, q)) > 0.0 for _, q in placed):
                continue
            if area < 0.5 * card_px * card_px * M.CARD_ASPECT:
                continue
        elif arrangement == "touching":
            if any(_overlap(img_c, _project(hm, q)) > 0.01 * cv2.contourArea(img_c)
                   for _, q in placed):
                continue
        placed.append((str(rng.choice(labels)), corners))

    truth_corners, areas = [], []
    for i, (label, corners) in enumerate(placed):
        img_c = _project(hm, corners)
        truth_corners.append((label, img_c))
        areas.append(paste_card(canvas, owner, i, portrait(cards[label]), img_c))

    if hand and placed:
        _, tc = truth_corners[int(rng.integers(len(truth_corners)))]
        corner = tc[int(rng.integers(4))]
        target = tuple(corner + (tc.mean(axis=0) - corner) * rng.uniform(0.1, 0.5))
        draw_hand(canvas, owner, rng, target, card_px)
    if glare:
        if truth_corners and rng.random() < 0.8:
            centre = truth_corners[int(rng.integers(len(truth_corners)))][1].mean(axis=0)
            centre = centre + rng.normal(0, card_px * 0.3, 2)
            canvas = add_glare(canvas, rng, centre=centre, radius=card_px * rng.uniform(0.2, 0.5))
        else:
            canvas = add_glare(canvas, rng)
    image = finish(canvas, rng, blur=blur, noise=noise, light=rng.uniform(0, 0.4))

    out = []
    for i, (label, img_c) in enumerate(truth_corners):
        vis = float(np.count_nonzero(owner == i)) / areas[i] if areas[i] else 0.0
        out.append(TruthCard(label, img_c.astype(np.float32), vis, True))
    return Scene(image, out)


# -- the printed mat -------------------------------------------------------------------------

def draw_mat(px_per_mm: float = 2.0) -> np.ndarray:
    """The play mat as printed (``vision.mat.render_mat``) at ``px_per_mm``."""
    return M.render_mat(px_per_mm)


def mat_view(size: tuple[int, int] = (640, 480), *, tilt: float = 0.12, margin: float = 0.04,
             rng: np.random.Generator | None = None) -> np.ndarray:
    """Homography mat millimetres -> picture pixels for a camera above the mat, tilted
    ``tilt`` x 100 degrees towards the mat's far edge."""
    W, H = size
    rng = rng or np.random.default_rng(0)
    s = min(W * (1 - 2 * margin) / M.MAT_W_MM, H * (1 - 2 * margin) / M.MAT_H_MM)
    w, h = M.MAT_W_MM * s, M.MAT_H_MM * s
    x0, y0 = (W - w) / 2, (H - h) / 2
    flat = np.array([[s, 0, x0], [0, s, y0], [0, 0, 1]], np.float64)
    hm = tilt_homography(size, 100.0 * tilt, rng.normal(0, 5))
    # Shrink to keep the whole mat, markers included, inside the picture.
    corners = _project(hm @ flat, [[0, 0], [M.MAT_W_MM, 0], [M.MAT_W_MM, M.MAT_H_MM],
                                   [0, M.MAT_H_MM]])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    fit = min(1.0, (W * (1 - margin)) / (hi[0] - lo[0]), (H * (1 - margin)) / (hi[1] - lo[1]))
    mid = (lo + hi) / 2
    adj = np.array([[fit, 0, W / 2 - fit * mid[0]], [0, fit, H / 2 - fit * mid[1]], [0, 0, 1]])
    return adj @ hm @ flat


def zone_card_corners(zone: str, dx: float = 0.0, dy: float = 0.0, angle: float = 0.0
                      ) -> np.ndarray:
    """A card's corners in mat mm when it lies in ``zone``, shifted and turned a little."""
    z = next(z for z in M.ZONES if z.name == zone)
    cx, cy = z.x + z.w / 2 + dx, z.y + z.h / 2 + dy
    return M.card_corners(cx, cy, M.CARD_W_MM, angle)


def table_photo(label: str, card: np.ndarray, rng: np.random.Generator | int = 0, *,
                card_px: float = 200.0) -> np.ndarray:
    """A photo of one card lying alone on a table, taken from nearly above (as a reference
    picture might be), the card's short side ``card_px`` pixels in a 640 x 480 picture."""
    return random_scene({label: card}, rng, n_cards=1, card_px=card_px, tilt=0.05,
                        hand=False, glare=False).image


# The table the mat lies on, by default light wood: the green mat's own outline shows against
# it (a table as dark as the mat hides it, and the mat is then no outline to tell from a card).
TABLE_BGR = (150, 175, 195)


def mat_scene(cards: Mapping[str, np.ndarray], lying: Mapping[str, str], *,
              size: tuple[int, int] = (640, 480), tilt: float = 0.12,
              rng: np.random.Generator | int = 0, blur: float = 0.6, noise: float = 3.0,
              jitter: bool = True, margin: float = 0.04, card_scale: float = 1.0,
              table_bgr: tuple[int, int, int] = TABLE_BGR) -> Scene:
    """The printed mat seen from above, with card ``lying[zone]`` in each zone; ``margin``:
    the least room around the mat, as a share of the picture (more: a camera further away);
    ``card_scale``: the cards' size against the mat's (1.41: a mat printed on A4 instead of
    A3, fitted to the page); ``table_bgr``: the colour of the table around the mat."""
    if not isinstance(rng, np.random.Generator):
        rng = np.random.default_rng(rng)
    hm = mat_view(size, tilt=tilt, margin=margin, rng=rng)
    base = _warp_mat(hm, size, table_bgr)
    placements = []
    for zone, label in sorted(lying.items()):
        j = rng.uniform(-1, 1, 3) * (6, 6, 8) if jitter else (0, 0, 0)
        corners = zone_card_corners(zone, *j)
        mid = corners.mean(axis=0)
        placements.append((label, mid + card_scale * (corners - mid)))
    return _compose(base, hm, cards, placements, rng, blur, noise)


_MAT_CACHE: dict[tuple, np.ndarray] = {}


def _warp_mat(hm: np.ndarray, size, table_bgr=TABLE_BGR) -> np.ndarray:
    key = (hm.tobytes(), size, tuple(table_bgr))
    if key not in _MAT_CACHE:
        ppm = 2.0
        plane = draw_mat(ppm)
        scale = np.diag([1 / ppm, 1 / ppm, 1.0])
        table = np.full((size[1], size[0], 3), table_bgr, np.uint8)
        img = cv2.warpPerspective(plane, hm @ scale, size, dst=table, flags=cv2.INTER_AREA,
                                  borderMode=cv2.BORDER_TRANSPARENT)
        if len(_MAT_CACHE) > 8:
            _MAT_CACHE.clear()
        _MAT_CACHE[key] = img
    return _MAT_CACHE[key].copy()


def _compose(base, hm, cards, placements, rng, blur, noise, hand_at=None) -> Scene:
    H, W = base.shape[:2]
    owner = np.full((H, W), -1, np.int32)
    truth, areas = [], []
    for i, (label, mm_corners) in enumerate(placements):
        img_c = _project(hm, mm_corners)
        areas.append(paste_card(base, owner, i, portrait(cards[label]), img_c))
        truth.append((label, img_c))
    if hand_at is not None:
        px_per_mm = float(np.linalg.norm(_project(hm, [[0, 0], [1, 0]])[1]
                                         - _project(hm, [[0, 0]])[0]))
        draw_hand(base, owner, rng, tuple(_project(hm, [hand_at])[0]),
                  M.CARD_W_MM * px_per_mm)
    image = finish(base, rng, blur=blur, noise=noise)
    out = []
    for i, (label, img_c) in enumerate(truth):
        vis = float(np.count_nonzero(owner == i)) / areas[i] if areas[i] else 0.0
        inside = bool((img_c >= 0).all() and (img_c[:, 0] < W).all() and (img_c[:, 1] < H).all())
        out.append(TruthCard(label, img_c.astype(np.float32), vis, inside))
    return Scene(image, out)


# -- the synthetic camera --------------------------------------------------------------------

STILL_PICTURES = 4  # noisy pictures of a still table, given in turn


class ManualClock:
    """A clock that only moves when told to, for tests."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = float(t)

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += float(seconds)


@dataclass(slots=True)
class _Move:
    zone: str
    label: str
    start: float
    lay: bool  # True: being laid; False: being taken away
    pose: tuple[float, float, float]  # resting offset dx, dy (mm) and angle (degrees)


class SyntheticCamera:
    """A camera over the printed mat whose cards are laid and taken away from code.

    ``lay(zone, label)`` starts a hand sliding the card in from the player's edge of the mat;
    after ``settle`` seconds it lies still in the zone and the hand has gone. ``take(zone)``
    does the reverse. ``a`` and ``b``: the cards lying still in those slots from the start
    (``camera-check --source synthetic:a=ghost,b=cook``), none when empty. ``read()`` gives
    a new frame at most ``fps`` times a second of the clock (``clock``: any callable giving
    seconds, e.g. ``ManualClock`` in tests).
    """

    def __init__(self, cards: Mapping[str, np.ndarray] | None = None, *,
                 size: tuple[int, int] = (640, 480), fps: float = 15.0,
                 clock: Callable[[], float] = time.monotonic, settle: float = 0.6,
                 tilt: float = 0.12, blur: float = 0.6, noise: float = 3.0, seed: int = 0,
                 a: str = "", b: str = "") -> None:
        self.cards = dict(cards) if cards is not None else load_deck()
        self.size = size
        self.fps = float(fps)
        self.clock = clock
        self.settle = float(settle)
        self.blur, self.noise = blur, noise
        self._rng = np.random.default_rng(seed)
        self._hm = mat_view(size, tilt=tilt, rng=np.random.default_rng(seed))
        self._moves: dict[str, _Move] = {}
        self._last_t: float | None = None
        self._closed = False
        self.truth: list[TruthCard] = []
        self._still_key: tuple | None = None  # the still table last pictured
        self._still: list[Scene] = []
        self._still_turn = 0
        for zone, label in (("a", a), ("b", b)):
            if label:
                self.lay(zone, label)
                self._moves[zone] = replace(self._moves[zone], start=-math.inf)  # lying already

    @property
    def homography(self) -> np.ndarray:
        """Mat millimetres -> picture pixels."""
        return self._hm.copy()

    def lay(self, zone: str, label: str) -> None:
        if zone not in {z.name for z in M.ZONES}:
            raise ValueError(f"no zone {zone!r} on the mat (zones: a, b)")
        if label not in self.cards:
            raise ValueError(f"no card picture for {label!r}")
        pose = tuple(float(v) for v in self._rng.uniform(-1, 1, 3) * (5, 5, 8))
        self._moves[zone] = _Move(zone, label, self.clock(), True, pose)

    def take(self, zone: str) -> None:
        mv = self._moves.get(zone)
        if mv is None or not mv.lay:
            raise ValueError(f"no card lies in zone {zone!r}")
        self._moves[zone] = _Move(zone, mv.label, self.clock(), False, mv.pose)

    def lying(self) -> dict[str, str]:
        """Zone -> label of the cards lying still in their zones now."""
        now = self.clock()
        return {z: m.label for z, m in self._moves.items()
                if m.lay and now - m.start >= self.settle}

    def _placements(self, now: float):
        placements, hand = [], None
        for zone, mv in sorted(self._moves.items()):
            p = min(1.0, max(0.0, (now - mv.start) / self.settle)) if self.settle > 0 else 1.0
            # Distance (mm) still to travel towards the player's edge (bottom of the mat).
            away = (1.0 - p) if mv.lay else p
            if not mv.lay and away >= 1.0:
                continue
            dx, dy, ang = mv.pose
            dy += away * 200.0
            placements.append((mv.label, zone_card_corners(zone, dx, dy, ang + away * 20)))
            if 0.0 < p < 1.0:
                c = zone_card_corners(zone, dx, dy, ang).mean(axis=0)
                hand = (c[0], c[1] + 30.0)
        self._moves = {z: m for z, m in self._moves.items()
                       if m.lay or now - m.start < self.settle}
        return placements, hand

    def render(self, now: float | None = None) -> Scene:
        now = self.clock() if now is None else now
        placements, hand = self._placements(now)
        # Nothing moving: the same few noisy pictures of the still table in turn, instead of
        # composing and blurring a new one 15 times a second (the demo idles cheaply).
        still = None if hand is not None else tuple(
            (label, np.asarray(corners, np.float32).tobytes()) for label, corners in placements)
        if still is not None and still == self._still_key \
                and len(self._still) >= STILL_PICTURES:
            scene = self._still[self._still_turn % len(self._still)]
            self._still_turn += 1
            return scene
        base = _warp_mat(self._hm, self.size)
        scene = _compose(base, self._hm, self.cards, placements, self._rng, self.blur,
                         self.noise, hand_at=hand)
        if still != self._still_key:
            self._still_key, self._still, self._still_turn = still, [], 0
        if still is not None:
            self._still.append(scene)
        return scene

    def read(self) -> Frame | None:
        if self._closed:
            from vision.frames import CameraError

            raise CameraError("the synthetic camera is closed")
        now = self.clock()
        if self._last_t is not None and now - self._last_t < 1.0 / self.fps - 1e-9:
            return None
        self._last_t = now
        scene = self.render(now)
        self.truth = scene.cards
        return Frame(scene.image, now)

    def close(self) -> None:
        self._closed = True
