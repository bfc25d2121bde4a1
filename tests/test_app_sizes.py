"""Every size and font (issue 37, items 2-4): a 16 pt font on a 1280x800
screen keeps the grid's key columns in view (its least width grows with the
font); the judging queue opened in a 960x540 window (a 1920x1080 screen at
2x) leaves the grid its rows; at 1280x800 the navigator shows short query ids
whole and the summary's table never scrolls sideways, whatever the status. The
Comparison dock's sizes: tests/test_app_sizes_comparison.py."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle

from app.models.queries import QueryColumn
from app.panels.column_chooser import KEY_COLUMNS
from core.engine.evaluation import Status
from tests.test_app_grid_layout import _outside

#: A query id this long or longer may be elided in the navigator (whole on hover).
ELIDED_FROM = 20

pytestmark = pytest.mark.usefixtures("never_block")


def _settle(qtbot: Any, w: Any) -> None:
    qtbot.waitExposed(w)
    for _ in range(3):
        qtbot.wait(1)
        QApplication.processEvents()


def _at(qtbot: Any, w: Any, width: int, height: int) -> None:
    """``w`` as at a first start on a screen of ``width`` x ``height``."""
    w.workplace.reset(QRect(0, 0, width, height))
    _settle(qtbot, w)
    w.fit_columns()
    _settle(qtbot, w)


def test_at_16_pt_on_a_1280x800_screen_rank_to_cumulative_dcg_are_in_view(qtbot, window):
    """The grid's least width is what its key columns need in the window's
    font (933 px of columns at 16 pt; 640 px was assumed, and Cumulative DCG
    was out of view)."""
    w = window
    large = QFont(w.font())
    large.setPointSizeF(16)
    w.setFont(large)  # as a 16 pt system font does
    _settle(qtbot, w)
    _at(qtbot, w, 1280, 800)
    assert w.workplace.one_side
    assert w.grid.horizontalScrollBar().value() == 0
    assert _outside(w.grid, KEY_COLUMNS) == []
    assert w.grid.viewport().width() >= 900  # (the columns are that wide at 16 pt)
    w.session.mark_saved()


def test_at_16_pt_on_a_1280x800_screen_the_side_column_does_not_scroll(qtbot, window):
    """The side column keeps 331 px (the grid's key columns take the rest):
    the navigator and the summary's table scrolled sideways to show their
    Status column (453 and 482 px of columns). The navigator shows its
    status column only where it has the room, the NDCG column saying every
    status but ok in words or its symbol, in its colour; the summary keeps
    its status, its DCG and ideal DCG giving way first. At 9 pt both status
    columns are shown (the example's ids are short)."""
    from app.models.cutoffs import CutoffColumn

    w = window
    _at(qtbot, w, 1280, 800)
    nav, table = w.navigator.view, w.summary_panel.table
    assert not nav.isColumnHidden(QueryColumn.STATUS)
    assert not table.isColumnHidden(CutoffColumn.STATUS)
    large = QFont(w.font())
    large.setPointSizeF(16)
    w.setFont(large)
    _settle(qtbot, w)
    _at(qtbot, w, 1280, 800)
    assert w.workplace.one_side
    assert w.docks["queryNavigatorDock"].width() <= 340
    seen = set()
    for dock in ("queryNavigatorDock", "summaryPanelDock"):
        w.docks[dock].raise_()
        for q in range(w.document.n_queries):
            w.set_query(q)
            _settle(qtbot, w)
            seen.add(w.evaluation.query_status(q))
            view = nav if dock == "queryNavigatorDock" else table
            assert view.horizontalScrollBar().maximum() == 0, (dock, q)
            shown = [c for c in range(view.model().columnCount()) if not view.isColumnHidden(c)]
            right = view.columnViewportPosition(shown[-1]) + view.columnWidth(shown[-1])
            assert right <= view.viewport().width(), (dock, q)
    assert {Status.OK, Status.UNRESOLVED, Status.UNDEFINED} <= seen
    assert nav.isColumnHidden(QueryColumn.STATUS)
    # The summary's DCG and ideal DCG give way before its status (the grid says them).
    shown = [c for c in CutoffColumn if not table.isColumnHidden(c)]
    assert [table.model().headerData(c, Qt.Orientation.Horizontal) for c in shown] == [
        "k", "NDCG", "Status"]
    undefined = w.document.query_index("case-F-zero")
    row = nav.model().mapFromSource(w.navigator.model.index(undefined, QueryColumn.NDCG))
    assert row.data() == "undefined"
    w.session.mark_saved()

def test_the_queue_opened_at_960x540_leaves_the_grid_8_rows(qtbot, window):
    """The queue's progress table, shown before there was progress, made the
    dock ask for 228 px of 540 when it opened: the grid kept 7 rows (3 at the
    style's sizes on a real 2x screen); the explain dock asked for 454 px of
    width, more than the side column of a 960 px window."""
    w = window
    _at(qtbot, w, 960, 540)
    row = w.grid.verticalHeader().defaultSectionSize()
    assert w.grid.viewport().height() // row >= 8
    w.app_actions["show_queue"].trigger()
    queue = w.docks["judgingQueueDock"]
    qtbot.waitUntil(lambda: queue.isVisible())
    _settle(qtbot, w)
    assert w.grid.viewport().height() // row >= 8
    w.app_actions["explain_disagreement"].trigger()
    _settle(qtbot, w)
    assert w.docks["explainViewDock"].minimumSizeHint().width() <= 340
    w.session.mark_saved()


def test_at_1280x800_short_ids_are_whole_and_the_summary_does_not_scroll(qtbot, window):
    """On the example, no query id shorter than 20 characters is elided in
    the navigator (``case-D-scrambled`` read ``case…bled`` in a 294 px
    column), and the summary's table is whole for every query, whatever its
    status (``? unresolved``, ``– no ranking`` made it scroll sideways)."""
    w = window
    _at(qtbot, w, 1280, 800)
    assert not w.workplace.one_side
    view = w.navigator.view
    metrics = view.fontMetrics()
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin,
                                           None, view) + 1)
    room = view.columnWidth(QueryColumn.QUERY)
    ids = w.document.query_ids
    elided = [q for q in ids
              if len(q) < ELIDED_FROM and metrics.horizontalAdvance(q) + margin > room]
    assert elided == []
    assert max(len(q) for q in ids) >= 14  # (the example's ids are worth the test)
    table = w.summary_panel.table
    seen = set()
    for q in range(w.document.n_queries):
        w.set_query(q)
        _settle(qtbot, w)
        seen.add(w.evaluation.query_status(q))
        assert table.horizontalScrollBar().maximum() == 0, ids[q]
    assert {Status.OK, Status.UNRESOLVED, Status.UNDEFINED} <= seen
    w.session.mark_saved()


