"""The 21 identity cards of Abraca Who?"""

from __future__ import annotations

from companion.errors import LogFormatError

# In power order, strongest first. Ids are the table log's spelling.
IDENTITIES = ("ghost", "vampire", "living_armor", "butler", "cook", "cleaner")
POWER = {"ghost": 6, "vampire": 5, "living_armor": 4, "butler": 3, "cook": 2, "cleaner": 1}
COPIES = {"ghost": 1, "vampire": 2, "living_armor": 3, "butler": 4, "cook": 5, "cleaner": 6}
DECK_SIZE = sum(COPIES.values())  # 21

_NAMES = {"ghost": "Ghost", "vampire": "Vampire", "living_armor": "Living Armor",
          "butler": "Butler", "cook": "Cook", "cleaner": "Cleaner"}
_PLURALS = {"ghost": "Ghosts", "vampire": "Vampires", "living_armor": "Living Armors",
            "butler": "Butlers", "cook": "Cooks", "cleaner": "Cleaners"}
_ALIASES = {name: name for name in IDENTITIES}
_ALIASES.update({"knight": "living_armor", "living armor": "living_armor", "chef": "cook"})


def full_deck() -> list[str]:
    """The 21 cards, in power order (shuffle before use)."""
    return [card for card in IDENTITIES for _ in range(COPIES[card])]


def parse_identity(text: object) -> str:
    """The identity id for a name as written in a log or typed by a person.

    >>> parse_identity("Chef")
    'cook'
    """
    if isinstance(text, str):
        found = _ALIASES.get(text.strip().lower())
        if found:
            return found
    raise LogFormatError(
        f"{text!r} is not an identity: use one of {', '.join(IDENTITIES)} (or knight, chef)"
    )


def label_identity(label: str) -> str | None:
    """The identity a card recogniser's label names (a reference folder's name, such as
    ``living-armor`` or ``Chef``), or None for a label that names none."""
    try:
        return parse_identity(label.replace("-", " "))
    except ValueError:
        return None


def identities_missing(labels) -> list[str]:
    """The identities none of the recogniser's ``labels`` names, in power order."""
    named = {label_identity(label) for label in labels}
    return [i for i in IDENTITIES if i not in named]


def display_name(identity: str, *, plural: bool = False) -> str:
    """The card's printed name, e.g. 'Living Armor'."""
    return (_PLURALS if plural else _NAMES)[identity]
