"""The table's configuration: a bad file of any kind gives defaults and a warning."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.config import Config, default_state_dir, load_config

ROOT = Path(__file__).resolve().parent.parent
ENV = {"STATE_DIRECTORY": "/var/lib/abraca-companion"}


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "config.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_the_example_config_loads_without_warnings():
    config, warnings = load_config(ROOT / "assets" / "config.example.toml", environ={})
    assert warnings == []
    assert config.language == "en"
    assert config.seats == 6
    assert config.camera["kind"] == "picamera2"
    assert config.led_brightness == 1.0
    assert config.attract_after == 120
    assert config.log_path == Path("/var/lib/abraca-companion/table.jsonl")
    assert config.database_path == Path("/var/lib/abraca-companion/history.sqlite")


def test_a_full_config_is_read(tmp_path):
    path = write(tmp_path, """
language = "KO"
seats = 4
names = [" Ann", "민지"]
[camera]
kind = "opencv"
device = 0
[hardware]
pins = "pins.toml"
led_brightness = 1
[storage]
state_dir = "/srv/table"
database = "db/history.sqlite"
[kiosk]
attract_after = 0
""")
    config, warnings = load_config(path, environ=ENV)
    assert warnings == []
    assert config.language == "ko"
    assert config.seats == 4
    assert config.names == ("Ann", "민지")
    assert dict(config.camera) == {"kind": "opencv", "device": 0}
    assert config.pins == tmp_path / "pins.toml"  # relative to the config file
    assert config.led_brightness == 1.0
    assert config.state_dir == Path("/srv/table")
    assert config.log_path == Path("/srv/table/table.jsonl")
    assert config.database_path == tmp_path / "db" / "history.sqlite"
    assert config.attract_after == 0
    assert config.source == path


def test_no_path_means_defaults_and_no_warning():
    config, warnings = load_config(None, environ=ENV)
    assert warnings == []
    assert config == Config(state_dir=Path("/var/lib/abraca-companion"))


def only(warnings: list[str]) -> str:
    assert len(warnings) == 1, warnings
    return warnings[0]


def test_missing_file(tmp_path):
    config, warnings = load_config(tmp_path / "nope.toml", environ=ENV)
    assert config == Config(state_dir=Path("/var/lib/abraca-companion"))
    message = only(warnings)
    assert "No configuration file" in message and "nope.toml" in message
    assert "default settings" in message


def test_a_folder_instead_of_a_file(tmp_path):
    config, warnings = load_config(tmp_path, environ=ENV)
    assert "is a folder" in only(warnings)
    assert config.seats == 6


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_unreadable_file(tmp_path):
    path = write(tmp_path, "seats = 4\n")
    path.chmod(0)
    config, warnings = load_config(path, environ=ENV)
    assert "Cannot read the configuration" in only(warnings)
    assert config.seats == 6


def test_unreadable_file_simulated(tmp_path, monkeypatch):
    path = write(tmp_path, "seats = 4\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    config, warnings = load_config(path, environ=ENV)
    message = only(warnings)
    assert "Cannot read the configuration" in message and "Permission denied" in message
    assert config.seats == 6


@pytest.mark.parametrize("encoding", ["latin-1", "cp949"])
def test_a_line_not_in_utf8_is_left_out_never_garbled(tmp_path, encoding):
    """Saved by an editor in its own encoding ('José' in Latin-1, a Korean name in CP949):
    the file was refused whole; then read as Windows text, which made '김민수' '±è¹Î¼ö' in
    the log and the history for good. Only that line is left out, the rest counts."""
    name = "José" if encoding == "latin-1" else "김민수"
    text = f'seats = 4\nnames = ["{name}", "Ann"]\nlanguage = "ko"\n'.encode(encoding)
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert only(warnings).endswith("has a mistake on line 2: it is not UTF-8 text. That line "
                                   "is left out: its setting keeps its default. Save the file "
                                   "as UTF-8.")
    assert config.names is None and config.seats == 4 and config.language == "ko"


def test_notepads_unicode_is_read(tmp_path):
    """Notepad's "Unicode" is UTF-16 with its mark."""
    config, warnings = load_config(write(tmp_path, 'names = ["민지", "Ann"]\n'.encode("utf-16")),
                                   environ=ENV)
    assert warnings == [] and config.names == ("민지", "Ann")


