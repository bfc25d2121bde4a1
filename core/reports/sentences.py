"""Sentences that state a result with every convention behind it.

One reproducible sentence per query (:func:`query_sentence`) and per mean
(:func:`summary_sentence`); the phrase naming what a mean left out is
:func:`core.analysis.aggregate.excluded_phrase` (re-exported here), so every
report spells it the same way.
"""

from __future__ import annotations

import math

from core.analysis.aggregate import CutoffSummary, excluded_phrase
from core.analysis.bounds import UNBOUNDED_TEXT, Bounds
from core.engine.evaluation import Evaluation, Status
from core.model.audit import OUTSIDE_ORIGIN, AuditEntry
from core.model.conventions import FIELDS, Conventions, format_cutoff
from core.model.numbers import DECIMALS, agreed, apart_digits, counted, fixed_text, one_value

__all__ = ["NO_CHANGES", "WHATEVER", "audit_sentence", "excluded_phrase", "interval_words",
           "mean_sentence", "query_sentence", "summary_sentence"]

#: Said of an interval that is one value (the summary's, a printout's).
WHATEVER = "whatever the unknown grades are"


#: The rows of :meth:`Conventions.describe` a result sentence states: the
#: arithmetic (the fields a preset sets), in :data:`FIELDS` order.
_ARITHMETIC = tuple(dict.fromkeys(f.row for f in FIELDS if f.preset))


def _clause(c: Conventions, k: int | None, decimals: int | None = None) -> str:
    """The cutoff and every convention of the arithmetic, each with its formula
    (and its row's name, unless the label starts from it: "ties: ...",
    but "linear gain"); a gain table's fractions at ``decimals`` digits (in
    full for None)."""
    cut = "the whole list" if k is None else f"k = {k}"
    said = [(label if row.split()[0] in label else f"{row}: {label}") + f" ({formula})"
            for row, label, formula in c.describe(decimals) if row in _ARITHMETIC]
    return f"under {', '.join(said)}, {cut} applied to both the actual and the ideal list"


def _version(ev: Evaluation) -> str:
    v = ev.doc.judgment_version
    return f"judgment version {v!r}" if v else "judgment version not declared"


def query_sentence(ev: Evaluation, q: int, j: int = 0, *, decimals: int = DECIMALS,
                   conventions_decimals: int | None = None) -> str:
    """One reproducible sentence for query ``q`` at cutoff index ``j``, its
    results at ``decimals`` digits (the editor's decimals setting); the
    conventions in full (reproducible), or a gain table's fractions at
    ``conventions_decimals`` digits (the sentence a panel shows)."""
    k = ev.cutoffs[j]
    doc = ev.doc
    name = f"ranked list {doc.name!r}" if doc.name else "the ranked list"
    head = (f"For query {doc.query_ids[q]!r}, {name} "
            f"({counted(int(ev.n_ranked[q]), 'ranked candidate')})")
    inv = f"{counted(int(ev.n_inventory[q]), 'candidate')} in the ideal inventory"
    st = ev.status(q, j)
    at = f"NDCG@{format_cutoff(k)}"
    if st is Status.OK:
        body = (
            f"reached {at} = {fixed_text(ev.ndcg[q, j], decimals)} (DCG "
            f"{fixed_text(ev.dcg[q, j], decimals)} / ideal DCG "
            f"{fixed_text(ev.idcg[q, j], decimals)})"
        )
    elif st is not Status.UNRESOLVED:
        body = f"has no {at}: {st.reason}"
    else:
        n_open = int(ev.n_open[q])
        body = (f"has no {at} yet: {n_open} of {counted(int(ev.n_inventory[q]), 'grade')} "
                f"{agreed(n_open, 'is')} not known")
    clause = _clause(ev.conventions, k, conventions_decimals)
    return f"{head} {body} {clause}; {inv}; {_version(ev)}."


def summary_sentence(ev: Evaluation, s: CutoffSummary, *, decimals: int = DECIMALS) -> str:
    """One sentence for a mean, with its population and conventions."""
    return mean_sentence(s, ev.conventions, ev.doc.n_queries_named, ev.doc.judgment_version,
                         decimals=decimals)


