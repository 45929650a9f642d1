// BabelStream's five classic kernels (Copy, Mul, Add, Triad, Dot) on doubles,
// and one of Ferry's own (Sum, a reduction through ferry::Sum),
// written for Ferry from the description of UoB-HPC/BabelStream 5.0's OpenCL
// version, to be run beside that original (bench/targets.sh): the same
// arrays, start values, kernel order, timing, bandwidth and validation.
//
//   babelstream [-s N] [-n TIMES] [--validate-only]
//     -s N        elements per array (default 2^25 = 33554432)
//     -n TIMES    runs of the five kernels (default 100, at least 2)
//     --validate-only   print only the validation's verdict, no device name
//                 or timings (the ctest compares this output between the
//                 reference execution and the rewritten program)
//
// Like the original, each kernel is timed on the host clock around its
// dispatch and a wait for the device (`cc.finish()`); Dot's time includes
// copying the groups' partial sums home and adding them there. Bandwidth is
// the bytes the kernel must move (2, 2, 3, 3 and 2 arrays) over its fastest
// run, the first run left out; MB/s as the original prints by default.
//
// Dot's launch shape is the original's for a GPU, chosen from
// `cc.device()`: four groups per compute unit, each as large as the device
// allows (rounded down to a power of two for the tree, and to what its
// local memory holds). Each work-item folds a grid-stride slice into a
// private sum (the original folds into its local-memory slot), then the
// group folds its sums in a tree in local memory; the partial sums array is
// made inside the compute function, so Ferry can tell it from the arrays the
// kernel reads and the tree's barriers fence local memory alone.
//
// Validation is the original's: the expected value of every element after
// TIMES runs of the sequence, within 100 epsilon relative (a, b, c), and
// the sum within 10^7 epsilon; any failure is reported on standard error
// and the program exits with status 1.
//
// The ctest (bench/CMakeLists.txt) runs 4099 elements (not a multiple of
// any group size) three times, on PoCL and in the reference execution.
// ferry-test: args -s 4099 -n 3 --validate-only
#include <ferry/ferry.hpp>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

constexpr double kStartA = 0.1;
constexpr double kStartB = 0.2;
constexpr double kStartC = 0.0;
constexpr double kScalar = 0.4;

FERRY_KERNEL void initArrays(ferry::KernelContext kc, FERRY_WO double *a,
                             FERRY_WO double *b, FERRY_WO double *c,
                             double initA, double initB, double initC) {
  const int i = kc.x;
  a[i] = initA;
  b[i] = initB;
  c[i] = initC;
}

FERRY_KERNEL void copyKernel(ferry::KernelContext kc, const double *a,
                             FERRY_WO double *c) {
  c[kc.x] = a[kc.x];
}

FERRY_KERNEL void mulKernel(ferry::KernelContext kc, FERRY_WO double *b,
                            const double *c) {
  b[kc.x] = kScalar * c[kc.x];
}

FERRY_KERNEL void addKernel(ferry::KernelContext kc, const double *a,
                            const double *b, FERRY_WO double *c) {
  c[kc.x] = a[kc.x] + b[kc.x];
}

FERRY_KERNEL void triadKernel(ferry::KernelContext kc, FERRY_WO double *a,
                              const double *b, const double *c) {
  a[kc.x] = b[kc.x] + kScalar * c[kc.x];
}

// Range(groups * size).local(size), size a power of two: group g writes
// partial[g], the sum of a[i] * b[i] over its work-items' slices.
FERRY_KERNEL void dotKernel(ferry::KernelContext kc, const double *a,
                            const double *b, FERRY_WO double *partial,
                            ferry::LocalSpan<double> sums, int n) {
  double sum = 0.0;
  for (int i = kc.x; i < n; i += kc.maxX)
    sum += a[i] * b[i];
  const int me = kc.localX;
  sums[me] = sum;
  for (int half = kc.localSizeX / 2; half > 0; half /= 2) {
    kc.barrier();
    if (me < half)
      sums[me] += sums[me + half];
  }
  if (me == 0)
    partial[kc.groupX] = sums[0];
}

