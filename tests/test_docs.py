"""The documentation site stays true and builds: every example on its pages does what the
page says (decks and layouts check, commands end with the exit status shown and print the
lines shown), its pictures are drawn from those examples, and the site builds with
``mkdocs build --strict`` (a broken link or a missing page or picture fails) into pages
that load nothing from the network."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"


def load_examples() -> ModuleType:
    spec = importlib.util.spec_from_file_location("doc_examples", DOCS / "doc_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["doc_examples"] = module
    spec.loader.exec_module(module)
    return module


examples = load_examples()


@pytest.fixture(scope="module")
def followed(tmp_path_factory: pytest.TempPathFactory):
    """Every page followed once, its pictures drawn into a copy of docs/ ready to build."""
    root = tmp_path_factory.mktemp("docs")
    shutil.copytree(DOCS, root / "docs", ignore=shutil.ignore_patterns("pictures", "__pycache__"))
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    pictures = root / "docs" / "pictures"
    pictures.mkdir()
    outcomes, unmarked = examples.follow_all(tmp_path_factory.mktemp("pages"), pictures)
    return root, outcomes, unmarked


def test_every_example_block_is_marked_to_be_run(followed):
    _, _, unmarked = followed
    assert unmarked == []


def test_every_example_does_what_its_page_says(followed):
    _, outcomes, _ = followed
    assert len(outcomes) > 60
    assert examples.failures(outcomes) == []


def test_the_site_builds_strictly_and_loads_nothing_from_the_network(followed):
    if importlib.util.find_spec("mkdocs") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mkdocs is not installed: pip install -e '.[test]'")
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    root, _, _ = followed
    # Not --quiet: mkdocs counts the warnings --strict fails on only when it prints them.
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                            "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr
    pages = sorted((root / "site").rglob("*.html"))
    assert len(pages) > 20
    loaded = re.compile(r"<(?:script|img|link|source|iframe)\b[^>]*\b(?:src|href)=[\"']?((?:https?:)?//[^\"' >]+)",
                        re.IGNORECASE)
    remote = [f"{page.relative_to(root)}: {url}" for page in pages
              for url in loaded.findall(page.read_text(encoding="utf-8"))]
    styles = [f"{sheet.relative_to(root)}: {url}" for sheet in (root / "site").rglob("*.css")
              for url in re.findall(r"(?:url\(|@import\s+)[\"']?((?:https?:)?//[^\"')]+)",
                                    sheet.read_text(encoding="utf-8"))]
    assert remote + styles == []


def test_a_broken_link_or_a_missing_picture_fails_the_build(tmp_path):
    """The site's own configuration, strict: one page linking to a page and a picture that
    are not there is refused, so a broken page fails CI."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    config["nav"] = [{"Home": "index.md"}]
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSee [rules](reference/rules.md).\n\n"
                                                "![a card](pictures/missing.png)\n", encoding="utf-8")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml"),
                            "-d", str(tmp_path / "site")], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode != 0
    assert "reference/rules.md" in built.stderr and "pictures/missing.png" in built.stderr


def test_every_picture_a_page_shows_is_drawn(followed):
    root, _, _ = followed
    shown = {name for page in DOCS.rglob("*.md")
             for name in re.findall(r"\]\((?:\.\./)*pictures/([\w.-]+\.png)\)", page.read_text(encoding="utf-8"))}
    drawn = {path.name for path in (root / "docs" / "pictures").glob("*.png")}
    assert len(shown) > 10
    assert shown - drawn == set()
    assert all(path.stat().st_size < 200_000 for path in (root / "docs" / "pictures").glob("*.png"))


def test_an_example_whose_key_is_renamed_fails(tmp_path):
    """The examples' check can fail: a deck example with one key misspelt is reported."""
    page = tmp_path / "page.md"
    page.write_text("<!-- example: command -->\n```console\n$ deckpress new demo\n```\n\n"
                    "<!-- example: edit cards/demo/layout.yaml -->\n```diff\n-    icon_scale: 1.3\n"
                    "+    icon_size: 1.3\n```\n\n<!-- example: command -->\n```console\n"
                    "$ deckpress check cards/demo\n```\n", encoding="utf-8")
    steps = examples.read_page(page)
    outcomes = examples.follow(steps, tmp_path)
    failed = examples.failures(outcomes)
    assert len(failed) == 1 and "exited 2, the page says 0" in failed[0] and "icon_size" in failed[0]
