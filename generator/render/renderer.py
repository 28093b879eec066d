"""The renderer: one deck's layouts, fonts and icons, ready to draw any face of any card.

This is the surface the sheet writer uses::

    renderer = load_renderer(deck)
    renderer.validate()                         # every distinct face, without drawing
    key = renderer.face_key(card, "front")      # same key, same drawing: draw it once
    renderer.draw(canvas, card, "front", bleed=True)

Faces are planned once and remembered by their key, so drawing a face after
validating it (or drawing it twice) costs no fitting work.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from reportlab.lib.colors import Color

from generator.boxes import Box
from generator.deck.model import Card, Deck
from generator.errors import (
    DeckpressError,
    InputError,
    LayoutError,
    LayoutErrors,
    Position,
    each_error,
    in_file_order,
    together,
)
from generator.loading import load_yaml
from generator.reading import Problems
from generator.render.deckfiles import with_version
from generator.render.fonts import FontRegistry, find_fonts_dir, load_font_registry, system_fonts_wanted
from generator.render.icons import Icon, load_icons
from generator.render.images import ArtConversion, PreparedImages
from generator.render.layout import (
    BUILTIN_LAYOUTS_DIR,
    Element,
    Layout,
    LayoutContext,
    RawLayout,
    Value,
    compile_layout,
    find_layout,
    read_raw_layout,
)
from generator.render.markup import readable
from generator.render.paint import load_colour_table
from generator.render.plan import Op, PlanProblem, PlanProblems, PlanResources, plan_face
from generator.render.templating import SPECIAL_NAMES, TemplateError, TemplateMemo, make_layout_environment
from generator.revisions import started
from generator.sandbox import BoundedSandbox, TemplateLimitError

PlannedFace = tuple[Card, str, tuple[Op, ...]]
"""A distinct face: one card that shows it, the side, and its plan."""
FaceObserver = Callable[[Card, str, tuple[Op, ...]], None]
"""Handed each distinct face a pass lays out: one card that shows it, the side, and its plan."""

if TYPE_CHECKING:  # drawing needs reportlab's canvas; checking faces does not load it
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.replay import Replay

SIDES = ("front", "back")
DATA_DIR = Path(__file__).parent / "data"
GENERIC_LAYOUT = "generic"
CARD_SIZES_FILE = DATA_DIR / "card_sizes.yaml"
KEY_JSON = json.JSONEncoder(sort_keys=True, default=str, ensure_ascii=False)
"""How a face's values are written down to be hashed into its key: what ``json.dumps`` with
these options writes, by an encoder made once (``json.dumps`` with options makes one a call).
Keys name forms in the PDF, so this must not change."""


@dataclass(repr=False, eq=False)
class Renderer:
    """Draws the faces of one deck's cards (see the module docstring)."""

    deck: Deck
    layouts: dict[str, Layout]  # side -> layout
    font_registry: FontRegistry
    draft: bool = False
    """Text that does not fit is drawn at its minimum size, clipped and marked in red, instead
    of stopping the face; :meth:`problems` still reports it, :meth:`validate` lets it pass."""
    forget_drawn: bool = False
    """Let each face's plan go once the face is drawn: for a command that draws each distinct
    face once (a build's sheets), so the plans do not stay with the sheets being drawn; a face
    drawn again is planned again. Set by whoever makes the renderer (:func:`load_renderer`)."""
    _plans: dict[str, tuple[Op, ...]] = field(default_factory=dict, repr=False)
    _drawn: set[str] = field(default_factory=set, repr=False)
    """Keys of the faces drawn and let go (with :attr:`forget_drawn`)."""
    _overflows: dict[str, list[FaceProblem]] = field(default_factory=dict, repr=False)
    _images: PreparedImages = field(default_factory=PreparedImages, repr=False)
    _resources: PlanResources = field(init=False, repr=False)
    _faces: dict[tuple[int, str], tuple[Card, dict[str, Any]]] = field(default_factory=dict, repr=False)
    _read_names: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    _titled_by_key: dict[str, bool] = field(default_factory=dict, repr=False)
    """Per side, whether the face key holds every value the title reads."""
    _titles: dict[str, str] = field(default_factory=dict, repr=False)
    """Titles by face key, for the sides whose key holds what the title reads."""
    _replays: WeakKeyDictionary[Canvas, dict[tuple[Box, float], Replay]] = field(
        default_factory=WeakKeyDictionary, repr=False)
    """Per canvas drawn on, then per trim box and bleed: what drawing each operation wrote
    there (see render/replay.py)."""

    def __post_init__(self) -> None:
        self._resources = PlanResources(self.font_registry, self.deck.folder, draft=self.draft)
        self._read_names = {side: tuple(sorted(layout.names)) for side, layout in self.layouts.items()}
        # The title reads the layout's title template, else the title field ("title" in a context).
        self._titled_by_key = {side: layout.title is not None or "title" in layout.names
                               for side, layout in self.layouts.items()}

    # the interface the sheet writer relies on ---------------------------------------------

    @property
    def card_size(self) -> tuple[float, float]:
        """(width, height) of the trim box in points."""
        front = self.layouts["front"]
        return (front.width, front.height)

    @property
    def bleed(self) -> float:
        """How far (points) background art runs past the trim box when bleed is asked for."""
        return max(layout.bleed for layout in self.layouts.values())

    @property
    def icons(self) -> dict[str, Icon]:
        """Every icon the deck's layouts know by name, built-in ones included (the front's, where
        the front and the back layout have icons of the same name): what ``:name:`` draws."""
        return {**self.layouts["back"].icons, **self.layouts["front"].icons}

    @property
    def fonts(self) -> list[str]:
        """reportlab's names of every font the layouts use (each embedded as TrueType in the
        PDF), in the order of the layouts' names for them. Not in the order of reportlab's
        names: those depend on what else the process registered before (see
        :meth:`FontRegistry.font`), and the first font that can print a footer prints it."""
        names = sorted({name for layout in self.layouts.values() for name in layout.fonts})
        return list(dict.fromkeys(self.font_registry.font(name).fontName for name in names))

    @property
    def font_files(self) -> dict[str, dict[str, str]]:
        """Each font family the layouts use, its faces mapped to where their files came from
        (see :meth:`FontRegistry.family_files`), for the manifest."""
        return self.font_registry.family_files(name for layout in self.layouts.values() for name in layout.fonts)

    def face_key(self, card: Card, side: str) -> str:
        """Equal keys mean identical drawings: the layout plus every value it reads."""
        facts = self._facts(card, side)
        known: str | None = facts.get("key")
        if known is not None:  # asked for several times a face: made once
            return known
        context = self.context(card, side)
        read = {name: context.get(name) for name in self._read_names[side]}
        digest = hashlib.sha1(KEY_JSON.encode(read).encode("utf-8")).hexdigest()
        # letters, digits, '-' and '_': safe as a PDF name
        key = facts["key"] = f"{self.layouts[side].name}_{digest[:20]}"
        return key

    def title(self, card: Card, side: str) -> str:
        """The title printed on that face ('' if it has none), as a reader sees it: a title
        written with markup ("Gold **Rush**") reads "Gold Rush" in manifests and lists."""
        facts = self._facts(card, side)
        if "title" not in facts:
            # Faces with one key show one title when the key holds what the title reads: a shared
            # back's title is then made once, not once a card.
            key = self.face_key(card, side) if self._titled_by_key[side] else None
            title = self._titles.get(key) if key is not None else None
            if title is None:
                title = self._make_title(card, side)
                if key is not None:
                    self._titles[key] = title
            facts["title"] = title
            self._settle(facts)
        return str(facts["title"])

    def _make_title(self, card: Card, side: str) -> str:
        layout, context = self.layouts[side], self.context(card, side)
        if layout.title is None:
            title = str(context["title"] or "")
        else:
            written = layout.title_position or Position(layout.path)
            where = f"title of layout '{layout.name}' at {written}"
            try:
                title = str(layout.title.render(context)).strip()
            except TemplateLimitError as error:  # more work than a title may take: the layout is at fault
                raise _as_input(self._error(card, side, f"its title cannot be made: {error}", layout,
                                            None, written, where=where)) from None
            except (TemplateError, TypeError, ValueError) as error:
                raise self._error(card, side, f"its title cannot be made: {error}", layout,
                                  None, where=where) from None
        return readable(title, self._resources.parse)  # parsed once per string

    def draw(self, canvas: Canvas, card: Card, side: str, bleed: bool = False) -> None:
        """Draw the face with its trim box at (0, 0)-(width, height) of the current coordinates."""
        # Drawing loads reportlab's canvas, which checking and measuring faces (deckpress check) does without.
        from generator.render.draw import draw_plan  # noqa: PLC0415  (loads reportlab's canvas)
        from generator.render.replay import Replay  # noqa: PLC0415  (loads reportlab's canvas)

        layout = self.layouts[_check_side(side)]
        key = self.face_key(card, side)
        ops = self._plan(card, side, key)
        if self.forget_drawn:
            self._plans.pop(key, None)
            self._drawn.add(key)
            self._settle(self._facts(card, side))
        trim, bleed_width = layout.trim, layout.bleed if bleed else 0.0
        replay = self._replays.setdefault(canvas, {}).setdefault((trim, bleed_width), Replay())
        try:
            draw_plan(canvas, ops, trim, bleed_width, self._images, replay)
        except (ValueError, TypeError, ArithmeticError) as error:
            # Planning checks what it can; whatever reportlab still refuses is named here, at the
            # face and layout, rather than surfacing as a traceback from inside a sheet.
            detail = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
            raise self._error(card, side, f"cannot be drawn: {detail}", layout, None,
                              Position(layout.path)) from None

    def convert_art(self, convert: ArtConversion) -> None:
        """Embed raster art through ``convert`` from now on (a print shop's CMYK), resampled as
        it says and each image converted once; plans and every other colour are left as they are."""
        self._images = PreparedImages(convert=convert)

    def plan(self, card: Card, side: str) -> tuple[Op, ...]:
        """What drawing the face does, in order (shapes, text lines, icons, images), in points."""
        return self._plan(card, _check_side(side))

    def context(self, card: Card, side: str) -> dict[str, Any]:
        """The names the face's layout can read (:func:`face_context`), not to be changed: made once
        a face, so an observer of :meth:`problems` reads the values the face was planned with without
        making them again (made again once let go, see :meth:`_settle`)."""
        context = self._facts(card, side).get("context")
        return context if context is not None else face_context(self.deck, card, _check_side(side))

    def validate(self) -> None:
        """Plan every distinct face once (and make its title); if any cannot be laid out,
        raise one LayoutError naming every such face (a LayoutErrors group for several).
        A draft lets text that overflows pass: it is drawn, marked."""
        problems = [problem for problem in self.problems() if not getattr(problem, "drafted", False)]
        if len(problems) == 1:
            raise problems[0]
        if problems:
            raise LayoutErrors(problems)

    def problems(self, observe: FaceObserver | None = None, keep: bool = True) -> list[DeckpressError]:
        """Every problem of every distinct face that cannot be laid out (or titled), each face
        tried once, in deck order: every element of a face that cannot be planned (in the
        layout's order), then its title. Each error carries ``card``, ``side``, ``element`` and ``kind``
        ("fit" for text that does not fit, "input" for a broken or oversized image file
        (an InputError, exit 2), else "layout"). In a draft, text that does not fit is
        drawn all the same and its error says so with ``drafted`` set. A broken or oversized
        image file is one problem, at the first face that shows it.

        ``observe`` is handed (card, side, plan) for each distinct face that is laid out, in
        deck order. With ``keep`` False nothing made on the way is kept (plans, keys,
        titles): each plan is let go once observed, so a pass over a deck of any size holds
        one face at a time, and a face drawn later is planned again."""
        problems: list[DeckpressError] = []
        tried: set[str] = set()
        self.tried_faces = 0
        broken_files: set[tuple[Position, str]] = set()
        for card in self.deck.cards:
            for side in SIDES:
                key = self.face_key(card, side)
                if key in tried:
                    self._forget(card, side, keep)
                    continue
                tried.add(key)
                self.tried_faces += 1
                found: list[DeckpressError] = []
                try:
                    plan = self._plan(card, side, key, keep)
                    if observe is not None:
                        observe(card, side, plan)
                except (LayoutError, InputError) as error:  # every element that cannot be planned
                    found.extend(each_error(error))
                try:  # a face whose elements cannot be planned can have a title that cannot be made too
                    if keep:
                        self.title(card, side)
                    else:
                        self._make_title(card, side)
                except (LayoutError, InputError) as error:
                    found.extend(each_error(error))
                overflows = self._overflows.get(key, ())
                if found and overflows:  # a draft's texts that do not fit among them, in the layout's order
                    found = self._in_layout_order(side, [*found, *overflows])
                    overflows = ()
                for problem in found:
                    broken_file = problem.broken_file if isinstance(problem, FaceInputError) else None
                    if broken_file is None or broken_file not in broken_files:
                        problems.append(problem)
                    if broken_file is not None:
                        broken_files.add(broken_file)
                problems.extend(overflows)
                self._forget(card, side, keep)
        return problems

    def _in_layout_order(self, side: str, errors: list[DeckpressError]) -> list[DeckpressError]:
        """A face's problems in the order of the elements they are at, the title's last."""
        order = {element.name: index for index, element in enumerate(self.layouts[side].elements)}
        last = len(order)
        return sorted(errors, key=lambda error: order.get(getattr(error, "element", None) or "", last))

    tried_faces: int = 0
    """How many distinct faces the last :meth:`problems` laid out or tried to."""

    def distinct_plans(self, printed_only: bool = False) -> Iterator[PlannedFace]:
        """(card, side, plan) once for each distinct face, in deck order (of the cards with copies
        to print, when ``printed_only``), each plan kept as :meth:`plan` keeps it; faces that
        cannot be laid out are left to the layout check (:meth:`problems`), which reports them."""
        seen: set[str] = set()
        for card in self.deck.cards:
            if printed_only and card.count <= 0:
                continue
            for side in SIDES:
                try:
                    key = self.face_key(card, side)
                    if key in seen:
                        continue
                    seen.add(key)
                    plan = self._plan(card, side, key)
                except DeckpressError:
                    continue
                yield card, side, plan

    def sibling(self, deck: Deck | None = None, layouts: dict[str, Layout] | None = None,
                draft: bool | None = None) -> Renderer:
        """A renderer over the same fonts, with this one's deck, layouts and settings unless
        told others, and no plans of its own (:meth:`reuse_plans` takes them over)."""
        return Renderer(deck=self.deck if deck is None else deck, layouts=self.layouts if layouts is None else layouts,
                        font_registry=self.font_registry, draft=self.draft if draft is None else draft,
                        forget_drawn=self.forget_drawn)

    def restamped(self, version: str | None) -> Renderer:
        """A renderer over the same layouts and fonts whose faces print ``version``: the layouts
        do not depend on it (a face reads it when it is laid out), so nothing is read again."""
        return self.sibling(deck=dataclasses.replace(self.deck, version=version))

    def reuse_plans(self, earlier: Renderer) -> None:
        """Take over the plans ``earlier`` made for faces this deck still has.

        Only for a renderer loaded from the same layout, font and image files (the
        caller vouches for that): equal face keys then mean equal plans, so the live
        preview lays out again only the faces a save changed.
        """
        for card in self.deck.cards:
            for side in SIDES:
                key = self.face_key(card, side)
                if key not in self._plans and key in earlier._plans:
                    self._plans[key] = earlier._plans[key]
                    if key in earlier._overflows:
                        self._overflows[key] = earlier._overflows[key]

    # inside --------------------------------------------------------------------------------

    def _facts(self, card: Card, side: str) -> dict[str, Any]:
        """What is known of one face (its context, then its key and title), each made once;
        the context is let go once the rest is made (see :meth:`_settle`).

        Faces are told apart by the card object itself, so a card with other
        counts (a decklist's, made with ``dataclasses.replace``) is a face of its
        own; the card is kept beside its facts so its ``id`` cannot be reused.
        """
        entry = self._faces.get((id(card), side))
        if entry is None or entry[0] is not card:
            entry = (card, {"context": face_context(self.deck, card, _check_side(side))})
            self._faces[(id(card), side)] = entry
        return entry[1]

    def _settle(self, facts: dict[str, Any]) -> None:
        """Let a face's context go once its key, title and plan are made: nothing reads it
        again, and kept, the contexts would grow with the deck's distinct faces."""
        if "title" in facts and (facts.get("key") in self._plans or facts.get("key") in self._drawn):
            facts.pop("context", None)

    def _forget(self, card: Card, side: str, keep: bool) -> None:
        """Let what is known of a face go after a pass that keeps nothing (see :meth:`problems`)."""
        if not keep:
            self._faces.pop((id(card), side), None)

    def _plan(self, card: Card, side: str, key: str | None = None, keep: bool = True) -> tuple[Op, ...]:
        """The face's plan, made once per face key (``key``, when the caller has it already);
        with ``keep`` False a plan not made before is made and not remembered."""
        key = key or self.face_key(card, side)
        plan = self._plans.get(key)
        if plan is None:
            layout = self.layouts[side]
            self._resources.overflows.clear()
            try:
                plan = plan_face(layout, self.context(card, side), self._resources)
            except PlanProblems as failed:
                self._keep_overflows(card, side, layout, key)  # a draft's, reported beside these
                raise together(self._problem_error(card, side, layout, problem)
                               for problem in failed.problems) from None
            self._keep_overflows(card, side, layout, key)
            if keep:
                self._plans[key] = plan
                self._settle(self._facts(card, side))
        return plan

    def _keep_overflows(self, card: Card, side: str, layout: Layout, key: str) -> None:
        """The texts a draft prints that do not fit, as errors, kept for :meth:`problems`."""
        if self._resources.overflows:
            self._overflows[key] = [self._drafted(card, side, layout, problem)
                                    for problem in self._resources.overflows]

    def _drafted(self, card: Card, side: str, layout: Layout, problem: PlanProblem) -> FaceProblem:
        error = self._problem_error(card, side, layout, problem,
                                    note="; the draft prints it at its minimum size, cut off and marked in red")
        error.drafted = True
        return error

    def _problem_error(self, card: Card, side: str, layout: Layout, problem: PlanProblem,
                       note: str = "") -> FaceLayoutError | FaceInputError:
        """The error for a face that cannot be planned, at the line most worth showing, its
        message followed by ``note``. ``problem`` is left as it is: faces that share an
        element share its problems."""
        message = problem.message + note
        if problem.file is not None:  # a broken or oversized image file: malformed input
            error = _as_input(self._error(card, side, message, layout, problem.element, problem.file,
                                          problem.kind))
            error.broken_file = (problem.file, message)
            return error
        where = (problem.element.position if problem.in_layout
                 else self._field_position(card, side, problem.field or self._translated_field(card, side, problem)))
        return self._error(card, side, message, layout, problem.element, where, problem.kind)

    def _error(self, card: Card, side: str, message: str, layout: Layout, element: Element | None,
               position: Position | None = None, kind: str = "layout", where: str | None = None) -> FaceLayoutError:
        """``where`` names the part of the layout at fault, when it is not ``element``."""
        if where is None:
            where = f"element '{element.name}' of layout '{layout.name}'" if element else f"layout '{layout.name}'"
        if element is not None:
            where += f" at {element.position}"
        return FaceLayoutError(f"deck '{self.deck.id}', card '{card.id}', {side}: {message} ({where})",
                               position or card.position, card=card.id, side=side,
                               element=element.name if element is not None else None, kind=kind)

    def _translated_field(self, card: Card, side: str, problem: PlanProblem) -> str | None:
        """The field a translation gives that the problem's element prints (a translated title
        that does not fit is the translation's to shorten), if there is one."""
        names = [self._printed_field(card, side, name)
                 for name in sorted(getattr(getattr(problem.element, "text", None), "names", ()))]
        owner = None if side == "back" and card.back is None else card.id
        from generator.deck.translation import text_position  # noqa: PLC0415  (only translations need it)

        return next((name for name in names if text_position(self.deck, owner, side, name) is not None), None)

    def _printed_field(self, card: Card, side: str, name: str) -> str:
        """The field a layout's name prints on this face: ``title`` prints the deck's title
        field (unless the face has a field of that name); any other name is its own field."""
        if name == "title" and name not in (card.face(side, self.deck.shared_back) or {}):
            return self.deck.title_field
        return name

    def _field_position(self, card: Card, side: str, name: str | None) -> Position | None:
        """Where the deck file (or, for a translated text, its translation) sets ``name`` on this
        face of the card (None: not a field of it)."""
        if name is None:
            return None
        name = self._printed_field(card, side, name)
        owner = None if side == "back" and card.back is None else card.id
        from generator.deck.translation import text_position  # noqa: PLC0415  (only translations need it)

        translated = text_position(self.deck, owner, side, name)
        if translated is not None:
            return translated
        index = next(i for i, known in enumerate(self.deck.cards) if known is card)
        if side == "front":
            return self.deck.source.at("cards", index, name) if name in card.fields else None
        if card.back is not None:
            return self.deck.source.at("cards", index, "back", name) if name in card.back else None
        if self.deck.shared_back and name in self.deck.shared_back:
            return self.deck.source.at("back", name)
        return None


