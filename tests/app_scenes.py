"""Fixed table situations, one per screen, built by pressing buttons (no randomness).

Used by the reference-image tests and by scripts/make_app_references.py.
"""

from __future__ import annotations

import random

from companion.app.controller import Controller
from companion.app.devices import VirtualPanel
from companion.app.inputs import Press, Seen, Tick
from companion.engine import Game

OK, BACK = Press("ok"), Press("back")
SIZES = ((1280, 720), (800, 480))


def seat(n):
    return Press("seat", n)


def _ctl(camera=True):
    panel = VirtualPanel()
    return Controller(Game, camera=camera, rng=random.Random(7), panel=panel), panel


def _started(players=4, camera=True):
    ctl, panel = _ctl(camera)
    for s in range(1, players + 1):
        ctl.handle(seat(s))
    ctl.handle(OK)
    ctl.handle(seat(1))
    return ctl, panel


def _investigate(ctl, who, guess_power, card):
    ctl.handle(seat(who))
    ctl.handle(seat(guess_power))
    ctl.handle(Press("card", card))
    ctl.handle(OK)


def _midgame(camera=True):
    """Round 1 with a few cards revealed, damage and stones; Green's turn."""
    ctl, panel = _started(4, camera)
    _investigate(ctl, 1, 2, "cook")  # Red announces Cook and is right: +1 stone
    ctl.handle(seat(3))  # Orange challenges Yellow
    ctl.handle(seat(3))  # Yellow accepts
    ctl.handle(Press("card", "butler"))
    ctl.handle(Press("card", "living_armor"))  # Orange takes 1 damage
    _investigate(ctl, 3, 5, "cleaner")  # Yellow announces Vampire, wrong: 1 damage
    ctl.handle(Tick(100.0))
    return ctl, panel


def scene_setup_join():
    ctl, panel = _ctl()
    ctl.handle(seat(1))
    ctl.handle(seat(2))
    ctl.handle(seat(4))
    return ctl, panel


def scene_setup_first():
    ctl, panel = scene_setup_join()
    ctl.handle(OK)
    return ctl, panel


def scene_turn():
    return _midgame()


def scene_answer():
    ctl, panel = _midgame()
    ctl.handle(seat(1))
    return ctl, panel


def scene_guess():
    ctl, panel = _midgame()
    ctl.handle(seat(4))
    return ctl, panel


def scene_cards_camera():
    ctl, panel = _midgame()
    ctl.handle(seat(1))  # Green challenges Red
    ctl.handle(seat(1))  # Red accepts
    ctl.handle(Seen("a", "cook"))  # Green's card read; Red's still to come
    return ctl, panel


def scene_cards_picker():
    ctl, panel = _midgame(camera=False)
    ctl.handle(seat(4))
    ctl.handle(seat(2))
    return ctl, panel


def scene_confirm():
    ctl, panel = _midgame()
    ctl.handle(seat(4))
    ctl.handle(seat(3))
    ctl.handle(Seen("a", "butler"))
    return ctl, panel


def scene_message():
    ctl, panel = _midgame(camera=False)
    _investigate(ctl, 4, 2, "living_armor")
    _investigate(ctl, 1, 2, "living_armor")  # all three Living Armors revealed
    ctl.handle(Tick(300.0))
    ctl.handle(seat(2))
    ctl.handle(seat(2))
    ctl.handle(Press("card", "living_armor"))  # a fourth one: refused
    return ctl, panel


def scene_effect():
    ctl, panel = _midgame()
    ctl.handle(seat(4))
    ctl.handle(seat(1))
    ctl.handle(Seen("a", "butler"))
    ctl.handle(OK)  # wrong: 1 damage, shown as an effect
    ctl.handle(Tick(100.4))  # halfway through it
    return ctl, panel


def scene_summary():
    ctl, panel = _started(2)
    _investigate(ctl, 1, 6, "ghost")  # Ghost right: Orange out, Red sole survivor
    ctl.handle(Tick(100.0))
    return ctl, panel


def scene_over():
    ctl, panel = scene_summary()
    ctl.handle(OK)
    _investigate(ctl, 1, 5, "vampire")  # +2 -> 5
    _investigate(ctl, 2, 1, "cleaner")
    _investigate(ctl, 1, 5, "vampire")  # +2 -> 7: wins
    ctl.handle(Tick(200.0))
    return ctl, panel


def scene_six_players():
    ctl, panel = _started(6)
    _investigate(ctl, 1, 2, "cook")
    ctl.handle(seat(5))  # Orange challenges Blue
    ctl.handle(BACK)  # Blue refuses and must investigate
    ctl.handle(Tick(50.0))
    return ctl, panel


def scene_operator():
    """The operator menu over a game in progress, the shutdown question asked."""
    ctl, panel = _midgame()
    ctl.handle(Press("operator"))
    ctl.handle(seat(5))
    return ctl, panel


SCENES = {name[6:]: fn for name, fn in globals().items() if name.startswith("scene_")}


def render(name: str, lang: str, size: tuple[int, int]):
    """The screen for a scene as a pygame Surface (pygame must be initialised)."""
    import pygame

    from companion.app.screens.table import TableScreen

    ctl, panel = SCENES[name]()
    ctl.language = lang
    screen = TableScreen(size, panel=panel, card_art=False)
    surface = pygame.Surface(size)
    screen.draw(surface, ctl)
    return surface, screen


def cases():
    """(scene, language, size) for every reference image."""
    out = []
    for name in SCENES:
        for lang in ("en", "ko"):
            out.append((name, lang, SIZES[0]))
    for name in ("turn", "cards_picker", "over", "six_players", "operator"):
        for lang in ("en", "ko"):
            out.append((name, lang, SIZES[1]))
    return out


def reference_name(name, lang, size):
    return f"app_{name}_{lang}_{size[0]}x{size[1]}.png"
