"""One test (at least) per ruling of rulings.md, named after it."""

from __future__ import annotations

import pytest

from companion.cards import COPIES, IDENTITIES
from companion.engine import Game
from companion.errors import RuleError, TableError
from tests.helpers import UNDO, duel, game, inv, play, player, reveal


def health(g: Game) -> dict[str, int]:
    return {p["name"]: p["health"] for p in g.state["players"]}


def stones(g: Game) -> dict[str, int]:
    return {p["name"]: p["stones"] for p in g.state["players"]}


# -- the card table --------------------------------------------------------------------------
def test_cards_table_has_21_cards_with_the_rulebook_powers():
    assert sum(COPIES.values()) == 21
    assert [COPIES[i] for i in IDENTITIES] == [1, 2, 3, 4, 5, 6]
    g = play(game("Ann", "Ben"))
    assert g.state["deck"] == 19


# -- ruling 1 ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_ruling_01_two_to_six_players_start_with_5_health(n):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:n]
    g = play(game(*names))
    assert [p["name"] for p in g.state["players"]] == names
    assert all(p["health"] == 5 and p["alive"] and p["stones"] == 0 for p in g.state["players"])
    assert g.state["deck"] == 21 - n
    assert g.expect == {"action": "turn", "player": "Ann"}


@pytest.mark.parametrize("n", [0, 1, 7])
def test_ruling_01_fewer_than_two_or_more_than_six_players_is_refused(n):
    with pytest.raises(TableError, match="2 to 6 players"):
        play(game(*[f"P{i}" for i in range(n)]))


def test_ruling_01_health_cap_is_5_when_a_butler_heals():
    g = play(game("Ann", "Ben"), inv("Ann", "butler", True))
    assert health(g) == {"Ann": 5, "Ben": 4}


# -- ruling 2 ------------------------------------------------------------------------------
def test_ruling_02_investigation_reveals_the_card_and_the_investigator_draws():
    g = play(game("Ann", "Ben"), inv("Ann", "cleaner", guess="cleaner"))
    assert g.state["revealed"]["cleaner"] == 1
    assert g.state["deck"] == 18
    assert g.expect == {"action": "turn", "player": "Ben"}


def test_ruling_02_failure_deals_one_damage_to_the_investigator():
    g = play(game("Ann", "Ben"), inv("Ann", "cook", guess="vampire"))
    assert health(g) == {"Ann": 4, "Ben": 5}
    assert stones(g) == {"Ann": 0, "Ben": 0}
    assert g.state["revealed"]["cook"] == 1


def test_ruling_02_vampire_gains_two_stones_and_cook_one():
    g = play(game("Ann", "Ben"), inv("Ann", "vampire", True), inv("Ben", "chef", True))
    assert stones(g) == {"Ann": 2, "Ben": 1}


def test_ruling_02_living_armor_deals_two_damage_to_every_other_player():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "knight", True))
    assert health(g) == {"Ann": 5, "Ben": 3, "Cat": 3}


def test_ruling_02_butler_heals_then_damages_every_other_player():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "cook", False), inv("Ben", "cook", False),
             inv("Cat", "butler", True))
    assert health(g) == {"Ann": 3, "Ben": 3, "Cat": 5}
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "cook", False), inv("Ben", "cook", False),
             inv("Cat", "cook", False), inv("Ann", "butler", True))
    assert health(g) == {"Ann": 5, "Ben": 3, "Cat": 3}


def test_ruling_02_cleaner_changes_nothing_visible():
    g = play(game("Ann", "Ben"), inv("Ann", "cleaner", True))
    assert health(g) == {"Ann": 5, "Ben": 5}
    assert stones(g) == {"Ann": 0, "Ben": 0}
    assert g.state["deck"] == 18


def test_ruling_02_successful_ghost_eliminates_every_other_player():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "ghost", True))
    # Everyone else is out, so the round ends with Ann the sole survivor (ruling 8).
    assert stones(g) == {"Ann": 3, "Ben": 0, "Cat": 0}
    assert g.state["round"] == 2


