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
import itertools
import math
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import pypdfium2
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import Card
from generator.exports.bands import Band, deflate_band
from generator.render import Renderer
from generator.sheets.forms import give_forms_paint_resources

POINTS_PER_INCH = 72.0
PRINT_BLEED = POINTS_PER_INCH / 8
"""1/8 in (3.175 mm, 9 pt): the bleed print-on-demand services ask for on each side."""

MAX_RASTER_PIXELS = 50_000_000
"""Pixels in one image rendered from a drawing: an A5 card at 1200 dpi, or an A4 one at 600.
PDFium holds the whole bitmap in memory (4 bytes a pixel), so a 5 m card at 300 dpi
(3.5 billion pixels) would take all the memory a machine has."""

EMPTY_SLOT = (255, 255, 255)
"""A slot of a TTS sheet no card uses."""

@dataclass(repr=False, eq=False)
class Raster:
    """How one face becomes pixels: the card's trim size, the bleed around it and the image size."""

    card_size: tuple[float, float]  # trim box, points
    bleed: float                    # points added on every side (0 for the plain trim)
    size_px: tuple[int, int]        # the whole image, bleed included
    dpi: float                      # stored in the PNG; size_px is what counts

    @classmethod
    def at_dpi(cls, card_size: tuple[float, float], bleed: float, dpi: float) -> Raster:
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


def fitting_dpi(size_pt: tuple[float, float], dpi: float, most: int | None = None) -> float:
    """``dpi``, or less if needed to keep an image of ``size_pt`` within ``most`` pixels
    (and always within MAX_RASTER_PIXELS)."""
    limit = MAX_RASTER_PIXELS if most is None else min(most, MAX_RASTER_PIXELS)
    width, height = (length * dpi / POINTS_PER_INCH for length in size_pt)
    if width * height <= limit:
        return dpi
    return dpi * math.sqrt(limit / (width * height)) * 0.999


def with_bleed(renderer: Renderer, bleed: float) -> Renderer:
    """A renderer for the same deck whose faces bleed by ``bleed`` points when asked.

    Layouts carry their own bleed (3 mm by default, for our print sheets);
    exports for print-on-demand want exactly 1/8 in. Planning a face does not
    depend on the bleed, only drawing does, so swapping the number is enough.
    """
    return renderer.sibling(layouts={side: replace(layout, bleed=bleed) for side, layout in renderer.layouts.items()})


def refuse_oversized(size_px: tuple[int, int]) -> None:
    """The last guard before pixels are allocated: the export plans check sizes first, with
    the file to blame, so this only stops a caller that skipped them."""
    if too_many_pixels(size_px):
        raise ValueError(f"an image of {size_px[0]:,} x {size_px[1]:,} pixels is more than {MAX_RASTER_PIXELS:,}")


BandDraw = Callable[[Canvas, float, float], None]
"""Draws what lies between two heights (points from the top) of a drawing, onto a canvas whose
coordinates run over the drawing's whole size in points; it may draw more, never less."""


def rasterise_bands(draw: BandDraw, size_pt: tuple[float, float], size_px: tuple[int, int],
                    breaks: Sequence[int] = ()) -> Image.Image:
    """Render whatever ``draw`` paints over ``size_pt`` into an RGB image of exactly ``size_px``,
    band after band, so that a drawing too large to render at once never is.

    A band starts at the top and at each row of pixels in ``breaks``; each is a page of
    its own, holding only what ``draw`` puts in it, rendered and pasted into place: a sheet
    of thousands of cards never sits in one document or one bitmap. The bands' pixels
    fall on the same grid as the whole image's.
    """
    width_pt, height_pt = size_pt
    width_px, height_px = size_px
    refuse_oversized(size_px)
    tops = sorted({0, *(row for row in breaks if 0 < row < height_px)})
    scale_x, scale_y = width_px / width_pt, height_px / height_pt
    image = Image.new("RGB", size_px)
    for top, end in zip(tops, [*tops[1:], height_px], strict=True):
        band = end - top
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(width_px, band), invariant=1, pageCompression=0)
        canvas.translate(0, band + top - height_px)  # the band's bottom row onto the page's bottom
        canvas.scale(scale_x, scale_y)
        draw(canvas, top / scale_y, (top + band) / scale_y)
        canvas.showPage()
        canvas.save()
        image.paste(next(render_pdf(buffer.getvalue(), [(width_px, band)])), (0, top))
    return image


