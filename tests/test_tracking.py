"""Reveal tracking: the pure slot logic, and frames through a recogniser to events."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_scenes import CARD_COLOURS, ColourRecognizer, Table, slot_centre

from vision.frames import Frame
from vision.tracking import (
    CardLaid,
    CardTaken,
    CardUnsure,
    RevealLogic,
    RevealTracker,
    ZoneReading,
)

VAMPIRE = ZoneReading("vampire", 0.9)
GHOST = ZoneReading("ghost", 0.8)
UNREADABLE = ZoneReading(None, 0.2)


def run(logic, frames):
    events = []
    for readings in frames:
        events.extend(logic.feed(readings))
    return events


# ------------------------------------------------------------------ pure logic


def test_a_card_counts_once_stable_and_is_reported_once():
    logic = RevealLogic(stable_frames=3)
    assert logic.feed({"a": VAMPIRE}) == []
    assert logic.feed({"a": VAMPIRE}) == []
    assert logic.feed({"a": VAMPIRE}) == [CardLaid("vampire", "a", 0.9)]
    assert run(logic, [{"a": VAMPIRE}] * 20) == []
    assert logic.lying == {"a": "vampire"}


def test_score_is_the_weakest_of_the_frames_that_made_it_count():
    logic = RevealLogic(stable_frames=3)
    events = run(logic, [{"b": ZoneReading("ghost", s)} for s in (0.9, 0.7, 0.8)])
    assert events == [CardLaid("ghost", "b", 0.7)]


def test_an_idle_table_looked_at_for_days_keeps_no_more_scores_than_it_reads():
    """Each look at a slot that did not change added a score, until a card was laid or
    taken: about 260,000 a slot for each idle day (3 looks a second)."""
    logic = RevealLogic(stable_frames=3)
    assert run(logic, [{}] * 5000 + [{"a": ZoneReading("vampire", s)} for s in (0.9, 0.7, 0.8)]
               + [{"a": VAMPIRE}] * 5000) == [CardLaid("vampire", "a", 0.7)]
    assert all(len(slot.scores) <= 6 for slot in logic._slots.values())


def test_a_hand_passing_gives_no_events():
    logic = RevealLogic(stable_frames=3, taken_frames=5)
    run(logic, [{"a": VAMPIRE}] * 3)
    # the hand hides the card (nothing read), then makes it unreadable, then goes
    frames = [{}] * 4 + [{"a": UNREADABLE}] * 4 + [{"a": VAMPIRE}] * 10
    assert run(logic, frames) == []
    # before the card was counted: a flicker of readings gives nothing either
    logic2 = RevealLogic(stable_frames=3)
    assert run(logic2, [{"b": GHOST}, {"b": GHOST}, {}, {"b": GHOST}, {"b": GHOST}, {}]) == []


def test_a_card_taken_away():
    logic = RevealLogic(stable_frames=2, taken_frames=4)
    run(logic, [{"a": VAMPIRE}] * 2)
    assert run(logic, [{}] * 3) == []
    assert logic.feed({}) == [CardTaken("vampire", "a")]
    assert logic.lying == {}
    assert run(logic, [{}] * 10) == []


def test_a_card_swapped_for_another():
    logic = RevealLogic(stable_frames=2)
    run(logic, [{"a": VAMPIRE}] * 2)
    assert run(logic, [{"a": GHOST}] * 2) == [CardTaken("vampire", "a"),
                                              CardLaid("ghost", "a", 0.8)]


def test_two_slots_are_independent():
    logic = RevealLogic(stable_frames=2)
    events = run(logic, [{"a": VAMPIRE}, {"a": VAMPIRE, "b": GHOST}, {"a": VAMPIRE, "b": GHOST}])
    assert events == [CardLaid("vampire", "a", 0.9), CardLaid("ghost", "b", 0.8)]
    assert logic.lying == {"a": "vampire", "b": "ghost"}


def test_an_unreadable_card_asks_once_then_resolves():
    logic = RevealLogic(stable_frames=2, unsure_frames=3, taken_frames=3)
    assert run(logic, [{"b": UNREADABLE}] * 2) == []
    assert logic.feed({"b": UNREADABLE}) == [CardUnsure("b")]
    assert run(logic, [{"b": UNREADABLE}] * 10) == []
    assert logic.lying == {"b": None}
    # once the card can be read after all (the glare went), it is laid
    assert run(logic, [{"b": GHOST}] * 2) == [CardLaid("ghost", "b", 0.8)]
    # an unreadable card taken away
    logic2 = RevealLogic(stable_frames=1, unsure_frames=1, taken_frames=2)
    run(logic2, [{"a": UNREADABLE}])
    assert run(logic2, [{}, {}]) == [CardTaken(None, "a")]


def test_a_laid_card_that_turns_unreadable_for_long_asks_again():
    logic = RevealLogic(stable_frames=2, taken_frames=4)
    run(logic, [{"a": VAMPIRE}] * 2)
    assert run(logic, [{"a": UNREADABLE}] * 4) == [CardTaken("vampire", "a"), CardUnsure("a")]


def test_the_players_choice_for_an_unread_card_is_kept():
    logic = RevealLogic(stable_frames=2, unsure_frames=2)
    assert run(logic, [{"b": UNREADABLE}] * 2) == [CardUnsure("b")]
    logic.assume("b", "ghost")  # picked in the card picker
    assert logic.lying == {"b": "ghost"}
    # the card becomes readable as what was picked: nothing new
    assert run(logic, [{"b": UNREADABLE}] * 20 + [{"b": GHOST}] * 5) == []
    # read clearly as another card: reported as a swap, never changed silently
    assert run(logic, [{"b": VAMPIRE}] * 2) == [CardTaken("ghost", "b"),
                                                CardLaid("vampire", "b", 0.9)]
    # and once taken, an unreadable card there asks again
    assert run(logic, [{}] * 4 + [{"b": UNREADABLE}] * 2) == [CardTaken("vampire", "b"),
                                                              CardUnsure("b")]


def test_resuming_with_cards_already_lying():
    logic = RevealLogic(stable_frames=2, taken_frames=2, lying={"a": "vampire"})
    assert run(logic, [{"a": VAMPIRE}] * 5) == []
    assert run(logic, [{}] * 2) == [CardTaken("vampire", "a")]
    logic.forget("a")
    with pytest.raises(ValueError, match="'z'"):
        logic.assume("z", "ghost")
    with pytest.raises(ValueError, match="'z'"):
        RevealLogic(lying={"z": "ghost"})


def test_reset_forgets_the_table():
    logic = RevealLogic(stable_frames=1)
    run(logic, [{"a": VAMPIRE}])
    logic.reset()
    assert logic.lying == {}
    assert logic.feed({"a": VAMPIRE}) == [CardLaid("vampire", "a", 0.9)]


@pytest.mark.parametrize("kwargs, words", [
    ({"stable_frames": 0}, "stable_frames = 0"),
    ({"taken_frames": 2.5}, "taken_frames = 2.5"),
    ({"unsure_frames": -1}, "unsure_frames = -1"),
])
def test_bad_settings_are_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        RevealLogic(**kwargs)


def test_a_reading_for_an_unknown_slot_is_refused_and_changes_nothing():
    logic = RevealLogic(stable_frames=1)
    with pytest.raises(ValueError, match="'c'"):
        logic.feed({"a": VAMPIRE, "c": GHOST})
    assert logic.lying == {}
    assert logic.feed({"a": VAMPIRE}) == [CardLaid("vampire", "a", 0.9)]


readings = st.sampled_from([None, VAMPIRE, GHOST, UNREADABLE])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.fixed_dictionaries({"a": readings, "b": readings}), max_size=40),
       st.integers(1, 4))
def test_events_always_tell_a_consistent_story(frames, stable):
    """Whatever the camera reads: no card is laid twice without being taken between,
    nothing is taken that was not there, and the events replay to `lying`."""
    logic = RevealLogic(stable_frames=stable)
    lying: dict[str, str | None] = {}
    for readings_ in frames:
        for event in logic.feed({k: v for k, v in readings_.items() if v is not None}):
            if isinstance(event, CardTaken):
                assert event.zone in lying and lying.pop(event.zone) == event.label
            else:
                assert event.zone not in lying or lying[event.zone] is None
                lying[event.zone] = event.label if isinstance(event, CardLaid) else None
    assert lying == logic.lying


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.lists(readings, min_size=1, max_size=12))
def test_flicker_shorter_than_stable_frames_gives_nothing(stable, noise):
    logic = RevealLogic(stable_frames=stable, taken_frames=stable + 1, unsure_frames=stable)
    run(logic, [{"a": VAMPIRE}] * stable)
    # bursts shorter than `stable` frames of anything, separated by the true card
    for r in noise:
        burst = [{"a": r} if r is not None else {}] * (stable - 1)
        assert run(logic, burst + [{"a": VAMPIRE}]) == []


# ------------------------------------------------------------------ frames through a recogniser

def test_frames_to_events_with_a_tilted_camera():
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=3)
    events = []
    for _ in range(3):
        events += tracker.feed(table.frame())
    assert events == [] and tracker.mat is not None and tracker.mat.markers == (0, 1, 2, 3)
    vampire_in_a = ("vampire", slot_centre("a"), 15.0)
    ghost_in_b = ("ghost", slot_centre("b"), -8.0)
    for _ in range(5):
        events += tracker.feed(table.frame([vampire_in_a]))
    assert events == [CardLaid("vampire", "a", 0.9)]
    for _ in range(5):
        events += tracker.feed(table.frame([vampire_in_a, ghost_in_b]))
    assert events[1:] == [CardLaid("ghost", "b", 0.9)]
    for _ in range(8):
        events += tracker.feed(table.frame([ghost_in_b]))
    assert events[2:] == [CardTaken("vampire", "a")]
    assert tracker.lying == {"b": "ghost"}


def test_a_card_outside_the_slots_is_ignored():
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    events = []
    for _ in range(6):
        events += tracker.feed(table.frame([("ghost", (90, 150), 0.0)]))
    assert events == []
    assert [p.zone for p in tracker.placed] == [None]


def test_a_frame_in_which_nothing_moved_skips_recognition():
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=3)
    card = [("vampire", slot_centre("a"), 0.0)]
    events = tracker.feed(table.frame(card))
    assert rec.calls == 1
    for _ in range(4):  # same scene, fresh sensor noise: not examined again
        events += tracker.feed(table.frame(card))
    assert rec.calls == 1 and tracker.skipped == 4
    assert events == [CardLaid("vampire", "a", 0.9)]  # repeats still count towards stable
    tracker.feed(table.frame(card, hand=(320, 240)))
    assert rec.calls == 2 and tracker.examined == 2


def test_a_still_picture_from_a_camera_at_high_gain_is_not_examined_again():
    """A camera at high gain in a dim room: sensor noise of 8 grey levels. A picture in which
    nothing moved is still skipped, and a hand is still seen."""
    table, rec = Table(noise=8.0), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=3)
    card = [("vampire", slot_centre("a"), 0.0)]
    for _ in range(8):
        tracker.feed(table.frame(card))
    assert rec.calls == 1 and tracker.skipped == 7
    tracker.feed(table.frame(card, hand=(320, 240), hand_size=(35, 22)))
    assert rec.calls == 2


def test_a_camera_back_at_another_size_has_the_mat_looked_for_at_once():
    """A webcam plugged in again comes back at its own default size: where the mat lay in the
    old pictures says nothing of the new ones. The mat is looked for in the first picture of
    the new size, not two seconds later, and a card laid meanwhile lands in its own slot."""
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    vampire = ("vampire", slot_centre("a"), 0.0)
    events = []
    for _ in range(3):
        events += tracker.feed(table.frame([vampire]))
    assert events == [CardLaid("vampire", "a", 0.9)]
    for _ in range(3):
        frame = table.frame([vampire, ("ghost", slot_centre("b"), 0.0)])
        big = cv2.resize(frame.image, (1280, 960), interpolation=cv2.INTER_NEAREST)
        events += tracker.feed(Frame(big, frame.t))
    assert events[1:] == [CardLaid("ghost", "b", 0.9)]
    assert tracker.lying == {"a": "vampire", "b": "ghost"}


def test_a_look_at_the_mat_that_fails_is_tried_again_though_the_picture_stays_still():
    """The first look at pictures of a new size fails (a hand over the squares, a picture
    still settling). The picture then stays still: the mat is looked for again every
    mat_every seconds, not only once something moves, and the card laid is read."""
    from vision.mat import detect_markers

    table, rec = Table(), ColourRecognizer()
    failing = {"once": True}

    def find(image):
        if image.shape[1] == 1280 and failing.pop("once", False):
            return {}
        return detect_markers(image)

    tracker = RevealTracker(rec, stable_frames=2, find_markers=find)
    vampire, ghost = ("vampire", slot_centre("a"), 0.0), ("ghost", slot_centre("b"), 0.0)
    for _ in range(3):
        tracker.feed(table.frame([vampire]))
    events = []
    for _ in range(45):  # three seconds
        frame = table.frame([vampire, ghost])
        big = cv2.resize(frame.image, (1280, 960), interpolation=cv2.INTER_NEAREST)
        events += tracker.feed(Frame(big, frame.t))
    assert tracker.mat is not None and events == [CardLaid("ghost", "b", 0.9)]


def _counting_looks(tracker, record=lambda image: 1) -> list:
    """The tracker's looks for the mat from now on, each as ``record`` makes it."""
    looks = []
    find = tracker._find_markers
    tracker._find_markers = lambda image: looks.append(record(image)) or find(image)
    return looks


