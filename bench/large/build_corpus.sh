#!/usr/bin/env bash
# build_corpus.sh [DIR]: builds the large real corpus of the batch benchmark (bench/large/README.md)
# in DIR (default .cache/large-corpus/corpus, git-ignored) and prints DIR.
#  legi/     the French codes of the npm package @socialgouv/legi-data@$LEGI_VERSION (fetched with
#            `npm pack`, checked against its SHA-256): one HTML page per section holding articles,
#            and each whole code as one plain-text file (bench/large/legi_to_docs.js, node);
#  corpora/  the project's corpora/ documents (Italian, Brazilian, UK and South African: text,
#            Markdown, XML, and an HTML page per text) repeated until REPEAT_MB (default 100) MB,
#            each copy differing by its first line (or a comment after an XML root element).
# Reproducible: the same version and REPEAT_MB give the same bytes; DIR.sha256sums lists them and
# its digest names the corpus in the results. Rebuilt only when an input or this script changed.
# The package's licence (Apache-2.0) is kept beside it as DIR.legi-LICENSE.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."
LEGI_VERSION=${LEGI_VERSION:-2.513.0}
LEGI_SHA256=${LEGI_SHA256:-10b1764253677990bb889057a49e8ddbc8486173502b38e7a1c75a7260b42de5}
REPEAT_MB=${REPEAT_MB:-100}
cache=${LEXLINK_BENCH_CACHE:-.cache/large-corpus}
dir=${1:-$cache/corpus}
mkdir -p "$cache"

key="legi=$LEGI_VERSION repeat_mb=$REPEAT_MB builder=$(cat bench/large/build_corpus.sh bench/large/legi_to_docs.js corpora/*/text/* corpora/*/raw/*.md corpora/*/raw/*.xml | sha256sum | cut -c1-16)"
if [ -f "$dir.built" ] && [ "$(cat "$dir.built")" = "$key" ]; then
  echo "$dir"; exit 0
fi
command -v node >/dev/null || { echo "build_corpus: needs node and npm (Debian: apt-get install npm, or scripts/install-deps.sh --bench)" >&2; exit 1; }

tgz="$cache/socialgouv-legi-data-$LEGI_VERSION.tgz"
if [ ! -f "$tgz" ]; then
  echo "build_corpus: npm pack @socialgouv/legi-data@$LEGI_VERSION" >&2
  command -v npm >/dev/null || { echo "build_corpus: needs npm (Debian: apt-get install npm)" >&2; exit 1; }
  (cd "$cache" && npm pack --silent "@socialgouv/legi-data@$LEGI_VERSION" >/dev/null)
fi
echo "$LEGI_SHA256  $tgz" | sha256sum -c --quiet - ||
  { echo "build_corpus: $tgz is not the expected package (sha256); remove it to fetch again" >&2; exit 1; }

rm -rf "$dir" "$dir.built" "$cache/package"
mkdir -p "$dir"
tar -xzf "$tgz" -C "$cache" package/data package/LICENSE
node bench/large/legi_to_docs.js "$cache/package/data" "$dir/legi"
cp "$cache/package/LICENSE" "$dir.legi-LICENSE"
rm -rf "$cache/package"

# The project's corpora, repeated (bash built-ins only in the loop: thousands of files).
declare -a names bodies htmls
for f in corpora/*/text/*.txt corpora/*/raw/*.md corpora/*/raw/*.xml; do
  [ -f "$f" ] || continue
  c=${f#corpora/}; c=${c%%/*}
  names+=("$c/${f##*/}")
  IFS= read -r -d '' body < "$f" || true
  bodies+=("$body")
  if [[ "$f" == *.txt ]]; then
    htmls+=("$(sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' -e 's|^\(.\)|<p>\1|; s|\(.\)$|\1</p>|' "$f")")
  else
    htmls+=("")
  fi
done
limit=$((REPEAT_MB * 1000000))
total=0 rep=0
while [ "$total" -lt "$limit" ]; do
  rep=$((rep + 1))
  r=$(printf 'rep%04d' "$rep")
  for i in "${!names[@]}"; do
    name=${names[$i]}
    out="$dir/corpora/$r/$name"
    [ -d "${out%/*}" ] || mkdir -p "${out%/*}"
    case "$name" in
      *.xml) printf '%s\n<!-- copy %s -->\n' "${bodies[$i]}" "$rep" > "$out" ;;
      *) printf 'Copy %s.\n%s' "$rep" "${bodies[$i]}" > "$out" ;;
    esac
    total=$((total + ${#bodies[$i]} + 24))
    if [ -n "${htmls[$i]}" ]; then
      printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s, copy %s</title></head><body>\n%s\n</body></html>\n' \
        "${name##*/}" "$rep" "${htmls[$i]}" > "${out%.txt}.html"
      total=$((total + ${#htmls[$i]} + 120))
    fi
  done
done

(cd "$dir" && find . -type f | sort | xargs -d '\n' sha256sum) > "$dir.sha256sums"
echo "$key" > "$dir.built"
echo "build_corpus: $(wc -l < "$dir.sha256sums") files, $(du -sm --apparent-size "$dir" | cut -f1) MB in $dir (corpus digest $(sha256sum < "$dir.sha256sums" | cut -c1-16))" >&2
echo "$dir"
