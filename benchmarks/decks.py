"""Generated decks for the benchmarks, made from the bundled Cereal Killer deck.

- :func:`copies_deck`: the same 26 distinct faces, counts scaled up to a total
  (what a deck of many copies costs: placements, pages, the manifest);
- :func:`distinct_deck`: every card different, each printed once (what each
  distinct face costs: its context, layout, text fitting and drawing);
- :func:`two_back_deck`: every card different, with two backs between them (what an
  export of a deck with several backs costs).

Each is written as ``<project>/cards/<name>/deck.yaml`` beside a link to the
repository's layouts, the way a project lays decks out, so its layouts are found.
"""

from __future__ import annotations

from pathlib import Path

import yaml

REPOSITORY = Path(__file__).resolve().parent.parent
SOURCE_DECK = REPOSITORY / "cards" / "cereal-killer" / "deck.yaml"


def _source(repository: Path) -> dict:
    source = repository / SOURCE_DECK.relative_to(REPOSITORY)
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data.pop("rules", None)  # the game's rules count the real deck's cards
    data.pop("stats", None)
    return data


def _write(project: Path, name: str, data: dict, repository: Path) -> Path:
    layouts = project / "layouts"
    if not layouts.exists():
        project.mkdir(parents=True, exist_ok=True)
        layouts.symlink_to(repository / "layouts", target_is_directory=True)
    path = project / "cards" / name / "deck.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def copies_deck(project: Path, total: int, repository: Path = REPOSITORY) -> Path:
    """The Cereal Killer cards with their counts scaled so the deck holds ``total`` cards.

    ``repository`` is the checkout whose deck and layouts are used (another revision's,
    for ``run.py --against``)."""
    data = _source(repository)
    cards = data["cards"]
    original = sum(card.get("count", 1) for card in cards)
    for card in cards:
        card["count"] = max(1, round(card.get("count", 1) * total / original))
    cards[0]["count"] += total - sum(card["count"] for card in cards)
    return _write(project, f"copies-{total}", data, repository)


def distinct_deck(project: Path, total: int, repository: Path = REPOSITORY) -> Path:
    """``total`` cards, one copy each, all different: the Cereal Killer cards in turn, each
    numbered in its name (``Frankenflakes 17``) so that no two fronts are drawn alike."""
    data = _source(repository)
    data["cards"] = _distinct_cards(data["cards"], total)
    return _write(project, f"distinct-{total}", data, repository)


BACK_KINDS = {"monster": "Cereal Monsters"}
"""Which cards of :func:`two_back_deck` get the monster back; every other card gets the shelf back."""


def two_back_deck(project: Path, total: int, repository: Path = REPOSITORY) -> Path:
    """``total`` different cards (as :func:`distinct_deck`) with two backs between them, as a
    party game of question and answer cards has: each card names its back (``back:``), the
    monsters one and every other card the other, so the deck shows two distinct backs."""
    data = _source(repository)
    data["cards"] = _distinct_cards(data["cards"], total)
    for card in data["cards"]:
        card["back"] = {"name": BACK_KINDS.get(card["type"], "Shelves and Milk"), "type": card["type"]}
    return _write(project, f"two-backs-{total}", data, repository)


def _distinct_cards(pool: list[dict], total: int) -> list[dict]:
    cards = []
    for index in range(total):
        card = dict(pool[index % len(pool)])
        number = index // len(pool) + 1
        card["id"] = f"{card['id']}-{number}"
        card["name"] = f"{card['name']} {number}"
        card["count"] = 1
        cards.append(card)
    return cards
