"""``ndcg-worksheet export INPUT -o OUTPUT [--to FORMAT]``: an audited workbook,
CSV/TSV, or TREC qrels or run."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from app.cli.evaluate import load_input
from core.engine.evaluation import evaluate
from core.errors import NdcgError

__all__ = ["EXPORT_FORMATS", "cmd_export"]

EXPORT_FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".tsv": "tsv", ".qrels": "qrels", ".run": "run"}


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    # Each writer is imported when used: the workbook writer's packages load slowly.
    kind = args.to or EXPORT_FORMATS.get(Path(args.output).suffix.lower())
    if kind is None:
        raise NdcgError(
            f"cannot tell the format of {args.output!r} from its suffix; "
            f"name it with --to {'|'.join(sorted(set(EXPORT_FORMATS.values())))}"
        )
    doc, conv = load_input(args)
    doc.conventions = conv
    if kind == "xlsx":
        from core.io.workbook import export_workbook

        export_workbook(evaluate(doc), args.output)
        out.write(f"wrote {args.output}\n")
    elif kind in ("csv", "tsv"):
        from core.io.delimited import write_delimited

        write_delimited(doc, args.output, delimiter="," if kind == "csv" else "\t")
        out.write(f"wrote {args.output}: {len(doc)} candidates\n")
    elif kind == "qrels":
        from core.io.trec import write_qrels

        n = write_qrels(doc, args.output)
        out.write(f"wrote {args.output}: {n} judgments from the current grades "
                  "(unknown and unrateable left out)\n")
    else:
        from core.io.trec import write_run

        n = write_run(doc, args.output)
        out.write(f"wrote {args.output}: {n} ranked lines\n")
    return 0
