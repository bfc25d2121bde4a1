"""trec_eval's own test suite, reproduced with the ``trec_eval`` preset.

The files are unmodified copies of trec_eval 10.0's ``test/`` folder (see
``tests/data/trec_eval/README.md``). Every ``ndcg``, ``ndcg_cut_K``
and ``ndcg_<gain table>`` row of the expected outputs, per query and ``all``,
is recomputed by the engine (and by the command line) and compared at the
4 decimals trec_eval prints.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest

from app.cli.main import main
from core.analysis.aggregate import summarize
from core.engine.evaluation import evaluate
from core.io.trec import document_from_trec
from core.model.conventions import Gain
from core.model.presets import preset
from tests.conftest import TREC_REFERENCE

#: trec_eval prints 4 decimals: a match is within half a unit of the last one.
TOL = 5e-5

RESULTS = TREC_REFERENCE / "results.test"
RESULTS_TRUNC = TREC_REFERENCE / "results.trunc"
QRELS = TREC_REFERENCE / "qrels.test"
QRELS_LEVEL = TREC_REFERENCE / "qrels.rel_level"

#: Cutoffs of trec_eval's ``ndcg_cut`` in ``-m all_trec``.
ALL_TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

NDCG_ROW = re.compile(r"^ndcg(?:_cut_(\d+)|_(1=3,2=9,4=4\.5))?$")

Expected = dict[tuple[int | None, str], float]


def expected_rows(name: str) -> Expected:
    """``{(k, query-or-"all"): value}`` for every NDCG row of an output file.

    ``k`` is None for ``ndcg`` and ``ndcg_<gain table>`` (the whole list).
    """
    rows: Expected = {}
    for line in (TREC_REFERENCE / name).read_text().splitlines():
        measure, query, value = (part.strip() for part in line.split("\t"))
        match = NDCG_ROW.match(measure)
        if match is None:
            continue
        k = int(match.group(1)) if match.group(1) else None
        rows[(k, query)] = float(value)
    return rows


def engine_rows(
    run: Path, qrels: Path, cutoffs: tuple[int | None, ...], gain: str | None = None
) -> Expected:
    """The engine's NDCG per query and the mean, keyed like :func:`expected_rows`."""
    overrides: dict[str, object] = {"cutoffs": cutoffs}
    if gain is not None:
        # The table replaces the gain rule; the preset's handling of negative
        # and fractional grades stays (as the command line does).
        table = Gain.parse(gain)
        base = preset("trec_eval").gain
        overrides["gain"] = replace(base, rule=table.rule, table=table.table)
    conv = preset("trec_eval", **overrides)
    ev = evaluate(document_from_trec(run, qrels), conv)
    out: Expected = {}
    for j, k in enumerate(cutoffs):
        for q, qid in enumerate(ev.doc.query_ids):
            out[(k, qid)] = float(ev.ndcg[q, j])
    for s in summarize(ev):
        assert s.mean is not None
        assert s.excluded == {}
        out[(s.k, "all")] = s.mean
    return out


def cli_rows(argv: list[str]) -> Expected:
    """The same, read from ``evaluate --format json``."""
    buf = StringIO()
    assert main(["evaluate", *argv, "--format", "json"], out=buf) == 0
    data = json.loads(buf.getvalue())
    out: Expected = {}
    for query in data["queries"]:
        for cut in query["cutoffs"]:
            assert cut["status"] == "ok"
            out[(cut["k"], query["query"])] = cut["ndcg"]
    for s in data["summary"]:
        assert s["excluded"] == {}
        out[(s["k"], "all")] = s["mean"]
    return out


def assert_reproduced(expected: Expected, ours: Expected) -> None:
    assert expected, "no NDCG rows found in the expected output"
    missing = sorted(set(expected) - set(ours), key=str)
    assert not missing, f"rows not computed: {missing}"
    wrong = {
        key: (ours[key], value)
        for key, value in expected.items()
        if not abs(ours[key] - value) <= TOL
    }
    assert not wrong, f"(ours, trec_eval) differ: {wrong}"


def test_reference_files_are_there() -> None:
    # They are part of the repository: a missing file must fail, never skip.
    for path in (RESULTS, RESULTS_TRUNC, QRELS, QRELS_LEVEL):
        assert path.is_file(), path


def test_expected_rows_cover_every_measure() -> None:
    rows = expected_rows("out.test.aq")
    assert {k for k, _ in rows} == {None, *ALL_TREC_CUTOFFS}
    assert {q for _, q in rows} == {"301", "302", "303", "all"}
    assert len(rows) == 40
    assert rows[(None, "301")] == 0.1584
    assert rows[(10, "all")] == 0.3016


