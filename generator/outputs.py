"""Writing output files safely: all or nothing, never a half-written file.

Every generated file is written to a temporary file in the same folder and
renamed over the target only when complete, so an interrupted or failed build
leaves the previous file (or nothing) in place, never a truncated PDF.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Iterator


@contextlib.contextmanager
def atomic_output(target: Path | str) -> Iterator[BinaryIO]:
    """Open a binary stream whose content replaces ``target`` only on success.

    >>> with atomic_output("build/deck.pdf") as stream:   # doctest: +SKIP
    ...     stream.write(pdf_bytes)
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_name, 0o644)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


def write_bytes_atomic(target: Path | str, data: bytes) -> None:
    """Replace ``target`` with ``data`` in one step."""
    with atomic_output(target) as stream:
        stream.write(data)


def write_text_atomic(target: Path | str, text: str) -> None:
    """Replace ``target`` with UTF-8 ``text`` in one step."""
    write_bytes_atomic(target, text.encode("utf-8"))
