"""`deckpress new` gives a designer a deck that works from the first command."""

from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.deck import check_deck, load_deck
from generator.render import load_renderer


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_new_deck_checks_and_lays_out_cleanly(tmp_path: Path):
    result = run("new", "space-race", "--dir", str(tmp_path), "--title", "Space Race!")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "space-race"
    assert sorted(p.name for p in folder.iterdir()) == ["deck.yaml", "icons", "layout.yaml", "rules.md"]
    deck = load_deck(folder)
    assert deck.name == "Space Race!"
    report = check_deck(deck)
    assert report.passed and report.rules_checked >= 5
    renderer = load_renderer(deck)
    renderer.validate()
    assert renderer.title(deck.cards[0], "back") == "Space Race!"
    assert run("check", str(folder)).exit_code == 0
    booklet = run("booklet", str(folder), "--out", str(tmp_path / "out"), "--quiet")
    assert booklet.exit_code == 0, booklet.output
    assert (tmp_path / "out" / "space-race-rules.pdf").stat().st_size > 0


def test_new_deck_points_editors_at_the_installed_schemas(tmp_path: Path):
    run("new", "space-race", "--dir", str(tmp_path))
    folder = tmp_path / "space-race"
    for file_name, schema in (("deck.yaml", "deck.schema.json"), ("layout.yaml", "layout.schema.json")):
        first = (folder / file_name).read_text().splitlines()[0]
        reference = first.removeprefix("# yaml-language-server: $schema=")
        assert (folder / reference).resolve().name == schema
        assert (folder / reference).resolve().is_file()


def test_new_refuses_an_existing_folder_and_a_bad_name(tmp_path: Path):
    (tmp_path / "taken").mkdir()
    result = run("new", "taken", "--dir", str(tmp_path))
    assert result.exit_code == 2
    assert "already exists" in result.output
    assert list((tmp_path / "taken").iterdir()) == []
    result = run("new", "Space Race", "--dir", str(tmp_path))
    assert result.exit_code == 2
    assert "may use only a-z, 0-9 and '-'" in result.output


def test_new_refuses_a_name_longer_than_an_id_before_making_anything(tmp_path: Path):
    result = run("new", "a" * 129, "--dir", str(tmp_path), "--title", "Long")
    assert (result.exit_code, result.output) == (
        2, f"error: {tmp_path}: deck name is 129 characters long; at most 128 (it is the deck's id)\n")
    assert list(tmp_path.iterdir()) == []
    assert run("new", "a" * 128, "--dir", str(tmp_path), "--title", "Long").exit_code == 0


def test_new_says_a_name_must_start_with_a_letter_or_a_digit(tmp_path: Path):
    result = run("new", "--dir", str(tmp_path), "--", "-dash")
    assert result.exit_code == 2
    assert "may use only a-z, 0-9 and '-', and starts with a letter or a digit" in result.output


def test_new_refuses_a_title_the_bundled_fonts_cannot_print(tmp_path: Path):
    # The deck would pass check, then build and booklet would refuse it.
    result = CliRunner().invoke(cli, ["new", "y", "--dir", str(tmp_path), "--title", "Ω 中文 🎲"])
    assert result.exit_code == 2
    assert result.output.strip() == \
        "error: title 'Ω 中文 🎲' has characters the bundled DejaVu Sans fonts cannot print: 中 文 🎲 (--title)"
    assert not (tmp_path / "y").exists()


def test_new_refuses_a_title_on_two_lines(tmp_path: Path):
    result = CliRunner().invoke(cli, ["new", "y", "--dir", str(tmp_path), "--title", "Two\nLines"])
    assert result.exit_code == 2
    assert "holds a line break or control character" in result.output
    assert not (tmp_path / "y").exists()


def test_new_keeps_accents_quotes_and_backslashes_in_the_title(tmp_path: Path):
    title = 'Café Ωmega: "The\\Game"'
    result = run("new", "y", "--dir", str(tmp_path), "--title", title)
    assert result.exit_code == 0, result.output
    deck = load_deck(tmp_path / "y")
    assert deck.name == title and load_renderer(deck).title(deck.cards[0], "back") == title
    built = run("build", str(tmp_path / "y"), "--out", str(tmp_path / "out"), "--quiet")
    assert built.exit_code == 0, built.output


