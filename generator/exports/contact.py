"""The contact sheet: every card of a deck at a glance, in one PNG.

Each different card's front is drawn small in a grid, with its name and how
many copies the deck holds underneath; the deck ends with one tile for each
back its cards share (see :mod:`~generator.exports.backs`). A card with a back
of its own (a double-sided card) shows its front and back side by side. The
sheet is drawn as vectors (faces keep their real fonts) and rasterised in
bands, so a deck of thousands of cards never makes one huge document or
bitmap; past :data:`MAX_CONTACT_PIXELS` it is drawn coarser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import Card
from generator.errors import plural
from generator.exports.backs import sort_backs
from generator.exports.printed import printed_cards
from generator.exports.raster import fitting_dpi, pixels, rasterise_bands
from generator.render import Renderer

CONTACT_DPI = 96
"""Resolution of the contact sheet: names readable, the file small."""
THUMB_SCALE = 0.75
"""Cards are drawn at three quarters of their printed size."""
MARGIN = 18.0
GAP = 10.0
PAIR_GAP = 3.0
"""Between the front and the back of one double-sided card."""
HEADER_HEIGHT = 38.0
CAPTION_HEIGHT = 24.0
TARGET_ASPECT = 4 / 3
"""The grid gets as many columns as make the sheet about this wide for its height."""
MAX_COLUMNS = 10
MAX_CONTACT_PIXELS = 16_000_000
"""The largest contact sheet (4,000 x 4,000 pixels, 48 MB as RGB): every card of 400 at 96 dpi.
A larger deck's sheet is drawn at a lower resolution: an overview, not a failure."""
BAND_PIXELS = 4_000_000
"""Pixels rendered at once at most (16 MB of bitmap), unless one row of tiles is more."""
BAND_TILE_ROWS = 8
"""Rows of tiles drawn at once at most: a band's page holds some eighty small faces. A sheet
within both bounds is one page, as it always was."""

BACKGROUND = HexColor("#ECEAE6")
EDGE = HexColor("#9A968F")
INK = HexColor("#222222")
MUTED = HexColor("#5B5852")
NAME_FONT, NAME_SIZE, NAME_MIN_SIZE = "Vera-Bold", 8.0, 5.5
COUNT_FONT, COUNT_SIZE = "Vera", 7.0
HEADER_FONT, HEADER_SIZE = "Vera-Bold", 14.0
NOTE_FONT, NOTE_SIZE, NOTE_MIN_SIZE = "Vera", 9.0, 6.0


@dataclass(repr=False, eq=False)
class Tile:
    """One cell of the sheet: the faces to draw (left to right) and the two caption lines under them."""

    card: Card
    sides: tuple[str, ...]
    name: str
    count: str


@dataclass(repr=False, eq=False)
class Grid:
    """Where the tiles go, in points from the sheet's top-left corner."""

    columns: int
    rows: int
    thumb: tuple[float, float]  # the drawn faces of one tile: width (all of them) and height

    @property
    def cell(self) -> tuple[float, float]:
        width, height = self.thumb
        return (width + GAP, height + CAPTION_HEIGHT + GAP)

    @property
    def size(self) -> tuple[float, float]:
        cell_width, cell_height = self.cell
        return (2 * MARGIN + self.columns * cell_width - GAP,
                2 * MARGIN + HEADER_HEIGHT + self.rows * cell_height - GAP)

    def origin(self, index: int) -> tuple[float, float]:
        """Top-left corner of tile ``index``'s card, in points from the sheet's top-left."""
        row, column = divmod(index, self.columns)
        cell_width, cell_height = self.cell
        return (MARGIN + column * cell_width, MARGIN + HEADER_HEIGHT + row * cell_height)


