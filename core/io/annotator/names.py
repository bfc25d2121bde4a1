"""What a header names: a field (query, source id, grade ...), one annotator's
grade column, or nothing.

Headers are read as people and tools write them: ``Topic``, ``Doc URL``,
``Input.doc_id`` and ``Answer.relevance`` (Mechanical Turk), ``Query Text``
and ``Doc ID`` (Quepid), ``Relevance (0-3)``, ``WorkerId``. Each field's
names are ranked (:data:`FIELD_NAMES`): when two columns could hold a field,
the better name wins (``Query ID`` over ``Query``, ``doc`` over ``id``).
A header that is a grade or annotator word with a name (``grade_alice``,
``Bob rating``, ``Annotator A``, ``Rater 2``) is one annotator's grade column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.io.annotator.write import ANNOTATOR_PREFIX, written_annotators
from core.io.headers import ALIASES, normalize
from core.io.safety import column_letters

__all__ = ["FIELD_NAMES", "Named", "bookkeeping_header", "column_annotator", "combined_grade",
           "drafts_header", "gold_header", "judgment_key_header", "model_answer",
           "models_header", "name_field", "names_grade_itself", "predicted_header",
           "quantity_header", "ranking_field", "record_key_header", "wide_annotator"]


def _ranked(field: str, first: tuple[str, ...], then: tuple[str, ...] = ()) -> tuple[str, ...]:
    """``first``, then the shared aliases of ``field`` not among them, then ``then``."""
    shared = ALIASES.get(field, ())
    return tuple(dict.fromkeys((*first, *shared, *then)))


#: Each field's header names (after :func:`~core.io.headers.normalize`), best first.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "query": _ranked("query", ("query_id", "qid", "topic_id", "topic_number", "topic", "query"),
                     ("question_id", "query_string", "search_query", "search_term", "keyword",
                      "keywords")),
    # a bare ``id`` last: a record's id (Label Studio's, Appen's ``_id``)
    # beside a ``product_id`` is not the source
    "source_id": (*(n for n in _ranked(
        "source_id", ("doc_id", "docid", "docno", "document_id", "corpus_id", "source_id", "doc",
                      "document", "source", "passage_id", "pid", "passage", "doc_url",
                      "document_url"),
        ("link", "result_id", "item_id", "product_id")) if n != "id"), "id"),
    "grade": _ranked("grade", (), ("relevance_judgment", "relevance_judgement", "answer",
                                   "assessment", "judgement_label", "choices")),
    "annotator": _ranked("annotator", (), (
        "annotator_name", "annotator_email", "rater_id", "rater_name", "assessor_id",
        "judge_id", "reviewer_id", "user_id", "worker", "workerid", "worker_id",
        "labeler", "labeller", "labeler_id", "grader", "completed_by", "annotated_by")),
    "score": _ranked("score", (), ("model_score", "retrieval_score", "bm25", "logit",
                                   "cosine", "cosine_similarity")),
    "rank": _ranked("rank", (), ("ranking", "position_in_results", "rnk")),
    "version": _ranked("version", ()),
    # (an LLM judge's rationale fills every line, as a passage's text does,
    # where a reviewer's comment box is read from its values: its name tells)
    "note": _ranked("note", (), ("remark", "remarks", "feedback", "annotator_notes",
                                 "rationale", "explanation", "reasoning", "justification")),
    "reason": _ranked("reason", (), ("why_unrateable",)),
    "status": ("assignmentstatus", "assignment_status", "status"),
}
#: Words of a header that name a field when the whole header does not
#: (``Doc URL``, ``Topic no``): a weaker match than any of the names above.
_TOKENS: dict[str, frozenset[str]] = {
    "query": frozenset({"query", "qid", "topic", "question"}),
    "source_id": frozenset({"doc", "docid", "docno", "document", "url", "passage", "pid",
                            "link"}),
    "score": frozenset({"score", "scores", "bm25", "logit", "logits", "similarity"}),
    "rank": frozenset({"rank", "ranking", "position", "rnk", "pos"}),
    "version": frozenset({"version"}),
    "note": frozenset({"note", "notes", "comment", "comments", "remark", "remarks"}),
    "reason": frozenset({"reason"}),
}
_TOKEN_RANK = 1000
#: A header's last word that makes it name no field, whatever words come
#: before: a count (Label Studio's ``comment_count``: no note) or a moment
#: (its ``last_comment_updated_at``, a time stamp: read as the note, each
#: commented task's note was the date, once per annotator), or the people
#: who wrote something (its ``comment_authors``, user ids: read as the
#: note, each commented task's note was ``(no name): 1; (no name): 1``).
_HEAD_OF_NO_FIELD = frozenset({"count", "at", "date", "datetime", "timestamp", "author",
                               "authors"})
#: Words beside ``score`` or ``rank`` that make it something else than a
#: ranker's: a worker's trust or quality, an annotator's confidence, a count.
#: A model's pre-annotation given with the task (Label Studio's
#: ``predictions``, Argilla's ``suggestion``): its answer is no annotator's
#: grade, its score the model's confidence in it, no ranking.
_PREDICTED = frozenset({"prediction", "predictions", "suggestion", "suggestions"})
_NOT_RANKING = frozenset({"quality", "trust", "confidence", "agreement", "approval", "worker",
                          "annotator", "rater", "count", "num", "number", "n", "gold",
                          "accuracy", "reputation", "credit", "skill", *_PREDICTED})
#: Words that make a header naming a field name something else (a
#: prediction's version is its model's, no candidate's).
_ASIDE = {"score": _NOT_RANKING, "rank": _NOT_RANKING,
          **dict.fromkeys(("grade", "annotator", "version", "note", "reason", "status"),
                          _PREDICTED)}
#: A lower case letter or digit followed by a capital (``bm25Score``): a
#: camelCase word boundary.
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_FIELD_WORDS = frozenset().union(*_TOKENS.values())
_GRADE_WORDS = FIELD_NAMES["grade"]
#: A form's checkbox question (``Relevant? (Ana)``): a grade's word only
#: before a name (``Not relevant`` is a label, not Not's grades).
_CHECKBOX_WORD = "relevant"
_ANNOTATOR_WORDS = ("annotator", "rater", "assessor", "judge", "reviewer", "worker",
                    "labeler", "labeller", "grader")
#: Columns of a combined grade, never one annotator's.
_NOT_ANNOTATORS = frozenset({"consensus", "final", "agreed", "gold", "average", "mean",
                             "median", "majority", "adjudicated", "overall", "avg", "total",
                             "score", "scale", "level"})
#: Words that end a header naming something about grades, not whose they are
#: (Argilla's ``relevance.responses.users`` and ``.status``).
_NOT_NAMES = frozenset({"users", "user", "status", "id", "ids", "time", "at", "count"})
#: Tool prefixes (Mechanical Turk's ``Input.`` and ``Answer.``).
_PREFIXES = r"^\s*(?:input|answer|answers|output|data|meta)\s*"
_PREFIX = re.compile(_PREFIXES + r"[.:]\s*", re.I)
_BARE_PREFIX = re.compile(_PREFIXES + "$", re.I)
#: A bracketed scale in a header: ``Relevance (0-3)``, ``Grade [1 to 5]``.
_SCALE_NOTE = re.compile(r"\s*[(\[][^()\[\]]*\d[^()\[\]]*[)\]]\s*")
_INDEX = {f: {n: i for i, n in enumerate(names)} for f, names in FIELD_NAMES.items()}


class Named:
    """What one header names: ``field`` with its ``rank`` (lower is
    better), or an annotator's grade column (``annotator``), or nothing."""

    __slots__ = ("annotator", "field", "rank")

    def __init__(self, field: str | None = None, rank: int = 0,
                 annotator: str | None = None) -> None:
        self.field = field
        self.rank = rank
        self.annotator = annotator

    def __bool__(self) -> bool:
        return self.field is not None or self.annotator is not None

    @property
    def by_word(self) -> bool:
        """Named by one word of the header (``PROLIFIC_PID``'s ``pid``), not by the whole."""
        return self.rank >= _TOKEN_RANK


