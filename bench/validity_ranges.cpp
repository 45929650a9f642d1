// How a buffer should remember which of its parts are stale: an interval
// set (ferry::detail::RangeSet, what the runtime uses) against fixed-size
// chunks, one bit each, at three chunk sizes: one element (exact, like the
// intervals), a 4 KiB page (AdaptiveCpp's granularity) and 64 KiB.
// bench/validity-ranges.sh runs it and writes docs/validity-ranges.md.
//
//   validity_ranges ELEMENTS ROW_WIDTH
//
// Prints one markdown table row per operation and representation: the best
// of 5 runs of the mean nanoseconds per operation. Elements are 4 bytes
// (floats); offsets are in elements.
#include <ferry/ranges.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Stale chunks, one bit each. Marking [first, last) stale sets every chunk
// it touches (a chunk partly stale is stale); marking it valid clears only
// the chunks it covers whole (the rest of a chunk stays stale): the safe
// rounding, which is why chunks move more bytes than asked.
class ChunkBitmap {
public:
  ChunkBitmap(std::size_t elements, std::size_t chunk)
      : elements_(elements), chunk_(chunk),
        chunks_((elements + chunk - 1) / chunk), words_((chunks_ + 63) / 64) {}

  bool empty() const { return set_ == 0; }
  void clear() {
    std::fill(words_.begin(), words_.end(), 0);
    set_ = 0;
  }
  void add(std::size_t first, std::size_t last) {
    if (first < last)
      setBits(first / chunk_, (last - 1) / chunk_ + 1, true);
  }
  void remove(std::size_t first, std::size_t last) {
    const std::size_t from = (first + chunk_ - 1) / chunk_;
    const std::size_t to = last >= elements_ ? chunks_ : last / chunk_;
    if (from < to)
      setBits(from, to, false);
  }
  template <class F>
  void forEachWithin(std::size_t first, std::size_t last, F &&f) const {
    if (first >= last)
      return;
    const std::size_t endChunk = (last - 1) / chunk_ + 1;
    std::size_t c = first / chunk_;
    while (c < endChunk) {
      c = nextSet(c, endChunk);
      if (c >= endChunk)
        break;
      const std::size_t run = nextClear(c, endChunk);
      f(std::max(c * chunk_, first), std::min(run * chunk_, last));
      c = run;
    }
  }

private:
  void setBits(std::size_t from, std::size_t to, bool value) {
    while (from < to) {
      const std::size_t w = from / 64, bit = from % 64;
      const std::size_t n = std::min<std::size_t>(64 - bit, to - from);
      const std::uint64_t mask =
          (n == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << n) - 1)) << bit;
      const std::uint64_t old = words_[w];
      words_[w] = value ? old | mask : old & ~mask;
      set_ += static_cast<std::size_t>(__builtin_popcountll(words_[w])) -
              static_cast<std::size_t>(__builtin_popcountll(old));
      from += n;
    }
  }
  std::size_t nextSet(std::size_t c, std::size_t end) const {
    while (c < end) {
      const std::uint64_t w = words_[c / 64] >> (c % 64);
      if (w)
        return std::min(end, c + static_cast<std::size_t>(__builtin_ctzll(w)));
      c = (c / 64 + 1) * 64;
    }
    return end;
  }
  std::size_t nextClear(std::size_t c, std::size_t end) const {
    while (c < end) {
      const std::uint64_t w = ~words_[c / 64] >> (c % 64);
      if (w)
        return std::min(end, c + static_cast<std::size_t>(__builtin_ctzll(w)));
      c = (c / 64 + 1) * 64;
    }
    return end;
  }

  std::size_t elements_, chunk_, chunks_;
  std::vector<std::uint64_t> words_;
  std::size_t set_ = 0;
};

// Keeps the optimiser from dropping what a loop computes.
volatile std::size_t sink;

// Best of 5 runs of the mean nanoseconds per call of op(i): at most `reps`
// calls a run, fewer for a slow op (about 20 ms a run).
template <class Op> double best(std::size_t reps, Op &&op) {
  const auto clock = [] { return std::chrono::steady_clock::now(); };
  auto t0 = clock();
  op(0);
  const double once =
      std::chrono::duration<double, std::nano>(clock() - t0).count();
  reps = std::max<std::size_t>(
      1, std::min<std::size_t>(reps, static_cast<std::size_t>(2e7 / (once + 1))));
  double bestNs = 1e300;
  for (int run = 0; run < 5; ++run) {
    t0 = clock();
    for (std::size_t i = 0; i < reps; ++i)
      op(i);
    const double ns =
        std::chrono::duration<double, std::nano>(clock() - t0).count();
    bestNs = std::min(bestNs, ns / static_cast<double>(reps));
  }
  return bestNs;
}

struct Result {
  std::string name;
  double wholeNs, elementNs, rowNs, scatteredNs, piecesRowNs, piecesManyNs,
      haloNs;
  std::size_t elementBytes; // bytes copying one stale element's pieces moves
  std::size_t haloBytes; // bytes a halo sweep's copy in moves (stale pieces)
  std::size_t memoryBytes;
};

