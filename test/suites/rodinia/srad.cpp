// Rodinia srad (speckle-reducing anisotropic diffusion, version 2), OpenCL
// version, written anew in Ferry's dialect. Original:
// github.com/yuhc/gpu-rodinia, opencl/srad/main.c (image, neighbour index
// arrays), kernel/kernel_gpu_opencl_wrapper.c (the launch wrapper: uploads,
// the iteration loop with its reduction while-loop and 4-byte read backs)
// and kernel/kernel_gpu_opencl.cl (extract, prepare, reduce, srad, srad2,
// compress).
//
// Every kernel computes its element as the original does from group and
// local ids (ei = bx * NUMBER_THREADS + tx, here bx = kc.x / NUMBER_THREADS,
// tx = kc.x % NUMBER_THREADS, over the original's global size). The
// original reduce_kernel sums each block of NUMBER_THREADS partial sums in
// local memory with a barrier-separated tree; local memory and barriers
// are not implemented in Ferry yet, so here the work-item that writes the
// block's result (tx == NUMBER_THREADS - 1, or tx == df - 1 in a partial
// last block) adds the block's elements itself, in order, from global
// memory, with the same nf / df logic and the same remainder loop. Each
// block is read and written by one work-item only: race-free. The host
// keeps the while-loop over reduction levels (no, mul, blocks2_work_size)
// and reads the two totals after every iteration (the original reads 4
// bytes of each; the host reads d_sums[0] and d_sums2[0] here). The image
// (a resized PGM in the original) is generated.
//
//   srad [NR NC NITER LAMBDA]
//
// Bytes the ORIGINAL host code moves at 64 x 64 (Ne = 4096), 4 iterations:
//   clEnqueueWriteBuffer d_I 4096*4 = 16384, d_iN, d_iS 64*4 = 256 each,
//   d_jE, d_jW 256 each: in 5 (17408 B)
//   per iteration clEnqueueReadBuffer d_sums, d_sums2 4 B each: 8 x 4 = 32
//   clEnqueueReadBuffer d_I 16384: out 9 (16416 B).
// Whole-buffer optimum for this port: the five host-written inputs: in 5
// (17408 B). d_sums, d_sums2 are written whole by prepare (ei < Ne, and ei
// is each work-item's global id) and d_dN, d_dS, d_dW, d_dE, d_c whole by
// srad before anything reads them: no copy. Per iteration the host reads
// d_sums[0] and d_sums2[0]: out 2 x 16384 B; at the end d_I: out 16384.
//   in 5 (17408 B), out 9 (147456 B). Dispatches: extract + 4 x (prepare +
//   2 reduce levels + srad + srad2) + compress = 22.
// optimum: to_device 5 to_device_bytes 17408 from_device 9 from_device_bytes 147456
// Ferry moves less than this optimum: d_sums[0] and d_sums2[0] are one
// element each, and only it comes back per iteration (8 x 4 = 32 B; the
// next prepare overwrites both whole); d_I comes back whole at the end.
//   in 5 (17408 B), out 9 (16416 B): what the original moves, in and out.
// suite-original: to_device 5 to_device_bytes 17408 from_device 9 from_device_bytes 16416
// ferry-test: args 64 64 4 1
// ferry-test: to_device 5 to_device_bytes 17408 from_device 9 from_device_bytes 16416
// ferry-test: dispatches 22
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define fp float
#define NUMBER_THREADS 256

FERRY_KERNEL void extract_kernel(ferry::KernelContext kc, long d_Ne, fp *d_I) {
  int bx = kc.x / NUMBER_THREADS;
  int tx = kc.x % NUMBER_THREADS;
  int ei = (bx * NUMBER_THREADS) + tx;
  if (ei < d_Ne) {
    d_I[ei] = std::exp(d_I[ei] / 255);
  }
}

FERRY_KERNEL void prepare_kernel(ferry::KernelContext kc, long d_Ne, fp *d_I, fp *d_sums,
                                 fp *d_sums2) {
  int bx = kc.x / NUMBER_THREADS;
  int tx = kc.x % NUMBER_THREADS;
  int ei = (bx * NUMBER_THREADS) + tx;
  if (ei < d_Ne) {
    d_sums[ei] = d_I[ei];
    d_sums2[ei] = d_I[ei] * d_I[ei];
  }
}