def _plain(header: str) -> str:
    """The header without a tool prefix or a bracketed scale, normalised."""
    return normalize(_SCALE_NOTE.sub(" ", _PREFIX.sub("", header)))


def wide_annotator(header: str) -> str | None:
    """The annotator whose grades the column holds, or None.

    ``grade_alice`` / ``alice grade`` / ``rating (bob)`` / ``Relevant? (Ana)``
    give the name;
    ``Annotator A`` / ``Rater 2`` give the whole header.

    >>> wide_annotator("Grade (Chen)"), wide_annotator("Annotator B"), wide_annotator("Topic")
    ('Chen', 'Annotator B', None)
    """
    key = normalize(re.sub(r"[()\[\]:?]", " ", _SCALE_NOTE.sub(" ", _PREFIX.sub("", header))))
    for alias in (*_GRADE_WORDS, _CHECKBOX_WORD):
        for after, pattern in ((True, rf"^{alias}_(.+)$"), (False, rf"^(.+)_{alias}$"))[
                :1 if alias == _CHECKBOX_WORD else 2]:
            m = re.match(pattern, key)
            if m and m.group(1) not in _GRADE_WORDS and not _combined(m.group(1)) \
                    and _short(m.group(1)) and m.group(1).split("_")[-1] not in _NOT_NAMES:
                # the name after the grade word (grade_R_01's 'r' is not grade's)
                at = header.lower().find(alias) if after else -1
                start = header.lower().find(m.group(1).split("_")[0],
                                            at + len(alias) if at >= 0 else 0)
                raw = header[start:start + len(m.group(1))] if start >= 0 else m.group(1)
                return raw.strip(" _-:()[]") or m.group(1)
    for word in _ANNOTATOR_WORDS:
        m = re.match(rf"^{word}s?_?(.+)$", key)
        if m and m.group(1) not in ("id", "name", "email", "s") and not _combined(m.group(1)) \
                and not set(m.group(1).split("_")) & (_FIELD_WORDS | _NOT_RANKING) \
                and _short(m.group(1)):
            return " ".join(header.split())
    return None


