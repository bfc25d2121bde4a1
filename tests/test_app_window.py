"""The main window, driven by real key clicks: grading, undo/redo, the audit
log, convention changes, the modified flag, closing, and opening files."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QInputDialog, QMessageBox, QWidget

from app.main import build_window
from app.models.candidates import GridColumn
from app.models.cutoffs import CutoffColumn
from app.models.queries import QueryColumn
from app.settings import Settings
from core.model.document import Document, GradeState

L = math.log2(3)




#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def show(w, query_id: str) -> int:
    q = w.document.query_index(query_id)
    w.set_query(q)
    assert w.current_query == q
    return q


def cell(w, row: int, col: GridColumn):
    return w.grid_model.data(w.grid_model.index(row, col))


def summary_ndcg(w, j: int):
    m = w.summary_panel.model
    return m.data(m.index(j, CutoffColumn.NDCG))


def grade_row(qtbot, w, row: int, key: Qt.Key) -> None:
    w.grid.setCurrentIndex(w.grid_model.index(row, GridColumn.GRADE))
    w.grid.setFocus()
    qtbot.keyClick(w.grid, key)


def test_object_names_and_example(window):
    for name in ("queryNavigator", "candidateGrid", "notRetrievedGrid", "conventionsPanel",
                 "summaryPanel", "auditLog", "aggregateFooter"):
        assert window.findChild(QWidget, name) is not None, name
    assert window.document.name == "seed cases A-F"
    assert window.document.n_queries == 8
    assert window.navigator.model.rowCount() == 8
    assert window.current_query == 0
    assert window.grid_model.rowCount() == 3
    assert "[*]" in window.windowTitle()
    assert not window.isWindowModified()
    assert "6 of 8 queries" in window.footer.text()
    assert "1 undefined" in window.footer.text()
    assert "1 unresolved" in window.footer.text()


def test_digit_keys_grade_and_recompute_case_a(qtbot, window):
    w = window
    show(w, "case-A")
    # Rows in rank order: B (1), A (3), C (0).
    assert [cell(w, r, GridColumn.SOURCE) for r in range(3)] == ["B", "A", "C"]
    assert summary_ndcg(w, 2) == pytest.approx(0.796707, abs=1e-6)
    grade_row(qtbot, w, 0, Qt.Key.Key_0)
    # B is now 0; the cursor moved to the next row.
    assert w.grid.currentIndex().row() == 1
    assert cell(w, 0, GridColumn.GRADE) == 0.0
    assert cell(w, 0, GridColumn.GAIN) == 0.0
    assert cell(w, 0, GridColumn.CONTRIBUTION) == 0.0
    assert cell(w, 1, GridColumn.CUMULATIVE) == pytest.approx(3 / L)
    # DCG = 3/L, ideal DCG = 3: NDCG@all = 1/L; at k=1 it is 0, at k=2 (3/L)/(3) too.
    m = w.summary_panel.model
    assert m.data(m.index(2, CutoffColumn.DCG)) == pytest.approx(3 / L)
    assert m.data(m.index(2, CutoffColumn.IDCG)) == pytest.approx(3.0)
    assert summary_ndcg(w, 2) == pytest.approx(1 / L)
    assert summary_ndcg(w, 0) == 0.0
    nav = w.navigator.model
    assert nav.data(nav.index(w.current_query, QueryColumn.NDCG)) == 0.0
    # Grade C (row 2) with 2: DCG = 3/L + 2/2, ideal DCG = 3 + 2/L.
    grade_row(qtbot, w, 2, Qt.Key.Key_2)
    # Its last row graded, the next query is shown; back to case-A.
    assert w.current_query != w.document.query_index("case-A")
    show(w, "case-A")
    assert summary_ndcg(w, 2) == pytest.approx((3 / L + 1) / (3 + 2 / L))
    i = w.grid_model.candidate(0)
    assert w.document.original_grade[i] == 1.0  # raw grades are never overwritten
    entries = [(e.who, e.source_id, e.before, e.after, e.origin) for e in w.document.audit]
    assert entries == [("tester", "B", "1", "0", "app"), ("tester", "C", "0", "2", "app")]
    assert w.audit_model.rowCount() == 2


def test_grading_resolves_an_unresolved_query(qtbot, window):
    w = window
    q = show(w, "case-F-unknown")
    assert w.evaluation.query_status(q).value == "unresolved"
    assert "? unresolved" in w.summary_panel.status_label.text()
    # (B's grade cannot change case-F-unknown's NDCG: one value, said as such)
    qtbot.waitUntil(lambda: "whatever" in w.summary_panel.bounds_label.text())
    assert "'B'" in w.summary_panel.next_label.text()
    assert cell(w, 1, GridColumn.GRADE) == "unknown"
    grade_row(qtbot, w, 1, Qt.Key.Key_1)
    assert w.evaluation.query_status(q).value == "ok"
    # A=3, B=1, C=0 in ideal order: NDCG 1, DCG = 3 + 1/L.
    assert summary_ndcg(w, 2) == pytest.approx(1.0)
    m = w.summary_panel.model
    assert m.data(m.index(2, CutoffColumn.DCG)) == pytest.approx(3 + 1 / L)
    assert "reached NDCG@1 = 1.0000" in w.summary_panel.sentence_text()
    assert "7 of 8 queries" in w.footer.text()


def test_undo_redo_round_trip_exactly_and_audit_tells_the_truth(qtbot, window):
    w = window
    q = show(w, "case-F-unknown")
    i = w.grid_model.candidate(1)
    ndcg_before = w.evaluation.ndcg.copy()
    grade_row(qtbot, w, 1, Qt.Key.Key_3)
    assert w.isWindowModified()
    assert w.document.grade[i] == 3.0
    after = w.evaluation.ndcg.copy()
    w.session.undo()
    assert w.document.state[i] == GradeState.UNKNOWN
    assert math.isnan(w.document.grade[i])
    assert w.document.reason[i] == ""
    np.testing.assert_array_equal(w.evaluation.ndcg, ndcg_before)
    assert not w.isWindowModified()
    assert cell(w, 1, GridColumn.GRADE) == "unknown"
    w.session.redo()
    assert w.document.grade[i] == 3.0
    np.testing.assert_array_equal(w.evaluation.ndcg, after)
    origins = [(e.before, e.after, e.origin) for e in w.document.audit]
    assert origins == [("unknown", "3", "app"), ("3", "unknown", "undo"),
                       ("unknown", "3", "redo")]
    assert w.audit_model.rowCount() == 3
    assert w.evaluation.query_status(q).value == "ok"


def test_unknown_and_unrateable_keys(qtbot, window, monkeypatch):
    w = window
    show(w, "case-A")
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: ("page did not load", True)))
    grade_row(qtbot, w, 1, Qt.Key.Key_X)
    i = w.grid_model.candidate(1)
    assert w.document.state[i] == GradeState.UNRATEABLE
    assert w.document.reason[i] == "page did not load"
    idx = w.grid_model.index(1, GridColumn.GRADE)
    assert w.grid_model.data(idx) == "unrateable"
    assert w.grid_model.data(idx, Qt.ItemDataRole.FontRole).italic()
    assert Settings().last_unrateable_reason == "page did not load"
    grade_row(qtbot, w, 0, Qt.Key.Key_U)
    assert w.document.state[w.grid_model.candidate(0)] == GradeState.UNKNOWN
    assert w.evaluation.query_status(w.current_query).value == "unresolved"
    # Undo twice restores grade, state and reason exactly.
    w.session.undo()
    w.session.undo()
    assert w.document.state[i] == GradeState.NUMBER
    assert w.document.grade[i] == 3.0
    assert w.document.reason[i] == ""


def test_grade_editor_offers_rubric_labels(qtbot, window):
    w = window
    show(w, "case-A")
    idx = w.grid_model.index(2, GridColumn.GRADE)
    w.grid.setCurrentIndex(idx)
    w.grid.edit(idx)
    combo = w.grid.findChild(QComboBox, "gradeEditor")
    assert combo is not None
    items = [combo.itemText(n) for n in range(combo.count())]
    assert "2 - substantial support" in items
    assert "unknown" in items
    combo.setCurrentIndex(items.index("2 - substantial support"))
    qtbot.keyClick(combo.lineEdit(), Qt.Key.Key_Return)
    assert w.document.grade[w.grid_model.candidate(2)] == 2.0
    assert w.session.position == 1



def type_grade(qtbot, w, row: int, text: str) -> None:
    """Open the grid's grade editor on ``row``, type ``text`` and press Return."""
    qtbot.waitUntil(lambda: w.grid.findChild(QComboBox, "gradeEditor") is None)
    idx = w.grid_model.index(row, GridColumn.GRADE)
    w.grid.setCurrentIndex(idx)
    w.grid.edit(idx)
    combo = w.grid.findChild(QComboBox, "gradeEditor")
    combo.lineEdit().selectAll()
    qtbot.keyClicks(combo.lineEdit(), text)
    qtbot.keyClick(combo.lineEdit(), Qt.Key.Key_Return)


