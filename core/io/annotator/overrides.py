"""What the user says about a sheet, over what was guessed: the header row,
``FIELD=COLUMN`` pairs and the annotators' grade columns, with columns named
by header, letter or number (the command line's ``--map``, ``--annotators``
and ``--header-row``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import InputError
from core.io.annotator.detect import detect_mapping
from core.io.annotator.model import SINGLE_FIELDS, ColumnMapping, Table, column_ref
from core.io.annotator.names import column_annotator
from core.io.headers import normalize
from core.io.safety import column_number

__all__ = ["MAPPABLE", "column_list", "find_column", "guess_mapping", "mapped_field",
           "missing_field"]

#: Fields ``FIELD=COLUMN`` may name (``source`` is ``source_id``).
MAPPABLE = SINGLE_FIELDS
_FIELD_ALIASES = {"source": "source_id", "doc": "source_id", "label": "grade"}


def column_list(header: Sequence[str]) -> str:
    """The columns as messages list them: ``A (Topic), B (Doc URL), C``."""
    return ", ".join(column_ref(c, h) for c, h in enumerate(header)) or "none"


def find_column(header: Sequence[str], ref: str, *, file: str, sheet: str | None) -> int:
    """The 0-based column ``ref`` names: a header (exactly, then compared as
    headers are), else a column letter (``C``), else a 1-based number."""
    text = ref.strip()
    for same in (lambda h: h.strip() == text, lambda h: normalize(h) == normalize(text)):
        hits = [c for c, h in enumerate(header) if h and same(h)]
        if hits:
            return hits[0]
    if text.isascii() and text.isalpha() and len(text) <= 3:
        return column_number(text.upper()) - 1
    if text.isdigit() and int(text) >= 1:
        return int(text) - 1
    raise InputError(f"no column {ref!r} in the header ({column_list(header)})", file=file,
                     sheet=sheet, hint="name a column by its header, its letter or its number")


def mapped_field(name: str) -> str | None:
    """The field ``name`` declares, by its own name, in any case or writing
    (``Grade``, ``SOURCE``, ``source-id`` and the aliases ``doc``, ``label``);
    None where it names no field one can map.

    >>> mapped_field("Grade"), mapped_field("doc"), mapped_field("grades")
    ('grade', 'source_id', None)
    """
    key = normalize(name)
    key = _FIELD_ALIASES.get(key, key)
    return key if key in MAPPABLE else None


def _field(name: str, *, file: str) -> str:
    key = mapped_field(name)
    if key is None:
        raise InputError(f"{name!r} is not a field one can map", file=file,
                         hint="fields: " + ", ".join(MAPPABLE))
    return key


def guess_mapping(table: Table, *, header_row: int | None = None,
                  fields: Mapping[str, str | int] | None = None,
                  annotators: Sequence[str] | None = None,
                  keep: Sequence[str] = ()) -> ColumnMapping:
    """The guessed mapping of ``table`` with what the user said over it.

    ``header_row`` is 1-based (the sheet's own row number; 0: the sheet has
    no header, row 1 is data); the columns are then guessed for that row.
    ``fields``: field -> column (a reference, or the 0-based column the
    wizard's box holds); ``annotators``: the columns of one
    annotator's grades each (a wide layout, named by their headers). A
    column the user names feeds that field only; a field mapped to ``none``
    is left out (``rank=none``: the sheet holds no ranking; ``grade=none``:
    the annotators' columns are the grades, the grade column beside them
    left out). ``keep``: the kinds of marked rows imported all the same
    (``--keep``), counted in the guess's people and items.
    """
    if header_row is not None and not 0 <= header_row <= max(len(table.rows), 1):
        raise InputError(f"there is no row {header_row} (the sheet has {len(table.rows)})",
                         file=table.file, sheet=table.sheet, hint="pass --header-row N")
    out = any(_field(f, file=table.file) == "grade" and _none(ref)
              for f, ref in (fields or {}).items())  # the annotators' columns are the grades
    kept = tuple(keep)
    mapping = detect_mapping(table, None if header_row is None else header_row - 1,
                             grade_out=out, keep=kept)
    header = table.header(mapping)
    where: dict[str, Any] = {"file": table.file, "sheet": table.sheet}
    chosen: dict[str, int | None] = {
        _field(f, file=table.file): None if _none(ref) else ref if isinstance(ref, int)
        else find_column(header, ref, **where) for f, ref in (fields or {}).items()}
    given = {f: c for f, c in chosen.items() if c is not None and (f in (
        "query", "source_id") or (f in SINGLE_FIELDS and any(
            getattr(mapping, g) == c for g in SINGLE_FIELDS if g != f))
        or (f in ("annotator", "grade") and getattr(mapping, f) not in (None, c)))}
    if given:  # read the others around the declared query or source, or around a
        # column the guess gave another role (--map rank=B where B was read as
        # the grades: the grades are then looked for elsewhere, not lost), or
        # around another annotator column than the guess's (the guessed one
        # was said 'empty: no row holds a value'; now what it holds)
        # (the declared column's reason kept, its people or values counted:
        # the wizard's page says them for the column chosen at once)
        again = detect_mapping(table, mapping.header_row, given, grade_out=out, keep=kept)
        mapping = again.replace(reasons=(
            *((f, why) for f, why in mapping.reasons if f == "header"),
            *((f, why.replace(", named so;", ", declared;", 1) if f in given else why)
              for f, why in again.reasons)))
    grades: tuple[tuple[int, str], ...] | None = None
    if annotators:
        cols = [find_column(header, ref, **where) for ref in annotators]
        grades = tuple((c, column_annotator(header, c)) for c in cols)
    taken = {c for c in chosen.values() if c is not None} | {c for c, _ in grades or ()}
    changes: dict[str, Any] = {f: None for f in SINGLE_FIELDS
                               if getattr(mapping, f) in taken and f not in chosen}
    changes.update(chosen)
    changes["declared"] = (*chosen, *(("grade", "annotators") if grades is not None else ()))
    if grades is not None:
        changes.update(grades=grades, grade=None)
    elif chosen.get("grade") is not None:
        changes["grades"] = ()
    else:
        changes["grades"] = tuple((c, who) for c, who in mapping.grades if c not in taken)
    # a field left out, or its column given another role: its guess's reason is gone
    gone = {f for f in SINGLE_FIELDS if f in changes and changes[f] is None
            and getattr(mapping, f) is not None}
    if gone:
        changes["reasons"] = (*((f, why) for f, why in mapping.reasons if f not in gone),
                              *((f, "none, declared") for f in sorted(gone) if f in chosen))
    if any(chosen[f] is None for f in chosen):
        changes["left_out"] = _declared_none(mapping, chosen, taken, header)
    mapping = mapping.replace(**changes)
    return mapping.grade_left_out() if "grade" in chosen and chosen["grade"] is None \
        else mapping


def _declared_none(mapping: ColumnMapping, chosen: dict[str, int | None], taken: set[int],
                   header: Sequence[str]) -> tuple[tuple[int, str, str], ...]:
    """The mapping's columns left out, with each column the guess read that
    a field declared none leaves (``--map rank=none``, offered where the
    ranking read is said): said so, never 'empty: no row holds a value'
    beside its values."""
    said = {c for c, _, _ in mapping.left_out} | taken
    dropped = {getattr(mapping, f): f for f in SINGLE_FIELDS if f in chosen
               and chosen[f] is None and getattr(mapping, f) not in (None, *said)}
    named = {c: str(header[c]).strip() if c < len(header) else "" for c in dropped}
    return (*mapping.left_out, *(
        (c, (f"{named[c]}: " if named[c] else "") + f"the {f} as read, left out as "
         f"--map {f}=none declares; not imported", "") for c, f in dropped.items()))


def _none(ref: str | int) -> bool:
    """Whether a field's column is said to be none (``--map rank=none``)."""
    return isinstance(ref, str) and ref.strip().casefold() == "none"


def missing_field(mapping: ColumnMapping) -> str | None:
    """The first needed field the mapping lacks: query, source_id or a grade column."""
    for need in ("query", "source_id"):
        if getattr(mapping, need) is None:
            return need
    return "grade" if not mapping.sources() else None

