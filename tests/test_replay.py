"""Faces that draw the same element replay its drawing: the PDF is byte for byte the same as
drawing every element afresh, and what must be drawn in each form (images, gradients) still is."""

from __future__ import annotations

from pathlib import Path

from cli_run import deckpress
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from test_render import make_deck

import generator.render.replay as replay_module

FLAG = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
  <rect x="0" y="0" width="200" height="100" fill="#ffcc00"/>
  <circle cx="100" cy="50" r="40" fill="#00aa00"/>
</svg>
"""
LAYOUT = """\
title: "{{ name }}"
elements:
  - {name: ground, rect: card, fill: {linear: ['#ffffff', '#ccccdd'], angle: 90}, bleed: true}
  - {name: frame, rect: [3, 3, 57.5, 82.9], radius: 3, stroke: '#333333', width: 0.5mm}
  - {name: badge, ellipse: [45, 5, 12, 12], fill: '#b3261e', opacity: 0.6}
  - {name: title, text: "{{ name }}", box: [5, 20, 53.5, 8], size: 12, align: center}
  - {name: kind, text: "**{{ kind }}**", box: [5, 30, 53.5, 6], size: 8, align: center, rotate: 180}
  - {name: roll, icon: dot, repeat: "{{ roll }}", box: [10, 40, 43.5, 4], colour: '#2d63b3'}
  - {name: flag, image: art/flag.svg, box: [10, 50, 20, 10]}
  - {name: photo, image: art/photo.png, box: [35, 50, 20, 10], fit: cover}
  - {name: rules, text: "{{ text }}", box: [5, 65, 53.5, 15], size: 8}
"""
CARDS = "".join(f"  - {{id: card-{n}, name: Card {n}, kind: {('monster', 'spell')[n % 2]}, roll: {n % 4 + 1}, "
                f"text: {('Bite twice.', 'Zap a monster.')[n % 2]}}}\n" for n in range(12))


def project(tmp_path: Path) -> Path:
    deck = make_deck(tmp_path, LAYOUT, cards=CARDS)
    art = deck.folder / "art"
    art.mkdir()
    (art / "flag.svg").write_text(FLAG)
    Image.new("RGB", (40, 20), (200, 120, 40)).save(art / "photo.png")
    return deck.folder


def never_replaying(self, canvas, operations, draw, replayable) -> None:
    for operation in operations:
        draw(operation)


def test_replaying_gives_the_bytes_of_drawing_every_face_afresh(tmp_path, monkeypatch):
    folder = project(tmp_path)
    assert deckpress("build", folder, "--quiet", "--no-check", "--out", tmp_path / "replayed").exit_code == 0
    monkeypatch.setattr(replay_module.Replay, "draw", never_replaying)
    assert deckpress("build", folder, "--quiet", "--no-check", "--out", tmp_path / "afresh").exit_code == 0
    replayed = (tmp_path / "replayed" / "test.pdf").read_bytes()
    assert replayed == (tmp_path / "afresh" / "test.pdf").read_bytes()
    forms = [form.get_object() for form in PdfReader(tmp_path / "replayed" / "test.pdf")
             .pages[0]["/Resources"]["/XObject"].values()]
    faces = [form for form in forms if float(form["/BBox"][2]) < 200]  # card-sized: not the crop marks
    assert len(faces) == 13  # twelve fronts and the back
    for face in faces:  # each names its gradient, its image and its transparency in its own resources
        assert {"/Shading", "/XObject", "/ExtGState"} <= set(face["/Resources"])


def test_a_drawing_that_adds_to_the_form_s_resources_is_never_replayed():
    canvas = Canvas("unused.pdf")
    replay = replay_module.Replay()
    operation = object()
    drawn = []

    def draw_image() -> None:
        drawn.append(1)
        canvas._formsinuse.append("FormXob.photo")  # what drawImage does
        canvas._code.append("/FormXob.photo Do")

    for _ in range(3):
        replay.draw(canvas, [operation], lambda _: draw_image(), replayable=lambda _: True)
    assert len(drawn) == 3 and canvas._formsinuse.count("FormXob.photo") == 3


def test_a_plain_drawing_is_replayed_with_its_operators_and_state():
    canvas = Canvas("unused.pdf")
    replay = replay_module.Replay()
    operation = object()
    drawn = []

    def draw_red_box() -> None:
        drawn.append(1)
        canvas.setFillColorRGB(1, 0, 0)
        canvas.rect(0, 0, 10, 10, fill=1, stroke=0)

    replay.draw(canvas, [operation], lambda _: draw_red_box(), replayable=lambda _: True)
    canvas.setFillColorRGB(0, 0, 0)  # back to the state the first drawing started in
    first = list(canvas._code)
    replay.draw(canvas, [operation], lambda _: draw_red_box(), replayable=lambda _: True)
    assert len(drawn) == 1  # the second time is a replay
    assert canvas._code[len(first):] == first[first.index("1 0 0 rg"):-1]
    assert canvas._fillColorObj == (1, 0, 0)


def test_drawings_in_a_row_replay_in_the_state_each_leaves_and_an_unreplayable_one_breaks_no_chain():
    canvas = Canvas("unused.pdf")
    replay = replay_module.Replay()
    red, photo, blue = object(), object(), object()
    drawn = []

    def draw(operation) -> None:
        drawn.append(operation)
        if operation is red:
            canvas.setFillColorRGB(1, 0, 0)
            canvas.rect(0, 0, 10, 10, fill=1, stroke=0)
        elif operation is blue:  # drawn after the red one: it must not set the red again
            canvas.setFillColorRGB(0, 0, 1)
            canvas.setFillColorRGB(1, 0, 0)
            canvas.rect(5, 5, 10, 10, fill=1, stroke=0)
        else:
            canvas.setFillColorRGB(0, 1, 0)  # a drawing that leaves its own state behind

    operations = [red, photo, blue]
    replay.draw(canvas, operations, draw, replayable=lambda operation: operation is not photo)
    first = list(canvas._code)
    canvas.setFillColorRGB(0, 0, 0)
    start = len(canvas._code)
    replay.draw(canvas, operations, draw, replayable=lambda operation: operation is not photo)
    assert drawn == [red, photo, blue, photo]  # only the unreplayable one is drawn again
    assert canvas._code[start:] == first
    assert canvas._fillColorObj == (1, 0, 0)
