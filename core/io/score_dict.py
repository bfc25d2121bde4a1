"""ranx's and pytrec_eval's JSON runs and qrels: ``{query: {source: number}}``.

Read when unambiguous: one object of queries, each an object of sources,
each a finite number (a score of a run, a grade of qrels). Refused in one
line naming the file and the key path (``["q1"]["d7"]``): a key given twice
(JSON takes the last silently; :func:`json.loads`' ``object_pairs_hook``
keeps both), ``NaN`` or ``Infinity`` (which Python's JSON takes), a value
that is not a number, an empty id, an id holding a NUL character (``"\\u0000"``).

A file read is written as the TREC run or qrels it holds (each number as
its shortest exact decimal, so every number is the same bit for bit) into a
private temporary file, which the TREC readers read with every check and
join they make on any other (:func:`trec_copy`): a JSON run is the TREC run
it holds, as pytrec_eval and ranx read both alike. An id is any text of a
JSON string, white space too (``"what is x"``), which a TREC line cannot
hold: a run and its qrels holding one, each JSON or TREC text, are joined
as :func:`core.io.trec.document_from_trec` joins, on the text of every id
(:func:`text_joins`: ``evaluate``, ``compare``, the editor), beside a
Parquet table on the bytes of every id, beside an annotators' sheet on the
sheet's judgments as they are (a Parquet run too). Only TREC text out refuses such an id,
naming it (:func:`core.io.trec.write.check_trec_ids`).
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import InputError
from core.io.files import Head, read_input, stem
from core.io.qrels_kind import is_score_dict
from core.model.conventions import Conventions
from core.model.document import Document
from core.model.numbers import BEYOND_FLOAT

if TYPE_CHECKING:
    from core.io.trec import Run

__all__ = ["is_score_dict", "json_run", "key_path", "read_pair", "text_joins", "trec_copies",
           "trec_copy"]

_SPACE = re.compile(r"\s")
#: What a refused value is, by its Python type after parsing.
_KINDS = {str: "text", list: "a list", type(None): "null", bool: "true or false"}


def key_path(*keys: str) -> str:
    """Where a value is in the JSON, as JSON writes its keys: ``["q1"]["d7"]``."""
    import json  # (loaded when a JSON file is read: compare's start does without)

    return "".join(f"[{json.dumps(k, ensure_ascii=False)}]" for k in keys)


class _Object(list[tuple[str, Any]]):
    """A JSON object's pairs as written (a key given twice kept twice)."""


class _Constant(str):
    """``NaN``, ``Infinity`` or ``-Infinity`` as written."""


class _Beyond(str):
    """A number written beyond the largest float (``3.5e400``), as written."""


def _finite_or_beyond(read: Callable[[str], float | int]) -> Callable[[str], Any]:
    """JSON's number reader, keeping the text of a number too large for a float."""
    return lambda text: _Beyond(text) if math.isinf(float(text)) else read(text)


def _parse(path: Path, *, as_written: bool = False) -> _Object:
    """The file's JSON; ``as_written``: a number beyond a float kept as its
    text (a Python call a number, twice JSON's own time: only read so on the
    way to refusing one, :func:`_beyond`)."""
    import json

    from core.io.textfile import MAX_BYTES

    raw = read_input(path, MAX_BYTES)
    numbers: dict[str, Any] = {"parse_float": _finite_or_beyond(float),
                               "parse_int": _finite_or_beyond(int)} if as_written else {}
    try:
        data = json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_Object,
                          parse_constant=_Constant, **numbers)
    except (UnicodeDecodeError, ValueError) as exc:
        if not as_written and not isinstance(exc, UnicodeDecodeError):
            return _parse(path, as_written=True)  # (an integer of 4,300 digits or more)
        line = getattr(exc, "lineno", None)
        raise InputError(f"not readable JSON ({getattr(exc, 'msg', exc)})", file=str(path),
                         line=line, hint="write it again with json.dump") from None
    if not isinstance(data, _Object):
        raise InputError("the JSON is not one object of {query: {source: number}}",
                         file=str(path), hint="write it with ranx's Run.save or json.dump")
    return data


