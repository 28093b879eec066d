"""Loading gives exactly the data and types PyYAML's SafeLoader gives, with a position
for every key and list item.

Every bundled YAML file, a generated all-distinct deck and a list of scalars YAML reads
in surprising ways (yes/no, 0x1F, 1_000, .inf, ~, dates) are loaded and compared with
``yaml.safe_load``; anchors, merge keys and tags build what a designer wrote, and what
deckpress refuses (duplicate keys, recursive or undefined aliases, a second document,
deep nesting, a value that cannot be built) is one error naming its line and column.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from cli_run import deckpress

from generator import loading
from generator.errors import InputError, Position
from generator.loading import parse_yaml

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(path for folder in ("cards", "layouts", "generator", "fonts")
                 for path in (ROOT / folder).rglob("*.yaml")
                 if "scaffold" not in path.parts or "@@" not in path.read_text(encoding="utf-8"))
"""Every YAML file that ships, but for the scaffold's templates (filled in by ``new``)."""

TRICKY = [
    "yes", "no", "on", "off", "Yes", "NO", "y", "n", "true", "False", "TRUE",
    "~", "null", "Null", "0x1F", "0o17", "017", "0b101", "1_000", "1:30", "-1:30:00",
    "+5", "-0", "0", "007", "3.", ".5", "1e3", "1.0e+3", "6.02e23", ".inf", "-.inf", ".NaN",
    "2024-02-29", "2024-02-29 12:30:00", "2024-02-29T12:30:00Z", "2001-12-14t21:59:43.10-05:00",
    "12:30", "1.2.3", "<x", "<<<", "=x", "~x", "no way", "on time", "100 coins",
    "0.5x", "+", ".", "-x", "é", "٣", "²", "Yes!",
]
"""Plain scalars whose type YAML 1.1 decides by their look: each must come out as
SafeLoader makes it (a bool, an int in base 16, 8 or 60, a float, a date, None, or text)."""


