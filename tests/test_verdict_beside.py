"""The checks that run beside the others, in a forked copy of the process, give the verdict
the checks give one after the other: the same findings in the same order, the same counts,
whether the copy answers, dies, cannot say what it found, or cannot be started."""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import time

import pytest
from cli_run import CARDS
from test_verdict import DECK, LONG_TEXT, project

from generator.errors import Position
from generator.findings import Finding
from generator.verdict import beside, checks, verdict
from generator.verdict.beside import Beside, can_fork

needs_fork = pytest.mark.skipif(not can_fork(), reason="no second core to fork a copy onto")

BROKEN = (DECK.replace("text: Regrows.", f"text: {LONG_TEXT}").replace("total: 6", "total: 7")
          + "stats:\n  questions:\n    - {name: big hand, draw: 9, need: {where: {kind: hero}}}\n")
"""A deck whose faces, rules and stats questions each have a problem."""


def _verdict_one_after_another(path, monkeypatch, **options):
    with monkeypatch.context() as patched:
        patched.setattr(beside, "can_fork", lambda: False)
        return verdict(path, **options)


def _same(found, expected):
    assert found.findings == expected.findings
    assert [finding.details for finding in found.findings] == [finding.details for finding in expected.findings]
    assert found.counts == expected.counts


def _no_copy_left():
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
@pytest.mark.parametrize("game", ["tiki", "cereal-killer"])
def test_a_forked_verdict_of_a_bundled_deck_is_the_verdict_made_one_check_after_another(monkeypatch, game):
    path = CARDS / game / "deck.yaml"
    _same(verdict(path), _verdict_one_after_another(path, monkeypatch))
    _no_copy_left()


@needs_fork
def test_a_forked_verdict_of_a_broken_deck_is_the_verdict_made_one_check_after_another(tmp_path, monkeypatch):
    path = project(tmp_path, BROKEN)
    (path.parent / "rules.md").write_text("# Rules\n\n{{ componants }}\n", encoding="utf-8")
    found = verdict(path)
    assert {finding.kind for finding in found.findings} == {"rule", "stats", "booklet", "fit"}
    _same(found, _verdict_one_after_another(path, monkeypatch))
    _no_copy_left()


def _pid_check(subject):
    return [Finding(kind="test", message=f"checked in {os.getpid()}", position=None)]


@needs_fork
def test_the_checks_beside_run_in_another_process(tmp_path, monkeypatch):
    monkeypatch.setattr(checks, "BESIDE_FACES", checks.BESIDE_FACES + (_pid_check,))
    found = verdict(project(tmp_path), checks=checks.CHECKS + (_pid_check,))
    [mine] = [finding for finding in found.findings if finding.kind == "test"]
    assert mine.message != f"checked in {os.getpid()}"
    _no_copy_left()


def _dies_in_the_copy(parent: int):
    def check(subject):
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return [Finding(kind="test", message="checked here", position=None)]
    return check


def _unpicklable(subject):
    return [Finding(kind="test", message="checked", position=None, details={"how": lambda: None})]


def _fails_unexpectedly(subject):
    raise ValueError("a bug in a check")


@needs_fork
@pytest.mark.parametrize("odd", [_dies_in_the_copy(os.getpid()), _unpicklable])
def test_a_copy_that_cannot_answer_leaves_its_checks_to_this_process(tmp_path, monkeypatch, odd):
    path = project(tmp_path, BROKEN)
    monkeypatch.setattr(checks, "BESIDE_FACES", checks.BESIDE_FACES + (odd,))
    found = verdict(path, checks=checks.CHECKS + (odd,))
    monkeypatch.setattr(beside, "can_fork", lambda: False)
    expected = verdict(path, checks=checks.CHECKS + (odd,))
    assert [finding.message for finding in found.findings] == [finding.message for finding in expected.findings]
    assert found.counts == expected.counts and "rules" in found.counts
    assert any(finding.kind == "test" for finding in found.findings)
    _no_copy_left()


