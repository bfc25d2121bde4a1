"""NDCG of tables: a run and its qrels as pandas, polars or pyarrow tables.

For notebooks::

    from core.tables import evaluate_tables
    result = evaluate_tables(run_df, qrels_df, "trec_eval")
    result.per_query.to_pandas()   # query, k, dcg, idcg, ndcg, status, low, high, ...
    result.summary.to_pandas()     # k, mean, included, excluded..., weighting
    result.conventions             # every choice the numbers depend on

The tables follow the Parquet schema of :mod:`core.io.columnar` (a run:
``query``, ``source_id``, ``score``; qrels: ``query``, ``source_id``,
``grade``; or BEIR's or ir_datasets' names for them) and get its
checks. Any table :func:`pyarrow.table` takes will do (pandas and polars
data frames are converted through the Arrow interface; neither is imported
here). The numbers are those of ``ndcg-worksheet evaluate`` on the same rows.

The same functions run on a cluster's workers (``app/scale``):
:func:`evaluate_rows` evaluates the rows of some whole queries and returns
their per-query rows, and :func:`finish` makes the result from all of them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import UNJUDGED, CutoffSummary, summarize, with_unjudged
from core.analysis.per_query import COLUMNS, STATUS_TEXT, per_query_rows, summarize_rows
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.columnar import Side, join_tables, pyarrow_module, side_from_table
from core.model.conventions import Conventions, format_cutoff
from core.model.presets import defaults_under

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "FIXED_COST",
    "PEAK_FACTOR",
    "ROW_COLUMNS",
    "WORKER_BUDGET",
    "TableResult",
    "conventions_of",
    "evaluate_rows",
    "evaluate_tables",
    "finish",
    "group_count",
    "groups_for",
    "output_schema",
]

#: The rows a worker is given: both tables in one (``side`` 0: the run,
#: 1: the qrels), ``value`` the score or the grade, ``row`` each row's
#: place in its file (run order and qrels order are kept by it).
ROW_COLUMNS: tuple[tuple[str, str], ...] = (
    ("side", "count"), ("query", "text"), ("source_id", "text"), ("value", "number"),
    ("row", "count"),
)
#: What a worker adds to :data:`~core.analysis.per_query.COLUMNS`: the
#: query's first run row (the driver orders the queries by it) and the
#: problem that stopped the group (one row; null when none did).
_EXTRA = (("first_row", "count"), ("problem", "text"))
#: The memory one worker may use (``docs/scale.md``, *Memory*).
WORKER_BUDGET = 1 << 30
#: A group's peak memory over its rows' own size (:func:`group_count`):
#: measured 8.7 at 600,000 rows and 7.0 at 1,200,000 (URL-like ids, a fifth
#: judged, default conventions so every query's bounds; ``docs/scale.md``).
PEAK_FACTOR = 9.0
#: A worker's memory before it is given rows (interpreter, numpy, pyarrow).
FIXED_COST = 150 << 20


@dataclass(frozen=True)
class TableResult:
    """Per-query results and means, with the conventions that made them.

    ``per_query``: one row per query and cutoff (``COLUMNS`` of
    :mod:`core.analysis.per_query`); ``summary``: one row per cutoff (the
    mean, the queries included and those excluded by reason); both carry the
    conventions as JSON in their schema's metadata too.
    """

    per_query: pa.Table
    summary: pa.Table
    conventions: Conventions
    #: The run's queries the qrels never judge (left out of ``per_query``,
    #: counted in ``summary``), in the run's order.
    unjudged_queries: tuple[str, ...] = ()


def conventions_of(conventions: Conventions | str | None) -> Conventions:
    """Conventions given as a value, a preset's name, or None (the defaults)."""
    if isinstance(conventions, str):
        return defaults_under(conventions)
    return conventions if conventions is not None else defaults_under(None)


def _arrow(table: Any, what: str) -> pa.Table:
    pa = pyarrow_module()
    if isinstance(table, pa.Table):
        return table
    try:
        return pa.table(table)
    except (TypeError, ValueError) as exc:
        raise InputError(f"the {what} is not a table pyarrow can read ({exc})") from None


def _table(rows: dict[str, Any], columns: tuple[tuple[str, str], ...],
           conventions: Conventions) -> pa.Table:
    pa = pyarrow_module()
    types = {"text": pa.string(), "number": pa.float64(), "count": pa.int64(), "flag": pa.bool_()}
    schema = pa.schema([(name, types[kind]) for name, kind in columns],
                       metadata={"ndcg_worksheet.conventions": json.dumps(conventions.to_dict())})
    return pa.table({name: rows[name] for name, _ in columns}, schema=schema)


