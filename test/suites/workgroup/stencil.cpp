// Parboil stencil (7-point Jacobi stencil on a 3-D grid), OpenCL NVIDIA
// and base versions, written anew in Ferry's dialect. Originals:
// github.com/yuhc/gpu-parboil, benchmarks/stencil/src/opencl_nvidia/
// kernel.cl (block2D_hybrid_coarsen_x) and main.c, and
// src/opencl_base/kernel.cl (naive_kernel) and main.c; common.h (Index3D).
//
// block2D_hybrid_coarsen_x is the NVIDIA version's: a 3-D dispatch of
// (tx, ty, 1) = (32, 4, 1) groups, each work-item computing two points a
// group's width apart in x, marching up z with the current plane in the
// local array `sh_A0` (the original's `__local float *` argument of
// tx * 2 * ty floats, set with clSetKernelArg(..., sh_size, NULL), here a
// ferry::LocalSpan<float> bound by ferry::localSpan<float>(tx * 2 * ty)),
// neighbours inside the tile from local memory and at the tile's edges
// from global memory, and barriers around the plane swap. The host is
// main.c's: A0 read (here generated), Anext a copy, both uploaded,
// `iteration` dispatches with the buffers swapped after each (here by
// std::swap on pointers), one more swap, Anext read back.
//
// Not in one original: the same grid is also run through the base
// version's naive_kernel (one point per work-item, a 3-D range of
// interior points), so the two versions check each other. The base
// version's groups are (256, 1, 1); here they are (16, 2, 2), with the
// range rounded up in every dimension and the kernel guarding j and k as
// well as i, so that the groups are three-dimensional and their z ids
// (kc.groupZ, kc.localSizeZ, kc.localZ) carry the point's k. Also not in
// Parboil: groupSums, a tree reduction over each (16, 2, 2) group of the
// result into one partial sum per group, indexed by the group's ids and
// counts in all three dimensions.
//
// c0 and c1 are 1/2 and 1/8 rather than 1/6 and 1/36, and the grid holds
// small integers: every value stays a multiple of 2^-3t below 2^4, so
// every sum is exact in float, whatever the order or contraction.
//
//   stencil [NX NY NZ ITERATIONS]
//
// Bytes the ORIGINAL host code moves at 64 x 16 x 10 floats (40960 B):
//   clEnqueueWriteBuffer d_A0 40960, d_Anext 40960; clEnqueueReadBuffer
//   d_Anext 40960 (per version)
//   in 2 (81920 B), out 1 (40960 B) for one version; this port runs both
//   (the NVIDIA and the base version), so it is measured against the two
//   originals: in 4 (163840 B), out 2 (81920 B).
// Whole-buffer optimum for this port: both pairs (A0/Anext for the NVIDIA
// kernel, B0/Bnext for the naive one) are host-written, and the kernels
// write only interior points of the buffer they write, so the boundary
// comes from the host: in 4 (163840 B). The host reads each version's
// result: out 2 (81920 B). groupSums reads the NVIDIA result already on the
// device and writes all (64/16) * (14/2) * (8/2) = 112 partial sums, which
// the host reads: out 1 (448 B). Local memory is never transferred.
//   in 4 (163840 B), out 3 (82368 B), 4 + 4 + 1 = 9 dispatches.
// suite-original: to_device 4 to_device_bytes 163840 from_device 2 from_device_bytes 81920
// ferry-test: args 64 16 10 4
// optimum: to_device 4 to_device_bytes 163840 from_device 3 from_device_bytes 82368
// Ferry: the partial sums are stored by work-item 0 of each group at an
// index made of the group ids, which Ferry does not prove covers them;
// never host-written, they are filled (zero) rather than copied: fills 1,
// no bytes on the bus. (to_device counts the fills with the copies.)
// ferry-test: to_device 5 to_device_bytes 164288 from_device 3 from_device_bytes 82368
// ferry-test: fills 1 fill_bytes 448
// ferry-test: dispatches 9
#include "Print.h"

#include <cstdlib>
#include <utility>
#include <vector>

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

#define SUM_TX 16
#define SUM_TY 2
#define SUM_TZ 2

