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
    result = CliRunner().invoke(cli, [str(arg) for arg in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"deckpress crashed instead of reporting an error: {result.exception!r}") \
            from result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def line_of(path: Path, text: str) -> int:
    """1-based number of the first line of ``path`` containing ``text``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


def place_of(path: Path, text: str) -> str:
    """``path:line:column`` where ``text`` first starts, as error lines name it."""
    number = line_of(path, text)
    column = path.read_text(encoding="utf-8").splitlines()[number - 1].index(text) + 1
    return f"{path}:{number}:{column}"
