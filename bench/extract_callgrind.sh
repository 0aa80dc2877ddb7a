#!/usr/bin/env bash
# Instructions per input byte of `lexlink extract` (callgrind, inclusive cost of
# document::DocumentExtractor::run, so start-up is left out) on a fixed input of about 5 MB: the
# bundled Italian corpus repeated, then the Portuguese one. Instruction counts do not depend on
# the machine's load, so this is the figure for A/B decisions on a shared machine (time with
# extract_large.sh for the report).
# Usage: bench/extract_callgrind.sh [LEXLINK_BINARY] (default build/lexlink); needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/inputs.sh
bin=${1:-build/lexlink}
size=${SIZE_BYTES:-5000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lang in it:it-normattiva-gazzetta-civica br:br-lexml-eta; do
  j=${lang%%:*}; corpus=${lang#*:}
  f="$tmp/$j.txt"
  repeat_texts "$f" "$size" "$corpus"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$j" "$bin" extract --jurisdiction "$j" "$f" \
    > /dev/null 2> "$tmp/log"
  # awk reads to the end (grep -m1 would close the pipe early: SIGPIPE under pipefail).
  ir=$(callgrind_annotate --inclusive=yes "$tmp/cg.$j" 2>/dev/null |
       awk '/lexlink::document::DocumentExtractor::run\(/ && !done { gsub(",", "", $1); print $1; done = 1 }')
  bytes=$(stat -c %s "$f")
  awk -v ir="$ir" -v b="$bytes" -v j="$j" \
    'BEGIN { printf "%s: %d bytes, %d instructions in DocumentExtractor::run: %.1f instructions/byte\n", j, b, ir, ir / b }'
done
