"""Fonts as a user meets them: every script by default, a deck's own fonts, fallback lists and
broken font files, read back from the PDFs deckpress writes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress
from fontTools.ttLib import TTFont as TTFontFile
from reportlab import __file__ as reportlab_file

from generator.cli.watch import watched_roots
from generator.serve.preview import DeckPreview

VERA = Path(reportlab_file).parent / "fonts"
BUNDLED = Path(__file__).resolve().parent.parent / "generator" / "render" / "data" / "fonts"

DECK = """\
deck: {{name: {name}, layout: face}}
fields:
  name: {{type: text, required: true}}
  text: text
cards:
{cards}
"""

LAYOUT = """\
size: [63mm, 88mm]
elements:
  - name: title
    text: "{{{{ name }}}}"
    box: [5, 5, 53, 10]
    size: 14
    align: center
{extra}"""


def project(tmp_path: Path, cards: list[tuple[str, str]], extra: str = "", name: str = "Fonts") -> Path:
    """A project with one deck ``cards/test`` whose layout prints each card's name as its title."""
    folder = tmp_path / "cards" / "test"
    folder.mkdir(parents=True)
    rows = "\n".join(f"  - {{id: {card_id}, name: \"{title}\"}}" for card_id, title in cards)
    (folder / "deck.yaml").write_text(DECK.format(name=name, cards=rows), encoding="utf-8")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "face.yaml").write_text(LAYOUT.format(extra=extra), encoding="utf-8")
    return folder


def build(tmp_path: Path, folder: Path):
    return deckpress("build", folder, "--out", tmp_path / "out", "--quiet", "--no-check")


def title_chars(tmp_path: Path, page: int = 0) -> list[dict]:
    """The characters of the first card's title (the topmost line of the sheet's first card)."""
    with pdfplumber.open(tmp_path / "out" / "test.pdf") as pdf:
        chars = [char for char in pdf.pages[page].chars if char["text"].strip()]
    top = min(char["top"] for char in chars)
    return sorted((char for char in chars if abs(char["top"] - top) < 3), key=lambda char: char["x0"])


def font_of(char: dict) -> str:
    return char["fontname"].split("+")[-1]


# --- the default font ---------------------------------------------------------------------


@pytest.mark.parametrize("title", ["Ἀθηνᾶ καὶ Ζεύς", "Жар-птица", "Łódź Gdańsk Źdźbło", "♠ ♥ ♦ ♣ ★ ✓ ⚀ ⚅"])
def test_any_script_prints_in_the_default_font_without_naming_one(tmp_path, title):
    folder = project(tmp_path, [("one", title)])
    run = build(tmp_path, folder)
    assert run.exit_code == 0, run.stderr
    chars = title_chars(tmp_path)
    assert "".join(char["text"] for char in chars) == title.replace(" ", "")
    assert {font_of(char) for char in chars} == {"DejaVuSans"}


def test_a_character_no_bundled_font_has_names_card_element_and_character(tmp_path):
    folder = project(tmp_path, [("one", "Fine"), ("two", "Kanji 漢")])
    run = build(tmp_path, folder)
    assert run.exit_code == 1
    assert "card 'two'" in run.stderr and "element 'title'" in run.stderr
    assert "font 'DejaVuSans' has no glyph for '漢' (U+6F22)" in run.stderr
    assert not (tmp_path / "out").exists()


# --- the bundled serif --------------------------------------------------------------------


SERIF_FACES = {"DejaVuSerif": "DejaVuSerif.ttf", "DejaVuSerif-Bold": "DejaVuSerif-Bold.ttf",
               "DejaVuSerif-Italic": "DejaVuSerif-Italic.ttf", "DejaVuSerif-BoldItalic": "DejaVuSerif-BoldItalic.ttf"}