def render_pdf(data: bytes, sizes: Sequence[tuple[int, int]]) -> Iterator[Image.Image]:
    """The pages of the PDF ``data``, each made ``sizes[n]`` points wide and high, as RGB images
    of exactly that many pixels."""
    document = pypdfium2.PdfDocument(data)
    try:
        for index, size_px in enumerate(sizes):
            page = document[index]
            bitmap = page.render(scale=1, rev_byteorder=True, fill_color=(255, 255, 255, 255))
            image = bitmap.to_pil().convert("RGB")
            page.close()
            if image.size != size_px:  # never expected: the page is whole pixels
                image = image.crop((0, 0, *size_px))
            yield image
    finally:
        document.close()


def rasterise_faces(renderer: Renderer, faces: Sequence[tuple[Card, str]], raster: Raster) -> Iterator[Image.Image]:
    """Images of the given (card, side) faces, in order.

    With ``raster.bleed`` the renderer must bleed by that much (see :func:`with_bleed`),
    or the art would stop short of the image's edge.
    """
    return (images[0] for images in rasterise_faces_at(renderer, [(card, side, (raster,)) for card, side in faces]))


def rasterise_faces_at(renderer: Renderer, faces: Sequence[tuple[Card, str, Sequence[Raster]]]
                       ) -> Iterator[tuple[Image.Image, ...]]:
    """For each (card, side, rasters), the face's image at each of its rasters, in order.

    Each face is drawn once, as a PDF form, and placed on a page per raster,
    so a face two exports need at two sizes is laid out and drawn only once.
    The rasters must share one bleed (the form is drawn with it or without).
    """
    bleeds = {raster.bleed for _, _, rasters in faces for raster in rasters}
    if len(bleeds) > 1:
        raise ValueError(f"faces drawn once cannot bleed by {sorted(bleeds)} at once")
    bleed = bleeds.pop() if bleeds else 0.0
    if bleed and abs(renderer.bleed - bleed) > 1e-6:
        raise ValueError(f"renderer bleeds {renderer.bleed} pt, the image wants {bleed} pt")
    width, height = renderer.card_size
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    sizes, counts = [], []
    for index, (card, side, rasters) in enumerate(faces):
        name = f"face{index}"
        canvas.beginForm(name, -bleed, -bleed, width + bleed, height + bleed)
        renderer.draw(canvas, card, side, bleed=bleed > 0)
        canvas.endForm()
        for raster in rasters:
            refuse_oversized(raster.size_px)
            (width_px, height_px), (width_pt, height_pt) = raster.size_px, raster.size_pt
            canvas.setPageSize(raster.size_px)
            canvas.scale(width_px / width_pt, height_px / height_pt)
            canvas.translate(bleed, bleed)
            canvas.doForm(name)
            canvas.showPage()
            sizes.append(raster.size_px)
        counts.append(len(rasters))
    give_forms_paint_resources(canvas, (f"face{index}" for index in range(len(faces))))
    canvas.save()
    images = render_pdf(buffer.getvalue(), sizes)
    return (tuple(itertools.islice(images, count)) for count in counts)


def rasterise_face(renderer: Renderer, card: Card, side: str, raster: Raster) -> Image.Image:
    """One face of one card as an image (see :func:`rasterise_faces`)."""
    return next(rasterise_faces(renderer, [(card, side)], raster))


def png_bytes(image: Image.Image, dpi: float | None = None, strategy: int = zlib.Z_FILTERED) -> bytes:
    """PNG bytes with no timestamp or other varying chunk: same image, same bytes.

    ``dpi`` is stored in the file (pHYs) so print services and image editors
    see the intended print size; ``strategy`` is zlib's (see :data:`FACE_STRATEGY`).
    """
    buffer = io.BytesIO()
    options: dict[str, int | tuple[float, float]] = {"optimize": False, "compress_level": 6, "compress_type": strategy}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(buffer, format="PNG", **options)
    return buffer.getvalue()


Transform = Callable[[Image.Image], Image.Image]
"""Changes a rasterised face before it is used (a module-level function, so workers can run it)."""


@dataclass(repr=False, eq=False)
class FaceOrder:
    """One face to rasterise, and what to make of it."""

    card: int   # the card's place in the deck's list of cards
    side: str
    png: bool   # a PNG at the task's PNG raster
    tts: bool   # raw RGB pixels at the task's TTS raster (for a sheet)


