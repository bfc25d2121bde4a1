"""Annotation tools' JSON exports as they write them, drawn as kinds of
their own (a Label Studio project's JSON export, an Argilla dataset's
records and a Doccano project's labels as JSON Lines): their nested
records, bookkeeping and records that are no judgments, the truth of each
judgment kept aside in a :class:`~tests.sheetgen_drawn.Drawn` whose
``text`` is the file as written. The tabular platform sheets (survey and
crowd platforms' CSV exports) are tests/platformgen.py's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from random import Random
from typing import Any

from hypothesis import strategies as st

from tests.sheetgen_drawn import PEOPLE, QUERIES, SCALES, Drawn


def _by(n: int) -> str:
    """``n`` annotators, as an unknown grade's reason counts them."""
    return f"{n} annotator" + ("s" if n != 1 else "")


#: What annotators write in a Label Studio comment box beside the choice.
COMMENTS = ["outdated page", "only the title matches", "paywalled", "spam?", "good answer"]


def _ls_result(rnd: Random, ann: str, w: int, label: str, comment: bool) -> list[dict[str, Any]]:
    """A Label Studio annotation's result: its choice, and with ``comment``
    the comment box's text beside it (a second control answered)."""
    return [{"value": {"choices": [label]}, "id": f"{ann}Qz{w}", "from_name": "relevance",
             "to_name": "text", "type": "choices", "origin": "manual"},
            *([{"value": {"text": [rnd.choice(COMMENTS)]}, "id": f"{ann}Cm{w}",
                "from_name": "comment", "to_name": "text", "type": "textarea",
                "origin": "manual"}] if comment else [])]


def _ls_predictions(rnd: Random, first: int, task: int, project: int,
                    n: int) -> list[dict[str, Any]]:
    """A Label Studio task's ``n`` predictions, one model's each: its choice,
    its score, its ``model_version`` (no judgment)."""
    said = SCALES["labels"][1]
    return [{"id": first + m, "model_version": f"ranker-v{m + 1}", "created_ago": "2 days",
             "score": round(rnd.uniform(0.2, 0.99), 4),
             "result": [{"value": {"choices": [said(rnd.randrange(3))]},
                         "from_name": "relevance", "to_name": "text", "type": "choices"}],
             "cluster": None, "neighbors": None, "mislabeling": 0.0, "task": task,
             "project": project} for m in range(n)]


#: How a Label Studio export writes a time.
_LS_TIME = "%Y-%m-%dT%H:%M:%S.%fZ"


@dataclass
class _LsProject:
    """A Label Studio project being drawn (:func:`label_studio_json`): its
    users and numbers, its habits, and the tasks, truth and counts so far."""

    rnd: Random
    users: list[int]
    project: int
    task_id: int
    ann_id: int
    #: predictions a task (at most), by model (1-3)
    models: int
    #: each task all the models' predictions
    every_model: bool
    #: a comment box beside the choice, filled now and then
    commented: bool
    #: tasks the team commented on (Label Studio's comments)
    discussed: bool
    #: who completed an annotation exported as the user (its id, e-mail,
    #: names, initials): each names the annotators
    expanded: bool
    #: annotators saving drafts now and then (0-2 a task, on tasks with
    #: annotations and on tasks with drafts alone)
    drafting: bool = False
    #: the drafts exported as their ids alone (the export's
    #: ``serialization_options.drafts.only_id``: ``"drafts": [701, 702]``)
    draft_ids: bool = False
    start: datetime = datetime(2024, 3, 1, 9, 0)
    tasks: list[dict[str, Any]] = field(default_factory=list)
    truth: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    #: why each item no one judged has no grade
    reasons: dict[tuple[str, str], str] = field(default_factory=dict)
    cancelled: int = 0
    predicted: int = 0
    #: tasks giving a row of their own fields alone (drafts alone, as ids)
    bare: int = 0
    draft_id: int = 700