def column_annotator(header: Sequence[str], col: int) -> str:
    """The annotator whose grades column ``col`` holds, as every path names
    them (the guess, ``--annotators``, the wizard's ticked columns): in a
    worksheet written here, the name after ``grade_``; a header naming one
    (``grade_ana``, ``Rater 2``), that name; else the header without the
    writer's prefix, which the written file adds again (``grade_ben_at_x``
    is ``ben_at_x``'s, never written ``grade_grade_ben_at_x``), or the
    column's letter.

    >>> column_annotator(["query", "grade_ana", "grade_ben_at_lab_example", "R2", ""], 1)
    'ana'
    >>> [column_annotator(["query", "grade_ana", "grade_ben_at_lab_example", "R2", ""], c)
    ...  for c in (2, 3, 4)]
    ['ben_at_lab_example', 'R2', 'E']
    """
    written = dict(written_annotators(header))
    if col in written:
        return written[col]
    text = str(header[col]).strip() if col < len(header) else ""
    if not text:
        return column_letters(col + 1)
    named = wide_annotator(text)
    if named is not None:
        return named
    bare = text[len(ANNOTATOR_PREFIX):] if text.startswith(ANNOTATOR_PREFIX) else ""
    return bare.strip() or text


def _short(name: str) -> bool:
    """A name is a few words (a title such as ``Relevance judgments - batch 7
    (sent by ...)`` names no annotator)."""
    return len(name.split("_")) <= 3 and len(name) <= 40


def _combined(name: str) -> bool:
    return bool(set(name.split("_")) & _NOT_ANNOTATORS)


def combined_grade(header: str) -> bool:
    """Whether a header names a grade combined from several (``Final grade``,
    ``Consensus``, ``Average``), or a model's answer given with the task
    (:func:`predicted_header`): never one annotator's column. A platform's
    count of a participant's work (``Total approvals``) is none.

    >>> combined_grade("Final grade"), combined_grade("Total approvals")
    (True, False)
    """
    if set(_words(header)) & _PREDICTED:  # (predictions.score: no final score)
        return predicted_header(header)
    return _combined(_plain(header)) and not bookkeeping_header(header)


def gold_header(header: str) -> bool:
    """Whether a header names a gold answer (``Input.gold``, ``gold_label``):
    the known answer of a task, not a grade combined from the annotators'.

    >>> gold_header("Input.gold"), gold_header("Final grade")
    (True, False)
    """
    return "gold" in _plain(header).split("_")


#: Words of a header naming a platform's bookkeeping of each participant's
#: work (Prolific's ``Total approvals``, ``Total rejections``; with a rate,
#: ``Approval rate``, Mechanical Turk's ``LifetimeApprovalRate``): no
#: judgment. (``approved`` alone is a row's status: ``platform.find_flags``.)
_BOOKKEEPING = frozenset({"approvals", "rejections", "submissions"})
_RATED = frozenset({"approval", "rejection", "submission"})


def bookkeeping_header(header: str) -> bool:
    """Whether ``header`` names a platform's bookkeeping of a participant
    (their approvals, rejections, submissions), one value per annotator.

    >>> bookkeeping_header("Total approvals"), bookkeeping_header("Approval rate")
    (True, True)
    """
    words = set(_words(header))
    return bool(words & _BOOKKEEPING or (words & _RATED and "rate" in words)) \
        and name_field(header).field is None


