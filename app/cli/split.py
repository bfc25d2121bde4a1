"""``ndcg-worksheet split BOOK --reviewers ana,ben [--overlap F] [--seed S] -o DIR``:
hand a base out to reviewers, one workbook each."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TextIO

from app.cli.options import INPUT_HELP, QRELS_HELP, QRELS_TWICE

__all__ = ["add_split_arguments", "cmd_split"]


def add_split_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="BOOK", help=f"the base: {INPUT_HELP}")
    p.add_argument("--qrels", twice=QRELS_TWICE, help=QRELS_HELP.format(run="BOOK is then a run"))
    p.add_argument("--reviewers", required=True, metavar="NAME,NAME,...",
                   help="who judges (one workbook each)")
    p.add_argument("--overlap", type=float, default=0.0, metavar="FRACTION",
                   help="the share of queries given to two reviewers, for agreement "
                        "(default 0)")
    p.add_argument("--seed", type=int, default=0,
                   help="draws the overlap queries and breaks ties (default 0)")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the folder for the reviewers' workbooks (BOOK-name.xlsx, or "
                        ".ods when BOOK is one)")
    p.add_argument("--replace", action="store_true",
                   help="replace the reviewers' workbooks already in DIR even when they "
                        "were graded since they were handed out (their grades are lost; "
                        "without it split refuses, naming them)")
    p.add_argument("--to", choices=["xlsx", "ods"],
                   help="the reviewers' workbooks' format (default: the base's, .xlsx "
                        "for a base that is no .ods)")


def _replace_hint(args: argparse.Namespace, theirs: list[Path]) -> str:
    """What to do when files in the output folder are not as split handed
    them out; ``theirs``, those that are reviewers' workbooks, can be merged."""
    if not theirs:
        return "write to another folder with -o, or add --replace to replace them"
    qrels = f" --qrels {shlex.quote(str(args.qrels))}" if args.qrels else ""
    merge = " ".join(shlex.quote(str(p)) for p in [args.input, *theirs])
    return (f"write to another folder with -o; or merge them first: ndcg-worksheet merge "
            f"{merge}{qrels} -o MERGED.xlsx; or add --replace to replace them")


def cmd_split(args: argparse.Namespace, out: TextIO) -> int:
    """Plan the hand-out over the judging queue and write each reviewer's workbook."""
    # Imported here: the review rounds load only for their commands.
    from core.analysis.queue import judging_queue
    from core.analysis.rounds import now, plan_hand_out, reviewer_document
    from core.engine.evaluation import evaluate
    from core.io.rounds import (
        check_handed_out,
        check_outputs,
        read_base,
        reviewer_path,
        write_workbooks,
    )
    from core.model.numbers import agreed, counted

    base = read_base(args.input, qrels=args.qrels)
    ev = evaluate(base)
    plan = plan_hand_out(base, judging_queue(ev), str(args.reviewers).split(","),
                         overlap=args.overlap, seed=args.seed, when=now(),
                         base_name=Path(args.input).name)
    paths = [reviewer_path(args.output, args.input, s.reviewer, getattr(args, "to", None))
             for s in plan.shares]
    check_outputs(paths, [p for p in (args.input, args.qrels) if p is not None])
    if not getattr(args, "replace", False):
        check_handed_out(paths, hint=lambda found: _replace_hint(args, found))
    docs = [reviewer_document(base, ev, plan, s.reviewer) for s in plan.shares]
    write_workbooks([(p, evaluate(d)) for p, d in zip(paths, docs, strict=True)])
    out.write(f"handed out {args.input} (base id {plan.base_id}) to "
              f"{counted(len(plan.shares), 'reviewer')}, seed {plan.seed}:\n")
    for share, path in zip(plan.shares, paths, strict=True):
        out.write(f"  {share.reviewer}: {counted(len(share.queries))}, "
                  f"{counted(share.unknown, 'unknown candidate')} -> {path}\n")
    if plan.overlap:
        out.write(f"  {counted(len(plan.overlap))} given to two reviewers (for agreement): "
                  f"{', '.join(plan.overlap)}\n")
    if plan.left_out:
        out.write(f"  {counted(len(plan.left_out))} without an unknown "
                  f"candidate {agreed(len(plan.left_out), 'was')} not handed out\n")
    return 0
