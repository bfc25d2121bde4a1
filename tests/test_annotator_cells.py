"""Nothing dropped, whatever the cells: every judgment read is imported or
rejected, error values are refused cells never blanks, a quoted export
with one unclosed quote keeps its commas, a sheet past the size limit is
refused, a source listed under two queries keeps who judged it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
import xlsxwriter
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InputError
from core.io.annotator import (
    import_annotations,
    read_table,
)
from core.model.document import GradeState
from tests.annotator_cases import read_table_from_rows

_CELL = st.sampled_from(["0", "1", "2", "3", "1.5", "", "n/a", "?", "-", "skip", "Relevant",
                         "Highly relevant", "meh", "2 - Relevant", "nan", "x"])


@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", ""]), st.sampled_from(["a", "b", "c", ""]),
                          _CELL, _CELL, st.sampled_from(["0.5", "", "abc", "1"])),
                min_size=1, max_size=12),
       st.booleans())
def test_every_judgment_read_is_imported_or_rejected(rows: list[tuple[str, ...]],
                                                      wide: bool) -> None:
    """imported + rejected = judgments read; a rejected judgment names its row,
    column and reason; no grade is ever 0 unless a 0 was written."""
    from core.io.annotator import import_table

    if wide:
        header = ["query", "doc", "grade_x", "grade_y", "score"]
        data = [list(r) for r in rows]
    else:
        header = ["query", "doc", "annotator", "grade", "score"]
        data = [[q, d, who, g, s] for q, d, gx, gy, s in rows
                for who, g in (("x", gx), ("y", gy))]
    table = read_table_from_rows([header, *data])
    if not any(q and d and s != "abc" for q, d, *_, s in rows):  # no row can be imported
        with pytest.raises(InputError, match="no candidate rows"):
            import_table(table)
        return
    scored: dict[tuple[str, str], set[str]] = {}
    for q, d, *_, s in rows:
        if q and d and s in ("0.5", "1"):
            scored.setdefault((q, d), set()).add(s)
    if any(len(v) > 1 for v in scored.values()):  # one item scored twice: no ranking
        with pytest.raises(InputError, match="a ranking scores each item once"):
            import_table(table)
        return
    result = import_table(table)
    rep = result.report
    assert rep.judgments_imported + len(rep.rejected_judgments) == rep.judgments_read
    assert all(row >= 2 and column and why for row, column, why in rep.rejected_judgments)
    doc = result.document
    zeros = sum(r[2:4].count("0") for r in rows)
    assert int(np.sum(doc.grade == 0)) <= zeros


def _with_error_values(path: Path, cells: dict[str, str]) -> None:
    """A workbook whose ``cells`` hold Excel error values without a formula
    (as Excel stores a typed ``#N/A``, or a sheet saved as values)."""
    import zipfile

    wb = xlsxwriter.Workbook(path.with_suffix(".tmp.xlsx"))
    ws = wb.add_worksheet()
    ws.write_row(0, 0, ["query", "docid", "grade"])
    for r, (q, d, g) in enumerate([("q1", "d1", 2), ("q1", "d2", 1), ("q1", "d3", 0),
                                   ("q2", "d1", 3)], start=1):
        ws.write_row(r, 0, [q, d, g])
    wb.close()
    with zipfile.ZipFile(path.with_suffix(".tmp.xlsx")) as src, \
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                for ref, error in cells.items():
                    data, n = re.subn(rb'<c r="' + ref.encode() + rb'"[^>]*>.*?</c>',
                                      f'<c r="{ref}" t="e"><v>{error}</v></c>'.encode(), data)
                    assert n == 1
            out.writestr(info, data)


def test_error_values_are_refused_cells_never_blanks(tmp_path: Path) -> None:
    path = tmp_path / "errors.xlsx"
    _with_error_values(path, {"C3": "#DIV/0!", "A4": "#REF!"})
    before = path.read_bytes()
    res = import_annotations(path)
    problems = [(i.row, i.column, i.problem) for i in res.report.rejected]
    assert problems == [
        (3, "C (grade)", "cell C3 holds the error value '#DIV/0!', not data; cell not imported"),
        (4, "A (query)", "cell A4 holds the error value '#REF!', not data; row rejected"),
    ]
    doc = res.document
    pairs = {(doc.query_ids[int(q)], s): (g, int(st_)) for q, s, g, st_ in
             zip(doc.query, doc.source_id, doc.grade, doc.state, strict=True)}
    assert set(pairs) == {("q1", "d1"), ("q1", "d2"), ("q2", "d1")}
    assert pairs[("q1", "d1")] == (2.0, GradeState.NUMBER)
    assert pairs[("q1", "d2")][1] == GradeState.UNKNOWN
    assert path.read_bytes() == before


def test_a_quoted_export_with_one_unclosed_quote_keeps_its_commas(tmp_path: Path) -> None:
    """A Mechanical Turk batch (every field quoted, ``RequesterAnnotation``
    holding ``BatchId:…;OriginalHitTemplateId:…;`` on every line) with a
    worker's comment cut short before its closing quote: still read with
    commas, so the import names the broken line's cell (it was read with
    semicolons, the header one column, and refused as 'no query column
    found')."""
    header = ["HITId", "RequesterAnnotation", "WorkerId", "Input.query", "Input.url",
              "Answer.relevance.label"]
    lines = [",".join(f'"{h}"' for h in header)]
    for n in range(8):
        fields = [f"3ZQA{n // 2:04d}", "BatchId:5123456;OriginalHitTemplateId:928390909;",
                  f"A{n % 2}B2C3D4E5F6", "descale a kettle", f"https://ex.example/{n // 2}",
                  ("Relevant", "Not relevant")[n % 2]]
        lines.append(",".join(f'"{f}"' for f in fields))
    lines[5] = lines[5][:-1] + " (see"  # the closing quote lost
    path = tmp_path / "Batch_5123456_batch_results.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = read_table(path)
    assert table.delimiter == ","
    assert table.rows[0] == header
    report = import_annotations(path).report
    assert list(report.unmapped_labels) == ['Relevant (see\n3ZQA0002"']
    first = next(i for i in report.issues if i.value == 'Relevant (see\n3ZQA0002"')
    assert (first.row, first.column) == (6, "Answer.relevance.label")


def test_a_sheet_past_the_size_limit_is_refused_as_every_text_file_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One limit for every text reader (core.io.files.MAX_BYTES): a sheet
    past it is refused in the one line a run or qrels file past it is (the
    importer kept its own MAX_TEXT_BYTES beside it, and read the file)."""

    from app.cli.main import main
    from core.io import files
    from core.io.textfile import read_detected

    sheet = tmp_path / "sheet.csv"
    sheet.write_text("query,doc_id,relevance\nq1,d1,2\nq1,d2,0\n", encoding="utf-8")
    limit = sheet.stat().st_size - 1
    monkeypatch.setattr(files, "MAX_BYTES", limit)
    line = f"{sheet}: the file is larger than {limit / 1024**3:g} GiB (split it into smaller files)"
    with pytest.raises(InputError) as caught:
        read_detected(sheet)
    assert str(caught.value) == line
    assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO()) == 2
    assert capsys.readouterr().err == f"ndcg-worksheet: error: {line}\n"
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("layout", ["long", "survey"])
def test_a_source_listed_under_two_queries_keeps_who_judged_it(tmp_path: Path,
                                                                layout: str) -> None:
    """doc1 judged for two queries (a TREC docno under two topics) by three
    participants named by PROLIFIC_PID, no header naming an annotator: who
    judged is read from the values per item (query, source), so each
    participant's grade is kept. Grouped by the source alone, doc1's rows
    for q1 and q2 looked like one person judging one item twice: who judged
    was not read, and 12 of the 18 judgments were set aside as repeats."""
    people = ("5f1a0c3b9d8e7f6a5b4c3d2e", "60b2dd11aa22bb33cc44dd55", "6123ef9988776655443322aa")
    items = [(q, d) for q in ("q1", "q2") for d in ("doc1", "doc2", "doc3")]
    grade = {(it, w): (k + j) % 4 for k, it in enumerate(items) for j, w in enumerate(people)}
    if layout == "long":
        text = "query,doc,PROLIFIC_PID,grade\n" + "".join(
            f"{q},{d},{w},{grade[((q, d), w)]}\n" for q, d in items for w in people)
    else:
        text = "PROLIFIC_PID," + ",".join(f"{q} - {d}" for q, d in items) + "\n" + "".join(
            w + "," + ",".join(str(grade[(it, w)]) for it in items) + "\n" for w in people)
    path = tmp_path / "shared.csv"
    path.write_text(text, encoding="utf-8")
    res = import_annotations(path)
    assert res.report.judgments_imported == 18
    assert not res.report.rejected_judgments
    assert res.document.annotators == list(people)
    assert res.document.source_id.tolist() == [d for _, d in items]
    assert res.document.ratings is not None
    np.testing.assert_array_equal(res.document.ratings, [[grade[(it, w)] for w in people]
                                                         for it in items])
