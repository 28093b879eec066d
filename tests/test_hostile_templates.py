"""Hostile templates in layouts and deck rules end at once with one error line.

A layout's text and a deck's ``expr:`` rules are Jinja2 run in a sandbox; each
run has a budget of steps, data, value size, printed length and call depth.
These are the cases that used to hang or crash, and neighbours of each.
"""

from __future__ import annotations

import pytest
from cli_run import place_of
from hostile_support import add_rule, add_to_layout, deckpress, new_deck, refused, set_layout_text, within
from jinja2 import TemplateError

from generator.expressions import evaluate
from generator.render.templating import compile_condition, compile_text, make_layout_environment
from generator.sandbox import (
    MAX_CALL_DEPTH,
    MAX_FORMAT_WIDTH,
    MAX_RANGE,
    MAX_TEMPLATE_OUTPUT,
    MAX_TEMPLATE_SOURCE,
    MAX_TEMPLATE_STEPS,
    MAX_TEMPLATE_VALUE,
    TemplateLimitError,
)

RUNAWAY_TEMPLATES = {
    "nested loops": ("{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}",
                     f"more than {MAX_TEMPLATE_STEPS:,} loop steps"),
    "format width": ("{{ '%999999999d' % 1 }}", "format width 999999999"),
    "format width from an argument": ("{{ '%*d' % (999999999, 1) }}", "width taken from an argument"),
    "brace format width": ("{{ '{:999999999}'.format(1) }}", "format width 999999999"),
    "format filter": ("{{ '%.999999999f'|format(1) }}", "format width 999999999"),
    "center filter": ("{{ 'x'|center(999999999) }}", "center would make a value of 999,999,999"),
    "center method": ("{{ 'x'.center(999999999) }}", "center would make a value"),
    "indent": ("{{ 'x'|indent(999999999) }}", "indent would make a value"),
    "printing in a loop": ("{% for a in range(99999) %}{{ 'x' * 99999 }}{% endfor %}",
                           f"prints too much: more than {MAX_TEMPLATE_OUTPUT:,}"),
    "macro recursion": ("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
                        f"calls nest more than {MAX_CALL_DEPTH} deep"),
    "doubling text": ("{% set ns = namespace(s='ab') %}{% for i in range(60) %}"
                      "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}", "more than"),
    "one string many times over": ("{% set s = 'x' * 99999 %}{% set l = [s, s, s, s, s] %}"
                                   "{{ [l, l, l, l, l] }}", "would make a value of"),
    "repeating bytes": ("{{ 'x'.encode() * 999999999 }}", "repeating would make a value"),
    "replace with everything": ("{{ ('x' * 90000).replace('', 'yy') }}", "replace would make"),
    "join with a long separator": ("{{ range(9000)|map('string')|join('-' * 9000) }}", "more than"),
    "huge integer": ("{% set x = 10 ** 4000 %}{{ x * x }}", "too large a number"),
    "many slices": ("{{ range(3)|slice(999999999)|list }}", "slice would make a value"),
    "percent digits": ("{{ 0.5|percent(999999999) }}", f"more than {MAX_FORMAT_WIDTH} digits"),
    "huge range": ("{{ range(100000000)|list }}", f"range(100000000) would make more than {MAX_RANGE:,} numbers"),
    "range past any size": ("{{ range(10 ** 30)|length }}", f"would make more than {MAX_RANGE:,} numbers"),
}


@pytest.mark.parametrize("source, message", RUNAWAY_TEMPLATES.values(), ids=RUNAWAY_TEMPLATES)
def test_a_runaway_layout_template_is_refused_quickly(source, message):
    template = compile_text(make_layout_environment(), source)
    with within(), pytest.raises(TemplateError, match=message.replace("(", r"\(").replace(")", r"\)")
                                 .replace("*", r"\*").replace(".", r"\.")):
        template.render({})


