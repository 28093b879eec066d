"""A deck as one PDF for a shop: one card face a page, in the preset's order.

Every copy of every printed card gets its pages (DriveThruCards: the back of card 1,
its front, the back of card 2 ...), each page the card with the preset's bleed
around it: MediaBox and BleedBox the card with bleed, TrimBox the card itself.
Each distinct face is drawn once, as a PDF form, and placed on every page that
shows it, so a deck of 152 cards with one shared back draws its back once.

For a CMYK preset the canvas is a :class:`PressCanvas`: every colour reportlab
writes (fills, strokes, text, icons, SVG art, gradients) passes through the
preset's :class:`~generator.shops.inks.PressInks` on its way into the file, and
card art is converted as it is embedded (``Renderer.convert_art``), so no RGB
colour is ever written. The PDF/X marks (the OutputIntent with the profile, the
identification keys) are added after, by :mod:`~generator.shops.pdfx`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import Card, Deck
from generator.errors import InputError
from generator.render import Renderer
from generator.sheets.forms import binary_streams, give_forms_paint_resources
from generator.shops.inks import PressInks
from generator.shops.presets import Preset

MAX_SHOP_PAGES = 40_000
"""Pages of one shop PDF: a print-on-demand deck is tens to hundreds of cards; reportlab keeps
every page of the file in memory until it is written, about a kilobyte each."""
PRODUCER = "deckpress"


class PressCanvas(Canvas):
    """A reportlab canvas that writes only the press's CMYK.

    reportlab passes every flat colour it writes through ``enforceColorSpace``
    (the canvas's and its text objects' fills and strokes, which SVG art and icons
    use too); gradients are handed their colours directly, so those are converted
    here before reportlab builds the shading.
    """

    def __init__(self, target: Any, inks: PressInks, **options: Any) -> None:
        super().__init__(target, enforceColorSpace=inks.colour, **options)
        self.inks = inks
        self._embedded_font = options.get("initialFontName")

    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:  # noqa: N802
        """Any font but one of PDF's unembedded standard fonts. reportlab's drawing of SVG art
        starts by setting Helvetica, with no text after it; PDF/X counts a font named in the
        page's resources as used, so the press's file names an embedded one instead."""
        if self._embedded_font is not None and getattr(pdfmetrics.getFont(psfontname).face, "builtIn", False):
            psfontname = self._embedded_font
        super().setFont(psfontname, size, leading)

    def linearGradient(self, x0: float, y0: float, x1: float, y1: float, colors: Sequence[Any],  # noqa: N802
                       positions: Sequence[float] | None = None, extend: bool = True) -> None:
        super().linearGradient(x0, y0, x1, y1, [self.inks.colour(colour) for colour in colors], positions, extend)

    def radialGradient(self, x: float, y: float, radius: float, colors: Sequence[Any],  # noqa: N802
                       positions: Sequence[float] | None = None, extend: bool = True) -> None:
        super().radialGradient(x, y, radius, [self.inks.colour(colour) for colour in colors], positions, extend)


@dataclass(repr=False, eq=False)
class ShopPage:
    """One page of a shop PDF: which face of which card."""

    card: Card
    side: str


def shop_pages(deck: Deck, preset: Preset, cards: Sequence[Card]) -> list[ShopPage]:
    """Every page of the deck's PDF, in print order: each copy of each card, its faces in the
    preset's order. Refused past :data:`MAX_SHOP_PAGES`, before anything is drawn."""
    total = sum(card.count for card in cards) * len(preset.order)
    if total > MAX_SHOP_PAGES:
        raise InputError(f"the deck's PDF for {preset.name} would have {total:,} pages, more than "
                         f"{MAX_SHOP_PAGES:,}; print it in several decks", deck.source.at("cards"), field="count")
    return [ShopPage(card, side) for card in cards for _ in range(card.count) for side in preset.order]


@binary_streams()
def draw_deck_pdf(renderer: Renderer, preset: Preset, pages: Sequence[ShopPage], inks: PressInks | None,
                  on_page: Callable[[], None] | None = None) -> bytes:
    """The shop PDF's bytes as reportlab writes it (before the PDF/X step).

    ``renderer`` must bleed by the preset's bleed; with ``inks`` every colour is the
    press's CMYK.
    """
    bleed = preset.bleed
    width, height = renderer.card_size
    page_size = (width + 2 * bleed, height + 2 * bleed)
    buffer = io.BytesIO()
    options: dict[str, Any] = {"pagesize": page_size, "invariant": 1, "pageCompression": 1,
                               "trimBox": (bleed, bleed, bleed + width, bleed + height), "bleedBox": (0, 0, *page_size)}
    if renderer.fonts:
        options["initialFontName"] = renderer.fonts[0]
    canvas = PressCanvas(buffer, inks, **options) if inks is not None else Canvas(buffer, **options)
    canvas.setTitle(renderer.deck.name)
    canvas.setAuthor(str(renderer.deck.info.get("designer") or ""))
    canvas.setCreator(PRODUCER)
    canvas.setProducer(PRODUCER)
    canvas.setSubject(f"{renderer.deck.name} for {preset.name}")
    forms: dict[str, str] = {}
    for page in pages:
        key = renderer.face_key(page.card, page.side)
        name = forms.get(key)
        if name is None:
            name = forms[key] = f"face{len(forms)}"
            canvas.beginForm(name, -bleed, -bleed, width + bleed, height + bleed)
            renderer.draw(canvas, page.card, page.side, bleed=bleed > 0)
            canvas.endForm()
        canvas.translate(bleed, bleed)
        canvas.doForm(name)
        canvas.showPage()
        if on_page is not None:
            on_page()
    give_forms_paint_resources(canvas, forms.values())
    canvas.save()
    return buffer.getvalue()
