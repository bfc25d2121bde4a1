"""Write the corpus of annotators' sheets as they really arrive (tests/data/annotators/).

Run ``python tests/data/make_annotators.py``; the output is deterministic and
committed. Each sheet is written from judgments given as numbers (or
``unknown`` / ``unrateable``), rendered the way its tool or its person writes
them (labels, ``2 - Relevant``, text with spaces, marks, merged cells ...);
``expected.json`` keeps, per sheet, those judgments per (query, source,
annotator), each candidate's consensus under the declared rule, the
judgments that must be rejected (row, column), the labels and how they read,
the mapping a guess must find, and the flags a sheet needs (none for most).
tests/test_annotator_corpus.py imports every sheet through the command line
and through the wizard's guessing function and compares.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from corpus_spec import OUT, UNKNOWN, UNRATEABLE, Spec, book, consensus, csv_text
from platform_sheets import PLATFORM_SHEETS

# -- the sheets --------------------------------------------------------------------------
NR_R_HR = {0: "Not relevant", 1: "Relevant", 2: "Highly relevant"}
# Three annotators' grades of five documents of four topics: a number, "N/A", or blank.
BATCH7 = {
    401: [(2, 1, 0), (1, 1, "N/A"), (0, 0, 0), ("", 2, 2), (1, 2, 1)],
    402: [(2, 2, 2), (0, "", 1), (1, 0, 0), (2, 1, "N/A"), (0, 0, "")],
    403: [("N/A", "N/A", ""), (2, 2, 1), (1, 1, 1), (0, 1, 2), ("", "", "")],
    404: [(1, 0, 1), (2, 2, 2), (0, 0, 1), (1, 2, 0), (2, 1, 1)],
}
# How the annotators wrote each grade: case and spaces vary.
WRITTEN = {0: ["Not relevant", "not relevant", "Not Relevant "],
           1: ["Relevant", "relevant", " Relevant"],
           2: ["Highly relevant", "Highly Relevant", "highly relevant"]}


def _batch7_rows(spec: Spec, written: dict[str, float]) -> list[list[Any]]:
    rows = []
    for topic, docs in BATCH7.items():
        for d, grades in enumerate(docs, start=1):
            url = f"https://vendor-x.example/t{topic}/doc{d}"
            cells: list[Any] = [topic, url]
            for a, g in enumerate(grades):
                who = f"Annotator {'ABC'[a]}"
                if g == "N/A":
                    cells.append("N/A")
                    spec.judge(topic, url, who, UNRATEABLE)
                elif g == "":
                    cells.append("")
                    spec.judge(topic, url, who, UNKNOWN)
                else:
                    text = WRITTEN[g][(topic + d + a) % 3]
                    cells.append(text)
                    written[text.strip()] = float(g)
                    spec.judge(topic, url, who, g)
            rows.append(cells)
    return rows


BATCH7_TITLE = "Relevance judgments \u2013 batch 7 (sent by Vendor X \u2026)"
BATCH7_HEADER = ["Topic", "Doc URL", "Annotator A", "Annotator B", "Annotator C"]
BATCH7_MAPPING = {"query": "Topic", "source_id": "Doc URL",
                  "annotators": ["Annotator A", "Annotator B", "Annotator C"]}


def issue_batch7_xlsx(spec: Spec) -> None:
    """The issue's sheet: a merged title row, a blank row, then the header."""
    spec.sheet, spec.header_row, spec.layout, spec.mapping = "Batch 7", 3, "wide", BATCH7_MAPPING
    rows = _batch7_rows(spec, spec.labels)
    wb = book(OUT / spec.name)
    ws = wb.add_worksheet("Batch 7")
    ws.merge_range(0, 0, 0, 4, BATCH7_TITLE, wb.add_format({"bold": True}))
    ws.write_row(2, 0, BATCH7_HEADER)
    for r, cells in enumerate(rows, start=3):
        ws.write_number(r, 0, cells[0])
        for c, v in enumerate(cells[1:], start=1):
            if v != "":
                ws.write_string(r, c, v)
    wb.close()


def issue_batch7_cp1252(spec: Spec) -> None:
    """The same batch as Windows-1252 text with semicolons, a title line and a blank line."""
    spec.header_row, spec.layout, spec.mapping = 3, "wide", BATCH7_MAPPING
    rows = _batch7_rows(spec, spec.labels)
    text = BATCH7_TITLE + "\r\n\r\n" + csv_text([BATCH7_HEADER, *rows], ";")
    (OUT / spec.name).write_bytes(text.encode("cp1252"))


