"""Booklet pages in reading order: cover, optional contents, the rules, page numbers.

The body flowables come from :mod:`generator.booklet.markdown`; this module
puts them on pages. The cover shows the game's title, player count and what is
in the box (the same counts as the components directive). A booklet longer
than ``toc_after_pages`` gets a table of contents after the cover; headings
also become the PDF's outline (bookmarks), handy when reading on screen.

Output is reproducible: reportlab's invariant mode fixes dates and IDs, so the
same rules and deck give the same bytes.
"""

from __future__ import annotations

import io
from ast import literal_eval
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from reportlab.lib.enums import TA_CENTER
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    HRFlowable,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
)
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from generator.booklet import components as comp
from generator.booklet.markdown import Heading
from generator.booklet.paragraphs import BookletCanvas, Paragraph, table_style
from generator.booklet.style import BookletStyle, Paper, booklet_fonts, derive, paragraph_text
from generator.deck.model import Deck
from generator.render.icons import Icon
from generator.words import words_for

TOC_LEVELS = 2
"""Headings down to this level (## ) appear in the contents and the outline."""


@dataclass(repr=False, eq=False)
class Body:
    """A fresh set of body flowables, plus what the cover needs from the rules file."""

    flowables: list[Flowable]
    cover_components: comp.Components | None
    cover_card: Flowable | None = None


BodyMaker = Callable[[float, float], Body]
"""Makes the body for a frame of (width, height); called once per layout pass."""


