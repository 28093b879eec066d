"""One export run: the planned PNG and TTS files, rasterised in one pass and staged.

The plans (:func:`~generator.exports.png.plan_png_export`,
:func:`~generator.exports.tts.plan_tts_export`) say which files to write and
which faces they show. This module turns them into raster tasks, gives the
tasks to the workers all at once, and stages each file as soon as its pixels
are back, so data moves one way: plan, rasterise, stage.

A face both exports need is laid out and drawn once: it becomes one PDF form,
shown on a page at the PNGs' size and on one at its TTS slot's size (unless
the PNGs bleed, which the sheets do not). Drawing again would cost as much as
rasterising, and shrinking a 300-dpi image to a slot costs three times as much.
The TTS faces come first, sheet by sheet, so only one sheet's faces wait in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

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
from generator.exports.raster import FaceOrder, raster_tasks, run_raster_task
from generator.exports.staging import StagedFolder, all_or_nothing
from generator.exports.tts import SheetWriter, TtsExport, tts_faces, tts_staging
from generator.exports.workers import Workers


@dataclass(frozen=True)
class ExportRun:
    """What one ``export`` command writes: PNGs, a TTS deck, or both, with their staging folders."""

    png: PngExport | None = None
    png_files: StagedFolder | None = None
    tts: TtsExport | None = None
    tts_files: StagedFolder | None = None

    @property
    def steps(self) -> int:
        """How many times :func:`stage_exports` yields: once a face drawn or file staged."""
        return (self.png.steps if self.png else 0) + (self.tts.steps if self.tts else 0)


def stage_exports(run: ExportRun, workers: Workers) -> Iterator[Path | None]:
    """Rasterise what the run needs on ``workers`` and stage every file.

    Yields the path of each file staged (where it will be once committed), and
    ``None`` for each TTS face drawn, :attr:`ExportRun.steps` times in all.
    """
    png, tts = run.png, run.tts
    deck_cards = {id(card): index for index, card in enumerate(workers.renderer.deck.cards)}
    transform = simulation(png.simulate) if png else None  # PNGs only: TTS sheets show the cards as printed
    contact = workers.map(run_contact_sheet, [png.simulate]) if png else iter(())

    # A face both exports show is drawn once for both, when the PNGs have no bleed to draw.
    shared = png is not None and tts is not None and png.raster.bleed == tts.raster.bleed
    waiting = distinct_faces(png) if png else {}  # PNG faces not yet rasterised, by face key
    sheet_results = iter(())
    sheet_pngs: list[list[FaceFile] | None] = []
    if tts:
        orders = []
        for card, side in tts_faces(tts):
            files = waiting.pop(tts.renderer.face_key(card, side), None) if shared else None
            sheet_pngs.append(files)
            orders.append(FaceOrder(deck_cards[id(card)], side, png=files is not None, tts=True))
        sheet_results = _results(workers, raster_tasks(orders, png.raster if shared else None, tts.raster,
                                                       transform))
    png_left = list(waiting.values())
    png_results = _results(workers, raster_tasks(
        [FaceOrder(deck_cards[id(files[0].card)], files[0].side, png=True, tts=False) for files in png_left],
        png.raster, transform=transform)) if png else iter(())

    if tts:
        sheets = SheetWriter(tts, run.tts_files)
        for files, result in zip(sheet_pngs, sheet_results):
            if files is not None:
                yield from stage_face(files, result.png, run.png_files)
            yield None
            yield from sheets.add(Image.frombytes("RGB", tts.card_px, result.pixels))
    for files, result in zip(png_left, png_results):
        yield from stage_face(files, result.png, run.png_files)
    for data in contact:
        yield stage_contact_sheet(data, run.png_files)
    if tts:
        yield sheets.finish()


def _results(workers: Workers, tasks: list) -> Iterator:
    """Each face's result, task after task; the tasks are handed to the workers now."""
    batches = workers.map(run_raster_task, tasks)
    return (result for batch in batches for result in batch)


def write_exports(run: ExportRun, jobs: int = 1) -> Iterator[Path | None]:
    """Stage the run on ``jobs`` workers and commit its files all or nothing
    (see :mod:`~generator.exports.staging`), yielding as :func:`stage_exports` does."""
    renderer = (run.png or run.tts).renderer
    with all_or_nothing(*filter(None, (run.png_files, run.tts_files))), Workers(renderer, jobs) as workers:
        yield from stage_exports(run, workers)


def png_run(export: PngExport) -> ExportRun:
    """A run writing the PNG export alone."""
    return ExportRun(png=export, png_files=png_staging(export))


def tts_run(export: TtsExport) -> ExportRun:
    """A run writing the TTS export alone."""
    return ExportRun(tts=export, tts_files=tts_staging(export))
