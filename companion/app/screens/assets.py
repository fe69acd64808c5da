"""Finding the app's assets (fonts, card art) relative to the package, and caching them."""

from __future__ import annotations

import os
from pathlib import Path

FONT_REGULAR = "NanumSquareR.ttf"
FONT_BOLD = "NanumSquareB.ttf"


def assets_dir() -> Path:
    """The assets folder: $COMPANION_ASSETS, else the one beside the package in the checkout."""
    env = os.environ.get("COMPANION_ASSETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "assets"


def font_path(bold: bool = False) -> Path | None:
    path = assets_dir() / "fonts" / (FONT_BOLD if bold else FONT_REGULAR)
    return path if path.is_file() else None


def card_art(identity: str) -> Path | None:
    """The card art file for an identity in assets/cards, if there is one."""
    folder = assets_dir() / "cards"
    if not folder.is_dir():
        return None
    for ext in (".png", ".jpg", ".jpeg"):
        path = folder / f"{identity}{ext}"
        if path.is_file():
            return path
    for path in sorted(folder.iterdir()):
        if path.stem.lower().startswith(identity) and path.suffix.lower() in (".png", ".jpg",
                                                                               ".jpeg"):
            return path
    return None