// One work-item per block adds up the block (the original's local-memory
// tree, done sequentially by the thread that stores the result).
FERRY_KERNEL void reduce_kernel(ferry::KernelContext kc, long d_Ne, long d_no, int d_mul,
                                fp *d_sums, fp *d_sums2, int gridDim) {
  (void)d_Ne;
  int bx = kc.x / NUMBER_THREADS;
  int tx = kc.x % NUMBER_THREADS;
  int nf = NUMBER_THREADS - (gridDim * NUMBER_THREADS - d_no);
  int df = 0;
  int i;
  if (nf == NUMBER_THREADS || bx != (gridDim - 1)) {
    // full blocks
    if (tx == (NUMBER_THREADS - 1)) {
      fp psum = 0;
      fp psum2 = 0;
      for (i = 0; i < NUMBER_THREADS; i++) {
        psum = psum + d_sums[(bx * NUMBER_THREADS + i) * d_mul];
        psum2 = psum2 + d_sums2[(bx * NUMBER_THREADS + i) * d_mul];
      }
      d_sums[bx * d_mul * NUMBER_THREADS] = psum;
      d_sums2[bx * d_mul * NUMBER_THREADS] = psum2;
    }
  } else {
    // the last, partial block
    for (i = 2; i <= NUMBER_THREADS; i = 2 * i) {
      if (nf >= i) {
        df = i;
      }
    }
    if (tx == (df - 1)) {
      fp psum = 0;
      fp psum2 = 0;
      for (i = 0; i < df; i++) {
        psum = psum + d_sums[(bx * NUMBER_THREADS + i) * d_mul];
        psum2 = psum2 + d_sums2[(bx * NUMBER_THREADS + i) * d_mul];
      }
      for (i = (bx * NUMBER_THREADS) + df; i < (bx * NUMBER_THREADS) + nf; i++) {
        psum = psum + d_sums[i];
        psum2 = psum2 + d_sums2[i];
      }
      d_sums[bx * d_mul * NUMBER_THREADS] = psum;
      d_sums2[bx * d_mul * NUMBER_THREADS] = psum2;
    }
  }
}

FERRY_KERNEL void srad_kernel(ferry::KernelContext kc, fp d_lambda, int d_Nr, int d_Nc,
                              long d_Ne, int *d_iN, int *d_iS, int *d_jE, int *d_jW, fp *d_dN,
                              fp *d_dS, fp *d_dW, fp *d_dE, fp d_q0sqr, fp *d_c, fp *d_I) {
  (void)d_lambda;
  (void)d_Nc;
  int bx = kc.x / NUMBER_THREADS;
  int tx = kc.x % NUMBER_THREADS;
  int ei = bx * NUMBER_THREADS + tx;
  int row;
  int col;
  fp d_Jc;
  fp d_dN_loc, d_dS_loc, d_dW_loc, d_dE_loc;
  fp d_c_loc;
  fp d_G2, d_L, d_num, d_den, d_qsqr;

  row = (ei + 1) % d_Nr - 1;
  col = (ei + 1) / d_Nr + 1 - 1;
  if ((ei + 1) % d_Nr == 0) {
    row = d_Nr - 1;
    col = col - 1;
  }

  if (ei < d_Ne) {
    d_Jc = d_I[ei];
    d_dN_loc = d_I[d_iN[row] + d_Nr * col] - d_Jc;
    d_dS_loc = d_I[d_iS[row] + d_Nr * col] - d_Jc;
    d_dW_loc = d_I[row + d_Nr * d_jW[col]] - d_Jc;
    d_dE_loc = d_I[row + d_Nr * d_jE[col]] - d_Jc;
    d_G2 = (d_dN_loc * d_dN_loc + d_dS_loc * d_dS_loc + d_dW_loc * d_dW_loc +
            d_dE_loc * d_dE_loc) /
           (d_Jc * d_Jc);
    d_L = (d_dN_loc + d_dS_loc + d_dW_loc + d_dE_loc) / d_Jc;
    d_num = (0.5f * d_G2) - ((1.0f / 16.0f) * (d_L * d_L));
    d_den = 1 + (0.25f * d_L);
    d_qsqr = d_num / (d_den * d_den);
    d_den = (d_qsqr - d_q0sqr) / (d_q0sqr * (1 + d_q0sqr));
    d_c_loc = 1.0f / (1.0f + d_den);
    if (d_c_loc < 0) {
      d_c_loc = 0;
    } else if (d_c_loc > 1) {
      d_c_loc = 1;
    }
    d_dN[ei] = d_dN_loc;
    d_dS[ei] = d_dS_loc;
    d_dW[ei] = d_dW_loc;
    d_dE[ei] = d_dE_loc;
    d_c[ei] = d_c_loc;
  }
}

