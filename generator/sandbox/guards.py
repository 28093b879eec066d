"""Checks made before an operation that could turn small input into a huge value, or
into text that differs from run to run.

Most operations make a value no bigger than what they read, and the budget
weighs every value as it is read. A few multiply instead: ``'x' * n``,
``'%999999999d' % 1``, ``'x' | center(n)``, ``sep.join(items)`` with a long
separator, ``s.replace('', s)``. Each of those is sized here from its
arguments and refused before Python spends the time and memory to build it.

Builds are reproducible, so nothing may be made into text whose text holds a memory
address (a function, an object without text of its own, a sequence not yet listed):
:func:`unrepeatable_text` finds such a value by its type, for printing, ``~``,
``string``, ``format``, ``join`` and the other filters that make text.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, ValuesView
from collections.abc import Set as AbstractSet
from datetime import date
from typing import Any

from generator.sandbox.limits import Budget, TemplateLimitError

MAX_POWER_BITS = 4096
"""``**`` and ``*`` giving a whole number longer than this are refused: ``9 ** (9 ** 9)``
would keep a check busy for hours, and no card count needs more than a few dozen bits."""

MAX_FORMAT_WIDTH = 1000
"""Widths and precisions in ``'%5d'``, ``'{:>8}'`` and ``percent(digits=...)``. A card lines
up a few columns; ``'%999999999d'`` would print a gigabyte of spaces."""

MEMORY_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
"""How Python prints an object that has no text of its own (``{{ name.upper }}``, a method
not called; ``{{ cycler(1, 2) }}``): with where it lies in memory, which differs every run."""

OBJECT_AS_TEXT = ("a function or an object", " where a value belongs (a method needs its brackets: "
                  "name.upper()); its text would change from run to run")
"""What a value whose text holds a memory address is, and the rest of the message (with its
own leading space or semicolon), for "prints ..." and "turns ... into text ..."."""
SEQUENCE_AS_TEXT = ("a sequence that is not yet a list (what map, select or reverse give)",
                    "; its text would change from run to run: add | list after it, or | join(', ')")

TEXT_FILTERS = frozenset({"string", "format", "upper", "lower", "capitalize", "title", "trim", "striptags",
                          "center", "indent", "truncate", "wordwrap", "wordcount", "replace", "urlize",
                          "escape", "e", "forceescape", "urlencode", "pprint", "safe", "xmlattr"})
"""Filters that make text of the value and arguments they are given (``join``, which makes
text of the items it is given, has its items checked instead)."""

_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.)", re.S)


def power_bits(base: Any, exponent: Any) -> float:
    """Roughly how many bits ``base ** exponent`` needs, before computing it."""
    if not _is_number(base) or not _is_number(exponent):
        return 0
    if abs(base) <= 1 or exponent <= 0:
        return 0
    return max(abs(int(base)).bit_length(), 1) * exponent


def check_binop(budget: Budget, operator: str, left: Any, right: Any) -> None:
    """Refuse ``*``, ``**`` and ``%`` whose result would be too large."""
    if operator == "**" and power_bits(left, right) > MAX_POWER_BITS:
        raise TemplateLimitError(f"{left} ** {right} is too large a number")
    if operator == "*":
        if isinstance(left, int) and isinstance(right, int) \
                and left.bit_length() + right.bit_length() > MAX_POWER_BITS:
            raise TemplateLimitError(f"{left} * {right} is too large a number")
        for sequence, times in ((left, right), (right, left)):
            if _is_sequence(sequence) and isinstance(times, int):
                budget.expect(budget.size(sequence) * max(times, 0), "repeating")
    if operator == "%" and isinstance(left, (str, bytes)):
        check_percent_format(left)
        check_text_of(right)


def check_text_of(*values: Any) -> None:
    """Refuse to turn into text (with ``string``, ``~``, ``format``, ``%`` ...) a value whose
    text would change from run to run (see :func:`unrepeatable_text`): a card, a name or a
    rule's verdict made from it would too."""
    for value in values:
        problem = unrepeatable_text(value)
        if problem is not None:
            raise TemplateLimitError(unrepeatable_message("turns", problem))


