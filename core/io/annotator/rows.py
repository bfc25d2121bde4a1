"""The rows of an import: which are blank or refused, their scores, and the
candidates they make (the first row of each query and source)."""

from __future__ import annotations

import math
from collections.abc import Container, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import ne
from typing import Any

import numpy as np

from core.errors import InputError
from core.io.annotator.cells import Reject, filled, float_cells, number, objects
from core.io.annotator.model import cell_text
from core.io.annotator.platform import flagged_rows, keepable, kept_in_vain
from core.io.annotator.report import (
    CONFLICT,
    DUPLICATE,
    FORMULA,
    ROW_REJECTED,
    ImportReport,
    Issue,
)
from core.io.annotator.rowset import BoolArray, Candidates, FloatArray, IntArray, Rows
from core.io.annotator.scales import label_key
from core.io.annotator.sheet import Sheet
from core.io.annotator.unheard import drafted, say_unheard, unheard_rows, unranked, unread

__all__ = ["NO_NAME", "SplitRanking", "annotator_names", "declined_names",
           "find_candidates", "notes", "read_rows"]

#: The kinds of rows a platform marks (:data:`~core.io.annotator.platform.KINDS`)
#: that are an item asked and not answered: declined (Prodigy's ignore,
#: Argilla's discarded, Label Studio's cancelled annotation), not answered
#: yet (Argilla's draft), or answered by work the platform rejected
#: (Mechanical Turk's ``Rejected``). Skipped as judgments, their item is no
#: less a candidate: one every annotator declined stays at its place with an
#: unknown grade (dropped, every candidate ranked below it moved up a place
#: and the discounts changed). Control tasks (test questions) and previews
#: are no items of the list: not kept.
KEPT_UNKNOWN = frozenset({"skipped", "cancelled", "draft", "rejected"})


#: First words of a row that sums up the rows above it rather than judging.
TOTAL_WORDS = frozenset({"total", "totals", "grand total", "sum", "subtotal", "average",
                         "mean", "count", "overall", "avg"})


def _blank(raw: list[Any]) -> bool:
    return all(c is None or (isinstance(c, str) and not c.strip()) for c in raw)


def summary_row(raw: Sequence[Any], source: int | None, width: int = 0,
                queries: Container[str] | None = None) -> str:
    """The first words of a row that sums up the rows above it (``Average``,
    ``Total``; a pivot table's subtotal of a query, ``QUERY Total``, where
    QUERY is one of ``queries`` when they are known: a query of its own,
    ``calorie total``, is none) and so names no source: its ``source``
    cell is blank, or, while the source column is not known yet (``None``:
    reading the columns), any of its ``width`` cells; "" for any other row."""
    first = next((cell_text(c).strip() for c in raw if cell_text(c).strip()), "")
    key = label_key(first)
    of, _, last = first.rpartition(" ")
    if key not in TOTAL_WORDS and not (label_key(last) in ("total", "subtotal") and (
            queries is None or of.strip() in queries)):
        return ""
    if source is None:
        blank = len(raw) < width or not all(cell_text(c).strip() for c in raw)
    else:
        blank = source >= len(raw) or not cell_text(raw[source]).strip()
    return first if blank else ""


def _no_judgment(sheet: Sheet, raw: list[Any], source_empty: bool,
                 queries: Container[str]) -> str | None:
    """Why a row that is not blank holds no judgment (None: it does): a
    total row (a subtotal of one of the sheet's ``queries``), or a row
    without a source id and without grades."""
    if not source_empty:
        return None
    if word := summary_row(raw, sheet.mapping.source_id, queries=queries):
        return f"a summary row ({word!r}), not a judgment"
    first = next((cell_text(c).strip() for c in raw if cell_text(c).strip()), "")
    grade_cells = [c for c, _ in sheet.mapping.sources()]
    if all(c >= len(raw) or not cell_text(raw[c]).strip() for c in grade_cells):
        return f"no source id and no grade ({first!r})"
    return None


#: The digits a spreadsheet keeps of a number (Excel's, Google Sheets'):
#: an id of more stored as a number has lost its last ones.
_DIGITS_KEPT = 15


