"""Seeded Monte Carlo runs of a deck's own game plugin, and the statistics of the outcomes.

The rules of a game live beside its cards (``cards/goblins/simulate.py``),
not here. This module only loads that plugin, deals it reproducible random
numbers, and summarises what comes back: the win rate with a 95% confidence
interval, and how many turns games take.

A plugin is a Python file that defines::

    POLICIES = {"greedy": "what the player does", ...}   # the first is the default
    def prepare(deck, options): ...        # once per run: cards -> game-ready data
                                           # (its .notes, if any, are shown with the results)
    def play(prepared, rng, policy): ...   # one game -> Outcome(won, turns, ending)

``rng`` is a :class:`random.Random` the plugin must use for every random
choice; game ``i`` of a run with seed ``s`` always gets the same stream, so
any game can be replayed and a run is reproducible on every machine.

A plugin is code from the deck's folder, and deck folders may come from
strangers: it runs only when the deck file names it and the user asks for it
(``deckpress stats --simulate``).
"""

from __future__ import annotations

import importlib.util
import math
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from generator.deck.model import Deck
from generator.errors import InputError, Position, did_you_mean
from generator.paths import resolve_inside
from generator.stats.spec import SimulationSpec

MAX_TURNS = 10_000
"""Turns one simulated game may report. Card games end in tens of turns; the report draws
a bar for every turn from the shortest game to the longest, so a plugin reporting a
billion turns (a loop counter gone wrong) must be stopped here."""

MAX_ENDING_LENGTH = 100
"""Characters in an Outcome's ending ('deck ran out'): each distinct ending is a line of
the report."""

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


@dataclass(frozen=True)
class Outcome:
    """How one game ended: won or not, after how many turns, and why it ended."""

    won: bool
    turns: int
    ending: str = ""


@dataclass(repr=False, eq=False)
class Plugin:
    """A loaded game plugin."""

    path: Path
    title: str
    policies: dict[str, str]
    prepare: Callable[[Deck, dict], Any]
    play: Callable[[Any, random.Random, str], Outcome]


@dataclass(repr=False, eq=False)
class Interval:
    """An estimate with its 95% confidence interval."""

    estimate: float
    low: float
    high: float


@dataclass(repr=False, eq=False)
class SimulationResult:
    """The outcomes of a run and their summary statistics."""

    title: str
    plugin: str
    policy: str
    policy_description: str
    seed: int
    outcomes: tuple[Outcome, ...] = field(repr=False)
    notes: tuple[str, ...] = ()  # what the plugin says it leaves out, for instance

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def wins(self) -> int:
        return sum(outcome.won for outcome in self.outcomes)

    @property
    def win_rate(self) -> Interval:
        return wilson_interval(self.wins, self.games)

    @property
    def winning_turns(self) -> list[int]:
        return [outcome.turns for outcome in self.outcomes if outcome.won]

    @property
    def turns_to_win(self) -> Interval | None:
        return mean_interval(self.winning_turns)

    @property
    def median_turns_to_win(self) -> float | None:
        turns = self.winning_turns
        return statistics.median(turns) if turns else None

    def endings(self) -> dict[str, int]:
        """How games ended, most common first ('won' included)."""
        counts = Counter(o.ending or ("won" if o.won else "lost") for o in self.outcomes)
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def turn_histogram(self) -> dict[int, tuple[int, int]]:
        """Turns -> (games won on that turn, games lost on that turn)."""
        won = Counter(o.turns for o in self.outcomes if o.won)
        lost = Counter(o.turns for o in self.outcomes if not o.won)
        return {turn: (won[turn], lost[turn]) for turn in sorted(set(won) | set(lost))}


def wilson_interval(successes: int, trials: int) -> Interval:
    """A proportion with its Wilson score 95% interval (sound near 0% and 100%, unlike p +- 2se)."""
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    z2 = Z_95 ** 2
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z_95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials ** 2)) / (1 + z2 / trials)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[int]) -> Interval | None:
    """A mean with its normal-approximation 95% interval (fine for the thousands of games we run)."""
    if not values:
        return None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Interval(mean, mean, mean)
    half = Z_95 * statistics.stdev(values) / math.sqrt(len(values))
    return Interval(mean, mean - half, mean + half)


def game_rng(seed: int, game: int) -> random.Random:
    """The random stream for one game of a run: fixed by (seed, game) alone."""
    return random.Random(f"deckpress:{seed}:{game}")


def load_plugin(deck: Deck, spec: SimulationSpec) -> Plugin:
    """Import the deck's plugin, refused unless it lies inside the deck's folder; any problem
    becomes one :class:`InputError` line."""
    path = resolve_inside(deck.folder, spec.plugin, spec.position, field="plugin")
    if not path.is_file():
        raise InputError(f"plugin '{spec.plugin}' not found in {deck.folder}", spec.position, field="plugin")
    module = _import(path, f"deckpress_plugin_{deck.id.replace('-', '_')}")
    policies = getattr(module, "POLICIES", None)
    if not (isinstance(policies, dict) and policies and all(isinstance(k, str) for k in policies)):
        raise InputError("plugin needs POLICIES: a mapping of policy name to description", Position(path))
    for name in ("prepare", "play"):
        if not callable(getattr(module, name, None)):
            raise InputError(f"plugin needs a function '{name}'", Position(path))
    title = getattr(module, "TITLE", None)
    if not isinstance(title, str) or not title.strip():
        doc = (module.__doc__ or "").strip()
        title = doc.splitlines()[0].rstrip(".") if doc else path.stem
    return Plugin(path=path, title=title.strip(), policies={k: str(v) for k, v in policies.items()},
                  prepare=module.prepare, play=module.play)


