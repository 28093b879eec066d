"""The font registry: names layouts use, mapped to TrueType files that get embedded.

Layouts name fonts (``font: Vera-Bold``); the registry maps each name to a
TrueType file. A name is looked up, first match wins, in:

1. the deck's own ``fonts/`` folder (``cards/<game>/fonts/``),
2. the project's ``fonts/`` folder (``<project>/fonts/``),
3. the fonts that come with deckpress: DejaVu Sans (``data/fonts/`` beside this
   module, the default for text that names no font) and reportlab's Bitstream
   Vera family.

In each folder a ``.ttf`` file is available under its file name without the
extension (``fonts/Gloria.ttf`` is ``Gloria``), and ``fonts.yaml`` may give
other names (``Hand: GloriaHallelujah.ttf``).

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

Font files come from strangers as often as decks do. A file with PostScript
(CFF) outlines, a font collection, a file cut short or damaged, or one far too
large is refused with one line naming it, before reportlab can fail on it
halfway through writing a PDF.

Every font is registered with reportlab as a TrueType font, never one of the
PDF base-14 fonts, so every PDF carries (a subset of) each font it uses and
prints the same everywhere.

A deck or layout that opts in with ``fonts: {system: true}`` may also name a
family installed on the computer (``font: Liberation Serif``, or
``Liberation Serif-Bold`` for one face), found through fontconfig
(:mod:`generator.render.systemfonts`) once no folder has the name; its files are
checked like any stranger's. Such a build depends on the machine, so
:meth:`FontRegistry.family_files` says where each family's files came from, for
the manifest.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from generator.errors import InputError, Position, describe_value, shown_path
from generator.loading import Document, load_yaml
from generator.reading import Problems, Reader
from generator.render.systemfonts import MAX_SYSTEM_FAMILIES, SystemFontError, find_system_family
from generator.revisions import NamedBytes, current_source

REGISTRY_FILENAME = "fonts.yaml"
FONTS_FOLDER = "fonts"
FONT_SUFFIXES = (".ttf",)
BUNDLED_FONTS_DIR = Path(__file__).parent / "data" / "fonts"
"""DejaVu Sans and its licence, shipped inside the package so installed copies have it."""
REPORTLAB_FONTS_DIR = Path(reportlab.__file__).parent / "fonts"
DEFAULT_FONT = "DejaVuSans"
"""The font of text elements that name none: wide coverage (Greek, Cyrillic, suits, dice)."""
DEFAULT_FONTS = {
    "Vera": "Vera.ttf",
    "Vera-Bold": "VeraBd.ttf",
    "Vera-Italic": "VeraIt.ttf",
    "Vera-BoldItalic": "VeraBI.ttf",
}
"""Always available: the Vera family reportlab ships with (free to embed)."""
MAX_FONT_BYTES = 40 * 1024 * 1024
"""A font file's size. Large CJK fonts run to some 20 MB; a file past this is not a font
a card needs, and parsing it would hold it all in memory."""
MAX_POSTSCRIPT_NAME = 63
"""Characters of a font's PostScript name, which a PDF names it by; a number added to tell two
files of one name apart stays within it."""
MAX_FONT_FILES = 500
"""Font files one fonts folder may offer. Each is a name to list and check; a folder of
thousands is a mistake (a system fonts folder copied whole), not a deck's fonts."""
TRUETYPE_TAGS = (b"\x00\x01\x00\x00", b"true")
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
FONT_SETTINGS = {"system"}
"""What a deck's or layout's ``fonts:`` mapping may say."""
BUNDLED_ORIGIN = "deckpress:"
REPORTLAB_ORIGIN = "reportlab:"
"""How the manifest names a font that comes with deckpress or with reportlab: by its file
name inside the package, the same on every machine."""


class MissingFace(ValueError):
    """A family has no face for the bold/italic combination asked for."""


@dataclass(frozen=True)
class Face:
    """Where one font name stands in its family."""

    family: str
    bold: bool = False
    italic: bool = False


