"""The table screen: everything the players need to see, drawn with pygame from the controller.

Laid out on a 1280x720 grid and scaled to the surface (800x480 for the Pi touch display).
The screen keeps no game state of its own: `draw(surface, ctl)` paints the whole frame from
the controller, and `hit(pos)` turns a touch into the same Press a button would give.
"""

from __future__ import annotations

import math

import pygame

from companion.app.controller import SEAT_COLOURS
from companion.app.i18n import (
    card_name,
    characters,
    effect_key,
    effect_line,
    event_line,
    player_name,
    stone_tokens,
    tr,
)
from companion.app.inputs import Press
from companion.app.operator import camera_status
from companion.app.screens import glyphs
from companion.app.screens.assets import card_art, font_path
from companion.app.screens.operator import camera_args, draw_menu
from companion.app.screens.palette import (
    BAD,
    BG,
    CARD_RGB,
    DIM,
    GOLD,
    GOOD,
    LED_OFF,
    LED_ON,
    PANEL,
    PANEL_HI,
    SEAT_RGB,
    TEXT,
    WARN,
)
from companion.cards import COPIES, IDENTITIES, POWER
from companion.engine import MAX_HEALTH, STONES_TO_WIN

BASE_W, BASE_H = 1280, 720


# What the camera check says (``camera_status``) that the screen keeps in sight as a warning.
TEXT_CACHE_BYTES = 16 * 1024 * 1024  # texts drawn once and kept, at most this many pixels' bytes
CAMERA_WARNINGS = {"cam.lost": "warn.camera_waiting", "cam.no_mat": "warn.no_mat",
                   "cam.slots_poor": "warn.slots_poor", "cam.misfit": "warn.misfit",
                   "cam.misfit_small": "warn.misfit_small",
                   "cam.out_of_focus": "warn.out_of_focus"}
AID_COLUMN = 96  # the width of a column of the deduction aid (they are 121 apart)
MESSAGE_ROWS = 4  # rows of 26 under the prompt (y 610 to 714 on the grid): message, events
# The smallest letters drawn, as a font's size in pixels. The café's display is the Pi's
# 7-inch one: 800x480 at about 133 pixels an inch, a pixel 0.19 mm, read by players 50 to
# 100 cm away; at 70 cm a pixel is about 0.94 minutes of arc. A letter of 5' is the limit of
# normal sight; a word read at a glance needs about twice that, and display standards ask
# 16' for continuous reading. At 16 px this font's capitals are 12 px tall (2.3 mm, 11' at
# 70 cm) and its Hangul 15 px (2.9 mm, 14'): the least for what players must read during
# play (the prompt, messages, names, stones, the revealed cards' names and counts, the
# aid), most of which is larger (the prompt 24 px, 16' to its capitals, while it fits). A
# capital of 3 mm (16 px) would take a 23 px font: six card names no longer fit under
# their cards, nor a name, its candles and its stones in a row of six players.
READ_PX = 16
# What is there to glance at, each also said another way, may be 14 px (capitals 9 to 10
# px, 1.8 mm, 9'; Hangul 14 px): the last events (seen as they happened; drawn at 16 px
# while their rows have room), the stone tokens (the stones' number is beside them), the
# seat numbers (the seat's colour) and the panels' headings. The 1280x720 grid's sizes are
# all above both; on a smaller display a design size is raised to them (``readable``).
GLANCE_PX = 14


def spread(centres: list[int], widths: list[int], gap: int, left: int, right: int) -> list[int]:
    """The centres at which to draw labels ``widths`` wide in a row, each as near its own
    centre (``centres``, in order) as it can be with ``gap`` pixels between neighbours and
    inside ``left``..``right``: labels that would come too close move apart together, as a
    group centred on where they belong. A label that need not move keeps its centre."""
    groups: list[list] = []  # [first, last, left edge]

    def span(first, last):
        return sum(widths[first:last + 1]) + gap * (last - first)

    def place(first, last):
        # the left edge that puts the group's labels, on average, where they belong
        lefts, at = [], 0
        for k in range(first, last + 1):
            lefts.append(centres[k] - widths[k] / 2 - at)
            at += widths[k] + gap
        edge = sum(lefts) / len(lefts)
        return max(left, min(edge, right - span(first, last)))

    for k in range(len(centres)):
        groups.append([k, k, place(k, k)])
        while len(groups) > 1 and \
                groups[-2][2] + span(groups[-2][0], groups[-2][1]) + gap > groups[-1][2]:
            last = groups.pop()
            groups[-1][1] = last[1]
            groups[-1][2] = place(groups[-1][0], groups[-1][1])
    out = list(centres)
    for first, last, edge in groups:
        for k in range(first, last + 1):
            out[k] = round(edge + widths[k] / 2)
            edge += widths[k] + gap
    return out