FERRY_KERNEL void srad2_kernel(ferry::KernelContext kc, fp d_lambda, int d_Nr, int d_Nc,
                               long d_Ne, int *d_iN, int *d_iS, int *d_jE, int *d_jW, fp *d_dN,
                               fp *d_dS, fp *d_dE, fp *d_dW, fp *d_c, fp *d_I) {
  (void)d_Nc;
  (void)d_iN;
  (void)d_jW;
  int bx = kc.x / NUMBER_THREADS;
  int tx = kc.x % NUMBER_THREADS;
  int ei = bx * NUMBER_THREADS + tx;
  int row;
  int col;
  fp d_cN, d_cS, d_cW, d_cE;
  fp d_D;

  row = (ei + 1) % d_Nr - 1;
  col = (ei + 1) / d_Nr + 1 - 1;
  if ((ei + 1) % d_Nr == 0) {
    row = d_Nr - 1;
    col = col - 1;
  }

  if (ei < d_Ne) {
    d_cN = d_c[ei];
    d_cS = d_c[d_iS[row] + d_Nr * col];
    d_cW = d_c[ei];
    d_cE = d_c[row + d_Nr * d_jE[col]];
    d_D = d_cN * d_dN[ei] + d_cS * d_dS[ei] + d_cW * d_dW[ei] + d_cE * d_dE[ei];
    d_I[ei] = d_I[ei] + 0.25f * d_lambda * d_D;
  }
}

FERRY_KERNEL void compress_kernel(ferry::KernelContext kc, long d_Ne, fp *d_I) {
  int bx = kc.x / NUMBER_THREADS;
  int tx = kc.x % NUMBER_THREADS;
  int ei = (bx * NUMBER_THREADS) + tx;
  if (ei < d_Ne) {
    d_I[ei] = std::log(d_I[ei]) * 255;
  }
}

