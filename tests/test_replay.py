"""Faces that draw the same element replay its drawing: the PDF is byte for byte the same as
drawing every element afresh with reportlab, and what must be drawn in each form (images,
gradients) still is.

Every kind of operation a layout draws is replayed in its own deck below (shapes, lines,
text of every sort with its icons, their labels and its rules, icons, a draft's overflowing
text), so a reportlab whose drawing depends on something a replay does not restore fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import deckpress
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from test_render import make_deck

import generator.render.replay as replay_module
from generator.render.plan import IconOp, InlineIcon, LineOp, ShapeOp, TextOp, TextRule

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


MANY_GLYPHS = " ".join("".join(chr(code) for code in range(start, start + 16) if chr(code).isprintable())
                       for start in (*range(0x100, 0x180, 16), *range(0x391, 0x3c1, 16), *range(0x410, 0x450, 16)))
"""Some 250 characters besides the rest of a face's: past one font subset's 256 codes."""
KIND_CARDS = "".join(f"  - {{id: card-{n}, name: Card {n}, kind: {('monster', 'spell')[n % 2]}, roll: {n % 3 + 1}, "
                     f"text: {('Bite twice and then once more.', 'Zap a monster.')[n % 2]}}}\n" for n in range(8))
"""Eight distinct faces, whose elements repeat from card to card (by kind, roll and text)."""
KINDS = {
    "shapes": """\
  - {name: ground, rect: card, fill: '#f4efe6', bleed: true}
  - {name: frame, rect: [3, 3, 57.5, 82.9], radius: 3, stroke: '#333333', width: 0.5mm, dash: [1, 0.5]}
  - {name: panel, rect: [5, 40, 53.5, 20], fill: '#2d63b380', stroke: '#2d63b3'}
  - {name: badge, ellipse: [45, 5, 12, 12], fill: '#b3261e', stroke: '#000000', width: 0.3mm, dash: [0.5, 0.5]}
  - {name: seal, ellipse: [5, 70, 10, 10], fill: '#ffcc00', opacity: 0.5, when: {kind: monster}}
  - {name: tilted, rect: [20, 70, 10, 10], stroke: '#333333', rotate: 30}
""",
    "lines": """\
  - {name: rule, line: [5, 30, 58.5, 30], stroke: '#333333', width: 0.4mm}
  - {name: dashed, line: [5, 35, 58.5, 35], stroke: ink, width: 0.2mm, dash: [1, 1]}
  - {name: slant, line: [5, 40, 58.5, 60], stroke: '#b3261e', rotate: 15, when: {kind: spell}}
  - {name: faded, line: [5, 45, 58.5, 45], stroke: '#b3261e', opacity: 0.5}
  - {name: plain, line: [5, 65, 58.5, 65], stroke: '#333333'}
""",
    "text": """\
  - {name: kind, text: "**{{ kind }}** and *more*", box: [5, 12, 53.5, 6], size: 8, font: Vera-Italic}
  - {name: styled, text: "[Burn]{.burn} a [monster]{.faint}", box: [5, 20, 53.5, 6], size: 8}
  - {name: rules, text: "{{ text }}", box: [5, 28, 20, 12], fit: wrap, align: justify, size: 8}
  - {name: right, text: "{{ kind }}", box: [5, 42, 53.5, 5], align: right, colour: '#2d63b3aa'}
  - {name: turned, text: "{{ kind }}", box: [5, 48, 30, 6], rotate: 90}
  - {name: faded, text: "{{ kind }}", box: [35, 48, 20, 6], opacity: 0.6}
  - {name: coins, text: "Pay :coin: :star: to {{ kind }}", box: [5, 56, 53.5, 6], size: 8}
  - {name: labels, text: "Pay :coin{2}: :coin{10}: to {{ kind }}\\n---\\n:die-1{X}: more", box: [30, 34, 28, 12],
     fit: wrap, size: 7, icon_scale: 1.6, colour: '#2d63b3', when: {kind: monster}}
  - {name: ruled, text: "{{ kind }}\\n---\\nonce more", box: [30, 34, 28, 12], opacity: 0.5, rotate: 90}
  - {name: fallback, text: "Ωmega ½ “quoted” (parens) \\\\ back", box: [5, 63, 53.5, 6], font: [Vera-Bold, DejaVuSans]}
  - {name: many, text: "MANY_GLYPHS", box: [4, 68, 55.5, 15], fit: wrap, size: 4, min_size: 2}
