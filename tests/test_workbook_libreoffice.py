"""The workbook's formulas, recalculated by a real spreadsheet engine
(headless LibreOffice), equal the engine to 1e-12: as exported, after k and the
gain rule are changed in the Conventions sheet, and after grades are edited;
the files LibreOffice saved reopen in the app with the edited conventions and
the same NDCG; the Report's text recomputes to what the app wrote; the
example prints in a few landscape pages.

All workbooks go through one ``soffice`` call (module fixture), so the suite
pays LibreOffice's cold start once. A missing LibreOffice fails these tests.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import xlsxwriter

from core.analysis.compare import compare
from core.engine.evaluation import evaluate
from core.engine.gains import lifted_queries
from core.io.workbook import (
    CONVENTION_ENTRY,
    OUTSIDE_ORIGIN,
    SHEETS,
    export_comparison_workbook,
    export_workbook,
    read_workbook,
    reopened,
)
from core.io.workbook.values import candidate_values, row_layout
from core.model.conventions import Conventions, Gain, Guideline
from core.model.document import Document, GradeState
from core.model.examples import seed_document
from core.model.presets import preset
from tests.libreoffice import read_values, recalculate
from tests.test_workbook_export import CONVENTIONS, _assert_same_document, case, check_values

pytestmark = pytest.mark.libreoffice


def _names(wb: Any) -> dict[str, str]:
    """Defined name -> cell coordinate on the Conventions sheet."""
    out = {}
    for name, dn in wb.defined_names.items():
        sheet, _, ref = dn.attr_text.partition("!")
        if sheet.strip("'") == SHEETS["conventions"] and ":" not in ref:
            out[name] = ref.replace("$", "")
    return out


def _set_conventions(src: Path, dst: Path, values: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(src)
    names = _names(wb)
    ws = wb[SHEETS["conventions"]]
    for name, value in values.items():
        ws[names[name]].value = value
    wb.save(dst)


def _set_cells(src: Path, dst: Path, cells: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(src)
    ws = wb[SHEETS["candidates"]]
    for ref, value in cells.items():
        ws[ref].value = value
    wb.save(dst)


def _grade_rows(path: Path, doc: Document) -> dict[int, int]:
    """Document index -> sheet row of its current-grade cell."""
    wb = openpyxl.load_workbook(path, read_only=True)
    index = {(doc.query_ids[int(doc.query[i])], doc.source_id[i]): i for i in range(len(doc))}
    rows = {index[(r[0], r[1])]: n
            for n, r in enumerate(wb[SHEETS["candidates"]].iter_rows(min_row=2, max_col=2,
                                                                     values_only=True), start=2)}
    wb.close()
    return rows


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Export every case and every edited copy, recalculate all in one call."""
    src = tmp_path_factory.mktemp("export")
    out = tmp_path_factory.mktemp("recalculated")
    jobs: dict[str, tuple[Path, Document, Conventions]] = {}
    for n in range(len(CONVENTIONS)):
        doc, conv = case(n)
        path = src / f"case{n}.xlsx"
        export_workbook(evaluate(doc, conv), path)
        jobs[f"case{n}"] = (path, doc, conv)
    # An ideal DCG below 0 (grades -1, 0, -0.5): the status formula says "negative".
    negative = Document.from_columns(
        query=["q1"] * 3 + ["q2"] * 2, source_id=["a", "b", "c", "a", "b"],
        score=[3.0, 2.0, 1.0, 3.0, 2.0], grade=[-1.0, 0.0, -0.5, 1.0, 0.0])
    conv_negative = Conventions(cutoffs=(1, None))
    export_workbook(evaluate(negative, conv_negative), src / "negative.xlsx")
    jobs["negative"] = (src / "negative.xlsx", negative, conv_negative)
    seed = seed_document()
    export_workbook(evaluate(seed), src / "seed.xlsx")
    jobs["seed"] = (src / "seed.xlsx", seed, seed.conventions)
    # A guideline edited in the Conventions sheet (its examples on two lines).
    wb = openpyxl.load_workbook(src / "seed.xlsx")
    ref = wb.defined_names["guidelines"].attr_text.split("!")[1].replace("$", "")
    two = wb[SHEETS["conventions"]][ref][2][0].row  # grades 0, 1, 2, 3
    wb[SHEETS["conventions"]][f"C{two}"].value = "Most of it."
    wb[SHEETS["conventions"]][f"E{two}"].value = "a rounded figure\nthe year only"
    wb.save(src / "guideline_changed.xlsx")
    jobs["guideline_changed"] = (src / "guideline_changed.xlsx", seed, seed.conventions.replace(
        guidelines=seed.conventions.guidelines.with_guideline(
            Guideline(2, "Most of it.", ("a rounded figure", "the year only")))))

    # k, the gain rule and the ideal inventory changed in the Conventions sheet.
    doc0, conv0 = case(0)
    _set_conventions(jobs["case0"][0], src / "k_changed.xlsx",
                     {"cut_1": 2, "cut_3": 4, "gain_rule": "exponential", "ideal_rule": "judged"})
    jobs["k_changed"] = (src / "k_changed.xlsx", doc0, conv0.replace(
        cutoffs=(2, 3, 4), gain=Gain.parse("exponential"), ideal="judged"))
    # Unknown grades as 0, ties no longer averaged, a gain table typed in.
    _set_conventions(jobs["case0"][0], src / "rules_changed.xlsx",
                     {"unknown_rule": "zero", "tie_rule": "supplied", "zero_ideal_rule": "zero",
                      "unranked_rule": "zero"})
    jobs["rules_changed"] = (src / "rules_changed.xlsx", doc0, conv0.replace(
        unknown="zero", ties="supplied", zero_ideal="zero", unranked="zero"))
    doc7, conv7 = case(7)
    wb = openpyxl.load_workbook(jobs["case7"][0])
    ws = wb[SHEETS["conventions"]]
    grades_ref = wb.defined_names["gain_grades"].attr_text.split("!")[1].replace("$", "")
    first = ws[grades_ref.split(":")[0]].row
    ws.cell(first + 2, 1).value = 1
    ws.cell(first + 2, 2).value = 4
    ws[_names(wb)["cut_1"]].value = "all"
    ws[_names(wb)["cut_2"]].value = 1
    wb.save(src / "table_changed.xlsx")
    jobs["table_changed"] = (src / "table_changed.xlsx", doc7, conv7.replace(
        gain=Gain.parse("0=0.5,1=4,3=10"), cutoffs=(None, 1)))

    # Grades edited in the spreadsheet (average ties, unresolved unknowns).
    edited_doc, conv = case(0)
    rows = _grade_rows(jobs["case0"][0], edited_doc)
    unknown = [i for i in range(len(edited_doc)) if edited_doc.state[i] == GradeState.UNKNOWN]
    numeric = [i for i in range(len(edited_doc)) if edited_doc.state[i] == GradeState.NUMBER]
    edits = {unknown[0]: 2.0, unknown[1]: 0.0, numeric[0]: "unknown", numeric[5]: 3.0,
             numeric[6]: "unrateable"}
    _set_cells(jobs["case0"][0], src / "graded.xlsx",
               {f"F{rows[i]}": v for i, v in edits.items()})
    for i, v in edits.items():
        if isinstance(v, float):
            edited_doc.set_grade(i, v, who="t")
        else:
            edited_doc.set_grade(i, None, GradeState.UNKNOWN if v == "unknown"
                                 else GradeState.UNRATEABLE, who="t")
    jobs["graded"] = (src / "graded.xlsx", edited_doc, conv)

    # Gains below 2^-900 (core.engine.gains.lifted), in .xlsx and .ods; and
    # a grade of the normal range typed among them (their lift then 1).
    for name in ("tiny", "tiny_ods"):
        path = src / f"{name}.{'ods' if name.endswith('ods') else 'xlsx'}"
        export_workbook(evaluate(TINY, TINY_CONVENTIONS), path)
        jobs[name] = (path, TINY, TINY_CONVENTIONS)
    typed = tiny_document()
    typed.set_grade(0, 3.0, who="t")
    _set_cells(jobs["tiny"][0], src / "tiny_typed.xlsx",
               {f"F{_grade_rows(jobs['tiny'][0], TINY)[0]}": 3.0})
    jobs["tiny_typed"] = (src / "tiny_typed.xlsx", typed, TINY_CONVENTIONS)

    # A run like MS MARCO's (tied scores, unjudged candidates), under the
    # trec_eval and sklearn presets (sklearn's in .ods too): recalculated with
    # LibreOffice's threaded calculation (its default), sklearn's .xlsx read
    # #VALUE! in query 2 while column Z had no range (LibreOffice 7.4
    # calculated it with AA, range-free too, as one pair of formula groups).
    for name in TIED_RUNS:
        tied_doc, tied_conv = tied_run(name)
        path = src / f"{name}.{'ods' if name.endswith('ods') else 'xlsx'}"
        export_workbook(evaluate(tied_doc, tied_conv), path)
        jobs[name] = (path, tied_doc, tied_conv)

    paths = recalculate([p for p, _, _ in jobs.values()], out)
    return {"jobs": jobs, "out": dict(zip(jobs, paths, strict=True)), "edits": edits}


