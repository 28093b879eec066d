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

from generator.scaffold import create_deck

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
