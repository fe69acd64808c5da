"""Enrolment: guided capture of card references from the camera."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from table_scenes import CARD_COLOURS, Table, find_coloured_cards, slot_centre

from vision.enroll import (
    EnrollError,
    alike_pairs,
    cards_and_blocks,
    check_labels,
    check_out,
    enroll,
    find_in_slot,
    pick_card,
    warp_card,
)
from vision.mat import detect_markers, mat_from_markers
from vision.sources import open_source


def folder_camera(tmp_path, frames):
    folder = tmp_path / "frames"
    folder.mkdir(parents=True)
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), frame.image)
    return open_source({"kind": "folder", "path": str(folder)})


def scripted(*answers):
    it = iter(answers)
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return next(it)

    ask.prompts = prompts
    return ask


def test_each_card_is_cut_out_straightened_and_saved(tmp_path):
    table = Table()
    source = folder_camera(tmp_path, [
        table.frame([("vampire", slot_centre("a"), 20.0)]),
        table.frame([("ghost", slot_centre("a"), -5.0), ("vampire", slot_centre("b"), 0.0)]),
    ])
    said = []
    ask = scripted("", "")
    result = enroll(source, tmp_path / "refs", ["vampire", "ghost"], find_cards=find_coloured_cards,
                    ask=ask, say=said.append, flush=0)
    assert ask.prompts[0].startswith("Lay the Vampire card face up in slot A, then press Enter")
    assert sorted(result.saved) == ["ghost", "vampire"] and not result.skipped
    for label in ("vampire", "ghost"):
        path = tmp_path / "refs" / label / f"{label}-1.png"
        assert result.saved[label] == [path]
        image = cv2.imread(str(path))
        assert image.shape == (440, 315, 3)  # portrait
        inner = image[40:-40, 40:-40].reshape(-1, 3).astype(int)
        # the saved picture is the card (the one in slot A), not the mat around it
        assert np.abs(inner - CARD_COLOURS[label]).max(axis=1).mean() < 15
    assert said[-1].startswith("Saved Ghost:")


def test_no_card_in_the_slot_asks_again_then_skips(tmp_path):
    table = Table()
    source = folder_camera(tmp_path, [table.frame()] * 3 + [table.frame(
        [("ghost", slot_centre("b"), 0.0)])])
    said = []
    result = enroll(source, tmp_path / "refs", ["vampire", "ghost"], find_cards=find_coloured_cards,
                    ask=scripted("", "", "", "s"), say=said.append, flush=0, attempts=3)
    assert "I cannot see one card in slot A." in said[0]
    assert said[3] == "Skipping Vampire after 3 tries."
    assert result.skipped == ["vampire", "ghost"] and result.saved == {}
    assert not (tmp_path / "refs" / "vampire").exists()


@pytest.mark.parametrize("card_mm, said_first, advice", [
    ((89, 124), "The card in slot A looks 1.4 times as large as a card on this mat should: the "
                "mat was printed at another size.", "A3"),
    ((44, 62), "I cannot see one card in slot A: what lies there measures 0.7 times a card on "
               "this mat.", "smaller than the 63 x 88 mm cards it is made for"),
])
def test_a_card_of_another_size_than_the_mat_expects_is_said_to_misfit(tmp_path, card_mm,
                                                                       said_first, advice):
    """A mat fitted to an A4 page: the card in slot A measures 1.41 times a card on it (mini
    cards on the A3 mat: 0.7 times). Told "I cannot see one card" alone, staff would lay it
    again and again; they are told what the size means."""
    table = Table()
    source = folder_camera(tmp_path, [table.frame([("vampire", slot_centre("a"), 0.0)],
                                                  card_mm=card_mm)])
    said = []
    result = enroll(source, tmp_path / "refs", ["vampire"], find_cards=find_coloured_cards,
                    ask=scripted(""), say=said.append, flush=0, attempts=1)
    assert said[0].startswith(said_first), said
    assert advice in said[0] and result.saved == {}


def test_the_slots_own_outline_is_no_card_of_another_size(tmp_path):
    """An empty slot whose printed outline is found: no card, not a mat printed otherwise."""
    from vision.mat import zone_corners_mm, zone_named

    table = Table()
    outline = table.px(zone_corners_mm(zone_named("a")))
    source = folder_camera(tmp_path, [table.frame()])
    said = []
    enroll(source, tmp_path / "refs", ["vampire"], find_cards=lambda image: [outline],
           ask=scripted(""), say=said.append, flush=0, attempts=1)
    assert "I cannot see one card in slot A." in said[0], said


def test_an_outline_found_outside_the_empty_slot_is_no_card_of_another_size(tmp_path):
    """Slot A empty, and the one outline found is a corner square (the only quad in view is
    taken when none lies in the slot): no card is there, so no word of the mat's size."""
    from vision.mat import marker_corners_mm

    table = Table()
    square = table.px(marker_corners_mm(0))
    source = folder_camera(tmp_path, [table.frame()])
    said = []
    enroll(source, tmp_path / "refs", ["vampire"], find_cards=lambda image: [square],
           ask=scripted(""), say=said.append, flush=0, attempts=1)
    assert "I cannot see one card in slot A." in said[0], said


