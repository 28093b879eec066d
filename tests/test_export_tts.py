"""``deckpress export --tts``: deck sheets and a saved object Tabletop Simulator can load."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from cli_run import CARDS, deckpress
from PIL import Image
from test_export import BLUE, DOUBLE_SIDED_CARDS, GREEN, LAYOUT, RED, TWO_BACK_CARDS, YELLOW, make_deck, png_names

from generator.deck.model import load_deck
from generator.exports import load_export_renderer, plan_png_export, write_png_export, write_tts_export
from generator.exports.raster import Raster, rasterise_face
from generator.exports.tts import (
    MAX_COLUMNS,
    MAX_PILES,
    MAX_ROWS,
    MAX_SHEET_PIXELS,
    card_pixels,
    check_url_base,
    pile_grids,
    plan_tts_export,
    saved_object_text,
)
from generator.render import load_renderer
from generator.render.renderer import builtin_tables
from generator.render.units import to_points

POKER = (180.0, 252.0)
WHITE = (255, 255, 255)


def export_tts(tmp_path: Path, deck: Path, *options: str) -> tuple[Path, dict]:
    out = tmp_path / "tts"
    run = deckpress("export", deck, "--tts", out, "-q", *options)
    assert run.exit_code == 0, run.stderr
    return out, json.loads((out / "test.json").read_text())


def slot_image(sheet: Image.Image, slot: int, columns: int, card_px: tuple[int, int]) -> Image.Image:
    row, column = divmod(slot, columns)
    width, height = card_px
    return sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))


def middle(image: Image.Image) -> tuple[int, int, int]:
    return image.convert("RGB").getpixel((image.width // 2, image.height // 2))


# --- grids --------------------------------------------------------------------------------------

def test_every_pile_fits_tts_limits_and_uses_every_slot():
    for width, height in builtin_tables()[0].values():  # every named card size
        card_size = (to_points(width), to_points(height))
        for faces in range(1, 3 * MAX_COLUMNS * MAX_ROWS + 2):
            card_px, sheets = pile_grids(faces, card_size)
            assert sum(used for _, _, used in sheets) == faces
            for columns, rows, used in sheets:
                assert 1 <= columns <= MAX_COLUMNS and 1 <= rows <= MAX_ROWS
                assert used <= columns * rows
                assert columns * card_px[0] <= MAX_SHEET_PIXELS and rows * card_px[1] <= MAX_SHEET_PIXELS
            assert all(used == 70 for _, _, used in sheets[:-1])  # no slot kept back for a hidden card


def test_poker_cards_on_full_sheets_are_as_large_as_ten_by_seven_allows():
    assert card_pixels(POKER) == (409, 573)  # 10 x 409 = 4090 px, 7 x 573 = 4011 px
    assert pile_grids(70, POKER) == ((409, 573), [(10, 7, 70)])
    assert pile_grids(71, POKER) == ((409, 573), [(10, 7, 70), (1, 1, 1)])


def test_a_pile_on_one_sheet_gets_the_grid_that_makes_its_cards_sharpest():
    assert pile_grids(20, POKER) == ((731, 1024), [(5, 4, 20)])  # 20 Goblins: 4096 px high, 1.8 times 409 wide
    assert pile_grids(2, POKER) == ((2048, 2867), [(2, 1, 2)])  # one row: 4096 px wide, 1.4 times 2 x 2's cards
    assert pile_grids(1, POKER) == ((2926, 4096), [(1, 1, 1)])  # a lone card is the whole sheet
    assert pile_grids(13, POKER) == ((819, 1147), [(5, 3, 13)])  # two slots spare, sharper than 7 x 2 (585 px)


# --- a deck with a shared back ------------------------------------------------------------------

def test_shared_back_deck_writes_one_sheet_the_back_and_the_saved_object(tmp_path):
    out, _ = export_tts(tmp_path, make_deck(tmp_path))
    assert png_names(out) == ["test-back.png", "test-faces-1.png", "test.json"]
    with Image.open(out / "test-faces-1.png") as sheet:
        assert sheet.mode == "RGB"
        assert sheet.size == (2 * 2048, 2867)  # two faces: one row, as sharp as 4096 px allows
    with Image.open(out / "test-back.png") as back:
        assert back.size == (2048, 2867) and back.mode == "RGB"


def test_saved_object_deck_holds_every_copy_with_the_deck_counts(tmp_path):
    out, saved = export_tts(tmp_path, make_deck(tmp_path))
    [deck] = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Test Deck"
    assert deck["CustomDeck"] == {"1": {
        "FaceURL": (out / "test-faces-1.png").resolve().as_uri(),
        "BackURL": (out / "test-back.png").resolve().as_uri(),
        "NumWidth": 2, "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False, "Type": 0}}
    assert deck["DeckIDs"] == [100, 100, 100, 101]  # ogre x3 in slot 0, imp in slot 1, ghost (0) absent
    cards = deck["ContainedObjects"]
    assert [(card["Nickname"], card["CardID"]) for card in cards] == [
        ("Ogre", 100), ("Ogre", 100), ("Ogre", 100), ("Imp", 101)]
    assert all(card["Name"] == "Card" and card["CustomDeck"] == {"1": deck["CustomDeck"]["1"]} for card in cards)
    assert len({card["GUID"] for card in cards} | {deck["GUID"]}) == 5
    assert deck["CustomDeck"]["1"]["FaceURL"].startswith("file:///")


def test_each_slot_holds_its_cards_face_and_the_slots_left_over_are_white(tmp_path):
    folder = make_deck(tmp_path, "back: {name: Test Deck, colour: blue}\ncards:\n"
                                 "  - {id: ogre, name: Ogre, colour: red}\n  - {id: imp, name: Imp, colour: green}\n"
                                 "  - {id: elf, name: Elf}\n")
    out, saved = export_tts(tmp_path, folder)
    deck = load_deck(folder)
    renderer = load_renderer(deck)
    card_px = (1463, 2048)  # three faces: 2 x 2, one slot left over
    raster = Raster(renderer.card_size, 0.0, card_px, 0)
    with Image.open(out / "test-faces-1.png") as sheet, Image.open(out / "test-back.png") as back:
        sheet = sheet.convert("RGB")
        for card_id, slot in (("ogre", 0), ("imp", 1), ("elf", 2)):
            expected = rasterise_face(renderer, deck.card(card_id), "front", raster)
            assert slot_image(sheet, slot, 2, card_px).tobytes() == expected.tobytes(), card_id
        for slot in (3,):
            assert slot_image(sheet, slot, 2, card_px).getcolors() == [(card_px[0] * card_px[1], WHITE)]
        assert middle(back) == BLUE
        assert rasterise_face(renderer, deck.card("ogre"), "back", raster).tobytes() == back.convert("RGB").tobytes()


def test_with_the_back_hidden_all_seventy_slots_hold_cards(tmp_path):
    cards = "back: {name: Back, colour: blue}\ncards:\n" + "".join(
        f"  - {{id: card-{number}, name: Card {number}, colour: {('red', 'green')[number % 2]}}}\n"
        for number in range(70))
    out, saved = export_tts(tmp_path, make_deck(tmp_path, cards))
    [deck] = saved["ObjectStates"]
    assert set(deck["CustomDeck"]) == {"1"} and deck["CustomDeck"]["1"]["BackIsHidden"] is True
    assert deck["DeckIDs"] == list(range(100, 170))  # slot 69, the last, is a card's
    with Image.open(out / "test-faces-1.png") as sheet:
        assert sheet.size == (10 * 409, 7 * 573)
        assert middle(slot_image(sheet, 69, 10, (409, 573))) == GREEN  # card 69, not a hidden-card stand-in


# --- double-sided cards ---------------------------------------------------------------------------

def test_double_sided_cards_get_a_back_sheet_with_the_same_grid(tmp_path):
    out, saved = export_tts(tmp_path, make_deck(tmp_path, DOUBLE_SIDED_CARDS))
    assert png_names(out) == ["test-backs-1.png", "test-faces-1.png", "test.json"]
    [deck] = saved["ObjectStates"]
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True
    assert entry["BackURL"] == (out / "test-backs-1.png").resolve().as_uri()
    assert deck["DeckIDs"] == [100, 101, 101]
    card_px = (2048, 2867)
    with Image.open(out / "test-faces-1.png") as faces, Image.open(out / "test-backs-1.png") as backs:
        assert faces.size == backs.size == (2 * 2048, 2867)
        assert middle(slot_image(faces, 0, 2, card_px)) == RED     # sun
        assert middle(slot_image(backs, 0, 2, card_px)) == BLUE    # its moon side
        assert middle(slot_image(faces, 1, 2, card_px)) == GREEN   # frog
        assert middle(slot_image(backs, 1, 2, card_px)) == YELLOW  # the toad side


# --- several backs: a pile each -------------------------------------------------------------------

def test_each_back_several_cards_share_is_a_pile_of_its_own(tmp_path):
    folder = make_deck(tmp_path, TWO_BACK_CARDS)
    out, saved = export_tts(tmp_path, folder)
    renderer = load_renderer(load_deck(folder))
    question, answer = (renderer.face_key(renderer.deck.card(card), "back") for card in ("who", "aye"))
    assert png_names(out) == sorted([f"test-back-{question}.png", f"test-back-{answer}.png",
                                     "test-faces-1.png", "test-faces-2.png", "test.json"])
    questions, answers = saved["ObjectStates"]
    assert (questions["Nickname"], answers["Nickname"]) == ("Test Deck: Question", "Test Deck: Answer")
    assert questions["DeckIDs"] == [100, 100, 101] and answers["DeckIDs"] == [200, 201, 202]
    assert [card["Nickname"] for card in answers["ContainedObjects"]] == ["Yes", "No", "Maybe"]
    assert list(questions["CustomDeck"]) == ["1"] and list(answers["CustomDeck"]) == ["2"]
    assert questions["CustomDeck"]["1"]["BackURL"].endswith(f"/test-back-{question}.png")
    assert answers["CustomDeck"]["2"]["BackURL"].endswith(f"/test-back-{answer}.png")
    assert not questions["CustomDeck"]["1"]["UniqueBack"] and not answers["CustomDeck"]["2"]["UniqueBack"]
    assert questions["Transform"]["posX"] != answers["Transform"]["posX"]  # side by side, not one pile
    guids = [state["GUID"] for state in saved["ObjectStates"]]
    guids += [card["GUID"] for state in saved["ObjectStates"] for card in state["ContainedObjects"]]
    assert len(guids) == len(set(guids)) == 2 + 6
    with Image.open(out / f"test-back-{question}.png") as back:
        assert middle(back) == BLUE
    with Image.open(out / f"test-back-{answer}.png") as back:
        assert middle(back) == YELLOW


def test_tts_split_makes_a_pile_for_each_value_of_a_field(tmp_path):
    cards = ("back: {name: Back, colour: blue}\ncards:\n  - {id: a, count: 2, name: A, colour: red}\n"
             "  - {id: b, name: B, colour: green}\n  - {id: c, name: C, colour: red}\n  - {id: d, count: 2, name: D}\n")
    out, saved = export_tts(tmp_path, make_deck(tmp_path, cards), "--tts-split", "colour")
    reds, greens, plain = saved["ObjectStates"]
    assert reds["Nickname"] == "Test Deck: red" and reds["Name"] == "DeckCustom"
    assert [card["Nickname"] for card in reds["ContainedObjects"]] == ["A", "A", "C"]
    assert (greens["Name"], greens["Nickname"], greens["CardID"]) == ("Card", "B", 200)  # one copy: a lone card
    assert plain["Nickname"] == "Test Deck: no colour" and plain["DeckIDs"] == [300, 300]
    assert png_names(out) == ["test-back.png", "test-faces-1.png", "test-faces-2.png", "test-faces-3.png",
                              "test.json"]  # the one back they share, written once
    assert {state["CustomDeck"][key]["BackURL"] for state in saved["ObjectStates"] for key in state["CustomDeck"]} \
        == {(out / "test-back.png").resolve().as_uri()}


def test_tts_split_by_a_field_the_deck_has_not_got_is_a_usage_error(tmp_path):
    run = deckpress("export", make_deck(tmp_path), "--tts", tmp_path / "tts", "--tts-split", "colur")
    assert run.exit_code == 2
    assert "the deck has no field 'colur'; did you mean 'colour'?" in run.stderr
    assert not (tmp_path / "tts").exists()


def test_tts_split_into_more_piles_than_a_table_holds_is_refused(tmp_path):
    cards = "back: {name: Back}\ncards:\n" + "".join(
        f"  - {{id: card-{number}, name: Card {number}}}\n" for number in range(MAX_PILES + 1))
    run = deckpress("export", make_deck(tmp_path, cards), "--tts", tmp_path / "tts", "--tts-split", "name")
    assert run.exit_code == 2
    assert f"makes {MAX_PILES + 1} piles" in run.stderr and f"at most {MAX_PILES}" in run.stderr
    assert not (tmp_path / "tts").exists()


def test_tts_options_without_tts_are_usage_errors(tmp_path):
    for option in (["--tts-split", "colour"], ["--url-base", "https://example.com/"]):
        run = deckpress("export", make_deck(tmp_path), "--png", tmp_path / "png", *option)
        assert run.exit_code == 2 and f"{option[0]} applies to --tts decks only" in run.stderr


# --- card shape -----------------------------------------------------------------------------------

def test_square_cornered_layouts_make_square_cards_and_others_rounded(tmp_path):
    _, saved = export_tts(tmp_path, make_deck(tmp_path))
    assert saved["ObjectStates"][0]["CustomDeck"]["1"]["Type"] == 0
    square = make_deck(tmp_path / "square", layout=LAYOUT.replace("bleed: 3mm\n", "bleed: 3mm\ncorner_radius: 0\n"))
    _, saved = export_tts(tmp_path / "square", square)
    assert saved["ObjectStates"][0]["CustomDeck"]["1"]["Type"] == 1
    for card in saved["ObjectStates"][0]["ContainedObjects"]:
        assert card["CustomDeck"]["1"]["Type"] == 1


def test_a_corner_radius_past_half_the_card_is_a_layout_mistake(tmp_path):
    deck = make_deck(tmp_path, layout=LAYOUT.replace("bleed: 3mm\n", "bleed: 3mm\ncorner_radius: 40mm\n"))
    run = deckpress("check", deck)
    assert run.exit_code == 2
    assert "plain.yaml:3:" in run.stderr and "corner_radius must be at most half" in run.stderr


# --- hosted images --------------------------------------------------------------------------------

def test_url_base_links_the_images_where_they_will_be_uploaded(tmp_path):
    _, saved = export_tts(tmp_path, make_deck(tmp_path, TWO_BACK_CARDS), "--url-base",
                          "https://example.com/decks/test%20deck")
    urls = {entry[key] for state in saved["ObjectStates"] for entry in state["CustomDeck"].values()
            for key in ("FaceURL", "BackURL")}
    assert all(url.startswith("https://example.com/decks/test%20deck/test-") and url.endswith(".png") for url in urls)
    assert "https://example.com/decks/test%20deck/test-faces-2.png" in urls and len(urls) == 4


@pytest.mark.parametrize("url, message", [
    ("ftp://example.com/decks/", "must start with http:// or https://, not ftp:"),
    ("javascript:alert(1)", "must start with http:// or https://, not javascript:"),
    ("file:///home/me/decks/", "must start with http:// or https://, not file:"),
    ("example.com/decks", "must start with http:// or https://, not nothing"),
    ("https:///decks/", "names no host"),
    ("https://example.com/my decks/", "holds a space, which no web address does"),
    ("https://example.com/\x1b]0;pwned\x07/", "holds the control character \\x1b"),
    ("https://example.com/\x00/", "holds the control character \\x00"),
    ("https://example.com/decks/?sig=1", "has no '?' or '#' part"),
    ("https://example.com/decks/#top", "has no '?' or '#' part"),
    ("https://me:secret@example.com/decks/", "holds a user name or password"),
    ("https://example.com:port/", "is not a web address"),
    ("https://exämple.com/", "outside ASCII"),
    ("https://example.com/" + "a" * 2000, "at most 2,000"),
])
def test_url_base_must_be_a_web_folder(tmp_path, url, message):
    run = deckpress("export", make_deck(tmp_path), "--tts", tmp_path / "tts", "--url-base", url)
    assert run.exit_code == 2, run.stdout
    assert message in run.stderr and "--url-base" in run.stderr
    assert "\x1b" not in run.stderr and "\x00" not in run.stderr
    assert not (tmp_path / "tts").exists()


def test_url_base_ends_in_one_slash():
    assert check_url_base("http://example.com/decks") == "http://example.com/decks/"
    assert check_url_base("https://example.com/decks/") == "https://example.com/decks/"


# --- larger and smaller decks ---------------------------------------------------------------------

def test_more_than_70_different_cards_spill_onto_a_second_sheet(tmp_path):
    cards = "back: {name: Back}\ncards:\n" + "".join(
        f"  - {{id: card-{number}, count: {1 + number % 3}, name: Card {number}}}\n" for number in range(75))
    deck = load_deck(make_deck(tmp_path, cards))
    export = plan_tts_export(load_renderer(deck), tmp_path / "tts")
    assert [(sheet.columns, sheet.rows, len(sheet.faces.faces)) for sheet in export.sheets] == [(10, 7, 70), (5, 1, 5)]
    [state] = json.loads("".join(saved_object_text(export)))["ObjectStates"]
    assert set(state["CustomDeck"]) == {"1", "2"}
    assert state["CustomDeck"]["2"]["FaceURL"].endswith("/test-faces-2.png")
    assert export.card_ids["card-0"] == 100 and export.card_ids["card-69"] == 169
    assert export.card_ids["card-70"] == 200 and export.card_ids["card-74"] == 204
    assert Counter(state["DeckIDs"]) == Counter({export.card_ids[card.id]: card.count for card in deck.cards})
    for card in state["ContainedObjects"]:
        assert list(card["CustomDeck"]) == [str(card["CardID"] // 100)]


def test_identical_cards_share_one_slot(tmp_path):
    cards = ("back: {name: Back}\ncards:\n  - {id: coin-a, count: 2, name: Coin, colour: red}\n"
             "  - {id: coin-b, name: Coin, colour: red}\n  - {id: gem, name: Gem}\n")
    deck = load_deck(make_deck(tmp_path, cards))
    export = plan_tts_export(load_renderer(deck), tmp_path / "tts")
    assert export.card_ids == {"coin-a": 100, "coin-b": 100, "gem": 101}


def test_a_deck_of_one_card_is_saved_as_a_single_card(tmp_path):
    out, saved = export_tts(tmp_path, make_deck(tmp_path, "back: {name: B}\ncards:\n  - {id: solo, name: Solo}\n"))
    [card] = saved["ObjectStates"]
    assert card["Name"] == "Card" and card["Nickname"] == "Solo" and card["CardID"] == 100


def test_a_deck_with_no_printed_cards_is_refused(tmp_path):
    deck = make_deck(tmp_path, "cards:\n  - {id: gone, count: 0, name: Gone}\n")
    run = deckpress("export", deck, "--tts", tmp_path / "tts")
    assert run.exit_code == 2
    assert "nothing to print" in run.stderr and "deck.yaml:" in run.stderr
    assert not (tmp_path / "tts").exists()


# --- the bundled decks ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["cereal-killer", "goblins", "gold-rush", "tiki"])
def test_bundled_deck_saved_object_has_the_deck_counts(tmp_path, game):
    deck = load_deck(CARDS / game)
    export = plan_tts_export(load_renderer(deck), tmp_path)
    [state] = json.loads("".join(saved_object_text(export)))["ObjectStates"]
    assert len(state["DeckIDs"]) == deck.total
    assert Counter(state["DeckIDs"]) == Counter(
        {card_id: sum(card.count for card in deck.cards if export.card_ids.get(card.id) == card_id)
         for card_id in set(export.card_ids.values())})
    for sheet in export.sheets:
        assert sheet.columns <= 10 and sheet.rows <= 7
        width, height = sheet.faces.size_px
        assert width <= 4096 and height <= 4096
    assert state["CustomDeck"]["1"]["UniqueBack"] is (game == "goblins")
    assert state["CustomDeck"]["1"]["Type"] == 0  # the bundled layouts' cards have rounded corners


def test_goblins_exports_face_and_back_sheets_as_sharp_as_their_grid_allows(tmp_path):
    run = deckpress("export", CARDS / "goblins", "--tts", tmp_path, "-q")
    assert run.exit_code == 0, run.stderr
    saved = json.loads((tmp_path / "goblins.json").read_text())
    [state] = saved["ObjectStates"]
    assert state["CustomDeck"]["1"]["NumWidth"] == 5 and state["CustomDeck"]["1"]["NumHeight"] == 4
    assert [card["Nickname"] for card in state["ContainedObjects"]][:2] == ["Dusty Dour", "Nappy Hour"]
    for name in ("goblins-faces-1.png", "goblins-backs-1.png"):
        with Image.open(tmp_path / name) as sheet:
            assert sheet.size == (5 * 731, 4 * 1024) and sheet.mode == "RGB"


@pytest.mark.parametrize("cards", [None, DOUBLE_SIDED_CARDS, TWO_BACK_CARDS])
def test_progress_moves_once_per_announced_step(tmp_path, cards):
    renderer = load_export_renderer(load_deck(make_deck(tmp_path, cards) if cards else make_deck(tmp_path)))
    tts = plan_tts_export(renderer, tmp_path / "tts")
    assert len(list(write_tts_export(tts))) == tts.steps
    png = plan_png_export(renderer, tmp_path / "png", dpi=10)
    assert len(list(write_png_export(png))) == png.steps


def test_the_summary_names_the_decks_and_their_card_size(tmp_path):
    run = deckpress("export", make_deck(tmp_path, TWO_BACK_CARDS), "--tts", tmp_path / "tts")
    assert run.exit_code == 0, run.stderr
    # two questions on one row, three answers on 2 x 2
    assert "test: 2 decks, 2 deck sheets (1463x2048 and 2048x2867 px a card), 2 back images and" in run.stdout


@pytest.mark.parametrize("size, sideways", [("poker", False), ("[88.9mm, 63.5mm]", True)], ids=["upright", "landscape"])
def test_landscape_cards_are_marked_sideways_for_the_zoom(tmp_path, size, sideways):
    """TTS zooms in on a card (Alt) turned as its SidewaysCard says; a landscape card is wider than tall."""
    deck = make_deck(tmp_path, layout=LAYOUT.replace("size: poker", f"size: {size}"))
    _, saved = export_tts(tmp_path, deck)
    [pile] = saved["ObjectStates"]
    assert pile["SidewaysCard"] is sideways
    assert {card["SidewaysCard"] for card in pile["ContainedObjects"]} == {sideways}
