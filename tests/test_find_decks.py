"""Which decks a command works on, and refusing two decks whose outputs would collide."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import deckpress


def make_deck(folder: Path, name: str = "Game") -> Path:
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text(f"deck: {{name: {name}}}\ncards:\n  - {{id: a, name: A}}\n")
    return folder


@pytest.mark.parametrize("command", [["build", "--quiet"], ["booklet", "--quiet"], ["stats", "--quiet"]])
def test_two_decks_with_one_name_are_refused_before_any_output(tmp_path, command):
    # build would write OUT/game.pdf for both, the second silently replacing the first.
    first = make_deck(tmp_path / "a" / "x" / "game")
    second = make_deck(tmp_path / "b" / "y" / "game")
    out = tmp_path / "out"
    run = deckpress(command[0], first, second, "--out" if command[0] != "stats" else "--report", out,
                    *command[1:])
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.error_lines == [
        f"error: {second / 'deck.yaml'}: deck 'game' has the same name as {first / 'deck.yaml'}, so "
        "their output files would overwrite each other; name them in separate runs or rename one folder"]
    assert not out.exists()


def test_a_deck_file_and_a_deck_folder_of_one_name_collide_too(tmp_path):
    first = make_deck(tmp_path / "game")
    other = tmp_path / "elsewhere" / "game.yaml"
    other.parent.mkdir()
    other.write_text((first / "deck.yaml").read_text())
    run = deckpress("build", first, other, "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 2
    assert f"error: {other}: deck 'game' has the same name as {first / 'deck.yaml'}" in run.stderr


def test_check_writes_nothing_so_it_reads_both(tmp_path):
    first = make_deck(tmp_path / "a" / "game")
    second = make_deck(tmp_path / "b" / "game")
    run = deckpress("check", first, second)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.count("ok    game: Game") == 2


def test_a_deck_named_twice_is_read_once(tmp_path):
    deck = make_deck(tmp_path / "game")
    run = deckpress("check", deck, deck / "deck.yaml")
    assert run.exit_code == 0
    assert run.stdout.count("ok ") == 1


@pytest.mark.parametrize("command", ["build", "booklet"])
def test_a_deck_declaring_another_decks_id_is_refused_before_overwriting_its_files(tmp_path, command):
    first = make_deck(tmp_path / "cards" / "alpha")
    (first / "rules.md").write_text("# Rules\n\nPlay.\n")
    second = tmp_path / "cards" / "beta"
    second.mkdir()
    (second / "deck.yaml").write_text("deck:\n  id: alpha\n  name: Beta\ncards:\n  - {id: b, name: B}\n")
    (second / "rules.md").write_text("# Rules\n\nOther rules.\n")
    out = tmp_path / "out"
    run = deckpress(command, first, second, "--out", out, "--quiet")
    assert run.exit_code == 2, run.stdout + run.stderr
    assert run.error_lines == [
        f"error: {second / 'deck.yaml'}:2:3: deck id 'alpha' is also the id of {first / 'deck.yaml'}, so "
        "their output files would overwrite each other; give one of them another deck: id: (id)"]
    written = sorted(path.name for path in out.iterdir()) if out.exists() else []
    assert written in ([], ["alpha-rules-booklet.pdf", "alpha-rules.pdf"])  # alpha's own, never beta's
    if written:
        from pypdf import PdfReader
        text = " ".join(page.extract_text() for page in PdfReader(out / "alpha-rules.pdf").pages)
        assert "Play." in text and "Other rules" not in text