# -- ruling 3 ------------------------------------------------------------------------------
def test_ruling_03_lower_power_takes_the_difference():
    g = play(game("Ann", "Ben"), duel("Ann", "Ben", "vampire", "cleaner"))
    assert health(g) == {"Ann": 5, "Ben": 1}
    assert g.state["revealed"]["vampire"] == 1 and g.state["revealed"]["cleaner"] == 1
    assert g.state["deck"] == 17  # both drew
    assert g.expect == {"action": "turn", "player": "Ben"}


def test_ruling_03_equal_powers_both_take_one():
    g = play(game("Ann", "Ben"), duel("Ann", "Ben", "cook", "cook"))
    assert health(g) == {"Ann": 4, "Ben": 4}


def test_ruling_03_cleaner_beats_ghost_whatever_the_health():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "cleaner", "ghost"))
    ben = player(g, "Ben")
    assert ben["alive"] is False and ben["health"] == 0
    assert stones(g)["Ann"] == 1
    assert g.state["revealed"]["ghost"] == 0
    assert g.state["deck"] == 18 - 2 + 1 + 1  # two shown, Ghost shuffled back, Ann drew


def test_ruling_03_cook_beats_vampire_and_gains_a_stone():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "vampire", "cook"))
    assert player(g, "Ann")["alive"] is False
    assert stones(g) == {"Ann": 0, "Ben": 1, "Cat": 0}
    assert g.state["deck"] == 17  # only Ben drew
    assert g.expect == {"action": "turn", "player": "Ben"}


SIX = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def drain_to_one_card() -> list[dict]:
    """Six players, deck 15: fourteen investigations leave one card; Cat's turn next.

    Six Cleaners found, five Cooks found (Ann to Eve gain a stone each), then Fay, Ann and
    Ben fail with a Living Armor each.
    """
    lines = [game(*SIX)]
    order = list(SIX) * 3
    plan = [("cleaner", True)] * 6 + [("cook", True)] * 5 + [("living_armor", False)] * 3
    for who, (card, ok) in zip(order, plan, strict=False):
        lines.append(inv(who, card, ok))
    return lines


def test_ruling_03_each_duellist_still_in_draws_challenger_first():
    g = play(*drain_to_one_card())
    assert g.state["deck"] == 1 and g.expect["player"] == "Cat"
    notes = g.push(duel("Cat", "Dan", "butler", "butler"))
    draws = [n["player"] for n in notes if n["kind"] == "draw"]
    assert draws == ["Cat"]  # the deck ran out on Cat's draw: Dan draws nothing
    assert g.state["round"] == 2


# -- ruling 4 ------------------------------------------------------------------------------
def test_ruling_04_refused_duel_target_must_investigate_at_once():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben"))
    assert g.expect == {"action": "investigate", "player": "Ben"}
    assert g.state["deck"] == 18 and sum(g.state["revealed"].values()) == 0
    g.push(inv("Ben", "vampire", True))
    assert stones(g)["Ben"] == 2  # effects included
    assert g.state["deck"] == 17  # only Ben drew
    # The turn passes as if Ann had finished hers: to Ben, the next after Ann.
    assert g.expect == {"action": "turn", "player": "Ben"}


def test_ruling_04_turn_passes_from_the_challenger_not_the_target():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Cat"), inv("Cat", "cook", False))
    assert g.expect == {"action": "turn", "player": "Ben"}
    assert health(g) == {"Ann": 5, "Ben": 5, "Cat": 4}


def test_ruling_04_challenger_cannot_investigate_for_the_target():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben"))
    before = g.state
    with pytest.raises(RuleError, match="Ben refused the duel and must investigate"):
        g.push(inv("Ann", "cook", True))
    assert g.state == before


# -- ruling 5 ------------------------------------------------------------------------------
def test_ruling_05_health_zero_eliminates_and_counts_as_zero():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "vampire", "cleaner"))
    g.push(inv("Ben", "cook", False))  # Ben 1 -> 0
    ben = player(g, "Ben")
    assert ben == {"name": "Ben", "health": 0, "stones": 0, "alive": False}
    assert g.expect == {"action": "turn", "player": "Cat"}
    assert g.state["deck"] == 16  # Ann and Ben drew after the duel; Ben, out, did not


