"""Rules booklets: what a playtester holds in their hands.

Most tests build a tiny deck and rules file in tmp_path and read the PDFs back
with pdfplumber: page numbers on the imposed sheets, the counts in the
components table, the cover, and the errors a designer sees.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress
from click.testing import CliRunner
from pypdf import PdfReader
from shops_support import fonts

from generator.booklet import build_booklet
from generator.booklet.imposition import Side, saddle_stitch_order
from generator.cli import cli
from generator.deck import load_deck
from generator.errors import InputError

MM = 72 / 25.4

DECK = """\
deck:
  name: Tiny Test Game
  designer: A. Tester
  players: {min: 2, max: 3}
fields:
  name: {type: text, required: true}
  kind: {choices: [Goblin, Fairy, Star]}
  power: int
back:
  name: Tiny back
cards:
  - {id: grub, name: Grub, kind: Goblin, power: 2, count: 3}
  - {id: pip, name: Pip, kind: Fairy, power: 1, count: 4}
  - {id: dew, name: Dew, kind: Fairy, power: 5, count: 1}
  - {id: nova, name: Nova, kind: Star, power: 9, count: 2}
"""


class TinyRenderer:
    """Stands in for the card renderer: a framed face that prints its card id and side."""

    card_size = (180.0, 252.0)
    icons: dict = {}  # no layout icons: ":coin:" in a card's text prints as written

    def __init__(self, deck):
        self.deck = deck

    def face_key(self, card, side):
        if side == "back" and card.back is None:
            return ("shared-back",)
        return (card.id, side)

    def draw(self, canvas, card, side):
        canvas.rect(0, 0, 180, 252)
        canvas.setFont("Helvetica", 24)
        canvas.drawString(12, 120, f"{card.id}/{side}")


def make_deck(tmp_path: Path, rules: str, deck_text: str = DECK) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "deck.yaml").write_text(deck_text)
    (folder / "rules.md").write_text(rules)
    return folder


def build(tmp_path: Path, rules: str, paper: str = "a4"):
    folder = make_deck(tmp_path, rules)
    return build_booklet(load_deck(folder), paper, renderer_factory=TinyRenderer)


def pages_of(pdf: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [page.extract_text() or "" for page in document.pages]


def page_number(page) -> int | None:
    """The number printed in the footer of a reading page (or a half sheet), if any."""
    footer = page.crop((page.bbox[0], page.bbox[3] - 40, page.bbox[2], page.bbox[3]))
    text = (footer.extract_text() or "").strip()
    return int(text) if text.isdigit() else None


def rules_with_pages(count: int) -> str:
    """A rules file that fills exactly ``count`` pages: the cover plus count - 1 body pages."""
    bodies = [f"# Part {number}\n\nText of part {number}." for number in range(2, count + 1)]
    return "\n\n{{ pagebreak }}\n\n".join(bodies) + "\n"


# --- imposition ---------------------------------------------------------------


def test_saddle_stitch_order_for_eight_pages():
    assert saddle_stitch_order(8) == [
        Side(8, 1), Side(2, 7),   # outer sheet: back cover and cover, then 2 and 7
        Side(6, 3), Side(4, 5),   # inner sheet: the centre spread 4-5 on its back
    ]


def test_saddle_stitch_order_pads_with_blanks_at_the_end():
    assert saddle_stitch_order(5) == [Side(None, 1), Side(2, None), Side(None, 3), Side(4, 5)]
    assert saddle_stitch_order(1) == [Side(None, 1), Side(None, None)]


def test_every_page_printed_once_and_each_spread_folds_together():
    for pages in range(1, 30):
        sides = saddle_stitch_order(pages)
        printed = [n for side in sides for n in (side.left, side.right) if n is not None]
        assert sorted(printed) == list(range(1, pages + 1))
        total = len(sides) * 2  # two halves a side: the padded page count
        assert total % 4 == 0 and total - pages < 4
        # With the blanks numbered, the two halves of any side add up to total + 1:
        # that is what puts page k and its mirror page on one fold.
        full = saddle_stitch_order(total)
        for side, numbered in zip(sides, full, strict=True):
            assert numbered.left + numbered.right == total + 1
            assert side.left == (numbered.left if numbered.left <= pages else None)
            assert side.right == (numbered.right if numbered.right <= pages else None)


@pytest.mark.parametrize("pages, expected", [
    (8, [(8, 1), (2, 7), (6, 3), (4, 5)]),
    (6, [(None, 1), (2, None), (6, 3), (4, 5)]),
    (4, [(4, 1), (2, 3)]),
])
def test_imposed_sheets_hold_the_right_pages(tmp_path, pages, expected):
    booklet = build(tmp_path, rules_with_pages(pages))
    assert booklet.pages == pages
    found = []
    with pdfplumber.open(io.BytesIO(booklet.booklet_pdf)) as document:
        for sheet in document.pages:
            width, height = sheet.width, sheet.height
            assert (round(width / MM), round(height / MM)) == (297, 210)  # landscape A4
            halves = []
            for left_edge in (0, width / 2):
                # The printing note across the top of the first sheet is not part of a page.
                half = sheet.crop((left_edge, 36, left_edge + width / 2, height))
                text = half.extract_text() or ""
                if "Tiny Test Game" in text:
                    halves.append(1)  # the cover carries no number
                else:
                    halves.append(page_number(half))
                    if halves[-1] is not None:
                        assert f"Text of part {halves[-1]}." in text
                    else:
                        assert text.strip() == ""  # a padding page is blank
            found.append(tuple(halves))
    assert found == expected


def test_first_imposed_sheet_says_how_to_print_and_fold(tmp_path):
    booklet = build(tmp_path, rules_with_pages(8))
    with pdfplumber.open(io.BytesIO(booklet.booklet_pdf)) as document:
        sides = [" ".join((page.extract_text() or "").split()) for page in document.pages]
    assert "Print double-sided, flipping on the short edge" in sides[0]
    assert "fold the stack in half" in sides[0] and "staple on the fold" in sides[0]
    assert not any("double-sided" in side for side in sides[1:])
    reading = " ".join(pages_of(booklet.reading_pdf))
    assert "double-sided" not in reading  # screens and single-sided prints do not need it


def test_reading_pdf_is_a5_with_page_numbers_on_every_page_but_the_cover(tmp_path):
    booklet = build(tmp_path, rules_with_pages(5))
    with pdfplumber.open(io.BytesIO(booklet.reading_pdf)) as document:
        assert len(document.pages) == 5
        for page in document.pages:
            assert (round(page.width / MM), round(page.height / MM)) == (148, 210)
        assert [page_number(page) for page in document.pages] == [None, 2, 3, 4, 5]


def test_letter_paper_gives_half_letter_pages_on_landscape_letter(tmp_path):
    booklet = build(tmp_path, rules_with_pages(3), paper="letter")
    with pdfplumber.open(io.BytesIO(booklet.reading_pdf)) as document:
        assert (document.pages[0].width, document.pages[0].height) == (396, 612)
    with pdfplumber.open(io.BytesIO(booklet.booklet_pdf)) as document:
        assert len(document.pages) == 2
        assert (document.pages[0].width, document.pages[0].height) == (792, 612)


# --- content from the deck ------------------------------------------------------


def test_components_table_counts_come_from_the_deck(tmp_path):
    rules = "# What is in the box\n\n{{ components by=kind extra=\"One six-sided die\" }}\n"
    text = pages_of(build(tmp_path, rules).reading_pdf)[1]
    rows = {match.group(2): int(match.group(1))
            for match in re.finditer(r"^(\d+) (Goblin|Fairy|Star|in all)\b", text, re.M)}
    assert rows == {"Goblin": 3, "Fairy": 5, "Star": 2, "in all": 10}
    assert "One six-sided die" in text


def test_components_follow_a_changed_deck(tmp_path):
    rules = "{{ components by=kind }}\n"
    changed = DECK.replace("kind: Goblin, power: 2, count: 3", "kind: Goblin, power: 2, count: 7")
    folder = make_deck(tmp_path, rules, changed)
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    assert re.search(r"^7 Goblin", text, re.M)
    assert re.search(r"^14 in all", text, re.M)


def test_cards_that_leave_the_grouping_field_empty_are_other_cards(tmp_path):
    rules = "{{ components by=kind }}\n"
    folder = make_deck(tmp_path, rules, DECK.replace("kind: Star, ", ""))
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    assert re.search(r"^2 Other Nova$", text, re.M)  # the components table
    assert "None" not in text
    rules = "# Rules\n\n{{ components by=kind }}\n"
    folder = make_deck(tmp_path, rules, DECK.replace("kind: Star, ", ""))
    cover = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[0]
    assert "2 other cards" in cover.splitlines()


def test_components_print_choice_values_capitalised_as_card_tables_do(tmp_path):
    deck = DECK.replace("[Goblin, Fairy, Star]", "[goblin, fairy, star]").replace("kind: Goblin", "kind: goblin") \
        .replace("kind: Fairy", "kind: fairy").replace("kind: Star", "kind: star")
    folder = make_deck(tmp_path, "{{ components by=kind }}\n\n{{ cardtable columns=name,kind }}\n", deck)
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    assert "3 Goblin Grub" in text and "5 Fairy" in text and "2 Star Nova" in text
    assert "Grub Goblin" in text and "goblin" not in text and "fairy" not in text


def test_cover_shows_title_players_and_component_summary(tmp_path):
    rules = "# Rules\n\n{{ components by=kind Star=\"Star cards\" extra=\"One die\" }}\n"
    cover = pages_of(build(tmp_path, rules).reading_pdf)[0]
    assert "Tiny Test Game" in cover
    assert "2 to 3 players" in cover
    assert "A. Tester" in cover
    lines = cover.splitlines()
    for line in ("10 cards", "3 Goblin cards", "5 Fairy cards", "2 Star cards", "One die"):
        assert line in lines  # field values read "N <kind> cards"; a label is printed as given


def test_cover_counts_a_single_card_in_the_singular(tmp_path):
    cover = pages_of(build(tmp_path, "{{ components by=name }}\n").reading_pdf)[0].splitlines()
    assert "1 Dew card" in cover and "4 Pip cards" in cover


def test_inline_directives_fill_in_numbers_and_values(tmp_path):
    rules = ("Play {{ name }} with {{ players }}. The deck has {{ total }} cards: "
             "{{ count kind=Fairy }} fairies in {{ kinds kind=Fairy }} kinds; "
             "Nova has power {{ value nova power }}.\n")
    text = " ".join(pages_of(build(tmp_path, rules).reading_pdf)[1].split())
    assert ("Play Tiny Test Game with 2 to 3 players. The deck has 10 cards: "
            "5 fairies in 2 kinds; Nova has power 9.") in text


def test_a_name_with_a_line_break_fills_in_as_one_line_and_leaves_the_blocks_below_in_place(tmp_path):
    deck = DECK.replace("name: Tiny Test Game", 'name: "Tiny\\nTest Game"')
    rules = "**{{ name }}** is a game.\n\n{{ components by=kind }}\n\n{{ cardtable columns=name }}\n"
    folder = make_deck(tmp_path, rules, deck)
    run = deckpress("check", folder)
    assert run.exit_code == 0, run.stderr
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    assert "Tiny Test Game is a game." in " ".join(text.split())
    assert "3 Goblin Grub" in text and "Name\nGrub" in text  # both blocks drawn where they stand


def test_players_has_a_bare_form_for_sentences_that_say_players_themselves(tmp_path):
    rules = ("For {{ players bare }} players, from {{ players min }} up to {{ players max }}; "
             "a game for {{ players }}.\n")
    text = " ".join(pages_of(build(tmp_path, rules).reading_pdf)[1].split())
    assert "For 2 to 3 players, from 2 up to 3; a game for 2 to 3 players." in text
    assert "players players" not in text


def test_players_refuses_a_form_it_does_not_know(tmp_path):
    with pytest.raises(InputError, match=r"'players' takes nothing or one of bare, min, max, found few"):
        build(tmp_path, "For {{ players few }}.\n")


def test_card_table_lists_each_distinct_card_sorted(tmp_path):
    rules = "{{ cardtable kind=Fairy,Star columns=name,power,count headers=\"Card,Power,Copies\" sort=-power }}\n"
    text = pages_of(build(tmp_path, rules).reading_pdf)[1]
    assert re.findall(r"^(\w+) (\d+) (\d+)$", text, re.M) == [
        ("Nova", "9", "2"), ("Dew", "5", "1"), ("Pip", "1", "4")]
    assert "Card Power Copies" in text


def test_card_table_prints_values_the_way_cards_read(tmp_path):
    deck = DECK.replace("  power: int\n", "  power: int\n  mood: {choices: [grumpy, sunny]}\n  shiny: bool\n")
    deck = deck.replace("power: 2, count: 3", "power: 2, mood: grumpy, shiny: true, count: 3")
    deck = deck.replace("power: 1, count: 4", "power: 1, mood: sunny, count: 4")
    folder = make_deck(tmp_path, "{{ cardtable kind=Goblin,Fairy columns=name,mood,shiny sort=name }}\n\n"
                                 "{{ cardtable kind=Goblin,Fairy columns=name,mood,shiny sort=name "
                                 "format=\"mood:~{}~,shiny:Shiny\" }}\n", deck)
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    rows = [line for line in text.splitlines() if line.startswith(("Dew", "Grub", "Pip"))]
    assert rows == ["Dew – –", "Grub Grumpy Yes", "Pip Sunny –",   # choices capitalised, yes/no as Yes/–
                    "Dew", "Grub ~grumpy~ Shiny", "Pip ~sunny~"]     # formats print their own text


def test_card_table_prints_a_plain_field_as_written(tmp_path):
    deck = DECK.replace("  power: int\n", "  power: int\n  note: {type: text, markup: false}\n")
    deck = deck.replace("power: 2, count: 3", "power: 2, note: 'Pay **2** [a]{.zz} now', count: 3")
    folder = make_deck(tmp_path, "{{ cardtable kind=Goblin columns=name,note }}\n", deck)
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    assert "Grub Pay **2** [a]{.zz} now" in text.splitlines()


def test_card_table_format_must_name_a_column(tmp_path):
    folder, result = cli_error(tmp_path, "{{ cardtable columns=name format=\"power:{} pts\" }}\n")
    assert result.exit_code == 2
    assert "rules.md:1:1: format names 'power', which is not one of the columns" in result.output


def test_card_reference_draws_each_distinct_face_once(tmp_path):
    rules = "# Cards\n\n{{ cards side=both }}\n"
    text = pages_of(build(tmp_path, rules).reading_pdf)[1]
    faces = re.findall(r"\b(\w+)/(front|back)\b", text)
    assert sorted(faces) == sorted([("grub", "front"), ("pip", "front"), ("dew", "front"),
                                    ("nova", "front"), ("grub", "back")])  # one shared back
    assert "Grub ×3" in text and "Pip ×4" in text and "Dew" in text and "×1" not in text
    assert "card back (all cards)" in text


def test_the_shared_back_is_not_captioned_as_every_card_s_when_some_have_their_own(tmp_path):
    deck = DECK.replace("count: 1}", "count: 1, back: {name: Dew back}}")
    folder = make_deck(tmp_path, "# Cards\n\n{{ cards side=both }}\n", deck)
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)[1]
    assert "back: Dew back" in text
    assert "card back (all other cards)" in text and "(all cards)" not in text


def test_card_reference_scales_cards_to_the_booklet_width(tmp_path):
    rules = "{{ cards kind=Star }}\n"
    booklet = build(tmp_path, rules)
    with pdfplumber.open(io.BytesIO(booklet.reading_pdf)) as document:
        rectangles = [r for r in document.pages[1].rects if r["width"] > 30]
    widths = {round(r["width"] / MM) for r in rectangles}
    assert widths == {36}  # the style's card width: 36 mm (three to an A5 row), not the renderer's 63.5 mm


@pytest.mark.parametrize("width, message", [
    ("3mm", "width 3mm is too small to show a card; at least 5 mm"),
    ("500mm", "width 500mm does not fit the page: at most 122 mm, the width of its text"),
])
def test_a_card_reference_too_narrow_or_too_wide_says_how_wide_it_may_be(tmp_path, width, message):
    with pytest.raises(InputError) as refused:
        build(tmp_path, f"{{{{ cards kind=Star width={width} }}}}\n")
    assert refused.value.message == message


def filler_image(folder: Path, height_pt: float) -> str:
    """A picture ``height_pt`` tall on the page, to push what follows down a page."""
    from PIL import Image

    Image.new("RGB", (60, round(height_pt * 150 / 72)), "white").save(folder / "filler.png")
    return "![filler](filler.png)"


def test_last_card_row_never_starts_a_page_alone(tmp_path):
    # The picture leaves room for one row of cards under it, not two: the single
    # card of the second row would otherwise open page 3 by itself.
    folder = make_deck(tmp_path, "")
    (folder / "rules.md").write_text(filler_image(folder, 300) + "\n\n{{ cards width=36mm }}\n")
    pages = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)
    faces = [re.findall(r"\b(\w+)/front\b", page) for page in pages]
    assert sorted(sum(faces, [])) == ["dew", "grub", "nova", "pip"]
    assert all(len(found) != 1 for found in faces), faces


@pytest.mark.parametrize("level", ["#", "##"])
def test_a_heading_above_a_picture_moves_to_the_page_of_the_picture(tmp_path, level):
    from PIL import Image

    folder = make_deck(tmp_path, "")
    Image.new("RGB", (300, 1200), "white").save(folder / "tall.png")
    filler = "".join(f"Filler paragraph number {n}.\n\n" for n in range(20))
    (folder / "rules.md").write_text(filler + f"{level} A tall picture\n\n![Tall](tall.png)\n")
    with pdfplumber.open(io.BytesIO(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)) \
            as document:
        [heading_page] = [page for page in document.pages if "A tall picture" in (page.extract_text() or "")]
        assert len(heading_page.images) == 1
        [image] = heading_page.images
        heading_top = next(word["top"] for word in heading_page.extract_words() if word["text"] == "tall")
        assert heading_top < image["top"]


def test_tall_table_splits_rather_than_leaving_the_page_empty(tmp_path):
    folder = make_deck(tmp_path, "")
    long_cell = "a rule text long enough to wrap over three lines of a narrow column " * 2
    rows = "".join(f"| Card {n} | {long_cell} |\n" for n in range(14))
    (folder / "rules.md").write_text(filler_image(folder, 200) + "\n\n## Table\n\n| Card | Text |\n|---|---|\n"
                                     + rows)
    pages = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)
    assert "Card 0" in pages[1]           # starts under the picture, on the same page
    assert len(pages) == 3 and "Card 0" not in pages[2]


def test_contents_page_only_for_long_booklets(tmp_path):
    short = pages_of(build(tmp_path, rules_with_pages(8)).reading_pdf)
    assert not any("Contents" in page for page in short)
    long = pages_of(build(tmp_path, rules_with_pages(9)).reading_pdf)
    assert "Contents" in long[1]
    assert re.search(r"^Part 9 [. ]*10$", long[1], re.M)  # moved from page 9 to 10 by the contents page
    assert "Text of part 9." in long[9]


def test_markdown_lists_tables_and_emphasis_render(tmp_path):
    rules = ("# Turn\n\n1. Draw a card\n2. Play a card\n   - on your shelf\n   - or your rival's\n\n"
             "| Roll | Reward |\n|---:|---|\n| 7 | *fifty* |\n\n> **Example:** Myrtle rolls 7.\n")
    text = pages_of(build(tmp_path, rules).reading_pdf)[1]
    for expected in ("1. Draw a card", "2. Play a card", "on your shelf", "7 fifty", "Example: Myrtle rolls 7."):
        assert expected in text


def test_same_input_gives_the_same_bytes(tmp_path):
    rules = "# Rules\n\n{{ components by=kind }}\n\n{{ cards }}\n"
    first, second = build(tmp_path, rules), build(tmp_path, rules)
    assert first.reading_pdf == second.reading_pdf
    assert first.booklet_pdf == second.booklet_pdf


def test_images_from_the_deck_folder_are_printed(tmp_path):
    from PIL import Image

    folder = make_deck(tmp_path, "# Art\n\n![a goblin](art/goblin.png)\n\nAn icon ![sun](art/goblin.png) inline.\n")
    (folder / "art").mkdir()
    Image.new("RGB", (300, 150), "green").save(folder / "art" / "goblin.png")
    booklet = build_booklet(load_deck(folder), renderer_factory=TinyRenderer)
    with pdfplumber.open(io.BytesIO(booklet.reading_pdf)) as document:
        images = document.pages[1].images
    assert len(images) == 2
    block = max(images, key=lambda image: image["width"])
    assert round(block["width"]) == 144  # 300 px at 150 dpi


# --- errors a designer sees -------------------------------------------------------


def run_cli(*args: str):
    return CliRunner().invoke(cli, list(args))


def cli_error(tmp_path: Path, rules: str, out: Path | None = None):
    folder = make_deck(tmp_path, rules)
    out = out or tmp_path / "out"
    result = run_cli("booklet", str(folder), "--out", str(out), "--quiet")
    return folder, result


@pytest.mark.parametrize("rules, line, column, words", [
    ("# Rules\n\nIntro.\n\n{{ componants }}\n", 5, 1, "unknown directive 'componants'"),
    ("Text\nwith {{ count colour=red }} in it.\n", 2, 6, "unknown field 'colour'"),
    ("{{ value nobody power }}\n", 1, 1, "no card with id 'nobody'"),
    ("{{ cards side=top }}\n", 1, 1, "side is front, back or both"),
    ("A sentence then {{ components }} mid-line.\n", 1, 17, "on a line of its own"),
    ("{{ components by=kind Troll=\"Trolls\" }}\n", 1, 1, "'Troll' is not a value of field 'kind'"),
    ("Unclosed {{ count kind=\"Fairy }}\n", 1, 10, "cannot read directive"),
    ("Chinese \u6f22 is in no booklet font.\n", 1, 9, "no booklet font has '\u6f22'"),
])
def test_broken_directive_names_file_and_line_and_exits_2(tmp_path, rules, line, column, words):
    folder, result = cli_error(tmp_path, rules)
    assert result.exit_code == 2, result.output
    assert f"{folder / 'rules.md'}:{line}:{column}:" in result.output
    assert words in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


WIDE_TABLE = ("# Wide\n\nIntro.\n\n| " + " | ".join(f"c{n}" for n in range(60)) + " |\n|"
              + "---|" * 60 + "\n| " + " | ".join("x" for _ in range(60)) + " |\n")


@pytest.mark.parametrize("rules, line, column, words", [
    ("# Cards\n\n{{ cardtable columns= }}\n", 3, 1, "'columns=' names no columns"),
    (WIDE_TABLE, 5, 1, "a table of 60 columns does not fit the page"),
    ("{{ cardtable columns=" + ",".join(["name"] * 40) + " }}\n", 1, 1, "40 columns does not fit"),
])
def test_impossible_tables_are_errors_at_their_line(tmp_path, rules, line, column, words):
    folder, result = cli_error(tmp_path, rules)
    assert result.exit_code == 2, result.output
    assert f"{folder / 'rules.md'}:{line}:{column}:" in result.output
    assert words in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


LONG_WORDS = ("Extraordinarily", "Incomprehensibilities")
WORDY_TABLE = ("# Words\n\nIntro.\n\n| " + " | ".join(f"c{n}" for n in range(8)) + " |\n|" + "---|" * 8
               + "\n| " + " | ".join(LONG_WORDS * 4) + " |\n")
"""Eight columns whose longest words cannot all stand whole side by side on an A5 page."""


def test_a_table_too_narrow_for_its_words_is_refused_rather_than_breaking_them(tmp_path):
    folder, result = cli_error(tmp_path, WORDY_TABLE)
    assert result.exit_code == 2, result.output
    assert f"{folder / 'rules.md'}:5:1: the table does not fit the page" in result.output
    assert "column 2" in result.output and "'Incomprehensibilities'" in result.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_card_table_too_narrow_for_its_words_is_refused(tmp_path):
    deck = DECK.replace("name: Pip,", "name: Incomprehensibilities,")
    folder = make_deck(tmp_path, "{{ cardtable columns=" + ",".join(["name"] * 6) + " }}\n", deck)
    result = run_cli("booklet", str(folder), "--out", str(tmp_path / "out"), "--quiet")
    assert result.exit_code == 2, result.output
    assert f"{folder / 'rules.md'}:1:1: the table does not fit the page" in result.output
    assert "'Incomprehensibilities'" in result.output


def test_the_longest_words_of_a_table_that_fits_print_whole(tmp_path):
    words = " | ".join(LONG_WORDS * 2)
    table = "| " + " | ".join(f"c{n}" for n in range(4)) + " |\n|" + "---|" * 4 + f"\n| {words} |\n"
    [_, page] = pages_of(build(tmp_path, "# T\n\n" + table).reading_pdf)
    assert page.split().count("Incomprehensibilities") == 2 and page.split().count("Extraordinarily") == 2


@pytest.mark.parametrize("target", ["outside", "dangling"])
def test_rules_file_symlinked_outside_the_deck_folder_is_refused(tmp_path, target):
    secret = tmp_path / "secret.md"
    if target == "outside":
        secret.write_text("# Private notes\n\nDo not print me.\n")
    folder = make_deck(tmp_path, "x")
    (folder / "rules.md").unlink()
    (folder / "rules.md").symlink_to(secret)
    out = tmp_path / "out"
    result = run_cli("booklet", str(folder), "--out", str(out), "--quiet")
    assert result.exit_code == 2, result.output
    assert f"{folder / 'rules.md'}:" in result.output
    assert "points outside the deck folder" in result.output
    assert not out.exists() or not list(out.iterdir())


def test_rules_file_symlinked_inside_the_deck_folder_is_read(tmp_path):
    folder = make_deck(tmp_path, "x")
    (folder / "docs").mkdir()
    (folder / "docs" / "rules.md").write_text("# Linked\n\nLinked rules text.\n")
    (folder / "rules.md").unlink()
    (folder / "rules.md").symlink_to(Path("docs") / "rules.md")
    text = pages_of(build_booklet(load_deck(folder), renderer_factory=TinyRenderer).reading_pdf)
    assert "Linked rules text." in text[1]


def test_missing_image_names_file_and_line(tmp_path):
    folder, result = cli_error(tmp_path, "# Art\n\nSome text.\n\n![goblin](art/missing.png)\n")
    assert result.exit_code == 2
    assert f"{folder / 'rules.md'}:5:11: image 'art/missing.png' not found" in result.output


@pytest.mark.parametrize("reference, words", [
    ("../secret.png", "outside the deck folder"),
    ("art/../../secret.png", "outside the deck folder"),
    ("/etc/secret.png", "not an absolute path"),
    ("https://example.org/x.png", "not a URL"),
    ("link.png", "outside the deck folder"),
])
def test_image_outside_the_deck_folder_is_refused(tmp_path, reference, words):
    from PIL import Image

    Image.new("RGB", (10, 10)).save(tmp_path / "secret.png")
    folder = make_deck(tmp_path, f"Intro.\n\n![x]({reference})\n")
    (folder / "link.png").symlink_to(tmp_path / "secret.png")
    with pytest.raises(InputError) as caught:
        build_booklet(load_deck(folder), renderer_factory=TinyRenderer)
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{folder / 'rules.md'}:3:")


def test_not_a_picture_is_an_input_error(tmp_path):
    folder = make_deck(tmp_path, "![x](fake.png)\n")
    (folder / "fake.png").write_text("not a png")
    with pytest.raises(InputError, match="not a readable image"):
        build_booklet(load_deck(folder), renderer_factory=TinyRenderer)


def test_a_deck_without_rules_is_passed_over_as_check_passes_it(tmp_path):
    folder = make_deck(tmp_path, "x")
    (folder / "rules.md").unlink()
    assert run_cli("check", str(folder)).exit_code == 0
    result = run_cli("booklet", str(folder), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert "tiny: no rules.md beside the deck, so no booklet" in result.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


# --- the command ----------------------------------------------------------------


def test_command_writes_both_pdfs(tmp_path, monkeypatch):
    import generator.booklet.cards as cards

    monkeypatch.setattr(cards, "load_default_renderer", TinyRenderer)
    folder = make_deck(tmp_path, rules_with_pages(3))
    out = tmp_path / "out"
    result = run_cli("booklet", str(folder), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["tiny-rules-booklet.pdf", "tiny-rules.pdf"]
    assert "tiny: 3 pages" in result.output and "1 sheet(s)" in result.output
    quiet = run_cli("booklet", str(folder), "--out", str(out), "--quiet")
    assert quiet.exit_code == 0 and quiet.output == ""


def test_failed_build_keeps_the_previous_booklet(tmp_path):
    folder = make_deck(tmp_path, rules_with_pages(2))
    out = tmp_path / "out"
    assert run_cli("booklet", str(folder), "--out", str(out), "-q").exit_code == 0
    before = (out / "tiny-rules.pdf").read_bytes()
    (folder / "rules.md").write_text("{{ nonsense }}\n")
    assert run_cli("booklet", str(folder), "--out", str(out), "-q").exit_code == 2
    assert (out / "tiny-rules.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["tiny-rules-booklet.pdf", "tiny-rules.pdf"]


# --- the bundled games --------------------------------------------------------------

BUNDLED = Path(__file__).resolve().parent.parent / "cards"


@pytest.mark.parametrize("game, by", [
    ("cereal-killer", "category"), ("goblins", "star"), ("gold-rush", "type"), ("tiki", "type"),
])
def test_bundled_rules_build_and_their_components_match_the_deck(game, by):
    deck = load_deck(BUNDLED / game)
    booklet = build_booklet(deck, renderer_factory=TinyRenderer)
    reader = PdfReader(io.BytesIO(booklet.reading_pdf))
    assert len(reader.pages) == booklet.pages >= 6
    # Printed as a booklet, at most two pages of the last sheet are left blank.
    assert booklet.sheets * 4 - booklet.pages <= 2, f"{booklet.pages} pages waste a sheet"
    chapters = [entry.title for entry in reader.outline if not isinstance(entry, list)]
    for chapter in ("Overview", "Components", "Card reference", "Questions at the table"):
        assert chapter in chapters
    # The components table sits within the first pages; only those are read back.
    with pdfplumber.open(io.BytesIO(booklet.reading_pdf), pages=[2, 3, 4]) as document:
        components_page = next(text for text in (page.extract_text() for page in document.pages)
                               if "Kind Details" in text)
    # Every group's count in the printed table is the sum of its cards' counts in deck.yaml.
    expected: dict = {}
    for card in deck.cards:
        expected[card.fields.get(by)] = expected.get(card.fields.get(by), 0) + card.count
    printed = [int(n) for n in re.findall(r"^(\d+) ", components_page, re.M)]
    assert printed[:len(expected)] == list(expected.values())
    assert re.search(rf"^{deck.total} in all$", components_page, re.M)


def test_card_reference_uses_the_projects_card_renderer(tmp_path):
    """No test double here: the deck's own (generic) layout draws the faces."""
    folder = make_deck(tmp_path, "# Cards\n\n{{ cards kind=Star,Goblin }}\n")
    booklet = build_booklet(load_deck(folder))
    with pdfplumber.open(io.BytesIO(booklet.reading_pdf)) as document:
        page = document.pages[1]
        text = page.extract_text()
        card_edges = [r for r in page.rects if round(r["width"] / MM) == 36]
    assert "Nova" in text and "Grub" in text and "Pip" not in text
    assert len(card_edges) >= 2


