"""Images in a rules file may only come from inside the deck's folder.

A rules file comes from whoever made the deck. Letting it name ``/etc/passwd``
or ``../../secrets.png`` would let a shared deck read files off the printing
machine into a PDF. The containment check is the project's own
(:func:`generator.paths.resolve_inside`); this adds what only images need:
no URLs, and the file must exist.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from generator import paths
from generator.errors import InputError, Position


def resolve_image(folder: Path, reference: str, position: Position) -> Path:
    """The image file ``reference`` names inside ``folder``; refuse URLs, escapes and missing files."""
    if "://" in reference or reference.startswith("data:"):
        raise InputError(f"image '{reference}' must be a file in the deck folder, not a URL",
                         position, field="image")
    target = paths.resolve_inside(folder, unquote(reference), position, field="image")
    if not target.is_file():
        raise InputError(f"image '{reference}' not found in {folder}", position, field="image")
    return target
