#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang++-14 (ASan + UBSan) into build-fuzz/ and
# runs each one for LEXLINK_FUZZ_SECONDS seconds (default 20), seeded with the documents of the
# golden tests (tests/data/text/views/) and tests/fuzz/seeds/<target>/ when it exists. Inputs it
# finds stay in build-fuzz/corpus/<target>/; a failure leaves its input as build-fuzz/crash-*
# (replay: build-fuzz/tests/fuzz/<target> build-fuzz/crash-...). Exit status 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${LEXLINK_FUZZ_SECONDS:-20}"
cxx=clang++-14
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: $cxx not found (Debian packages clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLEXLINK_FUZZ=ON -DLEXLINK_BENCH=OFF -DCMAKE_CXX_FLAGS="$flags" >/dev/null
mapfile -t targets < <(ninja -C build-fuzz -t targets all |
  sed -n 's/^\([a-z0-9_]*_fuzz\): phony$/\1/p' | grep -v '^cmake_' | sort -u)
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz.sh: no *_fuzz target in tests/fuzz/" >&2
  exit 1
fi
ninja -C build-fuzz "${targets[@]}"
for t in "${targets[@]}"; do
  corpus="build-fuzz/corpus/$t"
  mkdir -p "$corpus"
  seeds=(tests/data/text/views)
  if [ -d "tests/fuzz/seeds/$t" ]; then seeds+=("tests/fuzz/seeds/$t"); fi
  echo "== fuzz $t for ${seconds}s" >&2
  log="build-fuzz/$t.log"
  if ! ASAN_OPTIONS=detect_leaks=1 "build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" \
      -max_len=16384 -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
      -artifact_prefix=build-fuzz/ "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz.sh: $t failed (log: $log; the input: build-fuzz/crash-* or leak-* or timeout-*)" >&2
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" | tr '\n' ' ' >&2
  echo >&2
done
echo "== fuzzing passed (${#targets[@]} targets, ${seconds}s each)" >&2
