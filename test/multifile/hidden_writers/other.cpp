#include "other.h"
#include "guard.h"

ferry::Buffer<int> &store() {
  static ferry::Buffer<int> s(8, 0);
  return s;
}

void bumpStore() { store()[0] += 100; }

static float *stash = nullptr;

void remember(float *p) { stash = p; }

void poke() { *stash += 100.0f; }

void track(double *p) { libKeep(p); }

void tick() { Guard g; }
