"""The sandbox every template and expression from a deck or layout runs in.

Deck and layout files are untrusted: their Jinja2 templates run in Jinja2's
immutable sandbox (no Python internals, no mutation), and every run is
bounded in steps, data, value size, printed length and call depth
(``limits``), with the few operations that multiply their input sized before
they run (``guards``). Going past a bound raises :class:`TemplateLimitError`,
a ``jinja2.TemplateError``, so callers report it like any other template error.
"""

from generator.sandbox.environment import MAX_TEMPLATE_SOURCE, BoundedSandbox, PrintedField
from generator.sandbox.guards import MAX_FORMAT_WIDTH, MAX_POWER_BITS
from generator.sandbox.limits import (
                                      LAYOUT_LIMITS,
                                      MAX_CALL_DEPTH,
                                      MAX_RANGE,
                                      MAX_RULE_DATA,
                                      MAX_RULE_STEPS,
                                      MAX_RULE_VALUE,
                                      MAX_TEMPLATE_DATA,
                                      MAX_TEMPLATE_OUTPUT,
                                      MAX_TEMPLATE_STEPS,
                                      MAX_TEMPLATE_VALUE,
                                      MAX_VALUE_DEPTH,
                                      RULE_LIMITS,
                                      Limits,
                                      TemplateLimitError,
)

__all__ = ["BoundedSandbox", "LAYOUT_LIMITS", "Limits", "MAX_CALL_DEPTH", "MAX_FORMAT_WIDTH",
           "MAX_POWER_BITS", "MAX_RANGE", "MAX_RULE_DATA", "MAX_RULE_STEPS", "MAX_RULE_VALUE",
           "MAX_TEMPLATE_DATA", "MAX_TEMPLATE_OUTPUT", "MAX_TEMPLATE_SOURCE", "MAX_TEMPLATE_STEPS",
           "MAX_TEMPLATE_VALUE", "MAX_VALUE_DEPTH", "PrintedField", "RULE_LIMITS",
           "TemplateLimitError"]
