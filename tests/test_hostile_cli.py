"""Code, outputs and signals: a deck folder runs no code, outputs appear whole or not at all,
special files are never overwritten, and a stopped command leaves no temporaries."""

from __future__ import annotations

import errno
import io
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_support import deckpress, new_deck, refused, within
from test_stats_simulation import PLUGIN_DECK

import generator.outputs as outputs
from generator.outputs import STALE_TEMPORARY_AGE, write_bytes_atomic

REPO = Path(__file__).resolve().parent.parent
DECKPRESS = Path(sys.executable).with_name("deckpress")
GOBLINS = REPO / "cards" / "goblins"


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


# -- no code from the deck folder ---------------------------------------------------------

PLANTED = ("reportlab_settings.py", "yaml.py", "click.py", "jinja2.py", "PIL.py", "markdown_it.py",
           "pypdfium2.py", "openpyxl.py", "pypdf.py")
"""Modules a command imports as it runs (reportlab reads ``reportlab_settings`` if it finds one)."""


@pytest.mark.parametrize("launcher, command", [
    ("python -m generator", "build"),     # loads every library check does
    ("deckpress", "build"),
    ("python -m generator", "booklet"),   # markdown-it
    ("python -m generator", "export"),    # pypdfium2
])
def test_modules_planted_in_the_working_directory_never_run(tmp_path, launcher, command):
    deck = new_deck(tmp_path)
    marker = tmp_path / "code-ran"
    for name in PLANTED:
        (deck / name).write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    program = [sys.executable, "-m", "generator"] if launcher.startswith("python") else [str(DECKPRESS)]
    out = tmp_path / "out"
    arguments = [command, ".", "--png" if command == "export" else "--out", str(out), "--quiet"]
    finished = subprocess.run(program + arguments, cwd=deck, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert not marker.exists(), f"{marker.read_text()} ran"
    assert any(out.iterdir())


# -- special files are not outputs --------------------------------------------------------

def test_import_never_writes_over_a_device_even_with_force(tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,count\nKnight,2\n")
    with within():
        run = deckpress("import", sheet, "--out", "/dev/null", "--force")
    refused(run, (2,), "/dev/null", "is a device, not a file")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("kind", ["named pipe", "folder"])
def test_import_never_writes_over_a_pipe_or_a_folder(tmp_path, kind):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,count\nKnight,2\n")
    target = tmp_path / "deck.yaml"
    os.mkfifo(target) if kind == "named pipe" else target.mkdir()
    with within():
        run = deckpress("import", sheet, "--out", target, "--force")
    refused(run, (2,), str(target), f"is a {kind}, not a file")
    assert target.is_fifo() if kind == "named pipe" else target.is_dir()


def test_an_output_that_is_a_link_is_replaced_not_followed(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me")
    link = tmp_path / "out.txt"
    link.symlink_to(elsewhere)
    write_bytes_atomic(link, b"new")
    assert elsewhere.read_text() == "keep me" and not link.is_symlink() and link.read_text() == "new"


# -- several outputs: together or not at all ----------------------------------------------

def full_disk_on_file(monkeypatch, number: int) -> None:
    """The disk fills up while the ``number``-th file of a command reaches it: that fsync
    fails as a full disk does, with no file name in the error."""
    calls = []
    real = os.fsync

    def fsync(descriptor):
        calls.append(descriptor)
        if len(calls) == number:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)


def test_a_full_disk_leaves_neither_booklet_pdf(tmp_path, monkeypatch):
    deck = new_deck(tmp_path)
    out = tmp_path / "out"
    full_disk_on_file(monkeypatch, 2)
    run = deckpress("booklet", deck, "--out", out, "--quiet")
    assert refused(run, (2,), "No space left on device") == \
        f"error: {out / 'demo-rules-booklet.pdf'}: No space left on device"
    assert not out.exists()  # the folder it made for them goes too


def test_a_full_disk_keeps_the_previous_booklet_whole(tmp_path, monkeypatch):
    deck = new_deck(tmp_path)
    out = tmp_path / "out"
    assert deckpress("booklet", deck, "--out", out, "--quiet").exit_code == 0
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    (deck / "rules.md").write_text("# Changed\n\nNew rules.\n")
    full_disk_on_file(monkeypatch, 2)
    refused(deckpress("booklet", deck, "--out", out, "--quiet"), (2,), str(out), "No space left on device")
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before


def test_a_full_disk_leaves_neither_report_file(tmp_path, monkeypatch):
    full_disk_on_file(monkeypatch, 2)
    run = deckpress("stats", GOBLINS, "--quiet", "--report", tmp_path / "report.pdf")
    refused(run, (2,), f"{tmp_path / 'report.png'}: No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_leaves_neither_build_file(tmp_path, monkeypatch):
    deck = new_deck(tmp_path)
    out = tmp_path / "out" / "sheets"
    full_disk_on_file(monkeypatch, 1)
    refused(deckpress("build", deck, "--out", out, "--quiet"), (2,), f"{out / 'demo.pdf'}: No space left on device")
    assert list(tmp_path.iterdir()) == [tmp_path / "cards"]  # neither out/ nor out/sheets/ is left


@pytest.mark.parametrize("kind", ["--png", "--tts"])
def test_a_full_disk_leaves_no_export_file(tmp_path, monkeypatch, kind):
    deck, out = new_deck(tmp_path), tmp_path / "export"
    full_disk_on_file(monkeypatch, 3)
    with within(120):
        error = refused(deckpress("export", deck, kind, out, "--quiet", "--jobs", "1"), (2,),
                        "No space left on device")
    assert error.startswith(f"error: {out}{os.sep}") and ".tmp" not in error
    assert not out.exists()


class FullDisk(io.FileIO):
    """A file on a disk with no room left: every write fails, without naming the file."""

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_write_to_a_full_disk_names_the_file_and_leaves_nothing(tmp_path, monkeypatch):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,count\nKnight,2\n")
    target = tmp_path / "new" / "deck.yaml"
    monkeypatch.setattr(outputs, "open", lambda path, mode: FullDisk(path, mode), raising=False)
    run = deckpress("import", sheet, "--out", target)
    assert refused(run, (2,), "No space") == f"error: {target}: No space left on device"
    assert not target.parent.exists()


def test_an_output_folder_that_refuses_files_names_the_output_not_a_temporary(tmp_path, monkeypatch):
    deck, out = new_deck(tmp_path), tmp_path / "out"

    def refuse(prefix, suffix, dir):
        raise PermissionError(errno.EACCES, "Permission denied", os.path.join(dir, f"{prefix}k2j3h4g5{suffix}"))

    monkeypatch.setattr(outputs.tempfile, "mkstemp", refuse)
    run = deckpress("booklet", deck, "--out", out, "--quiet")
    assert refused(run, (2,), "Permission denied") == f"error: {out / 'demo-rules.pdf'}: Permission denied"
    assert not out.exists()


# -- stopped commands clean up, and the next run removes what a killed one left -----------

def slow_deck(root: Path) -> Path:
    """A deck whose build and export take long enough to be stopped halfway."""
    deck = new_deck(root)
    text = (deck / "deck.yaml").read_text().split("\nrules:")[0]
    (deck / "deck.yaml").write_text(re.sub(r"count: \d+", "count: 3000", text))
    return deck


def many_faces_deck(root: Path) -> Path:
    """A deck of 600 different cards: an export rasterises each face, so it runs for seconds
    however fast the machine (copies of a few faces would be drawn once and be done)."""
    deck = new_deck(root)
    text = (deck / "deck.yaml").read_text().split("\ncards:")[0]
    cards = "".join(f"  - {{id: knight-{number}, count: 1, type: hero, name: Knight {number}, power: 3}}\n"
                    for number in range(600))
    (deck / "deck.yaml").write_text(text + "\ncards:\n" + cards)
    return deck


def stop_when_temporaries_appear(command: list[str], out: Path, number: int,
                                 whole_group: bool = False) -> subprocess.CompletedProcess:
    """Run deckpress and send it signal ``number`` once its temporaries appear in ``out``: to the
    command alone, or (``whole_group``) to every process it started, as Ctrl-C in a terminal does."""
    process = subprocess.Popen([str(DECKPRESS), *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=whole_group)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and any(name.endswith(".tmp") for name in os.listdir(out)):
            break
        time.sleep(0.05)
    assert process.poll() is None, "the command finished before it could be stopped"
    if whole_group:
        os.killpg(process.pid, number)
    else:
        process.send_signal(number)
    try:
        stdout, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        if whole_group:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        raise AssertionError("the command did not stop") from None
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_build_stopped_by_a_signal_leaves_no_temporary_files(tmp_path, number):
    if signal.getsignal(number) == signal.SIG_IGN:  # under nohup: deckpress then ignores it too, as it should
        pytest.skip(f"{signal.Signals(number).name} is ignored by the process running the tests")
    deck, out = slow_deck(tmp_path), tmp_path / "out"
    stopped = stop_when_temporaries_appear(["build", str(deck), "--out", str(out), "--quiet"], out, number)
    # As a shell reports a stopped program (130 for Ctrl-C), never 1, which says the deck broke a rule.
    assert stopped.returncode == 128 + number
    assert stopped.stderr.strip() == "Aborted!"
    assert not out.exists()  # the folder it made for the sheets goes with their temporaries


def test_an_export_stopped_by_a_signal_leaves_no_staging_folder(tmp_path):
    deck, out = many_faces_deck(tmp_path), tmp_path / "png"
    stopped = stop_when_temporaries_appear(["export", str(deck), "--png", str(out), "--quiet"], out,
                                           signal.SIGTERM)
    assert stopped.returncode == 128 + signal.SIGTERM and "Traceback" not in stopped.stderr
    assert not out.exists() or leftovers(out) == []


def test_ctrl_c_in_the_terminal_stops_an_export_and_its_workers_cleanly(tmp_path):
    """Ctrl-C reaches every process of the command's group, the workers too: they leave stopping
    to the export, which ends with 130, no traceback from any of them, no files."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        pytest.skip("SIGINT is ignored by the process running the tests")
    deck, out = many_faces_deck(tmp_path), tmp_path / "png"
    stopped = stop_when_temporaries_appear(["export", str(deck), "--png", str(out), "--quiet", "--jobs", "2"], out,
                                           signal.SIGINT, whole_group=True)
    assert stopped.returncode == 130, stopped.stderr
    assert stopped.stderr.strip() == "Aborted!"
    assert not out.exists() or leftovers(out) == []


def dead_process_id() -> int:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True)
    return int(finished.stdout)


def test_the_next_run_removes_temporaries_left_by_a_killed_one(tmp_path):
    deck, out = new_deck(tmp_path), tmp_path / "out"
    out.mkdir()
    dead, alive = dead_process_id(), os.getpid()
    old = time.time() - STALE_TEMPORARY_AGE - 60
    left = {
        f".demo.pdf.{dead}-a1b2c3d4.tmp": True,                  # its process is gone
        f".demo.json.{dead}-zz99.tmp": True,
        ".demo.pdf.k2j3h4g5.tmp": True,                         # an older deckpress's, hours old
        f".demo.pdf.{alive}-inuse.tmp": False,                   # a run still writing it
        "notes.tmp": False,                                      # not a name we make
        ".demo.pdf.my-backup.tmp": False,
    }
    for name in left:
        (out / name).write_text("left over")
        os.utime(out / name, (old, old))
    (out / ".demo-png-recent.tmp").mkdir()                      # not old enough to be taken
    assert deckpress("build", deck, "--out", out, "--quiet").exit_code == 0
    remaining = set(leftovers(out))
    assert remaining == {name for name, stale in left.items() if not stale} | {".demo-png-recent.tmp"}


def test_an_export_removes_staging_folders_of_killed_runs(tmp_path):
    deck, out = new_deck(tmp_path), tmp_path / "png"
    out.mkdir()
    staging = out / f".demo-png-{dead_process_id()}-abcd1234.tmp"
    staging.mkdir()
    (staging / "knight-front.png").write_bytes(b"half a picture")
    with within(120):
        assert deckpress("export", deck, "--png", out, "--quiet").exit_code == 0
    assert not staging.exists() and leftovers(out) == []


# -- a game plugin cannot end the command with success --------------------------------------

PLUGIN = """\
import sys
from generator.stats.simulation import Outcome
POLICIES = {"flip": "flip a coin"}
LOAD
def prepare(deck, options):
    PREPARE
    return deck.total
def play(prepared, rng, policy):
    PLAY
    return Outcome(won=True, turns=1)
"""


@pytest.mark.parametrize("where, code, message", [
    ("PLAY", "sys.exit(0)", "game 0 (seed 4) failed: the plugin called exit(0)"),
    ("PLAY", "raise SystemExit(3)", "the plugin called exit(3)"),
    ("PREPARE", "sys.exit()", "plugin failed to prepare the deck: the plugin called exit(None)"),
    ("LOAD", "sys.exit(0)", "plugin failed to load: the plugin called exit(0)"),
    ("PLAY", "return Outcome(won=True, turns=10 ** 9)", "Outcome.turns must be a whole number from 0 to"),
    ("PLAY", "return Outcome(won='yes', turns=1)", "Outcome.won must be True or False"),
    ("PLAY", "return Outcome(won=True, turns=1, ending='x' * 10 ** 6)", "Outcome.ending must be a short text"),
])
def test_a_plugin_that_exits_or_misreports_is_an_error(tmp_path, where, code, message):
    (tmp_path / "deck.yaml").write_text(PLUGIN_DECK)
    source = PLUGIN
    for marker in ("LOAD", "PREPARE", "PLAY"):
        source = source.replace(marker, code if marker == where else "pass")
    (tmp_path / "coin.py").write_text(source)
    with within():
        run = deckpress("stats", tmp_path, "--simulate", "--quiet")
    refused(run, (2,), message, "coin.py")


def test_a_reader_that_quits_early_ends_the_command_as_sigpipe_would_with_nothing_said(tmp_path):
    """``deckpress check | head -1``: once the reader is gone, the command stops quietly with the
    status a shell shows for a program SIGPIPE stopped, never 2, which says a file is malformed."""
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line is written
    try:
        done = subprocess.run([sys.executable, "-m", "generator", "check", str(Path(__file__).parent.parent / "cards")],
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (128 + signal.SIGPIPE, "")