def test_a_still_picture_at_another_size_is_a_change():
    """640 x 480 and 1280 x 960 pictures give tiny copies of one size: the same still table
    at the new size was skipped as unchanged, and the mat's old view kept."""
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    card = [("vampire", slot_centre("a"), 0.0)]
    for _ in range(3):
        tracker.feed(table.frame(card))
    looks = _counting_looks(tracker, lambda image: image.shape)
    frame = table.frame(card)
    tracker.feed(Frame(cv2.resize(frame.image, (1280, 960), interpolation=cv2.INTER_NEAREST),
                       frame.t))
    assert looks == [(960, 1280, 3)] and tracker.examined == 2
    assert tracker.lying == {"a": "vampire"}


def test_a_still_picture_without_the_mat_is_looked_at_every_few_seconds_not_every_frame():
    """The mat never found, the picture still: a look (milliseconds on a Pi) every mat_every
    seconds, not on every frame."""
    table = Table()
    looks = []
    tracker = RevealTracker(ColourRecognizer(), mat_every=2.0,
                            find_markers=lambda image: looks.append(1) or {})
    still = table.frame().image
    for i in range(150):  # ten seconds at 15 frames a second
        tracker.feed(Frame(still, i / 15))
    assert 4 <= len(looks) <= 6, len(looks)


