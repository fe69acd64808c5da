"""The table screen, headless: reference images, glyphs in both languages, touch, redraws."""

from __future__ import annotations

import contextlib
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.app.i18n import CARDS, CATALOGUE, COLOURS, tr  # noqa: E402
from companion.app.inputs import Press  # noqa: E402
from companion.app.loop import App  # noqa: E402
from companion.app.screens.assets import font_path  # noqa: E402
from companion.app.screens.table import TableScreen  # noqa: E402
from tests.app_scenes import SCENES, cases, reference_name, render  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "reference"
FAILURES = ROOT / "out" / "reference-failures"
# A pixel differs when a channel moves by more than this; a screen fails past the share.
PIXEL_TOLERANCE = 24
SHARE_TOLERANCE = 0.001


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.display.quit()


def _side_by_side(expected: pygame.Surface, actual: pygame.Surface, path: Path) -> None:
    w, h = expected.get_size()
    out = pygame.Surface((w * 3, h))
    out.blit(expected, (0, 0))
    out.blit(actual, (w, 0))
    a = pygame.surfarray.array3d(expected).astype(int)
    b = pygame.surfarray.array3d(actual).astype(int)
    diff = (np.abs(a - b).max(axis=2) > PIXEL_TOLERANCE).astype(np.uint8) * 255
    out.blit(pygame.surfarray.make_surface(np.dstack([diff, diff // 4, diff // 4])), (w * 2, 0))
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(out, str(path))


@pytest.mark.parametrize("name,lang,size", cases(),
                         ids=[reference_name(*c)[4:-4] for c in cases()])
def test_screen_matches_its_reference_image(name, lang, size):
    ref_path = REFERENCE / reference_name(name, lang, size)
    assert ref_path.is_file(), f"missing {ref_path}: run scripts/make_app_references.py"
    expected = pygame.image.load(str(ref_path))
    actual, _ = render(name, lang, size)
    assert expected.get_size() == actual.get_size()
    a = pygame.surfarray.array3d(expected).astype(int)
    b = pygame.surfarray.array3d(actual).astype(int)
    share = float((np.abs(a - b).max(axis=2) > PIXEL_TOLERANCE).mean())
    if share > SHARE_TOLERANCE:
        out = FAILURES / reference_name(name, lang, size)
        _side_by_side(expected, actual, out)
        pytest.fail(f"{name} ({lang}, {size}) differs in {share:.2%} of its pixels; "
                    f"expected | actual | difference saved to {out}")


def test_the_comparison_catches_a_changed_screen(tmp_path):
    expected = pygame.image.load(str(REFERENCE / reference_name("turn", "en", (1280, 720))))
    other, _ = render("answer", "en", (1280, 720))
    a = pygame.surfarray.array3d(expected).astype(int)
    b = pygame.surfarray.array3d(other).astype(int)
    assert (np.abs(a - b).max(axis=2) > PIXEL_TOLERANCE).mean() > SHARE_TOLERANCE
    _side_by_side(expected, other, tmp_path / "x.png")
    assert pygame.image.load(str(tmp_path / "x.png")).get_size() == (3 * 1280, 720)


def _missing(font: pygame.font.Font, text: str) -> list[str]:
    return [ch for ch, m in zip(text, font.metrics(text), strict=True)
            if m is None and not ch.isspace()]


def test_the_shipped_font_has_every_glyph_of_both_catalogues():
    assert font_path() is not None and font_path(bold=True) is not None
    args = {"player": "Red", "target": "Blue", "card": "cook", "guess": "ghost", "zone": "A",
            "count": 3, "seat": 4, "text": "x", "copies": 5, "seen": 5, "round": 2, "n": 7,
            "pct": 30, "threes": 1, "ones": 2, "amount": 1, "winners": ["Red"],
            "players": ["Red", "Blue"], "pcard": "cook", "tcard": "butler"}
    texts = []
    for lang in CATALOGUE:
        texts += [tr(lang, key, **args) for key in CATALOGUE[lang]]
        texts += list(CARDS[lang].values()) + list(COLOURS[lang].values())
    for bold in (False, True):
        font = pygame.font.Font(str(font_path(bold)), 24)
        for text in texts:
            assert not _missing(font, text), text


def test_both_languages_have_the_same_keys():
    assert set(CATALOGUE["en"]) == set(CATALOGUE["ko"])
    assert set(CARDS["en"]) == set(CARDS["ko"])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_screen_draws_without_missing_glyphs(lang):
    for name in SCENES:
        _, screen = render(name, lang, (1280, 720))
        for (text, size, _colour, bold) in list(screen._text):
            font = screen.font(size, bold)
            assert not _missing(font, text), (name, text)
        if lang == "ko" and name not in ("setup_join", "setup_first"):
            assert any(any("\uac00" <= ch <= "\ud7a3" for ch in key[0]) for key in screen._text)


def test_touch_gives_the_same_presses_as_the_buttons():
    _, screen = render("cards_picker", "en", (1280, 720))
    hit = {press: rect for rect, press in screen.hits}
    assert screen.hit(hit[Press("card", "cook")].center) == Press("card", "cook")
    assert screen.hit(hit[Press("undo")].center) == Press("undo")
    assert screen.hit(hit[Press("seat", 2)].center) == Press("seat", 2)
    assert screen.hit((1279, 719)) is None
    _, small = render("turn", "en", (800, 480))
    assert small.hit((1130 * 0.625 + 70 * 0.625, 30 * 0.625)) == Press("undo")


def test_the_screen_is_redrawn_only_when_something_changed():
    ctl, panel = SCENES["turn"]()
    surface = pygame.Surface((1280, 720))
    t = [0.0]

    def clock():
        t[0] += 1.0
        return t[0]

    app = App(ctl, display=surface, screen=TableScreen((1280, 720), panel=panel), clock=clock)
    assert app.step() is True
    for _ in range(5):
        assert app.step() is False
    app.inputs.put(Press("seat", 4))
    assert app.step() is True
    assert app.redraws == 2


def test_card_art_from_assets_is_used_when_present(monkeypatch, tmp_path):
    (tmp_path / "cards").mkdir()
    art = pygame.Surface((63, 88))
    art.fill((10, 200, 30))
    pygame.image.save(art, str(tmp_path / "cards" / "cook.png"))
    monkeypatch.setenv("COMPANION_ASSETS", str(tmp_path))
    screen = TableScreen((1280, 720))
    assert screen.card("cook", 96, 134).get_at((48, 67))[:3] == (10, 200, 30)
    assert screen.card("vampire", 96, 134).get_at((48, 10))[:3] == (170, 40, 60)  # drawn
    plain = TableScreen((1280, 720), card_art=False)
    assert plain.card("cook", 96, 134).get_at((48, 10))[:3] == (220, 150, 60)


def test_a_missing_card_art_folder_falls_back_to_drawn_cards(monkeypatch, tmp_path):
    (tmp_path / "fonts").mkdir()
    for bold in (False, True):
        (tmp_path / "fonts" / font_path(bold).name).write_bytes(font_path(bold).read_bytes())
    monkeypatch.setenv("COMPANION_ASSETS", str(tmp_path))
    screen = TableScreen((1280, 720))
    card = screen.card("vampire", 96, 134)
    assert card.get_size() == (96, 134)
    assert card.get_at((48, 10))[:3] == (170, 40, 60)


def test_warnings_stay_visible_when_a_device_is_missing():
    ctl, panel = SCENES["turn"]()
    screen = TableScreen((1280, 720), warnings=[("warn.no_camera", {})])
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert any(tr("en", "warn.no_camera") in key[0] for key in screen._text)


def test_a_camera_that_stopped_answering_is_said_on_screen():
    ctl, _ = SCENES["turn"]()
    ctl.set_camera(False)
    screen = TableScreen((1280, 720))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert any(tr("en", "warn.camera_waiting") in key[0] for key in screen._text)


def test_a_slot_the_camera_may_not_read_is_said_on_screen_until_it_can():
    ctl, _ = SCENES["turn"]()
    screen = TableScreen((1280, 720))
    ctl.set_mat_found(True, ("b",))
    screen.draw(pygame.Surface((1280, 720)), ctl)
    said = tr("en", "warn.slots_poor", slots="B")
    assert said.startswith("The camera may not read cards in slot B: ask the staff")
    assert any(said in key[0] for key in screen._text)
    ctl.set_mat_found(True, ())  # the camera was mounted again
    screen._text.clear()
    screen.draw(pygame.Surface((1280, 720)), ctl)
    assert not any("may not read cards" in key[0] for key in screen._text)


def test_a_camera_that_does_not_see_the_mat_is_said_on_screen():
    ctl, _ = SCENES["turn"]()
    screen = TableScreen((1280, 720))
    said = tr("en", "warn.no_mat")
    assert said.startswith("The camera does not see the mat: when a card is to be laid, press OK")
    shown = "The camera does not see the mat"  # the start of its first line on the screen
    screen.draw(pygame.Surface((1280, 720)), ctl)  # not known yet: nothing said
    assert not any(shown in key[0] for key in screen._text)
    ctl.set_mat_found(False)
    screen.draw(pygame.Surface((1280, 720)), ctl)
    lines = screen.wrap(said, 22, round(1250 * screen.scale))
    assert len(lines) <= 2  # the screen shows two lines of a message: all of it
    assert all(any(line == key[0] for key in screen._text) for line in lines)


def _play_with(deliver, seed=41, players=3, limit=20_000):
    """A whole game where the simulated players' presses reach the app only through
    `deliver(app, press)` (keys or touches)."""
    import random

    from companion.app.controller import Controller
    from companion.app.devices import VirtualPanel
    from companion.app.simplayers import SimPlayers
    from companion.engine import Game
    from tests.app_fakes import MemoryLog

    rng = random.Random(seed)
    log = MemoryLog()
    panel = VirtualPanel()
    ctl = Controller(Game, open_log=lambda e: log, camera=False, rng=rng, panel=panel)
    sim = SimPlayers(rng)
    sim._want_players = players
    surface = pygame.display.set_mode((1280, 720))
    t = [0.0]

    def clock():
        t[0] += 0.1
        return t[0]

    app = App(ctl, display=surface, screen=TableScreen((1280, 720), panel=panel), clock=clock)
    app.ctl.listeners.append(lambda event, notes: (
        sim.deal([p["name"] for p in ctl.state["players"]]) if event["event"] == "game" else
        sim.follow(notes, [p["name"] for p in ctl.state["players"]], event)))
    pygame.event.clear()
    steps = 0
    while ctl.phase != "over" and steps < limit:
        app.step()
        for press in sim.next_input(ctl):
            deliver(app, press)
        app.pump_pygame(pygame.event.get())
        steps += 1
    return ctl, log


def test_a_whole_game_can_be_played_with_the_keyboard_only():
    from companion.app.inputs import KEYS

    names = {press: key for key, press in KEYS.items()}

    def deliver(app, press):
        key = names[Press(press.kind, press.value)]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(key)))

    ctl, log = _play_with(deliver)
    assert ctl.phase == "over" and ctl.state["winners"] and len(log.lines) > 3


def test_a_whole_game_can_be_played_by_touch_only():
    from companion.app.controller import BY_POWER

    def deliver(app, press):
        wanted = [press]
        if press.kind == "seat" and app.ctl.phase in ("guess", "cards"):
            wanted.append(Press("card", BY_POWER[press.value]))
        for rect, hit in reversed(app.screen.hits):
            if hit in wanted:
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center,
                                                     button=1))
                return
        raise AssertionError(f"nothing on screen does {press} in {app.ctl.phase}")

    ctl, log = _play_with(deliver, seed=42)
    assert ctl.phase == "over" and ctl.state["winners"] and len(log.lines) > 3


