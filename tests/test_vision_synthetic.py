"""Synthetic scenes: ground truth that matches the picture; a camera steered from code."""

import numpy as np
import pytest

from vision import mat as M
from vision import synthetic as S
from vision.frames import CameraError, Frame


@pytest.fixture(scope="module")
def deck():
    return S.load_deck()


def test_random_scene_truth(deck):
    for seed in range(6):
        sc = S.random_scene(deck, seed)
        assert sc.image.shape == (480, 640, 3) and sc.image.dtype == np.uint8
        assert sc.cards
        for c in sc.cards:
            assert c.label in deck
            assert c.corners.shape == (4, 2)
            assert (c.corners >= 0).all() and (c.corners[:, 0] < 640).all()
            assert 0.0 <= c.visible <= 1.0


def test_scene_options_are_applied(deck):
    sc = S.random_scene(deck, 3, n_cards=1, hand=False, glare=False, mat="plain-dark",
                        tilt=0.0, blur=0.0, noise=0.0, card_px=100)
    assert len(sc.cards) == 1 and sc.cards[0].fully_visible
    q = sc.cards[0].corners
    short = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1]))
    assert abs(short - 100) < 3
    # Inside the card the picture is brighter than the dark mat around it.
    inside = sc.image[int(q[:, 1].mean()), int(q[:, 0].mean())]
    assert sc.image[2, 2].mean() < 90 and inside.mean() > sc.image[2, 2].mean()


def test_pile_hides_part_of_a_card(deck):
    hidden = 0
    for seed in range(10):
        sc = S.random_scene(deck, seed, n_cards=3, arrangement="pile", hand=False)
        hidden += sum(not c.fully_visible for c in sc.cards)
    assert hidden > 0


def test_mat_scene_markers_are_found(deck):
    import cv2

    sc = S.mat_scene(deck, {"a": "vampire", "b": "cook"})
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, M.ARUCO_DICT))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    _, ids, _ = detector.detectMarkers(sc.image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    assert sorted(c.label for c in sc.cards) == ["cook", "vampire"]


def test_camera_lays_and_takes_on_its_clock(deck):
    clock = S.ManualClock()
    cam = S.SyntheticCamera(deck, clock=clock, fps=10, settle=0.5)
    f = cam.read()
    assert isinstance(f, Frame) and f.t == 0.0 and cam.truth == []
    assert cam.read() is None  # no new frame before a tenth of a second has passed
    cam.lay("a", "vampire")
    clock.advance(0.2)
    cam.read()
    assert cam.lying() == {}  # still on its way, in a hand
    assert [c.label for c in cam.truth] == ["vampire"]
    clock.advance(0.4)
    f = cam.read()
    assert f.t == pytest.approx(0.6)
    assert cam.lying() == {"a": "vampire"}
    zone_a = next(z for z in M.ZONES if z.name == "a")
    centre_mm = S._project(np.linalg.inv(cam.homography), [cam.truth[0].corners.mean(axis=0)])[0]
    assert zone_a.contains(*centre_mm)
    cam.take("a")
    clock.advance(0.6)
    cam.read()
    assert cam.lying() == {} and cam.truth == []


def test_camera_rejects_bad_requests(deck):
    cam = S.SyntheticCamera(deck, clock=S.ManualClock())
    with pytest.raises(ValueError, match="zone"):
        cam.lay("c", "vampire")
    with pytest.raises(ValueError, match="werewolf"):
        cam.lay("a", "werewolf")
    with pytest.raises(ValueError, match="no card lies"):
        cam.take("b")
    cam.close()
    with pytest.raises(CameraError):
        cam.read()


def test_a_still_table_is_pictured_a_few_times_then_those_pictures_come_in_turn(deck,
                                                                               monkeypatch):
    """The camera composes a picture only while something moves: a still table gives the same
    few noisy pictures in turn (cheap enough for the demo to idle), a moving card new ones."""
    composed = []
    real = S._compose

    def counting(*args, **kwargs):
        composed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(S, "_compose", counting)
    cam = S.SyntheticCamera(deck, clock=S.ManualClock(), seed=4)
    pictures = []
    for _ in range(12):
        cam.clock.advance(0.1)
        pictures.append(cam.read().image)
    assert len(composed) == S.STILL_PICTURES
    distinct = {p.tobytes() for p in pictures}
    assert len(distinct) == S.STILL_PICTURES  # sensor noise still differs between them
    assert all(np.abs(pictures[i].astype(int) - pictures[i + S.STILL_PICTURES]).max() == 0
               for i in range(len(pictures) - S.STILL_PICTURES))
    cam.lay("a", "cook")
    cam.clock.advance(0.1)
    cam.read()
    assert len(composed) == S.STILL_PICTURES + 1  # a card moving in: a new picture
    assert cam.truth and cam.truth[0].label == "cook"
    cam.clock.advance(cam.settle + 0.1)  # the card has settled and the hand has gone
    cam.read()
    before = len(composed)
    settled = []
    for _ in range(12):
        cam.clock.advance(0.1)
        settled.append(cam.read().image)
    assert cam.lying() == {"a": "cook"}
    assert len(composed) - before == S.STILL_PICTURES - 1  # a fresh set, the card in it
    assert not {p.tobytes() for p in settled} & distinct
    cam.take("a")  # taken away and read again only once the table is still
    cam.clock.advance(cam.settle + 1.0)
    assert cam.read().image.tobytes() not in {p.tobytes() for p in settled}