def test_three_corner_squares_covered_pause_the_reading_and_lose_no_card():
    """Hands over three of the four corner squares: the mat may have moved and is not found
    again, so no card is read through its old view (the card lying there is not taken either);
    once the squares show again, reading goes on with the same view."""
    from vision.mat import MARKERS, marker_corners_mm

    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    card = [("vampire", slot_centre("a"), 0.0)]
    events = []
    for _ in range(3):
        events += tracker.feed(table.frame(card))
    assert events == [CardLaid("vampire", "a", 0.9)]
    view = tracker.mat
    middles = table.px([marker_corners_mm(i).mean(axis=0) for i in sorted(MARKERS)[:3]])
    seen = []
    for _ in range(40):  # under three seconds
        frame = table.frame(card)
        for x, y in middles:
            cv2.circle(frame.image, (int(x), int(y)), 45, (120, 150, 200), -1)
        events += tracker.feed(frame)
        seen.append(tracker.sees_mat)
    assert tracker.mat is view and "look moved or covered" in tracker.message
    assert tracker.placed == [] and events == [CardLaid("vampire", "a", 0.9)]
    # Said to the screen only once the doubt has lasted mat_every seconds (a hand passes).
    assert seen[:25] == [True] * 25 and seen[-5:] == [False] * 5
    for _ in range(3):
        events += tracker.feed(table.frame(card))
    assert tracker.mat is not None and [p.zone for p in tracker.placed] == ["a"]
    assert events == [CardLaid("vampire", "a", 0.9)] and tracker.lying == {"a": "vampire"}
    assert tracker.sees_mat


