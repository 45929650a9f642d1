// ompdart/clenergy.cpp as a target of three Ferry sources (issue 23):
// clenergy.h (constants, structs, kernels), atoms.cpp (copyatoms,
// initatoms) and this file (run, main). It must move exactly the bytes of
// the one-file form, worked out there and repeated here:
// ferry-multifile: one-file ompdart/clenergy.cpp
// OMPDart evaluation benchmark "clenergy" (VMD coulombic potential
// microbenchmark, from HeCBench clenergy-omp), written anew in Ferry's
// dialect. Original: github.com/lmarzen/ompdart,
// evaluation/src/clenergy-omp/clenergy.cpp (the authors' hand-mapped
// version; clenergy_stripped.cpp is the unannotated input).
//
// The energy grid is zeroed by a kernel, then for each slab of at most
// MAXATOMS atoms the host helper copyatoms fills atominfo (the original
// follows it with `target update to(atominfo[0:count])`) and the potential
// kernel adds the slab's contribution into the grid. In the original's
// collapse(2) kernel, work-item (y, x) adds into energy[y*vx + x + k*8] for
// k < 8, so neighbouring x overlap and race on `+=`; the nearest race-free
// version keeps the same per-(y, x) body and index arithmetic but gives one
// work-item a whole row y and runs its x loop in order (rows do not overlap
// while vx > 63). Timers (WKFUtils) are dropped; rand() atoms are replaced
// by formulas; the grid is 64 x 64 and 10000 atoms (3 slabs) instead of
// 768 x 768 and 1000000.
//
//   clenergy
//
// Bytes the ORIGINAL host code moves (float4 is 16 B, 64 x 64 floats =
// 16384 B):
//   target enter data map(alloc: atominfo, energy)   nothing
//   target update to(atominfo[0:count]), count = 4000, 4000, 2000:
//                                 64000 + 64000 + 32000 = 160000 B
//   target exit data map(from: energy)                16384 B
//   in 3 (160000 B), out 1 (16384 B).
// Optimum of this port: energy is written whole by the zeroing kernel
// (energy[kc.x]) before the potential kernel reads it: no copy in; main
// prints it: out 1 (16384 B). atominfo (MAXATOMS x 16 = 64000 B) is written
// on the host before every slab and read by the kernel; the device never
// writes it. copyatoms writes atominfo[i] for i in [0, count) and nothing
// else, so its summary bounds what it writes by its parameter `count`: at
// the call, [0, runatoms). Only those elements turn stale on the device, and
// the kernel's guarded copy moves them: 4000 + 4000 + 2000 elements, the
// original's updates. (Whole buffers would move 3 x 64000 = 192000 B.)
// 1 + 3 dispatches.
//   in 3 (160000 B), out 1 (16384 B).
// suite-original: to_device 3 to_device_bytes 160000 from_device 1 from_device_bytes 16384
// ferry-test: args
// ferry-test: to_device 3 to_device_bytes 160000 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 4
#include "clenergy.h"

// The original's target enter/exit data region.
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &energy,
                       ferry::Buffer<float4> &atominfo, float *atoms, int atomcount,
                       int3 volsize, float gridspacing, int &iterations) {
  const char *statestr = "|/-\\.";
  int state = 0;
  int volmem = volsize.x * volsize.y * volsize.z;

  cc.dispatch(zeroEnergy, ferry::Range(volmem), energy);

  int atomstart;
  for (atomstart = 0; atomstart < atomcount; atomstart += MAXATOMS) {
    iterations++;
    int runatoms;
    int atomsremaining = atomcount - atomstart;
    if (atomsremaining > MAXATOMS)
      runatoms = MAXATOMS;
    else
      runatoms = atomsremaining;

    printf("%c\r", statestr[state]);
    fflush(stdout);
    state = (state + 1) & 3;

    // copy the atoms to the GPU
    copyatoms(atoms + 4 * atomstart, runatoms, 0 * gridspacing, atominfo);

    // RUN the kernel...
    cc.dispatch(cenergy, ferry::Range(volsize.y), energy, atominfo, runatoms, volsize,
                gridspacing);
  }
  printf("Done\n");
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  float *atoms = NULL;
  int3 volsize;

  printf("GPU accelerated coulombic potential microbenchmark\n");
  printf("--------------------------------------------------------\n");
  printf("  Single-threaded single-device test run.\n");

  // number of atoms to simulate
  int atomcount = 10000;

  // setup energy grid size
  volsize.x = 64;
  volsize.y = 64;
  volsize.z = 1;

  // set voxel spacing
  float gridspacing = 0.1f;

  printf("Grid size: %d x %d x %d\n", volsize.x, volsize.y, volsize.z);
  printf("Running kernel(atoms:%d, gridspacing %g, z %d)\n", atomcount, gridspacing, 0);

  // allocate and initialize atom coordinates and charges
  if (initatoms(&atoms, atomcount, volsize, gridspacing))
    return -1;

  // allocate and initialize the GPU output array
  int volmem = volsize.x * volsize.y * volsize.z;
  ferry::Buffer<float> energy(volmem);
  ferry::Buffer<float4> atominfo(MAXATOMS);

  printf("starting run...\n");
  int iterations = 0;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, energy, atominfo, atoms, atomcount, volsize, gridspacing, iterations);
  });

  int i, j;
  for (j = 0; j < 8; j++) {
    for (i = 0; i < 8; i++) {
      int addr = j * volsize.x + i;
      printf("[%d]", addr);
      printRounded(energy[addr]);
    }
    printf("\n");
  }
  printf("Final calculation required %d iterations of %d atoms\n", iterations, MAXATOMS);
  printApprox("energy", energy);

  free(atoms);
  return 0;
}
