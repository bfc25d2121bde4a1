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
from pathlib import Path
from typing import Any

from app.scale.common import SAMPLE_ROWS, part_files, require
from core.errors import InputError
from core.io.columnar import resolve_columns
from core.model.conventions import Conventions
from core.tables import (
    PEAK_FACTOR,
    TableResult,
    conventions_of,
    evaluate_rows,
    finish,
    groups_for,
    output_schema,
)

__all__ = ["client", "evaluate_dask", "read_parquet"]

#: A group's peak on a Dask worker over its rows' Arrow size: the engine's
#: (:data:`core.tables.PEAK_FACTOR`) and the shuffle's output partition in
#: pandas and its Arrow copy beside it. Measured at 10M candidates (URL-like
#: ids, 2 workers): 22 groups sized by the engine's factor alone peaked at
#: 1.39 GiB on a worker, three times as many at 0.70 GiB (docs/scale.md).
DASK_PEAK_FACTOR = 3 * PEAK_FACTOR

_PANDAS_TYPES = {"text": "object", "number": "float64", "count": "int64", "flag": "bool"}


def client(address: str | None = None, workers: int | None = None) -> Any:
    """A client of the scheduler at ``address``, or of a new local cluster
    of ``workers`` processes (2 when not given)."""
    require("dask", "dask.dataframe", "distributed", "pyarrow", "pandas")
    from distributed import Client

    if address is not None:
        return Client(address, timeout="10s")
    # The client starts the local cluster itself, so that closing the client
    # closes the cluster and its worker processes: a client given a cluster
    # leaves it running (its nannies outlived the command until the process
    # ended).
    return Client(n_workers=workers or 2, threads_per_worker=1, dashboard_address=":0",
                  silence_logs=logging.ERROR)


#: The most of a Parquet file's uncompressed bytes one input partition
#: holds. Dask's p2p shuffle copies a partition several times while it
#: splits it by group (measured: a 1M-row partition of URL-like ids, 39 MiB
#: of uncompressed column data, took a worker past 1 GiB; ``docs/scale.md``).
PIECE_BYTES = 8 << 20


def pieces(path: str, piece_bytes: int | None = None) -> list[tuple[str, int, int, int]]:
    """A Parquet file, or a folder of part files in natural order
    (:func:`app.scale.common.part_files`), cut into (file, row group, first
    row, rows): pieces of at most ``piece_bytes`` of uncompressed column
    data each (:data:`PIECE_BYTES` when not given), in order, so that a
    partition's size follows the data, not the writer's row groups."""
    import pyarrow.parquet as pq

    piece_bytes = piece_bytes or PIECE_BYTES
    files = part_files(Path(path)) if Path(path).is_dir() else [Path(path)]
    out: list[tuple[str, int, int, int]] = []
    for file in files:
        meta = pq.ParquetFile(file).metadata
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            rows = group.num_rows
            step = max(1, int(piece_bytes * rows / max(group.total_byte_size, 1)))
            out.extend((str(file), g, start, min(step, rows - start))
                       for start in range(0, rows, step))
    return out


def _read_piece(piece: tuple[str, int, int, int]) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path, group, start, rows = piece
    parts, seen = [], 0
    # batches of the piece's own size, streamed: the row group is never whole in memory
    for batch in pq.ParquetFile(path).iter_batches(batch_size=rows, row_groups=[group]):
        end = seen + batch.num_rows
        if end > start:
            parts.append(batch.slice(max(start - seen, 0), start + rows - max(start, seen)))
        seen = end
        if seen >= start + rows:
            break
    return pa.Table.from_batches(parts, schema=parts[0].schema).to_pandas()


def read_parquet(path: str) -> Any:
    """A Parquet file as a Dask DataFrame of small partitions
    (:func:`pieces`); a URL (``s3://``, ``hdfs://``) through Dask's own
    reader, a partition per row group."""
    import dask.dataframe as dd
    import pyarrow.parquet as pq

    try:
        if "://" in path:
            return dd.read_parquet(path, split_row_groups=True)
        parts = pieces(path)
        if not parts:
            raise InputError("holds no rows", file=path)
        meta = pq.read_schema(parts[0][0]).empty_table().to_pandas()
        return dd.from_map(_read_piece, parts, meta=meta, enforce_metadata=False)
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
        groups = groups_for(len(rows), pa.Table.from_pandas(first, preserve_index=False), 2,
                            DASK_PEAK_FACTOR)
    keyed = rows.assign(group=rows["query"].map_partitions(_group, groups, meta=("group", "u8")))
    meta = pd.DataFrame({name: pd.Series(dtype=_PANDAS_TYPES[kind])
                         for name, kind in output_schema()})
    out = keyed.shuffle("group", npartitions=groups).map_partitions(
        _evaluate_partition, conv, (run_name, qrels_name), meta=meta)
    return finish(pa.Table.from_pandas(out.compute(), preserve_index=False), conv)
