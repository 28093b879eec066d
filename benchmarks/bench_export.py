"""How long ``deckpress export`` takes on the bundled decks, and what one shared PDF saves.

Run by hand from the repository root (it is not part of the test suite)::

    .venv/bin/python benchmarks/bench_export.py
    .venv/bin/python benchmarks/bench_export.py --memory [--against REV] [--only CASE]

For each bundled deck, in a fresh Python process each (so peak memory is the
deck's own), it reports the seconds spent on:

- checking every face (planning text, without drawing),
- the card PNGs at 300 dpi with bleed (rasterising and encoding),
- the contact sheet,
- the Tabletop Simulator sheets and saved object,

and the peak resident memory. It then rasterises one deck's fronts twice, once
as one PDF with a page per face (what the export does) and once as a PDF per
face, to show why faces share a document. Last, a generated deck of 100,000
copies of three cards shows what a deck of very many copies costs: its images
are three faces and a back, but the saved object lists every copy. Timings
are printed, never asserted.

With ``--memory`` it runs whole ``deckpress export`` commands instead, each in a
fresh process as a user runs it, on generated decks (10,000 different cards; 1,500
different cards with two backs), and reports the wall time and the peak resident
memory of every process the command starts, its rasterising workers too: the
budget is :data:`MEMORY_BUDGET_MB` in any one process, whatever the deck's size.
With ``--against REV`` the same commands also run from deckpress at git revision
``REV`` (checked out into a temporary worktree), for a before and after, the two
taking turns; ``--runs N`` runs each N times and quotes the median time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decks import distinct_deck, two_back_deck  # noqa: E402
from run import worktree_at  # noqa: E402

REPOSITORY = Path(__file__).resolve().parent.parent
GAMES = ("cereal-killer", "goblins", "gold-rush", "tiki")


def measure_deck(game: str) -> dict:
    """One deck's export, stage by stage (runs inside a child process)."""
    from generator.deck import load_deck
    from generator.exports import (
        load_export_renderer,
        plan_png_export,
        plan_tts_export,
        write_png_export,
        write_tts_export,
    )
    from generator.exports.contact import contact_sheet
    from generator.exports.raster import png_bytes

    times = {}
    started = time.perf_counter()
    renderer = load_export_renderer(load_deck(REPOSITORY / "cards" / game))
    times["check faces"] = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        png = plan_png_export(renderer, Path(folder) / "png", 300, bleed=True)
        started = time.perf_counter()
        written = list(write_png_export(png))
        times["PNGs + contact sheet"] = time.perf_counter() - started
        started = time.perf_counter()
        png_bytes(contact_sheet(renderer))
        times["  of which contact sheet"] = time.perf_counter() - started
        started = time.perf_counter()
        list(write_tts_export(plan_tts_export(renderer, Path(folder) / "tts")))
        times["TTS"] = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"game": game, "faces": len(png.faces), "files": len(written), "times": times, "peak_mb": peak_mb}


def measure_batching(game: str) -> dict:
    """Fronts at 150 dpi: one PDF with a page per face against one PDF per face."""
    from generator.deck import load_deck
    from generator.exports import load_export_renderer
    from generator.exports.raster import Raster, rasterise_face, rasterise_faces

    renderer = load_export_renderer(load_deck(REPOSITORY / "cards" / game))
    raster = Raster.at_dpi(renderer.card_size, 0.0, 150)
    faces = [(card, "front") for card in renderer.deck.cards]
    started = time.perf_counter()
    list(rasterise_faces(renderer, faces, raster))
    shared = time.perf_counter() - started
    started = time.perf_counter()
    for card, side in faces:
        rasterise_face(renderer, card, side, raster)
    separate = time.perf_counter() - started
    return {"game": game, "faces": len(faces), "one document": shared, "a document each": separate}


