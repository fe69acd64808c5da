"""Kill -9 the real table app (`companion demo`) mid-game; started again on the same log, it
resumes that game and appends to the log until the game is over."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from companion.tablelog import replay_file

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("companion.app") is None,
    reason="the table app (companion.app, `companion demo`) is not in this checkout",
)

DEMO = [sys.executable, "-m", "companion", "demo", "--autoplay", "--fast", "--headless",
        "--players", "4", "--seed", "3"]


def lines(path):
    return path.read_bytes().split(b"\n")


def wait_for_lines(path, n, proc, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the demo ended early: {proc.stderr.read()}")
        try:
            if len(lines(path)) > n:
                return
        except FileNotFoundError:
            # Not yet made, or moved aside between two looks: on a busy machine a whole game
            # can end unseen, and the next game's log starts afresh. Kill that one instead.
            pass
        time.sleep(0.002)
    raise AssertionError(f"the demo wrote fewer than {n} lines in {timeout} s")


def test_demo_killed_mid_game_resumes_it(tmp_path):
    log = tmp_path / "table.jsonl"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen([*DEMO, "--log", str(log)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    try:
        wait_for_lines(log, 8, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.stderr.close()
    before = log.read_bytes()
    cut = replay_file(log, torn_tail_ok=True)
    assert cut.error is None, cut.error
    assert cut.game.started and not cut.game.over, "the game must still be going on"
    whole = before[: before.rfind(b"\n") + 1]  # a line being written at the kill is dropped

    done = subprocess.run([*DEMO, "--exit-when-over", "--log", str(log)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    after = log.read_bytes()
    assert after.startswith(whole), "the resumed game appends to the log"
    assert len(after) > len(whole)
    events = [json.loads(x) for x in after.splitlines() if x.strip()]
    assert [e["event"] for e in events].count("game") == 1, "the same game, not a new one"
    final = replay_file(log)
    assert final.error is None and final.game.over
    # Resuming replays the first part exactly: the players are the ones the first run seated.
    assert events[0] == json.loads(before.split(b"\n", 1)[0])
