"""Header names and delimiters of delimited text sheets, in one place.

Both readers of text sheets use this module: the plain worksheet reader
(:mod:`core.io.delimited`, and :func:`core.io.load.is_annotator_sheet`) and
the annotators' importer (:mod:`core.io.annotator`). They share the alias
table, the way a header is normalised and the delimiter count; each keeps
its own way of resolving a header (see :func:`match_header` and
:func:`field_of`) and of sniffing (see :func:`header_delimiter` and
:func:`sniff_delimiter`), because files already read one way must keep
reading the same way.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "ALIASES",
    "REQUIRED",
    "field_of",
    "header_delimiter",
    "match_header",
    "normalize",
    "sniff_delimiter",
]

#: Header names recognised for each field, compared after :func:`normalize`.
#: Within a field the order is a priority: :func:`match_header` takes the
#: first alias present (``source_id`` before a bare ``id``). The plain
#: worksheet reads query, source_id, version, score, grade, note and reason;
#: rank and annotator are the annotators' importer's own.
ALIASES: dict[str, tuple[str, ...]] = {
    "query": ("query", "qid", "query_id", "topic", "topic_id", "question", "query_text"),
    "source_id": (
        "source_id", "source", "doc", "docid", "doc_id", "document", "document_id", "docno",
        "url", "passage", "passage_id", "pid", "candidate", "id",
    ),
    "version": ("version", "source_version", "doc_version"),
    "score": ("score", "predicted_score", "prediction", "sim", "similarity"),
    "grade": (
        "grade", "label", "rating", "relevance", "rel", "judgment", "judgement",
        "relevance_grade", "relevance_label",
    ),
    "note": ("note", "notes", "comment", "comments"),
    "reason": ("reason", "unrateable_reason"),
    "rank": ("rank", "position", "pos"),
    "annotator": ("annotator", "annotator_id", "rater", "assessor", "judge", "reviewer", "user"),
}
#: The columns a plain worksheet cannot do without.
REQUIRED = ("query", "source_id", "score", "grade")
#: Delimiters tried, in the order that breaks a tie.
DELIMITERS = (",", "\t", ";", "|")
#: Suffixes that name tab-separated text whatever the first line holds.
_TAB_SUFFIXES = (".tsv", ".tab")
#: Lines :func:`sniff_delimiter` looks at.
_SNIFF_LINES = 20

_FIELD_OF = {alias: name for name, aliases in ALIASES.items() for alias in aliases}
_SEPARATORS = re.compile(r"[\s\-.]+")


def normalize(text: object) -> str:
    """A header as it is compared: lower case, runs of spaces, dashes and
    dots read as one underscore, no underscore at either end.

    Examples
    --------
    >>> normalize(" Source-ID ")
    'source_id'
    >>> normalize("doc.id")
    'doc_id'
    """
    return _SEPARATORS.sub("_", str(text).strip().lower()).strip("_")


def field_of(header: str) -> str | None:
    """The field a single header names, or None (the importer's detection)."""
    return _FIELD_OF.get(normalize(header))


def match_header(names: Sequence[str]) -> dict[str, int]:
    """Field -> column for a plain worksheet's header.

    For each field the first of its aliases (in :data:`ALIASES` order) that
    names a column wins, whatever the column's position; a column feeds one
    field at most.
    """
    cleaned = [normalize(n) for n in names]
    out: dict[str, int] = {}
    for name, aliases in ALIASES.items():
        for alias in aliases:
            if alias in cleaned and cleaned.index(alias) not in out.values():
                out[name] = cleaned.index(alias)
                break
    return out


def _tab_file(path: Path) -> bool:
    return path.suffix.lower() in _TAB_SUFFIXES


def _most_common(line: str) -> str:
    """The delimiter the line holds most often (the first on a tie); a comma
    when it holds none."""
    counts = {d: line.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def header_delimiter(first_line: str, path: Path) -> str:
    """The delimiter of a plain worksheet: a tab for .tsv/.tab, else the one
    its header line holds most often."""
    return "\t" if _tab_file(path) else _most_common(first_line)


def sniff_delimiter(text: str, path: Path) -> str:
    """The delimiter of an annotators' sheet: a tab for .tsv/.tab, else what
    :class:`csv.Sniffer` finds in the first 20 lines, else the one the first
    line holds most often."""
    if _tab_file(path):
        return "\t"
    sample = "\n".join(text.splitlines()[:_SNIFF_LINES])
    try:
        return csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        return _most_common(sample.split("\n", 1)[0])
