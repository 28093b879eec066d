"""Building a deck's PDF and manifest, then reading both back as a printer or cutter would."""

import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress
from pypdf import PdfReader
from sheets_support import FrameRenderer, embedded_fonts, numbered_deck, placed_forms, read_manifest, write_deck

from generator.deck.model import load_deck
from generator.errors import LayoutError
from generator.sheets.geometry import SheetSettings
from generator.sheets.press import CopyIndex, press_deck
from generator.sheets.style import MM, find_paper, load_style

STYLE = load_style()


def build(deck, out: Path, duplex="long", paper="a4", orientation="portrait", renderer=None, **settings):
    sheet = find_paper(paper, orientation, STYLE)
    result = press_deck(deck, renderer or FrameRenderer(deck), SheetSettings(paper=sheet, duplex=duplex, **settings),
                        out, STYLE)
    return result, read_manifest(result.manifest)


@pytest.fixture
def mixed_deck(tmp_path):
    """Eleven cards in 23 copies: most share a back, two have backs of their own."""
    cards = [{"name": f"Monster {n}", "count": 2} for n in range(1, 10)]
    cards += [{"name": "Goblin", "count": 3, "back": "Fairy"}, {"name": "Troll", "count": 2, "back": "Pixie"}]
    return load_deck(write_deck(tmp_path / "deck", cards))


def boxes_by_page(manifest, face):
    return [(p["page"], p["trim_box"]) for p in manifest["placements"] if p["face"] == face]


def test_manifest_lists_every_face_of_every_copy_with_its_settings(mixed_deck, tmp_path):
    result, manifest = build(mixed_deck, tmp_path / "out")
    assert result.pdf == tmp_path / "out" / "deck.pdf" and result.manifest.name == "deck.json"
    assert manifest["paper"] == {"name": "a4", "orientation": "portrait", "width": 595.276, "height": 841.89}
    assert manifest["card_size"] == [178.583, 249.449]
    assert manifest["duplex"] == "long" and manifest["back_offset"] == [0.0, 0.0]
    placements = manifest["placements"]
    assert len(placements) == 2 * 23 == 2 * manifest["cards"]
    goblin_backs = [p for p in placements if p["card"] == "c10" and p["face"] == "back"]
    assert [p["copy"] for p in goblin_backs] == [1, 2, 3]
    assert {p["title"] for p in goblin_backs} == {"Fairy"}
    assert goblin_backs[0]["fields"] == {"name": "Fairy"}
    assert {p["title"] for p in placements if p["card"] == "c1" and p["face"] == "back"} == {"Shared Back"}
    assert len(PdfReader(result.pdf).pages) == manifest["pages"] == 6


def test_every_title_is_printed_inside_its_manifest_box(mixed_deck, tmp_path):
    result, manifest = build(mixed_deck, tmp_path / "out", duplex="short")
    with pdfplumber.open(result.pdf) as pdf:
        for placement in manifest["placements"]:
            page = pdf.pages[placement["page"] - 1]
            x, y, width, height = placement["trim_box"]
            inside = page.within_bbox((x, page.height - y - height, x + width, page.height - y))
            assert inside.extract_text().strip() == placement["title"], placement


@pytest.mark.parametrize("duplex", ["long", "short", "fold"])
def test_each_back_lies_exactly_behind_its_front(mixed_deck, tmp_path, duplex):
    result, manifest = build(mixed_deck, tmp_path / duplex, duplex=duplex)
    width, height = manifest["paper"]["width"], manifest["paper"]["height"]
    fronts = {(p["card"], p["copy"]): p for p in manifest["placements"] if p["face"] == "front"}
    for back in (p for p in manifest["placements"] if p["face"] == "back"):
        front = fronts[(back["card"], back["copy"])]
        x, y, w, h = front["trim_box"]
        expected = {"long": (width - x - w, y), "short": (x, height - y - h), "fold": (x, height - y - h)}[duplex]
        assert back["trim_box"][:2] == pytest.approx(expected, abs=0.002)
        assert back["page"] == front["page"] + (0 if duplex == "fold" else 1)


def seen_after_turning(duplex, orientation):
    """Which axes are swapped, in total, when a printed card is turned to look at its back.

    Written out physically, independently of the product: a duplex sheet turns
    over its long edge (upright on portrait paper: left and right swap); a
    sheet folded across (portrait) swaps top and bottom, folded upright
    (landscape) left and right; then the cut card is turned over sideways,
    swapping left and right once more.
    """
    sheet = {("long", "portrait"): "x", ("long", "landscape"): "y",
             ("fold", "portrait"): "y", ("fold", "landscape"): "x"}[(duplex, orientation)]
    swaps = [sheet, "x"]
    return swaps.count("x") % 2 == 1, swaps.count("y") % 2 == 1


