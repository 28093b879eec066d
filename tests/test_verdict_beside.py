"""The checks that run beside the others, in a forked copy of the process, give the verdict
the checks give one after the other: the same findings in the same order, the same counts,
whether the copy answers, dies, cannot say what it found, or cannot be started."""

from __future__ import annotations

import os
import signal
import time

import pytest

from cli_run import CARDS
from generator.findings import Finding
from generator.verdict import beside, checks, verdict
from generator.verdict.beside import Beside, can_fork
from test_verdict import DECK, LONG_TEXT, project

needs_fork = pytest.mark.skipif(not can_fork(), reason="no second core to fork a copy onto")

BROKEN = (DECK.replace("text: Regrows.", f"text: {LONG_TEXT}").replace("total: 6", "total: 7")
          + "stats:\n  questions:\n    - {name: big hand, draw: 9, need: {where: {kind: hero}}}\n")
"""A deck whose faces, rules and stats questions each have a problem."""


def _verdict_one_after_another(path, monkeypatch):
    with monkeypatch.context() as patched:
        patched.setattr(beside, "can_fork", lambda: False)
        return verdict(path)


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