def test_ordinary_templates_are_untouched():
    environment = make_layout_environment()
    context = {"name": "Knight", "power": 3, "fields": [("cost", 2), ("kind", "hero")]}
    text = compile_text(environment, "{{ name|upper }} {{ '%02d' % power }} {{ '{:>3}'.format(power) }}"
                                     "{% for k, v in fields %} {{ k }}={{ v }}{% endfor %}"
                                     "{% macro star(n) %}{{ '*' * n }}{% endmacro %} {{ star(power) }}")
    assert text.render(context) == "KNIGHT 03   3 cost=2 kind=hero ***"
    assert compile_condition(environment, "power > 2 and name in ['Knight']").render(context) is True


def test_recursive_loops_and_overlong_templates_are_refused_when_the_layout_loads():
    environment = make_layout_environment()
    with pytest.raises(TemplateError, match="recursive loops are not allowed"):
        compile_text(environment, "{% for a in x recursive %}{{ loop(a) }}{% endfor %}")
    with pytest.raises(TemplateError, match=f"more than {MAX_TEMPLATE_SOURCE:,}"):
        compile_text(environment, "{{ x }}" + "y" * MAX_TEMPLATE_SOURCE)
    with pytest.raises(TemplateError, match="nested too deeply"):
        compile_text(environment, "{{ " + "(" * 500 + "1" + ")" * 500 + " }}")


def test_each_run_has_its_own_budget():
    # Many cheap runs add up to more than one run's budget, and none is refused.
    template = compile_text(make_layout_environment(), "{% for i in range(100) %}{{ i }}{% endfor %}")
    for _ in range(MAX_TEMPLATE_STEPS // 50):
        template.render({})


def test_a_value_near_the_limit_is_fine_and_just_past_it_is_not():
    template = compile_text(make_layout_environment(), "{{ ('x' * n)|length }}")
    assert template.render({"n": MAX_TEMPLATE_VALUE}) == str(MAX_TEMPLATE_VALUE)
    with pytest.raises(TemplateLimitError):
        template.render({"n": MAX_TEMPLATE_VALUE + 1})


@pytest.mark.parametrize("source, message", [
    ("'x'|center(999999999) != ''", "center would make a value"),
    ("range(99999)|map('string')|map('center', 999)|join|length > 0", "more than"),
    ("1 / 0", "division by zero"),
    ("'%999999999d' % 1", "format width"),
])
def test_a_runaway_rule_expression_is_refused(source, message):
    with within(), pytest.raises(TemplateError, match=message):
        evaluate(source, {"cards": [], "total": 0})


# -- as a designer meets them ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["nested loops", "format width", "center filter", "indent",
                                  "printing in a loop", "macro recursion", "huge range"])
def test_check_and_build_name_the_layout_element_of_a_runaway_template(tmp_path, name):
    source, message = RUNAWAY_TEMPLATES[name]
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", source)
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        with within():
            line = refused(deckpress(*command), (2,), message.split(" (")[0])
        assert line.startswith(f"error: {deck / 'layout.yaml'}:") and "element 'body'" in line
        assert "Error:" not in line  # no Python exception names
    assert not (tmp_path / "out").exists()


def test_a_range_is_bounded_like_any_other_value_in_layouts_and_rules(tmp_path):
    template = compile_text(make_layout_environment(), "{{ range(n)|length }}")
    assert template.render({"n": MAX_RANGE}) == str(MAX_RANGE)
    with pytest.raises(TemplateLimitError, match=f"range\\({MAX_RANGE + 1}\\) would make more than"):
        template.render({"n": MAX_RANGE + 1})
    assert evaluate(f"range({MAX_RANGE})|length", {}) == MAX_RANGE  # a rule's larger budget keeps it
    refused_rule(tmp_path, "range(100000000)|length > 0", "range(100000000) would make more than 100,000 numbers")


