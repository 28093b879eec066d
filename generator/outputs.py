"""Writing output files safely: all or nothing, never a half-written file.

Every generated file is written to a hidden temporary file in the same folder
and renamed over the target only when complete, so an interrupted or failed
build leaves the previous file (or nothing) in place, never a truncated PDF.
A command that writes several files (a booklet's two PDFs, a report's PDF and
PNG) stages them all first and renames them only when every one is written,
so they appear together or not at all; an output folder the command had to
create is removed again when it fails.

Temporary names carry the writing process's id (``.deck.pdf.4711-k2j3.tmp``):
a run killed outright (power cut, ``kill -9``) cannot clean up after itself,
so the next run that writes the same file removes the temporaries whose
process is gone. A target that exists but is not a regular file (a device,
a pipe, a folder) is never replaced.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from generator.errors import InputError, Position
from generator.revisions import special_kind

STALE_TEMPORARY_AGE = 3600
"""Seconds after which a temporary of our naming without a process id (written by an
earlier deckpress) is taken as left over: no build takes an hour."""

_TAGGED = re.compile(r"(\d+)-[A-Za-z0-9_]+\.tmp")
_UNTAGGED = re.compile(r"[a-z0-9_]{8}\.tmp")


@contextlib.contextmanager
def atomic_outputs(*targets: Path | str) -> Iterator[list[BinaryIO]]:
    """Streams, one per target, whose contents replace all the targets together, and only
    when the block finishes: a failure while any is written (a full disk) leaves every
    target as it was."""
    paths = [Path(target) for target in targets]
    for path in paths:
        refuse_special(path)
    made = _missing_folders(paths)
    staged: list[tuple[Path, Path]] = []
    try:
        streams: list[BinaryIO] = []
        for path in paths:
            temp = _temporary_file(path)
            staged.append((path, temp))
            streams.append(open(temp, "wb"))
        try:
            # A write to a full disk fails without a file name: say which output it was
            # (or, when several are written at once, the folder they go to).
            with naming_failures(paths[0] if len(paths) == 1 else _common_folder(paths)):
                yield streams
            for path, stream in zip(paths, streams, strict=True):
                with naming_failures(path):
                    _flush_to_disk(stream)
        finally:
            for stream in streams:
                with contextlib.suppress(OSError):  # the failure that matters is already raised
                    stream.close()
        _put_in_place(staged)
        staged = []
        made = []
    finally:
        for _, temp in staged:
            with contextlib.suppress(FileNotFoundError):
                temp.unlink()
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty: a failed run leaves the output folder as it was


def write_bytes_atomic(target: Path | str, data: bytes) -> None:
    """Replace ``target`` with ``data`` in one step."""
    write_files_atomic({Path(target): data})


def write_text_atomic(target: Path | str, text: str) -> None:
    """Replace ``target`` with UTF-8 ``text`` in one step."""
    write_bytes_atomic(target, text.encode("utf-8"))


def write_files_atomic(contents: dict[Path, bytes]) -> None:
    """Write several files that only make sense together: all of them, or none."""
    with atomic_outputs(*contents) as streams:
        for stream, (path, data) in zip(streams, contents.items(), strict=True):
            with naming_failures(path):
                stream.write(data)
                stream.flush()


@contextlib.contextmanager
def naming_failures(path: Path) -> Iterator[None]:
    """An OSError raised in the block without a file name (``No space left on device``
    while writing) is given ``path``, so its error line says what could not be written."""
    try:
        yield
    except OSError as error:
        if error.filename is None:
            error.filename = str(path)
        raise


def refuse_special(target: Path) -> None:
    """A target that exists must be a regular file (or a link, which is replaced, not
    followed): writing over a device or a pipe would destroy it or hang."""
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return
    kind = None if stat.S_ISLNK(mode) else special_kind(mode)
    if kind is not None:
        raise InputError(f"is {kind}, not a file; deckpress only replaces files", Position(target))


def temporary_folder(parent: Path, stem: str) -> Path:
    """A new hidden folder in ``parent`` for staging files (``.<stem>-<pid>-xxxx.tmp``);
    folders of the same stem left by runs that no longer exist are removed first."""
    remove_stale_temporaries(parent, f".{stem}-")
    return Path(tempfile.mkdtemp(prefix=f".{stem}-{os.getpid()}-", suffix=".tmp", dir=parent))


def remove_stale_temporaries(folder: Path, prefix: str) -> None:
    """Delete files and folders in ``folder`` named ``<prefix><pid>-xxxx.tmp`` whose process
    is gone, and ``<prefix>xxxxxxxx.tmp`` ones (from before the names held a process id)
    over an hour old: runs that ended without cleaning up."""
    try:
        entries = [entry for entry in os.scandir(folder) if entry.name.startswith(prefix)]
    except OSError:
        return
    for entry in entries:
        if _is_stale(entry, entry.name[len(prefix):]):
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)


def _is_stale(entry: os.DirEntry[str], rest: str) -> bool:
    tagged = _TAGGED.fullmatch(rest)
    if tagged is not None:
        return not _process_exists(int(tagged.group(1)))
    if _UNTAGGED.fullmatch(rest) is None:
        return False  # not a name we make
    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMPORARY_AGE
    except OSError:
        return False


def _process_exists(pid: int) -> bool:
    if os.name != "posix" or pid == os.getpid():
        return True  # cannot tell, or it is us: keep it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _flush_to_disk(stream: BinaryIO) -> None:
    """Where a full disk shows itself at the latest: before anything is renamed."""
    stream.flush()
    os.fsync(stream.fileno())


def _missing_folders(paths: list[Path]) -> list[Path]:
    """The folders writing ``paths`` will create, deepest first."""
    missing: dict[Path, None] = {}
    for path in paths:
        for folder in path.parents:
            if folder.exists():
                break
            missing[folder] = None
    return sorted(missing, key=lambda folder: len(folder.parts), reverse=True)


def _common_folder(paths: list[Path]) -> Path:
    try:
        return Path(os.path.commonpath([path.parent for path in paths]))
    except ValueError:  # relative and absolute paths mixed
        return paths[0].parent


def _temporary_file(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target.parent, f".{target.name}.")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp", dir=target.parent)
    except OSError as error:  # named after the output asked for, not a hidden name of ours
        raise OSError(error.errno, error.strerror, str(target)) from None
    os.close(handle)
    return Path(name)


def _put_in_place(staged: list[tuple[Path, Path]]) -> None:
    """Rename every temporary over its target. Renames need no space, so after a full set
    of writes they only fail if a target changed meanwhile; then the targets already
    replaced get their earlier content back, kept until the end as hard links."""
    kept: list[Path | None] = []
    placed: list[tuple[Path, Path | None]] = []
    try:
        for target, temp in staged:
            refuse_special(target)
            os.chmod(temp, 0o644)
            kept.append(_keep_earlier(target))
            os.replace(temp, target)
            placed.append((target, kept[-1]))
    except BaseException:
        for target, earlier in reversed(placed):
            with contextlib.suppress(OSError):
                if earlier is not None:
                    os.replace(earlier, target)
                else:
                    target.unlink()
        raise
    finally:
        for earlier in kept:
            if earlier is not None:
                with contextlib.suppress(OSError):
                    earlier.unlink()


def _keep_earlier(target: Path) -> Path | None:
    """A second name for the file at ``target`` (a hard link, no copy), or None if there is
    no file or the file system has no hard links."""
    if not target.is_file() or target.is_symlink():
        return None
    earlier = target.with_name(f".{target.name}.{os.getpid()}-earlier.tmp")
    with contextlib.suppress(FileNotFoundError):
        earlier.unlink()
    try:
        os.link(target, earlier)
    except OSError:
        return None
    return earlier