@dataclass(repr=False, eq=False)
class FontRegistry:
    """Font names -> TrueType files, registered with reportlab on first use."""

    files: dict[str, Path]
    positions: dict[str, Position] = field(default_factory=dict)
    faces: dict[str, Face] = field(default_factory=dict)
    """Font name -> its family and style; a name not listed is the regular face of its own family."""
    searched: tuple[Path, ...] = ()
    """The folders names were looked up in, first match first (for 'unknown font' errors)."""
    trusted: frozenset[Path] = frozenset()
    """Files that come with deckpress: loaded without the checks a stranger's file gets."""
    origins: tuple[tuple[Path, str], ...] = ()
    """Folders (resolved) and how the manifest names a file inside them (``deck:fonts/``)."""
    system: set[str] = field(default_factory=set)
    """Names of faces found installed on the computer (:meth:`add_system_family`)."""
    _system_lookups: dict[str, dict[tuple[bool, bool], Path] | SystemFontError] = field(
        default_factory=dict, repr=False)
    _loaded: dict[str, TTFont] = field(default_factory=dict, repr=False)
    _by_path: dict[Path, TTFont] = field(default_factory=dict, repr=False)
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

    def font(self, name: str) -> TTFont:
        """The reportlab font for ``name``, registered (once) under a name unique to its file.

        reportlab keeps one process-wide table of fonts, so two projects that both
        call a different file "Title" must not overwrite each other: the
        registered name carries a short hash of the file path when needed. Two
        names for one file (``DejaVuSans-Italic`` and ``DejaVuSans-Oblique``)
        share one font, so a PDF embeds it once.
        """
        if name in self._loaded:
            return self._loaded[name]
        path = self.files[name]
        font = self._by_path.get(path)
        if font is None:
            font = self._register(name, path)
            self._by_path[path] = font
        self._loaded[name] = font
        return font

    def loaded_name(self, font_name: str) -> str:
        """The name this registry loaded the font reportlab draws as ``font_name`` under: most
        often ``font_name`` itself, but reportlab answers a second registration of one file with
        the first, made under its own name (the sheets' footer font is reportlab's Vera too)."""
        return next((name for name, font in self._loaded.items() if font.fontName == font_name), font_name)

    def _register(self, name: str, path: Path) -> TTFont:
        internal = _internal_name(name, path)
        trusted = path in self.trusted
        source = current_source()
        position = self.positions.get(name, Position(path))
        # Name the file unless the error's position already does (a name given in fonts.yaml).
        what = f"font '{name}'" if position.path == path else f"font '{name}' ({shown_path(path)})"
        try:
            local = source.local(path)
            registered = pdfmetrics.getFont(internal) if internal in pdfmetrics.getRegisteredFontNames() else None
            if registered is not None and (trusted or local is None):
                return registered  # shipped with deckpress, or at a git revision: it cannot have changed
            if not trusted:
                check_font_file(path)
            if registered is not None:
                # Read before in this process (the preview, watch, a build of several decks), and
                # maybe saved again since: the bytes compared are the bytes parsed.
                data = source.read(path, MAX_FONT_BYTES)
                if _holds(registered, data):
                    return registered
                internal = f"{name}-{hashlib.sha1(data).hexdigest()[:8]}"  # this version of the file
                if internal in pdfmetrics.getRegisteredFontNames():
                    return pdfmetrics.getFont(internal)
                font = TTFont(internal, NamedBytes(data, str(local)))
            else:
                font = TTFont(internal, str(local) if local is not None else source.opened(path, MAX_FONT_BYTES))
            if not trusted:
                _check_tables(font, path)
        except FontFileError as error:
            raise InputError(f"{what}: {error}", position, field=name) from None
        except TTFError as error:
            raise InputError(f"{what}: {_ttf_problem(error)}", position, field=name) from None
        except OSError as error:
            raise InputError(f"{what}: the file cannot be read ({error.strerror or error})", position,
                             field=name) from None
        except (struct.error, ValueError, KeyError, IndexError, TypeError, AttributeError,
                AssertionError, ArithmeticError, MemoryError, RecursionError) as error:
            raise InputError(f"{what}: {_damage(error)}", position, field=name) from None
        register_font(font)
        return font

    def add_system_family(self, name: str, position: Position) -> None:
        """Add the installed family ``name`` names (itself, or ``X`` of ``X-Bold``) with every face
        fontconfig has for it, as a family declared in ``fonts.yaml`` is added. Raises
        :class:`InputError` at ``position`` (where the font was asked for) when fontconfig is
        absent or has no such family or face; each family is looked up once."""
        family, style = _split_face(name)
        found = self._system_lookups.get(family)
        if found is None:
            if len(self._system_lookups) >= MAX_SYSTEM_FAMILIES:
                raise InputError(f"font '{name}': a deck may ask for at most {MAX_SYSTEM_FAMILIES} installed "
                                 "font families", position, field="font")
            try:
                found = find_system_family(family)
            except SystemFontError as error:
                found = error
            self._system_lookups[family] = found
            if isinstance(found, dict):
                for face_style, path in sorted(found.items()):
                    face_name = family + FACE_SUFFIXES[face_style]
                    if face_name not in self.files:  # a folder's font of that name comes first
                        self.files[face_name] = path
                        self.positions[face_name] = position
                        self.faces[face_name] = Face(family, *face_style)
                        self._by_face[self.faces[face_name]] = face_name
                        self.system.add(face_name)
        if isinstance(found, SystemFontError):
            raise InputError(f"font '{name}': {found}", position, field="font")
        if name not in self.files:
            raise InputError(f"font '{name}': the installed font family '{family}' has no {FACE_WORDS[style]} "
                             "face", position, field="font")

    def family_files(self, names: Iterable[str]) -> dict[str, dict[str, str]]:
        """The families of ``names``, each face (``regular``, ``bold``, ``italic``, ``bold-italic``)
        mapped to where its file came from: ``deckpress:DejaVuSans.ttf`` for a bundled font,
        ``deck:fonts/X.ttf`` or ``project:fonts/X.ttf`` for a deck's or project's, the absolute
        path of an installed one. A build that differs between two machines shows why here."""
        families: dict[str, dict[str, str]] = {}
        for family in sorted({self.face_of(name).family for name in names}):
            faces = {key: self._by_face.get(Face(family, *style)) for key, style in FACE_KEYS.items()}
            families[family] = {key: self.origin(found) for key, found in faces.items() if found is not None}
        return families

    def origin(self, name: str) -> str:
        """Where the file of font ``name`` came from (see :meth:`family_files`)."""
        path = self.files[name]
        if name not in self.system:
            for folder, label in self.origins:
                if folder in path.parents:
                    return label + path.relative_to(folder).as_posix()
        return str(path)

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

    def has_glyph(self, name: str, character: str) -> bool:
        return ord(character) in self.font(name).face.charToGlyph

    def missing_characters(self, name: str, text: str) -> list[str]:
        """Characters of ``text`` the font has no glyph for (spaces and line breaks excepted)."""
        glyphs = self.font(name).face.charToGlyph
        return sorted({char for char in text if char not in "\n\r\t " and ord(char) not in glyphs})


