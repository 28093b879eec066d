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
import sys
import threading
import zlib
from typing import IO, Any, BinaryIO

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
HELPER_FROM = 128
"""Streams drawn before a helper process is started to deflate them (see :class:`StreamDeflater`):
below this, deflating them here at the end costs less than starting one."""
FRAME_HEADER_BYTES = 8
"""Each stream crosses to and from the helper after its length, as this many big-endian bytes."""
HELPER_WAIT_SECONDS = 60
"""The longest the helper may take to finish once every stream is drawn (it is then behind by a
pipe's worth at most, milliseconds of work): past it, a stopped or stuck helper is killed and
its work done here."""


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
    workers = [threading.Thread(target=deflate_share, args=(start,), daemon=True) for start in range(1, threads)]
    for worker in workers:
        worker.start()
    deflate_share(0)
    for worker in workers:
        worker.join()
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
    # Imported here, not at the top: the helper process runs this file on its own.
    from generator.machine import usable_cores

    return usable_cores()


class StreamDeflater:
    """Deflates streams while they are still being drawn, in a helper process on another core.

    A build of many different faces spends about a tenth of its time deflating their
    streams (some 80 us each), and drawing them keeps one core busy while the others
    idle. So, once :data:`HELPER_FROM` streams have been drawn, each one is handed as
    soon as it is drawn to a helper: a bare Python running this module (``-I -S``: no
    site-packages and nothing of deckpress's, so it starts in some 50 ms, on the other
    core), which deflates it while this process draws the next faces. :meth:`finish` then takes
    the helper's work and deflates here whatever the helper did not do, so the bytes
    are :func:`deflate`'s either way, whether or not a helper ran or finished.

    The helper writes into an unnamed temporary file, never into a pipe this process
    would have to keep reading. Handing a stream over waits only while the helper is
    behind by a pipe's worth (a busy machine then costs speed, never the result), and
    the wait for the helper to finish is bounded by :data:`HELPER_WAIT_SECONDS`. Use it
    as a context manager: leaving the block stops a helper that is still running.
    """

    def __init__(self, helper_from: int = HELPER_FROM):
        self._helper_from = helper_from
        self._streams: list[bytes] = []
        """Every stream submitted, in order; kept so that identities stay valid until the end."""
        self._sent = 0
        """How many of them (the first ones) the helper was given."""
        self._helper: Any = None  # a subprocess.Popen while the helper runs
        self._results: IO[bytes] | None = None
        self._no_helper = False
        """Set once no helper may be started: none could be, one failed, or the work is done."""

    def __enter__(self) -> StreamDeflater:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def submit(self, stream: bytes) -> None:
        """Hand over a drawn stream; :meth:`finish` will return it deflated."""
        self._streams.append(stream)
        if self._helper is None and not self._no_helper and len(self._streams) >= self._helper_from:
            self._start_helper()
        if self._helper is not None:
            self._send()

    def finish(self, streams: list[bytes]) -> list[bytes]:
        """:func:`deflate` of each of ``streams``, in order: the helper's work for the streams it
        was submitted (the very same objects), the rest deflated here. Ends the helper's work:
        streams submitted afterwards are deflated here."""
        done = self._finish_helper()
        missing = [stream for stream in streams if id(stream) not in done]
        local = iter(deflate_all(missing))
        return [done[id(stream)] if id(stream) in done else next(local) for stream in streams]

    def close(self) -> None:
        """Stop the helper if it still runs, and let go of its pipe and its results."""
        if self._helper is not None:
            helper, self._helper = self._helper, None
            helper.kill()
            try:
                helper.stdin.close()
            except OSError:  # its unsent part cannot go anywhere now
                pass
            helper.wait()
        if self._results is not None:
            self._results.close()
            self._results = None

    def _start_helper(self) -> None:
        # No idle core to lend the work to, or no Python to run: a frozen application's
        # executable is the application itself.
        if _cores() < 2 or not sys.executable or getattr(sys, "frozen", False):
            self._no_helper = True
            return
        import subprocess  # only builds with many faces start a helper
        import tempfile

        try:
            self._results = tempfile.TemporaryFile()
            self._helper = subprocess.Popen([sys.executable, "-I", "-S", os.path.abspath(__file__)],
                                            stdin=subprocess.PIPE, stdout=self._results,
                                            stderr=subprocess.DEVNULL, bufsize=1 << 16)
        except OSError:  # no way to start one (no processes or temporary space left): deflate here
            self._give_up()

    def _send(self) -> None:
        try:
            for stream in self._streams[self._sent:]:
                self._helper.stdin.write(len(stream).to_bytes(FRAME_HEADER_BYTES, "big"))
                self._helper.stdin.write(stream)
                self._sent += 1
        except OSError:  # the helper stopped: the rest is deflated here
            self._give_up()

    def _finish_helper(self) -> dict[int, bytes]:
        """The helper's results by the id of the stream they deflate; empty if it failed."""
        import subprocess

        self._no_helper = True
        if self._helper is None:
            return {}
        helper = self._helper
        try:
            helper.stdin.close()
            finished = helper.wait(HELPER_WAIT_SECONDS) == 0
        except (OSError, subprocess.TimeoutExpired):
            finished = False
        if not finished:
            self.close()
            return {}
        self._helper = None
        self._results.seek(0)
        results = _read_frames(self._results, self._sent)
        streams = self._streams[:self._sent]
        if results is None or not all(map(_deflates, streams, results)):
            return {}
        return {id(stream): deflated for stream, deflated in zip(streams, results)}

    def _give_up(self) -> None:
        self._no_helper = True
        self.close()


def _deflates(stream: bytes, deflated: bytes) -> bool:
    """Whether ``deflated`` is a zlib stream of ``stream``: its header and its checksum. Cheap
    (a thirtieth of deflating), and enough to refuse anything but a helper's real work."""
    return deflated.startswith(ZLIB_HEADER) and deflated[-4:] == zlib.adler32(stream).to_bytes(4, "big")


def _read_frames(source: BinaryIO, count: int) -> list[bytes] | None:
    """``count`` length-prefixed frames from ``source``; None if it holds anything else."""
    frames = []
    for _ in range(count):
        header = source.read(FRAME_HEADER_BYTES)
        if len(header) < FRAME_HEADER_BYTES:
            return None
        size = int.from_bytes(header, "big")
        frame = source.read(size)
        if len(frame) < size:
            return None
        frames.append(frame)
    return frames if not source.read(1) else None


def run_helper(source: BinaryIO, sink: BinaryIO) -> None:
    """The helper's side: deflate each length-prefixed stream of ``source`` into ``sink``."""
    while True:
        header = source.read(FRAME_HEADER_BYTES)
        if not header:
            break
        deflated = deflate(source.read(int.from_bytes(header, "big")))
        sink.write(len(deflated).to_bytes(FRAME_HEADER_BYTES, "big") + deflated)
    sink.flush()


if __name__ == "__main__":  # the helper process of StreamDeflater
    run_helper(sys.stdin.buffer, sys.stdout.buffer)
