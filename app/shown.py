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

__all__ = ["BOX_SHOWN", "CELL_SHOWN", "TEXT_SHOWN", "WORD_SHOWN", "bounded", "boxed", "shown_id"]

#: The most characters of one word (a run without a space: an id, a URL) a
#: label or tooltip shows: about 300 px at 9 pt, what a side column holds.
WORD_SHOWN = 40
#: The most characters of a table's cell (the view elides it further to
#: its column's width, whole in a copy).
CELL_SHOWN = 200
#: The most characters of an id or a file's name a message box shows (a run
#: the box cannot wrap): at 16 pt still inside the ~700 px of text Qt gives a
#: box on a 1280 px screen; a longer one was drawn cut at the box's edge, its
#: end lost. A path is wrapped after its separators, never cut.
BOX_SHOWN = 60
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
    return _cut(text, rf"\S{{{word + 1},}}", word, most)


def boxed(text: str) -> str:
    """``text`` as a message box shows it: each run of more than
    :data:`BOX_SHOWN` characters without a space or a path separator (a
    40,000-character id, a long file name) cut around an ellipsis, its start
    and end kept; a path stays whole (the box wraps it after its ``/``).

    >>> boxed("Save the changes to " + "w" * 100 + ".xlsx?")[20:]
    'wwwwwwwwwwwwwwwwwwwwwwwwwwwwww…wwwwwwwwwwwwwwwwwwwwwww.xlsx?'
    >>> boxed("kept in /home/ana/.local/state/ndcg-worksheet/journal/a.jsonl")[8:]
    '/home/ana/.local/state/ndcg-worksheet/journal/a.jsonl'
    """
    if len(text) <= BOX_SHOWN:
        return text
    return _cut(text, rf"[^\s/\\]{{{BOX_SHOWN + 1},}}", BOX_SHOWN, TEXT_SHOWN)


def _cut(text: str, long_word: str, word: int, most: int) -> str:
    out = re.sub(long_word, lambda m: shown_id(m.group(), word), text)
    return out if len(out) <= most else out[: most - 1] + _ELLIPSIS