def _exact_ids(sheet: Sheet, c: int, distinct: Sequence[str] | set[str] | dict[str, None],
               ) -> None:
    """Refuse a query or source id column holding a number of 16 digits or
    more (a tweet's id in a CSV opened in Excel and saved as a workbook:
    ``1.73456789012346e+18``): a spreadsheet keeps 15 digits of a number,
    so such an id has lost its last ones, and two ids may have become one.
    A column of text only (``Sheet.textual``) is exact, never looked at."""
    if c in sheet.textual or not any(
            len(t) > _DIGITS_KEPT and (t.isdigit() or "e+" in t) for t in distinct):
        return
    for i, v in enumerate(sheet.column(c)):
        if type(v) in (int, float) and abs(v) >= 10 ** _DIGITS_KEPT:
            raise sheet.fail(
                f"the id {cell_text(v)} is a number of more than {_DIGITS_KEPT} digits: a "
                f"spreadsheet keeps {_DIGITS_KEPT} digits of a number, so ids stored as "
                "numbers this long have lost their last digits (two of them may now be one)",
                line=sheet.row_number(i), column=sheet.name(c),
                hint="store the column as text: import the file the "
                "sheet was made from (a CSV), or format the column as Text before the ids "
                "are pasted in")


def read_rows(sheet: Sheet, report: ImportReport) -> Rows:
    """Blank rows, rows without a judgment and rows the platform marks as
    none, formulas, empty query or source cells, bad scores."""
    mapping = sheet.mapping
    assert mapping.query is not None
    assert mapping.source_id is not None
    q_text = sheet.texts(mapping.query)
    s_text = sheet.texts(mapping.source_id)
    # Distinct queries (first seen first) and sources, each found in one pass
    # and used again below (empty cells, candidates, the document's codes).
    q_first = dict.fromkeys(q_text)
    s_set = set(s_text)
    _exact_ids(sheet, mapping.query, q_first)
    _exact_ids(sheet, mapping.source_id, s_set)
    empty = (np.flatnonzero((objects(q_text) == "") | (objects(s_text) == "")).tolist()
             if "" in q_first or "" in s_set else [])
    skip = np.zeros(sheet.n_rows, dtype=bool)
    for i in empty:
        raw = sheet.data[i]
        if not filled(raw, mapping.query, mapping.source_id) and _blank(raw):
            skip[i] = True
            report.blank_rows += 1
            continue
        why = _no_judgment(sheet, raw, not s_text[i], q_first)
        if why is not None:
            skip[i] = True
            report.skipped_rows.append((sheet.row_number(i), why))
    declined = _not_judgments(sheet, skip, report)
    report.skipped_rows.sort()
    report.rows_read = sheet.n_rows - int(skip.sum())
    alive = ~skip
    bad_cells = _formulas(sheet, skip, alive)
    for i in empty:
        if alive[i]:
            which = "query" if not q_text[i] else "source_id"
            head = _block_head(q_text, skip, i) if which == "query" else None
            where = "" if head is None else (
                f" (written on {sheet.table.place(sheet.row_number(head), lines=True)} only, "
                "at its block's head, as a pivot table's compact layout writes it: repeat it "
                "on each row, in Excel with Repeat All Item Labels)")
            sheet.found.append(((i, 1, 0, 0), Issue(
                ROW_REJECTED, sheet.row_number(i), sheet.name(getattr(mapping, which)),
                f"the {which.replace('_', ' ')} is empty{where}; row rejected")))
            alive[i] = False
    score = _scores(sheet, alive, declined)
    return Rows(q_text, s_text, q_first, s_set, alive, bad_cells, score, ~skip, declined,
                _no_one(sheet, declined), drafted(sheet, alive, declined, q_text, s_text))


def _no_one(sheet: Sheet, declined: dict[int, str]) -> frozenset[int]:
    """Where rows are declined and a column names who judged, the rows
    naming no one whose grade is blank (Label Studio's rows of a task's
    model predictions): no one's judgment, so an item every annotator
    declined is no one's judged item for them (:func:`~core.io.annotator.unheard.unheard_rows`)."""
    mapping = sheet.mapping
    if not declined or mapping.annotator is None or mapping.grade is None:
        return frozenset()
    who, grade = sheet.texts(mapping.annotator), sheet.texts(mapping.grade)
    return frozenset(i for i, (w, g) in enumerate(zip(who, grade, strict=True))
                     if not w and not g)


