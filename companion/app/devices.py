"""Adapters between the devices and the app's input queue. Each device is optional.

- `VirtualPanel`: health dials and buttons that exist only on screen (and in tests). It has
  the hardware panel's shape: show(state), led_states(), press(name, long=).
- `CameraFeed`: reads frames from a camera source, lets the reveal tracker turn them into
  events, and puts those on the queue.
- `open_panel` / `open_camera`: the real devices when they are there, else None and a reason.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass

from companion.app.inputs import BUTTON_NAMES, SEATS, from_reveal
from companion.cards import display_name, identities_missing, label_identity
from companion.engine import MAX_HEALTH


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    name: str
    long: bool = False


class VirtualPanel:
    """Six dials of five lights and the nine buttons, drawn on the screen."""

    virtual = True

    def __init__(self, inputs: queue.Queue | None = None):
        self.inputs = inputs
        self._health = [0] * SEATS
        self.shown = 0  # how many states it was told about

    def show(self, state: dict) -> None:
        players = state.get("players", [])
        self._health = [players[i]["health"] if i < len(players) and players[i]["alive"] else 0
                        for i in range(SEATS)]
        self.shown += 1

    def blank(self) -> None:
        """Every dial dark (the players are taking their seats)."""
        self._health = [0] * SEATS

    def led_states(self) -> list[list[bool]]:
        return [[k < h for k in range(MAX_HEALTH)] for h in self._health]

    def press(self, name: str, *, long: bool = False) -> None:
        if name not in BUTTON_NAMES:
            raise ValueError(f"there is no button called {name!r}: use one of "
                             f"{', '.join(BUTTON_NAMES)}")
        if self.inputs is not None:
            self.inputs.put(ButtonEvent(name, long))


class CameraFeed:
    """Camera source + reveal tracker -> app inputs on the queue."""

    def __init__(self, source, tracker, inputs: queue.Queue):
        self.source = source
        self.tracker = tracker
        self.inputs = inputs
        self.frames = 0
        self.faults = 0  # pictures the tracker failed on, skipped
        self.fault = ""  # what the last of them said

    @property
    def working(self) -> bool:
        """False while the source says it is starting, reconnecting or has ended."""
        return getattr(self.source, "status", "ok") == "ok"

    def poll(self) -> int:
        """Read at most one frame; returns how many inputs it queued."""
        try:
            frame = self.source.read()
        except Exception:  # a camera that fails is "not working", never a crash
            return 0
        if frame is None:
            return 0
        self.frames += 1
        try:
            events = self.tracker.feed(frame)
        except Exception as err:  # a picture the reader trips on is skipped, never a crash
            self.faults += 1
            self.fault = f"{type(err).__name__}: {err}"
            return 0
        count = 0
        for event in events:
            inp = from_reveal(event)
            if inp is not None:
                self.inputs.put(inp)
                count += 1
        return count

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close:
            close()


def open_panel(inputs: queue.Queue, pins=None):
    """The GPIO panel (pins: a pin map file, else the shipped map), or (None, reason) when
    this machine has no GPIO, the map is wrong or the pins are held by another program (a
    PanelError: see panel_warning)."""
    try:
        from hardware.panel import PanelError  # noqa: PLC0415
        from hardware.panel import open_panel as open_pins  # noqa: PLC0415
    except ImportError as err:
        return None, f"the LED dials' driver is not installed ({err})"
    try:
        return open_pins(pins, events=inputs), None
    except PanelError as err:
        return None, err


def panel_warning(why) -> tuple[str, dict]:
    """What the table's screen says when the panel did not open for ``why`` (open_panel's
    reason): no GPIO here is as expected on a laptop, but a wrong pin map or pins held by
    another program is for staff to mend, and the screen says which."""
    if getattr(why, "kind", "no gpio") == "no gpio":
        return "warn.no_gpio", {}
    return "warn.panel_failed", {"text": str(why)}


def virtual_panel(inputs: queue.Queue):
    """Dials and buttons drawn on screen: the hardware's virtual panel (mock pins) when it is
    installed, else this module's VirtualPanel."""
    try:
        from hardware.panel import virtual_panel as hw_virtual  # noqa: PLC0415
    except ImportError:
        return VirtualPanel(inputs)
    try:
        return hw_virtual(events=inputs)
    except (RuntimeError, ValueError, OSError):
        return VirtualPanel(inputs)