def test_a_reference_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """Written to a file beside it, then put in place in one step: a power cut (here, the
    step failing) leaves no half-written picture, only a message."""
    import os

    table = Table()
    frames = [table.frame([("vampire", slot_centre("a"), 0.0)])]
    source = folder_camera(tmp_path, frames)
    enroll(source, tmp_path / "refs", ["vampire"], find_cards=find_coloured_cards,
           ask=scripted(""), say=[].append, flush=0)
    assert sorted(p.name for p in (tmp_path / "refs" / "vampire").iterdir()) == ["vampire-1.png"]

    def cut(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", cut)
    source = folder_camera(tmp_path / "again", frames)
    with pytest.raises(EnrollError, match="No space left on device"):
        enroll(source, tmp_path / "refs", ["vampire"], find_cards=find_coloured_cards,
               ask=scripted(""), say=[].append, flush=0)
    assert sorted(p.name for p in (tmp_path / "refs" / "vampire").iterdir()) == ["vampire-1.png"]


def test_wrong_keys_are_explained_and_q_stops(tmp_path):
    table = Table()
    source = folder_camera(tmp_path, [table.frame([("vampire", slot_centre("a"), 0.0)])])
    said = []
    result = enroll(source, tmp_path / "refs", ["vampire", "ghost"], find_cards=find_coloured_cards,
                    ask=scripted("x", "", "q"), say=said.append, flush=0)
    assert said[0] == ("'x' is not an answer here: press Enter to take the picture, s to skip "
                       "this card, q to stop.")
    assert list(result.saved) == ["vampire"] and result.stopped


def test_second_takes_are_numbered(tmp_path):
    table = Table()
    frame = table.frame([("vampire", slot_centre("a"), 0.0)])
    for take in range(2):
        source = folder_camera(tmp_path / str(take), [frame])
        enroll(source, tmp_path / "refs", ["vampire"], find_cards=find_coloured_cards,
               ask=scripted(""), say=lambda s: None, flush=0)
    assert sorted(p.name for p in (tmp_path / "refs" / "vampire").iterdir()) == [
        "vampire-1.png", "vampire-2.png"]


def test_no_camera_says_why(tmp_path):
    source = open_source({"kind": "folder", "path": str(tmp_path / "nowhere")})
    said = []
    result = enroll(source, tmp_path / "refs", ["vampire"], find_cards=find_coloured_cards,
                    ask=scripted("", ""), say=said.append, flush=0, timeout=0.05, attempts=2)
    assert said[0].startswith("No picture from the camera: The picture folder")
    assert result.skipped == ["vampire"]


@pytest.mark.parametrize("labels, words", [
    (["Ghost"], "lower-case"), (["a b"], "lower-case"), (["cook", "cook"], "twice"),
    ([], "no card names"), (["../x"], "lower-case")])
def test_bad_labels_are_refused(labels, words):
    with pytest.raises(EnrollError, match=words):
        check_labels(labels)


def test_warp_card_is_portrait_and_not_mirrored():
    image = np.zeros((300, 300, 3), np.uint8)
    image[100:160, 50:250] = (255, 255, 255)  # a landscape card ...
    image[100:120, 50:70] = (0, 0, 255)  # ... with a red mark in its top-left corner
    for corners in ([(50, 100), (250, 100), (250, 160), (50, 160)],
                    [(50, 160), (250, 160), (250, 100), (50, 100)]):  # either winding
        card = warp_card(image, np.float32(corners), size=(60, 200))
        assert card.shape == (200, 60, 3)
        red = np.argwhere((card[:, :, 2] > 200) & (card[:, :, 0] < 50))
        assert len(red) > 50
        # turned a quarter, the mark is still in a corner, and the card is not mirrored:
        # top-left goes to top-right (clockwise turn) or bottom-left
        cy, cx = red.mean(axis=0)
        assert (cy < 40 and cx > 30) or (cy > 160 and cx < 30)


def test_pick_card_wants_exactly_one_candidate():
    table = Table()
    from vision.mat import find_mat

    frame = table.frame([("vampire", slot_centre("a"), 0), ("ghost", slot_centre("b"), 0)])
    view = find_mat(frame.image)
    cards = find_coloured_cards(frame.image)
    assert pick_card(cards, view) is not None
    assert pick_card(cards, None) is None  # two cards and no mat: which one?
    assert pick_card(cards[:1], None) is not None


def test_alike_pairs_are_plain_tuples():
    class R:
        def confusable_pairs(self):
            return [("ghost", "cook", 0.9), ("cook", "butler", 0.97)]

    assert alike_pairs(R()) == [("ghost", "cook", 0.9), ("cook", "butler", 0.97)]


def _dark_card(art):
    """A card unlike ours: black, with a light square picture."""
    face = np.full((616, 441, 3), 30, np.uint8)
    face[108:508, 20:420] = cv2.resize(art, (400, 400), interpolation=cv2.INTER_AREA)
    return face


def _laid(table, face, centre_mm, turn=0.0):
    """The table's picture with ``face`` lying at ``centre_mm`` (a 63 x 88 mm card)."""
    from vision.detect import order_corners

    image = table.base.copy()
    h, w = face.shape[:2]
    quad = order_corners(table.px(cv2.boxPoints((centre_mm, (63, 88), turn))))
    hom = cv2.getPerspectiveTransform(np.float32([(0, 0), (w, 0), (w, h), (0, h)]), quad)
    warped = cv2.warpPerspective(face, hom, (640, 480), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), hom, (640, 480))
    image[mask > 127] = warped[mask > 127]
    return cv2.GaussianBlur(image, (0, 0), 0.6), quad


