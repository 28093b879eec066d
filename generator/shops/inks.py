"""The press's inks: sRGB colours and images converted to CMYK through an ICC profile.

Layouts, SVG art and card images are made in sRGB (what a screen shows). A CMYK
preset converts each of them with LittleCMS (Pillow's ImageCms) through the
preset's output profile, with the relative colorimetric intent and black-point
compensation, so colours the press can print stay as they were and the darkest
colour of the screen becomes the press's darkest. Each distinct colour is converted
once, and each distinct image once. The profile's own tables hold the total ink
limit (see ``profiles/make-profiles.sh``), so nothing converted through it puts
more ink on paper than the preset allows; :meth:`PressInks.total` measures it all
the same, for the checks that prove it. Pure black (#000000) prints as the preset's
``black`` (DriveThruCards' rich black is C60 M40 Y40 K100), not as whatever the
profile makes of it.

An image with an ICC profile of its own (a photo in Adobe RGB) is converted from
that profile; one without is taken to be sRGB, as browsers take it. CMYK art is
taken to be in the press's own space and passes through the profile once more,
which brings it within the ink limit.

Art larger than the press needs is downsampled before it is converted, with a filter
that draws no halo (:data:`PRESS_RESAMPLING`). A preset may set a lower ink limit than
its profile's, so the ink of raster art is measured on :class:`PressArt`, the pixels
exactly as the file holds them (resampled, converted, and as its JPEG decodes), which
``check --for`` and the file's own preflight then see alike.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader

from generator.errors import InputError
from generator.render.images import ArtConversion, Resampling, decoded_art
from generator.revisions import refuse_lfs_pointer
from generator.shops.presets import Preset

INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC
FLAGS = ImageCms.Flags.BLACKPOINTCOMPENSATION
JPEG_QUALITY = 95
"""CMYK JPEG art (from JPEG sources) is written at this quality: above what print shops
ask for, so converting adds no visible loss. Other art is stored losslessly."""
MAX_KEPT_ART_BYTES = 256 * 1024 * 1024
"""Converted art the shop's check keeps for the drawing that follows it (``build --for``), so
each image is resampled and converted once for both; past this, the rest is converted again
as it is drawn, and memory stays bounded however much art the deck has."""
INK_TOLERANCE = 4 * 100 / 255
"""Percent: four inks each rounded by one step of 255 in the conversion."""
PRESS_RESAMPLING = Image.Resampling.HAMMING
"""How art larger than the press needs is downsampled on its way into the press's file: a
filter with no negative lobes, so each embedded pixel is a weighted mean of the pixels it
is made from and no channel goes past the art's own. Lanczos, which home prints use, rings
at hard edges: beside a dark stripe it draws a line darker than the stripe (and a lighter
one on its other side), a halo the designer never drew, which in CMYK can put down more ink
than any pixel of the art and so break the shop's ink limit."""


@dataclass(repr=False, eq=False)
class PressArt:
    """Card art as the press's file holds it (what :meth:`PressInks.press_art` makes)."""

    cmyk: Image.Image
    alpha: Image.Image | None
    """Its soft mask, None when it has none."""
    jpeg: bytes | None
    """The CMYK JPEG embedded for it (art from a JPEG file without alpha), None when its
    samples are stored as they are."""

    def size(self) -> int:
        """Bytes of memory it holds, about."""
        alpha = 0 if self.alpha is None else self.alpha.width * self.alpha.height
        return self.cmyk.width * self.cmyk.height * 4 + alpha + len(self.jpeg or b"")

    def samples(self) -> Image.Image:
        """The CMYK pixels a reader of the file decodes: the JPEG's own when it is one."""
        if self.jpeg is None:
            return self.cmyk
        with Image.open(io.BytesIO(self.jpeg)) as decoded:
            return decoded.convert("CMYK")

    def total(self) -> float:
        """The most ink any pixel of it puts down, in percent, as the file holds it."""
        import numpy  # noqa: PLC0415  (only measuring raster art's ink needs it)

        samples = numpy.asarray(self.samples(), dtype=numpy.uint16)
        return 100 * float(samples.reshape(-1, 4).sum(axis=1).max()) / 255


