// Parboil fft (batched radix-2 FFT), OpenCL base version, written anew in
// Ferry's dialect. Original: github.com/abduld/Parboil,
// benchmarks/fft/src/opencl_base/fft.cpp (host) and fft_kernel.cl
// (GPU_FFT_Global, R = 2).
//
// B transforms of N complex values (interleaved re, im floats). Each of the
// log2(N) passes reads one buffer and writes the other; the two buffers are
// reached through an array of two pointers that swap after every pass (the
// original swaps two cl_mem pointers, data0 and data1), and the result is
// whichever data[0] names at the end. The original's work-group (N/2 items,
// one group per transform) is the same arithmetic on the global id:
// bx = id / (N/2), tx = id % (N/2). Both device buffers are local to the
// compute function here (the original's d_source and d_work); the input
// arrives in a caller's buffer and the result is copied into another one.
// Every pass writes all of its output (each of the N/2 items stores two
// complex values, at distinct places), which Ferry cannot see through the
// index arithmetic, so data1 carries FERRY_WO.
//
//   fft [N B]        (N a power of two)
//
// Bytes the ORIGINAL host code moves at N 128, B 16 (2*128*16 floats =
// 16384 B a buffer):
//   clCreateBuffer(CL_MEM_COPY_HOST_PTR) d_source  16384  (the input)
//   clCreateBuffer(CL_MEM_COPY_HOST_PTR) d_work    16384  (zeros)
//   clEnqueueReadBuffer *data0                      16384  (the result)
//   in 2 (32768 B), out 1 (16384 B).
// Whole-buffer optimum: the host writes the input into the first buffer,
// which pass 1 reads: in (1). The second buffer is fully written by pass 1
// before anything reads it: nothing. Passes 2-7 find both valid on the
// device. The host copies the result (in the second buffer after 7 passes)
// out of the device: out (1); the input buffer dies with the function.
//   in 1 (16384 B), out 1 (16384 B), 7 dispatches.
// FAILS TODAY (see /work/findings/suites.md, entry 3): the range has N/2
// items per transform, fewer than the buffer's elements, so the runtime
// copies the FERRY_WO buffer in before pass 1 (in 2, 32768 B).
// suite-original: to_device 2 to_device_bytes 32768 from_device 1 from_device_bytes 16384
// ferry-test: args 128 16
// ferry-test: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 7
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

constexpr int R = 2; // the radix; the original allows 2, 4, 8, 16 and uses 2
constexpr float kPi = 3.14159265358979f;

FERRY_KERNEL void GPU_FFT_Global(ferry::KernelContext kc, int Ns, const float *data0,
                                 FERRY_WO float *data1, int N) {
  const int bx = kc.x / (N / R); // the original's group id
  const int tx = kc.x % (N / R); // and local id
  const float *in = data0 + 2 * bx * N;
  float *out = data1 + 2 * bx * N;
  float v_x[R];
  float v_y[R];
  const int idxS = tx;
  const float angle = -2.0f * kPi * (tx % Ns) / (Ns * R);
  for (int r = 0; r < R; r++) {
    v_x[r] = in[2 * (idxS + r * N / R)];
    v_y[r] = in[2 * (idxS + r * N / R) + 1];
    const float a_x = v_x[r];
    const float a_y = v_y[r];
    const float b_x = std::cos(r * angle);
    const float b_y = std::sin(r * angle);
    v_x[r] = a_x * b_x - a_y * b_y;
    v_y[r] = a_x * b_y + a_y * b_x;
  }
  // The radix-2 butterfly.
  const float v0_x = v_x[0], v0_y = v_y[0];
  const float v3_x = v_x[1], v3_y = v_y[1];
  v_x[0] = v0_x + v3_x;
  v_y[0] = v0_y + v3_y;
  v_x[1] = v0_x - v3_x;
  v_y[1] = v0_y - v3_y;
  const int idxD = (tx / Ns) * Ns * R + (tx % Ns);
  for (int r = 0; r < R; r++) {
    out[2 * (idxD + r * Ns)] = v_x[r];
    out[2 * (idxD + r * Ns) + 1] = v_y[r];
  }
}

FERRY_COMPUTE void fft(ferry::ComputeContext &cc, const ferry::Buffer<float> &source,
                       ferry::Buffer<float> &result, int N, int B) {
  ferry::Buffer<float> d_source(source.size()), d_work(source.size());
  std::copy(source.begin(), source.end(), d_source.begin());
  ferry::Buffer<float> *data[2] = {&d_source, &d_work};
  for (int Ns = 1; Ns < N; Ns *= R) {
    cc.dispatch(GPU_FFT_Global, ferry::Range(B * N / R), Ns, *data[0], *data[1], N);
    std::swap(data[0], data[1]);
  }
  std::copy(data[0]->begin(), data[0]->end(), result.begin());
}

int main(int argc, char **argv) {
  const int N = argc > 1 ? std::atoi(argv[1]) : 128;
  const int B = argc > 2 ? std::atoi(argv[2]) : 16;
  ferry::Buffer<float> source(2 * N * B), result(2 * N * B);
  for (int i = 0; i < 2 * N * B; ++i)
    source[i] = static_cast<float>((i * 29 + 7) % 17 - 8);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { fft(cc, source, result, N, B); });
  std::printf("fft: %d transforms of %d points\n", B, N);
  printApprox("result", result);
}
