"""Rasterising on every core: export work split into tasks, run by worker processes.

Rasterising a face and encoding its PNG take far longer than planning the
export, and each face is independent of the others, so an export cuts its work
into small tasks and hands them to a pool of worker processes, one per core
(``--jobs``). Each worker is a fork of the exporting process, so it starts
with the deck, its layouts and fonts already loaded; a task names the cards it
is about by their place in the deck, and returns bytes.

Results come back in the order the tasks were given, and how the work is cut
into tasks never depends on the number of workers, so the files an export
writes are the same bytes whatever ``--jobs`` says. Only a few tasks are handed
out ahead of the one whose result is awaited (:data:`TASKS_AHEAD_PER_WORKER`),
so results never pile up waiting, however many faces a deck has. With one job,
or where processes cannot be forked, the tasks simply run here, one after the other.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

from generator.render import Renderer

Task = Callable[[Renderer, Any], Any]
"""A module-level function of the renderer and one small, picklable piece of work."""

TASKS_AHEAD_PER_WORKER = 4
"""Tasks handed out for each worker before the first result is taken: enough that no worker
waits while the results before its own are written to disk, few enough that no more than a
few dozen faces' results are ever held."""

_WORKER_RENDERER: list[Renderer] = []
"""Inside a worker process: the renderer it was forked with (set once, by :func:`_adopt`)."""


class Workers:
    """A pool of ``jobs`` processes for one export (a context manager); ``map`` runs tasks on it."""

    def __init__(self, renderer: Renderer, jobs: int):
        self.renderer = renderer
        self.jobs = jobs
        self._executor: Executor | None = None

    def __enter__(self) -> Workers:
        if self.jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            self._executor = ProcessPoolExecutor(max_workers=self.jobs,
                                                 mp_context=multiprocessing.get_context("fork"),
                                                 initializer=_adopt, initargs=(self.renderer,))
        return self

    def __exit__(self, *exc_info) -> None:
        if self._executor is not None:
            # An export that stopped early (an error, Ctrl-C) does not wait for work nobody will read.
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def map(self, task: Task, pieces: Iterable[Any]) -> Iterator[Any]:
        """``task(renderer, piece)`` for every piece, in order; a few at a time are handed out
        ahead of the one being read (none before the first is asked for)."""
        if self._executor is None:
            return (task(self.renderer, piece) for piece in pieces)
        return self._ahead(self._executor, task, pieces)

    def submit(self, task: Task, piece: Any) -> Callable[[], Any]:
        """Start ``task(renderer, piece)`` now (before anything :meth:`map` hands out later);
        returns the function that waits for its result. With no pool, it runs when asked."""
        if self._executor is None:
            return lambda: task(self.renderer, piece)
        future = self._executor.submit(_run, (task, piece))
        return future.result

    def _ahead(self, executor: Executor, task: Task, pieces: Iterable[Any]) -> Iterator[Any]:
        pending: deque[Future] = deque()
        for piece in pieces:
            pending.append(executor.submit(_run, (task, piece)))
            if len(pending) >= self.jobs * TASKS_AHEAD_PER_WORKER:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


STOPPING_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""Signals a worker leaves to the exporting process: Ctrl-C in a terminal reaches every
process of the command at once, and a worker stopped in the middle of reading its next task
can leave the pool's queue locked, so that the export never ends. The exporting process stops
the pool itself (:meth:`Workers.__exit__`), once the tasks already running are done."""


def _adopt(renderer: Renderer) -> None:
    for name in STOPPING_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_IGN)
    _WORKER_RENDERER.append(renderer)


def _run(job: tuple[Task, Any]) -> Any:
    task, piece = job
    return task(_WORKER_RENDERER[0], piece)