def test_typed_unrateable_reason_needs_no_dialog(qtbot, window, monkeypatch):
    # The editor reads typed text with the grammar of pasted cells: a reason
    # after "unrateable:" is taken as typed; "N/A" alone asks for one.
    w = window
    show(w, "case-A")
    asked: list[bool] = []
    monkeypatch.setattr(w, "_ask_reason", lambda: asked.append(True) or "asked")
    type_grade(qtbot, w, 1, "unrateable: page gone")
    i = w.grid_model.candidate(1)
    assert (w.document.state[i], w.document.reason[i]) == (GradeState.UNRATEABLE, "page gone")
    assert asked == []
    type_grade(qtbot, w, 2, "N/A")
    j = w.grid_model.candidate(2)
    assert (w.document.state[j], w.document.reason[j]) == (GradeState.UNRATEABLE, "asked")
    assert asked == [True]
    type_grade(qtbot, w, 0, "2,5")  # a decimal comma, outside the rubric: typed on purpose
    assert w.document.grade[w.grid_model.candidate(0)] == 2.5
    assert w.session.position == 3

def test_exponential_gain_from_the_dock_recomputes_and_undoes(window):
    w = window
    show(w, "case-B")
    assert summary_ndcg(w, 2) == pytest.approx((3 / L + 0.5) / (3 + 1 / L))
    combo = w.conventions_panel.findChild(QComboBox, "gainCombo")
    combo.setCurrentIndex(combo.findData("exponential"))
    assert w.conventions.gain.rule.value == "exponential"
    assert summary_ndcg(w, 2) == pytest.approx(0.644286, abs=1e-6)
    assert cell(w, 1, GridColumn.GAIN) == 7.0
    assert "2^grade - 1" in w.grid_model.headerData(
        GridColumn.GAIN, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "2^grade - 1" in w.conventions_panel.gain_formula.text()
    assert w.isWindowModified()
    w.session.undo()
    assert w.conventions.gain.rule.value == "linear"
    assert combo.currentData() == "linear"
    assert summary_ndcg(w, 2) == pytest.approx(0.659001, abs=1e-6)


def test_presets_and_cutoffs(qtbot, window):
    w = window
    panel = w.conventions_panel
    qtbot.mouseClick(panel.preset_buttons["trec_eval"], Qt.MouseButton.LeftButton)
    assert "trec_eval" in panel.preset_match.text()
    assert w.conventions.cutoffs == (1, 2, None)  # kept
    # Zero ideal now counts as 0, unknowns as 0: no query is excluded.
    assert "8 of 8 queries" in w.footer.text()
    panel.cutoffs_edit.setText("3, all")
    panel.cutoffs_edit.editingFinished.emit()
    assert w.conventions.cutoffs == (3, None)
    assert w.summary_panel.model.rowCount() == 2
    assert w.navigator.model.headerData(QueryColumn.NDCG, Qt.Orientation.Horizontal) == "NDCG@3"
    panel.cutoffs_edit.setText("0")
    panel.cutoffs_edit.editingFinished.emit()
    # The error is shown at the field, not at the bottom of the panel.
    assert "at least 1" in panel.field_errors["cutoffs"].text()
    assert w.conventions.cutoffs == (3, None)


def test_close_with_unsaved_changes_asks(qtbot, window, monkeypatch):
    w = window
    grade_row(qtbot, w, 0, Qt.Key.Key_2)
    asked = []

    def answer(choice):
        def ask(*args, **kwargs):
            asked.append(args[1])
            return choice
        return staticmethod(ask)

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Cancel))
    assert not w.close()
    assert w.isVisible()
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Discard))
    assert w.close()
    assert len(asked) == 2


