"""``deckpress check`` gives the whole verdict: every problem any later command would
refuse the deck for, in one run, in file and line order, with the highest exit code.

Each test writes a small project (``cards/<game>/deck.yaml`` beside a layout), runs the
real command and reads what it printed, as a designer would.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from cli_run import deckpress, line_of, place_of

from generator.errors import Position
from generator.findings import Finding
from generator.verdict import checks, complete, verdict

LAYOUT = """\
size: poker
units: mm
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53, 8], font: Vera-Bold, size: 12, min_size: 10}
  - {name: body, text: "{{ text }}", box: [5, 20, 53, 12], fit: wrap, size: 9, min_size: 8}
"""

DECK = """\
deck: {name: Verdict Test, layout: plain}
fields:
  name: {type: text, required: true}
  text: text
  cost: {type: int, min: 0, max: 5}
  kind: {choices: [hero, monster]}
cards:
  - {id: knight, name: Knight, kind: hero, cost: 2, text: Strikes once.}
  - {id: troll, count: 2, name: Troll, kind: monster, cost: 3, text: Regrows.}
  - {id: imp, count: 3, name: Imp, kind: monster, cost: 1, text: Bites.}
rules:
  - total: 6
    message: six cards
"""

LONG_TEXT = " ".join(["This sentence is far too long for the small body box of the card."] * 6)


def project(tmp_path: Path, deck: str = DECK, layout: str = LAYOUT, name: str = "game") -> Path:
    """``tmp_path/cards/<name>/deck.yaml`` with its layout; returns the deck file."""
    folder = tmp_path / "cards" / name
    folder.mkdir(parents=True)
    (folder / "plain.yaml").write_text(layout, encoding="utf-8")
    path = folder / "deck.yaml"
    path.write_text(textwrap.dedent(deck), encoding="utf-8")
    return path


def test_a_sound_deck_passes_with_its_faces_laid_out(tmp_path):
    path = project(tmp_path)
    run = deckpress("check", path)
    assert run.exit_code == 0, run.stdout + run.stderr
    # Three distinct fronts, and one back: the layout draws no field there, so all backs look alike.
    assert run.stdout == "ok    game: Verdict Test, 6 cards, 1 rule checked, 4 faces laid out\n"
    assert run.stderr == ""


def test_every_problem_in_one_run_in_file_and_line_order(tmp_path):
    deck = (DECK
            .replace("text: Regrows.", f"text: {LONG_TEXT}")
            .replace("text: Bites.", f"text: Also {LONG_TEXT}")
            .replace("total: 6", "total: 7"))
    deck += "stats:\n  draw: nine\n"
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2, run.stdout + run.stderr  # the stats section is malformed
    out = run.stdout.splitlines()
    assert out[0] == "FAIL  game: Verdict Test, 6 cards, 1 rule checked, 4 faces laid out: 4 problems"
    troll, imp, rule = line_of(path, "id: troll"), line_of(path, "id: imp"), line_of(path, "total: 7")
    assert [line.split(": ", 1)[0] for line in out[1:]] == [
        f"{path}:{troll}:5", f"{path}:{imp}:5", f"{path}:{rule}"]
    assert "card 'troll', front: text \"This sentence" in out[1] and "does not fit" in out[1]
    assert "card 'imp', front" in out[2]
    assert out[3].endswith("total (six cards): expected exactly 7 cards, found 6")
    assert run.error_lines == [f"error: {place_of(path, 'draw: nine')}: expected a whole number, "
                               "found 'nine' (draw)"]


def test_every_bad_card_is_reported_not_only_the_first(tmp_path):
    deck = DECK.replace("cost: 2,", "cost: two,").replace("kind: monster, cost: 1", "kind: dragon, cost: 9")
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert run.stdout == ""  # no model: nothing later can be checked
    assert run.error_lines == [
        f"error: {place_of(path, 'cost: two')}: expected a whole number, found 'two' (cost)",
        f"error: {place_of(path, 'kind: dragon')}: expected one of hero, monster, found 'dragon' (kind)",
        f"error: {place_of(path, 'cost: 9')}: must be at most 5, found 9 (cost)",
    ]


def test_a_bad_card_value_hides_neither_a_duplicate_id_nor_a_bad_rule(tmp_path):
    deck = (DECK.replace("cost: 3,", "cost: three,").replace("{id: imp,", "{id: troll,")
            + "  - count: {where: {knd: monster}, min: 1}\n  - copies: {max: six}\n")
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert run.stdout == ""
    troll = line_of(path, "id: troll")
    assert run.error_lines == [
        f"error: {place_of(path, 'cost: three')}: expected a whole number, found 'three' (cost)",
        f"error: {place_of(path, 'id: troll, count: 3')}: duplicate card id 'troll' (first at line {troll}) (id)",
        f"error: {place_of(path, 'count: {where')}: selector names unknown field 'knd'; did you mean 'kind'? (where)",
        f"error: {place_of(path, 'copies: {max')}: rule 'copies' 'max' must be a whole number (copies)",
    ]
    built = deckpress("build", path, "--out", tmp_path / "out")  # build refuses the deck for all four too
    assert built.exit_code == 2 and built.error_lines[1:] == run.error_lines


def test_rules_are_judged_as_written_not_run_on_a_deck_whose_cards_are_not_all_read(tmp_path):
    deck = DECK.replace("cost: 3,", "cost: three,") + (
        "  - count: {where: {kind: monster}, min: 9}\n"  # would fail on the cards read so far: not said
        "  - expr: \"cards | selectattr('cost', 'gt', 2) | list | length > 0\"\n"
        "    message: something costs more than 2\n"
        "  - expr: \"total >\"\n"
        "    message: not an expression\n")
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2
    bad_rule = place_of(path, 'expr: "total')
    assert [line.split(": ", 2)[1] for line in run.error_lines] == [place_of(path, "cost: three"), bad_rule]
    assert run.error_lines[1].startswith(f"error: {bad_rule}: rule 'expr' expression 'total >' failed: ")


def test_a_bad_decklist_beside_a_bad_card_value(tmp_path):
    deck = DECK.replace("cost: 3,", "cost: three,") + "decklists:\n  duel: {cards: {knight: 1, nobody: 2}}\n"
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert run.error_lines == [
        f"error: {place_of(path, 'cost: three')}: expected a whole number, found 'three' (cost)",
        f"error: {place_of(path, 'nobody')}: no card with id 'nobody'; expected one of: imp, knight, troll (nobody)",
    ]


def test_a_layout_problem_beside_a_broken_rule(tmp_path):
    path = project(tmp_path, DECK.replace("total: 6", "total: 5"),
                   LAYOUT.replace("size: 9, min_size: 8", "size: 9, min_size: 8, colour: blurple"))
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert run.stdout.splitlines()[0] == "FAIL  game: Verdict Test, 6 cards, 1 rule checked: 2 problems"
    assert "total (six cards): expected exactly 5 cards, found 6" in run.stdout
    [error] = run.error_lines
    assert error.startswith(f"error: {path.parent / 'plain.yaml'}:5:") and "blurple" in error


def test_json_names_file_line_card_and_kind_of_every_finding(tmp_path):
    deck = DECK.replace("text: Regrows.", f"text: {LONG_TEXT}").replace("total: 6", "total: 7")
    path = project(tmp_path, deck)
    run = deckpress("check", path, "--format", "json")
    assert run.exit_code == 1
    report = json.loads(run.stdout)
    assert report["passed"] is False
    [result] = report["decks"]
    assert (result["deck"], result["exit_code"], result["faces_checked"]) == ("game", 1, 4)
    fit, rule = result["findings"]
    assert (fit["kind"], fit["file"], fit["line"], fit["card"], fit["side"], fit["element"]) == \
        ("fit", str(path), line_of(path, "id: troll"), "troll", "front", "body")
    assert (rule["kind"], rule["line"], rule["card"], rule["rule"]) == ("rule", line_of(path, "total: 7"),
                                                                         None, "total")


def test_a_question_that_draws_more_cards_than_the_deck_has(tmp_path):
    question = "    - {name: big hand, draw: 9, need: {where: {kind: hero}}}\n"
    path = project(tmp_path, DECK + "stats:\n  questions:\n" + question)
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {path}:{line_of(path, 'big hand')}:7: question 'big hand' draws 9 "
                               "cards, but Verdict Test has only 6 (draw)"]


def test_check_writes_no_files(tmp_path):
    path = project(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    assert deckpress("check", path).exit_code == 0
    assert sorted(tmp_path.rglob("*")) == before


def test_build_reports_every_face_that_does_not_fit(tmp_path):
    deck = DECK.replace("text: Regrows.", f"text: {LONG_TEXT}").replace("text: Bites.", f"text: {LONG_TEXT}!")
    path = project(tmp_path, deck)
    out = tmp_path / "out"
    run = deckpress("build", path, "--out", out, "--quiet")
    assert run.exit_code == 1
    assert run.error_lines[0] == "error: deck 'game' has 2 problems; nothing was built"
    assert [line.split(": ")[1] for line in run.error_lines[1:]] == [
        f"{path}:{line_of(path, 'id: troll')}:5", f"{path}:{line_of(path, 'id: imp')}:5"]
    assert not out.exists()


def test_every_bad_decklist_in_one_run(tmp_path):
    deck = DECK + ("decklists:\n"
                   "  duel: {cards: {knight: 1, nobody: 2}}\n"
                   "  solo: {cards: {troll: many}}\n")
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2 and run.stdout == ""
    assert run.error_lines == [
        f"error: {place_of(path, 'nobody')}: no card with id 'nobody'; expected one of: imp, knight, troll (nobody)",
        f"error: {place_of(path, 'troll: many')}: expected a whole number, found 'many' (troll)",
    ]


def test_every_bad_stats_question_in_one_run(tmp_path):
    deck = DECK + ("stats:\n  draw: nine\n  questions:\n"
                   "    - {name: a, draw: 2, need: {where: {kind: dragon}}}\n"
                   "    - {name: b, draw: 2, need: {where: {knd: hero}}}\n"
                   "    - {name: c, draw: 2, need: {where: {kind: hero}}}\n")
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert [line.split(": ")[1] for line in run.error_lines] == [
        place_of(path, "draw: nine"), place_of(path, "kind: dragon"), place_of(path, "knd: hero")]


def test_the_summary_counts_one_card_one_rule_and_one_face_in_the_singular(tmp_path):
    single = ("deck: {name: Single, layout: plain}\nfields: {name: {type: text, required: true}, text: text}\n"
              "cards:\n  - {id: solo, name: Solo}\nrules:\n  - total: 1\n")
    run = deckpress("check", project(tmp_path, single))
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.stdout == "ok    game: Single, 1 card, 1 rule checked, 2 faces laid out\n"  # front and back
    build = deckpress("build", project(tmp_path, single, name="other"), "--out", tmp_path / "out")
    assert build.exit_code == 0, build.stderr
    assert "(2 pages, 1 card)" in build.stdout  # a front sheet and a back sheet


def test_faces_rules_stats_and_booklet_problems_in_one_run(tmp_path):
    deck = (DECK.replace("text: Regrows.", f"text: {LONG_TEXT}").replace("total: 6", "total: 7")
            + "stats:\n  questions:\n    - {name: big hand, draw: 9, need: {where: {kind: hero}}}\n")
    path = project(tmp_path, deck)
    (path.parent / "rules.md").write_text("# Rules\n\n{{ componants }}\n", encoding="utf-8")
    run = deckpress("check", path, "--format", "json")
    assert run.exit_code == 2, run.stdout + run.stderr
    [result] = json.loads(run.stdout)["decks"]
    assert {finding["kind"] for finding in result["findings"]} == {"rule", "stats", "booklet", "fit"}
    assert (result["rules_checked"], result["faces_checked"]) == (1, 4)


def _at_the_deck_file(label: str):
    def check(subject):
        return [Finding(kind="test", message=label, position=Position(subject.path, 1, 1))]
    return check


def test_findings_at_one_place_keep_the_order_of_their_checks(tmp_path):
    path = project(tmp_path)
    first, second = _at_the_deck_file("first"), _at_the_deck_file("second")
    found = verdict(path, checks=(checks.check_model, first, checks.check_layouts, second))
    assert [finding.message for finding in found.findings if finding.kind == "test"] == ["first", "second"]


def test_a_check_that_fails_on_a_bug_is_not_taken_for_a_finding(tmp_path):
    def fails(subject):
        raise ValueError("a bug in a check")

    with pytest.raises(ValueError, match="a bug in a check"):
        verdict(project(tmp_path), checks=complete.CHECKS + (fails,))


def test_cards_that_are_no_list_leave_the_decklists_unjudged(tmp_path):
    """With no card read, a decklist naming one would be told it names no card: noise."""
    deck = DECK[:DECK.index("cards:\n")] + "cards: 5\ndecklists:\n  duel: {cards: {knight: 1}}\n"
    path = project(tmp_path, deck)
    run = deckpress("check", path)
    assert run.exit_code == 2
    assert len(run.error_lines) == 1 and "cards" in run.error_lines[0], run.error_lines


def test_problems_of_the_deck_and_its_layout_print_in_file_order_as_named(tmp_path, monkeypatch):
    """Named from the working folder, the deck file's lines come before its layout's."""
    project(tmp_path, DECK.replace("total: 6", "total: 7"),
            LAYOUT.replace("elements:", "elements:\n  - {name: x, rect: card, fill: nocolour}"))
    monkeypatch.chdir(tmp_path)
    run = deckpress("check", "cards/game", "--format", "json")
    named = [finding["file"] for finding in json.loads(run.stdout)["decks"][0]["findings"]]
    assert named == ["cards/game/deck.yaml", "cards/game/plain.yaml"], named
