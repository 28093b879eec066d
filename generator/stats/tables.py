"""Deck statistics as terminal tables (``--format text``) and as plain data (``--format json``)."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

from generator.errors import value_text
from generator.stats.analysis import DeckStats, PoolStats
from generator.stats.composition import Breakdown
from generator.stats.dice import DiceReport, number_text, odds_text
from generator.stats.simulation import Interval, SimulationResult

BAR_WIDTH = 30
TEXT_WIDTH = 100
BAR = "█"


def render_text(stats: DeckStats) -> list[str]:
    """Every section of the report as lines for the terminal."""
    deck = stats.deck
    lines = [f"{deck.id}: {deck.name}, {deck.total} cards"]
    for pool_stats in stats.pools:
        lines += _pool_lines(stats, pool_stats)
    if stats.dice is not None:
        lines += [""] + dice_lines(stats.dice)
    if stats.simulation is not None:
        lines += [""] + simulation_lines(stats.simulation)
    for note in stats.notes:
        lines += ["", f"note: {note}"]
    return lines


def _pool_lines(stats: DeckStats, pool_stats: PoolStats) -> list[str]:
    lines = []
    pool = pool_stats.pool
    if pool.decklist is not None:
        lines += ["", f"== decklist {pool.decklist}: {pool.label}, {pool.total} cards =="]
    for table in pool_stats.composition:
        lines += [""] + composition_lines(table)
    if pool_stats.answers:
        lines += ["", "Draw odds (exact)", f"  {'chance':>7}  {'draw':>4}  question"]
        indent = " " * 17
        for answer in pool_stats.answers:
            question = answer.question
            lines.append(f"  {percent(answer.chance):>7}  {question.draw:>4}  {question.name}")
            detail = question.describe()
            if question.source.wanted:
                detail += f"; drawn from cards with {question.source.describe()}"
            lines += textwrap.wrap(f"({detail})", width=TEXT_WIDTH, initial_indent=indent,
                                   subsequent_indent=indent + " ")
    return lines


def composition_lines(table: Breakdown) -> list[str]:
    """Counts and shares of one field's values, with a bar for each."""
    shown = [(value_text(row.value), row) for row in table.rows]
    width = max([len(table.field)] + [len(text) for text, _ in shown])
    among = f" ({table.total} cards with {table.among})" if table.among else ""
    largest = max((row.share for row in table.rows), default=Fraction(0)) or Fraction(1)
    lines = [f"Composition by {table.field}{among}",
             f"  {table.field:<{width}}  {'cards':>5}  {'share':>6}  {'distinct':>8}"]
    for text, row in shown:
        bar = BAR * max(1 if row.cards else 0, round(BAR_WIDTH * row.share / largest))
        lines.append(f"  {text:<{width}}  {row.cards:>5}  {percent(row.share, 1):>6}  {row.distinct:>8}  {bar}")
    return lines


def dice_lines(report: DiceReport) -> list[str]:
    """Odds of every printed roll against its reward, and whether rewards follow difficulty."""
    rewarded = report.value_field is not None
    title = f"Dice: '{report.field}' is a roll of {report.formula.text}"
    if rewarded:
        title += f"; '{report.value_field}' is its reward"
    header = f"  {'roll':>5}  {'chance':>7}  {'1 in':>6}  {'cards':>5}"
    if rewarded:
        header += f"  {'reward':>8}  {'per roll':>8}  {'even reward':>11}"
    lines = [title, header]
    for row in report.rows:
        line = (f"  {row.roll:>5}  {odds_text(row.chance, report.formula):>7}  "
                f"{float(1 / row.chance):>6.1f}  {row.cards:>5}")
        if rewarded and row.reward is not None:
            line += f"  {number_text(row.reward):>8}  {row.payout:>8.2f}  {row.even_reward:>11.0f}"
        lines.append(line)
    for value, ids in report.unreachable:
        lines.append(f"  warning: {report.formula.text} can never roll {value} ({', '.join(ids)})")
    if rewarded:
        lines.append("  'per roll' is reward x chance; 'even reward' would make every roll earn the same.")
        lines += [f"  {line}" for line in tracking_lines(report)]
    return lines


def tracking_lines(report: DiceReport) -> list[str]:
    """The verdict on rewards versus difficulty, with the pairs that break it."""
    rho = "" if report.rank_correlation is None else f" (rank correlation {report.rank_correlation:.2f})"
    if report.tracks_difficulty:
        lines = [f"Rewards track difficulty: no roll pays less than an easier one{rho}."]
    else:
        lines = [f"Rewards do not track difficulty{rho}:"]
    for mismatch in report.mismatches:
        lines.append(f"  {mismatch.describe(report.formula.outcomes)}")
    return lines


