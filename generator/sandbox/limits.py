"""How much work one template run may do, and the meter that counts it.

A template in a deck or layout is untrusted code: a short one can loop for
hours (``range(99999)`` inside ``range(99999)``), print gigabytes
(``'x' | center(999999999)``) or recurse until Python gives up. Every run gets
a :class:`Budget`; the sandbox charges it for each loop step, call, filter and
operator, and for the data each of those touches, so the run stops with one
clear error long before it would hang or exhaust memory.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Any

from jinja2.exceptions import SecurityError
from jinja2.utils import Namespace

MAX_TEMPLATE_STEPS = 10_000
"""Loop steps, calls, filters and operators in one run of a layout template. A card's text
needs a few dozen; a run stopped at ten thousand stops soon, so even a deck of many
distinct faces cannot be made to run for hours."""

MAX_RULE_STEPS = 100_000
"""Steps in one evaluation of a deck rule's expression. A rule reads the whole deck, but
through a few filters (``cards | selectattr(...) | list``), each a step however many cards
it reads; ten times a layout's budget leaves room for ``map`` over every card."""

MAX_TEMPLATE_DATA = 1_000_000
"""Characters and items a layout template may read and make in one run (each filter, call
and operator is charged for the data it touches). A card's run touches a few thousand; a
million leaves room to spare and stops a run copying its output in a loop long before memory does."""

MAX_RULE_DATA = 50_000_000
"""Data one rule evaluation may touch: it reads the whole deck (at most 8 MB of YAML) a few
times over in one expression."""

MAX_TEMPLATE_VALUE = 100_000
"""Characters (or items, counted through nested lists) in any one value a layout template
makes or reads. Card text is a few hundred characters; a hundred thousand is a short book."""

MAX_RULE_VALUE = 20_000_000
"""The same for a rule, whose values hold the whole deck: 8 MB of YAML is at most a few
million characters in 200,000 nodes."""

MAX_TEMPLATE_OUTPUT = 20_000
"""Characters one layout template may print (a title, a text box, an image path). Even at
4 pt a poker card holds about three thousand."""

MAX_CALL_DEPTH = 40
"""Macro calls nested inside each other. Deeper is a macro calling itself without end;
Python would stop it with a RecursionError a little further on, after a long wait."""

MAX_RANGE = 100_000
"""Numbers one ``range()`` may give, in a layout or a rule: Jinja2's own sandbox bound,
kept for rules too. A card counts to a few dozen; ``range(20000000) | list`` in a rule
would hold most of a gigabyte before its size could be weighed."""

MAX_VALUE_DEPTH = 100
"""Lists and mappings nested inside each other in one value. Deck files are capped at 50
levels by the loader; deeper values come from a template wrapping a list in a loop."""


@dataclass(repr=False, eq=False)
class Limits:
    """The bounds of one template run (see the constants above for the reasons)."""

    steps: int
    data: int
    value: int
    output: int
    depth: int = MAX_CALL_DEPTH


LAYOUT_LIMITS = Limits(MAX_TEMPLATE_STEPS, MAX_TEMPLATE_DATA, MAX_TEMPLATE_VALUE, MAX_TEMPLATE_OUTPUT)
RULE_LIMITS = Limits(MAX_RULE_STEPS, MAX_RULE_DATA, MAX_RULE_VALUE, MAX_TEMPLATE_OUTPUT)


class TemplateLimitError(SecurityError):
    """A template run went past one of its limits."""


