"""Streams deflated in a window sized to them are the bytes zlib.compress writes."""

import random
import sys
import zlib

import pytest

import generator.sheets.deflate as deflate_module
from generator.sheets.deflate import MIN_LOOKAHEAD, StreamDeflater, deflate, deflate_all

OPERATORS = [b"q ", b"1 0 0 1 ", b"cm ", b"/FormXob.f", b"Do Q\n", b"0.5 g ", b"BT ", b"Tj ET", b"(", b")",
             b"\\", b"123", b"28.346 ", b"586.441 "]
EDGES = [(1 << bits) - MIN_LOOKAHEAD + step for bits in range(9, 16) for step in (-1, 0, 1)]
"""Sizes at the edge of each window: the largest that fits it, and one more."""


def _samples(seed: int, count: int):
    rng = random.Random(seed)
    for trial in range(count):
        size = rng.choice([rng.randrange(0, 400), rng.randrange(0, 34000), rng.choice(EDGES)])
        kind = trial % 3
        if kind == 0:
            yield rng.randbytes(size)
        elif kind == 1:
            yield b"".join(rng.choice(OPERATORS) for _ in range(size // 4 + 1))[:size]
        else:
            yield bytes(rng.choice(b"ab ") for _ in range(size))


@pytest.mark.parametrize("data", [b"", b"x", b"q Q", b"\x00" * 5000, bytes(range(256)) * 200])
def test_edge_cases_deflate_as_zlib_does(data):
    assert deflate(data) == zlib.compress(data, 6)
    assert zlib.decompress(deflate(data)) == data


def test_random_and_page_like_streams_of_every_size_deflate_as_zlib_does():
    for data in _samples(seed=12, count=600):
        assert deflate(data) == zlib.compress(data, 6), len(data)


def test_streams_deflated_by_several_threads_come_back_in_order_as_zlib_writes_them(monkeypatch):
    streams = list(_samples(seed=5, count=300))
    monkeypatch.setattr(deflate_module, "_cores", lambda: 3)  # three threads, whatever this machine has
    assert deflate_all(streams) == [zlib.compress(data, 6) for data in streams]


def _deflated_here(monkeypatch) -> list[bytes]:
    """Every stream deflate_all is asked to deflate in this process, from now on."""
    here: list[bytes] = []

    def recording(streams):
        here.extend(streams)
        return deflate_all(streams)

    monkeypatch.setattr(deflate_module, "deflate_all", recording)
    return here


def _zlib(streams: list[bytes]) -> list[bytes]:
    return [zlib.compress(data, 6) for data in streams]


def _submit_all(deflater: StreamDeflater, streams: list[bytes]) -> None:
    for stream in streams:
        deflater.submit(stream)


def test_a_helper_process_deflates_streams_as_they_come_and_they_come_back_in_order(monkeypatch):
    monkeypatch.setattr(deflate_module, "_cores", lambda: 2)  # a core to lend, whatever this machine has
    here = _deflated_here(monkeypatch)
    streams = list(_samples(seed=7, count=200))
    late = b"q 1 0 0 1 0 0 cm Q\n" * 30  # never submitted: deflated at the end, in its place
    with StreamDeflater(helper_from=50) as deflater:
        _submit_all(deflater, streams)
        deflated = deflater.finish(streams[:100] + [late] + streams[100:])
    assert deflated == _zlib(streams[:100] + [late] + streams[100:])
    assert here == [late]  # the helper did all the rest


def test_what_a_helper_writes_is_used_only_if_it_is_each_stream_deflated(monkeypatch, tmp_path):
    monkeypatch.setattr(deflate_module, "_cores", lambda: 2)
    echo = tmp_path / "echo-python"  # answers every frame with the stream itself, not deflated
    echo.write_text("#!/bin/sh\nexec cat\n")
    echo.chmod(0o755)
    monkeypatch.setattr(deflate_module.sys, "executable", str(echo))
    here = _deflated_here(monkeypatch)
    streams = list(_samples(seed=11, count=60))
    with StreamDeflater(helper_from=10) as deflater:
        _submit_all(deflater, streams)
        assert deflater.finish(streams) == _zlib(streams)
    assert here == streams


def test_streams_submitted_after_the_helper_finished_are_deflated_here(monkeypatch):
    monkeypatch.setattr(deflate_module, "_cores", lambda: 2)
    streams = list(_samples(seed=12, count=40))
    with StreamDeflater(helper_from=10) as deflater:
        _submit_all(deflater, streams[:20])
        assert deflater.finish(streams[:20]) == _zlib(streams[:20])
        here = _deflated_here(monkeypatch)
        _submit_all(deflater, streams[20:])
        assert deflater._helper is None  # no second helper
        assert deflater.finish(streams[20:]) == _zlib(streams[20:])
    assert here == streams[20:]


def test_streams_a_helper_did_not_finish_are_deflated_here(monkeypatch):
    monkeypatch.setattr(deflate_module, "_cores", lambda: 2)
    streams = list(_samples(seed=8, count=120))
    with StreamDeflater(helper_from=10) as deflater:
        _submit_all(deflater, streams[:60])
        deflater._helper.kill()  # the helper dies half way (out of memory, say)
        deflater._helper.wait()
        _submit_all(deflater, streams[60:])
        assert deflater.finish(streams) == _zlib(streams)


@pytest.mark.parametrize("helper_from, cores, executable", [
    (100, 2, sys.executable),  # too few streams to be worth a helper
    (10, 1, sys.executable),   # no core to spare
    (10, 2, ""),               # embedded: no Python to start
], ids=["few streams", "one core", "no executable"])
def test_no_helper_is_started_for_a_few_streams_without_a_core_to_spare_or_a_python(
        monkeypatch, helper_from, cores, executable):
    monkeypatch.setattr(deflate_module, "_cores", lambda: cores)
    monkeypatch.setattr(deflate_module.sys, "executable", executable)
    streams = list(_samples(seed=9, count=40))
    with StreamDeflater(helper_from=helper_from) as deflater:
        _submit_all(deflater, streams)
        assert deflater._helper is None
        assert deflater.finish(streams) == _zlib(streams)


def test_a_helper_that_cannot_be_started_leaves_the_deflating_here(monkeypatch):
    monkeypatch.setattr(deflate_module, "_cores", lambda: 2)
    monkeypatch.setattr(deflate_module.sys, "executable", "/nonexistent/python")
    streams = list(_samples(seed=10, count=30))
    with StreamDeflater(helper_from=5) as deflater:
        _submit_all(deflater, streams)
        assert deflater._helper is None
        assert deflater.finish(streams) == _zlib(streams)
