"""Every kind of composition rule, as a designer meets it through ``deckpress check``.

Each test writes a small deck, runs the real command and reads what it printed:
a deck that keeps its rules exits 0 with one ``ok`` line; a deck that breaks one
exits 1 with ``path:line: rule (message): expected ..., found ... [cards: ...]``;
a rule that is itself malformed exits 2 with a single error line.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from cli_run import deckpress, line_of

HEADER = """\
deck:
  name: Test Deck
  players: {min: 1, max: 4}
fields:
  name: {type: text, required: true}
  kind: {choices: [monster, treasure, spell]}
  colour: {choices: [red, blue]}
  summons: {choices: [red, blue]}
  symbol: {choices: [sun, moon, frog, mushroom]}
"""

CARDS = """\
cards:
  - {id: imp, count: 3, name: Imp, kind: monster, colour: red}
  - {id: eel, count: 2, name: Eel, kind: monster, colour: blue}
  - {id: ruby, count: 4, name: Ruby, kind: treasure, summons: red}
  - {id: bolt, count: 1, name: Bolt, kind: spell}
"""  # 10 cards: 5 monsters (3 red, 2 blue), 4 red treasures, 1 spell


def write_deck(folder: Path, rules: str, cards: str = CARDS, extra: str = "") -> Path:
    """A deck file in ``folder`` with the given rules (YAML list items, unindented)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "deck.yaml"
    rules_block = "rules:\n" + textwrap.indent(textwrap.dedent(rules).strip("\n"), "  ") + "\n"
    path.write_text(HEADER + cards + extra + rules_block, encoding="utf-8")
    return path


def check(path: Path, *options: str):
    return deckpress("check", path, *options)


def assert_passes(path: Path):
    run = check(path)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.stdout.startswith("ok ")
    assert len(run.stdout.splitlines()) == 1
    assert run.stderr == ""


def assert_breaks(path: Path, *expected_parts: str, rule_text: str | None = None) -> list[str]:
    """Check fails with exit 1; each finding line holds the parts; returns the finding lines."""
    run = check(path)
    assert run.exit_code == 1, run.stdout + run.stderr
    assert run.stdout.startswith("FAIL ")
    findings = run.stdout.splitlines()[1:]
    assert findings, run.stdout
    for part in expected_parts:
        assert any(part in line for line in findings), f"{part!r} not in:\n{run.stdout}"
    if rule_text is not None:
        assert findings[0].startswith(f"{path}:{line_of(path, rule_text)}: ")
    return findings


# --- total ------------------------------------------------------------------------------

def test_total_exact_passes(tmp_path):
    assert_passes(write_deck(tmp_path, "- total: 10\n  message: ten cards"))


@pytest.mark.parametrize("rule, expected", [
    ("total: 11", "expected exactly 11 cards, found 10"),
    ("total: {min: 12}", "expected at least 12 cards, found 10"),
    ("total: {max: 9}", "expected at most 9 cards, found 10"),
    ("total: {min: 11, max: 20}", "expected 11 to 20 cards, found 10"),
])
def test_total_broken(tmp_path, rule, expected):
    path = write_deck(tmp_path, f"- {rule}\n  message: the box size")
    assert_breaks(path, expected, "total (the box size)", rule_text=rule)


def test_total_range_passes(tmp_path):
    assert_passes(write_deck(tmp_path, "- total: {min: 10, max: 12}\n  message: fits the box"))


# --- count ------------------------------------------------------------------------------

def test_count_passes(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - count: {where: {kind: monster}, exact: 5}
          message: five monsters
        - count: {where: {kind: [monster, spell]}, min: 6}
          message: six monsters and spells
        """))


def test_count_broken_names_the_cards(tmp_path):
    path = write_deck(tmp_path, """
        - count: {where: {kind: monster}, exact: 4}
          message: four monsters
        """)
    assert_breaks(path, "count (four monsters): expected exactly 4 cards matching kind=monster, found 5",
                  "[cards: imp, eel]", rule_text="- count:")


def test_count_of_any_of_several_values(tmp_path):
    path = write_deck(tmp_path, "- count: {where: {colour: [red, blue]}, max: 4}\n  message: few coloured cards")
    assert_breaks(path, "expected at most 4 cards matching colour=red|blue, found 5")


# --- copies -----------------------------------------------------------------------------

def test_copies_passes(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - copies: {where: {kind: monster}, max: 3}
          message: at most three of a monster
        - copies: {where: {kind: treasure}, exact: 4}
          message: four of each treasure
        """))


