"""Argument types the commands share (argparse ``type=``): a bad value gets a clear message
naming it, never a traceback."""

from __future__ import annotations

import argparse
import math
from pathlib import Path


def seconds(text: str, *, zero: bool = False, most: float = math.inf) -> float:
    """A number of seconds above 0 (``zero``: from 0), up to ``most`` when given: -1, nan or
    inf would never, or at once, give up."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    least = "0 or more" if zero else "above 0"
    if not ((0 <= value) if zero else (0 < value)) or not value <= most or math.isinf(value):
        upto = f" and up to {most:g}" if math.isfinite(most) else ""
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds {least}{upto}")
    return value


def named_path(text: str) -> Path:
    """A path with a name: an empty one would mean the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give a name, not an empty one")
    return Path(text)
