#pragma once
// particles: what the sample's Ferry sources share. The kernels are `inline`
// here: solver.cpp, which dispatches them, emits them as OpenCL C.
#include <ferry/ferry.hpp>

struct Vec2 {
  float x, y;
};

// Gravity and drag: each particle's own velocity, read and written.
FERRY_KERNEL inline void accelerate(ferry::KernelContext kc, Vec2 *vel, int n,
                                    float dt, float gravity, float drag) {
  if (kc.x < n) {
    vel[kc.x].y -= gravity * dt;
    vel[kc.x].x *= 1.0f - drag * dt;
    vel[kc.x].y *= 1.0f - drag * dt;
  }
}

// Moves each particle and bounces it off the walls of the unit box.
FERRY_KERNEL inline void move(ferry::KernelContext kc, Vec2 *pos, Vec2 *vel,
                              int n, float dt) {
  if (kc.x < n) {
    Vec2 p = pos[kc.x], v = vel[kc.x];
    p.x += v.x * dt;
    p.y += v.y * dt;
    if (p.x < 0.0f) { p.x = -p.x; v.x = -v.x; }
    if (p.x > 1.0f) { p.x = 2.0f - p.x; v.x = -v.x; }
    if (p.y < 0.0f) { p.y = -p.y; v.y = -v.y; }
    if (p.y > 1.0f) { p.y = 2.0f - p.y; v.y = -v.y; }
    pos[kc.x] = p;
    vel[kc.x] = v;
  }
}

// solver.cpp: `steps` time steps on the device.
void advance(ferry::ComputeContext &cc, ferry::Buffer<Vec2> &pos,
             ferry::Buffer<Vec2> &vel, int steps, float dt);

// setup.cpp: the initial state, and what the host reads.
void seed(ferry::Buffer<Vec2> &pos, ferry::Buffer<Vec2> &vel, unsigned seed);
double kineticEnergy(const ferry::Buffer<Vec2> &vel);
void printCentre(const char *label, const ferry::Buffer<Vec2> &pos);