def test_a_byte_order_mark_is_no_mistake(tmp_path):
    """Notepad begins a UTF-8 file with one: it was 'Invalid statement (at line 1)'."""
    config, warnings = load_config(write(tmp_path, "\ufeffseats = 3\n".encode()), environ=ENV)
    assert warnings == [] and config.seats == 3


def test_toml_syntax_error_names_the_line(tmp_path):
    config, warnings = load_config(write(tmp_path, 'language = "ko"\nseats = \n'), environ=ENV)
    message = only(warnings)
    assert message.endswith("has a mistake on line 2 (seats =): Invalid value. That line is "
                            "left out: its setting keeps its default.")
    assert config.language == "ko" and config.seats == 6


def test_a_mistake_leaves_out_its_line_not_the_whole_file(tmp_path):
    """One typo (a value without quotes) reset every setting: the camera, the state folder
    (the game in progress seemed lost) and the pin map went back to their defaults."""
    text = ('language = ko\nnames = [Ann, Ben]\nseats = 4\nseats = 5\n[camera]\n'
            'kind = "synthetic"\n[storage]\nstate_dir = "state"\n')
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert config.seats == 4 and config.camera == {"kind": "synthetic"}
    assert config.state_dir == tmp_path / "state"
    assert config.language == "en" and config.names is None
    assert [w.split(" has a mistake ")[1] for w in warnings] == [
        "on line 1 (language = ko): Invalid value. That line is left out: its setting keeps "
        "its default.",
        "on line 2 (names = [Ann, Ben]): Invalid value. That line is left out: its setting "
        "keeps its default.",
        "on line 4 (seats = 5): Cannot overwrite a value. That line is left out: the first one "
        "counts."]


def test_a_broken_section_header_leaves_out_its_section(tmp_path):
    """Its settings must not count as the section's above (kind would be a [kiosk] one)."""
    text = 'seats = 3\n[camera\nkind = "synthetic"\n[storage]\nstate_dir = "s"\n'
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert "on line 2 ([camera): Expected ']' at the end of a table declaration. That " \
           "section is left out: its settings keep their defaults." in only(warnings)
    assert config.seats == 3 and config.state_dir == tmp_path / "s"
    assert config.camera["kind"] == "picamera2"


@pytest.mark.parametrize(("text", "line", "said"), [
    # Half a list would seat Cat in seat 2: the whole setting is left out.
    ('names = [\n "Ann",\n Ben,\n "Cat",\n]\nseats = 4\n', "line 1 (names = [)",
     "Invalid value. That setting is left out: it keeps its default."),
    # Without its '[' (or in full-width brackets): its settings went into [camera].
    ('[camera]\nkind = "opencv"\nhardware]\nled_brightness = 0.2\nseats = 4\n',
     "line 3 (hardware])", "That section is left out: its settings keep their defaults."),
    ('[camera]\nkind = "opencv"\n［hardware］\nled_brightness = 0.2\nseats = 4\n',
     "line 3 (［hardware］)", "That section is left out: its settings keep their defaults."),
    # Begun twice: the first one's settings count, not the defaults.
    ('seats = 4\n[camera]\nkind = "opencv"\n[camera]\ndevice = 2\n', "line 4 ([camera])",
     "That section was begun before: its settings here are left out; put them in the first "
     "one."),
])
def test_a_mistake_inside_a_setting_or_a_section_leaves_out_all_of_it(tmp_path, text, line,
                                                                       said):
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert f"has a mistake on {line}: " in only(warnings) and only(warnings).endswith(said)
    assert config.names is None and config.led_brightness == 1.0
    assert config.seats == (4 if "names" in text or "device" in text else 6)
    assert config.camera == ({"kind": "opencv"} if "camera" in text else {"kind": "picamera2"})


@pytest.mark.parametrize(("text", "said"), [
    ('names = ["Ann",\n  Ben]\nseats = 3\n', "Invalid value (at end of document)"),
    ("x = " + "[" * 100_000 + "\n", "its values are nested too deeply to read"),
])
def test_a_mistake_no_line_can_be_blamed_for_gives_the_defaults(tmp_path, text, said):
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert only(warnings).endswith(f"has a mistake: {said}. Starting with the default settings.")
    assert config.seats == 6


