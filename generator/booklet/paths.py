"""File references in a rules file (images) may only point inside the deck's folder.

A rules file comes from whoever made the deck. Letting it name ``/etc/passwd``
or ``../../secrets.png`` would let a shared deck read files off the
printing machine into a PDF, so such references are refused outright.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from generator.errors import InputError, Position


def resolve_inside(folder: Path, reference: str, position: Position) -> Path:
    """The file ``reference`` names, relative to ``folder``; refuse escapes and missing files."""
    if "://" in reference or reference.startswith("data:"):
        raise InputError(f"image '{reference}' must be a file in the deck folder, not a URL",
                         position, field="image")
    relative = PurePosixPath(unquote(reference).replace("\\", "/"))
    first = relative.parts[0] if relative.parts else ""
    if relative.is_absolute() or first.startswith("~") or ":" in first:  # "/x", "~/x", "C:/x"
        raise InputError(f"image '{reference}' must be a path relative to the deck folder, "
                         "not an absolute path", position, field="image")
    if ".." in relative.parts:
        raise InputError(f"image '{reference}' points outside the deck folder ('..' is not allowed)",
                         position, field="image")
    root = folder.resolve()
    target = (root / Path(*relative.parts)).resolve()
    if not target.is_relative_to(root):
        # A symbolic link inside the folder can still lead out of it.
        raise InputError(f"image '{reference}' leads outside the deck folder", position, field="image")
    if not target.is_file():
        raise InputError(f"image '{reference}' not found in {folder}", position, field="image")
    return target