def unrepeatable_message(verb: str, problem: tuple[str, str]) -> str:
    """``prints ...`` or ``turns ... into text ...`` for a value :func:`unrepeatable_text` found."""
    what, rest = problem
    return f"{verb} {what}{'' if verb == 'prints' else ' into text'}{rest}"


def unrepeatable_text(value: Any) -> tuple[str, str] | None:
    """What in ``value`` has text holding a memory address (:data:`OBJECT_AS_TEXT` or
    :data:`SEQUENCE_AS_TEXT`), or None. Looked for by type, through lists, tuples, sets and
    dicts, so a designer's own words are never taken for an address."""
    pending, seen = [value], set()
    while pending:
        value = pending.pop()
        if value is None or isinstance(value, (str, int, float, date)):  # bool is an int
            continue
        if isinstance(value, (Mapping, Sequence, AbstractSet, ValuesView)):  # a mapping's keys and items are sets
            if id(value) not in seen:  # shared (never circular: the sandbox changes nothing)
                seen.add(id(value))
                pending.extend(value.items() if isinstance(value, Mapping) else value)
        elif isinstance(value, Iterator):
            return SEQUENCE_AS_TEXT
        elif " at 0x" in (text := repr(value)) and MEMORY_ADDRESS.search(text):
            return OBJECT_AS_TEXT
    return None


def check_percent_format(template: str | bytes) -> None:
    """``'%5d'``-style widths and precisions within MAX_FORMAT_WIDTH, and no ``*`` widths."""
    text = template.decode("latin-1") if isinstance(template, bytes) else template
    for match in _PERCENT_SPEC.finditer(text):
        _check_widths(match.group(1), match.group(2), match.group(0))


def check_brace_format(template: str) -> None:
    """``'{:>8}'``-style widths within MAX_FORMAT_WIDTH, and no widths taken from arguments."""
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is None or not spec:
            continue
        if "{" in spec:
            raise TemplateLimitError(f"a format width taken from an argument ('{{{name}:{spec}}}') "
                                     "is not allowed in a template")
        for number in re.findall(r"\d+", spec):
            _check_widths(number, None, spec)


def _check_widths(width: str | None, precision: str | None, spec: str) -> None:
    for number in (width, precision):
        if number == "*":
            raise TemplateLimitError(f"a format width taken from an argument ('{spec}') "
                                     "is not allowed in a template")
        if number and (len(number) > 6 or int(number) > MAX_FORMAT_WIDTH):
            raise TemplateLimitError(f"format width {number} in '{spec}' is more than {MAX_FORMAT_WIDTH}")


def check_width(budget: Budget, width: Any, what: str) -> None:
    if isinstance(width, int):
        budget.expect(width, what)


def check_growth(budget: Budget, text: Any, old: Any, new: Any, count: Any = -1) -> None:
    """``text.replace(old, new)``: how long the result could be, before making it."""
    if not (isinstance(text, (str, bytes)) and isinstance(old, type(text)) and isinstance(new, type(text))):
        return
    found = len(text) + 1 if not old else text.count(old)  # type: ignore[arg-type]  # old is of text's own type
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    budget.expect(len(text) + found * max(len(new) - len(old), 0), "replace")


def joined(budget: Budget, separator: Any, items: Iterable[Any]) -> list[Any]:
    """The items of a join, read once; refused if the joined text would be too long."""
    listed = list(items)
    size = sum(budget.size(item) for item in listed)
    budget.expect(size + budget.size(separator) * max(len(listed) - 1, 0), "join")
    return listed


# -- filters ------------------------------------------------------------------------------

def _center(budget: Budget, value: Any, width: Any = 80, *rest: Any, **named: Any) -> None:
    check_width(budget, width, "center")


def _indent(budget: Budget, value: Any, width: Any = 4, *rest: Any, **named: Any) -> None:
    pad = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    check_width(budget, pad, "indent")
    lines = str(value).count("\n") + 1 if isinstance(value, str) else 1
    budget.expect(budget.size(value) + lines * pad, "indent")


def _format(budget: Budget, value: Any, *rest: Any, **named: Any) -> None:
    if isinstance(value, str):
        check_percent_format(value)


