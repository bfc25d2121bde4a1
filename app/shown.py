"""Text handed to Qt at a bounded cost: a 40,000-character query id (longer
than an Excel cell holds, yet read by ``evaluate``) laid out whole made the
window as wide as the id (377,761 px at 9 pt: a word-wrapped label is never
narrower than its longest word), so that showing it and grabbing the window
took 1.3-2.5 GiB. Every id, note and sentence is cut here before a label, a
cell, a tooltip, a title or a plot draws it; the whole text stays in the
document (a copy, the editor and every file written get it).

An id's line breaks and tabs are shown as marks (:func:`shown_id`): a
label, a cell or a title laid "a\\nb" out as "ab" (the grid:
indistinguishable from the id "ab") or on two lines (the Guidelines panel),
and "a\\tb" with a wide blank gap. Notes and sentences keep theirs
(:func:`bounded`).

Qt-free: plain strings in, plain strings out.
"""

from __future__ import annotations

import re
import textwrap

__all__ = ["BOX_SHOWN", "CELL_SHOWN", "ID_MARKS", "QUERY_APART", "TEXT_SHOWN", "WORD_SHOWN",
           "bounded", "boxed", "holds", "id_note", "id_pieces", "id_tip", "marked", "query_tip",
           "shown_id", "shown_query", "typed"]

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

#: What stands between a query's id and its text on the query's one line
#: (:func:`shown_query`).
QUERY_APART = " · "

#: The mark an id shows for each line-break character and for a tab, one
#: mark a character so that ids differing only in them ("a\\nb", "a\\r\\nb")
#: never look alike: "⏎" (the return key's sign, what a reviewer reads as a
#: new line) for "\\n", "⇤" (the carriage going back to the line's start)
#: for "\\r" ("\\r\\n" shows "⇤⏎"), "⇥" (the tab key's sign) for "\\t",
#: which was laid out as a wide blank gap. All three are in DejaVu Sans; the
#: control pictures "␊", "␍" and "␉" are in none of its faces (a box under
#: Xvfb). An id holding a mark itself is told apart by :func:`id_note`.
ID_MARKS = {"\n": "⏎", "\r": "⇤", "\t": "⇥"}
_BREAKS = ("\n", "\r")
_MARKED = str.maketrans(ID_MARKS)
_UNMARKED = str.maketrans({mark: real for real, mark in ID_MARKS.items()})
_SPLIT = re.compile("([" + "".join(ID_MARKS) + "])")


def shown_id(text: str, most: int = WORD_SHOWN) -> str:
    """``text`` itself when at most ``most`` characters, else its start and
    end around an ellipsis, ``most`` characters in all (an id's start and its
    end both tell ids apart); each line break and tab marked (:data:`ID_MARKS`).
    Every id (a query's, a source's) is shown through here.

    >>> shown_id("case-D-scrambled"), shown_id("q" * 30 + "-end", 12)
    ('case-D-scrambled', 'qqqqqq…q-end')
    >>> shown_id("a\\nb"), shown_id("x\\r\\ny"), shown_id("a\\tb")
    ('a⏎b', 'x⇤⏎y', 'a⇥b')
    """
    text = _ends(text, most)
    return text.translate(_MARKED) if marked(text) else text


def marked(text: str) -> bool:
    """Whether ``text`` holds a character :func:`shown_id` marks.

    >>> marked("a\\tb"), marked("a⇥b")
    (True, False)
    """
    return any(real in text for real in ID_MARKS)


