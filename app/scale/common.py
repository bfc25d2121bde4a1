"""What the Spark and Dask adapters share: the engines' extras, reaching a
cluster, and the per-query table's columns in each engine's types."""

from __future__ import annotations

import importlib
import re
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from core.errors import NdcgError
from core.model.extras import install_line

__all__ = [
    "ENGINES", "SAMPLE_ROWS", "check_reachable", "natural", "part_files", "require",
    "spark_schema",
]

ENGINES = ("local", "spark", "dask")
#: Rows read to size the groups (``core.tables.groups_for``).
SAMPLE_ROWS = 10_000
_SPARK_TYPES = {"text": "string", "number": "double", "count": "bigint", "flag": "boolean"}


def require(engine: str, *modules: str) -> None:
    """Import ``modules`` or stop with one line naming the extra to install."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise NdcgError(f"--engine {engine} needs the Python package {name.split('.')[0]!r}, "
                            f"which is not installed: {install_line(engine)}") from None


def check_reachable(address: str, what: str, timeout: float = 5.0) -> None:
    """Stop with one line when nothing listens at ``address``
    (``spark://host:port``, ``tcp://host:port`` or ``host:port``)."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or port is None:
        raise NdcgError(f"{address!r} is not a {what} address (host:port)")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise NdcgError(f"cannot reach the {what} at {address} ({exc.strerror or exc})") from None


def spark_schema(columns: tuple[tuple[str, str], ...]) -> str:
    """Columns as Spark's DDL schema text."""
    return ", ".join(f"`{name}` {_SPARK_TYPES[kind]}" for name, kind in columns)


def natural(path: str) -> list[Any]:
    """A path's key in natural order (``part.2`` before ``part.10``): the
    order Dask reads a folder of part files in, and the one every engine
    here takes them in."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path)]


def part_files(folder: Path) -> list[Path]:
    """A folder's part files in natural order, skipping hidden files and
    markers such as ``_SUCCESS`` (as Spark and Dask skip them)."""
    files = [f for f in folder.rglob("*") if f.is_file()
             and not any(n.startswith((".", "_")) for n in f.relative_to(folder).parts)]
    return sorted(files, key=lambda f: natural(f.as_posix()))
