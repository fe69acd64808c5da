"""Finding the printed mat in a camera picture, and placing cards on it."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.mat import (
    MARKERS,
    MAT_H_MM,
    MAT_W_MM,
    ZONES,
    card_misfit_mm,
    card_sized_mm,
    describe_markers,
    detect_markers,
    find_mat,
    mat_from_markers,
    paint_out_marks,
    render_mat,
    slot_mark_pixels,
    slot_marks_mm,
    without_slot_marks,
    zone_at,
    zone_corners_mm,
    zone_named,
)

PPM = 2.0  # pixels per mm of the rendered mat
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def mat_image():
    return render_mat(PPM)


def photograph(mat_image, quad, size=(640, 480), seed=0):
    """The mat warped so that its corners land on `quad` (image px) over a noisy table."""
    rng = np.random.default_rng(seed)
    h, w = mat_image.shape[:2]
    src = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    hom = cv2.getPerspectiveTransform(src, np.float32(quad))
    table = rng.integers(40, 90, (size[1], size[0], 3), dtype=np.uint8)
    warped = cv2.warpPerspective(mat_image, hom, size, dst=table,
                                 borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA)
    noise = rng.normal(0, 4, warped.shape)
    photo = np.clip(warped.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    # mm -> image px, for checking: scale by PPM then the warp
    truth = hom @ np.diag([PPM, PPM, 1.0])
    return photo, truth


def to_px(h, points_mm):
    pts = np.float32(points_mm).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


TILTED = [(70, 40), (590, 70), (620, 440), (30, 410)]  # a camera looking from an angle
UPSIDE_DOWN = [(600, 430), (60, 450), (40, 60), (580, 30)]  # mounted on the other side


@pytest.mark.parametrize("quad", [TILTED, UPSIDE_DOWN])
def test_mat_found_back_within_a_few_mm(mat_image, quad):
    photo, truth = photograph(mat_image, quad)
    view = find_mat(photo)
    assert view is not None and view.markers == (0, 1, 2, 3)
    probe_mm = np.float32([(0, 0), (MAT_W_MM, MAT_H_MM), (210, 148.5), (120, 100), (300, 250)])
    back = view.image_to_mat(to_px(truth, probe_mm))
    assert np.abs(back - probe_mm).max() < 3.0
    assert view.error_mm < 1.0
    assert np.abs(view.mat_to_image(probe_mm) - to_px(truth, probe_mm)).max() < 2.0


def test_a_covered_marker_does_not_lose_the_mat(mat_image):
    photo, truth = photograph(mat_image, TILTED)
    corner = to_px(truth, [(MARKERS[2][0] - 5, MARKERS[2][1] - 5)])[0]
    cv2.circle(photo, tuple(int(v) for v in corner + 25), 45, (30, 90, 160), -1)  # a hand
    markers = detect_markers(photo)
    assert sorted(markers) == [0, 1, 3]
    view = mat_from_markers(markers)
    assert view is not None
    centre = to_px(truth, [(210, 148.5)])
    assert np.abs(view.image_to_mat(centre) - (210, 148.5)).max() < 3.0
    assert "bottom-right corner square is not in view" in describe_markers(markers)


def test_too_few_markers_is_no_mat(mat_image):
    photo, truth = photograph(mat_image, TILTED)
    for marker_id in (1, 2, 3):
        x, y = MARKERS[marker_id]
        quad = to_px(truth, [(x - 3, y - 3), (x + 43, y - 3), (x + 43, y + 43), (x - 3, y + 43)])
        cv2.fillConvexPoly(photo, quad.astype(np.int32), (50, 50, 50))
    markers = detect_markers(photo)
    assert sorted(markers) == [0]
    assert mat_from_markers(markers) is None
    assert find_mat(photo) is None
    assert describe_markers(markers) == ("the top-right, bottom-right and bottom-left corner "
                                         "squares are not in view (covered, out of the picture, "
                                         "or in glare)")
    blank = np.full((480, 640, 3), 128, np.uint8)
    assert find_mat(blank) is None
    assert describe_markers(detect_markers(blank)).startswith("none of the mat's")


def test_card_corners_map_to_their_slot(mat_image):
    photo, truth = photograph(mat_image, TILTED)
    view = find_mat(photo)
    for zone in ZONES:
        # a card laid a bit crooked inside the slot
        cx, cy = zone.x + zone.w / 2 + 3, zone.y + zone.h / 2 - 2
        card = cv2.boxPoints(((cx, cy), (63, 88), 12.0))
        corners_px = to_px(truth, card)
        assert view.zone_of(corners_px) == zone
        x, y = view.card_centre_mm(corners_px)
        assert abs(x - cx) < 3 and abs(y - cy) < 3
    outside = to_px(truth, cv2.boxPoints(((60, 150), (63, 88), 0.0)))
    assert view.zone_of(outside) is None


def test_zone_helpers():
    a = zone_named("a")
    assert zone_at(a.x + 1, a.y + 1) is a
    assert zone_at(5, 5) is None
    assert zone_corners_mm(a).tolist()[2] == [a.x + a.w, a.y + a.h]
    with pytest.raises(KeyError, match="'c'"):
        zone_named("c")


def test_committed_mat_is_the_rendered_one_at_300_dpi():
    path = ROOT / "assets" / "mat" / "mat-a3.png"
    data = path.read_bytes()
    at = data.index(b"pHYs")
    per_metre = struct.unpack(">II", data[at + 4:at + 12])
    assert per_metre == (11811, 11811)  # 300 dpi
    image = cv2.imread(str(path))
    assert image.shape[:2] == (round(MAT_H_MM * 300 / 25.4), round(MAT_W_MM * 300 / 25.4))
    small = cv2.resize(image, (840, 594), interpolation=cv2.INTER_AREA)
    assert find_mat(small).markers == (0, 1, 2, 3)


def test_make_mat_script_writes_the_png(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import make_mat
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    out = tmp_path / "mat.png"
    assert make_mat.main(["--out", str(out), "--dpi", "50"]) == 0
    image = cv2.imread(str(out))
    assert image.shape[:2] == (round(MAT_H_MM * 50 / 25.4), round(MAT_W_MM * 50 / 25.4))


def test_card_sized_tells_cards_from_slots_and_markers(mat_image):
    from vision.mat import CARD_H_MM, CARD_W_MM, card_sized_mm

    card = cv2.boxPoints(((200, 150), (CARD_W_MM, CARD_H_MM), 33.0))
    assert card_sized_mm(card)
    assert card_sized_mm(cv2.boxPoints(((200, 150), (CARD_W_MM * 1.1, CARD_H_MM * 0.92), 0)))
    slot = zone_corners_mm(ZONES[0])
    assert not card_sized_mm(slot)
    assert not card_sized_mm(cv2.boxPoints(((60, 60), (40, 40), 0.0)))  # a marker
    photo, truth = photograph(mat_image, TILTED)
    view = find_mat(photo)
    assert view.card_sized(to_px(truth, card))
    assert not view.card_sized(to_px(truth, slot))


def test_mat_found_through_blur_dim_light_and_glare(mat_image):
    photo, truth = photograph(mat_image, TILTED, seed=4)
    photo = cv2.GaussianBlur(photo, (0, 0), 1.2)
    ramp = np.linspace(0.45, 1.0, photo.shape[1], dtype=np.float32)[None, :, None]
    photo = (photo * ramp).astype(np.uint8)  # light from one side only
    glare = np.zeros(photo.shape[:2], np.float32)
    cv2.circle(glare, (330, 200), 90, 1.0, -1)
    glare = cv2.GaussianBlur(glare, (0, 0), 30)[:, :, None]
    photo = np.clip(photo + glare * 200, 0, 255).astype(np.uint8)
    view = find_mat(photo)
    assert view is not None and len(view.markers) >= 3
    back = view.image_to_mat(to_px(truth, [(120, 100), (300, 250)]))
    assert np.abs(back - [(120, 100), (300, 250)]).max() < 4.0


def test_a_slots_corner_marks_are_painted_out_and_a_card_over_them_kept(mat_image):
    """Enrolment looks again with the slot's marks painted in the mat's colour (a card laid
    touching them is outlined with them as one shape): the marks go, the other slot's stay,
    and the pixels of a card lying over a mark are not touched."""
    photo, truth = photograph(mat_image, TILTED)
    view = mat_from_markers(detect_markers(photo))
    zone = zone_named("a")
    # A dark card over half of the top arm of the top-left mark.
    card = np.round(to_px(truth, [(zone.x + 9, zone.y - 5), (zone.x + 60, zone.y - 5),
                                  (zone.x + 60, zone.y + 70), (zone.x + 9, zone.y + 70)]))
    cv2.fillConvexPoly(photo, card.astype(np.int32), (35, 30, 30))
    out = without_slot_marks(photo, view, "a")

    def along(slot):  # the pixels along the middle of each arm of the slot's marks
        pts = [np.float32(a) + t * (np.float32(b) - np.float32(a))
               for a, b in slot_marks_mm(zone_named(slot)) for t in np.linspace(0.1, 0.9, 9)]
        xy = np.round(to_px(truth, pts)).astype(int)
        inside = [cv2.pointPolygonTest(card.astype(np.float32), (float(x), float(y)), True) < -2
                  for x, y in xy]
        return xy[np.array(inside)]

    (mx, my), = np.round(to_px(truth, [(zone.x - 10, zone.y + 50)])).astype(int)
    mat_bgr = photo[my - 2:my + 3, mx - 2:mx + 3].reshape(-1, 3).mean(axis=0)
    a, b = along("a"), along("b")
    before = np.abs(photo[a[:, 1], a[:, 0]].astype(int) - mat_bgr).max(axis=1)
    after = np.abs(out[a[:, 1], a[:, 0]].astype(int) - mat_bgr).max(axis=1)
    assert np.median(before) > 60 and after.max() < 30, (before, after)
    assert np.array_equal(out[b[:, 1], b[:, 0]], photo[b[:, 1], b[:, 0]])  # slot B's kept
    mask = np.zeros(photo.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, card.astype(np.int32), 255)
    mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
    assert np.array_equal(out[mask > 0], photo[mask > 0])  # the card's pixels


def test_a_slots_marks_are_painted_out_of_a_part_of_the_picture_as_out_of_the_whole(
        mat_image):
    """The table paints the marks out of the part of the picture around the slots only:
    given where that part lies, the same pixels are painted as in the whole picture."""
    photo, _ = photograph(mat_image, TILTED)
    view = mat_from_markers(detect_markers(photo))
    x0, y0 = 40, 30
    part = np.ascontiguousarray(photo[y0:, x0:])
    for slot in ("a", "b"):
        whole = without_slot_marks(photo, view, slot)
        assert not np.array_equal(whole, photo)
        cut = paint_out_marks(part, slot_mark_pixels(view, slot, part.shape, origin=(x0, y0)))
        assert np.array_equal(cut, whole[y0:, x0:])


def test_painting_the_marks_of_a_slot_out_of_the_picture_changes_nothing(mat_image):
    """Only the right half of the mat in view (slot B): painting slot A's marks gives the
    picture back as it was, as a copy."""
    photo, truth = photograph(mat_image, TILTED)
    view = mat_from_markers(detect_markers(photo))
    right = np.ascontiguousarray(photo[:, 330:])
    to_mm = view.to_mm @ np.float64([[1, 0, 330], [0, 1, 0], [0, 0, 1]])  # x from 330 on
    shifted = type(view)(to_mm, np.linalg.inv(to_mm), view.markers, view.error_mm)
    assert view.mat_to_image(zone_corners_mm(zone_named("a")))[:, 0].max() < 330
    out = without_slot_marks(right, shifted, "a")
    assert out is not right and np.array_equal(out, right)


def test_a_card_with_one_side_long_is_card_sized_on_average_but_misfits():
    """A card outlined with a corner mark beside it: one long side a fifth longer. Its
    sides measure a card on average, but not each."""
    card = np.float64([(0, 0), (63, 0), (63, 88), (0, 88)])
    assert card_misfit_mm(card) == pytest.approx(0.0)
    assert card_misfit_mm(np.roll(card, 1, axis=0)) == pytest.approx(0.0)  # another start
    skewed = np.float64([(0, 0), (63, 0), (63, 88), (0, 88 * 1.2)])
    assert card_sized_mm(skewed) and card_misfit_mm(skewed) == pytest.approx(0.2, abs=0.01)
