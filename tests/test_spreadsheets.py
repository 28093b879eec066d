"""Cards kept in a spreadsheet: decks that read CSV/XLSX, and `deckpress import`."""

from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.deck import load_deck
from generator.errors import InputError
from generator.revisions import FileSource, GitError

CSV = """name,count,type,power,back.name
Fire Imp,3,creature,2,Ash
Water Sprite,2,creature,1,Mist
Heal,4,spell,,Glow
"""

DECK = """deck: {name: Sprites}
fields:
  name: {type: text, required: true}
  type: {choices: [creature, spell]}
  power: {type: int, min: 0}
cards: {from: cards.csv}
rules:
  - total: 9
    message: nine cards
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def make_deck(folder: Path, csv_text: str = CSV, deck_text: str = DECK) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.csv").write_text(csv_text)
    (folder / "deck.yaml").write_text(deck_text)
    return folder


def test_deck_reads_typed_cards_from_csv(tmp_path):
    deck = load_deck(make_deck(tmp_path / "sprites"))
    assert [(c.id, c.count, c.fields.get("power")) for c in deck.cards] == [
        ("fire-imp", 3, 2), ("water-sprite", 2, 1), ("heal", 4, None)]
    assert deck.card("fire-imp").back == {"name": "Ash"}
    assert run("check", str(tmp_path / "sprites")).exit_code == 0


@pytest.mark.parametrize("line_end", ["\r", "\r\n"], ids=["old-mac", "windows"])
def test_a_csv_with_other_line_ends_reads_alike_and_names_the_same_cells(tmp_path, line_end):
    folder = tmp_path / "sprites"
    make_deck(folder)
    (folder / "cards.csv").write_bytes(CSV.replace("\n", line_end).encode("utf-8"))
    deck = load_deck(folder)
    assert [(c.id, c.count, c.fields.get("power")) for c in deck.cards] == [
        ("fire-imp", 3, 2), ("water-sprite", 2, 1), ("heal", 4, None)]
    (folder / "cards.csv").write_bytes(CSV.replace("Heal,4,spell,,", "Heal,4,spell,lots,")
                                       .replace("\n", line_end).encode("utf-8"))
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert "cards.csv:4:4: expected a whole number, found 'lots' (power)" in result.output


def test_bad_cell_names_csv_row_and_column(tmp_path):
    folder = make_deck(tmp_path / "sprites", CSV.replace("Heal,4,spell,,", "Heal,4,spell,lots,"))
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert "cards.csv:4:4: expected a whole number, found 'lots' (power)" in result.output
    assert "Traceback" not in result.output


def test_out_of_range_cell_names_its_cell(tmp_path):
    folder = make_deck(tmp_path / "sprites", CSV.replace("Water Sprite,2,creature,1", "Water Sprite,2,creature,-1"))
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert "cards.csv:3:4: must be at least 0, found -1 (power)" in result.output


def test_spreadsheet_outside_deck_folder_is_refused(tmp_path):
    (tmp_path / "secret.csv").write_text(CSV)
    folder = make_deck(tmp_path / "sprites", deck_text=DECK.replace("cards.csv", "../secret.csv"))
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert "points outside the deck folder (from)" in result.output


def test_xlsx_cards_are_read_with_row_positions(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    folder = tmp_path / "sprites"
    folder.mkdir()
    book = openpyxl.Workbook()
    sheet = book.active
    for row in [["name", "count", "type", "power"], ["Fire Imp", 3, "creature", 2], ["Heal", 6, "spell", "x"]]:
        sheet.append(row)
    book.save(folder / "cards.xlsx")
    (folder / "deck.yaml").write_text(DECK.replace("cards.csv", "cards.xlsx"))
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert "cards.xlsx:3:4: expected a whole number, found 'x' (power)" in result.output
    sheet["D3"] = 1
    book.save(folder / "cards.xlsx")
    deck = load_deck(folder)
    assert deck.total == 9 and deck.card("heal").fields["power"] == 1


def test_import_then_check_gives_the_same_cards(tmp_path):
    folder = make_deck(tmp_path / "sprites")
    target = tmp_path / "imported" / "deck.yaml"
    result = run("import", str(folder / "cards.csv"), "--out", str(target), "--name", "Sprites")
    assert result.exit_code == 0, result.output
    imported, original = load_deck(target), load_deck(folder)
    assert imported.name == "Sprites"
    assert imported.fields["power"].type == "int"
    assert imported.fields["type"].choices == ("creature", "spell")
    assert [(c.id, c.count, c.fields, c.back) for c in imported.cards] == \
        [(c.id, c.count, c.fields, c.back) for c in original.cards]
    assert run("check", str(target)).exit_code == 0


def test_import_refuses_to_overwrite_without_force(tmp_path):
    folder = make_deck(tmp_path / "sprites")
    result = CliRunner().invoke(cli, ["import", str(folder / "cards.csv")])
    assert result.exit_code == 2
    assert "already exists; pass --force" in result.output
    assert (folder / "deck.yaml").read_text() == DECK


@pytest.mark.parametrize("cell", ["nan", "inf", "-Infinity"])
def test_a_number_cell_refuses_nan_and_infinity(tmp_path, cell):
    deck = DECK.replace("  power: {type: int, min: 0}", "  power: number")
    folder = make_deck(tmp_path / "sprites",
                       CSV.replace("Water Sprite,2,creature,1", f"Water Sprite,2,creature,{cell}"), deck)
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert f"cards.csv:3:4: expected a finite number, found {float(cell)} (power)" in result.output


# --- import refuses what check would refuse, at the sheet's row and column ----------------

@pytest.mark.parametrize("csv_text, where, message", [
    ("name,id\nImp,imp\nEel,imp\n", "3:2", "duplicate card id 'imp' (first at line 2) (id)"),
    ("name,id\nImp,Ä-1\n", "2:2", "card id 'Ä-1' may use only a-z, 0-9, '-' and '_' (id)"),
    ("name,count\nImp,-2\n", "2:2", "must be at least 0, found -2 (count)"),
    ("name,count\nImp,100001\n", "2:2", "at most 100,000 copies, found 100,001 (count)"),
    ("name,count\nImp,lots\n", "2:2", "expected a whole number, found 'lots' (count)"),
    ("name,,power\nImp,fiery,2\n", "2:2",
     "'fiery' stands in a column with no name; name column 2 in the header row (row 1)"),
    ("name,power\nImp,2,fiery\n", "2:3",
     "'fiery' stands beyond the last named column; name column 3 in the header row (row 1)"),
])
def test_import_refuses_a_sheet_check_would_refuse(tmp_path, csv_text, where, message):
    sheet = tmp_path / "cards.csv"
    sheet.write_text(csv_text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(sheet)])
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"error: {sheet}:{where}: {message}"
    assert not (tmp_path / "deck.yaml").exists()


def test_import_types_a_column_of_nan_as_text(tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,note\nImp,nan\nEel,inf\n")
    assert run("import", str(sheet)).exit_code == 0
    assert load_deck(tmp_path).fields["note"].type == "text"


@pytest.mark.parametrize("csv_text, where, value", [
    ("name,count,,type\nFire Imp,3,hot,creature\n", "2:3", "hot"),
    ("name,count,type\nFire Imp,3,creature,extra\n", "2:4", "extra"),
])
def test_a_deck_reading_a_sheet_refuses_cells_outside_named_columns(tmp_path, csv_text, where, value):
    folder = make_deck(tmp_path / "sprites", csv_text)
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 2
    assert f"cards.csv:{where}: '{value}' stands" in result.output


def test_blank_trailing_cells_and_unnamed_empty_columns_are_fine(tmp_path):
    folder = make_deck(tmp_path / "sprites", "name,count,,type,\nFire Imp,3,,creature,,\nHeal,6,,spell\n")
    assert run("check", str(folder)).exit_code == 0


def test_a_formula_the_workbook_holds_no_value_for_is_refused_at_its_cell(tmp_path):
    """A workbook written by a script keeps ``=2+4`` but not its result; read for values the
    cell would be blank and the card silently one copy. Saved by a spreadsheet program (the
    result kept beside the formula), the result is the value."""
    openpyxl = pytest.importorskip("openpyxl")
    import zipfile

    from cli_run import deckpress

    folder = tmp_path / "sprites"
    folder.mkdir()
    book = openpyxl.Workbook()
    for row in [["name", "count", "type", "power"], ["Fire Imp", 3, "creature", 2],
                ["Heal", "=2+4", "spell", '=IF(1, "", "")']]:
        book.active.append(row)
    book.save(folder / "cards.xlsx")
    (folder / "deck.yaml").write_text(DECK.replace("cards.csv", "cards.xlsx"))
    run = deckpress("check", folder)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.error_lines == [f"error: {folder / 'cards.xlsx'}:{cell}: cell holds a formula with no saved value; "
                               f"open and save it in a spreadsheet program [from {folder / 'deck.yaml'}:6]"
                               for cell in ("3:2", "3:4")]

    with zipfile.ZipFile(folder / "cards.xlsx") as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    assert b"<f>2+4</f><v></v>" in parts[sheet]
    parts[sheet] = parts[sheet].replace(b"<f>2+4</f><v></v>", b"<f>2+4</f><v>6</v>")
    # The other formula's saved result is empty text: a blank cell, as the workbook says.
    empty_text = b'<c r="D3"><f>IF(1, "", "")</f><v></v>'
    assert empty_text in parts[sheet]
    parts[sheet] = parts[sheet].replace(empty_text, empty_text.replace(b'<c r="D3">', b'<c r="D3" t="str">'))
    with zipfile.ZipFile(folder / "cards.xlsx", "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    assert deckpress("check", folder).exit_code == 0
    heal = load_deck(folder).card("heal")
    assert heal.count == 6 and heal.fields.get("power") is None


def test_every_unsaved_formula_is_reported_with_the_sheet_s_other_bad_cells(tmp_path):
    """A formula with no saved value is one more bad cell: check names it beside every other
    (a second formula, numbers that are not), not before them and alone."""
    openpyxl = pytest.importorskip("openpyxl")
    from cli_run import deckpress

    folder = tmp_path / "x"
    folder.mkdir()
    book = openpyxl.Workbook()
    for row in [["id", "name", "power", "qty", "text"], ["a", "A", "x", 1, "=1+1"], ["b", "B", 2, 1, "=2+2"],
                ["c", "C", 3, 1, "Three."], ["d", "D", True, 1, "Four."]]:
        book.active.append(row)
    book.save(folder / "cards.xlsx")
    (folder / "deck.yaml").write_text("deck: {name: X}\nfields: {name: text, power: {type: int}, text: text}\n"
                                      "cards: {from: cards.xlsx}\n")
    run = deckpress("check", folder)
    assert run.exit_code == 2, run.stdout + run.stderr
    sheet, formula = folder / "cards.xlsx", "cell holds a formula with no saved value; open and save it in a " \
                                            "spreadsheet program"
    assert run.error_lines == [f"error: {sheet}:{where}: {message} [from {folder / 'deck.yaml'}:3]"
                               for where, message in [("2:3", "expected a whole number, found 'x' (power)"),
                                                      ("2:5", formula), ("3:5", formula),
                                                      ("5:3", "expected a whole number, found 'True' (power)")]]


def test_rows_git_cannot_give_are_named_in_git_s_words(tmp_path, monkeypatch):
    """A deck read at a revision asks git for its CSV; a failure there is one line, not 'None'."""
    folder = make_deck(tmp_path / "sprites")

    def git_fails(self, path, most):
        raise GitError("git did not answer within 10 seconds")

    monkeypatch.setattr(FileSource, "opened", git_fails)
    with pytest.raises(InputError) as raised:
        load_deck(folder)
    assert str(raised.value) == (f"{folder / 'cards.csv'}: cannot read file: git did not answer within 10 seconds"
                                 f" [from {folder / 'deck.yaml'}:6]")


QUOTED_CSV = 'name,count,type\nHeal,8,spell\n"A goose, and ""quotes""",1,spell\n'


