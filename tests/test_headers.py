"""The one table of header names and the two delimiter policies (core.io.headers)."""

from __future__ import annotations

from pathlib import Path

from core.io.headers import (
    ALIASES,
    field_of,
    header_delimiter,
    match_header,
    normalize,
    sniff_delimiter,
)


def test_each_alias_names_one_field():
    seen: dict[str, str] = {}
    for name, aliases in ALIASES.items():
        for alias in aliases:
            assert alias not in seen, f"{alias!r} names {seen.get(alias)} and {name}"
            seen[alias] = name
            assert normalize(alias) == alias


def test_normalize_and_field_of():
    assert normalize("  Doc - ID ") == "doc_id"
    assert normalize("_query.text_") == "query_text"
    assert field_of("Passage ID") == "source_id"
    assert field_of("Relevance-Label") == "grade"
    assert field_of("model_conf") is None


def test_match_header_prefers_the_earlier_alias_not_the_earlier_column():
    assert match_header(["id", "query", "source_id", "score", "grade"]) == {
        "source_id": 2, "query": 1, "score": 3, "grade": 4,
    }
    assert match_header(["Query", "Doc", "Score", "Grade", "Version", "Notes"]) == {
        "query": 0, "source_id": 1, "version": 4, "score": 2, "grade": 3, "note": 5,
    }


def test_delimiters():
    csv_path, tsv_path = Path("x.csv"), Path("x.tsv")
    assert header_delimiter("a;b;c", csv_path) == ";"
    assert header_delimiter("a,b;c", csv_path) == ","  # a tie: the earlier delimiter
    assert header_delimiter("abc", csv_path) == ","
    assert header_delimiter("a,b,c", tsv_path) == "\t"
    assert sniff_delimiter("a|b|c\n1|2|3\n4|5|6\n", csv_path) == "|"
    assert sniff_delimiter("a,b\n", tsv_path) == "\t"
    assert sniff_delimiter("abc", csv_path) == ","
