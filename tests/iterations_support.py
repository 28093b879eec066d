"""A small project of one deck in a git repository of its own, for versions and diffs.

``project(tmp_path)`` writes ``cards/game/deck.yaml`` (four cards, one with raster art, a
rule and a ``stats:`` question) and ``layouts/game.yaml`` (the project's layout, printing
the version), then commits them with a fixed author and date.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from PIL import Image

DECK = """\
deck:
  name: Playtest
  layout: game
fields:
  name: {type: text, required: true}
  text: {type: text}
  strength: {type: int}
  art: {type: text}
back:
  name: Playtest
cards:
  - {id: imp, name: Imp, text: Burn a card., strength: 2, count: 2}
  - {id: ogre, name: Ogre, text: Smash., strength: 5, count: 3}
  - {id: troll, name: Troll, text: Regrow., strength: 4}
  - {id: golem, name: Golem, text: Stand firm., strength: 6, count: 2, art: art/golem.png}
rules:
  - total: 8
    message: a full deck
stats:
  questions:
    - name: strength 5 or more in the opening hand
      draw: 3
      need: {where: {strength: [5, 9]}}
"""

LAYOUT = """\
size: poker
units: mm
safe: 3mm
elements:
  - name: title
    text: "{{ name }}"
    box: [5, 5, 53.5, 10]
    size: 12
  - name: body
    when: "side == 'front'"
    text: "{{ text or '' }}"
    box: [5, 20, 53.5, 30]
    fit: wrap
  - name: art
    when: "side == 'front' and art"
    image: "{{ art }}"
    box: [5, 55, 20, 20]
  - name: version
    when: "deck.version"
    text: "{{ deck.version }}"
    box: [38, 80, 20, 4]
    size: 5
    align: right
"""

GIT_ENVIRONMENT = {
    "GIT_AUTHOR_NAME": "Designer", "GIT_AUTHOR_EMAIL": "designer@example.com",
    "GIT_COMMITTER_NAME": "Designer", "GIT_COMMITTER_EMAIL": "designer@example.com",
    "GIT_AUTHOR_DATE": "2024-05-01T12:00:00+00:00", "GIT_COMMITTER_DATE": "2024-05-01T12:00:00+00:00",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}
"""Commits made the same on every machine: one author, one date, no user or system settings."""


def git(folder: Path, *args: str) -> str:
    """What ``git ARGS`` prints, run in ``folder`` with :data:`GIT_ENVIRONMENT`."""
    finished = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True,
                              env={**os.environ, **GIT_ENVIRONMENT}, timeout=60)
    return finished.stdout


def commit(folder: Path, message: str) -> str:
    """Commit everything in the repository at ``folder``; its short id."""
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)
    return git(folder, "rev-parse", "--short", "HEAD").strip()


def write_art(path: Path, colour: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 40), colour).save(path)


def project(root: Path, commit_it: bool = True) -> Path:
    """The project at ``root`` (see the module docstring); its deck's folder."""
    deck = root / "cards" / "game"
    deck.mkdir(parents=True)
    (deck / "deck.yaml").write_text(DECK, encoding="utf-8")
    write_art(deck / "art" / "golem.png", (200, 40, 40))
    (root / "layouts").mkdir()
    (root / "layouts" / "game.yaml").write_text(LAYOUT, encoding="utf-8")
    if commit_it:
        git(root, "init", "-q")
        commit(root, "The first playtest")
    return deck


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one ``old`` in the file with ``new``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
