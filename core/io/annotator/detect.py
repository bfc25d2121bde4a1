"""Guessing how a sheet reads: which sheet, which row is the header, which
column holds what (long or wide); the wizard's preview of it is
:mod:`~core.io.annotator.sheet_preview`.

The header is the row of the first 30 that names most fields
(:func:`header_score`): a title row (one cell, merged or not) or a blank row
above it does not count, nor do data rows below it. Columns are named by
their headers (:mod:`~core.io.annotator.names`); a sheet whose headers name
no grade column has its grade columns found by their cells (grades, known
labels and marks), as has a sheet without a source id column its URLs; a
grade column the names do not tell, or tell wrong, is
:mod:`~core.io.annotator.grade_column`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.io.annotator.grade_column import few_labels, fractional, grade_of_labels, read_roles
from core.io.annotator.header_rows import join_header_rows
from core.io.annotator.legend import left_out as legend_left_out
from core.io.annotator.legend import (
    legend_columns,
    legend_only,
    legend_words,
)
from core.io.annotator.model import (
    COMBINED,
    GOLD,
    PREDICTED,
    SINGLE_FIELDS,
    ColumnMapping,
    Table,
)
from core.io.annotator.names import (
    bookkeeping_header,
    column_annotator,
    combined_grade,
    drafts_header,
    gold_header,
    model_answer,
    name_field,
    predicted_header,
)
from core.io.annotator.onehot import one_answer_per_column
from core.io.annotator.platform import (
    Flag,
    drafts_flag,
    find_flags,
    marked_text,
    status_like,
)
from core.io.annotator.profile import Profile, profile_columns, span
from core.io.annotator.query_text import grades_of_the_scale, names_the_query
from core.io.annotator.read import read_table
from core.io.annotator.records import expand_json_cells
from core.io.annotator.roles import Roles, judgments_count, left_out
from core.io.annotator.rows import summary_row
from core.io.annotator.transposed import metadata_cell, stacked_header_rows, untranspose
from core.io.annotator.who import judged_by, said_of_people, who_unread
from core.io.annotator.write import written_annotators, written_consensus
from core.io.safety import column_letters

__all__ = ["choose_sheet", "detect_mapping", "header_score", "read_guessed"]

_HEADER_SCAN = 30
#: Data rows whose cells tell what an unnamed column holds.
_SAMPLE = 500
#: The order fields take their columns in (a column feeds one field).
_FIELD_ORDER = ("query", "source_id", "grade", "annotator", "score", "rank", "status",
                "version", "note", "reason")


def _filled(c: Any) -> bool:
    return c is not None and not (isinstance(c, str) and not c.strip())


def _numeric(c: Any) -> bool:
    if isinstance(c, (int, float)):
        return True
    try:
        float(str(c).strip().replace(",", "."))
    except ValueError:
        return False
    return True


def header_score(row: Sequence[Any]) -> float:
    """How much ``row`` looks like a header: 2 for each cell naming a field
    or an annotator's grades (1 for a weaker name), a little for other text,
    less for numbers; 0 for a row of fewer than two cells (a title)."""
    cells = [c for c in row if _filled(c)]
    if len(cells) < 2:
        return 0.0
    score = 0.0
    for c in cells:
        if _numeric(c) or metadata_cell(c):  # a JSON object describes a column, names none
            score -= 0.5
            continue
        named = name_field(str(c))
        if named.field is not None:
            score += 1.0 if named.rank >= 1000 else 2.0
        elif named.annotator is not None:
            score += 2.0
        else:
            score += 0.25
    texts = [str(c).strip() for c in cells]
    return score - 0.5 * (len(texts) - len(set(texts)))


def _header_row(rows: list[list[Any]]) -> int:
    """The row of the first 30 that looks most like a header and least like
    data: a cell whose text comes again in its column on another row is a
    value, not a column's name (a header of ``col1``... above rows of
    ``doc-0001``)."""
    best_row, best = 0, 0.0
    head = rows[:_HEADER_SCAN + 10]
    for i, row in enumerate(head[:_HEADER_SCAN]):
        score = header_score(row)
        if score <= best or legend_only([row]):  # (a legend across a row: no header)
            continue
        others = [r for r in head[:i] + head[i + 1:] if r != row]  # a header said again
        again = sum(1 for c, v in enumerate(row) if _filled(v) and any(
            c < len(r) and r[c] == v for r in others))
        score -= 2.0 * again
        if score > best:
            best_row, best = i, score
    return best_row


def _shape(c: Any) -> str:
    """A cell's shape: ``#`` for a number, else its text with every run of
    letters written ``a`` and of digits ``9`` (``doc-0001`` is ``a-9``)."""
    if _numeric(c):
        return "#"
    return re.sub(r"[0-9]+", "9", re.sub(r"[^\W\d_]+", "a", str(c).strip()))


def _first_row_reads(rows: list[list[Any]]) -> str:
    """How row 1 behaves against the rows below it, column by column:
    ``"header"`` when a column tells it is one (a word over numbers, or over
    codes of one other shape) or a cell names a field; ``"data"`` when the
    columns that can tell (numbers under numbers, a code of the same shape
    as the column below) all say data; ``""`` when none can tell (every
    column text, words over words)."""
    first, below = rows[0], [r for r in rows[1:1 + _SAMPLE] if any(map(_filled, r))]
    verdicts = set() if below else {"header"}
    for c, cell in enumerate(first):
        if not _filled(cell):
            continue
        shapes = {_shape(r[c]) for r in below if c < len(r) and _filled(r[c])}
        if len(shapes) == 1 and shapes != {"a"}:  # numbers, or codes of one shape
            verdicts.add("data" if shapes == {_shape(cell)} else "header")
        elif not _numeric(cell) and any(n is not None for n in (  # a field's name
                name_field(str(cell)).field, name_field(str(cell)).annotator)):
            verdicts.add("header")
    return "header" if "header" in verdicts else "data" if verdicts else ""


#: What the report says when row 1 is taken as the header on no evidence.
UNTOLD_HEADER = ("row 1 taken as the header: no cell of it names a field and no column "
                 "tells a header from data (words over words); pass --header-row 0 if row 1 "
                 "is a judgment")


def header_row_of(rows: list[list[Any]]) -> tuple[int, bool]:
    """The header's row (0-based), -1 when the sheet has none: row 1 is
    the header unless it reads as data against the rows below
    (:func:`_first_row_reads`); and whether row 1 was taken as the header
    with nothing telling (a sheet of words only)."""
    found = _header_row(rows)
    if found != 0 or len(rows) < 2:
        return found, False
    reads = _first_row_reads(rows)
    return (-1 if reads == "data" else 0), reads == ""


def choose_sheet(heads: dict[str, list[list[Any]]]) -> str:
    """The sheet whose best header row scores highest (the first on a tie):
    the data, not an Instructions sheet before it, nor a sheet of the
    scale's legend only (``Grade`` | ``Meaning``, ``0`` | ``not relevant``)."""
    names = list(heads)
    return max(names, key=lambda n: (not legend_only(heads[n]),
                                     max(map(header_score, heads[n][:_HEADER_SCAN]),
                                         default=0.0), -names.index(n)))