def name_field(header: str) -> Named:
    """What ``header`` names (a :class:`Named`, false when nothing): a
    model's prediction names no grade (Label Studio's
    ``predictions.result.value.choices``), nor its score a ranking
    (``predictions.score``: :func:`predicted_header`).

    >>> name_field("annotations.result.value.choices").field, name_field(
    ...     "predictions.result.value.choices").field, name_field("predictions.score").field
    ('grade', None, None)
    >>> name_field("relevance.suggestion.agent").annotator is None
    True
    """
    if drafts_header(header):  # (a draft's user, its choice: no one's judgment yet)
        return Named()
    named = _named(header)
    if named.field in _ASIDE and set(_words(header)) & _ASIDE[named.field]:
        return Named()
    if named.annotator is not None and set(_words(header)) & _PREDICTED:
        # a model's suggestion is no one's grades (Argilla's
        # relevance.suggestion.agent was annotator 'suggestion.agent')
        return Named()
    return named


def predicted_header(header: str) -> bool:
    """Whether ``header`` names a model's answer given with the task (Label
    Studio's ``predictions.result.value.choices``, Argilla's
    ``relevance.suggestion``): a pre-annotation, no annotator's grade.

    >>> predicted_header("predictions.result.value.choices"), predicted_header(
    ...     "relevance.suggestion"), predicted_header("predictions.score")
    (True, True, False)
    """
    words = _words(header)
    return bool(set(words) & _PREDICTED) and (words[-1] in _PREDICTED
                                               or _named(header).field == "grade")


def model_answer(group: str, header: str) -> bool:
    """Whether ``header``, a column of the fields of a model's work
    ``group`` (:attr:`~core.io.annotator.model.Table.models`), is the
    model's answer: the group's own value (Argilla's flat
    ``relevance.suggestion``, or its nested ``suggestions.relevance.value``)
    or its field naming a grade (Label Studio's
    ``predictions.result.value.choices``), whatever the group is named.

    >>> model_answer("predictions", "predictions.result.value.choices"), model_answer(
    ...     "q.suggestion", "q.suggestion"), model_answer("s.q", "s.q.value"), model_answer(
    ...     "predictions", "predictions.score")
    (True, True, True, False)
    """
    rest = header[len(group) + 1:]
    return header == group or rest == "value" or name_field(rest).field == "grade"


def models_header(header: str) -> bool:
    """Whether ``header`` names a field of a model's prediction given with
    the task (any of Label Studio's ``predictions``: its ``task``, its
    ``score``; Argilla's ``suggestion``): the model's, no annotator's.

    >>> models_header("predictions.task"), models_header("annotations.task")
    (True, False)
    """
    return bool(set(_words(header)) & _PREDICTED)


#: The list of a record's drafts (Label Studio's task's ``drafts``: each
#: object one annotator's work saved and not submitted, its ``user``, its
#: ``result``), the tool's own word for their status, as Argilla's response
#: status ``draft`` is (:mod:`~core.io.annotator.platform`).
DRAFTS = "drafts"


def drafts_header(header: str) -> bool:
    """Whether ``header`` is a field of a record's drafts (``drafts.user``,
    ``drafts.result.value.choices``): work saved and not submitted, no
    judgment yet, never a role's column.

    >>> drafts_header("drafts.result.value.choices"), drafts_header("drafts"), drafts_header(
    ...     "annotations.draft_created_at")
    (True, False, False)
    """
    head, dot, rest = header.partition(".")
    return bool(dot and rest) and head == DRAFTS


def _named(header: str) -> Named:
    """What ``header`` names, by its words alone (:func:`name_field`)."""
    if not header.strip():
        return Named()
    # A tool's dotted path (``annotations.completed_by``) ends with the name.
    last = header.rsplit(".", 1)[-1] if "." in header.strip(".") else header
    for key in dict.fromkeys((normalize(header), _plain(header), normalize(last))):
        for f, index in _INDEX.items():
            if key in index:
                return Named(f, index[key])
    who = wide_annotator(header)
    if who is not None:
        return Named(annotator=who)
    # The last word that names a field is the header's head (``passage
    # version`` is a version, ``Doc URL`` a source).
    tokens = _words(header)
    if tokens and tokens[-1] in _HEAD_OF_NO_FIELD:
        return Named()
    for token in reversed(tokens):
        for f, words in _TOKENS.items():
            if token in words:
                if f in ("score", "rank") and set(tokens) & _NOT_RANKING:
                    return Named()
                return Named(f, _TOKEN_RANK)
    return Named()


