"""File references from untrusted deck folders must stay inside those folders."""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError, Position
from generator.revisions import current_source

MAX_FILE_NAME_BYTES = 255
"""The longest file name most file systems take, in bytes of UTF-8 (ext4 and APFS hold 255 bytes,
NTFS 255 characters), however short the path around it."""


def resolve_inside(folder: Path, reference: str, position: Position | None,
                   field: str | None = None) -> Path:
    """The file ``reference`` names relative to ``folder``, refusing anything outside it.

    Absolute paths, ``..`` escapes and symlinks pointing elsewhere are all refused, so a
    downloaded deck cannot make deckpress read files from the rest of the disk. The path is
    resolved as the files are read now (:meth:`~generator.revisions.FileSource.resolved`):
    on the disk through its links, at a git revision as the commit names it, since the
    working tree's links are not the commit's.
    """
    if not isinstance(reference, str) or not reference.strip():
        raise InputError("expected a file name", position, field=field)
    if "\0" in reference:  # the system refuses such a name before any check could run
        raise InputError(f"{reference!r} holds a NUL character, which no file name can", position, field=field)
    candidate = Path(reference)
    if candidate.is_absolute():
        raise InputError(f"'{reference}' must be a path inside the deck folder, not an absolute path",
                         position, field=field)
    source = current_source()
    root = source.resolved(folder)
    resolved = source.resolved(root / candidate)
    if resolved != root and root not in resolved.parents:
        raise InputError(f"'{reference}' points outside the deck folder", position, field=field)
    return resolved