def _by_names(header: list[str], models: Table | None = None,
              ) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """Field -> column, and the annotators' grade columns, from the names
    (in a worksheet CSV written here, ``grade_`` and each one's name:
    :func:`~core.io.annotator.write.written_annotators`); a field of a
    model's work, told by the records' shape (``models``' :meth:`Table.modelled`:
    a prediction's ``score`` is its confidence, no ranking), names none."""
    offers: dict[str, list[tuple[int, int]]] = {}
    written = written_annotators(header)
    wide: list[tuple[int, str]] = list(written)
    for col, name in enumerate(header):
        if col in dict(written) or (models is not None and models.modelled(name)):
            continue
        named = name_field(name)
        if named.field is not None:
            offers.setdefault(named.field, []).append((named.rank, col))
        elif named.annotator is not None:
            wide.append((col, named.annotator))
    found: dict[str, int] = {}
    used: set[int] = set()
    for f in _FIELD_ORDER:
        free = sorted(o for o in offers.get(f, ()) if o[1] not in used)
        if free:
            found[f] = free[0][1]
            used.add(free[0][1])
    return found, wide


def _by_values(table: Table, header_row: int, header: list[str], found: dict[str, int],
               wide: list[tuple[int, str]], marks: set[str], said_out: frozenset[int] = frozenset(),
               keep: tuple[str, ...] = (),
               ) -> tuple[list[tuple[int, str]], list[tuple[str, str]], list[Flag],
                          list[tuple[int, str, str]]]:
    """The fields the names left unknown, read from the cells
    (:mod:`~core.io.annotator.roles`); without a grade column, the columns
    whose cells read as grades (one: long; several: one per annotator); the
    platform's marks of rows that are not judgments
    (:mod:`~core.io.annotator.platform`). Returns the wide columns, the
    reasons, the flag columns and the columns left out (column, why, the
    flag that would use it); ``said_out``: a grade column the user left out
    (``--map grade=none``), left out as a combined one; ``keep``: the kinds
    of marked rows imported all the same, counted with the people."""
    # a summary row (Average, with a blank where the source id goes) counts
    # no value of any column: the rows' tally skips it
    at = [i for i, r in enumerate(table.rows[header_row + 1:header_row + 1 + _SAMPLE],
                                  start=header_row + 1)
          if any(map(_filled, r)) and not summary_row(r, None, len(header))]
    sample = [table.rows[i] for i in at]
    profiles = profile_columns(sample, header, marks, words=legend_words(table, header_row))
    read = "annotator" not in found  # else named so or declared: never renamed
    answers = _answers(table, header)
    taken = {c for c, _ in wide} | {c for c in _combined(header, wide, answers, table)
                                    if c not in found.values()}
    aside = legend_columns(table, header_row)  # a legend's levels read like grades
    drafts = {p.col for p in profiles if drafts_header(p.name)}  # (no role: drafts_flag)
    taken |= said_out | set(aside) | drafts
    if len(wide) == 1 and "grade" not in found:
        # One column named as one person's grades: the grade column, whose
        # annotator (if any) another column names.
        found["grade"], wide = wide[0][0], []
        taken = taken - {found["grade"]}
    marked = _marked_grades(profiles, found, taken, marks) if "grade" not in found and not wide \
        else set()
    roles = read_roles(profiles, found, taken, bool(wide), table)
    _query_text(profiles, found, taken | marked, roles)
    reasons = [*roles.reasons.items(), *(("ignored", why) for why, _ in roles.ignored.values())]
    if "status" not in found:
        status = next((p for p in profiles if p.col not in found.values() and p.col not in taken
                       and status_like(p)), None)
        if status is not None:
            found["status"] = status.col
            reasons.append(("status", f"{status.shown()}, read from its values; statuses "
                            + ", ".join(sorted({t for t in status.texts if t}))))
    if "grade" not in found and not wide:
        wide, reasons = _grades_by_values(profiles, header, found, taken, roles, reasons)
    used = set(found.values()) | taken | {c for c, _ in wide}
    flags, why = find_flags(profiles, used, found.get("grade"))
    drafted, drafted_why, drafted_out = drafts_flag(profiles)
    flags, why = [*flags, *drafted], [*why, *drafted_why]
    if flags or "status" in found:
        reasons = marked_text(profiles, found, flags, used, roles.ignored, reasons)
    origin = table.origin  # (a kept row naming no one is one person per file row)
    reasons = judged_by(profiles, found, flags, reasons, roles.ignored, read,
                        table.rows[header_row + 1:], keep,
                        [origin.rows[i] for i in at] if origin is not None else at)
    left = set(found.values()) | used | set(roles.ignored) | {flag[0] for flag in flags}
    out = [(c, why, flag) for c, (why, flag) in roles.ignored.items()]
    out += [(c, f"{header[c] or column_letters(c + 1)}: {legend_left_out(lg)}", "")
            for c, lg in aside.items()]
    out += drafted_out
    out.extend(_left_out(profiles, header, found, left | set(aside) | drafts,
                         taken - {c for c, _ in wide} - set(aside) - drafts, answers))
    reasons.extend(("ignored", text) for c, text, _ in out if c not in roles.ignored)
    return wide, [*reasons, *why], flags, sorted(out)


