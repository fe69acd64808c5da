"""What each dial shows, as pure functions of the game state and the time. No devices here.

Every look is told apart by how many candles are lit and how they blink, never by colour:

- health: as many candles lit, steady, as the player has health (1 to 5);
- whose turn it is: their health candles blink slowly (0.6 s on, 0.4 s off);
- a seat that must show its card: candle 1 flashes twice, then rests (1.2 s);
- eliminated, or no player in that seat: dark;
- round end (2 s): one light runs along every dial in play;
- winners (about 6 s): the winners' candles fill one by one, then all flash twice; other dials
  are dark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hardware.config import CANDLES

HEALTH_MAX = 5
TURN_PERIOD, TURN_ON = 1.0, 0.6
REVEAL_PERIOD = 1.2
REVEAL_FLASHES = ((0.0, 0.15), (0.3, 0.45))
ROUND_END_STEP = 0.1
ROUND_END_TIME = 2.0
WINNER_FILL_STEP = 0.15
WINNER_FLASH = 0.3
WINNER_CYCLE = CANDLES * WINNER_FILL_STEP + 4 * WINNER_FLASH  # fill, on, off, on, off
WINNER_TIME = 3 * WINNER_CYCLE
FRAME_STEP = 0.05  # every pattern changes on a multiple of this

Levels = tuple[int, ...]  # one dial: 0 or 1 per candle, candle 1 first
DARK: Levels = (0,) * CANDLES


class PanelStateError(ValueError):
    """A game state the dials cannot show; the message says which part is wrong."""


@dataclass(frozen=True, slots=True)
class SeatLook:
    """What one dial shows: ``mode`` is "dark", "health", "turn" or "reveal"."""

    mode: str
    health: int = 0


def bar(count: int) -> Levels:
    return tuple(1 if i < count else 0 for i in range(CANDLES))


def looks_from_state(state: Mapping, seats: int) -> tuple[SeatLook, ...]:
    """One SeatLook per seat for a table-log State; PanelStateError if it cannot be shown."""
    if not isinstance(state, Mapping):
        raise PanelStateError(f"the state must be a JSON object, got {type(state).__name__}")
    players = state.get("players")
    if not isinstance(players, Sequence) or isinstance(players, str) or not players:
        raise PanelStateError(f"state.players must be a list of players, got {players!r}")
    if len(players) > seats:
        raise PanelStateError(f"the game has {len(players)} players but the table has dials "
                              f"for {seats} seats")
    names = []
    looks = []
    for i, player in enumerate(players):
        where = f"state.players[{i}]"
        if not isinstance(player, Mapping):
            raise PanelStateError(f"{where} must be an object, got {player!r}")
        health, alive = player.get("health"), player.get("alive")
        if isinstance(health, bool) or not isinstance(health, int) or \
                not 0 <= health <= HEALTH_MAX:
            raise PanelStateError(f"{where}.health must be 0 to {HEALTH_MAX}, got {health!r}")
        if not isinstance(alive, bool):
            raise PanelStateError(f"{where}.alive must be true or false, got {alive!r}")
        names.append(player.get("name"))
        on = alive and health > 0
        looks.append(SeatLook("health", health) if on else SeatLook("dark"))
    expect = state.get("expect")
    if expect is not None:
        if not isinstance(expect, Mapping):
            raise PanelStateError(f"state.expect must be an object or null, got {expect!r}")
        if "player" in expect:
            seat = _seat_of(names, expect["player"], "state.expect.player")
            if looks[seat].mode == "health":
                looks[seat] = SeatLook("turn", looks[seat].health)
        for name in expect.get("players") or ():
            seat = _seat_of(names, name, "state.expect.players")
            looks[seat] = SeatLook("reveal", looks[seat].health)
    return tuple(looks) + (SeatLook("dark"),) * (seats - len(looks))


def winner_seats(state: Mapping) -> tuple[int, ...]:
    """The seat indexes (0 = first player) of ``state["winners"]``."""
    names = [p.get("name") for p in state.get("players", ())]
    return tuple(_seat_of(names, name, "state.winners") for name in state.get("winners", ()))


def _seat_of(names: list, name, where: str) -> int:
    try:
        return names.index(name)
    except ValueError:
        raise PanelStateError(f"{where} names {name!r}, who is not at the table") from None


def look_levels(look: SeatLook, elapsed: float) -> Levels:
    """A dial's candles ``elapsed`` seconds after it started showing ``look``."""
    if look.mode == "health":
        return bar(look.health)
    if look.mode == "turn":
        return bar(look.health) if _phase(elapsed, TURN_PERIOD) < TURN_ON else DARK
    if look.mode == "reveal":
        t = _phase(elapsed, REVEAL_PERIOD)
        return bar(1) if any(a <= t < b for a, b in REVEAL_FLASHES) else DARK
    return DARK


def look_wait(look: SeatLook, elapsed: float) -> float | None:
    """Seconds from ``elapsed`` until ``look``'s candles next change; None if they never do.
    The animation thread sleeps this long instead of waking on every frame step."""
    if look.mode == "turn":
        edges = (TURN_ON, TURN_PERIOD)
        period = TURN_PERIOD
    elif look.mode == "reveal":
        edges = tuple(t for flash in REVEAL_FLASHES for t in flash) + (REVEAL_PERIOD,)
        period = REVEAL_PERIOD
    else:
        return None
    t = _phase(elapsed, period)
    return min(edge - t for edge in edges if edge > t)


def round_end_levels(elapsed: float) -> Levels:
    """Round end: one light running along the dial."""
    lit = int(_steps(elapsed, ROUND_END_STEP)) % CANDLES
    return tuple(1 if i == lit else 0 for i in range(CANDLES))


def winner_levels(elapsed: float) -> Levels:
    """A winner's dial: candles fill one by one, then all flash twice."""
    t = _phase(elapsed, WINNER_CYCLE)
    fill = CANDLES * WINNER_FILL_STEP
    if t < fill:
        return bar(int(_steps(t, WINNER_FILL_STEP)) + 1)
    return bar(CANDLES) if int(_steps(t - fill, WINNER_FLASH)) % 2 == 0 else DARK


def _steps(t: float, step: float) -> float:
    # A tiny nudge so that exact multiples of a step land on the step they start.
    return (t + 1e-9) / step


def _phase(t: float, period: float) -> float:
    return (t + 1e-9) % period