def test_a_number_column_widens_for_the_grade_state_it_shows(qtbot, window):
    """The gain column fitted to the first query's numbers read ``u…n`` at
    the next query's unknown grade: it widens (never narrows) for it."""
    w = window
    _at(qtbot, w, 1280, 800)
    w.set_query(w.document.query_index("case-F-unknown"))
    _settle(qtbot, w)
    model, grid = w.grid_model, w.grid
    metrics = QFontMetrics(_italic(grid.font()))
    cut = [(model.columns[c].key, model.index(r, c).data())
           for r in range(model.rowCount()) for c in range(model.columnCount())
           if model.columns[c].state_words and isinstance(model.index(r, c).data(), str)
           and not grid.isColumnHidden(c)
           and metrics.horizontalAdvance(model.index(r, c).data()) + 6 > grid.columnWidth(c)]
    assert ("gain", "unknown") not in cut
    assert cut == []
    w.session.mark_saved()


def _italic(font: QFont) -> QFont:
    italic = QFont(font)
    italic.setItalic(True)
    return italic


def test_every_review_dock_open_at_960x540_fits_the_screen(qtbot, window):
    """The runs, explain and judges docks asked for 247, 220 and 372 px of
    height (with two annotators' sheet): open together, they made a 960x540
    window (a 1920x1080 screen at 2x) 601-638 px tall. They scroll instead."""
    from tests.test_app_judges import _two_annotators

    w = window
    _at(qtbot, w, 960, 540)
    w.judges_view.view.set_document(_two_annotators())
    for name in ("compareViewDock", "runsViewDock", "explainViewDock", "judgesViewDock",
                 "judgingQueueDock", "conflictsDock", "plotsDock"):
        w.docks[name].show()
        w.docks[name].raise_()
        _settle(qtbot, w)
        assert w.minimumSizeHint().height() <= 540, name
    assert w.height() == 540
    w.session.mark_saved()


