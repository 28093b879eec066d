"""Dice: the exact chance of each roll, and whether card rewards follow those chances.

Some games print a dice roll on a card (Cereal Killer's monsters each carry a
2d6 total to hit) and pay a reward for hitting it. A hard roll should pay
more than an easy one. This module works out the exact probability of every
total, then lines each card's reward up against its odds:

* ``chance``: the probability that one roll shows this total;
* ``payout per roll``: reward x chance, what aiming at this total earns per roll;
* ``even reward``: the reward that would make every total earn the same per
  roll (the average payout divided by the chance), a yardstick for balancing.

Rewards "track difficulty" when no total pays less than an easier one.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generator.deck.model import Card
from generator.deck.selectors import field_value
from generator.errors import InputError

MAX_DICE = 20
"""Dice in one roll. Exact odds convolve every die, so their work grows with the count;
twenty is more than any table game rolls at once."""
MAX_SIDES = 100
"""Sides of one die: a d100 is the largest die sold."""
MAX_REWARD = 10**15
"""The largest reward, either way, a roll may pay. The report draws rewards as bars whose
axis PDF must hold, and near the float maximum (``1.7e+308``) its steps overflow; a float
holds every whole number only to about 9 x 10^15, and no game pays a quadrillion."""

_TERM = re.compile(r"\s*([+-])?\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))\s*")
_WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]{1,18}\s*")
_DECIMAL = re.compile(r"\s*[+-]?(?:[0-9]{1,18}(?:\.[0-9]{0,18})?|\.[0-9]{1,18})\s*")
"""A whole number or a decimal written as text: ASCII digits, few enough that reading them
is quick and the number finite."""


@dataclass(repr=False, eq=False)
class DiceFormula:
    """A sum of dice and a constant, like ``2d6`` or ``1d6+1d4+2``."""

    text: str
    dice: tuple[tuple[int, int], ...]  # (how many, sides); a negative count subtracts
    constant: int = 0

    def ways(self) -> dict[int, int]:
        """How many of the equally likely outcomes give each total."""
        ways = {self.constant: 1}
        for count, sides in self.dice:
            face = -1 if count < 0 else 1
            for _ in range(abs(count)):
                ways = _add_die(ways, sides, face)
        return dict(sorted(ways.items()))

    @property
    def outcomes(self) -> int:
        """How many equally likely outcomes a roll has (6 x 6 = 36 for 2d6)."""
        return math.prod(sides ** abs(count) for count, sides in self.dice)

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of each total."""
        outcomes = self.outcomes
        return {total: Fraction(n, outcomes) for total, n in self.ways().items()}


def _add_die(ways: dict[int, int], sides: int, face: int) -> dict[int, int]:
    combined: dict[int, int] = defaultdict(int)
    for total, n in ways.items():
        for pips in range(1, sides + 1):
            combined[total + face * pips] += n
    return combined


def parse_dice(text: Any) -> DiceFormula:
    """Read dice notation; raises ``ValueError`` with a readable reason."""
    if isinstance(text, bool) or not isinstance(text, str) or not text.strip():
        raise ValueError("dice are written like 2d6, d20 or 1d6+2")
    dice: list[tuple[int, int]] = []
    constant = 0
    position = 0
    source = text.strip()
    while position < len(source):
        match = _TERM.match(source, position)
        if not match or match.end() == position or (position and not match.group(1)):
            raise ValueError(f"cannot read dice '{text}'; write them like 2d6, d20 or 1d6+2")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(3) is not None:
            count = int(match.group(2) or 1)
            sides = int(match.group(3))
            if not 1 <= count <= MAX_DICE:
                raise ValueError(f"'{text}': between 1 and {MAX_DICE} dice at a time")
            if not 2 <= sides <= MAX_SIDES:
                raise ValueError(f"'{text}': a die has 2 to {MAX_SIDES} sides")
            dice.append((sign * count, sides))
        else:
            constant += sign * int(match.group(4))
        position = match.end()
    if not dice:
        raise ValueError(f"'{text}' rolls no dice; write them like 2d6")
    if sum(abs(count) for count, _ in dice) > MAX_DICE:
        raise ValueError(f"'{text}': at most {MAX_DICE} dice in all")
    return DiceFormula(text=source, dice=tuple(dice), constant=constant)


