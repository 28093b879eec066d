"""Whatever a deck's files say, deckpress keeps its contract.

Hypothesis mutates a valid deck's layout, rules.md, card spreadsheet and deck file
with hostile values (extreme numbers, runaway templates, paths out of the folder,
broken pictures, odd Unicode, nested Markdown...) and runs the commands a designer
would. Every run must:

- end with exit status 0, 1 or 2, and no traceback;
- end within a time bound;
- write nothing outside OUT;
- leave OUT exactly as it was when it fails.

CI runs a fixed set of 110 examples (derandomised: the same every run, about fifteen
seconds). Run more by hand with ``DECKPRESS_HOSTILE_EXAMPLES=500 .venv/bin/python -m
pytest tests/test_hostile_properties.py``; each property then draws that many fresh,
random examples (a failure prints the blob that replays it with ``@reproduce_failure``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hostile_support import broken_pngs, deckpress, png_declaring, within
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.scaffold import create_deck

BY_HAND = int(os.environ.get("DECKPRESS_HOSTILE_EXAMPLES", "0"))
"""Examples per property when set (a run by hand); CI uses each property's own small count."""

SECONDS_PER_COMMAND = 30
"""A command on the small test deck takes well under a second; this bound catches a hang
long before CI's does, with time to spare on a busy machine."""


def hostile(ci_examples: int) -> settings:
    return settings(max_examples=BY_HAND or ci_examples, derandomize=not BY_HAND, deadline=None,
                    database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- hostile values ---------------------------------------------------------------------------

NUMBERS = st.sampled_from([0, -1, 1, 3, 0.0001, 1e308, -1e308, float("inf"), float("nan"), 10 ** 400,
                           -10 ** 400, 2 ** 63, 99_999_999, 1_000_000_000])
LENGTHS = st.sampled_from(["0mm", "-5mm", "1e400mm", "999999999999mm", "50%", "1000%", "-100%", "1in",
                           "9pt", "1" * 400, "5 mm", "", "12.5.3mm", "%", "mm"])
TEMPLATES = st.sampled_from([
    "{{ 1/0 }}", "{{ lipsum(1000000) }}", "{{ 1e999 }}", "{{ name|truncate(2) }}", "{{ [1, 2]|random }}",
    "{{ text|wordwrap }}", "{{ 'x'|center(999999999) }}", "{{ '%999999999d' % 1 }}",
    "{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}",
    "{% for a in range(99999) %}{{ 'x' * 99999 }}{% endfor %}",
    "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", "{{ ''.__class__.__mro__ }}",
    "{{ name }}", "{{ nosuch }}", "{{", "{% if %}", "{{ power * 10 ** 300 }}", "**bold** *it* :star:",
    ":nosuchicon:", "[a]{.nosuch}", "[a]{.", "\\", "x" * 3000, "{{ range(10)|join(', ') }}",
    "{% for x in fields recursive %}{{ loop(x) }}{% endfor %}", "{{ (1).to_bytes(999999999, 'big') }}",
])
PATHS = st.sampled_from(["../../../etc/passwd", "/etc/passwd", "/dev/zero", "..", "good.png", "missing.png",
                         "truncated.png", "damaged.png", "not-a-picture.png", "bomb.png", "a" * 300,
                         "nul\x00l.png", "good.png/", "~/x.png"])
COLOURS = st.sampled_from(["#fff", "#12345", "red", "nosuch", "#ffffff00", "ink", "none", "accent",
                           "#" + "f" * 400, "{{ 'panel' }}"])
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
SCALARS = st.one_of(NUMBERS, LENGTHS, TEMPLATES, PATHS, COLOURS, TEXT, st.none(), st.booleans(),
                    st.integers(), st.floats())
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=5),
                   st.dictionaries(st.sampled_from(["field", "map", "default", "x", "from", "sheet"]), SCALARS,
                                   max_size=3))


# -- the project every example starts from ---------------------------------------------------

@pytest.fixture(scope="module")
def baseline() -> Iterator[Path]:
    """A project with the deck ``deckpress new`` makes, its pictures, and OUT holding what a
    good run wrote (so a failed run can be seen to leave it alone)."""
    with tempfile.TemporaryDirectory(prefix="deckpress-hostile-") as folder:
        root = Path(folder)
        deck = create_deck(root / "cards", "demo")
        for path in broken_pngs(root / "pictures").values():
            shutil.copy(path, deck / path.name)
        shutil.copy(root / "pictures" / "good.png", deck / "good.png")
        png_declaring(deck / "bomb.png", 30_000, 30_000)
        shutil.rmtree(root / "pictures")
        (deck / "cards.csv").write_text("id,count,name,type,power,text\nknight,4,Knight,hero,3,Brave\n"
                                        "goblin,6,Goblin,monster,1,\n")
        out = root / "out"
        for command in (("build", deck, "--out", out, "--quiet"), ("booklet", deck, "--out", out, "--quiet")):
            assert deckpress(*command).exit_code == 0
        yield root


