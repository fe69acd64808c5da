"""`companion recognize`: JSON lines in order, error lines for bad pictures."""

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.bad_pictures import too_large_png
from vision import synthetic as S

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "assets" / "cards"


def _lines(capsys):
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_whole_cards_and_a_bad_file(tmp_path, capsys):
    small = tmp_path / "vampire-small.jpg"
    cv2.imwrite(str(small), cv2.rotate(cv2.resize(cv2.imread(str(CARDS / "vampire.png")),
                                                  (100, 140)), cv2.ROTATE_180))
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    rc = main(["recognize", "--refs", str(CARDS), "--whole", str(small), str(bad),
               str(tmp_path / "missing.jpg"), str(CARDS / "cook.png")])
    out = _lines(capsys)
    assert rc == 1
    assert [o["image"] for o in out] == [str(small), str(bad), str(tmp_path / "missing.jpg"),
                                         str(CARDS / "cook.png")]
    assert out[0]["cards"][0]["label"] == "vampire"
    assert out[0]["cards"][0]["corners"] == [[0, 0], [99, 0], [99, 139], [0, 139]]
    assert out[1]["error"] == ("not a picture that can be read (PNG or JPEG expected), or a "
                               "damaged one")
    assert out[2]["error"] == "no such file"
    assert out[3]["cards"][0]["label"] == "cook"


def test_a_picture_too_large_and_a_pipe_give_error_lines(tmp_path, capsys):
    """Neither stops the pictures after it: the first gave a traceback and lost them, the
    second waited for ever for someone to write into the pipe."""
    import os

    large = too_large_png(tmp_path / "large.png")
    pipe = tmp_path / "pipe.png"
    os.mkfifo(pipe)
    rc = main(["recognize", "--refs", str(CARDS), "--whole", str(large), str(pipe),
               str(CARDS / "cook.png")])
    out = _lines(capsys)
    assert rc == 1
    assert "too large to read" in out[0]["error"]
    assert out[1]["error"] == "cannot open the file (a pipe or a device, not a file)"
    assert out[2]["cards"][0]["label"] == "cook"


def test_a_picture_of_over_a_hundred_million_pixels_is_not_read(tmp_path):
    """One of 30,000 x 30,000 is under OpenCV's own limit and took 5 GB to read: the
    command line refuses it by its header, as one over that limit."""
    import subprocess
    import sys

    large = too_large_png(tmp_path / "large.png", 12_000, 8_400)  # 100.8 million pixels
    done = subprocess.run(
        [sys.executable, "-m", "companion", "recognize", "--refs", str(CARDS), "--whole",
         str(large), str(CARDS / "cook.png")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "OPENCV_IO_MAX_IMAGE_PIXELS"})
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1, done.stderr
    assert "too large to read (over a hundred million pixels)" in out[0]["error"]
    assert out[1]["cards"][0]["label"] == "cook"


def test_a_reference_too_large_is_named(tmp_path, capsys):
    refs = tmp_path / "refs"
    refs.mkdir()
    for card in ("ghost", "vampire"):
        (refs / f"{card}.png").write_bytes((CARDS / f"{card}.png").read_bytes())
    too_large_png(refs / "cook.png")
    rc = main(["recognize", "--refs", str(refs), str(CARDS / "cook.png")])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    assert "cook.png" in captured.err and "too large to read" in captured.err


def test_scene(tmp_path, capsys):
    sc = S.random_scene(S.load_deck(), 21, n_cards=3, arrangement="spread", hand=False,
                        glare=False)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), sc.image)
    assert main(["recognize", "--refs", str(CARDS), str(path)]) == 0
    (out,) = _lines(capsys)
    assert out["image"] == str(path)
    got = sorted(c["label"] for c in out["cards"])
    assert got == sorted(c.label for c in sc.cards)
    for c in out["cards"]:
        assert len(c["corners"]) == 4 and 0.5 <= c["score"] <= 1


