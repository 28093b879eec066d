"""Jinja2's immutable sandbox with a budget on every run.

The sandbox already keeps templates away from Python's internals; this adds
the bounds: each run gets a fresh :class:`~generator.sandbox.limits.Budget`,
and the compiled template charges it at every loop step, call, filter,
operator and printed value. To see loop steps and printed text, which Jinja2
has no hook for, each template's syntax tree is rewritten before it is
compiled: loop iterables, printed values and the operands of ``~`` and
comparisons pass through small filters with names no template can write.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from jinja2 import StrictUndefined, Template, TemplateSyntaxError, nodes, pass_context
from jinja2.compiler import CodeGenerator
from jinja2.environment import TemplateExpression
from jinja2.exceptions import TemplateAssertionError, TemplateRuntimeError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Cycler
from jinja2.visitor import NodeTransformer

from generator.sandbox.guards import (
    FILTER_GUARDS,
    MEMORY_ADDRESS,
    OBJECT_AS_TEXT,
    TEXT_FILTERS,
    check_binop,
    check_brace_format,
    check_method,
    check_text_of,
    unrepeatable_message,
    unrepeatable_text,
)
from generator.sandbox.limits import LAYOUT_LIMITS, MAX_RANGE, Limits, TemplateLimitError, current, running

MAX_TEMPLATE_SOURCE = 20_000
"""Characters in one template or expression. Layout texts and rule expressions are a line
or two; a longer one is not a card's, and compiling it costs time and memory for nothing."""

LOOP_FILTER = "bounded loop"
"""Names of the filters the rewritten tree calls: the space keeps templates from naming them."""
OUTPUT_FILTER = "bounded output"
FIXED_OUTPUT_FILTER = "bounded fixed output"
READ_FILTER = "bounded read"
TEXT_FILTER = "bounded text"

UNREPEATABLE_FILTERS = frozenset({"random"})
"""Jinja2's filters and globals whose result changes from run to run: a card drawn with them
would differ between two builds of the same deck, and ``check`` could pass a face that
``build`` then refuses. Templates cannot use them."""
UNREPEATABLE_GLOBALS = frozenset({"lipsum"})


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with every run's work, output and call depth bounded by
    ``limits`` (see :mod:`generator.sandbox.limits`)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    # BoundedCodeGenerator and BoundedTemplate, set below once those classes exist
    code_generator_class: type[CodeGenerator]
    template_class: type[Template]

    def __init__(self, limits: Limits = LAYOUT_LIMITS, **options: Any):
        options.setdefault("undefined", StrictUndefined)
        super().__init__(**options)
        self.limits = limits
        self.filters = BoundedFilters({name: function for name, function in self.filters.items()
                                       if name not in UNREPEATABLE_FILTERS})
        self.filters.update({LOOP_FILTER: _loop, OUTPUT_FILTER: _output, FIXED_OUTPUT_FILTER: _fixed_output,
                             READ_FILTER: _read, TEXT_FILTER: _text})
        for name in UNREPEATABLE_GLOBALS:
            del self.globals[name]
        self.globals["range"] = _bounded_range
        self.globals["cycler"] = _cycler

    # compiling ----------------------------------------------------------------------------

    def parse(self, source: str, name: str | None = None, filename: str | None = None) -> nodes.Template:
        return _compiling(lambda: super(BoundedSandbox, self).parse(source, name, filename), source)

    def compile(self, source: Any, name: str | None = None, filename: str | None = None,
                raw: bool = False, defer_init: bool = False) -> Any:
        # jinja2 types raw by its two literal values; it is passed on as the caller gave it
        return _compiling(lambda: super(BoundedSandbox, self).compile(  # type: ignore[call-overload]
            source, name, filename, raw, defer_init), source)

    def compile_expression(self, source: str, undefined_to_none: bool = True) -> TemplateExpression:
        expression = _compiling(lambda: super(BoundedSandbox, self).compile_expression(
            source, undefined_to_none), source)
        return BoundedExpression(expression._template, undefined_to_none)

    def printed_field(self, template: nodes.Template) -> PrintedField | None:
        """The parts of a parsed template that prints nothing but one name (or an attribute of
        it), through filters that take no arguments and need no context (``{{ title }}``,
        ``${{ reward }}``, ``art/{{ card.id }}.png``, ``{{ roll | chance | percent }}``),
        between fixed text; None for any other."""
        if len(template.body) != 1 or not isinstance(template.body[0], nodes.Output):
            return None
        parts = template.body[0].nodes
        printed = [index for index, part in enumerate(parts) if not isinstance(part, nodes.TemplateData)]
        if len(printed) != 1:
            return None
        index = printed[0]
        node: nodes.Node | None = parts[index]
        filters: list[str] = []
        attributes: list[str] = []
        while isinstance(node, nodes.Filter) and not (node.args or node.kwargs or node.dyn_args or node.dyn_kwargs):
            filters.insert(0, node.name)
            node = node.node
        while isinstance(node, nodes.Getattr):
            attributes.insert(0, node.attr)
            node = node.node
        # self is Jinja2's own; a filter that reads the context needs the compiled template's
        if not isinstance(node, nodes.Name) or node.name == "self" or not all(
                getattr(self.filters.get(name), "passes", "unknown") is None for name in filters):
            return None
        return PrintedField(_fixed_text(parts[:index]), node.name, tuple(attributes), tuple(filters),
                            _fixed_text(parts[index + 1:]))

    def print_field(self, field: PrintedField, context: dict[str, Any]) -> str:
        """What the compiled template of ``field`` prints when its name is a key of
        ``context``, charged to a budget just as the compiled template charges it.
        It lets the plain ``{{ name }}`` texts of a layout print without compiling a template.
        (``finalize`` must be a plain function, as the layout environment's is, or None.)"""
        with running(self.limits):
            fixed = len(field.before) + len(field.after)
            if fixed:  # the compiled template charges its fixed text first, in one go
                _fixed_output(None, fixed)
            value = context[field.name]
            for attribute in field.attributes:  # through the sandbox, as the compiled template reads it
                value = self.getattr(value, attribute)
            for name in field.filters:
                value = self.filters[name](None, value)
            value = _output(None, value)
            return field.before + str(value if self.finalize is None else self.finalize(value)) + field.after

    # running: every hook Jinja2's sandbox offers charges the current budget ------------------

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        budget = current()
        budget.read(*args, *kwargs.values())
        args = check_method(budget, __obj, args, kwargs)
        with budget.call():
            result = super().call(__context, __obj, *args, **kwargs)
        budget.touch(budget.size(result))
        return result

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        budget = current()
        budget.read(left, right)
        check_binop(budget, operator, left, right)
        result = super().call_binop(context, operator, left, right)
        budget.touch(budget.size(result))
        return result

    def getitem(self, obj: Any, argument: Any) -> Any:
        result = super().getitem(obj, argument)
        if isinstance(argument, slice):  # a slice copies: charge it like any new value
            budget = current()
            budget.step()
            budget.touch(budget.size(result))
        return result

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        sandboxed = super().wrap_str_format(value)
        if sandboxed is None:
            return None
        template = value.__self__

        @functools.wraps(sandboxed)
        def checked(*args: Any, **kwargs: Any) -> str:
            check_brace_format(template)
            check_text_of(*args, *kwargs.values())
            return sandboxed(*args, **kwargs)

        return checked


