"""The operator menu, drawn over the table screen with its helpers (fonts, scale, touch).

Six rows, one per seat button, so a row is chosen by its seat button or by touching it (or,
with fewer seat buttons, highlighted by Undo and chosen by OK); a line
with the camera in plain words; the menu's last message; Back (and OK while the shutdown
question is asked) as touch buttons.
"""

from __future__ import annotations

import pygame

from companion.app.i18n import card_name, tr
from companion.app.inputs import Press
from companion.app.operator import camera_status
from companion.app.screens.palette import GOLD, TEXT, WARN

# The menu's own darker panel and lighter dim text, over the table's colours.
MENU_PANEL = (30, 34, 46)
MENU_ROW = (52, 58, 78)
MENU_DIM = (170, 174, 188)
MENU_BAD = (110, 44, 44)

ROW_LABELS = ("menu.language", "menu.seats", "menu.brightness", "menu.camera",
              "menu.shutdown", "menu.close")


def camera_line(ctl, lang: str) -> str:
    """The camera check's one line, in the players' language."""
    key, seen = camera_status(ctl)
    cards = ", ".join(f"{zone} {card_name(lang, ident)}" for zone, ident in seen)
    return tr(lang, key, cards=cards, **camera_args(ctl))


def camera_args(ctl) -> dict:
    """What the camera's lines name: the slots seen poorly, and how many times a card on the
    mat the cards in the slots measure."""
    return {"slots": slot_names(ctl.slots_poor), "times": f"{ctl.mat_misfit or 0:.1f}"}


def slot_names(zones) -> str:
    """Slots as the table's screen names them: "A", "A/B"."""
    return "/".join(zone.upper() for zone in zones)


def row_values(ctl, lang: str) -> list[str]:
    """What each row shows on its right: the current choice."""
    pct = round(ctl.led_brightness * 100)
    bright = "menu.brightness_value" if ctl.brightness_applies else "menu.brightness_ignored"
    return [tr(ctl.language, "menu.lang_name"), tr(lang, "menu.seats_value", n=ctl.seats_in_use),
            tr(lang, bright, pct=pct), "", "", ""]


def draw_menu(screen, dst: pygame.Surface, ctl) -> None:
    """Draw the menu over everything; its rows and buttons are the only touch targets."""
    lang = ctl.language
    menu = ctl.menu
    screen.hits = []
    shade = pygame.Surface(dst.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 200))
    dst.blit(shade, (0, 0))
    box = screen.R(110, 20, 1060, 680)
    pygame.draw.rect(dst, MENU_PANEL, box, border_radius=max(6, box.h // 40))
    pygame.draw.rect(dst, GOLD, box, width=2, border_radius=max(6, box.h // 40))
    big = round(30 * screen.boost)
    screen.blit_text(dst, tr(lang, "menu.title"), round(36 * screen.boost),
                     screen.R(140, 32, 0, 0).topleft, GOLD, True)
    values = row_values(ctl, lang)
    for i, key in enumerate(ROW_LABELS):
        rect = screen.R(140, 100 + i * 72, 1000, 62)
        colour = MENU_BAD if (i == 4 and menu.confirming) else MENU_ROW
        pygame.draw.rect(dst, colour, rect, border_radius=max(4, rect.h // 5))
        if menu.cursor == i:  # the row Undo highlighted: OK does it
            pygame.draw.rect(dst, GOLD, rect, width=max(2, rect.h // 16),
                             border_radius=max(4, rect.h // 5))
        badge = screen.R(150, 106 + i * 72, 50, 50)
        pygame.draw.rect(dst, GOLD, badge, border_radius=max(3, badge.h // 4))
        screen.blit_text(dst, str(i + 1), big, badge.center, MENU_PANEL, True, anchor="center")
        screen.blit_text(dst, tr(lang, key), big, screen.R(220, 131 + i * 72, 0, 0).midleft,
                         TEXT, True, anchor="midleft")
        if values[i]:
            screen.blit_text(dst, values[i], big, screen.R(1120, 131 + i * 72, 0, 0).midright,
                             GOLD, anchor="midright")
        screen.hits.append((rect, Press("seat", i + 1)))
    size, lines = lines_below(screen, ctl, box)
    x, y = screen.R(150, 538, 0, 0).topleft
    for mark, text in lines:
        colour = {"!": WARN, "~": MENU_DIM}.get(mark, TEXT)
        screen.blit_text(dst, text, size, (x, y), colour)
        y += screen.font(size).get_linesize()
    back = screen.R(960, 630, 180, 58)
    screen.button(dst, back, tr(lang, "label.back"), Press("back"), size=round(26 * screen.boost))
    if menu.confirming:
        ok = screen.R(760, 630, 180, 58)
        screen.button(dst, ok, tr(lang, "label.ok"), Press("ok"), colour=MENU_BAD,
                      size=round(26 * screen.boost))


def lines_below(screen, ctl, box: pygame.Rect) -> tuple[int, list[tuple[str, str]]]:
    """The lines under the menu's rows and the size they are drawn in, each with its mark:
    "" the camera line, "!" the shutdown question or a note, "~" the hint.

    The camera line takes at most two lines (cut, it ends in "…"), so that the question or
    note below it always has a row. Three rows fit above the buttons; a note longer than
    the camera line leaves it room for (why the shutdown failed) goes on beside the buttons,
    in rows as wide as they leave, while the box has room; if that is not enough, all of it
    is set one size smaller (the size of the 1280x720 screen), and only then is the note cut
    short with "…"."""
    lang, menu = ctl.language, ctl.menu
    width = screen.R(0, 0, 980, 0).w
    x, y = screen.R(150, 538, 0, 0).topleft
    beside = screen.R(760 if menu.confirming else 960, 0, 0, 0).x - round(16 * screen.scale) - x
    if menu.confirming:
        mark, text, bold = "!", tr(lang, "menu.confirm_shutdown"), True
    elif menu.note is not None:
        key, args = menu.note
        mark, text, bold = "!", tr(lang, key, **args), False
    else:
        mark, text, bold = "~", tr(lang, "menu.hint"), False
    for size in sorted({round(22 * screen.boost), 22}, reverse=True):
        step = screen.font(size).get_linesize()
        rows = 3 + max(0, (box.bottom - round(8 * screen.scale) - (y + 3 * step)) // step)
        camera = screen.cut(screen.wrap(camera_line(ctl, lang), size, width), 2, size, width)
        widths = [width] * (3 - len(camera)) + [beside]
        below = screen.wrap(text, size, widths, bold)
        if len(camera) + len(below) <= rows:
            break
    left = rows - len(camera)
    below = screen.cut(below, left, size, widths[min(left - 1, len(widths) - 1)], bold)
    return size, [("", line) for line in camera] + [(mark, line) for line in below]