def _block_head(q_text: Sequence[str], skip: BoolArray, i: int) -> int | None:
    """The row naming the query of row ``i``'s block, when ``i``'s query
    is empty and the rows above it up to one naming a query are judgments
    with an empty query too (no blank nor skipped row between), two rows
    or more: a pivot table writes a query once, on its block's first row
    (one row alone left empty reads as a slip). The query is not filled
    down (a row left blank by mistake would take the query above it); the
    refusal says where it is written."""
    j = i - 1
    while j >= 0 and not q_text[j] and not skip[j]:
        j -= 1
    end = i + 1
    while end < len(q_text) and not q_text[end] and not skip[end]:
        end += 1
    return j if j >= 0 and q_text[j] and not skip[j] and end - j > 2 else None


def _not_judgments(sheet: Sheet, skip: BoolArray, report: ImportReport) -> dict[int, str]:
    """Skip the rows the platform marks as not judgments (control tasks,
    rejected or tainted work, previews, cancelled annotations), counted by
    kind, unless the mapping keeps that kind. Returns those of them that
    are an item declined, a draft or rejected work (row -> kind,
    :data:`KEPT_UNKNOWN`)."""
    mapping = sheet.mapping
    declined: dict[int, str] = {}
    if mapping.status is None and not mapping.flags:
        return declined
    marked = flagged_rows(sheet.texts, sheet.n_rows, mapping.status, mapping.flags,
                          sheet.name, sheet.header)
    skipped = {i: m for i, m in marked.items() if not skip[i] and m[0] not in mapping.keep}
    grades = [sheet.texts(c) for c in mapping.grade_columns()]
    report.gradeless |= {k for k, _ in skipped.values()} - keepable(
        skipped, [g.__getitem__ for g in grades])
    refused = kept_in_vain({i: m for i, m in marked.items() if not skip[i] and m[0] in
                            mapping.keep}, [g.__getitem__ for g in grades], None if
                           mapping.annotator is None else sheet.texts(mapping.annotator),
                           [sheet.name(c) for c in mapping.grade_columns()],
                           one_author=mapping.one_annotator())
    if refused:
        raise sheet.fail(refused[0], hint=refused[1])
    for i in sorted(marked):
        kind, why = marked[i]
        if skip[i] or kind in mapping.keep:
            continue
        skip[i] = True
        report.skipped_rows.append((sheet.row_number(i), why))
        report.excluded[kind] = report.excluded.get(kind, 0) + 1
        if kind in KEPT_UNKNOWN:
            declined[i] = kind
    return declined


def _formulas(sheet: Sheet, blank: BoolArray, alive: BoolArray) -> dict[int, set[int]]:
    """Report every formula cell and every error value (#DIV/0!, #N/A: read
    as empty, it would pass for a blank) of a data row; one in a key cell
    (query, source, score, rank, annotator) rejects its row. Returns the
    refused cells (data row -> columns)."""
    mapping = sheet.mapping
    key_cols = {mapping.query, mapping.source_id, mapping.score, mapping.rank,
                mapping.annotator}
    formula_at: dict[int, list[tuple[int, str]]] = {}
    for r, c, text in sorted([*sheet.table.formulas, *sheet.table.errors]):
        formula_at.setdefault(r, []).append((c, text))
    bad_cells: dict[int, set[int]] = {}
    for r, cells in formula_at.items():
        i = r - sheet.start
        if not 0 <= i < sheet.n_rows or blank[i]:
            continue
        hits = [c in key_cols for c, _ in cells]
        for seq, ((c, text), hit_key) in enumerate(zip(cells, hits, strict=True)):
            sheet.found.append(((i, 0, 0, seq), Issue(
                FORMULA, r + 1, sheet.name(c),
                f"{sheet.table.cell_ref(r, c)} holds "
                + (f"the formula {text!r}; formulas are never evaluated" if text.startswith("=")
                   else f"the error value {text!r}, not data")
                + ("; row rejected" if hit_key else "; cell not imported")
                + ("; paste the cells as values in the spreadsheet to import them"
                   if text.startswith("=") else ""),
                text)))
            bad_cells.setdefault(i, set()).add(c)
        if any(hits):
            alive[i] = False
    return bad_cells


