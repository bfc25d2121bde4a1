"""The audited workbook without a spreadsheet engine: cached results equal the
engine, layout and safety, lossless reopen, edits picked up with audit entries,
bad cells and foreign workbooks refused with a location."""

from __future__ import annotations

import io
import json
import math
import shutil
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest

from app.cli.main import main
from core.analysis.aggregate import summarize
from core.engine.evaluation import discount, evaluate
from core.errors import InputError, NotOwnWorkbook
from core.io.workbook import (
    CANDIDATE_COLUMNS,
    METADATA_FORMAT,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    SHEETS,
    SUMMARY_COLUMNS,
    export_workbook,
    is_own_workbook,
    read_workbook,
)
from core.io.workbook.conventions_sheet import UNJUDGED_LABEL
from core.model.conventions import Conventions, Gain, Rubric, Weighting
from core.model.document import Document, GradeState
from core.model.examples import seed_document
from core.model.presets import preset

HEADERS = [h for _, h in CANDIDATE_COLUMNS]


# -- generated worksheets (also used by the LibreOffice tests) ---------------------------
def make_document(
    seed: int, *, n_queries: int = 9, fractional: bool = False, negative: bool = False
) -> Document:
    """Queries with ties, unknown and unrateable grades, judged-but-not-retrieved
    candidates, an all-zero (undefined) query, a query with no ranked candidate
    and weights with gaps."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {k: [] for k in ("q", "s", "score", "grade", "state", "note")}
    freq: dict[str, float] = {}
    imp: dict[str, float] = {}
    for qi in range(n_queries):
        q = f"q{qi:02d}" if qi != 3 else "=SUM(1,2)"  # a hostile query id stays text
        n = int(rng.integers(1, 9))
        all_zero = qi == 1
        for i in range(n):
            rows["q"].append(q)
            rows["s"].append(f"d{i}" if i != 2 else "+d2")
            score = float(rng.integers(0, 4)) / 2.0
            # query 5 was judged but not retrieved: no ranking (status unranked by default)
            rows["score"].append(np.nan if rng.random() < 0.18 or qi == 5 else score)
            grade = 0.0 if all_zero else float(rng.integers(0, 4))
            if fractional and rng.random() < 0.3:
                grade += 0.5
            if negative and rng.random() < 0.15:
                grade = -1.0
            u = rng.random()
            state = GradeState.NUMBER
            if not all_zero and qi % 3 == 2 and u < 0.25:
                state = GradeState.UNKNOWN
            elif not all_zero and qi % 4 == 0 and u > 0.9:
                state = GradeState.UNRATEABLE
            rows["grade"].append(grade if state == GradeState.NUMBER else None)
            rows["state"].append(int(state))
            rows["note"].append("=1+1 note" if (qi, i) == (0, 0) else "")
        if qi % 2 == 0:
            freq[q] = float(rng.integers(1, 5))
        if qi % 3 != 1:
            imp[q] = float(rng.integers(0, 3))
    return Document.from_columns(
        query=rows["q"], source_id=rows["s"], score=rows["score"], grade=rows["grade"],
        state=rows["state"], note=rows["note"], frequency=freq, importance=imp,
        version=["v1"] * len(rows["q"]), judgment_version=f"gen-{seed}", name=f"generated {seed}",
    )


def _same(got: Any, want: float, tol: float = 1e-12) -> bool:
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return got in (None, "")
    if not isinstance(got, int | float) or isinstance(got, bool):
        return False
    return abs(float(got) - want) <= tol * max(1.0, abs(want))


def check_values(values: dict[str, list[list[Any]]], doc: Document, conv: Conventions) -> None:
    """Every formula result in ``values`` (sheet -> rows) equals the engine's."""
    ev = evaluate(doc, conv)
    cand = values[SHEETS["candidates"]]
    assert cand[0][: len(HEADERS)] == HEADERS
    col = {h: i for i, h in enumerate(HEADERS)}
    index = {(doc.query_ids[int(doc.query[i])], doc.source_id[i]): i for i in range(len(doc))}
    ideal = {q: ev.gain[ev.ideal(q)] for q in range(doc.n_queries)}
    assert len(cand) - 1 == len(doc)
    for r, row in enumerate(cand[1:], start=2):
        i = index[(row[col["query"]], row[col["source id"]])]
        q = int(doc.query[i])
        where = f"row {r} ({row[0]!r}, {row[1]!r})"
        rank = float(ev.rank[i]) if ev.rank[i] else math.nan
        assert _same(row[col["rank"]], rank), (where, row[col["rank"]], rank)
        for name, want in (
            ("transformed gain", ev.gain[i]),
            ("discount", ev.discount[i]),
            ("contribution", ev.contribution[i]),
        ):
            assert _same(row[col[name]], float(want)), (where, name, row[col[name]], want)
        pos = int(row[col["ideal list k"]])
        g = ideal[q][pos - 1] if pos <= ideal[q].size else math.nan
        assert _same(row[col["k-th ideal gain"]], float(g)), (where, row[col["k-th ideal gain"]], g)
        ic = float(g * discount(pos))
        got = row[col["k-th ideal contribution"]]
        assert _same(got, ic), (where, got)
        state = ("number", "unknown", "unrateable")[int(doc.state[i])]
        assert row[col["grade state"]] == state
    queries = values[SHEETS["queries"]]
    assert len(queries) - 1 == doc.n_queries * len(conv.cutoffs)
    qpos = {qid: q for q, qid in enumerate(doc.query_ids)}
    for r, row in enumerate(queries[1:], start=2):
        q, j = qpos[row[0]], int(row[2]) - 1
        where = f"Queries row {r}"
        k = conv.cutoffs[j]
        assert row[1] == (k if k is not None else "all"), where
        assert _same(row[3], float(ev.dcg[q, j])), (where, "dcg", row[3], ev.dcg[q, j])
        assert _same(row[4], float(ev.idcg[q, j])), (where, "idcg", row[4], ev.idcg[q, j])
        assert _same(row[5], float(ev.ndcg[q, j])), (where, "ndcg", row[5], ev.ndcg[q, j])
        assert row[6] == ev.status(q, j).value, (where, row[6])
        assert row[7:10] == [ev.n_judged[q], ev.n_total[q], ev.n_open[q]], where
        for c, weights in ((10, doc.frequency), (11, doc.importance)):
            w = float(weights[q])
            assert _same(row[c], w), (where, c)
            use = not math.isnan(ev.ndcg[q, j]) and w > 0
            used = w if use else math.nan
            assert _same(row[c + 2 + (c - 10)], used), (where, c, row)
            assert _same(row[c + 3 + (c - 10)], used * float(ev.ndcg[q, j])), (where, c, row)
    summary = values[SHEETS["summary"]]
    r = 1
    for weighting in Weighting:
        for j, s in enumerate(summarize(ev, weighting)):
            row = summary[r]
            assert row[0] == weighting.value
            want = math.nan if s.mean is None else s.mean
            assert _same(row[2], want), (weighting, j, row[2], s.mean)
            at = {name: i for i, name in enumerate(SUMMARY_COLUMNS)}
            assert row[at["included"]] == s.included
            for why in ("undefined", "unresolved", "unranked", "no weight"):
                assert row[at[f"excluded: {why}"]] == s.excluded.get(why, 0), (weighting, j, row)
            assert _same(row[at["weight total"]], s.weight_total)
            r += 1
    if SHEETS["conventions"] in values:  # (a comparison's B sheets come without theirs)
        # The Conventions sheet's count of candidates ranked but never judged.
        ranked_unknown = sum(1 for i in range(len(doc)) if doc.state[i] == GradeState.UNKNOWN
                             and not math.isnan(doc.score[i]))
        counts = [row[1] for row in values[SHEETS["conventions"]]
                  if row and row[0] == UNJUDGED_LABEL]
        assert counts == [ranked_unknown], counts


