"""Watching files for changes by polling, for ``deckpress watch`` and the live preview.

Polling file times every half second needs no platform-specific notifier,
works the same on every filesystem (network drives and containers included),
and costs nothing noticeable for a deck folder's handful of files. Hidden
folders (a checkout's ``.git``, caches) are passed by and one look reads at
most :data:`MAX_WATCHED_ENTRIES` entries, so whatever else shares the deck's
folder cannot make polling expensive.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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

MAX_WATCHED_ENTRIES = 5_000
"""Files and folders one look lists, over all the watched folders. A deck of a thousand cards
with art on both faces has some 2,000; a look at 5,000 takes some 30 ms, and the preview
looks every quarter second, at every deck. A folder of something else kept in a deck's
folder (photos, a checkout, a tool's output) must not keep a core busy or slow every save.
Past it, the files nearest the top of each folder are watched and the rest are not."""

IGNORED_FOLDERS = {"__pycache__", "build"}  # and every hidden folder (.git, .cache, .venv)
IGNORED_PREFIXES = (".", "~")  # editor swap files, temporary files of atomic writes


@dataclass(frozen=True)
class Look:
    """The watched files as one look found them."""

    files: Snapshot
    cut_short_in: Path | None = None
    """The folder whose listing reached :data:`MAX_WATCHED_ENTRIES` (files past it, and in
    folders not listed yet, are left out); None when every file was looked at."""


def look(roots: Iterable[Path], skipped: Iterable[Path] = (), limit: int = MAX_WATCHED_ENTRIES) -> Look:
    """The time and size of every file under ``roots`` (files or folders), leaving out anything
    under ``skipped`` (where the watcher's own rebuilds write), editor temporaries, and the
    folders :func:`walked` passes by; at most ``limit`` files and folders are looked at.

    The folders are listed level by level, the top of every root first, so past the limit
    what is left out lies deepest: the files beside the deck file are looked at first.
    """
    avoided = {folder.resolve() for folder in skipped}
    files: Snapshot = {}
    waiting: deque[tuple[Path, Path]] = deque()  # (folder, the same resolved) still to list
    for root in roots:
        resolved = root.resolve()
        if resolved in avoided or not avoided.isdisjoint(resolved.parents):
            continue
        if root.is_dir():
            waiting.append((root, resolved))
        elif root.is_file() and not root.name.startswith(IGNORED_PREFIXES):
            _note_time(root, files)
    budget = limit
    while waiting:
        folder, resolved = waiting.popleft()
        entries, complete = _listed(folder, budget)
        budget -= len(entries)
        folders = []
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):  # a linked folder is not walked into
                if walked(entry.name) and resolved / entry.name not in avoided:
                    folders.append((folder / entry.name, resolved / entry.name))
            elif not entry.name.startswith(IGNORED_PREFIXES):
                _note_entry(folder, entry, avoided, files)
        if not complete:
            return Look(files, folder)
        waiting.extend(sorted(folders))
    return Look(files)


def times_of(files: Iterable[Path]) -> Snapshot:
    """The time and size of each of ``files``, none left out by its name (git's own files,
    whose names say nothing of a deck); a missing one is not in the snapshot, so that its
    coming shows as a change."""
    found: Snapshot = {}
    for path in files:
        _note_time(path, found)
    return found


def walked(name: str) -> bool:
    """Whether a folder of this name below a watched folder is looked into. Hidden folders are
    not: they hold what tools keep (git, caches, virtual environments), never what a deck is
    made of, and can hold many thousands of files. Nor are ``build`` (the default output) and
    ``__pycache__``."""
    return not name.startswith(".") and name not in IGNORED_FOLDERS


def _listed(folder: Path, budget: int) -> tuple[list[os.DirEntry[str]], bool]:
    """Up to ``budget`` entries of ``folder`` (none when it cannot be listed: removed, or not
    ours to read), and whether they are all it holds."""
    entries: list[os.DirEntry[str]] = []
    try:
        with os.scandir(folder) as listing:
            for entry in listing:
                if len(entries) == budget:
                    return entries, False
                entries.append(entry)
    except OSError:
        pass
    return entries, True


def _inside_any(path: Path, folders: set[Path]) -> bool:
    """Whether ``path`` (resolved: a link is judged by where it leads) lies under one of the
    resolved ``folders``."""
    return not folders.isdisjoint(path.resolve().parents)


def _note_entry(folder: Path, entry: os.DirEntry[str], skipped: set[Path], files: Snapshot) -> None:
    """Note the time of the file ``entry`` of ``folder`` (a link to a file is followed, and left
    out when it leads into a ``skipped`` folder); anything else listed is no file to watch."""
    try:
        if not entry.is_file() or (skipped and entry.is_symlink() and _inside_any(Path(entry.path), skipped)):
            return
        stat = entry.stat()
    except OSError:  # deleted between listing and reading: seen as gone
        return
    files[folder / entry.name] = (stat.st_mtime_ns, stat.st_size)


def _note_time(path: Path, files: Snapshot) -> None:
    try:
        stat = path.stat()
    except OSError:  # deleted between listing and reading: seen as gone
        return
    files[path] = (stat.st_mtime_ns, stat.st_size)


def changed_files(before: Snapshot, after: Snapshot) -> list[Path]:
    """Files added, removed or modified between two snapshots, sorted."""
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


def cut_short_line(folder: Path) -> str:
    """What a watch says when a look reaches :data:`MAX_WATCHED_ENTRIES`, stopping in ``folder``."""
    return (f"note: more than {MAX_WATCHED_ENTRIES:,} files and folders to watch: looking stops in {folder}, "
            "and a save past it goes unseen (move what the deck does not read out of its folder)")


@dataclass(repr=False, eq=False)
class CutShortNotice:
    """Tells once that looks at a deck's files stop at :data:`MAX_WATCHED_ENTRIES`, and again
    only after a look has seen every file (``watch`` and ``serve`` alike)."""

    told: bool = False

    def line(self, cut_short_in: Path | None) -> str | None:
        """The line to say after a look that stopped in ``cut_short_in`` (None: it saw every file)."""
        told, self.told = self.told, cut_short_in is not None
        return None if cut_short_in is None or told else cut_short_line(cut_short_in)


@dataclass(repr=False, eq=False)
class Watcher:
    """Calls ``on_change`` with the changed files whenever something under ``roots`` changes.

    ``roots`` is asked for the files and folders to watch at every look, so they can follow
    the deck as it is now: the files of a folder that comes under watch (a project's fonts/
    made while watching) are changes, as are those of one that goes. ``skipped`` folders
    (the rebuild's output) are never looked at, so a rebuild cannot trigger itself. A change
    is acted on once the files have stayed as they are for ``settle`` seconds (see
    :data:`SETTLE_SECONDS`). A look that reaches :data:`MAX_WATCHED_ENTRIES` is told to
    ``report`` in one line, once, until a look sees every file again. ``sleep`` and
    ``keep_going`` are parameters so the loop can be driven in tests without real waiting.
    """

    roots: Callable[[], list[Path]]
    on_change: Callable[[list[Path]], None]
    interval: float = 0.5
    sleep: Callable[[float], None] = time.sleep
    skipped: tuple[Path, ...] = ()
    settle: float = SETTLE_SECONDS
    report: Callable[[str], None] = lambda line: None
    _notice: CutShortNotice = field(default_factory=CutShortNotice, init=False)

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
        found = look(roots, self.skipped)
        line = self._notice.line(found.cut_short_in)
        if line is not None:
            self.report(line)
        return found.files

    def _settled(self, roots: list[Path], current: Snapshot) -> Snapshot:
        """The files once they have stayed unchanged for one settle (or after the last look)."""
        for _ in range(MAX_SETTLE_LOOKS):
            self.sleep(self.settle)
            later = self._look(roots)
            if later == current:
                break
            current = later
        return current
