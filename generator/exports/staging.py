"""Putting an export's files in place all at once, and cleaning up only our own.

An export writes many files into one folder: a PNG per face, or TTS sheets and
the saved object that points at them. Writing them one by one into place would
leave a mixed set when a run fails halfway (new sheets beside an old JSON, or
sheets and no JSON at all). So each run goes through a :class:`StagedFolder`:

1. every file is written into a hidden temporary folder inside the target
   folder (same file system, so moving a file is one rename);
2. only when every file is written does :meth:`StagedFolder.commit` flush them
   all to disk (a full disk shows itself there at the latest) and move them
   into place, in the order they were written (the TTS saved object last, so
   it never points at sheets that are not there yet);
3. files an earlier export of the same deck wrote and this run did not (the
   PNG of a card since removed, a second sheet no longer needed) are deleted.

Which files are ours is kept in a small hidden manifest per deck and kind of
export (``.deckpress-<deck>-png.json``), so files a user put in the folder,
and other decks' exports sharing it, are never touched. A failed or
interrupted run calls :meth:`StagedFolder.discard`: the temporary folder goes,
and the previous export stays exactly as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from generator.outputs import naming_failures, temporary_folder, write_text_atomic

MANIFEST_NAME = ".deckpress-{deck}-{kind}.json"
"""Hidden, so it is not uploaded or printed along with the images."""
MAX_MANIFEST_BYTES = 1_000_000
"""A manifest lists file names only; anything larger is not one of ours."""
FLUSHING_THREADS = 16
"""Staged files flushed to disk at once. Flushes made together share the file system's journal
commits: one at a time, the 1,541 files of a 1,538-card PNG export took 7 ms each on a busy
machine's disk (11 s in all), sixteen at a time a tenth of that."""


@dataclass(repr=False, eq=False)
class StagedFolder:
    """One export run of one deck into one folder: files are staged, then put in place together."""

    folder: Path
    deck_id: str
    kind: str                                           # "png" or "tts": each keeps its own manifest
    staged: list[str] = field(default_factory=list)     # file names, in the order they were written
    temp: Path | None = None                            # the hidden staging folder, once made
    made_folders: list[Path] = field(default_factory=list)  # folders this run created, deepest first

    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST_NAME.format(deck=self.deck_id, kind=self.kind)

    def write_bytes(self, name: str, data: bytes) -> Path:
        """Stage ``data`` under ``name``; returns the path it will have once committed."""
        with self.stream(name) as stream:
            stream.write(data)
        return self.folder / name

    @contextlib.contextmanager
    def stream(self, name: str) -> Iterator[BinaryIO]:
        """A binary stream staging the file ``name``, for content too large to hold in memory at once."""
        if Path(name).name != name or name.startswith("."):
            raise ValueError(f"an export file name must be a plain name, not {name!r}")
        temp = self.temp if self.temp is not None else self._open()
        with naming_failures(self.folder / name), open(temp / name, "wb") as stream:
            yield stream
        if name not in self.staged:
            self.staged.append(name)

    def _open(self) -> Path:
        """Make the staging folder (and the target folder if need be); returns the staging folder."""
        missing = [folder for folder in (self.folder, *self.folder.parents) if not folder.exists()]
        self.folder.mkdir(parents=True, exist_ok=True)
        self.made_folders = missing
        self.temp = temporary_folder(self.folder, f"{self.deck_id}-{self.kind}")
        return self.temp

    def commit(self) -> None:
        """Move every staged file into place, then delete this deck's files the run no longer writes."""
        if self.temp is None:
            return
        flush_to_disk(self.folder, self.temp, self.staged)
        previous = read_manifest(self.manifest_path)
        # Listed before anything moves: if the moves are interrupted, the next run still knows them.
        write_manifest(self.manifest_path, self, previous + [name for name in self.staged if name not in previous])
        for name in self.staged:
            os.replace(self.temp / name, self.folder / name)
        for name in previous:
            if name not in self.staged:
                with contextlib.suppress(FileNotFoundError):
                    (self.folder / name).unlink()
        write_manifest(self.manifest_path, self, self.staged)
        self.temp.rmdir()
        self.temp = None
        self.made_folders = []

    def discard(self) -> None:
        """Forget the staged files; folders this run made go too if nothing else is in them."""
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)
            self.temp = None
        for folder in self.made_folders:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only succeeds on an empty folder
        self.made_folders = []


def flush_to_disk(folder: Path, temp: Path, names: list[str]) -> None:
    """Every staged file on disk before any is put in place, where a full disk shows itself at the
    latest; the first that fails is raised, named as the file it was to become in ``folder``."""
    def flush(name: str) -> None:
        with naming_failures(folder / name):
            descriptor = os.open(temp / name, os.O_RDWR)  # writable: Windows flushes no read-only file
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)

    with ThreadPoolExecutor(max_workers=max(1, min(FLUSHING_THREADS, len(names)))) as pool:
        list(pool.map(flush, names))  # taking every result raises the first failure


@contextlib.contextmanager
def all_or_nothing(*folders: StagedFolder) -> Iterator[None]:
    """Commit every folder if the block finishes; otherwise (error, Ctrl-C) discard them all."""
    try:
        yield
        for folder in folders:
            folder.commit()
    finally:
        for folder in folders:
            folder.discard()


def read_manifest(path: Path) -> list[str]:
    """The file names an earlier export recorded; nothing if the manifest is missing or not ours.

    Only plain names in the folder itself count, so an edited manifest cannot
    point a later run at files elsewhere.
    """
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            return []
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return []
    return [name for name in files
            if isinstance(name, str) and name and Path(name).name == name and not name.startswith(".")]


def write_manifest(path: Path, staged: StagedFolder, names: list[str]) -> None:
    record = {"deck": staged.deck_id, "export": staged.kind, "files": names}
    write_text_atomic(path, json.dumps(record, indent=2) + "\n")
