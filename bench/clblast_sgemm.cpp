// CLBlast's SGEMM on the same row-major C = A x B as samples/sgemm, for
// bench/kernels.sh: the best tuned OpenCL library at hand, the bar for
// Ferry's tiled kernel. Timed as the whole call (clblast::Gemm until the
// queue is empty, host clock), after one untimed call that builds its
// kernels, since CLBlast may run helper kernels (padding, transposes) around
// its GEMM kernel and its event covers only the last of them.
//
//   clblast_sgemm N REPS
//
// Prints
//   best_ms=<best whole-call time of REPS>
//   weighted=<samples/sgemm's weighted sum of C>
//   device=<the OpenCL device>
#include "raw_common.hpp"
#include "sgemm_common.hpp"

#include <clblast.h>

#include <algorithm>

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: clblast_sgemm N REPS\n");
    return 1;
  }
  raw::Runtime rt;
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<float> a(nn), b(nn), c(nn);
  sgemm::fill(a, b);
  cl::Buffer da(rt.context, CL_MEM_READ_ONLY, nn * 4);
  cl::Buffer db(rt.context, CL_MEM_READ_ONLY, nn * 4);
  cl::Buffer dc(rt.context, CL_MEM_READ_WRITE, nn * 4);
  rt.queue.enqueueWriteBuffer(da, CL_TRUE, 0, nn * 4, a.data());
  rt.queue.enqueueWriteBuffer(db, CL_TRUE, 0, nn * 4, b.data());

  cl_command_queue queue = rt.queue();
  auto gemm = [&] {
    const clblast::StatusCode status = clblast::Gemm<float>(
        clblast::Layout::kRowMajor, clblast::Transpose::kNo,
        clblast::Transpose::kNo, n, n, n, 1.0f, da(), 0, n, db(), 0, n, 0.0f,
        dc(), 0, n, &queue);
    if (status != clblast::StatusCode::kSuccess) {
      std::fprintf(stderr, "clblast_sgemm: clblast::Gemm failed (%d)\n",
                   static_cast<int>(status));
      std::exit(1);
    }
    rt.queue.finish();
  };
  gemm();
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    gemm();
    best = std::min(best, std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t0)
                              .count());
  }
  rt.queue.enqueueReadBuffer(dc, CL_TRUE, 0, nn * 4, c.data());
  std::printf("best_ms=%.4f\nweighted=%lld\ndevice=%s\n", best,
              sgemm::weighted(c.data(), n),
              rt.device.getInfo<CL_DEVICE_NAME>().c_str());
  return 0;
}
