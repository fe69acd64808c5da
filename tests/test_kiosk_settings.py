"""The operator's choices, kept in the state folder and laid over the configuration."""

from __future__ import annotations

import errno
import json

import pytest

from companion.config import Config, check_value
from companion.kiosk.settings import (
    FILENAME,
    OperatorSettings,
    apply_settings,
    load_settings,
    save_settings,
)


def test_saved_settings_come_back_over_the_configuration(tmp_path):
    settings = OperatorSettings().with_changes(language="KO", seats=4, led_brightness=0.2)
    save_settings(tmp_path, settings)
    loaded, warnings = load_settings(tmp_path)
    assert warnings == []
    assert loaded == OperatorSettings(language="ko", seats=4, led_brightness=0.2)
    config = apply_settings(Config(state_dir=tmp_path, attract_after=30), loaded)
    assert (config.language, config.seats, config.led_brightness) == ("ko", 4, 0.2)
    assert config.attract_after == 30  # the rest as configured
    assert not (tmp_path / (FILENAME + ".tmp")).exists()


def test_no_settings_file_changes_nothing(tmp_path):
    settings, warnings = load_settings(tmp_path)
    assert settings == OperatorSettings() and warnings == []
    config = Config(state_dir=tmp_path)
    assert apply_settings(config, settings) == config


def test_back_to_the_configuration(tmp_path):
    settings = OperatorSettings(language="ko").with_changes(language=None)
    save_settings(tmp_path, settings)
    assert json.loads((tmp_path / FILENAME).read_text()) == {}


@pytest.mark.parametrize("changes, words", [
    ({"seats": 9}, "seats = 9: out of range"),
    ({"language": "fr"}, "language = 'fr': choose one of"),
    ({"led_brightness": -1}, "hardware.led_brightness = -1: out of range"),
    ({"volume": 3}, "unknown operator setting volume"),
])
def test_a_wrong_choice_is_refused_with_its_name(changes, words):
    with pytest.raises(ValueError, match=words):
        OperatorSettings().with_changes(**changes)


@pytest.mark.parametrize("content, words", [
    (b'{"seats": 3,\n not json', "could not be read (it is damaged on line 2)"),
    (b"\xff\xfe", "could not be read (it is not UTF-8 text)"),
    (b'{"seats": ' + b"9" * 5000 + b"}", "could not be read (a value in it is far too long)"),
    (b"[1, 2]", "not a JSON object"),
    (b"[" * 100_000, "nested too deeply"),  # was a RecursionError: the kiosk restarted
])
def test_a_damaged_settings_file_is_ignored_with_a_warning(tmp_path, content, words):
    (tmp_path / FILENAME).write_bytes(content)
    settings, warnings = load_settings(tmp_path)
    assert settings == OperatorSettings()
    [warning] = warnings
    assert words in warning and "using the configuration's" in warning


def test_a_settings_file_that_cannot_be_read_says_why_in_plain_words(tmp_path):
    """A folder where the file should be: "[Errno 21] Is a directory: '...'" was shown."""
    (tmp_path / FILENAME).mkdir()
    settings, [warning] = load_settings(tmp_path)
    assert settings == OperatorSettings()
    assert "could not be read (Is a directory); using the configuration's" in warning


def test_one_wrong_setting_in_the_file_keeps_the_others(tmp_path):
    (tmp_path / FILENAME).write_text('{"seats": 12, "language": "ko", "colour": "red"}')
    settings, warnings = load_settings(tmp_path)
    assert settings == OperatorSettings(language="ko")
    assert len(warnings) == 2
    assert "seats = 12: out of range" in warnings[0]
    assert "unknown operator setting colour" in warnings[1]


def test_a_failed_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    save_settings(tmp_path, OperatorSettings(seats=3))
    before = (tmp_path / FILENAME).read_bytes()
    import companion.kiosk.settings as module

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(module.os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        save_settings(tmp_path, OperatorSettings(seats=5))
    monkeypatch.undo()
    assert (tmp_path / FILENAME).read_bytes() == before
    assert not (tmp_path / (FILENAME + ".tmp")).exists()


def test_check_value_names_the_setting():
    assert check_value("hardware.led_brightness", 1) == 1.0
    with pytest.raises(ValueError, match="unknown setting kiosk.volume"):
        check_value("kiosk.volume", 3)