MTURK_LABELS = {0: "0 - Not relevant", 1: "1 - Somewhat relevant", 2: "2 - Relevant",
                3: "3 - Highly relevant"}


def mturk_batch(spec: Spec) -> None:
    """Mechanical Turk's batch results: three assignments per item, one rejected."""
    spec.mapping = {"query": "Input.query", "source_id": "Input.doc_id",
                    "grade": "Answer.relevance", "annotator": "WorkerId",
                    "status": "AssignmentStatus"}
    header = ["HITId", "HITTypeId", "Title", "Reward", "CreationTime", "MaxAssignments",
              "AssignmentId", "WorkerId", "AssignmentStatus", "AcceptTime", "SubmitTime",
              "WorkTimeInSeconds", "Input.query", "Input.doc_id", "Input.url",
              "Answer.relevance", "Approve", "Reject"]
    queries = ["solar panel efficiency", "best hiking boots", "python csv unicode"]
    workers = ["A1X9QW2LMZ3K7P", "A2B7NC4RT8VE1D", "A3KD8FJ2MS9QXL", "A9ZL2XW4YTK3RB"]
    rows: list[list[Any]] = [header]
    n = 0
    for qi, q in enumerate(queries):
        for d in range(3):
            hit = f"3HIT{qi}{d}7Q2K9S1"
            doc = f"clueweb-{qi:02d}-{d:04d}"
            for k in range(3):
                worker = workers[(qi + d + k) % 4]
                grade = (qi * 2 + d + k * (d + 1)) % 4
                status = "Rejected" if (qi, d, k) == (1, 2, 0) else (
                    "Approved" if k == 1 else "Submitted")
                n += 1
                rows.append([hit, "3TYPE9ZK", "Rate how relevant a web page is", "$0.05",
                             "Mon Mar 04 10:00:00 PST 2024", "3", f"3ASG{n:04d}ZZ", worker,
                             status, "Mon Mar 04 10:05:00 PST 2024",
                             "Mon Mar 04 10:06:00 PST 2024", str(40 + n), q, doc,
                             f"http://example.com/{doc}", MTURK_LABELS[grade], "", ""])
                if status == "Rejected":  # work the requester rejected: skipped, counted
                    spec.exclude(len(rows), "rejected")
                else:
                    spec.judge(q, doc, worker, grade)
                    spec.labels[MTURK_LABELS[grade]] = float(grade)
    (OUT / spec.name).write_text(csv_text(rows, quote_all=True), encoding="utf-8")


def label_studio(spec: Spec) -> None:
    """Label Studio's CSV export: task id in ``id``, the document in ``doc``."""
    spec.mapping = {"query": "query", "source_id": "doc", "grade": "relevance",
                    "annotator": "annotator"}
    scale = {0: "Irrelevant", 1: "Partially relevant", 2: "Relevant"}
    header = ["annotation_id", "annotator", "created_at", "id", "lead_time", "query", "doc",
              "relevance", "updated_at"]
    rows: list[list[Any]] = [header]
    tasks = [("what is ndcg", "wiki/Discounted_cumulative_gain"),
             ("what is ndcg", "blog/ndcg-explained"), ("what is ndcg", "forum/ranking-metrics"),
             ("bm25 parameters", "docs/bm25"), ("bm25 parameters", "paper/okapi"),
             ("bm25 parameters", "wiki/tf-idf")]
    people = ["ana@lab.example", "ben@lab.example"]
    n = 100
    for t, (q, doc) in enumerate(tasks, start=1):
        for p, who in enumerate(people):
            n += 1
            if (t, p) == (3, 1):
                label = ""  # a cancelled annotation: no choice made
                spec.judge(q, doc, who, UNKNOWN)
            else:
                grade = (t + p) % 3
                label = scale[grade]
                spec.judge(q, doc, who, grade)
                spec.labels[label] = float(grade)
            rows.append([n, who, f"2024-03-0{p + 1}T10:{t:02d}:00.000000Z", 1000 + t,
                         round(3.5 + t * 1.25 + p, 3), q, doc, label,
                         f"2024-03-0{p + 1}T10:{t:02d}:30.000000Z"])
    (OUT / spec.name).write_text(csv_text(rows, newline="\n"), encoding="utf-8")


