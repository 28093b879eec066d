"""Layout texts that print one field (``{{ title }}``, ``${{ reward }}``, ``{{ roll | odds }}``)
are rendered without compiling them: the text, the errors and the sandbox's bounds must be
exactly the compiled template's."""

import json

import pytest
from jinja2 import TemplateError, meta

from generator.expressions import run_guarded
from generator.render.templating import compile_text, make_layout_environment
from generator.sandbox import MAX_TEMPLATE_OUTPUT, MAX_TEMPLATE_VALUE

ONE_NAME = ["{{ title }}", "${{ reward }}", "a {{x}} b", "x{# note #}{{ x }} pts\n", "{{- x -}}  ", "\n{{ x }}\n\n",
            "{{ category | upper }}", "YOUR\n{{ mine|upper() }}", "{{ roll | ways }}", "{{ roll | odds }} rolls",
            "{{ roll | chance | percent }}", "{{ name | length }}", "{{ name | title | trim }}!",
            "art/{{ card.id }}.png", "by {{ deck.designer | upper }}", "{{ name.upper }}", "{{ name.__class__ }}",
            "{{ name.real }}", "{{ name.a.b }}"]

VALUES = [{"id": "knight", "designer": "Ann"}, {"a": {"b": 3}}, "Frankenflakes", "", 7, 0, -3, 2.5, None, True,
          [1, "two"], {"a": 1}, ("t",), "12", 99,
          "é ✓ \u2603", "x" * (MAX_TEMPLATE_OUTPUT + 1), ["y"] * (MAX_TEMPLATE_VALUE + 1)]


def _outcome(run):
    try:
        return "ok", run()
    except TemplateError as error:
        return type(error).__name__, str(error)


def _compiled(environment, source, context):
    """What the template prints when Jinja2 compiles it, or its error."""
    template = environment.from_string(source)
    return _outcome(lambda: run_guarded(lambda: template.render(context)))


@pytest.mark.parametrize("source", ONE_NAME)
@pytest.mark.parametrize("value", VALUES, ids=lambda value: type(value).__name__)
def test_one_name_prints_what_the_compiled_template_prints(source, value):
    environment = make_layout_environment()
    name = environment.printed_field(environment.parse(source)).name
    context = {name: value, "other": 1}
    text = compile_text(environment, source)
    assert _outcome(lambda: text.render(context)) == _compiled(environment, source, context)


def test_over_the_bounds_it_fails_as_the_compiled_template_does():
    environment = make_layout_environment()
    long = "x" * (MAX_TEMPLATE_OUTPUT + 1)
    assert _outcome(lambda: compile_text(environment, "{{ x }}").render({"x": long}))[0] == "TemplateLimitError"
    shorter = "x" * (MAX_TEMPLATE_OUTPUT - 2)  # fits alone; not with the fixed text around it
    for source in ("{{ x }}", "[{{ x }}]!"):
        assert (_outcome(lambda source=source: compile_text(environment, source).render({"x": shorter}))
                == _compiled(environment, source, {"x": shorter}))
    assert _outcome(lambda: compile_text(environment, "[{{ x }}]!").render({"x": shorter}))[0] == "TemplateLimitError"


@pytest.mark.parametrize("source", ["{{ nmae }}", "Hi {{ nmae }}", "{{ range }}", "{{ joiner }}"])
def test_a_name_the_face_lacks_is_told_as_jinja_tells_it(source):
    environment = make_layout_environment()
    context = {"name": "Frankenflakes"}
    outcome = _outcome(lambda: compile_text(environment, source).render(context))
    assert outcome == _compiled(environment, source, context)
    if "nmae" in source:
        assert outcome == ("UndefinedError", "'nmae' is undefined")


def test_the_names_a_text_reads_are_known_without_compiling():
    environment = make_layout_environment()
    assert compile_text(environment, "${{ reward }}").names == frozenset({"reward"})


@pytest.mark.parametrize("source", ONE_NAME + ["{{ range }}", "{{ joiner }}", "{{ namespace.x }}", "{{ loop }}"])
def test_the_names_a_text_reads_are_the_ones_jinja_finds(source):
    """Which faces draw alike depends on these names (the face key reads them): a text that
    prints one field must name what Jinja2's own walk of the tree names, globals left out."""
    environment = make_layout_environment()
    jinja_finds = meta.find_undeclared_variables(environment.parse(source))
    assert compile_text(environment, source).names == jinja_finds


@pytest.mark.parametrize("source", ["{{ a }}{{ b }}", "{{ self }}", "{{ x['y'] }}", "{{ x.y() }}",
                                    "{% if x %}{{ x }}{% endif %}",
                                    "{{ 'x' }}", "{{ true }}", "plain", "{% set x = 1 %}{{ x }}",
                                    "{{ x | join }}", "{{ x | percent(2) }}", "{{ x | nosuchfilter }}",
                                    "{{ x | upper | join(', ') }}", "{{ x + 1 }}", "{{ 'a' | upper }}"])
def test_anything_more_is_compiled(source):
    environment = make_layout_environment()
    assert environment.printed_field(environment.parse(source)) is None


def test_an_unknown_filter_is_still_refused_when_the_layout_loads():
    with pytest.raises(TemplateError, match="No filter named 'nosuchfilter'"):
        compile_text(make_layout_environment(), "{{ name | nosuchfilter }}")


@pytest.mark.parametrize("source", ["{{ x | join('-') }}", "{{ x.__class__ }}", "{{ ''.__class__.__mro__ }}",
                                    "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"])
def test_other_texts_still_run_in_the_sandbox(source):
    environment = make_layout_environment()
    context = {"x": "ab"}
    assert (_outcome(lambda: compile_text(environment, source).render(context))
            == _compiled(environment, source, context))


@pytest.mark.parametrize("source", ["{{ name.__class__ }}", "{{ card.__init__ }}", "x{{ name.__class__.__mro__ }}"])
def test_an_attribute_printed_without_compiling_is_still_refused_by_the_sandbox(source):
    environment = make_layout_environment()
    assert environment.printed_field(environment.parse(source)) is not None
    context = {"name": "Knight", "card": {"id": "knight"}}
    with pytest.raises(TemplateError, match="unsafe"):
        compile_text(environment, source).render(context)


def test_a_colour_template_two_layouts_share_is_compiled_once(tmp_path, monkeypatch):
    """The front's and the back's layouts pick a fill by the same template, as a text and a
    condition they share are: each distinct source costs one compile, however many layouts."""
    from hostile_support import add_to_layout, new_deck

    from generator.deck import load_deck
    from generator.render import load_renderer, paint, templating

    colour = "{{ 'gold' if type == 'hero' else 'grey' }}"
    compiled = []

    def counted(environment, source):
        compiled.append(source)
        return compile_text(environment, source)

    for module in (templating, paint):  # wherever the colour's template is compiled from
        monkeypatch.setattr(module, "compile_text", counted, raising=False)
    deck = new_deck(tmp_path)
    add_to_layout(deck, f"elements:\n  - {{rect: [1, 1, 5, 5], fill: {json.dumps(colour)}}}")
    (deck / "back.yaml").write_text((deck / "layout.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    deck_file = deck / "deck.yaml"
    deck_file.write_text(deck_file.read_text(encoding="utf-8").replace(
        "layout: layout ", "layout: {front: layout, back: back} "), encoding="utf-8")
    renderer = load_renderer(load_deck(deck))
    assert renderer.layouts["front"] is not renderer.layouts["back"]
    assert compiled.count(colour) == 1
