"""``ndcg-worksheet import SHEET -o OUT.csv|OUT.xlsx|OUT.ods ...``: an annotators' sheet
as a worksheet CSV or an audited workbook.

Without flags the sheet, the header row, the layout (long or wide), the
columns and the rubric are guessed (:mod:`core.io.annotator`); each flag
overrides one guess. A sheet that cannot be read unambiguously (a needed
column not found, labels on no known scale) ends with one line naming the
file and the flag to pass; every judgment read is imported or listed as
rejected (``--report``), never dropped.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from app.cli.export import check_output, output_kind
from app.cli.stdio import STDIN, text_output
from core.io.row_kinds import KINDS
from core.io.suffixes import ANNOTATOR_SHEET_FORMATS

__all__ = ["CONSENSUS", "OUTPUTS", "ROUNDING", "add_import_parser", "cmd_import"]

#: The command line's spellings -> the conventions' own.
CONSENSUS = {"mean": "mean", "median": "median", "majority": "majority", "min": "minimum",
             "max": "maximum", "minimum": "minimum", "maximum": "maximum"}
ROUNDING = {"none": "none", "half-up": "half-up", "half-even": "half-even", "floor": "floor",
            "ceil": "ceiling", "ceiling": "ceiling"}
OUTPUTS = (".csv", ".xlsx", ".ods", ".qrels")
_FIELDS = "query, source_id, version, score, rank, grade, annotator, note, reason, status"


def add_import_parser(sub: Any) -> None:
    """The ``import`` command's parser, under ``sub`` (the commands' subparsers)."""
    p = sub.add_parser(
        "import", help="read an annotators' sheet (guessed) into a worksheet CSV or workbook",
        description=f"Read an annotators' sheet ({ANNOTATOR_SHEET_FORMATS}). Without flags "
        "the sheet, header row, layout, columns and rubric are guessed.")
    p.add_argument("input", metavar="SHEET",
                   help=f"the annotators' sheet: {ANNOTATOR_SHEET_FORMATS}")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="OUT.csv: the worksheet CSV (query,source_id,version,score,grade and "
                   "each annotator's grade); OUT.xlsx or OUT.ods: the audited workbook; "
                   "OUT.qrels: TREC qrels of the current grades")
    p.add_argument("--to", choices=[s[1:] for s in OUTPUTS],
                   help="the output's format, when its suffix does not tell (-o - writes "
                   "standard output: csv or qrels)")
    p.add_argument("--sheet", metavar="NAME", help="the workbook's sheet (default: guessed)")
    p.add_argument("--header-row", type=int, metavar="N",
                   help="the header's row, 1-based; 0: the sheet has no header, row 1 "
                   "is data (default: guessed)")
    p.add_argument("--map", action="append", default=[], metavar="FIELD=COLUMN",
                   help=f"read FIELD from COLUMN (a header, letter or number), or none to "
                   f"leave FIELD out (rank=none: the sheet holds no ranking); FIELD is one of "
                   f"{_FIELDS}, in any case; repeat for several fields, each once. A score "
                   "or rank is read only from a column whose header names one, or from the "
                   "column given here")
    p.add_argument("--annotators", metavar="COL,COL,...",
                   help="one annotator's grades per column (a wide sheet)")
    p.add_argument("--names", action="append", default=[], metavar="ID=NAME,...",
                   help="name the annotators as read (a platform's user ids, 7, 12) by the "
                   "names given (7=ana@lab.example); default: as the sheet names them")
    p.add_argument("--rubric", metavar="G=LABEL,...",
                   help="the permitted grades and their labels (default: read from the "
                   "labels on a known scale)")
    p.add_argument("--unrateable", metavar="MARK,...", default="",
                   help="labels read as unrateable marks (the item could not be judged: "
                   "paywalled, page gone), the mark kept as the reason, beside the default "
                   "ones (N/A, -, skip, can't tell, unrateable ...); a --rubric label is "
                   "read as its grade first; a default unknown mark named here (?) is "
                   "read as unrateable")
    p.add_argument("--consensus", choices=list(CONSENSUS), default="mean",
                   help="several annotators' grades -> the grade (default: mean)")
    p.add_argument("--rounding", choices=list(ROUNDING), default="none",
                   help="rounding of the consensus (default: none)")
    p.add_argument("--keep", metavar="KIND,...",
                   help="import the rows a platform marks as not judgments all the same, "
                   "of the kinds given: " + "; ".join(f"{k}: {w}" for k, w in KINDS.items())
                   + " (default: none, each such row skipped and counted)")
    p.add_argument("--order", choices=["rows"],
                   help="rows: the sheet's row order is a ranking (without a score or rank "
                   "column; by default such a sheet holds judgments only and the scores stay "
                   "empty)")
    p.add_argument("--guidelines", metavar="SHEET",
                   help="the workbook's sheet of grading guidelines (what each grade means), "
                   "kept with the conventions; default: a sheet that reads as levels of the "
                   "scale in sentences, if any; none: leave them out")
    p.add_argument("--allow-rejected", action="store_true",
                   help="write the output even though some judgments were rejected (without "
                   "them; each is listed in --report), not when every one was; by default an "
                   "import with rejected judgments writes nothing and exits with status 2")
    p.add_argument("--report", metavar="REPORT.json",
                   help="write what was read, imported and rejected (row, column, reason)")
    p.set_defaults(func=cmd_import)


def _pairs(items: list[str]) -> dict[str, str]:
    """``--map FIELD=COLUMN`` (repeatable) as field -> column, each field by
    its own name (``Grade=`` and ``label=`` are ``grade``: one field, given
    one column; a name of no field left as typed, for the import to refuse)."""
    from core.io.annotator.overrides import mapped_field

    return _key_values(items, "--map", "FIELD=COLUMN", "columns",
                       f"e.g. --map query=Topic; fields: {_FIELDS}", "map each field to one column",
                       lambda field: field, lambda typed: mapped_field(typed) or typed)


def _names(items: list[str]) -> dict[str, str]:
    """``--names 7=ana@lab.example,12=ben@lab.example`` (repeatable) as id -> name."""
    parts = [part for text in items for part in text.split(",") if part.strip()]
    return _key_values(parts, "--names", "ID=NAME", "names",
                       "e.g. --names 7=ana@lab.example,12=ben@lab.example",
                       "give each annotator one name", repr)


def _key_values(items: list[str], flag: str, form: str, values: str, example: str,
                one: str, said: Callable[[str], str],
                key_of: Callable[[str], str] = str) -> dict[str, str]:
    """``KEY=VALUE`` items as key -> value, each side stripped, each key as
    ``key_of`` names it: an item of another form, or a key given two values
    (in any of its writings, each said where it is not the key's own), refused
    in one line (the last won, unsaid); the same value twice is fine."""
    from core.errors import InputError

    out: dict[str, str] = {}
    typed: dict[str, str] = {}
    for item in items:
        written, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not written or not value:
            raise InputError(f"{flag} {item!r} is not {form}", hint=example)
        key = key_of(written)
        if out.get(key, value) != value:
            first, then = (f" (as {w})" if w != key else "" for w in (typed[key], written))
            raise InputError(f"{flag} gives {said(key)} two {values}, {out[key]!r}{first} and "
                             f"{value!r}{then}", hint=one)
        out[key], typed[key] = value, written
    return out


def _kinds(text: str | None) -> tuple[str, ...]:
    from core.errors import InputError

    kinds = tuple(k.strip() for k in (text or "").split(",") if k.strip())
    wrong = [k for k in kinds if k not in KINDS]
    if wrong:
        raise InputError(f"--keep {text!r}: {', '.join(map(repr, wrong))} is no kind of row",
                         hint="kinds: " + ", ".join(KINDS))
    return kinds


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    """Import, check, write the output and the report; print what was done."""
    from core.errors import InputError
    from core.io.annotator.command import import_sheet
    from core.io.annotator.model import read_marks
    from core.io.annotator.refusal import refused_rejections, unreadable
    from core.model.numbers import counted

    suffix = _output_suffix(args)
    if suffix not in OUTPUTS:
        raise InputError(f"cannot write {args.output!r}: name it .csv (the worksheet CSV), "
                         ".xlsx or .ods (the audited workbook) or .qrels")
    # The sheet read is never replaced (`-o annot.csv` wrote the worksheet over it).
    for written in (args.output, args.report):
        if written is not None and written != STDIN:
            check_output(written, args.input)
    annotators = [c for c in (args.annotators or "").split(",") if c.strip()]
    result = import_sheet(
        args.input, sheet=args.sheet, header_row=args.header_row, fields=_pairs(args.map),
        annotators=annotators or None, rubric=args.rubric,
        consensus=CONSENSUS[args.consensus], rounding=ROUNDING[args.rounding],
        rows_ranked=args.order == "rows", keep=_kinds(args.keep), names=_names(args.names),
        unrateable=read_marks(args.unrateable))
    report = result.report
    if args.report:
        from core.io.atomic import atomic_write_text

        atomic_write_text(Path(args.report), json.dumps(report.to_json(), indent=1) + "\n")
    # where the rejected judgments are listed, said with the first of them
    listed = (f"every one is in {args.report}" if args.report else
              "pass --report REPORT.json for the list")
    problem = unreadable(report) or refused_rejections(report, listed,
                                                       allowed=args.allow_rejected)
    if problem is not None:
        raise problem
    guidelines = _guidelines(args.input, args.guidelines, report.sheet)
    if guidelines is not None:
        doc = result.document
        doc.conventions = doc.conventions.replace(guidelines=guidelines.guidelines)
    with text_output(args.output, suffix, out) as target:
        _write(result.document, target, suffix, args.input)
    if args.output == STDIN:  # the sheet went to stdout: what was done is said on stderr
        out = sys.stderr
    out.write(report.headline() + "\n")
    out.writelines(line + "\n" for line in (report.hidden_text(), report.above_text()) if line)
    if report.excluded:
        out.write(report.skipped_text() + "\n")
    out.writelines(line + "\n" for line in report.warnings)
    left_out = report.left_out_text(args.report or "--report REPORT.json")
    if left_out:  # every column accounted for, not in the --report file alone
        out.write(left_out + "\n")
    if not report.ranking:
        out.write("judgments only: no score or rank column, so no ranking (the scores are "
                  "left empty); join a run to evaluate, or pass --order rows if the row order "
                  "is a ranking\n")
    elif report.ranking == "rows":
        out.write("the row order is the ranking, as --order rows declares: score = -row "
                  "number\n")
    elif report.mapping is not None:  # a ranking changes every number: said where it is read
        field = report.ranking
        why = report.mapping.why(field) or (
            f"{report.column_names.get(getattr(report.mapping, field))}, declared")
        out.write(f"the ranking: {field}, {why} (--map {field}=none reads the sheet as "
                  "judgments only)\n")
    if guidelines is not None:
        note = ("" if suffix in (".xlsx", ".ods") else
                f"; a {suffix} file keeps no conventions: write OUT.xlsx to keep them")
        note += "" if args.guidelines else " (--guidelines none leaves them out)"
        out.write(guidelines.headline + note + "\n")
    first = report.first_rejected()
    if first is not None:
        row, column, why = first
        n = counted(len(report.rejected_judgments), "judgment")
        out.write(f"{n} rejected, the first on {report.place(row)}, column {column!r}: "
                  f"{why}; {listed}\n")
    name = "standard output" if args.output == STDIN else args.output
    out.write(f"wrote {name}: {counted(len(result.document), 'candidate')}\n")
    return 0


def _output_suffix(args: argparse.Namespace) -> str:
    """The output's suffix: ``--to``'s, else the file's; standard output
    (``-o -``) takes ``--to csv`` or ``--to qrels``."""
    if args.output == STDIN:
        return "." + output_kind(args.output, args.to, {s: s[1:] for s in OUTPUTS})
    return f".{args.to}" if args.to else Path(args.output).suffix.lower()


def _guidelines(path: str, sheet: str | None, judged: str | None) -> Any:
    """The guidelines ``--guidelines`` names (``none``: none), or those a
    sheet other than the judgments' reads as (:mod:`core.io.annotator.guidelines`)."""
    from core.io.annotator.guidelines import find_guidelines, read_guidelines

    if sheet is not None and sheet.strip().casefold() == "none":
        return None
    if sheet is not None:
        return read_guidelines(path, sheet)
    return find_guidelines(path, judged)


def _write(doc: Any, output: str, suffix: str, sheet: str) -> None:
    if suffix in (".xlsx", ".ods"):
        from core.engine.evaluation import evaluate
        from core.io.workbook import check_workbook_target, export_workbook

        check_workbook_target(output, suffix[1:])  # --to ods only under an .ods name
        export_workbook(evaluate(doc), output)
    elif suffix == ".qrels":
        from app.cli.notices import say_not_carried
        from core.io.annotator.qrels import write_judgments_qrels
        from core.io.delimited import qrels_not_kept

        # named before writing, as export -o OUT.qrels names them (a consensus
        # mean of 4/3 is written whole; trec_eval reads it as 1)
        write_judgments_qrels(doc, output, sheet, writable=lambda: say_not_carried(
            qrels_not_kept(doc), written="the qrels"))
    else:
        from app.cli.notices import say_warning
        from core.io.annotator.write import write_worksheet_csv
        from core.model.numbers import counted

        write_worksheet_csv(doc, output)
        if doc.query_texts:  # (read beside the ids: the CSV has no column of them)
            say_warning(f"the CSV written keeps no query text: the texts of "
                        f"{counted(len(doc.query_texts), 'query')} read from the sheet are "
                        "left out (an audited workbook, .xlsx, keeps them)")
