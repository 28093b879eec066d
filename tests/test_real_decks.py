"""Three decks of the kinds designers bring from elsewhere, each through every command, as a user runs them.

- ``tests/decks/party``: *Blank Stares*, a party game of 1,538 text cards read from a CSV, with
  literal stars in its text (``Pay 2*``, ``The Thing.*``) and two backs, prompts and answers,
  given by the spreadsheet's ``back.kind`` column;
- ``tests/decks/workbook``: *Lantern Crawl*, another card tool's tutorial: an Excel workbook with
  Excel's empty ``Sheet2`` and ``Sheet3``, SVG art, made a deck with ``deckpress import`` and
  then given its layouts, as a designer would;
- ``tests/decks/harbour``: *Harbour Guild*, a deck-building game in English and German with coins
  and victory points written as icons (``:coin:``, ``:vp:``) in its card texts and its rules.

Each deck is checked, built, made a booklet, counted, exported (PNG and Tabletop Simulator) and
served once, through the command line into fresh folders; the tests read those outputs back.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest
from cli_run import Run, deckpress
from pypdf import PdfReader
from serve_support import running_server

DECKS = Path(__file__).parent / "decks"
PARTY = DECKS / "party"
HARBOUR = DECKS / "harbour"

PARTY_CARDS = 1538
PARTY_PROMPTS = 360
HARBOUR_CARDS = 358


@dataclass
class Outputs:
    """What every command wrote for one deck (in one language), and what each printed."""

    folder: Path
    deck: str
    runs: dict[str, Run]
    suffix: str = ""

    @property
    def pdf(self) -> Path:
        return self.folder / "build" / f"{self.deck}{self.suffix}.pdf"

    @property
    def manifest(self) -> dict:
        return json.loads((self.folder / "build" / f"{self.deck}{self.suffix}.json").read_text(encoding="utf-8"))

    @property
    def booklet(self) -> Path:
        return self.folder / "booklet" / f"{self.deck}-rules{self.suffix}.pdf"

    @property
    def png(self) -> Path:
        return self.folder / "png"

    @property
    def tts(self) -> dict:
        return json.loads((self.folder / "tts" / f"{self.deck}{self.suffix}.json").read_text(encoding="utf-8"))


def run_everything(deck: Path, out: Path, *lang: str) -> Outputs:
    """check, build, booklet, stats and export of ``deck``, each into a folder of its own under ``out``."""
    runs = {
        "check": deckpress("check", deck, "--format", "json", *lang),
        "build": deckpress("build", deck, "--out", out / "build", "--quiet", *lang),
        "booklet": deckpress("booklet", deck, "--out", out / "booklet", "--quiet", *lang),
        "stats": deckpress("stats", deck, "--report", out / "stats" / "report", *lang),
        "export": deckpress("export", deck, "--png", out / "png", "--dpi", "40", "--tts", out / "tts",
                            "--quiet", *lang),
    }
    return Outputs(out, deck.name, runs, f".{lang[-1]}" if lang else "")


def assert_no_finding(outputs: Outputs) -> None:
    for command, run in outputs.runs.items():
        assert run.exit_code == 0, (command, run.stdout, run.stderr)
        assert not run.error_lines, (command, run.stderr)
    report = json.loads(outputs.runs["check"].stdout)
    assert [finding for deck in report["decks"] for finding in deck["findings"]] == []


def page_text(pdf: Path, number: int) -> str:
    with pdfplumber.open(pdf) as document:
        return document.pages[number - 1].extract_text()


def card_area(document: pdfplumber.PDF, placement: dict) -> pdfplumber.page.Page:
    """What is printed inside one placement's trim box (the manifest's points, from the bottom left)."""
    page = document.pages[placement["page"] - 1]
    x, y, width, height = placement["trim_box"]
    return page.crop((x, page.height - y - height, x + width, page.height - y))


def all_text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as document:
        return "\n".join(page.extract_text() for page in document.pages)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- the decks, each run once -----------------------------------------------------------------

@pytest.fixture(scope="module")
def party(tmp_path_factory) -> Outputs:
    return run_everything(PARTY, tmp_path_factory.mktemp("party"))


@pytest.fixture(scope="module")
def crawl_import(tmp_path_factory) -> tuple[Path, Run]:
    """The workbook's folder copied as a designer downloads it, imported, then given its
    layouts and player count in ``deck.yaml``, the one edit the import leaves to them."""
    folder = tmp_path_factory.mktemp("projects") / "crawl"
    shutil.copytree(DECKS / "workbook", folder)
    run = deckpress("import", folder / "cards.xlsx", "--name", "Lantern Crawl")
    deck = folder / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    imported = "deck: {name: Lantern Crawl, title_field: Name}"
    assert imported in text, text
    deck.write_text(text.replace(imported, "deck: {name: Lantern Crawl, title_field: Name, players: {min: 1, max: 4},"
                                           " layout: {front: crawl, back: crawl-back}}"), encoding="utf-8")
    return folder, run


@pytest.fixture(scope="module")
def crawl(crawl_import, tmp_path_factory) -> Outputs:
    return run_everything(crawl_import[0], tmp_path_factory.mktemp("crawl"))


@pytest.fixture(scope="module")
def harbour(tmp_path_factory) -> Outputs:
    return run_everything(HARBOUR, tmp_path_factory.mktemp("harbour"))


@pytest.fixture(scope="module")
def harbour_de(tmp_path_factory) -> Outputs:
    return run_everything(HARBOUR, tmp_path_factory.mktemp("harbour-de"), "--lang", "de")


@pytest.mark.parametrize("deck", ["party", "crawl", "harbour", "harbour_de"])
def test_every_command_takes_the_deck_without_a_finding(deck, request):
    assert_no_finding(request.getfixturevalue(deck))


# --- Blank Stares: 1,538 cards from a CSV, stars in the text, two backs --------------------------

def test_the_party_game_prints_every_row_of_its_spreadsheet(party):
    manifest = party.manifest
    assert manifest["cards"] == PARTY_CARDS
    fronts = [placement for placement in manifest["placements"] if placement["face"] == "front"]
    assert len(fronts) == PARTY_CARDS and len({placement["card"] for placement in fronts}) == PARTY_CARDS
    assert len(PdfReader(party.pdf).pages) == manifest["pages"] == 2 * -(-PARTY_CARDS // 9)
    backs = {placement["title"] for placement in manifest["placements"] if placement["face"] == "back"}
    assert backs == {"Prompts", "Answers"}


def test_stars_that_pair_with_nothing_print_as_stars(party):
    fronts = {placement["card"]: placement for placement in party.manifest["placements"]
              if placement["face"] == "front"}

    with pdfplumber.open(party.pdf) as document:
        def printed(card: str) -> str:
            words = " ".join(card_area(document, fronts[card]).extract_text().split())
            return words.removesuffix(" Blank Stares")  # the game's name at the foot of the card

        assert printed("thing") == "The Thing.*"
        assert printed("toll") == "Pay 2*"
        assert printed("p0007") == "The secret ingredient in tonight's soup is ____. Pay 2*"
        assert printed("p0008") == "The secret ingredient in tonight's soup is ____ (terms apply).*"
        assert printed("p0010") == "The secret ingredient in tonight's soup is ____. *Allegedly."
        assert printed("p0012") == "The secret ingredient in tonight's soup is ____. Worth 2 * 3 points."
        assert printed("a0013") == "A suspiciously calm sock puppet, rated 5*."
        assert printed("a0012") == "A suspiciously calm sandcastle with a tiny crown."  # a pair of stars is emphasis
        italic = {char["text"] for char in card_area(document, fronts["a0012"]).chars if "Oblique" in char["fontname"]}
        assert italic == set("tiny")


def test_two_backs_make_two_back_images_and_two_piles(party):
    backs = sorted(party.png.glob("*.back-*.png"))  # <deck>.back-<face key>.png, one a shared back
    assert len(backs) == 2 and len({digest(path) for path in backs}) == 2
    assert len(list(party.png.glob("*-front.png"))) == PARTY_CARDS
    assert not list(party.png.glob("*-back.png"))  # no card's back written once a card
    piles = party.tts["ObjectStates"]
    assert [(pile["Nickname"], len(pile["DeckIDs"])) for pile in piles] == [
        ("Blank Stares: Prompts", PARTY_PROMPTS), ("Blank Stares: Answers", PARTY_CARDS - PARTY_PROMPTS)]
    back_urls = [{deck["BackURL"] for deck in pile["CustomDeck"].values()} for pile in piles]
    assert all(len(urls) == 1 for urls in back_urls) and len(back_urls[0] | back_urls[1]) == 2
    tts_backs = sorted((party.folder / "tts").glob("party-back-*.png"))
    assert len(tts_backs) == 2 and len({digest(path) for path in tts_backs}) == 2


def test_the_party_booklet_prints_its_stars_and_counts(party):
    text = " ".join(all_text(party.booklet).split())
    assert "There are 360 prompts, with a dark back, and 1178 answers" in text
    assert "as in Pay 2* or The Thing.*: the star" in text
    assert "A card such as Pay 2* is read exactly as printed" in text
    assert "with a 5* review." in text and "a 5* answer" in text


# --- Lantern Crawl: an imported workbook with empty default sheets and SVG art -----------------

def test_the_workbook_imports_from_its_one_sheet_of_cards(crawl_import):
    folder, run = crawl_import
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith(f"wrote {folder / 'deck.yaml'}: 7 cards, 16 copies")
    assert "Text printed as written (markup: false)" in run.stdout  # a cell reads ':shield:'


def test_the_imported_deck_prints_its_cards_with_their_svg_art(crawl):
    manifest = crawl.manifest
    assert manifest["cards"] == 16
    titles = [placement["title"] for placement in manifest["placements"] if placement["face"] == "front"]
    assert titles.count("Cave Rat") == 4 and titles.count("Tunnel Troll") == 1 and len(titles) == 16
    with pdfplumber.open(crawl.pdf) as document:
        first = document.pages[0]
        assert first.extract_text().count("Lamplighter") == 2
        assert len(first.curves) >= 9  # the art of nine cards, drawn as vector paths
    assert "Add 2 to Defence: 1 :shield: per fight." in " ".join(page_text(crawl.pdf, 3).split())
    assert sorted(path.name for path in crawl.png.glob("*.png")) == [
        *(f"card-{number}-front.png" for number in range(1, 8)), "crawl.back.png", "crawl.contact-sheet.png"]
    [pile] = crawl.tts["ObjectStates"]
    assert len(pile["DeckIDs"]) == 16


def test_the_imported_deck_booklet_lists_every_card(crawl):
    text = all_text(crawl.booklet)
    assert "A short dungeon crawl for 1 to 4 players, played with the 16 cards" in " ".join(text.split())
    for name in ("Cave Rat", "Healing Draught", "Iron Buckler", "Tunnel Troll"):
        assert name in text


# --- Harbour Guild: icons in card text and rules, in English and German ------------------------

def words_and_curves(pdf: Path) -> tuple[str, list[tuple[list[dict], list[dict]]]]:
    """The text of ``pdf``, and each page's words and curves (drawn icons are curves)."""
    with pdfplumber.open(pdf) as document:
        pages = [(page.extract_words(), page.curves) for page in document.pages]
        return "\n".join(page.extract_text() for page in document.pages), pages


