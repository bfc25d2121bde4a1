"""Survey and crowd platforms' exports as they write them, drawn as kinds
of their own (Qualtrics, through Prolific or not; a Mechanical Turk batch,
its answer a radio button a column per choice or not; a Label Studio CSV
export; Appen, Google Forms, Toloka): their header rows, bookkeeping
columns and rows that are no judgments, the truth of each judgment kept
aside in a :class:`~tests.sheetgen_drawn.Drawn`, written by
:func:`~tests.sheetgen.write_sheet`. Annotation tools' JSON exports
(Label Studio's, Argilla's, Doccano's, Prodigy's) are drawn by
tests/platformgen_json.py.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from random import Random
from typing import Any

from hypothesis import strategies as st

from tests.data.qualtrics_meta import QUALTRICS_META
from tests.sheetgen_drawn import PEOPLE, QUERIES, SCALES, Drawn

#: Survey and crowd platforms' exports drawn as kinds of their own
#: (:func:`platform_sheets`), with their header rows, metadata columns and
#: rows that are no judgments, as tests/data/annotators holds them
#: (qualtrics_export.csv, mturk_batch_results.csv).
PLATFORMS = ["qualtrics", "prolific", "mturk", "labelstudio", "appen", "google forms",
             "toloka"]
#: Qualtrics' four levels, as its export writes the answers.
SURVEY_LABELS = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]
_MTURK_HEADER = ["HITId", "HITTypeId", "Title", "Reward", "CreationTime", "MaxAssignments",
                 "AssignmentDurationInSeconds", "AutoApprovalDelayInSeconds",
                 "LifetimeInSeconds", "AssignmentId", "WorkerId", "AssignmentStatus",
                 "AcceptTime", "SubmitTime", "WorkTimeInSeconds", "Input.query", "Input.doc_id",
                 "Input.url", "Answer.relevance", "Approve", "Reject"]
#: A HIT's optional comments box (half the batches), left blank on every
#: assignment: empty, as any empty column (beside a rejected assignment it
#: was "text only on rows that are no judgments (: skipped)").
MTURK_COMMENTS = "Answer.comments"


@st.composite
def platform_sheets(draw: Any, platform: str | None = None) -> Drawn:
    """A survey's or a crowd platform's export (``platform``, else one of
    :data:`PLATFORMS` drawn): Qualtrics' three header rows (the question
    ids, the questions' texts naming each item's query and page, the
    import ids), its metadata columns and preview responses, a timing
    question half the time (its seconds whole half of those: ``14.000``),
    with Prolific's participant, study and session ids, a timing question
    and an attention check (``prolific``); a Mechanical Turk batch's
    results, one row per assignment (``mturk``; half of them answered with a
    radio button exported a column per choice, ``mturk radio``, which draws
    only those); or a Label Studio CSV
    export, one row per annotation (``labelstudio``). 2-3 queries of 2-4
    items, 2-4 people."""
    rnd = draw(st.randoms(use_true_random=False))
    platform = platform or draw(st.sampled_from(PLATFORMS))
    n_q, per_q, n_people = draw(st.integers(2, 3)), draw(st.integers(2, 4)), draw(
        st.integers(2, 4))
    items = [(q, d) for q in range(n_q) for d in range(per_q)]
    grades = {(it, who): rnd.randrange(4) for it in items for who in range(n_people)}
    for level, it in enumerate(items[:4]):  # every level given once (the labels
        grades[(it, 0)] = level  # say the scale only by those the sheet holds)
    if platform in ("mturk", "mturk radio"):
        return _mturk(rnd, items, n_people, grades, radio=platform == "mturk radio")
    if platform == "labelstudio":
        return _label_studio(rnd, items, n_people, grades)
    if platform == "appen":
        return _appen(rnd, items, n_people, grades)
    if platform == "google forms":
        return _google_forms(rnd, items, n_people, grades)
    if platform == "toloka":
        return _toloka(rnd, items, n_people, grades)
    return _qualtrics(rnd, items, n_people, grades, platform == "prolific")


def _qualtrics(rnd: Random, items: list[tuple[int, int]], n_people: int,
               grades: dict[tuple[tuple[int, int], int], int], prolific: bool) -> Drawn:
    """A Qualtrics export (see :func:`platform_sheets`): a preview response
    or two among the respondents', never judgments."""
    url = {it: f"https://site{it[0]}.example/p/{QUERIES[it[0]].replace(' ', '-')}-{it[1] + 1}"
           for it in items}
    codes = [c for c, _, _ in QUALTRICS_META] + [f"Q1_{i + 1}" for i in range(len(items))]
    texts = [t for _, t, _ in QUALTRICS_META] + [
        f'How relevant is this page to the search "{QUERIES[q]}"? - {url[(q, d)]}'
        for q, d in items]
    ids = [i for _, _, i in QUALTRICS_META] + [
        {"ImportId": f"QID1_{i + 1}"} for i in range(len(items))]
    codes, texts, ids = ([*codes, "Q2"], [*texts, "Anything else you would like to tell us?"],
                         [*ids, {"ImportId": "QID2_TEXT"}])
    timed = prolific or rnd.random() < 0.5  # a timing question on the page
    whole = rnd.random() < 0.5  # its seconds all whole (1.000, 12.000), as real exports hold
    if timed:
        codes += [f"Q3_{t}" for t in _TIMING]
        texts += [f"Timing - {t}" for t in _TIMING]
        ids += [{"ImportId": f"QID3_{t.upper().replace(' ', '_')}"} for t in _TIMING]
    if prolific:
        codes += ["Q4", "PROLIFIC_PID", "STUDY_ID", "SESSION_ID"]
        texts += ["Attention check: choose Somewhat relevant", "PROLIFIC_PID", "STUDY_ID",
                  "SESSION_ID"]
        ids += [{"ImportId": "QID4"}, {"ImportId": "PROLIFIC_PID"}, {"ImportId": "STUDY_ID"},
                {"ImportId": "SESSION_ID"}]
        codes += BOOKKEEPING  # Prolific's own export joined on (one value per participant)
        texts += BOOKKEEPING
        ids += [{"ImportId": b} for b in BOOKKEEPING]
    # A study's arm, set per participant (embedded data): a few values, each
    # shared by several people; it names no one (it once named the people
    # "control" and "treatment", their grades merged).
    grouped = rnd.random() < 0.5
    if grouped:
        codes, texts, ids = ([*codes, "participant_group"], [*texts, "participant_group"],
                             [*ids, {"ImportId": "participant_group"}])
    rows: list[list[Any]] = [codes, texts, [json.dumps(i, separators=(",", ":")) for i in ids]]
    people = [("real", who) for who in range(n_people)]
    for _ in range(rnd.randint(0, 2)):  # previews: someone trying the survey
        people.insert(rnd.randrange(len(people) + 1), ("preview", -1))
    start = datetime(2024, 4, 2, 10, 10, 5)
    for n, (kind, who) in enumerate(people):
        began = start + timedelta(hours=5 * n, seconds=rnd.randint(0, 900))
        took = rnd.randint(300, 900)
        row: list[Any] = [
            began.strftime("%Y-%m-%d %H:%M:%S"),
            (began + timedelta(seconds=took)).strftime("%Y-%m-%d %H:%M:%S"),
            "IP Address" if kind == "real" else "Survey Preview",
            f"203.0.113.{rnd.randint(2, 250)}" if kind == "real" else "", "100", str(took),
            "True", (began + timedelta(seconds=took + 1)).strftime("%Y-%m-%d %H:%M:%S"),
            f"R_{n:02d}{rnd.getrandbits(52):013x}", "anonymous" if kind == "real" else "preview",
            "EN", *(SURVEY_LABELS[grades[(it, who)] if kind == "real" else rnd.randrange(4)]
                    for it in items), rnd.choice(["", "", "nice study"])]
        if timed:
            row += _timing(rnd, whole)
        if prolific:
            row += ["Somewhat relevant",
                    f"{n:02d}{rnd.getrandbits(88):022x}", "672b0c9a1f2e3d4c5b6a7980",
                    f"{n:02d}{rnd.getrandbits(88):022x}"]
            done, rejected = rnd.randint(5, 2400), rnd.randint(0, 6)
            row += [str(done), str(rejected), f"{100 * done / (done + rejected):.1f}"]
        if grouped:
            row.append(rnd.choice(["control", "treatment"]) if kind == "real" else "")
        rows.append(row)
    truth = {(QUERIES[q], url[(q, d)]): sorted(float(grades[((q, d), w)])
                                               for w in range(n_people)) for q, d in items}
    return Drawn(rows, "survey", truth, kinds=["prolific" if prolific else "qualtrics"],
                 grade_headers=codes[11:11 + len(items)])


