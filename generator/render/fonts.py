"""The font registry: names layouts use, mapped to TrueType files that get embedded.

Layouts name fonts (``font: Vera-Bold``); the registry maps each name to a
TrueType file. Names are looked up in ``fonts/fonts.yaml`` of the project, then
among the defaults below (reportlab's bundled Bitstream Vera family). A file a
user drops into ``fonts/`` is also available under its file name without the
extension (``fonts/Gloria.ttf`` is ``Gloria``).

Every font is registered with reportlab as a TrueType font, never one of the
PDF base-14 fonts, so every PDF carries (a subset of) each font it uses and
prints the same everywhere.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from generator.deck.loading import load_yaml
from generator.errors import InputError, Position

REGISTRY_FILENAME = "fonts.yaml"
FONT_SUFFIXES = (".ttf",)
BUNDLED_FONTS_DIR = Path(reportlab.__file__).parent / "fonts"
DEFAULT_FONTS = {
    "Vera": "Vera.ttf",
    "Vera-Bold": "VeraBd.ttf",
    "Vera-Italic": "VeraIt.ttf",
    "Vera-BoldItalic": "VeraBI.ttf",
}
"""Always available: the Vera family reportlab ships with (free to embed)."""


@dataclass
class FontRegistry:
    """Font names -> TrueType files, registered with reportlab on first use."""

    files: dict[str, Path]
    positions: dict[str, Position] = field(default_factory=dict)
    _loaded: dict[str, TTFont] = field(default_factory=dict, repr=False)

    def __contains__(self, name: str) -> bool:
        return name in self.files

    def names(self) -> list[str]:
        return sorted(self.files)

    def font(self, name: str) -> TTFont:
        """The reportlab font for ``name``, registered (once) under a name unique to its file.

        reportlab keeps one process-wide table of fonts, so two projects that both
        call a different file "Title" must not overwrite each other: the
        registered name carries a short hash of the file path when needed.
        """
        if name in self._loaded:
            return self._loaded[name]
        path = self.files[name]
        internal = _internal_name(name, path)
        if internal in pdfmetrics.getRegisteredFontNames():
            font = pdfmetrics.getFont(internal)
        else:
            try:
                font = TTFont(internal, str(path))
            except (TTFError, OSError) as error:
                raise InputError(f"font '{name}' cannot be read from {path}: {error}",
                                 self.positions.get(name, Position(path))) from None
            pdfmetrics.registerFont(font)
        self._loaded[name] = font
        return font

    def missing_characters(self, name: str, text: str) -> list[str]:
        """Characters of ``text`` the font has no glyph for (spaces and line breaks excepted)."""
        glyphs = self.font(name).face.charToGlyph
        return sorted({char for char in text if char not in "\n\r\t " and ord(char) not in glyphs})


def _internal_name(name: str, path: Path) -> str:
    # Ask the table of registered fonts, not getFont(): on an unknown name that
    # searches the disk for Type 1 metrics, which takes a noticeable while.
    if name not in pdfmetrics.getRegisteredFontNames():
        return name
    registered = pdfmetrics.getFont(name)
    if Path(getattr(getattr(registered, "face", None), "filename", "")) == path:
        return name
    digest = hashlib.sha1(str(path).encode("utf-8")).hexdigest()[:8]
    return f"{name}-{digest}"


def load_font_registry(fonts_dir: Path | None) -> FontRegistry:
    """The defaults, then TTF files found in ``fonts_dir``, then its ``fonts.yaml`` entries."""
    files = {name: BUNDLED_FONTS_DIR / filename for name, filename in DEFAULT_FONTS.items()}
    positions: dict[str, Position] = {}
    if fonts_dir is None or not fonts_dir.is_dir():
        return FontRegistry(files)
    for path in sorted(fonts_dir.iterdir()):
        if path.suffix.lower() in FONT_SUFFIXES and path.is_file():
            files[path.stem] = path.resolve()
    registry_file = fonts_dir / REGISTRY_FILENAME
    if registry_file.is_file():
        document = load_yaml(registry_file)
        if not isinstance(document.data, dict):
            raise InputError("the font registry must map font names to .ttf files", document.at())
        for name, filename in document.data.items():
            position = document.at(name)
            files[str(name)] = _font_file(fonts_dir, filename, position, str(name))
            positions[str(name)] = position
    return FontRegistry(files, positions)


def _font_file(fonts_dir: Path, filename: object, position: Position, name: str) -> Path:
    """A registry entry's file: inside the fonts folder, or one of reportlab's bundled fonts."""
    if not isinstance(filename, str) or not filename.lower().endswith(FONT_SUFFIXES):
        raise InputError(f"expected a .ttf file name, found {filename!r}", position, field=name)
    relative = Path(filename)
    if relative.is_absolute() or ".." in relative.parts:
        raise InputError(f"font file '{filename}' must be inside {fonts_dir}", position, field=name)
    for folder in (fonts_dir, BUNDLED_FONTS_DIR):
        candidate = folder / relative
        if candidate.is_file():
            return candidate.resolve()
    raise InputError(f"font file '{filename}' not found in {fonts_dir}", position, field=name)


def find_fonts_dir(deck_folder: Path) -> Path | None:
    """``fonts/`` of the project holding the deck (``<project>/cards/<game>/``), if it has one.

    Found from the deck's location, never from the working directory, so a deck
    builds the same wherever it is run from; without one the defaults serve.
    """
    candidate = deck_folder.parent.parent / "fonts"
    return candidate if candidate.is_dir() else None
