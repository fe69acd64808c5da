"""The dials as the table's controller drives them: through whole games, on every shipped
wiring, at the round's end, the game's end, an undo, and while players take their seats; and
the brightness setting, from the start and from the operator menu."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hw_helpers import with_oe

from companion.app.controller import Controller
from companion.app.inputs import Press
from companion.app.screens.operator import row_values
from companion.engine import Game
from companion.simulate import play_game
from hardware.config import default_pinmap, direct_pinmap
from hardware.panel import build_panel
from hardware.patterns import ROUND_END_TIME, WINNER_TIME

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "full-game.jsonl"
DARK = (0.0,) * 5


def lit(health):
    return tuple(1.0 if k < health else 0.0 for k in range(5))


@pytest.fixture(params=["shift-register", "direct"])
def panel(request, mock_factory, panel_on):
    pinmap = default_pinmap() if request.param == "shift-register" else direct_pinmap()
    return panel_on(pinmap, mock_factory)


def seated(panel, players=3):
    ctl = Controller(Game, panel=panel, camera=False, rng=random.Random(1))
    for seat in range(1, players + 1):
        ctl.handle(Press("seat", seat))
    ctl.handle(Press("ok"))
    ctl.handle(Press("seat", 1))
    return ctl


def test_the_dials_show_a_game_on_every_wiring(panel):
    """On the 3-seat direct wiring the dials never lit: the state was padded to 6 seats, and
    every move said 'the game has 6 players but the table has dials for 3 seats'."""
    ctl = seated(panel)
    assert ctl.message is None or ctl.message[0] != "msg.panel_fault", ctl.message
    rows = panel.led_states()
    assert rows[1:3] == (lit(5), lit(5)) and rows[0][0] == 1.0  # seat 1 to act
    assert all(row == DARK for row in rows[3:])


def test_the_dials_are_dark_while_the_players_take_their_seats(panel):
    panel.show_levels([[1] * 5] * panel.pinmap.seats)  # something lit from before
    ctl = Controller(Game, panel=panel, camera=False)
    ctl.handle(Press("seat", 1))
    assert all(row == DARK for row in panel.led_states())


def test_after_the_winners_light_the_dials_show_how_the_game_ended(panel, clock):
    """The dials went back to the state before the last move (a player out shown lit, the
    winner blinking as if to act) until the next game."""
    if panel.pinmap.seats >= 4:  # the example game, of four
        lines = [json.loads(x) for x in EXAMPLE.read_text().splitlines() if x.strip()]
    else:  # a whole game of three
        lines = [dict(e) for e in play_game(["Ann", "Ben", "Cat"], 1)[1]]
    game = Game()
    for line in lines[:-1]:
        game.push(line)
    ctl = Controller(Game, panel=panel, game=game, camera=False, effects=True)
    ctl.game.push(lines[-1])  # the last move, as the flow pushes it
    ctl._after_push(lines[-1], [{"kind": "game_end", "winners": ctl.state["winners"]}])
    clock.advance(WINNER_TIME + 0.1)
    panel.tick()
    final = ctl.state
    rows = panel.led_states()
    for seat, player in enumerate(final["players"]):
        assert rows[seat] == (lit(player["health"]) if player["alive"] else DARK)


def test_the_round_light_runs_on_seats_in_play_only_and_an_undo_stops_it(panel, clock):
    ctl = seated(panel, players=2)
    before = panel.led_states()
    panel.celebrate_round_end()
    clock.advance(0.25)
    panel.tick()
    rows = panel.led_states()
    assert rows[:2] != before[:2] and all(row == DARK for row in rows[2:])
    ctl._show()  # a new state (an undo) shows at once, the light put out
    assert panel.led_states() == before
    clock.advance(ROUND_END_TIME)
    panel.tick()
    assert panel.led_states() == before


# brightness ---------------------------------------------------------------------------------

def dimming(name, factory, panel_on):
    """A panel that dims, and the level of a lit candle of seat 2 as its pins give it."""
    if name == "direct":
        pinmap = direct_pinmap()
        pin = factory.pin(pinmap.dials[1][0])
        level = lambda: pin.state  # noqa: E731
    else:
        pinmap = with_oe()
        oe = factory.pin(pinmap.chain.oe)
        level = lambda: 1 - oe.state  # noqa: E731 - OE is active low
    return panel_on(pinmap, factory), level


@pytest.mark.parametrize("wiring", ["direct", "chain with OE"])
def test_the_menus_brightness_reaches_the_dials(wiring, pwm_factory, panel_on):
    panel, level = dimming(wiring, pwm_factory, panel_on)
    ctl = Controller(Game, panel=panel, camera=False, led_brightness=0.5)
    ctl.handle(Press("seat", 1))
    ctl.handle(Press("seat", 2))
    ctl.handle(Press("ok"))
    ctl.handle(Press("seat", 1))
    assert panel.led_states()[1] == lit(5) and level() == pytest.approx(0.25)
    ctl.handle(Press("operator"))
    ctl.handle(Press("seat", 3))  # LED brightness: 50 -> 75 %
    assert ctl.led_brightness == 0.75 and level() == pytest.approx(0.5625)
    ctl.handle(Press("seat", 3))
    assert level() == 1.0 and ctl.brightness_applies
    assert row_values(ctl, "en")[2] == "100%"


@pytest.mark.parametrize("wiring", ["direct", "chain with OE"])
def test_the_kept_brightness_reaches_the_dials_as_the_table_starts(wiring, pwm_factory,
                                                                   panel_on):
    panel, level = dimming(wiring, pwm_factory, panel_on)
    Controller(Game, panel=panel, camera=False, led_brightness=0.25)
    assert panel.brightness == 0.25
    panel.show_levels([[1] * 5] * panel.pinmap.seats)
    assert level() == pytest.approx(0.0625)


def test_ignored_is_said_only_where_the_dials_cannot_dim(pwm_factory, mock_factory, events,
                                                         clock):
    def says(pinmap, factory):
        with build_panel(pinmap, events=events, pin_factory=factory, clock=clock,
                         animate=False) as p:
            ctl = Controller(Game, panel=p, camera=False, led_brightness=0.5)
            return ctl.brightness_applies, row_values(ctl, "en")[2]

    ignored = (False, "50% (kept; these dials ignore it)")
    assert says(direct_pinmap(), pwm_factory) == (True, "50%")
    assert says(default_pinmap(), pwm_factory) == ignored  # OE on GND
    assert says(with_oe(), pwm_factory) == (True, "50%")
    assert says(direct_pinmap(), mock_factory) == ignored  # pins without PWM
