"""Safe shutdown: the command it asks systemd for, and each way it can fail."""

from __future__ import annotations

import subprocess

from companion.kiosk.power import shutdown


class Recorder:
    def __init__(self, returncode=0, stderr="", raises=None):
        self.calls = []
        self.returncode, self.stderr, self.raises = returncode, stderr, raises

    def __call__(self, command, **kwargs):
        self.calls.append((list(command), kwargs))
        if self.raises:
            raise self.raises
        return subprocess.CompletedProcess(command, self.returncode, "", self.stderr)


def test_power_off_and_reboot_ask_systemd_without_a_password_prompt():
    run = Recorder()
    assert shutdown(run=run) is None
    assert shutdown(reboot=True, run=run) is None
    assert [c for c, _ in run.calls] == [
        ["systemctl", "--no-ask-password", "poweroff"],
        ["systemctl", "--no-ask-password", "reboot"],
    ]
    assert all(kw["timeout"] > 0 for _, kw in run.calls)


def test_refused_by_polkit():
    run = Recorder(returncode=1, stderr="Call to PowerOff failed: Access denied\n")
    message = shutdown(run=run)
    assert message.startswith("The table could not be switched off (Call to PowerOff failed: "
                              "Access denied).")
    assert "install-kiosk.sh" in message


def test_no_systemd_on_this_computer():
    message = shutdown(run=Recorder(raises=FileNotFoundError(2, "No such file")))
    assert message == "This computer cannot be switched off from the table (no systemd here)."


def test_no_answer():
    message = shutdown(reboot=True, run=Recorder(raises=subprocess.TimeoutExpired("x", 20)))
    assert message == "The table could not be restarted: the system did not answer."


def test_systemctl_that_cannot_be_run():
    message = shutdown(run=Recorder(raises=PermissionError(13, "Permission denied")))
    assert message == "The table could not be switched off (Permission denied)."
