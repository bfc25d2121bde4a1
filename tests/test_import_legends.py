"""Legends, keys and labels against the import: sheets drawn with a
legend of their scale (right, lacking a grade, of labels only), labels on
no known scale, under headers naming nothing, a key beside the judgments,
the grades again in words; the preview reads the labels as the import
does, by one rule.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import Phase, event, example, given, settings
from hypothesis import strategies as st

from app.cli.main import main
from core.errors import InputError
from core.io.annotator import import_annotations
from core.io.annotator import importer as importer_module
from core.io.annotator import sheet_preview as preview_module
from core.io.annotator.legend import LabelsRead, read_labels
from core.io.annotator.sheet_preview import preview
from core.io.safety import column_letters
from tests.sheetgen import (
    Drawn,
    sheets,
    write_sheet,
)
from tests.sheetgen_legends import LEGENDS

# derandomize seeds each test's draws from its source: the tests call the
# helpers by the names they were written with, so they draw the same sheets
from tests.sheetimport import OFFERED as _OFFERED
from tests.sheetimport import PROFILE, QUERIES
from tests.sheetimport import grades_of as _grades
from tests.sheetimport import holds as _holds
from tests.sheetimport import run_sheet as _run

#: Sheets drawn with a legend of their grade scale, right or lacking a grade.
LEGEND_SHEETS = 16


def _legend_sheet_named() -> Drawn:
    """A wide sheet under neutral headers beside a sheet ``Legend`` whose
    header names a field (``Grade`` | ``Meaning``): the judgments' sheet is
    read, never the legend's (it was chosen for its header, and refused as
    having no query column; drawn in some runs and not others)."""
    grades = [(1, 1), (1, 3), (4, 5), (1, 4), (2, 2), (4, 4), (3, 5), (2, 1), (5, 5)]
    rows: list[list[Any]] = [["grade_ben_at_lab_example", "grade_ana_at_lab_example", "col3",
                              "col4"]]
    rows += [[b, a, QUERIES[i // 3], f"B0{i // 3}00{i % 3}XK{i % 3}"]
             for i, (b, a) in enumerate(grades)]
    return Drawn(rows, "wide", {(r[2], r[3]): sorted([float(r[0]), float(r[1])])
                                for r in rows[1:]}, grade_headers=rows[0][:2],
                 column_kinds=["grade", "grade", "query", "source"],
                 legend_sheet=[["Grade", "Meaning"], *([g, t] for g, t in LEGENDS["1-5"])])


@settings(PROFILE, max_examples=LEGEND_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(_legend_sheet_named(), ".xlsx")
@given(st.sampled_from(["right", "wrong"]).flatmap(lambda kind: sheets(legend=kind)),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_legend_on_the_sheet_is_the_scale(sheet: Drawn, suffix: str) -> None:
    """"0 = not relevant, 1 = partial, ..., 3 = perfect" in one cell, one
    level a row or a grade beside its label a row, above the header, on a
    sheet of its own or in a column beside the judgments: the grades'
    scale, the report saying it was read from the legend and where, the
    drawn grades imported; a legend lacking a grade the sheet gives is
    refused in one line naming the legend, the file, the row and column
    of a cell holding it and --rubric."""
    if sheet.legend_sheet is not None:
        suffix = ".xlsx"  # a sheet of its own: a workbook's
    code, err, report, rows = _run(sheet, suffix)
    place = "above" if sheet.above else "sheet" if sheet.legend_sheet else "beside"
    event(f"legend {place} "
          f"{'wrong' if sheet.legend_lacks is not None else 'right'}: "
          f"{'refused' if code else 'imported'}")
    if sheet.legend_lacks is not None and code != 0 and "legend" in err:
        assert len(err.strip().splitlines()) == 1, err
        assert f"drawn{suffix}" in err, err
        assert "--rubric" in err, err
        assert "has no grade" in err, err
        return
    assert sheet.legend_lacks is None or sheet.ambiguous or sheet.extra_grade, err
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0:
        assert report is not None
        assert report["header_row"] == len(sheet.above) + 1, report["header_row"]
        assert report["scale"].startswith("the sheet's legend ("), report["scale"]
        said = {"sheet": "of sheet 'Legend'", "beside": "of column"}  # (or columns)
        for where, words in said.items():
            assert (words in report["scale"]) == (where == place), report["scale"]


#: Sheets drawn with a legend of their labels without grades.
WORD_LEGEND_SHEETS = 12


@settings(PROFILE, max_examples=WORD_LEGEND_SHEETS, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from(["labels", "labels wrong"]).flatmap(lambda kind: sheets(legend=kind)),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_legend_of_labels_is_their_vocabulary_never_their_grades(sheet: Drawn,
                                                                   suffix: str) -> None:
    """"From best to worst: Vital / Useful / Marginal / Useless" (or
    stating no order), in one cell or a label a row, above the header, on a
    sheet of its own or in a column beside the judgments: labels on a known
    scale read on the scale it lists, the report naming it; labels on none
    refused in one line naming the legend and a --rubric, the legend's
    stated order proposed one grade apart (and so imported as drawn), never
    read as grades without it; a label the legend lacks refused naming it."""
    if sheet.legend_sheet is not None:
        suffix = ".xlsx"  # a sheet of its own: a workbook's
    code, err, report, rows = _run(sheet, suffix)
    place = "above" if sheet.above else "sheet" if sheet.legend_sheet else "beside"
    known = "highly relevant" in {w.casefold() for w in sheet.legend_words} or (
        sheet.legend_lacks_label == "Highly relevant")
    event(f"labels legend {place} {'known' if known else 'words'} "
          f"{sheet.legend_order or 'no order'} "
          f"{'wrong' if sheet.legend_lacks_label else 'right'}: "
          f"{'refused' if code else 'imported'}")
    if code != 0 and "legend" not in err:  # refused before: a distractor like grades
        assert sheet.ambiguous or sheet.extra_grade, err
        return
    assert "legend" not in err or len(err.strip().splitlines()) == 1, err
    if sheet.legend_lacks_label is not None:
        assert code != 0, report
        assert f"has no label {sheet.legend_lacks_label!r}" in err, err
        assert f"drawn{suffix}" in err, err
        assert "--rubric" in err, err
        return
    if known:
        _holds(sheet, code, err, report, rows, suffix)
        assert report is not None
        assert code == 0
        assert report["legend_labels"]["labels"] == list(sheet.legend_words), report
        assert "as the sheet's legend (" in report["scale"], report["scale"]
        return
    assert code != 0
    assert "lists the labels, not their grades" in err, err
    example = re.search(r'--rubric "([^"]+)"', err)
    assert example is not None, err
    if not sheet.legend_order:
        assert example[1] == ",".join(f"N={w}" for w in sheet.legend_words), err
        return
    rising = sheet.legend_words[::-1 if sheet.legend_order == "best first" else 1]
    assert example[1] == ",".join(f"{g}={w}" for g, w in enumerate(rising)), err
    assert [w.casefold() for w in rising] == ["useless", "marginal", "useful", "vital"]
    sheet.flags = [*sheet.flags, "--rubric", example[1]]
    _holds(sheet, *_run(sheet, suffix), suffix)


#: Sheets of labels on no known scale beside numbers like grades drawn per run.
UNREAD_SHEETS = 8


@settings(PROFILE, max_examples=UNREAD_SHEETS, phases=[Phase.generate])
@given(sheets(unread=True), st.sampled_from([".csv", ".xlsx"]))
def test_labels_no_scale_reads_are_never_passed_over_for_numbers(sheet: Drawn,
                                                                 suffix: str) -> None:
    """A grade column named so (``relevance``) of labels on no known scale
    (Vital / Useful / ...) beside a column of numbers 1 to 4 named as
    nothing: never imported with the numbers as the grades (it was, the
    labels ignored): refused in one line naming the grade column and a
    --rubric, and the numbers' column with the ``--map grade=`` that takes
    them; each way imports what it says: the rubric of the drawn truth the
    drawn grades, ``--map grade=`` the numbers."""
    code, err, _, rows = _run(sheet, suffix)
    header = sheet.rows[0]
    grade = header[sheet.column_kinds.index("grade")]
    numbers = sheet.column_kinds.index("numbers")
    assert code != 0, rows
    assert len(err.strip().splitlines()) == 1, err
    assert f"column '{grade}'" in err or f"({grade})'" in err, err
    assert "labels on no known scale" in err, err
    assert "--rubric" in err, err
    maps = [v for k, v in _OFFERED.findall(err) if k == "map"]
    event("numbers named" if maps else "numbers not named (another column like grades)")
    if maps:
        ours = f"grade={column_letters(numbers + 1)}"
        assert ours in maps, err  # and any other column like grades
        assert f"{column_letters(numbers + 1)} ({header[numbers]})" in err, err
        code2, err2, _, rows2 = _run(replace(sheet, flags=[*sheet.flags, "--map", ours]),
                                     suffix)
        assert code2 == 0, err2
        q, d = sheet.column_kinds.index("query"), sheet.column_kinds.index("source")
        assert {(r["query"], r["source_id"]): _grades(r, False) for r in rows2} == {
            (str(r[q]), str(r[d])): [float(r[numbers])] for r in sheet.rows[1:]}
    truth = replace(sheet, flags=[*sheet.flags, "--rubric",
                                  "0=Useless,1=Marginal,2=Useful,3=Vital"])
    _holds(truth, *_run(truth, suffix), suffix)


#: Sheets graded in labels under a header that names no grade, drawn per run.
UNNAMED_SHEETS = 8


@settings(PROFILE, max_examples=UNNAMED_SHEETS, phases=[Phase.generate])
@given(sheets(unnamed=True), st.sampled_from([".csv", ".xlsx"]))
def test_labels_under_a_header_naming_no_grade_are_read_by_their_values(
        sheet: Drawn, suffix: str) -> None:
    """A long sheet's grades in labels under ``verdict``, ``outcome``, ...:
    the one column of a few labels repeated, varying within a query, is
    the grade column, its labels read as labels are: a known scale's
    imported as drawn; labels on none refused in one line naming the
    column and a --rubric, which given imports the drawn grades. They were
    refused as 'no grade column found', the column unnamed."""
    code, err, _, _ = _run(sheet, suffix)
    grade = sheet.rows[0][sheet.column_kinds.index("grade")]
    event(f"{'refused' if code else 'imported'}")
    if code == 0:
        _holds(sheet, *_run(sheet, suffix), suffix)
        return
    assert len(err.strip().splitlines()) == 1, err
    assert f"column '{grade}'" in err or f"({grade})'" in err, err
    assert "labels on no known scale" in err, err
    assert "--rubric" in err, err
    truth = replace(sheet, flags=[*sheet.flags, "--rubric",
                                  "0=Useless,1=Marginal,2=Useful,3=Vital"])
    _holds(truth, *_run(truth, suffix), suffix)


def test_several_columns_of_labels_none_named_are_refused_naming_each(tmp_path: Path) -> None:
    """Two columns of a few labels repeated under headers naming nothing
    (``verdict``, ``device``), no other grades: neither is picked; the
    refusal names both and the flags that take one."""
    sheet = tmp_path / "two.csv"
    sheet.write_text("query,doc_id,verdict,device\n" + "".join(
        f"q{i // 4},d{i},{v},{d}\n" for i, (v, d) in enumerate(zip(
            ["relevant", "partly", "not", "relevant", "not", "partly", "relevant", "not"],
            ["mobile", "desktop"] * 4, strict=True))), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv")], io.StringIO()) == 2
    assert err.getvalue() == (
        f"ndcg-worksheet: error: {sheet}: no grade column found in the header on row 1 (A "
        "(query), B (doc_id), C (verdict), D (device)); columns C (verdict) and D (device) "
        "each hold a few labels repeated, varying within a query as grades do, so none was "
        "taken for the grades (if one holds them, pass --map grade=C and --rubric giving each "
        "label its grade)\n")


#: Sheets drawn with labels, legends and keys, whose preview is compared with the import.
READ_ALIKE_SHEETS = 12


@settings(PROFILE, max_examples=READ_ALIKE_SHEETS, phases=[Phase.generate])
@given(st.sampled_from([{"legend": "right"}, {"legend": "labels"}, {"key": True},
                        {"unnamed": True}, {}]).flatmap(lambda kw: sheets(**kw)))
def test_the_preview_reads_the_labels_as_the_import_does(sheet: Drawn) -> None:
    """The wizard's preview and the import read a sheet's labels by one
    rule (``legend.read_labels``: the sheet's legend of its grades, else
    the known scales within a legend of labels, else the numbers' range):
    the same grade for each label, the same rubric, the same words."""
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / "drawn.xlsx")
        try:
            result = import_annotations(path)
        except InputError:
            return  # refused: nothing read to compare
        seen = preview(path)
    report = result.report
    event(report.scale.split(" (")[0][:40] or "no scale")
    assert seen.label_grades == report.labels
    assert seen.rubric == result.document.conventions.rubric
    assert seen.scale == report.scale
    assert seen.vocabulary == report.vocabulary


def test_the_label_rule_is_declared_once(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    """The preview and the import each ask ``legend.read_labels`` how the
    labels read (the rule was written twice, in ``detect.preview``, now
    ``sheet_preview.preview``, and in
    ``importer._read_labels``), once, for the same grade columns."""
    asked: list[tuple[str, list[list[str]]]] = []

    def spy(who: str) -> Any:
        def read(*args: Any) -> LabelsRead:
            asked.append((who, [[str(c) for c in col] for col in args[2]]))
            return read_labels(*args)
        return read

    monkeypatch.setattr(preview_module, "read_labels", spy("preview"))
    monkeypatch.setattr(importer_module, "read_labels", spy("import"))
    sheet = tmp_path / "labels.csv"
    sheet.write_text("query,doc_id,relevance\nq1,d1,Relevant\nq1,d2,Not relevant\n"
                     "q2,d3,Highly relevant\n", encoding="utf-8")
    seen, result = preview(sheet), import_annotations(sheet)
    assert [who for who, _ in asked] == ["preview", "import"]
    assert asked[0][1] == asked[1][1] == [["Relevant", "Not relevant", "Highly relevant"]]
    assert seen.label_grades == result.report.labels == {
        "Relevant": 1.0, "Not relevant": 0.0, "Highly relevant": 2.0}


def test_labels_beside_the_grades_saying_them_again_are_said_so(tmp_path: Path) -> None:
    """A column of labels each always beside one grade of the grade column
    (``relevant`` by every 2, ``partly`` by every 1, ``not`` by every 0):
    the grades again in words, accounted for as such (it was '3 distinct
    values, no role read from them'); the grades imported from the
    numbers. Labels that do not follow the grades stay a column no role
    reads."""
    table = [[*r, {2: "relevant", 1: "partly", 0: "not"}[r[2]]] for r in _KEYED[1:]]
    sheet = tmp_path / "worded.csv"
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["query", "doc_id", "relevance", "col4"], *table])
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    record = json.loads(report.read_text("utf-8"))["columns"][3]
    assert (record["role"], record["reason"]) == (None, (
        "col4: labels each always beside one grade of relevance (not = 0, partly = 1, "
        "relevant = 2): the grades again in words; not imported"))
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["grade"] for r in csv.DictReader(fh)] == [str(r[2]) for r in _KEYED[1:]]
    table[0][3] = "partly"  # a 2 beside partly: the labels follow no grade
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["query", "doc_id", "relevance", "col4"], *table])
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    record = json.loads(report.read_text("utf-8"))["columns"][3]
    assert record["reason"] == "col4: 3 distinct values, no role read from them; not imported"


#: Long sheets drawn with each row's grade said again in words of its own.
WORDED_SHEETS = 8


@settings(PROFILE, max_examples=WORDED_SHEETS, phases=[Phase.generate])
@given(sheets(among=("worded",)).filter(lambda s: "worded" in s.column_kinds),
       st.sampled_from([".csv", ".xlsx"]))
def test_the_grades_again_in_words_are_accounted_for(sheet: Drawn, suffix: str) -> None:
    """A column saying each row's grade again in words of its own (``nope``
    by every 0, ``ok`` by every 2): the invariants hold, and beside a grade
    column of numbers it is accounted for as the grades again in words."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0 or report is None or report["mapping"].get("annotators"):
        return
    record = report["columns"][sheet.column_kinds.index("worded")]
    grade = sheet.rows[1][sheet.column_kinds.index("grade")]
    numbers = isinstance(grade, int)
    event(f"grades in {'numbers' if numbers else 'labels'}: {record['reason'][:60]}")
    assert record["role"] is None, record
    assert ("the grades again in words" in record["reason"]) == numbers, record


#: Sheets drawn with a key of their scale's labels beside the judgments.
KEY_SHEETS = 10


@settings(PROFILE, max_examples=KEY_SHEETS, phases=[Phase.generate])
@given(sheets(key=True), st.sampled_from([".csv", ".xlsx"]))
def test_a_key_of_labels_beside_the_judgments_is_a_legend(sheet: Drawn, suffix: str) -> None:
    """A key of the scale's labels in a column beside the judgments
    (``Legend``, ``Key`` or no header; a label a row, given its meaning or
    not, under a title or not): accounted for as the scale's legend, never
    a role; the drawn grades imported."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0:
        return
    assert report is not None
    record = report["columns"][sheet.column_kinds.index("key")]
    event(f"key {record['header'] or '(no header)'}")
    assert record["role"] is None, record
    assert "the grade scale's legend (rows 2-" in record["reason"], record


_KEYED = [["query", "doc_id", "relevance"], *(
    [q, f"d{i}", g] for i, (q, g) in enumerate(
        [("solar", 2), ("solar", 1), ("solar", 0), ("solar", 2), ("boots", 0), ("boots", 1),
         ("boots", 2), ("boots", 0)]))]


@pytest.mark.parametrize(("key", "rows"), [
    (["Legend", "Highly relevant", "Somewhat relevant", "Not relevant"], 9),  # a note's
    (["Key", "Key:", "Highly relevant", "Somewhat relevant", "Not relevant"], 9),  # a note's
    (["Legend", "Highly relevant = the answer", "Somewhat relevant = partly",
      "Not relevant = off topic"], 9),  # read as a note on 3 rows
    (["", "Highly relevant", "Somewhat relevant", "Not relevant"], 9),  # no header
    (["Legend", "Highly relevant", "Somewhat relevant", "Not relevant"], 4),  # to the end
    (["Legend", "Legend (best first)", "relevant", "partly", "not"], 9)])
def test_a_key_of_labels_beside_the_judgments_is_its_legend(
        tmp_path: Path, key: list[str], rows: int) -> None:
    """A key beside the judgments (``Legend`` | ``Highly relevant`` ...) of
    labels the grades, numbers, do not hold: the grade scale's legend, left
    out saying so. It was a note of the rows beside it, a column left out
    as '3 distinct values', or (as long as the sheet) a grade column left
    unused, the sheet refused."""
    table = [[*r, key[i] if i < len(key) else ""] for i, r in enumerate(_KEYED[:rows])]
    sheet = tmp_path / "keyed.csv"
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(table)
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    record = json.loads(report.read_text("utf-8"))["columns"][3]
    assert (record["role"], record["reason"]) == (None, (
        f"{key[0] or 'D'}: the grade scale's legend (rows 2-{len(key)} of column D"
        f"{f' ({key[0]})' if key[0] else ''}), not imported"))
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["grade"] for r in csv.DictReader(fh)] == [str(r[2]) for r in _KEYED[1:rows]]


def _pairs_beside(levels: list[tuple[int, str]]) -> Drawn:
    """A wide sheet of two annotators with its legend beside the judgments
    as a grade beside its label a row, under ``Grade`` | ``Meaning``."""
    grades = [(2, 2), (0, 1), (1, 1), (3, 2), (0, 0), (1, 0), (2, 3)]
    rows: list[list[Any]] = [["query", "doc", "ann1", "ann2", "", "Grade", "Meaning"]]
    rows += [[QUERIES[i // 3], f"d{i}", a, b, "", *(levels[i] if i < len(levels) else ("", ""))]
             for i, (a, b) in enumerate(grades)]
    return Drawn(rows, "wide", {(r[0], r[1]): sorted([float(r[2]), float(r[3])])
                                for r in rows[1:]}, grade_headers=["ann1", "ann2"])


def test_a_legend_of_grades_beside_labels_beside_the_judgments() -> None:
    """A legend in two columns beside the judgments (``Grade`` | ``Meaning``,
    ``0`` | ``not relevant`` a row) is the scale, as in one column, and no
    column of grades: its ``Grade`` was taken for the grade column, the
    sheet refused for its annotators' columns left unused (--annotators
    Grade,ann1,ann2 offered), and without that header its grades were
    ignored with a hint to take them as the ranking. One lacking a grade
    the sheet gives is refused naming it."""
    levels = [(0, "not relevant"), (1, "partly"), (2, "relevant"), (3, "highly relevant")]
    code, err, report, rows = _run(_pairs_beside(levels), ".xlsx")
    assert code == 0, err
    assert report is not None
    assert report["scale"] == (
        "the sheet's legend (rows 2-5 of columns F (Grade) and G (Meaning): "
        "0=not relevant,1=partly,2=relevant,3=highly relevant)")
    assert report["mapping"]["annotators"] == ["ann1", "ann2"]
    assert {(r["query"], r["source_id"]): sorted([float(r["grade_ann1"]), float(r["grade_ann2"])])
            for r in rows} == _pairs_beside(levels).truth
    code, err, report, rows = _run(_pairs_beside(levels[:3]), ".xlsx")
    assert code != 0
    assert err.strip() == (
        "ndcg-worksheet: error: drawn.xlsx, sheet 'Sheet', row 5, column 'C (ann1)': "
        "the sheet's legend (rows 2-4 of columns F (Grade) and G (Meaning): "
        "0=not relevant,1=partly,2=relevant) has no grade '3', which C (ann1) holds "
        "(pass --rubric with the scale the grades are on (e.g. --rubric "
        "\"0=not relevant,1=partly,2=relevant,3\"), "
        "or correct the legend or the grade)"), err
    # the hint followed as shown: the example's rubric reads every grade
    hinted = _pairs_beside(levels[:3])
    hinted.flags = [*hinted.flags, "--rubric", "0=not relevant,1=partly,2=relevant,3"]
    code, err, report, rows = _run(hinted, ".xlsx")
    assert code == 0, err
    assert report is not None
    assert report["issues"] == []  # (the legend's rubric alone: 3 flagged outside the scale)
    assert {(r["query"], r["source_id"]): sorted([float(r["grade_ann1"]), float(r["grade_ann2"])])
            for r in rows} == hinted.truth


def test_a_legend_lacking_a_label_hints_a_rubric_that_reads_it() -> None:
    """Grades written as the legend's labels, one the legend lacks: the hint's
    example is the legend with that label as the next grade, and the import
    run with it as shown reads every grade (the legend alone left the label
    unread)."""
    levels = [(0, "not relevant"), (1, "partly"), (2, "relevant"), (3, "highly relevant")]
    sheet = _pairs_beside(levels[:3])
    for row in sheet.rows[1:]:
        row[2:4] = [levels[g][1] for g in row[2:4]]
    flags = sheet.flags = [*sheet.flags, "--annotators", "ann1,ann2"]
    code, err, _, _ = _run(sheet, ".xlsx")
    assert code != 0
    example = "0=not relevant,1=partly,2=relevant,3=highly relevant"
    assert f'(e.g. --rubric "{example}")' in err, err
    for rubric, read in (("0=not relevant,1=partly,2=relevant", False), (example, True)):
        sheet.flags = [*flags, "--rubric", rubric]
        code, err, report, rows = _run(sheet, ".xlsx")
        assert (code == 0 and report is not None and not report["unmapped_labels"]
                and {i["kind"] for i in report["issues"]} == {"label mapped"}) == read, (
            rubric, err, report)
    assert {(r["query"], r["source_id"]): sorted([float(r["grade_ann1"]), float(r["grade_ann2"])])
            for r in rows} == sheet.truth


def test_legends_that_disagree_are_named_in_one_line(tmp_path: Path) -> None:
    """A legend above the header (0-3) and one on a sheet of its own (0-4):
    none is read, and the command line says so in one line naming each
    legend's sheet and place, its levels and what to do (it was a note in
    --report only, naming neither sheet)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Judgments"
    for row in (["Scale: 0 = not relevant, 1 = partial, 2 = relevant, 3 = perfect"], [],
                ["query", "doc_id", "relevance"], ["q1", "d1", 2], ["q1", "d2", 1],
                ["q1", "d3", 0], ["q2", "d4", 3], ["q2", "d5", 1], ["q2", "d6", 0]):
        sheet.append(row)
    legend = book.create_sheet("Legend")
    for row in (["Grade", "Meaning"], [0, "bad"], [1, "fair"], [2, "good"], [3, "excellent"],
                [4, "perfect"]):
        legend.append(row)
    path = tmp_path / "two legends.xlsx"
    book.save(path)
    out, report = io.StringIO(), tmp_path / "report.json"
    assert main(["import", str(path), "-o", str(tmp_path / "out.csv"), "--report",
                 str(report)], out) == 0
    line = ("the sheet's legends list different grades: cell A1 of sheet 'Judgments' "
            "(0=not relevant,1=partial,2=relevant,3=perfect) and rows 2-6 of sheet 'Legend' "
            "(0=bad,1=fair,2=good,3=excellent,4=perfect), so none was read as the scale: "
            "pass --rubric with the scale the grades are on, or correct the legend that is "
            "wrong")
    assert line in out.getvalue().splitlines(), out.getvalue()
    data = json.loads(report.read_text("utf-8"))
    assert line in data["notes"]
    assert data["scale"] == "the grade columns' numbers, 0 to 3", data["scale"]


