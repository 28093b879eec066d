"""The ``stats:`` section of a deck file, checked and turned into dataclasses.

A deck says what a designer wants to know about it::

    stats:
      composition:                        # fields to count cards by
        - type
        - {field: roll, where: {type: monster}}   # counting only some cards
      draw: 6                             # the opening hand: default size of a draw
      questions:                          # named draw-odds questions
        - name: Shelf Repair in the opening hand
          need: {where: {type: shelf-repair}, at_least: 1}
        - name: a monster and the treasure to summon it
          draw: 6
          for_some: {type: monster}       # holds if it holds for any one of these cards
          need:                           # every condition must hold
            - match: {id: id}             # the card itself
            - {where: {type: treasure}, match: {summons: monster_type}, at_least: cost}
      dice: {field: roll, dice: 2d6, value: reward}
      simulate: {plugin: simulate.py, games: 2000, seed: 1, policy: greedy}

A question draws ``draw`` cards at random (from the whole deck, or from a
decklist, or only from the cards ``from`` selects) and asks for the chance
that every condition in ``need`` holds. A condition counts drawn cards that
match ``where`` and wants ``at_least``, ``at_most`` or ``exactly`` so many.

With ``for_some``, the question is asked once for each card C it selects and
succeeds if any of them succeeds (``for_every``: if all of them succeed);
``match: {field: C_field}`` narrows a condition to cards whose ``field``
equals C's ``C_field``, and an amount may name one of C's fields
(``at_least: cost``). "No two drawn goblins rhyme" reads::

    for_every: {side: goblin}
    need: {match: {group: group}, at_most: 1}

Every mistake is reported with the file, line, column and key.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from generator.deck.model import Card, Deck
from generator.deck.selectors import Selector, known_fields, parse_selector
from generator.errors import Position, describe_value, did_you_mean
from generator.paths import resolve_inside
from generator.reading import Problems, Reader
from generator.stats.dice import DiceFormula, parse_dice
from generator.stats.pools import Pool, deck_pool, pools_for, unknown_decklist

SECTION_KEYS = {"composition", "draw", "questions", "dice", "simulate"}
QUESTION_KEYS = {"name", "draw", "need", "from", "for_some", "for_every", "decklist", "description"}
QUANTIFIERS = ("for_some", "for_every")
CONDITION_KEYS = {"where", "match", "at_least", "at_most", "exactly"}
DICE_KEYS = {"field", "dice", "value", "where"}
SIMULATE_KEYS = {"plugin", "games", "seed", "policy", "options", "max_turns"}

DEFAULT_GAMES = 2000
DEFAULT_SEED = 1
MAX_GAMES = 1_000_000
"""Games one simulation plays: a million narrows the winning rate to a tenth of a percent;
more only makes the run longer."""
MAX_DRAW = 1000
"""Cards drawn in one question of the exact odds, whose work grows with the draw; no deck
deals a thousand cards at once."""


@dataclass(repr=False, eq=False)
class CountBy:
    """A composition table: count cards by ``field``, among the cards ``where`` selects."""

    field: str
    where: Selector = Selector(())


@dataclass(repr=False, eq=False)
class Condition:
    """'At least 2 of the drawn cards are treasures of the monster's type.'

    ``at_least``/``at_most`` are numbers, or (with ``for_some``/``for_every``)
    the name of a field of the chosen card that holds the number.
    """

    where: Selector
    match: tuple[tuple[str, str], ...] = ()  # (drawn card's field, chosen card's field)
    at_least: int | str | None = 1
    at_most: int | str | None = None

    def describe(self) -> str:
        what = self.where.describe()
        for mine, theirs in self.match:
            what = (what + ", " if self.where.wanted else "") + f"{mine}=<its {theirs}>"
        low, high = (f"<its {v}>" if isinstance(v, str) else v for v in (self.at_least, self.at_most))
        if low is not None and low == high:
            amount = f"exactly {low}"
        elif high is not None and low not in (None, 0):
            amount = f"{low} to {high}"
        elif high is not None:
            amount = f"at most {high}"
        else:
            amount = f"at least {low}"
        return f"{amount} {what}"


@dataclass(repr=False, eq=False)
class Question:
    """A named draw-odds question: draw ``draw`` cards; do all ``needs`` hold?"""

    name: str
    draw: int
    needs: tuple[Condition, ...]
    source: Selector = Selector(())  # the cards the draw comes from
    chosen: Selector | None = None  # the cards C that 'match' and named amounts refer to
    every: bool = False  # True: the needs must hold for every chosen card, not just one
    decklist: str | None = None
    position: Position | None = None

    def describe(self) -> str:
        parts = [need.describe() for need in self.needs]
        text = " and ".join(parts)
        if self.chosen is not None:
            quantifier = "every" if self.every else "some"
            text = f"for {quantifier} card with {self.chosen.describe()}: {text}"
        return text

    def asks(self, pool: Pool) -> bool:
        """Whether the question is asked of ``pool``: it names that pool's decklist, or none."""
        return self.decklist in (None, pool.decklist)


