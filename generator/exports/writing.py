"""One export run: the planned PNG and TTS files, rasterised in one pass and staged.

The plans (:func:`~generator.exports.png.plan_png_export`,
:func:`~generator.exports.tts.plan_tts_export`) say which files to write and
which faces they show. This module turns them into raster tasks, hands them to
the workers a few at a time, and stages each file as soon as its pixels are
back, so data moves one way: plan, rasterise, stage.

Each TTS image is drawn a row of cards at a time: one task draws a row's faces,
lays them side by side and compresses the row (:mod:`~generator.exports.bands`);
an image is staged once its last row is back. A face both exports need is laid
out and drawn once, within its row's task: it becomes one PDF form, shown on a
page at the PNGs' size and on one at its TTS slot's size (unless the PNGs bleed,
which the sheets do not, or are too large to make ten at a time), rather than
drawn twice or shrunk from a 300-dpi image. The contact sheet is started first,
on a worker of its own, and staged last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.exports.png import (
    FaceFile,
    PngExport,
    distinct_faces,
    png_staging,
    run_contact_sheet,
    simulation,
    stage_face,
)
from generator.exports.raster import (
    PIXELS_PER_TASK,
    FaceOrder,
    RasterTask,
    TaskResult,
    Transform,
    raster_tasks,
    run_raster_task,
)
from generator.exports.staging import StagedFolder, all_or_nothing
from generator.exports.tts import SheetWriter, TtsExport, tts_staging
from generator.exports.workers import Workers
from generator.render import Renderer

Staging = Callable[[TaskResult], Iterator[Path | None]]
"""What becomes of one task's result: the files it completes, staged (None for a band drawn)."""


@dataclass(repr=False, eq=False)
class ExportRun:
    """What one ``export`` command writes: PNGs, a TTS deck, or both, each in a staging folder of its own."""

    png: PngExport | None = None
    tts: TtsExport | None = None

    def __post_init__(self) -> None:
        if self.png is None and self.tts is None:
            raise ValueError("an export run writes PNGs, a TTS deck or both")
        self.png_files = png_staging(self.png) if self.png else None
        self.tts_files = tts_staging(self.tts) if self.tts else None

    @property
    def renderer(self) -> Renderer:
        """The renderer both exports draw with."""
        export = self.png or self.tts
        assert export is not None, "__post_init__ refuses a run of neither"
        return export.renderer

    @property
    def steps(self) -> int:
        """How many times :func:`stage_exports` yields: once a TTS band drawn or a file staged."""
        return (self.png.steps if self.png else 0) + (self.tts.steps if self.tts else 0)


def stage_exports(run: ExportRun, workers: Workers) -> Iterator[Path | None]:
    """Rasterise what the run needs on ``workers`` and stage every file.

    Yields the path of each file staged (where it will be once committed), and
    ``None`` for each band of a TTS image drawn, :attr:`ExportRun.steps` times in all.
    """
    png, tts, png_files, tts_files = run.png, run.tts, run.png_files, run.tts_files
    contact = workers.submit(run_contact_sheet, png.simulate) if png else None
    transform = simulation(png.simulate) if png else None  # PNGs only: TTS sheets show the cards as printed
    deck_cards = {id(card): index for index, card in enumerate(workers.renderer.deck.cards)}
    waiting = distinct_faces(png) if png else {}  # PNG faces not yet planned, by face key
    jobs: list[tuple[RasterTask, Staging]] = []
    sheets = SheetWriter(tts, tts_files) if tts is not None and tts_files is not None else None
    if tts is not None and sheets is not None:
        jobs.extend(_tts_jobs(tts, sheets, png, png_files, waiting, deck_cards, transform))
    if png is not None and png_files is not None:
        left = list(waiting.values())
        orders = [FaceOrder(deck_cards[id(files[0].card)], files[0].side, png=True, tts=False) for files in left]
        start = 0
        for task in raster_tasks(orders, png.raster, transform=transform):
            jobs.append((task, _png_staging(left[start:start + len(task.orders)], png_files)))
            start += len(task.orders)
    for (_task, staging), result in zip(jobs, workers.map(run_raster_task, [task for task, _ in jobs]), strict=True):
        yield from staging(result)
    if contact is not None and png is not None and png_files is not None:
        yield png_files.write_bytes(png.contact_sheet_name, contact())
    if sheets is not None:
        yield sheets.finish()


def _tts_jobs(tts: TtsExport, sheets: SheetWriter, png: PngExport | None, png_files: StagedFolder | None,
              waiting: dict[str, list[FaceFile]], deck_cards: dict[int, int],
              transform: Transform | None) -> Iterator[tuple[RasterTask, Staging]]:
    """A task for each row of cards of each TTS image, in order; a face the PNGs also show is
    taken from ``waiting`` and made in the same task when the PNGs can be (see the module docstring)."""
    for image in tts.images:
        share = (png is not None and png.raster.bleed == 0
                 and image.columns * png.raster.size_px[0] * png.raster.size_px[1] <= PIXELS_PER_TASK)
        for row in range(image.rows):
            faces = image.row_faces(row)
            files = [waiting.pop(tts.renderer.face_key(card, side), None) if share else None for card, side in faces]
            orders = tuple(FaceOrder(deck_cards[id(card)], side, png=found is not None, tts=True)
                           for (card, side), found in zip(faces, files, strict=True))
            task = RasterTask(orders, png.raster if share and png else None, tts.raster(image), transform,
                              band_slots=image.columns)
            yield task, _band_staging(sheets, files, png_files)


def _band_staging(sheets: SheetWriter, files: list[list[FaceFile] | None],
                  png_files: StagedFolder | None) -> Staging:
    def stage(result: TaskResult) -> Iterator[Path | None]:
        for index, found in enumerate(files):
            if found is not None and png_files is not None:
                yield from stage_face(found, result.png_data(index), png_files)
        yield None
        yield from sheets.add(result.sheet_band)
    return stage


def _png_staging(files: list[list[FaceFile]], png_files: StagedFolder) -> Staging:
    def stage(result: TaskResult) -> Iterator[Path | None]:
        for index, found in enumerate(files):
            yield from stage_face(found, result.png_data(index), png_files)
    return stage


def write_exports(run: ExportRun, jobs: int = 1) -> Iterator[Path | None]:
    """Stage the run on ``jobs`` workers and commit its files all or nothing
    (see :mod:`~generator.exports.staging`), yielding as :func:`stage_exports` does."""
    with all_or_nothing(*filter(None, (run.png_files, run.tts_files))), Workers(run.renderer, jobs) as workers:
        yield from stage_exports(run, workers)
