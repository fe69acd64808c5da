"""The statistics screen: the players' games, wins and stones from the history.

    rows = history.player_stats()
    StatsScreen((1280, 720), language="ko").draw(surface, rows, games=history.game_count())

pygame is imported only when drawing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from companion.app.i18n import player_name, tr
from companion.app.screens import glyphs, palette
from companion.config import LANGUAGES
from companion.kiosk.attract import (
    LANGUAGE_ORDER,
    LINE,
    PAGE_SECONDS,
    PAGES,
    AttractScreen,
    Fonts,
)
from companion.kiosk.history import HistoryError, PlayerStats

__all__ = ["AttractCycle", "StatsScreen"]

class StatsScreen:
    """A table of players, most wins first, as many rows as fit."""

    BACKGROUND = palette.NIGHT
    TITLE = palette.NIGHT_TITLE
    TEXT = palette.NIGHT_TEXT
    DIM = palette.NIGHT_DIM

    def __init__(self, size: tuple[int, int], *, language: str = "en",
                 font_path: str | os.PathLike[str] | None = None):
        if language not in LANGUAGES:
            raise ValueError(f"language {language!r}: choose one of {', '.join(LANGUAGES)}")
        self.size = size
        self.language = language
        self._font = Fonts(font_path)

    def rows_that_fit(self, count: int) -> int:
        """How many players' rows fit under the title and the header."""
        width, height = self.size
        margin = width // 16
        title_px, body_px = max(16, height // 11), max(12, height // 18)
        room = height - margin - int(title_px * LINE) - 2 * int(body_px * LINE)
        return max(0, min(count, room // int(body_px * LINE)))

    def draw(self, surface, stats: Sequence[PlayerStats], *, games: int) -> None:
        lang = self.language
        width, height = self.size
        margin = width // 16
        title_px, body_px = max(16, height // 11), max(12, height // 18)
        surface.fill(self.BACKGROUND)
        y = margin // 2
        title = self._font(title_px)
        surface.blit(title.render(tr(lang, "stats.title"), True, self.TITLE), (margin, y))
        total = self._font(body_px).render(tr(lang, "stats.total", games=games), True, self.DIM)
        surface.blit(total, (width - margin - total.get_width(),
                             y + title_px - total.get_height()))
        y += int(title_px * LINE)
        font = self._font(body_px)
        if not stats:
            surface.blit(font.render(tr(lang, "stats.none"), True, self.TEXT), (margin, y))
            return
        # Columns: the name on the left, the three numbers right-aligned.
        column = width // 6
        right = [width - margin - i * column for i in (2, 1, 0)]
        header = (tr(lang, "stats.games"), tr(lang, "stats.wins"), tr(lang, "label.stones"))

        def row(name, numbers, colour):
            nonlocal y
            # Seat colours in the table's language, long names cut short with "…", and
            # accented letters drawn (glyphs).
            name = glyphs.fit(self._font.measure(body_px), player_name(lang, name),
                             right[0] - margin - column)
            surface.blit(self._font.render(body_px, name, colour), (margin, y))
            for x, value in zip(right, numbers, strict=True):
                image = font.render(str(value), True, colour)
                surface.blit(image, (x - image.get_width(), y))
            y += int(body_px * LINE)

        row(tr(lang, "stats.player"), header, self.DIM)
        shown = self.rows_that_fit(len(stats))  # a line is kept below them for the rest
        for p in stats[:shown]:
            row(p.name, (p.games, p.wins, p.stones), self.TEXT)
        if shown < len(stats):
            more = tr(lang, "stats.more", n=len(stats) - shown)
            surface.blit(font.render(more, True, self.DIM), (margin, y))


class AttractCycle:
    """Between groups: the attract screen's rules pages, then the players' statistics for one
    page's time, in turn. ``draw`` has the attract screen's contract: True when it drew."""

    def __init__(self, size: tuple[int, int], history, *, language: str = "en",
                 seconds: float | None = None):
        self.seconds = PAGE_SECONDS if seconds is None else seconds
        self.rules = AttractScreen(size, seconds=self.seconds)
        self.stats = StatsScreen(size, language=language)
        self.history = history
        self.rules_time = len(PAGES["en"]) * len(LANGUAGE_ORDER) * self.seconds
        self._on_stats = False

    def draw(self, surface, t: float, *, force: bool = False,
             language: str | None = None) -> bool:
        """``language``: the statistics' language now (the table's may change meanwhile)."""
        if language is not None and language != self.stats.language:
            self.stats.language = language
            force = True
        into = max(0.0, t) % (self.rules_time + self.seconds)
        if into >= self.rules_time and self.history is not None:
            if self._on_stats and not force:
                return False
            try:
                rows, games = self.history.player_stats(), self.history.game_count()
            except HistoryError:
                self.history = None  # unreadable now: the rules alone from here on
            else:
                self.stats.draw(surface, rows, games=games)
                self._on_stats = True
                return True
        back = self._on_stats
        self._on_stats = False
        return self.rules.draw(surface, min(into, self.rules_time - 1e-6), force=force or back)
