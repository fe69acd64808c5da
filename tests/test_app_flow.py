"""The table flow, driven through the input queue with fake devices (no pygame)."""

from __future__ import annotations

import random

import pytest

from companion.app.controller import Controller
from companion.app.devices import VirtualPanel
from companion.app.i18n import tr
from companion.app.inputs import Press, Seen, Taken, Tick, Unsure, from_button, from_key
from companion.engine import Game
from companion.tablelog import load_game
from tests.app_fakes import BrokenLog, CardLaid, MemoryLog, make_app, play


def seat(n):
    return Press("seat", n)


OK, BACK, UNDO = Press("ok"), Press("back"), Press("undo")


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 4)])
def test_whole_game_with_the_card_picker_ends_with_winners(seed, players):
    app, log, panel = make_app(seed, players, camera=False)
    play(app)
    ctl = app.ctl
    assert ctl.phase == "over"
    assert ctl.state["winners"]
    assert all(p["stones"] >= 7 for p in ctl.state["players"] if p["name"] in
               ctl.state["winners"])
    assert len(ctl.state["players"]) == players
    # the log replays to the same finished game
    assert load_game(log.lines).state == ctl.state
    assert panel.shown > 0


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_whole_game_through_the_camera_ends_with_winners(seed):
    app, log, _ = make_app(seed, 4, camera=True)
    play(app)
    assert app.ctl.phase == "over" and app.ctl.state["winners"]
    assert load_game(log.lines).state == app.ctl.state
    assert app.ctl.cards_read > 0 and app.ctl.cards_picked == 0


def test_unreadable_cards_open_the_picker_and_the_game_still_ends():
    app, log, _ = make_app(21, 3, camera=True, unsure={"cook", "butler"})
    play(app)
    assert app.ctl.phase == "over"
    assert load_game(log.lines).state == app.ctl.state


def start(players=3, first=1, log=None, camera=False):
    log = log if log is not None else MemoryLog()
    ctl = Controller(Game, open_log=lambda e: log, camera=camera, rng=random.Random(0))
    for s in range(1, players + 1):
        ctl.handle(seat(s))
    ctl.handle(OK)
    ctl.handle(seat(first))
    return ctl, log


def test_back_while_players_join_takes_back_one_seat_the_last_to_join():
    """A slip of Back at the join screen used to empty the table: each player had to join
    again. It now takes back the last seat to join, and says who."""
    ctl = Controller(Game, camera=False)
    ctl.handle(BACK)
    assert ctl.joined == [] and ctl.message[0] == "msg.nobody_joined"
    for s in (4, 1, 5, 2):
        ctl.handle(seat(s))
    ctl.handle(BACK)
    assert ctl.joined == [1, 4, 5] and ctl.message == ("msg.left", {"player": "Orange"})
    assert tr("en", *ctl.message[:1], **ctl.message[1]).startswith("Orange left")
    assert tr("ko", *ctl.message[:1], **ctl.message[1]).startswith("주황님이")
    ctl.handle(seat(2))  # joins again
    ctl.handle(seat(2))  # and leaves by their own button: Back then takes 5, the last still in
    ctl.handle(BACK)
    assert ctl.joined == [1, 4]
    ctl.handle(OK)
    assert ctl.phase == "setup_first"
    ctl.handle(BACK)  # from "who starts?" back to the join screen, everyone still in
    assert ctl.phase == "setup_join" and ctl.joined == [1, 4]
    ctl.handle(BACK)
    ctl.handle(BACK)
    assert ctl.joined == [] and ctl.phase == "setup_join"


def test_back_after_a_finished_game_takes_back_the_highest_seat_kept():
    """The players of the last game are kept for the next: Back takes back the highest seat,
    not the one that joined last for the game before."""
    app, _, _ = make_app(3, 3, camera=False)
    play(app)
    ctl = app.ctl
    assert ctl.phase == "over"
    joined = list(ctl.joined)
    ctl.handle(Press("skip"))  # the winners' lights
    ctl.handle(OK)
    assert ctl.phase == "setup_first" and ctl.joined == joined
    ctl.handle(BACK)  # to the join screen, everyone still in
    ctl.handle(BACK)
    assert ctl.joined == joined[:-1]
    assert ctl.message == ("msg.left", {"player": ctl.names[joined[-1] - 1]})


def test_setup_needs_two_players_and_logs_nothing_until_then():
    log = MemoryLog()
    ctl = Controller(Game, open_log=lambda e: log, camera=False)
    ctl.handle(seat(3))
    ctl.handle(OK)
    assert ctl.phase == "setup_join" and ctl.message[0] == "msg.need_two"
    ctl.handle(seat(3))  # leaves again
    assert ctl.joined == []
    ctl.handle(seat(2))
    ctl.handle(seat(5))
    ctl.handle(OK)
    assert ctl.phase == "setup_first"
    ctl.handle(seat(4))  # not joined
    assert ctl.message[0] == "msg.seat_not_joined" and log.lines == []
    ctl.handle(seat(5))
    assert log.lines == [{"event": "game", "players": ["Orange", "Blue"], "first": "Blue"}]
    assert ctl.phase == "turn" and ctl.game.expect["player"] == "Blue"


def test_random_first_player_comes_from_the_injected_rng():
    firsts = set()
    for seed in range(12):
        log = MemoryLog()
        ctl = Controller(Game, open_log=lambda e, log=log: log, camera=False,
                         rng=random.Random(seed))
        for s in (1, 2, 3):
            ctl.handle(seat(s))
        ctl.handle(OK)
        ctl.handle(OK)
        firsts.add(log.lines[0]["first"])
    assert firsts == {"Red", "Orange", "Yellow"}