def read_values(path: Path) -> dict[str, list[list[Any]]]:
    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}
    finally:
        wb.close()


def all_cells(path: Path) -> dict[str, list[list[Any]]]:
    """Formulas and values as stored (no evaluation)."""
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return {ws.title: [[c.value for c in r] for r in ws.iter_rows()] for ws in wb}
    finally:
        wb.close()


CONVENTIONS = [
    Conventions(cutoffs=(1, 3, None)),
    Conventions(gain=Gain.parse("exponential"), ideal="judged", ties="supplied",
                unknown="zero", zero_ideal="zero", cutoffs=(2, 5), weighting="frequency"),
    preset("trec_eval", gain=Gain(Gain.parse("1=3,2=9").rule,
                            ((1.0, 3.0), (2.0, 9.0)), negative_as_zero=True, truncate=True),
                            cutoffs=(1, None)),
    Conventions(ideal="judged", ties="pessimistic", unknown="condensed", cutoffs=(3, None),
                weighting="importance"),
    Conventions(ties="optimistic", zero_ideal="zero", cutoffs=(1, 2, 4)),
    preset("sklearn", cutoffs=(3,)),
    preset("ranx", gain=Gain.parse("exponential"), cutoffs=(None, 2)),
    Conventions(gain=Gain.parse("0=0.5,3=10"), ideal="judged", unknown="condensed",
                cutoffs=(2, None)),
    Conventions(ties="id-desc", unknown="unresolved", ideal="judged", cutoffs=(1, None)),
]


