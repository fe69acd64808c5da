"""The operator menu: how it opens, what each item changes, and that the game is left alone."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import copy  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

import companion.kiosk.runtime as runtime  # noqa: E402
from companion.app.controller import Controller  # noqa: E402
from companion.app.devices import VirtualPanel  # noqa: E402
from companion.app.i18n import tr  # noqa: E402
from companion.app.inputs import Press, Seen, Taken, Tick, from_key  # noqa: E402
from companion.app.loop import App  # noqa: E402
from companion.app.operator import COMBO_WINDOW, Combination, next_choice  # noqa: E402
from companion.app.screens.operator import camera_line  # noqa: E402
from companion.app.screens.palette import GOLD  # noqa: E402
from companion.app.screens.table import TableScreen  # noqa: E402
from companion.engine import Game  # noqa: E402
from companion.kiosk.runtime import Kiosk  # noqa: E402
from companion.kiosk.settings import FILENAME  # noqa: E402
from tests.app_scenes import _midgame, seat  # noqa: E402
from tests.test_app_screens import (  # noqa: E402, F401 - display: the screen
    _assert_no_missing_glyphs,
    _drawn_texts,
    _missing,
    blinking_turn,
    display,
)
from tests.test_kiosk_notify import FakeSystemd  # noqa: E402

LONG_BACK, LONG_UNDO = Press("back", long=True), Press("undo", long=True)


class RecordingLog:
    def __init__(self):
        self.lines = []

    def append(self, event):
        self.lines.append(event)


def _game_snapshot(ctl):
    return (copy.deepcopy(ctl.game.state), len(ctl.game.events), ctl.phase, repr(ctl.pending),
            tuple(ctl.joined), ctl.summary)


def _open(ctl, now=100.0):
    ctl.handle(Tick(now))
    ctl.handle(LONG_BACK)
    ctl.handle(Tick(now + 1.2))
    ctl.handle(LONG_UNDO)
    assert ctl.menu is not None


# ----- opening ------------------------------------------------------------------------------

def test_long_back_then_long_undo_within_the_window_opens_the_menu_in_either_order():
    for first, second in ((LONG_BACK, LONG_UNDO), (LONG_UNDO, LONG_BACK)):
        ctl, _ = _midgame()
        before = _game_snapshot(ctl)
        ctl.handle(first)
        ctl.handle(Tick(100.0 + COMBO_WINDOW - 0.1))
        ctl.handle(second)
        assert ctl.menu is not None
        assert _game_snapshot(ctl) == before  # neither press reached the game


def test_single_and_short_presses_never_open_the_menu():
    ctl, _ = _midgame()
    for press in (Press("back"), Press("undo"), LONG_BACK, Press("ok"), seat(1), Press("back")):
        ctl.handle(press)
        ctl.handle(Tick(ctl.now + 0.3))
    ctl.handle(Tick(ctl.now + COMBO_WINDOW + 1))
    assert ctl.menu is None
    # Short Back then short Undo is not the combination either.
    ctl.handle(Press("back"))
    ctl.handle(Press("undo"))
    assert ctl.menu is None
    # Two long Backs are not the combination.
    ctl.handle(LONG_BACK)
    ctl.handle(LONG_BACK)
    assert ctl.menu is None


def test_a_long_press_alone_still_reaches_the_game_once_its_window_has_passed():
    ctl, _ = _midgame()
    ctl.handle(seat(1))  # Green challenges Red: Back refuses
    assert ctl.phase == "answer"
    events = len(ctl.game.events)
    ctl.handle(LONG_BACK)
    ctl.handle(Tick(100.0 + COMBO_WINDOW / 2))
    assert len(ctl.game.events) == events  # held back while the partner may come
    ctl.handle(Tick(100.0 + COMBO_WINDOW + 0.1))
    assert len(ctl.game.events) == events + 1  # the refusal, late but as a Back
    assert ctl.game.events[-1]["accepted"] is False and ctl.menu is None


def test_a_long_press_waiting_for_its_partner_is_dropped_when_f10_opens_the_menu():
    ctl, _ = _midgame()
    ctl.handle(seat(1))
    events = len(ctl.game.events)
    ctl.handle(LONG_BACK)
    ctl.handle(Press("operator"))  # F10 while the long Back waits for a long Undo
    assert ctl.menu is not None
    ctl.handle(Tick(100.0 + COMBO_WINDOW + 5))
    assert len(ctl.game.events) == events and ctl.phase == "answer"  # the game left alone


def test_the_dials_blinking_under_the_open_menu_do_not_draw_over_it():
    with blinking_turn(menu=True) as (ctl, panel, app, surface, t):
        app.step()
        menu = pygame.surfarray.array3d(surface).copy()
        t[0] = 0.7  # the turn's candles go dark under the menu
        panel.tick()
        app.step()
        assert app.light_redraws == 0
        assert (pygame.surfarray.array3d(surface) == menu).all()  # the menu as it was drawn
        ctl.handle(Press("operator"))  # closed: the table, with the dials as they are now
        app.step()
        full = pygame.Surface((1280, 720))
        TableScreen((1280, 720), panel=panel, card_art=False).draw(full, ctl)
        assert (pygame.surfarray.array3d(surface) == pygame.surfarray.array3d(full)).all()


def test_a_long_undo_too_late_after_a_long_back_does_not_open_and_undoes():
    ctl, _ = _midgame()
    events = len(ctl.game.events)
    ctl.handle(LONG_UNDO)
    ctl.handle(Tick(100.0 + COMBO_WINDOW + 0.5))
    assert ctl.menu is None and len(ctl.game.events) == events - 1  # the undo applied
    ctl.handle(LONG_BACK)
    ctl.handle(Tick(100.0 + 2 * COMBO_WINDOW + 1))
    ctl.handle(LONG_UNDO)
    assert ctl.menu is None


def test_another_press_between_the_long_presses_breaks_the_combination():
    c = Combination()
    assert c.feed(LONG_BACK, 0.0) == (False, [])
    assert c.feed(seat(3), 0.5) == (False, [LONG_BACK, seat(3)])
    assert c.feed(LONG_UNDO, 1.0) == (False, [])
    assert c.flush(1.0 + COMBO_WINDOW + 0.01) == [LONG_UNDO]


def test_undo_held_then_pressed_again_is_one_undo():
    """Held to be sure, Undo did nothing for up to 2 s (kept for a long Back to join it);
    pressed again, it took back two moves."""
    c = Combination()
    assert c.feed(LONG_UNDO, 0.0) == (False, [])
    assert c.feed(Press("undo"), 0.3) == (False, [LONG_UNDO])
    assert c.flush(0.3 + COMBO_WINDOW + 0.01) == []
    ctl, _ = _midgame()
    events = len(ctl.game.events)
    ctl.handle(LONG_UNDO)
    ctl.handle(Press("undo"))
    ctl.handle(Tick(100.0 + COMBO_WINDOW + 0.5))
    assert len(ctl.game.events) == events - 1  # one move taken back, not two


def test_holding_back_and_undo_together_on_the_virtual_panel_opens_the_menu():
    """The real panel's events, through the app's queue: both buttons held past the hold
    time give a long Back and a long Undo moments apart."""
    from hardware.panel import virtual_panel

    inputs: queue.Queue = queue.Queue()
    panel = virtual_panel(events=inputs, animate=False)
    try:
        ctl = Controller(Game, panel=panel, rng=random.Random(1))
        app = App(ctl, inputs=inputs, clock=time.monotonic)
        panel.button_down("back")
        panel.button_down("undo")
        deadline = time.monotonic() + 5
        while ctl.menu is None and time.monotonic() < deadline:
            app.wait(0.05)
            app.step()
        panel.button_up("back")
        panel.button_up("undo")
        assert ctl.menu is not None
        app.step()
        assert ctl.menu is not None and ctl.phase == "setup_join" and ctl.joined == []
    finally:
        panel.close()


def test_f10_opens_and_closes_the_menu_from_the_keyboard():
    assert from_key("f10") == Press("operator")
    ctl, _ = _midgame()
    app = App(ctl, clock=lambda: 100.0)
    app.pump_pygame([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10)])
    app.step()
    assert ctl.menu is not None
    app.pump_pygame([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10)])
    app.step()
    assert ctl.menu is None


# ----- the items ----------------------------------------------------------------------------

def test_each_item_changes_its_setting_and_nothing_in_the_game():
    ctl, _ = _midgame()
    log = ctl.log = RecordingLog()
    before = _game_snapshot(ctl)
    _open(ctl)
    ctl.handle(seat(1))
    assert ctl.language == "ko"
    ctl.handle(Press("lang"))
    assert ctl.language == "en"
    ctl.handle(seat(2))
    assert ctl.seats_in_use == 2  # 6 wraps round to 2
    ctl.handle(seat(2))
    assert ctl.seats_in_use == 3
    ctl.handle(seat(3))
    assert ctl.led_brightness == 0.25  # 100 % wraps round to 25 %
    ctl.handle(seat(3))
    assert ctl.led_brightness == 0.5
    ctl.handle(seat(4))
    assert ctl.menu.note == ("menu.camera_checked", {})
    for press in (Press("ok"), Press("card", "cook"), Press("skip")):
        ctl.handle(press)  # nothing of the game answers while the menu is open
    assert ctl.menu.note == ("menu.help", {})
    ctl.handle(Press("undo"))  # in the menu, Undo only moves its highlight
    assert ctl.menu.cursor == 0
    ctl.handle(Press("back"))
    assert ctl.menu is None
    assert _game_snapshot(ctl) == before
    assert log.lines == []  # the menu never logs an event
    ctl.handle(Press("undo"))  # the game goes on where it was
    assert log.lines == [{"event": "undo"}]


def test_a_table_with_three_seat_buttons_reaches_every_item_with_undo_and_ok():
    """The shipped 3-seat wiring has seat buttons 1 to 3 only: Undo moves the highlight down
    the rows and OK does the highlighted item, safe shutdown (row 5) included."""
    calls = []
    ctl, _ = _midgame()
    ctl.shutdown = lambda: calls.append(1)
    log = ctl.log = RecordingLog()
    before = _game_snapshot(ctl)
    _open(ctl)
    assert ctl.menu.cursor is None
    ctl.handle(Press("ok"))  # nothing highlighted yet: OK says how the menu works
    assert ctl.menu.note == ("menu.help", {}) and ctl.language == "en"
    ctl.handle(Press("undo"))
    ctl.handle(Press("ok"))
    assert ctl.menu.cursor == 0 and ctl.language == "ko"
    ctl.handle(Press("undo"))
    ctl.handle(Press("ok"))
    assert ctl.menu.cursor == 1 and ctl.seats_in_use == 2
    ctl.handle(Press("undo"))
    ctl.handle(Press("ok"))
    assert ctl.menu.cursor == 2 and ctl.led_brightness == 0.25
    ctl.handle(Press("undo"))
    ctl.handle(Press("ok"))
    assert ctl.menu.cursor == 3 and ctl.menu.note == ("menu.camera_checked", {})
    ctl.handle(Press("undo"))
    ctl.handle(Press("ok"))
    assert ctl.menu.cursor == 4 and ctl.menu.confirming and calls == []
    ctl.handle(Press("undo"))  # moving on drops the question
    assert ctl.menu.cursor == 5 and not ctl.menu.confirming and calls == []
    for _ in range(5):
        ctl.handle(Press("undo"))  # round again: row 6 is followed by row 1
    assert ctl.menu.cursor == 4
    ctl.handle(Press("ok"))
    ctl.handle(Press("ok"))  # the question, then its answer
    assert calls == [1]
    ctl.handle(Press("undo"))
    ctl.handle(Press("ok"))  # row 6 closes the menu
    assert ctl.menu is None
    assert _game_snapshot(ctl) == before and log.lines == []  # none of it reached the game


def test_seats_in_use_limits_who_can_join_the_next_game():
    ctl = Controller(Game, rng=random.Random(3), seats_in_use=4)
    ctl.handle(seat(5))
    assert ctl.joined == [] and ctl.message == ("msg.seat_not_in_use", {"seat": 5, "seats": 4})
    for n in (1, 2, 4):
        ctl.handle(seat(n))
    assert ctl.joined == [1, 2, 4]
    ctl.handle(Press("operator"))
    ctl.handle(seat(2))  # 4 -> 5
    ctl.handle(Press("back"))
    ctl.handle(seat(5))
    assert ctl.joined == [1, 2, 4, 5]
    ctl.handle(Press("ok"))  # on to choosing who starts...
    assert ctl.phase == "setup_first"
    ctl.handle(Press("operator"))
    for _ in range(3):  # ...when the staff bring it down: 5 -> 6 -> 2 -> 3
        ctl.handle(seat(2))
    ctl.handle(Press("back"))
    assert ctl.seats_in_use == 3
    assert ctl.joined == [1, 2] and ctl.phase == "setup_join"  # seats 4 and 5 join no more


def test_camera_readings_wait_while_the_menu_is_open():
    ctl, _ = _midgame()
    ctl.handle(seat(4))  # Green investigates
    ctl.handle(seat(3))  # announces the Living Armor
    assert ctl.phase == "cards"
    events = len(ctl.game.events)
    ctl.handle(Press("operator"))
    ctl.handle(Seen("a", "living_armor"))
    assert len(ctl.game.events) == events and ctl.phase == "cards"
    ctl.handle(Press("back"))
    assert ctl.phase == "confirm" and ctl.pending.cards == {"a": "living_armor"}


def test_brightness_goes_to_a_panel_that_has_it_and_is_kept_with_a_word_otherwise():
    class DimmablePanel(VirtualPanel):
        def __init__(self):
            super().__init__()
            self.levels = []

        def set_brightness(self, value):
            self.levels.append(value)

    panel = DimmablePanel()
    ctl = Controller(Game, panel=panel, led_brightness=0.5)
    ctl.handle(Press("operator"))
    ctl.handle(seat(3))
    assert panel.levels == [0.5, 0.75] and ctl.brightness_applies  # from the start, then 75 %
    plain = Controller(Game, panel=VirtualPanel(), led_brightness=0.5)
    plain.handle(Press("operator"))
    plain.handle(seat(3))
    assert plain.led_brightness == 0.75 and not plain.brightness_applies
    screen = TableScreen((1280, 720), card_art=False)
    screen.draw(pygame.Surface((1280, 720)), plain)
    assert any("75% (kept; these dials ignore it)" == key[0] for key in screen._text)


def test_a_brightness_below_the_menus_least_is_shown_as_the_dials_show_it():
    """A configuration's led_brightness = 0.1: the dials go no dimmer than 25 %, but the menu
    said 10 %, and its first press (to 25 %) changed nothing on the dials."""
    from companion.app.screens.operator import row_values

    ctl = Controller(Game, panel=VirtualPanel(), led_brightness=0.1)
    ctl.handle(Press("operator"))
    assert ctl.led_brightness == 0.25 and row_values(ctl, "en")[2].startswith("25%")
    ctl.handle(seat(3))
    assert ctl.led_brightness == 0.5


def test_camera_check_says_what_the_app_knows_in_plain_words():
    ctl = Controller(Game, camera=False)
    assert camera_line(ctl, "en") == "Camera: none set up. Cards are picked on the screen."
    ctl = Controller(Game, camera=True)
    assert camera_line(ctl, "en") == "Camera: working. No card in the slots."
    ctl.mat_found = False
    assert "does not see the mat" in camera_line(ctl, "en")
    ctl.mat_found = True
    ctl.handle(Seen("a", "cook"))
    ctl.handle(Seen("b", "butler"))
    assert camera_line(ctl, "en") == "Camera: working, mat found. Cards seen: A Cook, B Butler."
    assert camera_line(ctl, "ko") == "카메라: 작동, 매트 찾음. 보이는 카드: A 요리사, B 집사."
    ctl.handle(Taken("a"))
    ctl.handle(Taken("b"))
    assert camera_line(ctl, "en") == "Camera: working, mat found. No card in the slots."
    ctl.set_mat_found(True, ("a", "b"))  # a camera seeing the mat too much from the side
    assert camera_line(ctl, "en").startswith(
        "Camera: mat found, but it sees slot A/B too slanted or too far to read cards there.")
    assert "A/B 칸을 비스듬히 또는 너무 멀리서" in camera_line(ctl, "ko")
    ctl.set_camera(False)
    assert camera_line(ctl, "en") == "Camera: not answering. Cards are picked on the screen."


def test_the_loop_tells_the_controller_whether_the_camera_sees_the_mat():
    class Tracker:
        mat = None
        slots_poor = ()
        examined = 0  # no frame looked at yet

    class Feed:
        working = True
        tracker = Tracker()

        def poll(self):
            return 0

    ctl = Controller(Game)
    ctl.handle(Press("operator"))  # the staff watch the camera check while setting up
    t = [1.0]
    app = App(ctl, camera=Feed(), clock=lambda: t[0])
    app.step()
    assert ctl.mat_found is None  # not known before the first frame
    Feed.tracker.examined = 1
    t[0] += 0.5
    app.step()
    assert ctl.mat_found is False
    version = ctl.version
    Feed.tracker.mat = object()
    t[0] += 0.5  # a quiet table's camera is read a few times a second
    app.step()
    assert ctl.mat_found is True
    assert ctl.version > version  # so the open menu's camera line is drawn again
    Feed.tracker.slots_poor = ("b",)  # the camera was knocked askew
    t[0] += 0.5
    app.step()
    assert ctl.slots_poor == ("b",)
    Feed.tracker.sees_mat = False  # its view in doubt for long (corner squares covered)
    t[0] += 0.5
    app.step()
    assert ctl.mat_found is False


def test_a_camera_mounted_too_much_from_the_side_is_said_on_the_table_screen():
    from pathlib import Path

    from companion.app.devices import CameraFeed, card_tracker
    from vision.synthetic import ManualClock, SyntheticCamera

    clock = ManualClock()
    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"

    def table(camera, said=None):
        """The app reading ``camera`` with the real recogniser for 3 s."""
        inputs: queue.Queue = queue.Queue()
        ctl = Controller(Game, camera=True)
        app = App(ctl, inputs=inputs, camera=CameraFeed(camera, card_tracker(cards), inputs),
                  clock=clock, say=None if said is None else said.append)
        for _ in range(6):
            clock.advance(0.5)
            app.step()
        return ctl

    journal: list[str] = []
    ctl = table(SyntheticCamera(clock=clock, seed=3, tilt=0.5), journal)
    assert ctl.mat_found is True and ctl.slots_poor == ("a", "b")
    # The staff's journal gets it once, in plain words.
    assert journal == ["camera: Mat found, but a card in slot a or b may not be read: see "
                    "companion camera-check."]
    screen = TableScreen((1280, 720))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    said = tr("en", "warn.slots_poor", slots="A/B")
    assert any(said in key[0] for key in screen._text)
    assert camera_line(ctl, "en").startswith("Camera: mat found, but it sees slot A/B")
    # The demo's camera, above the mat: nothing to warn about.
    journal.clear()
    ctl = table(SyntheticCamera(clock=clock, seed=3), journal)
    assert ctl.mat_found is True and ctl.slots_poor == ()
    assert journal == ["camera: Mat found."]


def test_cards_that_do_not_fit_a_mat_printed_on_a4_are_said_on_the_table_screen():
    """A mat shrunk onto A4: the real reader sees the cards, but they measure 1.41 times a
    card on the mat and none is read. The players are told to pick the cards by hand, the
    camera check and the staff's journal say what to do about it."""
    from pathlib import Path

    from companion.app.devices import CameraFeed, card_tracker
    from vision import synthetic as S
    from vision.frames import Frame
    from vision.synthetic import ManualClock

    clock = ManualClock()
    picture = S.mat_scene(S.load_deck(), {"a": "cook"}, card_scale=1.41, rng=4).image

    class A4Camera:
        def read(self):
            return Frame(picture.copy(), clock())

    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"
    inputs: queue.Queue = queue.Queue()
    ctl, journal = Controller(Game, camera=True), []
    app = App(ctl, inputs=inputs, camera=CameraFeed(A4Camera(), card_tracker(cards), inputs),
              clock=clock, say=journal.append)
    for _ in range(8):
        clock.advance(0.5)
        app.step()
    assert ctl.mat_found is True and ctl.mat_misfit == pytest.approx(1.41, abs=0.06)
    assert inputs.empty() and ctl.slots_seen() == {}  # nothing read, nothing made up
    assert len(journal) == 2 and journal[0] == "camera: Mat found."
    assert journal[1].startswith("camera: Mat found, but the cards in the slots look 1.4 times")
    assert "A3" in journal[1]
    screen = TableScreen((1280, 720))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    said = tr("en", "warn.misfit")
    assert said.startswith("The mat is printed too small, so the camera cannot read the cards: "
                           "when a card is to be laid, press OK")
    lines = screen.wrap(said, 22, round(1250 * screen.scale), True)  # as drawn: bold
    assert len(lines) <= 2  # the screen shows two lines of a message: all of it
    assert all(any(line == key[0] for key in screen._text) for line in lines)
    assert camera_line(ctl, "en") == ("Camera: mat found, but cards look 1.4 times too large on "
                                      "it: print the mat on A3 at 100 %.")
    assert "1.4배로 보입니다" in camera_line(ctl, "ko")


