"""Drawing faces: what a player sees on the printed card, read back from a real PDF."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import load_deck
from generator.errors import EXIT_RULES, LayoutError
from generator.render import load_renderer

MM = 72 / 25.4
PROJECT_ROOT = Path(__file__).resolve().parent.parent

DECK = """\
deck:
  name: Test Deck
  layout: {layout}
fields:
  name: {{type: text, required: true}}
  kind: {{choices: [monster, spell]}}
  roll: {{type: int}}
  text: text
  art: text
back:
  name: Test Deck
cards:
{cards}
"""

CARDS = """\
  - {id: ogre, count: 3, name: Ogre, kind: monster, roll: 7}
  - {id: imp, name: Imp, kind: monster, roll: 2}
  - {id: zap, count: 2, name: Zap, kind: spell, text: Zap a monster.}
"""


def make_deck(tmp_path: Path, layout: str | None, cards: str = CARDS, deck_layout: str = "main",
              extra_layouts: dict[str, str] | None = None):
    """A project in tmp_path with one deck and its layouts; returns the loaded deck."""
    folder = tmp_path / "cards" / "test"
    folder.mkdir(parents=True, exist_ok=True)
    text = DECK.format(layout=deck_layout, cards=cards.rstrip("\n"))
    if layout is None:
        text = text.replace(f"  layout: {deck_layout}\n", "")
    (folder / "deck.yaml").write_text(text)
    layouts = tmp_path / "layouts"
    layouts.mkdir(exist_ok=True)
    for name, body in {"main": layout or "", **(extra_layouts or {})}.items():
        (layouts / f"{name}.yaml").write_text(body)
    return load_deck(folder)


def plain_field_page(tmp_path: Path, card: str):
    """Page 1 of the build of a deck whose ``text`` field is declared ``markup: false``, with
    ``card`` (its entry under ``cards:``, YAML) as its one card, after ``check`` passes it."""
    folder = tmp_path / "cards" / "plain"
    folder.mkdir(parents=True)
    (folder / "layout.yaml").write_text("elements:\n  - {name: body, text: '{{ text }}', box: [5, 20, 53, 20]}\n")
    (folder / "deck.yaml").write_text("deck: {name: Plain, layout: layout, title_field: text}\nfields:\n"
                                      "  text: {type: text, markup: false}\ncards:\n" + card)
    assert deckpress("check", folder).exit_code == 0
    assert deckpress("build", folder, "--out", tmp_path / "out", "--quiet").exit_code == 0
    return pdfplumber.open(tmp_path / "out" / "plain.pdf").pages[0]


def render_page(renderer, card, side: str, path: Path, bleed: bool = False):
    """One face on a page the size of the card (plus bleed); returns the pdfplumber page."""
    width, height = renderer.card_size
    margin = renderer.bleed if bleed else 0
    canvas = Canvas(str(path), pagesize=(width + 2 * margin, height + 2 * margin), invariant=1)
    canvas.translate(margin, margin)
    renderer.draw(canvas, card, side, bleed=bleed)
    canvas.save()
    return pdfplumber.open(path).pages[0]


def words(page) -> list[str]:
    return [word["text"] for word in page.extract_words()]


def test_text_lands_where_the_layout_puts_it(tmp_path):
    layout = """\
elements:
  - text: "{{ name }}"
    box: [10, 20, 40, 8]
    size: 12
    valign: top
"""
    deck = make_deck(tmp_path, layout)
    page = render_page(load_renderer(deck), deck.card("ogre"), "front", tmp_path / "face.pdf")
    chars = page.chars
    assert "".join(char["text"] for char in chars) == "Ogre"
    assert chars[0]["x0"] == pytest.approx(10 * MM, abs=0.5)  # left-aligned at x = 10 mm
    assert chars[0]["size"] == pytest.approx(12)
    assert min(char["top"] for char in chars) == pytest.approx(20 * MM, abs=1)  # box top at y = 20 mm
    assert all(char["fontname"] == "AAAAAA+DejaVuSans" for char in chars)  # the default, embedded as a subset


def test_long_title_shrinks_and_stays_on_one_line(tmp_path):
    layout = """\
elements:
  - name: title
    text: "{{ name }}"
    box: [5, 5, 50, 10]
    font: Vera-Bold
    size: 14
    min_size: 5
    align: center
