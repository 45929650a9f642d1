#pragma once
#include <ferry/ferry.hpp>

// A buffer of other.cpp's own, in a static local, written by bumpStore().
ferry::Buffer<int> &store();
void bumpStore();

// A pointer kept in a static of other.cpp, written through by poke().
void remember(float *p);
void poke();

// Hands a pointer to plain_guard.cpp (not a Ferry source), which keeps it.
void track(double *p);
// Destroys a Guard, whose destructor (in plain_guard.cpp) writes through it.
void tick();
