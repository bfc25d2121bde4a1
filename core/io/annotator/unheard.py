"""The items of an import no one judged: declined by every annotator,
judged only in work the platform rejected, or drafted alone (their drafts
saved, not submitted, or listed by their ids alone): the rows each is listed
from, at its place and unknown, the report's lines on them, and the reason
its unknown grade carries (:func:`unknown_reasons`). Split from
:mod:`core.io.annotator.rows`, whose rows and candidates they take."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from core.io.annotator.model import cell_text
from core.io.annotator.names import DRAFTS
from core.io.annotator.report import ImportReport
from core.io.annotator.rowset import BoolArray, Candidates, FloatArray, IntArray, Rows
from core.io.annotator.sheet import Sheet
from core.model.grades import unknown_reason

__all__ = ["drafted", "say_unheard", "unheard_rows", "unknown_reasons", "unranked", "unread"]


def drafted(sheet: Sheet, alive: BoolArray, declined: dict[int, str], q_text: Sequence[str],
            s_text: Sequence[str]) -> frozenset[int]:
    """The rows of items no row imported grades whose record lists its
    drafts by their ids alone (Label Studio's ``"drafts": [40, 41]``, the
    export's ``serialization_options.drafts.only_id``: a cell of the
    record's, :data:`~core.io.annotator.names.DRAFTS`): drafts only, by
    people the export does not name (such an item had no reason), the
    ``declined`` rows' too (a cancelled annotation beside the drafts: its
    row is the record's, its drafts cell filled; the item said only
    ``declined by 1 annotator``)."""
    lists = [sheet.texts(c) for c, h in enumerate(sheet.header) if h == DRAFTS]
    if not lists:
        return frozenset()
    grades = [sheet.texts(c) for c in sheet.mapping.grade_columns()]
    judged = np.flatnonzero(alive).tolist()
    graded = {(q_text[i], s_text[i]) for i in judged if any(g[i] for g in grades)}
    return frozenset(i for i in sorted({*judged, *declined}) if any(d[i] for d in lists)
                     and (q_text[i], s_text[i]) not in graded)


def unread(unheard: dict[int, str], rows_in: IntArray,
           ci_in: IntArray) -> tuple[IntArray, IntArray]:
    """The rows read (``rows_in``, their items ``ci_in``) without those
    the items no one judged are listed from (``unheard``,
    :func:`unheard_rows`)."""
    judged = ~np.isin(rows_in, list(unheard))
    return rows_in[judged], ci_in[judged]


def say_unheard(sheet: Sheet, report: ImportReport, rows: Rows,
                unheard: dict[int, str]) -> None:
    """The report says the items no one judged, on the command line's
    output too: those listed from rows not read (``unheard``,
    :func:`unheard_rows`) and those whose drafts are listed by their ids
    alone (:attr:`Rows.drafted`, read from a row of the record's, no
    grade in it), alike: ``1 item with draft responses alone ...: kept as
    unknown, at its place``."""
    items = {(rows.query[i], rows.source[i]) for i in unheard}
    said = dict(unheard)
    for i in sorted(rows.drafted):
        if (rows.query[i], rows.source[i]) not in items:
            items.add((rows.query[i], rows.source[i]))
            said[i] = "draft"
    for note in _unheard_notes(sheet, said, rows.score):
        report.notes.append(note)
        report.warnings.append(note)


def unranked(sheet: Sheet, report: ImportReport, unheard: dict[int, str],
              score: FloatArray) -> None:
    """An item no one judged listed from a row whose score or rank is not a
    number (``n/a``): kept with none, said in one line naming the row, the
    column and the value (it was kept unranked in silence; a judged row's
    rejects its row)."""
    mapping = sheet.mapping
    col = mapping.score if mapping.score is not None else mapping.rank
    if col is None:
        return
    cells = sheet.column(col)
    for i, kind in sorted(unheard.items()):
        text = cell_text(cells[i]).strip()
        if not text or not math.isnan(score[i]):
            continue
        note = (f"{sheet.place(i)}, column "
                f"{sheet.name(col)!r}: {text!r} is not a number; the item "
                f"{_UNHEARD.get(kind, _DECLINED)} is kept with no "
                f"{'score' if mapping.score is not None else 'rank'}: an unranked "
                "candidate, outside the ranked list (give it its number in the sheet to "
                "rank it)")
        report.notes.append(note)
        report.warnings.append(note)


#: What the items no one judged are, by the kind of their first row.
_UNHEARD = {"draft": "with draft responses alone (saved, not submitted: pending)",
            "rejected": "judged only in work the platform rejected"}
_DECLINED = "declined by every annotator"


def _unheard_notes(sheet: Sheet, unheard: dict[int, str], score: FloatArray) -> list[str]:
    """The report's lines on the items no one judged, declined ones and
    those with drafts alone: how many, kept as unknown, at their places or
    unranked (a rank or score column whose cell in their row holds no
    number: not ranked, as a judged row without one), and their rows (the
    first few)."""
    mapping = sheet.mapping
    column = mapping.score if mapping.score is not None else mapping.rank
    by_words: dict[tuple[str, bool], list[int]] = {}
    for i, kind in sorted(unheard.items()):
        placed = column is None or bool(np.isfinite(score[i]))
        by_words.setdefault((_UNHEARD.get(kind, _DECLINED), placed), []).append(
            sheet.row_number(i))
    notes = []
    for (words, placed), rows in sorted(by_words.items(),
                                        key=lambda w: (w[0][0] != _DECLINED, not w[0][1])):
        n, where = len(rows), sheet.table.places(sorted(rows), most=5)
        its = ("their places", "their gains") if n > 1 else ("its place", "its gain")
        kept = f"at {its[0]} ({where})" if placed or column is None else (
            f"unranked ({where}: {sheet.name(column)} holds no number)")
        notes.append(f"{n} item{'s' if n > 1 else ''} {words}: kept as unknown, {kept}; the "
                     f"unknown-grade convention decides {its[1]}")
    return notes


def unheard_rows(rows: Rows) -> dict[int, str]:
    """The rows declined (:attr:`Rows.declined`) whose item
    no row imported judges (a row naming no one, its grade blank, judges
    none: :attr:`Rows.no_one`), the first of each item's (row -> kind): the
    item is listed from it, at its place, its grade unknown."""
    if not rows.declined:
        return {}
    alive = np.flatnonzero(rows.alive).tolist()
    heard = {(rows.query[i], rows.source[i]) for i in alive if i not in rows.no_one}
    out: dict[int, str] = {}
    for i, kind in rows.declined.items():
        key = (rows.query[i], rows.source[i])
        if key[0] and key[1] and key not in heard:
            heard.add(key)
            out[i] = kind
    return out


#: The kind of reason (:data:`core.model.grades.UNKNOWN_REASONS`) an item
#: no one judged carries, by the kind of its rows (:data:`KEPT_UNKNOWN`).
_REASON_OF = {"skipped": "declined", "cancelled": "declined", "rejected": "rejected",
              "draft": "draft"}


def unknown_reasons(rows: Rows, cands: Candidates,
                    who: Sequence[str | None] | None) -> dict[int, str]:
    """Candidate -> why its grade is unknown, for each item no one judged
    (:func:`unheard_rows`): how many annotators declined it, judged it only in
    rejected work or saved a draft alone (:func:`~core.model.grades.unknown_reason`),
    each annotator once (``who``: each row's, :func:`~core.io.annotator.rows.declined_names`;
    without, or None, each row one). The
    report says these items too; the document keeps each one's reason
    beside its unknown grade, for the grid, the workbook and the log."""
    listed = unheard_rows(rows)
    if not listed and not rows.drafted:
        return {}
    item = {(rows.query[i], rows.source[i]): ci
            for ci, i in enumerate(cands.first_rows.tolist()) if i in listed}
    seen: dict[int, dict[str, set[object]]] = {}
    for i, kind in rows.declined.items():
        ci = item.get((rows.query[i], rows.source[i]))
        if ci is not None:
            name = who[i] if who is not None else None
            seen.setdefault(ci, {}).setdefault(_REASON_OF[kind], set()).add(
                i if name is None else name)
    counts: dict[int, dict[str, int | None]] = {
        ci: {k: len(v) for k, v in kinds.items()} for ci, kinds in seen.items()}
    by_item = {key: ci for ci, key in enumerate(zip(cands.query, cands.source, strict=True))}
    for i in rows.drafted:  # drafts by their ids alone: who drafted unknown
        ci = by_item.get((rows.query[i], rows.source[i]))
        if ci is not None and "draft" not in counts.setdefault(ci, {}):
            counts[ci]["draft"] = None
    return {ci: unknown_reason(kinds) for ci, kinds in counts.items()}
