"""``deckpress calibrate``: a two-page sheet that measures a printer's back-page offset."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from generator.cli.common import given, reports_errors, say
from generator.cli.sheet_options import CutterChoice, cutter_options, paper_options, parse_offset, resolve_paper
from generator.sheets.calibration import (
    CALIBRATED_OPTIONS,
    CALIBRATION_MODES,
    CalibratedBuild,
    mm_argument,
    write_calibration,
    write_cutter_calibration,
)
from generator.sheets.geometry import SheetSettings
from generator.sheets.style import MM, load_style

DEFAULT_OUT = Path("build/calibration.pdf")


def _named_file(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """``--out`` as given, refused if it names no file (``--out ""`` is the folder ``.``)."""
    if not value.name:
        raise click.BadParameter("needs a file name, such as build/calibration.pdf.", ctx, param)
    return value


def _calibrated(back_offset: tuple[float, float]) -> CalibratedBuild:
    """The options given that a build of the calibrated sheets takes too, for the sheet's build line:
    those that shape the marks, the paper and the cut, and the duplex mode and back offset."""
    context = click.get_current_context()
    given_options = frozenset(option for option in CALIBRATED_OPTIONS
                              if given(context, option.removeprefix("--").replace("-", "_")))
    others = ["--duplex", context.params["duplex"]] if given(context, "duplex") else []
    if given(context, "back_offset"):
        others += ["--back-offset", ",".join(mm_argument(part) for part in back_offset)]
    return CalibratedBuild(given_options, tuple(others))


@click.command()
@paper_options
@click.option("--duplex", type=click.Choice(CALIBRATION_MODES), default="long", show_default=True,
              help="How the printer turns the sheet: flip on the long or the short edge.")
@click.option("--back-offset", default="0,0", callback=parse_offset, metavar="X,Y",
              help="Print the back with this offset (mm) already applied, to check a correction.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              default=DEFAULT_OUT, show_default=True, callback=_named_file,
              help="Where to write the sheet; .pdf is added to a name without it. With --cutter, "
                   "build/calibration-<cutter>.pdf by default, and its cut file beside it.")
@reports_errors
@cutter_options(cut_file_help="With --cutter, the cut file written beside the sheet (<sheet>.cut.svg or "
                              ".cut.dxf), which cuts its rectangle [default: svg].")
def calibrate(paper: str | None, orientation: str, duplex: str, back_offset: tuple[float, float],
              out_file: Path, cutting: CutterChoice) -> None:
    """Write a calibration sheet that measures how far your printer shifts back pages.

    Print both pages on one sheet (two-sided, at actual size), hold it
    against the light and read the two numbers where the lines from the back
    meet the ticks on the front. Pass them to `deckpress build --back-offset X,Y`.

    \b
    Examples:
      deckpress calibrate
      deckpress calibrate --paper letter --duplex short
      deckpress calibrate --back-offset 0.5,-1.25     check a correction
      deckpress calibrate --cutter silhouette         a test cut before spending card stock

    With --cutter, one page instead: the cutter's registration marks and a
    card-sized rectangle to cut, ringed by guides 0.5 and 1 mm inside and
    outside it, and beside it the cut file (--cut-file, svg by default) that
    cuts it, with the mark options and --corner-radius a build would take.
    Its marks are the ones a build prints for poker cards on that paper:
    turned the way that holds most, arms as long as the cards leave room for.
    The page ends with the build command that prints what was calibrated:
    the cutter, cut file, orientation and arm length, and every paper, mark
    and duplex option given.
    """
    if cutting.cut_file and cutting.cutter is None:
        raise click.BadParameter("the cut file is the cutter's sheet's; add --cutter", param_hint="'--cut-file'")
    if cutting.cutter is not None and out_file == DEFAULT_OUT:
        out_file = out_file.with_name(f"calibration-{cutting.cutter.cutter.name}.pdf")
    if out_file.suffix.lower() != ".pdf":  # 'cal' or 'cal.v2' is named as a PDF, not left without one
        out_file = out_file.with_name(f"{out_file.name}.pdf")
    style = load_style()
    sheet = resolve_paper(style, paper, orientation)
    if cutting.cutter is not None:
        # what the sheet's build line prints with (no --margin or --gutter: calibrate takes neither)
        build = cutting.applied_to(dataclasses.replace(SheetSettings.default(style), paper=sheet))
        cut_path = write_cutter_calibration(out_file, sheet, cutting.cutter, cutting.corner_radius,
                                            cutting.cut_file or "svg", _calibrated(back_offset),
                                            tuple(style.papers.values()), build=build)
        say(f"wrote {out_file} and {cut_path}: print the page at actual size, load both in the "
            "cutter's software with the marks the page names, and cut.")
        return
    offset_mm = (back_offset[0] / MM, back_offset[1] / MM)
    write_calibration(out_file, sheet, duplex, offset_mm)
    say(f"wrote {out_file}: print it two-sided ({duplex} edge) at actual size, hold it against "
               "the light and read X and Y where the back's lines cross the ticks.")
