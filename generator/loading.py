"""YAML text -> plain Python data, with a source position for every node.

Deck files come from strangers on the internet, so loading is defensive:
only YAML's safe types are built, duplicate keys are refused (YAML silently
keeps the last one, which hides typos), alias expansion is bounded so a
"billion laughs" file cannot eat the machine, and files over a size cap are
refused before parsing.

Every value keeps the place it came from, so later stages can say
``cards/tiki/deck.yaml:42:11: expected a whole number (strength)``.

The node tree is composed by libyaml's composer over libyaml's parser. That composer
recurses, one level a nesting level, so it is used only where libyaml refuses nesting
deeper than 1,000 levels itself (0.2.6 and later); over an older libyaml, PyYAML's own
composer composes libyaml's events, and Python's recursion limit stops a document nested
too deep (PyYAML without libyaml parses in Python, about twelve times slower).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml

from generator.errors import InputError, Position
from generator.revisions import current_source

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Far above any real deck (the 152-card bundled deck is ~20 KB)."""

MAX_NODES = 200_000
"""Nodes built after alias expansion; a bomb exceeds it long before memory does."""

MAX_DEPTH = 50
"""Nesting levels of mappings and lists; a deck needs about five."""

STR_TAG = "tag:yaml.org,2002:str"
MERGE_TAG = "tag:yaml.org,2002:merge"

KeyPath = tuple[Any, ...]  # a path of mapping keys and list indexes from the document root


class Locator(Protocol):
    """A place that knows where the values under it stand (a spreadsheet row, whose columns
    are the same for every row): one entry for a row instead of one for each cell."""

    def locate(self, rest: KeyPath) -> Position:
        """Where the value ``rest`` below this place stands (``()``: the place itself)."""
        ...


Place = Position | tuple[int, int] | tuple[Path, int, int] | Locator
"""Where a key path starts: a Position; a (line, column) pair in the document's own file,
as loading keeps it; a (file, line, column) triple for a value read from another file
(cards from a card file); or a :class:`Locator`."""


@dataclass(repr=False, eq=False)
class Document:
    """A loaded YAML file: its data and where each part of it came from."""

    path: Path
    data: Any
    positions: dict[KeyPath, Place] = field(default_factory=dict)
    """Where each key path starts (see :data:`Place`). Loading keeps a (line, column) pair in
    this file, and :meth:`at` makes the Position only for the few that are ever asked for."""

    def at(self, *keys: Any) -> Position:
        """Position of the node at ``keys``, or of its nearest known ancestor."""
        path = tuple(keys)
        while path:
            if path in self.positions:
                return self._position(self.positions[path], tuple(keys[len(path):]))
            path = path[:-1]
        return self._position(self.positions.get((), (1, 1)), tuple(keys))

    def _position(self, where: Place, rest: KeyPath = ()) -> Position:
        if isinstance(where, Position):
            return where
        if not isinstance(where, tuple):
            return where.locate(rest)
        if len(where) == 3:
            return Position(*where)
        return Position(self.path, *where)


def load_yaml(path: Path) -> Document:
    """Read and parse one YAML file, raising :class:`InputError` on any problem."""
    return parse_yaml(read_text(path, limit=MAX_FILE_BYTES), path)


def check_readable(path: Path, limit: int = MAX_FILE_BYTES) -> None:
    """Refuse a missing file, one that is no regular file (a pipe would wait for ever) or one
    larger than ``limit``, before it is opened, where the files of decks come from now (the
    disk, or a git revision)."""
    try:
        entry = current_source().entry(path)
    except FileNotFoundError:
        raise InputError("file not found", Position(path)) from None
    except OSError as error:
        raise cannot_read(path, error) from None
    if entry.kind is not None:
        raise InputError(f"is {entry.kind}, not a file that can be read", Position(path))
    if entry.size > limit:
        raise InputError(f"file is {entry.size:,} bytes; the limit is {limit:,}", Position(path))


