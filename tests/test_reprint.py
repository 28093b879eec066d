"""``build --changed-since``, ``--changed-from`` and ``--only``: printing only what changed.

A project of one deck in a git repository of its own (tests/iterations_support.py) is
committed (and built in full), then changed as a designer between two playtests would:
one card's text, one count raised, one card removed, one added, one layout element moved.
The reprint is read back from its PDF (pdfplumber) and its manifest.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress
from iterations_support import commit, edit, git, project, write_art

from generator.iterations import fingerprints
from generator.sheets.instructions import MARGIN

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

DECK = Path("cards/game/deck.yaml")
LAYOUT = Path("layouts/game.yaml")
OUT = Path("out")

REPRINTED = {("imp", 3), ("ogre", 1), ("ogre", 2), ("ogre", 3), ("golem", 1), ("golem", 2), ("wisp", 1)}
"""Every copy the changes leave the printed copy without: imp's added third copy, ogre's new text
(all three), golem's moved art (both), and the new wisp. Troll is gone; nothing else changed."""
TAKE_OUT = [("ogre", "Ogre", 3, "stale"), ("troll", "Troll", 1, "removed"), ("golem", "Golem", 2, "stale")]
PUT_IN = [("imp", "Imp", 1, "more copies"), ("ogre", "Ogre", 3, "redrawn"), ("golem", "Golem", 2, "redrawn"),
          ("wisp", "Wisp", 1, "new")]


def change_the_deck() -> None:
    """One card's text, one count raised, one card removed, one added, one layout element moved
    (the art, which only golem shows); the rule's total follows the deck."""
    edit(DECK, "text: Smash.", "text: Smash twice.")
    edit(DECK, "strength: 2, count: 2}", "strength: 2, count: 3}")
    edit(DECK, "  - {id: troll, name: Troll, text: Regrow., strength: 4}\n", "")
    edit(DECK, "art: art/golem.png}\n",
         "art: art/golem.png}\n  - {id: wisp, name: Wisp, text: Fly away., strength: 1}\n")
    edit(DECK, "total: 8", "total: 9")
    edit(LAYOUT, "    box: [5, 55, 20, 20]\n", "    box: [5, 55, 25, 25]\n")


@pytest.fixture
def playtest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A committed project, then changed (:func:`change_the_deck`); the working directory is the project."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    change_the_deck()
    return tmp_path


def manifest_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def text_in(page: pdfplumber.page.Page, box: list[float]) -> str:
    x, y, w, h = box
    return page.within_bbox((x, page.height - y - h, x + w, page.height - y)).extract_text() or ""


def assert_prints_exactly(pdf_path: Path, manifest: dict, copies: set[tuple[str, int]], version: str | None,
                          titles: dict[str, str]) -> None:
    """The manifest places a front and a back of each of ``copies`` and nothing else; in the PDF
    each front shows its title (and ``version``) in its trim box, and its back, on the next page,
    sits where flipping the sheet on its long edge brings it."""
    fronts = {(p["card"], p["copy"]): p for p in manifest["placements"] if p["face"] == "front"}
    backs = {(p["card"], p["copy"]): p for p in manifest["placements"] if p["face"] == "back"}
    assert set(fronts) == set(backs) == copies
    assert manifest["cards"] == len(copies)
    width = manifest["paper"]["width"]
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) == manifest["pages"]
        for key, front in fronts.items():
            shown = text_in(pdf.pages[front["page"] - 1], front["trim_box"])
            assert titles[key[0]] in shown, (key, shown)
            if version is not None:
                assert version in shown, (key, shown)
            back = backs[key]
            x, y, w, _ = front["trim_box"]
            assert back["page"] == front["page"] + 1
            assert back["trim_box"][:2] == pytest.approx([width - x - w, y], abs=0.002)
            assert "Playtest" in text_in(pdf.pages[back["page"] - 1], back["trim_box"])


TITLES = {"imp": "Imp", "ogre": "Ogre", "troll": "Troll", "golem": "Golem", "wisp": "Wisp"}


def page_lines(pdf_path: Path, number: int) -> list[str]:
    with pdfplumber.open(pdf_path) as pdf:
        return (pdf.pages[number - 1].extract_text() or "").splitlines()


# --- --changed-since ----------------------------------------------------------------------