def test_unreadable_file_shows_the_error_and_opens_the_example(qtbot, tmp_path, monkeypatch):
    bad = tmp_path / "bad.csv"
    bad.write_text("query,source_id,score,grade\nq1,a,high,1\n", encoding="utf-8")
    shown = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda *a, **k: shown.append(a[2])))
    w = build_window(bad)
    qtbot.addWidget(w)
    assert len(shown) == 1
    assert "bad.csv" in shown[0]
    assert "line 2" in shown[0]
    assert w.document.name == "seed cases A-F"


def test_csv_file_opens_with_its_name_in_the_title(qtbot, tmp_path):
    good = tmp_path / "run.csv"
    good.write_text("query,source_id,score,grade\nq1,a,2,1\nq1,b,1,\nq2,c,1,0\n",
                    encoding="utf-8")
    w = build_window(good)
    qtbot.addWidget(w)
    assert w.windowTitle().startswith("run.csv[*]")
    assert w.document.n_queries == 2
    assert w.grid_model.rowCount() == 2


def test_large_document_shows_one_query_and_grades(qtbot):
    Settings().reviewer = "tester"
    n_q, per = 100, 1000
    rng = np.random.default_rng(7)
    doc = Document.from_columns(
        query=np.repeat([f"q{i:03d}" for i in range(n_q)], per).tolist(),
        source_id=[f"d{i}" for i in range(n_q * per)],
        score=rng.random(n_q * per),
        grade=rng.integers(0, 4, n_q * per).astype(float),
    )
    from app.window import MainWindow

    w = MainWindow(doc)
    qtbot.addWidget(w)
    w.show()
    assert w.grid_model.rowCount() == per
    changed = []
    w.grid_model.dataChanged.connect(lambda a, b, roles: changed.append((a.row(), b.row())))
    row = 10
    grade_row(qtbot, w, row, Qt.Key.Key_3)
    i = w.grid_model.candidate(row)
    assert w.document.grade[i] == 3.0
    assert cell(w, row, GridColumn.GAIN) == 3.0
    # Only the edited row and the columns every row shares were refreshed.
    assert (row, row) in changed
    assert len(changed) <= 3
    w.session.mark_saved()