def _scores(sheet: Sheet, alive: BoolArray, declined: dict[int, str]) -> FloatArray:
    """Each data row's score: the score column, else minus the rank, else
    (the row order declared a ranking) minus the row number, else none (NaN:
    judgments are not a ranking). A score that is not a number rejects its
    row; a ``declined`` row's (skipped: its item may be listed from it) is
    read as its item's, none where it is not a number."""
    mapping = sheet.mapping
    score_col = mapping.score if mapping.score is not None else mapping.rank
    if score_col is None and not mapping.rows_ranked:
        return np.full(sheet.n_rows, np.nan)
    if score_col is None:
        return -np.arange(sheet.start + 1, sheet.start + 1 + sheet.n_rows, dtype=np.float64)
    cells_s = sheet.column(score_col)
    score = float_cells(cells_s)
    read = alive
    if declined:
        read = alive.copy()
        read[list(declined)] = True
    for i in np.flatnonzero(~np.isfinite(score) & read).tolist():
        cell = cells_s[i]
        x = math.nan
        if cell_text(cell).strip():
            try:
                x = number(cell)
            except Reject as exc:
                if not alive[i]:
                    continue
                sheet.found.append(((i, 1, 0, 0), Issue(
                    ROW_REJECTED, sheet.row_number(i), sheet.name(score_col),
                    f"{exc}; row rejected", cell_text(cell))))
                alive[i] = False
                continue
        score[i] = x
    return -score if mapping.score is None else score


def find_candidates(sheet: Sheet, rows: Rows, report: ImportReport) -> Candidates:
    """The first row of each (query, source) pair is its candidate; repeats
    are reported (with one grade column and no annotator) or checked for a
    different score."""
    mapping = sheet.mapping
    q_text, s_text = rows.query, rows.source
    unheard = unheard_rows(rows)
    listed = rows.alive
    if unheard:
        listed = rows.alive.copy()
        listed[list(unheard)] = True
    alive_idx = np.flatnonzero(listed)
    every_row = len(alive_idx) == sheet.n_rows
    q_alive = q_text if every_row else [q_text[i] for i in alive_idx.tolist()]
    s_alive = s_text if every_row else [s_text[i] for i in alive_idx.tolist()]
    n = len(s_alive)
    if len(rows.sources if every_row else set(s_alive)) == n or len(set(zip(
            q_alive, s_alive, strict=True))) == n:
        row_ci = np.arange(n, dtype=np.int64)  # the usual case: each row its own candidate
    else:
        index: dict[tuple[str, str], int] = {}
        row_ci = np.array([index.setdefault(k, len(index)) for k in zip(
            q_alive, s_alive, strict=True)], dtype=np.int64)
        n = len(index)
    is_first = np.ones(len(row_ci), dtype=bool)
    if len(row_ci) > 1:
        is_first[1:] = row_ci[1:] > np.maximum.accumulate(row_ci)[:-1]
    first_rows = alive_idx[is_first]
    c_score = rows.score[first_rows]
    if not is_first.all():  # an item's score is the first number its rows give
        first_k = _first_numbers(rows.score[alive_idx], row_ci, n)
        c_score = np.where(first_k >= 0, rows.score[alive_idx[np.maximum(first_k, 0)]], np.nan)
        _report_repeats(sheet, rows, alive_idx, row_ci, is_first, (q_alive, s_alive), first_k)
    if mapping.one_annotator():
        rows_in, ci_in = first_rows, row_ci[is_first]
    else:
        rows_in, ci_in = alive_idx, row_ci
    if unheard:  # listed, no row of theirs read
        rows_in, ci_in = unread(unheard, rows_in, ci_in)
        unranked(sheet, report, unheard, rows.score)
    say_unheard(sheet, report, rows, unheard)
    report.rows_imported = len(rows_in)
    every_first = len(first_rows) == sheet.n_rows
    c_query = q_text if every_first else [q_text[i] for i in first_rows.tolist()]
    c_source = s_text if every_first else [s_text[i] for i in first_rows.tolist()]
    if mapping.version is not None:
        version_text = sheet.texts(mapping.version)
        c_version = [version_text[i] for i in first_rows.tolist()]
    else:
        c_version = [""] * n
    return Candidates(n, rows_in, ci_in, first_rows, c_score, c_query, c_source, c_version,
                      every_first)


