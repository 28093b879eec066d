"""Jinja2 templates in layouts: compiled once per layout, run in the sandbox per card.

Text, image paths, icon names and colours in a layout may be templates over
the face's fields (``"{{ name }}"``, ``"art/{{ card.id }}.png"``); ``when:``
conditions are expressions (``"type == 'monster'"``). Each is compiled once,
when the layout loads, and knows which names it reads, so the renderer can
tell which faces are drawn identically (see ``Renderer.face_key``).

Filters for card text, so numbers are computed rather than typed by hand:

- ``roll | ways(dice=2, sides=6)``: how many of the rolls make this total (7 -> 6)
- ``roll | odds(dice=2, sides=6)``: "6 in 36"
- ``roll | chance(dice=2, sides=6)``: the probability as a number (7 -> 0.1667)
- ``number | percent(digits=1)``: "16.7%"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from jinja2 import TemplateError, meta, nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

from generator.deck.plain import PlainText
from generator.expressions import make_environment, run_guarded
from generator.render.markup import escape_markup
from generator.sandbox import MAX_FORMAT_WIDTH, BoundedSandbox, PrintedField, TemplateLimitError

SPECIAL_NAMES = {"card", "side", "deck", "fields", "title", "version"}
"""Names every face offers besides its fields (a field of the same name wins on the faces that
set it). ``version``
is ``deck.version`` on its own: a face that prints it reads nothing else of the deck, so
a count changed elsewhere (``deck.total``) leaves the face as it was."""


@cache
def roll_counts(dice: int, sides: int) -> dict[int, int]:
    """For every total of ``dice`` dice with ``sides`` sides, how many rolls give it."""
    return dict(Counter(map(sum, product(range(1, sides + 1), repeat=dice))))


def ways(total: Any, dice: int = 2, sides: int = 6) -> int:
    _check_dice(dice, sides)
    return roll_counts(dice, sides).get(int(total), 0)


def chance(total: Any, dice: int = 2, sides: int = 6) -> float:
    rolls: int = sides ** dice
    return ways(total, dice, sides) / rolls


def odds(total: Any, dice: int = 2, sides: int = 6) -> str:
    return f"{ways(total, dice, sides)} in {sides ** dice}"


def percent(value: Any, digits: int = 1) -> str:
    if not 0 <= int(digits) <= MAX_FORMAT_WIDTH:
        raise TemplateLimitError(f"percent(digits={digits}) asks for more than {MAX_FORMAT_WIDTH} digits")
    return f"{float(value) * 100:.{int(digits)}f}%"


def _check_dice(dice: int, sides: int) -> None:
    # The table grows as sides ** dice; a card never needs more than a handful of dice.
    if not (1 <= int(dice) <= 6 and 2 <= int(sides) <= 20):
        raise ValueError("dice filters handle 1 to 6 dice of 2 to 20 sides")


CARD_FILTERS: dict[str, Callable[..., Any]] = {
    "ways": ways,
    "chance": chance,
    "odds": odds,
    "percent": percent,
}


def make_layout_environment() -> BoundedSandbox:
    """The project's sandboxed environment, plus card filters; ``None`` prints as nothing."""
    environment = make_environment()
    environment.filters.update(CARD_FILTERS)
    environment.finalize = lambda value: "" if value is None else value
    return environment


def _escaping_finalize(value: Any) -> Any:
    if value is None:
        return ""
    return escape_markup(value) if isinstance(value, PlainText) else value


@dataclass(repr=False, eq=False)
class Template:
    """A layout string: plain text, or a compiled Jinja2 template or expression."""

    source: str
    names: frozenset[str]
    render: Callable[[dict[str, Any]], Any]

    @property
    def is_constant(self) -> bool:
        return not self.names


def compile_text(environment: BoundedSandbox, source: str) -> Template:
    """A text template; raises ``TemplateError`` on a syntax error."""
    if "{" not in source:
        return Template(source, frozenset(), lambda context: source)
    ast = environment.parse(source)
    field = environment.printed_field(ast)
    if field is not None:
        # It reads its one name, unless that is one of Jinja2's globals (which find_undeclared_variables
        # leaves out too): told without that walk of the tree, which costs about what a compile does.
        names = frozenset() if field.name in environment.globals else frozenset({field.name})
        return Template(source, names, _field_printer(environment, source, field))
    compiled = environment.from_string(ast)
    return Template(source, frozenset(meta.find_undeclared_variables(ast)),
                    lambda context: run_guarded(lambda: compiled.render(context)))


def _field_printer(environment: BoundedSandbox, source: str, field: PrintedField) -> Callable[[dict[str, Any]], str]:
    """Renders a text that prints one field (``{{ title }}``, ``{{ roll | odds }}``) without
    compiling it: a layout's many such texts would each cost a compile. A name the face does
    not have (a typo, or one of Jinja2's globals) is left to the compiled template, compiled
    then, which says what it is exactly as it always has."""

    @cache
    def compiled() -> Any:
        return environment.from_string(source)

    def render(context: dict[str, Any]) -> str:
        if field.name in context:
            printed: str = run_guarded(lambda: environment.print_field(field, context))
        else:
            printed = run_guarded(lambda: compiled().render(context))
        return printed

    return render


def compile_condition(environment: ImmutableSandboxedEnvironment, source: str) -> Template:
    """An expression such as ``type == 'monster'``; its value decides truth."""
    ast = environment.parse("{{ (" + source + ") }}")
    if len(ast.body) != 1 or not isinstance(ast.body[0], nodes.Output):
        raise TemplateError(f"not a single expression: {source}")
    expression = environment.compile_expression(source, undefined_to_none=False)
    return Template(source, frozenset(meta.find_undeclared_variables(ast)),
                    lambda context: run_guarded(lambda: expression(**context)))


class TemplateMemo:
    """Each distinct text (``text:``, a colour, a title ...) and condition (``when:``) compiled
    so far, for all the layouts loaded together: a front and a back that extend one frame, or
    that pick a colour by the same template, share it, compiled once. A source that fails is
    compiled again, and fails again, each time it is asked for."""

    def __init__(self, environment: BoundedSandbox):
        self.environment = environment
        self.markup_environment: BoundedSandbox = environment.overlay(finalize=_escaping_finalize)
        """For the texts that are read as markup (a text element's ``text:``, a layout's ``title:``):
        what they print of a plain field (``markup: false``) is escaped, so the card shows it as
        written. Image paths, icon names and colours print it unchanged."""
        self.compiled: dict[tuple[str, str], Template] = {}

    def text(self, source: str) -> Template:
        return self._once("text", source, compile_text, self.environment)

    def markup_text(self, source: str) -> Template:
        """A text that is read as markup once printed: plain fields are escaped in it."""
        return self._once("markup", source, compile_text, self.markup_environment)

    def condition(self, source: str) -> Template:
        return self._once("when", source, compile_condition, self.environment)

    def _once(self, kind: str, source: str, compile_source: Callable[[Any, str], Template],
              environment: BoundedSandbox) -> Template:
        key = (kind, source)
        if key not in self.compiled:
            self.compiled[key] = compile_source(environment, source)
        return self.compiled[key]


__all__ = ["CARD_FILTERS", "SPECIAL_NAMES", "Template", "TemplateError", "TemplateMemo", "compile_condition",
           "compile_text", "make_layout_environment", "odds", "percent", "ways", "chance"]