def _summary_table(summaries: list[CutoffSummary], conventions: Conventions) -> pa.Table:
    reasons = (*STATUS_TEXT[1:], "no weight", UNJUDGED)
    rows: dict[str, Any] = {
        "k": ["all" if s.k is None else str(s.k) for s in summaries],
        "mean": [math.nan if s.mean is None else s.mean for s in summaries],
        "included": [s.included for s in summaries],
        **{f"excluded {why}": [s.excluded.get(why, 0) for s in summaries] for why in reasons},
        "weighting": [s.weighting.value for s in summaries],
    }
    columns = (("k", "text"), ("mean", "number"), ("included", "count"),
               *((f"excluded {why}", "count") for why in reasons), ("weighting", "text"))
    return _table(rows, columns, conventions)


def evaluate_tables(run: Any, qrels: Any, conventions: Conventions | str | None = None
                    ) -> TableResult:
    """Evaluate a run table against a qrels table.

    Parameters
    ----------
    run, qrels : pandas/polars DataFrame, pyarrow Table, or a dict of columns
        The run (``query``, ``source_id``, ``score``) and its judgments
        (``query``, ``source_id``, ``grade``, or BEIR's columns).
    conventions : Conventions, preset name or None
        None: the defaults; a name (``"trec_eval"``): that preset.
    """
    conv = conventions_of(conventions)
    doc, _ = join_tables(side_from_table(_arrow(run, "run"), "run", "run table"),
                         side_from_table(_arrow(qrels, "qrels"), "qrels", "qrels table"), conv,
                         unshared=True)
    ev = evaluate(doc, conv)
    return TableResult(_table(per_query_rows(ev), COLUMNS, conv),
                       _summary_table(summarize(ev), conv), conv, doc.unjudged_queries)


def output_schema() -> tuple[tuple[str, str], ...]:
    """The columns of :func:`evaluate_rows`' table, with their kinds."""
    return (*COLUMNS, *_EXTRA)


def _side(rows: pa.Table, which: int, role: str, file: str) -> Side:
    import pyarrow.compute as pc

    part = rows.filter(pc.equal(rows.column("side"), which))
    part = part.take(pc.sort_indices(part.column("row")))
    renamed = part.rename_columns(
        ["side", "query", "source_id", "score" if role == "run" else "grade", "row"])
    side = side_from_table(renamed.select([1, 2, 3]), role, file)
    side.rows = part.column("row").to_numpy() + 1
    return side


def evaluate_rows(rows: pa.Table, conventions: Conventions,
                  files: tuple[str, str] = ("run", "qrels")) -> pa.Table:
    """The per-query table of the whole queries in ``rows`` (:data:`ROW_COLUMNS`),
    with each query's first run row; a problem (a bad value, a pair twice)
    is one row naming it (and the file, of ``files``: the run's, the
    qrels'), for the driver to report."""
    rows = rows.select([name for name, _ in ROW_COLUMNS])
    out_columns = output_schema()
    try:
        doc, kept = join_tables(_side(rows, 0, "run", files[0]), _side(rows, 1, "qrels", files[1]),
                                conventions, unshared=True)
        out = per_query_rows(evaluate(doc, conventions))
    except InputError as exc:
        empty: dict[str, list[str | None]] = {name: [None] for name, _ in out_columns}
        empty["problem"] = [str(exc)]
        return _table(empty, out_columns, conventions)
    nk = len(conventions.cutoffs)
    side = rows.column("side").to_numpy()
    run_rows = np.sort(rows.column("row").to_numpy()[side == 0])
    first = np.full(doc.n_queries, -1, dtype=np.int64)
    ranked, at = np.unique(doc.query[: kept.size], return_index=True)
    first[ranked] = run_rows[kept][at]
    judged_only = np.flatnonzero(first < 0)  # judged, never ranked: after the run's queries
    if judged_only.size:
        names = [doc.query_ids[q] for q in judged_only]
        first[judged_only] = _AFTER_THE_RUN + _first_row(rows, 1, names)
    out["first_row"] = np.repeat(first, nk)
    out["problem"] = [None] * len(out["query"])
    if doc.unjudged_queries:
        out = _with_unjudged(out, doc.unjudged_queries,
                             _first_row(rows, 0, list(doc.unjudged_queries)), conventions)
    return _table(out, out_columns, conventions)