def _refuse(path: Path, where: str, problem: str, hint: str) -> InputError:
    return InputError(f"{where} {problem}", file=str(path), hint=hint)


def _id(path: Path, key: str, *outer: str) -> str:
    if not key:
        raise _refuse(path, key_path(*outer, key), "is an empty id", "give each a name")
    if "\0" in key:  # as a Parquet table's (core.io.arrow_ids.refuse_nul)
        from core.io.arrow_ids import NUL, NUL_HINT

        raise _refuse(path, key_path(*outer, key), NUL, NUL_HINT)
    return key


def _number(path: Path, value: Any, query: str, source: str, role: str) -> float:
    what = "score" if role == "run" else "grade"
    hint, where = f"a {what} is a finite number", key_path(query, source)
    if isinstance(value, _Constant):
        raise _refuse(path, where, f"holds {value}, not a finite number", hint)
    if isinstance(value, _Beyond):
        raise _refuse(path, where, f"holds {value}, {BEYOND_FLOAT}", hint)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        kind = "an object" if isinstance(value, _Object) else _KINDS.get(type(value), "text")
        raise _refuse(path, where, f"holds {kind}, not a number", hint)
    try:
        number = float(value)
    except OverflowError:  # an integer beyond a float
        number = math.inf
    if math.isinf(number):  # (JSON reads a float beyond a float as inf)
        raise _refuse(path, where, f"holds {_beyond(path, query, source)}, {BEYOND_FLOAT}",
                      hint)
    return number


def _beyond(path: Path, query: str, source: str) -> str:
    """The number beyond a float at ``query``/``source`` (its first), as written."""
    for q, sources in _parse(path, as_written=True):
        for s, value in sources if q == query and isinstance(sources, _Object) else ():
            if s == source:
                return str(value)
    return "a number"  # (not reached: the file holds it)


#: A JSON file's (query, source, number) rows, in its order, checked.
Rows = list[tuple[str, str, float]]


def _rows(path: Path, role: str) -> Rows:
    return list(_each_row(path, role))


def _each_row(path: Path, role: str) -> Iterator[tuple[str, str, float]]:
    """Each (query, source, number) of the file, in its order, checked."""
    hint = "keep each key once"
    queries: set[str] = set()
    for query, sources in _parse(path):
        if query in queries:
            raise _refuse(path, key_path(query), "is given twice", hint)
        queries.add(_id(path, query))
        if not isinstance(sources, _Object):
            raise _refuse(path, key_path(query), "is not an object of {source: number}",
                          "write it with ranx's Run.save or json.dump")
        seen: set[str] = set()
        for source, value in sources:
            if source in seen:
                raise _refuse(path, key_path(query, source), "is given twice", hint)
            seen.add(_id(path, source, query))
            yield query, source, _number(path, value, query, source, role)


def _spaced(rows: Rows) -> tuple[str, ...] | None:
    """The key path of the first id holding white space, if any."""
    for query, source, _ in rows:
        if _SPACE.search(query):
            return (query,)
        if _SPACE.search(source):
            return query, source
    return None


def _trec_text(path: Path, role: str, rows: Rows) -> bytes:
    """The TREC run (``query Q0 source rank score json``) or qrels (``query 0
    source grade``) the file holds; ``repr`` of a float is its shortest
    exact decimal, read back as the same float."""
    spaced = _spaced(rows)
    if spaced is not None:
        raise _refuse(path, key_path(*spaced), "holds white space, which TREC text cannot "
                      "hold", "rename the id")  # (text_joins joins such ids: not reached)
    lines = []
    rank = 0
    last = None
    for query, source, value in rows:
        if role == "run":
            rank = rank + 1 if query == last else 1
            last = query
            lines.append(f"{query} Q0 {source} {rank} {value!r} json\n")
        else:
            lines.append(f"{query} 0 {source} {value!r}\n")
    return "".join(lines).encode("utf-8")


