"""The dials: health on mock pins in both wirings, the turn blink, celebrations, bad states."""

from __future__ import annotations

import queue
import re
import time

import pytest
from hw_helpers import sent_words
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import patterns
from hardware.config import default_pinmap, direct_pinmap
from hardware.mockchip import Mock74HC595Chain
from hardware.panel import PanelStateError, build_panel, virtual_panel

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def state(*healths, turn=None, reveal=(), over=False):
    players = [{"name": NAMES[i], "health": h, "alive": h > 0, "stones": 0}
               for i, h in enumerate(healths)]
    if reveal:
        expect = {"action": "reveal", "players": list(reveal)}
    elif turn is not None:
        expect = {"action": "turn", "player": turn}
    else:
        expect = None
    return {"round": 1, "over": over, "winners": [], "deck": 10, "revealed": {},
            "players": players, "expect": expect}


def bars(*counts):
    return tuple(tuple(1.0 if i < c else 0.0 for i in range(5)) for c in counts)


def lit_pins(mock_factory, pinmap):
    return [[mock_factory.pin(p).state for p in dial] for dial in pinmap.dials]


@pytest.fixture
def direct(mock_factory, panel_on):
    return panel_on(direct_pinmap(), mock_factory)


@pytest.fixture
def chained(mock_factory, chain_on):
    return chain_on(default_pinmap(), mock_factory)


@pytest.mark.parametrize("health", range(6))
def test_direct_wiring_lights_the_right_pins(mock_factory, direct, health):
    others = (5 - health, 3)
    direct.show(state(health, *others))
    pins = lit_pins(mock_factory, direct.pinmap)
    for seat, count in enumerate((health, *others)):
        assert pins[seat] == [i < count for i in range(5)], (seat, count)
    assert direct.led_states() == bars(health, *others)
    assert [dial.lit_count for dial in direct.dials] == [health, *others]


@pytest.mark.parametrize("health", range(6))
def test_chain_wiring_lights_the_right_outputs(mock_factory, chained, health):
    panel, chip = chained
    healths = [health, (health + 1) % 6, (health + 2) % 6, (health + 3) % 6, 5 - health, 2]
    level = bool(mock_factory.pin(panel.pinmap.chain.data).state)
    chip.trace.clear()
    panel.show(state(*healths))
    words = sent_words(chip.trace, level)
    assert len(words) <= 1  # the whole panel in one word (none if nothing changed)
    word = words[-1] if words else chip.outputs
    assert word == chip.outputs
    for seat, count in enumerate(healths):
        outputs = panel.pinmap.dials[seat]
        assert [word[o] for o in outputs] == [i < count for i in range(5)], (seat, count)
    assert not any(word[30:])
    assert panel.led_states() == bars(*healths)


def test_every_dial_update_is_one_word_on_the_chain(mock_factory, chained):
    panel, chip = chained
    before = chip.latches
    panel.show(state(5, 4, 3, 2, 1, 5))
    panel.show(state(1, 2, 3, 4, 5, 1))
    assert chip.latches == before + 2
    panel.show(state(1, 2, 3, 4, 5, 1))  # nothing changed: nothing sent
    assert chip.latches == before + 2


def test_eliminated_and_empty_seats_are_dark_direct(direct):
    direct.show(state(0, 4))
    assert direct.led_states() == bars(0, 4, 0)


def test_eliminated_and_empty_seats_are_dark_chain(chained):
    panel, chip = chained
    panel.show(state(5, 0, 3))
    assert panel.led_states() == bars(5, 0, 3, 0, 0, 0)
    assert sum(chip.outputs) == 8


def test_turn_blinks_the_players_health(direct, clock):
    direct.show(state(5, 2, 3, turn="Ben"))
    assert direct.led_states() == bars(5, 2, 3)
    direct.tick(clock.advance(0.55))
    assert direct.led_states() == bars(5, 2, 3)
    direct.tick(clock.advance(0.1))
    assert direct.led_states() == bars(5, 0, 3)
    direct.tick(clock.advance(0.4))
    assert direct.led_states() == bars(5, 2, 3)
    # the turn passes: Ben steady, Cat blinks from lit
    direct.show(state(5, 2, 3, turn="Cat"))
    assert direct.led_states() == bars(5, 2, 3)
    direct.tick(clock.advance(0.7))
    assert direct.led_states() == bars(5, 2, 0)


