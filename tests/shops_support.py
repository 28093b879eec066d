"""Helpers for the print-shop tests: every stream of a PDF decoded, its fonts, and a small
deck whose layout a test can change."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import DictionaryObject, StreamObject

from generator.scaffold import create_deck

RGB_OPERATOR = re.compile(rb"(?:^|[\s\]])(?:[-\d.]+\s+){3}(?:rg|RG)(?=\s|$)")


def decoded_streams(reader: PdfReader) -> list[tuple[DictionaryObject, bytes]]:
    """Every stream object of the file with its decoded data (images' as stored)."""
    found = []
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:  # a free object number
            continue
        if isinstance(obj, StreamObject):
            subtype = obj.get("/Subtype")
            data = obj._data if subtype == "/Image" else obj.get_data()
            found.append((obj, data))
    return found


def colour_spaces(reader: PdfReader) -> set[str]:
    """Every colour space name an image or a shading of the file names."""
    names = set()
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:
            continue
        if isinstance(obj, DictionaryObject) and "/ColorSpace" in obj:
            space = obj["/ColorSpace"]
            names.add(str(space if not isinstance(space, list) else space[0]))
    return names


def fonts(reader: PdfReader) -> dict[str, bool]:
    """Every font of the file, by name, and whether it is embedded."""
    found = {}
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:
            continue
        if isinstance(obj, DictionaryObject) and obj.get("/Type") == "/Font" and obj.get("/Subtype") != "/Type0":
            descriptor = obj.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            found[str(obj.get("/BaseFont"))] = any(key in descriptor for key in ("/FontFile", "/FontFile2",
                                                                                  "/FontFile3"))
    return found


def small_deck(root: Path, name: str = "demo") -> Path:
    """The deck ``deckpress new`` makes, made opaque (its back's see-through wash painted in the
    solid colour it shows over the back's grey), so it passes DriveThruCards as it is."""
    deck = create_deck(root / "cards", name)
    layout = deck / "layout.yaml"
    text = layout.read_text(encoding="utf-8").replace('wash: "#ffffff33"', 'wash: "#696969"')
    layout.write_text(text, encoding="utf-8")
    return deck


def add_element(deck: Path, yaml_lines: str) -> None:
    """Put an element at the end of the deck layout's ``elements:`` (before ``icons:`` if it follows)."""
    path = deck / "layout.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index("elements:")
    end = next((index for index in range(start + 1, len(lines))
                if lines[index] and not lines[index].startswith((" ", "#"))), len(lines))
    lines[end:end] = yaml_lines.rstrip("\n").split("\n")
    path.write_text("\n".join(lines), encoding="utf-8")