@dataclass(repr=False, eq=False)
class DiceRow:
    """One roll total printed on cards, with its odds and (optionally) its reward."""

    roll: int
    chance: Fraction
    cards: int  # copies in the deck carrying this roll (and this reward)
    card_ids: tuple[str, ...]
    reward: float | int | None = None
    even_reward: float | None = None

    @property
    def payout(self) -> float | None:
        """Reward x chance: what aiming at this total earns per roll, on average."""
        return None if self.reward is None else float(self.reward * self.chance)


@dataclass(repr=False, eq=False)
class Mismatch:
    """A roll that pays less than an easier one, or differently from an equally hard one."""

    harder: DiceRow
    easier: DiceRow

    @property
    def same_odds(self) -> bool:
        return self.harder.chance == self.easier.chance

    def describe(self, denominator: int) -> str:
        hard, easy = self.harder, self.easier
        if self.same_odds:
            return (f"{hard.roll} and {easy.roll} are equally likely ({_odds(hard.chance, denominator)}) "
                    f"but pay {number_text(hard.reward)} and {number_text(easy.reward)}")
        return (f"{hard.roll} ({_odds(hard.chance, denominator)}) pays {number_text(hard.reward)}, "
                f"less than the easier {easy.roll} ({_odds(easy.chance, denominator)}) at {number_text(easy.reward)}")


@dataclass(repr=False, eq=False)
class DiceReport:
    """Every total of a dice formula against the cards that print it."""

    formula: DiceFormula
    field: str
    value_field: str | None
    rows: tuple[DiceRow, ...]
    unreachable: tuple[tuple[Any, tuple[str, ...]], ...]  # card values no roll can show
    mismatches: tuple[Mismatch, ...]
    rank_correlation: float | None  # Spearman's rho between reward and difficulty (1/chance)

    @property
    def tracks_difficulty(self) -> bool | None:
        if self.value_field is None:
            return None
        return all(m.same_odds for m in self.mismatches)


def dice_report(formula: DiceFormula, field: str, value_field: str | None,
                cards: Iterable[tuple[Card, int]]) -> DiceReport:
    """Line up the cards' ``field`` rolls (and ``value_field`` rewards) with the odds."""
    cards = list(cards)
    if value_field:
        refuse_huge_rewards(value_field, cards)
    distribution = formula.distribution()
    grouped: dict[tuple, list[tuple[Card, int]]] = defaultdict(list)
    unreachable: dict[Any, list[str]] = defaultdict(list)
    for card, copies in cards:
        roll = roll_number(field_value(card, field))
        if roll is None or copies == 0:
            continue
        if roll not in distribution:
            unreachable[roll].append(card.id)
            continue
        reward = reward_number(field_value(card, value_field)) if value_field else None
        grouped[(roll, reward)].append((card, copies))
    payouts = [float(reward * distribution[roll]) for roll, reward in grouped if reward is not None]
    average = sum(payouts) / len(payouts) if payouts else None
    rows = []
    for (roll, reward), members in sorted(grouped.items(), key=lambda item: _sort_key(item[0])):
        chance = distribution[roll]
        rows.append(DiceRow(
            roll=roll, chance=chance, cards=sum(n for _, n in members),
            card_ids=tuple(card.id for card, _ in members), reward=reward,
            even_reward=None if reward is None or average is None else average / float(chance)))
    rewarded = [(row, row.reward) for row in rows if row.reward is not None]
    return DiceReport(
        formula=formula, field=field, value_field=value_field, rows=tuple(rows),
        unreachable=tuple((value, tuple(ids)) for value, ids in sorted(unreachable.items(), key=lambda i: str(i[0]))),
        mismatches=tuple(_mismatches(rewarded)),
        rank_correlation=_spearman([float(1 / row.chance) for row, _ in rewarded],
                                   [float(reward) for _, reward in rewarded]) if len(rewarded) > 2 else None,
    )


