"""The table of limits in the documentation (docs/reference/limits.md) and the limits in the code
say the same thing.

Every constant the table names exists and says why it has its value (a docstring), and
every ``MAX_`` constant in the code is in the table, or below as a bound on what deckpress
shows or keeps in memory rather than on what a file or a command line may ask for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

NOT_INPUT_LIMITS = {
    "MAX_BARS": "bars one composition chart draws; the rest are summed",
    "MAX_VALUE_LABEL": "points of a chart given to value names",
    "MAX_FINDINGS": "reward mismatches printed under a chart",
    "MAX_DEFAULT_VALUES": "which undeclared fields get a breakdown",
    "MAX_LISTED_CARDS": "cards the preview names under one face; the rest are counted",
    "MAX_LISTED_COPIES": "print positions the preview lists for one card",
    "MAX_CACHED_IMAGES": "preview images kept in memory; older ones are drawn again",
    "MAX_REMEMBERED": "drawings remembered per canvas; past it they are remembered afresh",
    "MAX_MEMO_ENTRIES": "what planning remembers of earlier faces; past it, worked out afresh",
    "MAX_INK_GLYPHS": "glyph extents a process remembers; past it, read from the font again",
    "MAX_COLUMNS": "columns of the contact sheet, and of a Tabletop Simulator sheet",
    "MAX_ROWS": "rows of a Tabletop Simulator sheet (its format, not a limit on the deck)",
    "MAX_CHOICES": "when import takes a column for a choice",
    "MAX_IMAGE_HEIGHT_SHARE": "how tall a booklet picture is drawn",
    "MAX_ERROR_BYTES": "what of git's complaint is kept, for its first line",
    "MAX_KEPT_BYTES": "files read at a revision kept for a second read; past it git is asked again",
    "MAX_KEPT_ART_BYTES": "converted art the shop check keeps for the drawing; past it the drawing converts again",
    "MAX_POINTER_BYTES": "a file git keeps to name the checked-out commit is read only this far",
    "MAX_DIGITS": "decimal places diff shows a chance with, to tell two apart",
    "MAX_REASONS": "reasons serve --since lists under one face; the rest are counted",
    "MAX_DETAILS": "changes serve --since lists in one face's detail view",
    "MAX_LISTED_CHANGES": "changed and removed cards the serve --since panel names; the rest are counted",
    "MAX_SUMMARY": "characters of the serve --since panel's line for one changed card",
    "MAX_LFS_POINTER_BYTES": "a blob this small is read whole to ask whether it is a Git LFS pointer (its format's)",
    "MAX_POSTSCRIPT_NAME": "a font name with a number added stays within PostScript's (the format's)",
}


def readme_limits() -> set[str]:
    """The constants named in the last column of the documentation's table of limits."""
    text = (REPO / "docs" / "reference" / "limits.md").read_text(encoding="utf-8")
    table = text[text.index("| limit | value | why | constant |"):]
    rows = table[:table.index("\n\n")].splitlines()[2:]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.rsplit("|", 2)[-2])}


def module_constants() -> dict[str, list[tuple[Path, str | None]]]:
    """Upper-case names assigned at the top of a module of the package, with the docstring
    written under each (None when there is none)."""
    found: dict[str, list[tuple[Path, str | None]]] = {}
    for path in sorted((REPO / "generator").rglob("*.py")):
        body = ast.parse(path.read_text(encoding="utf-8")).body
        for index, node in enumerate(body):
            if not isinstance(node, (ast.Assign, ast.AnnAssign)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [element for target in targets
                     for element in (target.elts if isinstance(target, ast.Tuple) else [target])]
            following = body[index + 1] if index + 1 < len(body) else None
            docstring = (following.value.value if isinstance(following, ast.Expr)
                         and isinstance(following.value, ast.Constant) and isinstance(following.value.value, str)
                         else None)
            for name in names:
                if isinstance(name, ast.Name) and name.id.isupper():
                    found.setdefault(name.id, []).append((path.relative_to(REPO), docstring))
    return found


def test_every_limit_the_readme_names_is_in_the_code_with_its_reason():
    constants = module_constants()
    listed = readme_limits()
    assert len(listed) > 40
    assert sorted(listed - set(constants)) == []
    undocumented = [f"{name} ({path})" for name in sorted(listed) for path, docstring in constants[name]
                    if not docstring]
    assert undocumented == []


def test_every_limit_in_the_code_is_in_the_readme():
    bounds = {name for name in module_constants() if name.startswith("MAX_")}
    assert sorted(bounds - readme_limits() - set(NOT_INPUT_LIMITS)) == []
    assert sorted(set(NOT_INPUT_LIMITS) - bounds) == []  # and the list above names no ghost
