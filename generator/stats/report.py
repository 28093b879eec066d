"""The stats report as a PDF of bar charts, and the same pages as one PNG.

Charts are reportlab's own (``reportlab.graphics.charts``), one panel each:
composition by every field, draw odds, dice rewards against their odds and
the simulated turns to win. Panels flow down two columns; wide ones (odds,
dice, simulation) take the full width. The PNG is the PDF rasterised with
PDFium, so both always show exactly the same thing.

Both files are written atomically, and the PDF is built with reportlab's
invariant mode so the same statistics always give the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import pypdfium2
from PIL import Image
from reportlab.graphics import renderPDF
from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.errors import value_text
from generator.outputs import write_files_atomic
from generator.stats.analysis import Answer, DeckStats
from generator.stats.composition import Breakdown, Share
from generator.stats.dice import DiceReport, odds_text
from generator.stats.simulation import SimulationResult
from generator.stats.tables import interval_text, percent

PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 36
GAP = 14
COLUMN = (PAGE_WIDTH - 2 * MARGIN - GAP) / 2
FULL = PAGE_WIDTH - 2 * MARGIN
FONT = "Helvetica"
BOLD = "Helvetica-Bold"
MAX_BARS = 30  # a composition chart shows at most this many values
MAX_VALUE_LABEL = 84  # points of a composition chart's half-width column given to value names
MAX_FINDINGS = 4  # reward mismatches listed under the dice chart
PNG_SCALE = 1.25  # 72 dpi x 1.25: a 745-pixel-wide A4 page, crisp and small

INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
RULE = colors.HexColor("#cccccc")
BARS = colors.HexColor("#3b6ea5")
SECOND = colors.HexColor("#e0a030")
WIN = colors.HexColor("#4c9a5b")


def write_report(stats: DeckStats, pdf_path: Path, png_path: Path) -> None:
    """Write the report PDF and its PNG image, both together or neither."""
    pdf = render_pdf(stats)
    png = render_png(pdf)
    write_files_atomic({pdf_path: pdf, png_path: png})


def render_pdf(stats: DeckStats) -> bytes:
    """The report as PDF bytes; identical statistics give identical bytes."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1, pageCompression=1)
    canvas.setTitle(f"{stats.deck.name}: deck statistics")
    canvas.setAuthor("deckpress")
    canvas.setCreator("deckpress stats")
    _draw_pages(canvas, stats, panels(stats))
    canvas.save()
    return buffer.getvalue()


def render_png(pdf: bytes) -> bytes:
    """Every page of ``pdf`` rasterised and stacked into one PNG."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        images = [page.render(scale=PNG_SCALE).to_pil().convert("RGB") for page in document]
    finally:
        document.close()
    sheet = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)), "white")
    top = 0
    for image in images:
        sheet.paste(image, (0, top))
        top += image.height
    out = io.BytesIO()
    sheet.quantize(colors=64, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw_pages(canvas: Canvas, stats: DeckStats, items: list[Drawing]) -> None:
    """Places panels (each a chart with its title, drawn at its own size) in rows (two
    half-width panels side by side, or one full-width), in reading order, starting a new
    page when a row no longer fits."""
    page = 1
    top = _header(canvas, stats, PAGE_HEIGHT - MARGIN)
    _footer(canvas, stats, page)
    for row in _rows(items):
        height = max(panel.height for panel in row)
        if top - height < MARGIN and top < PAGE_HEIGHT - MARGIN - 60:  # a row taller than a page is drawn anyway
            canvas.showPage()
            page, top = page + 1, PAGE_HEIGHT - MARGIN
            _footer(canvas, stats, page)
        for column, panel in enumerate(row):
            renderPDF.draw(panel, canvas, MARGIN + column * (COLUMN + GAP), top - panel.height)
        top -= height + GAP


def _header(canvas: Canvas, stats: DeckStats, top: float) -> float:
    """The deck's name and what was counted, at the top of the first page; returns where panels start."""
    deck = stats.deck
    canvas.setFillColor(INK)
    canvas.setFont(BOLD, 16)
    canvas.drawString(MARGIN, top - 16, deck.name)
    canvas.setFont(FONT, 9)
    canvas.setFillColor(MUTED)
    if any(p.pool.decklist for p in stats.pools):
        pools = "decklists " + ", ".join(f"{p.pool.label} ({p.pool.total} cards)" for p in stats.pools)
    else:
        pools = f"{deck.total} cards"
    canvas.drawString(MARGIN, top - 30, _fit(f"Deck statistics for {deck.path}: {pools}", FONT, 9, FULL))
    canvas.setStrokeColor(RULE)
    canvas.line(MARGIN, top - 38, PAGE_WIDTH - MARGIN, top - 38)
    return top - 50


