"""``evaluate RUN.parquet --qrels QRELS.parquet --engine spark|dask
[--cluster ADDRESS | --workers N]``: the flags and what they run. A run or
qrels may be a folder of Parquet part files, taken in the natural order of
their paths (``docs/scale.md``). Every command's parser takes the flags
from here: what the engines and their reports need loads when one runs."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli.options import conventions_from_args
from app.scale.common import ENGINES, check_reachable, part_files
from core.errors import InputError, NdcgError
from core.io.files import check_input
from core.model.conventions import Conventions

if TYPE_CHECKING:
    from core.tables import TableResult

__all__ = ["add_engine_arguments", "evaluate_on_engine"]


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    """The flags that say where ``evaluate`` runs."""
    g = p.add_argument_group("where to evaluate (docs/scale.md)")
    g.add_argument("--engine", choices=ENGINES, default="local",
                   help="local (default), or the same engine on Spark or Dask, for a Parquet "
                   "run and Parquet qrels; partitioned by query")
    g.add_argument("--cluster", metavar="ADDRESS",
                   help="Spark master URL (default local[*]) or Dask scheduler address "
                   "(default: a local cluster)")
    g.add_argument("--workers", type=int, metavar="N",
                   help="Dask without --cluster: the local cluster's worker processes (default 2)")


def _check(args: argparse.Namespace) -> None:
    from core.io.columnar import is_parquet

    if args.engine == "local":
        raise NdcgError("--cluster and --workers go with --engine spark or --engine dask")
    if args.workers is not None and (args.engine != "dask" or args.cluster is not None):
        raise NdcgError("--workers sizes the local Dask cluster: use it with --engine dask "
                        "and without --cluster")
    if args.workers is not None and args.workers < 1:
        raise NdcgError("--workers must be at least 1")
    if args.qrels is None:
        raise InputError(f"--engine {args.engine} evaluates a run with its qrels",
                         file=args.input, hint="name them with --qrels QRELS.parquet")
    for path in (args.input, args.qrels):
        if "://" in path:  # hdfs://, s3://: the cluster reads it, not this machine
            continue
        if Path(path).is_dir():
            _check_parts(Path(path), args.engine)
            continue
        check_input(path)
        if not is_parquet(path):
            raise InputError(f"--engine {args.engine} reads Parquet files", file=path,
                             hint="write the run and qrels as Parquet (docs/scale.md)")


def _check_parts(folder: Path, engine: str) -> None:
    """A folder of Parquet part files (Spark's and Dask's writers'; hidden
    files and markers such as ``_SUCCESS`` are skipped, as both engines skip
    them), else an error naming the first other file."""
    from core.io.columnar import is_parquet

    parts = part_files(folder)
    other = next((f for f in parts if not is_parquet(f)), None)
    if not parts or other is not None:
        raise InputError(
            f"--engine {engine} reads a folder of Parquet part files; "
            + (f"{other.name} is not one" if other is not None else "this one holds none"),
            file=str(folder), hint="write the run and qrels as Parquet (docs/scale.md)")


def _on_spark(args: argparse.Namespace, conv: Conventions) -> TableResult:
    from app.scale.spark import evaluate_spark, read_parquet, spark_session

    master = args.cluster or "local[*]"
    if master.startswith("spark://"):
        check_reachable(master, "Spark master")
    with warnings.catch_warnings():
        # pyspark 4 warns on every pandas 3 it meets; it uses none here (applyInArrow)
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas",
                                FutureWarning)
        spark = spark_session(master)
        return evaluate_spark(read_parquet(spark, args.input), read_parquet(spark, args.qrels),
                              conv, run_name=args.input, qrels_name=args.qrels)


def _on_dask(args: argparse.Namespace, conv: Conventions) -> TableResult:
    from app.scale.dask import client, evaluate_dask, read_parquet

    if args.cluster is not None:
        check_reachable(args.cluster, "Dask scheduler")
    with client(args.cluster, args.workers):
        return evaluate_dask(read_parquet(args.input), read_parquet(args.qrels), conv,
                             run_name=args.input, qrels_name=args.qrels)


def evaluate_on_engine(args: argparse.Namespace, out: TextIO) -> int:
    """``evaluate`` on Spark or Dask: the reports of the local ``evaluate``
    (JSON and CSV the same; the table format prints the means)."""
    from core.reports.json import dump_json
    from core.reports.per_query import print_rows_csv, print_rows_summary, rows_json

    _check(args)
    conv = conventions_from_args(args, Conventions())
    result = _on_spark(args, conv) if args.engine == "spark" else _on_dask(args, conv)
    rows = result.per_query.to_pydict()
    if args.format == "json":
        dump_json(rows_json(rows, conv, result.unjudged_queries), out,
                  rows=len(rows["query"]) // len(conv.cutoffs))
    elif args.format == "csv":
        print_rows_csv(rows, out)
    else:
        print_rows_summary(rows, conv, out, result.unjudged_queries)
    return 0
