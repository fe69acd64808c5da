"""What the players and the devices tell the app: small value objects on one input queue.

Every device (buttons, keyboard, touch screen, camera) only turns what it sees into one of
these and puts it on the queue; the controller is the only thing that reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

SEATS = 6
BUTTON_NAMES = tuple(f"seat{n}" for n in range(1, SEATS + 1)) + ("ok", "back", "undo")


@dataclass(frozen=True, slots=True)
class Press:
    """A command: a seat button, ok, back, undo, or a touch/keyboard-only one.

    kind: "seat" (value: seat number 1..6), "ok", "back", "undo", "card" (value: an identity
    id, from the on-screen card picker), "lang" (switch language), "skip" (skip the effect),
    "operator" (open or close the operator menu: the F10 key), "quit".
    """

    kind: str
    value: object = None
    long: bool = False


@dataclass(frozen=True, slots=True)
class Seen:
    """The camera read a card laid in a slot of the mat ("a" or "b")."""

    zone: str
    label: str
    score: float = 1.0


@dataclass(frozen=True, slots=True)
class Unsure:
    """Something lies in a slot but the camera cannot tell which card it is."""

    zone: str


@dataclass(frozen=True, slots=True)
class Taken:
    """The card in a slot was picked up."""

    zone: str


@dataclass(frozen=True, slots=True)
class Stuck:
    """A button reads pressed far longer than any press: held down, jammed, or its wire
    shorted to ground. ``button``: its name ("ok", "seat3"); ``seconds``: how long it had been
    down (0: it was down when the table started); ``where``: its wire, for the journal."""

    button: str
    seconds: float = 0.0
    where: str = ""


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: now is seconds on the app's clock (injected, never read inside)."""

    now: float


def is_press(item) -> bool:
    """A player's press: a Press, or a hardware ButtonEvent (name and long) not yet one."""
    return isinstance(item, Press) or (hasattr(item, "name") and hasattr(item, "long"))


def from_button(event) -> Press | None:
    """A hardware ButtonEvent(name, long) as a Press; None for a name the app does not know."""
    name = getattr(event, "name", None)
    long = bool(getattr(event, "long", False))
    if name in ("ok", "back", "undo"):
        return Press(name, long=long)
    if isinstance(name, str) and name.startswith("seat") and name[4:].isdigit():
        n = int(name[4:])
        if 1 <= n <= SEATS:
            return Press("seat", n, long=long)
    return None


def is_stuck(item) -> bool:
    """The hardware's word that a button is stuck (a ButtonStuck), for any button."""
    return type(item).__name__ == "ButtonStuck"


def from_stuck(event) -> Stuck | None:
    """The hardware's ButtonStuck(name, seconds, where) as a Stuck; None for anything else,
    and for a button the app does not know."""
    if not is_stuck(event) or getattr(event, "name", None) not in BUTTON_NAMES:
        return None
    return Stuck(event.name, float(getattr(event, "seconds", 0.0)),
                 str(getattr(event, "where", "")))


def from_reveal(event) -> Seen | Unsure | Taken | None:
    """A reveal tracker event (CardLaid, CardTaken, CardUnsure) as an app input."""
    kind = type(event).__name__
    zone = getattr(event, "zone", None)
    if zone is None:
        return None
    if kind == "CardLaid":
        return Seen(zone, str(event.label), float(getattr(event, "score", 1.0)))
    if kind == "CardTaken":
        return Taken(zone)
    if kind == "CardUnsure":
        return Unsure(zone)
    return None


# Keyboard: the same commands as the buttons, so the whole game can be played from keys.
KEYS = {
    "1": Press("seat", 1), "2": Press("seat", 2), "3": Press("seat", 3),
    "4": Press("seat", 4), "5": Press("seat", 5), "6": Press("seat", 6),
    "return": Press("ok"), "enter": Press("ok"), "space": Press("skip"),
    "escape": Press("back"), "backspace": Press("back"),
    "u": Press("undo"), "z": Press("undo"), "l": Press("lang"), "q": Press("quit"),
    "f10": Press("operator"),
}


def from_key(name: str) -> Press | None:
    """A key name (pygame.key.name spelling) as a Press; None for keys the app ignores."""
    return KEYS.get(name.lower())
