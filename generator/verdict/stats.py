"""What ``deckpress stats`` would refuse in a deck's ``stats:`` section, found without counting."""

from __future__ import annotations

from generator.deck.model import Deck
from generator.errors import InputError
from generator.findings import Finding, findings_from
from generator.stats.dice import refuse_huge_rewards
from generator.stats.odds import prepare
from generator.stats.spec import asked, read_stats_spec


def stats_findings(deck: Deck) -> list[Finding]:
    """Every problem of the ``stats:`` section, and of every question it asks of every pool."""
    try:
        spec = read_stats_spec(deck)
    except InputError as error:
        return findings_from(error, "stats")
    found = []
    for pool, question in asked(deck, spec):
        try:
            prepare(question, pool)
        except InputError as error:
            found.extend(findings_from(error, "stats"))
    if spec.dice is not None and spec.dice.value is not None:
        try:
            refuse_huge_rewards(spec.dice.value, spec.dice.cards(deck))
        except InputError as error:
            found.extend(findings_from(error, "stats"))
    return found
