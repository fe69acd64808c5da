"""Kiosk mode: running unattended at a café under systemd, with history kept on disk."""
