// Fuzz finding: seed 1, programs p11 p14 p31 p38 p51 p60 p77 p86 p95 (form structhelper), reduced by hand.
// build rewrite: error: Ferry cannot tell which buffer this argument is (at `(*s.x)`): a dispatch in a
// helper given a struct of `ferry::Buffer<int>*` members.
// Reproduce: build it with ferry_target_sources and as the reference execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <utility>
#include <vector>

static void fuzz_print(const char *tag, const ferry::Buffer<int> &b) {
  long long sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum = (sum * 31 + b[i]) % 1000000007;
  std::printf("%s:", tag);
  for (std::size_t i = 0; i < b.size() && i < 8; ++i)
    std::printf(" %d", b[i]);
  std::printf(" check=%lld\n", sum);
}

// Per-program transfer statistics (the process's FERRY_STATS holds only the
// sum): the counters' growth since the previous program, appended to the
// file FERRY_FUZZ_STATS names.
static void fuzz_stats(const char *tag) {
  static ferry::Statistics last;
  const ferry::Statistics now = ferry::statistics();
  if (const char *path = std::getenv("FERRY_FUZZ_STATS")) {
    if (std::FILE *f = std::fopen(path, "a")) {
      std::fprintf(f, "%s %llu %llu %llu\n", tag,
                   static_cast<unsigned long long>(now.toDeviceBytes - last.toDeviceBytes),
                   static_cast<unsigned long long>(now.fromDeviceBytes - last.fromDeviceBytes),
                   static_cast<unsigned long long>(now.dispatches - last.dispatches));
      std::fclose(f);
    }
  }
  last = now;
}


// ---- program p0
FERRY_KERNEL void p0_k1(ferry::KernelContext kc, const int *b0, int *b1, int s0) {
  const int i = kc.x;
  b1[i] = (b0[i] + s0 + kc.x) & 0xFFFF;
}
struct p0_Pair2 {
  ferry::Buffer<int> *x;
  ferry::Buffer<int> *y;
};
static void p0_pairrun3(ferry::ComputeContext &cc, const p0_Pair2 &s, int n, int k) {
  cc.dispatch(p0_k1, ferry::Range(n), (*s.x), (*s.y), k);
}
FERRY_COMPUTE void p0_run(ferry::ComputeContext &cc, ferry::Buffer<int> &a, ferry::Buffer<int> &b,
    int n, int k0, int k1) {
  p0_pairrun3(cc, p0_Pair2{&a, &b}, n, 3);
  std::printf("[p0] b[] %d\n", b[1]);
}
static void p0_main(ferry::Accelerator &acc) {
  ferry::Buffer<int> a(8);
  for (int i = 0; i < 8; ++i)
    a[i] = (i * 3 + 1) & 0xFF;
  ferry::Buffer<int> b(8, 5);
  acc.compute([&](ferry::ComputeContext &cc) { p0_run(cc, a, b, 8, 0, 0); });
  fuzz_print("[p0] a", a);
  fuzz_print("[p0] b", b);
  fuzz_stats("p0");
}

int main() {
  ferry::Accelerator acc;
  p0_main(acc);
  return 0;
}
