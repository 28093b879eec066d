"""Turning drawings into pixels: PDF pages in memory, rendered by PDFium.

Card faces are vector drawings made for print. To get a PNG we draw the face
with reportlab onto a page of its own, exactly as it goes onto a print sheet,
and let PDFium (through ``pypdfium2``) render that page. The pixels therefore
match what the printed PDF shows: same fonts, same text fitting, same bleed.
Many faces go into one document, a page each, so fonts are embedded once.

Sizes are exact: the page is made ``width_px`` by ``height_px`` points and the
drawing is scaled to fill it, so rendering at one pixel per point gives an image
of exactly the size asked for (a poker card with bleed at 300 dpi is 825x1125,
never 826 because of a rounding in the page size).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Sequence

import pypdfium2
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import Card
from generator.render import Renderer

POINTS_PER_INCH = 72.0
PRINT_BLEED = POINTS_PER_INCH / 8
"""1/8 in (3.175 mm, 9 pt): the bleed print-on-demand services ask for on each side."""

MAX_RASTER_PIXELS = 50_000_000
"""Pixels in one image rendered from a drawing: an A5 card at 1200 dpi, or an A4 one at 600.
PDFium holds the whole bitmap in memory (4 bytes a pixel), so a 5 m card at 300 dpi
(3.5 billion pixels) would take all the memory a machine has."""

Draw = Callable[[Canvas], None]
"""Draws onto a canvas whose coordinates run over the drawing's own size in points."""


@dataclass(frozen=True)
class Raster:
    """How one face becomes pixels: the card's trim size, the bleed around it and the image size."""

    card_size: tuple[float, float]  # trim box, points
    bleed: float                    # points added on every side (0 for the plain trim)
    size_px: tuple[int, int]        # the whole image, bleed included
    dpi: float                      # stored in the PNG; size_px is what counts

    @classmethod
    def at_dpi(cls, card_size: tuple[float, float], bleed: float, dpi: float) -> "Raster":
        """The card plus bleed at ``dpi``, each side rounded to the nearest pixel."""
        width, height = card_size
        return cls(card_size, bleed, (pixels(width + 2 * bleed, dpi), pixels(height + 2 * bleed, dpi)), dpi)

    @property
    def size_pt(self) -> tuple[float, float]:
        """The drawing's size in points: trim plus bleed on both sides."""
        width, height = self.card_size
        return (width + 2 * self.bleed, height + 2 * self.bleed)


def pixels(length_pt: float, dpi: float) -> int:
    """A length in points at ``dpi``, in whole pixels (never less than one)."""
    return max(1, round(length_pt * dpi / POINTS_PER_INCH))


def too_many_pixels(size_px: tuple[int, int]) -> bool:
    return size_px[0] * size_px[1] > MAX_RASTER_PIXELS


def fitting_dpi(size_pt: tuple[float, float], dpi: float) -> float:
    """``dpi``, or less if needed to keep an image of ``size_pt`` within MAX_RASTER_PIXELS."""
    width, height = (length * dpi / POINTS_PER_INCH for length in size_pt)
    if width * height <= MAX_RASTER_PIXELS:
        return dpi
    return dpi * math.sqrt(MAX_RASTER_PIXELS / (width * height)) * 0.999


def with_bleed(renderer: Renderer, bleed: float) -> Renderer:
    """A renderer for the same deck whose faces bleed by ``bleed`` points when asked.

    Layouts carry their own bleed (3 mm by default, for our print sheets);
    exports for print-on-demand want exactly 1/8 in. Planning a face does not
    depend on the bleed, only drawing does, so swapping the number is enough.
    """
    layouts = {side: replace(layout, bleed=bleed) for side, layout in renderer.layouts.items()}
    return Renderer(deck=renderer.deck, layouts=layouts, font_registry=renderer.font_registry)


def rasterise(draw: Draw, size_pt: tuple[float, float], size_px: tuple[int, int]) -> Image.Image:
    """Render whatever ``draw`` paints over ``size_pt`` into an RGB image of exactly ``size_px``."""
    return next(rasterise_pages([draw], size_pt, size_px))


