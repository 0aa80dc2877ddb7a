#!/usr/bin/env bash
# Issue 27's figures for the installed library: installs the build into a temporary prefix,
# builds bench/c_api_bench.c there with plain `cc $(pkg-config --cflags --libs lexlink)`, and
# runs it on a 1 KB Italian paragraph (the first line of 900-1200 bytes holding "legge" in the
# bundled Normattiva corpus): loading with every grammar (cold, with an empty cache folder, then
# warm) and microseconds per lexlink_extract call, with every grammar and with Italian's alone.
# Run it on a quiet machine (nothing else compiling): the figures are wall-clock. Written to
# bench/results/DATE-HOST-c-api.txt with the machine.
# Usage: bench/c_api_bench.sh [BUILD_DIR] (default build; build it first)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/installed_c_bench.sh
. bench/installed_c_bench.sh
out=bench/results/$(date +%F)-$(hostname -s)-c-api.txt
{
  echo "# bench/c_api_bench.sh $build ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%FT%TZ))"
  echo "# machine: $(nproc) cores, $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}')"
  echo "# the installed liblexlink.so, a C program built with cc + pkg-config, unset LEXLINK_DATA"
  unset LEXLINK_DATA
  echo "## every jurisdiction (the grammar chosen per call)"
  XDG_CACHE_HOME=$tmp/cache LD_LIBRARY_PATH=$tmp/prefix/lib "$tmp/c_api_bench" "$tmp/paragraph.txt" 11 20000
  echo "## jurisdiction it (what a plugin that knows its jurisdiction loads)"
  XDG_CACHE_HOME=$tmp/cache-it LD_LIBRARY_PATH=$tmp/prefix/lib "$tmp/c_api_bench" "$tmp/paragraph.txt" 11 20000 it
} | tee "$out"
echo "written to $out" >&2
