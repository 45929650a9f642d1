#!/bin/sh
# Copies what bench/timing.sh runs (the samples, raw programs, bandwidth
# probe) from a build directory into .device/bin (ignored by git), so that
# the device machine, which needs only libOpenCL, gets them through `carry`:
#   bench/device-bundle.sh BUILD_DIR
#   (device) FERRY_DEVICE=gpu bench/timing.sh .device/bin gpu docs/timing-h100-gpu.md
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
dest="$root/.device/bin"
mkdir -p "$dest"
for s in squares matmul histogram blackscholes nbody heat mandelbrot life; do
  cp "$build/samples/$s" "$dest/"
done
for p in raw_squares raw_blackscholes raw_heat; do
  cp "$build/bench/$p" "$build/bench/${p}_pinned" "$dest/"
done
cp "$build/bench/bandwidth" "$build/bench/latency" "$dest/"
du -sh "$dest"
