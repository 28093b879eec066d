"""Rules per group: ``count: {per: colour, exact: 10}`` checks every colour, names each one that
is off, and counts a colour with no cards at all as 0. Hanabi and Uno are written as a
designer would write them.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from cli_run import deckpress, line_of

HANABI_COLOURS = ("white", "yellow", "green", "blue", "red")
HANABI_COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}

HANABI_RULES = """\
rules:
  - total: 50
    message: fifty cards
  - count: {per: colour, exact: 10}
    message: ten cards of each colour
  - count: {per: [colour, value], exact: {value: {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}}}
    message: three ones, two each of two to four, one five
"""


def hanabi(folder: Path, drop: tuple[str, int] | None = None, rules: str = HANABI_RULES) -> Path:
    """Hanabi as 25 distinct cards (colour-value) with their copies, less the card ``drop``."""
    cards = "".join(f"  - {{id: {colour}-{value}, colour: {colour}, value: {value}, count: {copies}}}\n"
                    for colour in HANABI_COLOURS for value, copies in HANABI_COPIES.items()
                    if (colour, value) != drop)
    text = ("deck: {name: Hanabi, players: {min: 2, max: 5}, title_field: colour}\n"
            "fields:\n"
            f"  colour: {{choices: [{', '.join(HANABI_COLOURS)}]}}\n"
            "  value: {type: int, min: 1, max: 5}\n"
            "cards:\n" + cards + rules)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def rule_lines(run) -> list[str]:
    return [line for line in run.stdout.splitlines()[1:]]


def test_hanabi_in_three_rules_passes(tmp_path):
    run = deckpress("check", hanabi(tmp_path))
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.stdout.startswith("ok    ") and ", 50 cards, 3 rules checked" in run.stdout


def test_a_missing_card_is_named_by_its_group(tmp_path):
    path = hanabi(tmp_path, drop=("blue", 5))
    run = deckpress("check", path)
    assert run.exit_code == 1
    lines = rule_lines(run)
    colour_rule, card_rule = line_of(path, "per: colour,"), line_of(path, "per: [colour, value]")
    assert lines == [
        f"{path}:{line_of(path, 'total: 50')}: total (fifty cards): expected exactly 50 cards, found 49",
        f"{path}:{colour_rule}: count (ten cards of each colour): expected exactly 10 for colour=blue, found 9 "
        "[cards: blue-1, blue-2, blue-3, blue-4]",
        f"{path}:{card_rule}: count (three ones, two each of two to four, one five): "
        "expected exactly 1 for colour=blue value=5, found 0",
    ]


def test_a_colour_with_no_cards_at_all_is_a_group_of_zero(tmp_path):
    path = hanabi(tmp_path)
    text = path.read_text().replace("red", "red, rainbow", 1)  # a declared colour no card has
    path.write_text(text)
    run = deckpress("check", path)
    assert run.exit_code == 1
    assert "expected exactly 10 for colour=rainbow, found 0" in run.stdout
    assert sum("colour=rainbow value=" in line for line in rule_lines(run)) == 5


def test_every_group_that_is_off_is_its_own_finding_in_json(tmp_path):
    path = hanabi(tmp_path, drop=("white", 1))
    run = deckpress("check", path, "--format", "json")
    findings = json.loads(run.stdout)["decks"][0]["findings"]
    assert [(f["rule"], f["expected"], f["found"]) for f in findings] == [
        ("total", "exactly 50 cards", "47"),
        ("count", "exactly 10 for colour=white", "7"),
        ("count", "exactly 3 for colour=white value=1", "0"),
    ]


def test_groups_of_values_present_when_a_field_declares_none(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text(textwrap.dedent("""\
        deck: {name: Suits, title_field: suit}
        fields: {suit: text}
        cards:
          - {id: a, suit: cups, count: 3}
          - {id: b, suit: coins, count: 2}
        rules:
          - count: {per: suit, min: 3}
            message: three of each suit
        """))
    run = deckpress("check", path)
    assert run.exit_code == 1
    assert rule_lines(run) == [f"{path}:{line_of(path, 'per: suit')}: count (three of each suit): "
                               "expected at least 3 for suit=coins, found 2 [cards: b]"]


def test_a_finding_that_concerns_one_card_names_it_in_json(tmp_path):
    path = hanabi(tmp_path)
    path.write_text(path.read_text().replace("{id: red-1, colour: red, value: 1, count: 3}",
                                             "{id: red-1, colour: red, value: 1, count: 4}"))
    run = deckpress("check", path, "--format", "json")
    findings = json.loads(run.stdout)["decks"][0]["findings"]
    assert [(finding["message"].split(": ", 1)[1], finding["card"]) for finding in findings] == [
        ("expected exactly 50 cards, found 51", None),
        ("expected exactly 10 for colour=red, found 11 [cards: red-1, red-2, red-3, red-4, red-5]", None),
        ("expected exactly 3 for colour=red value=1, found 4 [cards: red-1]", "red-1"),
    ]


# --- Uno ---------------------------------------------------------------------------------

UNO_COLOURS = ("red", "yellow", "green", "blue")


def uno(folder: Path, rules: str, counts: dict[str, int] | None = None) -> Path:
    """Uno: 54 distinct cards, 108 in all (each colour: one 0, two of 1-9 and of each action)."""
    counts = counts or {}
    cards = []
    for colour in UNO_COLOURS:
        for number in range(10):
            card_id = f"{colour}-{number}"
            cards.append(f"  - {{id: {card_id}, colour: {colour}, kind: number, number: {number}, "
                         f"count: {counts.get(card_id, 1 if number == 0 else 2)}}}")
        for kind in ("skip", "reverse", "draw-two"):
            card_id = f"{colour}-{kind}"
            cards.append(f"  - {{id: {card_id}, colour: {colour}, kind: {kind}, count: {counts.get(card_id, 2)}}}")
    for kind in ("wild", "wild-draw-four"):
        cards.append(f"  - {{id: {kind}, colour: wild, kind: {kind}, count: {counts.get(kind, 4)}}}")
    text = ("deck: {name: Uno, players: {min: 2, max: 10}, title_field: kind}\n"
            "fields:\n"
            "  colour: {choices: [red, yellow, green, blue, wild]}\n"
            "  kind: {choices: [number, skip, reverse, draw-two, wild, wild-draw-four]}\n"
            "  number: {type: int, min: 0, max: 9}\n"
            "cards:\n" + "\n".join(cards) + "\n" + textwrap.dedent(rules))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return path


UNO_RULES = """\
rules:
  - total: 108
    message: a hundred and eight cards
  - count: {where: {colour: [red, yellow, green, blue]}, per: colour, exact: 25}
    message: twenty-five cards of each colour
  - copies:
      where: {kind: number}
      per: number
      exact: {number: {0: 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2}}
    message: one zero and two of every other number in each colour
  - count: {where: {kind: [skip, reverse, draw-two], colour: [red, yellow, green, blue]}, per: [colour, kind], exact: 2}
    message: two of each action in each colour
  - count: {where: {kind: [wild, wild-draw-four]}, per: kind, exact: 4}
    message: four of each wild