MANY_COPIES_DECK = """\
deck: {name: Many Copies, layout: plain}
fields: {name: {type: text, required: true}}
back: {name: Back}
cards:
  - {id: coin, count: 50000, name: Coin}
  - {id: gem, count: 30000, name: Gem}
  - {id: rock, count: 20000, name: Rock}
"""
MANY_COPIES_LAYOUT = """\
size: poker
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53.5, 10], size: 12}
"""


def measure_many_copies(_game: str) -> dict:
    """The TTS export of 100,000 copies of three cards: seconds, peak memory and the JSON's size."""
    from generator.deck import load_deck
    from generator.exports import load_export_renderer, plan_tts_export, write_tts_export

    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        (project / "cards" / "many").mkdir(parents=True)
        (project / "cards" / "many" / "deck.yaml").write_text(MANY_COPIES_DECK)
        (project / "layouts").mkdir()
        (project / "layouts" / "plain.yaml").write_text(MANY_COPIES_LAYOUT)
        started = time.perf_counter()
        export = plan_tts_export(load_export_renderer(load_deck(project / "cards" / "many")), project / "tts")
        list(write_tts_export(export))
        seconds = time.perf_counter() - started
        json_mb = export.json_path.stat().st_size / 1e6
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": peak_mb, "json_mb": json_mb}


