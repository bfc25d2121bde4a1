"""The flags several commands share: the convention flags, and the
conventions they give (one flag per field of
:data:`core.model.conventions.FIELDS` that declares one), and an input's
encoding."""

from __future__ import annotations

import argparse

from core.model.conventions import FIELDS, ConventionField, Conventions
from core.model.presets import PRESETS, apply_preset

__all__ = ["INPUT_HELP", "QRELS_HELP", "Once", "add_convention_arguments", "add_encoding",
           "conventions_from_args"]

#: What evaluate's and export's INPUT is.
INPUT_HELP = ("a worksheet CSV/TSV, an audited workbook (.xlsx, .ods), Parquet, or a run "
              "(TREC, Parquet or JSON, with --qrels)")
#: What ``--qrels`` takes (``run``: what the input is then).
QRELS_HELP = ("the judgments: TREC qrels, an annotators' sheet, an audited workbook, "
              "Parquet or JSON ({{query: {{source: grade}}}}); {run} (TREC, Parquet or JSON)")


class Once(argparse.Action):
    """A flag read once: given again with another value, refused in one line
    (argparse keeps the last, unsaid: ``--qrels annotators.json --qrels
    llm.jsonl`` evaluated against the LLM's grades alone)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None and before != values:
            raise argparse.ArgumentError(
                self, f"given twice, {before!r} and {values!r}: one file of judgments is read "
                "(to read two judges' sheets together, join their rows into one sheet with a "
                "column naming who judged: each is then an annotator)")
        setattr(namespace, self.dest, values)


def add_encoding(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--encoding", metavar="NAME",
        help="the encoding of a CSV/TSV input that is not UTF-8 and has no byte order mark, "
        "e.g. cp1252 (without it, a byte that is not UTF-8 is an error naming its line)",
    )


def _flagged() -> list[ConventionField]:
    return [f for f in FIELDS if f.flag]


def add_convention_arguments(p: argparse.ArgumentParser) -> None:
    """The convention flags shared by every command."""
    g = p.add_argument_group("conventions (explicit flags override the preset)")
    g.add_argument("--preset", choices=sorted(PRESETS), help="start from a peer's conventions")
    for f in _flagged():
        dest = f"convention_{f.name}"
        if f.kind == "flag":
            g.add_argument(f.flag, dest=dest, action=argparse.BooleanOptionalAction,
                           help=f.help)
        elif f.kind == "choice":
            g.add_argument(f.flag, dest=dest, choices=[m.value for m in f.choices()],
                           help=f.help)
        elif f.kind == "cutoffs":
            g.add_argument(f.flag, dest=dest, action="append", metavar=f.metavar, help=f.help)
        else:
            g.add_argument(f.flag, dest=dest, metavar=f.metavar or None, help=f.help)


def conventions_from_args(args: argparse.Namespace, base: Conventions) -> Conventions:
    """The document's conventions, then the preset, then explicit flags (each
    changes its own field: a preset's handling of negative and fractional
    grades stays under ``--gain``)."""
    conv = base
    if args.preset:
        conv = apply_preset(conv, args.preset)
    for f in _flagged():
        value = getattr(args, f"convention_{f.name}", None)
        if value is not None:
            conv = f.set(conv, f.read(value))
    return conv
