"""Figures for the table app's targets. Prints them; asserts nothing.

    .venv/bin/python benchmarks/app_bench.py [--quick]

- full redraw of the table screen at 1280x720 (target <= 10 ms)
- idle CPU of `companion demo` with nothing happening (target <= 2% of one core)
- camera frames from a card's first whole frame to state and screen updated (target <= 4)
- peak memory (max RSS) of `companion demo` playing a whole game (target <= 250 MB)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def redraw_ms(repeats: int) -> dict:
    import pygame

    from companion.app.screens.table import TableScreen
    from tests.app_scenes import SCENES

    pygame.display.init()
    pygame.font.init()
    display = pygame.display.set_mode((1280, 720))
    out = {}
    for name in ("turn", "cards_picker", "confirm", "effect", "over"):
        ctl, panel = SCENES[name]()
        screen = TableScreen((1280, 720), panel=panel)
        t = time.perf_counter()
        screen.warm()  # done once at start-up: card pictures and fonts
        warm = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        screen.draw(display, ctl)
        cold = (time.perf_counter() - t) * 1000
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            screen.draw(display, ctl)
            pygame.display.flip()
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        out[name] = (warm, cold, statistics.mean(times), times[int(len(times) * 0.95) - 1])
    pygame.display.quit()
    return out


def redraws_in_a_game() -> list[float]:
    """The time of every redraw (after each change) while simulated players play a game."""
    import random

    import pygame

    from companion.app.controller import Controller
    from companion.app.devices import VirtualPanel
    from companion.app.loop import App
    from companion.app.screens.table import TableScreen
    from companion.app.simplayers import SimPlayers
    from companion.engine import Game

    pygame.display.init()
    pygame.font.init()
    display = pygame.display.set_mode((1280, 720))
    rng = random.Random(2)
    panel = VirtualPanel()
    ctl = Controller(Game, camera=False, panel=panel, rng=rng)
    screen = TableScreen((1280, 720), panel=panel)
    screen.warm()
    times: list[float] = []
    draw = screen.draw

    def timed(dst, c):
        t = time.perf_counter()
        draw(dst, c)
        pygame.display.flip()
        times.append((time.perf_counter() - t) * 1000)

    screen.draw = timed
    t = [0.0]

    def clock():
        t[0] += 0.1
        return t[0]

    app = App(ctl, display=display, screen=screen, sim=SimPlayers(rng), clock=clock)
    while ctl.phase != "over":
        app.step()
    pygame.display.quit()
    return times


class StillCamera:
    """A camera looking at a table where nothing moves: a few noisy frames of the mat from
    the synthetic camera, given in turn at 15 frames a second of real time."""

    def __init__(self, frames):
        self.frames = frames
        self.n = 0
        self.last = 0.0

    def read(self):
        from vision.frames import Frame

        now = time.monotonic()
        if now - self.last < 1 / 15:
            return None
        self.last = now
        self.n += 1
        return Frame(self.frames[self.n % len(self.frames)].image, now)

    def close(self):
        pass


def idle_cpu(seconds: float, with_camera: bool, *, for_cards: bool = False
             ) -> tuple[float, float, str]:
    """CPU while idle mid-game, waiting for a player's turn (their dial blinking), or with
    ``for_cards`` for the card of an investigation to be laid, in percent of one core: (whole
    process, the app's main loop thread alone), and what was measured. The whole process
    includes the virtual panel's animation thread."""
    import queue
    import random

    import pygame

    from companion.app.commands import main_loop, synthetic_camera
    from companion.app.controller import Controller
    from companion.app.devices import CameraFeed, virtual_panel
    from companion.app.loop import App
    from companion.app.screens.table import TableScreen
    from companion.engine import Game

    pygame.display.init()
    pygame.font.init()
    display = pygame.display.set_mode((1280, 720))
    inputs: queue.Queue = queue.Queue()
    panel = virtual_panel(inputs)
    game = Game()
    game.push({"event": "game", "players": ["Red", "Orange", "Yellow"], "first": "Orange"})
    ctl = Controller(Game, game=game, camera=with_camera, panel=panel, rng=random.Random(1))
    if for_cards:
        from companion.app.inputs import Press

        ctl.handle(Press("seat", ctl.seat_for("Orange")))  # Orange investigates...
        ctl.handle(Press("seat", 5))  # ...announcing the Vampire: the table waits for the card
        assert ctl.phase == "cards", ctl.phase
    feed, what = None, "no camera"
    if with_camera:
        now = [0.0]
        made, camera, why = synthetic_camera(lambda: now[0], 3, None)
        if made is None:
            return 0.0, 0.0, f"no camera ({why})"
        frames = []
        for _ in range(40):
            now[0] += 1 / 15
            frame = camera.read()
            made.tracker.feed(frame)  # the tracker finds the mat
            frames.append(frame)
        feed = CameraFeed(StillCamera(frames[-8:]), made.tracker, inputs)
        what = ("waiting for a card, a still table read at 15 frames/s by the reveal tracker"
                if for_cards else "a player's turn, the reveal tracker reading the still "
                "table 3 times a second")
    screen = TableScreen((1280, 720), panel=panel)
    screen.warm()
    app = App(ctl, inputs=inputs, display=display, screen=screen, camera=feed,
              clock=time.monotonic, flip=pygame.display.flip, update=pygame.display.update)
    app.redraw(force=True)
    p0, t0, w0 = time.process_time(), time.thread_time(), time.monotonic()
    main_loop(app, pygame, fast=False, exit_when_over=False, max_steps=None,
              quit_after=seconds)
    wall = time.monotonic() - w0
    process = 100 * (time.process_time() - p0) / wall
    thread = 100 * (time.thread_time() - t0) / wall
    panel.close()
    pygame.display.quit()
    return process, thread, what


def bare_wakes(seconds: float, rate: float) -> float:
    """CPU of a loop that does nothing but wait on a queue ``rate`` times a second, in
    percent of one core: the floor below which no loop waking that often can go here."""
    import queue

    q: queue.Queue = queue.Queue()
    p0, w0 = time.process_time(), time.monotonic()
    while time.monotonic() - w0 < seconds:
        try:
            q.get(timeout=1 / rate)
        except queue.Empty:
            pass
    return 100 * (time.process_time() - p0) / (time.monotonic() - w0)


def peak_memory_mb(extra: list[str]) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        # RUSAGE_CHILDREN's maxrss is the largest child so far: run this one in a fresh
        # process so earlier children do not count.
        code = (
            "import resource, subprocess, sys, os\n"
            "subprocess.run([sys.executable, '-m', 'companion', 'demo', '--autoplay', '--fast',"
            " '--exit-when-over', '--headless', '--seed', '4', '--log', sys.argv[1]] + "
            "sys.argv[2:], check=True, capture_output=True)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        out = subprocess.run([sys.executable, "-c", code, str(Path(tmp) / "g.jsonl"), *extra],
                             capture_output=True, text=True, check=True, cwd=ROOT,
                             env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
        return int(out.stdout.strip()) / 1024


def demo_idle_cpu(seconds: float, extra: list[str]) -> float | None:
    """CPU of a whole ``companion demo`` process (headless, no autoplay) waiting for players,
    in percent of one core, measured from its own counters once it has settled (Linux's
    /proc; None elsewhere)."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--headless",
                             "--quit-after", str(seconds + 10), *extra],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    stat = Path(f"/proc/{proc.pid}/stat")
    ticks_per_s = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def cpu_ticks() -> int | None:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return int(fields[11]) + int(fields[12])  # utime + stime

    try:
        time.sleep(6)  # start-up: imports, fonts, the recogniser's references
        a, t0 = cpu_ticks(), time.monotonic()
        time.sleep(seconds)
        b, t1 = cpu_ticks(), time.monotonic()
    finally:
        proc.wait()
    if a is None or b is None:
        return None
    return 100 * (b - a) / ticks_per_s / (t1 - t0)


def frames_to_update(trials: int) -> tuple[list[int], str]:
    """Lay a card on the camera and count the camera frames from the first frame in which it
    lies whole and still (that frame is 1) to the frame after which the engine state has
    changed and the screen has been redrawn with it."""
    import random

    import pygame

    from companion.app.commands import synthetic_camera
    from companion.app.controller import Controller
    from companion.app.devices import CameraFeed, VirtualPanel
    from companion.app.inputs import Press
    from companion.app.loop import App
    from companion.app.screens.table import TableScreen
    from companion.engine import Game

    pygame.display.init()
    pygame.font.init()
    display = pygame.display.set_mode((1280, 720))
    results = []
    kind = "synthetic camera + card recogniser + reveal tracker"
    for trial in range(trials):
        now = [0.0]

        def clock(now=now):
            now[0] += 1 / 15
            return now[0]

        feed, camera, why = synthetic_camera(lambda now=now: now[0], trial, None)
        if feed is None:
            from tests.app_fakes import DiffTracker, MatCamera

            camera = MatCamera()
            camera.lying = lambda camera=camera: dict(camera.mat)
            feed = CameraFeed(camera, DiffTracker(camera), None)
            kind = f"stand-in camera ({why}): app-side frames only"
        panel = VirtualPanel()
        ctl = Controller(Game, camera=True, panel=panel, rng=random.Random(trial),
                         confirm_investigations=False)
        app = App(ctl, display=display, screen=TableScreen((1280, 720), panel=panel),
                  camera=feed, clock=clock)
        feed.inputs = app.inputs
        for press in (Press("seat", 1), Press("seat", 2), Press("ok"), Press("seat", 1),
                      Press("seat", 1), Press("seat", 2)):
            ctl.handle(press)  # Red and Orange seated; Red investigates announcing Cook
        for _ in range(30):
            app.step()  # the camera finds the mat
        events = len(ctl.game.events)
        camera.lay("a", "cook")
        first_whole = None
        for _ in range(120):
            app.step()
            if first_whole is None and "a" in camera.lying():
                first_whole = feed.frames
            if len(ctl.game.events) > events and app.drawn_version == ctl.version:
                break
        results.append(feed.frames - first_whole + 1 if first_whole else 999)
    pygame.display.quit()
    return results, kind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    quick = args.quick

    print("Table app benchmark (targets in brackets)")
    for name, (warm, cold, mean, p95) in redraw_ms(50 if quick else 300).items():
        print(f"  full redraw 1280x720, {name:13s}: mean {mean:5.2f} ms, p95 {p95:5.2f} ms, "
              f"first {cold:5.2f} ms (after {warm:.0f} ms of start-up loading)   [<= 10 ms]")
    times = sorted(redraws_in_a_game())
    print(f"  redraw after each change during a whole game ({len(times)} redraws): "
          f"mean {statistics.mean(times):.2f} ms, p95 {times[int(len(times) * 0.95) - 1]:.2f} "
          f"ms, max {times[-1]:.2f} ms   [<= 10 ms]")
    frames, kind = frames_to_update(3 if quick else 10)
    print(f"  frames from a card's first whole frame to state and screen updated: "
          f"max {max(frames)}, mean {statistics.mean(frames):.1f} ({kind})   [<= 4]")
    secs, runs = (4, 1) if quick else (15, 3)
    floors: set[int] = set()
    for with_camera, for_cards in ((False, False), (True, False), (True, True)):
        measured = [idle_cpu(secs, with_camera, for_cards=for_cards) for _ in range(runs)]
        what = measured[0][2]
        process = statistics.median(m[0] for m in measured)
        thread = statistics.median(m[1] for m in measured)
        spread = ", ".join(f"{m[0]:.2f}" for m in measured)
        print(f"  idle CPU mid-game, {what}: {process:.2f} % of one core for the process "
              f"(median of {runs} runs of {secs} s: {spread}), {thread:.2f} % for the app's "
              f"loop thread   [<= 2 %]")
        rate = 15 if with_camera else 20
        if rate in floors:
            continue
        floors.add(rate)
        print(f"    for scale, a thread that only sleeps and wakes {rate} times a second "
              f"costs {bare_wakes(secs, rate):.2f} % of one core on this machine")
    for extra, what in (([], "with the synthetic camera"), (["--no-camera"], "without a camera")):
        cpu = demo_idle_cpu(secs, extra)
        if cpu is not None:
            print(f"  idle CPU of a whole companion demo process waiting for players, {what}: "
                  f"{cpu:.2f} % of one core over {secs} s   [<= 2 %]")
    print(f"  peak memory of companion demo (a whole game): {peak_memory_mb([]):.0f} MB   "
          f"[<= 250 MB]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
