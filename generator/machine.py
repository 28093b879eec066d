"""What the machine lends a command: the cores it may run on."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on: those it is pinned to (``taskset``) on Linux,
    every core elsewhere, and at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)