def test_after_a_while_without_players_an_attract_screen_shows_and_a_press_only_wakes():
    class Idle:  # the shape of the kiosk's IdleTimer
        def __init__(self, after):
            self.after, self.last = after, 0.0

        def activity(self, now):
            self.last = now

        def poll(self, now):
            return now - self.last >= self.after

    ctl, panel = SCENES["turn"]()
    surface = pygame.Surface((1280, 720))
    t = [0.0]
    drawn = []

    def attract(dst, seconds, force):
        dst.fill((1, 2, 3))
        drawn.append(seconds)
        return True

    app = App(ctl, display=surface, screen=TableScreen((1280, 720), panel=panel),
              clock=lambda: t[0])
    app.idle, app.attract = Idle(60), attract
    app.step()
    assert not drawn
    t[0] = 61.0
    app.step()
    assert drawn and surface.get_at((5, 5))[:3] == (1, 2, 3)
    state = ctl.state
    app.inputs.put(Press("seat", 4))  # wakes the table, does not start Green's turn
    t[0] = 62.0
    app.step()
    assert app.attracting is None and ctl.phase == "turn" and ctl.state == state
    assert surface.get_at((5, 5))[:3] != (1, 2, 3)


def test_a_key_during_autoplay_hands_the_table_to_the_person():
    import random

    from companion.app.controller import Controller
    from companion.app.simplayers import SimPlayers
    from companion.engine import Game

    ctl = Controller(Game, camera=False, rng=random.Random(1))
    t = [0.0]
    app = App(ctl, sim=SimPlayers(random.Random(1)), clock=lambda: t[0])
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code("3"))
    app.pump_pygame([key])  # the first key only takes over
    assert app.sim is None and ctl.message[0] == "msg.hand_over" and app.inputs.empty()
    app.pump_pygame([key])
    app.step()
    assert ctl.joined == [3]


