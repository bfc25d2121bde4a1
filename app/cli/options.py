"""The flags several commands share: the convention flags, and the
conventions they give (one flag per field of
:data:`core.model.conventions.FIELDS` that declares one), and an input's
encoding."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from core.model.conventions import FIELDS, ConventionField, Conventions
from core.model.presets import PRESETS, apply_preset

__all__ = ["INPUT_HELP", "QRELS_HELP", "QRELS_TWICE", "Once", "OnceSwitch", "Parser",
           "add_convention_arguments", "add_encoding", "conventions_from_args"]

#: What evaluate's and export's INPUT is.
INPUT_HELP = ("a worksheet CSV/TSV, an audited workbook (.xlsx, .ods), Parquet, or a run "
              "(TREC, Parquet or JSON, with --qrels)")
#: What ``--qrels`` takes (``run``: what the input is then).
QRELS_HELP = ("the judgments: TREC qrels, an annotators' sheet, an audited workbook, "
              "Parquet or JSON ({{query: {{source: grade}}}}); {run} (TREC, Parquet or JSON)")


#: Where a parse keeps each single-value flag's first value (option, value).
_GIVEN = "_given_once"
#: What a second value of ``--qrels`` is told beside the refusal.
QRELS_TWICE = ("one file of judgments is read (to read two judges' sheets together, join "
               "their rows into one sheet with a column naming who judged: each is then an "
               "annotator)")


class _Once:
    """A flag of one value read once: given again with another value,
    refused in one line naming the flag and both values (argparse keeps the
    last, unsaid: ``--gain linear --gain exponential`` computed exponential
    gains; ``--qrels annotators.json --qrels llm.jsonl`` evaluated against
    the LLM's grades alone); the same value again is fine, a file's too
    however written (:func:`_one_value`)."""

    dest: str
    twice: str = "one value is read, give it once"

    def once(self, namespace: argparse.Namespace, value: object) -> None:
        given = namespace.__dict__.setdefault(_GIVEN, {})
        if self.dest in given and not _one_value(given[self.dest], value):
            raise argparse.ArgumentError(
                self,  # type: ignore[arg-type]  # (an argparse.Action, as every subclass is)
                f"given twice, {given[self.dest]!r} and {value!r}: {self.twice}")
        given[self.dest] = value


def _one_value(a: object, b: object) -> bool:
    """Whether a flag's two values are one: equal, or two writings of one
    existing file (``a.qrels``, ``./a.qrels``, its absolute path), which
    were refused as two judges' sheets."""
    return a == b or (isinstance(a, str) and isinstance(b, str) and os.path.isfile(a)
                      and os.path.realpath(a) == os.path.realpath(b))


class Once(_Once, argparse._StoreAction):
    """The action of every flag taking one value (:class:`Parser` makes it
    the default): ``twice``, what a second value is told (``--qrels``:
    :data:`QRELS_TWICE`)."""

    def __init__(self, *args: Any, twice: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.twice = twice or _Once.twice

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None,
                 ) -> None:
        if option_string is not None:  # (a positional is given once by its place)
            self.once(namespace, values)
        super().__call__(parser, namespace, values, option_string)


class OnceSwitch(_Once, argparse.BooleanOptionalAction):
    """A switch and its ``--no-`` form read once: ``--exclude-unjudged
    --no-exclude-unjudged`` refused as :class:`Once` refuses a value."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None,
                 ) -> None:
        if option_string is not None:
            self.once(namespace, option_string)
        super().__call__(parser, namespace, values, option_string)


class Parser(argparse.ArgumentParser):
    """The command line's parser: a flag taking one value is :class:`Once`
    unless it says its action (``append`` repeats: ``--map``, ``--k``);
    its commands' parsers are of this class too (``add_subparsers``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, Once)
        self.register("action", "store", Once)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extra = super().parse_known_args(args, namespace)
        parsed.__dict__.pop(_GIVEN, None)  # (the values read once: no argument's)
        return parsed, extra


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
            g.add_argument(f.flag, dest=dest, action=OnceSwitch,
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
