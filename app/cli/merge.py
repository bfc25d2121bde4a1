"""``ndcg-worksheet merge BASE RETURNED... [--qrels QRELS] -o MERGED.xlsx [--report MERGE.json]``:
bring the reviewers' workbooks back into one."""

from __future__ import annotations

import argparse
import contextlib
import getpass
from pathlib import Path
from typing import TextIO

from app.cli.notices import say_not_carried, say_reopened
from app.cli.options import QRELS_HELP, QRELS_TWICE
from core.errors import InputError

__all__ = ["add_merge_arguments", "cmd_merge"]


def add_merge_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("base", metavar="BASE", help="the workbook (or file) the round was split from")
    p.add_argument("--qrels", twice=QRELS_TWICE, help=QRELS_HELP.format(
        run="BASE is then a run, given as split was"))
    p.add_argument("returned", metavar="RETURNED", nargs="+",
                   help="the reviewers' workbooks as they came back")
    p.add_argument("-o", "--output", required=True, metavar="MERGED.xlsx",
                   help="the merged workbook to write (.xlsx, or .ods for LibreOffice)")
    p.add_argument("--replace", action="store_true",
                   help="replace MERGED.xlsx even when someone worked on it since it was "
                        "merged (conflicts resolved, grades, notes, sheets added: lost; "
                        "without it merge refuses, naming it)")
    p.add_argument("--report", metavar="MERGE.json",
                   help="also write what the merge did as JSON")
    p.add_argument("--as-ratings", action="store_true",
                   help="copies of the base sent without split: take their grades as "
                        "ratings and grade by their consensus, instead of listing "
                        "different grades as conflicts")


def _who() -> str:
    with contextlib.suppress(Exception):
        name = getpass.getuser().strip()
        if name:
            return name
    return "merge"


def cmd_merge(args: argparse.Namespace, out: TextIO) -> int:
    """Merge, write the merged workbook (and the report), print what was done."""
    # Imported here: the review rounds load only for their commands, so
    # evaluate and export start without them.
    from core.analysis.rounds import Returned, merge, now
    from core.engine.evaluation import evaluate
    from core.io.rounds import (
        check_merged,
        check_outputs,
        read_base,
        read_returned,
        write_merge_report,
    )
    from core.io.workbook import check_workbook_target, export_workbook
    from core.io.workbook.additions import additions_of_all
    from core.model.numbers import agreed, counted

    check_workbook_target(args.output)  # MERGED.xlsx or MERGED.ods
    outputs = [args.output] + ([args.report] if args.report else [])
    inputs = [args.base, *([args.qrels] if args.qrels else []), *args.returned]
    check_outputs(outputs, inputs)
    base = read_base(args.base, qrels=args.qrels)
    read = read_returned(args.returned)
    say_reopened([base, *(doc for _, doc in read)], args)
    returned = [Returned(name, doc) for name, doc in read]
    result = merge(base, returned, who=_who(), when=now(), base_name=Path(args.base).name,
                   as_ratings=args.as_ratings)
    why = result.nothing_taken()
    if why:
        raise InputError(f"nothing merged, nothing written: {why}", file=str(args.base),
                         hint="name the workbooks handed out from this base, or copies of it")
    # What the reviewers (and the base's authors) added is kept in the merged workbook.
    keep = additions_of_all([args.base, *args.returned])
    if not args.replace:
        check_merged(args.output, keep=keep, hint="write to another file with -o, or add "
                                                  "--replace to replace it, losing that work")
    say_not_carried(keep.not_carried)
    export_workbook(evaluate(result.document), args.output, keep=keep)
    if args.report:
        write_merge_report(result.to_dict(base=str(args.base), merged=str(args.output)),
                           args.report)
    out.write(f"merged {counted(len(returned), 'workbook')} into {args.output}: "
              f"{result.summary()}\n")
    for c in result.reviewers:
        out.write(f"  {c.reviewer} ({c.workbook}): graded {c.graded} of {c.assigned}, "
                  f"{counted(c.changes, 'change')}\n")
    for r in result.refused:
        out.write(f"  refused {r.workbook}: {r.reason} "
                  f"({counted(r.changes, 'change')} not taken)\n")
    if result.conflicts:
        n = len(result.conflicts)
        out.write(f"  {counted(n, 'conflict')} left open: open {args.output} in the editor "
                  f"(Review > Conflicts) to resolve {agreed(n, 'it')}\n")
    for note in result.note_conflicts:
        out.write(f"  note conflict, {note.said}: {note.every} kept in the merged note, each "
                  "labelled; "
                  "resolve it in the editor (Review > Conflicts)\n")
    for text in result.text_conflicts:
        out.write(f"  text conflict, {text.said}: every text kept in the merged text, each "
                  "labelled; resolve it in the editor (Review > Conflicts)\n")
    if args.report:
        out.write(f"wrote {args.report}\n")
    return 0
