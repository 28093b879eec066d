"""Accepted warnings: a deck's ``accept:`` entries applied to the findings of a check.

A designer who has looked at a warning and decided it is fine says so in the
deck file, with the reason::

    accept:
      - colour-blind: {field: colour}
        reason: every monster prints its colour's name beside its dots
      - contrast: {card: tiki, side: back, element: back-name}
        reason: thirty-point gold on the dark back reads across the table

An entry names one kind of warning and may pin it down by ``card``, ``side``,
``element`` and ``field`` (a key left out matches any value). Each matching
warning is kept, marked accepted with that reason: ``check`` prints it as
accepted and ``check --strict`` lets it pass. Errors cannot be accepted. An
entry that matches no warning, once its kind of warning has been looked for
(``check`` does, ``build`` does not), is itself a warning, so a fixed problem
does not leave a stale excuse behind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable

from generator.deck.model import Acceptance, Deck
from generator.findings import WARNING, Finding

ACCEPT = "accept"


def apply_acceptances(deck: Deck | None, findings: Iterable[Finding], judged: Collection[str]) -> list[Finding]:
    """``findings`` with every warning the deck accepts marked accepted, plus a warning for
    each ``accept:`` entry that matched nothing although its kind of warning was ``judged``
    (its check ran over the whole deck: an entry is not stale because its check did not run)."""
    findings = list(findings)
    if deck is None or not deck.accepted:
        return findings
    used: set[int] = set()
    result = []
    for finding in findings:
        entry = _first_match(deck.accepted, finding)
        if entry is not None:
            used.add(id(entry))
            finding = dataclasses.replace(finding, accepted=entry.reason)
        result.append(finding)
    for entry in deck.accepted:
        if id(entry) not in used and entry.kind in judged:
            pinned = ", ".join(f"{key}: {value}" for key, value in entry.match.items()) or "any"
            result.append(Finding(kind=ACCEPT, severity=WARNING, position=entry.position,
                                  message=f"accepts a {entry.kind} warning ({pinned}) that this deck "
                                          "no longer has: remove the entry"))
    return result


def _first_match(entries: list[Acceptance], finding: Finding) -> Acceptance | None:
    if finding.severity != WARNING:
        return None
    for entry in entries:
        if entry.kind == finding.kind and all(_fact(finding, key) == value for key, value in entry.match.items()):
            return entry
    return None


def _fact(finding: Finding, key: str) -> str | None:
    """What the finding says about ``key``: its card, side or element, else its details."""
    value = getattr(finding, key, None) if key in ("card", "side", "element") else finding.details.get(key)
    return None if value is None else str(value)
