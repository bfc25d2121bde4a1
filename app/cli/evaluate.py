"""``ndcg-worksheet evaluate INPUT [--qrels QRELS] [--format table|json|csv]``.

Each module is loaded when the step that needs it comes (the parser of every
command imports this one): the reader's when the input is read, the engine's
and one report's after it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from app.cli.ending import nothing_left
from app.cli.notices import say_empty_run, say_ids_apart, say_reopened, say_unjudged
from app.cli.options import conventions_from_args
from core.errors import InputError
from core.model.conventions import Conventions

if TYPE_CHECKING:
    from core.engine.evaluation import Evaluation
    from core.model.document import Document

__all__ = ["cmd_evaluate", "evaluate_input", "evaluate_named", "load_input"]


def _read(args: argparse.Namespace, flags: Conventions) -> Document:
    """The document named by ``args.input`` (joined with ``args.qrels`` when
    given), read knowing the conventions the flags give (``flags``: the
    rubric reads a table's grade labels; a run under trec_eval's tie order
    is ordered beside its join)."""
    from core.io.load import annotators_not_read, load_document

    doc = load_document(args.input, qrels=args.qrels, encoding=getattr(args, "encoding", None),
                        rubric=flags.rubric, ties=flags.ties)
    if args.qrels:
        from app.cli.notices import say_judgments_notes

        say_judgments_notes(doc)  # what an annotators' sheet's import left out
    left = "" if args.qrels or args.input == "-" else annotators_not_read(args.input)
    if left:  # (read back by the import alone)
        from app.cli.notices import say_warning

        say_warning(left)
    return doc


def load_input(args: argparse.Namespace) -> tuple[Document, Conventions]:
    """The document named by ``args.input`` (joined with ``args.qrels`` when
    given) and the conventions its flags give (a bad convention flag is
    refused before any file is read)."""
    doc = _read(args, conventions_from_args(args, Conventions()))
    return doc, conventions_from_args(args, doc.conventions)


def evaluate_input(doc: Document, conv: Conventions, args: argparse.Namespace) -> Evaluation:
    """``evaluate(doc, conv)``; a grade it refuses (a negative grade under
    the sklearn preset or exponential gain) names the file the grades came
    from: the qrels, else the input, and the place of the first such row
    (:func:`evaluate_named`)."""
    return evaluate_named(doc, conv, args.qrels or args.input, for_report=True)


def evaluate_named(doc: Document, conv: Conventions, grades: str, *,
                   for_report: bool = False) -> Evaluation:
    """``evaluate(doc, conv)``; a grade it refuses names ``grades`` (the file
    the grades came from) and the candidate's place in it: a text file's
    line, a workbook's sheet, row and column, a Parquet table's row and
    column (:func:`core.io.locate.name_the_row`)."""
    from core.engine.evaluation import evaluate

    try:
        return evaluate(doc, conv, for_report=for_report)
    except InputError as exc:
        from core.io.locate import name_the_row

        raise name_the_row(exc, doc, grades) from None


def _printer(fmt: str) -> Callable[[Evaluation, TextIO], None]:
    """What prints the evaluation in ``fmt`` (only that report's module loaded)."""
    if fmt == "json":
        from core.reports.json import dump_evaluation_json

        return dump_evaluation_json
    if fmt == "csv":
        from core.reports.csv import print_csv

        return print_csv
    from core.reports.table import print_table

    return print_table


def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    if getattr(args, "engine", "local") != "local" or getattr(args, "cluster", None) \
            or getattr(args, "workers", None) is not None:
        from app.cli.engine import evaluate_on_engine

        return evaluate_on_engine(args, out)
    doc, conv = load_input(args)
    say_reopened([doc], args)
    ev = evaluate_input(doc, conv, args)
    _printer(args.format)(ev, out)
    say_unjudged(ev, args.input, args)
    say_ids_apart(ev, args.input, args)
    say_empty_run(args.input, args)
    nothing_left()  # the process may end without the interpreter's teardown (~30 ms)
    return 0
