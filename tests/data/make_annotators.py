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

import csv
import io
import json
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import xlsxwriter

OUT = Path(__file__).resolve().parent / "annotators"
UNKNOWN, UNRATEABLE = "unknown", "unrateable"
CREATED = datetime(2024, 3, 1, 9, 0, 0)


@dataclass
class Spec:
    """One sheet and what importing it must give."""

    name: str
    flags: list[str] = field(default_factory=list)
    sheet: str | None = None
    header_row: int = 1
    layout: str = "long"
    mapping: dict[str, Any] = field(default_factory=dict)
    consensus: str = "mean"
    rounding: str = "none"
    #: (query, source, annotator, grade | "unknown" | "unrateable"), in reading order.
    judgments: list[tuple[str, str, str, Any]] = field(default_factory=list)
    #: Judgments that must be rejected: (row, column as the report names it).
    rejected: list[tuple[int, str]] = field(default_factory=list)
    #: Labels read as grades (label as written -> grade).
    labels: dict[str, float] = field(default_factory=dict)
    #: The rows in the sheet that hold no judgment and are skipped (not blank).
    skipped: list[int] = field(default_factory=list)
    #: Rows a platform marks as not judgments, by kind -> how many (skipped).
    excluded: dict[str, int] = field(default_factory=dict)
    #: The rubric read from the file (labels' scale or numbers' range), when checked.
    rubric: str | None = None
    #: Where the ranking comes from: "score", "rank", or "" (judgments only).
    ranking: str = ""

    def exclude(self, row: int, kind: str) -> None:
        self.skipped.append(row)
        self.excluded[kind] = self.excluded.get(kind, 0) + 1

    def judge(self, q: Any, s: str, who: str, grade: Any) -> None:
        self.judgments.append((str(q), s, who, grade))


def consensus(values: list[Any], rule: str, rounding: str) -> float | None:
    """The oracle: the rule over the numeric grades, by hand."""
    nums = sorted(float(v) for v in values if not isinstance(v, str))
    if not nums:
        return None
    if rule == "mean":
        x = sum(nums) / len(nums)
    elif rule == "median":
        x = statistics.median(nums)
    elif rule == "majority":
        counts = {v: nums.count(v) for v in nums}
        top = max(counts.values())
        x = min(v for v, n in counts.items() if n == top)
    elif rule in ("min", "minimum"):
        x = nums[0]
    else:
        x = nums[-1]
    if rounding == "half-up":
        return float(math.floor(x + 0.5))
    if rounding == "floor":
        return float(math.floor(x))
    if rounding in ("ceil", "ceiling"):
        return float(math.ceil(x))
    return x


def _csv_text(rows: list[list[Any]], delimiter: str = ",", quote_all: bool = False,
              newline: str = "\r\n") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=newline,
                   quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
    w.writerows(rows)
    return buf.getvalue()


def _book(path: Path) -> xlsxwriter.Workbook:
    wb = xlsxwriter.Workbook(str(path))
    wb.set_properties({"created": CREATED, "author": "annotators"})
    return wb


def _col(c: int, header: str) -> str:
    """A workbook column as the import report names it."""
    return f"{chr(65 + c)} ({header})"


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
    wb = _book(OUT / spec.name)
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
    text = BATCH7_TITLE + "\r\n\r\n" + _csv_text([BATCH7_HEADER, *rows], ";")
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
    (OUT / spec.name).write_text(_csv_text(rows, quote_all=True), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, newline="\n"), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


def hand_made_long(spec: Spec) -> None:
    """A spreadsheet made by hand: an Instructions sheet first, a merged title,
    merged query cells, grades typed as text with spaces, marks, a formula
    in a grade cell, notes, and a trailing Total row."""
    spec.sheet, spec.header_row = "Judgments", 3
    spec.mapping = {"query": "Query", "source_id": "Document", "grade": "Relevance (0-3)",
                    "note": "Notes"}
    wb = _book(OUT / spec.name)
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
    wb = _book(OUT / spec.name)
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
    (OUT / spec.name).write_bytes(_csv_text(rows, ";").encode("cp1252"))


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
    (OUT / spec.name).write_bytes(_csv_text(rows, "\t").encode("utf-16"))


def bom_bad_to_perfect(spec: Spec) -> None:
    """UTF-8 with a BOM; Bad / Fair / Good / Excellent / Perfect; the median."""
    spec.flags, spec.consensus = ["--consensus", "median"], "median"
    spec.mapping = {"query": "query_id", "source_id": "doc_id", "grade": "label",
                    "annotator": "judge"}
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
    (OUT / spec.name).write_bytes(b"\xef\xbb\xbf" + _csv_text(rows).encode("utf-8"))


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
    (OUT / spec.name).write_text(_csv_text(rows, ";", newline="\n"), encoding="utf-8")


