"""Reading the two inputs of a comparison.

Two TREC runs joined with one qrels file (:func:`load_pair`,
:func:`read_judged_pair`), two worksheets with their own grades
(:func:`load_pair`), or a run graded with the grades of the document open in
the editor (:func:`run_with_judgments`, :func:`load_against`). The documents
are handed to :func:`core.analysis.compare.compare`; nothing here compares.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from core.analysis.compare.changes import LeftOut
from core.errors import InputError
from core.io.files import Head, holds_no_line, sniff, stem
from core.io.load import WORKBOOK_SUFFIXES, load_document, looks_like_trec_run
from core.io.qrels_kind import is_score_dict, refuse_report
from core.io.score_dict import json_run, text_joins, trec_copies
from core.io.stop import Stop, Stopped, stoppable
from core.io.stop import check as check_stopped
from core.io.stop import current as current_stop
from core.io.trec import QrelsColumns, Run, alloc, document_from_trec
from core.model.document import Document, GradeState

__all__ = [
    "check_exist",
    "judged_by_sheet",
    "load_against",
    "load_against_counted",
    "load_pair",
    "read_judged_pair",
    "read_judged_runs",
    "run_with_judgments",
]

FloatArray = npt.NDArray[np.float64]
T = TypeVar("T")


def load_pair(
    run_a: str | Path, run_b: str | Path, qrels: str | Path | None = None
) -> tuple[Document, Document]:
    """Read the two inputs of a comparison.

    With ``qrels``, both are TREC runs joined with the same judgments;
    without, each is a worksheet (CSV/TSV or workbook) with its own grades.
    Raises :class:`InputError` naming the file for a missing or unreadable
    input, and for a run none of whose queries is judged.
    """
    heads = check_exist(run_a, run_b, qrels)
    if qrels is None:
        return load_document(heads[0]), load_document(heads[1])
    join, read = text_joins(heads)
    if join is not None:  # a JSON id holding white space
        return _judged(join(0), run_a, qrels), _judged(join(1), run_b, qrels)
    with trec_copies(*_roles(heads), read=read) as (run_a, run_b, qrels), _sheet(
            heads[-1], qrels) as qrels:
        if _any_parquet(*heads):
            doc_a, doc_b = _judged_tables([run_a, run_b], qrels)
            return doc_a, doc_b
        judgments = QrelsColumns(qrels)
        return _judged_run(run_a, judgments), _judged_run(run_b, judgments)


def judged_by_sheet(head: Head) -> bool:
    """Whether the qrels ``head`` are an annotators' sheet (or one of our
    workbooks) that a TREC run's join reads through its import: not beside
    a Parquet table (which joins the sheet itself), not ranx's JSON."""
    from core.io.columnar import is_parquet
    from core.io.qrels_kind import is_judgment_sheet

    return not (is_parquet(head) or is_score_dict(head)
                or not is_judgment_sheet(head.path, head))


def _sheet(head: Head, qrels: Path,
           judgments: Document | None = None) -> AbstractContextManager[Path]:
    """``qrels`` as they are, or for an annotators' sheet
    (:func:`judged_by_sheet`) the TREC qrels of its current grades, imported
    once (:func:`core.io.annotator.qrels.sheet_as_qrels`; ``judgments``:
    imported already, on the user's ``--rubric`` or the sheet's own scale)."""
    if not judged_by_sheet(head):
        return nullcontext(qrels)
    from core.io.annotator.qrels import sheet_as_qrels

    return sheet_as_qrels(head.path, judgments)


def _carrying(then: Callable[..., T], sheet: Document | None) -> Callable[..., T]:
    """``then``, given each run joined with an annotators' sheet's
    ``judgments`` (``sheet``, imported once) with what else they hold of its
    candidates (:func:`core.io.annotator.qrels.carry_record`: the
    annotators' grades, whose consensus the reports then name, as
    ``evaluate RUN --qrels SHEET`` does); ``then`` itself without them."""
    if sheet is None:
        return then
    from core.io.annotator.qrels import carry_record

    return lambda doc, *more: then(carry_record(doc, sheet), *more)