def icons_after(pages: list[tuple[list[dict], list[dict]]], word: str) -> int:
    """How many times ``word`` is followed on its line by a drawn icon."""
    return sum(any(seen["x1"] < curve["x0"] < seen["x1"] + 12 and curve["top"] < seen["bottom"]
                   and curve["bottom"] > seen["top"] for curve in curves)
               for words, curves in pages for seen in words if seen["text"] == word)


def test_the_deck_builder_prints_every_copy(harbour, harbour_de):
    for outputs in (harbour, harbour_de):
        assert outputs.manifest["cards"] == HARBOUR_CARDS
        assert len(PdfReader(outputs.pdf).pages) == outputs.manifest["pages"] == 2 * -(-HARBOUR_CARDS // 9)
    titles = {placement["title"] for placement in harbour_de.manifest["placements"] if placement["face"] == "front"}
    assert {"Pfennig", "Fähre", "Gildenhaus"} <= titles and "Penny" not in titles
    page = next(placement["page"] for placement in harbour_de.manifest["placements"] if placement["card"] == "ferry")
    assert "AKTION" in page_text(harbour_de.pdf, page)  # the type line, translated by lang/de.yaml
    [pile] = harbour_de.tts["ObjectStates"]
    assert len(pile["DeckIDs"]) == HARBOUR_CARDS and pile["Nickname"] == "Hafengilde"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_icons_in_the_rules_are_drawn_not_spelled(harbour, harbour_de, lang):
    outputs = harbour if lang == "en" else harbour_de
    text, pages = words_and_curves(outputs.booklet)
    assert ":coin:" not in text and ":vp:" not in text
    spend = {"en": "Spend", "de": "Mit"}[lang]  # "Spend :coin: to buy", "Mit :coin: kauft"
    assert icons_after(pages, spend) == 1
    assert icons_after(pages, "+2") >= 4  # "+2 :coin:" in the example and the card table


def test_the_german_booklet_has_its_tables_in_german(harbour_de):
    text = all_text(harbour_de.booklet)
    lines = text.splitlines()
    assert "Stapel Karten Geld Punkte Fluch Aktion" in lines  # the decklists table's headers
    assert "Startdeck 10 7 3 0 0" in lines and "Erstes Spiel 100 0 0 0 100" in lines
    assert "130 Geld 60 Pfennig, 40 Krone, 30 Barren" in lines  # the components table
    for english in ("Deck Cards", "Treasure", "Victory", "Action", "Curse", "Starting deck"):
        assert english not in text, english


# --- every deck in the live preview ------------------------------------------------------------

def test_the_preview_serves_each_deck_with_no_problem(crawl_import, tmp_path):
    with running_server(PARTY, crawl_import[0], HARBOUR, cwd=tmp_path, options=("--quiet",)) as server:
        assert b"<html" in server.get("/").lower()
        for deck_id, distinct in (("party", PARTY_CARDS + 2), ("crawl", 8), ("harbour", 23)):
            deck = server.wait_for_reload(deck_id, 0)
            assert deck["problems"] == [] and deck["distinct"] == distinct, deck_id
            face = next(face for face in deck["faces"] if face["side"] == "front")
            assert server.get(face["image"]).startswith(b"\x89PNG")
