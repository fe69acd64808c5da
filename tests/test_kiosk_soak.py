"""A kiosk runs for months: 1000 games in one process, and Python's memory stays flat."""

from __future__ import annotations

import gc
import random
import tracemalloc

from companion.kiosk.history import History
from companion.kiosk.session import TableSession
from companion.simulate import SimTable

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "민지", "서준"]


def test_a_thousand_games_with_flat_memory(tmp_path):
    rng = random.Random(7)
    history = History.open(tmp_path / "history.sqlite")
    session = TableSession.open(tmp_path / "table.jsonl", history=history, fsync=False)
    traced = {}
    try:
        for game in range(1, 1001):
            table = SimTable(rng.sample(NAMES, rng.randint(2, 6)), rng)
            start = table.start_event()
            session.new_game(start)  # (on an empty table it just starts the game)
            while not session.game.over:
                table.play(session, table.next_event(session.game))
            if game in (200, 600, 1000):
                session.clear()  # the table between two groups
                gc.collect()
                if game == 200:  # warmed up: count what is allocated from here on
                    tracemalloc.start()
                traced[game] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        session.close()
    assert history.game_count() == 1000
    assert sum(p.games for p in history.player_stats()) == sum(
        len(g.players) for g in history.list_games())
    assert len(list((tmp_path / "games").iterdir())) == 1000
    history.close()
    # Nothing accumulates per game. A leak grows in both halves; a one-off jump (a dict of the
    # interpreter's resizing once, e.g. its interned strings) shows in one half only.
    halves = (traced[600] - traced[200], traced[1000] - traced[600])
    assert min(halves) < 256 * 1024, traced
    assert max(halves) < 4 * 2**20, traced
