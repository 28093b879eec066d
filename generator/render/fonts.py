"""The font registry: names layouts use, mapped to TrueType files that get embedded.

Layouts name fonts (``font: Vera-Bold``); the registry maps each name to a
TrueType file. Names are looked up in ``fonts/fonts.yaml`` of the project, then
among the defaults below (reportlab's bundled Bitstream Vera family). A file a
user drops into ``fonts/`` is also available under its file name without the
extension (``fonts/Gloria.ttf`` is ``Gloria``).

Fonts come in families, so ``**bold**`` and ``*italic*`` in card text can pick
the matching face. A family is a regular face plus any of bold, italic and
bold-italic, found in either of two ways:

- by name: ``X-Bold``, ``X-Italic`` and ``X-BoldItalic`` beside ``X`` (the Vera
  faces, or ``Gloria.ttf`` and ``Gloria-Bold.ttf`` dropped into ``fonts/``);
- declared in ``fonts.yaml``, a family name mapped to its faces' files, which
  also registers the faces under those names::

      Hand:
        regular: GloriaHallelujah.ttf
        bold: GloriaHallelujah-Bold.ttf      # now Hand and Hand-Bold

Asking for a face the family lacks raises :class:`MissingFace`: a bold word
silently printed regular would be a misprint nobody notices until the table.

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
FACE_SUFFIXES = {
    (False, False): "",
    (True, False): "-Bold",
    (False, True): "-Italic",
    (True, True): "-BoldItalic",
}
"""A family's faces by (bold, italic), named by these suffixes after the family's name."""
FACE_KEYS = {"regular": (False, False), "bold": (True, False), "italic": (False, True),
             "bold-italic": (True, True)}
"""How ``fonts.yaml`` names the faces of a declared family."""
FACE_WORDS = {(True, False): "bold", (False, True): "italic", (True, True): "bold italic"}


class MissingFace(ValueError):
    """A family has no face for the bold/italic combination asked for."""


@dataclass(frozen=True)
class Face:
    """Where one font name stands in its family."""

    family: str
    bold: bool = False
    italic: bool = False


@dataclass
class FontRegistry:
    """Font names -> TrueType files, registered with reportlab on first use."""

    files: dict[str, Path]
    positions: dict[str, Position] = field(default_factory=dict)
    faces: dict[str, Face] = field(default_factory=dict)
    """Font name -> its family and style; a name not listed is the regular face of its own family."""
    _loaded: dict[str, TTFont] = field(default_factory=dict, repr=False)
    _by_face: dict[Face, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for name in self.files:  # families by name: X-Bold beside X
            for style, suffix in FACE_SUFFIXES.items():
                family = name[:-len(suffix)] if suffix and name.endswith(suffix) else None
                if family and family in self.files and name not in self.faces:
                    self.faces[name] = Face(family, *style)
        self._by_face = {face: name for name, face in sorted(self.faces.items())}
        self._by_face.update({Face(name): name for name in self.files if name not in self.faces})

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

    def face_of(self, name: str) -> Face:
        return self.faces.get(name, Face(name))

    def styled(self, name: str, bold: bool, italic: bool) -> str:
        """The font of ``name``'s family that adds ``bold`` and/or ``italic`` to ``name``'s own style.

        ``styled("Vera", bold=True, italic=False)`` is ``Vera-Bold``; bold text in a
        ``Vera-Italic`` element is ``Vera-BoldItalic``. Raises :class:`MissingFace`
        when the family has no such face.
        """
        face = self.face_of(name)
        wanted = (face.bold or bold, face.italic or italic)
        if wanted == (face.bold, face.italic):
            return name
        found = self._by_face.get(Face(face.family, *wanted))
        if found is not None:
            return found
        present = [FACE_WORDS.get(style, "regular") for style in FACE_SUFFIXES
                   if Face(face.family, *style) in self._by_face]
        raise MissingFace(f"font family '{face.family}' has no {FACE_WORDS[wanted]} face (it has: "
                          f"{', '.join(present)}); add {face.family}{FACE_SUFFIXES[wanted]}.ttf to "
                          f"fonts/ or declare the family's faces in fonts/fonts.yaml")

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
    faces: dict[str, Face] = {}
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
        for name, entry in document.data.items():
            if isinstance(entry, dict):
                _declare_family(fonts_dir, str(name), entry, document, files, positions, faces)
                continue
            position = document.at(name)
            files[str(name)] = _font_file(fonts_dir, entry, position, str(name))
            positions[str(name)] = position
    return FontRegistry(files, positions, faces)


def _declare_family(fonts_dir: Path, family: str, entry: dict, document, files: dict[str, Path],
                    positions: dict[str, Position], faces: dict[str, Face]) -> None:
    """``Family: {regular: a.ttf, bold: b.ttf, ...}``: each face registered as Family, Family-Bold, ..."""
    unknown = [key for key in entry if key not in FACE_KEYS]
    if unknown or "regular" not in entry:
        raise InputError(f"font family '{family}' maps {', '.join(FACE_KEYS)} to .ttf files "
                         "(regular is required)", document.at(family, *(unknown[:1])), field=family)
    for key, filename in entry.items():
        style = FACE_KEYS[key]
        name = family + FACE_SUFFIXES[style]
        position = document.at(family, key)
        files[name] = _font_file(fonts_dir, filename, position, name)
        positions[name] = position
        faces[name] = Face(family, *style)


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
