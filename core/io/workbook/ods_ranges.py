"""What an ``.xlsx`` sheet written by our export declares over ranges of
cells, as OpenDocument: its lists of choices (data validations of type
list) and its conditional colours (a cell equal to a word, a grade state or
a query's status, in the app's colour for it: :func:`core.io.workbook.page.colour_words`).
Cell references are the xlsx's (``A1:C3``); :mod:`core.io.workbook.ods_writer`
applies both to the cells it writes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import escape, unescape

from core.io.workbook.ods_styles import number_style
from core.io.workbook.openformula import range_address, translate

__all__ = ["Colours", "cell_range", "column", "condition_set", "quoted",
           "validation_definitions", "validations"]

Range = tuple[int, int, int, int]


def column(letters: str) -> int:
    """A column's letters as its 0-based index."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def cell_range(ref: str) -> Range:
    """``A1:C3`` as 0-based (row0, col0, row1, col1)."""
    a, _, b = ref.partition(":")
    b = b or a
    ma = re.fullmatch(r"([A-Z]+)([0-9]+)", a.replace("$", ""))
    mb = re.fullmatch(r"([A-Z]+)([0-9]+)", b.replace("$", ""))
    if ma is None or mb is None:
        raise ValueError(f"not a cell range: {ref}")
    return (int(ma.group(2)) - 1, column(ma.group(1)), int(mb.group(2)) - 1, column(mb.group(1)))


def quoted(sheet: str) -> str:
    """A sheet's name as a formula writes it."""
    return sheet if re.fullmatch(r"\w+", sheet) else "'" + sheet.replace("'", "''") + "'"


_VALIDATION = re.compile(r"<dataValidation\b([^>]*)>(.*?)</dataValidation>", re.S)


def _lists(sheet: str, tail: str) -> Iterator[tuple[str, str, str, dict[str, str]]]:
    """A sheet's lists of choices (xlsx data validations of type list): per
    cell range, (name, range, source, the validation's attributes). A list
    drawn from a named range is named after it; the others after their
    sheet and first cell."""
    for attrs, body in _VALIDATION.findall(tail):
        a = {k: unescape(v) for k, v in re.findall(r'(\w+)="([^"]*)"', attrs)}
        found = re.search(r"<formula1>(.*?)</formula1>", body, re.S)
        if a.get("type") != "list" or found is None:
            continue
        source = unescape(found.group(1))
        for ref in a.get("sqref", "").split():
            name = source if re.fullmatch(r"[A-Za-z_]\w*", source) else \
                f"choices_{re.sub(r'[^A-Za-z0-9]', '_', sheet)}_{ref.split(':')[0]}"
            yield name, ref, source, a


def validations(sheet: str, tail: str) -> list[tuple[str, Range]]:
    """Each list of choices' name and cell range (their ODF:
    :func:`validation_definitions`)."""
    return [(name, cell_range(ref)) for name, ref, _, _ in _lists(sheet, tail)]


def validation_definitions(sheet: str, tail: str) -> dict[str, str]:
    """The ODF ``<table:content-validation>`` elements of a sheet's lists of
    choices, by name."""
    out = {}
    for name, ref, source, a in _lists(sheet, tail):
        if source.startswith('"'):
            choices = ";".join(f'"{c}"' for c in source.strip('"').split(","))
        else:
            choices = translate(source)[len("of:="):]
        kind = {"warning": "warning", "information": "information"}.get(
            a.get("errorStyle", ""), "stop")
        message = (f'<table:error-message table:message-type="{kind}" table:display="true" '
                   f'table:title="{escape(a.get("errorTitle", ""))}"><text:p>'
                   f'{escape(a.get("error", ""), quote=False)}</text:p></table:error-message>')
        base = range_address(f"{quoted(sheet)}!{ref.split(':')[0]}")
        out[name] = (
            f'<table:content-validation table:name="{name}" '
            f'table:condition="{escape(f"of:cell-content-is-in-list({choices})")}" '
            'table:allow-empty-cell="true" table:display-list="unsorted" '
            f'table:base-cell-address="{escape(base)}">{message}</table:content-validation>')
    return out


_FORMATS = re.compile(r'<conditionalFormatting sqref="([^"]+)">(.*?)</conditionalFormatting>',
                      re.S)
_EQUAL = re.compile(r'<cfRule type="cellIs" dxfId="([0-9]+)"[^>]*operator="equal"[^>]*>'
                    r"<formula>([^<]*)</formula></cfRule>")
_EXPRESSION = re.compile(r'<cfRule type="expression" dxfId="([0-9]+)"[^>]*>'
                         r"<formula>([^<]*)</formula></cfRule>")
_CELL_STYLE = re.compile(r'<style:style style:name="ce([0-9]+)"([^>]*)>(.*?)</style:style>', re.S)
_Rules = tuple[tuple[int, str], ...]


def condition_set(first_row: int | str, sheet: str) -> str:
    """The name of the set of conditions of a number format's conditional
    format whose range starts at row ``first_row`` of ``sheet`` (a lifted
    query's block, :func:`core.io.workbook.formulas.lift_off`): its cell
    styles are ``ce<i>k`` + this, which the Candidates rows rendered as ODF
    name too."""
    return f"u{first_row}_{re.sub(r'[^A-Za-z0-9]', '_', sheet)}"


