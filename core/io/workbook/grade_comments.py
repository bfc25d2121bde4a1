"""The one comment of a current grade cell, shared by a person and the export.

An export puts a note on the grade cell of an unknown grade that has a
reason (:func:`~core.io.workbook.candidates.reason_notes`: ``unknown:
declined by 2 annotators, no judgment (not 0)``), written again from the
document at each save. A cell holds one comment: a person who comments on
that cell writes into ours (LibreOffice's Edit Comment) or over it (a new
comment in Excel). The save keeps their text whole and puts ours after it,
signed, so that the two are told apart (:func:`with_ours`); reading it
back takes ours out again (:func:`their_part`), so the next save replaces
it, never adds a second.
"""

from __future__ import annotations

from core.io.workbook.candidates import REASON_AUTHOR
from core.model.grades import is_unknown_note

__all__ = ["SIGNED", "their_part", "with_ours"]

#: How the export's note is signed after a person's text.
SIGNED = f"{REASON_AUTHOR}: "
#: Between a person's text and the export's note.
_BETWEEN = "\n\n"


def with_ours(theirs: str, ours: str) -> str:
    """A person's comment ``theirs`` whole, then the export's note ``ours``
    on a line of its own, signed.

    >>> with_ours("ask Ben", "unknown: declined by 2 annotators, no judgment (not 0)")
    'ask Ben\\n\\nNDCG Worksheet: unknown: declined by 2 annotators, no judgment (not 0)'
    """
    return f"{theirs}{_BETWEEN}{SIGNED}{ours}"


def _ours(line: str) -> bool:
    """Whether a line of a comment is the export's note, signed or not."""
    said = line.strip()
    return is_unknown_note(said.removeprefix(SIGNED))


def their_part(text: str) -> str:
    """A grade cell's comment less the export's note (as :func:`with_ours`
    writes it after a person's text, as it writes it alone, or wherever a
    person typed beside it): the person's text, "" where the comment is the
    export's alone. A comment without the note is returned as it is.

    >>> their_part(with_ours("ask Ben\\nor Ana", "unknown: drafts only, no judgment (not 0)"))
    'ask Ben\\nor Ana'
    >>> their_part("unknown: declined by 2 annotators, no judgment (not 0)\\nask Ben")
    'ask Ben'
    >>> their_part("unknown: declined by 2 annotators, no judgment (not 0)")
    ''
    """
    lines = text.split("\n")
    if not any(_ours(line) for line in lines):
        return text
    head, sep, last = text.rpartition(_BETWEEN)
    if sep and _ours(last) and last.strip().startswith(SIGNED) and not any(
            _ours(line) for line in head.split("\n")):
        return head  # as written: their text whole
    return "\n".join(line for line in lines if not _ours(line)).strip("\r\n")
