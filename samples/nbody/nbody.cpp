// nbody: gravitating bodies held in one buffer of structs, advanced by two
// kernels a time step (`accelerate` updates each body's velocity from every
// body's position, `integrate` moves each body), with the total energy
// computed on the host every few steps by a helper that takes the buffer by
// const reference. Only the steps the host looks at bring the bodies back.
//
//   nbody [BODIES] [STEPS] [EVERY]
//
// Transfers, by hand, for the default 64 bodies (7 floats, 28 B each: the
// buffer is 1792 B), 10 steps, energy every 4 steps:
//   step 0: the energy before the first step reads `bodies`, valid on the
//           host: nothing. `accelerate` reads `bodies`, stale on the device:
//           in (1).
//   every step: both kernels read and write `bodies`, valid on the device:
//           nothing (20 dispatches).
//   after steps 4 and 8: the energy reads `bodies`, stale on the host: out
//           (2); reading leaves the device copy valid, so nothing goes back in.
//   exit: steps 9 and 10 left `bodies` stale on the host and the caller
//           reads it: out (1).
// In 1 (1792 B), out 3 (5376 B), 20 dispatches.
//
// Energies and positions are printed to a few digits only: the device may
// fuse a multiply and an add that the host rounds twice.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 1792 from_device 3 from_device_bytes 5376
// ferry-test: dispatches 20
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Body {
  float x, y, z;
  float vx, vy, vz;
  float mass;
};

// Reads the positions and masses of every body, writes only its own
// velocity: no work-item reads what another one writes.
FERRY_KERNEL void accelerate(ferry::KernelContext kc, Body *bodies, int n,
                             float dt, float softening) {
  if (kc.x < n) {
    const float x = bodies[kc.x].x, y = bodies[kc.x].y, z = bodies[kc.x].z;
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
      const float dx = bodies[j].x - x, dy = bodies[j].y - y,
                  dz = bodies[j].z - z;
      const float d2 = dx * dx + dy * dy + dz * dz + softening;
      const float scale = bodies[j].mass / (d2 * std::sqrt(d2));
      ax += scale * dx;
      ay += scale * dy;
      az += scale * dz;
    }
    bodies[kc.x].vx += ax * dt;
    bodies[kc.x].vy += ay * dt;
    bodies[kc.x].vz += az * dt;
  }
}

FERRY_KERNEL void integrate(ferry::KernelContext kc, Body *bodies, int n,
                            float dt) {
  if (kc.x < n) {
    bodies[kc.x].x += bodies[kc.x].vx * dt;
    bodies[kc.x].y += bodies[kc.x].vy * dt;
    bodies[kc.x].z += bodies[kc.x].vz * dt;
  }
}

// Kinetic plus potential energy, on the host, in double.
double energy(const ferry::Buffer<Body> &bodies, float softening) {
  double e = 0.0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body &b = bodies[i];
    e += 0.5 * b.mass * (b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      const double dx = bodies[j].x - b.x, dy = bodies[j].y - b.y,
                   dz = bodies[j].z - b.z;
      e -= b.mass * bodies[j].mass /
           std::sqrt(dx * dx + dy * dy + dz * dz + softening);
    }
  }
  return e;
}

FERRY_COMPUTE void simulate(ferry::ComputeContext &cc,
                            ferry::Buffer<Body> &bodies, int steps, int every,
                            float dt, float softening) {
  const int n = static_cast<int>(bodies.size());
  for (int step = 0; step < steps; ++step) {
    if (step % every == 0)
      std::printf("step %d: energy %.4g\n", step, energy(bodies, softening));
    cc.dispatch(accelerate, ferry::Range(n), bodies, n, dt, softening);
    cc.dispatch(integrate, ferry::Range(n), bodies, n, dt);
  }
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: nbody [BODIES] [STEPS] [EVERY]\n"
    "  BODIES  bodies, 1 to 65536 (default 64)\n"
    "  STEPS   time steps, 0 to 1000000 (default 10)\n"
    "  EVERY   steps between energies, 1 to 1000000 (default 4)\n";

[[noreturn]] void usage(int status) {
  std::fputs(kUsage, status == 0 ? stdout : stderr);
  std::exit(status);
}

// argv[index] as a whole number from `low` to `high`; `fallback` if absent.
int intArgument(int argc, char **argv, int index, const char *name, int low,
                int high, int fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || errno != 0 || value < low ||
      value > high) {
    std::fprintf(stderr,
                 "nbody: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 4) {
    std::fprintf(stderr, "nbody: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "BODIES", 1, 65536, 64);
  const int steps = intArgument(argc, argv, 2, "STEPS", 0, 1000000, 10);
  const int every = intArgument(argc, argv, 3, "EVERY", 1, 1000000, 4);
  const float dt = 0.01f, softening = 0.01f;

  // A cloud of equal masses in the unit cube, slowly turning about z.
  ferry::Buffer<Body> bodies(n);
  unsigned state = 7;
  auto uniform = [&state]() {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
  };
  for (int i = 0; i < n; ++i) {
    Body &b = bodies[i];
    b.x = uniform();
    b.y = uniform();
    b.z = uniform();
    b.vx = -0.5f * b.y;
    b.vy = 0.5f * b.x;
    b.vz = 0.0f;
    b.mass = 1.0f / static_cast<float>(n);
  }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    simulate(cc, bodies, steps, every, dt, softening);
  });

  double cx = 0.0, cy = 0.0, cz = 0.0;
  for (const Body &b : bodies) {
    cx += b.mass * b.x;
    cy += b.mass * b.y;
    cz += b.mass * b.z;
  }
  std::printf("step %d: energy %.4g\n", steps, energy(bodies, softening));
  std::printf("check: n=%d steps=%d centre of mass (%.3f, %.3f, %.3f)\n", n,
              steps, cx, cy, cz);
  return 0;
}
