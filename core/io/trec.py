"""TREC run and qrels files.

A run line is ``query Q0 source rank score tag``; a qrels line is
``query iteration source grade``. As trec_eval does, the run's rank column is
ignored (the engine orders by score under the declared tie rule) and only
queries present in both files are evaluated.
"""

from __future__ import annotations

import math
from array import array
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.conventions import Conventions
from core.document import Document, GradeState
from core.errors import InputError
from core.io.atomic import atomic_write_text

__all__ = ["Run", "document_from_trec", "read_qrels", "read_run", "write_qrels", "write_run"]

Qrels = dict[str, dict[str, float]]


def _read_bytes(path: Path) -> bytes:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError("this is a workbook, not a TREC text file", file=str(path))
    if b"\x00" in raw[:4096]:
        raise InputError("the file is binary, not a TREC text file", file=str(path))
    return raw


def _open_lines(path: Path) -> list[bytes]:
    return _read_bytes(path).splitlines()


def _text(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("cp1252", errors="replace")


def _float(token: bytes, *, file: str, line: int, column: str) -> float:
    try:
        value = float(token)
    except ValueError:
        value = math.nan
        bad = True
    else:
        bad = not math.isfinite(value)
    if bad:
        raise InputError(
            f"{_text(token)!r} is not a finite number", file=file, line=line, column=column
        )
    return value


def read_qrels(path: str | Path) -> tuple[Qrels, dict[tuple[str, str], int]]:
    """Read a qrels file: ``{query: {source: grade}}`` and each pair's line."""
    path = Path(path)
    name = str(path)
    qrels: Qrels = {}
    where: dict[tuple[str, str], int] = {}
    for line_no, line in enumerate(_open_lines(path), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4:
            raise InputError(
                f"expected 4 fields (query iteration source grade), found {len(parts)}",
                file=name, line=line_no,
            )
        q, doc = _text(parts[0]), _text(parts[2])
        grade = _float(parts[3], file=name, line=line_no, column="grade (field 4)")
        judged = qrels.setdefault(q, {})
        if doc in judged:
            raise InputError(
                f"source {doc!r} of query {q!r} is judged twice (first on line "
                f"{where[(q, doc)]})", file=name, line=line_no,
                hint="keep one judgment per query and source",
            )
        judged[doc] = grade
        where[(q, doc)] = line_no
    return qrels, where


#: The bytes ``bytes.split()`` treats as whitespace.
_SPACE = np.zeros(256, dtype=bool)
_SPACE[list(b" \t\n\r\x0b\x0c")] = True
#: The fast reader works through the file in pieces of about this many bytes.
_CHUNK = 1 << 21


def _fast_rows(raw: bytes, n_fields: int) -> list[tuple[list[bytes], npt.NDArray[np.int64]]] | None:
    """Every non-blank line's fields, a chunk of lines at a time, with each
    line's 1-based number (as ``bytes.splitlines`` counts them).

    Returns None when some non-blank line does not have exactly ``n_fields``
    fields; the line-by-line reader then names it.
    """
    if b"\x00" in raw:
        return None
    out = []
    base = 0
    pos, size = 0, len(raw)
    while pos < size:
        end = min(pos + _CHUNK, size)
        if end < size:
            nl = raw.find(b"\n", end)
            end = size if nl < 0 else nl + 1
        chunk = raw[pos:end]
        pos = end
        b = np.frombuffer(chunk, dtype=np.uint8)
        space = _SPACE[b]
        starts = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
        newline = b == 10
        cr = b == 13
        cr[:-1] &= ~newline[1:]
        breaks = np.flatnonzero(newline | cr)
        if starts.size % n_fields:
            return None
        token_line = np.searchsorted(breaks, starts).reshape(-1, n_fields)
        lines = token_line[:, 0]
        if np.any(token_line != lines[:, None]) or np.any(lines[1:] == lines[:-1]):
            return None
        tokens = chunk.split()
        if len(tokens) != starts.size:  # pragma: no cover - the same rule of whitespace
            return None
        out.append((tokens, lines + (base + 1)))
        base += breaks.size
    return out


def _decode_all(tokens: list[bytes]) -> list[str]:
    """Decode many ids at once (each as :func:`_text` would)."""
    try:
        return b"\n".join(tokens).decode("utf-8").split("\n") if tokens else []
    except UnicodeDecodeError:
        return [_text(t) for t in tokens]


class Run:
    """A run file's columns: query, source, score (and each row's line)."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        self.path = path
        self.query: list[str] = []
        self.source: list[str] = []
        self.score = array("d")
        self.line = array("l")
        self.tag = ""
        raw = _read_bytes(path)
        if not self._read_fast(raw):
            self.query, self.source = [], []
            self.score, self.line = array("d"), array("l")
            self._read_lines(raw)

    def _read_fast(self, raw: bytes) -> bool:
        """Whole chunks at a time; False where the line-by-line reader must
        look (a line with the wrong number of fields, a bad score)."""
        chunks = _fast_rows(raw, 6)
        if chunks is None:
            return False
        names: dict[bytes, str] = {}
        for tokens, lines in chunks:
            try:
                scores = np.fromiter(map(float, tokens[4::6]), np.float64, len(lines))
            except ValueError:
                return False
            if not np.all(np.isfinite(scores)):
                return False
            query = tokens[0::6]
            for qb in set(query):
                if qb not in names:
                    names[qb] = _text(qb)
            self.query += map(names.__getitem__, query)
            self.source += _decode_all(tokens[2::6])
            self.score.frombytes(scores.tobytes())
            self.line.extend(lines.tolist())
        return True

    def _read_lines(self, raw: bytes) -> None:
        name = str(self.path)
        queries: dict[bytes, str] = {}
        q_app, s_app, sc_app, l_app = (
            self.query.append, self.source.append, self.score.append, self.line.append
        )
        for line_no, line in enumerate(raw.splitlines(), start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 6:
                raise InputError(
                    f"expected 6 fields (query Q0 source rank score tag), found {len(parts)}",
                    file=name, line=line_no,
                )
            try:
                score = float(parts[4])
            except ValueError:
                score = math.nan
            if not math.isfinite(score):
                raise InputError(
                    f"{_text(parts[4])!r} is not a finite number", file=name, line=line_no,
                    column="score (field 5)",
                )
            qb = parts[0]
            q = queries.get(qb)
            if q is None:
                q = queries[qb] = _text(qb)
            q_app(q)
            s_app(_text(parts[2]))
            sc_app(score)
            l_app(line_no)


def read_run(path: str | Path) -> Run:
    return Run(path)


def document_from_trec(
    run: str | Path | Run,
    qrels_path: str | Path,
    conventions: Conventions | None = None,
) -> Document:
    """Join a run and qrels into a document.

    Queries in both files are kept. Run rows without a judgment get an unknown
    grade; judged sources the run did not retrieve are added without a score.
    """
    run = run if isinstance(run, Run) else Run(run)
    qrels, _ = read_qrels(qrels_path)
    keep_q = set(run.query) & set(qrels)
    n_run = len(run.query)
    if len(keep_q) == len(set(run.query)):
        rows = np.arange(n_run)
    else:
        rows = np.fromiter((i for i, q in enumerate(run.query) if q in keep_q), np.int64)
    query = [run.query[i] for i in rows]
    source = np.empty(len(rows), dtype=object)
    source[:] = [run.source[i] for i in rows]
    score = np.frombuffer(run.score, dtype=np.float64)[rows]
    grade = np.full(len(rows), np.nan)
    retrieved: dict[str, set[str]] = {q: set() for q in keep_q}
    for j in range(len(rows)):
        q = query[j]
        judged = qrels[q]
        s = source[j]
        g = judged.get(s)
        if g is not None:
            grade[j] = g
            retrieved[q].add(s)
    extra_q: list[str] = []
    extra_s: list[str] = []
    extra_g: list[float] = []
    order = [q for q in dict.fromkeys(run.query) if q in keep_q]
    for q in order:
        seen = retrieved[q]
        for s, g in qrels[q].items():
            if s not in seen:
                extra_q.append(q)
                extra_s.append(s)
                extra_g.append(g)
    all_source = np.empty(len(rows) + len(extra_s), dtype=object)
    all_source[: len(rows)] = source
    all_source[len(rows):] = extra_s
    doc = Document.from_columns(
        query=query + extra_q,
        source_id=all_source,
        score=np.concatenate([score, np.full(len(extra_s), np.nan)]),
        grade=np.concatenate([grade, np.array(extra_g, dtype=np.float64)]),
        query_order=order,
        conventions=conventions,
        name=Path(run.path).stem,
        source=None,
        check=False,
    )
    dup = doc.find_duplicate()
    if dup is not None:
        line = int(run.line[int(rows[dup[1]])])
        raise InputError(
            f"query {doc.query_ids[int(doc.query[dup[1]])]!r} retrieves source "
            f"{doc.source_id[dup[1]]!r} twice (first on line {int(run.line[int(rows[dup[0]])])})",
            file=str(run.path), line=line, hint="keep one line per query and source",
        )
    return doc


def _write_lines(path: Path, lines: list[str]) -> None:
    atomic_write_text(Path(path), "".join(lines))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def write_qrels(doc: Document, path: str | Path) -> int:
    """Write the current numeric grades as qrels; returns the lines written.

    Unknown and unrateable grades are not judgments and are left out.
    """
    lines = [
        f"{doc.query_ids[int(doc.query[i])]} 0 {doc.source_id[i]} {_num(doc.grade[i])}\n"
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