"""
    cards = "  - {id: long, name: Marauding Monsters of Mueslix}\n"
    deck = make_deck(tmp_path, layout, cards)
    page = render_page(load_renderer(deck), deck.card("long"), "front", tmp_path / "face.pdf")
    chars = page.chars
    assert len({round(char["top"], 1) for char in chars}) == 1  # one line
    assert chars[0]["size"] < 14
    assert min(c["x0"] for c in chars) >= 5 * MM - 0.5
    assert max(c["x1"] for c in chars) <= 55 * MM + 0.5
    assert page.extract_text() == "Marauding Monsters of Mueslix"


def test_short_title_keeps_its_size(tmp_path):
    layout = "elements:\n  - {text: '{{ name }}', box: [5, 5, 50, 10], size: 14}\n"
    deck = make_deck(tmp_path, layout)
    page = render_page(load_renderer(deck), deck.card("imp"), "front", tmp_path / "face.pdf")
    assert [char["size"] for char in page.chars] == pytest.approx([14, 14, 14])


def test_body_text_wraps_inside_its_box(tmp_path):
    layout = """\
elements:
  - text: "{{ text }}"
    box: [10, 40, 30, 30]
    fit: wrap
    size: 10
"""
    cards = ("  - {id: zap, name: Zap, kind: spell, text: 'Zap a monster of your choice, then draw "
             "two cards and roll the dice again.'}\n")
    deck = make_deck(tmp_path, layout, cards)
    page = render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")
    lines = {round(char["top"]) for char in page.chars}
    assert len(lines) > 2
    assert all(10 * MM - 0.5 <= c["x0"] and c["x1"] <= 40 * MM + 0.5 for c in page.chars)
    assert all(40 * MM - 0.5 <= c["top"] and c["bottom"] <= 70 * MM + 0.5 for c in page.chars)


def test_body_that_cannot_fit_even_at_minimum_size_names_deck_card_and_element(tmp_path):
    layout = """\
elements:
  - name: rules-text
    text: "{{ text }}"
    box: [10, 40, 20, 6]
    fit: wrap
    size: 9
    min_size: 7
"""
    cards = "  - {id: zap, name: Zap, kind: spell, text: '" + "Far too many words here. " * 10 + "'}\n"
    renderer = load_renderer(make_deck(tmp_path, layout, cards))
    with pytest.raises(LayoutError) as caught:
        renderer.validate()
    message = str(caught.value)
    assert "deck 'test'" in message and "card 'zap'" in message and "front" in message
    assert "rules-text" in message and "does not fit" in message and "7 pt" in message
    assert "deck.yaml:" in message
    assert caught.value.exit_code == EXIT_RULES


def test_missing_glyph_is_an_error_not_a_box(tmp_path):
    layout = "elements:\n  - {name: title, text: '{{ name }}', box: [5, 5, 50, 10]}\n"
    cards = "  - {id: star, name: \"Star \\u6f22 Card\"}\n"  # a Chinese character: no bundled font has it
    renderer = load_renderer(make_deck(tmp_path, layout, cards))
    with pytest.raises(LayoutError) as caught:
        renderer.validate()
    assert "U+6F22" in str(caught.value) and "card 'star'" in str(caught.value)
    assert "'title'" in str(caught.value)


def test_when_picks_elements_per_card(tmp_path):
    layout = """\
elements:
  - {text: "ROLL {{ roll }}", box: [5, 5, 50, 10], when: "kind == 'monster'"}
  - {text: "SPELL", box: [5, 20, 50, 10], when: {kind: spell}}
"""
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    assert words(render_page(renderer, deck.card("ogre"), "front", tmp_path / "a.pdf")) == ["ROLL", "7"]
    assert words(render_page(renderer, deck.card("zap"), "front", tmp_path / "b.pdf")) == ["SPELL"]


def test_dice_odds_are_computed_not_typed(tmp_path):
    layout = "elements:\n  - {text: '{{ roll | odds }} {{ roll | chance | percent }}', box: [5, 5, 50, 10]}\n"
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    assert words(render_page(renderer, deck.card("ogre"), "front", tmp_path / "a.pdf")) == \
        ["6", "in", "36", "16.7%"]
    assert words(render_page(renderer, deck.card("imp"), "front", tmp_path / "b.pdf")) == \
        ["1", "in", "36", "2.8%"]


def test_extends_inherits_and_overrides(tmp_path):
    base = """\
elements:
  - {name: title, text: '{{ name }}', box: [5, 5, 50, 10], size: 10}
  - {name: footer, text: BASE FOOTER, box: [5, 70, 50, 10], size: 8}