@st.composite
def label_studio_json(draw: Any, queries: tuple[int, int] = (2, 3),
                      drafts_as_ids: bool = False, predictions: int = 0,
                      shuffled: bool = False) -> Drawn:
    """A Label Studio project's JSON export, as its Export button writes it:
    a task a record, its ``annotations`` a list of objects (who completed
    it, a user's number, or half the projects the user as an object: its
    ``id``, ``email``, names and ``initials``, each naming the annotators;
    its ``result``'s choices, half the projects with a
    comment box's text beside them on some annotations, two controls
    answered; ``was_cancelled`` and a result empty for one skipped, now
    and then a task every person skipped: an item of no grade),
    beside the task's own bookkeeping (``inner_id``, ``project``,
    ``updated_by``, counts, ``drafts`` and ``predictions``). Half the
    projects with drafts, as the Export button writes them (each its
    ``id``, ``user`` as its e-mail, ``created_username``, ``created_ago``,
    ``result``, ``lead_time``, ``was_postponed``, ``import_id``, times,
    ``task``, the ``annotation`` it edits or null; a third of them as
    their ids alone, ``serialization_options.drafts.only_id``): 0-2 a
    task, by people who annotated it (a draft of an edit) or did not, and
    now and then a task with drafts alone (an item of no grade, ``drafts
    only, by N annotators``; as ids, who drafted unknown: ``drafts only``,
    a row of the task's fields alone), its first person's annotation
    cancelled or not (``declined by 1 annotator; drafts only``); a draft
    is never a grade (they were read as who judged, the import refused;
    their ids beside an annotation's
    choice were refused as lists of different lengths), nor are the ids of
    a task's 1-2 commenters (``comment_authors``). A
    small project numbers its tasks, annotations and users from 1, so a
    task's ``id`` or ``inner_id`` is often one of its annotations' ids
    (half the projects drawn; the others' ids are large); half the
    projects with models' predictions (0-3 a task: each model's choice,
    its score, its ``model_version``; half the projects every model's on
    every task), no judgment: each prediction a row of its own, naming no
    one, whatever the counts beside it (one annotation beside two
    predictions was copied onto both prediction rows, refused as graded
    again; one prediction beside two annotations was merged into theirs).
    2-3 queries (``queries``: a project of one query's candidates, 3-6 of
    them, with ``(1, 1)``; every project drafting, its drafts as ids, with
    ``drafts_as_ids``; ``predictions`` models' on every task, 3 or more,
    with ``predictions``; the tasks in no order of their ids, as after a
    sort in the tool, with ``shuffled``) of 2-4 items, 2-3 people, the first annotating every task,
    the others after the third task now and then not (1-3 annotations a
    task), the labels of ``SCALES["labels"]``."""
    rnd = draw(st.randoms(use_true_random=False))
    n_q = draw(st.integers(*queries))
    per_q, n_people = draw(st.integers(2, 4) if n_q > 1 else st.integers(3, 6)), draw(
        st.integers(2, 3))
    p = ls_project(rnd, n_people)
    if drafts_as_ids:
        p.drafting = p.draft_ids = True
    if predictions:
        p.models, p.every_model = predictions, True
    for q in range(n_q):
        for d in range(per_q):
            ls_task(p, QUERIES[q], f"doc/{q}-{d}")
    truth = {k: sorted(v) for k, v in p.truth.items()}
    if shuffled:
        rnd.shuffle(p.tasks)
    return Drawn([], "long", truth, kinds=["labelstudio json"], unknown_reasons=p.reasons,
                 grade_headers=["annotations.result.relevance.value.choices" if p.commented
                                else "annotations.result.value.choices"],
                 text=json.dumps(p.tasks, indent=1), cancelled=p.cancelled,
                 predicted_rows=p.predicted, bare_rows=p.bare)


def ls_project(rnd: Random, n_people: int) -> _LsProject:
    """A project's users and numbers (a small one numbers its tasks,
    annotations and users from 1) and its habits, drawn."""
    small = rnd.random() < 0.5
    users = [rnd.randint(1, 4) + 4 * w if small else rnd.randint(100, 999) * 10 + w
             for w in range(n_people)]
    project = rnd.randint(1, 3) if small else rnd.randint(40, 90)
    task_id, ann_id = (1, 1) if small else (rnd.randint(10000, 20000), rnd.randint(50000, 60000))
    models = rnd.choice([0, 1, 2, 3])
    every_model, commented, discussed = (rnd.random() < 0.5 for _ in range(3))
    drafting = rnd.random() < 0.5
    return _LsProject(rnd, users, project, task_id, ann_id, models, every_model, commented,
                      discussed, expanded=rnd.random() < 0.5, drafting=drafting,
                      draft_ids=drafting and rnd.random() < 0.3)


