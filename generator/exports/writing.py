"""One export run: the planned PNG and TTS files, rasterised in one pass and staged.

The plans (:func:`~generator.exports.png.plan_png_export`,
:func:`~generator.exports.tts.plan_tts_export`) say which files to write and
which faces they show. This module turns them into raster tasks, gives the
tasks to the workers all at once, and stages each file as soon as its pixels
are back, so data moves one way: plan, rasterise, stage.

A face both exports need is laid out and drawn once: it becomes one PDF form,
shown on a page at the PNGs' size and on one at its TTS slot's size (unless
the PNGs bleed, which the sheets do not), rather than drawn twice or shrunk from
a 300-dpi image. The TTS faces come first, sheet by sheet, so only one sheet's
faces wait in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from generator.exports.png import (
    FaceFile,
    PngExport,
    distinct_faces,
    png_staging,
    run_contact_sheet,
    simulation,
    stage_contact_sheet,
    stage_face,
)
from generator.exports.raster import FaceOrder, FaceResult, RasterTask, raster_tasks, run_raster_task
from generator.exports.staging import StagedFolder, all_or_nothing
from generator.exports.tts import SheetWriter, TtsExport, tts_faces, tts_staging
from generator.exports.workers import Workers
from generator.render import Renderer


@dataclass(frozen=True)
class ExportRun:
    """What one ``export`` command writes: PNGs, a TTS deck, or both, with their staging folders."""

    png: PngExport | None = None
    png_files: StagedFolder | None = None
    tts: TtsExport | None = None
    tts_files: StagedFolder | None = None

    def __post_init__(self) -> None:
        if (self.png is None) != (self.png_files is None) or (self.tts is None) != (self.tts_files is None):
            raise ValueError("each export of a run needs a staging folder of its own, and only they have one")
        if self.png is None and self.tts is None:
            raise ValueError("an export run writes PNGs, a TTS deck or both")

    @property
    def renderer(self) -> Renderer:
        """The renderer both exports draw with."""
        export = self.png or self.tts
        assert export is not None, "__post_init__ refuses a run of neither"
        return export.renderer

    @property
    def steps(self) -> int:
        """How many times :func:`stage_exports` yields: once a face drawn or file staged."""
        return (self.png.steps if self.png else 0) + (self.tts.steps if self.tts else 0)


def stage_exports(run: ExportRun, workers: Workers) -> Iterator[Path | None]:
    """Rasterise what the run needs on ``workers`` and stage every file.

    Yields the path of each file staged (where it will be once committed), and
    ``None`` for each TTS face drawn, :attr:`ExportRun.steps` times in all.
    """
    png, tts, png_files, tts_files = run.png, run.tts, run.png_files, run.tts_files
    deck_cards = {id(card): index for index, card in enumerate(workers.renderer.deck.cards)}
    transform = simulation(png.simulate) if png else None  # PNGs only: TTS sheets show the cards as printed
    contact = workers.map(run_contact_sheet, [png.simulate]) if png else iter(())

    # A face both exports show is drawn once for both, when the PNGs have no bleed to draw.
    shared = png.raster if png is not None and tts is not None and png.raster.bleed == tts.raster.bleed else None
    waiting = distinct_faces(png) if png else {}  # PNG faces not yet rasterised, by face key
    sheet_results: Iterator[FaceResult] = iter(())
    sheet_pngs: list[list[FaceFile] | None] = []
    if tts:
        orders = []
        for card, side in tts_faces(tts):
            files = waiting.pop(tts.renderer.face_key(card, side), None) if shared is not None else None
            sheet_pngs.append(files)
            orders.append(FaceOrder(deck_cards[id(card)], side, png=files is not None, tts=True))
        sheet_results = _results(workers, raster_tasks(orders, shared, tts.raster, transform))
    png_left = list(waiting.values())
    png_results = _results(workers, raster_tasks(
        [FaceOrder(deck_cards[id(files[0].card)], files[0].side, png=True, tts=False) for files in png_left],
        png.raster, transform=transform)) if png else iter(())

    if tts is not None and tts_files is not None:
        sheets = SheetWriter(tts, tts_files)
        for files, result in zip(sheet_pngs, sheet_results, strict=True):
            if files is not None and png_files is not None:
                yield from stage_face(files, result.png_data, png_files)
            yield None
            yield from sheets.add(Image.frombytes("RGB", tts.card_px, result.sheet_pixels))
    if png_files is not None:
        for files, result in zip(png_left, png_results, strict=True):
            yield from stage_face(files, result.png_data, png_files)
        for data in contact:
            yield stage_contact_sheet(data, png_files)
    if tts is not None and tts_files is not None:
        yield sheets.finish()


def _results(workers: Workers, tasks: list[RasterTask]) -> Iterator[FaceResult]:
    """Each face's result, task after task; the tasks are handed to the workers now."""
    batches = workers.map(run_raster_task, tasks)
    return (result for batch in batches for result in batch)


def write_exports(run: ExportRun, jobs: int = 1) -> Iterator[Path | None]:
    """Stage the run on ``jobs`` workers and commit its files all or nothing
    (see :mod:`~generator.exports.staging`), yielding as :func:`stage_exports` does."""
    with all_or_nothing(*filter(None, (run.png_files, run.tts_files))), Workers(run.renderer, jobs) as workers:
        yield from stage_exports(run, workers)


def png_run(export: PngExport) -> ExportRun:
    """A run writing the PNG export alone."""
    return ExportRun(png=export, png_files=png_staging(export))


def tts_run(export: TtsExport) -> ExportRun:
    """A run writing the TTS export alone."""
    return ExportRun(tts=export, tts_files=tts_staging(export))
