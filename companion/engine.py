"""The rules engine: events in, state out. No I/O, no clock.

A `Game` takes the events of the table log one at a time (`push`), either applying one
fully or refusing it with a `TableError` that leaves everything as it was, and takes them
back with `pop` (undo). Each pushed event keeps the state from before it, so undo is a pop
of a small snapshot, as cheap early in the game as late.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.cards import COPIES, DECK_SIZE, IDENTITIES, POWER, display_name
from companion.errors import RuleError
from companion.events import (
    Duel,
    Event,
    GameStart,
    Investigate,
    Reveal,
    Undo,
    parse_event,
)

MAX_HEALTH = 5
STONES_TO_WIN = 7
SURVIVOR_STONES = 3

_TURN, _INVESTIGATE, _REVEAL, _OVER, _NO_GAME = "turn", "investigate", "reveal", "over", "game"


class _State:
    """One moment of the game. Never changed once a push has finished with it."""

    __slots__ = ("names", "health", "stones", "alive", "round", "deck", "revealed", "owner",
                 "phase", "actor", "owed", "pending", "winners", "_json")

    def __init__(self) -> None:
        self.names: tuple[str, ...] = ()
        self.health: list[int] = []
        self.stones: list[int] = []
        self.alive: list[bool] = []
        self.round = 0
        self.deck = 0
        self.revealed: dict[str, int] = dict.fromkeys(IDENTITIES, 0)
        self.owner = 0  # seat whose turn it is (the challenger during a refused duel)
        self.phase = _NO_GAME
        self.actor = 0  # seat that must act now (turn owner, or the target who refused)
        self.owed: tuple[int, ...] = ()  # seats that still owe a reveal
        self.pending = -1  # the investigator who draws once the reveals are in
        self.winners: tuple[str, ...] = ()
        self._json: dict[str, Any] | None = None

    def copy(self) -> _State:
        s = _State.__new__(_State)
        s.names = self.names
        s.health = self.health.copy()
        s.stones = self.stones.copy()
        s.alive = self.alive.copy()
        s.round = self.round
        s.deck = self.deck
        s.revealed = self.revealed.copy()
        s.owner = self.owner
        s.phase = self.phase
        s.actor = self.actor
        s.owed = self.owed
        s.pending = self.pending
        s.winners = self.winners
        s._json = None
        return s

    def expect(self) -> dict[str, Any] | None:
        if self.phase == _TURN:
            return {"action": "turn", "player": self.names[self.actor]}
        if self.phase == _INVESTIGATE:
            return {"action": "investigate", "player": self.names[self.actor]}
        if self.phase == _REVEAL:
            return {"action": "reveal", "players": [self.names[i] for i in self.owed]}
        if self.phase == _OVER:
            return None
        return {"action": "game"}

    def to_json(self) -> dict[str, Any]:
        if self._json is None:
            self._json = {
                "round": self.round,
                "over": self.phase == _OVER,
                "winners": list(self.winners),
                "deck": self.deck,
                "revealed": dict(self.revealed),
                "players": [
                    {"name": n, "health": h, "stones": st, "alive": a}
                    for n, h, st, a in zip(self.names, self.health, self.stones, self.alive,
                                           strict=True)
                ],
                "expect": self.expect(),
            }
        return self._json


class Game:
    """A game of Abraca Who? as it happens at the table.

    >>> g = Game()
    >>> _ = g.push({"event": "game", "players": ["Ann", "Ben"]})
    >>> g.expect
    {'action': 'turn', 'player': 'Ann'}
    """

    def __init__(self) -> None:
        self._state = _State()
        self._stack: list[tuple[Event, Mapping[str, Any], _State]] = []

    # -- reading ---------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The state as the table log's State JSON. Treat it as read-only."""
        return self._state.to_json()

    @property
    def expect(self) -> dict[str, Any] | None:
        return self._state.expect()

    @property
    def over(self) -> bool:
        return self._state.phase == _OVER

    @property
    def started(self) -> bool:
        return self._state.phase != _NO_GAME

    @property
    def players(self) -> tuple[str, ...]:
        return self._state.names

    @property
    def events(self) -> list[Mapping[str, Any]]:
        """The events in force, oldest first (undone ones are gone)."""
        return [raw for _, raw, _ in self._stack]

    @property
    def event_count(self) -> int:
        """How many events are in force (len(events), without building the list)."""
        return len(self._stack)

    @property
    def can_undo(self) -> bool:
        return len(self._stack) > 1 and self._state.phase != _OVER

    def figures(self) -> dict[str, Any]:
        """The deduction aid: public information only (see rulings.md)."""
        return public_figures(self.state)

    # -- changing --------------------------------------------------------------------------
    def push(self, event: Mapping[str, Any] | Event) -> list[dict[str, Any]]:
        """Apply one event (a table log line as a dict, or a parsed Event).

        Returns notes saying what happened, in order. Raises TableError and changes
        nothing when the event is malformed or the rules forbid it. An `undo` event pops.
        """
        parsed = event if isinstance(event, Event) else parse_event(event)
        raw = event if not isinstance(event, Event) else parsed.to_json()
        if isinstance(parsed, Undo):
            self.pop()
            return [{"kind": "undo"}]
        new, notes = self._apply(parsed)
        self._stack.append((parsed, raw, self._state))
        self._state = new
        return notes

    def check(self, event: Mapping[str, Any] | Event) -> list[dict[str, Any]]:
        """Raise TableError exactly as push would, without applying anything; else return
        the notes push would return (so a caller can see, say, that it would end the game)."""
        parsed = event if isinstance(event, Event) else parse_event(event)
        if isinstance(parsed, Undo):
            self._check_undo()
            return [{"kind": "undo"}]
        return self._apply(parsed)[1]

    def pop(self) -> Event:
        """Take back the most recent event still in force, and return it."""
        self._check_undo()
        parsed, _, before = self._stack.pop()
        self._state = before
        return parsed

    def _check_undo(self) -> None:
        if self._state.phase == _NO_GAME:
            raise RuleError("there is nothing to undo: no game has started", code="no_game")
        if self._state.phase == _OVER:
            raise RuleError("the game is over: start a new game", code="game_over")
        if len(self._stack) <= 1:
            raise RuleError("there is nothing to undo: the game has just started",
                            code="nothing_to_undo")

    # -- the rules -------------------------------------------------------------------------
    def _apply(self, ev: Event) -> tuple[_State, list[dict[str, Any]]]:
        s = self._state
        if s.phase == _OVER:
            raise RuleError("the game is over: start a new game", code="game_over")
        if s.phase == _NO_GAME:
            if not isinstance(ev, GameStart):
                raise RuleError("no game has started: the first line must be a game",
                                code="no_game")
            return _start(ev)
        if isinstance(ev, GameStart):
            raise RuleError("a game is already under way: only its first line can start it",
                            code="game_started")
        s = s.copy()
        notes: list[dict[str, Any]] = []
        if isinstance(ev, Investigate):
            _investigate(s, ev, notes)
        elif isinstance(ev, Duel):
            _duel(s, ev, notes)
        elif isinstance(ev, Reveal):
            _reveal(s, ev, notes)
        else:  # pragma: no cover - parse_event only makes the kinds above
            raise RuleError(f"the companion cannot play {ev!r}")
        return s, notes


