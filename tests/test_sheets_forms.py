"""Forms are written with the same bytes reportlab itself writes for the same drawings.

FormLibrary encodes form operators and formats form dictionaries its own,
quicker way; these tests hold it to reportlab's output for every kind of
face: text in a subset font, transparency, gradients, images, links, marks,
bounding boxes of every size and number type, and operators it leaves to
reportlab to encode. A reportlab that writes any of them otherwise fails here.
"""

import pytest
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


def _image_in_gradient(canvas) -> None:
    _gradient(canvas)
    _image(canvas)


def _everything(canvas) -> None:
    _text("All at once")(canvas)
    _transparent(canvas)
    _gradient(canvas)
    _image(canvas)


def _link(canvas) -> None:
    _text("Linked")(canvas)
    canvas.linkURL("https://example.org/", (10, 10, 60, 30))


def test_faces_with_transparency_and_images_but_no_gradient_are_written_as_reportlab_writes_them():
    faces = [("plain", CARD, _text("Plain")), ("alpha", CARD, _transparent), ("image", CARD, _image),
             ("plain again", CARD, _text("Plain again")), ("image again", CARD, _image)]
    assert _compiled(FormLibrary, faces) == _compiled(ReportlabFormLibrary, faces)


def test_faces_mixing_gradients_images_and_transparency_are_written_as_reportlab_writes_them():
    faces = [("gradient", CARD, _gradient), ("image in gradient", CARD, _image_in_gradient),
             ("everything", CARD, _everything), ("plain", CARD, _text("Plain")),
             ("everything again", CARD, _everything)]
    assert _compiled(FormLibrary, faces) == _compiled(ReportlabFormLibrary, faces)


def test_bounding_boxes_of_whole_and_fractional_numbers_are_written_as_reportlab_writes_them():
    faces = [("whole", (0, 0, 180, 252), _text("Whole")), ("fractional", (0.0, 0.0, 180.0, 252.0), _text("Float")),
             ("odd", (-9.25, -9.5, 189.125, 261.0625), _text("Odd")), ("whole again", (0, 0, 180, 252), _text("W"))]
    assert _compiled(FormLibrary, faces) == _compiled(ReportlabFormLibrary, faces)


def _unencodable(canvas) -> None:
    canvas.addLiteral("% \x18")  # a code PDFDocEncoding lacks


@pytest.mark.parametrize(("draw", "error"), [(_unencodable, UnicodeEncodeError), (_link, ValueError)],
                         ids=["operator outside PDFDocEncoding", "link"])
def test_a_face_reportlab_refuses_in_a_form_is_refused_alike(draw, error):
    faces = [("plain", CARD, _text("Plain")), ("refused", CARD, draw)]
    for library in (FormLibrary, ReportlabFormLibrary):
        with pytest.raises(error):
            _compiled(library, faces)