def test_at_1280x800_the_audit_log_shows_every_column_without_scrolling(qtbot, window):
    """A grade set with a note: the log's columns, Seconds the last, are in
    its view (the time stamp in full took 180 px of its 590: Origin and
    Seconds were cut at the dock's edge, the log scrolled sideways). The
    time shows as the clock says it today; the stamp is whole on hover and in
    a copy. At 16 pt Seconds ended at 966 px in 884: the note gives way,
    elided (whole on hover), down to its header's width."""
    import datetime as dt

    from app.models.audit import AuditColumn, when_text
    from app.panels.fit import elided_headers

    w = window
    _at(qtbot, w, 1280, 800)
    doc = w.document
    q = doc.query_index("case-F-unknown")
    unknown = next(int(i) for i in doc.members(q) if doc.source_id[i] == "B")
    w.set_query(q)
    assert w.set_grade(unknown, 2.0, note="read the full text")
    entry = doc.audit[-1]
    _settle(qtbot, w)
    log = w.audit_view
    assert log.audit_model.rowCount() == 1
    right = log.columnViewportPosition(AuditColumn.SECONDS) + log.columnWidth(AuditColumn.SECONDS)
    assert right <= log.viewport().width(), (right, log.viewport().width())
    assert log.horizontalScrollBar().maximum() == 0
    when = log.audit_model.index(0, AuditColumn.WHEN)
    assert len(when.data()) == len("04:07:07")
    assert when.data(Qt.ItemDataRole.ToolTipRole) == entry.when
    # An older entry: its date and minute; a time not in ISO 8601 as it is.
    day = dt.date(2026, 12, 6)
    assert when_text("2026-12-05T16:20:05", day) == "2026-12-05 16:20"
    assert when_text("2026-12-06T16:20:05", day) == "16:20:05"
    assert when_text("yesterday", day) == "yesterday"
    # At 16 pt too: the note gives way (elided, whole on hover) down to its header.
    large = QFont(w.font())
    large.setPointSizeF(16)
    w.setFont(large)
    _settle(qtbot, w)
    _at(qtbot, w, 1280, 800)
    log.fit_columns()
    right = log.columnViewportPosition(AuditColumn.SECONDS) + log.columnWidth(AuditColumn.SECONDS)
    assert right <= log.viewport().width(), (right, log.viewport().width())
    assert elided_headers(log) == []
    w.session.mark_saved()


