"""Checkouts git calls unchanged are unchanged for deckpress too: a clone with CRLF line endings
(``core.autocrlf``, Git for Windows' default) and art kept in Git LFS. Neither may stamp the
version as edited (``+``) or make ``diff`` and a reprint redraw a face; deckpress reads both
without running the filters a repository's configuration names."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from cli_run import deckpress
from iterations_support import commit, edit, git, project, write_art

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 20 20">
  <rect x="2" y="2" width="16" height="16" fill="#c03030"/>
  <circle cx="10" cy="10" r="5" fill="#3030c0"/>
</svg>
"""


def version_of(deck: Path) -> str:
    run = deckpress("check", deck)
    assert run.exit_code == 0, run.stderr
    return run.stdout.strip().rsplit("version ", 1)[1]


def nothing_changed(deck: Path) -> None:
    run = deckpress("diff", deck, "--since", "HEAD", "-q")
    assert run.exit_code == 0, run.stderr
    assert "  nothing prints or plays differently" in run.stdout.splitlines(), run.stdout


def test_a_clone_with_crlf_line_endings_is_the_commit_it_checked_out(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch):
    origin = tmp_path / "origin"
    deck = project(origin, commit_it=False)
    (deck / "art" / "emblem.svg").write_text(SVG, encoding="utf-8")
    edit(origin / "layouts" / "game.yaml", "  - name: version\n",
         "  - name: emblem\n    image: art/emblem.svg\n    box: [40, 55, 15, 15]\n  - name: version\n")
    git(origin, "init", "-q")
    commit(origin, "The first playtest")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-c", "core.autocrlf=true", str(origin), str(clone))
    assert b"\r\n" in (clone / "cards" / "game" / "art" / "emblem.svg").read_bytes()
    assert git(clone, "status", "--short") == ""
    monkeypatch.chdir(clone)
    assert version_of(Path("cards/game")) == git(clone, "rev-parse", "--short", "HEAD").strip()
    nothing_changed(Path("cards/game"))
    edit(Path("cards/game/art/emblem.svg"), "#3030c0", "#30c030")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert "    cards/game/art/emblem.svg: art/emblem.svg changed" in run.stdout.splitlines(), run.stdout
    assert version_of(Path("cards/game")).endswith("+")


def lfs_pointer(content: bytes) -> bytes:
    """What Git LFS commits in place of ``content``."""
    return (f"version https://git-lfs.github.com/spec/v1\noid sha256:{hashlib.sha256(content).hexdigest()}\n"
            f"size {len(content)}\n").encode()


@pytest.fixture
def lfs_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """A project whose art is committed as Git LFS commits it (a pointer, the content in its
    store), checked out as Git LFS checks it out; the art's committed bytes."""
    deck = project(tmp_path, commit_it=False)
    art = deck / "art" / "golem.png"
    content = art.read_bytes()
    art.write_bytes(lfs_pointer(content))
    (tmp_path / ".gitattributes").write_text("*.png filter=lfs diff=lfs merge=lfs -text\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The first playtest")
    digest = hashlib.sha256(content).hexdigest()
    stored = tmp_path / ".git" / "lfs" / "objects" / digest[:2] / digest[2:4] / digest
    stored.parent.mkdir(parents=True)
    stored.write_bytes(content)
    art.write_bytes(content)
    monkeypatch.chdir(tmp_path)
    return content


def test_art_in_git_lfs_is_the_art_its_pointer_names(tmp_path: Path, lfs_project: bytes):
    nothing_changed(Path("cards/game"))
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", tmp_path / "out")
    assert run.exit_code == 0, run.stderr
    assert "deck 'game': nothing to reprint since HEAD" in run.stdout + run.stderr
    assert not (tmp_path / "out").exists()


def test_art_changed_since_its_lfs_commit_is_compared_with_the_stored_content(tmp_path: Path,
                                                                             lfs_project: bytes):
    write_art(Path("cards/game/art/golem.png"), (40, 40, 200))
    assert version_of(Path("cards/game")).endswith("+")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    lines = run.stdout.splitlines()
    assert lines[1:4] == ["faces that print differently", "  front of golem:",
                          "    cards/game/art/golem.png: art/golem.png changed"], run.stdout
    shutil.rmtree(tmp_path / ".git" / "lfs")  # never fetched to this machine
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert ("cannot read image 'art/golem.png': kept in Git LFS, and its content at HEAD is not on this "
            "machine (git lfs fetch fetches it) (element 'art'") in run.stdout, run.stdout
    assert "  print 2 cards: golem x2 (redrawn)" in run.stdout.splitlines()


POINTER_MESSAGE = "it is a Git LFS pointer: the file's content was never fetched; git lfs pull fetches it"


