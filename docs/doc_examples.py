"""The examples of the documentation, read from its pages and run the way a reader would.

Every page of ``docs/`` is followed in order in a scratch folder of its own. A fenced block
is an example when an HTML comment (invisible on the site) stands on the line above it:

``<!-- example: deck PATH [exit=N] -->``
    the block is a whole deck file: written to PATH, then ``deckpress check`` on its folder.
``<!-- example: layout PATH deck=FOLDER [exit=N] -->``
    a layout file: written to PATH, then ``deckpress check FOLDER``.
``<!-- example: fragment PATH [deck=FOLDER] [exit=N] -->``
    part of a deck or layout file: its top-level keys replace those of the file at PATH
    (written by an example above), then ``deckpress check`` as for a whole file.
``<!-- example: file PATH -->``
    any other file the page's later examples read (a spreadsheet, a rules booklet).
``<!-- example: edit PATH -->``
    a ``diff`` block: each ``-`` line must be in PATH and is replaced by the ``+`` lines.
``<!-- example: command [exit=N] [mode=help] -->``
    a ``console`` block (the lines after ``$ `` are commands, the others what they print) or
    a ``sh`` block (every line a command, ``#`` comments aside). ``deckpress`` runs in the
    scratch folder and must end with exit status N (0 unless given), and each line a console
    block shows it printing must be among what it printed (a commit's short id stands for
    any other); ``git`` runs too, with a made-up author. ``mode=help`` runs a command that
    would run until stopped (``serve``, ``watch``) with ``--help`` added, so its options are
    still checked.
``<!-- example: planned ISSUE -->``
    an example of a command that is being built: it is shown, not run, until the feature
    exists (then the marker becomes one of the above).

``<!-- setup: bundled -->`` copies the project's bundled decks, layouts and fonts into the
page's folder first; ``<!-- setup: real-decks -->`` copies ``tests/decks/``.
``<!-- picture: NAME.png ... -->`` makes a picture from the folder as it is at that point
of the page (see :func:`make_picture`); ``make_pictures.py`` and the tests
ask for them. ``<!-- draft: TOPIC -->`` marks where a section about a feature being built
goes. A ``yaml``, ``sh``, ``console`` or ``diff`` block without a marker is an error: every
example in the documentation is run.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2
import yaml
from click.testing import CliRunner
from PIL import Image, ImageChops

from generator.cli import cli

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
BUNDLED = ("cards", "layouts", "fonts")
"""What ``<!-- setup: bundled -->`` copies: the project a fresh clone has."""
SETUPS = {"bundled": BUNDLED, "real-decks": ("tests/decks",)}
"""What each ``<!-- setup: NAME -->`` copies into the page's folder: ``real-decks`` the
worked examples of games from elsewhere, under ``tests/decks/`` as in a clone."""

CHECKED_LANGUAGES = {"yaml", "yml", "sh", "console", "shell", "bash", "diff"}
"""Fences that must carry a marker; ``text`` blocks (what a command prints) need none."""

PICTURE_HEIGHT = 300
"""Pixels a card picture stands on the page: readable, and a few tens of kilobytes."""

MARKER = re.compile(r"^<!--\s*(example|picture|setup|draft):\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "Designer", "GIT_AUTHOR_EMAIL": "designer@example.com",
                "GIT_COMMITTER_NAME": "Designer", "GIT_COMMITTER_EMAIL": "designer@example.com",
                "GIT_AUTHOR_DATE": "2026-01-01T12:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T12:00:00Z"}


@dataclass(frozen=True)
class Step:
    """One marker of a page, with the fenced block under it (empty for a picture or setup)."""

    page: Path
    line: int
    kind: str
    words: tuple[str, ...]
    options: dict[str, str]
    language: str = ""
    body: str = ""

    @property
    def where(self) -> str:
        return f"{shown_path(self.page)}:{self.line}"


@dataclass
class Outcome:
    """What running one step gave, and whether it is what the page says."""

    step: Step
    command: str
    expected: int
    actual: int
    output: str

    shown: tuple[str, ...] = ()

    @property
    def missing(self) -> list[str]:
        """The lines the page shows that the command did not print."""
        printed = self.output.splitlines()
        return [line for line in self.shown if not any(shown_line(line).fullmatch(out.rstrip()) for out in printed)]

    @property
    def ok(self) -> bool:
        return self.expected == self.actual and not self.missing


def shown_line(line: str) -> re.Pattern[str]:
    """A line as a page shows it, as a pattern: a version (a commit's short id) matches any."""
    parts = re.split(r"\b[0-9a-f]{7}\b", line.rstrip())
    return re.compile(r"\b[0-9a-f]{7}\b".join(re.escape(part) for part in parts))


@dataclass
class Page:
    path: Path
    steps: list[Step] = field(default_factory=list)
    unmarked: list[str] = field(default_factory=list)


def shown_path(page: Path) -> str:
    """A page as errors name it: from docs/ where it is one of the site's."""
    if page.is_relative_to(DOCS):
        return str(page.relative_to(DOCS))
    return str(page.relative_to(REPO)) if page.is_relative_to(REPO) else str(page)


def pages() -> list[Path]:
    """The site's pages, and the README, whose examples are held to the same standard."""
    return sorted(DOCS.rglob("*.md")) + [REPO / "README.md"]


def read_page(path: Path) -> Page:
    """The page's markers and blocks, in order; unmarked example blocks are listed apart."""
    page = Page(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    pending: tuple[int, str, str] | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        marker = MARKER.match(line.strip())
        fence = FENCE.match(line)
        if marker:
            kind, rest = marker.group(1), marker.group(2)
            if kind == "example":
                pending = (index + 1, kind, rest)
            else:
                page.steps.append(make_step(path, index + 1, kind, rest))
        elif fence:
            indent, ticks, language = fence.group(1), fence.group(2), fence.group(3).lower()
            body: list[str] = []
            index += 1
            while index < len(lines) and not lines[index].strip().startswith(ticks):
                body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
                index += 1
            text = "\n".join(body) + "\n"
            if pending is not None:
                page.steps.append(make_step(path, pending[0], pending[1], pending[2], language, text))
            elif language in CHECKED_LANGUAGES:
                page.unmarked.append(f"{shown_path(path)}:{index - len(body)}: a {language} block "
                                     "without an example marker")
            pending = None
        elif line.strip():
            pending = None
        index += 1
    return page


def make_step(page: Path, line: int, kind: str, rest: str, language: str = "", body: str = "") -> Step:
    if kind == "draft":  # free words, for whoever folds the feature's section in
        return Step(page, line, kind, (rest,), {}, language, body)
    parts = shlex.split(rest)
    words = tuple(part for part in parts if "=" not in part)
    options = dict(part.split("=", 1) for part in parts if "=" in part)
    if kind == "example":
        kind, words = words[0], words[1:]
    return Step(page, line, kind, words, options, language, body)


@contextmanager
def working_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def deckpress(folder: Path, args: list[str]) -> tuple[int, str]:
    """Run the command line in ``folder`` as a reader would type it; a crash is exit 99."""
    with working_directory(folder):
        result = CliRunner().invoke(cli, args, catch_exceptions=True)
    output = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return 99, f"{output}\n{result.exception!r}"
    return result.exit_code, output


def run_line(folder: Path, line: str, mode: str) -> tuple[int, str]:
    words = shlex.split(line, comments=True)
    if not words:
        return 0, ""
    if words[0] == "deckpress":
        return deckpress(folder, words[1:] + (["--help"] if mode == "help" else []))
    if words[0] == "git":
        done = subprocess.run(words, cwd=folder, capture_output=True, text=True, timeout=60,
                              env={**os.environ, **GIT_IDENTITY})
        return done.returncode, done.stdout + done.stderr
    return 98, f"the documentation runs only deckpress and git commands, not {words[0]!r}"


def command_lines(step: Step) -> list[tuple[str, tuple[str, ...]]]:
    """Each command of a block with the lines the page shows it printing."""
    if step.language != "console":
        return [(line, ()) for line in step.body.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    commands: list[tuple[str, list[str]]] = []
    for line in step.body.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands and line.strip():
            commands[-1][1].append(line)
    return [(command, tuple(shown)) for command, shown in commands]


def apply_edit(path: Path, diff: str) -> None:
    """Replace each run of ``-`` lines of a diff block by the ``+`` lines after it."""
    text = path.read_text(encoding="utf-8")
    removed: list[str] = []
    added: list[str] = []

    def flush() -> None:
        nonlocal text
        if not removed and not added:
            return
        old = "".join(f"{line}\n" for line in removed)
        new = "".join(f"{line}\n" for line in added)
        if removed and old not in text:
            raise AssertionError(f"{path.name} has no line {removed[0]!r} to change")
        text = text.replace(old, new, 1) if removed else text + new
        removed.clear()
        added.clear()

    for line in diff.splitlines():
        if line.startswith("-"):
            if added:
                flush()
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
        else:
            flush()
    flush()
    path.write_text(text, encoding="utf-8")


def run_step(folder: Path, step: Step) -> list[Outcome]:
    """Carry out one example step in the page's folder; what it gave, for each command."""
    expected = int(step.options.get("exit", "0"))
    if step.kind in ("deck", "layout", "file"):
        target = folder / step.words[0]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(step.body, encoding="utf-8")
        if step.kind == "file":
            return []
        deck = step.options.get("deck", str(Path(step.words[0]).parent))
        code, output = deckpress(folder, ["check", deck])
        return [Outcome(step, f"deckpress check {deck}", expected, code, output)]
    if step.kind == "fragment":
        target = folder / step.words[0]
        merged = yaml.safe_load(target.read_text(encoding="utf-8")) or {}
        merged.update(yaml.safe_load(step.body))
        target.write_text(yaml.safe_dump(merged, sort_keys=False, allow_unicode=True), encoding="utf-8")
        deck = step.options.get("deck", str(Path(step.words[0]).parent))
        code, output = deckpress(folder, ["check", deck])
        return [Outcome(step, f"deckpress check {deck}", expected, code, output)]
    if step.kind == "edit":
        apply_edit(folder / step.words[0], step.body)
        return []
    if step.kind == "command":
        outcomes = []
        for line, shown in command_lines(step):
            code, output = run_line(folder, line, step.options.get("mode", ""))
            outcomes.append(Outcome(step, line, expected, code, output, shown))
        return outcomes
    if step.kind == "planned":
        return []
    raise AssertionError(f"{step.where}: unknown example kind {step.kind!r}")


def make_picture(folder: Path, step: Step, out: Path) -> None:
    """Draw the picture a ``<!-- picture: NAME.png ... -->`` marker asks for, from the folder.

    - ``deck=FOLDER cards=ID,ID [side=back] [lang=CODE] [dpi=N]``: those faces, side by side
      (``back`` for a shared back), as ``deckpress export --png`` draws them;
    - ``pdf=PATH pages=1,2 [dpi=N] [crop=0.4]``: pages of a PDF side by side (30 dpi unless
      given; ``crop`` keeps the top of a page, trimmed to what is drawn there);
    - ``png=PATH,PATH [width=N]``: images a command wrote, side by side, made smaller;
    - ``preview=FOLDER [since=REV]``: the live preview of that deck (``deckpress serve``, with
      ``--since REV`` when given, its marks shown), as Chromium shows it (Debian's
      ``/usr/bin/chromium`` through Playwright, as the preview's tests).

    The picture is saved with a palette of 256 colours: a few tens of kilobytes, and no
    difference a reader sees at screen size.
    """
    name = step.words[0]
    options = step.options
    with tempfile.TemporaryDirectory(prefix="deckpress-picture-") as scratch:
        if "deck" in options:
            images = deck_faces(folder, options, Path(scratch))
        elif "pdf" in options:
            images = pdf_pages(folder / options["pdf"], options)
        elif "preview" in options:
            images = [preview_page(folder, options)]
        elif "png" in options:
            images = [smaller(Image.open(folder / file).convert("RGB"), int(options.get("width", "700")))
                      for file in options["png"].split(",")]
        else:
            raise AssertionError(f"{step.where}: a picture needs deck=, pdf= or png=")
        picture = side_by_side(images).convert("P", palette=Image.Palette.ADAPTIVE, colors=256)
        picture.save(out / name, optimize=True)


PREVIEW_SECONDS = 60
"""How long the preview may take to start and show its cards before the picture fails."""

CHROMIUM = Path("/usr/bin/chromium")


def preview_page(folder: Path, options: dict[str, str]) -> Image.Image:
    """A screenshot of ``deckpress serve`` showing a deck, started on a free port and stopped."""
    from playwright.sync_api import Error as BrowserError  # noqa: PLC0415 (only this picture needs a browser)
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    if not CHROMIUM.exists():
        raise AssertionError(f"the preview's picture needs {CHROMIUM} (Debian package chromium)")
    since = ["--since", options["since"]] if "since" in options else []
    server = subprocess.Popen([sys.executable, "-m", "generator", "serve", options["preview"], "--port", "0",
                               "--quiet", *since], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        address = re.search(r"http://[\d.]+:\d+/", line)
        if not address:
            raise AssertionError(f"deckpress serve did not say where it listens: {line!r}")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1200, "height": 760})
                page.goto(address.group(0), timeout=PREVIEW_SECONDS * 1000)
                page.wait_for_selector("img", timeout=PREVIEW_SECONDS * 1000)
                if since:  # the marks come with the comparison, after the first faces
                    page.wait_for_selector("#grid .since-tag", timeout=PREVIEW_SECONDS * 1000)
                page.wait_for_load_state("networkidle", timeout=PREVIEW_SECONDS * 1000)
                shot = page.screenshot()
            except BrowserError as error:
                raise AssertionError(f"the preview did not show: {error}") from error
            finally:
                browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return smaller(Image.open(io.BytesIO(shot)).convert("RGB"), int(options.get("width", "900")))


def smaller(image: Image.Image, width: int) -> Image.Image:
    if image.width <= width:
        return image
    return image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)


def deck_faces(folder: Path, options: dict[str, str], scratch: Path) -> list[Image.Image]:
    args = ["export", options["deck"], "--png", str(scratch / "png"), "--dpi", options.get("dpi", "110"), "--quiet"]
    if "lang" in options:
        args += ["--lang", options["lang"]]
    code, output = deckpress(folder, args)
    if code:
        raise AssertionError(f"export for a picture failed: {output}")
    side = options.get("side", "front")
    images = []
    for card in options["cards"].split(","):
        file = (next((scratch / "png").glob("*.back.png")) if card == "back"  # <deck>.back.png
                else scratch / "png" / f"{card}-{side}.png")
        image = Image.open(file).convert("RGB")
        images.append(image.resize((round(image.width * PICTURE_HEIGHT / image.height), PICTURE_HEIGHT),
                                   Image.LANCZOS))
    return images


def pdf_pages(pdf: Path, options: dict[str, str]) -> list[Image.Image]:
    """Pages of a PDF as images, rendered by PDFium (the rasteriser ``export`` uses)."""
    document = pypdfium2.PdfDocument(pdf)
    images = []
    try:
        for number in options.get("pages", "1").split(","):
            page = document[int(number) - 1]
            image = page.render(scale=float(options.get("dpi", "30")) / 72, fill_color=(255, 255, 255, 255),
                                may_draw_forms=True).to_pil().convert("RGB")
            page.close()
            if "crop" in options:  # the top of the page only, to the edge of what is drawn there
                image = image.crop((0, 0, image.width, round(image.height * float(options["crop"]))))
                box = ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox()
                if box:
                    image = image.crop((max(box[0] - 8, 0), max(box[1] - 8, 0),
                                        min(box[2] + 8, image.width), min(box[3] + 8, image.height)))
            images.append(image)
    finally:
        document.close()
    return images


def side_by_side(images: list[Image.Image], gap: int = 12) -> Image.Image:
    width = sum(image.width for image in images) + gap * (len(images) - 1)
    height = max(image.height for image in images)
    canvas = Image.new("RGB", (width, height), "white")
    x = 0
    for image in images:
        canvas.paste(image, (x, 0))
        x += image.width + gap
    return canvas


def follow(page: Page, folder: Path, pictures: Path | None = None) -> list[Outcome]:
    """Every step of the page, in order, in ``folder``; pictures drawn into ``pictures``."""
    outcomes: list[Outcome] = []
    for step in page.steps:
        if step.kind == "setup":
            for name in SETUPS[step.words[0]]:
                shutil.copytree(REPO / name, folder / name, dirs_exist_ok=True)
        elif step.kind == "picture":
            if pictures is not None:
                try:
                    make_picture(folder, step, pictures)
                except (OSError, pypdfium2.PdfiumError, AssertionError, KeyError, IndexError) as error:
                    outcomes.append(Outcome(step, f"picture {step.words[0]}", 0, 97, str(error)))
        elif step.kind != "draft":
            try:
                outcomes.extend(run_step(folder, step))
            except (OSError, AssertionError, yaml.YAMLError) as error:  # a file an earlier step failed to make
                outcomes.append(Outcome(step, f"{step.kind} {' '.join(step.words)}", 0, 96, str(error)))
    return outcomes


def follow_all(scratch: Path, pictures: Path | None = None) -> tuple[list[Outcome], list[str]]:
    """Follow every page, each in a folder of its own; the outcomes and the unmarked blocks."""
    outcomes: list[Outcome] = []
    unmarked: list[str] = []
    for path in pages():
        page = read_page(path)
        unmarked += page.unmarked
        name = path.relative_to(DOCS).with_suffix("") if path.is_relative_to(DOCS) else Path(path.stem)
        folder = scratch / name.as_posix().replace("/", "-")
        folder.mkdir(parents=True)
        outcomes += follow(page, folder, pictures)
    return outcomes, unmarked


def failures(outcomes: list[Outcome]) -> list[str]:
    return [f"{outcome.step.where}: `{outcome.command}` exited {outcome.actual}, the page says "
            f"{outcome.expected}" + "".join(f"\n  the page shows, it did not print: {line}" for line in outcome.missing)
            + f"\n{outcome.output.strip()[-1500:]}" for outcome in outcomes if not outcome.ok]
