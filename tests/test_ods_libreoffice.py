"""LibreOffice's own format read back: our workbook opened in LibreOffice (through
UNO), a grade and the gain rule changed, saved as .ods ("Use ODF Format!");
the product takes both changes, from the command line (evaluate, export,
compare, merge, --strict) and in the editor, exactly as it reads the same
edits saved as .xlsx. A reviewer's copy returned as .ods merges, and an
annotators' sheet LibreOffice saved as .ods imports to the same judgments as
the .xlsx it came from. One LibreOffice for all."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest

import core.io.workbook.reader as reader_module
from app.cli.main import main
from core.analysis.aggregate import summarize
from core.engine.evaluation import evaluate
from core.io.load import load_document
from core.io.workbook import export_workbook, read_workbook, reopened
from core.io.workbook.additions import read_additions
from core.model.conventions import Gain
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.libreoffice import edit
from tests.test_annotator_workbooks import HIDDEN_SAID, computed_sheet, filtered_sheet
from tests.test_workbook_libreoffice_edits import _row_of, assert_grade_and_gain_taken

pytestmark = pytest.mark.libreoffice

DATA = Path(__file__).resolve().parent / "data" / "annotators"


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("lo-ods")
    seed = folder / "seed.xlsx"
    export_workbook(evaluate(seed_document()), seed)
    row = 2 + _exported_rows(seed).index(("case-A", "C"))
    assert main(["split", str(seed), "--reviewers", "ann", "-o", str(folder / "round")],
                out=io.StringIO()) == 0
    copy = folder / "round" / "seed-ann.xlsx"
    annotators = folder / "issue_batch7.xlsx"
    shutil.copy(DATA / "issue_batch7.xlsx", annotators)
    filtered = filtered_sheet(folder / "filtered.xlsx")
    computed = computed_sheet(folder / "computed.xlsx")
    out = folder / "lo"
    out.mkdir()
    edits = [{"op": "set", "sheet": "Candidates", "cell": f"F{row}", "value": 2},
             {"op": "set_named", "name": "gain_rule", "value": "exponential"}]
    jobs = [(seed, out / "edited.ods", edits),
            (seed, out / "edited.xlsx", edits),
            (seed, out / "untouched.ods", []),
            (seed, out / "refused.ods", [{"op": "set_named", "name": "gain_rule",
                                          "value": "cubic"}]),
            (copy, out / "seed-ann.ods", [{"op": "set", "sheet": "Candidates",
                                           "cell": f"F{_unknown_row(copy)}", "value": 1}]),
            (annotators, out / "issue_batch7.ods", []),
            (filtered, out / "filtered.ods", []),
            (computed, out / "computed.ods", []),
            (seed, out / "added.ods", [
                {"op": "add_sheet", "name": "My notes"},
                {"op": "set", "sheet": "My notes", "cell": "A1", "value": "ask Ann"},
                {"op": "set", "sheet": "My notes", "cell": "B2", "value": 3.5},
                {"op": "set", "sheet": "My notes", "cell": "B3", "value": "=B2*2"},
                {"op": "set", "sheet": "Candidates", "cell": "AB1", "value": "my comment"},
                {"op": "set", "sheet": "Candidates", "cell": f"AB{row}",
                 "value": "check this"}])]
    edit(jobs, timeout=600)
    return {"seed": seed, "annotators": annotators,
            **{p.stem if p.suffix == ".ods" else f"{p.stem}_xlsx": p for _, p, _ in jobs}}


def _exported_rows(book: Path) -> list[tuple[str, str]]:
    """(query, source) of each Candidates row of ``book``, in sheet order."""
    import openpyxl

    ws = openpyxl.load_workbook(book, read_only=True)["Candidates"]
    return [(r[0], r[1]) for r in ws.iter_rows(min_row=2, max_col=2, values_only=True)
            if r[0] is not None]


def _unknown_row(copy: Path) -> int:
    """The sheet row of the reviewer's first unknown candidate."""
    import openpyxl

    ws = openpyxl.load_workbook(copy, read_only=True)["Candidates"]
    for n, row in enumerate(ws.iter_rows(min_row=2, max_col=6, values_only=True), start=2):
        if row[5] in (None, "", "unknown"):
            return n
    raise AssertionError("the reviewer's copy has no unknown candidate")


def test_the_grade_and_the_gain_rule_edited_in_libreoffice_are_taken(
        books: dict[str, Path]) -> None:
    doc = read_workbook(books["edited"])
    assert_grade_and_gain_taken(doc)
    found = reopened(doc)
    assert found is not None
    # The same edits saved as .xlsx read to the same document.
    xlsx = read_workbook(books["edited_xlsx"])
    assert np.array_equal(doc.grade, xlsx.grade, equal_nan=True)
    assert doc.state.tolist() == xlsx.state.tolist()
    assert doc.conventions == xlsx.conventions
    assert found.lines() == reopened(xlsx).lines()  # type: ignore[union-attr]


