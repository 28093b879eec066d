"""``deckpress build`` as a user runs it: outputs, exit codes, error lines, nothing half-written."""

import importlib
import json

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from sheets_support import FrameRenderer, write_deck

from generator.cli import cli
from generator.sheets.style import MM

RULES = """rules:
  - total: {exact: 3}
    message: a game needs three cards
"""


@pytest.fixture(autouse=True)
def frame_renderer(monkeypatch):
    """Cards are drawn by the small test renderer."""
    command_module = importlib.import_module("generator.cli.build")  # the package exports the command
    monkeypatch.setattr(command_module, "load_renderer", lambda deck, **options: FrameRenderer(deck))


def run(*args):
    return CliRunner().invoke(cli, ["build", *map(str, args)])


def deck(tmp_path, name="alpha", counts=(1, 2), rules=RULES, titles=None):
    titles = titles or [f"Card {n}" for n in range(1, len(counts) + 1)]
    cards = [{"name": title, "count": count} for title, count in zip(titles, counts, strict=True)]
    return write_deck(tmp_path / "cards" / name, cards, rules=rules).parent


def test_build_writes_a_pdf_and_manifest_per_deck(tmp_path):
    out = tmp_path / "out"
    result = run(deck(tmp_path, "alpha"), deck(tmp_path, "beta"), "--out", out, "--paper", "letter",
                 "--duplex", "short", "--back-offset", "0.5,-1")
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in out.iterdir()) == ["alpha.short.json", "alpha.short.pdf",
                                                           "beta.short.json", "beta.short.pdf"]
    manifest = json.loads((out / "alpha.short.json").read_text())
    assert manifest["duplex"] == "short" and manifest["paper"]["name"] == "letter"
    assert manifest["back_offset_mm"] == [0.5, -1.0]
    assert manifest["back_offset"] == [round(0.5 * MM, 3), round(-1 * MM, 3)]
    assert len(PdfReader(out / "alpha.short.pdf").pages) == 2
    assert f"wrote {out / 'alpha.short.pdf'} (2 pages, 3 cards)" in result.output


def test_a_deck_that_breaks_its_rules_stops_the_build_and_writes_nothing(tmp_path):
    good, bad = deck(tmp_path, "good"), deck(tmp_path, "bad", counts=(1, 1))
    out = tmp_path / "out"
    result = run(good, bad, "--out", out)
    assert result.exit_code == 1
    [line] = [line for line in result.output.splitlines() if "bad" in line]
    assert line.startswith(f"error: {bad / 'deck.yaml'}:")
    assert line.endswith("total (a game needs three cards): expected exactly 3 cards, found 2")
    assert not out.exists()


def test_no_check_skips_the_rules_but_not_the_layout(tmp_path):
    out = tmp_path / "out"
    assert run(deck(tmp_path, "bad", counts=(1, 1)), "--out", out, "--no-check").exit_code == 0
    assert (out / "bad.pdf").exists()
    long_title = "A title far too long to fit on any playing card at all"
    result = run(deck(tmp_path, "wordy", counts=(3,), titles=[long_title]), "--out", out, "--no-check")
    assert result.exit_code == 1
    assert not (out / "wordy.pdf").exists()


def test_text_that_cannot_fit_is_one_line_naming_deck_card_and_element(tmp_path):
    long_title = "A title far too long to fit on any playing card at all"
    folder = deck(tmp_path, "wordy", counts=(1, 2), titles=["Fine", long_title])
    out = tmp_path / "out"
    result = run(folder, "--out", out)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {folder / 'deck.yaml'}:")
    assert "deck 'wordy', card 'c2'" in lines[0] and lines[0].endswith("(title)")
    assert not out.exists()


def test_a_paper_too_small_for_one_card_is_a_usage_error_reported_once(tmp_path):
    result = run(deck(tmp_path, "alpha"), deck(tmp_path, "beta"), "--out", tmp_path / "out",
                 "--paper", "60x80")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: a 63.0 x 88.0 mm card does not fit on 60x80 portrait with 5 mm margins; "
        "choose a larger paper or a smaller margin"]
    assert not (tmp_path / "out").exists()


