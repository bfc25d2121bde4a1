"""What a round's documents share: the base's identity and grade values."""

from __future__ import annotations

import hashlib
import math

from core.model.assignment import Given
from core.model.audit import timestamp
from core.model.document import Document, GradeState

__all__ = ["MERGE_ORIGIN", "GradeKey", "base_id", "given", "grade_key", "now"]

#: A grade as a comparable value: state, number (None unless a number),
#: reason (only an unrateable grade has one).
GradeKey = tuple[int, float | None, str]


#: The audit log's origin of what a merge set (grades, texts).
MERGE_ORIGIN = "merge"


#: The time, as rounds record it: the audit log's clock (a merge stamps its
#: entries with it; ISO 8601, UTC, seconds), declared once.
now = timestamp


def grade_key(doc: Document, i: int) -> GradeKey:
    """Candidate ``i``'s grade as a value two documents can compare."""
    state = int(doc.state[i])
    if state == GradeState.NUMBER:
        return state, float(doc.grade[i]), ""
    return state, None, str(doc.reason[i]) if state == GradeState.UNRATEABLE else ""


def original_key(doc: Document, i: int) -> GradeKey:
    """Candidate ``i``'s original grade as :func:`grade_key` gives a current one
    (an original grade keeps no reason of its own: the current one's is used)."""
    state = int(doc.original_state[i])
    if state == GradeState.NUMBER:
        return state, float(doc.original_grade[i]), ""
    return state, None, str(doc.reason[i]) if state == GradeState.UNRATEABLE else ""


def given(reviewer: str, key: GradeKey) -> Given:
    """``key`` as a reviewer's grade."""
    state, grade, reason = key
    return Given(reviewer, grade, GradeState(state), reason)


def base_id(doc: Document) -> str:
    """The identity of a document as a round's base: a hash of its
    candidates (query, source id, score) and their current grades (state,
    number, unrateable reason), in query and source order, so that a re-save
    or another row order keeps it and any change of a grade does not.

    Examples
    --------
    >>> doc = Document.from_columns(query=["q", "q"], source_id=["a", "b"],
    ...                             score=[2.0, 1.0], grade=[1.0, None])
    >>> same = Document.from_columns(query=["q", "q"], source_id=["b", "a"],
    ...                              score=[1.0, 2.0], grade=[None, 1.0])
    >>> base_id(doc) == base_id(same), len(base_id(doc))
    (True, 20)
    >>> doc.grades_to_edit()[1], doc.state[1] = 2.0, GradeState.NUMBER
    >>> base_id(doc) == base_id(same)
    False
    """
    qids = [doc.query_ids[q] for q in doc.query.tolist()]
    sids = [str(s) for s in doc.source_id.tolist()]
    digest = hashlib.sha256()
    for i in sorted(range(len(doc)), key=lambda i: (qids[i], sids[i])):
        state, grade, reason = grade_key(doc, i)
        score = float(doc.score[i])
        fields = (qids[i], sids[i], "nan" if math.isnan(score) else score.hex(), str(state),
                  "" if grade is None else grade.hex(), reason)
        digest.update(("\x1f".join(fields) + "\x1e").encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:20]
