"""An annotators' sheet given to ``compare`` as qrels says where the grades
came from as ``evaluate`` says it: the consensus of the annotators among
the conventions (the joined runs carry the annotators' record), the sheet's
guidelines under ``--rubric`` (and the grades they describe that the rubric
lacks), the declared rubric beside ranx's JSON runs too, and the notes of
its import handed along with it, never kept by the process between reads."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from core.io import pairs
from core.io.annotator import import_annotations
from core.io.annotator import qrels as qrels_module
from core.io.annotator.qrels import run_with_judgments, sheet_judgments
from core.io.files import sniff
from core.model.document import Document

SHEET = ("query,doc,annotator,relevance\n"
         "q1,d1,ana,3\nq1,d1,ben,2\nq1,d2,ana,0\nq1,d2,ben,1\n"
         "q1,d3,ana,1\nq1,d3,ben,1\nq1,d3,cara,2\n"
         "q2,d4,ana,2\nq2,d4,ben,2\nq2,d5,ana,0\nq2,d5,ben,0\nq2,d5,cara,1\n")
RUN = "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d3 3 1 r\nq2 Q0 d4 1 2 r\nq2 Q0 d5 2 1 r\n"
QRELS = "q1 0 d1 2.5\nq1 0 d2 0.5\nq1 0 d3 1\nq2 0 d4 2\nq2 0 d5 0\n"
CONSENSUS = ("  consensus              mean of the annotators' grades, no rounding  "
             "[grade = mean(annotator grades); the consensus keeps full precision]\n")


def _files(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    sheet, qrels, run_a, run_b = (tmp_path / n for n in ("judged.csv", "judged.qrels", "a.txt",
                                                         "b.txt"))
    sheet.write_text(SHEET, encoding="utf-8")
    qrels.write_text(QRELS, encoding="utf-8")
    run_a.write_text(RUN, encoding="utf-8")
    run_b.write_text(RUN.replace(" 1 3 r", " 1 0.5 r"), encoding="utf-8")
    return sheet, qrels, run_a, run_b


def _run(args: list[str]) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(args, out) == 0, err.getvalue()
    return out.getvalue(), err.getvalue()


def test_compare_names_the_annotators_consensus_as_evaluate_does(tmp_path: Path) -> None:
    """``compare A B [C] --qrels SHEET`` lists the consensus of the sheet's
    annotators among the conventions, the row evaluate prints, in the table
    and the JSON (fails before: compare's joined runs carried no annotators,
    so its table left the row out)."""
    sheet, _, run_a, run_b = _files(tmp_path)
    evaluated, _ = _run(["evaluate", str(run_a), "--qrels", str(sheet)])
    assert CONSENSUS in evaluated
    for runs in ([run_a, run_b], [run_a, run_b, run_a]):
        table, _ = _run(["compare", *map(str, runs), "--qrels", str(sheet), "--resamples", "20"])
        assert table.count(CONSENSUS) == 1, table
    as_json = json.loads(_run(["evaluate", str(run_a), "--qrels", str(sheet), "--format",
                               "json"])[0])["conventions"]["described"]
    compared = json.loads(_run(["compare", str(run_a), str(run_b), "--qrels", str(sheet),
                                "--resamples", "20", "--format", "json"])[0])
    assert compared["conventions"]["described"] == as_json
    assert {"convention": "consensus", "choice": "mean of the annotators' grades, no rounding",
            "formula": "grade = mean(annotator grades); the consensus keeps full precision"
            } in as_json


def test_the_joined_runs_carry_the_annotators_record(tmp_path: Path) -> None:
    """Both runs of ``read_judged_pair`` (and each of ``read_judged_runs``)
    joined with a sheet's judgments hold its annotators' grades, as
    ``evaluate``'s join does (fails before: none)."""
    sheet, _, run_a, run_b = _files(tmp_path)
    judgments = sheet_judgments(sheet)
    doc_a, doc_b, _, _, _ = pairs.read_judged_pair(run_a, run_b, sniff(sheet), lambda d: d,
                                                   sheet=judgments)
    made, _ = pairs.read_judged_runs([run_a, run_b], sniff(sheet), lambda d, i: d,
                                     sheet=judgments)
    for doc in (doc_a, doc_b, *made):
        assert doc.annotators == ["ana", "ben", "cara"]
        assert doc.ratings is not None
        row = {str(s): i for i, s in enumerate(doc.source_id)}["d3"]
        assert doc.ratings[row].tolist() == [1.0, 1.0, 2.0]
        assert doc.grade[row] == pytest.approx(4 / 3)


def test_compare_with_trec_qrels_names_no_consensus(tmp_path: Path) -> None:
    """TREC qrels judge with no annotators: compare's table names no
    consensus, as before."""
    _, qrels, run_a, run_b = _files(tmp_path)
    table, err = _run(["compare", str(run_a), str(run_b), "--qrels", str(qrels),
                       "--resamples", "20"])
    assert "consensus" not in table
    assert err == ""


LEVELS = [
    ("Grade", "Label", "What it means", "Examples"),
    (0, "Not relevant", "The page does not answer the question at all.", "an ad"),
    (1, "Partly", "The page answers part of the question, or only mentions it.", ""),
    (2, "Relevant", "The page answers the whole question on its own.", "a recipe"),
]
GUIDELINES = ("  guidelines             grades 0, 1, 2 described  [what each grade means, "
              "shown beside the grid while grading]\n")


def _book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append(("query", "doc", "grade"))
    for q, d, g in (("q1", "d1", 2), ("q1", "d2", 0), ("q2", "d1", 1), ("q2", "d3", 1)):
        ws.append((q, d, g))
    levels = wb.create_sheet("Instructions")
    levels.append(("Read each page, then choose the grade that fits best.",))
    for row in LEVELS:
        levels.append(row)
    wb.save(path)
    return path


