"""SVG files written to slip past the guards: entity declarations in every encoding an XML
parser reads (UTF-16 and UTF-32 with and without a byte order mark, UTF-7 or Latin-1 named
in the XML declaration), and a viewBox so small that drawing it at card size would need
numbers no PDF can hold. Art and icons alike: one line naming the file and its line, exit 2,
from ``check`` as from ``build``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import add_to_layout, deckpress, new_deck, refused, within

import generator.render.svg as svg
from generator.render.svg import SvgError, load_svg

ENTITY_SVG = """<?xml version="1.0" encoding="{encoding}"?>
<!DOCTYPE svg [<!ENTITY a "M0 0H9V9Z"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="&b;"/></svg>
"""
ENCODINGS = {
    "UTF-16 with a byte order mark": ("UTF-16", "utf-16"),
    "UTF-16LE without one": ("UTF-16", "utf-16-le"),
    "UTF-16BE without one": ("UTF-16", "utf-16-be"),
    "UTF-32 with a byte order mark": ("UTF-32", "utf-32"),
    "UTF-32LE without one": ("UTF-32", "utf-32-le"),
    "UTF-32BE without one": ("UTF-32", "utf-32-be"),
    "UTF-8 with a byte order mark": ("UTF-8", "utf-8-sig"),
    "UTF-7, as its declaration says": ("UTF-7", "utf-7"),
    "Latin-1, as its declaration says": ("ISO-8859-1", "latin-1"),
}


def entity_svg(encoding: str) -> bytes:
    declared, codec = ENCODINGS[encoding]
    data = ENTITY_SVG.format(encoding=declared).encode(codec)
    if codec == "utf-7":  # UTF-7 may write '<' as '+ADw-': the bytes then hold no '<!ENTITY' at all
        data = data.replace(b"<!ENTITY", b"+ADw-!ENTITY")
    return data


def deck_with_art(tmp_path: Path, data: bytes) -> Path:
    deck = new_deck(tmp_path)
    (deck / "art").mkdir()
    (deck / "art" / "bad.svg").write_bytes(data)
    add_to_layout(deck, "elements:\n  - {name: art, image: art/bad.svg, box: [10%, 10%, 30%, 30%]}")
    return deck


def deck_with_icon(tmp_path: Path, data: bytes) -> Path:
    deck = new_deck(tmp_path)
    (deck / "icons" / "sword.svg").write_bytes(data)
    return deck


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_svg_art_declaring_entities_is_refused_in_any_encoding(tmp_path, encoding):
    deck = deck_with_art(tmp_path, entity_svg(encoding))
    for command in (("check",), ("build", "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command, deck)
        line = refused(run, (2,), f"{deck / 'art' / 'bad.svg'}:2: ", "SVG image 'art/bad.svg' declares entities")
        assert len(run.error_lines) == 1, run.stderr
        assert "element 'art'" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_an_svg_icon_declaring_entities_is_refused_in_any_encoding(tmp_path, encoding):
    deck = deck_with_icon(tmp_path, entity_svg(encoding))
    with within():
        run = deckpress("check", deck)
    line = refused(run, (2,), "icon 'sword': 'icons/sword.svg' (line 2) declares entities")
    assert line.startswith(f"error: {deck / 'layout.yaml'}:")
    assert len([line for line in run.error_lines if line.startswith("error:")]) == 1


def test_what_the_parser_read_refuses_entities_too(tmp_path, monkeypatch):
    """Should an encoding ever be decoded wrongly before parsing, the parser's own reading of the
    file still finds its entity declarations."""
    path = tmp_path / "bad.svg"
    path.write_bytes(entity_svg("UTF-16LE without one"))
    monkeypatch.setattr(svg, "xml_text", lambda data: "")
    with pytest.raises(SvgError, match="declares entities"):
        load_svg(path)


def test_a_plain_utf16_svg_without_entities_is_drawn(tmp_path):
    path = tmp_path / "fine.svg"
    plain = "\n".join(line for line in ENTITY_SVG.splitlines() if "<!ENTITY" not in line).replace("&b;", "M0 0H9V9Z")
    path.write_bytes(plain.format(encoding="UTF-16").encode("utf-16"))
    art = load_svg(path)
    assert art.width == art.height == pytest.approx(7.5)  # 10 px


TINY = '<svg xmlns="http://www.w3.org/2000/svg"\n  {size}>\n<rect width="1e-300" height="1e-300"/></svg>\n'
"""Its size on line 2, the line the errors name."""


@pytest.mark.parametrize("size, said", [
    ('viewBox="0 0 1e-300 1e-300"', "has a viewBox 1e-300 by 1e-300 across"),
    ('width="1e-300" height="1e-300"', "is 7.5e-301 by 7.5e-301 points"),
    ('viewBox="0 0 -5 10"', "has a viewBox -5 by 10 across"),
])
def test_svg_art_too_small_to_scale_up_is_refused_when_read(tmp_path, size, said):
    deck = deck_with_art(tmp_path, TINY.format(size=size).encode())
    for command in (("check",), ("build", "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command, deck)
        line = refused(run, (2,), f"{deck / 'art' / 'bad.svg'}:2: ", f"SVG image 'art/bad.svg' {said}",
                       "at least 0.01 wide and high")
        assert "_rl_accel" not in line and "caused by" not in run.stderr
    assert not (tmp_path / "out").exists()


def test_an_svg_icon_too_small_to_scale_up_is_refused_when_read(tmp_path):
    deck = deck_with_icon(tmp_path, TINY.format(size='viewBox="0 0 1e-300 1e-300"').encode())
    with within():
        run = deckpress("check", deck)
    refused(run, (2,), f"{deck / 'layout.yaml'}:", "icon 'sword': 'icons/sword.svg' (line 2) has a viewBox "
            "1e-300 by 1e-300 across")
