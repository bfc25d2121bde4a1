"""The hidden metadata sheet: the document as JSON, written so that
:func:`core.io.workbook.read_workbook` restores it exactly, and read back."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from core.errors import ConventionError, NotOwnWorkbook
from core.io.workbook.layout import CHUNK, METADATA_FORMAT, SHEETS, FloatArray
from core.io.workbook.metadata_check import MetadataError, check_metadata, metadata_error
from core.model.assignment import Assignment
from core.model.audit import AuditEntry
from core.model.conventions import Conventions
from core.model.document import Document

#: How every refusal of a workbook without our metadata begins (raised as
#: :class:`core.errors.NotOwnWorkbook`).
_NOT_OURS = "this is not an NDCG Worksheet workbook"


def _floats(a: FloatArray) -> list[float | None]:
    return [None if math.isnan(x) else x for x in np.asarray(a, dtype=np.float64).tolist()]


def _metadata(doc: Document, conv: Conventions, perm: np.ndarray) -> dict[str, Any]:
    """The document, the workbook's conventions and the sheet row order as JSON values."""
    meta: dict[str, Any] = {
        "format": METADATA_FORMAT,
        "query_ids": list(doc.query_ids),
        "query": doc.query.tolist(),
        "source_id": [str(s) for s in doc.source_id.tolist()],
        "version": [str(s) for s in doc.version.tolist()],
        "score": _floats(doc.score),
        "grade": _floats(doc.grade),
        "state": doc.state.astype(int).tolist(),
        "original_grade": _floats(doc.original_grade),
        "original_state": doc.original_state.astype(int).tolist(),
        "note": [str(s) for s in doc.note.tolist()],
        "reason": [str(s) for s in doc.reason.tolist()],
        "frequency": _floats(doc.frequency),
        "importance": _floats(doc.importance),
        "conventions": doc.conventions.to_dict(),
        "workbook_conventions": conv.to_dict(),
        "judgment_version": doc.judgment_version,
        "name": doc.name,
        "audit": [
            [e.who, e.when, e.query, e.source_id, e.before, e.after, e.note, e.origin,
             e.seconds, e.convention, e.about_note, *([True] if e.about_text else [])]
            for e in doc.audit
        ],
        "annotators": list(doc.annotators),
        "ratings": None if doc.ratings is None else [_floats(r) for r in doc.ratings],
        "ratings_shape": None if doc.ratings is None else list(doc.ratings.shape),
        "sheet_rows": perm.tolist(),
    }
    if doc.assignment is not None:  # optional: a review round's workbook only
        meta["assignment"] = doc.assignment.to_dict()
    if doc.ranking:  # optional: scores from a rank column or a declared row order only
        meta["ranking"] = doc.ranking
    if doc.run_tag:  # optional: a run's tag as its file wrote it (a TREC export writes it)
        meta["run_tag"] = doc.run_tag
    if doc.query_texts:  # optional: the queries' texts an import read beside their ids
        meta["query_texts"] = dict(doc.query_texts)
    marks = doc.unrateable_ratings
    if marks is not None and marks.any():  # optional: (candidate, annotator) of each mark
        at = np.argwhere(marks)
        meta["unrateable_ratings"] = at.tolist()
        words = doc.unrateable_words
        if words is not None:  # each mark as written, in the same order
            meta["unrateable_words"] = [str(w) for w in words[at[:, 0], at[:, 1]].tolist()]
    return meta


def _chunks(text: str) -> list[str]:
    """``text`` (JSON with no space between tokens) in cells of
    :data:`CHUNK` characters, a space at a cell's start or end written
    ``\\u0020``: Gnumeric writes a cell's text without ``xml:space="preserve"``,
    and the spaces at its ends are then dropped when the workbook is read back
    (an unrateable grade's reason "a b" cut at its space came back "ab")."""
    chunks = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]
    for i, chunk in enumerate(chunks):
        if chunk.startswith(" "):
            chunk = "\\u0020" + chunk[1:]
        if chunk.endswith(" "):
            chunk = chunk[:-1] + "\\u0020"
        chunks[i] = chunk
    return chunks


def write_metadata(wb: Any, doc: Document, conv: Conventions, perm: np.ndarray) -> None:
    """The hidden sheet: a format line, then the JSON in cells of :data:`CHUNK` characters."""
    ws = wb.add_worksheet(SHEETS["metadata"])
    # ASCII-only JSON, and "_x" escaped so that no reader takes it for an
    # OOXML character escape (_x000D_). No space between tokens: a space is
    # then always inside a string, where _chunks may escape it.
    text = json.dumps(_metadata(doc, conv, perm), ensure_ascii=True, allow_nan=False,
                      separators=(",", ":"))
    text = text.replace("_x", "\\u005fx")
    chunks = _chunks(text)
    ws.write_string(0, 0, METADATA_FORMAT)
    ws.write_string(0, 1, str(len(chunks)))
    ws.write_string(0, 2, "Kept by NDCG Worksheet to reopen this workbook exactly; do not edit.")
    for i, chunk in enumerate(chunks, start=1):
        ws.write_string(i, 0, chunk)
    ws.hide()