#: Queries whose gains are all below 2^-900, and one of whole grades:
#: 1e-323, 5e-324, 1e-323 (NDCG 1.333 in the formulas before, 0.9652 in the
#: engine: that of 2, 1, 2); tied scores (their mean gain too); 0, 0,
#: -5e-324 (an ideal DCG below 0 at k = all, 0 at k = 1).
def tiny_document() -> Document:
    return Document.from_columns(
        query=["tiny"] * 3 + ["tied"] * 4 + ["neg"] * 3 + ["whole"] * 3,
        source_id=list("abcdefghijklm"),
        score=[3.0, 2.0, 1.0, 2.0, 2.0, 2.0, 1.0, 3.0, 2.0, 1.0, 3.0, 2.0, 1.0],
        grade=[1e-323, 5e-324, 1e-323, 1e-320, 3e-320, 2e-320, 5e-324, 0.0, 0.0, -5e-324,
               1.0, 0.0, 2.0])


TINY = tiny_document()

#: The runs like MS MARCO's, by the preset they are exported under.
TIED_RUNS = {"tied_trec_eval": "trec_eval", "tied_sklearn": "sklearn",
             "tied_sklearn_ods": "sklearn"}


def tied_run(name: str) -> tuple[Document, Conventions]:
    """Three queries of 100 ranked candidates (pairs of equal scores every 7
    ranks), 25 of them and 5 unretrieved ones judged 0-3, the rest unknown."""
    rng = np.random.default_rng(7)
    query: list[str] = []
    source: list[str] = []
    score: list[float | None] = []
    grade: list[float | None] = []
    for q in ("1048585", "2", "524332"):
        scores = np.round(20 - np.arange(100) * 0.1 + rng.normal(0, 3.0, 100), 2)
        scores[1:30:7] = scores[0:29:7]
        judged = rng.choice([0.0, 0.0, 1.0, 1.0, 2.0, 3.0], 30)
        for i in range(105):
            query.append(q)
            source.append(f"{q}-{i}")
            score.append(float(scores[i]) if i < 100 else None)
            grade.append(float(judged[i]) if i < 25 else float(judged[i - 75]) if i >= 100
                         else None)
    doc = Document.from_columns(query=query, source_id=source, score=score, grade=grade)
    return doc, preset(TIED_RUNS[name], cutoffs=(10,))
