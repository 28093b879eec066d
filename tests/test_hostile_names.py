"""Names YAML does not read as text: an unquoted ``1``, ``yes``, ``~`` or ``2024-01-01`` where a
field or a setting is named is one error at that key's line (exit 2), not a failure of every
face that the name reaches as a template keyword. A value YAML does not read as text, in a
text field, is told the same way to write it in quotes."""

from __future__ import annotations

import pytest
from cli_run import line_of
from hostile_support import deckpress, new_deck, refused, within

DECLARED_FIELDS = """fields:
  name: {type: text, required: true}
  type: {choices: [hero, monster, spell], required: true}
  power: {type: int, min: 0, max: 9}
  text: text
"""


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def the_only_error(run) -> str:
    errors = [line for line in run.error_lines if line.startswith("error:")]
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.parametrize("written, found", [
    ("1", "the number 1; write it in quotes"),
    ("yes", "'true' (yes/no); write it in quotes"),
    ("2024-01-01", "the date 2024-01-01; write it in quotes"),
    ("~", "nothing"),
])
def test_a_field_declared_under_a_name_that_is_not_text_is_one_input_error_at_its_line(tmp_path, written, found):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "  text: text\n", f"  text: text\n  {written}: text\n")
    at = f"{deck / 'deck.yaml'}:{line_of(deck / 'deck.yaml', f'  {written}: text')}:3"
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command)
        line = refused(run, (2,), f"field names are text, found {found} (fields)")
        assert line.startswith(f"error: {at}: ") and line == the_only_error(run)
        assert "keywords must be strings" not in run.stdout + run.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("declared", [True, False], ids=["declared fields", "undeclared fields"])
def test_a_card_field_whose_name_is_a_number_is_one_input_error_at_its_line(tmp_path, declared):
    deck = new_deck(tmp_path)
    if not declared:
        edit(deck / "deck.yaml", DECLARED_FIELDS, "")
    edit(deck / "deck.yaml", "name: Dragon, power: 5}", "name: Dragon, power: 5, 7: fire}")
    number = line_of(deck / "deck.yaml", "7: fire")
    run = deckpress("check", deck)
    line = refused(run, (2,), "field names are text, found the number 7; write it in quotes (cards)")
    assert line.startswith(f"error: {deck / 'deck.yaml'}:{number}:") and line == the_only_error(run)


def test_a_rule_setting_whose_name_is_a_number_is_one_input_error_at_its_line(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "  - total: 26\n", "  - total: 26\n    7: more\n")
    run = deckpress("check", deck)
    line = refused(run, (2,), "rule settings are text, found the number 7; write it in quotes (rules)")
    assert line.startswith(f"error: {deck / 'deck.yaml'}:{line_of(deck / 'deck.yaml', '    7: more')}:5: ")
    assert line == the_only_error(run)


def test_a_translated_field_whose_name_is_a_number_is_one_input_error_in_the_translation(tmp_path):
    deck = new_deck(tmp_path)
    (deck / "lang").mkdir()
    (deck / "lang" / "fr.yaml").write_text("cards:\n  knight: {name: Chevalier, 1: Vaincre}\n", encoding="utf-8")
    run = deckpress("check", deck, "--lang", "fr")
    line = refused(run, (2,), "field names are text, found the number 1; write it in quotes (knight)")
    assert line.startswith(f"error: {deck / 'lang' / 'fr.yaml'}:2:")
    assert line == the_only_error(run)


@pytest.mark.parametrize("written, found", [
    ("2024-01-01", "the date 2024-01-01"),
    ("yes", "'true' (yes/no)"),
])
def test_a_text_field_holding_an_unquoted_date_or_yes_is_told_to_write_it_in_quotes(tmp_path, written, found):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "  text: text\n", "  text: text\n  released: text\n")
    edit(deck / "deck.yaml", "name: Dragon, power: 5}", f"name: Dragon, power: 5, released: {written}}}")
    run = deckpress("check", deck)
    line = refused(run, (2,), f"expected text, found {found}; write it in quotes (released)")
    assert line.startswith(f"error: {deck / 'deck.yaml'}:{line_of(deck / 'deck.yaml', 'released: ' + written)}:")
    assert line == the_only_error(run)
