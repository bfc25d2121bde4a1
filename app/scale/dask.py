"""Evaluate on Dask: rows shuffled by group of whole queries, one engine call
per partition, over dask.distributed.

:func:`evaluate_dask` takes Dask DataFrames (a notebook's, or the command
line's Parquet files) and returns :class:`core.tables.TableResult`. As on
Spark (:mod:`app.scale.spark`): one table of rows, each row sent to group
``hash(query) mod groups`` by ``shuffle``, so that a partition holds whole
queries; :func:`core.tables.evaluate_rows` evaluates a partition, and the
driver collects the per-query table only.
"""

from __future__ import annotations

import logging
from typing import Any

from app.scale.common import SAMPLE_ROWS, require
from core.errors import InputError
from core.io.columnar import resolve_columns
from core.model.conventions import Conventions
from core.tables import (
    TableResult,
    conventions_of,
    evaluate_rows,
    finish,
    groups_for,
    output_schema,
)

__all__ = ["client", "evaluate_dask", "read_parquet"]

_PANDAS_TYPES = {"text": "object", "number": "float64", "count": "int64", "flag": "bool"}


def client(address: str | None = None, workers: int | None = None) -> Any:
    """A client of the scheduler at ``address``, or of a new local cluster
    of ``workers`` processes (2 when not given)."""
    require("dask", "dask.dataframe", "distributed", "pyarrow", "pandas")
    from distributed import Client, LocalCluster

    if address is not None:
        return Client(address, timeout="10s")
    cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, dashboard_address=":0",
                           silence_logs=logging.ERROR)
    return Client(cluster)


def read_parquet(path: str) -> Any:
    import dask.dataframe as dd

    try:
        return dd.read_parquet(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"Dask cannot read it ({exc})", file=path) from None


def _rows(df: Any, role: str, side: int, file: str) -> Any:
    import pandas as pd

    q, s, v = resolve_columns(list(df.columns), role, file)
    for name in (q, s):
        if not (pd.api.types.is_string_dtype(df[name].dtype)
                or pd.api.types.is_integer_dtype(df[name].dtype)):
            raise InputError(f"ids must be text or whole numbers, not {df[name].dtype}",
                             file=file, column=name)
    if not pd.api.types.is_numeric_dtype(df[v].dtype):
        raise InputError(f"must hold numbers, not {df[v].dtype}", file=file, column=v)
    part = df[[q, s, v]].rename(columns={q: "query", s: "source_id", v: "value"})
    part = part.assign(query=part["query"].astype("string"),
                       source_id=part["source_id"].astype("string"),
                       value=part["value"].astype("float64"), side=side, one=1)
    # a row's place in its file: partitions come in the file's order
    part = part.assign(row=part["one"].cumsum() - 1)
    return part[["side", "query", "source_id", "value", "row"]]


def _head(part: Any) -> Any:
    return part.iloc[:SAMPLE_ROWS]  # on the worker: only the sample comes back


def _group(query: Any, n: int) -> Any:
    import pandas as pd

    return pd.util.hash_pandas_object(query, index=False) % n


def _evaluate_partition(part: Any, conv: Conventions, files: tuple[str, str]) -> Any:
    import pyarrow as pa

    table = pa.Table.from_pandas(part.drop(columns="group"), preserve_index=False)
    return evaluate_rows(table, conv, files).to_pandas()


def evaluate_dask(run: Any, qrels: Any, conventions: Conventions | str | None = None, *,
                  groups: int | None = None, run_name: str = "run",
                  qrels_name: str = "qrels") -> TableResult:
    """Evaluate a run Dask DataFrame against a qrels one on the current
    client: the numbers of ``ndcg-worksheet evaluate`` on the same rows.
    ``groups``: as :func:`app.scale.spark.evaluate_spark`'s."""
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa

    conv = conventions_of(conventions)
    rows = dd.concat([_rows(run, "run", 0, run_name), _rows(qrels, "qrels", 1, qrels_name)])
    if groups is None:
        first = rows.get_partition(0).map_partitions(_head, meta=rows._meta).compute()
        groups = groups_for(len(rows), pa.Table.from_pandas(first, preserve_index=False), 2)
    keyed = rows.assign(group=rows["query"].map_partitions(_group, groups, meta=("group", "u8")))
    meta = pd.DataFrame({name: pd.Series(dtype=_PANDAS_TYPES[kind])
                         for name, kind in output_schema()})
    out = keyed.shuffle("group", npartitions=groups).map_partitions(
        _evaluate_partition, conv, (run_name, qrels_name), meta=meta)
    return finish(pa.Table.from_pandas(out.compute(), preserve_index=False), conv)
