"""``deckpress new``: a fresh deck folder that checks, builds and prints at once.

The starting files live beside this module as plain files (a deck, a layout,
its SVG icons and a rules text), so changing what new games start from means editing those
files, not this code. Markers like ``@@TITLE@@`` are filled in; nothing else is
templated, because the rules text has booklet directives of its own.

A new deck prints its title on card backs and on the booklet's cover in the
bundled DejaVu Sans fonts, so a title those fonts cannot show (Chinese, emoji) is
refused here, when it is easy to change, rather than by the first build.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
import unicodedata
from importlib import resources
from pathlib import Path

from generator.deck import load_deck
from generator.deck.model import MAX_ID_BYTES
from generator.errors import InputError, Position
from generator.render import load_renderer
from generator.render.fonts import DEFAULT_FONT, FACE_SUFFIXES, load_font_registry
from generator.render.markup import escape_markup

SCAFFOLD_FILES = ("deck.yaml", "layout.yaml", "rules.md", "icons/hero.svg", "icons/monster.svg",
                  "icons/spell.svg", "icons/sword.svg")
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def create_deck(cards_dir: Path, name: str, title: str | None = None) -> Path:
    """Create ``cards_dir/name`` with a deck, a layout and rules; return the folder.

    ``name`` is the folder name (lower case, digits and hyphens, as in ``space-race``);
    ``title`` is the game's name as printed, by default made from ``name``.
    """
    if not NAME_PATTERN.match(name):
        raise InputError(f"deck name '{name}' may use only a-z, 0-9 and '-', and starts with a letter or a "
                         "digit (it names the folder)", Position(cards_dir / name))
    if len(name) > MAX_ID_BYTES:
        raise InputError(f"deck name is {len(name)} characters long; at most {MAX_ID_BYTES} (it is the deck's id)",
                         Position(cards_dir))
    folder = cards_dir / name
    if folder.exists():
        raise InputError("already exists; choose another name or remove it first", Position(folder))
    title = title or name.replace("-", " ").title()
    _check_title(title)
    schema_dir = Path(str(resources.files("generator.schema")))
    markers = {
        # A JSON string is a valid YAML double-quoted one: quotes and backslashes survive.
        "@@TITLE_YAML@@": json.dumps(title, ensure_ascii=False),
        # The back prints its name as markup: 'Cats & *Dogs' must not open an italic.
        "@@BACK_TITLE_YAML@@": json.dumps(escape_markup(title), ensure_ascii=False),
        "@@TITLE@@": title,
        "@@FOLDER@@": str(folder),
        "@@DECK_SCHEMA@@": _relative(schema_dir / "deck.schema.json", folder),
        "@@LAYOUT_SCHEMA@@": _relative(schema_dir / "layout.schema.json", folder),
    }
    made = [parent for parent in (cards_dir, *cards_dir.parents) if not parent.exists()]
    cards_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", suffix=".tmp", dir=cards_dir))
    try:
        _write_scaffold(staging / name, markers)
        _refuse_a_title_the_back_cannot_show(staging / name, title)
        os.rename(staging / name, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        for parent in made:  # deepest first: only the folders this call made, and only if empty
            with contextlib.suppress(OSError):
                parent.rmdir()
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return folder


def _write_scaffold(folder: Path, markers: dict[str, str]) -> None:
    scaffold = resources.files(__package__)
    for file_name in SCAFFOLD_FILES:
        text = scaffold.joinpath(file_name).read_text(encoding="utf-8")
        for marker, value in markers.items():
            text = text.replace(marker, value)
        (folder / file_name).parent.mkdir(parents=True, exist_ok=True)
        # the staging folder as a whole is put in place with one rename, so a plain write is safe
        (folder / file_name).write_text(text, encoding="utf-8")


def _refuse_a_title_the_back_cannot_show(folder: Path, title: str) -> None:
    """Lay out the new deck's back, the one face its title is printed on, before the deck
    is put in place: ``new`` promises a deck that passes check, so a title too long for the
    card back is refused here, while it is easy to change, not by the first build."""
    deck = load_deck(folder)
    problems = [problem for problem in load_renderer(deck).problems()
                if getattr(problem, "side", None) == "back"]
    if any(getattr(problem, "kind", None) == "fit" for problem in problems):
        raise InputError(f"title '{title}' does not fit on the card back, even in the smallest type the "
                         "layout allows; choose a shorter title, or one with shorter words", field="--title")
    if problems:
        raise InputError(f"title '{title}' cannot be printed on the card back: {problems[0].message}",
                         field="--title")


def _check_title(title: str) -> None:
    """Refuse a title that the new deck could not print, or that would break its files."""
    if not title.strip():
        raise InputError("the title is empty", field="--title")
    if any(unicodedata.category(char).startswith("C") for char in title):
        raise InputError(f"title {title!r} holds a line break or control character; "
                         "a title is printed on one line", field="--title")
    fonts = load_font_registry(None)  # only the bundled fonts: the new layout and the booklet use them
    faces = [DEFAULT_FONT + suffix for suffix in FACE_SUFFIXES.values()]
    missing = sorted({char for name in faces for char in fonts.missing_characters(name, title)})
    if missing:
        raise InputError(f"title '{title}' has characters the bundled DejaVu Sans fonts cannot print: "
                         f"{' '.join(missing)}", field="--title")


def _relative(target: Path, folder: Path) -> str:
    """A path editors can follow from the new deck folder to a schema file."""
    return Path(os.path.relpath(target.resolve(), folder.resolve())).as_posix()