def test_a_reference_folder_that_cannot_be_listed_is_named_as_typed(tmp_path, capsys,
                                                                    monkeypatch):
    """It was named PosixPath('...') once the folder's name became a path."""
    from vision.recognize import Recognizer

    def refused(path, **options):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Recognizer, "from_dir", refused)
    assert main(["recognize", "--refs", str(tmp_path), str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == (f"companion recognize: cannot read the reference folder "
                                       f"{str(tmp_path)!r}: Permission denied\n")


def test_missing_reference_folder(tmp_path, capsys):
    rc = main(["recognize", "--refs", str(tmp_path / "nope"), str(tmp_path / "x.png")])
    assert rc == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("threshold", ["0", "-0.2", "1.5", "nan"])
def test_a_threshold_out_of_range_is_refused(tmp_path, capsys, threshold):
    """At 0 or below every best guess would be named, above 1 no card ever: refused, with
    the value echoed, before any picture given is read."""
    path = tmp_path / "cook.png"
    cv2.imwrite(str(path), cv2.imread(str(CARDS / "cook.png")))
    rc = main(["recognize", "--refs", str(CARDS), "--threshold", threshold, str(path)])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    assert f"threshold {float(threshold)!r}" in captured.err and "at most 1" in captured.err


def test_references_photographed_on_a_table(tmp_path, capsys):
    """Photos of each card on a table serve as references; one whose card cannot be found
    (too small in its photo) is named in a warning, the others still name their cards."""
    deck = S.load_deck()
    refs = tmp_path / "refs"
    refs.mkdir()
    for j, (label, card) in enumerate(sorted(deck.items())):
        photo = S.table_photo(label, card, 300 + j, card_px=60 if label == "ghost" else 200)
        cv2.imwrite(str(refs / f"{label}.jpg"), photo)
    scene = S.mat_scene(deck, {"a": "cook", "b": "vampire"}, rng=3)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), scene.image)
    assert main(["recognize", "--refs", str(refs), str(path)]) == 0
    captured = capsys.readouterr()
    assert "no card was found on a picture of 'ghost'" in captured.err
    assert captured.err.count("warning") == 1
    named = [c["label"] for c in json.loads(captured.out)["cards"] if c["label"] is not None]
    assert sorted(named) == ["cook", "vampire"]


def test_opencvs_own_warnings_do_not_reach_the_user(tmp_path):
    """A camera that cannot be opened and a picture that cannot be read: the user reads the
    companion's messages, not OpenCV's and FFmpeg's ("[ WARN:0@0.03] global cap_v4l.cpp",
    "[png @ 0x...] Invalid PNG signature")."""
    import os
    import subprocess
    import sys

    import numpy as np

    deep = tmp_path / "deep.tiff"
    cv2.imwrite(str(deep), np.zeros((40, 30, 3), np.float32))  # 32-bit samples: unreadable
    bad = tmp_path / "clip.png"
    bad.write_text("not a picture")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCV_")}
    runs = [["recognize", "--refs", str(CARDS), str(deep)],
            ["camera-check", "--source", f"opencv:{bad}", "--out", str(tmp_path / "c.png")]]
    for args in runs:
        done = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        said = done.stdout + done.stderr
        assert done.returncode != 0, said
        assert "WARN" not in said and " @ 0x" not in said, said
    assert "clip.png' cannot be played" in said


def test_output_cut_short_by_its_reader_is_no_error(tmp_path):
    """`companion recognize ... | head -1`: the reader leaves after the first line, and the
    rest is not written; no Python error comes with it."""
    import subprocess
    import sys

    pictures = [str(CARDS / f"{label}.png") for label in ("ghost", "cook", "vampire")] * 40
    done = subprocess.run(
        f"{sys.executable} -m companion recognize --refs {CARDS} --whole "
        + " ".join(pictures) + " | head -n 1",
        shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.count("\n") == 1 and '"ghost"' in done.stdout
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


def _main_failing_with(monkeypatch, error: Exception) -> int:
    """The command line running a command that raises ``error`` (not about its output)."""
    import argparse

    import companion.cli as cli

    def fails(args):
        raise error

    def parser():
        p = argparse.ArgumentParser(prog="companion")
        p.add_subparsers(dest="command").add_parser("x").set_defaults(func=fails)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)
    return cli.main(["x"])


