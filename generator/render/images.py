"""Raster art: checked before it is decoded, downsampled to print resolution before embedding.

Planning reads each image once: its header first (the pixel count must stay
under :data:`MAX_IMAGE_PIXELS`, so a "decompression bomb" is refused before a
byte of it is decoded), then the whole image, so a corrupt or truncated file
stops ``check`` with the file named instead of surfacing as a drawing error.

Drawing embeds each image at the resolution its box needs when printed: an
image with more pixels than ``dpi`` (300 unless the element says up to 600)
asks for at its drawn size is resampled once, in memory; the file on disk is
never touched. A ``cover`` image is cropped to what shows. Smaller images are
embedded as they are (JPEG files byte for byte). Art converted on its way in (a print
shop's CMYK) goes through an :data:`ArtConversion`, which also chooses how it is resampled.
"""

from __future__ import annotations

import math
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from PIL import Image
from reportlab.lib.utils import ImageReader

from generator.boxes import Box
from generator.revisions import current_source

MAX_IMAGE_PIXELS = 40_000_000
"""40 megapixels: an A4 page at 600 dpi is 35. Pillow's own bomb limit is 89 (warning) and
179 (error); refusing from the header well below that keeps one image from taking
gigabytes of memory and many seconds to decode."""
MAX_IMAGE_BYTES = 100_000_000
"""Bytes of one image file: far beyond any card art, small enough to read without harm."""
DEFAULT_DPI = 300
MIN_DPI, MAX_DPI = 300, 600
"""Print resolution of embedded art: 300 dpi is the floor print shops ask for, 600 more than
a home printer shows."""
RESAMPLE_SLACK = 1.05
"""An image up to 5% larger than needed is embedded as it is: resampling it gains nothing."""
PREPARED_CACHE_SIZE = 16
"""Resampled images kept for reuse (a background on many faces is resampled once), bounded
so a deck with distinct art on every card keeps memory flat."""
JPEG_QUALITY = 90
RESAMPLE_FILTER = Image.Resampling.LANCZOS
"""How art drawn as it is (in its own colours) is downsampled: Lanczos keeps fine detail
sharp; its slight ringing at hard edges is the sharpening photo editors apply too. A
conversion may ask for another (:data:`ArtConversion`)."""


class ImageProblem(ValueError):
    """An image that cannot be used; the caller adds card, element and position."""


