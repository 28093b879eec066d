"""PNG export: one image per card face at print resolution, plus a contact sheet.

Files are named after the card and the face (``frankenflakes-front.png``,
``dusty-dour-back.png``). What belongs to the deck as a whole is named after the
deck, so that several decks can export into one folder: a back several cards
share (see :mod:`~generator.exports.backs`) is written once, as
``<deck>.back.png`` if it is the deck's only shared back, else each as
``<deck>.back-<face key>.png`` (a question back and an answer back), and the
contact sheet is ``<deck>.contact-sheet.png``. The dot keeps these apart from
every card's files: a card id holds no dot. Cards with a count of 0 are not part of the printed deck
and get no files. Identical faces are rasterised once and written under each name.
The files appear together once all are drawn, and images of cards since
removed from the deck are deleted (see :mod:`~generator.exports.staging`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.access.simulation import simulate_image
from generator.deck.model import Card
from generator.errors import InputError, Position
from generator.exports.backs import back_file_name, sort_backs
from generator.exports.contact import contact_sheet
from generator.exports.printed import printed_cards
from generator.exports.raster import (
    MAX_RASTER_PIXELS,
    PRINT_BLEED,
    Raster,
    Transform,
    fitting_dpi,
    png_bytes,
    too_many_pixels,
)
from generator.exports.staging import StagedFolder
from generator.render import Renderer

SHARED_BACK_FILENAME = "{deck}.back.png"
SHARED_BACK_PREFIX = "{deck}.back-"
"""Of each shared back's file when there are several: ``<deck>.back-<face key>.png``."""
CONTACT_SHEET_FILENAME = "{deck}.contact-sheet.png"
DEFAULT_DPI = 300


@dataclass(repr=False, eq=False)
class FaceFile:
    """One PNG to write: a face of a card and the file name it goes under."""

    filename: str
    card: Card
    side: str


@dataclass(repr=False, eq=False)
class PngExport:
    """Everything a PNG export writes, decided before anything is drawn."""

    renderer: Renderer  # bleeds by PRINT_BLEED when the export asks for bleed
    folder: Path
    raster: Raster
    faces: list[FaceFile]
    simulate: str | None = None  # a colour-vision deficiency to show the images as (access.simulation)

    @property
    def contact_sheet_name(self) -> str:
        """The contact sheet's file name: ``<deck>.contact-sheet.png``."""
        return CONTACT_SHEET_FILENAME.format(deck=self.renderer.deck.output_name)

    @property
    def steps(self) -> int:
        """Units of work, for a progress bar: each face file, then the contact sheet."""
        return len(self.faces) + 1


def face_files(renderer: Renderer) -> list[FaceFile]:
    """Each printed card's front and its own back if it has one, then each shared back once."""
    printed = printed_cards(renderer.deck)
    backs = sort_backs(renderer, printed)
    own = {card.id for card in backs.own}
    files: list[FaceFile] = []
    for card in printed:
        files.append(FaceFile(f"{card.id}-front.png", card, "front"))
        if card.id in own:
            files.append(FaceFile(f"{card.id}-back.png", card, "back"))
    deck = renderer.deck.output_name
    for back in backs.shared:
        name = (SHARED_BACK_FILENAME.format(deck=deck) if len(backs.shared) == 1
                else back_file_name(SHARED_BACK_PREFIX.format(deck=deck), back.key))
        files.append(FaceFile(name, back.card, "back"))
    return files


def plan_png_export(renderer: Renderer, folder: Path | str, dpi: float = DEFAULT_DPI,
                    bleed: bool = False, simulate: str | None = None) -> PngExport:
    """What ``export --png`` writes; ``renderer`` must bleed by PRINT_BLEED if ``bleed``;
    ``simulate`` names a colour-vision deficiency every image is shown as."""
    raster = Raster.at_dpi(renderer.card_size, PRINT_BLEED if bleed else 0.0, dpi)
    if too_many_pixels(raster.size_px):
        width, height = (length * 25.4 / 72 for length in raster.size_pt)
        most = int(fitting_dpi(raster.size_pt, dpi))
        raise InputError(f"a {width:,.0f} x {height:,.0f} mm card at {dpi:g} dpi is {raster.size_px[0]:,} x "
                         f"{raster.size_px[1]:,} pixels, more than {MAX_RASTER_PIXELS:,} in one image; "
                         + (f"export it at --dpi {most} or less" if most >= 1 else "it is too large to export"),
                         Position(renderer.layouts["front"].path), field="size")
    return PngExport(renderer, Path(folder), raster, face_files(renderer), simulate)


def distinct_faces(export: PngExport) -> dict[str, list[FaceFile]]:
    """The export's files grouped by the face they show (face key -> the files showing it),
    each distinct face once, in order."""
    faces: dict[str, list[FaceFile]] = {}
    for face in export.faces:
        faces.setdefault(export.renderer.face_key(face.card, face.side), []).append(face)
    return faces


def simulation(deficiency: str | None) -> Transform | None:
    """Images recoloured as seen with ``deficiency``; None for no deficiency."""
    if deficiency is None:
        return None
    return functools.partial(simulate_image, deficiency=deficiency)


def stage_face(files: list[FaceFile], data: bytes, staged: StagedFolder) -> Iterator[Path]:
    """Stage one face's PNG under each of its file names."""
    for face in files:
        yield staged.write_bytes(face.filename, data)


def run_contact_sheet(renderer: Renderer, simulate: str | None = None) -> bytes:
    """The contact sheet's PNG (a task for :class:`~generator.exports.workers.Workers`), shown
    as seen with the colour-vision deficiency ``simulate`` and saying so in its header."""
    image = contact_sheet(renderer, seen_as=simulate)
    transform = simulation(simulate)
    return png_bytes(transform(image) if transform is not None else image)


def png_staging(export: PngExport) -> StagedFolder:
    """Where a PNG export's files wait until all of them are drawn."""
    return StagedFolder(export.folder, export.renderer.deck.output_name, "png")
