"""`deckpress stats` output: tables, JSON, and the PDF/PNG report (reproducible, atomic)."""

import io
import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pypdfium2
from click.testing import CliRunner
from PIL import Image

from generator.cli import cli

ROOT = Path(__file__).resolve().parents[1]
CEREAL = ROOT / "cards" / "cereal-killer"
GOBLINS = ROOT / "cards" / "goblins"


def invoke(*args: str):
    return CliRunner().invoke(cli, ["stats", *args])


def pdf_text(path: Path) -> list[str]:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def test_text_report_shows_composition_odds_and_dice():
    result = invoke(str(CEREAL))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Composition by type" in out
    assert "  monster               99   65.1%        11" in out
    shelf_repair = 1 - Fraction(comb(145, 6), comb(152, 6))
    assert f"{float(shelf_repair) * 100:.2f}%     6  a Shelf Repair in the opening hand" in out
    assert "Rewards do not track difficulty" in out
    assert "9 (4/36) pays 50, less than the easier 6 (5/36) at 75" in out


def test_json_gives_exact_fractions():
    result = invoke(str(CEREAL), "--format", "json")
    assert result.exit_code == 0
    deck = json.loads(result.output)["decks"][0]
    answers = {q["name"]: q for q in deck["pools"][0]["questions"]}
    expected = 1 - Fraction(comb(145, 6), comb(152, 6))
    assert Fraction(answers["a Shelf Repair in the opening hand"]["exact"]) == expected
    rolls = {row["roll"]: row for row in deck["dice"]["rows"]}
    assert rolls[7]["exact"] == "1/6" and rolls[7]["reward"] == 50
    assert deck["dice"]["tracks_difficulty"] is False


