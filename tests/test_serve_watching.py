"""The preview's file watching: which decks a save reloads, and when the page hears of each."""

import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_run import CARDS
from serve_support import TIMEOUT

from generator import watching as watching_module
from generator.cli.watch import watched_roots
from generator.deck.model import load_deck
from generator.render.layout import MAX_EXTENDS
from generator.serve.dependencies import deck_dependencies
from generator.serve.images import FaceImages
from generator.serve.preview import DeckPreview
from generator.serve.server import WATCH_INTERVAL, PreviewWatcher

PROJECT = CARDS.parent


class Pages:
    """Stands in for the open pages: notes each deck's version every time they are told."""

    def __init__(self, previews: list[DeckPreview]):
        self.previews = previews
        self.told: list[dict[str, int]] = []

    def publish(self) -> None:
        self.told.append({preview.id: preview.snapshot.version for preview in self.previews})


def copy_project(root: Path) -> Path:
    """Two bundled decks with the project's layouts (both extend frame.yaml) and fonts, in ``root``."""
    for deck in ("goblins", "tiki"):
        shutil.copytree(PROJECT / "cards" / deck, root / "cards" / deck)
    for folder in ("layouts", "fonts"):
        shutil.copytree(PROJECT / folder, root / folder)
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("project"))


def watching(project: Path, save: Callable[[], None], reloads: int) -> list[dict[str, int]]:
    """Watch the two decks as ``deckpress serve`` does, ``save``, and return the versions of
    both decks each time the page was told, once ``reloads`` reloads are done (and a little
    longer, for any reload that should not happen)."""
    previews = [DeckPreview(project / "cards" / deck / "deck.yaml", watched_roots) for deck in ("goblins", "tiki")]
    for preview in previews:
        preview.refresh()
    pages = Pages(previews)
    watcher = PreviewWatcher(previews, FaceImages(), pages, lambda line: None)
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    try:
        time.sleep(2 * WATCH_INTERVAL)  # the watcher has taken its first look
        save()
        deadline = time.monotonic() + TIMEOUT
        while sum(preview.snapshot.version - 1 for preview in previews) < reloads and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(4 * WATCH_INTERVAL)
    finally:
        watcher.stop()
        thread.join(TIMEOUT)
    return pages.told


def append(path: Path, line: str) -> Callable[[], None]:
    return lambda: path.write_text(path.read_text() + line)


def test_a_layout_edit_reloads_only_the_decks_that_read_it(project):
    told = watching(project, append(project / "layouts" / "tiki.yaml", "# a note\n"), reloads=1)
    assert told == [{"goblins": 1, "tiki": 2}]


def test_a_layout_every_deck_extends_reloads_each_and_the_page_hears_of_each_at_once(project):
    told = watching(project, append(project / "layouts" / "frame.yaml", "# a note\n"), reloads=2)
    assert told == [{"goblins": 2, "tiki": 1}, {"goblins": 2, "tiki": 2}]


def test_a_broken_layout_is_still_followed_to_what_it_extends_and_mending_it_reloads_its_deck(tmp_path):
    root = copy_project(tmp_path)
    tiki = root / "layouts" / "tiki.yaml"
    tiki.write_text(tiki.read_text().replace("extends: frame\n", "extends: frame\nsafe: lots\n"))
    told = watching(root, append(root / "layouts" / "frame.yaml", "# a note\n"), reloads=2)
    assert told == [{"goblins": 2, "tiki": 1}, {"goblins": 2, "tiki": 2}]
    told = watching(root, lambda: tiki.write_text(tiki.read_text().replace("safe: lots\n", "")), reloads=1)
    assert told == [{"goblins": 1, "tiki": 2}]


def test_a_layouts_folder_made_while_the_preview_runs_is_followed_and_mends_the_decks(tmp_path):
    root = copy_project(tmp_path)
    shutil.rmtree(root / "layouts")  # both decks read their layouts from there: neither draws
    told = watching(root, lambda: shutil.copytree(PROJECT / "layouts", root / "layouts"), reloads=2)
    assert told and told[-1] == {"goblins": 2, "tiki": 2}


def test_a_layout_no_deck_reads_reloads_none(project):
    new = project / "layouts" / "sketch.yaml"
    try:
        told = watching(project, lambda: new.write_text("extends: frame\n"), reloads=0)
    finally:
        new.unlink()
    assert told == []


def test_a_deck_folder_of_layouts_each_extending_the_next_is_followed_no_further_than_a_check_reads(tmp_path):
    folder = tmp_path / "cards" / "chain"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text("deck: {name: Chain, layout: l0}\ncards:\n  - {id: a, name: A}\n")
    for index in range(500):
        (folder / f"l{index}.yaml").write_text(f"extends: l{index + 1}\n")
    names = deck_dependencies(load_deck(folder / "deck.yaml"), None).layouts
    assert {"l0", "l1", f"l{MAX_EXTENDS}"} <= names and len(names) <= 2 * MAX_EXTENDS


def test_a_deck_folder_past_the_watch_limit_is_said_once_in_the_serve_terminal(tmp_path):
    """The preview looks at no more files than a watch does, and says so once, as a watch does."""
    root = copy_project(tmp_path)
    photos = root / "cards" / "tiki" / "photos"
    photos.mkdir()
    for number in range(watching_module.MAX_WATCHED_ENTRIES):
        (photos / f"{number}.jpg").touch()
    preview = DeckPreview(root / "cards" / "tiki" / "deck.yaml", watched_roots)
    preview.refresh()
    said: list[str] = []
    watcher = PreviewWatcher([preview], FaceImages(), Pages([preview]), said.append)
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    try:
        time.sleep(4 * WATCH_INTERVAL)  # several looks
    finally:
        watcher.stop()
        thread.join(TIMEOUT)
    assert said == [f"tiki: {watching_module.cut_short_line(photos)}"], said