def case(n: int) -> tuple[Document, Conventions]:
    """Generated worksheet ``n`` with conventions that can take its grades."""
    conv = CONVENTIONS[n]
    doc = make_document(100 + n, fractional=n == 2, negative=n in (2, 4))
    return doc, conv


# -- cached results --------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(len(CONVENTIONS)))
def test_cached_results_equal_the_engine(tmp_path: Path, n: int) -> None:
    doc, conv = case(n)
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc, conv), out)
    check_values(read_values(out), doc, conv)


def test_seed_cases_cached_values(tmp_path: Path) -> None:
    doc = seed_document()
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(doc), out)
    values = read_values(out)
    check_values(values, doc, doc.conventions)
    rows = {(r[0], r[1]): r for r in values["Queries"][1:]}
    # Hand-derived: case A (1 + 3/L)/(3 + 1/L); case B linear; case E averaged ties at k=1.
    L = math.log2(3)
    assert rows[("case-A", "all")][5] == pytest.approx((1 + 3 / L) / (3 + 1 / L), abs=1e-15)
    assert rows[("case-B", "all")][5] == pytest.approx((3 / L + 0.5) / (3 + 1 / L), abs=1e-15)
    assert rows[("case-E", 1)][5] == pytest.approx(2 / 3, abs=1e-15)
    assert rows[("case-F-zero", "all")][6] == "undefined"
    assert rows[("case-F-unknown", "all")][6:8] == ["unresolved", 2]


def test_layout_formulas_and_protection(tmp_path: Path) -> None:
    doc = seed_document()
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(doc), out)
    wb = openpyxl.load_workbook(out)
    # (the Annotators sheet only for a document keeping each annotator's grades)
    assert wb.sheetnames == [s for k, s in SHEETS.items() if k != "annotators"]
    assert wb[SHEETS["metadata"]].sheet_state == "hidden"
    ws = wb[SHEETS["candidates"]]
    assert ws.protection.sheet
    assert ws["E2"].protection.locked
    assert not ws["F2"].protection.locked
    assert not ws["H2"].protection.locked
    # Every derived cell is a formula; only Excel-2007 functions.
    texts = []
    for sheet in (SHEETS["candidates"], SHEETS["queries"], SHEETS["summary"]):
        for row in wb[sheet].iter_rows(min_row=2):
            texts += [c.value for c in row if c.data_type == "f"]
    assert len(texts) > 23 * 17
    joined = " ".join(texts)
    for banned in ("_xlfn", "AVERAGEIF", "INDIRECT", "OFFSET", "RANK", "{"):
        assert banned not in joined
    assert ws["J2"].data_type == "f"
    assert "gain_rule" in ws["J2"].value
    assert "cutn_1" in wb[SHEETS["queries"]]["D2"].value
    names = set(wb.defined_names)
    assert {"gain_rule", "cut_1", "cut_3", "tie_rule", "ideal_rule", "unknown_rule",
            "zero_ideal_rule", "gain_grades", "gain_values", "grade_list"} <= names
    dv = ws.data_validations.dataValidation
    assert any(v.type == "list" and "grade_list" in (v.formula1 or "") for v in dv)
    # The conventions are readable by people, with labels.
    conv_cells = [c for row in wb[SHEETS["conventions"]].iter_rows(values_only=True)
                  for c in row if c is not None]
    assert "ties" in conv_cells
    assert "average" in conv_cells
    assert "0=no support,1=partial support,2=substantial support,3=direct support" in conv_cells


def test_user_text_is_written_as_text(tmp_path: Path) -> None:
    doc = make_document(1)
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), out)
    ws = openpyxl.load_workbook(out)[SHEETS["candidates"]]
    hostile = [c for row in ws.iter_rows(max_col=8) for c in row
               if c.column_letter in "ABCH" and isinstance(c.value, str)
               and c.value[:1] in ("=", "+")]
    assert hostile
    for c in hostile:
        assert c.data_type == "s", c.coordinate
        assert c.quotePrefix, c.coordinate