def test_investigation_is_announced_read_confirmed_then_logged():
    ctl, log = start()
    ctl.handle(seat(1))  # Red investigates
    assert ctl.phase == "guess"
    ctl.handle(seat(2))  # announces the card of power 2: Cook
    assert ctl.phase == "cards" and ctl.pending.picker
    ctl.handle(Press("card", "butler"))
    assert ctl.phase == "confirm" and ctl.prompt()[0] == "prompt.confirm_wrong"
    assert len(log.lines) == 1  # nothing logged before the table confirms
    ctl.handle(BACK)  # read again
    assert ctl.phase == "cards"
    ctl.handle(Press("card", "cook"))
    assert ctl.prompt()[0] == "prompt.confirm_right"
    ctl.handle(OK)
    assert log.lines[-1] == {"event": "investigate", "player": "Red", "card": "cook",
                             "guess": "cook"}
    assert ctl.state["players"][0]["stones"] == 1


def test_duel_accepted_with_the_targets_button_reads_both_slots():
    ctl, log = start()
    ctl.handle(seat(3))  # Red challenges Yellow
    assert ctl.phase == "answer"
    ctl.handle(seat(2))  # Orange is not the target
    assert ctl.message[0] == "msg.answer_help" and ctl.phase == "answer"
    ctl.handle(seat(3))  # Yellow accepts
    assert ctl.phase == "cards" and ctl.pending.zones == ("a", "b")
    ctl.handle(Press("card", "living_armor"))  # slot a: Red
    ctl.handle(Press("card", "cleaner"))  # slot b: Yellow
    assert log.lines[-1] == {"event": "duel", "player": "Red", "target": "Yellow",
                             "accepted": True, "cards": {"Red": "living_armor",
                                                         "Yellow": "cleaner"}}
    assert ctl.state["players"][2]["health"] == 2


def test_two_ghosts_in_a_duel_are_refused_in_the_players_language():
    from companion.app.i18n import tr

    ctl, log = start()
    ctl.language = "ko"
    ctl.handle(seat(3))  # Red challenges Yellow
    ctl.handle(seat(3))  # Yellow accepts
    before = (ctl.state, len(log.lines))
    ctl.handle(Press("card", "ghost"))
    ctl.handle(Press("card", "ghost"))  # there is only one Ghost: a misread
    assert ctl.message == ("rule.one_ghost", {})
    assert "유령" in tr(ctl.language, *ctl.message[:1], **ctl.message[1])
    assert ctl.phase == "cards" and ctl.pending.cards == {}
    assert (ctl.state, len(log.lines)) == before


def test_duel_refused_with_back_makes_the_target_investigate():
    ctl, log = start()
    ctl.handle(seat(2))
    ctl.handle(BACK)
    assert log.lines[-1] == {"event": "duel", "player": "Red", "target": "Orange",
                             "accepted": False}
    assert ctl.phase == "guess" and ctl.pending.player == "Orange"
    ctl.handle(BACK)  # cannot back out of a forced investigation
    assert ctl.message[0] == "rule.must_investigate" and ctl.phase == "guess"
    ctl.handle(seat(1))  # Cleaner
    ctl.handle(Press("card", "cleaner"))
    ctl.handle(OK)
    assert log.lines[-1]["player"] == "Orange"
    assert ctl.game.expect == {"action": "turn", "player": "Orange"}


def test_wrong_buttons_change_nothing_and_say_why():
    ctl, log = start(players=3)
    before = (ctl.state, len(log.lines))
    ctl.handle(seat(6))
    assert ctl.message[0] == "msg.no_such_seat"
    ctl.handle(OK)
    assert ctl.message[0] == "msg.turn_help"
    ctl.handle(Press("card", "ghost"))
    assert ctl.message[0] == "msg.wrong_button"
    assert (ctl.state, len(log.lines)) == before


def test_a_reading_that_breaks_card_counting_is_refused_and_asked_again():
    ctl, log = start(players=2)
    # Two Vampires revealed this round, by wrong investigations.
    for who in (1, 2):
        ctl.handle(seat(who))
        ctl.handle(seat(1))
        ctl.handle(Press("card", "vampire"))
        ctl.handle(OK)
    assert ctl.state["revealed"]["vampire"] == 2
    before = (ctl.state, len(log.lines))
    ctl.handle(seat(1))
    ctl.handle(seat(5))  # announces Vampire
    ctl.handle(Press("card", "vampire"))  # a third Vampire: a misread
    assert ctl.message == ("rule.too_many", {"card": "vampire", "copies": 2, "seen": 2})
    assert ctl.phase == "cards" and ctl.pending.cards == {}
    assert (ctl.state, len(log.lines)) == before
    ctl.handle(Press("card", "cook"))
    assert ctl.phase == "confirm"


