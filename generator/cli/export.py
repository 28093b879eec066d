"""``deckpress export``: card images (PNG) and Tabletop Simulator decks."""

from __future__ import annotations

import sys

import click

from generator.access.simulation import SIMULATIONS
from generator.cli.common import find_decks, given, lang_option, reports_errors, say
from generator.deck.translation import load_translated_deck, require_translated
from generator.errors import did_you_mean, plural, printable
from generator.exports import ExportRun, load_export_renderer, plan_png_export, plan_tts_export, write_exports
from generator.exports.png import DEFAULT_DPI
from generator.exports.tts import check_url_base
from generator.machine import usable_cores

MIN_DPI, MAX_DPI = 10, 1200
"""Resolutions ``--dpi`` accepts: below 10 a card is a few pixels; above 1,200 a poker card
alone is 12 megapixels, more than any screen or print service uses (and a large card soon
meets the pixel limit of one image, ``MAX_RASTER_PIXELS``)."""
MAX_JOBS = 256
"""More worker processes than this is a typo: each holds the deck and its fonts in memory."""


@click.command()
@click.argument("deck", type=click.Path())
@click.option("--png", "png_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write one PNG per card face, the shared back once as DECK_ID.back.png, "
                   "and DECK_ID.contact-sheet.png.")
@click.option("--dpi", type=click.IntRange(MIN_DPI, MAX_DPI), default=DEFAULT_DPI, show_default=True,
              help="Resolution of the PNGs.")
@click.option("--bleed", is_flag=True,
              help="Add 1/8 in (3.175 mm) of background art on every side of each PNG, "
                   "as print-on-demand services ask: a poker card at 300 dpi is then "
                   "825x1125 px instead of 750x1050.")
@click.option("--simulate", type=click.Choice(SIMULATIONS), metavar="DEFICIENCY",
              help="Show the PNGs as players with this colour-vision deficiency see them: "
                   "protanopia, deuteranopia or tritanopia (Machado et al. 2009). "
                   "Best written to a folder of their own.")
@click.option("--tts", "tts_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write Tabletop Simulator deck sheets, the backs and DECK_ID.json.")
@click.option("--tts-split", "split", metavar="FIELD",
              help="One Tabletop Simulator deck per value of this field [default: one per back "
                   "that several cards share].")
@click.option("--url-base", "url_base", metavar="URL",
              help="Link the Tabletop Simulator images as URL/<file> (where you will upload DIR) "
                   "instead of file:// paths on this computer.")
@lang_option
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None, metavar="N",
              help="Rasterise on N processes at once [default: every core]. The files are the "
                   "same whatever N is.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
@click.pass_context
@reports_errors
def export(ctx: click.Context, deck: str, png_dir: str | None, dpi: int, bleed: bool,
           simulate: str | None, tts_dir: str | None, split: str | None, url_base: str | None,
           lang: str | None, jobs: int | None, quiet: bool) -> None:
    """Export one deck as card images and/or a Tabletop Simulator deck.

    DECK is a deck file or its folder. Every face is checked first: a card that
    cannot be laid out stops the export (exit 1) before any file is written.
    Files appear together once all are drawn; a failed or interrupted export
    leaves the previous one as it was. Files an earlier export of this deck
    wrote and this one does not (a removed card's image) are deleted; other
    files in DIR are left alone.

    \b
    --tts writes DECK_ID-faces-N.png sheets (at most 10x7 cards, 4096 px a
    side), the backs (DECK_ID-back.png, or DECK_ID-backs-N.png sheets for
    double-sided cards) and DECK_ID.json, a saved object: copy it into
    Tabletop Simulator's "Saves/Saved Objects" folder and spawn it from
    Objects > Saved Objects. Cards with different backs make a deck each,
    side by side. Its image URLs are file:// paths on this computer; to
    share the deck, upload DIR's images and export again with --url-base.

    \b
    Examples:
      deckpress export cards/cereal-killer --png build/png/cereal-killer
      deckpress export cards/tiki --png build/tiki --bleed --dpi 300
      deckpress export cards/tiki --png build/tiki-deutan --simulate deuteranopia
      deckpress export cards/goblins --tts build/tts
      deckpress export cards/goblins --tts build/tts --url-base https://example.com/goblins/
      deckpress export cards/tiki --lang fr --png build/png/tiki.fr
    """
    if not png_dir and not tts_dir:
        raise click.UsageError("say what to export: --png DIR, --tts DIR or both")
    if not png_dir:
        for name in ("dpi", "bleed", "simulate"):
            if given(ctx, name):
                raise click.UsageError(f"--{name} applies to --png images only")
    if not tts_dir:
        for name, option in (("split", "--tts-split"), ("url_base", "--url-base")):
            if given(ctx, name):
                raise click.UsageError(f"{option} applies to --tts decks only")
    if url_base is not None:
        try:
            url_base = check_url_base(url_base)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="'--url-base'") from None
    paths = find_decks([deck])
    if len(paths) != 1:
        raise click.UsageError(f"export takes one deck; {deck} holds {len(paths)}")
    renderer = load_export_renderer(require_translated(load_translated_deck(paths[0], lang)))
    if split is not None and split not in renderer.deck.fields:
        unknown = f"the deck has no field '{split}'{did_you_mean(split, renderer.deck.fields)}"
        raise click.BadParameter(printable(unknown), param_hint="'--tts-split'")
    png = plan_png_export(renderer, png_dir, dpi, bleed, simulate) if png_dir else None
    try:
        tts = plan_tts_export(renderer, tts_dir, split, url_base) if tts_dir else None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--tts-split'") from None
    run = ExportRun(png=png, tts=tts)
    # Nothing lands in either folder until every file of both exports is drawn.
    with click.progressbar(write_exports(run, jobs or usable_cores()), length=run.steps, hidden=quiet,
                           label=f"exporting {renderer.deck.output_name}", file=sys.stderr) as written:
        for _ in written:
            pass
    if quiet:
        return
    if png:
        width, height = png.raster.size_px
        say(f"{renderer.deck.output_name}: {len(png.faces)} card images ({width}x{height} px, {dpi} dpi"
                   f"{', with bleed' if bleed else ''}{f', as seen with {simulate}' if simulate else ''}) "
                   f"and {png.contact_sheet_name} in {png.folder}")
    if tts:
        piles = f"{len(tts.piles)} decks, " if len(tts.piles) > 1 else ""
        sheets = plural(len(tts.sheets), "deck sheet")
        sizes = sorted({f"{sheet.faces.card_px[0]}x{sheet.faces.card_px[1]}" for sheet in tts.sheets})
        backs = len(tts.images) - len(tts.sheets)
        say(f"{renderer.deck.output_name}: {piles}{sheets} ({' and '.join(sizes)} px a card), "
            f"{plural(backs, 'back image')} and {tts.json_path}")

