"""Contrast and colour-blind warnings as ``deckpress check`` reports them: printed with exit 0,
exit 1 with ``--strict``, accepted with a reason from the deck file, and in ``--format json``."""

from __future__ import annotations

import json

from access_support import write_deck
from cli_run import CARDS, deckpress, line_of, place_of

DECK = """\
deck: {name: Suits, layout: look}
fields:
  name: text
  suit: {choices: [red, green]}
cards:
  - {id: ruby, name: Ruby, suit: red}
  - {id: fern, name: Fern, suit: green}
"""
LAYOUT = """\
colours:
  suit-colour: {field: suit, map: {red: "#c62f2a", green: "#3c8d3f"}, default: "#1d1d1b"}
elements:
  - name: edge
    rect: card
    fill: suit-colour
  - name: panel
    rect: [4, 4, 55.5, 80.9]
    fill: white
  - name: title
    text: "{{ name }}"
    box: [5, 5, 53.5, 10]
  - name: faint-note
    text: "small print"
    box: [5, 70, 53.5, 6]
    size: 7
    colour: "#aaaaaa"
"""


def deck_with(tmp_path, accept: str = ""):
    return write_deck(tmp_path, DECK + accept, LAYOUT)


def test_warnings_are_printed_and_pass(tmp_path):
    folder = deck_with(tmp_path)
    run = deckpress("check", folder)
    assert run.exit_code == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("ok    game: Suits, 2 cards") and lines[0].endswith(", 4 warnings")
    layout = folder / "look.yaml"
    note = f"{layout}:{line_of(layout, 'name: faint-note')}:5: warning: text 'faint-note' (7 pt)"
    assert sum(line.startswith(note) for line in lines) == 3  # each distinct face: two fronts, one back
    assert any("on card 'ruby' front: #aaaaaa on #ffffff ('panel') has contrast 2.32:1, below the 4.5:1"
               in line for line in lines)
    colour_line = (f"{layout}:{line_of(layout, 'suit-colour: {')}:3: warning: field 'suit': "
                   "red (#c62f2a) and green (#3c8d3f) are 6.4 apart")
    assert any(line.startswith(colour_line) and "deuteranopia" in line
               and line.endswith("nothing else on the card tells them apart") for line in lines)


def test_strict_fails_on_warnings(tmp_path):
    folder = deck_with(tmp_path)
    run = deckpress("check", "--strict", folder)
    assert run.exit_code == 1
    assert "warning: field 'suit'" in run.stdout
    summary = run.stdout.splitlines()[0]
    assert summary.startswith("FAIL  ") and summary.endswith(": 4 warnings not accepted (--strict)"), summary
    report = json.loads(deckpress("check", "--strict", "--format", "json", folder).stdout)
    assert report["passed"] is False
    assert [(deck["passed"], deck["exit_code"]) for deck in report["decks"]] == [(False, 1)]
    plain = json.loads(deckpress("check", "--format", "json", folder).stdout)  # warnings pass without it
    assert plain["passed"] is True and [deck["exit_code"] for deck in plain["decks"]] == [0]


def test_accepted_warnings_are_reported_as_accepted_and_pass_strict(tmp_path):
    accept = """\
accept:
  - colour-blind: {field: suit}
    reason: the suits are also told by the card's name
  - contrast: {element: faint-note}
    reason: the note is decoration, not rules
"""
    folder = deck_with(tmp_path, accept)
    run = deckpress("check", "--strict", folder)
    assert run.exit_code == 0, run.stdout
    assert run.stdout.splitlines()[0].endswith(", 4 warnings (4 accepted)")
    assert any(line.endswith("(accepted: the suits are also told by the card's name)")
               for line in run.stdout.splitlines())
    assert sum(line.endswith("(accepted: the note is decoration, not rules)")
               for line in run.stdout.splitlines()) == 3


def test_an_acceptance_pinned_to_one_card_leaves_the_others(tmp_path):
    accept = """\
accept:
  - contrast: {card: ruby, side: front, element: faint-note}
    reason: only this card's note is fine
  - colour-blind: {field: suit}
    reason: told by name
"""
    run = deckpress("check", "--strict", deck_with(tmp_path, accept))
    assert run.exit_code == 1
    warnings = [line for line in run.stdout.splitlines() if "faint-note" in line]
    accepted = [line for line in warnings if "(accepted: only this card's note is fine)" in line]
    assert len(warnings) == 3 and len(accepted) == 1
    assert "on card 'ruby' front:" in accepted[0]


def test_an_acceptance_that_matches_nothing_is_a_warning(tmp_path):
    accept = """\
accept:
  - contrast: {element: title}
    reason: once too pale
"""
    folder = deck_with(tmp_path, accept)
    run = deckpress("check", folder)
    deck_file = folder / "deck.yaml"
    assert (f"{deck_file}:{line_of(deck_file, 'contrast: {element: title}')}:5: warning: accepts a contrast "
            "warning (element: title) that this deck no longer has: remove the entry") in run.stdout


