"""Commands for setting up a table's camera: `companion enroll` and `companion camera-check`.

OpenCV and the camera libraries are imported inside the command functions only.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import sys
from pathlib import Path

from companion.argtypes import named_path, seconds
from companion.cards import (  # no numpy: the command line starts quickly
    IDENTITIES,
    display_name,
    identities_missing,
    label_identity,
)


def default_source() -> str:
    """The camera to use when none is given: $COMPANION_CAMERA, else the Raspberry Pi camera
    when its library is installed, else the first webcam."""
    if os.environ.get("COMPANION_CAMERA"):
        return os.environ["COMPANION_CAMERA"]
    if importlib.util.find_spec("picamera2") is not None:
        return "picamera2"
    return "opencv:0"


SOURCE_HELP = ("camera: picamera2, opencv:N (webcam), a video file, folder:DIR, "
               "synthetic[:name=value,...] or FILE.toml with a [camera] table "
               "(default: $COMPANION_CAMERA, else picamera2 if installed, else opencv:0)")


_SEPARATORS = tuple({os.sep, os.altsep or os.sep})


def _picture_path(text: str) -> Path | str:
    """Where camera-check saves its picture (argparse type): as ``named_path``, but a name
    ending in / stays a string, so that it still says a folder (Path drops the /)."""
    path = named_path(text)
    return text if text.endswith(_SEPARATORS) else path


def register_table_commands(sub) -> None:
    p = sub.add_parser("enroll", help="take reference pictures of each card with the camera",
                       description="Guided capture of card references: lay each card in slot A "
                                   "and press Enter (or, with --buttons, the table's OK "
                                   "button). Warns when two cards look too alike.")
    p.add_argument("--out", required=True, type=named_path,
                   help="folder for the references")
    p.add_argument("--source", default=None, help=SOURCE_HELP)
    p.add_argument("--labels", default=",".join(IDENTITIES),
                   help="comma-separated card names (default: the six identities)")
    p.add_argument("--slot", default="a", choices=["a", "b"], help="slot to lay cards in")
    p.add_argument("--timeout", type=seconds, default=10.0,
                   help="seconds to wait for the camera (default 10)")
    p.add_argument("--buttons", action="store_true",
                   help="the table's buttons answer too: OK takes the picture, Back skips "
                        "the card, Back held stops")
    p.add_argument("--pins", metavar="FILE", type=named_path,
                   help="with --buttons: the pin map (TOML); default: the shipped 6-seat "
                        "74HC595 map (hardware/pins.example.toml)")
    p.set_defaults(func=cmd_enroll)

    p = sub.add_parser("camera-check", help="show what the camera sees: mat, slots and cards",
                       description="Grab one picture, find the mat, its slots and the cards, "
                                   "draw them, and say what was found and whether a card laid "
                                   "in each slot will be read. Exits 1 when the mat is not "
                                   "found, a slot is seen too poorly or no picture comes; 2 "
                                   "for a setting to fix.")
    p.add_argument("--source", default=None, help=SOURCE_HELP)
    p.add_argument("--refs", type=named_path, default=None,
                   help="reference folder to read the cards with (else cards are only found)")
    p.add_argument("--out", type=_picture_path, default=None,
                   help="save the picture here (PNG, or JPEG for .jpg; a folder: in it, as "
                        "camera-check.png); without it the picture is shown in a window, or "
                        "saved as camera-check.png when there is no screen")
    p.add_argument("--timeout", type=seconds, default=10.0,
                   help="seconds to wait for the camera (default 10)")
    p.set_defaults(func=cmd_camera_check)


def _open(spec: str | None, timeout: float):
    """(source config, ResilientSource) or an error message."""
    from vision.sources import SourceConfigError, open_source, parse_source

    spec = default_source() if spec is None else spec  # "" is refused, not the default
    try:
        config = parse_source(spec)
        return config, open_source(config, max_delay=max(0.5, timeout / 4)), None
    except SourceConfigError as exc:
        return None, None, f"Camera setting problem: {exc}"


def _load_recognizer(refs: Path, *, at_least: int = 2, as_the_table: bool = False):
    """The recogniser of the reference folder ``refs``, or why not (its message); a folder of
    fewer than ``at_least`` cards is refused (``vision.recognize.enough_cards``).
    ``as_the_table``: loaded as the table loads them, refused as the table refuses them (a
    card of the game without a picture: ``companion.app.devices.table_recognizer``)."""
    try:
        from vision.recognize import Recognizer, enough_cards
    except ImportError:
        return None, "Card recognition is not installed in this copy of the companion."
    if refs.exists() and not refs.is_dir():
        return None, f"{str(refs)!r} is a file: --refs takes the folder of reference pictures."
    if not refs.is_dir():
        return None, f"The reference folder {str(refs)!r} does not exist."
    try:
        if as_the_table:
            from companion.app.devices import table_recognizer

            return table_recognizer(refs), None
        recognizer = Recognizer.from_dir(refs)
        if at_least > 1:
            enough_cards(recognizer.labels)
        return recognizer, None
    except ValueError as exc:
        return None, f"Cannot use the references in {str(refs)!r}: {exc}."
    except OSError as exc:
        return None, f"Cannot use the references in {str(refs)!r}: {exc.strerror or exc}."


def _find_cards():
    try:
        from vision.detect import find_cards
    except ImportError:
        return None
    return find_cards


def cmd_camera_check(args: argparse.Namespace) -> int:
    from companion.tablelog import file_in_the_way
    from vision.camera_check import check_frame
    from vision.images import write_picture
    from vision.sources import MISCONFIGURED, is_recording

    recognizer = None
    if args.refs is not None:
        recognizer, problem = _load_recognizer(args.refs, as_the_table=True)
        if problem:
            print(problem, file=sys.stderr)
            return 2
    config, source, problem = _open(args.source, args.timeout)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if is_recording(config) and (problem := _camera_problem(config, source, args.timeout)):
        source.close()  # a file or folder that does not open now will not later: no retries
        print(problem, file=sys.stderr)
        return 2
    try:
        frame = source.wait_frame(args.timeout)
        if frame is None:
            print(f"No picture from the camera. {source.reason}", file=sys.stderr)
            return 2 if source.status == MISCONFIGURED else 1  # a setting to fix: as refused
        reader = None if recognizer is None else _AsTheTable(recognizer)
        report = check_frame(frame.image, recognizer=reader, find_cards=_find_cards())
    finally:
        source.close()
    for line in report.lines:
        print(line)
    out = args.out
    ready = (report.mat is not None and all(look.clear for look in report.slots)
             and report.misfit is None and report.in_focus is not False)
    if out is None and _show(report.picture):
        return 0 if ready else 1
    folder = isinstance(out, str)  # named with a / at its end: a folder, maybe still to make
    out = Path(out or "camera-check.png")
    if folder or out.is_dir() or out.name in ("", ".", ".."):
        out = out / "camera-check.png"  # a folder: the picture goes in it
    if out.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        out = out.with_suffix(out.suffix + ".png") if out.suffix else out.with_suffix(".png")
    try:
        if (blocking := file_in_the_way(out)) is not None:
            raise ValueError(f"{str(blocking)!r} is a file, not a folder")
        out.parent.mkdir(parents=True, exist_ok=True)
        write_picture(out, report.picture)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        print(f"Could not save the picture to {str(out)!r}: {why}.", file=sys.stderr)
        return 1
    print(f"Picture saved to {out}.")
    return 0 if ready else 1


class _AsTheTable:
    """Reads each picture as the table reads a camera frame (a CardReader), afresh."""

    def __init__(self, recognizer) -> None:
        self.recognizer = recognizer

    def read(self, image):
        from vision.scene import CardReader

        return CardReader(self.recognizer).read(image)


def _show(picture) -> bool:
    """Show the picture in a window until a key or click; False when there is no screen."""
    if os.environ.get("SDL_VIDEODRIVER") == "dummy" or not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import pygame
    except ImportError:
        return False
    try:
        pygame.display.init()
        h, w = picture.shape[:2]
        screen = pygame.display.set_mode((w, h))
        pygame.display.set_caption("camera check - press any key to close")
        surface = pygame.image.frombuffer(picture[:, :, ::-1].tobytes(), (w, h), "RGB")
        screen.blit(surface, (0, 0))
        pygame.display.flip()
        while True:
            event = pygame.event.wait()
            if event.type in (pygame.QUIT, pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                return True
    except pygame.error:
        return False
    finally:
        pygame.display.quit()


def cmd_enroll(args: argparse.Namespace) -> int:
    from vision.enroll import (
        EnrollError,
        cards_and_blocks,
        check_labels,
        check_out,
        enroll,
        pretty,
        too_alike,
    )

    try:
        labels = check_labels(s.strip() for s in args.labels.split(",") if s.strip())
        check_out(args.out)  # before the camera is waited for
    except EnrollError as exc:
        print(exc, file=sys.stderr)
        return 2
    if _find_cards() is None:
        print("Card detection is not installed in this copy of the companion.", file=sys.stderr)
        return 2
    if args.pins and not args.buttons:
        print("A pin map (--pins) is used only with --buttons.", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as opened:
        ask = _ask
        if args.buttons:
            answers, problem = _buttons(args.pins, opened)
            if problem:
                print(problem, file=sys.stderr)
                return 2
            ask = answers.ask
        config, source, problem = _open(args.source, args.timeout)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        opened.callback(source.close)
        problem = _camera_problem(config, source, args.timeout)
        if problem:
            print(f"No picture from the camera: {problem} Check it with "
                  "`companion camera-check`, then enrol again.", file=sys.stderr)
            return 2
        flush = 0 if config.get("kind") == "folder" else 2
        hook = _synthetic_player(source, args.slot, args.timeout) if config.get(
            "kind") == "synthetic" else None
        try:
            result = enroll(source, args.out, labels, find_cards=cards_and_blocks, ask=ask,
                            slot=args.slot, flush=flush, timeout=args.timeout,
                            before_capture=hook, buttons=args.buttons)
        except EnrollError as exc:
            print(exc, file=sys.stderr)
            return 2
    done = sum(len(v) for v in result.saved.values())
    print(f"{done} reference picture{'s' if done != 1 else ''} saved in {args.out}.")
    if result.skipped:
        print("Skipped: " + ", ".join(pretty(s) for s in result.skipped) + ".")
    left = [s for s in labels if s not in result.saved and s not in result.skipped]
    if result.stopped and left:
        print("Stopped before: " + ", ".join(pretty(s) for s in left) + ".")
    from vision.recognize import reference_files

    if not done and (not args.out.is_dir() or not reference_files(args.out)):
        return 1  # nothing enrolled, then or before: nothing to check
    recognizer, problem = _load_recognizer(args.out, at_least=1)
    if problem:
        print(problem, file=sys.stderr)
        return 1

    left = [display_name(i) for i in identities_missing(recognizer.labels)]
    if left and all(label_identity(label) for label in labels):  # the game's cards
        print(f"Still without a picture: {', '.join(left)}. The table reads cards with the "
              "camera only once every card has one (a card never enrolled could be taken for "
              "another): enrol them too.")
    for a, b, score in too_alike(args.out, recognizer):
        print(f"Warning: {pretty(a)} and {pretty(b)} look too alike to tell apart "
              f"(similarity {score:.2f}). Take their pictures again in steady light, "
              "flat in the slot, or the companion may ask which card it is.")
    return 0 if not result.skipped and not result.stopped else 1


def _camera_problem(config, source, timeout: float) -> str | None:
    """Why enrolment cannot begin, or None: a live camera must give a picture; a recording
    (whose pictures are each meant for a card) must open."""
    from vision.frames import CameraError
    from vision.sources import SourceConfigError, is_recording, make_source

    if not is_recording(config):
        return None if source.wait_frame(timeout) is not None else source.reason
    try:
        make_source(config).close()
    except SourceConfigError as exc:
        return f"Camera setting problem: {exc}."
    except CameraError as exc:
        return str(exc)
    return None


def _synthetic_player(source, slot: str, timeout: float):
    """On the synthetic table nobody lays the cards: lay each asked card in the slot (taking
    the previous one away) and wait until it lies still."""
    import time

    def lay(label: str) -> None:
        source.wait_frame(timeout)  # opens the camera if it is not open yet
        camera = source.source
        if camera is None or not hasattr(camera, "lay"):
            return
        if slot in camera.lying():
            camera.take(slot)
            time.sleep(camera.settle)
        if label in camera.cards:
            camera.lay(slot, label)
            time.sleep(camera.settle)

    return lay


def _buttons(pins: str | None, opened: contextlib.ExitStack, **options):
    """(``TableAnswers`` from the keyboard and the table's buttons, None), the panel closed
    by ``opened``; or (None, what went wrong) for a bad pin map, or pins that cannot be
    reached or used. ``options`` go to ``hardware.panel.open_panel``."""
    import queue

    from hardware.answers import TableAnswers
    from hardware.panel import PanelError, open_panel

    events: queue.Queue = queue.Queue()
    try:
        panel = open_panel(pins, events=events, animate=False, **options)
    except PanelError as exc:
        if exc.kind == "no gpio":
            return None, ("Cannot reach the table's buttons: this machine has no GPIO pins "
                          "(on a Raspberry Pi, install python3-lgpio). Leave out --buttons "
                          "to answer with the keyboard alone.")
        return None, str(exc)
    opened.enter_context(panel)
    return TableAnswers(events), None


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except (EOFError, RuntimeError):  # input ended, or closed outright ("lost sys.stdin")
        print()
        print("The keyboard's input has ended: stopping.")
        return "q"
