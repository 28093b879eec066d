"""The print PDF and rules booklets of the deck on screen, built when asked for.

Files go into a folder of the server's own (made at start, removed at exit),
never into the designer's ``build/``; each is built once per snapshot of the
deck and handed out again until the next save, and only the latest snapshot's
files are kept. The print PDF is made as
``deckpress build`` makes it with no options, so it is the file ``build``
would write.
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from generator.booklet import booklet_paths, build_booklet
from generator.outputs import write_files_atomic
from generator.serve.preview import Snapshot, download_name
from generator.sheets.geometry import SheetSettings
from generator.sheets.press import press_deck
from generator.sheets.style import load_style


class Downloads:
    """Builds a snapshot's files into ``folder`` on first request (one build at a time)."""

    def __init__(self, folder: Path, drawing: threading.Lock):
        self.folder = folder
        self._drawing = drawing  # shared with the face images (see FaceImages.drawing)

    def file(self, deck_id: str, snapshot: Snapshot, kind: str) -> Path:
        """The file of ``kind`` for ``snapshot``, built now if it is not there yet."""
        drawable = snapshot.drawable
        if drawable is None:
            raise ValueError("the deck has nothing to build")
        target = self.folder / deck_id / str(snapshot.version) / download_name(drawable.deck, kind)
        with self._drawing:
            if not target.is_file():
                _forget_other_versions(target.parent)
                self._build(drawable.deck, drawable.checked, kind, target)
        return target

    @staticmethod
    def _build(deck, renderer, kind: str, target: Path) -> None:
        if kind == "print":
            style = load_style()
            press_deck(deck, renderer, SheetSettings.default(style), target.parent, style)
            return
        booklet = build_booklet(deck)
        reading, imposed = booklet_paths(deck, target.parent)
        write_files_atomic({reading: booklet.reading_pdf, imposed: booklet.booklet_pdf})


def _forget_other_versions(folder: Path) -> None:
    """Remove the files built for earlier snapshots of the deck: only the current ones are offered."""
    if folder.parent.is_dir():
        for earlier in folder.parent.iterdir():
            if earlier != folder:
                shutil.rmtree(earlier, ignore_errors=True)
