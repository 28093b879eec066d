"""Layout files: units, card sizes, extends, and the errors a designer sees."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress

from generator.deck.model import load_deck
from generator.errors import EXIT_INPUT, EXIT_RULES, InputError, LayoutError
from generator.render import load_renderer
from generator.render.layout import MAX_EXTENDS
from generator.render.units import UnitError, to_points

MM = 72 / 25.4

DECK = """\
deck:
  name: Test Deck
  layout: {layout}
fields:
  name: {{type: text, required: true}}
  kind: {{choices: [hero, villain]}}
cards:
  - {{id: ann, name: Ann, kind: hero}}
  - {{id: bob, name: Bob, kind: villain}}
"""


def write_project(tmp_path: Path, layouts: dict[str, str], layout: str = "main") -> Path:
    """A project with one deck (cards/test/deck.yaml) and the given layouts/ files."""
    deck_folder = tmp_path / "cards" / "test"
    deck_folder.mkdir(parents=True)
    (deck_folder / "deck.yaml").write_text(DECK.format(layout=layout))
    (tmp_path / "layouts").mkdir()
    for name, text in layouts.items():
        (tmp_path / "layouts" / f"{name}.yaml").write_text(text)
    return deck_folder


def renderer_for(tmp_path: Path, layouts: dict[str, str], layout: str = "main"):
    return load_renderer(load_deck(write_project(tmp_path, layouts, layout)))


@pytest.mark.parametrize("value, unit, points", [
    ("25.4mm", "mm", 72.0),
    ("2.54cm", "mm", 72.0),
    ("1in", "mm", 72.0),
    ("0.5 in", "mm", 36.0),
    ("12pt", "mm", 12.0),
    (10, "mm", 10 * 72 / 25.4),
    (2, "in", 144.0),
    (9, "pt", 9.0),
])
def test_lengths_convert_to_points(value, unit, points):
    assert to_points(value, unit) == pytest.approx(points)


def test_percentages_need_a_reference_and_bad_lengths_are_refused():
    assert to_points("25%", reference=200) == pytest.approx(50)
    with pytest.raises(UnitError):
        to_points("25%")
    with pytest.raises(UnitError):
        to_points("3 furlongs")


@pytest.mark.parametrize("size, expected_mm", [
    ("poker", (63.5, 88.9)), ("bridge", (57.2, 88.9)), ("tarot", (69.9, 120.7)),
    ("mini", (44.5, 63.5)), ("euro", (59, 92)), ("square", (70, 70)),
])
def test_named_card_sizes(tmp_path, size, expected_mm):
    renderer = renderer_for(tmp_path, {"main": f"size: {size}\nelements: []\n"})
    width, height = renderer.card_size
    assert (width * 25.4 / 72, height * 25.4 / 72) == pytest.approx(expected_mm)


def test_custom_size_in_inches_and_bleed_in_points(tmp_path):
    renderer = renderer_for(tmp_path, {"main": "size: [2.5in, 3.5in]\nbleed: 9pt\nelements: []\n"})
    assert renderer.card_size == pytest.approx((180, 252))
    assert renderer.bleed == pytest.approx(9)


def test_default_size_is_poker_with_3mm_bleed(tmp_path):
    renderer = renderer_for(tmp_path, {"main": "elements: []\n"})
    assert renderer.card_size == pytest.approx((63.5 * 72 / 25.4, 88.9 * 72 / 25.4))
    assert renderer.bleed == pytest.approx(3 * 72 / 25.4)


def test_layout_units_setting_applies_to_bare_numbers(tmp_path):
    renderer = renderer_for(tmp_path, {"main": "units: in\nsize: [2, 3]\nelements: []\n"})
    assert renderer.card_size == pytest.approx((144, 216))


def test_malformed_layout_yaml_names_file_and_line(tmp_path):
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {"main": "size: poker\nelements:\n  - text: [unclosed\n"})
    assert "main.yaml:" in str(caught.value)
    assert caught.value.exit_code == EXIT_INPUT


def test_unknown_element_setting_is_refused_with_a_suggestion(tmp_path):
    layout = "elements:\n  - text: hi\n    box: [5, 5, 20, 5]\n    colur: red\n"
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {"main": layout})
    message = str(caught.value)
    assert "main.yaml:4:5" in message and "colur" in message and "did you mean 'colour'" in message


def test_layout_reading_a_field_the_deck_lacks_is_refused(tmp_path):
    layout = "elements:\n  - text: '{{ nmae }}'\n    box: [5, 5, 20, 5]\n"
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {"main": layout})
    assert "nmae" in str(caught.value) and "main.yaml:2:5" in str(caught.value)


def test_template_syntax_error_is_an_input_error_with_position(tmp_path):
    layout = "elements:\n  - text: '{{ name '\n    box: [5, 5, 20, 5]\n"
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {"main": layout})
    assert "main.yaml:2:" in str(caught.value) and "template" in str(caught.value)


def test_missing_layout_is_named(tmp_path):
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {}, layout="nowhere")
    assert "no layout named 'nowhere'" in str(caught.value)
    assert "deck.yaml:3:" in str(caught.value)


def test_layout_names_cannot_be_paths(tmp_path):
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {}, layout="../../etc/passwd")
    assert "layout name" in str(caught.value)


def test_extends_cycle_is_refused(tmp_path):
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {"main": "extends: other\n", "other": "extends: main\n"})
    assert "extends itself" in str(caught.value)


def test_an_extends_chain_longer_than_the_limit_is_refused_where_it_goes_too_far(tmp_path):
    chain = {f"l{index}": f"extends: l{index + 1}\n" for index in range(MAX_EXTENDS + 5)}
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, chain, layout="l0")
    assert f"l{MAX_EXTENDS - 1}.yaml:1:" in str(caught.value)
    assert f"layout 'l{MAX_EXTENDS}' is more than {MAX_EXTENDS} layouts down one extends chain" in str(caught.value)
    short = {**{f"l{index}": f"extends: l{index + 1}\n" for index in range(MAX_EXTENDS - 1)},
             f"l{MAX_EXTENDS - 1}": "elements: []\n"}
    assert renderer_for(tmp_path / "short", short, layout="l0").layouts["front"].name == "l0"


def test_text_outside_the_safe_zone_is_a_layout_error(tmp_path):
    layout = "safe: 3mm\nelements:\n  - name: corner\n    text: hi\n    box: [1, 1, 20, 5]\n"
    with pytest.raises(LayoutError) as caught:
        renderer_for(tmp_path, {"main": layout})
    assert "corner" in str(caught.value) and "safe zone" in str(caught.value)
    assert caught.value.exit_code == EXIT_RULES


def test_unknown_font_and_unknown_icon_are_refused(tmp_path):
    with pytest.raises(InputError, match="unknown font 'Helvetica'"):
        renderer_for(tmp_path / "a", {"main": "elements:\n  - {text: hi, font: Helvetica, box: [5, 5, 20, 5]}\n"})
    with pytest.raises(InputError, match="unknown icon 'sunn'.*did you mean 'sun'"):
        renderer_for(tmp_path / "b", {"main": "elements:\n  - {icon: sunn, box: [5, 5, 20, 20]}\n"})


def test_front_and_back_layouts_must_share_a_card_size(tmp_path):
    layouts = {"front": "size: poker\nelements: []\n", "back": "size: tarot\nelements: []\n"}
    with pytest.raises(InputError, match="different card sizes"):
        renderer_for(tmp_path, layouts, layout="{front: front, back: back}")


def test_layout_in_the_deck_folder_wins_over_the_project_layouts(tmp_path):
    deck_folder = write_project(tmp_path, {"main": "size: poker\nelements: []\n"})
    (deck_folder / "main.yaml").write_text("size: square\nelements: []\n")
    renderer = load_renderer(load_deck(deck_folder))
    assert renderer.card_size == pytest.approx((70 * 72 / 25.4, 70 * 72 / 25.4))


def test_two_elements_with_one_name_in_a_file_are_refused(tmp_path):
    layout = "elements:\n  - {name: a, text: x, box: [5, 5, 20, 5]}\n  - {name: a, text: y, box: [5, 15, 20, 5]}\n"
    with pytest.raises(InputError, match="two elements named 'a'"):
        renderer_for(tmp_path, {"main": layout})


def test_deck_card_size_sizes_the_generic_layout_and_must_match_a_designed_one(tmp_path):
    folder = tmp_path / "cards" / "plain"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text("deck: {name: Plain, card_size: mini}\ncards:\n  - {name: One}\n")
    renderer = load_renderer(load_deck(folder))
    assert renderer.card_size == pytest.approx((44.5 * 72 / 25.4, 63.5 * 72 / 25.4))
    renderer.validate()
    (folder / "deck.yaml").write_text("deck: {name: Plain, card_size: mini, layout: main}\ncards:\n  - {name: One}\n")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "main.yaml").write_text("size: poker\nelements: []\n")
    with pytest.raises(InputError, match="card size mini but layout 'main' is drawn for poker"):
        load_renderer(load_deck(folder))


def test_font_registry_entries_must_stay_in_the_fonts_folder(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "fonts.yaml").write_text("Vera: Vera.ttf\nSneaky: ../../etc/evil.ttf\n")
    with pytest.raises(InputError) as caught:
        renderer_for(tmp_path, {"main": "elements: []\n"})
    assert "fonts.yaml:2:1" in str(caught.value) and "must be inside" in str(caught.value)


def test_font_registry_names_a_bundled_font_under_a_new_name(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "fonts.yaml").write_text("Heading: VeraBd.ttf\n")
    renderer = renderer_for(tmp_path, {"main": "elements:\n  - {text: hi, font: Heading, box: [5, 5, 40, 8]}\n"})
    renderer.validate()
    assert renderer.fonts == ["Heading"]


def test_layout_in_the_deck_folder_may_not_be_a_symlink_leading_out_of_it(tmp_path):
    deck_folder = write_project(tmp_path / "project", {})
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("size: square\nelements: []\n")
    (deck_folder / "main.yaml").symlink_to(outside)
    with pytest.raises(InputError) as caught:
        load_renderer(load_deck(deck_folder))
    message = str(caught.value)
    assert "deck.yaml:3:" in message and "outside the deck folder" in message and "(layout)" in message
    assert caught.value.exit_code == EXIT_INPUT


def test_layout_extended_from_the_deck_folder_may_not_be_a_symlink_leading_out_of_it(tmp_path):
    deck_folder = write_project(tmp_path / "project", {})
    (deck_folder / "main.yaml").write_text("extends: base\nelements: []\n")
    outside = tmp_path / "base.yaml"
    outside.write_text("size: square\nelements: []\n")
    (deck_folder / "base.yaml").symlink_to(outside)
    with pytest.raises(InputError) as caught:
        load_renderer(load_deck(deck_folder))
    assert "main.yaml:1:" in str(caught.value) and "outside the deck folder" in str(caught.value)


def test_symlinked_layout_inside_the_deck_folder_and_in_project_layouts_are_read(tmp_path):
    deck_folder = write_project(tmp_path, {"shared": "size: square\nelements: []\n"})
    (deck_folder / "real.yaml").write_text("size: mini\nelements: []\n")
    (deck_folder / "main.yaml").symlink_to(deck_folder / "real.yaml")
    assert load_renderer(load_deck(deck_folder)).card_size == pytest.approx((44.5 * MM, 63.5 * MM))
    (deck_folder / "main.yaml").unlink()
    (tmp_path / "layouts" / "main.yaml").symlink_to(tmp_path / "layouts" / "shared.yaml")
    assert load_renderer(load_deck(deck_folder)).card_size == pytest.approx((70 * MM, 70 * MM))


def test_layouts_and_fonts_do_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    """The same deck builds the same from anywhere: ./layouts and ./fonts are not looked in."""
    project = tmp_path / "project"
    deck_folder = write_project(project, {"main": "size: poker\nelements: []\n"})
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "layouts").mkdir(parents=True)
    (elsewhere / "layouts" / "main.yaml").write_text("size: square\nelements: []\n")
    (elsewhere / "fonts").mkdir()
    (elsewhere / "fonts" / "fonts.yaml").write_text("Heading: VeraBd.ttf\n")
    monkeypatch.chdir(elsewhere)
    renderer = load_renderer(load_deck(deck_folder))
    assert renderer.card_size == pytest.approx((63.5 * MM, 88.9 * MM))
    assert "Heading" not in renderer.font_registry

    loose = tmp_path / "loose"  # a deck outside any project: only its folder and the built-ins
    loose.mkdir()
    (loose / "deck.yaml").write_text("deck: {name: Loose, layout: main}\ncards:\n  - {name: One}\n")
    with pytest.raises(InputError, match="no layout named 'main'"):
        load_renderer(load_deck(loose))


@pytest.mark.parametrize("layout, where, field", [
    ("bleed: -5mm\nelements: []\n", "main.yaml:1:1", "bleed"),
    ("safe: .inf\nelements: []\n", "main.yaml:1:1", "safe"),
    ("elements:\n  - {line: [5, 5, 20, 5], width: -1}\n", "main.yaml:2:27", "width"),
    ("elements:\n  - {rect: [5, 5, 20, 5], radius: .nan}\n", "main.yaml:2:27", "radius"),
    ("elements:\n  - {icon: sun, box: [5, 5, 20, 5], repeat: 2, gap: -1mm}\n", "main.yaml:2:48", "gap"),
    ("elements:\n  - {line: [5, 5, 20, 5], dash: [1mm, -1mm]}\n", "main.yaml:2:27", "dash"),
    ("elements:\n  - {text: hi, box: [5, 5, 20, 5], size: .nan}\n", "main.yaml:2:36", "size"),
    ("elements:\n  - {text: hi, box: [5, 5, 20, 5], leading: .nan}\n", "main.yaml:2:36", "leading"),
    ("elements:\n  - {text: hi, box: [5, .nan, 20, 5]}\n", "main.yaml:2:16", "box"),
    ("elements:\n  - {line: [5, 5, .inf, 5]}\n", "main.yaml:2:6", "line"),
    ("size: [63.5, .nan]\nelements: []\n", "main.yaml:1:1", "size"),
    ("bleed: nan\nelements: []\n", "main.yaml:1:1", "bleed"),
    ("elements:\n  - {rect: [5, 5, inf, 5]}\n", "main.yaml:2:6", "rect"),
    ("elements:\n  - {text: hi, box: [5, 5, 20, 5], size: -Infinity}\n", "main.yaml:2:36", "size"),
])
def test_negative_and_non_finite_lengths_are_refused_with_file_line_and_field(tmp_path, layout, where, field):
    deck_folder = write_project(tmp_path, {"main": layout})
    run = deckpress("build", deck_folder, "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == EXIT_INPUT
    assert len(run.error_lines) == 1
    line = run.error_lines[0]
    assert where in line and line.endswith(f"({field})")
    assert "negative" in line or "not a finite number" in line or "above zero" in line
    assert "safe zone" not in line and "convert" not in line
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_field_named_like_a_special_takes_its_place_only_on_the_faces_that_set_it(tmp_path):
    """A deck's own ``side`` field: where a card leaves it out, ``side`` is still the face's
    side, so a layout drawing its fronts by ``side == 'front'`` does not print blank cards."""
    layout = ("size: poker\nelements:\n"
              "  - {name: title, when: \"side == 'front'\", text: \"{{ name }} ({{ side }})\", box: [6, 6, 50, 8]}\n")
    folder = write_project(tmp_path, {"main": layout})
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("  kind:", "  side: {choices: [light, dark]}\n  kind:")
                    .replace("{id: bob, name: Bob,", "{id: bob, name: Bob, side: dark,"))
    run = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 0, run.stderr
    with pdfplumber.open(tmp_path / "out" / "test.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "Ann (front)" in text  # Ann leaves the field out: the face's side
    assert "Bob" not in text  # Bob's field says dark, which is not 'front'