def _grades_by_values(profiles: list[Profile], header: list[str], found: dict[str, int],
                      taken: set[int], roles: Roles, reasons: list[tuple[str, str]],
                      ) -> tuple[list[tuple[int, str]], list[tuple[str, str]]]:
    """Where no column is named the grade nor one annotator's: a column
    named ``score`` of whole grades (qrels), else the columns whose cells
    read as grades (one: the grade, in ``found``; several: one per
    annotator, returned as the wide columns). Returns them and the reasons."""
    wide: list[tuple[int, str]] = []
    used = set(found.values()) | taken | set(roles.ignored)
    if "score" in found and profiles[found["score"]].graded and not any(
            p.graded and p.col not in used for p in profiles):
        # A column named "score" of whole grades (BEIR/MTEB qrels): the grades.
        found["grade"] = found.pop("score")
        reasons = [(f, why) for f, why in reasons if f != "score"]
        reasons.append(("grade", f"{header[found['grade']]}, named score but holding a "
                        "handful of whole numbers: grades, as qrels write them"))
    else:
        graded = [p.col for p in profiles if p.graded and not p.constant
                  and p.col not in used]
        if len(graded) > 1:
            graded = [c for c in graded if not fractional(profiles[c])] or graded
        if not graded:
            reasons += grade_of_labels(profiles, found, used, roles)
        if len(graded) == 1:
            found["grade"] = graded[0]
        elif graded and "annotator" not in found:  # a long sheet's grades are one column
            wide = [(c, column_annotator(header, c)) for c in graded]
            reasons.append(("annotators", f"{', '.join(n for _, n in wide)}, read from "
                            f"their values: {len(graded)} columns of grades, one per "
                            "annotator"))
    return wide, reasons


