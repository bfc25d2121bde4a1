"""What a change of conventions says in the audit log: one entry per field
changed (per grade, for the guidelines), its from and to written
``<convention> = <value>``, the query and source ``—`` (:data:`CONVENTION_ENTRY`).

The labels are :data:`~core.model.conventions.FIELDS`'; a change made in the
window (:class:`core.session.Worksheet`) and one made on a workbook's
Conventions sheet are written the same way.
"""

from __future__ import annotations

from typing import Any

from core.model.conventions import FIELDS, ConventionField, Conventions
from core.model.guidelines import Guideline, Guidelines
from core.model.numbers import number_text

__all__ = ["CONVENTION_ENTRY", "convention_changes", "field_changes", "guideline_change",
           "value_words"]

#: The query and source id shown for an audit entry that records a convention
#: (not a grade) changed: the entry's from and to say "<convention> = <value>".
#: Text only: a real query may be named so; the entry says what it is
#: (:attr:`core.model.audit.AuditEntry.convention`).
CONVENTION_ENTRY = "—"


def value_words(value: Any) -> str:
    """A convention's value as the audit log writes it (``TRUE``, ``(none)``,
    a choice's value, cutoffs joined by commas).

    >>> value_words(True), value_words(None), value_words(["5", "all"])
    ('TRUE', '(none)', '5, all')
    """
    if value is None or value == "" or value == () or value == []:
        return "(none)"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(getattr(value, "value", value))


def _field_words(f: ConventionField, c: Conventions) -> str:
    return value_words(f.write(f.get(c)))


def guideline_change(value: float, before: Guidelines,
                     after: Guidelines) -> tuple[str, str] | None:
    """Grade ``value``'s guideline's from and to, or None when unchanged."""
    was = before.for_grade(value) or Guideline(value)
    now = after.for_grade(value) or Guideline(value)
    if was == now:
        return None
    label = f"guideline for grade {number_text(value)}"
    return f"{label} = {was.text}", f"{label} = {now.text}"


def field_changes(f: ConventionField, before: Conventions,
                  after: Conventions) -> list[tuple[str, str]]:
    """From and to of field ``f`` where ``after`` changes it: ``<label> =
    <value>`` (a field's whole value: every cutoff, the gain rule with its
    table), one per grade for the guidelines; none when unchanged. The one
    wording of a convention's change, whether made in the window or on a
    workbook's Conventions sheet.

    >>> from core.model.conventions import FIELD
    >>> a = Conventions(cutoffs=(1, None))
    >>> field_changes(FIELD["cutoffs"], a, a.replace(cutoffs=(5, None)))
    [('cutoffs = 1, all', 'cutoffs = 5, all')]
    """
    if f.get(before) == f.get(after):
        return []
    if f.kind == "guidelines":
        grades = sorted({g.value for g in (*before.guidelines.entries,
                                           *after.guidelines.entries)})
        return [c for v in grades
                if (c := guideline_change(v, before.guidelines, after.guidelines))]
    return [(f"{f.label} = {_field_words(f, before)}", f"{f.label} = {_field_words(f, after)}")]


def convention_changes(before: Conventions, after: Conventions) -> list[tuple[str, str]]:
    """From and to of each convention ``after`` changes, in :data:`FIELDS`' order
    (:func:`field_changes` of each).

    >>> from core.model.conventions import TieRule
    >>> a = Conventions()
    >>> convention_changes(a, a.replace(ties=TieRule.PESSIMISTIC, cutoffs=(5, None)))
    [('cutoffs = all', 'cutoffs = 5, all'), ('ties = average', 'ties = pessimistic')]
    """
    return [c for f in FIELDS for c in field_changes(f, before, after)]
