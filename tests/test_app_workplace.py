"""The window as a workplace (issue 15): grading without dialogs, the wheel,
errors at their field, one current query, the TREC banner, dropped files,
help, and the launch options. The layout (first start on real screens,
remembered, the side columns): tests/test_app_workplace_layout.py."""

from __future__ import annotations

import importlib.metadata
from fnmatch import fnmatch

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRect, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QWheelEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QInputDialog,
    QMessageBox,
    QScrollArea,
    QStyleOptionViewItem,
    QTableView,
)

from app.main import build_window
from app.models.candidates import GridColumn
from app.settings import Settings
from core.engine.columns import EDITED_MARK
from core.engine.evaluation import Status
from core.model.conventions import UnknownRule
from core.model.presets import matching_presets
from tests.conftest import TREC_REFERENCE

SCREENS = {"1280x800": QRect(0, 0, 1280, 800), "1920x1080": QRect(0, 0, 1920, 1080)}


#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def _settle(qtbot, w) -> None:
    """Let the window lay out (and the deferred column fit run)."""
    qtbot.waitExposed(w)
    qtbot.wait(1)  # the event loop runs once: queued layout requests and timers at 0 ms
    QApplication.processEvents()


# -- grading never stops -------------------------------------------------------------------
def test_no_modal_dialog_during_100_typed_grades(qtbot, monkeypatch, tmp_path):
    import getpass

    opened: list[str] = []
    monkeypatch.setattr(QDialog, "exec", lambda self: opened.append(type(self).__name__) or 0)
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: opened.append("getText") or ("", False)))
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name,
                            staticmethod(lambda *a, n=name, **k: opened.append(n)))
    monkeypatch.setattr(getpass, "getuser", lambda: "grader")
    sheet = tmp_path / "sheet.csv"
    rows = ["query,source_id,score,grade"]
    rows += [f"q{q},d{q}-{r},{100 - r},"for q in range(4) for r in range(25)]
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    w = build_window(sheet)
    qtbot.addWidget(w)
    w.show()
    keys = [Qt.Key.Key_0, Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3]
    for q in range(4):
        w.set_query(q)
        w.grid.setFocus()
        assert w.grid.currentIndex().row() == 0
        for r in range(25):
            qtbot.keyClick(w.grid, keys[(q + r) % 4])
            assert QApplication.activeModalWidget() is None
    assert opened == []
    assert w.session.position == 100
    assert int((w.document.state == 0).sum()) == 100  # every grade is a number now
    assert {e.who for e in w.document.audit} == {"grader"}
    assert all(w.evaluation.query_status(q) is Status.OK for q in range(4))
    w.session.mark_saved()


# -- the wheel and field errors --------------------------------------------------------------
def _wheel(widget, steps: int = -1) -> QWheelEvent:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
    return event


def test_wheel_over_a_panel_combo_does_not_change_a_convention(qtbot, window):
    panel = window.conventions_panel
    before = window.conventions
    steps = window.session.position
    for name, combo in panel.combos.items():
        index = combo.currentIndex()
        assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus, name  # no focus by wheel
        event = _wheel(combo)
        assert not event.isAccepted(), name  # left for the panel to scroll
        assert combo.currentIndex() == index, name
    assert window.conventions == before
    assert window.session.position == steps
    # Focused (clicked or tabbed into), the wheel chooses as usual: one undo step.
    combo = panel.combos["zero_ideal"]
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    _wheel(combo)
    assert window.conventions.zero_ideal is not before.zero_ideal
    assert window.session.position == steps + 1


def test_a_cutoff_error_is_shown_at_the_field(qtbot, window):
    panel = window.conventions_panel
    field = panel.cutoffs_edit
    error = panel.field_errors["cutoffs"]
    before = window.conventions.cutoffs
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "5, ten")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert "'ten'" in error.text()
    assert error.isVisibleTo(panel)
    assert "b3261e" in field.styleSheet()  # the field itself is marked
    # Under the field, in the same box (not at the bottom of the panel).
    assert error.parent() is field.parent()
    assert error.geometry().top() >= field.geometry().bottom()
    assert panel.error_label.text() == ""
    assert window.conventions.cutoffs == before
    field.selectAll()
    qtbot.keyClicks(field, "5, 10")
    assert error.text() == ""  # gone as soon as the text is right
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.conventions.cutoffs == (5, 10)