def test_blinking_dials_redraw_only_their_lights_and_match_a_full_redraw():
    class Blinking:  # a virtual panel whose turn dial blinks on its own
        on = True

        def led_states(self):
            rows = [[1.0] * 5 for _ in range(6)]
            rows[3] = [1.0 if self.on else 0.0] * 4 + [0.0]  # Green, seat 4, health 4
            return rows

        def show(self, state):
            pass

    ctl, _ = SCENES["turn"]()
    panel = Blinking()
    surface = pygame.Surface((1280, 720))
    updated = []
    app = App(ctl, display=surface, screen=TableScreen((1280, 720), panel=panel,
                                                       card_art=False),
              clock=lambda: 1.0, update=updated.append)
    app.step()
    panel.on = False
    app.step()
    assert app.redraws == 1 and app.light_redraws == 1 and updated and updated[0]
    full = pygame.Surface((1280, 720))
    TableScreen((1280, 720), panel=panel, card_art=False).draw(full, ctl)
    a = pygame.surfarray.array3d(surface).astype(int)
    b = pygame.surfarray.array3d(full).astype(int)
    assert (np.abs(a - b).max(axis=2) > 0).sum() == 0


@contextlib.contextmanager
def blinking_turn(*, menu: bool = False):
    """A player's turn on a 1280x720 surface whose dials are drawn from a virtual panel on a
    clock the test moves (t[0]): (ctl, panel, app, surface, t). ``menu``: the operator menu
    open over it."""
    import queue

    from hardware.panel import virtual_panel

    ctl, _ = SCENES["turn"]()
    t = [0.0]
    panel = virtual_panel(events=queue.Queue(), clock=lambda: t[0], animate=False)
    try:
        panel.show(ctl.state)
        if menu:
            ctl.handle(Press("operator"))
        surface = pygame.Surface((1280, 720))
        app = App(ctl, display=surface, screen=TableScreen((1280, 720), panel=panel,
                                                           card_art=False),
                  clock=lambda: t[0], update=lambda areas: None)
        yield ctl, panel, app, surface, t
    finally:
        panel.close()