def test_decklists_directive_prints_each_decklist_with_its_description(tmp_path):
    first = load_deck(make_deck(tmp_path, "x")).cards[0].id
    deck_text = DECK + f"""decklists:
  duel: {{name: Duel Deck, description: Two heroes and a villain., cards: {{{first}: 2}}}}
"""
    folder = make_deck(tmp_path, "# Decks\n\n{{ decklists }}\n", deck_text)
    deck = load_deck(folder)
    assert deck.decklists[0].description == "Two heroes and a villain."
    text = " ".join(pages_of(build_booklet(deck, "a4", renderer_factory=TinyRenderer).reading_pdf))
    assert "Duel Deck" in text and "Two heroes and a villain." in text


def test_a_choice_prints_alike_in_the_components_and_decklists_tables(tmp_path):
    """A choice is capitalised, never lower-cased: ``nightGoblin`` heads both tables as
    NightGoblin, as a card table prints it."""
    first = load_deck(make_deck(tmp_path, "x")).cards[0].id
    deck_text = DECK.replace("[Goblin, Fairy, Star]", "[nightGoblin, Fairy, Star]").replace(
        "kind: Goblin,", "kind: nightGoblin,") + f"""decklists:
  duel: {{name: Duel Deck, cards: {{{first}: 2}}}}
"""
    folder = make_deck(tmp_path, "# Decks\n\n{{ components by=kind }}\n\n{{ decklists by=kind }}\n", deck_text)
    text = " ".join(pages_of(build_booklet(load_deck(folder), "a4", renderer_factory=TinyRenderer).reading_pdf))
    assert text.count("NightGoblin") >= 2, text  # the components table, the decklists table
    assert "Nightgoblin" not in text