@contextlib.contextmanager
def project(baseline: Path) -> Iterator[Path]:
    """A fresh copy of the baseline project, the working directory while the block runs."""
    with tempfile.TemporaryDirectory(prefix="deckpress-example-") as folder:
        root = Path(folder) / "project"
        shutil.copytree(baseline, root, symlinks=True)
        previous = os.getcwd()
        os.chdir(root)
        try:
            yield root
        finally:
            os.chdir(previous)


def files(folder: Path, leave_out: Path | None = None) -> dict[str, bytes]:
    if not folder.exists():
        return {}
    return {str(path.relative_to(folder)): path.read_bytes() if path.is_file() else b"<dir>"
            for path in sorted(folder.rglob("*")) if leave_out is None or leave_out not in (path, *path.parents)}


def keeps_the_contract(root: Path, *commands: tuple[str, ...]) -> None:
    """Run each command on the (mutated) deck and check the contract after each."""
    deck, out = root / "cards" / "demo", root / "out"
    outside = files(root, leave_out=out)
    for command in commands:
        before = files(out)
        arguments = [command[0], str(deck), *command[1:]]
        if command[0] in ("build", "booklet"):
            arguments += ["--out", str(out), "--quiet"]
        with within(SECONDS_PER_COMMAND):
            run = deckpress(*arguments)  # a crash fails here, with its traceback
        output = run.stdout + run.stderr
        assert run.exit_code in (0, 1, 2), (arguments, run.exit_code, output)
        assert "Traceback" not in output, output
        if run.exit_code:
            # a message names a file of the project from the working folder, the project
            said = [line for line in output.splitlines() if line.lower().startswith("error") or "cards/demo/" in line]
            assert said, output  # a failure says what went wrong, and where
            assert files(out) == before, f"{arguments[0]} failed but changed {out}"
        assert files(root, leave_out=out) == outside, f"{arguments[0]} wrote outside {out}"


ADDED_KEYS = ["x", "size", "font", "extends", "repeat", "when", "box", "dpi", "image", "icon", "text", "rect",
              "line", "ellipse", "radius", "dash", "gap", "rotate", "opacity", "fit", "leading", "min_size",
              "bleed", "safe", "title", "styles", "icons", "colours", "defaults", "units", "align", "valign",
              "direction", "icon_scale", "stats", "simulate", "layout", "card_size", "accept", "decklists",
              "from", "sheet", "players", "title_field", "back", "count", "id", "scope", "per", "where"]
"""Keys a mutation may add, from layouts and deck files alike (an unknown one must be refused)."""


def mutate(data, draw, depth: int = 0):
    """``data`` with a few values replaced by hostile ones, keys dropped or added."""
    if isinstance(data, dict) and data:
        data = dict(data)
        key = draw(st.sampled_from(sorted(data, key=str)))
        action = draw(st.sampled_from(["replace", "replace", "descend", "descend", "drop", "add"]))
        if action == "replace":
            data[key] = draw(VALUES)
        elif action == "descend":
            data[key] = mutate(data[key], draw, depth + 1)
        elif action == "drop":
            del data[key]
        else:
            data[draw(st.sampled_from(ADDED_KEYS))] = draw(VALUES)
        return data
    if isinstance(data, list) and data:
        data = list(data)
        index = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["replace", "descend", "descend", "repeat"]))
        if action == "replace":
            data[index] = draw(VALUES)
        elif action == "descend":
            data[index] = mutate(data[index], draw, depth + 1)
        else:
            data.extend([data[index]] * draw(st.integers(1, 60)))
        return data
    return draw(VALUES)


def mutated_yaml(path: Path, draw) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for _ in range(draw(st.integers(1, 3))):
        data = mutate(data, draw)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


# -- the properties ---------------------------------------------------------------------------

@hostile(ci_examples=30)
@given(st.data())
def test_a_mutated_layout_keeps_the_contract(baseline, data):
    with project(baseline) as root:
        mutated_yaml(root / "cards" / "demo" / "layout.yaml", data.draw)
        keeps_the_contract(root, ("check",), ("build",))


@hostile(ci_examples=25)
@given(st.data())
def test_a_mutated_deck_file_keeps_the_contract(baseline, data):
    with project(baseline) as root:
        mutated_yaml(root / "cards" / "demo" / "deck.yaml", data.draw)
        keeps_the_contract(root, ("check",), ("build",), ("stats",))


WORDS = st.one_of(st.sampled_from(["roll", "the", "dice", "**win**", "*it*", "`code`", "[link](x)", "&amp;",
                                   "&#0;", "&#x110000;", "<script>", "\\", "{{ players }}", "{{ nosuch }}"]),
                  st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12),
                  st.integers(150, 400).map(lambda n: "w" * n))
