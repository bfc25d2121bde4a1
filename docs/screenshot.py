"""Take docs/screenshot.png: the editor on the bundled example, under Xvfb.

    python docs/screenshot.py [--out docs/screenshot.png] [--query case-E]

Starts its own Xvfb on a free display (``Xvfb :N -screen 0 1400x900x24``),
runs the real window (``app.main.build_window``) with the file, clipboard and
find pieces installed, grabs the main window, and stops the Xvfb it started.
With ``--offscreen`` it uses Qt's offscreen platform instead (no X server).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def _free_display() -> int:
    for n in range(99, 140):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise SystemExit("no free X display between :99 and :139")


def start_xvfb() -> subprocess.Popen[bytes]:
    n = _free_display()
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        if proc.poll() is not None:
            raise SystemExit(f"Xvfb :{n} did not start (exit {proc.returncode})")
        time.sleep(0.05)
    os.environ["DISPLAY"] = f":{n}"
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    return proc


def take(out: Path, query: str | None) -> Path:
    import tempfile

    # Keep the user's settings and journal out of it: a throw-away home.
    home = tempfile.mkdtemp(prefix="ndcg-screenshot-")
    os.environ["XDG_CONFIG_HOME"] = str(Path(home) / "config")
    os.environ["XDG_STATE_HOME"] = str(Path(home) / "state")
    from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from app.main import build_window
    from app.settings import Settings

    _app = QApplication.instance() or QApplication(["ndcg-worksheet"])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      os.environ["XDG_CONFIG_HOME"])
    Settings().reviewer = "ana"
    window = build_window()
    window.resize(1400, 860)
    window.move(0, 0)
    window.show()
    # One graded unknown, so the audit log and the recomputed numbers show.
    doc = window.document
    q = doc.query_index("case-F-unknown")
    unknown = next(int(i) for i in doc.members(q) if doc.source_id[i] == "B")
    window.set_grade(unknown, 2.0, note="read the full text")
    if query:
        window.set_query(doc.query_index(query))
    # Staging only (the defaults belong to the window): room for the numbers.
    docks = window.docks
    window.resizeDocks([docks["summaryPanelDock"]], [420], Qt.Orientation.Horizontal)
    window.resizeDocks([docks["auditLogDock"]], [150], Qt.Orientation.Vertical)
    window.grid.resizeColumnsToContents()
    window.grid.setFocus()
    # Let the window map, lay out and paint (a local loop: app.quit() would close it).
    loop = QEventLoop()
    QTimer.singleShot(600, loop.quit)
    loop.exec()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        raise SystemExit(f"could not write {out}")
    window.undo_stack.setClean()
    window.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshot.png")
    parser.add_argument("--query", default="case-E", help="the query to show")
    parser.add_argument("--offscreen", action="store_true", help="no Xvfb: Qt offscreen")
    args = parser.parse_args(argv)
    xvfb = None
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    else:
        xvfb = start_xvfb()
    try:
        print(take(args.out, args.query))
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