#: Prolific's bookkeeping of each participant, joined onto its survey's
#: export: counts of their work on the platform, no judgment.
BOOKKEEPING = ["Total approvals", "Total rejections", "Approval rate"]


#: Qualtrics' timing question's columns (``Timing - First Click`` ...).
_TIMING = ["First Click", "Last Click", "Page Submit", "Click Count"]


def _timing(rnd: Random, whole: bool) -> list[str]:
    """A respondent's answers to the timing question: seconds to the
    millisecond, as Qualtrics times a page (with ``whole``, whole seconds
    written so: ``1.000``, ``12.000``), and a count of clicks."""
    first, last = rnd.uniform(1, 9), rnd.uniform(14, 60)
    seconds = [first, last, last + rnd.uniform(0.5, 30)]
    if whole:
        return [f"{max(1, round(x)):.3f}" for x in seconds] + [str(rnd.randint(2, 12))]
    return [f"{x:.3f}" for x in seconds] + [str(rnd.randint(3, 12))]


def _mturk(rnd: Random, items: list[tuple[int, int]], n_people: int,
           grades: dict[tuple[tuple[int, int], int], int], radio: bool = False) -> Drawn:
    """A Mechanical Turk batch's results (see :func:`platform_sheets`): one
    HIT per item, one row per assignment, the answers as numbered labels
    (with ``radio``, always a radio button's choices a column each); half
    the batches with a comments box no one filled (:data:`MTURK_COMMENTS`),
    now and then an assignment rejected (no judgment)."""
    said = SCALES["numbered"][1]
    workers = PEOPLE["worker"]
    rows: list[list[Any]] = [list(_MTURK_HEADER)]
    created = datetime(2024, 3, 4, 10, 0)
    # the batch's seconds: a quick HIT's work times are small whole numbers
    # (2-9: as grade-like as real ones get), its lifetime empty or a day
    quick = rnd.random() < 0.5
    lifetime = rnd.choice(["", "86400", "259200"])
    # a comments box no one filled, and now and then an assignment rejected
    # (one at least beside the box: a status column marking rows)
    boxed = rnd.random() < 0.5
    if boxed:
        rows[0].insert(rows[0].index("Answer.relevance") + 1, MTURK_COMMENTS)
    rejected = {(n, w) for n in range(len(items)) for w in range(1, n_people)
                if rnd.random() < 0.1} or ({(len(items) - 1, n_people - 1)} if boxed else set())
    for n, (q, d) in enumerate(items):
        hit = f"3HIT{n:03d}Q2K9S{q}"
        for who in range(n_people):
            accepted = created + timedelta(minutes=5 + 3 * n + who)
            took = rnd.randint(2, 9) if quick else rnd.randint(20, 300)
            rows.append([
                hit, "3TYPE9ZK", "Rate how relevant a web page is", "$0.05",
                created.strftime("%a %b %d %H:%M:%S PST %Y"), str(n_people), "3600", "259200",
                lifetime, f"3ASG{n:03d}{who}ZZ", workers[who],
                "Rejected" if (n, who) in rejected else rnd.choice(["Submitted", "Approved"]),
                accepted.strftime("%a %b %d %H:%M:%S PST %Y"),
                (accepted + timedelta(seconds=took)).strftime("%a %b %d %H:%M:%S PST %Y"),
                str(took), QUERIES[q], f"clueweb-{q:02d}-{d:04d}",
                f"http://example.com/clueweb-{q:02d}-{d:04d}",
                # three levels, as the numbered labels write them
                said(min(2, grades[((q, d), who)])), *([""] if boxed else []), "", ""])
    truth = {(QUERIES[q], f"clueweb-{q:02d}-{d:04d}"): sorted(
        float(min(2, grades[((q, d), w)])) for w in range(n_people)
        if (n, w) not in rejected) for n, (q, d) in enumerate(items)}
    if radio or rnd.random() < 0.5:  # a radio button's answers, a column each: true in one
        return _radio(rows, truth, rnd.choice(RADIO_MARKS), rnd.choice(sorted(RADIO_HEADERS)),
                      rnd)
    return Drawn(rows, "long", truth, kinds=["mturk"], grade_headers=["Answer.relevance"])


