#!/usr/bin/env bash
# bench/large/run.sh: batch `lexlink markup` over the large real corpus (build_corpus.sh) with
# JOBS (default "1 2") threads, REPS (default 3) runs each, and the median of each figure:
# wall time, CPU time (user+sys), MB/s and citations/s on the wall clock and per core (CPU time),
# peak RSS (GNU time), and the speed-up of each JOBS over 1 thread. Keeps the results with a
# description of the machine in bench/results/<date>-<host>-large-corpus.txt.
#   LEXLINK (default build/lexlink, built by scripts/build.sh), MARKUP_OPTS (default
#   "--jurisdiction auto"), PARTS (default "legi corpora": each part of the corpus measured alone,
#   then the whole), REPEAT_MB and LEGI_VERSION (passed to build_corpus.sh).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."
JOBS=${JOBS:-1 2}
REPS=${REPS:-3}
PARTS=${PARTS:-legi corpora}
read -r -a markup_opts <<< "${MARKUP_OPTS:---jurisdiction auto}"
if [ -z "${LEXLINK:-}" ]; then ./scripts/build.sh; LEXLINK=build/lexlink; fi
[ -x /usr/bin/time ] || { echo "run.sh: needs GNU time (Debian package time)" >&2; exit 1; }
corpus=$(bench/large/build_corpus.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p bench/results
out="bench/results/$(date +%Y-%m-%d)-$(hostname -s)-large-corpus.txt"

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# stat_num FILE KEY: the first number after "KEY": in a JSON file.
stat_num() { grep -o "\"$2\"[[:space:]]*:[[:space:]]*[0-9.]*" "$1" | head -1 | grep -o '[0-9.]*$' || echo 0; }

# measure NAME JOBS PATH: REPS runs; prints one result line and keeps the medians in $tmp/NAME-JOBS.
measure() {
  local name=$1 j=$2 path=$3 r
  : > "$tmp/runs"
  for ((r = 1; r <= REPS; r++)); do
    rm -rf "$tmp/out"
    local rc=0
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$LEXLINK" markup --out-dir "$tmp/out" --jobs "$j" \
      --progress none --stats "$tmp/stats.json" "${markup_opts[@]}" "$path" > "$tmp/log" 2>&1 || rc=$?
    if [ $rc -gt 1 ]; then echo "run.sh: lexlink markup failed ($rc): $(tail -3 "$tmp/log")" >&2; exit 1; fi
    local wall user sys rss
    read -r wall user sys rss < <(tail -1 "$tmp/time")
    echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss $(stat_num "$tmp/stats.json" citations) $(stat_num "$tmp/stats.json" errors)" >> "$tmp/runs"
  done
  local bytes files wall cpu rss cites errs
  bytes=$(du -sb --apparent-size "$path" | cut -f1)
  files=$(find "$path" -type f | wc -l)
  wall=$(cut -d' ' -f1 "$tmp/runs" | median)
  cpu=$(cut -d' ' -f2 "$tmp/runs" | median)
  rss=$(cut -d' ' -f3 "$tmp/runs" | median)
  cites=$(cut -d' ' -f4 "$tmp/runs" | median)
  errs=$(cut -d' ' -f5 "$tmp/runs" | median)
  echo "$wall" > "$tmp/$name-$j"
  local speedup="-"
  [ "$j" = 1 ] || [ ! -f "$tmp/$name-1" ] || speedup=$(awk -v a="$(cat "$tmp/$name-1")" -v b="$wall" 'BEGIN { printf "%.2fx", a / b }')
  awk -v n="$name" -v j="$j" -v B="$bytes" -v F="$files" -v w="$wall" -v c="$cpu" -v r="$rss" -v k="$cites" -v e="$errs" -v s="$speedup" 'BEGIN {
    printf "%-8s jobs=%s  %6.1f MB %6d files  wall %6.2f s  cpu %6.2f s  %6.1f MB/s  %6.1f MB/s per core  %8.0f citations/s  %8.0f citations/s per core  peak RSS %4.0f MB  errors %d  speed-up %s\n",
      n, j, B / 1e6, F, w, c, B / 1e6 / w, B / 1e6 / c, k / w, k / c, r / 1024, e, s }'
}

{
  echo "# lexlink markup --out-dir (batch) on the large corpus, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(. /etc/os-release && echo "$PRETTY_NAME"), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# corpus: bench/large/build_corpus.sh (legi-data ${LEGI_VERSION:-2.513.0}, corpora repeated to ${REPEAT_MB:-100} MB), digest $(sha256sum < "$corpus.sha256sums" | cut -c1-16)"
  echo "# options: ${markup_opts[*]}; medians of $REPS runs; MB/s on the wall clock, MB/s per core = MB / CPU time (user+sys); citations from --stats"
  for part in $PARTS all; do
    p="$corpus/$part"
    [ "$part" = all ] && p=$corpus
    for j in $JOBS; do measure "$part" "$j" "$p"; done
  done
} | tee "$out"
echo "results kept in $out" >&2
