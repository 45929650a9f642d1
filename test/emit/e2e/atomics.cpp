#include "../golden/atomics.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       ferry::Buffer<unsigned> &bins,
                       ferry::Buffer<int> &localBins, ferry::Buffer<int> &s,
                       ferry::Buffer<unsigned> &u, ferry::Buffer<int> &old,
                       ferry::Buffer<int> &total, int n) {
  cc.dispatch(histogram, ferry::Range(n), values, bins);
  cc.dispatch(localHistogram, ferry::Range(n).local(32), values, localBins);
  cc.dispatch(everyAtomic, ferry::Range(n), s, u, old);
  cc.dispatch(bumps, ferry::Range(n).local(16), total);
}

int main() {
  const int n = 512;
  ferry::Buffer<int> values(n), localBins(16), s(5), old(7 * n), total(1);
  ferry::Buffer<unsigned> bins(16), u(3);
  check::fill(values, 0, 100000);
  for (int i = 0; i < 16; ++i)
    bins[i] = 0, localBins[i] = 0;
  s[0] = 5000, s[1] = 7, s[2] = 9, s[3] = 0, s[4] = 0;
  u[0] = 0xffffffffu, u[1] = 0, u[2] = 0x1234u;
  total[0] = 0;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, values, bins, localBins, s, u, old, total, n);
  });
  // What every order of the atomics agrees on, worked out by hand.
  std::vector<unsigned> rbins(16);
  std::vector<int> rlocal(16);
  for (int v : values)
    ++rbins[v % 16], ++rlocal[v % 16];
  check::values("histogram", bins, rbins);
  check::values("localHistogram", localBins, rlocal);
  ferry::Buffer<int> s3(3);
  for (int i = 0; i < 3; ++i)
    s3[i] = s[i];
  check::values("sub, min, max", s3, std::vector<int>{5000 - 2 * n, 0, n - 1});
  check::values("and, or, xor", u,
                std::vector<unsigned>{0u, 0xffffffffu, 0x1234u});
  ferry::Buffer<int> exchanged(n);
  for (int i = 0; i < n; ++i)
    exchanged[i] = old[7 * i + 6];
  check::values("exchange", exchanged, std::vector<int>(n, 1));
  // Compare-exchange from i to i + 1 moves s[4] on by one per item that
  // finds it at its own id: at least item 0 does.
  ferry::Buffer<int> moved(1);
  moved[0] = s[4] >= 1 && s[4] <= n ? 1 : 0;
  check::values("compareExchange", moved, std::vector<int>{1});
  // Each work-item bumps its group's local counter and the total once.
  check::values("bumps", total, std::vector<int>{n});
  return check::report("atomics");
}