def test_the_streaming_reader_reads_what_calamine_reads(
        books: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = read_workbook(books["edited"])
    monkeypatch.setattr(reader_module, "read_ods", lambda *_a, **_k: None)
    slow = read_workbook(books["edited"])
    assert np.array_equal(fast.grade, slow.grade, equal_nan=True)
    assert fast.note.tolist() == slow.note.tolist()
    assert fast.conventions == slow.conventions
    assert [(e.query, e.source_id, e.before, e.after) for e in fast.audit] == [
        (e.query, e.source_id, e.before, e.after) for e in slow.audit]


def test_a_resave_as_ods_without_edits_takes_nothing(books: dict[str, Path]) -> None:
    doc = read_workbook(books["untouched"])
    assert reopened(doc).empty  # type: ignore[union-attr]
    seed = seed_document()
    assert doc.state.tolist() == seed.state.tolist()
    assert doc.conventions == seed.conventions


def test_evaluate_reads_both_changes(books: dict[str, Path],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    expected = seed_document()
    expected.set_grade(_row_of(expected, "case-A", "C"), 2.0, GradeState.NUMBER, who="x")
    expected.conventions = read_workbook(books["edited"]).conventions
    want = evaluate(expected)
    assert main(["evaluate", str(books["edited"]), "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["conventions"]["gain"].startswith("exponential")
    means = [row["mean"] for row in got["summary"]]
    assert means == [s.mean for s in summarize(want)]
    assert means != [s.mean for s in summarize(evaluate(seed_document()))]


def test_a_refused_convention_cell_is_one_line_and_strict_stops(
        books: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", str(books["refused"]), "--strict"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1
    assert "gain" in err[0]
    assert "cubic" in err[0]
    assert main(["evaluate", str(books["refused"])]) == 0
    assert "cubic" in capsys.readouterr().err


def test_export_and_compare_take_an_ods(books: dict[str, Path], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "edited.csv"
    assert main(["export", str(books["edited"]), "-o", str(out)], out=io.StringIO()) == 0
    rows = [ln.split(",") for ln in out.read_text(encoding="utf-8").splitlines()]
    i = _row_of(load_document(out), "case-A", "C")
    assert rows[0][4] == "grade"
    assert rows[1 + i][:2] == ["case-A", "C"]
    assert rows[1 + i][4] == "2.0"
    assert main(["compare", str(books["untouched"]), str(books["edited"])]) == 0
    text = capsys.readouterr().out
    assert "untouched.ods" in text
    assert "edited.ods" in text


def test_a_reviewers_copy_returned_as_ods_merges(books: dict[str, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    merged = tmp_path / "merged.xlsx"
    report = tmp_path / "merge.json"
    assert main(["merge", str(books["seed"]), str(books["seed-ann"]), "-o", str(merged),
                 "--report", str(report)]) == 0
    assert "1 taken" in capsys.readouterr().out
    doc = read_workbook(merged)
    taken = [(e.query, e.source_id, e.before, e.after) for e in doc.audit if e.origin == "merge"]
    assert taken == [("case-F-unknown", "B", "unknown", "1")]
    i = _row_of(doc, "case-F-unknown", "B")
    assert (doc.grade[i], doc.state[i]) == (1.0, GradeState.NUMBER)


def test_an_annotators_sheet_saved_as_ods_imports_as_the_xlsx_does(
        books: dict[str, Path], tmp_path: Path) -> None:
    outs = []
    for source in (books["annotators"], books["issue_batch7"]):
        out = tmp_path / f"{source.suffix[1:]}.qrels"
        assert main(["import", str(source), "-o", str(out)], out=io.StringIO()) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert outs[0].count(b"\n") > 10


def test_rows_an_ods_hides_by_its_filter_are_said_as_the_xlsx_s_are(
        books: dict[str, Path]) -> None:
    """LibreOffice keeps the filter's hidden rows (visibility "filter") and
    the hidden column ("collapse") in the .ods it saves: said alike."""
    from core.io.annotator import import_annotations

    report = import_annotations(books["filtered"]).report
    assert report.summary()[1] == HIDDEN_SAID
    assert report.to_json()["hidden"] == {"rows": [4, 7, 10, 13], "columns": ["A"],
                                          "filtered": True}
    assert report.judgments_imported == 12


def test_a_formula_libreoffice_saved_is_quoted_as_calc_shows_it(
        books: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The grade column computed from the labels, saved by LibreOffice: its
    formula is quoted as Calc shows it (E2, semicolons), not as stored
    (of:=IF([.C2]="Bad";...))."""
    out = io.StringIO()
    assert main(["import", str(books["computed"]), "-o", str(books["computed"]) + ".csv"],
                out=out) == 2
    err = capsys.readouterr().err
    assert "the first: cell D2 holds the formula '=IF(C2=\"Bad\";0;IF(C2=\"Fair\";1;2))'" in err
    assert "[." not in err


def test_the_editor_opens_the_ods_with_both_changes(qtbot: Any,
                                                    books: dict[str, Path]) -> None:
    from tests.test_app_files import _finish, _window

    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(books["edited"], ask_to_save=False))
    doc = window.document
    assert window.path == books["edited"]
    i = _row_of(doc, "case-A", "C")
    assert (doc.grade[i], doc.state[i]) == (2.0, GradeState.NUMBER)
    assert doc.conventions.gain == Gain(Gain.parse("exponential").rule)


def test_what_the_reviewer_added_in_libreoffice_is_read_for_the_next_save(
        books: dict[str, Path], tmp_path: Path) -> None:
    kept = read_additions(books["added"])
    assert kept.summary() == "sheet 'My notes', 1 added Candidates column"
    saved = tmp_path / "saved.xlsx"
    export_workbook(evaluate(read_workbook(books["added"])), saved, keep=kept)
    wb = openpyxl.load_workbook(saved)
    mine = wb["My notes"]
    # The .ods additions are read as values (core/io/workbook/additions_ods.py): the
    # formula =B2*2 comes back as its result.
    assert (mine["A1"].value, mine["B2"].value, mine["B3"].value) == ("ask Ann", 3.5, 7.0)
    ws = wb["Candidates"]
    assert ws["AB1"].value == "my comment"
    rows = {(ws.cell(r, 1).value, ws.cell(r, 2).value): r for r in range(2, ws.max_row + 1)}
    assert ws.cell(rows[("case-A", "C")], 28).value == "check this"
    assert read_additions(books["untouched"]).summary() == ""
