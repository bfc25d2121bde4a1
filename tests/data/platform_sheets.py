"""The platforms' exports of issue 25 in the annotator corpus: Google Forms
(responses and a grid), a Prolific-recruited sheet, Toloka, Appen, a RAG
evaluation, BEIR qrels, Mechanical Turk's three labels, judgments without a
score, Label Studio JSON, Argilla (JSON Lines and list cells), Qualtrics,
Prodigy. Each writes its file with realistic values and fills its
:class:`~corpus_spec.Spec`; tests/data/make_annotators.py runs them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from corpus_spec import OUT, UNKNOWN, Spec, book, csv_text
from qualtrics_meta import QUALTRICS_META

FOUR = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]
SEARCHES = [("standing desk converter", "https://www.officegear.example/p/standing-desk-{0}"),
            ("how to descale a kettle", "https://howto.example/kitchen/descale-{0}"),
            ("ndcg vs map", "https://blog.ir.example/posts/metrics-{0}")]


def google_forms(spec: Spec) -> None:
    """Google Forms responses: one response per judgment, the respondent's
    e-mail collected, rows in time order (respondents interleave)."""
    spec.mapping = {"query": "Query", "source_id": "Result URL",
                    "grade": "How relevant is this result?", "annotator": "Email Address"}
    people = ["maria.gomez@uni.example", "t.nguyen@uni.example", "okafor.j@uni.example"]
    items = [(q, url.format(d)) for q, url in SEARCHES for d in range(1, 4)]
    responses = []
    for k, (q, url) in enumerate(items):
        for j in range(2 + k % 2):  # each result judged by 2-3 people
            who = people[(k + j) % 3]
            g = (k * 2 + j * 3) % 4
            responses.append((who, q, url, g))
    responses.sort(key=lambda r: (people.index(r[0]), r[1], r[2]))
    rows: list[list[Any]] = [["Timestamp", "Email Address", "Query", "Result URL",
                              "How relevant is this result?"]]
    for n, (who, q, url, g) in enumerate(responses):
        stamp = f"3/{4 + n // 12}/2024 {9 + n % 8}:{(n * 7) % 60:02d}:{(n * 13) % 60:02d}"
        rows.append([stamp, who, q, url, FOUR[g]])
        spec.judge(q, url, who, g)
        spec.labels[FOUR[g]] = float(g)
    spec.rubric = "0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant"
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def prolific_sheet(spec: Spec) -> None:
    """A Google Sheet filled by Prolific participants: a title row, ratings
    1-5 as numbers, a comment now and then."""
    spec.sheet, spec.header_row = "Responses", 2
    spec.mapping = {"query": "Query", "source_id": "Result", "grade": "Rating (1-5)",
                    "annotator": "Participant ID", "note": "Comments"}
    spec.rubric = "1,2,3,4,5"
    people = ["5f8e2a9c1b3d4e0012ab34cd", "60a1b2c3d4e5f60718293a4b", "61ff00aa11bb22cc33dd44ee",
              "5e9d8c7b6a5f4e3d2c1b0a99"]
    wb = book(OUT / spec.name)
    ws = wb.add_worksheet("Responses")
    ws.write_string(0, 0, "Relevance study \u2014 Prolific batch 3 (exported 12 Mar 2024)")
    ws.write_row(1, 0, ["Participant ID", "Query", "Result", "Rating (1-5)", "Comments"])
    r = 2
    for qi, (q, url) in enumerate(SEARCHES):
        for d in range(1, 4):
            doc = url.format(d).replace("https://", "")
            for j in range(3):
                who = people[(qi + d + j) % 4]
                g = 2 + (qi + d * j) % 4  # 2..5: nobody gave a 1
                ws.write_row(r, 0, [who, q, doc])
                ws.write_number(r, 3, g)
                if (qi + d + j) % 5 == 0:
                    ws.write_string(r, 4, "page was slow to load, rated the snippet")
                spec.judge(q, doc, who, g)
                r += 1
    wb.close()


def toloka_results(spec: Spec) -> None:
    """Toloka's assignments TSV: control tasks carry GOLDEN:relevance (and a
    hint), one assignment was rejected; both are skipped."""
    spec.mapping = {"query": "INPUT:query", "source_id": "INPUT:doc_id",
                    "grade": "OUTPUT:relevance", "annotator": "ASSIGNMENT:worker_id",
                    "status": "ASSIGNMENT:status"}
    header = ["INPUT:query", "INPUT:doc_id", "OUTPUT:relevance", "GOLDEN:relevance",
              "HINT:text", "ASSIGNMENT:link", "ASSIGNMENT:assignment_id",
              "ASSIGNMENT:worker_id", "ASSIGNMENT:status", "ASSIGNMENT:started"]
    workers = ["a1b2c3d4e5f60718293a4b5c6d7e8f90", "0f9e8d7c6b5a49382716059483726150",
               "77aa88bb99cc00dd11ee22ff33aa44bb"]
    rows: list[list[Any]] = [header]
    n = 0
    for qi, q in enumerate(["wireless earbuds", "vegan lasagna recipe"]):
        for d in range(5):
            doc = f"doc_{qi}{d:03d}"
            control = d == 4  # a task with a known answer
            for j, who in enumerate(workers):
                n += 1
                g = (qi + d + j) % 3
                status = "REJECTED" if (qi, d, j) == (1, 1, 2) else "APPROVED"
                rows.append([q, doc, g, 2 if control else "",
                             "The page sells the product asked for" if control else "",
                             f"https://platform.toloka.ai/task/{4100 + n}",
                             f"00004a{n:04d}--61ab{n:04d}", who, status,
                             f"2024-03-0{1 + j}T10:{n:02d}:00"])
                if control:
                    spec.exclude(len(rows), "control")
                elif status == "REJECTED":
                    spec.exclude(len(rows), "rejected")
                else:
                    spec.judge(q, doc, who, g)
    (OUT / spec.name).write_text(csv_text(rows, "\t", newline="\n"), encoding="utf-8")


def appen_full_report(spec: Spec) -> None:
    """Appen / Figure Eight full report: test questions (_golden) and a
    tainted worker's judgments are skipped; labels written with underscores."""
    spec.mapping = {"query": "query", "source_id": "doc_id", "grade": "relevance",
                    "annotator": "_worker_id"}
    header = ["_unit_id", "_created_at", "_golden", "_id", "_missed", "_started_at",
              "_tainted", "_channel", "_trust", "_worker_id", "_country", "relevance",
              "relevance_gold", "relevance_gold_reason", "query", "doc_id"]
    words = ["not_relevant", "somewhat_relevant", "highly_relevant"]
    workers = [(41823377, "USA", 0.93), (45519020, "GBR", 0.88), (39006611, "IND", 0.97),
               (47700315, "USA", 0.42)]  # the last is tainted: trust too low
    rows: list[list[Any]] = [header]
    n = 0
    for qi, q in enumerate(["running shoes flat feet", "rent vs buy calculator"]):
        for d in range(4):
            unit, doc = 2350000100 + qi * 10 + d, f"D{qi}{d:02d}"
            golden = d == 3
            for j, (worker, country, trust) in enumerate(workers):
                n += 1
                g = (qi * 2 + d + j) % 3
                tainted = j == 3
                missed = "true" if golden and g != 1 else ""
                rows.append([unit, f"3/4/2024 10:{n:02d}:00", "true" if golden else "false",
                             5500000000 + n, missed, f"3/4/2024 10:{n:02d}:30",
                             "true" if tainted else "false", "neodev", trust, worker, country,
                             words[g], words[1] if golden else "",
                             "The page compares both options" if golden else "", q, doc])
                if golden:
                    spec.exclude(len(rows), "control")
                elif tainted:
                    spec.exclude(len(rows), "rejected")
                else:
                    spec.judge(q, doc, str(worker), g)
                    spec.labels[words[g]] = float(g)
    spec.rubric = "0=not_relevant,1=somewhat_relevant,2=highly_relevant"  # as the sheet writes them
    (OUT / spec.name).write_text(csv_text(rows, newline="\n"), encoding="utf-8")