def test_the_hardware_panels_blink_reaches_the_screen_without_reading_every_candle():
    with blinking_turn() as (ctl, panel, app, surface, t):
        app.step()
        app.step()
        assert (app.redraws, app.light_redraws) == (1, 0)  # nothing moved: nothing drawn
        seen = panel.changes
        t[0] = 0.7  # the turn's candles go dark
        panel.tick()
        assert panel.changes == seen + 1
        app.step()
        assert (app.redraws, app.light_redraws) == (1, 1)
        full = pygame.Surface((1280, 720))
        TableScreen((1280, 720), panel=panel, card_art=False).draw(full, ctl)
        a = pygame.surfarray.array3d(surface).astype(int)
        b = pygame.surfarray.array3d(full).astype(int)
        assert (np.abs(a - b).max(axis=2) > 0).sum() == 0


def test_one_stone_is_one_stone():
    """The round's summary said "Frederick: +1 stones"."""
    from companion.app.i18n import tr

    assert tr("en", "sum.stones", player="Frederick", amount=1) == "Frederick: +1 stone"
    assert tr("en", "sum.stones", player="Frederick", amount=3) == "Frederick: +3 stones"
    assert tr("en", "fx.stones", player="Ann", amount=1) == "Ann +1 stone"
    assert tr("ko", "sum.stones", player="Ann", amount=1) == "Ann: 마법의 돌 +1"
    import numpy as np

    assert tr("en", "fx.stones", player="Ann", amount=np.int64(3)) == "Ann +3 stones"


def test_a_long_name_is_cut_short_where_it_would_run_into_the_stones():
    """'Maximilian Alexander' ran under the stone count on the 800 x 480 display, and a
    name of 300 letters across the card panel."""
    import random

    from companion.app.controller import Controller
    from companion.engine import Game

    long_name = "Maximilian Alexander von Hohenzollern"
    ctl = Controller(Game, camera=False, rng=random.Random(7),
                     names=[long_name, "Jo", "Bartholomew"])
    for press in (Press("seat", 1), Press("seat", 2), Press("seat", 3), Press("ok"),
                  Press("seat", 1)):
        ctl.handle(press)
    screen = TableScreen((800, 480))
    screen.draw(pygame.Surface((800, 480)), ctl)
    drawn = {key[0] for key in screen._text}
    shortened = [s for s in drawn if s.endswith("…") and long_name.startswith(s[:-1])]
    assert shortened and all(len(s) < len(long_name) for s in shortened)
    font = screen.font(min(30, round(28 * screen.boost)), True)  # as the row draws names
    assert all(font.size(s)[0] <= round(222 * screen.scale) for s in shortened)
    assert "Jo" in drawn and "Bartholomew" in drawn  # names that fit are left whole
    assert long_name not in drawn  # not whole beside the stones...
    key, args = ctl.prompt()
    assert long_name in tr("en", key, **args)  # ... but whole in the prompt, wrapped


