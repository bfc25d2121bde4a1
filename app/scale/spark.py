"""Evaluate on Spark: ``groupBy(group).applyInArrow`` over groups of whole queries.

:func:`evaluate_spark` takes Spark DataFrames (a notebook's, or the
command line's Parquet files) and returns :class:`core.tables.TableResult`.
The run and the qrels become one table of rows (``core.tables.ROW_COLUMNS``:
the side, the ids as text, the score or grade, the row's place in its
file), each row goes to the group ``xxhash64(query) mod groups`` (so a
query's rows meet in one group), and each group is evaluated by
:func:`core.tables.evaluate_rows` in a Python worker. ``applyInArrow`` is
``applyInPandas``'s Arrow twin (Spark 4): the group arrives as the Arrow
table the engine reads, with no pandas copy. The driver collects the
per-query table only.
"""

from __future__ import annotations

import os
import re
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

from app.scale.common import SAMPLE_ROWS, natural, require, spark_schema
from core.errors import InputError, NdcgError
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

__all__ = ["defaults_file", "evaluate_spark", "java_options", "read_parquet", "spark_session"]


#: Spark's logging: errors only (its warnings at start-up are not the user's);
#: package data, read by the JVM from the installed file.
LOG_CONFIG = Path(str(files("app.scale").joinpath("log4j2.properties")))
#: The heap of Spark's JVM in local mode (``spark.driver.memory``).
LOCAL_JVM_MEMORY = "512m"


def spark_session(master: str = "local[*]") -> Any:
    """A Spark session on ``master`` (the one already running, if any)."""
    require("spark", "pyspark", "pyarrow", "pandas")
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.config(JAVA_OPTIONS, java_options(defaults_file()))
    if master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # one machine: no network
        if "PYSPARK_SUBMIT_ARGS" not in os.environ:
            # local mode: one JVM is driver and executor; it shuffles the rows
            # (spilling past its memory) while the Python workers evaluate.
            # Java's default heap (a quarter of the machine) let it reach
            # 1.4 GiB at 10M candidates, 512 MiB keeps it under 0.9 (docs/scale.md)
            builder = builder.config("spark.driver.memory", LOCAL_JVM_MEMORY)
    try:
        return (builder.master(master).appName("ndcg-worksheet")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.execution.arrow.pyspark.enabled", "true")
                .getOrCreate())
    except Exception as exc:  # no Java, a bad master URL: pyspark's own errors
        raise NdcgError(f"could not start Spark on {master} ({_first_line(exc)}); "
                        "Spark needs a Java runtime (java -version)") from None


#: The driver JVM's options: Spark's ``--conf`` replaces the value a user's
#: ``spark-defaults.conf`` gives, so :func:`java_options` joins the two.
JAVA_OPTIONS = "spark.driver.extraJavaOptions"


def defaults_file() -> Path:
    """The ``spark-defaults.conf`` that ``spark-submit`` reads (in
    ``SPARK_CONF_DIR``, else in ``SPARK_HOME/conf``)."""
    folder = os.environ.get("SPARK_CONF_DIR")
    if not folder:
        import pyspark

        # pyspark's launcher: SPARK_HOME, else the installed package itself
        home = os.environ.get("SPARK_HOME") or str(Path(pyspark.__file__).parent)
        folder = str(Path(home) / "conf")
    return Path(folder) / "spark-defaults.conf"


def java_options(defaults: Path) -> str:
    """The driver's Java options: the user's from ``defaults`` (a
    ``spark-defaults.conf``, if there is one) followed by our log4j file,
    unless the user's already name a log4j configuration of their own."""
    ours = f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}"
    theirs = _property(defaults, JAVA_OPTIONS)
    if not theirs:
        return ours
    return theirs if "-Dlog4j2.configurationFile=" in theirs else f"{theirs} {ours}"


