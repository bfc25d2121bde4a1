"""``ndcg-worksheet export INPUT -o OUTPUT [--to FORMAT]``: an audited workbook,
CSV/TSV, or TREC qrels or run."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli.evaluate import evaluate_input, load_input
from app.cli.notices import add_strict, say_not_carried, say_reopened, say_warning
from app.cli.options import (
    INPUT_HELP,
    QRELS_HELP,
    QRELS_TWICE,
    add_convention_arguments,
    add_encoding,
)
from app.cli.stdio import STDIN, text_output
from core.errors import InputError, NdcgError

if TYPE_CHECKING:
    from core.model.document import Document

__all__ = ["BINARY_FORMATS", "EXPORT_FORMATS", "add_export_arguments", "check_output", "cmd_export",
           "output_kind", "refuse_writing_over_inputs"]

EXPORT_FORMATS = {".xlsx": "xlsx", ".ods": "ods", ".csv": "csv", ".tsv": "tsv",
                  ".qrels": "qrels", ".run": "run"}
#: The formats that are not text: never written to standard output.
BINARY_FORMATS = frozenset({"xlsx", "ods"})


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


def check_output(output: str | Path, *inputs: str | Path | None) -> None:
    """Refuse ``output`` before any input is read: one of ``inputs``
    (:func:`refuse_writing_over_inputs`), read-only or open in LibreOffice or
    Excel (:func:`core.io.atomic.check_writable`; standard output is no file).
    A 2M-row run was read and evaluated, and its warnings said, before the
    write refused a workbook open in LibreOffice."""
    refuse_writing_over_inputs(output, *inputs)
    if str(output) != STDIN:
        from core.io.atomic import check_writable

        check_writable(output)


def add_export_arguments(x: argparse.ArgumentParser) -> None:
    """The export command's arguments."""
    x.add_argument("input", help=INPUT_HELP)
    x.add_argument("-o", "--output", required=True,
                   help="the file to write: .xlsx, .ods, .csv, .tsv, .qrels or .run; - writes "
                   "standard output (a text format, named with --to)")
    x.add_argument("--to", choices=sorted(set(EXPORT_FORMATS.values())),
                   help="the format, when the suffix does not tell")
    x.add_argument("--qrels", twice=QRELS_TWICE, help=QRELS_HELP.format(run="INPUT is then a run"))
    x.add_argument("--run-tag", metavar="TAG",
                   help="a .run output's tag (each line's sixth field); default: the input "
                   "run's own, as its file wrote it, else ndcg-worksheet")
    add_encoding(x)
    add_convention_arguments(x)
    add_strict(x)


def output_kind(output: str, to: str | None, formats: dict[str, str]) -> str:
    """The format to write ``output`` in: ``to``, else its suffix's (one of
    ``formats``, suffix -> format). Standard output (``-``) takes the text
    formats only, named with ``--to``."""
    if output == STDIN:
        if to is None:
            raise InputError("standard output (-o -) has no suffix to tell the format",
                             hint="name it with --to " + "|".join(_text_formats(formats)))
        if to not in _text_formats(formats):
            raise InputError(f"{to} is a binary format: it is not written to standard output",
                             hint=f"name an OUT.{to} file, or --to "
                                  + "|".join(_text_formats(formats)))
        return to
    kind = to or formats.get(Path(output).suffix.lower())
    if kind is None:
        raise NdcgError(f"cannot tell the format of {output!r} from its suffix; "
                        f"name it with --to {'|'.join(sorted(set(formats.values())))}")
    return kind


def _text_formats(formats: dict[str, str]) -> list[str]:
    return sorted(set(formats.values()) - BINARY_FORMATS)


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    # Each writer is imported when used: the workbook writer's packages load slowly.
    kind = output_kind(args.output, args.to, EXPORT_FORMATS)
    if args.run_tag is not None and kind != "run":  # (it was dropped in silence)
        raise NdcgError(f"--run-tag tags a run's lines; {args.output} is written as {kind}: "
                        "name a .run output (or --to run), or leave --run-tag out")
    check_output(args.output, args.input, args.qrels)
    doc, conv = load_input(args)
    say_reopened([doc], args)
    doc.conventions = conv
    # What was written is said on stderr when the output itself goes to stdout.
    said = sys.stderr if args.output == STDIN else out
    name = "standard output" if args.output == STDIN else args.output
    if kind in BINARY_FORMATS:
        from core.io.workbook import check_fits, check_workbook_target, export_workbook
        from core.io.workbook.additions import additions_to_keep

        check_workbook_target(args.output, kind)  # .ods bytes only under an .ods name
        check_fits(doc, conv, args.output)  # before anything is computed
        keep = additions_to_keep(args.output, args.input)  # what people added to the input
        say_not_carried(keep.not_carried if keep else [])
        export_workbook(evaluate_input(doc, conv, args), args.output, keep=keep)
        said.write(f"wrote {name}\n")
        return 0
    with text_output(args.output, f".{kind}", out) as target:
        done = _write_text(doc, kind, target, args.run_tag)
    said.write(done.format(name) + "\n")  # once it is all out
    return 0


def _write_text(doc: Document, kind: str, target: str, tag: str | None = None) -> str:
    """Write ``doc`` to ``target`` as CSV, TSV, qrels or run (its lines
    tagged ``tag``, else the run's own: :func:`core.io.trec.write.run_tag`);
    what was written, ``{}`` standing for the output's name."""
    from core.engine.readback import check_computable
    from core.model.numbers import counted

    if kind in ("csv", "tsv"):
        from core.io.delimited import KEPT, not_kept, write_delimited

        check_computable(doc, target)  # what we write, we read
        write_delimited(doc, target, delimiter="," if kind == "csv" else "\t")
        lost = not_kept(doc)  # (said once written: a refused write says only why)
        if lost:
            say_warning(f"the {kind.upper()} written keeps {KEPT}, but not: "
                        f"{'; '.join(lost)} (an audited workbook, .xlsx, keeps everything)")
        return f"wrote {{}}: {counted(len(doc), 'candidate')}"
    if kind == "qrels":
        from core.io.delimited import qrels_not_kept
        from core.io.trec.write import qrels_rows, write_qrels

        check_computable(doc, target)
        qrels_rows(doc, target)  # an id qrels cannot hold: refused before anything
        say_not_carried(qrels_not_kept(doc), written="the qrels")  # named before writing
        n = write_qrels(doc, target)
        return (f"wrote {{}}: {counted(n, 'judgment')} from the current grades "
                "(unknown and unrateable left out)")
    from core.io.trec.write import run_tag, write_run

    why = ""
    if tag is None:
        tag, why = run_tag(doc)
    n = write_run(doc, target, tag)
    told = f"{n} ranked lines, tagged {tag!r}" + (f"; {why}: --run-tag names another"
                                                 if why else "")
    return "wrote {}: " + told.replace("{", "{{").replace("}", "}}")  # (a tag's braces kept)