TINY_CONVENTIONS = Conventions(cutoffs=(1, None))


@pytest.mark.parametrize("name", [f"case{n}" for n in range(len(CONVENTIONS))]
                         + ["seed", "negative", *TIED_RUNS])
def test_recalculated_formulas_equal_the_engine(recalculated: dict[str, Any], name: str) -> None:
    _, doc, conv = recalculated["jobs"][name]
    values = read_values(recalculated["out"][name])
    check_values(values, doc, conv)
    if name in TIED_RUNS:  # the tie-averaged gain, its product, whether it is known
        _check_tie_columns(values, doc, conv)
    if name == "negative":  # LibreOffice's statuses (at k=1 the ideal is the 0: undefined)
        status = {(r[0], r[1]): r[6] for r in values["Queries"][1:]}
        assert status == {("q1", 1): "undefined", ("q1", "all"): "negative",
                          ("q2", 1): "ok", ("q2", "all"): "ok"}


def _check_tie_columns(values: dict[str, list[list[Any]]], doc: Document,
                       conv: Conventions) -> None:
    """The recalculated helper columns V, X, Y and Z equal the values the
    export cached (the engine's): while Z had no range, LibreOffice's threaded
    calculation read query 2's first row's gain known (V) 0 though its gain
    (J) is 2, so its tie-averaged gain blank (X, Y) and Z 0."""
    ev = evaluate(doc, conv)
    perm, blocks = row_layout(doc, ev)
    stored = candidate_values(doc, ev, perm, blocks)
    cells = values[SHEETS["candidates"]][1:]
    for c, key in ((21, "gain known"), (23, "avg gain"), (24, "avg x discount"),
                   (25, "avg known")):
        mine = np.array([np.nan if row[c] in (None, "") else row[c] for row in cells], dtype=float)
        np.testing.assert_allclose(mine, stored[key].astype(float), rtol=1e-13, err_msg=key)