def _footer(canvas: Canvas, stats: DeckStats, page: int) -> None:
    canvas.setFont(FONT, 7)
    canvas.setFillColor(MUTED)
    canvas.drawRightString(PAGE_WIDTH - MARGIN, MARGIN / 2, f"deckpress stats: {stats.deck.id}, page {page}")


def _rows(items: list[Drawing]) -> list[list[Drawing]]:
    """Consecutive half-width panels pair up; a full-width panel fills a row alone."""
    rows: list[list[Drawing]] = []
    for panel in items:
        if panel.width <= COLUMN and rows and len(rows[-1]) == 1 and rows[-1][0].width <= COLUMN:
            rows[-1].append(panel)
        else:
            rows.append([panel])
    return rows


def panels(stats: DeckStats) -> list[Drawing]:
    """Every chart of the report, in reading order."""
    result: list[Drawing] = []
    for index, pool_stats in enumerate(stats.pools):
        suffix = f" ({pool_stats.pool.label})" if pool_stats.pool.decklist else ""
        if index == 0 or len(stats.pools) <= 2:
            result += [composition_panel(table, suffix) for table in pool_stats.composition if table.rows]
    if any(pool_stats.answers for pool_stats in stats.pools):
        result.append(odds_panel(stats))
    if stats.dice is not None and stats.dice.rows:
        result.append(dice_panel(stats.dice))
    if stats.simulation is not None:
        result.append(simulation_panel(stats.simulation))
    return result


def _titled(width: float, height: float, title: str, subtitle: str = "") -> Drawing:
    drawing = Drawing(width, height)
    drawing.add(String(0, height - 11, _fit(title, BOLD, 10, width), fontName=BOLD, fontSize=10, fillColor=INK))
    if subtitle:
        drawing.add(String(0, height - 23, _fit(subtitle, FONT, 7.5, width), fontName=FONT, fontSize=7.5,
                           fillColor=MUTED))
    drawing.add(Line(0, 0, width, 0, strokeColor=RULE, strokeWidth=0.5))
    return drawing


def composition_panel(table: Breakdown, suffix: str = "") -> Drawing:
    """Cards per value of one field, as horizontal bars labelled with counts and shares."""
    rows = _chart_rows(table)
    row_height = 11
    labels, room = _axis_labels([value_text(row.value) for row in reversed(rows)], 7.5, MAX_VALUE_LABEL)
    label_width = room + 6
    chart_height = row_height * len(rows)
    height = chart_height + 44
    counted = f"{table.total} cards" + (f" with {table.among}" if table.among else "")
    drawing = _titled(COLUMN, height, f"Composition by {table.field}{suffix}", counted)
    data = [[row.cards for row in reversed(rows)]]
    chart = _bars(HorizontalBarChart(), (label_width, 14, COLUMN - label_width - 48, chart_height), data,
                  labels, 7.5, "e")
    _style_value_axis(chart.valueAxis, max(row.cards for row in rows))
    chart.bars[0].fillColor = BARS
    chart.barSpacing = 0
    _label_bars(chart, _share_labeller(table.total), 7)
    chart.groupSpacing = 2.5
    drawing.add(chart)
    return drawing


def _chart_rows(table: Breakdown) -> list[Share]:
    """The table's rows, the smallest folded into one 'N more' bar when there are too many to read."""
    rows = list(table.rows)
    if len(rows) <= MAX_BARS:
        return rows
    keep = set(map(id, sorted(rows, key=lambda r: -r.cards)[:MAX_BARS - 1]))
    shown = [row for row in rows if id(row) in keep]
    rest = [row for row in rows if id(row) not in keep]
    folded = Share(value=f"({len(rest)} more values)", cards=sum(r.cards for r in rest),
                   distinct=sum(r.distinct for r in rest), share=sum((r.share for r in rest), Fraction(0)))
    return shown + [folded]


def _share_labeller(total: int) -> Callable[[float], str]:
    """Bar labels like '16  (10.5%)': the count and its share of the pool."""
    def label(value: float) -> str:
        return f"{int(value)}  ({value / total * 100:.1f}%)" if total else f"{int(value)}"
    return label


