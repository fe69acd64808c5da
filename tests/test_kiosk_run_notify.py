"""The real table app (`companion run`) under a stand-in for systemd: READY once it is up,
watchdog pings from its main loop at half the interval, STOPPING when it ends."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time

import pytest

from tests.test_kiosk_notify import FakeSystemd

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("companion.app") is None,
    reason="the table app (companion.app, `companion run`) is not in this checkout",
)


def test_run_notifies_systemd(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nkind = "synthetic"\n[storage]\nstate_dir = "{tmp_path}/state"\n')
    systemd = FakeSystemd()
    env = {**os.environ, "NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "3000000",
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    got: list[tuple[float, str]] = []
    proc = None
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--config", str(config),
             "--size", "800x480", "--quit-after", "6"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        systemd.sock.settimeout(0.2)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                got.append((time.monotonic(), systemd.sock.recv(4096).decode()))
            except TimeoutError:
                if proc.poll() is not None:
                    break
        err = proc.stderr.read()
        proc.wait(timeout=30)
    finally:
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.stderr.close()
        systemd.close()
    assert proc.returncode == 0, err
    kinds = [m.split("\n")[0] for _, m in got]
    assert kinds[0] == "READY=1", kinds
    assert kinds[-1] == "STOPPING=1", kinds
    pings = [t for (t, m) in got if m == "WATCHDOG=1"]
    assert len(pings) >= 3, kinds  # every 1.5 s for 6 s
    # Never the 3 s interval apart: systemd would not have restarted it.
    assert all(b - a < 3.0 for a, b in zip(pings, pings[1:], strict=False)), pings
    assert (tmp_path / "state" / "history.sqlite").is_file()
