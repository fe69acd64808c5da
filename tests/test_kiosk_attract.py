"""The attract screen: its pages in both languages, their order, and that they fit the screen."""

from __future__ import annotations

import os

import pytest

from companion.app.i18n import CARDS, tr
from companion.cards import COPIES, IDENTITIES, POWER, display_name
from companion.kiosk.attract import PAGE_SECONDS, PAGES, AttractScreen, find_font, page_at, wrap

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

@pytest.fixture(scope="module", autouse=True)
def pygame_fonts():
    pygame.font.init()
    yield


def texts_drawn(monkeypatch) -> list[str]:
    """The texts the kiosk's screens draw from now on, in order (their fonts' render)."""
    from companion.kiosk import attract

    drawn = []
    real = attract.Fonts.render

    def render(self, px, text, colour):
        drawn.append(text)
        return real(self, px, text, colour)

    monkeypatch.setattr(attract.Fonts, "render", render)
    return drawn


def test_each_page_shows_in_english_then_korean_and_the_pages_loop():
    n = len(PAGES["en"])
    shown = [page_at(i * PAGE_SECONDS + 0.5) for i in range(2 * n + 2)]
    assert shown[:4] == [("en", 0), ("ko", 0), ("en", 1), ("ko", 1)]
    assert shown[2 * n] == ("en", 0)
    assert page_at(PAGE_SECONDS - 0.01) == ("en", 0)
    assert page_at(-3) == ("en", 0)


def test_both_languages_have_the_same_pages():
    assert len(PAGES["en"]) == len(PAGES["ko"]) >= 5
    for en, ko in zip(PAGES["en"], PAGES["ko"], strict=True):
        assert en[0] and ko[0]
        assert len(en[1]) == len(ko[1]) >= 1


@pytest.mark.parametrize("language, names", [
    ("en", {i: display_name(i) for i in IDENTITIES}),
    ("ko", CARDS["ko"]),  # the names the table screen uses
])
def test_the_cards_page_agrees_with_the_rules(language, names):
    cards = next(body for title, body in PAGES[language] if len(body) == len(IDENTITIES))
    for identity, line in zip(IDENTITIES, cards, strict=True):
        assert line.startswith(f"{names[identity]} {POWER[identity]} ({COPIES[identity]}): ")


def test_wrap_breaks_at_spaces():
    assert wrap("aa bb cc dd", len, 5) == ["aa bb", "cc dd"]
    assert wrap("a verylongword b", len, 4) == ["a", "verylongword", "b"]
    assert wrap("", len, 10) == []


def test_redraws_only_when_the_page_changes():
    screen = AttractScreen((800, 480))
    surface = pygame.Surface((800, 480))
    assert screen.draw(surface, 0.0)
    first = pygame.image.tobytes(surface, "RGB")
    assert not screen.draw(surface, PAGE_SECONDS - 1)
    assert screen.draw(surface, PAGE_SECONDS - 1, force=True)
    assert screen.draw(surface, PAGE_SECONDS)
    assert pygame.image.tobytes(surface, "RGB") != first


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_every_page_fits_the_screen(size):
    screen = AttractScreen(size)
    width, height = size
    margin = width // 16
    for language in ("en", "ko"):
        for index in range(len(PAGES[language])):
            rows = screen.layout(language, index)
            assert sum(int(px * 1.35) for _, px, _ in rows) <= height - margin, (language, index)
            for text, px, _ in rows:
                assert screen._font(px).size(text)[0] <= width - 2 * margin, text


def test_every_character_has_a_glyph():
    path = find_font()
    if path is None:
        pytest.skip("no Hangul font here (the app's assets/fonts, or Debian's fonts-nanum)")
    font = pygame.font.Font(str(path), 24)
    text = "".join(tr(lang, "attract.press") for lang in PAGES)
    text += "".join(t + "".join(b) for lang in PAGES.values() for t, b in lang)
    missing = sorted({ch for ch in set(text) if not ch.isspace()
                      and font.metrics(ch)[0] is None})
    assert missing == []


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_every_word_of_a_page_is_in_its_language(monkeypatch, size):
    """The Korean pages kept the English title, "Abraca Who?", where the table says
    아브라카 후?, and every page's footer said how to play in English as well."""
    import re

    drawn = texts_drawn(monkeypatch)
    screen = AttractScreen(size)
    assert screen.layout("ko", 0)[0][0] == tr("ko", "title") == "아브라카 후?"
    surface = pygame.Surface(size)
    other = {"en": re.compile("[\uac00-\ud7a3]"), "ko": re.compile("[A-Za-z]")}
    for step, (language, index) in enumerate(
            page_at(k * PAGE_SECONDS) for k in range(2 * len(PAGES["en"]))):
        drawn.clear()
        assert screen.draw(surface, step * PAGE_SECONDS + 0.5)
        assert tr(language, "attract.press") in drawn, (language, index)
        if index == 0:
            assert drawn[0] == tr(language, "title")
        assert not [t for t in drawn if other[language].search(t)], (language, index)