@pytest.mark.parametrize("name", ["tiny", "tiny_ods", "tiny_typed"])
def test_recalculated_formulas_of_tiny_gains_equal_the_engine(
        recalculated: dict[str, Any], name: str) -> None:
    """The formulas of a query whose gains the engine lifted lift them too
    (by 2^1023): LibreOffice's DCG, ideal DCG, NDCG and status are the
    engine's (grades 1e-323, 5e-324, 1e-323 read 1.3333 before, 0.9652 now),
    the lifted cells the values the export stored; the whole-grade query's
    formulas are those of any export (no lift). A grade 3 typed among the
    tiny ones: the query is no longer lifted, in the engine or the sheet
    (a constant lift made its cells #NUM!)."""
    values = read_values(recalculated["out"][name])
    _, doc, conv = recalculated["jobs"][name]
    ev = evaluate(doc, conv)
    assert lifted_queries(ev).tolist() == [name != "tiny_typed", True, True, False]
    got = {(r[0], r[2]): r[3:7] for r in values[SHEETS["queries"]][1:]}
    for q, qid in enumerate(doc.query_ids):
        for j in range(2):
            dcg, idcg, ndcg, status = got[(qid, j + 1)]
            where = (qid, j)
            assert status == ev.status(q, j).value, where
            assert ndcg in (None, "") if status != "ok" else \
                abs(ndcg - ev.ndcg[q, j]) <= 1e-12, (where, ndcg)
            for mine, want in ((dcg, ev.dcg[q, j]), (idcg, ev.idcg[q, j])):
                assert abs(mine - want) <= 1e-12 * abs(want), (where, mine, want)
    if name != "tiny_typed":
        assert got[("tiny", 2)][2] == pytest.approx(0.9651954696014428, abs=1e-12)
    perm, blocks = row_layout(doc, ev)
    stored = candidate_values(doc, ev, perm, blocks)
    cells = values[SHEETS["candidates"]][1:]
    for c, key in ((14, "k-th ideal contribution"), (23, "avg gain"), (24, "avg x discount")):
        mine = np.array([np.nan if row[c] in (None, "") else row[c] for row in cells], dtype=float)
        np.testing.assert_allclose(mine, stored[key], rtol=1e-13, err_msg=key)
    whole = [row[14] for row in cells if row[0] == "whole"]
    assert whole[:2] == pytest.approx([2.0, 1 / math.log2(3)], rel=1e-13)


