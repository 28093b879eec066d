"""Sheet geometry without drawing: grids, duplex mirroring, page plans, crop marks, papers."""

import pytest

from generator.boxes import Box
from generator.sheets.geometry import SheetSettings, SheetSettingsError, plan_layout, plan_pages
from generator.sheets.marks import crop_marks, mark_room
from generator.sheets.style import MM, find_paper, load_style

STYLE = load_style()
POKER = (63 * MM, 88 * MM)


def paper(name="a4", orientation="portrait"):
    return find_paper(name, orientation, STYLE)


def layout(duplex="long", card=POKER, bleed=0.0, bleed_printed=False, **settings):
    sheet = settings.pop("paper", paper())
    return plan_layout(SheetSettings(paper=sheet, duplex=duplex, bleed=bleed_printed, **settings), card, bleed)


def test_paper_sizes_in_points():
    a4, letter = paper("a4"), paper("letter")
    assert (round(a4.width, 2), round(a4.height, 2)) == (595.28, 841.89)
    assert (letter.width, letter.height) == (612, 792)
    landscape = paper("a4", "landscape")
    assert (round(landscape.width, 2), round(landscape.height, 2)) == (841.89, 595.28)
    assert landscape.orientation == "landscape"


def test_custom_paper_sizes_take_units_and_default_to_millimetres():
    assert paper("200x280").width == pytest.approx(200 * MM)
    legal_ish = paper("8.5x14in", "landscape")
    assert (legal_ish.width, legal_ish.height) == (14 * 72, 8.5 * 72)
    with pytest.raises(ValueError, match="unknown paper 'a9'"):
        paper("a9")


def test_poker_cards_on_a4_make_a_centred_three_by_three_grid():
    grid = layout()
    assert grid.cards_per_sheet == 9
    xs = sorted({round(box.x, 3) for box in grid.slots})
    ys = sorted({round(box.y, 3) for box in grid.slots})
    assert len(xs) == 3 and len(ys) == 3
    left = min(box.x for box in grid.slots)
    right = grid.paper.width - max(box.right for box in grid.slots)
    bottom = min(box.y for box in grid.slots)
    top = grid.paper.height - max(box.top for box in grid.slots)
    assert left == pytest.approx(right) and bottom == pytest.approx(top)
    # reading order: first slot top-left, then along the row
    assert grid.slots[0].x == pytest.approx(left) and grid.slots[0].top == pytest.approx(grid.paper.height - top)
    assert grid.slots[1].y == grid.slots[0].y and grid.slots[1].x > grid.slots[0].x


def test_landscape_and_letter_grids():
    assert layout(paper=paper("a4", "landscape")).cards_per_sheet == 8  # 4 across, 2 down
    assert layout(paper=paper("letter")).cards_per_sheet == 9


def test_gutter_and_bleed_keep_cards_apart_and_inside_the_margins():
    grid = layout(gutter=4 * MM, margin=5 * MM)
    assert grid.slots[1].x - grid.slots[0].right == pytest.approx(4 * MM)
    with_bleed = plan_layout(SheetSettings(paper=paper(), bleed=True, gutter=2 * MM), POKER, 3 * MM)
    assert with_bleed.bleed == 3 * MM
    for first, second in zip(with_bleed.slots, with_bleed.slots[1:], strict=False):
        if first.y == second.y:
            assert second.x - first.right >= 6 * MM - 1e-9  # two bleeds, never overlapping
    for box in with_bleed.slots:
        outer = box.grown(3 * MM)
        assert outer.x >= 5 * MM - 1e-9 and outer.right <= with_bleed.paper.width - 5 * MM + 1e-9


@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("gutter_mm", [0, 2, 6, 9])
def test_the_gutter_widens_so_no_bleed_prints_over_a_neighbour(duplex, orientation, gutter_mm):
    bleed = 3 * MM
    grid = layout(duplex, bleed=bleed, paper=paper("a4", orientation), gutter=gutter_mm * MM,
                  bleed_printed=True)
    columns = sorted({round(box.x, 6) for box in grid.slots})
    if len(columns) > 1:  # neighbours are the wider of the gutter and two bleeds apart
        assert columns[1] - columns[0] - POKER[0] == pytest.approx(max(gutter_mm * MM, 2 * bleed))
    for page in plan_pages(grid, 3 * grid.cards_per_sheet - 1):
        outer = [placement.box.grown(bleed) for placement in page.placements]
        for index, box in enumerate(outer):
            assert 0 <= box.x and box.right <= grid.paper.width and 0 <= box.y and box.top <= grid.paper.height
            assert not any(box.overlaps(other) for other in outer[index + 1:]), (page.number, box)


def test_bleed_is_only_printed_when_asked_for():
    assert layout(bleed=3 * MM).bleed == 0.0