def test_texts_kept_for_drawing_again_stay_within_their_bytes():
    """Kept by count (3000 texts), long event lines made the cache grow to about 130 MB
    over hours of play before it was emptied."""
    from companion.app.screens.table import TEXT_CACHE_BYTES

    screen = TableScreen((1280, 720))
    for k in range(4000):
        screen.text(f"Ann investigated: Ghost (said Living Armor), wrong #{k}", 40)
        assert screen._text_bytes <= TEXT_CACHE_BYTES
    kept = sum(s.get_width() * s.get_height() * s.get_bytesize() for s in screen._text.values())
    assert kept == screen._text_bytes and kept > TEXT_CACHE_BYTES // 2
    again = screen.text("Ann investigated: Ghost (said Living Armor), wrong #3999", 40)
    assert again is screen.text("Ann investigated: Ghost (said Living Armor), wrong #3999", 40)


def test_accented_names_are_drawn_not_boxed():
    """'José' and 'Zoë Müller' showed boxes for é, ë and ü: the app's font has Hangul and
    plain Latin only. Such letters come from pygame's own font, the rest as before."""
    import numpy as np

    from companion.app.screens import glyphs

    screen = TableScreen((800, 480))
    path = str(font_path(True))
    assert not glyphs.has_letter(path, "é") and glyphs.has_letter(None, "é")
    assert glyphs.has_letter(path, "민") and glyphs.has_letter(path, "J")

    def pixels(surface):
        return pygame.surfarray.pixels_alpha(surface).copy()

    boxed = screen.font(30, True).render("é", True, (255, 255, 255))
    drawn = screen.text("é", 30, (255, 255, 255), True)
    assert pixels(drawn).shape != pixels(boxed).shape or \
        not np.array_equal(pixels(drawn), pixels(boxed))
    plain = screen.text("민지 Nandu", 30, (255, 255, 255), True)
    mixed = screen.text("민지 Ñandú", 30, (255, 255, 255), True)
    assert abs(mixed.get_width() - plain.get_width()) <= 0.15 * plain.get_width()
    # one line, baselines aligned: no taller than a line in the app's font, give or take
    assert abs(screen.text("Jos", 30, (255, 255, 255), True).get_height()
               - mixed.get_height()) <= 3


def test_an_accented_name_is_measured_as_drawn():
    """Measuring counted each letter the app's font lacks as its box, wider than the letter
    drawn in its place: "Zoë Müller-Éloïse" was cut short though it fitted."""
    from companion.kiosk.attract import Fonts

    screen = TableScreen((800, 480))
    name = "Zoë Müller-Éloïse"
    drawn = screen.text(name, 30, (255, 255, 255), True).get_width()
    assert screen.fit(name, 30, drawn, True) == name
    assert screen.wrap(name, 30, drawn, True) == [name]
    assert screen.fit(name, 30, drawn - 12, True).endswith("…")
    fonts = Fonts(font_path(False))
    assert fonts.measure(24).size(name)[0] == fonts.render(24, name, (255, 255, 255)).get_width()


def test_a_text_is_measured_once_while_kept_and_what_is_kept_stays_bounded(monkeypatch):
    """Every redraw (every frame while an effect plays) measured the names, the aid's labels
    and the event lines again; kept without bound, a table running for months would grow."""
    from companion.app.screens import glyphs

    runs = []
    real = glyphs._runs
    monkeypatch.setattr(glyphs, "_runs", lambda text, *a: runs.append(text) or real(text, *a))
    measure = TableScreen((800, 480)).measure(30)
    assert measure.size("Zoë") == measure.size("Zoë") and runs == ["Zoë"]
    monkeypatch.setattr(glyphs.Measure, "KEPT", 8)
    for k in range(20):
        measure.size(f"Ann {k}")
    assert len(measure._kept) <= 8
    assert measure.size("Ann 19") == measure.size("Ann 19")


def test_a_screen_of_letters_the_font_has_loads_no_fallback_font(monkeypatch):
    """Each new text built pygame's fallback font (about a millisecond) whether or not a
    letter needed it: none of the table's own texts does."""
    from companion.app.screens import glyphs

    built = []
    real = glyphs.fallback_for
    monkeypatch.setattr(glyphs, "fallback_for", lambda *a: built.append(a) or real(*a))
    for lang in ("en", "ko"):
        render("turn", lang, (800, 480))
    assert built == []
    TableScreen((800, 480)).text("José", 30, (255, 255, 255), True)
    assert len(built) == 1  # a letter it lacks: loaded then


