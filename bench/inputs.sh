# bench/inputs.sh: the inputs the benchmarks (and scripts/build-pgo.sh's training run) build from
# the bundled corpora, in one place so that every script measures the same documents. Sourced,
# from the repository root; defines:
#   repeat_texts OUT BYTES CORPUS  appends corpora/CORPUS/text/*.txt to OUT, whole, until OUT
#                                  holds at least BYTES bytes (OUT is not emptied first; no
#                                  texts there: a message and status 1);
#   text_to_html TEXT_FILE         prints the text as an HTML document, one <p> per line
#                                  (& < > escaped), titled with the file's name.

repeat_texts() {
  local out=$1 bytes=$2 corpus=$3
  # A corpus with no texts would never fill OUT: say so instead of looping.
  if ! compgen -G "corpora/$corpus/text/*.txt" > /dev/null; then
    echo "repeat_texts: no corpora/$corpus/text/*.txt (CORPUS is a folder of corpora/)" >&2
    return 1
  fi
  while [ "$(stat -c %s "$out" 2>/dev/null || echo 0)" -lt "$bytes" ]; do
    cat corpora/"$corpus"/text/*.txt >> "$out"
  done
}

text_to_html() {
  local src=$1
  printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s</title></head><body>\n' \
    "$(basename "$src" .txt)"
  sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s|^\(.*\)$|<p>\1</p>|' "$src"
  printf '</body></html>\n'
}