def quiet_opencv() -> None:
    """One OpenCV thread: the app's work per frame is small (a tiny copy compared with the
    last), and waking a pool of threads for it 15 times a second costs more than it saves."""
    import vision  # noqa: F401, PLC0415 (its picture size limit, set before OpenCV loads)

    try:
        import cv2  # noqa: PLC0415
    except ImportError:
        return
    cv2.setNumThreads(1)


class ReferencesUnusable(ValueError):
    """The table cannot read cards with these references. ``warning``: what its screen says
    instead (an i18n key and its arguments)."""

    def __init__(self, message: str, warning: tuple[str, dict]) -> None:
        super().__init__(message)
        self.warning = warning


def _by_identity(files: dict[str, list]) -> dict[str, list]:
    """``files`` by label, the labels that name one identity (``Chef`` and ``cook``) made
    one, named as the identity: as two cards, each would keep the other from being named."""
    out: dict[str, list] = {}
    for label, paths in files.items():
        out.setdefault(label_identity(label) or label, []).extend(paths)
    return out


def card_tracker(references):
    """The reveal tracker reading cards with the references in the folder `references`
    (``table_recognizer``: its errors too).

    It reads through a CardReader, so a card lying still keeps its name and only new or moved
    cards are named again. Raises ImportError without card recognition installed."""
    from vision.scene import CardReader  # noqa: PLC0415
    from vision.tracking import RevealTracker  # noqa: PLC0415

    quiet_opencv()
    return RevealTracker(CardReader(table_recognizer(references)))


def table_recognizer(references):
    """The recogniser of the references in the folder ``references``, as the table uses
    them. Raises ImportError without card recognition installed, and ValueError or OSError
    when the references cannot be used: ReferencesUnusable when they leave out an identity
    (a card never enrolled that looks like one that was could be taken for it; a folder with
    no picture leaves out all six) or a picture cannot be read."""
    from vision.images import shown_name  # noqa: PLC0415
    from vision.recognize import (  # noqa: PLC0415
        EnrolmentError,
        Recognizer,
        naming_the_file,
        read_reference_files,
        reference_files,
        same_pictures,
    )

    files = _by_identity(reference_files(references))  # EnrolmentError: no such folder
    same = same_pictures(files)
    if same:
        (label_a, a), (label_b, b) = same[0]
        card_a, card_b = (label_identity(label) or f.stem for label, f in ((label_a, a),
                                                                          (label_b, b)))
        names = [shown_name(f.relative_to(references)) for f in (a, b)]
        raise ReferencesUnusable(
            f"{names[0]} and {names[1]} are the same picture, so neither card can be told "
            "from the other: one is a copy; enrol the right card again with `companion enroll`",
            ("warn.cards_same", {"cards": [card_a, card_b], "files": " and ".join(names)}))
    missing = identities_missing(files)
    if missing:
        names = " or the ".join(display_name(i) for i in missing)
        raise ReferencesUnusable(
            f"there is no picture of the {names} card; a card never enrolled could be taken "
            "for another, so enrol them all with `companion enroll`",
            ("warn.cards_missing", {"cards": missing}))
    try:
        recognizer = Recognizer(read_reference_files(files))
    except EnrolmentError as err:
        err = naming_the_file(err, files)
        if err.path is None:
            raise
        shown = shown_name(err.path.relative_to(references))  # as listed: inside the folder
        raise ReferencesUnusable(str(err), ("warn.card_unreadable", {
            "card": label_identity(err.label) or shown_name(err.label), "file": shown})) from err
    return recognizer


def open_camera(config, inputs: queue.Queue, references=None):
    """(CameraFeed on the configured camera, None, None), or (None, reason, what the table's
    screen says instead: an i18n key and its arguments).

    references: the folder of enrolled card pictures (default: the card art in assets/cards).
    A camera that is configured but not answering still gives a feed: it keeps retrying and
    says it is not working, so the picker stands in until it comes back."""
    from companion.app.screens.assets import assets_dir  # noqa: PLC0415

    refs = references or assets_dir() / "cards"
    try:
        from vision.sources import open_source  # noqa: PLC0415

        tracker = card_tracker(refs)
    except ImportError as err:
        return None, f"card recognition is not installed ({err})", ("warn.no_camera", {})
    except ReferencesUnusable as err:
        return None, f"cannot use the card references in {refs}: {err}", err.warning
    except (ValueError, OSError) as err:
        why = f"cannot use the card references in {refs}: {err}"
        return None, why, ("warn.no_camera", {})
    try:
        source = open_source(dict(config))
    except Exception as err:  # a bad camera setting: keep playing with the picker
        return None, str(err), ("warn.no_camera", {})
    return CameraFeed(source, tracker, inputs), None, None
