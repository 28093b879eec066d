"""What the machine lends a command: the cores it may run on.

Three stages share work out when there is a core to spare: a build deflates its streams
in a helper process (:mod:`generator.sheets.deflate`), a verdict runs some checks in a
forked copy (:mod:`generator.verdict.beside`) and an export rasterises on every core
(:mod:`generator.exports.workers`).
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on: those it is pinned to (``taskset``) on Linux,
    every core elsewhere, and at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)