def test_one_copy_of_each_card_reads_as_one_copy(tmp_path):
    path = write_deck(tmp_path, "- copies: {exact: 1}\n  message: singletons")
    assert_breaks(path, "copies (singletons): expected exactly 1 copy of each card, found")


def test_copies_max_broken(tmp_path):
    path = write_deck(tmp_path, "- copies: {max: 2}\n  message: at most two of a card")
    assert_breaks(path, "expected at most 2 copies of each card, found imp x3, ruby x4",
                  "[cards: imp, ruby]")


def test_a_count_without_where_says_how_many_cards(tmp_path):
    path = write_deck(tmp_path, "- count: {exact: 3}\n  message: three cards")
    assert_breaks(path, "count (three cards): expected exactly 3 cards, found")


def test_copies_exact_broken(tmp_path):
    path = write_deck(tmp_path, "- copies: {where: {kind: monster}, exact: 3}\n  message: three of each monster")
    findings = assert_breaks(path, "found eel x2", "[cards: eel]")
    assert "imp" not in findings[0]


# --- unique -----------------------------------------------------------------------------

def test_unique_passes_for_a_field_and_a_combination(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - unique: {fields: [name]}
          message: one card per name
        - unique: {fields: [kind, colour], where: {kind: monster}}
          message: one monster per colour
        """))


def test_unique_field_broken(tmp_path):
    path = write_deck(tmp_path, "- unique: {fields: [kind]}\n  message: one card per kind")
    assert_breaks(path, "unique (one card per kind): expected each kind on one card only, "
                        "found 'monster' on 2 cards [cards: imp, eel]")


def test_unique_combination_broken(tmp_path):
    cards = CARDS + "  - {id: imp-two, name: Big Imp, kind: monster, colour: red}\n"
    path = write_deck(tmp_path, "- unique: {fields: [kind, colour]}\n  message: kind and colour once",
                      cards=cards)
    assert_breaks(path, "expected each kind + colour on one card only, found 'monster, red' on 2 cards",
                  "[cards: imp, imp-two]")


# --- faces ------------------------------------------------------------------------------

DOUBLE_SIDED = """\
cards:
  - {id: a, name: A, symbol: sun, colour: red, back: {name: Z, symbol: moon, colour: blue}}
  - {id: b, name: B, symbol: frog, colour: red, back: {name: Y, symbol: mushroom, colour: red}}
"""


def test_faces_map_and_relation_pass(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - faces: {field: symbol, map: {sun: moon, moon: sun, frog: mushroom, mushroom: frog}}
          message: sun backs moon, frog backs mushroom
        - faces: {field: name, relation: different}
          message: two names on every card
        """, cards=DOUBLE_SIDED))


def test_faces_map_broken(tmp_path):
    path = write_deck(tmp_path, "- faces: {field: symbol, map: {sun: moon, frog: frog}}\n  message: symbol pairs",
                      cards=DOUBLE_SIDED)
    assert_breaks(path, "faces (symbol pairs): expected back symbol sun->moon, frog->frog, "
                        "found b: frog/mushroom [cards: b]")


@pytest.mark.parametrize("relation, broken_card", [("same", "a: red/blue"), ("different", "b: red/red")])
def test_faces_relation_broken(tmp_path, relation, broken_card):
    path = write_deck(tmp_path, f"- faces: {{field: colour, relation: {relation}}}\n  message: colours",
                      cards=DOUBLE_SIDED)
    assert_breaks(path, f"expected {relation} colour on front and back, found {broken_card}")


def test_faces_compares_with_the_shared_back(tmp_path):
    shared = "back: {name: Card Back, symbol: moon}\n"
    cards = "cards:\n  - {id: a, name: A, symbol: sun}\n  - {id: b, name: B, symbol: moon}\n"
    path = write_deck(tmp_path, "- faces: {field: symbol, relation: different}\n  message: sun fronts",
                      cards=shared + cards)
    assert_breaks(path, "found b: moon/moon [cards: b]")


# --- backed_by --------------------------------------------------------------------------

