"""Forms are written with the same bytes reportlab itself writes for the same drawings.

FormLibrary encodes form operators and formats form dictionaries its own,
quicker way; these tests hold it to reportlab's output for every kind of
face: text in a subset font, transparency, gradients, images, marks.
"""

from PIL import Image
from reportlab.lib.utils import ImageReader

from generator.sheets.forms import FormLibrary, sheet_font
from generator.sheets.style import LineStyle

CARD = (-9.0, -9.0, 189.0, 261.0)
PAGE = (0.0, 0.0, 595.2756, 841.8898)


class ReportlabFormLibrary(FormLibrary):
    """Leaves every form to reportlab: the output FormLibrary must match."""

    def _end_form(self, form: str) -> None:
        self._canvas.endForm()

    def _share_form_dictionaries(self, doc) -> None:
        pass


def _text(words: str):
    def draw(canvas) -> None:
        canvas.setFont(sheet_font(), 9)
        canvas.drawString(10, 20, words)
        canvas.rect(0, 0, 180, 252)
    return draw


def _transparent(canvas) -> None:
    canvas.setFillAlpha(0.4)
    canvas.setFillColorRGB(0.9, 0.1, 0.1)
    canvas.rect(5, 5, 50, 50, fill=1, stroke=0)


def _gradient(canvas) -> None:
    canvas.linearGradient(0, 0, 180, 252, [(1, 0, 0), (0, 0, 1)], extend=False)


def _image(canvas) -> None:
    canvas.drawImage(ImageReader(Image.new("RGB", (4, 3), (200, 30, 30))), 10, 10, 40, 30)


def _compiled(library_class: type[FormLibrary], faces) -> object:
    library = library_class(title="Forms")
    for key, bbox, draw in faces:
        library.add(key, bbox, draw)
    library.add_lines("marks", [(0, 10, 20, 10), (10, 0, 10, 20)], LineStyle(0.25, 0.0), PAGE)
    library.prepare_text("page 1 of 2")
    return library.compile()


def test_plain_faces_are_written_as_reportlab_writes_them():
    faces = [(f"card {n}", CARD, _text(f"Card number {n}")) for n in range(30)]
    faces.append(("accented", CARD, _text("Crème brûlée (½) \\ done")))
    assert _compiled(FormLibrary, faces) == _compiled(ReportlabFormLibrary, faces)


def test_faces_with_transparency_gradients_and_images_are_written_as_reportlab_writes_them():
    faces = [("plain", CARD, _text("Plain")), ("alpha", CARD, _transparent), ("gradient", CARD, _gradient),
             ("image", CARD, _image), ("plain again", CARD, _text("Plain again")),
             ("alpha again", CARD, _transparent)]
    assert _compiled(FormLibrary, faces) == _compiled(ReportlabFormLibrary, faces)


def test_faces_of_two_sizes_keep_their_own_bounding_boxes():
    small = (0.0, 0.0, 100.0, 140.0)
    faces = [("big", CARD, _text("Big")), ("small", small, _text("Small")), ("big 2", CARD, _text("Big 2"))]
    compiled = _compiled(FormLibrary, faces)
    assert compiled == _compiled(ReportlabFormLibrary, faces)
    boxes = [chunk.split(b"/BBox ", 1)[1].split(b" ]", 1)[0] for _, chunk in compiled.objects if b"/BBox" in chunk]
    assert boxes[:3] == [b"[ -9 -9 189 261", b"[ 0 0 100 140", b"[ -9 -9 189 261"]


def test_a_face_whose_operators_are_not_plain_ascii_is_written_as_reportlab_writes_it():
    def commented(comment: str):
        def draw(canvas) -> None:
            _text(comment)(canvas)
            canvas.addLiteral(f"% {comment}")  # operators that are not plain ASCII: reportlab encodes them
        return draw

    faces = [(f"card {n}", CARD, _text(f"Card number {n}")) for n in range(20)]
    faces.insert(5, ("accent", CARD, commented("crème brûlée")))
    assert _compiled(FormLibrary, faces) == _compiled(ReportlabFormLibrary, faces)