def _roles(heads: Sequence[Head]) -> list[tuple[Head, str]]:
    """Runs' and (last) qrels' heads with their roles, for
    :func:`core.io.score_dict.trec_copies` (ranx's JSON read as TREC)."""
    return [(head, "run") for head in heads[:-1]] + [(heads[-1], "qrels")]


def _any_parquet(*paths: str | Path | Head) -> bool:
    from core.io.columnar import is_parquet

    return any(is_parquet(p) for p in paths)


def _judged_tables(runs: Sequence[str | Path], qrels: str | Path) -> Iterator[Document]:
    """Each run joined with ``qrels``, of which one at least is Parquet
    (:func:`core.io.columnar.documents_from_tables`: the qrels read once), in
    turn; a run none of whose queries is judged is an error."""
    from core.io.columnar import documents_from_tables

    for run, doc in zip(runs, documents_from_tables(runs, qrels), strict=True):
        yield _judged(doc, run, qrels)
        del doc


def _judged(doc: Document, run: str | Path, qrels: str | Path) -> Document:
    """``doc``, the join of ``run`` and ``qrels``, unless it holds no query
    (a run with no line said so, naming it, not the qrels)."""
    if doc.n_queries == 0:
        if holds_no_line(sniff(run, piped=False)):
            raise InputError("the run has no line (it ranks no query)", file=str(run),
                             hint="name a run with a line per query, candidate and score")
        raise InputError(
            f"no query of the run {run} has judgments in this file",
            file=str(qrels), hint="check that run and qrels use the same query ids",
        )
    return doc


def check_exist(*paths: str | Path | Head | None) -> list[Head]:
    """The first bytes of each of ``paths`` given (:func:`core.io.files.sniff`,
    read once for every check before the read; a :class:`Head` given is one
    read already). Raises :class:`InputError` naming the first that does not
    exist, else the first that is refused from its first bytes: compressed
    in a format not read (with how to decompress it; these commands read no
    standard input)."""
    given = [name for name in paths if name is not None]
    for name in given:
        if not isinstance(name, Head) and not Path(name).exists():
            raise InputError("no such file", file=str(name), hint="check the path")
    heads = [name if isinstance(name, Head) else sniff(name, piped=False) for name in given]
    for head in heads:  # (a report this program wrote: never read back)
        refuse_report(head.data, str(head.path))
    return heads


def _judged_run(run: str | Path | Run, judgments: QrelsColumns) -> Document:
    """``run`` joined with ``judgments``; a :class:`Run` given is spent (its
    columns become the document's: every caller lets go of it). One thread
    a join: the other run is read (or, of many, joined) at the same time."""
    doc = document_from_trec(run, judgments, spent=True, threads=1)
    return _judged(doc, run.path if isinstance(run, Run) else run, judgments.path)


def read_judged_pair(
    run_a: str | Path, run_b: str | Path, qrels: str | Path | Head,
    then: Callable[[Document], T], sheet: Document | None = None,
) -> tuple[Document, Document, T, T, LeftOut]:
    """Both runs read, joined with ``qrels`` (its :class:`Head` when read
    already, as :func:`check_exist` takes it) and handed to ``then`` (the
    command line evaluates them), B on a second thread while A here, the qrels
    read on a third while the runs are (the reading and the array work release
    the GIL, so two cores share it; each file is read on one thread), once
    :func:`check_exist` found all three. The runs are joined and handed to
    ``then`` one at a time (whichever is read first), so that one join's or
    one ``then``'s temporaries are in memory at once.

    Returns both documents, what ``then`` made of each, and the queries the
    files name that neither document holds (:class:`LeftOut`).
    ``sheet``: the judgments of an annotators' sheet given as ``qrels``,
    imported already (:func:`core.io.annotator.qrels.sheet_judgments`),
    whose record each run is given before ``then`` (:func:`_carrying`;
    None: imported here, on the sheet's own scale, the grades alone).
    """
    heads = check_exist(run_a, run_b, qrels)
    qrels = heads[-1].path
    join, read = text_joins(heads, sheet=sheet)
    if join is not None:  # a JSON id holding white space
        doc_a, doc_b = _judged(join(0), run_a, qrels), _judged(join(1), run_b, qrels)
        return (doc_a, doc_b, then(doc_a), then(doc_b),
                _left_out(doc_a.queries_left_out, doc_b.queries_left_out))
    with trec_copies(*_roles(heads), read=read) as (run_a, run_b, qrels), _sheet(
            heads[-1], qrels, sheet) as qrels:
        return _read_judged_pair(run_a, run_b, qrels, _carrying(then, sheet),
                                 _any_parquet(*heads))