#: How a radio button's choice columns are headed (``n`` the choice's
#: number, ``w`` its label as an identifier): ``NAME.N``; MTurk's crowd
#: radio buttons, each marking its choice ``.on``, numbered or by word;
#: a choice and ``-yes``; ``NAME.WORD`` with no suffix (an HTML form's
#: checkbox a choice, ``Answer.rel.not_relevant``).
RADIO_HEADERS = {"dotted": "Answer.rel.{n}", "on": "Answer.rel.{n}.on",
                 "joined": "Answer.rel{n}.on", "words": "Answer.{w}.on", "yes": "rel-{w}-yes",
                 "bare words": "Answer.rel.{w}"}
#: How the choice taken and the others are written: words, a workbook's
#: booleans, or an HTML checkbox's ``on`` and nothing.
RADIO_MARKS: list[tuple[Any, Any]] = [("true", "false"), (True, False), ("on", "")]
#: A checkbox beside the choices (``unsure``), headed as each style's
#: choices are, in their group or as an answer of its own.
RADIO_BOXES = {"dotted": ["Answer.rel.unsure", "Answer.unsure"],
               "on": ["Answer.rel.unsure.on", "Answer.unsure.on"],
               "joined": ["Answer.rel.unsure.on", "Answer.unsure.on"],
               "words": ["Answer.unsure.on"], "yes": ["rel-unsure-yes"],
               "bare words": ["Answer.rel.unsure", "Answer.unsure"]}