def public_figures(state: Mapping[str, Any]) -> dict[str, Any]:
    """Unseen count per identity and the chance of each for a random unseen card.

    Takes a State JSON, so anything that shows state can call it.
    """
    revealed = state["revealed"]
    unseen = {i: COPIES[i] - (0 if i == "ghost" else revealed.get(i, 0)) for i in IDENTITIES}
    total = sum(unseen.values())
    chance = {i: (unseen[i] / total if total else 0.0) for i in IDENTITIES}
    return {"deck": state["deck"], "unseen": unseen, "unseen_total": total, "chance": chance}


# -- steps of the rules, each on a working copy -----------------------------------------------
def _start(ev: GameStart) -> tuple[_State, list[dict[str, Any]]]:
    s = _State()
    s.names = ev.players
    n = len(ev.players)
    s.stones = [0] * n
    s.owner = ev.players.index(ev.first)
    _new_round(s, 1)
    return s, [{"kind": "round_start", "round": 1, "player": ev.first}]


def _new_round(s: _State, number: int) -> None:
    n = len(s.names)
    s.round = number
    s.health = [MAX_HEALTH] * n
    s.alive = [True] * n
    s.deck = DECK_SIZE - n
    s.revealed = dict.fromkeys(IDENTITIES, 0)
    s.phase, s.actor, s.owed, s.pending = _TURN, s.owner, (), -1


def _seat(s: _State, name: str, role: str) -> int:
    try:
        return s.names.index(name)
    except ValueError:
        raise RuleError(
            f"there is no {role} called {name!r} at this table (players: {', '.join(s.names)})",
            code="no_such_player", player=name) from None


