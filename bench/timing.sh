#!/bin/sh
# Times every sample side by side in one run, and writes a table to docs/:
#  * each sample rewritten by Ferry under FERRY_POLICY naive / kernel /
#    planned;
#  * squares, blackscholes and heat written by hand in raw OpenCL, with
#    pageable (new[]) and pinned (CL_MEM_ALLOC_HOST_PTR, mapped) host memory;
#  * a bandwidth probe (pageable vs pinned, host->device and back, 256 MiB on
#    a GPU), against which each run's copies are a fraction of the pinned
#    limit;
#  * start-up: a tiny run with the program binary cache off, then warm.
#
#   bench/timing.sh BIN_DIR [gpu|small] [OUT.md]
#
# BIN_DIR is a build directory (samples/ and bench/ under it) or a folder
# holding the executables themselves (copied together, so the device
# machine needs only libOpenCL). `gpu` sizes move hundreds of MiB; `small`
# sizes suit PoCL on a laptop. OUT defaults to docs/timing-<FERRY_DEVICE>.md.
# FERRY_DEVICE defaults to gpu.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$1" && pwd)
size=${2:-gpu}
: "${FERRY_DEVICE:=gpu}"
export FERRY_DEVICE
out=${3:-$root/docs/timing-$(echo "$FERRY_DEVICE" | tr -c 'a-zA-Z0-9\n' '-').md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The program binary cache of these runs: warm after the first run of each.
export FERRY_CACHE_DIR="$tmp/cache"
unset FERRY_POLICY FERRY_STATS FERRY_TRACE FERRY_PROFILE FERRY_PINNED \
  FERRY_UNIFIED || true

exe() { # exe NAME -> path
  for d in "$bin" "$bin/samples" "$bin/bench"; do
    [ -x "$d/$1" ] && { echo "$d/$1"; return; }
  done
  echo "timing.sh: no executable '$1' under $bin" >&2
  exit 1
}
now_ns() { date +%s%N; }
ms_since() { awk -v a="$1" -v b="$(now_ns)" 'BEGIN { printf "%.0f", (b - a) / 1e6 }'; }
num() { sed -n "s/.*\"$2\": *\([0-9.]*\).*/\1/p" "$1"; }
pair() { sed -n "s/.*\"$2\": *{\"count\": *\([0-9]*\), *\"bytes\": *\([0-9]*\)}.*/\1 \2/p" "$1"; }
kv() { sed -n "s/^$2=//p" "$1"; }

if [ "$size" = gpu ]; then
  runs="squares:67108864 10
squares:1024 20000
blackscholes:16777216
heat:2048 1000 50 0
matmul:1024 1024 1024
histogram:67108864 64
nbody:16384 10 4
mandelbrot:1920 1080 10
life:4096 4096 100 10"
  probe_mib=256
else
  runs="squares:4194304 10
squares:1024 20000
blackscholes:1048576
heat:512 1000 50 0
matmul:256 256 256
histogram:4194304 8
nbody:1024 10 4
mandelbrot:640 480 3
life:512 512 50 10"
  probe_mib=64
fi

"$(exe bandwidth)" "$probe_mib" 5 > "$tmp/bw.txt"
bw() { kv "$tmp/bw.txt" "$1"; }
h2d=$(bw pinned_h2d_gbps)
d2h=$(bw pinned_d2h_gbps)

# The fraction of the pinned limit: the time the bytes would take at the
# probe's pinned bandwidth, over the time the run's copies took.
fraction() { # TO_BYTES FROM_BYTES TRANSFER_MS
  awk -v t="$1" -v f="$2" -v ms="$3" -v h="$h2d" -v d="$d2h" 'BEGIN {
    if (t + f == 0) { print "(no copy)"; exit }
    if (ms <= 0.001) { print "(no copy)"; exit }
    ideal = (t / (h * 1e9) + f / (d * 1e9)) * 1e3
    printf "%.0f%%", 100 * ideal / ms }'
}
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# Warm the binary cache (each sample once at its default size), so that
# every Ferry wall time below loads its program instead of building it; the
# start-up section shows what a build costs.
echo "$runs" | while IFS=: read -r sample args; do
  "$(exe "$sample")" > /dev/null
done