def test_the_misfit_warning_goes_when_the_controller_is_told_the_cards_fit():
    ctl = Controller(Game, camera=True)
    assert ctl.set_mat_found(True, (), 1.41)
    assert not ctl.set_mat_found(True, (), 1.41)  # nothing new: nothing redrawn
    screen = TableScreen((1280, 720))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert any("printed too small" in key[0] for key in screen._text)
    assert ctl.set_mat_found(True, (), None)  # the card was taken away, or one fits
    screen._text.clear()
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert not any("printed too small" in key[0] for key in screen._text)
    assert camera_line(ctl, "en") == "Camera: working, mat found. No card in the slots."


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_cards_smaller_than_the_mat_expects_are_not_called_a_mat_printed_too_small(lang, size):
    ctl, panel = _midgame()
    ctl.language = lang
    ctl.camera_expected = ctl.camera = True
    ctl.set_mat_found(True, (), 0.7)
    screen = TableScreen(size, panel=panel, card_art=False)
    screen.draw(pygame.Surface(size), ctl)
    said = tr(lang, "warn.misfit_small")
    lines, _ = screen._message_lines(said)  # as drawn
    assert len(lines) <= 2  # the screen shows two lines of a message: all of it
    assert all(any(line == key[0] for key in screen._text) for line in lines)
    assert not any(tr(lang, "warn.misfit")[:12] in key[0] for key in screen._text)
    for (text, font_size, _colour, bold) in list(screen._text):
        assert not _missing(screen.font(font_size, bold), text), text
    assert camera_line(ctl, "en") == ("Camera: mat found, but cards look 0.7 times as large as "
                                      "it expects: smaller cards, or a mat printed over A3.")
    assert "0.7배로 보입니다" in camera_line(ctl, "ko")


