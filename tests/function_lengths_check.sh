#!/usr/bin/env bash
# ctest function_lengths: (1) the scanner of scripts/function_lengths.py reads the cases of
# tests/data/function_lengths/cases.cpp.txt as expected.txt says (long functions found in
# namespaces, classes, constructors with braced initialisers, lambdas, around braces in
# literals; an explained one not reported), exiting 1; (2) extractor/ has no long function
# without a reason beyond scripts/function_lengths.allow.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(python3 scripts/function_lengths.py tests/data/function_lengths/cases.cpp.txt 2>/dev/null) && {
  echo "function_lengths.py passed cases.cpp.txt, which holds long functions" >&2
  exit 1
}
if ! diff <(printf '%s\n' "$out") tests/data/function_lengths/expected.txt >&2; then
  echo "function_lengths.py read cases.cpp.txt differently from expected.txt" >&2
  exit 1
fi
python3 scripts/function_lengths.py --baseline scripts/function_lengths.allow
