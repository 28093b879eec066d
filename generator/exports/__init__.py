"""Exports for screens rather than paper: PNG images and Tabletop Simulator decks.

Both start from the same card drawings the PDF uses. Each different face is
drawn once, onto a page of its own in a PDF kept in memory, and rendered to
pixels by PDFium (:mod:`~generator.exports.raster`), then:

- :mod:`~generator.exports.png`: one PNG per card face at print resolution,
  optionally with the 1/8 in bleed print-on-demand services ask for;
- :mod:`~generator.exports.contact`: a contact sheet of the whole deck;
- :mod:`~generator.exports.tts`: deck sheets, backs and a saved-object JSON
  for Tabletop Simulator, a deck for each back several cards share.

Which backs cards share, and so which are drawn and named once, is decided in
one place (:mod:`~generator.exports.backs`). Data moves one way. Each export is
planned first (pure: which files, which grid, which names);
:mod:`~generator.exports.writing` turns the plans into raster tasks, which
:mod:`~generator.exports.workers` runs on every core a few at a time, and stages
each file as its pixels come back, yielding after each step so the command line
can show progress; a face both exports show is rasterised once. Large files are
made in pieces so that no process holds one whole: TTS sheets a row of cards at
a time (:mod:`~generator.exports.bands`), the saved object as it is encoded
(:mod:`~generator.exports.jsonwriter`), the contact sheet in bands. The files
are put in place together only when all are drawn (:mod:`~generator.exports.staging`).
"""

from collections.abc import Iterator

from generator.deck.model import Deck
from generator.exports.png import PngExport, plan_png_export
from generator.exports.raster import PRINT_BLEED, with_bleed
from generator.exports.tts import TtsExport, plan_tts_export
from generator.exports.writing import ExportRun, write_exports
from generator.render import Renderer, load_renderer


def load_export_renderer(deck: Deck) -> Renderer:
    """The deck's renderer, bleeding by 1/8 in, with every face checked before anything is written."""
    renderer = with_bleed(load_renderer(deck), PRINT_BLEED)
    renderer.validate()
    return renderer


def write_png_export(export: PngExport, jobs: int = 1) -> Iterator:
    """Write a PNG export on its own (see :func:`~generator.exports.writing.write_exports`)."""
    return write_exports(ExportRun(png=export), jobs)


def write_tts_export(export: TtsExport, jobs: int = 1) -> Iterator:
    """Write a TTS export on its own (see :func:`~generator.exports.writing.write_exports`)."""
    return write_exports(ExportRun(tts=export), jobs)


__all__ = ["ExportRun", "PngExport", "TtsExport", "load_export_renderer", "plan_png_export", "plan_tts_export",
           "write_exports", "write_png_export", "write_tts_export"]