def ls_task(p: _LsProject, query: str, doc: str) -> None:
    """One task of ``query``'s ``doc``: each user's annotation, the models'
    predictions and the task's bookkeeping, added to the project."""
    rnd = p.rnd
    # now and then a task every person cancelled: an item still, its
    # grades none (it gave no candidate at all)
    declined = len(p.tasks) >= 3 and rnd.random() < 0.15
    # now and then a task with drafts alone: saved, none submitted
    drafted = p.drafting and not declined and len(p.tasks) >= 3 and rnd.random() < 0.12
    # and now and then the first person's annotation of it cancelled too
    cancelled_too = drafted and rnd.random() < 0.4
    if declined or drafted:
        p.truth[(query, doc)] = []
    # the first person annotates every task (but one with drafts alone),
    # the others every task but now and then one after the third (1
    # annotation a task, up to 3)
    annotators = [(0, p.users[0])] if cancelled_too else [] if drafted else [
        (w, user) for w, user in enumerate(p.users)
        if w == 0 or declined or len(p.tasks) < 3 or rnd.random() < 0.6]
    annotations = [_ls_annotation(p, w, user, (query, doc), declined or cancelled_too)
                   for w, user in annotators]
    if declined:  # every person cancelled it: each of them declined it
        p.reasons[(query, doc)] = f"declined by {_by(len(p.users))}"
    drafts = _ls_drafts(p, annotations, drafted) if p.drafting and not declined else []
    predictions = _ls_predictions(rnd, 3000 + 5 * len(p.tasks), p.task_id, p.project,
                                  p.models if p.every_model else rnd.randint(0, p.models))
    p.predicted += len(predictions)
    if drafted:  # (as ids, they say nothing of who drafted)
        p.reasons[(query, doc)] = ("declined by 1 annotator; " if cancelled_too else "") + (
            "drafts only" if p.draft_ids else f"drafts only, by {_by(len(drafts))}")
    if drafted and p.draft_ids and not predictions and not cancelled_too:
        # a row of the task's fields alone
        p.bare += 1
    p.tasks.append({
        "id": p.task_id, "annotations": annotations, "file_upload": "tasks.json",
        "drafts": [d["id"] for d in drafts] if p.draft_ids else drafts,
        "predictions": predictions,
        "data": {"query": query, "doc": doc}, "meta": {},
        "created_at": p.start.strftime(_LS_TIME), "updated_at": p.start.strftime(_LS_TIME),
        "inner_id": len(p.tasks) + 1, "total_annotations": len(annotations),
        "cancelled_annotations": sum(a["was_cancelled"] for a in annotations),
        "total_predictions": len(predictions), "comment_count": 0,
        "unresolved_comment_count": 0,
        "last_comment_updated_at": None, "project": p.project,
        "updated_by": p.users[-1], "comment_authors": []})
    if p.discussed and rnd.random() < 0.5:  # its comments' time: no note, no grade
        # (two authors' ids beside an annotation's one choice were refused as
        # lists of different lengths)
        authors = p.users[:rnd.randint(1, 2)]
        p.tasks[-1].update({
            "comment_count": len(authors), "comment_authors": authors,
            "last_comment_updated_at": (p.start + timedelta(days=9, minutes=len(p.tasks)))
            .strftime(_LS_TIME)})
    p.task_id += 1


def _ls_drafts(p: _LsProject, annotations: list[dict[str, Any]],
               alone: bool) -> list[dict[str, Any]]:
    """The drafts of the task being drawn, as the Export button writes
    them (``drafts`` expanded: Label Studio's AnnotationDraftSerializer):
    0-2 (1-2 ``alone``, on a task no one annotated), each by a person of
    their own, annotating it or not (a draft of an edit names the
    annotation it edits); their choices no one's grades. Counted with the
    rows skipped."""
    rnd = p.rnd
    n = rnd.randint(1, 2) if alone else rnd.choice([0, 0, 1, 2])
    edits = {_ls_user_id(a["completed_by"]): a["id"] for a in annotations
             if not a["was_cancelled"]}
    out = []
    for w in sorted(rnd.sample(range(len(p.users)), min(n, len(p.users)))):
        user, email = p.users[w], PEOPLE["email"][w]
        at = (p.start + timedelta(days=w, hours=3, minutes=len(p.tasks))).strftime(_LS_TIME)
        out.append({
            "id": p.draft_id, "user": email, "created_username": f"{email}, {user}",
            "created_ago": f"{rnd.randint(2, 9)}\u00a0days",
            "result": _ls_result(rnd, f"{p.draft_id:x}", w, SCALES["labels"][1](
                rnd.randrange(3)), False),
            "lead_time": round(rnd.uniform(1.5, 40), 3), "was_postponed": rnd.random() < 0.2,
            "import_id": None, "created_at": at, "updated_at": at, "task": p.task_id,
            "annotation": edits.get(user)})
        p.draft_id += 1
    if not p.draft_ids:
        p.cancelled += len(out)  # (rows skipped; as ids, no rows)
    return out


