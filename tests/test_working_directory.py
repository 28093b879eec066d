"""The working directory plays no part: a deck named any way, from any folder, finds the same
layouts and gets the same id, so its files have the same names.

The project here keeps its layout in the project's ``layouts/`` folder (not beside the
deck), which is what going wrong used to show: run from elsewhere, it was not found.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import deckpress

LAYOUT = """\
size: poker
units: mm
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53, 8], font: Vera-Bold, size: 12, min_size: 8}
"""

DECK = """\
deck: {name: Quest, layout: plain}
fields:
  name: {type: text, required: true}
cards:
  - {id: knight, name: Knight, count: 2}
  - {id: dragon, name: Dragon}
rules:
  - total: 3
    message: three cards
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """``project/layouts/plain.yaml`` and ``project/cards/quest/deck.yaml``."""
    root = tmp_path / "project"
    (root / "layouts").mkdir(parents=True)
    (root / "layouts" / "plain.yaml").write_text(LAYOUT, encoding="utf-8")
    deck = root / "cards" / "quest"
    deck.mkdir(parents=True)
    (deck / "deck.yaml").write_text(DECK, encoding="utf-8")
    (deck / "rules.md").write_text("# Quest\n\n{{ components }}\n\nDeal {{ total }} cards.\n", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    return root


# (working directory relative to the tmp folder, how the deck is named there)
WAYS = [
    ("project", "cards/quest"),
    ("project", "cards/quest/deck.yaml"),
    ("project", "cards/../cards/quest/"),
    ("project/cards", "quest"),
    ("project/cards/quest", "."),
    ("project/cards/quest", "deck.yaml"),
    ("project/cards/quest", "../quest"),
    ("elsewhere", "{tmp}/project/cards/quest"),
    ("elsewhere", "../project/cards/quest/deck.yaml"),
]


@pytest.mark.parametrize("where, deck", WAYS)
def test_check_finds_the_project_layouts_from_anywhere(project, monkeypatch, where, deck):
    tmp = project.parent
    monkeypatch.chdir(tmp / where)
    run = deckpress("check", deck.format(tmp=tmp))
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.stdout.startswith("ok    quest: Quest, 3 cards, 1 rule checked, ")


@pytest.mark.parametrize("where, deck", WAYS)
def test_build_names_its_files_after_the_deck_from_anywhere(project, monkeypatch, where, deck):
    tmp = project.parent
    monkeypatch.chdir(tmp / where)
    out = tmp / "out"
    run = deckpress("build", deck.format(tmp=tmp), "--out", out, "--quiet")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert sorted(path.name for path in out.iterdir()) == ["quest.json", "quest.pdf"]
    assert json.loads((out / "quest.json").read_text())["deck"] == "quest"


def test_the_default_output_folder_is_build_in_the_working_directory(project, monkeypatch):
    monkeypatch.chdir(project / "cards" / "quest")
    assert deckpress("build", ".", "--quiet").exit_code == 0
    assert sorted(path.name for path in (project / "cards" / "quest" / "build").iterdir()) == \
        ["quest.json", "quest.pdf"]


def test_booklet_stats_and_export_inside_the_deck_folder(project, monkeypatch):
    monkeypatch.chdir(project / "cards" / "quest")
    out = project.parent / "out"
    assert deckpress("booklet", ".", "--out", out, "--quiet").exit_code == 0
    assert sorted(path.name for path in out.iterdir()) == ["quest-rules-booklet.pdf", "quest-rules.pdf"]
    stats = deckpress("stats", ".", "--format", "json")
    assert stats.exit_code == 0 and json.loads(stats.stdout)["decks"][0]["deck"] == "quest"
    assert deckpress("export", ".", "--png", out / "png", "--quiet").exit_code == 0
    assert (out / "png" / "knight-front.png").is_file()


def test_a_deck_may_name_its_own_id(project, monkeypatch):
    deck_file = project / "cards" / "quest" / "deck.yaml"
    deck_file.write_text(DECK.replace("deck: {name: Quest,", "deck: {id: quest-2e, name: Quest,"))
    monkeypatch.chdir(deck_file.parent)
    out = project.parent / "out"
    assert deckpress("check", ".").stdout.startswith("ok    quest-2e: Quest")
    assert deckpress("build", ".", "--out", out, "--quiet").exit_code == 0
    assert sorted(path.name for path in out.iterdir()) == ["quest-2e.json", "quest-2e.pdf"]


def test_a_deck_id_must_be_fit_for_a_file_name(project, monkeypatch):
    deck_file = project / "cards" / "quest" / "deck.yaml"
    deck_file.write_text(DECK.replace("deck: {name: Quest,", "deck: {id: ../Quest, name: Quest,"))
    monkeypatch.chdir(project)
    run = deckpress("check", "cards/quest")
    assert run.exit_code == 2
    assert run.error_lines == ["error: cards/quest/deck.yaml:1:8: deck id '../Quest' may use only a-z, 0-9, "
                               "'-' and '_' (id)"]
