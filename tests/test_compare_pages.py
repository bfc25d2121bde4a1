"""numpy's arrays on pages of their own (core.analysis.compare.pages), as
compare's matching makes them beside the second run's evaluation."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from numpy._core.multiarray import get_handler_name

from core.analysis.compare.comparison import match_documents
from core.analysis.compare.pages import _SMALL, own_pages
from core.model.document import Document

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="glibc's mmap: elsewhere own_pages changes nothing")


def test_arrays_made_within_are_mapped_and_hold_their_values() -> None:
    big = _SMALL // 8 * 4  # int64s past the heap's size
    with own_pages():
        a = np.arange(big)
        dirty = np.full(big, 7)
        del dirty  # its mapping kept for reuse, then handed out zeroed
        zeros = np.zeros(big)
        small = np.arange(5)
        grown = np.arange(big)
        grown.resize(3 * big, refcheck=False)  # numpy's realloc
        order = np.sort(a[::-1])
        seen = []
        other = threading.Thread(target=lambda: seen.append(get_handler_name(np.arange(big))))
        other.start()
        other.join()
    after = np.arange(big)
    assert get_handler_name(a) == "ndcg_own_pages"
    assert get_handler_name(after) == "default_allocator"
    assert seen == ["default_allocator"]  # another thread's context: unchanged
    assert zeros.sum() == 0.0
    assert small.tolist() == [0, 1, 2, 3, 4]
    assert grown[:big].tolist() == list(range(big))
    assert not grown[big:].any()
    assert order.tolist() == list(range(big))
    assert int(a.sum()) == big * (big - 1) // 2  # still readable once outside


def test_documents_matched_on_pages_of_their_own() -> None:
    # match_documents runs beside the second run's evaluation: its arrays,
    # the partners it hands back among them, are not in the heap's blocks.
    n = 3000
    a = Document.from_columns(query=["q"] * n, source_id=[f"d{i}" for i in range(n)])
    b = Document.from_columns(query=["q"] * n, source_id=[f"d{i + 1}" for i in range(n)])
    matched = match_documents(a, b)
    assert get_handler_name(matched.partner_a) == "ndcg_own_pages"
    assert matched.partner_a.tolist() == [-1, *range(n - 1)]
