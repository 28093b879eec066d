"""Reading a deck's files at a git revision: the commit's bytes, never the working tree's,
only inside the deck's folders, and nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from iterations_support import commit, git, project

from generator.deck.model import load_deck
from generator.errors import InputError
from generator.loading import read_text
from generator.revisions import DISK, GitError, Revision, current_source, reading_from

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    project(tmp_path)
    return tmp_path


def test_files_are_read_as_the_commit_holds_them(repository: Path):
    deck = repository / "cards" / "game" / "deck.yaml"
    first = deck.read_text()
    deck.write_text(first.replace("name: Playtest\n  layout", "name: Later\n  layout"))
    revision = Revision.of([deck.parent, repository / "layouts"], "HEAD")
    with reading_from(revision):
        assert read_text(deck) == first
        assert load_deck(deck.parent).name == "Playtest"
        assert current_source() is revision
    assert current_source() is DISK and load_deck(deck.parent).name == "Later"
    assert revision.label(deck) == "HEAD:cards/game/deck.yaml"
    assert revision.listing(deck.parent) == [deck.parent / "art", deck]
    assert revision.entry(deck.parent / "art").kind == "a folder"
    assert revision.local(deck) is None and revision.identity(deck) != DISK.identity(deck)


def test_a_file_the_commit_lacks_is_missing_even_when_the_working_tree_has_it(repository: Path):
    later = repository / "cards" / "game" / "later.yaml"
    later.write_text("deck: {name: x}\n")
    with reading_from(Revision.of([later.parent], "HEAD")), pytest.raises(InputError) as caught:
        read_text(later)
    assert str(caught.value) == f"{later}: file not found"


def test_files_outside_the_decks_folders_come_from_the_disk(repository: Path):
    notes = repository / "notes.txt"
    notes.write_text("committed")
    commit(repository, "Notes")
    notes.write_text("changed since")
    revision = Revision.of([repository / "cards" / "game"], "HEAD")
    with reading_from(revision):
        assert read_text(notes) == "changed since"
    assert revision.label(notes) == str(notes) and revision.local(notes) == notes


def test_a_path_is_read_as_the_commit_names_it_not_through_the_working_tree_s_links(repository: Path):
    art = repository / "cards" / "game" / "art"
    committed = (art / "golem.png").read_bytes()
    (art / "golem.png").rename(art / "golem-v2.png")
    (art / "golem.png").symlink_to("golem-v2.png")
    (art / "sketches").symlink_to(".", target_is_directory=True)
    revision = Revision.of([repository / "cards" / "game"], "HEAD")
    assert revision.resolved(art / "golem.png") == revision.root / "cards/game/art/golem.png"
    assert revision.read(art / "golem.png", 10**6) == committed
    assert revision.label(art / "sketches" / "golem.png") == "HEAD:cards/game/art/sketches/golem.png"
    assert not revision.is_file(art / "golem-v2.png") and not revision.is_file(art / "sketches" / "golem.png")
    assert DISK.resolved(art / "golem.png") == (art / "golem-v2.png").resolve()


def test_the_revision_is_read_from_git_and_named_in_the_error(repository: Path):
    with pytest.raises(GitError, match="no revision 'v9' in the repository at"):
        Revision.of([repository / "cards" / "game"], "v9")
    with pytest.raises(GitError, match="'--output=x' is not a revision"):
        Revision.of([repository / "cards" / "game"], "--output=x")
    assert not (repository / "x").exists()


def test_a_version_at_a_revision_is_its_last_commit_up_to_it(repository: Path):
    first = git(repository, "rev-parse", "--short", "HEAD").strip()
    (repository / "cards" / "game" / "deck.yaml").write_text(
        (repository / "cards" / "game" / "deck.yaml").read_text().replace("Playtest\n  layout", "Again\n  layout"))
    second = commit(repository, "Renamed")
    folder = repository / "cards" / "game"
    assert DISK.version([folder]) == second
    assert Revision.of([folder], "HEAD~1").version([folder]) == first
