"""How sharp the camera's picture is, read off the mat's corner markers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import synthetic as S
from vision.focus import SOFT_SIGMA, in_focus, marker_blur
from vision.mat import detect_markers


def _mat(size=(640, 480), blur=0.0, seed=3):
    """A frame of the mat with two cards in the slots, blurred by a further sigma of ``blur``
    (in 640 x 480 pixels) over the scene's own (0.6), and the markers found in it."""
    k = size[0] / 640
    scene = S.mat_scene(S.load_deck(), {"a": "ghost", "b": "cook"}, size=size, rng=seed,
                        blur=0.6 * k)
    image = cv2.GaussianBlur(scene.image, (0, 0), blur * k) if blur else scene.image
    return image, detect_markers(image)


def test_the_markers_tell_how_blurred_the_picture_is():
    readings = []
    for blur in (0.0, 1.0, 1.5, 2.5):
        image, markers = _mat(blur=blur)
        assert len(markers) == 4
        readings.append(marker_blur(image, markers))
    sharp, one, one_and_a_half, soft = readings
    assert sharp < one < one_and_a_half < soft
    # The scene blurred by sigmas of 1.17 and 1.62 in all (its own 0.6 and the further blur).
    assert one == pytest.approx(1.17, abs=0.1)
    assert one_and_a_half == pytest.approx(1.62, abs=0.1)
    assert in_focus(sharp) and in_focus(one) and in_focus(one_and_a_half)
    assert soft >= SOFT_SIGMA and in_focus(soft) is False


@pytest.mark.parametrize("sigma", [1.0, 1.6, 2.1])
def test_a_known_blur_reads_as_itself(sigma):
    # A black square 60 pixels wide on a lighter margin, blurred by a known sigma.
    image = np.full((480, 640), 160, np.float32)
    image[100:160, 200:260] = 20
    blurred = cv2.GaussianBlur(image, (0, 0), sigma).astype(np.uint8)
    square = np.float32([[199.5, 99.5], [259.5, 99.5], [259.5, 159.5], [199.5, 159.5]])
    assert marker_blur(blurred, {0: square}) == pytest.approx(sigma, abs=0.05)
    # Turned any way round, the same (drawn smooth-edged, which softens it a little).
    corners = cv2.transform(square[None], cv2.getRotationMatrix2D((230, 130), 33, 1.0))[0]
    turned = np.full((480, 640), 160, np.float32)
    cv2.fillConvexPoly(turned, np.round(corners * 16).astype(np.int32), 20,
                       cv2.LINE_AA, shift=4)
    turned = cv2.GaussianBlur(turned, (0, 0), sigma).astype(np.uint8)
    assert marker_blur(turned, {0: corners}) == pytest.approx(sigma, abs=0.1)


def test_the_same_blur_reads_the_same_at_any_picture_size():
    # Twice the pixels, twice the blur in them: the same picture but for its size.
    small = marker_blur(*_mat(blur=1.0))
    large = marker_blur(*_mat(size=(1280, 960), blur=1.0))
    assert large == pytest.approx(2 * small, rel=0.1)
    # Judged where the finder works at half that size, it is as sharp as the small one.
    assert in_focus(0.5 * large) is True and in_focus(large) is False


def test_the_answer_does_not_hang_on_the_cards_or_the_cloth():
    image, markers = _mat()
    blur = marker_blur(image, markers)
    # A hand over the middle of the mat (the cards, the slots): the markers are still there.
    covered = image.copy()
    h, w = covered.shape[:2]
    cv2.ellipse(covered, (w // 2, h // 2), (150, 90), 20, 0, 360, (120, 150, 200), -1)
    assert marker_blur(covered, markers) == pytest.approx(blur, abs=0.05)
    # Grey or colour, the same.
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert marker_blur(grey, markers) == pytest.approx(blur, abs=1e-6)


def test_edges_that_cannot_be_measured_give_no_answer():
    image, markers = _mat()
    assert marker_blur(image, {}) is None  # no markers
    assert in_focus(None) is None
    flat = np.full_like(image, 128)
    assert marker_blur(flat, markers) is None  # no step between black and margin there
    # Markers outside the picture, a marker shrunk to a point, a marker too small to measure.
    h, w = image.shape[:2]
    outside = {i: q + np.float32([w, h]) for i, q in markers.items()}
    assert marker_blur(image, outside) is None
    point = {0: np.zeros((4, 2), np.float32)}
    assert marker_blur(image, point) is None
    tiny = {0: np.float32([[10, 10], [13, 10], [13, 13], [10, 13]])}
    assert marker_blur(image, tiny) is None
    # A marker half out of the picture: its other sides still count.
    one = next(iter(markers.values()))
    half_out = {0: one, 1: one - np.float32([one[:, 0].min() + 10, 0])}
    assert marker_blur(image, half_out) == pytest.approx(marker_blur(image, {0: one}), abs=0.3)
