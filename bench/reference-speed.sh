#!/bin/sh
# The reference execution's speed with barriers (fibers) against the same
# sums without them, in docs/reference-speed.md. Needs no OpenCL device.
#   bench/reference-speed.sh [N...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
c++ -std=c++17 -O2 -I "$root/runtime/include" "$root/bench/reference_barriers.cpp" -o "$bin/reference_barriers"
[ $# -gt 0 ] || set -- 262144 1048576 4194304
out="$root/docs/reference-speed.md"
{
  echo "# The reference execution's speed with barriers"
  echo
  echo "A per-group sum of N ints in work-groups of 256, as a tree in \`ferry::Local\` with"
  echo "\`kc.barrier()\` (every work-item on a fiber) and as a loop run by one work-item per"
  echo "group (no barrier: the group runs as plain calls). Whole reference dispatches, one"
  echo "core, \`c++ -O2\`. Regenerate with \`bench/reference-speed.sh\`."
  echo
  echo "| N | barriers per item | with barriers (s) | without (s) | ratio | ns per item and barrier |"
  echo "| --- | --- | --- | --- | --- | --- |"
  for n in "$@"; do "$bin/reference_barriers" "$n"; done
  echo
  echo "Measured on $(nproc) cores of $(uname -m), $(date -u +%Y-%m-%d)."
} > "$out"
cat "$out"
