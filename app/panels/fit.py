"""Column widths that fit their contents and never cut a header's text."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QHeaderView, QStyle, QStyledItemDelegate, QTableView

__all__ = ["NOTE_SAMPLE", "columns_width", "elided_headers", "fit_columns", "fit_rows_to_font",
           "header_widths", "measured_rows", "note_width", "resized_at_once", "room_for",
           "show_if_room", "show_yielding", "text_margins", "text_width", "text_widths"]


def header_widths(view: QTableView) -> list[int]:
    """The width each column's header needs: its text and the style's
    margins, and room for the sort arrow only in the column that shows it
    (Qt's size hint keeps that room in every column of a sortable view)."""
    header = view.horizontalHeader()
    count = header.count()
    if not header.isSortIndicatorShown():
        return [header.sectionSizeHint(col) for col in range(count)]
    # (the sorted column's asked with its arrow, every column once without
    # it: each hint asks the model's headerData ~5 roles, and the navigator's
    # size hint asks these at each layout, 24 times over the launch's arrival)
    sorted_col = header.sortIndicatorSection()
    with_arrow = header.sectionSizeHint(sorted_col) if 0 <= sorted_col < count else None
    header.setSortIndicatorShown(False)
    try:
        widths = [header.sectionSizeHint(col) for col in range(count)]
    finally:
        header.setSortIndicatorShown(True)
    if with_arrow is not None:
        widths[sorted_col] = with_arrow
    return widths


@contextmanager
def resized_at_once(*views: QTableView) -> Iterator[None]:
    """The sections ``views`` resize (or hide) meanwhile laid out and
    repainted once, at the end: a ``QTableView`` told of each resized
    column queues it and starts a 0 ms timer, whose turn lays its scroll
    bars out again and repaints the view from that column on; timers come
    after posted events, so after the window's next paint: at the launch's
    arrival the grids and the navigator, fitted, were painted twice
    (docs/benchmarks.md, hopen6). Their headers' signals are held meanwhile
    (nothing else listens to them)."""
    headers = [view.horizontalHeader() for view in views]
    held = [header.blockSignals(True) for header in headers]
    try:
        yield
    finally:
        for view, header, was in zip(views, headers, held, strict=True):
            # (its scroll bars decided with the signals held: a stretched
            # section resized by their room is then not told to the view)
            view.updateGeometries()
            header.blockSignals(was)
            view.viewport().update()


def text_margins(view: QTableView) -> int:
    """The pixels a cell of ``view`` adds to its text's width: the style's
    margin each side, as an item delegate's size hint adds them, and the
    grid's line (``sizeHintForColumn`` gives the widest text plus these:
    :func:`text_widths` is held equal to it by a test)."""
    grid = 1 if view.showGrid() else 0
    return 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view)
                + 1) + grid


def text_width(font: QFont | QFontMetricsF, text: str) -> int:
    """The pixels ``text`` takes in ``font`` (or in metrics made once for
    many texts), rounded up as Qt's size hints round it: the one place a
    text's width is rounded (``QFontMetrics.horizontalAdvance`` rounds to
    the nearest pixel, so a cell sized by it, a number's "0.9499" at 10 pt,
    45 px of 45.4, read "0.…99")."""
    metrics = font if isinstance(font, QFontMetricsF) else QFontMetricsF(font)
    return math.ceil(metrics.horizontalAdvance(text))


#: A reviewer's note as notes run (words, spaces, a comma): what "``n``
#: characters of a note" are measured on (:func:`note_width`).
NOTE_SAMPLE = ("Bob says the intro section is on topic, but the page never states the "
               "claim itself.")


def note_width(view: QTableView, characters: int) -> int:
    """The width of ``view``'s cell showing a note's first ``characters``
    characters and the ellipsis after them (elided at its end): a column
    of "12 characters" was the font's average character's 12 and 8 px
    (80 px at 9 pt), and showed 9 of a note, "Bob says …" (seen under Xvfb
    at 1280x800)."""
    return text_width(view.font(), NOTE_SAMPLE[:characters] + "\u2026") + text_margins(view)


def fit_rows_to_font(view: QTableView) -> None:
    """Rows as tall as a line of the view's font and a small margin (22 px at
    the usual 9 pt; a 16 pt font or a 2x screen gets taller rows, never cut text)."""
    view.verticalHeader().setDefaultSectionSize(max(22, view.fontMetrics().height() + 6))