# -- one current query -----------------------------------------------------------------------
def _painted_selected_rows(w) -> list[int]:
    """Navigator rows painted with the selection colour, read back from what
    is on screen (the offscreen platform's backing store)."""
    for _ in range(3):
        QApplication.processEvents()
    view = w.navigator.view
    image = w.screen().grabWindow(w.winId()).toImage()
    highlight = view.palette().highlight().color()
    rows = []
    for row in range(view.model().rowCount()):
        # (at the NDCG cell's left, clear of its right-aligned number: at a
        # number's width its centre fell on a glyph of case-E's "0.6667")
        rect = view.visualRect(view.model().index(row, 1))
        spot = view.viewport().mapTo(w, QPoint(rect.left() + 3, rect.center().y()))
        c = image.pixelColor(spot.x(), spot.y())
        if abs(c.red() - highlight.red()) + abs(c.green() - highlight.green()) + abs(
                c.blue() - highlight.blue()) < 30:
            rows.append(row)
    return rows


def test_one_current_query_in_the_navigator_always(qtbot, window):
    w = window
    _settle(qtbot, w)
    view = w.navigator.view
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.visualRect(view.model().index(2, 1)).center())
    assert w.current_query == 2
    assert _painted_selected_rows(w) == [2]
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert w.current_query == 3
    assert _painted_selected_rows(w) == [3]
    w.app_actions["next_query"].trigger()
    assert _painted_selected_rows(w) == [4]
    w.find_bar.open_bar()
    qtbot.keyClicks(w.find_bar.field, "case-A")
    qtbot.keyClick(w.find_bar.field, Qt.Key.Key_Return)
    assert w.current_query == 0
    assert _painted_selected_rows(w) == [0]
    w.compare_view._query_selected("case-E")  # what a click in the comparison table does
    assert _painted_selected_rows(w) == [w.document.query_index("case-E")]
    assert len(view.selectionModel().selectedRows()) == 1


# -- what the grid and the clipboard show ----------------------------------------------------
def test_an_unrateable_reason_is_shown_in_the_grade_cell(window):
    w = window
    w.set_query(w.document.query_index("case-A"))
    i = w.grid_model.candidate(1)
    assert w.set_grade(i, None, 2, reason="page did not load")  # 2: unrateable
    index = w.grid_model.index(1, GridColumn.GRADE)
    option = QStyleOptionViewItem()
    w.grid.itemDelegateForColumn(GridColumn.GRADE).initStyleOption(option, index)
    assert option.text == f"{EDITED_MARK} unrateable: page did not load"  # (an edit: marked)


def test_the_grade_column_fits_every_grade_of_the_rubric(qtbot, window):
    """Set any grade on any row: its text is whole (never '2 - substantial s…')."""
    w = window
    _settle(qtbot, w)
    w.set_query(w.document.query_index("case-A"))
    delegate = w.grid.itemDelegateForColumn(GridColumn.GRADE)
    metrics = w.grid.fontMetrics()
    for row, key in enumerate((Qt.Key.Key_2, Qt.Key.Key_1, Qt.Key.Key_3)):
        w.grid.setCurrentIndex(w.grid_model.index(row, GridColumn.GRADE))
        w.grid.setFocus()
        qtbot.keyClick(w.grid, key)
        option = QStyleOptionViewItem()
        delegate.initStyleOption(option, w.grid_model.index(row, GridColumn.GRADE))
        assert " - " in option.text
        assert metrics.horizontalAdvance(option.text) + 6 <= w.grid.columnWidth(
            GridColumn.GRADE), option.text
    w.session.mark_saved()


# -- TREC run with qrels ---------------------------------------------------------------------
def test_trec_banner_counts_the_unjudged_and_its_choices_are_undoable(qtbot):
    w = build_window(TREC_REFERENCE / "results.test", qrels=TREC_REFERENCE / "qrels.test")
    qtbot.addWidget(w)
    w.show()
    banner = w.unjudged_banner
    assert banner.isVisibleTo(w)
    assert "762 of 1,500 retrieved candidates are not in the qrels" in banner.text.text()
    assert "unresolved for 3 of 3 queries" in banner.text.text()
    qtbot.mouseClick(banner.buttons["treatAsNotRelevant"], Qt.MouseButton.LeftButton)
    assert not banner.isVisibleTo(w)
    assert w.conventions.unknown is UnknownRule.ZERO
    assert all(w.evaluation.query_status(q) is Status.OK for q in range(3))
    assert "Undo" in w.statusBar().currentMessage()
    w.session.undo()
    assert w.conventions.unknown is UnknownRule.UNRESOLVED
    assert banner.offer()
    qtbot.mouseClick(banner.buttons["condenseLists"], Qt.MouseButton.LeftButton)
    assert w.conventions.unknown is UnknownRule.CONDENSED
    w.session.undo()
    assert banner.offer()
    steps = w.session.position
    qtbot.mouseClick(banner.buttons["keepUnresolved"], Qt.MouseButton.LeftButton)
    assert not banner.isVisibleTo(w)
    assert w.conventions.unknown is UnknownRule.UNRESOLVED
    assert w.session.position == steps
    w.session.mark_saved()


