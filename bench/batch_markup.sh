#!/usr/bin/env bash
# The batch benchmark of issue 5 (one machine): `lexlink markup --out-dir` over N_FILES
# (default 2000) documents built from the project's corpora: Italian and Portuguese text as
# plain text and as HTML (one <p> per line), UK CLML and ZA Akoma Ntoso XML as they are.
# Runs with 1 and 2 jobs (and JOBS="1 2 4" to choose) and HTML only with 1 job, REPEAT times
# interleaved, after waiting SETTLE seconds (default 65) for the filesystem; prints files/s,
# MB/s (wall clock), MB/s per core (user+sys CPU time, and user time alone), citations, peak RSS
# (GNU time -v) and the scaling 1 -> N jobs, and keeps them with the machine description in
# bench/results/. Each figure is the median of REPEAT runs, column by column.
# The machine is shared: CPU-time figures are the stable ones. Every run writes a new output
# tree and none is deleted before the end: on ext4 without a journal (this VM's disk) creating a
# file skips every inode freed in the last 30 s (find_inode_bit -> recently_deleted), so an
# `rm -rf` of the last run's outputs made the next run's file creation quadratic, and on 2 jobs
# both threads walked the same freed inodes (CPU time doubled, no scaling). Other processes'
# deletions in the same block group still do (on the shared VM, the test suites' temporary
# folders in /tmp: 24% of a run's samples in find_inode_bit there, 0.1% under /var/tmp), so the
# outputs go under /var/tmp; the system time is printed apart.
# BENCH_TMPDIR: where the corpus and outputs go (default /var/tmp); RESULTS: the results file.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/inputs.sh
n_files=${N_FILES:-2000}
jobs_list=${JOBS:-"1 2"}
repeat=${REPEAT:-3}
lexlink=${LEXLINK:-build/lexlink}
[ -n "${LEXLINK:-}" ] || ./scripts/build.sh
mkdir -p bench/results
out=${RESULTS:-"bench/results/$(date +%Y-%m-%d)-$(hostname -s)-batch-markup.txt"}
tmp=$(mktemp -d -p "${BENCH_TMPDIR:-/var/tmp}")
trap 'rm -rf "$tmp"' EXIT

# The documents: in/{text,html,xml}/dNN/NAME, cycling through the sources.
mapfile -t texts < <(ls corpora/it-normattiva-gazzetta-civica/text/*.txt corpora/br-lexml-eta/text/*.txt)
mapfile -t xmls < <(ls corpora/uk-clml/raw/*.xml corpora/za-laws-africa-bylaws/raw/*.xml)
for src in "${texts[@]}"; do  # the HTML version of each text, made once
  text_to_html "$src" > "$tmp/$(basename "$src" .txt).html"
done
for ((i = 0; i < n_files; i++)); do
  d=$(printf 'd%02d' $((i % 50)))
  case $((i % 3)) in
    0) src=${texts[$((i / 3 % ${#texts[@]}))]}; kind=text; name="f$i.txt" ;;
    1) src="$tmp/$(basename "${texts[$((i / 3 % ${#texts[@]}))]}" .txt).html"; kind=html; name="f$i.html" ;;
    2) src=${xmls[$((i / 3 % ${#xmls[@]}))]}; kind=xml; name="f$i.xml" ;;
  esac
  mkdir -p "$tmp/in/$kind/$d"
  cp "$src" "$tmp/in/$kind/$d/$name"
done
total_bytes=$(find "$tmp/in" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
html_bytes=$(find "$tmp/in/html" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
"$lexlink" extract --jobs 2 "$tmp/in" > /dev/null 2>&1 || true  # warm the page cache and trigger cache

# The corpus was just written, and the warm-up above wrote and deleted nothing, but other
# deletions on the same filesystem may be recent: wait SETTLE seconds (default 65, past the 30 s
# window of recently_deleted with a margin) so the first runs do not pay for them.
sleep "${SETTLE:-65}"

# run_once LABEL JOBS DIR R: one run, its figures appended to $tmp/runs.LABEL.JOBS.
run_once() {
  local label=$1 jobs=$2 dir=$3 r=$4
  local out_dir="$tmp/out.$label.$jobs.$r"  # new each time: see the note at the top
  /usr/bin/time -v -o "$tmp/time" "$lexlink" markup --out-dir "$out_dir" --jobs "$jobs" \
    --progress none --stats "$tmp/stats.json" "$dir"
  wall=$(grep -F 'Elapsed (wall clock)' "$tmp/time" | awk '{ print $NF }' |
    awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  user=$(grep -F 'User time' "$tmp/time" | awk '{ print $NF }')
  sys=$(grep -F 'System time' "$tmp/time" | awk '{ print $NF }')
  rss=$(grep -F 'Maximum resident' "$tmp/time" | awk '{ print $NF }')
  files=$(sed 's/.*"files_done":\([0-9]*\).*/\1/' "$tmp/stats.json")
  cites=$(sed 's/.*"citations":\([0-9]*\).*/\1/' "$tmp/stats.json")
  echo "$wall $user $sys $rss $files $cites" >> "$tmp/runs.$label.$jobs"
}

