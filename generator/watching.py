"""Watching files for changes by polling, for ``deckpress watch``.

Polling file times every half second needs no platform-specific notifier,
works the same on every filesystem (network drives and containers included),
and costs nothing noticeable for a deck folder's handful of files.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

Snapshot = dict[Path, tuple[int, int]]  # file -> (modification time in ns, size)

SETTLE_SECONDS = 0.05
"""How long files must stay as they are after a change before the change is acted on, by
``watch`` and by the live preview. An editor that writes a file in place (emptying it,
then writing) can be caught in between, and the half-written file would be reported as
a broken deck before the next look read the whole."""
MAX_SETTLE_LOOKS = 10
"""Looks made while files keep changing (half a second at :data:`SETTLE_SECONDS`): a file
that something writes all the time is read as it is then, rather than never."""

IGNORED_PARTS = {"__pycache__", ".git", "build"}
IGNORED_PREFIXES = (".", "~")  # editor swap files, temporary files of atomic writes


def _inside_any(path: Path, folders: list[Path]) -> bool:
    """Whether ``path`` (resolved once) lies under one of the resolved ``folders``."""
    parents = path.resolve().parents
    return any(folder in parents for folder in folders)


def snapshot(roots: Iterable[Path], skipped: Iterable[Path] = ()) -> Snapshot:
    """The time and size of every file under ``roots`` (files or folders), leaving out
    anything under ``skipped`` (where the watcher's own rebuilds write)."""
    files: Snapshot = {}
    skipped = [folder.resolve() for folder in skipped]
    for root in roots:
        candidates = [root] if root.is_file() else sorted(root.rglob("*")) if root.is_dir() else []
        for path in candidates:
            if not path.is_file() or _ignored(path.relative_to(root) if path != root else Path(path.name)):
                continue
            if skipped and _inside_any(path, skipped):
                continue
            try:
                stat = path.stat()
            except OSError:  # deleted between listing and reading: seen as gone
                continue
            files[path] = (stat.st_mtime_ns, stat.st_size)
    return files


def _ignored(relative: Path) -> bool:
    """Skip editor temporaries and generated output, judged below the watched root."""
    return relative.name.startswith(IGNORED_PREFIXES) or bool(IGNORED_PARTS & set(relative.parts))


def changed_files(before: Snapshot, after: Snapshot) -> list[Path]:
    """Files added, removed or modified between two snapshots, sorted."""
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


@dataclass(repr=False, eq=False)
class Watcher:
    """Calls ``on_change`` with the changed files whenever something under ``roots`` changes.

    ``roots`` is asked for the files and folders to watch at every look, so they can follow
    the deck as it is now: the files of a folder that comes under watch (a project's fonts/
    made while watching) are changes, as are those of one that goes. ``skipped`` folders
    (the rebuild's output) are never looked at, so a rebuild cannot trigger itself. A change
    is acted on once the files have stayed as they are for ``settle`` seconds (see
    :data:`SETTLE_SECONDS`). ``sleep`` and ``keep_going`` are parameters so the loop can be
    driven in tests without real waiting.
    """

    roots: Callable[[], list[Path]]
    on_change: Callable[[list[Path]], None]
    interval: float = 0.5
    sleep: Callable[[float], None] = time.sleep
    skipped: tuple[Path, ...] = ()
    settle: float = SETTLE_SECONDS

    def run(self, keep_going: Callable[[], bool] = lambda: True, first: list[Path] | None = None) -> None:
        """Watch until ``keep_going`` says no; ``first``: changes to act on at once, once the
        files have been looked at, so a save made while they are acted on is seen."""
        previous = self._look(self.roots())
        if first:
            self.on_change(first)
        while keep_going():
            self.sleep(self.interval)
            roots = self.roots()
            current = self._look(roots)
            if current != previous:
                current = self._settled(roots, current)
            changes = changed_files(previous, current)
            if changes:
                self.on_change(changes)
            # The baseline is the files as they were before the rebuild read them: a save
            # made while it ran differs from it and is seen at the next look.
            previous = current

    def _look(self, roots: list[Path]) -> Snapshot:
        return snapshot(roots, self.skipped)

    def _settled(self, roots: list[Path], current: Snapshot) -> Snapshot:
        """The files once they have stayed unchanged for one settle (or after the last look)."""
        for _ in range(MAX_SETTLE_LOOKS):
            self.sleep(self.settle)
            later = self._look(roots)
            if later == current:
                break
            current = later
        return current
