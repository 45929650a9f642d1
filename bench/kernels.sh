#!/bin/sh
# Issue 25's kernel benchmarks, side by side in one run:
#  * SGEMM, row-major, n = 2048, 4096, 8192: Ferry's register-tiled
#    samples/sgemm, samples/matmul's plain kernel (bench/plain_matmul), the
#    same tiled kernel written by hand in raw OpenCL (bench/raw_sgemm, in
#    issue 25's 64 x 64 / 4 x 4 shape and in the sample's 128 x 128 / 8 x 8),
#    CLBlast (bench/clblast_sgemm) and, where the device machine has nvcc,
#    cuBLAS FP32 with CUBLAS_PEDANTIC_MATH (bench/cublas/sgemm_cublas.cu,
#    built there; issue 31's mark);
#  * samples/reduction over 16M ints (and its one-dispatch variant with
#    atomics, bench/reduction_atomic) against a device-to-device copy of the
#    same bytes (bench/copy_buffer);
#  * 20,000 small dispatches: Ferry (bench/small_dispatches) against raw
#    OpenCL with no events and with one per dispatch (bench/latency).
#
#   bench/kernels.sh bundle [BUILD_DIR]       here: copy the programs and
#       libclblast into .device/kernels (ignored by git), to carry to the
#       device machine, which needs nothing but libOpenCL
#   bench/kernels.sh run [BIN_DIR] [OUT.md] [gpu|small]     on the device:
#       run everything (FERRY_DEVICE defaults to gpu; `small` sizes suit
#       PoCL), print the results and write them to OUT.md (default
#       $OUT/kernels.md where $OUT is set, else kernels-<device>.md here)
#   bench/kernels.sh table FILE               here: write FILE, a run's
#       output, into docs/kernels.md with the commands that regenerate it
#
# Kernel times are device time by OpenCL event profiling, best of 5 runs of
# the kernel in one process (Ferry's from FERRY_TRACE, one event per
# dispatch); CLBlast's is the whole call on the host clock, as it may run
# helper kernels around its GEMM.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
[ $# -gt 0 ] && shift

bundle() {
  build=$(cd "${1:-$root/build}" && pwd)
  dest="$root/.device/kernels"
  rm -rf "$dest"
  mkdir -p "$dest"
  for s in sgemm reduction; do
    cp "$build/samples/$s" "$dest/"
  done
  for p in plain_matmul small_dispatches reduction_atomic raw_sgemm \
    copy_buffer latency clblast_sgemm; do
    cp "$build/bench/$p" "$dest/"
  done
  strip "$dest"/* 2> /dev/null || true
  # Built on the device machine, which has CUDA (run).
  cp "$root/bench/cublas/sgemm_cublas.cu" "$dest/"
  # Which sources the programs were built from, for the table to say.
  rev=$(git -C "$root" rev-parse --short HEAD)
  git -C "$root" diff --quiet HEAD -- samples bench runtime tool || rev="$rev + local changes"
  echo "$rev" > "$dest/BUILT_AT"
  # The one library the device machine lacks (found as the program finds it).
  lib=$(ldd "$dest/clblast_sgemm" | sed -n 's/.*libclblast[^ ]* => \([^ ]*\) .*/\1/p')
  [ -n "$lib" ] || { echo "kernels.sh: clblast_sgemm does not link libclblast" >&2; exit 1; }
  cp -L "$lib" "$dest/$(basename "$lib")"
  du -sh "$dest"
}

run() {
  bin=$(cd "${1:-$root/.device/kernels}" && pwd)
  size=${3:-gpu}
  : "${FERRY_DEVICE:=gpu}"
  export FERRY_DEVICE
  if [ -n "${2:-}" ]; then
    out=$2
  elif [ -n "${OUT:-}" ]; then
    out=$OUT/kernels.md
  else
    out=$root/kernels-$(echo "$FERRY_DEVICE" | tr -c 'a-zA-Z0-9\n' '-').md
  fi
  export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  export FERRY_CACHE_DIR="$tmp/cache"
  unset FERRY_POLICY FERRY_STATS FERRY_TRACE FERRY_PROFILE || true

  if [ "$size" = gpu ]; then
    sizes="2048 4096 8192"
    elements=16777216
    groups=1056 # 8 per SM of the H100's 132
    rounds=20000
  else
    sizes="256 512"
    elements=1048576
    groups=64
    rounds=2000
  fi
  reps=5
  # The reduction and the copy take tens of microseconds: best of more runs,
  # the same for both, as the first few run while the clocks ramp up.
  short_reps=20

  exe() {
    [ -x "$bin/$1" ] || { echo "kernels.sh: no executable '$1' in $bin" >&2; exit 1; }
    echo "$bin/$1"
  }
  kv() { sed -n "s/^$2=//p" "$1"; }
  # Kernel durations (ms) of the events named $2 in trace $1, in order.
  durations() {
    sed -n "s/.*\"name\":\"$2\",\"cat\":\"kernel\".*\"dur\":\([0-9.]*\).*/\1/p" "$1" |
      awk '{ printf "%.4f\n", $1 / 1000 }'
  }
  least() { sort -g | head -n 1; }
  tflops() { awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.2f", 2 * n * n * n / (ms * 1e9) }'; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

  # cuBLAS, where nvcc is there to build it (issue 31's SGEMM mark).
  cublas=""
  nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2> /dev/null || true)
  if [ -n "$nvcc" ] && [ -f "$bin/sgemm_cublas.cu" ] &&
    "$nvcc" -O2 -o "$tmp/sgemm_cublas" "$bin/sgemm_cublas.cu" -lcublas > "$tmp/nvcc.log" 2>&1; then
    cublas="$tmp/sgemm_cublas"
  fi

  device=unknown
  for n in $sizes; do
    FERRY_TRACE="$tmp/sgemm.json" "$(exe sgemm)" "$n" "$reps" > "$tmp/sgemm.out"
    ferry=$(durations "$tmp/sgemm.json" sgemmTiled | least)
    ferry_w=$(sed -n 's/.* weighted=\([-0-9]*\) expected=\([-0-9]*\) .*/\1/p' "$tmp/sgemm.out")
    expected=$(sed -n 's/.* expected=\([-0-9]*\) .*/\1/p' "$tmp/sgemm.out")
    FERRY_TRACE="$tmp/plain.json" "$(exe plain_matmul)" "$n" "$reps" > "$tmp/plain.out"
    plain=$(durations "$tmp/plain.json" multiply | least)
    "$(exe raw_sgemm)" "$n" "$reps" 64 4 > "$tmp/raw64.out"
    "$(exe raw_sgemm)" "$n" "$reps" 128 8 8 1 > "$tmp/raw128.out"
    "$(exe clblast_sgemm)" "$n" "$reps" > "$tmp/clblast.out"
    device=$(kv "$tmp/clblast.out" device)
    cl=$(kv "$tmp/clblast.out" best_ms)
    for entry in \
      "ferry|Ferry, samples/sgemm (128 × 128 per group, 8 × 8 per work-item)|$ferry|$ferry_w" \
      "plain|Ferry, samples/matmul's kernel (one work-item per element)|$plain|$(kv "$tmp/plain.out" weighted)" \
      "raw64|raw OpenCL by hand, 64 × 64 per group, 4 × 4 per work-item|$(kv "$tmp/raw64.out" best_ms)|$(kv "$tmp/raw64.out" weighted)" \
      "raw128|raw OpenCL by hand, samples/sgemm's earlier kernel (128 × 128, 8 × 8 strided, slices of 8, prefetch, scalar loads)|$(kv "$tmp/raw128.out" best_ms)|$(kv "$tmp/raw128.out" weighted)" \
      "clblast|CLBlast, whole call|$cl|$(kv "$tmp/clblast.out" weighted)"; do
      echo "$entry" >> "$tmp/entries"
    done
    if [ -n "$cublas" ]; then
      "$cublas" "$n" "$reps" > "$tmp/cublas.out" || true
      # Its own check: 64 entries of C against the host's product.
      echo "cublas|cuBLAS FP32, CUBLAS_PEDANTIC_MATH (CUDA events)|$(kv "$tmp/cublas.out" best_ms)|$(kv "$tmp/cublas.out" check)" >> "$tmp/entries"
    fi
    while IFS= read -r entry; do
      key=${entry%%|*}
      rest=${entry#*|}
      label=${rest%%|*}
      rest=${rest#*|}
      ms=${rest%%|*}
      w=${rest#*|}
      same=yes
      if [ "$key" = cublas ]; then
        [ "$w" = ok ] || same="NO (its check: $w)"
        [ "$w" != ok ] || same="yes (64 entries)"
      else
        [ "$w" = "$expected" ] || same="NO ($w)"
      fi
      echo "| $n | $label | $ms | $(tflops "$n" "$ms") | $(ratio "$cl" "$ms") | $same |" >> "$tmp/sgemm.rows"
      echo "$n $key $ms" >> "$tmp/sgemm.keys"
    done < "$tmp/entries"
    rm -f "$tmp/entries"
  done

  FERRY_TRACE="$tmp/reduction.json" "$(exe reduction)" "$elements" "$groups" "$short_reps" > "$tmp/reduction.out"
  durations "$tmp/reduction.json" reduceGroups > "$tmp/groups.ms"
  durations "$tmp/reduction.json" reducePartials > "$tmp/partials.ms"
  paste -d' ' "$tmp/groups.ms" "$tmp/partials.ms" |
    awk '{ printf "%.4f %.4f %.4f\n", $1 + $2, $1, $2 }' | sort -g | head -n 1 > "$tmp/reduction.best"
  read -r red_ms red_groups red_partials < "$tmp/reduction.best"
  bytes=$((elements * 4))
  FERRY_TRACE="$tmp/atomic.json" "$(exe reduction_atomic)" "$elements" "$groups" "$short_reps" > "$tmp/atomic.out"
  atomic_ms=$(durations "$tmp/atomic.json" reduceAtomic | least)
  atomic_check=$(tail -n 1 "$tmp/atomic.out")
  "$(exe copy_buffer)" "$bytes" "$short_reps" > "$tmp/copy.out"
  copy_ms=$(kv "$tmp/copy.out" best_ms)
  copy_gbps=$(kv "$tmp/copy.out" gbps)
  gbps() { awk -v b="$bytes" -v ms="$1" 'BEGIN { printf "%.1f", b / (ms * 1e6) }'; }
  red_gbps=$(gbps "$red_ms")
  red_check=$(tail -n 1 "$tmp/reduction.out")

  "$(exe small_dispatches)" "$rounds" > "$tmp/small.out"
  "$(exe latency)" "$rounds" > "$tmp/latency.out"
  ferry_us=$(kv "$tmp/small.out" dispatch_us)
  plain_us=$(kv "$tmp/latency.out" dispatch_us_plain)
  events_us=$(kv "$tmp/latency.out" dispatch_us_events)

  at() { awk -v n="$1" -v k="$2" '$1 == n && $2 == k { print $3 }' "$tmp/sgemm.keys"; }
  mid=$(echo "$sizes" | awk '{ print $2 }')
  {
    echo "# Kernels side by side on \`$device\`"
    echo
    built=$(cat "$bin/BUILT_AT" 2> /dev/null || echo "an unrecorded commit")
    echo "Generated by \`bench/kernels.sh run BIN_DIR OUT $size\` (\`FERRY_DEVICE=$FERRY_DEVICE\`), one run,"
    echo "with the programs built at $built."
    echo
    echo "## Targets"
    echo
    echo "| target | measured | ratio |"
    echo "| --- | --- | --- |"
    echo "| tiled SGEMM ≥ 0.8× CLBlast at n = $mid | $(at "$mid" ferry) ms vs $(at "$mid" clblast) ms | $(ratio "$(at "$mid" clblast)" "$(at "$mid" ferry)")× |"
    if [ -n "$cublas" ]; then
      for n in $sizes; do
        [ "$n" -ge 4096 ] || continue
        echo "| tiled SGEMM ≥ 0.9× cuBLAS FP32 (issue 31) at n = $n | $(at "$n" ferry) ms vs $(at "$n" cublas) ms | $(ratio "$(at "$n" cublas)" "$(at "$n" ferry)")× |"
      done
    fi
    echo "| tiled SGEMM not slower than the hand-written 64 × 64 / 4 × 4 kernel, n = $mid | $(at "$mid" ferry) ms vs $(at "$mid" raw64) ms | $(ratio "$(at "$mid" raw64)" "$(at "$mid" ferry)")× |"
    share() { awk -v a="$1" -v b="$copy_gbps" 'BEGIN { printf "%.1f %%", 100 * a / b }'; }
    echo "| reduction ≥ 80 % of the copy's bandwidth (samples/reduction, two dispatches) | $red_gbps vs $copy_gbps GB/s | $(share "$red_gbps") |"
    echo "| the same, one dispatch with atomics (bench/reduction_atomic) | $(gbps "$atomic_ms") vs $copy_gbps GB/s | $(share "$(gbps "$atomic_ms")") |"
    echo "| small dispatches ≤ 1.2× raw OpenCL's floor with no events | $ferry_us vs $plain_us µs | $(ratio "$ferry_us" "$plain_us")× |"
    echo
    echo "## SGEMM (row-major C = A · B, n × n floats, best of $reps)"
    echo
    echo "*ms*: kernel time by OpenCL event profiling (CLBlast: the whole call,"
    echo "host clock; cuBLAS, where nvcc was there to build it: CUDA events"
    echo "around each call). *× CLBlast*: CLBlast's time over this one's (above 1:"
    echo "faster). *same C*: the weighted sum of C equals the one samples/sgemm"
    echo "works out on the host (the entries are small integers, so every"
    echo "program's C is exact)."
    echo
    echo "| n | kernel | ms | TFLOP/s | × CLBlast | same C |"
    echo "| --- | --- | --- | --- | --- | --- |"
    cat "$tmp/sgemm.rows"
    echo
    echo "## Reduction ($elements ints, $groups groups of 256, best of $short_reps)"
    echo
    echo "samples/reduction's two dispatches (\`reduceGroups\` $red_groups ms, then"
    echo "\`reducePartials\` $red_partials ms) read $((bytes / 1048576)) MiB once; a"
    echo "device-to-device copy (\`clEnqueueCopyBuffer\`) of the same bytes reads and"
    echo "writes them, so its bandwidth is 2 × bytes over its time. Check: \`$red_check\`."
    echo "bench/reduction_atomic is the same first kernel with each group adding its pair"
    echo "into the result by atomics: one dispatch (check: \`$atomic_check\`)."
    echo
    echo "| run | ms | GB/s |"
    echo "| --- | --- | --- |"
    echo "| Ferry, samples/reduction (both dispatches) | $red_ms | $red_gbps |"
    echo "| Ferry, its first dispatch alone (\`reduceGroups\`) | $red_groups | $(gbps "$red_groups") |"
    echo "| Ferry, one dispatch with atomics (bench/reduction_atomic) | $atomic_ms | $(gbps "$atomic_ms") |"
    echo "| device-to-device copy | $copy_ms | $copy_gbps |"
    echo
    echo "## Small dispatches ($rounds of a kernel over 1024 ints, host clock, best of 3)"
    echo
    echo "| run | µs per dispatch |"
    echo "| --- | --- |"
    echo "| Ferry (bench/small_dispatches, no FERRY_STATS: no profiling) | $ferry_us |"
    echo "| raw OpenCL, in-order queue, no events (the floor) | $plain_us |"
    echo "| raw OpenCL, an event per dispatch | $events_us |"
  } > "$out"
  cat "$out"
}

table() {
  file=$1
  doc="$root/docs/kernels.md"
  {
    echo "<!-- Generated from a run of bench/kernels.sh; regenerate, do not edit:"
    echo "       cmake --build build && bench/kernels.sh bundle build"
    echo "       # on the device machine, with .device/kernels carried:"
    echo "       FERRY_DEVICE=gpu bench/kernels.sh run .device/kernels \$OUT/kernels.md gpu"
    echo "       # here, with that file:"
    echo "       bench/kernels.sh table kernels.md -->"
    echo
    cat "$file"
  } > "$doc"
  echo "wrote $doc"
}

case "$mode" in
bundle) bundle "$@" ;;
run) run "$@" ;;
table)
  [ $# -eq 1 ] || { echo "usage: bench/kernels.sh table FILE" >&2; exit 1; }
  table "$1"
  ;;
*)
  echo "usage: bench/kernels.sh bundle [BUILD_DIR] | run [BIN_DIR] [OUT.md] [gpu|small] | table FILE" >&2
  exit 1
  ;;
esac