def test_what_the_camera_line_says_first():
    """A camera not answering, or not seeing the mat, says nothing of the cards' size; cards
    too large say more than a slot seen poorly (on a mat printed small, slots look far)."""
    ctl = Controller(Game, camera=True)
    ctl.set_mat_found(True, ("a",), 1.41)
    assert camera_line(ctl, "en").startswith("Camera: mat found, but cards look 1.4 times")
    ctl.set_mat_found(False, ("a",), 1.41)
    assert camera_line(ctl, "en").startswith("Camera: working, but it does not see the mat")
    ctl.set_mat_found(True, ("a",), 1.41)
    ctl.set_camera(False)
    assert camera_line(ctl, "en").startswith("Camera: not answering")
    ctl.set_camera(True)
    ctl.set_mat_found(True, ("a",), None)
    assert camera_line(ctl, "en").startswith("Camera: mat found, but it sees slot A")


def test_cards_laid_while_the_menu_is_open_show_in_its_camera_check():
    ctl = Controller(Game, camera=True)
    ctl.set_mat_found(True)
    ctl.handle(Seen("b", "ghost"))
    ctl.handle(Press("operator"))
    version = ctl.version
    ctl.handle(Seen("a", "cook"))  # held back from the game while the menu is open...
    ctl.handle(Taken("b"))
    assert ctl.version > version  # ...but the menu is drawn again
    assert camera_line(ctl, "en") == "Camera: working, mat found. Cards seen: A Cook."
    assert ctl.game.event_count == 0