def test_ruling_05_eliminated_by_anothers_effect_reveals_before_the_investigator_draws():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "living_armor", "cleaner"),
             inv("Ben", "cook", False))  # Ben at 1 health, Cat's turn
    deck = g.state["deck"]
    notes = g.push(inv("Cat", "living_armor", True))
    assert not player(g, "Ben")["alive"] and player(g, "Ann")["health"] == 3
    assert g.expect == {"action": "reveal", "players": ["Ben"]}
    assert g.state["deck"] == deck and not [n for n in notes if n["kind"] == "draw"]
    g.push(reveal("Ben", "butler"))
    assert g.state["revealed"]["butler"] == 1
    assert g.state["deck"] == deck - 1  # now Cat draws
    assert g.expect == {"action": "turn", "player": "Ann"}  # Ben is skipped


def test_ruling_05_reveals_in_any_order():
    g = play(game("Ann", "Ben", "Cat", "Dan"), inv("Ann", "cook", False),
             duel("Ben", "Cat", "butler", "cleaner"), duel("Cat", "Dan", "butler", "cleaner"))
    assert health(g) == {"Ann": 4, "Ben": 5, "Cat": 3, "Dan": 3}
    g.push(inv("Dan", "cook", False))  # Dan 2
    g.push(duel("Ann", "Cat", "butler", "cleaner"))  # Cat 1
    g.push(inv("Ben", "living_armor", True))  # Ann 2, Cat out, Dan out
    assert g.expect == {"action": "reveal", "players": ["Cat", "Dan"]}
    g.push(reveal("Dan", "vampire"))
    assert g.expect == {"action": "reveal", "players": ["Cat"]}
    g.push(reveal("Cat", "Chef"))
    assert g.expect == {"action": "turn", "player": "Ann"}


def test_ruling_05_own_failed_investigation_owes_no_reveal():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "vampire", "cleaner"),
             inv("Ben", "cook", False))
    assert g.expect["action"] == "turn"


# -- ruling 6 ------------------------------------------------------------------------------
def test_ruling_06_turn_passes_clockwise_skipping_players_out():
    g = play(game("Ann", "Ben", "Cat", first="Cat"))
    assert g.expect["player"] == "Cat"
    g.push(inv("Cat", "cleaner", True))
    assert g.expect["player"] == "Ann"  # clockwise wraps around


def test_ruling_06_counted_from_the_owner_even_if_the_owner_was_eliminated():
    g = play(game("Ann", "Ben", "Cat", "Dan"), duel("Ann", "Ben", "cleaner", "vampire"))
    # Ann 1 health. Ben and Cat pass, then Ann duels Dan and loses.
    g.push(inv("Ben", "cleaner", True))
    g.push(inv("Cat", "cleaner", True))
    g.push(inv("Dan", "cleaner", True))
    g.push(duel("Ann", "Dan", "cleaner", "cook"))
    assert not player(g, "Ann")["alive"]
    assert g.expect == {"action": "turn", "player": "Ben"}


# -- ruling 7 ------------------------------------------------------------------------------
def test_ruling_07_ghost_is_shuffled_back_from_an_investigation():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "ghost", False))
    assert g.state["revealed"]["ghost"] == 0
    assert g.state["deck"] == 18  # +1 the Ghost, -1 Ann's draw


def test_ruling_07_ghost_is_shuffled_back_from_a_duel():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "ghost", "cook"))
    assert g.state["revealed"] == dict.fromkeys(IDENTITIES, 0) | {"cook": 1}
    assert g.state["deck"] == 18 + 1 - 2


def test_ruling_07_ghost_is_shuffled_back_from_an_elimination_reveal():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Ben", "living_armor", "cleaner"),
             inv("Ben", "cook", False), inv("Cat", "living_armor", True))
    deck = g.state["deck"]
    g.push(reveal("Ben", "ghost"))
    assert g.state["revealed"]["ghost"] == 0
    assert g.state["deck"] == deck + 1 - 1  # Ghost back in, then Cat draws


def test_ruling_07_the_ghost_can_be_revealed_again_in_the_same_round():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "ghost", False), inv("Ben", "ghost", False))
    assert health(g) == {"Ann": 4, "Ben": 4, "Cat": 5}


# -- ruling 8 ------------------------------------------------------------------------------
def test_ruling_08_sole_survivor_gains_3_stones():
    g = play(game("Ann", "Ben"), duel("Ann", "Ben", "vampire", "cleaner"))
    notes = g.push(inv("Ben", "cook", False))
    assert stones(g) == {"Ann": 3, "Ben": 0}
    assert {"kind": "round_end", "round": 1, "why": "survivor"} in notes