def quepid(spec: Spec) -> None:
    """Quepid's ratings export: one rater, numbers, an unrated document."""
    spec.mapping = {"query": "Query Text", "source_id": "Doc ID", "grade": "Rating"}
    rows: list[list[Any]] = [["Team Name", "Case Name", "Case ID", "Query Text", "Doc ID",
                              "Rating"]]
    for qi, q in enumerate(["star wars", "star trek", "blade runner"]):
        for d in range(4):
            doc = str(11 + qi * 100 + d * 7)
            rating: Any = (qi + 3 * d) % 4
            if (qi, d) == (2, 3):
                rating = ""
                spec.judge(q, doc, "", UNKNOWN)
            else:
                spec.judge(q, doc, "", rating)
            rows.append(["Search Team", "Movies Relevancy", "5", q, doc, rating])
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def hand_made_long(spec: Spec) -> None:
    """A spreadsheet made by hand: an Instructions sheet first, a merged title,
    merged query cells, grades typed as text with spaces, marks, a formula
    in a grade cell, notes, and a trailing Total row."""
    spec.sheet, spec.header_row = "Judgments", 3
    spec.mapping = {"query": "Query", "source_id": "Document", "grade": "Relevance (0-3)",
                    "note": "Notes"}
    wb = book(OUT / spec.name)
    ins = wb.add_worksheet("Instructions")
    for r, line in enumerate(["How to judge", "Read the query, open the document.",
                              "Give 0 (not relevant) to 3 (highly relevant).",
                              "Use ? when unsure and - when the page does not load."]):
        ins.write_string(r, 0, line)
    ws = wb.add_worksheet("Judgments")
    ws.merge_range(0, 0, 0, 3, "Search relevance \u2014 graded by hand, March")
    ws.write_row(2, 0, ["Query", "Document", "Relevance (0-3)", "Notes"])
    groups = [("laptop bag", [("DOC-0001", " 2", 2.0), ("DOC-0002", "3 ", 3.0),
                              ("DOC-0003", 1, 1.0), ("DOC-0004", "?", UNKNOWN)]),
              ("usb c hub", [("DOC-0101", "0", 0.0), ("DOC-0102", "-", UNRATEABLE),
                             ("DOC-0103", "=1+1", None), ("DOC-0104", 2, 2.0)]),
              ("desk lamp", [("DOC-0201", "1", 1.0), ("DOC-0202", " 3 ", 3.0)])]
    r = 3
    total = 0.0
    for q, docs in groups:
        ws.merge_range(r, 0, r + len(docs) - 1, 0, q)
        for doc, cell, grade in docs:
            ws.write_string(r, 1, doc)
            if isinstance(cell, str) and cell.startswith("="):
                ws.write_formula(r, 2, cell, None, 2)
                spec.rejected.append((r + 1, "C (Relevance (0-3))"))
                spec.judge(q, doc, "", UNKNOWN)
            else:
                (ws.write_number if isinstance(cell, int) else ws.write_string)(r, 2, cell)
                spec.judge(q, doc, "", grade)
                if isinstance(grade, float):
                    total += grade
            if doc == "DOC-0002":
                ws.write_string(r, 3, "paywalled, judged from the abstract")
            r += 1
        r += 1  # a blank row between the groups
    ws.write_string(r, 0, "Total")
    ws.write_formula(r, 2, f"=SUM(C4:C{r})", None, total)
    spec.skipped.append(r + 1)
    wb.close()


