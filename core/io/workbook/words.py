"""Text that stays true when the workbook recomputes: sentences and words
written as formulas over the numbers and the Conventions sheet, each with the
text the app computes for it as its cached result.

A :class:`Text` is built from pieces (literal words and cell values shown as
a spreadsheet's ``TEXT`` shows them), so the formula and the cached text come
from one description and cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.model.numbers import number_text

__all__ = ["Text", "choice_text", "join", "quoted", "value", "when"]

#: How a cell's number is shown: TEXT's format and Python's equivalent.
_SHOWN = {
    "general": (None, number_text),
    "4": ('"0.0000"', lambda x: f"{x:.4f}"),
    "+4": ('"+0.0000;-0.0000;0.0000"', lambda x: "0.0000" if x == 0 else f"{x:+.4f}"),
    "%": ('"0%"', lambda x: f"{x * 100:.0f}%"),
}


def quoted(text: str) -> str:
    """``text`` as a formula's string literal."""
    return '"' + text.replace('"', '""') + '"'


@dataclass(frozen=True)
class Text:
    """A formula (without its ``=``) that gives text, and the text it gives now."""

    formula: str
    cached: str

    def __add__(self, other: Text | str) -> Text:
        other = _as_text(other)
        return Text(f"{self.formula}&{other.formula}", self.cached + other.cached)

    def __radd__(self, other: str) -> Text:
        return _as_text(other) + self


def _as_text(piece: Text | str) -> Text:
    return piece if isinstance(piece, Text) else Text(quoted(piece), piece)


def value(ref: str, now: Any, shown: str = "general") -> Text:
    """Cell ``ref`` as text: a number as ``shown`` says (``general``: as a
    spreadsheet's ``&`` writes it; ``4``: four decimals; ``+4``: signed; ``%``),
    a text as it is. ``now`` is the cell's value (a number, a text, or "")."""
    fmt, python = _SHOWN[shown]
    if isinstance(now, float | int) and not isinstance(now, bool) and math.isfinite(now):
        text = python(float(now))
    else:
        text = str(now)
    if fmt is None:
        return Text(ref, text)
    return Text(f"TEXT({ref},{fmt})", text)


def when(condition: str, holds: bool, then: Text | str, otherwise: Text | str) -> Text:
    """``IF(condition, then, otherwise)``; ``holds``: whether it holds now."""
    a, b = _as_text(then), _as_text(otherwise)
    return Text(f"IF({condition},{a.formula},{b.formula})", a.cached if holds else b.cached)


def join(parts: Sequence[Text | str]) -> Text:
    """The pieces one after another."""
    out = Text('""', "")
    for part in parts:
        out = out + part
    if len(parts) and out.formula.startswith('""&'):
        out = Text(out.formula[3:], out.cached)
    return out


def choice_text(name: str, now: str, words: dict[str, str], otherwise: str) -> Text:
    """The words for the choice in named cell ``name`` (``words`` by value,
    compared without regard to case as a spreadsheet compares text);
    ``otherwise``: what is said after a value that is none of them."""
    formula = f'"\'"&{name}&{quoted(chr(39) + " " + otherwise)}'
    for choice, text in reversed(words.items()):
        formula = f'IF({name}={quoted(choice)},{quoted(text)},{formula})'
    cached = next((t for c, t in words.items() if c.casefold() == now.casefold()),
                  f"'{now}' {otherwise}")
    return Text(formula, cached)