BACKED_BY = ("- backed_by: {cards: {kind: monster}, field: colour, by: {kind: treasure}, by_field: summons}\n"
             "  message: every monster colour has its treasure")


def test_backed_by_passes(tmp_path):
    cards = CARDS + "  - {id: pearl, name: Pearl, kind: treasure, summons: blue}\n"
    assert_passes(write_deck(tmp_path, BACKED_BY, cards=cards))


def test_backed_by_broken(tmp_path):
    path = write_deck(tmp_path, BACKED_BY)
    assert_breaks(path, "backed_by (every monster colour has its treasure): expected a card matching "
                        "kind=treasure with summons=blue, found none [cards: eel]")


# --- setup ------------------------------------------------------------------------------

def test_setup_passes_for_every_player_count(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - setup:
            needs:
              - {for: one monster each, where: {kind: monster}, count: players}
              - {for: the market, count: "players + 4"}
          message: deal for 1 to 4 players
        """))


def test_setup_broken_names_the_first_player_count_that_fails(tmp_path):
    path = write_deck(tmp_path, """
        - setup:
            needs:
              - {for: two monsters each, where: {kind: monster}, count: "players * 2"}
          message: two monsters per player
        """)
    findings = assert_breaks(path, "setup (two monsters per player): expected 6 cards for two monsters "
                                   "each with 3 players, found 5")
    assert any("with 4 players" in line for line in findings)
    assert not any("with 2 players" in line for line in findings)


def test_setup_uses_its_own_player_range(tmp_path):
    rule = """
        - setup:
            players: [2, 2]
            needs:
              - {where: {kind: monster}, count: "players * 2"}
          message: a two-player deal
        """
    assert_passes(write_deck(tmp_path, rule))


# --- expr -------------------------------------------------------------------------------

def test_expr_passes(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - expr: "total == 10 and cards | selectattr('kind', 'equalto', 'spell') | list | length == 1"
          message: ten cards, one spell
        """))


def test_expr_broken(tmp_path):
    path = write_deck(tmp_path, """
        - expr: "total % 4 == 0"
          message: deals evenly to four players
        """)
    assert_breaks(path, "expr (deals evenly to four players): expected 'total % 4 == 0' to hold, found false",
                  rule_text="expr:")


def test_expr_sees_a_missing_value_as_none(tmp_path):
    path = write_deck(tmp_path, """
        - expr: "cards | selectattr('kind', 'equalto', 'monster') | selectattr('colour', 'none') | list | length == 0"
          message: every monster has a colour
        """, cards=CARDS + "  - {id: ghost, name: Ghost, kind: monster}\n")
    assert_breaks(path, "every monster has a colour")


# --- decklists --------------------------------------------------------------------------

DECKLISTS = """\
decklists:
  small:
    name: Small Starter
    cards: {imp: 2, ruby: 3}
  large:
    cards: {imp: 3, eel: 2, ruby: 4, bolt: 1}
"""


