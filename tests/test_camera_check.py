"""camera-check's look at one frame: the mat, the slots and the cards, in words and drawn."""

from __future__ import annotations

import cv2
import numpy as np
from table_scenes import ColourRecognizer, Table, find_coloured_cards, slot_centre

from vision import synthetic as S
from vision.camera_check import RED, SLOT_COLOUR, YELLOW, CheckReport, check_frame
from vision.detect import find_cards, quad_iou
from vision.mat import MARKERS, ZONES, MatView
from vision.tracking import MIN_CARD_PX, slot_looks


def test_mat_and_cards_in_plain_words():
    table = Table()
    frame = table.frame([("vampire", slot_centre("a"), 10.0), (None, slot_centre("b"), 0.0),
                         ("ghost", (80, 150), 0.0)])
    report = check_frame(frame.image, recognizer=ColourRecognizer())
    assert report.lines[0] == "Mat found: all four corner squares are in view."
    assert report.lines[1].startswith("3 cards: ")
    assert set(report.lines[1][len("3 cards: "):-1].split(", ")) == {
        "vampire in slot a", "a card I cannot read in slot b", "ghost outside the slots"}
    # the picture has things drawn on it, the frame itself is untouched
    assert report.picture.shape == frame.image.shape
    assert np.count_nonzero(np.any(report.picture != frame.image, axis=2)) > 2000


def test_cards_found_without_references():
    table = Table()
    frame = table.frame([("ghost", slot_centre("b"), 0.0)])
    report = check_frame(frame.image, find_cards=find_coloured_cards)
    assert report.lines[1] == "1 card: a card in slot b."
    empty = check_frame(table.frame().image, find_cards=find_coloured_cards)
    assert empty.lines[1] == "No cards in view."


def test_mat_partly_or_not_in_view():
    table = Table()
    image = table.frame().image
    corner = table.hom @ np.array([MARKERS[3][0] + 20, MARKERS[3][1] + 20, 1.0])
    x, y = (corner[:2] / corner[2]).astype(int)
    image[y - 40:y + 40, x - 40:x + 40] = 60  # something lying on the bottom-left corner
    report = check_frame(image)
    assert report.mat is not None
    assert report.lines[0].startswith("Mat found, but the bottom-left corner square is not")
    blank = np.full((480, 640, 3), 100, np.uint8)
    report = check_frame(blank, find_cards=find_coloured_cards)
    assert report.mat is None
    assert report.slots == [] and len(report.lines) == 2  # no slots to say anything about
    assert report.lines[0] == ("The mat's markers are not in view: none of the mat's four "
                               "corner squares is in view. Point the camera at the whole mat.")


def test_a_card_across_the_edge_of_the_part_around_the_slots_is_still_seen():
    # The table looks for cards only around the slots; camera-check also says what lies
    # elsewhere, even a card the edge of that part cuts through.
    table = Table()
    # Cut by the edge, or just inside it (within the pixels where the part's edge cuts).
    for x in (50.0, 68.0, 68.5, 69.0):
        frame = table.frame([("vampire", slot_centre("a"), 0.0), ("ghost", (x, 150), 0.0)])
        report = check_frame(frame.image, recognizer=ColourRecognizer())
        assert set(report.lines[1][len("2 cards: "):-1].split(", ")) == {
            "vampire in slot a", "ghost outside the slots"}, x


def _mat_picture(size=(640, 480), tilt=0.12, margin=0.04):
    deck = S.load_deck()
    return S.mat_scene(deck, {"a": "ghost", "b": "cook"}, size=size, tilt=tilt, rng=3,
                       margin=margin)


def _found(scene) -> int:
    """How many of the scene's cards finding finds."""
    cards = find_cards(scene.image)
    return sum(max((quad_iou(c.corners, q) for q in cards), default=0.0) > 0.7
               for c in scene.cards)


def test_a_camera_above_the_mat_sees_cards_in_the_slots_clearly():
    scene = _mat_picture()
    report = check_frame(scene.image, find_cards=find_cards)
    assert [look.zone for look in report.slots] == ["a", "b"]
    assert not any(look.poor for look in report.slots)
    px = round(min(look.card_px for look in report.slots))
    assert 70 <= px <= 100  # a card 63 mm wide on a 420 mm mat about 600 pixels across
    assert report.lines[2] == f"A card in a slot looks {px} pixels wide: clear enough to read."
    assert _found(scene) == 2


