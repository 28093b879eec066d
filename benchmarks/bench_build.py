"""How fast, how big and how hungry ``deckpress build`` is, beside a bare reportlab loop.

Run by hand from the repository root (it is not part of the test suite)::

    .venv/bin/python benchmarks/bench_build.py            # 152, 1,000, 10,000, 100,000 cards
    .venv/bin/python benchmarks/bench_build.py --quick    # 152 and 1,000 cards only

Every measurement runs in a fresh Python process, so one build's memory
cannot inflate the next one's peak. Each process reports its wall time from
after its imports to the last byte written, its output size and its peak
resident memory (``ru_maxrss``).

The decks: the bundled Cereal Killer deck (152 cards, 26 distinct faces),
and generated decks of the same cards with their counts scaled up, so the
faces stay the same and only the copies grow. The bare loop draws
comparable sheets with reportlab alone: nine cards a page, every card a
rectangle and three strings, each front page followed by its back page.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from decks import REPOSITORY, SOURCE_DECK, copies_deck  # benchmarks/decks.py, beside this script

SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000,)


# -- the measured work, one kind per process ---------------------------------------------------

def measure_deckpress(deck_path: Path, out_dir: Path, check: bool) -> dict:
    """What ``deckpress build`` does for one deck, minus the interpreter start."""
    from generator.deck import check_deck, load_deck
    from generator.render import load_renderer
    from generator.sheets.geometry import SheetSettings
    from generator.sheets.press import press_deck
    from generator.sheets.style import find_paper, load_style

    started = time.perf_counter()
    deck = load_deck(deck_path)
    if check:
        assert check_deck(deck).passed
    loaded = time.perf_counter()
    renderer = load_renderer(deck)
    renderer.validate()
    laid_out = time.perf_counter()
    style = load_style()
    settings = SheetSettings(paper=find_paper("a4", "portrait", style))
    result = press_deck(deck, renderer, settings, out_dir, style)
    finished = time.perf_counter()
    return {"cards": result.cards, "pages": result.pages, "wall": finished - started,
            "deck": loaded - started, "layouts": laid_out - loaded, "sheets": finished - laid_out,
            "bytes": result.pdf.stat().st_size}


def measure_bare(cards: int, out_dir: Path) -> dict:
    """reportlab on its own (``bare_loop.py``): a rectangle and three strings a card, fronts and backs."""
    from bare_loop import draw_deck

    started = time.perf_counter()
    path = out_dir / "bare.pdf"
    pages = draw_deck(cards, str(path))
    wall = time.perf_counter() - started
    return {"cards": cards, "pages": pages, "wall": wall, "bytes": path.stat().st_size}


def child(arguments: argparse.Namespace) -> None:
    out_dir = Path(arguments.out)
    if arguments.kind == "bare":
        result = measure_bare(arguments.cards, out_dir)
    else:
        result = measure_deckpress(Path(arguments.deck), out_dir, arguments.check)
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


# -- the runner ----------------------------------------------------------------------------------

def best_of(repeats: int, kind: str, scratch: Path, **options) -> dict:
    """The fastest of ``repeats`` fresh runs (the others met a busier machine)."""
    return min((run_child(kind, scratch, **options) for _ in range(repeats)), key=lambda run: run["wall"])


def run_child(kind: str, scratch: Path, cards: int = 0, deck: Path | None = None,
              check: bool = False) -> dict:
    out_dir = Path(tempfile.mkdtemp(dir=scratch))
    command = [sys.executable, __file__, "--child", kind, "--out", str(out_dir), "--cards", str(cards)]
    if deck:
        command += ["--deck", str(deck)]
    if check:
        command.append("--check")
    finished = subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True)
    if finished.returncode != 0:
        raise SystemExit(f"{kind} {cards} failed:\n{finished.stderr}")
    for leftover in out_dir.iterdir():
        leftover.unlink()
    return json.loads(finished.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the small decks")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the fastest counts")
    parser.add_argument("--child", choices=["bare", "deckpress"], dest="kind", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--cards", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--deck", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.kind:
        child(arguments)
        return

    rows = []
    with tempfile.TemporaryDirectory(prefix="deckpress-bench-") as scratch_name:
        scratch = Path(scratch_name)
        cases = [("Cereal Killer", SOURCE_DECK, True)]
        for total in (QUICK_SIZES if arguments.quick else SIZES):
            cases.append((f"generated {total:,}", copies_deck(scratch, total), False))
        for label, deck, check in cases:
            ours = best_of(arguments.repeat, "deckpress", scratch, deck=deck, check=check)
            bare = best_of(arguments.repeat, "bare", scratch, cards=ours["cards"])
            rows.append((label, ours, bare))
            print(f"measured {label}", file=sys.stderr)

    print(report(rows))


def report(rows: list[tuple[str, dict, dict]]) -> str:
    lines = ["| deck | cards | deckpress s (deck + layouts + sheets) | bare s | deckpress cards/s | "
             "bare cards/s | bytes/card | bare bytes/card | peak MB | bare peak MB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, ours, bare in rows:
        parts = f"{ours['deck']:.2f} + {ours['layouts']:.2f} + {ours['sheets']:.2f}"
        lines.append(
            f"| {label} | {ours['cards']:,} | {ours['wall']:.2f} ({parts}) | {bare['wall']:.2f} | "
            f"{ours['cards'] / ours['wall']:,.0f} | {bare['cards'] / bare['wall']:,.0f} | "
            f"{ours['bytes'] / ours['cards']:,.0f} | {bare['bytes'] / bare['cards']:,.0f} | "
            f"{ours['peak_mb']:.1f} | {bare['peak_mb']:.1f} |")
    lines.append("")
    lines += figures(rows)
    return "\n".join(lines)


def figures(rows: list[tuple[str, dict, dict]]) -> list[str]:
    """What the stages cost, for finding where time goes. These are times after imports in
    one process, not what a user waits for: ``run.py`` measures whole commands and judges
    the targets."""
    found = ["Stage times after imports (whole commands: benchmarks/run.py):"]
    label, ours, bare = rows[0]
    found.append(f"- {label}: {ours['wall'] / bare['wall']:.1f}x the bare loop's drawing time; the sheets "
                 f"stage alone {ours['sheets'] / bare['wall']:.1f}x")
    for label, ours, bare in rows[1:]:
        share = (ours["cards"] / ours["wall"]) / (bare["cards"] / bare["wall"])
        found.append(f"- {label}: {share:.2f}x the bare loop's cards per second")
    generated = [ours for _, ours, _ in rows[1:]]
    if len(generated) >= 2:
        smallest, largest = generated[0], generated[-1]
        growth = largest["peak_mb"] / smallest["peak_mb"] - 1
        per_copy = (largest["bytes"] - smallest["bytes"]) / (largest["cards"] - smallest["cards"])
        found.append(f"- peak memory from {smallest['cards']:,} to {largest['cards']:,} cards: {growth:+.1%}; "
                     f"{per_copy:.0f} bytes of PDF per extra copy of a face")
    return found


if __name__ == "__main__":
    main()
