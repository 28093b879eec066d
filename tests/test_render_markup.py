"""Card text as designers write it: bold, italic, inline icons, named styles, line breaks.

Everything is read back from real PDFs: font names of the words, where icons
sit among them, the text a reader copies out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import deckpress
from reportlab import __file__ as reportlab_file
from reportlab.pdfbase.ttfonts import TTFont
from test_render import MM, make_deck, render_page

from generator.errors import EXIT_RULES, LayoutError
from generator.render import load_renderer
from generator.render.markup import Span, parse_markup, plain_text

BUNDLED_FONTS = Path(reportlab_file).parent / "fonts"
BODY = """\
styles:
  burn: {colour: "#e0601e", bold: true}
elements:
  - name: body
    text: "{{ text }}"
    box: [5, 10, 53, 40]
    fit: wrap
    size: 10
    min_size: 6
    valign: top
    colour: "#2d63b3"
"""


def card(text: str, card_id: str = "zap") -> str:
    escaped = text.replace("'", "''")
    return f"  - {{id: {card_id}, name: Zap, kind: spell, text: '{escaped}'}}\n"


def face(tmp_path, text: str, layout: str = BODY):
    deck = make_deck(tmp_path, layout, card(text))
    return render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")


def with_font(setting: str) -> str:
    """The body layout with one more text setting, such as ``font: Hand``."""
    return BODY.replace("    valign: top", f"    valign: top\n    {setting}")


def project_fonts(tmp_path: Path, files: dict[str, str], registry: str = "") -> None:
    """``fonts/`` of the test project: copies of bundled Vera files under new names."""
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    for name, bundled in files.items():
        (fonts / name).write_bytes((BUNDLED_FONTS / bundled).read_bytes())
    if registry:
        (fonts / "fonts.yaml").write_text(registry)


def word_fonts(page) -> dict[str, str]:
    return {word["text"]: word["fontname"].split("+")[-1]
            for word in page.extract_words(extra_attrs=["fontname"])}


# --- parsing ------------------------------------------------------------------------------


def test_markup_splits_text_into_styled_spans_and_icons():
    assert parse_markup("Pay 2 :coin: to **draw** a *card*") == ((
        Span("Pay 2 "), Span("", icon="coin"), Span(" to "), Span("draw", bold=True), Span(" a "),
        Span("card", italic=True)),)
    assert parse_markup("***both***") == ((Span("both", bold=True, italic=True),),)
    assert parse_markup("one\ntwo") == ((Span("one"),), (Span("two"),))
    assert parse_markup("[Burn]{.burn} it") == ((Span("Burn", style="burn"), Span(" it")),)


def test_plain_stretches_end_where_markup_or_a_style_begins_or_ends():
    # plain words are copied a stretch at a time: each stretch must stop at a style's end too
    assert parse_markup("Pay [the red toll]{.burn} twice, [a [b]{.x}] then 2: done") == ((
        Span("Pay "), Span("the red toll", style="burn"), Span(" twice, "), Span("a [b", style="x"),
        Span("] then 2: done")),)
    assert parse_markup("[x **y** z]{.burn}") == ((
        Span("x ", style="burn"), Span("y", bold=True, style="burn"), Span(" z", style="burn")),)


def test_escapes_and_lone_stars_print_themselves():
    assert plain_text(parse_markup(r"2 \* 3 \:coin\: [x]")) == "2 * 3 :coin: [x]"
    assert plain_text(parse_markup("2 * 3 = 6, 10:30")) == "2 * 3 = 6, 10:30"


@pytest.mark.parametrize("text", ["Pay 2*", "The NuvaRing™.*", "5*", "*alias", "{{ 7*7 }}", "2*3",
                                  "Pay **2 to draw", "a****b", "* * *", "**", "x*"])
def test_stars_that_open_or_close_nothing_print_as_themselves(text):
    """CommonMark's rule: a run of stars with no partner is text, never an error."""
    assert parse_markup(text) == ((Span(text),),)


