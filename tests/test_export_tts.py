"""``deckpress export --tts``: deck sheets and a saved object Tabletop Simulator can load."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from cli_run import CARDS, deckpress
from PIL import Image
from test_export import BLUE, DOUBLE_SIDED_CARDS, GREEN, RED, make_deck, png_names

from generator.deck.model import load_deck
from generator.exports import load_export_renderer, plan_png_export, write_png_export, write_tts_export
from generator.exports.raster import Raster, rasterise_face
from generator.exports.tts import (
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_SHEET_PIXELS,
    card_pixels,
    choose_grid,
    plan_tts_export,
    saved_object,
)
from generator.render import load_renderer
from generator.render.renderer import builtin_tables
from generator.render.units import to_points


def export_tts(tmp_path: Path, deck: Path) -> tuple[Path, dict]:
    out = tmp_path / "tts"
    run = deckpress("export", deck, "--tts", out, "-q")
    assert run.exit_code == 0, run.stderr
    return out, json.loads((out / "test.json").read_text())


def slot_image(sheet: Image.Image, slot: int, columns: int, card_px: tuple[int, int]) -> Image.Image:
    row, column = divmod(slot, columns)
    width, height = card_px
    return sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))


# --- grids --------------------------------------------------------------------------------------

def test_every_grid_fits_tts_limits_and_keeps_the_last_slot_free():
    for width, height in builtin_tables()[0].values():  # every named card size
        card_px = card_pixels((to_points(width), to_points(height)))
        for faces in range(1, MAX_COLUMNS * MAX_ROWS):
            columns, rows = choose_grid(faces + 1, card_px)
            assert 2 <= columns <= MAX_COLUMNS and 2 <= rows <= MAX_ROWS
            assert columns * rows >= faces + 1  # room for every face and the hidden card
            assert columns * card_px[0] <= MAX_SHEET_PIXELS and rows * card_px[1] <= MAX_SHEET_PIXELS


def test_poker_cards_are_as_large_as_a_full_sheet_allows():
    assert card_pixels((180, 252)) == (409, 573)  # 10 x 409 = 4090 px, 7 x 573 = 4011 px


def test_grid_wastes_no_slot_when_it_need_not():
    assert choose_grid(21, (409, 573)) == (7, 3)  # 20 double-sided Goblins + the hidden slot
    assert choose_grid(48, (409, 573)) == (8, 6)
    assert choose_grid(70, (409, 573)) == (10, 7)


# --- a deck with a shared back ------------------------------------------------------------------

def test_shared_back_deck_writes_one_sheet_the_back_and_the_saved_object(tmp_path):
    out, _ = export_tts(tmp_path, make_deck(tmp_path))
    assert png_names(out) == ["test-back.png", "test-faces-1.png", "test.json"]
    with Image.open(out / "test-faces-1.png") as sheet:
        assert sheet.mode == "RGB"
        assert sheet.size == (2 * 409, 2 * 573)  # two faces + the hidden slot: the smallest grid, 2 x 2
    with Image.open(out / "test-back.png") as back:
        assert back.size == (409, 573) and back.mode == "RGB"


def test_saved_object_deck_holds_every_copy_with_the_deck_counts(tmp_path):
    out, saved = export_tts(tmp_path, make_deck(tmp_path))
    [deck] = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Test Deck"
    assert deck["CustomDeck"] == {"1": {
        "FaceURL": (out / "test-faces-1.png").resolve().as_uri(),
        "BackURL": (out / "test-back.png").resolve().as_uri(),
        "NumWidth": 2, "NumHeight": 2, "BackIsHidden": True, "UniqueBack": False, "Type": 0}}
    assert deck["DeckIDs"] == [100, 100, 100, 101]  # ogre x3 in slot 0, imp in slot 1, ghost (0) absent
    cards = deck["ContainedObjects"]
    assert [(card["Nickname"], card["CardID"]) for card in cards] == [
        ("Ogre", 100), ("Ogre", 100), ("Ogre", 100), ("Imp", 101)]
    assert all(card["Name"] == "Card" and card["CustomDeck"] == {"1": deck["CustomDeck"]["1"]} for card in cards)
    assert len({card["GUID"] for card in cards} | {deck["GUID"]}) == 5
    assert deck["CustomDeck"]["1"]["FaceURL"].startswith("file:///")


def test_each_slot_holds_its_cards_face_and_the_hidden_slot_the_back(tmp_path):
    folder = make_deck(tmp_path)
    out, saved = export_tts(tmp_path, folder)
    deck = load_deck(folder)
    renderer = load_renderer(deck)
    raster = Raster(renderer.card_size, 0.0, (409, 573), 0)
    with Image.open(out / "test-faces-1.png") as sheet, Image.open(out / "test-back.png") as back:
        sheet = sheet.convert("RGB")
        for card_id, slot in (("ogre", 0), ("imp", 1)):
            expected = rasterise_face(renderer, deck.card(card_id), "front", raster)
            assert slot_image(sheet, slot, 2, (409, 573)).tobytes() == expected.tobytes(), card_id
        hidden = slot_image(sheet, 3, 2, (409, 573))
        assert hidden.tobytes() == back.convert("RGB").tobytes()
        assert hidden.getpixel((204, 286)) == BLUE
        used = {card_id % 100 for card_id in saved["ObjectStates"][0]["DeckIDs"]}
        assert 3 not in used  # no card points at the hidden slot


# --- double-sided cards ---------------------------------------------------------------------------

def test_double_sided_cards_get_a_back_sheet_with_the_same_grid(tmp_path):
    out, saved = export_tts(tmp_path, make_deck(tmp_path, DOUBLE_SIDED_CARDS))
    assert png_names(out) == ["test-backs-1.png", "test-faces-1.png", "test.json"]
    [deck] = saved["ObjectStates"]
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True
    assert entry["BackURL"] == (out / "test-backs-1.png").resolve().as_uri()
    assert deck["DeckIDs"] == [100, 101, 101]
    with Image.open(out / "test-faces-1.png") as faces, Image.open(out / "test-backs-1.png") as backs:
        assert faces.size == backs.size == (2 * 409, 2 * 573)
        middle = (204, 286)
        assert slot_image(faces, 0, 2, (409, 573)).getpixel(middle) == RED     # sun
        assert slot_image(backs, 0, 2, (409, 573)).getpixel(middle) == BLUE    # its moon side
        assert slot_image(faces, 1, 2, (409, 573)).getpixel(middle) == GREEN   # frog


# --- larger and smaller decks ---------------------------------------------------------------------

def test_more_than_69_different_cards_spill_onto_a_second_sheet(tmp_path):
    cards = "back: {name: Back}\ncards:\n" + "".join(
        f"  - {{id: card-{number}, count: {1 + number % 3}, name: Card {number}}}\n" for number in range(75))
    deck = load_deck(make_deck(tmp_path, cards))
    export = plan_tts_export(load_renderer(deck), tmp_path / "tts")
    assert [(sheet.columns, sheet.rows, len(sheet.cards)) for sheet in export.sheets] == [(10, 7, 69), (4, 2, 6)]
    [state] = saved_object(export)["ObjectStates"]
    assert set(state["CustomDeck"]) == {"1", "2"}
    assert state["CustomDeck"]["2"]["FaceURL"].endswith("/test-faces-2.png")
    assert export.card_ids["card-0"] == 100 and export.card_ids["card-68"] == 168
    assert export.card_ids["card-69"] == 200 and export.card_ids["card-74"] == 205
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
    [state] = saved_object(export)["ObjectStates"]
    assert len(state["DeckIDs"]) == deck.total
    assert Counter(state["DeckIDs"]) == Counter(
        {card_id: sum(card.count for card in deck.cards if export.card_ids.get(card.id) == card_id)
         for card_id in set(export.card_ids.values())})
    for sheet in export.sheets:
        assert sheet.columns <= 10 and sheet.rows <= 7
        assert sheet.columns * export.card_px[0] <= 4096 and sheet.rows * export.card_px[1] <= 4096
        assert sheet.card_id(sheet.hidden_slot) not in state["DeckIDs"]
    assert state["CustomDeck"]["1"]["UniqueBack"] is (game == "goblins")


def test_goblins_exports_face_and_back_sheets(tmp_path):
    run = deckpress("export", CARDS / "goblins", "--tts", tmp_path, "-q")
    assert run.exit_code == 0, run.stderr
    saved = json.loads((tmp_path / "goblins.json").read_text())
    [state] = saved["ObjectStates"]
    assert state["CustomDeck"]["1"]["NumWidth"] == 7 and state["CustomDeck"]["1"]["NumHeight"] == 3
    assert [card["Nickname"] for card in state["ContainedObjects"]][:2] == ["Dusty Dour", "Nappy Hour"]
    for name in ("goblins-faces-1.png", "goblins-backs-1.png"):
        with Image.open(tmp_path / name) as sheet:
            assert sheet.size == (7 * 409, 3 * 573) and sheet.mode == "RGB"


@pytest.mark.parametrize("cards", [None, DOUBLE_SIDED_CARDS])
def test_progress_moves_once_per_announced_step(tmp_path, cards):
    renderer = load_export_renderer(load_deck(make_deck(tmp_path, cards) if cards else make_deck(tmp_path)))
    tts = plan_tts_export(renderer, tmp_path / "tts")
    assert len(list(write_tts_export(tts))) == tts.steps
    png = plan_png_export(renderer, tmp_path / "png", dpi=10)
    assert len(list(write_png_export(png))) == png.steps

