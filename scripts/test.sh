#!/usr/bin/env bash
# README command 2 (and CI, via .ci/run): the whole test suite.
#  1. dependencies (idempotent), 2. formatting check, 3. optimised build with warnings as errors
#  and every test, 4. AddressSanitizer + UndefinedBehaviorSanitizer build and every test again.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

echo "== format check (clang-format)" >&2
files=$(git ls-files 'extractor/*.cpp' 'extractor/*.h' 'tests/*.cpp' 'tests/*.h' 'tests/*.c' 'bench/*.cpp' 'bench/*.h' 'bench/*.c' 'bindings/*.cpp' 2>/dev/null \
        || find extractor tests bench bindings -name '*.cpp' -o -name '*.h' -o -name '*.c')
clang-format --dry-run --Werror $files

echo "== optimised build and tests" >&2
./scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"

echo "== sanitizers (ASan + UBSan) build and tests" >&2
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLEXLINK_WERROR=ON \
  -DLEXLINK_SANITIZE=ON -DLEXLINK_BENCH=OFF >/dev/null
cmake --build build-asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
./scripts/fuzz.sh  # libFuzzer targets of tests/fuzz/, LEXLINK_FUZZ_SECONDS (default 20) each
echo "== all tests passed" >&2
