"""Spark (local mode) and Dask (dask.distributed) give the numbers of the
single-machine ``evaluate``, bit for bit, for every preset and the defaults
(unresolved bounds included); a missing engine or an unreachable cluster is
one line, never a traceback.

One Spark session and one in-process Dask client serve the whole module.
"""

from __future__ import annotations

import io
import json
from itertools import pairwise
from pathlib import Path
from unittest import mock

import numpy as np
import pyarrow as pa
import pytest

from app.cli.main import main
from core.model.extras import install_line
from core.tables import evaluate_tables
from tests.test_parquet_io import DATA, parquet, qrels_table, run_table
from tests.test_tables import same

PRESETS = [None, "trec_eval", "sklearn", "ranx"]


def generated() -> tuple[pa.Table, pa.Table]:
    """40 queries of 25 candidates: scores with ties, a third judged, grades
    0-3, some queries with only grade 0 (undefined), judged sources the run
    did not retrieve, qrels of queries the run lacks, a query the qrels lack,
    ids like URLs."""
    rng = np.random.default_rng(7)
    q, s, score, jq, js, grade = [], [], [], [], [], []
    for i in range(40):
        for j in range(25):
            q.append(f"q{i}")
            s.append(f"https://example.org/{i}/{j}?x=1")
            score.append(float(rng.integers(0, 8)) / 4)  # ties
            if rng.random() < 0.35:
                jq.append(f"q{i}")
                js.append(s[-1])
                grade.append(0.0 if i % 9 == 0 else float(rng.integers(0, 4)))
        jq.append(f"q{i}")
        js.append(f"https://example.org/{i}/unretrieved")
        grade.append(0.0 if i % 9 == 0 else 2.0)
    jq += ["q-only-judged"]
    js += ["x"]
    grade += [1.0]
    q += ["q-only-ranked"] * 2  # ranked, never judged: counted as unjudged
    s += ["y1", "y2"]
    score += [2.0, 1.0]
    run = pa.table({"query": q, "source_id": s, "score": score})
    return run, pa.table({"query": jq, "source_id": js, "grade": grade})


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, tuple[Path, Path, pa.Table, pa.Table]]:
    root = tmp_path_factory.mktemp("scale")
    out = {}
    trec = (run_table(DATA / "results.test"), qrels_table(DATA / "qrels.test"))
    for name, (run, qrels) in {"trec": trec, "generated": generated()}.items():
        # several row groups: the engines read them in the file's order
        r, q = root / f"{name}.run.parquet", root / f"{name}.qrels.parquet"
        pa.parquet.write_table(run, r, row_group_size=400)
        pa.parquet.write_table(qrels, q, row_group_size=700)
        out[name] = (r, q, run, qrels)
    return out


@pytest.fixture(scope="module")
def spark():
    from app.scale.spark import spark_session

    session = spark_session("local[2]")
    session.conf.set("spark.sql.shuffle.partitions", "4")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def dask_client():
    from distributed import Client, LocalCluster

    # in this process, but listening on TCP so that the command line can reach it
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        yield client


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("data", ["trec", "generated"])
def test_spark_equals_one_machine(spark, files, data, preset):
    from app.scale.spark import evaluate_spark, read_parquet

    run, qrels, run_t, qrels_t = files[data]
    whole = evaluate_tables(run_t, qrels_t, preset)
    assert "unresolved" in whole.per_query.column("status").to_pylist() or preset
    result = evaluate_spark(read_parquet(spark, str(run)), read_parquet(spark, str(qrels)),
                            preset, groups=3)
    same(result.per_query, whole.per_query)
    same(result.summary, whole.summary)
    assert result.unjudged_queries == whole.unjudged_queries


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("data", ["trec", "generated"])
def test_dask_equals_one_machine(dask_client, files, data, preset):
    from app.scale.dask import evaluate_dask, read_parquet

    run, qrels, run_t, qrels_t = files[data]
    whole = evaluate_tables(run_t, qrels_t, preset)
    result = evaluate_dask(read_parquet(str(run)), read_parquet(str(qrels)), preset, groups=3)
    same(result.per_query, whole.per_query)
    same(result.summary, whole.summary)
    assert result.unjudged_queries == whole.unjudged_queries


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["evaluate", *argv], out), out.getvalue()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_spark_command_line_prints_what_evaluate_prints(spark, files, fmt):
    run, qrels, _, _ = files["generated"]
    local = cli(str(run), "--qrels", str(qrels), "--format", fmt, "--preset", "trec_eval")
    on_spark = cli(str(run), "--qrels", str(qrels), "--format", fmt, "--preset", "trec_eval",
                   "--engine", "spark")
    assert local[0] == on_spark[0] == 0
    assert on_spark[1] == local[1]
    if fmt == "json":
        assert json.loads(on_spark[1])["summary"][0]["mean"] is not None
        assert json.loads(on_spark[1])["unjudged_queries"] == ["q-only-ranked"]


