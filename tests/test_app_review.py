"""Reviewing in the window: compare two runs, explain a disagreement (the
Judges dock: tests/test_app_judges.py).

The example window holds the seed's cases A-F (cutoffs 1, 2, all). The
second run differs from it only in case-A's order: A (grade 3) is put before
B (grade 1), which makes case-A ideal. By hand, with L = log2(3):
NDCG@all of case-A goes from (1 + 3/L) / (3 + 1/L) = 0.796708 to 1, and
NDCG@1 from 1/3 to 1; every other query keeps its value (delta 0).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from app.models.candidates import GridColumn
from app.models.looks import TONES
from app.review.compare_view import ChangeColumn, CompareColumn
from app.review.explain_view import StepColumn
from core.analysis.aggregate import summarize
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.pairs import run_with_judgments
from core.model.conventions import UnknownRule
from core.model.document import Document, GradeState
from core.model.examples import CASES
from core.model.presets import apply_preset, preset

L = math.log2(3)
CASE_A_ALL = (1 + 3 / L) / (3 + 1 / L)
ALL = 2  # index of the cutoff "all" in the example's (1, 2, all)


#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def _run_lines(swap_case_a: bool = True) -> list[str]:
    """The example as a TREC run (rank column ignored), case-A reordered."""
    lines = []
    for q, source, score, _grade in CASES:
        if swap_case_a and q == "case-A":
            score = {"A": 3.0, "B": 2.0, "C": 1.0}[source]
        lines.append(f"{q} Q0 {source} 1 {score} test")
    return lines


def _compare(qtbot, monkeypatch, w, path):
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    w.app_actions["compare_runs"].trigger()
    view = w.compare_view.view
    qtbot.waitUntil(lambda: view.comparison is not None, timeout=20000)
    return view


def _click_row(qtbot, table, row: int, column: int = 0) -> None:
    rect = table.visualRect(table.model().index(row, column))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


# -- core helper -----------------------------------------------------------------------------
def test_run_with_judgments_grades_the_run_with_the_open_document(tmp_path):
    doc = Document.from_columns(
        query=["q1", "q1", "q1", "q2"], source_id=["a", "b", "c", "a"],
        score=[3, 2, 1, 1], grade=[2, None, 0, 1], judgment_version="j7",
        frequency={"q1": 5.0})
    doc.set_grade(2, None, GradeState.UNRATEABLE, who="t", reason="broken link")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 b 1 9 r\nq1 Q0 z 2 8 r\nq1 Q0 a 3 7 r\nq9 Q0 a 1 1 r\n")
    b = run_with_judgments(run, doc)
    assert b.query_ids == ["q1"]  # q9 is not judged, q2 not in the run
    assert list(b.source_id) == ["b", "z", "a", "c"]  # run rows, then judged not retrieved
    assert b.score[:3].tolist() == [9.0, 8.0, 7.0]
    assert math.isnan(b.score[3])
    assert b.state.tolist() == [GradeState.UNKNOWN, GradeState.UNKNOWN, GradeState.NUMBER,
                                GradeState.UNRATEABLE]
    assert b.grade[2] == 2.0
    assert b.reason[3] == "broken link"
    assert b.judgment_version == "j7"
    assert b.frequency.tolist() == [5.0]
    assert b.conventions == doc.conventions
    bad = tmp_path / "other.txt"
    bad.write_text("x Q0 a 1 1 r\n")
    with pytest.raises(InputError, match="no query of this run"):
        run_with_judgments(bad, doc)


# -- compare ----------------------------------------------------------------------------------
def test_compare_trec_run_hand_computed(qtbot, monkeypatch, window, tmp_path, qtmodeltester):
    w = window
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    assert w.docks["compareViewDock"].isVisible()
    qtmodeltester.check(view.model)
    view.cutoff.setCurrentIndex(ALL)
    rows = view.model.rows()
    # Largest |delta| first: case-A wins, the other defined queries tie, the
    # undefined and unresolved ones are not comparable.
    assert rows[0][CompareColumn.QUERY] == "case-A"
    assert rows[0][CompareColumn.NDCG_A] == pytest.approx(CASE_A_ALL, abs=1e-12)
    assert rows[0][CompareColumn.NDCG_B] == pytest.approx(1.0, abs=1e-12)
    assert rows[0][CompareColumn.DELTA] == pytest.approx(1 - CASE_A_ALL, abs=1e-12)
    assert rows[0][CompareColumn.OUTCOME] == "win"
    outcomes = {r[CompareColumn.QUERY]: r[CompareColumn.OUTCOME] for r in rows}
    assert outcomes == {
        "case-A": "win", "case-B": "tie", "case-C": "tie", "case-D-doubled": "tie",
        "case-D-plus-one": "tie", "case-E": "tie", "case-F-zero": "not comparable",
        "case-F-unknown": "not comparable",
    }
    unknown = next(r for r in rows if r[CompareColumn.QUERY] == "case-F-unknown")
    assert unknown[CompareColumn.NDCG_A] == "? unresolved"  # (the navigator's mark)
    assert unknown[CompareColumn.DELTA] is None
    text = view.header.text()
    assert f"mean delta B - A {(1 - CASE_A_ALL) / 6:+.4f}" in text
    assert "B wins 1, ties 5, loses 0" in text
    assert "exact over all 64 sign vectors) p = 1" in text  # every sign vector is as extreme
    assert "(10000 resamples, seed 0)" in text  # the bootstrap interval
    assert "Tie rules: 0 queries' delta changes sign" in text
    assert "Only the ranking order differs between the two documents" in text
    # At cutoff 1: 1/3 -> 1.
    view.cutoff.setCurrentIndex(0)
    first = view.model.rows()[0]
    assert first[CompareColumn.DELTA] == pytest.approx(2 / 3, abs=1e-12)


def test_compare_names_the_run_queries_the_document_does_not_hold(qtbot, monkeypatch, window,
                                                                  tmp_path):
    """The run's queries the open document does not hold are left out of
    the comparison (no grades judge them) and named in the header."""
    run = tmp_path / "more.run"
    run.write_text("\n".join([*_run_lines(), "new-q Q0 zz 1 1.0 test",
                              "new-r Q0 zz 1 1.0 test"]) + "\n")
    view = _compare(qtbot, monkeypatch, window, run)
    assert "new-q" not in {r[CompareColumn.QUERY] for r in view.model.rows()}
    assert ("Not compared: 2 queries ranked but never judged (new-q, new-r) (not in the "
            "table).") in view.header.text()
    assert len(view.model.rows()) == 8  # the example's queries, as without them
    assert view.stats.text("Queries").endswith(
        "; not compared: 2 queries ranked but never judged (new-q, new-r)")


def test_compare_statistics_are_a_form_of_their_own(qtbot, monkeypatch, window, tmp_path):
    w = window
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    view.cutoff.setCurrentIndex(ALL)
    stats = view.stats
    assert stats.title() == "Paired statistics at NDCG@all"
    assert stats.text("Queries").startswith("6 with NDCG@all defined in both (equal-query mean")
    assert stats.text("MeanDelta") == f"<b>{(1 - CASE_A_ALL) / 6:+.4f}</b>"
    # green for a gain (the sign says it too), in the variant of the palette in use
    assert stats.values["MeanDelta"].styleSheet() == f"color: {TONES['ok'].light}"
    assert stats.text("PValue").startswith("<b>1</b> (two-sided paired randomization test, "
                                           "exact over all 64 sign vectors)")
    test = view.comparison.tests[ALL]
    assert stats.text("Interval").startswith(
        f"<b>[{test.ci_low:+.4f}, {test.ci_high:+.4f}]</b> (95% bootstrap")
    assert stats.text("Outcomes") == "1 / 5 / 0"
    # Visible without scrolling: above the tables, not inside a scrolling pane.
    assert stats.isVisibleTo(view)
    assert stats.geometry().bottom() < view.table.mapTo(view, view.table.rect().topLeft()).y()
    # The plots dock draws the same mean and interval.
    ax = w.plots.panel.compare_canvas.figure_.axes[0]
    mean = next(line for line in ax.lines if line.get_linestyle() == "--")
    assert mean.get_ydata()[0] == pytest.approx(test.mean_delta)


def test_compare_follows_the_decimals_setting(qtbot, monkeypatch, window, tmp_path):
    """Decimals 2, typed in Preferences after comparing: the header's paired
    test (means, delta, interval) and the statistics show two digits, as every
    other number does; the model keeps full precision. By hand the mean delta
    at NDCG@all is (1 - 0.796708) / 6 = +0.033882 -> +0.03."""
    from PySide6.QtWidgets import QDialog

    from app.preferences import PreferencesDialog

    def fill(dialog):
        dialog.decimals.setFocus()
        dialog.decimals.selectAll()
        qtbot.keyClicks(dialog.decimals, "2")
        return int(QDialog.DialogCode.Accepted.value)

    w = window
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    view.cutoff.setCurrentIndex(ALL)
    delta = (1 - CASE_A_ALL) / 6
    assert f"mean delta B - A {delta:+.4f};" in view.header.text()
    monkeypatch.setattr(PreferencesDialog, "exec", fill)
    qtbot.mouseClick(w.preferences.button, Qt.MouseButton.LeftButton)
    assert w.decimals() == 2
    test = view.comparison.tests[ALL]
    text = view.header.text()
    assert f"A {test.mean_a:.2f}, B {test.mean_b:.2f}, mean delta B - A +0.03;" in text
    assert f"interval [{test.ci_low:+.2f}, {test.ci_high:+.2f}] (10000 resamples" in text
    assert f"Mean NDCG@all: A {test.mean_a:.2f} over" in text
    assert not any(f"{x:.4f}" in text for x in (test.mean_a, test.mean_b, abs(delta)))
    assert view.stats.text("MeanDelta") == "<b>+0.03</b>"
    assert view.stats.text("MeanA") == f"{test.mean_a:.2f}"
    assert view.model.rows()[0][CompareColumn.DELTA] == pytest.approx(1 - CASE_A_ALL, abs=1e-15)
    # the JSON and the command line keep core's four digits
    assert f"mean delta B - A {delta:+.4f};" in test.sentence()


def test_selecting_a_row_shows_changes_and_switches_query(qtbot, monkeypatch, window, tmp_path,
                                                          qtmodeltester):
    w = window
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    view.cutoff.setCurrentIndex(ALL)
    w.set_query(w.document.query_index("case-C"))
    _click_row(qtbot, view.table, 0)
    assert w.current_query == w.document.query_index("case-A")
    qtmodeltester.check(view.changes_model)
    changes = view.changes_model.rows()
    # A: rank 2 -> 1 gains 3 - 3/L; B: rank 1 -> 2 loses 1 - 1/L; C stays.
    assert [(r[ChangeColumn.SOURCE], r[ChangeColumn.KIND], r[ChangeColumn.RANK_A],
             r[ChangeColumn.RANK_B]) for r in changes] == [("A", "moved", 2, 1),
                                                           ("B", "moved", 1, 2)]
    assert changes[0][ChangeColumn.GAINED] == pytest.approx(3 - 3 / L, abs=1e-12)
    assert changes[1][ChangeColumn.GAINED] == pytest.approx(1 / L - 1, abs=1e-12)
    assert view.changes_title.text() == (
        "case-A: 2 candidates moved, entered, left or were regraded at NDCG@all")
    # Another row: a tie has no changes, and the window follows.
    row = next(i for i, r in enumerate(view.model.rows()) if r[CompareColumn.QUERY] == "case-E")
    _click_row(qtbot, view.table, row)
    assert w.current_query_id == "case-E"
    assert view.changes_model.rowCount() == 0
    assert view.changes_title.text() == (
        "case-E: 0 candidates moved, entered, left or were regraded at NDCG@all")


def test_plots_dock_shows_sorted_deltas(qtbot, monkeypatch, window, tmp_path):
    w = window
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    view.cutoff.setCurrentIndex(ALL)
    ax = w.plots.panel.compare_canvas.figure_.axes[0]
    heights = [p.get_height() for p in ax.patches]
    # Six defined deltas, sorted: five ties, then case-A's gain.
    assert heights == pytest.approx([0.0] * 5 + [1 - CASE_A_ALL], abs=1e-12)
    assert w.plots.panel.tabs.currentIndex() == 2
    view.cutoff.setCurrentIndex(0)
    heights = [p.get_height() for p in w.plots.panel.compare_canvas.figure_.axes[0].patches]
    assert heights == pytest.approx([0.0] * 5 + [2 / 3], abs=1e-12)


def test_compare_worksheet_lists_queries_in_one_run_and_sorts(qtbot, monkeypatch, window,
                                                              tmp_path, qtmodeltester):
    w = window
    lines = ["query,source_id,version,score,grade"]
    for q, source, score, grade in CASES:
        if q == "case-B":
            continue  # only in A
        if q == "case-A":
            score = {"A": 3.0, "B": 2.0, "C": 1.0}[source]
        lines.append(f"{q},{source},v1,{score},{'' if grade is None else grade}")
    lines.append("case-Z,X,v1,1.0,2")  # only in B
    path = tmp_path / "other.csv"
    path.write_text("\n".join(lines) + "\n")
    view = _compare(qtbot, monkeypatch, w, path)
    view.cutoff.setCurrentIndex(ALL)
    rows = view.model.rows()
    only = {r[CompareColumn.QUERY]: r for r in rows if str(r[CompareColumn.OUTCOME]).startswith(
        "only")}
    assert set(only) == {"case-B", "case-Z"}
    assert only["case-B"][CompareColumn.OUTCOME] == "only in A"
    assert only["case-B"][CompareColumn.NDCG_B] is None
    assert only["case-Z"][CompareColumn.NDCG_B] == pytest.approx(1.0)
    assert "only in A (1): case-B" in view.header.text()
    # Sort by delta through the header, descending on a second click.
    header = view.table.horizontalHeader()
    x = header.sectionViewportPosition(CompareColumn.DELTA) + header.sectionSize(
        CompareColumn.DELTA) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(x, header.height() // 2))
    deltas = [r[CompareColumn.DELTA] for r in view.model.rows()]
    defined = [d for d in deltas if d is not None]
    assert deltas[:len(defined)] == sorted(defined)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(x, header.height() // 2))
    deltas = [r[CompareColumn.DELTA] for r in view.model.rows()]
    assert deltas[0] == pytest.approx(1 - CASE_A_ALL)
    assert deltas[:len(defined)] == sorted(defined, reverse=True)
    qtmodeltester.check(view.model)


def test_compare_bad_file_shows_error_not_traceback(qtbot, monkeypatch, window, tmp_path):
    shown = []
    monkeypatch.setattr("app.review.compare_dock.show_error",
                        lambda parent, title, exc: shown.append(str(exc)))
    path = tmp_path / "broken.csv"
    path.write_text("query,source_id,score,grade\nq,a,notanumber,1\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.app_actions["compare_runs"].trigger()
    qtbot.waitUntil(lambda: bool(shown), timeout=20000)
    assert "broken.csv" in shown[0]
    assert window.compare_view.view.comparison is None


# -- explain ----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["sklearn", "trec_eval"])
@pytest.mark.parametrize("query", ["case-A", "case-E", "case-F-unknown"])
def test_explain_steps_sum_to_the_total(qtbot, window, qtmodeltester, preset, query):
    w = window
    w.set_query(w.document.query_index(query))
    w.app_actions["explain_disagreement"].trigger()
    view = w.explain_view.view
    assert w.docks["explainViewDock"].isVisible()
    view.preset.setCurrentText(preset)
    view.cutoff.setCurrentIndex(ALL)
    qtmodeltester.check(view.model)
    rows = view.model.rows()
    steps, total = rows[:-1], rows[-1]
    assert total[StepColumn.CONVENTION] == "total"
    end = apply_preset(w.conventions, preset)  # the one rule: cutoffs and the rest kept
    q = w.current_query
    before = evaluate(w.document, w.conventions).ndcg[q, ALL]
    after = evaluate(w.document, end).ndcg[q, ALL]
    if math.isnan(before) or math.isnan(after):
        assert total[StepColumn.QUERY_CHANGE] is None
    else:
        assert total[StepColumn.QUERY_CHANGE] == pytest.approx(after - before, abs=1e-12)
        assert sum(s[StepColumn.QUERY_CHANGE] for s in steps) == pytest.approx(
            after - before, abs=1e-12)
    assert sum(s[StepColumn.MEAN_CHANGE] for s in steps) == pytest.approx(
        total[StepColumn.MEAN_CHANGE], abs=1e-12)
    fields = [s[StepColumn.CONVENTION] for s in steps]
    assert "unknown" in fields
    assert "zero_ideal" in fields
    assert ("ties" in fields) == (preset == "trec_eval")
    assert "No peer preset matches" in view.peers.text()
    assert "nearest" in view.peers.text()


def test_explain_trec_eval_case_e_tie_step(qtbot, window):
    """case-E: X (3) and Y (1) tie at 0.5. Averaged: DCG@all = 2 * (1 + 1/L) = 3.261860 over
    IDCG 3 + 1/L; trec_eval breaks the tie by id descending, Y before X: DCG = 1 + 3/L."""
    w = window
    w.set_query(w.document.query_index("case-E"))
    w.explain_view.open()
    view = w.explain_view.view
    view.preset.setCurrentText("trec_eval")
    view.cutoff.setCurrentIndex(ALL)
    step = next(r for r in view.model.rows() if r[StepColumn.CONVENTION] == "ties")
    assert (step[StepColumn.FROM], step[StepColumn.TO]) == ("average", "id-desc")
    idcg = 3 + 1 / L
    assert step[StepColumn.QUERY_CHANGE] == pytest.approx(
        (1 + 3 / L) / idcg - 2 * (1 + 1 / L) / idcg, abs=1e-12)


def test_explain_from_one_preset_to_another(qtbot, window):
    # trec_eval against sklearn on the window's document, whatever the
    # current conventions: the steps add up to the difference of the means.
    w = window
    w.set_query(w.document.query_index("case-E"))
    w.explain_view.open()
    view = w.explain_view.view
    view.start.setCurrentIndex(view.start.findData("trec_eval"))
    view.preset.setCurrentText("sklearn")
    view.cutoff.setCurrentIndex(ALL)
    assert "From trec_eval to sklearn" in view.title.text()
    rows = view.model.rows()
    steps, total = rows[:-1], rows[-1]
    assert (total[StepColumn.FROM], total[StepColumn.TO]) == ("trec_eval", "sklearn")
    first, second = (preset(name, cutoffs=w.conventions.cutoffs,
                                             rubric=w.conventions.rubric)
                     for name in ("trec_eval", "sklearn"))
    mean = [summarize(evaluate(w.document, c))[ALL].mean for c in (first, second)]
    assert total[StepColumn.MEAN_CHANGE] == pytest.approx(mean[1] - mean[0], abs=1e-12)
    assert sum(s[StepColumn.MEAN_CHANGE] for s in steps) == pytest.approx(
        mean[1] - mean[0], abs=1e-12)
    tie = next(s for s in steps if s[StepColumn.CONVENTION] == "ties")
    assert (tie[StepColumn.FROM], tie[StepColumn.TO]) == ("id-desc", "average")
    # Back to the current conventions: the ties step runs the other way round.
    view.start.setCurrentIndex(0)
    assert "From current conventions to sklearn" in view.title.text()

def test_explain_peer_commands_for_matching_conventions(qtbot, window):
    w = window
    w.change_conventions(preset("trec_eval", cutoffs=(1, 2, None)))
    w.explain_view.open()
    text = w.explain_view.view.peers.text()
    assert "trec_eval -c -m ndcg_cut.1,2 -m ndcg QRELS RUN" in text
    # Same conventions: no step, the total is 0.
    w.explain_view.view.preset.setCurrentText("trec_eval")
    rows = w.explain_view.view.model.rows()
    assert [r[StepColumn.CONVENTION] for r in rows] == ["total"]
    assert rows[0][StepColumn.MEAN_CHANGE] == 0.0


# -- the comparison after an edit, in its dock; the docks' imports ------------------------------
# (the Judges dock: tests/test_app_judges.py)

def test_a_grade_edit_marks_the_comparison_stale_and_compare_again_updates(
        qtbot, monkeypatch, window, tmp_path):
    w = window
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    assert view.stale.text() == ""
    # Current: the button says so and offers nothing (it read "Compare
    # again", enabled, though nothing had changed: fails before).
    assert (view.recompute_button.text(), view.recompute_button.isEnabled()) == (
        "Up to date", False)
    first = view.comparison
    # Grade case-A's C (rank 3 in both runs) 3 with a real key click: both runs
    # use the open document's grades, so the delta at all changes.
    w.set_query(w.document.query_index("case-A"))
    c = int(np.flatnonzero((w.document.query == 0) & (w.document.source_id == "C"))[0])
    row = w.grid_model.row_of(c)
    w.grid.setCurrentIndex(w.grid_model.index(row, GridColumn.GRADE))
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_3)
    assert "compare again" in view.stale.text()
    assert (view.recompute_button.text(), view.recompute_button.isEnabled()) == (
        "Compare again", True)
    qtbot.mouseClick(view.recompute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.comparison is not first, timeout=20000)
    assert view.stale.text() == ""
    assert (view.recompute_button.text(), view.recompute_button.isEnabled()) == (
        "Up to date", False)
    view.cutoff.setCurrentIndex(ALL)
    # Grades A 3, B 1, C 3: A's order B, A, C: DCG 1 + 3/L + 3/2; B's A, B, C:
    # 3 + 1/L + 3/2; ideal A, C, B: 3 + 3/L + 1/2.
    idcg = 3 + 3 / L + 0.5
    case_a = view.model.rows()[0]
    assert case_a[CompareColumn.QUERY] == "case-A"
    assert case_a[CompareColumn.DELTA] == pytest.approx(
        (3 + 1 / L + 1.5) / idcg - (1 + 3 / L + 1.5) / idcg, abs=1e-12)


def test_the_comparison_table_fills_its_dock(qtbot, monkeypatch, window, tmp_path):
    """Its columns share the room their contents leave, the table filled
    to its edge: under Xvfb at 1920x1080 ~40 px stood blank at its right
    (fails before: the columns kept their contents' widths)."""
    run = tmp_path / "swapped.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, window, run)
    dock = window.compare_view.dock
    dock.setFloating(True)
    table = view.table
    header = table.horizontalHeader()
    for width in (700, 520):
        dock.resize(width, 700)
        qtbot.waitUntil(lambda w=width: abs(dock.width() - w) < 40)
        qtbot.wait(1)
        QApplication.processEvents()
        asked = sum(max(header.sectionSizeHint(c), table.sizeHintForColumn(c))
                    for c in CompareColumn)
        assert asked < table.viewport().width()  # (room to spare)
        assert header.length() == table.viewport().width(), width
    window.session.mark_saved()


def test_review_views_share_only_common():
    """The three docks import app.review.common (and the comparison its own
    statistics form and controller), never each other."""
    import ast
    from pathlib import Path

    import app.review

    folder = Path(app.review.__file__).parent
    views = {"compare_view", "explain_view", "judges_view", "runs_view"}
    own = {"compare_view": {"app.review.compare_stats"},
           "compare_dock": {"app.review.compare_view"}}  # (the comparison's controller)
    for name in (*views, "compare_stats", "compare_dock"):
        tree = ast.parse((folder / f"{name}.py").read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        review = {m for m in imported if m.startswith("app.review")}
        assert review <= {"app.review.common"} | own.get(name, set()), (name, review)


# -- the comparison follows the conventions ----------------------------------------------------
def _unjudged_pair(tmp_path):  # type: ignore[no-untyped-def]
    """Run A with qrels (d3 and d4 unjudged: every query unresolved) and run B."""
    qrels, run_a, run_b = tmp_path / "qrels.txt", tmp_path / "a.run", tmp_path / "b.run"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 1\nq2 0 d1 1\nq2 0 d2 3\n")
    run_a.write_text("q1 Q0 d1 1 3.0 a\nq1 Q0 d3 2 2.0 a\nq1 Q0 d2 3 1.0 a\n"
                     "q2 Q0 d4 1 2.0 a\nq2 Q0 d1 2 1.0 a\n")
    run_b.write_text("q1 Q0 d3 1 3.0 b\nq1 Q0 d1 2 2.0 b\nq1 Q0 d2 3 1.0 b\n"
                     "q2 Q0 d1 1 2.0 b\nq2 Q0 d4 2 1.0 b\n")
    return run_a, qrels, run_b


def _faded(view) -> bool:  # type: ignore[no-untyped-def]
    """The per-query table, the statistics and the header all muted."""
    from app.models.looks import colour

    muted = f"color: {colour('muted')}"
    index = view.model.index(0, CompareColumn.DELTA)
    return (view.model.data(index, Qt.ItemDataRole.ForegroundRole) is not None
            and view.model.data(index, Qt.ItemDataRole.BackgroundRole) is None
            and view.stats.values["Queries"].styleSheet() == muted
            and view.header.styleSheet() == muted)


def test_the_comparison_follows_a_convention_change_and_points_to_count_as_not_relevant(
        qtbot, monkeypatch, tmp_path):
    """After Count as not relevant the dock kept its old numbers in full
    colour under one "compare again" line (a reviewer's day, item 4), and
    with every query unresolved it never said the way out. Now the dock says
    it, with the banner's button; a convention change compares the same two
    runs again in the background, the old numbers faded meanwhile; a grade
    edit fades them (Compare again), and its undo shows them current."""
    from app.main import build_window

    run_a, qrels, run_b = _unjudged_pair(tmp_path)
    w = build_window(run_a, qrels=qrels)
    qtbot.addWidget(w)
    w.show()
    view = _compare(qtbot, monkeypatch, w, run_b)
    first = view.comparison
    assert [r[CompareColumn.OUTCOME] for r in view.model.rows()] == ["not comparable"] * 2
    assert not view.unresolved_note.isHidden()
    assert view.unresolved_note.text() == (
        "No query has an NDCG in both runs: the candidates not in the qrels (unjudged; 2 of "
        "A's 5, 2 of B's 5 retrieved) leave them unresolved. Count as not relevant, here or "
        "in the banner above the grid, counts them as not relevant, as trec_eval does; the "
        "comparison follows.")
    assert view.count_button.text() == "Count as not relevant"
    # The cutoff's menu shows its choice whole (filled after its first show,
    # it was sized for none: "NDCG@all" read "NDCG@a" at 1280x800).
    assert view.cutoff.width() >= view.cutoff.sizeHint().width()
    # The banner's button, a real click: compared again, faded meanwhile.
    qtbot.mouseClick(w.unjudged_banner.buttons["treatAsNotRelevant"],
                     Qt.MouseButton.LeftButton)
    assert w.conventions.unknown is UnknownRule.ZERO
    assert view.stale.text() == "Conventions changed: comparing again…"
    assert _faded(view)
    assert not view.recompute_button.isEnabled()
    assert view.count_button.isHidden()  # (being taken)
    qtbot.waitUntil(lambda: view.comparison is not first, timeout=20000)
    assert view.stale.text() == ""
    assert not _faded(view)
    assert view.unresolved_note.isHidden()
    assert view.count_button.isHidden()
    # By hand (ranked ideal, unjudged gain 0), L = log2(3): q1 A d1 d3 d2,
    # B d3 d1 d2, ideal 2, 1, 0; q2 A d4 d1, B d1 d4, ideal 1.
    idcg = 2 + 1 / L
    q1_a, q1_b, q2_a, q2_b = 2.5 / idcg, (2 / L + 0.5) / idcg, 1 / L, 1.0
    rows = view.model.rows()
    assert [r[CompareColumn.QUERY] for r in rows] == ["q2", "q1"]  # largest |delta| first
    for row, a, b in ((rows[0], q2_a, q2_b), (rows[1], q1_a, q1_b)):
        assert row[CompareColumn.NDCG_A] == pytest.approx(a, abs=1e-12)
        assert row[CompareColumn.NDCG_B] == pytest.approx(b, abs=1e-12)
    test = view.comparison.tests[view.j]
    assert (test.n, test.mean_delta) == (2, pytest.approx((q1_b - q1_a + q2_b - q2_a) / 2))
    # Undo: unresolved again, compared again, the note back; the dock's own button.
    current = view.comparison
    w.session.undo()
    qtbot.waitUntil(lambda: view.comparison is not current, timeout=20000)
    assert not view.unresolved_note.isHidden()
    current = view.comparison
    qtbot.mouseClick(view.count_button, Qt.MouseButton.LeftButton)
    assert w.conventions.unknown is UnknownRule.ZERO
    qtbot.waitUntil(lambda: view.comparison is not current, timeout=20000)
    assert view.comparison.tests[view.j].n == 2
    # A grade edit: faded, Compare again; its undo: current again.
    current = view.comparison
    w.set_query(w.document.query_index("q1"))
    w.grid.setCurrentIndex(w.grid_model.index(1, GridColumn.GRADE))  # d3
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_2)
    assert view.stale.text() == "Grades changed: compare again to update these numbers."
    assert _faded(view)
    assert view.recompute_button.isEnabled()
    w.session.undo()
    assert view.stale.text() == ""
    assert not _faded(view)
    assert view.comparison is current
    assert not view.recompute_button.isEnabled()  # (current again: nothing to redo)
    w.session.mark_saved()


def test_a_comparison_that_cannot_be_worked_out_again_says_so_in_the_dock(
        qtbot, monkeypatch, tmp_path):
    """Run B gone when the conventions change: no message box over the
    grading, the dock says why, the old numbers stay faded, Compare again
    offered."""
    from app.main import build_window

    run_a, qrels, run_b = _unjudged_pair(tmp_path)
    w = build_window(run_a, qrels=qrels)
    qtbot.addWidget(w)
    view = _compare(qtbot, monkeypatch, w, run_b)
    boxes: list[str] = []
    monkeypatch.setattr("app.review.compare_dock.show_error",
                        lambda parent, title, exc: boxes.append(str(exc)))
    run_b.unlink()
    qtbot.mouseClick(w.unjudged_banner.buttons["treatAsNotRelevant"],
                     Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "failed" in view.stale.text(), timeout=20000)
    assert view.stale.text() == (
        "These numbers are no longer current; comparing again failed: "
        f"{run_b}: no such file (check the path)")
    assert _faded(view)
    assert view.recompute_button.isEnabled()
    assert boxes == []
    w.session.mark_saved()
