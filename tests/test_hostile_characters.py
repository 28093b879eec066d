"""Characters YAML refuses anywhere in a file (U+FFFF, U+FFFE, C0 and C1 controls), and a
layout's title template that divides by zero or calls itself without end: each is one line
that says where it is (file, line, column), never the parser's two lines or Python's words."""

from __future__ import annotations

import pytest
from cli_run import line_of
from hostile_support import add_to_layout, deckpress, new_deck, refused, within


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("character, kind", [
    ("\uffff", "U+FFFF, a noncharacter"),
    ("\ufffe", "U+FFFE, a noncharacter"),
    ("\x9b", "U+009B, a control character"),
    ("\x01", "U+0001, a control character"),
    ("\x7f", "U+007F, a control character"),
])
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_character_yaml_refuses_in_the_deck_file_is_one_line_at_its_line_and_column(tmp_path, character, kind,
                                                                                      command):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "name: Shield", f"name: Sh{character}ield")
    line = line_of(deck / "deck.yaml", "id: shield")
    column = (deck / "deck.yaml").read_text(encoding="utf-8").splitlines()[line - 1].index(character) + 1
    with within():
        run = deckpress(command, deck, *(("--out", tmp_path / "out", "--quiet") if command == "build" else ()))
    error = refused(run, (2,), f"{deck / 'deck.yaml'}:{line}:{column}: holds {kind}, which YAML files may not "
                    "contain; delete it")
    assert run.error_lines == [error]
    assert character not in run.stderr and "position" not in run.stderr and "<unicode string>" not in run.stderr


def test_the_column_counts_characters_not_bytes(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "name: Shield", "name: Łódź\uffff")
    line = line_of(deck / "deck.yaml", "id: shield")
    column = (deck / "deck.yaml").read_text(encoding="utf-8").splitlines()[line - 1].index("\uffff") + 1
    refused(deckpress("check", deck), (2,), f"deck.yaml:{line}:{column}: holds U+FFFF")


def test_a_character_yaml_refuses_in_a_layout_is_told_in_the_layout(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "layout.yaml", "size: poker", "size: poker\ntitle: \"x\x85\x9b\"")
    refused(deckpress("check", deck), (2,), f"{deck / 'layout.yaml'}:", ": holds U+009B, a control character")


@pytest.mark.parametrize("template, found, exit_code", [
    ("{{ name }} {{ 1 // 0 }}", "integer division or modulo by zero", 1),
    ("{{ name }} {{ power / 0 }}", "division by zero", 1),
    ("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", "calls nest more than 40 deep", 2),
])
def test_a_title_template_that_fails_names_the_card_and_the_layout_line_of_the_template(tmp_path, template, found,
                                                                                          exit_code):
    deck = new_deck(tmp_path)
    add_to_layout(deck, f"title: {template!r}")
    title_line = line_of(deck / "layout.yaml", "title: ")
    for command in (("check",), ("build", "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command, deck)
        assert run.exit_code == exit_code, (run.stdout, run.stderr)
        printed = (run.stdout + run.stderr).splitlines()
        knight = next(line for line in printed if "card 'knight', front:" in line)
        assert f"its title cannot be made: {found}" in knight
        assert knight.endswith(f"(title of layout 'layout' at {deck / 'layout.yaml'}:{title_line}:1)")
        assert "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()