@dataclass(repr=False, eq=False)
class DiceSpec:
    """Which card field is a dice roll, on which dice, and which field is its reward."""

    field: str
    formula: DiceFormula
    value: str | None = None
    where: Selector = Selector(())

    def cards(self, deck: Deck) -> list[tuple[Card, int]]:
        """The deck's cards the dice table reads, with their copies."""
        return [(card, copies) for card, copies in deck_pool(deck).entries if self.where.matches(card)]


@dataclass(repr=False, eq=False)
class SimulationSpec:
    """The deck's game plugin and how to run it."""

    plugin: str  # a path relative to the deck folder
    position: Position  # where the deck names the plugin
    games: int = DEFAULT_GAMES
    seed: int = DEFAULT_SEED
    policy: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(repr=False, eq=False)
class StatsSpec:
    """Everything the ``stats:`` section asks for; empty when the deck has none."""

    composition: tuple[CountBy, ...] = ()
    questions: tuple[Question, ...] = ()
    dice: DiceSpec | None = None
    simulation: SimulationSpec | None = None


def asked(deck: Deck, spec: StatsSpec) -> Iterator[tuple[Pool, Question]]:
    """Every question of ``spec`` with each pool of ``deck`` it is asked of (each decklist,
    or the deck itself), pool by pool in the deck's order."""
    for pool in pools_for(deck):
        for question in spec.questions:
            if question.asks(pool):
                yield pool, question


def read_stats_spec(deck: Deck) -> StatsSpec:
    """Check ``deck.stats`` and build its :class:`StatsSpec`; raises :class:`InputError`."""
    reader = _Reader(deck)
    data = deck.stats
    if not data:
        return StatsSpec()
    problems = Problems()  # every mistake of the section at once, each question on its own
    problems.attempt(lambda: reader.known_keys((), SECTION_KEYS, "stats setting"), None)
    draw = problems.attempt(lambda: reader.integer(("draw",), minimum=1, maximum=MAX_DRAW), None)
    spec = StatsSpec(
        composition=problems.attempt(lambda: _read_composition(reader), ()),
        questions=_read_questions(reader, draw, problems),
        dice=problems.attempt(lambda: _read_dice(reader), None) if "dice" in data else None,
        simulation=problems.attempt(lambda: _read_simulation(reader), None) if "simulate" in data else None,
    )
    problems.raise_any()
    return spec


class _Reader(Reader):
    """Reads the ``stats:`` section; knows the deck's fields to check the names it uses."""

    def __init__(self, deck: Deck):
        super().__init__(deck.source, root=("stats",))
        self.deck = deck
        self.fields = known_fields(deck)

    def field_name(self, keys: tuple, value: Any = None) -> str:
        """A card field named in the stats section; unknown names are refused with a hint."""
        name = self.get(keys) if value is None else value
        if not isinstance(name, str) or not name:
            raise self.fail(keys, f"expected a field name, found {describe_value(name)}")
        if name not in self.fields:
            raise self.fail(keys, f"unknown field '{name}'{did_you_mean(name, self.fields)}")
        return name

    def selector(self, keys: tuple) -> Selector:
        """A ``where``-style selector; its errors point at the entry that is wrong."""
        raw = self.get(keys)
        if raw is not None and not isinstance(raw, dict):
            raise self.fail(keys, f"a selector is a mapping of field: value, found {describe_value(raw)}")
        return parse_selector(raw, self.deck, self.position(keys),
                              key_position=lambda key: self.position(keys + (key,)))