def test_a_legend_typed_into_a_csv_without_quotes_is_read(tmp_path: Path) -> None:
    """``Scale: 0 = not relevant, 1 = partial, ...`` typed as a CSV line with
    no quotes is split into cells: read as one legend across them (it was
    not read, and a 4 beside a 0-3 legend imported in silence); a legend of
    labels across a row after its title alike."""
    sheet = tmp_path / "typed.csv"
    sheet.write_text("Scale: 0 = not relevant, 1 = partial, 2 = relevant, 3 = perfect\n\n"
                     "query,doc,relevance\nq1,d1,2\nq1,d2,1\nq2,d3,0\nq2,d4,4\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO()) == 2
    assert err.getvalue() == (
        f"ndcg-worksheet: error: {sheet}, line 7, column 'relevance': the sheet's legend "
        "(cells A1-D1: 0=not relevant,1=partial,2=relevant,3=perfect) has no grade '4', which "
        "relevance holds (pass --rubric with the scale the grades are on (e.g. --rubric "
        "\"0=not relevant,1=partial,2=relevant,3=perfect,4\"), or correct the legend or the "
        "grade)\n")
    sheet.write_text("Legend (worst first):,Useless,Marginal,Useful,Vital\n\n"
                     "query,doc,relevance\nq1,d1,Vital\nq1,d2,Useful\nq2,d3,Useless\n"
                     "q2,d4,Marginal\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO()) == 2
    assert "the sheet's legend (cells A1-E1: Useless / Marginal / Useful / Vital, worst " \
        "first, no grades) lists the labels, not their grades" in err.getvalue(), err.getvalue()
    assert '--rubric "0=Useless,1=Marginal,2=Useful,3=Vital" if they are one grade apart' \
        in err.getvalue()


def test_a_legend_across_a_row_after_its_title_cell_is_read(tmp_path: Path) -> None:
    """``Legend`` in a cell of its own, each level in the next cells of its
    row, as a person lays a legend out above the header in LibreOffice or
    Excel (no colon after the title): the grades' scale with its labels,
    its row said to be the legend (it was "text", and the grades imported
    as the numbers 0 to 3 without their labels)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in (["Relevance judgments, round 4"], [],
                ["Legend", "0 = Not relevant", "1 = Somewhat relevant", "2 = Relevant",
                 "3 = Highly relevant"], [],
                ["Query ID", "Document", "Ana", "Ben"], ["q1", "d1", 2, 3], ["q1", "d2", 1, 0],
                ["q1", "d3", 0, 0], ["q2", "d4", 3, 2], ["q2", "d5", 1, 1], ["q2", "d6", 0, 1]):
        sheet.append(row)
    path = tmp_path / "round4.xlsx"
    book.save(path)
    report = tmp_path / "report.json"
    assert main(["import", str(path), "-o", str(tmp_path / "out.csv"), "--report",
                 str(report)], io.StringIO()) == 0
    data = json.loads(report.read_text("utf-8"))
    levels = "0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant"
    assert data["scale"] == f"the sheet's legend (cells A3-E3: {levels})", data["scale"]
    assert [(a["row"], a["kind"]) for a in data["above_header"]] == [
        (1, "title"), (2, "blank"), (3, "legend"), (4, "blank")], data["above_header"]