def _spoiled_squares(tracker, image, n=2):
    """``image`` with the four most contrasted tiny pixels of ``n`` tracked corner squares
    inverted (8 x 8 pixels each at 640 x 480): their pattern changes, the picture hardly."""
    small = tracker._small(image)
    out = image.copy()
    for (x0, y0, x1, y1), _ in tracker._anchors[:n]:
        sub = small[y0:y1, x0:x1].astype(float)
        for i in np.argsort(-np.abs(sub - sub.mean()).ravel())[:4]:
            yy, xx = divmod(int(i), x1 - x0)
            x, y = (x0 + xx) * 8, (y0 + yy) * 8
            out[y:y + 8, x:x + 8] = 255 - out[y:y + 8, x:x + 8]
    return out


def test_a_view_in_doubt_feeds_no_reading_from_a_still_picture():
    """Two squares changed in a picture judged still, the mat not found again: the readings
    taken before the doubt are not fed to the slots either (they made a card laid)."""
    from vision.mat import detect_markers

    table = Table(noise=0)
    failing = {"on": False}
    tracker = RevealTracker(ColourRecognizer(), stable_frames=3, find_markers=lambda image:
                            {} if failing["on"] else detect_markers(image))
    tracker.feed(table.frame())
    laid = table.frame([("vampire", slot_centre("a"), 0.0)])
    events = tracker.feed(laid)
    spoiled = _spoiled_squares(tracker, laid.image)
    assert not tracker.changed(tracker._small(spoiled))
    failing["on"] = True
    for i in range(6):
        events += tracker.feed(Frame(spoiled, laid.t + (i + 1) / 15))
    assert tracker._doubt and events == [] and tracker.placed == []


def test_squares_shown_again_in_a_still_picture_have_it_read():
    """In doubt, a card is laid; then the squares look as they did in pictures judged still,
    and a look there fails (glare): the picture is read all the same, with the kept view."""
    from vision.mat import detect_markers

    table = Table(noise=0)
    failing = {"on": False}
    tracker = RevealTracker(ColourRecognizer(), stable_frames=3, find_markers=lambda image:
                            {} if failing["on"] else detect_markers(image))
    tracker.feed(Frame(table.frame().image, 0.0))
    failing["on"] = True
    laid = table.frame([("vampire", slot_centre("a"), 0.0)])
    events = tracker.feed(Frame(_spoiled_squares(tracker, laid.image), 3.0))
    assert tracker._doubt and events == []
    for i in range(1, 60):
        events += tracker.feed(Frame(laid.image, 3.0 + i / 15))
    assert not tracker._doubt and events == [CardLaid("vampire", "a", 0.9)]


def test_a_doubt_long_after_the_last_one_is_not_warned_of_at_once():
    """A doubt that passed, then a quiet minute, then squares covered again: the new doubt
    gets its own mat_every seconds before the screen is told (an arm passing is no fault)."""
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    clean = table.frame()
    tracker.feed(Frame(clean.image, 0.0))
    covered = _spoiled_squares(tracker, clean.image, n=4)
    failing = {"on": True}
    find = tracker._find_markers
    tracker._find_markers = lambda image: {} if failing["on"] else find(image)
    tracker.feed(Frame(covered, 0.1))
    assert tracker._doubt
    tracker.feed(Frame(clean.image, 0.2))  # the squares look as they did: the doubt passes
    assert not tracker._doubt and tracker.sees_mat
    tracker.feed(Frame(covered, 60.0))  # a minute later, covered again
    assert tracker._doubt and tracker.sees_mat  # not warned of yet
    tracker.feed(Frame(covered, 63.0))
    assert not tracker.sees_mat


def test_a_camera_knocked_aside_places_no_card_in_the_wrong_slot():
    """The camera is knocked sideways: slot B now lies where slot A was. Through the old view
    of the mat, a card laid in B was placed in A, and reported there, until the next look
    two seconds later. The mat's corner squares moved: the mat is looked for at once."""
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    for _ in range(2):
        tracker.feed(table.frame())
    assert tracker.mat is not None
    a, b = table.px([slot_centre("a"), slot_centre("b")])
    shift = np.float32([[1, 0, a[0] - b[0]], [0, 1, a[1] - b[1]]])
    events = []
    for _ in range(4):
        frame = table.frame([("ghost", slot_centre("b"), 0.0)])
        knocked = cv2.warpAffine(frame.image, shift, (640, 480), borderValue=(70, 70, 70))
        events += tracker.feed(Frame(knocked, frame.t))
    assert events == [CardLaid("ghost", "b", 0.9)]


