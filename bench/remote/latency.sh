#!/usr/bin/env bash
# Remote reads under injected latency: runs the RemoteLatency test (nginx on
# loopback behind tests/io/latency_proxy.py, which delays each direction by
# half the round trip) and prints requests, bytes and wall time per step:
# open, 16 far ranges at once and one at a time, 100 near ranges, a 32 MiB
# range, and a Parquet file's footer and full scan.
#
#   bench/remote/latency.sh [RTT_MS]     (20 by default; needs build/tests/parq_tests)
#
# `unshare -n` + `tc qdisc add dev lo root netem delay` would be the usual
# way; this machine's kernel has no netem (tbf works, netem does not), so a
# user-space proxy stands in for it. Bandwidth through the proxy is that of
# one Python process (~150-200 MB/s), which bounds the large-range step.
set -euo pipefail
cd "$(dirname "$0")/../.."
rtt=${1:-20}
tests=${PARQ_TESTS:-build/tests/parq_tests}
if [ ! -x "$tests" ]; then
  # scripts/test.sh configures build/ without the unit tests.
  echo "$tests not found: build it (cmake -S . -B build -DPARQ_UNIT_TESTS=ON && cmake --build build --target parq_tests)" >&2
  exit 2
fi
PARQ_REMOTE_RTT_MS="$rtt" "$tests" --gtest_filter='RemoteLatency.*' | grep -E '^(remote|  |\[  (PASSED|FAILED))'
