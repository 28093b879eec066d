"""Where each card prints: page, row and column on the sheets ``build`` makes by default.

The preview asks the sheet stage's own geometry (the grid ``plan_layout`` fits
and the pages ``plan_pages`` walks), so the page and slot it names are the ones
the print PDF and its manifest have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.boxes import Box
from generator.deck.model import Deck
from generator.render import Renderer
from generator.sheets.geometry import SheetLayout, SheetSettings, plan_layout, plan_pages
from generator.sheets.press import CopyIndex

MAX_LISTED_COPIES = 50
"""Copies of one card whose print positions are listed; a card printed more often than
this is shown with its first positions and a count, so the page stays small."""


@dataclass(repr=False, eq=False)
class Spot:
    """One face of one copy on the sheets: which page, which cell of its grid, its trim box."""

    page: int
    row: int
    column: int
    box: Box


@dataclass(repr=False, eq=False)
class PrintPlan:
    """The sheet grid and, per card id, where its first copies land (copy, front, back)."""

    layout: SheetLayout
    pages: int
    spots: dict[str, list[tuple[int, Spot, Spot]]]


def plan_print(deck: Deck, renderer: Renderer, settings: SheetSettings) -> PrintPlan:
    """Where every card's copies print; raises SheetSettingsError when the card fits no sheet."""
    layout = plan_layout(settings, renderer.card_size, renderer.bleed)
    grids = {"front": layout.slots, "back": tuple(layout.back_box(slot) for slot in layout.slots)}
    copies = CopyIndex(deck)
    found: dict[tuple[str, int], dict[str, Spot]] = {}
    pages = 0
    for page in plan_pages(layout, deck.total):
        pages = page.number
        for placement in page.placements:
            card, copy = copies.locate(placement.copy_index)
            if copy <= MAX_LISTED_COPIES:
                row, column = grid_cell(placement.box, grids[placement.face])
                found.setdefault((card.id, copy), {})[placement.face] = Spot(page.number, row, column,
                                                                              placement.box)
    spots: dict[str, list[tuple[int, Spot, Spot]]] = {}
    for (card_id, copy), faces in found.items():
        spots.setdefault(card_id, []).append((copy, faces["front"], faces["back"]))
    return PrintPlan(layout, pages, spots)


def grid_cell(box: Box, grid: tuple[Box, ...]) -> tuple[int, int]:
    """(row, column) of ``box`` among ``grid``'s boxes as seen on the page, from 1, top-left first."""
    columns = sorted({round(slot.x, 2) for slot in grid})
    rows = sorted({round(slot.top, 2) for slot in grid}, reverse=True)
    return rows.index(round(box.top, 2)) + 1, columns.index(round(box.x, 2)) + 1


def sheet_dict(plan: PrintPlan) -> dict[str, Any]:
    """The grid for drawing a small picture of a sheet: paper, front slots and where backs go."""
    layout = plan.layout
    return {
        "paper": {"name": layout.paper.name, "width": round(layout.paper.width, 2),
                  "height": round(layout.paper.height, 2)},
        "duplex": layout.duplex,
        "per_sheet": layout.cards_per_sheet,
        "pages": plan.pages,
        "fronts": [slot.rounded(2) for slot in layout.slots],
        "backs": [layout.back_box(slot).rounded(2) for slot in layout.slots],
        "fold_line": layout.fold_line,
    }


def spots_dict(plan: PrintPlan, card_id: str, count: int) -> dict[str, Any]:
    """Where one card's copies print, for the card's detail view."""
    def spot(value: Spot) -> dict[str, Any]:
        return {"page": value.page, "row": value.row, "column": value.column, "box": value.box.rounded(2)}

    listed = plan.spots.get(card_id, [])
    return {"copies": [{"copy": copy, "front": spot(front), "back": spot(back)} for copy, front, back in listed],
            "unlisted": max(0, count - len(listed))}
