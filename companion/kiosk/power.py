"""Safe shutdown from the operator menu.

The service runs as an unprivileged user; the polkit rule that the installer puts in
/etc/polkit-1/rules.d/ lets that user, and only it, power off or reboot through systemd.
Every event is already on disk, so shutting down loses nothing.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence

from companion.app.i18n import Notice

__all__ = ["shutdown"]

Runner = Callable[..., subprocess.CompletedProcess]


def shutdown(*, reboot: bool = False, run: Runner = subprocess.run) -> str | None:
    """Ask systemd to power off (or reboot) the machine.

    None when systemd accepted; otherwise a sentence for the screen saying why not (a
    Notice). Never raises, never waits for a password.
    """
    what = Notice("notice.power_restart" if reboot else "notice.power_off")
    command: Sequence[str] = ["systemctl", "--no-ask-password", "reboot" if reboot else "poweroff"]
    try:
        result = run(command, capture_output=True, text=True, timeout=20, check=False)
    except FileNotFoundError:
        return Notice("notice.power_no_systemd", what=what)
    except subprocess.TimeoutExpired:
        return Notice("notice.power_no_answer", what=what)
    except OSError as exc:
        return Notice("notice.power_error", what=what, error=exc.strerror or str(exc))
    if result.returncode != 0:
        reason = (result.stderr or result.stdout or "").strip().splitlines()
        if reason:
            return Notice("notice.power_refused", what=what, reason=reason[0])
        return Notice("notice.power_refused_plain", what=what)
    return None
