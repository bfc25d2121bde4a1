"""Annotation tools' JSON and JSON Lines exports (Label Studio, Argilla,
Prodigy) as a :class:`~core.io.annotator.model.Table`, and lists of ratings
in cells.

Each record holds the query, the document and one or more ratings with who
gave them, nested as the tool writes them. A record becomes rows: a list of choices
with ids that another field names (Prodigy's ``options`` and ``accept``)
gives that field the choices' texts; nested
objects give dotted column names (``data.query``, ``annotations.completed_by``);
a list of objects (Label Studio's ``annotations``, their ``result``) gives
one row per element, lists of objects side by side (its ``annotations``
and ``predictions``) each their own rows, whatever their counts; lists
of values side by side and of one length (Argilla's
``relevance.responses = [2, 1]`` beside ``relevance.responses.users =
["u1", "u2"]``) give one row per position (a list of one value,
``choices: ["Relevant"]``, is that value). The columns' roles are then
guessed as any sheet's are.

A shape that cannot be read so (lists side by side of different lengths)
is refused in one line naming the file, the record and the column.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

from core.errors import InputError
from core.io.annotator.model import Table, cell_text
from core.io.annotator.names import model_answer
from core.io.annotator.positions import LINE, RECORD, RecordPlaces
from core.io.annotator.scales import Vocabulary
from core.io.files import HEAD_BYTES
from core.io.qrels_kind import refuse_report
from core.io.safety import column_letters

__all__ = ["expand_json_cells", "explode_list_cells", "list_cell", "model_groups", "records_rows",
           "records_table"]

#: The most rows one record may give (a product of nested lists).
_MAX_PER_RECORD = 10_000


def _flatten(value: Any, prefix: str, controls: frozenset[str] = frozenset(),
             listed: dict[str, tuple[str, ...]] | None = None,
             containers: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The rows one JSON value gives, as column -> cell; ``controls``: the
    lists whose objects are one answer each of a form's controls
    (:func:`_controls`); ``listed`` gathers the legends read (:func:`_legends`);
    ``containers``: the objects holding, in some record, a list of objects,
    and the lists of values holding two or more in some record
    (:func:`_containers`)."""
    if isinstance(value, dict):
        value = _legends(value, prefix, listed)
        row: dict[str, Any] = {}  # (the fields giving one row each: one row, merged)
        several: list[list[dict[str, Any]]] = []  # the parts giving several rows each
        order: dict[str, None] = {}  # the columns in the record's order
        kinds = [(key, item, type(item) is list and _objects(item))
                 for key, item in value.items()]
        objects = prefix in containers or any(obj for _, _, obj in kinds)
        for key, item, obj in kinds:
            name = f"{prefix}.{key}" if prefix else str(key)
            if not isinstance(item, (dict, list)):  # (a value: its own cell, as a row of one)
                order[name] = None
                row[name] = item
                continue
            if objects and _values(item) and (len(item) > 1 or (item and name in containers)):
                # the object's own list of values where it holds lists of
                # objects, here or in another record (a Label Studio task's
                # comment_authors, its drafts' or predictions' ids): one cell,
                # never paired with a list inside those objects (an
                # annotation's choices) nor beside it (two commenters were
                # refused as lists of different lengths); a list of one too where
                # the field holds two or more on another record ([4] as [4, 5])
                part = [{name: _cell(item)}]
            else:
                part = _flatten(item, name, controls, listed, containers)
            if len(part) > 1 or obj:
                for r in part:
                    order.update(dict.fromkeys(r))
                several.append(part)
            else:  # (one row: its columns in the record's order as they are merged)
                order.update(dict.fromkeys(part[0]))
                row.update(part[0])
        if not several:
            return [row]  # (its columns already in the record's order)
        # lists side by side (Label Studio's annotations and predictions, in
        # any counts) pair nothing: each of their rows stands alone, never
        # copied onto the other list's (one annotation beside two
        # predictions was on both prediction rows); a list alone, as an
        # annotation's result, is the object's own fields
        stacked = [r for part in several for r in part]
        if len(stacked) > _MAX_PER_RECORD:
            raise ValueError(f"{prefix or 'a record'}: nested lists give over "
                             f"{_MAX_PER_RECORD} rows")
        return [{k: both[k] for k in order if k in both}
                for both in ({**row, **r} for r in stacked)]
    if isinstance(value, list):
        if prefix in controls and _answers_of_controls(value):
            # one annotation's answers to its controls: one row, a column
            # per control (annotations.result.relevance.value.choices)
            merged: list[dict[str, Any]] = [{}]
            for v in value:
                merged = [{**a, **b} for a, b in itertools.product(
                    merged, _flatten(v, f"{prefix}.{v[_CONTROL]}", controls, listed,
                                     containers))]
            return merged
        if _objects(value):
            return [row for v in value for row in _flatten(v, prefix, controls, listed,
                                                           containers)]
        if not value:
            return [{prefix: None}]
        return [{prefix: list(value)}]
    return [{prefix: value}]