def test_undo_pops_the_engine_and_appends_an_undo_line():
    ctl, log = start()
    ctl.handle(UNDO)
    assert ctl.message[0] == "msg.nothing_to_undo" and len(log.lines) == 1
    ctl.handle(seat(2))
    ctl.handle(seat(2))
    ctl.handle(Press("card", "butler"))
    state = ctl.state
    ctl.handle(UNDO)  # a step still being built is dropped, nothing logged
    assert ctl.message[0] == "msg.step_cancelled" and ctl.phase == "turn"
    assert ctl.state == state and len(log.lines) == 1
    ctl.handle(seat(2))
    ctl.handle(BACK)  # refused duel
    ctl.handle(seat(6))  # Orange announces the Ghost, by mistake
    ctl.handle(UNDO)  # the announcement is dropped; the refused duel stays
    assert ctl.message[0] == "msg.step_cancelled" and ctl.phase == "guess"
    assert ctl.pending.guess is None and ctl.pending.player == "Orange"
    assert log.lines[-1]["accepted"] is False
    ctl.handle(UNDO)  # the refused duel itself is taken back
    assert log.lines[-1] == {"event": "undo"}
    assert ctl.phase == "turn" and ctl.game.expect["player"] == "Red"
    assert load_game(log.lines).state == ctl.state


def test_a_log_that_cannot_be_written_leaves_the_game_unchanged():
    ctl, _ = start(log=MemoryLog())
    ctl.log = BrokenLog()
    state = ctl.state
    ctl.handle(seat(2))
    ctl.handle(BACK)
    assert ctl.message[0] == "msg.log_failed" and ctl.state == state
    assert ctl.message[1]["text"] == "No space left on device"  # not "[Errno 28] No space..."


def test_ok_tries_a_step_again_once_the_table_log_can_be_written():
    """Both cards of a duel in, and the log could not be written: OK did nothing, and only
    taking a card back and picking it again tried once more."""
    log = MemoryLog()
    ctl, _ = start(log=log)
    for press in (seat(2), seat(2), Press("card", "ghost")):
        ctl.handle(press)
    ctl.log = BrokenLog()
    ctl.handle(Press("card", "cook"))
    assert ctl.message[0] == "msg.log_failed" and ctl.phase == "cards"
    ctl.handle(OK)  # still full: nothing changes, and it says so again
    assert ctl.message[0] == "msg.log_failed" and len(log.lines) == 1
    ctl.log = log  # room again
    ctl.handle(OK)
    assert log.lines[-1]["event"] == "duel" and log.lines[-1]["cards"] == {
        "Red": "ghost", "Orange": "cook"}
    assert ctl.phase == "turn" and load_game(log.lines).state == ctl.state


def test_notices_are_shown_one_after_another_each_until_a_press():
    """Two mistakes in the configuration and a log cut short: only the last was ever shown,
    each notice replacing the one before at once."""
    ctl = Controller(Game, open_log=lambda e: MemoryLog(), camera=False)
    for text in ("seats = 9: out of range", "unknown setting langauge", "last line cut short"):
        ctl.notice(text)
    shown = [ctl.message]
    for s in (1, 2, 3):
        ctl.handle(seat(s))  # each press still counts: the seats join
        shown.append(ctl.message)
    assert shown == [("msg.notice", {"text": "seats = 9: out of range"}),
                     ("msg.notice", {"text": "unknown setting langauge"}),
                     ("msg.notice", {"text": "last line cut short"}), None]
    assert ctl.joined == [1, 2, 3]


def test_a_notice_replaced_without_a_press_comes_back_after_the_next():
    """A disk-full notice replaced by a camera prompt at once was never seen."""
    ctl = Controller(Game, open_log=lambda e: MemoryLog(), camera=False)
    ctl.notice("The game cannot be saved")
    ctl.notice_key("msg.hand_over")  # from outside the flow, no press
    assert ctl.message[0] == "msg.hand_over"
    ctl.handle(seat(1))
    assert ctl.message == ("msg.notice", {"text": "The game cannot be saved"})
    ctl.handle(seat(2))
    assert ctl.message is None and ctl.joined == [1, 2]


def reveal_owed_game():
    g = Game()
    for ev in [
        {"event": "game", "players": ["Red", "Orange", "Yellow", "Green"], "first": "Red"},
        {"event": "duel", "player": "Red", "target": "Orange", "accepted": True,
         "cards": {"Red": "living_armor", "Orange": "cleaner"}},
        {"event": "investigate", "player": "Orange", "card": "cook", "guess": "butler"},
        {"event": "investigate", "player": "Yellow", "card": "cook", "guess": "butler"},
        {"event": "investigate", "player": "Green", "card": "cook", "guess": "butler"},
    ]:
        g.push(ev)
    return g


def test_an_elimination_by_someone_elses_effect_asks_for_the_held_card():
    log = MemoryLog()
    ctl = Controller(Game, game=reveal_owed_game(), log=log, camera=True)
    assert ctl.phase == "turn"
    ctl.handle(seat(1))
    ctl.handle(seat(4))  # Living Armor
    ctl.handle(Seen("a", "living_armor"))
    ctl.handle(OK)
    assert ctl.game.expect == {"action": "reveal", "players": ["Orange"]}
    assert ctl.phase == "cards" and ctl.pending.kind == "reveal"
    assert ctl.prompt()[0] == "prompt.lay_reveal"
    ctl.handle(Seen("a", "living_armor"))  # still the investigator's card: same zone, stale
    ctl.handle(Taken("a"))
    ctl.handle(Seen("a", "butler"))
    assert log.lines[-1] == {"event": "reveal", "player": "Orange", "card": "butler"}


