#!/bin/sh
# Regenerates, on purpose, the expected OpenCL C of every golden input in
# test/emit/golden/ from a build tree (ctest emit.golden.*). Review the diff
# before committing it.
#   test/emit/update-golden.sh [BUILD_DIR]     (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target ferry
FERRY_UPDATE_GOLDEN=1 ctest --test-dir "$build" -R '^emit\.golden\.' --output-on-failure