def _ls_user_id(user: Any) -> int:
    """The id of who completed an annotation, a number or an object."""
    return int(user["id"]) if isinstance(user, dict) else int(user)


def _ls_annotation(p: _LsProject, w: int, user: int, item: tuple[str, str],
                   declined: bool) -> dict[str, Any]:
    """User ``w``'s annotation of the task being drawn: a choice, or
    cancelled (the first person's never, but on a task every person
    declined); its grade kept in the truth."""
    rnd, n_tasks = p.rnd, len(p.tasks)
    at = (p.start + timedelta(days=w, minutes=n_tasks)).strftime(_LS_TIME)
    skip = declined or (w > 0 and rnd.random() < 0.1)
    # every level given once (the labels say the scale by those held)
    grade = n_tasks if w == 0 and n_tasks < 3 else rnd.randrange(3)
    if skip:
        p.cancelled += 1
    else:
        p.truth.setdefault(item, []).append(float(grade))
    email, ann = PEOPLE["email"][w], p.ann_id
    p.ann_id += 1
    return {
        "id": ann, "completed_by": {
            "id": user, "email": email, "first_name": "", "last_name": "", "avatar": None,
            "initials": email[:2]} if p.expanded else user,
        "result": [] if skip else _ls_result(
            rnd, f"{ann:x}", w, SCALES["labels"][1](grade),
            p.commented and (not p.tasks or rnd.random() < 0.5)),
        "was_cancelled": skip, "ground_truth": False, "created_at": at,
        "updated_at": at, "draft_created_at": None,
        "lead_time": round(rnd.uniform(1.5, 40), 3), "prediction": {},
        "result_count": 0, "import_id": None, "last_action": None,
        "task": p.task_id, "project": p.project, "updated_by": user,
        "parent_prediction": None, "parent_annotation": None,
        "last_created_by": None}


@st.composite
def argilla_jsonl(draw: Any) -> Drawn:
    """An Argilla dataset's records as JSON Lines, as its export to the Hub
    flattens them: a record a line, its ``query`` and ``document`` fields,
    its ``status`` (``completed``, or ``pending`` with no response yet),
    the question's responses as lists side by side
    (``relevance.responses``, ``.users``, ``.status``), half the datasets
    with a model's suggestion (``relevance.suggestion``, its ``.score`` and
    ``.agent``): no judgment. 2-3 queries of 2-4 documents, 2-3 users
    (UUIDs), grades 0-3, every level given once. Now and then a response
    discarded (its value kept in the lists, its status ``discarded``: no
    judgment), and a record every user discarded (an item still, no grade:
    it gave no candidate); now and then a response saved as a draft (its
    status ``draft``: pending, no judgment; c765a32 and da46314 read drafts
    as grades). ``cancelled``: the responses discarded or drafts (rows
    skipped)."""
    rnd = draw(st.randoms(use_true_random=False))
    n_q, per_q, n_people = draw(st.integers(2, 3)), draw(st.integers(2, 4)), draw(
        st.integers(2, 3))
    users = [f"{rnd.getrandbits(32):08x}-{w:04x}-4b7e-a1c2-{rnd.getrandbits(48):012x}"
             for w in range(n_people)]  # (user ids: UUIDs)
    suggested = rnd.random() < 0.5
    lines, truth, pending, discarded = [], {}, 0, 0
    reasons: dict[tuple[str, str], str] = {}
    declines = rnd.random() < 0.5  # a dataset whose annotators discard now and then
    drafts = rnd.random() < 0.5  # ... and save a response as a draft, not submitted
    for q in range(n_q):
        for d in range(per_q):
            n = len(lines)
            who = users if n < 4 else [u for u in users if rnd.random() < 0.7]
            grades = [n if n < 4 and w == 0 else rnd.randrange(4) for w in range(len(who))]
            every = declines and n >= 4 and bool(who) and rnd.random() < 0.3
            status = ["discarded" if every or (declines and n >= 4 and rnd.random() < 0.15)
                      else "draft" if drafts and n >= 4 and rnd.random() < 0.15
                      else "submitted" for _ in who]
            discarded += status.count("discarded") + status.count("draft")
            record: dict[str, Any] = {
                "id": f"rec-{n:03d}", "status": "completed" if who else "pending",
                "_server_id": f"{rnd.getrandbits(32):08x}-5c1e-4f0a-9d3b-{n:012x}",
                "query": QUERIES[q], "document": f"doc-{q}-{d}",
                "relevance.responses": grades, "relevance.responses.users": who,
                "relevance.responses.status": status}
            if suggested:
                record.update({"relevance.suggestion": rnd.randrange(4),
                               "relevance.suggestion.score": round(rnd.uniform(0.2, 0.99), 3),
                               "relevance.suggestion.agent": "bm25-ranker"})
            lines.append(json.dumps(record))
            if who:
                truth[(QUERIES[q], f"doc-{q}-{d}")] = sorted(
                    float(g) for g, s in zip(grades, status, strict=True) if s == "submitted")
                if "submitted" not in status:  # each user's discarded or draft response
                    reasons[(QUERIES[q], f"doc-{q}-{d}")] = "; ".join(
                        f"{words}{_by(status.count(kind))}" for kind, words in (
                            ("discarded", "declined by "), ("draft", "drafts only, by "))
                        if kind in status)
            else:
                pending += 1
    return Drawn([], "long", truth, kinds=["argilla jsonl"], unknown_reasons=reasons,
                 grade_headers=["relevance.responses"], text="\n".join(lines) + "\n",
                 predicted_rows=pending, cancelled=discarded)