def test_dask_command_line_on_a_local_cluster(files):
    """The local cluster the command starts ends with it: its worker
    processes and their watching threads do not outlive the command (they
    did until the calling process ended, a client given a cluster leaves it
    running)."""
    import multiprocessing
    import threading

    run, qrels, _, _ = files["generated"]
    local = cli(str(run), "--qrels", str(qrels), "--format", "json")
    before = set(multiprocessing.active_children())
    on_dask = cli(str(run), "--qrels", str(qrels), "--format", "json", "--engine", "dask",
                  "--workers", "1")
    assert on_dask == local
    assert set(multiprocessing.active_children()) - before == set()
    # A nanny's queue-watching thread ends a moment after its worker process
    # (distributed stops it from the process's exit): joined here, with a
    # deadline far above that moment, it must end, not live on to the end of
    # the calling process as it did.
    for t in [t for t in threading.enumerate() if "Nanny" in t.name]:
        t.join(30)
    assert not [t.name for t in threading.enumerate() if "Nanny" in t.name]


def test_a_bad_row_on_a_worker_is_one_line(spark, dask_client, tmp_path, capsys):
    run = parquet(tmp_path / "r.parquet", pa.table({
        "query": ["a", "b", "a"], "source_id": ["x", "x", "x"], "score": [1.0, 2.0, 3.0]}))
    qrels = parquet(tmp_path / "q.parquet", pa.table({
        "query": ["a"], "source_id": ["x"], "grade": [1.0]}))
    for engine in ("spark", "dask"):
        code, _ = cli(str(run), "--qrels", str(qrels), "--engine", engine,
                      *(["--workers", "1"] if engine == "dask" else []))
        assert code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"{run}, column 'source_id': query 'a' retrieves source 'x' twice (rows 1 and 3)" \
            in err


def error(capsys, *argv: str) -> str:
    code, _ = cli(*argv)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_an_engine_not_installed_names_its_extra(files, capsys):
    run, qrels, _, _ = files["generated"]
    for engine, module in (("spark", "pyspark"), ("dask", "distributed")):
        with mock.patch.dict("sys.modules", {module: None}):
            err = error(capsys, str(run), "--qrels", str(qrels), "--engine", engine)
        assert install_line(engine) in err  # its requirements (tests/test_parquet_io.py)
        assert f"(the [{engine}] extra)" in err
        assert module in err


def test_an_unreachable_cluster_is_one_line(files, capsys):
    run, qrels, _, _ = files["generated"]
    err = error(capsys, str(run), "--qrels", str(qrels), "--engine", "dask",
                "--cluster", "tcp://127.0.0.1:9")
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    err = error(capsys, str(run), "--qrels", str(qrels), "--engine", "spark",
                "--cluster", "spark://127.0.0.1:9")
    assert "cannot reach the Spark master at spark://127.0.0.1:9" in err


