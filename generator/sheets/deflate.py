"""Deflating streams exactly as ``zlib.compress(data, 6)`` does, in a fraction of its time for small ones.

``zlib.compress`` sets up a 32 KB window for every call, and that setting up
is most of its cost for a page's few hundred bytes of operators (about 0.1 ms
a call, some 2 s of a 100,000-card build). Data that fits a smaller window
deflates to the very same stream in it: no match can reach further back than
the data's start, nothing slides out of the window, and the hash chains and
block sizes (set by the memory level, left as it is) do not change. So the
window is sized to the data, and the zlib wrapper that names a 32 KB window,
with its Adler-32 checksum, is written here as ``zlib.compress`` writes it.
"""

from __future__ import annotations

import functools
import os
import threading
import zlib

LEVEL = 6
"""zlib's default compression level, which PDF streams here have always used."""
MIN_LOOKAHEAD = 262
"""zlib's MAX_MATCH + MIN_MATCH + 1: a window of 2**bits reaches back 2**bits minus this."""
SMALLEST_WINDOW_BITS = 9
LARGEST_WINDOW_BITS = 15
ZLIB_HEADER = b"\x78\x9c"
"""The two bytes zlib writes first for a 32 KB window at the default level."""
MOST_THREADS = 4
"""Threads that deflate side by side at most: past a few, they wait on each other for the
interpreter between streams more than they gain."""
SHARED_FROM = 64
"""Streams worth sharing out between threads: fewer are deflated here, sooner than a thread starts."""


def deflate(data: bytes) -> bytes:
    """``zlib.compress(data, 6)``, byte for byte."""
    bits = max(SMALLEST_WINDOW_BITS, (len(data) + MIN_LOOKAHEAD - 1).bit_length())
    if bits >= LARGEST_WINDOW_BITS or not _small_windows_agree():
        return zlib.compress(data, LEVEL)
    return _deflate_in_window(data, bits)


def _deflate_in_window(data: bytes, bits: int) -> bytes:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -bits)  # negative: the bare deflate stream
    return ZLIB_HEADER + compressor.compress(data) + compressor.flush() + zlib.adler32(data).to_bytes(4, "big")


@functools.lru_cache(maxsize=None)
def _small_windows_agree() -> bool:
    """Whether this process's zlib gives the same bytes in a small window (checked once, on a
    page-like sample): a zlib built otherwise (zlib-ng, say) keeps its own way."""
    sample = b"q 1 0 0 1 28.346 586.441 cm /FormXob.f12 Do Q\n" * 12 + bytes(range(256))
    bits = (len(sample) + MIN_LOOKAHEAD - 1).bit_length()
    return _deflate_in_window(sample, bits) == zlib.compress(sample, LEVEL)


def deflate_all(streams: list[bytes]) -> list[bytes]:
    """:func:`deflate` of each stream, in order, shared out between threads, one a core.

    zlib lets go of the interpreter while it compresses, so threads compress
    side by side; each stream is deflated on its own, so the bytes do not
    depend on how many threads there are.
    """
    threads = min(MOST_THREADS, _cores(), len(streams) // SHARED_FROM)
    if threads <= 1:
        return _deflate_each(streams)
    shares = [streams[start::threads] for start in range(threads)]  # interleaved: sizes even out
    done: list[list[bytes] | None] = [None] * threads

    def deflate_share(start: int) -> None:
        try:
            done[start] = _deflate_each(shares[start])
        except Exception:  # left undone: deflated again below, so the error is raised here, not in a thread
            pass

    # Plain threads: concurrent.futures would import logging, a start-up cost every build pays.
    helpers = [threading.Thread(target=deflate_share, args=(start,), daemon=True) for start in range(1, threads)]
    for helper in helpers:
        helper.start()
    deflate_share(0)
    for helper in helpers:
        helper.join()
    for start in range(threads):
        if done[start] is None:
            done[start] = _deflate_each(shares[start])
    deflated: list[bytes] = [b""] * len(streams)
    for start, share in enumerate(done):
        deflated[start::threads] = share
    return deflated


def _deflate_each(streams: list[bytes]) -> list[bytes]:
    return [deflate(stream) for stream in streams]


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
