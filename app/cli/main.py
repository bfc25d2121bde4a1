"""The command line: ``ndcg-worksheet evaluate|export|compare|import|split|merge|example ...``.

The parser and the dispatch; the commands are :mod:`app.cli.evaluate`,
:mod:`app.cli.export`, :mod:`app.cli.compare`, :mod:`app.cli.import_cmd`,
the review round's :mod:`app.cli.split` and :mod:`app.cli.merge`, and
:mod:`app.cli.example` (the bundled example's path); the
convention flags :mod:`app.cli.options`. Pure Python: no Qt is imported here.
Bad input ends with one line naming the file, line and column (control
characters in it shown escaped), and exit status 2; never a traceback. An
export never writes over one of its inputs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from app.cli.ending import end
from app.cli.engine import add_engine_arguments
from app.cli.evaluate import cmd_evaluate
from app.cli.example import add_example_parser
from app.cli.export import add_export_arguments, cmd_export
from app.cli.import_cmd import add_import_parser
from app.cli.installation import add_installation_arguments
from app.cli.merge import add_merge_arguments, cmd_merge
from app.cli.notices import add_strict
from app.cli.options import (
    INPUT_HELP,
    QRELS_HELP,
    QRELS_TWICE,
    Parser,
    add_convention_arguments,
    add_encoding,
)
from app.cli.split import add_split_arguments, cmd_split
from app.cli.stdio import StdinInput
from core.errors import NdcgError
from core.model.presets import PRESETS
from core.reports.text import visible

__all__ = ["EXIT_STATUSES", "build_parser", "main"]

PROG = "ndcg-worksheet"
#: The editor's --preset choices as its usage line shows them (app.opening's parser).
EDITOR_PRESETS = "|".join(PRESETS)

#: Every exit status a command ends with, and what it means: said by each
#: command's --help and in the README (a test runs each).
EXIT_STATUSES = (
    (0, "done (also when the reader of the output stopped early, as head does)"),
    (1, "an internal error: a bug, shown with its traceback (please report it)"),
    (2, "a usage error (an argument the command does not take) or an input error (a file "
        "that cannot be read or written as asked, said in one line on stderr naming the "
        "file, line and column; with --strict, a refused workbook cell; for import, "
        "judgments rejected without --allow-rejected)"),
    (130, "interrupted (Ctrl+C)"),
)
EPILOG = "Exit status: " + "; ".join(f"{code} {what}" for code, what in EXIT_STATUSES) + "."
STDIN_HELP = ("An input given as - is read from standard input (its format told by its "
              "bytes; named <stdin> in messages); -o - writes a text format to standard "
              "output.")


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    # Imported here: the comparison package loads only for this command, so
    # evaluate and export start without it.
    from app.cli.compare import cmd_compare as run

    return run(args, out)


#: What each command that reads a worksheet does, in a sentence or two: the
#: commands' --help descriptions, each followed by its :data:`EXAMPLES`.
DESCRIPTIONS = {
    "evaluate": "Print NDCG per query and the means, at each cutoff, under the conventions "
    "the flags declare (the defaults, or a peer's with --preset). A TREC run is given with "
    "its qrels: evaluate run.txt --qrels qrels.txt --preset trec_eval --k 10.",
    "export": "Write the audited workbook: each candidate's original and current grade, "
    "and its gain, discount and contribution, each query's DCG, ideal DCG and NDCG, and "
    "the means, as live formulas under the declared conventions (or the worksheet as "
    "CSV/TSV, its grades as TREC qrels, its ranking as a TREC run).",
    "split": "Hand a round of grading out: each reviewer gets a workbook of their share "
    "of the queries that still have unknown grades (with --overlap, some queries go to "
    "two reviewers, for agreement); merge takes the workbooks back.",
    "merge": "Take a round back, a three-way merge against the base: a grade one "
    "reviewer changed is taken; on the queries given to two reviewers their grades become "
    "ratings and the grade their declared consensus; different grades elsewhere are "
    "conflicts, the base's grade kept (the editor's Conflicts dock resolves them). A "
    "workbook handed out from another base is refused and named. The base is never "
    "changed; the merged workbook's audit log names who gave each grade.",
}
_COPY = 'cp "$(ndcg-worksheet example --format xlsx)" base.xlsx'
_SPLIT = "ndcg-worksheet split base.xlsx --reviewers ana,ben --overlap 1 -o round1"
#: Each command's example: shell lines that run as written, in order, in an
#: empty folder, on the bundled example (tests/test_cli.py runs them).
EXAMPLES = {
    "evaluate": ['ndcg-worksheet evaluate "$(ndcg-worksheet example)" --k 10 --k all'],
    "export": ['ndcg-worksheet export "$(ndcg-worksheet example)" -o audited.xlsx'],
    "split": [_COPY, _SPLIT],
    "merge": [_COPY, _SPLIT, "ndcg-worksheet merge base.xlsx round1/base-ana.xlsx "
              "round1/base-ben.xlsx -o merged.xlsx"],
}


def _described(name: str) -> str:
    """Command ``name``'s --help description: what it does, then its example's
    lines, each on a line of its own (:class:`_KeepExamples` keeps them)."""
    return (DESCRIPTIONS[name] + "\n\nExample:\n"
            + "\n".join(f"  {line}" for line in EXAMPLES[name]))


class _KeepExamples(argparse.HelpFormatter):
    """argparse's formatter, but a description's lines that start with two
    spaces (commands to copy) are kept whole, not run into the text."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        parts = []
        for paragraph in text.split("\n\n"):
            lines = paragraph.split("\n")
            kept = [x for x in lines if x.startswith("  ")]
            prose = "\n".join(x for x in lines if not x.startswith("  "))
            filled = super()._fill_text(prose, width, indent) if prose else ""
            parts.append("\n".join([filled, *(indent + x for x in kept)]).strip("\n"))
        return "\n\n".join(parts)