def _must_act(s: _State, who: int, action: str) -> None:
    name = s.names[who]
    if s.phase == _REVEAL:
        owed = " and ".join(s.names[i] for i in s.owed)
        raise RuleError(f"{owed} must first show the card they held (reveal), not {name}",
                        code="reveal_first", players=[s.names[i] for i in s.owed])
    if s.phase == _INVESTIGATE:
        actor = s.names[s.actor]
        if action == "duel":
            raise RuleError(f"{actor} refused the duel and must investigate now: no new duel",
                            code="must_investigate", player=actor)
        if who != s.actor:
            raise RuleError(f"{actor} refused the duel and must investigate now, not {name}",
                            code="must_investigate", player=actor)
        return
    if who != s.actor:
        raise RuleError(f"it is {s.names[s.actor]}'s turn, not {name}'s", code="not_your_turn",
                        player=s.names[s.actor])


def _check_counts(s: _State, cards: list[str]) -> None:
    """Ruling 11: this round's revealed identities never exceed their copies."""
    for card in set(cards):
        shown = cards.count(card)
        already = 0 if card == "ghost" else s.revealed[card]
        if already + shown <= COPIES[card]:
            continue
        name = display_name(card, plural=COPIES[card] > 1)
        if card == "ghost":
            raise RuleError("there is only one Ghost: both cards cannot be the Ghost: "
                            "check the cards", code="one_ghost")
        if already == COPIES[card]:
            every = "both" if COPIES[card] == 2 else f"all {COPIES[card]}"
            raise RuleError(f"{every} {name} are already revealed this round: check the card",
                            code="too_many", card=card, copies=COPIES[card], seen=already)
        left = COPIES[card] - already
        raise RuleError(
            f"{already} of the {COPIES[card]} {name} are already revealed this round, so "
            f"{shown} more cannot be: check the cards (only {left} left unseen)",
            code="too_many", card=card, copies=COPIES[card], seen=already)


def _show(s: _State, seat: int, card: str, notes: list) -> None:
    notes.append({"kind": "revealed", "player": s.names[seat], "card": card})
    if card == "ghost":
        s.deck += 1
        notes.append({"kind": "ghost_shuffled"})
    else:
        s.revealed[card] += 1


def _damage(s: _State, seat: int, amount: int, notes: list) -> None:
    if not s.alive[seat]:
        return
    s.health[seat] = max(0, s.health[seat] - amount)
    notes.append({"kind": "damage", "player": s.names[seat], "amount": amount})
    if s.health[seat] == 0:
        _eliminate(s, seat, notes)


def _eliminate(s: _State, seat: int, notes: list) -> None:
    s.alive[seat] = False
    s.health[seat] = 0
    notes.append({"kind": "eliminated", "player": s.names[seat]})


def _gain(s: _State, seat: int, amount: int, why: str, notes: list) -> None:
    s.stones[seat] += amount
    notes.append({"kind": "stones", "player": s.names[seat], "amount": amount, "why": why})


def _game_won(s: _State, notes: list) -> bool:
    """Ruling 9: the game ends the moment anyone has 7 stones or more."""
    if max(s.stones) < STONES_TO_WIN:
        return False
    s.winners = tuple(n for n, st in zip(s.names, s.stones, strict=True) if st >= STONES_TO_WIN)
    s.phase, s.owed, s.pending = _OVER, (), -1
    notes.append({"kind": "game_end", "winners": list(s.winners)})
    return True


def _end_round(s: _State, why: str, notes: list, pair: tuple[int, int] | None = None) -> None:
    """Ruling 8's rewards, then ruling 9, then ruling 10's next round."""
    if why == "deck":
        for seat in range(len(s.names)):
            if s.alive[seat]:
                _gain(s, seat, 1, "deck", notes)
    elif why == "survivor":
        _gain(s, s.alive.index(True), SURVIVOR_STONES, "survivor", notes)
    elif why == "pair" and pair is not None:
        for seat in pair:
            _gain(s, seat, 1, "pair", notes)
    notes.append({"kind": "round_end", "round": s.round, "why": why})
    if _game_won(s, notes):
        return
    _new_round(s, s.round + 1)
    notes.append({"kind": "round_start", "round": s.round, "player": s.names[s.owner]})


def _round_over_by_eliminations(s: _State, notes: list,
                                pair: tuple[int, int] | None = None) -> bool:
    left = s.alive.count(True)
    if left >= 2:
        return False
    if left == 1:
        _end_round(s, "survivor", notes)
    elif pair is not None:
        _end_round(s, "pair", notes, pair)
    else:
        _end_round(s, "none", notes)
    return True


def _draw(s: _State, seat: int, notes: list) -> bool:
    """The seat draws if still in. True when that emptied the deck and ended the round."""
    if not s.alive[seat]:
        return False
    s.deck -= 1
    notes.append({"kind": "draw", "player": s.names[seat]})
    if s.deck > 0:
        return False
    _end_round(s, "deck", notes)
    return True


