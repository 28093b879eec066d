"""``deckpress diff``: what changed between two iterations of a deck, each at its line.

Every test builds a project in a git repository of its own (tests/iterations_support.py),
commits it, changes it as a designer between two playtests would, and reads the report
back: as text lines, as JSON, as Markdown.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import deckpress, line_of
from iterations_support import commit, edit, git, project, write_art

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

DECK = Path("cards/game/deck.yaml")
LAYOUT = Path("layouts/game.yaml")


@pytest.fixture
def playtest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A committed project, then one card's text changed, one count raised, one card removed,
    one added and one layout element changed; the working directory is the project."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "text: Smash.", "text: Smash twice.")
    edit(DECK, "strength: 2, count: 2}", "strength: 2, count: 3}")
    edit(DECK, "  - {id: troll, name: Troll, text: Regrow., strength: 4}\n", "")
    edit(DECK, "art: art/golem.png}\n",
         "art: art/golem.png}\n  - {id: wisp, name: Wisp, text: Fly away., strength: 1}\n")
    edit(LAYOUT, "    size: 12\n", "    size: 14\n")
    return tmp_path


def column_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines()[line_of(path, text) - 1].index(text) + 1


def at(path: Path, text: str) -> str:
    """``path:line:column`` of ``text`` in ``path``, as the report names it."""
    return f"{path}:{line_of(path, text)}:{column_of(path, text)}"


def face_causes(card: dict) -> list[tuple[str, list[tuple[str, str]]]]:
    """A card of ``diff --format json``: each changed face's side with the kinds and wording of its causes."""
    return [(face["side"], [(cause["kind"], cause["what"]) for cause in face["causes"]]) for face in card["faces"]]


def test_diff_since_head_reports_each_change_at_its_line(playtest: Path):
    old_deck = git(playtest, "show", f"HEAD:{DECK.as_posix()}")
    removed_line = next(number for number, line in enumerate(old_deck.splitlines(), start=1) if "id: troll" in line)
    run = deckpress("diff", "cards/game", "--since", "HEAD", "--quiet")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    head = git(playtest, "rev-parse", "--short", "HEAD").strip()
    assert lines[0] == f"deck game: HEAD (version {head}) -> working tree (version {head}+)"
    cards = lines[lines.index("cards") + 1:lines.index("faces that print differently")]
    assert cards == [
        f"  {at(DECK, 'count: 3')}: imp: 2 -> 3 copies",
        f"  {at(DECK, 'text: Smash twice.')}: ogre: text: \"Smash.\" -> \"Smash twice.\"",
        f"  HEAD:cards/game/deck.yaml:{removed_line}:5: troll: removed, 1 copy",
        f"  {DECK}:{line_of(DECK, 'id: wisp')}:5: wisp: added, 1 copy",
    ]
    faces = lines.index("faces that print differently")
    assert lines[faces + 1:faces + 3] == [
        "  fronts and backs of 3 cards (imp, ogre, golem):",
        f"    {LAYOUT}:{line_of(LAYOUT, 'size: 14')}:5: element 'title' size: 12 -> 14",
    ]
    rule = at(DECK, "total: 8")
    assert f"  {rule}: total (a full deck): now fails (it passed): expected exactly 8 cards, found 9" in lines
    question = at(DECK, "name: strength 5 or more")
    assert f"  {question}: strength 5 or more in the opening hand: 82.1% -> 76.2%" in lines
    assert "  print 9 cards: imp x3 (redrawn), ogre x3 (redrawn), golem x2 (redrawn), wisp x1 (new)" in lines
    assert "  take out 8 cards: imp x2 (stale), ogre x3 (stale), troll x1 (removed), golem x2 (stale)" in lines