def test_reviewer_defaults_to_the_login_name_without_asking(qtbot, monkeypatch):
    import getpass

    asked = []
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: asked.append(a) or ("x", True)))
    monkeypatch.setattr(getpass, "getuser", lambda: "ana.login")
    assert Settings().reviewer == ""
    w = build_window(None)
    qtbot.addWidget(w)
    grade_row(qtbot, w, 0, Qt.Key.Key_2)
    grade_row(qtbot, w, 1, Qt.Key.Key_2)
    assert asked == []
    assert w.session.position == 2
    assert {e.who for e in w.document.audit} == {"ana.login"}
    assert w.preferences.button.text() == "Reviewer: ana.login"
    w.session.mark_saved()


def test_preferences_change_the_reviewer_and_the_digits(qtbot, monkeypatch):
    from PySide6.QtWidgets import QDialog

    from app.preferences import PreferencesDialog

    def fill(dialog):
        dialog.reviewer.setText("Ana")
        dialog.decimals.setValue(2)
        return int(QDialog.DialogCode.Accepted.value)

    monkeypatch.setattr(PreferencesDialog, "exec", fill)
    w = build_window(None)
    qtbot.addWidget(w)
    qtbot.mouseClick(w.preferences.button, Qt.MouseButton.LeftButton)
    assert Settings().reviewer == "Ana"
    assert w.decimals() == 2
    assert w.preferences.button.text() == "Reviewer: Ana"
    assert "NDCG@1 0.36 " in w.footer.text()  # mean of 1/3, 0, 1/3, 1/3, 1/2, 2/3
    grade_row(qtbot, w, 0, Qt.Key.Key_2)
    assert w.document.audit[-1].who == "Ana"
    w.session.mark_saved()



def test_preferences_explain_each_field_and_what_waits_for_the_next_grade(qtbot):
    """Seen at 1280x800: "Move to the next row after a grade key" had no
    tooltip (the other two have), and the note said "Changes apply to the
    next grade", though the digits change at OK (the test above)."""
    from PySide6.QtWidgets import QLabel

    from app.preferences import PreferencesDialog

    dialog = PreferencesDialog(Settings())
    qtbot.addWidget(dialog)
    tips = [w.toolTip() for w in (dialog.reviewer, dialog.decimals, dialog.advance)]
    assert all(tips), tips
    assert "next row" in tips[2]
    assert [label.text() for label in dialog.findChildren(QLabel) if label.buddy() is None] == [
        "A new reviewer name applies from the next grade on; grades already in the audit "
        "log keep theirs."]


