"""Goblins Drool, Fairies Rule! solitaire: the one-player deal, played to a win or a give-up.

The one-player game as the rules describe it:

* Setup: one random Star card goblin-side up in your hand (the other Stars
  leave the game), five more goblins from the shuffled rest, then six of the
  remaining cards fairy-side up in the Fairy Circle. The rest leave the game.
* A turn: add one card from your hand to the Circle, as it lies. Every other
  Circle card whose visible name rhymes with it flips over (a Star card flips
  them all). Then take every other Circle card showing the added card's symbol
  into your hand, as it lies.
* You win when your hand holds no goblin at the end of a turn.

Nothing in the rules ends a losing game, so a player who has not won after
``max_turns`` turns (default 30) gives up; that counts as a loss.

Policies (how the simulated player chooses the card to add):

* ``greedy``: the card that leaves the fewest goblins in hand after this turn,
  ties broken at random;
* ``lookahead``: the card that leaves the fewest goblins after this turn and
  the best next turn, ties broken at random;
* ``random``: any card, as a yardstick for the others.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from generator.stats.simulation import Outcome

TITLE = "Goblins solitaire (one-player deal)"
POLICIES = {
    "greedy": "add the card that leaves the fewest goblins in hand this turn",
    "lookahead": "add the card that leaves the fewest goblins after this turn and the best next one",
    "random": "add any card at random",
}

GOBLIN, FAIRY = 0, 1
HAND_GOBLINS = 5
CIRCLE_FAIRIES = 6
DEFAULT_MAX_TURNS = 30


@dataclass(frozen=True)
class Side:
    """What one face of a card shows: rhyme group, symbol, and whether it is a goblin."""

    group: str
    symbol: str
    goblin: bool


@dataclass(frozen=True)
class Table:
    """The deck, ready to deal: both faces of every card, Star cards apart."""

    faces: tuple[tuple[Side, Side], ...]  # per card: (goblin side, fairy side)
    stars: tuple[int, ...]
    others: tuple[int, ...]
    max_turns: int


Placed = tuple[int, int]  # (card index, side showing)


def prepare(deck, options: dict) -> Table:
    """Both faces of every card, from the deck's group/symbol fields and the Star flags."""
    faces, stars, others = [], [], []
    for card in deck.cards:
        back = card.back or {}
        faces.append((Side(card.fields["group"], card.fields["symbol"], True),
                      Side(back["group"], back["symbol"], False)))
        (stars if card.fields.get("star") else others).append(len(faces) - 1)
    max_turns = int(options.get("max_turns", DEFAULT_MAX_TURNS))
    return Table(tuple(faces), tuple(stars), tuple(others), max_turns)


def play(table: Table, rng: random.Random, policy: str) -> Outcome:
    """One game from a fresh deal; ``rng`` makes every random choice."""
    hand, circle = deal(table, rng)
    choose = _POLICIES[policy]
    for turn in range(1, table.max_turns + 1):
        hand, circle = take_turn(table, hand, circle, choose(table, hand, circle, rng))
        if goblins(table, hand) == 0:
            return Outcome(won=True, turns=turn, ending="won")
    return Outcome(won=False, turns=table.max_turns, ending=f"gave up after {table.max_turns} turns")


def deal(table: Table, rng: random.Random) -> tuple[list[Placed], list[Placed]]:
    """One Star goblin and five more goblins to the hand, six fairies to the Circle."""
    rest = list(table.others)
    rng.shuffle(rest)
    hand = [(rng.choice(table.stars), GOBLIN)] + [(card, GOBLIN) for card in rest[:HAND_GOBLINS]]
    circle = [(card, FAIRY) for card in rest[HAND_GOBLINS:HAND_GOBLINS + CIRCLE_FAIRIES]]
    return hand, circle


def take_turn(table: Table, hand: list[Placed], circle: list[Placed], index: int
              ) -> tuple[list[Placed], list[Placed]]:
    """Add hand card ``index`` to the Circle, flip, take; returns the new hand and Circle."""
    card, side = hand[index]
    added = table.faces[card][side]
    star = card in table.stars
    flipped = [(c, 1 - s) if star or table.faces[c][s].group == added.group else (c, s) for c, s in circle]
    taken = [(c, s) for c, s in flipped if table.faces[c][s].symbol == added.symbol]
    kept = [(c, s) for c, s in flipped if table.faces[c][s].symbol != added.symbol]
    return hand[:index] + hand[index + 1:] + taken, kept + [(card, side)]


def goblins(table: Table, hand: list[Placed]) -> int:
    return sum(table.faces[c][s].goblin for c, s in hand)


def _greedy(table: Table, hand: list[Placed], circle: list[Placed], rng: random.Random) -> int:
    scores = [goblins(table, take_turn(table, hand, circle, i)[0]) for i in range(len(hand))]
    return _best(scores, rng)


def _lookahead(table: Table, hand: list[Placed], circle: list[Placed], rng: random.Random) -> int:
    scores = []
    for i in range(len(hand)):
        next_hand, next_circle = take_turn(table, hand, circle, i)
        now = goblins(table, next_hand)
        if now == 0:  # a win now beats any promise of one later
            scores.append((0, 0))
            continue
        later = min(goblins(table, take_turn(table, next_hand, next_circle, j)[0])
                    for j in range(len(next_hand)))
        scores.append((later, now))
    return _best(scores, rng)


def _random(table: Table, hand: list[Placed], circle: list[Placed], rng: random.Random) -> int:
    return rng.randrange(len(hand))


def _best(scores: list, rng: random.Random) -> int:
    """The index of the lowest score; a tie is broken at random so play does not loop."""
    lowest = min(scores)
    return rng.choice([i for i, score in enumerate(scores) if score == lowest])


_POLICIES = {"greedy": _greedy, "lookahead": _lookahead, "random": _random}
