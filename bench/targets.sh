#!/bin/bash
# Issue 31's targets, side by side in one run on the device: the OpenCL
# originals of BabelStream and miniBUDE against Ferry's ports
# (bench/babelstream, bench/minibude), and cuBLAS's FP32 SGEMM against
# Ferry's samples/sgemm.
#
#   bench/targets.sh bundle [BUILD_DIR] [DEST]   here: build the originals
#       (from checkouts named by $BABELSTREAM_SRC and $MINIBUDE_SRC, else
#       cloned at the commits below), and copy them, the Ferry programs of
#       BUILD_DIR (default build/; targets babelstream, minibude,
#       samples/sgemm), miniBUDE's bm1 deck, bench/cublas/sgemm_cublas.cu
#       and this script into DEST (default .device/bench, ignored by git)
#   bench/targets.sh run [BIN_DIR] [OUT_DIR]     on the device machine
#       (FERRY_DEVICE defaults to gpu): build cuBLAS's program with nvcc,
#       run everything, print the table and write OUT_DIR/targets.md and
#       each program's raw output (default OUT_DIR: $OUT, else
#       ./targets-out); SIZE=small runs PoCL-sized problems
#   bench/targets.sh table FILE                  here: FILE, a run's
#       targets.md, into docs/targets.md with the commands that regenerate it,
#       and the raw.txt beside FILE into docs/targets-raw.txt
#
# Timing is each program's own: BabelStream's host clock around each kernel
# and a wait (best of 100 runs, first left out; MB/s), miniBUDE's host clock
# around each run and a wait (mean of 8 after 2 untimed), cuBLAS's CUDA
# events (best of 5 after one untimed), Ferry's SGEMM by OpenCL event
# profiling (FERRY_TRACE, best of 5), as bench/kernels.sh times it.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
[ $# -gt 0 ] && shift

babelstream_commit=57637d5 # UoB-HPC/BabelStream, version 5.0
minibude_commit=570f66c    # UoB-HPC/miniBUDE

checkout() { # NAME COMMIT VAR -> prints a directory holding the sources
  local dir=${!3:-}
  if [ -z "$dir" ]; then
    dir=$(mktemp -d)/$1
    git clone -q "https://github.com/UoB-HPC/$1" "$dir" >&2
    git -C "$dir" checkout -q "$2" >&2
  fi
  echo "$dir"
}

bundle() {
  build=$(cd "${1:-$root/build}" && pwd)
  dest=${2:-$root/.device/bench}
  mkdir -p "$dest"
  dest=$(cd "$dest" && pwd)
  rm -rf "${dest:?}"/*
  bs=$(checkout BabelStream "$babelstream_commit" BABELSTREAM_SRC)
  mb=$(checkout miniBUDE "$minibude_commit" MINIBUDE_SRC)
  cxx=${CXX:-g++}
  # The originals as their OpenCL models build them (CMake's Release: -O3),
  # with their own copies of the Khronos C++ bindings.
  nice -n 15 "$cxx" -O3 -std=c++20 -DOCL -I"$bs/src" -I"$bs/src/ocl" \
    "$bs/src/main.cpp" "$bs/src/ocl/OCLStream.cpp" -o "$dest/babelstream-ocl" -lOpenCL
  ppwi='-DUSE_PPWI=1,2,4,8,16'
  nice -n 15 "$cxx" -O3 -std=c++17 -DOCL "$ppwi" -I"$mb/src" -I"$mb/src/ocl" \
    "$mb/src/main.cpp" -o "$dest/minibude-ocl" -lOpenCL
  # The same original with IEEE math, as Ferry's port computes: no
  # fast-math build options, a division for native_recip, sqrt for
  # native_sqrt (a copy of its sources, edited here).
  ieee=$(mktemp -d)
  cp -r "$mb/src" "$ieee/src"
  sed -i -e 's/" -cl-mad-enable"//; s/" -cl-no-signed-zeros"//' \
    -e 's/" -cl-unsafe-math-optimizations"//' \
    -e 's/" -cl-finite-math-only" +/std::string() +/' \
    -e 's/native_recip(/(1.0f \/ /g; s/native_sqrt(/sqrt(/g' "$ieee/src/ocl/fasten.hpp"
  ! grep -q -e native_ -e cl-mad "$ieee/src/ocl/fasten.hpp" ||
    { echo "targets.sh: could not make miniBUDE's IEEE variant" >&2; exit 1; }
  nice -n 15 "$cxx" -O3 -std=c++17 -DOCL "$ppwi" -I"$ieee/src" -I"$ieee/src/ocl" \
    "$ieee/src/main.cpp" -o "$dest/minibude-ocl-ieee" -lOpenCL
  rm -rf "$ieee"
  mkdir -p "$dest/bm1"
  cp "$mb"/data/bm1/*.in "$mb/data/bm1/ref_energies.out" "$dest/bm1/"
  cp "$build/bench/babelstream" "$build/bench/minibude" "$build/samples/sgemm" \
    "$build/bench/small_dispatches" "$build/bench/latency" "$dest/"
  strip "$dest/babelstream" "$dest/minibude" "$dest/sgemm" "$dest/small_dispatches" \
    "$dest/latency" "$dest"/*-ocl* 2> /dev/null || true
  cp "$root/bench/cublas/sgemm_cublas.cu" "$root/bench/targets.sh" "$dest/"
  rev=$(git -C "$root" rev-parse --short HEAD)
  git -C "$root" diff --quiet HEAD -- bench samples runtime || rev="$rev + local changes"
  echo "$rev; BabelStream $babelstream_commit, miniBUDE $minibude_commit" > "$dest/BUILT_AT"
  du -sh "$dest"
}

run() {
  bin=$(cd "${1:-$root/.device/bench}" && pwd)
  out=${2:-${OUT:-$PWD/targets-out}}
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  : "${FERRY_DEVICE:=gpu}"
  export FERRY_DEVICE
  unset FERRY_POLICY FERRY_STATS FERRY_TRACE FERRY_PROFILE || true
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  export FERRY_CACHE_DIR="$tmp/cache"
  raw="$out/raw.txt" # every program's output, in order
  : > "$raw"
  if [ "${SIZE:-gpu}" = small ]; then
    elements=1048576 times=10 poses=256 iters=1 sgemm_sizes="256 512"
    settings_w=16,32
  else
    elements=33554432 times=100 poses=0 iters=8 sgemm_sizes="4096 8192"
    settings_w=64,128
  fi
  settings_p=1,2,4,8,16
  log() { # NAME COMMAND... : runs it, its output into $tmp/NAME and raw.txt
    local name=$1
    shift
    echo "## $name: $*" >> "$raw"
    local rc=0
    # No program may take the whole of a device call.
    timeout "${LIMIT:-120}" "$@" > "$tmp/$name" 2>&1 || rc=$?
    echo "$rc" > "$tmp/$name.rc"
    cat "$tmp/$name" >> "$raw"
    [ "$rc" = 0 ] || echo "## $name exited with $rc" >> "$raw"
    return 0
  }
  # The originals take the first OpenCL device unless told: pick, from each
  # one's own list, the first device that FERRY_DEVICE's kind names (the
  # device machine lists PoCL's CPU device first).
  pick() { # LIST_FILE -> index
    local pat='NVIDIA|AMD|Radeon|GPU|Graphics'
    case "$FERRY_DEVICE" in cpu* | host) pat='pthread|cpu|Portable' ;; esac
    sed -n 's/^ *\([0-9][0-9]*\): *"\{0,1\}\(.*\)/\1 \2/p' "$1" |
      grep -E -i "$pat" | head -n 1 | cut -d' ' -f1
  }
  "$bin/babelstream-ocl" --list > "$tmp/bs-list" 2>&1 || true
  "$bin/minibude-ocl" --list > "$tmp/mb-list" 2>&1 || true
  bs_dev=$(pick "$tmp/bs-list")
  mb_dev=$(pick "$tmp/mb-list")
  { echo "## babelstream-ocl --list: device ${bs_dev:-0} chosen"; cat "$tmp/bs-list"
    echo "## minibude-ocl --list: device ${mb_dev:-0} chosen"; cat "$tmp/mb-list"; } >> "$raw"
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

  # BabelStream: original and port twice each, alternating; best MB/s of each.
  for round in 1 2; do
    log "bs-ocl-$round" "$bin/babelstream-ocl" --device "${bs_dev:-0}" -s "$elements" -n "$times"
    log "bs-ferry-$round" "$bin/babelstream" -s "$elements" -n "$times"
  done
  bs_best() { # PROGRAM KERNEL -> best GB/s over both rounds
    cat "$tmp/$1-1" "$tmp/$1-2" | awk -v k="$2" '$1 == k { printf "%.1f\n", $2 / 1000 }' |
      sort -g | tail -n 1
  }
  ok() { [ "$(cat "$tmp/$1.rc" 2> /dev/null)" = 0 ]; }
  bs_valid() {
    if ok "$1-1" && ok "$1-2" && ! grep -q -i "failed" "$tmp/$1-1" "$tmp/$1-2"; then
      echo "validated"
    else
      echo "NOT validated"
    fi
  }
  dot_shape=$(sed -n 's/^Reduction kernel config: //p' "$tmp/bs-ocl-1" | head -n 1)
  ferry_shape=$(sed -n 's/^Reduction kernel config: //p' "$tmp/bs-ferry-1" | head -n 1)
  device=$(sed -n 's/^Using device //p' "$tmp/bs-ferry-1" | head -n 1)
  [ -n "$device" ] || device=$(sed -n 's/^Using OpenCL device //p' "$tmp/bs-ocl-1" | head -n 1)

  # miniBUDE: every setting of both, the original also with IEEE math.
  for p in minibude-ocl minibude-ocl-ieee minibude; do
    dev=()
    [ "$p" = minibude ] || dev=(-d "${mb_dev:-0}")
    log "$p" "$bin/$p" "${dev[@]}" --deck "$bin/bm1" -n "$poses" -i "$iters" -p "$settings_p" -w "$settings_w" --csv
  done
  # The port again with the original's fast-math build (FERRY_FAST_MATH=1),
  # and with the finite-math level (FERRY_FAST_MATH=finite).
  log minibude-fast env FERRY_FAST_MATH=1 "$bin/minibude" --deck "$bin/bm1" -n "$poses" -i "$iters" -p "$settings_p" -w "$settings_w" --csv
  log minibude-finite env FERRY_FAST_MATH=finite "$bin/minibude" --deck "$bin/bm1" -n "$poses" -i "$iters" -p "$settings_p" -w "$settings_w" --csv
  mb_ms() { # PROGRAM PPWI WGSIZE -> mean ms
    awk -F, -v p="$2" -v w="$3" '$1 == p && $2 == w { print $4 }' "$tmp/$1"
  }
  mb_best() { # PROGRAM -> "ms ppwi wgsize" of its fastest setting
    awk -F, '$1 ~ /^[0-9]+$/ { print $4, $1, $2 }' "$tmp/$1" | sort -g | head -n 1
  }
  mb_valid() {
    if ok "$1" && ! grep -q -e "valid=0" -e "Verification failed" "$tmp/$1"; then
      echo "validated"
    else
      echo "NOT validated"
    fi
  }

  # 20,000 small dispatches: Ferry against raw OpenCL's floor with no
  # events (bench/latency), as bench/kernels.sh runs them, in 7 alternating
  # rounds (each program's best of 3 within a round): on the H200 one
  # round's floor ranged from 3.6 to 5.6 µs, so 3 rounds left the ratio to
  # chance. The best of the rounds of each.
  small_rounds="1 2 3 4 5 6 7"
  for round in $small_rounds; do
    log "small-$round" "$bin/small_dispatches" 20000
    log "latency-$round" "$bin/latency" 20000
  done
  small_best() { # PREFIX KEY -> least value over the rounds
    for round in $small_rounds; do cat "$tmp/$1-$round" 2> /dev/null; done |
      sed -n "s/^$2=//p" | sort -g | head -n 1
  }

  # SGEMM: cuBLAS (built here with nvcc) and Ferry's samples/sgemm.
  nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2> /dev/null || true)
  cublas=""
  if [ -n "$nvcc" ]; then
    if "$nvcc" -O2 -o "$tmp/sgemm_cublas" "$bin/sgemm_cublas.cu" -lcublas > "$tmp/nvcc.log" 2>&1; then
      cublas="$tmp/sgemm_cublas"
    fi
    { echo "## nvcc: $("$nvcc" --version | tail -n 1)"; cat "$tmp/nvcc.log"; } >> "$raw"
  else
    echo "## no nvcc: cuBLAS not run" >> "$raw"
  fi
  for n in $sgemm_sizes; do
    [ -z "$cublas" ] || log "cublas-$n" "$cublas" "$n" 5
    export FERRY_TRACE="$tmp/sgemm-$n.json"
    log "sgemm-$n" "$bin/sgemm" "$n" 5
    unset FERRY_TRACE
  done
  kv() { sed -n "s/^$2=//p" "$tmp/$1" 2> /dev/null | head -n 1; }
  sgemm_ms() {
    sed -n 's/.*"name":"sgemmTiled","cat":"kernel".*"dur":\([0-9.]*\).*/\1/p' "$tmp/sgemm-$1.json" 2> /dev/null |
      awk '{ printf "%.4f\n", $1 / 1000 }' | sort -g | head -n 1
  }
  tflops() { [ -n "$2" ] && awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.2f", 2 * n * n * n / (ms * 1e9) }'; }

  gpu=$(nvidia-smi -L 2> /dev/null | head -n 1 | sed 's/ (UUID.*//' || true)
  built=$(cat "$bin/BUILT_AT" 2> /dev/null || echo "an unrecorded commit")
  {
    echo "# Issue 31's targets, side by side on \`$device\`"
    echo
    echo "Generated by \`bench/targets.sh run\` (\`FERRY_DEVICE=$FERRY_DEVICE\`), one run on"
    echo "${gpu:-an unnamed device}, the programs built at $built."
    echo "*Ferry / original* above 1: Ferry faster."
    echo
    echo "| benchmark | original | Ferry | Ferry / original | target |"
    echo "| --- | --- | --- | --- | --- |"
    for k in Copy Mul Add Triad Dot; do
      o=$(bs_best bs-ocl "$k")
      f=$(bs_best bs-ferry "$k")
      extra=""
      [ "$k" = Dot ] && extra=" (original: $dot_shape; Ferry: $ferry_shape)"
      echo "| BabelStream $k, double, $elements elements, GB/s$extra | $o | $f | $(ratio "$f" "$o") | ≥ 1.0 |"
    done
    sum=$(bs_best bs-ferry Sum)
    copy=$(bs_best bs-ferry Copy)
    echo "| a \`double\` sum of $elements elements, GB/s (Ferry's BabelStream Sum through the reduction primitive, \`ferry::Sum<double>\`: a stride loop, a tree per group and a finishing kernel; nothing comes home per run), against the device's copy bandwidth (Ferry's Copy) | $copy | $sum | $(ratio "$sum" "$copy") | ≥ 0.9 |"
    ferry_us=$(small_best small dispatch_us)
    plain_us=$(small_best latency dispatch_us_plain)
    echo "| 20,000 small dispatches, µs each (bench/small_dispatches against raw OpenCL with no events, bench/latency; lower is better) | $plain_us | $ferry_us | $(ratio "$ferry_us" "$plain_us") (Ferry / raw) | ≤ 1.05 |"
    read -r best_ms best_p best_w <<< "$(mb_best minibude-ocl)"
    f=$(mb_ms minibude-fast "$best_p" "$best_w")
    echo "| miniBUDE bm1, ms, the original's best setting ($best_p poses per item, groups of $best_w), both with native math and fast-math builds (Ferry: FERRY_FAST_MATH=1) | $best_ms | $f | $(ratio "$best_ms" "$f") | ≥ 1.0 |"
    f=$(mb_ms minibude-finite "$best_p" "$best_w")
    echo "| miniBUDE bm1, ms, the same setting, Ferry with FERRY_FAST_MATH=finite (native math; fused multiply-adds, no signed zeros, finite math; IEEE divisions and denormals) | $best_ms | $f | $(ratio "$best_ms" "$f") | ≥ 1.0 |"
    f=$(mb_ms minibude "$best_p" "$best_w")
    echo "| miniBUDE bm1, ms, the same setting, Ferry without FERRY_FAST_MATH (native math only) | $best_ms | $f | $(ratio "$best_ms" "$f") | (less) |"
    read -r ieee_ms ieee_p ieee_w <<< "$(mb_best minibude-ocl-ieee)"
    f=$(mb_ms minibude "$ieee_p" "$ieee_w")
    echo "| miniBUDE bm1, ms, the original with IEEE math (no native, no fast-math options) at its best ($ieee_p / $ieee_w), Ferry native math only | $ieee_ms | $f | $(ratio "$ieee_ms" "$f") | (information) |"
    # Each at its best of every setting and build: the original's with its
    # fast-math options or with IEEE math, Ferry's with or without
    # FERRY_FAST_MATH.
    read -r o_ms o_p o_w o_b <<< "$( (mb_best minibude-ocl | sed 's/$/ fast-math/'
      mb_best minibude-ocl-ieee | sed 's/$/ IEEE/') | sort -g | head -n 1)"
    read -r f_ms f_p f_w f_b <<< "$( (mb_best minibude | sed 's/$/ native/'
      mb_best minibude-fast | sed 's/$/ FERRY_FAST_MATH=1/'
      mb_best minibude-finite | sed 's/$/ FERRY_FAST_MATH=finite/') | sort -g | head -n 1)"
    echo "| miniBUDE bm1, ms, each at its best setting and build (original: $o_p / $o_w, $o_b; Ferry: $f_p / $f_w, $f_b) | $o_ms | $f_ms | $(ratio "$o_ms" "$f_ms") | ≥ 1.0 |"
    for n in $sgemm_sizes; do
      c=$(kv "cublas-$n" tflops)
      f=$(tflops "$n" "$(sgemm_ms "$n")")
      echo "| SGEMM n = $n, TFLOP/s: cuBLAS FP32 (CUBLAS_PEDANTIC_MATH) vs Ferry's samples/sgemm | ${c:-not run} | ${f:-n/a} | $(ratio "$f" "$c") | ≥ 0.9 |"
    done
    echo
    echo "Checks: BabelStream original $(bs_valid bs-ocl), Ferry $(bs_valid bs-ferry)"
    echo "(each validates every element and the sum, and exits 1 on a failure);"
    echo "miniBUDE original $(mb_valid minibude-ocl), IEEE original $(mb_valid minibude-ocl-ieee),"
    echo "Ferry $(mb_valid minibude), Ferry fast-math $(mb_valid minibude-fast), Ferry finite math $(mb_valid minibude-finite) (every setting against ref_energies.out, 0.025 %);"
    for n in $sgemm_sizes; do
      echo "SGEMM n = $n: cuBLAS check=$(kv "cublas-$n" check),"
      echo "Ferry \`$(grep '^check:' "$tmp/sgemm-$n" 2> /dev/null | head -n 1)\`."
    done
    echo
    echo "## miniBUDE, every setting (mean ms of $iters runs)"
    echo
    echo "| poses per item | group | original (fast math) | original (IEEE) | Ferry (native math) | Ferry (FERRY_FAST_MATH=1) | Ferry (FERRY_FAST_MATH=finite) | original / Ferry fast | original / Ferry finite | IEEE original / Ferry |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for p in ${settings_p//,/ }; do
      for w in ${settings_w//,/ }; do
        o=$(mb_ms minibude-ocl "$p" "$w")
        i=$(mb_ms minibude-ocl-ieee "$p" "$w")
        f=$(mb_ms minibude "$p" "$w")
        ff=$(mb_ms minibude-fast "$p" "$w")
        fi=$(mb_ms minibude-finite "$p" "$w")
        [ -n "$o$i$f$ff$fi" ] || continue
        echo "| $p | $w | ${o:-–} | ${i:-–} | ${f:-–} | ${ff:-–} | ${fi:-–} | $(ratio "$o" "$ff") | $(ratio "$o" "$fi") | $(ratio "$i" "$f") |"
      done
    done
    echo
    echo "Raw outputs: raw.txt beside this file."
  } > "$out/targets.md"
  cat "$out/targets.md"
}