def rag_evaluation(spec: Spec) -> None:
    """A RAG evaluation sheet: the evaluator's column, the passage's version,
    support labels in a column whose header is no grade word."""
    spec.mapping = {"query": "question", "source_id": "passage_id", "version": "passage_version",
                    "grade": "support_label", "annotator": "evaluator"}
    words = ["No support", "Partial support", "Direct support"]
    rows: list[list[Any]] = [["question", "passage_id", "passage_version", "evaluator",
                              "support_label"]]
    questions = ["When did the Rosetta probe land on the comet?",
                 "What dose of ibuprofen is safe for adults?"]
    for qi, question in enumerate(questions):
        for p in range(4):
            pid = f"kb-{qi + 1}-{p:03d}"
            for j, who in enumerate(["priya", "marco"]):
                g = (qi + p * (j + 1)) % 3
                rows.append([question, pid, f"v{1 + p % 2}", who, words[g]])
                spec.judge(question, pid, who, g)
                spec.labels[words[g]] = float(g)
    spec.rubric = "0=No support,1=Partial support,2=Direct support"
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def beir_qrels(spec: Spec) -> None:
    """BEIR / MTEB qrels: ``query-id corpus-id score``, the score being the grade."""
    spec.mapping = {"query": "query-id", "source_id": "corpus-id", "grade": "score"}
    spec.rubric = "0,1,2"
    rows: list[list[Any]] = [["query-id", "corpus-id", "score"]]
    for q in ("PLAIN-2", "PLAIN-12", "PLAIN-23"):
        for d in range(4):
            doc = f"MED-{int(q.split('-')[1]) * 37 + d * 11}"
            g = (len(q) + d * 2) % 3
            rows.append([q, doc, g])
            spec.judge(q, doc, "", g)
    (OUT / spec.name).write_text(csv_text(rows, "\t", newline="\n"), encoding="utf-8")