def test_changed_since_head_prints_exactly_the_copies_the_printed_deck_lacks(playtest: Path):
    head = git(playtest, "rev-parse", "--short", "HEAD").strip()
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    pdf, manifest = OUT / "game.reprint.pdf", manifest_of(OUT / "game.reprint.json")
    assert_prints_exactly(pdf, manifest, REPRINTED, f"{head}+", TITLES)
    assert manifest["version"] == f"{head}+"
    reprint = manifest["reprint"]
    assert (reprint["since"], reprint["old_version"], reprint["new_version"]) == ("HEAD", head, f"{head}+")
    assert [(e["card"], e["title"], e["copies"], e["why"]) for e in reprint["take_out"]] == TAKE_OUT
    assert [(e["card"], e["title"], e["copies"], e["why"]) for e in reprint["add"]] == PUT_IN
    assert [e["copy_numbers"] for e in reprint["add"]] == [[3], [1, 2, 3], [1, 2], [1]]
    assert (reprint["cards_taken_out"], reprint["cards_added"], reprint["cards_after"]) == (6, 7, 9)
    assert reprint["instruction_pages"] == 2  # the instructions and their blank back
    assert min(p["page"] for p in manifest["placements"]) == 3
    assert "take out 6 cards: Ogre x3 (stale), Troll x1 (removed), Golem x2 (stale)" in run.stdout
    assert "the new sheets add 7 cards: Imp x1 (more copies), Ogre x3 (redrawn), Golem x2 (redrawn), " \
           "Wisp x1 (new)" in run.stdout


def test_the_first_page_lists_what_to_take_out_and_what_to_put_in_and_its_back_is_blank(playtest: Path):
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q").exit_code == 0
    pdf = OUT / "game.reprint.pdf"
    lines = page_lines(pdf, 1)
    assert lines[0] == "Reprint of Playtest"
    out = lines.index("1. Take out of the printed deck: 6 cards")
    put = lines.index("2. Put in the cards of the sheets that follow: 7 cards")
    assert lines[out + 1:put] == ["3 × Ogre old printing: the new sheets replace it", "1 × Troll no longer in the deck",
                                  "2 × Golem old printing: the new sheets replace it"]
    assert lines[put + 1:put + 5] == ["1 × Imp more copies: the deck now has 3", "3 × Ogre replaces the old copies",
                                      "2 × Golem replaces the old copies", "1 × Wisp new card"]
    assert any("Then the deck holds 9 cards." in line for line in lines)
    back = page_lines(pdf, 2)
    assert len(back) == 1 and back[0].endswith("back of the reprint instructions, left blank")


def test_the_instruction_page_keeps_inside_its_margins_above_the_footer(playtest: Path):
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q").exit_code == 0
    with pdfplumber.open(OUT / "game.reprint.pdf") as pdf:
        page = pdf.pages[0]
        footer = max(char["top"] for char in page.chars)
        body = [char for char in page.chars if char["top"] < footer - 1]
        assert body
        assert min(char["x0"] for char in body) >= MARGIN - 0.5
        assert max(char["x1"] for char in body) <= page.width - MARGIN + 0.5
        assert min(char["top"] for char in body) >= MARGIN - 20


def test_a_deck_name_of_one_long_word_is_broken_to_stay_inside_the_page(playtest: Path):
    edit(DECK, "deck:\n  name: Playtest\n", "deck:\n  name: " + "Supercalifragilistic" * 6 + "\n")
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q").exit_code == 0
    with pdfplumber.open(OUT / "game.reprint.pdf") as pdf:
        page = pdf.pages[0]
        footer = max(char["top"] for char in page.chars)
        body = [char for char in page.chars if char["top"] < footer - 1]
        assert max(char["x1"] for char in body) <= page.width - MARGIN + 0.5


def test_reprinted_sheets_keep_every_sheet_option(playtest: Path):
    """Short-edge duplex with bleed and cut lines: backs mirror rows; folding: no blank back."""
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q", "--duplex", "short",
                    "--bleed", "--cut-lines")
    assert run.exit_code == 0, run.stderr
    manifest = manifest_of(OUT / "game.reprint.short.json")
    height = manifest["paper"]["height"]
    fronts = {(p["card"], p["copy"]): p for p in manifest["placements"] if p["face"] == "front"}
    for back in (p for p in manifest["placements"] if p["face"] == "back"):
        x, y, _, h = fronts[back["card"], back["copy"]]["trim_box"]
        assert back["trim_box"][:2] == pytest.approx([x, height - y - h], abs=0.002)
    assert manifest["reprint"]["instruction_pages"] == 2 and manifest["bleed"] > 0
    folded = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q", "--duplex", "fold")
    assert folded.exit_code == 0, folded.stderr
    manifest = manifest_of(OUT / "game.reprint.fold.json")
    assert manifest["reprint"]["instruction_pages"] == 1  # folded sheets print on one side: no blank back
    pages = {p["page"] for p in manifest["placements"]}
    assert min(pages) == 2 and manifest["pages"] == 1 + len(pages)
    assert {(p["card"], p["copy"]) for p in manifest["placements"] if p["face"] == "back"} == REPRINTED
    with pdfplumber.open(OUT / "game.reprint.fold.pdf") as pdf:
        assert len(pdf.pages) == manifest["pages"]
        assert "Take out of the printed deck" in (pdf.pages[0].extract_text() or "")


