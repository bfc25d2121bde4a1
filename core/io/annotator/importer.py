"""The import itself: a raw table and a mapping to a document and a report,
as a pipeline of named steps (read, map, classify cells, build columns,
consensus, report)."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path

from core.errors import InputError
from core.io.annotator.above import rows_above
from core.io.annotator.accounting import REPEAT as _REPEAT
from core.io.annotator.accounting import column_records, row_tally
from core.io.annotator.build import build_document
from core.io.annotator.cells import GradeReader, text_labels
from core.io.annotator.detect import detect_mapping, read_guessed
from core.io.annotator.evidence import check_consensus, check_rank, check_sheet, taken_alone
from core.io.annotator.grades import IntArray, check_header_ranges, first_grades, read_grades
from core.io.annotator.judgments import count_judgments
from core.io.annotator.legend import check_legend, read_labels
from core.io.annotator.model import PREDICTED, ColumnMapping, Table, cell_text
from core.io.annotator.positions import records_placed
from core.io.annotator.records import list_cell
from core.io.annotator.refusal import refused_rejections, unreadable
from core.io.annotator.report import (
    FATAL,
    FORMULA,
    ROW_REJECTED,
    ImportReport,
    ImportResult,
    predicted_rows,
    ungraded_rows,
)
from core.io.annotator.rows import (
    annotator_names,
    declined_names,
    find_candidates,
    notes,
    read_rows,
)
from core.io.annotator.rowset import BoolArray, Rows
from core.io.annotator.scales import LabelGuess, guess_labels
from core.io.annotator.sheet import Sheet
from core.io.annotator.transposed import restore_places
from core.io.annotator.unheard import unknown_reasons
from core.io.annotator.vocabulary import check_vocabulary
from core.io.annotator.who import named
from core.io.safety import column_letters
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric
from core.model.numbers import counted

__all__ = ["bulk", "import_annotations", "import_table"]


@contextmanager
def bulk() -> Iterator[None]:
    """Pause the cyclic garbage collector while a sheet's cells are built.

    Reading creates some hundred thousand lists and tuples, none of them in
    a reference cycle; each collection pass would walk all of them again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def import_table(
    table: Table,
    mapping: ColumnMapping | None = None,
    conventions: Conventions | None = None,
    *,
    rubric: Rubric | None = None,
    strict: bool = False,
    guess: bool = True,
    labels: Mapping[str, float] | None = None,
) -> ImportResult:
    """Turn a raw :class:`Table` into a document and a report.

    ``conventions`` give the consensus rule and rounding for several
    annotators and the rubric that maps text labels to grades (``rubric``
    overrides it). A rubric with labels is the user's word; without one
    (or with one of grades only) and with ``guess``, the sheet's labels are
    read as :func:`~core.io.annotator.scales.guess_labels` reads them, and
    the rubric they imply becomes the document's when none was declared.
    ``labels`` (label -> grade) are the user's answers for labels no rule
    reads; they come first. With ``strict`` the first refused row or cell,
    formula or duplicate raises :class:`InputError` instead of being
    reported. A JSON export's rows are said as its lines or records
    (:mod:`~core.io.annotator.positions`).
    """
    with records_placed(table.records):
        result = _import_table(table, mapping, conventions, rubric=rubric, strict=strict,
                               guess=guess, labels=labels)
    result.report.placed_in_records(table.records)
    return result


