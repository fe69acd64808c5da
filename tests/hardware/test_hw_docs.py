"""docs/wiring.md says the same as the shipped pin maps."""

from __future__ import annotations

import re
from pathlib import Path

from hardware.config import HEADER_PIN, button_label, default_pinmap, direct_pinmap

DOC = (Path(__file__).resolve().parents[2] / "docs" / "wiring.md").read_text()


def section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


def test_every_gpio_and_header_pin_pair_is_right():
    pairs = re.findall(r"GPIO (\d+),? \(?pin (\d+)", DOC)
    assert len(pairs) > 20
    for gpio, pin in pairs:
        assert HEADER_PIN[int(gpio)] == int(pin), (gpio, pin)


def button_rows(text: str) -> dict[str, tuple[int, int]]:
    rows = re.findall(r"^\| (Seat \d|OK|Back|Undo) \| (\d+) \| (\d+) \|$", text, re.M)
    return {name: (int(gpio), int(pin)) for name, gpio, pin in rows}


def test_button_tables_match_the_examples():
    for title, pm in (("## Shift-register wiring", default_pinmap()),
                      ("## Direct wiring", direct_pinmap())):
        expected = {button_label(n): (g, HEADER_PIN[g]) for n, g in pm.buttons}
        assert button_rows(section(title)) == expected


def test_chain_output_table_matches_the_example():
    pm = default_pinmap()
    rows = re.findall(r"^\| (\d) \| (.+) \|$", section("## Shift-register wiring"), re.M)
    cells = {}
    for chip, rest in rows:
        for q, cell in enumerate(rest.split(" | ")):
            cells[(int(chip) - 1) * 8 + q] = cell
    for seat, dial in enumerate(pm.dials):
        for candle, output in enumerate(dial):
            assert cells.pop(output) == f"S{seat + 1} C{candle + 1}"
    assert set(cells.values()) == {"—"}


def test_direct_dial_table_matches_the_example():
    pm = direct_pinmap()
    rows = re.findall(r"^\| Seat (\d) \| (GPIO .+) \|$", section("## Direct wiring"), re.M)
    for seat, rest in rows:
        gpios = tuple(int(g) for g in re.findall(r"GPIO (\d+)", rest))
        assert gpios == pm.dials[int(seat) - 1]
    assert len(rows) == pm.seats
