"""Checks run beside the others, in a forked copy of this process, on another core.

Once a verdict has loaded the deck and its layouts, what is left splits in two:
laying out every face and measuring its contrast, and checks that only read the
deck and the renderer (the rules, the sheets, the stats questions, the rules
booklet). On a machine with a second core, the second lot runs in a fork of this
process, which starts with everything already loaded and imported, while this one
goes on with the first. What the copy finds comes back pickled through a pipe and
takes its place in the checks' order, so the verdict is the one the checks make
one after the other: the same findings in the same order, the same counts.

Nothing depends on the copy. The checks simply run here, after the others, where a
fork cannot help or cannot be trusted, or when the copy fails in any way (it
crashes, is killed, finds something that cannot be pickled). A fork cannot help on
one core. It cannot be trusted on a system other than Linux, where forking a process
that has loaded libraries is not always safe; with other threads running, whose
locks a fork would copy held; or with SIGCHLD ignored, which leaves no copy to wait for.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

from generator.errors import DeckpressError
from generator.findings import findings_from
from generator.machine import usable_cores

if TYPE_CHECKING:
    from generator.findings import Finding
    from generator.verdict import Check, Subject

_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}
"""What stops a command (Ctrl-C, ``kill``, a closed terminal): held back while the copy starts."""

MOST_RESULT_BYTES = 256 * 1024 * 1024
"""What the copy may send back. Findings are a few hundred bytes each; past this the
copy's answer is not read, and its checks run here instead."""


@dataclass(eq=False)
class Outcome:
    """What one check found, and the counts it set on the subject."""

    findings: list[Finding]
    counts: dict[str, int]


def outcome_of(check: Check, subject: Subject) -> Outcome:
    """Run ``check``; a check that stops short with a ``DeckpressError`` still reports why."""
    counted = dict(subject.counts)
    try:
        found = list(check(subject))
    except DeckpressError as error:
        found = findings_from(error)
    return Outcome(found, {name: count for name, count in subject.counts.items() if counted.get(name) != count})


class Beside:
    """``checks`` running on ``subject`` in a forked copy of this process (a context manager).

    ``outcomes()`` waits for the copy and gives each check's :class:`Outcome`, in order;
    each check the copy could not report on is run here then. Leaving the ``with`` block
    stops a copy still running (an error, Ctrl-C) and waits for it to end.
    """

    def __init__(self, checks: Sequence[Check], subject: Subject):
        self.checks = list(checks)
        self.subject = subject
        self._pid: int | None = None
        self._answer: int | None = None  # the pipe's end this process reads

    def __enter__(self) -> Beside:
        if self.checks and can_fork():
            try:
                self._start()
            except BaseException:  # Ctrl-C as the copy starts: it is stopped at once
                self._stop()
                raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop()

    def outcomes(self) -> list[Outcome]:
        answered = self._collect() if self._pid is not None else None
        if answered is None:
            return [outcome_of(check, self.subject) for check in self.checks]
        for outcome in answered:
            self.subject.counts.update(outcome.counts)
        return answered

    def _start(self) -> None:
        answer, sink = os.pipe()
        # Stop signals wait until each process knows its part: the copy must never run this
        # process's own handlers (its cleanup, its "Aborted!"), and this one must never lose
        # track of a copy it has made.
        masked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            try:
                pid = os.fork()
            except OSError:  # no memory or process left for a copy: the checks run here
                os.close(answer)
                os.close(sink)
                return
            if pid == 0:
                _answer_in_copy(self.checks, self.subject, answer, sink, masked)  # never returns
            self._pid, self._answer = pid, answer
            os.close(sink)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, masked)

    def _collect(self) -> list[Outcome] | None:
        """The copy's outcomes, or None when it did not finish and say them all."""
        data = _read_all(self._answer, MOST_RESULT_BYTES)
        if data is None:  # it says too much: stop it
            self._stop()
            return None
        os.close(self._answer)
        self._answer = None
        ended_well = self._wait()  # it closed the pipe: it is ending
        if not ended_well:
            return None
        try:
            answered = pickle.loads(data)
        except Exception:  # a truncated answer: the copy died while writing it
            return None
        if not (isinstance(answered, list) and len(answered) == len(self.checks)
                and all(isinstance(outcome, Outcome) for outcome in answered)):
            return None
        return answered

    def _wait(self) -> bool:
        """Wait for the copy to end; False if it ended on an error or a signal. The copy is
        forgotten only once it has ended, so an interrupted wait still stops it."""
        try:
            _, status = os.waitpid(self._pid, 0)
        except ChildProcessError:  # reaped already (SIGCHLD ignored): its answer tells
            status = 0
        self._pid = None
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0

    def _stop(self) -> None:
        """Close the pipe, stop the copy if it is still running, and wait for it to end."""
        if self._answer is not None:
            os.close(self._answer)
            self._answer = None
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._wait()


def can_fork() -> bool:
    """Whether a forked copy could run beside this process, safely and on a core of its own."""
    return (hasattr(os, "fork") and sys.platform == "linux" and threading.active_count() == 1
            and usable_cores() > 1 and signal.getsignal(signal.SIGCHLD) != signal.SIG_IGN)


def _answer_in_copy(checks: Iterable[Check], subject: Subject, answer: int, sink: int,
                    masked: set[signal.Signals]) -> None:
    """In the copy: run the checks, write their pickled outcomes, and end without running
    anything of the parent's (no exit handlers, no buffered output written twice), even
    when a signal stops it."""
    status = 1
    try:
        os.close(answer)
        # The copy's life is short; collecting could run finalisers of the parent's objects.
        gc.disable()
        signal.pthread_sigmask(signal.SIG_SETMASK, masked)
        data = pickle.dumps([outcome_of(check, subject) for check in checks], protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(sink, "wb") as pipe:
            pipe.write(data)
        status = 0
    finally:
        os._exit(status)


def _read_all(source: int, most: int) -> bytes | None:
    """Everything written to the pipe until it closes, or None past ``most`` bytes."""
    chunks, size = [], 0
    while True:
        chunk = os.read(source, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)


__all__ = ["Beside", "Outcome", "can_fork", "outcome_of"]