def cannot_read(path: Path, error: OSError) -> InputError:
    """The refusal of a file the disk or git could not give: the system's words for why, or
    git's (a :class:`~generator.revisions.GitError` carries no system error)."""
    return InputError(f"cannot read file: {error.strerror or error}", Position(path))


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file, refusing missing, oversized or binary files. It is read from
    where the files of decks come from now: the disk, or a git revision
    (:func:`~generator.revisions.current_source`)."""
    check_readable(path, limit)
    try:
        raw = current_source().read(path, limit + 1)  # no more than the limit, even from a file still growing
    except OSError as error:
        raise cannot_read(path, error) from None
    if len(raw) > limit:
        raise InputError(f"file is more than {limit:,} bytes", Position(path))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text: byte 0x{raw[error.start]:02x} cannot be read; "
                         "save the file as UTF-8", _byte_position(path, raw, error.start)) from None


def _byte_position(path: Path, raw: bytes, offset: int) -> Position:
    """Line and column (counted in bytes) of ``offset``, for text that cannot be decoded."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return Position(path, raw.count(b"\n", 0, offset) + 1, offset - line_start + 1)


_INLINE_ICON = re.compile(r":[A-Za-z][A-Za-z0-9_-]*(?:\{[^}\n]*\})?: ")
"""An inline icon followed by a space (``:coin: ``, ``:coin{2}: ``), which YAML reads as a key."""


def _icon_hint(text: str, mark: yaml.Mark | None) -> str:
    """Card text with an inline icon (``Pay 2 :coin: to draw``, ``Pay :coin{2}: now``) must be quoted: YAML reads
    ': ' as a key. Say so when that is what tripped the parser."""
    if mark is None:
        return ""
    lines = text.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    if _INLINE_ICON.search(line):
        return "; text holding an :icon: must be quoted, as in text: \"Pay 2 :coin: to draw\""
    return ""


def parse_yaml(text: str, path: Path, max_nodes: int = MAX_NODES) -> Document:
    """Parse YAML ``text`` (named ``path`` in errors) into a :class:`Document`: compose the
    node tree, bound what its aliases expand to (``max_nodes`` values), then build the data."""
    try:
        root = compose(text, path)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        if error.problem and error.context and error.context_mark and mark \
                and error.context_mark.line != mark.line:
            # The parser often notices a line late; say where the unfinished part began.
            problem += f" ({error.context} that starts at line {error.context_mark.line + 1})"
        problem += _icon_hint(text, mark)
        raise InputError(f"YAML syntax error: {problem}", _position(path, mark)) from None
    except yaml.reader.ReaderError:
        raise refused_character(text, path) from None
    except yaml.YAMLError as error:
        raise InputError(f"YAML error: {error}", Position(path)) from None
    document = Document(path=path, data=None)
    if root is None:
        document.data = {}
        return document
    builder = _Builder(path, document.positions, max_nodes)
    builder.refuse_runaway_expansion(root)
    document.data = builder.build(root, ())
    return document


_REFUSED_BY_YAML = yaml.reader.Reader.NON_PRINTABLE
"""The characters YAML allows nowhere in a file, not even quoted: control characters but tab
and line breaks, U+FFFE and U+FFFF, and lone halves of surrogate pairs."""


def refused_character(text: str, path: Path) -> InputError:
    """The error for the first character of ``text`` YAML refuses, at its line and column (in
    characters: libyaml counts its place in bytes), named by its code point and never shown raw."""
    found = _REFUSED_BY_YAML.search(text)
    if found is None:  # the reader refused something else; its own words have no place in them
        return InputError("YAML cannot read a character of this file", Position(path))
    offset = found.start()
    line_start = text.rfind("\n", 0, offset) + 1
    code = ord(found.group())
    kind = ("a noncharacter" if code in (0xFFFE, 0xFFFF) else
            "half of a surrogate pair" if 0xD800 <= code <= 0xDFFF else "a control character")
    return InputError(f"holds U+{code:04X}, {kind}, which YAML files may not contain; delete it",
                      Position(path, text.count("\n", 0, offset) + 1, offset - line_start + 1))