def test_a_redraw_of_the_same_screen_wraps_no_text_again(monkeypatch):
    """Each full redraw (every frame while an effect plays) wrapped the prompt at up to four
    sizes and the messages again, measuring every word."""
    ctl, panel = SCENES["message"]()
    screen = TableScreen((800, 480), panel=panel, card_art=False)
    wrapped = []
    real = TableScreen._wrap
    monkeypatch.setattr(TableScreen, "_wrap", staticmethod(
        lambda *a: wrapped.append(a[0]) or real(*a)))
    screen.draw(pygame.Surface((800, 480)), ctl)
    first = len(wrapped)
    screen.draw(pygame.Surface((800, 480)), ctl)
    assert first > 0 and len(wrapped) == first
    lines = screen.wrap("one two three", 22, 60)
    lines.append("changed by its caller")
    assert screen.wrap("one two three", 22, 60) == lines[:-1]


def test_letters_are_still_looked_up_after_pygame_was_quit_and_started_again():
    """The fonts opened to ask which letters they have die with pygame's freetype: the
    statistics screen failed ('Invalid freetype font') once something had quit it."""
    import pygame.freetype

    from companion.app.screens import glyphs

    glyphs.has_letter(None, "a")
    pygame.freetype.quit()
    pygame.freetype.init()
    glyphs.has_letter.cache_clear()
    assert glyphs.has_letter(None, "é") and not glyphs.has_letter(None, "\U000f0000")


def test_a_duel_with_long_names_stays_in_its_panel_and_warnings_within_the_screen():
    """The slots' names ran over slot B's card and off the screen; warnings were measured in
    the regular font but drawn bold, and ran past the screen's edge."""
    import random

    from companion.app.controller import Controller
    from companion.engine import Game

    long_a, long_b = "Maximilian Alexander von Hohenzollern", "Bartholomew Featherstonehaugh"
    ctl = Controller(Game, camera=False, rng=random.Random(7), names=[long_a, long_b])
    for press in (Press("seat", 1), Press("seat", 2), Press("ok"), Press("seat", 1),
                  Press("seat", 2), Press("seat", 2)):  # a duel, accepted
        ctl.handle(press)
    assert ctl.phase == "cards" and ctl.pending.kind == "duel"
    warning = ("warn.joined", {"text": "The dials and buttons cannot be used (Pin map problem: "
                                       "pins.toml: buttons.ok: must be a whole number, got "
                                       "true): they are shown on the screen. " * 2})
    ctl.message = warning
    screen = TableScreen((800, 480))
    screen.draw(pygame.Surface((800, 480)), ctl)
    drawn = {key[0]: key for key in screen._text}
    slots = [s for s in drawn if s.startswith(("A  ", "B  "))]
    assert len(slots) == 2 and all(s.endswith("…") for s in slots)
    lines = [s for s in drawn if "dials and buttons" in s or "shown on the screen" in s]
    assert lines and all(screen.font(drawn[s][1], True).size(s)[0] <= round(1250 * screen.scale)
                         for s in lines)  # in the size and weight drawn


def test_the_korean_duel_prompt_needs_no_particle_after_a_name():
    """'빨강는 A 칸': 는 after a name ending in a consonant is wrong (은); the prompt now
    puts the names where no particle follows them."""
    from companion.app.i18n import tr

    said = tr("ko", "prompt.lay_duel", player="Red", target="Yellow")
    assert "A 칸에 빨강" in said and "B 칸에 노랑" in said and "는" not in said.split(":")[1]