template <class Make> Result measure(const std::string &name, Make make,
                                     std::size_t n, std::size_t width) {
  using Set = decltype(make());
  Result r;
  r.name = name;
  const std::size_t rows = n / width;
  const std::size_t reps = 2000;
  // The whole buffer goes stale (a kernel wrote it), is asked about, and
  // comes back valid (copied).
  {
    Set s = make();
    r.wholeNs = best(reps / 10 + 1, [&](std::size_t) {
      s.add(0, n);
      sink = s.empty();
      s.remove(0, n);
      sink = s.empty();
    });
  }
  // One element (the host reads b[i] back): stale, then valid, among 64
  // stale rows elsewhere.
  {
    Set s = make();
    for (std::size_t k = 0; k < 64; ++k)
      s.add(k * 2 * width, k * 2 * width + width);
    r.elementNs = best(reps * 50, [&](std::size_t i) {
      const std::size_t e = (i * 7919 % rows) * width + width / 2;
      s.add(e, e + 1);
      s.remove(e, e + 1);
    });
    Set one = make();
    one.add(n / 2 + 1, n / 2 + 2);
    r.elementBytes = 0;
    one.forEachWithin(0, n, [&](std::size_t a, std::size_t b) {
      r.elementBytes += (b - a) * sizeof(float);
    });
  }
  // A row: stale, then valid.
  {
    Set s = make();
    r.rowNs = best(reps * 10, [&](std::size_t i) {
      const std::size_t row = i % rows;
      s.add(row * width, (row + 1) * width);
      s.remove(row * width, (row + 1) * width);
    });
  }
  // Marking every other row of the buffer, one at a time (a host loop that
  // writes rows; the worst shape for intervals: rows / 2 of them).
  {
    Set s = make();
    r.scatteredNs = best(5, [&](std::size_t) {
      s.clear();
      for (std::size_t row = 0; row < rows; row += 2)
        s.add(row * width, (row + 1) * width);
    }) / static_cast<double>((rows + 1) / 2);
  }
  // The stale pieces of the whole buffer: one row stale, then every other.
  {
    Set s = make();
    s.add((rows / 2) * width, (rows / 2 + 1) * width);
    r.piecesRowNs = best(reps, [&](std::size_t) {
      std::size_t stale = 0;
      s.forEachWithin(0, n,
                      [&](std::size_t a, std::size_t b) { stale += b - a; });
      sink = stale;
    });
    for (std::size_t row = 0; row < rows; row += 2)
      s.add(row * width, (row + 1) * width);
    r.piecesManyNs = best(20, [&](std::size_t) {
      std::size_t stale = 0;
      s.forEachWithin(0, n,
                      [&](std::size_t a, std::size_t b) { stale += b - a; });
      sink = stale;
    });
  }
  // One sweep of a halo exchange on the device copy: the host wrote the
  // first and last rows (device-stale), the whole buffer is brought up to
  // date on the device (its stale pieces found, then marked valid).
  {
    Set s = make();
    std::size_t moved = 0;
    r.haloNs = best(reps, [&](std::size_t) {
      s.add(0, width);
      s.add(n - width, n);
      moved = 0;
      s.forEachWithin(0, n, [&](std::size_t a, std::size_t b) {
        moved += b - a;
      });
      s.remove(0, n);
    });
    r.haloBytes = moved * sizeof(float);
  }
  r.memoryBytes = 0;
  return r;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: validity_ranges ELEMENTS ROW_WIDTH\n");
    return 1;
  }
  const std::size_t n = std::strtoull(argv[1], nullptr, 10);
  const std::size_t width = std::strtoull(argv[2], nullptr, 10);
  if (n == 0 || width == 0 || n % width != 0) {
    std::fprintf(stderr, "validity_ranges: ELEMENTS must be a multiple of "
                         "ROW_WIDTH\n");
    return 1;
  }
  using ferry::detail::RangeSet;
  const std::size_t page = 4096 / sizeof(float), big = 65536 / sizeof(float);
  std::vector<Result> results = {
      measure("intervals (RangeSet)", [] { return RangeSet(); }, n, width),
      measure("bitmap, 1 element a bit",
              [&] { return ChunkBitmap(n, 1); }, n, width),
      measure("bitmap, 4 KiB a bit", [&] { return ChunkBitmap(n, page); },
              n, width),
      measure("bitmap, 64 KiB a bit", [&] { return ChunkBitmap(n, big); }, n,
              width),
  };
  const std::size_t rows = n / width;
  results[0].memoryBytes = sizeof(RangeSet::Interval) * ((rows + 1) / 2);
  results[1].memoryBytes = (n + 63) / 64 * 8;
  results[2].memoryBytes = ((n + page - 1) / page + 63) / 64 * 8;
  results[3].memoryBytes = ((n + big - 1) / big + 63) / 64 * 8;
  for (const Result &r : results)
    std::printf("| %zu x %zu | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | "
                "%.1f | %zu | %zu | %zu |\n",
                rows, width, r.name.c_str(), r.wholeNs, r.elementNs, r.rowNs,
                r.scatteredNs, r.piecesRowNs, r.piecesManyNs, r.haloNs,
                r.elementBytes, r.haloBytes, r.memoryBytes);
  return 0;
}
