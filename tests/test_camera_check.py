"""camera-check's look at one frame: the mat, the slots and the cards, in words and drawn."""

from __future__ import annotations

import numpy as np
from table_scenes import ColourRecognizer, Table, find_coloured_cards, slot_centre

from vision.camera_check import check_frame
from vision.mat import MARKERS


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
    assert report.lines[0] == ("The mat's markers are not in view: none of the mat's four "
                               "corner squares is in view. Point the camera at the whole mat.")
