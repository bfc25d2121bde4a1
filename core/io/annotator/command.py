"""The ``import`` command's reading of a sheet: everything guessed unless
told, and what stops it, in the command line's words (the flag to pass)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from core.errors import InputError
from core.io.annotator.accounting import ColumnRecord
from core.io.annotator.detect import detect_mapping, read_guessed
from core.io.annotator.importer import bulk, import_table
from core.io.annotator.model import BLOCKS_HINT, ColumnMapping, Table, titled_blocks
from core.io.annotator.overrides import column_list, guess_mapping, missing_field
from core.io.annotator.report import ImportReport, ImportResult
from core.io.annotator.scales import Vocabulary
from core.io.annotator.transposed import unreadable_items
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric
from core.model.numbers import agreed, counted

__all__ = ["import_sheet", "refused_rejections", "unreadable"]

_NAMES = {"query": "query/qid/query_id/topic", "source_id": "doc/docid/doc_id/url",
          "grade": "grade/label/rating/relevance"}


def _missing(table: Table, mapping: ColumnMapping, need: str) -> InputError:
    if need != "grade" and mapping.why(need) and not _grades_with(table, mapping, need):
        # two columns could be it: never one picked in silence (no grades
        # under either: said first)
        need = missing_field(mapping.replace(**{need: 0})) or need
    if need != "grade" and mapping.why(need):
        return InputError(mapping.why(need), file=table.file, sheet=table.sheet,
                          hint=f"pass --map {need}=COLUMN for the one meant")
    header = table.header(mapping)
    blocks = titled_blocks(table, mapping.header_row, header) if need == "query" else None
    if blocks is not None:
        return InputError(blocks, file=table.file, sheet=table.sheet,
                          line=mapping.header_row + 1, hint=BLOCKS_HINT)
    transposed = unreadable_items(table, mapping.header_row, header) if header else None
    if transposed is not None and need != "grade":
        return InputError(transposed, file=table.file, sheet=table.sheet,
                          line=mapping.header_row + 1,
                          hint="write each item's header as 'query [source]' or 'query - "
                          "source' (as a survey's grid question names its rows), or turn the "
                          "sheet into one row per judgment")
    ranking = mapping.ranking_not_grade(header) if need == "grade" else None
    where = (f" in the header on row {mapping.header_row + 1} ({column_list(header)})"
             if mapping.header_row >= 0 else f" in {table.unnamed()}")
    if ranking is not None:  # a run: what reads it, no --header-row (its header is none)
        return InputError(f"no grade column found{where}; {ranking[0]}", file=table.file,
                          sheet=table.sheet, hint=ranking[1])
    if need == "grade":
        problem = "no grade column found"
        hint = ("pass --map grade=COLUMN (one grade column, with --map annotator=COLUMN "
                "for several annotators' rows) or --annotators COL,COL,... (one column "
                "per annotator)")
    else:
        problem = f"no {need.replace('_', ' ')} column found"
        hint = f"pass --map {need}=COLUMN, or name the column {_NAMES[need]}"
    return InputError(problem + where, file=table.file, sheet=table.sheet,
                      hint=hint + ("" if mapping.header_row == 0 and len(table.rows) < 2
                                   else "; --header-row N if the header is another row"
                                   if header else "; --header-row N if row N is a header"))


def _grades_with(table: Table, mapping: ColumnMapping, need: str) -> bool:
    """Whether the sheet has a grade column once ``need`` (the query or the
    source id, two columns could be) is either of its candidates: the
    grades are then read around it (a rank is told from grades within a
    query), and the choice is what to ask for, not a grade column."""
    flag = f"--map {need}="
    return any(missing_field(detect_mapping(table, mapping.header_row, {need: c})) is None
               for c, _, said in mapping.left_out if said.startswith(flag))


def import_sheet(path: str | Path, *, sheet: str | None = None, header_row: int | None = None,
                 fields: Mapping[str, str] | None = None,
                 annotators: Sequence[str] | None = None, rubric: str | None = None,
                 consensus: str = "mean", rounding: str = "none",
                 rows_ranked: bool = False, keep: Sequence[str] = (),
                 names: Mapping[str, str] | None = None) -> ImportResult:
    """Import ``path`` as the command line says: ``header_row`` is 1-based,
    ``fields`` maps a field to a column (header, letter or number),
    ``annotators`` names one annotator's grade column each, ``rubric`` is
    ``G=LABEL,...`` text; ``rows_ranked``: the row order is a ranking
    (``--order rows``); ``keep``: the kinds of rows a platform marks as
    not judgments imported all the same (``--keep``); ``names``: who judged,
    as read -> as named (``--names``). The rest is guessed.

    Raises :class:`InputError` (with the flag to pass) when the query, the
    source id or a grade column is not found.
    """
    conventions = Conventions().replace(consensus=ConsensusRule(consensus),
                                        rounding=Rounding(rounding))
    declared = Rubric.parse(rubric) if rubric else None
    with bulk():
        table = read_guessed(path, sheet)
        mapping = guess_mapping(table, header_row=header_row, fields=fields,
                                annotators=annotators, keep=keep)
        mapping = mapping.replace(rows_ranked=rows_ranked, keep=tuple(keep),
                                  names=tuple((names or {}).items()))
        need = missing_field(mapping)
        if need is not None:
            raise _missing(table, mapping, need)
        result = import_table(table, mapping, conventions, rubric=declared)
        del table
    return result


def unreadable(report: ImportReport) -> InputError | None:
    """Why an import cannot stand (labels no rule reads, or read alike by
    two known scales that grade them otherwise), naming ``--rubric``."""
    if report.alternatives and not report.unmapped_labels:
        scales = report.alternatives
        return InputError(
            "the labels fit two known scales that grade them otherwise: " + "; ".join(
                f"{name} ({text})" for name, text in scales), file=report.file,
            sheet=report.sheet, hint="pass the one meant, e.g. " + " or ".join(
                f"--rubric \"{text}\"" for _, text in scales))
    if not report.unmapped_labels:
        return None
    labels = ", ".join(f"{k!r} ({counted(v, 'cell')})"
                       for k, v in report.unmapped_labels.items())
    known = ",".join(f"{g:g}={t}" for t, g in sorted(report.labels.items(), key=lambda x: x[1]))
    example = ",".join(x for x in (known, *(f"N={k}" for k in report.unmapped_labels)) if x)
    first = next((i for i in report.issues if str(i.value).strip() in report.unmapped_labels),
                 None)  # the file's row and column of the first such label
    problem, hint = (f"labels on no known scale and not in the rubric: {labels}",
                     f"give every label its grade with --rubric, e.g. --rubric \"{example}\"")
    if report.vocabulary is not None:  # a legend of labels: named, its order a proposal
        problem, hint = _vocabulary_unread(report.vocabulary, labels)
    hint += "".join(  # a column left out that may hold the grades (numbers beside the labels)
        f"; or, if {_named(c)} holds the grades, pass {c.flag}"
        for c in report.columns if c.flag and c.flag.startswith("--map grade="))
    return InputError(problem, file=report.file, sheet=report.sheet,
                      line=first.row if first else None,
                      column=first.column if first else None, hint=hint)


def _named(c: ColumnRecord) -> str:
    """A column as the messages name it: ``D (col4)``, or ``D`` without a header."""
    return f"{c.letter} ({c.header})" if c.header and c.header != c.letter else c.letter


def _vocabulary_unread(legend: Vocabulary, labels: str) -> tuple[str, str]:
    """The refusal of labels a legend lists without grades and no known
    scale reads, and what to type: a --rubric in the legend's stated order,
    one grade apart, to check; else one with ``N`` for each grade."""
    problem = (f"{legend.said} lists the labels, not their grades, and no known scale reads "
               f"them: {labels}")
    said = (f"if they are one grade apart; the legend lists them {legend.order}" if legend.order
            else "with each N its grade; the legend states no order")
    return problem, (f"give every label its grade with --rubric, e.g. --rubric "
                     f"\"{legend.example()}\" {said}")


def refused_rejections(report: ImportReport, listed: str, *, allowed: bool = False,
                       outcome: str = "nothing was written") -> InputError | None:
    """Why an import with rejected judgments is not written: every
    judgment read rejected (a worksheet of unknown grades holds nothing the
    user gave), or some, unless the user ``allowed`` them (``--allow-rejected``,
    the wizard's "Import anyway"); in one line, the count and the first
    rejected cell, then the ``outcome``; ``listed`` says where the rest are."""
    first = report.first_rejected()
    if first is None:
        return None
    row, column, why = first
    n = len(report.rejected_judgments)
    if not report.judgments_imported:
        every = "the one judgment read was" if n == 1 else f"all {n} judgments read were"
        return InputError(f"{every} rejected, so {outcome}; the first: {why}",
                          file=report.file, sheet=report.sheet, line=row, column=column,
                          hint=listed)
    if allowed:
        return None
    kept = report.judgments_imported
    return InputError(
        f"{n} of the {report.judgments_read} judgments read {agreed(n, 'was')} "
        f"rejected, so {outcome}; the first: {why}", file=report.file, sheet=report.sheet,
        line=row, column=column,
        hint=f"{_who_hinted(report)}pass --allow-rejected to import the other {kept} without "
        f"{agreed(n, 'it')}, or fix the sheet; {listed}")


def _who_hinted(report: ImportReport) -> str:
    """Where items listed again are rejected and a column left out could
    name who judged each row (:func:`~core.io.annotator.who.who_unread`),
    the flag that takes it, said first: its rows are then each item's
    judgments, not duplicates."""
    c = next((c for c in report.columns if c.flag and c.flag.startswith("--map annotator=")),
             None)
    if c is None or not report.duplicates:
        return ""
    return (f"pass {c.flag} if {_named(c)} names who judged each row (an item's rows then "
            "its judgments), or ")
