"""The workbook's formulas, recalculated by a real spreadsheet engine
(headless LibreOffice), equal the engine to 1e-12: as exported, after k and the
gain rule are changed in the Conventions sheet, and after grades are edited.

All workbooks go through one ``soffice`` call (module fixture), so the suite
pays LibreOffice's cold start once. A missing LibreOffice fails these tests.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter

from core.engine.evaluation import evaluate
from core.io.workbook import OUTSIDE_ORIGIN, SHEETS, export_workbook, read_workbook
from core.model.conventions import Conventions, Gain
from core.model.document import Document, GradeState
from core.model.examples import seed_document
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
    seed = seed_document()
    export_workbook(evaluate(seed), src / "seed.xlsx")
    jobs["seed"] = (src / "seed.xlsx", seed, seed.conventions)

    # k, the gain rule and the ideal inventory changed in the Conventions sheet.
    doc0, conv0 = case(0)
    _set_conventions(jobs["case0"][0], src / "k_changed.xlsx",
                     {"cut_1": 2, "cut_3": 4, "gain_rule": "exponential", "ideal_rule": "judged"})
    jobs["k_changed"] = (src / "k_changed.xlsx", doc0, conv0.replace(
        cutoffs=(2, 3, 4), gain=Gain.parse("exponential"), ideal="judged"))
    # Unknown grades as 0, ties no longer averaged, a gain table typed in.
    _set_conventions(jobs["case0"][0], src / "rules_changed.xlsx",
                     {"unknown_rule": "zero", "tie_rule": "supplied", "zero_ideal_rule": "zero"})
    jobs["rules_changed"] = (src / "rules_changed.xlsx", doc0, conv0.replace(
        unknown="zero", ties="supplied", zero_ideal="zero"))
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

    paths = recalculate([p for p, _, _ in jobs.values()], out)
    return {"jobs": jobs, "out": dict(zip(jobs, paths, strict=True)), "edits": edits}


@pytest.mark.parametrize("name", [f"case{n}" for n in range(len(CONVENTIONS))] + ["seed"])
def test_recalculated_formulas_equal_the_engine(recalculated: dict[str, Any], name: str) -> None:
    _, doc, conv = recalculated["jobs"][name]
    check_values(read_values(recalculated["out"][name]), doc, conv)


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
        _, doc, _conv = recalculated["jobs"][name]
        _assert_same_document(read_workbook(recalculated["out"][name]), doc)


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
