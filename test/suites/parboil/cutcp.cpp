// Parboil cutcp (cutoff Coulombic potential on a lattice), OpenCL base
// version, written anew in Ferry's dialect. Original: github.com/abduld/
// Parboil, benchmarks/cutcp/src/opencl_base/cutoff.c (host:
// gpu_compute_cutoff_potential_lattice), kernel.cl
// (opencl_cutoff_potential_lattice) and macros.h.
//
// Atoms are hashed into bins of 4 A (at most 8 atoms a bin, float4 x, y, z,
// q), a neighbour list of bin offsets is built, and the lattice, padded to
// regions of 8^3 points, is computed one z-plane of regions per dispatch:
// a 3-D range of (4 * 8 * xRegions) x (8 * yRegions) x 2 items, each one
// lattice point of a 2-plane sub-region. The original's group and local ids
// (block 8 x 8 x 2) are the same arithmetic on the global ids. The host then
// transposes the regions into the lattice. Differences: atoms are generated
// (5 per bin of the lattice's cover, none extra, so the original's CPU pass
// over overflowing atoms has nothing to do and is left out), the cutoff is
// 4 A instead of 12 so the problem stays small, and rsqrt is 1 / sqrt.
//
//   cutcp [N]          (an N^3 lattice at 0.5 A spacing, N a multiple of 8)
//
// Bytes the ORIGINAL host code moves at N 16 (2 x 2 x 2 regions, lnall =
// 16^3 = 4096 floats; bin dims 2 + 2c = 4 each with c = 1, so 64 bins of 8
// float4 slots; the neighbour list keeps all 27 offsets of the 3^3 cube):
//   clEnqueueWriteBuffer binBaseCl   64*8*16 = 8192
//   clEnqueueWriteBuffer NbrListLen        4 =    4
//   clEnqueueWriteBuffer NbrList      27*16  =  432
//   clEnqueueReadBuffer  regionZeroCl 4096*4 = 16384
//   in 3 (8628 B), out 1 (16384 B).
// Whole-buffer optimum: the bins, the list's length and the list are host-
// written and read by every dispatch: in (3, 8628 B). The region buffer is
// written by the 2 dispatches together, every element once, before the
// host reads it: no copy in; the transposition reads it: out (1, 16384 B).
//   in 3 (8628 B), out 1 (16384 B), 2 dispatches: equal to the original.
// Each dispatch writes only its plane of regions, which Ferry cannot prove
// covers the buffer over the loop; the original creates it
// CL_MEM_WRITE_ONLY, and the port says the same with FERRY_WO (the user's
// promise: no copy in).
// suite-original: to_device 3 to_device_bytes 8628 from_device 1 from_device_bytes 16384
// ferry-test: args 16
// Fills: 1 of the copies in above (4 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 3 to_device_bytes 8628 from_device 1 from_device_bytes 16384
// ferry-test: fills 1 fill_bytes 4
// ferry-test: dispatches 2
#include "Print.h"

#include <cmath>
#include <cstdlib>
#include <vector>

constexpr int BIN_DEPTH = 8;         // max number of atoms per bin
constexpr float BIN_LENGTH = 4.0f;   // spatial length in Angstroms
constexpr float BIN_INVLEN = 1.0f / BIN_LENGTH;
constexpr int REGION_SIZE = 512;     // floats in a lattice region
constexpr int SUB_REGION_SIZE = 128; // floats in a lattice sub-region
constexpr int NBRLIST_DIM = 11;

struct Float4 { // cl_float4
  float x, y, z, w;
};
struct Xyz { // the original's int4 (only x, y, z used)
  int x, y, z, w;
};
struct Atom {
  float x, y, z, q;
};