class FaceProblem(DeckpressError):
    """An error at one face, with the facts findings report (:mod:`generator.findings`): which
    card, side and element, and what kind of problem ("fit", "input" or "layout")."""

    def __init__(self, message: str, position: Position | None, *, card: str, side: str,
                 element: str | None, kind: str):
        super().__init__(message, position)
        self.card = card
        self.side = side
        self.element = element
        self.kind = kind
        self.drafted = False
        """Set when a draft prints the face all the same (its text cut off and marked)."""


class FaceLayoutError(FaceProblem, LayoutError):
    """A face that cannot be laid out or drawn as its layout asks (exit 1)."""


class FaceInputError(FaceProblem, InputError):
    """A face that cannot be drawn because of a malformed input, such as a broken image (exit 2)."""

    broken_file: tuple[Position, str] | None = None
    """The broken file and what is wrong with it, when a file is at fault: the same file is
    one problem, however many faces show it."""


def _as_input(error: FaceLayoutError) -> FaceInputError:
    """The same error as malformed input (exit 2), with its facts for findings."""
    return FaceInputError(error.message, error.position, card=error.card, side=error.side,
                          element=error.element, kind="input")


def _check_side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"side is 'front' or 'back', not {side!r}")
    return side


def face_context(deck: Deck, card: Card, side: str) -> dict[str, Any]:
    """The names a layout can use on one face: every declared field, then the specials.

    Fields the card does not set are present as None, so a layout can test them
    (``when: "roll"``) instead of failing on an undefined name; a field named like a special
    (a deck's own ``side`` or ``title``) takes its place only on the faces that set it, so a
    layout that reads the special (``when: "side == 'front'"``) is not handed None elsewhere.
    """
    face = card.face(side, deck.shared_back) or {}
    context: dict[str, Any] = {
        "card": {"id": card.id, "count": card.count},
        "side": side,
        "deck": {"id": deck.id, "name": deck.name, "designer": deck.info.get("designer"),
                 "total": deck.total, "players": list(deck.players), "version": deck.version},
        "title": deck.title(face),
        "version": deck.version,
        "fields": [(name, value) for name, value in face.items()
                   if name != deck.title_field and value not in (None, "")],
    }
    context.update({name: None for name in deck.fields if name not in SPECIAL_NAMES})
    context.update(face)
    return context