def _radio(rows: list[list[Any]], truth: dict[tuple[str, str], list[float]],
           marks: tuple[Any, Any], style: str = "dotted", rnd: Random | None = None) -> Drawn:
    """A Mechanical Turk batch whose answer is a radio button exported one
    column per choice (``Answer.rel.0`` ... ``Answer.rel.2``, or headed as
    :data:`RADIO_HEADERS` ``style`` says), true (a word, a workbook's
    boolean, or ``on``) in the one chosen: the same judgments. With
    ``rnd``, half the time a checkbox after the choices
    (:data:`RADIO_BOXES`: ``Answer.unsure.on``), ticked beside the choice on
    some rows: no grade (``Drawn.checkbox``)."""
    at = rows[0].index("Answer.relevance")
    words = [SCALES["labels"][1](n).lower().replace(" ", "_") for n in range(3)]
    choices = [RADIO_HEADERS[style].format(n=n, w=words[n]) for n in range(3)]
    box = rnd.choice(RADIO_BOXES[style]) if rnd is not None and rnd.random() < 0.5 else None
    ticked: set[int] = set()
    if rnd is not None and box is not None:
        ticked = {i for i in range(1, len(rows)) if rnd.random() < 0.3} or {len(rows) - 1}
    out = [[*rows[0][:at], *choices, *([box] if box else []), *rows[0][at + 1:]]]
    for i, r in enumerate(rows[1:], 1):
        grade = int(str(r[at]).split(" - ")[0])  # the numbered label's number
        out.append([*r[:at], *(marks[0] if n == grade else marks[1] for n in range(3)),
                    *([marks[0] if i in ticked else marks[1]] if box else []), *r[at + 1:]])
    group = {"words": "Answer", "yes": "rel"}.get(style, "Answer.rel")
    said = "the word its true column names, a label read as the grade column's are" \
        if style in ("words", "yes", "bare words") else "the number its true column ends with"
    letters = [_letters(at + 1), _letters(at + 3)]
    note = (f"columns {letters[0]}-{letters[1]} ({choices[0]} ... {choices[-1]}): one answer "
            f"per column, true in the one chosen; read as one grade column {group!r} in "
            f"{letters[0]}, each row's grade {said}")
    return Drawn(out, "long", truth, kinds=["mturk radio"], grade_headers=[group],
                 notes=[note], checkbox=box)


