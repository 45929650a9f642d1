// How fast the reference execution runs kernels with barriers: the same
// per-group sum written with ferry::Local and kc.barrier() (each work-item
// on a fiber) and without (one work-item per group sums it alone, the rest
// return at once), each over the same range in the same work-groups.
// bench/reference-speed.sh runs it and writes docs/reference-speed.md.
#include <ferry/ferry.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>

constexpr int Group = 256;

FERRY_KERNEL void treeSum(ferry::KernelContext kc, const int *in, int *out) {
  ferry::Local<int, Group> partial;
  partial[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      partial[kc.localX] += partial[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    out[kc.groupX] = partial[0];
}

FERRY_KERNEL void loopSum(ferry::KernelContext kc, const int *in, int *out) {
  if (kc.localX != 0)
    return;
  int s = 0;
  for (int i = 0; i < kc.localSizeX; ++i)
    s += in[kc.x + i];
  out[kc.groupX] = s;
}

template <class K>
double secondsFor(K kernel, ferry::Buffer<int> &in, ferry::Buffer<int> &out) {
  ferry::Accelerator acc;
  const auto t0 = std::chrono::steady_clock::now();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(kernel, ferry::Range(in.size()).local(Group), in, out);
  });
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

int main(int argc, char **argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 1L << 20;
  if (n <= 0 || n % Group != 0) {
    std::fprintf(stderr, "usage: reference_barriers [N, a multiple of %d]\n",
                 Group);
    return 1;
  }
  ferry::Buffer<int> in(static_cast<std::size_t>(n)), a(n / Group),
      b(n / Group);
  for (long i = 0; i < n; ++i)
    in[i] = static_cast<int>(i % 17);
  const double tree = secondsFor(treeSum, in, a);
  const double loop = secondsFor(loopSum, in, b);
  for (long g = 0; g < n / Group; ++g)
    if (a[g] != b[g]) {
      std::fprintf(stderr, "group %ld: %d != %d\n", g, a[g], b[g]);
      return 1;
    }
  // Barriers per work-item: one after the store, one per tree level.
  int barriers = 1;
  for (int step = Group / 2; step > 0; step /= 2)
    ++barriers;
  std::printf("| %ld | %d | %.3f | %.3f | %.1f | %.0f |\n", n, barriers, tree,
              loop, tree / loop,
              tree * 1e9 / (static_cast<double>(n) * barriers));
  return 0;
}