def test_a_picture_the_reader_failed_on_is_read_again_though_nothing_moved():
    """A fault inside reading leaves the picture unread: the next one, unchanged, is read
    rather than taken as already seen (the card would stay unread while it lay still)."""
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2)
    tracker.feed(table.frame())
    card = [("vampire", slot_centre("a"), 0.0)]
    real = rec.read
    rec.read = lambda image: (_ for _ in ()).throw(ValueError("bad quad"))
    with pytest.raises(ValueError):
        tracker.feed(table.frame(card))
    rec.read = real
    events = []
    for _ in range(3):
        events += tracker.feed(table.frame(card))
    assert events == [CardLaid("vampire", "a", 0.9)]


def test_the_card_reader_reads_a_picture_it_failed_on_again():
    from vision import synthetic as S
    from vision.recognize import Recognizer
    from vision.scene import CardReader

    deck = S.load_deck()
    rec = Recognizer({k: [v] for k, v in deck.items()})
    scene = S.random_scene(deck, 3, arrangement="spread")
    reader = CardReader(rec)
    real = rec.classify_quad
    rec.classify_quad = lambda image, corners: (_ for _ in ()).throw(ValueError("bad quad"))
    with pytest.raises(ValueError):
        reader.read(scene.image)
    rec.classify_quad = real
    assert [r.label for r in reader.read(scene.image)] == [r.label for r in rec.read(scene.image)]


def test_a_hand_over_the_card_gives_no_events():
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2, taken_frames=6)
    card = [("vampire", slot_centre("a"), 0.0)]
    events = []
    for _ in range(3):
        events += tracker.feed(table.frame(card))
    assert events == [CardLaid("vampire", "a", 0.9)]
    cx, cy = tracker.mat.mat_to_image([slot_centre("a")])[0]
    hidden = 0
    for dx in range(0, 50, 10):  # the hand moves across the card for five frames
        events += tracker.feed(table.frame(card, hand=(int(cx) - 20 + dx, int(cy)),
                                           hand_size=(95, 85)))
        hidden += not tracker.placed
    assert hidden >= 3  # the card could not be seen at all for most of them
    for _ in range(5):
        events += tracker.feed(table.frame(card))
    assert events == [CardLaid("vampire", "a", 0.9)]


def test_an_unreadable_card_asks_for_the_picker():
    table, rec = Table(), ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=2, unsure_frames=3)
    events = []
    for _ in range(6):
        events += tracker.feed(table.frame([(None, slot_centre("b"), 5.0)]))
    assert events == [CardUnsure("b")]


def _coloured_deck() -> dict[str, np.ndarray]:
    """Plain coloured cards, which the stand-in recogniser reads, for synthetic mat scenes."""
    return {label: np.full((88, 63, 3), bgr, np.uint8) for label, bgr in CARD_COLOURS.items()
            if label is not None}


def test_slots_seen_too_much_from_the_side_are_named():
    from vision import synthetic as S

    tracker = RevealTracker(ColourRecognizer(), stable_frames=1)
    tracker.feed(Table().frame())
    assert tracker.slots_poor == () and tracker.message == "Mat found."
    deck = _coloured_deck()
    steep = S.mat_scene(deck, {}, tilt=0.5, rng=3).image
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1, mat_every=2.0)
    tracker.feed(Frame(steep, 0.0))
    assert tracker.mat is not None and tracker.slots_poor == ("a", "b")
    assert tracker.message == ("Mat found, but a card in slot a or b may not be read: see "
                               "companion camera-check.")
    # Mounted again, with two cards lying: the mat's corner squares moved, so the mat is looked
    # for at once (not when the next look is due), and the cards are placed with the new view.
    looks = _counting_looks(tracker)
    good = S.mat_scene(deck, {"a": "vampire", "b": "ghost"}, rng=5, blur=0, noise=0).image
    events = tracker.feed(Frame(good, 0.5))
    assert looks == [1] and tracker.slots_poor == () and tracker.message == "Mat found."
    assert {(e.label, e.zone) for e in events} == {("vampire", "a"), ("ghost", "b")}
    for t in (1.0, 3.0, 5.0, 7.5, 10.0):
        tracker.feed(Frame(good, t))
    assert looks == [1]  # nothing moved since: no more looks


def test_a_picture_that_settles_is_looked_at_for_the_mat_once_a_look_is_due():
    """Cards laid move the picture but not the mat's corner squares: no look is due for two
    seconds. Once the picture is still and a look is due, it is looked at once, then not
    again while nothing moves."""
    from vision import synthetic as S

    deck = _coloured_deck()
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1, mat_every=2.0)
    tracker.feed(Frame(S.mat_scene(deck, {}, rng=5, blur=0, noise=0).image, 0.0))
    looks = _counting_looks(tracker)
    laid = S.mat_scene(deck, {"a": "vampire", "b": "ghost"}, rng=5, blur=0, noise=0).image
    events = []
    for t in (0.5, 1.0, 1.5):
        events += tracker.feed(Frame(laid, t))
    assert looks == [] and {(e.label, e.zone) for e in events} == {("vampire", "a"),
                                                                   ("ghost", "b")}
    tracker.feed(Frame(laid, 2.6))
    assert looks == [1]
    for t in (3.0, 5.0, 7.5, 10.0):
        tracker.feed(Frame(laid, t))
    assert looks == [1]


def _markers_at(scale: float) -> dict[int, np.ndarray]:
    """The mat's markers as a camera straight above it sees them, ``scale`` pixels a
    millimetre, the mat's corner at (100, 100)."""
    from vision.mat import MARKERS, marker_corners_mm

    return {i: (marker_corners_mm(i) * scale + 100).astype(np.float32) for i in MARKERS}


