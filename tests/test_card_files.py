"""Cards kept in a JSON or YAML file: ``cards: {from: cards.json}`` and ``deckpress import
cards.json``, as a list of cards or a mapping of ids to cards, every value's error at its own
line and column, and a spreadsheet's bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import deckpress, place_of

import generator.deck.cardfile as cardfile
from generator.deck import load_deck

DECK = """deck: {name: Sprites}
fields:
  name: {type: text, required: true}
  type: {choices: [creature, spell]}
  power: {type: int, min: 0}
  text: text
cards: {from: FILE}
rules:
  - total: 9
"""
LISTED = [{"name": "Fire Imp", "qty": 3, "type": "creature", "power": 2, "text": "Pay 2*"},
          {"name": "Water Sprite", "count": 2, "type": "creature", "power": 1, "back": {"name": "Mist"}},
          {"name": "Heal", "copies": 4, "type": "spell", "back.name": "Glow"}]
MAPPED = {"imp": {"name": "Fire Imp", "qty": 3, "type": "creature", "power": 2, "text": "Pay 2*"},
          "sprite": {"name": "Water Sprite", "count": 2, "type": "creature", "power": 1, "back": {"name": "Mist"}},
          "heal": {"name": "Heal", "copies": 4, "type": "spell", "back.name": "Glow"}}
YAML_LISTED = """\
- {name: Fire Imp, qty: 3, type: creature, power: 2, text: "Pay 2*"}
- name: Water Sprite
  count: 2
  type: creature
  power: 1
  back: {name: Mist}