@pytest.mark.parametrize("name", ["k_changed", "rules_changed", "table_changed"])
def test_changed_conventions_recompute(recalculated: dict[str, Any], name: str) -> None:
    _path, doc, conv = recalculated["jobs"][name]
    check_values(read_values(recalculated["out"][name]), doc, conv)
    # The numbers really moved: the exported ones no longer hold.
    original = recalculated["jobs"]["case7" if name == "table_changed" else "case0"]
    with pytest.raises(AssertionError):
        check_values(read_values(recalculated["out"][name]), original[1], original[2])


def test_edited_grades_recompute_and_reopen(recalculated: dict[str, Any]) -> None:
    _, doc, conv = recalculated["jobs"]["graded"]
    out = recalculated["out"]["graded"]
    check_values(read_values(out), doc, conv)
    # The file LibreOffice saved reopens with the edits and an audit entry each.
    back = read_workbook(out)
    edits = recalculated["edits"]
    assert len(back.audit) == len(edits)
    assert {e.origin for e in back.audit} == {OUTSIDE_ORIGIN}
    for i in edits:
        assert back.state[i] == doc.state[i]
        assert back.grade[i] == doc.grade[i] or doc.state[i] != GradeState.NUMBER
    original, _ = case(0)
    assert (back.original_grade == original.original_grade).sum() == len(doc) - sum(
        1 for i in range(len(doc)) if original.original_state[i] != GradeState.NUMBER)


def test_libreoffice_resave_reopens_losslessly(recalculated: dict[str, Any]) -> None:
    for name in ("case2", "seed"):
        _, doc, conv = recalculated["jobs"][name]
        back = read_workbook(recalculated["out"][name])
        # A workbook reopens under the conventions its sheets show (case 2 was
        # exported under trec_eval's, not the document's own defaults).
        assert back.conventions == conv
        assert back.audit == doc.audit
        back.conventions = doc.conventions
        _assert_same_document(back, doc)


def test_helper_really_recalculates(tmp_path: Path) -> None:
    """A deliberately wrong cached result is replaced: the profile forces recalc."""
    src = tmp_path / "in"
    src.mkdir()
    wb = xlsxwriter.Workbook(str(src / "stale.xlsx"))
    ws = wb.add_worksheet()
    ws.write_number(0, 0, 2)
    ws.write_formula(0, 1, "=A1*3", None, 5)
    wb.close()
    (out,) = recalculate([src / "stale.xlsx"], tmp_path / "out")
    assert read_values(out)["Sheet1"][0] == [2, 6]


def test_missing_soffice_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    with pytest.raises(FileNotFoundError, match="libreoffice-calc-nogui"):
        recalculate([tmp_path / "x.xlsx"], tmp_path / "out")


# -- reopening what LibreOffice recalculated and saved ---------------------------------------
@pytest.mark.parametrize(("name", "changed"), [
    ("k_changed", {"gain rule = linear": "gain rule = exponential",
                   "cutoffs = 1, 3, all": "cutoffs = 2, 3, 4",
                   "ideal inventory = ranked": "ideal inventory = judged"}),
    ("rules_changed", {"ties = average": "ties = supplied",
                       "unknown grades = unresolved": "unknown grades = zero",
                       "zero ideal = undefined": "zero ideal = zero",
                       "query with no ranking = undefined": "query with no ranking = zero"}),
    ("table_changed", {"gain rule = 0=0.5,3=10": "gain rule = 0=0.5,1=4,3=10",
                       "cutoffs = 2, all": "cutoffs = all, 1"}),
    ("guideline_changed", {
        "guideline for grade 2 = The source supports most of the claim; what it leaves out a "
        "reader could infer. | examples: the source gives the figure rounded, the claim gives "
        "it exactly": "guideline for grade 2 = Most of it. | examples: a rounded figure; the "
                      "year only"}),
])
def test_conventions_edited_in_the_sheet_reopen_as_libreoffice_computed(
        recalculated: dict[str, Any], name: str, changed: dict[str, str]) -> None:
    _path, _doc, conv = recalculated["jobs"][name]
    out = recalculated["out"][name]
    back = read_workbook(out)
    # The app takes the sheet's conventions and logs each change once ...
    assert back.conventions == conv
    assert {e.before: e.after for e in back.audit} == changed
    assert {(e.query, e.source_id, e.origin) for e in back.audit} == {
        (CONVENTION_ENTRY, CONVENTION_ENTRY, OUTSIDE_ORIGIN)}
    found = reopened(back)
    assert found is not None
    assert not found.refused
    assert len(found.conventions) == len(changed)
    # ... and its NDCG is LibreOffice's, for every query, cutoff and mean.
    check_values(read_values(out), back, back.conventions)


