"""The table log: append with fsync, torn last lines, and `companion replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.simulate import play_game
from companion.tablelog import TableLog, encode, replay_bytes, replay_file
from tests.helpers import UNDO, duel, game, inv

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "full-game.jsonl"


def write(path: Path, *lines) -> Path:
    path.write_bytes(b"".join(encode(x) if isinstance(x, dict) else x for x in lines))
    return path


def run_replay(capsys, *paths) -> tuple[int, list]:
    status = main(["replay", *map(str, paths)])
    out = capsys.readouterr().out.splitlines()
    return status, [json.loads(x) for x in out]


def test_replay_prints_the_final_state(tmp_path, capsys):
    log = write(tmp_path / "a.jsonl", game("Ann", "Ben", first="Ben"),
                inv("Ben", "cook", guess="chef"), duel("Ann", "Ben"), inv("Ben", "knight", True))
    status, [state] = run_replay(capsys, log)
    assert status == 0
    assert state == {
        "round": 1, "over": False, "winners": [], "deck": 17,
        "revealed": {"ghost": 0, "vampire": 0, "living_armor": 1, "butler": 0, "cook": 1,
                     "cleaner": 0},
        "players": [{"name": "Ann", "health": 3, "stones": 0, "alive": True},
                    {"name": "Ben", "health": 5, "stones": 1, "alive": True}],
        "expect": {"action": "turn", "player": "Ben"},
    }


def test_replay_reports_the_first_bad_line_and_goes_on(tmp_path, capsys):
    good = write(tmp_path / "good.jsonl", game("Ann", "Ben"), inv("Ann", "cook", True))
    bad = write(tmp_path / "bad.jsonl", game("Ann", "Ben"), b"\n", inv("Ben", "cook", True),
                b"{not json\n")
    status, lines = run_replay(capsys, bad, good)
    assert status == 1
    assert lines[0]["error"]["line"] == 3
    assert "Ann's turn" in lines[0]["error"]["message"]
    assert lines[1]["deck"] == 18


@pytest.mark.parametrize("content, line, words", [
    (b"{not json\n", 1, "not JSON"),
    (b'{"event": "game", "players": ["An\n', 1,
     "not JSON (Unterminated string starting at column 31)"),  # not "at at column"
    (b"", 1, "holds no game"),
    (b"\n\n", 1, "holds no game"),
    (encode(game("Ann", "Ben")) + b"\xff\xfe\n", 2, "not UTF-8"),
    (encode(game("Ann", "Ben")) + encode(UNDO), 2, "nothing to undo"),
    (encode(inv("Ann", "cook", True)), 1, "first line must be a game"),
    # These raised AttributeError and RecursionError: the kiosk restarted over and over.
    (encode(game("Ann", "Ben")) + b'{"event":"undo","n":' + b"9" * 5000 + b"}\n", 2,
     "its values are too long or nested too deeply"),
    (encode(game("Ann", "Ben")) + b'{"event":"game","players":' + b"[" * 100_000 + b"\n", 2,
     "its values are too long or nested too deeply"),
])
def test_replay_bad_logs(tmp_path, content, line, words):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    result = replay_file(path)
    assert result.error is not None
    assert result.error.line == line
    assert words in result.error.message


def test_replay_missing_file_is_an_error_not_a_crash(tmp_path, capsys):
    status, [line] = run_replay(capsys, tmp_path / "nope.jsonl")
    assert status == 1 and "cannot read the log" in line["error"]["message"]


def test_replay_runs_as_a_module_and_on_the_example():
    out = subprocess.run([sys.executable, "-m", "companion", "replay", str(EXAMPLE)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    state = json.loads(out.stdout)
    assert state["over"] is True and state["winners"]
    assert state["expect"] is None


def test_example_is_a_whole_game_with_each_kind_of_event():
    kinds = {json.loads(x)["event"] for x in EXAMPLE.read_text().splitlines() if x.strip()}
    assert kinds == {"game", "investigate", "duel", "reveal", "undo"}


def test_torn_last_line_is_an_error_for_replay_but_dropped_on_resume(tmp_path):
    path = write(tmp_path / "t.jsonl", game("Ann", "Ben"), inv("Ann", "cook", True),
                 b'{"event": "inves')
    assert replay_file(path).error.line == 3
    resumed = replay_file(path, torn_tail_ok=True)
    assert resumed.error is None
    assert resumed.game.state["deck"] == 18
    # Said on the table's screen: in the players' terms, not the JSON parser's.
    assert resumed.problems == ["last line (line 3) was cut short, most likely by a power "
                                "cut, and was left out: nothing the screen had shown is lost"]


def test_a_log_saved_again_with_a_byte_order_mark_is_still_read(tmp_path):
    """A Windows editor puts one at the start: 'Unexpected UTF-8 BOM', and the kiosk set
    the game in progress aside as a log holding no game."""
    path = write(tmp_path / "t.jsonl", game("Ann", "Ben"), inv("Ann", "cook", True))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    replay = replay_file(path)
    assert replay.error is None and replay.game.state["deck"] == 18


def test_a_replay_keeps_the_lines_it_replayed_undo_lines_included(tmp_path):
    lines = [game("Ann", "Ben"), inv("Ann", "cook", True), UNDO, inv("Ann", "butler", True)]
    path = write(tmp_path / "t.jsonl", *lines, b'{"event": "inves')
    assert replay_file(path, torn_tail_ok=True).lines == lines  # not the torn tail
    path = write(tmp_path / "t.jsonl", *lines[:3], b"garbage\n", lines[3])
    assert replay_file(path).lines == lines[:3]  # up to the bad line


def test_a_bad_line_in_the_middle_is_not_taken_for_a_torn_one(tmp_path):
    path = write(tmp_path / "t.jsonl", game("Ann", "Ben"), b'{"event": "inves\n',
                 inv("Ann", "cook", True))
    assert replay_file(path, torn_tail_ok=True).error.line == 2


def test_appending_writes_one_line_per_event_and_repairs_a_torn_tail(tmp_path):
    path = tmp_path / "g.jsonl"
    with TableLog(path) as log:
        log.append(game("Ann", "Ben"))
        log.append(inv("Ann", "cook", True))
    assert path.read_bytes().count(b"\n") == 2
    with open(path, "ab") as f:
        f.write(b'{"event": "duel", "pla')  # the power went off mid-write
    with TableLog(path) as log:
        assert log.repaired and "cut short" in log.repaired
        log.append(inv("Ben", "cook", False))
    result = replay_file(path)
    assert result.error is None and result.game.state["deck"] == 17


def test_a_whole_last_line_without_newline_is_kept(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(encode(game("Ann", "Ben")) + encode(inv("Ann", "cook", True))[:-1])
    with TableLog(path) as log:
        assert log.repaired is None
        log.append(inv("Ben", "cook", True))
    assert replay_file(path).game.state["deck"] == 17


def test_simulated_games_replay_from_their_logs():
    for seed in range(30):
        game_, events = play_game(["Ann", "Ben", "Cat", "Dan"][: 2 + seed % 3], seed)
        result = replay_bytes(b"".join(encode(e) for e in events))
        assert result.error is None
        assert result.game.state == game_.state and game_.over


@pytest.fixture
def disk_room():
    """Sets how many bytes a file may reach (RLIMIT_FSIZE: a write past it fails with
    EFBIG, as on a full disk), and gives the room back."""
    import resource
    import signal

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    yield lambda size: resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    signal.signal(signal.SIGXFSZ, old)


def test_a_line_the_disk_refused_is_not_written_later_with_its_retries(tmp_path, disk_room):
    """A full disk: each try to log the move failed, but the line stayed in the file's
    buffer, and once there was room all the tries reached the disk: the same move 55 times,
    and a log that no longer replayed."""
    path = tmp_path / "t.jsonl"
    log = TableLog(path)
    log.append(game("Ann", "Ben"))
    full = path.stat().st_size + 10  # room for a piece of the next line only
    disk_room(full)
    for _ in range(3):  # the move tried again and again while the disk is full
        with pytest.raises(OSError):
            log.append(inv("Ann", "cook", True))
    assert path.read_bytes() == encode(game("Ann", "Ben"))  # no piece of it either
    disk_room(10**9)  # room again
    log.append(inv("Ann", "cook", True))
    log.close()
    assert path.read_bytes() == encode(game("Ann", "Ben")) + encode(inv("Ann", "cook", True))
    assert replay_file(path).error is None


def test_a_file_far_too_large_to_be_a_log_is_refused_unread(tmp_path, capsys, monkeypatch):
    """A video given for the log: 32 MB took 500 MB of memory, enough to stop a 2 GB Pi."""
    import companion.tablelog as tablelog_module

    monkeypatch.setattr(tablelog_module, "MAX_LOG_BYTES", 1000)
    big = tmp_path / "film.mp4"
    big.write_bytes(encode(game("Ann", "Ben")) * 100)
    asked = []  # how much of the file each read asks for: never the whole of it

    class Watched:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self, size=-1):
            asked.append(size)
            return self.f.read(size)

    with monkeypatch.context() as patched:
        patched.setattr(tablelog_module, "open", lambda *a, **k: Watched(open(*a, **k)),
                        raising=False)
        replay = replay_file(big)
    assert replay.error.line == 0 and "far too large to be a table log" in replay.error.message
    assert asked == [1001]
    status, [line] = run_replay(capsys, big)
    assert status == 1 and "far too large" in line["error"]["message"]
