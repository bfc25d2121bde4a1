"""What a file must give back: the check made before a document is written
as a CSV, TSV or TREC qrels file (by the command line's export and the
editor's save, which hand the document to :mod:`core.io`), so that the
product never writes what it cannot evaluate when read again."""

from __future__ import annotations

from pathlib import Path

from core.errors import InputError
from core.model.conventions import Conventions
from core.model.document import Document

__all__ = ["check_computable"]


def check_computable(doc: Document, path: str | Path) -> None:
    """Refuse, before anything is written, a document whose NDCG cannot be
    computed under the conventions a text file (CSV, TSV, qrels) reopens with,
    the defaults: grades whose gains overflow the largest float, alone or
    added up over a query, would stop the reopened file there. The
    :class:`InputError` names the query and grade."""
    from core.engine.evaluation import evaluate

    try:
        evaluate(doc, Conventions())
    except InputError as exc:
        raise InputError(f"{exc.problem}; nothing was written, since the file could not be "
                         "evaluated when opened again", file=str(path), hint=exc.hint) from None
