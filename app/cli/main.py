"""The command line: ``ndcg-worksheet evaluate|export|compare ...``.

Pure Python: no Qt is imported here. Bad input ends with one line naming the
file, line and column, and a non-zero exit status; never a traceback.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from core.analysis.aggregate import summarize, summary_sentence
from core.analysis.bounds import ndcg_bounds
from core.engine.evaluation import Evaluation, Status, evaluate
from core.errors import NdcgError
from core.model.conventions import (
    Conventions,
    Gain,
    IdealInventory,
    Rubric,
    TieRule,
    UnknownRule,
    Weighting,
    ZeroIdealRule,
    format_cutoff,
    parse_cutoff,
)
from core.model.document import Document
from core.model.presets import PRESETS

__all__ = ["add_convention_arguments", "conventions_from_args", "main"]

PROG = "ndcg-worksheet"


def _choices(kind: type[Any]) -> list[str]:
    return [m.value for m in kind]


def add_convention_arguments(p: argparse.ArgumentParser) -> None:
    """The convention flags shared by every command."""
    g = p.add_argument_group("conventions (explicit flags override the preset)")
    g.add_argument("--preset", choices=sorted(PRESETS), help="start from a peer's conventions")
    g.add_argument("--gain", metavar="linear|exponential|G=V,...", help="gain rule")
    g.add_argument(
        "--k", action="append", metavar="N|all", dest="cutoffs",
        help="cutoff; repeat for several (default: all)",
    )
    g.add_argument("--ties", choices=_choices(TieRule))
    g.add_argument("--ideal", choices=_choices(IdealInventory))
    g.add_argument("--unjudged", choices=_choices(UnknownRule), help="unknown grades")
    g.add_argument("--zero-ideal", choices=_choices(ZeroIdealRule))
    g.add_argument("--weighting", choices=_choices(Weighting))
    g.add_argument("--rubric", metavar="G=LABEL,...", help="the permitted grades")


def conventions_from_args(args: argparse.Namespace, base: Conventions) -> Conventions:
    """The document's conventions, then the preset, then explicit flags."""
    conv = base
    if args.preset:
        keep = {"cutoffs": conv.cutoffs, "rubric": conv.rubric, "weighting": conv.weighting}
        conv = PRESETS[args.preset].replace(**keep)
    changes: dict[str, Any] = {}
    if args.gain:
        gain = Gain.parse(args.gain)
        if conv.gain.negative_as_zero:
            # a preset's handling of negative and fractional grades stays
            gain = Gain(gain.rule, gain.table, negative_as_zero=True, truncate=conv.gain.truncate)
        changes["gain"] = gain
    if args.cutoffs:
        ks: list[int | None] = []
        for text in args.cutoffs:
            for part in text.split(","):
                k = parse_cutoff(part)
                if k not in ks:
                    ks.append(k)
        changes["cutoffs"] = tuple(ks)
    for flag, name in (
        ("ties", "ties"), ("ideal", "ideal"), ("unjudged", "unknown"),
        ("zero_ideal", "zero_ideal"), ("weighting", "weighting"),
    ):
        value = getattr(args, flag)
        if value is not None:
            changes[name] = value
    if args.rubric:
        changes["rubric"] = Rubric.parse(args.rubric)
    return conv.replace(**changes) if changes else conv


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def evaluation_json(ev: Evaluation) -> dict[str, Any]:
    """The ``--format json`` object."""
    doc = ev.doc
    queries = []
    for q in range(doc.n_queries):
        cutoffs = []
        for j, k in enumerate(ev.cutoffs):
            item: dict[str, Any] = {
                "k": k,
                "dcg": _num(ev.dcg[q, j]),
                "idcg": _num(ev.idcg[q, j]),
                "ndcg": _num(ev.ndcg[q, j]),
                "status": ev.status(q, j).value,
            }
            if ev.status(q, j) is Status.UNRESOLVED:
                b = ndcg_bounds(ev, q, j)
                item["bounds"] = {"low": b.low, "high": b.high, "exact": b.exact}
            cutoffs.append(item)
        queries.append({
            "query": doc.query_ids[q],
            "status": ev.query_status(q).value,
            "ranked": int(ev.n_ranked[q]),
            "judged": int(ev.n_judged[q]),
            "unknown": int(ev.n_unknown[q]),
            "unrateable": int(ev.n_unrateable[q]),
            "total": int(ev.n_total[q]),
            "cutoffs": cutoffs,
        })
    summary = [
        {
            "k": s.k,
            "mean": s.mean,
            "included": s.included,
            "excluded": s.excluded,
            "weighting": s.weighting.value,
            "sentence": summary_sentence(ev, s),
        }
        for s in summarize(ev)
    ]
    conv = ev.conventions
    return {
        "conventions": {
            **conv.to_dict(),
            "described": [
                {"convention": a, "choice": b, "formula": c} for a, b, c in conv.describe()
            ],
            "matching_presets": conv.matching_presets(),
        },
        "judgment_version": doc.judgment_version or None,
        "queries": queries,
        "summary": summary,
    }


def dump_json(obj: Any, out: TextIO, *, rows: int) -> None:
    """Indented JSON for a few hundred queries; compact (and written by the
    C encoder, ten times faster) beyond, where nobody reads it by eye."""
    if rows <= 500:
        json.dump(obj, out, indent=2)
    else:
        json.dump(obj, out, separators=(",", ":"))
    out.write("\n")