echo "$runs" | while IFS=: read -r sample args; do
  key=$(echo "$sample $args" | tr ' ' '_')
  for policy in naive kernel planned; do
    t0=$(now_ns)
    # shellcheck disable=SC2086
    FERRY_POLICY=$policy FERRY_STATS="$tmp/$key.$policy.json" \
      "$(exe "$sample")" $args > "$tmp/$key.$policy.out"
    wall=$(ms_since "$t0")
    j="$tmp/$key.$policy.json"
    set -- $(pair "$j" to_device) $(pair "$j" from_device) $(pair "$j" maps)
    km=$(num "$j" kernel_ms)
    tm=$(num "$j" transfer_ms)
    moved=$(mib $(($2 + $4)))
    # Bytes of transfers done as maps (host memory used in place) crossed
    # nothing: only the rest count against the pinned limit.
    copied=$(awk -v t="$2" -v f="$4" -v m="${6:-0}" 'BEGIN {
      c = t + f; k = c > 0 ? (c - m) / c : 0; printf "%.0f %.0f", t * k, f * k }')
    frac=$(fraction $copied "$tm")
    [ "${5:-0}" -gt 0 ] && frac="$frac, $5 maps"
    echo "| $sample $args | ferry, $policy | $1 / $3 | $moved | $km | $tm | $frac | $wall |"
    sed -n 's/.*"device": *"\([^"]*\)".*/\1/p' "$j" > "$tmp/device"
  done
  for kind in "" _pinned; do
    raw="raw_$sample$kind"
    for d in "$bin" "$bin/samples" "$bin/bench"; do
      [ -x "$d/$raw" ] || continue
      t0=$(now_ns)
      # shellcheck disable=SC2086
      "$d/$raw" $args > "$tmp/$key.raw$kind.out" 2> "$tmp/$key.raw$kind.err"
      wall=$(ms_since "$t0")
      e="$tmp/$key.raw$kind.err"
      tb=$(kv "$e" to_bytes)
      fb=$(kv "$e" from_bytes)
      tm=$(kv "$e" transfer_ms)
      label="raw OpenCL, pageable"
      [ -n "$kind" ] && label="raw OpenCL, pinned"
      echo "| $sample $args | $label | by hand | $(mib $((tb + fb))) | $(kv "$e" kernel_ms) | $tm | $(fraction "$tb" "$fb" "$tm") | $wall |"
      break
    done
  done
  # Every run of a sample prints the same check line (its last line).
  for f in "$tmp/$key".*.out; do
    [ "$(tail -n1 "$f")" = "$(tail -n1 "$tmp/$key.planned.out")" ] ||
      echo "$(basename "$f" .out)" >> "$tmp/mismatch"
  done
done > "$tmp/rows"

# Start-up: the smallest squares, five runs each, cache off then warm.
startup() { # ENV... -> median wall ms of 5 runs
  for i in 1 2 3 4 5; do
    t0=$(now_ns)
    env "$@" "$(exe squares)" 16 2 > /dev/null
    ms_since "$t0"
    echo
  done | sort -n | sed -n 3p
}
env FERRY_CACHE_DIR="$tmp/startup" "$(exe squares)" 16 2 > /dev/null # fill
cold=$(startup FERRY_CACHE=0)
warm=$(startup FERRY_CACHE_DIR="$tmp/startup")
FERRY_CACHE_DIR="$tmp/startup" FERRY_STATS="$tmp/startup.json" "$(exe squares)" 16 2 > /dev/null
hits=$(num "$tmp/startup.json" program_cache_hits)
t0=$(now_ns)
"$(exe raw_squares)" 16 2 > /dev/null 2>&1
rawstart=$(ms_since "$t0")
# What the program itself costs, from the trace: its build, or its load.
traced() { # build|load ENV... -> ms of that trace event
  what=$1
  shift
  env "$@" FERRY_TRACE="$tmp/trace.json" "$(exe squares)" 16 2 > /dev/null
  sed -n "s/.*\"name\":\"$what [^\"]*\".*\"dur\":\([0-9.]*\).*/\1/p" \
    "$tmp/trace.json" | awk '{ printf "%.1f", $1 / 1000 }'
}
buildms=$(traced build FERRY_CACHE=0)
loadms=$(traced load FERRY_CACHE_DIR="$tmp/startup")
"$(exe latency)" 20000 > "$tmp/latency.txt"
lat() { kv "$tmp/latency.txt" "$1"; }