@contextmanager
def trec_copy(path: str | Path, role: str, rows: Rows | None = None) -> Iterator[Path]:
    """A private temporary TREC file holding the run (``role`` ``run``) or
    qrels (``qrels``) of the JSON file ``path`` (its ``rows`` when read
    already), checked, named as it is (``run.txt`` for ``run.json``: a
    document read from it takes its name); removed on leaving."""
    path = Path(path)
    text = _trec_text(path, role, _rows(path, role) if rows is None else rows)
    folder = Path(tempfile.mkdtemp(prefix="ndcg-json-"))  # readable by its owner only
    try:
        copy = folder / f"{stem(path)}.txt"
        copy.write_bytes(text)
        yield copy
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def trec_copies(*inputs: tuple[Head, str],
                read: dict[Path, Rows] | None = None) -> Iterator[list[Path]]:
    """Each input's path (its first bytes ``Head``), or for ranx's JSON a
    TREC copy of it as ``role`` (``run`` or ``qrels``: :func:`trec_copy`;
    ``read``: the rows of those read already, by path). An
    :class:`InputError` raised within naming a copy names the JSON file
    instead (without the copy's line)."""
    given: dict[str, str] = {}
    with ExitStack() as stack:
        paths = []
        for head, role in inputs:
            path = head.path
            if is_score_dict(head):
                path = stack.enter_context(trec_copy(head.path, role, (read or {}).get(path)))
                given[str(path)] = str(head.path)
            paths.append(path)
        try:
            yield paths
        except InputError as exc:
            if exc.file in given:
                exc.file, exc.line = given[exc.file], None
            for copy, name in given.items():  # ("no query of the run RUN ...")
                exc.problem = exc.problem.replace(copy, name)
            exc.args = (str(exc),)
            raise


def _text_side(head: Head, role: str) -> bool:
    """Whether a file given beside a JSON one is TREC text (not a Parquet
    table, nor, for qrels, an annotators' sheet)."""
    from core.io.columnar import is_parquet
    from core.io.qrels_kind import is_judgment_sheet

    return not is_parquet(head) and (role == "run" or not is_judgment_sheet(head.path, head))


def text_joins(heads: Sequence[Head], conventions: Conventions | None = None, *,
               unshared: bool = False, sheet: Document | None = None
               ) -> tuple[Callable[[int], Document] | None, dict[Path, Rows]]:
    """For runs (``heads[:-1]``) and their qrels (the last) of which one at
    least is ranx's JSON: each run's join with the qrels on the ids as they
    are (as :func:`core.io.trec.document_from_trec` joins, ``unshared`` as
    there), by the run's index, when a JSON id holds white space: on the
    text of every id when every file is JSON or TREC text, on the ids'
    bytes beside a Parquet table (:func:`_table_joins`), and the sheet's
    judgments as they are beside an annotators' sheet (:func:`_sheet_joins`);
    None otherwise, to read the TREC copies (:func:`trec_copies`). With the
    JSON files' rows (each parsed once). ``sheet``: the judgments of an
    annotators' sheet given as the qrels, imported already (on the
    declared rubric: ``compare``'s one import), else imported for each run."""
    roles = [(head, "run") for head in heads[:-1]] + [(heads[-1], "qrels")]
    rows = {head.path: _rows(head.path, role) for head, role in roles if is_score_dict(head)}
    if not any(_spaced(r) is not None for r in rows.values()):
        return None, rows
    from core.io.columnar import is_parquet

    runs_text = all(head.path in rows or _text_side(head, "run") for head in heads[:-1])
    qrels = heads[-1]
    qrels_text = qrels.path in rows or _text_side(qrels, "qrels")
    if not qrels_text and not is_parquet(qrels):  # an annotators' sheet
        return _sheet_joins(heads, rows, conventions, unshared, sheet), rows
    if not (runs_text and qrels_text):
        return _table_joins(heads, rows, conventions, unshared), rows
    from core.io.trec import Run, document_from_judged, read_qrels

    judged: dict[str, dict[str, float]] = {}
    if qrels.path in rows:
        for query, source, grade in rows[qrels.path]:
            judged.setdefault(query, {})[source] = grade
    else:
        judged = read_qrels(qrels.path)[0]

    def join(i: int) -> Document:
        path = heads[i].path
        ranked = rows.get(path)
        run = Run(path) if ranked is None else json_run(path, ranked)
        return document_from_judged(run, judged, conventions, unshared=unshared)

    return join, rows


