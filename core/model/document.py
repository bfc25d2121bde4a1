"""The document: queries and their candidates, stored column by column.

A candidate is one row: query, source id, version, predicted score (NaN when
the candidate was judged but not retrieved), the current grade and the
original grade, each with a state (a number, ``unknown`` or ``unrateable``).
Original grades are never overwritten; edits change the current grade and are
recorded in the audit log.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.model import given_columns as given
from core.model.assignment import Assignment
from core.model.audit import AuditEntry, timestamp
from core.model.convention_log import convention_changes
from core.model.conventions import Conventions, Weighting

# A grade's state and text belong to the grade grammar; importers find them here too.
from core.model.grades import GradeState, grade_text, reason_kind
from core.model.ids import IdBytes
from core.model.lazy import Column as _Column
from core.model.lazy import Released as _Released
from core.model.query_rows import QueryMembers, query_codes_of

__all__ = ["RANKINGS", "Document", "GradeState", "grade_text", "has_weight"]

#: Where a document's scores came from, when not from a score column
#: (:attr:`Document.ranking`), in words for people: the workbook's Report and
#: the import's report say it; "" (scores as given, or no scores) says nothing.
#: The workbook is written from the window as from the command line, so the
#: words name neither's control (``--order rows``, the wizard's box).
RANKINGS: dict[str, str] = {
    "": "",
    "rank": "the sheet's rank column (score = -rank)",
    "rows": "the sheet's row order, declared a ranking when the judgments were imported "
            "(score = -row number): no run supplied it",
}

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


@dataclass(eq=False)
class Document:
    """Queries and candidates, column by column (numpy arrays).

    Build one with :meth:`from_columns`; never one Python object per
    candidate.

    Examples
    --------
    >>> doc = Document.from_columns(
    ...     query=["q1", "q1"], source_id=["a", "b"], score=[2.0, 1.0], grade=[1.0, None]
    ... )
    >>> doc.n_queries, len(doc), doc.state.tolist()
    (1, 2, [0, 1])
    """

    query_ids: list[str]
    query: IntArray
    # Text columns may be given Unmade (made when first read: _Column); the
    # scores may be released (release_scores).
    if TYPE_CHECKING:
        source_id: npt.NDArray[np.object_]
        version: npt.NDArray[np.object_]
        score: npt.NDArray[np.float64]
    else:
        source_id: npt.NDArray[np.object_] = _Column()
        version: npt.NDArray[np.object_] = _Column()
        score: npt.NDArray[np.float64] = _Column()
    grade: npt.NDArray[np.float64]
    state: npt.NDArray[np.int8]
    original_grade: npt.NDArray[np.float64]
    original_state: npt.NDArray[np.int8]
    if TYPE_CHECKING:
        note: npt.NDArray[np.object_]
        reason: npt.NDArray[np.object_]
    else:
        note: npt.NDArray[np.object_] = _Column()
        reason: npt.NDArray[np.object_] = _Column()
    frequency: npt.NDArray[np.float64]
    importance: npt.NDArray[np.float64]
    conventions: Conventions = field(default_factory=Conventions)
    judgment_version: str = ""
    name: str = ""
    #: The run's tag as its file writes it (a TREC run's sixth field, kept
    #: as written: "BM25 tuned"), "" where the document came from no such
    #: run. The reviewer tells the run by it (:meth:`run_title`); a TREC
    #: export of the run writes it.
    run_tag: str = ""
    audit: list[AuditEntry] = field(default_factory=list)
    #: Names of the annotators whose individual grades are kept, and their
    #: grades (rows = candidates, columns = annotators; NaN = not graded).
    annotators: list[str] = field(default_factory=list)
    ratings: npt.NDArray[np.float64] | None = None
    #: Which of ``ratings``' NaN are an annotator's unrateable mark (looked
    #: at, could not grade), the shape of ``ratings``; None when none is.
    unrateable_ratings: npt.NDArray[np.bool_] | None = None
    #: Each such mark as the annotator wrote it (``n/a``, ``skip``, ``?``
    #: declared unrateable), the shape of ``ratings`` ("" where no mark, or
    #: where a workbook written before the words kept only the mark); None
    #: when no word is kept. Never overwritten: the mark's raw value.
    unrateable_words: npt.NDArray[np.object_] | None = None
    #: The review round this document belongs to (a reviewer's or a merged
    #: workbook; see core.model.assignment), None otherwise.
    assignment: Assignment | None = None
    #: What an import found (rows rejected, labels mapped, ...), when the
    #: document came from an annotator sheet; see core.io.annotator.
    import_report: Any = None
    #: What the import of the annotators' sheet whose grades these are (a
    #: run given ``--qrels SHEET``, or the sheet's own document) left out or
    #: could not reconcile, one line each, for the command line to say:
    #: handed along with the import, never kept by the process between reads.
    judgments_notes: tuple[str, ...] = ()
    #: Where the scores came from when not from a score column: a key of
    #: :data:`RANKINGS` ("rows": the user declared the sheet's row order a
    #: ranking). Kept in the workbook and said on its Report sheet.
    ranking: str = ""
    #: The queries the joined files named that the document does not hold:
    #: ranked by the run and never judged, then judged and never ranked,
    #: each in the order its file first names them (the joins of a run and
    #: its qrels set them; a comparison counts them without reading again).
    queries_left_out: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: Whether the join kept the queries the two files do not share (the
    #: ``--unshared`` join): the judged, never ranked ones are in the
    #: document, and the ranked, never judged ones are counted beside every
    #: mean (:attr:`unjudged_queries`).
    unshared: bool = False
    #: Each query's text where a file gave one beside its id (the question
    #: "how do I renew a passport" of ``q017``), by query id; a query
    #: without one is absent. Shown beside the id, never in the numbers.
    query_texts: dict[str, str] = field(default_factory=dict)
    _members: QueryMembers | None = field(default=None, repr=False)
    #: Whether the rows come in many runs of ascending query codes
    #: (:meth:`query_spans` found so, and made no order).
    _many_runs: bool = field(default=False, repr=False)
    _source_codes: tuple[IntArray, npt.NDArray[np.object_]] | None = field(
        default=None, repr=False)
    #: The source ids as the file's bytes, when a reader kept them so
    #: (:meth:`source_bytes`).
    _id_bytes: IdBytes | None = field(default=None, repr=False)

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_columns(
        cls,
        *,
        query: Sequence[str],
        source_id: Sequence[str] | npt.NDArray[np.object_] | IdBytes,
        score: Sequence[float | None] | npt.NDArray[np.float64] | None = None,
        grade: Sequence[float | None] | npt.NDArray[np.float64] | None = None,
        state: Sequence[int] | npt.NDArray[np.int8] | None = None,
        version: Sequence[str] | None = None,
        note: Sequence[str] | None = None,
        reason: Sequence[str] | None = None,
        frequency: dict[str, float] | None = None,
        importance: dict[str, float] | None = None,
        query_order: Sequence[str] | None = None,
        query_codes: npt.NDArray[np.int64] | None = None,
        source_codes: tuple[IntArray, npt.NDArray[np.object_]] | None = None,
        conventions: Conventions | None = None,
        judgment_version: str = "",
        name: str = "",
        source: str | None = None,
        check: bool = True,
        copy: bool = True,
    ) -> Document:
        """Build a document from parallel columns.

        ``grade`` None/NaN means unknown unless ``state`` says otherwise.
        ``score`` None/NaN means judged but not retrieved. A query+source pair
        may appear only once (``source`` names the file in that error).

        With ``query_codes`` (each row's index into ``query``), ``query`` is
        the list of distinct query ids in order instead of one id per row.
        ``copy=False`` hands numpy columns of the right type (int64 codes,
        float64 scores and grades) over to the document as they are.
        ``source_codes`` is what :meth:`source_codes` would find, from a reader
        that has it already (it is not checked). ``source_id`` given as
        :class:`~core.model.ids.IdBytes` is kept so and decoded when first
        read; text columns not given are made when first read.
        """
        qids, qidx = query_codes_of(query, query_order, query_codes, copy)
        n = int(qidx.shape[0])
        sid = given.source_ids(source_id, n)
        scores = given.floats(score, n, copy)
        grades = given.floats(grade, n, copy)
        states = given.states(grades, state)
        freq = given.per_query(qids, frequency)
        imp = given.per_query(qids, importance)
        shared = given.shared_grades(grades)
        doc = cls(
            query_ids=list(qids),
            query=qidx,
            source_id=sid,  # type: ignore[arg-type]  # (made when first read)
            version=given.texts(version, n),
            score=scores,
            grade=shared,
            state=states,
            original_grade=shared,
            original_state=states.copy(),
            note=given.texts(note, n),
            reason=given.texts(reason, n),
            frequency=freq,
            importance=imp,
            conventions=conventions or Conventions(),
            judgment_version=judgment_version,
            name=name,
        )
        doc._source_codes = source_codes
        doc._id_bytes = source_id if isinstance(source_id, IdBytes) else None
        if check:
            doc.check_unique(source)
        return doc

    def check_unique(self, source: str | None = None) -> None:
        """Raise :class:`InputError` if a query+source pair repeats."""
        duplicate = self.find_duplicate()
        if duplicate is not None:
            first, second = duplicate
            raise InputError(
                f"query {self.query_ids[int(self.query[first])]!r} lists source "
                f"{self.source_id[first]!r} twice (rows {first + 1} and {second + 1} of the data)",
                file=source,
                hint="keep one row per query and source",
            )

    def find_duplicate(self) -> tuple[int, int] | None:
        """The first two rows that repeat a query+source pair, if any.

        ``second`` is the earliest row whose pair an earlier row holds, and
        ``first`` the first row holding that pair.
        """
        n = len(self)
        if n < 2:
            return None
        # Rows are sorted on a 64-bit key (query and the id's hash); only rows
        # whose key repeats are compared as text, so a hash clash cannot lie.
        hashes = np.fromiter(map(hash, self.source_id), np.int64, n).view(np.uint64)
        key = hashes ^ (self.query.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
        order = np.argsort(key, kind="stable")
        ks = key[order]
        same = ks[1:] == ks[:-1]
        if not same.any():
            return None
        same_rows = np.zeros(n, dtype=bool)
        same_rows[1:] |= same
        same_rows[:-1] |= same
        seen: dict[tuple[int, str], int] = {}
        for i in np.sort(order[same_rows]).tolist():
            pair = (int(self.query[i]), self.source_id[i])
            first = seen.setdefault(pair, i)
            if first != i:
                return first, i
        return None

    # -- shape ------------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.query.shape[0])

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    @property
    def unjudged_queries(self) -> tuple[str, ...]:
        """The queries a run ranks that its qrels never judge, when the
        document was joined from the two keeping the unshared queries (left
        out of it, as trec_eval and ranx leave them; counted beside every
        mean: ``core.analysis.aggregate``); () otherwise. The first of
        :attr:`queries_left_out`, said once there."""
        return self.queries_left_out[0] if self.unshared else ()

    @property
    def n_queries_named(self) -> int:
        """The queries the files named: the document's and the run's queries
        the qrels never judge (:attr:`unjudged_queries`), the population a
        mean's counts add up to."""
        return len(self.query_ids) + len(self.unjudged_queries)

    def source_codes(self) -> tuple[IntArray, npt.NDArray[np.object_]]:
        """Each row's source id as an integer, and the ids those integers
        stand for (each id once; after :meth:`subset` it may hold ids no row
        has any more): equal ids, equal codes.

        Worked out once (source ids never change); a reader that joined its
        rows on such codes hands them over (``from_columns(source_codes=)``).

        >>> doc = Document.from_columns(query=["q", "q", "r"], source_id=["x", "y", "x"])
        >>> codes, ids = doc.source_codes()
        >>> codes.tolist(), ids.tolist()
        ([0, 1, 0], ['x', 'y'])
        """
        if self._source_codes is None and self._id_bytes is not None:
            self._source_codes = self._id_bytes.codes()
        if self._source_codes is None:
            ids_list = self.source_id.tolist()
            index = {key: i for i, key in enumerate(dict.fromkeys(ids_list))}
            codes = np.fromiter(map(index.__getitem__, ids_list), np.int64, len(self))
            ids = np.empty(len(index), dtype=object)
            ids[:] = list(index)
            self._source_codes = (codes, ids)
        return self._source_codes

    def _ids_undecoded(self) -> IdBytes | None:
        """A run's ids kept as bytes, while no one has asked for all as text."""
        return None if vars(Document)["source_id"].is_made(self) else self._id_bytes

    def run_title(self, name: str | None = None) -> str:
        """How the reviewer tells this document's run: ``name`` (else
        :attr:`name`), then the run's tag where its file gives one that
        the name does not already say.

        >>> Document.from_columns(query=[], source_id=[], name="bm25").run_title()
        'bm25'
        >>> doc = Document.from_columns(query=[], source_id=[], name="run3")
        >>> doc.run_tag = "BM25 tuned"
        >>> doc.run_title(), doc.run_title("run3.txt")
        ('run3 (BM25 tuned)', 'run3.txt (BM25 tuned)')
        """
        shown = self.name if name is None else name
        if not self.run_tag or self.run_tag in (shown, self.name):
            return shown
        return f"{shown} ({self.run_tag})" if shown else self.run_tag

    def source_text(self, i: int) -> str:
        """Candidate ``i``'s source id as text, not decoding all of a run's
        ids for it (a grid shows a few hundred of millions)."""
        ids = self._ids_undecoded()
        return str(self.source_id[i]) if ids is None else ids.text(i)

    def source_texts(self, rows: IntArray) -> npt.NDArray[np.object_]:
        """The source ids of ``rows`` as text (decoding those rows' only)."""
        ids, out = self._ids_undecoded(), np.empty(rows.size, dtype=object)
        out[:] = self.source_id[rows] if ids is None else ids.texts(rows)
        return out

    def source_bytes(self) -> IdBytes | None:
        """The source ids as the file's bytes (a TREC run's); None otherwise."""
        return self._id_bytes

    def release_scores(self) -> None:
        """Let go of the score column (8 bytes a row) for the rest of the
        document's life, for a caller that has worked out all it reads of
        the scores: the command line's compare of two runs, once each run's
        evaluation and tie facts are made
        (:func:`core.analysis.compare.compare_side`). Reading :attr:`score`
        then raises RuntimeError; a document that is edited, shown or
        written keeps them.

        >>> doc = Document.from_columns(query=["q"], source_id=["a"], score=[1.0])
        >>> doc.release_scores()
        >>> doc.score  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        RuntimeError: this document's scores were released ...
        """
        self.score = _Released("scores")  # type: ignore[assignment]  # (a _Column)

    def members(self, q: int) -> IntArray:
        """Candidate indices of query ``q`` in row order."""
        if self._members is None:
            self._members = QueryMembers.of(self.query, self.n_queries)
        return self._members[q]

    def query_spans(self) -> IntArray | None:
        """Where each query's rows are when the rows come in a few runs of
        ascending query codes (a TREC run joined with its qrels): row
        ``spans[r, q]`` to ``spans[r, q + 1]`` are query ``q``'s in run
        ``r``; None when they come in many (the rows' order is not made
        for this: a stable sort, 16 MB and ~0.1 s at 2M rows). Made once,
        shared with :meth:`members`.

        >>> doc = Document.from_columns(query=["a", "a", "b", "a"], source_id=list("wxyz"))
        >>> doc.query_spans().tolist()
        [[0, 2, 3], [3, 4, 4]]
        """
        if self._members is None:
            if self._many_runs:
                return None
            spans = QueryMembers.spans(self.query, self.n_queries)
            if spans is None:
                self._many_runs = True
                return None
            self._members = QueryMembers(None, spans)
        return self._members.bounds if self._members.order is None else None

    def subset(self, rows: IntArray) -> Document:
        """A new document of only ``rows`` (copies; columns not made stay so)."""
        rows, lazy = np.asarray(rows, dtype=np.int64), vars(Document)
        used = np.unique(self.query[rows])
        remap = np.full(self.n_queries, -1, dtype=np.int64)
        remap[used] = np.arange(used.size)
        ids, texts = [self.query_ids[int(q)] for q in used], self.query_texts
        return Document(
            query_ids=ids,
            query=remap[self.query[rows]],
            source_id=lazy["source_id"].take(self, rows),
            version=lazy["version"].take(self, rows),
            score=self.score[rows].copy(),
            grade=self.grade[rows].copy(),
            state=self.state[rows].copy(),
            original_grade=self.original_grade[rows].copy(),
            original_state=self.original_state[rows].copy(),
            note=lazy["note"].take(self, rows),
            reason=lazy["reason"].take(self, rows),
            frequency=self.frequency[used].copy(),
            importance=self.importance[used].copy(),
            conventions=self.conventions,
            judgment_version=self.judgment_version,
            name=self.name,
            run_tag=self.run_tag,
            query_texts={q: texts[q] for q in ids if q in texts},
            annotators=list(self.annotators),
            ratings=None if self.ratings is None else self.ratings[rows].copy(),
            unrateable_ratings=(None if self.unrateable_ratings is None
                                else self.unrateable_ratings[rows].copy()),
            unrateable_words=(None if self.unrateable_words is None
                              else self.unrateable_words[rows].copy()),
            _source_codes=None if self._source_codes is None else (
                self._source_codes[0][rows], self._source_codes[1]),
        )

    def query_weights(self, weighting: Weighting) -> FloatArray:
        """Each query's weight in a mean of per-query values under ``weighting``.

        ``equal`` weighs every query 1; ``frequency`` and ``importance`` take
        the query's declared frequency or importance, NaN where none was
        declared. A query whose weight is NaN or not above 0 has no weight: a
        weighted mean leaves it out (and counts it as such).

        Returns
        -------
        numpy.ndarray of float64
            One weight per query, in :attr:`query_ids` order (a new array).

        Examples
        --------
        >>> doc = Document.from_columns(query=["a", "b"], source_id=["x", "y"],
        ...                             frequency={"a": 3.0})
        >>> doc.query_weights(Weighting.EQUAL).tolist()
        [1.0, 1.0]
        >>> doc.query_weights(Weighting.FREQUENCY).tolist()
        [3.0, nan]
        """
        weighting = Weighting(weighting)
        if weighting is Weighting.EQUAL:
            return np.ones(self.n_queries)
        w = self.frequency if weighting is Weighting.FREQUENCY else self.importance
        return np.array(w, dtype=np.float64)

    def query_index(self, query_id: str) -> int:
        return self.query_ids.index(query_id)

    def query_text(self, q: int) -> str:
        """Query ``q``'s text, "" when no file gave one (its id is all)."""
        return self.query_texts.get(self.query_ids[q], "")

    # -- edits (the session, core.session, calls these) -----------------------------------
    def set_grade(
        self,
        index: int,
        grade: float | None,
        state: GradeState = GradeState.NUMBER,
        *,
        who: str,
        note: str = "",
        reason: str = "",
        origin: str = "app",
        seconds: float | None = None,
    ) -> AuditEntry:
        """Change the current grade of one candidate and log it.

        ``grade`` must be a finite number for ``state=NUMBER`` and None
        otherwise; ``reason`` is kept beside a grade that is not a number
        (an unrateable one's, or why one is unknown: an undo putting back
        an item declined). The original grade is untouched. The entry's
        from and to say a grade's reason as :meth:`said_grade` does
        (``unrateable: paywall``, ``unknown: declined by 2 annotators``:
        :func:`~core.model.grades.audit_grade` reads the grade alone).
        ``seconds``: the active time the judgment took, when timed.
        Returns the audit entry.
        """
        state = GradeState(state)
        if state is GradeState.NUMBER:
            if grade is None or not math.isfinite(grade):
                raise ValueError("a numeric grade must be a finite number")
        else:
            grade = None
        before = self.said_grade(index)  # (with its reason: kept in the log)
        self.grades_to_edit()[index] = np.nan if grade is None else float(grade)
        self.state[index] = state
        self.reason[index] = reason if state is not GradeState.NUMBER else ""
        entry = AuditEntry(
            who=who,
            when=timestamp(),
            query=self.query_ids[int(self.query[index])],
            source_id=self.source_text(index),
            before=before,
            after=self.said_grade(index),
            note=note,
            origin=origin,
            seconds=seconds,
        )
        self.audit.append(entry)
        return entry

    def set_conventions(self, conventions: Conventions, *, who: str, note: str = "",
                        origin: str = "app") -> list[AuditEntry]:
        """Replace the conventions and log it: an audit entry per field
        changed (:func:`~core.model.convention_log.convention_changes`, query
        and source ``—``). Returns the entries."""
        when = timestamp()
        entries = [AuditEntry.of_convention(who, when, before, after, note, origin)
                   for before, after in convention_changes(self.conventions, conventions)]
        self.audit.extend(entries)  # (before: an assignment cannot fail halfway)
        self.conventions = conventions
        return entries

    def grades_to_edit(self) -> npt.NDArray[np.float64]:
        """The current grades, to be changed in place (the only way to).

        A document made by :meth:`from_columns` shares one read-only array
        between ``grade`` and ``original_grade`` until this is first called,
        which gives ``grade`` a copy of its own; the originals stay as read.

        >>> doc = Document.from_columns(query=["q"], source_id=["a"], grade=[1.0])
        >>> doc.grades_to_edit()[0] = 3.0
        >>> doc.grade.tolist(), doc.original_grade.tolist()
        ([3.0], [1.0])
        """
        if np.may_share_memory(self.grade, self.original_grade):
            self.grade = self.grade.copy()
        return self.grade

    def said_grade(self, i: int) -> str:
        """Candidate ``i``'s grade as its audit entries say it: the number,
        or the state with its reason, if any (``unrateable: paywall``,
        ``unknown: declined by 2 annotators``), as the grid shows it.

        >>> doc = Document.from_columns(query=["q"] * 2, source_id=["a", "b"],
        ...                             grade=[1.0, None])
        >>> doc.set_grade(1, None, GradeState.UNRATEABLE, who="ana", reason="paywall").after
        'unrateable: paywall'
        >>> doc.set_grade(1, 2.0, who="ana").before, doc.said_grade(0)
        ('unrateable: paywall', '1')
        """
        state = int(self.state[i])
        said = grade_text(float(self.grade[i]), state)
        why = self.reason_text(i) if state != GradeState.NUMBER else ""
        return f"{said}: {why}" if why else said

    def reason_text(self, i: int) -> str:
        """Candidate ``i``'s reason (an unrateable grade's, or why an unknown
        one is unknown), not making the column for it while none is set
        (:meth:`core.model.lazy.Column.text`, as :meth:`note_text`)."""
        return str(vars(Document)["reason"].text(self, i))

    def unknown_reasons(self, rows: IntArray | BoolArray | None = None) -> dict[str, int]:
        """Of ``rows``' unknown grades (their indices, or a mask of them;
        every row's by default), those that carry a reason, by its kind
        (:func:`~core.model.grades.reason_kind`: ``declined``, ``rejected``,
        ``draft``; "" another): {} while no reason is set, a mask's rows
        then never listed (a run's 1.4M unknown rows, hopen15).

        >>> doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"),
        ...                             grade=[None, None, 1.0],
        ...                             reason=["declined by 2 annotators", "", ""])
        >>> doc.unknown_reasons(np.arange(3)), doc.unknown_reasons(np.array([True, True, False]))
        ({'declined': 1}, {'declined': 1})
        """
        if not vars(Document)["reason"].is_made(self):
            return {}
        if rows is None:
            rows = np.arange(len(self))
        elif rows.dtype == np.bool_:
            rows = np.flatnonzero(rows)
        held = rows[self.state[rows] == GradeState.UNKNOWN]
        out: dict[str, int] = {}
        for text in self.reason[held].tolist():
            if text:
                kind = reason_kind(str(text))
                out[kind] = out.get(kind, 0) + 1
        return out

    def reasoned_rows(self) -> IntArray:
        """The candidates whose grade is no number and carries a reason (an
        unrateable grade's, or why an unknown one is unknown), in row order;
        none while no reason is set.

        >>> doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"),
        ...                             grade=[None, None, 1.0],
        ...                             reason=["", "declined by 2 annotators", ""])
        >>> doc.reasoned_rows().tolist()
        [1]
        """
        if not vars(Document)["reason"].is_made(self):
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero((self.state != GradeState.NUMBER) & (self.reason != ""))

    def unknown_reasons_by_query(self) -> dict[int, dict[str, int]]:
        """:meth:`unknown_reasons` of each query that has any (its number ->
        kind -> how many), in one pass over the unknown grades that carry a
        reason: {} while no reason is set (a run's document, a TREC path).

        >>> doc = Document.from_columns(query=["a", "b", "b"], source_id=list("xyz"),
        ...                             grade=[None, None, None],
        ...                             reason=["", "declined by 2 annotators", "gone"])
        >>> doc.unknown_reasons_by_query()
        {1: {'declined': 1, '': 1}}
        """
        held = self.reasoned_rows()
        held = held[self.state[held] == GradeState.UNKNOWN]
        out: dict[int, dict[str, int]] = {}
        for q, text in zip(self.query[held].tolist(), self.reason[held].tolist(), strict=True):
            kinds = out.setdefault(int(q), {})
            kind = reason_kind(str(text))
            kinds[kind] = kinds.get(kind, 0) + 1
        return out

    def set_note(self, index: int, note: str) -> None:
        self.note[index] = note

    def note_text(self, i: int) -> str:
        """Candidate ``i``'s note, not making the note column for it while
        none is set (:meth:`core.model.lazy.Column.text`)."""
        return str(vars(Document)["note"].text(self, i))

    def version_text(self, i: int) -> str:
        """Candidate ``i``'s version, not making the version column for it
        when the file gave none (a TREC run: the grid's Version column made
        2,000,000 empty versions, ~8 ms at the launch's arrival)."""
        return str(vars(Document)["version"].text(self, i))

    def blank(self, column: str, rows: IntArray) -> bool:
        """Whether ``rows``' texts of ``column`` (``"note"``, ``"version"``)
        are all empty, the column not made for it while none is set."""
        if column not in ("note", "version"):
            raise ValueError(column)
        return bool(vars(Document)[column].blank(self, rows))

    def changed(self, rows: IntArray | None = None) -> npt.NDArray[np.bool_]:
        """Candidates whose current grade differs from the original (of
        ``rows`` only, when given: an edit's rows cost their number)."""
        grade, original = self.grade, self.original_grade
        state, first = self.state, self.original_state
        if rows is not None:
            grade, original, state, first = grade[rows], original[rows], state[rows], first[rows]
        same_grade = (grade == original) | (np.isnan(grade) & np.isnan(original))
        changed: npt.NDArray[np.bool_] = ~((state == first) & same_grade)
        return changed

    def has_changes(self) -> bool:
        """Whether some grade differs from its original: at once for a
        document never edited (its grades still share the originals' array,
        :meth:`grades_to_edit`), else one pass over the grades.

        >>> doc = Document.from_columns(query=["q"], source_id=["a"], grade=[1.0])
        >>> doc.has_changes()
        False
        >>> _ = doc.set_grade(0, 2.0, who="me")
        >>> doc.has_changes(), doc.changed(np.array([0])).tolist()
        (True, [True])
        """
        if np.may_share_memory(self.grade, self.original_grade) and np.array_equal(
                self.state, self.original_state):
            return False
        return bool(self.changed().any())


def has_weight(weights: FloatArray) -> npt.NDArray[np.bool_]:
    """Which of :meth:`Document.query_weights` count in a weighted mean: a
    weight that is NaN (none declared) or not above 0 leaves its query out.

    Examples
    --------
    >>> has_weight(np.array([1.0, np.nan, 0.0, 2.5])).tolist()
    [True, False, False, True]
    """
    mask: npt.NDArray[np.bool_] = ~np.isnan(weights) & (weights > 0)
    return mask

