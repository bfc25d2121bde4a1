"""Review rounds: hand a base document out to reviewers, and merge what
they return.

Pure functions over documents (no file is read or written here; see
:mod:`core.io.rounds`): :func:`plan_hand_out` and :func:`reviewer_document`
(:mod:`~core.analysis.rounds.handout`), :func:`merge`
(:mod:`~core.analysis.rounds.merge`, its result in
:mod:`~core.analysis.rounds.report`), the conflicts' resolutions
(:mod:`~core.analysis.rounds.resolve`), and :func:`base_id`, the identity a
round's documents check their base by (:mod:`~core.analysis.rounds.base`).
"""

from __future__ import annotations

from core.analysis.rounds.base import MERGE_ORIGIN, base_id, now
from core.analysis.rounds.handout import (
    HandOut,
    check_reviewers,
    plan_hand_out,
    reviewer_document,
)
from core.analysis.rounds.merge import Returned, merge
from core.analysis.rounds.report import MergeResult, NoteConflict, Refusal, ReviewerCount
from core.analysis.rounds.resolve import (
    BOTH,
    NoteResolution,
    Resolution,
    TextResolution,
    conflict_row,
    conflict_status,
    note_conflict_status,
    note_edit_kept,
    note_resolutions,
    open_conflicts,
    open_note_conflicts,
    open_text_conflicts,
    resolutions,
    text_conflict_status,
    text_resolutions,
)

__all__ = [
    "BOTH",
    "MERGE_ORIGIN",
    "HandOut",
    "MergeResult",
    "NoteConflict",
    "NoteResolution",
    "Refusal",
    "Resolution",
    "Returned",
    "ReviewerCount",
    "TextResolution",
    "base_id",
    "check_reviewers",
    "conflict_row",
    "conflict_status",
    "merge",
    "note_conflict_status",
    "note_edit_kept",
    "note_resolutions",
    "now",
    "open_conflicts",
    "open_note_conflicts",
    "open_text_conflicts",
    "plan_hand_out",
    "resolutions",
    "reviewer_document",
    "text_conflict_status",
    "text_resolutions",
]
