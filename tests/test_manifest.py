"""The layout manifest: every placement's fields, one placement a line, with no space to spare."""

from __future__ import annotations

import json

from cli_run import CARDS, deckpress

FIELDS = {"deck", "card", "face", "title", "copy", "page", "trim_box", "rotation", "fields"}


def test_each_placement_is_one_line_of_json_without_spaces_and_keeps_every_field(tmp_path):
    assert deckpress("build", CARDS / "cereal-killer", "--quiet", "--duplex", "fold", "--out", tmp_path).exit_code == 0
    text = (tmp_path / "cereal-killer.fold.json").read_text(encoding="utf-8")  # the duplex mode names it
    manifest = json.loads(text)
    placements = manifest["placements"]
    assert len(placements) == 2 * manifest["cards"] == 304
    lines = text.splitlines()[1:-1]  # the settings open the file, the closing brackets end it
    assert len(lines) == len(placements)
    for line, placement in zip(lines, placements, strict=True):
        assert set(placement) == FIELDS
        assert line.rstrip(",") == json.dumps(placement, separators=(",", ":"), ensure_ascii=False)
    turned = {placement["rotation"] for placement in placements if placement["face"] == "back"}
    assert turned == {180}  # folded across the page: the backs are turned
    assert placements[0]["trim_box"] == [round(value, 3) for value in placements[0]["trim_box"]]
