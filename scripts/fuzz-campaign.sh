#!/usr/bin/env bash
# A long fuzzing campaign for one target (issue 22): runs build-sanitize's TARGET
# for SECONDS on one core (niced, so that builds beside it keep their cores;
# with --cpu, until the target has had SECONDS of CPU time, however long the
# work beside it makes that take),
# from its saved corpus and the seeds test.sh gives it, in a work corpus kept
# under $PARQ_FUZZ_WORK (default ../fuzz-work) between campaigns; then
# merges what the work corpus covers into a minimized fuzz/corpus/TARGET and
# appends one line of figures to fuzz/campaigns.tsv (the record README's
# table is made from):
#   date target seconds cpu_seconds executions cov ft corpus_files corpus_bytes status
# (seconds is the wall-clock time the campaign ran; cpu_seconds what the
# target had of it).
# PARQ_FUZZ_ARGS adds libFuzzer options (-dict=fuzz/parquet.dict, say);
# PARQ_FUZZ_CORPUS_LIMIT (bytes, default 8 MB) caps the corpus it saves.
# A crash leaves its input in $PARQ_FUZZ_WORK/TARGET-artifacts/ and a
# non-zero exit.
#   scripts/fuzz-campaign.sh text_input_fuzz 3600
#   scripts/fuzz-campaign.sh --cpu writer_round_trip_fuzz 3600
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cpu_budget=0
if [ "${1:-}" = --cpu ]; then
  cpu_budget=1
  shift
fi
target=$1
seconds=${2:-3600}
work=${PARQ_FUZZ_WORK:-$root/../fuzz-work}
binary=build-sanitize/fuzz/$target
[ -x "$binary" ] || { echo "no $binary: build the sanitizer tree first (scripts/test.sh does)"; exit 2; }
mkdir -p "$work/$target" "$work/$target-artifacts"

seeds=()
case "$target" in
  footer_fuzz)
    mkdir -p "$work/footer-seeds"
    scripts/make-fuzz-seeds.sh "$root/../shared/parquet-testing" "$work/footer-seeds"
    seeds=("$work/footer-seeds") ;;
  encrypted_read_fuzz)
    mkdir -p "$work/encrypted-seeds"
    cp "$root"/../shared/parquet-testing/data/*.encrypted "$work/encrypted-seeds/"
    seeds=("$work/encrypted-seeds" "$root/../shared/parquet-testing/data/aes256") ;;
  file_read_fuzz | verify_fuzz | row_group_copy_fuzz) seeds=("$root/../shared/parquet-testing/data" "$root/../shared/parquet-testing/bad_data" "$root/../shared/parquet-testing/shredded_variant") ;;
esac
[ -d "fuzz/corpus/$target" ] && seeds+=("fuzz/corpus/$target")

log=$work/$target-$(date +%Y%m%dT%H%M%S).log
status=0
# The timeout is wall-clock time, and a niced target shares its core with
# whatever else runs: 10 s (CI's) stopped a campaign on an input that takes
# half a second alone.
wall=$seconds
# A CPU budget runs libFuzzer without a practical time limit and asks it to
# stop (SIGUSR1: it finishes the input at hand and prints its final figures)
# once its CPU time reaches the budget.
[ "$cpu_budget" = 1 ] && wall=$((seconds * 20))
started=$(date +%s)
/usr/bin/time -f '%U %S' -o "$log.time" nice -n 19 "$binary" -max_total_time="$wall" -rss_limit_mb=2048 -timeout=120 -print_final_stats=1 \
  ${PARQ_FUZZ_ARGS:-} -artifact_prefix="$work/$target-artifacts/" "$work/$target" "${seeds[@]}" >"$log" 2>&1 &
timer=$!
if [ "$cpu_budget" = 1 ]; then
  ticks=$(getconf CLK_TCK)
  fuzzer=""
  while kill -0 "$timer" 2>/dev/null; do
    sleep 5
    [ -n "$fuzzer" ] || fuzzer=$(pgrep -P "$timer" | head -1 || true)
    [ -n "$fuzzer" ] && [ -r "/proc/$fuzzer/stat" ] || continue
    # utime and stime, fields 14 and 15 after the parenthesised name.
    used=$(sed 's/^.*) //' "/proc/$fuzzer/stat" | awk -v t="$ticks" '{printf "%d", ($12 + $13) / t}')
    if [ "$used" -ge "$seconds" ]; then
      kill -USR1 "$fuzzer" 2>/dev/null || true
      break
    fi
  done
fi
wait "$timer" || status=$?
seconds=$(($(date +%s) - started))

cpu=$(awk 'END {printf "%.0f", $1 + $2}' "$log.time")
execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -1)
cov=$(echo "$last" | awk '{print $2}')
ft=$(echo "$last" | awk '{print $4}')

# The saved corpus: the fewest inputs that add to the coverage of the seeds
# test.sh gives the target anyway (libFuzzer's merge keeps the inputs of its
# first directory and adds only those that bring new features), replacing
# the previous one.
base=$(mktemp -d)
for s in "${seeds[@]}"; do
  # Numbered backups: the corpus has files of one name in several folders
  # (data/ and data/aes256/), and a refused overwrite would end the script.
  [ "$s" = "fuzz/corpus/$target" ] || find "$s" -type f -exec cp --backup=numbered -t "$base" {} +
done
before=$(mktemp)
ls "$base" | sort >"$before"
saved=()
[ -d "fuzz/corpus/$target" ] && saved=("fuzz/corpus/$target")
nice -n 19 "$binary" -merge=1 -rss_limit_mb=2048 -timeout=120 "$base" "$work/$target" "${saved[@]}" \
  >"$log.merge" 2>&1 || true
added=$(comm -13 "$before" <(ls "$base" | sort))
# A whole-file target's merge can keep tens of MB of Parquet files; the saved
# corpora live in git and stay small, so a merge past the limit leaves the
# previous corpus in place.
limit=${PARQ_FUZZ_CORPUS_LIMIT:-8000000}
merged=$(cd "$base" && echo "$added" | xargs -r stat -c %s | awk '{ s += $1 } END { print s + 0 }')
if [ "$merged" -gt "$limit" ]; then
  echo "merged corpus of $merged bytes passes the $limit-byte limit: fuzz/corpus/$target kept as it was" | tee -a "$log.merge"
  added=""
fi
if [ -n "$added" ]; then
  rm -rf "fuzz/corpus/$target"
  mkdir -p "fuzz/corpus/$target"
  for f in $added; do cp "$base/$f" "fuzz/corpus/$target/"; done
fi
rm -rf "$base" "$before"
# A target may have no saved corpus yet (its merges all past the limit).
files=0 bytes=0
if [ -d "fuzz/corpus/$target" ]; then
  files=$(find "fuzz/corpus/$target" -type f | wc -l)
  bytes=$(du -sb "fuzz/corpus/$target" | awk '{print $1}')
fi
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "$cpu" "${execs:-?}" \
  "${cov:-?}" "${ft:-?}" "$files" "${bytes:-0}" "$status" >>fuzz/campaigns.tsv
tail -n 1 fuzz/campaigns.tsv
exit "$status"