def test_a_card_left_on_the_mat_is_not_read_twice():
    ctl, log = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(Seen("a", "cook"))
    ctl.handle(OK)
    ctl.handle(seat(2))  # Orange investigates; Red's Cook still lies in slot a
    ctl.handle(seat(1))
    assert ctl.phase == "cards" and ctl.pending.cards == {}
    ctl.handle(Unsure("a"))
    assert not ctl.pending.picker  # a card being laid is often unsure for a moment
    ctl.handle(Tick(ctl.now + 0.5))
    assert not ctl.pending.picker
    ctl.handle(Tick(ctl.now + 0.6))
    assert ctl.pending.picker and ctl.message[0] == "msg.camera_unsure"
    ctl.handle(seat(3))  # picker by button: power 3 = Butler
    assert ctl.pending.cards == {"a": "butler"}


def test_a_duel_card_replaced_after_it_was_read_is_the_card_that_counts():
    """Red's card read, taken back and another laid before Yellow's was read: the duel was
    logged with the first card, at once, and Red took the damage of a card not played."""
    ctl, log = start(camera=True)
    ctl.handle(seat(3))  # Red challenges Yellow
    ctl.handle(seat(3))  # Yellow accepts
    ctl.handle(Seen("a", "cook"))
    ctl.handle(Taken("a"))
    ctl.handle(Seen("a", "living_armor"))
    ctl.handle(Seen("b", "butler"))
    assert log.lines[-1]["cards"] == {"Red": "living_armor", "Yellow": "butler"}


def test_a_card_laid_anew_at_the_confirm_screen_is_the_one_confirmed():
    """The screen kept the first card and OK applied it; Back then threw away the new,
    right reading and asked for a card already lying there. A card only taken away (put on
    the revealed pile before OK) stays."""
    ctl, log = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))  # Red investigates, guessing the Cook
    ctl.handle(Seen("a", "ghost"))
    assert ctl.phase == "confirm" and ctl.pending.cards == {"a": "ghost"}
    ctl.handle(Taken("a"))
    assert ctl.phase == "confirm" and ctl.pending.cards == {"a": "ghost"}
    ctl.handle(Seen("a", "butler"))
    assert ctl.phase == "confirm" and ctl.pending.cards == {"a": "butler"}
    ctl.handle(OK)
    assert log.lines[-1] == {"event": "investigate", "player": "Red", "card": "butler",
                             "guess": "cook"}


def test_a_card_put_on_the_revealed_pile_before_ok_is_still_the_card():
    ctl, log = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(Seen("a", "cook"))
    ctl.handle(Taken("a"))
    ctl.handle(Tick(ctl.now + 3))
    ctl.handle(OK)
    assert log.lines[-1] == {"event": "investigate", "player": "Red", "card": "cook",
                             "guess": "cook"}


def test_an_unread_card_picked_by_hand_asks_nothing_at_the_next_step():
    """It still lay in slot A, unread: the next step opened the picker after a second,
    'camera unsure', before anyone laid a card."""
    ctl, log = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(Unsure("a"))
    ctl.handle(Tick(ctl.now + 1.1))
    ctl.handle(Press("card", "cook"))
    ctl.handle(OK)
    ctl.handle(seat(2))
    ctl.handle(seat(2))  # Orange investigates
    ctl.handle(Tick(ctl.now + 2))
    assert ctl.phase == "cards" and not ctl.pending.picker


def test_an_unread_card_laid_early_in_the_other_slot_still_opens_the_picker():
    """Yellow laid her card in slot B during Red's investigation, unread: once Yellow was
    challenged the table asked for it for ever, its unread mark cleared with Red's step."""
    ctl, log = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))  # Red investigates
    ctl.handle(Unsure("b"))  # Yellow's card, laid early
    ctl.handle(Seen("a", "cook"))
    ctl.handle(OK)
    ctl.handle(Taken("a"))
    ctl.handle(seat(3))  # Orange challenges Yellow
    ctl.handle(seat(3))
    ctl.handle(Seen("a", "butler"))
    assert ctl.phase == "cards" and not ctl.pending.picker
    ctl.handle(Tick(ctl.now + 1.1))
    assert ctl.pending.picker and ctl.message[0] == "msg.camera_unsure"


def test_a_card_picked_by_hand_stays_when_a_card_is_taken_away():
    ctl, log = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(OK)  # the camera does not see it: the picker
    ctl.handle(Press("card", "vampire"))
    ctl.handle(Taken("a"))
    assert ctl.phase == "confirm" and ctl.pending.cards == {"a": "vampire"}


def test_a_refused_duel_asks_again_only_for_the_card_at_fault():
    """Both Vampires revealed, a third read in slot B: the refusal cleared both slots and
    used up slot A's Cook, which the camera never gives again: the table asked for it for
    ever."""
    g = Game()
    for ev in ({"event": "game", "players": ["Red", "Orange", "Yellow"], "first": "Red"},
               {"event": "duel", "player": "Red", "target": "Orange", "accepted": True,
                "cards": {"Red": "vampire", "Orange": "vampire"}}):
        g.push(ev)
    log = MemoryLog()
    ctl = Controller(Game, game=g, log=log, camera=True)
    ctl.handle(seat(3))  # Orange challenges Yellow
    ctl.handle(seat(3))
    ctl.handle(Taken("a"))
    ctl.handle(Taken("b"))
    ctl.handle(Seen("a", "cook"))
    ctl.handle(Seen("b", "vampire"))
    assert ctl.message[0] == "rule.too_many"
    assert ctl.phase == "cards" and ctl.pending.cards == {"a": "cook"}
    ctl.handle(Seen("b", "vampire"))  # still the card refused: not read again
    assert ctl.pending.cards == {"a": "cook"}
    ctl.handle(Taken("b"))
    ctl.handle(Seen("b", "butler"))
    assert log.lines[-1]["cards"] == {"Orange": "cook", "Yellow": "butler"}


