"""Jinja2 expressions and templates from deck and layout files, run in a sandbox.

Deck files are untrusted, so every expression runs in Jinja2's immutable
sandbox: no attribute tricks, no mutation, no access to Python internals.
Undefined names are errors rather than silent blanks, so a typo in a field
name is reported instead of printing an empty card.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment


def make_environment() -> ImmutableSandboxedEnvironment:
    """A fresh sandboxed environment with strict undefined names."""
    return ImmutableSandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                         keep_trailing_newline=False)


@lru_cache(maxsize=1)
def shared_environment() -> ImmutableSandboxedEnvironment:
    """One environment reused for all expressions; compiled code is cached by Jinja."""
    return make_environment()


def compile_expression(source: str) -> Callable[..., Any]:
    """Compile ``source`` once; raises ``jinja2.TemplateError`` if it is not valid."""
    return shared_environment().compile_expression(source, undefined_to_none=False)


def evaluate(source: str, context: dict[str, Any]) -> Any:
    """Evaluate one expression in ``context``; errors surface as ``TemplateError``."""
    return compile_expression(source)(**context)


__all__ = ["TemplateError", "compile_expression", "evaluate", "make_environment",
           "shared_environment"]
