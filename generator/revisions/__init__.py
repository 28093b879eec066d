"""Versions of a deck's files: where they are read from (the disk, or a git revision, see
:mod:`generator.revisions.source`) and what git says of them (:mod:`generator.revisions.git`).

Stands on the ground floor, beside the loader that reads every file through it.
"""

from generator.revisions.git import GIT_TIMEOUT_SECONDS, GitError, GitMissing, head_files, started, without_crlf
from generator.revisions.source import (
    DISK,
    Entry,
    FileSource,
    NamedBytes,
    Revision,
    current_source,
    reading_from,
    refuse_lfs_pointer,
    special_kind,
)

__all__ = ["DISK", "GIT_TIMEOUT_SECONDS", "Entry", "FileSource", "GitError", "GitMissing", "NamedBytes", "Revision",
           "current_source", "head_files", "reading_from", "refuse_lfs_pointer", "special_kind", "started",
           "without_crlf"]
