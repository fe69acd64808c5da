"""The `companion` command line.

Each part of the product registers its own subcommands from a module of its own, so that
the command line stays one small dispatcher. Modules keep heavy imports (OpenCV, pygame,
gpiozero) inside their command functions: `companion replay` must start fast.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys

# Modules with a `register(subparsers)` function. Missing ones are skipped.
COMMAND_MODULES = (
    "companion.replay",
    "vision.commands",
    "hardware.commands",
    "companion.app.commands",
    "companion.kiosk.commands",
)


# OpenCV's own warnings ("[ WARN:0@0.03] global cap_v4l.cpp:914 open VIDEOIO(V4L2:/dev/video5):
# can't open camera by index", FFmpeg's "[png @ 0x55aa...] Invalid PNG signature", libcamera's
# "INFO Camera camera_manager.cpp ..." lines on a Raspberry Pi) say in a programmer's words
# what the companion's own messages say in a player's, on the screen and in the kiosk's
# journal. Kept quiet unless asked for (OPENCV_LOG_LEVEL=INFO for instance); set before
# OpenCV or the Pi camera's library is first loaded, which no command does before its own
# function runs.
QUIET_LIBRARIES = {"OPENCV_LOG_LEVEL": "ERROR", "OPENCV_FFMPEG_LOGLEVEL": "-8",
                   "LIBCAMERA_LOG_LEVELS": "*:ERROR"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The Abraca Who? table companion.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    for name, value in QUIET_LIBRARIES.items():
        os.environ.setdefault(name, value)
    # A file name that is not UTF-8 (written on another system) is printed as the bytes it
    # has, not refused with a traceback after the work is done.
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="surrogateescape")
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C, even while the command is still starting
        return 130
    except BrokenPipeError:
        if not _output_gone():
            raise  # another pipe broke (a journal, a child): not ours to hide
        # Whoever read the output went away (`| head`): nothing more to say to them, and no
        # second error when Python flushes the pipe at exit.
        _output_nowhere()
        return 141
    except OutputError as exc:
        # A full disk behind `> results.txt`: the results are not where they were asked
        # for, and saying so is all that is left to do.
        print(f"companion: cannot write the output: {exc.strerror}", file=sys.stderr)
        _output_nowhere()
        return 1
    finally:
        sys.stdout = stdout


class OutputError(OSError):
    """Standard output cannot be written: a full disk, or started with it closed."""


class _Output:
    """Standard output (None: closed), whose failures to write are told apart from any other
    file's (OutputError), but for a reader gone (BrokenPipeError)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._do("write", text)

    def flush(self) -> None:
        self._do("flush")

    def _do(self, what: str, *args):
        if self._stream is None:
            raise OutputError(errno.EBADF, "the output is closed")
        try:
            return getattr(self._stream, what)(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror or str(exc)) from exc

    @property
    def buffer(self) -> _Output:
        """The bytes under the text (``companion replay`` writes UTF-8 whatever the locale)."""
        return _Output(None if self._stream is None else self._stream.buffer)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _output_nowhere() -> None:
    """Standard output sent nowhere: no second error when Python flushes it at exit."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # closed from the start: nothing waits to be flushed
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _output_gone() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (the system reports
    it as broken or hung up): nothing more can be written there."""
    import select

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    # A pipe reports POLLERR, a stream socket (the journal) POLLHUP.
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


if __name__ == "__main__":
    sys.exit(main())