def test_long_edge_backs_mirror_columns_on_portrait_paper():
    grid = layout("long")
    width = grid.paper.width
    for front in grid.slots:
        back = grid.back_box(front)
        assert (back.x, back.y) == pytest.approx((width - front.x - front.width, front.y))


def test_short_edge_backs_mirror_rows_on_portrait_paper():
    grid = layout("short")
    height = grid.paper.height
    for front in grid.slots:
        back = grid.back_box(front)
        assert (back.x, back.y) == pytest.approx((front.x, height - front.y - front.height))


def test_on_landscape_paper_the_long_edge_runs_across():
    grid = layout("long", paper=paper("a4", "landscape"))
    front = grid.slots[0]
    back = grid.back_box(front)
    assert (back.x, back.y) == pytest.approx((front.x, grid.paper.height - front.y - front.height))


def test_back_offset_is_added_after_mirroring():
    offset = (1.5 * MM, -0.75 * MM)
    plain, shifted = layout("long"), layout("long", back_offset=offset)
    for front in plain.slots:
        expected = plain.back_box(front).shifted(*offset)
        assert shifted.back_box(front) == pytest.approx(expected)
        assert shifted.back_box(front).x == pytest.approx(plain.paper.width - front.right + offset[0])


def test_fold_puts_fronts_and_backs_on_one_page_mirrored_about_the_fold():
    grid = layout("fold")
    height = grid.paper.height
    x0, y0, x1, y1 = grid.fold_line
    assert y0 == y1 == pytest.approx(height / 2)  # A4 portrait folds across its long side
    backs = [grid.back_box(front) for front in grid.slots]
    for front, back in zip(grid.slots, backs, strict=True):
        assert back == Box(front.x, height - front.y - front.height, front.width, front.height)
        assert front.y > height / 2 and back.top < height / 2
    assert not any(front.overlaps(back) for front in grid.slots for back in backs)


def test_fold_on_landscape_paper_folds_upright():
    grid = layout("fold", paper=paper("a4", "landscape"))
    assert grid.mirror == "x" and grid.cards_per_sheet == 4
    front = grid.slots[0]
    assert grid.back_box(front).x == pytest.approx(grid.paper.width - front.right)


def test_long_mode_pages_alternate_fronts_and_their_backs():
    grid = layout("long")
    pages = list(plan_pages(grid, 20))
    assert [page.role for page in pages] == ["fronts", "backs"] * 3
    assert [page.number for page in pages] == [1, 2, 3, 4, 5, 6]
    assert [len(page.placements) for page in pages] == [9, 9, 9, 9, 2, 2]
    for fronts, backs in zip(pages[::2], pages[1::2], strict=True):
        assert [p.copy_index for p in fronts.placements] == [p.copy_index for p in backs.placements]
        assert {p.face for p in backs.placements} == {"back"}
    assert [p.copy_index for page in pages[::2] for p in page.placements] == list(range(20))


def test_none_mode_puts_all_backs_at_the_end_where_their_fronts_stood():
    grid = layout("none")
    pages = list(plan_pages(grid, 12))
    assert [page.role for page in pages] == ["fronts", "fronts", "backs", "backs"]
    for front_page, back_page in zip(pages[:2], pages[2:], strict=True):
        assert [p.box for p in front_page.placements] == [p.box for p in back_page.placements]


def test_fold_mode_has_one_page_per_sheet():
    grid = layout("fold")
    pages = list(plan_pages(grid, 7))
    assert len(pages) == grid.page_count(7) == 3
    assert [sorted({p.face for p in page.placements}) for page in pages] == [["back", "front"]] * 3


def test_a_card_larger_than_the_paper_cannot_be_laid_out():
    with pytest.raises(SheetSettingsError, match=r"a 250.0 x 300.0 mm card does not fit on A4 portrait"):
        layout(card=(250 * MM, 300 * MM))


def test_crop_marks_stay_in_the_margins_clear_of_cards_edges_and_footer():
    for duplex in ("long", "fold"):
        grid = layout(duplex, gutter=3 * MM)
        room = mark_room(grid.front_area, grid.paper.width, grid.paper.height, STYLE.marks,
                         STYLE.footer.top)
        marks = crop_marks(grid.slots, grid.bleed, room, STYLE.marks)
        assert marks
        for x0, y0, x1, y1 in marks:
            segment = Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
            assert not any(segment.overlaps(slot.grown(0.01)) for slot in grid.slots)
            assert STYLE.marks.edge - 1e-9 <= min(x0, x1) and max(x0, x1) <= grid.paper.width - STYLE.marks.edge + 1e-9
            assert min(y0, y1) >= STYLE.footer.top - 1e-9
        # every cut position has its marks
        cut_xs = {round(v, 3) for slot in grid.slots for v in (slot.x, slot.right)}
        assert cut_xs <= {round(x0, 3) for x0, _, x1, _ in marks if x0 == x1}
