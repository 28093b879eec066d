"""Writing what a shop takes: one PDF a deck, or one image a face.

:func:`press_for_shop` is what ``build DECK --for SHOP`` does once the deck has passed
its checks (the shop's among them): it draws the deck at the preset's bleed and writes

- for a PDF preset, ``OUT/<deck>.<shop>.pdf``: one face a page in the preset's order
  (:mod:`~generator.shops.pdf`), converted to the press's CMYK and marked PDF/X
  (:mod:`~generator.shops.pdfx`), then read back by :mod:`~generator.shops.preflight`
  before it is put in place, so a file the shop's rules would reject is never
  written;
- for an image preset, the folder ``OUT/<deck>.<shop>/``: one image a face, named as
  the preset says (:func:`~generator.shops.folder.shop_faces`:
  ``frankenflakes-front.png``, a card's own ``dusty-dour-back.png``, the deck's
  ``back.png``), drawn by the export rasteriser on every core and put in place together.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from generator.errors import InputError, LayoutError, Position, page_ranges, plural
from generator.exports.printed import printed_cards
from generator.exports.raster import MAX_RASTER_PIXELS, FaceOrder, Raster, raster_tasks, run_raster_task, with_bleed
from generator.exports.staging import StagedFolder, all_or_nothing
from generator.exports.workers import Workers
from generator.outputs import write_bytes_atomic
from generator.render import Renderer
from generator.render.plan import ImageOp
from generator.shops.folder import shop_faces
from generator.shops.inks import PressInks
from generator.shops.pdf import ShopPage, draw_deck_pdf, shop_pages
from generator.shops.pdfx import mark_pdfx
from generator.shops.preflight import Report, preflight
from generator.shops.presets import Preset

JPEG_QUALITY = 95
"""Images a face written as JPEG (for a preset that asks for JPEG): well above what shops ask."""


@dataclass(repr=False, eq=False)
class ShopResult:
    """What a build for a shop wrote."""

    path: Path
    """The PDF, or the folder of images."""
    cards: int
    files: int
    """Pages of the PDF, or images in the folder."""


def shop_output(renderer: Renderer, preset: Preset, out_dir: Path) -> Path:
    """``OUT/<deck>.<shop>.pdf``, or the folder ``OUT/<deck>.<shop>/`` for images."""
    stem = f"{renderer.deck.output_name}.{preset.id}"
    return out_dir / (f"{stem}.pdf" if preset.output == "pdf-per-deck" else stem)


def steps(renderer: Renderer, preset: Preset) -> int:
    """Units of work for a progress bar: pages of the PDF, or images to write."""
    cards = printed_cards(renderer.deck)
    if preset.output == "pdf-per-deck":
        return sum(card.count for card in cards) * len(preset.order)
    return len(shop_faces(renderer, preset))


def shop_renderer(renderer: Renderer, preset: Preset) -> Renderer:
    """The same faces, bleeding by the preset's bleed (planning does not depend on the bleed, so
    the faces already laid out are taken over, not laid out again)."""
    bled = with_bleed(renderer, preset.bleed)
    bled.reuse_plans(renderer)
    return bled


def press_for_shop(renderer: Renderer, preset: Preset, inks: PressInks | None, out_dir: Path,
                   on_step: Callable[[], None] | None = None, jobs: int = 1) -> ShopResult:
    """Write what ``preset``'s shop takes of the deck (see the module docstring)."""
    target = shop_output(renderer, preset, out_dir)
    drawing = shop_renderer(renderer, preset)
    if preset.output == "image-per-face":
        return _write_images(drawing, preset, target, on_step, jobs)
    cards = printed_cards(renderer.deck)
    pages = shop_pages(renderer.deck, preset, cards)
    if inks is not None:
        drawing.convert_art(inks.conversion())
    data = draw_deck_pdf(drawing, preset, pages, inks, on_step)
    if inks is not None:
        data = mark_pdfx(data, preset, inks)
    report = preflight(data, preset)
    if report.problems:  # never expected: the deck passed the shop's checks
        raise _failed_preflight(report, preset, pages, renderer)
    write_bytes_atomic(target, data)
    return ShopResult(target, sum(card.count for card in cards), len(pages))


