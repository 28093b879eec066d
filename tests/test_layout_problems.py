"""A broken layout shows every mistake in one run: every bad top-level setting, every element
with a problem (each on its own), inherited layouts, the icons and styles sections, and the
front and back layouts of a deck alike; ``build`` refuses with the same lines.

Each test writes a small project (``cards/game/deck.yaml`` beside its layouts) and runs the
real command, as a designer would.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from cli_run import deckpress, place_of

from generator.deck.model import load_deck
from generator.errors import EXIT_INPUT, EXIT_RULES, InputError, LayoutError, LayoutErrors, each_error
from generator.render import load_renderer

DECK = """\
deck: {{name: Problems, layout: {layout}}}
fields:
  name: {{type: text, required: true}}
  kind: {{choices: [hero, monster]}}
cards:
  - {{id: knight, name: Knight, kind: hero}}
  - {{id: troll, name: Troll, kind: monster}}
"""

SOUND = """\
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53, 8], size: 12}
"""

FOUR_MISTAKES = """\
size: poker
sise: bridge
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53, 8], colur: red}
  - {name: frame, rect: [2, 2, 59.5, 84.9], stroke: blurple}
  - {name: body, text: "{{ kind }}", box: [5, 20, 53, 12], fit: squeeze}
  - {name: footer, text: "{{ name }}", box: [5, 70, 53, 8]}
