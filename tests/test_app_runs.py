"""Review > Compare with runs…: several runs against the open document, the
pairs' statistics in their dock, each run's NDCG and delta in the navigator,
the tables papers print on the clipboard.

The example window holds the seed's cases A-F (cutoffs 1, 2, all). Run B
puts case-A's A (grade 3) first, which makes case-A ideal: NDCG@1 of case-A
goes from 1/3 to 1 (delta +2/3) and NDCG@all from (1 + 3/L) / (3 + 1/L) to
1, L = log2(3); run C is the example's own order (every delta 0).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog

from app.models.queries import QueryColumn
from app.review.runs_view import PairColumn, RunsView
from core.analysis.compare.many import RunValues, compare_runs
from core.engine.evaluation import evaluate
from core.io.pairs import run_with_judgments
from core.model.examples import CASES

L = math.log2(3)
CASE_A_ALL = (1 + 3 / L) / (3 + 1 / L)
ALL = 2


def write_run(path: Path, swap_case_a: bool) -> str:
    lines = []
    for q, source, score, _grade in CASES:
        if swap_case_a and q == "case-A":
            score = {"A": 3.0, "B": 2.0, "C": 1.0}[source]
        lines.append(f"{q} Q0 {source} 1 {score} test")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture
def compared(qtbot, monkeypatch, window, tmp_path):  # type: ignore[no-untyped-def]
    paths = [write_run(tmp_path / "b.run", True), write_run(tmp_path / "c.run", False)]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *a, **k: (paths, "")))
    window.app_actions["compare_many"].trigger()
    dock = window.docks["runsViewDock"]  # (its view made when the comparison shows it)
    qtbot.waitUntil(lambda: getattr(dock.widget(), "comparison", None) is not None,
                    timeout=20000)
    view = dock.widget()
    assert isinstance(view, RunsView)
    return window, view, paths


def test_the_pairs_statistics_are_core_numbers(compared) -> None:  # type: ignore[no-untyped-def]
    window, view, paths = compared
    assert window.docks["runsViewDock"].isVisible()
    rows = view.model.rows()
    assert [r[PairColumn.PAIR] for r in rows] == [  # (each run's tag beside its file's name)
        f"b.run (test) - {view.comparison.baseline}", f"c.run (test) - {view.comparison.baseline}"]
    doc, conv = window.document, window.conventions
    values = [RunValues.of(evaluate(doc, conv), "x")] + [
        RunValues.of(evaluate(run_with_judgments(p, doc), conv), Path(p).name) for p in paths]
    m = compare_runs(values, conv, resamples=10000, seed=0)
    for row, t in zip(rows, m.tests[0], strict=True):
        assert row[PairColumn.DELTA] == t.mean_delta
        assert row[PairColumn.P_RANDOM] == t.p_value
        assert row[PairColumn.P_CORRECTED] == t.p_corrected
        assert row[PairColumn.CI_LOW] == t.ci_low
    # By hand: only case-A changes, by 2/3 at k = 1, over the queries compared.
    n = view.comparison.means[0][0].included
    assert rows[0][PairColumn.DELTA] == pytest.approx(2 / 3 / n, abs=1e-15)
    assert rows[0][PairColumn.WTL] == f"1/{n - 1}/0"
    assert rows[1][PairColumn.DELTA] == 0.0
    assert "Mean NDCG@1" in view.header.text()


def test_the_header_counts_the_pairs_tested_not_the_runs(compared) -> None:  # type: ignore[no-untyped-def]
    """Three runs (the window's and two files), two pairs against the
    baseline: the correction is over 2 pairs (it said "over the 2 runs")."""
    _window, view, _paths = compared
    m = view.comparison
    assert (len(m.runs), len(m.tests[0])) == (3, 2)
    assert view.header.text().splitlines()[-1] == (
        f"p corrected at most 0.05: two-sided paired randomization test "
        f"({m.resamples} sign vectors at most, seed {m.seed}), p-values Holm-corrected "
        f"over the 2 pairs tested at each cutoff (the baseline ({m.baseline}) against "
        "each other run).")


def test_the_navigator_shows_each_run_and_its_delta(qtbot, qtmodeltester, compared) -> None:  # type: ignore[no-untyped-def]
    window, view, _paths = compared
    model = window.navigator.model
    qtmodeltester.check(model)
    base = len(QueryColumn)
    assert model.columnCount() == base + 4
    assert model.headerData(base, Qt.Orientation.Horizontal) == "NDCG@1 B"
    assert model.headerData(base + 1, Qt.Orientation.Horizontal) == "Δ B"
    q = window.document.query_index("case-A")
    assert model.index(q, base).data() == 1.0
    assert model.index(q, base + 1).data() == pytest.approx(2 / 3, abs=1e-15)
    assert model.index(q, base + 3).data() == 0.0  # run C: the example's own order
    # Sorting by run B's delta puts case-A (the one gain) last, ascending.
    proxy = window.navigator.proxy
    proxy.sort(base + 1, Qt.SortOrder.AscendingOrder)
    last = proxy.mapToSource(proxy.index(proxy.rowCount() - 1, 0)).row()
    assert last == q
    # Another cutoff in the dock: the navigator's run columns follow it.
    view.cutoff.setCurrentIndex(ALL)
    assert model.headerData(base, Qt.Orientation.Horizontal) == "NDCG@all B"
    assert model.index(q, base + 1).data() == pytest.approx(1 - CASE_A_ALL, abs=1e-15)
    # Unticked (a real click): the columns go.
    box = view.in_navigator
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    assert not box.isChecked()
    assert model.columnCount() == base


def test_copy_the_papers_tables(qtbot, compared) -> None:  # type: ignore[no-untyped-def]
    _window, view, _paths = compared
    qtbot.mouseClick(view.copy_latex, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert "\\toprule" in text
    assert "b.run" in text
    qtbot.mouseClick(view.copy_markdown, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text().startswith("|  | run | NDCG@1 |")
