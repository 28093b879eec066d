"""The polling watcher behind `deckpress watch` sees edits, additions and removals."""

import os
from pathlib import Path

from generator.watching import Watcher, changed_files, snapshot


def touch(path: Path, text: str, bump: int) -> None:
    path.write_text(text)
    stamp = 1_700_000_000_000_000_000 + bump * 1_000_000_000
    os.utime(path, ns=(stamp, stamp))


def test_changes_are_edits_additions_and_removals(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    rules = tmp_path / "rules.md"
    touch(deck, "a", 0)
    touch(rules, "r", 0)
    before = snapshot([tmp_path])
    touch(deck, "b", 1)
    rules.unlink()
    touch(tmp_path / "art.png", "png", 0)
    assert changed_files(before, snapshot([tmp_path])) == [tmp_path / "art.png", deck, rules]


def test_editor_temporaries_and_build_output_are_ignored(tmp_path: Path):
    before = snapshot([tmp_path])
    touch(tmp_path / ".deck.yaml.swp", "x", 0)
    (tmp_path / "build").mkdir()
    touch(tmp_path / "build" / "deck.pdf", "%PDF", 0)
    assert changed_files(before, snapshot([tmp_path])) == []


def test_watcher_calls_back_once_per_change(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "a", 0)
    edits = iter([lambda: touch(deck, "b", 1), lambda: None, lambda: touch(deck, "c", 2)])
    calls: list[list[Path]] = []
    ticks = []

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        next(edits)()

    watcher = Watcher([tmp_path], calls.append, interval=0.25, sleep=fake_sleep)
    watcher.run(keep_going=lambda: len(ticks) < 3)
    assert calls == [[deck], [deck]]
    assert ticks == [0.25, 0.25, 0.25]