def fit_columns(view: QTableView, *, most: int = 320, skip: tuple[int, ...] = (),
                measured: dict[int, int] | None = None) -> None:
    """Size ``view``'s columns to their contents and header texts (the rows
    on screen are measured; see :func:`header_widths`), none wider than
    ``most`` unless its header needs it; the ``skip`` columns keep their
    resize mode (e.g. one that stretches). ``measured``: the contents'
    widths by column, worked out already (:func:`text_widths`)."""
    header = view.horizontalHeader()
    needs = header_widths(view)
    for col in range(header.count()):
        if col in skip or view.isColumnHidden(col):
            continue
        contents = view.sizeHintForColumn(col) if measured is None else measured[col]
        header.resizeSection(col, max(needs[col], min(most, contents)))


def measured_rows(view: QTableView) -> list[int]:
    """The model rows ``view.sizeHintForColumn`` measures, in its order (Qt
    6's ``QTableView``): the rows on screen from the top one (every row from
    it while the view is not shown), then one below and one above in turn,
    until the horizontal header's ``resizeContentsPrecision`` rows (0: the
    rows on screen alone; less: every row)."""
    header, count = view.verticalHeader(), view.model().rowCount(view.rootIndex())
    most = view.horizontalHeader().resizeContentsPrecision()
    top = max(0, header.visualIndexAt(0))
    bottom = header.visualIndexAt(view.viewport().height())
    if not view.isVisible() or bottom == -1:
        bottom = count - 1
    rows: list[int] = []
    for visual in range(top, bottom + 1):
        row = header.logicalIndex(visual)
        if not header.isSectionHidden(row):
            rows.append(row)
            if len(rows) == most:
                return rows
    low, high = top, bottom
    while most and len(rows) != most and (low > 0 or high < count - 1):
        if (len(rows) % 2 and low > 0) or high == count - 1:
            low -= 1
            row = header.logicalIndex(low)
        else:
            high += 1
            row = header.logicalIndex(high)
        if not header.isSectionHidden(row):
            rows.append(row)
    return rows


#: A column's cells over the rows measured: each one's display value and font
#: (None: the view's), as the model's ``data`` answers those roles.
Cells = Callable[[int], Iterable[tuple[Any, QFont | None]]]


def text_widths(view: QTableView, columns: Sequence[int],
                rows: Sequence[int] | None = None, *, cells: Cells | None = None
                ) -> dict[int, int]:
    """``view.sizeHintForColumn(c)`` for each of ``columns`` whose cells show
    text alone (no icon, check box, size-hint role or editor; a delegate that
    changes at most the display text: :class:`app.delegates.NumberDelegate`),
    worked out from the font's metrics of each ``rows`` cell's text
    (:func:`measured_rows` when None) as Qt's style sizes an item (the text's
    advance and the focus frame's margins) rather than through the delegate's
    size hint, which asks the model ~8 roles a cell: the navigator's columns
    fitted over 200 rows took ~6,400 ``data`` calls. ``cells``: each
    column's cells over ``rows`` worked out by the model itself, without a
    ``QModelIndex`` (the navigator's: :meth:`QueryListModel.shown`)."""
    view.ensurePolished()
    model, root, locale = view.model(), view.rootIndex(), view.locale()
    rows = measured_rows(view) if rows is None else rows

    def asked(col: int) -> Iterator[tuple[Any, Any]]:
        for row in rows:
            index: QModelIndex = model.index(row, col, root)
            value = index.data(Qt.ItemDataRole.DisplayRole)
            if value is not None:  # (as the delegate resolves it)
                yield value, index.data(Qt.ItemDataRole.FontRole)

    margins = text_margins(view)
    base = view.font()
    base_key = base.key()
    metrics: dict[str, QFontMetricsF] = {base_key: QFontMetricsF(base)}
    # Each text's width measured once per font: the navigator's statuses,
    # words and counts repeat (its 800 cells measured in 10.4 ms rather than
    # 14.0, warm, at 2,000 queries; the view's font's key asked once).
    widths: dict[tuple[str, str], int] = {}
    fonts: dict[int, tuple[QFont, str]] = {}
    out = {}
    for col in columns:
        delegate = view.itemDelegateForColumn(col) or view.itemDelegate()
        assert isinstance(delegate, QStyledItemDelegate)
        widest = -1  # (no text: the grid's line alone, as Qt's hint)
        # A word's text asked of the delegate once a column (a status's,
        # repeated); a number each time (0.0 and -0.0 are one key).
        words: dict[str, str] = {}
        for value, font in (asked(col) if cells is None else cells(col)):
            if value is None:
                continue
            key = base_key if font is None else _font_key(font, base, fonts, metrics)
            if type(value) is str:
                text = words.get(value)
                if text is None:
                    text = words[value] = delegate.displayText(value, locale)
            else:
                text = delegate.displayText(value, locale)
            width = widths.get((key, text))
            if width is None:
                width = widths[key, text] = text_width(metrics[key], text)
            widest = max(widest, width)
        out[col] = widest + margins if widest >= 0 else int(view.showGrid())
    return out


