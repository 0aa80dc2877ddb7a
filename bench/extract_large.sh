#!/usr/bin/env bash
# The end-to-end extraction benchmark of issue 4: `lexlink extract` on SIZE_MB (default 500) of
# plain Italian text built from the bundled corpus (repeated), then the same for Portuguese.
# Each language runs REPS times (default 3); every run and the median (by user CPU time: the
# machine is shared, wall time is not the figure) are printed: MB/s, citations/s and peak RSS
# (GNU time), and kept in bench/results/. JURISDICTION=auto reads both with every grammar loaded
# (issue 6: the speed with all jurisdictions loaded). LEXLINK: the binary to run (default
# build/lexlink, built first; build-pgo/lexlink is the profile-guided build of
# scripts/build-pgo.sh); RESULTS: the results file.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/inputs.sh
size_mb=${SIZE_MB:-500}
reps=${REPS:-3}
lexlink=${LEXLINK:-build/lexlink}
[ -n "${LEXLINK:-}" ] || ./scripts/build.sh
mkdir -p bench/results
jur=${JURISDICTION:-}
out=${RESULTS:-"bench/results/$(date +%Y-%m-%d)-$(hostname -s)-extract-large${jur:+-$jur}.txt"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo "# $lexlink extract${jur:+ --jurisdiction $jur} on ${size_mb} MB, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), ${reps} runs per language"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for lang in it:it-normattiva-gazzetta-civica br:br-lexml-eta; do
    j=${lang%%:*}; corpus=${lang#*:}
    f="$tmp/$j.txt"
    repeat_texts "$f" $((size_mb * 1000000)) "$corpus"
    bytes=$(stat -c %s "$f")
    : > "$tmp/runs"
    for _ in $(seq "$reps"); do
      /usr/bin/time -f "%e %U %M" -o "$tmp/time" "$lexlink" extract --jurisdiction "${jur:-$j}" "$f" > "$tmp/out"
      read -r wall user rss_kb < "$tmp/time"
      n=$(wc -l < "$tmp/out")
      echo "$user $wall $rss_kb $n" >> "$tmp/runs"
      awk -v b="$bytes" -v w="$wall" -v u="$user" -v r="$rss_kb" -v n="$n" -v j="$j" 'BEGIN {
        printf "%s run: %.0f MB, %d citations, wall %.1f s, user %.1f s: %.1f MB/s per core (user time), %.0f citations/s, peak RSS %.0f MB\n",
               j, b / 1e6, n, w, u, b / 1e6 / u, n / u, r / 1024 }'
    done
    sort -n "$tmp/runs" | awk -v b="$bytes" -v j="$j" -v k=$(((reps + 1) / 2)) 'NR == k {
      printf "%s median: %.0f MB, %d citations, user %.1f s: %.1f MB/s per core (user time), %.0f citations/s, peak RSS %.0f MB\n",
             j, b / 1e6, $4, $1, b / 1e6 / $1, $4 / $1, $3 / 1024 }'
    rm -f "$f" "$tmp/out"
  done
} | tee "$out"
