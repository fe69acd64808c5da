"""The table's configuration file (TOML), read so that a mistake never stops the table.

    config, warnings = load_config("/etc/abraca-companion/config.toml")

``load_config`` always returns a usable :class:`Config`. A missing or unreadable file, a TOML
syntax error, an unknown setting, a value of the wrong type or out of range: each gives a
warning, a sentence naming the setting and what is wrong with it, for the screen to show, and
the default is used for that setting alone (the rest of the file still counts).

The file's layout (see ``assets/config.example.toml``)::

    language = "en"            # "en" or "ko"
    seats = 6                  # seats in use, 2 to 6
    names = ["Ann", "Ben"]     # players' names by seat (default: the seats' colours)
    [camera]                   # handed to the camera sources: kind = "picamera2" | "opencv" | ...
    [hardware]  pins = "pins.toml", led_brightness = 1.0
    [storage]   state_dir, log, database
    [kiosk]     attract_after = 120     # seconds idle before the attract screen; 0 = never

Relative paths are taken from the configuration file's folder. The state folder defaults to
systemd's ``$STATE_DIRECTORY`` when the service runs under systemd, else
``$XDG_STATE_HOME/abraca-companion`` (``~/.local/state/abraca-companion``).
"""

from __future__ import annotations

import difflib
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.app.i18n import Notice, notice_of
from companion.events import has_control_character

__all__ = [
    "Config",
    "LANGUAGES",
    "MAX_SEATS",
    "MIN_SEATS",
    "check_value",
    "default_state_dir",
    "load_config",
]

LANGUAGES = ("en", "ko")
MIN_SEATS, MAX_SEATS = 2, 6
DEFAULT_CAMERA: dict[str, Any] = {"kind": "picamera2"}


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the table log and history go when the file does not say."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        # systemd may list several, separated by ':'; ours is the first.
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "abraca-companion"


@dataclass(frozen=True, kw_only=True)
class Config:
    """Everything the table reads from its configuration file, with the defaults."""

    language: str = "en"
    seats: int = MAX_SEATS
    names: tuple[str, ...] | None = None
    camera: Mapping[str, Any] = field(default_factory=lambda: dict(DEFAULT_CAMERA))
    pins: Path | None = None
    # Full by default: dials that now dim would otherwise go half as bright on an update,
    # and dials too dim by a window are worse than dials too bright in a dark room.
    led_brightness: float = 1.0
    state_dir: Path = field(default_factory=default_state_dir)
    log: Path | None = None
    database: Path | None = None
    attract_after: float = 120.0
    source: Path | None = None

    @property
    def log_path(self) -> Path:
        """The table log of the game in progress."""
        return self.log if self.log is not None else self.state_dir / "table.jsonl"

    @property
    def database_path(self) -> Path:
        """The history database."""
        return self.database if self.database is not None else self.state_dir / "history.sqlite"


# ------------------------------------------------------------------------------- checking values
# A checker takes the raw TOML value and returns the value to use, or raises _Bad with what is
# wrong, phrased to follow "<key> = <value>: " (a Notice, so the screen says it in the table's
# language; another library's own words stay a plain string).


class _Bad(Exception):
    pass


