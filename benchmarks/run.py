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

With ``--against REV`` the yardstick is deckpress itself at another revision instead of
the bare loop: that revision is checked out into a temporary git worktree, both trees run
as ``python -m generator`` with this Python and its installed libraries, each on decks made
from its own tree, and the figure is the median of (this tree / REV) over the pairs. The
budget for a change is no case more than ``AGAINST_BUDGET`` slower::

    .venv/bin/python benchmarks/run.py --against main --quick

Peak memory is each process's own maximum resident size. The targets are the
ones the project holds itself to; a case without a target is reported for
information.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
AGAINST_BUDGET = 1.15
"""With --against, the slowest acceptable median ratio of this tree to the other revision."""

MEMORY_CASES = ("build 1,000 copies", "build 100,000 copies")
"""Peak memory must stay within MEMORY_GROWTH from the first of these to the second."""
MEMORY_GROWTH = 0.10
LINEAR_CASES = ("build 1,520 distinct", "build 10,000 distinct")
"""Time must grow no faster than the number of distinct faces from the first to the second."""


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float


@dataclass(frozen=True)
class Side:
    """One side of a pair: what runs, where, with which environment."""

    label: str
    repository: Path
    """The tree whose command runs, and whose bundled deck and layouts its decks use."""
    module: bool
    """Run as ``python -m generator`` from ``repository`` (True), or as the installed
    ``deckpress`` console script a user runs (False)."""

    def command(self, case: Case, deck: Path, out: Path) -> list[str]:
        if self.module:
            start = [sys.executable, "-m", "generator"]
        else:
            script = Path(sys.executable).parent / "deckpress"
            start = [str(script)] if script.exists() else [sys.executable, "-m", "generator"]
        return start + [part.format(deck=deck, out=out) for part in case.arguments]

    def environment(self) -> dict[str, str]:
        """This environment as a user's shell has it: Python may cache compiled modules.
        A side run as a module finds its own tree's package first."""
        environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        if self.module:
            environment["PYTHONPATH"] = str(self.repository)
        return environment


def timed(command: list[str], cwd: Path, environment: dict[str, str]) -> Run:
    """Run ``command`` in a fresh process; its wall time and its own peak resident memory."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error}")
    return Run(seconds, usage.ru_maxrss / 1024)


Runner = Callable[[Path], Run]
"""Runs one side of a pair once, writing into the given scratch folder."""


def ours_runner(side: Side, case: Case, deck: Path) -> Runner:
    return lambda out: timed(side.command(case, deck, out), side.repository, side.environment())


def bare_runner(case: Case) -> Runner:
    environment = Side("bare loop", REPOSITORY, module=False).environment()
    return lambda out: timed([sys.executable, str(BARE_LOOP), str(case.cards), str(out / "bare.pdf")],
                             REPOSITORY, environment)


def measure(case: Case, ours: Runner, yardstick: Runner, pairs: int, scratch: Path) -> list[tuple[Run, Run]]:
    """``pairs`` (ours, yardstick) runs, alternating which goes first, after a first
    run of each that is not counted (for the large decks, a few seconds of compiling is lost
    in the noise, and the first run would double the case's time)."""
    results = []
    for index in range(0 if case.large else -1, pairs):
        out = Path(tempfile.mkdtemp(dir=scratch))
        if index < 0:
            ours(out), yardstick(out)
        elif index % 2 == 0:
            first, second = ours(out), yardstick(out)
            results.append((first, second))
        else:
            first, second = yardstick(out), ours(out)
            results.append((second, first))
        shutil.rmtree(out)
    return results


@contextlib.contextmanager
def worktree_at(revision: str, scratch: Path) -> Iterator[tuple[Path, str]]:
    """A temporary git worktree of this repository at ``revision``, and its short commit id;
    removed again afterwards."""
    commit = subprocess.run(["git", "rev-parse", "--short", f"{revision}^{{commit}}"], cwd=REPOSITORY,
                            capture_output=True, text=True)
    if commit.returncode != 0:
        raise SystemExit(f"--against {revision}: not a revision of this repository ({commit.stderr.strip()})")
    tree = scratch / f"against-{commit.stdout.strip()}"
    subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(tree), commit.stdout.strip()],
                   cwd=REPOSITORY, check=True)
    try:
        yield tree, commit.stdout.strip()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPOSITORY, check=False)