@pytest.mark.parametrize("duplex, orientation", [("long", "portrait"), ("fold", "portrait"),
                                                  ("fold", "landscape")])
def test_a_card_turned_over_sideways_shows_its_back_upright(mixed_deck, tmp_path, duplex, orientation):
    result, manifest = build(mixed_deck, tmp_path / "out", duplex=duplex, orientation=orientation)
    swap_x, swap_y = seen_after_turning(duplex, orientation)
    backs = [p for p in manifest["placements"] if p["face"] == "back" and p["page"] <= 2]
    assert {p["rotation"] for p in backs} == {180 if (duplex, orientation) == ("fold", "portrait") else 0}
    with pdfplumber.open(result.pdf) as pdf:
        for back in backs:
            page = pdf.pages[back["page"] - 1]
            x, y, width, height = back["trim_box"]
            centre_x, centre_y = x + width / 2, y + height / 2
            chars = [char for char in page.chars if x <= (char["x0"] + char["x1"]) / 2 <= x + width
                     and y <= page.height - (char["top"] + char["bottom"]) / 2 <= y + height]
            assert "".join(char["text"] for char in chars) == back["title"]
            seen = []
            for char in chars:
                a, b = char["matrix"][:2]  # the direction the text runs on the page
                seen_direction = (-a if swap_x else a, -b if swap_y else b)
                assert seen_direction[0] > 0 and abs(seen_direction[1]) < 1e-6, (back, char["matrix"])
                char_x = (char["x0"] + char["x1"]) / 2 - centre_x
                char_y = page.height - (char["top"] + char["bottom"]) / 2 - centre_y
                seen.append((-char_x if swap_x else char_x, -char_y if swap_y else char_y))
            # letters run left to right, standing on the card's middle line as the renderer draws them
            assert [sx for sx, _ in seen] == sorted(sx for sx, _ in seen)
            assert all(sy > 0 for _, sy in seen), back


def test_the_pdf_places_faces_exactly_where_the_manifest_says(mixed_deck, tmp_path):
    result, manifest = build(mixed_deck, tmp_path / "out", back_offset=(1 * MM, -2 * MM))
    placed = placed_forms(result.pdf)
    for page_number, page in enumerate(placed, start=1):
        expected = [v for p in manifest["placements"] if p["page"] == page_number for v in p["trim_box"][:2]]
        assert [v for _, x, y in page for v in (x, y)] == pytest.approx(expected, abs=0.001)


def test_back_offset_shifts_backs_only(mixed_deck, tmp_path):
    _, plain = build(mixed_deck, tmp_path / "plain")
    _, shifted = build(mixed_deck, tmp_path / "shifted", back_offset=(1.5 * MM, -0.5 * MM))
    assert shifted["back_offset_mm"] == [1.5, -0.5]
    for before, after in zip(plain["placements"], shifted["placements"], strict=True):
        dx, dy = (1.5 * MM, -0.5 * MM) if before["face"] == "back" else (0, 0)
        assert after["trim_box"][0] == pytest.approx(before["trim_box"][0] + dx, abs=0.002)
        assert after["trim_box"][1] == pytest.approx(before["trim_box"][1] + dy, abs=0.002)


def test_none_mode_prints_fronts_then_backs_at_the_end(mixed_deck, tmp_path):
    result, manifest = build(mixed_deck, tmp_path / "out", duplex="none")
    faces = [{p["face"] for p in manifest["placements"] if p["page"] == n} for n in range(1, 7)]
    assert faces == [{"front"}] * 3 + [{"back"}] * 3


@pytest.mark.parametrize("paper, orientation, size", [
    ("a4", "portrait", (595.28, 841.89)),
    ("letter", "portrait", (612, 792)),
    ("a4", "landscape", (841.89, 595.28)),
    ("letter", "landscape", (792, 612)),
])
def test_page_sizes(mixed_deck, tmp_path, paper, orientation, size):
    result, _ = build(mixed_deck, tmp_path / "out", paper=paper, orientation=orientation)
    for page in PdfReader(result.pdf).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(size, abs=0.005)


