"""The comparison workbook: run A's audited sheets, run B's beside them and a
Comparison sheet whose NDCG values, deltas, outcomes and paired means are
formulas over both Queries sheets.

Without a spreadsheet engine: the cached results equal hand-computed deltas and
``core.analysis.compare``. With headless LibreOffice (one ``soffice`` call for every
workbook): each Comparison formula equals ``core.analysis.compare`` to 1e-12, as
exported and after k and other rules are changed in the shared Conventions
sheet. A missing LibreOffice fails these tests, never skips them.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from openpyxl.utils import get_column_letter

from app.cli.main import main
from core.analysis.compare import compare
from core.io.delimited import write_delimited
from core.io.workbook import (
    COMPARISON_COLUMNS,
    COMPARISON_HEADER_ROW,
    COMPARISON_SHEETS,
    MEANS_COLUMNS,
    RESAMPLING_COLUMNS,
    SHEETS,
    export_comparison_workbook,
    read_workbook,
)
from core.io.workbook.page import lines_needed
from core.model.conventions import Conventions, Gain
from core.model.document import Document
from core.model.examples import CASES, seed_document
from tests.libreoffice import read_values, recalculate
from tests.test_workbook_export import _assert_same_document, _same, check_values, make_document

L = math.log2(3.0)

# Run B of the seed: case-A reordered to A, B, C (better), case-B to C, B, A
# (worse), case-E dropped, case-G added; every other query as in A.
_B_ROWS: dict[str, list[tuple[str, float, float | None]]] = {
    "case-A": [("A", 3.0, 3.0), ("B", 2.0, 1.0), ("C", 1.0, 0.0)],
    "case-B": [("C", 3.0, 0.0), ("B", 2.0, 1.0), ("A", 1.0, 3.0)],
    "case-G": [("X", 1.0, 2.0), ("Y", 0.5, 0.0)],
}


def seed_pair() -> tuple[Document, Document]:
    a = seed_document()
    rows: list[tuple[str, str, float, float | None]] = []
    for q in dict.fromkeys(c[0] for c in CASES):
        if q == "case-E":
            continue
        if q in _B_ROWS:
            rows += [(q, s, sc, g) for s, sc, g in _B_ROWS[q]]
        else:
            rows += [c for c in CASES if c[0] == q]
    rows += [("case-G", s, sc, g) for s, sc, g in _B_ROWS["case-G"]]
    b = Document.from_columns(
        query=[r[0] for r in rows], source_id=[r[1] for r in rows],
        version=["v2"] * len(rows), score=[r[2] for r in rows], grade=[r[3] for r in rows],
        conventions=a.conventions, judgment_version=a.judgment_version, name="seed run B",
    )
    return a, b


def generated_pair() -> tuple[Document, Document, Conventions]:
    """Ties, unknowns, unrateables, not-retrieved rows and weights with gaps; B
    has A's candidates with other scores; frequency weighting declared."""
    a = make_document(5)
    b = make_document(5)
    rng = np.random.default_rng(11)
    b.score = rng.permutation(b.score)
    b.name = "generated B"
    conv = a.conventions.replace(cutoffs=(1, 3, None), weighting="frequency")
    return a, b, conv


def comparison_rows(values: dict[str, list[list[Any]]]) -> dict[str, list[list[Any]]]:
    """The Comparison sheet's three tables (per query, means, resampling)."""
    sheet = values[COMPARISON_SHEETS["comparison"]]
    top = COMPARISON_HEADER_ROW
    assert list(sheet[top][: len(COMPARISON_COLUMNS)]) == list(COMPARISON_COLUMNS)
    r = top + 1
    per_query = []
    while sheet[r][0] not in (None, ""):
        per_query.append(sheet[r])
        r += 1
    r += 2
    assert list(sheet[r][: len(MEANS_COLUMNS)]) == list(MEANS_COLUMNS)
    r += 1
    means = []
    while r < len(sheet) and sheet[r][0] not in (None, ""):
        means.append(sheet[r])
        r += 1
    r += 2
    assert list(sheet[r][: len(RESAMPLING_COLUMNS)]) == list(RESAMPLING_COLUMNS)
    r += 1
    resampling = []
    while r < len(sheet) and sheet[r][0] not in (None, ""):
        resampling.append(sheet[r])
        r += 1
    rest = [row[0] for row in sheet[r:] if row and row[0] not in (None, "")]
    return {"per_query": per_query, "means": means, "resampling": resampling,
            "rest": [[x] for x in rest]}