def _read_judged_pair(
    run_a: str | Path, run_b: str | Path, qrels: str | Path, then: Callable[[Document], T],
    tables: bool,
) -> tuple[Document, Document, T, T, LeftOut]:
    """:func:`read_judged_pair` of TREC text or (``tables``) Parquet files."""
    if tables:
        doc_a, doc_b = _judged_tables([run_a, run_b], qrels)
        left_out = _left_out(doc_a.queries_left_out, doc_b.queries_left_out)
        return doc_a, doc_b, then(doc_a), then(doc_b), left_out
    # A lane's error stops the other's read and join at their next piece
    # (core.io.stop) rather than waiting for them and its evaluation.
    stop, errors = _Within(current_stop()), list[BaseException]()
    with ThreadPoolExecutor(max_workers=2) as pool:
        # The qrels, let go once both runs are joined (11 MiB at 400,000
        # judgments, under the second run's evaluation).
        judgments = [pool.submit(_stopping, stop, errors, QrelsColumns, qrels, threads=1)]
        last = iter((False, True))
        # Two joins side by side held both runs' sort outputs and
        # temporaries (~25-30 MiB each at 2M rows) where the defaults peaked.
        turn = threading.Lock()

        def one(path: str | Path) -> tuple[Document, T]:
            run = Run(path, threads=1)
            with turn:
                check_stopped()
                doc = _judged_run(run, judgments[0].result())
                del run
                if next(last):
                    judgments.clear()
                # The join's temporaries leave the heap's free space in
                # pieces the evaluation's 16 MB arrays do not fit: their
                # pages handed back rather than kept resident beside them.
                alloc.hand_back()
                check_stopped()
                return doc, then(doc)

        lane = pool.submit(_stopping, stop, errors, one, run_b)
        try:
            doc_a, ev_a = _stopping(stop, errors, one, run_a)
        except Stopped:  # stopped by the qrels' or B's error (that one told), or the caller's
            if errors:
                raise errors[0] from None
            raise
        doc_b, ev_b = lane.result()
    # Reading two runs at once leaves ~140 MB free in the heap that the
    # comparison's lanes do not reuse (its peak sat that much above the
    # documents): handed back here.
    alloc.hand_back()
    return doc_a, doc_b, ev_a, ev_b, _left_out(doc_a.queries_left_out, doc_b.queries_left_out)


class _Within(Stop):
    """The stop of a pair's lanes: set by an error of theirs, or by the
    reading thread's own (``outer``, e.g. a task's Cancel), which it does not set."""

    def __init__(self, outer: Stop | None) -> None:
        super().__init__()
        self._outer = outer

    def is_set(self) -> bool:
        return super().is_set() or (self._outer is not None and self._outer.is_set())


def _stopping(stop: Stop, errors: list[BaseException], fn: Callable[..., T], *args: object,
              **kwargs: object) -> T:
    """``fn(*args, **kwargs)``, its reads stopped when ``stop`` is set
    (:func:`core.io.stop.stoppable`); an error of its own is added to
    ``errors`` and sets ``stop``."""
    with stoppable(stop):
        try:
            return fn(*args, **kwargs)
        except Stopped:
            raise
        except BaseException as exc:
            errors.append(exc)
            stop.set()
            raise


