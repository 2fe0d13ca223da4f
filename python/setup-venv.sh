#!/usr/bin/env bash
# Creates or updates the virtual environment of the Python package: .venv at
# the repository root (PARQ_VENV to put it elsewhere), with parq built from
# this checkout, its test extras (pytest, pyarrow, polars, duckdb, pandas,
# numpy, cryptography) and the engines of the distributed tests (the dask, ray and spark
# extras: dask[distributed], ray[data], pyspark 4). The extension builds in
# build-python-<wheel tag>/ without build isolation, so a second run
# recompiles only what changed; ccache, when present, shares objects with the
# other build trees of the checkout (scripts/build-env.sh).
# PARQ_VENV_EXTRAS names the extras (default test,dask,ray,spark). With
# --deps-only it installs what the package needs and builds nothing, so that
# scripts/test.sh can download the extras while the C++ trees compile.
# Needs python3 with venv and its headers (Debian: python3-venv, python3-dev).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
venv=${PARQ_VENV:-$root/.venv}
python=${PYTHON:-python3}
extras=${PARQ_VENV_EXTRAS:-test,dask,ray,spark}

if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
fi
# Build requirements inside the venv: --no-build-isolation then reuses them
# and the build tree instead of a fresh temporary environment each time. The
# same applies to the sdists among the extras (pyspark), which then build
# with the venv's setuptools: Debian's is too old to make wheels without the
# wheel package.
"$venv/bin/python" -m pip install -q "scikit-build-core>=0.10" "nanobind>=2.4" "setuptools>=70.1" wheel
if [ "${1:-}" = "--deps-only" ]; then
  # The extras' requirements as pyproject.toml lists them (tomllib: Python
  # 3.11 and later; an older Python gets them with the package below).
  listed=$("$venv/bin/python" - "$here/pyproject.toml" "$extras" <<'PY'
import sys
try:
    import tomllib
except ImportError:
    sys.exit(0)
extras = tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]
unknown = [e for e in sys.argv[2].split(",") if e not in extras]
if unknown:
    sys.exit(f"setup-venv.sh: no extra {', '.join(unknown)} in {sys.argv[1]}")
print("\n".join(sorted({r for e in sys.argv[2].split(",") for r in extras[e]})))
PY
  )
  if [ -n "$listed" ]; then
    mapfile -t requirements <<<"$listed"
    "$venv/bin/python" -m pip install -q "${requirements[@]}"
  fi
  exit 0
fi
source "$root/scripts/build-env.sh"
"$venv/bin/python" -m pip install -q --no-build-isolation "$here[$extras]"
# A sanitized build imports only with its runtimes preloaded
# (run-sanitized-tests.sh does that), so it is not imported here.
if [ -z "${PARQ_SANITIZED_BUILD:-}" ]; then
  echo "parq $(cd / && "$venv/bin/python" -c "import parq; print(parq.__version__)") installed in $venv"
fi
