"""An annotators' sheet given as a run's qrels (``--qrels SHEET``) keeps the
scale the import declares: the wizard's 0-3 scale, its consensus means
(4/3 of grades 1, 1, 2) means of that scale's levels, never levels of a
scale made of the means (0, 0.3333, 0.5, ...), nor grades off it."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from tempfile import TemporaryDirectory

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.annotator import import_annotations
from core.io.annotator import qrels as qrels_module
from core.io.annotator.qrels import judgments_scale, run_with_judgments, sheet_as_qrels
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.rubric import Rubric
from tests.sheetgen import Drawn, sheets, write_sheet

SHEET = ("query,doc,annotator,relevance\n"
         "q1,d1,ana,3\nq1,d1,ben,2\nq1,d2,ana,0\nq1,d2,ben,1\n"
         "q1,d3,ana,1\nq1,d3,ben,1\nq1,d3,cara,2\n"
         "q2,d4,ana,2\nq2,d4,ben,2\nq2,d5,ana,0\nq2,d5,ben,0\nq2,d5,cara,1\n")
RUN = "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d3 3 1 r\nq2 Q0 d4 1 2 r\nq2 Q0 d5 2 1 r\n"


def _by_key(doc: Document) -> dict[tuple[str, str], int]:
    return {(doc.query_ids[int(q)], str(s)): i
            for i, (q, s) in enumerate(zip(doc.query.tolist(), doc.source_id, strict=True))}


def test_the_means_of_a_0_3_sheet_stay_on_its_scale(tmp_path: Path) -> None:
    sheet, run = tmp_path / "judged.csv", tmp_path / "run.txt"
    sheet.write_text(SHEET, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    doc = run_with_judgments(run, sheet)
    ev = evaluate(doc)
    # by hand: d1 (3+2)/2, d2 (0+1)/2, d3 (1+1+2)/3, d4 2, d5 (0+0+1)/3
    assert doc.grade.tolist() == [2.5, 0.5, 4 / 3, 2.0, 1 / 3]
    assert ev.rubric.values == (0.0, 1.0, 2.0, 3.0)  # was 0, 0.3333, 0.5, 1.3333, 2, 2.5
    assert not ev.outside_rubric.any()  # each mean lies between its annotators' grades
    assert doc.annotators == ["ana", "ben", "cara"]
    assert doc.ratings is not None
    assert doc.ratings[2].tolist() == [1.0, 1.0, 2.0]
    # the scale chosen (evaluate --rubric) is the scale, as the import takes it
    chosen = run_with_judgments(run, sheet, Conventions(rubric=Rubric.parse("0,1,2,3,4")))
    assert evaluate(chosen).rubric.values == (0.0, 1.0, 2.0, 3.0, 4.0)
    assert chosen.grade.tolist() == doc.grade.tolist()


@settings(max_examples=16, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large])
@given(sheets(topics=True))
def test_a_sheet_as_qrels_is_the_wizards_document_on_the_wizards_scale(sheet: Drawn) -> None:
    """Drawn sheets (numbered topics, so that a TREC run can name them),
    each read by the import as the wizard reads it and given as the qrels
    of a run ranking every candidate it lists: the same grades, the same
    declared scale, the same annotators' grades and the same grades
    flagged off the scale, candidate by candidate."""
    assume(not sheet.flags and not sheet.ambiguous and not sheet.extra_grade)
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / "drawn.csv")
        try:
            wizard = import_annotations(path).document
        except InputError:  # refused sheets are tests/test_import_properties.py's (a crash fails)
            assume(False)
            raise
        assume(bool((wizard.state == GradeState.NUMBER).any()))
        assume(all(len(q.split()) == 1 for q in wizard.query_ids))  # (a transposed sheet's)
        run = Path(tmp) / "run.txt"
        run.write_text("".join(
            f"{wizard.query_ids[int(q)]} Q0 {s} 1 {len(wizard) - i} r\n"
            for i, (q, s) in enumerate(zip(wizard.query.tolist(), wizard.source_id,
                                           strict=True))), encoding="utf-8")
        joined = run_with_judgments(run, path)
    assert joined.conventions.rubric == wizard.conventions.rubric
    mine, theirs = evaluate(joined), evaluate(wizard)
    assert mine.rubric == theirs.rubric
    rows = _by_key(joined)
    for key, w in _by_key(wizard).items():
        if wizard.state[w] != GradeState.NUMBER:
            continue
        j = rows[key]
        assert joined.grade[j] == wizard.grade[w], key
        assert mine.outside_rubric[j] == theirs.outside_rubric[w], key
        if wizard.ratings is not None:
            assert joined.ratings is not None
            np.testing.assert_array_equal(joined.ratings[j], wizard.ratings[w])
    assert joined.annotators == wizard.annotators


def test_compare_imports_the_sheet_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """``compare A B --qrels SHEET`` imports the sheet once: its scale
    (:func:`judgments_scale`) and its grades for the join
    (:func:`sheet_as_qrels`) from the one import (fails before: imported
    twice); a sheet changed between the two reads is read again."""
    sheet, run_a, run_b = (tmp_path / n for n in ("judged.csv", "a.txt", "b.txt"))
    sheet.write_text(SHEET, encoding="utf-8")
    run_a.write_text(RUN, encoding="utf-8")
    run_b.write_text(RUN.replace(" 1 3 r", " 1 0.5 r"), encoding="utf-8")
    calls: list[Path] = []

    def counted(path: Path, **kw: object) -> object:
        calls.append(Path(path))
        return import_annotations(path, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(qrels_module, "import_annotations", counted)
    out = io.StringIO()
    assert main(["compare", str(run_a), str(run_b), "--qrels", str(sheet)], out) == 0
    assert calls == [sheet]
    assert "mean NDCG@all of A = " in out.getvalue()
    calls.clear()
    base = judgments_scale(sheet, Conventions())
    assert base.rubric is not None
    assert base.rubric.values == (0.0, 1.0, 2.0, 3.0)
    sheet.write_text(SHEET.replace("q2,d4,ana,2", "q2,d4,ana,3"), encoding="utf-8")
    with sheet_as_qrels(sheet) as qrels:
        assert "q2 0 d4 2.5\n" in qrels.read_text("utf-8")
    assert calls == [sheet, sheet]


LEFT_OUT = ("query,doc,value,Relevance (0-3),comment\n"
            "q1,d1,1,0,ok\nq1,d2,2,3,\nq1,d3,3,1,hmm\nq1,d4,4,2,\n"
            "q2,d1,1,1,\nq2,d2,2,2,\nq2,d3,3,0,\nq2,d4,4,3,\n"
            "q3,d1,1,1,\nq3,d2,2,2,\nq3,d3,3,0,\nq3,d4,4,3,\nq3,d5,5,3,\n")
#: The line naming the column left out (1..5 beside 0-3: a rank's values).
VALUE_LEFT_OUT = ("left out, not imported: value (whole numbers counting each query's "
                  "sources; if this is the ranking, pass --map rank=value)")


def test_columns_left_out_are_said_on_the_command_line(tmp_path: Path) -> None:
    """A column the import leaves out (an unnamed rank, 1..5 beside
    ``Relevance (0-3)``) is named with why on the command line by
    ``import``, and on stderr by ``evaluate`` and ``compare RUN --qrels
    SHEET`` (fails before: listed in the ``--report`` file alone)."""
    sheet, run = tmp_path / "judged.csv", tmp_path / "run.txt"
    sheet.write_text(LEFT_OUT, encoding="utf-8")
    run.write_text("q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq2 Q0 d1 1 2 r\nq3 Q0 d5 1 1 r\n",
                   encoding="utf-8")
    out = io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], out) == 0
    assert VALUE_LEFT_OUT + "\n" in out.getvalue()
    for command in (["evaluate", str(run)], ["compare", str(run), str(run)]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main([*command, "--qrels", str(sheet)], io.StringIO()) == 0
        assert f"ndcg-worksheet: note: {sheet}: {VALUE_LEFT_OUT}\n" in err.getvalue(), command


def test_many_columns_left_out_are_named_in_one_line(tmp_path: Path) -> None:
    """Beyond three columns left out, the line names them all and says why
    only of those a flag would use; the report file says why each. The
    task's id, counting the tasks, is no ranking a flag would use (it was:
    ``id: numbers 1001 to 1006, one per item; if this is the ranking, pass
    --map score=id``); a model's number beside each task may be."""
    sheet = Path(__file__).resolve().parent / "data" / "annotators" / "label_studio_export.csv"
    out = io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], out) == 0
    assert ("5 columns left out, not imported: annotation_id, created_at, id, lead_time, "
            "updated_at (--report REPORT.json says why each)\n") in out.getvalue()
    assert "score=" not in out.getvalue()
    points = dict(zip(range(1001, 1007), ("0.91", "0.64", "0.2", "0.88", "0.5", "0.13"),
                      strict=True))
    lines = sheet.read_text("utf-8").splitlines()
    scored = tmp_path / "scored.csv"
    scored.write_text("".join(f"{line},{'points' if k == 0 else points[int(line.split(',')[3])]}\n"
                              for k, line in enumerate(lines)), encoding="utf-8")
    out = io.StringIO()
    assert main(["import", str(scored), "-o", str(tmp_path / "out.csv")], out) == 0
    assert ("6 columns left out, not imported: annotation_id, created_at, id, lead_time, "
            "updated_at, points (--report REPORT.json says why each); points: numbers 0.13 to "
            "0.91, one per item; if this is the ranking, pass --map score=points\n"
            ) in out.getvalue()


