"""The start of every run, for ``deckpress`` and ``python -m generator`` alike.

Two things happen before the command line is even imported:

- ``python -m`` puts the working directory first on the import path, and a
  deck folder is someone else's: a ``reportlab_settings.py`` there would be run
  by reportlab as it starts, a ``yaml.py`` would stand in for PyYAML. So the
  working directory is taken off the path again (what Python's ``-P`` flag
  does). The package itself is already imported by then, so its own modules
  are still found.
- SIGTERM (``kill``, a CI timeout) and SIGHUP (a closed terminal) end the
  command the way Ctrl-C does, by raising KeyboardInterrupt where it runs, so
  every output being written removes its temporary files, and the command
  exits with 128 plus the signal's number (see ``generator.cli.stopped_exit_code``);
  Python's default for them is to stop on the spot and leave the temporaries behind.
"""

import os
import signal
import sys
from types import FrameType

STOPPING_SIGNALS = ("SIGTERM", "SIGHUP")


def main() -> None:
    if not getattr(sys.flags, "safe_path", False):  # the flag (-P, PYTHONSAFEPATH) is new in Python 3.11
        forget_working_directory(sys.path)
    stop_like_ctrl_c(STOPPING_SIGNALS)
    from generator.cli import main as run_command_line  # noqa: PLC0415  (it imports reportlab: not before the path is safe)

    run_command_line()


def forget_working_directory(path: list[str]) -> None:
    """Drop the entry ``python -m`` put first on ``path`` for the working directory."""
    if path and os.path.realpath(path[0] or os.curdir) == os.path.realpath(os.getcwd()):
        del path[0]


def stop_like_ctrl_c(names: tuple[str, ...]) -> None:
    """Make each named signal (where the platform has it) raise KeyboardInterrupt."""
    for name in names:
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) == signal.SIG_DFL:
            signal.signal(number, _interrupt)


def _interrupt(number: int, frame: FrameType | None) -> None:
    signal.signal(number, signal.SIG_DFL)  # a second signal ends the process at once
    raise KeyboardInterrupt(signal.Signals(number).name)


if __name__ == "__main__":
    main()