def _left_out(*each: tuple[tuple[str, ...], tuple[str, ...]]) -> LeftOut:
    """The judged queries no run ranks and the ranked queries none judges
    (each in the order the files first name them), from what each run's join
    left out (:attr:`Document.queries_left_out`: the same qrels judged them)."""
    unjudged = dict.fromkeys(q for ranked_only, _ in each for q in ranked_only)
    unranked = [set(judged_only) for _, judged_only in each[1:]]
    return LeftOut(tuple(q for q in each[0][1] if all(q in u for u in unranked)),
                   tuple(unjudged))


def read_judged_runs(
    runs: list[str | Path], qrels: str | Path | Head, then: Callable[[Document, int], T],
    sheet: Document | None = None,
) -> tuple[list[T], LeftOut]:
    """Each run read, joined with ``qrels`` (its :class:`Head` when read
    already) and handed to ``then`` with its index, two at a time (one on a
    second thread), the qrels read once.

    Only what ``then`` makes of each run is kept, so that many large runs
    need the memory of two at a time (a comparison of many runs keeps each
    one's NDCG per query, not its rows). Returns those, in the runs' order,
    and the queries the files name that no run's document holds.
    """
    heads = check_exist(*runs, qrels)
    qrels = heads[-1].path
    join, read = text_joins(heads, sheet=sheet)
    if join is not None:  # a JSON id holding white space: one run at a time
        return _each_judged((_judged(join(i), run, qrels) for i, run in enumerate(runs)), then)
    then = _carrying(then, sheet)
    with trec_copies(*_roles(heads), read=read) as paths, _sheet(
            heads[-1], paths[-1], sheet) as qrels:
        if _any_parquet(*heads):  # one run at a time, the qrels read once
            return _each_judged(_judged_tables(paths[:-1], qrels), then)
        return _read_judged_runs(paths[:-1], qrels, then)


def _each_judged(
    docs: Iterable[Document], then: Callable[[Document, int], T]
) -> tuple[list[T], LeftOut]:
    """:func:`read_judged_runs` from its documents made one at a time: each
    handed to ``then`` and let go before the next is made."""
    out: list[T] = []
    left: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for i, doc in enumerate(docs):
        left.append(doc.queries_left_out)
        out.append(then(doc, i))
        del doc
    return out, _left_out(*left)


def _read_judged_runs(
    runs: list[Path], qrels: Path, then: Callable[[Document, int], T]
) -> tuple[list[T], LeftOut]:
    """:func:`read_judged_runs` of TREC text files."""
    judgments = QrelsColumns(qrels)
    left: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((), ()) for _ in runs]

    def one(i: int) -> T:
        run = Run(runs[i], threads=1)
        doc = _judged_run(run, judgments)
        del run
        left[i] = doc.queries_left_out
        return then(doc, i)

    with ThreadPoolExecutor(max_workers=1) as pool:
        out: list[T] = []
        for start in range(0, len(runs), 2):
            lane = pool.submit(one, start + 1) if start + 1 < len(runs) else None
            out.append(one(start))
            if lane is not None:
                out.append(lane.result())
    return out, _left_out(*left)


def run_with_judgments(run: str | Path | Run, judgments: Document) -> Document:
    """A TREC run graded with another document's current grades.

    For comparing a run against the document open in the editor: the run's
    queries that ``judgments`` holds are kept (as trec_eval keeps the queries
    in both files); a run row whose source ``judgments`` lists in that query
    takes its grade and grade state (unknown and unrateable included), other
    run rows are unknown; sources ``judgments`` lists but the run did not
    retrieve are added without a score. Conventions, judgment version and
    query weights are those of ``judgments``; the run's rank column is
    ignored.

    Parameters
    ----------
    run : str, Path or core.io.trec.Run
        The run file (or one already read).
    judgments : Document
        The document whose grades judge the run.

    Raises
    ------
    InputError
        When no query of the run is in ``judgments``, or the run lists a
        source twice for one query.
    """
    return _graded_run(run, judgments)[0]