LIBYAML_NESTING_CAP = (0, 2, 6)
"""The first libyaml that refuses nesting deeper than 1,000 levels, before PyYAML's composer,
which recurses a level a nesting level, could overflow the stack on a 50,000-deep ``[[[``."""


def loader_for(libyaml: tuple[int, ...] | None) -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """The safe loader to compose with, given the version of the libyaml PyYAML was built with
    (None without one): libyaml's own where it caps nesting; else libyaml's parser under
    PyYAML's composer, whose recursion Python's limit stops; else PyYAML's own parser."""
    if libyaml is None or not hasattr(yaml, "CSafeLoader"):
        return yaml.SafeLoader
    if libyaml >= LIBYAML_NESTING_CAP:
        return yaml.CSafeLoader

    class ParsedByLibyaml(yaml.composer.Composer, yaml.CSafeLoader):
        """libyaml's parser with PyYAML's composer in front of libyaml's: the methods that
        compose come first, and ask the C parser for its events. Made here, since a PyYAML
        without libyaml has no ``CSafeLoader`` to make it from."""

        def __init__(self, stream: str) -> None:
            yaml.CSafeLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)

    return ParsedByLibyaml


LOADER = loader_for(getattr(getattr(yaml, "_yaml", None), "get_version", lambda: None)())
"""Whose parser and composer make the node tree (see the module docstring)."""


def compose(text: str, path: Path) -> yaml.Node | None:
    """YAML text -> one node tree; a second document, an alias before its anchor, an anchor
    defined twice and nesting past the parser's cap are refused at their line (past Python's
    recursion limit, without one)."""
    try:
        return yaml.compose(text, Loader=LOADER)
    except yaml.composer.ComposerError as error:
        problem, context = error.problem or "", error.context or ""
        if problem == "but found another document":
            raise InputError("a deck file holds one YAML document; found a second '---'",
                             _position(path, error.problem_mark)) from None
        if context.startswith("found duplicate anchor"):
            first = _line_column(error.context_mark)[0] if error.context_mark else "?"
            raise InputError(f"anchor '&{_name_at(text, error.problem_mark, '&')}' is defined again (first at "
                             f"line {first}); give one of them another name",
                             _position(path, error.problem_mark)) from None
        if problem.startswith("found undefined alias"):
            name = _name_at(text, error.problem_mark, "*")
            raise InputError(f"alias '*{name}' names no anchor defined before it",
                             _position(path, error.problem_mark)) from None
        raise
    except yaml.MarkedYAMLError as error:
        if "nesting depth" in str(error.problem):  # libyaml's own cap, far above ours
            raise _too_deep(path, error.problem_mark) from None
        raise
    except RecursionError:  # PyYAML's composer, over a libyaml that does not cap nesting
        raise _too_deep(path, None) from None


def _too_deep(path: Path, mark: Any) -> InputError:
    """The refusal of a document nested more than :data:`MAX_DEPTH` levels, at ``mark`` if known."""
    return InputError(f"nested more than {MAX_DEPTH} levels deep", _position(path, mark))


_ANCHOR_NAME = re.compile(r"[^\s,\[\]{}]+")


def _name_at(text: str, mark: Any, sign: str) -> str:
    """The name of the anchor (``&``) or alias (``*``) written at ``mark``, which libyaml's
    errors do not say; a position is counted in characters."""
    lines = text.splitlines()
    line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    start = line.find(sign, mark.column if mark is not None else 0)
    found = _ANCHOR_NAME.match(line, start + 1) if start >= 0 else None
    return found.group() if found else ""


def _position(path: Path, mark: Any) -> Position:
    return Position(path) if mark is None else Position(path, *_line_column(mark))


def _line_column(mark: Any) -> tuple[int, int]:
    """A node's place as :attr:`Document.positions` keeps it (1-based line, column)."""
    return (mark.line + 1, mark.column + 1)