def odds_panel(stats: DeckStats) -> Drawing:
    """Each question's exact chance as a horizontal bar from 0 to 100%, one bar per pool."""
    pools = [p for p in stats.pools if p.answers]
    names = list(dict.fromkeys(_question_label(answer) for pool_stats in pools for answer in pool_stats.answers))
    series = []
    for pool_stats in pools:
        chances = {_question_label(a): float(a.chance) * 100 for a in pool_stats.answers}
        series.append([chances.get(name) for name in reversed(names)])
    row_height = 14 if len(series) == 1 else 9 * len(series) + 5
    labels, room = _axis_labels(list(reversed(names)), 7.5, FULL * 0.5 - 8)
    label_width = room + 8
    legend_height = 14 if len(series) > 1 else 0
    chart_height = row_height * len(names)
    height = chart_height + 50 + legend_height
    drawing = _titled(FULL, height, "Draw odds", "exact chance that a random draw answers yes")
    # A horizontal chart stacks a row's bars from the bottom up: reverse so the first pool is on top.
    chart = _bars(HorizontalBarChart(), (label_width, 16, FULL - label_width - 44, chart_height),
                  list(reversed(series)), labels, 7.5, "e")
    _style_value_axis(chart.valueAxis, 100, fixed=True)
    chart.valueAxis.labelTextFormat = "%d%%"
    palette = [BARS, SECOND, WIN, MUTED]
    for index in range(len(series)):
        chart.bars[len(series) - 1 - index].fillColor = palette[index % len(palette)]
    _label_bars(chart, "%.1f%%", 6.5 if len(series) > 1 else 7)
    chart.groupSpacing = 4
    chart.barSpacing = 1
    drawing.add(chart)
    if len(series) > 1:
        legend = _legend(label_width, height - 32,
                         [(palette[i % len(palette)], p.pool.label) for i, p in enumerate(pools)])
        legend.columnMaximum = 1
        legend.deltax = 150
        drawing.add(legend)
    return drawing


def _question_label(answer: Answer) -> str:
    return f"{answer.question.name} (draw {answer.question.draw})"


def dice_panel(report: DiceReport) -> Drawing:
    """Reward per roll beside the reward that would pay every roll the same per throw."""
    rewarded = report.value_field is not None and any(row.reward is not None for row in report.rows)
    findings = [m.describe(report.formula.outcomes) for m in report.mismatches][:MAX_FINDINGS] if rewarded else []
    below = 9 * len(findings) + 8 if findings else 0
    height = 165 + below
    if rewarded:
        verdict = "rewards track difficulty" if report.tracks_difficulty else "rewards do not track difficulty"
        subtitle = (f"'{report.field}' on {report.formula.text}; bars: '{report.value_field}' and the even "
                    f"reward (same payout per roll for every total); {verdict}")
    else:
        subtitle = f"chance of each '{report.field}' on {report.formula.text}"
    drawing = _titled(FULL, height, f"Dice: {report.formula.text}", subtitle)
    for line, text in enumerate(findings):
        drawing.add(String(0, below - 12 - 9 * line, _fit(text, FONT, 7.5, FULL), fontName=FONT, fontSize=7.5,
                           fillColor=INK))
    rows = list(report.rows)
    if rewarded:
        data = [[float(row.reward or 0) for row in rows], [float(row.even_reward or 0) for row in rows]]
    else:
        data = [[float(row.chance) * 100 for row in rows]]
    chart = _bars(VerticalBarChart(), (36, 34 + below, FULL - 140, height - 74 - below), data,
                  [f"{row.roll}\n{odds_text(row.chance, report.formula)}" for row in rows], 7, "n")
    chart.bars[0].fillColor = BARS
    if rewarded:
        chart.bars[1].fillColor = SECOND
    chart.categoryAxis.labels.dy = -3
    chart.categoryAxis.labels.textAnchor = "middle"
    _style_value_axis(chart.valueAxis, max(max(series) for series in data),
                      bottom=min(min(series) for series in data))
    chart.groupSpacing = 6
    drawing.add(chart)
    if rewarded:
        drawing.add(_legend(FULL - 96, height - 46, [(BARS, report.value_field), (SECOND, "even reward")]))
    return drawing


