// SHOC Scan (level 1, inclusive prefix sum), OpenCL version, written anew in
// Ferry's dialect. Original: github.com/vetter/shoc,
// src/opencl/level1/scan/scan.cl (reduce, scanLocalMem, top_scan,
// bottom_scan) and Scan.cpp (RunBenchmark, runTest<T>, scanCPU<T>).
//
// The original builds its kernels once per FPTYPE; here they are templates
// dispatched as <float> and <int>. The `__local FPTYPE *lmem` arguments
// (clSetKernelArg(..., local_wsize [* 2] * sizeof(T), NULL)) are
// ferry::LocalSpan<T> parameters bound by ferry::localSpan<T>(count); the
// helper scanLocalMem receives that local memory as a plain `T *` and runs
// its Kogge-Stone scan there with barriers; bottom_scan's
// `__local FPTYPE s_seed` is a ferry::Local<T, 1>. The original reads
// FPVECTYPE (4-wide) vectors in bottom_scan; here each work-item reads the
// same four consecutive elements as scalars. Host: runTest<T> filling the
// input with i % 3, one upload, `iters` rounds of reduce (64 groups, of 64
// work-items rather than the original's 256: the reference execution
// switches between a group's work-items at every barrier, and this keeps it
// near a second), top_scan (one group) and bottom_scan, one read back, checked
// against scanCPU. All values are integers below 2^24: float sums are
// exact in any order.
//
//   scan [ELEMENTS ITERATIONS]   (ELEMENTS a multiple of 4 * 4096)
//
// Bytes the ORIGINAL host code moves for each type at 16384 elements of 4
// bytes: clEnqueueWriteBuffer d_idata 65536; clEnqueueReadBuffer d_odata
// 65536. For float and int: in 2 (131072 B), out 2 (131072 B).
// Whole-buffer optimum: the same. d_isums (64 elements) is written at every
// element by reduce before top_scan reads it; d_odata is written at every
// element by bottom_scan (the groups' regions tile the array); neither is
// read by the host before that. Dispatches: 2 iterations x 3 kernels x 2
// types = 12.
// suite-original: to_device 2 to_device_bytes 131072 from_device 2 from_device_bytes 131072
// ferry-test: args 16384 2
// optimum: to_device 2 to_device_bytes 131072 from_device 2 from_device_bytes 131072
// Ferry: d_isums (stored by work-item 0 of each group) and d_odata
// (stored in each group's region, window by window) are never
// host-written, and Ferry does not prove the kernels cover them; all four
// are filled (zero) rather than copied: fills 4 (2 x 256 + 2 x 65536 B),
// no bytes on the bus. (to_device counts the fills with the copies.)
// ferry-test: to_device 6 to_device_bytes 262656 from_device 2 from_device_bytes 131072
// ferry-test: fills 4 fill_bytes 131584
// ferry-test: dispatches 12
#include "Print.h"

#include <cstdlib>
#include <vector>

template <typename T>
FERRY_KERNEL void reduce(ferry::KernelContext kc, const T *in, T *isums, const int n,
                         ferry::LocalSpan<T> lmem) {
  // The regions match bottom_scan's, which indexes 4-element vectors.
  int region_size = ((n / 4) / kc.groupsX) * 4;
  int block_start = kc.groupX * region_size;
  int block_stop = (kc.groupX == kc.groupsX - 1) ? n : block_start + region_size;

  int tid = kc.localX;
  int i = block_start + tid;

  T sum = 0;
  while (i < block_stop) {
    sum += in[i];
    i += kc.localSizeX;
  }
  lmem[tid] = sum;
  kc.barrier();

  for (unsigned int s = kc.localSizeX / 2; s > 0; s >>= 1) {
    if (tid < static_cast<int>(s))
      lmem[tid] += lmem[tid + s];
    kc.barrier();
  }

  kc.barrier();
  if (tid == 0)
    isums[kc.groupX] = lmem[0];
}

// Kogge-Stone scan of one value per work-item through local memory of twice
// the group size; exclusive == 1 gives the exclusive scan.
template <typename T>
T scanLocalMem(ferry::KernelContext kc, T val, T *lmem, int exclusive) {
  int idx = kc.localX;
  lmem[idx] = 0;
  idx += kc.localSizeX;
  lmem[idx] = val;
  kc.barrier();

  T t;
  for (int i = 1; i < static_cast<int>(kc.localSizeX); i *= 2) {
    t = lmem[idx - i];
    kc.barrier();
    lmem[idx] += t;
    kc.barrier();
  }
  return lmem[idx - exclusive];
}

