"""The events of the table log, as value objects, and their parsing from JSON objects.

Parsing checks the shape of a line (fields present, of the right kind, identities known);
whether the rules allow it at this point is the engine's business.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.cards import parse_identity
from companion.errors import LogFormatError

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True, slots=True)
class Event:
    def to_json(self) -> dict[str, Any]:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class GameStart(Event):
    players: tuple[str, ...]
    first: str

    def to_json(self) -> dict[str, Any]:
        return {"event": "game", "players": list(self.players), "first": self.first}


@dataclass(frozen=True, slots=True)
class Investigate(Event):
    player: str
    card: str
    success: bool
    guess: str | None = None

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"event": "investigate", "player": self.player, "card": self.card}
        if self.guess is not None:
            line["guess"] = self.guess
        line["success"] = self.success
        return line


@dataclass(frozen=True, slots=True)
class Duel(Event):
    player: str
    target: str
    accepted: bool
    cards: Mapping[str, str] | None = None  # {player: identity, target: identity} if accepted

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"event": "duel", "player": self.player, "target": self.target,
                                "accepted": self.accepted}
        if self.cards is not None:
            line["cards"] = dict(self.cards)
        return line


@dataclass(frozen=True, slots=True)
class Reveal(Event):
    player: str
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"event": "reveal", "player": self.player, "card": self.card}


@dataclass(frozen=True, slots=True)
class Undo(Event):
    def to_json(self) -> dict[str, Any]:
        return {"event": "undo"}


EVENT_NAMES = ("game", "investigate", "duel", "reveal", "undo")


def parse_event(line: Any) -> Event:
    """An Event from one decoded JSON line. Raises LogFormatError naming what is wrong."""
    if not isinstance(line, Mapping):
        raise LogFormatError(f"a line must be a JSON object, not {_kind(line)}")
    name = line.get("event")
    if name is None:
        raise LogFormatError('the line has no "event" field')
    parser = _PARSERS.get(name) if isinstance(name, str) else None
    if parser is None:
        raise LogFormatError(
            f"unknown event {name!r}: the events are {', '.join(EVENT_NAMES)}"
        )
    return parser(line)


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "true or false", type(None): "null",
            int: "a number", float: "a number", dict: "an object"}.get(type(value), "that")


def _field(line: Mapping[str, Any], key: str, event: str) -> Any:
    if key not in line or line[key] is None:
        raise LogFormatError(f'the {event} line has no "{key}" field')
    return line[key]


def has_control_character(text: str) -> bool:
    """Whether ``text`` holds a control character (a NUL, a tab, a newline, a line or
    paragraph separator): no screen can draw one in a line of text. Spaces of every kind,
    joiners (in emoji) and direction marks are letters' company, not control characters."""
    return any(unicodedata.category(c) == "Cc" or c in "\u2028\u2029" for c in text)


def _is_name(value: Any) -> bool:
    """A player's name: text, not blank, without control characters."""
    return _not_a_name(value) is None


def _not_a_name(value: Any) -> str | None:
    """Why ``value`` is no player's name (``_is_name``), or None when it is one."""
    if not isinstance(value, str):
        return f"{value!r} is not text"
    if not value.strip():
        return f"{value!r} is blank"
    if has_control_character(value):
        return f"{value!r} holds a control character"
    return None


def _name(line: Mapping[str, Any], key: str, event: str) -> str:
    value = _field(line, key, event)
    if not _is_name(value):
        raise LogFormatError(f'"{key}" of a {event} line must be a player\'s name, '
                             f"not {value!r}")
    return value


def _bool(line: Mapping[str, Any], key: str, event: str) -> bool:
    value = _field(line, key, event)
    if not isinstance(value, bool):
        raise LogFormatError(f'"{key}" of a {event} line must be true or false, not {value!r}')
    return value


def _game(line: Mapping[str, Any]) -> GameStart:
    players = _field(line, "players", "game")
    if not isinstance(players, list):
        raise LogFormatError(f'"players" of the game line must be a list of names, not '
                             f"{players!r}")
    for p in players:
        if (why := _not_a_name(p)) is not None:
            raise LogFormatError(f'"players" of the game line must be names: {why}')
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise LogFormatError(
            f"Abraca Who? is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
        )
    seen: set[str] = set()
    for p in players:
        if p in seen:
            raise LogFormatError(f"two players are called {p!r}: every name must be different")
        seen.add(p)
    first = line.get("first")
    if first is None:
        first = players[0]
    elif first not in players:
        raise LogFormatError(f"the first player {first!r} is not one of the players")
    return GameStart(tuple(players), first)


def _investigate(line: Mapping[str, Any]) -> Investigate:
    player = _name(line, "player", "investigate")
    card = parse_identity(_field(line, "card", "investigate"))
    has_success = line.get("success") is not None
    has_guess = line.get("guess") is not None
    if not has_success and not has_guess:
        raise LogFormatError('the investigate line needs "success" or "guess"')
    guess = parse_identity(line["guess"]) if has_guess else None
    success = _bool(line, "success", "investigate") if has_success else guess == card
    if has_guess and success != (guess == card):
        raise LogFormatError(
            f'"guess" and "success" disagree: {player} announced {guess} and the card is '
            f"{card}, so the investigation {'succeeded' if guess == card else 'failed'}"
        )
    return Investigate(player, card, success, guess)


def _duel(line: Mapping[str, Any]) -> Duel:
    player = _name(line, "player", "duel")
    target = _name(line, "target", "duel")
    if player == target:
        raise LogFormatError(f"{player} cannot challenge themselves: choose another player")
    accepted = _bool(line, "accepted", "duel")
    cards = line.get("cards")
    if not accepted:
        if cards is not None:
            raise LogFormatError("a refused duel reveals no cards: remove \"cards\"")
        return Duel(player, target, False)
    cards = _field(line, "cards", "duel")
    if not isinstance(cards, Mapping) or set(cards) != {player, target}:
        raise LogFormatError(
            f'"cards" must give the cards of exactly the two duellists, {player} and {target}'
        )
    parsed = {who: parse_identity(card) for who, card in cards.items()}
    return Duel(player, target, True, {player: parsed[player], target: parsed[target]})


def _reveal(line: Mapping[str, Any]) -> Reveal:
    return Reveal(_name(line, "player", "reveal"), parse_identity(_field(line, "card", "reveal")))


def _undo(line: Mapping[str, Any]) -> Undo:
    return Undo()


_PARSERS = {"game": _game, "investigate": _investigate, "duel": _duel, "reveal": _reveal,
            "undo": _undo}
