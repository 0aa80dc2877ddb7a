#!/usr/bin/env bash
# Issue 4's bad inputs at full size, each through `lexlink extract`: wall and CPU time, peak RSS,
# exit status and citations found. The test suite runs small versions of the same inputs
# (tests/cli/extract_cli_test.cpp); this script shows the bounds hold at the sizes the issue
# names: 1 GB without a newline, a million citations in one file (and four and six million,
# denser), a list of 100,000 items, a binary file of 100 MB, 100 MB of random bytes. Results land
# in bench/results/. Then `lexlink markup --citations` applies the million citations extract found.
# `bench/hostile_inputs.sh markup-dense` runs issue 27's markup-dense HTML instead (a 70 MB
# paragraph of ten million empty inline tags, and variants) through extract and markup, each
# with the default jurisdiction and with auto: peak RSS must stay under 100 MB.
# Usage: bench/hostile_inputs.sh [markup-dense] (needs about 2.5 GB free in $TMPDIR).
set -euo pipefail
cd "$(dirname "$0")/.."
case=${1:-}
if [ -n "$case" ] && [ "$case" != markup-dense ]; then
  echo "usage: bench/hostile_inputs.sh [markup-dense]" >&2
  exit 2
fi
./scripts/build.sh
mkdir -p bench/results
out="bench/results/$(date +%Y-%m-%d)-$(hostname -s)-hostile-inputs${case:+-$case}.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Markup-dense HTML (issue 27): `<p>` then `<b></b>` ten million times (70 MB, as some
# word-processor exports look), the same closed by `</p>`, with a letter between the tags, with
# a citation every 100,000 tags, with `<span>`s carrying attributes, and after a word (no white
# space anywhere: cut between tags from 2x chunk_bytes). Each through extract and markup,
# default jurisdiction and auto: wall and CPU time, peak RSS, citations (extract) and links
# inserted (markup).
markup_dense() {
  python3 - "$tmp" <<'PY'
import sys
d, n = sys.argv[1], 10_000_000
cite = b" ai sensi dell'articolo 3 della legge 3 aprile 2000, n. 56 "
def w(name, data):
    with open(f"{d}/{name}", "wb") as f:
        f.write(data)
w("empty-tags.html", b"<p>" + b"<b></b>" * n)
w("closed-tags.html", b"<p>" + b"<b></b>" * n + b"</p>\n")
w("letter-tags.html", b"<p>" + b"<b>x</b>" * n)
w("cite-tags.html", b"<p>" + (b"<b></b>" * 100_000 + cite) * (n // 100_000))
w("span-tags.html", b"<p>" + b'<span class="c1" style="font-weight:bold"></span>' * (n // 5))
w("word-tags.html", b"<p>art" + b"<b></b>" * n)
PY
  echo "# lexlink extract and markup on markup-dense HTML, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  local name f j command status wall user rss_kb found
  for name in empty-tags.html closed-tags.html letter-tags.html cite-tags.html span-tags.html \
              word-tags.html; do
    f="$tmp/$name"
    for command in extract markup; do
      for j in it auto; do
        set +e
        /usr/bin/time -f "%e %U %M" -o "$tmp/time" build/lexlink "$command" --jurisdiction "$j" \
          "$f" > "$tmp/out" 2> "$tmp/err"
        status=$?
        set -e
        read -r wall user rss_kb < <(tail -n 1 "$tmp/time")
        if [ "$command" = extract ]; then
          found="$(grep -c '"urn"' "$tmp/out" || true) citations"
        else
          found="$({ grep -o '<a data-lexlink=""' "$tmp/out" || true; } | wc -l) links"
        fi
        awk -v n="$name" -v b="$(stat -c %s "$f")" -v c="$command --jurisdiction $j" -v w="$wall" \
            -v u="$user" -v r="$rss_kb" -v s="$status" -v found="$found" 'BEGIN {
          printf "%-16s %5.1f MB  %-25s exit %d, %s, wall %.1f s, user %.1f s, peak RSS %.0f MB\n",
                 n, b / 1e6, c, s, found, w, u, r / 1024 }'
      done
    done
    rm -f "$f"
  done
}
if [ "$case" = markup-dense ]; then
  markup_dense | tee "$out"
  exit 0
fi

# 1 GB on one line: words, numbers and a citation every 10 MB, no newline anywhere.
python3 - "$tmp/one-line.txt" <<'EOF'
import sys
filler = ("parole senza citazioni 123 e altre parole " * 2000).encode()
cite = b" ai sensi dell'articolo 3 della legge 3 aprile 2000, n. 56 "
with open(sys.argv[1], "wb") as f:
    written = 0
    while written < 1_000_000_000:
        block = filler * (10_000_000 // len(filler)) + cite
        f.write(block)
        written += len(block)
EOF
# A million citations, one line each.
python3 - "$tmp/million.txt" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1_000_000):
        f.write(f"articolo {i % 90 + 1} della legge {i % 28 + 1} aprile {1950 + i % 70}, n. {i + 1};\n")
EOF
# Citations as dense as they come: four million on one line, a citation every 13 bytes (where
# the chunks cannot be cut between citations, see README "Large files"), and six million short
# ones, a line each (a citation every 9 bytes). Memory follows this density, not the file's size.
python3 - "$tmp/dense-line.txt" "$tmp/dense-lines.txt" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("".join(f"l. {i % 900 + 1}/1990; " for i in range(4_000_000)))
with open(sys.argv[2], "w") as f:
    f.write("".join(f"l. {i % 90 + 1}/90\n" for i in range(6_000_000)))
EOF
# "artt. 1, 2, 3, ..., 100000 della legge 3 aprile 2000, n. 56"
python3 - "$tmp/list.txt" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("artt. " + ", ".join(str(i) for i in range(1, 100_001)) + " della legge 3 aprile 2000, n. 56\n")
EOF
# A binary (an ELF header, then zeros and code-like bytes) and random bytes.
python3 - "$tmp/binary.bin" "$tmp/random.bin" <<'EOF'
import os, sys
with open(sys.argv[1], "wb") as f:
    f.write(b"\x7fELF\x02\x01\x01" + b"\0" * 9)
    for _ in range(100):
        f.write(bytes(range(256)) * 4096)
with open(sys.argv[2], "wb") as f:
    for _ in range(100):
        f.write(os.urandom(1_000_000))
EOF

{
  echo "# lexlink extract on hostile inputs, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for name in one-line.txt million.txt dense-line.txt dense-lines.txt list.txt binary.bin random.bin; do
    f="$tmp/$name"
    set +e
    /usr/bin/time -f "%e %U %M" -o "$tmp/time" build/lexlink extract --jurisdiction it "$f" \
      > "$tmp/out" 2> "$tmp/err"
    status=$?
    set -e
    read -r wall user rss_kb < <(tail -n 1 "$tmp/time")
    cites=$(grep -c '"urn"' "$tmp/out" || true)
    errors=$(grep -c '"error"' "$tmp/out" || true)
    awk -v n="$name" -v b="$(stat -c %s "$f")" -v w="$wall" -v u="$user" -v r="$rss_kb" \
        -v s="$status" -v c="$cites" -v e="$errors" 'BEGIN {
      printf "%-15s %7.1f MB: exit %d, %d citations, %d error records, wall %.1f s, user %.1f s, peak RSS %.0f MB\n",
             n, b / 1e6, s, c, e, w, u, r / 1024 }'
    if [ "$errors" -gt 0 ]; then sed -n '1p' "$tmp/out" | cut -c1-200; fi
  done
  # markup --citations with the million citations extract found there (JSON Lines in extract's
  # order: the file is checked, then streamed; its size does not set the memory).
  build/lexlink extract --jurisdiction it "$tmp/million.txt" > "$tmp/million.jsonl"
  /usr/bin/time -f "%e %U %M" -o "$tmp/time" build/lexlink markup --format text \
    --citations "$tmp/million.jsonl" "$tmp/million.txt" -o "$tmp/million.out"
  read -r wall user rss_kb < <(tail -n 1 "$tmp/time")
  awk -v b="$(stat -c %s "$tmp/million.jsonl")" -v w="$wall" -v u="$user" -v r="$rss_kb" 'BEGIN {
    printf "markup --citations of million.txt (%.1f MB of JSON Lines): wall %.1f s, user %.1f s, peak RSS %.0f MB\n",
           b / 1e6, w, u, r / 1024 }'
} | tee "$out"