def _letters(n: int) -> str:
    """Column ``n``'s letters (1: A)."""
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _label_studio(rnd: Random, items: list[tuple[int, int]], n_people: int,
                  grades: dict[tuple[tuple[int, int], int], int]) -> Drawn:
    """A Label Studio project's CSV export (see :func:`platform_sheets`): one
    row per annotation, its columns in alphabetical order, the annotators
    as the users' numbers (1, 2, 3: small whole numbers) or e-mails, the
    task's ``id``, the annotation's, and its ``lead_time`` in seconds
    (whole half the time: ``4.0``), the choices as labels; half the time
    the task's counts after them (:data:`LABEL_STUDIO_COUNTS`:
    ``total_annotations``, the task's rows, some tasks annotated by fewer
    people; its cancelled annotations and predictions), no grades; half
    the projects a RAG pool's, one chunk retrieved for two questions (two
    tasks, two items: the task's ``id`` one per item all the same)."""
    said = SCALES["labels"][1]
    who = list(range(1, n_people + 1)) if rnd.random() < 0.5 else PEOPLE["email"][:n_people]
    whole = rnd.random() < 0.5
    counts = rnd.random() < 0.5
    # half the projects a RAG pool's: one chunk retrieved for two questions,
    # two tasks (two items), its query's last the first query's first
    shared = rnd.random() < 0.5
    last = max(d for q, d in items if q == 1)

    def doc(q: int, d: int) -> str:
        return "doc/0-0" if shared and (q, d) == (1, last) else f"doc/{q}-{d}"

    rows: list[list[Any]] = [["annotation_id", "annotator", "created_at", "id", "lead_time",
                              "query", "doc", "relevance", "updated_at",
                              *(LABEL_STUDIO_COUNTS if counts else [])]]
    start = datetime(2024, 3, 1, 10, 0)
    truth: dict[tuple[str, str], list[float]] = {}
    for n, (q, d) in enumerate(items):
        # (the first person always: every level given once stays so)
        people = rnd.randint(max(1, n_people - 2), n_people) if counts else n_people
        task = [rnd.randint(0, 1), rnd.randint(0, 2)]  # cancelled, predictions
        for w in range(people):
            at = start + timedelta(days=w, minutes=n)
            took = rnd.randint(2, 9) if whole else rnd.uniform(1.5, 40)
            rows.append([100 + n * n_people + w + 1, who[w],
                         at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), 1000 + n, round(took, 3),
                         QUERIES[q], doc(q, d), said(min(2, grades[((q, d), w)])),
                         (at + timedelta(seconds=30)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                         *([people, *task] if counts else [])])
            truth.setdefault((QUERIES[q], doc(q, d)), []).append(
                float(min(2, grades[((q, d), w)])))
    truth = {k: sorted(v) for k, v in truth.items()}
    return Drawn(rows, "long", truth, kinds=["labelstudio"], grade_headers=["relevance"])


#: A Label Studio task's counts, as its CSV export gives them beside each
#: annotation: of its annotations (the task's rows), of those cancelled
#: (none of them rows), of a model's predictions: counts, never grades.
LABEL_STUDIO_COUNTS = ["total_annotations", "cancelled_annotations", "total_predictions"]



def _appen(rnd: Random, items: list[tuple[int, int]], n_people: int,
           grades: dict[tuple[tuple[int, int], int], int]) -> Drawn:
    """An Appen (Figure Eight) job's full report: one row per judgment, the
    platform's columns first (``_unit_id``, ``_golden``, ``_tainted``,
    ``_trust``, the contributor's number ``_worker_id``, ...), the answer
    as the question's value (``somewhat_relevant``), the test questions'
    known answer and its reason beside it, the unit's data after. A test
    question or two (``_golden`` true, every worker on it: control tasks)
    and now and then a tainted worker's judgment (``_tainted`` true): none
    of them judgments."""
    values = ["not_relevant", "somewhat_relevant", "highly_relevant"]
    workers = [41823377, 45519020, 39006611, 47770001][:n_people]
    rows: list[list[Any]] = [["_unit_id", "_created_at", "_golden", "_id", "_missed",
                              "_started_at", "_tainted", "_channel", "_trust", "_worker_id",
                              "_country", "relevance", "relevance_gold",
                              "relevance_gold_reason", "query", "doc_id"]]
    golden = [(q, 90 + g) for g in range(rnd.randint(1, 2)) for q in (rnd.randrange(2),)]
    units = [*items, *golden]
    rnd.shuffle(units)
    truth: dict[tuple[str, str], list[float]] = {}
    start, judgment = datetime(2024, 3, 4, 10, 0), 5500000001
    for n, (q, d) in enumerate(units):
        gold = d >= 90
        for w, worker in enumerate(workers):
            at = start + timedelta(minutes=7 * n + w)
            tainted = not gold and w > 0 and rnd.random() < 0.1
            grade = rnd.randrange(3) if gold else min(2, grades[((q, d), w)])
            rows.append([2350000100 + n, at.strftime("%m/%d/%Y %H:%M:%S"), str(gold).lower(),
                         judgment, "", (at - timedelta(seconds=rnd.randint(20, 90))).strftime(
                             "%m/%d/%Y %H:%M:%S"), str(tainted).lower(),
                         rnd.choice(["neodev", "clixsense", "imerit_india"]),
                         round(rnd.uniform(0.7, 1.0), 4), worker,
                         rnd.choice(["USA", "GBR", "IND", "PHL"]), values[grade],
                         values[1] if gold else "", "partly on topic" if gold else "",
                         QUERIES[q], f"D{q}{d:03d}"])
            judgment += 1
            if not gold and not tainted:
                truth.setdefault((QUERIES[q], f"D{q}{d:03d}"), []).append(float(grade))
    truth = {k: sorted(v) for k, v in truth.items()}
    return Drawn(rows, "long", truth, kinds=["appen"], grade_headers=["relevance"])


