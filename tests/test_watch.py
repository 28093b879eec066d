"""`deckpress watch` rebuilds on save, survives a broken edit and stops on Ctrl-C."""

import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.scaffold import create_deck

TIMEOUT = 60  # seconds; generous for a busy CI machine, never reached when it works


def read_lines(stream, lines: "queue.Queue[str]") -> None:
    for line in stream:
        lines.put(line.rstrip("\n"))


def wait_for(lines: "queue.Queue[str]", wanted: str) -> list[str]:
    seen = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        if wanted in line:
            return seen
    raise AssertionError(f"no line with {wanted!r}; saw {seen}")


@contextmanager
def watching(arguments: list[str], cwd: Path) -> Iterator[tuple[subprocess.Popen, "queue.Queue[str]"]]:
    """``deckpress watch`` running in a fresh process, and the lines it prints as they come.

    Ctrl-C (SIGINT) stops it as it would in a terminal, even when the test run itself was
    started in the background (which starts its children with SIGINT ignored). A process
    still running at the end is killed.
    """
    process = subprocess.Popen([sys.executable, "-m", "generator", "watch", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()


def stop_with_ctrl_c(process: subprocess.Popen, lines: "queue.Queue[str]") -> list[str]:
    """Press Ctrl-C: watch ends with exit 0 and says it stopped; returns the lines up to that."""
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 0
    return wait_for(lines, "stopped")


def save(path: Path, text: str) -> None:
    """Save as an editor that writes a new file and renames it does: the watcher never sees the
    file half written (which it would report, then rebuild from the whole file a poll later)."""
    staged = path.with_name(path.name + ".saving")
    staged.write_text(text)
    staged.replace(path)


def page_text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as document:
        return document.pages[0].extract_text()


def test_watch_rebuilds_on_save_and_reports_broken_edits(tmp_path: Path):
    folder = create_deck(tmp_path / "cards", "space-race")
    out = tmp_path / "out"
    with watching([str(folder), "--out", str(out), "--interval", "0.1"], cwd=tmp_path) as (process, lines):
        wait_for(lines, "rebuilt in")
        assert "Knight" in page_text(out / "space-race.pdf")
        assert (out / "space-race-rules.pdf").is_file()

        deck_file = folder / "deck.yaml"
        save(deck_file, deck_file.read_text().replace("name: Knight", "name: Paladin"))
        seen = wait_for(lines, "rebuilt in")
        assert "changed: deck.yaml" in seen
        assert "Paladin" in page_text(out / "space-race.pdf")

        save(deck_file, deck_file.read_text().replace("count: 4, type: hero, name: Paladin",
                                                           "count: four, type: hero, name: Paladin"))
        seen = wait_for(lines, "build failed")
        errors = [line for line in seen if "deck.yaml" in line and "expected a whole number" in line]
        assert len(errors) == 1, seen  # reported once, not again by the booklet
        assert "Paladin" in page_text(out / "space-race.pdf")  # the last good PDF stays

        stop_with_ctrl_c(process, lines)


def test_watch_with_lang_rebuilds_the_translation(tmp_path: Path):
    import shutil
    project = Path(__file__).resolve().parent.parent
    shutil.copytree(project / "cards" / "tiki", tmp_path / "cards" / "tiki")
    shutil.copytree(project / "layouts", tmp_path / "layouts")
    out = tmp_path / "out"
    arguments = [str(tmp_path / "cards" / "tiki"), "--lang", "fr", "--no-booklet", "--out", str(out),
                 "--interval", "0.1"]
    with watching(arguments, cwd=tmp_path) as (process, lines):
        wait_for(lines, "rebuilt in")
        assert sorted(path.name for path in out.iterdir()) == ["tiki.fr.json", "tiki.fr.pdf"]
        stop_with_ctrl_c(process, lines)


def test_ctrl_c_during_the_first_build_stops_cleanly(tmp_path: Path):
    deck = create_deck(tmp_path / "cards", "space-race")
    with watching([str(deck), "--out", str(tmp_path / "out")], cwd=tmp_path) as (process, lines):
        wait_for(lines, "watching")  # printed before the first build starts
        seen = stop_with_ctrl_c(process, lines)
        assert not any("Aborted" in line or "Traceback" in line for line in seen), seen


@pytest.mark.parametrize("interval, message", [
    ("nan", "'nan' is not a number of seconds."),
    ("inf", "inf is not in the range 0.05<=x<=3600.0."),
    ("1e308", "1e+308 is not in the range 0.05<=x<=3600.0."),
    ("0.01", "0.01 is not in the range 0.05<=x<=3600.0."),
    ("soon", "'soon' is not a valid number."),
])
def test_an_interval_that_is_no_usable_number_of_seconds_is_a_usage_error(tmp_path: Path, interval, message):
    deck = create_deck(tmp_path / "cards", "pace")
    result = CliRunner().invoke(cli, ["watch", str(deck), "--interval", interval, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"Invalid value for '--interval': {message}" in result.output
    assert not (tmp_path / "out").exists()


def copy_tiki(root: Path) -> Path:
    """The bundled tiki deck with the project's layouts and fonts, in ``root``; its deck folder."""
    import shutil
    project = Path(__file__).resolve().parent.parent
    for folder in ("cards/tiki", "layouts", "fonts"):
        shutil.copytree(project / folder, root / folder)
    return root / "cards" / "tiki"


def test_a_watch_started_on_a_broken_deck_follows_its_layouts_once_it_is_mended(tmp_path: Path):
    deck = copy_tiki(tmp_path)
    deck_file, layout = deck / "deck.yaml", tmp_path / "layouts" / "tiki.yaml"
    written = deck_file.read_text()
    deck_file.write_text(written.replace("\ndeck:", "\ndeck: [", 1))
    arguments = [str(deck), "--out", str(tmp_path / "out"), "--no-booklet", "--interval", "0.1"]
    with watching(arguments, cwd=tmp_path) as (process, lines):
        start = wait_for(lines, "build failed")[0]
        assert start == f"watching {deck}, {tmp_path / 'layouts'}, {tmp_path / 'fonts'} (Ctrl-C stops)"
        save(deck_file, written)
        wait_for(lines, "rebuilt in")
        save(layout, layout.read_text().replace("size: 14", "size: 15", 1))
        seen = wait_for(lines, "rebuilt in")
        assert "changed: tiki.yaml" in seen
        stop_with_ctrl_c(process, lines)


def test_a_deck_folder_of_more_files_than_a_look_reads_is_said_once_and_its_deck_still_watched(tmp_path: Path):
    from generator.watching import MAX_WATCHED_ENTRIES

    folder = create_deck(tmp_path / "cards", "space-race")
    photos = folder / "photos" / "2019"
    photos.mkdir(parents=True)
    for number in range(MAX_WATCHED_ENTRIES):
        (photos / f"{number}.jpg").touch()
    out = tmp_path / "out"
    with watching([str(folder), "--out", str(out), "--no-booklet", "--interval", "0.1"], cwd=tmp_path) as (
            process, lines):
        notes = [line for line in wait_for(lines, "rebuilt in") if "note:" in line]
        assert notes == [(f"note: more than {MAX_WATCHED_ENTRIES:,} files and folders to watch: looking stops in "
                        f"{photos}, and a save past it goes unseen (move what the deck does not read out of "
                        "its folder)")]
        deck_file = folder / "deck.yaml"
        save(deck_file, deck_file.read_text().replace("name: Knight", "name: Paladin"))
        seen = wait_for(lines, "rebuilt in")
        assert "Paladin" in page_text(out / "space-race.pdf")
        seen += stop_with_ctrl_c(process, lines)
        assert not any("note:" in line for line in seen), seen  # said once, not at every look
