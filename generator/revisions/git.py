"""Asking git about a deck's files: which repository holds them, the last commit that
touched them, whether the working tree changed them since, and their contents at a
revision.

Every question is one ``git`` command, bounded in time (:data:`GIT_TIMEOUT_SECONDS`)
and in what it may print (:data:`MAX_GIT_OUTPUT`), so a repository on a dead network
share or a tree of millions of files cannot hang deckpress or fill its memory. The
commands only read: ``git status`` is told not to refresh the index
(``GIT_OPTIONAL_LOCKS=0``), so nothing in the repository is written, and the file
system monitor a repository's configuration may name is not started.
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar, cast

from generator.errors import printable

T = TypeVar("T")

GIT_TIMEOUT_SECONDS = 10.0
"""How long one git command may run. Each answers in milliseconds on a local repository;
one that hangs (a lock, a repository on a network share that went away) is given up."""

MAX_GIT_OUTPUT = 64 * 1024 * 1024
"""Bytes one git command may print: a tree listing of the deck's folders, or one file.
Far above any deck (a file a deck reads is at most 40 MB, a font); past it the command
is stopped rather than read into memory."""

MAX_TREE_ENTRIES = 100_000
"""Files listed under a deck's folders at one revision. A deck folder holds tens of files;
a listing of this many is a folder of something else (a photo library, node_modules)."""

MAX_ERROR_BYTES = 64 * 1024
"""What of git's own complaint (its standard error) is kept, for the first line of it."""

MAX_LFS_POINTER_BYTES = 1024
"""Git LFS keeps a large file in the repository as a pointer of fewer bytes than this (its
specification's bound); only a blob this small is read to ask whether it is one."""
LFS_POINTER_START = b"version https://git-lfs.github.com/spec/v1\n"

MAX_POINTER_BYTES = 4096
"""Bytes read of a small file of git's own that names another (``HEAD``, a ``.git`` file,
``commondir``); each holds one line."""

SAFE_OPTIONS = ("-c", "core.fsmonitor=false", "-c", "core.quotepath=off")
"""Given to every command: no file system monitor (a repository's configuration can name a
program to run as one), and file names printed as they are."""

UNSET_ENVIRONMENT = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                     "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR",
                     "GIT_PREFIX")
"""Set when deckpress runs inside a git hook; they would point git at another repository
than the one holding the deck."""


class GitError(OSError):
    """A git command could not answer: git is missing, timed out, or refused (its message).
    A file that cannot be read from git is one that cannot be read, as from a disk."""


class GitMissing(GitError):
    """There is no ``git`` program on the PATH."""


@dataclass(repr=False, eq=False)
class TreeEntry:
    """One file of a tree at a revision: its mode (``100644``, ``120000`` a link), object and size."""

    mode: str
    object: str
    size: int


def git_program() -> str | None:
    """The ``git`` on the PATH, or None."""
    return shutil.which("git")


def run_git(arguments: Sequence[str], folder: Path, limit: int = MAX_GIT_OUTPUT,
            timeout: float | None = None, cut: bool = False) -> bytes:
    """What ``git <arguments>`` run in ``folder`` prints (at most ``limit`` bytes).

    Raises :class:`GitMissing` without git, and :class:`GitError` with git's first line of
    complaint when it fails, runs past ``timeout`` seconds (:data:`GIT_TIMEOUT_SECONDS` unless
    told) or prints more than ``limit``; with ``cut``, printing more is no failure: the first
    ``limit`` bytes are the answer.
    """
    timeout = GIT_TIMEOUT_SECONDS if timeout is None else timeout
    program = git_program()
    if program is None:
        raise GitMissing("git is not installed (no git on the PATH)")
    with tempfile.TemporaryFile() as complaint:
        try:
            process = subprocess.Popen([program, *SAFE_OPTIONS, *arguments], cwd=folder,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=complaint, env=_environment())
        except OSError as error:
            raise GitError(f"git cannot be run: {error.strerror or error}") from None
        stopped = threading.Event()

        def stop() -> None:
            stopped.set()
            process.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        try:
            assert process.stdout is not None  # asked for with stdout=PIPE
            output = process.stdout.read(limit + 1)
            if len(output) > limit:
                process.kill()
            process.stdout.close()
            code = process.wait()
        finally:
            timer.cancel()
        if stopped.is_set():
            raise GitError(f"git did not answer within {timeout:g} seconds")
        if len(output) > limit and cut:
            return output[:limit]
        if len(output) > limit:
            raise GitError(f"git printed more than {limit:,} bytes")
        if code != 0:
            complaint.seek(0)
            raise GitError(_first_line(complaint.read(MAX_ERROR_BYTES)) or f"git failed (exit status {code})")
    return output