"""


def project(tmp_path: Path, layouts: dict[str, str], layout: str = "main") -> Path:
    """``tmp_path/cards/game/deck.yaml`` naming ``layout``, the layouts beside it; the deck file."""
    folder = tmp_path / "cards" / "game"
    folder.mkdir(parents=True)
    for name, text in layouts.items():
        (folder / f"{name}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    path = folder / "deck.yaml"
    path.write_text(DECK.format(layout=layout), encoding="utf-8")
    return path


def malformed_lines(deck: Path) -> list[str]:
    """The error lines of ``deckpress check`` on a deck it must refuse as malformed input (exit 2)."""
    run = deckpress("check", deck)
    assert run.exit_code == EXIT_INPUT
    return run.error_lines


def the_four_mistakes(layout: Path) -> list[str]:
    return [
        f"error: {place_of(layout, 'sise')}: unknown layout setting 'sise'; did you mean 'size'? (sise)",
        f"error: {place_of(layout, 'colur')}: unknown text setting 'colur'; did you mean 'colour'? (colur)",
        f"error: {place_of(layout, 'stroke: blurple')}: unknown colour 'blurple' (known: black, blue, brown, cream, "
        "gold, green, grey, ink, navy, orange, paper, pink, purple, red, silver, teal, white, yellow; "
        "or a hex code like #c62f2a) (stroke)",
        f"error: {place_of(layout, 'fit: squeeze')}: fit is one of line, wrap, found 'squeeze' (fit)",
    ]


def test_check_reports_a_bad_top_level_key_and_three_bad_elements_in_file_order(tmp_path):
    path = project(tmp_path, {"main": FOUR_MISTAKES})
    run = deckpress("check", path)
    assert run.exit_code == EXIT_INPUT
    assert run.error_lines == the_four_mistakes(path.parent / "main.yaml")
    assert run.stdout.splitlines()[0] == "FAIL  game: Problems, 2 cards, 0 rules checked: 4 problems"


def test_build_refuses_with_the_same_lines_and_writes_nothing(tmp_path):
    path = project(tmp_path, {"main": FOUR_MISTAKES})
    out = tmp_path / "out"
    run = deckpress("build", path, "--quiet", "--out", out)
    assert run.exit_code == EXIT_INPUT
    assert run.error_lines == ["error: deck 'game' has 4 problems; nothing was built",
                               *the_four_mistakes(path.parent / "main.yaml")]
    assert not out.exists() or list(out.iterdir()) == []


def test_front_and_back_layouts_are_both_reported(tmp_path):
    front = "elements:\n  - {text: hi, box: [5, 5, 20, 5], size: huge}\n"
    back = "bleed: lots\nelements: []\n"
    path = project(tmp_path, {"front": front, "back": back}, layout="{front: front, back: back}")
    folder = path.parent
    assert malformed_lines(path) == [
        f"error: {place_of(folder / 'back.yaml', 'bleed')}: expected a length such as 3mm, 0.5in or 9pt, "
        "found 'lots' (bleed)",
        f"error: {place_of(folder / 'front.yaml', 'size: huge')}: expected a length such as 3mm, 0.5in or 9pt, "
        "found 'huge' (size)",
    ]


def test_a_front_that_is_not_yaml_does_not_hide_the_back(tmp_path):
    front = "elements:\n  - text: [unclosed\n"
    back = "elements:\n  - {rect: card, fill: blurple}\n"
    path = project(tmp_path, {"front": front, "back": back}, layout="{front: front, back: back}")
    back_line, front_line = malformed_lines(path)
    assert back_line.startswith(f"error: {place_of(path.parent / 'back.yaml', 'fill: blurple')}: unknown colour")
    assert front_line.startswith(f"error: {path.parent / 'front.yaml'}:")


def test_mistakes_in_an_inherited_layout_and_in_the_layout_extending_it(tmp_path):
    base = "elements:\n  - {name: frame, rect: card, radius: -2}\n"
    child = "extends: base\ntitel: x\nelements:\n  - {name: tag, text: x, box: [5, 5, 9, 9], valign: up}\n"
    path = project(tmp_path, {"main": child, "base": base})
    base_file, main_file = path.parent / "base.yaml", path.parent / "main.yaml"
    assert malformed_lines(path) == [
        f"error: {place_of(base_file, 'radius')}: radius cannot be negative, found -2 (radius)",
        f"error: {place_of(main_file, 'titel')}: unknown layout setting 'titel'; did you mean 'title'? (titel)",
        f"error: {place_of(main_file, 'valign')}: valign is one of top, middle, bottom, found 'up' (valign)",
    ]


def test_an_element_with_a_mistake_is_left_out_so_the_next_one_is_still_checked(tmp_path):
    layout = """\
        elements:
          - {name: one, text: x, box: [5, 5, 20, 5], colur: red}
          - {name: two, text: x, box: [5, 15, 20, 5], colour: nocolour}
          - {name: one, text: y, box: [5, 25, 20, 5]}
          - just words
          - {name: three, icon: nosuchicon, box: [5, 35, 9, 9]}
        """
    path = project(tmp_path, {"main": layout})
    main = path.parent / "main.yaml"
    lines = malformed_lines(path)
    assert [line.split(": ", 2)[1] for line in lines] == [
        place_of(main, "colur"), place_of(main, "colour: nocolour"), place_of(main, "name: one, text: y"),
        place_of(main, "just words"), place_of(main, "{name: three"),
    ]
    assert "two elements named 'one' in one layout (name)" in lines[2]
    assert "unknown icon 'nosuchicon'" in lines[4]


def test_icons_styles_and_defaults_sections_report_each_entry(tmp_path):
    layout = """\
        defaults: {fnt: Vera, size: 9, colr: red}
        icons:
          good: [{circle: [50, 50, 40]}]
          spiral: [{spiral: [1, 2]}]
          tinted: {shapes: [{circle: [50, 50, 40]}], colour: "{{ kind }}"}
        styles:
          loud: {bold: 2}
          quiet: {colour: hush}
        elements:
          - {name: mark, icon: spiral, box: [5, 5, 9, 9]}
          - {name: tint, icon: tinted, box: [20, 5, 9, 9]}
          - {name: body, text: "[x]{.loud}", box: [5, 20, 50, 9]}
        """
    path = project(tmp_path, {"main": layout})
    main = path.parent / "main.yaml"
    lines = malformed_lines(path)
    assert [line.split(": ", 2)[1] for line in lines] == [
        place_of(main, "fnt"), place_of(main, "colr"), place_of(main, "{spiral"),
        place_of(main, "tinted"), place_of(main, "loud"), place_of(main, "quiet"),
    ]
    assert "unknown text default 'fnt'" in lines[0] and "unknown text default 'colr'" in lines[1]
    assert "an icon shape has one of circle" in lines[2]
    assert "icon 'tinted' needs a fixed colour" in lines[3]
    assert "bold is true or false" in lines[4] and "unknown colour 'hush'" in lines[5]
    # Elements drawing the broken icons are not told the icons are unknown: their mistake is said once.
    assert not any("unknown icon" in line for line in lines)


def test_a_bad_text_default_read_by_every_text_element_is_said_once(tmp_path):
    layout = """\
        defaults: {colour: blurple}
        elements:
          - {text: a, box: [5, 5, 20, 5]}
          - {text: b, box: [5, 15, 20, 5]}
        """
    path = project(tmp_path, {"main": layout})
    [line] = malformed_lines(path)
    assert line.startswith(f"error: {place_of(path.parent / 'main.yaml', 'colour: blurple')}: unknown colour 'blurple'")


def test_extends_of_a_missing_layout_stops_reading_that_layout(tmp_path):
    layout = "extends: nowhere\nelements:\n  - {text: x, box: [5, 5, 20, 5], colur: red}\n"
    path = project(tmp_path, {"main": layout})
    [line] = malformed_lines(path)
    assert line.startswith(f"error: {place_of(path.parent / 'main.yaml', 'extends')}: no layout named 'nowhere'")


def test_text_outside_the_safe_zone_in_two_elements_is_two_layout_errors(tmp_path):
    layout = """\
        elements:
          - {name: left, text: x, box: [1, 10, 20, 5]}
          - {name: right, text: x, box: [50, 10, 13, 5]}
        """
    path = project(tmp_path, {"main": layout})
    with pytest.raises(LayoutErrors) as caught:
        load_renderer(load_deck(path))
    assert caught.value.exit_code == EXIT_RULES
    assert [error.message.split(" of layout")[0] for error in each_error(caught.value)] == \
        ["text 'left'", "text 'right'"]
    run = deckpress("check", path)
    assert run.exit_code == EXIT_RULES
    assert [line.split(": ")[0] for line in run.stdout.splitlines()[1:]] == \
        [place_of(path.parent / "main.yaml", "{name: left"), place_of(path.parent / "main.yaml", "{name: right")]


def test_a_safe_zone_problem_beside_malformed_input_exits_2_with_both(tmp_path):
    layout = "elements:\n  - {name: edge, text: x, box: [1, 10, 20, 5]}\n  - {rect: card, fill: blurple}\n"
    path = project(tmp_path, {"main": layout})
    with pytest.raises(InputError) as caught:
        load_renderer(load_deck(path))
    assert caught.value.exit_code == EXIT_INPUT
    assert [type(error) for error in each_error(caught.value)] == [LayoutError, InputError]


def test_a_bad_size_does_not_add_guesses_about_the_safe_zone(tmp_path):
    layout = "size: [20mm, huge]\nelements:\n  - {text: x, box: [40, 10, 20, 5], colour: blurple}\n"
    path = project(tmp_path, {"main": layout})
    lines = malformed_lines(path)
    assert len(lines) == 2 and not any("safe zone" in line for line in lines)


def test_every_bad_entry_of_a_fonts_registry_is_reported(tmp_path):
    path = project(tmp_path, {"main": SOUND})
    fonts = path.parent / "fonts"
    fonts.mkdir()
    (fonts / "fonts.yaml").write_text("Hand: missing.ttf\nTitle: 12\nFamily: {regular: Vera.ttf, heavy: x.ttf}\n",
                                      encoding="utf-8")
    registry = fonts / "fonts.yaml"
    assert [line.split(": ", 2)[1] for line in malformed_lines(path)] == [
        place_of(registry, "Hand"), place_of(registry, "Title"), place_of(registry, "heavy"),
    ]


def test_a_sound_layout_loads_as_before(tmp_path):
    path = project(tmp_path, {"main": SOUND})
    renderer = load_renderer(load_deck(path))
    assert [element.name for element in renderer.layouts["front"].elements] == ["title"]
    assert deckpress("check", path).exit_code == 0


def test_a_bleed_past_ten_millimetres_is_refused_at_its_line(tmp_path):
    layout = "size: [63mm, 88mm]\nbleed: 11mm\nelements:\n  - {rect: card, fill: white, bleed: true}\n"
    path = project(tmp_path, {"main": layout})
    assert malformed_lines(path) == [
        f"error: {place_of(path.parent / 'main.yaml', 'bleed: 11mm')}: bleed must be at most 10 mm, "
        "found '11mm' (bleed)"]


def test_a_bleed_of_ten_millimetres_written_in_mm_or_cm_is_accepted(tmp_path):
    for bleed in ("10mm", "1cm"):
        layout = f"size: [63mm, 88mm]\nbleed: {bleed}\nelements:\n  - {{rect: card, fill: white, bleed: true}}\n"
        path = project(tmp_path / bleed, {"main": layout})
        run = deckpress("check", path)
        assert run.exit_code == 0, run.output