def mturk_labels(spec: Spec) -> None:
    """Mechanical Turk with a three-level label answer: Not relevant,
    Somewhat relevant, Highly relevant read 0, 1, 2."""
    spec.mapping = {"query": "Input.query", "source_id": "Input.url",
                    "grade": "Answer.relevance.label", "annotator": "WorkerId",
                    "status": "AssignmentStatus"}
    three = ["Not relevant", "Somewhat relevant", "Highly relevant"]
    header = ["HITId", "AssignmentId", "WorkerId", "AssignmentStatus", "SubmitTime",
              "Input.query", "Input.url", "Answer.relevance.label"]
    workers = ["A2QX5OEHHEXAMP", "A1ZZ9YBKKEXAMP", "A3MM4LQTTEXAMP"]
    rows: list[list[Any]] = [header]
    for qi, q in enumerate(["used car prices", "kids science projects"]):
        for d in range(3):
            url = f"https://example.org/{qi}/{d}"
            for j, who in enumerate(workers):
                g = (qi + d * 2 + j) % 3
                rows.append([f"3Q{qi}{d}HIT", f"3A{qi}{d}{j}ASG", who, "Approved",
                             "Tue Mar 05 11:20:00 PST 2024", q, url, three[g]])
                spec.judge(q, url, who, g)
                spec.labels[three[g]] = float(g)
    spec.rubric = "0=Not relevant,1=Somewhat relevant,2=Highly relevant"
    (OUT / spec.name).write_text(csv_text(rows, quote_all=True), encoding="utf-8")


def judgments_no_score(spec: Spec) -> None:
    """A sheet of judgments without a score or rank: no ranking is made up."""
    spec.mapping = {"query": "query", "source_id": "url", "grade": "grade",
                    "annotator": "assessor"}
    rows: list[list[Any]] = [["query", "url", "assessor", "grade"]]
    for qi, q in enumerate(["ergonomic chair", "sourdough starter"]):
        for d in range(3):
            url = f"https://shop{qi}.example/item/{d + 1}"
            for j, who in enumerate(["kw", "lm"]):
                g = (qi + d + j) % 4
                rows.append([q, url, who, g])
                spec.judge(q, url, who, g)
    (OUT / spec.name).write_text(csv_text(rows, newline="\n"), encoding="utf-8")