def _table_joins(heads: Sequence[Head], rows: dict[Path, Rows],
                 conventions: Conventions | None, unshared: bool) -> Callable[[int], Document]:
    """:func:`text_joins` beside a Parquet table: each file as the columns
    of :func:`core.io.columnar.join_tables` (a JSON file's from its rows,
    its ids' UTF-8 bytes as they are), the qrels' read once."""
    from core.io.columnar import Side, join_tables, side_from_file, side_from_rows

    def side(head: Head, role: str) -> Side:
        found = rows.get(head.path)
        return side_from_file(head.path, role) if found is None else side_from_rows(
            found, str(head.path))

    judged = side(heads[-1], "qrels")

    def join(i: int) -> Document:
        doc, _ = join_tables(side(heads[i], "run"), judged, conventions, stem(heads[i].path),
                             unshared=unshared)
        return doc

    return join


def _sheet_joins(heads: Sequence[Head], rows: dict[Path, Rows],
                 conventions: Conventions | None, unshared: bool,
                 sheet: Document | None = None) -> Callable[[int], Document]:
    """:func:`text_joins` beside an annotators' sheet: each run (JSON, its
    ids as they are, TREC text or Parquet) joined with the sheet's judgments
    (:func:`core.io.annotator.qrels.run_with_judgments`)."""
    from core.io.annotator.qrels import run_with_judgments
    from core.io.columnar import is_parquet
    from core.io.trec import Run

    def join(i: int) -> Document:
        path = heads[i].path
        ranked = rows.get(path)
        run: Path | Run = json_run(path, ranked) if ranked is not None else (
            path if is_parquet(heads[i]) else Run(path))
        return run_with_judgments(run, heads[-1].path, conventions, unshared=unshared,
                                  judgments=sheet)

    return join


def json_run(path: str | Path, rows: Rows | None = None) -> Run:
    """The run the JSON file ``path`` holds (its ``rows`` when read already),
    its ids as they are (white space too), each row's "line" its number."""
    from core.io.trec import Run

    path = Path(path)
    ranked = _rows(path, "run") if rows is None else rows
    return Run.from_rows(path, [r[0] for r in ranked], [r[1] for r in ranked],
                         [r[2] for r in ranked])


def read_pair(run: Head, qrels: Head, conventions: Conventions | None,
              read_copies: Callable[[Path, Path], Document]) -> Document:
    """The document of a run and its qrels, one at least ranx's JSON: joined
    on the text of every id when a JSON id holds white space and the other
    file is JSON or TREC text (:func:`text_joins`, ``unshared``), else
    ``read_copies`` of the TREC copies."""
    join, rows = text_joins((run, qrels), conventions, unshared=True)
    if join is not None:
        return join(0)
    with trec_copies((run, "run"), (qrels, "qrels"), read=rows) as (run_path, qrels_path):
        doc = read_copies(run_path, qrels_path)
    if is_score_dict(run):  # the TREC copy's tag, "json", is none of the run's: it has none
        doc.run_tag = ""  # (the window read "e5-dense.json (json)", a .run export 'json')
    return doc
