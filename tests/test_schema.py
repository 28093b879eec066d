"""The deck JSON Schema that editors use agrees with the bundled decks and flags mistakes."""

import json
from pathlib import Path

import jsonschema
import yaml
from click.testing import CliRunner

from generator.cli import cli

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "cards").glob("*/deck.yaml"))


def deck_schema() -> dict:
    result = CliRunner().invoke(cli, ["schema", "deck"])
    assert result.exit_code == 0
    return json.loads(result.output)


def errors(document) -> list[str]:
    """Every message, including those inside 'one of' alternatives, as an editor lists them."""
    validator = jsonschema.Draft202012Validator(deck_schema())
    messages = []
    pending = list(validator.iter_errors(document))
    while pending:
        error = pending.pop(0)
        messages.append(error.message)
        pending.extend(error.context or [])
    return messages


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(deck_schema())


def test_schema_accepts_every_bundled_deck():
    assert BUNDLED, "no bundled decks found"
    for path in BUNDLED:
        assert errors(yaml.safe_load(path.read_text())) == [], path


def test_bundled_decks_point_editors_at_the_schema():
    for path in BUNDLED:
        first = path.read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../generator/schema/deck.schema.json", path


def test_schema_rejects_a_broken_deck():
    broken = {"deck": {"name": "X"}, "cards": [{"name": "A", "count": "three"}],
              "rules": [{"total": {"exactly": 3}}], "extras": 1}
    found = " | ".join(errors(broken))
    assert "'three' is not of type 'integer'" in found
    assert "'extras' was unexpected" in found
    assert "'exactly' was unexpected" in found
    assert errors({"cards": [{"name": "A"}]}) == ["'deck' is a required property"]


def test_schema_flags_an_amount_below_zero():
    # deckpress refuses it (no deck holds -1 cards); the editor says so as it is typed.
    for amount in (-1, {"max": -1}, {"exact": -1}, {"min": -1, "max": 3}):
        deck = {"deck": {"name": "X"}, "cards": [{"id": "a"}], "rules": [{"total": amount}]}
        assert "-1 is less than the minimum of 0" in errors(deck), amount


LAYOUTS = sorted((ROOT / "layouts").glob("*.yaml"))


def layout_errors(document) -> list[str]:
    schema = json.loads(CliRunner().invoke(cli, ["schema", "layout"]).output)
    validator = jsonschema.Draft202012Validator(schema)
    return [error.message for error in validator.iter_errors(document)]


def test_layout_schema_accepts_every_bundled_layout():
    assert LAYOUTS
    for path in LAYOUTS:
        assert path.read_text().startswith("# yaml-language-server: $schema=../generator/schema/layout.schema.json")
        assert layout_errors(yaml.safe_load(path.read_text())) == [], path


def test_layout_schema_rejects_a_broken_layout():
    found = " | ".join(layout_errors({"size": "poker", "elemnts": [], "units": "cm"}))
    assert "'elemnts' was unexpected" in found
    assert "'cm' is not one of ['mm', 'in', 'pt']" in found


def test_layout_schema_knows_every_setting_the_loader_knows():
    """The schema is written for editors; this keeps it in step with the loader."""
    from generator.render.layout import COMMON_KEYS, KIND_KEYS, TOP_KEYS

    schema = json.loads(CliRunner().invoke(cli, ["schema", "layout"]).output)
    assert set(schema["properties"]) == TOP_KEYS
    variants = schema["properties"]["elements"]["items"]["anyOf"]
    by_kind = {variant["required"][0]: set(variant["properties"]) for variant in variants
               if variant["required"][0] in KIND_KEYS}
    assert by_kind == {kind: COMMON_KEYS | keys | {kind} for kind, keys in KIND_KEYS.items()}


def test_deck_schema_knows_every_stats_setting_the_loader_knows():
    from generator.stats.spec import CONDITION_KEYS, DICE_KEYS, QUESTION_KEYS, SECTION_KEYS, SIMULATE_KEYS

    stats = deck_schema()["properties"]["stats"]["properties"]
    assert set(stats) == SECTION_KEYS
    assert set(stats["questions"]["items"]["properties"]) == QUESTION_KEYS
    assert set(stats["questions"]["items"]["properties"]["need"]["oneOf"][0]["properties"]) == CONDITION_KEYS
    assert set(stats["dice"]["properties"]) == DICE_KEYS
    assert set(stats["simulate"]["properties"]) == SIMULATE_KEYS


def test_deck_schema_knows_every_field_setting_the_loader_knows():
    from generator.deck.model import FIELD_KEYS

    declared = deck_schema()["properties"]["fields"]["additionalProperties"]["oneOf"][1]["properties"]
    assert set(declared) == FIELD_KEYS
    assert errors({"deck": {"name": "X"}, "fields": {"text": {"type": "text", "markup": False}},
                   "cards": [{"text": "Pay 2*"}]}) == []
    assert "'no' is not of type 'boolean'" in " | ".join(
        errors({"deck": {"name": "X"}, "fields": {"text": {"markup": "no"}}, "cards": [{"text": "a"}]}))