def _replace(budget: Budget, value: Any, old: Any = None, new: Any = None, count: Any = None,
             **named: Any) -> None:
    check_growth(budget, value, old, new, -1 if count is None else count)


def _wordwrap(budget: Budget, value: Any, width: Any = 79, break_long: Any = True,
              wrapstring: Any = None, *rest: Any, **named: Any) -> None:
    if isinstance(value, str) and isinstance(wrapstring, str):
        budget.expect(len(value) * (1 + len(wrapstring)), "wordwrap")


def _batch(budget: Budget, value: Any, linecount: Any = 1, fill_with: Any = None, **named: Any) -> None:
    if fill_with is not None:
        check_width(budget, linecount, "batch")


def _slice(budget: Budget, value: Any, slices: Any = 1, *rest: Any, **named: Any) -> None:
    if isinstance(slices, int):
        budget.expect(slices, "slice")
        budget.step(max(slices, 0))


def _tojson(budget: Budget, value: Any, indent: Any = None, **named: Any) -> None:
    if isinstance(indent, int):
        check_width(budget, indent, "tojson")
        budget.expect(budget.size(value) * (2 + indent), "tojson")


def _urlize(budget: Budget, value: Any, *rest: Any, **named: Any) -> None:
    extra = sum(len(str(part)) for part in (*rest, *named.values()) if isinstance(part, str))
    if isinstance(value, str):
        budget.expect(len(value) * (3 + extra), "urlize")


def _sum(budget: Budget, value: Any, attribute: Any = None, start: Any = 0, **named: Any) -> None:
    if _is_sequence(start):
        # Adding lists copies the growing result at every item: quadratic work for no card's sake.
        raise TemplateLimitError("sum adds numbers; adding lists or text with it is not allowed "
                                 "in a template")


def _truncate(budget: Budget, value: Any, length: Any = 255, killwords: Any = False, end: Any = "...",
              leeway: Any = None, **named: Any) -> None:
    # Jinja2 asserts these, and an AssertionError is no message for a designer.
    if isinstance(length, int) and isinstance(end, str) and length < len(end):
        raise TemplateLimitError(f"truncate({length}) is shorter than its end {end!r}: "
                                   f"give a length of at least {len(end)}")
    if isinstance(leeway, int) and leeway < 0:
        raise TemplateLimitError(f"truncate's leeway cannot be negative ({leeway})")


FILTER_GUARDS: dict[str, Callable[..., None]] = {
    "center": _center,
    "indent": _indent,
    "format": _format,
    "replace": _replace,
    "wordwrap": _wordwrap,
    "batch": _batch,
    "slice": _slice,
    "tojson": _tojson,
    "urlize": _urlize,
    "sum": _sum,
    "truncate": _truncate,
}
"""Filters that can make more than they read, by name, with the check made before each."""


# -- methods of strings and numbers -------------------------------------------------------

def check_method(budget: Budget, method: Any, args: tuple, kwargs: dict) -> tuple:
    """Refuse a call to a built-in method that would make too large a value; returns the
    arguments to call it with (a join's items are read once, here)."""
    owner = getattr(method, "__self__", None)
    name = getattr(method, "__name__", "")
    if isinstance(owner, (str, bytes, bytearray)):
        if name in ("center", "ljust", "rjust", "zfill") and args:
            check_width(budget, args[0], name)
        elif name == "expandtabs":
            tab = args[0] if args else kwargs.get("tabsize", 8)
            if isinstance(tab, int):
                tabs = owner.count(b"\t") if isinstance(owner, (bytes, bytearray)) else owner.count("\t")
                budget.expect(len(owner) + tabs * max(tab, 0), name)
        elif name == "replace" and len(args) >= 2:
            check_growth(budget, owner, args[0], args[1], args[2] if len(args) > 2 else -1)
        elif name == "join" and len(args) == 1:
            return (joined(budget, owner, args[0]),)
        elif name == "translate" and args and isinstance(args[0], dict):
            longest = max((budget.size(part) for part in args[0].values()), default=1)
            budget.expect(len(owner) * max(longest, 1), name)
    elif isinstance(owner, int) and name == "to_bytes":
        check_width(budget, args[0] if args else kwargs.get("length", 1), name)
    return args


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (str, bytes, bytearray, list, tuple))
