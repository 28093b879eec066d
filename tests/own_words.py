"""Fingerprints of the seed drafts, so the bundled games' texts can be proved to be our own words.

The bundled decks come from designers' rules drafts. Our booklets, card texts
and translations must not repeat them: no run of ``WINDOW`` words in a row may
match a draft, ignoring case and punctuation. The drafts themselves are not part
of the project, so this module keeps only a hash of every ``WINDOW``-word run
of them in ``seed-fingerprints.txt``, and checks our texts against that.

Regenerate the fingerprints after the drafts change::

    python tests/own_words.py [SEEDS_FOLDER]

Without a folder it looks for ``shared/seeds`` beside the project or above it,
or takes ``DECKPRESS_SEEDS`` from the environment.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINTS = Path(__file__).with_name("seed-fingerprints.txt")

WINDOW = 8
"""Words in a run: shorter runs are common English ("at the start of your turn")."""

HASH_CHARS = 16
"""Hex digits kept of each SHA-256: 64 bits, so thousands of runs never collide by chance."""

HEADER = f"# sha256 of every {WINDOW}-word run of the seed drafts, normalised by tests/own_words.py"

APOSTROPHES = re.compile(r"['\u2018\u2019\u02bc]")
WORD = re.compile(r"[a-z0-9]+")
DIRECTIVE = re.compile(r"\{\{.*?\}\}", re.DOTALL)


@dataclass(frozen=True)
class Word:
    """One normalised word of a text and the line it stands on."""

    text: str
    line: int


@dataclass(frozen=True)
class Repeat:
    """A run of our text that repeats a draft."""

    path: Path
    line: int
    words: str

    def describe(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}: repeats a draft: '{self.words}'"


def words(text: str) -> list[Word]:
    """The words of ``text``, lower case, apostrophes dropped ("dealer's" is "dealers"),
    any other punctuation a break between words."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in WORD.finditer(APOSTROPHES.sub("", line.lower())):
            found.append(Word(match.group(), number))
    return found


def fingerprint(run: list[Word]) -> str:
    return hashlib.sha256(" ".join(word.text for word in run).encode()).hexdigest()[:HASH_CHARS]


def runs(found: list[Word]):
    """Every run of ``WINDOW`` consecutive words."""
    for start in range(len(found) - WINDOW + 1):
        yield found[start:start + WINDOW]


def draft_fingerprints(seeds: Path) -> set[str]:
    """The fingerprints of every draft (the ``*.txt`` files) in ``seeds``."""
    prints = set()
    for draft in sorted(seeds.glob("*.txt")):
        prints.update(fingerprint(run) for run in runs(words(draft.read_text(encoding="utf-8"))))
    return prints


def fingerprint_file_text(prints: set[str]) -> str:
    return HEADER + "\n" + "".join(f"{p}\n" for p in sorted(prints))


def read_fingerprints(path: Path = FINGERPRINTS) -> set[str]:
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def find_seeds() -> Path | None:
    """The seed drafts' folder, when this machine has them (a clean clone may not)."""
    named = os.environ.get("DECKPRESS_SEEDS")
    if named:
        return Path(named) if Path(named).is_dir() else None
    for folder in ROOT.parents:
        seeds = folder / "shared" / "seeds"
        if seeds.is_dir() and any(seeds.glob("*.txt")):
            return seeds
    return None


def our_texts(root: Path = ROOT) -> list[Path]:
    """Every file of words a player reads: booklets, deck files (card texts and their
    comments) and translations."""
    cards = root / "cards"
    patterns = ("*/rules.md", "*/rules.*.md", "*/deck.yaml", "*/lang/*.yaml", "*/lang/*.yml")
    return sorted({path for pattern in patterns for path in cards.glob(pattern)})


def repeats(path: Path, prints: set[str]) -> list[Repeat]:
    """The runs of ``path`` that repeat a draft, overlapping runs merged into one."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        # A directive is replaced by what it prints, never by draft prose; dropping it
        # joins the words on either side, which can only find more repeats, not fewer.
        text = DIRECTIVE.sub(lambda m: "\n" * m.group().count("\n"), text)
    found = words(text)
    hits = [start for start, run in enumerate(runs(found)) if fingerprint(run) in prints]
    merged: list[list[int]] = []
    for start in hits:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = start + WINDOW
        else:
            merged.append([start, start + WINDOW])
    return [Repeat(path, found[a].line, " ".join(w.text for w in found[a:b])) for a, b in merged]


def main(argv: list[str]) -> int:
    seeds = Path(argv[1]) if len(argv) > 1 else find_seeds()
    if seeds is None or not seeds.is_dir():
        print("no seed drafts found: pass their folder or set DECKPRESS_SEEDS", file=sys.stderr)
        return 2
    prints = draft_fingerprints(seeds)
    FINGERPRINTS.write_text(fingerprint_file_text(prints), encoding="utf-8")
    print(f"{FINGERPRINTS.relative_to(ROOT)}: {len(prints)} fingerprints from {seeds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