@dataclass(repr=False, eq=False)
class RasterTask:
    """Faces drawn into one document and rasterised together (a unit of work for a worker).

    The faces' TTS images are laid side by side, left to right, into a band of
    ``band_slots`` slots (the rest white) and come back as that band of a sheet's PNG
    (:mod:`~generator.exports.bands`), so no worker sends pixels and no process holds a
    whole sheet."""

    orders: tuple[FaceOrder, ...]
    png: Raster | None = None
    tts: Raster | None = None
    transform: Transform | None = None
    """Applied to the PNGs' images (a module-level function, so a worker can run it)."""
    band_slots: int = 0


@dataclass(repr=False, eq=False)
class TaskResult:
    """What a worker made of one :class:`RasterTask`: each order's PNG (None where it asked for
    none), and the band of TTS images, if the task has a TTS raster."""

    pngs: tuple[bytes | None, ...]
    band: Band | None

    def png_data(self, index: int) -> bytes:
        """Order ``index``'s PNG file; an error if it asked for none."""
        data = self.pngs[index]
        if data is None:
            raise ValueError("this face was not rasterised as a PNG")
        return data

    @property
    def sheet_band(self) -> Band:
        """The band of TTS images; an error if the task made none."""
        if self.band is None:
            raise ValueError("this task was not rasterised for a TTS sheet")
        return self.band


FACE_STRATEGY = zlib.Z_RLE
"""How a face at print resolution is compressed: its art is mostly runs of flat colour, which
zlib's run-length strategy packs faster than the default, for slightly larger files.
(Shrunk images keep zlib's other strategies: the contact sheet Pillow's default, TTS
sheets :mod:`~generator.exports.bands`'; their soft edges would grow much larger.)"""
FACES_PER_TASK = 8
"""Faces drawn into one document by one worker: enough that fonts are embedded once for
several faces, few enough that every core gets work from a small deck. Fixed, so the
documents (and so every pixel) are the same whatever the number of workers."""
PIXELS_PER_TASK = 12_000_000
"""Pixels of PNG faces one task makes at most: eight poker cards at 300 dpi with bleed, or
a row of ten TTS cards beside their PNGs at 300 dpi; a single face at 1200 dpi. The results
of a few tasks wait at a time, so this keeps memory flat at any resolution."""


def faces_per_task(raster: Raster) -> int:
    """How many faces at ``raster`` one task draws: :data:`FACES_PER_TASK`, fewer if they are large."""
    width, height = raster.size_px
    return max(1, min(FACES_PER_TASK, PIXELS_PER_TASK // (width * height)))


def raster_tasks(orders: Sequence[FaceOrder], png: Raster | None = None, tts: Raster | None = None,
                 transform: Transform | None = None) -> list[RasterTask]:
    """``orders`` cut into tasks of :func:`faces_per_task` faces, in order."""
    size = faces_per_task(png) if png is not None else FACES_PER_TASK
    return [RasterTask(tuple(orders[start:start + size]), png, tts, transform)
            for start in range(0, len(orders), size)]


def run_raster_task(renderer: Renderer, task: RasterTask) -> TaskResult:
    """Rasterise the task's faces: each one's PNG as asked, and the band of their TTS images."""
    cards = renderer.deck.cards
    wanted = [wanted_rasters(task, order) for order in task.orders]
    faces = [(cards[order.card], order.side, rasters) for order, rasters in zip(task.orders, wanted, strict=True)]
    band = None
    if task.tts is not None:
        width, height = task.tts.size_px
        band = Image.new("RGB", (task.band_slots * width, height), EMPTY_SLOT)
    pngs: list[bytes | None] = []
    for slot, (order, rasters, images) in enumerate(zip(task.orders, wanted, rasterise_faces_at(renderer, faces),
                                                        strict=True)):
        remaining = iter(images)
        png = None
        if order.png:
            image = next(remaining)
            image = task.transform(image) if task.transform is not None else image
            png = png_bytes(image, rasters[0].dpi, FACE_STRATEGY)
        if order.tts:
            if band is None or slot >= task.band_slots:
                raise ValueError("a face asks for a TTS image, but its task has no room for it in a band")
            band.paste(next(remaining), (slot * band.width // task.band_slots, 0))
        pngs.append(png)
    return TaskResult(tuple(pngs), deflate_band(band) if band is not None else None)


def wanted_rasters(task: RasterTask, order: FaceOrder) -> list[Raster]:
    """The rasters ``order`` asks of its task, the PNG's first."""
    wanted = []
    for kind, raster, asked in (("PNG", task.png, order.png), ("TTS", task.tts, order.tts)):
        if not asked:
            continue
        if raster is None:
            raise ValueError(f"a face asks for a {kind} image, but its task has no {kind} raster")
        wanted.append(raster)
    return wanted
