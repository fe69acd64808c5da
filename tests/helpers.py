"""Short ways to write table log lines in tests."""

from __future__ import annotations

from companion.engine import Game


def game(*players: str, first: str | None = None) -> dict:
    line: dict = {"event": "game", "players": list(players)}
    if first is not None:
        line["first"] = first
    return line


def inv(player: str, card: str, success: bool | None = None, guess: str | None = None) -> dict:
    line: dict = {"event": "investigate", "player": player, "card": card}
    if success is not None:
        line["success"] = success
    if guess is not None:
        line["guess"] = guess
    return line


def duel(player: str, target: str, mine: str | None = None, theirs: str | None = None) -> dict:
    if mine is None:
        return {"event": "duel", "player": player, "target": target, "accepted": False}
    return {"event": "duel", "player": player, "target": target, "accepted": True,
            "cards": {player: mine, target: theirs}}


def reveal(player: str, card: str) -> dict:
    return {"event": "reveal", "player": player, "card": card}


UNDO = {"event": "undo"}


def play(*lines: dict) -> Game:
    g = Game()
    for line in lines:
        g.push(line)
    return g


def player(g: Game, name: str) -> dict:
    return next(p for p in g.state["players"] if p["name"] == name)