def hand_made_wide(spec: Spec) -> None:
    """Two annotators' columns named by their people, a final grade (not an
    annotator), a title column beside the URL, a row without its URL."""
    spec.sheet, spec.layout = "Sheet1", "wide"
    spec.mapping = {"query": "Topic", "source_id": "URL", "annotators": ["Alice", "Bob"],
                    "note": "Comments"}
    header = ["Topic", "Document title", "URL", "Alice", "Bob", "Final grade", "Comments"]
    wb = book(OUT / spec.name)
    ws = wb.add_worksheet("Sheet1")
    ws.write_row(0, 0, header)
    data = [("t1", "Intro to NDCG", 3, "3"), ("t1", "Ranking 101", 1, "2 "),
            ("t1", "Cooking pasta", 0, "n/a"), ("t2", "BM25 in depth", 2, 2),
            ("t2", "Okapi at TREC", "2", 3), ("t2", "Football scores", 0, 0)]
    r = 1
    for k, (topic, title, a, b) in enumerate(data):
        if k == 3:
            r += 1  # a blank row
        url = f"https://docs.example/{title.lower().replace(' ', '-')}"
        ws.write_string(r, 0, topic)
        ws.write_string(r, 1, title)
        ws.write_string(r, 2, url)
        for c, v in ((3, a), (4, b)):
            (ws.write_number if isinstance(v, int) else ws.write_string)(r, c, v)
        grades = [float(str(v).strip()) if str(v).strip() != "n/a" else UNRATEABLE
                  for v in (a, b)]
        spec.judge(topic, url, "Alice", grades[0])
        spec.judge(topic, url, "Bob", grades[1])
        nums = [g for g in grades if isinstance(g, float)]
        ws.write_number(r, 5, round(sum(nums) / len(nums)))
        if k == 1:
            ws.write_string(r, 6, "Bob says the intro section is on topic")
        r += 1
    ws.write_row(r, 0, ["t2", "Lost link", ""])
    ws.write_number(r, 3, 1)
    ws.write_number(r, 4, 1)
    spec.rejected += [(r + 1, "D (Alice)"), (r + 1, "E (Bob)")]
    wb.close()


def french_cp1252(spec: Spec) -> None:
    """Windows-1252, semicolons, decimal commas; the query and note columns
    found by their values (their headers name nothing known)."""
    spec.mapping = {"query": "Requête", "source_id": "Document", "score": "Score",
                    "grade": "Pertinence", "note": "Commentaire"}
    spec.ranking = "score"
    rows: list[list[Any]] = [["Requête", "Document", "Score", "Pertinence", "Commentaire"]]
    data = [("énergie solaire", "doc-é1", "0,93", "2", 2.0, "très bien"),
            ("énergie solaire", "doc-é2", "0,71", "1,5", 1.5, ""),
            ("énergie solaire", "doc-é3", "0,40", "0", 0.0, "hors sujet"),
            ("vélo électrique", "doc-v1", "1,20", "1", 1.0, ""),
            ("vélo électrique", "doc-v2", "0,85", "", UNKNOWN, "à revoir")]
    for q, doc, score, cell, grade, note in data:
        rows.append([q, doc, score, cell, note])
        spec.judge(q, doc, "", grade)
    (OUT / spec.name).write_bytes(csv_text(rows, ";").encode("cp1252"))


def excel_unicode_text(spec: Spec) -> None:
    """Excel's "Unicode text": UTF-16 with a BOM, tab-separated, a .txt name."""
    spec.mapping = {"query": "qid", "source_id": "docno", "grade": "rating",
                    "annotator": "rater"}
    rows: list[list[Any]] = [["qid", "docno", "rater", "rating"]]
    for q in ("301", "302"):
        for d in range(3):
            doc = f"FBIS3-{q}{d}"
            for who in ("kim", "lee"):
                g: Any = (int(q) + d + len(who) * (d + 1)) % 3
                text = str(g)
                if (q, d, who) == ("302", 1, "lee"):
                    g, text = UNRATEABLE, "N/A"
                rows.append([q, doc, who, text])
                spec.judge(q, doc, who, g)
    (OUT / spec.name).write_bytes(csv_text(rows, "\t").encode("utf-16"))


def bom_bad_to_perfect(spec: Spec) -> None:
    """UTF-8 with a BOM; Bad / Fair / Good / Excellent / Perfect; the median."""
    spec.flags, spec.consensus = ["--consensus", "median"], "median"
    spec.mapping = {"query": "query_id", "source_id": "doc_id", "grade": "label",
                    "annotator": "judge", "query_text": "query"}
    words = ["Bad", "Fair", "Good", "Excellent", "Perfect"]
    rows: list[list[Any]] = [["query_id", "query", "doc_id", "judge", "label"]]
    for qi, (qid, text) in enumerate([("q-17", "cheap flights"), ("q-18", "flight status")]):
        for d in range(3):
            doc = f"p{qi}{d}"
            for j, who in enumerate(["j1", "j2", "j3"]):
                g = (qi + d * 2 + j) % 5
                label = words[g] if j != 1 else words[g].upper()
                rows.append([qid, text, doc, who, label])
                spec.judge(qid, doc, who, g)
                spec.labels[label] = float(g)
    (OUT / spec.name).write_bytes(b"\xef\xbb\xbf" + csv_text(rows).encode("utf-8"))


