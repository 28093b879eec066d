"""Exports on every core: the same files whatever ``--jobs`` says, and each face rasterised once a run."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from cli_run import deckpress
from test_export import DOUBLE_SIDED_CARDS, make_deck, png_names
from test_export_many_copies import count_rasterised_pages

from generator.exports.workers import Workers
from generator.render import Renderer

MANY_FACES = "cards:\n" + "".join(
    f"  - {{id: card-{number}, count: {number % 3 + 1}, name: Card {number}, "
    f"colour: {('red', 'green', 'blue')[number % 3]}, back: {{name: Back {number % 2}}}}}\n"
    for number in range(20))
"""Twenty double-sided cards: three raster tasks of fronts, backs that repeat, several copies."""


def files(folder: Path) -> dict[str, bytes]:
    """The files an export wrote, with the folder's own path taken out of the TTS saved object."""
    return {name: (folder / name).read_bytes().replace(str(folder.resolve()).encode(), b"FOLDER")
            for name in png_names(folder)}


@pytest.mark.parametrize("cards", [MANY_FACES, DOUBLE_SIDED_CARDS], ids=["20 cards", "2 cards"])
def test_the_files_are_the_same_bytes_whatever_the_number_of_jobs(tmp_path, cards):
    deck = make_deck(tmp_path, cards)
    written = []
    for jobs in ("1", "2", "5"):
        out = tmp_path / f"jobs-{jobs}"
        result = deckpress("export", deck, "--png", out / "png", "--dpi", "40", "--tts", out / "tts", "-q",
                           "--jobs", jobs)
        assert result.exit_code == 0, result.stderr
        written.append((files(out / "png"), files(out / "tts")))
    assert written[0] == written[1] == written[2]
    png, tts = written[0]
    assert "test.contact-sheet.png" in png and "test.json" in tts
    piles = json.loads(tts["test.json"])["ObjectStates"]
    assert "test-backs-1.png" in tts if cards == DOUBLE_SIDED_CARDS else len(piles) == 2  # Back 0 and Back 1


@pytest.fixture
def rasterised(monkeypatch) -> list[tuple[int, int]]:
    """The pixel size of every page rasterised in this process from here on."""
    return count_rasterised_pages(monkeypatch)


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, str]]:
    """(card, side) of every face the renderer draws in this process from here on."""
    faces: list[tuple[str, str]] = []
    original = Renderer.draw

    def counting(self, canvas, card, side, bleed=False):
        faces.append((card.id, side))
        return original(self, canvas, card, side, bleed=bleed)
    monkeypatch.setattr(Renderer, "draw", counting)
    return faces


def test_png_and_tts_in_one_run_draw_each_face_once_for_both(tmp_path, drawn, rasterised):
    deck = make_deck(tmp_path, DOUBLE_SIDED_CARDS)
    result = deckpress("export", deck, "--png", tmp_path / "png", "--tts", tmp_path / "tts", "-q", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    faces = [("sun", "front"), ("sun", "back"), ("frog", "front"), ("frog", "back")]
    assert sorted(drawn) == sorted(faces * 2)  # once for both exports, once small on the contact sheet
    assert sorted(rasterised[:-1]) == [(750, 1050)] * 4 + [(2048, 2867)] * 4  # then the contact sheet


def test_pngs_with_bleed_draw_their_faces_apart_from_the_tts_sheets(tmp_path, drawn, rasterised):
    deck = make_deck(tmp_path, DOUBLE_SIDED_CARDS)
    result = deckpress("export", deck, "--png", tmp_path / "png", "--bleed", "--tts", tmp_path / "tts", "-q",
                       "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert len(drawn) == 12  # the sheets show no bleed: each face drawn for each export, and the contact sheet
    assert sorted(rasterised[:-1]) == [(825, 1125)] * 4 + [(2048, 2867)] * 4


def test_the_tts_sheets_are_the_same_with_or_without_pngs_beside_them(tmp_path):
    deck = make_deck(tmp_path, MANY_FACES)
    alone, beside = tmp_path / "alone", tmp_path / "beside"
    assert deckpress("export", deck, "--tts", alone, "-q").exit_code == 0
    assert deckpress("export", deck, "--png", tmp_path / "png", "--tts", beside, "-q").exit_code == 0
    assert files(alone) == files(beside)


def test_jobs_must_be_a_positive_number(tmp_path):
    result = deckpress("export", make_deck(tmp_path), "--png", tmp_path / "png", "--jobs", "0")
    assert result.exit_code == 2 and "--jobs" in result.stderr


def test_a_simulated_deficiency_changes_the_pngs_alone_on_any_number_of_jobs(tmp_path):
    deck = make_deck(tmp_path, DOUBLE_SIDED_CARDS)
    runs = {}
    for name, extra in (("plain", ()), ("seen-1", ("--simulate", "protanopia", "--jobs", "1")),
                        ("seen-2", ("--simulate", "protanopia", "--jobs", "2"))):
        out = tmp_path / name
        result = deckpress("export", deck, "--png", out / "png", "--tts", out / "tts", "-q", *extra)
        assert result.exit_code == 0, result.stderr
        runs[name] = (files(out / "png"), files(out / "tts"))
    assert runs["seen-1"] == runs["seen-2"]
    assert runs["seen-1"][1] == runs["plain"][1]  # the TTS deck shows the cards as printed
    assert runs["seen-1"][0]["sun-front.png"] != runs["plain"][0]["sun-front.png"]


def stopping_handlers(renderer, piece) -> list:
    """In a worker: what each stopping signal does there."""
    return [signal.getsignal(getattr(signal, name)) for name in ("SIGINT", "SIGTERM", "SIGHUP")]


def test_workers_leave_stopping_to_the_export():
    """Ctrl-C in a terminal reaches the workers too; one stopped while it reads its next task
    can leave the pool's queue locked and the export hanging. The export stops them itself."""
    with Workers(None, jobs=2) as workers:
        handlers = list(workers.map(stopping_handlers, [0, 1]))
    assert handlers == [[signal.SIG_IGN] * 3] * 2
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # the export itself still stops on Ctrl-C