def test_engine_flags_are_checked_first(files, capsys):
    run, qrels, _, _ = files["generated"]
    assert "--workers" in error(capsys, str(run), "--qrels", str(qrels), "--engine", "spark",
                                "--workers", "2")
    assert "--qrels" in error(capsys, str(run), "--engine", "dask")
    assert "go with --engine spark or --engine dask" in error(
        capsys, str(run), "--qrels", str(qrels), "--cluster", "local[2]")
    text = DATA / "results.test"
    assert "reads Parquet files" in error(capsys, str(text), "--qrels", str(qrels),
                                          "--engine", "dask")


def test_dask_command_line_on_a_running_scheduler(dask_client, files):
    run, qrels, _, _ = files["trec"]
    address = dask_client.scheduler.address
    assert address.startswith("tcp://")
    local = cli(str(run), "--qrels", str(qrels), "--format", "csv", "--preset", "ranx")
    on_dask = cli(str(run), "--qrels", str(qrels), "--format", "csv", "--preset", "ranx",
                  "--engine", "dask", "--cluster", address)
    assert on_dask == local


def write_parts(folder: Path, table: pa.Table, cuts: list[int], name: str) -> Path:
    """``table`` cut at ``cuts`` into part files named ``name.format(i)`` in
    its order, the later parts larger (Spark packs its splits largest first,
    so the order it reads the files in is not their names')."""
    folder.mkdir()
    bounds = [0, *cuts, len(table)]
    for i, (lo, hi) in enumerate(pairwise(bounds)):
        pa.parquet.write_table(table.slice(lo, hi - lo), folder / name.format(i),
                               row_group_size=150)
    return folder


#: Spark's names, and Dask's (part.2 before part.10, as Dask reads them).
PART_NAMES = [(None, "part-{:05d}.parquet", [110, 330]),
              ("trec_eval", "part.{}.parquet", [8 * i * i for i in range(1, 12)])]


@pytest.mark.parametrize(("preset", "name", "cuts"), PART_NAMES)
def test_spark_on_folders_of_parts_equals_one_machine(spark, tmp_path, preset, name, cuts):
    """A run and qrels each cut into part files (a query's rows across two
    files): the rows are taken in the files' order, then each file's order,
    as one machine reads the whole tables."""
    from app.scale.spark import evaluate_spark, read_parquet

    run_t, qrels_t = generated()
    run = write_parts(tmp_path / "run", run_t, cuts, name)
    qrels = write_parts(tmp_path / "qrels", qrels_t, [40], name)
    whole = evaluate_tables(run_t, qrels_t, preset)
    result = evaluate_spark(read_parquet(spark, str(run)), read_parquet(spark, str(qrels)),
                            preset, groups=3)
    same(result.per_query, whole.per_query)
    same(result.summary, whole.summary)
    assert result.unjudged_queries == whole.unjudged_queries


@pytest.mark.parametrize(("preset", "name", "cuts"), PART_NAMES)
def test_dask_on_folders_of_parts_equals_one_machine(dask_client, tmp_path, preset, name, cuts):
    from app.scale.dask import evaluate_dask, read_parquet

    run_t, qrels_t = generated()
    run = write_parts(tmp_path / "run", run_t, cuts, name)
    qrels = write_parts(tmp_path / "qrels", qrels_t, [40], name)
    whole = evaluate_tables(run_t, qrels_t, preset)
    result = evaluate_dask(read_parquet(str(run)), read_parquet(str(qrels)), preset, groups=3)
    same(result.per_query, whole.per_query)
    same(result.summary, whole.summary)
    assert result.unjudged_queries == whole.unjudged_queries


