"""TREC run and qrels files.

A run line is ``query Q0 source rank score tag``; a qrels line is
``query iteration source grade``. As trec_eval does, the run's rank column is
ignored (the engine orders by score under the declared tie rule) and only
queries present in both files are evaluated.

The package, bottom to top: :mod:`~core.io.trec.text` (a file's bytes
checked, ids decoded), :mod:`~core.io.trec.scan` (the fast column-wise
reader), :mod:`~core.io.trec.read` (qrels, :class:`Run`,
:class:`QrelsColumns`), :mod:`~core.io.trec.both` (a run and its qrels read
side by side), :mod:`~core.io.trec.join` (run + qrels -> document) and
:mod:`~core.io.trec.write`.
"""

from typing import TYPE_CHECKING, Any

from core.io.trec.join import document_from_judged, document_from_trec
from core.io.trec.read import QrelsColumns, Run, read_qrels, read_run

if TYPE_CHECKING:
    from core.io.trec.write import write_qrels, write_run

__all__ = [
    "QrelsColumns",
    "Run",
    "document_from_judged",
    "document_from_trec",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
]


def __getattr__(name: str) -> Any:
    """The writers, loaded when first asked: a command that only reads
    (evaluate) does not load them (nor hashlib for the atomic write's
    identity check: 4-8 ms of a fresh process's start)."""
    if name in ("write_qrels", "write_run"):
        from core.io.trec import write

        return getattr(write, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