def test_doubled_quotes_in_a_csv_cell_print_as_one_quote(tmp_path):
    folder = make_deck(tmp_path / "sprites", QUOTED_CSV)
    assert run("check", str(folder)).exit_code == 0
    result = run("build", str(folder), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pdf = next((tmp_path / "out").glob("*.pdf"))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in pypdf.PdfReader(pdf).pages)
    assert 'A goose, and "quotes"' in text
    assert '"quotes""' not in text
    imported = run("import", str(folder / "cards.csv"), "--out", str(tmp_path / "imported.yaml"))
    assert imported.exit_code == 0, imported.output
    assert [card.fields["name"] for card in load_deck(tmp_path / "imported.yaml").cards][1:] == [
        'A goose, and "quotes"']


SPACED_CSV = 'count, name, type\n8, Heal, spell\n1, "Big, ""bad"" wolf", spell\n'


def test_a_csv_written_with_a_space_after_each_comma_reads_its_quoted_cells(tmp_path):
    """Quoting is RFC 4180's, but a sheet typed by hand as ``a, "b, c"`` is still read as meant."""
    folder = make_deck(tmp_path / "sprites", SPACED_CSV)
    result = run("import", str(folder / "cards.csv"), "--out", str(tmp_path / "imported.yaml"))
    assert result.exit_code == 0, result.output
    cards = load_deck(tmp_path / "imported.yaml").cards
    assert [(card.fields["name"], card.count) for card in cards][1:] == [('Big, "bad" wolf', 1)]