def in_child(function: str, game: str) -> dict:
    output = subprocess.run([sys.executable, __file__, "--child", function, game], cwd=REPOSITORY,
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


MEMORY_BUDGET_MB = 300
"""The most memory (peak resident size) any one process of an export may take, whatever the deck."""
SAMPLE_SECONDS = 0.05
"""How often every process of a running export is looked at. Each keeps its own high-water mark
(``VmHWM``), so a sample only has to catch a process before it exits."""


@dataclass(frozen=True)
class MemoryCase:
    """One ``deckpress export`` command on a generated deck."""

    name: str
    deck: str                   # "distinct-N" or "two-backs-N"
    arguments: tuple[str, ...]  # after the deck; {out} is filled in


MEMORY_CASES = (
    MemoryCase("export --png --tts 10,000 distinct", "distinct-10000", ("--png", "{out}/png", "--tts", "{out}/tts")),
    MemoryCase("export --png 10,000 distinct", "distinct-10000", ("--png", "{out}/png")),
    MemoryCase("export --png 1,500 two backs", "two-backs-1500", ("--png", "{out}/png")),
    MemoryCase("export --tts 1,500 two backs", "two-backs-1500", ("--tts", "{out}/tts")),
)


@dataclass(frozen=True)
class Watched:
    """A finished command: its wall time and the peak resident memory of each of its processes."""

    seconds: float
    peaks_mb: dict[int, float]  # process id -> its peak (VmHWM), the command's own process first
    tree_mb: float              # the largest peak of the command and every process it waited for (wait4)

    @property
    def largest_mb(self) -> float:
        return max([self.tree_mb, *self.peaks_mb.values()])


def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.extend(int(child) for child in listing.read().split())
    return found


def _high_water_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def watched(command: list[str], cwd: Path, environment: dict[str, str]) -> Watched:
    """Run ``command`` in a fresh process, sampling the peak memory of it and all its descendants."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    peaks: dict[int, float] = {process.pid: 0.0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            pending, seen = [process.pid], set()
            while pending:
                pid = pending.pop()
                if pid in seen:
                    continue
                seen.add(pid)
                peak = _high_water_mb(pid)
                if peak is not None:
                    peaks[pid] = max(peaks.get(pid, 0.0), peak)
                pending.extend(_children(pid))
            done.wait(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace")  # read while it runs: a full pipe would block it
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error}")
    return Watched(seconds, peaks, usage.ru_maxrss / 1024)


def memory_deck(name: str, project: Path, repository: Path) -> Path:
    kind, total = name.rsplit("-", 1)
    maker = {"distinct": distinct_deck, "two-backs": two_back_deck}[kind]
    return maker(project, int(total), repository).parent


def measure_memory(cases: list[MemoryCase], trees: list[tuple[str, Path]], scratch: Path, runs: int) -> None:
    """Each case ``runs`` times from each tree, the trees taking turns, with a table of the
    median times and the largest peaks."""
    print(f"{os.cpu_count()} cores, budget {MEMORY_BUDGET_MB} MB in any one process, {runs} run(s) a case\n")
    print("| command | tree | seconds (median) | main process MB | largest worker MB | workers | within budget |")
    print("|---|---|---:|---:|---:|---:|---|")
    decks: dict[tuple[str, Path], Path] = {}
    for case in cases:
        results: dict[str, list[Watched]] = {label: [] for label, _ in trees}
        for _run in range(runs):
            for label, tree in trees:
                if (case.deck, tree) not in decks:
                    decks[(case.deck, tree)] = memory_deck(case.deck, scratch / f"project-{len(decks)}", tree)
                out = Path(tempfile.mkdtemp(dir=scratch))
                command = [sys.executable, "-m", "generator", "export", str(decks[(case.deck, tree)]), "--quiet",
                           *(part.format(out=out) for part in case.arguments)]
                environment = {**os.environ, "PYTHONPATH": str(tree)}
                results[label].append(watched(command, tree, environment))
                subprocess.run(["rm", "-rf", str(out)], check=True)
        for label, watched_runs in results.items():
            seconds = statistics.median(result.seconds for result in watched_runs)
            main_peak = max(next(iter(result.peaks_mb.values())) for result in watched_runs)
            worker_peak = max((peak for result in watched_runs for peak in list(result.peaks_mb.values())[1:]),
                              default=0.0)
            workers = max(len(result.peaks_mb) - 1 for result in watched_runs)
            verdict = "yes" if max(result.largest_mb for result in watched_runs) <= MEMORY_BUDGET_MB else "NO"
            print(f"| {case.name} | {label} | {seconds:.1f} | {main_peak:.0f} | {worker_peak:.0f} | {workers} | "
                  f"{verdict} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--memory", action="store_true", help="time whole export commands and their memory")
    parser.add_argument("--against", metavar="REV", help="with --memory: also run deckpress at git revision REV")
    parser.add_argument("--only", action="append", metavar="CASE", help="with --memory: only this case (repeatable)")
    parser.add_argument("--runs", type=int, default=1, help="with --memory: runs of each case from each tree")
    arguments = parser.parse_args()
    if not arguments.memory:
        stages()
        return
    cases = [case for case in MEMORY_CASES if not arguments.only or case.name in arguments.only]
    if not cases:
        raise SystemExit(f"no such case; the cases are: {', '.join(case.name for case in MEMORY_CASES)}")
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="deckpress-bench-")))
        trees = [("this tree", REPOSITORY)]
        if arguments.against:
            tree, commit = stack.enter_context(worktree_at(arguments.against, scratch))
            trees.insert(0, (commit, tree))
        measure_memory(cases, trees, scratch, max(1, arguments.runs))


def stages() -> None:
    for game in GAMES:
        result = in_child("measure_deck", game)
        print(f"{game}: {result['faces']} face images, peak {result['peak_mb']:.0f} MB")
        for stage, seconds in result["times"].items():
            print(f"  {stage:<26} {seconds:6.2f} s")
    result = in_child("measure_batching", "gold-rush")
    print(f"\n{result['faces']} Gold Rush fronts at 150 dpi: one PDF {result['one document']:.2f} s, "
          f"a PDF each {result['a document each']:.2f} s")
    result = in_child("measure_many_copies", "")
    print(f"\nTTS export of 100,000 copies of 3 cards: {result['seconds']:.1f} s, peak {result['peak_mb']:.0f} MB, "
          f"saved object {result['json_mb']:.0f} MB")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        sys.path.insert(0, str(REPOSITORY))
        print(json.dumps(globals()[sys.argv[2]](sys.argv[3])))
    else:
        main()
