"""systemd's notify protocol against a real datagram socket standing in for NOTIFY_SOCKET."""

from __future__ import annotations

import os
import socket
import tempfile
import time
import uuid

import pytest

from companion.kiosk.notify import Notifier, Watchdog


class FakeSystemd:
    """Binds the socket systemd would pass, and reads what the service sends."""

    def __init__(self, *, abstract: bool = False):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.settimeout(2)
        if abstract:
            name = f"abraca-test-{uuid.uuid4().hex}"
            self.sock.bind("\0" + name)
            self.env_value = "@" + name
            self._dir = None
        else:
            # AF_UNIX paths are limited to ~108 bytes: keep it short rather than under tmp_path.
            self._dir = tempfile.mkdtemp(prefix="nt")
            path = os.path.join(self._dir, "notify")
            self.sock.bind(path)
            self.env_value = path

    def messages(self) -> list[dict[str, str]]:
        """Every datagram waiting, each parsed into its KEY=VALUE fields."""
        out = []
        self.sock.setblocking(False)
        try:
            while True:
                data = self.sock.recv(4096)
                out.append(dict(line.split("=", 1) for line in data.decode().split("\n")))
        except BlockingIOError:
            pass
        finally:
            self.sock.settimeout(2)
        return out

    def close(self):
        self.sock.close()
        if self._dir:
            os.unlink(os.path.join(self._dir, "notify"))
            os.rmdir(self._dir)


@pytest.fixture(params=["path", "abstract"])
def systemd(request):
    fake = FakeSystemd(abstract=request.param == "abstract")
    yield fake
    fake.close()


def test_ready_status_stopping_reach_the_socket(systemd):
    n = Notifier(environ={"NOTIFY_SOCKET": systemd.env_value}, pid=4242)
    assert n.enabled
    assert n.ready("Table ready")
    assert n.status("Round 2: Ann's turn")
    assert n.watchdog_ping()
    assert n.stopping()
    assert systemd.messages() == [
        {"READY": "1", "MAINPID": "4242", "STATUS": "Table ready"},
        {"STATUS": "Round 2: Ann's turn"},
        {"WATCHDOG": "1"},
        {"STOPPING": "1"},
    ]


def test_status_text_cannot_inject_other_fields(systemd):
    n = Notifier(environ={"NOTIFY_SOCKET": systemd.env_value})
    n.status("camera lost\nSTOPPING=1")
    assert systemd.messages() == [{"STATUS": "camera lost STOPPING=1"}]


def test_status_is_utf8(systemd):
    n = Notifier(environ={"NOTIFY_SOCKET": systemd.env_value})
    n.status("앤의 차례")
    assert systemd.messages() == [{"STATUS": "앤의 차례"}]


def test_the_environment_is_read_by_default(systemd, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.env_value)
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    n = Notifier()
    assert n.watchdog_interval == 20.0
    assert n.ready() and n.stopping("bye")
    assert [sorted(m) for m in systemd.messages()] == [["MAINPID", "READY"],
                                                      ["STATUS", "STOPPING"]]


def test_no_socket_means_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    n = Notifier()  # from the environment
    assert n.ready() is False
    assert n.watchdog_ping() is False
    assert n.status("x") is False
    assert n.stopping() is False
    assert n.watchdog_interval is None
    assert Watchdog(clock=lambda: 0.0).tick() is False


@pytest.mark.parametrize("value", ["", "relative/path", "@", "vsock:2:1234"])
def test_unusable_socket_values_are_ignored(value):
    n = Notifier(environ={"NOTIFY_SOCKET": value})
    assert not n.enabled
    assert n.ready() is False


def test_socket_gone_returns_false_and_never_raises(caplog):
    d = tempfile.mkdtemp(prefix="nt")
    try:
        n = Notifier(environ={"NOTIFY_SOCKET": os.path.join(d, "gone")})
        assert n.enabled
        assert n.watchdog_ping() is False
        assert n.watchdog_ping() is False
    finally:
        os.rmdir(d)
    # Warned once, not at every ping.
    assert len([r for r in caplog.records if "cannot notify systemd" in r.message]) == 1


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"WATCHDOG_USEC": "10000000"}, 10.0),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "77"}, 10.0),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "78"}, None),  # for another process
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "x"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_from_environment(env, expected):
    assert Notifier(environ=env, pid=77).watchdog_interval == expected


def test_watchdog_pings_at_half_the_interval(systemd):
    now = [100.0]
    n = Notifier(environ={"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "10000000"})
    dog = Watchdog(n, clock=lambda: now[0])
    assert dog.interval == 10.0 and dog.period == 5.0
    pinged = []
    # The main loop runs every 0.5 s for 12 s of clock time.
    for _ in range(25):
        pinged.append((now[0], dog.tick()))
        now[0] += 0.5
    times = [t for t, p in pinged if p]
    assert times == [100.0, 105.0, 110.0]
    assert systemd.messages() == [{"WATCHDOG": "1"}] * 3


def test_a_frozen_loop_stops_the_pings(systemd):
    now = [0.0]
    n = Notifier(environ={"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "4000000"})
    dog = Watchdog(n, clock=lambda: now[0])
    assert dog.tick()
    assert systemd.messages() == [{"WATCHDOG": "1"}]
    now[0] = 30.0  # the loop is stuck: no tick, and nothing else pings in its place
    time.sleep(0.05)
    assert systemd.messages() == []  # (systemd would act on the silence)
    assert dog.tick()  # the first iteration after it pings at once
    assert systemd.messages() == [{"WATCHDOG": "1"}]


def test_watchdog_without_interval_never_pings(systemd):
    n = Notifier(environ={"NOTIFY_SOCKET": systemd.env_value})
    dog = Watchdog(n, clock=lambda: 0.0)
    assert dog.interval is None
    assert dog.tick() is False
    assert systemd.messages() == []