#: A query the qrels judge and the run never ranks is put after every run
#: row (its first qrels row added), as :func:`join_tables` puts it.
_AFTER_THE_RUN = 1 << 48


def _first_row(rows: pa.Table, side: int, names: list[str]) -> npt.NDArray[np.int64]:
    """The first row of each of ``names`` on ``side`` (0: the run, 1: the qrels)."""
    import pyarrow.compute as pc

    part = rows.filter(pc.equal(rows.column("side"), side))
    firsts = part.group_by("query").aggregate([("row", "min")])
    at = dict(zip(firsts.column("query").to_pylist(), firsts.column("row_min").to_pylist(),
                  strict=True))
    return np.array([at[name] for name in names], dtype=np.int64)


def _with_unjudged(out: dict[str, Any], unjudged: tuple[str, ...],
                   first: npt.NDArray[np.int64], conventions: Conventions) -> dict[str, Any]:
    """``out`` and, for the driver to count, one row per cutoff of each query
    the run ranks and the qrels never judge (status :data:`UNJUDGED`)."""
    nk, n = len(conventions.cutoffs), len(unjudged) * len(conventions.cutoffs)
    blank = {"text": None, "number": math.nan, "count": 0, "flag": False}
    extra: dict[str, list[Any]] = {name: [blank[kind]] * n for name, kind in output_schema()}
    extra["query"] = [q for q in unjudged for _ in range(nk)]
    extra["k"] = [format_cutoff(k) for _ in unjudged for k in conventions.cutoffs]
    extra["status"] = [UNJUDGED] * n
    extra["first_row"] = list(np.repeat(first, nk))
    return {name: [*out[name], *extra[name]] for name in out}


def finish(collected: pa.Table, conventions: Conventions) -> TableResult:
    """The result from every group's :func:`evaluate_rows` table (in any
    order): the first problem a group met is raised; the queries are put in
    the run's order and the means computed over them, as on one machine."""
    import pyarrow.compute as pc

    problems = collected.column("problem").drop_null()
    if len(problems):
        raise InputError(str(problems[0].as_py()))
    ordered = collected.take(pc.sort_indices(collected, [("first_row", "ascending")]))
    unjudged_rows = pc.equal(ordered.column("status"), UNJUDGED)
    unjudged = tuple(dict.fromkeys(ordered.filter(unjudged_rows).column("query").to_pylist()))
    ordered = ordered.filter(pc.invert(unjudged_rows))
    per_query = ordered.select([name for name, _ in COLUMNS])
    # NaN, not null, where a number is missing (pandas on the way may have made it null)
    per_query = _table({n: pc.fill_null(per_query.column(n), math.nan) if kind == "number"
                        else per_query.column(n) for n, kind in COLUMNS}, COLUMNS, conventions)
    rows = {name: per_query.column(name).to_numpy(zero_copy_only=False)
            for name in ("ndcg", "weight")}
    rows["status"] = per_query.column("status").to_pylist()
    summaries = with_unjudged(summarize_rows(rows, conventions), len(unjudged))
    return TableResult(per_query, _summary_table(summaries, conventions), conventions, unjudged)


def group_count(rows: int, bytes_per_row: float, budget: int = WORKER_BUDGET,
                peak_factor: float = PEAK_FACTOR) -> int:
    """How many groups of whole queries ``rows`` rows are cut into so that
    one group's evaluation stays within ``budget`` bytes on a worker.

    A group's peak is its rows as Arrow columns, the joined document and
    the engine's sorted copies and bounds: ``peak_factor`` times the rows'
    own Arrow size (measured: :data:`PEAK_FACTOR` for the engine alone; an
    engine that holds more copies of a group passes its own), plus a
    worker's fixed cost.
    Hashing queries to groups is uneven by a few percent; a half of the
    budget is kept for that and for the interpreter.
    """
    per_group = max(budget // 2 - FIXED_COST, 1 << 20)
    need = rows * max(bytes_per_row, 1.0) * peak_factor
    return max(1, math.ceil(need / per_group))



def groups_for(rows: int, sample: pa.Table, least: int = 1,
               peak_factor: float = PEAK_FACTOR) -> int:
    """:func:`group_count` for ``rows`` rows like those of ``sample`` (some
    of them, in :data:`ROW_COLUMNS`), and at least ``least`` groups (one per
    core, say)."""
    per_row = sample.nbytes / len(sample) if len(sample) else 64.0
    return max(least, group_count(rows, per_row, peak_factor=peak_factor))