def rasterise_pages(draws: Iterable[Draw], size_pt: tuple[float, float],
                    size_px: tuple[int, int]) -> Iterator[Image.Image]:
    """Each drawing on its own page of one PDF in memory, rendered page by page.

    One document for many drawings embeds each font once instead of once per
    face, which makes a deck's worth of faces several times faster.
    """
    width_pt, height_pt = size_pt
    width_px, height_px = size_px
    if too_many_pixels(size_px):  # the plans check first, with the file to blame; this is the last guard
        raise ValueError(f"an image of {width_px:,} x {height_px:,} pixels is more than {MAX_RASTER_PIXELS:,}")
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width_px, height_px), invariant=1, pageCompression=0)
    for draw in draws:
        canvas.scale(width_px / width_pt, height_px / height_pt)
        draw(canvas)
        canvas.showPage()
    canvas.save()
    document = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=1, rev_byteorder=True, fill_color=(255, 255, 255, 255))
            image = bitmap.to_pil().convert("RGB")
            page.close()
            if image.size != (width_px, height_px):  # never expected: the page is whole pixels
                image = image.crop((0, 0, width_px, height_px))
            yield image
    finally:
        document.close()


def rasterise_faces(renderer: Renderer, faces: Sequence[tuple[Card, str]], raster: Raster) -> Iterator[Image.Image]:
    """Images of the given (card, side) faces, in order.

    With ``raster.bleed`` the renderer must bleed by that much (see :func:`with_bleed`),
    or the art would stop short of the image's edge.
    """
    if raster.bleed and abs(renderer.bleed - raster.bleed) > 1e-6:
        raise ValueError(f"renderer bleeds {renderer.bleed} pt, the image wants {raster.bleed} pt")

    def drawing(card: Card, side: str) -> Draw:
        def draw(canvas: Canvas) -> None:
            canvas.translate(raster.bleed, raster.bleed)
            renderer.draw(canvas, card, side, bleed=raster.bleed > 0)
        return draw

    return rasterise_pages([drawing(card, side) for card, side in faces], raster.size_pt, raster.size_px)


def rasterise_face(renderer: Renderer, card: Card, side: str, raster: Raster) -> Image.Image:
    """One face of one card as an image (see :func:`rasterise_faces`)."""
    return next(rasterise_faces(renderer, [(card, side)], raster))


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    """PNG bytes with no timestamp or other varying chunk: same image, same bytes.

    ``dpi`` is stored in the file (pHYs) so print services and image editors
    see the intended print size.
    """
    buffer = io.BytesIO()
    options = {"optimize": False, "compress_level": 6}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(buffer, format="PNG", **options)
    return buffer.getvalue()


Transform = Callable[[Image.Image], Image.Image]
"""Changes a rasterised face before it is used (a module-level function, so workers can run it)."""


@dataclass(frozen=True)
class FaceOrder:
    """One face to rasterise, and what to make of its pixels."""

    card: int        # the card's place in the deck's list of cards
    side: str
    png: bool        # encode the image as a PNG at the raster's dpi
    scaled: tuple[int, int] | None = None  # also give it shrunk to this size, as raw RGB


@dataclass(frozen=True)
class RasterTask:
    """Faces drawn into one document and rasterised together (a unit of work for a worker)."""

    raster: Raster
    orders: tuple[FaceOrder, ...]
    transform: Transform | None = None


@dataclass(frozen=True)
class FaceResult:
    png: bytes | None
    scaled: bytes | None


FACES_PER_TASK = 8
"""Faces drawn into one document by one worker: enough that fonts are embedded once for
several faces, few enough that every core gets work from a small deck. Fixed, so the
documents (and so every pixel) are the same whatever the number of workers."""


def raster_tasks(orders: Sequence[FaceOrder], raster: Raster,
                 transform: Transform | None = None) -> list[RasterTask]:
    """``orders`` cut into tasks of :data:`FACES_PER_TASK`, in order."""
    return [RasterTask(raster, tuple(orders[start:start + FACES_PER_TASK]), transform)
            for start in range(0, len(orders), FACES_PER_TASK)]


def run_raster_task(renderer: Renderer, task: RasterTask) -> list[FaceResult]:
    """Rasterise the task's faces; for each, its PNG and/or its shrunk copy, as asked."""
    cards = renderer.deck.cards
    faces = [(cards[order.card], order.side) for order in task.orders]
    results = []
    for order, image in zip(task.orders, rasterise_faces(renderer, faces, task.raster)):
        if task.transform is not None:
            image = task.transform(image)
        png = png_bytes(image, task.raster.dpi) if order.png else None
        scaled = image.resize(order.scaled, Image.LANCZOS).tobytes() if order.scaled else None
        results.append(FaceResult(png, scaled))
    return results
