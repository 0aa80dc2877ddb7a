# Sourced by bench/c_api_bench.sh and bench/python_bench.sh: installs BUILD ($build) into
# $tmp/prefix, builds bench/c_api_bench.c there with plain `cc $(pkg-config --cflags --libs
# lexlink)` into $tmp/c_api_bench, and writes the 1 KB Italian paragraph both measure (the first
# line of 900-1200 bytes holding "legge" in the bundled Normattiva corpus) to $tmp/paragraph.txt.
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
# shellcheck disable=SC2046
cc -O2 -std=c99 -Wall -Werror -o "$tmp/c_api_bench" bench/c_api_bench.c \
  $(pkg-config --cflags --libs lexlink)
awk 'length($0) >= 900 && length($0) <= 1200 && /legge/ { printf "%s", $0; exit }' \
  corpora/it-normattiva-gazzetta-civica/text/*.txt > "$tmp/paragraph.txt"