def _ends(text: str, most: int) -> str:
    if len(text) > most:
        head = (most - 1) - (most - 1) // 2
        text = text[:head] + _ELLIPSIS + text[len(text) - (most - 1) // 2:]
    return text


def id_pieces(text: str, most: int = WORD_SHOWN) -> list[tuple[str, bool]]:
    """:func:`shown_id`'s text in pieces, each with whether it is a mark
    standing for a line break or a tab: a cell draws the marks unlike the id's own
    characters (as editors draw white space), so that an id holding a line
    break and one holding the mark itself look apart at a glance.

    >>> id_pieces("a\\nb\\u23ce")
    [('a', False), ('⏎', True), ('b⏎', False)]
    >>> "".join(p for p, _ in id_pieces("x\\r\\ny")) == shown_id("x\\r\\ny")
    True
    """
    parts = _SPLIT.split(_ends(text, most))
    return [(ID_MARKS[p], True) if p in ID_MARKS else (p, False) for p in parts if p]


def typed(text: str) -> tuple[str, ...]:
    """What a find or a filter looks for when ``text`` is typed: ``text``,
    and where it holds marks, the text they show (typing an id as it is
    shown finds it, as typing its real text does).

    >>> typed("a⏎b"), typed("ab")
    (('a⏎b', 'a\\nb'), ('ab',))
    """
    real = text.translate(_UNMARKED)
    return (text,) if real == text else (text, real)


def holds(text: str, needles: tuple[str, ...]) -> bool:
    """Whether ``text`` holds any of :func:`typed`'s ``needles`` (a find's
    and the query filter's one test).

    >>> holds("q\\nline", typed("q⏎l")), holds("ql", typed("q⏎l"))
    (True, False)
    """
    return any(needle in text for needle in needles)


def id_note(text: str) -> str:
    """What a reviewer cannot see in :func:`shown_id`'s text: the id holds a
    line break or a tab (and which marks stand for them), or it holds a mark
    itself, which is no break or tab (the two would look alike); "" for any
    other id.

    >>> id_note("a\\nb")
    'The id holds a line break: ⏎ marks a line feed (\\\\n), ⇤ a carriage return (\\\\r).'
    >>> id_note("a⏎b")
    "The id holds the character '⏎' itself, not a line break."
    >>> id_note("a\\tb")
    'The id holds a tab: ⇥ marks it (\\\\t).'
    >>> id_note("ab")
    ''
    """
    notes = []
    if any(brk in text for brk in _BREAKS):
        notes.append("The id holds a line break: ⏎ marks a line feed (\\n), "
                     "⇤ a carriage return (\\r).")
    if "\t" in text:
        notes.append("The id holds a tab: ⇥ marks it (\\t).")
    if notes:
        return " ".join(notes)
    held = [(real, mark) for real, mark in ID_MARKS.items() if mark in text]
    if held:
        marks = " and ".join(repr(mark) for _, mark in held)
        kinds = dict.fromkeys("a tab" if real == "\t" else "a line break" for real, _ in held)
        return f"The id holds the character {marks} itself, not {' or '.join(kinds)}."
    return ""


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


def id_tip(text: str, most: int = CELL_SHOWN) -> str:
    """A tooltip naming an id: :func:`shown_id`'s text, and under it
    :func:`id_note`'s when the id holds a line break, a tab or a mark.

    >>> id_tip("a\\rb").splitlines()[0]
    'a⇤b'
    """
    note = id_note(text)
    return shown_id(text, most) + (f"\n{note}" if note else "")


def shown_query(query_id: str, text: str, most: int = WORD_SHOWN) -> str:
    """A query as one line: its id (:func:`shown_id`), then its text where
    an import read one, its line breaks as spaces (:func:`bounded`); a view
    cuts the line at its end, the id and the text's start kept (an id alone
    stays cut in its middle).

    >>> shown_query("q017", "how do I renew\\na passport"), shown_query("q9", "")
    ('q017 · how do I renew a passport', 'q9')
    """
    if not text:
        return shown_id(query_id, most)
    return shown_id(query_id, most) + QUERY_APART + bounded(' '.join(text.split()),
                                                            most=CELL_SHOWN)


def query_tip(query_id: str, text: str, most: int = CELL_SHOWN) -> str:
    """A query's tooltip: :func:`id_tip` (the id cut to ``most``), and
    under it the query's whole text (where it has one), wrapped at 60
    characters.

    >>> query_tip("q017", "how do I renew a passport")
    'q017\\nhow do I renew a passport'
    """
    if not text:
        return id_tip(query_id, most)
    lines = [textwrap.fill(part, 60) for part in bounded(text).splitlines()]
    return id_tip(query_id, most) + "\n" + "\n".join(lines)


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
