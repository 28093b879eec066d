"""``deckpress serve DECK --since REV``: the preview marks what changed since a git revision.

Each test starts the server on a project in a git repository of its own
(tests/iterations_support.py), saves the deck as a designer would and reads back what
the page receives: which faces are marked, of what kind, and why, at which line.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest
from cli_run import deckpress, place_of
from iterations_support import commit, edit, git, project, write_art
from serve_support import TIMEOUT, Server, running_server

from generator.scaffold import create_deck

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

DECK = Path("cards/game/deck.yaml")
LAYOUT = Path("layouts/game.yaml")


def marked(deck: dict) -> list[tuple[str, list[str], str, list[str]]]:
    """(side, cards, kind, reasons) of each face the page marks, in the page's order."""
    return [(face["side"], face["cards"], face["since"]["kind"], face["since"]["reasons"])
            for face in deck["faces"] if face["since"] is not None]


def reloaded(server: Server, after: int, deck_id: str = "game") -> dict:
    """The deck once the server has reloaded it since version ``after`` (errors or not)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        deck = server.deck(deck_id)
        if deck["version"] > after and not deck["stale"]:
            return deck
        time.sleep(0.05)
    raise AssertionError(f"the deck was not reloaded: {server.seen}")


def saved(server: Server, path: Path, old: str, new: str) -> dict:
    """The deck as the page receives it after ``path`` is saved with ``old`` replaced by ``new``."""
    before = server.deck("game")["version"]
    edit(path, old, new)
    return reloaded(server, before)


@pytest.fixture
def playtest(tmp_path: Path) -> Path:
    project(tmp_path)
    return tmp_path


def test_one_changed_card_marks_exactly_its_face_and_the_marks_follow_each_save(playtest: Path):
    with running_server("cards/game", cwd=playtest, options=("--since", "HEAD")) as server:
        deck = server.deck("game")
        assert deck["since"]["revision"] == "HEAD"
        assert deck["since"]["faces"] == 0 and marked(deck) == []

        deck = saved(server, playtest / DECK, "text: Smash.", "text: Smash twice.")
        # The first save adds "+" to the version every face prints: that alone marks nothing.
        assert deck["since"]["faces"] == 1
        assert marked(deck) == [("front", ["ogre"], "changed", ["text changed"])]
        ogre = next(face for face in deck["faces"] if face["since"])
        assert ogre["since"]["details"] == [{"what": 'text: "Smash." -> "Smash twice."',
                                             "where": _at(playtest, "text: Smash twice.")}]
        assert deck["since"]["changed"] == [{"card": "ogre", "title": "Ogre", "status": "changed",
                                             "what": "front: text changed"}]
        assert deck["since"]["removed"] == []

        deck = saved(server, playtest / DECK, "text: Smash twice.", "text: Smash.")
        assert marked(deck) == [] and deck["since"]["changed"] == []
        assert re.fullmatch(r"\S+ game: deck\.yaml changed; reloaded in [\d.]+s \(ok\)",
                            server.wait_for_line("reloaded in"))


def _at(root: Path, text: str) -> str:
    """``cards/game/deck.yaml:line:column`` of ``text``, as the page names it."""
    return place_of(root / DECK, text).replace(str(root / DECK), str(DECK), 1)


def test_counts_new_and_removed_cards_and_a_layout_element_are_each_marked(playtest: Path):
    with running_server("cards/game", cwd=playtest, options=("--since", "HEAD")) as server:
        server.deck("game")
        saved(server, playtest / DECK, "strength: 2, count: 2}", "strength: 2, count: 3}")
        saved(server, playtest / DECK, "  - {id: troll, name: Troll, text: Regrow., strength: 4}\n", "")
        deck = saved(server, playtest / DECK, "art: art/golem.png}\n",
                     "art: art/golem.png}\n  - {id: wisp, name: Wisp, text: Fly away., strength: 1}\n")
        assert marked(deck) == [("front", ["imp"], "count", ["count 2 -> 3"]),
                                ("front", ["wisp"], "new", ["new card"])]  # the shared back prints as it did
        imp = next(face for face in deck["faces"] if face["cards"] == ["imp"])
        assert imp["since"]["details"] == [{"what": "count 2 -> 3 copies", "where": _at(playtest, "count: 3}")}]
        assert deck["since"]["removed"] == [{"card": "troll", "title": "Troll", "count": 1,
                                             "where": "HEAD:cards/game/deck.yaml:14:5"}]
        assert [entry["card"] for entry in deck["since"]["changed"]] == ["imp", "wisp"]

        deck = saved(server, playtest / LAYOUT, "    size: 12\n", "    size: 14\n")
        golem = [(face["side"], face["since"]) for face in deck["faces"] if face["cards"] == ["golem"]]
        line = next(number for number, text in enumerate((playtest / LAYOUT).read_text().splitlines(), 1)
                    if "size: 14" in text)
        assert golem == [("front", {"kind": "changed", "reasons": ["layout element 'title' changed"],
                                    "details": [{"what": "element 'title' size: 12 -> 14",
                                                 "where": f"layouts/game.yaml:{line}:5"}]})]
        back = next(face for face in deck["faces"] if face["side"] == "back")
        assert back["since"]["kind"] == "changed"
        assert "layout element 'title' changed" in back["since"]["reasons"]
        assert {"what": "element 'title' size: 12 -> 14", "where": f"layouts/game.yaml:{line}:5"} in \
            back["since"]["details"]
        assert deck["since"]["faces"] == 5  # four fronts and the shared back: every title grew


def test_faces_drawn_with_icons_stay_unmarked_save_after_save(tmp_path: Path):
    """The starting deck draws an icon on every front; saves that keep the layouts reuse the
    faces laid out before, icons and all, and must not mark them."""
    folder = create_deck(tmp_path / "cards", "space-race")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The deck as printed")
    deck = folder / "deck.yaml"
    with running_server(folder, cwd=tmp_path, options=("--since", "HEAD")) as server:
        before = server.deck("space-race")["version"]
        edit(deck, "name: Knight", "name: Paladin")
        first = reloaded(server, before, "space-race")
        edit(deck, "name: Paladin", "name: Templar")
        second = reloaded(server, first["version"], "space-race")
        for shown in (first, second):
            assert [(face["side"], face["since"]["reasons"]) for face in shown["faces"] if face["since"]] == \
                [("front", ["name changed"])]


def test_an_art_file_and_the_shared_back_are_named_as_the_reasons(playtest: Path):
    with running_server("cards/game", cwd=playtest, options=("--since", "HEAD")) as server:
        before = server.deck("game")["version"]
        write_art(playtest / "cards" / "game" / "art" / "golem.png", (40, 40, 200))
        deck = reloaded(server, before)
        assert marked(deck) == [("front", ["golem"], "changed", ["art/golem.png changed"])]
        deck = saved(server, playtest / DECK, "back:\n  name: Playtest\n", "back:\n  name: Playtest II\n")
        assert marked(deck) == [("front", ["golem"], "changed", ["art/golem.png changed"]),
                                ("back", ["imp", "ogre", "troll", "golem"], "changed", ["back name changed"])]
        back = next(face for face in deck["faces"] if face["side"] == "back")
        assert back["since"]["details"] == [{"what": 'back name: "Playtest" -> "Playtest II"',
                                             "where": _at(playtest, "name: Playtest II")}]


def test_a_new_card_s_back_is_marked_when_the_backs_print_differently_from_the_printed_ones(tmp_path: Path):
    """Every back prints its card's id: each is a back of its own. A new card's back that the
    older layout draws alike is unmarked; once a layout change redraws every back, the new
    card's back is marked with the rest, so "changed only" shows it too."""
    project(tmp_path, commit_it=False)
    layout = tmp_path / LAYOUT
    layout.write_text(layout.read_text() + "  - name: mark\n    when: \"side == 'back'\"\n"
                      "    text: \"{{ card.id }}\"\n    box: [5, 70, 20, 4]\n    size: 5\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "Backs that name their card")
    with running_server("cards/game", cwd=tmp_path, options=("--since", "HEAD")) as server:
        server.deck("game")
        deck = saved(server, tmp_path / DECK, "art: art/golem.png}\n",
                     "art: art/golem.png}\n  - {id: wisp, name: Wisp, text: Fly away., strength: 1}\n")
        assert marked(deck) == [("front", ["wisp"], "new", ["new card"])]
        deck = saved(server, layout, "    size: 12\n", "    size: 14\n")
        backs = [(face["cards"], face["since"] and face["since"]["kind"]) for face in deck["faces"]
                 if face["side"] == "back"]
        assert backs == [(["imp"], "changed"), (["ogre"], "changed"), (["troll"], "changed"),
                         (["golem"], "changed"), (["wisp"], "new")]
        wisp = next(face for face in deck["faces"] if face["side"] == "back" and face["cards"] == ["wisp"])
        assert wisp["since"]["reasons"] == ["new card", "layout element 'title' changed"]


def test_a_broken_save_keeps_the_last_marks_until_the_deck_is_fixed(playtest: Path):
    with running_server("cards/game", cwd=playtest, options=("--since", "HEAD")) as server:
        server.deck("game")
        saved(server, playtest / DECK, "text: Smash.", "text: Smash twice.")
        before = server.deck("game")["version"]
        edit(playtest / DECK, "strength: 6,", "strength: [6,")
        deadline = time.monotonic() + TIMEOUT
        while (deck := server.deck("game"))["version"] == before:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert deck["stale"] and marked(deck) == [("front", ["ogre"], "changed", ["text changed"])]
        edit(playtest / DECK, "strength: [6,", "strength: 6,")
        deck = reloaded(server, deck["version"])
        assert marked(deck) == [("front", ["ogre"], "changed", ["text changed"])]


def test_a_commit_while_serving_moves_the_version_and_marks_nothing_new(playtest: Path):
    with running_server("cards/game", cwd=playtest, options=("--since", "HEAD")) as server:
        server.deck("game")
        saved(server, playtest / DECK, "text: Smash.", "text: Smash twice.")
        commit(playtest, "Ogre smashes twice")
        deck = saved(server, playtest / DECK, "text: Burn a card.", "text: Burn two cards.")
        assert marked(deck) == [("front", ["imp"], "changed", ["text changed"]),
                                ("front", ["ogre"], "changed", ["text changed"])]


def test_a_bad_revision_is_one_line_and_exit_2_before_anything_listens(playtest: Path,
                                                                        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(playtest)
    run = deckpress("serve", "cards/game", "--since", "no-such-tag", "--port", "0", "-q")
    assert run.exit_code == 2
    assert run.error_lines == [f"error: cards/game/deck.yaml: no revision 'no-such-tag' in the repository at "
                               f"{playtest.resolve()}"]
    assert "serving" not in run.stdout


def test_outside_a_repository_or_without_git_since_is_one_line_and_exit_2(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    run = deckpress("serve", "cards/game", "--since", "HEAD", "--port", "0", "-q")
    assert run.exit_code == 2
    assert run.error_lines == ["error: cards/game/deck.yaml: not in a git repository, so there is no revision "
                               "'HEAD' to read"]
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    run = deckpress("serve", "cards/game", "--since", "HEAD", "--port", "0", "-q")
    assert run.exit_code == 2
    assert run.error_lines == ["error: cards/game/deck.yaml: git is not installed (no git on the PATH), so there is no "
                               "revision to read"]


def test_a_deck_malformed_at_the_revision_is_named_there(playtest: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(playtest)
    edit(DECK, "strength: 5, count: 3}", "strength: five, count: 3}")
    commit(playtest, "A typo")
    edit(DECK, "strength: five, count: 3}", "strength: 5, count: 3}")
    run = deckpress("serve", "cards/game", "--since", "HEAD", "--port", "0", "-q")
    assert run.exit_code == 2
    assert len(run.error_lines) == 1
    assert run.error_lines[0].startswith("error: HEAD:cards/game/deck.yaml:")
    assert run.error_lines[0].endswith("expected a whole number, found 'five' (strength)")


def test_since_and_lang_together_are_a_usage_error(playtest: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(playtest)
    run = deckpress("serve", "cards/game", "--since", "HEAD", "--lang", "fr", "--port", "0")
    assert run.exit_code == 2
    assert "--since compares the deck as written with its past: leave out --lang" in run.stderr


def test_without_since_the_page_receives_no_marks(playtest: Path):
    with running_server("cards/game", cwd=playtest) as server:
        deck = server.deck("game")
        assert deck["since"] is None
        assert all(face["since"] is None for face in deck["faces"])
