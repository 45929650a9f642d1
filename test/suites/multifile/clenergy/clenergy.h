#pragma once
// ompdart/clenergy.cpp split into three Ferry sources (issue 23): this
// header holds its constants, structs and kernels (`inline`: the sources
// include it) and declares the host helpers atoms.cpp defines.
#include "Print.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define MAXATOMS 4000
#define UNROLLX 8
#define UNROLLY 1
#define BLOCKSIZEX 8
#define BLOCKSIZEY 8
#define BLOCKSIZE BLOCKSIZEX *BLOCKSIZEY

struct float4 {
  float x;
  float y;
  float z;
  float w;
};

struct int3 {
  int x;
  int y;
  int z;
};

int copyatoms(float *atoms, int count, float zplane, ferry::Buffer<float4> &atominfo);
int initatoms(float **atombuf, int count, int3 volsize, float gridspacing);

FERRY_KERNEL inline void zeroEnergy(ferry::KernelContext kc, float *energy) {
  const int i = kc.x;
  energy[i] = 0.f;
}

// One work-item per grid row (see the opening comment); the body of the x
// loop is the original kernel's.
FERRY_KERNEL inline void cenergy(ferry::KernelContext kc, float *energy, const float4 *atominfo,
                          int runatoms, int3 volsize, float gridspacing) {
  const unsigned int yindex = kc.x;
  for (unsigned int xindex = 0; xindex < (unsigned int)(volsize.x / UNROLLX); xindex++) {
    unsigned int outaddr = yindex * volsize.x + xindex;
    float coory = gridspacing * yindex;
    float coorx = gridspacing * xindex;

    float energyvalx1 = 0.0f;
    float energyvalx2 = 0.0f;
    float energyvalx3 = 0.0f;
    float energyvalx4 = 0.0f;
    float energyvalx5 = 0.0f;
    float energyvalx6 = 0.0f;
    float energyvalx7 = 0.0f;
    float energyvalx8 = 0.0f;

    float gridspacing_u = gridspacing * BLOCKSIZEX;

    int atomid;
    for (atomid = 0; atomid < runatoms; atomid++) {
      float dy = coory - atominfo[atomid].y;
      float dyz2 = (dy * dy) + atominfo[atomid].z;

      float dx1 = coorx - atominfo[atomid].x;
      float dx2 = dx1 + gridspacing_u;
      float dx3 = dx2 + gridspacing_u;
      float dx4 = dx3 + gridspacing_u;
      float dx5 = dx4 + gridspacing_u;
      float dx6 = dx5 + gridspacing_u;
      float dx7 = dx6 + gridspacing_u;
      float dx8 = dx7 + gridspacing_u;

      energyvalx1 += atominfo[atomid].w / sqrtf(dx1 * dx1 + dyz2);
      energyvalx2 += atominfo[atomid].w / sqrtf(dx2 * dx2 + dyz2);
      energyvalx3 += atominfo[atomid].w / sqrtf(dx3 * dx3 + dyz2);
      energyvalx4 += atominfo[atomid].w / sqrtf(dx4 * dx4 + dyz2);
      energyvalx5 += atominfo[atomid].w / sqrtf(dx5 * dx5 + dyz2);
      energyvalx6 += atominfo[atomid].w / sqrtf(dx6 * dx6 + dyz2);
      energyvalx7 += atominfo[atomid].w / sqrtf(dx7 * dx7 + dyz2);
      energyvalx8 += atominfo[atomid].w / sqrtf(dx8 * dx8 + dyz2);
    }

    energy[outaddr] += energyvalx1;
    energy[outaddr + 1 * BLOCKSIZEX] += energyvalx2;
    energy[outaddr + 2 * BLOCKSIZEX] += energyvalx3;
    energy[outaddr + 3 * BLOCKSIZEX] += energyvalx4;
    energy[outaddr + 4 * BLOCKSIZEX] += energyvalx5;
    energy[outaddr + 5 * BLOCKSIZEX] += energyvalx6;
    energy[outaddr + 6 * BLOCKSIZEX] += energyvalx7;
    energy[outaddr + 7 * BLOCKSIZEX] += energyvalx8;
  }
}
