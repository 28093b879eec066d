"""``deckpress calibrate``: a two-page sheet that measures a printer's back-page offset."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.build import paper_options, parse_offset, resolve_paper
from generator.cli.common import reports_errors, say
from generator.sheets.calibration import CALIBRATION_MODES, write_calibration
from generator.sheets.style import MM, load_style


def _named_file(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """``--out`` as given, refused if it names no file (``--out ""`` is the folder ``.``)."""
    if not value.name:
        raise click.BadParameter("needs a file name, such as build/calibration.pdf.", ctx, param)
    return value


@click.command()
@paper_options
@click.option("--duplex", type=click.Choice(CALIBRATION_MODES), default="long", show_default=True,
              help="How the printer turns the sheet: flip on the long or the short edge.")
@click.option("--back-offset", default="0,0", callback=parse_offset, metavar="X,Y",
              help="Print the back with this offset (mm) already applied, to check a correction.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("build/calibration.pdf"), show_default=True, callback=_named_file,
              help="Where to write the sheet; .pdf is added to a name without it.")
@reports_errors
def calibrate(paper: str | None, orientation: str, duplex: str, back_offset: tuple[float, float],
              out_file: Path) -> None:
    """Write a calibration sheet that measures how far your printer shifts back pages.

    Print both pages on one sheet (two-sided, at actual size), hold it
    against the light and read the two numbers where the lines from the back
    meet the ticks on the front. Pass them to `deckpress build --back-offset X,Y`.

    \b
    Examples:
      deckpress calibrate
      deckpress calibrate --paper letter --duplex short
      deckpress calibrate --back-offset 0.5,-1.25     check a correction
    """
    if out_file.suffix.lower() != ".pdf":  # 'cal' or 'cal.v2' is named as a PDF, not left without one
        out_file = out_file.with_name(f"{out_file.name}.pdf")
    sheet = resolve_paper(load_style(), paper, orientation)
    offset_mm = (back_offset[0] / MM, back_offset[1] / MM)
    write_calibration(out_file, sheet, duplex, offset_mm)
    say(f"wrote {out_file}: print it two-sided ({duplex} edge) at actual size, hold it against "
               "the light and read X and Y where the back's lines cross the ticks.")