def started(question: Callable[[], T]) -> Callable[[], T]:
    """``question`` (a function that waits on git) set going now, on a thread of its own that
    reads deck files from where this one does (:func:`generator.revisions.current_source`);
    what is returned waits for its answer and raises again what it raised. Lets git's
    commands run while deckpress goes on with other work."""
    context = contextvars.copy_context()
    outcome: list[tuple[Any, BaseException | None]] = []

    def ask() -> None:
        outcome.append(_settled(lambda: context.run(question)))

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()

    def answer() -> T:
        thread.join()
        return cast(T, _raised(outcome[0]))

    return answer


def together(*questions: Callable[[], Any]) -> list[Any]:
    """The answers of ``questions``, in their order: the first asked on this thread, the others
    each on one of their own (:func:`started`), so that their git commands run side by side.
    The first that raised is raised again, once every one has finished."""
    others = [started(question) for question in questions[1:]]
    outcomes = [_settled(questions[0]), *(_settled(other) for other in others)]
    return [_raised(outcome) for outcome in outcomes]


def _settled(question: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    """What ``question`` answered, or what it raised (to raise again in the thread that waits)."""
    try:
        return question(), None
    except BaseException as error:
        return None, error


def _raised(outcome: tuple[Any, BaseException | None]) -> Any:
    value, error = outcome
    if error is not None:
        raise error
    return value


def _environment() -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if name not in UNSET_ENVIRONMENT}
    environment.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", GIT_LITERAL_PATHSPECS="1",
                       GIT_PAGER="cat", LC_ALL="C")
    return environment