class _Builder:
    """Turns composed YAML nodes into Python data, counting every node it builds."""

    def __init__(self, path: Path, positions: dict[KeyPath, Place], max_nodes: int = MAX_NODES) -> None:
        self.path = path
        self.max_nodes = max_nodes
        self.positions = positions
        self.constructor = yaml.constructor.SafeConstructor()
        self.built = 0
        self.in_progress: set[int] = set()

    def refuse_runaway_expansion(self, root: yaml.Node) -> None:
        """Measure what aliases would expand to before building anything.

        Composed YAML shares one node per anchor, so counting with a memo is quick
        even for a "billion laughs" file, and the refusal comes before any work.
        """
        measured: dict[int, tuple[int, int]] = {}
        """Each shared node's values and how many levels of mappings and lists it holds."""
        active: set[int] = set()

        def size(node: yaml.Node, depth: int) -> tuple[int, int]:
            """Values ``node`` expands to and its levels; ``depth`` levels above it."""
            known = measured.get(id(node))
            if known is not None:
                if depth + known[1] > MAX_DEPTH:  # an alias deep down to a node already measured
                    raise _too_deep(self.path, node.start_mark)
                return known
            if isinstance(node, yaml.ScalarNode):
                return 1, 0
            if depth >= MAX_DEPTH:  # this mapping or list is the one level too many
                raise _too_deep(self.path, node.start_mark)
            if id(node) in active:
                raise InputError("recursive alias", _position(self.path, node.start_mark))
            active.add(id(node))
            children = node.value if isinstance(node, yaml.SequenceNode) else \
                [part for pair in node.value for part in pair]
            total, levels = 1, 1
            for child in children:
                values, below = size(child, depth + 1)
                total, levels = total + values, max(levels, below + 1)
                if total > self.max_nodes:
                    raise InputError(f"document expands to more than {self.max_nodes:,} values "
                                     "(alias bomb?)", _position(self.path, node.start_mark))
            active.discard(id(node))
            measured[id(node)] = (total, levels)
            return total, levels

        size(root, 0)

    def build(self, node: yaml.Node, keypath: KeyPath) -> Any:
        self.built += 1
        if self.built > self.max_nodes:
            raise InputError(
                f"document expands to more than {self.max_nodes:,} values (alias bomb?)",
                _position(self.path, node.start_mark),
            )
        self.positions.setdefault(keypath, _line_column(node.start_mark))
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if id(node) in self.in_progress:
            raise InputError("recursive alias", _position(self.path, node.start_mark))
        self.in_progress.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, keypath + (index,)) for index, item in enumerate(node.value)]
            assert isinstance(node, yaml.MappingNode)  # the one kind of node left
            return self._mapping(node, keypath)
        finally:
            self.in_progress.discard(id(node))

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == STR_TAG:  # most values: the text as written, which the constructor would return
            return node.value
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.YAMLError as error:
            raise InputError(f"invalid value: {getattr(error, 'problem', error)}",
                             _position(self.path, node.start_mark)) from None
        except ValueError as error:  # what the resolver lets through: 2024-13-45, a 5,000-digit number
            raise InputError(f"invalid value: {str(error).split(';')[0]}",
                             _position(self.path, node.start_mark)) from None

    def _mapping(self, node: yaml.MappingNode, keypath: KeyPath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        merged: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE_TAG:
                merged.update(self._merge_sources(value_node, keypath))
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise InputError("mapping keys must be plain values",
                                 _position(self.path, key_node.start_mark))
            key = self._scalar(key_node)
            if key in result:
                raise InputError(f"duplicate key '{key}'",
                                 _position(self.path, key_node.start_mark), field=str(key))
            self.positions[keypath + (key,)] = _line_column(key_node.start_mark)
            result[key] = self.build(value_node, keypath + (key,))
        for key, value in merged.items():
            result.setdefault(key, value)
        return result

    def _merge_sources(self, node: yaml.Node, keypath: KeyPath) -> dict[Any, Any]:
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        merged: dict[Any, Any] = {}
        for source in reversed(sources):  # earlier sources win, as YAML specifies
            value = self.build(source, keypath)
            if not isinstance(value, dict):
                raise InputError("'<<' merges only mappings", _position(self.path, source.start_mark))
            merged.update(value)
        return merged