def typed(value):
    """``value`` with every part's type spelled out, so True and 1, 1 and 1.0 differ."""
    if isinstance(value, dict):
        return ("dict", [(typed(key), typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    return (type(value).__name__, value)


def loaded(text: str, path: Path = Path("deck.yaml")):
    return parse_yaml(text, path)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: str(path.relative_to(ROOT)))
def test_bundled_files_load_as_safe_load_reads_them(path):
    text = path.read_text(encoding="utf-8")
    assert typed(loaded(text, path).data) == typed(yaml.safe_load(text) or {})


def test_an_all_distinct_deck_loads_with_every_position(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from decks import distinct_deck
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path = distinct_deck(tmp_path, 300)
    text = path.read_text(encoding="utf-8")
    document = loaded(text, path)
    assert typed(document.data) == typed(yaml.safe_load(text))
    lines = text.splitlines()
    card = document.data["cards"][17]
    at = document.at("cards", 17, "name")
    assert lines[at.line - 1][at.column - 1:].startswith(f"name: {card['name']}")
    item = document.at("cards", 17)
    assert lines[item.line - 1][item.column - 1:].startswith("id: ")


@pytest.mark.parametrize("scalar", TRICKY)
def test_tricky_plain_scalars_resolve_as_safe_loader_does(scalar):
    text = f"value: {scalar}\nlist: [{scalar}, x]\n{scalar}: key\n"
    try:
        expected = yaml.safe_load(text)
    except ValueError:  # a date-looking scalar that is no date: refused as SafeLoader refuses it
        with pytest.raises(InputError, match="invalid value"):
            loaded(text)
        return
    assert typed(loaded(text).data) == typed(expected)


@pytest.mark.parametrize("text, expected", [
    ("a: 'yes'\nb: \"0x1F\"\nc: |\n  1_000\nd: >\n  ~\n",
     {"a": "yes", "b": "0x1F", "c": "1_000\n", "d": "~\n"}),
    ("- [1, {2: two}]\n- {}\n- []\n- ''\n", [[1, {2: "two"}], {}, [], ""]),
    ("just text\n", "just text"),
    ("a:\nb: [~, null, '']\n? c\n", {"a": None, "b": [None, None, ""], "c": None}),
    ("---\n", None),
    ("", {}),
    ("# only a comment\n", {}),
])
def test_quoted_block_and_odd_documents(text, expected):
    assert typed(loaded(text).data) == typed(expected)


def test_positions_are_those_of_keys_and_list_items():
    document = parse_yaml("deck:\n  name: Small\ncards:\n  - {id: imp, count: 2}\n  -   id: eel\n",
                          Path("deck.yaml"))
    assert document.at() == Position(Path("deck.yaml"), 1, 1)
    assert document.at("deck", "name") == Position(Path("deck.yaml"), 2, 3)
    assert document.at("cards", 0) == Position(Path("deck.yaml"), 4, 5)
    assert document.at("cards", 0, "count") == Position(Path("deck.yaml"), 4, 15)
    assert document.at("cards", 1) == Position(Path("deck.yaml"), 5, 7)
    assert document.at("cards", 1, "id", "missing") == Position(Path("deck.yaml"), 5, 7)


@pytest.mark.parametrize("text, expected", [
    ("base: &b {cost: 1}\ncard: {<<: *b, name: Imp}\n", {"base": {"cost": 1}, "card": {"name": "Imp", "cost": 1}}),
    # earlier sources of a merge win, as YAML specifies; a key written out wins over all
    ("card: {name: Imp, <<: [{cost: 1}, {cost: 2, colour: red}]}\n",
     {"card": {"name": "Imp", "cost": 1, "colour": "red"}}),
    ("card: {cost: 3, <<: {cost: 1, name: Imp}}\n", {"card": {"cost": 3, "name": "Imp"}}),
    ("a: &x 1\nb: *x\n", {"a": 1, "b": 1}),
    ("a: !!str 1\nb: !!binary aGk=\nd: ! 12\n", {"a": "1", "b": b"hi", "d": 12}),
])
def test_anchors_merge_keys_and_tags_build_what_was_written(text, expected):
    assert typed(loaded(text).data) == typed(expected)


def test_merged_keys_are_placed_where_they_were_written():
    document = loaded("base: &b {cost: 1}\ncard: {<<: *b, name: Imp}\n")
    assert document.at("card", "cost") == Position(Path("deck.yaml"), 1, 11)
    assert document.at("card", "name") == Position(Path("deck.yaml"), 2, 16)


@pytest.mark.parametrize("text, error", [
    ("a: 1\na: 2\n", "deck.yaml:2:1: duplicate key 'a' (a)"),
    ("? [1, 2]\n: list key\n", "deck.yaml:1:3: mapping keys must be plain values"),
    ("a: =\n", "deck.yaml:1:4: invalid value: could not determine a constructor for the tag "
               "'tag:yaml.org,2002:value'"),
    ("a: *nowhere\n", "deck.yaml:1:4: alias '*nowhere' names no anchor defined before it"),
    ("a: &x 1\nb: &x 2\nc: *x\n",
     "deck.yaml:2:4: anchor '&x' is defined again (first at line 1); give one of them another name"),
    ("a: 1\n---\nb: 2\n", "deck.yaml:2:1: a deck file holds one YAML document; found a second '---'"),
    ("a: &r [*r]\n", "deck.yaml:1:4: recursive alias"),
    ("a: 2024-13-45\n", "deck.yaml:1:4: invalid value: month must be in 1..12"),
    ("a: [\n", "deck.yaml:2:1: YAML syntax error: did not find expected node content"),
    ("x: " + "[" * 60 + "]" * 60 + "\n", "deck.yaml:1:53: nested more than 50 levels deep"),
    ("x:\n" + "".join("  " * level + f"- k{level}:\n" for level in range(1, 60)),
     "deck.yaml:26:53: nested more than 50 levels deep"),
    # each anchor 30 levels deep around an alias of the one before: no alias alone is too deep
    ("".join(f"k{i}: &a{i} " + "[" * 30 + (f"*a{i - 1}" if i else "1") + "]" * 30 + "\n" for i in range(5)),
     "deck.yaml:1:5: nested more than 50 levels deep"),
])
@pytest.mark.parametrize("libyaml", [(0, 2, 6), (0, 2, 5)], ids=["libyaml", "old libyaml"])
def test_what_loading_refuses_is_one_error_at_its_place(text, error, libyaml, monkeypatch):
    """The same line whether libyaml's composer or PyYAML's composes libyaml's events."""
    monkeypatch.setattr(loading, "LOADER", loading.loader_for(libyaml))
    with pytest.raises(InputError) as raised:
        loaded(text)
    assert str(raised.value) == error


@pytest.mark.parametrize("libyaml", [(0, 2, 5), None], ids=["old libyaml", "no libyaml"])
def test_nesting_past_what_python_recurses_is_refused_without_libyaml_s_cap(libyaml, monkeypatch):
    monkeypatch.setattr(loading, "LOADER", loading.loader_for(libyaml))
    with pytest.raises(InputError) as raised:
        loaded("deck: " + "[" * 900 + "]" * 900 + "\n")  # below libyaml's own cap of 1,000
    assert str(raised.value) == "deck.yaml: nested more than 50 levels deep"


@pytest.mark.parametrize("value, column, reason", [
    ("2024-13-45", 25, "month must be in 1..12"),
    ("1" * 5000, 25, "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits"),
])
def test_a_value_yaml_cannot_build_is_one_error_line(tmp_path, value, column, reason):
    path = tmp_path / "deck.yaml"
    path.write_text(f"deck:\n  name: X\ncards:\n  - {{id: a, name: A, n: {value}}}\n", encoding="utf-8")
    run = deckpress("check", tmp_path)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {path}:4:{column}: invalid value: {reason}"]