def test_a_face_redrawn_with_its_count_changed_says_why_in_text_and_markdown(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    """A card whose count changed prints anew when a colour it shows changed too: the text
    and the changelog say why, as the JSON does, and not only of the cards left as they were."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    edit(LAYOUT, "    size: 12\n", "    size: 12\n    colour: {field: strength, map: {2: '#772255'}, default: ink}\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The imp in purple")
    edit(LAYOUT, "'#772255'", "'#5b2a86'")
    edit(DECK, "strength: 2, count: 2}", "strength: 2, count: 1}")
    lines = deckpress("diff", "cards/game", "--since", "HEAD", "-q").stdout.splitlines()
    colour = f"{LAYOUT}:{line_of(LAYOUT, '#5b2a86')}:5: element 'title' colour map.2: \"#772255\" -> \"#5b2a86\""
    faces = lines.index("faces that print differently")
    assert lines[faces + 1:faces + 3] == ["  front of imp:", f"    {colour}"]
    assert "  print 1 card: imp x1 (redrawn)" in lines
    markdown = deckpress("diff", "cards/game", "--since", "HEAD", "--format", "markdown", "-q").stdout
    assert "- **Imp**: 2 → 1 copy" in markdown
    assert "- Front of Imp: element 'title' colour map.2: \"\\#772255\" → \"\\#5b2a86\"" in markdown


def test_since_takes_a_commit_named_by_its_message_and_a_tag(playtest: Path):
    """Any way git names a commit: ``:/text`` (the newest whose message holds it), a tag."""
    first = git(playtest, "rev-parse", "--short", "HEAD").strip()
    commit(playtest, "The second playtest")
    git(playtest, "tag", "-a", "-m", "first print", "print-1", first)
    for since in (":/first playtest", "print-1"):
        run = deckpress("diff", "cards/game", "--since", since, "--quiet")
        assert run.exit_code == 0, run.stderr
        assert run.stdout.splitlines()[0].startswith(f"deck game: {since} (version {first}) -> working tree")
    run = deckpress("diff", "cards/game", "--since", ":/no such message", "--quiet")
    assert (run.exit_code, run.error_lines) == (2, [f"error: cards/game: no revision ':/no such message' in the "
                                                     f"repository at {playtest}"])


def test_an_edited_rule_is_one_change_from_the_rule_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A rule whose numbers or message change where it stands is the same rule edited, not
    a new rule beside a removed one; one written the same on both sides is not named at all."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "  - total: 8\n    message: a full deck\n",
         "  - total: 9\n    message: a full deck of nine\n  - copies: {exact: 3}\n")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "--quiet")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    rules = lines[lines.index("rules") + 1:lines.index("odds (stats:)")]
    assert rules == [
        f"  {at(DECK, 'total: 9')}: total (a full deck of nine): edited from total (a full deck), "
        "now fails (it passed): expected exactly 9 cards, found 8",
        f"  {at(DECK, 'copies: {exact: 3}')}: copies: new rule, fails: expected exactly 3 copies of each card, "
        "found imp x2, troll x1, golem x2 [cards: imp, troll, golem]",
    ]
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    assert [(rule["rule"], rule["old"], rule["new"], rule["edited_from"]) for rule in report["rules"]] == [
        ("total (a full deck of nine)", "passes", "fails", "total (a full deck)"),
        ("copies", None, "fails", None)]

    edit(DECK, "  - total: 9\n    message: a full deck of nine\n", "  - total: {min: 8}\n    message: a full deck\n")
    lines = deckpress("diff", "cards/game", "--since", "HEAD", "--quiet").stdout.splitlines()
    assert f"  {at(DECK, 'total: {min: 8}')}: total (a full deck): edited, still passes" in lines


def test_diff_leaves_the_working_tree_and_the_index_as_they_were(playtest: Path):
    before = git(playtest, "status", "--porcelain")
    index = (playtest / ".git" / "index").stat().st_mtime_ns
    files = {path: path.read_bytes() for path in playtest.rglob("*") if path.is_file() and ".git" not in path.parts}
    assert deckpress("diff", "cards/game", "--since", "HEAD", "-q").exit_code == 0
    assert (playtest / ".git" / "index").stat().st_mtime_ns == index  # not even refreshed
    assert git(playtest, "status", "--porcelain") == before
    assert {path: path.read_bytes() for path in playtest.rglob("*")
            if path.is_file() and ".git" not in path.parts} == files


def test_json_lists_every_card_face_cause_and_what_a_reprint_adds_and_takes_out(playtest: Path):
    run = deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q")
    assert run.exit_code == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["changed"] is True
    assert report["old"]["name"] == "HEAD" and report["new"]["name"] == "working tree"
    assert report["new"]["version"].endswith("+") and report["old"]["version"] + "+" == report["new"]["version"]
    cards = {card["card"]: card for card in report["cards"]}
    assert [card["card"] for card in report["cards"]] == ["imp", "ogre", "troll", "golem", "wisp"]
    assert cards["imp"]["count"] == {"old": 2, "new": 3} and cards["imp"]["status"] == "changed"
    assert cards["ogre"]["fields"] == [{"what": "text", "old": "Smash.", "new": "Smash twice.",
                                        "file": str(DECK), "line": line_of(DECK, "Smash twice."),
                                        "column": column_of(DECK, "text: Smash twice.")}]
    assert cards["troll"]["status"] == "removed" and cards["troll"]["file"] == "HEAD:cards/game/deck.yaml"
    assert cards["wisp"]["status"] == "added" and cards["wisp"]["count"] == {"old": 0, "new": 1}
    golem = cards["golem"]
    assert golem["status"] == "redrawn" and [face["side"] for face in golem["faces"]] == ["front", "back"]
    cause = golem["faces"][0]["causes"][0]
    assert (cause["kind"], cause["element"], cause["file"], cause["line"]) == \
        ("setting", "title", str(LAYOUT), line_of(LAYOUT, "size: 14"))
    assert report["rules"] == [{"rule": "total (a full deck)", "old": "passes", "new": "fails",
                                "detail": "expected exactly 8 cards, found 9", "edited_from": None, "file": str(DECK),
                                "line": line_of(DECK, "total: 8"), "column": column_of(DECK, "total: 8")}]
    odds, = report["odds"]
    assert odds["changed"] and odds["old"]["exact"] == "23/28" and odds["new"]["exact"] == "16/21"
    reprint = report["reprint"]
    assert [(entry["card"], entry["copies"], entry["why"]) for entry in reprint["print"]] == \
        [("imp", [1, 2, 3], "redrawn"), ("ogre", [1, 2, 3], "redrawn"), ("golem", [1, 2], "redrawn"),
         ("wisp", [1], "new")]
    assert [(entry["card"], entry["copies"], entry["why"]) for entry in reprint["remove"]] == \
        [("imp", 2, "stale"), ("ogre", 3, "stale"), ("troll", 1, "removed"), ("golem", 2, "stale")]


def test_markdown_is_a_changelog_in_the_players_words(playtest: Path):
    run = deckpress("diff", "cards/game", "--since", "HEAD", "--format", "markdown", "-q")
    assert run.exit_code == 0, run.stderr
    text = run.stdout
    assert text.startswith("## Playtest: HEAD (version ")
    assert "- **Imp**: 2 → 3 copies" in text
    assert '- **Ogre**: text: "Smash." → "Smash twice."' in text
    assert "- ~~Troll~~: removed (1 copy)" in text and "- **Wisp**: new, 1 copy" in text
    assert "- Fronts and backs of Imp, Ogre, Golem: element 'title' size: 12 → 14" in text
    assert "| strength 5 or more in the opening hand | 82.1% | 76.2% |" in text
    assert "Take out 8 cards:\n- 2 × Imp (the old printing)" in text and "- 3 × Imp (reprinted)" in text
    assert "- 1 × Troll (no longer in the deck)" in text and "- 1 × Wisp (new card)" in text


def test_two_deck_folders_compare_as_a_revision_does(playtest: Path):
    old = playtest / "old"
    git(playtest, "worktree", "add", "-q", "--detach", str(old), "HEAD")
    run = deckpress("diff", "old/cards/game", "cards/game", "--format", "json", "-q")
    assert run.exit_code == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["old"]["name"] == "old/cards/game" and report["new"]["name"] == "cards/game"
    assert [(card["card"], card["status"]) for card in report["cards"]] == \
        [("imp", "changed"), ("ogre", "changed"), ("troll", "removed"), ("golem", "redrawn"), ("wisp", "added")]
    troll = next(card for card in report["cards"] if card["card"] == "troll")
    assert troll["file"] == "old/cards/game/deck.yaml"


def test_a_new_version_alone_changes_no_face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "  name: Playtest\n  layout", "  name: Playtest\n  version: \"0.2\"\n  layout")
    commit(tmp_path, "Playtest 0.2")
    edit(DECK, 'version: "0.2"', 'version: "0.3"')
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    assert (report["old"]["version"], report["new"]["version"]) == ("0.2", "0.3")
    assert report["changed"] is False and report["cards"] == [] and report["reprint"]["print"] == []
    text = deckpress("diff", "cards/game", "--since", "HEAD", "-q").stdout.splitlines()
    assert text[:2] == ["deck game: HEAD (version 0.2) -> working tree (version 0.3)",
                        "  nothing prints or plays differently"]


def test_changed_art_redraws_the_faces_that_show_it_and_names_the_file(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art/golem.png"), (40, 40, 200))
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1:3] == ["faces that print differently", "  front of golem:"]
    assert lines[3] == "    cards/game/art/golem.png: art/golem.png changed"
    assert "  print 2 cards: golem x2 (redrawn)" in lines


def test_art_linked_to_other_art_since_the_revision_is_compared_with_the_committed_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The revision's side reads ``art/golem.png`` as the commit holds it, not the file the
    working tree's link leads to (which the commit holds too, with other bytes)."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art/golem-blue.png"), (40, 40, 200))
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The first playtest, with blue art to come")
    Path("cards/game/art/golem.png").unlink()
    Path("cards/game/art/golem.png").symlink_to("golem-blue.png")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1:3] == ["faces that print differently", "  front of golem:"]
    assert "  print 2 cards: golem x2 (redrawn)" in lines


def test_a_folder_swapped_for_a_link_redraws_every_face_it_reaches(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art-v2/golem.png"), (40, 40, 200))
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The first playtest, with the next art beside it")
    Path("cards/game/art").rename("cards/game/art-v1")
    Path("cards/game/art").symlink_to("art-v2", target_is_directory=True)
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 0, run.stderr
    assert "  print 2 cards: golem x2 (redrawn)" in run.stdout.splitlines(), run.stdout


def test_a_link_the_commit_holds_is_followed_as_a_checkout_of_it_would_follow_it(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art-v2/golem.png"), (40, 40, 200))
    art = Path("cards/game/art")
    art.rename("cards/game/art-v1")
    art.symlink_to("art-v1", target_is_directory=True)
    git(tmp_path, "init", "-q")
    commit(tmp_path, "The art of the first playtest, linked")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[1] == "  nothing prints or plays differently"
    art.unlink()
    art.symlink_to("art-v2", target_is_directory=True)
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 0, run.stderr
    assert "  print 2 cards: golem x2 (redrawn)" in run.stdout.splitlines(), run.stdout


def test_a_committed_file_made_a_link_since_is_still_read_at_the_revision(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    """The commit holds ``art/golem.png`` as a file, so the older faces are laid out with it,
    though the working tree's link leads to a file the commit lacks. The art is drawn from a
    file of another name now, so its faces are redrawn, as a build's manifest would say."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    art = Path("cards/game/art")
    (art / "golem.png").rename(art / "golem-v2.png")
    (art / "golem.png").symlink_to("golem-v2.png")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q")
    assert run.exit_code == 0, run.stderr
    golem, = json.loads(run.stdout)["cards"]
    assert face_causes(golem) == [("front", [("element", "element 'art' draws differently")])]


def test_a_count_that_changed_with_the_art_blames_the_art_not_the_count(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch):
    """The layout prints no count, so the new drawing is the art's doing."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art/golem.png"), (40, 40, 200))
    edit(DECK, "strength: 6, count: 2,", "strength: 6, count: 3,")
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    golem, = report["cards"]
    assert golem["count"] == {"old": 2, "new": 3}
    assert face_causes(golem) == [("front", [("file", "art/golem.png changed")])]


def test_a_card_whose_fields_changed_is_not_blamed_on_a_colour_it_does_not_print(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch):
    """The golem's badge alone is gold: a new gold is the golem's, not the renamed imp's."""
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    layout = Path("layouts/game.yaml")
    badge = "  - name: badge\n    when: \"strength > 5\"\n    rect: [50, 5, 8, 8]\n    fill: gold\n"
    layout.write_text(layout.read_text().replace("elements:\n", "colours: {gold: '#c09000'}\nelements:\n" + badge))
    git(tmp_path, "init", "-q")
    commit(tmp_path, "A badge for the strongest")
    edit(layout, "gold: '#c09000'", "gold: '#d4a017'")
    edit(DECK, "name: Imp,", "name: Imp the Small,")
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    cards = {card["card"]: face_causes(card) for card in report["cards"]}
    assert cards["imp"] == [("front", [("card", "its own fields")])]
    assert [kind for _, causes in cards["golem"] for kind, _ in causes] == ["setting"]


def test_cards_read_from_a_csv_are_read_at_the_revision_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The older side's rows come from the CSV as committed, not from today's file."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    deck = Path("cards/game/deck.yaml")
    text = deck.read_text()
    start, end = text.index("cards:\n"), text.index("rules:")
    deck.write_text(text[:start] + "cards: {from: cards.csv}\n" + text[end:])
    Path("cards/game/cards.csv").write_text(
        "id,name,text,strength,count,art\n"
        "imp,Imp,Burn a card.,2,2,\nogre,Ogre,Smash.,5,3,\ntroll,Troll,Regrow.,4,1,\n"
        "golem,Golem,Stand firm.,6,2,art/golem.png\n")
    commit(tmp_path, "Cards in a spreadsheet")
    edit(Path("cards/game/cards.csv"), "troll,Troll,Regrow.,4,1,", "troll,Troll,Regrow twice.,4,1,")
    edit(Path("cards/game/cards.csv"), "ogre,Ogre,Smash.,5,3,", "ogre,Ogre,Smash.,5,2,")
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    assert (report["old"]["cards"], report["new"]["cards"]) == (8, 7)
    assert {card["card"]: card["count"] for card in report["cards"]} == {
        "ogre": {"old": 3, "new": 2}, "troll": {"old": 1, "new": 1}}
    run = deckpress("build", "cards/game", "--changed-since", "HEAD", "--out", "out", "--no-check", "-q")
    assert run.exit_code == 0, run.stderr
    printed = json.loads(Path("out/game.reprint.json").read_text())
    assert sorted({placement["card"] for placement in printed["placements"] if placement.get("card")}) == ["troll"]


def test_a_card_whose_text_and_art_both_changed_names_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    write_art(Path("cards/game/art/golem.png"), (40, 40, 200))
    edit(DECK, "text: Stand firm.,", "text: Stand firmer.,")
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    golem, = report["cards"]
    assert face_causes(golem) == [("front", [("card", "its own fields"), ("file", "art/golem.png changed")])]


def test_a_shared_back_changed_in_the_deck_file_names_that_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "back:\n  name: Playtest\n", "back:\n  name: Playtest II\n")
    lines = deckpress("diff", "cards/game", "--since", "HEAD", "-q").stdout.splitlines()
    where = at(DECK, "name: Playtest II")
    assert lines[1:3] == ["deck", f"  {where}: back name: \"Playtest\" -> \"Playtest II\""]
    assert "  backs of 4 cards (imp, ogre, troll, golem):" in lines
    assert f"    {where}: back name: \"Playtest\" -> \"Playtest II\"" in lines