def simulation_lines(result: SimulationResult) -> list[str]:
    """Sample size, win rate with its interval, and turns to win."""
    rate = result.win_rate
    lines = [f"Simulation: {result.title} ({result.plugin})",
             f"  policy {result.policy}: {result.policy_description}",
             f"  {result.games:,} games, seed {result.seed}",
             f"  won {result.wins:,} of {result.games:,}: {percent(rate.estimate)} "
             f"(95% CI {interval_text(rate, as_percent=True)})"]
    turns = result.turns_to_win
    if turns is not None:
        lines.append(f"  turns to win: mean {turns.estimate:.2f} (95% CI {interval_text(turns)}), "
                     f"median {number_text(result.median_turns_to_win)}, "
                     f"range {min(result.winning_turns)}-{max(result.winning_turns)}")
    endings = ", ".join(f"{name} {count:,}" for name, count in result.endings().items())
    lines.append(f"  endings: {endings}")
    lines += [f"  note: {note}" for note in result.notes]
    return lines


def percent(value: Fraction | float, digits: int = 2) -> str:
    return f"{float(value) * 100:.{digits}f}%"


def interval_text(interval: Interval, as_percent: bool = False) -> str:
    if as_percent:
        return f"{interval.low * 100:.1f}-{interval.high * 100:.1f}%"
    return f"{interval.low:.2f}-{interval.high:.2f}"


# --- JSON --------------------------------------------------------------------------------

def as_dict(stats: DeckStats) -> dict[str, Any]:
    """The whole report as JSON-ready data; chances as floats plus exact fractions."""
    deck = stats.deck
    return {
        "file": str(deck.path),
        "deck": deck.id,
        "name": deck.name,
        "cards": deck.total,
        "pools": [_pool_dict(p) for p in stats.pools],
        "dice": None if stats.dice is None else _dice_dict(stats.dice),
        "simulation": None if stats.simulation is None else _simulation_dict(stats.simulation),
        "notes": list(stats.notes),
    }


def _exact(chance: Fraction) -> dict[str, Any]:
    return {"probability": float(chance), "exact": f"{chance.numerator}/{chance.denominator}"}


def _pool_dict(pool_stats: PoolStats) -> dict[str, Any]:
    pool = pool_stats.pool
    return {
        "decklist": pool.decklist,
        "label": pool.label,
        "cards": pool.total,
        "composition": [{
            "field": table.field,
            "among": table.among or None,
            "cards": table.total,
            "rows": [{"value": row.value, "cards": row.cards, "distinct": row.distinct,
                      "share": float(row.share)} for row in table.rows],
        } for table in pool_stats.composition],
        "questions": [dict({"name": a.question.name, "draw": a.question.draw,
                            "asks": a.question.describe()}, **_exact(a.chance))
                      for a in pool_stats.answers],
    }


def _dice_dict(report: DiceReport) -> dict[str, Any]:
    return {
        "field": report.field,
        "dice": report.formula.text,
        "value": report.value_field,
        "rows": [dict({"roll": row.roll, "cards": row.cards, "card_ids": list(row.card_ids),
                       "reward": row.reward, "payout_per_roll": row.payout,
                       "even_reward": row.even_reward}, **_exact(row.chance)) for row in report.rows],
        "tracks_difficulty": report.tracks_difficulty,
        "rank_correlation": report.rank_correlation,
        "mismatches": [m.describe(report.formula.outcomes) for m in report.mismatches],
        "unreachable": [{"value": value, "cards": list(ids)} for value, ids in report.unreachable],
    }


def _interval_dict(interval: Interval | None) -> dict[str, float | list[float]] | None:
    if interval is None:
        return None
    return {"estimate": interval.estimate, "ci95": [interval.low, interval.high]}


def _simulation_dict(result: SimulationResult) -> dict[str, Any]:
    return {
        "title": result.title,
        "plugin": result.plugin,
        "policy": result.policy,
        "policy_description": result.policy_description,
        "seed": result.seed,
        "games": result.games,
        "wins": result.wins,
        "win_rate": _interval_dict(result.win_rate),
        "turns_to_win": _interval_dict(result.turns_to_win),
        "median_turns_to_win": result.median_turns_to_win,
        "endings": result.endings(),
        "notes": list(result.notes),
        "turn_histogram": {str(turn): {"won": won, "lost": lost}
                           for turn, (won, lost) in result.turn_histogram().items()},
    }