def check_comparison(
    values: dict[str, list[list[Any]]], doc_a: Document, doc_b: Document, conv: Conventions,
    *, exported: Conventions | None = None, exported_b: Document | None = None,
) -> None:
    """Every Comparison result in ``values`` equals ``core.analysis.compare`` under ``conv``
    (the resampling values are those computed at export: under ``exported``, with
    B as ``exported_b``)."""
    c = compare(doc_a, doc_b, conv, resamples=200, seed=3)
    parts = comparison_rows(values)
    rows = parts["per_query"]
    assert len(rows) == len(c.common) * len(conv.cutoffs)
    outcomes = {(qd.query, j): qd.outcome for j in range(len(conv.cutoffs))
                for qd in c.query_deltas(j)}
    for n, row in enumerate(rows):
        i, j = divmod(n, len(conv.cutoffs))
        qa, qb = int(c.qa[i]), int(c.qb[i])
        k = conv.cutoffs[j]
        where = (row[0], k)
        assert row[0] == c.common[i]
        assert row[1] == (k if k is not None else "all"), where
        assert row[2] == j + 1
        assert _same(row[3], float(c.ndcg_a[i, j])), (where, row[3], c.ndcg_a[i, j])
        assert row[4] == c.ev_a.status(qa, j).value, where
        assert _same(row[5], float(c.ndcg_b[i, j])), (where, row[5], c.ndcg_b[i, j])
        assert row[6] == c.ev_b.status(qb, j).value, where
        assert _same(row[7], float(c.delta[i, j])), (where, row[7], c.delta[i, j])
        assert row[8] == outcomes[(c.common[i], j)], (where, row[8])
    for j, (row, t) in enumerate(zip(parts["means"], c.tests, strict=True)):
        k = conv.cutoffs[j]
        assert row[0] == (k if k is not None else "all")
        assert row[2] == t.n, (k, row)
        for got, want in ((row[4], t.mean_a), (row[5], t.mean_b), (row[6], t.mean_delta)):
            assert _same(got, math.nan if want is None else want), (k, got, want)
        assert row[7:10] == [t.wins, t.ties, t.losses], (k, row)
        assert row[10:13] == [
            t.excluded.get("without a value in A", 0)
            + t.excluded.get("without a value in A and B", 0),  # (status A not ok)
            t.excluded.get("without a value in B", 0),
            t.excluded.get("without a weight", 0),
        ], (k, row)
        assert row[13] == conv.weighting.value
    old = compare(doc_a, exported_b or doc_b, exported or conv, resamples=200, seed=3)
    for row, t_old, t in zip(parts["resampling"], old.tests, c.tests, strict=True):
        assert _same(row[2], math.nan if t_old.p_value is None else t_old.p_value)
        assert row[3:6] == [t_old.method, t_old.resamples, 3]
        assert _same(row[6], math.nan if t_old.ci_low is None else t_old.ci_low)
        assert _same(row[7], math.nan if t_old.ci_high is None else t_old.ci_high)
        current = t_old.n == t.n and (
            (t.mean_delta is None and t_old.mean_delta is None)
            or (t.mean_delta is not None and t_old.mean_delta is not None
                and abs(t.mean_delta - t_old.mean_delta) <= 1e-12)
        )
        assert (row[12] == "current") == current, (row, t.mean_delta, t_old.mean_delta)
    rest = [r[0] for r in parts["rest"]]
    assert rest == [f"queries only in A (not compared): {len(c.only_a)}", *c.only_a,
                    f"queries only in B (not compared): {len(c.only_b)}", *c.only_b]


