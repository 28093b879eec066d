"""Draw odds: the exact chance that a random draw satisfies a question.

Drawing ``n`` cards from a shuffled deck without putting any back follows
the (multivariate) hypergeometric distribution: every set of ``n`` cards is
equally likely, so a chance is a count of favourable hands over
``comb(N, n)``. We count those hands exactly, with whole numbers, and return
a :class:`~fractions.Fraction`.

How the count is done
---------------------
A question becomes *requirements*: "between ``low`` and ``high`` of the drawn
cards are among these card ids", joined into an OR of ANDs. Cards that feed
the same requirements are interchangeable, so they form one *category*. We
walk the categories one at a time, keeping a table from "cards drawn so far,
how many each requirement has seen, and which ANDs are still open" to "number
of ways to get here"; taking ``j`` of a category's ``K`` copies multiplies the
ways by ``comb(K, j)``.

Four things keep that table small:

* the categories are taken in whichever of two orders costs less: by card id, or
  conjunction by conjunction, so that each ANDed part is settled before the next begins;
* a tally is capped just above the largest number any requirement looks at;
* a partial hand that already answers yes is counted at once (times the ways
  to fill the rest of the hand) and one that can no longer answer yes is
  dropped;
* requirements that are settled are forgotten, and so are the tallies nobody
  reads any more, so partial hands that can only end the same way merge.

That is what makes the Gold Rush question cheap: an OR over every monster of
"this monster AND ``cost`` treasures of its type". Once a monster's category
is done, its part shrinks to "``cost`` treasures of its type", and of those
only the cheapest per type is kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lgamma, log

from generator.deck.model import Card
from generator.deck.selectors import field_value
from generator.errors import InputError, plural
from generator.stats.pools import Pool
from generator.stats.spec import Condition, Question

MAX_COUNTING_WORK = 2_000_000
"""Steps (see :func:`counting_work`) the exact count of one question may take: a few
seconds. The count grows with the cards drawn times the counts each group of cards can
give, times the values of the tallies kept open, times the numbers' size; a question
drawing 1,000 of 960,000 cards under 12 conditions would run for hours, so ``check``
refuses it before ``stats`` or ``serve`` start counting. The partial hands an OR over many
cards keeps apart count too: each drawn set of them can be one. Every bundled question takes
under 15,000 steps."""


@dataclass(frozen=True)
class Requirement:
    """Between ``low`` and ``high`` (None: no limit) drawn cards are among ``card_ids``."""

    card_ids: frozenset[str]
    low: int
    high: int | None = None


Conjunction = tuple[Requirement, ...]  # every requirement must hold


@dataclass(repr=False, eq=False)
class Plan:
    """How the count walks the deck: the tallies requirements read (and the index of each),
    the cap of each tally, the categories in the order they are taken (each a signature of
    the tallies it feeds, and its copies) and the last category feeding each tally."""

    tallies: list[frozenset[str]]
    index: dict[frozenset[str], int]
    caps: list[int]
    ordered: list[tuple[tuple[int, ...], int]]
    last_feed: dict[int, int]


@dataclass(repr=False, eq=False)
class PreparedQuestion:
    """A question ready to count: the cards it draws from (with their copies), what it asks
    of them, and the plan the count follows (made once: bounding the work reads it too)."""

    entries: list[tuple[Card, int]]
    conjunctions: list[Conjunction]
    plan: Plan


def probability(question: Question, pool: Pool) -> Fraction:
    """The exact chance that ``question.draw`` random cards from ``pool`` answer yes."""
    prepared = prepare(question, pool)
    favourable = count_hands(prepared.plan, question.draw, prepared.conjunctions)
    return Fraction(favourable, comb(sum(copies for _, copies in prepared.entries), question.draw))


def prepare(question: Question, pool: Pool) -> PreparedQuestion:
    """The cards ``question`` draws from in ``pool``, what it asks of them and how to count
    it: everything that can refuse the question, without the counting (``check`` stops here)."""
    entries = [(card, copies) for card, copies in pool.entries
               if copies and question.source.matches(card)]
    available = sum(copies for _, copies in entries)
    if question.draw > available:
        source = "" if not question.source.wanted else f" matching {question.source.describe()}"
        raise InputError(f"question '{question.name}' draws {question.draw} cards, but "
                         f"{pool.label} has only {available}{source}", question.position, field="draw")
    conjunctions = requirements(question, entries)
    plan, work = min(((plan, counting_work(plan, question.draw, conjunctions))
                      for plan in _plans(entries, conjunctions)), key=lambda planned: planned[1])
    if work > MAX_COUNTING_WORK:
        parts = sum(len(conjunction) for conjunction in conjunctions)
        raise InputError(f"question '{question.name}' would take {work:,} steps to count exactly (a draw of "
                         f"{question.draw} from {available:,} cards, {plural(parts, 'condition')}); "
                         f"at most {MAX_COUNTING_WORK:,}: draw fewer cards or ask fewer conditions at once",
                         question.position, field="draw")
    return PreparedQuestion(entries, conjunctions, plan)


def requirements(question: Question, entries: list[tuple[Card, int]]) -> list[Conjunction]:
    """The question as an OR of ANDs of requirements on card ids.

    Without ``for_some``/``for_every`` that is a single AND. With them, one
    AND per distinct chosen card, its ``match`` fields and amounts filled in
    from that card; ``for_every`` then joins those into one big AND.
    """
    if question.chosen is None:
        chosen: list[Card | None] = [None]
    else:
        chosen = [card for card, _ in entries if question.chosen.matches(card)]
    conjunctions: dict[frozenset, Conjunction] = {}
    for card in chosen:
        conjunction = _conjunction(question, entries, card)
        if conjunction is not None:
            conjunctions.setdefault(frozenset(conjunction), conjunction)
        elif question.every:
            return []  # one impossible part makes the whole AND impossible
    if question.every:  # one AND of every requirement, each once, in order
        return [tuple(dict.fromkeys(requirement for conj in conjunctions.values() for requirement in conj))]
    return list(conjunctions.values())


def _conjunction(question: Question, entries: list[tuple[Card, int]],
                 chosen: Card | None) -> Conjunction | None:
    """One AND of requirements; None if it can never hold (it asks for more than is drawn)."""
    result = []
    for need in question.needs:
        low = _amount(question, need, need.at_least, chosen) or 0
        high = _amount(question, need, need.at_most, chosen)
        if low > question.draw or (high is not None and high < low):
            return None
        ids = frozenset(card.id for card, _ in entries if _counts_for(need, card, chosen))
        if low == 0 and (high is None or high >= question.draw):
            continue  # always holds
        result.append(Requirement(card_ids=ids, low=low, high=high))
    return tuple(result)


def _counts_for(need: Condition, card: Card, chosen: Card | None) -> bool:
    if not need.where.matches(card):
        return False
    if chosen is None:  # 'match' compares with a chosen card; the spec refuses it without one
        return not need.match
    return all(field_value(card, mine) == field_value(chosen, theirs) for mine, theirs in need.match)


def _amount(question: Question, need: Condition, amount: int | str | None, chosen: Card | None) -> int | None:
    """A number as written, or the number the chosen card holds in the named field."""
    if amount is None or isinstance(amount, int):
        return amount
    if chosen is None:
        raise InputError(f"question '{question.name}': '{amount}' names a field of the chosen card, but the "
                         "question chooses none (add 'for_some' or 'for_every')", question.position, field=amount)
    value = field_value(chosen, amount)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"question '{question.name}': card '{chosen.id}' has no whole number "
                         f"in '{amount}' (found {value!r})", question.position, field=amount)
    return value


Check = tuple[int, int, "int | None"]  # (tally index, low, high): one requirement on a tally
Residual = frozenset[Check]  # the requirements of one conjunction that are not yet settled


def count_hands(plan: Plan, draw: int, conjunctions: list[Conjunction]) -> int:
    """How many ``draw``-card hands from the cards ``plan`` walks satisfy at least one conjunction."""
    if not conjunctions:
        return 0
    tallies, index, caps, ordered, last_feed = plan.tallies, plan.index, plan.caps, plan.ordered, plan.last_feed
    alive = frozenset(frozenset((index[req.card_ids], req.low, req.high) for req in conj)
                      for conj in conjunctions)
    states: dict[tuple, int] = {(0, (0,) * len(tallies), alive): 1}
    remaining = sum(size for _, size in ordered)
    favourable = 0
    for k, (signature, size) in enumerate(ordered):
        remaining -= size
        final = tuple(last_feed.get(i, -1) <= k for i in range(len(tallies)))
        settled: dict[tuple, tuple] = {}
        next_states: dict[tuple, int] = defaultdict(int)
        for (drawn, tally, alive), ways in _take_from(states, signature, size, draw, remaining, caps).items():
            key = (tally, alive)
            if key not in settled:
                settled[key] = _settle(tally, alive, final)
            verdict, new_tally, new_alive = settled[key]
            if verdict is True:  # every way to fill the rest of the hand answers yes
                favourable += ways * comb(remaining, draw - drawn)
            elif verdict is None:
                next_states[(drawn, new_tally, new_alive)] += ways
        states = next_states
    return favourable


def _plans(entries: Iterable[tuple[Card, int]], conjunctions: list[Conjunction]) -> list[Plan]:
    """The :class:`Plan` for counting hands from ``entries`` against ``conjunctions``, in
    each of two orders of the categories; the count is the same in both, its work is not.

    In the first, categories follow their tallies' card ids. In the second, they come
    conjunction by conjunction: the cards each ANDed part reads are taken together, so a
    part is settled before the next begins. That keeps an OR over many cards that share
    nothing ("this monster and 2 of its own treasures", for each monster) to a handful of
    partial hands at a time, where the first order would keep one for each set of monsters
    drawn: 2 to the number of monsters.
    """
    tallies = sorted({req.card_ids for conj in conjunctions for req in conj}, key=sorted)
    index = {ids: i for i, ids in enumerate(tallies)}
    caps = [0] * len(tallies)
    for conj in conjunctions:
        for req in conj:
            i = index[req.card_ids]
            caps[i] = max(caps[i], req.low if req.high is None else req.high + 1)

    categories: dict[tuple[int, ...], int] = defaultdict(int)
    for card, copies in entries:
        signature = tuple(i for i, ids in enumerate(tallies) if card.id in ids)
        categories[signature] += copies
    # Cards no requirement looks at go last: by then they only fill the hand up.
    by_ids = sorted(categories, key=lambda signature: (not signature, signature))
    feeding: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for signature in by_ids:
        for i in signature:
            feeding[i].append(signature)
    read_in_turn = (signature for conj in conjunctions for req in conj for signature in feeding[index[req.card_ids]])
    by_conjunction = list(dict.fromkeys([*read_in_turn, *by_ids]))
    return [_plan(tallies, index, caps, [(signature, categories[signature]) for signature in order])
            for order in (by_ids, by_conjunction)]


def _plan(tallies: list[frozenset[str]], index: dict[frozenset[str], int], caps: list[int],
          ordered: list[tuple[tuple[int, ...], int]]) -> Plan:
    """The plan taking the categories in the order of ``ordered``."""
    last_feed = {i: k for k, (signature, _) in enumerate(ordered) for i in signature}
    return Plan(tallies, index, caps, ordered, last_feed)


def counting_work(plan: Plan, draw: int, conjunctions: list[Conjunction]) -> int:
    """What :func:`count_hands` would cost, worked out without counting, in steps: partial
    hands extended by one count of one category's cards.

    For each category: the hand sizes reachable so far, times the partial hands each can
    be (see :func:`_partial_hands`), times the counts it can give (no more than the
    categories after it can make up for); all that times the ORed conjunctions (each is
    looked at for every partial hand), and times the size of the numbers multiplied (a
    step on numbers of ``comb(deck, draw)``'s size costs one more step per kilobit).
    """
    if not conjunctions:
        return 0
    ordered = plan.ordered
    partial_hands = _partial_hands(plan, conjunctions)
    steps, drawn_before, remaining = 0, 0, sum(size for _, size in ordered)
    for k, (_, size) in enumerate(ordered):
        remaining -= size
        hands = (min(draw, drawn_before) + 1) * partial_hands[k]
        # A hand takes what the categories after this one cannot fill: the last has one choice.
        steps += hands * (min(size, draw, remaining) + 1) + min(size, draw) + 1  # and its comb() table
        drawn_before += size
    return steps * len(conjunctions) * (1 + _hand_count_bits(drawn_before, draw) // 1024)


def _partial_hands(plan: Plan, conjunctions: list[Conjunction]) -> list[int]:
    """For each category, how many partial hands of one size can come to it, at most.

    A partial hand holds the values of the open tallies (fed before the category and at it
    or after) and the ORed conjunctions still alive. Which are alive tells what the closed
    tallies held: a closed tally tells one of its checks' thresholds plus one things, for
    as long as a conjunction reading it is undecided. So there are the open tallies' values
    times the fewer of: what the closed tallies tell, and the sets of undecided conjunctions
    reading a closed tally (less the empty set when every undecided conjunction reads one:
    a hand with none alive is dropped). Without that second factor an OR over many cards
    would look cheap while it kept a partial hand for each set of cards drawn.
    """
    index, caps, last_feed, count = plan.index, plan.caps, plan.last_feed, len(plan.ordered)
    first_feed: dict[int, int] = {}
    for k, (signature, _) in enumerate(plan.ordered):
        for i in signature:
            first_feed.setdefault(i, k)
    thresholds: dict[int, set[int]] = defaultdict(set)
    decided_at = [-1] * len(plan.tallies)  # the last category deciding a conjunction that reads the tally
    undecided, reading_closed = [0] * (count + 1), [0] * (count + 1)  # changes at each category
    for conj in conjunctions:
        fed = [last_feed[index[req.card_ids]] for req in conj if index[req.card_ids] in last_feed]
        closes, decided = min(fed, default=-1), max(fed, default=-1)
        undecided[0] += 1
        undecided[decided + 1] -= 1
        if closes < decided:
            reading_closed[closes + 1] += 1
            reading_closed[decided + 1] -= 1
        for req in conj:
            i = index[req.card_ids]
            decided_at[i] = max(decided_at[i], decided)
            ends = (req.low, None if req.high is None else req.high + 1)
            thresholds[i].update(t for t in ends if t is not None and 0 < t <= caps[i])
    # (open values, closed news) factors each tally brings in at a category and takes out at a later one
    brings: list[list[tuple[int, int]]] = [[] for _ in range(count + 1)]
    takes: list[list[tuple[int, int]]] = [[] for _ in range(count + 1)]
    for i, first in first_feed.items():
        values, told = caps[i] + 1, len(thresholds[i]) + 1
        if first < last_feed[i]:
            brings[first + 1].append((values, 1))
            takes[last_feed[i] + 1].append((values, 1))
        if last_feed[i] < decided_at[i]:
            brings[last_feed[i] + 1].append((1, told))
            takes[decided_at[i] + 1].append((1, told))
    result, open_values, closed_told, still_undecided, still_reading = [], 1, 1, 0, 0
    for k in range(count):
        still_undecided += undecided[k]
        still_reading += reading_closed[k]
        for values, told in brings[k]:
            open_values, closed_told = open_values * values, closed_told * told
        for values, told in takes[k]:
            open_values, closed_told = open_values // values, closed_told // told
        alive_sets = 2 ** still_reading - (still_reading == still_undecided > 0)
        result.append(open_values * min(closed_told, max(1, alive_sets)))
    return result


def _hand_count_bits(total: int, draw: int) -> int:
    """About how many bits ``comb(total, draw)`` has, from log-gamma (no big number made)."""
    if draw <= 0 or draw >= total:
        return 1
    return int((lgamma(total + 1) - lgamma(draw + 1) - lgamma(total - draw + 1)) / log(2)) + 1


def _settle(tally: tuple[int, ...], alive: frozenset, final: tuple[bool, ...]):
    """Decide what can be decided about a partial hand.

    Returns (True, ...) if some conjunction already holds whatever comes next,
    (False, ...) if none can hold any more, else (None, tally, residuals): the
    requirements still open, with every tally no open requirement reads reset
    to 0 so that partial hands which can only end the same way merge.
    """
    residuals = []
    for conjunction in alive:
        open_checks = []
        for check in conjunction:
            i, low, high = check
            value = tally[i]
            if high is not None and value > high:
                break  # too many already; tallies never shrink
            if value >= low and (high is None or final[i]):
                continue  # holds for good
            if final[i]:
                break  # too few, and no more cards can feed this tally
            open_checks.append(check)
        else:
            if not open_checks:
                return True, None, None
            residuals.append(frozenset(open_checks))
    if not residuals:
        return False, None, None
    residuals = _drop_stricter(residuals)
    needed = {i for residual in residuals for i, _, _ in residual}
    return None, tuple(v if i in needed else 0 for i, v in enumerate(tally)), frozenset(residuals)


def _drop_stricter(residuals: list[Residual]) -> list[Residual]:
    """In an OR, a conjunction implied by another one adds nothing: keep only the weaker ones.

    A weaker conjunction checks only tallies the stricter one checks, so each candidate is
    compared with the kept ones sharing a tally with it: an OR over many cards that share
    nothing is not compared pair by pair."""
    unique = sorted(set(residuals), key=len)
    kept: list[Residual] = []
    kept_reading: dict[int, list[Residual]] = defaultdict(list)  # tally: the kept conjunctions checking it
    for candidate in unique:
        read = {i for i, _, _ in candidate}
        if not any(_implies(candidate, weaker) for i in read for weaker in kept_reading[i]):
            kept.append(candidate)
            for i in read:
                kept_reading[i].append(candidate)
    return kept


def _implies(strict: Residual, weak: Residual) -> bool:
    """Whether meeting every check of ``strict`` also meets every check of ``weak``."""
    for i, low, high in weak:
        if not any(j == i and l2 >= low and (high is None or (h2 is not None and h2 <= high))
                   for j, l2, h2 in strict):
            return False
    return True


def _take_from(states: dict, signature: tuple[int, ...], size: int, draw: int, remaining: int,
               caps: list[int]) -> dict:
    """Extend every partial hand by 0..size cards of one category."""
    grown: dict[tuple, int] = defaultdict(int)
    choose = [comb(size, j) for j in range(min(size, draw) + 1)]
    for (drawn, tally, alive), ways in states.items():
        # Take at least enough that the categories still to come can fill the hand.
        for j in range(max(0, draw - drawn - remaining), min(size, draw - drawn) + 1):
            if signature and j:
                counts = list(tally)
                for i in signature:
                    counts[i] = min(caps[i], counts[i] + j)
                new_tally = tuple(counts)
            else:
                new_tally = tally
            grown[(drawn + j, new_tally, alive)] += ways * choose[j]
    return grown
