#!/bin/sh
# Regenerates, on purpose, the expected rewritten sources and OpenCL C of
# every end-to-end test marked `// ferry-test: golden` (ctest *.golden),
# from a build tree. Review the diff before committing it.
#   test/update-golden.sh [BUILD_DIR]     (default: build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build"
FERRY_UPDATE_GOLDEN=1 ctest --test-dir "$build" -R '\.golden$' --output-on-failure
if [ -x "$root/test/emit/update-golden.sh" ]; then
  "$root/test/emit/update-golden.sh" "$build"
fi