def roll_number(value: Any) -> Any:
    """A card's roll as the dice total it names: a whole number written as text (a spreadsheet
    cell of a deck without ``fields:``, a text field) reads as that number, since the deck
    asks for it as a roll; anything else is kept as it is, and no roll shows it."""
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        return int(value)
    return value


def reward_number(value: Any) -> int | float | None:
    """A card's reward as a number, written as one or as text (as for :func:`roll_number`);
    None for anything else (no reward to weigh)."""
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        return int(value)
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def refuse_huge_rewards(value_field: str, cards: Iterable[tuple[Card, int]]) -> None:
    """Raise an :class:`InputError` at the first card whose reward is beyond
    :data:`MAX_REWARD` either way (``check`` calls it too, so ``stats`` never meets one)."""
    for card, _ in cards:
        reward = reward_number(field_value(card, value_field))
        if reward is not None and not abs(reward) <= MAX_REWARD:  # not <=: NaN too
            raise InputError(f"card '{card.id}': a dice reward is at most {MAX_REWARD:,} either way, "
                             f"found {reward:g}", card.position, field=value_field)


def _sort_key(key: tuple) -> tuple:
    roll, reward = key
    return (roll, reward if reward is not None else float("-inf"))


def _mismatches(rewarded: list[tuple[DiceRow, float]]) -> list[Mismatch]:
    """Pairs of (row, its reward) where the harder (or equally hard) roll pays less: each pair
    once, hardest first."""
    found = []
    hardest_first = sorted(rewarded, key=lambda pair: (pair[0].chance, pair[0].roll))
    for harder, harder_reward in hardest_first:
        for easier, easier_reward in hardest_first:
            if easier is harder or easier_reward <= harder_reward:
                continue
            if harder.chance < easier.chance or (harder.chance == easier.chance and harder.roll != easier.roll):
                found.append(Mismatch(harder=harder, easier=easier))
    return found


def _ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    ranks = [0.0] * len(values)
    start = 0  # how many values rank below the tie at hand
    for _, tie in itertools.groupby(sorted(range(len(values)), key=lambda i: values[i]), key=lambda i: values[i]):
        tied = list(tie)
        for index in tied:
            ranks[index] = start + (len(tied) + 1) / 2
        start += len(tied)
    return ranks


def _spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation: 1 when rewards rise exactly as rolls get harder."""
    rx, ry = _ranks(xs), _ranks(ys)
    n = len(rx)
    mean = (n + 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry, strict=True))
    var_x = sum((a - mean) ** 2 for a in rx)
    var_y = sum((b - mean) ** 2 for b in ry)
    if not var_x or not var_y:
        return None
    return cov / (var_x * var_y) ** 0.5


def _odds(chance: Fraction, denominator: int) -> str:
    """A chance over the roll's outcome count: 4/36 reads better than 1/9 beside 5/36."""
    scaled = chance * denominator
    if scaled.denominator == 1:
        return f"{scaled.numerator}/{denominator}"
    return f"{chance.numerator}/{chance.denominator}"


def number_text(value: Any) -> str:
    """A reward or turn count as printed: ``1,250``, or ``12.50`` for a fraction."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"


def odds_text(chance: Fraction, formula: DiceFormula) -> str:
    """``4/36`` for 2d6 (over the number of outcomes), or the reduced fraction if that is long."""
    return _odds(chance, formula.outcomes) if formula.outcomes <= 10_000 else f"{chance}"
