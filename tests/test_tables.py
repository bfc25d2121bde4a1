"""The library API: tables in, the numbers of ``evaluate`` out, with the
conventions attached; the README's example runs as written."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from app.cli.main import main
from core.analysis.per_query import COLUMNS
from core.errors import InputError
from core.model.conventions import Conventions
from core.tables import (
    FIXED_COST,
    PEAK_FACTOR,
    TableResult,
    evaluate_rows,
    evaluate_tables,
    finish,
    group_count,
)
from tests.test_parquet_io import DATA, parquet, qrels_table, run_table

README = Path(__file__).parent.parent / "README.md"
PRESETS = [None, "trec_eval", "sklearn", "ranx"]


def readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## From a notebook", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def test_readme_example_runs_and_its_numbers_are_hand_derived():
    code = readme_example()
    assert len(code.strip().splitlines()) <= 10
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(compile(code, "README.md", "exec"), scope)
    result = scope["result"]
    assert isinstance(result, TableResult)
    rows = result.per_query.to_pylist()
    # q1: b (grade 3) at rank 2: DCG = 3/log2(3); the ideal puts it first: 3.
    # q2: a unjudged (0 under trec_eval), c judged but not retrieved: DCG 0, ideal 1.
    assert [r["query"] for r in rows] == ["q1", "q2"]
    assert rows[0]["dcg"] == pytest.approx(3 / math.log2(3), rel=1e-15)
    assert rows[0]["idcg"] == 3.0
    assert rows[0]["ndcg"] == pytest.approx(1 / math.log2(3), rel=1e-15)
    assert (rows[1]["dcg"], rows[1]["idcg"], rows[1]["ndcg"]) == (0.0, 1.0, 0.0)
    summary = result.summary.to_pylist()
    assert summary[0]["mean"] == pytest.approx(0.5 / math.log2(3), rel=1e-15)
    assert summary[0]["included"] == 2
    assert result.conventions.to_dict() == json.loads(
        result.per_query.schema.metadata[b"ndcg_worksheet.conventions"])
    assert "q1" in printed.getvalue()


def same(a: pa.Table, b: pa.Table) -> None:
    """Equal tables, numbers bit for bit (NaN equal to NaN, -0.0 not 0.0)."""
    assert a.column_names == b.column_names
    for name in a.column_names:
        x, y = a.column(name), b.column(name)
        if pa.types.is_floating(x.type):
            assert x.to_numpy().tobytes() == y.to_numpy().tobytes(), name
        else:
            assert x.to_pylist() == y.to_pylist(), name


def cli_json(*argv: str) -> dict:
    out = io.StringIO()
    assert main(["evaluate", *argv, "--format", "json"], out) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("preset", PRESETS)
def test_tables_give_evaluates_numbers(tmp_path, preset):
    run, qrels = run_table(DATA / "results.test"), qrels_table(DATA / "qrels.test")
    result = evaluate_tables(run, qrels, preset)
    flags = ["--preset", preset] if preset else []
    whole = cli_json(str(DATA / "results.test"), "--qrels", str(DATA / "qrels.test"), *flags)
    rows = result.per_query.to_pylist()
    k = len(result.conventions.cutoffs)
    for q, query in enumerate(whole["queries"]):
        for j, cut in enumerate(query["cutoffs"]):
            row = rows[q * k + j]
            assert row["query"] == query["query"]
            for name in ("dcg", "idcg", "ndcg"):
                assert (None if math.isnan(row[name]) else row[name]) == cut[name]
            assert row["status"] == cut["status"]
            if "bounds" in cut:
                assert [row["low"], row["high"], row["exact"]] == list(cut["bounds"].values())
    means = [s["mean"] for s in whole["summary"]]
    assert [None if math.isnan(m) else m for m in result.summary.column("mean").to_pylist()] \
        == means


def test_pandas_polars_and_arrow_give_the_same(tmp_path):
    pl = pytest.importorskip("polars")  # optional: the API converts through Arrow
    run, qrels = run_table(DATA / "results.test"), qrels_table(DATA / "qrels.test")
    arrow = evaluate_tables(run, qrels)
    for r, q in ((run.to_pandas(), qrels.to_pandas()), (pl.from_arrow(run), pl.from_arrow(qrels)),
                 (run.to_pydict(), qrels)):
        result = evaluate_tables(r, q)
        same(result.per_query, arrow.per_query)
        same(result.summary, arrow.summary)


def union(run: pa.Table, qrels: pa.Table) -> pa.Table:
    def side(table: pa.Table, which: int, value: str) -> pa.Table:
        n = len(table)
        return pa.table({"side": pa.array(np.full(n, which, dtype=np.int64)),
                         "query": table.column("query"), "source_id": table.column("source_id"),
                         "value": table.column(value), "row": pa.array(np.arange(n))})
    return pa.concat_tables([side(run, 0, "score"), side(qrels, 1, "grade")])


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("groups", [1, 3, 7])
def test_groups_of_whole_queries_give_the_whole(preset, groups):
    """The engine on groups of whole queries, put together by ``finish``,
    gives the single-machine tables bit for bit (the groups in any order)."""
    run, qrels = run_table(DATA / "results.test"), qrels_table(DATA / "qrels.test")
    whole = evaluate_tables(run, qrels, preset)
    rows = union(run, qrels)
    group = pc.cast(rows.column("query"), pa.int64()).to_numpy() % groups
    parts = [evaluate_rows(rows.filter(pa.array(group == g)), whole.conventions)
             for g in reversed(range(groups))]
    result = finish(pa.concat_tables(parts), whole.conventions)
    same(result.per_query, whole.per_query)
    same(result.summary, whole.summary)
    assert result.per_query.schema.metadata == whole.per_query.schema.metadata


@pytest.mark.parametrize("preset", [None, "trec_eval"])
@pytest.mark.parametrize("groups", [1, 2, 3])
def test_groups_count_the_queries_the_two_tables_do_not_share(preset, groups):
    """q2 and q3 judged, never ranked; q9 ranked, never judged (issue 37):
    the groups put together give the whole table's queries (q2, q3 after the
    run's, with no ranking), its unjudged q9 and its means, whichever group
    holds which query."""
    run = pa.table({"query": ["q1", "q1", "q9"], "source_id": ["b", "a", "z"],
                    "score": [3.0, 2.0, 1.0]})
    qrels = pa.table({"query": ["q3", "q1", "q1", "q2", "q3"],
                      "source_id": ["d", "a", "b", "c", "e"], "grade": [0.0, 2.0, 1.0, 1.0, 3.0]})
    whole = evaluate_tables(run, qrels, preset)
    assert list(dict.fromkeys(whole.per_query.column("query").to_pylist())) == ["q1", "q3", "q2"]
    assert whole.unjudged_queries == ("q9",)
    assert whole.summary.column("excluded unjudged").to_pylist() == [1]
    rows = union(run, qrels)
    group = np.array([int(q[1:]) % groups for q in rows.column("query").to_pylist()])
    parts = [evaluate_rows(rows.filter(pa.array(group == g)), whole.conventions)
             for g in reversed(range(groups))]
    result = finish(pa.concat_tables(parts), whole.conventions)
    same(result.per_query, whole.per_query)
    same(result.summary, whole.summary)
    assert result.unjudged_queries == ("q9",)


def test_a_groups_problem_is_raised_by_finish():
    run = pa.table({"query": ["a", "a"], "source_id": ["x", "x"], "score": [1.0, 2.0]})
    qrels = pa.table({"query": ["a"], "source_id": ["x"], "grade": [1.0]})
    part = evaluate_rows(union(run, qrels), Conventions())
    with pytest.raises(InputError, match=r"query 'a' retrieves source 'x' twice \(rows 1 and 2\)"):
        finish(part, Conventions())
    with pytest.raises(InputError, match="no column 'grade' or 'score'"):
        evaluate_tables(run, {"query": ["a"], "source_id": ["x"]})


def test_group_count_keeps_a_group_within_the_budget():
    assert group_count(0, 100.0) == 1
    n = group_count(50_000_000, 80.0)
    # the fewest groups whose rows, at PEAK_FACTOR times their size, fit half a GiB
    # after the fixed cost
    budget_rows = ((1 << 30) // 2 - FIXED_COST) / (80.0 * PEAK_FACTOR)
    assert 50_000_000 / n <= budget_rows < 50_000_000 / (n - 1)
    assert 50 < n < 200  # ~526,000 rows a group


def test_per_query_columns_are_declared_once():
    result = evaluate_tables({"query": ["a"], "source_id": ["x"], "score": [1.0]},
                             {"query": ["a"], "source_id": ["x"], "grade": [1.0]})
    assert tuple(result.per_query.column_names) == tuple(name for name, _ in COLUMNS)


def test_parquet_written_per_query_reads_back(tmp_path):
    result = evaluate_tables(run_table(DATA / "results.test"), qrels_table(DATA / "qrels.test"))
    same(pa.parquet.read_table(parquet(tmp_path / "pq.parquet", result.per_query)),
         result.per_query)