def test_dejavu_serif_comes_with_deckpress_and_markup_finds_its_bold_and_italic_faces(tmp_path):
    folder = project(tmp_path, [("one", "**Bold** *Slanted* ***Both*** Plain")])
    set_font(tmp_path, "DejaVuSerif")
    run = build(tmp_path, folder)
    assert run.exit_code == 0, run.stderr
    chars = title_chars(tmp_path)
    assert "".join(char["text"] for char in chars) == "BoldSlantedBothPlain"
    assert [font_of(char) for char in chars] == (["DejaVuSerif-Bold"] * 4 + ["DejaVuSerif-Italic"] * 7
                                                 + ["DejaVuSerif-BoldItalic"] * 4 + ["DejaVuSerif"] * 5)
    manifest = json.loads((tmp_path / "out" / "test.json").read_text(encoding="utf-8"))
    assert manifest["fonts"] == {"DejaVuSerif": {"regular": "deckpress:DejaVuSerif.ttf",
                                                 "bold": "deckpress:DejaVuSerif-Bold.ttf",
                                                 "italic": "deckpress:DejaVuSerif-Italic.ttf",
                                                 "bold-italic": "deckpress:DejaVuSerif-BoldItalic.ttf"}}


@pytest.mark.parametrize("name", sorted(SERIF_FACES))
def test_each_serif_face_may_be_named_on_its_own(tmp_path, name):
    folder = project(tmp_path, [("one", "Face")])
    set_font(tmp_path, name)
    assert build(tmp_path, folder).exit_code == 0
    assert {font_of(char) for char in title_chars(tmp_path)} == {name}
    assert (BUNDLED / SERIF_FACES[name]).stat().st_size > 300_000  # the whole font, not a subset of it


# --- a deck's own fonts -------------------------------------------------------------------


def set_font(tmp_path: Path, font: str, align: str = "center") -> None:
    """Give the title element ``font:`` (a name or a list)."""
    layout = tmp_path / "layouts" / "face.yaml"
    layout.write_text(layout.read_text().replace("    align: center\n", f"    align: {align}\n    font: {font}\n"))


def test_a_font_in_the_deck_folder_is_usable_by_its_file_name(tmp_path):
    folder = project(tmp_path, [("one", "DeckSlanted")])
    set_font(tmp_path, "DeckSlanted")
    (folder / "fonts").mkdir()
    (folder / "fonts" / "DeckSlanted.ttf").write_bytes((VERA / "VeraIt.ttf").read_bytes())
    assert build(tmp_path, folder).exit_code == 0
    assert {font_of(char) for char in title_chars(tmp_path)} == {"BitstreamVeraSans-Oblique"}


def test_a_deck_prints_the_same_bytes_whatever_the_process_registered_before(tmp_path):
    """One process (the preview, a build of several decks) may meet another file of a face
    first: here a deck's DeckSlanted.ttf, the face of Vera-Italic, which a booklet's Vera-Italic then becomes."""
    body = "  - {text: 'The card', box: [5, 30, 53, 10], size: 9, font: DejaVuSans}\n"
    folder = project(tmp_path / "printed", [("one", "Sly Fox")], extra=body)
    set_font(tmp_path / "printed", "Vera-Italic")
    fresh = subprocess.run([sys.executable, "-m", "generator", "build", str(folder), "--out",
                            str(tmp_path / "fresh"), "--quiet", "--no-check"], capture_output=True, text=True)
    assert fresh.returncode == 0, fresh.stderr
    other = project(tmp_path / "other", [("one", "Other")])
    set_font(tmp_path / "other", "DeckSlanted")
    (other / "fonts").mkdir()
    (other / "fonts" / "DeckSlanted.ttf").write_bytes((VERA / "VeraIt.ttf").read_bytes())
    (other / "rules.md").write_text("# Rules\n\nPlay *slyly*.\n", encoding="utf-8")
    assert build(tmp_path / "other", other).exit_code == 0
    assert deckpress("booklet", other, "--out", tmp_path / "other" / "out", "--quiet").exit_code == 0
    for attempt in ("first", "second"):
        assert deckpress("build", folder, "--out", tmp_path / attempt, "--quiet", "--no-check").exit_code == 0
        assert (tmp_path / attempt / "test.pdf").read_bytes() == (tmp_path / "fresh" / "test.pdf").read_bytes()


def advance(pdf: Path, letter: str) -> tuple[str, float]:
    """The font of the first ``letter`` on the PDF's first page, and its advance per point of size."""
    with pdfplumber.open(pdf) as opened:
        char = next(char for char in opened.pages[0].chars if char["text"] == letter)
    return font_of(char), round(char["width"] / char["size"], 4)


def named(font: Path, postscript_name: str, saved: Path) -> None:
    """Save a copy of ``font`` whose name table gives ``postscript_name``."""
    renamed = TTFontFile(font)
    for record in renamed["name"].names:
        if record.nameID == 6:
            record.string = postscript_name
    renamed.save(saved)


