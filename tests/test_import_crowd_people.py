"""Who judged, in crowd platforms' exports: the people counted on the rows
imported (a preview response is no one's judgment), named by the
platform's participant id where a column holds one, and an annotation
tool's annotator id read as who judged, never as a measure."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from core.io.annotator import import_annotations, preview
from core.io.annotator.report import CONFLICT, DUPLICATE

DATA = Path(__file__).parent / "data" / "annotators"


def _guess(report_guesses: list[str], field: str) -> str:
    return next(g for g in report_guesses if g.startswith(f"{field}: "))


def test_the_people_are_counted_after_the_preview_rows_are_skipped():
    """Qualtrics' export holds a preview and a test response (rows 4 and
    8, skipped): 4 respondents remain, and the guess says 4 (it said '6
    people, each item judged by 6 of them', the skipped rows counted)."""
    result = import_annotations(DATA / "qualtrics_export.csv")
    report = result.report
    assert report.excluded == {"preview": 2}
    assert len(result.document.annotators) == 4
    assert _guess(report.guesses(), "annotator") == (
        "annotator: ResponseId, read from its values; 4 people, each item judged by 4 of them")
    # and the queries' and sources' rows are the 4 respondents' (they were 6's: 18 and 6)
    assert _guess(report.guesses(), "query").endswith("; 2 values, each on 12 rows on average")
    assert _guess(report.guesses(), "source id").endswith(
        "; 6 values, each on 4 rows on average")
    # the wizard's mapping page shows the same reason
    reasons = dict(preview(DATA / "qualtrics_export.csv").mapping.reasons)
    assert reasons["annotator"].endswith("; 4 people, each item judged by 4 of them")


def test_a_respondent_s_blank_items_count_no_one_out(tmp_path: Path):
    """Counted on the rows kept, not on the grades: a respondent who left
    an item blank still judged the survey (3 people, items judged by 3)."""
    with open(DATA / "qualtrics_export.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    status = rows[0].index("Status")
    kept = [*rows[:3], *(r for r in rows[3:] if r[status] == "IP Address")][:6]
    path = tmp_path / "three.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(kept)
    report = import_annotations(path).report
    assert report.excluded == {}
    assert _guess(report.guesses(), "annotator").endswith(
        "; 3 people, each item judged by 3 of them")


def _label_studio(path: Path) -> Path:
    """Label Studio's JSON export with ``completed_by`` expanded (the user's
    id, e-mail and initials) and ``updated_by`` the user's id again: three
    annotators, each judging the same four passages of two queries."""
    people = [(1, "ana@acme.io", "an"), (2, "ben@acme.io", "be"), (3, "chen@acme.io", "ch")]
    labels = ["Not relevant", "Relevant", "Highly relevant"]
    tasks = []
    for t, (query, doc) in enumerate([("q1", "d1"), ("q1", "d2"), ("q2", "d3"), ("q2", "d4")]):
        annotations = [{
            "id": 100 + 3 * t + n, "completed_by": {"id": uid, "email": email,
                                                    "first_name": "", "initials": initials},
            "updated_by": uid, "was_cancelled": False, "lead_time": 4.5 + 7 * t + n,
            "result": [{"value": {"choices": [labels[(t + n) % 3]]}, "from_name": "relevance",
                        "to_name": "passage", "type": "choices"}]}
            for n, (uid, email, initials) in enumerate(people)]
        tasks.append({"id": t + 1, "annotations": annotations,
                      "data": {"query": query, "doc_id": doc}})
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def test_label_studio_s_user_id_is_read_as_who_judged(tmp_path: Path):
    """``completed_by.id`` (and ``updated_by``, ``completed_by.initials``)
    match the annotators' e-mails one to one: who judged, named another way,
    not 'a measure of each judgment' (as they were said before)."""
    result = import_annotations(_label_studio(tmp_path / "project.json"))
    report = result.report
    assert result.document.annotators == ["ana@acme.io", "ben@acme.io", "chen@acme.io"]
    why = {c.header: c.reason for c in report.columns}
    for header in ("annotations.completed_by.id", "annotations.updated_by",
                   "annotations.completed_by.initials"):
        assert why[header] == (
            f"{header}: one value per annotator (annotations.completed_by.email), the same on "
            "each of their rows: who judged, named another way; not imported")
    # a number per judgment stays one
    assert why["annotations.id"].startswith("annotations.id: numbers 100 to 111, varying")


def _prolific(path: Path, pids: list[str], header: str = "PROLIFIC_PID") -> Path:
    """Qualtrics' export of a Prolific study: ``PROLIFIC_PID`` (or another
    ``header`` holding ``pids``; blank on the preview and test responses,
    which no participant gave) and ``SESSION_ID`` beside ``ResponseId``."""
    with open(DATA / "qualtrics_export.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    status = rows[0].index("Status")
    rows[0] += [header, "SESSION_ID"]
    rows[1] += [header, "SESSION_ID"]
    rows[2] += [f'{{"ImportId":"{header}"}}', '{"ImportId":"SESSION_ID"}']
    given = iter(pids)
    for n, r in enumerate(rows[3:]):
        respondent = r[status] == "IP Address"
        r += [next(given) if respondent else "", f"s{n}x9"]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


PIDS = ["5f8a1c2b3d4e5f6a7b8c9d01", "60b1c2d3e4f5a6b7c8d9e0f1", "61aa22bb33cc44dd55ee66ff",
        "62cc0011aa22bb33cc44dd55"]


def test_a_prolific_study_s_people_are_named_by_their_participant_id(tmp_path: Path):
    """Each respondent's ``PROLIFIC_PID``, the same on all of their items
    and one per response, names them (they were named by ``ResponseId``, the
    PID left out as '4 distinct values, no role read from them'); the
    report says which column named them and the response id is said as
    naming them too."""
    result = import_annotations(_prolific(tmp_path / "prolific.csv", PIDS))
    report = result.report
    assert result.document.annotators == PIDS
    assert report.column_names[report.mapping.annotator] == "PROLIFIC_PID"
    assert _guess(report.guesses(), "annotator") == (
        "annotator: PROLIFIC_PID, read from its values: the participant's id, one per "
        "respondent (ResponseId), the same on each of their rows; 4 people, each item "
        "judged by 4 of them")
    why = {c.header: c.reason for c in report.columns}
    assert why["ResponseId"] == (
        "ResponseId: one value per annotator (PROLIFIC_PID), the same on each of their rows: "
        "who judged, named another way; not imported")
    assert why["IPAddress"] == "IPAddress: 4 distinct values, no role read from them; not imported"


def test_a_participant_who_answered_twice_keeps_the_responses_apart(tmp_path: Path):
    """One participant id on two responses names no one response: the
    people stay named by ``ResponseId`` (two responses of one person are
    two sets of grades the import would merge)."""
    result = import_annotations(_prolific(tmp_path / "twice.csv", [*PIDS[:3], PIDS[0]]))
    assert result.report.column_names[result.report.mapping.annotator] == "ResponseId"
    assert len(result.document.annotators) == 4


def test_a_participant_s_group_names_no_one(tmp_path: Path):
    """A column said of the participant (``participant_group``,
    ``Participant condition``, ``worker_type``) that happens to differ
    between the few respondents looked at is no participant's id: the people
    stay named by ``ResponseId`` (they were named 'control', 'treatment',
    ..., and further down a group's respondents would have been one
    annotator, their grades of an item conflicts, the first kept)."""
    for header in ("participant_group", "Participant condition", "worker_type"):
        sheet = _prolific(tmp_path / "group.csv", ["control", "treatment", "pilot", "holdout"],
                          header=header)
        result = import_annotations(sheet)
        assert result.report.column_names[result.report.mapping.annotator] == "ResponseId"
        assert result.document.annotators == [
            "R_1OzLh4sN7cEfP2b", "R_2vXw9JtRkQ5dM3c", "R_7bHn3FgUy6sLq4d", "R_6tGf2DsQi9xJm6f"]


def test_a_participant_who_answered_twice_past_the_rows_looked_at_keeps_them_apart(
        tmp_path: Path):
    """The participant id names one response in the first rows (those the
    guess profiles, 500) but two further down: the people stay named by
    ``ResponseId`` in the whole sheet (they were named by the PID, and the
    last response's grades merged into the first's, each a conflict, the
    first kept)."""
    with open(DATA / "qualtrics_export.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    status, response = rows[0].index("Status"), rows[0].index("ResponseId")
    respondent = next(r for r in rows[3:] if r[status] == "IP Address")
    rows = rows[:3] + [[*respondent[:response], f"R_{n:04d}", *respondent[response + 1:]]
                       for n in range(520)]
    for n, r in enumerate(rows):
        r.append("PROLIFIC_PID" if n < 2 else '{"ImportId":"PROLIFIC_PID"}' if n == 2
                 else f"pid{(n - 3) % 519:04d}")  # the last response's PID is the first's
    path = tmp_path / "twice-late.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    result = import_annotations(path)
    assert result.report.column_names[result.report.mapping.annotator] == "ResponseId"
    assert len(result.document.annotators) == 520
    # and the PID is not said to name them (it was 'who judged, named another way')
    why = {c.header: c.reason for c in result.report.columns}
    assert why["PROLIFIC_PID"] == (
        "PROLIFIC_PID: one value per annotator (ResponseId) in the first rows, not further "
        "down ('pid0000' beside 'R_0000' and 'R_0519'): who judged stays named by "
        "ResponseId; not imported")


def test_a_declared_annotator_column_is_never_renamed(tmp_path: Path):
    """``--map annotator=ResponseId`` (the wizard's annotator chosen): the
    people stay named by the responses, the PID said as naming them too."""
    from core.io.annotator.detect import read_guessed
    from core.io.annotator.overrides import guess_mapping

    sheet = _prolific(tmp_path / "declared.csv", PIDS)
    mapping = guess_mapping(read_guessed(sheet), fields={"annotator": "ResponseId"})
    result = import_annotations(sheet, mapping)
    assert result.document.annotators[0] == "R_1OzLh4sN7cEfP2b"
    why = {c.header: c.reason for c in result.report.columns}
    assert why["PROLIFIC_PID"].startswith("PROLIFIC_PID: one value per annotator (ResponseId)")


def test_a_respondent_s_progress_and_duration_are_said_of_the_respondent(tmp_path: Path):
    """Qualtrics' ``Progress`` (60 to 100 here: some respondents left the
    survey part way) and ``Duration (in seconds)`` hold one value per
    respondent, the same on each of their items: said of who judged (they
    were said 'varying between one item's judgments (a measure of each
    judgment: no ranking)', as though each judgment had its own)."""
    with open(DATA / "qualtrics_export.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    progress = rows[0].index("Progress")
    for n, r in enumerate(rows[3:]):
        r[progress] = str([100, 85, 100, 60, 100, 100][n])
    path = tmp_path / "progress.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    why = {c.header: c.reason for c in import_annotations(path).report.columns}
    assert why["Progress"] == (
        "Progress: numbers 60 to 100, the same on all of each annotator's rows (ResponseId): "
        "said of who judged, not of a judgment (no ranking); not imported")
    assert why["Duration (in seconds)"] == (
        "Duration (in seconds): numbers 642 to 827, the same on all of each annotator's rows "
        "(ResponseId): said of who judged, not of a judgment (no ranking); not imported")


def test_preview_rows_kept_name_what_they_are(tmp_path: Path):
    """A Prolific study's export imported with ``--keep preview``: the
    preview and the test response hold no ``PROLIFIC_PID``; each is named by
    what it is and its file row (they were one annotator '(no name)', the
    second one's grades dropped as the first's repeats), and the
    report says so."""
    from core.io.annotator.detect import read_guessed
    from core.io.annotator.overrides import guess_mapping

    sheet = _prolific(tmp_path / "kept.csv", PIDS)
    mapping = guess_mapping(read_guessed(sheet)).replace(keep=("preview",))
    result = import_annotations(sheet, mapping)
    assert result.document.annotators == [
        "preview (row 4)", PIDS[0], PIDS[1], PIDS[2], "preview (row 8)", PIDS[3]]
    assert result.report.notes[0] == (
        "2 rows kept (--keep preview) name no one in PROLIFIC_PID, each named by what it is "
        "and its row: 'preview (row 4)': a preview response, not a respondent's: Status is "
        "'Survey Preview'; 'preview (row 8)': a preview response, not a respondent's: Status "
        "is 'Survey Test'")
    # each preview's grades are its own: no conflict between them
    assert not result.report.of_kind(CONFLICT, DUPLICATE)


def test_preview_rows_kept_are_counted_with_the_people(tmp_path: Path):
    """``--keep preview``: the guess counts the people and items the import
    imports, the preview and the test response each one person (it said
    '4 people, each item judged by 4 of them' while 6 were imported, the
    query and source on 12 and 4 rows where 18 and 6 were read), by
    PROLIFIC_PID and by ResponseId declared; the wizard's preview alike."""
    from core.io.annotator.command import import_sheet

    sheet = _prolific(tmp_path / "kept.csv", PIDS)
    result = import_sheet(sheet, keep=["preview"])
    assert len(result.document.annotators) == 6
    guesses = result.report.guesses()
    assert _guess(guesses, "annotator").endswith("; 6 people, each item judged by 6 of them")
    assert _guess(guesses, "query").endswith("; 2 values, each on 18 rows on average")
    assert _guess(guesses, "source id").endswith("; 6 values, each on 6 rows on average")
    declared = import_sheet(sheet, keep=["preview"], fields={"annotator": "ResponseId"})
    assert len(declared.document.annotators) == 6
    assert _guess(declared.report.guesses(), "annotator") == (
        "annotator: ResponseId, declared; 6 people, each item judged by 6 of them")
    seen = preview(sheet, keep=("preview",))
    assert seen.mapping.keep == ("preview",)
    assert dict(seen.mapping.reasons)["annotator"].endswith("; 6 people, each item judged by "
                                                            "6 of them")
    # not kept: the 4 respondents, as before
    assert _guess(import_sheet(sheet).report.guesses(), "annotator").endswith(
        "; 4 people, each item judged by 4 of them")


def _named(path: Path, people: list[tuple[str, str]]) -> Path:
    """A long sheet judged by ``people`` (e-mail, full name), each of them
    grading the same 8 documents of two queries."""
    rows: list[list[object]] = [["query", "doc_id", "Email", "Full name", "grade"]]
    for n, (q, d) in enumerate((q, d) for q in ("solar panels", "kettle descale")
                               for d in range(4)):
        rows += [[q, f"{q[:3]}-{d}", email, name, (n + w) % 4]
                 for w, (email, name) in enumerate(people)]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def test_a_full_name_beside_the_e_mails_names_the_same_people(tmp_path: Path):
    """A column of full names, one to one with the e-mails across the
    sheet, is who judged named another way (it was '3 distinct values, no
    role read from them'); two people of one name are not."""
    people = [("ana@acme.io", "Ana Lopez"), ("ben@acme.io", "Ben O'Neil"),
              ("chen@acme.io", "Chen van der Berg")]
    result = import_annotations(_named(tmp_path / "names.csv", people))
    assert result.document.annotators == ["ana@acme.io", "ben@acme.io", "chen@acme.io"]
    why = {c.header: c.reason for c in result.report.columns}
    assert why["Full name"] == (
        "Full name: one value per annotator (Email), the same on each of their rows: who "
        "judged, named another way; not imported")
    twins = [*people[:2], ("ana.l@acme.io", "Ana Lopez")]
    why = {c.header: c.reason for c in import_annotations(
        _named(tmp_path / "twins.csv", twins)).report.columns}
    assert why["Full name"] == "Full name: 2 distinct values, no role read from them; not imported"
