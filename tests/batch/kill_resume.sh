#!/usr/bin/env bash
# A batch markup killed with SIGKILL mid-run, then rerun with --resume: the outputs are
# byte-identical to a clean run, no output is ever half-written (temporary names only), and
# the resumed run skips what the manifest recorded.
# usage: kill_resume.sh LEXLINK SOURCE_DIR
set -euo pipefail
lexlink=$1
src=$2
tmp=$(mktemp -d /tmp/lexlink-kill-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# ~320 documents from the project's corpora (text, CLML and AKN XML), in a few folders.
i=0
for round in $(seq 1 20); do
  for f in "$src"/corpora/it-normattiva-gazzetta-civica/text/*.txt \
           "$src"/corpora/uk-clml/raw/*.xml "$src"/corpora/za-laws-africa-bylaws/raw/*.xml; do
    d="$tmp/in/part$((i % 7))/r$round"
    mkdir -p "$d"
    cp "$f" "$d/$(basename "$f")"
    i=$((i + 1))
  done
done
echo "kill_resume: $i documents"

"$lexlink" markup --out-dir "$tmp/ref" --jobs 2 --progress none "$tmp/in"

"$lexlink" markup --out-dir "$tmp/out" --jobs 2 --resume --sync-every 10 --progress none "$tmp/in" &
pid=$!
# Kill once the manifest holds some records (it is written every 10 files), or after 30 s.
for _ in $(seq 1 600); do
  if [ -f "$tmp/out/.lexlink-manifest" ] && [ "$(wc -l < "$tmp/out/.lexlink-manifest")" -ge 12 ]; then
    break
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -9 "$pid" 2>/dev/null || echo "kill_resume: the run ended before the kill (machine fast)"
wait "$pid" 2>/dev/null || true

# Every output present under its final name is complete: identical to the clean run's.
done_before=0
while IFS= read -r -d '' f; do
  rel=${f#"$tmp/out/"}
  case "$(basename "$rel")" in .lexlink-manifest|.*.lexlink-tmp) continue ;; esac
  cmp -s "$f" "$tmp/ref/$rel" || { echo "FAIL: $rel differs from the clean run after SIGKILL"; exit 1; }
  done_before=$((done_before + 1))
done < <(find "$tmp/out" -type f -print0)
echo "kill_resume: $done_before complete outputs after the kill"

"$lexlink" markup --out-dir "$tmp/out" --jobs 2 --resume --progress none \
  --report "$tmp/report.jsonl" "$tmp/in"
skipped=$(grep -c '"status":"skipped"' "$tmp/report.jsonl" || true)
echo "kill_resume: resumed run skipped $skipped"

if find "$tmp/out" -name '*.lexlink-tmp' | grep -q .; then
  echo "FAIL: temporary files left after the resumed run"; exit 1
fi
diff -r --exclude=.lexlink-manifest "$tmp/ref" "$tmp/out" >/dev/null ||
  { echo "FAIL: resumed outputs differ from the clean run"; exit 1; }
records=$(grep -vc '^#' "$tmp/out/.lexlink-manifest")
[ "$records" -eq "$i" ] || { echo "FAIL: manifest has $records records for $i inputs"; exit 1; }

# SIGTERM (Slurm's notice before a kill): the run stops cleanly, finishing the files in flight,
# with every output it wrote recorded in the manifest and no temporary file left.
"$lexlink" markup --out-dir "$tmp/term" --jobs 2 --resume --progress none "$tmp/in" 2>"$tmp/term.err" &
pid=$!
for _ in $(seq 1 600); do
  [ "$(find "$tmp/term" -type f -name '*.txt' 2>/dev/null | wc -l)" -ge 20 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -TERM "$pid" 2>/dev/null || true
rc=0; wait "$pid" || rc=$?
if [ "$rc" -eq 143 ]; then
  grep -q "stopped by signal 15" "$tmp/term.err" || { echo "FAIL: no stop message"; cat "$tmp/term.err"; exit 1; }
  if find "$tmp/term" -name '*.lexlink-tmp' | grep -q .; then
    echo "FAIL: temporary files left after SIGTERM"; exit 1
  fi
  outputs=$(find "$tmp/term" -type f -not -name .lexlink-manifest | wc -l)
  records=$(grep -vc '^#' "$tmp/term/.lexlink-manifest" || true)
  [ "$outputs" -eq "$records" ] ||
    { echo "FAIL: after SIGTERM $outputs outputs but $records manifest records"; exit 1; }
  echo "kill_resume: SIGTERM stopped cleanly after $outputs files, all recorded"
else
  echo "kill_resume: the SIGTERM run ended with status $rc before the signal (machine fast)"
  [ "$rc" -eq 0 ] || exit 1
fi
"$lexlink" markup --out-dir "$tmp/term" --jobs 2 --resume --progress none "$tmp/in"
diff -r --exclude=.lexlink-manifest "$tmp/ref" "$tmp/term" >/dev/null ||
  { echo "FAIL: outputs after SIGTERM + resume differ from the clean run"; exit 1; }
echo "kill_resume: ok"
