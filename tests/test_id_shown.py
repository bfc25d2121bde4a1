"""An id holding a line break is shown with a mark for each break ("a\\nb"
as "a⏎b", "x\\r\\ny" as "x⇤⏎y"): the grid showed "a\\nb" as "ab" (the id
"ab" to the eye) and the Guidelines panel on two lines. An id holding the
mark itself is told apart on hover. Only the display: the document, a copy
and a find keep the real text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLineEdit

from app.clipboard_actions import install_clipboard_actions
from app.find import install_find
from app.guidelines_dock import install_guidelines
from app.models.audit import AuditColumn
from app.models.candidates import GridColumn
from app.models.queries import QueryColumn
from app.models.roles import DISPLAY, TOOLTIP, WHOLE_ROLE
from app.review.queue_view import QueueColumn, QueueModel
from app.shown import id_note, shown_id, typed
from tests.test_id_line_breaks import _write, opened

CTRL = Qt.KeyboardModifier.ControlModifier
#: query ids and their sources: a line feed, a CRLF, a CR, the mark itself.
RUN = {"q\n1": {"a\nb": 3.0, "ab": 2.0, "a⏎b": 1.0}, "q2": {"x\r\ny": 2.0, "c\rd": 1.0}}
BREAK = "The id holds a line break: ⏎ marks a line feed (\\n), ⇤ a carriage return (\\r)."


def test_an_id_shows_each_break_as_a_mark_and_says_so():
    assert [shown_id(s) for s in ("a\nb", "ab", "a⏎b", "x\r\ny", "c\rd", "x\n\ny")] == [
        "a⏎b", "ab", "a⏎b", "x⇤⏎y", "c⇤d", "x⏎⏎y"]
    assert id_note("a\nb") == id_note("c\rd") == BREAK
    assert id_note("a⏎b") == "The id holds the character '⏎' itself, not a line break."
    assert id_note("ab") == ""
    # Cut first, marked after: the shown text's length is the bound.
    assert shown_id("q" * 50 + "\n" + "r" * 50 + "\r", 12) == "qqqqqq…rrrr⇤"
    assert typed("a⏎b") == ("a⏎b", "a\nb")


def _opened(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    rows = [(q, s, v) for q, sources in RUN.items() for s, v in sources.items()]
    run = _write(tmp_path, "json", "run", rows)
    qrels = _write(tmp_path, "parquet", "qrels",
                   [(q, s, float(n % 3)) for n, (q, s, _) in enumerate(rows)])
    window = opened(qtbot, monkeypatch, run, qrels)
    window.clipboard_actions = install_clipboard_actions(window)
    window.find_bar = install_find(window)
    return window


def grid_model_said(window: Any, row: int) -> str:
    """What a screen reader says of the source cell on ``row``."""
    return window.grid.model().index(row, GridColumn.SOURCE).data(
        Qt.ItemDataRole.AccessibleDescriptionRole)


def _sources(window: Any, role: int) -> list[Any]:
    model = window.grid.model()
    return [model.index(r, GridColumn.SOURCE).data(role) for r in range(model.rowCount())]


def test_the_grid_and_the_navigator_mark_them_and_a_copy_and_a_find_keep_them(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    window = _opened(qtbot, tmp_path, monkeypatch)
    nav = window.navigator.view.model()
    assert [nav.index(r, QueryColumn.QUERY).data(DISPLAY) for r in range(nav.rowCount())] == [
        "q⏎1", "q2"]
    assert nav.index(0, QueryColumn.QUERY).data(TOOLTIP) == BREAK
    assert nav.index(1, QueryColumn.QUERY).data(TOOLTIP) is None
    window.set_query(0)
    assert window.current_query_id == "q\n1"
    assert _sources(window, DISPLAY) == ["a⏎b", "ab", "a⏎b"]
    assert _sources(window, TOOLTIP) == [
        BREAK, None, "The id holds the character '⏎' itself, not a line break."]
    assert grid_model_said(window, 0) == f"Source, query q⏎1, source a⏎b. {BREAK}"
    assert grid_model_said(window, 1) == f"Source, query q⏎1, source ab. {BREAK}"
    assert window.summary_panel.title.text() == "q⏎1"
    assert window.summary_panel.title.toolTip() == f"q⏎1\n{BREAK}"
    guidelines = install_guidelines(window)
    grid = window.grid
    grid.setCurrentIndex(grid.model().index(0, GridColumn.SOURCE))
    assert guidelines.view.current_label.text().startswith("q⏎1 / a⏎b: ")
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    assert QGuiApplication.clipboard().text() == '"a\nb"\n'  # (quoted: a cell's break)
    # A digit grades the row: the audit log and the undo text name it marked.
    qtbot.keyClick(grid, Qt.Key.Key_2)
    audit = window.audit_model
    last = audit.rowCount() - 1
    assert [audit.index(last, c).data(DISPLAY) for c in (AuditColumn.QUERY, AuditColumn.SOURCE)
            ] == ["q⏎1", "a⏎b"]
    assert audit.index(last, AuditColumn.SOURCE).data(TOOLTIP) == f"a⏎b\n{BREAK}"
    assert audit.index(last, AuditColumn.SOURCE).data(WHOLE_ROLE) == "a\nb"
    assert window.session.undo_text.startswith("grade q⏎1/a⏎b: ")
    window.set_query(1)
    assert _sources(window, DISPLAY) == ["x⇤⏎y", "c⇤d"]
    # Typing an id as it is shown finds it (and only it: not "ab").
    qtbot.keyClick(grid, Qt.Key.Key_F, CTRL)
    field = window.findChild(QLineEdit, "findField")
    qtbot.keyClicks(field, "a")
    field.insert("⏎")  # (QTest types ASCII only)
    qtbot.keyClicks(field, "b")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    doc = window.document
    assert [doc.source_id[i] for _, i in window.find_bar.matches()] == ["a\nb", "a⏎b"]
    assert window.current_query_id == "q\n1"
    # Its real text pasted finds it alone.
    field.clear()
    QGuiApplication.clipboard().setText("a\nb")
    qtbot.keyClick(field, Qt.Key.Key_V, CTRL)
    assert [doc.source_id[i] for _, i in window.find_bar.matches()] == ["a\nb"]
    # The navigator's filter too.
    qtbot.keyClicks(window.navigator.filter_edit, "q")
    window.navigator.filter_edit.insert("⏎")
    assert [nav.index(r, QueryColumn.QUERY).data(DISPLAY) for r in range(nav.rowCount())] == [
        "q⏎1"]
    assert list(doc.source_id) == [s for sources in RUN.values() for s in sources]


def test_the_review_tables_mark_their_query_and_source_columns(qtbot: Any):
    model = QueueModel()
    model.set_rows([(1, "q\n1", "a⏎b", 3, 0.5, None), (2, "q2", "x\r\ny", None, None, None)])
    cell = model.index(0, QueueColumn.QUERY)
    assert [model.index(r, c).data(DISPLAY) for r in (0, 1)
            for c in (QueueColumn.QUERY, QueueColumn.SOURCE)] == ["q⏎1", "a⏎b", "q2", "x⇤⏎y"]
    assert (cell.data(TOOLTIP), cell.data(WHOLE_ROLE)) == (BREAK, "q\n1")
    assert model.index(0, QueueColumn.SOURCE).data(TOOLTIP) == id_note("a⏎b")
    assert model.index(1, QueueColumn.QUERY).data(TOOLTIP) is None
    assert model.index(0, QueueColumn.POSITION).data(DISPLAY) == 1


def test_a_break_s_mark_and_the_mark_itself_look_apart_in_the_grid(qtbot: Any):
    # The same text, "a⏎b", in both cells (rows of one parity: the same
    # background): the mark standing for a line break is drawn in another
    # colour than the id's own characters (IdDelegate), so the two cells'
    # pixels differ; a row of the real character is drawn as any text.
    from app.settings import Settings
    from app.window import MainWindow
    from core.model.document import Document

    doc = Document.from_columns(query=["q"] * 4, source_id=["a\nb", "zz", "a⏎b", "yy"],
                                score=[4, 3, 2, 1], grade=[1, 1, 1, 1])
    Settings().reviewer = "ana"
    window = MainWindow(doc)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.resize(1000, 600)
    window.show()
    qtbot.waitExposed(window)
    grid = window.grid
    grid.setCurrentIndex(grid.model().index(3, GridColumn.GRADE))
    cells = [grid.viewport().grab(grid.visualRect(grid.model().index(r, GridColumn.SOURCE)))
             .toImage() for r in (0, 2)]
    assert [grid.model().index(r, GridColumn.SOURCE).data(DISPLAY) for r in (0, 2)] == [
        "a⏎b", "a⏎b"]
    assert cells[0].size() == cells[1].size()
    assert cells[0] != cells[1]


def test_a_tab_in_an_id_is_marked_as_a_break_is_and_a_copy_keeps_it(qtbot: Any):
    # A tab was laid out as a wide blank gap (the grid's Source, the
    # Guidelines' title): "⇥" now, drawn paler than the id's own "⇥" in the
    # grid (IdDelegate); the id's text, a copy and the tooltip's news as such.
    from app.settings import Settings
    from app.window import MainWindow
    from core.model.document import Document

    assert [shown_id(s) for s in ("a\tb", "a\t\r\nb")] == ["a⇥b", "a⇥⇤⏎b"]
    assert id_note("a\tb") == "The id holds a tab: ⇥ marks it (\\t)."
    assert id_note("a\t\nb") == f"{BREAK} The id holds a tab: ⇥ marks it (\\t)."
    assert id_note("a⇥b") == "The id holds the character '⇥' itself, not a tab."
    assert typed("a⇥b") == ("a⇥b", "a\tb")
    doc = Document.from_columns(query=["q\tr"] * 4, source_id=["a\tb", "zz", "a⇥b", "yy"],
                                score=[4, 3, 2, 1], grade=[1, 1, 1, 1])
    Settings().reviewer = "ana"
    window = MainWindow(doc)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.clipboard_actions = install_clipboard_actions(window)
    guidelines = install_guidelines(window)
    window.resize(1000, 600)
    window.show()
    qtbot.waitExposed(window)
    grid = window.grid
    model = grid.model()
    grid.setCurrentIndex(model.index(3, GridColumn.GRADE))
    cells = [grid.viewport().grab(grid.visualRect(model.index(r, GridColumn.SOURCE)))
             .toImage() for r in (0, 2)]
    assert [model.index(r, GridColumn.SOURCE).data(DISPLAY) for r in (0, 2)] == ["a⇥b", "a⇥b"]
    assert cells[0] != cells[1]
    assert model.index(0, GridColumn.SOURCE).data(TOOLTIP) == id_note("a\tb")
    grid.setCurrentIndex(model.index(0, GridColumn.SOURCE))
    assert guidelines.view.current_label.text().startswith("q⇥r / a⇥b: ")
    window.activateWindow()
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    assert QGuiApplication.clipboard().text() == '"a\tb"\n'  # (quoted: a cell's tab)
    assert list(window.document.source_id) == ["a\tb", "zz", "a⇥b", "yy"]
