"""Draw the stand-in identity cards: one shared frame design, distinct art, name and power.

Writes ``assets/cards/<label>.png`` (63 x 88 mm at 300 dpi) for the six identities and a
printable A4 sheet ``assets/cards/_print/sheet-a4.png`` with all six and cutting marks.
The folder doubles as a reference folder for ``companion recognize --refs assets/cards``
(names starting with ``_`` are skipped there). Run: ``python scripts/make_cards.py``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np

DPI = 300
MM = DPI / 25.4
W, H = round(63 * MM), round(88 * MM)  # 744 x 1039

IDENTITIES = (  # label, name on the card, power, art colour (BGR)
    ("ghost", "GHOST", 6, (222, 200, 170)),
    ("vampire", "VAMPIRE", 5, (70, 40, 150)),
    ("living_armor", "LIVING ARMOR", 4, (150, 150, 140)),
    ("butler", "BUTLER", 3, (60, 90, 40)),
    ("cook", "COOK", 2, (60, 150, 230)),
    ("cleaner", "CLEANER", 1, (170, 120, 60)),
)

INK = (40, 25, 45)
PAPER = (220, 238, 246)
GOLD = (60, 170, 215)
FONT = cv2.FONT_HERSHEY_DUPLEX
AA = cv2.LINE_AA

ART = (70, 200, W - 70, H - 250)  # x0, y0, x1, y1 of the art panel


def _rounded_rect(img, x0, y0, x1, y1, r, colour, thickness=-1):
    if thickness < 0:
        cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), colour, -1)
        cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), colour, -1)
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r)):
            cv2.circle(img, (cx, cy), r, colour, -1, AA)
        return
    t = thickness
    cv2.line(img, (x0 + r, y0), (x1 - r, y0), colour, t, AA)
    cv2.line(img, (x0 + r, y1), (x1 - r, y1), colour, t, AA)
    cv2.line(img, (x0, y0 + r), (x0, y1 - r), colour, t, AA)
    cv2.line(img, (x1, y0 + r), (x1, y1 - r), colour, t, AA)
    for (cx, cy), a in (((x0 + r, y0 + r), 180), ((x1 - r, y0 + r), 270),
                        ((x1 - r, y1 - r), 0), ((x0 + r, y1 - r), 90)):
        cv2.ellipse(img, (cx, cy), (r, r), a, 0, 90, colour, t, AA)


def _centred_text(img, text, cx, cy, scale, colour, thickness):
    (tw, th), _ = cv2.getTextSize(text, FONT, scale, thickness)
    cv2.putText(img, text, (round(cx - tw / 2), round(cy + th / 2)), FONT, scale, colour,
                thickness, AA)


def frame(power: int, name: str, art_colour) -> np.ndarray:
    """The design every identity card shares, with this card's name, power and panel colour."""
    img = np.full((H, W, 3), 255, np.uint8)
    _rounded_rect(img, 0, 0, W - 1, H - 1, 40, INK)
    _rounded_rect(img, 22, 22, W - 23, H - 23, 28, PAPER)
    _rounded_rect(img, 40, 40, W - 41, H - 41, 22, GOLD, 5)
    # Name banner.
    cv2.rectangle(img, (70, 70), (W - 70, 170), INK, -1)
    cv2.rectangle(img, (78, 78), (W - 78, 162), GOLD, 3, AA)
    scale = 1.9 if len(name) <= 8 else 1.45
    _centred_text(img, name, W / 2, 120, scale, (240, 250, 255), 3)
    # Art panel.
    x0, y0, x1, y1 = ART
    cv2.rectangle(img, (x0, y0), (x1, y1), art_colour, -1)
    # Power medallions (top left, bottom right, upside down like a playing card).
    for cx, cy, flip in ((W - 130, H - 140, False), (130, H - 140, True)):
        cv2.circle(img, (cx, cy), 78, INK, -1, AA)
        cv2.circle(img, (cx, cy), 66, GOLD, 4, AA)
        tile = np.zeros((160, 160, 3), np.uint8)
        _centred_text(tile, str(power), 80, 80, 4.2, (255, 255, 255), 9)
        if flip:
            tile = cv2.rotate(tile, cv2.ROTATE_180)
        mask = tile.max(axis=2) > 0
        sub = img[cy - 80:cy + 80, cx - 80:cx + 80]
        sub[mask] = tile[mask]
    # Power pips along the bottom band: one small star per point of power.
    for i in range(power):
        cx = W / 2 - (power - 1) * 22 + i * 44
        _star(img, cx, H - 140, 18, 8, GOLD)
    cv2.rectangle(img, (x0, y0), (x1, y1), INK, 6)
    return img


