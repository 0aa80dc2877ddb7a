#!/usr/bin/env bash
# Instructions per input byte of batch markup (`lexlink markup --out-dir`, 1 job), the A/B
# figure for the batch work on a shared machine (this VM has no hardware counters for
# `perf stat -e instructions`; callgrind counts do not move with the load). The input is the
# mix of bench/batch_markup.sh, each source once: the Italian and Portuguese texts as text and as
# HTML (one <p> per line), the UK CLML and ZA Akoma Ntoso XML. Counted: the inclusive cost of
# document::MarkupJob::run (the per-document pipeline: view, extraction, rewrite; start-up, the
# main thread and opening and naming the files are left out: MarkupBatch::run_file, which the
# script counted until the document pipeline came, is inlined and showed 0).
# Kernel work (file creation) is not counted: time it with bench/batch_markup.sh.
# Usage: bench/batch_callgrind.sh [LEXLINK_BINARY] (default build/lexlink); needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/inputs.sh
bin=${1:-build/lexlink}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in/text" "$tmp/in/html" "$tmp/in/xml"
for src in corpora/it-normattiva-gazzetta-civica/text/*.txt corpora/br-lexml-eta/text/*.txt; do
  cp "$src" "$tmp/in/text/"
  text_to_html "$src" > "$tmp/in/html/$(basename "$src" .txt).html"
done
cp corpora/uk-clml/raw/*.xml corpora/za-laws-africa-bylaws/raw/*.xml "$tmp/in/xml/"
for part in all html; do
  dir="$tmp/in"
  [ "$part" = all ] || dir="$tmp/in/$part"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$part" "$bin" markup --jobs 1 \
    --progress none --out-dir "$tmp/out.$part" "$dir" > /dev/null 2> "$tmp/log"
  ir=$(callgrind_annotate --inclusive=yes "$tmp/cg.$part" 2>/dev/null |
       awk '/lexlink::document::MarkupJob::run\(/ && !n { gsub(",", "", $1); print $1; n = 1 }')
  bytes=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  files=$(find "$dir" -type f | wc -l)
  awk -v ir="$ir" -v b="$bytes" -v f="$files" -v p="$part" 'BEGIN {
    printf "%-4s: %d files, %d bytes, %d instructions in MarkupJob::run: %.1f instructions/byte, %.0f per file\n",
           p, f, b, ir, ir / b, ir / f }'
done
