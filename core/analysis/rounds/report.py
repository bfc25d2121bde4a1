"""What a merge did, as values and as the JSON of ``MERGE.json``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.model.assignment import Conflict, Given, NoteConflict, TextConflict
from core.model.document import Document, GradeState
from core.model.numbers import counted

__all__ = ["MergeResult", "NoteConflict", "Refusal", "ReviewerCount"]


@dataclass(frozen=True)
class Refusal:
    """A returned document whose changes (all, or those outside its
    assignment: ``queries``) were not taken, and why."""

    workbook: str
    reviewer: str
    reason: str
    changes: int
    queries: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReviewerCount:
    """One returned document's reviewer: of the ``assigned`` unknown
    candidates handed out, ``graded`` have a grade now; ``changes`` found."""

    reviewer: str
    workbook: str
    assigned: int
    graded: int
    changes: int


@dataclass(frozen=True)
class MergeResult:
    """The merged document and the counts of :func:`core.analysis.rounds.merge`.

    ``taken + identical + conflicting + overlap_ratings + refused_changes``
    equals ``changes_found``.
    """

    document: Document
    base_id: str
    changes_found: int
    taken: int
    identical: int
    conflicts: tuple[Conflict, ...]
    overlap_ratings: int
    refused: tuple[Refusal, ...]
    unknown_left: int
    reviewers: tuple[ReviewerCount, ...]
    #: Notes changed on both sides since the split (reported, not counted
    #: as changes: the counts are the grades').
    note_conflicts: tuple[NoteConflict, ...] = ()
    #: The queries whose text a reviewer fixed, taken (query ids), and the
    #: texts changed on both sides or by reviewers differently (reported,
    #: not counted as changes either).
    texts_taken: tuple[str, ...] = ()
    text_conflicts: tuple[TextConflict, ...] = ()

    @property
    def conflicting(self) -> int:
        """The changes in conflicts (each conflict's grades)."""
        return sum(len(c.values) for c in self.conflicts)

    @property
    def refused_changes(self) -> int:
        return sum(r.changes for r in self.refused)

    def nothing_taken(self) -> str:
        """Why nothing could be merged, or ``""`` when something was: every
        returned document was refused as a whole, or every change found was
        refused. A round whose reviewers changed nothing is no failure."""
        whole = [r for r in self.refused if not r.queries]
        if self.reviewers and len(whole) == len(self.reviewers):
            return "every returned workbook was refused: " + "; ".join(
                f"{r.workbook}: {r.reason}" for r in whole)
        if self.changes_found and self.refused_changes == self.changes_found:
            return "every change found was refused: " + "; ".join(
                f"{r.workbook}: {r.reason}" for r in self.refused)
        return ""

    def summary(self) -> str:
        """One line: every count."""
        text = (f"{counted(self.changes_found, 'change')} found: {self.taken} taken, "
                f"{self.identical} identical, {counted(len(self.conflicts), 'conflict')} "
                f"({counted(self.conflicting, 'grade')}), "
                f"{counted(self.overlap_ratings, 'overlap rating')}, {self.refused_changes} "
                f"refused; {self.unknown_left} unknown left")
        if self.note_conflicts:
            every = ("both" if all(c.every == "both" for c in self.note_conflicts)
                     else "all")  # (the base's rewrite and two reviewers': three)
            text += (f"; {counted(len(self.note_conflicts), 'note conflict')} ({every} notes "
                     "kept, joined)")
        if self.texts_taken:
            text += f"; {counted(len(self.texts_taken), 'query text')} taken"
        if self.text_conflicts:
            text += (f"; {counted(len(self.text_conflicts), 'text conflict')} (every text "
                     "kept, joined)")
        return text

    def to_dict(self, *, base: str = "", merged: str = "") -> dict[str, Any]:
        """The JSON of ``MERGE.json`` (file names as given)."""
        return {
            "base": base,
            "base_id": self.base_id,
            "merged": merged,
            "changes_found": self.changes_found,
            "taken": self.taken,
            "identical": self.identical,
            "conflicts": [{
                "query": c.query, "source_id": c.source_id, "base": _grade_json(c.base),
                "values": {g.reviewer: _grade_json(g) for g in c.values},
            } for c in self.conflicts],
            "conflicting": self.conflicting,
            "note_conflicts": [{
                "query": c.query, "source_id": c.source_id,
                "base": {"who": c.base_who, "note": c.base},
                "values": dict(c.values),
            } for c in self.note_conflicts],
            "texts_taken": list(self.texts_taken),
            "text_conflicts": [{
                "query": c.query, "base": c.base, "base_changed": c.base_changed,
                "values": dict(c.values),
            } for c in self.text_conflicts],
            "overlap_ratings": self.overlap_ratings,
            "refused": [{
                "workbook": r.workbook, "reviewer": r.reviewer, "reason": r.reason,
                "changes": r.changes, "queries": list(r.queries),
            } for r in self.refused],
            "unknown_left": self.unknown_left,
            "reviewers": {c.reviewer: {
                "workbook": c.workbook, "graded": c.graded, "assigned": c.assigned,
                "changes": c.changes,
            } for c in self.reviewers},
        }


def _grade_json(g: Given) -> float | str:
    """A grade as JSON: the number, or ``unknown`` / ``unrateable[: reason]``."""
    if g.state is GradeState.NUMBER and g.grade is not None:
        return g.grade
    if g.state is GradeState.UNRATEABLE and g.reason:
        return f"unrateable: {g.reason}"
    return g.text