def check_b_sheets(values: dict[str, list[list[Any]]], doc_b: Document,
                   conv: Conventions) -> None:
    """Run B's sheets equal the engine on B, as A's sheets do on A."""
    check_values({SHEETS["candidates"]: values[COMPARISON_SHEETS["candidates_b"]],
                  SHEETS["queries"]: values[COMPARISON_SHEETS["queries_b"]],
                  SHEETS["summary"]: values[COMPARISON_SHEETS["summary_b"]]}, doc_b, conv)


def _cached(path: Path) -> dict[str, list[list[Any]]]:
    return read_values(path)


# -- without a spreadsheet engine ------------------------------------------------------
def test_hand_computed_deltas_on_the_seed_pair(tmp_path: Path) -> None:
    a, b = seed_pair()
    path = tmp_path / "pair.xlsx"
    export_comparison_workbook(compare(a, b, resamples=200, seed=3), path)
    parts = comparison_rows(_cached(path))
    got = {(row[0], row[2]): row for row in parts["per_query"]}
    # cutoffs (1, 2, all); L = log2(3)
    ideal = 3 + 1 / L
    want = {
        ("case-A", 1): (1 / 3, 1.0, 2 / 3, "win"),
        ("case-A", 2): ((1 + 3 / L) / ideal, 1.0, 1 - (1 + 3 / L) / ideal, "win"),
        ("case-A", 3): ((1 + 3 / L) / ideal, 1.0, 1 - (1 + 3 / L) / ideal, "win"),
        ("case-B", 1): (0.0, 0.0, 0.0, "tie"),
        ("case-B", 2): ((3 / L) / ideal, (1 / L) / ideal, -(2 / L) / ideal, "loss"),
        ("case-B", 3): ((3 / L + 1 / 2) / ideal, (1 / L + 3 / 2) / ideal,
                        (1 - 2 / L) / ideal, "loss"),
        ("case-C", 1): (1 / 3, 1 / 3, 0.0, "tie"),
        ("case-D-plus-one", 1): (1 / 2, 1 / 2, 0.0, "tie"),
    }
    for key, (na, nb, d, outcome) in want.items():
        row = got[key]
        assert row[3] == pytest.approx(na, abs=1e-15), key
        assert row[5] == pytest.approx(nb, abs=1e-15), key
        assert row[7] == pytest.approx(d, abs=1e-15), key
        assert row[8] == outcome, key
    for q in ("case-F-zero", "case-F-unknown"):
        for j in (1, 2, 3):
            row = got[(q, j)]
            assert row[3] in (None, "")
            assert row[5] in (None, "")
            assert row[7] in (None, "")
            assert row[8] == "not comparable"
            assert row[10] == 0
    assert row[4] == row[6] == "unresolved"
    assert got[("case-F-zero", 1)][4] == "undefined"
    # Means over the five queries defined in both, at k = 1.
    k1 = parts["means"][0]
    assert k1[2] == 5
    assert k1[4] == pytest.approx((1 / 3 + 0 + 1 / 3 + 1 / 3 + 1 / 2) / 5, abs=1e-15)
    assert k1[5] == pytest.approx((1 + 0 + 1 / 3 + 1 / 3 + 1 / 2) / 5, abs=1e-15)
    assert k1[6] == pytest.approx((2 / 3) / 5, abs=1e-15)
    assert k1[7:13] == [1, 4, 0, 2, 0, 0]
    assert parts["means"][1][7:10] == [1, 3, 1]
    # p-value and interval are plain values with their resamples and seed.
    assert [r[3:6] for r in parts["resampling"]] == [["exact", 32, 3]] * 3
    # At k = 1 only case-A's delta is not 0: every sign vector is as extreme.
    assert parts["resampling"][0][2] == 1.0
    assert [r[0] for r in parts["rest"]] == [
        "queries only in A (not compared): 1", "case-E",
        "queries only in B (not compared): 1", "case-G",
    ]
    check_comparison(_cached(path), a, b, a.conventions)


def test_cached_values_equal_the_engine(tmp_path: Path) -> None:
    a, b, conv = generated_pair()
    path = tmp_path / "gen.xlsx"
    export_comparison_workbook(compare(a, b, conv, resamples=200, seed=3), path)
    values = _cached(path)
    check_comparison(values, a, b, conv)
    check_values(values, a, conv)
    check_b_sheets(values, b, conv)


