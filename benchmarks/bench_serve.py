"""How long a save takes to show in ``deckpress serve``'s page, measured in a real browser.

Run by hand from the repository root (it is not part of the test suite)::

    .venv/bin/python benchmarks/bench_serve.py              # 10 saves on each deck
    .venv/bin/python benchmarks/bench_serve.py --saves 30
    .venv/bin/python benchmarks/bench_serve.py --since       # also with serve --since HEAD

For each deck, a fresh ``deckpress serve`` process and a headless Chromium page
(Debian's ``/usr/bin/chromium``, through Playwright). Each save renames one card
in ``deck.yaml``; the latency is from just before the file is written to the
moment the renamed card's new image has loaded in the page, both read from the
machine's clock. The server's own line for each reload gives the share spent
checking the deck and remaking its snapshot; the rest is waiting for the next
look at the files (every 0.25 s), the event reaching the page and the one new
face being drawn and fetched.

The decks: the starting deck of ``deckpress new`` (7 cards) and the same deck
with 300 distinct cards, to show how a save's cost grows with the deck. With
``--since``, each deck is measured a second time in a git repository of its own,
served with ``--since HEAD``, so every save is also compared with the committed
deck and the renamed card marked as changed.
"""

from __future__ import annotations

import argparse
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))

from generator.scaffold import create_deck  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]

WATCH_FOR_IMAGE = """
([alt, done]) => {
  const seen = () => {
    const image = [...document.querySelectorAll('#grid img')].find(candidate => candidate.alt === alt);
    if (!image) return false;
    const finish = () => { window[done] = Date.now(); };
    if (image.complete && image.naturalWidth) finish(); else image.addEventListener('load', finish, {once: true});
    return true;
  };
  if (seen()) return;
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true});
}
"""


def many_cards(folder: Path, count: int) -> None:
    """Give the starting deck ``count`` distinct monsters, one copy each, and no count rules."""
    deck = folder / "deck.yaml"
    text = deck.read_text()
    head, _, _ = text.partition("cards:\n")
    cards = "".join(f"  - {{id: card-{n}, type: monster, name: Card {n}, power: {n % 10}}}\n"
                    for n in range(count))
    cards = cards.replace("name: Card 0,", "name: Knight,")
    deck.write_text(head + "cards:\n" + cards)


def committed(folder: Path) -> None:
    """Put the project holding the deck at ``folder`` in a git repository of its own, committed."""
    root = folder.parent.parent
    identity = ["-c", "user.name=Bench", "-c", "user.email=bench@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-q", "-m", "The deck as printed"]):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)


def measure(folder: Path, saves: int, browser, options: tuple[str, ...] = ()) -> tuple[list[float], list[float]]:
    process = subprocess.Popen([sys.executable, "-m", "generator", "serve", str(folder), "--port", "0", *options],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               cwd=folder.parent.parent)
    lines: queue.Queue[str] = queue.Queue()
    try:
        url = re.search(r"http://\S+?/", process.stdout.readline()).group(0)
        threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
        page = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
        page.goto(url)
        page.wait_for_selector('#grid img[alt="Knight"]')
        deck = folder / "deck.yaml"
        latencies, reloads = [], []
        name = "Knight"
        for save in range(saves):
            new_name = f"Knight {save + 1}"
            flag = f"shown{save}"
            page.evaluate(WATCH_FOR_IMAGE, [new_name, flag])
            time.sleep(0.4)  # let the previous reload settle, and the save fall anywhere in a poll
            written = time.time()
            deck.write_text(deck.read_text().replace(f"name: {name},", f"name: {new_name},"))
            page.wait_for_function(f"window.{flag}", timeout=30_000)
            latencies.append(page.evaluate(f"window.{flag}") / 1000 - written)
            # An editor's save can be seen half-written first: every reload it caused counts.
            time.sleep(0.3)
            reloaded = 0.0
            while not lines.empty():
                found = re.search(r"reloaded in ([\d.]+)s", lines.get())
                reloaded += float(found.group(1)) if found else 0.0
            reloads.append(reloaded)
            name = new_name
        page.close()
        return latencies, reloads
    finally:
        process.terminate()
        process.wait()


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"median {statistics.median(ordered) * 1000:5.0f} ms, "
            f"90% {ordered[int(0.9 * (len(ordered) - 1))] * 1000:5.0f} ms, max {ordered[-1] * 1000:5.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("--since", action="store_true", help="also measure serve --since HEAD")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        small = create_deck(Path(scratch) / "small" / "cards", "space-race")
        large = create_deck(Path(scratch) / "large" / "cards", "space-race")
        many_cards(large, 300)
        for label, folder in (("7 cards", small), ("300 distinct cards", large)):
            original = (folder / "deck.yaml").read_text()
            latencies, reloads = measure(folder, arguments.saves, browser)
            print(f"{label:>33}: save to screen {summary(latencies)}; server reload {summary(reloads)}")
            if arguments.since:
                (folder / "deck.yaml").write_text(original)
                committed(folder)
                latencies, reloads = measure(folder, arguments.saves, browser, ("--since", "HEAD"))
                label = f"{label}, --since HEAD"
                print(f"{label:>33}: save to screen {summary(latencies)}; server reload {summary(reloads)}")
        browser.close()


if __name__ == "__main__":
    main()