class PressInks:
    """One preset's conversion from sRGB to its CMYK, each colour and image converted once.

    :meth:`colour` is what a press canvas gives reportlab as its ``enforceColorSpace``:
    reportlab hands it every flat colour it writes (fills, strokes, text, SVG art,
    icons), and it returns the CMYK colour to write instead.
    """

    def __init__(self, preset: Preset, keep_art: bool = False) -> None:
        """``keep_art``: the shop's file is drawn after the check (``build --for``), so the art
        the check converts is kept for it (within :data:`MAX_KEPT_ART_BYTES`) rather than
        resampled and converted a second time."""
        assert preset.profile is not None and preset.black is not None, "a cmyk preset"
        self.preset = preset
        self.keep_art = keep_art
        self._kept: dict[tuple[Path, Resampling | None], PressArt] = {}
        self._kept_bytes = 0
        self.profile_bytes, self.profile = read_profile(preset)
        self._from_srgb, press_to_press = press_transforms(preset, self.profile)
        self._transforms: dict[str, ImageCms.ImageCmsTransform] = {"cmyk": press_to_press}
        self._colours: dict[tuple[int, int, int, float], CMYKColor] = {}
        c, m, y, k = (ink / 100 for ink in preset.black)
        self._black = (c, m, y, k)

    def colour(self, colour: object) -> Color:
        """``colour`` (anything reportlab takes for one) in the press's CMYK, alpha kept."""
        found = toColor(colour)
        if isinstance(found, CMYKColor):
            return found
        red, green, blue = (min(255, max(0, round(part * 255))) for part in found.rgb())
        alpha = 1.0 if getattr(found, "alpha", None) is None else float(found.alpha)
        key = (red, green, blue, alpha)
        converted = self._colours.get(key)
        if converted is None:
            c, m, y, k = self._cmyk(red, green, blue)
            converted = self._colours[key] = CMYKColor(c, m, y, k, alpha=alpha)
        return converted

    def _cmyk(self, red: int, green: int, blue: int) -> tuple[float, float, float, float]:
        if (red, green, blue) == (0, 0, 0):
            return self._black
        pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (red, green, blue)), self._from_srgb)
        assert pixel is not None, "applyTransform returns an image unless told to work in place"
        values = pixel.getpixel((0, 0))
        assert isinstance(values, tuple) and len(values) == 4, "a CMYK pixel is four numbers"
        c, m, y, k = (float(value) / 255 for value in values)
        return (c, m, y, k)

    @staticmethod
    def total(colour: Color) -> float:
        """Total ink of a CMYK colour (as :meth:`colour` gives), in percent."""
        if not isinstance(colour, CMYKColor):
            raise ValueError(f"{colour!r} is not a CMYK colour")
        return float(100 * colour.density * (colour.cyan + colour.magenta + colour.yellow + colour.black))

    def over_limit(self, total: float) -> bool:
        assert self.preset.ink_limit is not None, "a cmyk preset"
        return total > self.preset.ink_limit + INK_TOLERANCE

    def art(self, path: Path, resample: Resampling | None) -> PressArt:
        """The art at ``path`` as the press's file holds it when drawn as ``resample`` says
        (what the shop's check measures). With ``keep_art``, kept for the drawing to embed
        (a second deck of the build showing it the same way finds it kept)."""
        kept = self._kept.get((path, resample))
        if kept is not None:
            return kept
        art = self._converted(path, resample)
        size = art.size()
        if self.keep_art and self._kept_bytes + size <= MAX_KEPT_ART_BYTES:
            self._kept[(path, resample)] = art
            self._kept_bytes += size
        return art

    def conversion(self) -> ArtConversion:
        """How card art goes into the press's file (what ``Renderer.convert_art`` is given):
        the art :meth:`art` kept, or converted now, ready to embed. The renderer asks once
        per image and way of drawing it."""
        return self._embedded

    def _embedded(self, path: Path, resample: Resampling | None) -> ImageReader:
        art = self._kept.pop((path, resample), None)
        if art is not None:
            self._kept_bytes -= art.size()
        else:
            art = self._converted(path, resample)
        if art.alpha is not None:
            return _SoftCmykReader(art.cmyk, art.alpha)
        if art.jpeg is not None:
            return ImageReader(io.BytesIO(art.jpeg))
        return ImageReader(art.cmyk)

    def _converted(self, path: Path, resample: Resampling | None) -> PressArt:
        """Downsampled with :data:`PRESS_RESAMPLING`, then converted by :meth:`press_art`."""
        return self.press_art(*decoded_art(path, resample, PRESS_RESAMPLING))

    def press_art(self, image: Image.Image, was_jpeg: bool) -> PressArt:
        """Card art as the press's file holds it: JPEG art as a CMYK JPEG, the rest as raw CMYK
        samples (compressed losslessly); an alpha channel is kept as the image's soft mask."""
        cmyk, alpha = self.cmyk_image(image)
        jpeg = None
        if was_jpeg and alpha is None:
            data = io.BytesIO()
            cmyk.save(data, "JPEG", quality=JPEG_QUALITY)
            jpeg = data.getvalue()
        return PressArt(cmyk, alpha, jpeg)

    def cmyk_image(self, image: Image.Image) -> tuple[Image.Image, Image.Image | None]:
        """The image's colours in CMYK, and its alpha (None when it has none)."""
        alpha = None
        if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
            image = image.convert("RGBA")
            alpha = image.getchannel("A")
            if alpha.getextrema() == (255, 255):
                alpha = None
        if image.mode == "CMYK":
            transform = self._transforms["cmyk"]
        else:
            image = image.convert("RGB")
            transform = self._transform_from(image.info.get("icc_profile"))
        converted = ImageCms.applyTransform(image, transform)
        assert converted is not None, "applyTransform returns an image unless told to work in place"
        return converted, alpha

    def _transform_from(self, embedded: bytes | None) -> ImageCms.ImageCmsTransform:
        """sRGB -> CMYK, or from an image's own RGB profile when it brings one that reads."""
        if not embedded:
            return self._from_srgb
        key = hashlib.sha1(embedded).hexdigest()

        def make() -> ImageCms.ImageCmsTransform:
            try:
                source = ImageCms.ImageCmsProfile(io.BytesIO(embedded))
                if source.profile.xcolor_space.strip() != "RGB":
                    return self._from_srgb
                return ImageCms.buildTransform(source, self.profile, "RGB", "CMYK", INTENT, FLAGS)
            except (OSError, ImageCms.PyCMSError, ValueError):  # a broken profile: the image is taken as sRGB
                return self._from_srgb

        return self._transform(key, make)

    def _transform(self, key: str, make: Callable[[], ImageCms.ImageCmsTransform]) -> ImageCms.ImageCmsTransform:
        if key not in self._transforms:
            self._transforms[key] = make()
        return self._transforms[key]


