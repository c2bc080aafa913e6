#!/usr/bin/env bash
# The Python package installs and works outside the tree (ctest python_install, run by `make test`):
#   1. a venv with --system-site-packages (Debian's numpy and scikit-learn), pip install of python/
#      offline with --no-build-isolation (setup.py builds dpforest._core through the project's CMake);
#   2. the pytest suite run from a temporary directory against the installed package;
#   3. python/examples/compare_forests.py on a small dataset, from outside the tree;
#   4. python3 -m build --no-isolation --wheel: a wheel holding the package and its extension.
# Usage: install_test.sh SOURCE_ROOT DPFOREST_CLI BUILD_DIR
# BUILD_DIR is the CMake build tree pip's build goes through (setup.py reuses a tree configured for
# the same interpreter: the venv's python3 is /usr/bin/python3), so the test compiles nothing that
# `make` has not. Exit 77 (skipped) when venv or pip are missing and cannot be installed.
set -euo pipefail
root=$1 cli=$2 pip_build=$3
py=/usr/bin/python3

if ! $py -m venv --help >/dev/null 2>&1 || ! $py -m pip --version >/dev/null 2>&1; then
  "$root/experiments/tools/deps.sh" python >/dev/null 2>&1 || true
  if ! $py -m venv --help >/dev/null 2>&1 || ! $py -m pip --version >/dev/null 2>&1; then
    echo "SKIPPED: python3-venv or python3-pip is missing and could not be installed (experiments/tools/deps.sh python)"
    exit 77
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
$py -m venv --system-site-packages "$tmp/venv"
# A copy of python/: pip's in-tree build writes build/ and *.egg-info beside setup.py, not in the checkout.
mkdir "$tmp/src"
cp -r "$root/python/dpforest" "$root/python/setup.py" "$root/python/pyproject.toml" "$root/python/README.md" "$tmp/src/"
export DPFOREST_SOURCE_ROOT=$root DPFOREST_BUILD_DIR=$pip_build
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
if ! "$tmp/venv/bin/pip" install --no-build-isolation --no-index --quiet "$tmp/src" >"$tmp/pip.log" 2>&1; then
  cat "$tmp/pip.log"
  echo "FAILED: pip install --no-build-isolation --no-index python/"
  exit 1
fi
echo "pip install: $((SECONDS - start)) s"

# From outside the tree, with nothing on PYTHONPATH: the installed package, not the checkout's.
cd "$tmp"
unset PYTHONPATH DPFOREST_ROOT
where=$("$tmp/venv/bin/python" -c 'import dpforest; print(dpforest.__file__)')
case "$where" in
  "$tmp/venv/"*) ;;
  *) echo "FAILED: import dpforest found $where, not the venv's package"; exit 1 ;;
esac
DPFOREST_CLI=$cli PYTHONDONTWRITEBYTECODE=1 "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
"$tmp/venv/bin/python" "$root/python/examples/compare_forests.py" banknote >"$tmp/example.log"
grep -q "DiPriMe" "$tmp/example.log" || { cat "$tmp/example.log"; echo "FAILED: compare_forests.py"; exit 1; }

if $py -m build --version >/dev/null 2>&1; then
  cp -r "$tmp/src" "$tmp/wheel-src"
  (cd "$tmp/wheel-src" && $py -m build --no-isolation --wheel --outdir "$tmp/dist" >"$tmp/build.log" 2>&1) ||
    { cat "$tmp/build.log"; echo "FAILED: python3 -m build --no-isolation --wheel"; exit 1; }
  $py - "$tmp/dist" <<'PY'
import pathlib, sys, zipfile
wheels = list(pathlib.Path(sys.argv[1]).glob("dpforest-*.whl"))
assert len(wheels) == 1, wheels
names = zipfile.ZipFile(wheels[0]).namelist()
assert "dpforest/__init__.py" in names and any(n.startswith("dpforest/_core") and n.endswith(".so") for n in names), names
print("wheel:", wheels[0].name)
PY
else
  echo "wheel build not checked: python3-build is missing (experiments/tools/deps.sh python)"
fi
echo "python_install: $((SECONDS - start)) s in all"