def test_safe_shutdown_asks_first_and_shows_why_it_failed():
    calls = []

    def shutdown():
        calls.append(1)
        return "The table could not be switched off (Access denied)."

    ctl = Controller(Game, shutdown=shutdown)
    ctl.handle(Press("operator"))
    ctl.handle(seat(5))
    assert ctl.menu.confirming and calls == []
    ctl.handle(Press("back"))  # Back cancels the question, the menu stays
    assert ctl.menu is not None and not ctl.menu.confirming and calls == []
    ctl.handle(seat(5))
    ctl.handle(seat(1))  # anything but OK drops the question
    assert not ctl.menu.confirming and calls == []
    ctl.handle(seat(5))
    ctl.handle(Press("ok"))
    assert calls == [1]
    assert ctl.menu.note == ("msg.notice",
                             {"text": "The table could not be switched off (Access denied)."})
    ok = Controller(Game, shutdown=lambda: None)
    ok.handle(Press("operator"))
    ok.handle(seat(5))
    ok.handle(Press("ok"))
    assert ok.menu.note == ("menu.shutting_down", {})


def test_in_the_demo_shutdown_only_says_what_it_would_do():
    ctl = Controller(Game)
    ctl.handle(Press("operator"))
    ctl.handle(seat(5))
    ctl.handle(Press("ok"))
    assert ctl.menu.note == ("menu.shutdown_demo", {}) and not ctl.quit