def label_studio_json(spec: Spec) -> None:
    """Label Studio's JSON export: tasks with nested annotations, each with
    its annotator's id and a result list; one annotation was cancelled."""
    spec.mapping = {"query": "data.query", "source_id": "data.doc",
                    "grade": "annotations.result.value.choices",
                    "annotator": "annotations.completed_by"}
    scale = ["Irrelevant", "Partially relevant", "Relevant"]
    tasks = []
    n = 500
    for t, (q, doc) in enumerate([("laptop for video editing", "reviews/creator-laptops"),
                                  ("laptop for video editing", "shop/gaming-laptop-x"),
                                  ("laptop for video editing", "forum/which-gpu"),
                                  ("mechanical keyboard quiet", "blog/silent-switches"),
                                  ("mechanical keyboard quiet", "shop/kb-87-brown")], start=1):
        annotations = []
        for who in (3, 7):
            n += 1
            cancelled = (t, who) == (2, 7)
            g = (t + who) % 3
            annotations.append({
                "id": n, "completed_by": who, "was_cancelled": cancelled,
                "result": [] if cancelled else [{
                    "value": {"choices": [scale[g]]}, "from_name": "relevance",
                    "to_name": "doc", "type": "choices"}],
                "created_at": f"2024-03-0{1 + who % 2}T10:{t:02d}:00.000000Z",
                "lead_time": 4.5 + t})
            if cancelled:
                spec.exclude(t, "cancelled")  # (its task's record: a JSON array has no rows)
            else:
                spec.judge(q, doc, str(who), g)
                spec.labels[scale[g]] = float(g)
        tasks.append({"id": 9000 + t, "annotations": annotations,
                      "data": {"query": q, "doc": doc}, "project": 12})
    spec.rubric = "0=Irrelevant,1=Partially relevant,2=Relevant"
    (OUT / spec.name).write_text(json.dumps(tasks, indent=1) + "\n", encoding="utf-8")


ARGILLA = [("best budget phone 2024", "phone-review-a12", [2, 1], ["3f2b9c", "a81d0e"]),
           ("best budget phone 2024", "phone-news-launch", [0], ["3f2b9c"]),
           ("best budget phone 2024", "phone-compare-top10", [3, 3, 2],
            ["3f2b9c", "a81d0e", "c44e7a"]),
           ("fix squeaky door", "diy-hinge-oil", [3, 2], ["a81d0e", "c44e7a"]),
           ("fix squeaky door", "door-shop-catalog", [0, 1], ["3f2b9c", "c44e7a"])]