def names_grade_itself(header: str) -> bool:
    """Whether ``header`` names the grade by more than a tool's prefix
    (``Answer.rel``, ``relevance``; not Mechanical Turk's bare ``Answer``,
    which every answer of a HIT is under).

    >>> names_grade_itself("Answer.rel"), names_grade_itself("Answer")
    (True, False)
    """
    return not _BARE_PREFIX.match(header) and name_field(header).field == "grade"


def _words(header: str) -> list[str]:
    """The header's words: camelCase, separators, dots and brackets split."""
    spaced = _CAMEL.sub("_", _PREFIX.sub("", header))
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def ranking_field(header: str) -> str | None:
    """``"score"`` or ``"rank"`` when ``header`` names a ranking in any
    writing (``score``, ``bm25_score``, ``retrieval.score``, ``rank (run
    A)``, ``position_in_serp``, ``bm25Score``), else None: the only way a
    column becomes the ranking without the user declaring it.

    >>> ranking_field("rank (run A)"), ranking_field("bm25Score"), ranking_field("Price")
    ('rank', 'score', None)
    """
    named = name_field(header)
    return named.field if named.field in ("score", "rank") else None


#: Words of a header naming a record's key or a counter of records (a Label
#: Studio task's ``id``, ``inner_id``, ``annotations.task``; an Appen
#: ``_unit_id``; a ``row`` number).
_RECORD_KEY = frozenset({"id", "ids", "uid", "uuid", "key", "task", "record", "row", "seq",
                         "serial"})


def record_key_header(header: str) -> bool:
    """Whether ``header`` names a record's key or a counter (``inner_id``,
    ``annotations.task``, ``_unit_id``), not a position. Only a hint's
    word: in one query a column counting its candidates 1..n is a position
    or such a counter alike, and the header says which the import offers
    (``--map rank=`` for a position), never a role.

    >>> record_key_header("inner_id"), record_key_header("annotations.task")
    (True, True)
    >>> record_key_header("value"), record_key_header("#"), record_key_header("task_rank")
    (False, False, False)
    """
    return bool(set(_words(header)) & _RECORD_KEY) and ranking_field(header) is None


#: Words of a header naming a judgment's own record (a platform's
#: ``annotation_id``, an MTurk ``AssignmentId``), not the item judged.
_JUDGMENT_RECORD = frozenset({"annotation", "annotations", "judgment", "judgement",
                              "assignment", "submission", "response", "completion"})


def judgment_key_header(header: str) -> bool:
    """Whether ``header`` names a judgment's record key: one per item where
    each item is judged once, as an id of the item is, and no run's name
    for the items (:func:`~core.io.annotator.roles.left_out` offers no
    flag for it).

    >>> judgment_key_header("annotation_id"), judgment_key_header("AssignmentId")
    (True, True)
    >>> judgment_key_header("doc_id"), judgment_key_header("SKU")
    (False, False)
    """
    words = set(_words(header))
    return bool(words & _RECORD_KEY) and bool(words & _JUDGMENT_RECORD)


#: Words of a header naming a quantity that is no grade, whatever its
#: values (a count of 0-4, a duration of 3 seconds, a price of 2).
_QUANTITY = frozenset({
    "count", "counts", "num", "number", "price", "cost", "reward", "amount", "duration",
    "seconds", "secs", "sec", "minutes", "ms", "time", "id", "ids", "index", "row", "quantity",
    "qty", "clicks", "views", "age", "year", "trust", "confidence", "hits", "total", "page",
    "length", "size", "attempt", "attempts", "batch", "seq", "lead", "votes", "max", "min",
    "stock", "inventory", "units", "sold", "orders", "reviews", "likes", "shares", "downloads",
    "visits", "sessions", "impressions", "dwell", "weight", "height", "width", "distance",
    "hash"})


def quantity_header(header: str) -> bool:
    """Whether ``header`` names a quantity, not a grade
    (``NumberOfSimilarHITs``, ``_unit_id``, ``Price``, ``WorkTimeInSeconds``):
    such a column is never taken for grades from its values alone.

    >>> quantity_header("NumberOfSimilarHITs"), quantity_header("Relevance (0-3)")
    (True, False)
    """
    return bool(set(_words(header)) & _QUANTITY) and name_field(header).field not in (
        "grade", "score", "rank")
