#!/usr/bin/env bash
# Builds lexlink with GCC's profile-guided optimisation into build-pgo/ (the CLI at
# build-pgo/lexlink): the build for long runs (archives, benchmarks). Three steps in one build
# directory (the profile's files are named after the object files' paths):
#  1. an instrumented build (LEXLINK_PGO=generate) of the CLI alone;
#  2. a training run of it over the bundled corpora (corpora/): extract on plain Italian and
#     Portuguese text (about 4 MB each, the corpus texts repeated), extract with each grammar and
#     with auto on every corpus folder, markup --out-dir on the folders' raw HTML/XML and on the
#     texts written as HTML;
#  3. the build again with that profile (LEXLINK_PGO=use).
# Outputs must be the same as build/lexlink's: when build/lexlink is there, the script ends by
# checking that on the bundled corpora (bench/compare_outputs.sh) and fails if they differ.
# Takes about twice the time of scripts/build.sh.
# Usage: scripts/build-pgo.sh [BUILD_DIR] (default build-pgo); extra cmake options in
# LEXLINK_CMAKE_OPTIONS.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/inputs.sh
dir=${1:-build-pgo}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
profile="$dir/pgo-profile"
rm -rf "$profile"  # a stale profile would not match the sources (GCC refuses mismatches)
# shellcheck disable=SC2086 # LEXLINK_CMAKE_OPTIONS is a list of options
configure() {
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLEXLINK_WERROR=ON \
    -DLEXLINK_TESTS=OFF -DLEXLINK_BENCH=OFF -DLEXLINK_PGO="$1" -DLEXLINK_PGO_DIR="$profile" \
    ${LEXLINK_CMAKE_OPTIONS:-} >/dev/null
}

echo "== build-pgo: instrumented build" >&2
configure generate
cmake --build "$dir" --target lexlink

echo "== build-pgo: training run" >&2
bin="$dir/lexlink"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lang in it:it-normattiva-gazzetta-civica br:br-lexml-eta; do
  j=${lang%%:*}; corpus=${lang#*:}
  f="$tmp/$j.txt"
  repeat_texts "$f" 4000000 "$corpus"
  "$bin" extract --jurisdiction "$j" "$f" > /dev/null
  rm -f "$f"
done
mkdir -p "$tmp/html"
for src in corpora/*/text/*.txt; do
  text_to_html "$src" > "$tmp/html/$(basename "$src" .txt).html"
done
for dir_c in corpora/*/; do
  name=$(basename "$dir_c")
  [ -f "$dir_c/gold.tsv" ] || continue
  if [ -d "$dir_c/text" ]; then
    "$bin" extract --jurisdiction "${name%%-*}" "$dir_c/text" > /dev/null
    "$bin" extract --jurisdiction auto "$dir_c/text" > /dev/null
  fi
  if [ -d "$dir_c/raw" ]; then
    "$bin" extract "$dir_c/raw" > /dev/null
    "$bin" markup --jobs 1 --progress none --out-dir "$tmp/out-$name" "$dir_c/raw" > /dev/null
  fi
done
"$bin" markup --jobs 2 --progress none --out-dir "$tmp/out-html" "$tmp/html" > /dev/null

echo "== build-pgo: build with the profile" >&2
configure use
cmake --build "$dir" --target lexlink
if [ -x build/lexlink ]; then
  echo "== build-pgo: same outputs as build/lexlink on corpora/" >&2
  if ! bench/compare_outputs.sh build/lexlink "$bin" corpora; then
    echo "build-pgo: $bin and build/lexlink differ; if build/ is older than the sources, run" \
      "./scripts/build.sh, then bench/compare_outputs.sh build/lexlink $bin corpora" >&2
    exit 1
  fi
fi
echo "== build-pgo: $bin" >&2