FERRY_KERNEL void opencl_cutoff_potential_lattice(
    ferry::KernelContext kc, int binDim_x, int binDim_y, const Float4 *binBaseAddr,
    int offset, float h, float cutoff2, float inv_cutoff2, FERRY_WO float *regionZeroAddr,
    int zRegionIndex, const int *NbrListLen, const Xyz *NbrList) {
  // The original's block is 8 x 8 x 2; its group and local ids:
  const int groupX = kc.x / 8, localX = kc.x % 8;
  const int groupY = kc.y / 8, localY = kc.y % 8;
  const int localZ = kc.z;
  const int numGroupsX = kc.maxX / 8, numGroupsY = kc.maxY / 8;
  const Float4 *binZeroAddr = binBaseAddr + offset;
  const int tid = (localZ * 8 + localY) * 8 + localX;
  // the start of the sub-region indexed by tid
  float *myRegionAddr =
      regionZeroAddr +
      ((zRegionIndex * numGroupsY + groupY) * (numGroupsX >> 2) + (groupX >> 2)) *
          REGION_SIZE +
      (groupX & 3) * SUB_REGION_SIZE;
  // spatial coordinate of this lattice point
  const float x = (8 * (groupX >> 2) + localX) * h;
  const float y = (8 * groupY + localY) * h;
  const float z = (8 * zRegionIndex + 2 * (groupX & 3) + localZ) * h;
  // bin number determined by the centre of the region
  const int Bx = static_cast<int>(std::floor((8 * (groupX >> 2) + 4) * h * BIN_INVLEN));
  const int By = static_cast<int>(std::floor((8 * groupY + 4) * h * BIN_INVLEN));
  const int Bz = static_cast<int>(std::floor((8 * zRegionIndex + 4) * h * BIN_INVLEN));
  float energy = 0.f;
  for (int bincnt = 0; bincnt < *NbrListLen; bincnt++) {
    const int i = Bx + NbrList[bincnt].x;
    const int j = By + NbrList[bincnt].y;
    const int k = Bz + NbrList[bincnt].z;
    const Float4 *p_global = binZeroAddr + (((k * binDim_y + j) * binDim_x + i) * BIN_DEPTH);
    for (int m = 0; m < BIN_DEPTH; m++) {
      const float aq = p_global[m].w;
      if (0.f != aq) {
        const float dx = p_global[m].x - x;
        const float dy = p_global[m].y - y;
        const float dz = p_global[m].z - z;
        const float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < cutoff2) {
          const float s = (1.f - r2 * inv_cutoff2);
          energy += aq * (1.0f / std::sqrt(r2)) * s * s;
        }
      }
    }
  }
  myRegionAddr[tid] = energy;
}

