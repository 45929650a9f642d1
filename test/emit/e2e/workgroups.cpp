#include "../golden/workgroups.cpp"
#include "Check.h"

// The LocalSpan kernels (reverse, copyThrough) run in local_spans.cpp.
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &sums, ferry::Buffer<int> &idsOut,
                       ferry::Buffer<float> &tileOut,
                       ferry::Buffer<int> &maxima,
                       ferry::Buffer<int> &nestedOut, int n) {
  cc.dispatch(partialSums, ferry::Range(n).local(64), in, sums);
  cc.dispatch(ids, ferry::Range(8, 6, 4).local(4, 3, 2), idsOut);
  cc.dispatch(tiles, ferry::Range(n).local(16), in, tileOut, maxima);
  cc.dispatch(nested, ferry::Range(n).local(16), nestedOut);
}

int main() {
  const int n = 256;
  ferry::Buffer<float> in(n), sums(n / 64), tileOut(n / 16);
  ferry::Buffer<int> idsOut(8 * 6 * 4), maxima(n), nestedOut(n);
  check::fill(in, -2.0f, 2.0f);
  std::vector<float> rin = check::copy(in), rsums(n / 64), rtile(n / 16);
  std::vector<int> rids(8 * 6 * 4), rmaxima(n), rnested(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, in, sums, idsOut, tileOut, maxima, nestedOut, n);
  });
  // The reference execution, in the same work-groups.
  float *pin = rin.data(), *psums = rsums.data(), *ptile = rtile.data();
  int *pids = rids.data(), *pmaxima = rmaxima.data(), *pnested = rnested.data();
  using ferry::detail::runOnHost;
  runOnHost(partialSums, ferry::Range(n).local(64), "partialSums", pin, psums);
  runOnHost(ids, ferry::Range(8, 6, 4).local(4, 3, 2), "ids", pids);
  runOnHost(tiles, ferry::Range(n).local(16), "tiles", pin, ptile, pmaxima);
  runOnHost(nested, ferry::Range(n).local(16), "nested", pnested);
  check::values("partialSums", sums, rsums);
  check::values("ids", idsOut, rids);
  check::values("tiles", tileOut, rtile);
  check::values("maxima", maxima, rmaxima);
  check::values("nested", nestedOut, rnested);
  return check::report("workgroups");
}