def test_a_preset_at_launch_needs_no_banner(qtbot):
    w = build_window(TREC_REFERENCE / "results.test", qrels=TREC_REFERENCE / "qrels.test",
                     preset="trec_eval")
    qtbot.addWidget(w)
    from core.io.load import load_document

    own = load_document(TREC_REFERENCE / "results.test", qrels=TREC_REFERENCE / "qrels.test")
    assert "trec_eval" in matching_presets(w.conventions)
    assert w.conventions.unknown is UnknownRule.ZERO
    assert w.conventions.cutoffs == own.conventions.cutoffs  # kept, as the buttons do
    assert not w.unjudged_banner.isVisibleTo(w)
    assert not w.isWindowModified()  # the launch preset is no edit
    from app.main import parse_args

    assert parse_args(["run", "--qrels", "q", "--preset", "ranx"]).preset == "ranx"
    with pytest.raises(SystemExit):
        parse_args(["run", "--preset", "nonsense"])


def test_compare_dialog_shows_trec_files_by_default():
    from app.review.compare_view import COMPARE_FILTER

    first = COMPARE_FILTER.split(";;")[0]
    patterns = first[first.index("(") + 1:first.index(")")].split()
    assert any(fnmatch("results.test", p) for p in patterns)
    assert any(fnmatch("input.uogTrA", p) for p in patterns)


# -- files -----------------------------------------------------------------------------------
def _drag(kind, mime: QMimeData):
    if kind is QDragEnterEvent:
        return QDragEnterEvent(QPoint(40, 40), Qt.DropAction.CopyAction, mime,
                               Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    return QDropEvent(QPointF(40, 40), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)


def test_dropping_a_file_on_the_window_opens_it(qtbot, window, tmp_path):
    sheet = tmp_path / "dropped.csv"
    sheet.write_text("query,source_id,score,grade\nq1,a,2,1\nq1,b,1,0\n", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path))])  # a folder is refused
    enter = _drag(QDragEnterEvent, mime)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sheet))])
    enter = _drag(QDragEnterEvent, mime)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(window, _drag(QDropEvent, mime))
    qtbot.waitUntil(lambda: window.path == sheet, timeout=10000)
    assert window.document.n_queries == 1
    assert window.windowTitle().startswith("dropped.csv")
    assert str(sheet.resolve()) in Settings().recent_files  # File > Open Recent lists it
    names = [a.text() for a in window.menu("file").actions()]
    assert "Open &Recent" in names


# -- help and launch ---------------------------------------------------------------------------
def test_help_lists_every_shortcut_and_about(qtbot, window, monkeypatch):
    assert window.menus["help"].title() == "&Help"
    dialog = window.help_menu.shortcuts_dialog()
    qtbot.addWidget(dialog)
    rows = dialog.findChild(QTableView, "shortcutsTable").model().rows()
    by_what = {what: keys for keys, what, _where in rows}
    assert by_what["Save"] == "Ctrl+S"
    assert by_what["Find"] == "Ctrl+F"
    assert by_what["Next query"] == "Ctrl+Down"
    assert by_what["Keyboard shortcuts"] == "F1"
    assert any(keys == "0 … 9" for keys, _w, _m in rows)
    shown = []
    monkeypatch.setattr(QMessageBox, "about", staticmethod(lambda *a: shown.append(a[2])))
    window.app_actions["about"].trigger()
    assert f"NDCG Worksheet {importlib.metadata.version('ndcg-worksheet')}" in shown[0]


def test_a_splash_names_the_file_at_once(qtbot):
    from app.main import _splash

    splash = _splash("big.run")
    qtbot.addWidget(splash)
    assert splash.isVisible()
    assert splash.message() == "Opening big.run…"


def _menus(w) -> dict[str, list[tuple[str, str]]]:
    """Each menu's entries (text and shortcut), in order."""
    return {menu_id: [(a.text(), a.shortcut().toString()) for a in menu.actions()]
            for menu_id, menu in w.menus.items()}