def test_decklist_rules_pass(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - total: {min: 5, max: 10}
          scope: decklists
          message: 5 to 10 cards
        - copies: {max: 4}
          scope: decklists
          message: at most 4 copies
        """, extra=DECKLISTS))


def test_decklist_size_range_broken_in_one_list(tmp_path):
    path = write_deck(tmp_path, "- total: {min: 6, max: 12}\n  scope: decklists\n  message: a legal deck size",
                      extra=DECKLISTS)
    findings = assert_breaks(path, "decklist 'small': total (a legal deck size): expected 6 to 12 cards, found 5")
    assert len(findings) == 1  # the large list is fine


def test_decklist_category_cap_broken(tmp_path):
    path = write_deck(tmp_path, """
        - count: {where: {kind: treasure}, max: 3}
          scope: decklists
          message: at most 3 treasures
        """, extra=DECKLISTS)
    findings = assert_breaks(path, "decklist 'large': count (at most 3 treasures): "
                                   "expected at most 3 cards matching kind=treasure, found 4 [cards: ruby]")
    assert not any("'small'" in line for line in findings)


def test_decklist_copy_limit_broken(tmp_path):
    path = write_deck(tmp_path, "- copies: {max: 3}\n  scope: decklists\n  message: at most 3 copies",
                      extra=DECKLISTS)
    assert_breaks(path, "decklist 'large': copies (at most 3 copies): expected at most 3 copies of each card, "
                        "found ruby x4")


def test_decklist_backed_by_broken(tmp_path):
    path = write_deck(tmp_path, BACKED_BY.replace("\n", "\n  scope: decklists\n", 1),
                      cards=CARDS + "  - {id: pearl, name: Pearl, kind: treasure, summons: blue}\n",
                      extra=DECKLISTS)
    # The pool has a blue treasure, but the large decklist does not carry it.
    assert_breaks(path, "decklist 'large': backed_by", "with summons=blue, found none [cards: eel]")


def test_decklist_rule_without_decklists_is_malformed(tmp_path):
    path = write_deck(tmp_path, "- total: 10\n  scope: decklists\n  message: size")
    run = check(path)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {path}:{line_of(path, 'total: 10')}:5: "
                               "rule applies to decklists, but the deck has none (scope)"]


# --- reports ----------------------------------------------------------------------------

def test_json_report(tmp_path):
    path = write_deck(tmp_path, """
        - total: 10
          message: ten cards
        - count: {where: {kind: monster}, max: 4}
          message: few monsters
        """)
    run = check(path, "--format", "json")
    assert run.exit_code == 1
    report = json.loads(run.stdout)
    assert report["passed"] is False
    [deck] = report["decks"]
    assert (deck["deck"], deck["cards"], deck["rules_checked"], deck["passed"]) == (tmp_path.name, 10, 2, False)
    line = line_of(path, "- count:")
    assert deck["findings"] == [{
        "kind": "rule",
        "severity": "error",
        "file": str(path),
        "line": line,
        "column": None,
        "message": "count (few monsters): expected at most 4 cards matching kind=monster, found 5 "
                   "[cards: imp, eel]",
        "card": None,
        "side": None,
        "element": None,
        "exit_code": 1,
        "accepted": None,
        "rule": "count",
        "rule_message": "few monsters",
        "decklist": None,
        "expected": "at most 4 cards matching kind=monster",
        "found": "5",
        "cards": ["imp", "eel"],
    }]


def test_json_report_of_passing_decks(tmp_path):
    path = write_deck(tmp_path, "- total: 10\n  message: ten cards")
    run = check(path, "--format", "json")
    assert run.exit_code == 0
    assert json.loads(run.stdout)["passed"] is True


def test_json_report_of_decklist_findings(tmp_path):
    path = write_deck(tmp_path, "- total: {min: 6}\n  scope: decklists\n  message: big enough", extra=DECKLISTS)
    run = check(path, "--format", "json")
    assert run.exit_code == 1
    [finding] = json.loads(run.stdout)["decks"][0]["findings"]
    assert (finding["decklist"], finding["found"]) == ("small", "5")


def test_json_report_of_a_malformed_deck(tmp_path):
    path = write_deck(tmp_path, "- total: many\n  message: size")
    run = check(path, "--format", "json")
    assert run.exit_code == 2
    [deck] = json.loads(run.stdout)["decks"]
    assert (deck["passed"], deck["exit_code"]) == (False, 2)
    [finding] = deck["findings"]
    assert (finding["kind"], finding["exit_code"], finding["line"]) == ("input", 2, line_of(path, "total: many"))
    assert "rule 'total' expects a number or a mapping" in finding["message"]


def test_one_line_per_passing_deck_and_the_worst_exit_code(tmp_path):
    good = write_deck(tmp_path / "good", "- total: 10\n  message: ten")
    bad = write_deck(tmp_path / "bad", "- total: 9\n  message: nine")
    run = deckpress("check", good, bad)
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert lines[0] == "ok    good: Test Deck, 10 cards, 1 rule checked, 5 faces laid out"
    assert lines[1] == "FAIL  bad: Test Deck, 10 cards, 1 rule checked, 5 faces laid out: 1 problem"
    assert lines[2] == f"{bad}:{line_of(bad, 'total: 9')}: total (nine): expected exactly 9 cards, found 10"


def test_malformed_deck_beside_a_broken_one_exits_2(tmp_path):
    broken = write_deck(tmp_path / "broken", "- total: 9\n  message: nine")
    malformed = write_deck(tmp_path / "malformed", "- total: nine\n  message: nine")
    run = deckpress("check", broken, malformed)
    assert run.exit_code == 2
    assert "FAIL  broken" in run.stdout
    assert len(run.error_lines) == 1 and str(malformed) in run.error_lines[0]


# --- malformed rules --------------------------------------------------------------------

@pytest.mark.parametrize("rule, error", [
    ("- totl: 10", "unknown rule kind 'totl'"),
    ("- total: ten", "rule 'total' expects a number or a mapping with exact, min or max (total)"),
    ("- total: {most: 3}", "rule 'total' unknown setting 'most'; expected one of: exact, max, min (total)"),
    ("- count: {where: {kind: monster}}", "rule 'count' needs at least one of exact, min or max (count)"),
    ("- count: {where: {knd: monster}, max: 3}", "selector names unknown field 'knd'; did you mean 'kind'? (where)"),
    ("- count: {where: {kind: monstr}, max: 3}", "'monstr' is not a choice of 'kind'; did you mean 'monster'? (where)"),
    ("- unique: {fields: [nmae]}", "rule 'unique' names unknown field 'nmae' (unique)"),
    ("- faces: {field: symbol, relation: opposite}", "rule 'faces' 'relation' is 'same' or 'different' (faces)"),
    ("- backed_by: {cards: {kind: monster}, field: colour, by: {kind: treasure}}",
     "rule 'backed_by' needs 'by_field': a field name (backed_by)"),
    ("- setup: {players: [4, 1], needs: [{count: 1}]}", "rule 'setup' 'players' must be [min, max]"),
    ("- setup: {needs: [{count: 'players * '}]}", "rule 'setup' expression 'players * ' failed"),
    ("- expr: \"total ==\"\n  message: broken", "rule 'expr' expression 'total ==' failed"),
    ("- expr: \"total > 1\"", "rule 'expr' needs a 'message' saying what it checks (expr)"),
    ("- expr: \"cards.__class__.__mro__\"\n  message: escape", "rule 'expr' expression"),
    ("- expr: \"deck.nmae\"\n  message: typo", "rule 'expr' expression 'deck.nmae' failed"),
    ("- expr: \"total.__class__\"\n  message: escape", "rule 'expr' expression 'total.__class__' failed"),
    ("- setup: {needs: [{count: 'deck.nmae'}]}", "rule 'setup' expression 'deck.nmae' failed"),
    ("- {total: 10, count: 3}", "a rule names exactly one kind of check, found total, count"),
    ("- total: 10\n  scope: everything", "scope is 'deck' or 'decklists', found 'everything' (scope)"),
])
def test_malformed_rule_exits_2_with_one_line(tmp_path, rule, error):
    path = write_deck(tmp_path, rule)
    run = check(path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert len(run.error_lines) == 1, run.stderr
    line = run.error_lines[0]
    # The error points at the rule, or at its 'scope:' line when that is what is wrong.
    at = "scope:" if "scope" in error else rule.splitlines()[0][2:]
    assert line.startswith(f"error: {path}:{line_of(path, at)}:")
    assert error in line
    assert "Traceback" not in run.stderr


# --- amounts no deck can meet -----------------------------------------------------------

@pytest.mark.parametrize("rule, error", [
    ("- total: {min: 10, max: 5}", "rule 'total' 'max' (5) is below 'min' (10) (total)"),
    ("- total: -1", "rule 'total' must be 0 or more, found -1 (total)"),
    ("- total: {max: -1}", "rule 'total' 'max' must be 0 or more, found -1 (total)"),
    ("- count: {where: {kind: monster}, min: -2}", "rule 'count' 'min' must be 0 or more, found -2 (count)"),
    ("- count: {where: {kind: monster}, exact: 3, max: 2}", "rule 'count' 'exact' (3) is above 'max' (2) (count)"),
    ("- copies: {exact: 1, min: 2}", "rule 'copies' 'exact' (1) is below 'min' (2) (copies)"),
    ("- setup: {players: [1, 4], needs: [{count: players - 2}]}",
     "rule 'setup' count 'players - 2' must give 0 or more, found -1 with 1 players (setup)"),
])
def test_an_amount_no_deck_can_meet_is_malformed(tmp_path, rule, error):
    # Not "expected 10 to 5 cards" (exit 1), which asks for a deck no one could make:
    # the rule is what needs fixing, as with 'players: {min: 5, max: 2}'.
    path = write_deck(tmp_path, rule + "\n  message: the box")
    run = check(path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.error_lines == [f"error: {path}:{line_of(path, rule[2:])}:5: {error}"]


def test_amounts_no_deck_can_meet_hide_no_other_problem(tmp_path):
    path = write_deck(tmp_path, """
        - total: {min: 10, max: 5}
        - count: {where: {kind: monster}, exact: 4}
          message: four monsters
        - copies: -1
        """)
    run = check(path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert [line.split(": ", 2)[2] for line in run.error_lines] == [
        "rule 'total' 'max' (5) is below 'min' (10) (total)",
        "rule 'copies' must be 0 or more, found -1 (copies)",
    ]
    assert f"{path}:{line_of(path, '- count:')}: count (four monsters): expected exactly 4 cards matching " \
           "kind=monster, found 5" in run.stdout


def test_an_amount_at_its_bounds_is_kept(tmp_path):
    assert_passes(write_deck(tmp_path, """
        - total: {exact: 10, min: 10, max: 10}
          message: ten
        - count: {where: {kind: treasure}, min: 0, max: 0}
          message: no treasure
        """, cards=CARDS.replace("kind: treasure", "kind: spell")))


# --- selector values of the wrong type ----------------------------------------------------

TYPED_HEADER = HEADER + """\
  cost: int
  weight: number
  star: bool
"""


@pytest.mark.parametrize("where, error", [
    ("{cost: abc}", "'abc' can never match 'cost', which holds whole numbers (where)"),
    ("{cost: [1, '2']}", "'2' can never match 'cost', which holds whole numbers (where)"),
    ("{cost: 1.5}", "the number 1.5 can never match 'cost', which holds whole numbers (where)"),
    ("{weight: heavy}", "'heavy' can never match 'weight', which holds numbers (where)"),
    ("{star: 'yes please'}", "'yes please' can never match 'star', which holds yes/no values"),
    ("{star: 1}", "the number 1 can never match 'star', which holds yes/no values"),
])
def test_a_selector_value_that_cannot_match_its_field_is_refused(tmp_path, where, error):
    # It would select no card, and 'max: 0' would then pass whatever the deck holds.
    path = write_deck(tmp_path, f"- count: {{where: {where}, max: 0}}\n  message: none")
    path.write_text(path.read_text().replace(HEADER, TYPED_HEADER))
    run = check(path)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert len(run.error_lines) == 1, run.stderr
    assert run.error_lines[0].startswith(f"error: {path}:{line_of(path, '- count:')}:")
    assert error in run.error_lines[0]


@pytest.mark.parametrize("where", ["{cost: 2}", "{cost: [1, 2.0]}", "{weight: 0.5}", "{star: true}",
                                   "{cost: null}"])
def test_a_selector_value_of_the_right_type_is_accepted(tmp_path, where):
    path = write_deck(tmp_path, f"- count: {{where: {where}, min: 0}}\n  message: any")
    path.write_text(path.read_text().replace(HEADER, TYPED_HEADER))
    run = check(path)
    assert run.exit_code == 0, run.stdout + run.stderr


# --- back. fields of the deck's shared back ----------------------------------------------------

SHARED_BACK = "back: {name: Mine Run}\n"


def test_a_back_field_reads_the_deck_s_shared_back_on_cards_without_their_own(tmp_path):
    assert_passes(write_deck(tmp_path, "- count: {where: {back.name: Mine Run}, min: 10}", extra=SHARED_BACK))


def test_a_card_with_its_own_back_is_judged_by_that_back_not_the_shared_one(tmp_path):
    cards = CARDS.replace("{id: bolt, count: 1, name: Bolt, kind: spell}",
                          "{id: bolt, count: 1, name: Bolt, kind: spell, back: {name: Storm}}")
    path = write_deck(tmp_path, "- count: {where: {back.name: Mine Run}, exact: 10}", cards, extra=SHARED_BACK)
    assert assert_breaks(path, "expected exactly 10 cards matching back.name=Mine Run", "found 9")


def test_unique_on_a_back_field_sees_every_card_show_the_shared_back(tmp_path):
    assert_breaks(write_deck(tmp_path, "- unique: {fields: [back.name]}", extra=SHARED_BACK),
                  "found 'Mine Run' on 4 cards")