def test_full_precision_numbers(tmp_path: Path) -> None:
    doc = Document.from_columns(query=["q", "q"], source_id=["a", "b"],
                                score=[0.1 + 0.2, 1 / 3], grade=[math.pi, 1e-17])
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), out)
    ws = openpyxl.load_workbook(out)[SHEETS["candidates"]]
    got = {(ws.cell(r, 2).value): (ws.cell(r, 4).value, ws.cell(r, 6).value) for r in (2, 3)}
    assert got == {"a": (0.1 + 0.2, math.pi), "b": (1 / 3, 1e-17)}


# -- lossless reopen -----------------------------------------------------------------------------
def _assert_same_document(a: Document, b: Document) -> None:
    assert a.query_ids == b.query_ids
    np.testing.assert_array_equal(a.query, b.query)
    for name in ("source_id", "version", "note", "reason"):
        assert getattr(a, name).tolist() == getattr(b, name).tolist(), name
    for name in ("score", "grade", "original_grade", "frequency", "importance"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for name in ("state", "original_state"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.conventions == b.conventions
    assert (a.judgment_version, a.name, a.audit, a.annotators) == (
        b.judgment_version, b.name, b.audit, b.annotators)
    if a.ratings is None:
        assert b.ratings is None
    else:
        np.testing.assert_array_equal(a.ratings, b.ratings)


def _edited_document() -> Document:
    doc = make_document(7)
    doc.conventions = Conventions(cutoffs=(2, None),
                                  rubric=Rubric.parse("0=no,1=some,2=a lot,3=all"))
    doc.set_grade(0, 2.0, who="ann", note="second look _x000D_ kept")
    doc.set_grade(3, None, GradeState.UNRATEABLE, who="bob", reason="page missing")
    doc.set_note(4, "=HYPERLINK(\"http://x\") is only text\nwith a newline")
    doc.annotators = ["ann", "bob"]
    doc.ratings = np.full((len(doc), 2), np.nan)
    doc.ratings[:5, 0] = [0, 1, 2, 3, 0.5]
    return doc


def test_round_trip_is_lossless(tmp_path: Path) -> None:
    doc = _edited_document()
    first = tmp_path / "first.xlsx"
    export_workbook(evaluate(doc), first)
    back = read_workbook(first)
    _assert_same_document(doc, back)
    second = tmp_path / "second.xlsx"
    export_workbook(evaluate(back), second)
    assert all_cells(first) == all_cells(second)



def test_text_excel_escapes_or_cuts_reopens_unchanged(tmp_path: Path) -> None:
    # Control characters are stored as _xHHHH_ (and a literal _xHHHH_ as
    # _x005F_xHHHH_), which openpyxl does not undo; a note longer than a cell
    # holds is cut in the sheet. Reopening takes none of them for an edit.
    notes = ["a\x01b", "_x0041_", " both ends ", "x" * 40_000, "é☃"]
    doc = Document.from_columns(query=["q\x02"] * len(notes),
                                source_id=[f"s{i}_x0042_" for i in range(len(notes))],
                                score=[float(i) for i in range(len(notes))],
                                grade=[1.0] * len(notes))
    for i, note in enumerate(notes):
        doc.note[i] = note
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), out)
    ws = openpyxl.load_workbook(out)[SHEETS["candidates"]]
    assert {ws.cell(r, 8).value for r in range(2, 7)} >= {"a_x0001_b", "_x005F_x0041_"}
    back = read_workbook(out)
    assert back.audit == []
    _assert_same_document(doc, back)

def test_large_metadata_is_chunked(tmp_path: Path) -> None:
    n = 3000
    doc = Document.from_columns(query=[f"q{i // 30}" for i in range(n)],
                                source_id=[f"source-{i}" for i in range(n)],
                                score=np.arange(n, dtype=float), grade=[i % 4 for i in range(n)],
                                note=["a fairly long note " * 3] * n)
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), out)
    meta = all_cells(out)[SHEETS["metadata"]]
    assert int(meta[0][1]) == len(meta) - 1 > 3
    assert all(len(r[0]) <= 32_767 for r in meta[1:])
    _assert_same_document(doc, read_workbook(out))