def test_formulas_refer_to_both_queries_sheets(tmp_path: Path) -> None:
    a, b = seed_pair()
    path = tmp_path / "pair.xlsx"
    export_comparison_workbook(compare(a, b, resamples=200, seed=3), path)
    wb = openpyxl.load_workbook(path)
    ws = wb[COMPARISON_SHEETS["comparison"]]
    r = COMPARISON_HEADER_ROW + 2
    assert ws[f"D{r}"].value == '=IF(ISNUMBER(Queries!$F$2),Queries!$F$2,"")'
    assert ws[f"F{r}"].value == "=IF(ISNUMBER('Queries B'!$F$2),'Queries B'!$F$2,\"\")"
    assert ws[f"H{r}"].value == f'=IF(AND(ISNUMBER(D{r}),ISNUMBER(F{r})),F{r}-D{r},"")'
    formulas = [c.value for row in ws.iter_rows() for c in row if c.data_type == "f"]
    assert formulas
    for word in ("_xlfn", "INDIRECT", "OFFSET", "AVERAGEIF"):
        assert not [f for f in formulas if word in f], word
    assert wb.sheetnames[:3] == [SHEETS["report"], SHEETS["conventions"],
                                 COMPARISON_SHEETS["comparison"]]
    assert wb.sheetnames == [
        "Report", "Conventions", "Comparison", "Candidates", "Queries", "Summary",
        "Candidates B", "Queries B", "Summary B", "Audit", "ndcg_metadata",
    ]
    _assert_printed_whole(ws)
    wb.close()
    # The workbook still reopens as run A.
    _assert_same_document(read_workbook(path), a)


def _assert_printed_whole(ws: Any) -> None:
    """On paper (LibreOffice's PDF of compare --export) the label 'what
    changed (at export)' read 'what changed (at e' in a column of query ids,
    and the two long section titles ran on one line past the page's edge,
    cut at '(drawing': their format did not wrap, and their rows were
    measured for the body's smaller type."""
    width_a = ws.column_dimensions["A"].width
    for r in range(2, 7):
        label = ws[f"A{r}"].value
        assert len(label) * 1.15 <= width_a, (label, width_a)  # (bold)
    titles = [ws.cell(m.min_row, m.min_col) for m in ws.merged_cells.ranges
              if ws.cell(m.min_row, m.min_col).font.sz == 12]
    assert [t.value.split()[0] for t in titles] == ["Paired", "Randomization"]
    for cell in titles:
        merged = next(m for m in ws.merged_cells.ranges if cell.coordinate in m)
        room = sum(ws.column_dimensions[get_column_letter(c)].width
                   for c in range(merged.min_col, merged.max_col + 1))
        assert cell.alignment.wrap_text, cell.value
        height = ws.row_dimensions[cell.row].height or 15
        assert height >= 15 * lines_needed(cell.value, room / 1.25), (cell.value, height)
    # Every header's words whole in their column, in bold: the resampling
    # table's 'randomization' was broken mid-word in a column fitted to the
    # per-query table's header above it (6 wide).
    rows = {tuple(c.value for c in row[:len(h)]): row for row in ws.iter_rows()
            for h in (COMPARISON_COLUMNS, MEANS_COLUMNS, RESAMPLING_COLUMNS)}
    for headers in (COMPARISON_COLUMNS, MEANS_COLUMNS, RESAMPLING_COLUMNS):
        assert headers in rows, headers
        for cell, header in zip(rows[headers], headers, strict=False):
            width = ws.column_dimensions[cell.column_letter].width
            for word in header.split():
                assert len(word) * 1.15 <= width, (header, word, width)


def test_the_workbook_writes_the_comparison_it_is_handed(tmp_path: Path) -> None:
    # io computes nothing: the resampling values are those of the Comparison given
    # (its resamples and seed), under its conventions.
    a, b = seed_pair()
    conv = a.conventions.replace(cutoffs=(2,))
    c = compare(a, b, conv, resamples=10, seed=9)
    path = tmp_path / "handed.xlsx"
    export_comparison_workbook(c, path)
    parts = comparison_rows(_cached(path))
    assert [r[3:6] for r in parts["resampling"]] == [[t.method, t.resamples, 9] for t in c.tests]
    assert [r[1] for r in parts["per_query"]] == [2] * len(c.common)
    for row, delta in zip(parts["per_query"], c.delta[:, 0].tolist(), strict=True):
        assert _same(row[7], delta), (row, delta)


