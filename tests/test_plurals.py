"""A count agrees with its noun and its verb wherever one is written: one
of a thing and two of them, in each sentence that counts them
(``core.model.numbers.counted`` and ``agreed``)."""

from __future__ import annotations

import numpy as np
import pytest

from core.analysis.agreement import agreement
from core.analysis.explain import explain
from core.analysis.queue import judging_queue
from core.analysis.rounds.handout import plan_hand_out
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.delimited import not_kept
from core.io.safety.hidden import HiddenLines
from core.model.audit import AuditEntry
from core.model.conventions import Conventions, Gain
from core.model.document import Document
from core.model.numbers import agreed, counted
from core.reports.sentences import audit_sentence, query_sentence

ONE_TWO = [(1, "query", "was", "entry"), (2, "queries", "were", "entries")]


@pytest.mark.parametrize(("n", "query", "was", "entry"), ONE_TWO)
def test_counted_and_agreed(n: int, query: str, was: str, entry: str) -> None:
    assert counted(n) == f"{n} {query}"
    assert counted(n, "entry") == f"{n} {entry}"
    assert counted(n, "day") == f"{n} day" + ("s" if n == 2 else "")
    assert agreed(n, "was") == was
    assert counted(1000 * n, "row", grouped=True) == f"{n},000 rows"


def _queries(n: int, *, grade: float | None = 1.0) -> Document:
    """``n`` queries of two candidates each, the first graded ``grade``."""
    return Document.from_columns(
        query=[f"q{i}" for i in range(n) for _ in range(2)],
        source_id=[f"d{j}" for _ in range(n) for j in range(2)],
        score=[2.0, 1.0] * n, grade=[grade, 0.0] * n)


@pytest.mark.parametrize(("n", "query", "was", "entry"), ONE_TWO)
def test_the_explanation_counts_its_queries(n: int, query: str, was: str, entry: str) -> None:
    doc = _queries(n, grade=2.0)
    text = explain(doc, Conventions(), Conventions(gain=Gain.parse("exponential"))).sentence()
    assert f" over the {n} {query} with a value under both conventions." in text


@pytest.mark.parametrize(("n", "query", "was", "entry"), ONE_TWO)
def test_a_hand_out_to_too_many_reviewers_counts_the_queries(
        n: int, query: str, was: str, entry: str) -> None:
    doc = _queries(n, grade=None)
    with pytest.raises(InputError, match=f"^3 reviewers but only {n} {query} with unknown "):
        plan_hand_out(doc, judging_queue(evaluate(doc)), ["ana", "ben", "cy"], when="now")


@pytest.mark.parametrize(("n", "query", "was", "entry"), ONE_TWO)
def test_what_a_qrels_file_loses_counts_the_edits(n: int, query: str, was: str,
                                                   entry: str) -> None:
    doc = _queries(n)
    for q in range(n):
        assert doc.set_grade(2 * q + 1, 2.0, who="ana")
    doc.annotators = [f"judge{i}" for i in range(n)]
    doc.ratings = np.ones((len(doc), n))
    lost = not_kept(doc)
    assert f"the audit log ({n} {entry})" in lost
    assert f"the original grade of {n} edited candidate{'s' * (n - 1)}" in lost
    assert f"the individual grades of {n} annotator{'s' * (n - 1)}" in lost


@pytest.mark.parametrize("n", [1, 2])
def test_hidden_lines_and_the_audit_are_counted(n: int) -> None:
    s = "s" * (n - 1)
    assert HiddenLines(list(range(1, n + 1)), list(range(1, n + 1))).sentence().startswith(
        f"{n} row{s} ({', '.join(map(str, range(1, n + 1)))}) and {n} column{s} (")
    grade = AuditEntry("ana", "t", "q1", "d1", "unknown", "2")
    assert audit_sentence([grade] * n).startswith(f"{n} change{s} recorded: ")


@pytest.mark.parametrize("n", [1, 2])
def test_a_query_sentence_counts_its_candidates_and_unknown_grades(n: int) -> None:
    s = "s" * (n - 1)
    doc = Document.from_columns(query=["q"] * n, source_id=[f"d{i}" for i in range(n)],
                                score=[float(n - i) for i in range(n)], grade=[None] * n)
    text = query_sentence(evaluate(doc), 0)
    assert f"({n} ranked candidate{s})" in text
    assert f"has no NDCG@all yet: {n} of {n} grade{s} {'is' if n == 1 else 'are'} not known" in text
    assert f"; {n} candidate{s} in the ideal inventory;" in text


def test_agreement_over_one_candidate_says_one() -> None:
    doc = Document.from_columns(query=["q"], source_id=["a"], score=[1.0], grade=[1.0])
    doc.annotators = ["ann", "bob"]
    doc.ratings = np.array([[1.0, 2.0]])
    lines = agreement(doc).sentences()
    assert lines[0] == "1 of 1 candidate with two or more grades has annotators who disagree."
    assert lines[1].endswith(" over 1 candidate both graded.")
    assert lines[2].endswith(" over 1 candidate with two or more grades (2 grades).")


@pytest.mark.parametrize(("n", "more"), [(2, "1 more problem"), (3, "2 more problems")])
def test_a_refused_import_counts_its_other_problems(tmp_path, n: int, more: str) -> None:  # type: ignore[no-untyped-def]
    # A strict import refuses at the first problem and counts the rest (it
    # said "and 1 more problems").
    from core.io.annotator import import_annotations

    path = tmp_path / "again.csv"
    path.write_text("query,doc,grade\n" + "".join(f"q,a,{g}\n" for g in range(n + 1)),
                    encoding="utf-8")
    with pytest.raises(InputError) as caught:
        import_annotations(path, strict=True)
    assert str(caught.value).startswith(f"{path}, line 3")
    assert f"(and {more})" in str(caught.value)


@pytest.mark.parametrize(("n", "cells"), [(1, "1 cell"), (2, "2 cells")])
def test_an_unread_labels_tip_counts_its_cells(qapp, n: int, cells: str) -> None:  # type: ignore[no-untyped-def]
    # The import wizard's unread labels: each one's tip counts the cells a
    # grade left empty rejects (it said "its 1 cells").
    from PySide6.QtCore import Qt

    from app.import_wizard.tables import LabelsModel

    model = LabelsModel()
    model.set_labels({"meh": n})
    tip = model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    assert tip == f"'meh': give it a grade, or leave it empty to reject its {cells}"