def _import(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError("cannot load plugin", Position(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses in the plugin look their module up here
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        sys.modules.pop(name, None)
        raise InputError(f"plugin has a syntax error: {error.msg}",
                         Position(path, error.lineno or 0, error.offset or 0)) from None
    except PLUGIN_FAILURES as error:  # a broken plugin must not show a traceback
        sys.modules.pop(name, None)
        raise _plugin_error(path, "plugin failed to load", error) from None
    return module


PLUGIN_FAILURES = (Exception, SystemExit, GeneratorExit)
"""What a plugin may raise that ends the run with an error line. ``SystemExit`` is one: a
plugin calling ``sys.exit(0)`` must not end deckpress with success and no output. Only
Ctrl-C (``KeyboardInterrupt``) passes through, to stop the command as the user asked."""


def _plugin_error(path: Path, what: str, error: BaseException) -> InputError:
    """Name the plugin's own line where it went wrong."""
    line = 0
    import traceback  # noqa: PLC0415  (only a plugin that fails needs it)

    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename) == path:
            line = frame.lineno or 0
    if isinstance(error, SystemExit):
        happened = f"the plugin called exit({error.code!r}), which a plugin must not do"
    else:
        happened = f"{type(error).__name__}: {error}"  # the plugin's author reads Python's own words
    return InputError(f"{what}: {happened}", Position(path, line))


def run(plugin: Plugin, deck: Deck, spec: SimulationSpec, games: int | None = None,
        seed: int | None = None, policy: str | None = None,
        on_game: Callable[[int], None] | None = None) -> SimulationResult:
    """Play ``games`` seeded games with ``policy``; ``on_game`` is told after each one."""
    games = spec.games if games is None else games
    seed = spec.seed if seed is None else seed
    policy = policy or spec.policy or next(iter(plugin.policies))  # the first is the default
    if policy not in plugin.policies:
        raise InputError(f"plugin has no policy '{policy}'{did_you_mean(policy, plugin.policies)}",
                         spec.position, field="policy")
    try:
        prepared = plugin.prepare(deck, dict(spec.options))
    except PLUGIN_FAILURES as error:
        raise _plugin_error(plugin.path, "plugin failed to prepare the deck", error) from None
    outcomes = []
    for game in range(games):
        try:
            outcome = plugin.play(prepared, game_rng(seed, game), policy)
        except PLUGIN_FAILURES as error:
            raise _plugin_error(plugin.path, f"game {game} (seed {seed}) failed", error) from None
        outcomes.append(_checked(outcome, plugin.path, game, seed))
        if on_game is not None:
            on_game(1)
    try:
        notes = getattr(prepared, "notes", ())
    except PLUGIN_FAILURES as error:
        raise _plugin_error(plugin.path, "the prepared deck's notes failed", error) from None
    notes = notes if isinstance(notes, (list, tuple)) and all(isinstance(note, str) for note in notes) else ()
    return SimulationResult(title=plugin.title, plugin=_display_path(plugin.path, deck), policy=policy,
                            policy_description=plugin.policies[policy], seed=seed, outcomes=tuple(outcomes),
                            notes=tuple(notes))


def _checked(outcome: Any, path: Path, game: int, seed: int) -> Outcome:
    """The plugin's outcome, if it is one the statistics and the report can use."""
    where = f"game {game} (seed {seed})"
    if not isinstance(outcome, Outcome):
        raise InputError(f"{where}: play() must return an Outcome, returned {type(outcome).__name__}",
                         Position(path))
    if not isinstance(outcome.won, bool):
        raise InputError(f"{where}: Outcome.won must be True or False, not {outcome.won!r}"[:200], Position(path))
    if isinstance(outcome.turns, bool) or not isinstance(outcome.turns, int) \
            or not 0 <= outcome.turns <= MAX_TURNS:
        raise InputError(f"{where}: Outcome.turns must be a whole number from 0 to {MAX_TURNS:,}, "
                         f"not {outcome.turns!r}"[:200], Position(path))
    if not isinstance(outcome.ending, str) or len(outcome.ending) > MAX_ENDING_LENGTH:
        raise InputError(f"{where}: Outcome.ending must be a short text (at most {MAX_ENDING_LENGTH} "
                         "characters)", Position(path))
    return outcome


def _display_path(path: Path, deck: Deck) -> str:
    try:
        return str(deck.folder / path.relative_to(deck.folder.resolve()))
    except ValueError:
        return str(path)