class PrintedField(NamedTuple):
    """A template that prints one name, maybe through filters, between fixed text."""

    before: str
    name: str
    attributes: tuple[str, ...]
    """``card.id``: the attributes read from the name's value, in order."""
    filters: tuple[str, ...]
    """Filter names, the first applied first."""
    after: str


def _compiling(compile_step: Callable[[], Any], source: Any) -> Any:
    """Run one compiling step; a source too long or nested too deeply for Python's own
    limits becomes a template syntax error."""
    if isinstance(source, str) and len(source) > MAX_TEMPLATE_SOURCE:
        raise TemplateSyntaxError(f"the template is {len(source):,} characters long, more than "
                                  f"{MAX_TEMPLATE_SOURCE:,}", 1)
    try:
        return compile_step()
    except RecursionError:
        raise TemplateSyntaxError("brackets, tags or calls are nested too deeply", 1) from None
    except (SyntaxError, MemoryError) as error:
        raise TemplateSyntaxError(f"the template is nested too deeply to compile ({error.args[0]})",
                                  1) from None


class BoundedTemplate(Template):
    """A template whose every rendering runs within its environment's limits."""

    environment: BoundedSandbox

    def render(self, *args: Any, **kwargs: Any) -> str:
        with running(self.environment.limits):
            return super().render(*args, **kwargs)

    def generate(self, *args: Any, **kwargs: Any) -> Iterator[str]:
        yield self.render(*args, **kwargs)  # a budget cannot stay open across a generator's pauses


class BoundedExpression(TemplateExpression):
    """An expression (``compile_expression``) evaluated within its environment's limits."""

    _template: BoundedTemplate

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with running(self._template.environment.limits):
            return super().__call__(*args, **kwargs)


