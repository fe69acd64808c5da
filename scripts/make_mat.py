"""Write the printable play mat: assets/mat/mat-a3.png, A3 landscape at 300 dpi.

Print it at 100 % (no "fit to page"): the corner squares must come out 40 mm wide.
Run: python scripts/make_mat.py [--out FILE] [--dpi N]
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.mat import render_mat  # noqa: E402


def with_dpi(png: bytes, dpi: float) -> bytes:
    """The PNG with a pHYs chunk saying its resolution, so printers print it to size."""
    per_metre = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, then IHDR: length, type, data, crc
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def main(argv: list[str] | None = None) -> int:
    import cv2

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "assets" / "mat" / "mat-a3.png")
    parser.add_argument("--dpi", type=float, default=300.0)
    args = parser.parse_args(argv)
    image = render_mat(args.dpi / 25.4)
    ok, png = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        print("could not encode the mat as PNG", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(with_dpi(png.tobytes(), args.dpi))
    h, w = image.shape[:2]
    print(f"wrote {args.out} ({w}x{h} px, {args.dpi:g} dpi)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
