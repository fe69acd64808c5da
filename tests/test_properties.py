"""Random whole games at a simulated physical table, checked after every event."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import DECK_SIZE
from companion.engine import Game
from companion.errors import TableError
from companion.simulate import SimTable
from companion.tablelog import encode, load_game, replay_bytes

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def check_invariants(game: Game, table: SimTable, stones_before: list[int]) -> None:
    s = game.state
    assert s["deck"] == len(table.deck)
    assert s["revealed"] == table.revealed()
    assert s["deck"] + sum(s["revealed"].values()) + table.held() == DECK_SIZE
    owed = set(s["expect"]["players"]) if s["expect"] and s["expect"]["action"] == "reveal" \
        else set()
    for p in s["players"]:
        assert 0 <= p["health"] <= 5
        if not p["alive"]:
            assert p["health"] == 0
            if p["name"] not in owed and not s["over"]:
                assert table.hands[p["name"]] is None, f"{p['name']} is out but holds a card"
    stones = [p["stones"] for p in s["players"]]
    assert all(now >= was for now, was in zip(stones, stones_before, strict=True))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32 - 1),
       undo_rate=st.sampled_from([0.0, 0.1, 0.3]))
def test_random_games_keep_the_physical_table_and_the_engine_in_step(n, seed, undo_rate):
    rng = random.Random(seed)
    table = SimTable(NAMES[:n], rng)
    game = Game()
    log = [table.start_event()]
    table.play(game, log[0])
    for _ in range(2000):
        if game.over:
            break
        stones_before = [p["stones"] for p in game.state["players"]]
        event = table.next_event(game)
        if rng.random() < undo_rate:
            # Undo restores the exact previous state (a game that is over takes no undo).
            snapshot = game.state
            game.push(event)
            if not game.over:
                game.pop()
                assert game.state == snapshot
                log += [event, {"event": "undo"}]
            else:
                game = load_game(game.events[:-1])
        table.play(game, event)
        log.append(event)
        check_invariants(game, table, stones_before)
    assert game.over
    assert game.state["winners"] == [p["name"] for p in game.state["players"]
                                     if p["stones"] >= 7]
    # The written log replays to the same state.
    replayed = replay_bytes(b"".join(encode(e) for e in log))
    assert replayed.error is None
    assert replayed.game.state == game.state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6))
def test_undo_all_the_way_back_retraces_every_state(seed, n):
    rng = random.Random(seed)
    table = SimTable(NAMES[:n], rng)
    game = Game()
    table.play(game, table.start_event())
    states = [game.state]
    while not game.over and len(states) < 80:
        table.play(game, table.next_event(game))
        states.append(game.state)
    if game.over:  # undo is not allowed once the game is over: check up to the end
        states.pop()
        game = Game()
        for event in replay_events(table, seed, n, len(states)):
            game.push(event)
    while game.can_undo:
        assert game.state == states[-1]
        game.pop()
        states.pop()
    assert game.state == states[0] and len(states) == 1


def replay_events(table, seed, n, count):
    """The same game again from the same seed, its first `count` events."""
    rng = random.Random(seed)
    t = SimTable(NAMES[:n], rng)
    g = Game()
    first = t.start_event()
    t.play(g, first)
    yield first
    for _ in range(count - 1):
        event = t.next_event(g)
        t.play(g, event)
        yield event


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), junk=st.dictionaries(
    st.sampled_from(["event", "player", "target", "card", "guess", "success", "accepted",
                     "cards", "players", "first"]),
    st.one_of(st.none(), st.booleans(), st.integers(-2, 9), st.text(max_size=8),
              st.sampled_from(["game", "investigate", "duel", "reveal", "undo", "Ann", "Ben",
                               "cook", "ghost", "vampire"]),
              st.dictionaries(st.sampled_from(["Ann", "Ben", "Cat"]),
                              st.sampled_from(["cook", "ghost", "x"]))),
    max_size=6))
def test_any_line_is_either_applied_or_refused_without_change(seed, junk):
    rng = random.Random(seed)
    table = SimTable(NAMES[:3], rng)
    game = Game()
    table.play(game, table.start_event())
    for _ in range(rng.randrange(0, 20)):
        if game.over:
            break
        table.play(game, table.next_event(game))
    before = game.state
    events = list(game.events)
    try:
        game.push(junk)
    except TableError as exc:
        assert str(exc)
        assert game.state == before and game.events == events
