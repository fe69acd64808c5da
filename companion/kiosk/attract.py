"""The attract screen: a summary of the rules, page by page, in English and Korean.

It shows when the table has been idle (see :class:`companion.kiosk.cafe.IdleTimer`); any button
brings the game back. Each page shows in English, then in Korean, ``PAGE_SECONDS`` each, every
word of it in that language: the game's title and the line saying how to play are the table's
own (``title`` and ``attract.press`` in :mod:`companion.app.i18n`).

    screen = AttractScreen((1280, 720))
    if screen.draw(surface, seconds_since_idle):   # True when the page changed
        pygame.display.flip()

pygame is imported only when drawing.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.app.i18n import tr
from companion.app.screens import palette

__all__ = ["PAGES", "PAGE_SECONDS", "AttractScreen", "Fonts", "find_font", "page_at", "wrap"]

PAGE_SECONDS = 8.0
LINE = 1.35  # line height, in font sizes

# (title, lines) per page; the same pages in each language.
PAGES: dict[str, list[tuple[str, list[str]]]] = {
    "en": [
        (tr("en", "title"), [
            "You see everyone's card but your own.",
            "Work out who you are, survive the duels, and be the first to 7 stones.",
        ]),
        ("Your turn: one of two", [
            "Investigate: announce who you are and reveal your card. Right: the card's effect "
            "happens. Wrong: you take 1 damage.",
            "Duel: challenge a player still in. They accept or refuse.",
            "Then draw a new card.",
        ]),
        ("Duels", [
            "Accepted: both cards are revealed. The lower power takes the difference as damage; "
            "equal powers both take 1.",
            "Cleaner beats Ghost and Cook beats Vampire: the loser is out, the winner gains "
            "1 stone.",
            "Refused: the challenged player must investigate at once.",
        ]),
        ("The cards: power (copies), effect", [
            "Ghost 6 (1): everyone else is out",
            "Vampire 5 (2): gain 2 stones",
            "Living Armor 4 (3): 2 damage to everyone else",
            "Butler 3 (4): heal 1, 1 damage to everyone else",
            "Cook 2 (5): gain 1 stone",
            "Cleaner 1 (6): look at the top card of the deck, put it at the bottom",
        ]),
        ("Rounds and stones", [
            "Everyone starts each round with 5 health. At 0 you are out until the round ends.",
            "Last one standing: 3 stones. The last two knocked out together in a duel: 1 each.",
            "The deck runs out: 1 stone to each player still in.",
        ]),
        ("Winning", [
            "7 stones or more wins at once; players who reach 7 together share the win.",
            "The companion keeps the health, the stones and the cards seen.",
        ]),
    ],
    "ko": [
        (tr("ko", "title"), [
            "다른 사람의 카드는 보이지만 내 카드는 보이지 않습니다.",
            "내 정체를 추리하고, 결투에서 살아남아, 마법의 돌 7개를 먼저 모으세요.",
        ]),
        ("내 차례: 둘 중 하나", [
            "추리: 내 정체를 선언하고 카드를 공개합니다. 맞히면 카드의 효과가 일어나고, "
            "틀리면 피해 1을 받습니다.",
            "결투: 아직 남아 있는 플레이어에게 도전합니다. 상대는 받아들이거나 거절합니다.",
            "그다음 새 카드를 뽑습니다.",
        ]),
        ("결투", [
            "수락: 두 카드를 모두 공개합니다. 힘이 낮은 쪽이 그 차이만큼 피해를 받고, "
            "힘이 같으면 둘 다 1을 받습니다.",
            "청소부는 유령을, 요리사는 뱀파이어를 이깁니다: 진 쪽은 탈락하고 이긴 쪽은 "
            "마법의 돌 1개를 얻습니다.",
            "거절: 도전받은 사람은 바로 추리해야 합니다.",
        ]),
        ("카드: 힘 (장수), 효과", [
            "유령 6 (1): 다른 모두 탈락",
            "뱀파이어 5 (2): 마법의 돌 2개",
            "리빙 아머 4 (3): 다른 모두에게 피해 2",
            "집사 3 (4): 생명력 1 회복, 다른 모두에게 피해 1",
            "요리사 2 (5): 마법의 돌 1개",
            "청소부 1 (6): 덱 맨 위 카드를 보고 맨 아래에 놓기",
        ]),
        ("라운드와 마법의 돌", [
            "라운드마다 모두 생명력 5로 시작합니다. 0이 되면 라운드가 끝날 때까지 탈락입니다.",
            "마지막 생존자: 3개. 마지막 두 사람이 결투에서 함께 탈락하면: 각 1개.",
            "덱이 떨어지면: 남아 있는 사람마다 1개.",
        ]),
        ("승리", [
            "마법의 돌 7개 이상이면 바로 승리합니다. 동시에 7개에 이른 사람들은 함께 이깁니다.",
            "생명력, 마법의 돌, 공개된 카드는 컴패니언이 기록합니다.",
        ]),
    ],
}

LANGUAGE_ORDER = ("en", "ko")

_FONT_NAMES = ("NanumSquareR.ttf", "NanumGothic.ttf", "NanumBarunGothic.ttf")  # system
_SYSTEM_FONT_DIRS = ("/usr/share/fonts/truetype/nanum", "/usr/share/fonts/opentype/nanum")


def page_at(t: float, *, seconds: float = PAGE_SECONDS) -> tuple[str, int]:
    """(language, page index) shown ``t`` seconds into the attract screen."""
    step = int(max(0.0, t) // seconds)
    count = len(PAGES["en"])
    return LANGUAGE_ORDER[step % len(LANGUAGE_ORDER)], (step // len(LANGUAGE_ORDER)) % count


def find_font() -> Path | None:
    """A font with Hangul: the app's (assets/fonts), else a system Nanum font, else None."""
    from companion.app.screens.assets import font_path

    return font_path() or next((Path(d) / name for d in _SYSTEM_FONT_DIRS for name in _FONT_NAMES
                                if (Path(d) / name).is_file()), None)