"""


def test_uno_composition_passes(tmp_path):
    run = deckpress("check", uno(tmp_path, UNO_RULES))
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "Uno, 108 cards, 5 rules checked" in run.stdout


def test_uno_with_a_misprinted_batch(tmp_path):
    path = uno(tmp_path, UNO_RULES, counts={"green-0": 2, "blue-skip": 1, "wild": 3})
    run = deckpress("check", path)
    assert run.exit_code == 1
    lines = rule_lines(run)
    assert [line.split(": ", 1)[1] for line in lines] == [
        "total (a hundred and eight cards): expected exactly 108 cards, found 107",
        "count (twenty-five cards of each colour): expected exactly 25 for colour=green, found 26 [cards: "
        "green-0, green-1, green-2, green-3, green-4, green-5, green-6, green-7, green-8, green-9, green-skip, "
        "green-reverse, ... 1 more]",
        "count (twenty-five cards of each colour): expected exactly 25 for colour=blue, found 24 [cards: "
        "blue-0, blue-1, blue-2, blue-3, blue-4, blue-5, blue-6, blue-7, blue-8, blue-9, blue-skip, "
        "blue-reverse, ... 1 more]",
        "copies (one zero and two of every other number in each colour): expected exactly 1 copy of each card "
        "matching kind=number for number=0, found green-0 x2 [cards: green-0]",
        "count (two of each action in each colour): expected exactly 2 for colour=blue kind=skip, found 1 "
        "[cards: blue-skip]",
        "count (four of each wild): expected exactly 4 for kind=wild, found 3 [cards: wild]",
    ]


@pytest.mark.parametrize("rule, error", [
    ("count: {per: colur, exact: 2}", "rule 'count' names unknown field 'colur' (count)"),
    ("count: {per: [colour, colour], exact: 2}", "rule 'count' 'per' names a field twice (count)"),
    ("count: {per: 3, exact: 2}", "rule 'count' 'per' names a field or a list of fields (count)"),
    ("count: {per: colour, exact: {value: {1: 2}}}",
     "rule 'count' 'exact' as a table names one of the 'per' fields (colour) with an amount for each of its values"),
    ("count: {per: [colour, number], exact: {number: {1: 2}}}",
     "rule 'count' 'exact' gives no amount for number=0 (count)"),
    ("count: {per: colour, exact: {colour: {red: two}}}",
     "rule 'count' 'exact' for colour must map each value to a whole number (count)"),
    ("count: {exact: {colour: {red: 2}}}", "rule 'count' 'exact' must be a whole number (count)"),
])
def test_malformed_per_rules_exit_2_naming_the_rule(tmp_path, rule, error):
    path = uno(tmp_path, f"rules:\n  - {rule}\n    message: broken\n")
    run = deckpress("check", path)
    assert run.exit_code == 2, run.stdout + run.stderr
    [line] = run.error_lines
    assert line.startswith(f"error: {path}:{line_of(path, rule[:12])}:") and error in line


def numbered(folder: Path, high: int, rules: str) -> Path:
    """A deck of one card whose int field ``x`` runs from 1 to ``high``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "deck.yaml"
    path.write_text("deck: {name: Numbers, title_field: x}\n"
                    f"fields: {{x: {{type: int, min: 1, max: {high}}}}}\n"
                    "cards: [{id: a, x: 1}]\n" + rules, encoding="utf-8")
    return path


