"""Run ``deckpress`` in-process, the way a user would from a shell, and keep what it printed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "cards"


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]


def deckpress(*args: str | Path) -> Run:
    """Invoke the CLI; an exception that escapes it (a traceback for the user) fails the test."""
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes the streams unless told
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(cli, [str(arg) for arg in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"deckpress crashed instead of reporting an error: {result.exception!r}") \
            from result.exception
    return Run(result.exit_code, result.stdout, result.stderr)
