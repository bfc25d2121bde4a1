"""Run an installed NDCG Worksheet as a user would (issue 35): the installed
wheel in a fresh virtual environment (``.ci/install_check.py``) or the
one-folder bundle (``.ci/bundle.py``).

    python .ci/smoke_installed.py EXECUTABLE RESOURCES

EXECUTABLE is the installation's ``ndcg-worksheet``; RESOURCES the folder of
bundled data *inside that installation* (its ``core/resources``), so the
checks prove the data shipped. It checks:

* ``--version`` prints the project's version;
* ``example`` prints the bundled example's path inside the installation;
* ``evaluate`` on the bundled example gives case A's NDCG@2 (0.7967075809905066,
  hand-derived in docs/conventions.md: DCG 1 + 3/log2 3 over the ideal 3 + 1/log2 3);
* ``export`` writes the example as a TREC run and qrels;
* ``--install-desktop-entry`` writes an entry that runs this executable and
  validates, ``--uninstall-desktop-entry`` leaves nothing behind;
* the window opens with no file (on the bundled example) and on that TREC run
  with its qrels, and quits on Ctrl+Q with status 0. It runs on a private
  X server (Xvfb) through Qt's own xcb platform, the one users get, so a
  missing platform plugin or library in the installation shows; xdotool
  waits for the window's title and types Ctrl+Q as a user would.

Only the standard library: it runs under any Python, outside the
installation. Exits non-zero with one line on the first failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from product import REPO, clean_env

#: How long a window may take to appear, and to exit after Ctrl+Q (seconds).
WINDOW_WAIT = 60
CASE_A_NDCG_AT_2 = "case-A,2,2.8927892607143724,3.6309297535714578,0.7967075809905066,ok,3,3"


class SmokeError(Exception):
    pass


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=env or clean_env(), check=False)
    if done.returncode != 0:
        raise SmokeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def check_commands(exe: str, resources: Path, work: Path) -> tuple[Path, Path]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    got = run([exe, "--version"], work).strip()
    if got != f"ndcg-worksheet {project['version']}":
        raise SmokeError(f"--version printed {got!r}")
    # The README's way to the bundled example: ``ndcg-worksheet example``.
    example = Path(run([exe, "example", "--format", "xlsx"], work).strip())
    if example != resources / "example.xlsx":
        raise SmokeError(f"example printed {example}, not {resources / 'example.xlsx'}")
    out = run([exe, "evaluate", str(example), "--format", "csv"], work)
    if CASE_A_NDCG_AT_2 not in out.splitlines():
        raise SmokeError(f"evaluate {example}: case A's NDCG@2 is not 0.7967…:\n{out}")
    run_file, qrels = work / "example.run", work / "example.qrels"
    run([exe, "export", str(example), "-o", str(run_file)], work)
    run([exe, "export", str(example), "-o", str(qrels)], work)
    print(f"smoke: --version, evaluate and export ok ({got})")
    return run_file, qrels


def check_desktop_entry(exe: str, work: Path) -> None:
    """``--install-desktop-entry`` names this executable and validates;
    ``--uninstall-desktop-entry`` leaves the data folder empty."""
    data = work / "xdg-data"
    env = {**clean_env(), "XDG_DATA_HOME": str(data)}
    run([exe, "--install-desktop-entry"], work, env)
    entries = list((data / "applications").glob("*.desktop"))
    if len(entries) != 1:
        raise SmokeError(f"--install-desktop-entry wrote {entries}")
    lines = entries[0].read_text(encoding="utf-8").splitlines()
    if f"Exec={exe} %f" not in lines:
        raise SmokeError(f"{entries[0].name} does not run {exe}: {lines}")
    run(["desktop-file-validate", str(entries[0])], work)
    run([exe, "--uninstall-desktop-entry"], work, env)
    if list(data.iterdir()):
        raise SmokeError(f"--uninstall-desktop-entry left {list(data.rglob('*'))}")
    print("smoke: --install-desktop-entry and --uninstall-desktop-entry ok")


def _xdotool(display: str, *args: str) -> str:
    env = {**os.environ, "DISPLAY": display}
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env,
                          timeout=WINDOW_WAIT + 10, check=False).stdout


def _wait_for_window(proc: subprocess.Popen[str], display: str, title: str) -> str:
    """The id of the first visible window whose title holds ``title``."""
    deadline = time.monotonic() + WINDOW_WAIT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SmokeError(f"exited ({proc.returncode}) before a window titled {title!r} "
                             f"showed: {proc.communicate()[0].strip()}")
        found = _xdotool(display, "search", "--onlyvisible", "--name", title).split()
        if found:
            return found[0]
        time.sleep(0.1)
    raise SmokeError(f"no window titled {title!r} after {WINDOW_WAIT} s")


def check_window(exe: str, args: list[str], title: str, display: str, work: Path) -> float:
    """Open the window with ``args``, wait for ``title``, press Ctrl+Q; the seconds
    from start to the window."""
    env = {**clean_env(), "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
           "HOME": str(work), "XDG_CONFIG_HOME": str(work / "config"),
           "XDG_DATA_HOME": str(work / "data"), "XDG_STATE_HOME": str(work / "state")}
    what = " ".join(Path(a).name for a in args) or "no file"
    start = time.monotonic()
    proc = subprocess.Popen([exe, *args], cwd=work, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        window = _wait_for_window(proc, display, title)
        shown = time.monotonic() - start
        _xdotool(display, "windowfocus", "--sync", window)
        _xdotool(display, "key", "--clearmodifiers", "ctrl+q")
        status = proc.wait(timeout=WINDOW_WAIT)
    except subprocess.TimeoutExpired:
        raise SmokeError(f"{what}: no exit after Ctrl+Q") from None
    except SmokeError as exc:
        raise SmokeError(f"{what}: {exc}") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = proc.communicate()[0]
    if status != 0:
        raise SmokeError(f"{what}: exit {status}: {output.strip()}")
    print(f"smoke: {what}: window {title!r} shown in {shown:.2f} s, quit with status 0")
    return shown


def start_xvfb() -> tuple[str, subprocess.Popen[bytes]]:
    """A private X server; Xvfb picks a free display number and writes it to a pipe."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as fh:
        number = fh.readline().strip()
    if not number:
        raise SystemExit("smoke: Xvfb did not start")
    return f":{number}", xvfb


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    exe, resources = os.path.abspath(argv[0]), Path(argv[1])
    display, xvfb = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="ndcg-smoke-") as tmp:
            work = Path(tmp)
            run_file, qrels = check_commands(exe, resources, work)
            check_desktop_entry(exe, work)
            check_window(exe, [], "example", display, work)
            check_window(exe, [str(run_file), "--qrels", str(qrels)], "example.run", display,
                         work)
    except SmokeError as exc:
        print(f"smoke: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        xvfb.terminate()
        xvfb.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
