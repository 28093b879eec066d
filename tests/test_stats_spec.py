"""A malformed stats: section is refused with exit 2 and the file, line, column and key."""

import json
from pathlib import Path
from textwrap import dedent

import pytest
from click.testing import CliRunner

from generator.cli import cli

DECK = """\
deck: {name: Tiny}
fields:
  name: text
  kind: {choices: [red, blue]}
  cost: int
cards:
  - {id: a, name: A, kind: red, cost: 1, count: 3}
  - {id: b, name: B, kind: blue, cost: 2, count: 3}
"""


def run_stats(tmp_path: Path, stats: str, *args: str):
    path = tmp_path / "deck.yaml"
    path.write_text(DECK + dedent(stats))
    result = CliRunner().invoke(cli, ["stats", str(path), *args])
    return path, result


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("stats, line, column, message", [
    ("stats:\n  questions: {name: x}\n", 10, 3, "expected a list of questions"),
    ("stats:\n  draws: 6\n", 10, 3, "unknown stats setting 'draws'; did you mean 'draw'?"),
    ("stats:\n  draw: six\n", 10, 3, "expected a whole number, found 'six' (draw)"),
    ("stats:\n  questions:\n    - name: q\n      draw: 2\n      need: {where: {colour: red}}\n",
     13, 22, "selector names unknown field 'colour'"),
    ("stats:\n  questions:\n    - name: q\n      draw: 2\n      need: {where: {kind: red}, at_least: cost}\n",
     13, 34, "a field name is allowed only with 'for_some' or 'for_every'"),
    ("stats:\n  questions:\n    - name: q\n      need: {where: {kind: red}}\n",
     11, 7, "question needs 'draw'"),
    ("stats:\n  dice: {field: cost, dice: 2x6}\n", 10, 23, "cannot read dice '2x6'"),
    ("stats:\n  dice: {field: price, dice: 2d6}\n", 10, 10, "unknown field 'price'"),
    ("stats:\n  simulate: {plugin: ../../evil.py}\n", 10, 14, "points outside the deck folder"),
    ("stats:\n  simulate: {plugin: /tmp/evil.py}\n", 10, 14, "must be a path inside the deck folder"),
    ("stats:\n  composition: [kind, colour]\n", 10, 23, "unknown field 'colour'"),
])
def test_malformed_stats_section_exits_2_with_position(tmp_path, stats, line, column, message):
    """The position is the offending key (or list item), as everywhere in deckpress."""
    path, result = run_stats(tmp_path, stats)
    assert result.exit_code == 2, result.output
    errors = lines_of(result.output)
    assert len(errors) == 1, result.output
    assert errors[0].startswith(f"error: {path}:{line}:{column}: "), errors[0]
    assert message in errors[0]
    assert "Traceback" not in result.output


def test_unknown_field_in_a_question_is_named_with_a_hint(tmp_path):
    path, result = run_stats(tmp_path, """\
        stats:
          questions:
            - name: red card
              draw: 2
              need: {where: {knid: red}}
        """)
    assert result.exit_code == 2
    assert "selector names unknown field 'knid'; did you mean 'kind'?" in result.output


def test_unknown_field_on_the_command_line_is_named(tmp_path):
    path, result = run_stats(tmp_path, "", "--draw", "2", "--where", "colour=red")
    assert result.exit_code == 2
    assert "--where names unknown field 'colour'" in result.output


def test_where_without_draw_is_a_usage_error(tmp_path):
    path, result = run_stats(tmp_path, "", "--where", "kind=red")
    assert result.exit_code == 2
    assert "--where needs --draw" in result.output


def test_a_question_pinned_to_a_missing_decklist_is_refused(tmp_path):
    path, result = run_stats(tmp_path, """\
        stats:
          questions:
            - {name: q, draw: 2, decklist: starter, need: {where: {kind: red}}}
        """)
    assert result.exit_code == 2
    assert "no decklist 'starter'; this deck has no decklists (decklist)" in result.output


def test_unknown_by_field_is_refused(tmp_path):
    path, result = run_stats(tmp_path, "", "--by", "colour")
    assert result.exit_code == 2
    assert "--by names unknown field 'colour'" in result.output


def test_a_broken_deck_does_not_stop_the_others(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "deck.yaml").write_text(DECK + "stats:\n  draw: lots\n")
    good = tmp_path / "good"
    good.mkdir()
    (good / "deck.yaml").write_text(DECK)
    result = CliRunner().invoke(cli, ["stats", str(tmp_path), "--format", "json"])
    assert result.exit_code == 2
    assert f"{broken / 'deck.yaml'}:10:3: expected a whole number" in result.stderr
    decks = json.loads(result.stdout)["decks"]
    assert "error" in decks[0] and decks[1]["name"] == "Tiny"


def test_a_value_that_is_not_a_choice_is_refused(tmp_path):
    path, result = run_stats(tmp_path, """\
        stats:
          questions:
            - {name: q, draw: 2, need: {where: {kind: rde}}}
        """)
    assert result.exit_code == 2
    assert f"{path}:11:41: 'rde' is not a choice of 'kind'; did you mean 'red'?" in result.output
    path, result = run_stats(tmp_path, "", "--draw", "2", "--where", "kind=green")
    assert result.exit_code == 2
    assert "--where: 'green' is not a choice of 'kind'; expected one of: blue, red" in result.output
