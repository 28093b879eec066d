"""A deck's version: written in the deck file, or the last commit of its files; printed small
on every face of the bundled decks and of new ones, and named by ``check``."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
import stat
from pathlib import Path

import jsonschema
import pdfplumber
import pytest
from cli_run import CARDS, deckpress, line_of
from iterations_support import DECK, commit, edit, git, project
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from generator.boxes import Box
from generator.deck.model import MAX_VERSION_CHARACTERS, load_deck
from generator.errors import InputError
from generator.render import load_renderer
from generator.render.plan import IconOp, Op, TextOp
from generator.revisions import git as git_module
from generator.shops.presets import bundled_preset_names, find_preset

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def deck_with(tmp_path: Path, version: str) -> Path:
    path = tmp_path / "game" / "deck.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(DECK.replace("  name: Playtest\n  layout: game\n", f"  name: Playtest\n  version: {version}\n")
                    .replace("art: art/golem.png", "art: ~"), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        load_deck(path)
    return str(caught.value)


# --- what the deck file says ---------------------------------------------------------


def test_a_written_version_is_the_decks_version(tmp_path: Path):
    assert load_deck(deck_with(tmp_path, '"0.4"')).version == "0.4"
    assert load_deck(deck_with(tmp_path, "3")).version == "3"  # a whole number reads as it is written


def test_a_version_yaml_reads_as_a_number_with_a_point_must_be_quoted_as_written(tmp_path: Path):
    """The quotes asked for hold the version as the designer wrote it, zeros and all."""
    path = deck_with(tmp_path, "1.10")
    assert refusal(path) == (f"{path}:{line_of(path, 'version')}:3: version 1.10 is a number to YAML, not text, "
                             'and would print 1.1; write it in quotes: version: "1.10" (version)')
    path = deck_with(tmp_path, "0.4   # the playtest copy")
    assert refusal(path) == (f"{path}:{line_of(path, 'version')}:3: version 0.4 is a number to YAML, not text "
                             '(as a number it would lose zeros: 1.10 prints 1.1); write it in quotes: '
                             'version: "0.4" (version)')


def test_a_version_prints_on_one_line_and_is_short(tmp_path: Path):
    assert "holds a line break or control character" in refusal(deck_with(tmp_path, '"0.4\\nbeta"'))
    long = "x" * (MAX_VERSION_CHARACTERS + 1)
    assert f"is {MAX_VERSION_CHARACTERS + 1} characters long" in refusal(deck_with(tmp_path, long))
    assert "expected text, found a list" in refusal(deck_with(tmp_path, "[1, 2]"))


def test_the_deck_schema_describes_the_version():
    schema = json.loads(deckpress("schema", "deck").stdout)
    version = {"deck": {"name": "x"}, "cards": [{"name": "y"}]}
    validator = jsonschema.Draft202012Validator(schema)
    for good in ("0.4", 3):
        version["deck"]["version"] = good
        assert not list(validator.iter_errors(version))
    for bad in (1.5, "", "x" * 41, "0.4\nbeta"):
        version["deck"]["version"] = bad
        assert list(validator.iter_errors(version)), bad


# --- what git says -------------------------------------------------------------------


def summary(path: str | Path = "cards/game") -> str:
    run = deckpress("check", str(path))
    assert run.exit_code == 0, run.stdout + run.stderr
    return run.stdout.splitlines()[0]


@needs_git
def test_without_a_written_version_the_version_is_the_last_commit_of_the_decks_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    first = git(tmp_path, "rev-parse", "--short", "HEAD").strip()
    assert summary() == f"ok    game: Playtest, 8 cards, 1 rule checked, 5 faces laid out, version {first}"
    (tmp_path / "notes.txt").write_text("not the deck's")
    commit(tmp_path, "Notes")  # a commit that touches none of the deck's files
    assert summary().endswith(f"version {first}")
    edit(Path("layouts/game.yaml"), "size: 12", "size: 13")  # its layout is one of its files
    assert summary().endswith(f"version {first}+")
    second = commit(tmp_path, "A bigger title")
    assert summary().endswith(f"version {second}")
    (tmp_path / "cards" / "game" / "art" / "new.png").write_bytes(b"")  # a new file in its folder
    assert summary().endswith(f"version {second}+")


@needs_git
def test_a_shared_repositorys_own_filters_are_never_run_to_find_the_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A deck folder shared with its .git carries its configuration: a clean filter there is a
    program of the sender's choosing, which ``git status`` would run on a changed file."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    ran = tmp_path.parent / f"{tmp_path.name}-filter-ran"
    (tmp_path / ".gitattributes").write_text("* filter=sender\n")
    commit(tmp_path, "Every file through the sender's filter")
    first = summary().rsplit(" ", 1)[1]
    git(tmp_path, "config", "filter.sender.clean", f"sh -c 'touch {ran}; cat'")
    deck = tmp_path / "cards" / "game" / "deck.yaml"
    deck.write_text(deck.read_text() + "# a note\n")  # changed, so git would compare it through the filter
    assert summary().endswith(f"version {first}+")
    assert not ran.exists()
    deck.write_text(deck.read_text().removesuffix("# a note\n"))
    assert summary().endswith(f"version {first}")
    assert not ran.exists()


@needs_git
def test_the_version_is_printed_on_fronts_and_backs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    head = git(tmp_path, "rev-parse", "--short", "HEAD").strip()
    assert deckpress("build", "cards/game", "--out", "out", "--quiet").exit_code == 0
    pages = pdfplumber.open("out/game.pdf").pages
    assert head in pages[0].extract_text() and head in pages[1].extract_text()
    manifest = json.loads(Path("out/game.json").read_text())
    assert {placement["face"] for placement in manifest["placements"]} == {"front", "back"}


@needs_git
def test_without_git_or_outside_a_repository_there_is_no_version_and_no_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path / "plain", commit_it=False)
    assert summary(tmp_path / "plain" / "cards" / "game") == \
        "ok    game: Playtest, 8 cards, 1 rule checked, 5 faces laid out"
    project(tmp_path / "repo")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    run = deckpress("check", str(tmp_path / "repo" / "cards" / "game"))
    assert run.exit_code == 0 and run.stderr == ""
    assert run.stdout.splitlines()[0] == "ok    game: Playtest, 8 cards, 1 rule checked, 5 faces laid out"


@needs_git
def test_a_git_that_does_not_answer_is_given_up_and_the_deck_has_no_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    hanging = tmp_path / "bin" / "git"
    hanging.parent.mkdir()
    hanging.write_text("#!/bin/sh\nsleep 30\n")
    hanging.chmod(hanging.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(hanging.parent))
    monkeypatch.setattr(git_module, "GIT_TIMEOUT_SECONDS", 0.3)
    run = deckpress("check", str(tmp_path / "cards" / "game"))
    assert run.exit_code == 0 and "version" not in run.stdout.splitlines()[0]


@needs_git
def test_a_symbolic_link_at_a_revision_is_no_file_to_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    deck = Path("cards/game/deck.yaml")
    text = deck.read_text()
    Path("elsewhere.yaml").write_text(text)
    deck.unlink()
    deck.symlink_to("../../elsewhere.yaml")
    commit(tmp_path, "The deck file points elsewhere")
    deck.unlink()
    deck.write_text(text)
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 2
    assert run.error_lines == ["error: HEAD:cards/game/deck.yaml: is a symbolic link, not a file that can be read"]


# --- the bundled decks and new ones print it, and it fits ------------------------------

VERSIONS = ("0.4", "2c147dc+", "2024-06 playtest 3")
"""A designer's, a git commit's with changes, and a longer one."""


def text_boxes(op: TextOp) -> list[Box]:
    """The box each line of a text operation covers: its width measured, from the font's descent
    below the baseline to its ascent above."""
    ascent, descent = getAscentDescent(op.font, op.size)
    return [Box(x, baseline + descent, stringWidth(text, op.font, op.size), ascent - descent)
            for x, baseline, text in op.lines if text.strip()]


def turned(box: Box, op: Op) -> Box:
    """``box`` as the card shows it: turned as the operation's element is, about its centre."""
    if op.frame is None or not op.frame.rotate % 360:
        return box
    radians = math.radians(-op.frame.rotate)
    cos, sin = math.cos(radians), math.sin(radians)
    cx, cy = op.frame.centre
    corners = [(cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
               for x in (box.x, box.right) for y in (box.y, box.top)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def drawn_boxes(op: Op) -> list[Box]:
    """What of an operation the version must keep clear of: its text lines, its icons."""
    if isinstance(op, TextOp):
        return [turned(box, op) for box in text_boxes(op)]
    if isinstance(op, IconOp):
        return [turned(Box(x, y, size, size), op) for x, y, size in op.squares]
    return []  # shapes and art are backgrounds a text may sit on


def strictest_safe_zone() -> float:
    """The widest safe zone of the print shops deckpress knows, in points."""
    return max(find_preset(name).safe for name in bundled_preset_names())


def decks_printing_versions(tmp_path: Path) -> list[Path]:
    assert deckpress("new", "space-race", "--dir", str(tmp_path)).exit_code == 0
    return [*sorted(path.parent for path in CARDS.glob("*/deck.yaml")), tmp_path / "space-race"]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_face_of_the_bundled_and_new_decks_prints_the_version_clear_of_everything(tmp_path: Path,
                                                                                       version: str):
    for folder in decks_printing_versions(tmp_path):
        deck = dataclasses.replace(load_deck(folder), version=version)
        renderer = load_renderer(deck)
        assert renderer.problems() == [], folder.name
        for card in deck.cards:
            for side in ("front", "back"):
                plan = renderer.plan(card, side)
                stamps = [op for op in plan if isinstance(op, TextOp) and "version" in op.element]
                assert [line for op in stamps for _, _, line in op.lines] == [version], (folder.name, card.id, side)
                stamp, = stamps
                assert stamp.size <= 5  # small
                layout = renderer.layouts[side]  # the bundled decks print at every shop deckpress knows
                safe = layout.trim.grown(-strictest_safe_zone()) if folder.parent == CARDS else layout.safe_box
                for box in drawn_boxes(stamp):
                    assert box.inside(safe, tolerance=0.1), (folder.name, card.id, side, box)
                    for other in plan:
                        if other is not stamp:
                            assert not any(box.overlaps(drawn) for drawn in drawn_boxes(other)), \
                                (folder.name, card.id, side, other.element)