class Budget:
    """What one run has spent against its limits, and the sizes of values already weighed."""

    __slots__ = ("limits", "steps", "data", "output", "depth", "_sizes")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.steps = self.data = self.output = self.depth = 0
        self._sizes: dict[int, tuple[int, Any]] = {}

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > self.limits.steps:
            raise TemplateLimitError(f"the template runs too long: more than {self.limits.steps:,} "
                                     "loop steps, calls and filters (a loop or macro runs away)")

    def touch(self, size: int) -> None:
        self.data += size
        if self.data > self.limits.data:
            raise TemplateLimitError(f"the template works on too much text: more than "
                                     f"{self.limits.data:,} characters in all")

    def read(self, *values: Any) -> None:
        """Charge one step plus the size of each value; refuse a value over the size limit."""
        self.step()
        for value in values:
            self.touch(len(value) if type(value) is str else self.size(value))

    def printed(self, text_size: int) -> None:
        self.output += text_size
        if self.output > self.limits.output:
            raise TemplateLimitError(f"the template prints too much: more than "
                                     f"{self.limits.output:,} characters")

    def expect(self, size: int, what: str) -> None:
        """Refuse, before making it, a value that would be ``size`` characters or items."""
        if size > self.limits.value:
            raise TemplateLimitError(f"{what} would make a value of {size:,} characters or items, "
                                     f"more than {self.limits.value:,}")

    def size(self, value: Any) -> int:
        """Characters and items in ``value``, nested lists and mappings counted through
        (a list holding one long string a thousand times prints it a thousand times)."""
        return self._size(value, 0)

    def _size(self, value: Any, depth: int) -> int:
        if isinstance(value, (str, bytes, bytearray)):
            size = len(value)
        elif value is None or isinstance(value, (bool, float)):
            return 1
        elif isinstance(value, int):
            return 1 + value.bit_length() // 64
        elif isinstance(value, range):
            size = len(value)
        elif isinstance(value, (list, tuple, dict, set, frozenset, Namespace)):
            size = self._container_size(value, depth)
        else:
            return 1
        self.expect(size, "the template")
        return size

    def _container_size(self, value: Any, depth: int) -> int:
        known = self._sizes.get(id(value))
        if known is not None and known[1] is value:
            return known[0]
        if depth >= MAX_VALUE_DEPTH:
            raise TemplateLimitError(f"the template nests lists more than {MAX_VALUE_DEPTH} deep")
        if isinstance(value, Namespace):  # the one mutable value: weighed afresh each time
            attributes = object.__getattribute__(value, "_Namespace__attrs")
            return len(attributes) + sum(self._size(item, depth + 1) for item in attributes.values())
        self._sizes[id(value)] = (0, value)  # guards against a value inside itself
        items = [part for pair in value.items() for part in pair] if isinstance(value, dict) else value
        total = len(value)
        for item in items:
            total += len(item) if type(item) is str else self._size(item, depth + 1)
            self.expect(total, "the template")
        self._sizes[id(value)] = (total, value)  # the value is kept, so its id stays its own
        return total

    def call(self) -> _Deeper:
        """One call deeper (a macro inside a macro), for as long as the call runs."""
        return _Deeper(self)


class _Deeper:
    __slots__ = ("budget",)

    def __init__(self, budget: Budget):
        self.budget = budget

    def __enter__(self) -> None:
        self.budget.depth += 1
        if self.budget.depth > self.budget.limits.depth:
            self.budget.depth -= 1
            raise TemplateLimitError(f"calls nest more than {self.budget.limits.depth} deep "
                                     "(a macro that calls itself without end)")

    def __exit__(self, *exception: Any) -> None:
        self.budget.depth -= 1


_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("template_budget", default=None)


class running:
    """``with running(limits):`` makes a fresh budget the current one while a template runs;
    a run inside a run shares the outer one."""

    __slots__ = ("limits", "token")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.token: contextvars.Token | None = None

    def __enter__(self) -> Budget:
        outer = _CURRENT.get()
        if outer is not None:
            return outer
        budget = Budget(self.limits)
        self.token = _CURRENT.set(budget)
        return budget

    def __exit__(self, *exception: Any) -> None:
        if self.token is not None:
            _CURRENT.reset(self.token)
            self.token = None


def current() -> Budget:
    """The budget of the run in progress; sandboxed code outside a run is refused."""
    budget = _CURRENT.get()
    if budget is None:
        raise TemplateLimitError("a template ran outside a bounded run")
    return budget