@st.composite
def doccano_jsonl(draw: Any) -> Drawn:
    """A Doccano project's text classification export (one annotator's
    JSON Lines): a record a document, its ``id``, the ``text`` shown, the
    task's own fields (``query``, ``doc_id``), its ``label`` a list of the
    one chosen (empty: not labelled yet) and the annotator's ``Comments``.
    2-3 queries of 2-4 documents, the labels Not / Partially relevant /
    Relevant, every level given once."""
    rnd = draw(st.randoms(use_true_random=False))
    n_q, per_q = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    labels = ["Not relevant", "Partially relevant", "Relevant"]
    lines, truth, unlabelled = [], {}, 0
    for q in range(n_q):
        for d in range(per_q):
            n = len(lines)
            grade = n if n < 3 else rnd.randrange(3)
            chosen = [] if n >= 3 and rnd.random() < 0.15 else [labels[grade]]
            lines.append(json.dumps({
                "id": 2000 + n, "text": f"{QUERIES[q].capitalize()}: the page's text, {d} ...",
                "query": QUERIES[q], "doc_id": f"doc-{q}-{d}", "label": chosen,
                "Comments": [] if rnd.random() < 0.7 else [rnd.choice(COMMENTS)]}))
            if chosen:
                truth[(QUERIES[q], f"doc-{q}-{d}")] = [float(grade)]
            else:
                unlabelled += 1
    return Drawn([], "long", truth, kinds=["doccano jsonl"], grade_headers=["label"],
                 text="\n".join(lines) + "\n", predicted_rows=unlabelled)


#: The labels of a Prodigy choice task's options: four levels, or three.
PRODIGY_LEVELS = {4: ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"],
                  3: ["Not relevant", "Relevant", "Highly relevant"]}
#: The rubric a binary classification task's answers are imported with:
#: rejected (not relevant) 0, accepted 1.
PRODIGY_BINARY_RUBRIC = "0=reject,1=accept"


