"""Right-to-left text (Hebrew, Arabic) is not set yet: it would print in stored order, left to
right and unjoined, so ``check`` and ``build`` refuse it with one line naming the card and field."""

from __future__ import annotations

import pytest
from cli_run import deckpress, place_of
from test_render import make_deck

from generator.errors import EXIT_RULES

LAYOUT = """\
elements:
  - name: body
    text: "{{ text }}"
    box: [5, 10, 53, 40]
    fit: wrap
"""


@pytest.mark.parametrize("words", ["שלום עולם", "Say مرحبا twice"])
def test_right_to_left_text_is_refused_with_its_card_and_field(tmp_path, words):
    make_deck(tmp_path, LAYOUT, f"  - {{id: hello, name: Hello, kind: spell, text: '{words}'}}\n")
    folder = tmp_path / "cards" / "test"
    where = place_of(folder / "deck.yaml", "text: '")  # the card's text field
    for run in (deckpress("check", folder), deckpress("build", folder, "--out", tmp_path / "out", "--quiet")):
        assert run.exit_code == EXIT_RULES
        [line] = [line for line in (run.stdout + run.stderr).splitlines() if "right-to-left" in line]
        assert f"{where}:" in line, line
        assert "card 'hello'" in line and "element 'body'" in line
        assert "not supported yet" in line
        assert "Traceback" not in run.stderr


def test_left_to_right_text_with_accents_still_builds(tmp_path):
    make_deck(tmp_path, LAYOUT, "  - {id: hello, name: Hello, kind: spell, text: 'Ça déjà vu, ΑΒΓ, Привет'}\n")
    assert deckpress("check", tmp_path / "cards" / "test").exit_code == 0