def test_a_view_on_the_size_bound_does_not_make_the_slot_warning_come_and_go():
    from vision.mat import mat_from_markers
    from vision.tracking import CLEAR_MARGIN, MIN_CARD_PX, slot_looks

    def card_px(scale):
        return min(look.card_px for look in
                   slot_looks(mat_from_markers(_markers_at(scale)), (640, 480)))

    # The scale at which a card in a slot measures MIN_CARD_PX, then views a hair either side.
    lo, hi = 0.5, 1.5
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if card_px(mid) < MIN_CARD_PX else (lo, mid)
    under, over, clear = lo * 0.998, hi * 1.002, hi * (1 + 2 * CLEAR_MARGIN)
    views = iter([over, under, over, under, over, clear, under, clear])
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1, mat_every=0.0,
                            find_markers=lambda image: _markers_at(next(views)))
    frames = [np.full((480, 640, 3), grey, np.uint8) for grey in (60, 180)]
    said = []
    for i in range(8):  # each frame differs from the last: the mat is looked at every time
        tracker.feed(Frame(frames[i % 2], float(i)))
        said.append(tracker.slots_poor)
    fine, poor = (), ("a", "b")
    assert said == [fine, poor, poor, poor, poor, fine, poor, fine]


def test_card_proportioned_with_a_margin_asks_for_room_to_spare():
    from vision.detect import MAX_ASPECT, card_proportioned

    def card(aspect):
        return np.float32([[0, 0], [100, 0], [100, 100 * aspect], [0, 100 * aspect]])

    near_bound = card(MAX_ASPECT * 0.99)
    assert card_proportioned(near_bound)
    assert not card_proportioned(near_bound, margin=0.03)
    assert card_proportioned(card(1.4), margin=0.03)
    assert not card_proportioned(card(MAX_ASPECT * 1.01))


def test_no_mat_no_events_and_a_clear_message():
    rec = ColourRecognizer()
    tracker = RevealTracker(rec, stable_frames=1)
    blank = np.full((480, 640, 3), 90, np.uint8)
    cv2.rectangle(blank, (200, 200), (260, 290), CARD_COLOURS["ghost"], -1)
    assert tracker.feed(Frame(blank, 0.0)) == []
    assert tracker.mat is None and rec.calls == 0
    assert tracker.message.startswith("The mat is not in view: none of the mat's")


def test_the_mat_is_remembered_when_a_hand_covers_its_corners():
    table, rec = Table(), ColourRecognizer()
    seen = []

    def markers_then_none(image):
        from vision.mat import detect_markers

        found = detect_markers(image) if not seen else {}
        seen.append(len(found))
        return found

    tracker = RevealTracker(rec, stable_frames=2, mat_every=0.0, find_markers=markers_then_none)
    events = []
    card = [("ghost", slot_centre("a"), 0.0)]
    events += tracker.feed(table.frame(card))
    for i in range(3):  # a hand moving about over the top-left corner
        events += tracker.feed(table.frame(card, hand=(40 + 40 * i, 40)))
    assert seen == [4, 0, 0, 0]
    assert tracker.message.startswith("The mat's corner squares are hidden (none of")
    assert events == [CardLaid("ghost", "a", 0.9)]


def test_cards_are_looked_for_only_around_the_slots_and_placed_in_the_whole_picture():
    class Recording(ColourRecognizer):
        shapes: list = []

        def read(self, image):
            self.shapes.append(image.shape[:2])
            return super().read(image)

    table, rec = Table(), Recording()
    tracker = RevealTracker(rec, stable_frames=2)
    card = [("vampire", slot_centre("a"), 10.0)]
    events = []
    for _ in range(3):
        events += tracker.feed(table.frame(card))
    assert events == [CardLaid("vampire", "a", 0.9)]
    x0, y0, x1, y1 = tracker.region((480, 640))
    assert (x1 - x0) * (y1 - y0) < 0.6 * 640 * 480  # not the whole picture...
    assert rec.shapes[-1] == (y1 - y0, x1 - x0)
    markers = tracker.mat.mat_to_image([(10, 10), (410, 287)])  # ...nor the mat's corners
    assert not any(x0 <= x < x1 and y0 <= y < y1 for x, y in markers)
    (placed,) = tracker.placed
    cx, cy = tracker.mat.mat_to_image([slot_centre("a")])[0]
    assert np.hypot(*(placed.corners.mean(axis=0) - (cx, cy))) < 6  # whole-picture pixels


def test_slots_out_of_the_picture_mean_looking_everywhere():
    class FarMat:  # a mat whose slots would lie beyond the picture's right edge
        def mat_to_image(self, points):
            return np.float32(points) + (5000.0, 0.0)

    tracker = RevealTracker(ColourRecognizer())
    tracker.mat = FarMat()
    assert tracker.region((480, 640)) == (0, 0, 640, 480)