@pytest.mark.parametrize("text, spans", [
    # stars pair inside out, the longer run keeping what it does not use
    ("***a* b**", [Span("a", bold=True, italic=True), Span(" b", bold=True)]),
    ("***a** b*", [Span("a", bold=True, italic=True), Span(" b", italic=True)]),
    ("*a **b***", [Span("a ", italic=True), Span("b", bold=True, italic=True)]),
    ("**bold *both**", [Span("*"), Span("bold both", italic=True)]),
    ("*foo**bar*", [Span("foo**bar", italic=True)]),
    ("*(*foo*)*", [Span("(foo)", italic=True)]),
    ("foo***bar***baz", [Span("foo"), Span("bar", bold=True, italic=True), Span("baz")]),
    ("Pay 2* or **3**", [Span("Pay 2* or "), Span("3", bold=True)]),
    ("*[x]{.y}*", [Span("x", italic=True, style="y")]),
    ("*[x*]{.y}", [Span("*"), Span("x*", style="y")]),  # stars inside a style pair within it
    ("****a****", [Span("a", bold=True)]),
])
def test_stars_pair_as_commonmark_pairs_them(text, spans):
    assert parse_markup(text) == (tuple(spans),)


def test_emphasis_runs_on_across_a_line_break():
    assert parse_markup("*one\ntwo*") == ((Span("one", italic=True),), (Span("two", italic=True),))


# --- bold, italic, families ---------------------------------------------------------------


def test_bold_and_italic_words_use_the_matching_faces_of_the_family(tmp_path):
    page = face(tmp_path, "Pay **draw** *once* ***twice*** plain")
    assert word_fonts(page) == {  # the default family, DejaVu Sans
        "Pay": "DejaVuSans", "draw": "DejaVuSans-Bold",
        "once": "DejaVuSans-Oblique", "twice": "DejaVuSans-BoldOblique",
        "plain": "DejaVuSans"}


def test_italic_inside_a_bold_element_is_bold_italic(tmp_path):
    page = face(tmp_path, "Big *deal*", with_font("font: Vera-Bold"))
    assert word_fonts(page) == {"Big": "BitstreamVeraSans-Bold", "deal": "BitstreamVeraSans-BoldOblique"}


def test_a_family_declared_in_fonts_yaml_gives_its_bold_face(tmp_path):
    project_fonts(tmp_path, {}, "Hand:\n  regular: VeraIt.ttf\n  bold: VeraBI.ttf\n")
    page = face(tmp_path, "write **loud**", with_font("font: Hand"))
    assert word_fonts(page) == {"write": "BitstreamVeraSans-Oblique", "loud": "BitstreamVeraSans-BoldOblique"}


def test_fonts_dropped_in_with_a_bold_suffix_form_a_family(tmp_path):
    project_fonts(tmp_path, {"Plain.ttf": "Vera.ttf", "Plain-Bold.ttf": "VeraBd.ttf"})
    page = face(tmp_path, "a **b**", with_font("font: Plain"))
    assert word_fonts(page) == {"a": "BitstreamVeraSans-Roman", "b": "BitstreamVeraSans-Bold"}


def test_a_family_without_the_face_asked_for_is_an_error_naming_layout_line_and_element(tmp_path):
    project_fonts(tmp_path, {"Solo.ttf": "Vera.ttf"})
    renderer = load_renderer(make_deck(tmp_path, with_font("font: Solo"), card("a *b*")))
    with pytest.raises(LayoutError) as caught:
        renderer.validate()
    message = str(caught.value)
    assert "font family 'Solo' has no italic face" in message
    assert "element 'body' of layout 'main'" in message and "main.yaml:4:5" in message
    assert caught.value.exit_code == EXIT_RULES


# --- inline icons -------------------------------------------------------------------------