def test_a_declared_rubric_keeps_the_sheets_guidelines(tmp_path: Path) -> None:
    """``--rubric`` replaces the sheet's scale (its grades and labels) but
    not its guidelines: evaluate and compare keep them, and say in one line
    the grades they describe that the declared rubric lacks (fails before:
    with a rubric declared the guidelines were dropped, unsaid)."""
    book = _book(tmp_path / "book.xlsx")
    run_a, run_b = tmp_path / "a.txt", tmp_path / "b.txt"
    run_a.write_text("q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq2 Q0 d1 1 2 r\nq2 Q0 d3 2 1 r\n",
                     encoding="utf-8")
    run_b.write_text("q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq2 Q0 d1 1 2 r\nq2 Q0 d3 2 1 r\n",
                     encoding="utf-8")
    own, _ = _run(["evaluate", str(run_a), "--qrels", str(book)])
    assert "  rubric                 0=Not relevant,1=Partly,2=Relevant  " in own
    assert GUIDELINES in own
    off = (f"ndcg-worksheet: note: {book}: its guidelines describe grade 2, which the rubric "
           "0,1 lacks: kept, and shown outside the rubric\n")
    for rubric, said in (("0,1,2,3", ""), ("0,1", off)):
        for command in (["evaluate", str(run_a)],
                        ["compare", str(run_a), str(run_b), "--resamples", "20"],
                        ["compare", str(run_a), str(run_b), str(run_a), "--resamples", "20"]):
            out, err = _run([*command, "--qrels", str(book), "--rubric", rubric])
            assert f"  rubric                 {rubric}  " in out, command
            assert GUIDELINES in out, (command, rubric)
            assert err == said, (command, rubric)


LEFT_OUT = ("query,doc,value,Relevance (0-3),comment\n"
            "q1,d1,1,0,ok\nq1,d2,2,3,\nq1,d3,3,1,hmm\nq1,d4,4,2,\n"
            "q2,d1,1,1,\nq2,d2,2,2,\nq2,d3,3,0,\nq2,d4,4,3,\n")


def _held(module: object) -> int:
    """How many items the module's containers hold."""
    return sum(len(v) for v in vars(module).values() if isinstance(v, dict | list | set))


def test_a_sheet_read_again_leaves_nothing_in_the_process(tmp_path: Path) -> None:
    """Each read of an annotators' sheet as qrels hands the note of its
    import along with the document it made (:attr:`Document.judgments_notes`),
    and the process keeps nothing of it: a sheet changed and read again and
    again (the editor reopening it) leaves the module as it was (fails
    before: a note kept per state of the file, one more each read)."""
    sheet, run = tmp_path / "judged.csv", tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq2 Q0 d1 1 2 r\n", encoding="utf-8")
    sheet.write_text(LEFT_OUT, encoding="utf-8")
    run_with_judgments(run, sheet)  # (anything made once, on a first read)
    held = _held(qrels_module)
    docs: list[Document] = []
    for i in range(5):
        sheet.write_text(LEFT_OUT + f"q3,d{i},1,1,\n", encoding="utf-8")
        docs.append(run_with_judgments(run, sheet))
    assert _held(qrels_module) == held
    note = (f"{sheet}: left out, not imported: value (whole numbers counting each query's "
            "sources; if this is the ranking, pass --map rank=value)")
    assert all(doc.judgments_notes == (note,) for doc in docs)
    assert sheet_judgments(sheet).judgments_notes == (note,)


OFF_RANGE = ("query,doc,Relevance (0-3)\nq1,d{s}1,0\nq1,d2,3\nq1,d3,4\n"
             "q2,d1,1\nq2,d2,2\n")


@pytest.mark.parametrize("space", [" ", ""])  # joined on the ids as they are / the TREC copies
def test_a_declared_rubric_reaches_the_sheet_beside_json_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, space: str) -> None:
    """ranx's JSON runs given an annotators' sheet (a 4 under ``Relevance
    (0-3)``) and ``--rubric 0,1,2,3,4``: evaluate and compare import the
    sheet on the declared rubric, compare once for all its runs (fails
    before: evaluate refused the 4 either way, as the sheet was imported on
    its own scale; compare refused it, importing the sheet again for each
    run, when an id holds white space)."""
    sheet = tmp_path / "judged.csv"
    sheet.write_text(OFF_RANGE.format(s=space), encoding="utf-8")
    runs = []
    for name, order in (("a", (3.0, 2.0, 1.0)), ("b", (1.0, 2.0, 3.0))):
        run = tmp_path / f"{name}.json"
        run.write_text(json.dumps({"q1": dict(zip([f"d{space}1", "d2", "d3"], order,
                                                  strict=True)),
                                   "q2": {"d1": 2.0, "d2": 1.0}}), encoding="utf-8")
        runs.append(str(run))
    out, _ = _run(["evaluate", runs[0], "--qrels", str(sheet), "--rubric", "0,1,2,3,4"])
    # by hand, L = log2(3): q1 (3/L + 4/2)/(4 + 3/L), q2 (1 + 2/L)/(2 + 1/L); their mean
    assert "mean NDCG@all = 0.7602 over 2 queries" in out
    calls: list[Path] = []

    def counted(path: Path, **kw: object) -> object:
        calls.append(Path(path))
        return import_annotations(path, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(qrels_module, "import_annotations", counted)
    for chosen in (runs, [*runs, runs[0]]):
        calls.clear()
        out, _ = _run(["compare", *chosen, "--qrels", str(sheet), "--rubric", "0,1,2,3,4",
                       "--resamples", "20", "--format", "json"])
        assert '"rubric": "0,1,2,3,4"' in out
        assert calls == [sheet], (len(chosen), calls)
