"""Each distinct face is worked out once per run, so a deck's time grows with its distinct faces.

A deck of all-different cards must not re-sum the whole deck for every face,
nor rebuild a face's fields over and over (time would grow with the square of
the cards). These tests count the per-face work a real build does.
"""

from __future__ import annotations

import dataclasses
import json

from cli_run import deckpress
from test_render import make_deck

from generator.deck.model import load_deck
from generator.render import load_renderer
from generator.render import renderer as renderer_module

LAYOUT = """\
title: "{{ name }}"
elements:
  - {text: "{{ name }}", box: [5, 5, 50, 10]}
  - {text: "{{ card.count }} of {{ deck.total }}", box: [5, 20, 50, 10]}
"""
BACK_LAYOUT = """\
elements:
  - {text: "{{ name }}", box: [5, 5, 50, 10]}
"""
CARDS = 40


def distinct_deck(tmp_path, count: int):
    return make_deck(tmp_path, LAYOUT, cards=distinct_cards(count), deck_layout="{front: main, back: plain}",
                     extra_layouts={"plain": BACK_LAYOUT})


def distinct_cards(count: int) -> str:
    return "".join(f"  - {{id: card-{n}, name: Card {n}, kind: monster, roll: {n % 11 + 2}}}\n"
                   for n in range(count))


def counting(monkeypatch, name: str) -> list:
    """Record each call of the renderer module's ``name`` (and still make it)."""
    calls = []
    original = getattr(renderer_module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(renderer_module, name, counted)
    return calls


def test_a_build_lays_out_each_distinct_face_once(tmp_path, monkeypatch):
    deck = distinct_deck(tmp_path, CARDS)
    contexts = counting(monkeypatch, "face_context")
    plans = counting(monkeypatch, "plan_face")
    result = deckpress("build", deck.folder, "--quiet", "--no-check", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    assert len(plans) == CARDS + 1  # every front differs; the back is shared
    assert len(contexts) == 2 * CARDS  # each side of each card, once
    manifest = json.loads((tmp_path / "out" / "test.json").read_text())
    assert {placement["title"] for placement in manifest["placements"] if placement["face"] == "front"} \
        == {f"Card {n}" for n in range(CARDS)}


def test_a_checked_build_draws_the_faces_its_check_laid_out(tmp_path, monkeypatch):
    """The check lays out every distinct face; the sheets draw those very plans, not new ones."""
    deck = distinct_deck(tmp_path, CARDS)
    contexts = counting(monkeypatch, "face_context")
    plans = counting(monkeypatch, "plan_face")
    assert deckpress("build", deck.folder, "--quiet", "--out", tmp_path / "checked").exit_code == 0
    assert len(plans) == CARDS + 1
    assert len(contexts) == 2 * CARDS
    monkeypatch.undo()
    assert deckpress("build", deck.folder, "--quiet", "--no-check", "--out", tmp_path / "unchecked").exit_code == 0
    assert (tmp_path / "checked" / "test.pdf").read_bytes() == (tmp_path / "unchecked" / "test.pdf").read_bytes()


def test_a_card_with_other_counts_is_a_face_of_its_own(tmp_path):
    """A decklist's copy of a card (same id, other count) must not reuse the card's face."""
    deck = distinct_deck(tmp_path, 2)
    renderer = load_renderer(deck)
    card = deck.cards[0]
    listed = dataclasses.replace(card, count=5)
    assert renderer.face_key(card, "front") != renderer.face_key(listed, "front")
    plain_text = [op.lines[0][2] for op in renderer.plan(card, "front") if hasattr(op, "lines")]
    listed_text = [op.lines[0][2] for op in renderer.plan(listed, "front") if hasattr(op, "lines")]
    assert plain_text[1] == "1 of 2" and listed_text[1] == "5 of 2"


def test_a_draft_reports_every_face_whose_text_does_not_fit(tmp_path):
    """Faces sharing an element's values share its planning, and still each report its overflow."""
    layout = LAYOUT + '  - {text: "{{ text }}", box: [5, 40, 20, 8], size: 9, min_size: 8}\n'
    cards = "".join(f"  - {{id: card-{n}, name: Card {n}, text: {'far too many words ' * 10}}}\n" for n in range(3))
    make_deck(tmp_path, layout, cards=cards, deck_layout="{front: main, back: plain}",
              extra_layouts={"plain": BACK_LAYOUT})
    drafted = load_renderer(load_deck(tmp_path / "cards" / "test"), draft=True)
    problems = drafted.problems()
    assert [(problem.card, problem.side) for problem in problems] == [(f"card-{n}", "front") for n in range(3)]
    assert all(problem.message.count("the draft prints it") == 1 for problem in problems)