def test_a_large_picture_is_judged_at_the_size_finding_works_at():
    # 1280 x 960, the mat in the middle half: finding looks only around the slots, at the
    # picture's own scale, where a card is about 78 pixels wide.
    scene = _mat_picture(size=(1280, 960), margin=0.3)
    report = check_frame(scene.image, find_cards=find_cards)
    assert not any(look.poor for look in report.slots)
    # The cards are looked for there as the table does (the whole picture would be shrunk).
    assert report.lines[1] == "2 cards: a card in slot a, a card in slot b."
    assert 70 <= min(look.card_px for look in report.slots) <= 90
    # Twice as far: half the pixels, not enough.
    far = check_frame(_mat_picture(size=(1280, 960), margin=0.4).image, find_cards=find_cards)
    assert all(look.upright and not look.big_enough for look in far.slots)
    assert far.lines[2].startswith("A card in slot a or b would look only")


def test_a_camera_looking_from_the_side_is_told_to_move():
    scene = _mat_picture(tilt=0.5)
    report = check_frame(scene.image, find_cards=find_cards)
    assert report.mat is not None
    assert not any(look.upright for look in report.slots)
    assert report.lines[2] == ("A card in slot a or b may not be found: the camera sees the mat "
                               "too much from the side. Mount it more nearly straight above the "
                               "mat.")
    assert _found(scene) == 0  # as said: finding does not take them for cards
    # The slots are drawn in red.
    slot_a = report.mat.mat_to_image(np.float32([[ZONES[0].x, ZONES[0].y]]))[0]
    x, y = np.round(slot_a).astype(int)
    patch = report.picture[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3)
    assert any(tuple(int(v) for v in p) == RED for p in patch)


def test_a_card_squashed_until_it_looks_wider_than_tall_is_not_upright():
    # A camera seeing the mat so much from the side that a card's long side looks the shorter:
    # still card-proportioned, but it would be read turned a quarter.
    hm = np.diag([2.0, 1.1, 1.0])
    view = MatView(np.linalg.inv(hm), hm, (0, 1, 2, 3), 0.0)
    looks = slot_looks(view, (900, 400))
    assert all(look.big_enough and not look.upright for look in looks)
    straight = np.diag([1.5, 1.5, 1.0])
    view = MatView(np.linalg.inv(straight), straight, (0, 1, 2, 3), 0.0)
    assert not any(look.poor for look in slot_looks(view, (640, 480)))


def test_a_slot_out_of_the_picture_is_not_called_clear():
    # Two px a mm, shifted so that slot b lies beyond the picture's right edge.
    hm = np.float64([[2.0, 0.0, 200.0], [0.0, 2.0, -100.0], [0.0, 0.0, 1.0]])
    view = MatView(np.linalg.inv(hm), hm, (0, 3), 0.0)
    looks = slot_looks(view, (640, 480))
    assert [(look.zone, look.in_picture, look.poor) for look in looks] == [
        ("a", True, False), ("b", False, True)]
    report = CheckReport({}, view, [], False, np.zeros((480, 640, 3), np.uint8), looks)
    assert report.slots_line() == ("A card in slot b would be partly or wholly out of the "
                                   "picture: point the camera at the whole mat.")


def test_a_camera_too_far_away_is_told_to_come_closer():
    scene = _mat_picture(size=(280, 210))
    report = check_frame(scene.image, find_cards=find_cards)
    assert all(look.upright and not look.big_enough for look in report.slots)
    px = round(min(look.card_px for look in report.slots))
    assert px < MIN_CARD_PX
    assert report.lines[2] == (f"A card in slot a or b would look only {px} pixels wide "
                               f"({MIN_CARD_PX} or more reads well): bring the camera closer to "
                               "the mat, or give it a larger picture.")


def _drawn_at_slot_a(report, colour) -> bool:
    """Whether ``colour`` is drawn (give or take its smoothed edges) at slot a's first corner."""
    slot_a = report.mat.mat_to_image(np.float32([[ZONES[0].x, ZONES[0].y]]))[0]
    x, y = np.round(slot_a).astype(int)
    patch = report.picture[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3).astype(int)
    return bool((np.abs(patch - colour).max(axis=1) <= 12).any())


def test_a_slot_read_only_just_is_drawn_in_yellow():
    # At this size a card in a slot is read, but less than CLEAR_MARGIN over the least size.
    report = check_frame(_mat_picture(size=(468, 351)).image, find_cards=find_cards)
    assert not any(look.poor for look in report.slots)
    assert not any(look.clear for look in report.slots)
    assert _drawn_at_slot_a(report, YELLOW) and not _drawn_at_slot_a(report, RED)
    assert not _drawn_at_slot_a(report, SLOT_COLOUR)
    clear = check_frame(_mat_picture().image, find_cards=find_cards)
    assert _drawn_at_slot_a(clear, SLOT_COLOUR) and not _drawn_at_slot_a(clear, YELLOW)


