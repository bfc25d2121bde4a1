"""The Qt-free worksheet session: edits as values, one step each, a record of
what changed, undo and redo with an append-only audit log."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core.session
from core.engine.evaluation import evaluate
from core.errors import ConventionError
from core.model.conventions import Gain, GainRule
from core.model.document import GradeState
from core.model.edits import GradeValue, SetConventions, SetGrades, SetNotes
from core.model.examples import seed_document
from core.session import Changes, Worksheet

L = math.log2(3)
NUMBER, UNKNOWN, UNRATEABLE = GradeState.NUMBER, GradeState.UNKNOWN, GradeState.UNRATEABLE


def num(x: float) -> GradeValue:
    return GradeValue(x, NUMBER)


@pytest.fixture
def session() -> Worksheet:
    return Worksheet(seed_document())


def test_a_grade_step_says_what_changed_and_recomputes(session: Worksheet):
    doc = session.document
    seen: list[Changes] = []
    session.subscribe(seen.append)
    # case-A: order B, A, C with A=3, B=1, C=0; grade B (row 0) 3 instead of 1.
    assert doc.query_ids[0] == "case-A"
    changes = session.apply(SetGrades.of([0], [num(3.0)], who="ana", note="re-read",
                                         text="grade case-A/B"))
    assert seen == [changes]
    assert changes.rows.tolist() == [0]
    assert changes.queries.tolist() == [0]
    assert not changes.everything
    assert [(a.before, a.after, a.who, a.note, a.origin) for a in changes.audit] == [
        ("1", "3", "ana", "re-read", "app")]
    # grades B=3, A=3, C=0 in that order: the ideal order, NDCG 1.
    assert session.evaluation.ndcg[0, -1] == pytest.approx(1.0, abs=1e-15)
    assert session.evaluation is not None
    assert session.position == 1
    assert session.step_text(0) == "grade case-A/B"


def test_undo_and_redo_restore_exactly_and_append_to_the_audit(session: Worksheet):
    doc = session.document
    session.apply(SetGrades.of([1, 2], [GradeValue(None, UNRATEABLE, "broken link"), num(2.0)],
                               who="ana", note="pasted"))
    undone = session.undo()
    assert undone is not None
    assert undone.origin == "undo"
    assert undone.rows.tolist() == [2, 1]  # the last written is undone first
    assert float(doc.grade[1]) == 3.0
    assert float(doc.grade[2]) == 0.0
    assert doc.state[1] == NUMBER
    assert doc.reason[1] == ""
    redone = session.redo()
    assert redone is not None
    assert redone.origin == "redo"
    assert doc.state[1] == UNRATEABLE
    assert doc.reason[1] == "broken link"
    assert [(a.source_id, a.before, a.after, a.note, a.origin) for a in doc.audit] == [
        ("A", "3", "unrateable: broken link", "pasted", "app"),
        ("C", "0", "2", "pasted", "app"),
        ("C", "2", "0", "undo of 0 → 2", "undo"),
        ("A", "unrateable: broken link", "3", "undo of 3 → unrateable", "undo"),
        ("A", "3", "unrateable: broken link", "redo: pasted", "redo"),
        ("C", "0", "2", "redo: pasted", "redo"),
    ]
    assert session.redo() is None
    session.undo()
    assert session.undo() is None  # nothing before the first step


def test_rows_that_hold_their_value_are_no_step(session: Worksheet):
    doc = session.document
    seen: list[Changes] = []
    session.subscribe(seen.append)
    same = SetGrades.of([0, 1], [GradeValue.of(doc, 0), GradeValue.of(doc, 1)], who="ana")
    assert session.apply(same).empty
    assert seen == []
    assert not session.can_undo
    mixed = session.apply(SetGrades.of([0, 1], [GradeValue.of(doc, 0), num(0.0)], who="ana"))
    assert mixed.rows.tolist() == [1]
    assert len(doc.audit) == 1


def test_a_new_edit_after_undo_drops_the_redo_tail(session: Worksheet):
    session.apply(SetGrades.of([0], [num(2.0)], who="ana"))
    session.undo()
    assert session.can_redo
    session.apply(SetGrades.of([3], [num(1.0)], who="ana"))
    assert not session.can_redo
    assert session.position == 1


def test_conventions_step_and_its_undo(session: Worksheet):
    doc = session.document
    before = doc.conventions
    exponential = before.replace(gain=Gain(GainRule.EXPONENTIAL))
    changes = session.apply(SetConventions(exponential, "exponential gain"))
    assert changes.conventions
    assert changes.everything
    assert changes.queries.tolist() == list(range(doc.n_queries))
    assert doc.conventions == exponential
    # case-B: order C, A, B, grades A=3, B=1, C=0: exponential NDCG 0.644286...
    q = doc.query_index("case-B")
    assert session.evaluation.ndcg[q, -1] == pytest.approx(
        (7 / L + 1 / 2) / (7 + 1 / L), abs=1e-12)
    assert session.apply(SetConventions(exponential)).empty  # the same: no step
    session.undo()
    assert doc.conventions == before
    assert session.evaluation.conventions == before


def test_a_refused_edit_changes_nothing(session: Worksheet):
    doc = session.document
    session.apply(SetConventions(doc.conventions.replace(gain=Gain(GainRule.EXPONENTIAL))))
    grades, audit = doc.grade.copy(), list(doc.audit)
    with pytest.raises(ConventionError, match="negative grade"):
        session.apply(SetGrades.of([0], [num(-1.0)], who="ana"))
    np.testing.assert_array_equal(doc.grade, grades)
    assert doc.audit == audit
    assert session.position == 1


def test_an_evaluation_failure_rolls_the_step_back(session: Worksheet,
                                                   monkeypatch: pytest.MonkeyPatch):
    doc = session.document
    grades, states = doc.grade.copy(), doc.state.copy()

    def broken(*_a: object, **_k: object) -> None:
        raise ConventionError("cannot evaluate")

    monkeypatch.setattr(core.session, "reevaluate", broken)
    with pytest.raises(ConventionError):
        session.apply(SetGrades.of([0, 1], [num(0.0), GradeValue(None, UNKNOWN)], who="ana"))
    np.testing.assert_array_equal(doc.grade, grades)
    np.testing.assert_array_equal(doc.state, states)
    assert doc.audit == []
    assert not session.can_undo


def test_replacing_the_document_clears_the_history(session: Worksheet):
    session.apply(SetGrades.of([0], [num(2.0)], who="ana"))
    seen: list[Changes] = []
    session.subscribe(seen.append)
    fresh = seed_document()
    session.replace_document(fresh)
    assert session.document is fresh
    assert not session.can_undo
    assert seen[0].document
    assert seen[0].origin == "open"


def test_unsubscribe(session: Worksheet):
    seen: list[Changes] = []
    stop = session.subscribe(seen.append)
    stop()
    session.apply(SetGrades.of([0], [num(2.0)], who="ana"))
    assert seen == []


def test_one_step_is_one_re_evaluation(session: Worksheet, monkeypatch: pytest.MonkeyPatch):
    calls: list[int] = []
    real = core.session.reevaluate

    def counted(ev, rows, *, in_place):  # type: ignore[no-untyped-def]
        assert in_place  # the worksheet's own evaluation: an edit costs its query's rows
        calls.append(len(rows))
        return real(ev, rows, in_place=in_place)

    monkeypatch.setattr(core.session, "reevaluate", counted)
    rows = list(range(10))
    session.apply(SetGrades.of(rows, [num(1.0)] * 10, who="ana"))
    session.undo()
    session.redo()
    assert len(calls) == 3


@given(st.lists(st.tuples(st.integers(0, 22), st.sampled_from([0.0, 1.0, 2.0, 3.0, None])),
                min_size=1, max_size=30),
       st.lists(st.sampled_from(["undo", "redo"]), max_size=30))
def test_any_history_leaves_the_evaluation_as_a_fresh_one(
        edits: list[tuple[int, float | None]], moves: list[str]) -> None:
    session = Worksheet(seed_document())
    for (row, value), move in zip(edits, moves + ["edit"] * len(edits), strict=False):
        grade = num(value) if value is not None else GradeValue(None, UNKNOWN)
        session.apply(SetGrades.of([row], [grade], who="ana"))
        if move == "undo":
            session.undo()
        elif move == "redo":
            session.redo()
    fresh = evaluate(session.document)
    np.testing.assert_array_equal(session.evaluation.ndcg, fresh.ndcg)
    np.testing.assert_array_equal(session.evaluation.dcg, fresh.dcg)
    # (spliced in place edit after edit: the per-candidate arrays too)
    for name in ("gain", "ideal_rank", "ideal_contribution", "contribution"):
        np.testing.assert_array_equal(getattr(session.evaluation, name), getattr(fresh, name))
    # The audit log is append-only: replaying its "after" per candidate gives the grades.
    doc = session.document
    last = {(a.query, a.source_id): a.after for a in doc.audit}
    for (query, source), after in last.items():
        i = int(np.flatnonzero((doc.source_id == source)
                               & (doc.query == doc.query_index(query)))[0])
        assert GradeValue.of(doc, i).text == after


def test_the_saved_position_follows_undo_and_redo(session: Worksheet):
    seen: list[Changes] = []
    session.subscribe(seen.append)
    assert not session.modified  # the document as given is the saved state
    assert (session.undo_text, session.redo_text) == (None, None)
    session.apply(SetGrades.of([0], [num(2.0)], who="ana", text="first"))
    session.apply(SetGrades.of([1], [num(0.0)], who="ana", text="second"))
    assert session.modified
    assert (session.undo_text, session.redo_text) == ("second", None)
    saved = session.mark_saved()
    assert (saved.empty, saved.origin) == (True, "save")
    assert seen[-1] is saved
    assert not session.modified
    session.undo()  # back past the save: modified
    assert session.modified
    assert (session.undo_text, session.redo_text) == ("first", "second")
    session.redo()  # to the saved state again: not modified
    assert not session.modified
    session.undo()
    session.undo()
    assert session.modified
    assert not session.can_undo
    session.apply(SetGrades.of([2], [num(1.0)], who="ana", text="branch"))
    # The saved state was on the redo tail this edit dropped: out of reach.
    while session.can_undo:
        session.undo()
        assert session.modified
    assert session.modified


def test_a_save_of_an_earlier_state_keeps_the_document_modified(session: Worksheet):
    session.apply(SetGrades.of([0], [num(2.0)], who="ana"))
    written = session.checkpoint  # a snapshot is written while the reviewer grades on
    session.apply(SetGrades.of([1], [num(0.0)], who="ana"))
    session.mark_saved(written)
    assert session.modified
    session.undo()
    assert not session.modified


def test_recovered_edits_are_modified_until_saved(session: Worksheet):
    session.replace_document(seed_document(), saved=False)
    assert session.modified
    session.apply(SetGrades.of([0], [num(2.0)], who="ana"))
    session.undo()
    assert session.modified
    session.mark_saved()
    assert not session.modified
    session.replace_document(seed_document())
    assert not session.modified


@given(st.lists(st.sampled_from(["edit", "undo", "redo", "save"]), max_size=40),
       st.data())
def test_modified_is_the_position_against_the_saved_one(moves: list[str],
                                                         data: st.DataObject) -> None:
    """Against a model of the history (QUndoStack's clean index): modified is
    "the position is not the saved one", the saved position is lost when an
    edit drops the redo tail it was on, and an unmodified document holds the
    grades it had when saved."""
    session = Worksheet(seed_document())
    done, length, saved = 0, 0, 0
    saved_grades = session.document.grade.copy()
    for move in moves:
        if move == "edit":
            row = data.draw(st.integers(0, 22))
            value = session.document.grade[row]
            grade = 0.0 if value != 0.0 else 1.0  # always a change: always a step
            session.apply(SetGrades.of([row], [num(grade)], who="ana"))
            if saved is not None and saved > done:
                saved = None
            done += 1
            length = done
        elif move == "undo" and done:
            session.undo()
            done -= 1
        elif move == "redo" and done < length:
            session.redo()
            done += 1
        elif move == "save":
            session.mark_saved()
            saved = done
            saved_grades = session.document.grade.copy()
        assert session.position == done
        assert session.modified == (saved != done)
        if not session.modified:
            np.testing.assert_array_equal(session.document.grade, saved_grades)


@pytest.mark.parametrize("failure", [RuntimeError("a view broke"), MemoryError()])
def test_a_failing_listener_leaves_none_untold_and_the_step_made(session: Worksheet,
                                                                 failure: Exception):
    """A listener raising (a view's bug, or memory running out refreshing it
    after the edit was made) between two recording ones: both are told of
    every step, the first failure is raised once all were told, and the
    step stays made, in the one history (undo, redo and a save alike)."""
    doc = session.document
    first: list[Changes] = []
    last: list[Changes] = []
    session.subscribe(first.append)

    def broken(_changes: Changes) -> None:
        raise failure

    session.subscribe(broken)
    session.subscribe(last.append)
    with pytest.raises(type(failure)) as raised:
        session.apply(SetGrades.of([0], [num(3.0)], who="ana", text="grade case-A/B"))
    assert raised.value is failure
    assert len(first) == len(last) == 1
    assert first[0] is last[0]
    assert first[0].rows.tolist() == [0]
    assert float(doc.grade[0]) == 3.0
    assert [(a.before, a.after) for a in doc.audit] == [("1", "3")]
    assert (session.position, session.undo_text) == (1, "grade case-A/B")
    assert session.evaluation.ndcg[0, -1] == pytest.approx(1.0, abs=1e-15)
    for step, grade in ((session.undo, 1.0), (session.redo, 3.0), (session.mark_saved, 3.0)):
        with pytest.raises(type(failure)):
            step()
        assert float(doc.grade[0]) == grade
    assert len(first) == len(last) == 4
    assert [c.origin for c in last] == ["app", "undo", "redo", "save"]
    assert not session.modified
    assert [(a.before, a.after, a.origin) for a in doc.audit] == [
        ("1", "3", "app"), ("3", "1", "undo"), ("1", "3", "redo")]


def test_a_note_step_is_audited_undone_and_changes_no_number(session: Worksheet):
    """The reviewer's note (the workbook's column H) is an edit like a grade:
    one step for several rows (a paste), an audit entry each (who, query,
    source, from, to, origin), undo and redo, the document modified; the
    evaluation is the same object (no number moved) and the grades are
    untouched."""
    doc = session.document
    seen: list[Changes] = []
    session.subscribe(seen.append)
    ev, grades = session.evaluation, doc.grade.copy()
    change = session.apply(SetNotes.of([0, 4], ["checked twice"], who="ana",
                                       text="paste 2 notes"))
    assert change.notes.tolist() == [0, 4]
    assert change.rows.size == 0
    assert change.queries.tolist() == sorted({int(doc.query[0]), int(doc.query[4])})
    assert not change.empty
    assert change.lead == 0
    assert doc.note[0] == doc.note[4] == "checked twice"
    assert session.evaluation is ev
    assert np.array_equal(doc.grade, grades, equal_nan=True)
    assert [(e.who, e.query, e.source_id, e.before, e.after, e.origin, e.about_note)
            for e in doc.audit] == [
        ("ana", doc.query_ids[int(doc.query[i])], doc.source_text(i), "no note",
         "note: checked twice", "app", True) for i in (0, 4)]
    assert session.modified
    assert session.undo_text == "paste 2 notes"
    undone = session.undo()
    assert undone is not None
    assert undone.notes.tolist() == [4, 0]
    assert undone.lead == 0
    assert doc.note[0] == doc.note[4] == ""
    assert not session.modified
    assert [(e.before, e.after, e.origin) for e in doc.audit[2:]] == [
        ("note: checked twice", "no note", "undo")] * 2
    session.redo()
    assert doc.note[4] == "checked twice"
    assert doc.audit[-1].origin == "redo"
    assert session.apply(SetNotes.of([0], ["checked twice"], who="ana")).empty  # as it is
    assert len(seen) == 3
    assert session.evaluation is ev
