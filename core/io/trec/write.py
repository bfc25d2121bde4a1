"""Writing a document as TREC qrels or a TREC run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.io.atomic import atomic_write_text
from core.model.document import Document, GradeState
from core.model.numbers import number_text

__all__ = ["write_qrels", "write_run"]


def _write_lines(path: Path, lines: list[str]) -> None:
    atomic_write_text(Path(path), "".join(lines))


def write_qrels(doc: Document, path: str | Path) -> int:
    """Write the current numeric grades as qrels; returns the lines written.

    Unknown and unrateable grades are not judgments and are left out.
    """
    lines = [
        f"{doc.query_ids[int(doc.query[i])]} 0 {doc.source_id[i]} {number_text(doc.grade[i])}\n"
        for i in range(len(doc))
        if doc.state[i] == GradeState.NUMBER
    ]
    _write_lines(Path(path), lines)
    return len(lines)


def write_run(doc: Document, path: str | Path, tag: str = "ndcg-worksheet") -> int:
    """Write the retrieved candidates as a run, ranked by score then row order."""
    lines = []
    for q in range(doc.n_queries):
        idx = doc.members(q)
        idx = idx[~np.isnan(doc.score[idx])]
        idx = idx[np.argsort(-doc.score[idx], kind="stable")]
        for r, i in enumerate(idx, start=1):
            lines.append(
                f"{doc.query_ids[q]} Q0 {doc.source_id[i]} {r} {float(doc.score[i])!r} {tag}\n"
            )
    _write_lines(Path(path), lines)
    return len(lines)
