#!/bin/sh
# Regenerates the figures of how-ferry-decides.md from `ferry analyze
# --format=dot` (needs Graphviz's `dot`).   docs/figures/regenerate.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
ferry="${1:-$root/build}/tool/ferry"
for pair in squares:samples/squares/squares.cpp life:test/scenarios/life.cpp; do
  name=${pair%%:*}
  "$ferry" analyze "$root/${pair#*:}" --format=dot -- -std=c++17 -I"$root/runtime/include" \
    > "$root/docs/figures/$name.dot"
  dot -Tsvg "$root/docs/figures/$name.dot" -o "$root/docs/figures/$name.svg"
done