def test_a_dark_card_laid_against_the_slots_corner_marks_is_enrolled(tmp_path):
    """Laid 6 mm to the left, the black card touches slot A's left corner marks, and its
    outline and theirs are one shape: it is looked for again with the marks painted out."""
    from vision.synthetic import load_deck

    face = _dark_card(load_deck()["ghost"])
    cx, cy = slot_centre("a")
    image, truth = _laid(Table(), face, (cx - 6, cy + 4))
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "000.png"), image)
    said = []
    result = enroll(open_source({"kind": "folder", "path": str(folder)}), tmp_path / "refs",
                    ["ghost"], find_cards=cards_and_blocks, ask=scripted(""), say=said.append,
                    flush=0, attempts=1)
    assert result.saved == {"ghost": [tmp_path / "refs" / "ghost" / "ghost-1.png"]}, said
    saved = cv2.imread(str(result.saved["ghost"][0]))
    expected = warp_card(image, truth)
    assert np.abs(saved.astype(int) - expected).mean() < 12  # cut along the card's own edge


def test_the_card_is_enrolled_not_the_picture_panel_found_on_it():
    """A card whose picture panel was found as a card: of the two outlines in the slot, the
    one of a card's size on the mat is the card."""

    table = Table()
    cx, cy = slot_centre("a")
    card = table.px(cv2.boxPoints(((cx, cy), (63, 88), 0)))
    panel = table.px(cv2.boxPoints(((cx, cy - 12), (55, 50), 0)))
    frame = table.px(cv2.boxPoints(((cx, cy), (57, 80), 0)))  # 0.91 times a card
    view = mat_from_markers(detect_markers(table.frame().image))
    assert view.card_sized(frame) and not view.card_sized(panel)
    assert np.array_equal(pick_card([panel, card], view, "a"), card)
    assert np.array_equal(pick_card([frame, panel, card], view, "a"), card)
    assert np.array_equal(pick_card([panel], view, "a"), panel)  # for the message to say
    beside = table.px(cv2.boxPoints(((cx + 5, cy), (63, 88), 0)))  # neither holds the other
    assert pick_card([card, beside], view, "a") is None


def test_a_picture_panel_alone_in_the_slot_is_no_mat_printed_at_another_size(tmp_path):
    """Only the picture on the card found (0.7 times a card): staff are asked to lay the
    card again first, and told what such a size means only if the card is that size."""
    table = Table()
    cx, cy = slot_centre("a")
    panel = table.px(cv2.boxPoints(((cx, cy - 12), (48, 60), 0)))
    source = folder_camera(tmp_path, [table.frame()])
    said = []
    enroll(source, tmp_path / "refs", ["vampire"], find_cards=lambda image: [panel],
           ask=scripted(""), say=said.append, flush=0, attempts=1)
    assert said[0].startswith("I cannot see one card in slot A: what lies there measures 0.7 "
                              "times a card on this mat. Lay the Vampire card flat"), said
    assert said[0].index("Lay the Vampire card") < said[0].index("If it is that size")


