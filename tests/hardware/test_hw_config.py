"""Pin map loading: the shipped examples load, and every kind of mistake names its key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hardware.config import (
    PinMapError,
    default_pinmap,
    direct_pinmap,
    load_pinmap,
    parse_pinmap,
    pinmap_from_dict,
)

HERE = Path(__file__).resolve().parents[2] / "hardware"


def example(name: str = "pins.example.toml") -> dict:
    return tomllib.loads((HERE / name).read_text())


def error_for(data: dict) -> PinMapError:
    with pytest.raises(PinMapError) as info:
        pinmap_from_dict(data, source="pins.toml")
    return info.value


def test_chain_example_loads():
    pm = load_pinmap(HERE / "pins.example.toml")
    assert pm == default_pinmap()
    assert pm.wiring == "shift-register" and pm.seats == 6
    assert pm.chain.data == 17 and pm.chain.clock == 27 and pm.chain.latch == 22
    assert pm.chain.outputs == 32
    assert pm.dials[5] == (25, 26, 27, 28, 29)
    assert pm.button_names == ("seat1", "seat2", "seat3", "seat4", "seat5", "seat6",
                               "ok", "back", "undo")
    assert pm.button_pin("undo") == 21
    assert pm.hold_time == 0.8 and pm.bounce_time == 0.02


def test_direct_example_loads():
    pm = load_pinmap(HERE / "pins-direct.example.toml")
    assert pm == direct_pinmap()
    assert pm.wiring == "direct" and pm.seats == 3 and pm.chain is None
    assert pm.dials[0] == (4, 17, 27, 22, 10)
    every = [p for dial in pm.dials for p in dial] + [p for _, p in pm.buttons]
    assert len(every) == len(set(every)) == 21


def test_error_is_a_value_error_naming_file_and_key():
    data = example()
    data["buttons"]["ok"] = 5
    err = error_for(data)
    assert isinstance(err, ValueError)
    assert err.key == "buttons.ok"
    assert str(err).startswith("pins.toml: buttons.ok: ")
    assert "GPIO 5 is used twice" in str(err) and "buttons.seat1" in str(err)


def test_pin_used_twice_between_dial_and_button():
    data = example("pins-direct.example.toml")
    data["buttons"]["undo"] = 17
    err = error_for(data)
    assert err.key == "buttons.undo"
    assert "GPIO 17 is used twice" in err.problem
    assert "dials.seat1[1] (seat 1, candle 2)" in err.problem


def test_chain_output_used_twice():
    data = example()
    data["dials"]["seat2"] = [5, 6, 7, 8, 4]
    err = error_for(data)
    assert err.key == "dials.seat2[4]"
    assert "output 4 is used twice" in err.problem and "dials.seat1[4]" in err.problem


@pytest.mark.parametrize("pin", [0, 1])
def test_reserved_pins(pin):
    data = example()
    data["shift_register"]["latch"] = pin
    err = error_for(data)
    assert err.key == "shift_register.latch"
    assert f"GPIO {pin} is reserved" in err.problem


@pytest.mark.parametrize("pin", [28, 40, -3])
def test_pin_out_of_range(pin):
    data = example("pins-direct.example.toml")
    data["dials"]["seat3"][2] = pin
    err = error_for(data)
    assert err.key == "dials.seat3[2]"
    assert f"GPIO {pin} is out of range" in err.problem


def test_chain_output_out_of_range():
    data = example()
    data["dials"]["seat6"] = [25, 26, 27, 28, 32]
    err = error_for(data)
    assert err.key == "dials.seat6[4]"
    assert "output 32 is out of range" in err.problem


def test_spi_clash_only_when_spi_in_use():
    data = example("pins-direct.example.toml")
    pinmap_from_dict(data)  # SPI pins are free to use when SPI is off
    data["buses"]["spi"] = True
    err = error_for(data)
    assert err.key == "dials.seat1[4]"
    assert "GPIO 10 is SPI MOSI" in err.problem and "buses.spi = true" in err.problem


def test_i2c_clash_only_when_i2c_in_use():
    data = example()
    data["buttons"]["seat6"] = 3
    assert pinmap_from_dict(data).button_pin("seat6") == 3
    data["buses"]["i2c"] = True
    err = error_for(data)
    assert err.key == "buttons.seat6"
    assert "GPIO 3 is I2C SCL" in err.problem


def test_fewer_dials_than_seats():
    data = example()
    del data["dials"]["seat5"], data["dials"]["seat6"]
    err = error_for(data)
    assert err.key == "dials"
    assert "fewer dials than seats" in err.problem and "seat5, seat6" in err.problem


def test_fewer_chain_outputs_than_candles():
    data = example()
    data["shift_register"]["chips"] = 3
    err = error_for(data)
    assert err.key == "shift_register.chips"
    assert "24 outputs" in err.problem and "30 candles" in err.problem


def test_dial_with_wrong_number_of_candles():
    data = example()
    data["dials"]["seat3"] = [10, 11, 12, 13]
    err = error_for(data)
    assert err.key == "dials.seat3" and "must list 5 pins" in err.problem


def test_missing_button_and_unknown_button():
    data = example()
    del data["buttons"]["back"]
    assert error_for(data).key == "buttons.back"
    data = example()
    data["buttons"]["seat7"] = 4
    err = error_for(data)
    assert err.key == "buttons.seat7" and "unknown button" in err.problem


def test_extra_dial_beyond_seats():
    data = example()
    data["seats"] = 5
    err = error_for(data)
    assert err.key == "dials.seat6" and "unknown seat" in err.problem


def test_bad_values_name_their_key():
    cases = [
        (("wiring",), "ribbon", "wiring", "must be \"direct\" or \"shift-register\""),
        (("seats",), 7, "seats", "must be 2 to 6"),
        (("seats",), "six", "seats", "whole number"),
        (("buttons", "ok"), "GPIO16", "buttons.ok", "whole number"),
        (("buttons", "ok"), True, "buttons.ok", "whole number"),
        (("timing", "hold"), 0, "timing.hold", "0.1 to 5 seconds"),
        (("timing", "bounce"), 0.5, "timing.bounce", "less than half"),
        (("buses", "spi"), "yes", "buses.spi", "true or false"),
        (("shift_register", "chips"), 9, "shift_register.chips", "1 to 8"),
    ]
    for path, value, key, words in cases:
        data = example()
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
        err = error_for(data)
        assert (err.key, words in err.problem) == (key, True), str(err)


def test_a_bad_value_is_echoed_as_it_is_written_in_the_file():
    """Staff read 'got True' and 'got '17'' (Python's way) for true and "17" in the file."""
    for text, said in (("ok = true", "buttons.ok: must be a whole number, got true"),
                       ('ok = "17"', 'buttons.ok: must be a whole number, got "17"')):
        pins = (HERE / "pins.example.toml").read_text().replace("ok = 16", text)
        assert text in pins
        with pytest.raises(PinMapError) as err:
            parse_pinmap(pins)
        assert said in str(err.value)
    data = example()
    data["dials"]["seat1"] = ["4", True]
    assert 'got ["4", true]' in error_for(data).problem


def test_unknown_and_misplaced_sections():
    data = example()
    data["button"] = {}
    assert error_for(data).key == "button"
    data = example("pins-direct.example.toml")
    data["shift_register"] = {"data": 2, "clock": 3, "latch": 21}
    assert error_for(data).key == "shift_register"
    data = example()
    del data["shift_register"]
    assert error_for(data).key == "shift_register"


def test_not_toml_and_missing_file(tmp_path):
    bad = tmp_path / "pins.toml"
    bad.write_text("wiring = \n")
    with pytest.raises(PinMapError, match=r"pins.toml: not a valid TOML file"):
        load_pinmap(bad)
    with pytest.raises(PinMapError, match="no such file"):
        load_pinmap(tmp_path / "nope.toml")
    # A folder and a file that is not text were said in Python's words ("[Errno 21] Is a
    # directory", "'utf-8' codec can't decode byte 0xe7 in position 0").
    with pytest.raises(PinMapError, match=r": it is a folder: give the pin map's file$"):
        load_pinmap(tmp_path)
    bad.write_bytes(b"\xe7\xff wiring")
    with pytest.raises(PinMapError, match=r"pins.toml: it is not text \(a pin map is a TOML "
                                          r"text file, saved as UTF-8\)$"):
        load_pinmap(bad)
    bad.write_text("wiring = " + "[" * 100_000 + "\n")  # was a RecursionError
    with pytest.raises(PinMapError, match="not a pin map: its values are nested too deeply"):
        load_pinmap(bad)


def test_a_pin_map_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Notepad begins a UTF-8 file with one: 'Invalid statement (at line 1, column 1)'."""
    path = tmp_path / "pins.toml"
    path.write_bytes(b"\xef\xbb\xbf" + (HERE / "pins.example.toml").read_bytes())
    assert load_pinmap(path) == parse_pinmap((HERE / "pins.example.toml").read_text())


def test_timing_defaults_when_absent():
    text = (HERE / "pins.example.toml").read_text()
    text = text[: text.index("[timing]")]
    pm = parse_pinmap(text)
    assert pm.hold_time == 0.8 and pm.bounce_time == 0.02


def test_header_pin_numbers_match_gpiozero(mock_factory):
    from hardware.config import HEADER_PIN

    for gpio, physical in HEADER_PIN.items():
        ((_header, info),) = mock_factory.board_info.find_pin(f"GPIO{gpio}")
        assert info.number == physical, gpio
    assert sorted(HEADER_PIN) == list(range(28))


def test_candle_wire_names_the_place():
    from hardware.config import candle_wire

    assert candle_wire(direct_pinmap(), 0, 1) == "GPIO 17, header pin 11"
    assert candle_wire(default_pinmap(), 1, 2) == "chain output 7: chip 1, Q7, chip pin 7"
    assert candle_wire(default_pinmap(), 1, 3) == "chain output 8: chip 2, Q0, chip pin 15"


def test_the_tables_configuration_given_as_a_pin_map_is_said_to_be_it(tmp_path):
    """Both live in /etc/abraca-companion: hw-test --pins config.toml said 'language:
    unknown key; expected one of: wiring, ...'."""
    config = Path(__file__).resolve().parents[2] / "assets" / "config.example.toml"
    with pytest.raises(PinMapError, match="this is the companion's configuration, not a pin "
                                          "map: give the file its \\[hardware\\] pins"):
        load_pinmap(config)
