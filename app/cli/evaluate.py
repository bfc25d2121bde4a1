"""``ndcg-worksheet evaluate INPUT [--qrels QRELS] [--format table|json|csv]``."""

from __future__ import annotations

import argparse
from typing import TextIO

from app.cli.notices import say_reopened
from app.cli.options import conventions_from_args
from core.engine.evaluation import Evaluation, evaluate
from core.errors import InputError
from core.io.load import load_document
from core.model.conventions import Conventions
from core.model.document import Document
from core.reports.csv import print_csv
from core.reports.json import dump_evaluation_json
from core.reports.table import print_table

__all__ = ["cmd_evaluate", "evaluate_input", "load_input"]


def load_input(args: argparse.Namespace) -> tuple[Document, Conventions]:
    """The document named by ``args.input`` (joined with ``args.qrels`` when
    given) and the conventions its flags give."""
    # A rubric on the command line also reads a table's grade labels.
    rubric = conventions_from_args(args, Conventions()).rubric
    doc = load_document(args.input, qrels=args.qrels, encoding=getattr(args, "encoding", None),
                        rubric=rubric)
    conv = conventions_from_args(args, doc.conventions)
    return doc, conv


def evaluate_input(doc: Document, conv: Conventions, args: argparse.Namespace) -> Evaluation:
    """``evaluate(doc, conv)``; a grade it refuses (a negative grade under
    the sklearn preset or exponential gain) names the file the grades came
    from: the qrels, else the input."""
    try:
        return evaluate(doc, conv)
    except InputError as exc:
        if exc.file is None:
            exc.file = str(args.qrels or args.input)
            exc.args = (str(exc),)
        raise


def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    if getattr(args, "engine", "local") != "local" or getattr(args, "cluster", None) \
            or getattr(args, "workers", None) is not None:
        from app.cli.engine import evaluate_on_engine

        return evaluate_on_engine(args, out)
    doc, conv = load_input(args)
    say_reopened([doc], args)
    ev = evaluate_input(doc, conv, args)
    if args.format == "json":
        dump_evaluation_json(ev, out)
    elif args.format == "csv":
        print_csv(ev, out)
    else:
        print_table(ev, out)
    return 0
