#!/usr/bin/env bash
# The Python package's test suite in one command: builds and installs the
# package into .venv (setup-venv.sh), then runs pytest over python/tests.
# Arguments go to pytest (e.g. -k filters, -x). pytest's closing line gives
# the counts.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
venv=${PARQ_VENV:-$root/.venv}

"$here/setup-venv.sh"
# From the repository root, so that `import parq` finds the installed
# package and not python/parq, which lacks the compiled extension.
cd "$root"
# One worker per core (PARQ_JOBS to choose), a test file to a worker (conftest.py).
exec "$venv/bin/pytest" "$here/tests" -q -rs -n "${PARQ_JOBS:-$(nproc)}" --dist loadgroup "$@"
