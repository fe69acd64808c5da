"""Every kind of bad line in table-log.md: refused with a message, state untouched."""

from __future__ import annotations

import re

import pytest

from companion.engine import Game
from companion.errors import LogFormatError, RuleError, TableError
from tests.helpers import UNDO, duel, game, inv, play, reveal


def refused(g: Game, line, match: str, kind=TableError) -> None:
    before = g.state
    events = list(g.events)
    with pytest.raises(kind, match=match):
        g.push(line)
    assert g.state == before
    assert g.events == events


def three() -> Game:
    return play(game("Ann", "Ben", "Cat"))


def test_not_an_object():
    refused(three(), ["investigate"], "must be a JSON object", LogFormatError)


def test_no_game_first():
    refused(Game(), inv("Ann", "cook", True), "first line must be a game", RuleError)


def test_game_line_only_once():
    refused(three(), game("Ann", "Ben"), "already under way", RuleError)


def test_unknown_event():
    refused(three(), {"event": "shuffle"}, "unknown event 'shuffle'", LogFormatError)
    refused(three(), {"player": "Ann"}, 'no "event" field', LogFormatError)


def test_unknown_identity():
    refused(three(), inv("Ann", "dragon", True), "'dragon' is not an identity", LogFormatError)
    refused(three(), inv("Ann", "cook", guess="wizard"), "'wizard' is not an identity")


@pytest.mark.parametrize("line, field", [
    ({"event": "investigate", "card": "cook", "success": True}, "player"),
    ({"event": "investigate", "player": "Ann", "success": True}, "card"),
    ({"event": "duel", "player": "Ann", "accepted": False}, "target"),
    ({"event": "duel", "player": "Ann", "target": "Ben"}, "accepted"),
    ({"event": "duel", "player": "Ann", "target": "Ben", "accepted": True}, "cards"),
    ({"event": "reveal", "player": "Ann"}, "card"),
    ({"event": "game"}, "players"),
])
def test_missing_field(line, field):
    g = three() if line["event"] != "game" else Game()
    refused(g, line, f'no "{field}" field', LogFormatError)


def test_investigate_needs_success_or_guess():
    refused(three(), {"event": "investigate", "player": "Ann", "card": "cook"},
            '"success" or "guess"', LogFormatError)


def test_fields_of_the_wrong_kind():
    refused(three(), {"event": "investigate", "player": "Ann", "card": "cook", "success": 1},
            "must be true or false")
    refused(three(), {"event": "investigate", "player": 7, "card": "cook", "success": True},
            "must be a player's name")
    refused(Game(), {"event": "game", "players": "Ann,Ben"}, "list of names")


def test_wrong_player_for_the_turn():
    refused(three(), inv("Ben", "cook", True), "it is Ann's turn, not Ben's", RuleError)
    refused(three(), duel("Ben", "Cat"), "it is Ann's turn", RuleError)


def test_unknown_name():
    refused(three(), inv("Zed", "cook", True), "no player called 'Zed'", RuleError)
    refused(three(), duel("Ann", "Zed"), "no player to challenge called 'Zed'", RuleError)


def test_duelling_oneself():
    refused(three(), duel("Ann", "Ann"), "cannot challenge themselves")
    refused(three(), duel("Ann", "Ann", "cook", "cook"), "cannot challenge themselves")


def test_duelling_an_eliminated_player():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "vampire", "cook"))
    # Ann is out (Cook beats Vampire); Ben's turn, Cat next.
    refused(g, duel("Ben", "Ann"), "Ann is out and cannot be challenged", RuleError)


def test_an_eliminated_player_cannot_act():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "vampire", "cook"))
    refused(g, inv("Ann", "cook", True), "it is Ben's turn, not Ann's", RuleError)


def test_cards_not_naming_exactly_the_two_duellists():
    bad = {"event": "duel", "player": "Ann", "target": "Ben", "accepted": True}
    refused(three(), bad | {"cards": {"Ann": "cook"}}, "exactly the two duellists")
    refused(three(), bad | {"cards": {"Ann": "cook", "Cat": "cook"}}, "exactly the two")
    refused(three(), bad | {"cards": {"Ann": "cook", "Ben": "cook", "Cat": "cook"}}, "exactly")
    refused(three(), bad | {"cards": ["cook", "cook"]}, "exactly the two duellists")


