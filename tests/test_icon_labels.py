"""A number or short text inside an inline icon (``:coin{2}:``), read back from real PDFs: the
label's characters sit centred in the icon's square, shrink with the text and within the icon,
print in the icon's accent, and a label that is too long or left open is an error at its line,
from ``check`` as from ``build``. Booklets draw labels in rules.md and in card tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from cli_run import deckpress, line_of, place_of
from test_render import make_deck, plain_field_page, render_page

from generator.errors import EXIT_RULES
from generator.render import load_renderer
from generator.render.markup import MAX_ICON_LABEL, parse_markup, plain_text

MARKET = Path(__file__).parent / "decks" / "market"
BODY = """\
icons:
  shield: {shapes: [{path: "M 50 4 L 90 18 L 86 58 Q 80 84 50 96 Q 20 84 14 58 L 10 18 Z"}], accent: "#ff0000"}
elements:
  - name: body
    text: "{{ text }}"
    box: [5, 10, 53, 40]
    fit: wrap
    size: 10
    min_size: 4
    valign: top
    icon_scale: 1.8
    colour: "#2d63b3"
"""


def card(text: str, card_id: str = "zap") -> str:
    escaped = text.replace("'", "''")
    return f"  - {{id: {card_id}, name: Zap, kind: spell, text: '{escaped}'}}\n"


def face(tmp_path: Path, text: str, layout: str = BODY):
    deck = make_deck(tmp_path, layout, card(text))
    return render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")


def icon_boxes(page) -> list[dict]:
    """The bounding box of each icon drawn on the page (overlapping curves joined)."""
    boxes: list[dict] = []
    for curve in sorted(page.curves, key=lambda curve: (round(curve["top"]), curve["x0"])):
        near = next((box for box in boxes if curve["x0"] < box["x1"] + 0.2 and curve["x1"] > box["x0"] - 0.2
                     and curve["top"] < box["bottom"] + 0.2 and curve["bottom"] > box["top"] - 0.2), None)
        if near is None:
            boxes.append({key: curve[key] for key in ("x0", "x1", "top", "bottom")})
        else:
            near.update(x0=min(near["x0"], curve["x0"]), x1=max(near["x1"], curve["x1"]),
                        top=min(near["top"], curve["top"]), bottom=max(near["bottom"], curve["bottom"]))
    return boxes


def label_chars(page, box: dict) -> list[dict]:
    return [char for char in page.chars if box["x0"] - 1 < char["x0"] and char["x1"] < box["x1"] + 1
            and box["top"] - 1 < char["top"] and char["bottom"] < box["bottom"] + 3]


def centre_of_capitals(chars: list[dict], page_height: float) -> tuple[float, float]:
    """Where the label's figures are centred, top-down like pdfplumber: halfway across them,
    and halfway up their capitals (Vera's figures stand 0.73 em above the baseline)."""
    baseline = page_height - chars[0]["matrix"][5]
    return (chars[0]["x0"] + chars[-1]["x1"]) / 2, baseline - 0.729 * chars[0]["size"] / 2


def test_a_label_sits_centred_in_its_icon_and_reads_in_the_line(tmp_path):
    page = face(tmp_path, "Pay :coin{2}: to draw.")
    [coin] = icon_boxes(page)
    [two] = label_chars(page, coin)
    assert two["text"] == "2"
    x, y = centre_of_capitals([two], page.height)
    side = coin["x1"] - coin["x0"]
    assert x == pytest.approx((coin["x0"] + coin["x1"]) / 2, abs=0.04 * side)
    assert y == pytest.approx((coin["top"] + coin["bottom"]) / 2, abs=0.04 * side)
    assert two["fontname"].endswith("Bold")  # a figure on a coin reads in bold
    assert two["non_stroking_color"] == (1, 1, 1)  # the coin's accent: paper white on its ink
    assert page.extract_text() == "Pay 2 to draw."


def test_a_label_takes_the_icon_s_own_accent(tmp_path):
    page = face(tmp_path, "Armour :shield{3}:")
    [shield] = icon_boxes(page)
    [three] = label_chars(page, shield)
    assert three["text"] == "3" and three["non_stroking_color"] == (1, 0, 0)


def test_a_label_shrinks_with_the_text_it_stands_in(tmp_path):
    roomy = face(tmp_path / "roomy", "Pay :coin{2}:.")
    cramped = face(tmp_path / "cramped", "Pay :coin{2}: " + "and then some more words to fit " * 12)
    sizes = []
    for page in (roomy, cramped):
        [coin] = [box for box in icon_boxes(page)]
        [two] = label_chars(page, coin)
        pay = next(char for char in page.chars if char["text"] == "P")
        sizes.append((pay["size"], two["size"], coin["x1"] - coin["x0"]))
    (text_big, label_big, side_big), (text_small, label_small, side_small) = sizes
    assert text_small < 0.8 * text_big  # the text was fitted smaller ...
    assert label_small / text_small == pytest.approx(label_big / text_big, rel=0.02)  # ... and its label with it
    assert side_small / text_small == pytest.approx(side_big / text_big, rel=0.02)


def test_a_label_too_wide_for_its_icon_is_set_smaller_to_stay_inside_it(tmp_path):
    page = face(tmp_path, ":coin{2}: :coin{1/2}:")
    one, two = sorted(icon_boxes(page), key=lambda box: box["x0"])
    [short] = label_chars(page, one)
    wide = label_chars(page, two)
    assert "".join(char["text"] for char in wide) == "1/2"
    assert wide[0]["size"] < 0.8 * short["size"]
    side = two["x1"] - two["x0"]
    assert two["x0"] + 0.09 * side < wide[0]["x0"] and wide[-1]["x1"] < two["x1"] - 0.09 * side
    x, _ = centre_of_capitals(wide, page.height)
    assert x == pytest.approx((two["x0"] + two["x1"]) / 2, abs=0.04 * side)


def test_a_template_writes_a_label_from_a_field_with_its_braces_apart(tmp_path):
    layout = BODY.replace('text: "{{ text }}"', 'text: "Costs :coin{ {{ text }} }:"')
    page = face(tmp_path, "7", layout)
    [coin] = icon_boxes(page)
    assert [char["text"] for char in label_chars(page, coin)] == ["7"]


def test_a_labelled_coin_leaves_out_its_sparkle_for_the_figure(tmp_path):
    page = face(tmp_path, ":coin: :coin{2}:")
    plain, labelled = sorted(icon_boxes(page), key=lambda box: box["x0"])

    def shapes(box: dict) -> int:
        return sum(1 for curve in page.curves if box["x0"] - 0.1 <= curve["x0"] and curve["x1"] <= box["x1"] + 0.1)

    assert shapes(labelled) == shapes(plain) - 1  # the sparkle is the shape marked unlabelled


def test_a_reader_reads_a_label_as_text_and_an_icon_as_nothing():
    assert plain_text(parse_markup("Pay :coin{2}: and :coin:")) == "Pay 2 and "


@pytest.mark.parametrize(("text", "message"), [
    ("Pay :coin{12345}: now", f"the label of ':coin{{...}}:' is \"12345\", 5 characters; an icon shows at most "
                              f"{MAX_ICON_LABEL}"),
    ("Pay :coin{2 now", "the label of ':coin{' has no '}:' closing it on its line (write :coin{2}:)"),
    ("Pay :coin{2} now", "the label of ':coin{' has no '}:' closing it on its line (write :coin{2}:)"),
    ("Pay :coyn{2}: now", "unknown icon ':coyn:'"),
])
def test_a_malformed_label_is_an_error_at_its_line_from_check_as_from_build(tmp_path, text, message):
    make_deck(tmp_path, BODY, "  - {id: ok, name: Ok, kind: spell, text: 'fine'}\n"
                              f"  - {{id: zap, name: Zap, kind: spell,\n     text: '{text}'}}\n")
    folder = tmp_path / "cards" / "test"
    checked = deckpress("check", folder)
    built = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    where = place_of(folder / "deck.yaml", "text: 'Pay")
    for lines in (checked.stdout.splitlines(), built.error_lines):  # check lists its findings, build stops
        [line] = [line for line in lines if f"{where}:" in line]
        assert message in line and "card 'zap'" in line, line
    assert checked.exit_code == built.exit_code == EXIT_RULES
    assert not (tmp_path / "out" / "test.pdf").exists()


def test_unquoted_text_with_a_labelled_icon_gets_the_yaml_hint(tmp_path):
    make_deck(tmp_path, BODY)
    deck = tmp_path / "cards" / "test" / "deck.yaml"
    deck.write_text(deck.read_text() + "  - id: zip\n    text: Pay :coin{2}: now\n")
    run = deckpress("check", deck.parent)
    assert run.exit_code == 2
    assert 'text holding an :icon: must be quoted, as in text: "Pay 2 :coin: to draw"' in run.stderr


def test_a_plain_field_prints_an_icon_label_as_written(tmp_path):
    page = plain_field_page(tmp_path, "  - {id: odd, text: 'Pay :coin{2}: or :coin{2'}\n")
    assert "Pay :coin{2}: or :coin{2" in page.extract_text() and not page.curves


# --- booklets ---------------------------------------------------------------------------------


@pytest.fixture
def market(tmp_path: Path) -> Path:
    folder = tmp_path / "market"
    shutil.copytree(MARKET, folder)
    rules = folder / "rules.md"
    rules.write_text(rules.read_text().replace("\nthe end wins.", "\nthe end wins. A Province costs :coin{8}:."))
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace('text: "3 :coin:"', 'text: "Worth :coin{3}:"'))
    return folder


