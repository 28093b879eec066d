"""The layout manifest: every placement's fields, one placement a line, with no space to spare."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import CARDS, deckpress
from reportlab import __file__ as reportlab_file

FIELDS = {"deck", "card", "face", "title", "copy", "page", "trim_box", "rotation", "fields"}


def test_each_placement_is_one_line_of_json_without_spaces_and_keeps_every_field(tmp_path):
    assert deckpress("build", CARDS / "cereal-killer", "--quiet", "--duplex", "fold", "--out", tmp_path).exit_code == 0
    text = (tmp_path / "cereal-killer.fold.json").read_text(encoding="utf-8")  # the duplex mode names it
    manifest = json.loads(text)
    placements = manifest["placements"]
    assert len(placements) == 2 * manifest["cards"] == 304
    lines = text.splitlines()[1:len(placements) + 1]  # the settings open the file; the deck's cards follow
    assert text.splitlines()[len(placements) + 1] == '],"fingerprints":"drawing-1","deck_cards":['
    assert len(text.splitlines()) == len(placements) + 3 + len(manifest["deck_cards"])  # one card a line
    for line, placement in zip(lines, placements, strict=True):
        assert set(placement) == FIELDS
        assert line.rstrip(",") == json.dumps(placement, separators=(",", ":"), ensure_ascii=False)
    turned = {placement["rotation"] for placement in placements if placement["face"] == "back"}
    assert turned == {180}  # folded across the page: the backs are turned
    assert placements[0]["trim_box"] == [round(value, 3) for value in placements[0]["trim_box"]]


VERA_FILES = {"regular": "reportlab:Vera.ttf", "bold": "reportlab:VeraBd.ttf", "italic": "reportlab:VeraIt.ttf",
              "bold-italic": "reportlab:VeraBI.ttf"}


def test_a_bundled_deck_records_its_fonts_by_their_names_inside_the_packages(tmp_path):
    assert deckpress("build", CARDS / "tiki", "--quiet", "--out", tmp_path).exit_code == 0
    manifest = json.loads((tmp_path / "tiki.json").read_text(encoding="utf-8"))
    assert manifest["fonts"] == {"Vera": VERA_FILES}
    assert list(manifest)[-4:] == ["fonts", "placements", "fingerprints", "deck_cards"]  # after every setting


def test_fonts_from_the_deck_and_the_project_are_recorded_relative_to_their_folders(tmp_path):
    vera = Path(reportlab_file).parent / "fonts"
    folder = tmp_path / "cards" / "own"
    (folder / "fonts").mkdir(parents=True)
    (folder / "fonts" / "Hand.ttf").write_bytes((vera / "VeraIt.ttf").read_bytes())
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Label.ttf").write_bytes((vera / "Vera.ttf").read_bytes())
    (folder / "deck.yaml").write_text("deck: {name: Own, layout: own}\nback: {name: B}\ncards:\n  - {id: a, name: A}\n")
    (folder / "own.yaml").write_text(
        "size: poker\nelements:\n"
        "  - {text: '{{ name }}', box: [5, 5, 50, 10], font: [Hand, Label]}\n"
        "  - {text: '{{ name }}', box: [5, 20, 50, 10]}\n")  # no font: DejaVuSans
    run = deckpress("build", folder, "--quiet", "--out", tmp_path / "out")
    assert run.exit_code == 0, run.stderr
    manifest = json.loads((tmp_path / "out" / "own.json").read_text(encoding="utf-8"))
    assert manifest["fonts"] == {
        "DejaVuSans": {"regular": "deckpress:DejaVuSans.ttf", "bold": "deckpress:DejaVuSans-Bold.ttf",
                       "italic": "deckpress:DejaVuSans-Oblique.ttf",
                       "bold-italic": "deckpress:DejaVuSans-BoldOblique.ttf"},
        "Hand": {"regular": "deck:fonts/Hand.ttf"},
        "Label": {"regular": "project:fonts/Label.ttf"},
    }