def test_refused_duel_with_cards():
    line = duel("Ann", "Ben", "cook", "cook") | {"accepted": False}
    refused(three(), line, "refused duel reveals no cards")


def test_guess_and_success_disagree():
    refused(three(), inv("Ann", "cook", True, guess="vampire"), "disagree", LogFormatError)
    refused(three(), inv("Ann", "cook", False, guess="chef"), "disagree", LogFormatError)


def test_more_copies_revealed_than_exist():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "vampire", False), inv("Ben", "vampire", False))
    refused(g, inv("Cat", "vampire", True), "both Vampires are already revealed", RuleError)


def test_reveal_nobody_owes():
    refused(three(), reveal("Ann", "cook"), "Ann owes no reveal", RuleError)


def test_reveal_by_the_wrong_player():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "living_armor", "cleaner"),
             inv("Ben", "cook", False), inv("Cat", "living_armor", True))
    assert g.expect == {"action": "reveal", "players": ["Ben"]}
    refused(g, reveal("Ann", "cook"), "Ann owes no reveal: waiting for Ben", RuleError)
    refused(g, inv("Ann", "cook", True), "Ben must first show the card", RuleError)


def test_undo_with_nothing_to_take_back():
    refused(three(), UNDO, "nothing to undo", RuleError)
    refused(Game(), UNDO, "nothing to undo", RuleError)


def test_new_duel_while_the_target_must_investigate():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben"))
    refused(g, duel("Ann", "Cat"), "Ben refused the duel and must investigate now", RuleError)


@pytest.mark.parametrize("players, match", [
    (["Ann", "Ann"], "two players are called 'Ann'"),
    (["Ann", ""], "must be names: '' is blank"),
])
def test_bad_players(players, match):
    refused(Game(), {"event": "game", "players": players}, match)


def test_first_player_not_at_the_table():
    refused(Game(), game("Ann", "Ben", first="Cat"), "the first player 'Cat'")


def test_check_validates_without_applying():
    g = three()
    before = g.state
    notes = g.check(inv("Ann", "cook", True))
    assert g.state == before
    assert notes == three().push(inv("Ann", "cook", True))  # what push would say
    with pytest.raises(RuleError):
        g.check(inv("Ben", "cook", True))
    with pytest.raises(RuleError):
        g.check(UNDO)


@pytest.mark.parametrize("name", ["Ann\u0000", "Ann\nBen", "\tAnn", "Ann\u2028Ben"])
def test_a_name_with_a_control_character_is_no_name(name):
    """A NUL in a name crashed the screen at its first redraw (pygame refuses the text)."""
    refused(Game(), game(name, "Ben"), "must be names: .* holds a control character",
            LogFormatError)
    refused(three(), inv(name, "cook", True), "must be a player's name", LogFormatError)


@pytest.mark.parametrize(("players", "why"), [
    (["Ann", " "], "' ' is blank"),
    (["Ann", 7], "7 is not text"),
    ("Ann, Ben", "must be a list of names, not 'Ann, Ben'"),
])
def test_a_game_line_says_which_player_is_no_name_and_why(players, why):
    """Every such line was refused as 'must be a list of names', naming neither."""
    refused(Game(), {"event": "game", "players": players}, re.escape(why), LogFormatError)


@pytest.mark.parametrize("name", ["Jean\u00a0Luc", "👩\u200d🍳 Mia", "\u200fנועה", "민지"])
def test_names_with_spaces_joiners_and_marks_of_every_kind_are_names(name):
    """A no-break space, an emoji made with a joiner, a right-to-left mark: refused as
    control characters by the first check, and a game logged by the version before with
    such a name was set aside as damaged when the table started."""
    g = play(game(name, "Ben", "Cat"))
    assert g.state["players"][0]["name"] == name
