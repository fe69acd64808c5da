"""`companion demo` and `companion run`: the table app on any computer, and at the real table.

pygame, the rules engine and the vision code are imported inside the command functions, so
`companion replay` starts fast.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from companion.argtypes import named_path, seconds


def register(subparsers) -> None:
    demo = subparsers.add_parser(
        "demo", help="the table app with a simulated camera, dials and players",
        description="The table app on this computer: a simulated camera, the LED dials and "
                    "buttons drawn on screen, and (with --autoplay) simulated players.")
    demo.add_argument("--autoplay", action="store_true", help="simulated players play a game")
    demo.add_argument("--fast", action="store_true", help="no pauses: play as fast as possible")
    demo.add_argument("--exit-when-over", action="store_true", help="exit 0 when the game ends")
    demo.add_argument("--log", type=named_path, metavar="FILE",
                      help="write the table log here; an unfinished game in FILE is resumed")
    demo.add_argument("--screenshots", type=_screenshots, metavar="DIR",
                      help="save a PNG of each screen the app passes through")
    demo.add_argument("--players", type=int, default=4, metavar="N",
                      help="how many simulated players join (2-6, default 4)")
    demo.add_argument("--seed", type=int, default=None, help="seed for the shuffles")
    demo.add_argument("--size", type=_size, default=(1280, 720),
                      help="window size, e.g. 800x480")
    demo.add_argument("--lang", choices=("en", "ko"), default="en", help="language")
    demo.add_argument("--no-camera", action="store_true",
                      help="no simulated camera: every card is picked on the screen")
    demo.add_argument("--headless", action="store_true",
                      help="no window (SDL dummy video driver)")
    demo.add_argument("--max-steps", type=int, default=200_000,
                      help="give up after this many loop passes (default 200000)")
    demo.add_argument("--names", default=None, metavar="A,B,...",
                      help="players' names by seat, comma-separated (default: seat colours)")
    demo.add_argument("--quit-after", type=seconds, default=None, metavar="SECONDS",
                      help="quit after this many seconds (for measurements)")
    demo.set_defaults(func=cmd_demo)

    run = subparsers.add_parser(
        "run", help="the table app at the real table (camera, GPIO panel, full screen)",
        description="The table app at the real table: the camera from the configuration, the "
                    "GPIO dials and buttons, full screen. Missing devices fall back to the "
                    "screen, with a warning.")
    run.add_argument("--config", type=named_path, metavar="FILE", help="the table's configuration")
    run.add_argument("--quit-after", type=seconds, default=None, metavar="SECONDS",
                     help="quit after this many seconds (for checks)")
    run.add_argument("--size", type=_size, default=None,
                     help="window size instead of full screen")
    run.add_argument("--lang", choices=("en", "ko"), default=None, help="language")
    run.add_argument("--names", default=None, metavar="A,B,...",
                     help="players' names by seat, comma-separated (default: seat colours)")
    run.set_defaults(func=cmd_run)


# ----- shared helpers ---------------------------------------------------------------------

def seat_names(text) -> list[str]:
    """Names by seat from "Ann,Ben" (or a list); seats without a name keep their colour.
    Raises ValueError with a sentence for a bad list."""
    import itertools  # noqa: PLC0415

    from companion.app.controller import SEAT_COLOURS  # noqa: PLC0415
    from companion.events import has_control_character  # noqa: PLC0415

    if text is None:
        return list(SEAT_COLOURS)
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) > len(SEAT_COLOURS):
        raise ValueError(f"there are {len(SEAT_COLOURS)} seats, but {len(names)} names")
    if any(not n for n in names):
        raise ValueError("a name is empty: give one name per seat, separated by commas")
    if bad := next((n for n in names if has_control_character(n)), None):
        raise ValueError(f"{bad!r} cannot be a name: it holds a control character")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"two seats cannot share the name {dupes[0]!r}")
    # A seat without a name keeps its colour, or its number when a player took that colour
    # for a name (names Blue,Red: seat 5, Blue's, is "Seat 5"), numbered again if need be.
    full = list(names)
    for seat, colour in enumerate(SEAT_COLOURS[len(names):], len(names) + 1):
        choices = itertools.chain((colour, f"Seat {seat}"),
                                  (f"Seat {seat} ({k})" for k in itertools.count(2)))
        full.append(next(n for n in choices if n not in full))
    return full


MAX_SIZE = (7680, 4320)  # a window larger than an 8K screen: a typo, and SDL may hang on it


def _size(text: str) -> tuple[int, int]:
    """A window size such as 1280x720 (argparse type: a bad one is refused, status 2)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"the size must look like 1280x720, not {text!r}") from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError(f"the size {text} is too small (at least 320x240)")
    if w > MAX_SIZE[0] or h > MAX_SIZE[1]:
        raise argparse.ArgumentTypeError(
            f"the size {text} is too large (at most {MAX_SIZE[0]}x{MAX_SIZE[1]})")
    return w, h