def test_the_digits_setting_rounds_every_number_shown(qtbot, monkeypatch):
    """Decimals shown: 2, typed in Preferences: the result sentence, the
    footer's sentences and the conventions panel's gain table and formula
    show two digits; the gain table's fraction is whole in its tooltips and
    in the copied sentence (which reproduces the number), and the values
    keep their full precision."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QDialog

    from app.preferences import PreferencesDialog
    from core.model.conventions import Gain
    from core.model.gain_rules import GainRule

    def fill(dialog):
        dialog.decimals.setFocus()
        dialog.decimals.selectAll()
        qtbot.keyClicks(dialog.decimals, "2")
        return int(QDialog.DialogCode.Accepted.value)

    monkeypatch.setattr(PreferencesDialog, "exec", fill)
    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    gain = Gain(GainRule.TABLE, ((0.0, 0.0), (1 / 3, 0.5), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)))
    assert w.change_conventions(w.conventions.replace(gain=gain)) is None
    w.set_query(w.document.query_index("case-A"))
    w.app_actions["explain_disagreement"].trigger()  # worked out at once
    explained = w.explain_view.view.sentence
    assert re.search(r"goes from \d\.\d{4} to \d\.\d{4}", explained.text())
    panel = w.conventions_panel
    assert "reached NDCG@1 = 0.3333 (DCG 1.0000 / ideal DCG 3.0000)" in (
        w.summary_panel.sentence.text())
    assert "(0=0,0.3333=0.5000,1=1,2=2,3=3)" in panel.gain_formula.text()
    qtbot.mouseClick(w.preferences.button, Qt.MouseButton.LeftButton)
    assert w.decimals() == 2
    assert re.search(r"goes from \d\.\d{2} to \d\.\d{2} \([+-]\d\.\d{2}\)", explained.text())
    shown = w.summary_panel.sentence.text()
    assert "reached NDCG@1 = 0.33 (DCG 1.00 / ideal DCG 3.00) under gain table " \
           "0=0,0.33=0.50,1=1,2=2,3=3 (gain = table[grade] (0=0,0.33=0.50," in shown
    w.summary_panel.copy_sentence()
    copied = QGuiApplication.clipboard().text()
    assert "reached NDCG@1 = 0.33 (DCG 1.00 / ideal DCG 3.00) under gain table " \
           "0=0,0.3333333333333333=0.5,1=1,2=2,3=3 (gain = table[grade] (" in copied
    assert w.summary_panel.sentence.toolTip() == copied
    assert "queries is 0.36 (" in w.footer.toolTip()  # mean of 1/3, 0, 1/3, 1/3, 1/2, 2/3
    assert "(0=0,0.33=0.50,1=1,2=2,3=3)" in panel.gain_formula.text()
    assert "(0=0,0.3333333333333333=0.5,1=1,2=2,3=3)" in panel.gain_formula.toolTip()
    table = panel.gain_table
    cell = table.model().index(1, 0)
    shown = table.itemDelegateForColumn(0).displayText(cell.data(), table.locale())
    assert (shown, cell.data(), cell.data(Qt.ItemDataRole.ToolTipRole)) == (
        "0.33", 1 / 3, "0.3333333333333333")
    gains = table.model().index(1, 1)
    assert table.itemDelegateForColumn(1).displayText(gains.data(), table.locale()) == "0.50"
    assert table.model().index(2, 0).data(Qt.ItemDataRole.ToolTipRole) is None  # whole: 1
    assert w.conventions.gain.table[1] == (1 / 3, 0.5)  # full precision inside
    w.session.mark_saved()

def test_main_parses_arguments_and_runs(qapp, monkeypatch, tmp_path):
    from app import main as main_module

    built = []

    def fake_build(path=None, *, qrels=None, preset=None, review_docks=True,
                   importing=None, before_read=False):
        built.append((path, qrels, preset))
        w = build_window(None, review_docks=review_docks)
        monkeypatch.setattr(w, "show", lambda: None)
        return w

    monkeypatch.setattr(main_module, "build_window", fake_build)
    monkeypatch.setattr(type(qapp), "exec", lambda self: 0)
    assert main_module.main(["run.txt", "--qrels", "qrels.txt"]) == 0
    assert main_module.main(["run.txt", "--qrels", "q.txt", "--preset", "trec_eval"]) == 0
    assert built == [("run.txt", "qrels.txt", None), ("run.txt", "q.txt", "trec_eval")]


def test_bounds_of_a_long_query_are_worked_out_off_the_ui_thread(qtbot, monkeypatch):
    """One query of 40,000 retrieved candidates, one judged: the window shows
    it at once, computes the bounds and the next judgment on a worker thread
    (the UI thread keeps answering), and drops a result that comes too late
    for the query shown."""
    import threading

    import app.panels.summary as summary

    n = 40_000
    grade: list[float | None] = [None] * n
    grade[3] = 2.0
    doc = Document.from_columns(query=["long"] * n + ["short"] * 2,
                                source_id=[f"https://x.org/{i}" for i in range(n + 2)],
                                score=[*np.linspace(1, 0, n).tolist(), 1.0, 0.5],
                                grade=[*grade, 1.0, 0.0])
    threads: list[str] = []
    real = summary.best_next_judgment

    def spy(*args):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(summary, "best_next_judgment", spy)
    Settings().reviewer = "tester"
    w = build_window(None)
    qtbot.addWidget(w)
    w.set_document(doc)
    w.show()
    panel = w.summary_panel
    assert panel.bounds_label.text() == "Computing bounds…"
    qtbot.waitUntil(lambda: "between" in panel.bounds_label.text(), timeout=60_000)
    assert "39999 unknown grades of 40000" in panel.bounds_label.text()
    assert "'https://x.org/0'" in panel.next_label.text()
    assert threads
    assert threading.main_thread().name not in threads
    # A late result for a query no longer shown is dropped.
    w.set_query(1)
    panel._show_details((w.evaluation, 0), ([], None))
    assert panel.bounds_label.text() == ""
    panel.details_job.wait()


def test_a_query_kept_open_by_unrateable_candidates_says_so(qtbot):
    from core.model.conventions import Conventions, Rubric

    doc = Document.from_columns(
        query=["q", "q"], source_id=["a", "b"], score=[2.0, 1.0], grade=[3.0, None],
        state=[GradeState.NUMBER, GradeState.UNRATEABLE],
        conventions=Conventions(cutoffs=(2,), rubric=Rubric.parse("0,1,2,3")),
    )
    Settings().reviewer = "tester"
    w = build_window(None)
    qtbot.addWidget(w)
    w.set_document(doc)
    w.show()
    panel = w.summary_panel
    qtbot.waitUntil(lambda: "NDCG@2" in panel.bounds_label.text(), timeout=10_000)
    assert panel.bounds_label.text() == (  # (a's 3 tops the rubric: NDCG 1 whatever b is)
        "1 unknown grade of 2: NDCG@2 is 1.0000 whatever the unknown grades are")
    assert panel.next_label.text().startswith("Only unrateable candidates keep this query open")
    assert not panel.next_button.isVisible()
    panel.details_job.wait()


def test_the_not_retrieved_line_says_whether_they_count_in_the_ideal_list(qtbot, window):
    """Under the ideal inventory of the ranked candidates only (the
    defaults, scikit-learn's) the line under the grid said the judged but
    not retrieved candidates "count in the ideal list only", beside a
    summary that counts them nowhere. It says what the inventory chosen in
    the Conventions panel makes of them, and follows the choice."""
    from tests.conftest import doc_of

    w = window
    w.set_document(doc_of([("q", "a", 2.0, 3.0), ("q", "b", 1.0, 0.0),
                           ("q", "c", math.nan, 2.0)]))
    label = w.grid_panel.not_retrieved_label
    assert w.conventions.ideal.value == "ranked"
    assert label.text() == ("Judged but not retrieved: 1 candidate, no rank; not in the "
                            "ideal list (ideal inventory: ranked candidates only).")
    combo = w.conventions_panel.findChild(QComboBox, "idealCombo")
    w.docks["conventionsPanelDock"].raise_()
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert w.conventions.ideal.value == "judged"
    assert label.text() == ("Judged but not retrieved: 1 candidate, no rank; they count "
                            "in the ideal list only.")
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Undo
    assert w.conventions.ideal.value == "ranked"
    assert "not in the ideal list" in label.text()
