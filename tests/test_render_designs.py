"""The bundled games' card designs show what their players need, read back from PDFs."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import load_deck
from generator.render import load_renderer
from generator.render.plan import ShapeOp, TextOp

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
    # A wild names its colour too: red and green read the same to many colour-blind players.
    assert "WILD YELLOW" in text_of(face("tiki", "mirage-djinn"))


# --- contrast --------------------------------------------------------------------------
# Small text needs a contrast ratio of at least 4.5:1 against what it is printed on,
# large text (18 pt, or 14 pt bold) 3:1: WCAG 2 level AA. Cards are read at arm's
# length in lamp light, so the screen rules are a fair floor for print too.

SMALL_TEXT_RATIO = 4.5
LARGE_TEXT_RATIO = 3.0


def luminance(colour) -> float:
    """WCAG relative luminance of a reportlab colour."""
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.red) + 0.7152 * channel(colour.green) + 0.0722 * channel(colour.blue)


def contrast(first, second) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def is_large(op: TextOp) -> bool:
    return op.size >= 18 or (op.size >= 14 and "Bold" in op.font)


def _covers(shape: ShapeOp, x: float, y: float) -> bool:
    box = shape.box
    if shape.ellipse:
        rx, ry = box.width / 2, box.height / 2
        return ((x - box.x - rx) / rx) ** 2 + ((y - box.y - ry) / ry) ** 2 <= 1
    return box.x <= x <= box.x + box.width and box.y <= y <= box.y + box.height


def background(ops, index: int, x: float, y: float):
    """The fill of the last shape drawn before ``ops[index]`` under the point (x, y)."""
    for op in reversed(ops[:index]):
        if isinstance(op, ShapeOp) and op.fill is not None and _covers(op, x, y):
            return op.fill
    return None


def low_contrast_text(renderer):
    """(ratio, side, text, size) for every text line below its WCAG threshold, on every face."""
    found = []
    for card in renderer.deck.cards:
        for side in ("front", "back"):
            ops = renderer.plan(card, side)
            for index, op in enumerate(ops):
                if not isinstance(op, TextOp) or op.colour is None:
                    continue
                font = pdfmetrics.getFont(op.font)
                wanted = LARGE_TEXT_RATIO if is_large(op) else SMALL_TEXT_RATIO
                for x, baseline, text in op.lines:
                    middle = (x + font.stringWidth(text, op.size) / 2, baseline + op.size * 0.35)
                    behind = background(ops, index, *middle)
                    if behind is None:
                        continue
                    ratio = contrast(op.colour, behind)
                    if ratio < wanted:
                        found.append((round(ratio, 2), side, text, op.size))
    return found


@pytest.mark.parametrize("game", ["cereal-killer", "goblins", "gold-rush", "tiki"])
def test_every_text_on_every_face_of_the_bundled_games_reads_against_its_background(game):
    renderer = load_renderer(load_deck(CARDS / game))
    assert low_contrast_text(renderer) == []


def test_contrast_check_catches_light_text():
    from reportlab.lib.colors import HexColor
    assert contrast(HexColor("#dba400"), HexColor("#fbf8f1")) < SMALL_TEXT_RATIO  # tiki's yellow
    assert contrast(HexColor("#000000"), HexColor("#ffffff")) == pytest.approx(21)


# --- titles, discs and credits -----------------------------------------------------------

def title_chars(page):
    """The title's characters: bold type of 8 to 14 pt in the top 20 mm of the card."""
    return [char for char in page.chars
            if char["top"] < 20 * MM and 8 <= char["size"] <= 14 and "Bold" in char["fontname"]]


def lines_of(chars) -> list[str]:
    rows: dict[float, list] = {}
    for char in chars:
        rows.setdefault(round(char["top"]), []).append(char)
    return ["".join(char["text"] for char in sorted(row, key=lambda c: c["x0"])) for _, row in sorted(rows.items())]


@pytest.mark.parametrize("card_id", ["whacked-out-wheat-puffs", "casket-crunchies", "marauding-monsters-of-mueslix",
                                     "frankenflakes"])