def _edit(path: Path, out: Path, cells: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEETS["candidates"]]
    for ref, value in cells.items():
        ws[ref].value = value
        if isinstance(value, str):
            ws[ref].data_type = "s"
    wb.save(out)


def test_edited_grades_are_picked_up_with_audit_entries(tmp_path: Path) -> None:
    doc = seed_document()
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(doc), out)
    edited = tmp_path / "edited.xlsx"
    # Row 2 = case-A/B (grade 1); row 3 = case-A/A; row 4 = case-A/C; row 24 = case-F-unknown/C.
    _edit(out, edited, {"F2": 3, "F3": "unrateable", "H3": "no page", "F4": "partial support",
                        "H5": "only a note"})
    back = read_workbook(edited)
    a = back.query_index("case-A")
    m = {back.source_id[i]: i for i in back.members(a)}
    assert (back.grade[m["B"]], back.state[m["B"]]) == (3.0, GradeState.NUMBER)
    assert back.state[m["A"]] == GradeState.UNRATEABLE
    assert (back.grade[m["C"]], back.state[m["C"]]) == (1.0, GradeState.NUMBER)
    assert back.original_grade[m["B"]] == 1.0  # raw grades never overwritten
    assert back.note[m["A"]] == "no page"
    assert back.note[back.members(back.query_index("case-B"))[0]] == "only a note"
    assert [(e.who, e.origin, e.query, e.source_id, e.before, e.after, e.note)
            for e in back.audit] == [
        (OUTSIDE_WHO, OUTSIDE_ORIGIN, "case-A", "B", "1", "3", ""),
        (OUTSIDE_WHO, OUTSIDE_ORIGIN, "case-A", "A", "3", "unrateable", "no page"),
        (OUTSIDE_WHO, OUTSIDE_ORIGIN, "case-A", "C", "0", "1", ""),
    ]
    # Reading twice gives the same; the input file is never changed.
    before = edited.read_bytes()
    assert len(read_workbook(edited).audit) == 3
    assert edited.read_bytes() == before


def test_grade_cells_read_like_typed_and_pasted_grades(tmp_path: Path) -> None:
    doc = seed_document()
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(doc), out)
    edited = tmp_path / "edited.xlsx"
    # Row 2 = case-A/B; row 3 = case-A/A; row 4 = case-A/C (see above).
    _edit(out, edited, {"F2": "N/A", "F3": "unrateable: page gone", "F4": "2,5"})
    back = read_workbook(edited)
    m = {back.source_id[i]: i for i in back.members(back.query_index("case-A"))}
    assert (back.state[m["B"]], back.reason[m["B"]]) == (GradeState.UNRATEABLE, "")
    assert (back.state[m["A"]], back.reason[m["A"]]) == (GradeState.UNRATEABLE, "page gone")
    assert (back.grade[m["C"]], back.state[m["C"]]) == (2.5, GradeState.NUMBER)
    assert [(e.source_id, e.after) for e in back.audit] == [
        ("B", "unrateable"), ("A", "unrateable: page gone"), ("C", "2.5")]


@pytest.mark.parametrize(("value", "message"), [
    ("lots", "the current grade 'lots' is not a grade (use a number, a rubric label"),
    ("=2+1", "is a formula"),
    (True, "not a grade"),
])
def test_bad_grade_cell_names_sheet_row_column(tmp_path: Path, value: Any, message: str) -> None:
    doc = seed_document()
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(doc), out)
    edited = tmp_path / "edited.xlsx"
    wb = openpyxl.load_workbook(out)
    cell = wb[SHEETS["candidates"]]["F7"]
    cell.value = value
    wb.save(edited)
    with pytest.raises(InputError) as info:
        read_workbook(edited)
    err = info.value
    assert (err.sheet, err.line) == ("Candidates", 7)
    assert err.column is not None
    assert err.column.startswith("F")
    assert message in str(err)



def test_a_formula_in_a_grade_cell_is_refused_with_its_row(tmp_path: Path) -> None:
    doc = seed_document()
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(doc), out)
    wb = openpyxl.load_workbook(out)
    wb[SHEETS["candidates"]]["F9"] = "=1+2"  # a real formula: calamine would give its value
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    with pytest.raises(InputError, match="is a formula") as info:
        read_workbook(edited)
    assert (info.value.sheet, info.value.line) == ("Candidates", 9)