# report LABEL JOBS BYTES: the medians (column by column) of the runs, one result line.
report() {
  local label=$1 jobs=$2 bytes=$3 runs="$tmp/runs.$1.$2"
  median() { awk "{ print $1 }" "$runs" | sort -g | awk -v m=$(((repeat + 1) / 2)) 'NR == m'; }
  wall=$(median '$1') user=$(median '$2') sys=$(median '$3') rss=$(median '$4')
  files=$(median '$5') cites=$(median '$6') cpu=$(median '$2 + $3')
  echo "$label $jobs $wall $cpu" >> "$tmp/walls"
  awk -v l="$label" -v j="$jobs" -v b="$bytes" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
      -v f="$files" -v c="$cites" -v cpu="$cpu" 'BEGIN {
    printf "%-5s jobs %d: %d files, %.1f MB, %d citations; wall %.2f s: %.0f files/s, %.1f MB/s; CPU %.2f s (user %.2f, sys %.2f): %.1f MB/s per core (%.1f on user time); peak RSS %.1f MB\n",
           l, j, f, b / 1e6, c, w, f / w, b / 1e6 / w, cpu, u, s, b / 1e6 / cpu, b / 1e6 / u, r / 1024 }'
}

{
  echo "# lexlink markup --out-dir, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), median of $repeat runs"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ { print $2 }') GB RAM, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
  echo "# corpus: $n_files files (text, HTML made from the text corpora, CLML/AKN XML), $(awk -v b="$total_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
  # Interleaved (1 job, 2 jobs, HTML, then again), so that a slow spell of the shared machine
  # or of its filesystem falls on every configuration alike, not on one.
  for ((r = 0; r < repeat; r++)); do
    for j in $jobs_list; do run_once all "$j" "$tmp/in" "$r"; done
    run_once html 1 "$tmp/in/html" "$r"
  done
  for j in $jobs_list; do report all "$j" "$total_bytes"; done
  report html 1 "$html_bytes"
  base=$(awk '$1 == "all" && $2 == 1 { print $3 }' "$tmp/walls")
  base_cpu=$(awk '$1 == "all" && $2 == 1 { print $4 }' "$tmp/walls")
  for j in $jobs_list; do
    [ "$j" = 1 ] && continue
    awk -v j="$j" -v b="$base" -v c="$base_cpu" '$1 == "all" && $2 == j {
      printf "scaling 1 -> %d jobs (wall clock): %.2fx; CPU time %.2f -> %.2f s (%.2fx)\n", j, b / $3, c, $4, $4 / c }' "$tmp/walls"
  done
  echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end (the machine is shared: wall-clock figures move with it)"
} | tee "$out"
