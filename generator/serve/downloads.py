"""The print PDF and rules booklets of the deck on screen, built when asked for.

Files go into a folder of the server's own (made at start, removed at exit),
never into the designer's ``build/``; each is built once per snapshot of the
deck and handed out again until the next save, and only the latest snapshot's
files are kept. A file is held by a :class:`Lease` while a response sends it,
and an earlier snapshot's folder goes only once its last lease is given back:
a save never deletes a file being downloaded. Each is the file the command
line writes: the print PDF is made as ``deckpress build`` makes it with no
options, the booklets as ``deckpress booklet`` does
(:func:`~generator.booklet.write_booklet`, from the deck as its files give it,
with no version stamped on from git).
"""

from __future__ import annotations

import shutil
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from generator.booklet import write_booklet
from generator.serve.preview import Drawable, Snapshot, download_name
from generator.sheets.geometry import SheetSettings
from generator.sheets.press import press_deck
from generator.sheets.style import load_style


class Lease:
    """A built file, kept on disk until :meth:`release` (once its response is sent or cut off)."""

    def __init__(self, path: Path, give_back: Callable[[], None]):
        self.path = path
        self._give_back: Callable[[], None] | None = give_back

    def release(self) -> None:
        """Give the file back, so its folder may go if it is an earlier snapshot's. Once is enough."""
        give_back, self._give_back = self._give_back, None
        if give_back is not None:
            give_back()


class Downloads:
    """Builds a snapshot's files into ``folder`` on first request (one build at a time)."""

    def __init__(self, folder: Path, drawing: threading.Lock):
        self.folder = folder
        self._drawing = drawing  # shared with the face images (see FaceImages.drawing)
        self._guard = threading.Lock()  # over the two below; never held while building
        self._leases: Counter[Path] = Counter()  # version folder -> files of it being sent
        self._newest: dict[Path, int] = {}  # deck folder -> newest version asked for

    def file(self, deck_id: str, snapshot: Snapshot, kind: str) -> Lease:
        """The file of ``kind`` for ``snapshot``, built now if it is not there yet, held until
        the lease is released."""
        drawable = snapshot.drawable
        if drawable is None:
            raise ValueError("the deck has nothing to build")
        folder = self.folder / deck_id / str(snapshot.version)
        target = folder / download_name(drawable.deck, kind)
        self._take(folder, snapshot.version)
        try:
            with self._drawing:
                if not target.is_file():
                    _build(drawable, kind, folder)
        except BaseException:
            self._give_back(folder)
            raise
        return Lease(target, lambda: self._give_back(folder))

    def _give_back(self, folder: Path) -> None:
        """One file of ``folder`` (a version's) is no longer being sent."""
        with self._guard:
            self._leases[folder] -= 1
            self._forget_unused(folder.parent)

    def _take(self, folder: Path, version: int) -> None:
        with self._guard:
            self._leases[folder] += 1
            self._newest[folder.parent] = max(version, self._newest.get(folder.parent, version))
            self._forget_unused(folder.parent)

    def _forget_unused(self, deck_folder: Path) -> None:
        """Remove the files built for earlier snapshots of the deck that no response is
        sending: only the newest are offered. Called with the guard held."""
        if not deck_folder.is_dir():
            return
        newest = str(self._newest.get(deck_folder))
        for earlier in deck_folder.iterdir():
            if earlier.name != newest and self._leases[earlier] <= 0:
                self._leases.pop(earlier, None)
                shutil.rmtree(earlier, ignore_errors=True)


def _build(drawable: Drawable, kind: str, folder: Path) -> None:
    """Write the file of ``kind`` into ``folder``, as the command that makes it writes it."""
    if kind == "print":
        style = load_style()
        press_deck(drawable.deck, drawable.checked, SheetSettings.default(style), folder, style)
    else:
        write_booklet(drawable.read, folder)
