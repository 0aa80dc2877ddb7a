#!/usr/bin/env bash
# Configures and builds lexlink into build/ (optimised, warnings as errors); the CLI lands at
# build/lexlink. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLEXLINK_WERROR=ON "$@" >/dev/null
cmake --build build
