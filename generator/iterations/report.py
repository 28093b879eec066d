"""A :class:`~generator.iterations.comparison.Comparison` written out: as lines for the
terminal (each starting with the ``file:line:column`` an editor jumps to), as JSON for
tools, or as Markdown for a changelog a designer pastes to playtesters.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from generator.errors import Position, plural, printable
from generator.iterations.comparison import (
    OWN_FIELDS,
    CardChange,
    Cause,
    Change,
    Comparison,
    OddsAnswer,
    Printed,
    Removed,
    RuleChange,
    SideSummary,
    change_text,
    short,
)
from generator.stats.tables import percent

LISTED_CARDS = 12
"""Cards a line of the text or Markdown report names before "and N more" (JSON names all)."""

FACES_HEADING = "faces that print differently"
"""The text report's section of faces that print differently, with why (see :func:`_grouped`)."""

ALL_IN_JSON = "; --format json lists them all"

MAX_DIGITS = 4
"""Decimal places a chance may be shown with to tell two answers apart (88.51% -> 88.46%)."""


# --- text ----------------------------------------------------------------------------


def text_lines(comparison: Comparison) -> list[str]:
    """The comparison as terminal lines: a heading, then each section that has something."""
    lines = [_heading(comparison)]
    if not comparison.changed:
        lines.append("  nothing prints or plays differently")
    if comparison.deck:
        lines.append("deck")
        lines += [f"  {_at(change.position)}{change_text(change.what, change.old, change.new)}"
                  for change in comparison.deck]
    changed = [change for change in comparison.cards if change.status != "redrawn"]
    if changed:
        lines.append("cards")
        for change in changed:
            lines += [f"  {line}" for line in _card_lines(change)]
    redrawn = _grouped(comparison.cards)
    if redrawn:
        lines.append(FACES_HEADING)
        for (sides, causes), cards in redrawn.items():
            lines.append(f"  {_faces(sides, cards)}:")
            lines += [f"    {_at(cause.position)}{cause.what}" for cause in causes]
    if comparison.rules:
        lines.append("rules")
        lines += [f"  {_at(rule.position)}{_rule_text(rule)}" for rule in comparison.rules]
    if comparison.odds:
        lines.append("odds (stats:)")
        lines += [f"  {_at(answer.position)}{_question(answer)}: {_answers(answer)}" for answer in comparison.odds]
    lines += [f"  note: {problem}" for problem in comparison.stats_problems]
    if comparison.reprint.printed or comparison.reprint.removed:
        lines.append("reprint")
        reprint = comparison.reprint
        if reprint.printed:
            lines.append(f"  print {plural(reprint.cards_printed, 'card')}: "
                         + _listed([_printed(entry) for entry in reprint.printed], ALL_IN_JSON))
        if reprint.removed:
            lines.append(f"  take out {plural(reprint.cards_removed, 'card')}: "
                         + _listed([_removed(entry) for entry in reprint.removed], ALL_IN_JSON))
    return [printable(line) for line in lines]  # names from the files (fields, elements) too


def _heading(comparison: Comparison) -> str:
    old, new = comparison.old, comparison.new
    return f"deck {new.deck}: {_side(old)} -> {_side(new)}"


def _side(side: SideSummary) -> str:
    return f"{side.name} (version {side.version})" if side.version else side.name


def _card_lines(change: CardChange) -> list[str]:
    where = _at(change.position)
    if change.status == "added":
        return [f"{where}{change.card}: added, {plural(change.new_count, 'copy', 'copies')}"]
    if change.status == "removed":
        return [f"{where}{change.card}: removed, {plural(change.old_count, 'copy', 'copies')}"]
    lines = [f"{_at(field.position)}{change.card}: {change_text(field.what, field.old, field.new)}"
             for field in change.fields]
    if change.recounted:
        lines.append(f"{_at(change.count_position)}{change.card}: {change.old_count} -> "
                     f"{plural(change.new_count, 'copy', 'copies')}")
    return lines


def _grouped(cards: Iterable[CardChange]) -> dict[tuple[tuple[str, ...], tuple[Cause, ...]], list[CardChange]]:
    """Faces that print differently for the same reasons, together, in card order: by the
    sides of a card they are (front, back, or both) and their causes. Every face of a card
    both sides have is here, whether or not the card changed too (a count, a field), with
    its causes but the card's own fields, which the card's lines already give: a face
    those alone explain is left to them."""
    groups: dict[tuple[tuple[str, ...], tuple[Cause, ...]], list[CardChange]] = {}
    for change in cards:
        if change.status in ("added", "removed"):
            continue
        sides: dict[tuple[Cause, ...], list[str]] = {}
        for face in change.faces:
            causes = tuple(cause for cause in face.causes if not (cause.kind == "card" and cause.what == OWN_FIELDS))
            if causes:
                sides.setdefault(causes, []).append(face.side)
        for causes, named in sides.items():
            groups.setdefault((tuple(named), causes), []).append(change)
    return groups


def sides_text(sides: tuple[str, ...], cards: int) -> str:
    """"front", "backs", "front and back", "fronts and backs" of ``cards`` cards."""
    return " and ".join(side if cards == 1 else f"{side}s" for side in sides)


