"""`deckpress watch` rebuilds on save, survives a broken edit and stops on Ctrl-C."""

import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pdfplumber

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


def start_watch(arguments: list[str], cwd: Path) -> subprocess.Popen:
    """``deckpress watch`` in a fresh process that Ctrl-C (SIGINT) stops as it would in a
    terminal, even when the test run itself was started in the background (which starts
    its children with SIGINT ignored)."""
    return subprocess.Popen([sys.executable, "-m", "generator", "watch", *arguments],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def page_text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as document:
        return document.pages[0].extract_text()


def test_watch_rebuilds_on_save_and_reports_broken_edits(tmp_path: Path):
    folder = create_deck(tmp_path / "cards", "space-race")
    out = tmp_path / "out"
    process = start_watch([str(folder), "--out", str(out), "--interval", "0.1"], cwd=tmp_path)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        wait_for(lines, "rebuilt in")
        assert "Knight" in page_text(out / "space-race.pdf")
        assert (out / "space-race-rules.pdf").is_file()

        deck_file = folder / "deck.yaml"
        deck_file.write_text(deck_file.read_text().replace("name: Knight", "name: Paladin"))
        seen = wait_for(lines, "rebuilt in")
        assert "changed: deck.yaml" in seen
        assert "Paladin" in page_text(out / "space-race.pdf")

        deck_file.write_text(deck_file.read_text().replace("count: 4, type: hero, name: Paladin",
                                                           "count: four, type: hero, name: Paladin"))
        seen = wait_for(lines, "build failed")
        errors = [line for line in seen if "deck.yaml" in line and "expected a whole number" in line]
        assert len(errors) == 1, seen  # reported once, not again by the booklet
        assert "Paladin" in page_text(out / "space-race.pdf")  # the last good PDF stays

        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=TIMEOUT) == 0
        wait_for(lines, "stopped")
    finally:
        if process.poll() is None:
            process.kill()


def test_watch_with_lang_rebuilds_the_translation(tmp_path: Path):
    import shutil
    project = Path(__file__).resolve().parent.parent
    shutil.copytree(project / "cards" / "tiki", tmp_path / "cards" / "tiki")
    shutil.copytree(project / "layouts", tmp_path / "layouts")
    out = tmp_path / "out"
    process = start_watch([str(tmp_path / "cards" / "tiki"), "--lang", "fr",
                            "--no-booklet", "--out", str(out), "--interval", "0.1"], cwd=tmp_path)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        wait_for(lines, "rebuilt in")
        assert sorted(path.name for path in out.iterdir()) == ["tiki.fr.json", "tiki.fr.pdf"]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=TIMEOUT) == 0
        wait_for(lines, "stopped")
    finally:
        if process.poll() is None:
            process.kill()


def test_ctrl_c_during_the_first_build_stops_cleanly(tmp_path: Path):
    deck = create_deck(tmp_path / "cards", "space-race")
    process = start_watch([str(deck), "--out", str(tmp_path / "out")], cwd=tmp_path)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        wait_for(lines, "watching")  # printed before the first build starts
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=TIMEOUT) == 0
        seen = wait_for(lines, "stopped")
        assert not any("Aborted" in line or "Traceback" in line for line in seen), seen
    finally:
        if process.poll() is None:
            process.kill()