def contact_tiles(renderer: Renderer) -> list[Tile]:
    """Every printed card's front in deck order, then each back cards share.

    A card with a back of its own (a double-sided card) has its front and back side by side in
    its tile; a card with a shared back shows only its front, the back being its own tile.
    """
    deck = renderer.deck
    printed = printed_cards(deck)
    backs = sort_backs(renderer, printed)
    own = {card.id for card in backs.own}
    tiles = []
    for card in printed:
        sides = ("front", "back") if card.id in own else ("front",)
        tiles.append(Tile(card, sides, _caption(renderer, card, sides), plural(card.count, "copy", "copies")))
    for back in backs.shared:
        backed = sum(card.count for card in back.cards)
        who = f"all {backed} cards" if backed == deck.total else f"{backed} cards"
        title = renderer.title(back.card, "back")
        name = "Back" if len(backs.shared) == 1 else f"Back: {title}" if title else "Back"
        tiles.append(Tile(back.card, ("back",), name, who))
    return tiles


def _caption(renderer: Renderer, card: Card, sides: tuple[str, ...]) -> str:
    """The titles of the faces shown ("Dusty Dour / Candy Rock"), or the card id if none has one."""
    titles = [renderer.title(card, side) for side in sides]
    shown = [title for index, title in enumerate(titles) if title and title not in titles[:index]]
    return " / ".join(shown) or card.id


def plan_grid(tile_count: int, card_size: tuple[float, float], faces_per_tile: int = 1) -> Grid:
    """A grid about TARGET_ASPECT wide for its height, no wider than MAX_COLUMNS."""
    width, height = card_size[0] * THUMB_SCALE, card_size[1] * THUMB_SCALE
    thumb = (faces_per_tile * width + (faces_per_tile - 1) * PAIR_GAP, height)
    cell_width, cell_height = thumb[0] + GAP, thumb[1] + CAPTION_HEIGHT + GAP
    columns = math.ceil(math.sqrt(tile_count * TARGET_ASPECT * cell_height / cell_width))
    columns = max(1, min(columns, MAX_COLUMNS, tile_count))
    rows = math.ceil(tile_count / columns)
    return Grid(columns, rows, thumb)


def fitted_line(text: str, font: str, size: float, min_size: float, width: float) -> tuple[str, float]:
    """``text`` at the largest size from ``size`` down to ``min_size`` that fits ``width``;
    still too long at the smallest, it is cut and ends with an ellipsis."""
    while size > min_size and stringWidth(text, font, size) > width:
        size = max(min_size, size - 0.5)
    if stringWidth(text, font, size) <= width:
        return text, size
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…", size


def contact_sheet(renderer: Renderer, dpi: float = CONTACT_DPI, seen_as: str | None = None) -> Image.Image:
    """The deck's contact sheet as an RGB image; ``seen_as`` names the colour-vision deficiency
    its colours will be shown as, which the header then says."""
    tiles = contact_tiles(renderer)
    grid = plan_grid(len(tiles), renderer.card_size, max(len(tile.sides) for tile in tiles))
    size_pt = grid.size
    dpi = fitting_dpi(size_pt, dpi, MAX_CONTACT_PIXELS)  # a huge deck or card gives a coarser sheet, not a failure
    size_px = (pixels(size_pt[0], dpi), pixels(size_pt[1], dpi))
    return rasterise_bands(lambda canvas, top, bottom: _draw_sheet(canvas, renderer, tiles, grid, seen_as, top, bottom),
                           size_pt, size_px, band_breaks(grid, size_px))


def band_breaks(grid: Grid, size_px: tuple[int, int]) -> list[int]:
    """Rows of pixels where the sheet's bands start: in the gaps between rows of tiles, so that
    no tile is drawn twice, every :data:`BAND_TILE_ROWS` rows of tiles or sooner, to keep a
    band within :data:`BAND_PIXELS`."""
    width_px, height_px = size_px
    scale = height_px / grid.size[1]
    cell_height = grid.cell[1]
    per_band = max(1, min(BAND_TILE_ROWS, math.floor(BAND_PIXELS / width_px / (cell_height * scale))))
    # Each break falls in the middle of the gap between a band's first row of tiles and the row above.
    return [round((MARGIN + HEADER_HEIGHT + row * cell_height - GAP / 2) * scale)
            for row in range(per_band, grid.rows, per_band)]


