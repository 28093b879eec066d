"""One deck's statistics, gathered: composition, draw odds, dice and simulation.

:func:`analyse` is what the CLI calls. It reads the deck's ``stats:`` section,
adds whatever the command line asked for, and returns a :class:`DeckStats`
that the text, JSON and PDF reports all draw from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from generator.deck.model import Deck
from generator.stats.composition import Breakdown, breakdown, default_fields
from generator.stats.dice import DiceReport, dice_report
from generator.stats.odds import probability
from generator.stats.pools import Pool, pools_for
from generator.stats.simulation import SimulationResult, load_plugin, run
from generator.stats.spec import CountBy, Question, StatsSpec, read_stats_spec


@dataclass(frozen=True)
class Request:
    """What the user asked for on top of the deck file."""

    fields: tuple[str, ...] = ()  # composition fields; empty: the deck's own choice
    questions: tuple[Question, ...] = ()  # extra questions from the command line
    decklist: str | None = None
    simulate: bool = False
    games: int | None = None
    seed: int | None = None
    policy: str | None = None


@dataclass(repr=False, eq=False)
class Answer:
    """A question's exact chance in one pool."""

    question: Question
    chance: Fraction


@dataclass(repr=False, eq=False)
class PoolStats:
    """Composition and draw odds for one pool (the deck, or one decklist)."""

    pool: Pool
    composition: tuple[Breakdown, ...]
    answers: tuple[Answer, ...]


@dataclass(repr=False, eq=False)
class DeckStats:
    """Everything ``deckpress stats`` reports about one deck."""

    deck: Deck
    pools: tuple[PoolStats, ...]
    dice: DiceReport | None = None
    simulation: SimulationResult | None = None
    notes: tuple[str, ...] = ()


def analyse(deck: Deck, request: Request = Request(),
            on_game: Callable[[int], None] | None = None) -> DeckStats:
    """Compute every statistic the deck file and ``request`` ask for."""
    spec = read_stats_spec(deck)
    fields = tuple(CountBy(name) for name in request.fields) or spec.composition or default_fields(deck)
    questions = spec.questions + request.questions
    pools = tuple(_pool_stats(deck, pool, fields, questions) for pool in pools_for(deck, request.decklist))
    notes = []
    simulation = None
    if spec.simulation is not None:
        if request.simulate:
            plugin = load_plugin(deck, spec.simulation)
            simulation = run(plugin, deck, spec.simulation, games=request.games, seed=request.seed,
                             policy=request.policy, on_game=on_game)
        else:
            notes.append(f"a simulation is available ({spec.simulation.plugin} in the deck's folder); "
                         "it runs Python code from the deck, so pass --simulate only for decks you trust")
    elif request.simulate:
        notes.append("this deck names no simulation plugin (stats: simulate: {plugin: FILE.py})")
    return DeckStats(deck=deck, pools=pools, dice=_dice(deck, spec), simulation=simulation,
                     notes=tuple(notes))


def planned_games(deck: Deck, request: Request) -> int:
    """How many games :func:`analyse` will simulate (for sizing a progress bar)."""
    spec = read_stats_spec(deck)
    if spec.simulation is None or not request.simulate:
        return 0
    return request.games if request.games is not None else spec.simulation.games


def _pool_stats(deck: Deck, pool: Pool, fields: tuple[CountBy, ...], questions: tuple[Question, ...]) -> PoolStats:
    answers = tuple(Answer(question, probability(question, pool)) for question in questions if question.asks(pool))
    return PoolStats(pool=pool, composition=tuple(breakdown(pool, count_by, deck) for count_by in fields),
                     answers=answers)


def _dice(deck: Deck, spec: StatsSpec) -> DiceReport | None:
    if spec.dice is None:
        return None
    return dice_report(spec.dice.formula, spec.dice.field, spec.dice.value, spec.dice.cards(deck))