"""
    child = """\
extends: base
elements:
  - {name: title, size: 16}
  - {name: extra, text: CHILD, box: [5, 40, 50, 10]}
"""
    deck = make_deck(tmp_path, child, extra_layouts={"base": base})
    page = render_page(load_renderer(deck), deck.card("ogre"), "front", tmp_path / "face.pdf")
    sizes = {word["text"]: round(word["size"]) for word in page.extract_words(extra_attrs=["size"])}
    assert sizes == {"Ogre": 16, "BASE": 8, "FOOTER": 8, "CHILD": 9}


def test_extends_can_hide_an_inherited_element(tmp_path):
    base = "elements:\n  - {name: footer, text: FOOTER, box: [5, 70, 50, 10]}\n"
    deck = make_deck(tmp_path, "extends: base\nelements:\n  - {name: footer, when: false}\n",
                     extra_layouts={"base": base})
    page = render_page(load_renderer(deck), deck.card("ogre"), "front", tmp_path / "face.pdf")
    assert words(page) == []


def test_colour_comes_from_a_field_through_the_layout_mapping(tmp_path):
    layout = """\
colours:
  kind-colour: {field: kind, map: {monster: "#ff0000", spell: blue}, default: black}
elements:
  - {rect: [10, 10, 20, 20], fill: kind-colour}
