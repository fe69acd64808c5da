"""Fakes for the table app's devices: a log in memory, a camera over a pretend mat."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.app.controller import Controller
from companion.app.devices import CameraFeed, VirtualPanel
from companion.app.loop import App
from companion.app.simplayers import SimPlayers
from companion.engine import Game


class MemoryLog:
    def __init__(self):
        self.lines: list[dict] = []

    def append(self, event):
        self.lines.append(dict(event))


class BrokenLog:
    def append(self, event):
        raise OSError(28, "No space left on device")


@dataclass(frozen=True)
class CardLaid:  # the reveal tracker's event names
    label: str
    zone: str
    score: float


@dataclass(frozen=True)
class CardTaken:
    label: str
    zone: str


@dataclass(frozen=True)
class CardUnsure:
    zone: str


class MatCamera:
    """A camera source over a pretend mat: lay/take cards, read() gives a snapshot frame."""

    def __init__(self, unsure: set[str] | None = None):
        self.mat: dict[str, str] = {}
        self.unsure = unsure or set()  # labels it cannot read

    def lay(self, zone, label):
        self.mat[zone] = label

    def take(self, zone):
        self.mat.pop(zone, None)

    def read(self):
        return dict(self.mat)

    def close(self):
        pass


class DiffTracker:
    """Reports what changed on the mat since the last frame, as the real tracker would."""

    def __init__(self, camera: MatCamera):
        self.camera = camera
        self.last: dict[str, str] = {}

    def feed(self, frame):
        out = []
        for zone, label in frame.items():
            if self.last.get(zone) != label:
                if label in self.camera.unsure:
                    out.append(CardUnsure(zone))
                else:
                    out.append(CardLaid(label, zone, 0.99))
        for zone, label in self.last.items():
            if zone not in frame:
                out.append(CardTaken(label, zone))
        self.last = dict(frame)
        return out


def make_app(seed: int, players: int, *, camera: bool, unsure=None, log=None):
    rng = random.Random(seed)
    log = log if log is not None else MemoryLog()
    panel = VirtualPanel()
    ctl = Controller(Game, open_log=lambda event: log, camera=camera, rng=rng, panel=panel)
    cam = MatCamera(unsure) if camera else None
    sim = SimPlayers(rng, camera=cam)
    sim._want_players = players
    t = [0.0]

    def clock():
        t[0] += 0.1
        return t[0]

    feed = CameraFeed(cam, DiffTracker(cam), None) if camera else None
    app = App(ctl, sim=sim, clock=clock, camera=feed)
    if feed is not None:
        feed.inputs = app.inputs
    return app, log, panel


def play(app, max_steps=30_000):
    steps = 0
    while app.ctl.phase != "over" and steps < max_steps:
        app.step()
        steps += 1
    return steps
