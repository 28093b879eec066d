"""A deck of very many copies of a few cards: only the different faces are ever drawn."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from PIL import Image
from test_export import make_deck, png_names

import generator.exports.raster as raster_module
from generator.deck.model import load_deck
from generator.exports import load_export_renderer, plan_png_export, plan_tts_export, write_png_export
from generator.exports.tts import saved_object_text
from generator.exports.workers import Workers
from generator.exports.writing import ExportRun, stage_exports

MANY_COPIES = """\
back: {name: Back}
cards:
  - {id: coin, count: 50000, name: Coin, colour: yellow}
  - {id: gem, count: 30000, name: Gem, colour: green}
  - {id: rock, count: 20000, name: Rock, colour: red}
"""


@pytest.fixture
def drawn_pages(monkeypatch) -> list[tuple[int, int]]:
    """The pixel size of every page rasterised from here on, one entry a page."""
    return count_rasterised_pages(monkeypatch)


def count_rasterised_pages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """A list that gets the pixel size of every page rasterised from now on."""
    pages: list[tuple[int, int]] = []
    original = raster_module.render_pdf

    def counting(data, sizes):
        for image in original(data, sizes):
            pages.append(image.size)
            yield image
    monkeypatch.setattr(raster_module, "render_pdf", counting)
    return pages


def test_tts_draws_each_different_face_once_for_100000_copies(tmp_path, drawn_pages):
    renderer = load_export_renderer(load_deck(make_deck(tmp_path, MANY_COPIES)))
    export = plan_tts_export(renderer, tmp_path / "tts")
    assert [(sheet.columns, sheet.rows, len(sheet.faces.faces)) for sheet in export.sheets] == [(2, 2, 3)]
    card_px = export.sheets[0].faces.card_px
    run = ExportRun(tts=export)
    try:
        with Workers(renderer, jobs=1) as workers:
            for path in stage_exports(run, workers):
                if path == export.sheets[-1].faces.path:
                    break  # every image is drawn; the saved object is checked below without writing it
        assert drawn_pages == [card_px] * 4  # the back, then coin, gem and rock
        with Image.open(run.tts_files.temp / "test-faces-1.png") as sheet:
            assert sheet.size == (2 * card_px[0], 2 * card_px[1])
    finally:
        run.tts_files.discard()
    [state] = json.loads("".join(saved_object_text(export)))["ObjectStates"]
    assert len(state["DeckIDs"]) == len(state["ContainedObjects"]) == 100_000
    assert Counter(state["DeckIDs"]) == Counter({100: 50_000, 101: 30_000, 102: 20_000})
    assert len({card["GUID"] for card in state["ContainedObjects"]}) == 100_000
    assert not (tmp_path / "tts").exists()


def test_png_draws_each_different_face_once_for_100000_copies(tmp_path, drawn_pages):
    renderer = load_export_renderer(load_deck(make_deck(tmp_path, MANY_COPIES)))
    export = plan_png_export(renderer, tmp_path / "png", dpi=10)
    list(write_png_export(export))
    assert png_names(tmp_path / "png") == ["coin-front.png", "gem-front.png", "rock-front.png", "test.back.png",
                                           "test.contact-sheet.png"]
    assert drawn_pages[:4] == [export.raster.size_px] * 4 and len(drawn_pages) == 5  # + the contact sheet


def test_the_saved_object_is_written_as_the_json_module_would_write_it(tmp_path):
    """Each card's entry is encoded once and written with each copy's GUID: the json module's own text."""
    renderer = load_export_renderer(load_deck(make_deck(tmp_path, MANY_COPIES.replace("count: 50000", "count: 500")
                                                        .replace("count: 30000", "count: 300")
                                                        .replace("count: 20000", "count: 200"))))
    export = plan_tts_export(renderer, tmp_path / "tts")
    text = "".join(saved_object_text(export))
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False)