def _program() -> argparse.ArgumentParser:
    """The program's parser before its commands: what it is, and the flags about
    the installation (``--version``, the desktop entry)."""
    p = Parser(
        prog=PROG,
        usage=f"{PROG} [FILE] [--qrels QRELS] [--preset {EDITOR_PRESETS}]  (the editor)\n"
        f"       {PROG} COMMAND ...  (see {PROG} COMMAND --help)\n"
        f"       {PROG} [-h] [--version] [--install-desktop-entry] "
        "[--uninstall-desktop-entry]",
        description="Grade ranked candidates and compute graded NDCG with every convention "
        "declared. Without a command, opens the desktop editor on FILE: a worksheet "
        "(CSV/TSV), an audited workbook (.xlsx, .ods), a Parquet table, a TREC run with "
        "--qrels (TREC qrels or an annotators' sheet), or an annotators' sheet (the import "
        "wizard); without FILE, on the bundled example. --preset opens it under a peer's "
        "conventions.",
    )
    add_installation_arguments(p)
    return p


def _add_compare_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The compare command and its arguments: the conventions and the tests."""
    c = sub.add_parser(
        "compare", help="compare two or more rankings of the same queries",
        description="Two runs: the detailed report of B against A (per query, candidates that "
        "moved, what changed). More runs (or --format csv|markdown|latex, or --pairs all): "
        "each run's mean and, per pair, the mean difference, the paired randomization test, "
        "the bootstrap interval, the paired t-test and the corrected p-value.",
    )
    c.add_argument("runs", nargs="+", metavar="RUN",
                   help="two or more runs or worksheets; the first is the baseline")
    c.add_argument("--qrels", twice=QRELS_TWICE,
                   help=QRELS_HELP.format(run="each RUN is then a run"))
    add_convention_arguments(c)
    c.add_argument("--format", choices=["table", "json", "csv", "markdown", "latex"],
                   default="table",
                   help="csv: every query's NDCG per run; markdown, latex: the table papers "
                   "print, significance marked and explained in a footnote")
    c.add_argument("--baseline", metavar="RUN",
                   help="the run the others are compared with (default: the first)")
    c.add_argument("--pairs", choices=["baseline", "all"], default="baseline",
                   help="test the baseline against each run, or every pair")
    c.add_argument("--correction", choices=["holm", "bonferroni", "none"], default="holm",
                   help="multiple-testing correction over the pairs at each cutoff")
    c.add_argument("--test", choices=["randomization", "t-test"], default="randomization",
                   help="the test whose corrected p-values mark significance")
    c.add_argument("--alpha", type=float, default=0.05,
                   help="corrected p-values at or under this are marked significant")
    c.add_argument("--resamples", type=int, default=10000,
                   help="resamples of the randomization test and the bootstrap interval "
                   "(default 10000; n queries with 2^n at most this take every sign vector: "
                   "13 or fewer at the default)")
    c.add_argument("--seed", type=int, default=0,
                   help="the seed of the resamples (default 0: the same p-values every time)")
    c.add_argument(
        "--export", metavar="OUT.xlsx",
        help="also write a workbook (.xlsx, or .ods for LibreOffice): both runs' audited "
        "sheets and a Comparison sheet whose NDCG values, deltas and means are live formulas",
    )
    add_strict(c)
    c.set_defaults(func=cmd_compare)


def build_parser() -> argparse.ArgumentParser:
    p = _program()
    # prog given: the commands' usage lines start "ndcg-worksheet COMMAND", not
    # with the program's usage above.
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", prog=PROG)

    e = sub.add_parser("evaluate", help="print NDCG per query and the means",
                       description=_described("evaluate"),
                       formatter_class=_KeepExamples)
    e.add_argument("input", help=INPUT_HELP)
    e.add_argument("--qrels", twice=QRELS_TWICE, help=QRELS_HELP.format(run="INPUT is then a run"))
    add_encoding(e)
    add_convention_arguments(e)
    e.add_argument("--format", choices=["table", "json", "csv"], default="table",
                   help="table (default): conventions, NDCG per query, means; json: also "
                   "the DCG, the ideal DCG and an unresolved query's bounds; csv: a row per "
                   "query and cutoff")
    add_engine_arguments(e)
    add_strict(e)
    e.set_defaults(func=cmd_evaluate)

    x = sub.add_parser(
        "export",
        help="write an audited workbook with live formulas (or CSV/TSV, TREC qrels or run)",
        description=_described("export"),
        formatter_class=_KeepExamples,
    )
    add_export_arguments(x)
    x.set_defaults(func=cmd_export)

    _add_compare_parser(sub)

    add_import_parser(sub)

    s = sub.add_parser("split", help="hand a workbook out to reviewers, one workbook each",
                       description=_described("split"),
                       formatter_class=_KeepExamples)
    add_split_arguments(s)
    s.set_defaults(func=cmd_split)

    m = sub.add_parser("merge", help="merge the reviewers' returned workbooks into one",
                       description=_described("merge"),
                       formatter_class=_KeepExamples)
    add_merge_arguments(m)
    add_strict(m)
    m.set_defaults(func=cmd_merge)
    add_example_parser(sub)
    _add_epilogs(p, sub.choices)
    return p


def _add_epilogs(parser: argparse.ArgumentParser,
                 commands: dict[str, argparse.ArgumentParser]) -> None:
    """Every --help ends with the exit statuses; those of the commands that
    take ``-`` say so first."""
    for name, command in (("", parser), *commands.items()):
        command.epilog = (EPILOG if name in ("split", "merge", "example")
                          else f"{STDIN_HELP} {EPILOG}")


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run one command; returns the exit status."""
    out = out or sys.stdout
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        _unrecognized(parser, args.command, extra,
                      cutoffs="--k" in (sys.argv[1:] if argv is None else argv))
    stdin = StdinInput(args)
    try:
        with stdin:
            return int(args.func(args, stdin.output(out)))
    except NdcgError as exc:
        # One line, whatever the message quotes (an id with a line break or an
        # escape sequence is shown escaped, never acted on by the terminal).
        print(f"{PROG}: error: {visible(stdin.named(str(exc)))}", file=sys.stderr)
        return 2
    except MemoryError:  # (the editor says it naming the file: app.opening.out_of_memory)
        print(f"{PROG}: error: not enough memory for this input (close other programs and "
              "run it again, or run it on a machine with more memory)", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # what no reader made an InputError: an output not written
        print(f"{PROG}: error: {visible(_unwritten(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _unrecognized(parser: argparse.ArgumentParser, command: str, extra: list[str], *,
                  cutoffs: bool) -> None:
    """Exit as argparse does for arguments no flag took, with the command's
    usage (not the program's); a second number after ``--k`` (``--k 5 10``,
    as trec_eval's ``-m ndcg_cut.5,10`` lists them; ``cutoffs``: --k was
    given) says how cutoffs are given."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    hint = ""
    if cutoffs and any(x == "all" or x.isdigit() for x in extra):
        hint = " (a flag takes one value: give several cutoffs as --k 5 --k 10, or --k 5,10)"
    commands.choices[command].error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def _unwritten(exc: OSError) -> str:
    """The line for an ``OSError`` a command let through: in practice an
    output that cannot be written (a full disk, ``> /dev/full``, a device
    error; the readers name their own). What standard output still holds is
    dropped when it cannot be written either, so that the process's ending
    does not raise it again."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # a standard output with no descriptor
            pass
    from core.io.atomic import write_reason  # (Save's words for the same failures)

    if exc.filename:
        return f"cannot write {exc.filename}: {write_reason(exc)}"
    return f"cannot write the output: {write_reason(exc)}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(end(main()))
