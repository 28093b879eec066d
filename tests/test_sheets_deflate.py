"""Streams deflated in a window sized to them are the bytes zlib.compress writes."""

import random
import zlib

import pytest

import generator.sheets.deflate as deflate_module
from generator.sheets.deflate import MIN_LOOKAHEAD, deflate, deflate_all

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