def _google_forms(rnd: Random, items: list[tuple[int, int]], n_people: int,
                  grades: dict[tuple[tuple[int, int], int], int]) -> Drawn:
    """A Google Forms responses sheet of a grid question: one row per
    respondent (its ``Timestamp`` and ``Email Address``), a column per item
    (``Rate each result for: QUERY [URL]``), the answers the four survey
    labels; now and then an item left unanswered (the grid's answer not
    required) and a comment question after the grid."""
    url = {it: f"https://site{it[0]}.example/p/{it[1] + 1}" for it in items}
    rows: list[list[Any]] = [["Timestamp", "Email Address", *(
        f"Rate each result for: {QUERIES[q]} [{url[(q, d)]}]" for q, d in items),
        "Anything else?"]]
    truth: dict[tuple[str, str], list[float]] = {}
    start = datetime(2024, 3, 11, 14, 0, 21)
    for w in range(n_people):
        answers = []
        for it in items:
            left = w > 0 and rnd.random() < 0.1
            answers.append("" if left else SURVEY_LABELS[grades[(it, w)]])
            if not left:
                truth.setdefault((QUERIES[it[0]], url[it]), []).append(float(grades[(it, w)]))
        rows.append([(start + timedelta(days=w, minutes=w)).strftime("%m/%d/%Y %H:%M:%S"),
                     PEOPLE["email"][w], *answers, rnd.choice(["", "", "fun!"])])
    truth = {k: sorted(v) for k, v in truth.items()}
    return Drawn(rows, "survey", truth, kinds=["google forms"], grade_headers=rows[0][2:-1])


def _toloka(rnd: Random, items: list[tuple[int, int]], n_people: int,
            grades: dict[tuple[tuple[int, int], int], int]) -> Drawn:
    """A Toloka pool's assignments as its TSV download writes them: the
    task's ``INPUT:`` fields, the answer ``OUTPUT:relevance`` (0-3), the
    control tasks' ``GOLDEN:relevance`` and ``HINT:text`` (filled on them
    only), then the ``ASSIGNMENT:`` bookkeeping (its link, ids, the
    worker's 32-hex id, ``APPROVED`` / ``SUBMITTED`` / ``REJECTED``, when
    it started). A control task or two, every worker on it, and now and
    then a rejected assignment: none of them judgments."""
    workers = [f"{rnd.getrandbits(120):030x}{w:02x}" for w in range(n_people)]
    rows: list[list[Any]] = [["INPUT:query", "INPUT:doc_id", "OUTPUT:relevance",
                              "GOLDEN:relevance", "HINT:text", "ASSIGNMENT:link",
                              "ASSIGNMENT:assignment_id", "ASSIGNMENT:worker_id",
                              "ASSIGNMENT:status", "ASSIGNMENT:started"]]
    golden = [(rnd.randrange(2), 90 + g) for g in range(rnd.randint(1, 2))]
    units = [*items, *golden]
    rnd.shuffle(units)
    truth: dict[tuple[str, str], list[float]] = {}
    start = datetime(2024, 3, 1, 10, 0)
    for n, (q, d) in enumerate(units):
        gold = d >= 90
        for w, worker in enumerate(workers):
            rejected = not gold and w > 0 and rnd.random() < 0.1
            grade = rnd.randrange(4) if gold else grades[((q, d), w)]
            rows.append([QUERIES[q], f"doc_{q}{d:03d}", grade, 2 if gold else "",
                         "only partly on topic" if gold else "",
                         f"https://platform.toloka.ai/task/{4100 + n}",
                         f"0000{n:02x}{w:02x}a1--61ab{n:04x}", worker,
                         "REJECTED" if rejected else rnd.choice(["APPROVED", "SUBMITTED"]),
                         (start + timedelta(days=w, minutes=n)).strftime("%Y-%m-%dT%H:%M:%S")])
            if not gold and not rejected:
                truth.setdefault((QUERIES[q], f"doc_{q}{d:03d}"), []).append(float(grade))
    truth = {k: sorted(v) for k, v in truth.items()}
    return Drawn(rows, "long", truth, kinds=["toloka"], grade_headers=["OUTPUT:relevance"])