def _read_composition(reader: _Reader) -> tuple[CountBy, ...]:
    raw = reader.get(("composition",))
    if raw is None:
        return ()
    if isinstance(raw, str):
        return (CountBy(reader.field_name(("composition",))),)
    if not isinstance(raw, list) or not raw:
        raise reader.fail(("composition",), f"expected a list of field names, found {describe_value(raw)}")
    return tuple(_read_count_by(reader, ("composition", index)) for index in range(len(raw)))


def _read_count_by(reader: _Reader, keys: tuple) -> CountBy:
    """``roll``, or ``{field: roll, where: {type: monster}}`` to count only some cards."""
    if isinstance(reader.get(keys), dict):
        reader.known_keys(keys, {"field", "where"}, "composition setting")
        return CountBy(reader.field_name(keys + ("field",)), reader.selector(keys + ("where",)))
    return CountBy(reader.field_name(keys))


def _read_questions(reader: _Reader, default_draw: int | None, problems: Problems) -> tuple[Question, ...]:
    raw = reader.get(("questions",))
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problems.add(reader.fail(("questions",), "expected a list of questions ('- ' items), found "
                                                 f"{describe_value(raw)}"))
        return ()
    questions = []
    seen: dict[str, int] = {}
    for index in range(len(raw)):
        question = problems.attempt(functools.partial(_read_question, reader, ("questions", index), default_draw),
                                    None)
        if question is None:
            continue
        if question.name in seen:
            problems.add(reader.fail(("questions", index, "name"), f"question '{question.name}' is asked twice "
                                                                   f"(first at line {seen[question.name]})"))
            continue
        seen[question.name] = reader.position(("questions", index)).line
        questions.append(question)
    return tuple(questions)


def _read_question(reader: _Reader, keys: tuple, default_draw: int | None) -> Question:
    reader.known_keys(keys, QUESTION_KEYS, "question setting")
    name = reader.text(keys + ("name",))
    draw = reader.integer(keys + ("draw",), minimum=1, maximum=MAX_DRAW) or default_draw
    if draw is None:
        raise reader.fail(keys, "question needs 'draw' (how many cards), or set 'draw' for all questions")
    decklist = reader.string(keys + ("decklist",))
    if decklist is not None and decklist not in {d.id for d in reader.deck.decklists}:
        raise reader.fail(keys + ("decklist",), unknown_decklist(reader.deck, decklist))
    quantifiers = [key for key in QUANTIFIERS if key in reader.get(keys)]
    if len(quantifiers) > 1:
        raise reader.fail(keys + (quantifiers[1],), "a question takes 'for_some' or 'for_every', not both")
    chosen = reader.selector(keys + (quantifiers[0],)) if quantifiers else None
    needs_raw = reader.get(keys + ("need",))
    needs: tuple[Condition, ...]
    if needs_raw is None:
        raise reader.fail(keys, "question needs 'need': a condition or a list of conditions")
    if isinstance(needs_raw, dict):
        needs = (_read_condition(reader, keys + ("need",), chosen is not None),)
    elif isinstance(needs_raw, list) and needs_raw:
        needs = tuple(_read_condition(reader, keys + ("need", i), chosen is not None)
                      for i in range(len(needs_raw)))
    else:
        raise reader.fail(keys + ("need",),
                          f"expected a condition or a list of them, found {describe_value(needs_raw)}")
    return Question(name=name.strip(), draw=draw, needs=needs, source=reader.selector(keys + ("from",)),
                    chosen=chosen, every=quantifiers == ["for_every"], decklist=decklist,
                    position=reader.position(keys))