def test_a_reprint_never_replaces_the_full_builds_files(playtest: Path):
    assert deckpress("build", "cards/game", "--out", OUT, "-q").exit_code == 0
    full = (OUT / "game.pdf").read_bytes()
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q").exit_code == 0
    assert (OUT / "game.pdf").read_bytes() == full
    assert (OUT / "game.reprint.pdf").is_file()


def test_a_reprint_is_the_same_bytes_twice(playtest: Path):
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", "a", "-q").exit_code == 0
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", "b", "-q").exit_code == 0
    for name in ("game.reprint.pdf", "game.reprint.json"):
        assert (Path("a") / name).read_bytes() == (Path("b") / name).read_bytes()


@needs_git
def test_nothing_to_reprint_removes_an_earlier_reprint_left_in_the_folder(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT, "-q").exit_code == 0
    assert (OUT / "game.reprint.pdf").is_file()
    commit(tmp_path, "Printed the reprint")
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert f"  removed {OUT / 'game.reprint.pdf'}, an earlier reprint's" in run.stdout.splitlines()
    assert not (OUT / "game.reprint.pdf").exists() and not (OUT / "game.reprint.json").exists()


@needs_git
def test_a_deck_made_since_the_revision_is_printed_whole_beside_the_others_reprints(tmp_path: Path,
                                                                                    monkeypatch: pytest.MonkeyPatch):
    """A new deck in the project has never been printed: ``build --changed-since`` of every deck
    prints it whole, and still reprints only what changed in the others."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert deckpress("new", "second", "--dir", "cards").exit_code == 0
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    run = deckpress("build", "--changed-since", "HEAD", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert "deck 'second' is not in HEAD: it is printed whole" in run.stdout.splitlines()
    whole = json.loads((OUT / "second.json").read_text())
    assert len([p for p in whole["placements"] if p["face"] == "front"]) == 26  # every copy, front and back
    assert not (OUT / "second.reprint.pdf").exists()
    assert (OUT / "game.reprint.pdf").is_file() and not (OUT / "game.pdf").exists()


@needs_git
def test_nothing_to_reprint_from_a_reprint_s_own_manifest_keeps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The reprint's manifest describes the deck once its cards are put in: given to
    --changed-from, it is the printed copy's record, not an earlier reprint to clear away."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", OUT, "-q").exit_code == 0
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    assert deckpress("build", "cards/game", "--changed-from", OUT / "game.json", "--out", OUT, "-q").exit_code == 0
    record = (OUT / "game.reprint.json").read_bytes()
    run = deckpress("build", "cards/game", "--changed-from", OUT / "game.reprint.json", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert "nothing to reprint" in run.stdout and "removed" not in run.stdout
    assert (OUT / "game.reprint.json").read_bytes() == record and (OUT / "game.reprint.pdf").is_file()


@needs_git
def test_nothing_to_reprint_removes_the_earlier_reprint_s_cut_file_too(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    cut = ("--cutter", "silhouette", "--cut-file", "svg")
    assert deckpress("build", "cards/game", "--changed-since", "HEAD", *cut, "--out", OUT, "-q").exit_code == 0
    assert (OUT / "game.reprint.cut.svg").is_file()
    commit(tmp_path, "Printed and cut the reprint")
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", *cut, "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert f"  removed {OUT / 'game.reprint.cut.svg'}, an earlier reprint's" in run.stdout.splitlines()
    assert not list(OUT.glob("game.reprint*"))


@needs_git
def test_nothing_to_reprint_says_so_and_writes_no_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["deck 'game': nothing to reprint since HEAD: the printed copy has every "
                                       "card as it now prints; no PDF written"]
    assert not OUT.exists()
    edit(DECK, "  - {id: troll, name: Troll, text: Regrow., strength: 4}\n", "")  # only taken out
    edit(DECK, "total: 8", "total: 7")
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[1:] == ["  take out 1 card: Troll x1 (removed)"]
    assert not OUT.exists()


@needs_git
def test_a_new_version_alone_reprints_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A commit that changes no face (a rule's message) changes the version every face prints;
    that alone is no reason to reprint, compared with git or with the manifest."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", OUT, "-q").exit_code == 0
    edit(DECK, "message: a full deck", "message: the whole deck")
    commit(tmp_path, "A clearer rule")
    assert "nothing to reprint" in deckpress("build", "cards/game", "--changed-since", "HEAD~1", "--out", "x").stdout
    assert "nothing to reprint" in deckpress("build", "cards/game", "--changed-from", OUT / "game.json",
                                             "--out", "x").stdout
    assert not Path("x").exists()


# --- --changed-from -------------------------------------------------------------------------


def test_changed_from_a_manifest_prints_what_changed_in_a_deck_outside_git(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    full = manifest_of(Path("printed/game.json"))
    assert full["version"] is None and full["fingerprints"] == "drawing-1"
    assert [(card["card"], card["count"]) for card in full["deck_cards"]] == [
        ("imp", 2), ("ogre", 3), ("troll", 1), ("golem", 2)]
    change_the_deck()
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q")
    assert run.exit_code == 0, run.stderr
    manifest = manifest_of(OUT / "game.reprint.json")
    assert_prints_exactly(OUT / "game.reprint.pdf", manifest, REPRINTED, None, TITLES)
    reprint = manifest["reprint"]
    assert reprint["from"] == "game.json"
    assert [(e["card"], e["title"], e["copies"], e["why"]) for e in reprint["take_out"]] == TAKE_OUT
    assert [(e["card"], e["title"], e["copies"], e["why"]) for e in reprint["add"]] == PUT_IN
    # The reprint's manifest describes the deck the box holds once it is applied: nothing more to print.
    again = deckpress("build", "cards/game", "--changed-from", OUT / "game.reprint.json", "--out", "again")
    assert again.exit_code == 0 and "nothing to reprint" in again.stdout


def test_changed_from_sees_a_changed_art_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    write_art(Path("cards/game/art/golem.png"), (40, 40, 200))
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q")
    assert run.exit_code == 0, run.stderr
    placed = {(p["card"], p["copy"]) for p in manifest_of(OUT / "game.reprint.json")["placements"]}
    assert placed == {("golem", 1), ("golem", 2)}


def test_changed_from_an_only_build_s_manifest_prints_the_cards_its_sheets_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An ``--only`` build's manifest lists every card of the deck, but its sheets held only the
    cards picked: the printed copy is those, so the rest are new to it, as a card new to the deck is."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--only", "id=imp,golem", "--out", "printed", "-q").exit_code == 0
    edit(DECK, "text: Stand firm.,", "text: Stand firmer.,")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.only.json", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[1:3] == ["  take out 2 cards: Golem x2 (stale)",
                                            "  the new sheets add 6 cards: Ogre x3 (new), Troll x1 (new), "
                                            "Golem x2 (redrawn)"]
    manifest = manifest_of(OUT / "game.reprint.json")
    assert_prints_exactly(OUT / "game.reprint.pdf", manifest,
                          {("ogre", 1), ("ogre", 2), ("ogre", 3), ("troll", 1), ("golem", 1), ("golem", 2)},
                          None, TITLES)
    assert "Then the deck holds 8 cards." in " ".join(page_lines(OUT / "game.reprint.pdf", 1))
    # Printed in full, the copy in the box lacks nothing.
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    again = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", "again")
    assert again.exit_code == 0 and "nothing to reprint" in again.stdout


@needs_git
@pytest.mark.parametrize("link", ["a file", "a folder"])
def test_art_made_a_link_since_the_print_reprints_as_the_printed_manifest_says(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch,
                                                                               link: str):
    """``--changed-since`` reads the printed copy's art at its own path in the commit, not
    through the working tree's link (to other art the commit holds too), so it reprints the
    copies ``--changed-from`` the printed build's manifest reprints."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art-v2/golem.png"), (40, 40, 200))
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The first playtest, with the next art beside it")
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    art = Path("cards/game/art")
    if link == "a file":
        (art / "golem.png").unlink()
        (art / "golem.png").symlink_to(Path("..", "art-v2", "golem.png"))
    else:
        art.rename("cards/game/art-v1")
        art.symlink_to("art-v2", target_is_directory=True)
    for option, printed, out in (("--changed-since", "HEAD", "since"), ("--changed-from", "printed/game.json", "from")):
        run = deckpress("build", "cards/game", option, printed, "--out", out, "-q")
        assert run.exit_code == 0, run.stderr
        manifest = manifest_of(Path(out, "game.reprint.json"))
        assert {(p["card"], p["copy"]) for p in manifest["placements"]} == {("golem", 1), ("golem", 2)}, option
        assert [(e["card"], e["copies"], e["why"]) for e in manifest["reprint"]["take_out"]] == [
            ("golem", 2, "stale")], option