def _star(img, cx, cy, r_out, r_in, colour, points=5, rot=-90.0):
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + i * 180.0 / points)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    cv2.fillPoly(img, [np.int32(np.round(pts))], colour, AA)


def _scatter(img, seed, colour, shape):
    """A seeded sprinkle of small shapes in the art panel: texture unique to each card."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = ART
    for _ in range(38):
        x, y = rng.uniform(x0 + 20, x1 - 20), rng.uniform(y0 + 20, y1 - 20)
        s = rng.uniform(8, 20)
        if shape == "star":
            _star(img, x, y, s, s * 0.45, colour, rot=rng.uniform(0, 72))
        elif shape == "dot":
            cv2.circle(img, (round(x), round(y)), round(s * 0.6), colour, -1, AA)
        elif shape == "cross":
            cv2.line(img, (round(x - s), round(y)), (round(x + s), round(y)), colour, 4, AA)
            cv2.line(img, (round(x), round(y - s)), (round(x), round(y + s)), colour, 4, AA)
        elif shape == "diamond":
            pts = np.int32([(x, y - s), (x + s * 0.6, y), (x, y + s), (x - s * 0.6, y)])
            cv2.fillPoly(img, [pts], colour, AA)
        elif shape == "ring":
            cv2.circle(img, (round(x), round(y)), round(s * 0.7), colour, 3, AA)
        else:  # square
            box = ((x, y), (s * 1.2, s * 1.2), rng.uniform(0, 90))
            cv2.fillPoly(img, [np.int32(cv2.boxPoints(box))], colour, AA)


def _p(x, y):
    """Art-panel relative coordinates (0..1) to pixels."""
    x0, y0, x1, y1 = ART
    return round(x0 + x * (x1 - x0)), round(y0 + y * (y1 - y0))


def _s(v):
    return round(v * (ART[2] - ART[0]))


def art_ghost(img):
    _scatter(img, 6, (250, 235, 215), "star")
    cv2.circle(img, (W // 2, 540), 230, (245, 245, 235), -1, AA)
    body = [_p(0.22, 0.45), _p(0.22, 0.9), _p(0.32, 0.82), _p(0.42, 0.92), _p(0.5, 0.82),
            _p(0.58, 0.92), _p(0.68, 0.82), _p(0.78, 0.9), _p(0.78, 0.45)]
    cv2.fillPoly(img, [np.int32(body)], (255, 255, 255), AA)
    cv2.ellipse(img, _p(0.5, 0.45), (_s(0.28), _s(0.3)), 0, 180, 360, (255, 255, 255), -1, AA)
    cv2.polylines(img, [np.int32(body)], False, INK, 6, AA)
    cv2.ellipse(img, _p(0.5, 0.45), (_s(0.28), _s(0.3)), 0, 180, 360, INK, 6, AA)
    for ex in (0.4, 0.6):
        cv2.ellipse(img, _p(ex, 0.42), (_s(0.05), _s(0.08)), 0, 0, 360, INK, -1, AA)
    cv2.ellipse(img, _p(0.5, 0.6), (_s(0.07), _s(0.09)), 0, 0, 360, INK, -1, AA)


def art_vampire(img):
    _scatter(img, 5, (40, 20, 100), "diamond")
    cv2.circle(img, _p(0.78, 0.14), _s(0.1), (190, 230, 245), -1, AA)
    cape = np.int32([_p(0.1, 0.95), _p(0.25, 0.45), _p(0.5, 0.55), _p(0.75, 0.45),
                     _p(0.9, 0.95)])
    cv2.fillPoly(img, [cape], (20, 10, 20), AA)
    cv2.fillPoly(img, [np.int32([_p(0.3, 0.6), _p(0.5, 0.95), _p(0.7, 0.6)])], (30, 20, 170), AA)
    cv2.ellipse(img, _p(0.5, 0.38), (_s(0.17), _s(0.22)), 0, 0, 360, (200, 215, 225), -1, AA)
    cv2.fillPoly(img, [np.int32([_p(0.33, 0.3), _p(0.5, 0.24), _p(0.67, 0.3), _p(0.5, 0.2)])],
                 (20, 10, 20), AA)
    cv2.fillPoly(img, [np.int32([_p(0.32, 0.3), _p(0.5, 0.15), _p(0.68, 0.3), _p(0.5, 0.25)])],
                 (20, 10, 20), AA)
    for ex in (0.43, 0.57):
        cv2.circle(img, _p(ex, 0.36), _s(0.025), (0, 0, 200), -1, AA)
    cv2.line(img, _p(0.42, 0.48), _p(0.58, 0.48), INK, 5, AA)
    for fx in (0.45, 0.55):
        cv2.fillPoly(img, [np.int32([_p(fx - 0.02, 0.48), _p(fx, 0.53), _p(fx + 0.02, 0.48)])],
                     (255, 255, 255), AA)
    # A bat.
    bat = np.int32([_p(0.1, 0.12), _p(0.18, 0.08), _p(0.22, 0.14), _p(0.26, 0.08),
                    _p(0.34, 0.12), _p(0.26, 0.16), _p(0.22, 0.2), _p(0.18, 0.16)])
    cv2.fillPoly(img, [bat], (20, 10, 20), AA)


def art_living_armor(img):
    _scatter(img, 4, (110, 110, 100), "square")
    steel, dark = (210, 205, 200), (90, 85, 80)
    cv2.ellipse(img, _p(0.5, 0.32), (_s(0.2), _s(0.25)), 0, 180, 360, steel, -1, AA)
    cv2.rectangle(img, _p(0.3, 0.32), _p(0.7, 0.5), steel, -1)
    cv2.rectangle(img, _p(0.34, 0.34), _p(0.66, 0.39), dark, -1)
    for gx in np.linspace(0.38, 0.62, 5):
        cv2.line(img, _p(gx, 0.42), _p(gx, 0.49), dark, 4, AA)
    cv2.line(img, _p(0.5, 0.08), _p(0.5, 0.3), (40, 40, 200), 10, AA)
    # Shield with a cross.
    shield = np.int32([_p(0.15, 0.55), _p(0.85, 0.55), _p(0.85, 0.75), _p(0.5, 0.97),
                       _p(0.15, 0.75)])
    cv2.fillPoly(img, [shield], (40, 40, 170), AA)
    cv2.polylines(img, [shield], True, steel, 8, AA)
    cv2.rectangle(img, _p(0.45, 0.58), _p(0.55, 0.88), steel, -1)
    cv2.rectangle(img, _p(0.25, 0.66), _p(0.75, 0.74), steel, -1)


def art_butler(img):
    _scatter(img, 3, (40, 70, 25), "cross")
    cv2.rectangle(img, _p(0.2, 0.55), _p(0.8, 1.0), (30, 25, 25), -1)
    cv2.fillPoly(img, [np.int32([_p(0.38, 0.55), _p(0.5, 0.85), _p(0.62, 0.55)])],
                 (250, 250, 250), AA)
    cv2.fillPoly(img, [np.int32([_p(0.4, 0.58), _p(0.5, 0.63), _p(0.4, 0.68)])], INK, AA)
    cv2.fillPoly(img, [np.int32([_p(0.6, 0.58), _p(0.5, 0.63), _p(0.6, 0.68)])], INK, AA)
    cv2.circle(img, _p(0.5, 0.35), _s(0.16), (170, 190, 225), -1, AA)
    cv2.ellipse(img, _p(0.5, 0.25), (_s(0.17), _s(0.09)), 0, 180, 360, (40, 40, 40), -1, AA)
    cv2.line(img, _p(0.42, 0.42), _p(0.58, 0.42), INK, 4, AA)
    for ex in (0.44, 0.56):
        cv2.circle(img, _p(ex, 0.33), _s(0.018), INK, -1, AA)
    # Silver tray with a cloche.
    cv2.ellipse(img, _p(0.8, 0.3), (_s(0.17), _s(0.04)), -8, 0, 360, (200, 200, 200), -1, AA)
    cv2.ellipse(img, _p(0.8, 0.27), (_s(0.12), _s(0.1)), -8, 180, 360, (220, 220, 220), -1, AA)
    cv2.circle(img, _p(0.8, 0.16), _s(0.02), (220, 220, 220), -1, AA)


def art_cook(img):
    _scatter(img, 2, (40, 120, 200), "dot")
    cv2.circle(img, _p(0.5, 0.4), _s(0.17), (150, 180, 230), -1, AA)
    for cx in (0.36, 0.5, 0.64):
        cv2.circle(img, _p(cx, 0.13), _s(0.11), (255, 255, 255), -1, AA)
    cv2.rectangle(img, _p(0.34, 0.14), _p(0.66, 0.26), (255, 255, 255), -1)
    cv2.line(img, _p(0.34, 0.26), _p(0.66, 0.26), INK, 4, AA)
    for ex in (0.44, 0.56):
        cv2.circle(img, _p(ex, 0.38), _s(0.018), INK, -1, AA)
    cv2.ellipse(img, _p(0.5, 0.46), (_s(0.06), _s(0.03)), 0, 0, 180, INK, 4, AA)
    # Frying pan and a spoon.
    cv2.circle(img, _p(0.35, 0.78), _s(0.17), (40, 40, 40), -1, AA)
    cv2.circle(img, _p(0.35, 0.78), _s(0.13), (70, 70, 70), -1, AA)
    cv2.ellipse(img, _p(0.33, 0.76), (_s(0.05), _s(0.04)), 0, 0, 360, (40, 200, 250), -1, AA)
    cv2.line(img, _p(0.5, 0.76), _p(0.9, 0.62), (40, 40, 40), 18, AA)
    cv2.line(img, _p(0.72, 0.98), _p(0.88, 0.5), (80, 120, 170), 10, AA)
    cv2.ellipse(img, _p(0.89, 0.46), (_s(0.04), _s(0.07)), 18, 0, 360, (80, 120, 170), -1, AA)


def art_cleaner(img):
    _scatter(img, 1, (150, 100, 45), "ring")
    # Broom.
    cv2.line(img, _p(0.25, 0.08), _p(0.55, 0.7), (40, 90, 140), 16, AA)
    bristles = np.int32([_p(0.45, 0.68), _p(0.65, 0.62), _p(0.8, 0.95), _p(0.55, 0.98)])
    cv2.fillPoly(img, [bristles], (60, 190, 230), AA)
    for i in range(7):
        t = i / 6
        a = (0.45 + t * 0.2, 0.68 - t * 0.06)
        b = (0.55 + t * 0.25, 0.98 - t * 0.03)
        cv2.line(img, _p(*a), _p(*b), (30, 120, 160), 3, AA)
    # Bucket with bubbles.
    bucket = np.int32([_p(0.08, 0.55), _p(0.4, 0.55), _p(0.35, 0.9), _p(0.13, 0.9)])
    cv2.fillPoly(img, [bucket], (200, 120, 40), AA)
    cv2.ellipse(img, _p(0.24, 0.55), (_s(0.16), _s(0.04)), 0, 0, 360, (240, 200, 120), -1, AA)
    cv2.ellipse(img, _p(0.24, 0.5), (_s(0.14), _s(0.1)), 0, 180, 360, (90, 90, 90), 4, AA)
    for bx, by, br in ((0.2, 0.45, 0.04), (0.3, 0.4, 0.03), (0.72, 0.3, 0.06), (0.85, 0.18, 0.04),
                       (0.65, 0.12, 0.03)):
        cv2.circle(img, _p(bx, by), _s(br), (255, 245, 230), 4, AA)


ART_PAINTERS = {
    "ghost": art_ghost,
    "vampire": art_vampire,
    "living_armor": art_living_armor,
    "butler": art_butler,
    "cook": art_cook,
    "cleaner": art_cleaner,
}


def card(label: str) -> np.ndarray:
    for lab, name, power, colour in IDENTITIES:
        if lab == label:
            img = frame(power, name, colour)
            x0, y0, x1, y1 = ART
            panel = img[y0:y1, x0:x1].copy()
            canvas = img.copy()
            ART_PAINTERS[label](canvas)
            # Keep the art inside its panel.
            img[y0 + 3:y1 - 3, x0 + 3:x1 - 3] = canvas[y0 + 3:y1 - 3, x0 + 3:x1 - 3]
            del panel
            return img
    raise KeyError(f"unknown identity {label!r}")


def sheet(cards: list[np.ndarray]) -> np.ndarray:
    """A4 portrait at 300 dpi: 3 x 2 cards with 4 mm gaps and cutting marks."""
    sw, sh = round(210 * MM), round(297 * MM)
    out = np.full((sh, sw, 3), 255, np.uint8)
    gap = round(4 * MM)
    cols, rows = 3, 2
    left = (sw - cols * W - (cols - 1) * gap) // 2
    top = (sh - rows * H - (rows - 1) * gap) // 2
    for i, img in enumerate(cards):
        r, c = divmod(i, cols)
        x, y = left + c * (W + gap), top + r * (H + gap)
        out[y:y + H, x:x + W] = img
        for mx, my in ((x, y), (x + W, y), (x, y + H), (x + W, y + H)):
            cv2.line(out, (mx - 25, my), (mx - 8, my), (0, 0, 0), 2)
            cv2.line(out, (mx + 8, my), (mx + 25, my), (0, 0, 0), 2)
            cv2.line(out, (mx, my - 25), (mx, my - 8), (0, 0, 0), 2)
            cv2.line(out, (mx, my + 8), (mx, my + 25), (0, 0, 0), 2)
    _centred_text(out, "Abraca Who? stand-in identity cards - print at 100%, cut along the marks",
                  sw / 2, sh - 80, 1.0, (0, 0, 0), 2)
    return out


def _write_png(path: Path, img: np.ndarray) -> None:
    ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise OSError(f"cannot encode {path}")
    path.write_bytes(buf.tobytes())
    # Record the print resolution (pHYs chunk) so printers size the card right.
    _set_dpi(path, DPI)


def _set_dpi(path: Path, dpi: int) -> None:
    import struct
    import zlib

    data = path.read_bytes()
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    # Insert right after IHDR (8-byte signature + 25-byte IHDR chunk).
    path.write_bytes(data[:33] + chunk + data[33:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "assets/cards"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    (out / "_print").mkdir(parents=True, exist_ok=True)
    cards = []
    for label, *_ in IDENTITIES:
        img = card(label)
        cards.append(img)
        _write_png(out / f"{label}.png", img)
    _write_png(out / "_print" / "sheet-a4.png", sheet(cards))
    print(f"wrote {len(cards)} cards and a printable sheet to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
