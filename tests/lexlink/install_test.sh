#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds programs outside the tree against it:
# one with CMake (find_package(lexlink): lexlink::lexlink and lexlink::lexlink_static), one with
# plain `cc $(pkg-config --cflags --libs lexlink)` (and `pkg-config --static`). Each must load the
# installed data (PREFIX/share/lexlink, with no data folder named and $LEXLINK_DATA unset) and
# print the same citations, with UTF-16 offsets, as the CLI; the tree is then moved, and the
# programs built against it still find their data.
# Usage: tests/lexlink/install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/lexlink-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset LEXLINK_DATA
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/lexlink/lexlink.h include/lexlink/lexlink_c.h include/lexlink/status.h \
    lib/liblexlink.a lib/pkgconfig/lexlink.pc lib/cmake/lexlink/lexlinkConfig.cmake \
    share/lexlink/grammars/it/it.grammar share/lexlink/lexicons/it bin/lexlink; do
  [ -e "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
ls "$prefix"/lib/liblexlink.so.* >/dev/null

text='Visto l’art. 3 della legge 3 aprile 2000, n. 56 😀 e il d.lgs. 30 marzo 2001, n. 165'
# The CLI's answer: start end utf16_start utf16_end urn.
expected=$(printf '%s' "$text" | "$prefix/bin/lexlink" extract --offsets all - |
  python3 -c 'import json,sys
for l in sys.stdin:
    c=json.loads(l); print(c["start"],c["end"],c["utf16_start"],c["utf16_end"],c["urn"])')
[ "$(wc -l <<< "$expected")" -ge 2 ] || { echo "the CLI found too little: $expected" >&2; exit 1; }

# check NAME OUTPUT: the data folder is the installed one and the citations are the CLI's.
check() {
  local name=$1 out=$2 root=${3:-$prefix}
  local data
  data=$(head -1 <<< "$out")
  data=${data#data }
  [ "$(realpath "$data")" = "$(realpath "$root/share/lexlink")" ] || {
    echo "$name: data $data, expected $root/share/lexlink" >&2; exit 1; }
  [ "$(tail -n +2 <<< "$out")" = "$expected" ] || {
    echo "$name printed:" >&2; tail -n +2 <<< "$out" >&2; echo "expected:" >&2
    echo "$expected" >&2; exit 1; }
  echo "$name: ok"
}

cmake -S "$here/consumer" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
check "CMake, lexlink::lexlink" "$("$tmp/cmake-build/consumer" "$text")"
check "CMake, lexlink::lexlink_static" "$("$tmp/cmake-build/consumer_static" "$text")"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
cc -std=c99 -Wall -Werror -o "$tmp/c-consumer" "$here/consumer/consumer.c" \
  $(pkg-config --cflags --libs lexlink)
check "cc + pkg-config" "$(LD_LIBRARY_PATH=$prefix/lib "$tmp/c-consumer" "$text")"
# A static link of the same C program: liblexlink.a named (-l:), its dependencies from
# pkg-config --static (libstdc++ among them).
# shellcheck disable=SC2046
cc -std=c99 -Wall -Werror -o "$tmp/c-consumer-static" "$here/consumer/consumer.c" \
  $(pkg-config --static --cflags --libs lexlink | sed 's/-llexlink\b/-l:liblexlink.a/')
# Linked statically it has no library file to look beside: LEXLINK_DATA from the .pc file.
check "cc + pkg-config --static" \
  "$(LEXLINK_DATA=$(pkg-config --variable=datadir lexlink) "$tmp/c-consumer-static" "$text")"

# The Python package, installed under lib/python3/dist-packages: the installed data, the CLI's
# citations (the package is a thin layer over the same library).
python_check() {
  PYTHONPATH=$1/lib/python3/dist-packages ${LEXLINK_PYTHON:-/usr/bin/python3} -c '
import sys, lexlink
print("data", lexlink.default_data_folder())
for c in lexlink.Extractor().extract(sys.argv[1].encode()):
    print(c.start, c.end, c.utf16_start, c.utf16_end, c.urn)' "$text"
}
[ -f "$prefix/lib/python3/dist-packages/lexlink/_install.py" ] || {
  echo "not installed: the Python package" >&2; exit 1; }
check "Python" "$(python_check "$prefix")"

# The tree moved elsewhere: the shared library finds the data beside itself.
mv "$prefix" "$tmp/moved"
check "moved prefix" "$(LD_LIBRARY_PATH=$tmp/moved/lib "$tmp/c-consumer" "$text")" "$tmp/moved"
check "moved prefix, Python" "$(python_check "$tmp/moved")" "$tmp/moved"
echo "install test: ok"