def booklet_page(folder: Path, out: Path):
    run = deckpress("booklet", folder, "--out", out, "--quiet")
    assert run.exit_code == 0, run.stderr
    return pdfplumber.open(out / "market-rules.pdf").pages[1]


def test_a_booklet_draws_labels_in_its_rules_and_in_its_card_table(market, tmp_path):
    page = booklet_page(market, tmp_path / "out")
    text = page.extract_text()
    assert "{8}" not in text and "{3}" not in text
    for figure, before in (("8", "costs"), ("3", "Worth")):  # in the rules' text, in the card table
        word = next(word for word in page.extract_words() if word["text"] == before)
        icon = next(box for box in icon_boxes(page) if word["x1"] < box["x0"] < word["x1"] + 15
                    and abs(box["bottom"] - word["bottom"]) < 5)
        chars = label_chars(page, icon)
        assert [char["text"] for char in chars] == [figure]
        side = icon["x1"] - icon["x0"]
        x, y = centre_of_capitals(chars, page.height)
        assert x == pytest.approx((icon["x0"] + icon["x1"]) / 2, abs=0.06 * side)
        assert y == pytest.approx((icon["top"] + icon["bottom"]) / 2, abs=0.06 * side)
        assert chars[0]["non_stroking_color"] == (1, 1, 1)