@pytest.mark.parametrize("name, told", [
    ("cards/game/deck.yaml", "cards/game/deck.yaml: cannot read file: "),
    ("layouts/game.yaml", "layouts/game.yaml: cannot read file: "),
    ("cards/game/rules.md", "cards/game/rules.md: cannot read file: "),
    ("cards/game/art/golem.png", "cannot read image 'art/golem.png': "),
    ("cards/game/art/emblem.svg", "'art/emblem.svg' cannot be read: "),
    ("cards/game/fonts/Hand.ttf", "font 'Hand': the file cannot be read ("),
    ("cards/game/cards.csv", "cards/game/cards.csv: cannot read file: "),
])
def test_a_file_checked_out_as_its_lfs_pointer_is_named_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           name: str, told: str):
    """A clone made without git-lfs holds a pointer where each file kept in LFS should be: check
    names the file, says what it holds and how to get the content, whatever kind of file it is,
    not that the image, font or YAML is broken."""
    deck = project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    (deck / "art" / "emblem.svg").write_text(SVG, encoding="utf-8")
    (deck / "fonts").mkdir()
    shutil.copy(Path(__file__).resolve().parent.parent / "generator" / "render" / "data" / "fonts"
                / "DejaVuSerif.ttf", deck / "fonts" / "Hand.ttf")
    (deck / "rules.md").write_text("# Playtest\n\nDraw a card.\n", encoding="utf-8")
    deck_text = (deck / "deck.yaml").read_text(encoding="utf-8")
    cards = deck_text[deck_text.index("cards:\n"):deck_text.index("rules:\n")]
    (deck / "deck.yaml").write_text(deck_text.replace(cards, "cards: {from: cards.csv}\n"), encoding="utf-8")
    (deck / "cards.csv").write_text("id,name,text,strength,count,art\nimp,Imp,Burn a card.,2,2,\n"
                                    "ogre,Ogre,Smash.,5,3,\ntroll,Troll,Regrow.,4,1,\n"
                                    "golem,Golem,Stand firm.,6,2,art/golem.png\n", encoding="utf-8")
    edit(Path("layouts/game.yaml"), "    size: 12\n", "    size: 12\n    font: Hand\n")
    edit(Path("layouts/game.yaml"), "  - name: version\n",
         "  - name: emblem\n    image: art/emblem.svg\n    box: [40, 55, 15, 15]\n  - name: version\n")
    assert deckpress("check", "cards/game").exit_code == 0
    content = Path(name).read_bytes()
    Path(name).write_bytes(lfs_pointer(content))
    run = deckpress("check", "cards/game")
    assert run.exit_code == 2, run.stderr
    assert told + POINTER_MESSAGE in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_workbook_checked_out_as_its_lfs_pointer_is_named_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """openpyxl opens a workbook by its name, past the readers of files: it is asked first."""
    deck = project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    deck_text = (deck / "deck.yaml").read_text(encoding="utf-8")
    cards = deck_text[deck_text.index("cards:\n"):deck_text.index("rules:\n")]
    (deck / "deck.yaml").write_text(deck_text.replace(cards, "cards: {from: cards.xlsx}\n"), encoding="utf-8")
    (deck / "cards.xlsx").write_bytes(lfs_pointer(b"PK\x03\x04 a workbook"))
    run = deckpress("check", "cards/game")
    assert run.exit_code == 2, run.stderr
    assert "cards/game/cards.xlsx: cannot read file: " + POINTER_MESSAGE in run.stderr, run.stderr


def test_a_font_in_git_lfs_loads_at_the_revision_with_the_size_of_its_content(tmp_path: Path,
                                                                             lfs_project: bytes):
    """Every limit and check on a file's size sees the content's, not the pointer's."""
    font = (Path(__file__).resolve().parent.parent / "generator" / "render" / "data" / "fonts"
            / "DejaVuSerif.ttf").read_bytes()
    fonts = Path("cards/game/fonts")
    fonts.mkdir()
    (fonts / "Lib.ttf").write_bytes(lfs_pointer(font))
    edit(Path("layouts/game.yaml"), "    size: 12\n", "    size: 12\n    font: Lib\n")
    (tmp_path / ".gitattributes").write_text("*.png filter=lfs diff=lfs merge=lfs -text\n"
                                             "*.ttf filter=lfs diff=lfs merge=lfs -text\n")
    commit(tmp_path, "A font of our own")
    digest = hashlib.sha256(font).hexdigest()
    stored = tmp_path / ".git" / "lfs" / "objects" / digest[:2] / digest[2:4] / digest
    stored.parent.mkdir(parents=True)
    stored.write_bytes(font)
    (fonts / "Lib.ttf").write_bytes(font)
    nothing_changed(Path("cards/game"))


def test_a_folder_linked_outside_the_repository_counts_as_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The version's check reads no file outside the repository, even one holding the committed bytes."""
    root = tmp_path / "repository"
    deck = project(root, commit_it=False)
    (deck / "notes").mkdir()
    (deck / "notes" / "ideas.txt").write_text("More dragons.\n")
    git(root, "init", "-q")
    commit(root, "The first playtest")
    (root / ".gitignore").write_text("/cards/game/notes\n")  # the link below is no untracked file
    commit(root, "Ignore the notes")
    monkeypatch.chdir(root)
    assert not version_of(Path("cards/game")).endswith("+")
    outside = tmp_path / "outside"
    shutil.move(deck / "notes", outside)
    (deck / "notes").symlink_to(outside, target_is_directory=True)
    assert version_of(Path("cards/game")).endswith("+")
