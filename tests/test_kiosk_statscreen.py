"""The statistics screen draws the history's players, in both languages, within the screen."""

from __future__ import annotations

import os

import pytest

from companion.app.i18n import CATALOGUE, tr
from companion.kiosk.history import PlayerStats
from companion.kiosk.statscreen import StatsScreen
from tests.test_kiosk_attract import texts_drawn

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

    def lowest_ink():
        rgb = pygame.surfarray.array3d(surface)
        return max(y for y in range(480) if (rgb[:, y] != screen.BACKGROUND).any())

    screen.draw(surface, players(fit), games=200)
    all_fit = lowest_ink()
    screen.draw(surface, players(100), games=200)
    assert all_fit < lowest_ink() < 480 - 800 // 32  # as many rows, the count below, a margin


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="choose one of en, ko"):
        StatsScreen((800, 480), language="fr")


def test_labels_for_both_languages():
    keys = {k for k in CATALOGUE["en"] if k.startswith("stats.")}
    assert keys and keys == {k for k in CATALOGUE["ko"] if k.startswith("stats.")}
    assert tr("ko", "stats.total", games=3) == "끝난 게임 3판"


@pytest.fixture
def history(tmp_path):
    """A history holding one finished game of Ann and Ben."""
    from companion.kiosk.history import History
    from companion.simulate import play_game

    with History.open(tmp_path / "h.db") as h:
        game, events = play_game(["Ann", "Ben"], 4)
        h.record_game(events, game.state)
        yield h


def test_attract_cycle_shows_the_rules_then_the_statistics(history):
    from companion.kiosk.statscreen import AttractCycle

    pygame.font.init()
    size = (800, 480)
    cycle = AttractCycle(size, history, seconds=1.0)
    surface = pygame.Surface(size)
    assert cycle.draw(surface, 0.0) is True
    rules = pixels(surface)
    assert cycle.draw(surface, 0.5) is False  # the same page: nothing to draw
    assert cycle.draw(surface, cycle.rules_time + 0.1) is True
    stats = pixels(surface)
    assert stats != rules
    expected = pygame.Surface(size)
    StatsScreen(size).draw(expected, history.player_stats(), games=1)
    assert stats == pixels(expected)
    assert cycle.draw(surface, cycle.rules_time + 0.5) is False
    assert cycle.draw(surface, cycle.rules_time + 1.0) is True  # the next cycle: rules again
    assert pixels(surface) == rules


def test_the_statistics_follow_the_tables_language(history):
    from companion.kiosk.statscreen import AttractCycle

    pygame.font.init()
    size = (800, 480)
    cycle = AttractCycle(size, history, seconds=1.0)  # started in English
    surface = pygame.Surface(size)
    assert cycle.draw(surface, cycle.rules_time + 0.1, language="en") is True
    assert cycle.draw(surface, cycle.rules_time + 0.2, language="ko") is True  # the menu's choice
    expected = pygame.Surface(size)
    StatsScreen(size, language="ko").draw(expected, history.player_stats(), games=1)
    assert pixels(surface) == pixels(expected)


def test_attract_cycle_without_a_readable_history_shows_the_rules_only(tmp_path):
    from companion.kiosk.history import HistoryError
    from companion.kiosk.statscreen import AttractCycle

    class Broken:
        def player_stats(self):
            raise HistoryError("the history cannot be read", reason="damaged")

        def game_count(self):
            return 0

    pygame.font.init()
    cycle = AttractCycle((800, 480), Broken(), seconds=1.0)
    surface = pygame.Surface((800, 480))
    cycle.draw(surface, 0.0)
    rules = pixels(surface)
    cycle.draw(surface, cycle.rules_time - 0.5)
    last_page = pixels(surface)
    assert cycle.draw(surface, cycle.rules_time + 0.1) is False  # the last page stays
    assert cycle.history is None and pixels(surface) == last_page
    assert cycle.draw(surface, cycle.rules_time + 1.0) is True
    assert pixels(surface) == rules


def test_names_are_shown_as_at_the_table(monkeypatch):
    """In Korean the table says 빨강 where the statistics said Red; a long name was cut in
    the middle of a letter, and José showed a box for é."""
    pygame.font.init()
    drawn = texts_drawn(monkeypatch)
    long_name = "Maximilian Alexander von Hohenzollern-Sigmaringen"
    rows = [PlayerStats(name, 3, 1, 9) for name in ("Red", long_name, "José")]
    StatsScreen((800, 480), language="ko").draw(pygame.Surface((800, 480)), rows, games=3)
    assert "빨강" in drawn and "José" in drawn and "Red" not in drawn
    [cut] = [t for t in drawn if t.startswith("Maximilian")]
    assert cut.endswith("…") and len(cut) < len(long_name)


def test_an_accented_name_that_fits_its_column_is_drawn_whole(monkeypatch):
    """The name column measured with the font's boxes for letters it lacks (é, ü), wider
    than the letters drawn: a name that fitted was cut short with "…"."""
    pygame.font.init()
    width, height = 800, 480
    screen = StatsScreen((width, height))
    body_px = max(12, height // 18)
    room = width - 2 * (width // 16) - 3 * (width // 6)  # the name column, as laid out
    measure = screen._font.measure(body_px)
    boxed = screen._font(body_px)
    name = "Éléonore Müller-Zoë Ängström Ñúñez"
    while measure.size(name)[0] > room:
        name = name[:-1].rstrip()
    assert boxed.size(name)[0] > room  # the font's own measure would cut it
    drawn = texts_drawn(monkeypatch)
    screen.draw(pygame.Surface((width, height)), [PlayerStats(name, 3, 1, 7)], games=3)
    assert name in drawn