LINES = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)
DIRECTIVES = st.sampled_from([
    "{{ components }}", "{{ components by=type }}", "{{ components by=nosuch }}", "{{ cards side=front }}",
    "{{ cards side=both width=1e400mm }}", "{{ cards width=0mm }}", "{{ cardtable columns=name,power sort=-power }}",
    "{{ cardtable columns=" + ",".join(["name"] * 40) + " }}", "{{ cardtable columns= }}", "{{ decklists }}",
    "{{ pagebreak }}", "{{ nosuch }}", "{{ cards where=type:nosuch }}", "{{ components extra=" + "x;" * 200 + " }}",
])
IMAGES = PATHS.map(lambda path: f"![art]({path})")
BLOCKS = st.one_of(
    LINES.map(lambda line: "# " + line), LINES.map(lambda line: "### " + line), LINES,
    st.tuples(st.integers(1, 30), LINES).map(lambda nested: "> " * nested[0] + nested[1]),
    st.tuples(st.integers(1, 30), LINES).map(lambda nested: "".join("  " * i + "- item\n" for i in range(nested[0]))
                                             + nested[1]),
    st.tuples(st.integers(1, 30), st.integers(1, 30), LINES).map(
        lambda table: "| " + " | ".join(["h"] * table[0]) + " |\n|" + "---|" * table[0] + "\n"
        + ("| " + " | ".join([table[2]] * table[0]) + " |\n") * table[1]),
    DIRECTIVES, IMAGES, LINES.map(lambda line: f"Inline ![i](good.png) icon and {line}"),
    LINES.map(lambda line: "```\n" + line + "\n```"), st.just("---"), st.just("<div>raw html</div>"),
)


@hostile(ci_examples=25)
@given(st.lists(BLOCKS, min_size=1, max_size=8))
def test_a_mutated_rules_file_keeps_the_contract(baseline, blocks):
    with project(baseline) as root:
        (root / "cards" / "demo" / "rules.md").write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        keeps_the_contract(root, ("check",), ("booklet",))


CELLS = st.one_of(st.sampled_from(["", "3", "-1", "1e400", "99999999999999999999", "hero", "monster", "nosuch",
                                   "knight", "yes", "=1+1", "\"quoted, comma\"", "\ufeffid", "back.name"]),
                  TEXT.filter(lambda cell: "\x00" not in cell), st.integers(200, 3000).map(lambda n: "x" * n))
COLUMNS = st.sampled_from(["id", "count", "name", "type", "power", "text", "back.name", "nosuch", "", "qty", "id"])


@hostile(ci_examples=15)
@given(st.lists(COLUMNS, min_size=1, max_size=8),
       st.lists(st.lists(CELLS, max_size=9), max_size=12),
       st.sampled_from([",", ";", "\t"]), st.booleans())
def test_a_mutated_spreadsheet_keeps_the_contract(baseline, header, rows, delimiter, bom):
    with project(baseline) as root:
        deck = root / "cards" / "demo"
        text = "\n".join(delimiter.join(row) for row in [header, *rows]) + "\n"
        (deck / "cards.csv").write_text(("\ufeff" if bom else "") + text, encoding="utf-8")
        source = (deck / "deck.yaml").read_text(encoding="utf-8")
        head, _, rest = source.partition("\ncards:\n")
        (deck / "deck.yaml").write_text(head + "\ncards: {from: cards.csv}\n" + rest.partition("\nrules:")[1]
                                        + rest.partition("\nrules:")[2], encoding="utf-8")
        keeps_the_contract(root, ("check",), ("build",))


@hostile(ci_examples=15)
@given(st.lists(COLUMNS, min_size=1, max_size=6), st.lists(st.lists(CELLS, max_size=7), max_size=8),
       st.sampled_from(["none", "truncate", "flip", "append"]), st.integers(0, 2 ** 16), st.data())
def test_a_mutated_workbook_keeps_the_contract(baseline, header, rows, damage, where, data):
    import io

    import openpyxl
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    book = openpyxl.Workbook()
    sheet = book.active
    for row in [header, *rows]:
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", cell) for cell in row])  # what openpyxl can write
    buffer = io.BytesIO()
    book.save(buffer)
    content = bytearray(buffer.getvalue())
    spot = where % len(content)
    if damage == "truncate":
        content = content[:spot]
    elif damage == "flip":
        content[spot:spot + 16] = bytes(byte ^ data.draw(st.integers(1, 255)) for byte in content[spot:spot + 16])
    elif damage == "append":
        content += bytes(data.draw(st.binary(max_size=64)))
    with project(baseline) as root:
        deck = root / "cards" / "demo"
        (deck / "cards.xlsx").write_bytes(bytes(content))
        source = (deck / "deck.yaml").read_text(encoding="utf-8")
        head, _, rest = source.partition("\ncards:\n")
        (deck / "deck.yaml").write_text(head + "\ncards: {from: cards.xlsx}\n" + rest.partition("\nrules:")[1]
                                        + rest.partition("\nrules:")[2], encoding="utf-8")
        keeps_the_contract(root, ("check",), ("build",))