def qid_docno_rater_rating(spec: Spec) -> None:
    """The issue's long CSV ``qid;docno;rater;rating`` (no score column)."""
    spec.mapping = {"query": "qid", "source_id": "docno", "grade": "rating",
                    "annotator": "rater"}
    rows: list[list[Any]] = [["qid", "docno", "rater", "rating"]]
    for q in (1, 2, 3):
        for d in range(4):
            doc = f"D{q}{d:02d}"
            for who in ("r1", "r2"):
                g = (q * d + len(rows)) % 3
                rows.append([q, doc, who, g])
                spec.judge(q, doc, who, g)
    (OUT / spec.name).write_text(csv_text(rows, ";", newline="\n"), encoding="utf-8")


def run_with_judgments(spec: Spec) -> None:
    """A full run + judgment sheet; labels ``0: Bad`` ... ``4: Perfect``; and
    the same run as a TREC run file with its consensus as TREC qrels."""
    spec.sheet = "Run 12"
    spec.mapping = {"query": "Query ID", "source_id": "Document ID", "rank": "Rank",
                    "score": "Score", "annotator": "Rater", "grade": "Label",
                    "query_text": "Query"}
    spec.ranking = "score"
    words = ["Bad", "Fair", "Good", "Excellent", "Perfect"]
    wb = book(OUT / spec.name)
    ws = wb.add_worksheet("Run 12")
    ws.write_row(0, 0, ["Query ID", "Query", "Document ID", "Title", "Rank", "Score", "Rater",
                        "Label"])
    run_lines = []
    r = 1
    for qid, text in ((7, "noise cancelling headphones"), (8, "espresso grinder")):
        for rank in range(1, 5):
            doc = f"B0{qid}{rank:03d}X"
            score = round(12.5 - rank * 1.75 + qid / 10, 2)
            run_lines.append(f"{qid} Q0 {doc} {rank} {score!r} bm25\n")
            for who in ("rater-1", "rater-2"):
                g = (qid + rank * (2 if who == "rater-1" else 3)) % 5
                label = f"{g}: {words[g]}"
                ws.write_row(r, 0, [qid, text, doc, f"Product {doc}", rank, score, who, label])
                spec.judge(qid, doc, who, g)
                spec.labels[label] = float(g)
                r += 1
    wb.close()
    (OUT / "run_12.run").write_text("".join(run_lines), encoding="utf-8")


def rag_support(spec: Spec) -> None:
    """Passages judged for support; the grade column's header names no grade."""
    spec.mapping = {"query": "question_id", "source_id": "passage_id", "grade": "support",
                    "annotator": "annotator"}
    words = ["No support", "Partial support", "Direct support"]
    rows: list[list[Any]] = [["question_id", "passage_id", "annotator", "support"]]
    for q in ("Q1", "Q2"):
        for p in range(3):
            pid = f"{q}-P{p}"
            for a, who in enumerate(("u1", "u2")):
                g = (p + a + (q == "Q2")) % 3
                rows.append([q, pid, who, words[g]])
                spec.judge(q, pid, who, g)
                spec.labels[words[g]] = float(g)
    (OUT / spec.name).write_text(csv_text(rows, "\t", newline="\n"), encoding="utf-8")


def wide_grade_columns(spec: Spec) -> None:
    """``grade_<name>`` columns, marks, a model score; mean rounded half up."""
    spec.flags = ["--consensus", "mean", "--rounding", "half-up"]
    spec.rounding, spec.layout, spec.ranking = "half-up", "wide", "score"
    spec.mapping = {"query": "query", "source_id": "doc", "score": "score",
                    "annotators": ["grade_alice", "grade_bob", "grade_chen"], "note": "notes"}
    rows: list[list[Any]] = [["query", "doc", "score", "grade_alice", "grade_bob",
                              "grade_chen", "notes"]]
    cells = [("2", "3", "2"), ("1", "?", "2"), ("0", "-", "skip"), ("n/a", "", "1"),
             ("3", "3", "2"), ("1", "2", "")]
    marks = {"?": UNKNOWN, "": UNKNOWN, "-": UNRATEABLE, "skip": UNRATEABLE, "n/a": UNRATEABLE}
    for k, trio in enumerate(cells):
        q, doc = f"q{k // 3 + 1}", f"d{k}"
        rows.append([q, doc, f"{0.9 - k * 0.1:.1f}", *trio, "recheck" if k == 2 else ""])
        for who, v in zip(("alice", "bob", "chen"), trio, strict=True):
            spec.judge(q, doc, who, marks[v] if v in marks else float(v))
    (OUT / spec.name).write_text(csv_text(rows, newline="\n"), encoding="utf-8")