FILE_INTERNAL_NAME = re.compile(r"\bthe (image|form) (\S+)")
"""How preflight names an image or form of the file: by its name inside the PDF, which means
nothing to a designer."""


def _failed_preflight(report: Report, preset: Preset, pages: Sequence[ShopPage], renderer: Renderer) -> LayoutError:
    """The first problem the file's own preflight found, told as the deck's: the card and side
    its first page shows, and an image by the element and file that show it on that face
    (every image of the face, when it has several), at the element's line when there is one."""
    rule, message, numbers = report.grouped()[0]
    position = Position(renderer.layouts["front"].path)
    where = ""
    if numbers:
        page = pages[numbers[0] - 1]
        layout = renderer.layouts[page.side]
        images = list({(op.element, op.path.name): op for op in renderer.plan(page.card, page.side)
                       if isinstance(op, ImageOp)}.values())
        shows_image = any(found.group(1) == "image" for found in FILE_INTERNAL_NAME.finditer(message))
        message = FILE_INTERNAL_NAME.sub(lambda found: _named(found.group(1), images), message)
        faces = {renderer.face_key(pages[number - 1].card, pages[number - 1].side) for number in numbers}
        others = f" and {plural(len(faces) - 1, 'other face')}" if len(faces) > 1 else ""
        where = f" on card '{page.card.id}' ({page.side}){others}, {page_ranges(numbers)}"
        element = layout.element_named(images[0].element) if shows_image and len(images) == 1 else None
        position = element.position if element is not None else Position(layout.path)
    return LayoutError(f"the PDF made for {preset.name} fails its own preflight{where}: {message} ({rule}); "
                       "nothing was written", position)


def _named(kind: str, images: Sequence[ImageOp]) -> str:
    """An image or form of the file as the designer knows it."""
    if kind == "form":
        return "the card's face"
    named = [f"'{op.path.name}' of '{op.element}'" for op in images]
    if len(named) == 1:
        return f"image {named[0]}"
    return f"one of the images {', '.join(named)}" if named else "an image"


def _write_images(renderer: Renderer, preset: Preset, folder: Path, on_step: Callable[[], None] | None,
                  jobs: int) -> ShopResult:
    raster = Raster.at_dpi(renderer.card_size, preset.bleed, preset.dpi)
    width, height = raster.size_px
    if width * height > MAX_RASTER_PIXELS:
        raise InputError(f"a face at {preset.dpi} dpi is {width:,} x {height:,} pixels, more than "
                         f"{MAX_RASTER_PIXELS:,} in one image", preset.at("dpi"), field="dpi")
    groups: dict[str, list[str]] = {}  # face key -> the files showing that face, each face drawn once
    orders: list[FaceOrder] = []
    places = {id(card): index for index, card in enumerate(renderer.deck.cards)}
    faces = shop_faces(renderer, preset)
    assert len({face.filename for face in faces}) == len(faces), "the shop check refuses names that clash"
    for face in faces:
        key = renderer.face_key(face.card, face.side)
        if key not in groups:
            groups[key] = []
            orders.append(FaceOrder(places[id(face.card)], face.side, png=True, tts=False))
        groups[key].append(face.filename)
    staged = StagedFolder(folder, renderer.deck.output_name, preset.id)
    tasks = raster_tasks(orders, raster)
    written = 0
    with all_or_nothing(staged), Workers(renderer, jobs) as workers:
        results = (batch.png_data(index) for batch in workers.map(run_raster_task, tasks)
                   for index in range(len(batch.pngs)))
        for names, png in zip(groups.values(), results, strict=True):
            data = _jpeg(png, preset.dpi) if preset.image_format == "jpeg" else png
            for name in names:
                staged.write_bytes(name, data)
                written += 1
                if on_step is not None:
                    on_step()
    return ShopResult(folder, sum(card.count for card in printed_cards(renderer.deck)), written)


def _jpeg(png: bytes, dpi: int) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        out = io.BytesIO()
        image.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY, dpi=(dpi, dpi))
        return out.getvalue()