def _property(path: Path, key: str) -> str:
    """``key``'s value in a Java properties file as Spark reads it (``key
    value``, ``key=value`` or ``key:value``, trimmed; ``#``/``!`` comments);
    empty when the file or the key is missing or unreadable."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    value = ""
    for line in lines:
        text = line.strip()
        if not text or text[0] in "#!":
            continue
        match = re.match(r"([^\s=:]+)\s*[=:\s]\s*(.*)", text)
        if match and match.group(1) == key:
            value = match.group(2).strip()  # the last line naming it wins
    return value


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_parquet(spark: Any, path: str) -> Any:
    """A Parquet file (or folder of them) as a Spark DataFrame."""
    try:
        return spark.read.parquet(path)
    except Exception as exc:  # AnalysisException: no such path, not Parquet
        raise InputError(f"Spark cannot read it ({_first_line(exc)})", file=path) from None


def _ids_or_numbers(df: Any, role: str, file: str) -> list[str]:
    from pyspark.sql import types as T

    q, s, v = resolve_columns(df.columns, role, file)
    kinds = {f.name: f.dataType for f in df.schema.fields}
    for name in (q, s):
        if not isinstance(kinds[name], T.StringType | T.IntegralType | T.NullType):
            raise InputError(f"ids must be text or whole numbers, not {kinds[name].simpleString()}",
                             file=file, column=name)
    if not isinstance(kinds[v], T.NumericType | T.NullType):
        raise InputError(f"must hold numbers, not {kinds[v].simpleString()}", file=file, column=v)
    return [q, s, v]


#: A row's place is its file's rank times this plus its index in the file.
_FILE_STRIDE = 1 << 40


def _place(df: Any) -> tuple[Any, Any]:
    """``df`` and each row's place in the files it was read from: the
    files in the natural order of their paths (a folder of part files: the
    order Dask and one machine reading the parts one after the other take
    them in, whatever order Spark lists and packs them in), then the row's
    index in its file (``_metadata``). A DataFrame
    not read from files keeps the order Spark gives
    (``monotonically_increasing_id``)."""
    from pyspark.errors import AnalysisException
    from pyspark.sql import functions as F

    try:
        # resolved now: a DataFrame not read from a file has no _metadata
        df = df.withColumns({"_ndcg_file": F.col("_metadata.file_path"),
                             "_ndcg_row": F.col("_metadata.row_index")})
    except AnalysisException:
        return df, F.monotonically_increasing_id()
    row = F.col("_ndcg_row")
    if len(df.inputFiles()) <= 1:  # one file: no job to list the files' paths
        return df, row
    paths = sorted((r[0] for r in df.select("_ndcg_file").distinct().collect()), key=natural)
    ranks = df.sparkSession.createDataFrame(list(enumerate(paths)),
                                            "_ndcg_rank long, _ndcg_file string")
    df = df.join(F.broadcast(ranks), "_ndcg_file")
    return df, F.col("_ndcg_rank") * F.lit(_FILE_STRIDE) + row


def _rows(df: Any, role: str, side: int, file: str) -> Any:
    """``df``'s rows as :data:`core.tables.ROW_COLUMNS`, each with its
    place (:func:`_place`)."""
    from pyspark.sql import functions as F

    q, s, v = _ids_or_numbers(df, role, file)
    df, row = _place(df)
    return df.select(
        F.lit(side).cast("long").alias("side"),
        F.col(f"`{q}`").cast("string").alias("query"),
        F.col(f"`{s}`").cast("string").alias("source_id"),
        F.col(f"`{v}`").cast("double").alias("value"),
        row.cast("long").alias("row"),
    )


def evaluate_spark(run: Any, qrels: Any, conventions: Conventions | str | None = None, *,
                   groups: int | None = None, run_name: str = "run",
                   qrels_name: str = "qrels") -> TableResult:
    """Evaluate a run DataFrame against a qrels DataFrame on their Spark
    session: the numbers of ``ndcg-worksheet evaluate`` on the same rows.

    ``groups``: how many groups of whole queries (by default, from the
    rows' count and size so that a group stays within a worker's GiB, and
    at least one per core).
    """
    from pyspark.sql import functions as F

    conv = conventions_of(conventions)
    rows = _rows(run, "run", 0, run_name).unionByName(_rows(qrels, "qrels", 1, qrels_name))
    cores = int(rows.sparkSession.sparkContext.defaultParallelism)
    n = groups or groups_for(rows.count(), rows.limit(SAMPLE_ROWS).toArrow(), cores)
    keyed = rows.withColumn("group", F.pmod(F.xxhash64("query"), F.lit(n)))

    def evaluate_group(table: Any) -> Any:
        return evaluate_rows(table, conv, (run_name, qrels_name))

    out = (keyed.repartition(n, "group").groupBy("group")
           .applyInArrow(evaluate_group, spark_schema(output_schema())))
    return finish(out.toArrow(), conv)