@pytest.mark.parametrize("title", ["Cats & *Dogs", "2 * 3 :sword: [x]{.keyword} \\*"])
def test_a_title_with_markup_characters_prints_as_written_and_passes_check(tmp_path: Path, title: str):
    result = run("new", "y", "--dir", str(tmp_path), "--title", title)
    assert result.exit_code == 0, result.output
    check = run("check", str(tmp_path / "y"))
    assert check.exit_code == 0, check.output
    deck = load_deck(tmp_path / "y")
    assert deck.name == title and load_renderer(deck).title(deck.cards[0], "back") == title


def test_a_title_too_long_for_the_card_back_is_refused_before_any_file_is_made(tmp_path: Path):
    title = "Supercalifragilisticexpialidocious Championship"
    result = CliRunner().invoke(cli, ["new", "y", "--dir", str(tmp_path / "cards"), "--title", title])
    assert result.exit_code == 2
    assert result.output == (f"error: title '{title}' does not fit on the card back, even in the smallest type "
                             "the layout allows; choose a shorter title, or one with shorter words (--title)\n")
    assert not (tmp_path / "cards").exists()  # nor the folder it would have gone in
    result = run("new", "y", "--dir", str(tmp_path / "cards"), "--title", "Super Championship of the Whole Wide World")
    assert result.exit_code == 0, result.output
    assert run("check", str(tmp_path / "cards" / "y")).exit_code == 0


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot", "mini", "euro", "square"])
def test_the_starting_layout_fits_every_card_size(tmp_path: Path, size: str):
    """Measured in percentages of the card, the starting layout lays out on any size."""
    run("new", "space-race", "--dir", str(tmp_path))
    layout = tmp_path / "space-race" / "layout.yaml"
    layout.write_text(layout.read_text().replace("size: poker", f"size: {size}"))
    renderer = load_renderer(load_deck(tmp_path / "space-race"))
    assert renderer.problems() == []
    knight = renderer.plan(renderer.deck.card("knight"), "front")
    width, height = renderer.card_size
    picture = next(op for op in knight if op.element == "picture")
    (x, y, side), = picture.squares
    assert side > 0.3 * min(width, height)  # the picture grows with the card
    body = next(op for op in knight if op.element == "body")
    assert body.size >= 7  # the card text stays readable


def test_the_starting_deck_shows_markup_svg_icons_and_a_turned_index(tmp_path: Path):
    run("new", "space-race", "--dir", str(tmp_path))
    out = tmp_path / "out"
    assert run("build", str(tmp_path / "space-race"), "--out", str(out), "--quiet").exit_code == 0
    page = pdfplumber.open(out / "space-race.pdf").pages[0]
    words = page.extract_words(extra_attrs=["fontname"])
    defeat = next(word for word in words if word["text"] == "Defeat")
    assert defeat["fontname"].endswith("Bold")
    assert "Defeat a monster of 3 or less." in page.extract_text().replace("\n", " ")
    assert any(char["matrix"][0] == pytest.approx(-1) for char in page.chars if char["text"] == "3")
    assert not page.images  # the pictures are SVG, drawn as paths


@pytest.mark.parametrize("shop", ["drivethrucards", "thegamecrafter", "press-3mm"])
def test_the_starting_deck_passes_every_bundled_print_shops_check(tmp_path: Path, shop: str):
    """A designer's first upload should not fail on the starter's own paint or margins,
    version stamp included (it is laid out only where the deck has a version)."""
    run("new", "space-race", "--dir", str(tmp_path))
    deck = tmp_path / "space-race" / "deck.yaml"
    deck.write_text(deck.read_text().replace("  layout: layout", '  version: "0.12-rc3"\n  layout: layout', 1))
    result = run("check", str(deck.parent), "--for", shop)
    assert result.exit_code == 0, result.output
    assert "version 0.12-rc3" in result.output