@pytest.mark.parametrize(
    "text, setting, words",
    [
        ('language = "fr"', "language = 'fr'", "choose one of 'en', 'ko'"),
        ("language = 3", "language = 3", "choose one of"),
        ("seats = 9", "seats = 9", "out of range"),
        ("seats = 1", "seats = 1", "from 2 to 6"),
        ('seats = "four"', "seats = 'four'", "whole number"),
        ("seats = 4.5", "seats = 4.5", "whole number"),
        ("seats = true", "seats = True", "whole number"),
        ('names = "Ann,Ben"', "names = 'Ann,Ben'", "in a list"),
        ("names = []", "names = []", "1 to 6 names"),
        ('names = ["Ann", ""]', "names = ['Ann', '']", "a name is empty"),
        ('names = ["Ann", "Ann "]', "names = ['Ann', 'Ann ']", "cannot share the name 'Ann'"),
        ('names = ["Ann\\u0000", "Ben"]', "names = ['Ann\\x00', 'Ben']",
         "'Ann\\x00' cannot be a name: it holds a control character"),
        ('names = ["A","B","C","D","E","F","G"]', "names = ['A',", "1 to 6 names"),
        ("[hardware]\nled_brightness = 2", "hardware.led_brightness = 2", "out of range"),
        ("[hardware]\nled_brightness = nan", "hardware.led_brightness = nan", "0.0 to 1.0"),
        ('[hardware]\nled_brightness = "max"', "hardware.led_brightness = 'max'", "number"),
        ("[hardware]\npins = 7", "hardware.pins = 7", "path"),
        ('[storage]\nstate_dir = ""', "storage.state_dir = ''", "path"),
        ("[kiosk]\nattract_after = -5", "kiosk.attract_after = -5", "from 0 up"),
        ("[kiosk]\nattract_after = inf", "kiosk.attract_after = inf", "from 0 up"),
        ('[kiosk]\nattract_after = "2m"', "kiosk.attract_after = '2m'", "number of seconds"),
    ],
)
def test_a_bad_value_names_the_setting_and_keeps_the_rest(tmp_path, text, setting, words):
    # A good setting next to the bad one still counts.
    good = "" if "[storage]" in text else "[storage]\nlog = 'game.jsonl'\n"
    path = write(tmp_path, f"{text}\n{good}")
    config, warnings = load_config(path, environ=ENV)
    message = only(warnings)
    assert setting in message, message
    assert words in message, message
    assert "using the default" in message
    defaults = Config(state_dir=Path("/var/lib/abraca-companion"))
    field = setting.split(" = ")[0].split(".")[-1]
    assert getattr(config, field) == getattr(defaults, field)
    if "[storage]" not in text:
        assert config.log_path == tmp_path / "game.jsonl"


def test_unknown_settings_are_named_with_a_suggestion(tmp_path):
    path = write(tmp_path, """
langauge = "ko"
attract_after = 30
colour = "red"
[hardware]
led_brigthness = 0.2
[kiosk]
attract = 5
""")
    config, warnings = load_config(path, environ=ENV)
    assert len(warnings) == 5, warnings
    assert "unknown setting langauge (did you mean 'language'?)" in warnings[0]
    assert "unknown setting attract_after (it belongs in the [kiosk] section)" in warnings[1]
    assert "unknown setting colour; ignored." in warnings[2]
    assert "unknown setting hardware.led_brigthness (did you mean 'led_brightness'?)" in warnings[3]
    assert "unknown setting kiosk.attract (did you mean 'attract_after'?)" in warnings[4]
    assert config.language == "en" and config.attract_after == 120


def test_a_section_that_is_not_a_table(tmp_path):
    config, warnings = load_config(write(tmp_path, 'hardware = "gpio"\nseats = 3\n'), environ=ENV)
    assert "hardware = 'gpio': expected a [hardware] section" in only(warnings)
    assert config.seats == 3


