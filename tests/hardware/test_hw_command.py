"""`companion hw-test`: the mock walk passes, and it names what is wrong when something is."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest
from gpiozero import Device
from hw_helpers import drain

from companion.cli import main
from hardware.config import direct_pinmap
from hardware.hwtest import walk
from hardware.panel import virtual_panel


def test_mock_walk_passes(capsys):
    assert main(["hw-test", "--mock"]) == 0
    out = capsys.readouterr().out
    assert "Seat 6, candle 5" in out and "chain output 29: chip 4, Q5" in out
    assert "Candles: 30 of 30 lit as named." in out
    assert "Buttons: 9 of 9 work; long press works." in out
    assert out.rstrip().endswith("All is well.")


def test_mock_walk_passes_for_the_direct_example(capsys):
    assert main(["hw-test", "--mock", "--pins", "hardware/pins-direct.example.toml"]) == 0
    out = capsys.readouterr().out
    assert "Seat 1, candle 1     (GPIO 4, header pin 7): lit" in out
    assert "Candles: 15 of 15 lit as named." in out and "Buttons: 6 of 6 work" in out


def test_bad_pin_map_is_named_and_touches_nothing(tmp_path, capsys):
    bad = tmp_path / "pins.toml"
    text = open("hardware/pins.example.toml").read().replace("undo = 21", "undo = 16")
    bad.write_text(text)
    assert main(["hw-test", "--mock", "--pins", str(bad)]) == 2
    out = capsys.readouterr().out
    assert out.startswith("Pin map problem: ")
    assert "buttons.undo: GPIO 16 is used twice: already by buttons.ok" in out
    assert "Candles" not in out


def test_no_gpio_on_this_machine(monkeypatch, capsys):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    assert main(["hw-test"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Cannot reach the pins: no GPIO pins found on this machine")
    assert "--mock" in out
    assert "gpiozero" not in out and "factory" not in out  # the library's words, not staff's


def test_real_walk_with_nobody_there(capsys):
    # GPIOZERO_PIN_FACTORY=mock (set for every hardware test): "real" pins nobody presses
    assert main(["hw-test", "--led-seconds", "0", "--button-seconds", "0.02",
                 "--pins", "hardware/pins-direct.example.toml"]) == 1
    out = capsys.readouterr().out
    assert "Candles: not confirmed (no one answered)." in out
    assert "NO PRESS within 0.02 s" in out and "Buttons: 0 of 6 work" in out
    assert "Something needs a look" in out


class Miswired:
    """A virtual panel with wiring faults: candles swapped, buttons crossed, a bouncy one."""

    def __init__(self, panel, *, swap_candles=None, cross=None, bouncy=None):
        self._panel = panel
        self.pinmap = panel.pinmap
        self.buttons = panel.buttons  # read as the panel's (a button down before it is asked)
        self.swap_candles, self.cross, self.bouncy = swap_candles, cross or {}, bouncy

    def show_levels(self, levels):
        self._panel.show_levels(levels)

    def led_states(self):
        rows = [list(r) for r in self._panel.led_states()]
        if self.swap_candles:
            (s1, c1), (s2, c2) = self.swap_candles
            rows[s1][c1], rows[s2][c2] = rows[s2][c2], rows[s1][c1]
        return tuple(tuple(r) for r in rows)

    def press(self, name, *, long=False):
        self._panel.press(self.cross.get(name, name), long=long)
        if name == self.bouncy:
            self._panel.events.put(self._panel.events.get(timeout=2))
            time.sleep(0.04)  # longer than the bounce time: a second press, not bounce
            self._panel.press(name, long=long)


def run_walk(fake, events):
    out = io.StringIO()
    ok = walk(fake, events, out=out, mock=True)
    return ok, out.getvalue()


def test_walk_names_swapped_candles(events, panels):
    panel = virtual_panel(direct_pinmap(), events=events, animate=False)
    panels.append(panel)
    ok, out = run_walk(Miswired(panel, swap_candles=((0, 1), (2, 4))), events)
    assert not ok
    assert "Seat 1, candle 2     (GPIO 17, header pin 11): WRONG: lit seat 3 candle 5" in out
    assert "Candles: 13 of 15 lit as named." in out
    assert "Buttons: 6 of 6 work" in out


def test_walk_names_crossed_and_bouncy_buttons(events, panels):
    panel = virtual_panel(direct_pinmap(), events=events, animate=False)
    panels.append(panel)
    fake = Miswired(panel, cross={"back": "undo"}, bouncy="seat2")
    ok, out = run_walk(fake, events)
    assert not ok
    assert "WRONG: that was Undo; are the wires of Back and Undo swapped?" in out
    assert "BOUNCY: one press gave 2" in out
    assert "Buttons: 4 of 6 work; long press works." in out
    assert drain(events) == []


def test_a_second_press_of_a_button_throws_off_no_later_button(events, panels):
    """A person pressing Seat 1 twice, to be sure: the second press answered the question
    for Seat 2, and every button after it read WRONG (1 of 9 working). So did a stray press
    made before a question was asked."""
    panel = virtual_panel(direct_pinmap(), events=events, animate=False)
    panels.append(panel)

    class Twice(Miswired):
        def show_levels(self, levels):
            super().show_levels(levels)
            if self._asked == ["seat1"]:  # someone's elbow while the next question is set up
                self._panel.press("back")
                time.sleep(0.1)  # its event is in before the question is asked

        def press(self, name, *, long=False):
            if name == "seat2":  # and again just after Seat 2 is asked, before it is pressed
                self._panel.press("seat1")
                time.sleep(0.05)
            self._asked.append(name)
            super().press(name, long=long)

    Twice._asked = []

    ok, out = run_walk(Twice(panel), events)
    assert "Buttons: 6 of 6 work; long press works." in out and "WRONG" not in out
    assert ok


def test_command_line_stays_light():
    code = ("import sys, companion.cli as c; c.build_parser(); "
            "print('gpiozero' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


def test_help_lists_the_command(capsys):
    with pytest.raises(SystemExit):
        main(["hw-test", "--help"])
    assert "--mock" in capsys.readouterr().out


def test_pins_held_by_another_program(capsys):
    from gpiozero import LED

    holder = LED(17)  # on gpiozero's default factory, which the real walk uses too
    try:
        assert main(["hw-test", "--button-seconds", "0.01"]) == 1
    finally:
        holder.close()
    out = capsys.readouterr().out
    assert out.startswith("Cannot use the pins: pin GPIO17 is already in use")
    assert "Stop it and try again." in out


@pytest.mark.parametrize(("option", "least"), [("--led-seconds", "0 or more"),
                                               ("--button-seconds", "above 0")])
@pytest.mark.parametrize("value", ["-1", "nan", "inf", "1e308", "soon"])
def test_times_that_cannot_work_are_refused_before_the_walk(capsys, option, least, value):
    """--button-seconds -1, inf or 1e308 ended in a traceback once a button was awaited."""
    with pytest.raises(SystemExit) as exited:
        main(["hw-test", "--mock", option, value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"{option}: {value!r} is not a number of seconds {least} and up to 3600" in err
    with pytest.raises(SystemExit):
        main(["hw-test", "--mock", "--button-seconds", "0"])  # no time to press at all
