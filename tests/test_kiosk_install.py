"""scripts/install-kiosk.sh: its dry run, and real installs into a scratch root."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "install-kiosk.sh"
UNIT = ROOT / "systemd" / "abraca-companion.service"


def install(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def tree(path: Path) -> dict[str, bytes | str]:
    """Every file (contents) and link (target) under path."""
    out: dict[str, bytes | str] = {}
    for p in sorted(path.rglob("*")):
        rel = str(p.relative_to(path))
        if p.is_symlink():
            out[rel] = "-> " + os.readlink(p)
        elif p.is_file():
            out[rel] = p.read_bytes()
    return out


def test_dry_run_prints_every_step_and_changes_nothing():
    watched = [Path("/opt/abraca-companion"), Path("/etc/abraca-companion"),
               Path("/etc/systemd/system/abraca-companion.service")]
    before = {p: p.exists() for p in watched}
    result = install("--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # The packages, the user, the app, the venv, the config, the unit.
    assert re.search(
        r"^\+ .*apt-get install -y --no-install-recommends python3-picamera2 python3-lgpio "
        r"python3-venv .*fonts-nanum", out, re.M), out
    assert re.search(r"^\+ (systemd-sysusers|useradd) ", out, re.M), out
    assert "+ copy_app" in out and "/opt/abraca-companion" in out
    assert re.search(r"^\+ python3 -m venv --system-site-packages /opt/abraca-companion/\.venv$",
                     out, re.M) or "exists" in out
    assert re.search(r"^\+ /opt/abraca-companion/\.venv/bin/python -m pip install .*"
                     r"-e /opt/abraca-companion$", out, re.M), out
    assert "/etc/abraca-companion/config.example.toml" in out
    assert re.search(r"^\+ install .* /etc/systemd/system/abraca-companion\.service$", out, re.M)
    assert "+ systemctl daemon-reload" in out
    assert "+ systemctl enable abraca-companion.service" in out
    assert "dry run: nothing was changed" in out
    assert {p: p.exists() for p in watched} == before


def test_dry_run_into_a_root_creates_nothing(tmp_path):
    target = tmp_path / "root"
    result = install("--dry-run", "--root", str(target))
    assert result.returncode == 0, result.stderr
    assert not target.exists()
    assert f"{target}/etc/systemd/system/abraca-companion.service" in result.stdout
    assert "skipped: apt-get under --root" in result.stdout


def test_install_into_a_scratch_root(tmp_path):
    root = tmp_path / "root"
    result = install("--root", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    app = root / "opt" / "abraca-companion"
    assert (app / "pyproject.toml").read_bytes() == (ROOT / "pyproject.toml").read_bytes()
    assert (app / "companion" / "kiosk" / "notify.py").is_file()
    assert (app / "docs").is_dir() or not (ROOT / "docs").is_dir()
    assert not (app / ".git").exists() and not (app / ".venv").exists()
    assert not list(app.rglob("__pycache__"))
    example = (ROOT / "assets" / "config.example.toml").read_bytes()
    assert (root / "etc/abraca-companion/config.toml").read_bytes() == example
    assert (root / "etc/abraca-companion/config.example.toml").read_bytes() == example
    unit = root / "etc/systemd/system/abraca-companion.service"
    assert unit.read_bytes() == UNIT.read_bytes()
    link = root / "etc/systemd/system/multi-user.target.wants/abraca-companion.service"
    assert os.readlink(link) == "/etc/systemd/system/abraca-companion.service"
    sysusers = root / "usr/lib/sysusers.d/abraca-companion.conf"
    assert sysusers.read_bytes() == (ROOT / "systemd/abraca-companion.sysusers").read_bytes()
    assert (root / "etc/polkit-1/rules.d/50-abraca-companion.rules").is_file()
    # What needs the live system is said to be skipped, not silently left out.
    for what in ("apt-get", "user creation", "venv and pip"):
        assert f"skipped: {what}" in result.stdout


def test_install_is_idempotent_and_keeps_the_tables_config(tmp_path):
    root = tmp_path / "root"
    assert install("--root", str(root)).returncode == 0
    config = root / "etc/abraca-companion/config.toml"
    config.write_text('language = "ko"\n')
    app = root / "opt/abraca-companion"
    (app / "stale.py").write_text("left from an older version\n")
    (app / ".venv").mkdir()
    (app / ".venv" / "marker").write_text("the venv survives an update\n")
    first = tree(root)

    result = install("--root", str(root))
    assert result.returncode == 0, result.stderr
    assert "keeping the existing /etc/abraca-companion/config.toml" in result.stdout
    assert config.read_text() == 'language = "ko"\n'
    assert not (app / "stale.py").exists()
    assert (app / ".venv" / "marker").is_file()
    second = tree(root)
    del first["opt/abraca-companion/stale.py"]
    assert second == first
    # And a third time changes nothing at all.
    assert install("--root", str(root)).returncode == 0
    assert tree(root) == second


def test_another_install_dir_is_written_into_the_unit(tmp_path):
    root = tmp_path / "root"
    result = install("--root", str(root), env={"INSTALL_DIR": "/srv/abraca"})
    assert result.returncode == 0, result.stderr
    assert (root / "srv/abraca/pyproject.toml").is_file()
    unit = (root / "etc/systemd/system/abraca-companion.service").read_text()
    assert "ExecStart=/srv/abraca/.venv/bin/companion run" in unit
    assert "COMPANION_ASSETS=/srv/abraca/assets" in unit
    assert "/opt/abraca-companion" not in unit


def test_execstart_is_where_the_install_script_puts_the_app():
    script = SCRIPT.read_text()
    prefix = re.search(r'^INSTALL_DIR="\$\{INSTALL_DIR:-([^}]+)\}"', script, re.M).group(1)
    exec_start = next(line for line in UNIT.read_text().splitlines()
                      if line.startswith("ExecStart="))
    assert exec_start.split("=", 1)[1].split()[:2] == [f"{prefix}/.venv/bin/companion", "run"]
    assert f"{prefix}/docs/kiosk.md" in UNIT.read_text()


def test_refuses_a_system_older_than_bookworm(tmp_path):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/os-release").write_text('ID=raspbian\nVERSION_ID="11"\n')
    result = install("--root", str(root))
    assert result.returncode == 1
    assert "Bookworm (12) or newer" in result.stderr
    assert not (root / "opt").exists()
    assert install("--root", str(root), "--force").returncode == 0
    assert (root / "opt/abraca-companion/pyproject.toml").is_file()


def test_a_source_without_the_app_is_refused(tmp_path):
    result = install("--root", str(tmp_path / "root"), "--source", str(tmp_path / "empty"))
    assert result.returncode == 1
    assert "does not hold the app" in result.stderr
    assert not (tmp_path / "root" / "opt").exists()


@pytest.mark.parametrize("args", [["--bogus"], ["--root"]])
def test_bad_options_are_refused(args):
    result = install(*args)
    assert result.returncode != 0
    assert "install-kiosk:" in result.stderr


# shellcheck from the dev extras (x86_64) lies beside this Python, which `make test` runs
# without .venv/bin on the PATH; else Debian's package.
SHELLCHECK = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or shutil.which(
    "shellcheck")


@pytest.mark.skipif(SHELLCHECK is None,
                    reason="shellcheck not installed (Debian package 'shellcheck'; the dev "
                           "extras bring it on x86_64)")
def test_shellcheck_finds_nothing():
    result = subprocess.run([SHELLCHECK, str(SCRIPT)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_install_from_a_git_repository(tmp_path):
    repo = tmp_path / "repo"
    for rel in ("pyproject.toml", "assets/config.example.toml", "companion/__init__.py",
                "systemd/abraca-companion.service", "systemd/abraca-companion.sysusers",
                "systemd/abraca-companion.polkit.rules"):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_bytes((ROOT / rel).read_bytes())
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "app"], check=True)
    (repo / "uncommitted.txt").write_text("not in the repository\n")
    root = tmp_path / "root"
    result = install("--root", str(root), "--source", f"file://{repo}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "+ git clone --depth 1" in result.stdout
    app = root / "opt/abraca-companion"
    assert (app / "companion/__init__.py").is_file()
    assert not (app / "uncommitted.txt").exists()  # what the repository holds, nothing else
    assert not (app / ".git").exists()
    assert (root / "etc/systemd/system/abraca-companion.service").is_file()