def test_ruling_08_last_two_eliminated_together_in_a_duel_gain_1_each():
    g = play(game("Ann", "Ben"), inv("Ann", "cook", False), inv("Ben", "cook", False),
             inv("Ann", "cook", False), inv("Ben", "cook", False),
             inv("Ann", "cleaner", False), inv("Ben", "cleaner", False),
             inv("Ann", "cleaner", False), inv("Ben", "cleaner", False))
    assert health(g) == {"Ann": 1, "Ben": 1}
    notes = g.push(duel("Ann", "Ben", "butler", "butler"))
    assert stones(g) == {"Ann": 1, "Ben": 1}
    assert {"kind": "round_end", "round": 1, "why": "pair"} in notes


def test_ruling_08_two_eliminated_in_a_duel_with_a_third_still_in_leave_a_sole_survivor():
    g = play(game("Ann", "Ben", "Cat"))
    fails = iter(["cook"] * 5 + ["butler"] * 3)
    for _ in range(4):  # Ann and Ben fail four times each, Cat finds Cleaners
        g.push(inv("Ann", next(fails), guess="ghost"))
        g.push(inv("Ben", next(fails), guess="ghost"))
        g.push(inv("Cat", "cleaner", True))
    assert health(g) == {"Ann": 1, "Ben": 1, "Cat": 5}
    notes = g.push(duel("Ann", "Ben", "living_armor", "living_armor"))
    assert stones(g) == {"Ann": 0, "Ben": 0, "Cat": 3}
    assert {"kind": "round_end", "round": 1, "why": "survivor"} in notes


def test_ruling_08_last_card_drawn_gives_each_player_still_in_a_stone():
    lines = drain_to_one_card()
    g = play(*lines)
    before = stones(g)
    notes = g.push(inv("Cat", "butler", True))  # Cat draws the last card
    assert {"kind": "round_end", "round": 1, "why": "deck"} in notes
    assert stones(g) == {n: s + 1 for n, s in before.items()}
    assert g.state["round"] == 2


def test_ruling_08_round_end_stops_the_turn_no_draws_no_reveals():
    g = play(game("Ann", "Ben"), duel("Ann", "Ben", "vampire", "cook"))
    # Cook beats Vampire: Ann out, Ben the sole survivor: the round ends before any draw.
    assert g.state["round"] == 2 and g.state["deck"] == 19
    g = play(game("Ann", "Ben"), duel("Ann", "Ben", "living_armor", "cleaner"),
             inv("Ben", "cook", False))
    notes = g.push(inv("Ann", "living_armor", True))  # Ben eliminated by Ann's effect
    assert g.expect == {"action": "turn", "player": "Ann"}  # no reveal owed: new round
    assert not [n for n in notes if n["kind"] == "draw"]


# -- ruling 9 ------------------------------------------------------------------------------
def two_rounds_of_ghosts() -> list[dict]:
    """Ann wins two rounds with a Ghost: 6 stones, and she starts round 3."""
    return [game("Ann", "Ben"), inv("Ann", "ghost", True), inv("Ann", "ghost", True)]


def test_ruling_09_game_ends_the_moment_someone_has_7_even_mid_round():
    g = play(*two_rounds_of_ghosts())
    assert stones(g) == {"Ann": 6, "Ben": 0} and g.state["round"] == 3
    notes = g.push(inv("Ann", "cook", True))
    assert g.state["over"] is True and g.state["winners"] == ["Ann"]
    assert g.expect is None
    assert g.state["round"] == 3 and g.state["deck"] == 19  # no draw after the effect
    assert notes[-1] == {"kind": "game_end", "winners": ["Ann"]}


def test_ruling_09_a_duels_stone_ends_the_game_before_round_rewards():
    g = play(*two_rounds_of_ghosts())
    g.push(duel("Ann", "Ben", "cook", "vampire"))
    assert g.state["over"] and g.state["winners"] == ["Ann"]
    assert stones(g) == {"Ann": 7, "Ben": 0}