FERRY_KERNEL void block2D_hybrid_coarsen_x(ferry::KernelContext kc, float c0, float c1,
                                           const float *A0, float *Anext, int nx, int ny, int nz,
                                           ferry::LocalSpan<float> sh_A0) {
  // Two points per work-item along x.
  const int i = kc.groupX * kc.localSizeX * 2 + kc.localX;
  const int i2 = kc.groupX * kc.localSizeX * 2 + kc.localX + kc.localSizeX;
  const int j = kc.groupY * kc.localSizeY + kc.localY;
  const int sh_id = kc.localX + kc.localY * kc.localSizeX * 2;
  const int sh_id2 = kc.localX + kc.localSizeX + kc.localY * kc.localSizeX * 2;

  sh_A0[sh_id] = 0.0f;
  sh_A0[sh_id2] = 0.0f;
  kc.barrier();

  const bool w_region = i > 0 && j > 0 && (i < nx - 1) && (j < ny - 1);
  const bool w_region2 = j > 0 && (i2 < nx - 1) && (j < ny - 1);
  const bool x_l_bound = (kc.localX == 0);
  const bool x_h_bound = ((kc.localX + kc.localSizeX) == (kc.localSizeX * 2 - 1));
  const bool y_l_bound = (kc.localY == 0);
  const bool y_h_bound = (kc.localY == (kc.localSizeY - 1));

  float bottom = 0.0f, bottom2 = 0.0f, top = 0.0f, top2 = 0.0f;

  if ((i < nx) && (j < ny)) {
    bottom = A0[Index3D(nx, ny, i, j, 0)];
    sh_A0[sh_id] = A0[Index3D(nx, ny, i, j, 1)];
  }
  if ((i2 < nx) && (j < ny)) {
    bottom2 = A0[Index3D(nx, ny, i2, j, 0)];
    sh_A0[sh_id2] = A0[Index3D(nx, ny, i2, j, 1)];
  }
  kc.barrier();

  for (int k = 1; k < nz - 1; k++) {
    float a_left_right, a_up, a_down;

    if ((i < nx) && (j < ny))
      top = A0[Index3D(nx, ny, i, j, k + 1)];
    if (w_region) {
      a_up = y_h_bound ? A0[Index3D(nx, ny, i, j + 1, k)] : sh_A0[sh_id + 2 * kc.localSizeX];
      a_down = y_l_bound ? A0[Index3D(nx, ny, i, j - 1, k)] : sh_A0[sh_id - 2 * kc.localSizeX];
      a_left_right = x_l_bound ? A0[Index3D(nx, ny, i - 1, j, k)] : sh_A0[sh_id - 1];
      Anext[Index3D(nx, ny, i, j, k)] =
          (top + bottom + a_up + a_down + sh_A0[sh_id + 1] + a_left_right) * c1 -
          sh_A0[sh_id] * c0;
    }

    if ((i2 < nx) && (j < ny))
      top2 = A0[Index3D(nx, ny, i2, j, k + 1)];
    if (w_region2) {
      a_up = y_h_bound ? A0[Index3D(nx, ny, i2, j + 1, k)] : sh_A0[sh_id2 + 2 * kc.localSizeX];
      a_down = y_l_bound ? A0[Index3D(nx, ny, i2, j - 1, k)] : sh_A0[sh_id2 - 2 * kc.localSizeX];
      a_left_right = x_h_bound ? A0[Index3D(nx, ny, i2 + 1, j, k)] : sh_A0[sh_id2 + 1];
      Anext[Index3D(nx, ny, i2, j, k)] =
          (top2 + bottom2 + a_up + a_down + a_left_right + sh_A0[sh_id2 - 1]) * c1 -
          sh_A0[sh_id2] * c0;
    }

    // The next plane moves into local memory.
    kc.barrier();
    bottom = sh_A0[sh_id];
    sh_A0[sh_id] = top;
    bottom2 = sh_A0[sh_id2];
    sh_A0[sh_id2] = top2;
    kc.barrier();
  }
}

FERRY_KERNEL void naive_kernel(ferry::KernelContext kc, float c0, float c1, const float *A0,
                               float *Anext, int nx, int ny, int nz) {
  // get_global_id(d) + 1, spelled through the work-group ids.
  int i = kc.groupX * kc.localSizeX + kc.localX + 1;
  int j = kc.groupY * kc.localSizeY + kc.localY + 1;
  int k = kc.groupZ * kc.localSizeZ + kc.localZ + 1;
  if (i < nx - 1 && j < ny - 1 && k < nz - 1) {
    Anext[Index3D(nx, ny, i, j, k)] =
        c1 * (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
              A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
              A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) -
        A0[Index3D(nx, ny, i, j, k)] * c0;
  }
}

FERRY_KERNEL void groupSums(ferry::KernelContext kc, const float *A, float *partial, int nx,
                            int ny, int nz) {
  ferry::Local<float, SUM_TX * SUM_TY * SUM_TZ> sums;
  const int i = kc.x + 1, j = kc.y + 1, k = kc.z + 1;
  const int lid = (kc.localZ * kc.localSizeY + kc.localY) * kc.localSizeX + kc.localX;
  sums[lid] = (i < nx - 1 && j < ny - 1 && k < nz - 1) ? A[Index3D(nx, ny, i, j, k)] : 0.0f;
  kc.barrier();
  for (int step = kc.localSizeX * kc.localSizeY * kc.localSizeZ / 2; step > 0; step /= 2) {
    if (lid < step)
      sums[lid] += sums[lid + step];
    kc.barrier();
  }
  if (lid == 0)
    partial[(kc.groupZ * kc.groupsY + kc.groupY) * kc.groupsX + kc.groupX] = sums[0];
}

static int roundUp(int n, int to) { return (n + to - 1) / to * to; }

