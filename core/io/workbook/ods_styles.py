"""The look of an ``.xlsx`` written by xlsxwriter (its ``styles.xml``) as
OpenDocument automatic styles: each cell format (``xf``) becomes a cell style
``ce<i>`` with its number format (display rounding, the "all" cutoff,
signs), bold and coloured text, fill, wrapping, alignment and whether the
cell is locked when its sheet is protected. Borders, fonts' faces and sizes
other than bold are left to LibreOffice's defaults."""

from __future__ import annotations

import re
from html import escape

__all__ = ["cell_styles", "number_style"]

_ATTR = re.compile(r'(\w+)="([^"]*)"')


def _attrs(tag: str) -> dict[str, str]:
    return dict(_ATTR.findall(tag))


def _elements(xml: str, outer: str, inner: str) -> list[str]:
    """The ``<inner>`` elements (whole) inside ``<outer>``."""
    m = re.search(rf"<{outer}\b[^>]*>(.*?)</{outer}>", xml, re.S)
    if m is None:
        return []
    return re.findall(rf"<{inner}\b[^>]*?/>|<{inner}\b[^>]*>.*?</{inner}>", m.group(1), re.S)


def _rgb(xml: str, tag: str) -> str | None:
    m = re.search(rf'<{tag} rgb="(?:[0-9A-Fa-f]{{2}})([0-9A-Fa-f]{{6}})"', xml)
    return "#" + m.group(1).lower() if m else None


def _section(name: str, code: str) -> str:
    """One section of an Excel number format as an ODF number style."""
    parts: list[str] = []
    for m in re.finditer(r'"([^"]*)"|([0#][0#,]*(?:\.([0#]+))?(?:E\+(0+))?%?)|\\(.)'
                         r'|([^"0#\\]+)', code):
        literal, number, decimals, exponent, escaped, other = m.groups()
        if number is not None and exponent is not None:  # (0.0000E+00: scientific)
            parts.append(f'<number:scientific-number number:decimal-places='
                         f'"{len(decimals or "")}" number:min-integer-digits="1" '
                         f'number:min-exponent-digits="{len(exponent)}"/>')
        elif number is not None:
            places = len(decimals or "")  # (a "#" decimal shown only when not 0: 0.0#)
            parts.append(f'<number:number number:decimal-places="{places}" '
                         f'number:min-decimal-places="{(decimals or "").count("0")}" '
                         'number:min-integer-digits="1"/>')
        else:
            text = literal if literal is not None else escaped if escaped is not None else other
            parts.append(f"<number:text>{escape(text or '', quote=False)}</number:text>")
    return f'<number:number-style style:name="{name}">{"".join(parts)}</number:number-style>'


def number_style(name: str, code: str) -> str:
    """An Excel number format (up to three sections, an ``[=N]`` condition)
    as ODF number styles: the sections as ``<name>P<i>`` maps of ``name``."""
    sections = code.split(";")
    cond = re.match(r"\[=([-0-9.]+)\]", sections[0])
    if len(sections) == 1:
        return _section(name, code)
    if cond:
        conditions = [f"value()={cond.group(1)}"]
        sections[0] = sections[0][cond.end():]
    elif len(sections) == 2:
        conditions = ["value()>=0"]
    else:
        conditions = ["value()>0", "value()<0"]
    out = [_section(f"{name}P{i}", s) for i, s in enumerate(sections[:-1])]
    maps = "".join(f'<style:map style:condition="{escape(c)}" style:apply-style-name="{name}P{i}"/>'
                   for i, c in enumerate(conditions))
    last = _section(name, sections[-1]).replace("</number:number-style>",
                                                maps + "</number:number-style>")
    return "".join(out) + last


def _num_formats(styles: str) -> dict[str, str]:
    from html import unescape

    return {a["numFmtId"]: unescape(a["formatCode"])
            for a in map(_attrs, re.findall(r"<numFmt\b[^>]*>", styles))}


def cell_styles(styles: str) -> tuple[str, int]:
    """The automatic styles (data styles and cell styles ``ce0`` ...) of an
    xlsx ``styles.xml``, and how many cell styles there are."""
    codes = _num_formats(styles)
    fonts = _elements(styles, "fonts", "font")
    fills = _elements(styles, "fills", "fill")
    xfs = _elements(styles, "cellXfs", "xf")
    data: dict[str, str] = {}
    out: list[str] = []
    builtin = {"2": "0.00", "1": "0", "10": "0.00%", "9": "0%", "4": "#,##0.00", "3": "#,##0"}
    for i, xf in enumerate(xfs):
        a = _attrs(xf[: xf.index(">")])
        code = codes.get(a.get("numFmtId", "0")) or builtin.get(a.get("numFmtId", "0"))
        number = ""
        if code and code != "General" and code != "@":
            key = f"N{a['numFmtId']}"
            if key not in data:
                data[key] = number_style(key, code)
            number = f' style:data-style-name="{key}"'
        cell = []
        fill = fills[int(a.get("fillId", "0"))] if fills else ""
        bg = _rgb(fill, "fgColor") if "solid" in fill else None
        if bg:
            cell.append(f'fo:background-color="{bg}"')
        if 'locked="0"' in xf:
            cell.append('style:cell-protect="none"')
        if 'wrapText="1"' in xf:
            cell.append('fo:wrap-option="wrap"')
        vertical = re.search(r'vertical="(top|center)"', xf)
        if vertical:
            where = "middle" if vertical.group(1) == "center" else "top"
            cell.append(f'style:vertical-align="{where}"')
        font = fonts[int(a.get("fontId", "0"))] if fonts else ""
        text = []
        if "<b/>" in font:
            text.append('fo:font-weight="bold"')
        colour = _rgb(font, "color")
        if colour:
            text.append(f'fo:color="{colour}"')
        size = re.search(r'<sz val="([0-9.]+)"', font)
        if size and size.group(1) != "11":
            text.append(f'fo:font-size="{size.group(1)}pt"')
        horizontal = re.search(r'horizontal="(left|center|right)"', xf)
        body = ""
        if cell:
            body += f"<style:table-cell-properties {' '.join(cell)}/>"
        if horizontal:
            align = {"left": "start", "right": "end", "center": "center"}[horizontal.group(1)]
            body += f'<style:paragraph-properties fo:text-align="{align}"/>'
        if text:
            body += f"<style:text-properties {' '.join(text)}/>"
        out.append(f'<style:style style:name="ce{i}" style:family="table-cell" '
                   f'style:parent-style-name="Default"{number}>{body}</style:style>')
    return "".join(data.values()) + "".join(out), len(xfs)