def _draw_sheet(canvas: Canvas, renderer: Renderer, tiles: list[Tile], grid: Grid, seen_as: str | None,
                top: float, bottom: float) -> None:
    """The sheet's background, and its header and tiles that reach between ``top`` and ``bottom``
    (points from the sheet's top)."""
    fonts = {name: renderer.font_registry.font(name).fontName
             for name in (NAME_FONT, COUNT_FONT, HEADER_FONT, NOTE_FONT)}
    width, height = grid.size
    canvas.setFillColor(BACKGROUND)
    canvas.rect(0, 0, width, height, stroke=0, fill=1)
    if top <= MARGIN + HEADER_HEIGHT:
        _draw_header(canvas, renderer, width, height, fonts, seen_as)
    for index in _tiles_between(grid, len(tiles), top, bottom):
        left, tile_top = grid.origin(index)
        _draw_tile(canvas, renderer, tiles[index], left, height - tile_top, grid.thumb, fonts)


def _draw_header(canvas: Canvas, renderer: Renderer, width: float, height: float, fonts: dict[str, str],
                 seen_as: str | None) -> None:
    """The deck's name and the line under it."""
    deck = renderer.deck
    canvas.setFillColor(INK)
    header, header_size = fitted_line(deck.name, fonts[HEADER_FONT], HEADER_SIZE, 9, width - 2 * MARGIN)
    canvas.setFont(fonts[HEADER_FONT], header_size)
    canvas.drawString(MARGIN, height - MARGIN - 14, header)
    printed = sum(1 for card in deck.cards if card.count > 0)
    canvas.setFillColor(MUTED)
    note, note_size = fitted_line(sheet_note(deck.total, printed, seen_as), fonts[NOTE_FONT], NOTE_SIZE, NOTE_MIN_SIZE,
                                  width - 2 * MARGIN)
    canvas.setFont(fonts[NOTE_FONT], note_size)
    canvas.drawString(MARGIN, height - MARGIN - 26, note)


def _tiles_between(grid: Grid, count: int, top: float, bottom: float) -> range:
    """The tiles any of whose faces or captions lie between ``top`` and ``bottom`` (points from the top)."""
    cell_height = grid.cell[1]
    tile_height = cell_height - GAP  # the faces and their captions; the gap below is background
    first_row = max(0, math.floor((top - MARGIN - HEADER_HEIGHT - tile_height) / cell_height) + 1)
    last_row = math.floor((bottom - MARGIN - HEADER_HEIGHT) / cell_height)
    return range(min(count, first_row * grid.columns), min(count, (last_row + 1) * grid.columns))


def sheet_note(total: int, different: int, seen_as: str | None = None) -> str:
    """The line under the deck's name: how many cards, and which vision the colours show."""
    note = f"{total} cards, {different} different"
    return f"{note}; colours as seen with {seen_as} (simulated)" if seen_as else note


def _draw_tile(canvas: Canvas, renderer: Renderer, tile: Tile, left: float, top: float,
               thumb: tuple[float, float], fonts: dict[str, str]) -> None:
    """A tile's small faces with their top-left corner at (left, top), captions below them."""
    thumb_height = thumb[1]
    face_width = renderer.card_size[0] * THUMB_SCALE
    bottom = top - thumb_height
    for index, side in enumerate(tile.sides):
        face_left = left + index * (face_width + PAIR_GAP)
        canvas.saveState()
        canvas.translate(face_left, bottom)
        canvas.scale(THUMB_SCALE, THUMB_SCALE)
        renderer.draw(canvas, tile.card, side)
        canvas.restoreState()
        canvas.setStrokeColor(EDGE)
        canvas.setLineWidth(0.5)
        canvas.rect(face_left, bottom, face_width, thumb_height, stroke=1, fill=0)  # white cards need an edge
    # the captions are centred under the tile's own faces: a lone front beside double-sided tiles too
    thumb_width = len(tile.sides) * face_width + (len(tile.sides) - 1) * PAIR_GAP
    centre = left + thumb_width / 2
    name, size = fitted_line(tile.name, fonts[NAME_FONT], NAME_SIZE, NAME_MIN_SIZE, thumb_width)
    canvas.setFillColor(INK)
    canvas.setFont(fonts[NAME_FONT], size)
    canvas.drawCentredString(centre, bottom - 10, name)
    canvas.setFillColor(MUTED)
    canvas.setFont(fonts[COUNT_FONT], COUNT_SIZE)
    canvas.drawCentredString(centre, bottom - 19, tile.count)
