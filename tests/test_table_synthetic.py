"""The table part against the real detector and recogniser, on synthetic camera frames of the
printed mat with the stand-in deck."""

from __future__ import annotations

import argparse
import io
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.synthetic as synthetic
from vision.camera_check import check_frame
from vision.recognize import Recognizer
from vision.scene import CardReader
from vision.sources import ResilientSource
from vision.table_commands import register_table_commands
from vision.tracking import CardLaid, CardTaken, RevealTracker

DECK = Path(__file__).resolve().parent.parent / "assets" / "cards"


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer.from_dir(DECK)


@pytest.fixture
def printed_mat(monkeypatch):
    """The synthetic camera draws the mat as printed, from a fresh cache."""
    monkeypatch.setattr(synthetic, "_MAT_CACHE", {})


def test_cards_laid_and_taken_give_one_event_each(printed_mat, recognizer):
    clock = synthetic.ManualClock()
    camera = synthetic.SyntheticCamera(clock=clock, seed=3)
    tracker = RevealTracker(recognizer, stable_frames=3)
    frames = 0

    def run(seconds):
        nonlocal frames
        events = []
        for _ in range(round(seconds * 15)):
            clock.advance(1 / 15)
            frame = camera.read()
            if frame is not None:
                frames += 1
                events += tracker.feed(frame)
        return events

    assert run(0.4) == [] and tracker.mat is not None
    camera.lay("a", "vampire")  # a hand slides the card in, for 0.6 s
    events = run(1.5)
    assert [(e.label, e.zone) for e in events] == [("vampire", "a")]
    assert isinstance(events[0], CardLaid) and events[0].score >= 0.5
    camera.lay("b", "cook")
    assert [(type(e), e.label, e.zone) for e in run(1.5)] == [(CardLaid, "cook", "b")]
    camera.take("a")
    assert run(1.5) == [CardTaken("vampire", "a")]
    assert tracker.lying == {"b": "cook"}
    # while the cards lay still, frames were not examined again
    assert tracker.skipped > frames / 3


@pytest.mark.parametrize("seed", [5009, 5046, 5049, 5051])
def test_a_card_laid_touching_a_slots_marks_is_read(printed_mat, seed):
    """Trading-card-like cards laid a little off centre in slot B, touching its printed
    corner marks: the card's outline and the marks made one shape, and the table saw no
    card there at all. The marks are painted out of what it reads: both cards are laid."""
    deck = synthetic.panelled_deck(20)
    recognizer = Recognizer({k: [v] for k, v in deck.items()})
    labels = sorted(deck)
    rng = np.random.default_rng(seed)
    lying = {"a": str(rng.choice(labels)), "b": str(rng.choice(labels))}
    scene = synthetic.mat_scene(deck, lying, rng=seed)
    tracker = RevealTracker(CardReader(recognizer))
    events = [e for _ in range(6) for e in tracker.feed(scene.image)]
    assert sorted((e.zone, e.label) for e in events) == sorted(lying.items())
    assert all(isinstance(e, CardLaid) for e in events)


def test_camera_check_reads_the_synthetic_table(printed_mat, recognizer):
    clock = synthetic.ManualClock()
    camera = synthetic.SyntheticCamera(clock=clock, seed=5)
    camera.lay("a", "ghost")
    camera.lay("b", "living_armor")
    clock.advance(2.0)
    report = check_frame(camera.read().image, recognizer=recognizer)
    assert report.lines[:2] == ["Mat found: all four corner squares are in view.",
                                "2 cards: ghost in slot a, living armor in slot b."]
    assert report.lines[2].endswith("pixels wide: clear enough to read.")