def test_two_alike_cards_refused_count_again_with_the_one_laid_anew():
    """One Vampire revealed, one read in each slot (B's a misread Butler): both slots were
    cleared and used up, and once B was laid again the table asked for A's Vampire, lying
    there, until someone pressed OK."""
    g = Game()
    for ev in ({"event": "game", "players": ["Red", "Orange", "Yellow"], "first": "Red"},
               {"event": "investigate", "player": "Red", "card": "vampire", "guess": "cook"}):
        g.push(ev)
    log = MemoryLog()
    ctl = Controller(Game, game=g, log=log, camera=True)
    ctl.handle(Taken("a"))
    ctl.handle(seat(3))  # Orange challenges Yellow
    ctl.handle(seat(3))
    ctl.handle(Seen("a", "vampire"))
    ctl.handle(Seen("b", "vampire"))
    assert ctl.message[0] == "rule.too_many" and ctl.pending.cards == {}
    ctl.handle(Taken("b"))
    ctl.handle(Seen("b", "butler"))
    assert log.lines[-1]["cards"] == {"Orange": "vampire", "Yellow": "butler"}


def test_a_resumed_game_has_the_trackers_slots_assume_its_last_cards():
    """After a restart the cards of the last step logged are taken as lying there, used:
    the tracker reports their slot taken when it is empty, and a card laid there later (the
    same card too) counts."""
    from types import SimpleNamespace

    from companion.app.loop import App

    g = Game()
    for ev in ({"event": "game", "players": ["Red", "Orange", "Yellow"], "first": "Red"},
               {"event": "duel", "player": "Red", "target": "Orange", "accepted": True,
                "cards": {"Red": "living_armor", "Orange": "cook"}}):
        g.push(ev)
    assumed = {}
    camera = SimpleNamespace(tracker=SimpleNamespace(assume=assumed.__setitem__))
    log = MemoryLog()
    ctl = Controller(Game, game=g, log=log, camera=True)
    App(ctl, camera=camera, clock=lambda: 0.0)
    assert assumed == {"a": "living_armor", "b": "cook"}
    ctl.handle(Taken("b"))  # the tracker: slot B is empty
    ctl.handle(seat(2))  # Orange investigates
    ctl.handle(seat(2))
    ctl.handle(Seen("a", "butler"))
    ctl.handle(OK)
    ctl.handle(seat(1))  # Yellow challenges Red
    ctl.handle(seat(1))
    ctl.handle(Taken("a"))
    ctl.handle(Seen("a", "cleaner"))
    ctl.handle(Seen("b", "cook"))
    assert log.lines[-1]["cards"] == {"Yellow": "cleaner", "Red": "cook"}


def test_an_unreadable_card_laid_early_opens_the_picker():
    """Red laid the card before Yellow accepted, and the camera could not read it: the table
    asked for it for ever, as the wait for a reading started only once cards were asked."""
    ctl, _ = start(camera=True)
    ctl.handle(seat(3))  # Red challenges Yellow
    ctl.handle(Unsure("a"))  # Red's card laid at once
    ctl.handle(seat(3))  # Yellow accepts
    ctl.handle(Seen("b", "butler"))
    assert ctl.phase == "cards" and not ctl.pending.picker
    ctl.handle(Tick(ctl.now + 1.1))
    assert ctl.pending.picker and ctl.message[0] == "msg.camera_unsure"


def test_cards_left_on_the_mat_over_a_restart_are_not_taken_as_laid_anew():
    """After a restart the camera reports the cards lying in the slots: Red's Cook, logged
    already, was taken as Orange's card in the next duel."""
    g = Game()
    for ev in ({"event": "game", "players": ["Red", "Orange", "Yellow"], "first": "Red"},
               {"event": "investigate", "player": "Red", "card": "cook", "guess": "butler"}):
        g.push(ev)
    log = MemoryLog()
    ctl = Controller(Game, game=g, log=log, camera=True)  # a restart
    ctl.handle(Seen("a", "cook"))  # left lying there
    ctl.handle(seat(3))  # Orange challenges Yellow
    ctl.handle(seat(3))
    ctl.handle(Seen("b", "butler"))
    assert ctl.phase == "cards" and ctl.pending.cards == {"b": "butler"}
    ctl.handle(Taken("a"))
    ctl.handle(Seen("a", "cook"))  # the same card laid again, after it was taken: counts
    assert log.lines[-1]["cards"] == {"Orange": "cook", "Yellow": "butler"}


def test_a_table_of_three_seat_buttons_reaches_powers_4_to_6_by_holding_them():
    """With the 3-seat direct wiring and no screen to touch, Living Armor, Vampire and Ghost
    could not be announced or picked: the buttons were 1 to 6 = power."""
    from types import SimpleNamespace

    class ThreeSeats(VirtualPanel):
        pinmap = SimpleNamespace(seats=3)

    log = MemoryLog()
    ctl = Controller(Game, open_log=lambda e: log, camera=True, panel=ThreeSeats(),
                     rng=random.Random(0))
    for s in (1, 2, 3):
        ctl.handle(seat(s))
    ctl.handle(OK)
    ctl.handle(seat(1))
    ctl.handle(seat(1))  # Red investigates
    assert ctl.prompt()[0] == "prompt.guess_held"
    assert "held, 4-6" in tr("en", ctl.prompt()[0], **ctl.prompt()[1])
    ctl.handle(Press("seat", 2, long=True))  # announces power 5: the Vampire
    assert ctl.pending.guess == "vampire"
    ctl.handle(OK)  # the camera does not see it: the picker
    assert ctl.prompt()[0] == "prompt.pick_held"
    ctl.handle(Press("seat", 3, long=True))  # power 6: the Ghost
    assert ctl.pending.cards == {"a": "ghost"}


