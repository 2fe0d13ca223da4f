#!/usr/bin/env bash
# Command 2 of README.md: the whole test suite.
#   1. Release build: unit, corpus and tool tests (CTest), benchmarks smoke-run.
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build: the same tests.
#   3. libFuzzer targets (clang), each run briefly from the corpus as seeds.
# Needs ../shared (the corpus) beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${PARQ_JOBS:-$(nproc)}
fuzz_seconds=${PARQ_FUZZ_SECONDS:-30}

scripts/install-deps.sh

echo "== release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")
for b in build/bench/*_bench; do
  "$b" --benchmark_min_time=0.01 >/dev/null
done

echo "== sanitizer build (ASan + UBSan)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARQ_SANITIZE=ON \
  -DPARQ_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-sanitize -j "$jobs"
(cd build-sanitize && ctest --output-on-failure -j "$jobs")

echo "== fuzzing (${fuzz_seconds}s per target)"
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARQ_SANITIZE=ON \
  -DPARQ_BUILD_FUZZERS=ON -DPARQ_BUILD_TESTS=OFF -DPARQ_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz -j "$jobs"
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
scripts/make-fuzz-seeds.sh "$root/../shared/parquet-testing" "$seeds"
for f in build-fuzz/fuzz/*_fuzz; do
  work=$(mktemp -d)
  status=0
  # Corpus files seed the footer and whole-file targets; the decoder targets
  # start from nothing, their inputs being raw encoded streams.
  target_seeds=()
  case "$(basename "$f")" in
    footer_fuzz) target_seeds=("$seeds") ;;
    file_read_fuzz) target_seeds=("$root/../shared/parquet-testing/data" "$root/../shared/parquet-testing/bad_data") ;;
  esac
  "$f" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    "$work" "${target_seeds[@]}" >"$work.log" 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY)" "$work.log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$work.log"
    echo "fuzz target $f failed (exit $status)"
    exit 1
  fi
  rm -rf "$work" "$work.log"
done
echo "all checks passed"
