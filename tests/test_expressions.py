"""Expressions from deck and layout files run sandboxed and bounded."""

import pytest
from jinja2 import TemplateError

from generator.expressions import evaluate, make_environment
from generator.sandbox import MAX_RULE_VALUE


@pytest.mark.parametrize("source", ["9 ** (9 ** 9)", "(10 ** 1000) ** 1000", "2 ** 100000",
                                    f"'x' * {MAX_RULE_VALUE + 1}", f"[0] * {MAX_RULE_VALUE + 1}",
                                    "[[0] * 1000] * 100000"])
def test_runaway_arithmetic_is_refused_quickly(source):
    with pytest.raises(TemplateError, match="too large a number|more than"):
        evaluate(source, {})


def test_ordinary_arithmetic_still_works():
    assert evaluate("2 ** 10 + players * 4", {"players": 3}) == 1036
    assert evaluate("'*' * 5", {}) == "*****"


def test_python_internals_are_out_of_reach():
    with pytest.raises(TemplateError):
        evaluate("cards.__class__.__mro__", {"cards": []})
    with pytest.raises(TemplateError):
        make_environment().from_string("{{ ''.__class__.__subclasses__() }}").render()


def test_undefined_names_are_errors_not_blanks():
    with pytest.raises(TemplateError, match="rewad"):
        evaluate("rewad > 3", {"reward": 5})


@pytest.mark.parametrize("source", ["deck.nmae", "total.__class__"])
def test_an_undefined_result_is_an_error_at_once(source):
    # Not a value that fails later, when someone tests its truth or prints it.
    with pytest.raises(TemplateError):
        evaluate(source, {"deck": {"name": "X"}, "total": 3})