def _screenshots(text: str) -> Path:
    """A folder for screenshots (argparse type), made now: a file, or a place no folder can
    be made, is refused before the game starts instead of ending it with a traceback."""
    import tempfile  # noqa: PLC0415

    from companion.tablelog import file_in_the_way  # noqa: PLC0415

    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file: give a folder for the pictures")
    if (blocking := file_in_the_way(path)) is not None:
        raise argparse.ArgumentTypeError(f"{str(blocking)!r} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass  # a picture can be written there
    except OSError as err:
        raise argparse.ArgumentTypeError(
            f"cannot save pictures in {text!r}: {err.strerror or err}") from None
    return path


def resume_or_new(path: Path, out=None):
    """For a log FILE: (game, log, notice) to resume an unfinished game, or (None, None, notice)
    when a new game should start in FILE. A finished game is moved aside, never overwritten.
    Raises ValueError with the bad line's number when FILE is not a readable game."""
    from companion.tablelog import TableLog, file_in_the_way, replay_file  # noqa: PLC0415

    if path.is_dir():
        raise ValueError("it is a folder: give a file for the table log")
    if (blocking := file_in_the_way(path)) is not None:
        raise ValueError(f"{str(blocking)!r} is a file, not a folder")
    if not path.exists() or path.stat().st_size == 0:
        _can_write(path)
        return None, None, None
    replay = replay_file(path, torn_tail_ok=True)
    out = out or sys.stderr
    for problem in replay.problems:
        print(f"companion: {path}: {problem}", file=out)
    if replay.error is not None:
        if replay.error.line == 1 and not replay.game.started and _torn_game_line(
                path.read_bytes()):
            # Blank, or its only line (the game's) cut short by a power cut: no game yet.
            return None, None, None
        raise ValueError(f"line {replay.error.line}: {replay.error.message}")
    if replay.game.over:
        return None, None, _move_aside(path)
    return replay.game, TableLog(path), f"resumed the unfinished game in {path}"


def _can_write(path: Path) -> None:
    """ValueError when a log FILE (not there yet, or empty) cannot be written: the first move
    would be refused, and every move after it. Its folders are made, as the first move would
    make them; a file made to try is not left behind, and a file there already is left as it
    is (an empty log, or /dev/null)."""
    there = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
    except OSError as err:
        raise ValueError(f"it cannot be written ({err.strerror or err})") from None
    if not there:
        path.unlink(missing_ok=True)


def _torn_game_line(data: bytes) -> bool:
    """Whether ``data`` is the start of a game line cut short (as the table log writes it),
    or blank, and nothing else: a file of notes given for the log is no such thing, and is
    kept."""
    start = b'{"event":"game"'
    text = data.strip()
    return b"\n" not in text and (text.startswith(start) or start.startswith(text))


def _move_aside(path: Path) -> str:
    """Rename a log holding a finished game to FILE.1, FILE.2, ...: never overwrite a game."""
    n = 1
    while path.with_name(f"{path.name}.{n}").exists():
        n += 1
    aside = path.with_name(f"{path.name}.{n}")
    path.rename(aside)
    return f"{path} held a finished game: moved it to {aside}"


def main_loop(app, pygame, *, fast: bool, exit_when_over: bool, max_steps: int | None,
              fps: int = 30, quit_after: float | None = None, on_pass=None) -> int:
    """Run the app until quit (0), the game is over with exit_when_over (0), quit_after
    seconds of wall time (0), or max_steps (1)."""
    steps = 0
    deadline = time.monotonic() + quit_after if quit_after else None
    app.redraw(force=True)
    while not app.ctl.quit:
        if deadline is not None and time.monotonic() >= deadline:
            return 0
        app.pump_pygame(pygame.event.get())
        app.step()
        if on_pass is not None:
            on_pass()
        steps += 1
        if exit_when_over and app.ctl.phase == "over":
            app.redraw()
            app.ctl.effects = []
            app.redraw(force=True)  # the winners, without the effect over them
            return 0
        if max_steps and steps >= max_steps:
            print(f"companion: stopped after {steps} loop passes without the game ending",
                  file=sys.stderr)
            return 1
        if fast:
            continue
        # Sleep until a button comes (at once) or the next frame is due: an effect runs at
        # `fps`, the camera gives 15 frames a second, and keys and touches wait 50 ms at most.
        if app.ctl.effects:
            app.wait(1 / fps)
        elif app.camera is not None or app.sim is not None:
            app.wait(1 / 15)
        else:
            app.wait(0.05)
    return 0


# SDL's video drivers that draw into memory only: a window there is seen by nobody.
UNSEEN_DRIVERS = ("offscreen", "dummy")


def _open_display(pygame, size, *, fullscreen=False, headless=False):
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if fullscreen else 0
    if fullscreen:
        size = (0, 0)
    display = pygame.display.set_mode(size, flags)
    pygame.display.set_caption("Abraca Who?")
    return display


def _close(device) -> None:
    close = getattr(device, "close", None)
    if close is not None:
        try:
            close()
        except Exception as err:  # closing a device that went away: say so, go on
            print(f"companion: warning: {err}", file=sys.stderr)


def synthetic_camera(clock, seed: int, inputs, *, settle: float = 0.6):
    """The demo's camera: a synthetic camera over the printed mat, read by the real card
    recogniser and reveal tracker. (feed, camera, None) or (None, None, reason)."""
    from companion.app.devices import CameraFeed, card_tracker  # noqa: PLC0415
    from companion.app.screens.assets import assets_dir  # noqa: PLC0415

    cards = assets_dir() / "cards"
    try:
        from vision.synthetic import SyntheticCamera  # noqa: PLC0415

        tracker = card_tracker(cards)
        camera = SyntheticCamera(clock=clock, seed=seed, settle=settle)
    except ImportError as err:
        return None, None, f"card recognition is not installed ({err})"
    except (ValueError, OSError) as err:
        return None, None, f"cannot use the card pictures in {cards}: {err}"
    return CameraFeed(camera, tracker, inputs), camera, None


# ----- demo -------------------------------------------------------------------------------

def cmd_demo(args) -> int:
    import queue  # noqa: PLC0415

    from companion.app.controller import Controller  # noqa: PLC0415
    from companion.app.devices import virtual_panel  # noqa: PLC0415
    from companion.app.loop import App  # noqa: PLC0415
    from companion.app.simplayers import SimPlayers  # noqa: PLC0415
    from companion.engine import Game  # noqa: PLC0415
    from companion.errors import TableError  # noqa: PLC0415
    from companion.tablelog import TableLog, replay_file  # noqa: PLC0415

    size = args.size
    if not 2 <= args.players <= 6:
        print("companion: --players must be 2 to 6", file=sys.stderr)
        return 2
    try:
        names = seat_names(args.names)
    except ValueError as err:
        print(f"companion: --names: {err}", file=sys.stderr)
        return 2
    headless = args.headless or (
        args.fast and args.exit_when_over and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY"))
    game = log = None
    warnings: list[tuple[str, dict]] = []  # (catalogue key, its arguments)
    if args.log is not None:
        try:
            game, log, notice = resume_or_new(args.log)
        except (TableError, ValueError, OSError) as err:
            print(f"companion: cannot use {args.log}: {err}", file=sys.stderr)
            return 2
        if notice:
            print(f"companion: {notice}")
        if game is not None:
            warnings.append(("warn.resumed", {}))
    rng = random.Random(args.seed)
    inputs: queue.Queue = queue.Queue()
    panel = virtual_panel(inputs)

    fast = args.fast
    now = [0.0]

    def clock():
        """Real time; in --fast mode one camera frame (1/15 s) per pass of the loop."""
        if fast:
            now[0] += 1 / 15
            return now[0]
        return time.monotonic()

    camera_clock = (lambda: now[0]) if fast else time.monotonic
    camera_feed = sim_camera = None
    if args.no_camera:
        warnings.append(("warn.no_camera", {}))
    else:
        camera_feed, sim_camera, why = synthetic_camera(camera_clock, rng.randrange(1 << 30),
                                                        inputs, settle=0.3 if fast else 0.6)
        if camera_feed is None:
            print(f"companion: warning: {why}; cards are picked on the screen", file=sys.stderr)
            warnings.append(("warn.no_camera", {}))

    def open_log(event):
        if args.log is None:
            return None
        if args.log.exists() and replay_file(args.log, torn_tail_ok=True).game.started:
            print(f"companion: {_move_aside(args.log)}")  # one game per log file
        # (blank lines, or a first line cut short, hold no game: the new one goes there)
        args.log.parent.mkdir(parents=True, exist_ok=True)
        return TableLog(args.log)

    ctl = Controller(Game, open_log=open_log, game=game, log=log, camera=camera_feed is not None,
                     panel=panel, rng=rng, language=args.lang, effects=True, names=names)
    sim = None
    if args.autoplay:
        sim = SimPlayers(rng, camera=sim_camera)
        sim._want_players = args.players
        if game is not None:
            sim.resume(game.state)  # the table as it lies now

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame  # noqa: PLC0415

    try:
        display = _open_display(pygame, size, headless=headless)
    except pygame.error as err:
        _close(panel)
        print(f"companion: cannot open a window ({err}); without a screen, add --headless",
              file=sys.stderr)
        return 2
    if not headless and pygame.display.get_driver() in UNSEEN_DRIVERS:
        # No desktop to show it on (no DISPLAY): SDL draws into memory, and nobody would see
        # the table or be told why.
        print("companion: warning: no screen to show the table on (no desktop found): it "
              "plays on unseen; run the demo on a desktop, or add --headless to say so",
              file=sys.stderr)
    from companion.app.screens.table import TableScreen  # noqa: PLC0415

    screen = TableScreen(size, panel=panel, warnings=warnings)
    screen.warm(ctl.language)
    app = App(ctl, inputs=inputs, display=display, screen=screen, camera=camera_feed, sim=sim,
              clock=clock, screenshots=args.screenshots, sim_delay=0.0 if fast else 1.2,
              flip=pygame.display.flip, update=pygame.display.update)
    try:
        code = main_loop(app, pygame, fast=fast, exit_when_over=args.exit_when_over,
                         max_steps=args.max_steps if args.exit_when_over else None,
                         quit_after=args.quit_after)
    finally:
        if camera_feed is not None:
            camera_feed.close()
        _close(panel)
        pygame.quit()
    if ctl.phase == "over":
        print("companion: game over, winners: " + ", ".join(ctl.state["winners"]))
    print(f"companion: cards read by the camera: {ctl.cards_read}, "
          f"picked on the screen: {ctl.cards_picked}")
    if args.log is not None and args.log.exists():
        print(f"companion: table log in {args.log}")
    return code


# ----- run --------------------------------------------------------------------------------

def table_config(path: Path | None):
    """The table's settings as a dict (camera, pins, language, names, seats, brightness,
    references), messages for the screen, and the kiosk runtime, which keeps the table log,
    the settings and the history (the file's layout: assets/config.example.toml)."""
    from companion.kiosk.runtime import Kiosk  # noqa: PLC0415

    kiosk = Kiosk.start(path)
    return _settings(kiosk.config), kiosk.take_messages(), kiosk


def _settings(config) -> dict:
    refs = Path(config.state_dir) / "references"
    return {"camera": dict(config.camera), "pins": config.pins, "language": config.language,
            "seats": config.seats, "led_brightness": config.led_brightness,
            "names": list(config.names) if config.names else None,
            "references": refs if refs.is_dir() else None}


def _attract(app, kiosk, size) -> None:
    """After the configured idle time, the kiosk's attract screen (the rules in both languages,
    then the players' statistics) until a press or a card wakes the table."""
    from companion.kiosk.cafe import IdleTimer  # noqa: PLC0415
    from companion.kiosk.statscreen import AttractCycle  # noqa: PLC0415

    after = kiosk.config.attract_after
    if after <= 0:
        return
    screen = AttractCycle(size, kiosk.history, language=app.ctl.language)
    app.idle = IdleTimer(after, started=app.clock())
    app.attract = lambda surface, t, force: screen.draw(surface, t, force=force,
                                                        language=app.ctl.language)


def cmd_run(args) -> int:
    import queue  # noqa: PLC0415

    from companion.app.controller import Controller  # noqa: PLC0415
    from companion.app.devices import (  # noqa: PLC0415
        open_camera,
        open_panel,
        panel_warning,
        virtual_panel,
    )
    from companion.app.loop import App  # noqa: PLC0415
    from companion.engine import Game  # noqa: PLC0415
    from companion.kiosk.runtime import TableBusy  # noqa: PLC0415
    from companion.tablelog import load_game  # noqa: PLC0415

    try:
        cfg, notices, kiosk = table_config(args.config)
    except ValueError as err:
        print(f"companion: cannot read the configuration {args.config}: {err}", file=sys.stderr)
        return 2
    except TableBusy as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    for notice in notices:
        print(f"companion: warning: {notice}", file=sys.stderr)
    try:
        names = seat_names(args.names or cfg["names"])
    except ValueError as err:
        print(f"companion: names: {err}", file=sys.stderr)
        kiosk.stop()
        return 2
    inputs: queue.Queue = queue.Queue()
    warnings: list[tuple[str, dict]] = []
    panel, why = open_panel(inputs, cfg["pins"])
    virtual = panel is None
    if virtual:
        print(f"companion: warning: no GPIO panel ({why}); dials and buttons on screen",
              file=sys.stderr)
        warnings.append(panel_warning(why))
        panel = virtual_panel(inputs)
    camera, why, warning = open_camera(cfg["camera"], inputs, cfg["references"])
    if camera is None:
        print(f"companion: warning: no camera ({why}); cards are picked on the screen",
              file=sys.stderr)
        warnings.append(warning)  # which cards, if they are the trouble
    # The kiosk's session keeps the log, resumes and archives games; the operator menu's
    # choices are kept, and it can switch the table off.
    session = kiosk.session
    game, log = (load_game(session.logged), session) if session.game.started else (None, None)
    lang = args.lang or cfg["language"]
    ctl = Controller(Game, open_log=session.open_log, game=game, log=log,
                     camera=camera is not None, panel=panel,
                     language=lang if lang in ("en", "ko") else "en", names=names,
                     seats_in_use=cfg["seats"], led_brightness=cfg["led_brightness"],
                     keep_settings=kiosk.change_settings,
                     shutdown=lambda: kiosk.shutdown(reboot=False))
    for notice in notices:  # one after another, each press showing the next
        ctl.notice(notice)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame  # noqa: PLC0415

    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") \
            and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
    size = args.size or (1280, 720)
    try:
        try:
            display = _open_display(pygame, size, fullscreen=args.size is None)
        except pygame.error as err:
            print(f"companion: cannot open the screen ({err}); check the display driver "
                  f"(SDL_VIDEODRIVER={os.environ.get('SDL_VIDEODRIVER', '')})", file=sys.stderr)
            return 2
        from companion.app.screens.table import TableScreen  # noqa: PLC0415

        screen = TableScreen(display.get_size(), panel=panel if virtual else None,
                             warnings=warnings)
        screen.warm(ctl.language)
        app = App(ctl, inputs=inputs, display=display, screen=screen, camera=camera,
                  clock=time.monotonic, flip=pygame.display.flip, update=pygame.display.update,
                  say=lambda line: print(f"companion: {line}", file=sys.stderr, flush=True))

        def on_pass():
            kiosk.tick()  # the watchdog, and saving again after a full disk
            for message in kiosk.take_messages():
                print(f"companion: warning: {message}", file=sys.stderr, flush=True)
                ctl.notice(message)

        _attract(app, kiosk, display.get_size())
        app.redraw(force=True)
        kiosk.ready()
        return main_loop(app, pygame, fast=False, exit_when_over=False, max_steps=None,
                         quit_after=args.quit_after, on_pass=on_pass)
    finally:
        if camera is not None:
            camera.close()
        _close(panel)
        kiosk.stop()
        pygame.quit()