@dataclass(frozen=True)
class Result:
    case: Case
    pairs: list[tuple[Run, Run]]
    against: bool = False
    """The yardstick is another revision of deckpress, not the bare loop."""

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
        if self.against:
            return f"<= {AGAINST_BUDGET:g}x {'met' if self.ratio <= AGAINST_BUDGET else 'NOT MET'}"
        if self.case.target is None:
            return ""
        return f"<= {self.case.target:g}x {'met' if self.ratio <= self.case.target else 'NOT MET'}"


def make_deck(name: str, project: Path, repository: Path = REPOSITORY) -> Path:
    if name in BUNDLED:
        return repository / BUNDLED[name][0].relative_to(REPOSITORY)
    kind, total = name.split("-")
    return (distinct_deck if kind == "distinct" else copies_deck)(project, int(total), repository).parent


def table(results: list[Result], yardstick: str) -> str:
    lines = [f"| command | cards | deckpress / {yardstick} (median of pairs) | target | deckpress s | "
             f"{yardstick} s | peak MB | pairs |",
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the 152-card cases")
    parser.add_argument("--only", action="append", metavar="CASE", help="run only this case (repeatable)")
    parser.add_argument("--pairs", type=int, default=None,
                        help=f"pairs per case [default: {PAIRS}, and {LARGE_PAIRS} for the largest decks]")
    parser.add_argument("--against", metavar="REV",
                        help="time this tree against deckpress at git revision REV instead of the bare loop")
    arguments = parser.parse_args()
    cases = [case for case in CASES
             if (not arguments.only or case.name in arguments.only)
             and (not arguments.quick or case.deck in BUNDLED)]
    if not cases:
        raise SystemExit(f"no such case; the cases are: {', '.join(case.name for case in CASES)}")
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="deckpress-bench-")))
        other: Side | None = None
        if arguments.against:
            tree, commit = stack.enter_context(worktree_at(arguments.against, scratch))
            other = Side(commit, tree, module=True)
        ours = Side("this tree", REPOSITORY, module=other is not None)
        results = run_cases(cases, ours, other, arguments.pairs, scratch)
    yardstick = f"{other.label}" if other else "bare loop"
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
          + (f", this tree against {arguments.against} ({other.label})" if other else "") + "\n")
    print(table(results, yardstick))
    print()
    print("\n".join(summary(results)))


def run_cases(cases: list[Case], ours: Side, other: Side | None, pairs: int | None,
              scratch: Path) -> list[Result]:
    """Each case in alternating pairs against ``other`` (a revision), or the bare loop if None."""
    decks: dict[tuple[str, Path], Path] = {}

    def deck_for(case: Case, side: Side) -> Path:
        key = (case.deck, side.repository)
        if key not in decks:
            decks[key] = make_deck(case.deck, scratch / f"project-{len(decks)}", side.repository)
        return decks[key]

    results = []
    for case in cases:
        yardstick = bare_runner(case) if other is None else ours_runner(other, case, deck_for(case, other))
        count = pairs or (LARGE_PAIRS if case.large else PAIRS)
        result = Result(case, measure(case, ours_runner(ours, case, deck_for(case, ours)), yardstick, count,
                                      scratch), against=other is not None)
        results.append(result)
        print(f"{case.name}: {result.ratio:.2f}x {result.verdict}", file=sys.stderr, flush=True)
    return results


if __name__ == "__main__":
    main()