def _values(value: Any) -> bool:
    """A list of values (numbers, texts), not of objects nor of lists."""
    return isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value)


def _objects(value: Any) -> bool:
    """A list of objects (records of their own: Label Studio's annotations,
    its predictions), not of values."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


#: The key naming the control an answer is given to (Label Studio's
#: results: ``{"from_name": "relevance", "value": {"choices": [...]}}``).
_CONTROL = "from_name"


def _answers_of_controls(value: list[Any]) -> bool:
    """Objects each naming its control, no control twice: one annotation's
    answers to a form of several controls (a choice and a comment)."""
    names = [v.get(_CONTROL) if isinstance(v, dict) else None for v in value]
    return bool(names) and all(isinstance(n, str) and n for n in names) \
        and len(set(names)) == len(names)


def _controls(value: Any, prefix: str, out: set[str]) -> None:
    """The lists (by their column's prefix) holding, in some record, the
    answers to several controls: there every list of answers is a column
    per control, so each annotation stays one row (they were a row per
    answer, the choices of two controls in one column)."""
    if isinstance(value, dict):
        for key, item in value.items():
            _controls(item, f"{prefix}.{key}" if prefix else str(key), out)
    elif _objects(value):
        if len(value) > 1 and _answers_of_controls(value):
            out.add(prefix)
        for v in value:
            _controls(v, prefix, out)


def _containers(value: Any, prefix: str, out: set[str]) -> None:
    """The objects (by their columns' prefix, "" a record) holding a list of
    objects in some record (a Label Studio task its ``annotations``): in
    each record, even one whose list is empty, their own lists of values
    are fields of their own, one cell each (:func:`_flatten`). With them the
    lists of values holding two or more in some record (by their columns'
    names): such a field is a list on every record, ``[4]`` as ``[4, 5]``
    (a task's ``comment_authors`` read ``4`` on one task, ``[4, 5]`` on
    another); a list of one everywhere is its value (Prodigy's ``accept``)."""
    if isinstance(value, dict):
        if any(_objects(v) for v in value.values()):
            out.add(prefix)
        for key, item in value.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if _values(item) and len(item) > 1:
                out.add(name)  # (a list, in every record: one cell on each)
            _containers(item, name, out)
    elif _objects(value):
        for v in value:
            _containers(v, prefix, out)


def _shapes(value: Any, prefix: str, found: set[str] | None, held: set[str],
            groups: dict[str, bool] | None) -> None:
    """One walk of a record doing what :func:`_controls` (into ``found``,
    unless None), :func:`_containers` (into ``held``) and
    :func:`model_groups` (into ``groups``, unless None) do, in their
    orders: the same sets and groups (tests/test_json_records_rows.py)."""
    if isinstance(value, dict):
        if groups is not None:
            _model_fields(value, prefix, groups)
        for key, item in value.items():
            if not isinstance(item, (dict, list)):
                continue  # (a value says nothing of the shape)
            name = f"{prefix}.{key}" if prefix else str(key)
            if _objects(item):
                held.add(prefix)
            elif _values(item) and len(item) > 1:
                held.add(name)
            _shapes(item, name, found, held, groups)
    elif _objects(value):
        if found is not None and len(value) > 1 and _answers_of_controls(value):
            found.add(prefix)
        for v in value:
            _shapes(v, prefix, found, held, groups)


def _legends(record: dict[str, Any], prefix: str = "",
             listed: dict[str, tuple[str, ...]] | None = None) -> dict[str, Any]:
    """A list of objects with ids that another field's values name (Prodigy's
    ``options`` beside ``accept: [2]``) is a legend, not rows: the values
    become the objects' texts and the legend goes, its texts in order kept
    in ``listed`` (by the legend's column name)."""
    if not any(type(v) is list and v and type(v[0]) is dict and "id" in v[0]
               for v in record.values()):
        return record  # (no list of objects with ids: nothing to read as a legend)
    out = dict(record)
    for key, legend in record.items():
        # only objects naming choices: Label Studio's annotations have ids
        # too, 1, 2, ... as its task's id, inner_id or updated_by may be
        if not (isinstance(legend, list) and legend and all(
                isinstance(o, dict) and "id" in o for o in legend) and _options(legend)):
            continue
        texts = {o["id"]: o.get("text", o.get("label", o["id"])) for o in legend
                 if isinstance(o["id"], (str, int, float))}
        for other, v in record.items():
            chosen = v if isinstance(v, list) else [v]
            if other != key and chosen and all(
                    isinstance(x, (str, int, float)) and not isinstance(x, bool) and x in texts
                    for x in chosen):
                out[other] = [texts[x] for x in chosen] if isinstance(v, list) else texts[v]
                out.pop(key, None)
        if key in out and any(
                v == [] for other, v in record.items() if other != key):
            out.pop(key)  # nothing chosen from the options (a task skipped): still a legend
        if key not in out and listed is not None:
            name = f"{prefix}.{key}" if prefix else str(key)
            listed.setdefault(name, tuple(str(t) for t in texts.values()))
            if listed[name] != tuple(str(t) for t in texts.values()):
                listed[name] = ()  # records listing different choices: no one legend
    return out


def _options(legend: list[Any]) -> bool:
    """Objects that only name choices (an id and its text), not records of
    their own (Label Studio's annotations hold lists of results)."""
    return all(("text" in o or "label" in o) and not any(
        isinstance(v, (list, dict)) for v in o.values()) for o in legend)


def _spread(row: dict[str, Any]) -> list[dict[str, Any]]:
    """Lists side by side, one value per position, as that many rows."""
    lists = {k: v for k, v in row.items() if isinstance(v, list)}
    if len(lists) == 1 and len(next(iter(lists.values()))) > 1:
        return [row]  # a list alone is no one's ratings: left as a cell (see list_cell)
    if not lists:
        return [row]
    lengths = {len(v) for v in lists.values()}
    if len(lengths) > 1:
        shown = ", ".join(f"{k} ({len(v)})" for k, v in lists.items())
        raise ValueError(f"lists of different lengths side by side: {shown}")
    n = lengths.pop()
    return [{**row, **{k: v[i] for k, v in lists.items()}} for i in range(n)]


def _records(text: str, name: str) -> Iterator[tuple[int, Any]]:
    """(line or record number, record) of a JSON array or JSON Lines text."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"the JSON cannot be read ({exc.msg})", file=name,
                             line=exc.lineno) from exc
        for i, rec in enumerate(data, start=1):
            yield i, rec
        return
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield i, json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {i} is not JSON ({exc.msg})", file=name, line=i,
                             hint="a JSON Lines file holds one JSON object per line") from exc


def records_table(text: str, name: str, encoding: str | None) -> Table:
    """A JSON or JSON Lines export as a table (:func:`records_rows`), with
    the choices its records list (Prodigy's ``options``, the same on every
    record) as a legend of labels without grades: the scale's vocabulary,
    a level no one chose among it (``Relevant`` between ``Somewhat
    relevant`` and ``Highly relevant``: read from the labels chosen, the
    scale was 0-2 and Highly relevant 2, not 3)."""
    listed: dict[str, tuple[str, ...]] = {}
    places: list[int] = [0]  # (the header the table adds: no place in the file)
    ids: dict[int, str] = {}
    groups: dict[str, bool] = {}
    rows = records_rows(text, name, listed, (places, ids), groups)
    return Table(file=name, rows=rows, encoding=encoding, listed=tuple(
        Vocabulary(labels, f"{key}, the choices each record lists")
        for key, labels in listed.items() if len(set(labels)) > 1),
        records=RecordPlaces(_unit(text), tuple(places), ids),
        models=_answering(groups, rows[0] if rows else []))


def _answering(groups: dict[str, bool], header: list[Any]) -> tuple[str, ...]:
    """The groups naming a model and no person (:func:`model_groups`) that
    hold an answer among the columns ``header`` (its own value, a field
    naming a grade: :func:`~core.io.annotator.names.model_answer`): a
    model's work given with the task. A group of none is the item judged
    (a Label Studio task's ``data`` naming the ``model_version`` that
    ranked its document: its query and document, no model's answer)."""
    names = [str(h) for h in header]
    return tuple(g for g, model in groups.items() if model and any(
        model_answer(g, h) for h in names if h == g or h.startswith(f"{g}.")))


#: Fields naming the model that made an object (Label Studio's prediction's
#: ``model_version``, Argilla's suggestion's ``agent``) and the person who
#: made one (an annotation's ``completed_by``, a draft's ``user``, Argilla's
#: ``users``, ``user_id``).
_MODEL_KEYS = frozenset({"model_version", "agent"})
_PERSON_KEYS = frozenset({"completed_by", "user", "users", "user_id", "annotator"})


def model_groups(value: Any, prefix: str, out: dict[str, bool]) -> None:
    """The groups of a record's fields that are a model's work, by their
    columns' prefix (``out``: prefix -> a model's in every record that has
    it): an object within the record (each object of a list: Label Studio's
    ``predictions``, an annotation's ``prediction``) naming its model and
    no person, or, in a flat object, the fields of one dotted name doing so
    (Argilla's ``relevance.suggestion``, ``.score``, ``.agent`` beside
    ``relevance.responses``, ``.users``). What the group is named says
    nothing: the fields it holds do.

    >>> out = {}
    >>> model_groups({"annotations": [{"completed_by": 1, "result": []}],
    ...               "predictions": [{"model_version": "v1", "score": 0.5}],
    ...               "q.suggestion": 2, "q.suggestion.agent": "bm25",
    ...               "q.responses": [1], "q.responses.users": ["u"]}, "", out)
    >>> sorted(g for g, model in out.items() if model)
    ['predictions', 'q.suggestion']
    """
    if isinstance(value, dict):
        _model_fields(value, prefix, out)
        for key, item in value.items():
            model_groups(item, f"{prefix}.{key}" if prefix else str(key), out)
    elif _objects(value):
        for v in value:
            model_groups(v, prefix, out)


def _model_fields(value: dict[Any, Any], prefix: str, out: dict[str, bool]) -> None:
    """One object's word on the groups it is, or its dotted fields are
    (:func:`model_groups`), its inner objects left."""
    keys = {str(k) for k in value}
    if prefix and keys:  # (an empty object, an annotation's prediction of {}: no word)
        _said(out, prefix, bool(keys & _MODEL_KEYS) and not keys & _PERSON_KEYS)
    for key in keys:
        if "." not in key:
            continue  # (a field of its own name: said above)
        head, dot, last = key.rpartition(".")
        if dot and last in _MODEL_KEYS:
            person = any(k.startswith(f"{head}.") and k.rpartition(".")[2] in _PERSON_KEYS
                         for k in keys)
            _said(out, f"{prefix}.{head}" if prefix else head, not person)


def _said(out: dict[str, bool], group: str, model: bool) -> None:
    """One record's word on ``group``: a model's only where every record says so."""
    out[group] = out.get(group, True) and model


def _unit(text: str) -> str:
    """What a JSON export's places count: a JSON array's records, a JSON
    Lines file's lines."""
    return RECORD if text.lstrip().startswith("[") else LINE


def _record_id(rec: dict[str, Any]) -> str:
    """A record's ``id`` (Label Studio's task id) as text, "" without one."""
    got = rec.get("id")
    return "" if isinstance(got, (dict, list, bool)) or got is None else cell_text(_cell(got))


def records_rows(text: str, name: str, listed: dict[str, tuple[str, ...]] | None = None,
                 places: tuple[list[int], dict[int, str]] | None = None,
                 groups: dict[str, bool] | None = None) -> list[list[Any]]:
    """A JSON or JSON Lines export as rows, the first of them the header (a
    report this program wrote as JSON refused, naming it); ``listed``
    gathers the legends of choices the records list, ``places`` each data
    row's line or record and each record's id
    (:class:`~core.io.annotator.positions.RecordPlaces`), ``groups`` the
    groups of fields of a model's work (:func:`model_groups`)."""
    refuse_report(text[:HEAD_BYTES].encode("utf-8"), name)
    columns: dict[str, int] = {}  # (each column's place, in the order first seen)
    out: list[list[Any]] = []
    records = list(_records(text, name))  # (looked at first, whole: their shapes)
    found: set[str] | None = set() if f'"{_CONTROL}"' in text else None  # (a tool naming
    held: set[str] = set()                                               # its controls)
    for _, rec in records:  # (one walk of each: _controls, _containers and model_groups')
        _shapes(rec, "", found, held, groups)
    controls, containers = frozenset(found or ()), frozenset(held)
    unit = _unit(text)
    for k, (at, rec) in enumerate(records):
        records[k] = (at, None)  # (each record let go once read: its rows hold what it said)
        ident = _record_id(rec) if isinstance(rec, dict) else ""
        where = RecordPlaces(unit, (), {at: ident}).where(at)  # (its line, or record and id)
        if not isinstance(rec, dict):
            raise InputError(f"the record is {type(rec).__name__}, not an object",
                             file=name, **where,
                             hint="each record holds the query, the document and its ratings")
        try:
            rows = [r for row in _flatten(rec, "", controls, listed, containers)
                    for r in _spread(row)]
        except ValueError as exc:
            raise InputError(str(exc), file=name, **where,
                             hint="each rating needs its own row, or its list the same "
                             "length as its users'") from exc
        out.extend(_cells(row, columns) for row in rows)
        if places is not None:
            places[0].extend([at] * len(rows))
            if ident:
                places[1][at] = ident
    if not out:
        raise InputError("the file holds no records", file=name,
                         hint="export the annotations as JSON or JSON Lines")
    width = len(columns)
    for cells in out:  # (the columns first seen after a row: empty in it)
        cells.extend([None] * (width - len(cells)))
    out.insert(0, list(columns))
    return out


def _cells(row: dict[str, Any], columns: dict[str, int]) -> list[Any]:
    """A row's cells in the columns' places (``columns``: those seen so far,
    its new ones added), as soon as it is read: a list of cells holds a
    tenth of its object's memory."""
    for key in row:
        if key not in columns:
            columns[key] = len(columns)
    cells: list[Any] = [None] * len(columns)
    for key, value in row.items():
        cells[columns[key]] = _cell(value)
    return cells


def _cell(value: Any) -> Any:
    """A JSON value as a cell: numbers and text as they are (a whole number
    too large for a float's 53 bits, a tweet's id, as its text: exact),
    true/false as text, objects left (an empty object) as their JSON."""
    if value is None or type(value) is str or type(value) is float:
        return value  # (most cells: as they are)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):  # (an id past 2**53, exact in JSON, kept so as its text)
        return float(value) if abs(value) < 2**53 else str(value)
    return value


def list_cell(value: Any) -> list[Any] | None:
    """The list a cell holds (``[2, 1]``, ``["u1", "u2"]``), or None."""
    return _list_cell(value)


def _list_cell(value: Any) -> list[Any] | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    try:
        got = json.loads(text)
    except json.JSONDecodeError:
        try:
            got = json.loads(text.replace("'", '"'))
        except json.JSONDecodeError:
            return None
    return got if isinstance(got, list) and not any(isinstance(v, (dict, list))
                                                    for v in got) else None


def explode_list_cells(rows: list[list[Any]], header_row: int, name: str) -> list[list[Any]]:
    """A sheet whose cells hold lists of ratings and of their users
    (``[2, 1]`` beside ``["u1", "u2"]``, as Argilla writes them to CSV): one
    row per position. Rows without list cells are kept as they are; a row
    whose lists differ in length is refused naming its row and columns."""
    if not any(_list_cell(c) is not None for r in rows[header_row + 1:header_row + 51]
               for c in r):
        return rows
    header = rows[header_row] if header_row < len(rows) else []
    out = rows[:header_row + 1]
    for i, row in enumerate(rows[header_row + 1:], start=header_row + 2):
        lists = {c: got for c, v in enumerate(row) if (got := _list_cell(v)) is not None}
        if len(lists) == 1 and len(next(iter(lists.values()))) > 1:
            lists = {}  # a list alone is no one's ratings: left as it is
        if not lists:
            out.append(row)
            continue
        lengths = {len(v) for v in lists.values()}
        if len(lengths) > 1:
            shown = ", ".join(f"{header[c] if c < len(header) else c + 1} ({len(v)})"
                              for c, v in lists.items())
            raise InputError(f"lists of different lengths side by side: {shown}", file=name,
                             line=i, hint="each rating needs its user, in lists of one length")
        for k in range(lengths.pop()):
            out.append([_cell(lists[c][k]) if c in lists else v for c, v in enumerate(row)])
    return out


#: Cells looked at to tell a column of JSON answers: the first filled of
#: the first rows (a form's answers fill nearly every row).
_SAMPLE, _HEAD = 20, 500


def _answers_in(cell: Any) -> dict[str, Any] | None:
    """A cell of one row's answers as JSON (Mechanical Turk's
    ``Answer.taskAnswers``: ``[{"relevance": {"label": "Relevant"}}]``, an
    object or a list of one; Label Studio's CSV of a choice of several
    answers, ``{"choices": ["Relevant"]}``) as dotted field -> cell; None for anything
    else (a list of ratings, text, an object giving several rows)."""
    text = cell.strip() if isinstance(cell, str) else ""
    if not text.startswith(("{", "[{")):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, dict):
        return None
    try:  # (a list of one value, Label Studio's {"choices": ["Relevant"]}, is that value)
        rows = [r for row in _flatten(value, "") for r in _spread(row)]
    except ValueError:
        return None
    # (an empty object, Label Studio's meta of {}, holds no answer)
    return {k: _cell(v) for k, v in rows[0].items()} if len(rows) == 1 and rows[0] else None


def expand_json_cells(table: Table, header_row: int) -> Table:
    """The table with each column of JSON answers (every filled cell one
    object: Mechanical Turk's ``Answer.taskAnswers`` of a Crowd HTML form)
    read as a column per field, in place: ``Answer.taskAnswers.relevance.label``
    in the column's own place, the other fields beside it (the file's
    columns after it moved right), the notes saying so. A column otherwise
    filled is left as it is."""
    rows = table.rows
    if header_row < 0 or header_row >= len(rows):
        return table
    c, width, moved = 0, len(rows[header_row]), 0  # (moved: the fields already inserted)
    while c < width:
        head = itertools.islice(rows, header_row + 1, header_row + 1 + _HEAD)
        sample = list(itertools.islice((v for r in head if c < len(r) and (
            v := r[c]) is not None and cell_text(v).strip()), _SAMPLE))  # (the first filled)
        if not sample or any(_answers_in(v) is None for v in sample):
            c += 1
            continue
        cells = [r[c] if c < len(r) else None for r in rows[header_row + 1:]]
        answers = [_answers_in(v) if cell_text(v).strip() else {} for v in cells]
        if any(a is None for a in answers):
            c += 1
            continue
        added = _spread_answers(table, header_row, c, cell_text(rows[header_row][c]), answers,
                                c - moved)
        c, width, moved = c + 1 + added, width + added, moved + added
    return table


def _spread_answers(table: Table, header_row: int, c: int, name: str,
                    answers: list[dict[str, Any] | None], own: int) -> int:
    """Write column ``c``'s answers (one dict a data row) as their fields'
    columns, the first in ``c``, the others beside it, the columns after
    it moved right (``own``: the file's column ``c`` was); returns how many
    columns were added."""
    fields = list(dict.fromkeys(k for a in answers if a for k in a))
    width = max(map(len, table.rows))
    added = len(fields) - 1
    at = list(range(c, c + len(fields)))
    for i, row in enumerate(table.rows):
        row.extend([None] * (width - len(row)))
        if i < header_row:  # (rows above the header keep their places by the columns')
            row[c + 1:c + 1] = [None] * added
            continue
        got = answers[i - header_row - 1] or {} if i > header_row else None
        row[c:c + 1] = [f"{name}.{f}" if got is None else got.get(f) for f in fields]
    table.rectangular = False
    shown = ", ".join(f"{column_letters(col + 1)} ({name}.{f})" for f, col in zip(
        fields, at, strict=True))
    after = width - c - 1  # the file's columns after it, now further right
    moved = "" if not added or not after else (
        f"; the file's columns {_span(own + 2, own + 1 + after)} after it are read as "
        f"{_span(c + 2 + added, c + 1 + added + after)}")
    table.notes.append(f"column {column_letters(own + 1)} ({name}): each row's answers as "
                       f"JSON, read as a column per answer beside it: {shown}{moved}")
    return added


def _span(first: int, last: int) -> str:
    """Columns ``first`` to ``last`` (1-based) as letters: ``I``, ``I-J``."""
    return column_letters(first) if first == last else \
        f"{column_letters(first)}-{column_letters(last)}"
