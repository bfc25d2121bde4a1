#!/usr/bin/env bash
# The product as users install it (issue 35): build the sdist and, from it, the
# wheel; twine check both; install the wheel (no -e) into a virtual environment
# outside the checkout with the dependencies pip resolves from the wheel's own
# metadata (no --system-site-packages: a dependency the wheel forgets to declare
# fails here, not on a user's machine); then .ci/smoke_installed.py runs the
# installed ndcg-worksheet: --version, evaluate on the bundled example, and the
# window with no file and with a TREC run.
#
# The venv is kept between runs (like the soak venvs) under a name made of the
# Python version and the wheel's dependency list, so it is rebuilt exactly when
# the dependencies change; the wheel itself is reinstalled every time.
# Usage: .ci/install_check.sh [PYTHON]   (the Python that builds and hosts the venv)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# What users have: the installation alone, byte-compiled by pip as usual.
unset PYTHONPATH PYTHONDONTWRITEBYTECODE
py=${1:-python}
venvs="${NDCG_CI_VENVS:-${XDG_CACHE_HOME:-$HOME/.cache}/ndcg-worksheet-ci}"
"$py" -m pip install -q build twine

dist=$(mktemp -d)
trap 'rm -rf "$dist"' EXIT
# The build's chatter is shown only when it fails or warns.
if ! log=$("$py" -m build --outdir "$dist" . 2>&1); then
  echo "$log" >&2
  exit 1
fi
grep -E -A3 "^WARNING|Warning:|would be ignored" <<<"$log" >&2 || true
"$py" -m twine check --strict "$dist"/*
wheel=$(ls "$dist"/*.whl)

key=$("$py" - "$wheel" <<'PY'
import hashlib, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as whl:
    meta = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
    deps = [l for l in whl.read(meta).decode().splitlines()
            if l.startswith("Requires-Dist:") and "extra ==" not in l]
print(f"py{sys.version_info[0]}.{sys.version_info[1]}-"
      + hashlib.sha256("\n".join(deps).encode()).hexdigest()[:12])
PY
)
venv="$venvs/installed-$key"
if [ ! -x "$venv/bin/python" ]; then
  rm -rf "$venvs"/installed-*
  "$py" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps "$wheel"
"$venv/bin/python" -m pip install -q "$wheel"
"$venv/bin/python" -m pip check >/dev/null

# Outside the checkout: nothing of the tree can be imported by accident.
cd "$dist"
resources=$("$venv/bin/python" -c \
  'from importlib.resources import files; print(files("core.resources"))')
case "$resources" in
  "$venv"/*) ;;
  *) echo "install check: core.resources found at $resources, not in the venv" >&2; exit 1 ;;
esac
"$py" "$repo/.ci/smoke_installed.py" "$venv/bin/ndcg-worksheet" "$resources"