class FontFileError(ValueError):
    """A font file deckpress cannot use, and why (said in words a designer can act on)."""


def check_font_file(path: Path) -> None:
    """Refuse, before parsing, a file that is too large or not a TrueType font at all
    (:class:`FontFileError`, or OSError when it cannot be read)."""
    source = current_source()
    size = source.entry(path).size
    tag = source.read(path, 4)
    if size > MAX_FONT_BYTES:
        raise FontFileError(f"{size:,} bytes; a font file may have at most {MAX_FONT_BYTES:,}")
    if tag == b"OTTO":
        raise FontFileError("it has PostScript (CFF) outlines, which deckpress cannot embed; use the font's "
                            "TrueType (.ttf) version, or convert it")
    if tag == b"ttcf":
        raise FontFileError("it is a font collection (several fonts in one file); extract the one you want "
                            "as a .ttf file")
    if tag in (b"wOFF", b"wOF2"):
        raise FontFileError("it is a web font (WOFF); use the font's TrueType (.ttf) version")
    if tag not in TRUETYPE_TAGS:
        raise FontFileError("it is not a TrueType font (or it is damaged)")


def _check_tables(font: TTFont, path: Path) -> None:
    """Every table must lie inside the file, and glyphs must be readable: a file cut short
    parses, then fails (or writes a broken PDF) only when a page embeds its letters."""
    size = current_source().entry(path).size
    for tag, entry in font.face.table.items():
        if entry["offset"] + entry["length"] > size:
            raise FontFileError(f"the file is cut short (its '{tag.strip()}' table runs past the end); "
                                "copy the font again")
    sample = [code for code in range(0x20, 0x7F) if code in font.face.charToGlyph]
    font.face.makeSubset(sample or [0x20])


def _damage(error: Exception) -> str:
    """What a parse failure says of the font file, in a designer's words."""
    if isinstance(error, (struct.error, IndexError)):
        return "the file is cut short (it ends inside its own tables); copy the font again"
    if isinstance(error, KeyError) and error.args:
        return f"the file is damaged: it lacks its '{error.args[0]}' table, which every TrueType font has"
    return "the file is damaged and cannot be read as a TrueType font"


