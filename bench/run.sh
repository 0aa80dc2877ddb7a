#!/usr/bin/env bash
# Runs every benchmark on an optimised build and keeps the results, with a description of the
# machine, in bench/results/<date>-<host>.txt. Quote medians: the machine may be shared and noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
mkdir -p bench/results
out="bench/results/$(date +%Y-%m-%d)-$(hostname -s).txt"
{
  echo "# lexlink benchmarks, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
  for b in build/bench/*_bench; do
    echo "## $(basename "$b")"
    "$b" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>&1
  done
} | tee "$out"
echo "results kept in $out" >&2
