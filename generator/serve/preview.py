"""One deck as the preview shows it, remade after every save, and after every commit,
checkout or reset (which move the version its faces print).

:class:`DeckPreview` holds the latest :class:`Snapshot` of a deck: its faces,
where they print, its statistics and every problem found in it. A save that
breaks the deck (it no longer loads, or its layout no longer compiles) keeps
the last good faces in the snapshot, marked stale, beside the new problems;
the next good save replaces them. Snapshots are never changed once made, so
the web server can read the current one from any thread. Given a
:class:`~generator.iterations.following.Baseline` (``serve --since REV``),
each good state also carries the marks of the faces that changed since REV;
the comparison's modules are loaded only then.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.booklet import booklet_paths, rules_path
from generator.deck.model import Card, Deck, deck_id
from generator.errors import DeckpressError, Position
from generator.findings import WARNING, Finding
from generator.render import Renderer, load_renderer
from generator.revisions import head_files
from generator.serve.addresses import address
from generator.serve.dependencies import Dependencies, deck_dependencies
from generator.serve.faces import FaceView, distinct_faces
from generator.serve.printing import PrintPlan, plan_print, sheet_dict, spots_dict
from generator.sheets.geometry import SheetSettings, SheetSettingsError
from generator.sheets.press import output_paths
from generator.sheets.style import load_style
from generator.stats.analysis import analyse
from generator.stats.tables import as_dict as stats_dict
from generator.verdict import verdict
from generator.verdict.complete import CHECKS
from generator.watching import Snapshot as FileTimes
from generator.watching import look, times_of

if TYPE_CHECKING:  # only serve --since compares: the comparison loads with it (see DeckPreview._since)
    from generator.iterations.following import Baseline
    from generator.serve.since import SinceView

MAX_LISTED_CARDS = 200
"""Cards named under one face (a back many cards share); the page lists a face's first
cards and counts the rest, so one shared back of a huge deck does not swell every update."""

CONTENT_SUFFIXES = {".csv", ".tsv", ".xlsx", ".xlsm", ".md"}
"""Files that hold card values or rules text, never drawing instructions. Face keys
already tell when card values change; a change to these alone leaves every other
face's image as it was."""


@dataclass(repr=False, eq=False)
class Drawable:
    """A good state of the deck: loaded, laid out, ready to draw."""

    deck: Deck
    """The deck as its faces print it, with the version they carry (see ``read``)."""
    read: Deck
    """The deck as its files give it, before the version git gives its files was stamped on:
    what ``deckpress booklet`` makes the booklets from, whose pictures of cards carry only the
    deck's own ``version:``."""
    renderer: Renderer
    """Draws the faces shown: a draft one, so text that does not fit is shown as
    ``build --draft`` prints it (at its smallest, cut off, marked in red)."""
    checked: Renderer
    """The renderer ``check`` lays the deck out with, which found the problems listed;
    the print PDF offered for download is made with it."""
    look: str
    """Fingerprint of everything besides card values that decides how faces look."""
    faces: list[FaceView]
    distinct: int
    print_plan: PrintPlan | None
    print_key: tuple
    """All the print plan depends on (card size, bleed, each card's id and count), so a
    save that changes none of it keeps the plan instead of walking every copy again."""
    stats: dict[str, Any] | None
    since: SinceView | None = None
    """With ``serve --since REV``: the faces that changed since REV, and why."""

    def token(self, face: FaceView) -> str:
        """The face's name in image addresses: changes when, and only when, its drawing does."""
        return f"{face.key}-{self.look}"


@dataclass(repr=False, eq=False)
class Snapshot:
    """What the page shows for one deck at one moment."""

    version: int
    path: Path
    drawable: Drawable | None
    stale: bool
    """True when the deck's files are broken and ``drawable`` is the last good state."""
    problems: tuple[Finding, ...]
    """Everything ``check`` finds in the deck's files as they are now."""
    faces_by_token: dict[str, FaceView] = field(default_factory=dict)
    payload: str = "{}"
    """The snapshot as the page receives it (JSON), made once."""

    @property
    def has_errors(self) -> bool:
        return any(problem.is_error for problem in self.problems)