def test_a_back_names_the_back_s_new_name_and_not_the_deck_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Both names changed; the backs print the shared back's name only, the fronts neither."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "deck:\n  name: Playtest\n", "deck:\n  name: Playtest Deluxe\n")
    edit(DECK, "back:\n  name: Playtest\n", "back:\n  name: Playtest II\n")
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    assert [change["what"] for change in report["deck"]] == ["deck name", "back name"]
    assert {card["card"]: face_causes(card) for card in report["cards"]} == {
        card: [("back", [("deck", 'back name: "Playtest" -> "Playtest II"')])]
        for card in ("imp", "ogre", "troll", "golem")}


def test_a_rewritten_when_is_named_only_where_it_shows_or_hides_the_element(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    """The body now hides on the ogre and prints larger elsewhere: the ogre's front is the
    condition's doing, every other front the size's, though both lines changed."""
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(LAYOUT, "    when: \"side == 'front'\"\n    text: \"{{ text or '' }}\"\n",
         "    when: \"side == 'front' and strength != 5\"\n    size: 11\n    text: \"{{ text or '' }}\"\n")
    report = json.loads(deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout)
    when = "element 'body' when: \"side == 'front'\" -> \"side == 'front' and strength != 5\""
    size = "element 'body' size: (none) -> 11"
    assert {card["card"]: face_causes(card) for card in report["cards"]} == {
        "imp": [("front", [("setting", size)])], "ogre": [("front", [("setting", when)])],
        "troll": [("front", [("setting", size)])], "golem": [("front", [("setting", size)])]}


def test_a_bad_revision_is_one_line_and_exit_2(playtest: Path):
    run = deckpress("diff", "cards/game", "--since", "no-such-tag", "-q")
    assert run.exit_code == 2
    assert run.error_lines == [f"error: cards/game: no revision 'no-such-tag' in the repository at "
                               f"{playtest.resolve()}"]
    assert run.stdout == ""


def test_a_deck_malformed_at_the_revision_is_named_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    edit(DECK, "strength: 5, count: 3}", "strength: five, count: 3}")
    commit(tmp_path, "A typo")
    edit(DECK, "strength: five, count: 3}", "strength: 5, count: 3}")
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 2
    line = line_of(DECK, "id: ogre")
    column = DECK.read_text().splitlines()[line - 1].index("strength: 5, count: 3") + 1
    assert run.error_lines == [f"error: HEAD:cards/game/deck.yaml:{line}:{column}: "
                               "expected a whole number, found 'five' (strength)"]


def test_a_deck_the_revision_does_not_have_cannot_be_compared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    shutil.copytree("cards/game", "cards/newer")
    run = deckpress("diff", "cards/newer", "--since", "HEAD", "-q")
    assert run.exit_code == 2
    assert run.error_lines == ["error: cards/newer/deck.yaml: the deck is not in HEAD: it was made since, so there "
                               "is nothing to compare it with"]


def test_outside_a_repository_or_without_git_there_is_no_revision(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch):
    project(tmp_path, commit_it=False)
    monkeypatch.chdir(tmp_path)
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 2
    assert run.error_lines == ["error: cards/game: not in a git repository, so there is no revision 'HEAD' to read"]
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    run = deckpress("diff", "cards/game", "--since", "HEAD", "-q")
    assert run.exit_code == 2
    assert run.error_lines == ["error: cards/game: git is not installed (no git on the PATH), so there is no "
                               "revision to read"]


def test_usage_names_two_decks_or_one_with_since(playtest: Path):
    for args in (("cards/game",), ("cards/game", "cards/game", "--since", "HEAD")):
        run = deckpress("diff", *args)
        assert run.exit_code == 2
        assert "name two decks, OLD NEW, or one DECK with --since REV" in run.stderr or \
            "--since REV compares one DECK" in run.stderr


def test_a_font_file_that_changed_is_named_and_not_the_text_it_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    bundled = Path(__file__).resolve().parent.parent / "generator" / "render" / "data" / "fonts"
    deck = project(tmp_path, commit_it=False)
    (deck / "fonts").mkdir()
    shutil.copyfile(bundled / "DejaVuSans.ttf", deck / "fonts" / "Body.ttf")
    edit(tmp_path / LAYOUT, "    fit: wrap\n", "    fit: wrap\n    font: Body\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "A font of the deck's own")
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(bundled / "DejaVuSans-Bold.ttf", deck / "fonts" / "Body.ttf")
    lines = deckpress("diff", "cards/game", "--since", "HEAD", "-q").stdout.splitlines()
    assert lines[1:5] == ["faces that print differently",
                          "  fronts of 4 cards (imp, ogre, troll, golem):",
                          "    cards/game/fonts/Body.ttf: font 'Body' changed",
                          "odds (stats:)"]  # nothing more: the text the font moved is not a cause


def test_a_font_file_linked_to_another_since_is_compared_with_the_committed_font(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch):
    bundled = Path(__file__).resolve().parent.parent / "generator" / "render" / "data" / "fonts"
    deck = project(tmp_path, commit_it=False)
    (deck / "fonts").mkdir()
    shutil.copyfile(bundled / "DejaVuSans.ttf", deck / "fonts" / "Body.ttf")
    shutil.copyfile(bundled / "DejaVuSans-Bold.ttf", deck / "fonts" / "Bold.ttf")
    edit(tmp_path / LAYOUT, "    fit: wrap\n", "    fit: wrap\n    font: Body\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "A font of the deck's own, and a bolder one")
    monkeypatch.chdir(tmp_path)
    (deck / "fonts" / "Body.ttf").unlink()
    (deck / "fonts" / "Body.ttf").symlink_to("Bold.ttf")
    lines = deckpress("diff", "cards/game", "--since", "HEAD", "-q").stdout.splitlines()
    assert lines[1:3] == ["faces that print differently", "  fronts of 4 cards (imp, ogre, troll, golem):"]


def test_control_characters_from_the_deck_are_written_as_escapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    # ESC would drive the terminal; U+202E (right-to-left override) would reverse the rest of the line
    edit(DECK, "text: Smash.", 'text: "Smash\\e[31m\\nnow\\u202e."')
    for output_format in ("text", "markdown"):
        run = deckpress("diff", "cards/game", "--since", "HEAD", "--format", output_format, "-q")
        assert run.exit_code == 0 and "\x1b" not in run.stdout and "\u202e" not in run.stdout
        assert "Smash\\x1b[31m\\nnow\\u202e." in run.stdout.replace("\\\\", "\\").replace("\\[", "[")
    written = deckpress("diff", "cards/game", "--since", "HEAD", "--format", "json", "-q").stdout
    assert "\x1b" not in written and "\u202e" not in written  # escaped in the JSON text as \u...
    ogre, = json.loads(written)["cards"]
    assert ogre["fields"][0]["new"] == "Smash\x1b[31m\nnow\u202e."  # tools get it whole