@pytest.mark.parametrize("points", [None, 10.0])
def test_a_grade_seen_on_reopening_leaves_its_note_readable(qtbot, window, points):
    """A grade and its note edited in the spreadsheet: the log's When said
    "seen on reopening, 16:05:08" (181 px of the log's 601 at 1280x800) and
    the note was squeezed to its header's width, "ch…". The stamp gives way
    first, down to the time itself ("…16:05:08", whole on hover); at
    1920x1080 it is whole again. At 10 pt the time (71.3 px) was measured in
    whole pixels rounded to the nearest (71), and read "…16:05:…"."""
    import datetime as dt

    from app.models.audit import AuditColumn
    from app.panels.fit import header_widths, text_margins, text_width
    from core.model.audit import OUTSIDE_ORIGIN, AuditEntry

    w = window
    if points is not None:
        font = QFont(w.font())
        font.setPointSizeF(points)
        w.setFont(font)
    _at(qtbot, w, 1280, 800)
    stamp = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    w.document.audit.append(AuditEntry(
        "spreadsheet edit", stamp, "case-A", "B", "1", "2",
        note="checked the source: it states the claim", origin=OUTSIDE_ORIGIN))
    log = w.audit_view
    log.audit_model.sync()
    _settle(qtbot, w)
    log.fit_columns()
    when = log.audit_model.index(0, AuditColumn.WHEN).data()
    assert when.startswith("seen on reopening, ")
    time = when.rsplit(", ", 1)[1]
    font = log.font()
    assert log.columnWidth(AuditColumn.WHEN) >= (text_width(font, "\u2026" + time)
                                                 + text_margins(log))
    # The note's first word whole, every column still in view.
    assert log.columnWidth(AuditColumn.NOTE) >= (text_width(font, "checked\u2026")
                                                 + text_margins(log))
    assert log.columnWidth(AuditColumn.NOTE) > header_widths(log)[AuditColumn.NOTE]
    right = log.columnViewportPosition(AuditColumn.SECONDS) + log.columnWidth(AuditColumn.SECONDS)
    assert right <= log.viewport().width(), (right, log.viewport().width())
    _at(qtbot, w, 1920, 1080)
    log.fit_columns()
    assert log.columnWidth(AuditColumn.WHEN) >= log.sizeHintForColumn(AuditColumn.WHEN)
    assert log.columnWidth(AuditColumn.NOTE) >= log.sizeHintForColumn(AuditColumn.NOTE)
    w.session.mark_saved()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_the_summary_title_is_never_clipped_by_copy_sentence(qtbot, window, width, height):
    """At the usual font and at 16 pt, on 1280x800 and 1920x1080 screens,
    the summary's title (the query id in bold) shares its row with Copy
    sentence only when it fits beside it; a longer one has the row to itself,
    whole where it fits, elided in its middle (whole in its tooltip) where even
    that row is too narrow. At 16 pt on 1280x800 'case-D-plus-one' was cut to
    'case-D-plu' by the button."""
    from core.io.example import load_example
    from core.model.document import Document

    w = window
    panel = w.summary_panel
    long_id = "claim-" + "x" * 28 + "-end"  # 38 characters: shown whole (app.shown)
    for pt in (None, 16):
        if pt is not None:
            large = QFont(w.font())
            large.setPointSizeF(pt)
            w.setFont(large)
        w.set_document(load_example())
        _settle(qtbot, w)
        _at(qtbot, w, width, height)
        w.docks["summaryPanelDock"].raise_()
        for q in ("case-E", "case-D-plus-one", long_id):  # short, the one cut, the longest
            if q == long_id:
                w.set_document(Document.from_columns(query=[q, q], source_id=["a", "b"],
                                                     score=[2.0, 1.0], grade=[1, 0]))
            w.set_query(w.document.query_index(q))
            _settle(qtbot, w)
            title, button = panel.title, panel.copy_button
            assert title.text() == q
            assert title.toolTip() == q
            assert title.font().bold()
            assert title.font().pointSizeF() == w.font().pointSizeF()
            needed = title.fontMetrics().horizontalAdvance(q)
            title_box = title.geometry()
            button_box = button.geometry()
            assert not title_box.intersects(button_box), (pt, q)
            right = button.mapTo(panel, button.rect().topRight()).x()
            assert right < panel.width(), (pt, q)
            if needed <= title.contentsRect().width():
                assert title.shown_text() == q, (pt, q)
            else:  # only past the whole row: elided, both ends kept
                assert panel.title_alone(), (pt, q)
                shown = title.shown_text()
                assert "…" in shown
                assert (shown[:3], shown[-3:]) == (q[:3], q[-3:])
            if not panel.title_alone():
                assert button_box.top() == title_box.top()
    w.session.mark_saved()