@pytest.mark.parametrize("duplex", ["long", "fold"])
def test_crop_marks_stay_outside_every_card(mixed_deck, tmp_path, duplex):
    result, manifest = build(mixed_deck, tmp_path / "out", duplex=duplex, gutter=4 * MM)
    with pdfplumber.open(result.pdf) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            boxes = [p["trim_box"] for p in manifest["placements"] if p["page"] == number]
            marks = page.lines  # the test renderer draws rectangles; lines are marks and the fold
            assert len(marks) > 10, "no crop marks found"
            for line in marks:
                x0, x1 = line["x0"], line["x1"]
                y0, y1 = page.height - line["bottom"], page.height - line["top"]
                for x, y, w, h in boxes:  # not even touching a card: at least 1 pt away
                    apart = x1 < x - 1 or x0 > x + w + 1 or y1 < y - 1 or y0 > y + h + 1
                    assert apart, (number, (x0, y0, x1, y1), (x, y, w, h))


@pytest.mark.parametrize("duplex", ["long", "fold"])
def test_a_part_filled_last_page_marks_only_the_cuts_of_its_cards(tmp_path, duplex):
    deck = numbered_deck(tmp_path / "deck", distinct=5, copies=2)  # 10 cards: 9 + 1 (long), 3 + 3 + 3 + 1 (fold)
    result, manifest = build(deck, tmp_path / "out", duplex=duplex, gutter=4 * MM)
    assert manifest["cards"] % manifest["cards_per_sheet"] == 1

    def marked_cuts(page):
        """The x of every upright crop mark and the y of every level one (a crop mark is at most 5 mm)."""
        marks = [line for line in page.lines if max(line["width"], line["height"]) <= 5 * MM + 0.01]
        return ({round(line["x0"], 1) for line in marks if line["width"] < 0.01},
                {round(page.height - line["top"], 1) for line in marks if line["height"] < 0.01})

    def card_cuts(number):
        boxes = [p["trim_box"] for p in manifest["placements"] if p["page"] == number]
        return ({round(v, 1) for x, _, w, _ in boxes for v in (x, x + w)},
                {round(v, 1) for _, y, _, h in boxes for v in (y, y + h)})

    with pdfplumber.open(result.pdf) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            assert marked_cuts(page) == card_cuts(number), number
        last_fronts = card_cuts(len(pdf.pages) - (1 if duplex == "long" else 0))
    assert len(last_fronts[0]) == 2  # one card: one pair of upright cuts, not the whole grid's


def test_all_fonts_are_embedded(mixed_deck, tmp_path):
    result, _ = build(mixed_deck, tmp_path / "out")
    fonts = embedded_fonts(result.pdf)
    assert fonts and all(fonts.values()), fonts


def test_two_builds_are_byte_identical(mixed_deck, tmp_path):
    first, _ = build(mixed_deck, tmp_path / "one", duplex="fold", cut_lines=True)
    second, _ = build(mixed_deck, tmp_path / "two", duplex="fold", cut_lines=True)
    assert first.pdf.read_bytes() == second.pdf.read_bytes()
    assert first.manifest.read_bytes() == second.manifest.read_bytes()


def test_faces_are_drawn_once_and_copies_cost_little(tmp_path):
    """A shared back is one form however many cards use it; a copy adds only a placement."""
    small, _ = build(numbered_deck(tmp_path / "small", 3, 30), tmp_path / "small-out")
    large, _ = build(numbered_deck(tmp_path / "large", 3, 330), tmp_path / "large-out")
    forms = [page for page in placed_forms(large.pdf)]
    assert len({name for page in forms for name, _, _ in page}) == 3 + 1  # three fronts, one back
    per_copy = (large.pdf.stat().st_size - small.pdf.stat().st_size) / (990 - 90)
    assert per_copy < 300


def test_a_failed_build_leaves_no_file(mixed_deck, tmp_path):
    class Breaking(FrameRenderer):
        def draw(self, canvas, card, side, bleed=False):
            if card.id == "c11":
                raise LayoutError("the troll does not fit")
            super().draw(canvas, card, side, bleed)

    out = tmp_path / "out"
    with pytest.raises(LayoutError):
        build(mixed_deck, out, renderer=Breaking(mixed_deck))
    assert not out.exists() or list(out.iterdir()) == []