@dataclass
class _ProdigyDataset:
    """A Prodigy dataset being drawn (:func:`prodigy_jsonl`): its name, its
    annotators' named sessions, its habits, and the lines, truth and
    counts so far."""

    rnd: Random
    name: str
    people: list[str]
    #: ``choice`` (a choice interface: options, ``accept`` the ids chosen)
    #: or ``binary`` (a classification interface: a ``label``, the answer
    #: accept / reject the grade)
    kind: str
    #: the options' texts (choice), and whether their ids are the texts
    #: (``textcat.manual``) or numbers (a custom recipe's)
    labels: list[str]
    text_ids: bool
    #: where the query and the document's id are: the task's own fields
    #: or its ``meta`` (shown in the card's corner)
    in_meta: bool
    #: ``_annotator_id`` written beside ``_session_id`` (Prodigy 1.11 on)
    annotator_ids: bool
    #: ``textcat.teach``'s model score and priority on each binary task
    teach: bool
    #: ``_is_binary`` written on each choice task (Prodigy 1.11 on)
    flagged: bool
    #: (when, line) of each answer
    lines: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    truth: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    #: the annotators who answered each task (a line each), judged or not
    answered: dict[tuple[str, str], int] = field(default_factory=dict)
    skipped: int = 0
    #: the task every annotator ignored or declined (-1: none)
    declined_at: int = -1
    #: the annotators at work together (their lines interleaved), or each
    #: on a day of their own (each annotator's lines in turn)
    together: bool = False
    #: ``few overlaps``: the annotators but the first missing most tasks
    #: (few judged twice); ``mostly ignored``: most tasks ignored by
    #: everyone (but the first task's first answer); "": neither
    sparse: str = ""


@st.composite
def prodigy_jsonl(draw: Any, people: tuple[int, int] = (2, 3),
                  annotator_ids: bool | None = None) -> Drawn:
    """A Prodigy dataset as ``prodigy db-out`` writes it: a line per answer
    (one per annotator per task), each the task as it was sent (its
    ``text``, the query and the document's id as its own fields or in its
    ``meta``), with Prodigy's ``_input_hash`` (the same on every line of a
    task: signed 32-bit numbers), ``_task_hash``, ``_view_id``, ``answer``,
    ``_timestamp`` (seconds since 1970) and the annotator's named session
    (``_session_id``, and from Prodigy 1.11 on ``_annotator_id``: the
    dataset's name and the session's, ``relevance-alice``). Two kinds of
    task: a choice (``choice``: the ``options`` with their ``id`` and
    ``text``, numbers or, as ``textcat.manual`` writes them, the labels
    themselves; ``accept`` the ids chosen; ``ignore`` a task skipped,
    nothing chosen; ``reject`` one declined, whatever was chosen), or a
    binary classification (``classification``: the task's ``label``, the
    answer accept or reject its grade, 1 or 0 by
    :data:`PRODIGY_BINARY_RUBRIC`, passed as a user would; ``ignore``
    skipped; half of them ``textcat.teach``'s, with the model's ``score``
    and ``priority``). Now and then an annotator missing a
    task (no line), and a task every annotator ignored or declined (an
    item still, no grade); a quarter of the datasets with few tasks judged
    twice (the annotators but the first missing most: ``few overlaps``),
    a quarter with most tasks ignored by everyone (``mostly ignored``).
    The lines in the order given, each annotator's in turn or interleaved.
    2-3 queries of 2-4 documents, ``people`` annotators (2-3; one: the
    file's, its lines naming a session or not). ``annotator_ids``: whether
    ``_annotator_id`` is written (None: drawn).
    ``cancelled``: the lines skipped (ignored or declined)."""
    rnd = draw(st.randoms(use_true_random=False))
    n_q, per_q, n_people = draw(st.integers(2, 3)), draw(st.integers(2, 4)), draw(
        st.integers(*people))
    name = draw(st.sampled_from(["relevance", "rel_judgments", "search-eval-2024"]))
    kind = draw(st.sampled_from(["binary", "choice"]))
    habits = [draw(st.booleans()) for _ in range(5)]
    p = _ProdigyDataset(
        rnd, name, [f"{name}-{who}" for who in ["alice", "bob", "chen"][:n_people]], kind,
        PRODIGY_LEVELS[draw(st.sampled_from([4, 3]))], *habits[:2],
        habits[2] if annotator_ids is None else annotator_ids,
        kind == "binary" and habits[3], habits[4])
    # now and then a task every annotator ignored or declined (not the first two)
    p.declined_at = draw(st.sampled_from([-1, *range(2, n_q * per_q)]))
    p.together = draw(st.booleans())
    p.sparse = draw(st.sampled_from(["", "", "few overlaps", "mostly ignored"]))
    for q in range(n_q):
        for d in range(per_q):
            _prodigy_task(p, q, d)
    lines = [line for _, line in sorted(p.lines, key=lambda x: x[0])]  # as saved
    return Drawn([], "long", {k: sorted(v) for k, v in p.truth.items()},
                 unknown_reasons={k: f"declined by {_by(p.answered[k])}"
                                  for k, v in p.truth.items() if not v},
                 kinds=[f"prodigy {kind}"],
                 flags=["--rubric", PRODIGY_BINARY_RUBRIC] if kind == "binary" else [],
                 grade_headers=["accept" if kind == "choice" else "answer"],
                 text="".join(json.dumps(line) + "\n" for line in lines),
                 cancelled=p.skipped)


