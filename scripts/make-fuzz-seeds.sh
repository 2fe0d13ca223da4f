#!/usr/bin/env bash
# Seeds for the fuzz targets from the corpus: each file prefixed with the
# selector byte of the target that takes whole files (0), and each footer
# alone prefixed with the selector of the FileMetaData decoder (1).
set -euo pipefail
corpus=$1
out=$2
mkdir -p "$out"
i=0
while IFS= read -r -d '' f; do
  i=$((i + 1))
  size=$(stat -c %s "$f")
  if [ "$size" -le 262144 ]; then
    { printf '\x00'; cat "$f"; } >"$out/file-$i"
  fi
  if [ "$size" -ge 12 ] && [ "$(tail -c 4 "$f")" = "PAR1" ]; then
    len=$(tail -c 8 "$f" | head -c 4 | od -An -tu4 | tr -d ' ')
    if [ "$len" -le $((size - 12)) ]; then
      { printf '\x01'; tail -c $((len + 8)) "$f" | head -c "$len"; } >"$out/footer-$i"
    fi
  fi
done < <(find "$corpus" -type f -name '*.parquet*' -print0)