""".replace("MANY_GLYPHS", MANY_GLYPHS),
    "icons": """\
  - {name: roll, icon: dot, repeat: "{{ roll }}", box: [10, 40, 43.5, 4], colour: '#2d63b3'}
  - {name: chest, icon: chest, box: [5, 50, 10, 10], colour: ink, accent: '#ffcc00'}
  - {name: column, icon: coin, repeat: 3, direction: column, gap: 1, box: [50, 50, 6, 20], opacity: 0.5}
  - {name: turned, icon: "{{ 'flame' if kind == 'spell' else 'frog' }}", box: [20, 60, 10, 10], rotate: 45}
""",
    "draft overflow": """\
  - {name: cramped, text: "{{ text }} {{ text }} {{ text }}", box: [5, 40, 12, 4], size: 9, min_size: 8}
  - {name: after, rect: [5, 50, 10, 10], fill: '#2d63b3'}
""",
}
"""Layout elements of each kind of operation (below :data:`KIND_HEAD`). Their Vera fonts are not
Vera.ttf itself, which the sheets' own font shares: registered first by another test, reportlab
would hand that font out for "Vera" and the footer's font could change between two builds."""
KIND_HEAD = """\
title: "{{ name }}"
styles:
  burn: {colour: '#e0601e', bold: true}
  faint: {colour: '#33333380', italic: true}
elements:
  - {name: title, text: "{{ name }}", box: [5, 5, 53.5, 6], size: 12, align: center}
"""
"""Every deck's faces are told apart by their title."""
KIND_OPERATIONS = {"shapes": ShapeOp, "lines": LineOp, "text": TextOp, "icons": IconOp, "draft overflow": TextOp}
"""The operation each deck's elements plan into (besides its title's text)."""


def recording_replays(monkeypatch) -> list:
    """Every operation replayed rather than drawn, from now on."""
    replayed: list[object] = []
    original = replay_module.Replay.draw

    def draw(self, canvas, operations, draw, replayable) -> None:
        operations = tuple(operations)
        drawn = set()

        def drawing(operation) -> None:
            drawn.add(id(operation))
            draw(operation)

        original(self, canvas, operations, drawing, replayable)
        replayed.extend(operation for operation in operations if id(operation) not in drawn)

    monkeypatch.setattr(replay_module.Replay, "draw", draw)
    return replayed


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_operation_replays_the_bytes_reportlab_writes_for_it(tmp_path, monkeypatch, kind):
    folder = make_deck(tmp_path, KIND_HEAD + KINDS[kind], cards=KIND_CARDS).folder
    options = ["--quiet", "--no-check", "--bleed", *(["--draft"] if kind == "draft overflow" else [])]
    replayed = recording_replays(monkeypatch)
    assert deckpress("build", folder, *options, "--out", tmp_path / "replayed").exit_code == 0
    replayed_kind = [operation for operation in replayed if isinstance(operation, KIND_OPERATIONS[kind])]
    if kind == "text":  # a labelled icon and a rule among what was replayed
        pieces = [piece for operation in replayed_kind for line in operation.text_lines for piece in line.pieces]
        assert any(isinstance(piece, InlineIcon) and piece.label for piece in pieces)
        assert any(isinstance(piece, TextRule) for piece in pieces)
    if kind == "draft overflow":
        assert any(operation.overflow is not None for operation in replayed_kind)
    else:  # turned ones too (a faded one sets a transparency state, named form by form: drawn each time)
        assert any(operation.frame is not None for operation in replayed_kind)
    monkeypatch.setattr(replay_module.Replay, "draw", never_replaying)
    assert deckpress("build", folder, *options, "--out", tmp_path / "afresh").exit_code == 0
    assert (tmp_path / "replayed" / "test.pdf").read_bytes() == (tmp_path / "afresh" / "test.pdf").read_bytes()


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
