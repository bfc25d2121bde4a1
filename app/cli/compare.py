"""``ndcg-worksheet compare RUN RUN... [--qrels QRELS] [--baseline RUN] [--export OUT.xlsx] ...``.

Two runs in the table or JSON format give the detailed report of B against A
(:func:`core.analysis.compare.compare`); more runs, another format or the
t-test give the report of many runs
(:func:`core.analysis.compare.many.compare_runs`), whose numbers for two runs
are the same.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from app.cli.ending import nothing_left
from app.cli.evaluate import evaluate_named
from app.cli.export import check_output
from app.cli.notices import (
    say_ids_apart,
    say_judgments_notes,
    say_not_carried,
    say_reopened,
    say_unjudged,
)
from app.cli.options import conventions_from_args
from core.analysis.compare import compare, compare_side
from core.analysis.compare.changes import Side
from core.analysis.compare.many import RunValues, compare_runs
from core.engine.evaluation import Evaluation
from core.errors import InputError
from core.io.files import Head
from core.io.load import load_document
from core.io.pairs import (
    check_exist,
    judged_by_sheet,
    load_pair,
    read_judged_pair,
    read_judged_runs,
)
from core.io.trec import alloc
from core.model.conventions import Conventions
from core.model.document import Document
from core.reports.json import compare_json, dump_json
from core.reports.runs import write_runs
from core.reports.table import print_comparison

__all__ = ["cmd_compare"]


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    """Compare the inputs; print the report, and write the workbook when
    ``--export`` names one."""
    runs = _runs_baseline_first(args)
    resamples = int(getattr(args, "resamples", 10000))
    if resamples < 1:
        raise InputError("--resamples must be at least 1")
    export = getattr(args, "export", None)
    if export is not None:
        from core.io.workbook import check_workbook_target

        check_workbook_target(export)  # OUT.xlsx or OUT.ods
        check_output(export, *runs, args.qrels)
    fmt = getattr(args, "format", "table")
    if len(runs) == 2 and fmt in ("table", "json") and getattr(
            args, "test", "randomization") == "randomization":
        args.run_a, args.run_b = runs
        status = _compare_two(args, out)
    else:
        status = _compare_many(args, runs, out)
    # The process may end without the interpreter's teardown: its last
    # collection and the freeing of both runs' arrays.
    nothing_left()
    return status


def _runs_baseline_first(args: argparse.Namespace) -> list[str]:
    """The runs named, the baseline (``--baseline``, else the first) first."""
    runs = [str(r) for r in getattr(args, "runs", None) or (args.run_a, args.run_b)]
    if len(runs) < 2:
        raise InputError("compare needs two or more runs", hint="name a baseline and a run")
    baseline = getattr(args, "baseline", None)
    if baseline is None:
        return runs
    for i, run in enumerate(runs):
        if run == baseline or (Path(run).exists() and Path(baseline).exists()
                               and os.path.samefile(run, baseline)):
            return [runs[i], *runs[:i], *runs[i + 1:]]
    raise InputError(f"--baseline {baseline} is not one of the runs compared",
                     hint="name the baseline as one of the runs")


def _qrels_head(qrels: str, runs: list[str]) -> Head | str:
    """The first bytes of ``qrels`` (read once: the runs' read takes them,
    :func:`core.io.pairs.check_exist`), or ``qrels`` itself when they cannot
    be read, or a run does not exist (said where the files are checked, in
    their order: a sheet's scale read first named the sheet's refusal
    before a run given by a wrong name)."""
    if not all(Path(run).exists() for run in runs):
        return qrels
    try:
        return check_exist(qrels)[0]
    except InputError:
        return qrels


def _judged_base(head: Head | str, base: Conventions) -> tuple[Conventions, Document | None]:
    """``base`` (the conventions the arguments declare), with the scale of
    the qrels ``head`` when they are an annotators' sheet and ``base``
    declares no rubric (its rubric and guidelines, as ``evaluate RUN
    --qrels SHEET`` reads them), and the sheet's judgments, imported once
    for both and for the join (on ``--rubric`` when declared, which wins
    over a grade column's header range: :func:`core.io.annotator.qrels.sheet_judgments`);
    TREC qrels, JSON and Parquet load nothing of the importer (None)."""
    if not isinstance(head, Head) or not judged_by_sheet(head):
        return base, None
    from core.io.annotator.qrels import sheet_judgments, with_sheet_scale

    judgments = sheet_judgments(head.path, base if base.rubric is not None else None)
    return with_sheet_scale(base, judgments), judgments


def _compare_two(args: argparse.Namespace, out: TextIO) -> int:
    """The detailed report of two runs (B against A)."""
    resamples = int(getattr(args, "resamples", 10000))
    seed = int(getattr(args, "seed", 0))
    export = getattr(args, "export", None)
    ev_a = ev_b = left_out = None
    if args.qrels is None:
        doc_a, doc_b = load_pair(args.run_a, args.run_b)
        conv = conventions_from_args(args, doc_a.conventions)
    else:
        # A run joined with qrels has the default conventions (and an
        # annotators' sheet's scale): they are known before the runs are
        # read, so each run is evaluated as it is read.
        qrels = _qrels_head(args.qrels, [args.run_a, args.run_b])
        base, sheet = _judged_base(qrels, conventions_from_args(args, Conventions()))
        conv = conventions_from_args(args, base)

        def side(doc: Document) -> Side:
            # All compare reads of the scores, made as each run is read; the
            # scores then let go unless the workbook writes them (16 MB a
            # side at 2M rows, held through compare and the report). One
            # run at a time (read_judged_pair's turn, which hands the heap's
            # free pages back after each join): both evaluations'
            # temporaries sat side by side at the read's peak.
            made = compare_side(evaluate_named(doc, conv, args.qrels))
            if export is None:
                doc.release_scores()
                # (trec_eval's id order: 16 MB a side more; the reports
                # read only the contributions of it, made from the ranks)
                made.evaluation.release_order()
            # What follows from what the side keeps (its positions' ranks;
            # the trec_eval preset's gains), made again if compare() reads
            # it: 8 / 24 MB a side at 2M rows, not held under the other
            # run's join and evaluation.
            made.evaluation.release_remade()
            return made

        alloc.map_from(alloc.PAIR_MAP_FROM)
        doc_a, doc_b, ev_a, ev_b, left_out = read_judged_pair(
            args.run_a, args.run_b, qrels, side, sheet=sheet)
        say_judgments_notes(sheet)  # (after the join, as evaluate says them)
    say_reopened([doc_a, doc_b], args)
    if not set(doc_a.query_ids) & set(doc_b.query_ids):
        raise InputError(
            f"{args.run_a} and {args.run_b} share no query",
            hint="compare two rankings of the same queries",
        )
    try:
        result = compare(doc_a, doc_b, conv, resamples=resamples, seed=seed,
                         evaluation_a=ev_a, evaluation_b=ev_b, left_out=left_out)
    except InputError as exc:  # a grade the conventions refuse: in which file, where
        raise _named(exc, conv, (doc_a, args.run_a), (doc_b, args.run_b)) from None
    # The lanes' temporaries stay free in the heap (blocks under 32 MiB are
    # kept there, core.io.trec.alloc): handed back before the report makes
    # its own, which sat above them (peak RSS 496 -> 482 MiB for the table,
    # 634 -> 597 MiB for the JSON at 2M rows a side).
    alloc.hand_back()
    if getattr(args, "format", "table") == "json":
        dump_json(compare_json(result), out, rows=len(result.common))
    else:
        print_comparison(result, out, name_a=args.run_a, name_b=args.run_b)
    for ev, name in ((result.ev_a, args.run_a), (result.ev_b, args.run_b)):
        say_unjudged(ev, name, args)
        say_ids_apart(ev, name, args)
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


def _named(exc: InputError, conv: Conventions, *sides: tuple[Document, str]) -> InputError:
    """A refusal of the comparison's evaluations (it does not say of which
    side), naming the file and place of the side whose grades it refuses
    (each evaluated again on this error path only)."""
    if exc.file is not None or exc.row is None:
        return exc
    for doc, path in sides:
        try:
            evaluate_named(doc, conv, path)
        except InputError as named:
            return named
    return exc


def _compare_many(args: argparse.Namespace, runs: list[str], out: TextIO) -> int:
    """Each run's means and the tests of the pairs, in ``--format``; every
    run is evaluated as it is read and only its NDCG per query kept (its
    evaluation too when a workbook is written)."""
    export = getattr(args, "export", None)
    kept: dict[int, Evaluation] = {}

    def values(ev: Evaluation, i: int) -> RunValues:
        say_unjudged(ev, runs[i], args)
        say_ids_apart(ev, runs[i], args)
        if export is not None:
            kept[i] = ev
        return RunValues.of(ev, runs[i])

    left_out = None
    if args.qrels is None:
        heads = check_exist(*runs)
        first = load_document(heads[0])
        conv = conventions_from_args(args, first.conventions)
        got = [values(evaluate_named(first, conv, runs[0]), 0)]
        del first
        got += [values(evaluate_named(load_document(h), conv, runs[i]), i)
                for i, h in enumerate(heads) if i > 0]
    else:
        qrels = _qrels_head(args.qrels, list(runs))
        base, sheet = _judged_base(qrels, conventions_from_args(args, Conventions()))
        conv = conventions_from_args(args, base)
        got, left_out = read_judged_runs(
            list(runs), qrels,
            lambda doc, i: values(evaluate_named(doc, conv, args.qrels), i),
            sheet=sheet)
        say_judgments_notes(sheet)  # (after the join, as evaluate says them)
    result = compare_runs(
        got, conv, pairs=getattr(args, "pairs", "baseline"),
        correction=getattr(args, "correction", "holm"),
        test=getattr(args, "test", "randomization"), resamples=int(args.resamples),
        seed=int(args.seed), alpha=float(getattr(args, "alpha", 0.05)), left_out=left_out,
    )
    fmt = getattr(args, "format", "table")
    write_runs(result, fmt, out)
    if export is not None:
        from core.io.workbook import export_runs_workbook

        export_runs_workbook(result, [kept[i] for i in range(len(runs))], export)
        if fmt == "table":
            out.write(f"\nwrote {export}\n")
    return 0
