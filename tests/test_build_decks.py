"""``deckpress build`` end to end on the bundled decks, drawn by the real layouts."""

from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from sheets_support import embedded_fonts, read_manifest

from generator.cli import cli
from generator.deck.model import load_deck
from generator.sheets.style import MM

CARDS = Path(__file__).resolve().parent.parent / "cards"
DECKS = sorted(path.name for path in CARDS.iterdir() if (path / "deck.yaml").is_file())
PAGES_READ = 2
"""Pages of each deck whose text is read back (reading all of them would slow the suite)."""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    result = CliRunner().invoke(cli, ["build", str(CARDS), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def test_all_four_bundled_decks_are_built(built):
    assert len(DECKS) == 4
    assert sorted(path.name for path in built.iterdir()) == sorted(
        f"{deck}.{kind}" for deck in DECKS for kind in ("pdf", "json"))


@pytest.mark.parametrize("deck_id", DECKS)
def test_every_copy_of_every_card_is_placed_front_and_back(built, deck_id):
    deck = load_deck(CARDS / deck_id)
    manifest = read_manifest(built / f"{deck_id}.json")
    assert manifest["cards"] == deck.total
    assert len(manifest["placements"]) == 2 * deck.total
    assert len(PdfReader(built / f"{deck_id}.pdf").pages) == manifest["pages"]
    fronts = {(p["card"], p["copy"]) for p in manifest["placements"] if p["face"] == "front"}
    assert fronts == {(card.id, copy) for card in deck.cards for copy in range(1, card.count + 1)}


@pytest.mark.parametrize("deck_id", DECKS)
def test_titles_print_inside_their_boxes_and_backs_mirror_fronts(built, deck_id):
    manifest = read_manifest(built / f"{deck_id}.json")
    width = manifest["paper"]["width"]
    placements = [p for p in manifest["placements"] if p["page"] <= PAGES_READ]
    with pdfplumber.open(built / f"{deck_id}.pdf") as pdf:
        for placement in placements:
            page = pdf.pages[placement["page"] - 1]
            x, y, w, h = placement["trim_box"]
            text = page.within_bbox((x, page.height - y - h, x + w, page.height - y)).extract_text()
            title = placement["title"]
            assert " ".join(title.split()).lower() in " ".join(text.split()).lower(), (placement, text)
    fronts = {(p["card"], p["copy"]): p for p in placements if p["face"] == "front"}
    for back in (p for p in placements if p["face"] == "back"):
        x, y, w, _ = fronts[(back["card"], back["copy"])]["trim_box"]
        assert back["trim_box"][:2] == pytest.approx([width - x - w, y], abs=0.002)


@pytest.mark.parametrize("deck_id", DECKS)
def test_fonts_are_embedded(built, deck_id):
    fonts = embedded_fonts(built / f"{deck_id}.pdf")
    assert fonts and all(fonts.values()), fonts


def test_rebuilding_gives_the_same_bytes(built, tmp_path):
    result = CliRunner().invoke(cli, ["build", str(CARDS / "goblins"), "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0
    assert (tmp_path / "goblins.pdf").read_bytes() == (built / "goblins.pdf").read_bytes()
    assert (tmp_path / "goblins.json").read_bytes() == (built / "goblins.json").read_bytes()


POKER_PT = (63.5 * MM, 88.9 * MM)
"""Poker cards, 63.5 x 88.9 mm: 180 x 252 points."""


@pytest.mark.parametrize("deck_id", DECKS)
def test_bundled_decks_print_poker_cards_with_a_3_mm_bleed(built, deck_id):
    from generator.render import load_renderer
    from generator.sheets.renderer import CardRenderer

    renderer = load_renderer(load_deck(CARDS / deck_id))
    assert isinstance(renderer, CardRenderer)
    assert renderer.card_size == pytest.approx(POKER_PT, abs=0.01)
    assert renderer.bleed == pytest.approx(3 * MM, abs=0.01)
    manifest = read_manifest(built / f"{deck_id}.json")
    assert manifest["card_size"] == pytest.approx(POKER_PT, abs=0.01)
    sizes = {tuple(p["trim_box"][2:]) for p in manifest["placements"]}
    assert len(sizes) == 1 and list(sizes.pop()) == pytest.approx(POKER_PT, abs=0.01)


def test_folded_goblins_show_their_backs_upright_when_turned_over_sideways(tmp_path):
    """Folded across an A4 sheet, backs are drawn upside down so that folding and turning right them."""
    result = CliRunner().invoke(cli, ["build", str(CARDS / "goblins"), "--out", str(tmp_path), "--quiet",
                                      "--duplex", "fold"])
    assert result.exit_code == 0, result.output
    manifest = read_manifest(tmp_path / "goblins.fold.json")
    with pdfplumber.open(tmp_path / "goblins.fold.pdf") as pdf:
        page = pdf.pages[0]
        for placement in (p for p in manifest["placements"] if p["page"] == 1):
            x, y, w, h = placement["trim_box"]
            inside = [char for char in page.chars if x <= char["x0"] <= x + w
                      and y <= page.height - char["bottom"] <= y + h]
            assert inside, placement
            # text runs right on a front, left on a back (upside down) until the card is folded and turned
            runs_right = placement["face"] == "front"
            assert placement["rotation"] == (0 if runs_right else 180)
            assert all((char["matrix"][0] > 0) == runs_right and char["matrix"][1] == 0 for char in inside)


def test_a_title_that_cannot_fit_stops_the_build_with_one_line(tmp_path, monkeypatch):
    (tmp_path / "layouts").symlink_to(CARDS.parent / "layouts")  # the project's layouts, found from the deck
    folder = tmp_path / "cards" / "wordy"
    folder.mkdir(parents=True)
    goblins = (CARDS / "goblins" / "deck.yaml").read_text()
    long_name = "Supercalifragilistic Extraordinarily Elongated Goblin Name That Goes On and On"
    (folder / "deck.yaml").write_text(goblins.replace('name: "Dusty Dour"', f'name: "{long_name}"'))
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(folder), "--out", str(out), "--no-check"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"error: {folder / 'deck.yaml'}:")
    assert "deck 'wordy', card 'dusty-dour', front" in lines[0] and "element 'title'" in lines[0]
    assert not out.exists()


def test_gold_rush_summon_line_prints_on_one_line(built):
    """A layout template folded over several YAML lines still prints one line of text."""
    with pdfplumber.open(built / "gold-rush.pdf") as pdf:
        lines = pdf.pages[0].extract_text().splitlines()
    assert sum(line.count("summon with 1 Burning Treasure") for line in lines) == 3  # Cinder Whelp, 3 copies
