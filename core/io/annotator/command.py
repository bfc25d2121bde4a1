"""The ``import`` command's reading of a sheet: everything guessed unless
told, and what stops it before the import, in the command line's words
(the flag to pass); what stops it after is :mod:`~core.io.annotator.refusal`'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from core.errors import InputError
from core.io.annotator.detect import detect_mapping, read_guessed
from core.io.annotator.importer import bulk, import_table
from core.io.annotator.model import (
    BLOCKS_HINT,
    ColumnMapping,
    Table,
    titled_blocks,
    unknown_but_unrateable,
)
from core.io.annotator.overrides import column_list, guess_mapping, missing_field
from core.io.annotator.report import ImportResult
from core.io.annotator.transposed import unreadable_items
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric

__all__ = ["import_sheet"]

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
    where = (f" among the records' fields ({column_list(header)})" if table.records is not None
             else f" in the header on row {mapping.header_row + 1} ({column_list(header)})"
             if mapping.header_row >= 0 else f" in {table.unnamed()}")  # (a JSON export: no header)
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
                      hint=hint + ("" if (mapping.header_row == 0 and len(table.rows) < 2)
                                   or table.records is not None
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
                 names: Mapping[str, str] | None = None,
                 unrateable: Sequence[str] = ()) -> ImportResult:
    """Import ``path`` as the command line says: ``header_row`` is 1-based,
    ``fields`` maps a field to a column (header, letter or number),
    ``annotators`` names one annotator's grade column each, ``rubric`` is
    ``G=LABEL,...`` text; ``rows_ranked``: the row order is a ranking
    (``--order rows``); ``keep``: the kinds of rows a platform marks as
    not judgments imported all the same (``--keep``); ``names``: who judged,
    as read -> as named (``--names``); ``unrateable``: labels read as
    unrateable marks beside the default ones (``--unrateable``: the mark
    kept as the reason, as the wizard's "Marks read as unrateable"; one of
    the default unknown marks, ``?``, so declared is read unrateable). The
    rest is guessed.

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
                                  names=tuple((names or {}).items()),
                                  unknown_marks=unknown_but_unrateable(mapping.unknown_marks,
                                                                       unrateable),
                                  unrateable_marks=(*mapping.unrateable_marks, *unrateable))
        need = missing_field(mapping)
        if need is not None:
            raise _missing(table, mapping, need)
        result = import_table(table, mapping, conventions, rubric=declared)
        del table
    return result
