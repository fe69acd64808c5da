"""Simulated players at a simulated physical table, for the demo and the tests.

The table is real in the ways that matter: a shuffled 21-card deck, each player holding one
card they cannot see, draws from the top, the Ghost shuffled back when revealed, a new deal
each round. The players decide like casual players (random, a little sensible) and act only
through the app's inputs: their seat buttons, OK and Back, and cards laid on the camera (or
picked on the screen when there is no camera).
"""

from __future__ import annotations

import random

from companion.app.controller import BY_POWER, SEAT_COLOURS
from companion.app.inputs import Press
from companion.cards import COPIES, IDENTITIES, POWER, full_deck


class SimPlayers:
    """Holds the physical cards and plays for everyone.

    camera: an object with lay(zone, label) and take(zone) (the synthetic camera), or None to
    use the card picker.
    """

    def __init__(self, rng: random.Random, *, camera=None, accept: float = 0.7,
                 investigate: float = 0.5, patience: float = 4.0):
        self.rng = rng
        self.camera = camera
        self.accept = accept
        self.investigate = investigate
        self.deck: list[str] = []
        self.hands: dict[str, str | None] = {}
        self.laid: set[str] = set()
        self.patience = patience  # seconds to wait for the camera before using the picker
        self._waiting_since: float | None = None
        self._waiting_for: tuple | None = None

    # ----- the physical cards, following the engine's notes --------------------------------
    def deal(self, players: list[str]) -> None:
        self.deck = full_deck()
        self.rng.shuffle(self.deck)
        self.hands = {p: self.deck.pop() for p in players}

    def resume(self, state: dict) -> None:
        """Lay out a table for a game read back from its log: the cards not yet revealed this
        round, one in each hand still in, the rest as the deck."""
        cards = full_deck()
        for ident, n in state["revealed"].items():
            for _ in range(n):
                if ident in cards:
                    cards.remove(ident)
        self.rng.shuffle(cards)
        self.hands = {p["name"]: (cards.pop() if p["alive"] and cards else None)
                      for p in state["players"]}
        self.deck = cards[-state["deck"]:] if state["deck"] else []

    def _possible(self, ctl, card: str) -> str:
        """The card itself, or, if this round's revealed pile says it cannot be (a table that
        lost track), one that can."""
        revealed = ctl.state["revealed"]
        if card == "ghost" or revealed.get(card, 0) < COPIES[card]:
            return card
        return next(i for i in IDENTITIES if i == "ghost" or revealed.get(i, 0) < COPIES[i])

    def follow(self, notes: list[dict], players: list[str], event: dict | None = None) -> None:
        """Move the cards as the table would after an event and its notes."""
        for note in notes:
            kind = note.get("kind")
            if kind == "round_start":
                self.deal(players)
            elif kind == "revealed":
                p = note["player"]
                card = self.hands.get(p)
                self.hands[p] = None
                if card == "ghost" or note.get("card") == "ghost":
                    self.deck.append("ghost")
            elif kind == "ghost_shuffled":
                self.rng.shuffle(self.deck)
            elif kind == "draw":
                if self.deck:
                    self.hands[note["player"]] = self.deck.pop()
        if event and event.get("event") == "investigate" and event.get("card") == "cleaner" \
                and event.get("guess") == "cleaner" and self.deck:
            self.deck.insert(0, self.deck.pop())  # the Cleaner's look: top card to the bottom

    # ----- deciding -----------------------------------------------------------------------
    def next_input(self, ctl) -> list:
        """What the players do now, as inputs for the controller (possibly none)."""
        phase = ctl.phase
        if phase == "setup_join":
            if len(ctl.joined) < self._want_players:
                free = [s for s in range(1, 7) if s not in ctl.joined]
                # Seats given a name are taken first: the players named are the ones playing.
                named = [s for s in free if ctl.names[s - 1] != SEAT_COLOURS[s - 1]]
                return [Press("seat", self.rng.choice(named or free))]
            return [Press("ok")]
        if phase == "setup_first":
            return [Press("ok")]
        if phase in ("summary", "over"):
            return [Press("ok")]
        state = ctl.state
        if phase == "turn":
            me = ctl.game.expect["player"]
            others = [p["name"] for p in state["players"] if p["alive"] and p["name"] != me]
            if not others or self.rng.random() < self.investigate:
                return [Press("seat", ctl.seat_for(me))]
            return [Press("seat", ctl.seat_for(self.rng.choice(others)))]
        pend = ctl.pending
        if phase == "answer":
            if self.rng.random() < self.accept:
                return [Press("seat", ctl.seat_for(pend.target))]
            return [Press("back")]
        if phase == "guess":
            return [Press("seat", POWER[self._guess(ctl, pend.player)])]
        if phase == "cards":
            zone = next(z for z in pend.zones if z not in pend.cards)
            holder = pend.player if zone == "a" else pend.target
            card = self.hands.get(holder)
            if card is None:
                card = self.rng.choice(IDENTITIES)
            card = self._possible(ctl, card)
            key = (ctl.game.event_count, pend.kind, zone)
            if self._waiting_since is None or self._waiting_for != key:
                self._waiting_since, self._waiting_for = ctl.now, key
            waited = ctl.now - self._waiting_since
            if pend.picker and not (zone in self.laid and waited <= self.patience):
                return [Press("seat", POWER[card])]  # pick it, unless the camera may still
            if self.camera is None:
                return [Press("ok")]
            if waited > self.patience:
                self._waiting_since = None  # the camera does not see it: use the picker
                return [Press("ok")] if not pend.picker else [Press("seat", POWER[card])]
            if zone not in self.laid:
                if ctl.mat.get(zone, (None, False))[0] is not None:
                    return []  # the last card there is not seen taken away yet
                self.camera.lay(zone, card)
                self.laid.add(zone)
            return []
        if phase == "confirm":
            return [Press("ok")]
        return []

    def pick_up(self) -> None:
        """After an event is applied the cards leave the mat."""
        if self.camera is not None:
            for zone in sorted(self.laid):
                try:
                    self.camera.take(zone)
                except ValueError:
                    pass  # already on its way out
        self.laid.clear()
        self._waiting_since = None

    _want_players = 4

    def _guess(self, ctl, me: str) -> str:
        """A guess from what this player sees: the unseen cards minus the others' hands."""
        unseen = dict(ctl.game.figures()["unseen"])
        for p, card in self.hands.items():
            if p != me and card is not None and unseen.get(card, 0) > 0:
                unseen[card] -= 1
        pool = [i for i in IDENTITIES for _ in range(max(unseen[i], 0))]
        return self.rng.choice(pool) if pool else BY_POWER[1]
