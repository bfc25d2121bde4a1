"""A worksheet CSV/TSV is written in the encoding asked for (the one it was
read in, so a file Excel saved as Windows-1252 stays so), reads back with
the same text in it, and a character the encoding lacks is refused before
anything is written, naming the candidate and the column."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import InputError
from core.io.delimited import cannot_encode, read_delimited, text_encoding, write_delimited
from core.io.textfile import DETECT
from core.model.document import Document


def _doc(note: str = "déjà vu") -> Document:
    doc = Document.from_columns(query=["café", "café"], source_id=["Très", "b€"],
                                score=[2.0, 1.0], grade=[1.0, None])
    doc.note[0] = note
    return doc


@pytest.mark.parametrize(("codec", "head"), [
    ("cp1252", b"query,"), ("utf-8", b"query,"), ("utf-8-sig", b"\xef\xbb\xbfquery,"),
    ("utf-16", b"\xff\xfeq\x00"),
])
def test_a_worksheet_is_written_in_its_encoding_and_reads_back(
        tmp_path: Path, codec: str, head: bytes) -> None:
    path = tmp_path / "w.csv"
    write_delimited(_doc(), path, encoding=codec)
    data = path.read_bytes()
    assert data.startswith(head)
    assert "café,Très," in data.decode(codec)
    assert "b€" in data.decode(codec)
    back = read_delimited(path, encoding=DETECT)
    assert text_encoding(back) == codec
    assert (back.query_ids, back.source_id.tolist()) == (["café"], ["Très", "b€"])
    assert back.note.tolist() == ["déjà vu", ""]


def test_a_character_the_encoding_lacks_is_refused_and_nothing_written(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    path.write_bytes(b"before")
    doc = _doc(note="\u0141\u00f3d\u017a")  # Łódź: Windows-1252 has no Ł
    with pytest.raises(InputError) as info:
        write_delimited(doc, path, encoding="cp1252")
    err = info.value
    assert err.problem == ("the note of query 'café', source 'Très' holds '\u0141' (U+0141), "
                           "which cp1252 cannot hold")
    assert (err.file, err.column) == (str(path), "note")
    assert "UTF-8 with BOM" in (err.hint or "")
    assert path.read_bytes() == b"before"
    assert not list(tmp_path.glob("*.tmp*"))
    assert cannot_encode(doc, "cp1252", path).problem == err.problem  # type: ignore[union-attr]
    assert cannot_encode(doc, "utf-8-sig", path) is None
    assert cannot_encode(_doc(), "cp1252", path) is None
    write_delimited(doc, path, encoding="utf-8-sig")
    assert read_delimited(path, encoding=DETECT).note.tolist()[0] == "\u0141\u00f3d\u017a"


def test_an_unknown_encoding_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="'klingon' is not an encoding"):
        write_delimited(_doc(), tmp_path / "w.csv", encoding="klingon")
    assert not (tmp_path / "w.csv").exists()


@pytest.mark.parametrize(("bom", "codec"), [
    (b"", "utf-8"), (b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
])
def test_a_stray_byte_is_named_as_it_is_with_or_without_a_byte_order_mark(
        tmp_path: Path, bom: bytes, codec: str) -> None:
    """The bug: behind a UTF-8 byte order mark (Excel's "CSV UTF-8") the
    stray byte was placed three bytes early, so the message named the byte
    and character before it, a comma: 'byte 0x2C (character 5)' for the 0xFF
    that is character 8 of line 3 (the decoder counts from after the mark)."""
    head = "query,source_id,score,grade\r\nq1,a,2,3\r\nq1,b,1,".encode(codec)
    stray = b"\xff" if codec == "utf-8" else b"\x00\xd8" if codec == "utf-16-le" \
        else b"\x00\x00\x11\x00"  # (a lone surrogate; past U+10FFFF)
    path = tmp_path / "judged.csv"
    path.write_bytes(bom + head + stray + "\r\n".encode(codec))
    with pytest.raises(InputError) as caught:
        read_delimited(path)
    said = str(caught.value)
    assert "line 3" in said, said
    assert f"byte 0x{stray[:1].hex().upper()} (character 8)" in said, said
