"""Safe shutdown from the operator menu.

The service runs as an unprivileged user; the polkit rule that the installer puts in
/etc/polkit-1/rules.d/ lets that user, and only it, power off or reboot through systemd.
Every event is already on disk, so shutting down loses nothing.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence

__all__ = ["shutdown"]

Runner = Callable[..., subprocess.CompletedProcess]


def shutdown(*, reboot: bool = False, run: Runner = subprocess.run) -> str | None:
    """Ask systemd to power off (or reboot) the machine.

    None when systemd accepted; otherwise a sentence for the screen saying why not. Never
    raises, never waits for a password.
    """
    what = "restarted" if reboot else "switched off"
    command: Sequence[str] = ["systemctl", "--no-ask-password", "reboot" if reboot else "poweroff"]
    try:
        result = run(command, capture_output=True, text=True, timeout=20, check=False)
    except FileNotFoundError:
        return f"This computer cannot be {what} from the table (no systemd here)."
    except subprocess.TimeoutExpired:
        return f"The table could not be {what}: the system did not answer."
    except OSError as exc:
        return f"The table could not be {what} ({exc.strerror or exc})."
    if result.returncode != 0:
        reason = (result.stderr or result.stdout or "").strip().splitlines()
        detail = f" ({reason[0]})" if reason else ""
        return (f"The table could not be {what}{detail}. Is the companion installed with "
                "scripts/install-kiosk.sh?")
    return None