@pytest.mark.parametrize("seed", [21, 34])
def test_a_card_not_its_inner_frame_is_enrolled_from_the_mat(tmp_path, seed):
    """Trading-card-like cards with a dark border: touching the corner marks, a card's own
    outline does not show, while its inner frame (about 0.9 times a card, within a card's
    size on the mat) does. The card is looked for again with the marks painted out, and it,
    not its frame, is saved."""
    from vision.detect import quad_iou
    from vision.synthetic import mat_scene, panelled_deck

    deck = panelled_deck(20, border=(25, 25, 25))
    label = sorted(deck)[seed % 20]
    scene = mat_scene(deck, {"a": label}, rng=seed)
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "000.png"), scene.image)
    result = enroll(open_source({"kind": "folder", "path": str(folder)}), tmp_path / "refs",
                    [label], find_cards=cards_and_blocks, ask=scripted(""), say=[].append,
                    flush=0, attempts=1)
    saved = cv2.imread(str(result.saved[label][0]))
    truth = scene.cards[0].corners
    # Cut at the inner frame, the picture differs from the card's by 30 grey levels or more.
    assert np.abs(saved.astype(int) - warp_card(scene.image, truth)).mean() < 20
    view = mat_from_markers(detect_markers(scene.image))
    assert quad_iou(find_in_slot(scene.image, view, "a", cards_and_blocks), truth) > 0.95
    first = pick_card(cards_and_blocks(scene.image), view, "a")
    assert quad_iou(first, truth) < 0.9  # what the first look alone would have saved


def test_without_the_mat_in_view_the_only_outline_is_the_card():
    """No mat to paint the marks of: one outline is the card, two are not clear."""
    image = np.zeros((480, 640, 3), np.uint8)
    one = np.float32([(100, 100), (200, 100), (200, 240), (100, 240)])
    two = one + 250
    assert np.array_equal(find_in_slot(image, None, "a", lambda picture: [one]), one)
    assert find_in_slot(image, None, "a", lambda picture: [one, two]) is None


def test_the_tables_buttons_answer_enrolment(tmp_path):
    """With --buttons: OK takes the picture, a seat button is refused by its name, Back held
    stops; the questions say which buttons to press."""
    import queue

    from hardware.answers import TableAnswers
    from hardware.panel import ButtonEvent

    table = Table()
    source = folder_camera(tmp_path, [table.frame([("vampire", slot_centre("a"), 0.0)])])
    events, prompts = queue.Queue(), []
    presses = iter([ButtonEvent("seat3"), ButtonEvent("ok"), ButtonEvent("back", long=True)])

    def say_and_press(question):
        prompts.append(question)
        events.put(next(presses))

    said = []
    result = enroll(source, tmp_path / "refs", ["vampire", "ghost"],
                    find_cards=find_coloured_cards, flush=0, say=said.append, buttons=True,
                    ask=TableAnswers(events, keyboard=None, say=say_and_press).ask)
    assert prompts[0] == ("Lay the Vampire card face up in slot A, then press Enter or OK (s or "
                          "Back: skip this card, q or Back held: stop). ")
    assert said[0] == ("'Seat 3 button' is not an answer here: press Enter or OK to take the "
                       "picture, s or Back to skip this card, q or Back held to stop.")
    assert list(result.saved) == ["vampire"] and result.stopped and not result.skipped
    assert prompts[2].startswith("Lay the Ghost card")


def test_a_card_outlined_with_a_corner_mark_is_looked_for_again():
    """Laid on the slot's bottom-left corner mark, the card is outlined with it: of a card's
    size on the mat (1.04 times one), but one side a fifth too long. Looked for again with the
    marks painted out, the card's own outline is kept."""
    from vision.detect import quad_iou
    from vision.synthetic import load_deck, mat_scene

    scene = mat_scene(load_deck(), {"a": "ghost"}, rng=50123)
    view = mat_from_markers(detect_markers(scene.image))
    truth = scene.cards[0].corners
    first = pick_card(cards_and_blocks(scene.image), view, "a")
    assert view.card_sized(first) and quad_iou(first, truth) < 0.9
    assert quad_iou(find_in_slot(scene.image, view, "a", cards_and_blocks), truth) > 0.95