def test_under_the_kiosk_the_choices_are_kept_in_its_settings(tmp_path, monkeypatch):
    systemd = FakeSystemd()
    env = {"NOTIFY_SOCKET": systemd.env_value, "STATE_DIRECTORY": str(tmp_path / "state")}
    kiosk = Kiosk.start(None, environ=env, fsync=False)
    monkeypatch.setattr(runtime, "shutdown", lambda reboot: "no systemd here")
    try:
        ctl = Controller(Game, keep_settings=kiosk.change_settings,
                         shutdown=lambda: kiosk.shutdown(reboot=False),
                         seats_in_use=kiosk.config.seats,
                         led_brightness=kiosk.config.led_brightness)
        ctl.handle(Press("operator"))
        ctl.handle(seat(1))
        ctl.handle(seat(2))
        ctl.handle(seat(3))
        saved = json.loads((tmp_path / "state" / FILENAME).read_text())
        assert saved == {"language": "ko", "seats": 2, "led_brightness": 0.25}  # 100 % wraps
        assert (kiosk.config.language, kiosk.config.seats) == ("ko", 2)
        ctl.handle(seat(5))
        ctl.handle(Press("ok"))
        assert ctl.menu.note == ("msg.notice", {"text": "no systemd here"})
    finally:
        kiosk.stop()
        systemd.close()