@pytest.mark.parametrize("options, manifest, note", [
    (["--duplex", "short", "--paper", "letter"], "game.short.json", "--paper letter --duplex short"),
    (["--orientation", "landscape", "--bleed", "--back-offset", "1,-0.5"], "game.json",
     "--orientation landscape --bleed --back-offset 1,-0.5"),
])
def test_a_reprint_made_otherwise_than_the_printed_copy_names_the_options_that_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str], manifest: str, note: str):
    """Cards printed on other paper, turned, with bleed or with a back offset are matched only by a
    reprint made the same way: the note names every option that differs; following it silences it."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    printed = deckpress("build", "cards/game", "--out", "printed", *options, "-q")
    assert printed.exit_code == 0, printed.stderr
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    run = deckpress("build", "cards/game", "--changed-from", f"printed/{manifest}", "--out", OUT, "-q")
    assert run.exit_code == 0, run.stderr
    assert run.error_lines == [f"note: the printed copy was built with {note}; give the same for sheets that match it"]
    same = deckpress("build", "cards/game", "--changed-from", f"printed/{manifest}", "--out", OUT, "-q", *options)
    assert same.exit_code == 0 and same.error_lines == []


def test_a_reprint_with_bleed_of_a_copy_printed_without_names_the_option_that_matches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q", "--bleed")
    assert run.error_lines == ["note: the printed copy was built with --no-bleed; give the same for sheets that "
                               "match it"]
    assert deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q",
                     "--no-bleed").error_lines == []


def test_a_cutter_s_own_choice_of_orientation_is_no_difference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", "printed", "--cutter", "silhouette", "-q").exit_code == 0
    assert manifest_of(Path("printed/game.json"))["paper"]["orientation"] == "landscape"
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q",
                    "--cutter", "silhouette")
    assert run.exit_code == 0 and run.error_lines == []


@needs_git
def test_a_renamed_card_is_taken_out_by_the_name_its_printed_copies_show(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "{id: ogre, name: Ogre,", "{id: ogre, name: Ogress,")
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", OUT)
    assert run.exit_code == 0, run.stderr
    assert "  take out 3 cards: Ogre x3 (stale)" in run.stdout.splitlines()
    assert "  the new sheets add 3 cards: Ogress x3 (redrawn)" in run.stdout.splitlines()
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    edit(DECK, "{id: ogre, name: Ogress,", "{id: ogre, name: Ogrette,")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q")
    assert run.exit_code == 0, run.stderr
    instructions = manifest_of(OUT / "game.reprint.json")["reprint"]
    assert [entry["title"] for entry in instructions["take_out"]] == ["Ogress"]


def test_a_count_that_went_down_takes_out_the_surplus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    edit(DECK, "text: Smash., strength: 5, count: 3}", "text: Smash., strength: 5, count: 1}")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "--no-check")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[1:] == ["  take out 2 cards: Ogre x2 (surplus)"]
    assert not OUT.exists()


def test_a_count_down_to_0_takes_the_card_out_and_one_up_from_0_puts_it_in_as_new(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "text: Regrow., strength: 4}", "text: Regrow., strength: 4, count: 0}")
    assert deckpress("build", "cards/game", "--out", "printed", "--no-check", "-q").exit_code == 0
    edit(DECK, "text: Smash., strength: 5, count: 3}", "text: Smash., strength: 5, count: 0}")
    edit(DECK, "text: Regrow., strength: 4, count: 0}", "text: Regrow twice., strength: 4, count: 2}")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "--no-check")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[1:3] == ["  take out 3 cards: Ogre x3 (removed)",
                                            "  the new sheets add 2 cards: Troll x2 (new)"]


@pytest.mark.parametrize("content, message", [
    ("{", "{path}:1:2: not a manifest: malformed JSON (Expecting property name enclosed in double quotes)"),
    ("[1, 2]", "{path}: not a manifest deckpress wrote (no 'deck' and 'placements')"),
    ('{"deck": "game", "placements": []}',
     "{path}: this manifest does not record what each face draws (it was written before builds kept that "
     "record), so it cannot tell what changed; build the deck in full once, or use --changed-since REV in git "
     "(fingerprints)"),
    ('{"deck": "game", "version": null, "placements": [], "fingerprints": "drawing-0", "deck_cards": []}',
     "{path}: its faces were fingerprinted as 'drawing-0', not 'drawing-1' as this deckpress does; build the "
     "deck in full once (fingerprints)"),
    ('{"deck": "other", "version": null, "placements": [], "fingerprints": "drawing-1", "deck_cards": []}',
     "{path}: the manifest is of deck 'other', not 'game' (deck)"),
    ('{"deck": "game", "version": null, "placements": [], "fingerprints": "drawing-1", "deck_cards": [{"card": 1}]}',
     "{path}: card 1 of 'deck_cards' is not {{card, title, count, front, back}} with a count of 0 to 100,000 "
     "(deck_cards)"),
    ('{"deck": "game", "version": null, "placements": [], "fingerprints": "drawing-1", "deck_cards": '
     '[{"card": "imp", "count": 1000000000000000000000000, "front": "a", "back": "b"}]}',
     "{path}: card 1 of 'deck_cards' is not {{card, title, count, front, back}} with a count of 0 to 100,000 "
     "(deck_cards)"),
    ('{"deck": "game", "version": null, "placements": [], "fingerprints": "drawing-1", "deck_cards": '
     '[{"card": "imp", "title": ["Imp"], "count": 1, "front": "a", "back": "b"}]}',
     "{path}: card 1 of 'deck_cards' is not {{card, title, count, front, back}} with a count of 0 to 100,000 "
     "(deck_cards)"),
    ('{"deck": "game", "version": null, "placements": [], "fingerprints": "drawing-1", "deck_cards": '
     '[{"card": "imp", "count": 1, "front": "a", "back": "b"},'
     ' {"card": "imp", "count": 2, "front": "a", "back": "b"}]}',
     "{path}: card 2 of 'deck_cards' lists 'imp' again (deck_cards)"),
    ('{"deck": "game", "version": null, "placements": [{"card": "imp", "face": "front"}], '
     '"fingerprints": "drawing-1", "deck_cards": [{"card": "imp", "count": 2, "front": "a", "back": "b"}]}',
     "{path}: placement 1 does not say which card and copy it prints, so the manifest cannot tell which copies "
     "its sheets held; build the deck in full once (placements)"),
    ('{"deck": "game", "version": null, "placements": [{"card": "imp", "copy": 3}], '
     '"fingerprints": "drawing-1", "deck_cards": [{"card": "imp", "count": 2, "front": "a", "back": "b"}]}',
     "{path}: placement 1 prints copy 3 of \"imp\", which 'deck_cards' lists with 2 copies (placements)"),
    ("[" * 100_000 + "]" * 100_000, "{path}: not a manifest: JSON nested deeper than a manifest ever is"),
    ('{"deck": "game", "n": ' + "9" * 5000 + "}",
     "{path}: not a manifest: it holds a number too long to read"),
])
def test_a_manifest_that_cannot_be_compared_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   content: str, message: str):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    Path("old.json").write_text(content, encoding="utf-8")
    run = deckpress("build", "cards/game", "--changed-from", "old.json", "--out", OUT)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {message.format(path='old.json')}"]
    assert not OUT.exists()


@pytest.mark.parametrize("field, value, message", [
    ("duplex", "sideways", "'duplex' must be one of long, short, fold, none, as --duplex takes it; found \"sideways\""),
    ("duplex", None, "'duplex' must be one of long, short, fold, none, as --duplex takes it; found null"),
    ("back_offset_mm", [999, 0],
     "'back_offset_mm' is 999,0: each part must lie between -20 and 20 mm, as --back-offset takes it"),
    ("back_offset_mm", "1,2", "'back_offset_mm' must be two numbers in millimetres, like [0.5, -1.2]; found \"1,2\""),
    ("paper", {"name": "a9", "orientation": "portrait"},
     "'paper': unknown paper 'a9'; use one of a3, a4, a5, b5, legal, letter, tabloid or a size such as 200x280mm "
     "or 8.5x14in"),
    ("paper", {"name": "a4", "orientation": "sideways"},
     "the paper's orientation must be portrait or landscape; found \"sideways\""),
    ("bleed", 100, "'bleed' must be the bleed printed in points, from 0 to 28.346 (10 mm, the widest a layout may "
                   "have); found 100"),
    ("version", "v" * 41, "'version' must be null or text of 1 to 40 characters on one line, as a deck's version "
                          f"is; found \"{'v' * 41}\""),
    ("lang", "fr\x1b[2J", "'lang' must be a language code such as fr, de or pt-BR, as --lang takes it; found "
                          "\"fr\\u001b[2J\""),
], ids=["duplex unknown", "duplex null", "back offset past its limit", "back offset as text", "paper unknown",
        "orientation unknown", "bleed past the widest", "version too long", "lang not a code"])
def test_a_manifest_setting_no_build_takes_is_one_line_naming_it_and_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str, value: object, message: str):
    """The reprint draws the deck with the manifest's version and language, and its note gives the
    manifest's paper, duplex, bleed and back offset as options: each is refused as build would
    refuse the option, rather than read as given or passed over."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    manifest = manifest_of(Path("printed/game.json"))
    manifest[field] = value
    Path("old.json").write_text(json.dumps(manifest), encoding="utf-8")
    edit(DECK, "text: Smash.,", "text: Smash twice.,")
    run = deckpress("build", "cards/game", "--changed-from", "old.json", "--out", OUT)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: old.json: {message} ({field})"]
    assert not OUT.exists()


