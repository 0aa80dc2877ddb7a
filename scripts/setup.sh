#!/usr/bin/env bash
# README command 1: install the dependencies, build, and run lexlink's main job on a bundled
# sample: markup of an Italian act from the Gazzetta Ufficiale (corpora/it-normattiva-...).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
sample=corpora/it-normattiva-gazzetta-civica/text/25G00214.txt
echo "== lexlink markup $sample -o build/sample.marked.txt --report build/sample.report.jsonl" >&2
build/lexlink markup "$sample" -o build/sample.marked.txt --report build/sample.report.jsonl
echo "== the first lines holding links (the whole document: build/sample.marked.txt)" >&2
grep -m 5 'data-lexlink' build/sample.marked.txt
echo "== $(grep -c '"linked":true' build/sample.report.jsonl) citations linked," \
  "$(grep -c '"linked":false' build/sample.report.jsonl || true) not (build/sample.report.jsonl says why)" >&2
echo "== lexlink unmark build/sample.marked.txt gives the input back:" >&2
build/lexlink unmark build/sample.marked.txt | cmp - "$sample" && echo "identical" >&2
echo "== lexlink urn resolve < corpora/samples/urn-names.txt" >&2
build/lexlink urn resolve < corpora/samples/urn-names.txt
echo "== Python: the module is build/python/lexlink (PYTHONPATH=build/python; Debian's python3)" >&2
PYTHONPATH=build/python /usr/bin/python3 -c '
import lexlink
for c in lexlink.Extractor().extract("Visto l’art. 3 della legge 3 aprile 2000, n. 56"):
    print(c.start, c.end, c.urn)'