def _ttf_problem(error: TTFError) -> str:
    text = str(error)
    if "postscript outlines" in text.lower():
        return "it has PostScript (CFF) outlines, which deckpress cannot embed; use a TrueType (.ttf) font"
    if "not allowed" in text.lower() or "restricted" in text.lower():
        return "its licence does not allow embedding it in documents"
    return "it is damaged or cut short and cannot be read"


def _split_face(name: str) -> tuple[str, tuple[bool, bool]]:
    """``X-BoldItalic`` is ``X``'s bold italic face; a name without a face suffix is a regular face."""
    for style, suffix in sorted(FACE_SUFFIXES.items(), key=lambda item: -len(item[1])):
        if suffix and name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)], style
    return name, (False, False)


def system_fonts_wanted(document: Document, keys: tuple[Any, ...] = ("fonts",)) -> bool:
    """Whether ``fonts: {system: true}`` at ``keys`` of a deck or layout file lets its layouts
    name fonts installed on the computer (False when it is not written)."""
    reader = Reader(document)
    settings = reader.mapping(keys, "fonts")
    reader.known_keys(keys, FONT_SETTINGS, "fonts setting")
    wanted = settings.get("system", False)
    if not isinstance(wanted, bool):
        raise reader.fail((*keys, "system"), f"system is true or false, found {describe_value(wanted)}")
    return wanted


def _holds(font: TTFont, data: bytes) -> bool:
    """Whether the file ``data`` still holds every table ``font`` was read with, where it was."""
    for tag in font.face.table:
        offset, length = font.face.get_table_pos(tag)
        if data[offset:offset + length] != font.face.get_table(tag):
            return False
    return True


def register_font(font: TTFont) -> None:
    """Register ``font`` with reportlab so that drawing in its name draws its own glyphs.

    reportlab keeps one font for each PostScript name a file's name table gives: registering a
    second file of that name hands back the first, and whatever is drawn in the second is drawn
    and measured in the first's glyphs. That is right for a copy of the same font (one font,
    embedded once, and the PDF is the same whatever the process registered before) and wrong
    for another file of the name: two versions of one font in two decks of a build, or a font
    edited since the git revision a comparison draws. Such a file takes the name with the first
    free number after it (``DejaVuSans-2``: a number, not a hash of its path, so the PDF is the
    same on every machine)."""
    holders = {registered.face.name: registered
               for registered in map(pdfmetrics.getFont, pdfmetrics.getRegisteredFontNames())
               if isinstance(registered, TTFont)}
    if font.face.name in holders:
        name, mine, number = font.face.name, _glyph_data(font), 1
        while font.face.name in holders and _glyph_data(holders[font.face.name]) != mine:
            number += 1
            suffix = b"-%d" % number
            font.face.name = name[:MAX_POSTSCRIPT_NAME - len(suffix)] + suffix
    pdfmetrics.registerFont(font)


@lru_cache(maxsize=256)
def _glyph_data(font: TTFont) -> str:
    """A digest of every table of the font's file: equal for copies of one file."""
    digest = hashlib.sha1()
    for tag in sorted(font.face.table):
        digest.update(tag.encode("latin-1"))
        digest.update(font.face.get_table(tag))
    return digest.hexdigest()


def _internal_name(name: str, path: Path) -> str:
    """``name``, or ``name`` with a short hash of the file when another file has that name.
    A file is told apart by where it is read from too: a font at a git revision is not the
    font of that path on the disk (see :meth:`~generator.revisions.FileSource.identity`)."""
    # Ask the table of registered fonts, not getFont(): on an unknown name that
    # searches the disk for Type 1 metrics, which takes a noticeable while.
    identity = current_source().identity(path)
    if name not in pdfmetrics.getRegisteredFontNames():
        return name
    registered = pdfmetrics.getFont(name)
    if str(getattr(getattr(registered, "face", None), "filename", "")) == identity:
        return name
    return f"{name}-{hashlib.sha1(identity.encode('utf-8')).hexdigest()[:8]}"


@dataclass(repr=False, eq=False)
class _Table:
    """What the folders read so far say: names, where they were written, families."""

    files: dict[str, Path] = field(default_factory=dict)
    positions: dict[str, Position] = field(default_factory=dict)
    faces: dict[str, Face] = field(default_factory=dict)

    def add(self, name: str, path: Path, position: Position, face: Face | None = None) -> None:
        self.files[name] = path
        self.positions[name] = position
        if face is not None:
            self.faces[name] = face
        else:
            self.faces.pop(name, None)  # a nearer folder's file of that name is its own font


