from pathlib import Path

import pytest

from generator.outputs import atomic_outputs, write_text_atomic


def test_atomic_write_replaces_file(tmp_path: Path):
    target = tmp_path / "out" / "deck.json"
    write_text_atomic(target, "first")
    write_text_atomic(target, "second")
    assert target.read_text() == "second"
    assert [p.name for p in target.parent.iterdir()] == ["deck.json"]


def test_failed_write_keeps_previous_file_and_leaves_no_temp(tmp_path: Path):
    target = tmp_path / "deck.pdf"
    target.write_bytes(b"old pdf")
    with pytest.raises(RuntimeError):
        with atomic_outputs(target) as (stream,):
            stream.write(b"half a pd")
            raise RuntimeError("drawing failed")
    assert target.read_bytes() == b"old pdf"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]