def _import_table(table: Table, mapping: ColumnMapping | None, conventions: Conventions | None,
                  *, rubric: Rubric | None, strict: bool, guess: bool,
                  labels: Mapping[str, float] | None) -> ImportResult:
    """:func:`import_table`, its places the table's rows."""
    conventions = conventions or Conventions()
    if rubric is not None:
        conventions = conventions.replace(rubric=rubric)
    mapping = mapping or detect_mapping(table)
    report = ImportReport(file=table.file, sheet=table.sheet, layout=mapping.layout,
                          encoding=table.encoding, delimiter=table.delimiter,
                          header_row=mapping.header_row + 1, mapping=mapping,
                          per_respondent=table.origin is not None,
                          header_from=_header_from(table, mapping.header_row))
    sheet = Sheet(table, mapping)  # raises when the mapping lacks a needed column
    _refuse_lists(sheet)
    if conventions.rubric is None:  # (the user's scale wins over a header's range)
        check_header_ranges(sheet)  # a 4 under "Relevance (0-3)": refused
    check_sheet(sheet, conventions.rubric)  # grades that are none, grade columns left unused
    sheet.mapping = taken_alone(sheet)  # those left out by a grade column declared, said so
    report.column_names = {c: sheet.header[c] if c < len(sheet.header) and sheet.header[c]
                           else column_letters(c + 1) for c in mapping.used_columns()}
    guessed, (numbers, how) = _read_labels(sheet, conventions, guess, labels or {}, report)
    if guessed is not None and conventions.rubric is None and guessed.rubric is not None:
        conventions = conventions.replace(rubric=guessed.rubric)
    elif numbers is not None:  # whole-number grades: the rubric is their range, as read
        conventions = conventions.replace(rubric=numbers)
        report.scale = how
    reader = GradeReader(mapping, conventions.rubric, guessed.keys() if guessed else None)
    # Rows: blank, formulas in key cells, empty query or source, bad score;
    # then the candidates, each from its first row.
    rows = read_rows(sheet, report)
    check_rank(sheet, rows.query, rows.source, rows.alive.tolist())
    cands = find_candidates(sheet, rows, report)
    who_all = named(sheet, annotator_names(sheet, report), report)
    c_note = notes(sheet, cands, who_all)
    # Grade cells, one grade column at a time; one grade per candidate and
    # annotator (the first read; repeats reported).
    grades = read_grades(sheet, reader, rows.bad_cells, cands, who_all)
    kept_ev, again = first_grades(sheet, grades, cands)
    sheet.report_findings(report)
    ungraded = count_judgments(sheet, report, rows, grades, kept_ev)
    _account(sheet, report, rows, cands.rows, ungraded)
    _label_report(report, conventions, guessed)
    restore_places(report, sheet)  # a reshaped table's places: the file's own
    report.notes.extend(table.notes)
    report.hidden = table.hidden
    if table.origin is None:  # (a reshaped table's rows are not the file's)
        report.above = rows_above(table.rows, (report.header_from or report.header_row) - 1)
    if strict:
        _raise_first_problem(sheet, report)
    doc = build_document(sheet, report, conventions, grades, kept_ev, again, rows, cands,
                         c_note)
    check_consensus(sheet, cands.rows, cands.of_row, doc)  # an adjudicated grade: refused
    # an item no one judged: why (declined, drafts alone ...), each annotator once
    for ci, why in unknown_reasons(rows, cands, declined_names(sheet, who_all)).items():
        doc.reason[ci] = why
    report.candidates = cands.n
    report.annotators = doc.annotators
    return ImportResult(doc, report)


def _header_from(table: Table, header_row: int) -> int:
    """The first row (1-based) of the header on ``header_row`` (0-based)
    where it is written over several, read as one (:attr:`Table.header_span`);
    0 where it is that row alone."""
    span = table.header_span
    return span[0] + 1 if span is not None and span[1] == header_row else 0


def _account(sheet: Sheet, report: ImportReport, rows: Rows, imported: IntArray,
             ungraded: BoolArray) -> None:
    """Every column and every row accounted for; a tally that does not add
    up, or disagrees with the counts the steps made, is a bug, raised
    before anything is written. The rows imported whose every grade cell is
    blank (``ungraded``) are counted apart: no judgment imported."""
    origin, records = sheet.table.origin, sheet.table.records
    report.columns = column_records(sheet.header, sheet.mapping, origin)
    report.rows_ungraded = int(ungraded[imported].sum())
    report.rows_imported -= report.rows_ungraded
    report.blank_on_ungraded = report.rows_ungraded * len(sheet.mapping.grade_columns())
    table = row_tally(sheet.n_rows, sheet.start + 1, report.skipped_rows, rows.judged,
                      rows.alive, imported, ungraded, None)
    # The file's rows, lines or records, as a user counts them: a reshaped
    # sheet's respondent rows, a JSON export's places (each its rows' best
    # status: imported if any is, else ungraded, rejected, a repeat, ...).
    file_rows = (
        [origin.rows[i + sheet.start] for i in range(sheet.n_rows)] if origin is not None
        else [records.of(i + sheet.start + 1) for i in range(sheet.n_rows)]
        if records is not None else None)
    tally = table if file_rows is None else row_tally(
        sheet.n_rows, sheet.start + 1, report.skipped_rows, rows.judged, rows.alive, imported,
        ungraded, file_rows)
    repeats = _REPEAT in dict(table.skipped)
    agree = tally.adds_up() and table.adds_up() and (origin is not None or (
        table.read == sheet.n_rows and table.blank == report.blank_rows
        and table.rejected == _rows_rejected(report) and table.imported == report.rows_imported
        and table.ungraded == report.rows_ungraded
        and sum(n for _, n in table.skipped) - dict(table.skipped).get(_REPEAT, 0) * repeats
        == len(report.skipped_rows)))
    if not agree:
        raise RuntimeError(f"import accounting of {sheet.file} does not add up: {table} "
                           f"(blank {report.blank_rows}, skipped {len(report.skipped_rows)}, "
                           f"rejected {report.rows_rejected}, imported {report.rows_imported})")
    if origin is not None:  # one row per respondent: the file's rows, as rows_read says
        report.rows_imported, report.rows_ungraded = tally.imported, tally.ungraded
    else:
        _predicted(sheet, report, imported[ungraded[imported]], imported[~ungraded[imported]],
                   tally.ungraded)
    report.row_tally, report.table_rows = tally, table


