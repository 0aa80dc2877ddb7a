#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang++-14 (ASan + UBSan) into build-fuzz/ and
# runs each one for LEXLINK_FUZZ_SECONDS seconds (default 20), one after the other.
#
#   scripts/fuzz.sh                   every target, 20 s each (CI: scripts/test.sh runs this)
#   scripts/fuzz.sh urn_fuzz ...      only these targets
#   scripts/fuzz.sh --long [T...]     an hour per target (LEXLINK_FUZZ_SECONDS=3600 does the same;
#                                     an explicit LEXLINK_FUZZ_SECONDS wins over --long)
#
# Each target is seeded with tests/fuzz/seeds/<target>/ (committed inputs: regressions, corpus
# paragraphs) and the repository's data that fits it, gathered into build-fuzz/seeds/<target>/:
#   *_view_fuzz, rewrite_roundtrip_fuzz   the documents of the golden tests (tests/data/text/views)
#   urn_fuzz            the names of tests/data/urn/*.tsv, corpora/samples/ and corpora/urn-names/
#   grammar_load_fuzz   grammars/*/*.grammar and the cases of tests/data/grammars-bad/
#   lexicon_load_fuzz   lexicons/*/*.tsv
#   citations_file_fuzz tests/data/rewrite/citations_files/*.jsonl
#   extract_fuzz        tests/fuzz/seeds/extract_fuzz/ only (paragraphs of corpora/*/text)
#   stream_request_fuzz the lines of tests/data/document/stream-requests.tsv
#   c_api_fuzz          extract_fuzz's seeds behind two option bytes (see c_api_fuzz.cpp)
#   service_request_fuzz the requests of tests/data/service/requests.tsv (service_seeds.py)
# and given tests/fuzz/dicts/<target>.dict when there is one. Inputs it finds stay in
# build-fuzz/corpus/<target>/ and seed the next run (a long run keeps growing the same corpus);
# a failure leaves its input as build-fuzz/crash-*, leak-* or timeout-* (replay:
# build-fuzz/tests/fuzz/<target> build-fuzz/crash-...; keep it in tests/fuzz/seeds/<target>/
# once fixed). Exit status 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
long=0
only=()
for arg in "$@"; do
  case "$arg" in
    --long) long=1 ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $arg" >&2; exit 2 ;;
    *) only+=("$arg") ;;
  esac
done
if [ "$long" = 1 ]; then default_seconds=3600; else default_seconds=20; fi
seconds="${LEXLINK_FUZZ_SECONDS:-$default_seconds}"
cxx=clang++-14
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: $cxx not found (Debian packages clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLEXLINK_FUZZ=ON -DLEXLINK_BENCH=OFF "${launcher[@]}" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
mapfile -t targets < <(ninja -C build-fuzz -t targets all |
  sed -n 's/^\([a-z0-9_]*_fuzz\): phony$/\1/p' | grep -v '^cmake_' | sort -u)
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz.sh: no *_fuzz target in tests/fuzz/" >&2
  exit 1
fi
if [ ${#only[@]} -gt 0 ]; then
  for t in "${only[@]}"; do
    if ! printf '%s\n' "${targets[@]}" | grep -qx "$t"; then
      echo "fuzz.sh: no target $t (targets: ${targets[*]})" >&2
      exit 2
    fi
  done
  targets=("${only[@]}")
fi
ninja -C build-fuzz "${targets[@]}"

# gather_seeds TARGET DIR: the repository's data that fits TARGET, one input per file in DIR.
gather_seeds() {
  local t="$1" dir="$2" f
  rm -rf "$dir"
  mkdir -p "$dir"
  case "$t" in
    *_view_fuzz | rewrite_roundtrip_fuzz) cp tests/data/text/views/* "$dir"/ 2>/dev/null || true ;;
    urn_fuzz)
      # One name per file: the first column of the URN tables, the sample names, the first 30
      # names of each corpus list.
      {
        for f in tests/data/urn/*.tsv; do grep -v '^#' "$f" | tail -n +2 | cut -f1; done
        cat corpora/samples/urn-names.txt
        for f in corpora/urn-names/*.txt; do head -n 30 "$f"; done
      } | sort -u | awk -v dir="$dir" 'NF { f = sprintf("%s/name-%04d", dir, NR); printf "%s", $0 > f; close(f) }'
      ;;
    grammar_load_fuzz)
      for f in grammars/*/*.grammar; do cp "$f" "$dir/$(basename "$f")"; done
      for f in tests/data/grammars-bad/*/grammars/g/*.grammar; do
        cp "$f" "$dir/bad-$(basename "$(dirname "$(dirname "$(dirname "$f")")")").grammar"
      done
      ;;
    lexicon_load_fuzz)
      for f in lexicons/*/*.tsv; do cp "$f" "$dir/$(basename "$(dirname "$f")")-$(basename "$f")"; done
      ;;
    citations_file_fuzz) cp tests/data/rewrite/citations_files/*.jsonl "$dir"/ ;;
    stream_request_fuzz)
      # One record per file: the lines of the stream records table.
      grep -v '^#' tests/data/document/stream-requests.tsv | tail -n +2 | cut -f1 |
        awk -v dir="$dir" '{ f = sprintf("%s/record-%03d", dir, NR); printf "%s", $0 > f; close(f) }'
      ;;
    service_request_fuzz)
      # One request per file, from the service's request table, in the target's layout (a byte
      # for method, Content-Type and Origin; the target; '\n'; the body).
      python3 tests/fuzz/service_seeds.py tests/data/service/requests.tsv "$dir"
      ;;
    c_api_fuzz)
      # The extractor's seeds (corpus paragraphs) behind two option bytes: defaults; HTML,
      # utf-8, resolver links with '#'; auto, the 256-byte limit, the URN functions.
      for f in tests/fuzz/seeds/extract_fuzz/*; do
        { printf '\000\000'; tail -c +2 "$f"; } >"$dir/plain-$(basename "$f")"
        { printf '\012\050'; tail -c +2 "$f"; } >"$dir/html-$(basename "$f")"
        { printf '\200\200'; tail -c +2 "$f" | head -c 300; } >"$dir/small-$(basename "$f")"
      done
      ;;
  esac
}

for t in "${targets[@]}"; do
  corpus="build-fuzz/corpus/$t"
  mkdir -p "$corpus"
  gather_seeds "$t" "build-fuzz/seeds/$t"
  seeds=("build-fuzz/seeds/$t")
  if [ -d "tests/fuzz/seeds/$t" ]; then seeds+=("tests/fuzz/seeds/$t"); fi
  dict=()
  if [ -f "tests/fuzz/dicts/$t.dict" ]; then dict=(-dict="tests/fuzz/dicts/$t.dict"); fi
  echo "== fuzz $t for ${seconds}s" >&2
  log="build-fuzz/$t.log"
  if ! ASAN_OPTIONS=detect_leaks=1 "build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" \
      -max_len=16384 -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 "${dict[@]}" \
      -artifact_prefix=build-fuzz/ "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz.sh: $t failed (log: $log; the input: build-fuzz/crash-* or leak-* or timeout-*)" >&2
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" | tr '\n' ' ' >&2
  echo >&2
done
echo "== fuzzing passed (${#targets[@]} targets, ${seconds}s each)" >&2
