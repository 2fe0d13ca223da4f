#!/usr/bin/env bash
# Installs the servers the remote input tests start on loopback
# (tests/io/remote_*_test.cc): MinIO, a real S3 server that checks SigV4,
# built from source with `go install` (pinned below) into a cache outside
# the checkout, ${XDG_CACHE_HOME:-$HOME/.cache}/parq/bin. nginx comes from
# Debian (scripts/install-deps.sh). Idempotent: the cold build (downloads
# included) takes minutes and runs once; later runs find the binary and do
# nothing.
set -euo pipefail

minio_version=v0.0.0-20260212201848-7aac2a2c5b7c  # github.com/minio/minio, 2026-02-12
bin_dir=${PARQ_REMOTE_SERVERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/parq/bin}
stamp="$bin_dir/minio.version"

if [ -x "$bin_dir/minio" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$minio_version" ]; then
  exit 0
fi

go=$(command -v go || true)
[ -n "$go" ] || go=/usr/local/go/bin/go
if [ ! -x "$go" ]; then
  echo "install-remote-servers: Go is needed to build MinIO (looked on PATH and at /usr/local/go/bin/go)" >&2
  exit 1
fi

mkdir -p "$bin_dir"
echo "building MinIO $minio_version into $bin_dir (a few minutes, once)"
start=$(date +%s)
GOBIN="$bin_dir" CGO_ENABLED=0 GOFLAGS=-buildvcs=false "$go" install "github.com/minio/minio@$minio_version"
echo "$minio_version" >"$stamp"
echo "MinIO built in $(($(date +%s) - start)) s"
