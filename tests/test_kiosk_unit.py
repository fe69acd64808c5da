"""The kiosk's systemd unit: what it promises, and that systemd itself accepts it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "abraca-companion.service"
SYSUSERS = ROOT / "systemd" / "abraca-companion.sysusers"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections of a unit file; each key keeps every value it was given, in order."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit():
    return parse_unit(UNIT.read_text())


def one(unit, section, key):
    values = unit[section].get(key)
    assert values, f"{key}= missing from [{section}]"
    return values[-1]


def words(unit, section, key):
    return [w for v in unit[section].get(key, []) for w in v.split()]


def test_notify_and_watchdog(unit):
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    assert int(one(unit, "Service", "WatchdogSec")) >= 10
    # A loop the watchdog kills leaves its Python traceback in the journal.
    assert "PYTHONFAULTHANDLER=1" in unit["Service"]["Environment"]


def test_restarts_always_within_start_limits(unit):
    assert one(unit, "Service", "Restart") == "always"
    assert int(one(unit, "Unit", "StartLimitBurst")) >= 3
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) > 0


def test_unprivileged_user_with_device_groups(unit):
    assert one(unit, "Service", "User") not in ("", "root", "0")
    groups = set(words(unit, "Service", "SupplementaryGroups"))
    assert groups >= {"video", "render", "input", "gpio"}
    assert one(unit, "Service", "CapabilityBoundingSet") == ""
    assert one(unit, "Service", "NoNewPrivileges") == "yes"


def test_state_and_config_directories(unit):
    assert one(unit, "Service", "StateDirectory") == "abraca-companion"
    assert one(unit, "Service", "ConfigurationDirectory") == "abraca-companion"
    assert "--config /etc/abraca-companion/config.toml" in one(unit, "Service", "ExecStart")


def test_takes_tty1_with_kmsdrm_and_logs_to_the_journal(unit):
    assert one(unit, "Service", "TTYPath") == "/dev/tty1"
    assert one(unit, "Service", "StandardInput") == "tty"
    assert "getty@tty1.service" in words(unit, "Unit", "Conflicts")
    assert "getty@tty1.service" in words(unit, "Unit", "After")
    assert "SDL_VIDEODRIVER=kmsdrm" in unit["Service"]["Environment"]
    assert one(unit, "Service", "StandardOutput") == "journal"
    assert one(unit, "Service", "StandardError") == "journal"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_hardened_but_reaches_its_devices(unit):
    for key, value in {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "DevicePolicy": "closed",
    }.items():
        assert one(unit, "Service", key) == value
    # Hiding /dev would lose the screen, GPIO and camera.
    assert unit["Service"].get("PrivateDevices", ["no"])[-1] == "no"
    allowed = {v.split()[0] for v in unit["Service"]["DeviceAllow"]}
    # Screen and GPU, buttons, GPIO chips, camera (video, subdevices, media controller, DMA heaps).
    assert allowed >= {
        "char-drm",
        "char-input",
        "char-gpiochip",
        "char-video4linux",
        "char-media",
        "char-dma_heap",
        "/dev/tty1",
    }
    assert all(v.split()[1] == "rw" for v in unit["Service"]["DeviceAllow"])


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze not installed (Debian package 'systemd'); the unit was not checked",
)


@pytest.fixture
def stand_in_unit(tmp_path):
    """The unit with ExecStart pointed at a stand-in executable (systemd-analyze checks that
    the program exists)."""
    program = tmp_path / "companion"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    text = UNIT.read_text().replace("/opt/abraca-companion/.venv/bin/companion", str(program))
    assert str(program) in text
    unit = tmp_path / "abraca-companion.service"
    unit.write_text(text)
    return unit


@needs_systemd_analyze
def test_systemd_analyze_verify_accepts_the_unit(stand_in_unit):
    unit = stand_in_unit
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        env={**os.environ, "SYSTEMD_LOG_COLOR": "0"},
        timeout=60,
    )
    output = result.stdout + result.stderr
    # Unknown keys and bad values are only warnings to systemd: treat any mention as a failure.
    ours = [line for line in output.splitlines() if "abraca-companion" in line]
    assert result.returncode == 0, output
    assert ours == [], output


@pytest.mark.skipif(
    shutil.which("systemd-sysusers") is None,
    reason="systemd-sysusers not installed (Debian package 'systemd'); snippet not checked",
)
def test_sysusers_snippet_creates_the_user_and_groups(tmp_path):
    (tmp_path / "etc").mkdir()
    subprocess.run(
        ["systemd-sysusers", f"--root={tmp_path}", str(SYSUSERS)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    passwd = (tmp_path / "etc" / "passwd").read_text().splitlines()
    user = next(line.split(":") for line in passwd if line.startswith("abraca:"))
    assert int(user[2]) < 1000  # a system user
    assert user[5] == "/var/lib/abraca-companion"
    assert user[6].endswith("nologin")
    groups = {
        line.split(":")[0]: line.split(":")[3].split(",")
        for line in (tmp_path / "etc" / "group").read_text().splitlines()
    }
    for group in ("video", "render", "input", "gpio"):
        assert "abraca" in groups[group]


@needs_systemd_analyze
def test_systemd_rates_the_unit_well_confined(stand_in_unit):
    unit = stand_in_unit
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "SYSTEMD_COLORS": "0"},
    )
    if "--offline" in result.stderr and result.returncode != 0:
        pytest.skip(f"this systemd-analyze cannot rate a unit offline: {result.stderr.strip()}")
    found = re.search(r"Overall exposure level for abraca-companion\.service: ([\d.]+)",
                      result.stdout)
    assert found, result.stdout + result.stderr
    # 0 is fully confined, 10 not at all; the screen, camera and GPIO need some access.
    assert float(found.group(1)) <= 2.0, result.stdout