def test_a_deck_name_no_booklet_font_prints_is_refused_by_check_and_booklet(tmp_path):
    """Cards may print the name in a font of the deck's own; the cover would print a box."""
    deck_text = DECK.replace("name: Tiny Test Game", "name: Tiny \u235f Game").replace(
        "designer: A. Tester", "designer: A. \u235f Tester")
    folder = make_deck(tmp_path, "# Rules\n\nPlay.\n", deck_text)
    for command in ("check", "booklet"):
        arguments = [command, str(folder)] + (["--out", str(tmp_path / "out"), "--quiet"]
                                              if command == "booklet" else [])
        result = run_cli(*arguments)
        assert result.exit_code == 2, result.output
        lines = [line for line in result.output.splitlines() if "cover prints" in line]
        assert [line.split(": ", 2)[1] for line in lines][:1] == [f"{folder / 'deck.yaml'}:2:3"]
        assert "deck's name 'Tiny \u235f Game'" in lines[0] and "(U+235F)" in lines[0]
        assert "Traceback" not in result.output
    assert "deck's designer" in result.output  # the booklet names both, not only the first
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_bundled_booklet_names_only_fonts_it_embeds(tmp_path):
    """Tiki's rules have tables, an example box and a contents page: reportlab sets each table
    cell's font (Helvetica unless told) and would list it unembedded, which print shops refuse."""
    result = CliRunner().invoke(cli, ["booklet", "cards/tiki", "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    for name in ("tiki-rules.pdf", "tiki-rules-booklet.pdf"):
        embedded = fonts(PdfReader(tmp_path / name))
        assert embedded and all(embedded.values()), (name, embedded)


def test_an_example_box_may_hold_a_table_and_a_card_reference(tmp_path):
    """Both are kept together on the page outside a box; inside one (a single table cell)
    reportlab measured that as 16 million points tall, and the booklet was refused."""
    rules = ("# Setting up\n\n> **Example.** Three players set up like this:\n>\n"
             "> | Player | Cards |\n> |---|---|\n> | Ann | 5 |\n> | Bob | 4 |\n>\n"
             "> {{ cards id=grub,pip,dew,nova }}\n")
    result = build(tmp_path, rules)
    text = " ".join(pages_of(result.reading_pdf))
    assert "Ann 5" in text and "Bob 4" in text
    assert "grub/front" in text and "nova/front" in text


def test_the_progress_bar_goes_to_stderr_and_the_summary_to_stdout(tmp_path):
    """As with every other command: ``deckpress booklet > log`` keeps only what was written."""
    result = deckpress("booklet", "cards/tiki", "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "Rules booklets" in result.stderr and "Rules booklets" not in result.stdout
    assert result.stdout.startswith("tiki: ") and "-> " in result.stdout