def test_the_report_recalculated_reads_what_the_app_wrote(recalculated: dict[str, Any]) -> None:
    """Every sentence, word and number of the Report as LibreOffice computes it
    equals the cached text the app wrote; after k and the gain rule changed,
    the Report says so."""
    for name in ("seed", "case2", "case0", "case7"):  # case7: only unranked queries left out
        path = recalculated["jobs"][name][0]
        cached = _report(read_values(path))
        recomputed = _report(read_values(recalculated["out"][name]))
        assert len(cached) == len(recomputed)
        for (r, c, want), (_, _, got) in zip(cached, recomputed, strict=True):
            if isinstance(want, float):
                assert got == pytest.approx(want, abs=1e-12), (name, r, c)
            else:
                assert got == want, (name, r, c)
    texts = [v for _, _, v in _report(read_values(recalculated["out"]["k_changed"]))]
    assert "k = 2, 3, 4; the same k cuts the actual and the ideal list" in texts
    assert "exponential gain (gain = 2^grade - 1)" in texts
    assert any(str(t).startswith("The equal-query mean of NDCG@2 over ") for t in texts)


def _report(values: dict[str, list[list[Any]]]) -> list[tuple[int, int, Any]]:
    return [(r, c, v) for r, row in enumerate(values[SHEETS["report"]])
            for c, v in enumerate(row) if v not in (None, "")]


def test_the_example_prints_in_a_few_landscape_pages(tmp_path: Path) -> None:
    from app.cli.example import write_example
    from tests.libreoffice import pdf_pages, to_pdf
    from tests.test_workbook_comparison import seed_pair

    src = tmp_path / "in"
    src.mkdir()
    assert write_example([str(src / "example.xlsx")]) == 0
    a, b = seed_pair()
    export_comparison_workbook(compare(a, b, resamples=200, seed=3), src / "pair.xlsx")
    export_workbook(evaluate(seed_document()), src / "example_ods.ods")
    example, pair, ods = to_pdf([src / "example.xlsx", src / "pair.xlsx",
                                 src / "example_ods.ods"], tmp_path / "pdf")
    pages = pdf_pages(example)
    assert 1 < len(pages) < 8
    assert all(w > h for w, h in pages)  # landscape
    # The .ods each sheet one page wide too, and its Conventions on one page
    # as the xlsx's: 7 pages (12 when its wide sheets were cut into columns,
    # the Report's last column alone on a page; 8 with the Conventions on 2).
    n = len(pdf_pages(ods))
    assert n == len(pages)
    # ... under the xlsx's page header and footer: the file, the sheet, "Page n of m".
    text = subprocess.run(["pdftotext", "-layout", str(ods), "-"], capture_output=True,
                          text=True, check=True, timeout=60).stdout
    heads = [line.split() for line in text.splitlines() if "example_ods.ods" in line]
    assert [h[1] for h in heads] == ["Report"] * 2 + ["Conventions"] + [
        "Candidates", "Queries", "Summary", "Audit"]
    assert [f"Page {i} of {n}" in text for i in range(1, n + 1)] == [True] * n
    pages = pdf_pages(pair)
    assert all(w > h for w, h in pages)
    assert len(pages) < 16
