"""The workbook of many runs: every run's NDCG per query, the deltas to the
baseline and the means as live formulas (cached values equal the engine's,
and LibreOffice recalculating them gets the same numbers, after a change of k
too), the tests on the Report, the chart of sorted deltas, and
``compare RUN RUN RUN --export``."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from openpyxl.utils import get_column_letter

from app.cli.main import main
from core.analysis.compare.many import ManyComparison, RunValues, compare_runs
from core.engine.evaluation import evaluate
from core.io.delimited import write_delimited
from core.io.workbook import SHEETS, export_runs_workbook, read_workbook
from core.io.workbook.page import LINE, lines_needed
from core.io.workbook.runs import RUNS_SHEET
from core.model.conventions import Conventions
from core.model.document import Document
from tests.libreoffice import read_values, recalculate
from tests.test_compare_many import random_run
from tests.test_workbook_comparison import _set_conventions

CONV = Conventions(cutoffs=(2, None), unknown="zero")


def three_docs() -> list[Document]:
    return [random_run(1, 12, 5), random_run(2, 12, 5, skip=4, shift=0.5),
            random_run(3, 12, 5, shift=1.0)]


def exported(path: Path, docs: list[Document], conv: Conventions = CONV,
             ) -> ManyComparison:
    evs = [evaluate(d, conv) for d in docs]
    m = compare_runs([RunValues.of(ev, f"run{i}") for i, ev in enumerate(evs)], conv,
                     resamples=300, seed=2, pairs="all")
    export_runs_workbook(m, evs, path)
    return m


def runs_rows(values: dict[str, list[list[Any]]], m: ManyComparison,
              ) -> tuple[list[list[Any]], list[list[Any]]]:
    """The Runs sheet's per-query rows and its means rows."""
    rows = values[RUNS_SHEET]
    n = len(m.common) * len(m.cutoffs)
    per_query = rows[5:5 + n]
    means = rows[5 + n + 3: 5 + n + 3 + len(m.cutoffs)]
    return per_query, means


def check_runs(values: dict[str, list[list[Any]]], m: ManyComparison, docs: list[Document],
               conv: Conventions) -> None:
    """The Runs sheet's numbers equal the engine's under ``conv``."""
    evs = [evaluate(d, conv) for d in docs]
    per_query, means = runs_rows(values, m)
    n = len(docs)
    for row in per_query:
        q, j = row[0], int(row[2]) - 1
        assert row[1] == (conv.cutoffs[j] if conv.cutoffs[j] is not None else "all")
        nd = [ev.ndcg[ev.doc.query_ids.index(q), j] for ev in evs]
        defined = not any(np.isnan(nd))
        for r in range(n):
            if np.isnan(nd[r]):
                assert row[4 + r] in ("", None)
            else:
                assert row[4 + r] == pytest.approx(nd[r], abs=1e-12)
        assert row[4 + n] == (1 if defined else 0)
        for r in range(1, n):
            if defined:
                assert row[4 + n + r] == pytest.approx(nd[r] - nd[0], abs=1e-12)
    for j, row in enumerate(means):
        nds = np.array([ev.ndcg[[ev.doc.query_ids.index(q) for q in m.common], j]
                        for ev in evs])
        use = ~np.isnan(nds).any(axis=0)
        assert use.sum() == len(m.common) - 1  # q3 has no relevant candidate
        assert row[2] == use.sum()
        for r in range(n):
            assert row[4 + r] == pytest.approx(float(nds[r, use].mean()), abs=1e-12)
        for r in range(1, n):
            d = nds[r, use] - nds[0, use]
            w, t, lo = row[4 + n + 3 * (r - 1): 4 + n + 3 * r]
            assert (w, t, lo) == (int((d > 1e-12).sum()), int((abs(d) <= 1e-12).sum()),
                                  int((d < -1e-12).sum()))


def report_tests(values: dict[str, list[list[Any]]]) -> list[list[Any]]:
    """The Report's rows of pair tests (label ``X - Y``)."""
    return [r for r in values[SHEETS["report"]] if isinstance(r[0], str) and len(r[0]) == 5
            and r[0][1:4] == " - "]


