"""The bundled games' card designs show what their players need, read back from PDFs."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import load_deck
from generator.render import load_renderer

MM = 72 / 25.4
CARDS = Path(__file__).resolve().parent.parent / "cards"


@pytest.fixture(scope="module")
def face(tmp_path_factory):
    """face(game, card id, side) -> the pdfplumber page of that face drawn alone."""
    renderers = {}
    folder = tmp_path_factory.mktemp("faces")

    def draw(game: str, card_id: str, side: str = "front"):
        if game not in renderers:
            renderers[game] = load_renderer(load_deck(CARDS / game))
        renderer = renderers[game]
        path = folder / f"{game}-{card_id}-{side}.pdf"
        canvas = Canvas(str(path), pagesize=renderer.card_size, invariant=1)
        renderer.draw(canvas, renderer.deck.card(card_id), side)
        canvas.save()
        return pdfplumber.open(path).pages[0]

    return draw


def text_of(page) -> str:
    return " ".join(word["text"] for word in page.extract_words())


def painted(page, rgb: tuple[float, float, float]) -> list[dict]:
    """Filled shapes in one colour."""
    return [shape for shape in page.curves + page.rects
            if shape["fill"] and tuple(shape["non_stroking_color"] or ()) == pytest.approx(rgb, abs=0.005)]


def hex_rgb(code: str) -> tuple[float, float, float]:
    return tuple(int(code[i:i + 2], 16) / 255 for i in (1, 3, 5))


@pytest.mark.parametrize("card_id, roll, reward, odds, percent", [
    ("prince-kracula-krunch", "2", "$500", "1 in 36", "2.8%"),
    ("frankenflakes", "7", "$50", "6 in 36", "16.7%"),
    ("casket-crunchies", "11", "$350", "2 in 36", "5.6%"),
])
def test_cereal_monsters_show_roll_reward_and_odds(face, card_id, roll, reward, odds, percent):
    page = face("cereal-killer", card_id)
    text = text_of(page)
    assert reward in text and odds in text and percent in text
    biggest = max(page.chars, key=lambda char: char["size"])
    assert biggest["size"] >= 40 and roll.startswith(biggest["text"])  # the roll, large


def test_cereal_special_cards_show_category_and_text(face):
    page = face("cereal-killer", "spilled-milk-most-for-least")
    text = text_of(page)
    assert "SPILLED MILK" in text and "Swap your most expensive" in text
    # The trade reads as two columns: YOUR over MOST on the left, THEIR over LEAST on the right.
    words = {word["text"]: word for word in page.extract_words()}
    assert words["YOUR"]["x1"] < words["THEIR"]["x0"] and words["MOST"]["x1"] < words["LEAST"]["x0"]
    assert words["YOUR"]["bottom"] <= words["MOST"]["top"] and words["THEIR"]["bottom"] <= words["LEAST"]["top"]


def test_cereal_killer_back_is_the_game_name(face):
    assert "I WANT TO BE A CEREAL KILLER" in text_of(face("cereal-killer", "frankenflakes", "back"))


def test_goblin_front_and_fairy_back_of_one_card(face):
    front, back = face("goblins", "nappy-hour"), face("goblins", "nappy-hour", "back")
    assert "GOBLIN" in text_of(front) and "Nappy Hour" in text_of(front) and "-OUR" in text_of(front)
    assert "FAIRY" in text_of(back) and "Rainbow Swoop" in text_of(back) and "-OOP" in text_of(back)
    assert "MOON" in text_of(front) and "SUN" in text_of(back)


def test_goblin_star_cards_have_a_border_of_stars_on_both_sides(face):
    gold = hex_rgb("#d4a017")
    assert len(painted(face("goblins", "dusty-dour"), gold)) >= 40
    assert len(painted(face("goblins", "dusty-dour", "back"), gold)) >= 40
    assert painted(face("goblins", "nappy-hour"), gold) == []


def test_gold_rush_monster_cost_sits_in_the_top_right_corner(face):
    page = face("gold-rush", "forge-wyrm")
    cost = max(page.chars, key=lambda char: char["size"])
    assert cost["text"] == "3"
    assert cost["x0"] > page.width * 0.7 and cost["bottom"] < 20 * MM
    assert "summon with 3 Burning Treasures" in text_of(page)


def test_gold_rush_treasure_says_what_it_pays_for(face):
    assert "PAYS FOR DRAGON MONSTERS" in text_of(face("gold-rush", "ember-crown"))


@pytest.mark.parametrize("card_id, burn", [("ember-imp", 1), ("soot-sprite", 2), ("volcano-titan", 3)])
def test_tiki_cards_show_one_flame_per_burn_point(face, card_id, burn):
    page = face("tiki", card_id)
    flames = painted(page, hex_rgb("#e0601e"))
    assert len(flames) == burn
    assert "STRENGTH" in text_of(page) and "BURN" in text_of(page)


def test_tiki_card_kind_reads_value_and_colour(face):
    page = face("tiki", "fairycrushers")
    assert "3 RED DOTS" in text_of(page) and "FairyCrushers" in text_of(page)
    assert "WILD" in text_of(face("tiki", "mirage-djinn"))