def load_renderer(deck: Deck, draft: bool = False, stamp_version: bool = False,
                  forget_drawn: bool = False) -> Renderer:
    """Load the layouts the deck names (or the generic one) with their fonts and icons;
    ``draft`` prints text that does not fit instead of refusing it (see :attr:`Renderer.draft`);
    ``forget_drawn`` lets each plan go once its face is drawn, for a command that draws each
    face once (see :attr:`Renderer.forget_drawn`).

    ``stamp_version``: the renderer's deck, whose faces it draws, gets its version as the
    files the layouts were read from give it (:func:`generator.render.deckfiles.with_version`),
    when it has none of its own: what a command that prints the deck, or checks it for
    printing, wants. Without it the deck's faces print the version the deck has."""
    problems = Problems()
    raws = read_deck_layouts(deck, layout_search_path(deck), problems)
    fonts_dir = find_fonts_dir(deck.folder)
    files = [path for raw in raws.values() for path in raw.files]
    # git is asked for the version while the fonts load and the layouts compile (not for
    # layouts that could not be read: compiling them raises, and the answer would go unread)
    asks_git = stamp_version and deck.version is None and not problems.errors
    stamped = started(partial(with_version, deck, files, fonts_dir)) if asks_git else (lambda: deck)
    registry = load_font_registry(fonts_dir, deck.folder)
    system_fonts = problems.attempt(lambda: system_fonts_wanted(deck.source), False)  # for every layout of the deck
    card_sizes, colour_table, icons = builtin_tables()
    context = LayoutContext(card_sizes=dict(card_sizes), colour_table=dict(colour_table), icons=dict(icons),
                            fonts=registry, templates=TemplateMemo(make_layout_environment()),
                            system_fonts=system_fonts)
    layouts = compile_deck_layouts(deck, raws, context, problems)
    front, back = layouts["front"], layouts["back"]
    if abs(front.width - back.width) > 0.01 or abs(front.height - back.height) > 0.01:
        raise InputError(f"front layout '{front.name}' and back layout '{back.name}' have different "
                         "card sizes; both faces of a card must match", deck.source.at("deck", "layout"),
                         field="layout")
    return Renderer(deck=stamped(), layouts=layouts, font_registry=registry, draft=draft, forget_drawn=forget_drawn)


