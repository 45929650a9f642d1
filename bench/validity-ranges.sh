#!/bin/sh
# How a buffer remembers its stale parts: an interval set (the runtime's
# ferry::detail::RangeSet) against chunk bitmaps, on the operations the
# runtime does, in docs/validity-ranges.md. Needs no OpenCL device.
#   bench/validity-ranges.sh [ELEMENTS:ROW_WIDTH ...]
# (default: a 1024 x 1024 and an 8192 x 8192 grid of floats)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
c++ -std=c++17 -O2 -I "$root/runtime/include" "$root/bench/validity_ranges.cpp" -o "$bin/validity_ranges"
[ $# -gt 0 ] || set -- 1048576:1024 67108864:8192
out="$root/docs/validity-ranges.md"
rows=$(for shape in "$@"; do "$bin/validity_ranges" "${shape%%:*}" "${shape##*:}"; done)
{
  cat <<'EOF'
# Per-range validity: intervals or chunks

A buffer may be valid on the host in some places and on the device in
others (a one-element read back, a kernel over half of it, a halo row
written by the host). The runtime remembers the stale parts of each side.
Two ways to do that were measured on the operations the runtime does: an
interval set (sorted, disjoint `[first, last)` pairs in a vector,
`runtime/include/ferry/ranges.hpp`) and a bitmap of fixed-size chunks, one
bit a chunk, at one element (exact), a 4 KiB page (AdaptiveCpp's
granularity) and 64 KiB. A chunk bitmap rounds: a chunk partly stale is
stale, so it copies whole chunks where a plan asked for less.

Nanoseconds per operation, best of 5 runs, one core, `c++ -O2`; offsets in
4-byte elements of a `rows x width` grid. Regenerate with
`bench/validity-ranges.sh`.

| grid | representation | whole buffer stale, asked, valid | one element stale, then valid (64 rows stale) | one row stale, then valid | mark every other row (per row) | stale pieces of the whole, 1 row stale | stale pieces of the whole, every other row stale | halo sweep: 2 rows stale, pieces found, whole valid | bytes one stale element costs to copy | bytes a halo sweep copies | memory, every other row stale (B) |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
EOF
  echo "$rows"
  cat <<'EOF'

## The choice: intervals, behind two flags

* **Exact.** Intervals copy exactly what the plan asks for: one stale
  element costs 4 bytes, a halo sweep two rows. A 4 KiB bitmap copies a page
  for one element (1024 times the bytes), a 64 KiB one 16 384 times, and
  both round a halo row of a narrow grid up to whole chunks. Only the
  one-element bitmap is as exact, and its size and scans grow with the
  buffer: a whole-buffer operation on 64 Mi elements takes milliseconds.
* **As fast where it matters.** Marking an element or a row and finding the
  stale pieces of a few rows cost 1 to 20 ns with intervals, the same order
  as the coarse bitmaps; a transfer costs microseconds. Intervals cost more
  only where a buffer is cut into thousands of stale pieces (every other
  row of an 8192-row grid: 2 µs to list 4096 pieces, each then its own
  transfer of microseconds), a shape no plan makes.
* **The common case costs nothing.** Most buffers are whole on each side
  all the time. The runtime keeps a buffer's validity as two flags (host
  copy whole, device copy whole) and allocates the interval sets only while
  a buffer is valid in part, so whole-buffer operations stay a flag store
  and a null test, as before: a small dispatch on the H100 costs what it
  cost before ranges ([dispatch-overhead.md](dispatch-overhead.md)).
EOF
  echo
  echo "Measured on $(nproc) cores of $(uname -m), $(date -u +%Y-%m-%d)."
} > "$out"
cat "$out"