def test_a_setting_the_kiosk_cannot_keep_is_said_in_the_menu():
    ctl = Controller(Game, keep_settings=lambda **kw: "The setting applies now but could not "
                     "be kept for the next start (No space left on device).")
    ctl.handle(Press("operator"))
    ctl.handle(seat(1))
    assert ctl.language == "ko"
    assert ctl.menu.note[0] == "msg.notice" and "No space left" in ctl.menu.note[1]["text"]


def test_next_choice_wraps_and_copes_with_a_value_not_in_the_list():
    assert next_choice((2, 3, 4), 4) == 2
    assert next_choice((0.25, 0.5, 0.75, 1.0), 0.6) == 0.75
    assert next_choice((0.25, 0.5), 0.9) == 0.25


# ----- the screen ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_menu_draws_in_both_languages_without_missing_glyphs(lang, size):
    ctl, panel = _midgame()
    ctl.language = lang
    ctl.handle(Press("operator"))
    for press in (None, seat(5)):
        if press is not None:
            ctl.handle(press)
        screen = TableScreen(size, panel=panel, card_art=False)
        screen.draw(pygame.Surface(size), ctl)
        for (text, font_size, _colour, bold) in list(screen._text):
            assert not _missing(screen.font(font_size, bold), text), text
        if lang == "ko":
            assert any("운영자 메뉴" == key[0] for key in screen._text)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("misfit", [None, 1.41])
def test_the_shutdown_question_shows_under_the_longest_camera_line(lang, misfit):
    ctl, panel = _midgame()
    ctl.language = lang
    ctl.camera_expected = ctl.camera = True
    ctl.set_mat_found(True, ("a", "b"), misfit)
    ctl.handle(Press("operator"))
    ctl.handle(seat(5))  # safe shutdown: the menu asks first
    assert ctl.menu.confirming
    size = (800, 480)  # the small display: the fewest words to a line
    screen = TableScreen(size, panel=panel, card_art=False)
    screen.draw(pygame.Surface(size), ctl)
    small = round(22 * screen.boost)
    line = screen.wrap(camera_line(ctl, lang), small, screen.R(0, 0, 980, 0).w)
    assert len(line) <= 2 and all(any(part == key[0] for key in screen._text) for part in line)
    question = screen.wrap(tr(lang, "menu.confirm_shutdown"), small,
                           screen.R(0, 0, 980, 0).w, True)[0]
    assert any(question == key[0] for key in screen._text)


def test_the_row_undo_highlights_is_drawn_framed_and_only_that_row_changes():
    ctl, panel = _midgame()
    ctl.handle(Press("operator"))
    size = (1280, 720)
    screen = TableScreen(size, panel=panel, card_art=False)
    plain = pygame.Surface(size)
    screen.draw(plain, ctl)
    for _ in range(3):
        ctl.handle(Press("undo"))  # row 3, LED brightness
    framed = pygame.Surface(size)
    screen.draw(framed, ctl)
    import numpy as np

    diff = np.argwhere((pygame.surfarray.array3d(plain) != pygame.surfarray.array3d(framed))
                       .any(axis=2))
    row = screen.R(140, 100 + 2 * 72, 1000, 62)
    assert len(diff) > 0
    assert (diff[:, 0] >= row.left).all() and (diff[:, 0] < row.right).all()
    assert (diff[:, 1] >= row.top).all() and (diff[:, 1] < row.bottom).all()
    assert tuple(framed.get_at((row.centerx, row.top))[:3]) == GOLD


