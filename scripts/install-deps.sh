#!/usr/bin/env bash
# Installs everything lexlink needs to build and test, from Debian 12 packages only.
# Idempotent: packages already installed are left alone and apt is not touched at all then.
# --bench: also what the large-corpus benchmark needs (bench/large/: npm and node, GNU time).
# (slurm-wlm and munge are installed by tests/slurm/slurm_test.sh itself, when it runs as root.)
set -euo pipefail

PACKAGES=(
  g++ cmake ninja-build pkg-config git
  libre2-dev libicu-dev libpugixml-dev libhyperscan-dev libuchardet-dev libzstd-dev zlib1g-dev libxxhash-dev libmimalloc-dev
  nlohmann-json3-dev catch2 libbenchmark-dev
  clang-14 libclang-rt-14-dev clang-format
  python3  # tests: tools/score.py agreement (tests/eval), JSON checks of the install test
  python3-dev pybind11-dev python3-pytest  # the Python module (bindings/python) and its tests
  libcpp-httplib-dev python3-yaml  # lexlink serve (extractor/service); its OpenAPI file checked
)
if [ "${1:-}" = --bench ]; then
  command -v npm >/dev/null && command -v node >/dev/null || PACKAGES+=(npm)  # any npm will do
  PACKAGES+=(time)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (or install sudo)" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