def _first_line(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace").strip()
    line = text.splitlines()[0] if text else ""
    return line.removeprefix("fatal: ").removeprefix("error: ")


def repository_root(folder: Path) -> Path | None:
    """The top folder of the git working tree holding ``folder``: the nearest folder at or
    above it with a ``.git`` (a folder, or the file a worktree or submodule has); None outside
    one. Found by looking, not by asking git, since every command that reads a deck asks."""
    for candidate in (folder.resolve(), *folder.resolve().parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def head_files(folder: Path) -> list[Path]:
    """The files git rewrites when the commit the working tree holding ``folder`` stands on moves (a
    commit, a checkout, a reset, a merge) or what is staged changes: ``HEAD``, the branch it
    names (its loose ref and ``packed-refs``, where refs go once packed) and the index, in the
    repository's own folder (the one a worktree's or submodule's ``.git`` file points to, its
    branches in the folder it shares). They are found by reading, not by asking git, so that
    looking at them often (as the live preview does, to follow the version) starts no program;
    a file that is not there now is named all the same, so that its coming is seen; none
    outside a repository."""
    root = repository_root(folder)
    repository = _git_folder(root / ".git", root) if root is not None else None
    if repository is None:
        return []
    shared = repository
    common = _small_text(repository / "commondir")
    if common is not None and common.strip():
        shared = repository / common.strip()
    files = [repository / "HEAD", repository / "index", shared / "packed-refs"]
    head = _small_text(repository / "HEAD")
    if head is not None and head.startswith("ref: refs/"):
        name = PurePosixPath(head.removeprefix("ref: ").strip())
        if ".." not in name.parts:
            files.append(shared.joinpath(*name.parts))
    return files


def _git_folder(dot_git: Path, root: Path) -> Path | None:
    """The repository's folder: ``.git`` itself, or the folder its ``gitdir:`` line names."""
    if dot_git.is_dir():
        return dot_git
    pointer = _small_text(dot_git)
    if pointer is None or not pointer.startswith("gitdir:"):
        return None
    return root / pointer.removeprefix("gitdir:").strip()


def _small_text(path: Path) -> str | None:
    """The text of the small regular file at ``path``; None when it is missing, something other
    than a file (a named pipe would never end a read) or longer than :data:`MAX_POINTER_BYTES`."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_POINTER_BYTES:
            return None
        with path.open("rb") as stream:
            return stream.read(MAX_POINTER_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return None


def relative_paths(root: Path, paths: Iterable[Path]) -> list[str]:
    """``paths`` as git names them from ``root`` (``cards/tiki``), leaving out those outside it."""
    top = os.path.realpath(root)
    found = []
    for path in paths:
        real = os.path.realpath(path)
        if real == top:
            found.append(".")
        elif real.startswith(top.rstrip(os.sep) + os.sep):
            found.append(PurePosixPath(Path(os.path.relpath(real, top))).as_posix())
    return sorted(set(found))


def tree_name(root: Path, path: Path) -> str | None:
    """``path`` as a commit of the repository at ``root`` names it (``cards/tiki/art/hero.png``);
    None when it lies outside the working tree.

    Links are followed only until the path reaches the working tree (a home folder reached
    through one, a deck folder linked in from elsewhere); from the first folder of it on, the
    path is read as written, ``..`` taken away with the name before it. A commit holds its files
    by name, and the working tree's links are not the commit's: ``art/hero.svg`` linked to
    ``art/hero-alt.svg`` on the disk is still ``art/hero.svg`` at a revision."""
    top = Path(os.path.realpath(root))
    written = Path(os.path.abspath(path))
    for reach in (*reversed(written.parents), written):
        real = Path(os.path.realpath(reach))
        if real.is_relative_to(top):
            return (real.relative_to(top) / written.relative_to(reach)).as_posix()
    return None


def last_commit(root: Path, paths: Sequence[str], revision: str = "HEAD") -> str | None:
    """The short id of the last commit up to ``revision`` that touched any of ``paths`` (git's
    names from ``root``); None when none did, or git cannot say. Asked of ``git rev-list``,
    which walks the history as ``git log`` does without formatting what it finds."""
    if not paths:
        return None
    try:
        output = run_git(["rev-list", "-1", "--abbrev-commit", revision, "--", *paths], root, limit=64 * 1024)
    except (GitError, OSError):
        return None
    return output.decode("ascii", errors="replace").strip() or None


def has_changes(root: Path, paths: Sequence[str]) -> bool:
    """Whether the working tree changes any of ``paths`` from the last commit (edited, added,
    removed or new files not ignored); False when git cannot say.

    ``git status`` would answer this, but it runs the clean filters a repository's own
    configuration names (``.git/config`` travels with a shared deck folder), which is a
    program of that configuration's choosing. So the files on disk are hashed here as git
    hashes a blob and compared with the last commit's tree, and only git commands that run
    no filter are asked: the tree at HEAD and the untracked files not ignored.
    """
    if not paths:
        return False
    try:
        committed, listed = together(
            lambda: list_tree(root, "HEAD", paths),
            lambda: run_git(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths], root))
    except (GitError, OSError):
        return False
    names = {part.decode("utf-8", errors="surrogateescape") for part in listed.split(b"\0") if part}
    if names != set(committed):  # a file added, staged, untracked or removed from the index
        return True
    inside = root.resolve()
    return any(_changed(inside, root / name, entry) for name, entry in committed.items())


def _changed(root: Path, path: Path, entry: TreeEntry) -> bool:
    """Whether the file at ``path`` differs from the committed blob ``entry``: missing, another
    kind, outside the repository ``root`` (resolved) through a linked folder, or other bytes
    (hashed as git hashes a blob, SHA-1 or SHA-256 by the id's length).

    A text file checked out with CRLF line endings where the commit has LF (``core.autocrlf``,
    Git for Windows' default) is unchanged, as git, which would run its conversion, says. A file
    kept in Git LFS counts as changed: telling would take a git process and a hash of the whole
    file for each, on every command."""
    try:
        if entry.mode == "120000":
            content = os.readlink(path).encode("utf-8", errors="surrogateescape")
        elif path.is_symlink() or not path.is_file() or not lies_inside(path, root):
            return True
        elif not entry.size <= path.stat().st_size <= 2 * entry.size:  # CRLF at most doubles a file
            return True
        else:
            content = path.read_bytes()
    except OSError:
        return True
    if _blob_id(content, entry.object) == entry.object:
        return False
    return not (len(content) > entry.size and b"\r\n" in content and b"\0" not in content
                and _blob_id(without_crlf(content), entry.object) == entry.object)


def lies_inside(path: Path, root: Path) -> bool:
    """Whether ``path`` lies under the folder ``root`` (resolved) once links are followed, not
    through a folder linked elsewhere; False for a loop of links."""
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # RuntimeError: a loop of links, before Python 3.13
        return False


def _blob_id(content: bytes, like: str) -> str:
    """The id git gives a blob of ``content``, in the hash of the id ``like`` (SHA-1 or SHA-256)."""
    digest = hashlib.sha256 if len(like) == 64 else hashlib.sha1
    return digest(b"blob %d\0" % len(content) + content).hexdigest()


def without_crlf(text: bytes) -> bytes:
    """``text`` with each CRLF line ending made LF, as git commits a text file it checked out
    with CRLF (and as XML reads an SVG file either way)."""
    return text.replace(b"\r\n", b"\n")


def lfs_object(pointer: bytes) -> tuple[str, int] | None:
    """The SHA-256 (hex) and size of the content a Git LFS pointer file names; None when
    ``pointer`` is not one."""
    if len(pointer) >= MAX_LFS_POINTER_BYTES or not pointer.startswith(LFS_POINTER_START):
        return None
    fields = dict(line.partition(b" ")[::2] for line in pointer.split(b"\n") if line)
    oid, size = fields.get(b"oid", b""), fields.get(b"size", b"")
    if not oid.startswith(b"sha256:") or not size.isdigit():
        return None
    digest = oid[len(b"sha256:"):].decode("ascii", errors="replace")
    if len(digest) != 64 or any(char not in "0123456789abcdef" for char in digest):
        return None
    return digest, int(size)


def lfs_store(root: Path) -> Path | None:
    """Where Git LFS keeps the contents it has fetched for the repository at ``root``
    (``.git/lfs/objects``, shared by its worktrees); None when git cannot say."""
    try:
        common = run_git(["rev-parse", "--git-common-dir"], root, limit=4096)
    except OSError:
        return None
    return root / common.decode("utf-8", errors="surrogateescape").strip() / "lfs" / "objects"


def resolve_revision(root: Path, revision: str) -> str:
    """The full id of the commit ``revision`` names (``HEAD``, ``v0.3``, ``HEAD~2``, an id,
    ``:/message``); :class:`GitError` when it names none. The object it names is found first,
    then taken to its commit (a tag's), since ``^{commit}`` written after ``:/message`` would be
    read as part of the message."""
    if not revision or revision.startswith("-") or any(ord(char) < 32 for char in revision):
        raise GitError(f"'{printable(revision)}' is not a revision")
    try:
        named = run_git(["rev-parse", "--verify", "--quiet", revision], root, limit=4096)
        commit = named.decode("ascii", errors="replace").strip() + "^{commit}"
        output = run_git(["rev-parse", "--verify", "--quiet", commit], root, limit=4096)
    except GitMissing:
        raise
    except GitError:
        raise GitError(f"no revision '{printable(revision)}' in the repository at {root}") from None
    return output.decode("ascii", errors="replace").strip()


def list_tree(root: Path, commit: str, paths: Sequence[str]) -> dict[str, TreeEntry]:
    """Every file under ``paths`` (git's names from ``root``) at ``commit``, by its name."""
    if not paths:
        return {}
    output = run_git(["ls-tree", "-r", "-z", "--long", "--full-tree", commit, "--", *paths], root)
    entries: dict[str, TreeEntry] = {}
    for record in output.split(b"\0"):
        if not record:
            continue
        header, _, name = record.partition(b"\t")
        parts = header.split()
        if len(parts) != 4:
            continue
        mode, _kind, object_id, size = (part.decode("ascii", errors="replace") for part in parts)
        entries[name.decode("utf-8", errors="surrogateescape")] = TreeEntry(
            mode, object_id, int(size) if size.isdigit() else 0)
        if len(entries) > MAX_TREE_ENTRIES:
            raise GitError(f"more than {MAX_TREE_ENTRIES:,} files under {', '.join(paths)} at {commit[:12]}")
    return entries


def read_blob(root: Path, object_id: str, limit: int) -> bytes:
    """The contents of one file at a revision, by its object id (what ``git show REV:path``
    prints): its first ``limit`` bytes."""
    return run_git(["cat-file", "blob", object_id], root, limit=limit, cut=True)
