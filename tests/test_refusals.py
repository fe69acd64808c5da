"""Every refusal of the engine has a code, and the app says it in both languages."""

from __future__ import annotations

import pytest

from companion.app.i18n import CATALOGUE, refusal, tr
from companion.engine import Game
from companion.errors import RuleError
from companion.events import Duel

PLAYERS = ["Ann", "Ben", "Cat"]


def game(*events):
    g = Game()
    g.push({"event": "game", "players": PLAYERS, "first": "Ann"})
    for ev in events:
        g.push(ev)
    return g


def duel(player, target, a, b):
    return {"event": "duel", "player": player, "target": target, "accepted": True,
            "cards": {player: a, target: b}}


def wrong(player, card, guess):
    return {"event": "investigate", "player": player, "card": card, "guess": guess}


CASES = {
    "not_your_turn": (lambda: game(), wrong("Ben", "cook", "ghost")),
    "no_such_player": (lambda: game(), wrong("Zed", "cook", "ghost")),
    "one_ghost": (lambda: game(), duel("Ann", "Ben", "ghost", "ghost")),
    "too_many": (lambda: game(wrong("Ann", "vampire", "ghost"), wrong("Ben", "vampire", "ghost")),
                 wrong("Cat", "vampire", "ghost")),
    "game_started": (lambda: game(), {"event": "game", "players": PLAYERS, "first": "Ann"}),
    "no_game": (lambda: Game(), wrong("Ann", "cook", "ghost")),
    "must_investigate": (
        lambda: game({"event": "duel", "player": "Ann", "target": "Ben", "accepted": False}),
        duel("Ben", "Cat", "cook", "butler")),
    "no_reveal_owed": (lambda: game(), {"event": "reveal", "player": "Ann", "card": "cook"}),
    # A log line challenging oneself is refused when read; a Duel built in code, by the rules.
    "challenge_self": (lambda: game(), Duel("Ann", "Ann", accepted=False)),
    "reveal_first": (lambda: cat_out(), wrong("Ann", "cook", "ghost")),
    "target_out": (lambda: cat_out(reveal=True), duel("Ben", "Cat", "cook", "butler")),
    "game_over": (lambda: finished(), wrong("Ann", "cook", "ghost")),
}


def cat_out(reveal=False):
    """Cat loses her last stone of health in a duel and owes the table her card."""
    g = Game()
    for ev in [
        {"event": "game", "players": PLAYERS, "first": "Ben"},
        {"event": "duel", "player": "Ben", "target": "Cat", "accepted": False},
        wrong("Cat", "cook", "cleaner"),
        {"event": "duel", "player": "Cat", "target": "Ben", "accepted": False},
        wrong("Ben", "vampire", "vampire"),
        wrong("Ann", "living_armor", "ghost"),
        duel("Ben", "Ann", "cleaner", "cook"),
        wrong("Cat", "cleaner", "butler"),
        {"event": "duel", "player": "Ann", "target": "Cat", "accepted": False},
        wrong("Cat", "butler", "butler"),
        {"event": "duel", "player": "Ben", "target": "Cat", "accepted": False},
        wrong("Cat", "cleaner", "cook"),
        duel("Cat", "Ben", "cleaner", "butler"),
        wrong("Ann", "living_armor", "living_armor"),
    ] + ([{"event": "reveal", "player": "Cat", "card": "butler"}] if reveal else []):
        g.push(ev)
    assert not g.state["players"][2]["alive"]
    return g


def finished():
    from companion.simulate import play_game

    g = Game()
    for ev in play_game(PLAYERS, 0)[1]:
        g.push(dict(ev))
    assert g.state["over"]
    return g


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_has_its_code_and_changes_nothing(code):
    make, bad = CASES[code]
    g = make()
    before = g.state
    with pytest.raises(RuleError) as caught:
        g.push(bad)
    assert caught.value.code == code
    assert g.state == before
    key, args = refusal(caught.value)
    assert key == f"rule.{code}"
    english, korean = tr("en", key, **args), tr("ko", key, **args)
    assert "{" not in english and "{" not in korean and english != korean


def test_undo_refusals_have_codes():
    with pytest.raises(RuleError) as caught:
        game().pop()
    assert caught.value.code == "nothing_to_undo"
    with pytest.raises(RuleError) as caught:
        Game().pop()
    assert caught.value.code == "no_game"


def test_every_rule_message_exists_in_both_languages():
    rules = {k for k in CATALOGUE["en"] if k.startswith("rule.")}
    assert rules == {k for k in CATALOGUE["ko"] if k.startswith("rule.")}
    assert {f"rule.{c}" for c in CASES} <= rules


def test_a_refusal_without_a_code_keeps_its_own_sentence():
    err = ValueError("the cards slipped")
    assert refusal(err) == ("msg.refused", {"text": "the cards slipped"})