def test_a_long_press_is_its_own_power_with_six_seat_buttons():
    ctl, _ = start()
    ctl.handle(seat(1))
    ctl.handle(Press("seat", 2, long=True))
    assert ctl.pending.guess == "cook" and ctl.prompt()[0] == "prompt.pick"


def test_an_unknown_label_or_low_score_is_treated_as_unsure():
    ctl, _ = start(camera=True)
    ctl.min_score = 0.5
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(Seen("a", "joker"))
    ctl.handle(Tick(ctl.now + 2))
    assert ctl.pending.picker and ctl.pending.cards == {}
    ctl.pending.picker = False
    ctl.handle(Seen("a", "cook", score=0.2))
    ctl.handle(Tick(ctl.now + 2))
    assert ctl.pending.picker and ctl.pending.cards == {}


def test_an_unsure_moment_followed_by_a_reading_does_not_open_the_picker():
    ctl, _ = start(camera=True)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(Unsure("a"))
    ctl.handle(Tick(ctl.now + 0.3))
    ctl.handle(Seen("a", "cook"))
    ctl.handle(Tick(ctl.now + 5))
    assert ctl.phase == "confirm" and not ctl.pending.picker and ctl.message is None


def test_round_summary_waits_for_ok_and_game_end_offers_a_new_game():
    app, log, _ = make_app(3, 3, camera=False)
    saw_summary = False
    while app.ctl.phase != "over":
        app.step()
        saw_summary |= app.ctl.phase == "summary"
    assert saw_summary
    ctl = app.ctl
    ctl.handle(UNDO)
    assert ctl.message[0] == "rule.game_over"  # not "Nothing to take back": what to do
    if ctl.effects:  # the game's end still playing: OK shows the winners, no more
        ctl.handle(OK)
        assert ctl.phase == "over" and not ctl.effects
    ctl.handle(OK)
    assert ctl.phase == "setup_first" and len(ctl.joined) == 3


def test_presses_made_before_a_rounds_or_games_end_was_shown_do_not_dismiss_it():
    """Two quick OKs at the last confirm went through in one pass of the loop: the winners
    were never drawn. One OK to get past the round's lights also dismissed its summary."""
    app, _, _ = make_app(3, 3, camera=False)
    while app.ctl.phase != "summary":
        app.step()
    ctl = app.ctl
    assert ctl.effects  # the round's end playing
    ctl.handle(OK)
    assert ctl.phase == "summary" and not ctl.effects  # shown, not dismissed
    app.inputs.put(OK)
    app.inputs.put(OK)
    app.inputs.put(OK)
    app.drain()
    assert ctl.phase not in ("summary",) and app.inputs.empty()
    phases = []

    class Ctl:  # a screen that must be seen, reached by the first of three queued presses
        phase = "confirm"

        def handle(self, item):
            phases.append(self.phase)
            self.phase = "over"

    app.ctl = Ctl()
    for _ in range(3):
        app.inputs.put(OK)
    app.drain()
    assert phases == ["confirm"] and app.ctl.phase == "over"


def test_two_presses_at_once_to_say_who_starts_start_the_game_and_nothing_more():
    """Orange and Yellow pressed together: the game started with Orange, and Yellow's press
    became Orange's challenge to Yellow, before anyone saw whose turn it was."""
    app, _, _ = make_app(3, 3, camera=False)
    ctl = app.ctl
    for s in (1, 2, 3):
        ctl.handle(seat(s))
    ctl.handle(OK)
    assert ctl.phase == "setup_first"
    app.inputs.put(seat(2))
    app.inputs.put(seat(3))
    app.drain()
    assert ctl.phase == "turn" and ctl.game.expect == {"action": "turn", "player": "Orange"}
    assert ctl.pending is None


def test_closing_the_window_at_a_games_end_is_not_dropped_with_the_presses_before_it():
    """The presses queued after the one that reached the game's end are dropped, so that
    they dismiss nothing; the window's close (a quit) was dropped with them."""
    app, _, _ = make_app(3, 3, camera=False)
    seen = []

    class Ctl:
        phase = "confirm"
        quit = False

        def handle(self, item):
            seen.append(item)
            self.phase = "over"

    app.ctl = Ctl()
    for press in (OK, OK, Press("quit")):
        app.inputs.put(press)
    app.drain()
    assert seen == [OK, Press("quit")]


def test_effects_expire_with_the_injected_clock_and_can_be_skipped():
    ctl, _ = start()
    ctl.handle(Tick(10.0))
    ctl.handle(seat(1))
    ctl.handle(seat(3))
    ctl.handle(Press("card", "cook"))
    ctl.handle(OK)
    assert [e.note["kind"] for e in ctl.effects] == ["damage"]
    ctl.handle(Tick(10.5))
    assert ctl.effects
    ctl.handle(Tick(11.0))
    assert not ctl.effects
    ctl.handle(seat(2))
    ctl.handle(seat(3))
    ctl.handle(Press("card", "cook"))
    ctl.handle(OK)
    ctl.handle(Press("skip"))
    assert not ctl.effects