def test_evaluate_rubric_declares_the_scale_a_sheet_is_imported_on(tmp_path: Path) -> None:
    """``evaluate RUN --qrels SHEET`` with a 4 under ``Relevance (0-3)`` is
    refused as ``import`` refuses it, and ``--rubric 0,1,2,3,4``, as the
    refusal says, imports it on that scale (fails before: evaluate's
    --rubric never reached the sheet's import, so the refusal stood)."""
    sheet, run = tmp_path / "judged.csv", tmp_path / "run.txt"
    sheet.write_text("query,doc,Relevance (0-3)\nq1,d1,0\nq1,d2,3\nq1,d3,4\n"
                     "q2,d1,1\nq2,d2,2\n", encoding="utf-8")
    run.write_text("q1 Q0 d3 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d1 3 1 r\nq2 Q0 d2 1 2 r\n"
                   "q2 Q0 d1 2 1 r\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["evaluate", str(run), "--qrels", str(sheet)], io.StringIO()) == 2
    assert err.getvalue() == (
        f"ndcg-worksheet: error: {sheet}, line 4, column 'Relevance (0-3)': grade 4 is outside "
        "the range 0-3 the column's header declares (fix the cell, or pass --rubric "
        "0,1,2,3,4 declaring the scale, which then wins over the header)\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["evaluate", str(run), "--qrels", str(sheet), "--rubric", "0,1,2,3,4"],
                    out) == 0, err.getvalue()
    assert "  rubric                 0,1,2,3,4  " in out.getvalue()
    assert "mean NDCG@all = 1.0000 over 2 queries" in out.getvalue()  # 4, 3, 0 and 2, 1: ideal


def test_compare_rubric_declares_the_scale_a_sheet_is_imported_on(tmp_path: Path) -> None:
    """``compare A B --qrels SHEET`` with a 4 under ``Relevance (0-3)`` is
    refused as evaluate refuses it, and ``--rubric 0,1,2,3,4``, as the
    refusal says, imports it on that scale, for two runs and for several
    (fails before: compare's --rubric never reached the sheet's import)."""
    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc,Relevance (0-3)\nq1,d1,0\nq1,d2,3\nq1,d3,4\n"
                     "q2,d1,1\nq2,d2,2\n", encoding="utf-8")
    runs = [tmp_path / f"run{i}.txt" for i in range(3)]
    for i, run in enumerate(runs):
        run.write_text(f"q1 Q0 d3 1 3 r{i}\nq1 Q0 d2 2 2 r{i}\nq1 Q0 d1 3 1 r{i}\n"
                       f"q2 Q0 d{1 + i % 2} 1 2 r{i}\nq2 Q0 d{2 - i % 2} 2 1 r{i}\n",
                       encoding="utf-8")
    for chosen in (runs[:2], runs):
        names = [str(r) for r in chosen]
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["compare", *names, "--qrels", str(sheet), "--resamples", "20"],
                        io.StringIO()) == 2
        assert "grade 4 is outside the range 0-3 the column's header declares" in err.getvalue()
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["compare", *names, "--qrels", str(sheet), "--rubric", "0,1,2,3,4",
                         "--resamples", "20", "--format", "json"], out) == 0, err.getvalue()
        assert '"rubric": "0,1,2,3,4"' in out.getvalue()


