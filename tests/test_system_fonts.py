"""Fonts installed on the computer, by family name, where a deck or layout opts in: found through
fontconfig (a stand-in ``fc-list`` answers as the real one would, so the tests do not depend on
what this machine has installed), checked like any stranger's file, and recorded in the manifest."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress, line_of

from generator.render import systemfonts
from generator.render.systemfonts import InstalledFont, parse_listing, pick_faces

VERA = Path(pytest.importorskip("reportlab").__file__).parent / "fonts"

DECK = """\
deck: {{name: Installed, layout: face}}
{fonts}fields:
  name: {{type: text, required: true}}
cards:
  - {{id: one, name: "{title}"}}
"""

LAYOUT = """\
size: [63mm, 88mm]
{fonts}elements:
  - name: title
    text: "{{{{ name }}}}"
    box: [5, 5, 53, 10]
    font: {font}
"""

OPT_IN = "fonts: {system: true}\n"


def project(tmp_path: Path, font: str = "House Serif", title: str = "**Bold** *Slant* Plain",
            deck_opts_in: bool = True, layout_opts_in: bool = False) -> Path:
    folder = tmp_path / "cards" / "test"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text(DECK.format(fonts=OPT_IN if deck_opts_in else "", title=title),
                                      encoding="utf-8")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "face.yaml").write_text(
        LAYOUT.format(fonts=OPT_IN if layout_opts_in else "", font=font), encoding="utf-8")
    return folder


def installed(tmp_path: Path, monkeypatch, lines: list[str], sleep: float = 0) -> Path:
    """A stand-in ``fc-list`` first on PATH that logs its arguments and prints ``lines``."""
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "listing.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    script = tools / "fc-list"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{tools}/calls.log"\n'
                      + (f"sleep {sleep}\n" if sleep else "") + f'cat "{tools}/listing.txt"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:/usr/bin:/bin")
    return tools


def house_serif(tmp_path: Path) -> dict[str, Path]:
    """Four installed faces of 'House Serif' (Vera's files under other names) and where they lie."""
    folder = tmp_path / "system"
    folder.mkdir()
    files = {}
    for face, source in (("Regular", "Vera.ttf"), ("Bold", "VeraBd.ttf"), ("Italic", "VeraIt.ttf"),
                         ("BoldItalic", "VeraBI.ttf"), ("Condensed", "Vera.ttf"), ("Semibold", "VeraBd.ttf")):
        files[face] = folder / f"HouseSerif-{face}.ttf"
        shutil.copy(VERA / source, files[face])
    return files


def listing(files: dict[str, Path]) -> list[str]:
    """What fc-list prints for them: file, index, weight, slant, width (see systemfonts.FORMAT)."""
    return [f"{files['Condensed']}\t0\t80\t0\t75",  # a condensed face first: the normal width must win
            f"{files['Regular']}\t0\t80\t0\t100",
            f"{files['Semibold']}\t0\t180\t0\t100",  # bold enough, but bold itself is nearer
            f"{files['Bold']}\t0\t200\t0\t100",
            f"{files['Italic']}\t0\t80\t100\t100",
            f"{files['BoldItalic']}\t0\t200\t100\t100",
            f"{files['Regular']}\t65536\t40\t0\t100",  # a named instance of a variable font: not static
            f"{files['Regular']}\t0\t[0 210]\t0\t100"]  # a variable font: left out


def build(tmp_path: Path, folder: Path):
    return deckpress("build", folder, "--out", tmp_path / "out", "--quiet", "--no-check")


def fonts_by_text(tmp_path: Path) -> list[tuple[str, str]]:
    with pdfplumber.open(tmp_path / "out" / "test.pdf") as pdf:
        chars = [char for char in pdf.pages[0].chars if char["text"].strip()]
    top = min(char["top"] for char in chars)
    line = sorted((char for char in chars if abs(char["top"] - top) < 3), key=lambda char: char["x0"])
    return [(char["text"], char["fontname"].split("+")[-1]) for char in line]


# --- found and used ---------------------------------------------------------------------------


def test_a_deck_that_opts_in_prints_an_installed_family_with_its_bold_and_italic_faces(tmp_path, monkeypatch):
    files = house_serif(tmp_path)
    tools = installed(tmp_path, monkeypatch, listing(files))
    folder = project(tmp_path)
    run = build(tmp_path, folder)
    assert run.exit_code == 0, run.stderr
    fonts = dict.fromkeys(font for _, font in fonts_by_text(tmp_path))
    assert list(fonts) == ["BitstreamVeraSans-Bold", "BitstreamVeraSans-Oblique", "BitstreamVeraSans-Roman"]
    manifest = json.loads((tmp_path / "out" / "test.json").read_text(encoding="utf-8"))
    assert manifest["fonts"] == {"House Serif": {"regular": str(files["Regular"]), "bold": str(files["Bold"]),
                                                 "italic": str(files["Italic"]),
                                                 "bold-italic": str(files["BoldItalic"])}}
    calls = (tools / "calls.log").read_text().splitlines()
    assert len(calls) == 1 and calls[0].endswith(r":family=House\ Serif")  # one query, a literal name


def test_a_layout_may_opt_in_for_itself_and_name_one_face_of_an_installed_family(tmp_path, monkeypatch):
    installed(tmp_path, monkeypatch, listing(house_serif(tmp_path)))
    folder = project(tmp_path, font="House Serif-Italic", title="Slanted", deck_opts_in=False,
                     layout_opts_in=True)
    run = build(tmp_path, folder)
    assert run.exit_code == 0, run.stderr
    assert {font for _, font in fonts_by_text(tmp_path)} == {"BitstreamVeraSans-Oblique"}


def test_without_opting_in_an_installed_family_is_an_unknown_font_and_fontconfig_is_not_asked(
        tmp_path, monkeypatch):
    tools = installed(tmp_path, monkeypatch, listing(house_serif(tmp_path)))
    folder = project(tmp_path, deck_opts_in=False)
    run = build(tmp_path, folder)
    assert run.exit_code == 2 and len(run.error_lines) == 1
    assert "unknown font 'House Serif'" in run.stderr and "fonts: {system: true}" in run.stderr
    assert not (tools / "calls.log").exists()


@pytest.mark.skipif(shutil.which("fc-list") is None, reason="fontconfig is not installed")
def test_the_real_fontconfig_finds_an_installed_family(tmp_path):
    found = subprocess.run(["fc-list", "--format", "%{file}\\n", ":family=DejaVu Serif:weight=80:slant=0"],
                           capture_output=True, text=True, timeout=30, check=False).stdout.split()
    regular = [path for path in found if path.endswith("/DejaVuSerif.ttf")]
    if not regular:
        pytest.skip("DejaVu Serif is not installed here")
    folder = project(tmp_path, font="'DejaVu Serif'", title="**Bold** Plain")
    run = build(tmp_path, folder)
    assert run.exit_code == 0, run.stderr
    assert {font for _, font in fonts_by_text(tmp_path)} == {"DejaVuSerif-Bold", "DejaVuSerif"}
    manifest = json.loads((tmp_path / "out" / "test.json").read_text(encoding="utf-8"))
    assert manifest["fonts"]["DejaVu Serif"]["regular"] == regular[0]  # absolute: where this machine has it
    assert manifest["fonts"]["DejaVu Serif"]["bold"].endswith("/DejaVuSerif-Bold.ttf")  # not the condensed one


# --- refused in one line ----------------------------------------------------------------------


def one_line(tmp_path: Path, folder: Path, *wanted: str) -> str:
    """The build and check both stop with exit 2 and one line, at the layout's font, saying ``wanted``."""
    layout = tmp_path / "layouts" / "face.yaml"
    for command in (("build", folder, "--out", tmp_path / "out", "--quiet"), ("check", folder)):
        run = deckpress(*command)
        assert run.exit_code == 2, run.stderr
        assert len(run.error_lines) == 1, run.stderr
        line = run.error_lines[0]
        assert line.startswith(f"error: {layout}:{line_of(layout, 'font:')}:"), line
        for text in wanted:
            assert text in line, line
        assert "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()
    return line


def test_a_family_fontconfig_does_not_have_names_the_family_and_where_it_was_asked_for(tmp_path, monkeypatch):
    installed(tmp_path, monkeypatch, [])
    one_line(tmp_path, project(tmp_path, font="Nope Sans"), "'Nope Sans'", "is installed on this computer")


def test_without_fontconfig_the_family_is_refused_in_one_line(tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    one_line(tmp_path, project(tmp_path), "'House Serif'", "fc-list, which is not installed")


def test_a_fontconfig_that_hangs_is_given_up_on(tmp_path, monkeypatch):
    installed(tmp_path, monkeypatch, [], sleep=5)
    monkeypatch.setattr(systemfonts, "FONTCONFIG_TIMEOUT", 0.3)
    one_line(tmp_path, project(tmp_path), "'House Serif'", "gave no answer within 0.3 seconds")


def test_an_installed_font_file_is_checked_like_a_strangers(tmp_path, monkeypatch):
    broken = tmp_path / "HouseSerif-Regular.ttf"
    broken.write_bytes(b"<html>not a font</html>")
    installed(tmp_path, monkeypatch, [f"{broken}\t0\t80\t0\t100"])
    one_line(tmp_path, project(tmp_path), str(broken), "not a TrueType font")


def test_a_face_the_installed_family_lacks_is_named(tmp_path, monkeypatch):
    files = house_serif(tmp_path)
    installed(tmp_path, monkeypatch, [f"{files['Regular']}\t0\t80\t0\t100"])
    one_line(tmp_path, project(tmp_path, font="House Serif-Bold", title="x"), "has no bold face")


@pytest.mark.parametrize("name", ["'House:style=Bold'", "'Comma, Sans'", "'*'"])
def test_a_name_fontconfig_would_read_as_a_pattern_is_refused_before_asking(tmp_path, monkeypatch, name):
    tools = installed(tmp_path, monkeypatch, listing(house_serif(tmp_path)))
    one_line(tmp_path, project(tmp_path, font=name), "is not a font family name")
    assert not (tools / "calls.log").exists()


def test_a_deck_may_ask_for_a_bounded_number_of_installed_families(tmp_path, monkeypatch):
    installed(tmp_path, monkeypatch, [])
    folder = project(tmp_path)
    elements = "".join(f"  - {{text: x, box: [5, {10 + index}, 53, 1], size: 2, min_size: 2, font: 'Family {index}'}}\n"
                       for index in range(systemfonts.MAX_SYSTEM_FAMILIES + 1))
    layout = tmp_path / "layouts" / "face.yaml"
    layout.write_text(layout.read_text().replace("    font: House Serif\n", "    font: Vera\n") + elements)
    run = deckpress("check", folder)
    assert run.exit_code == 2
    assert f"at most {systemfonts.MAX_SYSTEM_FAMILIES} installed font families" in run.stderr
    assert (tmp_path / "bin" / "calls.log").read_text().count("\n") == systemfonts.MAX_SYSTEM_FAMILIES


@pytest.mark.parametrize("setting, message", [
    ("fonts: {system: yes please}", "system is true or false, found 'yes please'"),
    ("fonts: {sytem: true}", "unknown fonts setting 'sytem'; did you mean 'system'?"),
    ("fonts: [system]", "fonts must be a mapping"),
])
def test_a_mistaken_fonts_setting_in_the_deck_is_one_line_at_its_place(tmp_path, setting, message):
    folder = project(tmp_path, font="Vera", deck_opts_in=False)
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("fields:", f"{setting}\nfields:", 1))
    run = deckpress("check", folder)
    assert run.exit_code == 2 and len(run.error_lines) == 1, run.stderr
    assert run.error_lines[0].startswith(f"error: {deck}:2:") and message in run.error_lines[0]


# --- choosing the faces -----------------------------------------------------------------------


def font(path: str, weight: int = 80, slant: int = 0, width: int = 100) -> InstalledFont:
    return InstalledFont(Path(path), weight, slant, width)


def test_each_style_takes_the_nearest_static_font_a_truetype_file_first():
    faces = pick_faces([font("a-light.ttf", 50), font("a.otf"), font("a.ttf"), font("a-cond.ttf", width=75),
                        font("a-black.ttf", 210), font("a-bold.ttf", 200), font("a-oblique.ttf", slant=110),
                        font("a-italic.ttf", slant=100)])
    assert faces == {(False, False): Path("a.ttf"), (True, False): Path("a-bold.ttf"),
                     (False, True): Path("a-italic.ttf")}


def test_a_listing_keeps_static_fonts_only():
    fonts = parse_listing("/f/a.ttf\t0\t80\t0\t100\n/f/v.ttf\t0\t[0 210]\t0\t100\n/f/v.ttf\t131072\t200\t0\t100\n"
                          "garbage\n")
    assert fonts == [font("/f/a.ttf")]
