"""The dials follow the rules engine's own states through whole games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import Game
from companion.simulate import play_game
from hardware.config import default_pinmap
from hardware.patterns import winner_seats

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "full-game.jsonl"


def expected_dials(state):
    acting = (state.get("expect") or {}).get("player")
    owing = (state.get("expect") or {}).get("players") or []
    rows = []
    for p in state["players"]:
        if p["name"] in owing:
            rows.append((1.0, 0.0, 0.0, 0.0, 0.0))  # the double flash starts lit
        else:
            lit = p["health"] if p["alive"] else 0
            rows.append(tuple(1.0 if i < lit else 0.0 for i in range(5)))
        assert p["name"] != acting or p["alive"]
    return tuple(rows) + ((0.0,) * 5,) * (6 - len(rows))


def follow(panel, events):
    game = Game()
    for event in events:
        game.push(event)
        state = game.state
        panel.show(state)
        assert panel.led_states() == expected_dials(state), json.dumps(state)
    return game


@pytest.fixture
def panel(mock_factory, panel_on):
    return panel_on(default_pinmap(), mock_factory)


def test_example_game(panel, clock):
    lines = [json.loads(x) for x in EXAMPLE.read_text().splitlines() if x.strip()]
    game = follow(panel, lines)
    assert game.over
    seats = winner_seats(game.state)
    assert seats and all(game.state["players"][s]["name"] in game.state["winners"]
                         for s in seats)
    panel.celebrate_winners(seats)
    clock.advance(0.75)  # filled
    panel.tick()
    rows = panel.led_states()
    for seat in range(6):
        assert rows[seat] == ((1.0,) * 5 if seat in seats else (0.0,) * 5)


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 4), (3, 6)])
def test_simulated_games(panel, seed, players):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    _game, events = play_game(names, seed)
    follow(panel, events)
