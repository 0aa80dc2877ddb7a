#!/usr/bin/env bash
# The end-to-end extraction benchmark of issue 4: `lexlink extract` on SIZE_MB (default 500) of
# plain Italian text built from the bundled corpus (repeated), then the same for Portuguese.
# Prints MB/s, citations/s and peak RSS (GNU time) per language and keeps them in bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${SIZE_MB:-500}
./scripts/build.sh
mkdir -p bench/results
out="bench/results/$(date +%Y-%m-%d)-$(hostname -s)-extract-large.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo "# lexlink extract on ${size_mb} MB, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  for lang in it:it-normattiva-gazzetta-civica br:br-lexml-eta; do
    j=${lang%%:*}; corpus=${lang#*:}
    f="$tmp/$j.txt"
    while [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -lt $((size_mb * 1000000)) ]; do
      cat corpora/"$corpus"/text/*.txt >> "$f"
    done
    bytes=$(stat -c %s "$f")
    /usr/bin/time -f "%e %U %M" -o "$tmp/time" build/lexlink extract --jurisdiction "$j" "$f" > "$tmp/out"
    read -r wall user rss_kb < "$tmp/time"
    n=$(wc -l < "$tmp/out")
    awk -v b="$bytes" -v w="$wall" -v u="$user" -v r="$rss_kb" -v n="$n" -v j="$j" 'BEGIN {
      printf "%s: %.0f MB, %d citations, wall %.1f s, user %.1f s: %.1f MB/s per core (user time), %.0f citations/s, peak RSS %.0f MB\n",
             j, b / 1e6, n, w, u, b / 1e6 / u, n / u, r / 1024 }'
    rm -f "$f" "$tmp/out"
  done
} | tee "$out"