class TableScreen:
    """Draws the table for one surface size. panel: a virtual LED panel (with led_states())
    whose lights are drawn as the health candles, or None to draw them from the state."""

    def __init__(self, size: tuple[int, int], *, panel=None,
                 warnings: list[tuple[str, dict]] | None = None,
                 card_art: bool = True):
        self.size = size
        self.scale = min(size[0] / BASE_W, size[1] / BASE_H)
        # On a small display the words that matter most are drawn larger than the grid.
        self.boost = 1.0 if self.scale >= 0.9 else 1.25
        self.panel = panel
        # Catalogue keys and their arguments: missing devices, always shown.
        self.warnings = list(warnings or [])
        self.card_art = card_art  # False: plain drawn cards (reference images stay put)
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: dict[tuple, pygame.Surface] = {}
        self._text_bytes = 0  # the pixels of the texts kept
        self._wrapped: dict[tuple, list[str]] = {}  # wrap's lines, cleared with the texts
        self._cards: dict[tuple[str, int, int, bool], pygame.Surface] = {}
        self.hits: list[tuple[pygame.Rect, Press]] = []
        self._rows: tuple[float, float, int] | None = None  # see _rows_below

    # ----- helpers ------------------------------------------------------------------------
    def R(self, x, y, w, h) -> pygame.Rect:
        s = self.scale
        return pygame.Rect(round(x * s), round(y * s), round(w * s), round(h * s))

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        px = max(8, round(size * self.scale))
        key = (px, bold)
        if key not in self._fonts:
            path = font_path(bold)
            self._fonts[key] = pygame.font.Font(str(path) if path else None, px)
        return self._fonts[key]

    def readable(self, size: int, px: int = READ_PX) -> int:
        """The design size ``size``, raised if its letters would be drawn smaller than ``px``
        pixels on this display (READ_PX for what players must read, GLANCE_PX for the rest)."""
        return max(size, math.ceil(px / self.scale))

    def fallback(self, size: int, bold: bool = False) -> pygame.font.Font:
        """pygame's own font, for letters the app's font lacks (see glyphs), at the size
        whose capital letters are as tall as the app's font's."""
        key = ("fallback", size, bold)
        if key not in self._fonts:
            self._fonts[key] = glyphs.fallback_for(self.font(size, bold),
                                                   max(8, round(size * self.scale)))
        return self._fonts[key]

    def measure(self, size: int, bold: bool = False) -> glyphs.Measure:
        """Text measured as ``text`` draws it (``glyphs.Measure``, which also draws it):
        ``measure(size).size(s)`` in place of the font's own, which counts a letter it lacks
        as its box."""
        key = ("measure", size, bold)
        if key not in self._fonts:
            path = font_path(bold)
            self._fonts[key] = glyphs.Measure(self.font(size, bold), str(path) if path else None,
                                              lambda: self.fallback(size, bold))
        return self._fonts[key]

    def text(self, s: str, size: int, colour=TEXT, bold=False) -> pygame.Surface:
        key = (s, size, colour, bold)
        surf = self._text.get(key)
        if surf is None:
            surf = self.measure(size, bold).render(s, colour)
            size_bytes = surf.get_width() * surf.get_height() * surf.get_bytesize()
            if self._text_bytes + size_bytes > TEXT_CACHE_BYTES:
                # Counted in pixels, not in texts: a few thousand long lines were 130 MB.
                self._text.clear()
                self._wrapped.clear()
                self._text_bytes = 0
            self._text[key] = surf
            self._text_bytes += size_bytes
        return surf

    def blit_text(self, dst, s, size, pos, colour=TEXT, bold=False, anchor="topleft"):
        surf = self.text(s, size, colour, bold)
        rect = surf.get_rect(**{anchor: pos})
        dst.blit(surf, rect)
        return rect

    def fit(self, s: str, size: int, width: int, bold=False) -> str:
        """s, cut short with "…" if it is wider than width pixels (see glyphs.fit)."""
        return glyphs.fit(self.measure(size, bold), s, width)

    def wrap(self, s: str, size: int, width: int | list[int], bold=False) -> list[str]:
        """Lines of s that fit width pixels (splits on spaces; long words on characters).
        width: one for every line, or a list: line k fits width[k], the last one the rest.
        Kept while the texts drawn are (a full redraw wraps the same texts again)."""
        widths = [width] if isinstance(width, int) else list(width)
        key = (s, size, tuple(widths), bold)
        kept = self._wrapped.get(key)
        if kept is None:
            kept = self._wrapped[key] = self._wrap(s, self.measure(size, bold), widths)
        return list(kept)

    @staticmethod
    def _wrap(s: str, font: glyphs.Measure, widths: list[int]) -> list[str]:
        lines, line = [], ""

        def room() -> int:
            return widths[min(len(lines), len(widths) - 1)]

        for word in s.split(" "):
            trial = (line + " " + word) if line else word
            if font.size(trial)[0] <= room():
                line = trial
                continue
            if line:
                lines.append(line)
            line = word
            while font.size(line)[0] > room() and len(line) > 1:
                cut = len(line)
                while cut > 1 and font.size(line[:cut])[0] > room():
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        if line:
            lines.append(line)
        return lines

    def cut(self, lines: list[str], count: int, size: int, width: int, bold=False) -> list[str]:
        """``lines`` (from wrap), or when there are more than ``count``, the first ``count``
        with "…" at the end of the last, shortened to make room for it (width pixels): a
        text cut short shows that it is."""
        if len(lines) <= count:
            return lines
        return lines[:count - 1] + [self.fit(lines[count - 1].rstrip() + "…", size, width, bold)]

    def button(self, dst, rect, label, press, colour=PANEL_HI, size=26):
        pygame.draw.rect(dst, colour, rect, border_radius=max(4, rect.h // 5))
        pygame.draw.rect(dst, DIM, rect, width=2, border_radius=max(4, rect.h // 5))
        self.blit_text(dst, label, size, rect.center, bold=True, anchor="center")
        self.hits.append((rect, press))

    def card(self, identity: str, w: int, h: int, dim: bool = False) -> pygame.Surface:
        key = (identity, w, h, dim)
        surf = self._cards.get(key)
        if surf is not None:
            return surf
        surf = None
        path = card_art(identity) if self.card_art else None
        if path is not None:
            try:
                surf = pygame.transform.smoothscale(pygame.image.load(str(path)), (w, h))
            except (pygame.error, OSError, ValueError):
                surf = None
        if surf is None:
            surf = pygame.Surface((w, h))
            surf.fill(BG)
            pygame.draw.rect(surf, CARD_RGB[identity], (0, 0, w, h), border_radius=w // 10)
            pygame.draw.rect(surf, TEXT, (0, 0, w, h), width=2, border_radius=w // 10)
            big = pygame.font.Font(str(font_path(True)) if font_path(True) else None, h // 3)
            num = big.render(str(POWER[identity]), True, TEXT)
            surf.blit(num, num.get_rect(center=(w // 2, h // 2)))
        surf = surf.convert() if pygame.display.get_surface() else surf
        if dim:
            shade = pygame.Surface((w, h), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 150))
            surf = surf.copy()
            surf.blit(shade, (0, 0))
        self._cards[key] = surf
        return surf

    def warm(self, language: str = "en") -> None:
        """Load and scale the card pictures and fonts now (at start-up), and make the glyphs
        of ``language`` (English is always ready), so that the first screen of a game draws
        about as fast as the others."""
        for w, h in ((96, 134), (92, 128)):
            for ident in IDENTITIES:
                for dim in (False, True):
                    self.card(ident, round(w * self.scale), round(h * self.scale), dim)
        glyphs = characters(language)
        sizes = (16, 18, 20, 22, 24, 26, 28, 30, 34, 40, 44, 56)
        for size in sorted({self.readable(s, px) for s in sizes for px in (READ_PX, GLANCE_PX)}):
            for bold in (False, True):
                # rendering every character once fills the font's glyph cache: the first
                # draw of each screen then costs about what later ones do
                self.font(size, bold).render(glyphs, True, TEXT)

    def hit(self, pos) -> Press | None:
        """The Press a touch at pos means, or None."""
        for rect, press in reversed(self.hits):
            if rect.collidepoint(pos):
                return press
        return None

    # ----- the frame ----------------------------------------------------------------------
    def draw(self, dst: pygame.Surface, ctl) -> None:
        self.hits = []
        lang = ctl.language
        dst.fill(BG)
        self._top(dst, ctl, lang)
        if ctl.phase in ("setup_join", "setup_first"):
            self._setup(dst, ctl, lang)
        else:
            self._players(dst, ctl, lang)
            self._revealed(dst, ctl, lang)
            self._aid(dst, ctl, lang)
            if ctl.phase in ("cards", "confirm"):
                self._slots(dst, ctl, lang)
            if ctl.phase == "guess" or (ctl.phase == "cards" and ctl.pending.picker):
                self._picker(dst, ctl, lang)
            if ctl.phase == "summary":
                self._summary(dst, ctl, lang)
            if ctl.phase == "over":
                self._over(dst, ctl, lang)
        self._bottom(dst, ctl, lang)
        if ctl.effects:
            self._effect(dst, ctl, lang)
        if getattr(ctl, "menu", None) is not None:
            draw_menu(self, dst, ctl)

    def _top(self, dst, ctl, lang):
        pygame.draw.rect(dst, PANEL, self.R(0, 0, BASE_W, 64))
        self.blit_text(dst, tr(lang, "title"), 34, self.R(16, 12, 0, 0).topleft, GOLD, True)
        if ctl.phase not in ("setup_join", "setup_first"):
            st = ctl.state
            self.blit_text(dst, tr(lang, "label.round", round=st["round"]), 28,
                           self.R(300, 16, 0, 0).topleft, TEXT, True)
            self.blit_text(dst, tr(lang, "label.deck", n=st["deck"]), 28,
                           self.R(480, 16, 0, 0).topleft, TEXT)
        self.button(dst, self.R(980, 8, 140, 48), tr(lang, "label.lang"), Press("lang"),
                    size=self.readable(24))
        self.button(dst, self.R(1130, 8, 140, 48), tr(lang, "label.undo"), Press("undo"),
                    colour=(90, 60, 40), size=26)

    def _setup(self, dst, ctl, lang):
        first_phase = ctl.phase == "setup_first"
        for i in range(6):
            seat = i + 1
            rect = self.R(40 + (i % 3) * 405, 90 + (i // 3) * 185, 385, 165)
            joined = seat in ctl.joined
            colour = SEAT_RGB.get(SEAT_COLOURS[i], PANEL_HI) if joined else PANEL
            if first_phase and not joined:
                colour = BG
            pygame.draw.rect(dst, colour, rect, border_radius=16)
            pygame.draw.rect(dst, TEXT if joined else DIM, rect, width=3, border_radius=16)
            self.blit_text(dst, str(seat), 56, (rect.x + rect.w // 8, rect.centery), TEXT, True,
                           "center")
            name = self.fit(player_name(lang, ctl.names[i]), 40, round(rect.w * 0.7), True)
            self.blit_text(dst, name, 40, (rect.centerx + rect.w // 10, rect.centery - 14 *
                                           self.scale), TEXT, True, "center")
            if joined:
                self.blit_text(dst, tr(lang, "label.joined"), self.readable(24),
                               (rect.centerx + rect.w // 10, rect.centery + 30 * self.scale),
                               TEXT, False, "center")
            self.hits.append((rect, Press("seat", seat)))

    def _row(self, i: int, count: int) -> pygame.Rect:
        """Player ``i``'s row of ``count``: the rows end above the prompt."""
        row_h = min(64, 396 // max(1, count) - 4)
        return self.R(10, 74 + i * (row_h + 4), 510, row_h)

    def _players(self, dst, ctl, lang):
        st = ctl.state
        players = st["players"]
        exp = ctl.game.expect or {}
        leds = self._led_rows()
        # The player challenged to a duel, while they must accept or refuse: their row is
        # framed in white and says so (the challenger's keeps its gold frame and TURN).
        challenged = ctl.pending.target if ctl.phase == "answer" and ctl.pending else None
        for i, p in enumerate(players):
            rect = self._row(i, len(players))
            turn = exp.get("player") == p["name"] or p["name"] in exp.get("players", ())
            asked = not turn and p["name"] == challenged
            pygame.draw.rect(dst, PANEL_HI if turn or asked else PANEL, rect, border_radius=10)
            if turn or asked:
                pygame.draw.rect(dst, GOLD if turn else TEXT, rect, width=3, border_radius=10)
            sw = pygame.Rect(rect.x, rect.y, round(12 * self.scale), rect.h)  # seat colour
            seat = ctl.joined[i] if i < len(ctl.joined) else i + 1
            colour_name = SEAT_COLOURS[seat - 1]
            pygame.draw.rect(dst, SEAT_RGB.get(colour_name, DIM), sw, border_radius=6)
            name_col = TEXT if p["alive"] else DIM
            size = min(30, round(28 * self.boost))
            name = self.fit(player_name(lang, p["name"]), size, round(222 * self.scale), True)
            self.blit_text(dst, name, size, (rect.x + 40 * self.scale, rect.y + 6 * self.scale),
                           name_col, True)
            self._candles(dst, rect, leds, seat, p)
            # stones: number, tokens, progress to 7
            stones = p["stones"]
            self.blit_text(dst, str(stones), 40, (self.R(270, 0, 0, 0).x, rect.centery), GOLD,
                           True, "midleft")
            if asked:  # the tag stands where the progress and the tokens were
                self._tag(dst, tr(lang, "label.challenged"), rect)
            else:
                bar = self.R(318, 0, 110, 14)
                bar.centery = rect.centery - round(8 * self.scale)
                pygame.draw.rect(dst, LED_OFF, bar, border_radius=6)
                done = bar.copy()
                done.w = round(bar.w * min(stones, STONES_TO_WIN) / STONES_TO_WIN)
                if done.w:
                    pygame.draw.rect(dst, GOLD, done, border_radius=6)
                threes, ones = stone_tokens(stones)
                self.blit_text(dst, f"3×{threes} 1×{ones}", self.readable(18, GLANCE_PX),
                               (bar.x, bar.bottom + round(4 * self.scale)), DIM)
            badge = tr(lang, "label.out") if not p["alive"] else (
                tr(lang, "label.turn") if turn else "")
            if badge:
                self.blit_text(dst, badge, self.readable(24),
                               (rect.right - 10 * self.scale, rect.centery),
                               BAD if not p["alive"] else GOLD, True, "midright")
            self.blit_text(dst, str(seat), self.readable(18, GLANCE_PX),
                           (rect.x + 22 * self.scale, rect.y + 4 * self.scale), DIM)
            self.hits.append((rect, Press("seat", seat)))

    def _tag(self, dst, label, row) -> pygame.Rect:
        """``label`` in dark letters on a light tag, right of a player's stones in their row:
        read from across the table, and not by its colour alone. Returns the tag's area."""
        tag = self.R(312, 0, 0, 36)
        tag.w = row.right - round(8 * self.scale) - tag.x
        tag.centery = row.centery
        pygame.draw.rect(dst, TEXT, tag, border_radius=max(4, tag.h // 3))
        room = tag.w - round(12 * self.scale)
        sizes = [self.readable(s) for s in (min(30, round(24 * self.boost)), 24, 20, 18)]
        size = next((s for s in sizes if self.measure(s, True).size(label)[0] <= room), sizes[-1])
        self.blit_text(dst, self.fit(label, size, room, True), size, tag.center, BG, True,
                       "center")
        return tag

    def _candles(self, dst, rect, leds, seat, player) -> pygame.Rect:
        """A player's health candles (the dial's lights) in their row; returns their area."""
        lights = leds[seat - 1] if leds and seat - 1 < len(leds) else \
            [k < player["health"] for k in range(MAX_HEALTH)]
        radius = round(10 * self.scale)
        cy = rect.y + rect.h - round(16 * self.scale)
        area = pygame.Rect(self.R(30, 0, 0, 0).x - radius, cy - radius,
                           round(4 * 30 * self.scale) + 2 * radius, 2 * radius)
        for k, on in enumerate(lights[:MAX_HEALTH]):
            c = self.R(30 + k * 30, 0, 0, 0).x, cy
            pygame.draw.circle(dst, LED_ON if on else LED_OFF, c, radius)
        return area

    def draw_lights(self, dst, ctl) -> list[pygame.Rect]:
        """Redraw only the health candles (the virtual dials blink on their own): the areas
        changed, for a partial screen update. The players' rows are drawn again clipped to
        the candles, so the result is the same as a full redraw."""
        if ctl.phase in ("setup_join", "setup_first") or not ctl.game.started:
            return []
        players = ctl.state["players"]
        radius = round(10 * self.scale)
        areas = []
        for i in range(len(players)):
            rect = self._row(i, len(players))
            cy = rect.y + rect.h - round(16 * self.scale)
            areas.append(pygame.Rect(self.R(30, 0, 0, 0).x - radius - 1, cy - radius - 1,
                                     round(4 * 30 * self.scale) + 2 * radius + 3,
                                     2 * radius + 3))
        hits = self.hits
        clip = dst.get_clip()
        dst.set_clip(areas[0].unionall(areas[1:]))
        try:
            self._players(dst, ctl, ctl.language)
        finally:
            dst.set_clip(clip)
            self.hits = hits
        return areas

    def _led_rows(self):
        """The virtual panel's lights as rows of booleans per seat, when it has them."""
        if self.panel is None or not hasattr(self.panel, "led_states"):
            return None
        try:
            states = self.panel.led_states()
        except Exception:
            return None
        rows = list(states.values()) if isinstance(states, dict) else list(states)
        out = []
        for row in rows:
            if isinstance(row, (int, float)) and not isinstance(row, bool):
                out.append([k < row for k in range(MAX_HEALTH)])
            else:
                try:
                    out.append([bool(x) and x != (0, 0, 0) for x in row])
                except TypeError:
                    return None
        return out

    def _card_names(self, dst, lang, area, xs, width, y, colour) -> int:
        """The six cards' names in a row at y, each centred under its column (left edges
        ``xs``, ``width`` wide) as far as its neighbours leave room: on the small display
        "Living Armor" is wider than its column and the names beside it make way, inside
        ``area``. Returns the names' size."""
        size = self.readable(18)
        font = self.measure(size)
        names = [card_name(lang, ident) for ident in IDENTITIES]
        centres = [x + width // 2 for x in xs]
        margin = round(4 * self.scale)
        placed = spread(centres, [font.size(n)[0] for n in names], round(22 * self.scale),
                        area.x + margin, area.right - margin)
        for name, x in zip(names, placed, strict=True):
            self.blit_text(dst, name, size, (x, y), colour, False, "midtop")
        return size

    def _columns(self, area) -> list[int]:
        """The left edges of the six identities' columns in the right-hand panels."""
        return [area.x + round((14 + k * 121) * self.scale) for k in range(len(IDENTITIES))]

    def _under_names(self, y, size) -> float:
        """Where the line under the cards' names starts: 24 below the cards on the grid, or
        lower if the names are taller than that leaves them."""
        return y + max(24 * self.scale, 2 * self.scale + self.font(size).get_height())

    def _revealed(self, dst, ctl, lang):
        area = self.R(530, 74, 740, 236)
        pygame.draw.rect(dst, PANEL, area, border_radius=10)
        self.blit_text(dst, tr(lang, "label.revealed"), self.readable(22, GLANCE_PX),
                       (area.x + 10 * self.scale, area.y + 4 * self.scale), DIM, True)
        revealed = ctl.state["revealed"]
        cw, ch = round(96 * self.scale), round(134 * self.scale)
        xs = self._columns(area)
        y = area.y + round(32 * self.scale)
        size = self._card_names(dst, lang, area, xs, cw, y + ch + 2 * self.scale, TEXT)
        for x, ident in zip(xs, IDENTITIES, strict=True):
            n = revealed.get(ident, 0)
            dst.blit(self.card(ident, cw, ch, dim=(n == 0)), (x, y))
            self.blit_text(dst, f"{n}/{COPIES[ident]}", 28,
                           (x + cw // 2, self._under_names(y + ch, size)), GOLD if n else DIM,
                           True, "midtop")

    def _aid(self, dst, ctl, lang):
        """For each identity: how many copies are still unseen, in words ("3 left": a number
        alone was read as the power the buttons announce), and the chance that an unseen card
        is that identity, in figures and as a bar; the header says what the % means."""
        area = self.R(530, 318, 740, 146)
        pygame.draw.rect(dst, PANEL, area, border_radius=10)
        try:
            fig = ctl.game.figures()
        except Exception:
            return
        head = self.blit_text(dst, tr(lang, "label.aid") + "  ·  " + tr(
            lang, "label.deck", n=fig.get("deck", 0)), self.readable(22, GLANCE_PX),
            (area.x + 10 * self.scale, area.y + 4 * self.scale), DIM, True)
        note = tr(lang, "label.chance_note")
        width = area.right - round(10 * self.scale) - head.right - round(16 * self.scale)
        smalls = [self.readable(s, GLANCE_PX) for s in (round(18 * self.boost), 18)]
        small = next((s for s in smalls if self.measure(s).size(note)[0] <= width), smalls[-1])
        self.blit_text(dst, self.fit(note, small, width), small,
                       (area.right - 10 * self.scale, head.bottom), DIM, False, "bottomright")
        counts = {ident: tr(lang, "label.left", n=fig["unseen"].get(ident, 0))
                  for ident in IDENTITIES}
        room = round(AID_COLUMN * self.scale)
        sizes = [self.readable(s) for s in (round(34 * self.boost), 34, 30, 28, 26, 24, 22)]
        size = next((s for s in sizes
                     if max(self.measure(s, True).size(c)[0] for c in counts.values()) <= room),
                    sizes[-1])
        xs = self._columns(area)
        for x, ident in zip(xs, IDENTITIES, strict=True):
            unseen = fig["unseen"].get(ident, 0)
            chance = fig["chance"].get(ident, 0.0)
            self.blit_text(dst, self.fit(counts[ident], size, room, True), size,
                           (x, area.y + 30 * self.scale), TEXT if unseen else DIM, True)
            self.blit_text(dst, tr(lang, "label.chance", pct=round(chance * 100)),
                           self.readable(24),
                           (x, area.y + 68 * self.scale), TEXT if unseen else DIM)
            bar = pygame.Rect(x, area.y + round(98 * self.scale), room, round(10 * self.scale))
            pygame.draw.rect(dst, LED_OFF, bar, border_radius=4)
            fill = bar.copy()
            fill.w = round(bar.w * max(0.0, min(1.0, chance)))
            if fill.w:
                pygame.draw.rect(dst, CARD_RGB[ident], fill, border_radius=4)
        self._card_names(dst, lang, area, xs, room, area.y + 112 * self.scale, DIM)

    def _overlay(self, dst, rect, alpha=230):
        if alpha >= 255:
            pygame.draw.rect(dst, BG, rect, border_radius=10)
        else:
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            shade.fill((*BG, alpha))
            dst.blit(shade, rect.topleft)
        pygame.draw.rect(dst, GOLD, rect, width=3, border_radius=10)

    def _slots(self, dst, ctl, lang):
        pend = ctl.pending
        area = self.R(530, 318, 740, 146)
        self._overlay(dst, area, 255)
        cw, ch = round(92 * self.scale), round(128 * self.scale)
        for k, zone in enumerate(pend.zones):
            x = area.x + round((20 + k * 360) * self.scale)
            y = area.y + round(9 * self.scale)
            who = pend.player if zone == "a" else pend.target
            ident = pend.cards.get(zone)
            if ident:
                dst.blit(self.card(ident, cw, ch), (x, y))
            else:
                pygame.draw.rect(dst, DIM, (x, y, cw, ch), width=3, border_radius=8)
                self.blit_text(dst, "?", 60, (x + cw // 2, y + ch // 2), DIM, True, "center")
            # the slot's half of the panel, beside its card
            room = round(340 * self.scale) - cw - round(12 * self.scale)
            label = self.fit(zone.upper() + "  " + player_name(lang, who), 26, room, True)
            self.blit_text(dst, label, 26, (x + cw + 12 * self.scale, y + 10 * self.scale), TEXT,
                           True)
            if ident:
                self.blit_text(dst, card_name(lang, ident), 26,
                               (x + cw + 12 * self.scale, y + 50 * self.scale), GOLD, True)
            if pend.guess and zone == "a":
                self.blit_text(dst, "→ " + card_name(lang, pend.guess), self.readable(22),
                               (x + cw + 12 * self.scale, y + 90 * self.scale), DIM)

    def _picker(self, dst, ctl, lang):
        area = self.R(530, 74, 740, 236)
        self._overlay(dst, area, 255)
        title = "label.announce" if ctl.phase == "guess" else "label.pick"
        self.blit_text(dst, tr(lang, title), self.readable(22, GLANCE_PX),
                       (area.x + 10 * self.scale, area.y + 4 * self.scale), GOLD, True)
        cw, ch = round(96 * self.scale), round(134 * self.scale)
        xs = self._columns(area)
        y = area.y + round(32 * self.scale)
        size = self._card_names(dst, lang, area, xs, cw, y + ch + 2 * self.scale, TEXT)
        for x, ident in zip(xs, IDENTITIES, strict=True):
            dst.blit(self.card(ident, cw, ch), (x, y))
            self.blit_text(dst, str(POWER[ident]), 28,
                           (x + cw // 2, self._under_names(y + ch, size)), GOLD, True, "midtop")
            # the card, its name and its power
            tall = round(self._under_names(y + ch, size) + 32 * self.scale) - y
            self.hits.append((pygame.Rect(x, y, cw, tall), Press("card", ident)))

    def _summary(self, dst, ctl, lang):
        area = self.R(530, 74, 740, 390)
        self._overlay(dst, area, 255)
        self.blit_text(dst, tr(lang, "label.summary"), 34,
                       (area.x + 20 * self.scale, area.y + 14 * self.scale), GOLD, True)
        gains: dict[str, int] = {}
        for note in ctl.summary or []:
            if note.get("kind") == "stones":
                gains[note["player"]] = gains.get(note["player"], 0) + note["amount"]
        room = area.w - round(50 * self.scale)
        lines = [self._with_name(lang, "sum.stones", p, 30, room, True, amount=n)
                 for p, n in gains.items()] or [tr(lang, "sum.nothing")]
        for k, line in enumerate(lines[:8]):
            self.blit_text(dst, line, 30, (area.x + 30 * self.scale,
                                           area.y + (70 + k * 40) * self.scale), TEXT, True)

    def _with_name(self, lang, key, player, size, width, bold=False, **args) -> str:
        """The line ``key`` about ``player``, their name cut short with "…" if the line would
        be wider than width pixels: what is said of them stays whole."""
        line = tr(lang, key, player=player, **args)
        font = self.measure(size, bold)
        over = font.size(line)[0] - width
        if over <= 0:
            return line
        name = player_name(lang, player)
        short = self.fit(name, size, max(0, font.size(name)[0] - over), bold)
        return tr(lang, key, player=short, **args)

    def _effect_text(self, lang, note, size, width) -> str:
        """An effect's line at most ``width`` pixels wide (bold): its player's name cut short
        with "…" if need be, what happens to them whole."""
        key, args = effect_key(note)
        player = args.pop("player", None)
        if isinstance(player, str):
            return self._with_name(lang, key, player, size, width, True, **args)
        return self.fit(effect_line(lang, note), size, width, True)

    def _over(self, dst, ctl, lang):
        area = self.R(530, 74, 740, 390)
        self._overlay(dst, area, 255)
        self.blit_text(dst, tr(lang, "label.winners"), 40,
                       (area.centerx, area.y + 40 * self.scale), GOLD, True, "midtop")
        for k, name in enumerate(ctl.state.get("winners", [])):
            shown = self.fit(player_name(lang, name), 56, area.w - round(40 * self.scale), True)
            self.blit_text(dst, shown, 56, (area.centerx, area.y + (120 + k * 70) * self.scale),
                           TEXT, True, "midtop")

    def _bottom(self, dst, ctl, lang):
        box = self.R(10, 474, 990, 130)
        pygame.draw.rect(dst, PANEL, box, border_radius=10)
        key, args = ctl.prompt()
        text = tr(lang, key, **args)
        width = box.w - round(24 * self.scale)
        for size in [self.readable(s) for s in (round(30 * self.boost), round(24 * self.boost),
                                                24, 20)]:
            lines = self.wrap(text, size, width, True)
            if 10 + len(lines) * (size + 8) <= 130:  # the largest size that fits the box
                break
        # Past the smallest size (names hundreds of letters long) the last line ends in "…".
        lines = self.cut(lines, (130 - 10) // (size + 8), size, width, True)
        for k, line in enumerate(lines):
            self.blit_text(dst, line, size, (box.x + 12 * self.scale,
                                             box.y + (10 + k * (size + 8)) * self.scale), TEXT,
                           True)
        message = ctl.message
        warnings = list(self.warnings)
        camera = CAMERA_WARNINGS.get(camera_status(ctl)[0])
        if camera is not None:
            warnings.append((camera, camera_args(ctl)))
        if message is None and warnings:  # a missing device stays in sight
            message = ("warn.joined", {"text": "  ".join(
                tr(lang, key, **args) for key, args in warnings)})
        rows = 0  # the message's rows under the prompt; the last events take the others
        left = round(14 * self.scale)
        if message:
            mkey, margs = message
            lines, size = self._message_lines(tr(lang, mkey, **margs))
            for k, line in enumerate(lines):
                self.blit_text(dst, line, size, (left, self._row_y(k)), WARN, True)
            rows = max(2, len(lines))
        shown = self._rows_below()[2] - (rows or 1)
        events = ctl.game.events[1:] if ctl.game.events else []
        size, width = self.readable(20), round(1250 * self.scale)
        for k, ev in enumerate(events[-shown:][::-1] if shown else []):
            line = self.fit(event_line(lang, ev), size, width)  # long names end in "…"
            self.blit_text(dst, line, size, (left, self._row_y(rows + k, 0 if rows else 2)),
                           TEXT if k == 0 else DIM)
        self.button(dst, self.R(1010, 474, 260, 62), tr(lang, "label.ok"), Press("ok"),
                    colour=(40, 100, 60), size=30)
        self.button(dst, self.R(1010, 542, 260, 62), tr(lang, "label.back"), Press("back"),
                    size=30)

    def _rows_below(self) -> tuple[float, float, int]:
        """The rows under the prompt for the message and the last events: where the first
        starts, how far apart they are and how many there are. On the grid, MESSAGE_ROWS
        rows 26 apart from y 610; where the display is taller than the grid scaled to its
        width (800x480: 450 of its 480 pixels), as many rows as the height left under the
        prompt holds at the events' line height (five), spread over it. Worked out once: it
        depends on the display's size alone, and each row drawn asks for it."""
        if self._rows is not None:
            return self._rows
        top = 610 * self.scale
        height = self.size[1] - 6 * self.scale - top
        # Rows are 26 apart on the grid at least: counted at that pitch, they all fit (a
        # 1280x800 display held 8 at the font's line height, the last under its bottom edge).
        line = max(self.font(self.readable(20)).get_linesize(), 26 * self.scale)
        count = max(MESSAGE_ROWS, int(height // line))
        self._rows = (top, max(26 * self.scale, height / count), count)
        return self._rows

    def _row_y(self, row: int, nudge: int = 0) -> int:
        """The top of row ``row`` under the prompt, ``nudge`` lower on the grid."""
        top, pitch, _ = self._rows_below()
        return round(top + nudge * self.scale + row * pitch)

    def _message_lines(self, text: str) -> tuple[list[str], int]:
        """A message's or the warnings' lines under the prompt, and their size. It takes two
        rows at least and the last events the others; a longer one takes the events' rows
        (the warnings of several missing devices, a notice from the kiosk: each is read, the
        events were seen as they happened), then a size smaller where there is one above
        READ_PX (not on the 800x480 display); longer still, its last line ends in "…"."""
        width, rows = round(1250 * self.scale), self._rows_below()[2]
        for size in (self.readable(22), self.readable(20)):
            lines = self.wrap(text, size, width, True)  # drawn bold
            if len(lines) <= rows:
                return lines, size
        return self.cut(lines, rows, size, width, True), size

    def _effect(self, dst, ctl, lang):
        """The running effect as a banner that grows in, with a bar running out as it ends;
        the next ones are listed small under it. A touch skips them all."""
        effect = ctl.effects[0]  # they run one after another
        note = effect.note
        colour = {"damage": BAD, "eliminated": BAD, "stones": GOLD, "heal": GOOD}.get(
            note.get("kind"), TEXT)
        total = max(effect.until - effect.start, 1e-6)
        left = max(0.0, min(1.0, (effect.until - ctl.now) / total))
        grow = min(1.0, (1.0 - left) * total / 0.15) if total > 0.15 else 1.0
        full = self.R(330, 250, 620, 110)
        rect = full.inflate(-round(full.w * 0.3 * (1 - grow)), -round(full.h * 0.3 * (1 - grow)))
        self._overlay(dst, rect, 235)
        line = self.fit(effect_line(lang, note), 44, rect.w - round(24 * self.scale), True)
        self.blit_text(dst, line, 44, rect.center, colour, True, "center")
        bar = pygame.Rect(rect.x + 12, rect.bottom - 14, round((rect.w - 24) * left), 6)
        if bar.w > 0:
            pygame.draw.rect(dst, colour, bar, border_radius=3)
        size = self.readable(24)
        for k, later in enumerate(ctl.effects[1:4]):
            self.blit_text(dst, self._effect_text(lang, later.note, size, full.w), size,
                           (full.centerx, full.bottom + (8 + k * 30) * self.scale), TEXT, True,
                           "midtop")
        self.hits.append((full, Press("skip")))