def test_a_failed_build_keeps_the_previous_files(mixed_deck, tmp_path):
    out = tmp_path / "out"
    result, _ = build(mixed_deck, out)
    before = result.pdf.read_bytes()

    def stop(page):
        if page.number == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        press_deck(mixed_deck, FrameRenderer(mixed_deck),
                   SheetSettings(paper=find_paper("a4", "portrait", STYLE), duplex="short"), out, STYLE,
                   on_page=stop)
    assert result.pdf.read_bytes() == before
    assert sorted(path.name for path in out.iterdir()) == ["deck.json", "deck.pdf"]


def test_bleed_cut_lines_and_fold_render_cleanly(mixed_deck, tmp_path):
    """poppler reads every page without complaint (a strict check of the hand-written PDF)."""
    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils not installed")
    result, manifest = build(mixed_deck, tmp_path / "out", duplex="fold", bleed=True, cut_lines=True)
    assert manifest["bleed"] == pytest.approx(3 * MM, abs=0.001)
    run = subprocess.run(["pdftoppm", "-r", "10", "-png", str(result.pdf), str(tmp_path / "page")],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == ""
    assert len(list(tmp_path.glob("page-*.png"))) == manifest["pages"]


@pytest.mark.parametrize("orientation, where", [("portrait", "fronts above, backs below"),
                                                ("landscape", "fronts left, backs right")])
def test_the_footer_names_deck_page_contents_and_mode(mixed_deck, tmp_path, orientation, where):
    result, manifest = build(mixed_deck, tmp_path / "out", duplex="fold", orientation=orientation)
    with pdfplumber.open(result.pdf) as pdf:
        footer = pdf.pages[1].within_bbox((0, pdf.pages[1].height - 20, pdf.pages[1].width,
                                           pdf.pages[1].height)).extract_text()
    assert footer == (f"Test Deck · page 2 of {manifest['pages']} · {where}: fold on the dashed line "
                      "· fold and glue, no duplex")


def test_a_footer_folded_down_the_middle_stays_on_the_fronts_half(mixed_deck, tmp_path):
    """A landscape fold runs up the middle of the page: the label is centred under the fronts,
    so the fold neither cuts it in two nor glues half of it inside the card."""
    result, manifest = build(mixed_deck, tmp_path / "out", duplex="fold", orientation="landscape")
    with pdfplumber.open(result.pdf) as pdf:
        for page in pdf.pages:
            footer = footer_chars(page)
            assert footer and max(char["x1"] for char in footer) < page.width / 2 - 5 * MM
            assert min(char["x0"] for char in footer) > 5 * MM
            middle = (min(char["x0"] for char in footer) + max(char["x1"] for char in footer)) / 2
            assert middle == pytest.approx(page.width / 4, abs=1)


def footer_chars(page) -> list[dict]:
    """The footer's characters on a pdfplumber page: the only text no larger than its size (titles are 9 pt)."""
    return [char for char in page.chars if char["size"] <= STYLE.footer.size + 0.01]


def reaches_into(char: dict, page_height: float, box: list[float], bleed: float) -> bool:
    """Whether a character's box overlaps a trim box (x, y, width, height; grown by ``bleed``)."""
    x, y, width, height = box
    return (char["x0"] < x + width + bleed and char["x1"] > x - bleed
            and page_height - char["top"] > y - bleed and page_height - char["bottom"] < y + height + bleed)


# A4's width, just tall enough for three rows of 63 x 88 mm cards: the cards come down to the
# 5 mm margin, where the footer's line (baseline 4 mm, 6 pt) used to print over them.
FULL_HEIGHT = {"long": ("210x274mm", False), "short": ("210x274mm", False), "none": ("210x274mm", False),
               "bleed": ("210x292mm", True)}  # with bleed: three rows with gutters, their bleed at 5 mm


@pytest.mark.parametrize("case", FULL_HEIGHT)
def test_the_footer_never_prints_over_a_card_of_a_grid_that_fills_the_page(mixed_deck, tmp_path, case):
    paper, bleed = FULL_HEIGHT[case]
    duplex = "long" if case == "bleed" else case
    result, manifest = build(mixed_deck, tmp_path / "out", duplex=duplex, paper=paper, bleed=bleed)
    lowest = 5 * MM + (manifest["bleed"] if bleed else 0.0)
    boxes = {}
    for placement in manifest["placements"]:
        boxes.setdefault(placement["page"], []).append(placement["trim_box"])
    assert min(box[1] for page in boxes.values() for box in page) == pytest.approx(lowest, abs=0.01)
    missing = []
    with pdfplumber.open(result.pdf) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            footer = footer_chars(page)
            missing += [] if footer else [number]
            for char in footer:
                assert not any(reaches_into(char, page.height, box, manifest["bleed"]) for box in boxes[number]), \
                    (number, char["text"])
            bottom_row = min(box[1] for box in boxes[number]) < 10 * MM
            # too little room under the bottom row even at the smallest size: no footer on that page;
            # a last sheet whose bottom row is empty keeps it, whole, in its usual type and place
            assert bool(footer) != bottom_row, number
            if footer:
                assert {round(char["size"], 2) for char in footer} == {STYLE.footer.size}
                assert page.extract_text().splitlines()[-1].startswith(f"Test Deck · page {number} of ")
    assert len(boxes) == manifest["pages"]
    assert result.pages_without_footer == tuple(missing) != ()  # what the build tells the designer


def test_a_build_says_which_pages_print_without_their_footer_and_how_to_keep_it(tmp_path):
    deck = tmp_path / "cards" / "tall"
    assert deckpress("new", "tall", "--dir", tmp_path / "cards").exit_code == 0
    layout = deck / "layout.yaml"
    layout.write_text(layout.read_text().replace("size: poker", "size: [63mm, 95.6mm]"))
    run = deckpress("build", deck, "--out", tmp_path / "out")
    assert run.exit_code == 0, run.stderr
    assert ("note: no footer (page number, how to flip) on pages 1-6: the cards leave it no room; "
            "a larger --margin keeps it") in run.stdout.splitlines()
    roomy = deckpress("build", deck, "--out", tmp_path / "out", "--margin", "6.2")
    assert roomy.exit_code == 0 and "no footer" not in roomy.stdout


def test_a_footer_with_a_little_room_under_the_cards_is_set_smaller_below_them(mixed_deck, tmp_path):
    margin = 5.8 * MM  # the cards' lower edge, 1.8 mm above the baseline: room for 5.1 pt, not 6 pt
    result, manifest = build(mixed_deck, tmp_path / "out", paper=f"210x{3 * 88 + 2 * 5.8:g}mm")
    with pdfplumber.open(result.pdf) as pdf:
        page = pdf.pages[0]
        footer = footer_chars(page)
        text = page.extract_text().splitlines()[-1]
    assert text == f"Test Deck · page 1 of {manifest['pages']} · fronts · duplex: flip on long edge"
    sizes = {round(char["size"], 2) for char in footer}
    assert sizes == {round(margin - STYLE.footer.baseline, 2)} and STYLE.footer.smallest < min(sizes) < 6
    assert max(page.height - char["top"] for char in footer) < margin  # letters below the cards
    assert [char["matrix"][5] for char in footer] == pytest.approx([STYLE.footer.baseline] * len(footer),
                                                                   abs=0.001)  # on its usual line


def test_copies_are_found_in_any_order_the_pages_ask_for_them(tmp_path):
    deck = load_deck(write_deck(tmp_path / "deck", [{"name": "Ant", "count": 3}, {"name": "Skipped", "count": 0},
                                                    {"name": "Bee", "count": 2}, {"name": "Cat", "count": 1}]))
    copies = CopyIndex(deck)
    asked = [0, 1, 2, 3, 4, 5, 0, 4, 3, 2, 5, 1]
    found = [(card.id, copy) for card, copy in map(copies.locate, asked)]
    expected = {0: ("c1", 1), 1: ("c1", 2), 2: ("c1", 3), 3: ("c3", 1), 4: ("c3", 2), 5: ("c4", 1)}
    assert found == [expected[index] for index in asked]
    with pytest.raises(IndexError):
        copies.locate(6)


def test_repeated_pages_of_many_copies_list_every_copy_once_in_its_slot(tmp_path):
    deck = numbered_deck(tmp_path / "deck", distinct=2, copies=40)
    result, manifest = build(deck, tmp_path / "out")
    fronts = [p for p in manifest["placements"] if p["face"] == "front"]
    assert [(p["card"], p["copy"]) for p in fronts] == [(card, copy) for card in ("c1", "c2")
                                                        for copy in range(1, 41)]
    slots = {tuple(p["trim_box"]) for p in fronts}
    assert len(slots) == 9
    assert [tuple(p["trim_box"]) for p in fronts[9:18]] == [tuple(p["trim_box"]) for p in fronts[:9]]
    assert [p["page"] for p in fronts[::9]] == list(range(1, 2 * 9 + 1, 2))
