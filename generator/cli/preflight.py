"""``deckpress preflight FILE.pdf --for SHOP``: what a shop would reject in a PDF, page by page."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import echo_error, reports_errors, say, say_json
from generator.errors import EXIT_INPUT, EXIT_OK, EXIT_RULES, InputError, Position, page_ranges, plural
from generator.shops.preflight import MAX_PREFLIGHT_BYTES, Report, UnreadablePdf, preflight
from generator.shops.presets import Preset, find_preset


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--for", "shop", metavar="SHOP", required=True,
              help="The shop whose rules the files are read against: drivethrucards, press-3mm, or a "
                   "preset file of your own (a path ending in .yaml).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints every problem with its rule and pages, for tools.")
@reports_errors
def preflight_command(files: tuple[Path, ...], shop: str, output_format: str) -> None:
    """Read PDFs and list, page by page, what a print shop would reject.

    Any PDF, deckpress's or not: page and trim sizes, missing TrimBox or
    BleedBox, RGB or Lab colour in content, images and shadings, transparency
    where the shop's PDF/X standard forbids it, fonts not embedded, a missing
    or wrong OutputIntent and PDF/X keys, the PDF version and total ink over
    the shop's limit. These are the rules build --for SHOP keeps; preflight is
    not a certified PDF/X validator, which checks much more.

    Exit status: 0 every file is clean, 1 a shop would reject something, 2 a
    file cannot be read as a PDF.

    \b
    Examples:
      deckpress preflight build/tiki.drivethrucards.pdf --for drivethrucards
      deckpress preflight cards.pdf --for press-3mm --format json
    """
    preset = find_preset(shop, output="pdf-per-deck")
    if preset.output != "pdf-per-deck":
        raise click.UsageError(f"{preset.name} takes one image a face, not a PDF: "
                               f"deckpress build DECK --for {preset.id} writes them")
    exit_code = EXIT_OK
    results = []
    for path in files:
        try:
            report = preflight(_read(path), preset)
        except (InputError, UnreadablePdf) as error:
            message = error.message if isinstance(error, InputError) else f"{path}: {error}"
            echo_error(f"error: {message}")
            exit_code = max(exit_code, EXIT_INPUT)
            results.append({"file": str(path), "readable": False, "error": str(error)})
            continue
        if report.problems:
            exit_code = max(exit_code, EXIT_RULES)
        if output_format == "json":
            results.append(_as_dict(path, report))
        else:
            _print(path, report, preset)
    if output_format == "json":
        say_json({"shop": preset.id, "files": results, "passed": exit_code == EXIT_OK})
    sys.exit(exit_code)


def _read(path: Path) -> bytes:
    """The file's bytes, refusing what is not a regular file or is too large before reading it."""
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if not path.is_file():
        raise InputError(f"{path}: not a regular file")
    size = path.stat().st_size
    if size > MAX_PREFLIGHT_BYTES:
        raise InputError(f"{path}: is {size:,} bytes; preflight reads files of at most {MAX_PREFLIGHT_BYTES:,}",
                         Position(path))
    return path.read_bytes()


def _print(path: Path, report: Report, preset: Preset) -> None:
    """A summary line, then one line a problem: ``FILE: pages 1-3: rule: what``."""
    groups = report.grouped()
    if not groups:
        say(f"ok    {path} for {preset.name}: {plural(report.pages, 'page')}, nothing it would reject")
        return
    say(f"FAIL  {path} for {preset.name}: {plural(report.pages, 'page')}, {plural(len(groups), 'problem')}")
    for rule, message, pages in groups:
        where = f"{page_ranges(pages)}: " if pages else ""
        say(f"{path}: {where}{rule}: {message}")


def _as_dict(path: Path, report: Report) -> dict[str, object]:
    return {"file": str(path), "readable": True, "pages": report.pages, "passed": not report.problems,
            "problems": [{"rule": rule, "message": message, "pages": pages}
                         for rule, message, pages in report.grouped()]}
