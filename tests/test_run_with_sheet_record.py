"""A run given an annotators' sheet as its judgments (``--qrels SHEET``)
keeps what ``import`` keeps of the same sheet beside the grades: the
rubric's labels, each candidate's note and each annotator's grade.

Before, the run was joined with the sheet's grades alone: opening
``bm25.trec --qrels project-12-at-....json`` (a Label Studio export with a
comment box) showed no rubric ("the grades seen define the scale", levels
0, 0.5, 1, 1.5, ... of the mean consensus), no comment, and no annotator's
grade in the workbook or the Judges dock.
"""

from __future__ import annotations

import math

import numpy as np

from core.io.load import load_document

SHEET = """annotator,query_id,passage_id,relevance,comment
ana,q1,https://docs.acme.io/keys#rotating-keys,Highly relevant,the answer
ben,q1,https://docs.acme.io/keys#rotating-keys,Relevant,
ana,q1,doc.pdf#chunk-12,Not relevant,
ben,q1,doc.pdf#chunk-12,Somewhat relevant,"says ""30 days"", the page says 14"
ana,q2,3f1d2c4e-8b7a-4e2f-9c1d-0a5b6e7f8d9c,Somewhat relevant,
ben,q2,3f1d2c4e-8b7a-4e2f-9c1d-0a5b6e7f8d9c,Somewhat relevant,
"""

RUN = """q1 Q0 doc.pdf#chunk-12 1 9.5 bm25
q1 Q0 never-judged#chunk-1 2 8.0 bm25
q1 Q0 https://docs.acme.io/keys#rotating-keys 3 7.5 bm25
q2 Q0 3f1d2c4e-8b7a-4e2f-9c1d-0a5b6e7f8d9c 1 3.0 bm25
"""


def _joined(tmp_path):
    sheet = tmp_path / "annotations.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    run = tmp_path / "bm25.trec"
    run.write_text(RUN, encoding="utf-8")
    return load_document(run, qrels=sheet)


def _row(doc, query, source):
    return next(i for i in range(len(doc)) if doc.query_ids[int(doc.query[i])] == query
                and doc.source_text(i) == source)


def test_the_rubric_of_the_sheet_is_the_runs(tmp_path):
    doc = _joined(tmp_path)
    rubric = doc.conventions.rubric
    assert rubric is not None
    assert [(g.value, g.label) for g in rubric.grades] == [
        (0.0, "Not relevant"), (1.0, "Somewhat relevant"), (2.0, "Relevant"),
        (3.0, "Highly relevant")]


def test_each_annotators_grade_and_note_follow_their_candidate(tmp_path):
    doc = _joined(tmp_path)
    assert doc.annotators == ["ana", "ben"]
    assert doc.ratings is not None
    rotating = _row(doc, "q1", "https://docs.acme.io/keys#rotating-keys")
    chunk = _row(doc, "q1", "doc.pdf#chunk-12")
    unjudged = _row(doc, "q1", "never-judged#chunk-1")
    uuid = _row(doc, "q2", "3f1d2c4e-8b7a-4e2f-9c1d-0a5b6e7f8d9c")
    assert doc.ratings[rotating].tolist() == [3.0, 2.0]
    assert doc.ratings[chunk].tolist() == [0.0, 1.0]
    assert doc.ratings[uuid].tolist() == [1.0, 1.0]
    assert np.isnan(doc.ratings[unjudged]).all()
    assert doc.grade[rotating] == 2.5
    assert math.isnan(doc.grade[unjudged])
    assert doc.note_text(rotating) == "ana: the answer"
    assert doc.note_text(chunk) == 'ben: says "30 days", the page says 14'
    assert doc.note_text(unjudged) == ""


def test_a_rubric_declared_by_the_caller_stays(tmp_path):
    """``--rubric`` given on the command line (a scale of five) is kept."""
    from core.model.conventions import Conventions
    from core.model.rubric import Rubric

    sheet = tmp_path / "annotations.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    run = tmp_path / "bm25.trec"
    run.write_text(RUN, encoding="utf-8")
    mine = Rubric.parse("0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant,"
                        "4=Perfect")
    doc = load_document(run, qrels=sheet, conventions=Conventions(rubric=mine))
    assert doc.conventions.rubric == mine


PARTIAL = """annotator,query,passage_id,relevance
ana,q1,doc.pdf#chunk-12,Relevant
ana,q9,doc.pdf#chunk-99,Highly relevant
"""


def test_queries_one_side_holds_are_counted_as_with_trec_qrels(tmp_path):
    """The sheet judges q1 and q9; the run ranks q1 and q2. As with the TREC
    qrels of the same grades: q9 is kept with no ranking, q2 counted as
    unjudged beside the means. Before, the sheet's join dropped both
    without a word ("excluded: none")."""
    sheet = tmp_path / "annotations.csv"
    sheet.write_text(PARTIAL, encoding="utf-8")
    qrels = tmp_path / "annotations.qrels"
    qrels.write_text("q1 0 doc.pdf#chunk-12 2\nq9 0 doc.pdf#chunk-99 3\n", encoding="utf-8")
    run = tmp_path / "bm25.trec"
    run.write_text("q1 Q0 doc.pdf#chunk-12 1 9.5 bm25\nq2 Q0 other#chunk-1 1 3.0 bm25\n",
                   encoding="utf-8")
    for judged in (sheet, qrels):
        doc = load_document(run, qrels=judged)
        assert doc.query_ids == ["q1", "q9"], judged
        assert doc.unjudged_queries == ("q2",), judged