"""
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    monster = render_page(renderer, deck.card("ogre"), "front", tmp_path / "a.pdf")
    spell = render_page(renderer, deck.card("zap"), "front", tmp_path / "b.pdf")
    assert tuple(monster.rects[0]["non_stroking_color"]) == pytest.approx((1, 0, 0))
    blue = (0x2d / 255, 0x63 / 255, 0xb3 / 255)  # "blue" in the built-in colour table
    assert tuple(spell.rects[0]["non_stroking_color"]) == pytest.approx(blue, abs=0.01)


def test_bleed_extends_background_past_the_trim_box_only_when_asked(tmp_path):
    layout = "bleed: 3mm\nelements:\n  - {rect: card, fill: red, bleed: true}\n"
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    width, height = renderer.card_size
    with_bleed = render_page(renderer, deck.card("ogre"), "front", tmp_path / "a.pdf", bleed=True)
    rect = with_bleed.rects[0]
    assert (rect["width"], rect["height"]) == pytest.approx((width + 6 * MM, height + 6 * MM))
    trimmed = render_page(renderer, deck.card("ogre"), "front", tmp_path / "b.pdf")
    assert (trimmed.rects[0]["width"], trimmed.rects[0]["height"]) == pytest.approx((width, height))


def test_image_from_the_deck_folder_is_drawn(tmp_path):
    layout = "elements:\n  - {image: 'art/{{ card.id }}.png', box: [10, 10, 20, 20]}\n"
    deck = make_deck(tmp_path, layout)
    (deck.folder / "art").mkdir()
    Image.new("RGB", (40, 40), "green").save(deck.folder / "art" / "ogre.png")
    page = render_page(load_renderer(deck), deck.card("ogre"), "front", tmp_path / "face.pdf")
    image = page.images[0]
    assert (image["x0"], image["top"]) == pytest.approx((10 * MM, 10 * MM), abs=0.1)
    assert image["width"] == pytest.approx(20 * MM, abs=0.1)


@pytest.mark.parametrize("art", ["../../secret.png", "/etc/passwd", "art/../../../secret.png"])
def test_image_path_escaping_the_deck_folder_is_refused(tmp_path, art):
    layout = "elements:\n  - {name: picture, image: '{{ art }}', box: [10, 10, 20, 20]}\n"
    cards = f"  - {{id: sneaky, name: Sneaky, art: '{art}'}}\n"
    Image.new("RGB", (4, 4)).save(tmp_path / "secret.png")
    renderer = load_renderer(make_deck(tmp_path, layout, cards))
    with pytest.raises(LayoutError) as caught:
        renderer.validate()
    assert "deck folder" in str(caught.value) and "card 'sneaky'" in str(caught.value)
    assert "picture" in str(caught.value)


def test_missing_image_is_a_layout_error(tmp_path):
    layout = "elements:\n  - {name: picture, image: 'art/{{ card.id }}.png', box: [10, 10, 20, 20]}\n"
    renderer = load_renderer(make_deck(tmp_path, layout))
    with pytest.raises(LayoutError, match="image 'art/ogre.png' not found"):
        renderer.validate()


def test_face_keys_share_the_back_and_copies_and_tell_fronts_apart(tmp_path):
    layout = "elements:\n  - {text: '{{ name }}', box: [5, 5, 50, 10]}\n"
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    backs = {renderer.face_key(card, "back") for card in deck.cards}
    assert len(backs) == 1
    fronts = [renderer.face_key(card, "front") for card in deck.cards]
    assert len(set(fronts)) == 3
    assert renderer.face_key(deck.card("ogre"), "front") == renderer.face_key(deck.card("ogre"), "front")


def test_face_key_ignores_fields_the_layout_does_not_print(tmp_path):
    layout = "elements:\n  - {text: '{{ kind }}', box: [5, 5, 50, 10]}\n"
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    assert renderer.face_key(deck.card("ogre"), "front") == renderer.face_key(deck.card("imp"), "front")
    assert renderer.face_key(deck.card("ogre"), "front") != renderer.face_key(deck.card("zap"), "front")


def test_titles_per_face(tmp_path):
    deck = make_deck(tmp_path, "elements: []\n")
    renderer = load_renderer(deck)
    assert renderer.title(deck.card("ogre"), "front") == "Ogre"
    assert renderer.title(deck.card("ogre"), "back") == "Test Deck"


def test_deck_without_layout_gets_the_generic_one(tmp_path):
    deck = make_deck(tmp_path, None)
    renderer = load_renderer(deck)
    renderer.validate()
    page = render_page(renderer, deck.card("zap"), "front", tmp_path / "face.pdf")
    text = page.extract_text()
    assert text.splitlines()[0] == "Zap"
    assert "kind: spell" in text and "text: Zap a monster." in text
    assert {char["fontname"].split("+")[-1] for char in page.chars} == {"DejaVuSans", "DejaVuSans-Bold"}


def test_a_font_dropped_into_fonts_is_usable_by_name(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    bundled = Path(__import__("reportlab").__file__).parent / "fonts" / "VeraIt.ttf"
    (fonts / "Slanted.ttf").write_bytes(bundled.read_bytes())
    layout = "elements:\n  - {text: '{{ name }}', font: Slanted, box: [5, 5, 50, 10]}\n"
    deck = make_deck(tmp_path, layout)
    renderer = load_renderer(deck)
    page = render_page(renderer, deck.card("ogre"), "front", tmp_path / "face.pdf")
    assert page.chars[0]["fontname"] == "AAAAAA+BitstreamVeraSans-Oblique"
    assert renderer.fonts == ["Slanted"]


def test_drawing_is_reproducible(tmp_path):
    deck = make_deck(tmp_path, None)
    first = render_page(load_renderer(deck), deck.card("ogre"), "front", tmp_path / "a.pdf")
    second = render_page(load_renderer(deck), deck.card("ogre"), "front", tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert first.extract_text() == second.extract_text()


@pytest.mark.parametrize("deck_file", sorted(PROJECT_ROOT.glob("cards/*/deck.yaml")),
                         ids=lambda path: path.parent.name)
def test_every_bundled_deck_validates(deck_file):
    renderer = load_renderer(load_deck(deck_file))
    renderer.validate()
    assert renderer.card_size[0] > 0


def test_faces_drawn_alike_keep_their_own_titles_when_the_drawing_does_not_show_them(tmp_path):
    # The fronts print only the kind: the ogre's and the imp's are one drawing, with two titles.
    deck = make_deck(tmp_path, "elements:\n  - {name: kind, text: '{{ kind }}', box: [5, 5, 50, 10]}\n")
    renderer = load_renderer(deck)
    ogre, imp = deck.card("ogre"), deck.card("imp")
    assert renderer.face_key(ogre, "front") == renderer.face_key(imp, "front")
    assert [renderer.title(ogre, "front"), renderer.title(imp, "front")] == ["Ogre", "Imp"]


def test_a_title_template_gives_faces_drawn_alike_one_title(tmp_path):
    deck = make_deck(tmp_path, "title: '{{ kind | upper }}'\n"
                               "elements:\n  - {name: kind, text: '{{ kind }}', box: [5, 5, 50, 10]}\n")
    renderer = load_renderer(deck)
    assert [renderer.title(deck.card(card), "front") for card in ("ogre", "imp", "zap")] == \
        ["MONSTER", "MONSTER", "SPELL"]
