"""Kiosk commands: `companion stats` and `companion export`.

    companion stats [--db PATH] [--games] [--json]
    companion export GAME_ID --format log|bgstats [--db PATH] [-o FILE]

Without --db, the history database is the one the configuration names (--config, default
/etc/abraca-companion/config.toml when it exists).
"""

from __future__ import annotations

import argparse
import json
import stat
import sys
from pathlib import Path

from companion.argtypes import named_path

DEFAULT_CONFIG = Path("/etc/abraca-companion/config.toml")


def register(subparsers) -> None:
    stats = subparsers.add_parser(
        "stats", help="players' games, wins and stones from the history of finished games",
        description="Each player's games, wins and stones, from the table's history of finished "
                    "games (the database the configuration names, or --db).")
    _database_options(stats)
    stats.add_argument("--games", action="store_true", help="also list the finished games")
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    stats.set_defaults(func=stats_command)

    export = subparsers.add_parser(
        "export", help="export a finished game as its table log or for BG Stats",
        description="Print (or write to FILE) one finished game from the table's history: its "
                    "table log (the default), or a play to import into BG Stats.")
    export.add_argument("game_id", metavar="GAME_ID", type=_game_number,
                        help="the game's number, as `companion stats --games` lists it")
    export.add_argument("--format", choices=("log", "bgstats"), default="log",
                        help="log: the table log (JSON Lines); bgstats: a BG Stats play (JSON)")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not the screen")
    _database_options(export)
    export.set_defaults(func=export_command)


def _game_number(text: str) -> int:
    """A game's number as `stats --games` lists them (argparse type): a whole number from 1,
    within what the history can hold (a longer one ended in a traceback)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number < 2**63:
        raise argparse.ArgumentTypeError(f"{text!r} is no game's number: give a number that "
                                         "`companion stats --games` lists")
    return number


def _database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", type=named_path, help="the history database")
    parser.add_argument("--config", metavar="PATH", type=named_path,
                        help=f"the configuration that names the database (default {DEFAULT_CONFIG}"
                             " if present)")


def _database_path(args) -> Path:
    if args.db:
        return Path(args.db)
    from companion.config import load_config

    config_path = args.config
    if config_path is None:
        config_path = DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None
    config, warnings = load_config(config_path)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return config.database_path


def _open(args):
    from companion.kiosk.history import History, HistoryError

    path = _database_path(args)
    if not path.exists():
        print(f"No game history at {path} yet.", file=sys.stderr)
        return None
    try:
        return History.open(path)
    except HistoryError as exc:
        if exc.reason not in ("readonly", "open"):
            raise
        # A memory card gone read-only: what is on it can still be read.
        try:
            history = History.open_to_read(path)
        except HistoryError as unread:  # why it cannot be read, when it can be opened
            raise exc if unread.reason in ("readonly", "open") else unread from None
    if history.empty:
        history.close()
        print(f"No game history at {path} yet.", file=sys.stderr)
        return None
    print(f"warning: {path} is read-only: the history is shown as it was last saved"
          + (", and the games saved last may be missing (the table stopped without closing "
             "it)." if history.stale else "."), file=sys.stderr)
    return history


def stats_command(args) -> int:
    from companion.kiosk.history import HistoryError

    try:
        history = _open(args)
        if history is None:
            return 1
        with history:
            players = history.player_stats()
            games = history.list_games() if args.games else []
            count = history.game_count()
    except HistoryError as exc:
        print(exc.outside_a_game, file=sys.stderr)
        return 1
    if args.json:
        out = {"games": count,
               "players": [{"name": p.name, "games": p.games, "wins": p.wins,
                            "stones": p.stones} for p in players]}
        if args.games:
            out["finished"] = [{"id": g.id, "finished_at": g.finished_at.isoformat(),
                                "rounds": g.rounds, "stones": dict(g.stones),
                                "winners": list(g.winners)} for g in games]
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{count} finished game{'s' if count != 1 else ''}")
    if players:
        width = max(6, *(len(p.name) for p in players))
        print(f"{'player':<{width}}  games  wins  stones")
        for p in players:
            print(f"{p.name:<{width}}  {p.games:>5}  {p.wins:>4}  {p.stones:>6}")
    if games:
        print()
        print("  id  finished (UTC)     rounds  stones (winners marked *)")
        for g in games:
            stones = ", ".join(f"{n}{'*' if n in g.winners else ''} {s}"
                               for n, s in g.stones.items())
            print(f"{g.id:>4}  {g.finished_at:%Y-%m-%d %H:%M}  {g.rounds:>6}  {stones}")
    return 0


def export_command(args) -> int:
    from companion.kiosk.history import HistoryError

    try:
        history = _open(args)
        if history is None:
            return 1
        with history:
            if args.format == "log":
                text = history.export_log(args.game_id)
            else:
                text = json.dumps(history.export_bgstats(args.game_id), ensure_ascii=False,
                                  indent=2) + "\n"
    except HistoryError as exc:
        print(exc.outside_a_game, file=sys.stderr)
        return 1
    if args.output:
        from companion.tablelog import write_atomically

        out = Path(args.output)
        try:
            st = out.stat()
        except OSError:
            st = None  # not there yet (or not to be told: writing will say)
        if st is not None and (stat.S_ISDIR(st.st_mode)
                               or (stat.S_ISREG(st.st_mode) and st.st_size)):
            # A table log or another export given by mistake would be lost for good.
            print(f"{args.output} already exists: give a new file name, or remove it first.",
                  file=sys.stderr)
            return 1
        try:
            if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/stdout, a pipe
                with open(out, "w", encoding="utf-8") as f:
                    f.write(text)
            else:
                write_atomically(out, text.encode("utf-8"))
        except OSError as exc:
            print(f"Cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0
