#!/usr/bin/env bash
# README command 1: install the dependencies, build, and run lexlink on the bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
echo "== lexlink urn resolve < corpora/samples/urn-names.txt" >&2
build/lexlink urn resolve < corpora/samples/urn-names.txt