def test_words_around_an_icon_read_in_order_and_the_icon_fills_the_gap(tmp_path):
    page = face(tmp_path, "Pay 2 :coin: to draw a card")
    assert page.extract_text() == "Pay 2 to draw a card"
    chars = page.chars
    two = next(char for char in chars if char["text"] == "2")
    to = next(char for char in chars if char["text"] == "t")
    gap = (two["x1"], to["x0"])
    assert gap[1] - gap[0] > 8  # room for the icon besides two spaces
    drawn = [shape for shape in page.curves + page.rects
             if gap[0] < shape["x0"] and shape["x1"] < gap[1]]
    assert drawn, "vector paths where the icon sits"
    assert not [char for char in chars if gap[0] + 3 < char["x0"] < gap[1] - 3 and char["text"].strip()]
    # On the baseline, about as tall as a capital, in the text's colour.
    top = min(shape["top"] for shape in drawn)
    bottom = max(shape["bottom"] for shape in drawn)
    capital = next(char for char in chars if char["text"] == "P")
    baseline = capital["bottom"] - 10 * 0.236  # Vera's descent below the baseline, at 10 pt
    assert bottom == pytest.approx(baseline, abs=0.8)
    assert bottom - top == pytest.approx(10 * 0.729, abs=1.2)  # Vera's cap height at 10 pt
    blue, white = (0x2d / 255, 0x63 / 255, 0xb3 / 255), (1, 1, 1)  # ink, and the coin's cut-outs
    fills = [tuple(shape["non_stroking_color"]) for shape in drawn if shape["fill"]]
    assert blue in [pytest.approx(fill, abs=0.01) for fill in fills]
    assert all(fill == pytest.approx(blue, abs=0.01) or fill == pytest.approx(white) for fill in fills)


def test_icon_scale_makes_inline_icons_larger(tmp_path):
    def icon_height(folder: Path, layout: str) -> float:
        folder.mkdir()
        page = face(folder, "a :dot: b", layout)
        return max(shape["height"] for shape in page.curves)
    plain = icon_height(tmp_path / "a", BODY)
    larger = icon_height(tmp_path / "b", with_font("icon_scale: 1.5"))
    assert larger == pytest.approx(plain * 1.5, rel=0.02)


def test_a_named_style_colours_and_bolds_its_words_and_its_icons(tmp_path):
    page = face(tmp_path, "Then [Burn :flame:]{.burn} it")
    assert word_fonts(page)["Burn"] == "DejaVuSans-Bold"
    orange = (0xe0 / 255, 0x60 / 255, 0x1e / 255)
    burn = [char for char in page.chars if "Bold" in char["fontname"] and char["text"].strip()]
    assert "".join(char["text"] for char in burn) == "Burn"
    assert all(tuple(char["non_stroking_color"]) == pytest.approx(orange, abs=0.01) for char in burn)
    assert any(tuple(shape["non_stroking_color"]) == pytest.approx(orange, abs=0.01)
               for shape in page.curves if shape["fill"])


def test_the_same_words_take_each_face_s_own_style_colour(tmp_path):
    """Words measured for one face are reused on the next: each still prints in its face's colour."""
    layout = BODY.replace('burn: {colour: "#e0601e", bold: true}', "burn: {colour: hot, bold: true}") \
        + "colours:\n  hot: {field: kind, map: {spell: '#e0601e', monster: '#2060e0'}}\n"
    cards = card("Then [Burn it]{.burn} twice", "zap") + card("Then [Burn it]{.burn} twice", "ogre") \
        .replace("kind: spell", "kind: monster")
    deck = make_deck(tmp_path, layout, cards)
    renderer = load_renderer(deck)
    renderer.validate()
    for card_id, ink in (("zap", (0xe0, 0x60, 0x1e)), ("ogre", (0x20, 0x60, 0xe0))):
        page = render_page(renderer, deck.card(card_id), "front", tmp_path / f"{card_id}.pdf")
        burnt = [char for char in page.chars if "Bold" in char["fontname"] and char["text"].strip()]
        assert "".join(char["text"] for char in burnt) == "Burnit"
        assert all(tuple(char["non_stroking_color"]) == pytest.approx(tuple(c / 255 for c in ink), abs=0.01)
                   for char in burnt)
        plain = [char for char in page.chars if "Bold" not in char["fontname"] and char["text"].strip()]
        assert "".join(char["text"] for char in plain) == "Thentwice"


