"""Draw odds are exact: checked against math.comb formulas and brute-force enumeration of every hand."""

import json
import os
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path
from textwrap import dedent

import pytest
from cli_run import deckpress

from generator.deck import load_deck
from generator.errors import InputError
from generator.stats.odds import probability
from generator.stats.pools import deck_pool, decklist_pool
from generator.stats.spec import read_stats_spec

ROOT = Path(__file__).resolve().parents[1]


def write_deck(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(dedent(text))
    return path


def answers(path: Path, decklist: str | None = None) -> dict[str, Fraction]:
    deck = load_deck(path)
    pool = decklist_pool(deck, decklist) if decklist else deck_pool(deck)
    return {q.name: probability(q, pool) for q in read_stats_spec(deck).questions}


def physical_cards(path: Path, decklist: str | None = None) -> list:
    """Every physical card, one list entry per copy, as plain dicts (front fields plus id)."""
    deck = load_deck(path)
    counts = ({c.id: c.count for c in deck.cards} if decklist is None
              else next(d.counts for d in deck.decklists if d.id == decklist))
    return [dict(card.fields, id=card.id) for card in deck.cards for _ in range(counts.get(card.id, 0))]


def brute_force(cards: list, draw: int, predicate) -> Fraction:
    """The share of all possible hands for which ``predicate(hand)`` holds."""
    hands = list(combinations(range(len(cards)), draw))
    good = sum(1 for hand in hands if predicate([cards[i] for i in hand]))
    return Fraction(good, len(hands))


SMALL = """\
    deck: {name: Small}
    fields:
      name: text
      kind: {choices: [red, blue, green]}
      value: int
    cards:
      - {id: r1, kind: red, value: 1, count: 3}
      - {id: r2, kind: red, value: 2, count: 2}
      - {id: b1, kind: blue, value: 1, count: 4}
      - {id: g3, kind: green, value: 3, count: 3}
    stats:
      draw: 4
      questions:
        - name: a red card
          need: {where: {kind: red}}
        - name: two or more blue
          need: {where: {kind: blue}, at_least: 2}
        - name: exactly one value-1 card
          need: {where: {value: 1}, exactly: 1}
        - name: at most one green
          need: {where: {kind: green}, at_most: 1}
        - name: red and blue and no green
          need:
            - {where: {kind: red}}
            - {where: {kind: blue}}
            - {where: {kind: green}, at_most: 0}
        - name: one to two red or green
          need: {where: {kind: [red, green]}, at_least: 1, at_most: 2}
"""


def test_single_condition_matches_the_hypergeometric_formula(tmp_path):
    found = answers(write_deck(tmp_path, SMALL))
    N, n = 12, 4
    assert found["a red card"] == 1 - Fraction(comb(N - 5, n), comb(N, n))
    assert found["two or more blue"] == sum(Fraction(comb(4, k) * comb(8, n - k), comb(N, n)) for k in range(2, 5))
    assert found["exactly one value-1 card"] == Fraction(comb(7, 1) * comb(5, 3), comb(N, n))
    assert found["at most one green"] == Fraction(comb(9, 4) + 3 * comb(9, 3), comb(N, n))


def test_every_question_matches_brute_force_enumeration(tmp_path):
    path = write_deck(tmp_path, SMALL)
    cards = physical_cards(path)
    found = answers(path)

    def count(hand, **wanted):
        return sum(all(card[k] in (v if isinstance(v, list) else [v]) for k, v in wanted.items()) for card in hand)

    expected = {
        "a red card": lambda h: count(h, kind="red") >= 1,
        "two or more blue": lambda h: count(h, kind="blue") >= 2,
        "exactly one value-1 card": lambda h: count(h, value=1) == 1,
        "at most one green": lambda h: count(h, kind="green") <= 1,
        "red and blue and no green": lambda h: count(h, kind="red") >= 1 and count(h, kind="blue") >= 1
        and count(h, kind="green") == 0,
        "one to two red or green": lambda h: 1 <= count(h, kind=["red", "green"]) <= 2,
    }
    assert set(found) == set(expected)
    for name, predicate in expected.items():
        assert found[name] == brute_force(cards, 4, predicate), name


GOLD_RUSH_LIKE = """\
    deck: {name: Summoners}
    fields:
      name: text
      type: {choices: [monster, treasure, rune]}
      monster_type: {choices: [dragon, ghost]}
      summons: {choices: [dragon, ghost]}
      cost: {type: int, min: 0}
    cards:
      - {id: wyrm, type: monster, monster_type: dragon, cost: 2}
      - {id: drake, type: monster, monster_type: dragon, cost: 1}
      - {id: wraith, type: monster, monster_type: ghost, cost: 3}
      - {id: spark, type: monster, monster_type: ghost, cost: 0}
      - {id: burning, type: treasure, summons: dragon}
      - {id: cursed, type: treasure, summons: ghost}
      - {id: ward, type: rune}
    decklists:
      duel:
        name: Duel
        cards: {wyrm: 2, drake: 1, wraith: 2, spark: 1, burning: 3, cursed: 3, ward: 2}
    stats:
      questions:
        - name: a monster and the treasure to summon it
          draw: 5
          for_some: {type: monster}
          need:
            - match: {id: id}
            - {where: {type: treasure}, match: {summons: monster_type}, at_least: cost}
        - name: no two monsters of one type
          draw: 5
          for_every: {type: monster}
          need: {where: {type: monster}, match: {monster_type: monster_type}, at_most: 1}
"""


def test_for_some_summon_question_matches_brute_force(tmp_path):
    """At least one monster of type T AND at least its cost in treasures of T, for some monster."""
    path = write_deck(tmp_path, GOLD_RUSH_LIKE)
    cards = physical_cards(path, "duel")
    assert len(cards) == 14

    def summonable(hand):
        treasures = {t: sum(1 for c in hand if c.get("summons") == t) for t in ("dragon", "ghost")}
        return any(c["type"] == "monster" and treasures[c["monster_type"]] >= c["cost"] for c in hand)

    def no_two_alike(hand):
        types = [c["monster_type"] for c in hand if c["type"] == "monster"]
        return len(types) == len(set(types))

    found = answers(path, "duel")
    assert found["a monster and the treasure to summon it"] == brute_force(cards, 5, summonable)
    assert found["no two monsters of one type"] == brute_force(cards, 5, no_two_alike)


def test_from_restricts_the_cards_drawn(tmp_path):
    path = write_deck(tmp_path, SMALL.replace(
        "        - name: a red card\n          need: {where: {kind: red}}\n",
        "        - name: a red card\n          from: {kind: [red, blue]}\n          need: {where: {kind: red}}\n"))
    # Drawing 4 from the 9 red and blue cards only.
    assert answers(path)["a red card"] == 1 - Fraction(comb(4, 4), comb(9, 4))


def test_shelf_repair_in_cereal_killer_opening_hand():
    found = answers(ROOT / "cards" / "cereal-killer" / "deck.yaml")
    # 7 Shelf Repair among 152 cards, 6 drawn.
    assert found["a Shelf Repair in the opening hand"] == 1 - Fraction(comb(145, 6), comb(152, 6))
    assert found["a hand of cereals only, no special card"] == Fraction(comb(99, 6), comb(152, 6))


def test_drawing_more_cards_than_the_pool_holds_is_an_input_error(tmp_path):
    path = write_deck(tmp_path, SMALL.replace("  draw: 4\n", "  draw: 13\n"))
    with pytest.raises(InputError) as raised:
        answers(path)
    assert raised.value.exit_code == 2
    assert "draws 13 cards, but Small has only 12" in str(raised.value)
    assert str(raised.value).startswith(f"{path}:")


def test_a_question_too_costly_to_count_is_refused_by_check_and_stats_at_its_line(tmp_path):
    """Three kinds of 80,000 cards, a draw of 1,000 and a need on each kind: counting it
    exactly would run for minutes. check refuses it, and stats refuses it the same way
    instead of starting."""
    kinds = range(3)
    path = write_deck(tmp_path, "deck: {name: Many}\nfields:\n  name: {type: text, required: true}\n"
                                f"  kind: {{choices: [{', '.join(f'k{i}' for i in kinds)}]}}\ncards:\n"
                      + "".join(f"  - {{id: c{i}, count: 80000, kind: k{i}, name: C{i}}}\n" for i in kinds)
                      + "stats:\n  draw: 1000\n  questions:\n    - name: all\n      need:\n"
                      + "".join(f"        - {{where: {{kind: k{i}}}, at_least: {i + 1}}}\n" for i in kinds))
    line = (f"error: {path}:12:7: question 'all' would take 10,070,060 steps to count exactly (a draw of 1000 "
            "from 240,000 cards, 3 conditions); at most 2,000,000: draw fewer cards or ask fewer conditions "
            "at once (draw)")
    check = deckpress("check", path)
    assert check.exit_code == 2 and line in check.error_lines, check.stdout + check.stderr
    stats = deckpress("stats", path)
    assert (stats.exit_code, stats.error_lines) == (2, [line])


def own_treasure_deck(monsters: int) -> str:
    """Monsters that each summon with two of their own treasures, none shared: the shape of
    Gold Rush's question, an OR over every monster."""
    lines = ["deck: {name: Heavy, players: 2}",
             "fields: {name: text, type: {choices: [monster, treasure]}, kind: text, summons: text}", "cards:"]
    for i in range(monsters):
        lines.append(f"  - {{id: m{i}, count: 2, type: monster, name: M{i}, kind: k{i}}}")
        lines.append(f"  - {{id: t{i}, count: 3, type: treasure, name: T{i}, summons: k{i}}}")
    lines += ["stats:", "  questions:", "    - name: monster and its treasure", "      draw: 12",
              "      for_some: {type: monster}", "      need:", "        - match: {id: id}",
              "        - {where: {type: treasure}, match: {summons: kind}, at_least: 2}"]
    return "\n".join(lines) + "\n"


def test_an_or_over_many_monsters_that_check_passes_is_counted_in_seconds(tmp_path):
    """18 monsters, each wanting itself and 2 of its own 3 treasures in a draw of 12. check
    passes it, so stats must answer it within its bound rather than run for minutes (it
    once kept a partial hand for every set of monsters drawn). The answer is the complement
    of every monster failing, counted group by group."""
    monsters = 18
    path = tmp_path / "heavy" / "deck.yaml"
    path.parent.mkdir()
    path.write_text(own_treasure_deck(monsters))
    assert deckpress("check", path).exit_code == 0
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    stats = subprocess.run([sys.executable, "-m", "generator", "stats", str(path), "--format", "json"],
                           capture_output=True, text=True, timeout=30, env=environment, cwd=ROOT)
    assert stats.returncode == 0, stats.stderr
    [question] = json.loads(stats.stdout)["decks"][0]["pools"][0]["questions"]
    # Ways to draw a monsters and b treasures of one group without it answering yes, as a
    # polynomial in the cards drawn; the hands where no group answers are its 18th power.
    failing = [0] * 6
    for a in range(3):
        for b in range(4):
            if not (a >= 1 and b >= 2):
                failing[a + b] += comb(2, a) * comb(3, b)
    hands = [1]
    for _ in range(monsters):
        hands = [sum(hands[i] * failing[j - i] for i in range(len(hands)) if 0 <= j - i < 6)
                 for j in range(len(hands) + 5)]
    assert Fraction(question["exact"]) == 1 - Fraction(hands[12], comb(5 * monsters, 12))


def test_an_or_whose_parts_share_tallies_every_way_is_refused_by_check_and_stats(tmp_path):
    """49 monsters on a 7 by 7 grid, each wanting itself, a treasure of its row and one of
    its column: whatever the order, a partial hand must remember which monsters were drawn
    along a row. check refuses it with the limit's line (it once passed, and stats ran for
    minutes), and stats refuses it the same way instead of starting."""
    side = 7
    lines = ["deck: {name: Grid, players: 2}",
             "fields: {name: text, type: {choices: [monster, treasure]}, row: text, column: text}", "cards:"]
    for i in range(side):
        lines += [f"  - {{id: m{i}_{j}, type: monster, name: M, row: r{i}, column: c{j}}}" for j in range(side)]
        lines.append(f"  - {{id: row{i}, count: 2, type: treasure, name: R, row: r{i}}}")
        lines.append(f"  - {{id: column{i}, count: 2, type: treasure, name: C, column: c{i}}}")
    lines += ["stats:", "  questions:", "    - name: grid", "      draw: 8", "      for_some: {type: monster}",
              "      need:", "        - match: {id: id}", "        - {where: {type: treasure}, match: {row: row}}",
              "        - {where: {type: treasure}, match: {column: column}}"]
    path = tmp_path / "grid" / "deck.yaml"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n")
    check = deckpress("check", path)
    [line] = [line for line in check.error_lines if line.startswith("error:")]
    question_line = lines.index("    - name: grid") + 1
    assert check.exit_code == 2
    assert line.startswith(f"error: {path}:{question_line}:7: question 'grid' would take ")
    assert "steps to count exactly (a draw of 8 from 77 cards, 147 conditions); at most 2,000,000" in line
    stats = deckpress("stats", path)
    assert (stats.exit_code, stats.error_lines) == (2, [line])


def test_the_statistics_page_example_asks_what_its_name_says(tmp_path):
    """statistics.md's "a monster and a coin for each point of its cost" draws a monster and
    as many coins as that monster costs: the odds stats prints are that, by brute force, and
    not only the chance of a coin."""
    page = (ROOT / "docs" / "reference" / "statistics.md").read_text(encoding="utf-8")
    block = page.split("<!-- example: deck cards/odds/deck.yaml -->\n```yaml\n", 1)[1].split("```", 1)[0]
    path = write_deck(tmp_path, block)
    cards = physical_cards(path)

    def summoned(hand):
        coins = sum(1 for card in hand if card["type"] == "treasure")
        return any(card["type"] == "monster" and coins >= card["cost"] for card in hand)

    assert answers(path)["a monster and a coin for each point of its cost"] == brute_force(cards, 5, summoned)