def _marked_grades(profiles: list[Profile], found: dict[str, int], taken: set[int],
                   marks: set[str]) -> set[int]:
    """Read as grades (in ``profiles``) the columns no role took whose values
    behave as one more annotator's grades among marks beside the sheet's
    columns of grades (:func:`~core.io.annotator.query_text.grades_of_the_scale`:
    ben's 1, N/A and paywall beside ana's 0 to 3), so that no query's text
    (:func:`_query_text`) takes them and their grades are imported with the
    others'; the marks the import cannot read are then refused by name.
    Returns their columns."""
    free = [p for p in profiles if p.col not in found.values() and p.col not in taken]
    scale = [p for p in free if p.graded and not p.constant]
    marked = {p.col for p in free if grades_of_the_scale(p, scale, marks)}
    for c in marked:
        profiles[c] = replace(profiles[c], graded=True)
    return marked


def _query_text(profiles: list[Profile], found: dict[str, int], taken: set[int],
                roles: Roles) -> None:
    """The query's text, added to ``found`` (unless named or declared): a
    column of text one to one with the query's ids (a sheet's Question
    beside its Query ID, :func:`~core.io.annotator.query_text.names_the_query`),
    the longest such when several, never a column of statuses that mark
    rows (Prodigy's ``answer``, accept on one query's tasks, ignore or
    reject on another's) nor of true/false (Label Studio's
    ``was_cancelled``, true on the tasks of the one query every annotator
    cancelled: a flag, :func:`~core.io.annotator.platform.find_flags`). A
    query given two texts (one retyped) keeps the first, said by the import."""
    if "query_text" in found or found.get("query", len(profiles)) >= len(profiles):
        return
    query = profiles[found["query"]]
    texts = [p for p in profiles if p.col not in found.values() and p.col not in taken
             and names_the_query(p, query, share=0.5) and not status_like(p)
             and p.boolean < 0.5]
    if not texts:
        return
    p = max(texts, key=lambda p: sum(map(len, p.texts)))
    found["query_text"] = p.col
    roles.ignored.pop(p.col, None)
    roles.reasons["query_text"] = (
        f"{p.shown()}, read from its values: {span(p)}, one per query ({query.shown()}), the "
        "same on each of its rows: the query's text, shown beside its id")


def _combined(header: list[str], wide: list[tuple[int, str]], answers: set[int],
              table: Table) -> set[int]:
    """The columns of a grade combined from several: named so (``Final
    grade``, ``Consensus``; never a field of a model's work, told by the
    records' shape: ``model_outputs.score`` is none), or the consensus this
    tool wrote beside its annotators' columns (``grade`` before
    ``grade_ana``, ``grade_ben``), or a model's answer given with the task
    (``answers``: :func:`_answers`)."""
    out = {c for c in range(len(header))
           if combined_grade(header[c]) and not table.modelled(header[c])} | answers
    written = written_consensus(header)
    return out | ({written} if written is not None and wide else set())