def _row_pixels(surface, rect):
    return pygame.surfarray.array3d(surface.subsurface(rect)).astype(int)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_the_challenged_players_row_says_so_until_they_answer(lang, size):
    """Only the prompt said who was challenged: the rows showed the challenger's TURN and
    nothing on the challenged player's row, hard to find from across the table."""
    from companion.app.screens.palette import GOLD, TEXT

    def drawn(ctl):
        ctl.language = lang
        screen = TableScreen(size, panel=panel, card_art=False)
        surface = pygame.Surface(size)
        screen.draw(surface, ctl)
        return screen, surface

    ctl, panel = SCENES["turn"]()
    before, plain = drawn(ctl)
    ctl.handle(Press("seat", 1))  # Green challenges Red
    assert ctl.phase == "answer" and ctl.pending.target == "Red"
    screen, asked = drawn(ctl)
    red, green = screen._row(0, 4), screen._row(3, 4)
    texts = {key[0] for key in screen._text}
    assert tr(lang, "label.challenged") in texts  # in words, not by colour alone
    assert tr(lang, "label.turn") in texts
    # Red's row changes at a glance; Green's (the challenger's) stays as on its turn
    changed = np.abs(_row_pixels(asked, red) - _row_pixels(plain, red)).max(axis=2) > 24
    assert changed.mean() > 0.1
    assert (_row_pixels(asked, green) == _row_pixels(plain, green)).all()
    # framed, but not in the turn's gold
    top = asked.get_at((red.centerx, red.y + 1))[:3]
    assert top == TEXT and asked.get_at((green.centerx, green.y + 1))[:3] == GOLD
    for answer in (Press("seat", 1), Press("back")):  # accepted, or refused
        ctl, panel = SCENES["answer"]()
        ctl.handle(answer)
        assert ctl.phase != "answer"
        screen, _ = drawn(ctl)
        assert tr(lang, "label.challenged") not in {key[0] for key in screen._text}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_the_challenged_mark_stays_in_its_row_beside_a_long_name(lang, size):
    import random

    from companion.app.controller import Controller
    from companion.engine import Game

    long_a, long_b = "Maximilian Alexander von Hohenzollern", "Bartholomew Featherstonehaugh"
    ctl = Controller(Game, camera=False, rng=random.Random(7), language=lang,
                     names=[long_a, long_b, "Jo", "Ann", "Bo", "Cy"])
    for press in [Press("seat", s) for s in range(1, 7)] + [Press("ok"), Press("seat", 1),
                                                          Press("seat", 2)]:
        ctl.handle(press)
    assert ctl.phase == "answer" and ctl.pending.target == long_b
    screen = TableScreen(size)
    screen.draw(pygame.Surface(size), ctl)
    label = tr(lang, "label.challenged")
    [key] = [key for key in screen._text if key[0] == label]  # whole, not cut short
    row = screen._row(1, 6)
    tag = screen._tag(pygame.Surface(size), label, row)
    assert row.contains(tag)
    assert screen.font(key[1], True).size(label)[0] <= tag.w - round(12 * screen.scale)
    name_size = min(30, round(28 * screen.boost))
    [name] = [key[0] for key in screen._text
              if key[0].endswith("…") and long_b.startswith(key[0][:-1])]
    right = row.x + round(40 * screen.scale) + screen.font(name_size, True).size(name)[0]
    stones = round(270 * screen.scale) + screen.font(40, True).size("9")[0]
    assert right < tag.x and stones < tag.x  # the name and the stones end before the tag


def _drawn_texts(screen, colours=None):
    """Record what ``screen`` draws from now on: (text, its rectangle), in order; with a
    list ``colours``, the colour of each text is added to it."""
    from companion.app.screens.palette import TEXT

    drawn = []
    real = screen.blit_text

    def spy(dst, s, size, pos, *args, **kwargs):
        rect = real(dst, s, size, pos, *args, **kwargs)
        drawn.append((s, rect))
        if colours is not None:
            colours.append(args[0] if args else kwargs.get("colour", TEXT))
        return rect

    screen.blit_text = spy
    return drawn


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_the_aid_counts_cards_left_in_words_not_as_a_bare_number(lang, size):
    """A big '1' above Ghost read like power 1 (the Cleaner), the number the buttons announce:
    the count says it is cards left, and the header says what the percentages are."""
    from companion.cards import IDENTITIES

    ctl, panel = SCENES["turn"]()
    ctl.language = lang
    screen = TableScreen(size, panel=panel, card_art=False)
    drawn = _drawn_texts(screen)
    screen.draw(pygame.Surface(size), ctl)
    area = screen.R(530, 318, 740, 146)
    inside = [(s, r) for s, r in drawn if area.colliderect(r)]
    assert inside and all(area.contains(r) for _, r in inside)  # nothing runs out of it
    assert not [s for s, _ in inside if s.strip().isdigit()]  # no number standing alone
    fig = ctl.game.figures()
    counts = [tr(lang, "label.left", n=fig["unseen"][ident]) for ident in IDENTITIES]
    assert [s for s, _ in inside if s in counts] == counts  # whole, in the cards' order
    shown = [r for s, r in inside if s in counts]
    gap = round(8 * screen.scale)
    assert all(a.right + gap <= b.x for a, b in zip(shown, shown[1:], strict=False))
    assert tr(lang, "label.chance_note") in [s for s, _ in inside]  # what the % means
    head = next(r for s, r in inside if s.startswith(tr(lang, "label.aid")))
    note = next(r for s, r in inside if s == tr(lang, "label.chance_note"))
    assert head.right < note.x
    for ident in IDENTITIES:
        pct = tr(lang, "label.chance", pct=round(fig["chance"][ident] * 100))
        assert pct in [s for s, _ in inside]
    _assert_no_missing_glyphs(screen)


