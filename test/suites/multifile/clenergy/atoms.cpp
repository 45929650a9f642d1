// ompdart/clenergy.cpp split into three Ferry sources (issue 23): the host
// helpers. copyatoms writes atominfo[0, count) and nothing else; its
// summary says so (`ranges` in atoms.cpp's summary), so the call in
// main.cpp moves only those elements, as in the one-file form.
#include "clenergy.h"

int copyatoms(float *atoms, int count, float zplane, ferry::Buffer<float4> &atominfo) {
  if (count > MAXATOMS) {
    printf("Atom count exceeds constant buffer storage capacity\n");
    return -1;
  }

  int i;
  for (i = 0; i < count; i++) {
    atominfo[i].x = atoms[i * 4];
    atominfo[i].y = atoms[i * 4 + 1];
    float dz = zplane - atoms[i * 4 + 2];
    atominfo[i].z = dz * dz;
    atominfo[i].w = atoms[i * 4 + 3];
  }
  return 0;
}

int initatoms(float **atombuf, int count, int3 volsize, float gridspacing) {
  float4 size;
  int i;
  float *atoms;

  atoms = (float *)malloc(count * 4 * sizeof(float));
  *atombuf = atoms;

  // compute grid dimensions in angstroms
  size.x = gridspacing * volsize.x;
  size.y = gridspacing * volsize.y;
  size.z = gridspacing * volsize.z;

  for (i = 0; i < count; i++) {
    int addr = i * 4;
    atoms[addr] = ((i * 37 + 11) % 101 / 101.0f) * size.x;
    atoms[addr + 1] = ((i * 53 + 7) % 103 / 103.0f) * size.y;
    atoms[addr + 2] = ((i * 29 + 3) % 107 / 107.0f) * size.z + 0.5f;
    atoms[addr + 3] = ((i * 13 + 1) % 7 / 7.0f) * 2.0f - 1.0f; // charge
  }
  return 0;
}