def test_the_region_follows_the_picture_size_and_the_mat():
    class ShiftedMat:  # the slots seen k times as large as in millimetres, shifted
        def __init__(self, k, dx=0.0, dy=0.0):
            self.k, self.dx, self.dy = k, dx, dy

        def mat_to_image(self, points):
            return np.float32(points) * self.k + (self.dx, self.dy)

    tracker = RevealTracker(ColourRecognizer())
    tracker.mat = ShiftedMat(5)  # slots over 0..2000 pixels, whatever the picture's size
    assert tracker.region((480, 640))[2:] == (640, 480)
    x0, y0, x1, y1 = tracker.region((960, 1280))  # the camera now gives larger pictures
    assert (x1, y1) == (1280, 960) and (x0, y0) == tracker.region((480, 640))[:2]
    tracker.mat = ShiftedMat(3)
    near = tracker.region((960, 1280))
    assert 0 < near[0] and 0 < near[1] and near[2] < 1280 and near[3] < 960
    tracker.mat = ShiftedMat(3, -300, -200)  # the camera was bumped: the slots moved up-left
    x0, y0, x1, y1 = tracker.region((960, 1280))
    assert (x0, y0) == (0, 0)  # cut at the picture's edge, not wrapped round
    assert abs(x1 - (near[2] - 300)) < 16 and abs(y1 - (near[3] - 200)) < 16  # moved with it


# ------------------------------------------------------------- a mat of another size

ON_A4 = (89, 124)  # a real card's millimetres on a mat shrunk from A3 onto A4


def _film(table, tracker, seconds, cards=(), **options):
    """Feed ``seconds`` of frames (15 a second); the events they give."""
    end, events = table.t + seconds, []
    while table.t < end - 1e-9:
        events += tracker.feed(table.frame(cards, **options))
    return events


@pytest.mark.parametrize("card_mm, times, advice", [
    (ON_A4, 1.4, "Print it on A3 paper at 100 % (not shrunk onto A4)"),
    ((44, 62), 0.7, "smaller than the 63 x 88 mm cards it is made for"),  # mini cards
])
def test_cards_of_another_size_than_the_mat_are_said_while_they_lie_there(card_mm, times,
                                                                           advice):
    """A mat printed on A4: the card in slot A measures 1.41 times a card on it and is never
    read (mini cards on the A3 mat: 0.7 times, never read either, without a word). Once it has
    lain there MISFIT_HOLD seconds, the table says why; taken away, the warning goes (nothing
    is there to read), and a card that fits is read."""
    from vision.tracking import MISFIT_HOLD

    table, tracker = Table(), RevealTracker(ColourRecognizer(), stable_frames=2)
    card = [("vampire", slot_centre("a"), 0.0)]
    events = _film(table, tracker, MISFIT_HOLD - 0.3, card, card_mm=card_mm)
    assert tracker.misfit is None and tracker.message == "Mat found."
    events += _film(table, tracker, 0.5, card, card_mm=card_mm)
    assert events == [] and tracker.misfit == pytest.approx(times, abs=0.05)
    assert tracker.message.startswith(f"Mat found, but the cards in the slots look {times:.1f} "
                                      "times as large as a card on this mat should, so they "
                                      "are not read")
    assert advice in tracker.message
    _film(table, tracker, 0.3)
    assert tracker.misfit is None and tracker.message == "Mat found."
    events += _film(table, tracker, 0.3, card)
    assert tracker.misfit is None and events == [CardLaid("vampire", "a", 0.9)]


def test_a_card_held_over_a_slot_is_no_mat_printed_too_small():
    """Held nearer the camera it measures a little more than a card, however long; lowered
    onto the slot, its size changes all the way down."""
    from vision.tracking import MISFIT_HOLD

    table, tracker = Table(), RevealTracker(ColourRecognizer(), stable_frames=2)
    card = [("ghost", slot_centre("b"), 10.0)]
    _film(table, tracker, 2 * MISFIT_HOLD, card, card_mm=(76, 106))  # 1.2 times
    assert tracker.misfit is None
    events = []
    for k in range(round(30 * MISFIT_HOLD)):  # from 1.6 times down to the mat, slowly
        size = 1.6 - 0.6 * k / (30 * MISFIT_HOLD)
        events += tracker.feed(table.frame(card, card_mm=(63 * size, 88 * size)))
        assert tracker.misfit is None
    assert events + _film(table, tracker, 0.3, card) == [CardLaid("ghost", "b", 0.9)]


def test_only_cards_named_in_a_slot_and_shaped_like_one_count_as_too_large():
    """An unreadable card, a card beside the slots, a long strip: no sign of the mat's size."""
    from vision.tracking import MISFIT_HOLD

    table, tracker = Table(), RevealTracker(ColourRecognizer(), stable_frames=2)
    _film(table, tracker, MISFIT_HOLD + 0.5, [(None, slot_centre("a"), 0.0)], card_mm=ON_A4)
    assert tracker.misfit is None
    _film(table, tracker, MISFIT_HOLD + 0.5, [("vampire", (60, 60), 0.0)], card_mm=ON_A4)
    assert tracker.misfit is None
    _film(table, tracker, MISFIT_HOLD + 0.5, [("vampire", slot_centre("a"), 0.0)],
          card_mm=(63, 180))
    assert tracker.misfit is None
    _film(table, tracker, MISFIT_HOLD + 0.5, [("vampire", slot_centre("a"), 0.0)],
          card_mm=ON_A4)
    assert tracker.misfit is not None  # (the same table, to show the others were looked at)


def test_a_card_that_fits_beside_one_too_large_means_the_mat_fits():
    from vision.tracking import MISFIT_HOLD

    table, tracker = Table(), RevealTracker(ColourRecognizer(), stable_frames=2)
    events = _film(table, tracker, MISFIT_HOLD + 0.5, [("vampire", slot_centre("a"), 0.0)],
                   card_mm=ON_A4)
    assert tracker.misfit is not None
    fitting = table.frame([("ghost", slot_centre("b"), 0.0)])
    events += tracker.feed(fitting)  # (a second card, of the right size this time)
    assert tracker.misfit is None


