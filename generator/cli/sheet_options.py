"""Options that choose the print sheet, shared by ``build``, ``check`` and ``calibrate``.

The paper (``--paper``, ``--orientation``), the readers of the back offset and of lengths in
millimetres, and the cutting machine's marks and cut file (``--cutter``, ``--mark-*``,
``--cut-file``, ``--corner-radius``). The cutter options are
one block: :func:`cutter_options` adds them to a command and hands the command one
:class:`CutterChoice`, checked as a whole, so every command says the same about them.
This module draws nothing, so ``check`` can use it without loading the PDF libraries.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from generator.cli.common import given
from generator.errors import printable
from generator.sheets.cutting import (
    CUT_FILE_FORMATS,
    FOLD_REFUSAL,
    CutterSettings,
    CutterSettingsError,
    cutter_settings,
    load_cutters,
)
from generator.sheets.geometry import DUPLEX_MODES, MAX_BACK_OFFSET_MM, SheetSettings
from generator.sheets.style import LARGEST_PAPER, MM, ORIENTATIONS, Paper, SheetStyle, find_paper, load_style

CUTTER_OPTIONS = ("cutter", "mark_inset", "mark_thickness", "mark_length")
CUT_FILE_OPTIONS = ("cut_file", "corner_radius")
CHECK_SHEET_OPTIONS = ("paper", "orientation", "duplex")


def paper_options(command: Callable) -> Callable:
    """``--paper`` and ``--orientation``, shared by ``build``, ``check`` and ``calibrate``."""
    command = click.option(
        "--orientation", type=click.Choice(ORIENTATIONS), default="portrait", show_default=True,
        help="Which way the paper lies (with --cutter, by default whichever holds more cards).")(command)
    return click.option(
        "--paper", default=None, metavar="NAME|WxH",
        help="a4 (default), letter, a3, a5, b5, legal, tabloid, or a size such as 200x280mm "
             "or 8.5x14in (sizes without a unit are in mm; --orientation, not the order of "
             "the sides, says which way it lies). Paper sizes live in "
             "generator/sheets/sheets.yaml.")(command)


def resolve_paper(style: SheetStyle, paper: str | None, orientation: str) -> Paper:
    try:
        return find_paper(paper or style.default_paper, orientation, style)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--paper'") from None


@dataclass(repr=False, eq=False)
class CutterChoice:
    """What the cutter options asked for, checked: the marks, the cut file and its corners."""

    cutter: CutterSettings | None = None
    cut_file: str | None = None
    corner_radius: float = 0.0
    """Points; the default (``cutters.yaml``'s) already filled in when a cut file is asked for."""
    gutter: float | None = None
    """The gutter a cutter needs, when the command line gave none (points)."""

    def applied_to(self, settings: SheetSettings) -> SheetSettings:
        """``settings`` printing for this cutter and writing this cut file."""
        if self.cutter is None and self.cut_file is None:
            return settings
        return dataclasses.replace(settings, cutter=self.cutter, cut_file=self.cut_file,
                                   corner_radius=self.corner_radius,
                                   gutter=settings.gutter if self.gutter is None else self.gutter)


def parse_offset(context: click.Context, parameter: click.Parameter, value: str) -> tuple[float, float]:
    """``X,Y`` in millimetres -> (x, y) in points; each within +-MAX_BACK_OFFSET_MM."""
    try:
        x_text, y_text = value.split(",")
        offset_mm = (float(x_text), float(y_text))
    except ValueError:
        raise click.BadParameter(f"expected two numbers in millimetres, like 0.5,-1.2; found '{printable(value)}'") \
            from None
    if not all(abs(part) <= MAX_BACK_OFFSET_MM for part in offset_mm):  # also refuses nan and inf
        raise click.BadParameter(f"each part must lie between -{MAX_BACK_OFFSET_MM:g} and "
                                 f"{MAX_BACK_OFFSET_MM:g} mm; found '{printable(value)}'")
    return offset_mm[0] * MM, offset_mm[1] * MM


def parse_distance(context: click.Context, parameter: click.Parameter, value: float | None) -> float | None:
    """A length in millimetres (a margin, a gutter, a mark's): zero or more, and no longer than the
    largest paper."""
    if value is not None and not (math.isfinite(value) and 0 <= value * MM <= LARGEST_PAPER):
        raise click.BadParameter(f"expected a length in millimetres from 0 to {LARGEST_PAPER / MM:.0f}; "
                                 f"found '{value:g}'")
    return value


def cutter_choice(context: click.Context, values: dict[str, Any], duplex: str | None) -> CutterChoice:
    """The cutter options' ``values`` checked together: an unknown cutter, an inset under the
    cutter's least, a mark option without ``--cutter``, a cutter or cut file with ``--duplex
    fold`` are usage errors, one line each."""
    name, cut_file = values.get("cutter"), values.get("cut_file")
    for option in ("mark_inset", "mark_thickness", "mark_length"):
        if values.get(option) is not None and name is None:
            raise click.BadParameter("needs --cutter", param_hint=f"'--{option.replace('_', '-')}'")
    if values.get("corner_radius") is not None and name is None and cut_file is None:
        raise click.BadParameter("rounds the cut file's corners; add --cut-file svg or dxf",
                                 param_hint="'--corner-radius'")
    if name is None and cut_file is None:
        return CutterChoice()
    if duplex == "fold":
        raise click.UsageError(FOLD_REFUSAL if name else FOLD_REFUSAL.replace("--cutter", "--cut-file"))
    style = load_cutters()
    try:
        settings = None if name is None else cutter_settings(
            style, name, values.get("mark_inset"), values.get("mark_thickness"), values.get("mark_length"),
            choose_orientation=not given(context, "orientation"))
    except CutterSettingsError as error:
        raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None
    radius = values.get("corner_radius")
    return CutterChoice(
        cutter=settings, cut_file=cut_file,
        corner_radius=style.corner_radius if radius is None else radius * MM,
        gutter=style.gutter if settings is not None and not given(context, "gutter") else None)


BUILD_CUT_FILE_HELP = ("Also write OUT/<deck>.cut.svg or .cut.dxf: one closed path per card slot along its "
                       "trim line (group or layer 'cut') and the marks ('registration'), in millimetres, "
                       "where the PDF prints them.")


def cutter_options(command: Callable | None = None, *, cut_file: bool = True,
                   cut_file_help: str = BUILD_CUT_FILE_HELP) -> Callable:
    """Add the cutter options to a command, which receives them as one ``cutting`` argument
    (a :class:`CutterChoice`); ``cut_file=False`` leaves out ``--cut-file`` and ``--corner-radius``,
    and ``cut_file_help`` says what the command's cut file holds and where it goes."""

    def decorate(function: Callable) -> Callable:
        names = CUTTER_OPTIONS + (CUT_FILE_OPTIONS if cut_file else ())

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(name, None) for name in names}
            kwargs["cutting"] = cutter_choice(click.get_current_context(), values, kwargs.get("duplex"))
            return function(*args, **kwargs)

        options = [
            click.option("--cutter", default=None, metavar="NAME",
                         help="Print for a cutting machine: silhouette (a square and two L marks, "
                              "every Silhouette but the Cameo 5 Alpha) or silhouette-4 (four L marks). "
                              "Marks go on front pages only; cards fit between them, centred. "
                              "Marks are data in generator/sheets/cutters.yaml."),
            click.option("--mark-inset", type=float, default=None, metavar="MM", callback=parse_distance,
                         help="From each paper edge to the marks' corners [default: 10, the least "
                              "Silhouette Studio accepts; 15.875 for the Auto Sheet Feeder]."),
            click.option("--mark-thickness", type=float, default=None, metavar="MM", callback=parse_distance,
                         help="Thickness of the marks' lines [default: 1; from 0.3 to 1]."),
            click.option("--mark-length", type=float, default=None, metavar="MM", callback=parse_distance,
                         help="Length of the L marks' arms, exactly [default: 5, or longer up to 20 "
                              "where the page leaves room]."),
        ]
        if cut_file:
            options += [
                click.option("--cut-file", type=click.Choice(CUT_FILE_FORMATS), default=None,
                             help=cut_file_help),
                click.option("--corner-radius", type=float, default=None, metavar="MM", callback=parse_distance,
                             help="Round the cut paths' corners [default: 3, a poker card's; 0 for square]."),
            ]
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate(command) if command is not None else decorate


def check_sheet_options(command: Callable) -> Callable:
    """``check``'s sheet options: the paper, duplex mode and cutter a build will print with, so
    that a deck ``check`` passes with them is one ``build`` prints with them. The command
    receives them as one ``sheets`` argument (:class:`SheetSettings`)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        paper, orientation, duplex = (kwargs.pop(name) for name in CHECK_SHEET_OPTIONS)
        cutting = kwargs.pop("cutting")
        style = load_style()
        settings = dataclasses.replace(SheetSettings.default(style),
                                       paper=resolve_paper(style, paper, orientation), duplex=duplex)
        kwargs["sheets"] = cutting.applied_to(settings)
        return command(*args, **kwargs)

    decorated = cutter_options(wrapper, cut_file=False)
    decorated = click.option("--duplex", type=click.Choice(DUPLEX_MODES), default="long", show_default=True,
                             help="The duplex mode to check the sheets for, as build takes it.")(decorated)
    return paper_options(decorated)