def load_font_registry(fonts_dir: Path | None, deck_folder: Path | None = None) -> FontRegistry:
    """The bundled fonts, then ``fonts_dir`` (the project's), then the deck's ``fonts/``:
    a name a nearer folder gives wins. ``deck_folder`` comes from strangers, so its fonts
    must really lie inside it. Every mistake in both folders is raised together."""
    bundled = _bundled_table()
    table = _Table(dict(bundled.files), dict(bundled.positions), dict(bundled.faces))
    trusted = frozenset(bundled.files.values())
    searched = [BUNDLED_FONTS_DIR, REPORTLAB_FONTS_DIR]
    problems = Problems()
    source = current_source()
    if fonts_dir is not None and source.is_dir(fonts_dir):
        problems.attempt(lambda: _read_folder(fonts_dir, table, problems), None)
        searched.insert(0, fonts_dir)
    deck_fonts = deck_folder / FONTS_FOLDER if deck_folder is not None else None
    if deck_fonts is not None and source.is_dir(deck_fonts):
        if fonts_dir is None or source.resolved(deck_fonts) != source.resolved(fonts_dir):
            problems.attempt(lambda: _read_folder(deck_fonts, table, problems, confined=deck_folder), None)
            searched.insert(0, deck_fonts)
    elif deck_fonts is not None:
        searched.insert(0, deck_fonts)
    problems.raise_any()
    origins = [(BUNDLED_FONTS_DIR.resolve(), BUNDLED_ORIGIN), (REPORTLAB_FONTS_DIR.resolve(), REPORTLAB_ORIGIN)]
    if deck_fonts is not None:
        origins.append((source.resolved(deck_fonts), f"deck:{FONTS_FOLDER}/"))
    if fonts_dir is not None:
        origins.append((source.resolved(fonts_dir), f"project:{fonts_dir.name}/"))
    return FontRegistry(table.files, table.positions, table.faces, tuple(searched), trusted, tuple(origins))


@lru_cache(maxsize=1)
def _bundled_table() -> _Table:
    """The fonts deckpress ships, read once per process (they cannot change while it runs)."""
    table = _Table()
    for name, filename in DEFAULT_FONTS.items():
        path = (REPORTLAB_FONTS_DIR / filename).resolve()
        table.add(name, path, Position(path))
    problems = Problems()
    _read_folder(BUNDLED_FONTS_DIR, table, problems)
    problems.raise_any()
    return table


def _read_folder(folder: Path, table: _Table, problems: Problems, confined: Path | None = None) -> None:
    """The ``.ttf`` files of one fonts folder by file name, then its ``fonts.yaml`` names.
    A file or entry with a mistake is left out, its mistake in ``problems``; a folder or
    registry that cannot be read at all is raised."""
    source = current_source()
    found = [path for path in source.listing(folder) if path.suffix.lower() in FONT_SUFFIXES]
    if len(found) > MAX_FONT_FILES:
        raise InputError(f"{len(found):,} font files; a fonts folder may offer at most {MAX_FONT_FILES}",
                         Position(folder))
    for path in found:
        target = problems.attempt(partial(_inside, path, confined, Position(path)) if confined
                                  else partial(source.resolved, path), None)
        if target is not None and source.is_file(target):
            table.add(path.stem, target, Position(path))
    registry_file = folder / REGISTRY_FILENAME
    if not source.is_file(registry_file):
        return
    if confined:
        _inside(registry_file, confined, Position(registry_file))
    document = load_yaml(registry_file)
    if not isinstance(document.data, dict):
        raise InputError("the font registry must map font names to .ttf files", document.at())
    for name, entry in document.data.items():
        problems.attempt(partial(_register_entry, folder, name, entry, document, table, confined), None)


def _register_entry(folder: Path, key: object, entry: object, document: Document, table: _Table,
                    confined: Path | None) -> None:
    """One ``fonts.yaml`` entry: a name for a file, or a family of faces."""
    if isinstance(entry, dict):
        _declare_family(folder, str(key), entry, document, table, confined)
        return
    position = document.at(key)
    table.add(str(key), _font_file(folder, entry, position, str(key), confined), position)


def _declare_family(folder: Path, family: str, entry: dict[Any, Any], document: Document, table: _Table,
                    confined: Path | None) -> None:
    """``Family: {regular: a.ttf, bold: b.ttf, ...}``: each face registered as Family, Family-Bold, ..."""
    unknown = [key for key in entry if key not in FACE_KEYS]
    if unknown or "regular" not in entry:
        raise InputError(f"font family '{family}' maps {', '.join(FACE_KEYS)} to .ttf files "
                         "(regular is required)", document.at(family, *(unknown[:1])), field=family)
    for key, filename in entry.items():
        style = FACE_KEYS[key]
        name = family + FACE_SUFFIXES[style]
        position = document.at(family, key)
        table.add(name, _font_file(folder, filename, position, name, confined), position, Face(family, *style))