def _faces(sides: tuple[str, ...], cards: list[CardChange]) -> str:
    names = [change.card for change in cards]
    if len(names) == 1:
        return f"{sides_text(sides, 1)} of {names[0]}"
    return f"{sides_text(sides, len(names))} of {len(names)} cards ({_listed(names)})"


def _listed(names: list[str], hint: str = "") -> str:
    """``names`` joined, the first :data:`LISTED_CARDS` of them and how many more (then ``hint``)."""
    more = len(names) - LISTED_CARDS
    return ", ".join(names[:LISTED_CARDS]) + (f" and {more} more{hint}" if more > 0 else "")


def _rule_text(rule: RuleChange) -> str:
    if rule.edited_from is not None:
        was = "" if rule.edited_from == rule.rule else f" from {rule.edited_from}"
        state = (f"edited{was}, still {rule.new}" if rule.old == rule.new
                 else f"edited{was}, now {rule.new} (it {_verb(rule.old or '')})")
    elif rule.old is None:
        state = f"new rule, {rule.new}"
    elif rule.new is None:
        state = f"rule removed (it {_verb(rule.old)})"
    elif rule.old == rule.new:
        state = f"still {rule.new}, differently"
    else:
        state = f"now {rule.new} (it {_verb(rule.old)})"
    detail = f": {rule.detail}" if rule.detail and rule.new != "passes" else ""
    return f"{rule.rule}: {state}{detail}"


def _verb(status: str) -> str:
    return {"passes": "passed", "fails": "failed", "cannot run": "could not run"}.get(status, status)


def _question(answer: OddsAnswer) -> str:
    where = f"[decklist {answer.decklist}] " if answer.decklist else ""
    return f"{where}{answer.question}"


def _answers(answer: OddsAnswer) -> str:
    old, new = chance_texts(answer.old, answer.new)
    old = old if answer.old is not None else f"({answer.old_problem})"
    new = new if answer.new is not None else f"({answer.new_problem})"
    return f"{old} -> {new}" if answer.changed else f"{new} (unchanged)"


def chance_texts(old: Fraction | None, new: Fraction | None) -> tuple[str, str]:
    """Two chances as percentages, with one decimal, or as many more as tell them apart."""
    digits = 1
    while True:
        texts = tuple("" if chance is None else percent(chance, digits) for chance in (old, new))
        if old is None or new is None or old == new or texts[0] != texts[1] or digits >= MAX_DIGITS:
            return texts[0], texts[1]
        digits += 1


def _printed(entry: Printed) -> str:
    copies = entry.copies
    if entry.why == "more copies":
        which = f"copy {copies[0]}" if len(copies) == 1 else f"copies {copies[0]}-{copies[-1]}"
        return f"{entry.card} {which} ({entry.why})"
    return f"{entry.card} x{len(copies)} ({entry.why})"


def _removed(entry: Removed) -> str:
    return f"{entry.card} x{entry.copies} ({entry.why})"


def shown_path(path: Path | str) -> str:
    """A path as a report shows it: from the working directory when it lies inside it."""
    text = str(path)
    if not os.path.isabs(text):
        return text
    relative = os.path.relpath(text)
    return text if relative.startswith("..") else relative


def _at(position: Position | None) -> str:
    """``path:line:column: `` for the start of a report line (nothing without a position)."""
    if position is None:
        return ""
    shown = Position(Path(shown_path(position.path)), position.line, position.column)
    return f"{shown}: "


# --- JSON ----------------------------------------------------------------------------


def as_dict(comparison: Comparison) -> dict[str, Any]:
    """The comparison for tools: every card, face and cause, nothing shortened."""
    return {
        "old": _side_dict(comparison.old),
        "new": _side_dict(comparison.new),
        "changed": comparison.changed,
        "deck": [_change_dict(change) for change in comparison.deck],
        "cards": [_card_dict(change) for change in comparison.cards],
        "rules": [{"rule": rule.rule, "old": rule.old, "new": rule.new, "detail": rule.detail,
                   "edited_from": rule.edited_from, **_place(rule.position)} for rule in comparison.rules],
        "odds": [{"question": answer.question, "decklist": answer.decklist, "changed": answer.changed,
                  "old": _chance(answer.old), "new": _chance(answer.new),
                  "old_problem": answer.old_problem if answer.old is None else None,
                  "new_problem": answer.new_problem if answer.new is None else None,
                  **_place(answer.position)} for answer in comparison.odds],
        "stats_problems": list(comparison.stats_problems),
        "reprint": {
            "print": [{"card": entry.card, "title": entry.title, "copies": list(entry.copies), "why": entry.why}
                      for entry in comparison.reprint.printed],
            "remove": [{"card": entry.card, "title": entry.title, "copies": entry.copies, "why": entry.why}
                       for entry in comparison.reprint.removed],
            "cards_printed": comparison.reprint.cards_printed,
            "cards_removed": comparison.reprint.cards_removed,
        },
    }


