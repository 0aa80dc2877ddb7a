#!/usr/bin/env bash
# The memory of `lexlink serve` under large requests: its resident size idle, at the peak of N
# raw markups of SIZE bytes at once (curl, text/plain), and a second after they are answered
# (issue 28: "memory returns to its idle level"). Written to bench/results/DATE-HOST-serve-memory.txt.
# Usage: bench/serve_memory.sh [BUILD_DIR] [N] [SIZE] (default build, 16, 8300000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-16}
size=${3:-8300000}
tmp=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
head -c "$size" <(head -c $((size * 3 / 4 + 100)) /dev/urandom | base64 -w 100) >"$tmp/doc.txt"
export LEXLINK_DATA=$PWD
"$build/lexlink" serve --listen 127.0.0.1:0 --cache "$tmp/cache" 2>"$tmp/serve.err" &
server=$!
for _ in $(seq 100); do grep -q listening "$tmp/serve.err" && break; sleep 0.1; done
port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/serve.err" | head -1)
rss() { awk -v k="$1" '$1 == k":" {print $2, $3}' "/proc/$server/status"; }
out=bench/results/$(date +%F)-$(hostname -s)-serve-memory.txt
{
  echo "# bench/serve_memory.sh $build $n $size ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%FT%TZ))"
  echo "# machine: $(nproc) cores, $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}')"
  echo "idle RSS: $(rss VmRSS)"
  for i in $(seq "$n"); do
    curl -s -o /dev/null -w '%{http_code}\n' -XPOST "localhost:$port/v1/markup" \
      -H 'Content-Type: text/plain' --data-binary @"$tmp/doc.txt" >"$tmp/status-$i" &
  done
  wait $(jobs -p | grep -v "^$server\$") 2>/dev/null || true
  echo "answers: $(cat "$tmp"/status-* | sort | uniq -c | tr '\n' ' ')"
  echo "peak RSS (VmHWM): $(rss VmHWM)"
  sleep 1
  echo "RSS a second after: $(rss VmRSS)"
} | tee "$out"
echo "written to $out" >&2