def argilla_jsonl(spec: Spec) -> None:
    """Argilla records exported as JSON Lines: the ratings of a record and
    their users in two lists side by side."""
    spec.mapping = {"query": "query", "source_id": "document", "grade": "relevance.responses",
                    "annotator": "relevance.responses.users", "status": "status"}
    lines = []
    for k, (q, doc, grades, users) in enumerate(ARGILLA):
        lines.append(json.dumps({
            "id": f"rec-{k:03d}", "status": "completed", "query": q, "document": doc,
            "relevance.responses": grades, "relevance.responses.users": users,
            "relevance.responses.status": ["submitted"] * len(grades)}))
        for g, who in zip(grades, users, strict=True):
            spec.judge(q, doc, who, g)
    spec.rubric = "0,1,2,3"
    (OUT / spec.name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def argilla_csv_lists(spec: Spec) -> None:
    """The same records as CSV: lists written into cells."""
    spec.mapping = {"query": "query", "source_id": "document", "grade": "relevance.responses",
                    "annotator": "relevance.responses.users"}
    rows: list[list[Any]] = [["id", "query", "document", "relevance.responses",
                              "relevance.responses.users"]]
    for k, (q, doc, grades, users) in enumerate(ARGILLA):
        rows.append([f"rec-{k:03d}", q, doc, json.dumps(grades), json.dumps(users)])
        for g, who in zip(grades, users, strict=True):
            spec.judge(q, doc, who, g)
    spec.rubric = "0,1,2,3"
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


GRID = [("cheap flights to rome", ["https://fly.example/rome", "https://deals.example/it",
                                   "https://wiki.example/Rome"]),
        ("wool socks", ["https://shop.example/socks/1", "https://blog.example/merino"])]


def google_forms_grid(spec: Spec) -> None:
    """A Google Forms grid question: one row per respondent, one column per
    result, each header ``Rate each result for: QUERY [URL]``."""
    spec.mapping = {"query": "query", "source_id": "source_id", "grade": "grade",
                    "annotator": "Email Address"}
    spec.header_row = 1
    items = [(q, url) for q, urls in GRID for url in urls]
    rows: list[list[Any]] = [["Timestamp", "Email Address",
                              *(f"Rate each result for: {q} [{url}]" for q, url in items)]]
    people = ["lena.k@uni.example", "omar.s@uni.example", "ines.b@uni.example",
              "paul.w@uni.example"]
    for j, who in enumerate(people):
        cells = []
        for k, (q, url) in enumerate(items):
            g = (j + k * 3) % 4
            cells.append(FOUR[g])
            spec.judge(q, url, who, g)
            spec.labels[FOUR[g]] = float(g)
        rows.append([f"3/{11 + j}/2024 14:0{j}:21", who, *cells])
    spec.rubric = "0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant"
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def qualtrics_matrix(spec: Spec) -> None:
    """A Qualtrics matrix question exported as CSV: ``QUESTION - URL``
    headers, grades 1-4, the survey's own preview response skipped."""
    spec.mapping = {"query": "query", "source_id": "source_id", "grade": "grade",
                    "annotator": "ResponseId", "status": "Status"}
    items = [(q, url) for q, urls in GRID for url in urls]
    rows: list[list[Any]] = [["StartDate", "EndDate", "Status", "Progress", "Finished",
                              "ResponseId",
                              *(f'How relevant is each page to "{q}"? - {url}'
                                for q, url in items)]]
    responses = ["R_1dGx8ZkVh3sQp2A", "R_3PqL0wE9yTbN7cF", "R_2mK5vJ8uXr4Hs1D"]
    for j, rid in enumerate(["R_0PreviewZz9Yy8X", *responses]):
        preview = j == 0
        cells = []
        for k, (q, url) in enumerate(items):
            g = 1 + (j * 2 + k) % 4
            cells.append(g)
            if not preview:
                spec.judge(q, url, rid, g)
        rows.append([f"2024-03-1{j} 09:00:00", f"2024-03-1{j} 09:06:40",
                     "Survey Preview" if preview else "IP Address", 100, "True", rid, *cells])
    spec.exclude(2, "preview")  # the file's row 2: one response, whatever its items
    spec.rubric = "1,2,3,4"
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def qualtrics_export(spec: Spec) -> None:
    """A Qualtrics survey exported as CSV (choice text) in its own shape: three
    header rows (the column ids ``QID1_1``, the question texts
    ``QUESTION - URL``, the ``{"ImportId": ...}`` row), the survey's preview
    and a generated test response (skipped), a respondent leaving one page
    unrated, the free-text question at the end."""
    spec.mapping = {"query": "query", "source_id": "source_id", "grade": "grade",
                    "annotator": "ResponseId", "status": "Status", "note": "Q2"}
    items = [(q, url.format(d)) for q, url in SEARCHES[:2] for d in range(1, 4)]
    question = "How relevant is this page to the search \"{0}\"? - {1}"
    rows: list[list[Any]] = [
        [m[0] for m in QUALTRICS_META] + [f"Q1_{k + 1}" for k in range(len(items))] + ["Q2"],
        [m[1] for m in QUALTRICS_META] + [question.format(q, url) for q, url in items]
        + ["Anything else you would like to tell us?"],
        [json.dumps(m[2], separators=(",", ":")) for m in QUALTRICS_META]
        + [f'{{"ImportId":"QID1_{k + 1}"}}' for k in range(len(items))]
        + ['{"ImportId":"QID2_TEXT"}'],
    ]
    people = [("R_3kYqB8mZ1xWvT0a", "Survey Preview", "preview", ""),
              ("R_1OzLh4sN7cEfP2b", "IP Address", "anonymous", "203.0.113.17"),
              ("R_2vXw9JtRkQ5dM3c", "IP Address", "anonymous", "198.51.100.42"),
              ("R_7bHn3FgUy6sLq4d", "IP Address", "anonymous", "192.0.2.230"),
              ("R_5eWc1VpAo8zKr5e", "Survey Test", "test", ""),
              ("R_6tGf2DsQi9xJm6f", "IP Address", "anonymous", "203.0.113.88")]
    for j, (rid, status, channel, ip) in enumerate(people):
        marked = status != "IP Address"
        cells: list[Any] = []
        for k, (q, url) in enumerate(items):
            if (j, k) == (3, 4):  # left unrated
                cells.append("")
                if not marked:
                    spec.judge(q, url, rid, UNKNOWN)
                continue
            g = (j * 3 + k * (j + 1)) % 4
            cells.append(FOUR[g])
            if not marked:
                spec.judge(q, url, rid, g)
                spec.labels[FOUR[g]] = float(g)
        if marked:
            spec.exclude(4 + j, "preview")
        comment = "Some pages did not load on my phone." if j == 2 else ""
        rows.append([f"2024-04-0{2 + j} 10:1{j}:05", f"2024-04-0{2 + j} 10:2{j}:47", status, ip,
                     100, 642 + 37 * j, "True", f"2024-04-0{2 + j} 10:2{j}:48", rid, channel,
                     "EN", *cells, comment])
    spec.rubric = "0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant"
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def prodigy_jsonl(spec: Spec) -> None:
    """Prodigy's choice interface, exported with ``prodigy db-out``: the
    options with ids, the chosen id in ``accept``, the annotator's session;
    a third annotator ignored one task and rejected (declined) another,
    choosing nothing: those records are no judgments, skipped."""
    spec.mapping = {"query": "query", "source_id": "doc_id", "grade": "accept",
                    "annotator": "_annotator_id", "status": "answer"}
    options = [{"id": 0, "text": "Not relevant"}, {"id": 1, "text": "Relevant"},
               {"id": 2, "text": "Highly relevant"}]
    lines = []
    n = 0
    for qi, q in enumerate(["solar roof cost", "learn japanese fast"]):
        for d in range(3):
            doc = f"cc-{qi}{d:04d}"
            carol = {(0, 1): "ignore", (1, 0): "reject", (1, 2): "accept"}.get((qi, d))
            for who in ("relevance-alice", "relevance-bob", "relevance-carol"):
                answer = "accept" if who != "relevance-carol" else carol
                if answer is None:
                    continue
                n += 1
                g = (qi + d + len(who)) % 3
                lines.append(json.dumps({
                    "query": q, "doc_id": doc, "text": f"Passage {d} about {q}.",
                    "options": options, "accept": [g] if answer == "accept" else [],
                    "answer": answer,
                    "_input_hash": 1000003 * (qi * 10 + d), "_task_hash": 7000001 * n,
                    "_view_id": "choice", "_annotator_id": who, "_session_id": who,
                    "_timestamp": 1709800000 + 61 * n}))
                if answer != "accept":
                    spec.exclude(n, "skipped")  # (record n is the file's line n)
                    continue
                spec.judge(q, doc, who, g)
                spec.labels[options[g]["text"]] = float(g)
    spec.rubric = "0=Not relevant,1=Relevant,2=Highly relevant"
    (OUT / spec.name).write_text("\n".join(lines) + "\n", encoding="utf-8")


PLATFORM_SHEETS: list[tuple[str, Callable[[Spec], None]]] = [
    ("google_forms_responses.csv", google_forms),
    ("prolific_sheet.xlsx", prolific_sheet),
    ("toloka_assignments.tsv", toloka_results),
    ("appen_full_report.csv", appen_full_report),
    ("rag_evaluation.csv", rag_evaluation),
    ("beir_qrels.tsv", beir_qrels),
    ("mturk_three_labels.csv", mturk_labels),
    ("judgments_no_score.csv", judgments_no_score),
    ("label_studio_export.json", label_studio_json),
    ("argilla_records.jsonl", argilla_jsonl),
    ("argilla_lists.csv", argilla_csv_lists),
    ("google_forms_grid.csv", google_forms_grid),
    ("qualtrics_matrix.csv", qualtrics_matrix),
    ("qualtrics_export.csv", qualtrics_export),
    ("prodigy_choice.jsonl", prodigy_jsonl),
]