def test_cli_compare_export(tmp_path: Path) -> None:
    a, b = seed_pair()
    write_delimited(a, tmp_path / "a.csv")
    write_delimited(b, tmp_path / "b.csv")
    out = io.StringIO()
    path = tmp_path / "cmp.xlsx"
    code = main(["compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--k", "1",
                 "--k", "2", "--resamples", "64", "--seed", "7", "--export", str(path)], out)
    assert code == 0, out.getvalue()
    assert f"wrote {path}" in out.getvalue()
    parts = comparison_rows(_cached(path))
    assert [r[0] for r in parts["means"]] == [1, 2]
    assert [r[3:6] for r in parts["resampling"]] == [["exact", 32, 7]] * 2
    delta = {(r[0], r[2]): r[7] for r in parts["per_query"]}
    assert delta[("case-A", 1)] == pytest.approx(2 / 3, abs=1e-15)
    # JSON output stays pure JSON.
    out = io.StringIO()
    assert main(["compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--format",
                 "json", "--resamples", "8", "--export", str(tmp_path / "j.xlsx")], out) == 0
    assert out.getvalue().lstrip().startswith("{")
    assert (tmp_path / "j.xlsx").exists()
    # Another suffix is refused before anything is written.
    assert main(["compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--export",
                 str(tmp_path / "cmp.csv")], io.StringIO()) == 2
    assert not (tmp_path / "cmp.csv").exists()