// Not BabelStream's: a `double` sum of `a` left on the device (issue 31's
// reduction target), through a ferry::Sum parameter (an extension): Ferry
// chooses the groups, each work-item folds a stride of `a` privately, each
// group in local memory, and a second kernel folds the groups' sums into
// total[0]; nothing comes home per run. Its bandwidth, one array read over
// the fastest run, is set beside Copy's in docs/targets.md.
FERRY_KERNEL void sumKernel(ferry::KernelContext kc, const double *a,
                            ferry::Sum<double> total) {
  total += a[kc.x];
}

struct Timings {
  std::vector<double> copy, mul, add, triad, dot, sum;
};

using Clock = std::chrono::steady_clock;

static double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The largest power of two not above n (n >= 1).
static int powerOfTwoBelow(std::size_t n) {
  int p = 1;
  while (std::size_t(p) * 2 <= n && p < (1 << 30))
    p *= 2;
  return p;
}

// Static: only this file calls it, so Ferry sees every call, each passing
// three different buffers, and marks the kernels' buffers restrict.
static FERRY_COMPUTE void stream(ferry::ComputeContext &cc, ferry::Buffer<double> &a,
                                 ferry::Buffer<double> &b, ferry::Buffer<double> &c,
                                 int n, int times, Timings &t, double &sum,
                                 double &total, std::string &shape) {
  const ferry::Device device = cc.device();
  const std::size_t fits = std::max<std::size_t>(
      device.localMemoryBytes / 2 / sizeof(double), 1);
  const int groupSize =
      powerOfTwoBelow(std::min<std::size_t>(device.maxWorkGroupSize, fits));
  const int groups = int(device.computeUnits) * 4;
  shape = std::to_string(groups) + " groups of " + std::to_string(groupSize);
  ferry::Buffer<double> partial(groups);
  ferry::Buffer<double> totals(1, 0.0);

  cc.dispatch(initArrays, ferry::Range(n), a, b, c, kStartA, kStartB, kStartC);
  cc.finish();
  for (int k = 0; k < times; ++k) {
    Clock::time_point start = Clock::now();
    cc.dispatch(copyKernel, ferry::Range(n), a, c);
    cc.finish();
    t.copy.push_back(since(start));

    start = Clock::now();
    cc.dispatch(mulKernel, ferry::Range(n), b, c);
    cc.finish();
    t.mul.push_back(since(start));

    start = Clock::now();
    cc.dispatch(addKernel, ferry::Range(n), a, b, c);
    cc.finish();
    t.add.push_back(since(start));

    start = Clock::now();
    cc.dispatch(triadKernel, ferry::Range(n), a, b, c);
    cc.finish();
    t.triad.push_back(since(start));

    start = Clock::now();
    cc.dispatch(dotKernel, ferry::Range(groups * groupSize).local(groupSize),
                a, b, partial, ferry::localSpan<double>(groupSize), n);
    double total = 0.0;
    for (int g = 0; g < groups; ++g)
      total += partial[g];
    sum = total;
    t.dot.push_back(since(start));

    start = Clock::now();
    cc.dispatch(sumKernel, ferry::Range(n), a, totals);
    cc.finish();
    t.sum.push_back(since(start));
  }
  total = totals[0];
}

static bool parseInt(const char *text, long &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtol(text, &end, 10);
  return errno == 0 && end != text && *end == '\0';
}

