"""Ids kept as bytes (core.model.ids.IdBytes) against the same ids as text."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.model import ids as ids_module
from core.model.ids import IdBytes


def id_texts(heads: list[str], characters: str, longest: int) -> st.SearchStrategy[str]:
    """Non-empty ids: one of ``heads``, then up to ``longest`` of ``characters``."""
    return st.builds(lambda head, tail: head + tail, st.sampled_from(heads),
                     st.text(st.sampled_from(characters), max_size=longest)).filter(bool)


#: Short and long ids (several 8-byte words), shared prefixes, characters of
#: one to four bytes, line breaks (JSON, Parquet and a sheet's cells may give
#: one: the arena's own separator) and the odd zero byte (which text may hold).
TEXTS = id_texts(["", "d", "doc-0000000", "https://www.example.com/very/long/path/"],
                 "ab-é€\U0001f600\x00z9\n\r", 40)
#: Ids with long shared prefixes (several 8-byte words alike), prefixes of
#: each other, and characters of one to four bytes in UTF-8 (no zero byte:
#: the sort reads one as the end of the id).
SORTED_TEXTS = id_texts(["", "doc-", "https://www.example.com/a/", "https://www.example.com/b"],
                        "ab-é€\U0001f600z0\n\r", 12)


@given(st.lists(TEXTS, min_size=1, max_size=40), st.data())
def test_take_extend_concat_keep_the_ids(texts, data):
    ids = IdBytes.from_texts(texts)
    assert ids.texts() == texts
    assert len(ids) == len(texts)
    rows = np.array(data.draw(st.lists(st.integers(0, len(texts) - 1), max_size=60)),
                    dtype=np.int64)
    taken = ids.take(rows)
    assert taken.texts() == [texts[r] for r in rows]
    assert ids.texts(rows) == [texts[r] for r in rows]
    assert [ids.text(int(r)) for r in rows] == [texts[r] for r in rows]
    more = data.draw(st.lists(TEXTS, max_size=10))
    both = IdBytes.concat([ids, IdBytes.from_texts(more)])
    assert both.texts() == texts + more
    grown = IdBytes.from_texts(texts).extend(IdBytes.from_texts(more))
    assert grown.texts() == texts + more
    assert grown.arena[int(grown.offset[-1]):].tolist() == [0] * 8  # the words' padding


@given(st.lists(TEXTS, min_size=1, max_size=30), st.data())
def test_same_and_codes_follow_the_text(texts, data):
    ids = IdBytes.from_texts(texts)
    n = len(texts)
    a = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=40)))
    b = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=a.size, max_size=a.size)))
    other = IdBytes.from_texts(list(reversed(texts)))
    got = ids.same(a, other, n - 1 - b)
    assert got.tolist() == [texts[i] == texts[j] for i, j in zip(a, b, strict=True)]
    keys = ids.keys()
    for i in range(n):
        for j in range(n):
            if texts[i] == texts[j]:
                assert keys[i] == keys[j]
    found = ids.codes()
    if found is None:  # only when two different ids share a key: the caller compares texts
        # (a file's ids hold no zero byte; text may, and "\0" and "\0\0" share one)
        assert any(keys[i] == keys[j] and texts[i] != texts[j]
                   for i in range(n) for j in range(n))
        return
    codes, distinct = found
    assert distinct[codes].tolist() == texts
    assert len(set(distinct.tolist())) == distinct.size


def test_one_id_as_text_without_decoding_the_column():
    """A document's source id for the grid, one at a time: the same text as
    the column gives (UTF-8, else Windows-1252), the column left unmade."""
    from core.model.document import Document

    raw = [b"d\xc3\xa9", b"caf\xe9", b"plain"]  # UTF-8, Windows-1252, ASCII
    arena = np.frombuffer(b"".join(r + b"\n" for r in raw) + bytes(8), dtype=np.uint8).copy()
    offset = np.cumsum([0, *(len(r) + 1 for r in raw)]).astype(np.int64)
    doc = Document.from_columns(query=["q"] * 3, source_id=IdBytes(arena, offset),
                                score=[3.0, 2.0, 1.0], check=False)  # as the TREC reader
    assert [doc.source_text(i) for i in range(3)] == ["d\u00e9", "caf\u00e9", "plain"]
    assert "_made_source_id" in doc.__dict__
    assert type(doc.__dict__["_made_source_id"]).__name__ == "DecodedIds"  # still bytes
    assert doc.source_id.tolist() == ["d\u00e9", "caf\u00e9", "plain"]
    assert [doc.source_text(i) for i in range(3)] == doc.source_id.tolist()


def test_ids_holding_line_breaks_come_back_whole():
    """The arena ends each id with "\n": an id holding one itself (a JSON
    string "a\nb", a Parquet cell) is cut where the offsets say, one text an
    id, UTF-8 or not (the case that gave 5 texts for 4 ids and a traceback
    beside Parquet qrels)."""
    texts = ["a\nb", "c", "\n", "d\r\ne\r", "", "\u00e9\n"]
    ids = IdBytes.from_texts(texts)
    assert ids.texts() == texts
    assert ids.texts(np.array([3, 0, 2], dtype=np.int64)) == ["d\r\ne\r", "a\nb", "\n"]
    raw = [b"caf\xe9\nx", b"a\nb", b"\n\n"]  # Windows-1252: each id decoded alone
    arena = np.frombuffer(b"".join(r + b"\n" for r in raw) + bytes(8), dtype=np.uint8).copy()
    offset = np.cumsum([0, *(len(r) + 1 for r in raw)]).astype(np.int64)
    assert IdBytes(arena, offset).texts() == ["caf\u00e9\nx", "a\nb", "\n\n"]


@given(st.lists(SORTED_TEXTS, min_size=1, max_size=30), st.data())
def test_ids_sorted_as_bytes_are_sorted_as_text(texts, data):
    """IdBytes.sort_descending puts rows in the order the text of their ids
    gives (descending code points, equal ids kept in order), within groups."""
    ids = IdBytes.from_texts(texts)
    rows = np.array(data.draw(st.permutations(range(len(texts)))), dtype=np.int64)
    rows = rows[: data.draw(st.integers(1, len(texts)))]
    group = np.sort(np.array(data.draw(st.lists(st.integers(0, 3), min_size=rows.size,
                                                max_size=rows.size)), dtype=np.int64))
    rank = {t: n for n, t in enumerate(sorted(set(texts)))}
    code = np.array([rank[texts[r]] for r in rows], dtype=np.int64)
    np.testing.assert_array_equal(ids.sort_descending(rows, group), np.lexsort((-code, group)))
    assert ids.texts() == texts
    assert ids.texts(rows) == [texts[r] for r in rows]


def test_ids_sorted_block_by_block_as_whole(monkeypatch):
    """sort_descending of many tied rows, a few whole groups at a time
    (blocks of 64 rows here; groups of up to 40 cross the blocks' nominal
    ends), gives the order of one sort of every row: the text's, by group."""
    rng = np.random.default_rng(36)
    texts = [f"d{v}" + "x" * w for v, w in zip(rng.integers(0, 300, 2000).tolist(),
                                               rng.integers(0, 12, 2000).tolist(), strict=True)]
    ids = IdBytes.from_texts(texts)
    rows = rng.permutation(len(texts))[:1500].astype(np.int64)
    group = np.repeat(np.arange(100), rng.multinomial(1500, [0.01] * 100))
    rank = {t: n for n, t in enumerate(sorted(set(texts)))}
    code = np.array([rank[texts[r]] for r in rows], dtype=np.int64)
    whole = ids.sort_descending(rows, group)
    monkeypatch.setattr(ids_module, "_SORT_BLOCK", 64)
    blocked = ids.sort_descending(rows, group)
    assert blocked.dtype == np.int64
    np.testing.assert_array_equal(blocked, np.lexsort((-code, group)))
    np.testing.assert_array_equal(blocked, whole)