def _assert_no_missing_glyphs(screen):
    for (text, size, _colour, bold) in list(screen._text):
        assert not _missing(screen.font(size, bold), text), text


def _warning_lines(screen, ctl, size):
    """The lines drawn in the warning colour, and all that was drawn: (text, rectangle)."""
    from companion.app.screens.palette import WARN

    colours: list = []
    drawn = _drawn_texts(screen, colours)
    screen.draw(pygame.Surface(size), ctl)
    return [d for d, c in zip(drawn, colours, strict=True) if c == WARN], drawn


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_warnings_that_take_more_than_two_lines_are_shown_whole(lang, size):
    """A table resumed, with its dials' pin map wrong and its mat printed too small: the
    warnings joined took three lines, and only two were drawn, so the mat's was never read
    to its end. The events under them give way (the newest stays while there is room)."""
    from companion.app.i18n import event_line

    ctl, panel = SCENES["turn"]()
    ctl.language = lang
    ctl.camera_expected = ctl.camera = True
    ctl.set_mat_found(True, (), 1.41)  # cards look 1.41 times too large: the mat is too small
    warnings = [("warn.resumed", {}),
                ("warn.panel_failed", {"text": "Pin map problem: pins.toml: buttons.ok: must "
                                               "be a whole number, got true"})]
    screen = TableScreen(size, panel=panel, card_art=False, warnings=warnings)
    lines, drawn = _warning_lines(screen, ctl, size)
    said = "  ".join(tr(lang, key, **args) for key, args in
                     warnings + [("warn.misfit", {})])
    assert len(lines) > 2  # more than two lines' worth, or this shows nothing
    assert " ".join(s for s, _ in lines).split() == said.split()  # every word, in order
    surface = pygame.Rect((0, 0), size)
    prompt = screen.R(10, 474, 990, 130)
    assert all(surface.contains(r) and r.y >= prompt.bottom for _, r in lines)
    newest = event_line(lang, ctl.game.events[-1])
    [(_, rect)] = [(s, r) for s, r in drawn if s == newest]
    assert not any(rect.colliderect(r) for _, r in lines) and surface.contains(rect)
    _assert_no_missing_glyphs(screen)


@pytest.mark.parametrize("size", [(1280, 720), (800, 480), (1280, 800), (1280, 1024)])
def test_a_message_too_long_for_every_row_ends_in_an_ellipsis(size):
    """On a display taller than the grid, the rows were counted at the font's line height but
    drawn further apart: at 1280x800 the last one (with its "…") was below the screen."""
    ctl, panel = SCENES["turn"]()
    ctl.notice("The history cannot be written to the disk; " * 80)
    screen = TableScreen(size, panel=panel, card_art=False)
    lines, _ = _warning_lines(screen, ctl, size)
    rows = screen._rows_below()[2]  # the small display's 30 more pixels hold a fifth row
    assert rows == {(1280, 720): 4, (800, 480): 5, (1280, 800): 7, (1280, 1024): 15}[size]
    assert len(lines) == rows and lines[-1][0].endswith("…")
    assert not any(s.endswith("…") for s, _ in lines[:-1])
    surface = pygame.Rect((0, 0), size)
    assert all(surface.contains(r) and r.w <= round(1250 * screen.scale) for _, r in lines)


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_a_prompt_too_long_for_its_box_ends_in_an_ellipsis(size):
    """Four lines of the smallest size fit the prompt's box (three on the 800x480 display,
    whose smallest is larger): past them, the last says that more was cut off, and nothing
    runs out of the box."""
    import random

    from companion.app.controller import Controller
    from companion.app.screens.palette import TEXT
    from companion.engine import Game

    long_name = "Maximilian Alexander von Hohenzollern und Featherstonehaugh " * 6
    ctl = Controller(Game, camera=False, rng=random.Random(7), names=[long_name, "Jo"])
    for press in (Press("seat", 1), Press("seat", 2), Press("ok"), Press("seat", 1)):
        ctl.handle(press)
    screen = TableScreen(size)
    colours: list = []
    drawn = _drawn_texts(screen, colours)
    screen.draw(pygame.Surface(size), ctl)
    box = screen.R(10, 474, 990, 130)
    lines = [(s, r) for (s, r), c in zip(drawn, colours, strict=True)
             if c == TEXT and box.colliderect(r) and r.h > 1]
    assert len(lines) == {(1280, 720): 4, (800, 480): 3}[size] and lines[-1][0].endswith("…")
    assert all(box.contains(r) for _, r in lines)
    _assert_no_missing_glyphs(screen)