int main(int argc, char **argv) {
  long n = 33554432;
  long times = 100;
  bool validateOnly = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "-s" || arg == "--arraysize") && i + 1 < argc) {
      if (!parseInt(argv[++i], n) || n <= 0 ||
          n > std::numeric_limits<int>::max()) {
        std::fprintf(stderr, "babelstream: invalid array size\n");
        return 1;
      }
    } else if ((arg == "-n" || arg == "--numtimes") && i + 1 < argc) {
      if (!parseInt(argv[++i], times) || times < 2 || times > 1000000) {
        std::fprintf(stderr, "babelstream: the number of times must be 2 or more\n");
        return 1;
      }
    } else if (arg == "--validate-only") {
      validateOnly = true;
    } else {
      std::fprintf(stderr,
                   "usage: babelstream [-s N] [-n TIMES] [--validate-only]\n");
      return 1;
    }
  }

  const int size = int(n);
  ferry::Buffer<double> a(size), b(size), c(size);
  Timings t;
  double sum = 0.0, total = 0.0;
  std::string shape;
  ferry::Accelerator acc;
  if (!validateOnly) {
    std::printf("BabelStream (Ferry port)\nVersion: 5.0\nImplementation: Ferry\n");
    std::printf("Running kernels %ld times\n", times);
    std::printf("Number of elements: %d\nPrecision: double\n", size);
    const double mb = double(n) * sizeof(double) * 1e-6;
    std::printf("Array size: %.1f MB\nTotal size: %.1f MB\n", mb, 3 * mb);
    std::printf("Using device %s\n", acc.device().name.c_str());
  }
  acc.compute([&](ferry::ComputeContext &cc) {
    stream(cc, a, b, c, size, int(times), t, sum, total, shape);
  });
  if (!validateOnly)
    std::printf("Reduction kernel config: %s\n", shape.c_str());

  // The values every element must hold after `times` runs of the sequence.
  double goldA = kStartA, goldB = kStartB, goldC = kStartC, goldSum = 0.0;
  double goldTotal = 0.0;
  for (long k = 0; k < times; ++k) {
    goldC = goldA;
    goldB = kScalar * goldC;
    goldC = goldA + goldB;
    goldA = goldB + kScalar * goldC;
    goldSum = goldA * goldB * double(n);
    goldTotal += goldA * double(n);
  }
  const double eps = std::numeric_limits<double>::epsilon();
  long failed = 0;
  auto check = [&](const char *name, double is, double should, double rel,
                   long i) {
    const double diff = std::fabs(is - should);
    const double largest = std::max(std::fabs(is), std::fabs(should));
    if (diff <= largest * rel && !std::isnan(is))
      return;
    if (++failed <= 10)
      std::fprintf(stderr, "FAILED validation of %s[%ld]: %.17g (is) != %.17g (should)\n",
                   name, i, is, should);
  };
  check("sum", sum, goldSum, eps * 1e7, 0);
  check("total", total, goldTotal, eps * 1e7, 0);
  for (long i = 0; i < n; ++i) {
    check("a", a[i], goldA, eps * 100, i);
    check("b", b[i], goldB, eps * 100, i);
    check("c", c[i], goldC, eps * 100, i);
  }
  if (failed > 0) {
    std::fprintf(stderr, "babelstream: %ld values failed validation\n", failed);
    return 1;
  }
  std::printf("Validation passed: a, b, c, the dot sum and the total after %ld runs\n", times);
  if (validateOnly)
    return 0;

  std::printf("%-12s%-12s%-12s%-12s%-12s\n", "Function", "MBytes/sec",
              "Min (sec)", "Max", "Average");
  const struct {
    const char *name;
    const std::vector<double> *times;
    int arrays;
  } rows[] = {{"Copy", &t.copy, 2},
              {"Mul", &t.mul, 2},
              {"Add", &t.add, 3},
              {"Triad", &t.triad, 3},
              {"Dot", &t.dot, 2},
              {"Sum", &t.sum, 1}};
  for (const auto &row : rows) {
    const auto first = row.times->begin() + 1;
    const auto last = row.times->end();
    const double least = *std::min_element(first, last);
    const double most = *std::max_element(first, last);
    const double average =
        std::accumulate(first, last, 0.0) / double(row.times->size() - 1);
    const double mbps = 1e-6 * double(row.arrays) * sizeof(double) * double(n) / least;
    std::printf("%-12s%-12.3f%-12.5f%-12.5f%-12.5f\n", row.name, mbps, least,
                most, average);
  }
  return 0;
}