class _BookletTemplate(BaseDocTemplate):
    """Sends headings to the contents and the outline as they land on pages."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._outline_level = -1

    def afterFlowable(self, flowable: Flowable) -> None:
        if not isinstance(flowable, Heading) or not 0 < flowable.toc_level <= TOC_LEVELS:
            return
        # The PDF outline cannot skip a level (an ## before any #), so clamp it.
        level = min(flowable.toc_level - 1, self._outline_level + 1)
        self._outline_level = level
        self.canv.bookmarkPage(flowable.toc_key)
        self.canv.addOutlineEntry(flowable.toc_text, flowable.toc_key, level=level, closed=True)
        self.notify("TOCEntry", (level, flowable.toc_markup or paragraph_text(flowable.toc_text), self.page,
                                 flowable.toc_key))


def build_reading_pdf(deck: Deck, paper: Paper, style: BookletStyle, make_body: BodyMaker,
                      icons: Callable[[], Mapping[str, Icon]]) -> tuple[bytes, int]:
    """The booklet in reading order as PDF bytes, and its page count; ``icons`` are the deck's
    layout icons, for the text that has them."""
    canvas = partial(BookletCanvas, icons=icons)
    pdf, pages = _layout(deck, paper, style, make_body, canvas, with_contents=False)
    if pages > style.toc_after_pages:
        pdf, pages = _layout(deck, paper, style, make_body, canvas, with_contents=True)
    return pdf, pages


def _layout(deck: Deck, paper: Paper, style: BookletStyle, make_body: BodyMaker, canvas: Callable[..., Canvas],
            with_contents: bool) -> tuple[bytes, int]:
    buffer = io.BytesIO()
    document = _document(buffer, deck, paper, style)
    body = make_body(document.width, document.height)
    story = _cover(deck, style, body.cover_components, body.cover_card)
    story += [NextPageTemplate("body"), PageBreak()]
    if with_contents:
        story += _contents(style, words_for(deck)("contents"))
    story += body.flowables
    if with_contents:
        document.multiBuild(story, maxPasses=6, canvasmaker=canvas)
    else:
        document.build(story, canvasmaker=canvas)
    return buffer.getvalue(), document.page


def _document(buffer: io.BytesIO, deck: Deck, paper: Paper, style: BookletStyle) -> _BookletTemplate:
    width, height = paper.page
    margins = style.margins
    document = _BookletTemplate(
        buffer, pagesize=paper.page, invariant=1, pageCompression=1,
        # The canvas starts in the body font rather than reportlab's Helvetica, so the PDF names
        # no font it does not embed (print shops' preflight refuses unembedded fonts).
        initialFontName=booklet_fonts()["body"],
        leftMargin=margins.inner, rightMargin=margins.outer,
        topMargin=margins.top, bottomMargin=margins.bottom,
        title=words_for(deck)("booklet_title", name=deck.name), author=str(deck.info.get("designer", "")),
        subject=words_for(deck)("booklet_subject", name=deck.name), creator="deckpress",
    )
    frame = Frame(margins.inner, margins.bottom, *style.text_frame(paper.name), id="text",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    footer = style.text["footer"]

    def number_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(footer.fontName, footer.fontSize)
        canvas.setFillColor(footer.textColor)
        canvas.drawCentredString(width / 2, margins.bottom / 2, str(doc.page))
        canvas.restoreState()

    def frame_cover(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setStrokeColor(style.colours["accent"])
        canvas.setLineWidth(1.2)
        inset = min(margins.inner, margins.outer) / 2
        canvas.rect(inset, inset, width - 2 * inset, height - 2 * inset, stroke=1, fill=0)
        canvas.restoreState()

    document.addPageTemplates([
        PageTemplate(id="cover", frames=[frame], onPage=frame_cover, pagesize=paper.page),
        PageTemplate(id="body", frames=[frame], onPage=number_page, pagesize=paper.page),
    ])
    return document


def _cover(deck: Deck, style: BookletStyle, contents: comp.Components | None,
           card: Flowable | None) -> list[Flowable]:
    """Title, players, designer, a card and what is in the box, centred on the first page."""
    centred = {name: derive(style.text[name], alignment=TA_CENTER)
               for name in ("cover_title", "cover_line", "cover_small", "body")}
    contents = contents or comp.components(deck)
    words = words_for(deck)
    story: list[Flowable] = [
        Spacer(0, 36 if card is not None else 48),
        Paragraph(paragraph_text(deck.name), centred["cover_title"]),
        Spacer(0, 8),
        HRFlowable(width="40%", thickness=1, color=style.colours["accent"], spaceAfter=10),
        Paragraph(paragraph_text(words("game_for", players=comp.players_label(deck))), centred["cover_line"]),
    ]
    designer = deck.info.get("designer")
    if designer:
        story.append(Paragraph(paragraph_text(words("by_designer", designer=designer)), centred["cover_small"]))
    if card is not None:
        card.hAlign = "CENTER"
        story += [Spacer(0, 18), card]
    story += [Spacer(0, 18 if card is not None else 36),
              Paragraph(f"<b>{paragraph_text(words('in_the_box'))}</b>", centred["cover_line"]), Spacer(0, 4)]
    in_the_box = [contents.headline, *(group.line for group in contents.groups), *contents.extras]
    story += [Paragraph(paragraph_text(line), centred["body"]) for line in in_the_box]
    story += [Spacer(0, 24), Paragraph(paragraph_text(words("rules_booklet")), centred["cover_small"])]
    return story


class _Contents(TableOfContents):
    """reportlab's table of contents, its entries drawn as the booklet's paragraphs, so a
    heading's layout icons print there as in the heading."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803  (reportlab's names)
        entries = self._lastEntries or [(0, "Placeholder for table of contents", 0, None)]

        def entry_end(canvas: Canvas, kind: str, label: str) -> None:
            page, level, key = label.split(",")
            drawPageNumbers(canvas, self.getLevelStyle(int(level)), [(int(page), literal_eval(key))], availWidth,
                            availHeight, " . " if 0 <= self.dotsMinLevel <= int(level) else "")

        self.canv.setNamedCB("drawTOCEntryEnd", entry_end)
        rows: list[list[Flowable]] = []
        for level, text, page, key in entries:
            style = self.getLevelStyle(level)
            shown = f'<a href="#{key}">{text}</a>' if key else text
            key_value = repr(key).replace(",", "\\x2c").replace('"', "\\x2c") if key else None
            if style.spaceBefore:
                rows.append([Spacer(1, style.spaceBefore)])
            rows.append([Paragraph(f'{shown}<onDraw name="drawTOCEntryEnd" label="{page},{level},{key_value}"/>',
                                   style)])
        self._table = Table(rows, colWidths=(availWidth,), style=self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height


def _contents(style: BookletStyle, heading: str) -> list[Flowable]:
    toc = _Contents(dotsMinLevel=0, tableStyle=table_style(  # reportlab's own, in the body font
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
    ))
    toc.levelStyles = [
        derive(style.text["toc"], leftIndent=0, firstLineIndent=0),
        derive(style.text["toc_sub"], leftIndent=style.list_indent, firstLineIndent=0),
    ]
    return [Paragraph(paragraph_text(heading), style.text["h1"]),
            HRFlowable(width="100%", thickness=0.6, color=style.colours["rule"], spaceAfter=8),
            toc, PageBreak()]

