"""The polling watcher behind `deckpress watch` sees edits, additions and removals."""

import os
from pathlib import Path

from generator.watching import MAX_SETTLE_LOOKS, MAX_WATCHED_ENTRIES, Watcher, changed_files, look


def touch(path: Path, text: str, bump: int) -> None:
    path.write_text(text)
    stamp = 1_700_000_000_000_000_000 + bump * 1_000_000_000
    os.utime(path, ns=(stamp, stamp))


def test_changes_are_edits_additions_and_removals(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    rules = tmp_path / "rules.md"
    touch(deck, "a", 0)
    touch(rules, "r", 0)
    before = look([tmp_path]).files
    touch(deck, "b", 1)
    rules.unlink()
    touch(tmp_path / "art.png", "png", 0)
    assert changed_files(before, look([tmp_path]).files) == [tmp_path / "art.png", deck, rules]


def test_editor_temporaries_and_build_output_are_ignored(tmp_path: Path):
    before = look([tmp_path]).files
    touch(tmp_path / ".deck.yaml.swp", "x", 0)
    (tmp_path / "build").mkdir()
    touch(tmp_path / "build" / "deck.pdf", "%PDF", 0)
    assert changed_files(before, look([tmp_path]).files) == []


def test_watcher_calls_back_once_per_change(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "a", 0)
    edits = iter([lambda: touch(deck, "b", 1), lambda: None, lambda: touch(deck, "c", 2)])
    calls: list[list[Path]] = []
    ticks = []

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        if seconds == 0.25:  # the looks between settles; a settle look finds the files as they were
            next(edits)()

    watcher = Watcher(lambda: [tmp_path], calls.append, interval=0.25, sleep=fake_sleep, settle=0.01)
    watcher.run(keep_going=lambda: ticks.count(0.25) < 3)
    assert calls == [[deck], [deck]]
    assert ticks == [0.25, 0.01, 0.25, 0.25, 0.01]  # one settle look after each change


def test_a_file_caught_half_written_is_rebuilt_from_once_it_is_whole(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "deck: {id: demo}\ncards: []\n", 0)
    whole = "deck: {id: demo, name: Demo}\ncards: [{id: knight}]\n"
    writes = iter([lambda: touch(deck, whole[:10], 1),  # the editor has emptied it and written a part
                   lambda: touch(deck, whole, 1)])      # ... and the rest, a moment later
    seen: list[str] = []
    ticks = []

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        next(writes, lambda: None)()

    Watcher(lambda: [tmp_path], lambda changes: seen.append(deck.read_text()), interval=0.25, sleep=fake_sleep,
            settle=0.01).run(keep_going=lambda: ticks.count(0.25) < 2)
    assert seen == [whole]
    assert ticks == [0.25, 0.01, 0.01, 0.25]


def test_a_file_that_never_stops_changing_is_rebuilt_from_after_the_last_settle_look(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "a", 0)
    calls: list[list[Path]] = []
    ticks = []

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        touch(deck, "x" * len(ticks), len(ticks))  # a log, say, written all the time

    Watcher(lambda: [tmp_path], calls.append, interval=0.25, sleep=fake_sleep, settle=0.01).run(
        keep_going=lambda: not calls)
    assert calls == [[deck]]
    assert ticks == [0.25] + [0.01] * MAX_SETTLE_LOOKS


def test_a_save_made_during_a_rebuild_is_seen_at_the_next_look(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "a", 0)
    calls: list[list[Path]] = []
    ticks = []

    def rebuild(changes: list[Path]) -> None:
        calls.append(changes)
        if len(calls) == 1:
            touch(deck, "saved while rebuilding", 2)  # the designer saves again mid-rebuild

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        if len(ticks) == 1:
            touch(deck, "b", 1)

    Watcher(lambda: [tmp_path], rebuild, interval=0.25, sleep=fake_sleep).run(keep_going=lambda: len(ticks) < 3)
    assert calls == [[deck], [deck]]


def test_output_written_inside_a_watched_folder_does_not_trigger_a_rebuild(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    out = tmp_path / "prints"
    touch(deck, "a", 0)
    calls: list[list[Path]] = []
    ticks = []

    def rebuild(changes: list[Path]) -> None:
        calls.append(changes)
        out.mkdir(exist_ok=True)
        touch(out / "deck.pdf", f"%PDF {len(calls)}", len(calls))

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        if len(ticks) == 1:
            touch(deck, "b", 1)

    Watcher(lambda: [tmp_path], rebuild, interval=0.25, sleep=fake_sleep, skipped=(out,)).run(
        keep_going=lambda: len(ticks) < 4)
    assert calls == [[deck]]


def test_hidden_folders_are_not_looked_into(tmp_path: Path):
    cache = tmp_path / ".cache" / "d1"
    cache.mkdir(parents=True)
    touch(cache / "f1.txt", "a", 0)
    before = look([tmp_path]).files
    touch(cache / "f1.txt", "b", 1)
    touch(cache / "f2.txt", "c", 0)
    assert changed_files(before, look([tmp_path]).files) == []


def test_a_look_stops_at_its_limit_nearest_the_top_and_says_so_once(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "a", 0)
    photos = tmp_path / "art" / "photos"
    photos.mkdir(parents=True)
    for number in range(MAX_WATCHED_ENTRIES):
        touch(photos / f"{number:05}.jpg", "jpg", 0)
    calls: list[list[Path]] = []
    said: list[str] = []
    ticks = []

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        if len(ticks) == 2:
            touch(deck, "b", 1)

    Watcher(lambda: [tmp_path], calls.append, interval=0.25, sleep=fake_sleep, settle=0.01,
            report=said.append).run(keep_going=lambda: ticks.count(0.25) < 4)
    assert calls == [[deck]]  # the deck beside the photos is watched
    assert said == [f"note: more than {MAX_WATCHED_ENTRIES:,} files and folders to watch: looking stops in "
                    f"{photos}, and a save past it goes unseen (move what the deck does not read out of its folder)"]
    assert len(look([tmp_path]).files) == MAX_WATCHED_ENTRIES - 2  # the limit counts the folders listed


def test_a_folder_that_comes_under_watch_brings_its_files_as_changes(tmp_path: Path):
    deck_folder, fonts = tmp_path / "deck", tmp_path / "fonts"
    deck_folder.mkdir()
    touch(deck_folder / "deck.yaml", "a", 0)
    calls: list[list[Path]] = []
    ticks = []

    def fake_sleep(seconds: float) -> None:
        ticks.append(seconds)
        if len(ticks) == 1:
            fonts.mkdir()
            touch(fonts / "Title.ttf", "ttf", 0)

    Watcher(lambda: [deck_folder] + ([fonts] if fonts.is_dir() else []), calls.append, interval=0.25,
            sleep=fake_sleep, settle=0.01).run(keep_going=lambda: ticks.count(0.25) < 3)
    assert calls == [[fonts / "Title.ttf"]]


def test_a_save_made_during_the_first_build_is_seen_at_the_first_look(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    touch(deck, "a", 0)
    calls: list[list[Path]] = []

    def rebuild(changes: list[Path]) -> None:
        calls.append(changes)
        if len(calls) == 1:
            touch(deck, "saved while the first build ran", 1)

    ticks = []
    Watcher(lambda: [tmp_path], rebuild, interval=0.25, sleep=ticks.append, settle=0.01).run(
        keep_going=lambda: len(ticks) < 2, first=[deck])
    assert calls == [[deck], [deck]]
