"""`companion replay LOG [LOG ...]`: the final state of each log, one JSON line each."""

from __future__ import annotations

import argparse
import json
import sys

from companion.tablelog import replay_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="print the final state of table logs",
        description="Replay table logs. Prints one line per LOG: its final state as compact "
        'JSON, or {"error": {"line": N, "message": ...}} for the first bad line. '
        "Exits 1 if any log had a bad line.",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="a table log (JSON Lines)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    status = 0
    for path in args.logs:
        result = replay_file(path)
        if result.error is not None:
            status = 1
            line = result.error.to_json()
        else:
            line = result.game.state
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        out.write(b"\n")
    out.flush()
    return status