def test_touching_a_row_gives_its_seat_button_and_only_the_menu_can_be_touched():
    ctl, panel = _midgame()
    ctl.handle(Press("operator"))
    screen = TableScreen((800, 480), panel=panel, card_art=False)
    screen.draw(pygame.Surface((800, 480)), ctl)
    presses = {press for _rect, press in screen.hits}
    assert presses == {seat(n) for n in range(1, 7)} | {Press("back")}
    rect = next(r for r, p in screen.hits if p == seat(2))
    assert screen.hit(rect.center) == seat(2)


SHUTDOWN_REFUSED = ("The table could not be switched off: systemctl poweroff failed (Failed to "
                    "power off system via logind: Interactive authentication required).")


def _menu_lines(ctl, panel, size):
    """What the menu draws under its rows: the lines in the warning colour and the others
    there, each (text, rectangle); the menu's box and its Back button."""
    from companion.app.screens.palette import WARN

    screen = TableScreen(size, panel=panel, card_art=False)
    colours: list = []
    drawn = _drawn_texts(screen, colours)
    screen.draw(pygame.Surface(size), ctl)
    top = screen.R(0, 530, 0, 0).y
    start = next(k for k, (s, _) in enumerate(drawn) if s == tr(ctl.language, "menu.title"))
    below = [(d, c) for d, c in zip(drawn[start:], colours[start:], strict=True)
             if d[1].y >= top]  # the menu's, not the table's under it
    back = next(rect for rect, press in screen.hits if press == Press("back"))
    said = [d for d, c in below if c == WARN]
    other = [d for d, c in below if c != WARN and d[0] != tr(ctl.language, "label.back")]
    _assert_no_missing_glyphs(screen)
    return said, other, screen.R(110, 20, 1060, 680), back


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_why_the_shutdown_failed_is_shown_whole_under_a_two_line_camera_line(lang, size):
    """Under a camera line of two lines only one row was left, and the rest of the reason
    was dropped unseen: it goes on beside the buttons (and smaller, on the small display)."""
    ctl, panel = _midgame()
    ctl.language = lang
    ctl.camera_expected = ctl.camera = True
    ctl.set_mat_found(True, ("a", "b"))
    ctl.shutdown = lambda: SHUTDOWN_REFUSED
    ctl.handle(Press("operator"))
    ctl.handle(seat(5))
    ctl.handle(Press("ok"))
    said, other, box, back = _menu_lines(ctl, panel, size)
    assert " ".join(s for s, _ in said).split() == SHUTDOWN_REFUSED.split()
    assert " ".join(s for s, _ in other).split() == camera_line(ctl, lang).split()
    assert len(other) == 2 and len(said) >= 2
    assert all(box.contains(r) and not r.colliderect(back) for _, r in said + other)


def test_a_note_too_long_even_beside_the_buttons_ends_in_an_ellipsis():
    ctl, panel = _midgame()
    ctl.shutdown = lambda: SHUTDOWN_REFUSED * 4
    ctl.handle(Press("operator"))
    ctl.handle(seat(5))
    ctl.handle(Press("ok"))
    for size in ((1280, 720), (800, 480)):
        said, _, box, back = _menu_lines(ctl, panel, size)
        assert said[-1][0].endswith("…") and not any(s.endswith("…") for s, _ in said[:-1])
        assert all(box.contains(r) and not r.colliderect(back) for _, r in said)


def test_a_camera_line_longer_than_its_two_lines_ends_in_an_ellipsis(monkeypatch):
    import companion.app.screens.operator as menu_screen

    ctl, panel = _midgame()
    ctl.handle(Press("operator"))
    long_line = "Camera: working, but this line says far more than two lines can hold. " * 4
    monkeypatch.setattr(menu_screen, "camera_line", lambda ctl, lang: long_line)
    for size in ((1280, 720), (800, 480)):
        _, other, box, back = _menu_lines(ctl, panel, size)
        camera, hint = other[:2], other[2:]
        assert camera[-1][0].endswith("…") and long_line.startswith(camera[0][0])
        assert [s for s, _ in hint] == [tr("en", "menu.hint")]  # the row below stays


def test_companion_run_gives_the_menu_the_kiosk_settings_and_keeps_choices(tmp_path,
                                                                            monkeypatch):
    import companion.app.controller as controller_module
    from companion.cli import main

    made = []

    class Recorded(Controller):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(controller_module, "Controller", Recorded)
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "state"
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    config = tmp_path / "table.toml"
    config.write_text('seats = 4\n[camera]\nkind = "opencv"\ndevice = 57\n'
                      '[hardware]\nled_brightness = 0.75\n')
    assert main(["run", "--config", str(config), "--size", "800x480", "--quit-after",
                 "0.3"]) == 0
    ctl = made[-1]
    assert (ctl.seats_in_use, ctl.led_brightness) == (4, 0.75)
    assert ctl.keep_settings is not None and ctl.shutdown is not None
    ctl.handle(Press("operator"))
    ctl.handle(seat(2))
    saved = list(state.rglob(FILENAME))
    assert len(saved) == 1 and json.loads(saved[0].read_text()) == {"seats": 5}


