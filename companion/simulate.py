"""A simulated physical table: a real shuffled deck, the card each player holds, simulated
players who choose. It plays whole games by telling a Game what happens, as players at a
real table would, and keeps the cards' physical truth so tests can check the engine's
counts against it. The demo's autoplay uses it too.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.cards import IDENTITIES, full_deck
from companion.engine import Game


@dataclass
class SimTable:
    players: list[str]
    rng: random.Random = field(default_factory=random.Random)
    smart: float = 0.4  # how often an investigator announces the right card
    accept: float = 0.6  # how often a challenged player accepts
    deck: list[str] = field(default_factory=list)  # deck[-1] is the top card
    hands: dict[str, str | None] = field(default_factory=dict)
    pile: list[str] = field(default_factory=list)  # this round's revealed area

    def start_event(self, first: str | None = None) -> dict[str, Any]:
        self._deal()
        return {"event": "game", "players": list(self.players),
                "first": first or self.rng.choice(self.players)}

    def _deal(self) -> None:
        self.deck = full_deck()
        self.rng.shuffle(self.deck)
        self.pile = []
        self.hands = {p: self.deck.pop() for p in self.players}

    def held(self) -> int:
        return sum(1 for c in self.hands.values() if c is not None)

    def revealed(self) -> dict[str, int]:
        counts = Counter(self.pile)
        return {c: counts[c] for c in IDENTITIES}

    # -- what the players do next ---------------------------------------------------------
    def next_event(self, game: Game) -> dict[str, Any]:
        exp = game.expect
        assert exp is not None, "the game is over"
        if exp["action"] == "reveal":
            who = exp["players"][0]
            return {"event": "reveal", "player": who, "card": self.hands[who]}
        me = exp["player"]
        alive = [p["name"] for p in game.state["players"] if p["alive"] and p["name"] != me]
        if exp["action"] == "turn" and self.rng.random() < 0.5:
            target = self.rng.choice(alive)
            if self.rng.random() < self.accept:
                return {"event": "duel", "player": me, "target": target, "accepted": True,
                        "cards": {me: self.hands[me], target: self.hands[target]}}
            return {"event": "duel", "player": me, "target": target, "accepted": False}
        card = self.hands[me]
        guess = card if self.rng.random() < self.smart else self.rng.choice(IDENTITIES)
        return {"event": "investigate", "player": me, "card": card, "guess": guess}

    # -- the cards move as the event says --------------------------------------------------
    def play(self, game: Game, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Push the event, then move the physical cards as the companion says: the cards
        shown go to the revealed area (the Ghost into the deck), who is told to draw draws,
        and a new round gathers and deals all the cards again. Returns the engine's notes."""
        notes = game.push(event)
        for note in notes:
            kind = note["kind"]
            if kind == "revealed":
                self._lay(note["player"], note["card"])
            elif kind == "draw":
                self.hands[note["player"]] = self.deck.pop()
            elif kind == "round_start":
                self._deal()
        if event["event"] == "investigate" and event["card"] == "cleaner" \
                and event.get("guess") == "cleaner" and self.deck:
            self.deck.insert(0, self.deck.pop())  # the Cleaner's look: top card to the bottom
        return notes

    def _lay(self, who: str, card: str) -> None:
        assert self.hands[who] == card, f"{who} holds {self.hands[who]}, not {card}"
        self.hands[who] = None
        if card == "ghost":
            self.deck.insert(self.rng.randrange(len(self.deck) + 1), card)
        else:
            self.pile.append(card)


def play_game(players: list[str], seed: int, *, max_events: int = 10_000) -> tuple[Game, list]:
    """A whole game at a simulated table: the Game and the events as the log holds them."""
    rng = random.Random(seed)
    table = SimTable(players, rng)
    game = Game()
    events = [table.start_event()]
    table.play(game, events[0])
    while not game.over and len(events) < max_events:
        event = table.next_event(game)
        table.play(game, event)
        events.append(event)
    return game, events
