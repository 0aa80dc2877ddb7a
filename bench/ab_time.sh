#!/usr/bin/env bash
# CPU time of two lexlink binaries on the same input, run alternately (A B A B ...), so that the
# shared machine's slow and fast periods fall on both alike: each run's user time, then per
# binary the minimum, median and maximum, and the ratio of the medians. For speed steps that do
# not change the instructions much (build flags, memory layout), where the callgrind count of
# bench/extract_callgrind.sh does not tell.
# Usage: bench/ab_time.sh A_BINARY B_BINARY FILE [RUNS] [-- EXTRACT-OPTIONS...]
#   (default 10 runs each; options default to none: the grammar is then chosen per document)
# Example: bench/ab_time.sh build/lexlink build-pgo/lexlink big.txt 10 -- --jurisdiction it
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: bench/ab_time.sh A_BINARY B_BINARY FILE [RUNS] [-- EXTRACT-OPTIONS...]" >&2
  exit 2
fi
a=$1 b=$2 file=$3
shift 3
runs=10
if [ $# -gt 0 ] && [ "$1" != "--" ]; then runs=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 0; r < runs; r++)); do
  for side in a b; do
    bin=$a; [ "$side" = b ] && bin=$b
    /usr/bin/time -f "%U" -o "$tmp/time" "$bin" extract "$@" "$file" > /dev/null
    echo "$side run $((r + 1)): user $(cat "$tmp/time") s"
    cat "$tmp/time" >> "$tmp/$side"
  done
done
stats() {  # min median max of the numbers in $1
  sort -g "$1" | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f %.3f %.3f\n", v[1], m, v[NR] }'
}
read -r amin amed amax < <(stats "$tmp/a")
read -r bmin bmed bmax < <(stats "$tmp/b")
bytes=$(stat -c %s "$file")
awk -v a="$a" -v b="$b" -v n="$runs" -v by="$bytes" -v a1="$amin" -v a2="$amed" -v a3="$amax" \
    -v b1="$bmin" -v b2="$bmed" -v b3="$bmax" 'BEGIN {
  printf "A %s: user min %.3f median %.3f max %.3f s (%.1f MB/s per core at the median)\n", a, a1, a2, a3, by / 1e6 / a2
  printf "B %s: user min %.3f median %.3f max %.3f s (%.1f MB/s per core at the median)\n", b, b1, b2, b3, by / 1e6 / b2
  printf "B/A median user time: %.3f over %d runs each\n", b2 / a2, n }'