def test_companion_run_dims_the_dials_to_the_kept_brightness_from_the_start(tmp_path,
                                                                           monkeypatch):
    """The operator's 25 % kept in the settings (over the configuration's 75 %) reaches the
    dials' pins as the table starts, before anyone opens the menu: here a game resumed after a
    power cut, on a 74HC595 chain dimmed through OE on GPIO 2, on mock pins that do PWM."""

    from gpiozero.pins.mock import MockFactory, MockPWMPin

    import companion.app.controller as controller_module
    import companion.app.devices as devices
    from companion.cli import main
    from hardware.panel import build_panel
    from tests.hardware.hw_helpers import with_oe

    made, opened = [], []

    class Recorded(Controller):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    factory = MockFactory(pin_class=MockPWMPin)
    pinmap = with_oe()

    def open_panel(inputs, pins=None):
        opened.append(build_panel(pinmap, events=inputs, pin_factory=factory))
        return opened[-1], None

    monkeypatch.setattr(controller_module, "Controller", Recorded)
    monkeypatch.setattr(devices, "open_panel", open_panel)
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    (state / FILENAME).write_text('{"led_brightness": 0.25}')
    (state / "table.jsonl").write_text('{"event":"game","players":["Ann","Ben"]}\n')
    config = tmp_path / "table.toml"
    config.write_text(f'[storage]\nstate_dir = "{state}"\n[camera]\nkind = "opencv"\n'
                      'device = 57\n[hardware]\nled_brightness = 0.75\n')
    try:
        assert main(["run", "--config", str(config), "--size", "800x480", "--quit-after",
                     "0.3"]) == 0
        ctl, panel = made[-1], opened[-1]
        assert ctl.led_brightness == 0.25 and ctl.brightness_applies
        assert panel.brightness == 0.25 and ctl.game.state["players"][1]["health"] == 5
        # OE is active low: the chain shows 6 % of the time; never the configuration's 75 %.
        dimmed = [s.state for s in factory.pin(2).states if 0 < s.state < 1]
        assert dimmed == [pytest.approx(1 - 0.0625)]
    finally:
        factory.close()


def test_a_camera_out_of_focus_is_said_on_the_table_screen_and_in_the_camera_check():
    """A camera whose picture is blurred (the focus set for another height): the players are
    told to ask the staff, the camera check and the staff's journal say what to do. The
    same camera in focus: nothing is said."""
    from pathlib import Path

    from companion.app.devices import CameraFeed, card_tracker
    from vision.synthetic import ManualClock, SyntheticCamera

    clock = ManualClock()
    cards = Path(__file__).resolve().parents[1] / "assets" / "cards"

    def table(blur):
        inputs: queue.Queue = queue.Queue()
        ctl = Controller(Game, camera=True)
        said: list[str] = []
        camera = SyntheticCamera(clock=clock, seed=3, blur=blur)
        app = App(ctl, inputs=inputs, camera=CameraFeed(camera, card_tracker(cards), inputs),
                  clock=clock, say=said.append)
        for _ in range(6):
            clock.advance(0.5)
            app.step()
        return ctl, said

    pygame.font.init()
    ctl, said = table(2.7)
    assert ctl.mat_found is True and ctl.out_of_focus
    assert said == ["camera: Mat found, but the picture is out of focus: cards may not be "
                    "seen. Set the camera's focus: see companion camera-check."]
    screen = TableScreen((1280, 720))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    warning = tr("en", "warn.out_of_focus")
    assert warning.startswith("The camera's picture is out of focus")
    assert any(warning in key[0] for key in screen._text)
    assert camera_line(ctl, "en").startswith("Camera: mat found, but its picture is out of focus")
    assert camera_line(ctl, "ko").startswith("카메라: 매트 찾음. 하지만 화면의 초점이")
    ctl, said = table(0.6)  # the demo's camera
    assert ctl.mat_found is True and not ctl.out_of_focus
    assert said == ["camera: Mat found."]
    assert camera_line(ctl, "en") == "Camera: working, mat found. No card in the slots."


def test_the_focus_warning_goes_when_the_controller_is_told_the_picture_is_sharp():
    pygame.font.init()
    ctl = Controller(Game, camera=True)
    ctl.set_camera(True)
    version = ctl.version
    assert ctl.set_mat_found(True, out_of_focus=True)
    assert ctl.version > version and ctl.out_of_focus
    assert not ctl.set_mat_found(True, out_of_focus=True)  # nothing new
    screen = TableScreen((1280, 720))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert any(tr("en", "warn.out_of_focus") in key[0] for key in screen._text)
    assert ctl.set_mat_found(True)  # focused again
    screen._text.clear()
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert not any("out of focus" in key[0] for key in screen._text)
    # A camera that no longer sees the mat says that, not the focus.
    ctl.set_mat_found(False, out_of_focus=True)
    assert camera_line(ctl, "en").startswith("Camera: working, but it does not see the mat")
