"""Jinja2 expressions and templates from deck and layout files, run in a sandbox.

Deck files are untrusted, so every expression runs in Jinja2's immutable
sandbox: no attribute tricks, no mutation, no access to Python internals.
Undefined names are errors rather than silent blanks, so a typo in a field
name is reported instead of printing an empty card.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateError, Undefined
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_POWER_BITS = 4096
"""``**`` giving a number longer than this is refused: ``9 ** (9 ** 9)`` would keep a
check busy for hours, and no card count needs more than a few dozen bits."""

MAX_REPEAT = 100_000
"""``'x' * n`` and ``[0] * n`` are refused past this many items."""


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, plus bounds on the two operators that can hang or
    exhaust memory from a single short expression in an untrusted file."""

    intercepted_binops = frozenset({"**", "*"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and _power_bits(left, right) > MAX_POWER_BITS:
            raise SecurityError(f"{left} ** {right} is too large a number")
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) \
                        and len(sequence) * times > MAX_REPEAT:
                    raise SecurityError(f"repeating gives more than {MAX_REPEAT:,} items")
        return super().call_binop(context, operator, left, right)


def _power_bits(base: Any, exponent: Any) -> float:
    """Roughly how many bits ``base ** exponent`` needs, before computing it."""
    if not isinstance(base, (int, float)) or not isinstance(exponent, (int, float)):
        return 0
    if abs(base) <= 1 or exponent <= 0:
        return 0
    return max(abs(int(base)).bit_length(), 1) * exponent


def make_environment() -> ImmutableSandboxedEnvironment:
    """A fresh sandboxed environment with strict undefined names."""
    return BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)


@lru_cache(maxsize=1)
def shared_environment() -> ImmutableSandboxedEnvironment:
    """One environment reused for all expressions; compiled code is cached by Jinja."""
    return make_environment()


def compile_expression(source: str) -> Callable[..., Any]:
    """Compile ``source`` once; raises ``jinja2.TemplateError`` if it is not valid."""
    return shared_environment().compile_expression(source, undefined_to_none=False)


def evaluate(source: str, context: dict[str, Any]) -> Any:
    """Evaluate one expression in ``context``; errors surface as ``TemplateError``.

    An expression that ends on an undefined name (``deck.nmae``) or a refused
    attribute (``total.__class__``) gives Jinja2 an undefined value rather than an
    error; its error would only fire later, wherever the caller first looks at the
    value. It is raised here instead, so callers meet every failure in one place.
    """
    result = compile_expression(source)(**context)
    if isinstance(result, Undefined):
        result._fail_with_undefined_error()
    return result


__all__ = ["TemplateError", "compile_expression", "evaluate", "make_environment",
           "shared_environment"]