def side_layouts(deck: Deck) -> dict[str, str]:
    """Side -> the name of the layout the deck's faces of that side are drawn with (the
    generic one where the deck names none)."""
    return {side: deck.layout.get(side, GENERIC_LAYOUT) for side in SIDES}


def read_deck_layouts(deck: Deck, search: list[Path], problems: Problems) -> dict[str, RawLayout]:
    """The layouts the deck's faces name, name -> layout as read (and translated), each read
    once; their mistakes go to ``problems``, and one that cannot be read is left out."""
    names = dict.fromkeys(side_layouts(deck).values())
    raws: dict[str, RawLayout] = {}
    for name in names:
        raw = problems.attempt(partial(_read_deck_layout, deck, name, search, problems), None)
        if raw is not None:
            raws[name] = raw
    # A translation names elements of them all.
    if deck.translation is not None and len(raws) == len(names):
        from generator.deck.translation import translate_layouts  # noqa: PLC0415  (only translated decks need it)

        problems.attempt(lambda: translate_layouts(deck, list(raws.values())), None)
    return raws


def compile_deck_layouts(deck: Deck, raws: dict[str, RawLayout], context: LayoutContext,
                         problems: Problems) -> dict[str, Layout]:
    """The deck's layouts, side -> layout, compiled from what :func:`read_deck_layouts` read.
    Every mistake in them, in the front's and the back's alike (and any already in
    ``problems``), is raised together, so one run shows them all."""
    loaded: dict[str, Layout] = {}
    for name, raw in raws.items():
        loaded[name] = compile_layout(raw, context, problems)
        _check_names(deck, loaded[name], context.templates.environment, problems)
    problems.errors = in_file_order(problems.errors)
    problems.raise_any()
    return {side: loaded[name] for side, name in side_layouts(deck).items()}


