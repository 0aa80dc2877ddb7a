#!/usr/bin/env bash
# Whether two lexlink binaries score alike: `lexlink eval` on every corpus folder that holds a
# gold.tsv (default: the team's ../shared/corpora and the bundled corpora/; else the folders
# given), run by both binaries as
#   eval DIR --details FILE, eval DIR --linked-only, eval DIR --limit 2,
#   and, on fr-* folders, eval DIR --measure code and eval DIR --measure code --linked-only
#   (--jobs 2 each). Compared: standard output without the throughput (" mb_s=..."), standard
# error, the exit status and the --details file. Both binaries read the same data: --data of
# this repository (the checkout holding this script), so only the code is compared. Prints
# "identical (N runs)" or the runs that differ (a diff of each) and exits 1.
# Usage: bench/compare_eval.sh REFERENCE_BINARY CANDIDATE_BINARY [CORPORA_DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/compare_eval.sh REFERENCE_BINARY CANDIDATE_BINARY [CORPORA_DIR...]" >&2
  exit 2
fi
ref=$1 new=$2
shift 2
if [ $# -eq 0 ]; then
  set -- ../shared/corpora corpora
fi
data=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run BINARY OUT NAME DIR ARGS...: one eval into OUT/NAME.{out,err,rc,details}.
run() {
  local bin=$1 out=$2 name=$3 dir=$4
  shift 4
  local rc=0
  "$bin" --data "$data" eval "$dir" --jobs 2 "$@" > "$out/$name.out" 2> "$out/$name.err" || rc=$?
  echo "$rc" > "$out/$name.rc"
  sed -i 's/ mb_s=[0-9.]*$//' "$out/$name.out"
}

runs=0
for corpora in "$@"; do
  [ -d "$corpora" ] || { echo "compare_eval: no folder $corpora (skipped)" >&2; continue; }
  for dir in "$corpora"/*/; do
    dir=${dir%/}
    [ -f "$dir/gold.tsv" ] || continue
    key=$(basename "$corpora")-$(basename "$dir")
    for side in reference candidate; do
      bin=$ref
      [ $side = candidate ] && bin=$new
      out=$tmp/$side
      mkdir -p "$out"
      run "$bin" "$out" "$key" "$dir" --details "$out/$key.details"
      run "$bin" "$out" "$key-linked-only" "$dir" --linked-only
      run "$bin" "$out" "$key-limit" "$dir" --limit 2
      case $(basename "$dir") in
        fr-*)
          run "$bin" "$out" "$key-measure-code" "$dir" --measure code
          run "$bin" "$out" "$key-measure-code-linked-only" "$dir" --measure code --linked-only
          ;;
      esac
    done
    runs=$((runs + 3))
    case $(basename "$dir") in fr-*) runs=$((runs + 2)) ;; esac
  done
done
if diff -r "$tmp/reference" "$tmp/candidate" > "$tmp/diff"; then
  echo "identical ($runs runs)"
else
  sed "s|$tmp/||g" "$tmp/diff" | head -40
  exit 1
fi
