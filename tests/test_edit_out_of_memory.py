"""A grade edit that runs out of memory partway leaves the numbers whole.

The session writes the grades, then splices the edited query's numbers into
its evaluation in place (:func:`core.engine.splice.spliced`).
Memory is made to run out at each of the splice's writes in turn, and in the
steps before them: the evaluation then equals, bit for bit, a fresh
evaluation of the document as it was (its grades, audit log and the
session's history unchanged), and the next edit is evaluated exactly.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import pytest

import core.engine.evaluation as engine
import core.engine.splice as splice
from core.engine.evaluation import QueryResults, evaluate
from core.engine.incremental import reevaluate
from core.engine.writes import Writes
from core.model.conventions import Conventions, IdealInventory, TieRule
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetConventions, SetGrades
from core.session import Worksheet
from tests.test_engine_incremental import ARRAYS, _same

#: What the editor asks of its evaluation before an edit (then spliced).
ASKED = ("ideal_order", "ideal_rank", "contribution", "ideal_contribution", "n_judged",
         "outside_rubric", "rank", "discount", "tie_start")


def _document(ties: TieRule = TieRule.AVERAGE, *, in_order: bool = False) -> Document:
    """Two queries; ties. Rows of "a" interleaved with "b"'s and one not
    retrieved; or (``in_order``) every row ranked, in ranked order: the
    ranked gains then share the gain column."""
    query, score = ["a", "b", "a", "a", "b", "a"], [3.0, 2.0, 2.0, 2.0, 1.0, np.nan]
    if in_order:
        query, score = ["a", "a", "a", "a", "b", "b"], [4.0, 3.0, 3.0, 1.0, 2.0, 1.0]
    return Document.from_columns(
        query=query, source_id=["d1", "e1", "d2", "d3", "e2", "d4"], score=score,
        grade=[1.0, 2.0, 3.0, 0.0, 1.0, 2.0],
        conventions=Conventions(cutoffs=(2, None), ties=ties, ideal=IdealInventory.JUDGED))


def _asked(ws: Worksheet) -> None:
    for name in ASKED:
        getattr(ws.evaluation, name)


def _same_as_fresh(ws: Worksheet) -> None:
    fresh = evaluate(ws.document)
    for name in ARRAYS:
        _same(getattr(ws.evaluation, name), getattr(fresh, name), name)
    assert ws.evaluation.status_table() == fresh.status_table()


def _edit(row: int, grade: float) -> SetGrades:
    return SetGrades.of([row], [GradeValue(grade, GradeState.NUMBER)], who="t", text="g")


def _fail_at(monkeypatch: pytest.MonkeyPatch, n: int) -> list[int]:
    """``Writes.write`` raising MemoryError at its ``n``-th call (1-based)
    from now on, before writing; the calls counted."""
    real, calls = Writes.write, [0]

    def write(self: Writes, *args: Any) -> Any:
        calls[0] += 1
        if calls[0] == n:
            raise MemoryError
        return real(self, *args)

    monkeypatch.setattr(Writes, "write", write)
    return calls


@pytest.mark.parametrize(("ties", "in_order"), [(TieRule.AVERAGE, False),
                                               (TieRule.ID_DESC, False),
                                               (TieRule.AVERAGE, True)])
def test_memory_running_out_at_each_write_leaves_the_evaluation_whole(
        monkeypatch: pytest.MonkeyPatch, ties: TieRule, in_order: bool) -> None:
    ws = Worksheet(_document(ties, in_order=in_order))
    if in_order:
        assert np.may_share_memory(ws.evaluation._sorted_gain, ws.evaluation.gain)
    ws.apply(_edit(4, 3.0))  # (a step in the history, the splice's arrays its own)
    _asked(ws)
    with monkeypatch.context() as m:  # how many writes an edit of query "a" makes
        calls = _fail_at(m, 0)
        ws.apply(_edit(2, 1.0))
        writes = calls[0]
        ws.undo()
    assert writes >= 8  # gains, known, ideal order, its rows' results, ...
    _asked(ws)
    grades, audit = ws.document.grade.copy(), list(ws.document.audit)
    history = ws.position, ws.undo_text, ws.can_redo
    for n in range(1, writes + 1):
        with monkeypatch.context() as m:
            _fail_at(m, n)
            with pytest.raises(MemoryError):
                ws.apply(_edit(2, 1.0))
        np.testing.assert_array_equal(ws.document.grade, grades)
        assert ws.document.audit == audit
        assert (ws.position, ws.undo_text, ws.can_redo) == history
        _same_as_fresh(ws)
        _asked(ws)
    ws.apply(_edit(2, 1.0))  # then the edit, made
    assert ws.document.grade[2] == 1.0
    _same_as_fresh(ws)
    _asked(ws)
    audit = list(ws.document.audit)
    for n in range(1, writes + 1):  # and its undo, running out alike
        with monkeypatch.context() as m:
            _fail_at(m, n)
            with pytest.raises(MemoryError):
                ws.undo()
        assert ws.document.grade[2] == 1.0
        assert ws.document.audit == audit
        assert (ws.position, ws.can_redo) == (history[0] + 1, False)
        _same_as_fresh(ws)
        _asked(ws)


@pytest.mark.parametrize("step", ["part", "results", "ideal"])
def test_memory_running_out_before_the_writes_writes_nothing(
        monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """The edited queries' evaluation, the per-query numbers spliced, the
    ideal lists' places: each raising leaves the evaluation given as it was."""
    doc = _document()
    ev = evaluate(doc)
    for name in ASKED:
        getattr(ev, name)
    kept = {name: np.array(getattr(ev, name), copy=True) for name in ARRAYS if name != "rubric"}

    def no_memory(*_a: Any, **_k: Any) -> None:
        raise MemoryError

    target = {"part": (engine.Evaluation, "__init__"), "results": (QueryResults, "spliced"),
              "ideal": (splice, "_spliced_ideal_order")}[step]
    doc.set_grade(3, 3.0, who="t")
    with monkeypatch.context() as m:
        m.setattr(*target, no_memory)
        with pytest.raises(MemoryError):
            reevaluate(ev, [3], in_place=True)
    for name, before in kept.items():
        _same(getattr(ev, name), before, name)