def _read_deck_layout(deck: Deck, name: str, search: list[Path], problems: Problems) -> RawLayout:
    """Layout ``name`` found and read for the deck, its mistakes in ``problems``."""
    path = find_layout(name, search, deck.source.at("deck", "layout"), confined=(deck.folder,))
    raw = read_raw_layout(path, search, problems, confined=(deck.folder,))
    problems.attempt(lambda: _apply_deck_card_size(deck, raw, name), None)
    return raw


@lru_cache(maxsize=1)
def builtin_tables() -> tuple[dict[str, tuple[Any, ...]], dict[str, Color], dict[str, Icon]]:
    """Card sizes, named colours and icons shipped with deckpress (read once per process)."""
    card_sizes = {str(name): tuple(size) for name, size in load_yaml(CARD_SIZES_FILE).data.items()}
    return card_sizes, load_colour_table(), load_icons()


def layout_search_path(deck: Deck) -> list[Path]:
    """Where layout names are looked up, in order: the deck's folder, the project's
    ``layouts/``, then the built-in layouts.

    The project is found from the deck's location (``<project>/cards/<game>/deck.yaml``),
    never from the working directory, so a deck builds the same wherever it is run from.
    """
    return layout_folders(deck.folder)


def layout_folders(deck_folder: Path) -> list[Path]:
    """:func:`layout_search_path` for the deck in ``deck_folder`` (absolute), known from where
    the deck is alone: it holds whether or not the deck file loads."""
    search = [deck_folder, deck_folder.parent.parent / "layouts", BUILTIN_LAYOUTS_DIR]
    unique: dict[Path, Path] = {}  # resolved -> as found first
    for folder in search:
        unique.setdefault(folder.resolve(), folder)
    return list(unique.values())


