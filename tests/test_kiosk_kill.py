"""Kill -9 a real table process mid-game, start it again, and check the game goes on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from companion.kiosk.history import History
from companion.simulate import play_game
from companion.tablelog import replay_file

HERE = Path(__file__).resolve().parent
SEED = 16  # a 4-player game of 55 events


def start(log, db):
    return subprocess.Popen(
        [sys.executable, str(HERE / "kiosk_table_process.py"), str(log), str(db), str(SEED)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(HERE.parent)})


def run_until(proc, pushed):
    """Read the process's progress until it has put `pushed` events on disk."""
    seen = []
    for line in proc.stdout:
        seen.append(line.strip())
        if line.startswith("pushed ") and int(line.split()[1]) >= pushed:
            return seen
    raise AssertionError(f"the process ended early: {seen} {proc.stderr.read()}")


def logged(log):
    return [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_kill_mid_game_and_resume(tmp_path):
    log, db = tmp_path / "table.jsonl", tmp_path / "history.sqlite"
    plan = [dict(e) for e in play_game(["Ann", "Ben", "Cat", "Dan"], SEED)[1]]
    assert len(plan) > 40

    progress = 0
    for kill_after in (8, 25, 41):
        proc = start(log, db)
        try:
            seen = run_until(proc, kill_after)
            assert seen[0] == f"resumed {progress}"  # each start picks up where the last left
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        finally:
            proc.kill()
            proc.stdout.close()
            proc.stderr.close()
        assert proc.returncode == -signal.SIGKILL
        on_disk = logged(log)
        # Everything the process had reported is on disk, and the log is the game so far.
        assert len(on_disk) >= kill_after
        assert on_disk == plan[:len(on_disk)]
        progress = len(on_disk)

    proc = start(log, db)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.splitlines()[0] == f"resumed {progress}"
    assert out.splitlines()[-1] == "over 1"
    assert logged(log) == plan
    replay = replay_file(log)
    assert replay.error is None and replay.game.over
    with History.open(db) as history:
        assert history.game_count() == 1
        assert history.events(1) == plan
