"""Regenerate the table screen's reference images in tests/reference/.

Run this on purpose after a deliberate change to the screen, look at the images, and commit
them: the tests compare against them and never write them.

    SDL_VIDEODRIVER=dummy .venv/bin/python scripts/make_app_references.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from tests.app_scenes import cases, reference_name, render  # noqa: E402


def main() -> int:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    out = ROOT / "tests" / "reference"
    out.mkdir(parents=True, exist_ok=True)
    for name, lang, size in cases():
        surface, _ = render(name, lang, size)
        path = out / reference_name(name, lang, size)
        pygame.image.save(surface, str(path))
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