def wrap(text: str, measure, width: int) -> list[str]:
    """Lines of ``text`` broken at spaces so that ``measure(line) <= width`` (a word wider than
    that gets a line of its own)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and measure(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


class Fonts:
    """One font file at every pixel size asked for, each opened once."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path else find_font()
        self._file = str(self.path) if self.path else None  # None: pygame's own font
        self._sizes: dict[object, object] = {}

    def __call__(self, px: int):
        import pygame

        if px not in self._sizes:
            if not pygame.font.get_init():
                pygame.font.init()
            self._sizes[px] = pygame.font.Font(self._file, px)
        return self._sizes[px]

    def _fallback(self, px: int):
        """pygame's own font at ``px``, for the letters this one lacks (see glyphs)."""
        from companion.app.screens import glyphs  # noqa: PLC0415

        key = ("fallback", px)
        if key not in self._sizes:
            self._sizes[key] = glyphs.fallback_for(self(px), px)
        return self._sizes[key]

    def measure(self, px: int):
        """Text at ``px`` measured as ``render`` draws it, and drawn (``glyphs.Measure``)."""
        from companion.app.screens import glyphs  # noqa: PLC0415

        key = ("measure", px)
        if key not in self._sizes:
            self._sizes[key] = glyphs.Measure(self(px), self._file,
                                              lambda: self._fallback(px))
        return self._sizes[key]

    def render(self, px: int, text: str, colour):
        """``text`` in this font, with the letters it lacks (é, ü) in pygame's own."""
        return self.measure(px).render(text, colour)


class AttractScreen:
    """Draws the attract screen's pages; redraws only when the page changes."""

    BACKGROUND = palette.NIGHT
    TITLE = palette.NIGHT_TITLE
    TEXT = palette.NIGHT_TEXT
    DIM = palette.NIGHT_DIM

    def __init__(self, size: tuple[int, int], *, font_path: str | os.PathLike[str] | None = None,
                 seconds: float = PAGE_SECONDS):
        self.size = size
        self._font = Fonts(font_path)
        self.seconds = seconds
        self._shown: tuple[str, int] | None = None

    def layout(self, language: str, index: int) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The lines to draw as (text, font size, colour), sized so that they fit."""
        width, height = self.size
        margin = width // 16
        title, body = PAGES[language][index]
        title_px = max(16, height // 11)
        body_px = max(12, height // 20)
        footer_px = max(10, height // 30)
        room = width - 2 * margin
        while True:
            rows = self._rows(title, body, title_px, body_px, room)
            used = sum(int(px * LINE) for _, px, _ in rows) + footer_px * 3
            if used <= height - margin or body_px <= 12:
                return rows
            body_px -= 2
            title_px = max(16, title_px - 2)

    def _rows(self, title, body, title_px, body_px, room):
        def measure(px):
            font = self._font.measure(px)
            return lambda text: font.size(text)[0]

        rows = [(line, title_px, self.TITLE) for line in wrap(title, measure(title_px), room)]
        for paragraph in body:
            rows.append(("", body_px // 2, self.TEXT))
            rows.extend((line, body_px, self.TEXT)
                        for line in wrap(paragraph, measure(body_px), room))
        return rows

    def draw(self, surface, t: float, *, force: bool = False) -> bool:
        """Draw the page for ``t`` seconds into the attract screen; False when it is already
        on the surface."""
        shown = page_at(t, seconds=self.seconds)
        if shown == self._shown and not force:
            return False
        self._shown = shown
        language, index = shown
        width, height = self.size
        margin = width // 16
        surface.fill(self.BACKGROUND)
        y = margin // 2
        for text, px, colour in self.layout(language, index):
            if text:
                surface.blit(self._font.render(px, text, colour), (margin, y))
            y += int(px * LINE)
        footer_px = max(10, height // 30)
        image = self._font.render(footer_px, tr(language, "attract.press"), self.DIM)
        surface.blit(image, ((width - image.get_width()) // 2,
                             height - margin // 2 - image.get_height()))
        # Page dots.
        count = len(PAGES[language])
        r = max(3, height // 120)
        x0 = width // 2 - (count - 1) * 3 * r
        for i in range(count):
            colour = self.TITLE if i == index else self.DIM
            _circle(surface, colour, (x0 + i * 6 * r, height - margin // 2 - image.get_height()
                                      - 3 * r), r)
        return True


def _circle(surface, colour, centre, radius) -> None:
    import pygame

    pygame.draw.circle(surface, colour, centre, radius)