@pytest.mark.parametrize(("name", "prepare", "message"), [
    ("old.json", lambda: os.mkfifo("old.json"), "old.json: is a named pipe, not a file that can be read"),
    ("old.json", lambda: Path("old.json").write_bytes(b'{"deck": "g\xe9"}'),
     "old.json:1:12: not UTF-8 text: byte 0xe9 cannot be read; save the file as UTF-8"),
    ("gone.json", lambda: None, "gone.json: file not found"),
], ids=["a pipe, not waited on", "not UTF-8, its byte named", "not there"])
def test_a_manifest_that_cannot_be_read_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               name: str, prepare: Callable[[], object], message: str):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    prepare()
    run = deckpress("build", "cards/game", "--changed-from", name, "--out", OUT)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {message}"]


# --- errors and --only ----------------------------------------------------------------------


def test_a_revision_that_is_not_there_is_one_line_and_exit_2(playtest: Path):
    run = deckpress("build", "cards/game", "--changed-since", "v9.9", "--out", OUT)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {DECK}: no revision 'v9.9' in the repository at {playtest}"]
    assert not OUT.exists()


def test_only_prints_the_cards_a_selector_picks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    run = deckpress("build", "cards/game", "--only", "id=imp,golem", "--out", OUT, "-q")
    assert run.exit_code == 0, run.stderr
    manifest = manifest_of(OUT / "game.only.json")
    assert_prints_exactly(OUT / "game.only.pdf", manifest, {("imp", 1), ("imp", 2), ("golem", 1), ("golem", 2)},
                          None, TITLES)
    assert manifest["only"] == ["id=imp,golem"] and "reprint" not in manifest
    assert min(p["page"] for p in manifest["placements"]) == 1  # no instructions in front
    both = deckpress("build", "cards/game", "--only", "strength=5|6", "--only", "text=Smash.", "--out", "two", "-q")
    assert both.exit_code == 0, both.stderr
    assert {p["card"] for p in manifest_of(Path("two/game.only.json"))["placements"]} == {"ogre"}