def test_a_broken_pipe_other_than_the_output_is_not_hidden(monkeypatch):
    """Only the output's own reader going away ends a command quietly: a pipe to anything else
    breaking is an error to see."""
    with pytest.raises(BrokenPipeError):
        _main_failing_with(monkeypatch, BrokenPipeError(32, "Broken pipe"))


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize(("command", "redirect", "why"), [
    ("recognize --refs {cards} {cards}/cook.png", "> /dev/full", "No space left on device"),
    ("recognize --refs {cards} {cards}/cook.png", ">&-", "the output is closed"),
    ("camera-check --source synthetic --out {tmp}/seen.png", "> /dev/full",
     "No space left on device"),
    ("replay {tmp}/game.jsonl", "> /dev/full", "No space left on device"),
    ("replay {tmp}/game.jsonl", ">&-", "the output is closed"),
])
def test_output_that_cannot_be_written_is_said(tmp_path, command, redirect, why):
    """Results sent to a full disk, or with the output closed, are lost: said in one line,
    exit 1, where a traceback came."""
    import subprocess
    import sys

    (tmp_path / "game.jsonl").write_text('{"event": "game", "players": ["Ann", "Bob"]}\n')
    args = command.format(cards=CARDS, tmp=tmp_path)
    done = subprocess.run(f"{sys.executable} -m companion {args} {redirect}", shell=True,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"companion: cannot write the output: {why}" in done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_an_error_writing_another_file_is_not_hidden(monkeypatch):
    """Only the output's own failures are said as such: a full disk under a file the command
    writes is the command's to say, or an error to see."""
    with pytest.raises(OSError) as raised:
        _main_failing_with(monkeypatch, OSError(28, "No space left on device"))
    assert type(raised.value) is OSError


def test_file_names_written_on_another_system_are_read_and_written(tmp_path):
    """A name that is not UTF-8 (an old USB stick's "café.png" in Latin-1) crashed OpenCV,
    and with it the command (or the table, reading its references at start): references,
    pictures from a folder and camera-check's picture are read and saved whatever the name.
    Run apart: a crash would take the tests down with it."""
    import os
    import shutil
    import subprocess
    import sys

    latin = os.fsdecode(b"caf\xe9")
    refs = tmp_path / "refs"
    refs.mkdir()
    for label in ("ghost", "cook", "vampire"):
        shutil.copy(CARDS / f"{label}.png", refs / f"{label}.png")
    os.rename(refs / "ghost.png", refs / f"{latin}.png")  # the ghost's picture, so named
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(CARDS / "ghost.png", frames / f"{latin}.png")

    # As on a Raspberry Pi set to a UTF-8 language: printing such a name could fail too.
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}

    def run(*args, answers=b""):
        done = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env,
                              input=answers, capture_output=True, timeout=120)
        assert b"Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout.decode("utf-8", "replace")

    code, out = run("recognize", "--refs", os.fsencode(refs), "--whole",
                    os.fsencode(CARDS / "ghost.png"))
    assert code == 0, out
    assert json.loads(out)["cards"][0]["label"] == latin
    picture = tmp_path / f"{latin}-check.png"
    code, out = run("camera-check", "--source", os.fsencode(frames), "--out",
                    os.fsencode(picture))
    assert code == 1, out  # no mat in view, but the picture seen and saved
    assert "Picture saved to" in out
    enrolled = tmp_path / f"{latin}-refs"
    code, out = run("enroll", "--out", os.fsencode(enrolled), "--source", "synthetic:settle=0",
                    "--labels", "ghost,cook", answers=b"\n\n")
    assert code == 0, out
    assert sorted(p.name for p in enrolled.iterdir()) == ["cook", "ghost"]
    assert cv2.imdecode(np.fromfile(picture, np.uint8), cv2.IMREAD_COLOR).shape == (1039, 744, 3)


def test_a_video_whose_name_opencv_cannot_take_is_refused_by_name(tmp_path):
    import os

    from vision.sources import SourceConfigError, make_source

    video = tmp_path / os.fsdecode(b"partie\xe9.mp4")
    video.write_bytes(b"not played")
    with pytest.raises(SourceConfigError, match="rename the file") as raised:
        make_source({"kind": "opencv", "device": str(video)})  # a setting: not tried again
    assert "partie\ufffd.mp4" in str(raised.value)  # shown as a screen can draw it


def test_a_reference_folder_of_one_card_is_refused(tmp_path, capsys):
    """One card alone has nothing to be told from: every card of its deck was named as it
    (the cook and the vampire as the ghost, at up to 1.0). Refused, by recognize and by
    camera-check, saying why."""
    refs = tmp_path / "one"
    refs.mkdir()
    (refs / "ghost.png").write_bytes((CARDS / "ghost.png").read_bytes())
    scene = tmp_path / "scene.png"
    cv2.imwrite(str(scene), S.mat_scene(S.load_deck(), {"a": "cook", "b": "vampire"},
                                        rng=3).image)
    rc = main(["recognize", "--refs", str(refs), str(scene)])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    assert "only one card is enrolled ('ghost')" in captured.err
    rc = main(["camera-check", "--source", str(scene), "--refs", str(refs),
               "--out", str(tmp_path / "check.png")])
    assert rc == 2  # as the table refuses them: five cards of the game have no picture
    assert ("there is no picture of the Vampire or the Living Armor or the Butler or the Cook "
            "or the Cleaner card") in capsys.readouterr().err