def test_an_int_range_wider_than_the_groups_checked_is_refused(tmp_path):
    # Grouping by only the values the cards hold would pass a rule that every other
    # number of the range breaks.
    path = numbered(tmp_path, 10_001, "rules:\n  - count: {per: x, exact: 1}\n")
    run = deckpress("check", path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.error_lines == [f"error: {path}:{line_of(path, '- count')}:5: rule 'count' 'per' makes 10,001 "
                               "groups of x, one for each whole number from 1 to 10,001; at most 10,000 can be "
                               "checked (count)"]


def test_an_int_range_of_as_many_groups_as_are_checked_is_checked_whole(tmp_path):
    run = deckpress("check", numbered(tmp_path / "kept", 10_000, "rules:\n  - count: {per: x, max: 1}\n"))
    assert run.exit_code == 0, run.stdout + run.stderr
    run = deckpress("check", numbered(tmp_path / "broken", 10_000, "rules:\n  - count: {per: x, min: 1}\n"))
    assert run.exit_code == 1
    assert len(rule_lines(run)) == 9_999 and rule_lines(run)[-1].endswith("expected at least 1 for x=10000, found 0")


def test_a_where_picking_values_of_a_wide_range_checks_those(tmp_path):
    path = numbered(tmp_path, 10**9, "rules:\n  - count: {where: {x: [1, 2]}, per: x, exact: 1}\n")
    run = deckpress("check", path)
    assert run.exit_code == 1, run.stdout + run.stderr
    assert rule_lines(run) == [f"{path}:{line_of(path, '- count')}: count: expected exactly 1 for x=2, found 0"]


@pytest.mark.parametrize("rule, error", [
    ("count: {per: value, min: 3, max: 1}", "rule 'count' 'max' (1) is below 'min' (3) (count)"),
    ("count: {per: value, exact: -1}", "rule 'count' 'exact' must be 0 or more, found -1 (count)"),
    ("count: {per: value, min: {value: {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}}, max: 2}",
     "rule 'count' 'max' (2) is below 'min' (3) for value=1 (count)"),
    ("copies: {per: value, exact: {value: {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}}, max: 2}",
     "rule 'copies' 'exact' (3) is above 'max' (2) for value=1 (copies)"),
])
def test_a_group_amount_no_deck_can_meet_is_malformed(tmp_path, rule, error):
    path = hanabi(tmp_path, rules=f"rules:\n  - {rule}\n")
    run = deckpress("check", path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.error_lines == [f"error: {path}:{line_of(path, rule)}:5: {error}"]


def test_one_copy_reads_copy(tmp_path):
    path = uno(tmp_path, "rules:\n  - copies: {where: {kind: wild}, exact: 1}\n    message: one wild\n")
    run = deckpress("check", path)
    assert "expected exactly 1 copy of each card matching kind=wild, found wild x4" in run.stdout


def test_the_deck_schema_knows_per_rules():
    import jsonschema
    import yaml

    from generator.schema import schema_text

    validator = jsonschema.Draft202012Validator(json.loads(schema_text("deck")))
    for rules in (HANABI_RULES, UNO_RULES):
        deck = {"deck": {"name": "Game"}, "cards": [{"id": "a"}], **yaml.safe_load(rules)}
        assert list(validator.iter_errors(deck)) == []
    broken = {"deck": {"name": "Game"}, "cards": [{"id": "a"}], "rules": [{"count": {"per": 3, "exact": 2}}]}
    assert list(validator.iter_errors(broken))
