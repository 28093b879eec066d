"""Draw every picture of the documentation with deckpress itself, then check every example.

Run by ``make docs`` before the site is built: each page is followed in a scratch folder
(see ``doc_examples.py``), and each ``<!-- picture: ... -->`` marker is drawn from that
folder as it is at that point of the page, into ``docs/pictures/``. The README's picture is
kept beside the pages (``docs/readme-cards.png``), because the README is read where the
pictures are not built. Exit 1 when an example does not do what its page says.

    python docs/make_pictures.py [--out FOLDER]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doc_examples import DOCS, failures, follow_all  # noqa: E402

README_PICTURE = "tiki-cards.png"
"""The picture the README shows, copied to docs/readme-cards.png."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS / "pictures", help="folder for the pictures")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="deckpress-docs-") as scratch:
        outcomes, unmarked = follow_all(Path(scratch), out)
    problems = unmarked + failures(outcomes)
    for problem in problems:
        print(problem, file=sys.stderr)
    if out == DOCS / "pictures" and (out / README_PICTURE).exists():
        shutil.copyfile(out / README_PICTURE, DOCS / "readme-cards.png")
    print(f"{len(outcomes)} examples run, {len(list(out.glob('*.png')))} pictures in {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
