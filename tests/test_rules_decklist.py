"""A rule may apply to one decklist (``decklist: first-game``): a first game's setup of ten
piles is checked on the first game's decklist, not on the starting decks beside it."""

from __future__ import annotations

import json

from cli_run import deckpress, line_of, place_of
from test_rules import assert_breaks, assert_passes, check, write_deck

KINGDOM = """\
cards:
  - {id: copper, count: 60, name: Copper, kind: treasure}
  - {id: estate, count: 24, name: Estate, kind: treasure}
""" + "".join(f"  - {{id: pile-{n}, count: 10, name: Pile {n}, kind: spell}}\n" for n in range(12))
DECKLISTS = """\
decklists:
  starting: {name: Starting deck, cards: {copper: 7, estate: 3}}
  first-game:
    name: First game
    cards: {""" + ", ".join(f"pile-{n}: 10" for n in range(10)) + """}
"""
TEN_PILES = """\
- count: {where: {kind: spell}, exact: 100}
  decklist: first-game
  message: ten kingdom piles of ten
"""


def test_a_rule_for_one_decklist_runs_on_it_alone(tmp_path):
    path = write_deck(tmp_path, TEN_PILES, cards=KINGDOM, extra=DECKLISTS)
    assert_passes(path)
    report = json.loads(check(path, "--format", "json").stdout)
    assert report["decks"][0]["rules_checked"] == 1  # one decklist, not every one nor the pool


def test_the_same_rule_on_every_decklist_fails_the_starting_deck(tmp_path):
    path = write_deck(tmp_path, TEN_PILES.replace("decklist: first-game", "scope: decklists"), cards=KINGDOM,
                      extra=DECKLISTS)
    assert_breaks(path, "decklist 'starting': count (ten kingdom piles of ten): expected exactly 100")


def test_a_broken_rule_for_one_decklist_names_it(tmp_path):
    path = write_deck(tmp_path, TEN_PILES.replace("exact: 100", "exact: 90"), cards=KINGDOM, extra=DECKLISTS)
    run = check(path)
    assert run.exit_code == 1
    assert f"{path}:{line_of(path, '- count:')}: decklist 'first-game': count (ten kingdom piles of ten): " \
           "expected exactly 90" in run.stdout
    assert "'starting'" not in run.stdout


def test_a_rule_naming_no_decklist_the_deck_has_is_an_input_error(tmp_path):
    path = write_deck(tmp_path, TEN_PILES.replace("decklist: first-game", "decklist: frist-game"), cards=KINGDOM,
                      extra=DECKLISTS)
    run = check(path)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {place_of(path, 'decklist: frist-game')}: no decklist 'frist-game'; "
                               "did you mean 'first-game'? (decklist)"]
    path = write_deck(tmp_path / "none", TEN_PILES, cards=KINGDOM)
    assert check(path).error_lines == [f"error: {place_of(path, 'decklist: first-game')}: no decklist "
                                       "'first-game' (the deck has no decklists) (decklist)"]


def test_a_rule_names_a_decklist_or_a_scope_not_both(tmp_path):
    path = write_deck(tmp_path, TEN_PILES + "  scope: decklists\n", cards=KINGDOM, extra=DECKLISTS)
    run = check(path)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {place_of(path, 'scope: decklists')}: a rule runs on the decklist it "
                               "names or on a scope; leave out 'scope' or 'decklist' (scope)"]


def test_the_deck_schema_knows_a_rule_s_decklist():
    from test_schema import errors

    deck = {"deck": {"name": "X"}, "cards": [{"name": "A"}],
            "rules": [{"total": 10, "decklist": "first-game"}, {"count": {"exact": 2}, "decklist": "starting"}]}
    assert errors(deck) == []
    assert deckpress("schema", "deck").exit_code == 0
