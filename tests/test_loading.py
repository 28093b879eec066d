"""Malformed and hostile deck files: one error line naming file, line, column and field.

Every case runs the real ``deckpress check`` and expects exit status 2, a single
line on stderr of the form ``error: path:line:column: what is wrong (field)``,
nothing on stdout and no traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from cli_run import CARDS, REPO, deckpress

from generator.loading import LIBYAML_NESTING_CAP, LOADER, MAX_FILE_BYTES

GOOD = """\
deck:
  name: Small Deck
fields:
  name: {type: text, required: true}
  cost: {type: int, min: 0, max: 9}
  colour: {choices: [red, blue]}
cards:
  - {id: imp, count: 2, name: Imp, cost: 1, colour: red}
  - {id: eel, name: Eel, cost: 2, colour: blue}
decklists:
  starter:
    cards: {imp: 2, eel: 1}
"""


def write(folder: Path, text: str | bytes) -> Path:
    path = folder / "deck.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def single_error(path: Path) -> str:
    """Run check on ``path``; it must fail with exit 2 and exactly one error line."""
    run = deckpress("check", path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    assert len(run.error_lines) == 1, run.stderr
    line = run.error_lines[0]
    assert line.startswith("error: ")
    return line.removeprefix("error: ")


def test_the_good_deck_loads(tmp_path):
    run = deckpress("check", write(tmp_path, GOOD))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith("ok ")


@pytest.mark.parametrize("old, new, where, message", [
    # wrong types
    ("count: 2,", "count: two,", "8:15", "expected a whole number, found 'two' (count)"),
    ("count: 2,", "count: -1,", "8:15", "must be at least 0, found -1 (count)"),
    ("cost: 2,", "cost: cheap,", "9:26", "expected a whole number, found 'cheap' (cost)"),
    ("cost: 2,", "cost: 12,", "9:26", "must be at most 9, found 12 (cost)"),
    ("colour: blue}", "colour: green}", "9:35", "expected one of red, blue, found 'green' (colour)"),
    ("name: Small Deck", "name: [Small, Deck]", "2:3", "expected text, found a list (name)"),
    ("cards: {imp: 2, eel: 1}", "cards: {imp: 2, eel: one}", "12:21",
     "expected a whole number, found 'one' (eel)"),
    ("  cost: {type: int, min: 0, max: 9}", "  cost: {type: integer}", "5:10",
     "unknown field type 'integer'; did you mean 'int'? (type)"),
    # unknown fields, sections and settings
    ("name: Imp,", "nmae: Imp,", "8:25", "unknown field 'nmae'; did you mean 'name'? (nmae)"),
    ("decklists:", "decklist:", "10:1", "unknown section 'decklist'; did you mean 'decklists'? (decklist)"),
    ("  name: Small Deck", "  name: Small Deck\n  players: {min: 1, mx: 2}", "3:21",
     "unknown player setting 'mx'; did you mean 'max'? (mx)"),
    ("  starter:\n", "  starter:\n    nmae: Starter\n", "12:5",
     "unknown decklist setting 'nmae'; did you mean 'name'? (nmae)"),
    # duplicate keys and ids
    ("cost: 1,", "cost: 1, cost: 2,", "8:45", "duplicate key 'cost' (cost)"),
    ("{id: eel,", "{id: imp,", "9:6", "duplicate card id 'imp' (first at line 8) (id)"),
    # missing required parts
    ("{id: eel, name: Eel,", "{id: eel,", "9:5", "missing required field 'name' (name)"),
    ("  name: Small Deck\n", "  designer: Someone\n", "1:1", "missing required value (name)"),
    # a required field written empty is as missing as one left out
    ("name: Eel,", "name: null,", "9:15", "missing required field 'name' (name)"),
    ("name: Eel,", "name: ~,", "9:15", "missing required field 'name' (name)"),
    ("name: Eel,", 'name: "",', "9:15", "missing required field 'name' (name)"),
    ("name: Eel,", 'name: "  ",', "9:15", "missing required field 'name' (name)"),
    # references to cards that do not exist
    ("{imp: 2, eel: 1}", "{imp: 2, eels: 1}", "12:21", "no card with id 'eels'; did you mean 'eel'? (eels)"),
    # ids and shapes
    ("{id: eel,", "{id: Big Eel,", "9:6", "card id 'Big Eel' may use only a-z, 0-9, '-' and '_' (id)"),
    # ids become file names: one a file system cannot hold is refused where it is written
    ("{id: eel,", "{id: " + "e" * 129 + ",", "9:6",
     "card id '" + "e" * 20 + "...' is 129 bytes long; ids name output files, so at most 128 bytes (id)"),
    ("{id: eel, name: Eel,", "{name: " + "Eel " * 40 + ",", "9:5",
     "card id '" + "eel-" * 5 + "...' is 159 bytes long; ids name output files, so at most 128 bytes; "
     "give the card a shorter 'id:' than its name (id)"),
    ("  name: Small Deck\n", "  name: Small Deck\n  id: " + "d" * 240 + "\n", "3:3",
     "deck id '" + "d" * 20 + "...' is 240 bytes long; ids name output files, so at most 128 bytes (id)"),
    ("  - {id: eel, name: Eel, cost: 2, colour: blue}", "  - eel", "9:5",
     "a card must be a mapping of 'key: value' lines, found 'eel' (cards)"),
])
def test_malformed_deck(tmp_path, old, new, where, message):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    assert single_error(path) == f"{path}:{where}: {message}"


def test_yaml_syntax_error(tmp_path):
    path = write(tmp_path, GOOD.replace("colour: red}", "colour: red", 1))
    # The parser notices at the next card; the message points back to the unclosed brace.
    assert single_error(path) == (f"{path}:9:5: YAML syntax error: did not find expected ',' or '}}' "
                                  "(while parsing a flow mapping that starts at line 8)")


def test_bad_indentation(tmp_path):
    path = write(tmp_path, "deck:\n  name: X\n   players: 2\ncards: []\n")
    assert single_error(path) == f"{path}:3:11: YAML syntax error: mapping values are not allowed in this context"


def test_tab_indentation(tmp_path):
    path = write(tmp_path, "deck:\n\tname: X\n")
    assert single_error(path).startswith(f"{path}:2:1: YAML syntax error: ")


def test_missing_cards_section(tmp_path):
    path = write(tmp_path, "deck:\n  name: X\n")
    assert single_error(path) == f"{path}:1:1: missing required section 'cards' (cards)"


def test_empty_file(tmp_path):
    path = write(tmp_path, "")
    assert single_error(path) == f"{path}:1:1: missing required sections 'deck' and 'cards'"


def test_top_level_list(tmp_path):
    path = write(tmp_path, "- deck\n- cards\n")
    assert single_error(path) == f"{path}:1:1: deck file must be a mapping of 'key: value' lines, found a list"


def test_empty_card_list(tmp_path):
    path = write(tmp_path, "deck: {name: X}\ncards: []\n")
    assert single_error(path) == f"{path}:2:1: a deck needs at least one card (cards)"


def test_alias_bomb_is_refused(tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 10):  # 10**9 strings once expanded
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    path = write(tmp_path, "\n".join(lines) + "\n")
    line = single_error(path)
    assert line.startswith(f"{path}:")
    assert "document expands to more than 200,000 values (alias bomb?)" in line


def test_recursive_alias_is_refused(tmp_path):
    path = write(tmp_path, "deck: &loop {name: X, again: *loop}\ncards: [{id: a}]\n")
    assert single_error(path) == f"{path}:1:7: recursive alias"


def test_deep_nesting_is_refused(tmp_path):
    path = write(tmp_path, "deck:\n" + "".join("  " * level + f"k{level}:\n" for level in range(1, 80)))
    assert single_error(path) == f"{path}:51:101: nested more than 50 levels deep"


@pytest.mark.parametrize("depth", [500, 200_000])
def test_nesting_that_would_exhaust_the_parser_is_refused(tmp_path, depth):
    """Thousands of brackets are refused at once, not with a crash or a long wait."""
    path = write(tmp_path, "deck: " + "[" * depth + "]" * depth + "\n")
    line = single_error(path)
    assert line.startswith(f"{path}")
    assert "nested" in line and "50 levels" in line


def test_the_recursive_c_composer_is_used_only_with_a_libyaml_that_caps_nesting():
    """libyaml's composer recurses a level a nesting level; the libyaml it runs over must refuse
    nesting past 1,000 itself, or a deep enough file would overflow the stack."""
    assert LOADER is yaml.CSafeLoader  # PyYAML's wheels bring libyaml; 0.2.6 in those installed here
    assert yaml._yaml.get_version() >= LIBYAML_NESTING_CAP
    with pytest.raises(yaml.MarkedYAMLError, match="nesting depth"):
        yaml.compose("[" * 1_001 + "]" * 1_001, Loader=LOADER)


def test_a_pyyaml_without_libyaml_still_checks_a_deck():
    """PyYAML built without libyaml has no CSafeLoader; deckpress then reads decks with PyYAML's
    own parser, as slowly as that is, instead of failing as it starts."""
    probe = ("import sys; sys.modules['yaml._yaml'] = None\n"
             "from generator.cli import main\n"
             "sys.argv = ['deckpress', 'check', sys.argv[1]]\n"
             "main()\n")
    finished = subprocess.run([sys.executable, "-c", probe, str(CARDS / "cereal-killer")], cwd=REPO,
                              capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.startswith("ok    cereal-killer: I Want To Be A Cereal Killer, 152 cards")


def test_aliases_within_bounds_still_work(tmp_path):
    """A designer may reuse a face with an anchor; only runaway expansion is refused."""
    text = GOOD.replace("  - {id: eel, name: Eel, cost: 2, colour: blue}",
                        "  - &blue {id: eel, name: Eel, cost: 2, colour: blue}\n"
                        "  - {<<: *blue, id: eel-two, name: Eel Two}")
    run = deckpress("check", write(tmp_path, text))
    assert run.exit_code == 0, run.stderr


def test_oversized_file_is_refused_before_parsing(tmp_path):
    path = tmp_path / "deck.yaml"
    with path.open("wb") as stream:  # sparse: costs no disk and no time
        stream.truncate(MAX_FILE_BYTES + 1)
    assert single_error(path) == (f"{path}: file is {MAX_FILE_BYTES + 1:,} bytes; "
                                  f"the limit is {MAX_FILE_BYTES:,}")


def test_non_utf8_file(tmp_path):
    path = write(tmp_path, GOOD.replace("Small Deck", "Caf\u00e9 Deck").encode("latin-1"))
    assert single_error(path) == (f"{path}:2:12: not UTF-8 text: byte 0xe9 cannot be read; "
                                  "save the file as UTF-8")


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere" / "deck.yaml"
    assert single_error(path) == f"{path}: no such deck file or folder"


def test_folder_without_decks(tmp_path):
    assert single_error(tmp_path) == f"{tmp_path}: no deck.yaml in this folder or its subfolders"


def test_error_in_one_deck_does_not_hide_the_others(tmp_path):
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    good = write(tmp_path / "good", GOOD)
    bad = write(tmp_path / "bad", GOOD.replace("count: 2,", "count: two,"))
    run = deckpress("check", good, bad)
    assert run.exit_code == 2
    assert run.stdout.startswith("ok    good: Small Deck")
    assert run.error_lines == [f"error: {bad}:8:15: expected a whole number, found 'two' (count)"]


def _many_copies(cards: int, copies: int) -> str:
    rows = "".join(f"  - {{id: c{n}, count: {copies}}}\n" for n in range(cards))
    return f"deck:\n  name: Huge\ncards:\n{rows}"


def test_a_deck_past_a_million_cards_in_all_is_refused(tmp_path):
    # Each card stays within its own cap; only the sum would exhaust memory in a build.
    path = write(tmp_path, _many_copies(11, 100_000))
    assert single_error(path) == (f"{path}:3:1: 1,100,000 cards in all; "
                                  "a deck holds at most 1,000,000 (cards)")


def test_a_million_cards_in_all_still_load(tmp_path):
    run = deckpress("check", write(tmp_path, _many_copies(10, 100_000)))
    assert run.exit_code == 0, run.stderr
    assert "1000000 cards" in run.stdout


def test_a_decklist_past_the_caps_is_refused(tmp_path):
    path = write(tmp_path, GOOD.replace("cards: {imp: 2, eel: 1}", "cards: {imp: 200000, eel: 1}"))
    assert single_error(path) == f"{path}:12:13: must be at most 100,000, found 200,000 (imp)"


NUMBER_DECK = """\
deck:
  name: Numbers
