#!/usr/bin/env bash
# Whether two lexlink binaries give byte-identical results: the check run after every speed step
# ("same output" in the commit messages). For each corpus folder (default: the team's
# ../shared/corpora, else the bundled corpora/), both binaries run
#   extract --jurisdiction J on text/, the same with --jurisdiction auto, extract on raw/,
#   markup --jurisdiction auto --out-dir on raw/ (the manifests left out: they hold mtimes),
# J being the folder name's prefix (it-normattiva-... -> it). Prints "identical", or the outputs
# that differ and exits 1.
# Usage: bench/compare_outputs.sh REFERENCE_BINARY CANDIDATE_BINARY [CORPORA_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/compare_outputs.sh REFERENCE_BINARY CANDIDATE_BINARY [CORPORA_DIR]" >&2
  exit 2
fi
ref=$1 new=$2
corpora=${3:-../shared/corpora}
[ -d "$corpora" ] || corpora=corpora
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run BINARY OUT: every output of BINARY on every corpus folder into OUT.
run() {
  local bin=$1 out=$2 dir name j
  mkdir -p "$out"
  for dir in "$corpora"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    j=${name%%-*}
    if [ -d "$dir/text" ]; then
      "$bin" extract --jurisdiction "$j" --jobs 2 "$dir/text" > "$out/$name-text.jsonl" 2>&1 || true
      "$bin" extract --jurisdiction auto --jobs 2 "$dir/text" > "$out/$name-text-auto.jsonl" 2>&1 || true
    fi
    if [ -d "$dir/raw" ]; then
      "$bin" extract --jurisdiction "$j" --jobs 2 "$dir/raw" > "$out/$name-raw.jsonl" 2>&1 || true
      "$bin" markup --jurisdiction auto --jobs 2 --progress none --out-dir "$out/markup-$name" \
        "$dir/raw" > /dev/null 2>&1 || true
      rm -rf "$out/markup-$name"/.lexlink*
    fi
  done
  # The summary line that ends a run of several files (its timings differ from run to run).
  sed -i -E '/^lexlink extract: [0-9]+ files \(/d' "$out"/*.jsonl
}
run "$ref" "$tmp/reference"
run "$new" "$tmp/candidate"
if diff -r -q "$tmp/reference" "$tmp/candidate" > "$tmp/diff"; then
  echo "identical ($corpora)"
else
  sed "s|$tmp/||g" "$tmp/diff" | head -20
  exit 1
fi
