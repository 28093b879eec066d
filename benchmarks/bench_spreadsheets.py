"""Peak memory and time of ``deckpress check`` (and ``build``, ``export --png``) on a party
game's spreadsheet of 30,000 and 100,000 rows of text cards.

Run by hand from the repository root (it is not part of the test suite)::

    .venv/bin/python benchmarks/bench_spreadsheets.py
    .venv/bin/python benchmarks/bench_spreadsheets.py --rows 30000 --rows 100000 --format json
    .venv/bin/python benchmarks/bench_spreadsheets.py --rows 1000 --rows 10000 --command check \
        --command build --command png

Each deck is a CSV of short prompts (``text``, and ``colour`` on every other row: a
spreadsheet holds at most 200,000 filled cells) read by ``cards: {from: cards.csv}``.
For each size it runs, each in a fresh process whose peak resident memory is its own
(an export's workers included: the peak is the largest process's):

- ``load``: reading the spreadsheet into the deck model (what streaming the rows keeps
  small: the rows are read one at a time, and the model holds the cards made of them);
- ``check``: the whole ``deckpress check``, every distinct face laid out;
- ``build``, ``png`` (with ``--command``): ``deckpress build`` and ``deckpress export --png``
  (an export draws every face at 300 dpi: minutes for 10,000 cards).

It prints seconds (wall and CPU: the CPU time is the steadier on a shared machine) and
the peak in MB, and the growth per thousand rows between the smallest and the largest
deck, so what grows with the rows is told apart from what a command costs anyway. Figures
are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
WORDS = ("alpha", "beta", "gamma", "delta", "river", "stone", "fire", "night", "moon", "star", "glass", "paper")
DECK = """deck: {name: Party, title_field: text}
fields:
  text: {type: text, required: true}
  colour: {choices: [white, black]}
cards: {from: cards.csv}
"""
LOAD = "import sys; from generator.deck import load_deck; print(len(load_deck(sys.argv[1]).cards))"


def party_deck(folder: Path, rows: int) -> Path:
    """A deck of ``rows`` distinct prompts, every tenth with a star in it."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "cards.csv").open("w", encoding="utf-8") as sheet:
        sheet.write("text,colour\n")
        for n in range(rows):
            words = " ".join(WORDS[(n * 7 + k) % len(WORDS)] for k in range(3))
            star = " 2*" if n % 10 == 0 else ""
            sheet.write(f"{words} {n}{star},{('white' if n % 4 == 1 else 'black') if n % 2 else ''}\n")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    return folder


def measured(command: list[str]) -> dict:
    """Run ``command`` in a fresh process: its wall and CPU seconds and peak memory (MB)."""
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=REPOSITORY, env=environment, stdout=subprocess.DEVNULL,
                                   stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)  # this child's own usage, peak memory included
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(command)} failed: {errors.read().decode()[:500]}")
    return {"wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
            "peak_mb": round(usage.ru_maxrss / 1024, 1)}


COMMANDS = {
    "check": lambda deck, out: ["check", str(deck)],
    "build": lambda deck, out: ["build", str(deck), "--quiet", "--out", str(out)],
    "png": lambda deck, out: ["export", str(deck), "--quiet", "--png", str(out)],
}
"""The commands ``--command`` can measure, by name: their arguments after ``deckpress``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, action="append", help="rows of cards (default 30,000 and 100,000)")
    parser.add_argument("--command", choices=sorted(COMMANDS), action="append",
                        help="a command to measure besides loading (default check)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    arguments = parser.parse_args()
    sizes = sorted(arguments.rows or [30_000, 100_000])
    stages = ["load", *(arguments.command or ["check"])]
    results = []
    with tempfile.TemporaryDirectory(prefix="deckpress-sheets-") as scratch:
        for rows in sizes:
            deck = party_deck(Path(scratch) / f"party-{rows}", rows)
            result = {"rows": rows, "csv_mb": round((deck / "cards.csv").stat().st_size / 1e6, 2),
                      "load": measured([sys.executable, "-c", LOAD, str(deck)])}
            for stage in stages[1:]:
                out = Path(scratch) / f"{stage}-{rows}"
                result[stage] = measured([sys.executable, "-m", "generator", *COMMANDS[stage](deck, out)])
            results.append(result)
    if arguments.format == "json":
        print(json.dumps(results, indent=2))
        return
    print(f"{'rows':>8} {'csv MB':>7}" + "".join(f"   {stage + ': wall s':>14} {'cpu s':>6} {'peak MB':>8}"
                                                 for stage in stages))
    for result in results:
        print(f"{result['rows']:>8,} {result['csv_mb']:>7}" + "".join(
            f"   {result[stage]['wall_s']:>14} {result[stage]['cpu_s']:>6} {result[stage]['peak_mb']:>8}"
            for stage in stages))
    if len(results) > 1:
        first, last = results[0], results[-1]
        thousands = (last["rows"] - first["rows"]) / 1000
        for stage in stages:
            growth = (last[stage]["peak_mb"] - first[stage]["peak_mb"]) / thousands
            print(f"{stage}: {growth:.2f} MB more per thousand rows")


if __name__ == "__main__":
    main()
