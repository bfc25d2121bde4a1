"""The document's own helpers: per-query weights."""

from __future__ import annotations

import numpy as np
import pytest

from core.model.conventions import Weighting
from core.model.document import Document


def _doc() -> Document:
    return Document.from_columns(
        query=["a", "a", "b", "c"], source_id=["x", "y", "x", "z"],
        frequency={"a": 3.0, "b": 0.0, "ghost": 9.0},
        importance={"c": 0.5},
    )


@pytest.mark.parametrize(
    ("weighting", "expected"),
    [
        (Weighting.EQUAL, [1.0, 1.0, 1.0]),
        (Weighting.FREQUENCY, [3.0, 0.0, np.nan]),
        (Weighting.IMPORTANCE, [np.nan, np.nan, 0.5]),
        ("frequency", [3.0, 0.0, np.nan]),
    ],
)
def test_query_weights(weighting, expected):
    w = _doc().query_weights(weighting)
    assert w.dtype == np.float64
    np.testing.assert_array_equal(w, np.array(expected))


def test_query_weights_is_a_new_array_and_follows_subset():
    doc = _doc()
    w = doc.query_weights(Weighting.FREQUENCY)
    w[:] = -1.0
    assert doc.frequency[0] == 3.0
    part = doc.subset(np.array([2, 3]))
    np.testing.assert_array_equal(part.query_weights(Weighting.FREQUENCY), [0.0, np.nan])


def test_an_edit_leaves_the_original_grades_as_read():
    import copy

    from core.model.grades import GradeState

    doc = Document.from_columns(query=["q", "q", "q"], source_id=["a", "b", "c"],
                                score=[3.0, 2.0, 1.0], grade=[1.0, None, 2.0])
    # shared until the first edit, and no write can reach them but through it
    assert np.shares_memory(doc.grade, doc.original_grade)
    with pytest.raises(ValueError, match="read-only"):
        doc.grade[0] = 5.0
    twin = copy.deepcopy(doc)
    doc.set_grade(1, 3.0, GradeState.NUMBER, who="r")
    doc.grades_to_edit()[2] = 0.0
    assert doc.grade.tolist() == [1.0, 3.0, 0.0]
    assert np.isnan(doc.original_grade[1])
    assert doc.original_grade[[0, 2]].tolist() == [1.0, 2.0]
    assert doc.changed().tolist() == [False, True, True]
    # a deep copy shares its own pair, parted the same way
    twin.set_grade(0, 2.0, GradeState.NUMBER, who="r")
    assert (twin.grade[0], twin.original_grade[0]) == (2.0, 1.0)


def test_members_by_hand_in_runs_of_ascending_queries_and_shuffled(monkeypatch):
    # Rows in two runs of ascending query codes (a run joined with its qrels:
    # ranked rows, then judged ones no run ranked) keep no sorted order; rows
    # in more runs than QueryMembers.RUNS do: each query's rows in row order both ways.
    from core.model import query_rows

    grouped = Document.from_columns(query=["a", "a", "b", "c", "a", "c"],
                                    source_id=list("uvwxyz"))
    shuffled = Document.from_columns(query=["a", "b", "a", "c", "b", "a"],
                                     source_id=list("uvwxyz"))
    monkeypatch.setattr(query_rows.QueryMembers, "RUNS", 2)
    assert [grouped.members(q).tolist() for q in range(3)] == [[0, 1, 4], [2], [3, 5]]
    assert grouped._members is not None
    assert grouped._members.order is None
    assert [shuffled.members(q).tolist() for q in range(3)] == [[0, 2, 5], [1, 4], [3]]
    assert shuffled._members is not None
    assert shuffled._members.order is not None


def test_an_audit_entry_s_edit_compares_every_field_but_convention():
    from dataclasses import fields, replace

    from core.model.audit import AuditEntry

    entry = AuditEntry("ann", "2026-01-02 03:04:05", "q1", "d1", "1", "2", "why", "app", 3.5)
    others = {"who": "ben", "when": "2026-01-02 03:04:06", "query": "q2", "source_id": "d2",
              "before": "0", "after": "3", "note": "", "origin": "outside the app",
              "seconds": None, "about_note": True, "about_text": True}
    names = [f.name for f in fields(AuditEntry)]
    assert sorted(names) == sorted([*others, "convention"])  # a new field needs a line here
    for name, value in others.items():
        assert replace(entry, **{name: value}).edit() != entry.edit(), name
    assert replace(entry, convention=True).edit() == entry.edit()
    # an entry stored before ``convention`` was kept (9 fields) gives the same edit
    stored = [getattr(entry, n) for n in names[:names.index("convention")]]
    assert AuditEntry.read(stored).edit() == entry.edit() == (*stored, False, False)
    # and one stored with every field (a note's entry) reads back as stored
    note = replace(entry, about_note=True)
    assert AuditEntry.read([getattr(note, n) for n in names]) == note


def test_a_field_added_after_convention_is_compared_and_convention_is_not():
    from dataclasses import dataclass, replace

    from core.model.audit import AuditEntry

    @dataclass(frozen=True)
    class Later(AuditEntry):
        extra: str = ""

    entry = Later("ann", "t", "q1", "d1", "1", "2")
    assert replace(entry, extra="x").edit() != entry.edit()  # by position: dropped
    assert replace(entry, convention=True).edit() == entry.edit()  # by position: compared


def test_released_scores_say_so_and_every_other_column_stays():
    """Document.release_scores lets the score column go (the command line's
    compare of two runs, once each run's evaluation and tie facts are made):
    reading it, or a subset's, is an error that names the release; the
    other columns, the ids, the queries' rows stay as they were."""
    doc = Document.from_columns(query=["q", "q", "r"], source_id=["a", "b", "a"],
                                score=[2.0, None, 1.0], grade=[1.0, 0.0, None])
    doc.release_scores()
    with pytest.raises(RuntimeError, match="scores were released"):
        _ = doc.score
    with pytest.raises(RuntimeError, match="scores were released"):
        doc.subset(np.array([0]))
    assert doc.source_id.tolist() == ["a", "b", "a"]
    assert doc.grade.tolist()[:2] == [1.0, 0.0]
    assert doc.state.tolist() == [0, 0, 1]
    assert doc.members(0).tolist() == [0, 1]
    assert len(doc) == 3


def test_blank_tells_an_empty_note_or_version_without_making_the_column():
    doc = Document.from_columns(query=["q", "q", "r"], source_id=["a", "b", "a"],
                                score=[2, 1, 1], grade=[1, 0, 2])
    assert doc.blank("note", np.arange(3))
    assert not vars(Document)["note"].is_made(doc)  # (asked, not made)
    doc.set_note(1, "page moved")
    assert doc.blank("note", np.array([0, 2]))
    assert not doc.blank("note", np.arange(2))
    versions = Document.from_columns(query=["q", "q"], source_id=["a", "b"], score=[2, 1],
                                     grade=[1, 0], version=["", "v2"])
    assert (versions.blank("version", np.array([0])),
            versions.blank("version", np.arange(2))) == (True, False)
    with pytest.raises(ValueError, match="score"):
        doc.blank("score", np.arange(3))