@pytest.mark.parametrize(
    "text, words",
    [
        ('camera = "pi"', "expected a [camera] table"),
        ("[camera]\ndevice = 0", "needs a kind"),
        ('[camera]\nkind = "telescope"', "telescope"),
    ],
)
def test_a_bad_camera_falls_back_to_the_default_camera(tmp_path, text, words):
    config, warnings = load_config(write(tmp_path, "seats = 5\n" + text + "\n"), environ=ENV)
    message = only(warnings)
    assert message.startswith(f"{tmp_path / 'config.toml'}: camera: ")
    assert words in message
    assert "using the default camera (picamera2)" in message
    assert dict(config.camera) == {"kind": "picamera2"}
    assert config.seats == 5


def test_state_dir_defaults():
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/a:/var/lib/b"}) == Path("/var/lib/a")
    assert default_state_dir({"XDG_STATE_HOME": "/x"}) == Path("/x/abraca-companion")
    home = Path(os.path.expanduser("~"))
    assert default_state_dir({}) == home / ".local" / "state" / "abraca-companion"


def test_a_line_separator_inside_a_comment_moves_no_setting(tmp_path):
    """U+2028 is text to TOML: split there, lines were put back wrong and a valid file lost
    'seats = 3' with a warning about a line that had no mistake."""
    config, warnings = load_config(write(tmp_path, "seats = 3 # a\u2028b\n# note\u2028more\n"),
                                   environ=ENV)
    assert warnings == [] and config.seats == 3


def test_a_file_of_mistakes_past_counting_gives_the_defaults(tmp_path):
    text = "seats = 4\n" + "".join(f"x{k} = ?\n" for k in range(25))
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert config.seats == 6
    assert only(warnings).endswith("Starting with the default settings.")


@pytest.mark.parametrize(("storage", "name", "why"), [
    ('log = "state"', "storage.log", "it is a folder, not a file"),
    ('log = "config.toml"', "storage.log", "it is this configuration file itself"),
    ('log = "state/history.sqlite"', "storage.log", "it is the game history's database"),
    ('database = "config.toml"', "storage.database", "it is this configuration file itself"),
    ('database = "state"', "storage.database", "it is a folder, not a file"),
    ('state_dir = "config.toml"', "storage.state_dir", "it is a file, not a folder"),
])
def test_a_storage_place_that_cannot_hold_what_it_is_for_is_refused(tmp_path, storage, name,
                                                                    why):
    """The table sets a log it cannot read aside, renamed: given the state folder, the history
    or this file for its log, it renamed the state folder (the history, the references, the
    settings with it), the history, or this file, so that the next start had none of them."""
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "history.sqlite").write_bytes(b"")
    text = f'[storage]\nstate_dir = "state"\n{storage}\n'
    if storage.startswith("state_dir"):
        text = f"[storage]\n{storage}\n"
    config, warnings = load_config(write(tmp_path, text), environ=ENV)
    [warning] = warnings
    assert warning.startswith(f"{tmp_path / 'config.toml'}: {name} = '")
    assert warning.endswith(f": {why}; using the default.")
    defaults = Config(state_dir=Path(ENV["STATE_DIRECTORY"]))
    if name == "storage.state_dir":
        assert config.state_dir == defaults.state_dir
    else:
        assert getattr(config, name.split(".")[1]) is None


def test_a_file_that_is_no_settings_file_is_said_once(tmp_path):
    """A 12 KB binary saved as config.toml gave 42 warnings, each waiting for a press on the
    table's screen; a 50 MB one 194,025 of them and 550 MB of memory."""
    import random

    noise = bytes(random.Random(1).randrange(128, 256) if i % 40 else 10
                  for i in range(12_000))
    for raw in (noise, b"# notes\n" * (1 << 18)):
        config, warnings = load_config(write(tmp_path, raw), environ=ENV)
        assert len(warnings) == 1 and "is not text that can be read" in warnings[0]
        assert config == Config(state_dir=Path(ENV["STATE_DIRECTORY"]))


def test_many_problems_are_listed_twenty_at_most(tmp_path):
    text = "".join(f"colour{i} = 1\n" for i in range(500))
    _, warnings = load_config(write(tmp_path, text), environ=ENV)
    assert len(warnings) == 21
    assert warnings[-1] == f"{tmp_path / 'config.toml'}: 480 more problems, not listed here."