@pytest.mark.parametrize(
    ("output", "qrels"),
    [
        ("out.test.aq", QRELS),
        # -l2 only changes binary measures: graded ndcg reads the rel_level
        # grades (-1..4) as they are, negative grades counting as gain 0.
        ("out.test.aql", QRELS_LEVEL),
    ],
)
def test_all_trec_ndcg_rows(output: str, qrels: Path) -> None:
    ours = engine_rows(RESULTS, qrels, (None, *ALL_TREC_CUTOFFS))
    assert_reproduced(expected_rows(output), ours)


def test_rel_level_grades_change_the_numbers() -> None:
    # Guard against comparing the same numbers twice: the two qrels differ.
    a, b = expected_rows("out.test.aq"), expected_rows("out.test.aql")
    assert a[(None, "301")] == 0.1584
    assert b[(None, "301")] == 0.1396
    assert a[(None, "302")] == b[(None, "302")] == 0.6617


def test_truncated_run_per_query_rows(tmp_path: Path) -> None:
    # out.test.aqc was made with -c (judged queries absent from the run count
    # as 0 in "all"); the per-query rows of queries in the run are plain ndcg.
    # results.trunc carries junk after the tag, which trec_eval skips and our
    # reader refuses (6 fields expected), so the test keeps the 6 fields.
    run = tmp_path / "results.trunc"
    lines = RESULTS_TRUNC.read_text().splitlines()
    run.write_text("".join(" ".join(line.split()[:6]) + "\n" for line in lines))
    expected = expected_rows("out.test.aqc")
    ours = engine_rows(run, QRELS, (None, *ALL_TREC_CUTOFFS))
    in_run = {key: v for key, v in expected.items() if key[1] in ("301", "303")}
    assert_reproduced(in_run, ours)
    assert (None, "302") not in ours
    # -c: the mean over the three judged queries, 302 contributing 0.
    assert expected[(None, "302")] == 0.0
    mean_c = (ours[(None, "301")] + ours[(None, "303")]) / 3
    assert abs(mean_c - expected[(None, "all")]) <= TOL


def test_meas_params_gain_table_and_cutoffs() -> None:
    # trec_eval -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 (23.4 acts as 23).
    expected = expected_rows("out.test.meas_params")
    assert {k for k, _ in expected} == {None, 10, 20, 23}
    ours = engine_rows(RESULTS, QRELS, (None, 10, 20, 23), gain="1=3,2=9,4=4.5")
    assert_reproduced(expected, ours)


def test_meas_params_gain_table_changes_graded_qrels() -> None:
    # qrels.test has grades 0/1 only, so the table 1=3 scales every gain by 3
    # and leaves NDCG unchanged; on rel_level's grades it changes the numbers.
    plain = engine_rows(RESULTS, QRELS_LEVEL, (None,))
    table = engine_rows(RESULTS, QRELS_LEVEL, (None,), gain="1=3,2=9,4=4.5")
    assert abs(plain[(None, "301")] - 0.1396) <= TOL
    assert abs(table[(None, "301")] - plain[(None, "301")]) > 1e-3


@pytest.mark.parametrize(
    ("output", "qrels", "run", "extra"),
    [
        ("out.test.aq", QRELS, RESULTS, ["--k", "all", "--k", "5,10,15,20,30,100,200,500,1000"]),
        ("out.test.aql", QRELS_LEVEL, RESULTS,
         ["--k", "all", "--k", "5,10,15,20,30,100,200,500,1000"]),
        ("out.test.meas_params", QRELS, RESULTS,
         ["--gain", "1=3,2=9,4=4.5", "--k", "all", "--k", "10,20,23"]),
    ],
)
def test_command_line_reproduces(output: str, qrels: Path, run: Path, extra: list[str]) -> None:
    ours = cli_rows([str(run), "--qrels", str(qrels), "--preset", "trec_eval", *extra])
    assert_reproduced(expected_rows(output), ours)


def test_command_line_keeps_the_gain_table_declared() -> None:
    buf = StringIO()
    argv = ["evaluate", str(RESULTS), "--qrels", str(QRELS), "--preset", "trec_eval",
            "--gain", "1=3,2=9,4=4.5", "--k", "23", "--format", "json"]
    assert main(argv, out=buf) == 0
    conv = json.loads(buf.getvalue())["conventions"]
    assert conv["gain"] == "1=3,2=9,4=4.5"
    assert conv["negative_gain_as_zero"] is True
    assert conv["ties"] == "id-desc"
    assert conv["ideal"] == "judged"
    assert "trec_eval" in conv["matching_presets"]
