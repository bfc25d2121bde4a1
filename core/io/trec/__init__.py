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

from core.io.trec.join import document_from_judged, document_from_trec
from core.io.trec.read import QrelsColumns, Run, read_qrels, read_run
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
