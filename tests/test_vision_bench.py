"""How the vision benchmark scores a frame: what counts as a misread."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from vision.synthetic import TruthCard


@pytest.fixture(scope="module")
def bench():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "vision_bench.py"
    spec = importlib.util.spec_from_file_location("vision_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _at(x: float, y: float) -> np.ndarray:
    return np.float32([[x, y], [x + 100, y], [x + 100, y + 140], [x, y + 140]])


def test_a_card_named_over_one_hidden_under_it_is_read_right(bench):
    """A card laid nearly on top of another: the detection, a pixel nearer the hidden card's
    place, still shows the card on top, and naming that card is no misread."""
    under = TruthCard("ghost", _at(100, 100), visible=0.05, in_frame=True)
    top = TruthCard("cook", _at(104, 96), visible=1.0, in_frame=True)
    found = [_at(101, 99)]
    visible, hit, misreads, *_ = bench.score_frame([under, top], found, ["cook"])
    assert (visible, hit, misreads) == (1, 1, 0)
    assert bench.score_frame([under, top], found, ["ghost"])[2] == 1


def test_a_card_half_under_another_named_on_its_own_outline_is_read_right(bench):
    """A card half under another, read on its own outline: the card on top shows over more
    of that outline than it does, yet the name is right. Named as a third card, or where it
    barely shows, it is a misread."""
    under = TruthCard("vampire", _at(100, 100), visible=0.45, in_frame=True)
    top = TruthCard("cook", _at(100, 160), visible=1.0, in_frame=True)
    found = [_at(100, 100)]
    assert bench.score_frame([under, top], found, ["vampire"])[2] == 0
    assert bench.score_frame([under, top], found, ["cook"])[2] == 0  # it shows most there
    assert bench.score_frame([under, top], found, ["ghost"])[2] == 1
    hidden = TruthCard("cook", _at(100, 130), visible=1.0, in_frame=True)
    assert bench.score_frame([under, hidden], found, ["vampire"])[2] == 1  # a fifth shows