class DeckPreview:
    """A deck file and its latest snapshot; :meth:`refresh` after its files change."""

    def __init__(self, path: Path, roots: Callable[[Path], list[Path]], lang: str | None = None,
                 baseline: Baseline | None = None):
        self.path = path
        self.lang = lang
        self.baseline = baseline
        """The deck at a revision, to mark what changed since (``serve --since``)."""
        self._plans_from: Drawable | None = None  # the state whose plans this load took over
        self._read: Deck | None = None  # the deck as this load read it, before its version was stamped
        self.id = deck_id(path)
        self._roots_of = roots
        self._dependencies: Dependencies | None = None  # None: every watched file concerns the deck
        self.snapshot = Snapshot(0, path, None, False, ())
        self._head_files = head_files(path.parent)  # found again at each reload: a checkout may name another branch
        self.cut_short_in: Path | None = None
        """Where the last look at the deck's files stopped at MAX_WATCHED_ENTRIES, if it did."""

    def refresh(self) -> Snapshot:
        """Reload the deck and its problems; keep the last good faces if it no longer draws."""
        # Exactly what `check` runs, so the page lists what `check` prints.
        self._plans_from = self._read = None
        self._head_files = head_files(self.path.parent)
        found = verdict(self.path, checks=CHECKS, lang=self.lang, load_renderer=self._renderer_reusing_plans)
        deck, problems = found.deck, found.findings
        self._update_dependencies(deck, found.renderer)
        read = self._read
        drawable = self._drawable(deck, read, found.renderer) if deck and read and found.renderer else None
        previous = self.snapshot.drawable
        stale = drawable is None and previous is not None
        shown = drawable or previous
        faces_by_token = {shown.token(face): face for face in shown.faces} if shown else {}
        snapshot = Snapshot(self.snapshot.version + 1, self.path, shown, stale, tuple(problems),
                            faces_by_token)
        payload = json.dumps(snapshot_dict(self.id, snapshot), ensure_ascii=False, default=str)
        self.snapshot = replace(snapshot, payload=payload)
        return self.snapshot

    def _renderer_reusing_plans(self, deck: Deck) -> Renderer:
        """The deck's renderer as ``check`` loads it, given the last good state's plans when
        nothing but card values can have changed since (same look): unchanged faces are not
        laid out again. Equal faces get equal plans, so the findings are check's own."""
        self._read = deck
        renderer = load_renderer(deck, stamp_version=True)
        previous = self.snapshot.drawable
        if previous is not None and previous.look == look_fingerprint(deck, self._deck_files()):
            renderer.reuse_plans(previous.checked)
            self._plans_from = previous
        return renderer

    def watched_files(self) -> FileTimes:
        """Time and size of each watched file the deck's preview is made from, and of the files
        of git's that move when a commit, a checkout or a reset does (:func:`head_files`): the
        version the faces print is what git says of the deck's files, so it can change while
        none of them does. A change to another file (a layout only other decks read) leaves
        this deck as it is. Looking costs a few file times, never a git command; which files of
        git's they are is found at each reload (a change to HEAD brings one)."""
        return {**self._deck_files(), **times_of(self._head_files)}

    @property
    def roots(self) -> list[Path]:
        """The folders watched for this deck, found again at each look, as ``watch`` finds them:
        a layouts or fonts folder made while the preview runs is followed from then on."""
        return self._roots_of(self.path)

    def _deck_files(self) -> FileTimes:
        """Time and size of each watched file the deck's preview is made from."""
        found = look(self.roots)
        self.cut_short_in, files = found.cut_short_in, found.files
        if self._dependencies is None:
            return files
        return {path: times for path, times in files.items() if self._dependencies.concern(path)}

    def _update_dependencies(self, deck: Deck | None, renderer: Renderer | None) -> None:
        """The watched files that concern the deck: the layouts it reads (``renderer``'s, when
        they loaded); every watched file while the deck does not load."""
        self._dependencies = None if deck is None else deck_dependencies(deck, renderer)

    def _drawable(self, deck: Deck, read: Deck, checked: Renderer) -> Drawable:
        look = look_fingerprint(deck, self._deck_files())
        drawing = drafting(checked)
        previous = self.snapshot.drawable
        if previous is not None and previous.look == look:
            drawing.reuse_plans(previous.renderer)  # faces drafted last time
        faces, distinct = distinct_faces(deck, drawing)
        print_key = (checked.card_size, checked.bleed, tuple((card.id, card.count) for card in deck.cards))
        print_plan = (previous.print_plan if previous is not None and previous.print_key == print_key
                      else _print_plan(deck, checked))
        return Drawable(deck, read, drawing, checked, look, faces, distinct, print_plan, print_key, _stats(deck),
                        self._since(deck, checked, faces))

    def _since(self, deck: Deck, checked: Renderer, faces: list[FaceView]) -> SinceView | None:
        """The faces that changed since the baseline's revision; the last comparison's drawings
        are taken over when ``checked`` took over the plans of its state."""
        if self.baseline is None:
            return None
        from generator.serve.since import SinceView, since_view  # noqa: PLC0415  (the comparison loads only for --since)

        earlier = self._plans_from.since if self._plans_from is not None else None
        followed = earlier.followed if earlier is not None else None
        try:
            if followed is None and self._plans_from is not None:
                # Plans taken over without their drawings (the last comparison failed): they name
                # the icons of layouts loaded before, so this comparison lays the deck out afresh.
                checked = load_renderer(deck)
            return since_view(self.baseline.revision, self.baseline.follow(deck, checked, followed), faces)
        except DeckpressError as error:
            return SinceView(self.baseline.revision, None, problem=str(error))