def test_ruling_09_every_player_with_7_shares_the_victory():
    g = play(*two_rounds_of_ghosts())  # Ann 6
    g.push(inv("Ann", "cook", False))  # Ann 4 health; Ben's turn
    g.push(inv("Ben", "ghost", True))  # Ben 3 stones, starts round 4
    g.push(inv("Ben", "ghost", True))  # Ben 6, starts round 5
    assert stones(g) == {"Ann": 6, "Ben": 6}
    for n in range(4):  # both fail four times: 1 health each
        g.push(inv("Ben", "cleaner", False))
        g.push(inv("Ann", "cleaner" if n < 2 else "cook", False))
    assert health(g) == {"Ann": 1, "Ben": 1}
    g.push(duel("Ben", "Ann", "butler", "butler"))
    assert g.state["over"] and g.state["winners"] == ["Ann", "Ben"]  # seat order
    assert stones(g) == {"Ann": 7, "Ben": 7}


def test_ruling_09_no_event_after_the_game_is_over():
    g = play(*two_rounds_of_ghosts(), inv("Ann", "vampire", True))
    before = g.state
    for line in (inv("Ben", "cook", True), UNDO, game("Ann", "Ben")):
        with pytest.raises(RuleError, match="the game is over"):
            g.push(line)
    assert g.state == before


# -- ruling 10 -----------------------------------------------------------------------------
def test_ruling_10_next_round_everyone_back_with_5_health_and_a_full_deck():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "cook", False), inv("Ben", "ghost", True))
    assert g.state["round"] == 2
    assert all(p["alive"] and p["health"] == 5 for p in g.state["players"])
    assert g.state["deck"] == 18
    assert g.state["revealed"] == dict.fromkeys(IDENTITIES, 0)


def test_ruling_10_owner_of_the_last_turn_starts_even_after_a_refused_duel():
    g = play(game("Ann", "Ben", "Cat"), duel("Ann", "Cat"), inv("Cat", "ghost", True))
    # Cat's Ghost ended the round during Ann's turn: Ann starts round 2.
    assert g.state["round"] == 2 and stones(g)["Cat"] == 3
    assert g.expect == {"action": "turn", "player": "Ann"}


def test_ruling_10_owner_starts_even_if_eliminated_in_that_turn():
    g = play(game("Ann", "Ben"), duel("Ann", "Ben", "vampire", "cook"))
    assert g.state["round"] == 2 and g.expect == {"action": "turn", "player": "Ann"}


# -- ruling 11 -----------------------------------------------------------------------------
def test_ruling_11_a_third_vampire_is_a_misread():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "vampire", False),
             inv("Ben", "vampire", False))
    before = g.state
    with pytest.raises(RuleError, match="both Vampires are already revealed this round"):
        g.push(inv("Cat", "vampire", True))
    assert g.state == before


def test_ruling_11_counts_both_cards_of_a_duel():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "living_armor", False),
             inv("Ben", "living_armor", False))
    before = g.state
    with pytest.raises(RuleError, match="Living Armors"):
        g.push(duel("Cat", "Ann", "living_armor", "living_armor"))
    with pytest.raises(RuleError, match="only one Ghost"):
        g.push(duel("Cat", "Ann", "ghost", "ghost"))
    assert g.state == before


def test_ruling_11_counts_reveals_and_clears_each_round():
    g = play(game("Ann", "Ben", "Cat"), inv("Ann", "vampire", False),
             inv("Ben", "vampire", False), inv("Cat", "ghost", True))
    assert g.state["round"] == 2
    g.push(inv("Cat", "vampire", True))  # a new round: the Vampires are back in the deck
    assert g.state["revealed"]["vampire"] == 1


# -- the deduction aid ---------------------------------------------------------------------
def test_deduction_aid_counts_unseen_cards_and_chances():
    g = play(game("Ann", "Ben"), inv("Ann", "cleaner", True), inv("Ben", "ghost", False))
    fig = g.figures()
    assert fig["unseen"] == {"ghost": 1, "vampire": 2, "living_armor": 3, "butler": 4,
                             "cook": 5, "cleaner": 5}
    assert fig["deck"] == g.state["deck"]
    assert fig["chance"]["cook"] == pytest.approx(5 / 20)
    assert sum(fig["chance"].values()) == pytest.approx(1.0)