def test_a_syntax_error_in_a_condition_is_malformed_input_at_its_line(tmp_path):
    deck = new_deck(tmp_path)
    path = deck / "layout.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("when: \"side == 'front'\"", "when: \"side ==\"", 1),
                    encoding="utf-8")
    at = place_of(path, 'when: "side =="')
    for command in commands(deck, tmp_path):
        line = refused(deckpress(*command), (2,), "expression error: unexpected ')' (when)")
        assert line.startswith(f"error: {at}: ")
    refused_rule(tmp_path / "rules", "total >", "rule 'expr' expression 'total >' failed: unexpected 'end of template'")


def test_a_title_that_divides_by_zero_is_an_error_line(tmp_path):
    deck = new_deck(tmp_path)
    add_to_layout(deck, 'title: "{{ 1/0 }}"')
    with within():
        line = refused(deckpress("build", deck, "--out", tmp_path / "out", "--quiet"), (1,),
                       "its title cannot be made: division by zero")
    assert f"{deck / 'deck.yaml'}:" in line


def test_a_runaway_title_is_an_input_error_at_the_layout(tmp_path):
    deck = new_deck(tmp_path)
    add_to_layout(deck, 'title: "{{ \'x\'|center(999999999) }}"')
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        with within():
            line = refused(deckpress(*command), (2,), "its title cannot be made: center would make a value")
        assert line.startswith(f"error: {deck / 'layout.yaml'}")
    assert not (tmp_path / "out").exists()


def test_a_runaway_expr_rule_is_one_error_line_at_the_rule(tmp_path):
    deck = new_deck(tmp_path)
    add_rule(deck, '  - expr: "\'x\'|center(999999999) != \'\'"\n    message: padded text')
    with within():
        line = refused(deckpress("check", deck), (2,), "center would make a value of 999,999,999")
    assert f"{deck / 'deck.yaml'}:" in line


# -- templates that once escaped as tracebacks, and ones whose result changed run to run ----