def _fmt(x: float | None) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def print_table(ev: Evaluation, out: TextIO) -> None:
    conv = ev.conventions
    out.write("Conventions\n")
    width = max(len(a) for a, _, _ in conv.describe())
    for name, choice, formula in conv.describe():
        out.write(f"  {name:<{width}}  {choice}  [{formula}]\n")
    if ev.doc.judgment_version:
        out.write(f"  {'judgments':<{width}}  version {ev.doc.judgment_version}\n")
    out.write("\n")
    heads = ["query", "status", "judged"] + [f"NDCG@{format_cutoff(k)}" for k in ev.cutoffs]
    rows = []
    for q in range(ev.doc.n_queries):
        cells = [
            ev.doc.query_ids[q],
            ev.query_status(q).value,
            f"{int(ev.n_judged[q])}/{int(ev.n_total[q])}",
        ]
        for j in range(len(ev.cutoffs)):
            st = ev.status(q, j)
            if st is Status.OK:
                cells.append(_fmt(ev.ndcg[q, j]))
            elif st is Status.UNRESOLVED:
                b = ndcg_bounds(ev, q, j)
                approx = "" if b.exact else "~"
                cells.append(f"[{_fmt(b.low)}, {_fmt(b.high)}]{approx}")
            else:
                cells.append(st.value)
        rows.append(cells)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(heads)]
    out.write("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip() + "\n")
    for r in rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() + "\n")
    out.write("\n")
    for s in summarize(ev):
        excl = ", ".join(f"{n} {why}" for why, n in s.excluded.items()) or "none"
        out.write(
            f"mean NDCG@{format_cutoff(s.k)} = {_fmt(s.mean)} over {s.included} queries "
            f"({s.weighting.label}; excluded: {excl})\n"
        )
    if any(ev.status_code.ravel() == 2):
        out.write("\n[low, high]: the interval unknown grades could still produce "
                  "(~ marks an outer interval)\n")


def print_csv(ev: Evaluation, out: TextIO) -> None:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["query", "k", "dcg", "idcg", "ndcg", "status", "judged", "total"])
    for q in range(ev.doc.n_queries):
        for j, k in enumerate(ev.cutoffs):
            w.writerow([
                ev.doc.query_ids[q], format_cutoff(k),
                *("" if math.isnan(x) else repr(float(x))
                  for x in (ev.dcg[q, j], ev.idcg[q, j], ev.ndcg[q, j])),
                ev.status(q, j).value, int(ev.n_judged[q]), int(ev.n_total[q]),
            ])


def _load(args: argparse.Namespace) -> tuple[Document, Conventions]:
    from core.io.load import load_document

    doc = load_document(args.input, qrels=args.qrels)
    conv = conventions_from_args(args, doc.conventions)
    return doc, conv


def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    doc, conv = _load(args)
    ev = evaluate(doc, conv)
    if args.format == "json":
        dump_json(evaluation_json(ev), out, rows=ev.doc.n_queries)
    elif args.format == "csv":
        print_csv(ev, out)
    else:
        print_table(ev, out)
    return 0


EXPORT_FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".tsv": "tsv", ".qrels": "qrels", ".run": "run"}


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from pathlib import Path

    kind = args.to or EXPORT_FORMATS.get(Path(args.output).suffix.lower())
    if kind is None:
        raise NdcgError(
            f"cannot tell the format of {args.output!r} from its suffix; "
            f"name it with --to {'|'.join(sorted(set(EXPORT_FORMATS.values())))}"
        )
    doc, conv = _load(args)
    doc.conventions = conv
    if kind == "xlsx":
        from core.io.workbook import export_workbook

        export_workbook(doc, args.output)
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


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    from core.analysis.compare import run_compare_command

    return int(run_compare_command(args, out))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Grade ranked candidates and compute graded NDCG with every convention "
        "declared. Without a command, opens the desktop editor.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    e = sub.add_parser("evaluate", help="print NDCG per query and the means")
    e.add_argument("input", help="worksheet CSV/TSV, workbook .xlsx, or TREC run (with --qrels)")
    e.add_argument("--qrels", help="TREC qrels file; INPUT is then a TREC run")
    add_convention_arguments(e)
    e.add_argument("--format", choices=["table", "json", "csv"], default="table")
    e.set_defaults(func=cmd_evaluate)

    x = sub.add_parser(
        "export",
        help="write an audited workbook with live formulas (or CSV/TSV, TREC qrels or run)",
    )
    x.add_argument("input")
    x.add_argument("-o", "--output", required=True,
                   help="the file to write: .xlsx, .csv, .tsv, .qrels or .run")
    x.add_argument("--to", choices=sorted(set(EXPORT_FORMATS.values())),
                   help="the format, when the suffix does not tell")
    x.add_argument("--qrels")
    add_convention_arguments(x)
    x.set_defaults(func=cmd_export)

    c = sub.add_parser("compare", help="compare two rankings of the same queries")
    c.add_argument("run_a")
    c.add_argument("run_b")
    c.add_argument("--qrels")
    add_convention_arguments(c)
    c.add_argument("--format", choices=["table", "json"], default="table")
    c.add_argument("--resamples", type=int, default=10000)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument(
        "--export", metavar="OUT.xlsx",
        help="also write a workbook: both runs' audited sheets and a Comparison sheet whose "
        "NDCG values, deltas and means are live formulas",
    )
    c.set_defaults(func=cmd_compare)
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run one command; returns the exit status."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args, out))
    except NdcgError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{PROG}: error: not enough memory for this input", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