def _predicted(sheet: Sheet, report: ImportReport, ungraded: IntArray, graded: IntArray,
               places_ungraded: int) -> None:
    """Of the rows with no grade at all (``ungraded``), those holding a
    model's prediction (a column left out as one: Label Studio's rows of a
    task's second prediction), counted and named in the report: they were
    said to be rows with no grade at all, as if no one had said anything.
    A JSON export's are said as its records or lines (``places_ungraded``
    of them with no grade at all): those of no row ``graded`` holding one."""
    cols = [c for c, why, _ in sheet.mapping.left_out if why.endswith(PREDICTED)]
    if not cols or not len(ungraded):
        return
    held = {c: {i for i in ungraded.tolist() if cell_text(sheet.column(c)[i]).strip()}
            for c in cols}
    rows = set().union(*held.values())
    report.rows_predicted = len(rows)
    report.predicted_columns = [sheet.name(c) for c in cols if held[c]]
    records = sheet.table.records
    if records is not None:  # (a record of an annotation is graded, its prediction beside it)
        said = {records.of(sheet.row_number(i)) for i in graded.tolist()}
        rows = {i for i in rows if records.of(sheet.row_number(i)) not in said}
        report.places_predicted = len({records.of(sheet.row_number(i)) for i in rows})
    counts = ((report.rows_ungraded, report.rows_predicted, "row") if records is None else
              (places_ungraded, report.places_predicted, records.unit))
    if rows:
        report.notes.append(f"{ungraded_rows(counts[0], counts[2])}: "
                            f"{predicted_rows(counts[1], report.predicted_columns)}"
                            f", the first on {sheet.place(min(rows))}")


def _rows_rejected(report: ImportReport) -> int:
    """The rows the findings reject (:attr:`ImportReport.rows_rejected` in one
    pass over the findings: an import may have tens of thousands)."""
    if not {ROW_REJECTED, FORMULA} & set(map(itemgetter(0), report.issues)):
        return 0  # the usual case, found at C speed: no row-level finding at all
    return len({i.row for i in report.issues if i.kind == ROW_REJECTED or (
        i.kind == FORMULA and "row rejected" in i.problem)})


def _refuse_lists(sheet: Sheet) -> None:
    """A grade cell holding a list of ratings with no list of their users
    beside it: one line naming the column and what it holds."""
    for col, _ in sheet.mapping.sources():
        for i, cell in enumerate(sheet.column(col)):
            if type(cell) is not str or "[" not in cell:
                continue
            found = list_cell(cell)
            if found is not None and len(found) > 1:
                line, column = sheet.row_number(i), sheet.name(col)
                origin = sheet.table.origin
                if origin is not None:  # a transposed sheet: the file's own cell
                    r, c = origin.cell(line - 1, col)
                    line, column = r + 1, origin.column_name(c)
                raise sheet.fail(
                    f"the grade column {column!r} holds a list of ratings "
                    f"({cell_text(cell).strip()}) with no list of their users beside it",
                    line=line, column=column,
                    hint="export each rating with its user (Argilla: the responses with their "
                    "users), or one row per rating")


def _read_labels(sheet: Sheet, conventions: Conventions, guess: bool,
                 answers: Mapping[str, float], report: ImportReport,
                 ) -> tuple[LabelGuess | None, tuple[Rubric | None, str]]:
    """How the labels read, and the whole numbers' rubric where there are
    no labels: with no rubric declared and no grades given to labels, as
    :func:`~core.io.annotator.legend.read_labels` reads them (the preview's
    rule too), a grade the sheet's legend lacks, or a label its legend of
    labels lacks, stopping the import; else as :func:`_labels` reads them."""
    if not (guess and conventions.rubric is None and not answers):
        return _labels(sheet, conventions, guess, answers), (None, "")
    read = read_labels(sheet.table, sheet.mapping,
                       [sheet.column(c) for c, _ in sheet.mapping.sources()], sheet.header)
    why = read.legends.why
    report.notes.extend([why] if why else [])
    report.warnings.extend([why] if why else [])
    if read.legends.legend is not None:
        check_legend(sheet, read.legends.legend)
    elif read.words is not None:
        check_vocabulary(sheet, read.words, read.texts)
        report.vocabulary = read.words
    return read.guess, read.numbers