def test_a_slot_read_only_just_is_said_so_and_the_camera_is_not_ready():
    """Past a bound but not clear of it: the table, once it has warned about the slot, keeps
    warning, so camera-check must say what to change rather than call it clear."""
    from vision.tracking import SlotLook

    just = SlotLook("a", MIN_CARD_PX + 0.5, True, True, True, clear=False)
    fine = SlotLook("b", 80.0, True, True, True)
    report = CheckReport({}, None, [], False, np.zeros((4, 4, 3), np.uint8), [just, fine])
    assert not just.poor
    assert report.slots_line() == (
        f"A card in slot a would be read, but only just ({MIN_CARD_PX} pixels wide): mount the "
        "camera a little closer to the mat and more nearly straight above it, or the table may "
        "warn about it.")
    report.slots[0] = SlotLook("a", 80.0, True, True, True)
    assert report.slots_line() == "A card in a slot looks 80 pixels wide: clear enough to read."


def test_cards_read_at_another_size_than_the_mat_gives_them_are_said_to_misfit():
    """A mat fitted to an A4 page: the cards lying in its slots measure 1.41 times a card on
    it, are no card to the table, and camera-check said only "No cards in view."."""
    from vision.mat import reprint_advice
    from vision.recognize import Recognizer
    from vision.scene import CardReader

    deck = S.load_deck()
    reader = CardReader(Recognizer({k: [v] for k, v in deck.items()}))
    lying = {"a": "ghost", "b": "vampire"}
    for scale in (1.41, 0.8):
        report = check_frame(S.mat_scene(deck, lying, card_scale=scale, rng=2).image,
                             recognizer=reader)
        assert report.misfit is not None and abs(report.misfit - scale) < 0.06, report.misfit
        assert report.lines[1].startswith(f"The cards in the slots look {scale:.1f} times as "
                                          "large as a card on this mat should")
        assert reprint_advice(scale) in report.lines[1] and "No cards" not in " ".join(report.lines)
    fine = check_frame(S.mat_scene(deck, lying, rng=2).image, recognizer=reader)
    assert fine.misfit is None and fine.lines[1] == "2 cards: ghost in slot a, vampire in slot b."


OUT_OF_FOCUS = "The picture is out of focus: cards in the slots may not be seen."


def test_a_picture_out_of_focus_is_told_to_be_focused():
    sharp = check_frame(_mat_picture().image, find_cards=find_cards)
    assert sharp.in_focus is True
    assert sharp.lines[-1] == "The picture is in focus."
    soft = check_frame(cv2.GaussianBlur(_mat_picture().image, (0, 0), 2.6),
                       find_cards=find_cards)
    assert soft.in_focus is False
    assert soft.lines[-1].startswith(OUT_OF_FOCUS)
    assert "lens_position" in soft.lines[-1]
    # Without the mat there is nothing to measure the focus by: nothing is said about it.
    blank = check_frame(np.full((480, 640, 3), 100, np.uint8), find_cards=find_cards)
    assert blank.blur is None and blank.in_focus is None
    assert not any("focus" in line for line in blank.lines)


def test_focus_is_judged_at_the_size_finding_works_at():
    # The same blur, 2.6 pixels: where finding shrinks the part around the slots (a camera
    # of 1280 x 960 close to the mat) it blurs less there than where it does not (the mat
    # in the middle half of the picture, looked at at the picture's own size).
    close = _mat_picture(size=(1280, 960)).image
    far = _mat_picture(size=(1280, 960), margin=0.3).image
    assert check_frame(cv2.GaussianBlur(close, (0, 0), 2.6), find_cards=find_cards).in_focus
    assert not check_frame(cv2.GaussianBlur(far, (0, 0), 2.6), find_cards=find_cards).in_focus


def test_focus_that_cannot_be_measured_is_not_said():
    # A room so dim (a quarter of the light) that the corner squares are found but their
    # edges are too faint to measure: nothing is said about the focus, nor held against it.
    dim = np.round(_mat_picture().image * np.float32(0.25)).astype(np.uint8)
    report = check_frame(dim, find_cards=find_cards)
    assert report.mat is not None
    assert report.blur is None and report.in_focus is None
    assert not any("focus" in line for line in report.lines)
