"""Icons and translations in rules booklets, read back from the PDFs of a small deck-building game.

``tests/decks/market`` writes coins and victory points as layout icons (``:coin:``, ``:vp:``)
in its rules and its card texts, in English and in German. Each test copies it to tmp_path,
changes what it needs, and reads the booklet back with pdfplumber: where the icons are drawn
against the words around them, what the tables print, and what ``check`` says.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress, place_of
from pypdf import PdfReader

from generator.booklet.style import load_style

MARKET = Path(__file__).parent / "decks" / "market"

CAP_HEIGHT = 0.76
"""The booklet font's cap height in ems (Vera's is 0.7598): an inline icon is that tall, as on cards."""


@pytest.fixture
def market(tmp_path: Path) -> Path:
    folder = tmp_path / "market"
    shutil.copytree(MARKET, folder)
    return folder


def booklet(folder: Path, out: Path, *lang: str) -> Path:
    run = deckpress("booklet", folder, "--out", out, "--quiet", *lang)
    assert run.exit_code == 0, run.stderr
    suffix = f".{lang[-1]}" if lang else ""
    return out / f"market-rules{suffix}.pdf"


def words_and_icons(pdf: Path, page_number: int = 1) -> tuple[list[dict], list[dict], float]:
    """The words of a page, the bounding boxes of the icons drawn on it (clusters of curves),
    and the page height."""
    with pdfplumber.open(pdf) as document:
        page = document.pages[page_number]
        words = page.extract_words(extra_attrs=["size"])
        for word in words:  # the baseline, in page coordinates (top down)
            char = next(char for char in page.chars if abs(char["x0"] - word["x0"]) < 0.01
                        and abs(char["top"] - word["top"]) < 0.01)
            word["baseline"] = page.height - char["matrix"][5]
        icons: list[dict] = []
        for curve in sorted(page.curves, key=lambda curve: (round(curve["top"]), curve["x0"])):
            near = next((icon for icon in icons if curve["x0"] < icon["x1"] + 0.5 and curve["x1"] > icon["x0"] - 0.5
                         and curve["top"] < icon["bottom"] + 0.5 and curve["bottom"] > icon["top"] - 0.5), None)
            if near is None:
                icons.append({key: curve[key] for key in ("x0", "x1", "top", "bottom")})
            else:
                near.update(x0=min(near["x0"], curve["x0"]), x1=max(near["x1"], curve["x1"]),
                            top=min(near["top"], curve["top"]), bottom=max(near["bottom"], curve["bottom"]))
        return words, icons, page.height


def icon_after(word: dict, icons: list[dict]) -> dict:
    """The icon drawn just right of ``word``, on its line."""
    return next(icon for icon in icons if word["x1"] <= icon["x0"] < word["x1"] + 2 * word["size"]
                and icon["top"] < word["baseline"] < icon["bottom"] + 1)


def assert_on_the_line(icon: dict, word: dict) -> None:
    """The icon stands on the word's baseline and reaches the height of its capitals (its shapes
    fill at least 90% of its square)."""
    size = word["size"]
    assert abs(icon["bottom"] - word["baseline"]) < 0.1 * size, (icon, word)
    assert 0.85 * CAP_HEIGHT * size < icon["bottom"] - icon["top"] < 1.02 * CAP_HEIGHT * size, (icon, word)


def test_icons_in_the_rules_text_are_drawn_on_the_line_at_the_size_of_its_capitals(market, tmp_path):
    words, icons, _ = words_and_icons(booklet(market, tmp_path / "out"))
    text = " ".join(word["text"] for word in words)
    assert ":coin:" not in text and ":vp:" not in text.replace("\\:vp:", "")
    spend = next(word for word in words if word["text"] == "Spend")
    to = words[words.index(spend) + 1]
    coin = icon_after(spend, icons)
    assert coin["x1"] < to["x0"] and to["text"] == "to"  # between "Spend" and "to", with room either side
    assert_on_the_line(coin, spend)
    most = next(word for word in words if word["text"] == "most")
    assert_on_the_line(icon_after(most, icons), most)


def test_a_backslash_or_a_code_span_keeps_an_icon_name_as_text(market, tmp_path):
    pdf = booklet(market, tmp_path / "out")
    with pdfplumber.open(pdf) as document:
        last = document.pages[-1].extract_text()
    assert "Written with a backslash, :vp: prints as it stands, and so does :coin: in" in last


def test_a_card_table_prints_the_icons_and_markup_of_card_texts(market, tmp_path):
    words, icons, _ = words_and_icons(booklet(market, tmp_path / "out"))
    copper = next(word for word in words if word["text"] == "Copper" and word["x0"] < 100)
    one = next(word for word in words if word["text"] == "1" and abs(word["baseline"] - copper["baseline"]) < 1
               and word["x0"] > copper["x1"] + 40)
    assert_on_the_line(icon_after(one, icons), one)  # "1 :coin:", not "1"
    with pdfplumber.open(tmp_path / "out" / "market-rules.pdf") as document:
        page = document.pages[1]
        draw = [char for char in page.chars if char["text"] == "D" and char["top"] > copper["top"]]
        assert draw and "Bold" in draw[0]["fontname"]  # "**Draw 1 card.**"
        lines = page.extract_text().splitlines()
    assert any(line.endswith("Draw 1 card.") for line in lines)  # the text's line break is kept
    assert any(line.startswith("Gain 1") and line.endswith("this turn.") for line in lines)


def test_an_unknown_icon_in_the_rules_is_a_finding_at_its_line(market, tmp_path):
    rules = market / "rules.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("Count your :vp:", "Count your :vpp:"), encoding="utf-8")
    run = deckpress("check", market)
    assert run.exit_code == 2
    assert f"{place_of(rules, ':vpp:')}: unknown icon ':vpp:'; did you mean 'vp'? (icon)" in run.error_lines[0]
    refused = deckpress("booklet", market, "--out", tmp_path / "out", "--quiet")
    assert refused.exit_code == 2 and place_of(rules, ":vpp:") in refused.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_translated_booklet_prints_the_decklist_headers_and_choice_values_in_its_language(market, tmp_path):
    with pdfplumber.open(booklet(market, tmp_path / "out", "--lang", "de")) as document:
        text = "\n".join(page.extract_text() for page in document.pages)
    assert "Stapel Karten Geld Punkte Aktion" in text  # the decklists table's headers
    assert "Kupfer Geld 0 1" in text and "60 Geld" in text
    for english in ("Deck Cards", "Treasure", "Victory", "Action"):
        assert english not in text, english


def test_check_lang_reports_a_choice_value_with_no_translation_at_its_line(market):
    translation = market / "lang" / "de.yaml"
    translation.write_text(translation.read_text(encoding="utf-8").replace(", action: Aktion", ""),
                           encoding="utf-8")
    run = deckpress("check", market, "--lang", "de")
    assert run.exit_code == 1
    deck = market / "deck.yaml"
    column = deck.read_text(encoding="utf-8").splitlines()[9].index("action") + 1
    assert (f"{deck}:10:{column}: choice 'action' of field 'type' has no translation in {translation}"
            in run.stdout.splitlines())
    assert deckpress("check", market).exit_code == 0  # the deck as written needs no translation


@pytest.mark.parametrize("lang", [(), ("--lang", "de")], ids=["en", "de"])
def test_the_market_deck_goes_through_every_command_without_a_finding(market, tmp_path, lang):
    check = deckpress("check", market, "--format", "json", *lang)
    assert check.exit_code == 0, check.stdout + check.stderr
    assert [finding for deck in json.loads(check.stdout)["decks"] for finding in deck["findings"]] == []
    out = tmp_path / "out"
    for command in (("build", "--out", out / "build"), ("booklet", "--out", out / "booklet"),
                    ("stats", "--report", out / "stats" / "market"), ("export", "--tts", out / "tts", "--jobs", "1")):
        run = deckpress(command[0], market, *command[1:], "--quiet", *lang)
        assert run.exit_code == 0, (command, run.stderr)


def test_a_row_of_icons_alone_wraps_within_the_text_width(market, tmp_path):
    (market / "rules.md").write_text("# Treasury\n\n" + " ".join([":coin:"] * 400) + "\n", encoding="utf-8")
    _, icons, _ = words_and_icons(booklet(market, tmp_path / "out"))
    style = load_style()
    right = style.margins.inner + style.text_frame("a4")[0]
    assert len(icons) > 100 and len({round(icon["top"]) for icon in icons}) > 5  # many lines of icons
    assert max(icon["x1"] for icon in icons) <= right + 0.5


@pytest.mark.parametrize("written", ["3 :vp:.", "1 :vp:-token", "x:vp:"])
def test_an_icon_written_against_a_word_or_a_stop_stays_on_its_line(market, tmp_path, written):
    """Lines end only at spaces: never between an icon and the stop, hyphen or word written
    against it, wherever the line happens to end."""
    text = " ".join(f"{'w' * (n % 7 + 1)} {written}" for n in range(120))
    (market / "rules.md").write_text(f"# Scoring\n\n{text}\n", encoding="utf-8")
    words, icons, _ = words_and_icons(booklet(market, tmp_path / "out"))
    attached = written.replace(":vp:", "\0").split("\0")
    assert len(icons) > 100
    left = min(word["x0"] for word in words)
    for icon in icons:
        if attached[1]:  # the text written after the icon is on its line, right after it
            assert any(icon["x1"] < word["x0"] < icon["x1"] + 0.3 * word["size"]  # the icon's margin apart
                       and icon["top"] < word["baseline"] < icon["bottom"] + 1 for word in words), icon
        if attached[0][-1:].strip():  # and the word written before it, right before it
            assert icon["x0"] > left + 1, icon
    starts = [word["text"] for word in words if word["x0"] < left + 0.5]
    assert attached[1].strip()[:1] not in {start[:1] for start in starts if attached[1]}, starts


def test_a_table_column_is_as_wide_as_an_icon_glued_to_its_word(market, tmp_path):
    notes = " ".join(["long words here"] * 30)
    (market / "rules.md").write_text(f"# Worth\n\n| Card | Worth | Notes |\n|---|---|---|\n"
                                     f"| Estate | 1 :vp:-Siegpunktmarkerplaettchen | {notes} |\n", encoding="utf-8")
    words, icons, _ = words_and_icons(booklet(market, tmp_path / "out"))
    glued = next(word for word in words if word["text"] == "-Siegpunktmarkerplaettchen")
    notes_left = min(word["x0"] for word in words if word["text"] == "long")
    assert glued["x1"] < notes_left  # the whole word in its column, not broken nor over the next
    assert any(glued["x0"] - 0.5 * glued["size"] < icon["x1"] <= glued["x0"]  # its icon just before it, on its line
               and icon["top"] < glued["baseline"] < icon["bottom"] + 1 for icon in icons)


def test_a_booklet_made_after_a_calibration_sheet_in_one_process_draws_its_icons(market: Path, tmp_path: Path):
    """The calibration sheet's font is the booklet's body font, Vera, under another name, and
    reportlab answers every later registration of that file with the first: the booklet still
    finds the font around each icon, to size the icon by."""
    probe = ("import sys\nfrom click.testing import CliRunner\nfrom generator.cli import cli\n"
             "runner = CliRunner()\n"
             "for arguments in (['calibrate', '--out', sys.argv[2] + '/calibration.pdf'],\n"
             "                  ['build', 'cards/cereal-killer', '--out', sys.argv[2], '--quiet'],\n"
             "                  ['booklet', sys.argv[1], '--out', sys.argv[2], '--quiet']):\n"
             "    run = runner.invoke(cli, arguments)\n"
             "    print(arguments[0], run.exit_code, repr(run.exception))\n")
    out = tmp_path / "out"
    finished = subprocess.run([sys.executable, "-c", probe, str(market), str(out)], capture_output=True, text=True,
                              timeout=120, cwd=Path(__file__).parent.parent)
    assert finished.stdout.splitlines() == ["calibrate 0 None", "build 0 None", "booklet 0 None"], \
        finished.stdout + finished.stderr
    _, icons, _ = words_and_icons(out / "market-rules.pdf")
    assert icons


def test_the_contents_print_a_heading_s_icons_and_never_an_empty_entry(market, tmp_path):
    parts = [f"# Part {number}\n\nText of part {number}." for number in range(2, 10)]
    parts[1] = "## Coins :coin: and their :vp:\n\nText."
    parts[2] = "# :vp:\n\nText."
    (market / "rules.md").write_text("\n\n{{ pagebreak }}\n\n".join(parts) + "\n")
    pdf = booklet(market, tmp_path / "out")
    words, icons, _ = words_and_icons(pdf, 1)
    assert "Contents" in [word["text"] for word in words]
    [coins] = [word for word in words if word["text"] == "Coins"]
    line = [word["text"] for word in words if abs(word["top"] - coins["top"]) < 1 and word["text"] != "."]
    assert sorted(line) == ["4", "Coins", "and", "their"]
    assert len([icon for icon in icons if abs(icon["bottom"] - coins["bottom"]) < coins["size"]]) == 2
    # the icon-only heading's entry: its icon before its dots, on the line of its page number
    [five] = [word for word in words if word["text"] == "5" and word["x0"] > 200]  # a page number
    assert {word["text"] for word in words if abs(word["top"] - five["top"]) < 1} == {".", "5"}
    assert any(icon["x1"] < 60 and abs(icon["bottom"] - five["bottom"]) < five["size"] for icon in icons)
    titles = [str(entry.title) for entry in _flat(PdfReader(pdf).outline)]
    assert "Coins coin and their vp" in titles and "vp" in titles  # the outline prints no pictures


def _flat(outline: list) -> list:
    return [item for entry in outline for item in (_flat(entry) if isinstance(entry, list) else [entry])]