def raters_trailing_numbers(spec: Spec) -> None:
    """``Rater 1`` / ``Rater 2`` columns; labels end with their number; the maximum."""
    spec.flags, spec.consensus, spec.layout = ["--consensus", "max"], "max", "wide"
    spec.mapping = {"query": "topic", "source_id": "docid", "annotators": ["Rater 1", "Rater 2"]}
    words = ["Not relevant (0)", "Somewhat relevant (1)", "Relevant (2)", "Highly relevant (3)"]
    rows: list[list[Any]] = [["topic", "docid", "Rater 1", "Rater 2"]]
    for t in ("51", "52"):
        for d in range(4):
            doc = f"AP880{t}{d}"
            pair = [(d + int(t)) % 4, (d * 3 + int(t)) % 4]
            rows.append([t, doc, words[pair[0]], words[pair[1]]])
            for who, g in zip(("Rater 1", "Rater 2"), pair, strict=True):
                spec.judge(t, doc, who, g)
                spec.labels[words[g]] = float(g)
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def meets_scale_wide(spec: Spec) -> None:
    """Fails to meet ... Fully meets, two raters, a final grade, the minimum."""
    spec.flags, spec.consensus, spec.layout = ["--consensus", "min"], "min", "wide"
    spec.sheet = "Ratings"
    spec.mapping = {"query": "Query", "source_id": "URL", "annotators": ["Rater A", "Rater B"],
                    "note": "Comments"}
    words = ["Fails to meet", "Slightly meets", "Moderately meets", "Highly meets",
             "Fully meets"]
    wb = book(OUT / spec.name)
    ws = wb.add_worksheet("Ratings")
    ws.write_row(0, 0, ["Query", "URL", "Rater A", "Rater B", "Final grade", "Comments"])
    r = 1
    for q in ("weather paris", "paris hotels"):
        for d in range(3):
            url = f"https://{q.split()[1]}.example/{d}"
            a, b = (d * 2 + len(q)) % 5, (d + len(q)) % 5
            cells = [words[a], words[b] if (q, d) != ("paris hotels", 2) else "Can't judge"]
            ws.write_row(r, 0, [q, url, *cells, words[min(a, b)], ""])
            spec.judge(q, url, "Rater A", a)
            spec.labels[words[a]] = float(a)
            if cells[1] == "Can't judge":
                spec.judge(q, url, "Rater B", UNRATEABLE)
            else:
                spec.judge(q, url, "Rater B", b)
                spec.labels[words[b]] = float(b)
            r += 1
    wb.close()


def yes_no_binary(spec: Spec) -> None:
    """A binary Yes / No from crowd workers, a skip; the majority, rounded down."""
    spec.flags = ["--consensus", "majority", "--rounding", "floor"]
    spec.consensus, spec.rounding = "majority", "floor"
    spec.mapping = {"query": "query", "source_id": "url", "grade": "answer",
                    "annotator": "worker"}
    rows: list[list[Any]] = [["query", "url", "worker", "answer"]]
    for q in ("is it raining", "train times"):
        for d in range(3):
            url = f"https://x.example/{q.replace(' ', '-')}/{d}"
            for k, who in enumerate(("w1", "w2", "w3")):
                if (q, d, who) == ("train times", 0, "w2"):
                    rows.append([q, url, who, "skip"])
                    spec.judge(q, url, who, UNRATEABLE)
                    continue
                g = (d + k + len(q)) % 2
                word = ("No", "Yes")[g]
                rows.append([q, url, who, word])
                spec.judge(q, url, who, g)
                spec.labels[word] = float(g)
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def unknown_labels(spec: Spec) -> None:
    """Labels on no known scale: they need ``--rubric``."""
    spec.flags = ["--rubric", "0=meh,1=kinda,2=spot on"]
    spec.mapping = {"query": "query", "source_id": "doc", "grade": "label",
                    "annotator": "annotator"}
    words = ["meh", "kinda", "spot on"]
    rows: list[list[Any]] = [["query", "doc", "annotator", "label"]]
    for d in range(4):
        for who in ("x", "y"):
            g = (d + len(who) + (who == "y")) % 3
            rows.append(["q", f"d{d}", who, words[g]])
            spec.judge("q", f"d{d}", who, g)
            spec.labels[words[g]] = float(g)
    (OUT / spec.name).write_text(csv_text(rows), encoding="utf-8")