def _signed32(rnd: Random, n: int) -> int:
    """Task ``n``'s hash as Prodigy writes it: a signed 32-bit number (the
    tasks' each their own)."""
    bits = (rnd.getrandbits(32) ^ (n + 1) * 2654435761) % 2**32
    return bits - 2**32 if bits >= 2**31 else bits


def _prodigy_task(p: _ProdigyDataset, q: int, d: int) -> None:
    """Document ``d`` of query ``q``: its task, each annotator's answer to
    it (a line each, but an annotator missing it now and then), their
    grades kept in the truth."""
    rnd, n = p.rnd, len(p.truth)
    query, doc = QUERIES[q], f"doc-{q}-{d}"
    item = (query, doc)
    p.truth[item] = []
    task: dict[str, Any] = {"text": f"{query.capitalize()}: the passage of {doc} ..."}
    where = {"query": query, "doc_id": doc}
    if p.teach:
        score = round(rnd.uniform(0.05, 0.95), 4)
        task.update({"label": "RELEVANT", "score": score, "priority": score, "spans": []})
        where = {**where, "score": score}
    elif p.kind == "binary":
        task["label"] = "RELEVANT"
    else:
        task["options"] = [{"id": t if p.text_ids else g, "text": t}
                           for g, t in enumerate(p.labels)]
        if p.text_ids:  # textcat.manual's, its labels exclusive
            task["config"] = {"choice_style": "single"}
    task.update({"meta": where} if p.in_meta else {**where, "meta": {"source": "bm25-pool"}})
    task.update({"_input_hash": _signed32(rnd, n), "_task_hash": _signed32(rnd, n + 99)})
    if p.kind == "choice" and p.flagged:
        task["_is_binary"] = False
    # a task every annotator ignored or declined: an item still, no grades
    declined = n == p.declined_at
    for w, who in enumerate(p.people):
        if w > 0 and not declined and rnd.random() < (0.8 if p.sparse == "few overlaps"
                                                      else 0.1):
            continue  # not annotated by this one (no line)
        line = _prodigy_answer(p, dict(task), item, declined, w)
        p.answered[item] = p.answered.get(item, 0) + 1
        line.update({"_view_id": "choice" if p.kind == "choice" else "classification",
                     "_timestamp": 1709800000 + (13 if p.together else 86400) * w
                     + 60 * n + rnd.randint(0, 12)})
        if p.annotator_ids:
            line["_annotator_id"] = who
        line["_session_id"] = who
        p.lines.append((line["_timestamp"], line))


def _prodigy_answer(p: _ProdigyDataset, line: dict[str, Any], item: tuple[str, str],
                    declined: bool, w: int) -> dict[str, Any]:
    """Annotator ``w``'s answer to the task ``line`` (a copy): the choice
    and ``accept``, or the binary answer; ignored or declined now and then
    (the first annotator's never, but all of them on a task ``declined``),
    no grade; a grade kept in the truth."""
    rnd = p.rnd
    first = (w, item) == (0, next(iter(p.truth)))  # (something judged)
    skip = declined or (w > 0 and rnd.random() < 0.1) or (
        p.sparse == "mostly ignored" and not first and rnd.random() < 0.8)
    grade = rnd.randrange(2 if p.kind == "binary" else len(p.labels))
    if p.kind == "binary":
        answer = "ignore" if skip else ["reject", "accept"][grade]
        line["answer"] = answer
    else:
        answer = rnd.choice(["ignore", "reject"]) if skip else "accept"
        chosen = [p.labels[grade] if p.text_ids else grade]
        # a task declined after choosing keeps the choice; one ignored, none
        line["accept"] = chosen if answer == "accept" or (
            answer == "reject" and rnd.random() < 0.5) else []
        line["answer"] = answer
    if skip:
        p.skipped += 1
    else:
        p.truth[item].append(float(grade))
    return line
