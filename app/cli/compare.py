"""``ndcg-worksheet compare RUN_A RUN_B [--qrels QRELS] [--export OUT.xlsx] ...``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from app.cli.export import refuse_writing_over_inputs
from app.cli.notices import say_not_carried, say_reopened
from app.cli.options import conventions_from_args
from core.analysis.compare import compare
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.pairs import check_exist, load_pair, read_judged_pair
from core.model.conventions import Conventions
from core.reports.json import compare_json, dump_json
from core.reports.table import print_comparison

__all__ = ["cmd_compare"]


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    """Compare the two inputs; print the table or JSON, and write the workbook
    when ``--export`` names one."""
    resamples = int(getattr(args, "resamples", 10000))
    if resamples < 1:
        raise InputError("--resamples must be at least 1")
    seed = int(getattr(args, "seed", 0))
    export = getattr(args, "export", None)
    if export is not None and Path(export).suffix.lower() != ".xlsx":
        raise InputError("--export writes an .xlsx workbook", file=str(export),
                         hint="name the file OUT.xlsx")
    if export is not None:
        refuse_writing_over_inputs(export, args.run_a, args.run_b, args.qrels)
    ev_a = ev_b = None
    if args.qrels is None:
        doc_a, doc_b = load_pair(args.run_a, args.run_b)
        conv = conventions_from_args(args, doc_a.conventions)
    else:
        # A run joined with qrels has the default conventions: they are known
        # before the runs are read, so each run is evaluated as it is read.
        check_exist(args.run_a, args.run_b, args.qrels)
        conv = conventions_from_args(args, Conventions())
        doc_a, doc_b, ev_a, ev_b = read_judged_pair(
            args.run_a, args.run_b, args.qrels, lambda doc: evaluate(doc, conv)
        )
    say_reopened([doc_a, doc_b], args)
    if not set(doc_a.query_ids) & set(doc_b.query_ids):
        raise InputError(
            f"{args.run_a} and {args.run_b} share no query",
            hint="compare two rankings of the same queries",
        )
    result = compare(doc_a, doc_b, conv, resamples=resamples, seed=seed,
                     evaluation_a=ev_a, evaluation_b=ev_b)
    if getattr(args, "format", "table") == "json":
        dump_json(compare_json(result), out, rows=len(result.common))
    else:
        print_comparison(result, out, name_a=args.run_a, name_b=args.run_b)
    if export is not None:
        from core.io.workbook import export_comparison_workbook
        from core.io.workbook.additions import additions_to_keep

        keep = additions_to_keep(export, args.run_a)  # what people added to run A's workbook
        say_not_carried(keep.not_carried if keep else [])
        export_comparison_workbook(result, export, name_a=str(args.run_a),
                                   name_b=str(args.run_b), keep=keep)
        if getattr(args, "format", "table") != "json":
            out.write(f"\nwrote {export}\n")
    return 0