def _graded_run(run: str | Path | Run, judgments: Document) -> tuple[Document, LeftOut]:
    """:func:`run_with_judgments`, and the run's queries it left out
    (those ``judgments`` does not hold, in the run's order)."""
    run = run if isinstance(run, Run) else Run(run)
    name = str(run.path)
    index = {q: i for i, q in enumerate(judgments.query_ids)}
    run_query, run_source = run.query, run.source
    keep = [i for i, q in enumerate(run_query) if q in index]
    if not keep:
        raise InputError(
            "no query of this run is in the open document", file=name,
            hint="check that the run and the document use the same query ids",
        )
    row_of = {
        (int(q), str(s)): r
        for r, (q, s) in enumerate(zip(judgments.query.tolist(), judgments.source_id,
                                       strict=True))
    }
    matched = np.fromiter(
        (row_of.get((index[run_query[i]], run_source[i]), -1) for i in keep), np.int64, len(keep)
    )
    queries = list(dict.fromkeys(run_query[i] for i in keep))
    seen = np.zeros(len(judgments), dtype=bool)
    seen[matched[matched >= 0]] = True
    extra_parts = [judgments.members(index[q]) for q in queries]
    extra = np.concatenate(extra_parts) if extra_parts else np.zeros(0, dtype=np.int64)
    extra = extra[~seen[extra]]
    rows = np.concatenate([matched, extra])
    has = rows >= 0
    safe = np.where(has, rows, 0)
    grade = np.where(has, judgments.grade[safe], np.nan)
    state = np.where(has, judgments.state[safe], np.int8(GradeState.UNKNOWN)).astype(np.int8)
    reason = [str(judgments.reason[r]) if r >= 0 else "" for r in rows.tolist()]
    version = [str(judgments.version[r]) if r >= 0 else "" for r in rows.tolist()]
    score = np.concatenate([run.score[keep], np.full(extra.size, np.nan)])
    query = [run_query[i] for i in keep] + [judgments.query_ids[int(q)]
                                            for q in judgments.query[extra]]
    source = [run_source[i] for i in keep] + [str(s) for s in judgments.source_id[extra]]

    def weights(values: FloatArray) -> dict[str, float]:
        return {q: float(values[index[q]]) for q in queries if not np.isnan(values[index[q]])}

    doc = Document.from_columns(
        query=query, source_id=source, score=score, grade=grade, state=state,
        reason=reason, version=version, query_order=queries,
        frequency=weights(judgments.frequency), importance=weights(judgments.importance),
        conventions=judgments.conventions, judgment_version=judgments.judgment_version,
        name=stem(name), source=name,
    )
    doc.run_tag = run.tag
    doc.query_texts = {q: judgments.query_texts[q] for q in queries
                       if q in judgments.query_texts}
    return doc, LeftOut(unjudged=tuple(q for q in dict.fromkeys(run_query) if q not in index))


def load_against(path: str | Path, judgments: Document) -> Document:
    """The second document of a comparison with the open one.

    A TREC run file, ranx's or pytrec_eval's JSON run, or a Parquet run, is
    graded with ``judgments`` (:func:`run_with_judgments`); anything else is read as a
    worksheet with its own grades
    (:func:`core.io.load.load_document`).
    """
    return load_against_counted(path, judgments)[0]


def load_against_counted(path: str | Path, judgments: Document) -> tuple[Document, LeftOut]:
    """:func:`load_against`, and the queries of a TREC run it left out
    (ranked by the run, not held by ``judgments``; none for a worksheet)."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", file=str(path), hint="check the path")
    if path.is_file() and path.suffix.lower() not in WORKBOOK_SUFFIXES and (
            looks_like_trec_run(path)):
        return _graded_run(path, judgments)
    head = sniff(path)
    refuse_report(head.data, str(head.path))
    if is_score_dict(head):  # ranx's or pytrec_eval's JSON run
        return _graded_run(json_run(path), judgments)
    from core.io.columnar import is_parquet, is_parquet_run, parquet_run

    if is_parquet(head) and is_parquet_run(path):  # a run of scores without grades
        return _graded_run(parquet_run(path), judgments)
    return load_document(head), LeftOut()