def test_cereal_rolls_keep_clear_of_the_ring(face, card_id):
    """The ring's inner edge (radius 15.5 mm around (31.75, 37) mm) stays 2 mm from the figures."""
    page = face("cereal-killer", card_id)
    digits = [char for char in page.chars if char["size"] >= 40]
    centre_x, centre_y, radius = 31.75 * MM, page.height - 37 * MM, 15.5 * MM
    for char in digits:
        baseline = char["matrix"][5]
        for y in (baseline, baseline + 0.729 * char["size"]):  # the figures' ink: baseline to cap height
            half_chord = (radius ** 2 - (y - centre_y) ** 2) ** 0.5
            assert char["x0"] >= centre_x - half_chord + 2 * MM and char["x1"] <= centre_x + half_chord - 2 * MM


@pytest.mark.parametrize("card_id", ["drowned-corsair", "court-alchemist", "astrologer-of-the-tower",
                                     "sovereign-of-embers", "ember-crown", "haunted-reliquary"])
def test_gold_rush_titles_keep_clear_of_the_corner_disc(face, card_id):
    chars = title_chars(face("gold-rush", card_id))
    assert chars and max(char["x1"] for char in chars) <= 46 * MM - 2.5 * MM  # the disc starts at 46 mm
    assert min(char["x0"] for char in chars) == pytest.approx(6.5 * MM, abs=0.5)  # left-aligned beside it


@pytest.mark.parametrize("game, card_id, lines", [
    ("cereal-killer", "marauding-monsters-of-mueslix", ["Marauding Monsters", "of Mueslix"]),
    ("gold-rush", "astrologer-of-the-tower", ["Astrologer of", "the Tower"]),
])
def test_long_titles_wrap_to_two_lines_instead_of_shrinking_to_small_type(face, game, card_id, lines):
    chars = title_chars(face(game, card_id))
    assert lines_of(chars) == lines
    assert min(char["size"] for char in chars) >= 10
    renderer = load_renderer(load_deck(CARDS / game))
    assert renderer.title(renderer.deck.card(card_id), "front") == " ".join(lines)  # the manifest's title


@pytest.mark.parametrize("game, card_id, size", [("cereal-killer", "frankenflakes", 13),
                                                 ("gold-rush", "harbour-eel", 12.5)])
def test_short_titles_stay_on_one_line_at_full_size(face, game, card_id, size):
    chars = title_chars(face(game, card_id))
    assert len(lines_of(chars)) == 1 and {char["size"] for char in chars} == {size}


def test_titles_are_centred_unless_a_corner_disc_sits_beside_them(face):
    for game, card_id in (("gold-rush", "rune-of-binding"), ("cereal-killer", "broken-shelf"),
                          ("goblins", "nappy-hour"), ("tiki", "tiki")):
        page = face(game, card_id)
        chars = title_chars(page)
        middle = (min(c["x0"] for c in chars) + max(c["x1"] for c in chars)) / 2
        assert middle == pytest.approx(page.width / 2, abs=1), (game, card_id)
    chars = title_chars(face("tiki", "ember-imp"))  # beside the value disc on the left
    assert min(char["x0"] for char in chars) == pytest.approx(19 * MM, abs=0.5)


@pytest.mark.parametrize("game, credit", [("cereal-killer", "a game by P. Kellach Waddle"),
                                          ("gold-rush", "a trading card game by Farmgirl")])
def test_designer_credit_sits_at_the_bottom_of_the_card_back(face, game, credit):
    page = face(game, "frankenflakes" if game == "cereal-killer" else "forge-wyrm", "back")
    italic = [char for char in page.chars if "Oblique" in char["fontname"] or "Italic" in char["fontname"]]
    assert " ".join(lines_of(italic)) == credit
    assert min(char["top"] for char in italic) > 75 * MM


def test_tiki_back_has_no_credit_without_a_designer(face):
    assert "game by" not in text_of(face("tiki", "ember-imp", "back"))


def test_gold_rush_treasure_label_does_not_repeat_the_title(face):
    plain = text_of(face("gold-rush", "burning-treasure"))
    assert plain.startswith("TREASURE Burning Treasure") and "BURNING TREASURE" not in plain
    assert text_of(face("gold-rush", "ember-crown")).startswith("BURNING TREASURE Ember Crown")
