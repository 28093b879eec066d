"""Helpers for the hostile-input tests: a small deck to break, a time bound, and the
contract every refusal must keep (one error line, the right exit code, no traceback)."""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path

from cli_run import Run, deckpress

from generator.scaffold import create_deck

SECONDS_PER_CASE = 20
"""A hostile case must end long before this; a hang fails the test instead of CI."""


class TookTooLong(AssertionError):
    pass


@contextlib.contextmanager
def within(seconds: float = SECONDS_PER_CASE) -> Iterator[None]:
    """Fail (rather than hang) if the block runs longer than ``seconds``."""
    def expire(signum, frame):
        raise TookTooLong(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def new_deck(root: Path, name: str = "demo") -> Path:
    """The deck ``deckpress new`` makes: seven cards, a layout and rules, all valid."""
    return create_deck(root / "cards", name)


def set_layout_text(deck: Path, element: str, text: str) -> None:
    """Replace the ``text:`` of one element of the deck's layout.yaml."""
    path = deck / "layout.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"  - name: {element}")
    for number in range(start + 1, len(lines)):
        if lines[number].startswith("    text: "):
            lines[number] = f"    text: {json.dumps(text)}"
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def add_to_layout(deck: Path, yaml_text: str) -> None:
    """Put top-level settings at the start of the deck's layout.yaml; the entries of a section
    the layout already has (``icons:``) go into that section."""
    path = deck / "layout.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    section, _, entries = yaml_text.partition("\n")
    existing = [index for index, line in enumerate(lines) if line.split("#")[0].strip() == section]
    if section.endswith(":") and entries and existing:
        lines[existing[0] + 1:existing[0] + 1] = entries.split("\n")
    else:
        lines.insert(0, yaml_text)
    path.write_text("\n".join(lines), encoding="utf-8")


def add_rule(deck: Path, yaml_text: str) -> None:
    path = deck / "deck.yaml"
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + yaml_text + "\n",
                    encoding="utf-8")


def refused(run: Run, exit_codes: tuple[int, ...], *fragments: str) -> str:
    """The run ended with one of ``exit_codes`` and a one-line error holding every fragment;
    returns that line."""
    assert run.exit_code in exit_codes, (run.exit_code, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout
    errors = [line for line in run.error_lines if line.startswith("error:")]
    assert errors, run.stderr
    line = next((line for line in errors if all(fragment in line for fragment in fragments)), None)
    assert line is not None, (fragments, errors)
    return line


def png_declaring(path: Path, width: int, height: int) -> Path:
    """A small PNG file whose header declares ``width`` x ``height`` one-bit pixels (its data
    holds only the first rows): what a decompression bomb looks like before it is decoded."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = zlib.compress((b"\x00" + b"\x00" * ((width + 7) // 8)) * 16)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", rows) + chunk(b"IEND", b""))
    return path


def broken_pngs(folder: Path) -> dict[str, Path]:
    """A truncated PNG, one with a damaged data stream, and one that is not an image at all."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    good = folder / "good.png"
    Image.new("RGB", (64, 64), "red").save(good)
    data = good.read_bytes()
    damaged = bytearray(data)
    start = damaged.find(b"IDAT") + 8
    damaged[start:start + 24] = bytes(byte ^ 0x5A for byte in damaged[start:start + 24])
    files = {"truncated": data[: len(data) // 2], "damaged": bytes(damaged), "not a picture": b"hello"}
    for name, content in files.items():
        (folder / f"{name.replace(' ', '-')}.png").write_bytes(content)
    return {name: folder / f"{name.replace(' ', '-')}.png" for name in files}



WORKBOOK_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                           'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
                           'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                           '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
                           'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
                           'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
                           'worksheet+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                   'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
                   '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
                       '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                       '<sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                                  'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
                                  'openxmlformats.org/officeDocument/2006/relationships/worksheet" '
                                  'Target="worksheets/sheet1.xml"/></Relationships>',
}


def workbook(path: Path, rows: list[tuple[int, list[tuple[str, str]]]], dimension: str | None = None,
             extra: dict[str, bytes] | None = None) -> Path:
    """A minimal XLSX written by hand (so it can say what openpyxl would never write): ``rows``
    are (row number, [(cell reference, text)]); ``dimension`` the size the sheet declares;
    ``extra`` more files in the zip."""
    import zipfile

    cells = "".join(f'<row r="{number}">' + "".join(f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'
                                                   for ref, text in row) + "</row>" for number, row in rows)
    declared = f'<dimension ref="{dimension}"/>' if dimension else ""
    sheet = ('<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             f"{declared}<sheetData>{cells}</sheetData></worksheet>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in {**WORKBOOK_PARTS, "xl/worksheets/sheet1.xml": sheet}.items():
            archive.writestr(name, data)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return path

__all__ = ["SECONDS_PER_CASE", "TookTooLong", "add_rule", "add_to_layout", "broken_pngs", "deckpress",
           "new_deck", "png_declaring", "refused", "set_layout_text", "within", "workbook"]