// The original's gpu_compute_cutoff_potential_lattice, for an nx^3 lattice
// whose low corner is the origin.
FERRY_COMPUTE void cutoffPotential(ferry::ComputeContext &cc, std::vector<float> &lattice,
                                   int nx, float h, float cutoff,
                                   const std::vector<Atom> &atoms) {
  const int ny = nx, nz = nx;
  const float cutoff2 = cutoff * cutoff;
  const float inv_cutoff2 = 1.f / cutoff2;
  // pad the lattice to a multiple of 8 in each dimension
  const int xRegionDim = (nx + 7) / 8, yRegionDim = (ny + 7) / 8, zRegionDim = (nz + 7) / 8;
  const int lnx = 8 * xRegionDim, lny = 8 * yRegionDim, lnz = 8 * zRegionDim;
  ferry::Buffer<float> regionZero(lnx * lny * lnz);
  // bins, with c extra around the lattice
  const int c = static_cast<int>(std::ceil(cutoff * BIN_INVLEN));
  Xyz binDim{static_cast<int>(std::ceil(lnx * h * BIN_INVLEN)) + 2 * c,
             static_cast<int>(std::ceil(lny * h * BIN_INVLEN)) + 2 * c,
             static_cast<int>(std::ceil(lnz * h * BIN_INVLEN)) + 2 * c, 0};
  const int nbins = binDim.x * binDim.y * binDim.z;
  ferry::Buffer<Float4> binBase(nbins * BIN_DEPTH);
  std::vector<int> bincnt(nbins);
  const int zeroBin = (c * binDim.y + c) * binDim.x + c;
  // neighbour list around one bin (the lattice spacing divides BIN_LENGTH/8)
  std::vector<Xyz> nbrlist;
  const float s = std::sqrt(3.0f);
  const float r2 = (cutoff + s * BIN_LENGTH) * (cutoff + s * BIN_LENGTH);
  if (2 * c + 1 > NBRLIST_DIM)
    return;
  for (int k = -c; k <= c; k++)
    for (int j = -c; j <= c; j++)
      for (int i = -c; i <= c; i++)
        if ((i * i + j * j + k * k) * BIN_LENGTH * BIN_LENGTH < r2)
          nbrlist.push_back({i, j, k, 0});
  ferry::Buffer<int> nbrListLen(1, static_cast<int>(nbrlist.size()));
  ferry::Buffer<Xyz> nbrList(nbrlist.size());
  for (std::size_t n = 0; n < nbrlist.size(); ++n)
    nbrList[n] = nbrlist[n];
  // geometric hashing of atoms into bins
  for (const Atom &a : atoms) {
    const int i = static_cast<int>(std::floor(a.x * BIN_INVLEN));
    const int j = static_cast<int>(std::floor(a.y * BIN_INVLEN));
    const int k = static_cast<int>(std::floor(a.z * BIN_INVLEN));
    if (i >= -c && i < binDim.x - c && j >= -c && j < binDim.y - c && k >= -c &&
        k < binDim.z - c && a.q != 0) {
      const int index = zeroBin + (k * binDim.y + j) * binDim.x + i;
      if (bincnt[index] < BIN_DEPTH)
        binBase[index * BIN_DEPTH + bincnt[index]++] = {a.x, a.y, a.z, a.q};
    }
  }
  // one dispatch per x-y plane of regions
  for (int zRegionIndex = 0; zRegionIndex < zRegionDim; zRegionIndex++)
    cc.dispatch(opencl_cutoff_potential_lattice,
                ferry::Range(4 * xRegionDim * 8, yRegionDim * 8, 2), binDim.x,
                binDim.y, binBase, zeroBin * BIN_DEPTH, h, cutoff2, inv_cutoff2,
                regionZero, zRegionIndex, nbrListLen, nbrList);
  // transpose the regions back into the lattice
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        const int region = ((k >> 3) * yRegionDim + (j >> 3)) * xRegionDim + (i >> 3);
        const int indexRegion = ((k & 7) * 8 + (j & 7)) * 8 + (i & 7);
        lattice[(k * ny + j) * nx + i] = regionZero[region * REGION_SIZE + indexRegion];
      }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const float h = 0.5f, cutoff = 4.0f;
  // 5 atoms in each 4 A bin of the lattice's extent, off the lattice points
  std::vector<Atom> atoms;
  const int bins = static_cast<int>(n * h / BIN_LENGTH);
  for (int b = 0; b < bins * bins * bins; ++b)
    for (int a = 0; a < 5; ++a) {
      const int t = b * 5 + a;
      atoms.push_back({(b % bins) * BIN_LENGTH + ((t * 7) % 39) * 0.1f + 0.05f,
                       (b / bins % bins) * BIN_LENGTH + ((t * 11) % 39) * 0.1f + 0.05f,
                       (b / bins / bins) * BIN_LENGTH + ((t * 13) % 39) * 0.1f + 0.05f,
                       static_cast<float>((t * 3) % 5 - 2) * 0.5f});
    }
  std::vector<float> lattice(n * n * n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { cutoffPotential(cc, lattice, n, h, cutoff, atoms); });
  std::printf("cutcp: %d^3 lattice, %zu atoms\n", n, atoms.size());
  printApprox("lattice", lattice.data(), lattice.size());
}
