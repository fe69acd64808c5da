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