def test_version_changes_only_when_something_changed():
    ctl, _ = start()
    v = ctl.version
    ctl.handle(Tick(1.0))
    ctl.handle(Tick(2.0))
    assert ctl.version == v
    ctl.handle(Press("lang"))
    assert ctl.version == v + 1 and ctl.language == "ko"


def test_buttons_keys_and_camera_events_map_to_inputs():
    from companion.app.devices import ButtonEvent
    from companion.app.inputs import from_reveal

    assert from_button(ButtonEvent("seat4")) == Press("seat", 4)
    assert from_button(ButtonEvent("undo", True)) == Press("undo", long=True)
    assert from_button(ButtonEvent("seat9")) is None
    assert from_button(ButtonEvent("power")) is None
    assert from_key("Return") == OK and from_key("3") == seat(3) and from_key("f") is None
    assert from_reveal(CardLaid("cook", "b", 0.9)) == Seen("b", "cook", 0.9)


def test_virtual_panel_mirrors_health_and_rejects_unknown_buttons():
    import queue

    q = queue.Queue()
    panel = VirtualPanel(q)
    g = reveal_owed_game()
    panel.show(g.state)
    assert panel.led_states()[0] == [True] * 5
    assert panel.led_states()[1] == [True, False, False, False, False]  # Orange: 1 health
    assert panel.led_states()[5] == [False] * 5
    panel.press("ok")
    assert q.get_nowait().name == "ok"
    with pytest.raises(ValueError, match="no button called 'power'"):
        panel.press("power")
    assert q.empty()


def test_players_keep_their_physical_seats_for_buttons_and_dials():
    panel = VirtualPanel()
    log = MemoryLog()
    ctl = Controller(Game, open_log=lambda e: log, camera=False, panel=panel)
    for s in (2, 5):
        ctl.handle(seat(s))
    ctl.handle(OK)
    ctl.handle(seat(5))  # Blue, at seat 5, starts
    assert ctl.game.expect == {"action": "turn", "player": "Blue"}
    ctl.handle(seat(1))  # nobody at seat 1
    assert ctl.message[0] == "msg.no_such_seat"
    ctl.handle(seat(2))  # Blue challenges Orange, at seat 2
    assert ctl.pending.target == "Orange"
    ctl.handle(seat(2))
    ctl.handle(Press("card", "living_armor"))
    ctl.handle(Press("card", "cleaner"))
    leds = panel.led_states()
    assert leds[0] == [False] * 5 and leds[3] == [False] * 5
    assert leds[1] == [True, True, False, False, False]  # Orange: 5 - 3
    assert leds[4] == [True] * 5
    # read back from its log, the game keeps the seats (players named after seat colours)
    again = Controller(Game, game=load_game(log.lines), camera=False)
    assert again.joined == [2, 5] and again.seat_for("Blue") == 5


def test_a_camera_that_stops_answering_opens_the_picker_and_comes_back():
    from tests.app_fakes import DiffTracker, MatCamera

    class Flaky(MatCamera):
        status = "ok"

        def read(self):
            return super().read() if self.status == "ok" else None

    from companion.app.devices import CameraFeed
    from companion.app.loop import App

    cam = Flaky()
    ctl, log = start(camera=True)
    app = App(ctl, clock=lambda: 0.0)
    app.camera = CameraFeed(cam, DiffTracker(cam), app.inputs)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    app.step()
    assert ctl.phase == "cards" and not ctl.pending.picker
    cam.status = "reconnecting"
    app.step()
    assert ctl.camera is False and ctl.pending.picker
    cam.status = "ok"
    app.step()
    assert ctl.camera is True
    cam.lay("a", "cook")
    app.step()
    assert ctl.phase == "confirm"


def test_a_picture_the_reader_trips_on_is_skipped_and_said_once():
    """A fault in reading one camera picture never stops the table: the picture is skipped,
    the fault is told once (not once per picture), and the next pictures are read."""
    from companion.app.devices import CameraFeed
    from companion.app.loop import App
    from tests.app_fakes import DiffTracker, MatCamera

    cam = MatCamera()
    tracker = DiffTracker(cam)
    ctl, log = start(camera=True)
    said = []
    app = App(ctl, clock=lambda: 0.0, say=said.append)
    app.camera = CameraFeed(cam, tracker, app.inputs)
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    app.step()
    assert ctl.phase == "cards"
    real = tracker.feed

    def trips(frame):
        raise ValueError("bad quad")

    tracker.feed = trips
    cam.lay("a", "cook")
    for _ in range(3):
        app.step()
    assert app.camera.faults == 3 and ctl.phase == "cards"
    assert said == ["camera: a picture could not be read and was skipped (ValueError: bad quad; "
                    "1 so far)"]
    for _ in range(7):
        app.step()
    assert len(said) == 2 and said[1].endswith("(ValueError: bad quad; 10 so far)")
    tracker.feed = real
    app.step()
    assert ctl.phase == "confirm"


def test_simulated_players_use_the_picker_when_the_camera_never_reads_a_card():
    app, log, _ = make_app(31, 2, camera=True)

    class Blind:
        def feed(self, frame):
            return []

    app.camera.tracker = Blind()
    play(app)
    assert app.ctl.phase == "over"
    assert load_game(log.lines).state == app.ctl.state
    assert app.ctl.cards_read == 0 and app.ctl.cards_picked > 0