# Small dispatches: the wall time a dispatch adds, from `squares 1024 K` at
# K = 2 and K = 20000 (median of 5 each), so that start-up cancels out.
per_dispatch() { # PROGRAM ENV... -> microseconds per dispatch
  program=$1
  shift
  med() {
    for i in 1 2 3 4 5; do
      t0=$(now_ns)
      env "$@" > /dev/null 2>&1
      echo $(( ($(now_ns) - t0) / 1000 ))
    done | sort -n | sed -n 3p
  }
  a=$(med "$@" "$(exe "$program")" 1024 2)
  z=$(med "$@" "$(exe "$program")" 1024 20000)
  awk -v a="$a" -v z="$z" 'BEGIN { printf "%.2f", (z - a) / 19998 }'
}
ferry_us=$(per_dispatch squares)
ferry_profiled_us=$(per_dispatch squares FERRY_PROFILE=1)
raw_us=$(per_dispatch raw_squares)

device=$(cat "$tmp/device")
same=yes
[ -f "$tmp/mismatch" ] && same="NO: $(cat "$tmp/mismatch" | tr '\n' ' ')"
{
  echo "# Ferry and raw OpenCL timed on \`$device\`"
  echo
  echo "Generated by \`bench/timing.sh BIN_DIR $size\` (\`FERRY_DEVICE=$FERRY_DEVICE\`), one run each, side by side."
  echo "Every run of a sample printed the same check line: $same."
  echo
  echo "## Bandwidth probe ($probe_mib MiB, best of 5, event profiling)"
  echo
  echo "| host memory | host → device GB/s | device → host GB/s |"
  echo "| --- | --- | --- |"
  echo "| pageable (new[]) | $(bw pageable_h2d_gbps) | $(bw pageable_d2h_gbps) |"
  echo "| pinned (ALLOC_HOST_PTR, mapped) | $h2d | $d2h |"
  echo
  echo "## Runs"
  echo
  echo "*copies in / out*: the transfers the run performed (for Ferry, the plan's,"
  echo "as \`to_device\` / \`from_device\` count them). *MiB*: the bytes they moved."
  echo "*kernel ms*, *transfer ms*: device time by OpenCL event profiling."
  echo "*of pinned limit*: the time those bytes take at the probe's pinned"
  echo "bandwidth over the run's transfer ms (100% = as fast as pinned copies can"
  echo "go); \"no copy\" or \"N maps\" where the device used host memory in place."
  echo "Transfers of a few KiB are all latency: a low fraction there is no news."
  echo "*wall ms*: the whole process, start-up included; Ferry loads its"
  echo "programs from a warm binary cache, raw OpenCL builds them every run."
  echo
  echo "| program | run | copies in / out | MiB | kernel ms | transfer ms | of pinned limit | wall ms |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  cat "$tmp/rows"
  echo
  echo "## Start-up (\`squares 16 2\`, median of 5 wall ms)"
  echo
  echo "| run | wall ms |"
  echo "| --- | --- |"
  echo "| ferry, program binary cache off (\`FERRY_CACHE=0\`) | $cold |"
  echo "| ferry, program binary cache warm ($hits cache hit, 0 builds) | $warm |"
  echo "| raw OpenCL (builds every time) | $rawstart |"
  echo
  echo "Inside those runs, from \`FERRY_TRACE\`: building the program from source"
  echo "takes $buildms ms, loading it from the binary cache $loadms ms. The rest"
  echo "is the OpenCL platform and context, which the latency probe times"
  echo "alone: platform $(lat platform_ms) ms, context $(lat context_ms) ms (its own"
  echo "build of a one-line kernel: $(lat build_ms) ms from source, $(lat binary_ms) ms"
  echo "from the binary)."
  echo
  echo "## Small dispatches (\`squares 1024 K\`: what one dispatch adds)"
  echo
  echo "Wall time at K = 20000 minus K = 2 (median of 5 each), over 19998;"
  echo "raw OpenCL floors from the latency probe (\`bench/latency.cpp\`, the same"
  echo "kernel, 20000 dispatches in one process, best of 3)."
  echo
  echo "| run | µs per dispatch |"
  echo "| --- | --- |"
  echo "| ferry, planned (no \`FERRY_STATS\`: the queue does not profile) | $ferry_us |"
  echo "| ferry, planned, \`FERRY_PROFILE=1\` (as under \`FERRY_STATS\`) | $ferry_profiled_us |"
  echo "| raw_squares (profiling queue, an event kept per dispatch) | $raw_us |"
  echo "| floor: in-order queue, no events | $(lat dispatch_us_plain) |"
  echo "| floor: an event per dispatch | $(lat dispatch_us_events) |"
  echo "| floor: profiling queue, events kept | $(lat dispatch_us_profiled) |"
  echo "| floor: waiting for each dispatch | $(lat dispatch_us_sync) |"
} > "$out"
cat "$out"
