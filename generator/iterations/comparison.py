"""Two iterations of a deck compared: cards, counts, faces, rules and odds.

:func:`compare` takes two :class:`~generator.iterations.sides.Side` values (the older
first) and returns a :class:`Comparison`, everything a report or a reprint needs:

- the deck's own settings that changed (its name, its shared back, its decklists);
- in card order, each card added, removed or changed: every field ``old -> new`` with
  the line of the newer file that says it, and its count;
- each face that now prints differently, with why: the card's own fields, or, for a
  card that did not change, the layout element (and the setting of it) that draws
  differently, or the art, icon or font file that changed under it. Faces are
  compared by what they draw (see :mod:`generator.iterations.drawing`), with the
  same version stamp on both sides, so a new version alone changes no face;
- the composition rules that now pass, now fail, or fail differently;
- the deck's ``stats:`` questions with their old and new answers;
- the :class:`Reprint`: which copies the next print run adds, and which printed copies
  to take out (cards removed, copies that now print differently, copies past a
  count that went down).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from generator.deck.model import Card, Deck
from generator.errors import DeckpressError, Position, printable, value_text
from generator.iterations.drawing import Canon, ElementDrawing, FaceDrawing, Resource
from generator.iterations.sides import Answer, RuleOutcome, Side
from generator.render.layout import KINDS, RawElement, RawLayout, Value
from generator.render.renderer import SIDES

DECK_SETTINGS = ("name", "designer", "players", "layout", "title_field", "card_size", "description")
"""The ``deck:`` settings a comparison reports (the version is the comparison's heading)."""

LAYOUT_SECTIONS = ("settings", "defaults", "colours", "styles")
"""The parts of a layout besides its elements, as :class:`~generator.render.layout.RawLayout` keeps them."""


@dataclass(repr=False, eq=False)
class Change:
    """One value that differs: ``what: old -> new``, where the newer files say it (or where
    the older ones did, for a value that is gone)."""

    what: str
    old: Any
    new: Any
    position: Position | None
    side: str = ""
    """For a field of a card: the side it is on ("front", or "back" for the card's own back)."""
    name: str = ""
    """For a field of a card: its name on that side (``name`` for the card's own ``back name``)."""
    setting: tuple[str, ...] = ()
    """For a deck's setting: where its deck file keeps it (``("deck", "name")``,
    ``("back", "title")``, ``("decklists", "duel")``), which tells how to undo it."""


@dataclass(frozen=True)
class Cause:
    """Why a face prints differently."""

    kind: str
    """"card" (its own fields), "deck" (a deck setting, its shared back), "setting" (of a
    layout element or of the layout), "element" (drawn differently, no setting of its own
    changed), "file", "font", "icon", "layout" (another layout) or "problem" (it can, or no
    longer can, be laid out)."""
    what: str
    """The cause in words: ``element 'kind' size: 6.5 -> 7``, ``art/mask.png changed``."""
    position: Position | None
    element: str | None = None
    """The layout element it concerns, when it concerns one."""
    brief: str | None = None
    """The cause in a few words, for a face's tile, where ``what`` says more: the layout element
    or the setting that changed, without its values (``layout element 'kind' changed``)."""


@dataclass(repr=False, eq=False)
class FaceChange:
    """One face of a card that prints differently, and why."""

    side: str
    causes: tuple[Cause, ...]


@dataclass(repr=False, eq=False)
class CardChange:
    """One card that is new, gone, or different."""

    card: str
    title: str
    """The card's title as the newer deck prints it (the older one's, for a removed card)."""
    status: str
    """"added", "removed", "changed" (its fields or count) or "redrawn" (only how it is drawn)."""
    old_count: int
    new_count: int
    position: Position | None
    fields: tuple[Change, ...] = ()
    faces: tuple[FaceChange, ...] = ()
    """The faces that print differently. For an added card, its back when the deck's shared
    back draws it otherwise than the older deck's did (see :func:`_new_card_backs`)."""
    count_position: Position | None = None
    """Where the newer deck file gives the count (the card's line when it leaves it out)."""
    old_title: str | None = None
    """The title the older deck printed, where it differs: the printed copies show it."""

    @property
    def recounted(self) -> bool:
        return self.status not in ("added", "removed") and self.old_count != self.new_count


@dataclass(repr=False, eq=False)
class RuleChange:
    """A composition rule whose outcome changed (or that is new, or gone)."""

    rule: str
    old: str | None
    """"passes", "fails", "cannot run", or None for a rule the older deck does not have."""
    new: str | None
    detail: str
    """What the newer outcome says (the older one's, for a rule that now passes or is gone)."""
    position: Position | None
    edited_from: str | None = None
    """The older rule this one was edited from (at its place in the list, of its kind), as a
    reader knows it; None for a rule written the same on both sides, new or gone."""


@dataclass(repr=False, eq=False)
class OddsAnswer:
    """One ``stats:`` question with its old and new answer (None where a side does not ask it)."""

    question: str
    decklist: str | None
    old: Fraction | None
    new: Fraction | None
    old_problem: str | None
    new_problem: str | None
    position: Position | None

    @property
    def changed(self) -> bool:
        return (self.old, self.old_problem) != (self.new, self.new_problem)


@dataclass(repr=False, eq=False)
class Printed:
    """Copies of one card the next print run makes: ``copies`` are their numbers in the newer
    deck (as a build's manifest counts them), ``why`` "new", "redrawn" or "more copies"."""

    card: str
    title: str
    copies: tuple[int, ...]
    why: str


@dataclass(repr=False, eq=False)
class Removed:
    """Printed copies of one card to take out of the box: ``why`` "removed" (the card is gone),
    "stale" (it now prints differently; its new copies replace them) or "surplus" (its
    count went down)."""

    card: str
    title: str
    copies: int
    why: str


@dataclass(repr=False, eq=False)
class Reprint:
    """What turns a printed copy of the older deck into the newer one."""

    printed: tuple[Printed, ...] = ()
    removed: tuple[Removed, ...] = ()

    @property
    def cards_printed(self) -> int:
        return sum(len(entry.copies) for entry in self.printed)

    @property
    def cards_removed(self) -> int:
        return sum(entry.copies for entry in self.removed)

    def copies(self) -> dict[str, tuple[int, ...]]:
        """Card id -> the copies to print, for selecting a build's placements."""
        return {entry.card: entry.copies for entry in self.printed}


@dataclass(repr=False, eq=False)
class SideSummary:
    """What a report says of each side in its heading."""

    name: str
    deck: str
    title: str
    version: str | None
    cards: int
    path: str


@dataclass(repr=False, eq=False)
class Comparison:
    """Everything that differs between two iterations of a deck (see the module docstring)."""

    old: SideSummary
    new: SideSummary
    deck: tuple[Change, ...]
    cards: tuple[CardChange, ...]
    rules: tuple[RuleChange, ...]
    odds: tuple[OddsAnswer, ...]
    reprint: Reprint
    stats_problems: tuple[str, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """Whether anything the players would notice differs (the version alone does not)."""
        return bool(self.deck or self.cards or self.rules or any(answer.changed for answer in self.odds))


def compare(old: Side, new: Side, advance: Callable[[], None] | None = None) -> Comparison:
    """What differs from ``old`` to ``new``; ``advance`` is called once a card compared (for a
    progress bar of :func:`cards_to_compare` steps)."""
    deck_changes = tuple(_deck_changes(old, new))
    cards = tuple(_card_changes(old, new, deck_changes, advance or (lambda: None)))
    return Comparison(
        old=_summary(old), new=_summary(new), deck=deck_changes, cards=cards,
        rules=tuple(_rule_changes(old, new)), odds=tuple(_odds(old, new)),
        reprint=reprint_of(cards),
        stats_problems=tuple(problem for problem in (old.stats_problem, new.stats_problem) if problem))


def _summary(side: Side) -> SideSummary:
    deck = side.deck
    return SideSummary(side.name, deck.id, deck.name, deck.version, deck.total,
                       side.source.label(deck.source.path))


# --- the deck's own settings ---------------------------------------------------------


def _deck_changes(old: Side, new: Side) -> Iterable[Change]:
    before, after = old.deck, new.deck
    for name in DECK_SETTINGS:
        was, now = _setting(before, name), _setting(after, name)
        if was != now:
            yield Change(f"deck {name}", was, now, _at(new, old, ("deck", name), name in after.info),
                         setting=("deck", name))
    shared_before, shared_after = before.shared_back or {}, after.shared_back or {}
    for name in _names(shared_before, shared_after):
        if shared_before.get(name) != shared_after.get(name):
            yield Change(f"back {name}", shared_before.get(name), shared_after.get(name),
                         _at(new, old, ("back", name), name in shared_after), setting=("back", name))
    yield from _decklist_changes(old, new)


def _setting(deck: Deck, name: str) -> Any:
    if name == "name":
        return deck.name
    if name == "players":
        return list(deck.players)
    if name == "layout":
        return dict(deck.layout)
    if name == "title_field":
        return deck.title_field
    return deck.info.get(name)


def _decklist_changes(old: Side, new: Side) -> Iterable[Change]:
    before = {decklist.id: decklist for decklist in old.deck.decklists}
    after = {decklist.id: decklist for decklist in new.deck.decklists}
    for list_id in _names(before, after):
        was, now = before.get(list_id), after.get(list_id)
        if now is None:
            assert was is not None  # the id came from one of them
            yield Change(f"decklist '{list_id}'", f"{sum(was.counts.values())} cards", "absent",
                         old.where(was.position), setting=("decklists", list_id))
            continue
        if was is None:
            yield Change(f"decklist '{list_id}'", "absent", f"{sum(now.counts.values())} cards",
                         new.where(now.position), setting=("decklists", list_id))
            continue
        for card_id in _names(was.counts, now.counts):
            if was.counts.get(card_id, 0) != now.counts.get(card_id, 0):
                keys = ("decklists", list_id, "cards", card_id)
                yield Change(f"decklist '{list_id}' {card_id}", was.counts.get(card_id, 0),
                             now.counts.get(card_id, 0), _at(new, old, keys, card_id in now.counts),
                             setting=("decklists", list_id))


def _at(new: Side, old: Side, keys: tuple[Any, ...], in_new: bool) -> Position | None:
    """Where the newer deck file says ``keys`` (where the older one did, when it is gone)."""
    side = new if in_new else old
    return side.where(side.deck.source.at(*keys))


def _names(*mappings: Iterable[Any]) -> list[Any]:
    """The keys of ``mappings``, each once, in the order they first come."""
    return list(dict.fromkeys(key for mapping in mappings for key in mapping))


# --- cards ---------------------------------------------------------------------------


def in_card_order(old_ids: Sequence[str], new_ids: Sequence[str]) -> list[str]:
    """Every card id, in the newer deck's order; a removed card comes right after the card
    it followed in the older deck."""
    kept = set(new_ids)
    after: dict[str | None, list[str]] = {}
    previous: str | None = None
    for card_id in old_ids:
        if card_id in kept:
            previous = card_id
        else:
            after.setdefault(previous, []).append(card_id)
    order = list(after.get(None, []))
    for card_id in new_ids:
        order.append(card_id)
        order.extend(after.get(card_id, []))
    return order


def cards_to_compare(old: Side, new: Side) -> int:
    """How many cards :func:`compare` compares (every card of either side, once)."""
    return len({card.id for card in old.deck.cards} | {card.id for card in new.deck.cards})


def _card_changes(old: Side, new: Side, deck_changes: tuple[Change, ...],
                  advance: Callable[[], None]) -> Iterable[CardChange]:
    before = {card.id: (index, card) for index, card in enumerate(old.deck.cards)}
    after = {card.id: (index, card) for index, card in enumerate(new.deck.cards)}
    layouts = {side: _layout_changes(old, new, side) for side in SIDES}
    undoing = _DeckUndoing(old, new, deck_changes)
    for card_id in in_card_order(list(before), list(after)):
        advance()
        if card_id not in after:
            index, card = before[card_id]
            yield CardChange(card_id, old.deck.title(card.fields), "removed", card.count, 0,
                             old.where(card.position))
            continue
        index, card = after[card_id]
        if card_id not in before:
            yield CardChange(card_id, new.deck.title(card.fields), "added", 0, card.count,
                             new.where(card.position), faces=_new_card_backs(old, new, card, layouts["back"], undoing))
            continue
        old_index, was = before[card_id]
        fields = tuple(_field_changes(old, new, old_index, was, index, card))
        faces = tuple(face for face in (_face_change(old, new, was, card, side, layouts[side], undoing)
                                        for side in SIDES) if face is not None)
        status = "changed" if fields or was.count != card.count else "redrawn" if faces else ""
        if status:
            title, old_title = new.deck.title(card.fields), old.deck.title(was.fields)
            yield CardChange(card_id, title, status, was.count, card.count,
                             new.where(card.position), fields, faces,
                             new.where(new.deck.source.at("cards", index, "count")),
                             old_title if old_title != title else None)


def _field_changes(old: Side, new: Side, old_index: int, was: Card, index: int, card: Card) -> Iterable[Change]:
    """Each field of the card's front, then of its own back (``back name``), that differs."""
    faces: list[tuple[str, tuple[str, ...], dict[str, Any], dict[str, Any]]] = [("front", (), was.fields, card.fields)]
    if was.back is not None or card.back is not None:
        faces.append(("back", ("back",), was.back or {}, card.back or {}))
    for face, keys, before, after in faces:
        for name in _names(before, after):
            if before.get(name) != after.get(name):
                written = name in after
                side, at = (new, index) if written else (old, old_index)
                yield Change(" ".join((*keys, name)), before.get(name), after.get(name),
                             side.where(side.deck.source.at("cards", at, *keys, name)), face, name)


OWN_FIELDS = "its own fields"


def _own_change(was: Card, card: Card, side: str) -> str | None:
    """What the card itself gives this face that differs: its fields (its own back's, for a
    back), or its count; None when neither does (a shared back is the deck's)."""
    if (was.fields != card.fields) if side == "front" else (was.back != card.back):
        return OWN_FIELDS
    if was.count != card.count:
        return "its count"
    return None


def _face_change(old: Side, new: Side, was: Card, card: Card, side: str, layout: _LayoutChanges,
                 undoing: _DeckUndoing) -> FaceChange | None:
    """How one face of a card both decks have now prints differently, or None if it does not
    (``was`` is the card in the older deck; a new card's shared back passes itself as both)."""
    with old.reading():
        before = old.canon.face(was, side)
    with new.reading():
        after = new.canon.face(card, side)
    if before == after:
        return None
    own = _own_change(was, card, side)
    face = _Face(old, new, was, card, side)
    causes = tuple(_causes(before, after, face, layout, undoing, card_explains=own == OWN_FIELDS))
    if own == OWN_FIELDS:
        # The card's fields explain what its own values draw; a setting of an element that
        # drew differently, or a file, that changed as well is named beside them.
        return FaceChange(side, (Cause("card", own, new.where(card.position)), *causes))
    if own is not None and all(cause.kind == "element" for cause in causes):
        # Only the count changed, and no setting or file explains the new drawing: the face prints it.
        causes = (Cause("card", own, new.where(card.position)),)
    return FaceChange(side, causes)


def _new_card_backs(old: Side, new: Side, card: Card, layout: _LayoutChanges,
                    undoing: _DeckUndoing) -> tuple[FaceChange, ...]:
    """The back of a new card that prints the deck's shared back, when the older deck would
    draw that back otherwise: a back that reads the card (its id, its count) or a layout that
    changed under every back. Such a back is not one the printed box already holds. A new
    card's own back is new anyway, and not compared."""
    if card.back is not None:
        return ()
    change = _face_change(old, new, card, card, "back", layout, undoing)  # the same card: only the decks differ
    return () if change is None else (change,)


# --- why a face prints differently ---------------------------------------------------


@dataclass(repr=False, eq=False)
class _LayoutChanges:
    """What differs between the two layouts of one side of the cards, as written."""

    elements: dict[str, tuple[Cause, ...]]
    """By element name, its settings that changed (or that it is new, or gone), but ``when:``."""
    general: tuple[Cause, ...]
    """Settings of the layout as a whole (size, defaults, colours, styles) that changed."""
    conditions: dict[str, tuple[Cause, ...]] = field(default_factory=dict)
    """By element name, its ``when:`` that changed: a cause only for a face where it now
    holds and did not, or did and no longer does (see :func:`_element_causes`)."""


def _layout_changes(old: Side, new: Side, side: str) -> _LayoutChanges:
    before, after = old.layouts[side], new.layouts[side]
    general = []
    for section in LAYOUT_SECTIONS:
        was: dict[str, Value] = getattr(before, section)
        now: dict[str, Value] = getattr(after, section)
        for key in _names(was, now):
            if _written(was.get(key)) != _written(now.get(key)):
                label = key if section == "settings" else f"{section}.{key}"
                general.extend(_setting_causes(f"layout '{after.name}' {label}", was.get(key), now.get(key),
                                               old, new))
    old_elements, new_elements = _by_name(before), _by_name(after)
    elements: dict[str, tuple[Cause, ...]] = {}
    conditions: dict[str, tuple[Cause, ...]] = {}
    for name in _names(old_elements, new_elements):
        was_element, now_element = old_elements.get(name), new_elements.get(name)
        if was_element is None or now_element is None:
            shown = now_element or was_element
            assert shown is not None  # the name came from one of them
            where = (new if now_element else old).where(shown.position)
            what = f"element '{name}' {'added' if now_element else 'removed'}"
            elements[name] = (Cause("setting", what, where, name, f"layout {what}"),)
            continue
        changed = [key for key in _names(was_element.values, now_element.values)
                   if _written(was_element.values.get(key)) != _written(now_element.values.get(key))]
        for key in changed:
            found = conditions if key == "when" else elements
            found[name] = (*found.get(name, ()), *_setting_causes(
                f"element '{name}' {key}", was_element.values.get(key), now_element.values.get(key), old, new, name))
    return _LayoutChanges(elements, tuple(general), conditions)


def _by_name(layout: RawLayout) -> dict[str, RawElement]:
    """A layout's elements by the names compiling gives them (``text-3`` for an unnamed one)."""
    named = {}
    for index, element in enumerate(layout.elements):
        kind = next((kind for kind in KINDS if kind in element.values), "element")
        named[element.name or f"{kind}-{index + 1}"] = element
    return named


def _written(value: Value | None) -> Any:
    return None if value is None else (repr(value.data), value.units)


def _setting_causes(what: str, was: Value | None, now: Value | None, old: Side, new: Side,
                    element: str | None = None) -> list[Cause]:
    """A layout setting that changed, at its line: each value inside it that differs, for a
    mapping (``colours.accent map.monster: "#c62f2a" -> "#b02020"``)."""
    position = new.where(now.position) if now is not None else old.where(was.position) if was is not None else None
    return [Cause("setting", change_text(f"{what}{inner}", before, after), position, element,
                  f"layout element '{element}' changed" if element else f"{what}{inner} changed")
            for inner, before, after in _differences(was.data if was else None, now.data if now else None)]


def _differences(before: Any, after: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Where two values written in a layout differ: (``.key.key`` inside mappings, old, new)."""
    if isinstance(before, dict) and isinstance(after, dict):
        return [found for key in _names(before, after) if repr(before.get(key)) != repr(after.get(key))
                for found in _differences(before.get(key), after.get(key), f"{path}.{key}" if path else f" {key}")]
    return [(path, before, after)]


def _causes(before: FaceDrawing, after: FaceDrawing, face: _Face, layout: _LayoutChanges,
            undoing: _DeckUndoing, card_explains: bool = False) -> Iterable[Cause]:
    """Why a face prints differently, most precise first. With ``card_explains`` (the card's
    own fields changed) an element that draws differently is not blamed on the layout's or
    the deck's settings at large: only its own settings and the files it draws from."""
    side, new = face.side, face.new
    if before.problem != after.problem:
        what = f"it can no longer be laid out: {after.problem}" if after.problem else \
            f"it can be laid out again (it could not: {before.problem})"
        yield Cause("problem", what, new.where(Position(new.renderer.layouts[side].path)))
        return
    if before.layout != after.layout:
        yield Cause("layout", f"layout '{before.layout}' -> '{after.layout}'",
                    new.where(new.deck.source.at("deck", "layout")))
        return
    if before.size != after.size:
        yield from layout.general or (Cause("layout", f"layout '{after.layout}' size", None),)
        return
    found: dict[Cause, None] = {}
    old_elements, new_elements = _drawn_by_element(before), _drawn_by_element(after)
    for name in _names(old_elements, new_elements):
        was, now = old_elements.get(name, ()), new_elements.get(name, ())
        if was == now:
            continue
        changed = _changed_resources(was, now)
        for resource in changed:
            found[_resource_cause(resource)] = None
        if [element.shape for element in was] != [element.shape for element in now]:
            # A font or file that changed moves what is drawn with it: no need to say more then.
            for cause in _element_causes(name, now, face, layout, undoing,
                                         explained=bool(changed) or card_explains):
                found[cause] = None
    yield from found


def _drawn_by_element(face: FaceDrawing) -> dict[str, tuple[ElementDrawing, ...]]:
    drawn: dict[str, list[ElementDrawing]] = {}
    for element in face.elements:
        drawn.setdefault(element.element, []).append(element)
    return {name: tuple(elements) for name, elements in drawn.items()}


def _changed_resources(was: tuple[ElementDrawing, ...], now: tuple[ElementDrawing, ...]) -> list[Resource]:
    """The resources of the newer drawing whose contents differ from the older one's of that name."""
    before = {(resource.kind, resource.name): resource.digest for element in was for resource in element.resources}
    return [resource for element in now for resource in element.resources
            if (resource.kind, resource.name) in before and before[resource.kind, resource.name] != resource.digest]


def _resource_cause(resource: Resource) -> Cause:
    if resource.kind == "icon" and resource.file:
        return Cause("icon", f"{resource.file} changed (icon '{resource.name}')", resource.position)
    if resource.kind == "icon":
        return Cause("icon", f"icon '{resource.name}' changed", resource.position)
    if resource.kind == "font":
        return Cause("font", f"font '{resource.name}' changed", resource.position)
    return Cause("file", f"{resource.name} changed", resource.position)


def _element_causes(name: str, now: tuple[ElementDrawing, ...], face: _Face, layout: _LayoutChanges,
                    undoing: _DeckUndoing, explained: bool = False) -> tuple[Cause, ...]:
    """The element's ``when:`` that changed, where it decides whether the element is drawn on
    this face (then nothing else of the element matters here); else the settings of the
    element that changed; else nothing more when a file it draws from changed
    (``explained``); else the layout's own settings; else the deck's settings that, undone,
    draw the element as it was drawn here (each one named only where it changes this face);
    else the element itself, where the newer layout has it."""
    side, new = face.side, face.new
    if name in layout.conditions and face.condition_turned(name):
        return layout.conditions[name]
    if name in layout.elements:
        return layout.elements[name]
    if explained:
        return ()
    if layout.general:
        return layout.general
    drawing = undoing.changes_drawing(face, name, now)
    if drawing:
        return tuple(Cause("deck", change_text(change.what, change.old, change.new), change.position,
                           brief=f"{change.what} changed") for change in drawing)
    element = new.renderer.layouts[side].element_named(name)
    return (Cause("element", f"element '{name}' draws differently",
                  new.where(element.position) if element is not None else None, name,
                  f"layout element '{name}' changed"),)


@dataclass(repr=False, eq=False)
class _Face:
    """One face of a card both sides have, as each side draws it."""

    old: Side
    new: Side
    was: Card
    card: Card
    side: str

    def condition_turned(self, name: str) -> bool:
        """Whether element ``name``'s ``when:`` holds on this face on one side only: its
        drawing then comes or goes with it. A ``when:`` rewritten that holds on both sides (or
        on neither) draws nothing differently here."""
        return self._holds(self.old, self.was, name) != self._holds(self.new, self.card, name)

    def _holds(self, side: Side, card: Card, name: str) -> bool | None:
        element = side.renderer.layouts[self.side].element_named(name)
        if element is None:
            return None
        if element.when is None:
            return True
        try:
            with side.reading():
                return bool(element.when.render(side.renderer.context(card, self.side)))
        except DeckpressError:  # a condition that cannot be evaluated: say it changed, not crash
            return None


MAX_DECK_CHANGES_UNDONE = 32
"""Deck settings a comparison undoes one by one to tell which of them a face draws; past
that (a deck rewritten at large), each face drawn differently names every one of them. Each
undone setting lays out the faces it may reach once more."""


class _DeckUndoing:
    """The newer deck with one of its changed settings undone at a time: a setting is named
    for a face only when undoing it draws the face's element as it was drawn before it changed
    (the deck's name changed, but the back prints the shared back's name: not the name's doing)."""

    def __init__(self, old: Side, new: Side, changes: tuple[Change, ...]) -> None:
        self.new = new
        self.changes = changes
        self.undos = [_undo(old.deck, change) for change in changes]
        self._canons: dict[int, Canon] = {}

    def changes_drawing(self, face: _Face, name: str, now: tuple[ElementDrawing, ...]) -> tuple[Change, ...]:
        """The deck's changes that, undone, draw element ``name`` on ``face`` otherwise than
        ``now`` (the newer drawing); none when no change alone does (the element is then named
        as drawing differently); every one past :data:`MAX_DECK_CHANGES_UNDONE`."""
        if len(self.changes) > MAX_DECK_CHANGES_UNDONE:
            return self.changes
        return tuple(change for index, change in enumerate(self.changes)
                     if self._undone_draws_otherwise(index, face, name, now))

    def _undone_draws_otherwise(self, index: int, face: _Face, name: str, now: tuple[ElementDrawing, ...]) -> bool:
        undo = self.undos[index]
        if undo is None:  # a setting that cannot be undone alone (the layout, the card size)
            return True
        canon = self._canons.get(index)
        if canon is None:
            renderer = self.new.renderer
            canon = self._canons[index] = Canon(renderer.sibling(deck=undo(renderer.deck)), self.new.source)
        with self.new.reading():
            undone = canon.face(face.card, face.side)
        return tuple(element for element in undone.elements if element.element == name) != now


def _undo(old: Deck, change: Change) -> Callable[[Deck], Deck] | None:
    """How to give a deck back the older value of ``change``, one of :func:`_deck_changes`;
    None for a setting that cannot be undone without reading the layouts again (the layout,
    the card size)."""
    part, key = (change.setting + ("", ""))[:2]
    if part == "decklists":
        return lambda deck: dataclasses.replace(deck, decklists=list(old.decklists))
    if part == "back":
        def back(deck: Deck) -> Deck:
            kept = {name: value for name, value in (deck.shared_back or {}).items() if name != key}
            if old.shared_back is not None and key in old.shared_back:
                kept[key] = old.shared_back[key]
            return dataclasses.replace(deck, shared_back=kept if kept or old.shared_back is not None else None)
        return back
    if part != "deck":
        return None
    if key in ("name", "players", "title_field"):
        return lambda deck: dataclasses.replace(deck, **{key: getattr(old, key)})
    if key in ("designer", "description"):
        def info(deck: Deck) -> Deck:
            kept = {name: value for name, value in deck.info.items() if name != key}
            return dataclasses.replace(deck, info={**kept, key: old.info[key]} if key in old.info else kept)
        return info
    return None


# --- rules and odds --------------------------------------------------------------------


def _rule_changes(old: Side, new: Side) -> Iterable[RuleChange]:
    """Each rule whose outcome changed, in the newer deck's order. A rule found in one side only
    is matched first with the other side's rule of its kind at its place in the list: the same
    rule, edited (its numbers, its selection, its message)."""
    edited = _edited_rules(old.rules, new.rules)
    became = {id(outcome) for outcome in edited.values()}  # older rules told as the newer they became
    for key in _names(new.rules, old.rules):
        was: RuleOutcome | None = old.rules.get(key) or edited.get(key)
        now: RuleOutcome | None = new.rules.get(key)
        if now is None and id(was) in became:
            continue
        if key not in edited and was is not None and now is not None \
                and (was.status, was.detail) == (now.status, now.detail):
            continue
        shown = now or was
        assert shown is not None  # the key came from one of them
        detail = now.detail if now is not None and now.detail else was.detail if was is not None else ""
        where = new.where(now.position) if now is not None else old.where(shown.position)
        yield RuleChange(shown.label, was.status if was else None, now.status if now else None, detail, where,
                         edited_from=was.label if key in edited and was is not None else None)


def _edited_rules(old: dict[str, RuleOutcome], new: dict[str, RuleOutcome]) -> dict[str, RuleOutcome]:
    """The newer side's rules (by key) not written the same in the older one, each with the
    older rule of its kind that stood at its place and is not in the newer one."""
    gone = {(outcome.kind, outcome.place): outcome for key, outcome in old.items() if key not in new}
    return {key: gone[outcome.kind, outcome.place] for key, outcome in new.items()
            if key not in old and (outcome.kind, outcome.place) in gone}


def _odds(old: Side, new: Side) -> Iterable[OddsAnswer]:
    for key in _names(new.answers, old.answers):
        was: Answer | None = old.answers.get(key)
        now: Answer | None = new.answers.get(key)
        shown = now or was
        assert shown is not None  # the key came from one of them
        yield OddsAnswer(shown.question, shown.decklist, was.chance if was else None, now.chance if now else None,
                         was.problem if was else "not asked", now.problem if now else "not asked",
                         new.where(now.position) if now is not None else old.where(shown.position))


# --- the reprint -----------------------------------------------------------------------


def reprint_of(cards: tuple[CardChange, ...]) -> Reprint:
    """What a reprint prints and takes out for these card changes (in card order): every copy
    of a card that is new or prints differently (its old copies out), the added copies of a
    card whose count went up, the surplus of one whose count went down."""
    printed: list[Printed] = []
    removed: list[Removed] = []
    for change in cards:
        if change.status == "added" and change.new_count:
            printed.append(Printed(change.card, change.title, tuple(range(1, change.new_count + 1)), "new"))
        elif change.status == "removed" and change.old_count:
            removed.append(Removed(change.card, change.title, change.old_count, "removed"))
        elif change.faces:
            if change.new_count:  # a card printed none of before is new to the box
                printed.append(Printed(change.card, change.title, tuple(range(1, change.new_count + 1)),
                                       "redrawn" if change.old_count else "new"))
            if change.old_count:  # taken out by the title the printed copies show
                removed.append(Removed(change.card, change.old_title or change.title, change.old_count,
                                       "stale" if change.new_count else "removed"))
        elif change.new_count > change.old_count:
            printed.append(Printed(change.card, change.title,
                                   tuple(range(change.old_count + 1, change.new_count + 1)), "more copies"))
        elif change.new_count < change.old_count:
            removed.append(Removed(change.card, change.old_title or change.title, change.old_count - change.new_count,
                                   "surplus" if change.new_count else "removed"))
    return Reprint(tuple(printed), tuple(removed))


# --- values in words -------------------------------------------------------------------

SHORT_TEXT = 60
"""Characters of a value shown in a one-line report; the JSON report has it whole."""


def short(value: Any) -> str:
    """A value as a one-line report shows it: text quoted, with control characters escaped
    (:func:`~generator.errors.printable`), cut to :data:`SHORT_TEXT` characters; nothing as "(none)"
    and a yes/no value as yes or no, as the stats tables write them."""
    text = printable(value_text(value))
    if len(text) > SHORT_TEXT:
        text = text[:SHORT_TEXT - 3] + "..."
    return f'"{text}"' if isinstance(value, str) else text


def change_text(what: str, old: Any, new: Any) -> str:
    """A change as every one-line report words it: ``what: old -> new``, each value :func:`short`."""
    return f"{what}: {short(old)} -> {short(new)}"