def test_time_in_doubt_does_not_count_towards_a_mat_printed_too_small():
    """The card lay a while, then hands covered three corner squares (nothing is read in
    doubt): once they show again, it must lie the whole MISFIT_HOLD again."""
    from vision.mat import MARKERS, marker_corners_mm
    from vision.tracking import MISFIT_HOLD

    table, tracker = Table(), RevealTracker(ColourRecognizer(), stable_frames=2)
    card = [("vampire", slot_centre("a"), 0.0)]
    _film(table, tracker, MISFIT_HOLD - 0.5, card, card_mm=ON_A4)
    middles = table.px([marker_corners_mm(i).mean(axis=0) for i in sorted(MARKERS)[:3]])
    for _ in range(30):
        frame = table.frame(card, card_mm=ON_A4)
        for x, y in middles:
            cv2.circle(frame.image, (int(x), int(y)), 45, (120, 150, 200), -1)
        tracker.feed(frame)
    assert tracker._doubt and tracker.misfit is None
    _film(table, tracker, MISFIT_HOLD - 0.5, card, card_mm=ON_A4)
    assert not tracker._doubt and tracker.misfit is None
    _film(table, tracker, 0.6, card, card_mm=ON_A4)
    assert tracker.misfit is not None


def test_cards_too_large_in_pictures_without_times_count_frames():
    from vision.tracking import MISFIT_FRAMES

    table, tracker = Table(), RevealTracker(ColourRecognizer(), stable_frames=2)
    card = [("vampire", slot_centre("a"), 0.0), ("ghost", slot_centre("b"), 5.0)]
    for _ in range(MISFIT_FRAMES - 1):
        tracker.feed(table.frame(card, card_mm=ON_A4).image)
    assert tracker.misfit is None
    tracker.feed(table.frame(card, card_mm=ON_A4).image)
    assert tracker.misfit == pytest.approx(1.41, abs=0.05)


@pytest.mark.parametrize("table_bgr", [(45, 45, 45), (80, 110, 70)])
def test_cards_on_the_mat_on_a_dark_table_are_laid(table_bgr):
    """The green mat on a dark table, or on one of its own colour: the table's reader, with
    the stand-in deck enrolled, reads the two cards in their slots."""
    from pathlib import Path

    from vision import synthetic as S
    from vision.recognize import Recognizer
    from vision.scene import CardReader

    rec = Recognizer.from_dir(Path(__file__).resolve().parents[1] / "assets" / "cards")
    tracker = RevealTracker(CardReader(rec), stable_frames=2)
    deck, events = S.load_deck(), []
    for t in range(3):
        scene = S.mat_scene(deck, {"a": "cook", "b": "butler"}, rng=11, table_bgr=table_bgr)
        events += tracker.feed(Frame(scene.image, t / 15))
    assert {(e.label, e.zone) for e in events} == {("cook", "a"), ("butler", "b")}, events
    assert tracker.sees_mat


def test_a_picture_out_of_focus_is_said_so_until_it_is_sharp_again():
    from vision import synthetic as S

    deck = _coloured_deck()
    sharp = S.mat_scene(deck, {}, rng=3).image
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1, mat_every=2.0)
    tracker.feed(Frame(sharp, 0.0))
    assert tracker.mat is not None and not tracker.out_of_focus
    assert tracker.message == "Mat found."
    said = []
    # The focus ring turned: blurred by 2.5 pixels more, then set back a little (2.0: the
    # corner squares read just under where the warning starts), then sharp again.
    for t, blur in ((3.0, 2.5), (6.0, 2.5), (9.0, 2.0), (12.0, 2.0), (15.0, 0.0)):
        tracker.feed(Frame(cv2.GaussianBlur(sharp, (0, 0), blur) if blur else sharp, t))
        said.append((tracker.out_of_focus, tracker.message))
    out = ("Mat found, but the picture is out of focus: cards may not be seen. Set the "
           "camera's focus: see companion camera-check.")
    assert said == [(True, out)] * 4 + [(False, "Mat found.")]
    # A camera focused a little under the warning from the start is not warned about.
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1)
    tracker.feed(Frame(cv2.GaussianBlur(sharp, (0, 0), 2.0), 0.0))
    assert tracker.mat is not None and not tracker.out_of_focus


def test_focus_not_measurable_leaves_what_the_table_said():
    from vision import synthetic as S

    deck = _coloured_deck()
    blurred = cv2.GaussianBlur(S.mat_scene(deck, {}, rng=3).image, (0, 0), 2.5)
    # So dim (under a third of the light) that the corner squares are found but their
    # edges are too faint to measure.
    dim = np.round(blurred * np.float32(0.28)).astype(np.uint8)
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1, mat_every=2.0)
    tracker.feed(Frame(blurred, 0.0))
    assert tracker.out_of_focus
    tracker.feed(Frame(dim, 3.0))
    assert tracker.mat is not None and tracker.out_of_focus  # not measured: as it was
    assert len(tracker.markers_seen) == 4  # the mat was looked at, and found, again
    tracker = RevealTracker(ColourRecognizer(), stable_frames=1)
    tracker.feed(Frame(dim, 0.0))
    assert tracker.mat is not None and not tracker.out_of_focus