def run_cli(argv):
    parser = argparse.ArgumentParser(prog="companion")
    register_table_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_enroll_command_on_the_synthetic_table(printed_mat, tmp_path, monkeypatch, capsys):
    labels = ["ghost", "vampire", "cook"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * len(labels)))
    out = tmp_path / "refs"
    code = run_cli(["enroll", "--out", str(out), "--source", "synthetic:settle=0,seed=2",
                    "--labels", ",".join(labels)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "3 reference pictures saved" in text
    for label in labels:
        saved = cv2.imread(str(out / label / f"{label}-1.png"))
        assert saved.shape == (440, 315, 3)
    # the pictures taken are good references: each names its own card on the table
    rec = Recognizer.from_dir(out)
    clock = synthetic.ManualClock()
    camera = synthetic.SyntheticCamera(clock=clock, seed=9)
    camera.lay("a", "cook")
    camera.lay("b", "ghost")
    clock.advance(2.0)
    report = check_frame(camera.read().image, recognizer=rec)
    assert report.lines[1] == "2 cards: cook in slot a, ghost in slot b."


def test_enroll_says_which_cards_still_lack_a_picture(printed_mat, tmp_path, monkeypatch,
                                                      capsys):
    refs = tmp_path / "refs"
    (refs / "knight").mkdir(parents=True)  # a picture named as the players call the card
    shutil.copy(DECK / "living_armor.png", refs / "knight" / "1.png")
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    code = run_cli(["enroll", "--out", str(refs), "--source", "synthetic:settle=0,seed=2",
                    "--labels", "ghost,cook"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert ("Still without a picture: Vampire, Butler, Cleaner. The table reads cards with the "
            "camera only once every card has one") in text


def test_enroll_of_one_card_or_none_ends_without_a_false_alarm(printed_mat, tmp_path,
                                                              monkeypatch, capsys):
    # stopped at once: nothing to check, and no word of references that cannot be used
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    refs = tmp_path / "refs"
    assert run_cli(["enroll", "--out", str(refs), "--source", "synthetic:settle=0"]) == 1
    said = capsys.readouterr()
    assert "0 reference pictures saved" in said.out and said.err == ""
    # one card, then stopped: the others are still to enrol, which is said
    monkeypatch.setattr("sys.stdin", io.StringIO("\nq\n"))
    assert run_cli(["enroll", "--out", str(refs), "--source", "synthetic:settle=0"]) == 1
    said = capsys.readouterr()
    assert "1 reference picture saved" in said.out and said.err == ""
    assert "Stopped before: Vampire, Living Armor, Butler, Cook, Cleaner." in said.out
    assert "Still without a picture: Vampire, Living Armor, Butler, Cook, Cleaner." in said.out
    # again, the Ghost enrolled already skipped: skipped, not "not enrolled"
    monkeypatch.setattr("sys.stdin", io.StringIO("s\nq\n"))
    assert run_cli(["enroll", "--out", str(refs), "--source", "synthetic:settle=0"]) == 1
    said = capsys.readouterr().out
    assert "Skipped: Ghost.\nStopped before: Vampire, Living Armor, Butler, Cook, Cleaner." in said
    assert "Not enrolled" not in said and "Still without a picture: Vampire," in said


@pytest.mark.parametrize("ended", [RuntimeError("input(): lost sys.stdin"), EOFError()])
def test_enroll_stops_when_its_input_is_closed(printed_mat, tmp_path, monkeypatch, capsys,
                                               ended):
    """Run with its input closed (`<&-`), enroll ended in a traceback; at its end (`<
    /dev/null`), it stopped without a word why."""
    def lost(prompt):
        raise ended

    monkeypatch.setattr("builtins.input", lost)
    code = run_cli(["enroll", "--out", str(tmp_path / "refs"), "--source", "synthetic:settle=0"])
    out = capsys.readouterr().out
    assert code == 1
    assert "The keyboard's input has ended: stopping." in out
    assert "0 reference pictures saved" in out


def test_enroll_warns_about_cards_too_alike(printed_mat, tmp_path, monkeypatch, capsys):
    # two names, one card: the pictures are of the same art
    class SameCard:
        def __init__(self):
            self.cards = synthetic.load_deck()
            self.cards["twin"] = self.cards["butler"]

    deck = SameCard().cards
    monkeypatch.setattr(synthetic, "load_deck", lambda *a, **k: deck)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    code = run_cli(["enroll", "--out", str(tmp_path / "refs"), "--source",
                    "synthetic:settle=0", "--labels", "butler,twin"])
    text = capsys.readouterr().out
    assert code == 0
    assert "Warning: Butler and Twin look too alike to tell apart" in text
    # among other cards too, and only they
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n\n\n"))
    code = run_cli(["enroll", "--out", str(tmp_path / "refs4"), "--source",
                    "synthetic:settle=0,seed=1", "--labels", "ghost,cook,butler,twin"])
    text = capsys.readouterr().out
    assert code == 0
    assert [line.split(" look")[0] for line in text.splitlines() if "too alike" in line] == [
        "Warning: Butler and Twin"]


def test_enroll_of_the_six_cards_does_not_call_two_of_them_alike(printed_mat, tmp_path,
                                                                 monkeypatch, capsys):
    # Read by a recogniser knowing the five others, the Cleaner was named the Butler (0.50):
    # a card never enrolled is often named as the card most like it, which is no reason to
    # take both pictures again.
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 6))
    code = run_cli(["enroll", "--out", str(tmp_path / "refs"), "--source",
                    "synthetic:settle=0,seed=5"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "6 reference pictures saved" in text and "too alike" not in text


def test_enroll_of_two_cards_alone_does_not_call_them_alike(printed_mat, tmp_path,
                                                          monkeypatch, capsys):
    # the first two cards of a deck enrolled: each shares only the frame with the other
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    code = run_cli(["enroll", "--out", str(tmp_path / "refs"), "--source",
                    "synthetic:settle=0", "--labels", "ghost,cook"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "2 reference pictures saved" in text
    assert "too alike" not in text


def test_camera_check_command_on_the_synthetic_camera(printed_mat, tmp_path, capsys):
    out = tmp_path / "check.png"
    code = run_cli(["camera-check", "--source", "synthetic", "--refs", str(DECK),
                    "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "Mat found: all four corner squares are in view.\nNo cards in view.\n" in text
    assert cv2.imread(str(out)).shape == (480, 640, 3)


def test_resilient_source_over_the_synthetic_camera():
    clock = synthetic.ManualClock()
    made = []

    def opener():
        made.append(synthetic.SyntheticCamera(clock=clock))
        return made[-1]

    source = ResilientSource(opener, clock=clock, sleep=clock.advance)
    assert source.wait_frame(1.0) is not None
    made[0].close()  # the camera goes away: reads raise CameraError
    assert source.read() is None and source.status == "reconnecting"
    assert source.wait_frame(5.0) is not None and len(made) == 2
