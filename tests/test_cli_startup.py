"""What starting ``deckpress`` costs: each command loads only the libraries it uses.

Every command pays for what it imports before it does any work, so ``check``
must not load the PDF and booklet libraries that only ``booklet`` needs. Each
run here is a fresh process (an import, once made, stays made), and reports
which of the heavy libraries it loaded.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import CARDS, REPO, deckpress

from generator.cli import COMMANDS, cli, load_command

HEAVY = ("reportlab.platypus", "pypdf", "markdown_it", "pypdfium2", "openpyxl", "numpy", "colorspacious",
         "starlette", "uvicorn")
"""Libraries that take a noticeable share of a second to import, each needed by few commands."""

PROBE = """
import sys
from generator.cli import main
sys.argv = ["deckpress", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
loaded = [name for name in sys.modules
          if name.startswith(("reportlab", "generator.cli.", "generator.deck.", "generator.iterations.",
                              "generator.stats", "generator.booklet"))
          or name in {heavy!r}]
print("LOADED", " ".join(sorted(loaded)), file=sys.stderr)
"""


@functools.cache
def loaded_modules(*args: str | Path, cwd: Path = REPO) -> frozenset[str]:
    """The modules of interest a fresh ``deckpress ARGS`` imported (asked once for each command
    line: a fresh process imports the same every time)."""
    finished = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *map(str, args)],
                              cwd=cwd, capture_output=True, text=True, timeout=120)
    report = [line for line in finished.stderr.splitlines() if line.startswith("LOADED")]
    assert report, finished.stderr
    return frozenset(report[-1].split()[1:])


def test_help_lists_every_command_in_order_with_its_summary():
    result = deckpress("--help")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == [entry.name for entry in COMMANDS]
    for entry in COMMANDS:
        first_words = " ".join(entry.summary.split()[:3])
        assert f"{entry.name} " in result.stdout and first_words in result.stdout


@pytest.mark.parametrize("entry", COMMANDS, ids=lambda entry: entry.name)
def test_the_command_table_says_what_each_command_says_of_itself(entry):
    """``deckpress --help`` shows the table's summary; it must be the command's own first sentence."""
    command = load_command(entry)
    assert entry.summary == command.get_short_help_str(limit=1000), \
        f"update the '{entry.name}' row of COMMANDS in generator/cli/__init__.py"
    assert cli.get_command(None, entry.name) is command


def test_loading_a_command_leaves_the_garbage_collector_as_it_found_it():
    import gc

    entry = next(entry for entry in COMMANDS if entry.name == "check")
    assert gc.isenabled()
    load_command(entry)
    assert gc.isenabled()
    gc.disable()
    try:
        load_command(entry)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("name, thresholds", [("check", "100000 10 1000"), ("build", "100000 10 1000"),
                                              ("watch", "700 10 10"), ("serve", "700 10 10")])
def test_only_commands_that_end_collect_rarely(name, thresholds):
    """A build keeps what it makes to its end; watch and serve let each save's work go."""
    probe = ("import gc; from generator.cli import COMMANDS, load_command; "
             f"load_command(next(entry for entry in COMMANDS if entry.name == {name!r})); "
             "print(*gc.get_threshold())")
    finished = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert finished.stdout.strip() == thresholds, finished.stderr


def test_help_imports_no_command_and_no_drawing_library():
    loaded = loaded_modules("--help")
    assert not {name for name in loaded if name.startswith(("generator.cli.", "reportlab"))} - \
        {"generator.cli.__init__"}, loaded
    assert not loaded & set(HEAVY)


def test_a_command_imports_its_own_module_only():
    loaded = loaded_modules("schema")
    assert {name for name in loaded if name.startswith("generator.cli.")} == {"generator.cli.schema"}


@pytest.mark.parametrize("command, allowed", [
    (["check", CARDS / "cereal-killer"], set()),
    (["build", CARDS / "cereal-killer", "--quiet", "--out", "{tmp}"], set()),
    (["export", CARDS / "cereal-killer", "--quiet", "--tts", "{tmp}"], {"pypdfium2"}),
], ids=["check", "build", "export"])
def test_commands_leave_the_heavy_libraries_they_do_not_use_unloaded(tmp_path, command, allowed):
    arguments = [str(part).format(tmp=tmp_path) for part in command]
    loaded = loaded_modules(*arguments)
    assert loaded & set(HEAVY) == allowed


SERVING_PROBE = """
import sys
import generator.serve.server
from generator.cli import main

def loaded_once_serving(server, sockets=None):  # stands in for listening: the decks are loaded
    print("LOADED", " ".join(sorted(sys.modules)), file=sys.stderr)

generator.serve.server._Server.run = loaded_once_serving
sys.argv = ["deckpress", "serve", *sys.argv[1:], "--port", "0", "--quiet"]
main()
"""


@pytest.mark.parametrize("since, comparison", [((), False), (("--since", "HEAD"), True)], ids=["plain", "since"])
def test_serve_loads_the_comparison_of_iterations_only_for_since(since, comparison):
    """Only ``serve --since`` compares a deck with its past: the preview of a deck alone gets as
    far as serving without loading the comparison."""
    finished = subprocess.run([sys.executable, "-c", SERVING_PROBE, str(CARDS / "cereal-killer"), *since],
                              cwd=REPO, capture_output=True, text=True, timeout=120)
    report = [line for line in finished.stderr.splitlines() if line.startswith("LOADED")]
    assert report, finished.stderr
    loaded = set(report[-1].split()[1:])
    assert "generator.serve.preview" in loaded
    assert bool(loaded & {"generator.iterations.comparison", "generator.iterations.following"}) is comparison


def test_check_loads_the_statistics_and_the_booklet_only_for_a_deck_that_has_them(tmp_path):
    """A deck of cards alone (no stats: section, no rules file) is checked without either."""
    deck = tmp_path / "cards" / "plain"
    deck.mkdir(parents=True)
    (deck / "deck.yaml").write_text("deck: {name: Plain}\ncards:\n  - {id: a, name: A, count: 2}\n")
    assert deckpress("check", deck).exit_code == 0
    plain = loaded_modules("check", deck)
    assert not {name for name in plain if name.startswith(("generator.stats", "generator.booklet"))}, sorted(plain)
    full = loaded_modules("check", CARDS / "cereal-killer")
    assert {"generator.stats.spec", "generator.booklet.blocks"} <= full, sorted(full)


def test_check_measures_faces_without_loading_the_pdf_canvas():
    """check lays out every face and weighs colours, but draws nothing."""
    loaded = loaded_modules("check", CARDS / "cereal-killer")
    assert "generator.cli.check" in loaded
    assert "reportlab.pdfgen.canvas" not in loaded, sorted(loaded)


def test_check_reads_only_the_fonts_the_cards_print_in():
    """Measuring the rules booklet's page takes sizes from its style file alone: check loads
    no booklet font the cards do not use (each font file is parsed whole when loaded)."""
    probe = PROBE.split("loaded = ")[0] + (
        "from reportlab.pdfbase import pdfmetrics\n"
        "print('FONTS', ' '.join(sorted(pdfmetrics.getRegisteredFontNames())), file=sys.stderr)\n")
    finished = subprocess.run([sys.executable, "-c", probe, "check", str(CARDS / "cereal-killer")],
                              cwd=REPO, capture_output=True, text=True, timeout=120)
    fonts = [line.split()[1:] for line in finished.stderr.splitlines() if line.startswith("FONTS")][-1]
    assert {"Vera", "Vera-Bold", "Vera-Italic"} <= set(fonts), fonts  # the cards' own
    assert "Vera-BoldItalic" not in fonts, fonts  # the booklet's, which check does not print


def test_the_last_collection_at_exit_leaves_what_the_command_made_alone():
    """Everything alive when a command ends is frozen, so Python's collection as it exits
    does not walk it all once more."""
    probe = ("import atexit, gc, sys; sys.argv = ['deckpress', '--version']; "
             "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 1000)); "
             "from generator.cli import main; main()")
    finished = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert finished.stdout.splitlines()[-1] == "frozen True", finished.stdout + finished.stderr


def test_check_help_promises_no_file_and_calibrate_names_its_own_cut_file():
    """check writes no files, so its options say what they check, not what build would write;
    calibrate's cut file goes beside its sheet, not into a deck's OUT folder."""
    check_help = " ".join(deckpress("check", "--help").stdout.split())
    assert "It writes no files." in check_help
    assert "Write what" not in check_help and "files written" not in check_help and "OUT/" not in check_help
    assert "--for SHOP Also hold the deck to a print shop's rules, as build --for SHOP does" in check_help
    calibrate_help = " ".join(deckpress("calibrate", "--help").stdout.split())
    assert "the cut file written beside the sheet (<sheet>.cut.svg or .cut.dxf)" in calibrate_help
    assert "OUT/<deck>.cut.svg" not in calibrate_help
    build_help = " ".join(deckpress("build", "--help").stdout.split())
    assert "files written are named <deck>.CODE.pdf" in build_help and "OUT/<deck>.cut.svg" in build_help