FERRY_COMPUTE void kernel_gpu_opencl_wrapper(ferry::ComputeContext &cc, fp *image, int Nr,
                                             int Nc, long Ne, int niter, fp lambda,
                                             long NeROI, int *iN, int *iS, int *jE, int *jW,
                                             int iter, int mem_size_i, int mem_size_j) {
  int blocks_x;
  ferry::Buffer<fp> d_I(Ne);
  ferry::Buffer<int> d_iN(mem_size_i / sizeof(int));
  ferry::Buffer<int> d_iS(mem_size_i / sizeof(int));
  ferry::Buffer<int> d_jE(mem_size_j / sizeof(int));
  ferry::Buffer<int> d_jW(mem_size_j / sizeof(int));
  ferry::Buffer<fp> d_dN(Ne), d_dS(Ne), d_dW(Ne), d_dE(Ne);
  ferry::Buffer<fp> d_c(Ne);
  ferry::Buffer<fp> d_sums(Ne), d_sums2(Ne);

  std::copy(image, image + Ne, d_I.begin());
  std::copy(iN, iN + Nr, d_iN.begin());
  std::copy(iS, iS + Nr, d_iS.begin());
  std::copy(jE, jE + Nc, d_jE.begin());
  std::copy(jW, jW + Nc, d_jW.begin());

  int local_work_size = NUMBER_THREADS;
  int blocks_work_size;
  int global_work_size;
  blocks_x = Ne / local_work_size;
  if (Ne % local_work_size != 0) {
    blocks_x = blocks_x + 1;
  }
  blocks_work_size = blocks_x;
  global_work_size = blocks_work_size * local_work_size;

  cc.dispatch(extract_kernel, ferry::Range(global_work_size), Ne, d_I);

  int blocks2_work_size;
  int global_work_size2;
  long no;
  int mul;
  fp total;
  fp total2;
  fp meanROI;
  fp meanROI2;
  fp varROI;
  fp q0sqr;

  for (iter = 0; iter < niter; iter++) {
    cc.dispatch(prepare_kernel, ferry::Range(global_work_size), Ne, d_I, d_sums, d_sums2);

    blocks2_work_size = blocks_work_size;
    global_work_size2 = global_work_size;
    no = Ne;
    mul = 1;
    while (blocks2_work_size != 0) {
      cc.dispatch(reduce_kernel, ferry::Range(global_work_size2), Ne, no, mul, d_sums, d_sums2,
                  blocks2_work_size);
      no = blocks2_work_size;
      if (blocks2_work_size == 1) {
        blocks2_work_size = 0;
      } else {
        mul = mul * NUMBER_THREADS;
        blocks_x = blocks2_work_size / local_work_size;
        if (blocks2_work_size % local_work_size != 0) {
          blocks_x = blocks_x + 1;
        }
        blocks2_work_size = blocks_x;
        global_work_size2 = blocks2_work_size * local_work_size;
      }
    }

    total = d_sums[0];
    total2 = d_sums2[0];

    meanROI = total / (fp)(NeROI);
    meanROI2 = meanROI * meanROI;
    varROI = (total2 / (fp)(NeROI)) - meanROI2;
    q0sqr = varROI / meanROI2;

    cc.dispatch(srad_kernel, ferry::Range(global_work_size), lambda, Nr, Nc, Ne, d_iN, d_iS,
                d_jE, d_jW, d_dN, d_dS, d_dW, d_dE, q0sqr, d_c, d_I);
    cc.dispatch(srad2_kernel, ferry::Range(global_work_size), lambda, Nr, Nc, Ne, d_iN, d_iS,
                d_jE, d_jW, d_dN, d_dS, d_dE, d_dW, d_c, d_I);
  }

  cc.dispatch(compress_kernel, ferry::Range(global_work_size), Ne, d_I);

  std::copy(d_I.begin(), d_I.end(), image);
}

int main(int argc, char **argv) {
  const int Nr = argc > 1 ? std::atoi(argv[1]) : 64;
  const int Nc = argc > 2 ? std::atoi(argv[2]) : 64;
  const int niter = argc > 3 ? std::atoi(argv[3]) : 4;
  const fp lambda = argc > 4 ? static_cast<fp>(std::atoi(argv[4])) : 1;
  const long Ne = static_cast<long>(Nr) * Nc;
  // The original reads and resizes a PGM image; here a smooth pattern with
  // a little speckle, values in [32, 223].
  std::vector<fp> image(Ne);
  for (long e = 0; e < Ne; e++) {
    const int r = static_cast<int>(e % Nr), c = static_cast<int>(e / Nr);
    image[e] = static_cast<fp>(32 + (r * 3 + c * 2) % 160 + (e * 7) % 32);
  }
  int r1 = 0, r2 = Nr - 1, c1 = 0, c2 = Nc - 1;
  long NeROI = (r2 - r1 + 1) * (c2 - c1 + 1);
  int mem_size_i = sizeof(int) * Nr;
  int mem_size_j = sizeof(int) * Nc;
  std::vector<int> iN(Nr), iS(Nr), jW(Nc), jE(Nc);
  for (int i = 0; i < Nr; i++) {
    iN[i] = i - 1;
    iS[i] = i + 1;
  }
  for (int j = 0; j < Nc; j++) {
    jW[j] = j - 1;
    jE[j] = j + 1;
  }
  iN[0] = 0;
  iS[Nr - 1] = Nr - 1;
  jW[0] = 0;
  jE[Nc - 1] = Nc - 1;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    kernel_gpu_opencl_wrapper(cc, image.data(), Nr, Nc, Ne, niter, lambda, NeROI, iN.data(),
                              iS.data(), jE.data(), jW.data(), 0, mem_size_i, mem_size_j);
  });
  std::printf("srad %d x %d, %d iterations\n", Nr, Nc, niter);
  printApprox("image", image.data(), image.size());
}