table() {
  doc="$root/docs/targets.md"
  raw="$(dirname "$1")/raw.txt"
  {
    echo "<!-- Generated from a run of bench/targets.sh; regenerate, do not edit:"
    echo "       cmake --build build --target babelstream minibude sgemm small_dispatches latency"
    echo "       bench/targets.sh bundle build .device/bench"
    echo "       # on the device machine, with .device/bench carried:"
    echo "       FERRY_DEVICE=gpu bash .device/bench/targets.sh run .device/bench \$OUT"
    echo "       # here, with the targets.md that came back:"
    echo "       bench/targets.sh table targets.md -->"
    echo
    sed 's|^Raw outputs: raw.txt beside this file.|Raw outputs: [targets-raw.txt](targets-raw.txt).|' "$1"
  } > "$doc"
  echo "wrote $doc"
  if [ -f "$raw" ]; then
    cp "$raw" "$root/docs/targets-raw.txt"
    echo "wrote $root/docs/targets-raw.txt"
  fi
}

case "$mode" in
bundle) bundle "$@" ;;
run) run "$@" ;;
table)
  [ $# -eq 1 ] || { echo "usage: bench/targets.sh table FILE" >&2; exit 1; }
  table "$1"
  ;;
*)
  echo "usage: bench/targets.sh bundle [BUILD_DIR] [DEST] | run [BIN_DIR] [OUT_DIR] | table FILE" >&2
  exit 1
  ;;
esac