def read_metadata(rows: list[list[Any]], name: str) -> dict[str, Any]:
    """The JSON of the metadata sheet (its cells from A1); NotOwnWorkbook when
    it is missing, from another version or damaged."""
    sheet = SHEETS["metadata"]
    hint = "open it as an annotator sheet or a CSV instead"
    if not rows:
        raise NotOwnWorkbook(f"{_NOT_OURS} (it has no {sheet!r} sheet)", file=name, hint=hint)
    cells = [row[0] if row else None for row in rows]
    first = rows[0]
    if cells[0] != METADATA_FORMAT or len(first) < 2:
        raise NotOwnWorkbook(f"{_NOT_OURS} (its metadata is missing or from another version)",
                             file=name, sheet=sheet, hint=hint)
    try:
        count = int(first[1]) if isinstance(first[1], float) else int(str(first[1]))
        chunks = cells[1 : 1 + count]
        if len(chunks) != count or not all(isinstance(c, str) for c in chunks):
            raise ValueError("metadata chunks are missing")
        meta = json.loads("".join(str(c) for c in chunks))
        if not isinstance(meta, dict) or meta.get("format") != METADATA_FORMAT:
            raise ValueError("metadata format does not match")
    except ValueError as exc:
        raise NotOwnWorkbook(f"{_NOT_OURS} (its metadata is damaged: {exc})", file=name,
                             sheet=sheet, hint=hint) from exc
    return meta


def document_from_metadata(meta: dict[str, Any], name: str) -> Document:
    """The document the metadata holds, checked field by field first
    (:func:`~core.io.workbook.metadata_check.check_metadata`); an
    :class:`InputError` naming the field when it is not as the app wrote it."""
    check_metadata(meta, name)

    def floats(values: list[Any]) -> FloatArray:
        return np.array([np.nan if v is None else v for v in values], dtype=np.float64)

    def texts(key: str) -> npt.NDArray[np.object_]:
        out = np.empty(len(meta[key]), dtype=object)
        out[:] = meta[key]
        return out

    try:
        ratings = None
        if meta["ratings"] is not None:
            ratings = floats([v for row in meta["ratings"] for v in row]).reshape(
                tuple(meta["ratings_shape"]))
        doc = Document(
            query_ids=list(meta["query_ids"]),
            query=np.array(meta["query"], dtype=np.int64),
            source_id=texts("source_id"),
            version=texts("version"),
            score=floats(meta["score"]),
            grade=floats(meta["grade"]),
            state=np.array(meta["state"], dtype=np.int8),
            original_grade=floats(meta["original_grade"]),
            original_state=np.array(meta["original_state"], dtype=np.int8),
            note=texts("note"),
            reason=texts("reason"),
            frequency=floats(meta["frequency"]),
            importance=floats(meta["importance"]),
            conventions=stored_conventions(meta, "conventions"),
            judgment_version=meta["judgment_version"],
            name=meta["name"],
            audit=[AuditEntry.read(e) for e in meta["audit"]],
            annotators=list(meta["annotators"]),
            ratings=ratings,
            assignment=(None if meta.get("assignment") is None
                        else Assignment.from_dict(meta["assignment"])),
        )
        doc.ranking = meta.get("ranking", "")
        doc.run_tag = meta.get("run_tag", "")
        doc.query_texts = dict(meta.get("query_texts", {}))
        if meta.get("unrateable_ratings") and ratings is not None:
            doc.unrateable_ratings = np.zeros(ratings.shape, dtype=bool)
            at = np.array(meta["unrateable_ratings"], dtype=np.int64).reshape(-1, 2)
            doc.unrateable_ratings[at[:, 0], at[:, 1]] = True
            if meta.get("unrateable_words") is not None:
                doc.unrateable_words = np.full(ratings.shape, "", dtype=object)
                doc.unrateable_words[at[:, 0], at[:, 1]] = meta["unrateable_words"]
        duplicate = doc.find_duplicate()
        if duplicate is not None:
            first, second = duplicate
            raise MetadataError("source_id", (
                f"lists source {doc.source_id[first]!r} of query "
                f"{doc.query_ids[int(doc.query[first])]!r} twice (items {first} and {second})"))
    except MetadataError as bad:
        raise metadata_error(bad, name) from None
    return doc


def stored_conventions(meta: dict[str, Any], key: str) -> Conventions:
    """The conventions record ``key`` of checked metadata (``conventions``:
    the document's; ``workbook_conventions``: those the sheets were written
    with)."""
    try:
        return Conventions.from_dict(meta[key])
    except ConventionError as exc:
        raise MetadataError(key, f"is not readable: {exc}") from None