def test_command_line_question_counts_like_the_formula():
    result = invoke(str(CEREAL), "--draw", "10", "--where", "type=monster", "--where", "roll=2|12",
                    "--at-least", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    question = json.loads(result.output)["decks"][0]["pools"][0]["questions"][-1]
    # 18 cards roll 2 or 12; at least two of them among 10 drawn from 152.
    expected = 1 - sum(Fraction(comb(18, k) * comb(134, 10 - k), comb(152, 10)) for k in (0, 1))
    assert Fraction(question["exact"]) == expected
    assert question["draw"] == 10


def test_by_field_overrides_the_composition():
    result = invoke(str(GOBLINS), "--by", "star", "--format", "json")
    tables = json.loads(result.output)["decks"][0]["pools"][0]["composition"]
    assert [t["field"] for t in tables] == ["star"]
    assert {row["value"]: row["cards"] for row in tables[0]["rows"]} == {True: 4, False: 16}


def test_report_pdf_and_png_are_written_and_reproducible(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    for folder in (first, second):
        result = invoke(str(GOBLINS), "--simulate", "--games", "60", "--quiet", "--report", str(folder / "g.pdf"))
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in first.iterdir()) == ["g.pdf", "g.png"]
    assert (first / "g.pdf").read_bytes() == (second / "g.pdf").read_bytes()
    assert (first / "g.png").read_bytes() == (second / "g.png").read_bytes()
    pages = pdf_text(first / "g.pdf")
    assert len(pages) == 1
    for heading in ("Composition by group", "Composition by back.symbol", "Draw odds",
                    "Simulation: Goblins solitaire", "60 games, seed 1"):
        assert heading in pages[0], heading
    image = Image.open(io.BytesIO((first / "g.png").read_bytes()))
    assert image.format == "PNG" and image.width == 745  # A4 at 1.25 x 72 dpi


def test_report_folder_gets_one_report_per_deck(tmp_path):
    result = invoke(str(CEREAL), str(GOBLINS), "--quiet", "--report", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "cereal-killer-stats.pdf", "cereal-killer-stats.png", "goblins-stats.pdf", "goblins-stats.png"]
    text = pdf_text(tmp_path / "out" / "cereal-killer-stats.pdf")[0]
    assert "Dice: 2d6" in text and "rewards do not track difficulty" in text


def test_a_broken_deck_leaves_no_report(tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("deck: {name: X}\ncards:\n  - {id: a, name: A}\nstats:\n  draw: many\n")
    result = invoke(str(deck), "--report", str(tmp_path / "r.pdf"))
    assert result.exit_code == 2
    assert not (tmp_path / "r.pdf").exists() and not (tmp_path / "r.png").exists()


def test_quiet_hides_the_progress_bar():
    loud = invoke(str(GOBLINS), "--simulate", "--games", "30")
    quiet = invoke(str(GOBLINS), "--simulate", "--games", "30", "--quiet")
    assert "simulating goblins" in loud.stderr
    assert quiet.stderr == ""
    assert loud.stdout == quiet.stdout


def test_composition_can_count_only_some_cards():
    result = invoke(str(ROOT / "cards" / "gold-rush"), "--decklist", "fire-and-flood", "--format", "json")
    assert result.exit_code == 0, result.output
    pool = json.loads(result.output)["decks"][0]["pools"][0]
    tables = {t["field"]: t for t in pool["composition"]}
    cost = tables["cost"]
    assert cost["among"] == "type=monster" and cost["cards"] == 18
    assert {row["value"]: row["cards"] for row in cost["rows"]} == {1: 7, 2: 5, 3: 3, 4: 3}
    assert sum(row["share"] for row in cost["rows"]) == 1


def test_command_line_where_of_the_wrong_type_is_refused():
    # roll holds whole numbers: 'seven' would count no card and report odds of zero.
    result = CliRunner().invoke(cli, ["stats", str(CEREAL), "--draw", "5", "--where", "roll=seven"])
    assert result.exit_code == 2
    assert "'seven' can never match 'roll', which holds whole numbers (roll)" in result.output
    assert "Traceback" not in result.output


def test_report_path_without_suffix_gives_path_pdf_and_png_for_one_deck(tmp_path):
    # As --help says: PATH.pdf and PATH.png, not a folder called PATH.
    result = invoke(str(CEREAL), "--quiet", "--report", str(tmp_path / "cereal.v2"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cereal.v2.pdf", "cereal.v2.png"]
    assert "Composition" in pdf_text(tmp_path / "cereal.v2.pdf")[0]


def test_report_into_an_existing_folder_for_one_deck(tmp_path):
    result = invoke(str(CEREAL), "--quiet", "--report", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cereal-killer-stats.pdf", "cereal-killer-stats.png"]


def test_report_help_says_what_it_does():
    text = " ".join(CliRunner().invoke(cli, ["stats", "--help"]).output.split())
    assert "PATH.pdf and PATH.png for one deck" in text
    assert "the folder PATH receiving DECK-stats.pdf and DECK-stats.png for each deck" in text


def test_at_least_without_draw_is_refused_like_where():
    for option in (["--at-least", "3"], ["--where", "type=monster"]):
        result = CliRunner().invoke(cli, ["stats", str(CEREAL), *option])
        assert result.exit_code == 2, option
        assert f"{option[0]} needs --draw N" in result.output


def test_at_least_defaults_to_one():
    result = invoke(str(CEREAL), "--draw", "5", "--where", "type=monster", "--format", "json")
    assert json.loads(result.output)["decks"][0]["pools"][0]["questions"][-1]["name"].startswith("at least 1 ")


def test_composition_labels_read_in_full_and_in_numeric_order(tmp_path):
    result = invoke(str(CEREAL), "--quiet", "--report", str(tmp_path / "r.pdf"))
    assert result.exit_code == 0, result.output
    import pdfplumber
    with pdfplumber.open(tmp_path / "r.pdf") as document:
        words = document.pages[0].extract_words(keep_blank_chars=True)
    heading = next(w for w in words if w["text"] == "Composition by reward")
    panel = [w for w in words if heading["x0"] <= w["x0"] < heading["x0"] + 60
             and heading["top"] + 20 < w["top"] < heading["top"] + 110]
    right_edge = panel[0]["x1"]  # category labels are right-aligned against the bars
    labels = [w["text"] for w in sorted(panel, key=lambda w: w["top"]) if abs(w["x1"] - right_edge) < 0.5]
    assert labels == ["50", "75", "125", "200", "350", "500"]


def test_numbers_kept_as_text_sort_as_numbers(tmp_path):
    # A spreadsheet column the deck does not declare keeps its cells as text.
    (tmp_path / "cards.csv").write_text("name,reward\nA,125\nB,50\nC,500\nD,75\nE,75\n")
    (tmp_path / "deck.yaml").write_text("deck: {name: Sheet}\ncards: {from: cards.csv}\n")
    result = invoke(str(tmp_path), "--by", "reward", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["decks"][0]["pools"][0]["composition"][0]["rows"]
    assert [(row["value"], row["cards"]) for row in rows] == [("50", 1), ("75", 2), ("125", 1), ("500", 1)]


def test_a_negative_reward_is_charted_below_zero(tmp_path):
    """A roll that costs (a negative reward) makes the even reward of a rare roll negative
    too, some 10^40 on 20d100: the chart's axis reaches below zero to hold them, where it
    once started at 0 and the report crashed with a number PDF cannot hold."""
    deck = tmp_path / "deck.yaml"
    deck.write_text("deck: {name: Costly, players: 2}\nfields: {name: text, roll: int, reward: number}\ncards:\n"
                    "  - {id: imp, name: Imp, roll: 20, reward: 1000}\n"
                    "  - {id: ogre, name: Ogre, roll: 1010, reward: -1000}\n"
                    "stats: {dice: {field: roll, dice: 20d100, value: reward}}\n")
    result = invoke(str(deck), "--quiet", "--report", str(tmp_path / "costly"))
    assert result.exit_code == 0, result.output
    assert "Dice: 20d100" in pdf_text(tmp_path / "costly.pdf")[0]
    assert Image.open(tmp_path / "costly.png").size[0] > 0
