// samples/reduction in one dispatch, for bench/kernels.sh to set beside it:
// the same first kernel, but each group adds its sum and maximum into the
// result with atomics instead of writing a pair for a second dispatch to
// fold. The result must start as (0, lowest int), so each repetition sets it
// on the host first (two 4-byte copies in, which are transfers, not kernel
// time). On the H100 the second dispatch of the sample costs about 4 us
// whatever it folds, a sixth of the whole; this shows what is left without it.
//
//   reduction_atomic N GROUPS REPS     prints the sample's check line
#include <ferry/ferry.hpp>

#include <cstdio>
#include <cstdlib>

constexpr int kGroupSize = 256;
constexpr int kLowest = -2147483647 - 1; // the maximum of nothing

int larger(int a, int b) { return a > b ? a : b; }

// Folds the group's kGroupSize (sum, maximum) pairs, one per work-item, into
// sums[0] and maxima[0], halving the active work-items at each step.
void foldGroup(ferry::KernelContext kc, int *sums, int *maxima) {
  for (int step = kGroupSize / 2; step > 0; step /= 2) {
    if (kc.localX < step) {
      const int other = kc.localX + step;
      sums[kc.localX] += sums[other];
      maxima[kc.localX] = larger(maxima[kc.localX], maxima[other]);
    }
    kc.barrier();
  }
}

// Range(groups * kGroupSize).local(kGroupSize): each group folds its pair
// into total[0] and maximum[0] with atomics.
FERRY_KERNEL void reduceAtomic(ferry::KernelContext kc, FERRY_RO const int *in,
                               int n, int *total, int *maximum) {
  ferry::Local<int, kGroupSize> sums;
  ferry::Local<int, kGroupSize> maxima;
  const int stride = kc.maxX;
  int sum = 0;
  int best = kLowest;
  int i = kc.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    const int v0 = in[i];
    const int v1 = in[i + stride];
    const int v2 = in[i + 2 * stride];
    const int v3 = in[i + 3 * stride];
    sum += (v0 + v1) + (v2 + v3);
    best = larger(best, larger(larger(v0, v1), larger(v2, v3)));
  }
  for (; i < n; i += stride) {
    sum += in[i];
    best = larger(best, in[i]);
  }
  sums[kc.localX] = sum;
  maxima[kc.localX] = best;
  kc.barrier();
  foldGroup(kc, &sums[0], &maxima[0]);
  if (kc.localX == 0) {
    ferry::atomicAdd(&total[0], sums[0]);
    ferry::atomicMax(&maximum[0], maxima[0]);
  }
}

FERRY_COMPUTE void reduce(ferry::ComputeContext &cc, ferry::Buffer<int> &data,
                          ferry::Buffer<int> &total, ferry::Buffer<int> &maximum,
                          int groups, int reps) {
  const int n = static_cast<int>(data.size());
  for (int rep = 0; rep < reps; ++rep) {
    total[0] = 0;
    maximum[0] = kLowest;
    cc.dispatch(reduceAtomic,
                ferry::Range(groups * kGroupSize).local(kGroupSize), data, n,
                total, maximum);
  }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int groups = argc > 2 ? std::atoi(argv[2]) : 64;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 1;
  if (n <= 0 || n > 1 << 24 || groups <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: reduction_atomic N GROUPS REPS\n");
    return 1;
  }
  // samples/reduction's data.
  ferry::Buffer<int> data(n);
  unsigned state = 2024;
  for (int i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    data[i] = static_cast<int>((state >> 16) % 100);
  }
  data[n - 1 - n / 3] = 100 + n % 1000;
  ferry::Buffer<int> total(1), maximum(1);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    reduce(cc, data, total, maximum, groups, reps);
  });

  long long sum = 0;
  int best = data[0];
  for (int i = 0; i < n; ++i) {
    sum += data[i];
    best = data[i] > best ? data[i] : best;
  }
  std::printf("check: n=%d groups=%d reps=%d sum %s max %s\n", n, groups, reps,
              total[0] == sum ? "ok" : "WRONG", maximum[0] == best ? "ok" : "WRONG");
  return total[0] == sum && maximum[0] == best ? 0 : 2;
}