def wide(ids: IdBytes) -> IdBytes:
    """The same ids with int64 offsets (as the readers make them)."""
    return IdBytes(ids.arena.copy(), ids.offset.astype(np.int64), ids.ascii)


@given(st.lists(TEXTS, min_size=1, max_size=30), st.lists(TEXTS, max_size=8), st.data(),
       st.booleans())
def test_int32_and_int64_offsets_give_the_same_ids(texts, more, data, small):
    """Ids under 2 GiB get int32 offsets (made, taken, put together, or a
    reader's int64 ones lengthened); with the limit set below their size
    they keep int64. Either way every operation gives the same answers."""
    limit = ids_module._SMALL if small else 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ids_module, "_SMALL", limit)
        narrow = IdBytes.from_texts(texts)
        grown = wide(narrow).extend(IdBytes.from_texts(more))
    kind = np.int32 if small else np.int64
    assert narrow.offset.dtype == kind
    assert grown.offset.dtype == kind
    assert grown.texts() == texts + more
    other = wide(narrow)
    n = len(texts)
    rows = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=30)))
    assert narrow.take(rows).texts() == other.take(rows).texts()
    assert narrow.keys(rows).tolist() == other.keys(rows).tolist()
    assert narrow.same(rows, other, rows[::-1]).tolist() == \
        other.same(rows, other, rows[::-1]).tolist()
    group = np.sort(np.array(data.draw(st.lists(st.integers(0, 3), min_size=rows.size,
                                                max_size=rows.size))))
    assert narrow.sort_descending(rows, group).tolist() == \
        other.sort_descending(rows, group).tolist()


#: Ids of at most one 8-byte word (the empty id and exactly 8 bytes included).
SHORT_TEXTS = id_texts(["", "d", "doc-"], "ab-é9z", 8).filter(lambda t: len(t.encode()) <= 8)


@given(st.lists(SHORT_TEXTS, min_size=1, max_size=40), st.data(), st.booleans())
def test_keys_of_one_word_ids_are_the_readers(texts, data, small_blocks):
    """Ids of at most 8 bytes are keyed word by word (no matrix of rows), a
    block at a time: the same keys as :func:`row_keys` gives their bytes
    zero-padded (the readers' keys, which the join and compare's matching
    pair), for every id and for rows taken in any order, the arena's last
    id too."""
    ids = IdBytes.from_texts(texts)
    padded = np.zeros((len(texts), 8), dtype=np.uint8)
    for i, t in enumerate(texts):
        b = t.encode()
        padded[i, : len(b)] = np.frombuffer(b, dtype=np.uint8)
    expected = ids_module.row_keys(padded)
    rows = np.array(data.draw(st.lists(st.integers(0, len(texts) - 1), max_size=50)),
                    dtype=np.int64)
    with pytest.MonkeyPatch.context() as patch:
        if small_blocks:
            patch.setattr(ids_module, "_BLOCK", 3)
        assert ids.keys().tolist() == expected.tolist()
        assert ids.keys(rows).tolist() == expected[rows].tolist()
    assert ids.keys().tolist() == [int(ids_module.row_keys(padded[i:i + 1])[0])
                                   for i in range(len(texts))]
