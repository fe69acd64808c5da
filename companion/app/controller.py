"""The flow at the table: turns inputs into rules-engine events, one input at a time.

Pure logic: no screen, no clock, no devices. The controller holds the Game, the part of a
step the players are still building (a guess, a challenge, the cards read so far), and what
the screen should say. Every accepted event is checked, appended to the table log, and only
then applied and shown. A reading the rules refuse changes nothing and asks for the card again.

Phases (`Controller.phase`):
  setup_join   seat buttons join or leave; OK starts when 2 to 6 have joined
  setup_first  a seat button picks the first player; OK picks one at random
  turn         the turn's owner presses their own seat (investigate) or another (duel)
  answer       the challenged player presses their seat (accept) or Back (refuse)
  guess        the investigator announces an identity (seat N = the card of power N, or a
               card from the picker)
  cards        the camera reads the card(s) in slot "a" (and "b" in a duel); the picker
               stands in when the camera is unsure or absent
  confirm      an investigation's card and result are shown; OK applies, Back reads again
  summary      the round's summary; OK goes on
  over         the winners; OK starts a new game with the same seats
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.app.i18n import is_notice, notice_message, refusal
from companion.app.inputs import SEATS, Press, Seen, Taken, Tick, Unsure
from companion.app.operator import (
    BRIGHTNESS_CHOICES,
    MENU_ROWS,
    SEAT_CHOICES,
    Combination,
    OperatorMenu,
    next_choice,
)
from companion.cards import POWER, label_identity

BY_POWER = {p: i for i, p in POWER.items()}

# Default names: the seat colours, which match the dials' colours.
SEAT_COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple")
# The round's and the game's end: screens no press made before them may dismiss, and whose
# effects a press only skips.
MUST_BE_SEEN = ("summary", "over")

EFFECT_SECONDS = {"damage": 0.8, "heal": 0.6, "stones": 1.0, "eliminated": 1.2,
                  "round_end": 1.5, "game_end": 2.0}


@dataclass
class Effect:
    note: dict
    until: float
    start: float = 0.0


@dataclass
class Pending:
    """The step being built before it becomes an engine event."""

    kind: str  # "investigate" | "duel" | "reveal"
    player: str
    target: str | None = None
    guess: str | None = None
    zones: tuple[str, ...] = ()
    cards: dict[str, str] = field(default_factory=dict)  # zone -> identity
    picker: bool = False  # the card picker is open
    read: set[str] = field(default_factory=set)  # zones whose card the camera gave


class Controller:
    """Drives one table. Feed it inputs with `handle`; read `phase`, `message`, `view()`.

    game_factory: makes a fresh Game (the rules engine). open_log: called with the game event
    when a game starts, returns an object with append(event_dict) (e.g. a TableLog). log: the
    log of a game being resumed. camera: False when no camera is attached, so every card is
    asked for with the picker. panel: an object with show(state), told after each change.
    """

    def __init__(self, game_factory: Callable[[], object], *, open_log: Callable | None = None,
                 game=None, log=None, camera: bool = True, panel=None,
                 names: list[str] | None = None, rng: random.Random | None = None,
                 confirm_investigations: bool = True, effects: bool = True,
                 language: str = "en", min_score: float = 0.0, unsure_grace: float = 1.0,
                 seats_in_use: int = SEATS, led_brightness: float = 1.0,
                 keep_settings: Callable[..., str | None] | None = None,
                 shutdown: Callable[[], str | None] | None = None):
        self._factory = game_factory
        self._open_log = open_log
        self.game = game if game is not None else game_factory()
        self.log = log
        self.camera = camera
        self.camera_expected = camera  # a camera was set up (it may still come and go)
        self.panel = panel
        self.names = list(names) if names else list(SEAT_COLOURS)
        self.rng = rng or random.Random()
        self.confirm_investigations = confirm_investigations
        self.effects_on = effects
        self.language = language
        self.min_score = min_score
        self.unsure_grace = unsure_grace  # seconds an unsure reading waits for a sure one
        self._unsure_at: float | None = None
        self.now = 0.0
        self.version = 0
        self.joined: list[int] = []  # seat numbers (1-based), in seat order
        self._join_order: list[int] = []  # the seats as they joined (Back takes the last)
        self.pending: Pending | None = None
        self.message: tuple[str, dict] | None = None
        # Notices waiting for the one shown to be read: (key, args), as self.message.
        self._notices: list[tuple[str, dict]] = []
        self.effects: list[Effect] = []
        self.summary: list[dict] | None = None  # notes of the round that just ended
        self.summary_round = 0
        self.mat: dict[str, tuple[str | None, bool]] = {}  # zone -> (identity, fresh)
        self._unsure_zones: set[str] = set()  # a card lies there that the camera cannot read
        self.quit = False
        self.cards_read = 0  # cards the camera read, and cards picked by hand (for the record)
        self.cards_picked = 0
        self.round_notes: list[dict] = []
        self.listeners: list[Callable[[dict, list[dict]], None]] = []  # told of each event
        # The operator menu (companion.app.operator). keep_settings: the kiosk's
        # change_settings (None: choices apply until the app closes); shutdown: the kiosk's
        # safe shutdown (None: the demo, which only says what it would do).
        self.seats_in_use = seats_in_use
        # No dimmer than the menu offers (a configuration's 0.1): the dials go no lower either
        # (hardware.panel.MIN_BRIGHTNESS), and the menu must say what they show.
        self.led_brightness = max(led_brightness, BRIGHTNESS_CHOICES[0])
        self.keep_settings = keep_settings
        self.shutdown = shutdown
        self.menu: OperatorMenu | None = None
        self.mat_found: bool | None = None  # the camera sees the mat (None: not known)
        self.slots_poor: tuple[str, ...] = ()  # slots where the camera may not read a card
        # How many times the size of a card on the mat the cards in the slots measure, when
        # they do not fit it (a mat printed at another size: none is read); None: they fit.
        self.mat_misfit: float | None = None
        self.out_of_focus = False  # the camera's picture too blurred: cards may go unseen
        self._combo = Combination()
        self._deferred: list = []  # camera readings that came while the menu was open
        self.phase = "setup_join"
        if self.game.expect is None or self.game.expect.get("action") != "game":
            self.joined = self._seats_of_resumed([p["name"] for p in self.game.state["players"]])
            # The cards of the last step logged, where the players left them, used: the app
            # tells the camera's tracker (see ``resumed_cards``), which reports their slot
            # taken if it is empty, and a card laid anew as one.
            self.mat = {z: (label, False) for z, label in _last_cards(self.game).items()
                        if label}
        self._derive()
        problem = self._apply_brightness()  # the kept setting, before the dials first show
        if problem:
            self._say("msg.panel_fault", text=problem)
        self._show()

    # ----- reading ------------------------------------------------------------------------
    @property
    def state(self) -> dict:
        return self.game.state

    @property
    def seat_names(self) -> list[str]:
        """Names by seat in play (index 0 = first seated player)."""
        if self.game.expect and self.game.expect.get("action") != "game":
            return [p["name"] for p in self.game.state["players"]]
        return [self.names[s - 1] for s in self.joined]

    def _seat_of(self, seat: int) -> str | None:
        """The player at a physical seat (its button and dial), or None."""
        return dict(zip(self.joined, self.seat_names, strict=False)).get(seat)

    def seat_for(self, name: str) -> int:
        """The physical seat of a player."""
        return self.joined[self.seat_names.index(name)]

    def _seats_of_resumed(self, names: list[str]) -> list[int]:
        """Seats for a game read back from its log: where the names by seat (or the seat
        colours) put the players, if that keeps them clockwise, else seats 1..n."""
        for by_seat in (self.names, list(SEAT_COLOURS)):
            if all(n in by_seat for n in names):
                seats = [by_seat.index(n) + 1 for n in names]
                if seats == sorted(seats):
                    return seats
        return list(range(1, len(names) + 1))

    def panel_state(self) -> dict:
        """The state laid out by physical seat, empty seats out, up to the last seat taken: a
        table with dials for 3 seats shows a game of 3 (padded to 6, it was refused)."""
        state = dict(self.game.state)
        by_seat = dict(zip(self.joined, state["players"], strict=False))
        last = max(self.joined, default=len(state["players"]))
        state["players"] = [by_seat.get(s, {"name": f"(seat {s})", "health": 0, "stones": 0,
                                            "alive": False}) for s in range(1, last + 1)]
        return state

    # ----- input --------------------------------------------------------------------------
    def handle(self, inp) -> None:
        """Apply one input. Never raises for bad input: it becomes a message."""
        before = self._signature()
        if isinstance(inp, Tick):
            self._tick(inp.now)
            for held in self._combo.flush(inp.now):
                self._press(held)
        elif isinstance(inp, (Seen, Unsure, Taken)):
            if self.menu is not None:
                self._deferred.append(inp)  # the game waits while the menu is open
            else:
                self._camera(inp)
        elif isinstance(inp, Press):
            if self.menu is not None:
                self._menu_press(inp)
            elif inp.kind == "operator":
                self._open_menu()
            else:
                opened, presses = self._combo.feed(inp, self.now)
                for press in presses:
                    self._press(press)
                if opened:
                    self._open_menu()
        if self._signature() != before:
            self.version += 1

    def _signature(self):
        return (self.phase, self.message, len(self.effects), self.language, self.game.event_count,
                repr(self.pending), tuple(self.joined), self.summary is None, self.quit,
                repr(self.menu), self.seats_in_use, self.led_brightness, len(self._deferred))

    def _notice_shown(self) -> bool:
        return self.message is not None and is_notice(self.message[0])

    def _say(self, key: str, **args) -> None:
        if self._notice_shown() and not is_notice(key):
            # A notice not yet read, replaced without a press (the camera, a hand over): it
            # comes back after the next press.
            self._notices.insert(0, self.message)
        self.message = (key, args)

    def _refused(self, err: Exception) -> None:
        """The engine said no: say why in the players' language."""
        key, args = refusal(err)
        self._say(key, **args)

    def _tick(self, now: float) -> None:
        self.now = now
        self.effects = [e for e in self.effects if e.until > now]
        if self._unsure_at is not None and now >= self._unsure_at:
            self._unsure_at = None
            if self.phase == "cards" and self.pending is not None \
                    and self._missing_zone() is not None and not self.pending.picker:
                self.pending.picker = True
                self._say("msg.camera_unsure")

    def _press(self, p: Press) -> None:
        if p.kind == "lang":
            self.language = "ko" if self.language == "en" else "en"
            return
        if p.kind == "quit":
            self.quit = True
            return
        if p.kind == "skip":
            self.effects = []
            return
        if p.kind == "undo":
            self._undo()
            return
        if self.effects and self.phase in MUST_BE_SEEN:
            # The round's or the game's end: a press skips its effects, to show it, and no
            # more (it also dismissed the summary players had not seen).
            self.effects = []
            return
        self.effects = []  # any other press skips a running effect, and still counts
        self.message = None
        handler = getattr(self, "_on_" + self.phase)
        handler(p)
        if self.message is None and self._notices:
            key, args = self._notices.pop(0)
            self._say(key, **args)

    def notice(self, text: str) -> None:
        """A sentence from elsewhere (the kiosk: a bad setting, a log that could not be saved)
        shown like a message: a :class:`~companion.app.i18n.Notice` in the table's language,
        any other text as it is. While one is shown, the next waits for a press: each is
        seen."""
        key, args = notice_message(text)
        self.notice_key(key, **args)

    def notice_key(self, key: str, **args) -> None:
        """A message from the catalogue, from outside the flow. A notice (``msg.notice``,
        ``notice.*``) waits while another is shown, as :meth:`notice`."""
        if is_notice(key) and self._notice_shown():
            self._notices.append((key, args))
        else:
            self._say(key, **args)
        self.version += 1

    def set_mat_found(self, found: bool | None, poor: tuple[str, ...] = (),
                      misfit: float | None = None, *, out_of_focus: bool = False) -> bool:
        """The camera found the mat or lost it (None: not known), for the camera check, the
        slots it sees too much from the side or from too far to read a card there (``poor``),
        how many times a card on the mat the cards in the slots measure when they do not
        fit it (``misfit``: the mat was printed at another size), and whether its picture is
        out of focus (``out_of_focus``). True when that changed."""
        if (found == self.mat_found and poor == self.slots_poor and misfit == self.mat_misfit
                and out_of_focus == self.out_of_focus):
            return False
        self.mat_found, self.slots_poor, self.mat_misfit = found, poor, misfit
        self.out_of_focus = out_of_focus
        self.version += 1
        return True

    def slots_seen(self) -> dict[str, str]:
        """The identity lying in each slot as the camera last read it, counting what it read
        while the operator menu held the game (slot -> identity)."""
        seen = {zone: ident for zone, (ident, _fresh) in self.mat.items() if ident is not None}
        for inp in self._deferred:
            identity = label_identity(inp.label) if isinstance(inp, Seen) \
                and inp.score >= self.min_score else None
            if identity is None:
                seen.pop(inp.zone, None)
            else:
                seen[inp.zone] = identity
        return seen

    def set_camera(self, working: bool) -> None:
        """The camera came or went: without it, cards are picked on the screen."""
        if working == self.camera:
            return
        self.camera = working
        self.version += 1
        if not working and self.phase == "cards" and self.pending is not None:
            self.pending.picker = True

    # ----- the operator menu --------------------------------------------------------------
    def _open_menu(self) -> None:
        self.menu = OperatorMenu()
        self.effects = []
        self._combo.held = None  # a long press waiting for its partner never reaches the game

    def _close_menu(self) -> None:
        self.menu = None
        deferred, self._deferred = self._deferred, []
        for inp in deferred:  # what the camera saw meanwhile, in order
            self._camera(inp)

    def _menu_press(self, p: Press) -> None:
        """A press while the menu is open: it changes settings only, never the game."""
        menu = self.menu
        if p.kind == "quit":
            self.quit = True
            return
        if p.kind == "undo":  # the highlight down a row: every item without seat buttons
            menu.cursor = 0 if menu.cursor is None else (menu.cursor + 1) % MENU_ROWS
            menu.confirming = False
            menu.note = None
            return
        if p.kind == "ok" and not menu.confirming and menu.cursor is not None:
            p = Press("seat", menu.cursor + 1)  # OK does the highlighted item
        if p.kind in ("back", "operator") or (p.kind == "seat" and p.value == MENU_ROWS):
            if menu.confirming:
                menu.confirming = False
                menu.note = ("menu.cancelled", {})
            else:
                self._close_menu()
            return
        menu.confirming = menu.confirming and p.kind == "ok"
        if p.kind == "lang" or (p.kind == "seat" and p.value == 1):
            self._operator_set(language="ko" if self.language == "en" else "en")
        elif p.kind == "seat" and p.value == 2:
            self._operator_set(seats=next_choice(SEAT_CHOICES, self.seats_in_use))
        elif p.kind == "seat" and p.value == 3:
            self._operator_set(led_brightness=next_choice(BRIGHTNESS_CHOICES,
                                                          self.led_brightness))
        elif p.kind == "seat" and p.value == 4:
            menu.note = ("menu.camera_checked", {})
        elif p.kind == "seat" and p.value == 5:
            menu.confirming = True
            menu.note = None
        elif p.kind == "ok" and menu.confirming:
            menu.confirming = False
            self._switch_off()
        else:
            menu.note = ("menu.help", {})

    def _operator_set(self, **changes) -> None:
        """Apply a setting now, and keep it through the kiosk when there is one."""
        self.menu.note = None
        if "language" in changes:
            self.language = changes["language"]
        if "seats" in changes:
            self.seats_in_use = changes["seats"]
            if self.phase in ("setup_join", "setup_first"):
                self._keep_seats_in_use()  # a seat no longer in use cannot join the next game
        if "led_brightness" in changes:
            self.led_brightness = changes["led_brightness"]
            problem = self._apply_brightness()
            if problem:
                self.menu.note = ("msg.panel_fault", {"text": problem})
        if self.keep_settings is not None:
            problem = self.keep_settings(**changes)
            if problem:
                self.menu.note = notice_message(problem)

    def _apply_brightness(self) -> str | None:
        """Give the panel the brightness setting, where it takes one; what went wrong, if
        anything (a panel fault never stops the table)."""
        setter = getattr(self.panel, "set_brightness", None)
        if setter is None:
            return None
        try:
            setter(self.led_brightness)
        except Exception as err:
            return str(err)
        return None

    @property
    def brightness_applies(self) -> bool:
        """The dials follow the brightness setting (False: it is kept, the dials ignore it):
        the panel takes the setting and can dim (its ``dims``, where it says: a 74HC595 chain
        with OE on GND cannot, nor pins without PWM)."""
        if not hasattr(self.panel, "set_brightness"):
            return False
        return bool(getattr(self.panel, "dims", True))

    def _switch_off(self) -> None:
        if self.shutdown is None:
            self.menu.note = ("menu.shutdown_demo", {})
            return
        problem = self.shutdown()
        if problem:
            self.menu.note = notice_message(problem)
        else:
            self.menu.note = ("menu.shutting_down", {})

    # ----- undo ---------------------------------------------------------------------------
    def _undo(self) -> None:
        if self.pending is not None and self.phase in ("cards", "confirm", "answer", "guess") \
                and not self._forced_pending():
            # A step still being built is dropped first: nothing reached the log yet.
            self.pending = None
            self._derive()
            self._say("msg.step_cancelled")
            return
        pend = self.pending
        if pend is not None and self._forced_pending() and (pend.guess or pend.cards):
            # A step the engine demands, begun (an identity announced by mistake): it starts
            # again; the event that demanded it (a refused duel) stays.
            pend.cards.clear()
            pend.read.clear()
            pend.picker = False
            self._consume_mat(pend.zones)
            if pend.kind == "investigate":
                pend.guess = None
                self.phase = "guess"
            else:
                self._enter_cards()
            self._say("msg.step_cancelled")
            return
        if not getattr(self.game, "can_undo", False):
            self._say("rule.game_over" if self.phase == "over" else "msg.nothing_to_undo")
            return
        if self.log is not None:
            try:
                self.log.append({"event": "undo"})
            except OSError as err:
                self._say("msg.log_failed", text=err.strerror or str(err))
                return
        self.game.pop()
        self.effects = []
        self.summary = None
        self.pending = None
        self._consume_mat()
        self._derive()
        self._say("msg.undone")
        self._show()

    def _forced_pending(self) -> bool:
        """A step the engine demands (a refused duel's investigation, a reveal): undo pops."""
        exp = self.game.expect or {}
        return exp.get("action") in ("investigate", "reveal")

    # ----- setup --------------------------------------------------------------------------
    def _on_setup_join(self, p: Press) -> None:
        if p.kind == "seat" and isinstance(p.value, int) and 1 <= p.value <= SEATS:
            if p.value in self.joined:
                self.joined.remove(p.value)
            elif p.value > self.seats_in_use:
                self._say("msg.seat_not_in_use", seat=p.value, seats=self.seats_in_use)
            else:
                self.joined = sorted(self.joined + [p.value])
                self._join_order = [s for s in self._join_order if s != p.value] + [p.value]
        elif p.kind == "ok":
            if len(self.joined) < 2:
                self._say("msg.need_two")
            else:
                self.phase = "setup_first"
        elif p.kind == "back":
            # One seat leaves: the last to join (a press by mistake), else the highest (the
            # players of the last game, kept). A slip of Back never empties the table.
            last = next((s for s in reversed(self._join_order) if s in self.joined),
                        self.joined[-1] if self.joined else None)
            if last is None:
                self._say("msg.nobody_joined")
            else:
                self.joined.remove(last)
                self._say("msg.left", player=self.names[last - 1])
        else:
            self._say("msg.wrong_button")

    def _on_setup_first(self, p: Press) -> None:
        names = self.seat_names
        if p.kind == "seat":
            if p.value not in self.joined:
                self._say("msg.seat_not_joined", seat=p.value)
                return
            first = self.names[p.value - 1]
        elif p.kind == "ok":
            first = self.rng.choice(names)
        elif p.kind == "back":
            self.phase = "setup_join"
            return
        else:
            self._say("msg.wrong_button")
            return
        self._start_game(names, first)

    def _start_game(self, names: list[str], first: str) -> None:
        event = {"event": "game", "players": list(names), "first": first}
        game = self._factory()
        try:
            game.check(event)
        except ValueError as err:
            self._refused(err)
            return
        try:
            if self._open_log is not None:
                self.log = self._open_log(event)
            if self.log is not None:
                self.log.append(event)
        except OSError as err:
            self._say("msg.log_failed", text=err.strerror or str(err))
            return
        self.game = game
        notes = game.push(event)
        self.round_notes = []
        self._after_push(event, notes)

    # ----- a turn -------------------------------------------------------------------------
    def _on_turn(self, p: Press) -> None:
        player = self.game.expect["player"]
        if p.kind != "seat":
            if p.kind in ("ok", "back"):
                self._say("msg.turn_help", player=player)
            else:
                self._say("msg.wrong_button")
            return
        name = self._seat_of(p.value)
        if name is None:
            self._say("msg.no_such_seat", seat=p.value)
            return
        if name == player:
            self.pending = Pending("investigate", player)
            self.phase = "guess"
            return
        alive = {q["name"]: q["alive"] for q in self.state["players"]}
        if not alive[name]:
            self._say("rule.target_out", target=name)
            return
        self.pending = Pending("duel", player, target=name)
        self.phase = "answer"

    def _on_answer(self, p: Press) -> None:
        pend = self.pending
        if p.kind == "seat" and self._seat_of(p.value) == pend.target:
            pend.zones = ("a", "b")
            self._enter_cards()
        elif p.kind == "seat" and self._seat_of(p.value) == pend.player:
            self.pending = None  # the challenger takes the challenge back
            self.phase = "turn"
        elif p.kind == "back":
            self._apply({"event": "duel", "player": pend.player, "target": pend.target,
                         "accepted": False})
        else:
            self._say("msg.answer_help", target=pend.target)

    def _on_guess(self, p: Press) -> None:
        pend = self.pending
        guess = None
        if p.kind == "seat":
            guess = BY_POWER.get(self._power(p))
        elif p.kind == "card" and p.value in POWER:
            guess = p.value
        elif p.kind == "back":
            if not self._forced_pending():
                self.pending = None
                self.phase = "turn"
            else:
                self._say("rule.must_investigate", player=pend.player)
            return
        if guess is None:
            self._say("msg.guess_help" + self._held, player=pend.player)
            return
        pend.guess = guess
        pend.zones = ("a",)
        self._enter_cards()

    @property
    def _few_seat_buttons(self) -> bool:
        """The panel has buttons for 3 seats or fewer (the direct wiring): powers 4 to 6 are
        their buttons held (a long press), as no screen to touch may be there."""
        return getattr(getattr(self.panel, "pinmap", None), "seats", SEATS) <= 3

    @property
    def _held(self) -> str:
        """The catalogue keys' ending that says so, on such a table."""
        return "_held" if self._few_seat_buttons else ""

    def _power(self, p: Press) -> object:
        """The card power a seat button gives when announcing or picking: its number, or
        three more when held on a table of 3 seat buttons."""
        if self._few_seat_buttons and p.long and isinstance(p.value, int) and p.value <= 3:
            return p.value + 3
        return p.value

    # ----- cards --------------------------------------------------------------------------
    def _enter_cards(self) -> None:
        pend = self.pending
        self.phase = "cards"
        for zone in pend.zones:
            label, fresh = self.mat.get(zone, (None, False))
            if fresh and label is not None and zone not in pend.cards:
                pend.cards[zone] = label
                pend.read.add(zone)
        pend.picker = not self.camera
        self._wait_for_unsure()
        self._cards_maybe_done()

    def _wait_for_unsure(self) -> None:
        """A card lying in a slot asked for that the camera cannot read (laid early, or beside
        a card read since): the picker opens after ``unsure_grace`` unless it is read (a card
        still being laid is often unsure for a moment)."""
        pend = self.pending
        if self._unsure_at is None and self.phase == "cards" and any(
                z in self._unsure_zones and z not in pend.cards for z in pend.zones):
            self._unsure_at = self.now + self.unsure_grace

    def _camera(self, inp) -> None:
        if isinstance(inp, Taken):
            self.mat[inp.zone] = (None, False)
            self._unsure_zones.discard(inp.zone)
            self._unread(inp.zone)
            return
        if isinstance(inp, Unsure):
            self.mat[inp.zone] = (None, False)
            self._unsure_zones.add(inp.zone)
            if self.phase == "cards" and inp.zone in self.pending.zones \
                    and inp.zone not in self.pending.cards and self._unsure_at is None:
                # A card still being laid is often unsure for a moment: ask for it only if
                # no reading follows soon.
                self._unsure_at = self.now + self.unsure_grace
            return
        identity = label_identity(inp.label)
        if identity is None or inp.score < self.min_score:
            self._camera(Unsure(inp.zone))
            return
        self._unsure_zones.discard(inp.zone)
        if self.mat.get(inp.zone) == (identity, False):
            return  # the same card still lying there, already used: wait for it to be taken
        self.mat[inp.zone] = (identity, True)
        self._unsure_at = None
        self._wait_for_unsure()  # for another slot's card, still unread
        pend = self.pending
        if self.phase in ("cards", "confirm") and inp.zone in pend.zones and (
                inp.zone not in pend.cards or inp.zone in pend.read):
            # A card read for this step, or read again otherwise (laid anew, or the camera
            # sees it better now): the step takes the card that lies there.
            changed = pend.cards.get(inp.zone) != identity
            pend.cards[inp.zone] = identity
            pend.read.add(inp.zone)
            self.cards_read += 1
            self._refill(pend)
            if self.phase == "confirm" and not changed:
                return  # the card shown, read again: still to confirm
            self.phase = "cards"
            self._cards_maybe_done()

    def _refill(self, pend: Pending) -> None:
        """The step's other slots from the cards lying there unused: after a refusal that
        could not tell which of two alike cards was wrong, the one not laid anew."""
        for zone in pend.zones:
            label, fresh = self.mat.get(zone, (None, False))
            if zone not in pend.cards and fresh and label is not None:
                pend.cards[zone] = label
                pend.read.add(zone)

    def _unread(self, zone: str) -> None:
        """The card the camera gave for this step in ``zone`` was taken away before the step
        had all its cards: the step waits for the card laid in its place (one picked by hand
        stays picked). On the confirm screen the card stays (put on the revealed pile before
        OK); another card read there replaces it."""
        pend = self.pending
        if self.phase == "cards" and pend is not None and zone in pend.read:
            pend.cards.pop(zone, None)
            pend.read.discard(zone)

    def _missing_zone(self) -> str | None:
        for zone in self.pending.zones:
            if zone not in self.pending.cards:
                return zone
        return None

    def _on_cards(self, p: Press) -> None:
        pend = self.pending
        zone = self._missing_zone()
        identity = None
        if p.kind == "card" and p.value in POWER:
            identity = p.value
        elif p.kind == "seat" and pend.picker:
            identity = BY_POWER.get(self._power(p))
        elif p.kind == "ok" and zone is None:
            self._cards_maybe_done()  # every card in: the table log failed, so try again
            return
        elif p.kind == "ok" and not pend.picker:
            pend.picker = True  # "the camera does not see it": open the picker
            return
        elif p.kind == "back":
            if pend.cards:
                pend.cards.clear()
                pend.read.clear()
                self._consume_mat(pend.zones)
            elif pend.kind == "investigate":
                pend.guess = None
                self.phase = "guess"
            elif pend.kind == "duel":
                self.phase = "answer"
            else:  # a reveal owed: nothing to go back to, so say what is asked
                self._say("msg.cards_help")
            return
        if identity is None or zone is None:
            self._say("msg.cards_help")
            return
        pend.cards[zone] = identity
        self.cards_picked += 1
        self._cards_maybe_done()

    def _cards_maybe_done(self) -> None:
        pend = self.pending
        if self._missing_zone() is not None:
            return
        event = self._event()
        try:
            notes = self.game.check(event)
        except ValueError as err:  # card counting (ruling 11) among others: ask again
            self._refused(err)
            self._ask_again(err)
            return
        if pend.kind == "investigate" and self.confirm_investigations:
            self.phase = "confirm"
            return
        if any(note["kind"] == "game_end" for note in notes):
            # The game's last event cannot be taken back: the table confirms the cards first.
            self.phase = "confirm"
            return
        self._apply(event)

    def _ask_again(self, err: Exception) -> None:
        """After a refused step, the cards to lay (or pick) again: those of the card the
        refusal is about (a third Vampire; both, for two Ghosts), each used up where it
        lies; every card when it names none. The others stay read: the camera would not
        give a card still lying there again."""
        pend = self.pending
        suspect = getattr(err, "params", {}).get("card")
        if suspect is None and getattr(err, "code", None) == "one_ghost":
            suspect = "ghost"
        wrong = [z for z, card in pend.cards.items() if suspect in (None, card)] or \
            list(pend.cards)
        for zone in wrong:
            del pend.cards[zone]
            pend.read.discard(zone)
            if zone in self.mat and len(wrong) == 1:
                # The card at fault, used up where it lies; of two alike (which is wrong?),
                # the one not laid anew counts again with the other (see _refill).
                self.mat[zone] = (self.mat[zone][0], False)

    def _event(self) -> dict:
        pend = self.pending
        if pend.kind == "investigate":
            return {"event": "investigate", "player": pend.player, "card": pend.cards["a"],
                    "guess": pend.guess}
        if pend.kind == "duel":
            return {"event": "duel", "player": pend.player, "target": pend.target,
                    "accepted": True,
                    "cards": {pend.player: pend.cards["a"], pend.target: pend.cards["b"]}}
        return {"event": "reveal", "player": pend.player, "card": pend.cards["a"]}

    def _on_confirm(self, p: Press) -> None:
        if p.kind == "ok":
            self._apply(self._event())
        elif p.kind == "back":
            self.pending.cards.clear()
            self.pending.read.clear()
            self._consume_mat(self.pending.zones)
            self.phase = "cards"
        else:
            self._say("msg.confirm_help")

    # ----- summary and end ----------------------------------------------------------------
    def _on_summary(self, p: Press) -> None:
        if p.kind == "ok":
            self.summary = None
            self._derive()
        else:
            self._say("msg.ok_to_go_on")

    def _keep_seats_in_use(self) -> None:
        """Seats above the seats in use leave the players joined, who join again (the join
        screen) when that took anyone away."""
        kept = [s for s in self.joined if s <= self.seats_in_use]
        if kept != self.joined:
            self.joined = kept
            self.phase = "setup_join"

    def _on_over(self, p: Press) -> None:
        if p.kind == "ok":
            self.log = None
            self.game = self._factory()
            self.summary = None
            self.phase = "setup_first"
            self._join_order = []  # the last game's players, kept: Back takes the highest first
            self._keep_seats_in_use()  # seats in use lowered during the game: from now on
            self._show()
        else:
            self._say("msg.ok_new_game")

    # ----- applying -----------------------------------------------------------------------
    def _apply(self, event: dict) -> None:
        try:
            self.game.check(event)
        except ValueError as err:
            self._refused(err)
            return
        if self.log is not None:
            try:
                self.log.append(event)  # on disk before the result is shown
            except OSError as err:
                self._say("msg.log_failed", text=err.strerror or str(err))
                return
        notes = self.game.push(event)
        self._after_push(event, notes)

    def _after_push(self, event: dict, notes: list[dict]) -> None:
        self._unsure_at = None
        for listener in self.listeners:
            listener(event, notes)
        used = self.pending.zones if self.pending is not None else ()
        self.pending = None
        self._consume_mat(used)
        ended = None
        for note in notes:
            kind = note.get("kind")
            if kind == "round_start":
                self.round_notes = []
            else:
                self.round_notes.append(note)
            if kind == "round_end":
                ended = list(self.round_notes)
            if self.effects_on and kind in EFFECT_SECONDS:
                start = max([self.now] + [e.until for e in self.effects])  # one after another
                self.effects.append(Effect(note, start + EFFECT_SECONDS[kind], start))
        if ended is not None and not self.state["over"]:
            self.summary = ended
            self.summary_round = next(n.get("round", 0) for n in reversed(ended)
                                      if n.get("kind") == "round_end")
        self._derive()
        self._show()  # the new state first: showing a state ends a celebration
        for note in notes:
            self._celebrate(note)

    def _celebrate(self, note: dict) -> None:
        """Round end and winners on the dials, where the panel can show them."""
        kind = note.get("kind")
        try:
            if kind == "round_end" and hasattr(self.panel, "celebrate_round_end"):
                self.panel.celebrate_round_end()
            elif kind == "game_end" and hasattr(self.panel, "celebrate_winners"):
                self.panel.celebrate_winners([self.seat_for(w) - 1
                                              for w in note.get("winners", [])])
        except Exception as err:  # a panel fault never stops the game
            self._say("msg.panel_fault", text=str(err))

    def _consume_mat(self, used: tuple[str, ...] = ()) -> None:
        """Every card lying in the slots used; an unread card in the ``used`` slots (picked by
        hand) asks for nothing more. One laid early elsewhere still waits for its pick."""
        self.mat = {z: (label, False) for z, (label, _f) in self.mat.items()}
        self._unsure_zones -= set(used)

    @property
    def resumed_cards(self) -> dict[str, str]:
        """The cards the table takes to lie in the slots, used, as it starts: for the camera's
        tracker to assume (a card still lying there gives no reading; an empty slot, a
        taken one)."""
        return {z: label for z, (label, fresh) in self.mat.items() if label and not fresh}

    def _derive(self) -> None:
        """The phase from the engine's expect (and the round summary waiting for OK)."""
        exp = self.game.expect
        if exp is None:
            self.phase = "over"
            self.pending = None
            return
        action = exp.get("action")
        if action == "game":
            if self.phase not in ("setup_join", "setup_first"):
                self.phase = "setup_join"
            return
        if self.summary is not None:
            self.phase = "summary"
            return
        if action == "turn":
            self.pending = None
            self.phase = "turn"
        elif action == "investigate":
            self.pending = Pending("investigate", exp["player"])
            self.phase = "guess"
        elif action == "reveal":
            self.pending = Pending("reveal", exp["players"][0], zones=("a",))
            self._enter_cards()

    def _show(self) -> None:
        """The dials: the game (its final state once it is over), or dark while the players
        take their seats."""
        if self.panel is None:
            return
        expect = self.game.expect
        try:
            if self.game.state["over"] or (expect and expect.get("action") != "game"):
                self.panel.show(self.panel_state())
            elif hasattr(self.panel, "blank"):
                self.panel.blank()
        except Exception as err:  # a panel fault never stops the game
            self._say("msg.panel_fault", text=str(err))

    # ----- for the screen -----------------------------------------------------------------
    def prompt(self) -> tuple[str, dict]:
        """What must happen next, as a catalogue key and its arguments."""
        pend = self.pending
        if self.phase == "setup_join":
            return "prompt.setup_join", {"count": len(self.joined)}
        if self.phase == "setup_first":
            return "prompt.setup_first", {}
        if self.phase == "turn":
            return "prompt.turn", {"player": self.game.expect["player"]}
        if self.phase == "answer":
            return "prompt.answer", {"player": pend.player, "target": pend.target}
        if self.phase == "guess":
            if self._forced_pending():
                return "prompt.guess_refused" + self._held, {"player": pend.player}
            return "prompt.guess" + self._held, {"player": pend.player}
        if self.phase == "cards":
            zone = self._missing_zone()
            who = pend.player if zone == "a" else pend.target
            if pend.kind == "duel" and not pend.cards and not pend.picker:
                return "prompt.lay_duel", {"player": pend.player, "target": pend.target}
            key = "prompt.pick" if pend.picker else "prompt.lay"
            if pend.kind == "reveal":
                key += "_reveal"
            if pend.picker:
                key += self._held
            return key, {"player": who, "zone": (zone or "a").upper()}
        if self.phase == "confirm":
            card, guess = pend.cards["a"], pend.guess
            if pend.kind == "duel":
                return "prompt.confirm_duel", {"player": pend.player, "target": pend.target,
                                               "pcard": card, "tcard": pend.cards["b"]}
            if pend.kind == "reveal":
                return "prompt.confirm_reveal", {"player": pend.player, "card": card}
            key = "prompt.confirm_right" if card == guess else "prompt.confirm_wrong"
            return key, {"player": pend.player, "card": card, "guess": guess}
        if self.phase == "summary":
            return "prompt.summary", {"round": self.summary_round}
        if self.phase == "over":
            return "prompt.over", {"winners": self.state.get("winners", [])}
        return "prompt.wait", {}


def _last_cards(game) -> dict[str, str]:
    """Zone -> identity of the cards of the last step logged (a duel's two, a reveal's or an
    investigation's one, in slot A), where the players left them."""
    for event in reversed(getattr(game, "events", [])):
        kind = event.get("event")
        if kind == "duel" and event.get("accepted"):
            cards = event.get("cards", {})
            return {"a": cards.get(event["player"]), "b": cards.get(event["target"])}
        if kind in ("reveal", "investigate"):
            return {"a": event.get("card")}
        if kind in ("duel", "game"):
            return {}
    return {}
