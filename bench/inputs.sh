# bench/inputs.sh: the inputs the benchmarks (and scripts/build-pgo.sh's training run) build from
# the bundled corpora, in one place so that every script measures the same documents. Sourced,
# from the repository root; defines:
#   repeat_texts OUT BYTES CORPUS  appends the corpus folder's text/*.txt to OUT, whole, until OUT
#                                  holds at least BYTES bytes (OUT is not emptied first);
#   text_to_html TEXT_FILE         prints the text as an HTML document, one <p> per line
#                                  (& < > escaped), titled with the file's name.

repeat_texts() {
  local out=$1 bytes=$2 corpus=$3
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
