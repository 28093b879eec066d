"""Colour-blind safety: can players with a colour-vision deficiency tell a field's values apart?

Where a layout chooses a colour by a card's field (``accent: {field: colour,
map: {...}}``, or a template such as ``"{{ colour }}"``), the colour carries
meaning. For every pair of that field's values, the colours they get are
shown as protanopes, deuteranopes and tritanopes see them (Machado et al.
2009, full severity) and measured apart in CAM02-UCS; closer than
:data:`~generator.access.colours.DISTINCT_COLOURS` is a problem.

How the colours are found: every paint of every element drawn on a distinct
face is resolved there, so maps, defaults and templates all count exactly as
printed. A paint counts as *chosen by* a field when all faces sharing a value
of that field get one colour from it (a colour that also depends on another
field is not a map of either). Two values are told apart by the paint of the
face that separates them best, so a pair is only a problem when no coloured
element of the face tells them apart.

How a face is known to also say the value another way (the problem is then
reported as mitigated): a text element whose template reads the field, or an
icon element whose icon name the field chooses, is drawn on every face with
either value, and no text (or icon) it shows on a face of one value is shown
on a face of the other. A text that reads the field yet prints the same word
for both (``UNIT`` for heroes and monsters alike) tells nobody anything.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.colors import Color

from generator.access.colours import DEFICIENCIES, DISTINCT_COLOURS, RGB, hex_of, rgb_of
from generator.access.perception import distance
from generator.deck.model import Card
from generator.errors import Position
from generator.render.layout import Element, IconElement, TextElement
from generator.render.paint import Paint, PaintError
from generator.render.plan import BoundedMemo, Op
from generator.render.renderer import Renderer
from generator.render.templating import SPECIAL_NAMES, Template, TemplateError

MAX_CODE_COLOURS = 24
"""Different colours one map may give a field's values and still be checked pair by pair.
Nobody reads two dozen colours as a code (a card's own art colour, say), and comparing
every pair of hundreds of them would make check slow for nothing."""


@dataclass(repr=False, eq=False)
class ColourPairProblem:
    """Two values of a field (or two groups of values sharing their colours) whose colours
    look alike to players with ``deficiency``."""

    field: str
    values: tuple[tuple[Any, ...], tuple[Any, ...]]
    colours: tuple[RGB, RGB]
    deficiency: str
    distance: float
    colour: str  # the layout's name for the colour map ('' for one written in an element)
    element: str  # the first element painted with it
    position: Position  # where the colour map is written
    mitigation: str = ""  # how the face says the value otherwise, when it does

    @property
    def source(self) -> str:
        return f"colour '{self.colour}'" if self.colour else f"the colours of '{self.element}'"

    def describe(self) -> str:
        (one, two), (first, second) = ("/".join(map(str, group)) for group in self.values), self.colours
        text = (f"field '{self.field}': {one} ({hex_of(first)}) and {two} ({hex_of(second)}) are "
                f"{shown_distance(self.distance)} apart in CAM02-UCS as seen with {self.deficiency}, closer than "
                f"{DISTINCT_COLOURS:g} ({self.source})")
        if self.mitigation:
            return f"{text}; mitigated: {self.mitigation}"
        return f"{text}; nothing else on the card tells them apart"


def shown_distance(distance: float) -> str:
    """A distance below :data:`DISTINCT_COLOURS` to one decimal, rounded down where rounding would
    reach it: 9.96 reads 9.9, never "10.0 apart, closer than 10"."""
    shown = round(distance, 1)
    return f"{shown if shown < DISTINCT_COLOURS else math.floor(distance * 10) / 10:.1f}"


@dataclass(repr=False, eq=False)
class _FieldColours:
    """What the faces show for one field: its values' colours by paint, and other cues."""

    by_paint: dict[int, dict[Any, set[tuple[float, float, float]]]] = field(default_factory=dict)
    paints: dict[int, tuple[Paint, Element]] = field(default_factory=dict)  # the first element using it
    painting_areas: set[int] = field(default_factory=set)  # paints of shapes, lines and icons, not text
    faces: dict[Any, int] = field(default_factory=lambda: defaultdict(int))
    cues: dict[tuple[str, str], dict[Any, list[str]]] = field(default_factory=dict)
    """(CUE_TEXT or CUE_ICON, element) -> value -> what the element shows on each face with that value."""


CUE_TEXT, CUE_ICON = "text", "icon"
CUE_MITIGATIONS = {CUE_TEXT: "every such face prints {field} as text ('{element}')",
                   CUE_ICON: "every such face shows a different icon for each {field} ('{element}')"}
"""How a problem says which other cue tells the values apart."""


def colour_pair_problems(renderer: Renderer) -> list[ColourPairProblem]:
    """Every pair of a field's values whose colours a colour-blind player may confuse."""
    watch = ColourWatch(renderer)
    for card, side, ops in renderer.distinct_plans():
        watch.observe(card, side, ops)
    return watch.problems()


class _Resolver:
    """Colours and icon names for faces, each worked out once per combination of the
    values it reads: thousands of faces usually share a handful."""

    def __init__(self) -> None:
        self.known: dict[tuple, Any] = BoundedMemo()

    def colour(self, paint: Paint, context: dict) -> Color | None:
        return self._once(("paint", id(paint)), paint.names, context, lambda: _resolve(paint, context))

    def shown(self, template: Template, context: dict) -> str | None:
        """What a text or icon template shows on a face (None when it cannot be made)."""
        return self._once(("shown", id(template)), template.names, context,
                          lambda: _render_shown(template, context))

    def _once(self, what: tuple, names: frozenset[str], context: dict, work) -> Any:
        try:
            key = what + tuple(sorted((name, context.get(name)) for name in names))
            hash(key)
        except TypeError:  # a value that cannot be a key (a list): work it out each time
            return work()
        if key not in self.known:
            self.known[key] = work()
        return self.known[key]


class ColourWatch:
    """What the distinct faces handed over one at a time (:meth:`observe`) show of each field
    a colour is chosen by, so that a pass over the faces can judge them without keeping
    their plans; :meth:`problems` once every face is seen.

    Only fields some paint reads can carry a colour code, so only their values are noted:
    a field of card texts, different on every card, is not remembered card by card."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.fields: dict[str, _FieldColours] = defaultdict(_FieldColours)
        self.resolver = _Resolver()
        self.declared = set(renderer.deck.fields)
        layouts = renderer.layouts.values()
        self.names_read = {id(element): element.names for layout in layouts for element in layout.elements}
        self.painted = {name for layout in layouts for element in layout.elements
                        for paint in element.paints() for name in paint.names}

    def observe(self, card: Card, side: str, ops: tuple[Op, ...]) -> None:
        """Note what one distinct face shows of the fields a paint reads."""
        deck, fields, resolver = self.renderer.deck, self.fields, self.resolver
        face_fields = self.declared or set(card.face(side, deck.shared_back) or {})
        candidates = (face_fields - (SPECIAL_NAMES - self.declared)) & self.painted
        if not candidates:
            return
        context = self.renderer.context(card, side)
        drawn = {op.element for op in ops}
        for element in self.renderer.layouts[side].elements:
            if element.name not in drawn:
                continue
            for name in self.names_read[id(element)] & candidates:
                value = context.get(name)
                if not _is_value(value):
                    continue
                seen = fields[name]
                _note_cues(seen, name, element, context, value, resolver)
                for paint in element.paints():
                    if name not in paint.names:
                        continue
                    colour = resolver.colour(paint, context)
                    if colour is None:
                        continue
                    seen.by_paint.setdefault(id(paint), defaultdict(set))[value].add(rgb_of(colour))
                    seen.paints.setdefault(id(paint), (paint, element))
                    if not isinstance(element, TextElement):
                        seen.painting_areas.add(id(paint))
        for name in candidates:
            if _is_value(context.get(name)):
                fields[name].faces[context[name]] += 1

    def problems(self) -> list[ColourPairProblem]:
        """Every pair of values of a field whose colours look alike, field by field."""
        problems: list[ColourPairProblem] = []
        for name in sorted(self.fields):
            problems += _field_problems(name, self.fields[name])
        return problems


def _note_cues(seen: _FieldColours, name: str, element: Element, context: dict, value: Any,
               resolver: _Resolver) -> None:
    """Remember what a text that reads the field, or an icon the field chooses, shows on this face."""
    if isinstance(element, TextElement) and name in element.text.names:
        cue, template = CUE_TEXT, element.text
    elif isinstance(element, IconElement) and name in element.icon.names:
        cue, template = CUE_ICON, element.icon
    else:
        return
    shown = resolver.shown(template, context)
    if shown is not None:
        seen.cues.setdefault((cue, element.name), defaultdict(list))[value].append(shown)


def _render_shown(template: Template, context: dict) -> str | None:
    try:
        return str(template.render(context)).strip()
    except (TemplateError, TypeError, ValueError):
        return None


def _resolve(paint, context: dict) -> Color | None:
    try:
        colour = paint.resolve(context)
    except (PaintError, TemplateError, TypeError, ValueError):
        return None  # the layout check reports a colour that cannot be made
    return colour if isinstance(colour, Color) else None  # a gradient fill is no colour code


def _field_problems(name: str, seen: _FieldColours) -> list[ColourPairProblem]:
    maps = [(paint, {value: next(iter(colours)) for value, colours in by_value.items()})
            for paint, by_value in seen.by_paint.items()
            if all(len(colours) == 1 for colours in by_value.values())
            and len({next(iter(colours)) for colours in by_value.values()}) <= MAX_CODE_COLOURS]
    areas = [(paint, colours) for paint, colours in maps if paint in seen.painting_areas]
    maps = areas or maps  # text colours count only where no shape or icon carries the code
    # Values every map gives the same colours are one group: colour cannot part them, and
    # the designer meant it so. Groups are compared, not every pair of values.
    groups: dict[tuple, list[Any]] = {}
    for value in seen.faces:
        looks = tuple(colours.get(value) for _, colours in maps)
        if any(looks):
            groups.setdefault(looks, []).append(value)
    if len(groups) > MAX_CODE_COLOURS:
        return []
    differing = [(one, two, index) for one, two in itertools.combinations(groups, 2)
                 for index in range(len(maps))
                 if one[index] is not None and two[index] is not None and one[index] != two[index]]
    # Only colours normal vision tells apart are a code; near twins are the designer's choice.
    candidates = [(one, two, index) for one, two, index in differing
                  if distance(one[index], two[index]) >= DISTINCT_COLOURS]
    problems = []
    for deficiency in DEFICIENCIES:
        best: dict[tuple, tuple[float, int]] = {}  # a pair of groups -> its most telling map
        for one, two, index in candidates:
            apart = distance(one[index], two[index], deficiency)
            if (one, two) not in best or apart > best[(one, two)][0]:
                best[(one, two)] = (apart, index)
        for (one, two), (apart, index) in best.items():
            if apart >= DISTINCT_COLOURS:
                continue
            paint, element = seen.paints[maps[index][0]]
            problems.append(ColourPairProblem(
                field=name, values=(tuple(groups[one]), tuple(groups[two])), colours=(one[index], two[index]),
                deficiency=deficiency, distance=apart, colour=paint.name, element=element.name,
                position=paint.position or element.position,
                mitigation=_mitigation(name, seen, groups[one], groups[two])))
    return problems


def _mitigation(name: str, seen: _FieldColours, ones: list[Any], twos: list[Any]) -> str:
    """How every face with any of these values also says the value, or '' when none does:
    a text or icon drawn on all of them that never shows the same on both sides."""
    values = ones + twos
    for (cue, element), shown_by_value in sorted(seen.cues.items(), key=_texts_first):
        drawn_everywhere = all(len(shown_by_value.get(value, ())) == seen.faces[value] for value in values)
        shown = [{shown for value in group for shown in shown_by_value.get(value, ())} for group in (ones, twos)]
        if drawn_everywhere and not shown[0] & shown[1]:
            return CUE_MITIGATIONS[cue].format(field=name, element=element)
    return ""


def _texts_first(item: tuple[tuple[str, str], Any]) -> tuple[bool, str]:
    (cue, element), _ = item
    return cue != CUE_TEXT, element


def _is_value(value: Any) -> bool:
    """A value a colour can stand for: set, and a plain number, text or yes/no."""
    return value is not None and value != "" and isinstance(value, (str, int, float, bool))