def _labels(sheet: Sheet, conventions: Conventions, guess: bool,
            answers: Mapping[str, float]) -> LabelGuess | None:
    """How the sheet's labels read under a rubric with labels declared,
    or the user's answers: the answers, then (when no rubric with labels
    is declared and ``guess``) the guess."""
    declared = conventions.rubric
    if not guess or (declared is not None and any(g.label for g in declared.grades)):
        if not answers:
            return None
        return LabelGuess(grades=dict(answers), scale="the grades given to the labels")
    found = text_labels([sheet.column(c) for c, _ in sheet.mapping.sources()], sheet.mapping)
    if not found and not answers:
        return None
    guessed = guess_labels({t: n for t, n in found.items() if t not in answers},
                           sheet.mapping.sources_header(sheet.header))
    if answers:
        guessed.grades = {**guessed.grades, **answers}
        guessed.scale = "; ".join(x for x in ("the grades given to the labels", guessed.scale)
                                  if x)
    return guessed


def _label_report(report: ImportReport, conventions: Conventions,
                  labels: LabelGuess | None) -> None:
    """Each label read -> its grade, and how, for the report."""
    rubric = conventions.rubric
    if labels is not None:
        report.labels = {t: g for t, g in labels.grades.items()
                         if t not in report.unmapped_labels}
        report.scale = labels.scale
        report.alternatives = [(n, r.text) for n, r in labels.alternatives]
    elif rubric is not None:
        report.labels = {g.label: g.value for g in rubric.grades if g.label}
        if report.labels or not report.scale:
            report.scale = "the rubric declared" if report.labels else ""
    if rubric is not None:
        report.notes.append(f"rubric: {rubric.text}")


def _raise_first_problem(sheet: Sheet, report: ImportReport) -> None:
    """Raise the report's first refused row or cell, formula or duplicate."""
    first = report.first_problem()
    if first is not None:
        n_fatal = len(report.of_kind(*FATAL))
        more = f" (and {counted(n_fatal - 1, 'more problem')})" if n_fatal > 1 else ""
        raise InputError(
            first.problem + more,
            file=sheet.file, sheet=sheet.table.sheet, line=first.row,
            column=first.column or None,
            hint="fix the file, or import it in the app to see every problem",
        )


def import_annotations(
    path: str | Path,
    mapping: ColumnMapping | None = None,
    *,
    sheet: str | None = None,
    rubric: Rubric | None = None,
    consensus: ConsensusRule | str | None = None,
    rounding: Rounding | str | None = None,
    conventions: Conventions | None = None,
    strict: bool = False,
    guess: bool = True,
    labels: Mapping[str, float] | None = None,
    empty_ok: bool = False,
) -> ImportResult:
    """Read an annotators' spreadsheet into a document and an import report.

    Parameters
    ----------
    path : path
        A .xlsx (first sheet unless ``sheet``), .csv or .tsv file. It is
        only read, never changed.
    sheet : str, optional
        The workbook's sheet; by default the one that holds the data (an
        Instructions sheet before it is passed over).
    mapping : ColumnMapping, optional
        Which column holds what; detected from the header when None.
    rubric : Rubric, optional
        Grades allowed and the text labels that name them
        (``"Highly relevant" -> 3``, case-insensitive).
    consensus, rounding : optional
        How several annotators' grades give the current grade; default the
        conventions' own (``mean``, no rounding).
    strict : bool
        Raise :class:`InputError` on the first refused row or cell, formula
        or duplicate instead of reporting it.
    guess : bool
        Read labels on a known scale when no rubric with labels is declared
        (see :func:`import_table`).
    labels : mapping, optional
        The grades of labels no rule reads (label -> grade), as the user
        gives them.
    empty_ok : bool
        Return the result where every judgment read is rejected (the
        wizard lists them and says there is nothing to import). Otherwise
        that raises :class:`InputError` as the command line refuses it
        (even under ``--allow-rejected``), naming the file, the first
        rejected judgment's line and column and why: labels no rule reads
        (pass ``rubric``), or the first rejection. Some rejected beside
        judgments imported are reported, not raised, unless ``strict``.
    """
    conventions = conventions or Conventions()
    if consensus is not None:
        conventions = conventions.replace(consensus=ConsensusRule(consensus))
    if rounding is not None:
        conventions = conventions.replace(rounding=Rounding(rounding))
    with bulk():
        table = read_guessed(path, sheet)
        result = import_table(table, mapping, conventions, rubric=rubric, strict=strict,
                              guess=guess, labels=labels)
        # Freed while the collector still sleeps: the cells it never tracked
        # leave its count as they go, so waking it does not start a full pass.
        del table
    report = result.report
    refused = None if empty_ok or report.judgments_imported else unreadable(
        report) or refused_rejections(  # (a document of unknown grades: nothing given)
        report, "import_annotations(..., empty_ok=True) returns the report listing each",
        outcome="nothing was imported")
    if refused is not None:
        raise refused
    return result