def image_pixels(path: Path, shown: str) -> tuple[int, int]:
    """Width and height of the image at ``path``, after checking it is whole and not too large.

    ``shown`` is the name the layout or card used for it, for messages.
    """
    source = current_source()
    try:
        size = source.entry(path).size
        if size > MAX_IMAGE_BYTES:
            raise ImageProblem(f"image '{shown}' is {size:,} bytes; at most {MAX_IMAGE_BYTES:,}")
        # a file that cannot be read (not even fetched, in Git LFS) is told so, not as a bad image
        image_file = source.local(path) or source.opened(path, MAX_IMAGE_BYTES)
    except OSError as error:
        raise ImageProblem(f"cannot read image '{shown}': {error.strerror or error}") from None
    limit = f"more than the {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels card art may have: scale it down"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own limit is lower
            with Image.open(image_file) as image:
                width, height = image.size
                if width * height > MAX_IMAGE_PIXELS:
                    raise ImageProblem(f"image '{shown}' is {width} x {height} pixels, {limit}")
                image.draft(image.mode, (max(1, width // 8), max(1, height // 8)))  # JPEG: decode small
                image.load()
    except ImageProblem:
        raise
    except Image.DecompressionBombError:  # Pillow refused it from the header, before we could
        raise ImageProblem(f"image '{shown}' has {limit}") from None
    except (OSError, ValueError, SyntaxError) as error:
        raise ImageProblem(f"image '{shown}' is not a readable image ({_reason(error)})") from None
    if width == 0 or height == 0:
        raise ImageProblem(f"image '{shown}' has no pixels")
    return width, height


def _reason(error: Exception) -> str:
    text = str(error).split("\n")[0]
    if text.startswith("cannot identify image file"):
        return "not a format deckpress reads: PNG, JPEG, GIF, WebP, BMP or TIFF"
    return text or type(error).__name__


def drawn_rectangle(box: Box, pixels: tuple[float, float], fit: str) -> Box:
    """Where an image (or SVG art) of size ``pixels`` is drawn for ``box`` and ``fit`` (before
    ``cover`` clips it)."""
    if fit == "stretch":
        return box
    pixel_width, pixel_height = pixels
    scale_x, scale_y = box.width / pixel_width, box.height / pixel_height
    scale = max(scale_x, scale_y) if fit == "cover" else min(scale_x, scale_y)
    width, height = pixel_width * scale, pixel_height * scale
    return Box(box.x + (box.width - width) / 2, box.y + (box.height - height) / 2, width, height)


@dataclass(frozen=True)
class Resampling:
    """What to embed for one drawing of an image: the source pixels shown, and their new size."""

    crop: tuple[int, int, int, int]  # left, top, right, bottom in source pixels
    size: tuple[int, int]


def resampling(pixels: tuple[int, int], box: Box, fit: str, dpi: int) -> Resampling | None:
    """How to resample an image for ``box`` at ``dpi``; None when it is not larger than needed."""
    drawn = drawn_rectangle(box, pixels, fit)
    width, height = pixels
    crop = (0, 0, width, height)
    if fit == "cover":  # only the part inside the box shows
        per_point_x, per_point_y = width / drawn.width, height / drawn.height
        left = max(0, math.floor((box.x - drawn.x) * per_point_x + 1e-6))
        top = max(0, math.floor((drawn.y + drawn.height - box.y - box.height) * per_point_y + 1e-6))
        crop = (left, top, width - left, height - top)  # the drawing is centred on the box
        shown_width, shown_height = box.width, box.height
    else:
        shown_width, shown_height = drawn.width, drawn.height
    needed = (max(1, math.ceil(shown_width / 72 * dpi)), max(1, math.ceil(shown_height / 72 * dpi)))
    cropped = (crop[2] - crop[0], crop[3] - crop[1])
    if cropped[0] <= needed[0] * RESAMPLE_SLACK and cropped[1] <= needed[1] * RESAMPLE_SLACK:
        return None
    return Resampling(crop, (min(needed[0], cropped[0]), min(needed[1], cropped[1])))


ArtConversion = Callable[[Path, Resampling | None], ImageReader]
"""What card art becomes instead of being embedded as drawn (a print shop's CMYK): given the
file and how it is drawn (:class:`Resampling`, None for as it is), what reportlab embeds.
:func:`decoded_art` is the one way to the pixels it starts from, for drawing and for a
check that must measure exactly what drawing embeds."""


def decoded_art(path: Path, resample: Resampling | None,
                resample_filter: Image.Resampling) -> tuple[Image.Image, bool]:
    """The image at ``path`` decoded, downsampled as ``resample`` says with ``resample_filter``
    (as it is when None), and whether its file is a JPEG."""
    if resample is not None:
        return _resized(path, resample, resample_filter)
    with Image.open(path) as image:
        image.load()
        return eight_bit(image), image.format == "JPEG"


WIDE_GREY_MODES = frozenset({"I", "I;16", "I;16B", "I;16L", "I;16N"})
"""Greyscale modes holding more than 8 bits a pixel (16-bit PNG and TIFF art), which
reportlab and a plain Pillow conversion clip to white instead of scaling."""


def eight_bit(image: Image.Image) -> Image.Image:
    """``image`` with wide greyscale scaled to 8-bit ``L`` (0..65535 onto 0..255, so a
    mid-grey stays mid-grey; 32-bit values past 65535 print white); other modes unchanged."""
    if image.mode not in WIDE_GREY_MODES:
        return image
    return image.convert("I").point(lambda value: value / 257).convert("L")


class PreparedImages:
    """Images ready for reportlab, resampled once per (file, crop, size) and kept a while;
    with ``convert``, each converted once too (see :data:`ArtConversion`)."""

    def __init__(self, convert: ArtConversion | None = None) -> None:
        self.convert = convert
        self._kept: OrderedDict[tuple[Path, Resampling | None], ImageReader] = OrderedDict()

    def reader(self, path: Path, resample: Resampling | None) -> ImageReader:
        """A reportlab ImageReader for ``path`` as ``resample`` says (as it is when None)."""
        key = (path, resample)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        if self.convert is not None:
            reader = self.convert(path, resample)
        else:
            reader = _as_it_is(path) if resample is None else ImageReader(_resampled(path, resample))
        self._kept[key] = reader
        if len(self._kept) > PREPARED_CACHE_SIZE:
            self._kept.popitem(last=False)
        return reader


def _as_it_is(path: Path) -> ImageReader:
    """The file embedded as it is, unless its pixels are wide greyscale reportlab would clip."""
    with Image.open(path) as image:
        if image.mode not in WIDE_GREY_MODES:
            return ImageReader(str(path))
        image.load()
        return ImageReader(eight_bit(image))


def _resampled(path: Path, resample: Resampling) -> BytesIO | Image.Image:
    """The resampled image: JPEG art stays JPEG (embedded as such), the rest a Pillow image."""
    result, is_jpeg = _resized(path, resample, RESAMPLE_FILTER)
    if is_jpeg and result.mode in ("RGB", "L", "CMYK"):
        data = BytesIO()
        result.save(data, "JPEG", quality=JPEG_QUALITY)
        data.seek(0)
        return data
    return result


def _resized(path: Path, resample: Resampling, resample_filter: Image.Resampling) -> tuple[Image.Image, bool]:
    """The image resampled as ``resample`` says with ``resample_filter``, and whether its file is a JPEG."""
    with Image.open(path) as image:
        is_jpeg = image.format == "JPEG"
        original_width, original_height = image.size
        left, top, right, bottom = resample.crop
        # A JPEG decodes at 1/2, 1/4 or 1/8 size at a fraction of the cost: ask for the
        # smallest that still has the pixels wanted, then crop in its coordinates.
        shrink = max(1, min((right - left) // resample.size[0], (bottom - top) // resample.size[1]))
        image.draft(image.mode, (-(-original_width // shrink), -(-original_height // shrink)))
        factor_x, factor_y = image.width / original_width, image.height / original_height
        box = (left * factor_x, top * factor_y, right * factor_x, bottom * factor_y)
        if image.mode in WIDE_GREY_MODES:
            image = eight_bit(image)
        elif image.mode not in ("RGB", "RGBA", "L", "LA", "CMYK"):
            image = image.convert("RGBA" if "transparency" in image.info or "A" in image.mode else "RGB")
        result: Image.Image = image.resize(resample.size, resample_filter, box=box)
    return result, is_jpeg
