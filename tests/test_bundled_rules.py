"""The bundled games' booklets speak to players: their rules files state the rules,
never where a ruling came from ("the draft says", "this booklet settles", "our rule").

The reasoning behind a ruling belongs in the game's ``notes.md``, which the booklet
does not print."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_run import CARDS, deckpress
from pypdf import PdfReader

EDITORIAL = re.compile(
    r"\bdraft|\bthis\s+booklet\s+settles|\bour\s+rules?\b"  # English
    r"|\bbrouillon|\bce\s+livret\s+(?:les\s+)?tranche|\bnotre\s+règle",  # French
    re.IGNORECASE,
)
"""Words that speak of how the rules were written rather than how the game is played;
a phrase may run over a line break, as Markdown paragraphs are wrapped."""

BUNDLED_RULES = sorted(CARDS.glob("*/rules*.md"))

TINY_DECK = """\
deck:
  name: Tiny Test Game
  players: {min: 1, max: 2}
fields:
  name: {type: text, required: true}
back:
  name: Tiny back
cards:
  - {id: grub, name: Grub, count: 2}
"""


def editorial_lines(path: Path) -> list[str]:
    """``file:line: text`` for each line of ``path`` where a phrase about how the rules
    were written begins."""
    shown = path.relative_to(CARDS.parent) if path.is_relative_to(CARDS.parent) else path
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    numbers = sorted({text.count("\n", 0, match.start()) + 1 for match in EDITORIAL.finditer(text)})
    return [f"{shown}:{number}: {lines[number - 1].strip()}" for number in numbers]


def test_every_bundled_booklet_is_read():
    names = {path.relative_to(CARDS).as_posix() for path in BUNDLED_RULES}
    assert {"cereal-killer/rules.md", "goblins/rules.md", "gold-rush/rules.md", "tiki/rules.md",
            "tiki/rules.fr.md"} <= names


@pytest.mark.parametrize("path", BUNDLED_RULES, ids=lambda path: path.relative_to(CARDS).as_posix())
def test_bundled_booklet_never_speaks_of_a_draft(path):
    found = editorial_lines(path)
    assert not found, "a booklet states rules, not how they were settled:\n" + "\n".join(found)


def test_an_editors_note_is_named_by_file_and_line(tmp_path):
    rules = tmp_path / "rules.md"
    rules.write_text("# Questions at the table\n\n"
                     "- **Who starts?** The youngest player.\n"
                     "- **Ties.** The Draft says nothing; This booklet settles it.\n"
                     "- **Hand size** is our rule: seven.\n"
                     "- **Le bûcher.** Le brouillon parle de points.\n"
                     "- **Wilds.** They keep their colour; this\n"
                     "  booklet settles the rest.\n"
                     "- **Four rules** and your rules stay as they are.\n", encoding="utf-8")
    assert editorial_lines(rules) == [
        f"{rules}:4: - **Ties.** The Draft says nothing; This booklet settles it.",
        f"{rules}:5: - **Hand size** is our rule: seven.",
        f"{rules}:6: - **Le bûcher.** Le brouillon parle de points.",
        f"{rules}:7: - **Wilds.** They keep their colour; this",
    ]


def test_a_designers_notes_beside_the_rules_are_not_printed(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "deck.yaml").write_text(TINY_DECK, encoding="utf-8")
    (folder / "rules.md").write_text("# Overview\n\nPlay a Grub.\n", encoding="utf-8")
    # A directive the booklet would refuse, and a word the rules never use.
    (folder / "notes.md").write_text("# Why\n\nThe draft said Zanzibar. {{ nonsense }}\n", encoding="utf-8")
    assert deckpress("check", folder).exit_code == 0
    run = deckpress("booklet", folder, "--out", tmp_path / "out")
    assert run.exit_code == 0, run.stderr
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "out" / "tiny-rules.pdf").pages)
    assert "Play a Grub." in text
    assert "Zanzibar" not in text