def test_an_acceptance_is_not_called_stale_where_its_warnings_were_never_looked_for(tmp_path):
    """build does not run the contrast checks, and a check whose layout cannot be read cannot:
    neither may tell the designer to remove an entry that still matches a warning."""
    accept = "accept:\n  - contrast: {element: faint-note}\n    reason: a note, not rules text\n"
    folder = deck_with(tmp_path, accept.replace("accept:", "rules:\n  - {count: 3}\naccept:"))
    checked = deckpress("check", folder)
    assert checked.exit_code == 1 and "(accepted: a note, not rules text)" in checked.stdout
    built = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == 1 and "expected exactly 3 cards" in built.stderr
    assert "no longer has" not in built.stdout + built.stderr
    (folder / "look.yaml").write_text((folder / "look.yaml").read_text() + "  - {text: oops, box: [1, 2]}\n")
    broken = deckpress("check", folder)
    assert broken.exit_code == 2 and "no longer has" not in broken.stdout + broken.stderr


def test_an_acceptance_for_a_face_that_cannot_be_laid_out_is_not_called_stale(tmp_path):
    accept = "accept:\n  - contrast: {card: ruby, side: front, element: faint-note}\n    reason: a note\n"
    folder = write_deck(tmp_path, DECK.replace("name: Ruby,", "name: " + "Ruby " * 60 + ",") + accept, LAYOUT)
    run = deckpress("check", folder)
    assert run.exit_code == 1 and "does not fit" in run.stdout
    assert "no longer has" not in run.stdout + run.stderr


def test_an_acceptance_without_a_reason_is_refused(tmp_path):
    folder = deck_with(tmp_path, "accept:\n  - contrast: {card: ruby, colour: red}\n  - contrast: {card: fern}\n")
    run = deckpress("check", folder)
    assert run.exit_code == 2
    deck_file = folder / "deck.yaml"
    line = line_of(deck_file, "colour: red")
    assert f"{place_of(deck_file, 'colour: red')}: unknown match 'colour'" in run.stderr
    assert (f"{deck_file}:{line + 1}:5: say why the contrast warning is fine: add reason: ... (reason)"
            in run.stderr)


def test_a_mistyped_kind_of_warning_is_refused_with_the_nearest_kind(tmp_path):
    folder = deck_with(tmp_path, "accept:\n  - colour: {field: suit}\n    reason: told by name\n")
    run = deckpress("check", folder)
    assert run.exit_code == 2
    deck_file = folder / "deck.yaml"
    assert (f"{place_of(deck_file, 'colour: {field: suit}')}: unknown kind of warning 'colour'; "
            "did you mean 'colour-blind'?") in run.stderr
    assert "no longer has" not in run.stdout + run.stderr


def test_json_and_message_show_the_same_ratio_never_rounded_up_to_a_pass(tmp_path):
    # #1b8577 on white is 4.4987:1, just short of the 4.5:1 small text needs.
    folder = write_deck(tmp_path, DECK, LAYOUT.replace('"#aaaaaa"', '"#1b8577"'))
    run = deckpress("check", "--format", "json", folder)
    (finding, *_) = [finding for finding in json.loads(run.stdout)["decks"][0]["findings"]
                     if finding["kind"] == "contrast"]
    assert finding["ratio"] == 4.49
    assert "has contrast 4.49:1, below the 4.5:1" in finding["message"]


def test_json_carries_each_warning_with_its_kind_and_facts(tmp_path):
    accept = "accept:\n  - colour-blind: {field: suit}\n    reason: told by name\n"
    run = deckpress("check", "--format", "json", deck_with(tmp_path, accept))
    assert run.exit_code == 0
    findings = json.loads(run.stdout)["decks"][0]["findings"]
    by_kind = {}
    for finding in findings:
        by_kind.setdefault(finding["kind"], []).append(finding)
    (blind,) = by_kind["colour-blind"]
    assert blind["severity"] == "warning" and blind["accepted"] == "told by name"
    assert (blind["field"], blind["values"], blind["deficiency"]) == ("suit", [["red"], ["green"]], "deuteranopia")
    assert blind["colours"] == ["#c62f2a", "#3c8d3f"] and blind["distance"] == 6.4
    contrast = by_kind["contrast"]
    assert {finding["card"] for finding in contrast} == {"ruby", "fern"}
    assert contrast[0]["element"] == "faint-note" and contrast[0]["accepted"] is None
    assert (contrast[0]["text_colour"], contrast[0]["backdrop_colour"], contrast[0]["ratio"]) == (
        "#aaaaaa", "#ffffff", 2.32)


def test_the_bundled_decks_pass_strict():
    run = deckpress("check", "--strict", CARDS)
    assert run.exit_code == 0, run.stdout
    assert "1 warning (1 accepted)" in run.stdout  # Tiki's red and green, named on every card