def _report_repeats(sheet: Sheet, rows: Rows, alive_idx: IntArray, row_ci: IntArray,
                    is_first: BoolArray, names: tuple[list[str], list[str]],
                    first_k: IntArray) -> None:
    """A repeated (query, source) row: a duplicate with one grade column and
    no annotator (not read), else one more judgment of the candidate. Its
    score or rank, a number differing from the first number the item's rows
    give (``first_k``: :func:`_first_numbers`), stops the import
    (:func:`_split_ranking`); a blank one beside that number is reported as
    a conflict, the number kept (the item's score or rank, whichever row
    gave it)."""
    mapping = sheet.mapping
    c_first_row = alive_idx[is_first] + sheet.start + 1
    ranked = mapping.score if mapping.score is not None else mapping.rank
    q_alive, s_alive = names
    if mapping.one_annotator():
        for k in np.flatnonzero(~is_first).tolist():
            i, ci = int(alive_idx[k]), int(row_ci[k])
            sheet.found.append(((i, 2, 0, 0), Issue(
                DUPLICATE, sheet.row_number(i), sheet.name(mapping.source_id or 0),
                f"query {q_alive[k]!r} lists {s_alive[k]!r} again (first on "
                f"{sheet.table.place(int(c_first_row[ci]))}); the first row is kept")))
    if ranked is None:
        return
    score = rows.score[alive_idx]
    _stop_split(sheet, ranked, score, row_ci, first_k, names, alive_idx)
    if mapping.one_annotator():
        return
    field, sign = ("score", 1.0) if mapping.score is not None else ("rank", -1.0)
    given = first_k[row_ci]
    for k in np.flatnonzero(np.isnan(score) & (given >= 0)).tolist():
        i, j = int(alive_idx[k]), int(alive_idx[given[k]])  # a blank beside the item's number
        sheet.found.append(((i, 2, 0, 0), Issue(
            CONFLICT, sheet.row_number(i), sheet.name(ranked),
            f"no {field} here, where {sheet.place(j)} gives the same candidate "
            f"{cell_text(sign * float(rows.score[j]))}; that {field} is kept")))


def _first_numbers(score: FloatArray, row_ci: IntArray, n: int) -> IntArray:
    """For each of the ``n`` items, the first of its rows (``row_ci``: each
    row's item) whose ``score`` is a number; -1 where none is."""
    given = np.flatnonzero(~np.isnan(score))
    items, at = np.unique(row_ci[given], return_index=True)
    first_k = np.full(n, -1, dtype=np.int64)
    first_k[items] = given[at]
    return first_k


def _stop_split(sheet: Sheet, ranked: int, score: FloatArray, row_ci: IntArray,
                first_k: IntArray, names: tuple[list[str], list[str]],
                alive_idx: IntArray) -> None:
    """Stop at the first row whose score (or rank) is a number other than
    the first number its item's rows give (blank rows apart: an item whose
    first row is blank and whose later rows give 0.5 and 1 disagrees too)."""
    given = np.flatnonzero(~np.isnan(score))
    split = given[score[given] != score[first_k[row_ci[given]]]]
    if len(split):
        k = int(split[0])
        j = int(first_k[row_ci[k]])
        i = int(alive_idx[k])
        raise _split_ranking(sheet, ranked, (names[0][k], names[1][k]),
                             int(alive_idx[j]) + sheet.start + 1, i,
                             (float(score[j]), float(score[k])))


@dataclass(eq=False)
class SplitRanking(InputError):
    """A score or rank column giving one item's rows two values
    (:func:`_split_ranking`): its ``field`` (``score``, ``rank``), so that
    the wizard says its own way out where the command line names a flag."""

    field: str = ""