def test_seat_owing_a_reveal_flashes_candle_one_twice(direct, clock):
    direct.show(state(4, 0, 2, reveal=["Ben"]))
    seen = []
    for _ in range(25):
        seen.append(direct.led_states()[1])
        direct.tick(clock.advance(0.05))
    assert set(seen) == {bars(0)[0], bars(1)[0]}
    flashes = sum(1 for a, b in zip(seen, seen[1:], strict=False) if b > a)
    assert seen[0] == bars(1)[0] and flashes == 2  # on at 0 and 0.3, again at 1.2
    assert direct.led_states()[0] == bars(4)[0]


def test_round_end_runs_a_light_then_returns(direct, clock):
    direct.show(state(5, 1))
    direct.celebrate_round_end()
    positions = []
    for _ in range(10):
        row = direct.led_states()
        assert row[2] == bars(0)[0]  # no player in seat 3
        assert sum(row[0]) == 1 and row[0] == row[1]
        positions.append(row[0].index(1.0))
        direct.tick(clock.advance(0.1))
    assert positions == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    direct.tick(clock.advance(patterns.ROUND_END_TIME))
    assert direct.led_states() == bars(5, 1, 0)


def test_winners_fill_and_flash_others_dark(chained, clock):
    panel, _chip = chained
    s = state(0, 3, 0, 2, turn=None, over=True)
    s["winners"] = ["Ben", "Dan"]
    panel.show(s)
    panel.celebrate_winners(patterns.winner_seats(s))
    counts = []
    for _ in range(round(patterns.WINNER_CYCLE / 0.15)):
        rows = panel.led_states()
        assert rows[1] == rows[3] and rows[0] == rows[2] == rows[4] == bars(0)[0]
        counts.append(int(sum(rows[1])))
        panel.tick(clock.advance(0.15))
    assert counts[:5] == [1, 2, 3, 4, 5] and 0 in counts[5:] and 5 in counts[5:]
    panel.tick(clock.advance(patterns.WINNER_TIME))
    assert panel.led_states() == bars(0, 3, 0, 2, 0, 0)


@pytest.mark.parametrize("bad, words", [
    (state(5, 5, 5, 5), "4 players but the table has dials for 3 seats"),
    ({"players": [{"name": "A", "health": 7, "alive": True}]}, "players[0].health"),
    ({"players": [{"name": "A", "health": 2}]}, "players[0].alive"),
    ({"players": []}, "state.players"),
    ([1, 2], "JSON object"),
    (state(5, 5, turn="Zed"), "'Zed', who is not at the table"),
    ({**state(5, 5), "expect": "turn"}, "state.expect"),
])
def test_bad_state_is_refused_and_changes_nothing(direct, bad, words):
    direct.show(state(2, 3, 4))
    with pytest.raises(PanelStateError, match=re.escape(words)):
        direct.show(bad)
    assert isinstance(PanelStateError("x"), ValueError)
    assert direct.led_states() == bars(2, 3, 4)


def test_bad_winner_seat_is_refused(direct):
    direct.show(state(2, 3))
    with pytest.raises(PanelStateError, match="no seat 3"):
        direct.celebrate_winners([0, 3])
    assert direct.led_states() == bars(2, 3, 0)


def test_show_levels_and_back(direct):
    direct.show(state(1, 1, 1))
    direct.show_levels([(0, 0, 1, 0, 0), (0,) * 5, (1,) * 5])
    assert direct.led_states() == ((0.0, 0.0, 1.0, 0.0, 0.0), bars(0)[0], bars(5)[0])
    with pytest.raises(ValueError):
        direct.show_levels([(1,) * 5])
    direct.show(state(1, 1, 1))
    assert direct.led_states() == bars(1, 1, 1)


def test_animation_runs_in_the_background(events, panels):
    panel = virtual_panel(events=events)
    panels.append(panel)
    start = time.monotonic()
    panel.show(state(3, 3, turn="Ann"))
    panel.celebrate_round_end()
    assert time.monotonic() - start < 0.1  # nothing waits for the animation
    seen = set()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and len(seen) < 5:
        seen.add(panel.led_states()[0])
        time.sleep(0.02)
    assert len(seen) == 5  # the running light visited every candle on its own


