"""Text handed to Qt at a bounded cost: a 40,000-character query id (longer
than an Excel cell holds, yet read by ``evaluate``) laid out whole made the
window as wide as the id (377,761 px at 9 pt: a word-wrapped label is never
narrower than its longest word), so that showing it and grabbing the window
took 1.3-2.5 GiB. Every id, note and sentence is cut here before a label, a
cell, a tooltip, a title or a plot draws it; the whole text stays in the
document (a copy, the editor and every file written get it).

Qt-free: plain strings in, plain strings out.
"""

from __future__ import annotations

import re

__all__ = ["CELL_SHOWN", "TEXT_SHOWN", "WORD_SHOWN", "bounded", "shown_id"]

#: The most characters of one word (a run without a space: an id, a URL) a
#: label or tooltip shows: about 300 px at 9 pt, what a side column holds.
WORD_SHOWN = 40
#: The most characters of a table's cell (the view elides it further to
#: its column's width, whole in a copy).
CELL_SHOWN = 200
#: The most characters of a sentence, a note or a tooltip.
TEXT_SHOWN = 2000

_ELLIPSIS = "…"


def shown_id(text: str, most: int = WORD_SHOWN) -> str:
    """``text`` itself when at most ``most`` characters, else its start and
    end around an ellipsis, ``most`` characters in all (an id's start and its
    end both tell ids apart).

    >>> shown_id("case-D-scrambled"), shown_id("q" * 30 + "-end", 12)
    ('case-D-scrambled', 'qqqqqq…q-end')
    """
    if len(text) <= most:
        return text
    head = (most - 1) - (most - 1) // 2
    return text[:head] + _ELLIPSIS + text[len(text) - (most - 1) // 2:]


def bounded(text: str, word: int = WORD_SHOWN, most: int = TEXT_SHOWN) -> str:
    """``text`` with each word longer than ``word`` characters cut by
    :func:`shown_id`, and the whole cut to ``most`` characters (an ellipsis
    at the end): what a label, a tooltip or a cell lays out. A short text is
    returned as it is (the same object).

    >>> bounded("grade " + "x" * 50 + " 2", word=9)
    'grade xxxx…xxxx 2'
    """
    if len(text) <= word:
        return text
    long_word = re.compile(rf"\S{{{word + 1},}}")
    out = long_word.sub(lambda m: shown_id(m.group(), word), text)
    return out if len(out) <= most else out[: most - 1] + _ELLIPSIS