@pytest.mark.parametrize("selector, message", [
    ("strength", "--only: 'strength' is not FIELD=VALUE (such as type=monster) (only)"),
    ("=5", "--only: '=5' is not FIELD=VALUE (such as type=monster) (only)"),
    ("strenth=5", "--only names unknown field 'strenth'; did you mean 'strength'? (strenth)"),
    ("strength=lots", "--only: 'lots' can never match 'strength', which holds whole numbers (strength)"),
    ("strength=9", "cards/game/deck.yaml: --only strength=9 matches no card of deck 'game'; nothing was built (only)"),
])
def test_a_selector_that_cannot_pick_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            selector: str, message: str):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    run = deckpress("build", "cards/game", "--only", selector, "--out", OUT)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {message}"]
    assert not OUT.exists()


def test_ways_of_choosing_copies_do_not_mix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    run = deckpress("build", "cards/game", "--only", "id=imp", "--changed-from", "x.json", "--out", OUT)
    assert run.exit_code == 2
    assert "--only and --changed-from choose the copies to print in two ways; give one" in run.stderr


# --- the version in every build ----------------------------------------------------------------


@needs_git
def test_every_build_names_its_version_in_the_manifest_and_every_footer(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    head = git(tmp_path, "rev-parse", "--short", "HEAD").strip()
    assert deckpress("build", "cards/game", "--out", OUT, "-q").exit_code == 0
    manifest = manifest_of(OUT / "game.json")
    assert manifest["version"] == head
    with pdfplumber.open(OUT / "game.pdf") as pdf:
        footers = [(page.extract_text() or "").splitlines()[-1] for page in pdf.pages]
    assert footers == [f"Playtest · version {head} · page 1 of 2 · fronts · duplex: flip on long edge",
                       f"Playtest · version {head} · page 2 of 2 · backs · duplex: flip on long edge"]


def many_cards(count: int, text: str) -> str:
    """A deck of ``count`` cards, every third with a long title that wraps in its column."""
    cards = "".join(f"  - {{id: c{index}, name: \"{'Long ' * 12 if index % 3 == 0 else ''}Card {index}\", "
                    f"text: {text}}}\n" for index in range(count))
    return ("deck:\n  name: Playtest\n  layout: game\nfields:\n  name: {type: text, required: true}\n"
            "  text: {type: text}\n  art: {type: text}\nback:\n  name: Playtest\ncards:\n" + cards)


def test_long_lists_continue_on_further_pages_each_with_a_blank_back(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    DECK.write_text(many_cards(60, "Old."), encoding="utf-8")
    edit(LAYOUT, "    box: [5, 5, 53.5, 10]\n    size: 12\n",
         "    box: [5, 5, 53.5, 14]\n    size: 12\n    min_size: 3\n    fit: wrap\n")  # long titles wrap
    assert deckpress("build", "cards/game", "--out", "printed", "-q").exit_code == 0
    DECK.write_text(many_cards(60, "New."), encoding="utf-8")
    run = deckpress("build", "cards/game", "--changed-from", "printed/game.json", "--out", OUT, "-q")
    assert run.exit_code == 0, run.stderr
    manifest = manifest_of(OUT / "game.reprint.json")
    pages = manifest["reprint"]["instruction_pages"]
    assert pages >= 4 and pages % 2 == 0
    assert min(p["page"] for p in manifest["placements"]) == pages + 1
    rows: list[str] = []
    with pdfplumber.open(OUT / "game.reprint.pdf") as pdf:
        for number in range(pages):
            page = pdf.pages[number]
            lines = (page.extract_text() or "").splitlines()
            if number % 2:  # a blank back: its footer only
                assert len(lines) == 1 and lines[0].endswith("left blank"), lines
                continue
            assert lines[0] == "Reprint of Playtest" + (" (continued)" if number else "")
            rows += [line for line in lines if "×" in line]
            footer = max(char["top"] for char in page.chars)
            body = [char for char in page.chars if char["top"] < footer - 1]
            assert max(char["bottom"] for char in body) < footer - 10  # clear of the footer
            assert MARGIN - 0.5 <= min(char["x0"] for char in body)
            assert max(char["x1"] for char in body) <= page.width - MARGIN + 0.5
    assert len(rows) == 120 and all(row.startswith("1 × ") for row in rows)
    with pdfplumber.open(OUT / "game.reprint.pdf") as pdf:
        words = " ".join((pdf.pages[number].extract_text() or "") for number in range(0, pages, 2)).split()
    named = [int(words[index + 1]) for index, word in enumerate(words[:-1]) if word == "Card"]
    assert sorted(named) == sorted(list(range(60)) * 2)  # every card once taken out, once put in


@needs_git
def test_a_footer_too_long_for_narrow_paper_is_set_smaller_not_cut_off(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "name: Playtest\n  layout", "name: The Longest Playtest Name Of The Season\n  layout")
    run = deckpress("build", "cards/game", "--out", OUT, "-q", "--paper", "a5", "--draft", "--back-offset", "0.5,0.5")
    assert run.exit_code == 0, run.stderr
    with pdfplumber.open(OUT / "game.pdf") as pdf:
        for page in pdf.pages:
            footer = [char for char in page.chars if char["top"] > page.height - 20]
            assert "version" in "".join(char["text"] for char in footer)
            assert min(char["x0"] for char in footer) >= 5 * 72 / 25.4 - 0.5
            assert max(char["x1"] for char in footer) <= page.width - 5 * 72 / 25.4 + 0.5


def test_a_manifest_past_its_size_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(fingerprints, "MAX_PRINTED_MANIFEST_BYTES", 1024 * 1024)
    Path("huge.json").write_text(" " * (1024 * 1024 + 1), encoding="utf-8")
    run = deckpress("build", "cards/game", "--changed-from", "huge.json", "--out", OUT)
    assert run.exit_code == 2
    assert run.error_lines == ["error: huge.json: file is 1,048,577 bytes; the limit is 1,048,576"]
