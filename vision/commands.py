"""The vision commands of the `companion` command line.

Each command is a pair of functions: ``_add_<name>(subparsers)`` declares its arguments and
sets ``func=``; the command itself takes the parsed arguments and returns an exit code.
``register`` calls every ``_add_*`` listed in ``COMMANDS``: to add a command, write its two
functions and append its ``_add_`` function to ``COMMANDS``. OpenCV is imported inside the
commands so that the command line starts fast.
"""

from __future__ import annotations

import json
import sys

from companion.argtypes import named_path


def _add_recognize(sub) -> None:
    p = sub.add_parser(
        "recognize",
        help="name the cards in pictures",
        description="Print one JSON line per picture, in order: the cards found in it with "
        "their label (null when unsure), score and corners in the picture's pixels. A "
        "picture that cannot be read gives an error line and the others go on.",
    )
    p.add_argument("--refs", required=True, metavar="DIR", type=named_path,
                   help="reference pictures: DIR/<label>.png|jpg or DIR/<label>/*.png|jpg")
    p.add_argument("--whole", action="store_true",
                   help="each picture is one card, already cropped: name it")
    p.add_argument("--threshold", type=float, default=None,
                   help="lowest score at which a card is named (default 0.5)")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.set_defaults(func=cmd_recognize)


def cmd_recognize(args) -> int:
    from vision.recognize import Recognizer, enough_cards, picture_corners

    options = {} if args.threshold is None else {"threshold": args.threshold}
    try:
        rec = Recognizer.from_dir(args.refs, **options)
        enough_cards(rec.labels)
    except ValueError as exc:  # EnrolmentError, or a threshold out of range
        print(f"companion recognize: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the folder cannot be listed (no permission)
        print(f"companion recognize: cannot read the reference folder {str(args.refs)!r}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    for label in rec.left_whole:
        print(f"companion recognize: warning: at least half of the reference pictures are "
              f"photos of a card on a table, but no card was found on a picture of "
              f"{label!r}: it is used whole. If it is a photo too, crop it to the card, or "
              f"that card may go unnamed.", file=sys.stderr)
    failed = 0
    for path in args.images:
        img, error = _load(path)
        if img is None:
            failed += 1
            _emit({"image": path, "error": error})
            continue
        if args.whole:
            h, w = img.shape[:2]
            m = rec.classify(img)
            corners = picture_corners(w, h)
            cards = [(m.label, m.score, corners)]
        else:
            cards = [(r.label, r.score, r.corners) for r in rec.read(img)]
        _emit({"image": path, "cards": [
            {"label": label, "score": round(float(score), 4),
             "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners]}
            for label, score, corners in cards]})
    return 1 if failed else 0


def _load(path: str):
    """(picture, None) or (None, why not) for an image file."""
    from vision.images import PictureTooLarge, read_image

    try:
        img = read_image(path)
    except PictureTooLarge as exc:
        return None, str(exc)
    except FileNotFoundError:
        return None, "no such file"
    except IsADirectoryError:
        return None, "this is a folder, not a picture"
    except OSError as exc:
        return None, f"cannot open the file ({exc.strerror or exc})"
    if img is None:
        return None, "not a picture that can be read (PNG or JPEG expected), or a damaged one"
    return img, None


def _emit(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _add_table_commands(sub) -> None:
    from vision.table_commands import register_table_commands

    register_table_commands(sub)


COMMANDS = [_add_recognize, _add_table_commands]


def register(subparsers) -> None:
    for add in COMMANDS:
        add(subparsers)
