"""``deckpress watch``: rebuild a deck's PDF whenever its files change."""

from __future__ import annotations

import math
import time
from pathlib import Path

import click

from generator.cli.booklet import booklet
from generator.cli.build import build
from generator.cli.common import find_decks, lang_option, reports_errors, say
from generator.deck.model import RULES_FILENAME, absolute_folder
from generator.errors import InputError, Position
from generator.render.fonts import find_fonts_dir
from generator.render.layout import BUILTIN_LAYOUTS_DIR
from generator.render.renderer import layout_folders
from generator.watching import Watcher

MIN_INTERVAL = 0.05
"""Seconds: looking at the files more often than this only burns the processor."""
MAX_INTERVAL = 3600.0
"""Seconds: a watch that looks less than once an hour is not watching; a much larger
pause would overflow the clock the watcher sleeps on."""


class Seconds(click.FloatRange):
    """Seconds within a range; click's range lets ``nan`` through (it compares false)."""

    name = "number"

    def convert(self, value, param, ctx):
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds.", param, ctx)
        return seconds


@click.command()
@click.argument("deck", type=click.Path())
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("build"),
              show_default=True, help="Folder for the PDFs.")
@click.option("--booklet/--no-booklet", "with_booklet", default=True, show_default=True,
              help="Also rebuild the rules booklet when the deck has a rules.md.")
@click.option("--interval", type=Seconds(MIN_INTERVAL, MAX_INTERVAL), default=0.5, metavar="SECONDS", show_default=True,
              help="Seconds between looks at the files.")
@lang_option
@reports_errors
def watch(deck: str, out_dir: Path, with_booklet: bool, interval: float, lang: str | None) -> None:
    """Rebuild DECK's print PDF (and rules booklet) whenever its files change.

    Watches the deck folder (deck file, spreadsheets, images, rules), the
    layouts it can use and the fonts folder, but not hidden folders (.git,
    .cache) or build/. Keep the PDF open beside your editor; most viewers
    reload it. A broken edit prints its error and the watch goes on. Press
    Ctrl-C to stop.

    \b
    Examples:
      deckpress watch cards/tiki
      deckpress watch cards/goblins --no-booklet
      deckpress watch cards/tiki --lang fr     the French sheets, as you translate
    """
    paths = find_decks([deck])
    if len(paths) != 1:
        raise InputError(f"watch follows one deck; this folder holds {len(paths)}", Position(Path(deck)))
    deck_path = paths[0]
    context = click.get_current_context()
    watched = watched_roots(deck_path)

    def roots() -> list[Path]:
        """The folders to watch as the deck stands now; a folder that comes or goes is said."""
        nonlocal watched
        now = watched_roots(deck_path)
        if now != watched:
            say(f"now watching {shown_roots(now)}")
            watched = now
        return now

    def rebuild(changes: list[Path]) -> None:
        names = ", ".join(sorted({path.name for path in changes}))
        say(f"changed: {names}")
        started = time.perf_counter()
        arguments = [str(deck_path), "--out", str(out_dir), "--quiet"] + (["--lang", lang] if lang else [])
        status = _run(context, build, arguments)
        # After a failed build the booklet would only repeat the same deck error.
        if status == 0 and with_booklet and (deck_path.parent / RULES_FILENAME).is_file():
            status = _run(context, booklet, arguments)
        outcome = "rebuilt" if status == 0 else "build failed; fix the file and save again"
        say(f"{outcome} in {time.perf_counter() - started:.1f}s")

    try:
        # All inside the try: Ctrl-C as soon as "watching" shows, or during the first build,
        # stops as cleanly as later on (a signal can land while the line is still being written).
        say(f"watching {shown_roots(watched)} (Ctrl-C stops)")
        Watcher(roots, rebuild, interval=interval, skipped=(out_dir,), report=say).run(first=[deck_path])
    except KeyboardInterrupt:
        say("stopped")


def watched_roots(deck_path: Path) -> list[Path]:
    """The deck's folder and, those of them that exist, the project's layout folder and its
    fonts folder.

    They are found from where the deck file is, as a build finds its layouts and fonts, not
    from what the deck file says: a deck that does not load (a watch started on a broken
    edit) is watched whole, and the save that mends it is followed by a layout's or a font's.
    """
    folder = absolute_folder(deck_path)
    roots = [deck_path.parent]
    bundled = BUILTIN_LAYOUTS_DIR.resolve()
    roots += [layouts for layouts in layout_folders(folder) if layouts.is_dir() and layouts.resolve() != bundled]
    fonts = find_fonts_dir(folder)  # a folder, when there is one
    if fonts is not None:
        roots.append(fonts)
    unique: dict[Path, Path] = {}
    for root in roots:
        unique.setdefault(root.resolve(), root)  # a folder reached twice is watched once, as first named
    return list(unique.values())


def shown_roots(roots: list[Path]) -> str:
    return ", ".join(str(root) for root in roots)


def _run(context: click.Context, command: click.Command, arguments: list[str]) -> int:
    """Run another command in-process, parsed as if typed; return its exit status.

    Its errors are printed by the command itself, so the watch only reports the outcome.
    """
    try:
        with command.make_context(command.name, list(arguments), parent=context) as sub_context:
            command.invoke(sub_context)
    except SystemExit as stop:
        return int(stop.code or 0)
    except click.exceptions.Exit as stop:
        return stop.exit_code
    return 0