- {name: Heal, copies: 4, type: spell, back.name: Glow}
"""


def deck_reading(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK.replace("FILE", name), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name, text, ids", [
    ("cards.json", json.dumps(LISTED, indent=2), ["fire-imp", "water-sprite", "heal"]),
    ("cards.json", json.dumps(MAPPED, indent="\t"), ["imp", "sprite", "heal"]),
    ("cards.yaml", YAML_LISTED, ["fire-imp", "water-sprite", "heal"]),
    ("cards.yml", "imp: {name: Fire Imp, qty: 3, type: creature, power: 2, text: 'Pay 2*'}\n"
                  "sprite: {name: Water Sprite, count: 2, type: creature, power: 1, back: {name: Mist}}\n"
                  "heal: {name: Heal, copies: 4, type: spell, back.name: Glow}\n", ["imp", "sprite", "heal"]),
], ids=["json-list", "json-mapping", "yaml-list", "yaml-mapping"])
def test_a_deck_reads_its_cards_from_a_card_file(tmp_path, name, text, ids):
    folder = deck_reading(tmp_path / "sprites", name, text)
    checked = deckpress("check", folder)
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    deck = load_deck(folder)
    assert [(card.id, card.count) for card in deck.cards] == list(zip(ids, (3, 2, 4), strict=True))
    assert deck.card(ids[1]).back == {"name": "Mist"} and deck.card(ids[2]).back == {"name": "Glow"}
    assert deck.card(ids[0]).fields["power"] == 2 and deck.card(ids[0]).fields["text"] == "Pay 2*"


@pytest.mark.parametrize("name, text, at, message", [
    ("cards.json", '[{"name": "Imp",\n  "power": "lots"}]', '"power"', "expected a whole number, found 'lots' (power)"),
    ("cards.json", '[{"name": "Imp", "power": -1}]', '"power"', "must be at least 0, found -1 (power)"),
    ("cards.json", '[{"name": "Imp", "name": "Eel"}]', '"name": "Eel"', "duplicate key 'name'"),
    ("cards.json", '[{"name": "Imp", "power": NaN}]', "NaN", "invalid value: 'NaN' is no number a card can show"),
    ("cards.json", '[{"name": "Imp"} {"name": "Eel"}]', '{"name": "Eel"}', "JSON error: expected ',' or ']'"),
    ("cards.json", '{"imp": {"id": "eel", "name": "Imp"}}', '"id"',
     "card 'imp' names another id, 'eel'; leave one out"),
    ("cards.json", '"Imp"', '"Imp"', "a card file holds a list of cards, or a mapping of card ids to cards"),
    ("cards.json", '[{"name": "Imp", "text": ' + "[" * 30 + "]" * 30 + "}]", "[[", "nested more than 20 levels deep"),
    ("cards.yaml", "- {name: Imp, power: lots}\n", "power", "expected a whole number, found 'lots' (power)"),
    ("cards.yaml", "- &imp {name: Imp}\n- *imp\n", "&imp", "duplicate card id 'imp' (first at line 1)"),
    ("cards.yaml", "- {name: Imp, type: monster}\n", "type", "expected one of creature, spell, found 'monster'"),
])
def test_a_bad_value_in_a_card_file_is_named_at_its_line_and_column(tmp_path, name, text, at, message):
    folder = deck_reading(tmp_path / "sprites", name, text)
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert len(checked.error_lines) == 1, checked.error_lines
    assert checked.error_lines[0].startswith(f"error: {place_of(folder / name, at)}: {message}")
    assert checked.error_lines[0].endswith(f"[from {folder / 'deck.yaml'}:7]")


def test_a_card_file_is_bounded_as_a_spreadsheet_is(tmp_path, monkeypatch):
    monkeypatch.setattr(cardfile, "MAX_SHEET_ROWS", 3)
    monkeypatch.setattr(cardfile, "MAX_SHEET_CELLS", 7)
    monkeypatch.setattr(cardfile, "MAX_SHEET_COLUMNS", 3)
    rows = "[" + ",\n".join(json.dumps({"name": f"C{n}"}) for n in range(4)) + "]"
    folder = deck_reading(tmp_path / "rows", "cards.json", rows)
    assert deckpress("check", folder).error_lines[0].startswith(
        f"error: {folder / 'cards.json'}:4:1: more than 3 cards")
    cells = "[" + ",\n".join(json.dumps({"name": f"C{n}", "power": n, "type": "spell"}) for n in range(3)) + "]"
    folder = deck_reading(tmp_path / "cells", "cards.json", cells)
    assert deckpress("check", folder).error_lines[0].startswith(
        f"error: {folder / 'cards.json'}:3:1: more than 7 filled values")
    wide = '[{"name": "C", "power": 1, "type": "spell", "text": "x"}]'
    folder = deck_reading(tmp_path / "wide", "cards.json", wide)
    assert "a card of 4 keys; a card has at most 3" in deckpress("check", folder).error_lines[0]


def test_an_alias_bomb_in_a_yaml_card_file_is_refused(tmp_path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{letter}: &{letter} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, "
        f"*{previous}, *{previous}, *{previous}, *{previous}]\n"
        for previous, letter in zip("abcdefg", "bcdefgh", strict=True))
    folder = deck_reading(tmp_path / "bomb", "cards.yaml", bomb)
    checked = deckpress("check", folder)
    assert checked.exit_code == 2 and "(alias bomb?)" in checked.stderr


@pytest.mark.parametrize("name, text", [("cards.json", json.dumps(MAPPED)), ("cards.yaml", YAML_LISTED)])
def test_import_of_a_card_file_types_its_keys_and_checks(tmp_path, name, text):
    folder = tmp_path / "sprites"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    imported = deckpress("import", folder / name)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout.startswith(f"wrote {folder / 'deck.yaml'}: 3 cards, 9 copies;")
    deck = load_deck(folder)
    assert {name: spec.type for name, spec in deck.fields.items()} == \
        {"name": "text", "type": "choice", "power": "int", "text": "text"}
    assert deck.fields["type"].choices == ("creature", "spell")
    assert deck.fields["text"].markup is True  # "Pay 2*" prints as written
    assert deck.total == 9 and deckpress("check", folder).exit_code == 0
    linked = deckpress("import", folder / name, "--link", "--force")
    assert linked.exit_code == 0, linked.stderr
    assert f"cards: {{from: {name}}}" in (folder / "deck.yaml").read_text(encoding="utf-8")
    assert load_deck(folder).total == 9


def test_a_card_file_has_no_sheets(tmp_path):
    folder = deck_reading(tmp_path / "sprites", "cards.json", json.dumps(LISTED))
    (folder / "deck.yaml").write_text(DECK.replace("FILE", "cards.json, sheet: Cards"), encoding="utf-8")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert "cards.json is a card file, which has no sheets; leave out 'sheet'" in checked.stderr
