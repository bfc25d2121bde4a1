"""Render the application icon (``resources/icons/ndcg-worksheet.svg``) to the
PNG sizes a desktop asks for: ``resources/icons/<N>x<N>/ndcg-worksheet.png``.

Run after editing the SVG: ``QT_QPA_PLATFORM=offscreen python .ci/icons.py``;
``tests/test_desktop_entry.py`` checks every size is there and square.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from app.desktop_entry import ICON_SIZES

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def main() -> int:
    QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ICONS / "ndcg-worksheet.svg"))
    for size in ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        out = ICONS / f"{size}x{size}" / "ndcg-worksheet.png"
        out.parent.mkdir(exist_ok=True)
        image.save(str(out), "PNG")
        print(f"wrote {out.relative_to(ICONS.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
