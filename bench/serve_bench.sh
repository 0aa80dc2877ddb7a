#!/usr/bin/env bash
# Issue 28's service figures, for the stateless endpoint: POST /v1/extract of one paragraph (up
# to 2 KB, the Italian and UK corpora's paragraphs of 200-2048 bytes) on loopback, with 32
# concurrent keep-alive clients (bench/serve_load.cpp) and with one: p50, p90, p99, max and
# requests per second, three runs of SECONDS each, alternating; and the server's peak RSS
# (VmHWM). The load generator runs on the same 2 cores as the server: the figures are a bound
# from below. Written to bench/results/DATE-HOST-serve.txt with the machine.
# Usage: bench/serve_bench.sh [BUILD_DIR] [SECONDS] (default build, 10; build it first)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
seconds=${2:-10}
tmp=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
cat corpora/it-normattiva-gazzetta-civica/text/* corpora/uk-clml/text/* |
  awk 'length($0) >= 200 && length($0) <= 2048' >"$tmp/paragraphs.txt"
export LEXLINK_DATA=$PWD
"$build/lexlink" serve --listen 127.0.0.1:0 --cache "$tmp/cache" 2>"$tmp/serve.err" &
server=$!
for _ in $(seq 100); do grep -q listening "$tmp/serve.err" && break; sleep 0.1; done
port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/serve.err" | head -1)
out=bench/results/$(date +%F)-$(hostname -s)-serve.txt
{
  echo "# bench/serve_bench.sh $build $seconds ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%FT%TZ))"
  echo "# machine: $(nproc) cores, $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}')"
  echo "# $(wc -l <"$tmp/paragraphs.txt") paragraphs of 200-2048 bytes, $(wc -c <"$tmp/paragraphs.txt") bytes; server and load generator on the same cores"
  echo "# server idle RSS: $(awk '/VmRSS/ {print $2, $3}' /proc/$server/status)"
  for run in 1 2 3; do
    for clients in 32 1; do
      echo "## run $run, $clients clients, jurisdiction auto"
      "$build/bench/serve_load" "$port" "$tmp/paragraphs.txt" "$clients" "$seconds" auto 2>&1 ||
        true  # failures are counted in the line, and listed above it
    done
  done
  echo "# server peak RSS (VmHWM): $(awk '/VmHWM/ {print $2, $3}' /proc/$server/status)"
} | tee "$out"
echo "written to $out" >&2
