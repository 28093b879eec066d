"""PNG images written band by band: each band of rows compressed on its own, anywhere.

A Tabletop Simulator sheet is up to 4096 x 4096 pixels: 50 MB of RGB, and a
second or two of compression on one core. Instead of composing it whole in one
process, each band of rows (one row of cards) is filtered and deflated by the
worker that drew its cards, and the process writing the file only puts the
compressed bands one after the other. That works because deflate streams can
be joined: each band is compressed as raw deflate ending in a *sync flush*
(so it stops on a byte boundary, not the stream's last block), the file's
zlib stream is the zlib header, every band, and an empty last block, and the
stream's Adler-32 checksum is combined from the bands' own (as zlib's
``adler32_combine`` does). The bytes depend only on the bands, never on which
process made which.

Rows are written with PNG's filter type 0 (none): on drawn cards' flat colours
deflate finds the repeats itself, and in a test on a Gold Rush sheet the file was
smaller and quicker to make than with Pillow's adaptive filters.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x9c"
"""A zlib stream of deflate with a 32 KB window at the default level (RFC 1950)."""
LAST_BLOCK = b"\x03\x00"
"""An empty final deflate block (fixed Huffman codes, just the end-of-block code)."""
LEVEL = 6
"""zlib's default level: nearly as small as 9 on drawn cards, in half the time."""
ADLER_BASE = 65521
"""The prime Adler-32 sums are kept modulo (RFC 1950)."""
NO_FILTER = b"\x00"


@dataclass(repr=False, eq=False)
class Band:
    """Rows of a PNG image, filtered and deflated on their own (see the module docstring)."""

    deflated: bytes  # raw deflate, ending in a sync flush
    adler: int       # Adler-32 of the filtered rows
    length: int      # bytes of filtered rows


def deflate_band(image: Image.Image) -> Band:
    """The rows of an RGB ``image`` as a band of a PNG as wide as the image."""
    if image.mode != "RGB":
        raise ValueError(f"a band is RGB, not {image.mode}")
    pixels, stride = image.tobytes(), image.width * 3
    rows = b"".join(NO_FILTER + pixels[start:start + stride] for start in range(0, len(pixels), stride))
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return Band(compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two pieces of data joined, from each piece's own (zlib's adler32_combine)."""
    remainder = second_length % ADLER_BASE
    low = ((first & 0xFFFF) + (second & 0xFFFF) + ADLER_BASE - 1) % ADLER_BASE
    high = (remainder * (first & 0xFFFF) + (first >> 16) + (second >> 16) + ADLER_BASE - remainder) % ADLER_BASE
    return low | (high << 16)


def png_from_bands(size: tuple[int, int], bands: Iterable[Band]) -> bytes:
    """An 8-bit RGB PNG of ``size`` whose rows are ``bands``, top to bottom."""
    width, height = size
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, deflate, filters, no interlace
    parts = [PNG_SIGNATURE, _chunk(b"IHDR", header)]
    adler, first = 1, True  # the Adler-32 of nothing
    for band in bands:
        parts.append(_chunk(b"IDAT", (ZLIB_HEADER if first else b"") + band.deflated))
        adler, first = adler32_combine(adler, band.adler, band.length), False
    parts.append(_chunk(b"IDAT", (ZLIB_HEADER if first else b"") + LAST_BLOCK + struct.pack(">I", adler)))
    parts.append(_chunk(b"IEND", b""))
    return b"".join(parts)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
