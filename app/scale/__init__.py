"""The same engine on Spark and Dask: ``evaluate --engine spark|dask``.

Adapters, Qt-free and without arithmetic: the rows of a run and its qrels
are grouped by query (whole queries per group, each group sized to stay
within a worker's memory), :func:`core.tables.evaluate_rows` evaluates each
group on a worker, and :func:`core.tables.finish` makes the per-query table
and the means on the driver. pyspark, dask and pandas are imported only
here, and only when the engine is asked for (``docs/scale.md``).
"""
