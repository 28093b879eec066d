"""How long ``deckpress export`` takes on the bundled decks, and what one shared PDF saves.

Run by hand from the repository root (it is not part of the test suite)::

    .venv/bin/python benchmarks/bench_export.py

For each bundled deck, in a fresh Python process each (so peak memory is the
deck's own), it reports the seconds spent on:

- checking every face (planning text, without drawing),
- the card PNGs at 300 dpi with bleed (rasterising and encoding),
- the contact sheet,
- the Tabletop Simulator sheets and saved object,

and the peak resident memory. It then rasterises one deck's fronts twice, once
as one PDF with a page per face (what the export does) and once as a PDF per
face, to show why faces share a document. Last, a generated deck of 100,000
copies of three cards shows what a deck of very many copies costs: its images
are three faces and a back, but the saved object lists every copy. Timings
are printed, never asserted.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
GAMES = ("cereal-killer", "goblins", "gold-rush", "tiki")


def measure_deck(game: str) -> dict:
    """One deck's export, stage by stage (runs inside a child process)."""
    from generator.deck import load_deck
    from generator.exports import (
        load_export_renderer,
        plan_png_export,
        plan_tts_export,
        write_png_export,
        write_tts_export,
    )
    from generator.exports.contact import contact_sheet
    from generator.exports.raster import png_bytes

    times = {}
    started = time.perf_counter()
    renderer = load_export_renderer(load_deck(REPOSITORY / "cards" / game))
    times["check faces"] = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        png = plan_png_export(renderer, Path(folder) / "png", 300, bleed=True)
        started = time.perf_counter()
        written = list(write_png_export(png))
        times["PNGs + contact sheet"] = time.perf_counter() - started
        started = time.perf_counter()
        png_bytes(contact_sheet(renderer))
        times["  of which contact sheet"] = time.perf_counter() - started
        started = time.perf_counter()
        list(write_tts_export(plan_tts_export(renderer, Path(folder) / "tts")))
        times["TTS"] = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"game": game, "faces": len(png.faces), "files": len(written), "times": times, "peak_mb": peak_mb}


def measure_batching(game: str) -> dict:
    """Fronts at 150 dpi: one PDF with a page per face against one PDF per face."""
    from generator.deck import load_deck
    from generator.exports import load_export_renderer
    from generator.exports.raster import Raster, rasterise_face, rasterise_faces

    renderer = load_export_renderer(load_deck(REPOSITORY / "cards" / game))
    raster = Raster.at_dpi(renderer.card_size, 0.0, 150)
    faces = [(card, "front") for card in renderer.deck.cards]
    started = time.perf_counter()
    list(rasterise_faces(renderer, faces, raster))
    shared = time.perf_counter() - started
    started = time.perf_counter()
    for card, side in faces:
        rasterise_face(renderer, card, side, raster)
    separate = time.perf_counter() - started
    return {"game": game, "faces": len(faces), "one document": shared, "a document each": separate}


MANY_COPIES_DECK = """\
deck: {name: Many Copies, layout: plain}
fields: {name: {type: text, required: true}}
back: {name: Back}
cards:
  - {id: coin, count: 50000, name: Coin}
  - {id: gem, count: 30000, name: Gem}
  - {id: rock, count: 20000, name: Rock}
"""
MANY_COPIES_LAYOUT = """\
size: poker
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53.5, 10], size: 12}
"""


def measure_many_copies(_game: str) -> dict:
    """The TTS export of 100,000 copies of three cards: seconds, peak memory and the JSON's size."""
    from generator.deck import load_deck
    from generator.exports import load_export_renderer, plan_tts_export, write_tts_export

    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        (project / "cards" / "many").mkdir(parents=True)
        (project / "cards" / "many" / "deck.yaml").write_text(MANY_COPIES_DECK)
        (project / "layouts").mkdir()
        (project / "layouts" / "plain.yaml").write_text(MANY_COPIES_LAYOUT)
        started = time.perf_counter()
        export = plan_tts_export(load_export_renderer(load_deck(project / "cards" / "many")), project / "tts")
        list(write_tts_export(export))
        seconds = time.perf_counter() - started
        json_mb = export.json_path.stat().st_size / 1e6
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": peak_mb, "json_mb": json_mb}


def in_child(function: str, game: str) -> dict:
    output = subprocess.run([sys.executable, __file__, "--child", function, game], cwd=REPOSITORY,
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main() -> None:
    for game in GAMES:
        result = in_child("measure_deck", game)
        print(f"{game}: {result['faces']} face images, peak {result['peak_mb']:.0f} MB")
        for stage, seconds in result["times"].items():
            print(f"  {stage:<26} {seconds:6.2f} s")
    result = in_child("measure_batching", "gold-rush")
    print(f"\n{result['faces']} Gold Rush fronts at 150 dpi: one PDF {result['one document']:.2f} s, "
          f"a PDF each {result['a document each']:.2f} s")
    result = in_child("measure_many_copies", "")
    print(f"\nTTS export of 100,000 copies of 3 cards: {result['seconds']:.1f} s, peak {result['peak_mb']:.0f} MB, "
          f"saved object {result['json_mb']:.0f} MB")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        sys.path.insert(0, str(REPOSITORY))
        print(json.dumps(globals()[sys.argv[2]](sys.argv[3])))
    else:
        main()
