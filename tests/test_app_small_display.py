"""The table screen on the café's 800x480 display, read from across the table: no text
smaller than players can read at about 70 cm, and nothing running out of its panel or into
another text, in both languages, with six players and long names."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import random  # noqa: E402
import re  # noqa: E402
from unittest import mock  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.app.controller import Controller  # noqa: E402
from companion.app.i18n import event_line, tr  # noqa: E402
from companion.app.inputs import Press, Tick  # noqa: E402
from companion.app.screens import table  # noqa: E402
from companion.app.screens.palette import DIM  # noqa: E402
from companion.app.screens.table import TableScreen  # noqa: E402
from companion.engine import Game  # noqa: E402
from tests.app_scenes import SCENES  # noqa: E402
from tests.test_app_screens import display  # noqa: E402, F401 - display: the screen

SMALL = (800, 480)
# The least font size in pixels, on the 800x480 display, of what players must read during
# play and of what is there to glance at (why these: READ_PX in companion/app/screens/table.py).
MUST_READ_PX, GLANCE_PX = 16, 14
LONG = ["Maximilian Alexander von Hohenzollern", "Bartholomew Featherstonehaugh",
        "김수한무거북이와두루미삼천갑자동방삭", "Zoë Müller-Lüdenscheidt", "Jo", "민지"]



def seat(n):
    return Press("seat", n)


def long_name_game(lang):
    """Six players with long names (Latin, accented, Hangul) through a game's moments: each
    step (a name for it, the controller just after it)."""
    ctl = Controller(Game, camera=False, rng=random.Random(7), names=LONG, language=lang)
    steps = [("join", [seat(s) for s in range(1, 7)]), ("first", [Press("ok")]),
             ("turn", [seat(1)]), ("guess", [seat(1)]), ("pick", [seat(2)]),
             ("confirm", [Press("card", "cook")]), ("effect", [Press("ok")]),
             ("next turn", [Tick(100.0)]), ("challenged", [seat(3)]), ("duel", [seat(3)]),
             ("slot B", [Press("card", "butler")]),
             ("after the duel", [Press("card", "living_armor"), Tick(200.0)]),
             ("a message", [Press("ok")])]
    for name, presses in steps:
        for press in presses:
            ctl.handle(press)
        yield name, ctl


def long_name_summary(lang, *, effects=False, names=None):
    """The round's end with long names: its summary, or (``effects``) the effects before it,
    three in a row (one out, stones, the round's end)."""
    ctl = Controller(Game, camera=False, rng=random.Random(7), names=names or LONG[:2],
                     language=lang)
    for press in (seat(1), seat(2), Press("ok"), seat(1), seat(1), seat(6),
                  Press("card", "ghost"), Press("ok")):
        ctl.handle(press)
    if not effects:
        ctl.handle(Tick(100.0))
    assert ctl.phase == "summary" and len(ctl.effects) == (3 if effects else 0)
    return ctl


def glanced(ctl, lang, key) -> bool:
    """Whether a drawn text (its key in the screen's texts) is one players may only glance
    at: a last event, the stone tokens, a seat's number, a panel's heading."""
    text, _size, colour, bold = key
    events = [event_line(lang, ev) for ev in ctl.game.events]
    headings = [tr(lang, k) for k in ("label.revealed", "label.chance_note", "label.announce",
                                      "label.pick")]
    return (text in events or (text.endswith("…") and any(e.startswith(text[:-1])
                                                          for e in events))
            or re.fullmatch(r"3×\d+ 1×\d+", text) is not None
            or (text.isdigit() and colour == DIM and not bold)
            or text in headings or text.startswith(tr(lang, "label.aid") + "  ·  "))


def too_small(screen, ctl, lang) -> list[tuple[str, int]]:
    """The texts drawn smaller than they must be: (text, its size in pixels)."""
    out = []
    for key in list(screen._text):
        px = screen.font(key[1], key[3]).point_size
        if px < (GLANCE_PX if glanced(ctl, lang, key) else MUST_READ_PX):
            out.append((key[0], px))
    return out


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name", list(SCENES))
def test_text_on_the_small_display_is_large_enough_to_read_across_the_table(name, lang):
    """Card names, the deduction aid's names, the stone tokens and the last events were
    drawn 11 or 12 pixels tall, about 2 mm: not read from across the table."""
    ctl, panel = SCENES[name]()
    ctl.language = lang
    screen = TableScreen(SMALL, panel=panel, card_art=False)
    screen.draw(pygame.Surface(SMALL), ctl)
    assert screen._text and not too_small(screen, ctl, lang)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_long_names_and_six_players_are_large_enough_too(lang):
    for _, ctl in long_name_game(lang):
        screen = TableScreen(SMALL)
        screen.draw(pygame.Surface(SMALL), ctl)
        assert not too_small(screen, ctl, lang)
    for ctl in (long_name_summary(lang), long_name_summary(lang, effects=True)):
        screen = TableScreen(SMALL)
        screen.draw(pygame.Surface(SMALL), ctl)
        assert not too_small(screen, ctl, lang)


def visible_texts(screen, ctl, size) -> list[tuple[str, pygame.Rect, pygame.Rect | None]]:
    """Draw ``ctl``: each text left in sight (not under, even in part, a panel, an effect or
    the menu drawn over it later) with the rectangle of its letters' ink and the panel
    drawn over the table that it is in (None: the table's own panels)."""
    drawn: list = []  # (text, ink, None) or (None, what it hides, the panel it is)
    real_text, real_overlay, real_effect = screen.blit_text, screen._overlay, screen._effect
    real_menu = table.draw_menu
    below = screen.R(330, 360, 620, 100)  # the next effects, under the banner

    def blit_text(dst, s, font_size, pos, colour=table.TEXT, bold=False, anchor="topleft"):
        rect = real_text(dst, s, font_size, pos, colour, bold, anchor)
        ink = screen.text(s, font_size, colour, bold).get_bounding_rect().move(rect.topleft)
        if ink.w and ink.h:
            drawn.append((s, ink, None))
        return rect

    def overlay(dst, rect, *args):
        drawn.append((None, pygame.Rect(rect), pygame.Rect(rect)))
        return real_overlay(dst, rect, *args)

    def effect(dst, ctl_, lang):
        drawn.append((None, pygame.Rect(0, 0, 0, 0), below))
        return real_effect(dst, ctl_, lang)

    def menu(screen_, dst, ctl_):
        drawn.append((None, dst.get_rect(), screen.R(110, 20, 1060, 680)))
        return real_menu(screen_, dst, ctl_)

    screen.blit_text, screen._overlay, screen._effect = blit_text, overlay, effect
    with mock.patch.object(table, "draw_menu", menu):
        screen.draw(pygame.Surface(size), ctl)
    shown = []
    for k, (s, ink, _) in enumerate(drawn):
        if s is None or any(t is None and r.colliderect(ink) for t, r, _ in drawn[k + 1:]):
            continue
        over = [p for t, _, p in drawn[:k] if t is None and (p.collidepoint(ink.center)
                                                             or p is below)]
        shown.append((s, ink, over[-1] if over else None))
    return shown


def panels(screen, ctl, size) -> list[pygame.Rect]:
    """The table's own areas a text may be drawn in: the bars, boxes, buttons and rows."""
    R = screen.R
    box = R(10, 474, 990, 130)
    out = [R(0, 0, 1280, 64), R(980, 8, 140, 48), R(1130, 8, 140, 48), box,
           R(1010, 474, 260, 62), R(1010, 542, 260, 62),
           pygame.Rect(0, box.bottom, size[0], size[1] - box.bottom),
           R(530, 74, 740, 236), R(530, 318, 740, 146)]
    if ctl.phase in ("setup_join", "setup_first"):
        out += [R(40 + (i % 3) * 405, 90 + (i // 3) * 185, 385, 165) for i in range(6)]
    else:
        count = len(ctl.state["players"])
        out += [screen._row(i, count) for i in range(count)]
    return out


def assert_in_panels_and_apart(screen, ctl, size, where):
    texts = visible_texts(screen, ctl, size)
    areas = panels(screen, ctl, size)
    assert texts
    for s, ink, over in texts:
        if over is None:
            around = [a for a in areas if a.collidepoint(ink.center)]
            assert around, (where, s, ink)
            over = min(around, key=lambda a: a.w * a.h)  # the innermost
        assert over.contains(ink), (where, s, ink, over)
    for k, (s, ink, _) in enumerate(texts):
        for t, other, _ in texts[k + 1:]:
            assert not ink.colliderect(other), (where, s, t)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name", list(SCENES))
def test_every_scene_keeps_its_texts_in_their_panels_and_apart(name, lang):
    ctl, panel = SCENES[name]()
    ctl.language = lang
    assert_in_panels_and_apart(TableScreen(SMALL, panel=panel, card_art=False), ctl, SMALL,
                               name)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), SMALL])
def test_the_next_effects_cut_a_long_name_not_what_happens(lang, size):
    """The effects waiting under the banner were drawn whole, larger on the small display:
    a long name ran out over the players' rows."""
    ctl = long_name_summary(lang, effects=True, names=[LONG[0] + " Featherstonehaugh", LONG[1]])
    screen = TableScreen(size)
    full = screen.R(330, 250, 620, 110)
    drawn = visible_texts(screen, ctl, size)
    later = [(s, r) for s, r, _ in drawn if r.top >= full.bottom and r.bottom <= full.bottom
             + 130 * screen.scale]
    assert later and all(full.left <= r.left and r.right <= full.right for _, r in later)
    assert any(s.endswith(tr(lang, "fx.stones", player="", amount=3)[1:]) for s, _ in later)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), SMALL])
