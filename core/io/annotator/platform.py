"""Rows a crowd-work platform marks as not being judgments: control tasks
(test questions with a known answer), work it rejected or found tainted,
preview responses, cancelled annotations, tasks an annotator skipped.

Platforms write these marks in their own ways: Mechanical Turk's
``AssignmentStatus = Rejected``, Appen's ``_golden`` and ``_tainted``
(``true``/``false``), Toloka's ``GOLDEN:relevance`` (filled on control
tasks) and ``ASSIGNMENT:status = REJECTED``, Label Studio's
``was_cancelled``, Qualtrics' ``Status = Survey Preview`` (or
``DistributionChannel = preview``), Prodigy's ``answer = ignore`` (or
``reject`` beside a choice that holds the grade), Argilla's response
status ``discarded`` (the annotator declined the record) or ``draft`` (a
response saved and not submitted, beside ``submitted`` or ``discarded``:
:func:`column_statuses`), Label Studio's task's ``drafts`` (each a row of
its own: :func:`drafts_flag`). They are found
by their values first: a true/false column whose true rows, and only
those, carry another column's answer (grades: the known answer; free
text there answers nothing) marks control tasks; a sparse column
of grades beside the grade column is the control tasks' known answers; a
status column holds ``rejected`` or ``preview``. A header's words
(``golden``, ``tainted``, ``cancelled``) name what a true/false column
marks when the values cannot tell.

Such rows are skipped and counted by what they are, unless the user keeps
that kind (``--keep control,rejected``, the wizard's check boxes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from core.io.annotator.names import drafts_header, name_field
from core.io.annotator.profile import Profile
from core.io.headers import normalize
from core.io.row_kinds import KINDS
from core.model.numbers import counted

__all__ = ["KINDS", "Flag", "column_statuses", "drafts_flag", "find_flags", "flagged_rows",
           "keepable", "kept_in_vain", "marked_text", "status_kind", "status_like"]

#: A header's words that say what its true rows are.
_HINTS: dict[str, frozenset[str]] = {
    "control": frozenset({"golden", "gold", "control", "honeypot", "test_question"}),
    "rejected": frozenset({"tainted", "rejected", "spam", "flagged"}),
    "cancelled": frozenset({"cancelled", "canceled", "was_cancelled"}),
    "preview": frozenset({"preview"}),
}
#: Statuses that mark a row (compared case-insensitively).
_STATUS: dict[str, str] = {
    "rejected": "rejected", "spam": "rejected", "survey preview": "preview",
    "preview": "preview", "survey test": "preview", "test": "preview",
    # Prodigy's answer beside the choice that is the grade: ignore skips the
    # task, reject declines it (where the answer is itself the grade, a
    # binary task, its column is the grade's and marks nothing)
    "ignore": "skipped", "ignored": "skipped", "skip": "skipped", "skipped": "skipped",
    "reject": "skipped",
    # Argilla's response status: the annotator discarded the record (declined
    # it), whether or not the form held a value when they did
    "discarded": "skipped",
}
#: Statuses that mark a row only among a form's response statuses (Argilla's
#: ``draft``, a response saved and not submitted, beside ``submitted`` or
#: ``discarded``, or alone in a response's status: ``relevance.status``,
#: ``relevance.responses.status``): elsewhere ``draft`` is a document's own
#: status (draft / published) and marks nothing.
_RESPONSE_STATUS: dict[str, str] = {"draft": "draft"}
_RESPONSES = frozenset({"submitted", "discarded"})
#: Marks in a grade column that say no grade was given at all (Prodigy's
#: ``answer = ignore`` where the answer is the grade: accept / reject).
_SKIP_MARKS = frozenset({"ignore", "ignored"})
_TRUE = frozenset({"true", "1", "yes", "t", "y"})

#: A flag column: (column, kind, test): ``"true"`` (a true/false column),
#: ``"filled"`` (a column filled on such rows only), ``"status"`` (a column of
#: statuses, each marked row's kind its status's: kind ``"status"``), ``"mark"``
#: (the grade column's own skip marks: ``ignore``).
Flag = tuple[int, str, str]


def status_like(p: Profile) -> bool:
    """A column of a few statuses, one of which marks rows (``Rejected``)."""
    values = {t for t in p.texts if t}
    return 1 <= len(values) <= 8 and p.numeric < 0.5 and bool(column_statuses(values, p.name))


def status_kind(value: str) -> str | None:
    """The kind of row a status marks (``Rejected`` -> rejected), or None."""
    return _STATUS.get(value.strip().casefold())


def column_statuses(values: Iterable[str], header: str = "") -> dict[str, str]:
    """The values of a column of statuses that mark rows, each with the
    kind of row it marks (:func:`status_kind`; ``draft`` only among a
    form's response statuses: beside Argilla's ``submitted`` or
    ``discarded``, or in a column of them alone whose ``header`` is a
    response's status, ``QUESTION.status`` or ``QUESTION.responses.status``,
    as when every response exported is still a draft)."""
    distinct = {v for v in values if v}
    keys = {v.strip().casefold(): v for v in distinct}
    parent, _, last = header.strip().casefold().rpartition(".")
    response = not _RESPONSES.isdisjoint(keys) or (
        bool(parent) and last == "status" and set(keys) <= {*_RESPONSES, *_RESPONSE_STATUS})
    out: dict[str, str] = {}
    for key, v in keys.items():
        kind = _STATUS.get(key) or (_RESPONSE_STATUS.get(key) if response else None)
        if kind is not None:
            out[v] = kind
    return out


def _hint(name: str) -> str | None:
    words = set(normalize(name.replace(":", "_")).split("_")) | {normalize(name)}
    return next((kind for kind, hints in _HINTS.items() if words & hints), None)


def _carries_answer(flag: Profile, other: Profile) -> bool:
    """Whether ``other`` is filled on ``flag``'s true rows and (nearly)
    only there: the known answers of control tasks."""
    true = [t.casefold() in _TRUE for t in flag.texts]
    n_true = sum(true)
    if not n_true or n_true == len(true):
        return False
    filled_true = sum(1 for t, v in zip(true, other.texts, strict=True) if t and v)
    filled_false = sum(1 for t, v in zip(true, other.texts, strict=True) if not t and v)
    return filled_true >= 0.9 * n_true and filled_false <= 0.05 * (len(true) - n_true)


def find_flags(profiles: list[Profile], used: set[int], grade: int | None,
               ) -> tuple[list[Flag], list[tuple[str, str]]]:
    """The flag columns among those not ``used`` by a field, and why each:
    true/false columns (what they mark told by another column filled on
    their true rows only, else by their name), and a sparse column of
    grades named as the known answers (``GOLDEN:relevance``)."""
    flags: list[Flag] = []
    reasons: list[tuple[str, str]] = []
    free = [p for p in profiles if p.col not in used]
    for p in free:
        if p.filled and p.boolean >= 0.9:
            hint = _hint(p.name)
            # the known answer is a grade: free text on the true rows (a
            # comment where an item is in stock) answers nothing
            gold = next((o for o in profiles if o is not p and o.col != grade
                         and o.graded and _carries_answer(p, o)), None)
            kind = hint or ("control" if gold is not None else None)
            if kind is None:
                continue
            why = (f"its true rows carry {gold.shown()}, a known answer" if gold is not None
                   and kind == "control" else "its name")
            flags.append((p.col, kind, "true"))
            reasons.append(("skip", f"{p.shown()}: true marks {KINDS[kind]} ({why})"))
        elif p.filled and status_like(p):
            # a second column of statuses (Qualtrics' DistributionChannel = preview)
            flags.append((p.col, "status", "status"))
            marks = column_statuses(p.texts, p.name)
            reasons.append(("skip", f"{p.shown()}: " + ", ".join(
                f"{m} marks {KINDS[marks[m]]}" for m in sorted(marks))))
        elif grade is not None and p.graded and 0 < p.fill < 0.9 and _hint(p.name) == "control":
            flags.append((p.col, "control", "filled"))
            reasons.append(("skip", f"{p.shown()}: grades on {counted(p.filled, 'row')} only, "
                            f"the known answers of control tasks"))
    gp = next((p for p in profiles if p.col == grade), None)
    skips = sorted({t for t in gp.texts if t.casefold() in _SKIP_MARKS}) if gp else []
    if gp is not None and skips and any(t and t.casefold() not in _SKIP_MARKS
                                        for t in gp.texts):
        flags.append((gp.col, "skipped", "mark"))
        reasons.append(("skip", f"{gp.shown()}: {', '.join(skips)} marks {KINDS['skipped']}"))
    return flags, reasons


def drafts_flag(profiles: Sequence[Profile]) -> tuple[list[Flag], list[tuple[str, str]],
                                                     list[tuple[int, str, str]]]:
    """A record's drafts (Label Studio's task's ``drafts``, a row each:
    :func:`~core.io.annotator.names.drafts_header`) are work saved and not
    submitted, as Argilla's draft responses are: the rows their user's
    column fills (their most filled column where none names a user) are
    drafts, skipped and counted, an item with drafts alone kept with its
    grade unknown (``drafts only, by 1 annotator``); each of their other
    fields (the draft's choice, its times) is left out as a draft's, never
    grades left unused nor who judged (the drafts' users were who judged,
    the import refused). Returns the flag, its reason and the columns left
    out (column, why, "")."""
    cols = [p for p in profiles if drafts_header(p.name) and p.filled]
    if not cols:
        return [], [], []
    flag = next((p for p in cols if name_field(p.name.partition(".")[2]).field == "annotator"),
                None) or max(cols, key=lambda p: p.filled)
    why = (f"{flag.shown()}: filled on each of the records' drafts, a row each: "
           f"{KINDS['draft']} (skipped)")
    out = [(p.col, f"{p.shown()}: a field of the records' drafts (saved, not submitted: no "
            "judgment yet); not imported", "") for p in cols if p is not flag]
    return [(flag.col, "draft", "filled")], [("skip", why)], out


def flagged_rows(texts: Callable[[int], Sequence[str]], n_rows: int, status: int | None,
                 flags: Sequence[Flag], names: Callable[[int], str],
                 header: Sequence[str] = ()) -> dict[int, tuple[str, str]]:
    """Data row -> (kind, why) for every row a status or a flag column marks
    (the first mark of a row is its reason); ``header``: the columns'
    headers (:func:`column_statuses`)."""
    out: dict[int, tuple[str, str]] = {}

    def heading(c: int) -> str:
        return header[c] if c < len(header) and header[c] else ""

    if status is not None:
        cells = texts(status)
        statuses = column_statuses(cells, heading(status))
        for i, v in enumerate(cells):
            kind = statuses.get(v) if v else None
            if kind is not None:
                out[i] = (kind, f"{KINDS[kind]}: {names(status)} is {v!r}")
    for col, kind, test in flags:
        cells = texts(col)
        statuses = column_statuses(cells, heading(col)) if test == "status" else {}
        for i in range(n_rows):
            v = cells[i]
            if i in out or not v:
                continue
            if test == "status":  # the kind is the status's own
                marked = statuses.get(v)
                if marked is not None:
                    out[i] = (marked, f"{KINDS[marked]}: {names(col)} is {v!r}")
            elif test == "mark":
                if v.casefold() in _SKIP_MARKS:
                    out[i] = (kind, f"{KINDS[kind]}: {names(col)} is {v!r}")
            elif v.casefold() in _TRUE if test == "true" else True:
                out[i] = (kind, f"{KINDS[kind]}: {names(col)} is {v!r}")
    return out


def keepable(marked: dict[int, tuple[str, str]],
             grades: Sequence[Callable[[int], str]]) -> set[str]:
    """The kinds of ``marked`` rows (row -> (kind, why)) some of which hold a
    grade in one of the grade columns (``grades``: row -> its cell's text):
    those ``--keep`` (the wizard's Keep boxes) imports. The others' rows hold
    none where the grades are read (Label Studio's drafts, their choice in a
    column of their own; a cancelled annotation, its result empty): kept,
    they were each a candidate of unknown grade under a judge named
    ``draft (record 1 (id 1))``, so the flag is not offered for them."""
    return {kind for i, (kind, _why) in marked.items() if any(g(i) for g in grades)}


def kept_in_vain(kept: dict[int, tuple[str, str]], grades: Sequence[Callable[[int], str]],
                 who: Sequence[str] | None, columns: Sequence[str], *,
                 one_author: bool = False) -> tuple[str, str] | None:
    """Why ``--keep KIND`` is refused, and what to do (None: it is not),
    where none of the kind's ``kept`` rows (row -> (kind, why)) holds a
    grade in the grade column (``grades``, named ``columns``) nor names
    anyone (``who``: each row's annotator cell): Label Studio's drafts,
    their choice a column of their own, unfinished work never read as a
    grade, their user too. Kept, each was a candidate of unknown grade under
    an annotator named ``draft (record 1 (id 1))``, and the import said
    nothing of it. Rows naming their annotator (Prodigy's ``ignore``) are
    kept as asked: that annotator's item of no grade; so are all rows of a
    file of ``one_author`` (a long layout naming no one: its one
    annotator's, as every row of it is), named or not."""
    named = {kind for i, (kind, _) in kept.items()
             if one_author or (who is not None and who[i])}
    bare = sorted({kind for kind, _ in kept.values()} - keepable(kept, grades) - named)
    if not bare:
        return None
    kind = bare[0]
    rows = sum(1 for k, _ in kept.values() if k == kind)
    hold = "rows hold" if rows != 1 else "row holds"
    return (f"--keep {kind}: the {rows} {kind} {hold} no grade in the grade column "
            f"({', '.join(columns)}): nothing to keep (kept, each would be a candidate of "
            "unknown grade judged by no one)",
            f"leave --keep {kind} out" + (
                "; a draft is work saved and not submitted: submit it in the annotation tool "
                "and export again to import its grade" if kind == "draft" else ""))


def marked_text(profiles: Sequence[Profile], found: dict[str, int], flags: Sequence[Flag],
                used: set[int], ignored: dict[int, tuple[str, str]],
                reasons: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Text only on rows that are not judgments (a control task's hint,
    its answer's reason) is no note nor reason of a judgment: the field
    dropped from ``found`` and ``used``, the column said so in
    ``ignored`` (it was 'empty: no row holds a value'). A column empty on
    every row (a comment box no one filled) is dropped too, said empty as
    any empty column is. Returns the reasons."""
    marked = flagged_rows(lambda c: profiles[c].texts, len(profiles[0].texts) if profiles
                          else 0, found.get("status"), flags, lambda c: profiles[c].shown(),
                          [p.name for p in profiles])
    for f in ("note", "reason"):
        col = found.get(f)
        if col is not None and all(i in marked for i, t in enumerate(profiles[col].texts) if t):
            del found[f]
            reasons = [(g, w) for g, w in reasons if g != f]
            used.discard(col)
            kinds = sorted({marked[i][0] for i, t in enumerate(profiles[col].texts) if t})
            if not kinds:  # (was: "text only on rows that are no judgments (: skipped)")
                continue
            ignored[col] = (
                f"{profiles[col].shown()}: text only on rows that are no judgments ("
                + ", ".join(kinds) + f": skipped), no judgment's {f}; not imported", "")
            reasons.append(("ignored", ignored[col][0]))
    return reasons