@pytest.mark.parametrize(("written", "message"), [
    (":coin{8", "the label of ':coin{' has no '}:' closing it on its line (write :coin{2}:)"),
    (":coin{88888}:", "is \"88888\", 5 characters; an icon shows at most 4"),
])
def test_a_malformed_label_in_the_rules_is_refused_at_its_line_by_check_and_booklet(market, tmp_path, written,
                                                                                    message):
    rules = market / "rules.md"
    rules.write_text(rules.read_text().replace(":coin{8}:", written))
    where = place_of(rules, written)
    booklet = deckpress("booklet", market, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", market)
    for run in (booklet, check):
        assert run.exit_code == 2, run.stderr
        assert any(f" {where}:" in line and message in line for line in run.error_lines), run.stderr
    assert not (tmp_path / "out" / "market-rules.pdf").exists()


def test_a_heading_is_measured_with_a_too_long_label_as_it_would_print_as_written(market, tmp_path):
    words = " ".join(["Scoring"] * 24)  # 191 characters: 197 with the label, 205 as written
    heading = f"{words} :coin{{{'8' * (MAX_ICON_LABEL + 1)}}}:"
    rules = market / "rules.md"
    rules.write_text(rules.read_text().replace("## Scoring", f"## {heading}"))
    check = deckpress("check", market)
    assert check.exit_code == 2, check.stderr
    assert any(f" {rules}:{line_of(rules, heading)}:1:" in line and "a heading of 205 characters" in line
               for line in check.error_lines), check.stderr
    assert any("an icon shows at most 4" in line for line in check.error_lines), check.stderr
    booklet = deckpress("booklet", market, "--out", tmp_path / "out", "--quiet")
    assert booklet.exit_code == 2 and "a heading of 205 characters" in booklet.stderr, booklet.stderr


def test_the_outline_lists_a_heading_with_a_label_holding_an_escape_as_its_page_prints_it(market, tmp_path):
    rules = market / "rules.md"
    rules.write_text(rules.read_text().replace("## Scoring", "## Scoring :coin{1\\}}: each"))
    page = booklet_page(market, tmp_path / "out")
    assert "Scoring 1} each" in page.extract_text().splitlines()
    assert "Scoring 1} each" in [entry.title for entry in pypdf.PdfReader(tmp_path / "out" / "market-rules.pdf")
                                 .outline[1] if not isinstance(entry, list)]


def test_an_escaped_label_in_the_rules_prints_as_written(market, tmp_path):
    rules = market / "rules.md"
    rules.write_text(rules.read_text().replace(":coin{8}:", "\\:coin{8}:"))
    assert deckpress("check", market).exit_code == 0
    assert ":coin{8}:" in booklet_page(market, tmp_path / "out").extract_text()


def test_a_label_character_no_bold_face_has_prints_in_the_regular_face_on_cards_and_in_booklets(market, tmp_path):
    page = face(tmp_path, "Pay :shield{𝖠}: now.")  # DejaVu Sans has it, DejaVu Sans Bold does not
    [shield] = icon_boxes(page)
    assert [char["fontname"].split("+")[-1] for char in label_chars(page, shield)] == ["DejaVuSans"]
    rules = market / "rules.md"
    rules.write_text(rules.read_text().replace(":coin{8}:", ":coin{𝖠8}:"))
    page = booklet_page(market, tmp_path / "out")
    word = next(word for word in page.extract_words() if word["text"] == "costs")
    coin = next(box for box in icon_boxes(page) if word["x1"] < box["x0"] < word["x1"] + 15)
    assert [char["fontname"].split("+")[-1] for char in label_chars(page, coin)] == ["DejaVuSans",
                                                                                     "BitstreamVeraSans-Roman"]


def test_a_soft_hyphen_in_a_label_is_invisible_as_in_ordinary_text(tmp_path):
    page = face(tmp_path, "Pay :coin{1\u00ad2}: now.")
    [coin] = icon_boxes(page)
    assert "".join(char["text"] for char in label_chars(page, coin)) == "12"
    assert "\u00ad" not in page.extract_text() and "-" not in page.extract_text()
