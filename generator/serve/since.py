"""What ``serve --since REV`` marks: each face shown that prints differently since the
revision, each new card, each count that changed, and the cards that are gone.

The comparison itself is :mod:`generator.iterations` (the very one ``diff --since``
reports); this module only puts it on the faces the page shows. A face the page shows
once for several cards (a shared back, two cards drawn alike) is marked when any of
them changed on that side, with each reason once. Every text here comes from the
deck's files: the page shows it as text, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import Position, plural
from generator.iterations.comparison import CardChange, Comparison, FaceChange, change_text
from generator.iterations.following import Followed
from generator.serve.faces import FaceView

MAX_REASONS = 8
"""Reasons listed under one face; a face many changed cards share says how many more."""

MAX_DETAILS = 40
"""Changes listed in one face's detail view (each field, each layout setting at its line)."""

MAX_SUMMARY = 200
"""Characters of the one line the side panel gives a changed card; its face's detail view has it all."""

MAX_LISTED_CHANGES = 500
"""Changed and removed cards listed in the side panel; the rest are counted. A new layout
redraws every face of a large deck: the panel names the first, the grid marks them all."""

NEW = "new"
CHANGED = "changed"
RECOUNTED = "count"
"""The kinds of mark, strongest first: a new card; a face that prints differently; a card
printed as before, in another number of copies."""

@dataclass(frozen=True)
class Detail:
    """One change behind a mark, where the files say it."""

    what: str
    where: Position | None


@dataclass(frozen=True)
class FaceMark:
    """Why one face shown is marked."""

    kind: str
    """:data:`NEW`, :data:`CHANGED` or :data:`RECOUNTED`."""
    reasons: tuple[str, ...]
    """Short, for the face's tile: ``text changed``, ``count 2 -> 3``, ``new card``."""
    details: tuple[Detail, ...]
    """Each change, whole, for the detail view."""

    def as_dict(self, shown: Callable[[Path], str]) -> dict[str, Any]:
        """The mark as the page receives it; ``shown`` names a file as the page does."""
        return {"kind": self.kind, "reasons": list(self.reasons),
                "details": [{"what": detail.what, "where": where(detail.where, shown)} for detail in self.details]}


@dataclass(frozen=True)
class SinceView:
    """The marks of one state of the deck, and the comparison the next save may build on."""

    revision: str
    followed: Followed | None
    marks: dict[str, FaceMark] = field(default_factory=dict)
    """By the key of the face shown."""
    problem: str | None = None
    """Why the deck could not be compared now (the marks are then empty)."""

    def as_dict(self, shown: Callable[[Path], str]) -> dict[str, Any]:
        """The comparison as the side panel lists it: what changed, in card order, and what is gone."""
        comparison = self.followed.comparison if self.followed is not None else None
        cards = comparison.cards if comparison is not None else ()
        changed = [change for change in cards if change.status != "removed"
                   and (change.status == "added" or change.faces or change.recounted)]
        removed = [change for change in cards if change.status == "removed"]
        return {"revision": self.revision, "problem": self.problem, "faces": len(self.marks),
                "version": comparison.old.version if comparison is not None else None,
                "changed": [{"card": change.card, "title": change.title, "status": change.status,
                             "what": _summary(change)} for change in changed[:MAX_LISTED_CHANGES]],
                "removed": [{"card": change.card, "title": change.title, "count": change.old_count,
                             "where": where(change.position, shown)} for change in removed[:MAX_LISTED_CHANGES]],
                "changed_total": len(changed), "removed_total": len(removed)}


@dataclass(frozen=True)
class _Part:
    """What one card gives the mark of one of its faces."""

    card: str
    kind: str
    reasons: tuple[str, ...]
    details: tuple[Detail, ...]
    own_back: bool = False
    """A new card's back that marks the face only when the back is the card's own: a shared
    back the older deck draws the same way prints as the printed backs do."""


def since_view(revision: str, followed: Followed, faces: list[FaceView]) -> SinceView:
    """The marks of ``faces`` (the faces the page shows) from ``followed``'s comparison."""
    parts = _parts_by_card(followed.comparison)
    marks = {face.key: mark for face in faces if (mark := _face_mark(face, parts)) is not None}
    return SinceView(revision, followed, marks)