def test_a_whole_game_kept_by_the_kiosk_session(tmp_path):
    session_mod = pytest.importorskip("companion.kiosk.session")
    import random as _random

    from companion.app.loop import App
    from companion.app.simplayers import SimPlayers

    session = session_mod.TableSession.open(tmp_path / "table.jsonl", fsync=False)
    rng = _random.Random(5)
    ctl = Controller(Game, open_log=session.open_log, camera=False, rng=rng)
    sim = SimPlayers(rng)
    sim._want_players = 3
    t = [0.0]

    def clock():
        t[0] += 0.1
        return t[0]

    app = App(ctl, sim=sim, clock=clock)
    while ctl.phase != "over":
        app.step()
    assert session.game.state == ctl.state and session.game.over
    # a restart resumes from the session's file, and a new game puts the old one away
    again = session_mod.TableSession.open(tmp_path / "table.jsonl", fsync=False)
    assert load_game(again.logged).state == ctl.state
    ctl2 = Controller(Game, open_log=again.open_log, game=load_game(again.logged), log=again,
                      camera=False, rng=rng)
    ctl2.handle(OK)  # new game, same seats
    ctl2.handle(OK)  # random first player
    assert ctl2.phase == "turn" and list((tmp_path / "games").iterdir())


def test_a_duel_that_would_end_the_game_is_confirmed_first():
    g = Game()
    g.push({"event": "game", "players": ["Red", "Orange"], "first": "Red"})
    for _ in range(4):
        g.push({"event": "investigate", "player": "Red", "card": "cook", "guess": "cook"})
        g.push({"event": "investigate", "player": "Orange", "card": "cleaner", "guess": "cook"})
    log = MemoryLog()
    ctl = Controller(Game, game=g, log=log, camera=False)
    ctl.handle(seat(2))
    ctl.handle(seat(2))
    ctl.handle(Press("card", "butler"))
    ctl.handle(Press("card", "cleaner"))
    assert ctl.phase == "confirm" and ctl.prompt()[0] == "prompt.confirm_duel"
    assert log.lines == []  # nothing written yet: the game's last event cannot be undone
    ctl.handle(BACK)  # read again
    assert ctl.phase == "cards" and ctl.pending.cards == {}
    ctl.handle(Press("card", "butler"))
    ctl.handle(Press("card", "cleaner"))
    ctl.handle(OK)
    assert ctl.phase == "over" and ctl.state["winners"] == ["Red"] and len(log.lines) == 1


def test_the_camera_is_read_every_pass_only_while_cards_are_awaited_or_something_moved():
    """A quiet table's camera is read a few times a second; while the table waits for cards,
    and for a while after anything moved on the mat, on every pass."""
    from companion.app.loop import App

    class Tracker:
        examined = 0

    class Feed:
        working = True
        tracker = Tracker()
        moving = False

        def poll(self):
            if self.moving:
                self.tracker.examined += 1  # a frame that differs from the last one
            return 0

    ctl, _ = start()
    assert ctl.phase == "turn"
    t = [0.0]
    feed = Feed()
    app = App(ctl, camera=feed, clock=lambda: t[0])

    def passes(seconds):
        before = app.looks
        for _ in range(round(seconds * 15)):
            app.step()
            t[0] += 1 / 15
        return app.looks - before

    assert passes(3) <= 10  # a player's turn, nothing moving: about 3 reads a second
    feed.moving = True
    passes(0.5)  # a hand over the mat
    feed.moving = False
    assert passes(1.5) >= 20  # watched closely a while after the movement
    passes(2)
    assert passes(3) <= 10  # quiet again
    ctl.handle(seat(1))  # Red investigates...
    ctl.handle(seat(5))  # ...announcing the Vampire: now the table waits for the card
    assert ctl.phase == "cards"
    assert passes(3) >= 44


def test_back_while_a_card_is_owed_says_what_is_asked():
    """Back did nothing at all (no message, no redraw) while an out player had to show the
    card they held."""
    ctl = Controller(Game, game=reveal_owed_game(), log=MemoryLog(), camera=True)
    for press in (seat(1), seat(4), Seen("a", "living_armor"), OK):
        ctl.handle(press)
    assert ctl.pending.kind == "reveal"
    version = ctl.version
    ctl.handle(BACK)
    assert ctl.message[0] == "msg.cards_help" and ctl.version != version


def test_seats_taken_out_of_use_during_a_game_are_out_of_the_next_one():
    """Seats in use lowered to 2 in the operator menu during a game of 3: the next game
    went straight to 'who starts?' with seat 3 still in it."""
    ctl, _ = start(players=3)
    ctl.seats_in_use = 2  # as the operator menu sets it during a game
    ctl.phase = "over"  # the game played to its end
    ctl.handle(OK)
    assert ctl.joined == [1, 2] and ctl.phase == "setup_join"


def test_the_on_screen_dials_are_dark_between_games_too():
    """The screen's own dials (no hardware panel installed) kept the last game lit while
    the players took their seats for the next."""
    panel = VirtualPanel()
    ctl = Controller(Game, camera=False, panel=panel, rng=random.Random(0))
    for press in (seat(1), seat(2), OK, seat(1)):
        ctl.handle(press)
    assert any(any(row) for row in panel.led_states())
    ctl.phase = "over"
    ctl.handle(OK)  # a new game: the players take their seats
    assert not any(any(row) for row in panel.led_states())
