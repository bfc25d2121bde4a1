"""A worksheet CSV's grade cells read as the grid and a workbook read them.

The grid's editor, a paste and a workbook's grade cells read a grade cell by
one grammar (:func:`core.model.grades.read_grade`); a worksheet CSV's grade
column read ``unknown`` and ``unrateable`` alone, and refused ``unrateable:
paywall``, ``N/A`` and ``Can't tell``. It now reads the grammar's words
through the same declaration (:func:`core.model.grades.read_word`), keeps the
reason a cell gives, and a reason column's own reason either agrees or is
refused naming both.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import InputError
from core.io.delimited import read_delimited, write_delimited
from core.model.conventions import Conventions, Rubric
from core.model.grades import read_grade
from tests.test_cli import run

#: Grade cells as people and the grid write them, and the reason column beside.
CELLS = [
    ("2", ""),
    ("unrateable: paywall", ""),
    ("N/A", "broken link"),
    ("Can't tell", ""),
    ("skip: in Finnish", "in Finnish"),
    ("?", ""),
    ("unknown", "declined by 2 annotators"),
    ("", ""),
    ("0.5", ""),
]


def _file(tmp_path, cells=CELLS, name="said.csv"):
    path = tmp_path / name
    lines = ["query,source_id,score,grade,reason"]
    for i, (grade, reason) in enumerate(cells):
        lines.append(f'q,d{i},{10 - i},"{grade}",{reason}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _said(doc):
    return [doc.said_grade(i) for i in range(len(doc))]


def test_grade_cells_read_as_the_grid_reads_them(tmp_path):
    """Each cell's state and grade are the grid's (read_grade's); its reason
    is the reason column's, else the cell's own."""
    doc = read_delimited(_file(tmp_path))
    grid = [read_grade(grade) for grade, _ in CELLS]
    assert [int(s) for s in doc.state] == [int(g.state) for g in grid]
    assert _said(doc) == [
        "2", "unrateable: paywall", "unrateable: broken link", "unrateable",
        "unrateable: in Finnish", "unknown", "unknown: declined by 2 annotators", "unknown",
        "0.5"]


def test_export_csv_then_import_gives_the_same_document(tmp_path):
    """Read, written as a worksheet CSV and read again: the same grades,
    states and reasons (the first read refused 'unrateable: paywall')."""
    first = read_delimited(_file(tmp_path))
    out = tmp_path / "out.csv"
    write_delimited(first, out)
    again = read_delimited(out)
    assert _said(again) == _said(first)
    assert list(again.reason) == list(first.reason)
    assert np.array_equal(again.state, first.state)
    assert np.array_equal(again.grade, first.grade, equal_nan=True)
    assert list(again.source_id) == list(first.source_id)


def test_a_reason_the_column_contradicts_is_refused_naming_both(tmp_path, capsys):
    """A cell's reason and the reason column's, two reasons for one grade:
    refused naming the file, line and column and both reasons."""
    path = _file(tmp_path, [("2", ""), ("unrateable: paywall", "broken link")])
    with pytest.raises(InputError) as caught:
        read_delimited(path)
    assert (caught.value.line, caught.value.column) == (3, "grade")
    assert run(["evaluate", str(path)])[0] == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {path}, line 3, column 'grade': 'unrateable: paywall' "
        "gives the reason 'paywall' and the 'reason' column 'broken link' (keep one: write "
        "the reason in the 'reason' column alone, or the same in both)\n")


def test_a_rubric_label_reads_as_its_grade_before_the_marks(tmp_path):
    """With a declared rubric, its labels read as grades, as in the grid; a
    rubric naming cant_tell a grade is followed there too."""
    rubric = Rubric.parse("0=irrelevant,1=partial,2=relevant,3=cant_tell")
    path = _file(tmp_path, [("partial", ""), ("cant_tell", ""), ("N/A", "")])
    doc = read_delimited(path, Conventions(rubric=rubric))
    assert _said(doc) == ["1", "3", "unrateable"]


def test_an_import_written_as_a_worksheet_csv_reads_back_the_same(tmp_path):
    """Annotators' judgments imported and written as a worksheet CSV (the
    export), then read: by the worksheet reader (evaluate, File > Open) the
    same grade states and reasons as the import's, where an item every
    annotator marked "don't know" read unknown (its grade cell was written
    blank, the state in a column the worksheet does not read); imported
    again, the same file, where the reason column's joined reasons were
    each annotator's again ('ana: ana: don't know; ben: don't know; ben:
    ...')."""
    from core.io.annotator import import_annotations

    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc,annotator,grade\nq1,d1,ana,3\nq1,d2,ana,don't know\n"
                     "q1,d3,ana,1\nq1,d4,ana,N/A\nq1,d2,ben,don't know\nq1,d4,ben,2\n"
                     "q1,d3,ben,skip\n", encoding="utf-8")
    imported = import_annotations(sheet).document
    out, again = tmp_path / "out.csv", tmp_path / "again.csv"
    assert run(["import", str(sheet), "-o", str(out)])[0] == 0
    read = read_delimited(out)
    assert _said(read) == _said(imported) == [
        "3", "unrateable: ana: don't know; ben: don't know", "1", "2"]
    assert run(["import", str(out), "-o", str(again)])[0] == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_the_import_reads_a_grade_cell_as_the_worksheet_reader_does(tmp_path):
    """A judgments CSV (no score: `evaluate` sends it to `import`) whose
    grade cell says ``unrateable: paywall`` is imported as the worksheet
    reader reads it, unrateable with the reason 'paywall', where the import
    refused it as a label on no known scale (hinting --rubric "N=unrateable:
    paywall")."""
    from core.io.annotator import import_annotations

    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,source_id,grade\nq1,d1,2\nq1,d2,Unrateable: paywall\nq2,d3,1\n",
                     encoding="utf-8")
    doc = import_annotations(sheet).document
    assert _said(doc) == ["2", "unrateable: paywall", "1"]


def test_a_mark_declared_at_the_import_survives_its_worksheet_csv(tmp_path):
    """ben's mark 'paywall', declared with --unrateable, on a candidate ana
    graded 1: the worksheet CSV wrote it as the word unrateable in ben's
    column, so imported again the mark (the reason ben gave) was lost; it
    is written ``unrateable: paywall``, which reads back as the mark, and
    the file imported again is the same, byte for byte."""
    from core.io.annotator import import_annotations

    sheet = tmp_path / "wide.csv"
    sheet.write_text("query,doc_id,ana,ben\nq1,d1,2,1\nq2,d3,1,paywall\n", encoding="utf-8")
    out, again = tmp_path / "out.csv", tmp_path / "again.csv"
    assert run(["import", str(sheet), "-o", str(out), "--annotators", "ana,ben",
                "--unrateable", "paywall"])[0] == 0
    assert out.read_text(encoding="utf-8").splitlines()[2].endswith(",1,unrateable: paywall")
    doc = import_annotations(out).document
    assert doc.unrateable_words.tolist()[1] == ["", "paywall"]
    assert run(["import", str(out), "-o", str(again)])[0] == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