def no_query_column(spec: Spec) -> None:
    """Headers that name neither the query nor the document: read from the
    values (each thing belongs to one query; two columns of grades)."""
    spec.layout = "wide"
    spec.mapping = {"query": "who", "source_id": "thing", "annotators": ["judge1", "judge2"]}
    rows: list[list[Any]] = [["who", "thing", "judge1", "judge2"]]
    for k in range(4):
        pair = (k % 3, (k * 2) % 3)
        rows.append(["q1" if k < 2 else "q2", f"item{k}", *pair])
        spec.judge("q1" if k < 2 else "q2", f"item{k}", "judge1", pair[0])
        spec.judge("q1" if k < 2 else "q2", f"item{k}", "judge2", pair[1])
    (OUT / spec.name).write_text(csv_text(rows, "\t"), encoding="utf-8")


SHEETS: list[tuple[str, Callable[[Spec], None]]] = [
    ("issue_batch7.xlsx", issue_batch7_xlsx),
    ("issue_batch7_cp1252.csv", issue_batch7_cp1252),
    ("mturk_batch_results.csv", mturk_batch),
    ("label_studio_export.csv", label_studio),
    ("quepid_ratings.csv", quepid),
    ("hand_made_long.xlsx", hand_made_long),
    ("hand_made_wide.xlsx", hand_made_wide),
    ("french_cp1252.csv", french_cp1252),
    ("excel_unicode_text.txt", excel_unicode_text),
    ("bom_bad_to_perfect.csv", bom_bad_to_perfect),
    ("qid_docno_rater_rating.csv", qid_docno_rater_rating),
    ("run_12_judgments.xlsx", run_with_judgments),
    ("rag_support.tsv", rag_support),
    ("wide_grade_columns.csv", wide_grade_columns),
    ("raters_trailing_numbers.csv", raters_trailing_numbers),
    ("meets_scale_wide.xlsx", meets_scale_wide),
    ("yes_no_binary.csv", yes_no_binary),
    ("unknown_labels.csv", unknown_labels),
    ("no_query_column.csv", no_query_column),
    *PLATFORM_SHEETS,
]


def _expected(spec: Spec) -> dict[str, Any]:
    by_candidate: dict[tuple[str, str], list[Any]] = {}
    for q, s, _who, g in spec.judgments:
        by_candidate.setdefault((q, s), []).append(g)
    candidates = []
    for (q, s), grades in by_candidate.items():
        value = consensus(grades, spec.consensus, spec.rounding)
        state = "number" if value is not None else (
            UNRATEABLE if UNRATEABLE in grades else UNKNOWN)
        candidates.append([q, s, value, state])
    return {
        "flags": spec.flags, "sheet": spec.sheet, "header_row": spec.header_row,
        "layout": spec.layout, "mapping": spec.mapping, "consensus": spec.consensus,
        "rounding": spec.rounding,
        "judgments": [[q, s, who, g if isinstance(g, str) else float(g)]
                      for q, s, who, g in spec.judgments],
        "candidates": candidates,
        "rejected": [list(x) for x in spec.rejected],
        "labels": spec.labels, "skipped": sorted(spec.skipped), "excluded": spec.excluded,
        "rubric": spec.rubric, "ranking": spec.ranking,
    }


def main() -> None:
    OUT.mkdir(exist_ok=True)
    expected = {}
    for name, make in SHEETS:
        spec = Spec(name)
        make(spec)
        expected[name] = _expected(spec)
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    print(f"wrote {len(SHEETS)} sheets and expected.json to {OUT}")


if __name__ == "__main__":
    main()
