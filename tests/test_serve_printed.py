"""What the preview hands out and shows is what the commands print, version stamp included.

The deck is in a git repository of its own, so its version is the short id of the last
commit that touched it (``+`` once the working tree changed it). Each test starts
``deckpress serve`` as a designer would, downloads the page's files and compares them,
byte for byte, with what ``deckpress build`` and ``deckpress booklet`` write.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from cli_run import deckpress
from iterations_support import commit, git
from pypdf import PdfReader
from serve_support import Server, edit, running_server

from generator.cli.watch import watched_roots
from generator.scaffold import create_deck
from generator.serve.preview import DeckPreview

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

VERSION = re.compile(r"\b[0-9a-f]{7}\+?(?![0-9a-z])")


def printed_versions(pdf: bytes) -> set[str]:
    """Every version stamp (a short commit id, ``+`` or not) the PDF's pages print."""
    return {found for page in PdfReader(io.BytesIO(pdf)).pages for found in VERSION.findall(page.extract_text())}


def moon_project(root: Path) -> tuple[Path, str]:
    """``deckpress new moon`` in a git repository at ``root``, committed: its folder and the commit's id."""
    folder = create_deck(root / "cards", "moon")
    git(root, "init", "-q")
    return folder, commit(root, "The first playtest")


def download(server: Server, deck: dict, kind: str) -> bytes:
    return server.get(deck["downloads"][kind])


def built(folder: Path, out: Path) -> Path:
    """``out``, holding what ``deckpress build`` and ``deckpress booklet`` write for the deck now."""
    assert deckpress("build", folder, "--out", out, "--quiet").exit_code == 0
    assert deckpress("booklet", folder, "--out", out, "--quiet").exit_code == 0
    return out


def test_the_downloads_are_the_files_build_and_booklet_write(tmp_path: Path):
    folder, first = moon_project(tmp_path / "project")
    with running_server(folder, cwd=tmp_path / "project") as server:
        deck = server.deck("moon")
        served = {kind: download(server, deck, kind) for kind in ("print", "rules", "booklet")}
        committed = built(folder, tmp_path / "committed")
        edit(folder / "deck.yaml", "name: Knight", "name: Paladin")
        deck = server.wait_for_reload("moon", deck["version"])
        edited = {kind: download(server, deck, kind) for kind in ("print", "rules", "booklet")}
        expected = built(folder, tmp_path / "edited")
    for files, out in ((served, committed), (edited, expected)):
        assert files["print"] == (out / "moon.pdf").read_bytes()
        assert files["rules"] == (out / "moon-rules.pdf").read_bytes()
        assert files["booklet"] == (out / "moon-rules-booklet.pdf").read_bytes()
    # The cards print the version; the booklet's pictures of them print none, as booklet makes them.
    assert printed_versions(served["print"]) == {first}
    assert printed_versions(edited["print"]) == {first + "+"}
    assert printed_versions(served["rules"]) == printed_versions(edited["booklet"]) == set()


def test_a_commit_checkout_or_reset_while_serving_moves_the_version_the_page_and_its_pdf_print(tmp_path: Path):
    project = tmp_path / "project"
    folder, first = moon_project(project)
    with running_server(folder, cwd=project) as server:
        deck = server.deck("moon")
        edit(folder / "deck.yaml", "name: Knight", "name: Paladin")
        deck = server.wait_for_reload("moon", deck["version"])
        assert printed_versions(download(server, deck, "print")) == {first + "+"}
        edited_images = {face["image"] for face in deck["faces"]}

        second = commit(project, "Paladins")  # no file of the deck changes: only git's
        deck = server.wait_for_reload("moon", deck["version"])
        served = download(server, deck, "print")
        assert printed_versions(served) == {second}
        assert served == (built(folder, tmp_path / "committed") / "moon.pdf").read_bytes()
        # Every face prints the version, so the page shows each drawn anew.
        assert not edited_images & {face["image"] for face in deck["faces"]}

        git(project, "reset", "-q", "--soft", "HEAD~1")  # the branch moves back; the files stay edited
        deck = server.wait_for_reload("moon", deck["version"])
        assert printed_versions(download(server, deck, "print")) == {first + "+"}

        git(project, "checkout", "-q", "--detach", second)  # HEAD names a commit, no branch
        deck = server.wait_for_reload("moon", deck["version"])
        assert printed_versions(download(server, deck, "print")) == {second}


def test_a_deck_in_a_linked_worktree_follows_its_own_branch_only(tmp_path: Path):
    main = tmp_path / "main"
    moon_project(main)
    linked = tmp_path / "linked"
    git(main, "worktree", "add", "-q", "-b", "iteration-2", str(linked))
    preview = DeckPreview(linked / "cards" / "moon" / "deck.yaml", watched_roots)
    preview.refresh()
    before = preview.watched_files()

    edit(main / "cards" / "moon" / "deck.yaml", "name: Knight", "name: Paladin")
    commit(main, "Paladins, on the main branch")
    assert preview.watched_files() == before  # another checkout's commit: this deck's version stays

    edit(linked / "cards" / "moon" / "deck.yaml", "name: Knight", "name: Templar")
    preview.refresh()
    before = preview.watched_files()
    second = commit(linked, "Templars")
    assert preview.watched_files() != before
    assert preview.refresh().drawable.deck.version == second