def test_the_summary_table_fits_its_columns_to_its_own_width(qtbot):
    """The cutoff table sits in a scroll area, sized after the panel (and
    again when a scroll bar comes or goes): its columns follow its own width.
    A launch at 1280x800 left its Status hidden in a table with the room for
    it (the panel's width was measured against the table's stale one). Where
    the room is short, the DCG and the ideal DCG give way before the Status."""
    from app.models.cutoffs import CutoffColumn
    from app.panels.fit import columns_width
    from app.panels.summary import SummaryPanel
    from core.engine.evaluation import evaluate
    from core.model.examples import seed_document

    panel = SummaryPanel(lambda: 4)
    qtbot.addWidget(panel)
    panel.resize(420, 500)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_query(evaluate(seed_document()), 0)
    table = panel.table

    def hidden() -> list[CutoffColumn]:
        return [c for c in CutoffColumn if table.isColumnHidden(c)]

    widths = {c: table.columnWidth(c) for c in CutoffColumn}
    assert hidden() == []
    whole = columns_width(table)  # every column, the frame and a scroll bar
    # Short of half the DCG's width: it gives way first; then the ideal DCG.
    table.resize(whole - widths[CutoffColumn.DCG] // 2, table.height())
    assert hidden() == [CutoffColumn.DCG]
    table.resize(whole - widths[CutoffColumn.DCG] - widths[CutoffColumn.IDCG] // 2,
                 table.height())
    assert hidden() == [CutoffColumn.DCG, CutoffColumn.IDCG]
    table.resize(120, table.height())
    assert hidden() == [CutoffColumn.DCG, CutoffColumn.IDCG, CutoffColumn.STATUS]
    table.resize(400, table.height())
    assert hidden() == []
    assert table.horizontalScrollBar().maximum() == 0


def test_the_summary_table_of_no_query_does_not_scroll_sideways(qtbot):
    """While the window waits for a file read at launch it shows no query:
    the cutoff table, never fitted then, kept Qt's 100 px a column (500 px)
    and scrolled sideways in a 1920x1080 screen's side column. Its columns
    are fitted to their headers as for any query, and those that give way
    do where the room is short."""
    from app.models.cutoffs import CutoffColumn
    from app.panels.summary import SummaryPanel
    from core.engine.evaluation import evaluate
    from core.model.document import Document

    panel = SummaryPanel(lambda: 4)
    qtbot.addWidget(panel)
    panel.resize(400, 500)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_query(evaluate(Document.from_columns(query=[], source_id=[])), -1)
    _settle(qtbot, panel)
    table = panel.table
    assert panel.title.text() == "No query"
    assert table.horizontalScrollBar().maximum() == 0
    assert [c for c in CutoffColumn if table.isColumnHidden(c)] == []
    header = table.horizontalHeader()
    for column in CutoffColumn:  # (fitted to the header, not Qt's default)
        assert table.columnWidth(column) < header.defaultSectionSize()
    table.resize(120, table.height())
    assert table.isColumnHidden(CutoffColumn.DCG)
    assert table.horizontalScrollBar().maximum() == 0


def test_a_grade_set_unrateable_is_not_cut_in_the_grid(qtbot, window, monkeypatch):
    """X on a graded row of a query whose columns were fitted to numbers:
    its grade read ``unra…elsh`` and its gain ``unr…ble`` (at 1920x1080,
    with room to spare), since the columns widen for the query shown, not
    for a grade set. A grade set to a state the columns do not fit widens
    them (never narrows), as showing another query does."""
    from PySide6.QtWidgets import QInputDialog, QStyleOptionViewItem

    from app.models.candidates import GridColumn
    from core.engine.columns import EDITED_MARK

    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: ("page in Welsh", True)))
    w = window
    _at(qtbot, w, 1920, 1080)
    w.set_query(w.document.query_index("case-A"))
    _settle(qtbot, w)
    model, grid = w.grid_model, w.grid
    grid.setFocus()
    grid.setCurrentIndex(model.index(0, GridColumn.GRADE))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is grid)
    qtbot.keyClick(grid, Qt.Key.Key_X)
    _settle(qtbot, w)
    metrics = QFontMetrics(_italic(grid.font()))
    plain = grid.fontMetrics()
    shown = []
    for c in range(model.columnCount()):
        index = model.index(0, c)
        option = QStyleOptionViewItem()
        grid.itemDelegateForIndex(index).initStyleOption(option, index)  # what is painted
        shown.append(option.text)
    assert shown[GridColumn.GRADE] == f"{EDITED_MARK} unrateable: page in Welsh"  # (set here)
    cut = []
    for c, text in enumerate(shown):
        if grid.isColumnHidden(c) or not text:
            continue
        if max(metrics.horizontalAdvance(text), plain.horizontalAdvance(text)) + 6 \
                > grid.columnWidth(c):
            cut.append((model.columns[c].key, text))
    assert cut == []
    w.session.mark_saved()