def test_the_command_line_takes_folders_of_parts(spark, dask_client, tmp_path, capsys):
    """``evaluate FOLDER --qrels FOLDER --engine spark|dask`` prints what
    ``evaluate`` prints for the whole tables in one file each."""
    run_t, qrels_t = generated()
    name, cuts = PART_NAMES[1][1:]
    run = write_parts(tmp_path / "run", run_t, cuts, name)
    qrels = write_parts(tmp_path / "qrels", qrels_t, [40], name)
    (run / "_SUCCESS").write_text("")  # Spark's marker: skipped
    one_run = parquet(tmp_path / "r.parquet", run_t)
    one_qrels = parquet(tmp_path / "q.parquet", qrels_t)
    local = cli(str(one_run), "--qrels", str(one_qrels), "--format", "json")
    assert local[0] == 0
    for engine in (["--engine", "spark"],
                   ["--engine", "dask", "--cluster", dask_client.scheduler.address]):
        assert cli(str(run), "--qrels", str(qrels), "--format", "json", *engine) == local
    (qrels / "notes.txt").write_text("not a table")
    capsys.readouterr()  # (the runs above said their unjudged candidates' note)
    err = error(capsys, str(run), "--qrels", str(qrels), "--engine", "spark")
    assert "reads a folder of Parquet part files; notes.txt is not one" in err
    assert str(qrels) in err


def test_dask_reads_a_file_in_pieces_of_bounded_size(dask_client, tmp_path, monkeypatch):
    """One row group of 1,000 rows is cut into pieces of at most the bytes
    asked (Dask's shuffle copies a partition several times: its size must
    follow the data, not the writer's row groups); the pieces cover every
    row once, in the file's order, and evaluate as the whole table does."""
    from app.scale import dask as on_dask

    run_t, qrels_t = generated()
    run = tmp_path / "run.parquet"
    pa.parquet.write_table(run_t, run, row_group_size=len(run_t))
    size = pa.parquet.ParquetFile(run).metadata.row_group(0).total_byte_size
    cut = on_dask.pieces(str(run), size // 7)
    assert len(cut) == 7 or len(cut) == 8
    assert [start for _, _, start, _ in cut] == list(range(0, len(run_t), cut[0][3]))
    assert sum(rows for *_, rows in cut) == len(run_t)
    assert all(rows * size / len(run_t) <= size // 7 for *_, rows in cut)
    monkeypatch.setattr(on_dask, "PIECE_BYTES", size // 7)
    frame = on_dask.read_parquet(str(run))
    assert frame.npartitions == len(cut)
    read = pa.Table.from_pandas(frame.compute(), preserve_index=False)
    assert read.to_pydict() == run_t.to_pydict()
    qrels = parquet(tmp_path / "q.parquet", qrels_t)
    result = on_dask.evaluate_dask(frame, on_dask.read_parquet(str(qrels)), None, groups=3)
    same(result.per_query, evaluate_tables(run_t, qrels_t, None).per_query)


def test_spark_local_mode_bounds_its_jvm(spark):
    """Local mode's one JVM gets a 512 MiB heap unless the user's
    PYSPARK_SUBMIT_ARGS says otherwise (at 10M candidates Java's default
    heap let it reach 1.4 GiB; docs/scale.md)."""
    from app.scale.spark import LOCAL_JVM_MEMORY

    assert LOCAL_JVM_MEMORY == "512m"
    assert spark.sparkContext.getConf().get("spark.driver.memory") == "512m"


def test_the_users_java_options_are_kept(tmp_path, monkeypatch):
    """A user's ``spark.driver.extraJavaOptions`` in ``spark-defaults.conf``
    is kept and our log4j file appended (Spark's ``--conf`` would replace
    it); one that names a log4j file of its own is left as it is. No JVM."""
    from app.scale.spark import LOG_CONFIG, defaults_file, java_options

    ours = f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}"
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path))
    conf = defaults_file()
    assert conf == tmp_path / "spark-defaults.conf"
    assert java_options(conf) == ours  # no file
    conf.write_text("# mine\nspark.driver.memory 2g\n"
                    "spark.driver.extraJavaOptions   -Dfoo=1 -XX:+UseG1GC  \n")
    assert java_options(conf) == f"-Dfoo=1 -XX:+UseG1GC {ours}"
    conf.write_text("spark.driver.extraJavaOptions=-Dfoo=2\n")
    assert java_options(conf) == f"-Dfoo=2 {ours}"
    conf.write_text("spark.driver.extraJavaOptions -Dlog4j2.configurationFile=file:/x.xml\n")
    assert java_options(conf) == "-Dlog4j2.configurationFile=file:/x.xml"
