// SGEMM written by hand in raw OpenCL, the register-tiled kernel issue 25
// measured (64 x 64 outputs per work-group, 4 x 4 per work-item, A and B
// slices of 16 k staged in local memory), for bench/kernels.sh to set beside
// Ferry's samples/sgemm and CLBlast. The block and the outputs per work-item
// are build options, so that the same program also times samples/sgemm's
// 128 x 128 / 8 x 8 shape written by hand.
//
//   raw_sgemm N REPS [BLOCK PER [SLICE [PREFETCH]]]
//     default 64 4 16 0: N a multiple of BLOCK, k staged SLICE at a time
//     (32 / SLICE an integer); PREFETCH 1 loads the next slice into
//     registers while the group computes on this one

//
// Row-major C = A x B with samples/sgemm's small-integer entries. Prints
//   best_ms=<best kernel time of REPS, OpenCL event profiling>
//   weighted=<samples/sgemm's weighted sum of C>
#include "raw_common.hpp"
#include "sgemm_common.hpp"

#include <algorithm>
#include <string>

namespace {

const char *Source = R"(
#define ITEMS (BLOCK / PER)
#define THREADS (ITEMS * ITEMS)
#define LOADS (BLOCK * SLICE / THREADS)
// Pads the transposed A slice so that a warp's stores hit 32 banks.
#define PITCH_A (BLOCK + 32 / SLICE)
__kernel __attribute__((reqd_work_group_size(ITEMS, ITEMS, 1)))
void sgemm(__global const float* a, __global const float* b,
           __global float* c, int n) {
  __local float aSlice[SLICE * PITCH_A];
  __local float bSlice[SLICE * BLOCK];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int self = ty * ITEMS + tx;
  const int rowBase = get_group_id(1) * BLOCK, colBase = get_group_id(0) * BLOCK;
  float acc[PER][PER];
  for (int i = 0; i < PER; ++i)
    for (int j = 0; j < PER; ++j)
      acc[i][j] = 0.0f;
#if PREFETCH
  // The next slices are loaded into registers while this one is used.
  float aNext[LOADS], bNext[LOADS];
  for (int l = 0; l < LOADS; ++l) {
    const int e = self + l * THREADS;
    aNext[l] = a[(rowBase + e / SLICE) * n + e % SLICE];
    bNext[l] = b[(e / BLOCK) * n + colBase + e % BLOCK];
  }
#endif
  for (int k0 = 0; k0 < n; k0 += SLICE) {
    for (int l = 0; l < LOADS; ++l) {
      const int e = self + l * THREADS;
#if PREFETCH
      aSlice[(e % SLICE) * PITCH_A + e / SLICE] = aNext[l];
      bSlice[(e / BLOCK) * BLOCK + e % BLOCK] = bNext[l];
#else
      aSlice[(e % SLICE) * PITCH_A + e / SLICE] =
          a[(rowBase + e / SLICE) * n + k0 + e % SLICE];
      bSlice[(e / BLOCK) * BLOCK + e % BLOCK] =
          b[(k0 + e / BLOCK) * n + colBase + e % BLOCK];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if PREFETCH
    if (k0 + SLICE < n)
      for (int l = 0; l < LOADS; ++l) {
        const int e = self + l * THREADS;
        aNext[l] = a[(rowBase + e / SLICE) * n + k0 + SLICE + e % SLICE];
        bNext[l] = b[(k0 + SLICE + e / BLOCK) * n + colBase + e % BLOCK];
      }
#endif
    for (int k = 0; k < SLICE; ++k) {
      float aReg[PER], bReg[PER];
      for (int i = 0; i < PER; ++i)
        aReg[i] = aSlice[k * PITCH_A + ty + i * ITEMS];
      for (int j = 0; j < PER; ++j)
        bReg[j] = bSlice[k * BLOCK + tx + j * ITEMS];
      for (int i = 0; i < PER; ++i)
        for (int j = 0; j < PER; ++j)
          acc[i][j] += aReg[i] * bReg[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < PER; ++i)
    for (int j = 0; j < PER; ++j)
      c[(rowBase + ty + i * ITEMS) * n + colBase + tx + j * ITEMS] = acc[i][j];
})";

} // namespace

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const int block = argc > 3 ? std::atoi(argv[3]) : 64;
  const int per = argc > 4 ? std::atoi(argv[4]) : 4;
  const int slice = argc > 5 ? std::atoi(argv[5]) : 16;
  const int prefetch = argc > 6 ? std::atoi(argv[6]) : 0;
  if (n <= 0 || reps <= 0 || block <= 0 || per <= 0 || block % per != 0 ||
      n % block != 0 || (block / per) * (block / per) > 1024 ||
      slice <= 0 || slice > 32 || 32 % slice != 0 || n % slice != 0 ||
      (block * slice) % ((block / per) * (block / per)) != 0) {
    std::fprintf(stderr, "usage: raw_sgemm N REPS [BLOCK PER [SLICE [PREFETCH]]]\n");
    return 1;
  }
  raw::Runtime rt;
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<float> a(nn), b(nn), c(nn);
  sgemm::fill(a, b);
  cl::Program program(rt.context, Source);
  const std::string options =
      "-DBLOCK=" + std::to_string(block) + " -DPER=" + std::to_string(per) +
      " -DSLICE=" + std::to_string(slice) +
      " -DPREFETCH=" + std::to_string(prefetch != 0);
  try {
    program.build({rt.device}, options.c_str());
  } catch (const cl::Error &) {
    std::fprintf(stderr, "%s\n",
                 program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(rt.device).c_str());
    return 1;
  }
  cl::Kernel kernel(program, "sgemm");
  cl::Buffer da(rt.context, CL_MEM_READ_ONLY, nn * 4);
  cl::Buffer db(rt.context, CL_MEM_READ_ONLY, nn * 4);
  cl::Buffer dc(rt.context, CL_MEM_WRITE_ONLY, nn * 4);
  rt.queue.enqueueWriteBuffer(da, CL_TRUE, 0, nn * 4, a.data());
  rt.queue.enqueueWriteBuffer(db, CL_TRUE, 0, nn * 4, b.data());
  kernel.setArg(0, da);
  kernel.setArg(1, db);
  kernel.setArg(2, dc);
  kernel.setArg(3, n);
  const int items = block / per;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    cl::Event e;
    rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                  cl::NDRange(n / per, n / per),
                                  cl::NDRange(items, items), nullptr, &e);
    e.wait();
    best = std::min(best, (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                           e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) /
                              1e6);
  }
  rt.queue.enqueueReadBuffer(dc, CL_TRUE, 0, nn * 4, c.data());
  std::printf("best_ms=%.4f\nweighted=%lld\n", best, sgemm::weighted(c.data(), n));
  return 0;
}