def _next_turn(s: _State) -> None:
    """Ruling 6: the next player still in, clockwise from the turn's owner."""
    n = len(s.names)
    seat = s.owner
    for _ in range(n):
        seat = (seat + 1) % n
        if s.alive[seat]:
            break
    s.owner = s.actor = seat
    s.phase, s.owed, s.pending = _TURN, (), -1


def _investigate(s: _State, ev: Investigate, notes: list) -> None:
    me = _seat(s, ev.player, "player")
    _must_act(s, me, "investigate")
    _check_counts(s, [ev.card])
    _show(s, me, ev.card, notes)
    was_alive = s.alive.copy()
    if ev.success:
        _investigate_effect(s, me, ev.card, notes)
    else:
        _damage(s, me, 1, notes)
    if _game_won(s, notes) or _round_over_by_eliminations(s, notes):
        return
    owed = tuple(i for i, (a, b) in enumerate(zip(was_alive, s.alive, strict=True))
                 if a and not b and i != me)
    if owed:
        s.phase, s.owed, s.pending = _REVEAL, owed, me
        return
    _finish_investigation(s, me, notes)


def _investigate_effect(s: _State, me: int, card: str, notes: list) -> None:
    others = [i for i in range(len(s.names)) if i != me and s.alive[i]]
    if card == "ghost":
        for i in others:
            _eliminate(s, i, notes)
    elif card == "vampire":
        _gain(s, me, 2, "vampire", notes)
    elif card == "living_armor":
        for i in others:
            _damage(s, i, 2, notes)
    elif card == "butler":
        if s.health[me] < MAX_HEALTH:
            s.health[me] += 1
            notes.append({"kind": "heal", "player": s.names[me], "amount": 1})
        for i in others:
            _damage(s, i, 1, notes)
    elif card == "cook":
        _gain(s, me, 1, "cook", notes)
    # The Cleaner looks at the deck's top card and puts it at the bottom: nothing to track.


def _finish_investigation(s: _State, me: int, notes: list) -> None:
    if _draw(s, me, notes):
        return
    _next_turn(s)


def _duel(s: _State, ev: Duel, notes: list) -> None:
    me = _seat(s, ev.player, "player")
    _must_act(s, me, "duel")
    them = _seat(s, ev.target, "player to challenge")
    if them == me:
        raise RuleError(f"{ev.player} cannot challenge themselves: choose another player",
                        code="challenge_self", player=ev.player)
    if not s.alive[them]:
        raise RuleError(f"{ev.target} is out and cannot be challenged", code="target_out",
                        target=ev.target)
    if not ev.accepted:
        s.phase, s.actor = _INVESTIGATE, them
        notes.append({"kind": "refused", "player": ev.target})
        return
    mine, theirs = ev.cards[ev.player], ev.cards[ev.target]
    _check_counts(s, [mine, theirs])
    _show(s, me, mine, notes)
    _show(s, them, theirs, notes)
    _duel_outcome(s, (me, mine), (them, theirs), notes)
    if _game_won(s, notes) or _round_over_by_eliminations(s, notes, pair=(me, them)):
        return
    if _draw(s, me, notes) or _draw(s, them, notes):
        return
    _next_turn(s)


# An automatic effect: (loser's card, winner's card).
_AUTOMATIC = {("ghost", "cleaner"), ("vampire", "cook")}


def _duel_outcome(s: _State, a: tuple[int, str], b: tuple[int, str], notes: list) -> None:
    for loser, winner in ((a, b), (b, a)):
        if (loser[1], winner[1]) in _AUTOMATIC:
            _eliminate(s, loser[0], notes)
            _gain(s, winner[0], 1, "duel", notes)
            return
    pa, pb = POWER[a[1]], POWER[b[1]]
    if pa == pb:
        _damage(s, a[0], 1, notes)
        _damage(s, b[0], 1, notes)
    elif pa < pb:
        _damage(s, a[0], pb - pa, notes)
    else:
        _damage(s, b[0], pa - pb, notes)


def _reveal(s: _State, ev: Reveal, notes: list) -> None:
    who = _seat(s, ev.player, "player")
    if s.phase != _REVEAL or who not in s.owed:
        if s.phase == _REVEAL:
            owed = " and ".join(s.names[i] for i in s.owed)
            raise RuleError(f"{ev.player} owes no reveal: waiting for {owed} to show their card",
                            code="reveal_first", players=[s.names[i] for i in s.owed])
        raise RuleError(f"{ev.player} owes no reveal: nobody has to show a card now",
                        code="no_reveal_owed", player=ev.player)
    _check_counts(s, [ev.card])
    _show(s, who, ev.card, notes)
    s.owed = tuple(i for i in s.owed if i != who)
    if s.owed:
        return
    me = s.pending
    _finish_investigation(s, me, notes)