def _launched(qtbot, monkeypatch):
    """The window :func:`app.main.main` shows, its event loop run once it has
    been painted."""
    import app.main as main_module

    built = []

    def build(*args, **kwargs):
        built.append(build_window(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(main_module, "build_window", build)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert main_module.main([]) == 0
    w = built[0]
    qtbot.addWidget(w)
    assert "compareViewDock" not in w.docks  # not before the first paint
    _settle(qtbot, w)
    return w


def test_the_review_docks_come_after_the_first_paint_as_build_window_has_them(
        qtbot, monkeypatch):
    w = _launched(qtbot, monkeypatch)
    at_once = build_window(None)
    qtbot.addWidget(at_once)
    # Every menu, entry and shortcut as the window built at once has them.
    assert _menus(w) == _menus(at_once)
    assert ("Judge the queue's ne&xt", "Ctrl+Shift+J") in _menus(w)["review"]
    assert list(w.docks) == list(at_once.docks)
    for name in ("compareViewDock", "runsViewDock", "explainViewDock", "judgesViewDock",
                 "judgingQueueDock", "conflictsDock"):
        assert w.docks[name].isHidden(), name
        assert w.dockWidgetArea(w.docks[name]) == at_once.dockWidgetArea(at_once.docks[name])
    w.app_actions["show_queue"].trigger()
    assert w.docks["judgingQueueDock"].isVisible()


def test_a_review_dock_the_user_left_shown_comes_back_where_it_was(qtbot, monkeypatch):
    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    _settle(qtbot, w)
    judges = w.docks["judgesViewDock"]
    judges.show()
    w.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, judges)  # moved by the user
    _settle(qtbot, w)
    assert w.close()

    again = _launched(qtbot, monkeypatch)
    judges = again.docks["judgesViewDock"]
    assert judges.isVisible()
    assert again.dockWidgetArea(judges) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert again.session.modified is False


def test_the_window_at_1920x1080_is_shown_with_the_column_as_it_stays(qtbot):
    """h40layout: the right column was split again to the summary's texts by
    a timer after the window's Show, which ran after the first paint or, now
    and then, before it: at 1920x1080 the summary was painted 560 px tall,
    then 426 (a screenshot at usable caught one or the other). The split is
    settled as the window is shown, before any event (a paint) is handled:
    what is painted first stays."""
    w = build_window(None)
    qtbot.addWidget(w)
    w.workplace.reset(SCREENS["1920x1080"])
    names = ("summaryPanelDock", "conventionsPanelDock", "queryNavigatorDock")

    def sizes() -> list[tuple[int, int]]:
        return [(w.docks[n].width(), w.docks[n].height()) for n in names]

    w.show()
    shown = sizes()  # (no event handled since: the first paint is yet to come)
    _settle(qtbot, w)
    _settle(qtbot, w)
    assert shown == sizes()
    summary, conventions = (w.docks[n] for n in names[:2])
    assert conventions.y() > summary.y() + summary.height() - 1  # stacked, at 1080 px


def test_an_unresolved_first_query_keeps_the_column_as_shown(qtbot, tmp_path):
    """The right column was split again when an unresolved first query's
    bounds and next judgment came, after the first paint: at 1920x1080 the
    summary went from 590 to 528 px tall (a visible jump). Their room is
    reserved meanwhile: the split made as the window is shown stays."""
    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook
    from core.model.document import Document
    from core.model.examples import CASES, EXAMPLE_CONVENTIONS

    rows = sorted(CASES, key=lambda c: c[0] != "case-F-unknown")
    doc = Document.from_columns(
        query=[c[0] for c in rows], source_id=[c[1] for c in rows],
        score=[c[2] for c in rows], grade=[c[3] for c in rows], version=["v1"] * len(rows),
        conventions=EXAMPLE_CONVENTIONS)
    path = tmp_path / "first_unresolved.xlsx"
    export_workbook(evaluate(doc), path)
    w = build_window(path)
    qtbot.addWidget(w)
    w.workplace.reset(SCREENS["1920x1080"])
    names = ("summaryPanelDock", "conventionsPanelDock")

    def sizes() -> list[tuple[int, int]]:
        return [(w.docks[n].width(), w.docks[n].height()) for n in names]

    w.show()
    shown = sizes()
    bounds = w.summary_panel.bounds_label
    assert w.current_query_id == "case-F-unknown"
    assert bounds.text() == "Computing bounds…"
    qtbot.waitUntil(lambda: bounds.text().startswith("1 unknown grade of 3: "),
                    timeout=10_000)
    _settle(qtbot, w)
    assert sizes() == shown
    # The texts come whole into the room kept for them (no scroll).
    scroll = w.summary_panel.findChild(QScrollArea, "summaryScroll")
    assert scroll.verticalScrollBar().maximum() == 0