def _read_condition(reader: _Reader, keys: tuple, chosen_card: bool) -> Condition:
    reader.known_keys(keys, CONDITION_KEYS, "condition setting")
    raw = reader.get(keys)
    match: tuple[tuple[str, str], ...] = ()
    if "match" in raw:
        if not chosen_card:
            raise reader.fail(keys + ("match",), "'match' compares with the card chosen by 'for_some' "
                                                 "or 'for_every'; add one to the question")
        pairs = reader.mapping(keys + ("match",), "match")
        match = tuple((reader.field_name(keys + ("match", mine), mine),
                       reader.field_name(keys + ("match", mine), theirs)) for mine, theirs in pairs.items())
    if "where" not in raw and not match:
        raise reader.fail(keys, "a condition needs 'where' (which cards count) or 'match'")
    amounts = {key: _amount(reader, keys + (key,), chosen_card) for key in ("at_least", "at_most", "exactly")}
    low: int | str | None
    high: int | str | None
    if amounts["exactly"] is not None:
        if amounts["at_least"] is not None or amounts["at_most"] is not None:
            raise reader.fail(keys + ("exactly",), "'exactly' cannot be combined with 'at_least' or 'at_most'")
        low = high = amounts["exactly"]
    else:
        low, high = amounts["at_least"], amounts["at_most"]
        if low is None and high is None:
            low = 1
    if isinstance(low, int) and isinstance(high, int) and high < low:
        raise reader.fail(keys + ("at_most",), f"at_most ({high}) is below at_least ({low})")
    return Condition(where=reader.selector(keys + ("where",)), match=match, at_least=low, at_most=high)


def _amount(reader: _Reader, keys: tuple, chosen_card: bool) -> int | str | None:
    value = reader.get(keys)
    if value is None:
        return None
    if isinstance(value, str):
        if not chosen_card:
            raise reader.fail(keys, f"expected a whole number, found '{value}' (a field name "
                                    "is allowed only with 'for_some' or 'for_every')")
        return reader.field_name(keys)
    return reader.integer(keys, minimum=0, maximum=MAX_DRAW)


def _read_dice(reader: _Reader) -> DiceSpec:
    keys = ("dice",)
    reader.known_keys(keys, DICE_KEYS, "dice setting")
    if reader.get(keys + ("dice",)) is None:
        raise reader.fail(keys, "dice needs 'dice': the roll, like 2d6")
    try:
        formula = parse_dice(reader.get(keys + ("dice",)))
    except ValueError as error:
        raise reader.fail(keys + ("dice",), str(error)) from None
    value = reader.field_name(keys + ("value",)) if reader.get(keys + ("value",)) is not None else None
    return DiceSpec(field=reader.field_name(keys + ("field",)), formula=formula, value=value,
                    where=reader.selector(keys + ("where",)))


def _read_simulation(reader: _Reader) -> SimulationSpec:
    keys = ("simulate",)
    reader.known_keys(keys, SIMULATE_KEYS, "simulate setting")
    plugin = reader.text(keys + ("plugin",))
    resolve_inside(reader.deck.folder, plugin, reader.position(keys + ("plugin",)), field="plugin")
    path = PurePosixPath(plugin)
    if path.suffix != ".py":
        raise reader.fail(keys + ("plugin",), f"plugin '{plugin}' must be a Python file (.py)")
    options = reader.get(keys + ("options",))
    if options is not None and not isinstance(options, dict):
        raise reader.fail(keys + ("options",), f"options must be a mapping, found {describe_value(options)}")
    options = dict(options or {})
    max_turns = reader.integer(keys + ("max_turns",), minimum=1, maximum=100_000)
    if max_turns is not None:
        options["max_turns"] = max_turns
    games = reader.integer(keys + ("games",), minimum=1, maximum=MAX_GAMES)
    seed = reader.integer(keys + ("seed",))
    return SimulationSpec(
        plugin=str(path),
        games=DEFAULT_GAMES if games is None else games,
        seed=DEFAULT_SEED if seed is None else seed,
        policy=reader.string(keys + ("policy",)),
        options=options,
        position=reader.position(keys + ("plugin",)),
    )