def test_long_names_stay_in_their_panels_and_apart(lang, size):
    """Six players with long names in every moment of a turn: the names in the rows, the
    slots, the last events and the round's summary are cut short with "…" rather than
    run out of their panels or into the next text."""
    seen = set()
    for where, ctl in long_name_game(lang):
        screen = TableScreen(size)
        assert_in_panels_and_apart(screen, ctl, size, where)
        seen.add(ctl.phase)
    assert {"turn", "guess", "cards", "confirm", "answer"} <= seen
    assert_in_panels_and_apart(TableScreen(size), long_name_summary(lang, effects=True), size,
                               "effects")
    ctl = long_name_summary(lang)
    assert_in_panels_and_apart(TableScreen(size), ctl, size, "summary")
    gain = tr(lang, "sum.stones", player="", amount=3)[1:]  # what is said of the player
    assert [s for s, _, _ in visible_texts(TableScreen(size), ctl, size)
            if s.startswith(LONG[0][:10]) and s.endswith(gain)]  # said whole


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_last_event_wider_than_the_screen_ends_in_an_ellipsis(lang):
    name = " ".join(LONG[:4] * 2)
    ctl = Controller(Game, camera=False, rng=random.Random(7), names=[name, "Jo"],
                     language=lang)
    for press in (seat(1), seat(2), Press("ok"), seat(1), seat(1), seat(2),
                  Press("card", "cook"), Press("ok"), Tick(100.0)):
        ctl.handle(press)
    screen = TableScreen(SMALL)
    texts = visible_texts(screen, ctl, SMALL)
    said = event_line(lang, ctl.game.events[-1])
    below = screen.R(10, 474, 990, 130).bottom  # under the prompt
    [(line, ink)] = [(s, r) for s, r, _ in texts
                     if r.y >= below and s.endswith("…") and said.startswith(s[:-1])]
    assert pygame.Rect((0, 0), SMALL).contains(ink) and ink.w <= round(1250 * screen.scale)


