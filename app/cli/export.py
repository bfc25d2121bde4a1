"""``ndcg-worksheet export INPUT -o OUTPUT [--to FORMAT]``: an audited workbook,
CSV/TSV, or TREC qrels or run."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from app.cli.evaluate import evaluate_input, load_input
from app.cli.notices import say_not_carried, say_reopened
from core.engine.readback import check_computable
from core.errors import InputError, NdcgError

__all__ = ["EXPORT_FORMATS", "cmd_export", "refuse_writing_over_inputs"]

EXPORT_FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".tsv": "tsv", ".qrels": "qrels", ".run": "run"}


def _same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): compare where they lead
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_writing_over_inputs(output: str | Path, *inputs: str | Path | None) -> None:
    """Raise :class:`InputError` when ``output`` is one of ``inputs`` (the same
    file by any path: a link, ``./a.csv``, a hard link): an export never
    rewrites what it reads."""
    for given in inputs:
        if given is not None and _same_file(output, given):
            raise InputError("the output is the input file; nothing was written",
                             file=str(output), hint="name another output file")


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    # Each writer is imported when used: the workbook writer's packages load slowly.
    kind = args.to or EXPORT_FORMATS.get(Path(args.output).suffix.lower())
    if kind is None:
        raise NdcgError(
            f"cannot tell the format of {args.output!r} from its suffix; "
            f"name it with --to {'|'.join(sorted(set(EXPORT_FORMATS.values())))}"
        )
    refuse_writing_over_inputs(args.output, args.input, args.qrels)
    doc, conv = load_input(args)
    say_reopened([doc], args)
    doc.conventions = conv
    if kind == "xlsx":
        from core.io.workbook import check_fits, export_workbook
        from core.io.workbook.additions import additions_to_keep

        check_fits(doc, conv, args.output)  # before anything is computed
        keep = additions_to_keep(args.output, args.input)  # what people added to the input
        say_not_carried(keep.not_carried if keep else [])
        export_workbook(evaluate_input(doc, conv, args), args.output, keep=keep)
        out.write(f"wrote {args.output}\n")
    elif kind in ("csv", "tsv"):
        from core.io.delimited import write_delimited

        check_computable(doc, args.output)  # what we write, we read
        write_delimited(doc, args.output, delimiter="," if kind == "csv" else "\t")
        out.write(f"wrote {args.output}: {len(doc)} candidates\n")
    elif kind == "qrels":
        from core.io.delimited import qrels_not_kept
        from core.io.trec.write import qrels_rows, write_qrels

        check_computable(doc, args.output)
        qrels_rows(doc, args.output)  # an id qrels cannot hold: refused before anything
        say_not_carried(qrels_not_kept(doc), written="the qrels")  # named before writing
        n = write_qrels(doc, args.output)
        out.write(f"wrote {args.output}: {n} judgments from the current grades "
                  "(unknown and unrateable left out)\n")
    else:
        from core.io.trec import write_run

        n = write_run(doc, args.output)
        out.write(f"wrote {args.output}: {n} ranked lines\n")
    return 0