def drafting(checked: Renderer) -> Renderer:
    """A draft renderer over the same layouts and fonts as ``checked``, with its plans:
    only faces whose text does not fit are laid out again, drafted. Nothing it lays out
    goes back to ``checked``, whose findings stay check's."""
    drawing = checked.sibling(draft=True)
    drawing.reuse_plans(checked)
    return drawing


def look_fingerprint(deck: Deck, watched: FileTimes) -> str:
    """A short hash of the deck's settings and of the times and sizes of the files that
    decide how faces look (layouts, fonts, images; of ``watched``, the files the deck is
    made from), so editing one re-draws every face."""
    deck_file = deck.path.resolve()
    files = sorted((str(path), times) for path, times in watched.items()
                   if path.resolve() != deck_file and path.suffix.lower() not in CONTENT_SUFFIXES)
    text = json.dumps([deck.info, deck.layout, files], sort_keys=True, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def _print_plan(deck: Deck, renderer: Renderer) -> PrintPlan | None:
    if deck.total == 0:
        return None
    try:
        return plan_print(deck, renderer, SheetSettings.default(load_style()))
    except SheetSettingsError:
        return None  # a card larger than the default paper: build says so when asked


def _stats(deck: Deck) -> dict[str, Any] | None:
    try:
        return stats_dict(analyse(deck))
    except (DeckpressError, ZeroDivisionError, ValueError):
        return None  # the stats section is broken; the verdict lists it


# --- what the page receives -----------------------------------------------------------------

def snapshot_dict(deck_id: str, snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot as JSON-ready data for the page."""
    drawable = snapshot.drawable
    result: dict[str, Any] = {
        "id": deck_id,
        "path": shown_path(snapshot.path),
        "version": snapshot.version,
        "stale": snapshot.stale,
        "problems": [problem_dict(problem, snapshot) for problem in snapshot.problems],
        "errors": sum(problem.is_error for problem in snapshot.problems),
        "warnings": sum(problem.severity == WARNING and not problem.accepted for problem in snapshot.problems),
    }
    if drawable is None:
        return dict(result, name=deck_id, faces=[], cards={}, fields=[], distinct=0, card=None,
                    sheet=None, stats=None, downloads={}, since=None)
    deck, renderer = drawable.deck, drawable.renderer
    deck_file = (deck.path, shown_path(deck.path))  # most cards are written there: name it once
    width, height = renderer.card_size
    plan = drawable.print_plan
    return dict(
        result,
        name=deck.name,
        cards_total=deck.total,
        distinct=drawable.distinct,
        fields=list(deck.fields) or sorted({name for face in drawable.faces for name in face.fields}),
        card={"width": round(width, 2), "height": round(height, 2), "bleed": round(renderer.bleed, 2),
              "safe": {side: round(layout.safe, 2) for side, layout in renderer.layouts.items()}},
        faces=[face_dict(deck_id, drawable, face) for face in drawable.faces],
        cards={card.id: card_dict(card, plan, deck_file) for face in drawable.faces
               for card in face.cards[:MAX_LISTED_CARDS]},
        sheet=sheet_dict(plan) if plan else None,
        stats=drawable.stats,
        downloads=download_links(deck_id, snapshot),
        since=drawable.since.as_dict(shown_path) if drawable.since is not None else None,
    )


def face_dict(deck_id: str, drawable: Drawable, face: FaceView) -> dict[str, Any]:
    mark = drawable.since.marks.get(face.key) if drawable.since is not None else None
    return {
        "key": face.key,
        "side": face.side,
        "title": face.title,
        "image": None if face.problem else address("faces", deck_id, f"{drawable.token(face)}.png"),
        "copies": face.copies,
        "cards": [card.id for card in face.cards[:MAX_LISTED_CARDS]],
        "card_count": len(face.cards),
        "fields": {name: _plain(value) for name, value in face.fields.items()},
        "shared": face.side == "back" and face.card.back is None,
        "problem": face.problem,
        "since": mark.as_dict(shown_path) if mark is not None else None,
    }


def card_dict(card: Card, plan: PrintPlan | None, deck_file: tuple[Path, str]) -> dict[str, Any]:
    where = deck_file[1] if card.position.path == deck_file[0] else shown_path(card.position.path)
    return {"count": card.count, "where": f"{where}:{card.position.line}",
            "print": spots_dict(plan, card.id, card.count) if plan else None}


def problem_dict(problem: Finding, snapshot: Snapshot) -> dict[str, Any]:
    """A finding as the page lists it, with the card it concerns when one can be told."""
    position = problem.position
    where = str(Position(Path(shown_path(position.path)), position.line, position.column)) if position else ""
    card = problem.card or next(iter(problem.details.get("cards") or []), None)
    if card is None and position is not None and snapshot.drawable is not None:
        card = card_written_at(snapshot.drawable.deck, position)
    return {"kind": problem.kind, "severity": problem.severity, "where": where, "message": problem.message,
            "card": card, "side": problem.side, "accepted": problem.accepted}


def card_written_at(deck: Deck, position: Position) -> str | None:
    """The card whose entry in the deck file holds ``position``, if one does.

    A card's entry runs from its first line to the next card's; the last card
    claims only its own first line, since what follows it may be another section.
    """
    if Path(position.path).resolve() != deck.path.resolve() or not position.line:
        return None
    starts = sorted((card.position.line, card.id) for card in deck.cards
                    if card.position.path == deck.path and card.position.line)
    if not starts:
        return None
    ends = [line for line, _ in starts[1:]] + [starts[-1][0] + 1]
    for (start, card_id), end in zip(starts, ends, strict=True):
        if start <= position.line < end:
            return card_id
    return None


def download_links(deck_id: str, snapshot: Snapshot) -> dict[str, str | None]:
    """Addresses of the print PDF and booklets; None while the deck cannot be built."""
    drawable = snapshot.drawable
    if drawable is None or snapshot.stale or snapshot.has_errors:
        return {kind: None for kind in DOWNLOADS}
    has_rules = rules_path(drawable.deck).is_file()
    return {kind: address("download", deck_id, download_name(drawable.deck, kind)) if kind == "print" or has_rules
            else None for kind in DOWNLOADS}


DOWNLOADS = ("print", "rules", "booklet")


def download_name(deck: Deck, kind: str) -> str:
    """The file name a download is saved under, as ``build`` and ``booklet`` name it."""
    if kind == "print":
        return output_paths(deck, Path())[0].name
    reading, imposed = booklet_paths(deck, Path())
    return {"rules": reading.name, "booklet": imposed.name}[kind]


def shown_path(path: Path) -> str:
    """A file as the designer named it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd().resolve()) \
            else str(path)
    except (OSError, ValueError):
        return str(path)


def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)
