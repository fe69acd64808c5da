"""The statistics screen draws the history's players, in both languages, within the screen."""

from __future__ import annotations

import os

import pytest

from companion.kiosk.history import PlayerStats
from companion.kiosk.statscreen import LABELS, StatsScreen

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
pygame = pytest.importorskip("pygame")


def players(n):
    return [PlayerStats(f"Player {i}", 10 - i % 10, 5 - i % 5, 30 - i % 30) for i in range(n)]


def pixels(surface):
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_draws_players_and_changes_with_them(language, size):
    pygame.font.init()
    screen = StatsScreen(size, language=language)
    surface = pygame.Surface(size)
    screen.draw(surface, players(3), games=4)
    three = pixels(surface)
    screen.draw(surface, players(4), games=5)
    assert pixels(surface) != three
    screen.draw(surface, [], games=0)
    assert pixels(surface) != three


def test_as_many_rows_as_fit_then_a_count_of_the_rest():
    pygame.font.init()
    screen = StatsScreen((800, 480))
    fit = screen.rows_that_fit(100)
    assert 3 <= fit < 100
    assert screen.rows_that_fit(2) == 2
    surface = pygame.Surface((800, 480))
    screen.draw(surface, players(100), games=200)  # must not draw past the bottom or fail


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="choose one of en, ko"):
        StatsScreen((800, 480), language="fr")


def test_labels_for_both_languages():
    assert LABELS["en"].keys() == LABELS["ko"].keys()
    assert LABELS["ko"]["total"].format(games=3) == "끝난 게임 3판"