def _parts_by_card(comparison: Comparison) -> dict[tuple[str, str], _Part]:
    """(card id, side) -> what that face of the card says, for each card that changed."""
    parts: dict[tuple[str, str], _Part] = {}
    for change in comparison.cards:
        if change.status == "added":
            detail = Detail(_new_card(change), change.position)
            parts[change.card, "front"] = _Part(change.card, NEW, ("new card",), (detail,))
            parts[change.card, "back"] = _Part(change.card, NEW, ("new card",), (detail,), own_back=True)
            for face in change.faces:  # the shared back, drawn otherwise than the older deck's
                reasons, details = _face_reasons(change, face)
                parts[change.card, face.side] = _Part(change.card, NEW, ("new card", *reasons), (detail, *details))
            continue
        for face in change.faces:
            parts[change.card, face.side] = _Part(change.card, CHANGED, *_face_reasons(change, face))
        if change.recounted:
            count, detail = _recount(change)
            known = parts.get((change.card, "front"), _Part(change.card, RECOUNTED, (), ()))
            if count not in known.reasons:
                parts[change.card, "front"] = _Part(change.card, known.kind, (*known.reasons, count),
                                                    (*known.details, detail))
    return parts


def _face_reasons(change: CardChange, face: FaceChange) -> tuple[tuple[str, ...], tuple[Detail, ...]]:
    """Why one face of a card that both iterations have prints differently: the fields of
    that face that changed, or what the comparison names (a layout setting, a file), in a
    few words for the tile and whole for the detail view."""
    reasons: list[str] = []
    details: list[Detail] = []
    fields = [each for each in change.fields if each.side == face.side]
    for cause in face.causes:
        if cause.kind == "card" and fields:
            reasons.append(f"{', '.join(each.name for each in fields)} changed")
            details.extend(Detail(change_text(each.name, each.old, each.new), each.position) for each in fields)
        elif cause.kind == "card" and change.recounted:
            count, detail = _recount(change)
            reasons.append(count)
            details.append(detail)
        else:
            reasons.append(cause.brief or cause.what)
            details.append(Detail(cause.what, cause.position))
    return tuple(dict.fromkeys(reasons)), tuple(dict.fromkeys(details))


def _recount(change: CardChange) -> tuple[str, Detail]:
    """A count that changed: the reason a tile gives (``count 2 -> 3``), and its detail at the count's line."""
    count = f"count {change.old_count} -> {change.new_count}"
    return count, Detail(f"{count} copies", change.count_position or change.position)


def _new_card(change: CardChange) -> str:
    """A new card in full, for its detail view and the side panel: ``new card, 3 copies``."""
    return f"new card, {plural(change.new_count, 'copy', 'copies')}"


def _face_mark(face: FaceView, parts: dict[tuple[str, str], _Part]) -> FaceMark | None:
    """The mark of one face shown: of each of its cards that changed on that side. A new card
    marks a back when the back is its own, or when the deck's shared back draws it otherwise
    than the older deck drew its backs; a shared back that prints as the printed backs do
    is not new to the box."""
    shared = face.side == "back" and face.card.back is None
    mine = [parts.get((card.id, face.side)) for card in face.cards]
    older = [part for part in mine if not (shared and part is not None and part.own_back)]
    found = [part for part in older if part is not None]
    if not found:
        return None
    kinds = {part.kind for part in found}
    kind = next(kind for kind in (NEW, CHANGED, RECOUNTED) if kind in kinds)
    if kind == NEW and len(kinds) > 1:
        kind = CHANGED  # a new card drawn like one that changed: the face is not new to the box
    named = len(older) > 1 and len(found) < len(older)  # only some of the cards printing it changed
    reasons = list(dict.fromkeys(f"{part.card}: {reason}" if named else reason
                                 for part in found for reason in part.reasons))
    if len(reasons) > MAX_REASONS:
        reasons[MAX_REASONS - 1:] = [f"and {len(reasons) - MAX_REASONS + 1} more"]
    details = list(dict.fromkeys(detail for part in found for detail in part.details))[:MAX_DETAILS]
    return FaceMark(kind, tuple(reasons), tuple(details))


# --- what the page receives -----------------------------------------------------------------

def _summary(change: CardChange) -> str:
    """One line for a changed card in the side panel."""
    if change.status == "added":
        return _new_card(change)
    said = [f"{face.side}: {'; '.join(_face_reasons(change, face)[0])}" for face in change.faces]
    count = _recount(change)[0]
    if change.recounted and not any(count in line for line in said):
        said.append(count)
    line = "; ".join(said)
    return line if len(line) <= MAX_SUMMARY else line[:MAX_SUMMARY - 3] + "..."


def where(position: Position | None, shown: Callable[[Path], str]) -> str:
    """``path:line:column`` with the path as the page names files (``shown``), or ''. A file
    at the revision keeps its name (``HEAD:cards/game/deck.yaml``)."""
    if position is None:
        return ""
    return str(Position(Path(shown(position.path)), position.line, position.column))