def test_icons_wrap_like_words_and_shrink_with_the_text(tmp_path):
    layout = BODY.replace("[5, 10, 53, 40]", "[5, 10, 30, 8]")
    page = face(tmp_path, "Gain :coin: :coin: :coin: :coin: :coin: :coin: :coin: :coin: then draw two cards")
    lines = {round(char["top"]) for char in page.chars}
    assert len(lines) >= 2
    page = face(tmp_path, "Gain :coin: :coin: :coin: :coin: :coin: :coin: :coin: :coin: then draw two cards",
                layout)
    size = page.chars[0]["size"]
    assert size < 10
    for shape in page.curves:
        assert 5 * MM - 0.5 <= shape["x0"] and shape["x1"] <= 35 * MM + 0.5
        assert 10 * MM - 0.5 <= shape["top"] and shape["bottom"] <= 18 * MM + 0.5


def test_a_line_of_bold_text_shrinks_by_its_bold_width(tmp_path):
    layout = """\
elements:
  - {name: title, text: "{{ text }}", box: [5, 5, 40, 10], size: 14, min_size: 4}
"""
    page = face(tmp_path, "**Marauding Monsters of Mueslix**", layout)
    assert max(char["x1"] for char in page.chars) <= 45 * MM + 0.3
    assert max(char["x1"] for char in page.chars) >= 45 * MM - 4  # shrunk no further than needed
    assert page.extract_text() == "Marauding Monsters of Mueslix"


def test_newlines_break_lines_even_in_one_line_text(tmp_path):
    layout = "elements:\n  - {text: '{{ text }}', box: [5, 5, 50, 20], size: 10}\n"
    deck = make_deck(tmp_path, layout, "  - {id: zap, name: Zap, text: \"YOUR\\nSHELF\"}\n")
    page = render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")
    assert page.extract_text().splitlines() == ["YOUR", "SHELF"]


def test_justified_lines_reach_both_edges_except_the_last(tmp_path):
    layout = with_font("align: justify")
    page = face(tmp_path, "When this wins a fight as the defender, the attacker returns to its owner's hand "
                          "instead of the cemetery.", layout)
    lines: dict[int, list] = {}
    for char in page.chars:
        lines.setdefault(round(char["top"]), []).append(char)
    ordered = [lines[top] for top in sorted(lines)]
    assert len(ordered) >= 3
    for line in ordered[:-1]:
        assert min(char["x0"] for char in line) == pytest.approx(5 * MM, abs=0.3)
        assert max(char["x1"] for char in line if char["text"].strip()) == pytest.approx(58 * MM, abs=0.6)
    assert max(char["x1"] for char in ordered[-1]) < 58 * MM - 5
    assert "returns to its owner's hand" in page.extract_text().replace("\n", " ")


# --- soft hyphens -------------------------------------------------------------------------

SHY = "\u00ad"
NARROW = "elements:\n  - {name: body, text: '{{ text }}', box: [5, 20, 30, 30], size: 12, min_size: 12, fit: wrap}\n"
TITLE = "elements:\n  - {name: body, text: '{{ text }}', box: [5, 20, 30, 10], size: 12}\n"


def glyphs(page) -> list[tuple[str, float, float, float]]:
    return [(char["text"], round(char["x0"], 3), round(char["top"], 3), char["size"]) for char in page.chars]


@pytest.mark.parametrize("layout", [NARROW, TITLE], ids=["wrap", "line"])
def test_a_soft_hyphen_where_the_line_does_not_break_prints_nothing_and_takes_no_room(tmp_path, layout):
    shy = face(tmp_path / "shy", f"Schiff{SHY}fahrt ist toll", layout)
    plain = face(tmp_path / "plain", "Schifffahrt ist toll", layout)
    assert glyphs(shy) == glyphs(plain)  # every letter where it would be without it, at the same size
    assert "-" not in shy.extract_text() and SHY not in shy.extract_text()