template <typename T>
FERRY_KERNEL void top_scan(ferry::KernelContext kc, T *isums, const int n,
                           ferry::LocalSpan<T> lmem) {
  const int lid = kc.localX;
  T val = lid < n ? isums[lid] : 0;
  val = scanLocalMem<T>(kc, val, &lmem[0], 1);
  if (lid < n)
    isums[lid] = val;
}

template <typename T>
FERRY_KERNEL void bottom_scan(ferry::KernelContext kc, const T *in, const T *isums, T *out,
                              const int n, ferry::LocalSpan<T> lmem) {
  ferry::Local<T, 1> s_seed;
  s_seed[0] = 0;

  int n4 = n / 4;
  int region_size = n4 / kc.groupsX;
  int block_start = kc.groupX * region_size;
  int block_stop = (kc.groupX == kc.groupsX - 1) ? n4 : block_start + region_size;

  int i = block_start + kc.localX;
  int window = block_start;

  // The seed is this group's exclusive sum from top_scan.
  T seed = isums[kc.groupX];

  while (window < block_stop) {
    T x = 0, y = 0, z = 0, w = 0;
    if (i < block_stop) {
      x = in[4 * i];
      y = in[4 * i + 1];
      z = in[4 * i + 2];
      w = in[4 * i + 3];
    }
    y += x;
    z += y;
    w += z;

    T res = scanLocalMem<T>(kc, w, lmem.data(), 1);

    x += res + seed;
    y += res + seed;
    z += res + seed;
    w += res + seed;

    if (i < block_stop) {
      out[4 * i] = x;
      out[4 * i + 1] = y;
      out[4 * i + 2] = z;
      out[4 * i + 3] = w;
    }

    // The last work-item's total seeds the next window.
    kc.barrier();
    if (kc.localX == kc.localSizeX - 1)
      s_seed[0] = w;
    kc.barrier();
    seed = s_seed[0];

    window += kc.localSizeX;
    i += kc.localSizeX;
  }
}

template <class T> bool scanCPU(const T *data, const T *dev_result, const std::size_t size) {
  bool passed = true;
  T last = 0;
  for (std::size_t i = 0; i < size; ++i) {
    T reference = data[i] + last;
    last = reference;
    if (reference != dev_result[i])
      passed = false;
  }
  std::printf("Test %s\n", passed ? "Passed" : "Failed");
  return passed;
}

template <class T> void initialize(ferry::Buffer<T> &h_idata) {
  for (std::size_t i = 0; i < h_idata.size(); i++)
    h_idata[i] = static_cast<T>(i % 3);
}

FERRY_COMPUTE void runTests(ferry::ComputeContext &cc, int size, int iters) {
  const int local_wsize = 64;
  const int global_wsize = 4096; // 64 work-groups
  const int num_work_groups = global_wsize / local_wsize;

  std::printf("Scan (float), size %d\n", size);
  ferry::Buffer<float> f_idata(size), f_odata(size), f_isums(num_work_groups);
  initialize(f_idata);
  for (int j = 0; j < iters; j++) {
    cc.dispatch(reduce<float>, ferry::Range(global_wsize).local(local_wsize), f_idata, f_isums,
                size, ferry::localSpan<float>(local_wsize));
    cc.dispatch(top_scan<float>, ferry::Range(local_wsize).local(local_wsize), f_isums,
                num_work_groups, ferry::localSpan<float>(local_wsize * 2));
    cc.dispatch(bottom_scan<float>, ferry::Range(global_wsize).local(local_wsize), f_idata,
                f_isums, f_odata, size, ferry::localSpan<float>(local_wsize * 2));
  }
  scanCPU(f_idata.data(), f_odata.data(), f_odata.size());
  printExact("scan", f_odata);

  std::printf("Scan (int), size %d\n", size);
  ferry::Buffer<int> i_idata(size), i_odata(size), i_isums(num_work_groups);
  initialize(i_idata);
  for (int j = 0; j < iters; j++) {
    cc.dispatch(reduce<int>, ferry::Range(global_wsize).local(local_wsize), i_idata, i_isums,
                size, ferry::localSpan<int>(local_wsize));
    cc.dispatch(top_scan<int>, ferry::Range(local_wsize).local(local_wsize), i_isums,
                num_work_groups, ferry::localSpan<int>(local_wsize * 2));
    cc.dispatch(bottom_scan<int>, ferry::Range(global_wsize).local(local_wsize), i_idata,
                i_isums, i_odata, size, ferry::localSpan<int>(local_wsize * 2));
  }
  scanCPU(i_idata.data(), i_odata.data(), i_odata.size());
  printExact("scan", i_odata);
}

int main(int argc, char **argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 16384;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 2;
  if (size <= 0 || size % (4 * 4096) != 0) {
    std::printf("the size must be a multiple of 16384\n");
    return 1;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { runTests(cc, size, iters); });
}
