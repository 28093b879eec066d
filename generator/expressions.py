"""Jinja2 expressions and templates from deck and layout files, run in a sandbox.

Deck files are untrusted, so every expression runs in a bounded copy of
Jinja2's immutable sandbox (:mod:`generator.sandbox`): no attribute tricks, no
mutation, no access to Python internals, and a budget on the work, the size of
values and the depth of calls of every run. Undefined names are errors rather
than silent blanks, so a typo in a field name is reported instead of printing
an empty card.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from jinja2 import TemplateError, Undefined
from jinja2.exceptions import TemplateRuntimeError

from generator.sandbox import LAYOUT_LIMITS, RULE_LIMITS, BoundedSandbox, Limits, TemplateLimitError


def make_environment(limits: Limits = LAYOUT_LIMITS) -> BoundedSandbox:
    """A fresh sandboxed environment with strict undefined names, bounded by ``limits``."""
    return BoundedSandbox(limits, autoescape=False, keep_trailing_newline=False)


@lru_cache(maxsize=1)
def shared_environment() -> BoundedSandbox:
    """One environment for all deck expressions (rules), with a rule's larger budget:
    a rule reads the whole deck. Compiled code is cached by Jinja."""
    return make_environment(RULE_LIMITS)


def compile_expression(source: str) -> Callable[..., Any]:
    """Compile ``source`` once; raises ``jinja2.TemplateError`` if it is not valid."""
    return shared_environment().compile_expression(source, undefined_to_none=False)


def evaluate(source: str, context: dict[str, Any]) -> Any:
    """Evaluate one expression in ``context``; every failure surfaces as ``TemplateError``.

    An expression that ends on an undefined name (``deck.nmae``) or a refused
    attribute (``total.__class__``) gives Jinja2 an undefined value rather than an
    error; its error would only fire later, wherever the caller first looks at the
    value. It is raised here instead, so callers meet every failure in one place.
    """
    expression = compile_expression(source)
    return run_guarded(lambda: _defined(expression(**context)))


def run_guarded(run: Callable[[], Any]) -> Any:
    """Run a template or expression; whatever it raises becomes a ``TemplateError`` with
    the same message (``1/0`` is 'division by zero'), so callers catch one kind of error.

    Python's own recursion limit is turned into the same error: a template that
    nests calls past it has already been stopped by the call-depth limit, so only
    a bug of ours could get there, and it still must not print a traceback."""
    try:
        return run()
    except TemplateError:
        raise
    except RecursionError:
        raise TemplateLimitError("the template nests calls too deeply") from None
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RuntimeError,
            AssertionError) as error:  # RuntimeError: raised by some of Jinja2's own helpers
        raise TemplateRuntimeError(str(error) or type(error).__name__) from None


def _defined(result: Any) -> Any:
    if isinstance(result, Undefined):
        result._fail_with_undefined_error()
    return result


__all__ = ["TemplateError", "TemplateLimitError", "compile_expression", "evaluate",
           "make_environment", "run_guarded", "shared_environment"]
