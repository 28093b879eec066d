"""How fast deckpress is as a user runs it, beside a bare reportlab loop in the same run.

Run by hand from the repository root (never part of the test suite)::

    .venv/bin/python benchmarks/run.py               # every case, about twenty minutes
    .venv/bin/python benchmarks/run.py --quick       # the 152-card cases only
    .venv/bin/python benchmarks/run.py --only "build 152" --only "check 152" --pairs 9

Every measurement is a whole ``deckpress`` command in a fresh process, started
the way a user starts it, so start-up and imports count. Each case runs as
alternating pairs: deckpress then the bare loop, then the other way round, and
so on, so a machine that is busier for a while slows both sides of a pair.
The figure quoted is the median of the per-pair ratios (deckpress time over
bare-loop time); the bare loop (``benchmarks/bare_loop.py``) draws as many
simple text cards as the deck holds, fronts and backs on A4.

Every command runs once before its pairs, unmeasured, and with Python's
bytecode cache on (``PYTHONDONTWRITEBYTECODE`` is removed from the children's
environment), so neither side pays for compiling modules a user's installation
has compiled long ago.

Peak memory is each process's own maximum resident size. The targets are the
ones the project holds itself to; a case without a target is reported for
information.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decks import REPOSITORY, copies_deck, distinct_deck  # noqa: E402

BARE_LOOP = Path(__file__).resolve().parent / "bare_loop.py"
BUNDLED = {"cereal-killer": (REPOSITORY / "cards" / "cereal-killer", 152)}


@dataclass(frozen=True)
class Case:
    """One command measured against the bare loop drawing ``cards`` cards."""

    name: str
    deck: str           # "cereal-killer", "distinct-N" or "copies-N"
    arguments: tuple[str, ...]  # after "deckpress"; {deck} and {out} are filled in
    target: float | None = None
    """The largest acceptable median ratio, if the case has a target."""
    large: bool = False
    """Slow enough that fewer pairs are run (and skipped by --quick)."""

    @property
    def cards(self) -> int:
        if self.deck in BUNDLED:
            return BUNDLED[self.deck][1]
        return int(self.deck.split("-")[1])


BUILD = ("build", "{deck}", "--quiet", "--out", "{out}")
CHECK = ("check", "{deck}")
CASES = (
    Case("--help", "cereal-killer", ("--help",)),
    Case("build 152", "cereal-killer", BUILD, target=2.5),
    Case("check 152", "cereal-killer", CHECK, target=1.5),
    Case("export --png 152", "cereal-killer", ("export", "{deck}", "--quiet", "--png", "{out}"), target=5.0),
    Case("export --tts 152", "cereal-killer", ("export", "{deck}", "--quiet", "--tts", "{out}")),
    Case("export --png --tts 152", "cereal-killer",
         ("export", "{deck}", "--quiet", "--png", "{out}/png", "--tts", "{out}/tts")),
    Case("build 1,520 distinct", "distinct-1520", BUILD, target=3.0),
    Case("build 10,000 distinct", "distinct-10000", BUILD, target=3.0, large=True),
    Case("build 1,000 copies", "copies-1000", BUILD),
    Case("build 10,000 copies", "copies-10000", BUILD, target=0.4),
    Case("build 100,000 copies", "copies-100000", BUILD, target=0.2, large=True),
    Case("check 100,000 copies", "copies-100000", CHECK, large=True),
    Case("export --tts 100,000 copies", "copies-100000", ("export", "{deck}", "--quiet", "--tts", "{out}"),
         large=True),
)
PAIRS = 15
"""Pairs for each case. On a virtual machine a case's median moved by a tenth (1.4x to
1.5x) from one run of 7 pairs to the next; the 152-card cases take about a second a pair."""
LARGE_PAIRS = 3
"""Pairs for the largest decks, whose runs take 10 to 30 seconds each."""

MEMORY_CASES = ("build 1,000 copies", "build 100,000 copies")
"""Peak memory must stay within MEMORY_GROWTH from the first of these to the second."""
MEMORY_GROWTH = 0.10
LINEAR_CASES = ("build 1,520 distinct", "build 10,000 distinct")
"""Time must grow no faster than the number of distinct faces from the first to the second."""


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float


def deckpress_command() -> list[str]:
    """``deckpress`` as installed beside this Python (the console script a user runs)."""
    script = Path(sys.executable).parent / "deckpress"
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def user_environment() -> dict[str, str]:
    """This environment as a user's shell has it: Python may cache compiled modules."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str]) -> Run:
    """Run ``command`` in a fresh process; its wall time and its own peak resident memory."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPOSITORY, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=user_environment())
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error}")
    return Run(seconds, usage.ru_maxrss / 1024)


def measure(case: Case, deck: Path, pairs: int, scratch: Path) -> list[tuple[Run, Run]]:
    """``pairs`` (deckpress, bare loop) runs, alternating which goes first, after a first
    run of each that is not counted (for the large decks, a few seconds of compiling is lost
    in the noise, and the first run would double the case's time)."""
    results = []
    for index in range(0 if case.large else -1, pairs):
        out = Path(tempfile.mkdtemp(dir=scratch))
        ours = deckpress_command() + [part.format(deck=deck, out=out) for part in case.arguments]
        bare = [sys.executable, str(BARE_LOOP), str(case.cards), str(out / "bare.pdf")]
        if index < 0:
            timed(ours), timed(bare)
        elif index % 2 == 0:
            first, second = timed(ours), timed(bare)
            results.append((first, second))
        else:
            first, second = timed(bare), timed(ours)
            results.append((second, first))
        shutil.rmtree(out)
    return results


@dataclass(frozen=True)
class Result:
    case: Case
    pairs: list[tuple[Run, Run]]

    @property
    def ratio(self) -> float:
        return statistics.median(ours.seconds / bare.seconds for ours, bare in self.pairs)

    @property
    def seconds(self) -> float:
        return statistics.median(ours.seconds for ours, _ in self.pairs)

    @property
    def bare_seconds(self) -> float:
        return statistics.median(bare.seconds for _, bare in self.pairs)

    @property
    def peak_mb(self) -> float:
        return max(ours.peak_mb for ours, _ in self.pairs)

    @property
    def verdict(self) -> str:
        if self.case.target is None:
            return ""
        return f"<= {self.case.target:g}x {'met' if self.ratio <= self.case.target else 'NOT MET'}"


def make_deck(name: str, project: Path) -> Path:
    if name in BUNDLED:
        return BUNDLED[name][0]
    kind, total = name.split("-")
    return (distinct_deck if kind == "distinct" else copies_deck)(project, int(total)).parent


def table(results: list[Result]) -> str:
    lines = ["| command | cards | deckpress / bare loop (median of pairs) | target | deckpress s | "
             "bare loop s | peak MB | pairs |",
             "|---|---:|---:|---|---:|---:|---:|---:|"]
    for result in results:
        case = result.case
        lines.append(f"| {case.name} | {case.cards:,} | {result.ratio:.2f}x | {result.verdict} | "
                     f"{result.seconds:.2f} | {result.bare_seconds:.2f} | {result.peak_mb:.0f} | "
                     f"{len(result.pairs)} |")
    return "\n".join(lines)


def summary(results: list[Result]) -> list[str]:
    """The targets that compare two cases: memory growth and linear time."""
    by_name = {result.case.name: result for result in results}
    found = []
    if all(name in by_name for name in MEMORY_CASES):
        small, large = (by_name[name] for name in MEMORY_CASES)
        growth = large.peak_mb / small.peak_mb - 1
        found.append(f"- peak memory from {small.case.cards:,} to {large.case.cards:,} copies: "
                     f"{small.peak_mb:.1f} -> {large.peak_mb:.1f} MB, {growth:+.1%} "
                     f"(target: within {MEMORY_GROWTH:.0%}) {'met' if abs(growth) <= MEMORY_GROWTH else 'NOT MET'}")
    if all(name in by_name for name in LINEAR_CASES):
        small, large = (by_name[name] for name in LINEAR_CASES)
        exponent = math.log(large.seconds / small.seconds) / math.log(large.case.cards / small.case.cards)
        found.append(f"- time from {small.case.cards:,} to {large.case.cards:,} distinct cards grows as "
                     f"cards^{exponent:.2f} ({small.seconds:.2f} -> {large.seconds:.2f} s; "
                     f"target: at most linear, ^1.00) {'met' if exponent <= 1.0 else 'NOT MET'}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the 152-card cases")
    parser.add_argument("--only", action="append", metavar="CASE", help="run only this case (repeatable)")
    parser.add_argument("--pairs", type=int, default=None,
                        help=f"pairs per case [default: {PAIRS}, and {LARGE_PAIRS} for the largest decks]")
    arguments = parser.parse_args()
    cases = [case for case in CASES
             if (not arguments.only or case.name in arguments.only)
             and (not arguments.quick or case.deck in BUNDLED)]
    if not cases:
        raise SystemExit(f"no such case; the cases are: {', '.join(case.name for case in CASES)}")
    results = []
    with tempfile.TemporaryDirectory(prefix="deckpress-bench-") as scratch_name:
        scratch = Path(scratch_name)
        decks: dict[str, Path] = {}
        for case in cases:
            if case.deck not in decks:
                decks[case.deck] = make_deck(case.deck, scratch / "project")
            pairs = arguments.pairs or (LARGE_PAIRS if case.large else PAIRS)
            result = Result(case, measure(case, decks[case.deck], pairs, scratch))
            results.append(result)
            print(f"{case.name}: {result.ratio:.2f}x {result.verdict}", file=sys.stderr, flush=True)
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}\n")
    print(table(results))
    print()
    print("\n".join(summary(results)))


if __name__ == "__main__":
    main()
