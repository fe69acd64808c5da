"""What the operator changes from the operator menu, kept across restarts.

The configuration file in /etc is read-only to the service, so the operator's choices (language,
seats in use, LED brightness) are kept in ``settings.json`` in the state folder and laid over
the configuration at start:

    config, warnings = load_config(path)
    settings, more = load_settings(config.state_dir)
    config = apply_settings(config, settings)
    ...
    settings = settings.with_changes(language="ko")
    save_settings(config.state_dir, settings)     # OSError when it cannot be written

A damaged or wrong settings file gives warnings and is ignored for the settings it gets wrong,
like the configuration.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from companion.app.i18n import Notice, notice_of
from companion.config import Config, check_value
from companion.tablelog import write_atomically

__all__ = ["FILENAME", "OperatorSettings", "apply_settings", "load_settings", "save_settings"]

FILENAME = "settings.json"

# setting -> the configuration's name for it
_NAMES = {"language": "language", "seats": "seats", "led_brightness": "hardware.led_brightness"}


@dataclass(frozen=True, kw_only=True)
class OperatorSettings:
    """The operator's choices; None means "as the configuration says"."""

    language: str | None = None
    seats: int | None = None
    led_brightness: float | None = None

    def with_changes(self, **changes: Any) -> OperatorSettings:
        """A copy with some settings changed; ValueError naming the setting if one is wrong."""
        checked = {}
        for key, value in changes.items():
            if key not in _NAMES:
                raise ValueError(Notice("notice.unknown_operator_setting", name=key))
            checked[key] = None if value is None else check_value(_NAMES[key], value)
        return replace(self, **checked)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}


def load_settings(state_dir: str | os.PathLike[str]) -> tuple[OperatorSettings, list[str]]:
    """The operator's settings from ``state_dir`` and warnings about them; never raises."""
    path = Path(state_dir) / FILENAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return OperatorSettings(), []
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return OperatorSettings(), [Notice("notice.settings_unreadable", path=str(path),
                                           why=_unreadable(exc))]
    if not isinstance(data, dict):
        return OperatorSettings(), [Notice("notice.settings_not_object", path=str(path))]
    settings = OperatorSettings()
    warnings = []
    for key, value in data.items():
        try:
            settings = settings.with_changes(**{key: value})
        except ValueError as exc:
            warnings.append(Notice("notice.settings_ignored", path=str(path), why=notice_of(exc)))
    return settings, warnings


def _unreadable(exc: Exception) -> Notice | str:
    """Why the settings file could not be read, in the operator's words: not the JSON
    parser's ("Expecting property name enclosed in double quotes")."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, UnicodeDecodeError):
        return Notice("notice.settings_not_utf8")
    if isinstance(exc, json.JSONDecodeError):
        return Notice("notice.settings_damaged", line=exc.lineno)
    if isinstance(exc, RecursionError):
        return Notice("notice.nested_too_deeply")
    return Notice("notice.settings_too_long")  # a number of thousands of digits


def save_settings(state_dir: str | os.PathLike[str], settings: OperatorSettings) -> None:
    """Write the settings in one step (a power cut leaves the old or the new file, whole).
    OSError (disk full, read-only) is for the caller to show."""
    folder = Path(state_dir)
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings.to_json(), ensure_ascii=False, indent=2) + "\n"
    write_atomically(folder / FILENAME, text.encode("utf-8"))


def apply_settings(config: Config, settings: OperatorSettings) -> Config:
    """The configuration with the operator's choices laid over it."""
    return replace(config, **settings.to_json())