def _answers(table: Table, header: list[str]) -> set[int]:
    """The columns of a model's answer given with the task (a prediction,
    a suggestion): told by the records' shape (:attr:`Table.models`), a
    model's group's own value (Argilla's ``relevance.suggestion``) or its
    field naming a grade (Label Studio's ``predictions.result.value.choices``),
    whatever the group is named; else by a header naming one
    (:func:`~core.io.annotator.names.predicted_header`: a sheet, whose
    shape says nothing)."""
    out = set()
    for c, h in enumerate(header):
        group = table.model_group(h)
        if predicted_header(h) if group is None else model_answer(group, h):
            out.add(c)
    return out


def _left_out(profiles: list[Profile], header: list[str], found: dict[str, int],
              left: set[int], combined: set[int], answers: set[int],
              ) -> list[tuple[int, str, str]]:
    """The columns no role takes, each with why and the flag that would
    use it: combined grades (``Final grade``) and a model's answers
    (``answers``), then every other column with data (never dropped in
    silence)."""
    query, source = (profiles[found[f]] if f in found and found[f] < len(profiles) else None
                     for f in ("query", "source_id"))
    who = profiles[found["annotator"]] if found.get("annotator", len(profiles)) < len(
        profiles) else None
    grade = profiles[found["grade"]] if found.get("grade", len(profiles)) < len(
        profiles) else None
    out = []
    for c in sorted(combined):
        # (an empty one is said empty: Label Studio's parent_prediction,
        # null on every annotation, was offered as the grades, --map grade=V)
        if c < len(profiles) and c not in found.values() and profiles[c].filled:
            # a count of each item's judgments (total_annotations) is no grade,
            # unless its header names one (a tiny sheet's consensus of 2s)
            count = "" if name_field(header[c]).field == "grade" else judgments_count(
                profiles[c], query, source, grade, who, _sometimes(profiles))
            if count:
                out.append((c, count, ""))
            elif c in answers and _unscaled(profiles[c], grade):
                out.append((c, *left_out(profiles[c], query, source)))
            else:
                said = GOLD if gold_header(header[c]) else PREDICTED if c in answers \
                    else COMBINED
                out.append((c, f"{profiles[c].shown()}: {said}",
                            f"--map grade={column_letters(c + 1)}"))
    for p in profiles:
        if p.filled and p.col not in left:
            text, flag = _bookkeeping(p, who) or _in_words(p, grade) or said_of_people(
                p, who, query, source) or who_unread(p, who, query, source) or left_out(
                p, query, source)
            out.append((p.col, text, flag))
    return out


def _sometimes(profiles: Sequence[Profile]) -> list[Profile]:
    """The columns filled on some rows and empty on others (a task's
    predictions' fields, on their rows alone): what a count of an item's
    rows of one kind counts (:func:`~core.io.annotator.roles.judgments_count`)."""
    return [p for p in profiles if 0 < p.filled < len(p.texts)]


def _unscaled(p: Profile, grade: Profile | None) -> bool:
    """Whole numbers beside grades given as labels (Label Studio's
    ``total_predictions`` by its ``Not relevant`` ...): no model's answer
    among the annotators' choices, whatever the header's words."""
    return grade is not None and grade.filled > 0 and grade.numeric == 0.0 \
        and p.filled > 0 and p.numeric == 1.0 and p.whole == 1.0


def _in_words(p: Profile, grade: Profile | None) -> tuple[str, str] | None:
    """A column of labels each always beside one grade of the grade column,
    each grade beside one label (``relevant`` by every 2, ``partly`` by
    every 1): the grades again in words, said so (it was 'N distinct
    values, no role read from them')."""
    if grade is None or grade.numeric < 0.9 or not few_labels(p):
        return None
    pairs = {(t, g) for t, g in zip(p.texts, grade.texts, strict=True) if t and g}
    words = {t: g for t, g in pairs}
    if len(words) != len(pairs) or len(set(words.values())) != len(words) or len(words) < 2:
        return None
    said = ", ".join(f"{t} = {g}" for t, g in sorted(words.items(), key=lambda tg: (
        not _numeric(tg[1]), float(tg[1].replace(",", ".")) if _numeric(tg[1]) else 0.0,
        tg[1])))
    return (f"{p.shown()}: labels each always beside one grade of {grade.shown()} ({said}): "
            "the grades again in words; not imported"), ""


