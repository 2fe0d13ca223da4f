#!/usr/bin/env bash
# Command 2 of README.md: the whole test suite.
#   1. Release build: the peer tests (interop, differential; CTest), the
#      benchmarks smoke-run, the Python suite.
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build (clang): the unit,
#      corpus and tool tests (CTest), then the Python suite over the
#      sanitized library.
#   3. libFuzzer targets (the same tree), each run briefly from the corpus.
# Needs ../shared (the corpus) beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${PARQ_JOBS:-$(nproc)}
fuzz_seconds=${PARQ_FUZZ_SECONDS:-20}

stage() { echo "== $* (at $((SECONDS / 60)) min)"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# What waits on the network, and MinIO's build (which starts with its
# downloads), goes on in the background while the C++ trees compile: on a
# fresh machine that is minutes of the run. Each job's log is printed if it
# fails; the tests that need it wait for it (await).
scripts/install-remote-servers.sh >"$scratch/servers.log" 2>&1 &
servers_job=$!
scripts/install-deps.sh
(
  tests/interop/run.sh --install
  tests/differential/run.sh --install
  python/setup-venv.sh --deps-only
  python/run-sanitized-tests.sh --deps-only
) >"$scratch/downloads.log" 2>&1 &
downloads_job=$!
await() {
  local what=$1 job=$2 log=$3
  if ! wait "$job"; then
    cat "$log"
    echo "$what failed (above)"
    exit 1
  fi
  echo "$what: ready"
}
# So that a clone elsewhere (CI's) reuses what an earlier build compiled, and
# the Python package's builds take the library's objects from build/ and
# build-sanitize/.
source scripts/build-env.sh

stage "release build"
# The unit tests compile and run in the sanitized tree alone: compiling them
# in both trees did not fit CI's time on a fresh machine.
# PARQ_RELEASE_UNIT_TESTS=ON runs them here too.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPARQ_UNIT_TESTS="${PARQ_RELEASE_UNIT_TESTS:-OFF}" >/dev/null
cmake --build build -j "$jobs"
await "the test servers (scripts/install-remote-servers.sh)" "$servers_job" "$scratch/servers.log"
await "the npm and PyPI packages of the tests" "$downloads_job" "$scratch/downloads.log"
stage "release tests"
# The peer matrices (tests/interop's writer cells, tests/differential's
# predicates) run half their cases, the other half on the next commit:
# INTEROP_SHARE=0/1 DIFF_SHARE=0/1 run them all.
turn=$(($(git rev-list --count HEAD 2>/dev/null || echo 0) % 2))
export INTEROP_SHARE=${INTEROP_SHARE:-$turn/2} DIFF_SHARE=${DIFF_SHARE:-$turn/2}
(cd build && ctest --output-on-failure -j "$jobs")
for b in build/bench/*_bench; do
  "$b" --benchmark_min_time=0.01 >/dev/null
done

stage "Python package (python/run-tests.sh)"
python/run-tests.sh

stage "sanitizer build (ASan + UBSan, clang; tests and fuzz targets)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One tree for the sanitized tests and the fuzz targets, under clang (which
# libFuzzer needs): the library compiles once, with coverage instrumentation,
# and the sanitized Python build gets the same objects from ccache. An
# earlier gcc tree is reconfigured (CMake starts afresh when the compiler
# changes).
cmake -S . -B build-sanitize -G Ninja -DCMAKE_CXX_COMPILER="$PARQ_SANITIZE_CXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPARQ_SANITIZE=ON -DPARQ_BUILD_FUZZERS=ON -DPARQ_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-sanitize -j "$jobs"
(cd build-sanitize && ctest --output-on-failure -j "$jobs")

stage "Python package over the sanitized library (python/run-sanitized-tests.sh)"
python/run-sanitized-tests.sh

stage "fuzzing (${fuzz_seconds}s per target)"
seeds=$scratch/seeds
reports=$scratch/reports
mkdir -p "$seeds" "$reports"
scripts/make-fuzz-seeds.sh "$root/../shared/parquet-testing" "$seeds"
# The corpus's encrypted files, in a folder of their own.
mkdir -p "$seeds/encrypted"
cp "$root"/../shared/parquet-testing/data/*.encrypted "$seeds/encrypted/"
# One target: its saved findings, then its corpus and seeds and
# $fuzz_seconds of new inputs. Prints what it found; fails on a fault.
fuzz_target() {
  local f=$1 name
  name=$(basename "$f")
  local work
  work=$(mktemp -d)
  # Corpus files seed the footer and whole-file targets; the decoder targets
  # start from nothing (their inputs are raw encoded streams) or from their
  # saved corpus under fuzz/corpus/.
  local target_seeds=()
  case "$name" in
    footer_fuzz) target_seeds=("$seeds") ;;
    encrypted_read_fuzz) target_seeds=("$root/../shared/parquet-testing/data/aes256" "$seeds/encrypted") ;;
    file_read_fuzz | verify_fuzz | row_group_copy_fuzz) target_seeds=("$root/../shared/parquet-testing/data" "$root/../shared/parquet-testing/bad_data" "$root/../shared/parquet-testing/shredded_variant") ;;
  esac
  # A target's saved corpus (what earlier campaigns learned) is replayed too.
  if [ -d "fuzz/corpus/$name" ]; then target_seeds+=("fuzz/corpus/$name"); fi
  # Inputs that once found a fault (../shared/fuzz-findings/<target>-*) run
  # first, each once: a fixed fault stays fixed.
  local findings=("$root/../shared/fuzz-findings/${name%_fuzz}"-*)
  if [ -e "${findings[0]}" ]; then
    if ! "$f" -rss_limit_mb=2048 -timeout=10 "${findings[@]}" >"$work.log" 2>&1; then
      tail -n 40 "$work.log"
      echo "fuzz target $f fails on a saved finding"
      return 1
    fi
    echo "$name: ${#findings[@]} saved finding(s) pass"
  fi
  local status=0
  "$f" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    "$work" "${target_seeds[@]}" >"$work.log" 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY)" "$work.log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$work.log"
    echo "fuzz target $f failed (exit $status)"
    return 1
  fi
  rm -rf "$work" "$work.log"
}
# $jobs targets at a time (libFuzzer runs one input at a time), each one's
# report printed whole when it ends.
for f in build-sanitize/fuzz/*_fuzz; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  (
    status=0
    fuzz_target "$f" >"$reports/$(basename "$f").txt" 2>&1 || status=$?
    echo "$status" >"$reports/$(basename "$f").rc"
  ) &
done
wait
failed=0
for f in build-sanitize/fuzz/*_fuzz; do
  name=$(basename "$f")
  echo "-- $name"
  cat "$reports/$name.txt"
  [ "$(cat "$reports/$name.rc" 2>/dev/null)" = 0 ] || failed=1
done
[ "$failed" = 0 ] || { echo "fuzzing found a fault (above)"; exit 1; }
echo "all checks passed in $((SECONDS / 60)) min"