def _font_file(folder: Path, filename: object, position: Position, name: str, confined: Path | None) -> Path:
    """A registry entry's file: inside its fonts folder, or one of the fonts deckpress ships."""
    if not isinstance(filename, str) or not filename.lower().endswith(FONT_SUFFIXES):
        raise InputError(f"expected a .ttf file name, found {filename!r}", position, field=name)
    relative = Path(filename)
    if relative.is_absolute() or ".." in relative.parts:
        raise InputError(f"font file '{filename}' must be inside {folder}", position, field=name)
    candidate = folder / relative
    source = current_source()
    if source.is_file(candidate):
        return _inside(candidate, confined, position) if confined else source.resolved(candidate)
    for bundled in (BUNDLED_FONTS_DIR, REPORTLAB_FONTS_DIR):
        if source.is_file(bundled / relative):
            return (bundled / relative).resolve()
    raise InputError(f"font file '{filename}' not found in {folder}", position, field=name)


def _inside(path: Path, folder: Path, position: Position) -> Path:
    """``path`` resolved as the files are read now, refused if it (or the symlink it is) leads
    out of ``folder``."""
    source = current_source()
    resolved = source.resolved(path)
    root = source.resolved(folder)
    if root not in resolved.parents:
        raise InputError(f"font file {path} points outside the deck folder", position, field="font")
    return resolved


def find_fonts_dir(deck_folder: Path) -> Path | None:
    """``fonts/`` of the project holding the deck (``<project>/cards/<game>/``), if it has one.

    Found from the deck's location, never from the working directory, so a deck
    builds the same wherever it is run from; without one the bundled fonts serve.
    """
    candidate = deck_folder.parent.parent / FONTS_FOLDER
    return candidate if current_source().is_dir(candidate) else None


MAX_INK_GLYPHS = 65_536
"""Characters whose ink extent one process remembers, over all fonts (past it, read from the font
again): every character of a large deck's text several times over, yet a bound on what hostile
text can make it keep."""


def ink_extent(font: TTFont, text: str) -> tuple[float, float]:
    """How far the ink of ``text`` in ``font`` reaches above and below the baseline, per point
    of size: the highest glyph's top (an accent on a capital stands above the font's ascent) and
    the lowest glyph's bottom, read from the glyphs' own bounds in the font file. A glyph the file
    gives no bounds for counts as the font's ascent and descent, so fitting never assumes less."""
    top, bottom = 0.0, 0.0
    for character in set(text):
        extent = _glyph_extent(font, character)
        top, bottom = max(top, extent[0]), max(bottom, extent[1])
    return top, bottom


@lru_cache(maxsize=64)
def _outlines(font: TTFont) -> tuple[int, bool, bytes, bytes] | None:
    """The font file's units per em, whether ``loca`` holds long offsets, and its ``loca`` and
    ``glyf`` tables, read once per font; None for a font without TrueType outlines."""
    face = font.face
    try:
        head = face.get_table("head")
        units = struct.unpack(">H", head[18:20])[0] or 1000
        long_offsets = struct.unpack(">h", head[50:52])[0] == 1
        return units, long_offsets, face.get_table("loca"), face.get_table("glyf")
    except (struct.error, TTFError, KeyError):
        return None


@lru_cache(maxsize=MAX_INK_GLYPHS)
def _glyph_extent(font: TTFont, character: str) -> tuple[float, float]:
    face = font.face
    fallback = (face.ascent / 1000, -face.descent / 1000)
    glyph = face.charToGlyph.get(ord(character))
    outlines = _outlines(font)
    if glyph is None or outlines is None:
        return fallback
    units, long_offsets, loca, glyf = outlines
    size = 4 if long_offsets else 2
    try:
        start, end = struct.unpack(">II" if long_offsets else ">HH", loca[glyph * size:glyph * size + 2 * size])
        if not long_offsets:
            start, end = 2 * start, 2 * end
        if start == end:
            return 0.0, 0.0  # a glyph with no outline (a space) has no ink
        y_min, _, y_max = struct.unpack(">hhh", glyf[start + 4:start + 10])
    except struct.error:
        return fallback
    return max(0.0, y_max / units), max(0.0, -y_min / units)