def test_a_json_run_with_spaced_ids_and_a_sheet_counts_them_too(tmp_path):
    """ranx's JSON run keyed by the questions (an id holding spaces) beside
    a sheet judging one of them: the other is counted as unjudged."""
    sheet = tmp_path / "annotations.csv"
    sheet.write_text('annotator,query,passage_id,relevance\n'
                     'ana,"what is x, really?",d1,2\n', encoding="utf-8")
    run = tmp_path / "dense.json"
    run.write_text('{"what is x, really?": {"d1": 0.9}, "why y?": {"d2": 0.5}}',
                   encoding="utf-8")
    doc = load_document(run, qrels=sheet)
    assert doc.query_ids == ["what is x, really?"]
    assert doc.unjudged_queries == ("why y?",)


def test_compare_reads_the_sheets_scale_as_evaluate_does(tmp_path, capsys):
    """compare RUN RUN --qrels SHEET declared no rubric ('the grades seen
    define the scale': 0, 0.5, ... of the mean consensus) where evaluate
    RUN --qrels SHEET declares the sheet's; --rubric still overrides."""
    import io
    import json

    from app.cli.main import main

    sheet = tmp_path / "annotations.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    run = tmp_path / "bm25.trec"
    run.write_text(RUN, encoding="utf-8")
    other = tmp_path / "dense.trec"
    other.write_text(RUN.replace("9.5", "1.5").replace("bm25", "dense"), encoding="utf-8")
    said = {}
    for name, extra in (("compare", []), ("compare --rubric", ["--rubric", "0,1,2,3,4"]),
                        ("evaluate", None)):
        out = io.StringIO()
        args = (["compare", str(run), str(other)] if extra is not None else ["evaluate", str(run)])
        assert main([*args, "--qrels", str(sheet), "--format", "json", *(extra or [])],
                    out) == 0
        said[name] = json.loads(out.getvalue())["conventions"]["rubric"]
    capsys.readouterr()
    labels = "0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant"
    assert said == {"compare": labels, "evaluate": labels, "compare --rubric": "0,1,2,3,4"}


def test_the_guidelines_sheet_of_the_judgments_comes_too(tmp_path):
    """A shared sheet's download with a 'Guidelines' sheet beside the
    judgments: import reads what each grade means from it, and so does a
    run judged by the sheet (its Guidelines panel said 'No guidelines yet')."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Round 1"
    sheet.append(["Query ID", "Passage ID", "Ana", "Bruno"])
    for row in (["q1", "doc.pdf#chunk-12", "Relevant", "Highly relevant"],
                ["q1", "never#chunk-1", "Not relevant", "Somewhat relevant"],
                ["q2", "3f1d2c4e-8b7a-4e2f-9c1d-0a5b6e7f8d9c", "Somewhat relevant", "Relevant"]):
        sheet.append(row)
    meaning = ["off topic", "mentions the topic, no answer", "answers part of the question",
               "answers the whole question"]
    legend = book.create_sheet("Guidelines")
    legend.append(["Grade", "Label", "Meaning"])
    for grade, (label, text) in enumerate(zip(
            ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"], meaning,
            strict=True)):
        legend.append([grade, label, text])
    path = tmp_path / "RAG relevance round 1.xlsx"
    book.save(path)
    run = tmp_path / "bm25.trec"
    run.write_text(RUN, encoding="utf-8")
    doc = load_document(run, qrels=path)
    assert [(g["grade"], g["description"]) for g in doc.conventions.guidelines.to_json()] == [
        (float(i), text) for i, text in enumerate(meaning)]


def test_compare_names_a_missing_run_before_the_sheets_refusal(tmp_path, capsys):
    """compare RUN RUN --qrels SHEET reads the sheet's scale before the
    runs: a run given by a wrong name was said only after the sheet's own
    refusal (fails before: the sheet's formula named), as evaluate names it
    first; the files are checked in their order."""
    import io

    from app.cli.main import main

    sheet = tmp_path / "annotations.csv"
    sheet.write_text(SHEET.replace("Somewhat relevant,\n", "=1+1,\n", 1), encoding="utf-8")
    run = tmp_path / "bm25.trec"
    run.write_text(RUN, encoding="utf-8")
    for args in (["compare", str(tmp_path / "missing.trec"), str(run)],
                 ["compare", str(run), str(tmp_path / "missing.trec")],
                 ["compare", str(run), str(run), str(tmp_path / "missing.trec")]):
        assert main([*args, "--qrels", str(sheet)], io.StringIO()) != 0
        err = capsys.readouterr().err
        assert "missing.trec: no such file" in err, err
        assert "=1+1" not in err
    # (the sheet's refusal still said when every run is there)
    assert main(["compare", str(run), str(run), "--qrels", str(sheet)], io.StringIO()) != 0
    assert "=1+1" in capsys.readouterr().err
