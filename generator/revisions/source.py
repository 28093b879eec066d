"""Where the files of a deck are read from: the disk, or a git revision.

A deck read at a revision is just another deck: the same loaders read its deck file,
layouts, fonts, icons and art, with the same bounds, and only the bytes come from
git (what ``git show REV:path`` prints) instead of the disk. Nothing is checked out,
and nothing in the working tree is touched.

Every stage that reads one of a deck's files asks :func:`current_source` for it: the
disk (:data:`DISK`), unless a :func:`reading_from` block says otherwise::

    with reading_from(Revision.of(folder, "HEAD~1")):
        old = load_deck(folder)            # the deck file as it was at HEAD~1

A :class:`Revision` answers only for the folders a deck's files come from (its own
folder, and the project's ``layouts/`` and ``fonts/``); anything else (the layouts,
fonts and icons that come with deckpress) is read from the disk as always.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from generator.revisions.git import (
    MAX_GIT_OUTPUT,
    MAX_LFS_POINTER_BYTES,
    GitError,
    TreeEntry,
    git_program,
    has_changes,
    last_commit,
    lfs_object,
    lfs_store,
    lies_inside,
    list_tree,
    read_blob,
    relative_paths,
    repository_root,
    resolve_revision,
    together,
    tree_name,
)

MAX_KEPT_BYTES = 64 * 1024 * 1024
"""Bytes of files read at a revision kept for a second read (an image is measured, then
compared): beyond this, a file is asked of git again rather than kept."""

LINK_MODE = "120000"
SUBMODULE_MODE = "160000"

MAX_LINKS_FOLLOWED = 40
"""Links one path at a revision may pass through, as the system allows on the disk: more is a loop."""
MAX_LINK_BYTES = 4096
"""The longest target a link at a revision may name (the system's longest path)."""


@dataclass(repr=False, eq=False)
class Entry:
    """What stands at a path: its size, and what it is when it is not a regular file."""

    size: int
    kind: str | None = None
    """None for a regular file; else what it is, as an error says it ("a folder",
    "a named pipe", "a symbolic link")."""


class FileSource:
    """The files of decks, by their paths on the disk. This one reads the disk itself."""

    def entry(self, path: Path) -> Entry:
        """What is at ``path``: FileNotFoundError when nothing is, OSError when it cannot be asked."""
        status = path.stat()
        return Entry(status.st_size, special_kind(status.st_mode))

    def read(self, path: Path, most: int) -> bytes:
        """The first ``most`` bytes of the file at ``path`` (all of it when it is shorter).
        A Git LFS pointer standing in for the file raises OSError (:func:`refuse_lfs_pointer`)."""
        with path.open("rb") as stream:
            data = stream.read(most)
        refuse_lfs_pointer(data, path)
        return data

    def listing(self, folder: Path) -> list[Path]:
        """What a folder holds, sorted by name."""
        return sorted(folder.iterdir())

    def resolved(self, path: Path) -> Path:
        """``path`` made absolute as this source finds the file there: on the disk with every
        link followed, so that a check that a file lies inside a folder sees where it leads."""
        return path.resolve()

    def is_file(self, path: Path) -> bool:
        try:
            return self.entry(path).kind is None
        except OSError:
            return False

    def is_dir(self, path: Path) -> bool:
        try:
            return self.entry(path).kind == "a folder"
        except OSError:
            return False

    def local(self, path: Path) -> Path | None:
        """The file on the disk holding ``path``'s bytes, for libraries that read files by
        name; None when the bytes are only to be had from :meth:`read`. A Git LFS pointer
        standing in for the file raises OSError, as :meth:`read` does."""
        try:
            status = path.stat()
            head = path.read_bytes() if stat.S_ISREG(status.st_mode) and status.st_size < MAX_LFS_POINTER_BYTES else b""
        except OSError:  # what cannot be read is the library's to report, in its words
            return path
        refuse_lfs_pointer(head, path)
        return path

    def opened(self, path: Path, most: int) -> BinaryIO:
        """The file as a binary stream of at most ``most`` bytes, for libraries that read a stream."""
        local = self.local(path)
        if local is not None:
            return local.open("rb")
        return NamedBytes(self.read(path, most), self.identity(path))

    def label(self, path: Path) -> str:
        """How messages name the file: its path, or ``REV:path`` at a revision."""
        return str(path)

    def identity(self, path: Path) -> str:
        """Tells apart the files of one path in two sources (a font registered for each)."""
        return str(path)

    def version(self, paths: Iterable[Path]) -> str | None:
        """The version of these files: the short id of the last commit that touched them,
        with ``+`` when the working tree changed them since; None outside a git repository,
        without git, or when git cannot say."""
        wanted = list(paths)
        if not wanted:
            return None
        folder = wanted[0] if self.is_dir(wanted[0]) else wanted[0].parent
        root = repository_root(folder)
        if root is None:
            return None
        names = relative_paths(root, wanted)
        commit, changed = together(lambda: last_commit(root, names), lambda: has_changes(root, names))
        if commit is None:
            return None
        return commit + ("+" if changed else "")


def special_kind(mode: int) -> str | None:
    """What a file of ``mode`` (from ``stat``) is when it is not a regular file: reading a
    named pipe waits for a writer that never comes, reading a device never ends."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def refuse_lfs_pointer(data: bytes, path: Path) -> None:
    """Raise OSError when ``data``, read from the disk at ``path``, is the small text Git LFS
    leaves in place of a file whose content was never fetched (a clone made without git-lfs,
    or with GIT_LFS_SKIP_SMUDGE): read as the file, it would be a broken image, font or deck."""
    if len(data) < MAX_LFS_POINTER_BYTES and lfs_object(data) is not None:
        raise OSError(errno.ENODATA, "it is a Git LFS pointer: the file's content was never fetched; "
                      "git lfs pull fetches it", str(path))


DISK = FileSource()
"""The disk, where files are read from unless :func:`reading_from` says otherwise."""


class NamedBytes(io.BytesIO):
    """Bytes with a name, as libraries that take a stream name what they read (reportlab's fonts)."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name


@dataclass(repr=False, eq=False)
class Revision(FileSource):
    """A deck's files as they were at one commit of the git repository holding them.

    Only paths inside ``folders`` are read from the commit; a path there that the commit
    does not hold is missing, even when the working tree has it. A path is named as the
    commit names it, by what it says and not through the working tree's links
    (:func:`~generator.revisions.git.tree_name`): a file or folder the working tree has made
    a link since is read as the commit holds it. The commit's own links are followed as a
    checkout of it would follow them, as long as they lead into the folders; one that leads
    elsewhere (or is absolute, or loops) is left a link, no file to read, so a deck at a
    revision cannot reach outside its folders either.
    """

    root: Path
    """The top folder of the working tree (``git rev-parse --show-toplevel``)."""
    commit: str
    """The full id of the commit."""
    name: str
    """The revision as the user wrote it (``HEAD~1``), for messages."""
    folders: tuple[str, ...]
    """The folders read from the commit, as git names them from ``root``."""
    files: dict[str, TreeEntry] = field(default_factory=dict)
    kept: dict[str, bytes] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, folders: Iterable[Path], revision: str) -> Revision:
        """The files under ``folders`` (the first holds the deck) at ``revision`` of the repository
        holding them. Raises :class:`~generator.revisions.git.GitError` when there is no such
        repository or revision, or git cannot list the files."""
        wanted = list(folders)
        root = repository_root(wanted[0])
        if root is None:
            if git_program() is None:
                raise GitError("git is not installed (no git on the PATH), so there is no revision to read")
            raise GitError(f"not in a git repository, so there is no revision '{revision}' to read")
        commit = resolve_revision(root, revision)
        if tree_name(root, wanted[0]) is None:  # a folder git names from elsewhere: nothing to read
            raise GitError(f"{wanted[0]} is not inside the repository at {root}")
        names = tuple(_tree_names(root, wanted))
        return cls(root=Path(os.path.realpath(root)), commit=commit, name=revision, folders=names,
                   files=list_tree(root, commit, names))

    def _written(self, path: Path) -> str | None:
        """``path`` as the commit names it, when it lies in one of the folders; else None."""
        name = tree_name(self.root, path)
        if name is None or not self._holds(name):
            return None
        return name

    def _holds(self, name: str) -> bool:
        """Whether the commit's ``name`` lies in one of the folders read from it."""
        return any(name == folder or folder == "." or name.startswith(folder + "/") for folder in self.folders)

    def _name(self, path: Path) -> str | None:
        """The name of the file the commit holds at ``path`` (:meth:`_written`), its links followed."""
        written = self._written(path)
        return None if written is None else self._followed(written)

    def _followed(self, name: str) -> str:
        """``name`` with each link of the commit on its way replaced by what the link names,
        as the system reads a path on the disk; ``name`` itself when a link on it leads out of
        the folders, is absolute, cannot be read, or more than :data:`MAX_LINKS_FOLLOWED` are met."""
        done: list[str] = []
        pending = [part for part in name.split("/") if part != "."]
        links = 0
        while pending:
            part = pending.pop(0)
            if part == "..":
                if not done:
                    return name
                done.pop()
                continue
            done.append(part)
            found = self.files.get("/".join(done))
            if found is None or found.mode != LINK_MODE:
                continue
            target = self._link_target(found)
            links += 1
            if target is None or target.startswith("/") or links > MAX_LINKS_FOLLOWED:
                return name
            done.pop()
            pending[:0] = [step for step in target.split("/") if step not in ("", ".")]
        followed = "/".join(done) or "."
        return followed if self._holds(followed) else name

    def _link_target(self, link: TreeEntry) -> str | None:
        """What a link of the commit names; None when it cannot be read or is too long to be a path."""
        if link.size > MAX_LINK_BYTES:
            return None
        target = self.kept.get(link.object)
        if target is None:
            try:
                target = read_blob(self.root, link.object, link.size)
            except OSError:
                return None
            self._keep(link.object, target)
        return target.decode("utf-8", errors="surrogateescape") or None

    @cached_property
    def _folders(self) -> frozenset[str]:
        """Every folder the commit holds under the folders read (and the root)."""
        found = {"."}
        for name in self.files:
            parent = PurePosixPath(name).parent
            while str(parent) not in found:
                found.add(str(parent))
                parent = parent.parent
        return frozenset(found)

    def entry(self, path: Path) -> Entry:
        name = self._name(path)
        if name is None:
            return super().entry(path)
        found = self.files.get(name)
        if found is not None and found.mode == LINK_MODE:
            return Entry(found.size, "a symbolic link")
        if found is not None and found.mode == SUBMODULE_MODE:
            return Entry(0, "a folder")
        if found is not None:
            return Entry(self._stored_size(found))
        if name in self._folders:
            return Entry(0, "a folder")
        raise FileNotFoundError(errno.ENOENT, f"no such file at {self.name}", self.label(path))

    def read(self, path: Path, most: int) -> bytes:
        name = self._name(path)
        if name is None:
            return super().read(path, most)
        found = self.files.get(name)
        if found is None or found.mode in (LINK_MODE, SUBMODULE_MODE):
            raise FileNotFoundError(errno.ENOENT, f"no file to read at {self.name}", self.label(path))
        if found.object in self.kept:
            return self.kept[found.object][:most]
        small = found.size < MAX_LFS_POINTER_BYTES  # read whole: it may be a Git LFS pointer
        data = read_blob(self.root, found.object, found.size if small else min(most, MAX_GIT_OUTPUT))
        whole = len(data) == found.size
        if small:
            data = self._lfs_content(data, path, name)
        if whole:
            self._keep(found.object, data)
        return data[:most]

    def _keep(self, object_id: str, content: bytes) -> None:
        """Keep a file's content for the next read of it, within :data:`MAX_KEPT_BYTES`."""
        if sum(map(len, self.kept.values())) + len(content) <= MAX_KEPT_BYTES:
            self.kept[object_id] = content

    def _stored_size(self, found: TreeEntry) -> int:
        """The size of the file a blob stands for: its own, or the size of the content a Git LFS
        pointer names (that is the file's, for every limit on file sizes)."""
        if found.size >= MAX_LFS_POINTER_BYTES:
            return found.size
        if found.object not in self.kept:
            blob = read_blob(self.root, found.object, found.size)
            named = lfs_object(blob)
            if named is not None:
                return named[1]
            self._keep(found.object, blob)  # read now, so that reading the file asks git no more
            return len(blob)
        return len(self.kept[found.object])

    @cached_property
    def _lfs_store(self) -> Path | None:
        return lfs_store(self.root)

    def _lfs_content(self, blob: bytes, path: Path, name: str) -> bytes:
        """``blob``, or when it is a Git LFS pointer the content it names: from the repository's
        LFS store, or the file on the disk when it holds that content still. Both are read as
        files, and the repository's LFS filter (a program its configuration names) is never run."""
        named = lfs_object(blob)
        if named is None:
            return blob
        digest, size = named
        store, in_tree = self._lfs_store, self.root / name
        candidates = [store / digest[:2] / digest[2:4] / digest] if store else []
        if lies_inside(in_tree, self.root.resolve()):
            candidates.append(in_tree)
        for candidate in candidates:
            try:
                if (candidate.is_file() and not candidate.is_symlink() and candidate.stat().st_size == size
                        and size <= MAX_GIT_OUTPUT):
                    content = candidate.read_bytes()
                    if hashlib.sha256(content).hexdigest() == digest:
                        return content
            except OSError:
                continue
        raise FileNotFoundError(errno.ENOENT, f"kept in Git LFS, and its content at {self.name} is not on this "
                                "machine (git lfs fetch fetches it)", self.label(path))

    def listing(self, folder: Path) -> list[Path]:
        name = self._name(folder)
        if name is None:
            return super().listing(folder)
        if self.entry(folder).kind != "a folder":
            raise NotADirectoryError(errno.ENOTDIR, "not a folder", self.label(folder))
        prefix = "" if name == "." else name + "/"
        children = {candidate[len(prefix):].split("/")[0] for candidate in self.files if candidate.startswith(prefix)}
        return sorted(folder / child for child in children)

    def resolved(self, path: Path) -> Path:
        """In the folders, the path the commit holds the file at, read as written (no link of
        the working tree's followed: they are not the commit's); elsewhere as on the disk."""
        name = self._name(path)
        return super().resolved(path) if name is None else self.root / name

    def local(self, path: Path) -> Path | None:
        return None if self._name(path) is not None else path

    def label(self, path: Path) -> str:
        name = self._written(path)
        return f"{self.name}:{name}" if name is not None else str(path)

    def identity(self, path: Path) -> str:
        name = self._name(path)
        return f"{self.commit}:{name}" if name is not None else str(path)

    def version(self, paths: Iterable[Path]) -> str | None:
        """The short id of the last commit up to this revision that touched these files."""
        return last_commit(self.root, _tree_names(self.root, paths), self.commit)


def _tree_names(root: Path, paths: Iterable[Path]) -> list[str]:
    """The names of ``paths`` in the repository at ``root`` (:func:`tree_name`), sorted, leaving out
    those outside it."""
    return sorted({name for name in (tree_name(root, path) for path in paths) if name is not None})


_SOURCE: ContextVar[FileSource] = ContextVar("deck_files", default=DISK)
"""Where the files of decks are read from, for the code running now."""


def current_source() -> FileSource:
    """Where the files of decks are read from now: the disk, unless :func:`reading_from` says otherwise."""
    return _SOURCE.get()


@contextmanager
def reading_from(source: FileSource) -> Iterator[FileSource]:
    """Read the files of decks from ``source`` inside the ``with`` block (and from where they
    were read before it, after it)."""
    token = _SOURCE.set(source)
    try:
        yield source
    finally:
        _SOURCE.reset(token)