fields:
  name: text
  weight: number
cards:
  - {id: a, weight: 1.5}
  - {id: b, weight: WEIGHT}
"""


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", ".NaN"])
def test_a_number_field_refuses_nan_and_infinity(tmp_path, value):
    # Otherwise they would reach stats and exports and be written as invalid JSON.
    path = write(tmp_path, NUMBER_DECK.replace("WEIGHT", value))
    found = float(value.replace(".", ""))
    assert single_error(path) == f"{path}:8:13: expected a finite number, found {found} (weight)"


def test_a_field_bound_refuses_nan(tmp_path):
    path = write(tmp_path, NUMBER_DECK.replace("weight: number", "weight: {type: number, max: .nan}")
                 .replace("WEIGHT", "2"))
    assert single_error(path) == f"{path}:5:26: expected a number, found the number nan (max)"


@pytest.mark.parametrize("spec", ["{type: int, min: 5, max: 1}", "{type: number, min: 2.5, max: 1.5}"])
def test_a_field_whose_max_is_below_its_min_is_refused(tmp_path, spec):
    # No value could fit: every card would be told its weight is wrong instead of the field.
    path = write(tmp_path, NUMBER_DECK.replace("weight: number", f"weight: {spec}").replace("WEIGHT", "2"))
    low, high = spec.removesuffix("}").split("min: ")[1].split(", max: ")
    column = path.read_text().splitlines()[4].index("max:") + 1
    assert single_error(path) == f"{path}:5:{column}: max ({high}) is below min ({low}) (weight)"


def test_a_field_of_one_value_is_kept(tmp_path):
    path = write(tmp_path, NUMBER_DECK.replace("weight: number", "weight: {type: int, min: 2, max: 2}")
                 .replace("weight: 1.5", "weight: 2").replace("WEIGHT", "2"))
    assert deckpress("check", path).exit_code == 0


def test_a_deck_named_by_a_folder_too_long_for_its_output_files_is_refused(tmp_path):
    folder = tmp_path / ("f" * 129)
    folder.mkdir()
    path = write(folder, GOOD)
    assert single_error(path) == (f"{path}:1:1: deck id (its folder's or file's name) '{'f' * 20}...' is 129 bytes "
                                  "long; ids name output files, so at most 128 bytes; give the deck a shorter "
                                  "'id:' under 'deck:' (id)")