def _apply_deck_card_size(deck: Deck, raw: RawLayout, name: str) -> None:
    """A deck's ``card_size`` sizes the generic layout; a designed layout must agree with it."""
    wanted = deck.info.get("card_size")
    if wanted is None:
        return
    position = deck.source.at("deck", "card_size")
    if name == GENERIC_LAYOUT:
        raw.settings["size"] = Value(wanted, position, "mm")
        return
    own = raw.settings.get("size")
    if own is None or own.data != wanted:
        shown = own.data if own else "poker"
        raise InputError(f"the deck asks for card size {wanted} but layout '{name}' is drawn for {shown}",
                         position, field="card_size")


def _check_names(deck: Deck, layout: Layout, environment: BoundedSandbox, problems: Problems) -> None:
    """A layout that reads a name the deck does not have is a typo: say so before drawing
    (for the title and each element, into ``problems``)."""
    if not deck.fields:
        return  # the deck declares no fields: names can only be checked card by card
    known = set(deck.fields) | SPECIAL_NAMES | set(environment.globals)
    if layout.title is not None and layout.title.names - known:
        first = sorted(layout.title.names - known)[0]
        problems.add(InputError(f"layout '{layout.name}' title reads '{first}', which is not a field of "
                                f"deck '{deck.id}'", Position(layout.path), field=first))
    for element in layout.elements:
        unknown = sorted(element.names - known)
        if unknown:
            problems.add(InputError(f"layout '{layout.name}' element '{element.name}' reads '{unknown[0]}', "
                                    f"which is not a field of deck '{deck.id}' "
                                    f"(fields: {', '.join(sorted(deck.fields))})", element.position,
                                    field=unknown[0]))