def test_compare_rubric_still_says_the_columns_left_out_once(tmp_path: Path) -> None:
    """``compare RUN RUN [RUN] --qrels SHEET --rubric ...`` says the columns
    the sheet's import left out, once, as without ``--rubric`` (fails
    before: with a rubric declared the sheet was imported at the join
    alone, after the note was looked up, so it was never said)."""
    runs = [tmp_path / f"run{i}.txt" for i in range(3)]
    for i, run in enumerate(runs):
        run.write_text(f"q1 Q0 d1 1 3 r{i}\nq1 Q0 d2 2 2 r{i}\nq2 Q0 d1 1 2 r{i}\n"
                       f"q3 Q0 d5 1 1 r{i}\n", encoding="utf-8")
    for chosen in (runs[:2], runs):
        for rubric in (["--rubric", "0,1,2,3"], []):  # (each sheet new to the process)
            sheet = tmp_path / f"judged{len(chosen)}{len(rubric)}.csv"
            sheet.write_text(LEFT_OUT, encoding="utf-8")
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                assert main(["compare", *map(str, chosen), "--qrels", str(sheet), *rubric,
                             "--resamples", "20"], io.StringIO()) == 0, err.getvalue()
            note = f"ndcg-worksheet: note: {sheet}: {VALUE_LEFT_OUT}\n"
            assert err.getvalue().count(note) == 1, (len(chosen), rubric, err.getvalue())