def _split_ranking(sheet: Sheet, col: int, item: tuple[str, str], first_row: int, i: int,
                   values: tuple[float, float]) -> SplitRanking:
    """One item scored (or ranked) twice, otherwise: a ranking scores each
    item once, so a column disagreeing with itself is not one ranking and
    neither value is picked for the user. One line naming the item, both
    rows and values, and the flag that leaves the column out."""
    field = "score" if col == sheet.mapping.score else "rank"
    first, then = (v if field == "score" else -v for v in values)
    return SplitRanking(
        f"the {field} column {sheet.name(col)!r} gives query {item[0]!r}, source {item[1]!r} "
        f"the {field} {cell_text(first)} on {sheet.table.place(first_row)} and "
        f"{cell_text(then)} on {sheet.place(i)}: a ranking {field}s each item once, so this "
        "column is not one ranking", file=sheet.file, sheet=sheet.table.sheet,
        line=sheet.row_number(i),
        column=sheet.name(col), hint=f"pass --map {field}=none to import the judgments "
        f"without it, or fix the sheet so each item's rows give one {field}", field=field)


#: Who judged a row whose annotator cell is blank.
NO_NAME = "(no name)"


def annotator_names(sheet: Sheet, report: ImportReport | None = None) -> list[str] | None:
    """Each data row's annotator (long layout with an annotator column). A
    row the platform marks as no judgment, kept all the same (``--keep
    preview``), that names no one there (a Qualtrics preview has no
    ``PROLIFIC_PID``) is named by what it is and its row (``preview (row
    4)``: each its own, two previews never one person), the ``report``
    saying so; it was ``(no name)``, all such rows one annotator."""
    column = sheet.mapping.annotator
    if column is None:
        return None
    names = [w or NO_NAME for w in sheet.texts(column)]
    if NO_NAME not in names or not sheet.mapping.keep:
        return names
    marked = flagged_rows(sheet.texts, sheet.n_rows, sheet.mapping.status, sheet.mapping.flags,
                          sheet.name, sheet.header)
    said: dict[str, str] = {}
    for i, (kind, why) in sorted(marked.items()):
        if names[i] == NO_NAME and kind in sheet.mapping.keep:
            names[i] = f"{kind} ({sheet.place(i)})"
            said.setdefault(names[i], why)
    if said and report is not None:
        report.notes.append(
            f"{len(said)} row{'s' if len(said) > 1 else ''} kept (--keep "
            f"{','.join(sorted(sheet.mapping.keep))}) name{'' if len(said) > 1 else 's'} no "
            f"one in {sheet.name(column)}, each named by what it is and its row: "
            + "; ".join(f"{n!r}: {why}" for n, why in said.items()))
    return names


def declined_names(sheet: Sheet, who_all: list[str] | None) -> list[str | None] | None:
    """Each row's annotator (``who_all``), a draft's where the annotator
    column names no one on its row: the user its flag column fills (Label
    Studio's ``drafts.user``, a row of its own beside the annotations': two
    users' drafts of one task were one annotator's, 'drafts only, by 1
    annotator'); None for a row naming no one at all (counted as one)."""
    users = [c for c, kind, test in sheet.mapping.flags if kind == "draft" and test == "filled"]
    if not users:
        return list(who_all) if who_all is not None else None
    names: list[str | None] = list(who_all) if who_all is not None else [None] * sheet.n_rows
    for col in users:
        for i, text in enumerate(sheet.texts(col)):
            if text and names[i] in (None, NO_NAME):
                names[i] = text
    return names


def notes(sheet: Sheet, cands: Candidates, who_all: list[str] | None) -> dict[int, str]:
    """Candidate -> its notes (the few that have one), each prefixed with its
    annotator's name when there is one."""
    c_note: dict[int, str] = {}
    if sheet.mapping.note is None:
        return c_note
    rows_in, ci_in = cands.rows, cands.of_row
    note_cells = sheet.column(sheet.mapping.note)
    noted = np.flatnonzero(
        np.fromiter(map(ne, note_cells, repeat("")), bool, sheet.n_rows)[rows_in])
    for i, ci in zip(rows_in[noted].tolist(), ci_in[noted].tolist(), strict=True):
        text = cell_text(note_cells[i]).strip()
        if not text:
            continue
        who = who_all[i] if who_all is not None else ""
        c_note[ci] = "; ".join(x for x in (c_note.get(ci, ""),
                                           f"{who}: {text}" if who else text) if x)
    return c_note
