"""An export run is all or nothing, and a re-export cleans up only what the deck's earlier export wrote."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from cli_run import deckpress
from test_export import DOUBLE_SIDED_CARDS, SHARED_BACK_CARDS, make_deck, png_names

import generator.exports.raster as raster_module
import generator.exports.tts as tts_module
from generator.deck.model import load_deck
from generator.exports import load_export_renderer, plan_png_export, write_png_export


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder``, hidden ones too, with its bytes."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def fail_on_call(number: int, original):
    """``original``, except that call ``number`` fails as a full disk would."""
    calls = []

    def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) == number:
            raise OSError(errno.ENOSPC, "No space left on device")
        return original(*args, **kwargs)
    return failing


def fail_after_faces(count: int, original):
    """A ``rasterise_faces_at`` that draws ``count`` faces, then fails."""
    def failing(*args, **kwargs):
        for index, image in enumerate(original(*args, **kwargs)):
            if index == count:
                raise OSError(errno.ENOSPC, "No space left on device")
            yield image
    return failing


def change_deck(folder: Path, old: str, new: str) -> None:
    deck_file = folder / "deck.yaml"
    text = deck_file.read_text()
    assert old in text
    deck_file.write_text(text.replace(old, new))


# --- a failed or interrupted run changes nothing --------------------------------------------------

def test_png_export_failing_on_a_later_face_leaves_the_previous_export_untouched(tmp_path, monkeypatch):
    deck = make_deck(tmp_path)
    out = tmp_path / "out"
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    before = snapshot(out)
    change_deck(deck, "name: Ogre, colour: red", "name: Ogre, colour: blue")
    monkeypatch.setattr(raster_module, "png_bytes", fail_on_call(2, raster_module.png_bytes))
    run = deckpress("export", deck, "--png", out, "--dpi", "20", "-q", "--jobs", "1")
    assert run.exit_code == 2
    assert run.error_lines == ["error: No space left on device"]
    assert snapshot(out) == before  # ogre-front.png still the red one, and no temporary files


def test_tts_export_failing_on_the_nth_face_leaves_the_previous_export_untouched(tmp_path, monkeypatch):
    deck = make_deck(tmp_path, DOUBLE_SIDED_CARDS)
    out = tmp_path / "tts"
    assert deckpress("export", deck, "--tts", out, "-q").exit_code == 0
    before = snapshot(out)
    change_deck(deck, "name: Sun, colour: red", "name: Sun, colour: green")
    # The face sheet is made and staged; making the back sheet fails.
    monkeypatch.setattr(tts_module, "png_from_bands", fail_on_call(2, tts_module.png_from_bands))
    assert deckpress("export", deck, "--tts", out, "-q").exit_code == 2
    assert snapshot(out) == before


def test_a_disk_filling_up_as_the_files_are_flushed_leaves_the_previous_export_untouched(tmp_path, monkeypatch):
    """Every file is flushed to disk before any is put in place: the full disk is reported with the
    file it concerns, and nothing of the run is left."""
    deck = make_deck(tmp_path)
    out = tmp_path / "out"
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    before = snapshot(out)
    change_deck(deck, "name: Ogre, colour: red", "name: Ogre, colour: blue")
    monkeypatch.setattr(os, "fsync", fail_on_call(3, os.fsync))
    run = deckpress("export", deck, "--png", out, "--dpi", "20", "-q", "--jobs", "1")
    assert run.exit_code == 2
    [line] = run.error_lines
    assert line.startswith(f"error: {out}{os.sep}") and line.endswith(".png: No space left on device"), line
    assert snapshot(out) == before


def test_no_sheets_without_their_saved_object(tmp_path, monkeypatch):
    deck = make_deck(tmp_path)
    monkeypatch.setattr(tts_module, "saved_object_text", fail_on_call(1, tts_module.saved_object_text))
    assert deckpress("export", deck, "--tts", tmp_path / "build" / "tts", "-q").exit_code == 2
    assert not (tmp_path / "build").exists()  # the folders the run made go too


def test_png_and_tts_in_one_run_land_together_or_not_at_all(tmp_path, monkeypatch):
    """The failure happens in a worker process; the run still writes nothing."""
    deck = make_deck(tmp_path)
    monkeypatch.setattr(raster_module, "rasterise_faces_at", fail_after_faces(1, raster_module.rasterise_faces_at))
    run = deckpress("export", deck, "--png", tmp_path / "png", "--tts", tmp_path / "tts", "--dpi", "20", "-q",
                    "--jobs", "2")
    assert run.exit_code == 2
    assert not (tmp_path / "png").exists() and not (tmp_path / "tts").exists()


def test_an_interrupted_export_leaves_no_trace(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    renderer = load_export_renderer(load_deck(make_deck(tmp_path)))
    writer = write_png_export(plan_png_export(renderer, out, dpi=10))
    next(writer)  # one face written
    with pytest.raises(KeyboardInterrupt):
        writer.throw(KeyboardInterrupt)  # what Ctrl-C does between two steps
    assert snapshot(out) == {"notes.txt": b"mine"}


# --- re-exporting removes what the deck no longer has, and only that ------------------------------

def test_re_export_removes_a_removed_cards_png_and_keeps_other_files(tmp_path):
    deck = make_deck(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("print these on matte stock")
    (out / "mascot-front.png").write_bytes(b"not ours")
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    assert "imp-front.png" in png_names(out)
    change_deck(deck, "  - {id: imp, name: Imp, colour: green}\n", "")
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    assert png_names(out) == ["mascot-front.png", "notes.txt", "ogre-front.png", "test.back.png",
                              "test.contact-sheet.png"]
    assert (out / "notes.txt").read_text() == "print these on matte stock"
    assert (out / "mascot-front.png").read_bytes() == b"not ours"


def test_re_export_keeps_other_decks_files_in_a_shared_tts_folder(tmp_path):
    ours = make_deck(tmp_path, DOUBLE_SIDED_CARDS)
    other = make_deck(tmp_path, SHARED_BACK_CARDS, name="other")
    out = tmp_path / "tts"
    for deck in (ours, other):
        assert deckpress("export", deck, "--tts", out, "-q").exit_code == 0
    assert "test-backs-1.png" in png_names(out)
    # Our cards now share one back: the back sheet gives way to a single back image.
    change_deck(ours, ", back: {name: Moon, colour: blue}", "")
    change_deck(ours, ", back: {name: Toad}", "")
    change_deck(ours, "cards:\n", "back: {name: Moon}\ncards:\n")
    assert deckpress("export", ours, "--tts", out, "-q").exit_code == 0
    assert png_names(out) == ["other-back.png", "other-faces-1.png", "other.json",
                              "test-back.png", "test-faces-1.png", "test.json"]
    assert json.loads((out / "test.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]["BackURL"] \
        .endswith("/test-back.png")


def test_a_manifest_naming_files_outside_the_folder_deletes_nothing_there(tmp_path):
    deck = make_deck(tmp_path)
    out = tmp_path / "out"
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    outside = tmp_path / "precious.txt"
    outside.write_text("keep")
    (out / ".deckpress-test-png.json").write_text(json.dumps(
        {"files": ["../precious.txt", str(outside), "..", ".", "ogre-front.png"]}))
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    assert outside.read_text() == "keep"
    assert "ogre-front.png" in png_names(out)


def test_a_broken_manifest_is_replaced_without_deleting_anything(tmp_path):
    deck = make_deck(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / ".deckpress-test-png.json").write_text("{not json")
    (out / "old-front.png").write_bytes(b"?")
    assert deckpress("export", deck, "--png", out, "--dpi", "20", "-q").exit_code == 0
    assert "old-front.png" in png_names(out)
    manifest = json.loads((out / ".deckpress-test-png.json").read_text())
    assert sorted(manifest["files"]) == ["imp-front.png", "ogre-front.png", "test.back.png", "test.contact-sheet.png"]