def test_the_cards_names_make_room_for_each_other_under_their_cards():
    """'Living Armor' is wider than its card at 16 pixels: it and its neighbours move apart,
    each still under its own card, none over the panel's edge."""
    from companion.app.i18n import card_name
    from companion.cards import IDENTITIES

    ctl, panel = SCENES["turn"]()
    screen = TableScreen(SMALL, panel=panel, card_art=False)
    area = screen.R(530, 74, 740, 236)
    names = {card_name("en", ident) for ident in IDENTITIES}
    inks = sorted((r for s, r, _ in visible_texts(screen, ctl, SMALL)
                   if s in names and area.contains(r)), key=lambda r: r.x)
    cw = round(96 * screen.scale)
    assert len(inks) == 6 and max(r.w for r in inks) > cw
    for ink, x in zip(inks, screen._columns(area), strict=True):
        assert ink.x < x + cw and ink.right > x  # under its own card
    gap = round(16 * screen.scale)
    assert all(a.right + gap <= b.x for a, b in zip(inks, inks[1:], strict=False))


def test_labels_that_fit_keep_their_places():
    assert table.spread([50, 150, 250], [40, 60, 40], 10, 0, 300) == [50, 150, 250]
    moved = table.spread([50, 100, 150], [40, 80, 40], 10, 0, 300)
    assert moved[1] == 100 and moved[0] < 50 and moved[2] > 150  # apart, around their middle
    assert table.spread([10, 60], [40, 40], 10, 0, 300)[0] == 20  # not past the left edge