def test_the_summary_status_header_is_whole_after_a_fit_in_a_narrow_table(qtbot):
    """The columns fitted while the table was too narrow for its Status (a
    window built before its docks are laid out) measured the hidden Status
    header as 0 px: on a run whose statuses are all ok the column was then
    as wide as "✓ ok" and its header read "tatu" once there was room."""
    from app.models.cutoffs import CutoffColumn
    from app.panels.fit import elided_headers
    from app.panels.summary import SummaryPanel
    from core.engine.evaluation import evaluate
    from core.model.examples import seed_document

    doc = seed_document()
    ok = doc.query_index("case-A")
    panel = SummaryPanel(lambda: 4)
    qtbot.addWidget(panel)
    panel.resize(420, 500)
    panel.show()
    qtbot.waitExposed(panel)
    table = panel.table
    table.resize(100, table.height())  # (the yielding columns hidden)
    panel.show_query(evaluate(doc), doc.query_index("case-F-unknown"))
    assert table.isColumnHidden(CutoffColumn.STATUS)
    only_ok = evaluate(doc.subset(doc.members(ok)))  # (every status ok)
    assert set(only_ok.status_code.ravel().tolist()) == {0}
    panel.show_query(only_ok, 0)
    table.resize(400, table.height())
    assert not table.isColumnHidden(CutoffColumn.STATUS)
    assert elided_headers(table) == []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_the_audit_log_of_convention_changes_shows_every_column_without_scrolling(
        qtbot, window, width: int, height: int):
    """h43win: a convention changed in the side panel and one edited on the
    workbook's Conventions sheet (seen on reopening): at 1280x800 the log's
    Before and After held their whole ``<convention> = <value>`` (260 px
    each), the Note read "ed…", Origin "outs…", When "…19:06:53", and the
    log scrolled sideways. h50win: cut in their middle then, Before and
    After read "q…d" in ~45 px each (whole only on hover); now a
    convention's row wraps its texts at their words, no word cut, every
    column in view, the note's first word and the origin whole, and so does
    the entry Ctrl+Z adds; at 1920x1080 too."""
    import datetime as dt

    from PySide6.QtCore import QRect

    from app.models.audit import AuditColumn
    from app.panels.fit import elided_headers, text_margins, text_width
    from core.model.audit import OUTSIDE_ORIGIN, AuditEntry
    from core.model.conventions import TieRule, UnrankedRule

    w = window
    _at(qtbot, w, width, height)
    doc = w.document
    stamp = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    doc.audit.append(AuditEntry.of_convention(
        "spreadsheet edit", stamp, "query with no ranking = zero",
        "query with no ranking = undefined", "edited in Conventions!B12", OUTSIDE_ORIGIN))
    assert w.change_conventions(doc.conventions.replace(
        unranked=UnrankedRule.ZERO, ties=TieRule.PESSIMISTIC)) is None
    log = w.audit_view
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, w)
    model, metrics, margins = log.audit_model, log.fontMetrics(), text_margins(log)
    assert model.rowCount() == 5
    assert [model.index(r, AuditColumn.ORIGIN).data() for r in range(5)] == [
        OUTSIDE_ORIGIN, "app", "app", "undo", "undo"]
    # Undo's last entry whole in view (the log scrolled to it before its row grew)
    last = log.visualRect(model.index(4, 0))
    assert last.top() >= 0, last
    assert last.bottom() < log.viewport().height(), last
    log.fit_columns()
    assert model.index(0, AuditColumn.AFTER).data() == "query with no ranking = undefined"
    right = log.columnViewportPosition(AuditColumn.SECONDS) + log.columnWidth(AuditColumn.SECONDS)
    assert right <= log.viewport().width(), (right, log.viewport().width())
    assert log.horizontalScrollBar().maximum() == 0
    assert elided_headers(log) == []

    def whole(column: int, text: str) -> bool:
        return log.columnWidth(column) >= text_width(log.font(), text) + margins

    def readable(row: int, column: int) -> bool:
        """The cell's text wrapped at its words in its row, no word cut."""
        text = model.index(row, column).data()
        room = log.columnWidth(column) - margins
        words = all(text_width(log.font(), word) <= room
                    for word in text.split())
        lines = metrics.boundingRect(QRect(0, 0, room, 10_000), Qt.TextFlag.TextWordWrap, text)
        return words and lines.height() <= log.rowHeight(row)

    assert whole(AuditColumn.NOTE, "edited\u2026")
    assert whole(AuditColumn.WHEN, model.index(4, AuditColumn.WHEN).data())
    for row in range(5):
        for column in (AuditColumn.BEFORE, AuditColumn.AFTER, AuditColumn.WHO,
                       AuditColumn.ORIGIN):
            assert readable(row, column), (row, column, model.index(row, column).data())
    if height >= 900:  # room for every text whole but the stamp's words
        for c in set(AuditColumn) - {AuditColumn.WHEN}:
            assert log.columnWidth(c) >= log.sizeHintForColumn(c) - 1, c
        assert log.rowHeight(1) == log.verticalHeader().defaultSectionSize()
    w.session.mark_saved()


