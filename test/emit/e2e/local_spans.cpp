#include "../golden/workgroups.cpp"
#include "Check.h"

// The LocalSpan kernels of golden/workgroups.cpp: local memory sized at
// dispatch, two OpenCL arguments each.
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &iin,
                       ferry::Buffer<int> &rev, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &copied, int n) {
  cc.dispatch(reverse, ferry::Range(n).local(32), iin, rev,
              ferry::localSpan<int>(32));
  cc.dispatch(copyThrough, ferry::Range(n).local(64), in, copied,
              ferry::localSpan<float>(64));
}

int main() {
  const int n = 256;
  ferry::Buffer<int> iin(n), rev(n);
  ferry::Buffer<float> in(n), copied(n);
  check::fill(iin, -1000, 1000);
  check::fill(in, -2.0f, 2.0f);
  std::vector<int> riin = check::copy(iin), rrev(n);
  std::vector<float> rin = check::copy(in), rcopied(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, iin, rev, in, copied, n); });
  int *piin = riin.data(), *prev = rrev.data();
  float *pin = rin.data(), *pcopied = rcopied.data();
  auto ispan = ferry::localSpan<int>(32);
  auto fspan = ferry::localSpan<float>(64);
  using ferry::detail::runOnHost;
  runOnHost(reverse, ferry::Range(n).local(32), "reverse", piin, prev, ispan);
  runOnHost(copyThrough, ferry::Range(n).local(64), "copyThrough", pin,
            pcopied, fspan);
  check::values("reverse", rev, rrev);
  check::values("copyThrough", copied, rcopied);
  return check::report("local_spans");
}