@pytest.mark.parametrize("error", ["#N/A", "#DIV/0!"])
def test_an_error_value_in_a_grade_cell_is_refused_not_read_as_unknown(tmp_path: Path,
                                                                        error: str) -> None:
    # An error value typed over a grade (openpyxl stores "#N/A" as Excel does:
    # a cell of type "e", which readers give as empty) is no judgment.
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), out)
    wb = openpyxl.load_workbook(out)
    cell = wb[SHEETS["candidates"]]["F3"]
    cell.value = error
    assert cell.data_type == "e"
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    before = edited.read_bytes()
    with pytest.raises(InputError, match="error value") as info:
        read_workbook(edited)
    assert (info.value.sheet, info.value.line) == ("Candidates", 3)
    assert edited.read_bytes() == before


def test_formula_rows_finds_the_cells_of_one_column_across_pieces(tmp_path: Path) -> None:
    # Over 1 MiB of sheet XML, so the streaming scan meets piece boundaries.
    import xlsxwriter

    from core.io.safety import check_xlsx, find_cells_not_data, formula_rows

    path = tmp_path / "many.xlsx"
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet("S")
    want = set()
    for r in range(30_000):
        ws.write_string(r, 0, f"row {r} " + "x" * (r % 40))
        if r % 997 == 3:
            ws.write_formula(r, 5, f"=A{r + 1}&\"<F\"", None, "")
            want.add(r + 1)
        else:
            ws.write_number(r, 5, r % 4)
        ws.write_formula(r, 6, f"=F{r + 1}+1", None, 0)  # another column's formulas
    wb.close()
    check = check_xlsx(path)
    part = check.parts["S"]
    assert set(formula_rows(path, part, "F")) == want
    assert len(formula_rows(path, part, "G")) == 30_000
    assert formula_rows(path, part, "A") == []
    formulas, errors = find_cells_not_data(path, part)
    assert errors == []
    exact = {int(ref[1:]) for ref, _ in formulas if ref[0] == "F"}
    assert exact == want

def test_moved_rows_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), out)
    edited = tmp_path / "edited.xlsx"
    _edit(out, edited, {"B2": "A", "B3": "B"})
    with pytest.raises(InputError, match="rows were moved") as info:
        read_workbook(edited)
    assert (info.value.sheet, info.value.line) == ("Candidates", 2)


def test_foreign_workbook_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "annotators.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["query", "source", "grade"])
    wb.active.append(["q1", "d1", 2])
    wb.save(path)
    with pytest.raises(NotOwnWorkbook, match="not an NDCG Worksheet workbook"):
        read_workbook(path)
    assert not is_own_workbook(path)
    # Our metadata sheet with damaged contents is refused the same way.
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), out)
    assert is_own_workbook(out)
    wb = openpyxl.load_workbook(out)
    wb[SHEETS["metadata"]]["A2"].value = '{"format": "something else"'
    wb.save(path)
    with pytest.raises(NotOwnWorkbook, match="not an NDCG Worksheet workbook") as info:
        read_workbook(path)
    assert info.value.sheet == SHEETS["metadata"]
    assert not is_own_workbook(path)
    # Metadata of our format that does not hold a document: our workbook,
    # damaged (refused naming the field, not read as an annotators' sheet).
    wb = openpyxl.load_workbook(out)
    ws = wb[SHEETS["metadata"]]
    ws["B1"].value = "1"
    ws["A2"].value = json.dumps({"format": METADATA_FORMAT})
    wb.save(path)
    with pytest.raises(InputError, match="field 'query_ids' is missing") as info:
        read_workbook(path)
    assert not isinstance(info.value, NotOwnWorkbook)
    assert info.value.sheet == SHEETS["metadata"]
    assert is_own_workbook(path)


