"""`deckpress import` writes a deck that checks as it was written: cells YAML or the markup
would read otherwise (``*alias``, ``{{ 7*7 }}``, ``&anchor``, ``: y``, spaces around) come
back exactly, in the deck, in the manifest and on the printed card."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress

from generator.deck import load_deck

CELLS = ["*alias", "{{ 7*7 }}", "&anchor", "!tag", "- x", ": y", "#", "%", "  lead and trail  ", "Pay 2*",
         "The NuvaRing\u2122.*", "5*", r"**bold** :coin: [x]{.y} \*", "yes", "null", "~", "0123", "1e3",
         "'single'", '"double"', "a: b", "[list]", "{map}", "@at", "`tick", "|pipe", ">fold", "? what",
         "key: value # not a comment", "Ünïcödé", "100%"]


def csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(char in text for char in ',"\n') or text != text.strip() \
        else text


def party_sheet(folder: Path) -> Path:
    """A party game's cards: a colour (white or black) and the card's text."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [f"{'white' if index % 2 else 'black'},{csv_cell(text)}" for index, text in enumerate(CELLS)]
    sheet = folder / "cards.csv"
    sheet.write_text("colour,text\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return sheet


def printed_titles(pdf: Path, placements: list[dict]) -> list[str]:
    """The title printed on each of ``placements`` (the manifest's), as a reader copies it from
    the PDF: the generic layout prints it across the card's top, above 15% of its height, on as
    many lines as it needs."""
    titles = []
    with pdfplumber.open(pdf) as document:
        for placement in placements:
            page = document.pages[placement["page"] - 1]
            x, y, width, height = placement["trim_box"]
            card = page.crop((x, page.height - y - height, x + width, page.height - y))
            top = page.height - y - height
            title = [char for char in card.chars if char["bottom"] < top + 0.15 * height]
            titles.append("".join(char["text"] for char in sorted(title, key=lambda char: (round(char["top"]),
                                                                                        char["x0"]))))
    return titles


@pytest.mark.parametrize("link", [False, True], ids=["copied", "linked"])
def test_imported_cells_check_build_and_print_exactly_as_written(tmp_path, link):
    sheet = party_sheet(tmp_path / "party")
    imported = deckpress("import", sheet, *(["--link"] if link else []))
    assert imported.exit_code == 0, imported.stderr
    assert "text printed as written (markup: false)" in imported.stdout
    checked = deckpress("check", tmp_path / "party")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    deck = load_deck(tmp_path / "party")
    assert deck.title_field == "text" and deck.fields["text"].markup is False
    assert [card.fields["text"] for card in deck.cards] == CELLS  # spaces and all
    built = deckpress("build", tmp_path / "party", "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == 0, built.stderr
    manifest = json.loads((tmp_path / "out" / "party.json").read_text(encoding="utf-8"))
    fronts = [placement for placement in manifest["placements"] if placement["face"] == "front"]
    assert [front["fields"]["text"] for front in fronts] == CELLS
    assert [front["title"] for front in fronts] == [" ".join(text.split()) for text in CELLS]
    assert [title.replace(" ", "") for title in printed_titles(tmp_path / "out" / "party.pdf", fronts)] == \
        [text.replace(" ", "") for text in CELLS]


def test_a_column_whose_text_reads_as_written_keeps_its_markup(tmp_path):
    folder = tmp_path / "plainly"
    folder.mkdir()
    (folder / "cards.csv").write_text("name,text\nImp,Pay 2* to draw\nEel,Swim away.\n", encoding="utf-8")
    assert deckpress("import", folder / "cards.csv").exit_code == 0
    deck = load_deck(folder)
    assert deck.fields["text"].markup is True and deck.fields["name"].markup is True
    assert "markup" not in (folder / "deck.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("header, title", [
    ("colour,text", "text"), ("Colour,Title,Text", "Title"), ("kind,power,name", "name"),
    ("power,flavour", "flavour"),
])
def test_the_title_is_the_name_title_or_text_column_before_any_other(tmp_path, header, title):
    folder = tmp_path / "deck"
    folder.mkdir()
    columns = header.split(",")
    rows = [",".join("3" if column == "power" else f"{column} {index}" for column in columns) for index in range(4)]
    (folder / "cards.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert deckpress("import", folder / "cards.csv").exit_code == 0
    assert load_deck(folder).title_field == title


def test_a_workbook_imports_its_cells_as_written_too(tmp_path):
    import openpyxl

    folder = tmp_path / "party"
    folder.mkdir()
    book = openpyxl.Workbook()
    book.active.append(["colour", "text"])
    for index, text in enumerate(CELLS):
        book.active.append(["white" if index % 2 else "black", text])
    book.save(folder / "cards.xlsx")
    assert deckpress("import", folder / "cards.xlsx").exit_code == 0
    assert deckpress("check", folder).exit_code == 0
    assert [card.fields["text"] for card in load_deck(folder).cards] == CELLS


def test_an_imported_deck_of_sentences_checks_and_prints_them_whole(tmp_path):
    """A party game's title column holds its cards' sentences: the generic layout wraps them."""
    sentences = ["The secret ingredient in tonight's soup is ____, and it was very loud indeed.",
                 "I packed three things for the desert island, one of them ____ (terms apply).*",
                 "A suspiciously calm grandfather clock with a tiny crown."]
    folder = tmp_path / "party"
    folder.mkdir()
    (folder / "cards.csv").write_text("kind,text\n" + "".join(f"prompt,{csv_cell(text)}\n" for text in sentences),
                                      encoding="utf-8")
    assert deckpress("import", folder / "cards.csv").exit_code == 0
    checked = deckpress("check", folder)
    assert checked.exit_code == 0 and "does not fit" not in checked.stdout, checked.stdout
    assert deckpress("build", folder, "--out", tmp_path / "out", "--quiet").exit_code == 0
    manifest = json.loads((tmp_path / "out" / "party.json").read_text(encoding="utf-8"))
    fronts = [placement for placement in manifest["placements"] if placement["face"] == "front"]
    assert [title.replace(" ", "") for title in printed_titles(tmp_path / "out" / "party.pdf", fronts)] == \
        [text.replace(" ", "") for text in sentences]


NUMBERLIKE = [  # id, name, then columns that only look like numbers or yes/no, then real ones
    ["id", "name", "code", "flag", "neg", "plus", "grouped", "price", "power", "cost", "ready"],
    ["a", "Alpha", "007", "Yes", "-0", "+5", "1_000", "1.50", "3", "1.5", "yes"],
    ["b", "Beta", "012", "TRUE", "-3", "+6", "2_000", "2.25", "-2", "2", "no"],
    ["c", "Gamma", "0", "n", "4", "7", "3", "3", "10", "0.25", "yes"],
]


def printed_field_lines(pdf: Path, placement: dict) -> list[str]:
    """The lines printed on the card at ``placement`` (the manifest's) below its title: the
    generic layout's ``field: value`` list."""
    with pdfplumber.open(pdf) as document:
        page = document.pages[placement["page"] - 1]
        x, y, width, height = placement["trim_box"]
        top = page.height - y - height
        return page.crop((x, top + 0.17 * height, x + width, page.height - y)).extract_text().splitlines()


@pytest.mark.parametrize("link", [False, True], ids=["copied", "linked"])
def test_a_column_is_a_number_or_yes_no_only_when_every_cell_prints_back_as_written(tmp_path, link):
    folder = tmp_path / "imp"
    folder.mkdir()
    (folder / "cards.csv").write_text("".join(",".join(row) + "\n" for row in NUMBERLIKE), encoding="utf-8")
    imported = deckpress("import", folder / "cards.csv", *(["--link"] if link else []))
    assert imported.exit_code == 0, imported.stderr
    deck = load_deck(folder)
    header, rows = NUMBERLIKE[0], NUMBERLIKE[1:]
    assert {name: deck.fields[name].type for name in header[2:]} == {
        "code": "text", "flag": "text", "neg": "text", "plus": "text", "grouped": "text", "price": "text",
        "power": "int", "cost": "number", "ready": "bool"}
    assert [[card.fields[name] for name in header[2:8]] for card in deck.cards] == [row[2:8] for row in rows]
    assert [[card.fields[name] for name in header[8:]] for card in deck.cards] == \
        [[3, 1.5, True], [-2, 2, False], [10, 0.25, True]]
    built = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == 0, built.stderr
    manifest = json.loads((tmp_path / "out" / "imp.json").read_text(encoding="utf-8"))
    fronts = [placement for placement in manifest["placements"] if placement["face"] == "front"]
    assert [printed_field_lines(tmp_path / "out" / "imp.pdf", front) for front in fronts] == \
        [[f"{name}: {cell}" for name, cell in zip(header[2:], row[2:], strict=True)] for row in rows]