def _rgb(xml: str, tag: str) -> str | None:
    m = re.search(rf'<{tag} rgb="(?:[0-9A-Fa-f]{{2}})([0-9A-Fa-f]{{6}})"', xml)
    return "#" + m.group(1).lower() if m else None


class Colours:
    """A workbook's conditional colours (``styles_xml``: its xlsx
    ``styles.xml``, whose ``<dxfs>`` are the colours): each set of rules
    "a cell equal to this word takes that colour" (:meth:`ranges` finds a
    sheet's) becomes ODF's ``style:map`` conditions in copies of the cell
    styles (``ce<i>k<set>``, :meth:`automatic`), applying the common styles
    ``cf<dxf>`` (:meth:`common`): LibreOffice reads them as conditional
    formats, so a word the cell's formula gives later takes its colour too.
    A formula's number format (a lifted block's four decimals) becomes a
    ``style:map`` on the formula's truth (``is-true-formula``) in copies
    ``ce<i>k<set>`` named by :func:`condition_set`; rules of other kinds (a
    formula's colours) are not carried."""

    def __init__(self, styles_xml: str) -> None:
        found = re.search(r"<dxfs\b[^>]*>(.*?)</dxfs>", styles_xml, re.S)
        self._dxfs = re.findall(r"<dxf>(.*?)</dxf>", found.group(1), re.S) if found else []
        self.sets: dict[_Rules, int] = {}
        #: The sets of one formula's condition, by name: the format's dxf,
        #: the ODF condition and the cell its references are relative to.
        self.conditions: dict[str, tuple[int, str, str]] = {}

    def ranges(self, tail: str, sheet: str = "") -> list[tuple[Range, int | str]]:
        """A sheet's (its xlsx ``tail``: what follows its rows) coloured
        ranges, each with its set of rules' number; and its ranges whose
        number format a formula's truth applies (``sheet``: its name), each
        with its set's name (:func:`condition_set`). Rules of other kinds
        (a formula's colours) are not carried."""
        out: list[tuple[Range, int | str]] = []
        for sqref, body in _FORMATS.findall(tail):
            rules = tuple((int(d), unescape(f)) for d, f in _EQUAL.findall(body))
            if rules:
                k = self.sets.setdefault(rules, len(self.sets))
                out.extend((cell_range(ref), k) for ref in sqref.split())
                continue
            for d, formula in _EXPRESSION.findall(body)[:1]:
                if "<numFmt" not in self._dxfs[int(d)]:
                    continue  # (a formula's colours are not carried)
                first = sqref.split()[0].split(":")[0]
                name = condition_set(cell_range(first)[0] + 1, sheet)
                condition = "is-true-formula(" + translate("=" + unescape(formula))[
                    len("of:="):] + ")"
                base = range_address(f"{quoted(sheet)}!{first}")
                self.conditions[name] = (int(d), condition, base)
                out.extend((cell_range(ref), name) for ref in sqref.split())
        return out

    def automatic(self, cells: str) -> str:
        """The copies of the cell styles ``cells`` (``ce<i>`` elements) for
        each set of rules, with the set's conditions."""
        out: list[str] = []
        for rules, k in self.sets.items():
            maps = "".join(f'<style:map style:condition="{escape(f"cell-content()={word}")}" '
                           f'style:apply-style-name="cf{d}"/>' for d, word in rules)
            out.extend(f'<style:style style:name="ce{i}k{k}"{attrs}>{body}{maps}</style:style>'
                       for i, attrs, body in _CELL_STYLE.findall(cells))
        for name, (d, condition, base) in self.conditions.items():
            maps = (f'<style:map style:condition="{escape(condition)}" '
                    f'style:apply-style-name="cf{d}" '
                    f'style:base-cell-address="{escape(base)}"/>')
            out.extend(f'<style:style style:name="ce{i}k{name}"{attrs}>{body}{maps}'
                       "</style:style>" for i, attrs, body in _CELL_STYLE.findall(cells))
        return "".join(out)

    def common(self) -> str:
        """The colours as common cell styles ``cf<dxf>`` (for ``styles.xml``),
        and a number format's (a formula's condition's: four decimals) with
        its data style ``CN<dxf>`` beside it."""
        out = []
        for d, dxf in enumerate(self._dxfs):
            number = ""
            code = re.search(r'<numFmt\b[^>]*formatCode="([^"]*)"', dxf)
            if code:
                out.append(number_style(f"CN{d}", unescape(code.group(1))))
                number = f' style:data-style-name="CN{d}"'
            text = []
            colour = _rgb(dxf, "color")
            if colour:
                text.append(f'fo:color="{colour}"')
            if "<b/>" in dxf:
                text.append('fo:font-weight="bold"')
            fill = _rgb(dxf, "bgColor")
            body = f'<style:table-cell-properties fo:background-color="{fill}"/>' if fill else ""
            if text:
                body += f"<style:text-properties {' '.join(text)}/>"
            out.append(f'<style:style style:name="cf{d}" style:family="table-cell" '
                       f'style:parent-style-name="Default"{number}>{body}</style:style>')
        return "".join(out)
