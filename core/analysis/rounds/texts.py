"""The queries' texts a round brings back: a reviewer who fixed a query's
text (a typo in the imported question) in their workbook sends the fix back.

A text is the reviewer's change where it differs from the text handed out
(:attr:`~core.model.assignment.Assignment.handed_texts`). It is **taken**
(:class:`~core.model.edits.SetQueryText` put into the merged document, an
audit entry of origin ``merge`` saying so: :meth:`AuditEntry.of_text`) when
the base still holds the text handed out and no other reviewer changed it
otherwise; it is a :class:`~core.model.assignment.TextConflict` when the base
changed it too since (to another text), or reviewers changed it differently:
the merged text then joins every version, each labelled, until the lead takes
one side's in the Conflicts dock. Where the round did not record the texts
handed out (a copy of the base sent without a hand-out, or a hand-out made
before they were kept), which side changed a text cannot be told: a text that
differs from the base's is a conflict with the base, never taken over it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.analysis.rounds.base import MERGE_ORIGIN
from core.model.assignment import TextConflict
from core.model.audit import AuditEntry
from core.model.document import Document
from core.model.edits import SetQueryText

__all__ = ["ReturnedTexts", "TextsMerged", "merge_texts"]

@dataclass(frozen=True)
class ReturnedTexts:
    """One accepted returned document: its label (the reviewer), the
    document, and the queries its share covers."""

    label: str
    document: Document
    queries: Sequence[str]


@dataclass(frozen=True)
class TextsMerged:
    """What :func:`merge_texts` did: the texts taken (query ids), the
    conflicts left open, and the audit entries it wrote."""

    taken: tuple[str, ...]
    conflicts: tuple[TextConflict, ...]
    entries: tuple[AuditEntry, ...]


def merge_texts(merged: Document, base: Document, returned: Sequence[ReturnedTexts], *,
                who: str, when: str) -> TextsMerged:
    """Bring the reviewers' texts into ``merged`` (a copy of ``base``; see
    the module's description)."""
    by: dict[str, dict[str, str]] = {}  # query -> reviewer -> their text
    base_side: set[str] = set()  # queries whose base text changed since, or may have
    known = set(base.query_ids)
    for r in returned:
        doc, a = r.document, r.document.assignment
        handed = (dict(a.handed_texts) if a is not None and a.handed_texts is not None
                  else None)
        for q in r.queries:
            if q not in known or q not in doc.query_ids:
                continue
            theirs = doc.query_texts.get(q, "")
            was = base.query_texts.get(q, "") if handed is None else handed.get(q, "")
            if theirs == was:
                continue
            by.setdefault(q, {})[r.label] = theirs
            if handed is None or base.query_texts.get(q, "") != was:
                base_side.add(q)
    taken: list[str] = []
    conflicts: list[TextConflict] = []
    entries: list[AuditEntry] = []
    for q, texts in by.items():
        now = base.query_texts.get(q, "")
        versions = set(texts.values())
        if q in base_side and versions != {now}:
            conflicts.append(TextConflict(q, now, True, tuple(texts.items())))
            after, note = conflicts[-1].merged, f"text conflict: {conflicts[-1].said}"
        elif q not in base_side and len(versions) > 1:
            conflicts.append(TextConflict(q, now, False, tuple(texts.items())))
            after, note = conflicts[-1].merged, f"text conflict: {conflicts[-1].said}"
        elif versions == {now}:
            continue  # (both sides made the same fix)
        else:
            after = next(iter(versions))
            note = f"text taken from {', '.join(texts)}"
            taken.append(q)
        SetQueryText(merged.query_index(q), after, who=who).put(merged)
        entries.append(AuditEntry.of_text(who, when, q, now, after, origin=MERGE_ORIGIN, note=note))
    return TextsMerged(tuple(taken), tuple(conflicts), tuple(entries))
