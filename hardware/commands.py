"""The hardware's commands for the `companion` command line. gpiozero is imported only when a
command runs, so the command line starts fast."""

from __future__ import annotations

from companion.argtypes import named_path, seconds


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "hw-test",
        help="check the LED dials and buttons, one by one",
        description="Light each candle of every dial in turn and name it, then ask for each "
                    "button and name it, and say what works. With --mock the same walk runs "
                    "on the virtual panel and presses the buttons itself.")
    p.add_argument("--mock", action="store_true",
                   help="use the virtual panel (mock pins): no GPIO needed, no one to press")
    p.add_argument("--pins", metavar="FILE", type=named_path,
                   help="the pin map (TOML) to check; default: the shipped 6-seat "
                        "74HC595 map (hardware/pins.example.toml)")
    p.add_argument("--led-seconds", type=_pause, default=0.6, metavar="S",
                   help="how long each candle stays lit on real hardware (default 0.6)")
    p.add_argument("--button-seconds", type=_seconds, default=20.0, metavar="S",
                   help="how long to wait for each button (default 20)")
    p.set_defaults(func=_hw_test)


MAX_SECONDS = 3600.0


def _seconds(text: str) -> float:
    """Seconds above 0, up to an hour (argparse type)."""
    return seconds(text, most=MAX_SECONDS)


def _pause(text: str) -> float:
    """Seconds from 0 (no pause) up to an hour (argparse type)."""
    return seconds(text, zero=True, most=MAX_SECONDS)


def _hw_test(args) -> int:
    from hardware.hwtest import run

    return run(args)
