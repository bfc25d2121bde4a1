"""The desktop citizen (issue 35): the icon in every size, the freedesktop
entry and the AppStream metainfo clean under their validators (apt:
desktop-file-utils, appstream; ``.ci/run`` installs them), and the per-user
install that a file manager's "Open with" reads, undone without a trace."""

from __future__ import annotations

import shutil
import struct
import subprocess
import tomllib
from pathlib import Path

import pytest

from app.desktop_entry import (
    APP_ID,
    ICON_SIZES,
    desktop_exec,
    install_desktop_entry,
    uninstall_desktop_entry,
)
from app.launcher import main
from app.settings import APPLICATION
from core.model.bundled import bundled
from tests.conftest import REPO

ENTRY = bundled(f"desktop/{APP_ID}.desktop")
METAINFO = bundled(f"desktop/{APP_ID}.metainfo.xml")
OPENS = {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
         "application/vnd.oasis.opendocument.spreadsheet", "text/csv",
         "text/tab-separated-values"}


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:  # a missing validator fails: .ci/run installs it
        pytest.fail(f"{name} is not installed (apt: desktop-file-utils, appstream)")
    return found


def _validate_entry(path: Path) -> str:
    done = subprocess.run([_tool("desktop-file-validate"), str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def _keys(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def test_the_entry_and_the_metainfo_validate_clean():
    assert _validate_entry(ENTRY) == ""
    done = subprocess.run([_tool("appstreamcli"), "validate", "--no-net", "--pedantic",
                           str(METAINFO)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    assert "Validation was successful." in done.stdout
    assert "P:" not in done.stdout
    assert "I:" not in done.stdout


def test_the_entry_names_the_app_its_types_and_its_version():
    keys = _keys(ENTRY)
    assert keys["Icon"] == APP_ID
    # Qt names the windows' X11 class after the application (WM_CLASS's
    # second string, seen with xprop): the desktop matches it to the entry.
    assert keys["StartupWMClass"] == APPLICATION
    assert set(keys["MimeType"].strip(";").split(";")) == OPENS
    text = METAINFO.read_text(encoding="utf-8")
    assert f"<id>{APP_ID}</id>" in text
    assert f'<launchable type="desktop-id">{APP_ID}.desktop</launchable>' in text
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert f'<release version="{project["version"]}"' in text


@pytest.mark.parametrize("size", ICON_SIZES)
def test_the_icon_ships_in_each_size(size: int):
    png = bundled(f"icons/{size}x{size}/ndcg-worksheet.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (size, size)  # the IHDR's width, height


def test_exec_quotes_a_command_as_the_spec_says():
    assert desktop_exec(["/opt/ndcg/ndcg-worksheet"]) == "/opt/ndcg/ndcg-worksheet %f"
    # reserved characters: double quotes, with ", `, $ and \ escaped, then the
    # string escape doubles each backslash; a percent sign is doubled
    assert desktop_exec(['/home/a b/100% "x"/$HOME/bin']) == (
        r'"/home/a b/100%% \\"x\\"/\\$HOME/bin" %f')
    assert desktop_exec(["/usr/bin/python3", "-m", "app.launcher"]) == (
        "/usr/bin/python3 -m app.launcher %f")


def test_install_then_uninstall_leaves_nothing(tmp_path: Path):
    data = tmp_path / "share"
    command = [str(tmp_path / "my apps" / "ndcg-worksheet")]
    written = install_desktop_entry(data, command)
    entry = data / "applications" / f"{APP_ID}.desktop"
    assert entry in written
    assert (data / "icons" / "hicolor" / "48x48" / "apps" / f"{APP_ID}.png").is_file()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    assert (data / "metainfo" / f"{APP_ID}.metainfo.xml").read_bytes() == METAINFO.read_bytes()
    _validate_entry(entry)
    assert _keys(entry)["Exec"] == f'"{command[0]}" %f'
    if shutil.which("update-desktop-database"):  # "Open with" reads this cache
        cache = (data / "applications" / "mimeinfo.cache").read_text()
        assert f"text/csv={APP_ID}.desktop;" in cache.splitlines()
    assert set(uninstall_desktop_entry(data)) == set(written)
    assert list(tmp_path.rglob("*")) == [data]  # the data folder only, empty
    assert uninstall_desktop_entry(data) == []


def test_uninstall_keeps_what_others_installed(tmp_path: Path):
    apps = tmp_path / "applications"
    apps.mkdir()
    other = apps / "other.desktop"
    other.write_text("[Desktop Entry]\nType=Application\nName=Other\nExec=other %f\n"
                     "MimeType=text/csv;\n")
    install_desktop_entry(tmp_path, ["/bin/ndcg-worksheet"])
    uninstall_desktop_entry(tmp_path)
    assert sorted(p.name for p in apps.iterdir()) == (
        ["mimeinfo.cache", "other.desktop"] if shutil.which("update-desktop-database")
        else ["other.desktop"])
    assert not (tmp_path / "icons").exists()


def test_the_flags_install_under_xdg_data_home(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as done:
        main(["--install-desktop-entry"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("installed the desktop entry: 10 files")
    exec_line = _keys(tmp_path / "applications" / f"{APP_ID}.desktop")["Exec"]
    assert exec_line.endswith(" %f")
    with pytest.raises(SystemExit):
        main(["--uninstall-desktop-entry"])
    assert capsys.readouterr().out.startswith("removed the desktop entry: 10 files")
    assert list(tmp_path.iterdir()) == []


def test_a_data_folder_that_cannot_be_written_is_one_line(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    with pytest.raises(SystemExit) as done:
        main(["--install-desktop-entry"])
    assert done.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ndcg-worksheet: {blocker}/applications: ")
    assert err.count("\n") == 1
    assert blocker.read_text() == "a file where the data folder should be"


def test_the_windows_carry_the_icon_and_the_desktop_entry(qapp):
    from PySide6.QtGui import QGuiApplication

    from app.settings import ensure_identity

    ensure_identity()
    assert QGuiApplication.desktopFileName() == APP_ID
    sizes = {s.width() for s in QGuiApplication.windowIcon().availableSizes()}
    assert sizes == set(ICON_SIZES)


def test_other_systems_are_told_no(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.platform", "win32")
    with pytest.raises(SystemExit) as done:
        main(["--install-desktop-entry"])
    assert done.value.code == 1
    assert capsys.readouterr().err == (
        "ndcg-worksheet: desktop entry: only Linux and BSD desktops read one "
        "(this is win32)\n")
    assert list(tmp_path.iterdir()) == []