class _SoftCmykReader(ImageReader):
    """A CMYK image with a soft mask: reportlab writes a reader's alpha (``_dataA``) as the
    image's /SMask, and sets it itself only for RGBA and LA images."""

    def __init__(self, cmyk: Image.Image, alpha: Image.Image) -> None:
        super().__init__(cmyk)
        self._alpha = ImageReader(alpha)

    def getRGBData(self) -> bytes:  # noqa: N802  (reportlab's name)
        data: bytes = super().getRGBData()
        self._dataA = self._alpha
        return data


def read_profile(preset: Preset) -> tuple[bytes, ImageCms.ImageCmsProfile]:
    """The preset's ICC profile, which must be a CMYK output profile LittleCMS reads."""
    assert preset.profile is not None, "a cmyk preset"
    where = preset.at("profile")
    try:
        data = Path(preset.profile).read_bytes()
        refuse_lfs_pointer(data, preset.profile)
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ImageCms.PyCMSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise InputError(f"the ICC profile {preset.profile.name} cannot be read ({reason})", where,
                         field="profile") from None
    space, kind = profile.profile.xcolor_space.strip(), profile.profile.device_class.strip()
    if space != "CMYK" or kind != "prtr":
        raise InputError(f"the ICC profile {preset.profile.name} is a {space} {kind} profile; a press "
                         "needs a CMYK output (prtr) profile", where, field="profile")
    return data, profile


def press_transforms(preset: Preset, profile: ImageCms.ImageCmsProfile) -> tuple[
        ImageCms.ImageCmsTransform, ImageCms.ImageCmsTransform]:
    """sRGB to the press's CMYK, and the press's CMYK through its profile once more (for CMYK
    art), both built before anything is checked or drawn: a profile whose header reads but
    whose tables are damaged (a truncated download) is refused here, at the preset's
    ``profile`` line, not half-way through the deck's art."""
    assert preset.profile is not None, "a cmyk preset"
    try:
        from_srgb = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK", INTENT, FLAGS)
        press_to_press = ImageCms.buildTransform(profile, profile, "CMYK", "CMYK", INTENT, FLAGS)
    except (ImageCms.PyCMSError, OSError, ValueError) as error:
        raise InputError(f"the ICC profile {preset.profile.name} is damaged: LittleCMS cannot convert colours "
                         f"through it ({error})", preset.at("profile"), field="profile") from None
    return from_srgb, press_to_press