def test_a_long_word_breaks_at_its_soft_hyphens_each_broken_line_ending_with_a_hyphen(tmp_path):
    word = f"Donau{SHY}dampf{SHY}schiff{SHY}fahrts{SHY}gesellschaft"
    make_deck(tmp_path, NARROW, card(word))
    run = deckpress("check", tmp_path / "cards" / "test")
    assert run.exit_code == 0, run.stderr  # it fits at 12 pt once it may break
    page = face(tmp_path, word, NARROW)
    assert page.extract_text().splitlines() == ["Donaudampf-", "schifffahrts-", "gesellschaft"]
    assert {char["size"] for char in page.chars} == {12}
    assert max(char["x1"] for char in page.chars) <= 35 * MM + 0.01


def test_the_hyphen_a_break_prints_counts_in_the_fit(tmp_path):
    # "Schiff" fits the box at 12 pt and "Schiff-" does not: the text shrinks until the hyphen fits too
    vera = TTFont("Vera", BUNDLED_FONTS / "Vera.ttf")
    shown = vera.stringWidth("Schiff", 12)
    width = (shown + (vera.stringWidth("Schiff-", 12) - shown) / 2) / MM
    layout = f"elements:\n  - {{name: body, text: '{{{{ text }}}}', box: [5, 20, {width:.3f}, 30], size: 12, " \
             "min_size: 6, fit: wrap}\n"
    page = face(tmp_path, f"Schiff{SHY}fahrt", layout)
    assert page.extract_text().splitlines() == ["Schiff-", "fahrt"]
    assert page.chars[0]["size"] < 12
    assert max(char["x1"] for char in page.chars) <= (5 + width) * MM + 0.01


def test_a_soft_hyphen_before_a_space_or_at_either_end_of_a_word_prints_nothing(tmp_path):
    # the line breaks at the space after "Donaudampf": a soft hyphen there breaks nothing
    page = face(tmp_path, f"{SHY}Donau{SHY}{SHY}dampf{SHY} toll{SHY}", NARROW)
    assert page.extract_text().splitlines() == ["Donaudampf", "toll"]


def test_justified_lines_keep_the_syllables_of_a_word_together(tmp_path):
    text = (f"Die Donau{SHY}dampf{SHY}schiff{SHY}fahrts{SHY}gesellschaft fährt mit Schiff{SHY}fahrts{SHY}kapitänen "
            f"auf der Donau von Wien nach Buda{SHY}pest und zurück.")
    page = face(tmp_path, text, with_font("align: justify"))
    lines = page.extract_text().splitlines()
    assert len(lines) >= 3
    assert "\n".join(lines).replace("-\n", "").replace("\n", " ") == text.replace(SHY, "")
    for line in lines[:-1]:
        ends = [char["x1"] for char in page.chars if char["text"] == line[-1]]
        assert max(ends) == pytest.approx(58 * MM, abs=0.6)  # broken at a space or a soft hyphen, edge to edge


# --- errors with positions ----------------------------------------------------------------


def test_unknown_icon_in_a_card_points_at_the_card_field_with_a_suggestion(tmp_path):
    make_deck(tmp_path, BODY, "  - {id: zap, name: Zap, kind: spell,\n     text: 'Pay 2 :coyn: now'}\n")
    run = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == EXIT_RULES
    line = run.error_lines[0]
    assert f"{tmp_path / 'cards' / 'test' / 'deck.yaml'}:" in line and "deck.yaml:14:6:" in line
    assert "unknown icon ':coyn:'" in line and "did you mean 'coin'?" in line and "card 'zap'" in line
    assert not (tmp_path / "out" / "test.pdf").exists()


def test_stars_the_layout_leaves_open_print_on_the_card(tmp_path):
    layout = "elements:\n  - {name: body, text: '**{{ text }}', box: [5, 10, 53, 20]}\n"
    deck = make_deck(tmp_path, layout, card("fine"))
    page = render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")
    assert page.extract_text() == "**fine"


