"""How long `deckpress stats` takes on its heaviest jobs. Run: .venv/bin/python benchmarks/stats_bench.py

* exact odds of the Gold Rush summoning question (an OR over every monster of
  "this monster AND its cost in treasures of its type") on a 43-card decklist
  built from six monster types, for draws of 6 to 15 cards;
* games per second of the Goblins solitaire plugin, for each policy.

Timings are printed, never asserted: tests stay fast and machine-independent.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from generator.deck import load_deck
from generator.deck.selectors import parse_selector
from generator.errors import Position
from generator.stats.odds import probability
from generator.stats.pools import decklist_pool
from generator.stats.simulation import load_plugin, run
from generator.stats.spec import Condition, Question, read_stats_spec

ROOT = Path(__file__).resolve().parents[1]
TYPES = ["dragon", "ghost", "sorcerer", "sea", "angel", "demon"]


def summoning_deck(folder: Path) -> Path:
    """Six monster types with costs 1-4, two treasures per type, runes; one 43-card decklist."""
    lines = ["deck: {name: Bench}", "fields:", "  name: text",
             "  type: {choices: [monster, treasure, rune]}",
             f"  monster_type: {{choices: [{', '.join(TYPES)}]}}",
             f"  summons: {{choices: [{', '.join(TYPES)}]}}", "  cost: int", "cards:"]
    decklist = {}
    for kind in TYPES:
        for cost in range(1, 5):
            lines.append(f"  - {{id: {kind}-{cost}, name: {kind} {cost}, type: monster, "
                         f"monster_type: {kind}, cost: {cost}}}")
        for n in (1, 2):
            lines.append(f"  - {{id: {kind}-gold-{n}, name: {kind} gold {n}, type: treasure, summons: {kind}}}")
    for n in range(1, 8):
        lines.append(f"  - {{id: rune-{n}, name: rune {n}, type: rune}}")
    for kind in TYPES[:3]:
        decklist.update({f"{kind}-1": 3, f"{kind}-2": 2, f"{kind}-3": 1, f"{kind}-4": 1,
                         f"{kind}-gold-1": 3, f"{kind}-gold-2": 2})
    decklist.update({f"rune-{n}": 1 for n in range(1, 8)})
    lines += ["decklists:", "  bench:", "    cards:"] + [f"      {k}: {v}" for k, v in decklist.items()]
    path = folder / "deck.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def summon_question(deck, draw: int) -> Question:
    where = Position(deck.path)
    return Question(
        name=f"summon in {draw}", draw=draw, chosen=parse_selector({"type": "monster"}, deck, where),
        needs=(Condition(where=parse_selector(None, deck, where), match=(("id", "id"),)),
               Condition(where=parse_selector({"type": "treasure"}, deck, where),
                         match=(("summons", "monster_type"),), at_least="cost")))


def bench_odds() -> None:
    with tempfile.TemporaryDirectory() as folder:
        deck = load_deck(summoning_deck(Path(folder)))
        pool = decklist_pool(deck, "bench")
        print(f"summoning question on a {pool.total}-card decklist:")
        for draw in (6, 9, 12, 15):
            start = time.perf_counter()
            chance = probability(summon_question(deck, draw), pool)
            print(f"  draw {draw:>2}: {float(chance):7.2%} in {time.perf_counter() - start:6.3f} s")


def bench_goblins() -> None:
    deck = load_deck(ROOT / "cards" / "goblins")
    spec = read_stats_spec(deck).simulation
    plugin = load_plugin(deck, spec)
    print("goblins solitaire plugin:")
    for policy in plugin.policies:
        games = 2000
        start = time.perf_counter()
        run(plugin, deck, spec, games=games, seed=1, policy=policy)
        elapsed = time.perf_counter() - start
        print(f"  {policy:<10} {games} games in {elapsed:5.2f} s ({games / elapsed:,.0f} games/s)")


if __name__ == "__main__":
    bench_odds()
    bench_goblins()
