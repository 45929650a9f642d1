#!/bin/sh
# What one small dispatch costs with the runtime of this tree against the
# runtime of an earlier revision (per-range validity must leave the
# whole-buffer path as cheap as it was): bench/small_dispatches, rewritten
# once, built against each runtime with the same flags, the two run in turn
# on the same device in one process tree, into docs/dispatch-overhead.md.
#
#   bench/dispatch-overhead.sh bundle [BASE_REV] [FERRY]     here: rewrite
#       bench/small_dispatches.cpp with the ferry tool (FERRY, default
#       build/tool/ferry), build it against BASE_REV's runtime (default
#       main) and this tree's, into .device/dispatch (ignored by git)
#   bench/dispatch-overhead.sh run [BIN_DIR] [OUT.md] [ROUNDS] [TURNS]   on
#       the device (FERRY_DEVICE, default gpu): TURNS (default 21) turns of
#       each, alternating, ROUNDS (default 20,000) dispatches a run
#       (small_dispatches' best of 3), pinned to one core by taskset
#       under PIN=1 (on the H100 that was noisier), and the table (default OUT.md: $OUT/dispatch-overhead.md
#       where $OUT is set)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
[ $# -gt 0 ] && shift

flags="-std=c++17 -O3 -DNDEBUG -DCL_HPP_ENABLE_EXCEPTIONS
  -DCL_HPP_TARGET_OPENCL_VERSION=120 -DCL_HPP_MINIMUM_OPENCL_VERSION=120
  -DCL_TARGET_OPENCL_VERSION=120"

bundle() {
  base=${1:-main}
  ferry=${2:-$root/build/tool/ferry}
  dest="$root/.device/dispatch"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  rm -rf "$dest"
  mkdir -p "$dest" "$tmp/base"
  "$ferry" rewrite "$root/bench/small_dispatches.cpp" \
    -o "$tmp/small_dispatches.ferry.cpp" -- -std=c++17
  git -C "$root" archive "$base" runtime | tar -x -C "$tmp/base"
  for which in base new; do
    if [ "$which" = base ]; then runtime="$tmp/base/runtime"; else runtime="$root/runtime"; fi
    # shellcheck disable=SC2086 # one word per flag
    c++ $flags -I "$runtime/include" -I "$runtime/src" \
      "$tmp/small_dispatches.ferry.cpp" "$runtime"/src/*.cpp \
      -o "$dest/small_dispatches_$which" -lOpenCL -pthread
  done
  strip "$dest"/*
  {
    echo "base=$(git -C "$root" rev-parse --short "$base")"
    rev=$(git -C "$root" rev-parse --short HEAD)
    git -C "$root" diff --quiet HEAD -- runtime || rev="$rev + local changes"
    echo "new=$rev"
  } > "$dest/BUILT_AT"
  du -sh "$dest"
}

run() {
  bin=$(cd "${1:-$root/.device/dispatch}" && pwd)
  if [ -n "${2:-}" ]; then
    out=$2
  elif [ -n "${OUT:-}" ]; then
    out=$OUT/dispatch-overhead.md
  else
    out=$root/dispatch-overhead.md
  fi
  rounds=${3:-20000}
  turns=${4:-21}
  pin=""
  [ "${PIN:-0}" = 1 ] && command -v taskset > /dev/null && pin="taskset -c 1"
  : "${FERRY_DEVICE:=gpu}"
  export FERRY_DEVICE
  unset FERRY_POLICY FERRY_STATS FERRY_TRACE FERRY_PROFILE || true
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  export FERRY_CACHE_DIR="$tmp/cache"
  turn=0
  while [ "$turn" -lt "$turns" ]; do
    turn=$((turn + 1))
    for which in base new; do
      $pin "$bin/small_dispatches_$which" "$rounds" |
        sed -n 's/^dispatch_us=//p' >> "$tmp/$which"
    done
  done
  stats() { # FILE -> "best median"
    sort -n "$1" | awk '{v[NR] = $1} END {printf "%.2f %.2f", v[1], v[int((NR + 1) / 2)]}'
  }
  base=$(stats "$tmp/base")
  new=$(stats "$tmp/new")
  FERRY_STATS="$tmp/stats.json" "$bin/small_dispatches_new" 1 > /dev/null
  device=$(sed -n 's/^{"device": "\([^"]*\)".*/\1/p' "$tmp/stats.json")
  {
    echo "# What a small dispatch costs, before and after per-range validity"
    echo
    echo "\`bench/small_dispatches\` ($rounds dispatches of a kernel over 1024 ints"
    echo "in one compute, host clock, its best of 3), rewritten once and built"
    echo "with the same flags against two runtimes: $(sed -n 's/^base=//p' "$bin/BUILT_AT")"
    echo "(before) and $(sed -n 's/^new=//p' "$bin/BUILT_AT") (per-range validity, the"
    echo "sub-range calls, keepOnDevice, the device-newer registry). The two"
    echo "programs ran in turn, $turns times each${pin:+ (on one core, \`$pin\`)}, on $device"
    echo "(\`FERRY_DEVICE=$FERRY_DEVICE\`, $(date -u +%Y-%m-%d)). Regenerate with"
    echo "\`bench/dispatch-overhead.sh bundle\` here and \`run\` on the device."
    echo
    echo "| runtime | best µs per dispatch | median µs per dispatch |"
    echo "| --- | --- | --- |"
    echo "| before | ${base% *} | ${base#* } |"
    echo "| after | ${new% *} | ${new#* } |"
    echo
    echo "Runs, µs per dispatch, in order: before $(tr '\n' ' ' < "$tmp/base")/ after $(tr '\n' ' ' < "$tmp/new")"
  } > "$out"
  cat "$out"
}

case "$mode" in
bundle) bundle "$@" ;;
run) run "$@" ;;
*)
  echo "usage: bench/dispatch-overhead.sh bundle [BASE_REV] [FERRY] | run [BIN_DIR] [OUT.md] [ROUNDS] [TURNS]" >&2
  exit 1
  ;;
esac
