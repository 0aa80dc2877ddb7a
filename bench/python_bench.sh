#!/usr/bin/env bash
# Issue 28's figure for Python: Extractor.extract on a 1 KB Italian paragraph costs at most 20 µs
# more than the same call from C. Installs the build into a temporary prefix, builds
# bench/c_api_bench.c against it (as bench/c_api_bench.sh does), and runs, alternately, the C
# program and bench/python_bench.py (the installed package, Debian's python3) on the same
# paragraph, three times each, with Italian's grammar and with every grammar. Wall-clock: run it
# on a quiet machine. Written to bench/results/DATE-HOST-python.txt with the machine.
# Usage: bench/python_bench.sh [BUILD_DIR] (default build; build it first)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/installed_c_bench.sh
. bench/installed_c_bench.sh
out=bench/results/$(date +%F)-$(hostname -s)-python.txt
unset LEXLINK_DATA
export XDG_CACHE_HOME=$tmp/cache
{
  echo "# bench/python_bench.sh $build ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%FT%TZ))"
  echo "# machine: $(nproc) cores, $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}')"
  echo "# the installed package (lib/python3/dist-packages) and liblexlink.so; $(/usr/bin/python3 --version)"
  for j in it auto; do
    for run in 1 2 3; do
      echo "## jurisdiction $j, run $run: C"
      LD_LIBRARY_PATH=$tmp/prefix/lib "$tmp/c_api_bench" "$tmp/paragraph.txt" 1 20000 \
        $([ "$j" = auto ] || echo "$j") | grep 'us/call'
      echo "## jurisdiction $j, run $run: Python"
      PYTHONPATH=$tmp/prefix/lib/python3/dist-packages /usr/bin/python3 bench/python_bench.py \
        "$tmp/paragraph.txt" 20000 "$j" | grep 'us/call'
    done
  done
} | tee "$out"
echo "written to $out" >&2