def test_a_card_that_fits_only_without_its_bleed_says_so(tmp_path):
    result = run(deck(tmp_path, "alpha"), "--out", tmp_path / "out", "--paper", "75x100", "--bleed")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: a 63.0 x 88.0 mm card with 3 mm of bleed around it does not fit on 75x100 portrait with "
        "5 mm margins; choose a larger paper or a smaller margin, or print without --bleed"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("options, message", [
    (["--paper", "a9"], "unknown paper 'a9'"),
    (["--back-offset", "1mm"], "expected two numbers in millimetres"),
    (["--duplex", "twice"], "'twice' is not one of"),
    (["--margin", "nan"], "Invalid value for '--margin': expected a length in millimetres from 0"),
    (["--margin", "-60"], "Invalid value for '--margin': expected a length"),
    (["--margin", "1e308"], "Invalid value for '--margin': expected a length"),
    (["--gutter", "inf"], "Invalid value for '--gutter': expected a length"),
    (["--gutter", "-5"], "Invalid value for '--gutter': expected a length"),
    (["--back-offset", "inf,0"], "each part must lie between -20 and 20 mm; found 'inf,0'"),
    (["--back-offset", "nan,nan"], "each part must lie between -20 and 20 mm"),
    (["--back-offset", "0,60", "--duplex", "fold"], "each part must lie between -20 and 20 mm"),
    (["--paper", "99999999x99999999"], "larger than a PDF page may be: at most 5080 mm"),
    (["--paper", "5080.1x300"], "paper '5080.1x300' is larger than a PDF page may be: at most 5080 mm"),
    (["--paper", "a\x1b]0;title\x074"], "unknown paper 'a\\x1b]0;title\\x074'"),
    (["--back-offset", "1,\x1b[31m"], "found '1,\\x1b[31m'"),
    (["--paper", "10x10"], "card does not fit on 10x10 portrait"),
    (["--duplex", "fold", "--paper", "200x196", "--back-offset", "0,7"],
     "--back-offset 0,7 moves backs off their half of the page"),
    (["--back-offset", "-15,0"], "--back-offset -15,0 moves backs off the paper"),
])
def test_bad_options_are_usage_errors(tmp_path, options, message):
    result = run(deck(tmp_path), "--out", tmp_path / "out", *options)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if "rror" in line]
    assert len(error_lines) == 1 and message in error_lines[0], result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("paper", ["5080x300", "5080x300mm", "508x30cm", "200x10in"])
def test_a_page_of_the_largest_pdf_size_is_accepted(tmp_path, paper):
    """5080 mm is the limit the message names, however its unit writes it."""
    out = tmp_path / "out"
    result = run(deck(tmp_path), "--out", out, "--paper", paper, "--duplex", "none")
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "alpha.none.json").read_text())
    assert manifest["paper"]["height"] == pytest.approx(5080 * 72 / 25.4)


def test_an_offset_that_keeps_folded_backs_on_their_half_is_accepted(tmp_path):
    out = tmp_path / "out"
    result = run(deck(tmp_path), "--out", out, "--duplex", "fold", "--paper", "200x196",
                 "--back-offset", "0,5")
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "alpha.fold.json").read_text())
    half = manifest["paper"]["height"] / 2
    backs = [p["trim_box"] for p in manifest["placements"] if p["face"] == "back"]
    assert backs and all(y + h <= half for _, y, _, h in backs)


def test_a_missing_deck_is_an_input_error(tmp_path):
    result = run(tmp_path / "nowhere", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "no such deck file or folder" in result.output


def test_a_named_pipe_given_as_the_deck_is_refused_without_reading_it(tmp_path):
    import os
    pipe = tmp_path / "deck.yaml"
    os.mkfifo(pipe)  # reading it would wait for a writer for ever
    result = run(pipe, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"{pipe}: is not a deck file or folder (a device, pipe or socket)" in result.output


def test_quiet_prints_nothing(tmp_path):
    result = run(deck(tmp_path), "--out", tmp_path / "out", "--quiet")
    assert result.exit_code == 0 and result.output == ""


def test_the_progress_bar_counts_pages(tmp_path):
    result = run(deck(tmp_path, counts=(20, 1), rules=""), "--out", tmp_path / "out")
    assert "Building sheets" in result.output


def test_gutter_margin_bleed_and_marks_options_reach_the_sheets(tmp_path):
    import pdfplumber

    out = tmp_path / "out"
    result = run(deck(tmp_path, counts=(2, 1)), "--out", out, "--gutter", "4", "--margin", "12",
                 "--bleed", "--no-crop-marks")
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "alpha.json").read_text())
    first, second = (p["trim_box"] for p in manifest["placements"][:2])
    assert second[0] - (first[0] + first[2]) == pytest.approx(6 * MM, abs=0.002)  # two 3 mm bleeds beat 4 mm
    assert manifest["bleed"] == pytest.approx(3 * MM, abs=0.001)
    assert first[0] - 3 * MM >= 12 * MM - 0.002
    with pdfplumber.open(out / "alpha.pdf") as pdf:
        assert pdf.pages[0].lines == []


def test_a_deck_with_nothing_to_print_is_refused(tmp_path):
    result = run(deck(tmp_path, counts=(0, 0), rules=""), "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "nothing to print: every card's count is 0" in result.output