def test_the_first_edit_copying_the_grades_read_changes_nothing_when_it_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The grades read are shared with the originals until the first edit
    copies them: that copy failing leaves the document and the history."""
    ws = Worksheet(_document())
    assert np.may_share_memory(ws.document.grade, ws.document.original_grade)

    def no_memory(_doc: Document) -> None:
        raise MemoryError

    with monkeypatch.context() as m:
        m.setattr(Document, "grades_to_edit", no_memory)
        with pytest.raises(MemoryError):
            ws.apply(_edit(2, 1.0))
    assert ws.document.grade[2] == 3.0
    assert ws.document.audit == []
    assert not ws.can_undo
    _same_as_fresh(ws)


def test_a_value_put_back_into_a_document_just_read_leaves_its_grades_read() -> None:
    """GradeValue.put writes the current grades, never the originals they
    share an array with until the first edit (that array is read-only: the
    write raised before)."""
    doc = _document()
    assert np.may_share_memory(doc.grade, doc.original_grade)
    read = doc.original_grade.copy()
    GradeValue(None, GradeState.UNRATEABLE, "blank page").put(doc, 2)
    assert np.isnan(doc.grade[2])
    assert doc.state[2] == GradeState.UNRATEABLE
    assert doc.reason[2] == "blank page"
    np.testing.assert_array_equal(doc.original_grade, read)


class _Full(list):  # type: ignore[type-arg]
    """A history list whose growing or cutting runs out of memory."""

    def append(self, _step: object) -> None:
        raise MemoryError

    def __delitem__(self, _at: object) -> None:
        raise MemoryError


@pytest.mark.parametrize("kind", ["grade", "conventions"])
def test_an_edit_is_never_left_without_its_history_step(kind: str) -> None:
    """The history's list changing in place after the edit (cut at the step
    done, then grown) ran out of memory with the edit made and no step to
    undo it: the grade typed stayed, undo did nothing. Now the edit and its
    step are one: made, undone, evaluated as a fresh evaluation."""
    ws = Worksheet(_document())
    ws._history = _Full()
    before = ws.conventions
    edit = (_edit(2, 1.0) if kind == "grade" else
            SetConventions(before.replace(ties=TieRule.PESSIMISTIC), who="t"))
    with contextlib.suppress(MemoryError):  # (either is right: made whole, or not at all)
        ws.apply(edit)
    changed = ws.document.grade[2] == 1.0 if kind == "grade" else (
        ws.conventions.ties is TieRule.PESSIMISTIC)
    assert changed == ws.can_undo
    assert len(ws.document.audit) == (1 if changed else 0)  # (ties alone changed)
    _same_as_fresh(ws)
    ws.undo()
    assert ws.document.grade[2] == 3.0
    assert ws.conventions == before
    _same_as_fresh(ws)
