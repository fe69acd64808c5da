"""The main loop: one thread drains the input queue into the controller and redraws on change.

Devices put inputs on `App.inputs` (a queue.Queue) from any thread; only this loop reads it.
The clock is passed in, so tests and the headless demo run as fast as the machine allows.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from pathlib import Path

from companion.app.controller import MUST_BE_SEEN
from companion.app.i18n import button_name
from companion.app.inputs import (
    Press,
    Stuck,
    Tick,
    from_button,
    from_key,
    from_stuck,
    is_press,
    is_stuck,
)

# The camera is read on every pass while the table waits for cards, and for a while after
# anything moved on the mat; otherwise a few times a second is enough (a card laid early is
# noticed within a third of a second, then watched closely again).
CARD_PHASES = ("cards",)
QUIET_LOOK_EVERY = 1 / 3
MOVEMENT_WATCH = 2.0


class App:
    """Glue: input queue -> controller -> panel and screen.

    display: a pygame surface to draw on (None: no screen); screen: a TableScreen for it.
    camera: a CameraFeed or None. sim: a SimPlayers playing for everyone, or None.
    clock: a function giving seconds. screenshots: a folder to save one PNG per screen.
    say: where a line for the staff goes (the journal at a real table), or None: what the
    camera says of the mat and the slots, each time that changes, and a button held down or
    stuck (also told on the screen).
    """

    def __init__(self, ctl, *, inputs: queue.Queue | None = None, display=None, screen=None,
                 camera=None, sim=None, clock: Callable[[], float], screenshots: Path | None = None,
                 sim_delay: float = 0.0, flip: Callable[[], None] | None = None,
                 update: Callable[[list], None] | None = None,
                 say: Callable[[str], None] | None = None):
        self.ctl = ctl
        self.inputs = inputs if inputs is not None else queue.Queue()
        self.display = display
        self.screen = screen
        self.camera = camera
        self.sim = sim
        self.clock = clock
        self.screenshots = screenshots
        self.sim_delay = sim_delay
        self.flip = flip
        self.update = update  # shows parts of the screen (pygame.display.update)
        self.say = say
        self.light_redraws = 0
        self.drawn_version = -1
        self.redraws = 0
        self.shots: dict[str, Path] = {}
        self._next_sim = 0.0
        self._next_look = 0.0  # when a quiet table's camera is read next
        self._watch_until = 0.0  # read the camera on every pass until then (something moved)
        self.looks = 0  # camera reads so far
        self._fault_said = ""  # the last fault told: each kind once in a row, again at 10, 100...
        self._refusal_said = False  # a camera setting refused as the camera opened, told once
        self._drawn_lights = None
        self._now = 0.0
        self.idle = None  # an IdleTimer: after a while without players, the attract screen
        self.attract = None  # draws it: attract(surface, seconds_shown, force) -> bool
        self.attracting: float | None = None  # when the attract screen came up
        if sim is not None:
            ctl.listeners.append(lambda event, notes: self._sim_follow(event, notes))
        assume = getattr(getattr(camera, "tracker", None), "assume", None)
        for zone, label in getattr(ctl, "resumed_cards", {}).items() if assume else ():
            try:
                assume(zone, label)  # left there from before a restart: used already
            except ValueError:
                pass  # a tracker without that slot

    def _sim_follow(self, event, notes):
        players = [p["name"] for p in self.ctl.state["players"]]
        if event.get("event") == "game":
            self.sim.deal(players)
            notes = [n for n in notes if n.get("kind") != "round_start"]
        self.sim.follow(notes, players, event)
        self.sim.pick_up()

    # ----- one pass -----------------------------------------------------------------------
    def pump_pygame(self, events) -> None:
        """Keyboard, mouse and touch events from pygame onto the input queue."""
        import pygame  # noqa: PLC0415

        for ev in events:
            if self.sim is not None and ev.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN,
                                                    pygame.FINGERDOWN):
                self.sim = None  # a person takes the table over from the simulated players
                self.ctl.notice_key("msg.hand_over")
                continue
            if ev.type == pygame.QUIT:
                self.inputs.put(Press("quit"))
            elif ev.type == pygame.KEYDOWN:
                press = from_key(pygame.key.name(ev.key))
                if press is not None:
                    self.inputs.put(press)
            elif ev.type == pygame.MOUSEBUTTONDOWN and self.screen is not None:
                press = self.screen.hit(ev.pos)
                if press is not None:
                    self.inputs.put(press)
            elif ev.type == pygame.FINGERDOWN and self.screen is not None and self.display:
                w, h = self.display.get_size()
                press = self.screen.hit((int(ev.x * w), int(ev.y * h)))
                if press is not None:
                    self.inputs.put(press)

    def drain(self) -> int:
        n = 0
        dropping = False  # presses made before the screen showed a round's or game's end
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                return n
            n += 1
            if dropping and is_press(item) and getattr(item, "kind", None) != "quit":
                continue  # a second OK pressed at once would dismiss what was never seen
            before = self.ctl.phase
            self._dispatch(item)
            # Also once the game has begun: two players pressing "who starts" at once made the
            # first to start and the second a challenge to them, before either saw the turn.
            dropping = dropping or (self.ctl.phase != before and (
                self.ctl.phase in MUST_BE_SEEN or before == "setup_first"))

    def _dispatch(self, item) -> None:
        if is_stuck(item):  # no player's doing: it neither wakes the table nor acts
            stuck = from_stuck(item)
            if stuck is not None:  # (a button the app does not know: nothing to tell)
                self._stuck(stuck)
            return
        if is_press(item) and not isinstance(item, Press):
            item = from_button(item)  # a hardware ButtonEvent
            if item is None:
                return
        if self.idle is not None and not isinstance(item, Tick):
            self.idle.activity(self._now)
            if self.attracting is not None:
                self.attracting = None  # the table wakes up; a press only wakes it
                self.drawn_version = -1
                if isinstance(item, Press):
                    return
        self.ctl.handle(item)

    def _stuck(self, stuck: Stuck) -> None:
        """A button held down or stuck: the screen names it, the journal says where it is."""
        if self.say is not None:
            where = f" ({stuck.where})" if stuck.where else ""
            since = (f"has been held down for {stuck.seconds:g} s" if stuck.seconds
                     else "read pressed when the table started")
            self.say(f"warning: {button_name('en', stuck.button)}{where} {since}: held down, "
                     "jammed, or its wire shorted to GND. It gives no press until it comes up; "
                     "check it (companion hw-test, docs/wiring.md)")
        self.ctl.notice_key("notice.button_stuck", button=stuck.button)

    def wait(self, timeout: float) -> None:
        """Sleep until an input arrives on the queue or timeout seconds pass (idle)."""
        try:
            item = self.inputs.get(timeout=timeout)
        except queue.Empty:
            return
        self._dispatch(item)

    def step(self) -> bool:
        """One pass of the loop. Returns True if the screen was redrawn."""
        now = self.clock()
        self._now = now
        if self.camera is not None and (self.ctl.phase in CARD_PHASES
                                        or now >= self._next_look or now < self._watch_until):
            self._look(now)
        self.drain()
        self.ctl.handle(Tick(now))
        shown = self.display is None or self.drawn_version == self.ctl.version
        if self.sim is not None and now >= self._next_sim and not self.ctl.effects \
                and self.inputs.empty() and shown:
            for inp in self.sim.next_input(self.ctl):
                self.inputs.put(inp)
            self._next_sim = now + self.sim_delay
            self.drain()
        if self.idle is not None and self.attracting is None and self.idle.poll(now) \
                and self.sim is None:
            self.attracting = now
            self.drawn_version = -1
        return self.redraw()

    def _look(self, now: float) -> None:
        """Read the camera once; anything seen moving keeps it read on every pass a while."""
        tracker = getattr(self.camera, "tracker", None)
        examined = getattr(tracker, "examined", None)
        faults = getattr(self.camera, "faults", 0)
        queued = self.camera.poll()
        self.looks += 1
        count = getattr(self.camera, "faults", 0)
        if count > faults and self.say is not None and (self.camera.fault != self._fault_said
                                                        or _power_of_ten(count)):
            self._fault_said = self.camera.fault
            self.say(f"camera: a picture could not be read and was skipped ({self.camera.fault}; "
                     f"{count} so far)")
        if queued or getattr(tracker, "examined", None) != examined:
            self._watch_until = now + MOVEMENT_WATCH
        self._next_look = now + QUIET_LOOK_EVERY
        self.ctl.set_camera(self.camera.working)
        if not self._refusal_said:
            refusal = getattr(getattr(self.camera, "source", None), "refusal", None)
            if refusal is not None:
                # Said in the table's language, not only as a camera that does not answer.
                self._refusal_said = True
                self.ctl.notice_key("notice.camera_refused", why=refusal)
        if tracker is not None and hasattr(tracker, "mat"):
            # For the operator's camera check, and a warning while the mat is not seen or a
            # slot may go unread. Not known until the tracker has looked at a frame.
            looked = getattr(tracker, "examined", 1) > 0
            sees = getattr(tracker, "sees_mat", tracker.mat is not None)
            changed = self.ctl.set_mat_found(
                sees if looked else None, tuple(getattr(tracker, "slots_poor", ())),
                getattr(tracker, "misfit", None),
                out_of_focus=bool(getattr(tracker, "out_of_focus", False)))
            if changed and self.say is not None and getattr(tracker, "message", None):
                self.say(f"camera: {tracker.message}")

    def _lights(self):
        """What the virtual panel's lights look like, or just how often they changed when the
        panel counts that (cheaper than reading every candle on each pass): the screen follows
        the dials' own animations."""
        panel = getattr(self.screen, "panel", None)
        if panel is None:
            return None
        changes = getattr(panel, "changes", None)
        if isinstance(changes, int):
            return changes
        if not hasattr(panel, "led_states"):
            return None
        try:
            return tuple(tuple(row) for row in panel.led_states())
        except Exception:
            return None

    def redraw(self, force: bool = False) -> bool:
        if self.display is None or self.screen is None:
            return False
        if self.attracting is not None and self.attract is not None:
            drawn = self.attract(self.display, self._now - self.attracting,
                                 force or self.drawn_version == -1)
            self.drawn_version = self.ctl.version
            if drawn and self.flip is not None:
                self.flip()
            return bool(drawn)
        lights = self._lights()
        animating = bool(self.ctl.effects)
        if not force and not animating and self.ctl.version == self.drawn_version:
            if lights == self._drawn_lights or self.ctl.menu is not None:
                return False  # (the dials under an open menu wait until it closes)
            # Only the virtual dials moved (a blinking turn): redraw just their lights.
            self._drawn_lights = lights
            areas = self.screen.draw_lights(self.display, self.ctl)
            if areas and self.update is not None:
                self.update(areas)
            elif self.flip is not None:
                self.flip()
            self.light_redraws += 1
            return True
        self._drawn_lights = lights
        self.screen.draw(self.display, self.ctl)
        self.drawn_version = self.ctl.version
        self.redraws += 1
        if self.flip is not None:
            self.flip()
        self._screenshot()
        return True

    def _screenshot(self) -> None:
        if self.screenshots is None:
            return
        ctl = self.ctl
        name = ctl.phase
        if ctl.phase == "cards" and ctl.pending is not None:
            name += "-picker" if ctl.pending.picker else "-camera"
            name += "-" + ctl.pending.kind
        if ctl.effects:
            name = "effect-" + ctl.effects[0].note.get("kind", "")
        if ctl.message:
            name += "-message"
        if getattr(ctl, "menu", None) is not None:
            name = "operator"
        name += "-" + ctl.language
        if name in self.shots:
            return
        import pygame  # noqa: PLC0415

        self.screenshots.mkdir(parents=True, exist_ok=True)
        path = self.screenshots / f"{len(self.shots) + 1:03d}-{name}.png"
        pygame.image.save(self.display, str(path))
        self.shots[name] = path


def _power_of_ten(n: int) -> bool:
    """10, 100, 1000...: when a fault that keeps coming is told again."""
    return n >= 10 and str(n).rstrip("0") == "1"
