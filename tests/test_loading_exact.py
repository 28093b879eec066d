"""Loading builds a plain deck straight from the parser's events: the data, types and
positions must be exactly what PyYAML's SafeLoader and the full node-tree path give.

Every bundled YAML file, a generated all-distinct deck and a list of scalars YAML reads
in surprising ways (yes/no, 0x1F, 1_000, .inf, ~, dates) are loaded both ways; documents
the direct path leaves alone (anchors, merge keys, tags, duplicate keys, broken values)
must reach the full path and give its data or its error. A value the resolver takes for
a date or a number that cannot be one (a 13th month, 5,000 digits) is an error line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from cli_run import deckpress

from generator.errors import InputError, Position
from generator.loading import _load_full, _load_plain, parse_yaml

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


def both_ways(text: str, path: Path = Path("deck.yaml")):
    direct, full = _load_plain(text, path), _load_full(text, path)
    assert typed(direct.data) == typed(full.data)
    assert list(direct.positions.items()) == list(full.positions.items())
    return direct


@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: str(path.relative_to(ROOT)))
def test_bundled_files_load_directly_as_safe_load_reads_them(path):
    text = path.read_text(encoding="utf-8")
    document = both_ways(text, path)
    assert typed(document.data) == typed(yaml.safe_load(text) or {})


def test_an_all_distinct_deck_loads_directly_with_every_position(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from decks import distinct_deck
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path = distinct_deck(tmp_path, 300)
    text = path.read_text(encoding="utf-8")
    document = both_ways(text, path)
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
    except ValueError:  # a date-looking scalar that is no date: both paths must agree on it too
        pytest.skip("not a value SafeLoader can build")
    document = both_ways(text)
    assert typed(document.data) == typed(expected)


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
    assert typed(both_ways(text).data) == typed(expected)


def test_positions_are_those_of_keys_and_list_items():
    document = parse_yaml("deck:\n  name: Small\ncards:\n  - {id: imp, count: 2}\n  -   id: eel\n",
                          Path("deck.yaml"))
    assert document.at() == Position(Path("deck.yaml"), 1, 1)
    assert document.at("deck", "name") == Position(Path("deck.yaml"), 2, 3)
    assert document.at("cards", 0) == Position(Path("deck.yaml"), 4, 5)
    assert document.at("cards", 0, "count") == Position(Path("deck.yaml"), 4, 15)
    assert document.at("cards", 1) == Position(Path("deck.yaml"), 5, 7)
    assert document.at("cards", 1, "id", "missing") == Position(Path("deck.yaml"), 5, 7)


UNUSUAL = [
    "base: &b {cost: 1}\ncard: {<<: *b, name: Imp}\n",
    "card: {name: Imp, <<: [{cost: 1}, {cost: 2, colour: red}]}\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\nb: !!binary aGk=\nc: !!set {x, y}\nd: ! 12\n",
    "a: 1\na: 2\n",
    "? [1, 2]\n: list key\n",
    "a: =\n",
    "a: <<\n",
    "a: *nowhere\n",
    "a: 1\n---\nb: 2\n",
    "a: &r [*r]\n",
    "a: 2024-13-45\n",
    "a: [\n",
    "x: " + "[" * 60 + "]" * 60 + "\n",
]


@pytest.mark.parametrize("text", UNUSUAL)
def test_anything_unusual_takes_the_full_path(text):
    path = Path("deck.yaml")
    with pytest.raises(Exception):
        _load_plain(text, path)
    try:
        expected = _load_full(text, path)
    except (InputError, ValueError) as error:
        with pytest.raises(type(error)) as raised:
            parse_yaml(text, path)
        assert str(raised.value) == str(error)
    else:
        document = parse_yaml(text, path)
        assert typed(document.data) == typed(expected.data)
        assert document.positions == expected.positions


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