def test_unknown_style_is_an_error_with_a_suggestion(tmp_path):
    renderer = load_renderer(make_deck(tmp_path, BODY, card("a [b]{.brun} c")))
    with pytest.raises(LayoutError, match=r"unknown style '\.brun'.*did you mean 'burn'\?"):
        renderer.validate()


def test_each_distinct_string_is_parsed_once(tmp_path, monkeypatch):
    import generator.render.plan as plan
    parsed: list[str] = []

    def counting(text):
        parsed.append(text)
        return parse_markup(text)

    monkeypatch.setattr(plan, "parse_markup", counting)
    layout = BODY + "  - {name: label, text: SPELL, box: [5, 60, 53, 8]}\n"
    cards = card("same text", "a") + card("same text", "b").replace("name: Zap", "name: Zip") + card("other", "c")
    renderer = load_renderer(make_deck(tmp_path, layout, cards))
    renderer.validate()
    # the texts drawn, and the titles a reader sees (front and back): each string once
    assert sorted(parsed) == ["SPELL", "Test Deck", "Zap", "other", "same text"]


# --- the bundled games and the rules booklets ------------------------------------------------

CARDS = Path(__file__).resolve().parent.parent / "cards"


def bundled_face(tmp_path, game: str, card_id: str):
    from generator.deck.model import load_deck

    deck = load_deck(CARDS / game)
    return render_page(load_renderer(deck), deck.card(card_id), "front", tmp_path / f"{card_id}.pdf")


def test_gold_rush_names_a_monster_type_in_its_colour_with_its_symbol(tmp_path):
    page = bundled_face(tmp_path, "gold-rush", "tainted-coin")
    text = " ".join(page.extract_text().split())
    assert "When you pay a Demon's cost, this counts as 2 treasures." in text
    demon = next(word for word in page.extract_words(extra_attrs=["fontname", "non_stroking_color"])
                 if word["text"].startswith("Demon"))
    assert demon["fontname"].endswith("Bold")
    assert tuple(demon["non_stroking_color"]) == pytest.approx((0x6b / 255, 0x1d / 255, 0x2e / 255), abs=0.01)
    symbol = [curve for curve in page.curves
              if demon["x0"] - 12 < curve["x0"] < demon["x0"] and abs(curve["top"] - demon["top"]) < 6]
    assert symbol  # the demon's horned face just before the word


def test_cereal_killer_special_cards_bold_what_tells_them_apart(tmp_path):
    page = bundled_face(tmp_path, "cereal-killer", "spilled-milk-least-for-most")
    bold = [word["text"] for word in page.extract_words(extra_attrs=["fontname"])
            if word["fontname"].endswith("Bold") and word["top"] > 60 * MM]
    assert bold[-4:] == ["least", "expensive", "most", "expensive"]


def test_rules_booklet_tables_print_card_text_without_markup(tmp_path):
    run = deckpress("booklet", CARDS / "gold-rush", "--out", tmp_path, "--quiet")
    assert run.exit_code == 0, run.stderr
    import pdfplumber

    with pdfplumber.open(tmp_path / "gold-rush-rules.pdf") as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    assert ":chest:" not in text and "{.dragon}" not in text and "**" not in text
    assert "you control a Dragon, bury 1 of your" in " ".join(text.split())  # the icons take room in the lines


def test_unquoted_text_with_an_icon_gets_a_hint_from_the_yaml_error(tmp_path):
    folder = tmp_path / "cards" / "test"
    make_deck(tmp_path, BODY)
    (folder / "deck.yaml").write_text((folder / "deck.yaml").read_text()
                                      + "  - {id: zip, name: Zip}\n".replace("{id: zip, name: Zip}",
                                                                        "id: zip\n    text: Pay 2 :coin: now"))
    run = deckpress("check", folder)
    assert run.exit_code == 2
    assert 'text holding an :icon: must be quoted, as in text: "Pay 2 :coin: to draw"' in run.stderr