def _font_key(font: QFont, base: QFont, fonts: dict[int, tuple[QFont, str]],
              metrics: dict[str, QFontMetricsF]) -> str:
    """The key of a cell's ``font`` resolved against the view's, its metrics
    made once: a font object a model hands out again (the navigator's italic)
    is resolved once (``fonts`` keeps it, so its id is not taken again)."""
    seen = fonts.get(id(font))
    if seen is not None and seen[0] is font:
        return seen[1]
    resolved = QFont(font).resolve(base)
    key = resolved.key()
    if key not in metrics:
        metrics[key] = QFontMetricsF(resolved)
    fonts[id(font)] = (font, key)
    return key


def columns_width(view: QTableView) -> int:
    """The width the view needs to show every column's header text whole:
    the fitted sections (a stretching one at its header's width), the frame
    and a vertical scroll bar."""
    header = view.horizontalHeader()
    needs = header_widths(view)
    total = 0
    for col in range(header.count()):
        if view.isColumnHidden(col):
            continue
        stretch = header.sectionResizeMode(col) == QHeaderView.ResizeMode.Stretch
        total += needs[col] if stretch else header.sectionSize(col)
    scroll = view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    return total + 2 * view.frameWidth() + scroll


def show_if_room(view: QTableView, column: int, width: int, *, reserve: int = 0) -> bool:
    """Show ``column`` at ``width`` pixels when the view's other columns (and
    ``reserve`` pixels more) leave it that room, else hide it (True: shown).
    For a column whose words the view says otherwise (a status: its symbol
    and colour in the next cells, its reason on hover): in a side column at a
    large font (331 px at 16 pt on a 1280x800 screen) the view scrolled
    sideways to show it."""
    return bool(show_yielding(view, ((column, width),), reserve=reserve))


def room_for(view: QTableView, columns: Sequence[int], *, reserve: int = 0) -> int:
    """The pixels ``view``'s other columns (and ``reserve`` pixels more)
    leave ``columns``, shown or hidden."""
    header = view.horizontalHeader()
    shown = sum(header.sectionSize(c) for c in columns if not view.isColumnHidden(c))
    return view.width() - (columns_width(view) - shown) - reserve


def show_yielding(view: QTableView, columns: Sequence[tuple[int, int]], *,
                  reserve: int = 0) -> list[int]:
    """Show each of ``columns`` (column, width in pixels) that the view's
    other columns (and ``reserve`` pixels more) leave room for, the first
    giving way first (hidden) until the rest fit: the last is the one kept
    longest. The columns shown, in ``columns``' order."""
    room = room_for(view, [c for c, _ in columns], reserve=reserve)
    header = view.horizontalHeader()
    kept = list(columns)
    while kept and sum(w for _, w in kept) > room:
        kept.pop(0)
    for column, width in columns:
        fits = (column, width) in kept
        if fits and view.isColumnHidden(column):
            view.setColumnHidden(column, False)
        if fits and header.sectionSize(column) != width:
            header.resizeSection(column, width)
        if not fits and not view.isColumnHidden(column):
            view.setColumnHidden(column, True)
    return [c for c, _ in kept]


def elided_headers(view: QTableView) -> list[str]:
    """The header texts of ``view``'s shown columns that do not fit their
    section (text width plus the style's margins)."""
    header = view.horizontalHeader()
    model = view.model()
    metrics = header.fontMetrics()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    out = []
    for col in range(header.count()):
        if view.isColumnHidden(col):
            continue
        text = str(model.headerData(col, header.orientation()) or "")
        if metrics.horizontalAdvance(text) + 2 * margin > header.sectionSize(col):
            out.append(text)
    return out