def _side_dict(side: SideSummary) -> dict[str, Any]:
    return {"name": side.name, "deck": side.deck, "title": side.title, "version": side.version,
            "cards": side.cards, "file": shown_path(side.path)}


def _place(position: Position | None) -> dict[str, Any]:
    if position is None:
        return {"file": None, "line": None, "column": None}
    return {"file": shown_path(position.path), "line": position.line or None, "column": position.column or None}


def _plain(value: Any) -> Any:
    """A deck value as JSON holds it (a date as its ISO text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return str(value)


def _change_dict(change: Change) -> dict[str, Any]:
    return {"what": change.what, "old": _plain(change.old), "new": _plain(change.new), **_place(change.position)}


def _card_dict(change: CardChange) -> dict[str, Any]:
    return {
        "card": change.card, "title": change.title, "status": change.status,
        "count": {"old": change.old_count, "new": change.new_count},
        **_place(change.position),
        "fields": [_change_dict(field) for field in change.fields],
        "faces": [{"side": face.side, "causes": [{"kind": cause.kind, "what": cause.what, "element": cause.element,
                                                  **_place(cause.position)} for cause in face.causes]}
                  for face in change.faces],
    }


def _chance(chance: Fraction | None) -> dict[str, Any] | None:
    if chance is None:
        return None
    return {"percent": round(float(chance) * 100, 6), "exact": f"{chance.numerator}/{chance.denominator}"}


# --- Markdown --------------------------------------------------------------------------

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]{}<>#|!~])")


def md(text: Any) -> str:
    """A value as Markdown text: control characters escaped, formatting characters backslashed."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", printable(str(text)))


def markdown_lines(comparison: Comparison) -> list[str]:
    """The comparison as a changelog for playtesters: titles rather than ids, odds as a table,
    and what to take out of the printed box and what the new sheets add."""
    old, new = comparison.old, comparison.new
    lines = [f"## {md(new.title)}: {md(_side(old))} → {md(_side(new))}", ""]
    if not comparison.changed:
        return lines + ["Nothing prints or plays differently.", ""]
    if comparison.deck:
        lines += ["### The deck", ""]
        lines += [f"- {md(change.what)}: {md(short(change.old))} → {md(short(change.new))}"
                  for change in comparison.deck]
        lines.append("")
    changed = [change for change in comparison.cards if change.status != "redrawn"]
    if changed:
        lines += ["### Cards", ""]
        lines += [_card_markdown(change) for change in changed]
        lines.append("")
    redrawn = _grouped(comparison.cards)
    if redrawn:
        lines += ["### Redrawn", ""]
        for (sides, causes), cards in redrawn.items():
            shown = _listed([md(change.title or change.card) for change in cards])
            lines.append(f"- {sides_text(sides, len(cards)).capitalize()} of {shown}: "
                         + "; ".join(_arrowed(md(cause.what)) for cause in causes))
        lines.append("")
    if comparison.rules:
        lines += ["### Composition rules", ""]
        lines += [f"- {md(_rule_text(rule))}" for rule in comparison.rules]
        lines.append("")
    if comparison.odds:
        lines += ["### Odds", "", "| question | before | after |", "| --- | ---: | ---: |"]
        for answer in comparison.odds:
            before, after = chance_texts(answer.old, answer.new)
            lines.append(f"| {md(_question(answer))} | {md(before or answer.old_problem or '')} | "
                         f"{md(after or answer.new_problem or '')} |")
        lines.append("")
    reprint = comparison.reprint
    if reprint.printed or reprint.removed:
        lines += ["### Updating a printed copy", ""]
        if reprint.removed:
            lines.append(f"Take out {plural(reprint.cards_removed, 'card')}:")
            lines += [f"- {entry.copies} × {md(entry.title or entry.card)} ({_why(entry.why)})"
                      for entry in reprint.removed]
            lines.append("")
        if reprint.printed:
            lines.append(f"Add {plural(reprint.cards_printed, 'card')} from the new sheets:")
            lines += [f"- {len(entry.copies)} × {md(entry.title or entry.card)} ({_why(entry.why)})"
                      for entry in reprint.printed]
            lines.append("")
    return [printable(line) for line in lines]


def _arrowed(text: str) -> str:
    """``old -\\> new`` as a changelog writes it, ``old → new``."""
    return text.replace(" -\\> ", " → ")


def _card_markdown(change: CardChange) -> str:
    title = f"**{md(change.title or change.card)}**"
    if change.status == "added":
        return f"- {title}: new, {plural(change.new_count, 'copy', 'copies')}"
    if change.status == "removed":
        return f"- ~~{md(change.title or change.card)}~~: removed ({plural(change.old_count, 'copy', 'copies')})"
    parts = [f"{md(field.what)}: {md(short(field.old))} → {md(short(field.new))}" for field in change.fields]
    if change.recounted:
        parts.append(f"{change.old_count} → {plural(change.new_count, 'copy', 'copies')}")
    return f"- {title}: " + "; ".join(parts)


def _why(why: str) -> str:
    return {"removed": "no longer in the deck", "stale": "the old printing", "surplus": "fewer copies now",
            "new": "new card", "redrawn": "reprinted", "more copies": "more copies now"}.get(why, why)
