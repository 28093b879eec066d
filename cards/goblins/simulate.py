"""Goblins Drool, Fairies Rule! solitaire: the one-player deal, played to a win or the turn limit.

The one-player game as the rules describe it:

* Setup: one random Star card goblin-side up in your hand (the other Stars
  leave the game), five more goblins from the shuffled rest, then six of the
  remaining cards fairy-side up in the Fairy Circle. The rest leave the game.
* A turn: add one card from your hand to the Circle, as it lies. Every other
  Circle card whose visible name rhymes with it flips over (a Star card flips
  them all). Then take every other Circle card showing the added card's symbol
  into your hand, as it lies.
* You win when your hand holds no goblin at the end of a turn.
* The game ends after ``TURN_LIMIT`` turns (the booklet's rule for playing
  alone): goblins still in hand then are a loss.

Scores follow the booklet: a win on turn ``t`` scores ``TURN_LIMIT + 1 - t``
(10 for the fastest win, in 6 turns), a loss scores minus one for each goblin
left in hand. The ending of a lost game names that count, so the report's
endings give the spread of losing scores; the turns to win give the rest.
The deck's ``max_turns`` setting may try another length of game.

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
TURN_LIMIT = 15
"""The solo game's length in the rules: most deals a careful player can win are won by then."""


@dataclass(frozen=True)
class Table:
    """The deck, ready to deal, with every card side looked up once.

    A card lying on the table is one number, its *face*: ``2 * card + side``
    (side 0 goblin, 1 fairy). Flipping a card is ``face ^ 1``; the tables below
    give each face's rhyme group, symbol and whether it shows a goblin.
    """

    group: tuple[str, ...]
    symbol: tuple[str, ...]
    goblin: tuple[bool, ...]
    star: tuple[bool, ...]
    stars: tuple[int, ...]  # card numbers of the Star cards
    others: tuple[int, ...]
    turn_limit: int


def face(card: int, side: int) -> int:
    """The face number of ``card`` lying ``side`` up."""
    return 2 * card + side


def prepare(deck, options: dict) -> Table:
    """Both faces of every card, from the deck's group/symbol fields and the Star flags."""
    group, symbol, goblin, star, stars, others = [], [], [], [], [], []
    for number, card in enumerate(deck.cards):
        back = card.back or {}
        for fields, is_goblin in ((card.fields, True), (back, False)):
            group.append(fields["group"])
            symbol.append(fields["symbol"])
            goblin.append(is_goblin)
            star.append(bool(card.fields.get("star")))
        (stars if card.fields.get("star") else others).append(number)
    turn_limit = int(options.get("max_turns", TURN_LIMIT))
    return Table(tuple(group), tuple(symbol), tuple(goblin), tuple(star), tuple(stars), tuple(others),
                 turn_limit)


def play(table: Table, rng: random.Random, policy: str) -> Outcome:
    """One game from a fresh deal; ``rng`` makes every random choice."""
    hand, circle = deal(table, rng)
    choose = _POLICIES[policy]
    for turn in range(1, table.turn_limit + 1):
        hand, circle = take_turn(table, hand, circle, choose(table, hand, circle, rng))
        if goblins(table, hand) == 0:
            return Outcome(won=True, turns=turn, ending="won")
    return Outcome(won=False, turns=table.turn_limit, ending=ending_of_a_loss(goblins(table, hand)))


def ending_of_a_loss(left: int) -> str:
    """A lost game's ending names the goblins left in hand: minus that is its score."""
    return f"lost with {left} goblin{'s' if left != 1 else ''} in hand"


def deal(table: Table, rng: random.Random) -> tuple[list[int], list[int]]:
    """One Star goblin and five more goblins to the hand, six fairies to the Circle."""
    rest = list(table.others)
    rng.shuffle(rest)
    hand = [face(rng.choice(table.stars), GOBLIN)] + [face(card, GOBLIN) for card in rest[:HAND_GOBLINS]]
    circle = [face(card, FAIRY) for card in rest[HAND_GOBLINS:HAND_GOBLINS + CIRCLE_FAIRIES]]
    return hand, circle


def _flip(table: Table, circle: list[int], added: int) -> list[int]:
    """The Circle after ``added`` joins it: rhyming cards (all cards, for a Star) turned over."""
    if table.star[added]:
        return [f ^ 1 for f in circle]
    rhyme = table.group[added]
    group = table.group
    return [f ^ 1 if group[f] == rhyme else f for f in circle]


def take_turn(table: Table, hand: list[int], circle: list[int], index: int) -> tuple[list[int], list[int]]:
    """Add hand card ``index`` to the Circle, flip, take; returns the new hand and Circle."""
    added = hand[index]
    wanted = table.symbol[added]
    symbol = table.symbol
    flipped = _flip(table, circle, added)
    taken = [f for f in flipped if symbol[f] == wanted]
    kept = [f for f in flipped if symbol[f] != wanted]
    return hand[:index] + hand[index + 1:] + taken, kept + [added]


def goblins(table: Table, hand: list[int]) -> int:
    goblin = table.goblin
    return sum(goblin[f] for f in hand)


def goblins_after(table: Table, hand: list[int], circle: list[int], index: int, now: int) -> int:
    """Goblins in hand after adding card ``index`` (``now``: goblins in hand before), without building the turn."""
    added = hand[index]
    wanted, goblin, symbol = table.symbol[added], table.goblin, table.symbol
    return now - goblin[added] + sum(goblin[f] for f in _flip(table, circle, added) if symbol[f] == wanted)


def _greedy(table: Table, hand: list[int], circle: list[int], rng: random.Random) -> int:
    now = goblins(table, hand)
    return _best([goblins_after(table, hand, circle, i, now) for i in range(len(hand))], rng)


def _lookahead(table: Table, hand: list[int], circle: list[int], rng: random.Random) -> int:
    scores = []
    for i in range(len(hand)):
        next_hand, next_circle = take_turn(table, hand, circle, i)
        now = goblins(table, next_hand)
        if now == 0:  # a win now beats any promise of one later
            scores.append((0, 0))
            continue
        later = min(goblins_after(table, next_hand, next_circle, j, now) for j in range(len(next_hand)))
        scores.append((later, now))
    return _best(scores, rng)


def _random(table: Table, hand: list[int], circle: list[int], rng: random.Random) -> int:
    return rng.randrange(len(hand))


def _best(scores: list, rng: random.Random) -> int:
    """The index of the lowest score; a tie is broken at random so play does not loop."""
    lowest = min(scores)
    return rng.choice([i for i, score in enumerate(scores) if score == lowest])


_POLICIES = {"greedy": _greedy, "lookahead": _lookahead, "random": _random}