@needs_fork
def test_a_check_that_fails_in_the_copy_fails_here_as_it_would_have(tmp_path, monkeypatch):
    monkeypatch.setattr(checks, "BESIDE_FACES", checks.BESIDE_FACES + (_fails_unexpectedly,))
    with pytest.raises(ValueError, match="a bug in a check"):
        verdict(project(tmp_path), checks=checks.CHECKS + (_fails_unexpectedly,))
    _no_copy_left()


def _sleeps(subject):
    time.sleep(60)
    return []


@needs_fork
def test_leaving_early_stops_the_copy_at_once(tmp_path):
    path = project(tmp_path)
    subject = checks.Subject(path=path)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with Beside([_sleeps], subject):
            raise KeyboardInterrupt
    assert time.monotonic() - started < 10
    _no_copy_left()


def test_no_copy_is_made_where_it_could_not_help(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert not can_fork()
    forks = []
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or pytest.fail("forked on one core"))
    found = verdict(project(tmp_path, BROKEN))
    assert not forks and found.counts == {"rules": 1, "faces": 4}


def _tie(label: str):
    def check(subject):
        return [Finding(kind="test", message=label, position=Position(subject.path, 1, 1))]
    check.__name__ = f"check_{label}"
    return check


@needs_fork
def test_findings_at_one_place_keep_the_order_of_their_checks(tmp_path, monkeypatch):
    first, second = _tie("first"), _tie("second")  # the first runs in the copy, and answers last
    monkeypatch.setattr(checks, "BESIDE_FACES", checks.BESIDE_FACES + (first,))
    found = verdict(project(tmp_path), checks=(checks.check_model, first, checks.check_layouts, second))
    assert [finding.message for finding in found.findings if finding.kind == "test"] == ["first", "second"]


@needs_fork
def test_an_answer_past_its_limit_leaves_the_checks_to_this_process(tmp_path, monkeypatch):
    path = project(tmp_path, BROKEN)
    monkeypatch.setattr(beside, "MOST_RESULT_BYTES", 10)
    monkeypatch.setattr(checks, "BESIDE_FACES", checks.BESIDE_FACES + (_pid_check,))
    found = verdict(path, checks=checks.CHECKS + (_pid_check,))
    assert f"checked in {os.getpid()}" in [finding.message for finding in found.findings]
    _same(found, _verdict_one_after_another(path, monkeypatch, checks=checks.CHECKS + (_pid_check,)))
    _no_copy_left()


def test_no_copy_is_made_beside_other_threads_or_with_children_ignored(monkeypatch):
    import threading

    if not can_fork():
        pytest.skip("no second core to fork a copy onto")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(signal, "getsignal", lambda number: signal.SIG_IGN if number == signal.SIGCHLD else None)
    assert not can_fork()


@needs_fork
def test_check_passes_when_started_with_children_ignored(tmp_path):
    """A process started with SIGCHLD ignored has its children reaped for it."""
    path = project(tmp_path)
    probe = ("import signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); "
             f"sys.argv = ['deckpress', 'check', {str(path)!r}]; "
             "from generator.__main__ import main; main()")
    finished = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert finished.stdout == "ok    game: Verdict Test, 6 cards, 1 rule checked, 4 faces laid out\n"


@needs_fork
def test_ctrl_c_as_the_copy_starts_stops_it_and_runs_nothing_of_ours_in_it(tmp_path, monkeypatch):
    marker = tmp_path / "exit-handler-ran-in-the-copy"
    parent = os.getpid()

    def handler():
        if os.getpid() != parent:
            marker.write_text("ran")

    atexit.register(handler)
    real_fork = os.fork

    def fork_then_interrupt():
        pid = real_fork()
        os.kill(os.getpid(), signal.SIGINT)  # held back until each side knows its part
        return pid

    monkeypatch.setattr(os, "fork", fork_then_interrupt)
    try:
        with pytest.raises(KeyboardInterrupt):
            verdict(project(tmp_path))
        _no_copy_left()
        assert not marker.exists()
    finally:
        atexit.unregister(handler)