def test_virtual_panel_shows_what_the_chips_latch(events, panels):
    panel = virtual_panel(events=events, animate=False)
    panels.append(panel)
    panel.show(state(5, 4, 3, 2, 1, 0))
    assert panel.led_states() == bars(5, 4, 3, 2, 1, 0)
    direct = virtual_panel(direct_pinmap(), events=events, animate=False)
    panels.append(direct)
    direct.show(state(1, 2, 3))
    assert direct.led_states() == bars(1, 2, 3)


def test_close_darkens_and_frees_the_pins(mock_factory, chained, events, clock):
    panel, chip = chained
    panel.show(state(5, 5, 5, 5, 5, 5))
    assert sum(chip.outputs) == 30
    panel.close()
    panel.close()
    assert panel.closed and sum(chip.outputs) == 0
    again = build_panel(panel.pinmap, events=events, pin_factory=mock_factory, clock=clock,
                        animate=False)
    again.close()


@settings(max_examples=40, deadline=None)
@given(healths=st.lists(st.integers(0, 5), min_size=2, max_size=6), data=st.data())
def test_any_state_reaches_the_chips_as_its_dials(healths, data):
    """Whatever the state, the word the simulated chips latch is the dials' health bars (the
    seat to act starts its blink lit)."""
    from gpiozero.pins.mock import MockFactory

    alive = [i for i, h in enumerate(healths) if h > 0]
    turn = NAMES[data.draw(st.sampled_from(alive))] if alive else None
    factory = MockFactory()
    pm = default_pinmap()
    c = pm.chain
    chip = Mock74HC595Chain(factory, data=c.data, clock=c.clock, latch=c.latch)
    panel = build_panel(pm, events=queue.Queue(), pin_factory=factory, animate=False)
    try:
        level = bool(factory.pin(c.data).state)
        chip.trace.clear()
        panel.show(state(*healths, turn=turn))
        expected = [i < h for h in healths + [0] * (6 - len(healths)) for i in range(5)]
        words = sent_words(chip.trace, level)
        assert len(words) == (1 if any(healths) else 0)
        word = words[0] if words else chip.outputs
        assert list(chip.outputs[:30]) == expected
        assert word == chip.outputs
    finally:
        panel.close()
        factory.close()


@settings(max_examples=200, deadline=None)
@given(mode=st.sampled_from(["turn", "reveal"]), health=st.integers(1, 5),
       elapsed=st.floats(0, 30, allow_nan=False))
def test_blinking_dials_wake_exactly_when_the_candles_change(mode, health, elapsed):
    look = patterns.SeatLook(mode, health)
    wait = patterns.look_wait(look, elapsed)
    assert 0 < wait <= 1.2
    before = patterns.look_levels(look, elapsed)
    # nothing changes until the wait is over ...
    for part in (0.25, 0.5, 0.75, 0.999):
        assert patterns.look_levels(look, elapsed + wait * part - 1e-7) == before
    # ... and the candles differ right after it
    assert patterns.look_levels(look, elapsed + wait + 1e-6) != before


def test_steady_dials_never_wake_the_animation(direct, clock):
    direct.show(state(5, 2, 3))
    assert direct.wait_time(clock()) is None
    direct.show(state(5, 2, 3, turn="Ben"))
    assert direct.wait_time(clock()) == pytest.approx(patterns.TURN_ON)
    clock.advance(0.7)
    assert direct.wait_time(clock()) == pytest.approx(0.3)
    direct.celebrate_round_end()
    assert direct.wait_time(clock()) == patterns.FRAME_STEP


def test_the_turn_blinks_on_its_own_in_the_background(events, panels):
    panel = virtual_panel(events=events)
    panels.append(panel)
    panel.show(state(3, 3, turn="Ann"))
    seen = []
    deadline = time.monotonic() + 2.5
    while time.monotonic() < deadline:
        now = panel.led_states()[0]
        if not seen or seen[-1] != now:
            seen.append(now)
        time.sleep(0.02)
    assert seen[:4] == [bars(3)[0], bars(0)[0], bars(3)[0], bars(0)[0]]