def mean_sentence(s: CutoffSummary, conventions: Conventions, n_queries: int,
                  judgment_version: str = "", *, decimals: int = DECIMALS) -> str:
    """:func:`summary_sentence` from the mean's own parts (a cluster's
    per-query table has no evaluation)."""
    version = (f"judgment version {judgment_version!r}" if judgment_version
               else "judgment version not declared")
    return (f"{mean_head(s, n_queries, decimals=decimals)} {_clause(conventions, s.k)}; "
            f"{version}.")


def mean_head(s: CutoffSummary, n_queries: int, *, decimals: int = DECIMALS) -> str:
    """A mean's sentence without its conventions (said apart, as a
    printout's table says them): its weighting, population and value."""
    value = (fixed_text(s.mean, decimals) if s.mean is not None
             else "not defined (no query included)")
    return (f"The {s.weighting.label} of NDCG@{format_cutoff(s.k)} over {s.included} of "
            f"{counted(n_queries)} is {value} ({excluded_phrase(s.excluded)})")


#: What the audit sentence says of an empty log.
NO_CHANGES = "No grade, note or convention has been changed since the judgments were read."


def audit_sentence(log: list[AuditEntry]) -> str:
    """What the audit log holds, in one sentence: how many changes, of
    grades, of notes and of which conventions, how many made outside the app.

    >>> e = AuditEntry("ana", "t", "q1", "d1", "unknown", "2")
    >>> c = AuditEntry.of_convention("ana", "t", "ties = average", "ties = pessimistic")
    >>> audit_sentence([e, c, c])
    '3 changes recorded: 1 of a grade, 2 of conventions (ties): see the Audit sheet.'
    >>> audit_sentence([]) == NO_CHANGES
    True
    """
    if not log:
        return NO_CHANGES
    named = [e.before.split(" = ", 1)[0] for e in log if e.convention]
    notes = sum(1 for e in log if e.about_note)
    texts = sum(1 for e in log if e.about_text)
    grades = len(log) - len(named) - notes - texts
    parts = [f"{grades} of {'a grade' if grades == 1 else 'grades'}"] if grades else []
    if notes:
        parts.append(f"{notes} of {'a note' if notes == 1 else 'notes'}")
    if texts:
        parts.append("1 of a query's text" if texts == 1 else f"{texts} of queries' texts")
    if named:
        parts.append(f"{len(named)} of {'a convention' if len(named) == 1 else 'conventions'}"
                     f" ({', '.join(dict.fromkeys(named))})")
    outside = sum(1 for e in log if e.origin == OUTSIDE_ORIGIN)
    where = f"; {outside} of them made outside the app" if outside else ""
    return (f"{counted(len(log), 'change')} recorded: {', '.join(parts)}"
            f"{where}: see the Audit sheet.")


def _bound(x: float, d: int) -> str:
    """An interval's bound: a side with no finite bound named, never a number."""
    return UNBOUNDED_TEXT if math.isinf(x) else fixed_text(x, d)


def interval_words(b: Bounds, d: int) -> str:
    """What one cutoff's interval says where the unknown grades can change
    it, as the summary and a printout say it: its two bounds at the digits
    that write them apart (:func:`~core.model.numbers.apart_digits`), or
    where both are the same number, that number ("is 1.0000 whatever the
    unknown grades are, or undefined": it read "between 1.0000 and 1.0000").

    >>> interval_words(Bounds(None, 0.5, 0.75, exact=True, open=1), 4)
    'between 0.5000 and 0.7500'
    >>> interval_words(Bounds(None, 1.0, 1.0, exact=True, open=1, may_be_undefined=True), 4)
    'is 1.0000 whatever the unknown grades are, or undefined'
    """
    if b.low is None or b.high is None:
        return f"undefined {WHATEVER}"
    if one_value(b.low, b.high):
        span = f"is {_bound(b.low, d)} {WHATEVER}"
    else:
        d = apart_digits(b.low, b.high, d)
        span = f"between {_bound(b.low, d)} and {_bound(b.high, d)}"
        if not b.exact:
            span += (" (outer bounds; unbounded: no finite bound on that side, a gain "
                     "may be negative and the ideal DCG just above 0)" if b.unbounded
                     else " (outer bounds)")
    return span + (", or undefined" if b.may_be_undefined else "")