def set_colour(deck, name: str, value: str) -> None:
    """Give the layout's colour ``name`` a new value, written as YAML."""
    path = deck / "layout.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(index for index, line in enumerate(lines) if line.startswith(f"  {name}: "))
    lines[number] = f"  {name}: {value}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def commands(deck, tmp_path):
    return (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet"))


def refused_rule(root, expression: str, *fragments: str) -> str:
    """A new deck with one more rule, ``expr: expression``, fails ``check`` with exit 2 and an
    error line at deck.yaml holding ``fragments``; returns the line."""
    deck = new_deck(root)
    add_rule(deck, f"  - expr: {expression!r}\n    message: a hostile rule")
    line = refused(deckpress("check", deck), (2,), *fragments)
    assert line.startswith(f"error: {deck / 'deck.yaml'}:")
    return line


def test_a_colour_template_naming_its_own_colour_is_told_as_a_plain_name_is(tmp_path):
    plain = new_deck(tmp_path / "plain")
    set_colour(plain, "panel", "panel")
    expected = refused(deckpress("check", plain), (2,), "colour 'panel' is defined in terms of itself (fill)")
    deck = new_deck(tmp_path / "template")
    set_colour(deck, "panel", "\"{{ 'panel' }}\"")
    for command in commands(deck, tmp_path):
        with within():
            line = refused(deckpress(*command), (2,), "colour 'panel' is defined in terms of itself (fill)")
        assert line == expected.replace(str(plain), str(deck))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("colours", [
    {"panel": "\"{{ 'wash' }}\"", "wash": "\"{{ 'panel' }}\""},
    {"panel": "{linear: [\"{{ 'panel' }}\", red]}"},
], ids=["two colours naming each other", "a gradient stop naming its gradient"])
def test_colour_templates_that_go_round_in_a_circle_are_one_error(tmp_path, colours):
    deck = new_deck(tmp_path)
    for name, value in colours.items():
        set_colour(deck, name, value)
    with within():
        line = refused(deckpress("check", deck), (2,), "is defined in terms of itself")
    assert line.startswith(f"error: {deck / 'layout.yaml'}:")


def test_a_fixed_colour_template_still_gives_its_colour():
    from generator.render.paint import PaintCompiler, load_colour_table
    from generator.render.templating import TemplateMemo
    compiler = PaintCompiler({"panel": "{{ 'gold' }}", "edge": "{{ 'panel' }}"}, load_colour_table(),
                             TemplateMemo(make_layout_environment()))
    assert compiler.compile("edge").resolve({}) == compiler.compile("gold").resolve({})


def test_truncate_shorter_than_its_end_is_a_template_error_at_the_element(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{{ name|truncate(2) }}")
    for command in commands(deck, tmp_path):
        with within():
            line = refused(deckpress(*command), (2,), "truncate(2) is shorter than its end '...': "
                                                      "give a length of at least 3")
        assert line.startswith(f"error: {deck / 'layout.yaml'}:") and "element 'body'" in line
    assert not (tmp_path / "out").exists()


def test_truncate_shorter_than_its_end_in_a_rule_is_an_error_at_the_rule(tmp_path):
    refused_rule(tmp_path, '("abc" | truncate(-5)) == 1', "truncate(-5) is shorter than its end '...'")
    with pytest.raises(TemplateError, match="leeway cannot be negative"):
        compile_text(make_layout_environment(), "{{ 'abcdef'|truncate(4, leeway=-1) }}").render({})


@pytest.mark.parametrize("source", ["{{ 1e999 }}", "{{ 1e309|int }}", "{{ -1e999 }}",
                                    "{{ (1e308 - -1e308) > 1 }}", "{{ [1, 1e999]|length }}"])
def test_a_number_too_large_for_a_float_is_refused_when_the_template_compiles(source):
    with pytest.raises(TemplateError, match=r"a number in the template is too large \(the largest is about 1.8e308\)"):
        compile_text(make_layout_environment(), source)
    assert compile_text(make_layout_environment(), "{{ 1e308 > 1 }}").render({}) == "True"


def test_a_number_too_large_for_a_float_is_one_error_line_in_layouts_and_rules(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{{ 1e999 }}")
    for command in commands(deck, tmp_path):
        with within():
            line = refused(deckpress(*command), (2,), "template error: a number in the template is too large")
        assert line.startswith(f"error: {deck / 'layout.yaml'}:")
    refused_rule(tmp_path / "rules", "total < 1e309", "a number in the template is too large")


def test_random_and_lipsum_are_not_offered_so_builds_repeat(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{{ [1, 2, 3]|random }}")
    for command in commands(deck, tmp_path):
        refused(deckpress(*command), (2,), "No filter named 'random'")
    set_layout_text(deck, "body", "{{ lipsum(1) }}")
    for command in commands(deck, tmp_path):
        refused(deckpress(*command), (2,), "reads 'lipsum', which is not a field")
    refused_rule(tmp_path / "rules", "[true, false] | random", "No filter named 'random'")
    assert not (tmp_path / "out").exists()


def test_a_filter_given_a_missing_field_says_so(tmp_path):
    deck = new_deck(tmp_path)  # goblins, trolls and dragons have no text
    set_layout_text(deck, "body", "{{ text|wordwrap(20) }}")
    message = "card 'goblin', front: wordwrap was given no value: the field is empty or missing"
    checked = deckpress("check", deck)
    assert checked.exit_code == 1 and message in checked.stdout and "NoneType" not in checked.stdout
    line = refused(deckpress("build", deck, "--out", tmp_path / "out", "--quiet"), (1,), message)
    assert line.startswith("error: ") and "deck.yaml:" in line and "NoneType" not in line


@pytest.mark.parametrize("source", ["{{ name.upper }}", "{{ cycler('a', 'b') }}", "{{ range }}",
                                    "{{ [name.upper] }}"])
def test_printing_an_object_instead_of_a_value_is_refused(source):
    """Python prints such objects with their memory address, different in every run."""
    template = compile_text(make_layout_environment(), source)
    with pytest.raises(TemplateLimitError, match=r"prints a function or an object where a value belongs"):
        template.render({"name": "Knight"})


def test_a_method_printed_without_brackets_is_one_error_at_the_element(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{{ name.upper }}")
    for command in commands(deck, tmp_path):
        line = refused(deckpress(*command), (2,), "prints a function or an object where a value belongs")
        assert line.startswith(f"error: {deck / 'layout.yaml'}:") and "element 'body'" in line
        assert "0x" not in line


OBJECTS_MADE_TEXT = {
    "string filter": "(cycler('a', 'b')|string) < 'x'",
    "string filter of a method": "(name.upper|string) == 'x'",
    "concatenation": "(joiner() ~ '') < 'x'",
    "concatenation of a method": "('at ' ~ name.upper) < 'x'",
    "concatenation of a global": "(range ~ '') < 'x'",
    "format filter": "('%s'|format(cycler('a'))) < 'x'",
    "percent format": "('%s' % joiner()) < 'x'",
    "percent format by name": "('%(a)s' % {'a': joiner()}) < 'x'",
    "brace format": "('{}'.format(cycler('a'))) < 'x'",
    "join of objects": "([cycler('a'), 'b']|join) < 'x'",
    "join of methods": "([name.upper]|join(', ')) < 'x'",
    "text filter": "(cycler('a')|upper) < 'x'",
    "replace filter": "(cycler('a')|replace('0x', '')) < 'x'",
}


@pytest.mark.parametrize("expression", OBJECTS_MADE_TEXT.values(), ids=OBJECTS_MADE_TEXT)
def test_turning_an_object_into_text_is_refused_even_when_nothing_prints_it(expression):
    """A comparison prints nothing, but its verdict would follow the object's memory address."""
    environment = make_layout_environment()
    for template in (compile_text(environment, "{{ " + expression + " }}"), compile_condition(environment, expression)):
        with pytest.raises(TemplateLimitError, match=r"turns a function or an object into text where a value belongs"):
            template.render({"name": "Knight", "fields": ["a", "b"]})


@pytest.mark.parametrize("expression", ["(fields|map('upper')|string) < 'x'", "(fields|reverse ~ '') < 'x'",
                                        "('%s'|format(fields|select)) < 'x'", "(fields|map('upper')) ~ ''"])
def test_making_text_of_a_sequence_not_yet_listed_says_to_list_it(expression):
    environment = make_layout_environment()
    for template in (compile_text(environment, "{{ " + expression + " }}"), compile_condition(environment, expression)):
        with pytest.raises(TemplateLimitError, match=r"turns a sequence that is not yet a list .*add \| list"):
            template.render({"name": "Knight", "fields": ["a", "b"]})


@pytest.mark.parametrize("attribute", ["'{}'", "attribute='{}'"], ids=["by position", "by name"])
def test_join_of_an_attribute_judges_the_attribute_however_it_is_given(attribute):
    """What join makes text of is each item's attribute: a plain one passes, an object does not."""
    environment = make_layout_environment()
    plain = "{{ [cycler('odd', 'even')]|join(', ', " + attribute.format("current") + ") }}"
    assert compile_text(environment, plain).render({}) == "odd"
    method = "{{ [cycler('odd', 'even')]|join(', ', " + attribute.format("next") + ") }}"
    with pytest.raises(TemplateLimitError, match=r"^turns a function or an object into text"):
        compile_text(environment, method).render({})


def test_printing_a_sequence_not_yet_listed_says_to_list_it():
    with pytest.raises(TemplateLimitError, match=r"^prints a sequence that is not yet a list .*add \| list"):
        compile_text(make_layout_environment(), "{{ fields|map('upper') }}").render({"fields": ["a", "b"]})


@pytest.mark.parametrize("source, text", [
    ("{{ 'Jump at 0x1F>' }}", "Jump at 0x1F>"), ("{{ (['Jump at 0x1F>']|string)|length }}", "17"),
    ("{{ ['Jump at 0x1F>', 'b']|join(' ') }}", "Jump at 0x1F> b"),
    ("{{ name|string }}", "Knight"), ("{{ power|string ~ '/' ~ none|string }}", "3/None"),
    ("{{ name ~ ' at 0x12 ' ~ [1, 2] }}", "Knight at 0x12 [1, 2]"), ("{{ fields|map('upper')|join(', ') }}", "A, B"),
    ("{{ fields|map('upper')|first }}", "A"), ("{{ '%s-%d'|format(name, power) }}", "Knight-3"),
    ("{{ '{} {}'.format(name, power) }}", "Knight 3"), ("{{ '%s' % (fields,) }}", "['a', 'b']"),
    ("{{ cycler('a', 'b').next() ~ joiner('/')() }}", "a"), ("{{ name.upper()|string }}", "KNIGHT"),
])
def test_values_still_become_text(source, text):
    assert compile_text(make_layout_environment(), source).render({"name": "Knight", "power": 3,
                                                                   "fields": ["a", "b"]}) == text


@pytest.mark.parametrize("text", ["{{ cycler('a', 'b')|string }}", "{{ name ~ joiner() }}",
                                  "{{ 'Hit %s'|format(name.upper) }}", "{{ [name, cycler(1)]|join(' ') }}"])
def test_text_made_from_an_object_is_one_error_at_the_element(tmp_path, text):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", text)
    for command in commands(deck, tmp_path):
        line = refused(deckpress(*command), (2,), "turns a function or an object into text where a value belongs",
                       "its text would change from run to run")
        assert line.startswith(f"error: {deck / 'layout.yaml'}:") and "element 'body'" in line
        assert "0x" not in line
    assert not (tmp_path / "out").exists()


def test_a_rule_comparing_text_made_from_an_object_is_one_error_at_the_rule(tmp_path):
    line = refused_rule(tmp_path, "(cycler('a', 'b')|string) < 'x'",
                        "turns a function or an object into text where a value belongs")
    assert "0x" not in line
    refused_rule(tmp_path / "joined", "(total ~ joiner()) != ''", "turns a function or an object into text")


def test_a_deck_using_cycler_and_joiner_builds_the_same_bytes_twice(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{% set c = cycler('odd', 'even') %}{% set j = joiner(' / ') %}"
                                  "{{ j() }}{{ c.next() }}{{ j() }}{{ c.next() }} at 0x12 {{ name.upper() }}")
    builds = []
    for out in ("one", "two"):
        run = deckpress("build", deck, "--out", tmp_path / out, "--quiet")
        assert run.exit_code == 0, run.stderr
        builds.append((tmp_path / out / "demo.pdf").read_bytes())
    assert builds[0] == builds[1]


def test_a_cycler_with_nothing_to_cycle_is_an_error_line_in_our_words(tmp_path):
    said = "cycler() was given nothing to cycle through: give it the values, as in cycler('odd', 'even')"
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{{ cycler().next() }}")
    for command in commands(deck, tmp_path):  # a mistake in the layout: told there, as malformed input
        line = refused(deckpress(*command), (2,), said, "element 'body'")
        assert line.startswith(f"error: {deck / 'layout.yaml'}:") and "at least one item" not in line
    line = refused_rule(tmp_path / "rules", "cycler() == 1", f"'cycler() == 1' failed: {said}")
    assert "at least one item" not in line


def test_an_unknown_filter_inside_a_condition_is_one_error_when_the_layout_loads(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "body", "{{ text or '' }}{{ ' x' if ([1, 2]|random) > 1 }}")
    for command in commands(deck, tmp_path):
        run = deckpress(*command)
        line = refused(run, (2,), "template error: No filter named 'random'.")
        assert line.startswith(f"error: {deck / 'layout.yaml'}:")
        assert "card '" not in run.stdout + run.stderr  # once, not on every card
    with pytest.raises(TemplateError, match="No test named 'nosuch'"):
        compile_condition(make_layout_environment(), "x if x is nosuch else 1")
