"""Card images as players with a colour-vision deficiency see them.

``deckpress export --png DIR --simulate deuteranopia`` passes every image it
writes through :func:`simulate_image`, so a designer can look at the faces the
way about one man in twelve will (Machado et al. 2009 at full severity, the
same model the colour-blind check measures with).
"""

from __future__ import annotations

from PIL import Image

from generator.access.colours import DEFICIENCIES, simulate

SIMULATIONS = tuple(DEFICIENCIES)
"""The deficiencies an export can show: protanopia, deuteranopia, tritanopia."""


def simulate_image(image: Image.Image, deficiency: str) -> Image.Image:
    """``image`` recoloured as seen with ``deficiency``; transparency and size are kept."""
    import numpy  # noqa: PLC0415  (numpy takes a tenth of a second to import; export imports this module without --simulate too)

    if deficiency not in DEFICIENCIES:
        raise ValueError(f"unknown deficiency '{deficiency}' (known: {', '.join(SIMULATIONS)})")
    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA", "PA") else None
    pixels = numpy.asarray(image.convert("RGB"), dtype=numpy.uint8)
    # A card has few distinct colours (flat fills and their anti-aliased edges): convert
    # each once, then map every pixel to its converted colour.
    packed = (pixels[..., 0].astype(numpy.uint32) << 16) | (pixels[..., 1].astype(numpy.uint32) << 8) | pixels[..., 2]
    distinct, index = numpy.unique(packed.ravel(), return_inverse=True)
    colours = numpy.stack([(distinct >> 16) & 255, (distinct >> 8) & 255, distinct & 255], axis=1) / 255.0
    seen = numpy.rint(simulate(colours, deficiency) * 255.0).astype(numpy.uint8)
    result = Image.fromarray(seen[index].reshape(pixels.shape), "RGB")
    if alpha is not None:
        result.putalpha(alpha)
    return result