@pytest.mark.parametrize("postscript_name", ["DejaVuSans-Bold", "P" * 63], ids=["plain", "longest"])
def test_two_decks_whose_fonts_share_a_postscript_name_each_print_in_their_own(tmp_path, postscript_name):
    """Built together, the second deck must not be drawn in the first deck's font of that name;
    the number that tells them apart keeps the name within PostScript's 63 characters."""
    bold = project(tmp_path, [("one", "WWW")])
    set_font(tmp_path, "Title")
    (bold / "fonts").mkdir()
    named(BUNDLED / "DejaVuSans-Bold.ttf", postscript_name, bold / "fonts" / "Title.ttf")
    regular = tmp_path / "cards" / "regular"
    shutil.copytree(bold, regular)
    named(BUNDLED / "DejaVuSans.ttf", postscript_name, regular / "fonts" / "Title.ttf")  # the regular face
    for out, decks in (("alone", [regular]), ("both", [bold, regular])):
        # fresh processes, so that neither build meets a font registered before it
        run = subprocess.run([sys.executable, "-m", "generator", "build", *map(str, decks), "--out",
                              str(tmp_path / out), "--quiet", "--no-check"], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    second = postscript_name[:61] + "-2"
    assert advance(tmp_path / "alone" / "regular.pdf", "W") == (postscript_name, 0.9888)
    assert advance(tmp_path / "both" / "test.pdf", "W") == (postscript_name, 1.103)
    assert advance(tmp_path / "both" / "regular.pdf", "W") == (second, 0.9888)


BUILD_THEN_BOOKLET = """
import sys
from click.testing import CliRunner
from generator.cli import cli
for command in (["build", sys.argv[1], "--out", sys.argv[2], "--quiet", "--no-check"],
                ["booklet", sys.argv[1], "--out", sys.argv[2], "--quiet"]):
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 0, result.output
"""


def test_a_booklet_after_a_deck_with_its_own_vera_in_one_process_prints_in_vera(tmp_path):
    """As ``watch`` does: a deck whose fonts/Vera.ttf is another font, built first, and then
    its booklet; the booklet's text is still in Vera."""
    folder = project(tmp_path, [("one", "WWW")])
    set_font(tmp_path, "Vera")
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Vera.ttf").write_bytes((BUNDLED / "DejaVuSans-Bold.ttf").read_bytes())
    (folder / "rules.md").write_text("# Rules\n\nWin with *wit* and **nerve**.\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", BUILD_THEN_BOOKLET, str(folder), str(tmp_path / "out")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert {font_of(char) for char in title_chars(tmp_path)} == {"DejaVuSans-Bold"}
    with pdfplumber.open(tmp_path / "out" / "test-rules.pdf") as booklet:
        fonts = {font_of(char) for page in booklet.pages for char in page.chars}
    assert fonts == {"BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold", "BitstreamVeraSans-Oblique"}


def test_the_preview_prints_a_font_file_as_it_was_last_saved(tmp_path):
    """The preview loads a deck again in the same process after a save: a font file replaced by
    another font (one without Greek) is read again, and back again once it is restored."""
    folder = project(tmp_path, [("one", "Ἀθηνᾶ")])
    set_font(tmp_path, "Title")
    (folder / "fonts").mkdir()
    greek, latin = (BUNDLED / "DejaVuSans.ttf").read_bytes(), (VERA / "Vera.ttf").read_bytes()
    preview = DeckPreview(folder / "deck.yaml", watched_roots)
    seen = []
    for font in (greek, latin, greek):
        (folder / "fonts" / "Title.ttf").write_bytes(font)
        seen.append([problem.message for problem in preview.refresh().problems if problem.is_error])
    assert seen[0] == seen[2] == []
    assert len(seen[1]) == 1 and "font 'Title' has no glyph for 'Ἀ' (U+1F08)" in seen[1][0]


def test_the_deck_folder_comes_before_the_project_and_declares_names_in_its_fonts_yaml(tmp_path):
    folder = project(tmp_path, [("one", "Hand")])
    set_font(tmp_path, "Hand")
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Hand.ttf").write_bytes((VERA / "Vera.ttf").read_bytes())
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Script.ttf").write_bytes((VERA / "VeraBI.ttf").read_bytes())
    (folder / "fonts" / "fonts.yaml").write_text("Hand: Script.ttf\n")
    assert build(tmp_path, folder).exit_code == 0
    assert {font_of(char) for char in title_chars(tmp_path)} == {"BitstreamVeraSans-BoldOblique"}
    (folder / "fonts" / "fonts.yaml").unlink()  # now the project's Hand.ttf serves
    assert build(tmp_path, folder).exit_code == 0
    assert {font_of(char) for char in title_chars(tmp_path)} == {"BitstreamVeraSans-Roman"}


def test_an_unknown_font_lists_every_folder_searched(tmp_path):
    folder = project(tmp_path, [("one", "Hand")])
    set_font(tmp_path, "Hnad")
    layout = tmp_path / "layouts" / "face.yaml"
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Hand.ttf").write_bytes((VERA / "Vera.ttf").read_bytes())
    run = build(tmp_path, folder)
    assert run.exit_code == 2
    assert len(run.error_lines) == 1
    line = run.error_lines[0]
    assert "unknown font 'Hnad'; did you mean 'Hand'?" in line
    assert f"looked in {folder / 'fonts'}, {tmp_path / 'fonts'}, {BUNDLED}" in line
    assert line.startswith(f"error: {layout}:")


def test_a_deck_font_that_leads_out_of_the_deck_folder_is_refused(tmp_path):
    folder = project(tmp_path, [("one", "Fine")])
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Evil.ttf").symlink_to(VERA / "Vera.ttf")
    run = build(tmp_path, folder)
    assert run.exit_code == 2 and "points outside the deck folder" in run.stderr


# --- fallback lists -----------------------------------------------------------------------


def fallback_project(tmp_path: Path, title: str, font: str = "[Vera, DejaVuSans]") -> Path:
    folder = project(tmp_path, [("one", title)])
    set_font(tmp_path, font)
    return folder


def test_a_fallback_list_draws_each_character_in_the_first_font_that_has_it(tmp_path):
    folder = fallback_project(tmp_path, "Ząb ♠ Ωmega")
    assert build(tmp_path, folder).exit_code == 0
    fonts = [(char["text"], font_of(char)) for char in title_chars(tmp_path)]
    assert fonts == [("Z", "BitstreamVeraSans-Roman"), ("ą", "DejaVuSans"), ("b", "BitstreamVeraSans-Roman"),
                     ("♠", "DejaVuSans"), ("Ω", "BitstreamVeraSans-Roman"), ("m", "BitstreamVeraSans-Roman"),
                     ("e", "BitstreamVeraSans-Roman"), ("g", "BitstreamVeraSans-Roman"),
                     ("a", "BitstreamVeraSans-Roman")]


def test_mixed_runs_are_measured_exactly_so_a_centred_line_sits_in_the_middle(tmp_path):
    folder = fallback_project(tmp_path, "ĄĘŚĆŹŻ ♠♠♠ Wide Vera WWW")
    assert build(tmp_path, folder).exit_code == 0
    chars = title_chars(tmp_path)
    assert {font_of(char) for char in chars} == {"BitstreamVeraSans-Roman", "DejaVuSans"}
    for before, after in zip(chars, chars[1:], strict=False):  # within a word, each glyph starts where the last ends
        if after["x0"] - before["x1"] < 1:
            assert after["x0"] == pytest.approx(before["x1"], abs=0.05)
    manifest = json.loads((tmp_path / "out" / "test.json").read_text(encoding="utf-8"))
    card_x = manifest["placements"][0]["trim_box"][0]
    box_middle = card_x + (5 + 53 / 2) * 72 / 25.4
    assert (chars[0]["x0"] + chars[-1]["x1"]) / 2 == pytest.approx(box_middle, abs=0.1)


def test_fallback_reaches_bold_and_italic_markup_in_the_matching_faces(tmp_path):
    folder = fallback_project(tmp_path, "**Ząb** *śź*")
    assert build(tmp_path, folder).exit_code == 0
    fonts = [(char["text"], font_of(char)) for char in title_chars(tmp_path)]
    assert fonts == [("Z", "BitstreamVeraSans-Bold"), ("ą", "DejaVuSans-Bold"), ("b", "BitstreamVeraSans-Bold"),
                     ("ś", "DejaVuSans-Oblique"), ("ź", "DejaVuSans-Oblique")]


def test_a_character_no_font_of_the_list_has_is_an_error_naming_card_element_and_character(tmp_path):
    folder = fallback_project(tmp_path, "Go 漢")
    run = build(tmp_path, folder)
    assert run.exit_code == 1
    assert "card 'one'" in run.stderr and "element 'title'" in run.stderr
    assert "no font of [Vera, DejaVuSans] has a glyph for '漢' (U+6F22)" in run.stderr


def test_a_fallback_family_without_bold_is_no_error_until_bold_text_needs_it(tmp_path):
    folder = fallback_project(tmp_path, "**Bold** ♠", font="[Vera, Suits]")
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Suits.ttf").write_bytes((BUNDLED / "DejaVuSans.ttf").read_bytes())
    assert build(tmp_path, folder).exit_code == 0  # the spade is regular: Suits has it
    (folder / "deck.yaml").write_text((folder / "deck.yaml").read_text(encoding="utf-8")
                                      .replace("**Bold** ♠", "**Bold ♠**"), encoding="utf-8")
    run = build(tmp_path, folder)
    assert run.exit_code == 1 and "font family 'Suits' has no bold face" in run.stderr


def test_a_font_list_names_known_fonts_only(tmp_path):
    folder = fallback_project(tmp_path, "x", font="[Vera, Nope]")
    run = build(tmp_path, folder)
    assert run.exit_code == 2 and "unknown font 'Nope'" in run.stderr


# --- broken font files --------------------------------------------------------------------


def broken(tmp_path: Path, content: bytes) -> tuple[Path, object]:
    folder = project(tmp_path, [("one", "Title"), ("two", "Other"), ("three", "Third")])
    set_font(tmp_path, "Bad")
    (folder / "fonts").mkdir()
    font = folder / "fonts" / "Bad.ttf"
    font.write_bytes(content)
    return font, build(tmp_path, folder)


DEJAVU = (BUNDLED / "DejaVuSans.ttf").read_bytes()


@pytest.mark.parametrize("content, message", [
    (b"OTTO" + DEJAVU[4:], "PostScript (CFF) outlines"),
    (b"ttcf\x00\x01\x00\x00" + DEJAVU[8:], "font collection"),
    (DEJAVU[:len(DEJAVU) // 2], "cut short"),
    (DEJAVU[:2000], "the file is cut short (it ends inside its own tables); copy the font again (Bad)"),
    (b"\x00\x01\x00\x00" + bytes(range(256)) * 40, "the file is damaged: it lacks its 'name' table"),
    (b"<html>not a font</html>", "not a TrueType font"),
    (b"", "not a TrueType font"),
])
def test_a_broken_font_file_is_one_line_naming_the_file(tmp_path, content, message):
    font, run = broken(tmp_path, content)
    assert run.exit_code == 2, run.stderr
    assert len(run.error_lines) == 1, run.stderr
    assert str(font) in run.error_lines[0] and message in run.error_lines[0]
    assert not (tmp_path / "out").exists()
    check = deckpress("check", font.parent.parent)
    assert check.exit_code == 2 and check.error_lines == [run.error_lines[-1]]  # once, not once a card


# --- the booklet --------------------------------------------------------------------------


def test_booklet_text_falls_back_to_dejavu_for_characters_vera_lacks(tmp_path):
    folder = project(tmp_path, [("one", "Title")], name="Ζεύς")
    rules = "# Κανόνες\n\nΠαίξτε **ζαριά** ♠ and plain text.\n\n" + "{{ pagebreak }}\n\n# Τέλος\n\n" * 9
    (folder / "rules.md").write_text(rules, encoding="utf-8")  # long enough for a table of contents
    run = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 0, run.stderr
    with pdfplumber.open(tmp_path / "out" / "test-rules.pdf") as pdf:
        chars = [char for page in pdf.pages for char in page.chars if char["text"].strip()]
    fonts = {char["text"]: font_of(char) for char in chars}
    assert fonts["Ζ"] == "DejaVuSans-Bold"  # the cover title is bold
    assert fonts["ζ"] == "DejaVuSans-Bold" and fonts["♠"] == "DejaVuSans"
    assert fonts["p"] == "BitstreamVeraSans-Roman"
    with pdfplumber.open(tmp_path / "out" / "test-rules.pdf") as pdf:
        contents = pdf.pages[1].extract_text()
    assert "Κανόνες" in contents and "Τέλος" in contents