# -- recalculated by LibreOffice ---------------------------------------------------------
def _set_conventions(src: Path, dst: Path, values: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(src)
    ws = wb[SHEETS["conventions"]]
    for name, value in values.items():
        ref = wb.defined_names[name].attr_text.split("!")[1].replace("$", "")
        ws[ref].value = value
    wb.save(dst)


def _set_grade_b(src: Path, dst: Path, query: str, source: str, grade: float) -> None:
    """Type a grade into run B's current-grade cell of (query, source)."""
    wb = openpyxl.load_workbook(src)
    ws = wb[COMPARISON_SHEETS["candidates_b"]]
    (row,) = [r for r in range(2, ws.max_row + 1)
              if (ws.cell(r, 1).value, ws.cell(r, 2).value) == (query, source)]
    ws.cell(row, 6).value = grade
    wb.save(dst)


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    src = tmp_path_factory.mktemp("cmp-export")
    out = tmp_path_factory.mktemp("cmp-recalculated")
    a, b = seed_pair()
    conv = a.conventions
    ga, gb, gconv = generated_pair()
    jobs: dict[str, tuple[Path, Document, Document, Conventions, Conventions]] = {}
    export_comparison_workbook(compare(a, b, resamples=200, seed=3), src / "seed.xlsx")
    jobs["seed"] = (src / "seed.xlsx", a, b, conv, conv)
    export_comparison_workbook(compare(ga, gb, gconv, resamples=200, seed=3), src / "gen.xlsx")
    jobs["gen"] = (src / "gen.xlsx", ga, gb, gconv, gconv)
    _set_conventions(src / "seed.xlsx", src / "seed_k.xlsx", {"cut_1": 3})
    jobs["seed_k"] = (src / "seed_k.xlsx", a, b, conv.replace(cutoffs=(3, 2, None)), conv)
    _set_conventions(src / "seed.xlsx", src / "seed_rules.xlsx",
                     {"unknown_rule": "zero", "zero_ideal_rule": "zero", "gain_rule":
                      "exponential"})
    jobs["seed_rules"] = (src / "seed_rules.xlsx", a, b, conv.replace(
        unknown="zero", zero_ideal="zero", gain=Gain.parse("exponential")), conv)
    _set_conventions(src / "gen.xlsx", src / "gen_k.xlsx",
                     {"cut_1": 2, "weighting": "importance"})
    jobs["gen_k"] = (src / "gen_k.xlsx", ga, gb, gconv.replace(cutoffs=(2, 3, None),
                                                               weighting="importance"), gconv)
    # A grade typed into Candidates B: B's NDCG, the deltas and the means follow.
    _set_grade_b(src / "seed.xlsx", src / "seed_graded.xlsx", "case-A", "A", 0.0)
    b_graded = seed_pair()[1]
    (i,) = [i for i in range(len(b_graded)) if b_graded.query_ids[int(b_graded.query[i])]
            == "case-A" and b_graded.source_id[i] == "A"]
    b_graded.set_grade(i, 0.0, who="t")
    jobs["seed_graded"] = (src / "seed_graded.xlsx", a, b_graded, conv, conv)
    paths = recalculate([j[0] for j in jobs.values()], out)
    return {"jobs": jobs, "values": {name: read_values(p)
                                     for name, p in zip(jobs, paths, strict=True)}}


@pytest.mark.libreoffice
@pytest.mark.parametrize("name", ["seed", "gen", "seed_k", "seed_rules", "gen_k",
                                  "seed_graded"])
def test_recalculated_comparison_equals_compare(recalculated: dict[str, Any], name: str) -> None:
    _path, a, b, conv, exported = recalculated["jobs"][name]
    values = recalculated["values"][name]
    # The resampling values were computed for the workbook as exported.
    exported_b = seed_pair()[1] if name == "seed_graded" else b
    check_comparison(values, a, b, conv, exported=exported, exported_b=exported_b)
    check_values(values, a, conv)
    check_b_sheets(values, b, conv)


@pytest.mark.libreoffice
def test_changed_k_moves_the_deltas(recalculated: dict[str, Any]) -> None:
    """k = 1 became 3 in the shared Conventions sheet: case-A's delta at the first
    cutoff is now the full-list one, and the resampling values are marked stale."""
    parts = comparison_rows(recalculated["values"]["seed_k"])
    row = next(r for r in parts["per_query"] if r[0] == "case-A" and r[2] == 1)
    assert row[1] == 3
    ideal = 3 + 1 / L
    assert row[7] == pytest.approx(1 - (1 + 3 / L) / ideal, abs=1e-12)
    assert parts["resampling"][0][12].startswith("stale")
    assert parts["resampling"][2][12] == "current"
    before = comparison_rows(recalculated["values"]["seed"])
    assert before["resampling"][0][12] == "current"


@pytest.mark.libreoffice
def test_the_charts_gains_and_losses_follow_the_sorted_deltas(
        recalculated: dict[str, Any]) -> None:
    """The Report's delta chart plots the hidden columns R (gains, green) and
    S (losses, red): as LibreOffice computes them after a grade typed into
    Candidates B made a loss, each sorted delta (P) is in one of them and
    #N/A (no bar) in the other."""
    sheet = recalculated["values"]["seed_graded"][COMPARISON_SHEETS["comparison"]]
    first = COMPARISON_HEADER_ROW + 1
    rows = [r[15:19] for r in sheet[first:first + 7]]  # seven common queries
    deltas = [r[0] for r in rows if isinstance(r[0], int | float)]
    assert deltas == sorted(deltas)
    assert len(deltas) == 5
    assert deltas[0] == pytest.approx(-1 / 3, abs=1e-12)  # case-A's loss
    for p, _, gain, loss in rows:
        want = ((p, "#N/A") if p >= 0 else ("#N/A", p)) if p in deltas else ("#N/A", "#N/A")
        assert (gain, loss) == want


@pytest.mark.libreoffice
def test_grade_typed_into_run_b_moves_the_delta(recalculated: dict[str, Any]) -> None:
    """case-A's A (grade 3, ranked first in B) regraded 0 in Candidates B: B's
    NDCG@1 is 0, the delta 0 - 1/3, a loss; every resampling row is stale."""
    parts = comparison_rows(recalculated["values"]["seed_graded"])
    row = next(r for r in parts["per_query"] if r[0] == "case-A" and r[2] == 1)
    assert row[5] == 0
    assert row[7] == pytest.approx(-1 / 3, abs=1e-12)
    assert row[8] == "loss"
    assert all(r[12].startswith("stale") for r in parts["resampling"])