FERRY_COMPUTE void runStencil(ferry::ComputeContext &cc, const std::vector<float> &h_A0,
                              std::vector<float> &h_Anext, std::vector<float> &h_Bnext,
                              std::vector<float> &h_partial, int nx, int ny, int nz,
                              int iteration) {
  const float c0 = 1.0f / 2.0f;
  const float c1 = 1.0f / 8.0f;
  const std::size_t size = h_A0.size();

  // The NVIDIA version.
  ferry::Buffer<float> a0(size), anext(size);
  std::copy(h_A0.begin(), h_A0.end(), a0.begin());
  std::copy(h_A0.begin(), h_A0.end(), anext.begin()); // memcpy(h_Anext, h_A0)
  ferry::Buffer<float> *d_A0 = &a0, *d_Anext = &anext;
  {
    int tx = 32;
    int ty = 4;
    ferry::Range grid =
        ferry::Range((nx + tx * 2 - 1) / (tx * 2) * tx, (ny + ty - 1) / ty * ty, 1).local(tx, ty, 1);
    int sh_size = tx * 2 * ty;
    for (int t = 0; t < iteration; t++) {
      cc.dispatch(block2D_hybrid_coarsen_x, grid, c0, c1, *d_A0, *d_Anext, nx, ny, nz,
                  ferry::localSpan<float>(sh_size));
      std::swap(d_A0, d_Anext);
    }
    std::swap(d_A0, d_Anext);
    std::copy(d_Anext->begin(), d_Anext->end(), h_Anext.begin());
  }

  // The base version, from the same grid.
  ferry::Buffer<float> b0(size), bnext(size);
  std::copy(h_A0.begin(), h_A0.end(), b0.begin());
  std::copy(h_A0.begin(), h_A0.end(), bnext.begin());
  ferry::Buffer<float> *d_B0 = &b0, *d_Bnext = &bnext;
  {
    ferry::Range grid = ferry::Range(roundUp(nx - 2, SUM_TX), roundUp(ny - 2, SUM_TY),
                                     roundUp(nz - 2, SUM_TZ))
                            .local(SUM_TX, SUM_TY, SUM_TZ);
    for (int t = 0; t < iteration; t++) {
      cc.dispatch(naive_kernel, grid, c0, c1, *d_B0, *d_Bnext, nx, ny, nz);
      std::swap(d_B0, d_Bnext);
    }
    std::swap(d_B0, d_Bnext);
    std::copy(d_Bnext->begin(), d_Bnext->end(), h_Bnext.begin());

    ferry::Buffer<float> partial(h_partial.size());
    cc.dispatch(groupSums, grid, *d_Anext, partial, nx, ny, nz);
    std::copy(partial.begin(), partial.end(), h_partial.begin());
  }
}

int main(int argc, char **argv) {
  const int nx = argc > 1 ? std::atoi(argv[1]) : 64;
  const int ny = argc > 2 ? std::atoi(argv[2]) : 16;
  const int nz = argc > 3 ? std::atoi(argv[3]) : 10;
  const int iteration = argc > 4 ? std::atoi(argv[4]) : 4;
  if (nx < 3 || ny < 3 || nz < 3 || iteration < 1) {
    std::printf("the grid needs an interior and at least one iteration\n");
    return 1;
  }
  const int size = nx * ny * nz;
  std::vector<float> h_A0(size), h_Anext(size), h_Bnext(size);
  unsigned seed = 77;
  for (float &v : h_A0) {
    seed = seed * 1103515245u + 12345u;
    v = static_cast<float>((seed >> 16) % 8);
  }
  const int groups = (roundUp(nx - 2, SUM_TX) / SUM_TX) * (roundUp(ny - 2, SUM_TY) / SUM_TY) *
                     (roundUp(nz - 2, SUM_TZ) / SUM_TZ);
  std::vector<float> h_partial(groups);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    runStencil(cc, h_A0, h_Anext, h_Bnext, h_partial, nx, ny, nz, iteration);
  });

  // Every value is a multiple of 2^-(3 * iteration): print them scaled.
  const double scale = static_cast<double>(1 << (3 * iteration));
  long long check = 0;
  for (int n = 0; n < size; n++)
    check = (check * 31 + static_cast<long long>(h_Anext[n] * scale)) % 1000000007;
  double total = 0.0, interior = 0.0;
  for (float p : h_partial)
    total += p;
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        interior += h_Anext[Index3D(nx, ny, i, j, k)];
  std::printf("stencil %d x %d x %d, %d iterations\n", nx, ny, nz, iteration);
  std::printf("Anext x 2^%d: check=%lld\n", 3 * iteration, check);
  std::printf("the base version agrees: %s\n", h_Anext == h_Bnext ? "yes" : "no");
  std::printf("%d group sums: %.0f %.0f ... total x 2^%d = %.0f, matches the host: %s\n", groups,
              h_partial[0] * scale, h_partial[1] * scale, 3 * iteration, total * scale,
              total == interior ? "yes" : "no");
}