def _language(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() in LANGUAGES:
        return value.strip().lower()
    raise _Bad(Notice("notice.bad_language", choices=", ".join(repr(x) for x in LANGUAGES)))


def _seats(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(Notice("notice.bad_seats", low=MIN_SEATS, high=MAX_SEATS))
    if not MIN_SEATS <= value <= MAX_SEATS:
        raise _Bad(Notice("notice.bad_seats_range", low=MIN_SEATS, high=MAX_SEATS))
    return value


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(Notice("notice.bad_names"))
    names = tuple(v.strip() for v in value)
    if not 1 <= len(names) <= MAX_SEATS:
        raise _Bad(Notice("notice.bad_names_count", n=MAX_SEATS))
    if any(not n for n in names):
        raise _Bad(Notice("notice.bad_name_empty"))
    if bad := next((n for n in names if has_control_character(n)), None):
        raise _Bad(Notice("notice.bad_name_control", name=repr(bad)))
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise _Bad(Notice("notice.bad_name_shared", name=repr(dupes[0])))
    return names


def _fraction(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise _Bad(Notice("notice.bad_fraction"))
    if not 0.0 <= value <= 1.0:
        raise _Bad(Notice("notice.bad_fraction_range"))
    return float(value)


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise _Bad(Notice("notice.bad_seconds"))
    if value < 0 or math.isinf(value):
        raise _Bad(Notice("notice.bad_seconds_range"))
    return float(value)


def _path(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(Notice("notice.bad_path"))
    if "\0" in value:
        raise _Bad(Notice("notice.bad_path_nul"))
    return value


def _camera(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _Bad(Notice("notice.bad_camera_table"))
    camera = dict(value)
    if "kind" not in camera:
        raise _Bad(Notice("notice.bad_camera_kind"))
    from vision.sources import SourceConfigError, check_config  # they know their settings

    try:
        check_config(camera)
    except SourceConfigError as exc:
        raise _Bad(notice_of(exc)) from None  # the camera sources' own words, a Notice
    return camera


# (section or "", key) -> (Config field, checker, makes a path)
_SETTINGS: dict[tuple[str, str], tuple[str, Callable[[Any], Any], bool]] = {
    ("", "language"): ("language", _language, False),
    ("", "seats"): ("seats", _seats, False),
    ("", "names"): ("names", _names, False),
    ("hardware", "pins"): ("pins", _path, True),
    ("hardware", "led_brightness"): ("led_brightness", _fraction, False),
    ("storage", "state_dir"): ("state_dir", _path, True),
    ("storage", "log"): ("log", _path, True),
    ("storage", "database"): ("database", _path, True),
    ("kiosk", "attract_after"): ("attract_after", _seconds, False),
}
_SECTIONS = ("camera", "hardware", "storage", "kiosk")


def _name(section: str, key: str) -> str:
    return f"{section}.{key}" if section else key


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return Notice("notice.did_you_mean", word=repr(close[0])) if close else ""


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_value(name: str, value: Any) -> Any:
    """The value to use for setting ``name`` ("seats", "hardware.led_brightness", ...), or
    ValueError with a sentence naming the setting and what is wrong."""
    section, _, key = name.rpartition(".")
    try:
        _attr, check, _is_path = _SETTINGS[(section, key)]
    except KeyError:
        raise ValueError(Notice("notice.unknown_setting", name=name)) from None
    try:
        return check(value)
    except _Bad as exc:
        raise ValueError(Notice("notice.setting_value", name=name, value=_show(value),
                                why=notice_of(exc))) from None


# ------------------------------------------------------------------------------------- loading

MAX_MISTAKES = 20  # lines left out of a file before it is given up as a whole
# A settings file larger than this is no settings file (a photo or a log saved under its
# name): read whole, its lines' warnings (one for each) filled the screen, each waiting for a
# press, and a 50 MB file took 550 MB of memory.
MAX_SETTINGS_BYTES = 1 << 20
_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")


def _decoded(raw: bytes) -> str:
    """The file's text: UTF-16 when it begins so (Notepad's "Unicode"), else UTF-8 with or
    without a byte order mark, each byte that is not UTF-8 made U+FFFD (its line is left
    out). UnicodeDecodeError for UTF-16 that is not."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    return raw.decode("utf-8-sig", errors="replace")


_HEADER = re.compile(r"[\[［]?\s*[\w.\- \"']+\s*[\]］]")  # hardware], ［hardware］


def _lenient_toml(text: str) -> tuple[dict[str, Any], list[tuple[int, str, str]]]:
    """The TOML ``text`` read with each setting that has a mistake left out, and what was
    left out: (line number, the line shortened, what is said of it). ``_Bad`` when no line
    can be blamed.

    A section's header with a mistake goes with its whole section: its settings must not
    land in the section above. A line inside a value written over several lines (a list of
    names) goes with the whole setting: half a list would seat the players wrongly."""
    lines = text.split("\n")  # as TOML counts lines: U+2028 in a comment is no line break
    gone: set[int] = set()  # lines left out (0-based)
    mistakes: list[tuple[int, str, str]] = []
    while True:
        try:
            return tomllib.loads("\n".join(lines) + "\n"), mistakes
        except RecursionError:
            raise _Bad(Notice("notice.toml_nested")) from None
        except tomllib.TOMLDecodeError as exc:
            found = _AT_LINE.search(str(exc))
            n = int(found.group(1)) if found else 0
            if not 1 <= n <= len(lines) or not lines[n - 1].strip() or (
                    len(mistakes) >= MAX_MISTAKES):
                raise _Bad(str(exc)) from None
            why = _AT_LINE.sub("", str(exc)).strip()
            first = last = n - 1
            bad = lines[first].strip()
            said: str | None
            if bad.startswith("[") or ("=" not in bad and _HEADER.fullmatch(bad)):
                while last + 1 < len(lines) and not lines[last + 1].lstrip().startswith("["):
                    last += 1
                said = Notice("notice.said_section_twice" if why.startswith("Cannot declare")
                              else "notice.said_section_out", why=why)
            elif "=" not in bad:  # inside a value over several lines: back to its setting
                while first > 0 and first - 1 not in gone and "=" not in lines[first - 1] \
                        and not lines[first - 1].lstrip().startswith("["):
                    first -= 1
                if first > 0 and first - 1 not in gone and "=" in lines[first - 1]:
                    first -= 1
                    said = Notice("notice.said_setting_out", why=why)
                elif first > 0 and first - 1 in gone:
                    said = None  # the rest of a setting already left out: said once
                else:
                    first, said = n - 1, Notice("notice.said_line_out", why=why)
            elif why.startswith("Cannot overwrite"):
                said = Notice("notice.said_first_counts", why=why)
            else:
                said = Notice("notice.said_default", why=why)
            if said is not None:
                shown = lines[first].strip()
                mistakes.append((first + 1, shown if len(shown) <= 40 else shown[:39] + "…",
                                 said))
            for k in range(first, last + 1):
                lines[k] = ""
                gone.add(k)


def read_settings(raw: bytes, where: str, *, what: str = "The configuration"
                  ) -> tuple[dict[str, Any] | None, list[str]]:
    """A TOML settings file's bytes read leniently (``_decoded``, ``_lenient_toml``), and the
    warnings about it, each beginning ``what`` ``where``; None for the settings when none
    can be used (then the last warning says why)."""
    warnings: list[str] = []
    if len(raw) > MAX_SETTINGS_BYTES:
        return None, [Notice("notice.config_not_text", what=what, where=where)]
    try:
        text = _decoded(raw)
    except UnicodeDecodeError:
        return None, [Notice("notice.config_not_text", what=what, where=where)]
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        if "\ufffd" in line:
            # Saved in another encoding ("José" in Latin-1, a Korean name in CP949): read
            # in any other, a name would be garbled into the log and the history for good.
            warnings.append(Notice("notice.config_not_utf8", what=what, where=where, line=n))
            if len(warnings) > MAX_MISTAKES:  # no settings file: binary, or a photo
                return None, [Notice("notice.config_not_text", what=what, where=where)]
    try:
        data, mistakes = _lenient_toml("\n".join("" if "\ufffd" in x else x for x in lines))
    except _Bad as exc:
        return None, [*warnings, Notice("notice.config_mistake", what=what, where=where,
                                        why=notice_of(exc))]
    warnings += [Notice("notice.config_line", what=what, where=where, line=line, shown=shown,
                        said=said) for line, shown, said in mistakes]
    return data, warnings


def load_config(
    path: str | os.PathLike[str] | None,
    *,
    environ: Mapping[str, str] | None = None,
) -> tuple[Config, list[str]]:
    """The configuration in ``path`` and the warnings about it; never raises for a bad file.

    ``path`` None means no file: the defaults, with no warning.
    """
    defaults = Config(state_dir=default_state_dir(environ))
    if path is None:
        return defaults, []
    path = Path(path)
    where = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return defaults, [Notice("notice.config_missing", where=where)]
    except IsADirectoryError:
        return defaults, [Notice("notice.config_folder", where=where)]
    except OSError as exc:
        return defaults, [Notice("notice.config_unreadable", where=where,
                                 error=exc.strerror or str(exc))]
    data, warnings = read_settings(raw, where)
    if data is None:
        return defaults, [*warnings[:-1], Notice("notice.config_defaults", text=warnings[-1])]

    values: dict[str, Any] = {"source": path}
    base = path.parent

    def take(section: str, key: str, value: Any) -> None:
        attr, check, is_path = _SETTINGS[(section, key)]
        try:
            checked = check(value)
        except _Bad as exc:
            warnings.append(Notice("notice.config_bad_value", where=where,
                                   name=_name(section, key), value=_show(value),
                                   why=notice_of(exc)))
            return
        if is_path:
            checked = base / Path(checked).expanduser()
        values[attr] = checked

    top_keys = [k for (s, k) in _SETTINGS if not s] + list(_SECTIONS)
    for key, value in data.items():
        if key == "camera":
            try:
                values["camera"] = _camera(value)
            except _Bad as exc:
                warnings.append(Notice("notice.config_bad_camera", where=where, why=notice_of(exc),
                                       kind=DEFAULT_CAMERA["kind"]))
        elif key in _SECTIONS:
            if not isinstance(value, dict):
                warnings.append(Notice("notice.config_not_section", where=where, name=key,
                                       value=_show(value)))
                continue
            known = [k for (s, k) in _SETTINGS if s == key]
            for sub, subvalue in value.items():
                if sub in known:
                    take(key, sub, subvalue)
                else:
                    warnings.append(Notice("notice.config_unknown", where=where,
                                           name=f"{key}.{sub}", hint=_suggest(sub, known)))
        elif ("", key) in _SETTINGS:
            take("", key, value)
        else:
            hint = _suggest(key, top_keys)
            if not hint:  # a section's setting written at the top, e.g. attract_after
                owner = next((s for (s, k) in _SETTINGS if k == key and s), None)
                hint = Notice("notice.belongs_in", section=owner) if owner else ""
            warnings.append(Notice("notice.config_unknown", where=where, name=key, hint=hint))

    config, warnings = _storage_checked(replace(defaults, **values), defaults, path, where,
                                        warnings)
    if len(warnings) > MAX_MISTAKES:  # each waits for a press on the table's screen
        more = len(warnings) - MAX_MISTAKES
        warnings = [*warnings[:MAX_MISTAKES], Notice("notice.config_more", where=where,
                                                     count=more)]
    return config, warnings


def _storage_checked(config: Config, defaults: Config, path: Path, where: str,
                     warnings: list[str]) -> tuple[Config, list[str]]:
    """``config`` with each storage place that cannot be what it is for put back to its
    default, with a warning: a folder given for the log or the database, a file for the
    state folder, or the log or the database given as this configuration file or each other.
    The table sets a log it cannot read aside (renamed, to be looked at): given a folder or
    another file, it renamed the state folder, the history or this file."""

    def same(a: Path | None, b: Path) -> bool:
        try:
            return a is not None and a.samefile(b)
        except OSError:  # either not there: not the same file
            return False

    def bad(attr: str, name: str, why: str) -> None:
        nonlocal config
        warnings.append(Notice("notice.config_bad_value", where=where, name=name,
                               value=_show(str(getattr(config, attr))), why=Notice(why)))
        config = replace(config, **{attr: getattr(defaults, attr)})

    if config.state_dir.exists() and not config.state_dir.is_dir():
        bad("state_dir", "storage.state_dir", "notice.storage_is_file")
    for attr in ("log", "database"):
        place = getattr(config, attr)
        if place is not None and place.is_dir():
            bad(attr, f"storage.{attr}", "notice.storage_is_folder")
        elif same(place, path):
            bad(attr, f"storage.{attr}", "notice.storage_is_config")
    if config.log is not None and same(config.log, config.database_path):
        bad("log", "storage.log", "notice.storage_is_database")
    return config, warnings