def test_a_reference_folder_that_cannot_be_listed_is_said_so(tmp_path, capsys, monkeypatch):
    from vision.recognize import Recognizer

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path))

    monkeypatch.setattr(Recognizer, "from_dir", denied)
    rc = main(["recognize", "--refs", str(tmp_path), str(tmp_path / "x.png")])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    assert "cannot read the reference folder" in captured.err
    assert "Permission denied" in captured.err


def test_camera_check_given_a_file_for_its_folder_says_so(tmp_path, capsys):
    scene = tmp_path / "scene.png"
    cv2.imwrite(str(scene), S.mat_scene(S.load_deck(), {"a": "cook"}, rng=3).image)
    rc = main(["camera-check", "--source", str(scene), "--refs", str(scene),
               "--out", str(tmp_path / "check.png")])
    assert rc == 2
    assert "is a file: --refs takes the folder" in capsys.readouterr().err


def test_ctrl_c_while_the_command_is_starting_ends_it_quietly(monkeypatch):
    """Ctrl-C pressed while the commands were still being loaded gave a traceback."""
    import companion.cli as cli

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["recognize", "--help"]) == 130


@pytest.mark.parametrize("torn", [50_000, 8])
def test_a_torn_reference_picture_is_said_in_our_words_alone(tmp_path, torn):
    """A reference PNG half copied: libpng printed "libpng error: PNG input buffer is
    incomplete" itself, and OpenCV "[ERROR:0@0.04] ... IHDR chunk shall be first", before the
    companion's own line."""
    import os
    import shutil
    import subprocess
    import sys

    refs = tmp_path / "refs"
    shutil.copytree(CARDS, refs)
    (refs / "ghost.png").write_bytes((CARDS / "ghost.png").read_bytes()[:torn])
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCV_")}
    done = subprocess.run([sys.executable, "-m", "companion", "recognize", "--refs", str(refs),
                           str(CARDS / "cook.png")], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"companion recognize: cannot read reference picture {str(refs / 'ghost.png')!r}"]


def test_threads_decoding_together_leave_standard_error_as_it_was():
    """Each decode sends file 2 nowhere for a moment: two threads at once saved each other's
    'nowhere' and put it back last, silencing the process for good."""
    import os
    import threading

    from vision.images import _quiet_stderr

    before = os.readlink("/proc/self/fd/2") if os.path.exists("/proc/self/fd/2") else None

    def decode_often():
        for _ in range(300):
            with _quiet_stderr():
                pass

    threads = [threading.Thread(target=decode_often) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if before is not None:
        assert os.readlink("/proc/self/fd/2") == before
    with _quiet_stderr(), _quiet_stderr():  # nested in one thread: no deadlock
        pass


def test_a_copy_of_a_reference_picture_does_not_hide_its_card(tmp_path, capsys, caplog):
    """'ghost - Copy.png' beside ghost.png (a copy made in a file manager) became a card of
    its own: the two shared every feature, and the Ghost was never named again. Ghost.png
    beside ghost/ (a folder copied from a system that ignores case) did the same."""
    import shutil

    refs = tmp_path / "refs"
    shutil.copytree(CARDS, refs)
    shutil.copy(refs / "ghost.png", refs / "ghost - Copy.png")
    (refs / "Cook").mkdir()
    shutil.copy(refs / "cook.png", refs / "Cook" / "again.png")
    sc = S.random_scene(S.load_deck(), 33, n_cards=3, arrangement="spread", hand=False,
                        glare=False)
    assert {"ghost", "cook"} <= {c.label for c in sc.cards}
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), sc.image)
    assert main(["recognize", "--refs", str(refs), str(path)]) == 0
    captured = capsys.readouterr()
    (out,) = [json.loads(line) for line in captured.out.splitlines()]
    assert sorted(c["label"] for c in out["cards"]) == sorted(c.label for c in sc.cards)
    assert caplog.messages == [  # on standard error, outside pytest
        "reference picture ghost - Copy.png is left out: it is a copy of card ghost's "
        "picture"]
    from vision.recognize import reference_files

    files = reference_files(refs)
    assert sorted(files) == ["butler", "cleaner", "cook", "ghost", "living_armor", "vampire"]
    assert [f.name for f in files["cook"]] == ["again.png", "cook.png"]