def _bookkeeping(p: Profile, who: Profile | None) -> tuple[str, str] | None:
    """A platform's bookkeeping of each participant (Prolific's ``Total
    approvals``, ``Approval rate``), named so and, beside an annotator
    column, one value for each annotator's rows: left out for what it is
    (a count of a participant's work, neither a judgment nor a ranking)."""
    if not bookkeeping_header(p.name):
        return None
    if who is not None:
        pairs = {(w, t) for w, t in zip(who.texts, p.texts, strict=True) if t}
        if len(pairs) != len({w for w, _ in pairs}):
            return None  # varies within one annotator's rows: not theirs
    return (f"{p.shown()}: {span(p)}, the platform's bookkeeping of each participant's work"
            + (", one value per annotator" if who is not None else "")
            + " (no judgment, no ranking); not imported"), ""


def _unique(wide: list[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """Annotators' names made unique (a repeated name takes its column letter)."""
    names = [n for _, n in wide]
    return tuple((c, n if names.count(n) == 1 else f"{n} ({column_letters(c + 1)})")
                 for c, n in wide)


def detect_mapping(table: Table, header_row: int | None = None,
                   given: dict[str, int] | None = None,
                   grade_out: bool = False, keep: tuple[str, ...] = ()) -> ColumnMapping:
    """Guess the header row (unless given, 0-based) and which column holds what.

    Columns are named by their headers; an exact grade column gives a long
    layout (with the annotator column when there is one), several
    annotators' grade columns (``grade_alice``, ``Annotator B``) a wide one.
    Without a named grade column, the columns whose cells read as grades
    are taken. ``given``: fields whose columns the user declared, over the
    names; the rest are read around them (a query declared, the source id
    is the column that fixes it). ``grade_out``: the user left the grade
    column out (``--map grade=none``): a column named so gives way to the
    annotators' columns beside it. ``keep``: the kinds of rows a platform
    marks as no judgments imported all the same (``--keep preview``): the
    people and items are counted with them, as the import counts them.
    """
    untold = False
    if header_row is None and table.header_clash is not None:  # (no header to guess)
        raise table.header_clash
    if header_row is None and table.header_span is not None:  # rows read as one header
        header_row = table.header_span[1]
    if header_row is None:
        header_row, untold = header_row_of(table.rows)
    header = table.header(ColumnMapping(header_row=header_row))
    found, wide = _by_names(header, table)
    aside = legend_columns(table, header_row)  # a legend's "Grade" names no grade column
    found = {f: c for f, c in found.items() if c not in aside}
    wide = [(c, who) for c, who in wide if c not in aside]
    if given:
        found = {f: c for f, c in found.items() if c not in given.values()} | given
        wide = [(c, who) for c, who in wide if c not in given.values()]
    if "grade" in found and wide and found["grade"] == written_consensus(header) and not (
            given and "grade" in given):
        del found["grade"]  # the consensus this tool wrote beside its annotators' columns
    said_out = frozenset([found.pop("grade")]) if grade_out and "grade" in found and wide \
        else frozenset()
    if "grade" in found and wide:
        # An exact grade column wins; per-annotator columns stay unmapped
        # unless the user maps them.
        wide = []
    marks = {m.strip().casefold() for m in (*ColumnMapping().unknown_marks,
                                            *ColumnMapping().unrateable_marks)}
    named_wide = list(wide)
    wide, reasons, flags, left = _by_values(table, header_row, header, found, wide, marks,
                                            said_out, keep)
    if wide and wide == named_wide:
        reasons.insert(0, ("annotators", f"{', '.join(n for _, n in wide)}, named so: one "
                           "column of grades per annotator"))
    if wide:
        found.pop("grade", None)
    if untold:
        reasons.insert(0, ("header", UNTOLD_HEADER))
    if table.origin is not None:  # one row per respondent: its items' columns, not names
        reasons = [(f, _from_items(f, why)) for f, why in reasons]
    fields: dict[str, Any] = {k: v for k, v in found.items() if k in SINGLE_FIELDS}
    left.extend((c, why, "") for c, (_into, why) in table.merged.items())
    for f, c, why in _respondents_rankings(table, header, fields, given or {}):
        del fields[f]
        reasons = [(k, text) for k, text in reasons if k != f]
        left.append((c, why, ""))
    return ColumnMapping(header_row=header_row, grades=_unique(wide), reasons=tuple(reasons),
                         flags=tuple(flags), left_out=tuple(left), keep=keep,
                         read_into=tuple((c, into) for c, (into, _why) in table.merged.items()
                                         if into is not None), **fields)


#: Where a sheet of one row per respondent gives the columns read from its
#: items (:mod:`~core.io.annotator.transposed`): no header names them.
_FROM_ITEMS = {"query": "read from the items' headers", "source_id": "read from the items' "
               "headers", "grade": "read from the items' cells"}


def _from_items(field: str, why: str) -> str:
    """A reason of a reshaped table's query, source or grade, said as where
    its values come from (``query, read from the items' headers; ...``)."""
    said = _FROM_ITEMS.get(field)
    return why.replace(", named so;", f", {said};", 1) if said else why


def _respondents_rankings(table: Table, header: list[str], fields: dict[str, Any],
                          given: dict[str, int]) -> list[tuple[str, int, str]]:
    """The columns of a survey's sheet (one row per respondent, reshaped:
    :mod:`~core.io.annotator.transposed`) named as a ranking, undeclared
    (Google Forms' quiz ``Score``): a respondent's one value over all of its
    items scores none of them, so it is no ranking: (field, column, why
    it is left out)."""
    if table.origin is None:
        return []
    return [(f, c, f"{header[c]}: named as a ranking's {f}, but one value per respondent "
             "(a survey's row), the same over all of its items: it ranks no item; not imported")
            for f in ("score", "rank") if (c := fields.get(f)) is not None and f not in given]


def read_guessed(path: str | Path, sheet: str | None = None) -> Table:
    """The sheet's cells: ``sheet``, else the workbook's sheet that holds the
    data; a transposed sheet (one row per respondent, one column per item)
    in the long layout (:mod:`~core.io.annotator.transposed`); a radio
    button's choices a column each as one column (:mod:`~core.io.annotator.onehot`)."""
    table = read_table(path, sheet=sheet, choose=choose_sheet)
    header_row = header_row_of(table.rows)[0]
    if header_row < 0:  # no header: nothing transposed or stacked under one
        return table
    shaped = untranspose(table, header_row)
    if shaped is not None:
        return shaped
    # (a JSON export's keys are its one header: each row below is a record,
    # its first graded by a word ('unsure') above numbers too)
    stacked = [] if table.records is not None else _header_rows_below(table.rows, header_row)
    if stacked:  # more header rows under the header: one header with it, its names joined
        header_row = join_header_rows(table, header_row, stacked)
    return one_answer_per_column(expand_json_cells(table, header_row), header_row)


#: The rows under the header that may be more header rows (as
#: :func:`~core.io.annotator.transposed.stacked_header_rows` looks at).
_STACKED = 3


def _header_rows_below(rows: list[list[Any]], header_row: int) -> list[int]:
    """The rows right below the header read as more header rows
    (:func:`~core.io.annotator.transposed.stacked_header_rows`: texts no
    answer repeats, one over a column of grades), up to the first that
    holds a value as the data below holds one (:func:`_holds_data`): a
    judgment whose grade is a word (``unsure``, ``n/a`` over numbers) on a
    short first query is a row of data, never a header's."""
    stacked = stacked_header_rows(rows, header_row)
    for k, at in enumerate(stacked):
        if _holds_data(rows, at, header_row + 1 + _STACKED):
            return stacked[:k]
    return stacked


def _holds_data(rows: list[list[Any]], at: int, data: int) -> bool:
    """Whether row ``at`` has a cell behaving as its column's values from
    row ``data`` on: of one of their shapes (:func:`_shape`) other than
    words alone (an id like the ids, ``doc-0131`` over ``doc-0007``; a
    query like the queries, ``q1`` over ``q2``; a number over numbers), or
    a text said again in its column on the rows between (a query's other
    rows). A header row's cells are names: words, or none of the data's
    shapes (``Rating (0-3)`` over 2, ``Start Date`` over a date)."""
    below = [r for r in rows[data:data + _SAMPLE] if any(map(_filled, r))]
    between = rows[at + 1:data]
    for c, cell in enumerate(rows[at]):
        if not _filled(cell):
            continue
        shape = _shape(cell)
        if not set(shape) <= {"a", " "} and shape in {
                _shape(r[c]) for r in below if c < len(r) and _filled(r[c])}:
            return True
        text = str(cell).strip()
        if any(c < len(r) and _filled(r[c]) and str(r[c]).strip() == text for r in between):
            return True
    return False