def test_a_card_outlined_with_what_touches_it_is_asked_for_again(tmp_path):
    """A card's size on the mat on average, but one side a fifth too long (the card with a
    corner mark, where no second look finds it alone): not saved, and staff are told what to
    do."""
    from vision.synthetic import load_deck, mat_scene

    scene = mat_scene(load_deck(), {"a": "living_armor"}, rng=50123)
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "000.png"), scene.image)
    said = []
    result = enroll(open_source({"kind": "folder", "path": str(folder)}), tmp_path / "refs",
                    ["living_armor"], find_cards=cards_and_blocks, ask=scripted(""),
                    say=said.append, flush=0, attempts=1)
    assert result.saved == {} and result.skipped == ["living_armor"]
    assert said[0] == ("The Living Armor card in slot A seems to touch something (a corner "
                       "mark, another card, a finger). Lay it inside the corner marks, touching "
                       "nothing, and try again.")


def test_a_recording_that_runs_out_stops_enrolment(tmp_path):
    """A folder of one picture given as the camera: the first card was enrolled, then each
    card after it was asked for three times over, "The recording has ended." each time."""
    table = Table()
    source = folder_camera(tmp_path, [table.frame([("vampire", slot_centre("a"), 0.0)])])
    said = []
    result = enroll(source, tmp_path / "refs", ["vampire", "ghost", "cook"],
                    find_cards=find_coloured_cards, ask=scripted("", "", ""), say=said.append,
                    flush=0)
    assert list(result.saved) == ["vampire"] and result.stopped
    assert said[-1] == "No picture from the camera: The recording has ended. Stopping."
    assert sum("No picture" in line for line in said) == 1


def test_a_camera_set_wrong_stops_enrolment_at_once(tmp_path):
    """A setting found wrong when the camera opens: asking again cannot mend it."""
    class Misconfigured:
        status = "misconfigured"
        message = "Camera setting problem: synthetic camera settings {'seed': 'abc'}."

        def wait_frame(self, timeout):
            return None

    said = []
    result = enroll(Misconfigured(), tmp_path / "refs", ["vampire", "ghost"],
                    find_cards=find_coloured_cards, ask=scripted("", ""), say=said.append,
                    flush=0)
    assert result.stopped and result.saved == {}
    assert said == ["No picture from the camera: Camera setting problem: synthetic camera "
                    "settings {'seed': 'abc'}. Stopping."]


def test_a_file_given_for_the_folder_is_said_to_be_one(tmp_path):
    (tmp_path / "scene.png").write_bytes(b"")
    with pytest.raises(EnrollError, match="'.*scene.png' is a file: give a folder"):
        enroll(None, tmp_path / "scene.png", ["vampire"], find_cards=find_coloured_cards)


def test_a_file_where_a_folder_on_the_way_should_be_is_named(tmp_path):
    """'notes/refs' with 'notes' a file was "cannot create the folder: Not a directory",
    after waiting for the camera; the command now refuses it before (check_out)."""
    (tmp_path / "notes").write_bytes(b"mine")
    with pytest.raises(EnrollError) as err:
        check_out(tmp_path / "notes" / "refs")
    assert str(err.value) == (f"{str(tmp_path / 'notes')!r} is a file, not a folder: give a "
                              "folder for the reference pictures")
    assert (tmp_path / "notes").read_bytes() == b"mine"


def test_a_folder_made_for_nothing_is_not_left_behind(tmp_path):
    """Stopped before a picture was saved (a recording run out, input closed), enrol left
    an empty reference folder behind; one that was there before stays."""
    class Ended:
        status = "ended"
        message = "The recording has ended."

        def wait_frame(self, timeout):
            return None

    for out in (tmp_path / "new" / "refs", tmp_path):
        result = enroll(Ended(), out, ["vampire"], find_cards=find_coloured_cards,
                        ask=scripted(""), say=lambda line: None, flush=0)
        assert result.stopped and not result.saved
    assert not (tmp_path / "new" / "refs").exists() and tmp_path.is_dir()
    assert not (tmp_path / "new").exists()  # the folder made above it too


def test_a_picture_out_of_focus_is_not_enrolled(tmp_path):
    table = Table()
    laid = table.frame([("ghost", slot_centre("a"), 0.0)])
    blurred = type(laid)(cv2.GaussianBlur(laid.image, (0, 0), 2.8), laid.t)
    source = folder_camera(tmp_path, [blurred, laid])
    said = []
    result = enroll(source, tmp_path / "refs", ["ghost"], find_cards=find_coloured_cards,
                    ask=scripted("", ""), say=said.append, flush=0)
    assert said[0].startswith("The picture is out of focus: the Ghost card would be read less "
                              "well later. Set the camera's focus")
    assert result.saved == {"ghost": [tmp_path / "refs" / "ghost" / "ghost-1.png"]}
    assert said[1] == f"Saved Ghost: {tmp_path / 'refs' / 'ghost' / 'ghost-1.png'}"