def simulation_panel(result: SimulationResult) -> Drawing:
    """Games won on each turn, with the win rate and its interval in the subtitle."""
    height = 170
    rate = result.win_rate
    subtitle = (f"policy {result.policy}, {result.games:,} games, seed {result.seed}: won "
                f"{percent(rate.estimate, 1)} (95% CI {interval_text(rate, as_percent=True)})")
    turns = result.turns_to_win
    if turns is not None:
        subtitle += f"; turns to win {turns.estimate:.1f} (95% CI {interval_text(turns)})"
    drawing = _titled(FULL, height, f"Simulation: {result.title}", subtitle)
    histogram = result.turn_histogram()
    turns_axis = list(range(min(histogram, default=0), max(histogram, default=0) + 1))
    won = [histogram.get(turn, (0, 0))[0] for turn in turns_axis]
    step = max(1, len(turns_axis) // 25)
    chart = _bars(VerticalBarChart(), (36, 26, FULL - 44, height - 66), [won],
                  [str(t) if i % step == 0 else "" for i, t in enumerate(turns_axis)], 7, "n")
    chart.bars[0].fillColor = WIN
    _style_value_axis(chart.valueAxis, max(max(won), 1))
    chart.groupSpacing = 1.5
    drawing.add(chart)
    drawing.add(String(chart.x + chart.width / 2, 4, "games won on each turn", fontName=FONT, fontSize=7,
                       fillColor=MUTED, textAnchor="middle"))
    return drawing


Chart = TypeVar("Chart", HorizontalBarChart, VerticalBarChart)


def _bars(chart: Chart, place: tuple[float, float, float, float], data: list[list[Any]], names: list[str],
          name_size: float, name_anchor: str) -> Chart:
    """``chart`` at (x, y, width, height) in its panel, drawing ``data`` in bars without outlines,
    its categories named ``names`` at ``name_size`` points, anchored at ``name_anchor``."""
    chart.x, chart.y, chart.width, chart.height = place
    chart.data = data
    chart.bars.strokeColor = None
    axis = chart.categoryAxis
    axis.categoryNames = names
    axis.labels.fontName, axis.labels.fontSize, axis.labels.boxAnchor = FONT, name_size, name_anchor
    axis.strokeColor = RULE
    axis.visibleTicks = False
    return chart


def _label_bars(chart: HorizontalBarChart, text: str | Callable[[float], str], size: float) -> None:
    """Each bar's value written just past its end."""
    chart.barLabelFormat = text
    chart.barLabels.fontName, chart.barLabels.fontSize = FONT, size
    chart.barLabels.boxAnchor, chart.barLabels.dx = "w", 3


def _legend(x: float, y: float, pairs: list[tuple[colors.Color, str | None]]) -> Legend:
    legend = Legend()
    legend.x, legend.y = x, y
    legend.fontName, legend.fontSize = FONT, 7
    legend.alignment = "right"
    legend.dx = legend.dy = 7
    legend.colorNamePairs = pairs
    return legend


def _style_value_axis(axis, top: float, fixed: bool = False, bottom: float = 0) -> None:
    """Round steps from 0 to ``top``, or from below ``bottom`` when it is negative: a bar
    below an axis that starts at 0 is drawn past the page, a negative even reward of a
    rare roll (some 10^40) past what PDF holds."""
    axis.valueMin = 0
    if fixed:
        axis.valueMax, axis.valueStep = top, top / 4
    elif bottom < 0:
        _, step = _axis_steps(max(top, 0) - bottom)
        axis.valueMin, axis.valueStep = -step * math.ceil(-bottom / step), step
        axis.valueMax = step * math.ceil(max(top, 0) / step)
    else:
        axis.valueMax, axis.valueStep = _axis_steps(top)
    axis.labels.fontName, axis.labels.fontSize = FONT, 7
    axis.strokeColor = RULE
    axis.visibleGrid = True
    axis.gridStrokeColor = colors.HexColor("#eeeeee")
    axis.gridStrokeWidth = 0.5


def _axis_steps(top: float) -> tuple[float, float]:
    """A round axis maximum at or above ``top`` and a whole-number step dividing it into 2 to 5 parts."""
    if top <= 0:
        return 4, 1
    magnitude = 1
    while magnitude * 10 <= top:
        magnitude *= 10
    for step in (magnitude / 10, magnitude / 5, magnitude / 4, magnitude / 2, magnitude, 2 * magnitude,
                 2.5 * magnitude, 5 * magnitude, 10 * magnitude):
        if step >= 1 and step == int(step) and math.ceil(top / step) <= 5:
            return step * math.ceil(top / step), step
    return 10 * magnitude, 2 * magnitude


def _axis_labels(texts: list[str], size: float, most: float) -> tuple[list[str], float]:
    """Category names as printed, and the width (points) they take beside the bars: at most
    ``most``, each label shortened only if it is wider. The room is measured on the labels
    themselves, so a label is never cut for being exactly as wide as the room made for it."""
    room = min(most, max(stringWidth(text, FONT, size) for text in texts))
    return [_fit(text, FONT, size, room) for text in texts], room


def _fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` shortened with an ellipsis until it fits ``width`` points."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "...", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "..."
