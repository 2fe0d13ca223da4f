#!/usr/bin/env bash
# The Python suite over a library built with AddressSanitizer and
# UndefinedBehaviorSanitizer: the extension builds RelWithDebInfo with
# PARQ_SANITIZE into its own venv (.venv-sanitize) and build tree
# (build-python-sanitize-<tag>, which shares build-sanitize's objects through
# ccache: both compile with clang), and runs under clang's sanitizer runtime
# (ASan's, which holds UBSan's too) preloaded into the (uninstrumented)
# interpreter. Leak checking is off:
# CPython and the peers keep memory to the end by design. The distributed
# engines (JVM, Ray, Dask workers) run only in the release suite, and so
# does the crash test, which drives the tool and not the package.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
export PARQ_VENV=${PARQ_SANITIZE_VENV:-$root/.venv-sanitize}
export SKBUILD_BUILD_DIR="../build-python-sanitize-{wheel_tag}"
export SKBUILD_CMAKE_BUILD_TYPE=RelWithDebInfo
export SKBUILD_CMAKE_DEFINE="PARQ_SANITIZE=ON" PARQ_SANITIZED_BUILD=1
# The distributed engines' tests are left out below, so their extras are too.
export PARQ_VENV_EXTRAS=${PARQ_VENV_EXTRAS:-test}
# --deps-only: the venv's requirements alone (setup-venv.sh), nothing built or run.
if [ "${1:-}" = "--deps-only" ]; then exec "$here/setup-venv.sh" --deps-only; fi
source "$root/scripts/build-env.sh"
export CXX="$PARQ_SANITIZE_CXX"
"$here/setup-venv.sh"

runtime=$("$CXX" -print-file-name="libclang_rt.asan-$(uname -m).so")
cd "$root"
LD_PRELOAD="$runtime" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  exec "$PARQ_VENV/bin/pytest" "$here/tests" -q -rs -p no:cacheprovider -n "${PARQ_JOBS:-$(nproc)}" --dist loadgroup \
  --ignore-glob='*test_spark*' --ignore-glob='*test_dask*' --ignore-glob='*test_ray*' --ignore-glob='*test_crash*' "$@"
