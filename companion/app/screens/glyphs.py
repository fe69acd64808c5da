"""Text in the app's font, with the letters it lacks in pygame's own.

The app's font has Hangul and plain Latin letters, but no accented ones: "José" and "Zoë
Müller" showed boxes for é, ë and ü. A line is drawn in runs: each letter in the app's font
when it has it, else in pygame's font (FreeSans) when that one has it."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pygame

_OPEN: dict[str | None, object] = {}  # font files opened to ask which letters they have


def _outlines(path: str | None, *, again: bool = False):
    """The font file ``path`` (None: pygame's own) opened to ask which letters it has;
    ``again``: opened anew (pygame's freetype was quit and started since)."""
    import pygame.freetype  # noqa: PLC0415

    if again or path not in _OPEN or not pygame.freetype.get_init():
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        _OPEN[path] = pygame.freetype.Font(path, 16)
    return _OPEN[path]


@functools.lru_cache(maxsize=8192)
def has_letter(path: str | None, letter: str) -> bool:
    """Whether the font file ``path`` (None: pygame's own) draws ``letter``."""
    if letter.isspace():
        return True
    try:
        metrics = _outlines(path).get_metrics(letter)
    except pygame.error:  # "freetype module quit since freetype font created"
        metrics = _outlines(path, again=True).get_metrics(letter)
    return metrics[0] is not None


def _runs(text: str, font: pygame.font.Font, path: str | None,
          fallback: Callable[[], pygame.font.Font]) -> list[tuple[pygame.font.Font, str]]:
    """``text`` cut into runs of letters, each with the font that draws them: ``font`` (loaded
    from ``path``) where it has the letter (or neither font has it: its box), else
    ``fallback()``, asked for only then (most texts need none, and loading one takes a
    millisecond)."""
    if all(has_letter(path, c) for c in text):
        return [(font, text)]
    other = fallback()
    runs: list[list] = []  # [font, letters]
    for c in text:
        use = font if has_letter(path, c) or not has_letter(None, c) else other
        if runs and runs[-1][0] is use:
            runs[-1][1] += c
        else:
            runs.append([use, c])
    return [(f, letters) for f, letters in runs]


def render(text: str, colour, font: pygame.font.Font, path: str | None,
           fallback: Callable[[], pygame.font.Font]) -> pygame.Surface:
    """``text`` drawn in ``font`` (loaded from ``path``), each run of letters it lacks but
    pygame's font has drawn in the font ``fallback()`` gives, on one line, baselines aligned
    (see ``_runs``)."""
    runs = _runs(text, font, path, fallback)
    if len(runs) == 1:
        return runs[0][0].render(runs[0][1], True, colour)
    parts = [(f, f.render(letters, True, colour)) for f, letters in runs]
    ascent = max(f.get_ascent() for f, _ in parts)
    height = max(ascent - f.get_ascent() + s.get_height() for f, s in parts)
    out = pygame.Surface((sum(s.get_width() for _, s in parts), height), pygame.SRCALPHA)
    x = 0
    for f, s in parts:
        out.blit(s, (x, ascent - f.get_ascent()))
        x += s.get_width()
    return out


class Measure:
    """What ``render`` draws, measured: ``size(text)`` is the width of the line it draws and
    its tallest run's height. pygame's ``Font.size`` counts a letter the font lacks as its
    box, wider than the fallback font's letter: an accented name was cut short too soon.
    ``render(text, colour)`` draws it, with the same font, file and fallback."""

    KEPT = 4096  # sizes kept (a redraw measures the same texts again), then forgotten

    def __init__(self, font: pygame.font.Font, path: str | None,
                 fallback: Callable[[], pygame.font.Font]):
        self.font, self.path, self.fallback = font, path, fallback
        self._kept: dict[str, tuple[int, int]] = {}

    def size(self, text: str) -> tuple[int, int]:
        kept = self._kept.get(text)
        if kept is None:
            if len(self._kept) >= self.KEPT:
                self._kept.clear()  # names and events change from game to game
            kept = self._kept[text] = self._measured(text)
        return kept

    def render(self, text: str, colour) -> pygame.Surface:
        """``text`` drawn as ``render`` draws it in this font."""
        return render(text, colour, self.font, self.path, self.fallback)

    def _measured(self, text: str) -> tuple[int, int]:
        runs = _runs(text, self.font, self.path, self.fallback)
        if len(runs) == 1:
            return runs[0][0].size(runs[0][1])
        sizes = [f.size(letters) for f, letters in runs]
        return sum(w for w, _ in sizes), max(h for _, h in sizes)


def fallback_for(font: pygame.font.Font, px: int) -> pygame.font.Font:
    """pygame's own font at the size whose capital letters are as tall as ``font``'s."""
    tall = font.metrics("H")[0][3]
    here = pygame.font.Font(None, px).metrics("H")[0][3]
    return pygame.font.Font(None, max(8, round(px * tall / max(1, here))))


def fit(font: pygame.font.Font | Measure, text: str, width: int) -> str:
    """``text``, cut short with "…" if it is wider than ``width`` pixels in ``font`` (a long
    name beside the stones, in a seat's box, in a table of players; a ``Measure`` measures
    it as drawn)."""
    if font.size(text)[0] <= width:
        return text
    short, long = 1, len(text)  # the longest cut that fits, by halves (names of any length)
    while long - short > 1:
        middle = (short + long) // 2
        if font.size(text[:middle].rstrip() + "…")[0] <= width:
            short = middle
        else:
            long = middle
    return text[:short].rstrip() + "…"
