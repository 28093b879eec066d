"""Fields declared ``markup: false`` print as written: stars, colons, brackets and backslashes
included, on the card, in the manifest's titles and through a translation; the deck's other
fields keep their markup."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
from cli_run import deckpress, place_of
from PIL import Image

from generator.deck.model import load_deck
from generator.deck.plain import PlainText
from generator.render import load_renderer

AS_WRITTEN = r"**Pay** 2 :coin: [x]{.y} \* 5*"
LAYOUT = """\
size: poker
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53, 10], size: 9, min_size: 5}
  - {name: body, text: "{{ text }}", box: [5, 20, 53, 20], size: 9, min_size: 5}
  - {name: loud, text: "{{ text | upper }}", box: [5, 45, 53, 10], size: 9, min_size: 5}
  - {name: rich, text: "{{ rich }}", box: [5, 60, 53, 10], size: 9, min_size: 5}
  - {name: art, image: "art/{{ name }}.png", box: [5, 72, 10, 10], when: "side == 'front'"}
"""


def plain_deck(root: Path, markup: str = "false") -> Path:
    folder = root / "cards" / "plain"
    (folder / "art").mkdir(parents=True)
    (folder / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    (folder / "deck.yaml").write_text(f"""\
deck: {{name: Plain, layout: layout, title_field: name}}
fields:
  name: {{type: text, markup: {markup}}}
  text: {{type: text, markup: {markup}}}
  rich: text
cards:
  - id: odd
    name: "Cat [1]"
    text: {json.dumps(AS_WRITTEN)}
    rich: "**bold** and 5*"
""", encoding="utf-8")
    # The image path prints the plain name unescaped: a file name is no markup.
    Image.new("RGB", (20, 20), "green").save(folder / "art" / "Cat [1].png")
    return folder


def test_plain_fields_print_every_character_as_written_and_others_keep_their_markup(tmp_path):
    folder = plain_deck(tmp_path)
    assert deckpress("check", folder).exit_code == 0
    built = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == 0, built.stderr
    page = pdfplumber.open(tmp_path / "out" / "plain.pdf").pages[0]
    text = page.extract_text()
    assert AS_WRITTEN in text and AS_WRITTEN.upper() in text and "Cat [1]" in text
    assert "bold and 5*" in text  # the markup field still reads its stars
    fonts = {word["text"]: word["fontname"].split("+")[-1] for word in page.extract_words(extra_attrs=["fontname"])}
    assert fonts["**Pay**"] == "DejaVuSans" and fonts["bold"] == "DejaVuSans-Bold"
    assert page.images, "the art named by the plain field is drawn"
    manifest = json.loads((tmp_path / "out" / "plain.json").read_text(encoding="utf-8"))
    front = next(placement for placement in manifest["placements"] if placement["face"] == "front")
    assert front["title"] == "Cat [1]" and front["fields"]["text"] == AS_WRITTEN


def test_without_markup_false_the_same_text_is_read_as_markup(tmp_path):
    """The same deck with its fields left as markup: the style is unknown, and says so."""
    folder = plain_deck(tmp_path, markup="true")
    checked = deckpress("check", folder)
    assert checked.exit_code == 1
    assert "unknown style '.y'" in checked.stdout


def test_plain_values_are_plain_text_and_equal_to_what_was_written(tmp_path):
    deck = load_deck(plain_deck(tmp_path))
    fields = deck.card("odd").fields
    assert isinstance(fields["text"], PlainText) and fields["text"] == AS_WRITTEN
    assert not isinstance(fields["rich"], PlainText)
    assert load_renderer(deck).title(deck.card("odd"), "front") == "Cat [1]"


def test_markup_must_be_true_or_false(tmp_path):
    folder = plain_deck(tmp_path, markup="'off'")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    at = place_of(folder / "deck.yaml", "markup: 'off'")
    assert f"{at}: markup is true or false, found 'off'" in checked.stderr + checked.stdout


def test_a_translated_plain_field_prints_as_written(tmp_path):
    folder = plain_deck(tmp_path)
    (folder / "lang").mkdir()
    (folder / "lang" / "fr.yaml").write_text(
        'deck: {name: Simple}\ncards:\n  odd: {name: "Chat [1]", text: "**Payez** 2 :pièce: 5*", rich: "*gras*"}\n',
        encoding="utf-8")
    Image.new("RGB", (20, 20), "green").save(folder / "art" / "Chat [1].png")
    built = deckpress("build", folder, "--lang", "fr", "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == 0, built.stderr + built.stdout
    text = pdfplumber.open(tmp_path / "out" / "plain.fr.pdf").pages[0].extract_text()
    assert "**Payez** 2 :pièce: 5*" in text
