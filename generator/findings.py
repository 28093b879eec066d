"""Findings: one problem (or warning) about a deck, as every check reports it.

Each check in deckpress (the deck model, its rules, layouts, faces, the
``stats:`` section, the rules booklet, and later contrast and translations)
says what it found as :class:`Finding` values. The command line prints them
one a line, in file and line order, and picks the exit status from them;
``--format json`` prints :meth:`Finding.as_dict` for tools.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from generator.errors import (
    EXIT_INPUT,
    EXIT_OK,
    EXIT_RULES,
    DeckpressError,
    Position,
    each_error,
    place_order,
    printable,
    shown_path,
)

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)

CONTRAST = "contrast"
"""The kind of a warning about text too faint against what is behind it."""
COLOUR_BLIND = "colour-blind"
"""The kind of a warning about colours that look alike with a colour-vision deficiency."""
ACCEPTABLE_KINDS = (CONTRAST, COLOUR_BLIND)
"""The warnings a deck can accept with a reason (its ``accept:`` entries name them); errors never can."""


@dataclass(frozen=True)
class Finding:
    """One thing a check found: what is wrong, where, and how serious it is."""

    kind: str
    """What sort of check found it: "input", "rule", "layout", "fit", "stats", "booklet",
    "translation", "contrast", "colour-blind", ..."""
    message: str
    """What is wrong, without its position."""
    position: Position | None
    severity: str = ERROR
    """"error" or "warning" (a warning leaves the exit status 0 unless checks are strict)."""
    exit_code: int = EXIT_RULES
    """For errors: 1 a rule is broken or a face cannot be laid out, 2 malformed input."""
    card: str | None = None
    """The card id, when the finding concerns one card."""
    side: str | None = None
    """"front" or "back", when it concerns one face."""
    element: str | None = None
    """The layout element, when it concerns one."""
    accepted: str | None = None
    """Why the deck accepts this warning (its ``accept:`` entry), if it does."""
    details: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Extra facts for tools (a rule's expected and found values, its cards...)."""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity is 'error' or 'warning', not {self.severity!r}")
        # A check's own message may quote the deck (a rule's message, a card's name): escaped
        # here, as every error's is, so no command prints a control character raw.
        object.__setattr__(self, "message", printable(self.message))
        if self.accepted is not None:
            object.__setattr__(self, "accepted", printable(self.accepted))

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR and self.accepted is None

    def line(self) -> str:
        """``path:line:column: message``, one line; warnings say so after the position."""
        where = f"{self.position}: " if self.position else ""
        label = "" if self.severity == ERROR else f"{self.severity}: "
        accepted = f" (accepted: {self.accepted})" if self.accepted else ""
        return f"{where}{label}{self.message}{accepted}"

    def as_dict(self) -> dict[str, Any]:
        position = self.position
        result = {
            "kind": self.kind,
            "severity": self.severity,
            "file": shown_path(position.path) if position else None,
            "line": position.line or None if position else None,
            "column": position.column or None if position else None,
            "message": self.message,
            "card": self.card,
            "side": self.side,
            "element": self.element,
            "exit_code": self.exit_code if self.severity == ERROR else EXIT_OK,
            "accepted": self.accepted,
        }
        result.update(self.details)
        return result

    @classmethod
    def from_error(cls, error: DeckpressError, kind: str = "input", **known: Any) -> Finding:
        """The finding an error raised by a stage stands for (one problem, not a group)."""
        message = f"{error.message} ({error.field})" if error.field else error.message
        facts: dict[str, Any] = {name: getattr(error, name, None) for name in ("card", "side", "element")}
        facts.update(known)
        return cls(kind=getattr(error, "kind", None) or kind, message=message, position=error.position,
                   exit_code=error.exit_code, **facts)


def findings_from(error: DeckpressError, kind: str = "input") -> list[Finding]:
    """One finding for each problem in ``error`` (a single error or a group of them)."""
    return [Finding.from_error(each, kind) for each in each_error(error)]


def in_order(findings: Iterable[Finding]) -> list[Finding]:
    """Findings by file, then line, then column (:meth:`Position.order`), those without a place
    first (stable: equal places keep the order found)."""
    return sorted(findings, key=lambda finding: place_order(finding.position))


def exit_status(findings: Iterable[Finding], strict: bool = False) -> int:
    """The highest exit code among errors (and, when ``strict``, unaccepted warnings as 1)."""
    status = EXIT_OK
    for finding in findings:
        if finding.accepted is not None:
            continue
        if finding.severity == ERROR:
            status = max(status, finding.exit_code)
        elif strict:
            status = max(status, EXIT_RULES)
    return status


__all__ = ["ACCEPTABLE_KINDS", "COLOUR_BLIND", "CONTRAST", "ERROR", "EXIT_INPUT", "EXIT_RULES", "Finding",
           "WARNING", "exit_status", "findings_from", "in_order"]