@pytest.mark.parametrize("points", [9.0, 13.0])
def test_the_summary_status_column_keeps_its_width_from_query_to_query(qtbot, points):
    """The status column is as wide as the widest status of any query, so
    the table keeps its width from query to query. Those statuses were
    measured in whole pixels rounded to the nearest ("? unresolved", 76.4 px
    at 9 pt, took 76): on case A (every status ok) the column was 1 px
    narrower than on case F, where Qt measures the status it shows (77)."""
    from app.models.cutoffs import CutoffColumn
    from app.panels.summary import SummaryPanel
    from core.engine.evaluation import evaluate
    from core.model.examples import seed_document

    doc = seed_document()
    ev = evaluate(doc)
    panel = SummaryPanel(lambda: 4)
    qtbot.addWidget(panel)
    font = QFont(panel.font())
    font.setPointSizeF(points)
    panel.setFont(font)
    panel.resize(600, 500)
    panel.show()
    qtbot.waitExposed(panel)
    table = panel.table
    panel.show_query(ev, doc.query_index("case-A"))
    on_ok = table.columnWidth(CutoffColumn.STATUS)
    panel.show_query(ev, doc.query_index("case-F-unknown"))
    assert not table.isColumnHidden(CutoffColumn.STATUS)
    assert table.columnWidth(CutoffColumn.STATUS) == on_ok
    assert on_ok >= table.sizeHintForColumn(CutoffColumn.STATUS)