def test_cached_values_equal_the_comparison(tmp_path: Path) -> None:
    docs = three_docs()
    m = exported(tmp_path / "runs.xlsx", docs)
    wb = openpyxl.load_workbook(tmp_path / "runs.xlsx", data_only=True)
    assert wb.sheetnames[:3] == [SHEETS["report"], SHEETS["conventions"], RUNS_SHEET]
    assert {"Queries B", "Candidates C", "Summary C"} <= set(wb.sheetnames)
    values = {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}
    check_runs(values, m, docs, CONV)
    tests = report_tests(values)
    flat = [t for row in m.tests for t in row]
    assert len(tests) == len(flat) == 6
    for row, t in zip(tests, flat, strict=True):
        assert row[1] == pytest.approx(t.mean_delta, abs=1e-15)
        assert row[2:7] == [t.ci_low, t.ci_high, t.p_value, t.p_t_test, t.p_corrected]
        assert row[7] == f"{t.wins}/{t.ties}/{t.losses}"
        assert row[9] == "current"
    # The chart draws one series of sorted deltas per run against the baseline.
    chart = wb[SHEETS["report"]]._charts[0]
    assert len(chart.series) == 2
    # The workbook reopens as the baseline.
    again = read_workbook(tmp_path / "runs.xlsx")
    assert again.query_ids == docs[0].query_ids
    assert np.array_equal(again.grade, docs[0].grade, equal_nan=True)


def test_the_report_prints_whole(tmp_path: Path) -> None:
    """LibreOffice's PDF of compare A B C --export: the note under the tests
    read 'p random: two-sided paired randomization test (10000 sign' (one
    cell of column A, two lines of its height) and the chart of sorted
    deltas was cut by the page's foot, its axis on page 2; W/T/L's '1/0/1'
    sat against the corrected p's '1', reading '11/0/1'. The note spans the
    tests' columns in a row tall enough, the chart starts a page, and W/T/L
    is right-aligned as the numbers beside it are."""
    exported(tmp_path / "runs.xlsx", three_docs())
    wb = openpyxl.load_workbook(tmp_path / "runs.xlsx")
    ws = wb[SHEETS["report"]]
    note = next(c for c in ws["A"] if str(c.value).startswith("p random:"))
    merged = next(m for m in ws.merged_cells.ranges if note.coordinate in m)
    assert (merged.min_col, merged.max_col) == (1, 10)
    room = sum(ws.column_dimensions[get_column_letter(c)].width for c in range(1, 11))
    assert note.alignment.wrap_text
    assert ws.row_dimensions[note.row].height >= LINE * lines_needed(note.value, room)
    chart_row = ws._charts[0].anchor._from.row  # 0-based
    assert chart_row in [b.id for b in ws.row_breaks.brk]
    tests = [r for r in ws.iter_rows() if isinstance(r[0].value, str)
             and r[0].value[1:4] == " - " and len(r[0].value) == 5]
    assert tests
    assert {r[7].alignment.horizontal for r in tests} == {"right"}
    wb.close()


@pytest.mark.libreoffice
def test_recalculated_runs_equal_the_engine(tmp_path: Path) -> None:
    docs = three_docs()
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    m = exported(src / "runs.xlsx", docs)
    _set_conventions(src / "runs.xlsx", src / "runs_k.xlsx", {"cut_1": 3})
    plain, changed = recalculate([src / "runs.xlsx", src / "runs_k.xlsx"], out)
    values = read_values(plain)
    check_runs(values, m, docs, CONV)
    assert all(row[9] == "current" for row in report_tests(values))
    # k = 2 became 3: the Runs sheet follows; the tests at the first cutoff
    # were computed for k = 2 and say so, those at k = all are still current.
    values_k = read_values(changed)
    check_runs(values_k, m, docs, CONV.replace(cutoffs=(3, None)))
    rows = report_tests(values_k)
    first, whole = rows[:3], rows[3:]
    assert any(row[9].startswith("stale") for row in first)
    assert all(row[9] == "current" for row in whole)
    # The sorted deltas (the chart's data) are the first cutoff's deltas, sorted.
    per_query, _ = runs_rows(values_k, m)
    n = len(docs)
    deltas_b = sorted(row[4 + n + 1] for row in per_query if row[2] == 1 and row[4 + n] == 1)
    sorted_b = [row[2 + 4 * n + 1] for row in per_query[: len(deltas_b)]]
    assert sorted_b == pytest.approx(deltas_b, abs=1e-12)
    assert len(deltas_b) == len(m.common) - 1  # the rest of the column: #N/A, not drawn


def test_compare_many_runs_export_on_the_command_line(tmp_path: Path) -> None:
    paths = []
    for i, doc in enumerate(three_docs()):
        path = tmp_path / f"r{i}.csv"
        write_delimited(doc, path)
        paths.append(str(path))
    out = io.StringIO()
    assert main(["compare", *paths, "--k", "2", "--unjudged", "zero", "--resamples", "50",
                 "--export", str(tmp_path / "runs.xlsx")], out=out) == 0
    assert f"wrote {tmp_path / 'runs.xlsx'}" in out.getvalue()
    wb = openpyxl.load_workbook(tmp_path / "runs.xlsx", data_only=True)
    assert wb[RUNS_SHEET]["E5"].value == "NDCG A"
    assert len(report_tests({SHEETS["report"]: [list(r) for r in wb[SHEETS["report"]]
                                                .iter_rows(values_only=True)]})) == 2