class BoundedCodeGenerator(CodeGenerator):
    """Compiles templates whose loops, printing, joining and comparing charge the budget."""

    def visit_Template(self, node: nodes.Template, frame: Any = None) -> None:
        # Jinja2 leaves an unknown filter or test inside an ``if`` to fail when it runs, on
        # every card that reaches it; no deck's template can ask which filters exist, so it
        # is a typo (or one taken out, like ``random``) to report once, now.
        for used in node.find_all((nodes.Filter, nodes.Test)):
            kind, known = ("filter", self.environment.filters) if isinstance(used, nodes.Filter) \
                else ("test", self.environment.tests)
            if used.name not in known:
                self.fail(f"No {kind} named {used.name!r}.", used.lineno)
        _Metered(self.name, self.filename, _binds_names(node)).visit(node)
        super().visit_Template(node, frame)

    def visit_Const(self, node: nodes.Const, frame: Any) -> None:
        """Every constant, written or folded from others (``1e308 - -1e308``), passes here on
        its way into the compiled code. Jinja2 writes a float as ``str(value)``, and an
        infinite one as ``inf``, a name the compiled template does not have: refuse it now."""
        if not _finite(node.value):
            raise TemplateSyntaxError("a number in the template is too large (the largest is about "
                                      "1.8e308)", node.lineno or 1, self.name, self.filename)
        super().visit_Const(node, frame)


class _Metered(NodeTransformer):
    """Rewrites a template's tree so the work Jinja2 does inline passes the budget."""

    def __init__(self, name: str | None, filename: str | None, binds: bool):
        self.name, self.filename = name, filename
        self.binds = binds

    def read(self, node: nodes.Expr) -> nodes.Expr:
        """``node``, through the read filter unless its value is one the template cannot have
        made large: a literal, or a name (or a field of one) when the template sets no names,
        so every name holds what the deck gave. A card's conditions are all of this kind."""
        if isinstance(node, nodes.Const) or (not self.binds and _given(node)):
            return node
        return _through(READ_FILTER, node)

    def visit_For(self, node: nodes.For) -> nodes.For:
        if node.recursive:
            raise TemplateAssertionError("recursive loops are not allowed in a template", node.lineno,
                                         self.name, self.filename)
        self.generic_visit(node)
        node.iter = _through(LOOP_FILTER, node.iter)
        return node

    def visit_Output(self, node: nodes.Output) -> nodes.Output:
        """Printed values pass the output filter; the output's fixed text is charged in one
        go, through an empty constant that also passes it."""
        self.generic_visit(node)
        fixed = sum(len(child.data) for child in node.nodes if isinstance(child, nodes.TemplateData))
        printed: list[nodes.Expr] = [child if isinstance(child, nodes.TemplateData)
                                     else _through(OUTPUT_FILTER, child) for child in node.nodes]
        if fixed:
            printed.insert(0, _through(FIXED_OUTPUT_FILTER, nodes.Const(fixed, lineno=node.lineno)))
        node.nodes = printed
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Concat:
        """``~`` reads its operands, and makes text of each: through the text filter."""
        self.generic_visit(node)
        node.nodes = [child if isinstance(child, nodes.Const) else _through(TEXT_FILTER, self.read(child))
                      for child in node.nodes]
        return node

    def visit_Compare(self, node: nodes.Compare) -> nodes.Compare:
        self.generic_visit(node)
        node.expr = self.read(node.expr)
        for operand in node.ops:
            operand.expr = self.read(operand.expr)
        return node

    def visit_Test(self, node: nodes.Test) -> nodes.Test:
        self.generic_visit(node)
        node.node = self.read(node.node)
        node.args = [self.read(argument) for argument in node.args]
        return node


def _fixed_text(parts: list[nodes.Expr]) -> str:
    """The text of an output's fixed parts (every part around its one printed value)."""
    return "".join(part.data for part in parts if isinstance(part, nodes.TemplateData))


def _binds_names(template: nodes.Template) -> bool:
    """Whether the template sets names of its own (``set``, loops, macros, ``with``); the one
    assignment of a compiled expression (its ``result``) does not count."""
    binders = (nodes.For, nodes.Macro, nodes.CallBlock, nodes.With, nodes.AssignBlock, nodes.FilterBlock)
    if any(True for _ in template.find_all(binders)):
        return True
    return any(not (isinstance(assign.target, nodes.Name) and assign.target.name == "result")
               for assign in template.find_all(nodes.Assign))