def test_damaged_files_give_input_errors(tmp_path: Path) -> None:
    out = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), out)
    truncated = tmp_path / "truncated.xlsx"
    truncated.write_bytes(out.read_bytes()[:3000])
    with pytest.raises(InputError):
        read_workbook(truncated)
    # A workbook whose sheet XML is broken (sheet2: Conventions, sheet3: Candidates).
    for part in ("sheet2", "sheet3"):
        broken = tmp_path / f"broken-{part}.xlsx"
        with zipfile.ZipFile(out) as src, zipfile.ZipFile(broken, "w") as dst:
            for info in src.infolist():
                data = src.read(info.filename)
                if info.filename.startswith(f"xl/worksheets/{part}"):
                    data = data[: len(data) // 2]
                dst.writestr(info, data)
        with pytest.raises(InputError) as err:
            read_workbook(broken)
        assert str(broken) in str(err.value)


def test_export_is_atomic(tmp_path: Path) -> None:
    out = tmp_path / "w.xlsx"
    out.write_bytes(b"previous")
    doc = Document.from_columns(query=["q"], source_id=["a"], score=[1.0], grade=[-1.0])
    with pytest.raises(InputError):  # exponential gain cannot take a negative grade
        export_workbook(evaluate(doc, Conventions(gain=Gain.parse("exponential"))), out)
    assert out.read_bytes() == b"previous"
    assert [p.name for p in tmp_path.iterdir()] == ["w.xlsx"]


def test_cli_export(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("query,source_id,score,grade\nq1,a,2,1\nq1,b,1,3\nq2,c,1,0\n")
    out = tmp_path / "out.xlsx"
    buf = io.StringIO()
    assert main(["export", str(src), "-o", str(out), "--k", "1", "--gain", "exponential"],
                out=buf) == 0
    assert "wrote" in buf.getvalue()
    doc = read_workbook(out)
    assert doc.conventions.cutoffs == (1,)
    assert doc.conventions.gain.rule.value == "exponential"
    values = read_values(out)
    assert values["Queries"][1][:7] == ["q1", 1, 1, 1, 7, pytest.approx(1 / 7), "ok"]
    # The exported workbook is itself an input.
    buf = io.StringIO()
    assert main(["evaluate", str(out), "--format", "json"], out=buf) == 0
    assert json.loads(buf.getvalue())["queries"][0]["status"] == "ok"


def test_example_workbook_is_current(tmp_path: Path) -> None:
    from app.cli.example import write_example

    shipped = Path(__file__).resolve().parent.parent / "resources" / "example.xlsx"
    fresh = tmp_path / "example.xlsx"
    assert write_example([str(fresh)]) == 0
    assert all_cells(shipped) == all_cells(fresh)
    shutil.copy(shipped, tmp_path / "copy.xlsx")
    _assert_same_document(read_workbook(tmp_path / "copy.xlsx"), seed_document())


def test_the_conventions_sheet_counts_what_was_ranked_and_never_judged(tmp_path: Path) -> None:
    """Below the ranked list's name: the candidates with a score and an
    unknown grade, a live count over the Candidates sheet (the seed: one, B
    of case-F-unknown), in .xlsx and in .ods (OpenFormula, its value stored)."""
    from tests.test_workbook_ods import ods_values

    doc = seed_document()
    assert [doc.source_id[i] for i in range(len(doc))
            if doc.state[i] == GradeState.UNKNOWN] == ["B"]
    for suffix in ("xlsx", "ods"):
        path = tmp_path / f"seed.{suffix}"
        export_workbook(evaluate(doc), path)
        values = (read_values if suffix == "xlsx" else ods_values)(path)[SHEETS["conventions"]]
        labels = [row[0] for row in values if row]
        at = labels.index(UNJUDGED_LABEL)
        assert labels[at - 1] == "ranked list"
        assert values[at][1] == 1, suffix
    formula = all_cells(tmp_path / "seed.xlsx")[SHEETS["conventions"]][at][1]
    last = len(doc) + 1
    assert formula == (f'=SUMPRODUCT((Candidates!$G$2:$G${last}="unknown")'
                       f'*(Candidates!$D$2:$D${last}<>""))')


def test_the_cutoff_cells_read_right_aligned_numbers_and_all_alike(tmp_path: Path) -> None:
    """The k of the Queries and Summary sheets is a number or the word "all":
    both right-aligned, as numbers are (on paper "all" sat at the left of a
    column of numbers)."""
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(seed_document(), Conventions(cutoffs=(1, None))), out)
    wb = openpyxl.load_workbook(out)
    for sheet in ("Queries", "Summary"):
        ws = wb[SHEETS[sheet.lower()]]
        column = next(c for c in ws[1] if c.value == "k").column
        cells = [ws.cell(r, column) for r in range(2, ws.max_row + 1)
                 if ws.cell(r, column).value is not None]
        assert len(cells) >= 2, sheet
        assert {str(c.value).startswith("=IF(ISNUMBER(cut_") for c in cells} == {True}, sheet
        assert {c.alignment.horizontal for c in cells} == {"right"}, sheet