def run_with_judgments(spec: Spec) -> None:
    """A full run + judgment sheet; labels ``0: Bad`` ... ``4: Perfect``; and
    the same run as a TREC run file with its consensus as TREC qrels."""
    spec.sheet = "Run 12"
    spec.mapping = {"query": "Query ID", "source_id": "Document ID", "rank": "Rank",
                    "score": "Score", "annotator": "Rater", "grade": "Label"}
    spec.ranking = "score"
    words = ["Bad", "Fair", "Good", "Excellent", "Perfect"]
    wb = _book(OUT / spec.name)
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
    (OUT / spec.name).write_text(_csv_text(rows, "\t", newline="\n"), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, newline="\n"), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


def meets_scale_wide(spec: Spec) -> None:
    """Fails to meet ... Fully meets, two raters, a final grade, the minimum."""
    spec.flags, spec.consensus, spec.layout = ["--consensus", "min"], "min", "wide"
    spec.sheet = "Ratings"
    spec.mapping = {"query": "Query", "source_id": "URL", "annotators": ["Rater A", "Rater B"],
                    "note": "Comments"}
    words = ["Fails to meet", "Slightly meets", "Moderately meets", "Highly meets",
             "Fully meets"]
    wb = _book(OUT / spec.name)
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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, "\t"), encoding="utf-8")


# -- the platforms of issue 25 ----------------------------------------------------------
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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


def prolific_sheet(spec: Spec) -> None:
    """A Google Sheet filled by Prolific participants: a title row, ratings
    1-5 as numbers, a comment now and then."""
    spec.sheet, spec.header_row = "Responses", 2
    spec.mapping = {"query": "Query", "source_id": "Result", "grade": "Rating (1-5)",
                    "annotator": "Participant ID", "note": "Comments"}
    spec.rubric = "1,2,3,4,5"
    people = ["5f8e2a9c1b3d4e0012ab34cd", "60a1b2c3d4e5f60718293a4b", "61ff00aa11bb22cc33dd44ee",
              "5e9d8c7b6a5f4e3d2c1b0a99"]
    wb = _book(OUT / spec.name)
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
    (OUT / spec.name).write_text(_csv_text(rows, "\t", newline="\n"), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, newline="\n"), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, "\t", newline="\n"), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, quote_all=True), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows, newline="\n"), encoding="utf-8")


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
                spec.exclude(len(tasks) * 2 + len(annotations) + 1, "cancelled")
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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


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
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


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
    spec.excluded = {"preview": len(items)}
    spec.skipped = list(range(2, 2 + len(items)))
    spec.rubric = "1,2,3,4"
    (OUT / spec.name).write_text(_csv_text(rows), encoding="utf-8")


def prodigy_jsonl(spec: Spec) -> None:
    """Prodigy's choice interface, exported with ``prodigy db-out``: the
    options with ids, the chosen id in ``accept``, the annotator's session."""
    spec.mapping = {"query": "query", "source_id": "doc_id", "grade": "accept",
                    "annotator": "_annotator_id"}
    options = [{"id": 0, "text": "Not relevant"}, {"id": 1, "text": "Relevant"},
               {"id": 2, "text": "Highly relevant"}]
    lines = []
    n = 0
    for qi, q in enumerate(["solar roof cost", "learn japanese fast"]):
        for d in range(3):
            doc = f"cc-{qi}{d:04d}"
            for who in ("relevance-alice", "relevance-bob"):
                n += 1
                g = (qi + d + len(who)) % 3
                lines.append(json.dumps({
                    "query": q, "doc_id": doc, "text": f"Passage {d} about {q}.",
                    "options": options, "accept": [g], "answer": "accept",
                    "_input_hash": 1000003 * (qi * 10 + d), "_task_hash": 7000001 * n,
                    "_view_id": "choice", "_annotator_id": who, "_session_id": who,
                    "_timestamp": 1709800000 + 61 * n}))
                spec.judge(q, doc, who, g)
                spec.labels[options[g]["text"]] = float(g)
    spec.rubric = "0=Not relevant,1=Relevant,2=Highly relevant"
    (OUT / spec.name).write_text("\n".join(lines) + "\n", encoding="utf-8")


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
    ("prodigy_choice.jsonl", prodigy_jsonl),
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