def _finite(value: Any) -> bool:
    """Whether no float in a constant (or in the lists, tuples and mappings Jinja2 folds into
    one) is infinite or not a number."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return _finite(tuple(value)) and _finite(tuple(value.values()))
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(_finite(item) for item in value)
    return True


def _given(node: nodes.Expr) -> bool:
    """A name, or a field or item of one picked by a literal (``card.id``, ``fields[0]``)."""
    while isinstance(node, (nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getitem) and not isinstance(node.arg, nodes.Const):
            return False
        node = node.node
    return isinstance(node, nodes.Name)


BoundedSandbox.code_generator_class = BoundedCodeGenerator
BoundedSandbox.template_class = BoundedTemplate


def _through(filter_name: str, node: nodes.Node) -> nodes.Filter:
    return nodes.Filter(node, filter_name, [], [], None, None, lineno=node.lineno)


def _bounded_range(*args: Any) -> range:
    """``range()`` refused past MAX_RANGE numbers as every other limit is (Jinja2's sandbox
    raises an OverflowError in its own words, which read as a card's fault, not a limit)."""
    numbers = range(*args)
    if numbers[MAX_RANGE:]:  # not len(): a range past the machine's largest size has none
        raise TemplateLimitError(f"range({', '.join(map(str, args))}) would make more than "
                                 f"{MAX_RANGE:,} numbers")
    return numbers


def _cycler(*items: Any) -> Cycler:
    """Jinja2's ``cycler()``, told in our words when it is given nothing to cycle through: a
    mistake in the template itself, whatever card it draws, so reported where the template
    is written, as a ``range()`` too long is."""
    if not items:
        raise TemplateLimitError("cycler() was given nothing to cycle through: give it the values, "
                                 "as in cycler('odd', 'even')")
    return Cycler(*items)


@pass_context  # context-passing filters are never run at compile time, outside a budget
def _loop(context: Any, iterable: Any) -> Iterator[Any]:
    budget = current()
    for item in iterable:
        budget.step()
        yield item


@pass_context
def _output(context: Any, value: Any) -> Any:
    budget = current()
    budget.read(value)
    if type(value) is str:
        budget.printed(len(value))
        return value
    problem = unrepeatable_text(value)
    if problem is not None:
        raise TemplateLimitError(unrepeatable_message("prints", problem))
    budget.printed(len(str(value)))
    return value


@pass_context
def _fixed_output(context: Any, length: int) -> str:
    budget = current()
    budget.touch(length)
    budget.printed(length)
    return ""


@pass_context
def _read(context: Any, value: Any) -> Any:
    current().read(value)
    return value


@pass_context
def _text(context: Any, value: Any) -> Any:
    check_text_of(value)
    return value


class BoundedFilters(dict):
    """The environment's filters, each one wrapped on the way in so it charges the budget
    (filters added later, such as the card filters, are wrapped too)."""

    def __init__(self, filters: dict[str, Callable[..., Any]]):
        super().__init__()
        self.update(filters)

    def __setitem__(self, name: str, function: Callable[..., Any]) -> None:
        super().__setitem__(name, _metered_filter(name, function))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for name, function in dict(*args, **kwargs).items():
            self[name] = function


PASSED: dict[str, Callable[[Any], Any]] = {
    "context": lambda context: context,
    "eval_context": lambda context: context.eval_ctx,
    "environment": lambda context: context.environment,
}
"""What a filter marked with Jinja2's ``pass_context`` (and the like) is given first."""


def _metered_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    if getattr(function, "metered", False) or name in (LOOP_FILTER, OUTPUT_FILTER, FIXED_OUTPUT_FILTER, READ_FILTER,
                                                       TEXT_FILTER):
        return function
    guard = FILTER_GUARDS.get(name)
    makes_text = name in TEXT_FILTERS
    passes = getattr(getattr(function, "jinja_pass_arg", None), "name", None)

    @pass_context
    def metered(context: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
        budget = current()
        budget.read(value, *args, *kwargs.values())
        if guard is not None:
            guard(budget, value, *args, **kwargs)
        if makes_text:
            check_text_of(value, *args, *kwargs.values())
        # join makes text of every item (or of one attribute of each, which it looks up itself):
        # a sequence not yet listed is read once, here, so its items can be looked at
        by_attribute = name == "join" and (kwargs.get("attribute") is not None or len(args) > 1)
        if name == "join":
            value = value if isinstance(value, (str, Sequence, Mapping)) else list(value)
            check_text_of(*args, *kwargs.values(), None if by_attribute else value)
        leading = (PASSED[passes](context),) if passes in PASSED else ()
        try:
            result = function(*leading, value, *args, **kwargs)
        except (TypeError, AttributeError):
            if value is None:  # Python's message would speak of 'NoneType'
                raise TemplateRuntimeError(f"{name} was given no value: the field is empty or "
                                           "missing") from None
            raise
        if by_attribute and MEMORY_ADDRESS.search(result):  # the text it made tells if one was an object
            raise TemplateLimitError(unrepeatable_message("turns", OBJECT_AS_TEXT))
        budget.touch(budget.size(result))
        return result

    # marks on the function, read back with getattr: it is metered, and what it is given first (see printed_field)
    metered.metered = True  # type: ignore[attr-defined]
    metered.passes = passes  # type: ignore[attr-defined]
    return metered
