#!/usr/bin/env bash
# bench/large/run.sh: batch `lexlink markup` over the large real corpus (build_corpus.sh) with
# JOBS (default "1 2") threads, REPS (default 3) runs each, and the median of each figure:
# wall time, CPU time (user+sys), MB/s and citations/s on the wall clock and per core (CPU time),
# peak RSS (GNU time), the speed-up of each JOBS over 1 thread, and the CPU time the machine spent
# besides lexlink meanwhile (other CPU, steal). Keeps the results with a
# description of the machine in bench/results/<date>-<host>-large-corpus.txt.
#   RESULTS (the results file), LEXLINK (default build/lexlink, built by scripts/build.sh), MARKUP_OPTS (default
#   "--jurisdiction auto"), PARTS (default "legi corpora": each part of the corpus measured alone,
#   then the whole), REPEAT_MB and LEGI_VERSION (passed to build_corpus.sh), BENCH_TMPDIR
#   (default /var/tmp: where the outputs go), SETTLE (default 65: seconds to wait first).
# Every run writes a new output tree and none is deleted before the end, and a part's runs with
# each JOBS alternate: on ext4 without a journal (the development VM) creating files right after
# many were deleted scans the freed inodes (see bench/batch_markup.sh), which made the system
# time of the runs after an `rm -rf` swing and the 1 -> 2 jobs speed-up with it.
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
tmp=$(mktemp -d -p "${BENCH_TMPDIR:-/var/tmp}")
trap 'rm -rf "$tmp"' EXIT

mkdir -p bench/results
out=${RESULTS:-"bench/results/$(date +%Y-%m-%d)-$(hostname -s)-large-corpus.txt"}

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# stat_num FILE KEY: the first number after "KEY": in a JSON file.
stat_num() { grep -o "\"$2\"[[:space:]]*:[[:space:]]*[0-9.]*" "$1" | head -1 | grep -o '[0-9.]*$' || echo 0; }

# cpu_ticks: the machine's busy and stolen time so far, in seconds: "BUSY STEAL" (/proc/stat:
# user, nice, system, irq, softirq and steal are busy; steal is the hypervisor's share).
cpu_ticks() {
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / { print ($2 + $3 + $4 + $7 + $8 + $9) / hz, $9 / hz; exit }' /proc/stat
}

# run_once NAME JOBS PATH R: one run, its figures appended to $tmp/runs.NAME.JOBS.
run_once() {
  local name=$1 j=$2 path=$3 r=$4 rc=0
  local out_dir="$tmp/out.$name.$j.$r"  # new each time: see the note at the top
  local busy0 steal0 busy1 steal1
  read -r busy0 steal0 < <(cpu_ticks)
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$LEXLINK" markup --out-dir "$out_dir" --jobs "$j" \
    --progress none --stats "$tmp/stats.json" "${markup_opts[@]}" "$path" > "$tmp/log" 2>&1 || rc=$?
  read -r busy1 steal1 < <(cpu_ticks)
  if [ $rc -gt 1 ]; then echo "run.sh: lexlink markup failed ($rc): $(tail -3 "$tmp/log")" >&2; exit 1; fi
  local wall user sys rss
  read -r wall user sys rss < <(tail -1 "$tmp/time")
  # other: CPU time the machine spent during the run besides lexlink's (the kernel's writeback
  # threads, other processes), which shares the cores with the jobs.
  local other
  other=$(awk -v a="$busy0" -v b="$busy1" -v u="$user" -v s="$sys" -v sa="$steal0" -v sb="$steal1" \
    'BEGIN { o = (b - a) - (u + s); if (o < 0) o = 0; printf "%.2f %.2f", o, sb - sa }')
  echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss $(stat_num "$tmp/stats.json" citations) $(stat_num "$tmp/stats.json" errors) $user $other" >> "$tmp/runs.$name.$j"
}

# report NAME JOBS PATH: the medians of the runs, one result line; keeps the wall in $tmp/NAME-JOBS.
report() {
  local name=$1 j=$2 path=$3 runs="$tmp/runs.$1.$2"
  local bytes files wall cpu rss cites errs user
  bytes=$(du -sb --apparent-size "$path" | cut -f1)
  files=$(find "$path" -type f | wc -l)
  wall=$(cut -d' ' -f1 "$runs" | median)
  cpu=$(cut -d' ' -f2 "$runs" | median)
  rss=$(cut -d' ' -f3 "$runs" | median)
  cites=$(cut -d' ' -f4 "$runs" | median)
  errs=$(cut -d' ' -f5 "$runs" | median)
  user=$(cut -d' ' -f6 "$runs" | median)
  local other steal
  other=$(cut -d' ' -f7 "$runs" | median)
  steal=$(cut -d' ' -f8 "$runs" | median)
  echo "$wall" > "$tmp/$name-$j"
  local speedup="-"
  [ "$j" = 1 ] || [ ! -f "$tmp/$name-1" ] || speedup=$(awk -v a="$(cat "$tmp/$name-1")" -v b="$wall" 'BEGIN { printf "%.2fx", a / b }')
  awk -v n="$name" -v j="$j" -v B="$bytes" -v F="$files" -v w="$wall" -v c="$cpu" -v r="$rss" -v k="$cites" -v e="$errs" -v s="$speedup" -v u="$user" -v o="$other" -v st="$steal" 'BEGIN {
    printf "%-8s jobs=%s  %6.1f MB %6d files  wall %6.2f s  cpu %6.2f s  %6.1f MB/s  %6.1f MB/s per core (%.1f on user time)  %8.0f citations/s  %8.0f citations/s per core  peak RSS %4.0f MB  errors %d  speed-up %s  other CPU %.2f s (steal %.2f s)\n",
      n, j, B / 1e6, F, w, c, B / 1e6 / w, B / 1e6 / c, B / 1e6 / u, k / w, k / c, r / 1024, e, s, o, st }'
}

# measure NAME PATH: REPS rounds, each running every JOBS once; then one line per JOBS.
measure() {
  local name=$1 path=$2 r j
  for ((r = 1; r <= REPS; r++)); do
    for j in $JOBS; do run_once "$name" "$j" "$path" "$r"; done
  done
  for j in $JOBS; do report "$name" "$j" "$path"; done
}

sleep "${SETTLE:-65}"  # past the 30 s in which ext4 (no journal) rescans freed inodes

{
  echo "# lexlink markup --out-dir (batch) on the large corpus, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(. /etc/os-release && echo "$PRETTY_NAME"), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# corpus: bench/large/build_corpus.sh (legi-data ${LEGI_VERSION:-2.513.0}, corpora repeated to ${REPEAT_MB:-100} MB), digest $(sha256sum < "$corpus.sha256sums" | cut -c1-16)"
  echo "# options: ${markup_opts[*]}; medians of $REPS runs (JOBS alternating); MB/s on the wall clock, MB/s per core = MB / CPU time (user+sys); citations from --stats"
  echo "# other CPU: the machine's busy time during a run (/proc/stat) minus lexlink's: the kernel's writeback threads and other processes, on the same cores; steal: the hypervisor's share"
  for part in $PARTS all; do
    p="$corpus/$part"
    [ "$part" = all ] && p=$corpus
    measure "$part" "$p"
  done
} | tee "$out"
echo "results kept in $out" >&2
