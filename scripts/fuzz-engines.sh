#!/usr/bin/env bash
# Which fuzzer finds more of the whole-file target (issue 22): libFuzzer and
# AFL++, both with the Parquet token dictionary (fuzz/parquet.dict), run
# side by side on the two cores for the same wall-clock time from the same
# seeds, then each one's final corpus is replayed through the libFuzzer
# build (-runs=0) so that both are measured by the same instrumentation
# (libFuzzer's cov and ft). One line per engine goes to fuzz/engines.tsv:
#   date target engine seconds cpu_seconds executions corpus_files cov ft
#   scripts/fuzz-engines.sh [TARGET] [SECONDS]
# Builds build-afl (afl-clang-fast++, AddressSanitizer and UBSan, as
# build-sanitize) when missing; needs Debian's afl++.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${1:-file_read_fuzz}
seconds=${2:-3600}
work=${PARQ_FUZZ_WORK:-$root/../fuzz-work}/engines-$target-$(date +%Y%m%dT%H%M%S)
libfuzzer=build-sanitize/fuzz/$target
afl=${PARQ_AFL_BUILD:-$root/../build-afl}/fuzz/$target
[ -x "$libfuzzer" ] || { echo "no $libfuzzer: build the sanitizer tree first (scripts/test.sh does)"; exit 2; }
command -v afl-fuzz >/dev/null || { echo "no afl-fuzz: apt-get install afl++"; exit 2; }
if [ ! -x "$afl" ]; then
  CC=afl-clang-fast CXX=afl-clang-fast++ cmake -S . -B "$(dirname "$(dirname "$afl")")" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARQ_SANITIZE=ON -DPARQ_BUILD_FUZZERS=ON -DPARQ_BUILD_TESTS=OFF \
    -DPARQ_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$(dirname "$(dirname "$afl")")" --target "$target"
fi

# The seeds: the corpus's files up to AFL++'s 1 MB input limit, for both.
mkdir -p "$work/seeds" "$work/libfuzzer" "$work/libfuzzer-artifacts"
for d in data bad_data shredded_variant; do
  find "$root/../shared/parquet-testing/$d" -type f -size -1024k -exec cp --backup=numbered -t "$work/seeds" {} +
done

nice -n 19 /usr/bin/time -f '%U %S' -o "$work/libfuzzer.time" "$libfuzzer" -dict=fuzz/parquet.dict \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=120 -print_final_stats=1 \
  -artifact_prefix="$work/libfuzzer-artifacts/" "$work/libfuzzer" "$work/seeds" >"$work/libfuzzer.log" 2>&1 &
lf=$!
# AFL++ refuses to start on a machine set for power saving or piping
# core dumps to a handler unless told these are fine for a campaign here.
AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
  nice -n 19 /usr/bin/time -f '%U %S' -o "$work/afl.time" afl-fuzz -i "$work/seeds" -o "$work/afl" \
  -x fuzz/parquet.dict -m none -t 5000+ -V "$seconds" -- "$afl" >"$work/afl.log" 2>&1 &
af=$!
# time(1) misses the CPU of AFL++'s fork server and target processes (they
# are killed, not waited for), so AFL++'s is sampled: every process of its
# tree, its own time and that of the children it reaped.
tree_cpu() {
  local pids=($1) next=($1) p
  while [ ${#next[@]} -gt 0 ]; do
    mapfile -t next < <(for p in "${next[@]}"; do pgrep -P "$p" || true; done)
    pids+=("${next[@]}")
  done
  for p in "${pids[@]}"; do sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null || true; done |
    awk -v t="$(getconf CLK_TCK)" '{s += $12 + $13 + $14 + $15} END {printf "%d", s / t}'
}
afl_cpu=0
while kill -0 "$af" 2>/dev/null; do
  c=$(tree_cpu "$af")
  [ "$c" -gt "$afl_cpu" ] && afl_cpu=$c
  sleep 5
done
wait "$lf" || echo "libFuzzer stopped early (exit $?): see $work/libfuzzer.log and its artifacts"
wait "$af" || echo "afl-fuzz stopped early (exit $?): see $work/afl.log"

cpu() { awk 'END {printf "%.0f", $1 + $2}' "$1"; }
# cov and ft of a corpus, loaded (not fuzzed) by the libFuzzer build.
replay() {
  nice -n 19 "$libfuzzer" -runs=0 -rss_limit_mb=2048 -timeout=120 "$1" 2>&1 |
    grep -o 'INITED cov: [0-9]* ft: [0-9]*' | awk '{print $3 "\t" $5}'
}
lf_execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/libfuzzer.log" | awk '{print $2}' | tail -1)
afl_execs=$(awk -F': *' '$1 ~ /^execs_done/ {print $2}' "$work/afl/default/fuzzer_stats" 2>/dev/null || echo "?")
lf_files=$(find "$work/libfuzzer" -type f | wc -l)
# The queue's inputs without AFL++'s own state files beside them.
mkdir -p "$work/afl-queue"
find "$work/afl/default/queue" -maxdepth 1 -type f -exec cp -t "$work/afl-queue" {} +
afl_files=$(find "$work/afl-queue" -type f | wc -l)
now=$(date -u +%FT%TZ)
[ -f fuzz/engines.tsv ] ||
  printf 'date\ttarget\tengine\tseconds\tcpu_seconds\texecutions\tcorpus_files\tcov\tft\n' >fuzz/engines.tsv
printf '%s\t%s\tlibfuzzer+dict\t%s\t%s\t%s\t%s\t%s\n' "$now" "$target" "$seconds" "$(cpu "$work/libfuzzer.time")" \
  "${lf_execs:-?}" "$lf_files" "$(replay "$work/libfuzzer")" >>fuzz/engines.tsv
printf '%s\t%s\tafl++ +dict\t%s\t%s\t%s\t%s\t%s\n' "$now" "$target" "$seconds" "$afl_cpu" \
  "${afl_execs:-?}" "$afl_files" "$(replay "$work/afl-queue")" >>fuzz/engines.tsv
tail -n 2 fuzz/engines.tsv
